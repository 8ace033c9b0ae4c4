/*
 * test_alloc.c — allocation failure.  Each scenario first runs with an
 * allocator that counts its allocations (N of them), then once for every
 * k in 1..N with an allocator that fails the k-th one.  Every run must end
 * in success or SIMDSV_ERR_NOMEM (never another error, never a crash), leave
 * the reader safe to free, and leak nothing (live bytes back to zero).
 */
#define _POSIX_C_SOURCE 200809L
#include "simdsv.h"
#include "check.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct failing {
    long calls;     /* allocations so far (alloc and realloc) */
    long fail_at;   /* 1-based call that fails; 0 = none */
    long long live; /* bytes outstanding */
    int failed_shrink; /* the failed call was a realloc to a smaller size */
} failing;

static int should_fail(failing *f)
{
    return ++f->calls == f->fail_at;
}

static void *f_alloc(void *ctx, size_t n)
{
    failing *f = ctx;
    if (should_fail(f))
        return NULL;
    void *p = malloc(n);
    if (p)
        f->live += (long long)n;
    return p;
}

static void *f_realloc(void *ctx, void *p, size_t old, size_t n)
{
    failing *f = ctx;
    if (should_fail(f)) {
        f->failed_shrink = n < old;
        return NULL;
    }
    void *q = realloc(p, n);
    if (q)
        f->live += (long long)n - (long long)old;
    return q;
}

static void f_free(void *ctx, void *p, size_t n)
{
    failing *f = ctx;
    f->live -= (long long)n;
    free(p);
}

typedef simdsv_status (*scenario)(const simdsv_allocator *a);

static const char sample[] = "name,qty,price,day,note\n"
                             "apple,1,0.5,2024-01-01,\"fresh, red\"\n"
                             "pear,2,0.75,2024-01-02,\"said \"\"hi\"\"\"\n"
                             "plum,x,1.25,2024-01-03,bad\"quote\n"
                             "kiwi,4,2,2024-01-04,\"multi\nline\"\n";

/* The streaming reader, a small buffer, unescaping, an error and recovery. */
static simdsv_status stream_scenario(const simdsv_allocator *a)
{
    simdsv_options *o = simdsv_options_new(a);
    if (!o)
        return SIMDSV_ERR_NOMEM;
    simdsv_options_set(o, SIMDSV_OPT_BUFFER_SIZE, 4096);
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, o);
    simdsv_options_free(o);
    if (st != SIMDSV_OK)
        return st;
    /* a long record forces the buffer to grow */
    static char big[20000];
    memcpy(big, sample, sizeof sample - 1);
    size_t len = sizeof sample - 1;
    big[len++] = '"';
    while (len < sizeof big - 3)
        big[len++] = 'z';
    big[len++] = '"';
    big[len++] = '\n';
    FILE *f = fmemopen(big, len, "r");
    st = simdsv_reader_open_stdio(r, f);
    simdsv_record rec;
    int data_errors = 0;
    while (st == SIMDSV_OK || st == SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD) {
        data_errors += st != SIMDSV_OK;
        st = simdsv_reader_next(r, &rec);
        for (size_t i = 0; st == SIMDSV_OK && i < rec.field_count; i++) {
            const char *p;
            size_t n;
            const simdsv_status u = simdsv_reader_unescape(r, &rec.fields[i], &p, &n);
            if (u != SIMDSV_OK)
                st = u;
        }
    }
    simdsv_reader_free(r);
    fclose(f);
    if (st == SIMDSV_END && data_errors != 1)
        return SIMDSV_ERR_INVALID_ARGUMENT; /* the one bad record must be reported, whatever else failed */
    return st == SIMDSV_END ? SIMDSV_OK : st;
}

/* The typed reader (lenient, so the bad quote is data) and the Arrow export. */
static simdsv_status table_scenario(const simdsv_allocator *a)
{
    simdsv_options *o = simdsv_options_new(a);
    if (!o)
        return SIMDSV_ERR_NOMEM;
    simdsv_options_set(o, SIMDSV_OPT_LENIENT, 1);
    simdsv_options_set(o, SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL);
    simdsv_status st = simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "qty:int64");
    if (st == SIMDSV_OK)
        st = simdsv_options_set_string(o, SIMDSV_OPT_NULL_VALUES, "NA,note=bad");
    simdsv_reader *r = NULL;
    if (st == SIMDSV_OK)
        st = simdsv_reader_new(&r, o);
    simdsv_options_free(o);
    if (st != SIMDSV_OK)
        return st;
    simdsv_table *t = NULL;
    st = simdsv_reader_open_memory(r, sample, sizeof sample - 1);
    if (st == SIMDSV_OK)
        st = simdsv_table_read(r, &t);
    if (st == SIMDSV_OK) {
        struct ArrowSchema s;
        struct ArrowArray arr;
        st = simdsv_table_move_to_arrow(t, &s, &arr);
        if (st == SIMDSV_OK) {
            if (arr.length != 4 || s.n_children != 5 || simdsv_table_reject_count(t) != 1)
                st = SIMDSV_ERR_INVALID_ARGUMENT;
            arr.release(&arr);
            s.release(&s);
        }
    }
    simdsv_table_free(t);
    simdsv_reader_free(r);
    return st;
}

/* An Arrow stream of record batches (2 rows each) over the same input. */
static simdsv_status arrow_stream_scenario(const simdsv_allocator *a)
{
    simdsv_options *o = simdsv_options_new(a);
    if (!o)
        return SIMDSV_ERR_NOMEM;
    simdsv_options_set(o, SIMDSV_OPT_LENIENT, 1);
    simdsv_options_set(o, SIMDSV_OPT_BATCH_ROWS, 2);
    simdsv_options_set(o, SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL);
    simdsv_status st = simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "qty:int64");
    simdsv_reader *r = NULL;
    if (st == SIMDSV_OK)
        st = simdsv_reader_new(&r, o);
    simdsv_options_free(o);
    if (st != SIMDSV_OK)
        return st;
    struct ArrowArrayStream stream;
    st = simdsv_reader_open_memory(r, sample, sizeof sample - 1);
    if (st == SIMDSV_OK)
        st = simdsv_table_stream(r, &stream);
    if (st != SIMDSV_OK) {
        simdsv_reader_free(r);
        return st;
    }
    struct ArrowSchema schema;
    int rc = stream.get_schema(&stream, &schema);
    if (rc == 0)
        schema.release(&schema);
    int64_t rows = 0;
    while (rc == 0) {
        struct ArrowArray batch;
        rc = stream.get_next(&stream, &batch);
        if (rc != 0 || !batch.release)
            break;
        rows += batch.length;
        batch.release(&batch);
    }
    const size_t rejects = simdsv_table_stream_reject_count(&stream);
    stream.release(&stream);
    if (rc == ENOMEM)
        return SIMDSV_ERR_NOMEM;
    return rc == 0 && rows == 4 && rejects == 1 ? SIMDSV_OK : SIMDSV_ERR_INVALID_ARGUMENT;
}

/* Detection, typed and dialect only (src/sniff): every allocation it makes
 * is given back, whichever one fails. */
static simdsv_status sniff_scenario(const simdsv_allocator *a)
{
    simdsv_options *o = simdsv_options_new(a);
    if (!o)
        return SIMDSV_ERR_NOMEM;
    simdsv_status st = SIMDSV_OK;
    for (int dialect_only = 0; dialect_only <= 1 && st == SIMDSV_OK; dialect_only++) {
        simdsv_sniff_params params;
        memset(&params, 0, sizeof params);
        params.opt = o;
        params.dialect_only = dialect_only;
        simdsv_sniff *sn = NULL;
        st = simdsv_sniff_memory(sample, sizeof sample - 1, &params, &sn);
        if (st == SIMDSV_OK && (sn->column_count != 5 || sn->delimiter[0] != ','))
            st = SIMDSV_ERR_INVALID_ARGUMENT;
        simdsv_sniff_free(sn);
    }
    simdsv_options_free(o);
    return st;
}

/* "city;qty;price\nOslo;1;0.5\nRiga;2;0.75\nKyiv;3;1.25\nBern;4;2\n", gzip'ed
 * (Python's gzip.compress, mtime 0). */
static const unsigned char sample_gz[] =
    "\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\x03\x4b\xce\x2c\xa9\xb4\x2e\x04\xe2\x82\xa2\xcc\xe4\x54\x2e\xff"
    "\xe2\x9c\x7c\x6b\x43\x6b\x03\x3d\x53\xae\xa0\xcc\xf4\x44\x6b\x23\x20\xd3\xdc\x94\xcb\xbb\x32\xb3"
    "\xcc\xda\xd8\xda\x50\xcf\xc8\x94\xcb\x29\xb5\x28\xcf\xda\xc4\xda\x88\x0b\x00\xf3\x76\xfb\x34\x3b"
    "\x00\x00\x00";

/* Inputs detected and read as detected (simdsv_input: src/source/input.c,
 * src/sniff/detect.c), a buffer read in place and a gzip'ed one sampled
 * and served again: every allocation of the input, its sample and the
 * detection is given back.  (zlib's own memory is zlib's.) */
static simdsv_status input_scenario(const simdsv_allocator *a)
{
    simdsv_options *o = simdsv_options_new(a);
    if (!o)
        return SIMDSV_ERR_NOMEM;
    simdsv_status st = SIMDSV_OK;
    const int gzip = simdsv_compression_supported(SIMDSV_COMPRESSION_GZIP);
    for (int compressed = 0; compressed <= gzip && st == SIMDSV_OK; compressed++) {
        simdsv_input *in = NULL;
        simdsv_reader *r = NULL;
        simdsv_sniff_params params;
        memset(&params, 0, sizeof params);
        params.opt = o;
        uint64_t n = 0;
        st = compressed ? simdsv_input_open_memory(&in, sample_gz, sizeof sample_gz - 1, o, NULL)
                        : simdsv_input_open_memory(&in, sample, sizeof sample - 1, o, NULL);
        if (st == SIMDSV_OK)
            st = simdsv_input_detect(in, &params, o, NULL, NULL);
        if (st == SIMDSV_OK)
            st = simdsv_reader_new(&r, o);
        if (st == SIMDSV_OK)
            st = simdsv_input_open_reader(in, r);
        if (st == SIMDSV_OK)
            st = simdsv_reader_count(r, &n);
        /* The plain sample's bad quote is its own (the count's error), not the allocator's. */
        if (!compressed && st == SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD)
            st = SIMDSV_OK;
        else if (st == SIMDSV_OK && n != 4)
            st = SIMDSV_ERR_INVALID_ARGUMENT;
        simdsv_reader_free(r);
        simdsv_input_free(in);
    }
    simdsv_options_free(o);
    return st;
}

/* recovers: a failed allocation may be one the code does without (the
 * sniff presizes its arrays, and grows them as it goes when that fails):
 * then the scenario's own checks of the result must hold. */
static void run(const char *name, scenario fn, bool recovers)
{
    failing counter = {0, 0, 0, 0};
    simdsv_allocator a = {f_alloc, f_realloc, f_free, &counter};
    CHECK(fn(&a) == SIMDSV_OK && counter.live == 0);
    const long total = counter.calls;
    CHECK(total > 5);
    int bad = 0;
    for (long k = 1; k <= total; k++) {
        failing f = {0, k, 0, 0};
        simdsv_allocator fa = {f_alloc, f_realloc, f_free, &f};
        const simdsv_status st = fn(&fa);
        /* A shrink that fails keeps the larger block: not an error. */
        const simdsv_status expected = f.failed_shrink ? SIMDSV_OK : SIMDSV_ERR_NOMEM;
        if ((st != expected && !(recovers && st == SIMDSV_OK)) || f.live != 0) {
            if (bad++ < 5)
                fprintf(stderr, "%s: failing allocation %ld of %ld: %s, %lld bytes leaked\n", name, k, total,
                        simdsv_status_name(st), f.live);
        }
    }
    CHECK(bad == 0);
    printf("%s: %ld allocations, each failed once\n", name, total);
}

int main(void)
{
    const char *kernel = getenv("SIMDSV_KERNEL");
    if (kernel && *kernel && !simdsv_kernel_supported((simdsv_kernel)simdsv_kernel_from_name(kernel)))
        return 77;
    run("stream", stream_scenario, false);
    run("table", table_scenario, false);
    run("arrow stream", arrow_stream_scenario, false);
    run("sniff", sniff_scenario, true);
    run("input", input_scenario, true);
    return check_summary();
}
