/*
 * ipc.c — Arrow IPC out of an Arrow stream: the stream format (a Schema
 * message, one RecordBatch message per batch, the end-of-stream marker) and
 * the file format (the same between "ARROW1" magics, with a footer that
 * locates the schema and every batch).
 *
 * A message is the continuation marker 0xFFFFFFFF, the metadata size, the
 * Message flatbuffer padded to 8 bytes, then the body: each buffer at an
 * 8-byte aligned offset.  Buffers go out straight from the batch's memory
 * where they can; a validity or boolean bitmap that does not start or end
 * on a byte and offsets that do not start at 0 are rewritten first.  A column without
 * nulls gets no validity buffer.  With body compression (zstd or LZ4 frame)
 * every non-empty buffer is its uncompressed length as an int64 followed by
 * the compressed bytes, or -1 followed by the bytes as they are when
 * compressing would not make them smaller; columns are compressed on the
 * worker threads.  Memory: one batch and its compressed copy.
 */
#include "ipc.h"
#include "flatbuf.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Schema.fbs / Message.fbs numbers. */
enum { MD_V5 = 4 };
enum { HDR_SCHEMA = 1, HDR_RECORD_BATCH = 3 };
enum { TY_NULL = 1, TY_INT = 2, TY_FLOAT = 3, TY_UTF8 = 5, TY_BOOL = 6, TY_DATE = 8, TY_TIMESTAMP = 10,
       TY_LARGE_UTF8 = 20 };
enum { PRECISION_DOUBLE = 2, DATE_DAY = 0, UNIT_MICROSECOND = 2 };
enum { IPC_LZ4_FRAME = 0, IPC_ZSTD = 1 };

#define MAX_BUFFERS 3

/* One buffer of the body: where its bytes are, and (compressed) the owned
 * bytes that replace them. */
typedef struct ipc_buffer {
    const uint8_t *data;
    int64_t size;
    wbuf own;   /* rewritten or compressed bytes, when data points here */
} ipc_buffer;

typedef struct ipc_column {
    ipc_buffer buf[MAX_BUFFERS];
    int nbuf;
    int64_t length, null_count;
    wbuf scratch[MAX_BUFFERS]; /* rewritten bitmaps / offsets */
    void *codec_state;
    bool failed;
    bool text_overflow; /* views of more than 2 GiB of text in one batch (utf8 holds int32 offsets) */
} ipc_column;

typedef struct ipc_writer {
    wsink *sink;
    const simdsv_write_options *opt;
    wcolumn *cols;
    size_t ncols;
    ipc_column *columns;
    const struct ArrowArray *batch;
    atomic_size_t next_column;
    fb fb;
    uint8_t *blocks;  /* the file footer's Block structs, 24 bytes each */
    size_t nblocks, blocks_cap;
} ipc_writer;

static const uint8_t zeros[64];

/* ----------------------------------------------------------------- schema */

static uint32_t type_table(fb *b, const wcolumn *col, uint8_t *type_id)
{
    switch (col->type) {
    case W_NULL: *type_id = TY_NULL; return fb_table(b, NULL, 0);
    case W_BOOL: *type_id = TY_BOOL; return fb_table(b, NULL, 0);
    case W_UTF8:
    case W_UTF8_VIEW: /* written as utf8: a view's buffers are not the batch's own (shared input) */
        *type_id = TY_UTF8;
        return fb_table(b, NULL, 0);
    case W_LARGE_UTF8: *type_id = TY_LARGE_UTF8; return fb_table(b, NULL, 0);
    case W_INT64: {
        *type_id = TY_INT;
        const fb_field f[] = {FB_SCALAR(0, 4, 64), FB_SCALAR(1, 1, 1)};
        return fb_table(b, f, 2);
    }
    case W_DOUBLE: {
        *type_id = TY_FLOAT;
        const fb_field f[] = {FB_SCALAR(0, 2, PRECISION_DOUBLE)};
        return fb_table(b, f, 1);
    }
    case W_DATE32: {
        *type_id = TY_DATE;
        const fb_field f[] = {FB_SCALAR(0, 2, DATE_DAY)};
        return fb_table(b, f, 1);
    }
    case W_TIMESTAMP: {
        *type_id = TY_TIMESTAMP;
        if (!col->timezone[0]) {
            const fb_field f[] = {FB_SCALAR(0, 2, UNIT_MICROSECOND)};
            return fb_table(b, f, 1);
        }
        const uint32_t tz = fb_string(b, col->timezone);
        const fb_field f[] = {FB_SCALAR(0, 2, UNIT_MICROSECOND), FB_OFFSET(1, tz)};
        return fb_table(b, f, 2);
    }
    }
    return 0;
}

/* The Schema table (for the Schema message and the file footer). */
static uint32_t schema_table(ipc_writer *w)
{
    fb *b = &w->fb;
    uint32_t *fields = malloc((w->ncols ? w->ncols : 1) * sizeof *fields);
    if (!fields) {
        b->failed = true;
        return 0;
    }
    for (size_t j = 0; j < w->ncols; j++) {
        uint8_t type_id = 0;
        const uint32_t type = type_table(b, &w->cols[j], &type_id);
        const uint32_t name = fb_string(b, w->cols[j].name);
        const uint32_t children = fb_offsets(b, NULL, 0);
        const fb_field f[] = {FB_OFFSET(0, name), FB_SCALAR(1, 1, 1), FB_SCALAR(2, 1, type_id), FB_OFFSET(3, type),
                              FB_OFFSET(5, children)};
        fields[j] = fb_table(b, f, 5);
    }
    const uint32_t vec = fb_offsets(b, fields, w->ncols);
    free(fields);
    const fb_field f[] = {FB_SCALAR(0, 2, 0 /* little-endian */), FB_OFFSET(1, vec)};
    return fb_table(b, f, 2);
}

/* Writes one message: prefix, the finished flatbuffer padded to 8, then
 * the body (already aligned by the caller).  *meta_size: prefix + padded
 * metadata, for the file footer. */
static simdsv_status write_message(ipc_writer *w, uint32_t header, uint8_t header_type, int64_t body_size,
                                   size_t *meta_size)
{
    fb *b = &w->fb;
    const fb_field f[] = {FB_SCALAR(0, 2, MD_V5), FB_SCALAR(1, 1, header_type), FB_OFFSET(2, header),
                          FB_SCALAR(3, 8, body_size)};
    fb_finish(b, fb_table(b, f, 4));
    if (b->failed)
        return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    const size_t padded = (b->size + 7) & ~(size_t)7;
    uint8_t prefix[8] = {0xFF, 0xFF, 0xFF, 0xFF, (uint8_t)padded, (uint8_t)(padded >> 8), (uint8_t)(padded >> 16),
                         (uint8_t)(padded >> 24)};
    simdsv_status st = wsink_write(w->sink, prefix, 8);
    if (st == SIMDSV_OK)
        st = wsink_write(w->sink, fb_data(b), b->size);
    if (st == SIMDSV_OK)
        st = wsink_write(w->sink, zeros, padded - b->size);
    *meta_size = 8 + padded;
    return st;
}

/* ---------------------------------------------------------------- batches */

static int64_t count_nulls(const uint8_t *bits, int64_t start, int64_t n)
{
    int64_t valid = 0;
    for (int64_t i = 0; i < n; i++)
        valid += (bits[(start + i) >> 3] >> ((start + i) & 7)) & 1;
    return n - valid;
}

/* bits [start, start + n) as a bitmap of its own: a byte-aligned bitmap is
 * used in place unless its last byte holds bits past the batch, which are
 * cleared in a copy (rows outside the batch never reach the file). */
static const uint8_t *own_bits(wbuf *out, const uint8_t *bits, int64_t start, int64_t n)
{
    const size_t bytes = (size_t)(n + 7) / 8;
    if (start % 8 == 0 && n % 8 == 0)
        return bits + start / 8;
    out->len = 0;
    if (!wbuf_reserve(out, bytes + 1))
        return NULL;
    if (start % 8 == 0) {
        memcpy(out->data, bits + start / 8, bytes);
        out->data[bytes - 1] &= (uint8_t)((1u << (n % 8)) - 1);
    } else {
        memset(out->data, 0, bytes);
        for (int64_t i = 0; i < n; i++)
            out->data[i >> 3] |= (uint8_t)(((bits[(start + i) >> 3] >> ((start + i) & 7)) & 1) << (i & 7));
    }
    out->len = bytes;
    return out->data;
}

static void set_buffer(ipc_buffer *b, const void *data, int64_t size)
{
    b->data = data;
    b->size = size;
}

/* The buffers of column j of the batch, then compressed when asked. */
static void prepare_column(ipc_writer *w, size_t j)
{
    ipc_column *c = &w->columns[j];
    const struct ArrowArray *a = w->batch->children[j];
    const int64_t start = a->offset + w->batch->offset, n = w->batch->length;
    const wtype type = w->cols[j].type;
    c->length = n;
    c->nbuf = 0;
    c->failed = false;
    c->text_overflow = false;
    if (type == W_NULL) {
        c->null_count = n;
        return;
    }
    const uint8_t *validity = a->buffers[0];
    if (a->null_count == 0 || !validity)
        c->null_count = 0;
    else if (a->null_count > 0 && start == 0 && a->length == n)
        c->null_count = a->null_count;
    else
        c->null_count = count_nulls(validity, start, n);
    /* validity */
    if (c->null_count == 0)
        set_buffer(&c->buf[0], NULL, 0);
    else
        set_buffer(&c->buf[0], own_bits(&c->scratch[0], validity, start, n), (n + 7) / 8);
    c->nbuf = wtype_string(type) ? 3 : 2;
    const uint8_t *values = a->buffers[1];
    switch (type) {
    case W_BOOL:
        set_buffer(&c->buf[1], own_bits(&c->scratch[1], values, start, n), (n + 7) / 8);
        break;
    case W_DATE32:
        set_buffer(&c->buf[1], values + 4 * start, 4 * n);
        break;
    case W_INT64:
    case W_TIMESTAMP:
    case W_DOUBLE:
        set_buffer(&c->buf[1], values + 8 * start, 8 * n);
        break;
    case W_UTF8:
    case W_LARGE_UTF8: {
        const size_t width = type == W_UTF8 ? 4 : 8;
        int64_t first, last;
        if (width == 4) {
            int32_t o[2];
            memcpy(&o[0], values + 4 * start, 4);
            memcpy(&o[1], values + 4 * (start + n), 4);
            first = o[0];
            last = o[1];
        } else {
            memcpy(&first, values + 8 * start, 8);
            memcpy(&last, values + 8 * (start + n), 8);
        }
        if (first == 0) {
            set_buffer(&c->buf[1], values + width * (size_t)start, (int64_t)width * (n + 1));
        } else {
            /* Offsets rebased to start at 0. */
            wbuf *o = &c->scratch[1];
            o->len = 0;
            if (!wbuf_reserve(o, width * (size_t)(n + 1))) {
                c->failed = true;
                return;
            }
            for (int64_t i = 0; i <= n; i++) {
                if (width == 4) {
                    int32_t v;
                    memcpy(&v, values + 4 * (start + i), 4);
                    v -= (int32_t)first;
                    memcpy(o->data + 4 * i, &v, 4);
                } else {
                    int64_t v;
                    memcpy(&v, values + 8 * (start + i), 8);
                    v -= first;
                    memcpy(o->data + 8 * i, &v, 8);
                }
            }
            o->len = width * (size_t)(n + 1);
            set_buffer(&c->buf[1], o->data, (int64_t)o->len);
        }
        set_buffer(&c->buf[2], (const uint8_t *)a->buffers[2] + first, last - first);
        break;
    }
    case W_UTF8_VIEW: {
        /* utf8: offsets and the strings' bytes gathered */
        wbuf *o = &c->scratch[1], *d = &c->scratch[2];
        o->len = d->len = 0;
        if (!wbuf_reserve(o, 4 * (size_t)(n + 1))) {
            c->failed = true;
            return;
        }
        int32_t end = 0;
        memcpy(o->data, &end, 4);
        for (int64_t i = 0; i < n && !c->failed; i++) {
            size_t len;
            const uint8_t *str = wstring(a, type, start + i, &len);
            if (len > (size_t)INT32_MAX - (size_t)end) {
                c->failed = c->text_overflow = true;
                return;
            }
            wbuf_put(d, str, len);
            end += (int32_t)len;
            memcpy(o->data + 4 * (i + 1), &end, 4);
        }
        if (d->failed) {
            c->failed = true;
            return;
        }
        set_buffer(&c->buf[1], o->data, 4 * (n + 1));
        set_buffer(&c->buf[2], d->data, (int64_t)d->len);
        break;
    }
    case W_NULL:
        break;
    }
    for (int k = 0; k < c->nbuf; k++)
        if (c->buf[k].size && !c->buf[k].data)
            c->failed = true;
    if (c->failed || w->opt->codec == SIMDSV_CODEC_NONE)
        return;
    for (int k = 0; k < c->nbuf; k++) {
        ipc_buffer *b = &c->buf[k];
        if (b->size == 0)
            continue;
        const size_t bound = simdsv__codec_bound(w->opt->codec, (size_t)b->size);
        b->own.len = 0;
        if (!wbuf_reserve(&b->own, 8 + (bound > (size_t)b->size ? bound : (size_t)b->size))) {
            c->failed = true;
            return;
        }
        const size_t packed =
            simdsv__codec_compress(w->opt->codec, w->opt->level, &c->codec_state, b->data, (size_t)b->size, b->own.data + 8, bound);
        int64_t prefix = b->size;
        if (packed == 0 || packed >= (size_t)b->size) {
            prefix = -1; /* stored as it is */
            memcpy(b->own.data + 8, b->data, (size_t)b->size);
            b->own.len = 8 + (size_t)b->size;
        } else {
            b->own.len = 8 + packed;
        }
        memcpy(b->own.data, &prefix, 8);
        b->data = b->own.data;
        b->size = (int64_t)b->own.len;
    }
}

static void prepare_worker(void *ctx, size_t worker)
{
    (void)worker;
    ipc_writer *w = ctx;
    for (;;) {
        const size_t j = atomic_fetch_add(&w->next_column, 1);
        if (j >= w->ncols)
            return;
        prepare_column(w, j);
    }
}

static simdsv_status add_block(ipc_writer *w, uint64_t offset, size_t meta_size, int64_t body)
{
    if (w->nblocks == w->blocks_cap) {
        const size_t cap = w->blocks_cap ? 2 * w->blocks_cap : 64;
        uint8_t *p = realloc(w->blocks, cap * 24);
        if (!p)
            return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
        w->blocks = p;
        w->blocks_cap = cap;
    }
    uint8_t *b = w->blocks + 24 * w->nblocks++;
    const int64_t off = (int64_t)offset;
    const int32_t meta = (int32_t)meta_size;
    memset(b, 0, 24);
    memcpy(b, &off, 8);
    memcpy(b + 8, &meta, 4);
    memcpy(b + 16, &body, 8);
    return SIMDSV_OK;
}

static simdsv_status write_batch(ipc_writer *w, const struct ArrowArray *batch, bool file)
{
    w->batch = batch;
    atomic_store(&w->next_column, 0);
    const size_t threads = w->opt->codec == SIMDSV_CODEC_NONE ? 1
                           : (size_t)w->opt->threads < w->ncols ? (size_t)w->opt->threads
                                                                : w->ncols;
    if (!simdsv__run_threads(&w->sink->alloc, threads, prepare_worker, w))
        return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    /* FieldNode and Buffer structs (16 bytes each), and the body size. */
    size_t nbuffers = 0;
    for (size_t j = 0; j < w->ncols; j++) {
        if (w->columns[j].text_overflow)
            return simdsv__write_fail(w->sink->err, SIMDSV_ERR_VALUE, 0,
                                      "column \"%s\": a batch holds over 2 GiB of text (written as utf8)",
                                      w->cols[j].name);
        if (w->columns[j].failed)
            return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "column \"%s\": out of memory",
                                      w->cols[j].name);
        nbuffers += (size_t)w->columns[j].nbuf;
    }
    int64_t *nodes = malloc((w->ncols + 1) * 16);
    int64_t *buffers = malloc((nbuffers + 1) * 16);
    if (!nodes || !buffers) {
        free(nodes);
        free(buffers);
        return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    }
    int64_t body = 0;
    size_t k = 0;
    for (size_t j = 0; j < w->ncols; j++) {
        const ipc_column *c = &w->columns[j];
        nodes[2 * j] = c->length;
        nodes[2 * j + 1] = c->null_count;
        for (int i = 0; i < c->nbuf; i++, k++) {
            buffers[2 * k] = body;
            buffers[2 * k + 1] = c->buf[i].size;
            body += (c->buf[i].size + 7) & ~(int64_t)7;
        }
    }
    fb *b = &w->fb;
    fb_reset(b);
    uint32_t compression = 0;
    if (w->opt->codec != SIMDSV_CODEC_NONE) {
        const fb_field f[] = {FB_SCALAR(0, 1, w->opt->codec == SIMDSV_CODEC_ZSTD ? IPC_ZSTD : IPC_LZ4_FRAME),
                              FB_SCALAR(1, 1, 0 /* BUFFER */)};
        compression = fb_table(b, f, 2);
    }
    const uint32_t buffers_vec = fb_structs(b, buffers, 16, nbuffers, 8);
    const uint32_t nodes_vec = fb_structs(b, nodes, 16, w->ncols, 8);
    free(nodes);
    free(buffers);
    fb_field f[4] = {FB_SCALAR(0, 8, batch->length), FB_OFFSET(1, nodes_vec), FB_OFFSET(2, buffers_vec)};
    size_t nf = 3;
    if (compression)
        f[nf++] = FB_OFFSET(3, compression);
    const uint32_t record_batch = fb_table(b, f, nf);
    const uint64_t offset = w->sink->written;
    size_t meta_size = 0;
    simdsv_status st = write_message(w, record_batch, HDR_RECORD_BATCH, body, &meta_size);
    for (size_t j = 0; j < w->ncols && st == SIMDSV_OK; j++) {
        const ipc_column *c = &w->columns[j];
        for (int i = 0; i < c->nbuf && st == SIMDSV_OK; i++) {
            st = wsink_write(w->sink, c->buf[i].data, (size_t)c->buf[i].size);
            if (st == SIMDSV_OK)
                st = wsink_write(w->sink, zeros, (size_t)(-c->buf[i].size & 7));
        }
    }
    if (st == SIMDSV_OK && file)
        st = add_block(w, offset, meta_size, body);
    return st;
}

static simdsv_status write_footer(ipc_writer *w)
{
    fb *b = &w->fb;
    fb_reset(b);
    const uint32_t batches = fb_structs(b, w->blocks, 24, w->nblocks, 8);
    const uint32_t dictionaries = fb_structs(b, NULL, 24, 0, 8);
    const uint32_t schema = schema_table(w);
    const fb_field f[] = {FB_SCALAR(0, 2, MD_V5), FB_OFFSET(1, schema), FB_OFFSET(2, dictionaries),
                          FB_OFFSET(3, batches)};
    fb_finish(b, fb_table(b, f, 4));
    if (b->failed)
        return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    simdsv_status st = wsink_write(w->sink, fb_data(b), b->size);
    const uint32_t size = (uint32_t)b->size;
    const uint8_t tail[10] = {(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16), (uint8_t)(size >> 24),
                              'A', 'R', 'R', 'O', 'W', '1'};
    if (st == SIMDSV_OK)
        st = wsink_write(w->sink, tail, sizeof tail);
    return st;
}

simdsv_status simdsv__ipc_write(struct ArrowArrayStream *stream, wsink *sink, const simdsv_write_options *opt)
{
    ipc_writer w;
    memset(&w, 0, sizeof w);
    w.sink = sink;
    w.opt = opt;
    const bool file = opt->format == SIMDSV_FORMAT_ARROW_FILE;
    struct ArrowSchema schema;
    simdsv_status st = simdsv__write_columns(stream, &schema, &w.cols, &w.ncols, sink->err);
    if (st == SIMDSV_OK && !(w.columns = calloc(w.ncols ? w.ncols : 1, sizeof *w.columns)))
        st = simdsv__write_fail(sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    if (st == SIMDSV_OK && file)
        st = wsink_write(sink, "ARROW1\0\0", 8);
    if (st == SIMDSV_OK) {
        fb_reset(&w.fb);
        size_t meta_size;
        st = write_message(&w, schema_table(&w), HDR_SCHEMA, 0, &meta_size);
    }
    while (st == SIMDSV_OK) {
        struct ArrowArray batch;
        st = simdsv__write_next(stream, w.ncols, &batch, sink->err);
        if (st == SIMDSV_END) {
            st = SIMDSV_OK;
            break;
        }
        if (st != SIMDSV_OK)
            break;
        if (batch.length > 0)
            st = write_batch(&w, &batch, file);
        batch.release(&batch);
    }
    if (st == SIMDSV_OK) /* end of stream: continuation marker, size 0 */
        st = wsink_write(sink, "\xFF\xFF\xFF\xFF\0\0\0\0", 8);
    if (st == SIMDSV_OK && file)
        st = write_footer(&w);
    for (size_t j = 0; w.columns && j < w.ncols; j++) {
        for (int k = 0; k < MAX_BUFFERS; k++) {
            wbuf_free(&w.columns[j].buf[k].own);
            wbuf_free(&w.columns[j].scratch[k]);
        }
        simdsv__codec_state_free(w.columns[j].codec_state);
    }
    free(w.columns);
    free(w.cols);
    free(w.blocks);
    fb_free(&w.fb);
    if (schema.release)
        schema.release(&schema);
    return st;
}
