/*
 * stream.c — simdsv_dataset_stream: the inputs as one Arrow C stream, in
 * bounded memory.  The schema is fixed first: each input's schema sampled
 * (simdsv_table_infer, side by side on the threads) and joined as the read
 * joins them.  Then one input at a time is opened and streamed by the typed
 * reader (simdsv_table_stream) with its columns starting from the joined
 * types, and each of its batches becomes a batch of the dataset: its
 * children moved over as they are, the columns it lacks and the hive and
 * file name columns made for the batch's rows.  Only one input's reader and
 * one batch are held, whatever the number of inputs.
 *
 * An input whose stream finds a column wider than the joined type (in its
 * own first rows, or in a later value) stops the stream with an error that
 * names the input, its line and byte; simdsv_dataset_widen_misfit then
 * makes the next stream start that column from the wider type.
 */
#include "dataset.h"
#include "../table/typed.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct ds_stream {
    simdsv_dataset *ds;
    ds_schema schema;
    ds_hive hive;
    size_t next;             /* the next input to open */
    size_t current;          /* the input being streamed */
    simdsv_input *in;        /* its input, and its stream (which owns its reader) */
    struct ArrowArrayStream part;
    size_t *child_of;        /* dataset column j: the input stream's child, or SIZE_MAX */
    int failed;              /* errno of a failed get_next: every later call repeats it */
    int ended;
    char message[512];       /* get_last_error */
} ds_stream;

static int stream_fail(ds_stream *p, long file, const simdsv_error *e, int err)
{
    simdsv__dataset_fail(p->ds, file, e);
    if (file >= 0 && e->line)
        snprintf(p->message, sizeof p->message, "%.200s: line %llu, column %llu (byte %llu): %.250s",
                 p->ds->inputs[file].name, (unsigned long long)e->line, (unsigned long long)e->column,
                 (unsigned long long)e->byte_offset, e->message);
    else if (file >= 0)
        snprintf(p->message, sizeof p->message, "%.200s: %.280s", p->ds->inputs[file].name, e->message);
    else
        snprintf(p->message, sizeof p->message, "%.480s", e->message);
    p->failed = err;
    return err;
}

static int errno_of(simdsv_status st)
{
    return st == SIMDSV_ERR_NOMEM ? ENOMEM : st == SIMDSV_ERR_IO ? EIO : EINVAL;
}

static int fail_status(ds_stream *p, long file, simdsv_status st, const char *message)
{
    simdsv_error e;
    simdsv__dataset_set_error(&e, st, message);
    return stream_fail(p, file, &e, errno_of(st));
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

/* Closes the input being streamed. */
static void close_part(ds_stream *p)
{
    if (p->part.release)
        p->part.release(&p->part);
    p->part.release = NULL;
    simdsv_input_free(p->in);
    p->in = NULL;
}

/* Opens the next input's stream, its columns from the joined types up,
 * and maps the dataset's columns to its children.  0, or the errno. */
static int open_part(ds_stream *p)
{
    simdsv_dataset *ds = p->ds;
    const size_t i = p->next++;
    p->current = i;
    simdsv_options *o = NULL;
    simdsv_status st = simdsv__dataset_options(ds, 1, &o);
    const size_t *map = p->schema.map[i];
    for (size_t q = 0; st == SIMDSV_OK && q < p->schema.map_sizes[i]; q++) {
        const ds_column *d = &p->schema.cols[map[q]];
        if (d->type != SIMDSV_TYPE_NULL && !d->user_type)
            st = simdsv_options_set_column_min_type(o, d->name, d->type);
    }
    if (st != SIMDSV_OK) {
        simdsv_options_free(o);
        return fail_status(p, -1, st, simdsv_status_message(st));
    }
    simdsv_error err;
    simdsv_reader *r = NULL;
    st = simdsv__dataset_open(ds, i, o, &p->in, &r, &err);
    simdsv_options_free(o);
    if (st != SIMDSV_OK)
        return stream_fail(p, (long)i, &err, errno_of(st));
    if ((st = simdsv_table_stream(r, &p->part)) != SIMDSV_OK) {
        simdsv__dataset_reader_error(r, p->in, &err);
        simdsv_reader_free(r);
        p->part.release = NULL;
        return stream_fail(p, (long)i, &err, errno_of(st));
    }
    for (size_t j = 0; j < p->schema.ncols; j++)
        p->child_of[j] = SIZE_MAX;
    /* The stream's columns are the sample's, in its order (one header). */
    const size_t ncols = p->schema.map_sizes[i];
    for (size_t q = 0;; q++) {
        simdsv_column_info info;
        if (simdsv_table_stream_column(&p->part, q, &info) != SIMDSV_OK)
            break;
        const ds_column *d = q < ncols ? &p->schema.cols[map[q]] : NULL;
        char text[400];
        if (!d || strcmp(d->name, info.name) != 0) {
            snprintf(text, sizeof text, "column %zu `%.60s` is not in the file's sample (did it change?)", q + 1,
                     info.name);
            return fail_status(p, (long)i, SIMDSV_ERR_IO, text);
        }
        if (info.type == SIMDSV_TYPE_NULL && d->type != SIMDSV_TYPE_NULL)
            continue; /* no value in its first rows: made as nulls of the joined type */
        if (info.type != d->type) {
            /* Its first rows say more than its sample did: wider than the join. */
            snprintf(text, sizeof text, "column `%.60s` is %s in the file's first rows, but %s in the dataset's schema (from the files' samples)",
                     info.name, simdsv_type_name(info.type), simdsv_type_name(d->type));
            ds->misfit = strlen(info.name) < sizeof ds->misfit_name;
            if (ds->misfit) {
                memcpy(ds->misfit_name, info.name, strlen(info.name) + 1);
                ds->misfit_type = info.type;
            }
            return fail_status(p, (long)i, SIMDSV_ERR_VALUE, text);
        }
        p->child_of[map[q]] = q;
    }
    return 0;
}

/* The dataset's batch out of the input's: its children moved over, the
 * others made. */
static int combine(ds_stream *p, struct ArrowArray *part, struct ArrowArray *out)
{
    const simdsv_allocator *a = &p->ds->alloc;
    simdsv_table t;
    struct ArrowArray extras;
    simdsv_status st = extras_table(p, p->current, (uint64_t)part->length, p->child_of, &t);
    if (st == SIMDSV_OK)
        st = to_arrow(&t, NULL, &extras);
    free_extras(a, &t);
    if (st != SIMDSV_OK) {
        part->release(part);
        return fail_status(p, -1, st, simdsv_status_message(st));
    }
    /* extras has every column: those made for this batch, and empty ones
     * where the input's children go (swapped in, the empty ones released). */
    for (size_t j = 0; j < p->schema.ncols; j++) {
        if (p->child_of[j] == SIZE_MAX)
            continue;
        struct ArrowArray *mine = extras.children[j], *theirs = part->children[p->child_of[j]];
        mine->release(mine);
        *mine = *theirs;
        theirs->release = NULL; /* moved */
    }
    part->release(part);
    *out = extras;
    return 0;
}

static int get_next(struct ArrowArrayStream *stream, struct ArrowArray *out)
{
    ds_stream *p = stream->private_data;
    if (p->failed)
        return p->failed;
    for (;;) {
        if (p->ended || (!p->part.release && p->next >= p->ds->ninputs)) {
            p->ended = 1;
            memset(out, 0, sizeof *out);
            return 0;
        }
        if (!p->part.release) {
            const int err = open_part(p);
            if (err)
                return err;
        }
        struct ArrowArray part;
        if (p->part.get_next(&p->part, &part) != 0) {
            const simdsv_error *e = simdsv_table_stream_error(&p->part);
            simdsv_error copy;
            memset(&copy, 0, sizeof copy);
            if (e)
                copy = *e;
            else
                snprintf(copy.message, sizeof copy.message, "%s", p->part.get_last_error(&p->part));
            if (copy.code == SIMDSV_ERR_IO && simdsv_input_error(p->in))
                snprintf(copy.message, sizeof copy.message, "%s", simdsv_input_error(p->in));
            size_t misfit_at;
            simdsv_type widened;
            simdsv_column_info info;
            simdsv_dataset *ds = p->ds;
            if (simdsv_table_stream_misfit(&p->part, &misfit_at, &widened) == SIMDSV_OK &&
                simdsv_table_stream_column(&p->part, misfit_at, &info) == SIMDSV_OK &&
                strlen(info.name) < sizeof ds->misfit_name) {
                memcpy(ds->misfit_name, info.name, strlen(info.name) + 1);
                ds->misfit_type = widened;
                ds->misfit = 1;
            }
            const int err = copy.code == SIMDSV_ERR_NOMEM ? ENOMEM : copy.code == SIMDSV_ERR_IO ? EIO : EINVAL;
            stream_fail(p, (long)p->current, &copy, err);
            close_part(p);
            return err;
        }
        if (!part.release) { /* this input is done */
            close_part(p);
            continue;
        }
        return combine(p, &part, out);
    }
}

static const char *get_last_error(struct ArrowArrayStream *stream)
{
    const ds_stream *p = stream->private_data;
    return p->message[0] ? p->message : NULL;
}

static void release(struct ArrowArrayStream *stream)
{
    ds_stream *p = stream->private_data;
    simdsv_dataset *ds = p->ds;
    const simdsv_allocator a = ds->alloc;
    close_part(p);
    simdsv__free(&a, p->child_of, (p->schema.ncols ? p->schema.ncols : 1) * sizeof *p->child_of);
    simdsv__schema_free(&a, &p->schema, ds->ninputs);
    simdsv__hive_free(&a, &p->hive, ds->ninputs);
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
    if (st == SIMDSV_OK &&
        !(p->child_of = simdsv__alloc(a, (p->schema.ncols ? p->schema.ncols : 1) * sizeof *p->child_of)))
        st = SIMDSV_ERR_NOMEM;
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
            ds->error.code = st;
    }
    return st;
}
