/*
 * stream.c — the typed reader as an Arrow C stream of record batches
 * (simdsv_table_stream).  Memory stays bounded: the reader's buffer (the
 * inference window, then the streaming buffer) and one batch at a time,
 * whose buffers move to the consumer with each ArrowArray.
 *
 * The stream owns the reader and frees it in release.  Calls are not
 * thread-safe among themselves (the C stream interface says so); the arrays
 * and schemas they hand out are independent and may be released anywhere.
 */
#include "typed.h"
#include "../dataset/dataset.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A batch ends once a string column holds this much (its offsets stay
 * 32-bit: a record adds at most SIMDSV_OPT_MAX_RECORD_SIZE, 1 GiB by default). */
#define STREAM_CHARS_BUDGET ((size_t)1 << 30)

/* The typed reader's batches: the schema comes from the first window of the
 * input (inferred types are then fixed: a later misfit is an error, or a
 * null listed in the rejects). */
typedef struct typed_stream {
    typed_ctx x; /* x.t: the schema; it also collects every batch's rejects */
    uint64_t rows;
    int late_misfit; /* the error was a late misfit (simdsv_table_stream_misfit) */
    size_t misfit_column;
    simdsv_type widened;
} typed_stream;

static simdsv_status batches_open(simdsv_reader *r, typed_stream **out)
{
    *out = NULL;
    if (!r)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const simdsv_allocator *a = &simdsv__reader_options(r)->alloc;
    typed_stream *s = simdsv__alloc(a, sizeof *s);
    if (!s)
        return SIMDSV_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    simdsv_table *t = NULL;
    const simdsv_status st = simdsv__typed_start(r, &t, &s->x, SIMDSV__SAMPLE_WINDOW, false, false, true);
    if (st != SIMDSV_OK) {
        if (s->x.t)
            simdsv__typed_finish(&s->x);
        simdsv_table_free(t);
        simdsv__free(a, s, sizeof *s);
        return st;
    }
    *out = s;
    return SIMDSV_OK;
}

static const simdsv_table *batches_schema(const typed_stream *s)
{
    return s->x.t;
}

/* *batch: a table of the stream's columns and no rows. */
static simdsv_status batches_empty(const typed_stream *s, simdsv_table *batch)
{
    return simdsv__borrow_schema(s->x.t, batch);
}

/* The next rows (SIMDSV_OPT_BATCH_ROWS at most) into *batch; no rows at the
 * end.  On success the caller frees *batch with batches_free_batch. */
static simdsv_status batches_next(typed_stream *s, simdsv_table *batch)
{
    typed_ctx *x = &s->x;
    simdsv_reader *r = x->r;
    simdsv_status st = simdsv__borrow_schema(x->t, batch);
    if (st != SIMDSV_OK)
        return st;
    uint64_t limit = x->opt->batch_rows;
    if (x->opt->row_limit) {
        const uint64_t left = x->opt->row_limit - s->rows;
        if (left == 0)
            return SIMDSV_OK;
        if (left < limit)
            limit = left;
    }
    chunk k;
    memset(&k, 0, sizeof k);
    k.x = *x;
    k.x.t = batch;
    k.source = r;
    k.shift = -(int64_t)simdsv__reader_origin(r);
    k.limit = limit;
    k.fixed_types = 1;
    k.chars_budget = STREAM_CHARS_BUDGET;
    st = simdsv__convert_chunk(&k);
    x->text = k.x.text; /* the scratch may have grown */
    x->text_cap = k.x.text_cap;
    if (k.code != SIMDSV_OK)
        st = simdsv__report(r, &k, s->rows);
    if (k.code == SIMDSV_ERR_VALUE && k.late_misfit) {
        s->late_misfit = 1;
        s->misfit_column = k.misfit_column;
        s->widened = k.widened;
    }
    if (st == SIMDSV_OK)
        st = simdsv__move_rejects(x->t, batch, s->rows);
    if (st != SIMDSV_OK) {
        simdsv__free_borrowed(batch);
        return st;
    }
    s->rows += batch->rows;
    return SIMDSV_OK;
}

static void batches_free_batch(simdsv_table *batch)
{
    simdsv__free_borrowed(batch);
}

static void batches_close(typed_stream *s)
{
    if (!s)
        return;
    const simdsv_allocator a = s->x.t->alloc;
    simdsv__typed_finish(&s->x);
    simdsv_table_free(s->x.t);
    simdsv__free(&a, s, sizeof *s);
}

typedef struct stream_private {
    simdsv_allocator alloc;
    simdsv_reader *r;
    typed_stream *s;
    int ended;         /* the end of the stream was returned */
    int failed;        /* errno of a failed get_next: every later call repeats it */
    simdsv_error error; /* what failed, with its position (simdsv_table_stream_error) */
    char message[512]; /* get_last_error */
} stream_private;

static int errno_of(simdsv_status st)
{
    switch (st) {
    case SIMDSV_ERR_NOMEM:
        return ENOMEM;
    case SIMDSV_ERR_IO:
        return EIO;
    default:
        return EINVAL; /* the data: the message says what and where */
    }
}

static int fail(stream_private *p, simdsv_status st)
{
    const simdsv_error *e = simdsv_reader_error(p->r);
    if (e && e->code == st)
        p->error = *e;
    else
        p->error.code = st;
    if (e && e->code == st && e->line)
        snprintf(p->message, sizeof p->message, "line %llu, column %llu (byte %llu): %s", (unsigned long long)e->line,
                 (unsigned long long)e->column, (unsigned long long)e->byte_offset,
                 e->message[0] ? e->message : simdsv_status_message(st));
    else
        snprintf(p->message, sizeof p->message, "%s", simdsv_status_message(st));
    p->failed = errno_of(st);
    return p->failed;
}

static int get_schema(struct ArrowArrayStream *stream, struct ArrowSchema *out)
{
    stream_private *p = stream->private_data;
    if (p->failed)
        return p->failed;
    simdsv_table empty;
    simdsv_status st = batches_empty(p->s, &empty);
    struct ArrowArray rows;
    if (st == SIMDSV_OK && (st = simdsv_table_move_to_arrow(&empty, out, &rows)) == SIMDSV_OK)
        rows.release(&rows);
    batches_free_batch(&empty); /* zeroed even when borrowing failed */
    return st == SIMDSV_OK ? 0 : errno_of(st); /* not sticky: the stream itself is fine */
}

static int get_next(struct ArrowArrayStream *stream, struct ArrowArray *out)
{
    stream_private *p = stream->private_data;
    if (p->failed)
        return p->failed;
    if (p->ended) {
        memset(out, 0, sizeof *out); /* release == NULL: the end */
        return 0;
    }
    simdsv_table batch;
    simdsv_status st = batches_next(p->s, &batch);
    if (st != SIMDSV_OK)
        return fail(p, st);
    if (batch.rows == 0) {
        batches_free_batch(&batch);
        p->ended = 1;
        memset(out, 0, sizeof *out);
        return 0;
    }
    for (size_t j = 0; j < batch.ncols; j++) {
        if (batch.cols[j].chars_len > (size_t)INT32_MAX) { /* the schema promised 32-bit offsets */
            batches_free_batch(&batch);
            snprintf(p->message, sizeof p->message,
                     "a record batch holds over 2 GiB of text in column `%.60s`: lower SIMDSV_OPT_BATCH_ROWS",
                     batch.cols[j].name);
            p->error.code = SIMDSV_ERR_INVALID_ARGUMENT; /* the batch size asked for */
            snprintf(p->error.message, sizeof p->error.message,
                     "a record batch holds over 2 GiB of text in column `%.60s`", batch.cols[j].name);
            p->failed = EOVERFLOW;
            return p->failed;
        }
    }
    struct ArrowSchema schema;
    st = simdsv_table_move_to_arrow(&batch, &schema, out);
    batches_free_batch(&batch);
    if (st != SIMDSV_OK)
        return fail(p, st);
    schema.release(&schema); /* the stream's schema says the same */
    return 0;
}

static const char *get_last_error(struct ArrowArrayStream *stream)
{
    const stream_private *p = stream->private_data;
    return p->message[0] ? p->message : NULL;
}

static void release(struct ArrowArrayStream *stream)
{
    stream_private *p = stream->private_data;
    const simdsv_allocator a = p->alloc;
    batches_close(p->s);
    simdsv_reader_free(p->r);
    simdsv__free(&a, p, sizeof *p);
    stream->release = NULL;
}

simdsv_status simdsv_table_stream(simdsv_reader *r, struct ArrowArrayStream *out)
{
    if (!r || !out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const simdsv_allocator *a = &simdsv__reader_options(r)->alloc;
    stream_private *p = simdsv__alloc(a, sizeof *p);
    if (!p)
        return SIMDSV_ERR_NOMEM;
    memset(p, 0, sizeof *p);
    p->alloc = *a;
    p->r = r;
    const simdsv_status st = batches_open(r, &p->s);
    if (st != SIMDSV_OK) {
        simdsv__free(a, p, sizeof *p);
        return st;
    }
    out->get_schema = get_schema;
    out->get_next = get_next;
    out->get_last_error = get_last_error;
    out->release = release;
    out->private_data = p;
    return SIMDSV_OK;
}

size_t simdsv_table_stream_reject_count(struct ArrowArrayStream *stream)
{
    if (!stream || stream->release != release)
        return simdsv__dataset_stream_reject_count(stream);
    const stream_private *p = stream->private_data;
    return simdsv_table_reject_count(batches_schema(p->s));
}

const simdsv_reject *simdsv_table_stream_reject(struct ArrowArrayStream *stream, size_t index)
{
    if (!stream || stream->release != release)
        return simdsv__dataset_stream_reject(stream, index);
    const stream_private *p = stream->private_data;
    return simdsv_table_reject(batches_schema(p->s), index);
}

simdsv_status simdsv_table_stream_column(struct ArrowArrayStream *stream, size_t index, simdsv_column_info *info)
{
    if (!stream || stream->release != release)
        return simdsv__dataset_stream_column(stream, index, info);
    if (!info)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const stream_private *p = stream->private_data;
    return simdsv_table_column(batches_schema(p->s), index, info);
}

simdsv_status simdsv_table_stream_misfit(struct ArrowArrayStream *stream, size_t *index, simdsv_type *widened)
{
    if (!stream || stream->release != release || !index || !widened)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const stream_private *p = stream->private_data;
    if (!p->failed || !p->s->late_misfit)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *index = p->s->misfit_column;
    *widened = p->s->widened;
    return SIMDSV_OK;
}

void simdsv_table_stream_clear_rejects(struct ArrowArrayStream *stream)
{
    if (!stream || stream->release != release) {
        simdsv__dataset_stream_clear_rejects(stream);
        return;
    }
    const stream_private *p = stream->private_data;
    simdsv_table *t = p->s->x.t; /* the schema, which collects the rejects */
    for (size_t i = 0; i < t->nrejects; i++) {
        simdsv__free(&t->alloc, (void *)(uintptr_t)t->rejects[i].pub.value, t->rejects[i].value_size);
        simdsv__free(&t->alloc, (void *)(uintptr_t)t->rejects[i].pub.reason, t->rejects[i].reason_size);
    }
    t->nrejects = 0;
}

const simdsv_error *simdsv_table_stream_error(struct ArrowArrayStream *stream)
{
    if (!stream || stream->release != release)
        return NULL;
    const stream_private *p = stream->private_data;
    return p->failed ? &p->error : NULL;
}
