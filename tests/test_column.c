/*
 * test_column.c — the column builders' string offsets: int32 until the
 * bytes could pass INT32_MAX, then widened to int64 in place; every offset
 * kept through the widening, appends after it, and the export (which
 * narrows offsets again when the bytes fit).  Internal functions: static
 * library only.  (Bytes really past 2 GiB are not built here: the
 * widening itself is what changes, and it is exercised directly.)
 */
#include "table/table.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

static void *t_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n);
}

static void *t_realloc(void *ctx, void *p, size_t old, size_t n)
{
    (void)ctx;
    (void)old;
    return realloc(p, n);
}

static void t_free(void *ctx, void *p, size_t n)
{
    (void)ctx;
    (void)n;
    free(p);
}

static const simdsv_allocator alloc = {t_alloc, t_realloc, t_free, NULL};

static void append(column *c, const char *text)
{
    int nomem = 0;
    if (text)
        CHECK(simdsv__column_append_text(&alloc, c, text, strlen(text), NULL, &nomem) == 1 && !nomem);
    else
        CHECK(simdsv__column_append_null(&alloc, c) == SIMDSV_OK);
}

int main(void)
{
    column c;
    memset(&c, 0, sizeof c);
    c.type = SIMDSV_TYPE_STRING;
    const char *first[] = {"a", "bc", "", NULL, "def"};
    for (size_t i = 0; i < 5; i++)
        append(&c, first[i]);
    CHECK(!c.wide_offsets && c.length == 5 && c.chars_len == 6);
    static const int64_t before[] = {0, 1, 3, 3, 3, 6};
    for (uint64_t i = 0; i <= 5; i++)
        CHECK(simdsv__offset_get(&c, i) == before[i]);

    CHECK(simdsv__column_widen_offsets(&alloc, &c) == SIMDSV_OK && c.wide_offsets);
    for (uint64_t i = 0; i <= 5; i++)
        CHECK(simdsv__offset_get(&c, i) == before[i]);
    /* Appends after the widening, past the capacity the int32 array had. */
    for (int i = 0; i < 1000; i++)
        append(&c, i % 3 ? "gh" : NULL);
    int64_t want = 6;
    int ok = 1;
    for (uint64_t i = 0; i < 1000; i++) {
        want += i % 3 ? 2 : 0;
        ok &= simdsv__offset_get(&c, 6 + i) == want;
    }
    CHECK(ok && c.chars_len == (size_t)want && c.null_count == 1 + 334);

    /* Export: the bytes fit, so utf8 with int32 offsets again. */
    simdsv_table t;
    memset(&t, 0, sizeof t);
    t.alloc = alloc;
    char name[] = "s";
    c.name = name;
    t.cols = &c;
    t.ncols = t.cols_cap = 1;
    t.rows = c.length;
    /* The typed view reads the widened offsets as they are (8 bytes each). */
    simdsv_column_view view;
    CHECK(simdsv_table_column_view(&t, 0, &view) == SIMDSV_OK && view.offset_width == 8 && view.length == 1005);
    size_t size;
    const char *text = simdsv_view_string(&view, 1, &size);
    CHECK(size == 2 && memcmp(text, "bc", 2) == 0);
    text = simdsv_view_string(&view, 1003, &size); /* rows 5 + i: "gh" unless i % 3 == 0 */
    CHECK(size == 2 && memcmp(text, "gh", 2) == 0 && simdsv_view_valid(&view, 1003) && !simdsv_view_valid(&view, 1004));
    struct ArrowSchema s;
    struct ArrowArray a;
    CHECK(simdsv_table_move_to_arrow(&t, &s, &a) == SIMDSV_OK);
    CHECK(strcmp(s.children[0]->format, "u") == 0 && a.children[0]->length == 1005);
    const int32_t *off = a.children[0]->buffers[1];
    const char *bytes = a.children[0]->buffers[2];
    ok = 1;
    for (int i = 0; i <= 5; i++)
        ok &= off[i] == before[i];
    CHECK(ok && off[1005] == want && memcmp(bytes, "abcdefgh", 8) == 0);
    a.release(&a);
    s.release(&s);
    simdsv__column_free_data(&alloc, &c);
    return check_summary();
}
