/*
 * test_write.c — the writers' C API with a stream that is not simdsv's: the
 * same rows as batches that are views into shared buffers (struct and child
 * offsets, bitmaps not starting on a byte) and as compact batches must give
 * the same bytes, on one thread and on four; the output's framing; errors:
 * a failing stream, a failing sink, an unknown format, a codec the format
 * does not define; and a path written through a temporary file that a
 * failure leaves untouched.  The readers that judge the content are in
 * tests/readers (DuckDB, Polars, Arrow JS).
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "simdsv.h"

#include <dirent.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROWS 1000
#define NCOLS 7

static const char *const formats[NCOLS] = {"l", "u", "b", "g", "tdD", "tsu:", "n"};
static const char *const names[NCOLS] = {"id", "text", "flag", "x", "day", "at", "nothing"};

/* The full columns: each batch looks into these. */
static int64_t ids[ROWS], stamps[ROWS];
static double xs[ROWS];
static int32_t days[ROWS], offsets[ROWS + 1];
static char text[ROWS * 8];
static uint8_t valid[ROWS / 8 + 1], flags[ROWS / 8 + 1];

static void fill(void)
{
    int32_t at = 0;
    for (int i = 0; i < ROWS; i++) {
        ids[i] = (int64_t)i * 1000003 - 500;
        stamps[i] = (int64_t)i * 86400000000LL / 7;
        xs[i] = i % 5 ? i / 8.0 : -0.0;
        days[i] = 19000 + i % 40;
        offsets[i] = at;
        at += (int32_t)sprintf(text + at, "v%d", i % 97);
        if (i % 7)
            valid[i / 8] |= (uint8_t)(1u << (i % 8));
        if (i % 3 == 0)
            flags[i / 8] |= (uint8_t)(1u << (i % 8));
    }
    offsets[ROWS] = at;
}

/* ------------------------------------------------------- a test stream */

typedef struct test_stream {
    const int *starts; /* batch k: rows [starts[k], starts[k + 1]) */
    int nbatches, next;
    int compact;       /* 1: each batch copies its rows to offset 0; 0: views with offsets */
    int fail_at;       /* get_next fails (EINVAL) at this batch; -1 never */
} test_stream;

typedef struct batch_mem {
    struct ArrowArray children[NCOLS];
    struct ArrowArray *child_ptrs[NCOLS];
    const void *buffers[NCOLS][3];
    const void *struct_buffers[1];
    void *owned[NCOLS][3];
} batch_mem;

static void release_schema(struct ArrowSchema *s)
{
    if (s->n_children) {
        for (int i = 0; i < NCOLS; i++)
            free(s->children[i]);
        free(s->children);
    }
    s->release = NULL;
}

static void release_child(struct ArrowArray *a)
{
    a->release = NULL;
}

static void release_batch(struct ArrowArray *a)
{
    batch_mem *m = a->private_data;
    for (int i = 0; i < NCOLS; i++)
        for (int k = 0; k < 3; k++)
            free(m->owned[i][k]);
    free(m);
    a->release = NULL;
}

static int get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    (void)st;
    memset(out, 0, sizeof *out);
    out->format = "+s";
    out->name = "";
    out->n_children = NCOLS;
    out->children = malloc(NCOLS * sizeof *out->children);
    for (int i = 0; i < NCOLS; i++) {
        out->children[i] = calloc(1, sizeof **out->children);
        out->children[i]->format = formats[i];
        out->children[i]->name = names[i];
        out->children[i]->flags = ARROW_FLAG_NULLABLE;
        out->children[i]->release = release_schema;
    }
    out->release = release_schema;
    return 0;
}

static void *copy_bits(const uint8_t *bits, int start, int n)
{
    uint8_t *out = calloc((size_t)n / 8 + 1, 1);
    for (int i = 0; i < n; i++)
        if ((bits[(start + i) / 8] >> ((start + i) % 8)) & 1)
            out[i / 8] |= (uint8_t)(1u << (i % 8));
    return out;
}

static void *copy_bytes(const void *p, size_t n)
{
    void *out = malloc(n ? n : 1);
    memcpy(out, p, n);
    return out;
}

static int get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    test_stream *t = st->private_data;
    memset(out, 0, sizeof *out);
    if (t->next == t->fail_at)
        return EINVAL;
    if (t->next == t->nbatches)
        return 0; /* the end: release stays NULL */
    const int start = t->starts[t->next], n = t->starts[t->next + 1] - start;
    t->next++;
    batch_mem *m = calloc(1, sizeof *m);
    int nulls = 0;
    for (int i = start; i < start + n; i++)
        nulls += i % 7 == 0;
    for (int c = 0; c < NCOLS; c++) {
        struct ArrowArray *a = &m->children[c];
        m->child_ptrs[c] = a;
        a->length = n;
        a->release = release_child;
        a->buffers = m->buffers[c];
        a->n_buffers = c == 6 ? 0 : c == 1 ? 3 : 2;
        a->null_count = c == 6 ? n : c == 0 || c == 1 ? nulls : 0;
        const void *columns[] = {ids, NULL, flags, xs, days, stamps};
        const size_t widths[] = {8, 0, 0, 8, 4, 8};
        if (c == 6)
            continue;
        if (!t->compact) {
            a->offset = start;
            m->buffers[c][0] = c <= 1 ? valid : NULL;
            m->buffers[c][1] = c == 1 ? (const void *)offsets : columns[c];
            m->buffers[c][2] = text;
            continue;
        }
        if (c <= 1)
            m->buffers[c][0] = m->owned[c][0] = copy_bits(valid, start, n);
        if (c == 2) {
            m->buffers[c][1] = m->owned[c][1] = copy_bits(flags, start, n);
        } else if (c == 1) {
            int32_t *o = malloc(((size_t)n + 1) * sizeof *o);
            for (int i = 0; i <= n; i++)
                o[i] = offsets[start + i] - offsets[start];
            m->buffers[c][1] = m->owned[c][1] = o;
            m->buffers[c][2] = m->owned[c][2] =
                copy_bytes(text + offsets[start], (size_t)(offsets[start + n] - offsets[start]));
        } else {
            m->buffers[c][1] = m->owned[c][1] =
                copy_bytes((const char *)columns[c] + widths[c] * (size_t)start, widths[c] * (size_t)n);
        }
    }
    out->length = n;
    out->n_buffers = 1;
    out->buffers = m->struct_buffers;
    out->n_children = NCOLS;
    out->children = m->child_ptrs;
    out->private_data = m;
    out->release = release_batch;
    return 0;
}

static const char *last_error(struct ArrowArrayStream *st)
{
    (void)st;
    return "line 42, column 3 (byte 1234): made up for the test";
}

static void release_stream(struct ArrowArrayStream *st)
{
    st->release = NULL;
}

static struct ArrowArrayStream make_stream(test_stream *t)
{
    t->next = 0;
    struct ArrowArrayStream s = {get_schema, get_next, last_error, release_stream, t};
    return s;
}

/* --------------------------------------------------------------- sinks */

typedef struct membuf {
    unsigned char *data;
    size_t len, cap;
    size_t fail_after; /* fail once this many bytes are in; 0 never */
} membuf;

static long long to_memory(void *ctx, const void *buf, size_t size, int *os_errno)
{
    membuf *m = ctx;
    if (m->fail_after && m->len + size > m->fail_after) {
        *os_errno = ENOSPC;
        return -1;
    }
    if (m->len + size > m->cap) {
        m->cap = (m->len + size) * 2;
        m->data = realloc(m->data, m->cap);
    }
    memcpy(m->data + m->len, buf, size);
    m->len += size;
    return (long long)size;
}

static membuf write_mem(test_stream *t, simdsv_format format, simdsv_codec codec, int threads, int64_t rg,
                        simdsv_status *st)
{
    membuf m = {NULL, 0, 0, 0};
    simdsv_write_options o;
    simdsv_write_options_init(&o);
    o.format = format;
    o.codec = codec;
    o.threads = threads;
    o.row_group_rows = rg;
    struct ArrowArrayStream s = make_stream(t);
    simdsv_error err;
    *st = simdsv_write_callback(&s, to_memory, &m, &o, &err);
    s.release(&s);
    return m;
}

static int same(const membuf *a, const membuf *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

static void test_views_equal_copies(void)
{
    static const int starts[] = {0, 300, 453, 701, 1000};
    const simdsv_codec codecs[] = {SIMDSV_CODEC_NONE, SIMDSV_CODEC_ZSTD};
    const simdsv_format fmts[] = {SIMDSV_FORMAT_PARQUET, SIMDSV_FORMAT_ARROW_FILE, SIMDSV_FORMAT_ARROW_STREAM};
    for (size_t f = 0; f < 3; f++) {
        for (size_t k = 0; k < 2; k++) {
            if (!simdsv_codec_supported(codecs[k]))
                continue;
            test_stream views = {starts, 4, 0, 0, -1}, copies = {starts, 4, 0, 1, -1};
            simdsv_status s1, s2, s3;
            membuf a = write_mem(&views, fmts[f], codecs[k], 1, 256, &s1);
            membuf b = write_mem(&copies, fmts[f], codecs[k], 1, 256, &s2);
            membuf c = write_mem(&views, fmts[f], codecs[k], 4, 256, &s3);
            CHECK(s1 == SIMDSV_OK && s2 == SIMDSV_OK && s3 == SIMDSV_OK);
            CHECK(same(&a, &b)); /* offsets and sliced bitmaps change nothing */
            CHECK(same(&a, &c)); /* neither do threads */
            if (fmts[f] == SIMDSV_FORMAT_PARQUET) {
                CHECK(a.len > 12 && memcmp(a.data, "PAR1", 4) == 0 && memcmp(a.data + a.len - 4, "PAR1", 4) == 0);
                uint32_t footer;
                memcpy(&footer, a.data + a.len - 8, 4);
                CHECK(footer > 0 && footer < a.len - 12);
            } else if (fmts[f] == SIMDSV_FORMAT_ARROW_FILE) {
                CHECK(a.len > 16 && memcmp(a.data, "ARROW1\0\0", 8) == 0 &&
                      memcmp(a.data + a.len - 6, "ARROW1", 6) == 0);
            } else {
                /* Schema message first, end-of-stream marker last, 8-byte framing. */
                CHECK(a.len % 8 == 0 && memcmp(a.data, "\xFF\xFF\xFF\xFF", 4) == 0 &&
                      memcmp(a.data + a.len - 8, "\xFF\xFF\xFF\xFF\0\0\0\0", 8) == 0);
            }
            free(a.data);
            free(b.data);
            free(c.data);
        }
    }
}

static void test_errors(void)
{
    static const int starts[] = {0, 500, 1000};
    simdsv_write_options o;
    simdsv_error err;
    /* A failing stream: its status and its message. */
    test_stream failing = {starts, 2, 0, 0, 1};
    struct ArrowArrayStream s = make_stream(&failing);
    membuf m = {NULL, 0, 0, 0};
    simdsv_write_options_init(&o);
    CHECK(simdsv_write_callback(&s, to_memory, &m, &o, &err) == SIMDSV_ERR_VALUE);
    CHECK(strstr(err.message, "line 42, column 3") != NULL);
    free(m.data);
    /* A failing sink. */
    test_stream ok = {starts, 2, 0, 0, -1};
    s = make_stream(&ok);
    membuf full = {NULL, 0, 0, 100};
    CHECK(simdsv_write_callback(&s, to_memory, &full, &o, &err) == SIMDSV_ERR_IO);
    CHECK(err.os_errno == ENOSPC);
    free(full.data);
    /* Codecs the format does not define, and unknown values. */
    o.codec = SIMDSV_CODEC_LZ4;
    s = make_stream(&ok);
    CHECK(simdsv_write_callback(&s, to_memory, &m, &o, &err) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "lz4") != NULL);
    o.codec = SIMDSV_CODEC_ZSTD;
    o.level = 23;
    CHECK(simdsv_write_callback(&s, to_memory, &m, &o, &err) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(!simdsv_codec_supported(SIMDSV_CODEC_ZSTD) || strstr(err.message, "1..22") != NULL);
    o.level = 0;
    o.codec = (simdsv_codec)99;
    CHECK(simdsv_write_callback(&s, to_memory, &m, &o, &err) == SIMDSV_ERR_INVALID_ARGUMENT);
    o.codec = SIMDSV_CODEC_NONE;
    o.format = (simdsv_format)7;
    CHECK(simdsv_write_callback(&s, to_memory, &m, &o, &err) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_write_callback(NULL, to_memory, &m, NULL, &err) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_codec_from_name("zstd") == SIMDSV_CODEC_ZSTD && simdsv_codec_from_name("brotli") == -1);
    CHECK(strcmp(simdsv_codec_name(SIMDSV_CODEC_GZIP), "gzip") == 0 && simdsv_codec_name((simdsv_codec)9) == NULL);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void test_path(void)
{
    char dir[] = "/tmp/simdsv-test-write-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    char path[128];
    snprintf(path, sizeof path, "%s/out.parquet", dir);
    static const int starts[] = {0, 500, 1000};
    test_stream ok = {starts, 2, 0, 0, -1}, failing = {starts, 2, 0, 0, 1};
    struct ArrowArrayStream s = make_stream(&ok);
    simdsv_error err;
    CHECK(simdsv_write_path(&s, path, NULL, &err) == SIMDSV_OK);
    FILE *f = fopen(path, "rb");
    char magic[4] = {0};
    CHECK(f && fread(magic, 1, 4, f) == 4 && memcmp(magic, "PAR1", 4) == 0);
    if (f)
        fclose(f);
    /* A failure keeps what the path held and leaves no temporary file. */
    s = make_stream(&failing);
    CHECK(simdsv_write_path(&s, path, NULL, &err) == SIMDSV_ERR_VALUE);
    f = fopen(path, "rb");
    CHECK(f && fread(magic, 1, 4, f) == 4 && memcmp(magic, "PAR1", 4) == 0);
    if (f)
        fclose(f);
    CHECK(count_entries(dir) == 1);
    snprintf(path, sizeof path, "%s/missing/out.arrow", dir);
    s = make_stream(&ok);
    CHECK(simdsv_write_path(&s, path, NULL, &err) == SIMDSV_ERR_IO && err.os_errno == ENOENT);
    /* A symbolic link is written through, and stays a link (a temporary
     * file renamed over it would replace it: /dev/null, as root, too). */
    char link_path[128];
    snprintf(path, sizeof path, "%s/out.parquet", dir);
    snprintf(link_path, sizeof link_path, "%s/link.parquet", dir);
    unlink(path);
    CHECK(symlink(path, link_path) == 0);
    s = make_stream(&ok);
    CHECK(simdsv_write_path(&s, link_path, NULL, &err) == SIMDSV_OK);
    struct stat st;
    CHECK(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode));
    f = fopen(path, "rb");
    CHECK(f && fread(magic, 1, 4, f) == 4 && memcmp(magic, "PAR1", 4) == 0);
    if (f)
        fclose(f);
    CHECK(count_entries(dir) == 2);
    unlink(link_path);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    fill();
    test_views_equal_copies();
    test_errors();
    test_path();
    return check_summary();
}
