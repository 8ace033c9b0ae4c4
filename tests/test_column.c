/*
 * test_column.c — the column builders' string offsets: int32 until the
 * bytes could pass INT32_MAX, then widened to int64 in place; every offset
 * kept through the widening, appends after it, and the export (which
 * narrows offsets again when the bytes fit).  Internal functions: static
 * library only.  (Bytes really past 2 GiB are not built here: the
 * widening itself is what changes, and it is exercised directly.)
 * Then the validity bits the type loops (simdsv__column_put_fields) write
 * for runs that start and end inside a byte, with and without nulls, mixed
 * with single appends after them.
 */
#include "table/table.h"
#include "values/fields.h"
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

/* Runs of fields "f0,f1,...," through simdsv__column_put_fields into an
 * int64 column, between single appends: every validity bit, value and the
 * null count as if each field had been appended alone; with the number
 * kernel of kernel, and readable bytes after the fields (the kernel's
 * path) or none (the path of the last row). */
static void validity_runs(simdsv_kernel kernel, int readable)
{
    /* slot i: the text of texts[i] ("" is a null) */
    static const char *texts[] = {"1", "", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", NULL,
                                  "15", "16", "17", "", "", "20", "21", "22", "23", "24", "25", "26", "27",
                                  "28", "29", "30", "31", "32", "33"};
    /* how many slots each step takes: a run of put_fields, or 0 for one
     * append_null (texts[i] NULL) */
    static const size_t steps[] = {3, 10, 0, 2, 1, 4, 12};
    enum { SLOTS = sizeof texts / sizeof *texts };
    char buf[256] = {0};
    uint32_t pos[SLOTS + 1];
    size_t len = 0;
    for (size_t i = 0; i < SLOTS; i++) {
        pos[i] = (uint32_t)len;
        const char *t = texts[i] ? texts[i] : "";
        memcpy(buf + len, t, strlen(t));
        len += strlen(t);
        buf[len++] = ',';
    }
    pos[SLOTS] = (uint32_t)len;

    column c;
    memset(&c, 0, sizeof c);
    c.type = SIMDSV_TYPE_INT64;
    CHECK(simdsv__column_reserve(&alloc, &c, SLOTS) == SIMDSV_OK);
    memset(c.validity, 0xA5, (SLOTS + 7) / 8); /* as fresh memory may be: the loops must not read it */
    const value_rules rules = {NULL, NULL, 0, 0, SIMDSV_DATE_ISO, 0};
    size_t at = 0;
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
        if (steps[k] == 0) {
            CHECK(texts[at] == NULL && simdsv__column_append_null(&alloc, &c) == SIMDSV_OK);
            at++;
            continue;
        }
        const field_run run = {buf, pos + at, 1, steps[k], '"', 256, readable ? sizeof buf : 0,
                               simdsv__value_kernel(kernel)};
        CHECK(simdsv__column_put_fields(&c, &run, &rules, 0) == steps[k]);
        at += steps[k];
    }
    CHECK(at == SLOTS && c.length == SLOTS && c.null_count == 4);
    int ok = 1;
    for (size_t i = 0; i < SLOTS; i++) {
        const int valid = texts[i] && texts[i][0];
        ok &= ((c.validity[i / 8] >> (i % 8)) & 1) == valid;
        ok &= ((const int64_t *)c.values)[i] == (valid ? (int64_t)(i + 1) : 0);
    }
    CHECK(ok);
    CHECK((c.validity[SLOTS / 8] >> (SLOTS % 8)) == 0); /* past the last slot: clear */
    simdsv__column_free_data(&alloc, &c);
}

int main(void)
{
    static const simdsv_kernel kernels[] = {SIMDSV_KERNEL_SCALAR, SIMDSV_KERNEL_SSE42, SIMDSV_KERNEL_AVX2,
                                            SIMDSV_KERNEL_AVX512, SIMDSV_KERNEL_NEON};
    for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++)
        if (simdsv_kernel_supported(kernels[k])) {
            validity_runs(kernels[k], 0);
            validity_runs(kernels[k], 1);
        }

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
