/*
 * parquet.c — Parquet out of an Arrow stream.
 *
 * Batches are held until they make a row group (the row_group_rows option,
 * or fewer rows once they hold ROW_GROUP_BYTES; a batch may straddle two).  Then the worker threads (worker 0 first reads
 * the next row group's batches, so that parsing overlaps encoding) take
 * tasks: a column to gather (its values, dictionary, statistics and the
 * plan of its pages; one worker per column) or, once a column is gathered,
 * one of its pages to encode and compress.  A page is the unit of the
 * heavy work (compression), so that a row group whose bytes are mostly one
 * long text column still spreads over every thread.  The chunks are written
 * in column order, each chunk's pages in order.  Memory: the held batches
 * (this row group and the next), plus per column the gathered values and
 * the encoded pages.
 *
 * The column chunks themselves are encoded by parquet_chunk.c.
 */
#include "parquet.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int physical_type(wtype t)
{
    switch (t) {
    case W_BOOL: return PT_BOOLEAN;
    case W_INT64:
    case W_TIMESTAMP: return PT_INT64;
    case W_DOUBLE: return PT_DOUBLE;
    case W_UTF8:
    case W_LARGE_UTF8:
    case W_UTF8_VIEW: return PT_BYTE_ARRAY;
    case W_DATE32:
    case W_NULL: return PT_INT32;
    }
    return PT_INT32;
}

static int parquet_codec(simdsv_codec c)
{
    switch (c) {
    case SIMDSV_CODEC_SNAPPY: return 1;
    case SIMDSV_CODEC_GZIP: return 2;
    case SIMDSV_CODEC_ZSTD: return 6;
    default: return 0;
    }
}

typedef struct held {
    struct ArrowArray batch;
    int64_t used;  /* rows already in row groups */
    int64_t bytes; /* of its values as PLAIN Parquet values (value_bytes) */
} held;

/* A row group ends at row_group_rows rows, or sooner once its rows hold
 * ROW_GROUP_BYTES of values: rows of long text (quoted_text: 740 bytes a
 * row) would otherwise make row groups of 100 MB, so few that reading the
 * first one and encoding the last one, which nothing overlaps, take a large
 * share of the time (and the memory held is twice a row group). */
#define ROW_GROUP_BYTES ((int64_t)32 << 20)

/* What the footer needs of one written chunk. */
typedef struct chunk_meta {
    int64_t start, dict_offset, data_offset, uncompressed, compressed, null_count;
    bool dictionary, delta, has_minmax;
    uint8_t *min, *max;
    size_t nmin, nmax;
} chunk_meta;

typedef struct writer {
    wsink *sink;
    struct ArrowArrayStream *stream;
    const simdsv_write_options *opt;
    wcolumn *cols;
    size_t ncols;
    held **queue;         /* each held batch allocated alone: slices point at them while the queue grows */
    size_t nqueue, queue_cap;
    int64_t queued_rows;  /* rows held and not yet written */
    bool ended;           /* the stream gave its end */
    simdsv_status fetch_status;
    chunk *chunks;        /* one per column: encoded by the workers */
    wslice *slices;
    size_t nslices, slices_cap;
    int64_t rg_rows;
    chunk_meta *meta;     /* per row group, ncols each */
    int64_t *meta_rows;
    size_t nrowgroups, rowgroups_cap, meta_rows_cap;
    int64_t total_rows;
    page_scratch *scratch; /* one per worker */
    size_t nscratch;
    /* The row group's tasks, under lock: columns to gather (column_next on),
     * then the pages of the gathered ones (tasks[task_next, ntasks)). */
    pthread_mutex_t lock;
    pthread_cond_t gathered; /* a column was gathered: its pages are tasks */
    size_t column_next, columns_done;
    struct page_task { size_t column, page; } *tasks;
    size_t task_next, ntasks, tasks_cap;
} writer;

/* Bytes of a batch's values as PLAIN Parquet values: fixed widths, and per
 * string its 4-byte length and its bytes (a null string: the length only).
 * The same for utf8 and string views, so that both give the same row groups. */
static int64_t value_bytes(const writer *w, const struct ArrowArray *batch)
{
    int64_t bytes = 0;
    const int64_t n = batch->length;
    for (size_t j = 0; j < w->ncols; j++) {
        const struct ArrowArray *a = batch->children[j];
        const wtype type = w->cols[j].type;
        switch (type) {
        case W_NULL: break;
        case W_BOOL: bytes += n / 8 + 1; break;
        case W_DATE32: bytes += 4 * n; break;
        case W_INT64:
        case W_DOUBLE:
        case W_TIMESTAMP: bytes += 8 * n; break;
        case W_UTF8:
        case W_LARGE_UTF8:
        case W_UTF8_VIEW:
            bytes += 4 * n;
            for (int64_t i = 0; i < n; i++) {
                size_t len = 0;
                if (wslice_valid(a, a->offset + i))
                    wstring(a, type, a->offset + i, &len);
                bytes += (int64_t)len;
            }
            break;
        }
    }
    return bytes;
}

/* How many of the held rows after the first `skip` (the row group being
 * encoded) make the next row group; *whole: whether it is complete (it
 * reached row_group_rows rows or ROW_GROUP_BYTES) rather than short of
 * held rows.  A batch's rows count its bytes evenly. */
static int64_t next_group_rows(const writer *w, int64_t skip, bool *whole)
{
    int64_t rows = 0, bytes = 0;
    for (size_t k = 0; k < w->nqueue; k++) {
        const held *h = w->queue[k];
        int64_t avail = h->batch.length - h->used;
        if (skip >= avail) {
            skip -= avail;
            continue;
        }
        avail -= skip;
        skip = 0;
        const int64_t row_bytes = h->bytes / h->batch.length + 1;
        const int64_t to_cap = (ROW_GROUP_BYTES - bytes + row_bytes - 1) / row_bytes; /* >= 1: bytes < cap */
        int64_t take = w->opt->row_group_rows - rows < avail ? w->opt->row_group_rows - rows : avail;
        if (to_cap < take)
            take = to_cap;
        rows += take;
        bytes += take * row_bytes;
        if (rows >= w->opt->row_group_rows || bytes >= ROW_GROUP_BYTES) {
            *whole = true;
            return rows;
        }
    }
    *whole = false;
    return rows;
}

/* Pulls batches until the rows held past the row group being encoded
 * (`busy` rows) make a whole row group, or the stream ends. */
static simdsv_status fetch(writer *w, int64_t busy)
{
    for (;;) {
        bool whole;
        next_group_rows(w, busy, &whole);
        if (whole || w->ended)
            break;
        struct ArrowArray batch;
        simdsv_status st = simdsv__write_next(w->stream, w->ncols, &batch, w->sink->err);
        if (st == SIMDSV_END) {
            w->ended = true;
            break;
        }
        if (st != SIMDSV_OK)
            return st;
        if (batch.length == 0) {
            batch.release(&batch);
            continue;
        }
        held *h = malloc(sizeof *h);
        if (!h || !simdsv__grow_array((void **)&w->queue, &w->queue_cap, w->nqueue + 1, sizeof *w->queue)) {
            free(h);
            batch.release(&batch);
            return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
        }
        *h = (held){batch, 0, value_bytes(w, &batch)};
        w->queue[w->nqueue++] = h;
        w->queued_rows += batch.length;
    }
    return SIMDSV_OK;
}

/* Worker 0 (the caller's thread), when there are others, first reads the
 * next row group's batches, so that parsing overlaps encoding; then every
 * worker takes tasks until none is left: a gathered column's page when one
 * waits, else the next column to gather, else it waits for the columns
 * still being gathered to give their pages. */
static void encode_worker(void *ctx, size_t worker)
{
    writer *w = ctx;
    if (worker == 0 && w->opt->threads > 1)
        w->fetch_status = fetch(w, w->rg_rows);
    page_scratch *s = &w->scratch[worker];
    pthread_mutex_lock(&w->lock);
    for (;;) {
        if (w->task_next < w->ntasks) {
            const struct page_task t = w->tasks[w->task_next++];
            pthread_mutex_unlock(&w->lock);
            simdsv__parquet_encode_page(&w->chunks[t.column], &w->cols[t.column], t.page, w->opt, s);
            pthread_mutex_lock(&w->lock);
        } else if (w->column_next < w->ncols) {
            const size_t j = w->column_next++;
            pthread_mutex_unlock(&w->lock);
            chunk *c = &w->chunks[j];
            simdsv__parquet_gather_chunk(c, &w->cols[j], j, w->slices, w->nslices, w->rg_rows, w->opt);
            pthread_mutex_lock(&w->lock);
            if (c->status == SIMDSV_OK) {
                if (simdsv__grow_array((void **)&w->tasks, &w->tasks_cap, w->ntasks + c->npages, sizeof *w->tasks))
                    for (size_t p = 0; p < c->npages; p++)
                        w->tasks[w->ntasks++] = (struct page_task){j, p};
                else
                    c->status = SIMDSV_ERR_NOMEM; /* its pages stay unencoded; the row group fails */
            }
            w->columns_done++;
            pthread_cond_broadcast(&w->gathered);
        } else if (w->columns_done < w->ncols) {
            pthread_cond_wait(&w->gathered, &w->lock);
        } else {
            break;
        }
    }
    pthread_mutex_unlock(&w->lock);
}

static simdsv_status write_rowgroup(writer *w, int64_t rows)
{
    /* The slices of the first `rows` held rows. */
    if (!simdsv__grow_array((void **)&w->slices, &w->slices_cap, w->nqueue, sizeof *w->slices))
        return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    w->nslices = 0;
    int64_t need = rows;
    for (size_t k = 0; k < w->nqueue && need > 0; k++) {
        held *h = w->queue[k];
        const int64_t take = h->batch.length - h->used < need ? h->batch.length - h->used : need;
        w->slices[w->nslices++] = (wslice){&h->batch, h->batch.offset + h->used, take};
        need -= take;
    }
    w->rg_rows = rows;
    w->column_next = w->columns_done = w->task_next = w->ntasks = 0;
    w->fetch_status = SIMDSV_OK;
    if (!simdsv__run_threads(&w->sink->alloc, w->nscratch, encode_worker, w))
        return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    if (w->fetch_status != SIMDSV_OK)
        return w->fetch_status;
    if (!simdsv__grow_array((void **)&w->meta, &w->rowgroups_cap, w->nrowgroups + 1, w->ncols * sizeof *w->meta))
        return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    if (!simdsv__grow_array((void **)&w->meta_rows, &w->meta_rows_cap, w->nrowgroups + 1, sizeof *w->meta_rows))
        return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    chunk_meta *meta = &w->meta[w->nrowgroups * w->ncols];
    memset(meta, 0, w->ncols * sizeof *meta);
    w->meta_rows[w->nrowgroups++] = rows;
    for (size_t j = 0; j < w->ncols; j++) {
        chunk *c = &w->chunks[j];
        bool ok = c->status == SIMDSV_OK;
        for (size_t p = 0; ok && p < c->npages; p++)
            ok = c->pages[p].ok;
        if (!ok)
            return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0,
                                      "column \"%s\": out of memory or a compression failure", w->cols[j].name);
        chunk_meta *m = &meta[j];
        m->start = (int64_t)w->sink->written;
        m->dict_offset = c->dictionary ? m->start : -1;
        m->data_offset = m->start + (c->dictionary ? (int64_t)c->pages[0].bytes.len : 0);
        for (size_t p = 0; p < c->npages; p++) {
            m->uncompressed += c->pages[p].uncompressed;
            m->compressed += (int64_t)c->pages[p].bytes.len;
        }
        m->null_count = c->null_count;
        m->dictionary = c->dictionary;
        m->delta = c->delta;
        m->has_minmax = c->has_minmax;
        if (c->has_minmax) {
            m->min = malloc(c->min.len + 1);
            m->max = malloc(c->max.len + 1);
            if (!m->min || !m->max)
                return simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
            if (c->min.len) /* an empty string has no bytes (and maybe no buffer) */
                memcpy(m->min, c->min.data, c->min.len);
            if (c->max.len)
                memcpy(m->max, c->max.data, c->max.len);
            m->nmin = c->min.len;
            m->nmax = c->max.len;
        }
        for (size_t p = 0; p < c->npages; p++) {
            const simdsv_status st = wsink_write(w->sink, c->pages[p].bytes.data, c->pages[p].bytes.len);
            if (st != SIMDSV_OK)
                return st;
        }
    }
    /* Hand back the batches the row group used up. */
    need = rows;
    size_t done = 0;
    for (size_t k = 0; k < w->nqueue && need > 0; k++) {
        held *h = w->queue[k];
        const int64_t take = h->batch.length - h->used < need ? h->batch.length - h->used : need;
        h->used += take;
        need -= take;
        if (h->used == h->batch.length) {
            h->batch.release(&h->batch);
            free(h);
            done++;
        }
    }
    memmove(w->queue, w->queue + done, (w->nqueue - done) * sizeof *w->queue);
    w->nqueue -= done;
    w->queued_rows -= rows;
    w->total_rows += rows;
    return SIMDSV_OK;
}

static void schema_element(thrift *t, const wcolumn *col)
{
    thrift_begin(t);
    thrift_i32(t, 1, physical_type(col->type));
    thrift_i32(t, 3, REP_OPTIONAL);
    thrift_string(t, 4, col->name);
    const bool utc = col->timezone[0] != 0;
    switch (col->type) {
    case W_UTF8:
    case W_LARGE_UTF8:
    case W_UTF8_VIEW:
        thrift_i32(t, 6, CT_UTF8);
        thrift_struct(t, 10);
        thrift_struct(t, 1); /* STRING */
        thrift_end(t);
        thrift_end(t);
        break;
    case W_DATE32:
        thrift_i32(t, 6, CT_DATE);
        thrift_struct(t, 10);
        thrift_struct(t, 6); /* DATE */
        thrift_end(t);
        thrift_end(t);
        break;
    case W_TIMESTAMP:
        /* The converted type means "adjusted to UTC": only then. */
        if (utc)
            thrift_i32(t, 6, CT_TIMESTAMP_MICROS);
        thrift_struct(t, 10);
        thrift_struct(t, 8); /* TIMESTAMP */
        thrift_bool(t, 1, utc);
        thrift_struct(t, 2); /* unit */
        thrift_struct(t, 2); /* MICROS */
        thrift_end(t);
        thrift_end(t);
        thrift_end(t);
        thrift_end(t);
        break;
    case W_NULL:
        thrift_struct(t, 10);
        thrift_struct(t, 11); /* UNKNOWN: always null */
        thrift_end(t);
        thrift_end(t);
        break;
    default:
        break;
    }
    thrift_end(t);
}

static simdsv_status write_footer(writer *w)
{
    wbuf out = {0};
    thrift t = {&out, {0}, 0};
    thrift_begin(&t);
    thrift_i32(&t, 1, 2);
    thrift_list(&t, 2, T_STRUCT, w->ncols + 1);
    thrift_begin(&t); /* the root */
    thrift_string(&t, 4, "schema");
    thrift_i32(&t, 5, (int32_t)w->ncols);
    thrift_end(&t);
    for (size_t j = 0; j < w->ncols; j++)
        schema_element(&t, &w->cols[j]);
    thrift_i64(&t, 3, w->total_rows);
    thrift_list(&t, 4, T_STRUCT, w->nrowgroups);
    for (size_t g = 0; g < w->nrowgroups; g++) {
        const chunk_meta *meta = &w->meta[g * w->ncols];
        int64_t uncompressed = 0, compressed = 0;
        thrift_begin(&t);
        thrift_list(&t, 1, T_STRUCT, w->ncols);
        for (size_t j = 0; j < w->ncols; j++) {
            const chunk_meta *m = &meta[j];
            uncompressed += m->uncompressed;
            compressed += m->compressed;
            thrift_begin(&t); /* ColumnChunk */
            thrift_i64(&t, 2, m->start);
            thrift_struct(&t, 3); /* ColumnMetaData */
            thrift_i32(&t, 1, physical_type(w->cols[j].type));
            thrift_list(&t, 2, T_I32, m->dictionary ? 3 : 2);
            thrift_list_i32(&t, m->delta ? ENC_DELTA_BINARY_PACKED : ENC_PLAIN);
            thrift_list_i32(&t, ENC_RLE);
            if (m->dictionary)
                thrift_list_i32(&t, ENC_RLE_DICTIONARY);
            thrift_list(&t, 3, T_BINARY, 1);
            thrift_list_binary(&t, w->cols[j].name, strlen(w->cols[j].name));
            thrift_i32(&t, 4, parquet_codec(w->opt->codec));
            thrift_i64(&t, 5, w->meta_rows[g]);
            thrift_i64(&t, 6, m->uncompressed);
            thrift_i64(&t, 7, m->compressed);
            thrift_i64(&t, 9, m->data_offset);
            if (m->dict_offset >= 0)
                thrift_i64(&t, 11, m->dict_offset);
            thrift_struct(&t, 12); /* Statistics */
            thrift_i64(&t, 3, m->null_count);
            if (m->has_minmax) {
                thrift_binary(&t, 5, m->max, m->nmax);
                thrift_binary(&t, 6, m->min, m->nmin);
            }
            thrift_end(&t);
            thrift_end(&t);
            thrift_end(&t);
        }
        thrift_i64(&t, 2, uncompressed);
        thrift_i64(&t, 3, w->meta_rows[g]);
        thrift_i64(&t, 5, meta[0].start);
        thrift_i64(&t, 6, compressed);
        thrift_end(&t);
    }
    thrift_string(&t, 6, "simdsv version " SIMDSV_VERSION_STRING);
    thrift_list(&t, 7, T_STRUCT, w->ncols); /* column orders: TypeDefinedOrder */
    for (size_t j = 0; j < w->ncols; j++) {
        thrift_begin(&t);
        thrift_struct(&t, 1);
        thrift_end(&t);
        thrift_end(&t);
    }
    thrift_end(&t);
    simdsv_status st = SIMDSV_OK;
    if (out.failed || out.len > UINT32_MAX)
        st = simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    else {
        wbuf_u32(&out, (uint32_t)out.len);
        wbuf_put(&out, "PAR1", 4);
        st = out.failed ? simdsv__write_fail(w->sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory")
                        : wsink_write(w->sink, out.data, out.len);
    }
    wbuf_free(&out);
    return st;
}

static void writer_free(writer *w)
{
    for (size_t k = 0; k < w->nqueue; k++) {
        w->queue[k]->batch.release(&w->queue[k]->batch);
        free(w->queue[k]);
    }
    free(w->queue);
    for (size_t j = 0; w->chunks && j < w->ncols; j++)
        simdsv__parquet_chunk_free(&w->chunks[j]);
    free(w->chunks);
    for (size_t i = 0; w->scratch && i < w->nscratch; i++)
        simdsv__parquet_scratch_free(&w->scratch[i]);
    free(w->scratch);
    free(w->tasks);
    free(w->slices);
    for (size_t i = 0; i < w->nrowgroups * w->ncols; i++) {
        free(w->meta[i].min);
        free(w->meta[i].max);
    }
    free(w->meta);
    free(w->meta_rows);
    free(w->cols);
}

simdsv_status simdsv__parquet_write(struct ArrowArrayStream *stream, wsink *sink, const simdsv_write_options *opt)
{
    writer w;
    memset(&w, 0, sizeof w);
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.gathered, NULL);
    w.sink = sink;
    w.opt = opt;
    struct ArrowSchema schema;
    simdsv_status st = simdsv__write_columns(stream, &schema, &w.cols, &w.ncols, sink->err);
    if (st == SIMDSV_OK && w.ncols == 0)
        st = simdsv__write_fail(sink->err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "Parquet needs at least one column");
    if (st == SIMDSV_OK && !(w.chunks = calloc(w.ncols, sizeof *w.chunks)))
        st = simdsv__write_fail(sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    /* Workers: as many as asked, at least one (the caller's thread). */
    w.nscratch = opt->threads > 1 ? (size_t)opt->threads : 1;
    if (st == SIMDSV_OK && !(w.scratch = calloc(w.nscratch, sizeof *w.scratch)))
        st = simdsv__write_fail(sink->err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    if (st == SIMDSV_OK)
        st = wsink_write(sink, "PAR1", 4);
    w.stream = stream;
    if (st == SIMDSV_OK)
        st = fetch(&w, 0);
    while (st == SIMDSV_OK && w.queued_rows > 0) {
        bool whole;
        st = write_rowgroup(&w, next_group_rows(&w, 0, &whole));
        if (st == SIMDSV_OK && opt->threads <= 1)
            st = fetch(&w, 0);
    }
    if (st == SIMDSV_OK)
        st = write_footer(&w);
    writer_free(&w);
    pthread_mutex_destroy(&w.lock);
    pthread_cond_destroy(&w.gathered);
    if (schema.release)
        schema.release(&schema);
    return st;
}
