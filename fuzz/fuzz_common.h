/*
 * fuzz_common.h — shared by the fuzz targets: options decoded from the first
 * bytes of the input, and a "transcript" of everything a reader produced
 * (records, decoded fields, flags, final status and error position) so that
 * two runs can be compared byte for byte.
 *
 * Each target is built two ways: with libFuzzer (clang -fsanitize=fuzzer)
 * for `make fuzz-short` / `make fuzz`, and with replay_main.c as a plain
 * program that runs the files given on its command line, which is how
 * `make test` replays the regression corpus in fuzz/regressions/.
 */
#ifndef SIMDSV_FUZZ_COMMON_H
#define SIMDSV_FUZZ_COMMON_H

#include "simdsv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_HEADER_BYTES 6

typedef struct fuzz_config {
    int delimiter, quote, escape, comment;
    int header, lenient, utf8, skip_lines;
    size_t buffer_size;   /* streaming buffer */
    size_t chunk_seed;    /* drives the chunk sizes of the callback source */
    int64_t max_fields, max_record;
    uint64_t check_columns; /* simdsv_reader_check_columns after the header */
} fuzz_config;

/* Bytes 0..5 choose the dialect and modes; the rest is the CSV. */
static inline fuzz_config fuzz_decode(const uint8_t *data, size_t size)
{
    static const int delimiters[8] = {',', ';', '\t', '|', 0, 'a', 0x1f, ' '};
    static const int quotes[4] = {'"', '\'', -1, '"'};
    static const int escapes[4] = {-1, '\\', -1, '"'};
    static const int comments[4] = {-1, '#', -1, -1};
    uint8_t h[FUZZ_HEADER_BYTES] = {0};
    memcpy(h, data, size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES);
    fuzz_config c;
    c.delimiter = delimiters[h[0] & 7];
    c.quote = quotes[(h[0] >> 3) & 3];
    c.escape = escapes[(h[0] >> 5) & 3];
    c.comment = comments[(h[1] >> 0) & 3];
    c.header = (h[1] >> 2) & 1;
    c.lenient = (h[1] >> 3) & 1;
    c.utf8 = ((h[1] >> 4) & 3) % 3;
    c.skip_lines = (h[1] >> 6) & 1;
    c.buffer_size = (size_t)4096 << (h[2] & 3);
    c.chunk_seed = h[3];
    c.max_fields = (h[4] & 1) ? (h[4] >> 1) : 0;
    c.max_record = (h[5] & 1) ? (int64_t)(h[5] >> 1) * 8 : 0;
    /* Columns 0-4 and 63 on: UTF-8 checked in some columns only (0: all). */
    c.check_columns = h[2] >> 2 ? (uint64_t)((h[2] >> 2) & 31) | (uint64_t)(h[2] >> 7) << 63 : UINT64_MAX;
    return c;
}

static inline simdsv_options *fuzz_options(const fuzz_config *c, simdsv_kernel kernel)
{
    simdsv_options *o = simdsv_options_new(NULL);
    if (!o)
        abort();
    simdsv_options_set(o, SIMDSV_OPT_DELIMITER, c->delimiter);
    simdsv_options_set(o, SIMDSV_OPT_QUOTE, c->quote);
    simdsv_options_set(o, SIMDSV_OPT_ESCAPE, c->escape);
    simdsv_options_set(o, SIMDSV_OPT_COMMENT, c->comment);
    simdsv_options_set(o, SIMDSV_OPT_HEADER, c->header);
    simdsv_options_set(o, SIMDSV_OPT_LENIENT, c->lenient);
    simdsv_options_set(o, SIMDSV_OPT_UTF8, c->utf8);
    simdsv_options_set(o, SIMDSV_OPT_SKIP_LINES, c->skip_lines);
    simdsv_options_set(o, SIMDSV_OPT_BUFFER_SIZE, (int64_t)c->buffer_size);
    simdsv_options_set(o, SIMDSV_OPT_KERNEL, kernel);
    simdsv_options_set(o, SIMDSV_OPT_MAX_FIELDS, c->max_fields);
    simdsv_options_set(o, SIMDSV_OPT_MAX_RECORD_SIZE, c->max_record);
    return o;
}

typedef struct transcript {
    uint8_t *data;
    size_t len, cap;
} transcript;

static inline void tr_put(transcript *t, const void *p, size_t n)
{
    if (n == 0)
        return; /* p may be NULL then */
    if (t->len + n > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->len + n)
            cap *= 2;
        t->data = realloc(t->data, cap);
        if (!t->data)
            abort();
        t->cap = cap;
    }
    memcpy(t->data + t->len, p, n);
    t->len += n;
}

static inline void tr_u64(transcript *t, uint64_t v)
{
    tr_put(t, &v, sizeof v);
}

/* A callback source that hands out the input in pseudo-random chunks. */
typedef struct chunk_source {
    const uint8_t *data;
    size_t size, pos;
    uint32_t rng;
} chunk_source;

static inline long long chunk_read(void *ctx, void *buf, size_t size, int *os_errno)
{
    (void)os_errno;
    chunk_source *s = ctx;
    s->rng = s->rng * 1103515245u + 12345u;
    size_t n = 1 + (s->rng >> 16) % 97;
    if ((s->rng >> 8) % 7 == 0)
        n = 1 + (s->rng >> 4) % 5000;
    if (n > size)
        n = size;
    if (n > s->size - s->pos)
        n = s->size - s->pos;
    memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    return (long long)n;
}

/* One record into the transcript: its fields decoded. */
static inline void tr_record(transcript *t, const simdsv_record *rec, uint64_t index, uint64_t byte_offset,
                             const char *(*decode)(void *ctx, const simdsv_field *f, size_t *n), void *ctx)
{
    tr_u64(t, SIMDSV_OK);
    tr_u64(t, rec->field_count);
    tr_u64(t, index);
    tr_u64(t, byte_offset);
    for (size_t i = 0; i < rec->field_count; i++) {
        size_t n;
        const char *p = decode(ctx, &rec->fields[i], &n);
        tr_u64(t, rec->fields[i].flags);
        tr_u64(t, n);
        tr_put(t, p, n);
    }
}

static inline const char *decode_by_reader(void *ctx, const simdsv_field *f, size_t *n)
{
    const char *p;
    if (simdsv_reader_unescape(ctx, f, &p, n) != SIMDSV_OK)
        abort();
    return p;
}

/* simdsv_batch_decode into a buffer that grows. */
typedef struct batch_decoder {
    const simdsv_batch *b;
    char *buf;
    size_t cap;
} batch_decoder;

static inline const char *decode_by_batch(void *ctx, const simdsv_field *f, size_t *n)
{
    batch_decoder *d = ctx;
    if (f->size > d->cap) {
        d->cap = f->size;
        d->buf = realloc(d->buf, d->cap);
        if (!d->buf)
            abort();
    }
    *n = simdsv_batch_decode(d->b, f, d->buf);
    return d->buf;
}

/* Runs one reader over the CSV and records what it produced, record by
 * record (simdsv_reader_next) or in batches (simdsv_reader_next_batch: the
 * transcript must be the same).  After a data error the reader goes on (as
 * `simdsv check` does), up to a bound. */
static inline void fuzz_transcribe(const fuzz_config *c, simdsv_kernel kernel, const uint8_t *csv, size_t size,
                                   int streamed, int batches, transcript *t)
{
    simdsv_options *o = fuzz_options(c, kernel);
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, o);
    simdsv_options_free(o);
    tr_u64(t, (uint64_t)st);
    if (st != SIMDSV_OK)
        return;
    chunk_source src = {csv, size, 0, (uint32_t)c->chunk_seed * 2654435761u + 1};
    st = streamed ? simdsv_reader_open_callback(r, chunk_read, &src) : simdsv_reader_open_memory(r, csv, size);
    if (st != SIMDSV_OK)
        abort();
    simdsv_record rec;
    if (c->header && simdsv_reader_header(r, &rec) == SIMDSV_OK) {
        tr_u64(t, rec.field_count);
        for (size_t i = 0; i < rec.field_count; i++)
            tr_put(t, rec.fields[i].data, rec.fields[i].size);
    }
    simdsv_reader_check_columns(r, c->check_columns);
    batch_decoder bd = {NULL, NULL, 0};
    simdsv_field *views = NULL;
    for (int errors = 0; errors < 64;) {
        simdsv_batch b;
        st = batches ? simdsv_reader_next_batch(r, &b) : simdsv_reader_next(r, &rec);
        if (st == SIMDSV_OK && batches) {
            bd.b = &b;
            for (size_t k = 0; k < b.count; k++) {
                const size_t nf = simdsv_batch_fields(&b, k);
                views = realloc(views, (nf ? nf : 1) * sizeof *views);
                if (!views)
                    abort();
                for (size_t j = 0; j < nf; j++)
                    views[j] = simdsv_batch_field(&b, k, j);
                const simdsv_record one = {views, nf, b.first_index + k, b.byte_offsets[k]};
                tr_record(t, &one, one.index, one.byte_offset, decode_by_batch, &bd);
            }
            continue;
        }
        if (st == SIMDSV_OK) {
            tr_record(t, &rec, rec.index, rec.byte_offset, decode_by_reader, r);
            continue;
        }
        tr_u64(t, (uint64_t)st);
        if (st == SIMDSV_END)
            break;
        {
            const simdsv_error *e = simdsv_reader_error(r);
            tr_u64(t, e->byte_offset);
            tr_u64(t, e->line);
            tr_u64(t, e->column);
            tr_u64(t, e->record);
            tr_u64(t, e->field);
            errors++;
            if (st == SIMDSV_ERR_RECORD_TOO_LARGE || st == SIMDSV_ERR_NOMEM || st == SIMDSV_ERR_IO)
                break;
        }
    }
    free(bd.buf);
    free(views);
    simdsv_reader_free(r);
}

/* A data error: reading goes on after it (what fuzz_transcribe also reads past). */
static inline int fuzz_is_data_error(simdsv_status st)
{
    return st != SIMDSV_OK && st != SIMDSV_END && st != SIMDSV_ERR_RECORD_TOO_LARGE && st != SIMDSV_ERR_NOMEM &&
           st != SIMDSV_ERR_IO;
}

/* Fails loudly: the fuzzer reports the input that got here. */
#define FUZZ_ASSERT(cond)                                                                                        \
    do {                                                                                                         \
        if (!(cond))                                                                                             \
            abort();                                                                                             \
    } while (0)

#endif
