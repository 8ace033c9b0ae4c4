/*
 * test_hostile.c — inputs built to hurt: a 1 GiB field, a million fields,
 * nothing but quotes, NUL bytes, invalid UTF-8 at every position, inputs
 * cut inside a quote / a CRLF / a multibyte character, a file truncated
 * while it is read, and a stream that never ends.  Each must give exact,
 * documented results with bounded memory.  Runs once per kernel.
 */
#define _POSIX_C_SOURCE 200809L
#include "simdsv.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif


/* Counts live bytes so that bounded memory can be asserted. */
typedef struct counting {
    size_t live, peak;
} counting;

static void *c_alloc(void *ctx, size_t n)
{
    counting *c = ctx;
    void *p = malloc(n);
    if (p && (c->live += n) > c->peak)
        c->peak = c->live;
    return p;
}

static void *c_realloc(void *ctx, void *p, size_t old, size_t n)
{
    counting *c = ctx;
    void *q = realloc(p, n);
    if (q) {
        c->live = c->live - old + n;
        if (c->live > c->peak)
            c->peak = c->live;
    }
    return q;
}

static void c_free(void *ctx, void *p, size_t n)
{
    counting *c = ctx;
    c->live -= n;
    free(p);
}

static simdsv_reader *new_reader(counting *mem, const simdsv_option *ids, const int64_t *values, size_t n)
{
    simdsv_allocator a = {c_alloc, c_realloc, c_free, mem};
    simdsv_options *o = simdsv_options_new(mem ? &a : NULL);
    for (size_t i = 0; i < n; i++)
        simdsv_options_set(o, ids[i], values[i]);
    simdsv_reader *r = NULL;
    const simdsv_status st = simdsv_reader_new(&r, o);
    simdsv_options_free(o);
    if (st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    return r;
}

/* A callback source: `head`, then `fill` repeated `count` times, then `tail`. */
typedef struct generator {
    const char *head, *fill, *tail;
    uint64_t count, emitted;
    size_t head_pos, fill_pos, tail_pos;
} generator;

static long long generate(void *ctx, void *buf, size_t size, int *os_errno)
{
    (void)os_errno;
    generator *g = ctx;
    char *out = buf;
    size_t n = 0;
    while (n < size) {
        if (g->head[g->head_pos]) {
            out[n++] = g->head[g->head_pos++];
        } else if (g->emitted < g->count) {
            out[n++] = g->fill[g->fill_pos++];
            if (!g->fill[g->fill_pos]) {
                g->fill_pos = 0;
                g->emitted++;
            }
        } else if (g->tail[g->tail_pos]) {
            out[n++] = g->tail[g->tail_pos++];
        } else {
            break;
        }
    }
    return (long long)n;
}

static void test_huge_field(void)
{
    /* 1 GiB of text in one quoted field (64 MiB under the sanitizers). */
    const uint64_t bytes = UNDER_SANITIZER ? (64u << 20) : (1u << 30);
    const char *fill = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ,\n\"\"";
    const uint64_t reps = bytes / strlen(fill);
    {
        const simdsv_option ids[] = {SIMDSV_OPT_HEADER, SIMDSV_OPT_MAX_RECORD_SIZE};
        const int64_t values[] = {0, 0};
        simdsv_reader *r = new_reader(NULL, ids, values, 2);
        generator g = {"\"", fill, "\"\nnext\n", reps, 0, 0, 0, 0};
        simdsv_reader_open_callback(r, generate, &g);
        simdsv_record rec;
        CHECK(simdsv_reader_next(r, &rec) == SIMDSV_OK);
        CHECK(rec.field_count == 1 && rec.fields[0].size == reps * strlen(fill) &&
              (rec.fields[0].flags & SIMDSV_FIELD_NEEDS_UNESCAPE));
        CHECK(simdsv_reader_next(r, &rec) == SIMDSV_OK && rec.field_count == 1 && rec.fields[0].size == 4 &&
              memcmp(rec.fields[0].data, "next", 4) == 0);
        CHECK(simdsv_reader_next(r, &rec) == SIMDSV_END);
        simdsv_reader_free(r);
    }
    {
        /* the same record against a limit: a clear error, not a crash or an OOM */
        const simdsv_option ids[] = {SIMDSV_OPT_HEADER, SIMDSV_OPT_MAX_RECORD_SIZE};
        const int64_t values[] = {0, 16 << 20};
        counting mem = {0, 0};
        simdsv_reader *r = new_reader(&mem, ids, values, 2);
        generator g = {"\"", fill, "\"\n", reps, 0, 0, 0, 0};
        simdsv_reader_open_callback(r, generate, &g);
        simdsv_record rec;
        const simdsv_status st = simdsv_reader_next(r, &rec);
        CHECK(st == SIMDSV_ERR_RECORD_TOO_LARGE);
        CHECK(simdsv_reader_error(r)->byte_offset == 0 && simdsv_reader_error(r)->line == 1);
        CHECK(mem.peak < (size_t)(40 << 20)); /* the buffer stopped growing at the limit */
        simdsv_reader_free(r);
        CHECK(mem.live == 0);
    }
}

static void test_million_fields(void)
{
    const simdsv_option ids[] = {SIMDSV_OPT_HEADER};
    const int64_t values[] = {0};
    simdsv_reader *r = new_reader(NULL, ids, values, 1);
    generator g = {"", "x,", "last\n", 999999, 0, 0, 0, 0};
    simdsv_reader_open_callback(r, generate, &g);
    simdsv_record rec;
    CHECK(simdsv_reader_next(r, &rec) == SIMDSV_OK && rec.field_count == 1000000);
    CHECK(rec.field_count == 1000000 && rec.fields[999999].size == 4 && rec.fields[123456].size == 1);
    simdsv_reader_free(r);
    /* over the limit */
    const simdsv_option ids2[] = {SIMDSV_OPT_HEADER, SIMDSV_OPT_MAX_FIELDS};
    const int64_t values2[] = {0, 1000};
    counting mem = {0, 0};
    r = new_reader(&mem, ids2, values2, 2);
    generator g2 = {"", "x,", "last\nok\n", 999999, 0, 0, 0, 0};
    simdsv_reader_open_callback(r, generate, &g2);
    CHECK(simdsv_reader_next(r, &rec) == SIMDSV_ERR_TOO_MANY_FIELDS);
    CHECK(simdsv_reader_error(r)->field == 1000 && simdsv_reader_error(r)->byte_offset == 2000);
    CHECK(mem.peak < (size_t)(8 << 20));
    CHECK(simdsv_reader_next(r, &rec) == SIMDSV_OK && rec.field_count == 1 && memcmp(rec.fields[0].data, "ok", 2) == 0);
    simdsv_reader_free(r);
}

static simdsv_status read_all(const char *data, size_t size, int lenient, simdsv_record *last, simdsv_error *err,
                              uint64_t *records)
{
    const simdsv_option ids[] = {SIMDSV_OPT_HEADER, SIMDSV_OPT_LENIENT};
    const int64_t values[] = {0, lenient};
    simdsv_reader *r = new_reader(NULL, ids, values, 2);
    simdsv_reader_open_memory(r, data, size);
    simdsv_record rec;
    simdsv_status st;
    *records = 0;
    while ((st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        ++*records;
        if (last)
            *last = rec;
    }
    *err = *simdsv_reader_error(r);
    simdsv_reader_free(r);
    return st;
}

static void test_only_quotes(void)
{
    const size_t n = 1 << 20;
    char *q = malloc(n + 1);
    memset(q, '"', n + 1);
    simdsv_error err;
    uint64_t records;
    /* an even count: one quoted field of (n-2)/2 quotes */
    const simdsv_option ids[] = {SIMDSV_OPT_HEADER};
    const int64_t values[] = {0};
    simdsv_reader *r = new_reader(NULL, ids, values, 1);
    simdsv_reader_open_memory(r, q, n);
    simdsv_record rec;
    CHECK(simdsv_reader_next(r, &rec) == SIMDSV_OK && rec.field_count == 1 && rec.fields[0].size == n - 2);
    const char *text;
    size_t len;
    CHECK(simdsv_reader_unescape(r, &rec.fields[0], &text, &len) == SIMDSV_OK && len == (n - 2) / 2);
    CHECK(simdsv_reader_next(r, &rec) == SIMDSV_END);
    simdsv_reader_free(r);
    /* an odd count: unterminated, reported at the opening quote */
    CHECK(read_all(q, n + 1, 0, NULL, &err, &records) == SIMDSV_ERR_UNTERMINATED_QUOTE);
    CHECK(err.byte_offset == 0 && err.line == 1 && err.column == 1);
    /* lenient: one field */
    CHECK(read_all(q, n + 1, 1, NULL, &err, &records) == SIMDSV_END && records == 1);
    free(q);
}

static void test_nul_and_cuts(void)
{
    simdsv_error err;
    uint64_t records;
    simdsv_record last;
    const char nul[] = "a\0b,\"c\0\"\n";
    CHECK(read_all(nul, sizeof nul - 1, 0, &last, &err, &records) == SIMDSV_END && records == 1);
    /* cut inside a quote */
    CHECK(read_all("a,\"bc", 5, 0, NULL, &err, &records) == SIMDSV_ERR_UNTERMINATED_QUOTE && err.byte_offset == 2);
    /* cut inside a CRLF: the CR ends the record */
    CHECK(read_all("a,b\r", 4, 0, NULL, &err, &records) == SIMDSV_END && records == 1);
    /* cut inside a multibyte character: invalid UTF-8 at its lead byte */
    CHECK(read_all("a,\xc3", 3, 0, NULL, &err, &records) == SIMDSV_ERR_INVALID_UTF8 && err.byte_offset == 2 &&
          err.column == 3);
    CHECK(read_all("x\n\xe2\x82", 4, 0, NULL, &err, &records) == SIMDSV_ERR_INVALID_UTF8 && err.byte_offset == 2 &&
          err.line == 2);
}

static void test_invalid_utf8_everywhere(void)
{
    const char *base = "id,name\r\n1,\"Zoë, \"\"the\"\" first\"\n2,plain text here\n3,\"multi\nline\"\n";
    const size_t n = strlen(base);
    char *buf = malloc(n);
    for (size_t pos = 0; pos < n; pos++) {
        memcpy(buf, base, n);
        buf[pos] = (char)0xFF;
        simdsv_error err;
        uint64_t records;
        /* Whatever byte is replaced, the first problem reported is the
         * earliest one: the invalid sequence (which starts at pos, or at
         * the lead byte before it when pos was a continuation byte), or a
         * quoting error that the replacement caused before it (only an
         * opening quote that is now unmatched can be earlier). */
        const simdsv_status st = read_all(buf, n, 0, NULL, &err, &records);
        const int utf8_at_pos = st == SIMDSV_ERR_INVALID_UTF8 && err.byte_offset <= pos && err.byte_offset + 3 >= pos &&
                                ((unsigned char)base[pos] >= 0x80 || err.byte_offset == pos);
        const int quoting_first = (st == SIMDSV_ERR_UNTERMINATED_QUOTE && err.byte_offset < pos) ||
                                  (st == SIMDSV_ERR_TEXT_AFTER_QUOTE && err.byte_offset == pos);
        CHECK(utf8_at_pos || quoting_first);
        if (!(utf8_at_pos || quoting_first))
            fprintf(stderr, "  pos %zu: %s at %llu\n", pos, simdsv_status_name(st), (unsigned long long)err.byte_offset);
    }
    free(buf);
}

static void test_truncated_file(void)
{
    char path[] = "/tmp/simdsv-hostile-XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < 200000; i++)
        fprintf(f, "%d,row %d,\"quoted %d\"\n", i, i, i);
    fclose(f);
    const simdsv_option ids[] = {SIMDSV_OPT_HEADER, SIMDSV_OPT_BUFFER_SIZE};
    const int64_t values[] = {0, 65536};
    simdsv_reader *r = new_reader(NULL, ids, values, 2);
    CHECK(simdsv_reader_open_path(r, path) == SIMDSV_OK);
    simdsv_record rec;
    uint64_t records = 0;
    simdsv_status st;
    while (records < 1000 && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
        records++;
    CHECK(truncate(path, 100000) == 0); /* the file shrinks under the reader */
    while ((st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
        records++;
    /* read() sees the shorter file: it ends early, possibly mid-record,
     * which strict mode may report; never a crash */
    CHECK(st == SIMDSV_END || st == SIMDSV_ERR_UNTERMINATED_QUOTE);
    CHECK(records >= 1000 && records < 200000);
    simdsv_reader_free(r);
    unlink(path);
}

static void test_endless_stream(void)
{
    counting mem = {0, 0};
    const simdsv_option ids[] = {SIMDSV_OPT_HEADER, SIMDSV_OPT_BUFFER_SIZE};
    const int64_t values[] = {0, 65536};
    simdsv_reader *r = new_reader(&mem, ids, values, 2);
    /* "never-ending": far more than we read */
    generator g = {"", "12345,\"some, quoted\",text\r\n", "", UINT64_MAX, 0, 0, 0, 0};
    simdsv_reader_open_callback(r, generate, &g);
    simdsv_record rec;
    const uint64_t want = UNDER_SANITIZER ? 200000 : 3000000;
    uint64_t records = 0;
    while (records < want && simdsv_reader_next(r, &rec) == SIMDSV_OK)
        records++;
    CHECK(records == want && rec.index == want - 1);
    CHECK(mem.peak < 65536 + (1 << 20)); /* buffer + index + fields: no growth with the input */
    simdsv_reader_free(r);
    CHECK(mem.live == 0);
}

int main(void)
{
    test_only_quotes();
    test_nul_and_cuts();
    test_invalid_utf8_everywhere();
    test_truncated_file();
    test_endless_stream();
    test_million_fields();
    test_huge_field();
    return check_summary();
}
