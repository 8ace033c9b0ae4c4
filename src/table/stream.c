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
#include "table.h"
#include "../record/reader.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct stream_private {
    simdsv_allocator alloc;
    simdsv_reader *r;
    simdsv__typed_stream *s;
    int ended;         /* the end of the stream was returned */
    int failed;        /* errno of a failed get_next: every later call repeats it */
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
    simdsv_status st = simdsv__stream_empty(p->s, &empty);
    struct ArrowArray rows;
    if (st == SIMDSV_OK && (st = simdsv_table_move_to_arrow(&empty, out, &rows)) == SIMDSV_OK)
        rows.release(&rows);
    simdsv__stream_free_batch(&empty); /* zeroed even when borrowing failed */
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
    simdsv_status st = simdsv__stream_next(p->s, &batch);
    if (st != SIMDSV_OK)
        return fail(p, st);
    if (batch.rows == 0) {
        simdsv__stream_free_batch(&batch);
        p->ended = 1;
        memset(out, 0, sizeof *out);
        return 0;
    }
    for (size_t j = 0; j < batch.ncols; j++) {
        if (batch.cols[j].chars_len > (size_t)INT32_MAX) { /* the schema promised 32-bit offsets */
            simdsv__stream_free_batch(&batch);
            snprintf(p->message, sizeof p->message,
                     "a record batch holds over 2 GiB of text in column `%.60s`: lower SIMDSV_OPT_BATCH_ROWS",
                     batch.cols[j].name);
            p->failed = EOVERFLOW;
            return p->failed;
        }
    }
    struct ArrowSchema schema;
    st = simdsv_table_move_to_arrow(&batch, &schema, out);
    simdsv__stream_free_batch(&batch);
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
    simdsv__stream_close(p->s);
    simdsv_reader_free(p->r);
    simdsv__free(&a, p, sizeof *p);
    stream->release = NULL;
}

simdsv_status simdsv_table_stream(simdsv_reader *r, struct ArrowArrayStream *out)
{
    if (!r || !out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const simdsv_allocator *a = &r->opt.alloc;
    stream_private *p = simdsv__alloc(a, sizeof *p);
    if (!p)
        return SIMDSV_ERR_NOMEM;
    memset(p, 0, sizeof *p);
    p->alloc = *a;
    p->r = r;
    const simdsv_status st = simdsv__stream_open(r, &p->s);
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
        return 0;
    const stream_private *p = stream->private_data;
    return simdsv_table_reject_count(simdsv__stream_schema(p->s));
}

const simdsv_reject *simdsv_table_stream_reject(struct ArrowArrayStream *stream, size_t index)
{
    if (!stream || stream->release != release)
        return NULL;
    const stream_private *p = stream->private_data;
    return simdsv_table_reject(simdsv__stream_schema(p->s), index);
}

void simdsv_table_stream_clear_rejects(struct ArrowArrayStream *stream)
{
    if (!stream || stream->release != release)
        return;
    const stream_private *p = stream->private_data;
    /* The schema table collects every batch's rejects (table.c); the stream
     * owns it, so it may empty it. */
    simdsv_table *t = (simdsv_table *)(uintptr_t)simdsv__stream_schema(p->s);
    for (size_t i = 0; i < t->nrejects; i++) {
        simdsv__free(&t->alloc, (void *)(uintptr_t)t->rejects[i].pub.value, t->rejects[i].value_size);
        simdsv__free(&t->alloc, (void *)(uintptr_t)t->rejects[i].pub.reason, t->rejects[i].reason_size);
    }
    t->nrejects = 0;
}

simdsv_status simdsv_table_stream_column(struct ArrowArrayStream *stream, size_t index, simdsv_column_info *info)
{
    if (!stream || stream->release != release || !info)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const stream_private *p = stream->private_data;
    return simdsv_table_column(simdsv__stream_schema(p->s), index, info);
}
