/*
 * stream.c — simdsv_dataset_stream: the inputs as one Arrow C stream, in
 * bounded memory.  The schema is fixed first: each input's schema sampled
 * (simdsv_table_infer, side by side on the threads) and joined as the read
 * joins them.  Then each input is opened and streamed by the typed reader
 * (simdsv_table_stream) with its columns starting from the joined types,
 * and each of its batches becomes a batch of the dataset: its children
 * moved over as they are, the columns it lacks and the hive and file name
 * columns made for the batch's rows.
 *
 * On one thread the inputs are streamed one after another as the consumer
 * asks.  With threads (SIMDSV_OPT_THREADS), as many workers stream the next
 * inputs ahead, each one input at a time into a queue of PART_QUEUE batches
 * that the consumer empties in input order: memory is bounded by workers x
 * PART_QUEUE batches and one reader per worker, whatever the number of
 * inputs, and the batches are those of one thread, in the same order.
 *
 * An input whose stream finds a column wider than the joined type (in its
 * own first rows, or in a later value) stops the stream with an error that
 * names the input, its line and byte; simdsv_dataset_widen_misfit then
 * makes the next stream start that column from the wider type.
 */
#include "dataset.h"
#include "../table/typed.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Batches a worker may hold ahead of the consumer, per input. */
#define PART_QUEUE 4

/* Values made null (SIMDSV_ON_ERROR_NULL) with the input they are in: the
 * rejects of a batch travel with it (rows the input's), then join the
 * stream's list (rows the dataset's) as the batch is handed out. */
typedef struct ds_reject {
    simdsv_reject pub;            /* value and reason owned */
    size_t input;
} ds_reject;

typedef struct ds_rejects {
    ds_reject *items;
    size_t count, cap;
} ds_rejects;

/* One input being streamed, and what it made or how it failed. */
typedef struct part {
    size_t input;
    simdsv_input *in;             /* the input and its stream (which owns its reader) */
    struct ArrowArrayStream stream;
    size_t *child_of;             /* dataset column j: the input stream's child, or SIZE_MAX */
    struct ArrowArray queue[PART_QUEUE]; /* workers: batches made, not yet taken */
    ds_rejects queue_rejects[PART_QUEUE]; /* and their rejects */
    size_t head, count;
    int done;                     /* the whole input was streamed, or it failed */
    int err;                      /* its failure: errno, the error about input `input` */
    simdsv_error error;
    int misfit;                   /* ... a column wider than the join: its name and type */
    char misfit_name[512];
    simdsv_type misfit_type;
} part;

typedef struct ds_stream {
    simdsv_dataset *ds;
    ds_schema schema;
    ds_hive hive;
    size_t workers;               /* 0: the consumer streams each input itself */
    part *parts;                  /* one (no workers) or `workers` slots: input i in parts[i % n] */
    size_t taken;                 /* workers: the next input a worker takes */
    size_t current;               /* the input the consumer reads */
    pthread_t *threads;
    size_t started;
    int stop;                     /* release: the workers end */
    pthread_mutex_t lock;
    pthread_cond_t changed;       /* a batch queued or taken, an input done, stop */
    ds_rejects rejects;           /* handed out with the batches, until the consumer clears them */
    uint64_t rows_out;            /* rows handed out */
    uint64_t input_base;          /* the dataset row of the current input's first row */
    int failed;                   /* errno of a failed get_next: every later call repeats it */
    int ended;
    char *message;                /* get_last_error: the file, line, byte and message whole */
    size_t message_size;
} ds_stream;

static int errno_of(simdsv_status st)
{
    return st == SIMDSV_ERR_NOMEM ? ENOMEM : st == SIMDSV_ERR_IO ? EIO : EINVAL;
}

static void rejects_clear(const simdsv_allocator *a, ds_rejects *l)
{
    for (size_t k = 0; k < l->count; k++) {
        simdsv__free(a, (void *)(uintptr_t)l->items[k].pub.value, strlen(l->items[k].pub.value) + 1);
        simdsv__free(a, (void *)(uintptr_t)l->items[k].pub.reason, strlen(l->items[k].pub.reason) + 1);
    }
    l->count = 0;
}

static void rejects_free(const simdsv_allocator *a, ds_rejects *l)
{
    rejects_clear(a, l);
    simdsv__free(a, l->items, l->cap * sizeof *l->items);
    memset(l, 0, sizeof *l);
}

/* Appends r (its value and reason copied) of input `input`, in the
 * dataset's column `to` and its row moved by `base`. */
static simdsv_status rejects_add(const simdsv_allocator *a, ds_rejects *l, const simdsv_reject *r, size_t input,
                                 size_t to, uint64_t base)
{
    void *items = l->items;
    if (simdsv__grow(a, &items, &l->cap, l->count + 1, sizeof *l->items) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    l->items = items;
    ds_reject *d = &l->items[l->count];
    d->pub = *r;
    d->pub.column = to;
    d->pub.row = r->row + base;
    d->input = input;
    char *value = simdsv__dataset_copy_name(a, r->value), *reason = simdsv__dataset_copy_name(a, r->reason);
    if (!value || !reason) {
        if (value)
            simdsv__free(a, value, strlen(value) + 1);
        if (reason)
            simdsv__free(a, reason, strlen(reason) + 1);
        return SIMDSV_ERR_NOMEM;
    }
    d->pub.value = value;
    d->pub.reason = reason;
    l->count++;
    return SIMDSV_OK;
}

/* The batch's rejects join the stream's list, their rows the dataset's
 * (from is emptied). */
static int hand_out(ds_stream *p, ds_rejects *from, int64_t rows)
{
    const simdsv_allocator *a = &p->ds->alloc;
    simdsv_status st = SIMDSV_OK;
    for (size_t k = 0; k < from->count && st == SIMDSV_OK; k++)
        st = rejects_add(a, &p->rejects, &from->items[k].pub, from->items[k].input, from->items[k].pub.column,
                         p->input_base);
    rejects_clear(a, from);
    p->rows_out += (uint64_t)rows;
    return st == SIMDSV_OK ? 0 : ENOMEM;
}

/* The stream fails with error e about input `file` (-1: none). */
static int stream_fail(ds_stream *p, long file, const simdsv_error *e, int err)
{
    simdsv_dataset *ds = p->ds;
    simdsv__dataset_fail(ds, file, e, NULL);
    const simdsv_allocator *a = &ds->alloc;
    if (p->message)
        simdsv__free(a, p->message, p->message_size);
    if (file >= 0 && e->line)
        p->message = simdsv__dataset_format(a, &p->message_size, "%s: line %llu, column %llu (byte %llu): %s",
                                            ds->inputs[file].name, (unsigned long long)e->line,
                                            (unsigned long long)e->column, (unsigned long long)e->byte_offset,
                                            e->message);
    else if (file >= 0)
        p->message = simdsv__dataset_format(a, &p->message_size, "%s: %s", ds->inputs[file].name, e->message);
    else
        p->message = simdsv__dataset_format(a, &p->message_size, "%s", e->message);
    p->failed = err;
    return err;
}

/* Part q failed: its error, as the stream will report it. */
static int part_fail(part *q, simdsv_status st, const simdsv_error *e, const char *message)
{
    if (e)
        q->error = *e;
    else
        simdsv__dataset_set_error(&q->error, st, message);
    q->err = errno_of(q->error.code ? q->error.code : st);
    return q->err;
}

/* A table of the dataset's columns (names borrowed) and `rows` rows: the
 * columns input i lacks (`lacking`, SIZE_MAX: none) as nulls, the hive and
 * file name columns as input i's values; the others with no rows. */
static simdsv_status extras_table(ds_stream *p, size_t i, uint64_t rows, const size_t *child_of, simdsv_table *t)
{
    simdsv_dataset *ds = p->ds;
    const simdsv_allocator *a = &ds->alloc;
    const size_t ncols = p->schema.ncols + simdsv__extra_count(ds, &p->hive);
    memset(t, 0, sizeof *t);
    t->alloc = *a;
    t->cols_cap = ncols ? ncols : 1;
    if (!(t->cols = simdsv__alloc(a, t->cols_cap * sizeof *t->cols)))
        return SIMDSV_ERR_NOMEM;
    memset(t->cols, 0, t->cols_cap * sizeof *t->cols);
    t->ncols = ncols;
    t->rows = rows;
    simdsv_status st = SIMDSV_OK;
    for (size_t j = 0; j < ncols && st == SIMDSV_OK; j++) {
        column *c = &t->cols[j];
        if (j < p->schema.ncols) {
            c->name = p->schema.cols[j].name;
            c->type = p->schema.cols[j].type;
            c->utc = p->schema.cols[j].utc;
            if (child_of && child_of[j] == SIZE_MAX) {
                const concat_piece nulls = {NULL, NULL, rows};
                st = simdsv__column_concat(a, c, &nulls, 1);
            }
        } else {
            const size_t k = j - p->schema.ncols;
            c->name = (char *)(uintptr_t)simdsv__extra_name(ds, &p->hive, k);
            c->type = simdsv__extra_type(&p->hive, k);
            if (child_of) {
                column one;
                memset(&one, 0, sizeof one);
                st = simdsv__extra_value(ds, &p->hive, i, k, &one);
                const concat_piece repeat = {NULL, &one, rows};
                if (st == SIMDSV_OK)
                    st = simdsv__column_concat(a, c, &repeat, 1);
                simdsv__column_free_data(a, &one);
            }
        }
    }
    return st;
}

/* The table's rows as an Arrow struct array (and its schema, released
 * unless wanted); t's data is moved out, its names stay borrowed. */
static simdsv_status to_arrow(simdsv_table *t, struct ArrowSchema *schema, struct ArrowArray *array)
{
    struct ArrowSchema unused;
    const simdsv_status st = simdsv_table_move_to_arrow(t, schema ? schema : &unused, array);
    if (st == SIMDSV_OK && !schema)
        unused.release(&unused);
    return st;
}

static void free_extras(const simdsv_allocator *a, simdsv_table *t)
{
    for (size_t j = 0; j < t->ncols; j++)
        simdsv__column_free_data(a, &t->cols[j]);
    simdsv__free(a, t->cols, t->cols_cap * sizeof *t->cols);
    memset(t, 0, sizeof *t);
}

static int get_schema(struct ArrowArrayStream *stream, struct ArrowSchema *out)
{
    ds_stream *p = stream->private_data;
    if (p->failed)
        return p->failed;
    simdsv_table t;
    struct ArrowArray empty;
    simdsv_status st = extras_table(p, 0, 0, NULL, &t);
    if (st == SIMDSV_OK && (st = to_arrow(&t, out, &empty)) == SIMDSV_OK)
        empty.release(&empty);
    free_extras(&p->ds->alloc, &t);
    return st == SIMDSV_OK ? 0 : errno_of(st);
}

/* Closes part q's input and stream (its queue stays). */
static void part_close(part *q)
{
    if (q->stream.release)
        q->stream.release(&q->stream);
    q->stream.release = NULL;
    simdsv_input_free(q->in);
    q->in = NULL;
}

/* Opens input i's stream in q, its columns from the joined types up, and
 * maps the dataset's columns to its children.  0, or the errno (q failed:
 * q->err, q->error).  q->err and q->misfit are 0 on entry. */
static int part_open(ds_stream *p, part *q, size_t i)
{
    simdsv_dataset *ds = p->ds;
    q->input = i;
    simdsv_options *o = NULL;
    simdsv_status st = simdsv__dataset_options(ds, 1, &o);
    const size_t *map = p->schema.map[i];
    const size_t ncols = p->schema.map_sizes[i];
    for (size_t k = 0; st == SIMDSV_OK && k < ncols; k++) {
        const ds_column *d = &p->schema.cols[map[k]];
        if (d->type != SIMDSV_TYPE_NULL && !d->user_type)
            st = simdsv_options_set_column_min_type(o, d->name, d->type);
    }
    if (st != SIMDSV_OK) {
        simdsv_options_free(o);
        return part_fail(q, st, NULL, simdsv_status_message(st));
    }
    simdsv_error err;
    simdsv_reader *r = NULL;
    st = simdsv__dataset_open(ds, i, o, &q->in, &r, &err);
    simdsv_options_free(o);
    if (st != SIMDSV_OK)
        return part_fail(q, st, &err, NULL);
    if ((st = simdsv_table_stream(r, &q->stream)) != SIMDSV_OK) {
        simdsv__dataset_reader_error(r, q->in, &err);
        simdsv_reader_free(r);
        q->stream.release = NULL;
        return part_fail(q, st, &err, NULL);
    }
    for (size_t j = 0; j < p->schema.ncols; j++)
        q->child_of[j] = SIZE_MAX;
    /* The stream's columns are the sample's, in its order (one header). */
    for (size_t k = 0;; k++) {
        simdsv_column_info info;
        if (simdsv_table_stream_column(&q->stream, k, &info) != SIMDSV_OK)
            break;
        const ds_column *d = k < ncols ? &p->schema.cols[map[k]] : NULL;
        char text[400];
        if (!d || strcmp(d->name, info.name) != 0) {
            snprintf(text, sizeof text, "column %zu `%.60s` is not in the file's sample (did it change?)", k + 1,
                     info.name);
            return part_fail(q, SIMDSV_ERR_IO, NULL, text);
        }
        if (info.type == SIMDSV_TYPE_NULL && d->type != SIMDSV_TYPE_NULL)
            continue; /* no value in its first rows: made as nulls of the joined type */
        if (info.type != d->type) {
            /* Its first rows say more than its sample did: wider than the join. */
            snprintf(text, sizeof text, "column `%.60s` is %s in the file's first rows, but %s in the dataset's schema (from the files' samples)",
                     info.name, simdsv_type_name(info.type), simdsv_type_name(d->type));
            q->misfit = strlen(info.name) < sizeof q->misfit_name;
            if (q->misfit) {
                memcpy(q->misfit_name, info.name, strlen(info.name) + 1);
                q->misfit_type = info.type;
            }
            return part_fail(q, SIMDSV_ERR_VALUE, NULL, text);
        }
        q->child_of[map[k]] = k;
    }
    return 0;
}

/* The dataset's batch out of the input's: its children moved over, the
 * others made. */
static int combine(ds_stream *p, part *q, struct ArrowArray *from, struct ArrowArray *out)
{
    const simdsv_allocator *a = &p->ds->alloc;
    simdsv_table t;
    struct ArrowArray extras;
    simdsv_status st = extras_table(p, q->input, (uint64_t)from->length, q->child_of, &t);
    if (st == SIMDSV_OK)
        st = to_arrow(&t, NULL, &extras);
    free_extras(a, &t);
    if (st != SIMDSV_OK) {
        from->release(from);
        return part_fail(q, st, NULL, simdsv_status_message(st));
    }
    /* extras has every column: those made for this batch, and empty ones
     * where the input's children go (swapped in, the empty ones released). */
    for (size_t j = 0; j < p->schema.ncols; j++) {
        if (q->child_of[j] == SIZE_MAX)
            continue;
        struct ArrowArray *mine = extras.children[j], *theirs = from->children[q->child_of[j]];
        mine->release(mine);
        *mine = *theirs;
        theirs->release = NULL; /* moved */
    }
    from->release(from);
    *out = extras;
    return 0;
}

/* The next batch of q's input into *out (release NULL at its end, when q is
 * closed) and its rejects into *rejects (the dataset's columns, the input's
 * rows); the errno when q failed (then closed). */
static int part_next(ds_stream *p, part *q, struct ArrowArray *out, ds_rejects *rejects)
{
    struct ArrowArray from;
    if (q->stream.get_next(&q->stream, &from) != 0) {
        const simdsv_error *e = simdsv_table_stream_error(&q->stream);
        simdsv_error copy;
        memset(&copy, 0, sizeof copy);
        if (e)
            copy = *e;
        else
            simdsv__dataset_set_error(&copy, SIMDSV_ERR_VALUE, q->stream.get_last_error(&q->stream));
        if (copy.code == SIMDSV_ERR_IO && simdsv_input_error(q->in))
            snprintf(copy.message, sizeof copy.message, "%s", simdsv_input_error(q->in));
        size_t at;
        simdsv_type widened;
        simdsv_column_info info;
        if (simdsv_table_stream_misfit(&q->stream, &at, &widened) == SIMDSV_OK &&
            simdsv_table_stream_column(&q->stream, at, &info) == SIMDSV_OK &&
            strlen(info.name) < sizeof q->misfit_name) {
            memcpy(q->misfit_name, info.name, strlen(info.name) + 1);
            q->misfit_type = widened;
            q->misfit = 1;
        }
        part_fail(q, copy.code, &copy, NULL);
        part_close(q);
        return q->err;
    }
    if (!from.release) {
        part_close(q);
        memset(out, 0, sizeof *out);
        return 0;
    }
    const simdsv_allocator *a = &p->ds->alloc;
    const size_t *map = p->schema.map[q->input];
    simdsv_status st = SIMDSV_OK;
    for (size_t k = 0; k < simdsv_table_stream_reject_count(&q->stream) && st == SIMDSV_OK; k++) {
        const simdsv_reject *r = simdsv_table_stream_reject(&q->stream, k);
        st = rejects_add(a, rejects, r, q->input, map[r->column], 0);
    }
    simdsv_table_stream_clear_rejects(&q->stream);
    if (st != SIMDSV_OK) {
        from.release(&from);
        part_fail(q, st, NULL, simdsv_status_message(st));
        part_close(q);
        return q->err;
    }
    const int err = combine(p, q, &from, out);
    if (err)
        part_close(q);
    return err;
}

/* ---------------------------------------------------------------- workers */

static void *worker(void *arg)
{
    ds_stream *p = arg;
    const size_t n = p->ds->ninputs;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        /* The next input, once its slot is free (the consumer is past the
         * input that had it). */
        while (!p->stop && p->taken < n && p->taken >= p->current + p->workers)
            pthread_cond_wait(&p->changed, &p->lock);
        if (p->stop || p->taken >= n)
            break;
        const size_t i = p->taken++;
        part *q = &p->parts[i % p->workers];
        q->head = q->count = 0;
        q->done = q->err = q->misfit = 0; /* under the lock: the consumer reads them for input i now */
        pthread_mutex_unlock(&p->lock);
        int err = part_open(p, q, i);
        ds_rejects rejects = {NULL, 0, 0};
        while (!err) {
            struct ArrowArray batch;
            err = part_next(p, q, &batch, &rejects);
            if (err || !batch.release)
                break;
            pthread_mutex_lock(&p->lock);
            while (!p->stop && q->count == PART_QUEUE)
                pthread_cond_wait(&p->changed, &p->lock);
            if (p->stop) {
                pthread_mutex_unlock(&p->lock);
                batch.release(&batch);
                rejects_free(&p->ds->alloc, &rejects);
                part_close(q);
                return NULL;
            }
            const size_t slot = (q->head + q->count) % PART_QUEUE;
            q->queue[slot] = batch;
            /* The slot's list (empty: handed out) takes these; the worker's starts empty again. */
            const ds_rejects spare = q->queue_rejects[slot];
            q->queue_rejects[slot] = rejects;
            rejects = spare;
            q->count++;
            pthread_cond_broadcast(&p->changed);
            pthread_mutex_unlock(&p->lock);
        }
        rejects_free(&p->ds->alloc, &rejects);
        pthread_mutex_lock(&p->lock);
        q->done = 1;
        pthread_cond_broadcast(&p->changed);
        if (err)
            break; /* the stream fails at this input: nothing after it is needed */
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Reports part q's failure as the stream's. */
static int fail_part(ds_stream *p, part *q)
{
    simdsv_dataset *ds = p->ds;
    if (q->misfit) {
        memcpy(ds->misfit_name, q->misfit_name, strlen(q->misfit_name) + 1);
        ds->misfit_type = q->misfit_type;
        ds->misfit = 1;
    }
    return stream_fail(p, (long)q->input, &q->error, q->err);
}

static int get_next(struct ArrowArrayStream *stream, struct ArrowArray *out)
{
    ds_stream *p = stream->private_data;
    if (p->failed)
        return p->failed;
    const size_t n = p->ds->ninputs;
    if (!p->workers) {
        part *q = &p->parts[0];
        for (;;) {
            if (p->ended || (!q->stream.release && p->current >= n)) {
                p->ended = 1;
                memset(out, 0, sizeof *out);
                return 0;
            }
            if (!q->stream.release) {
                q->err = q->misfit = 0;
                p->input_base = p->rows_out;
                if (part_open(p, q, p->current++) != 0)
                    return fail_part(p, q);
            }
            if (part_next(p, q, out, &q->queue_rejects[0]) != 0)
                return fail_part(p, q);
            if (out->release)
                return hand_out(p, &q->queue_rejects[0], out->length);
        }
    }
    pthread_mutex_lock(&p->lock);
    for (;;) {
        if (p->current >= n) {
            pthread_mutex_unlock(&p->lock);
            p->ended = 1;
            memset(out, 0, sizeof *out);
            return 0;
        }
        part *q = &p->parts[p->current % p->workers];
        const int mine = p->taken > p->current; /* a worker has taken this input */
        if (mine && q->count) {
            *out = q->queue[q->head];
            const int err = hand_out(p, &q->queue_rejects[q->head], out->length);
            q->head = (q->head + 1) % PART_QUEUE;
            q->count--;
            pthread_cond_broadcast(&p->changed);
            pthread_mutex_unlock(&p->lock);
            return err;
        }
        if (mine && q->done && q->err) {
            pthread_mutex_unlock(&p->lock);
            return fail_part(p, q);
        }
        if (mine && q->done) {
            p->current++; /* its slot is free for the input `workers` ahead */
            p->input_base = p->rows_out;
            pthread_cond_broadcast(&p->changed);
            continue;
        }
        pthread_cond_wait(&p->changed, &p->lock);
    }
}

static const char *get_last_error(struct ArrowArrayStream *stream)
{
    const ds_stream *p = stream->private_data;
    return p->message ? p->message : p->failed ? simdsv_status_message(SIMDSV_ERR_NOMEM) : NULL;
}

static void release(struct ArrowArrayStream *stream)
{
    ds_stream *p = stream->private_data;
    simdsv_dataset *ds = p->ds;
    const simdsv_allocator a = ds->alloc;
    if (p->workers) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_broadcast(&p->changed);
        pthread_mutex_unlock(&p->lock);
        for (size_t w = 0; w < p->started; w++)
            pthread_join(p->threads[w], NULL);
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->changed);
    }
    const size_t nparts = p->workers ? p->workers : 1;
    for (size_t k = 0; p->parts && k < nparts; k++) {
        part *q = &p->parts[k];
        for (; q->count; q->count--, q->head = (q->head + 1) % PART_QUEUE)
            q->queue[q->head].release(&q->queue[q->head]);
        for (size_t slot = 0; slot < PART_QUEUE; slot++)
            rejects_free(&a, &q->queue_rejects[slot]);
        part_close(q);
        simdsv__free(&a, q->child_of, (p->schema.ncols ? p->schema.ncols : 1) * sizeof *q->child_of);
    }
    simdsv__free(&a, p->parts, nparts * sizeof *p->parts);
    simdsv__free(&a, p->threads, (p->workers ? p->workers : 1) * sizeof *p->threads);
    simdsv__schema_free(&a, &p->schema, ds->ninputs);
    simdsv__hive_free(&a, &p->hive, ds->ninputs);
    if (p->message)
        simdsv__free(&a, p->message, p->message_size);
    rejects_free(&a, &p->rejects);
    simdsv__free(&a, p, sizeof *p);
    ds->streaming = 0;
    stream->release = NULL;
}

simdsv_status simdsv_dataset_stream(simdsv_dataset *ds, struct ArrowArrayStream *out)
{
    if (!ds || !out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    simdsv_status st = simdsv__dataset_start(ds);
    if (st != SIMDSV_OK)
        return st;
    const simdsv_allocator *a = &ds->alloc;
    const size_t n = ds->ninputs;
    ds_stream *p = simdsv__alloc(a, sizeof *p);
    simdsv_table **tables = simdsv__alloc(a, (n ? n : 1) * sizeof *tables);
    if (!p || !tables) {
        simdsv__free(a, p, sizeof *p);
        simdsv__free(a, tables, (n ? n : 1) * sizeof *tables);
        return SIMDSV_ERR_NOMEM;
    }
    memset(p, 0, sizeof *p);
    memset(tables, 0, (n ? n : 1) * sizeof *tables);
    p->ds = ds;
    st = simdsv__dataset_join(ds, 1, tables, &p->schema);
    for (size_t i = 0; i < n; i++)
        simdsv_table_free(tables[i]); /* the schema keeps what it needs: names, types, each input's map */
    simdsv__free(a, tables, (n ? n : 1) * sizeof *tables);
    if (st == SIMDSV_OK)
        st = simdsv__hive_find(ds, &p->schema, &p->hive);
    /* Workers when there are threads to give and inputs to share. */
    const size_t threads = (size_t)simdsv__thread_count(ds->opt->threads);
    const size_t workers = threads > 1 && n > 1 ? (threads < n ? threads : n) : 0;
    const size_t nparts = workers ? workers : 1;
    if (st == SIMDSV_OK && (p->parts = simdsv__alloc(a, nparts * sizeof *p->parts)) != NULL) {
        memset(p->parts, 0, nparts * sizeof *p->parts);
        for (size_t k = 0; k < nparts && st == SIMDSV_OK; k++)
            if (!(p->parts[k].child_of =
                      simdsv__alloc(a, (p->schema.ncols ? p->schema.ncols : 1) * sizeof *p->parts[k].child_of)))
                st = SIMDSV_ERR_NOMEM;
    } else if (st == SIMDSV_OK) {
        st = SIMDSV_ERR_NOMEM;
    }
    if (st == SIMDSV_OK && workers) {
        if (!(p->threads = simdsv__alloc(a, workers * sizeof *p->threads)) ||
            pthread_mutex_init(&p->lock, NULL) != 0) {
            st = SIMDSV_ERR_NOMEM;
        } else if (pthread_cond_init(&p->changed, NULL) != 0) {
            pthread_mutex_destroy(&p->lock);
            st = SIMDSV_ERR_NOMEM;
        } else {
            p->workers = workers;
            /* A worker that cannot start leaves its inputs to the others. */
            for (; p->started < workers; p->started++)
                if (pthread_create(&p->threads[p->started], NULL, worker, p) != 0)
                    break;
            if (!p->started) {
                pthread_mutex_destroy(&p->lock);
                pthread_cond_destroy(&p->changed);
                p->workers = 0;
            }
        }
    }
    out->get_schema = get_schema;
    out->get_next = get_next;
    out->get_last_error = get_last_error;
    out->release = release;
    out->private_data = p;
    ds->streaming = 1;
    if (st != SIMDSV_OK) {
        const simdsv_error e = ds->error;
        release(out);
        ds->error = e;
        if (!ds->error.code)
            simdsv__dataset_set_error(&ds->error, st, simdsv_status_message(st));
    }
    return st;
}

/* ------------------------------------------------------------- rejects */

static ds_stream *dataset_stream_of(struct ArrowArrayStream *stream)
{
    return stream && stream->release == release ? stream->private_data : NULL;
}

size_t simdsv__dataset_stream_reject_count(struct ArrowArrayStream *stream)
{
    const ds_stream *p = dataset_stream_of(stream);
    return p ? p->rejects.count : 0;
}

const simdsv_reject *simdsv__dataset_stream_reject(struct ArrowArrayStream *stream, size_t index)
{
    const ds_stream *p = dataset_stream_of(stream);
    return p && index < p->rejects.count ? &p->rejects.items[index].pub : NULL;
}

void simdsv__dataset_stream_clear_rejects(struct ArrowArrayStream *stream)
{
    ds_stream *p = dataset_stream_of(stream);
    if (p)
        rejects_clear(&p->ds->alloc, &p->rejects);
}

simdsv_status simdsv__dataset_stream_column(struct ArrowArrayStream *stream, size_t index, simdsv_column_info *info)
{
    const ds_stream *p = dataset_stream_of(stream);
    if (!p || !info || index >= p->schema.ncols + simdsv__extra_count(p->ds, &p->hive))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    memset(info, 0, sizeof *info);
    if (index < p->schema.ncols) {
        const ds_column *d = &p->schema.cols[index];
        info->name = d->name;
        info->type = d->type;
        info->reason = d->reason;
        info->user_type = d->user_type;
    } else {
        info->name = simdsv__extra_name(p->ds, &p->hive, index - p->schema.ncols);
        info->type = simdsv__extra_type(&p->hive, index - p->schema.ncols);
        info->reason = "";
    }
    return SIMDSV_OK;
}

long simdsv_dataset_stream_reject_file(struct ArrowArrayStream *stream, size_t index)
{
    const ds_stream *p = dataset_stream_of(stream);
    return p && index < p->rejects.count ? (long)p->rejects.items[index].input : -1;
}
