/*
 * dataset.c — simdsv_dataset: many inputs read as one table.  Each input is
 * opened and detected as simdsv_input opens one and read by the typed
 * reader unchanged; this file only decides the order, the schema (the
 * inputs' columns matched by position or by name, their types joined as a
 * late value widens a column inside one input) and who reads what.  It
 * parses nothing itself but hive partition values, with the value layer.
 * The stream is stream.c; paths, globs and folders are paths.c.
 */
#include "dataset.h"
#include "paths.h"
#include "../table/typed.h"
#include "../source/input.h"
#include "../common/spec.h"
#include "../values/values.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- the object */

char *simdsv__dataset_copy_name(const simdsv_allocator *a, const char *s)
{
    const size_t n = strlen(s) + 1;
    char *p = simdsv__alloc(a, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static void free_name(const simdsv_allocator *a, char *s)
{
    if (s)
        simdsv__free(a, s, strlen(s) + 1);
}

static simdsv_options *copy_options(const simdsv_options *src)
{
    simdsv_options *o = simdsv__alloc(&src->alloc, sizeof *o);
    if (!o)
        return NULL;
    *o = *src;
    /* The inputs' tables are concatenated column by column (concat.c), with
     * utf8 strings: views would point into each input's own buffer. */
    o->strings = SIMDSV_STRINGS_UTF8;
    /* A column the schema names may be in some inputs only (by name, or an
     * empty input has none): simdsv__schema_join checks the joined ones. */
    o->schema_partial = true;
    if (simdsv__options_copy_specs(o, src) != SIMDSV_OK) {
        simdsv__free(&src->alloc, o, sizeof *o);
        return NULL;
    }
    return o;
}

void simdsv__dataset_set_error(simdsv_error *err, simdsv_status code, const char *message)
{
    memset(err, 0, sizeof *err);
    err->code = code;
    size_t n = strlen(message);
    if (n >= sizeof err->message) {
        n = sizeof err->message - 1;
        while (n && ((unsigned char)message[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(err->message, message, n);
    err->message[n] = '\0';
}

static char *vformat(const simdsv_allocator *a, size_t *size, const char *fmt, va_list args)
{
    va_list again;
    va_copy(again, args);
    const int n = vsnprintf(NULL, 0, fmt, args);
    char *text = n >= 0 ? simdsv__alloc(a, (size_t)n + 1) : NULL;
    if (text) {
        vsnprintf(text, (size_t)n + 1, fmt, again);
        *size = (size_t)n + 1;
    }
    va_end(again);
    return text;
}

char *simdsv__dataset_format(const simdsv_allocator *a, size_t *size, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = vformat(a, size, fmt, args);
    va_end(args);
    return text;
}

static void forget_message(simdsv_dataset *ds)
{
    if (ds->message)
        simdsv__free(&ds->alloc, ds->message, strlen(ds->message) + 1);
    ds->message = NULL;
}

/* The chunks of the last read_chunks not taken, freed. */
static void forget_chunks(simdsv_dataset *ds)
{
    for (size_t i = 0; i < ds->nchunks; i++)
        simdsv_table_free(ds->chunks[i]);
    simdsv__free(&ds->alloc, ds->chunks, ds->chunks_cap * sizeof *ds->chunks);
    ds->chunks = NULL;
    ds->nchunks = ds->chunks_cap = 0;
}

void simdsv__dataset_fail(simdsv_dataset *ds, long file, const simdsv_error *err, const char *message)
{
    ds->error = *err;
    ds->error_file = file;
    forget_message(ds);
    size_t size;
    ds->message = simdsv__dataset_format(&ds->alloc, &size, "%s", message ? message : err->message);
}

static simdsv_status fail_with(simdsv_dataset *ds, long file, simdsv_status code, const char *message)
{
    simdsv_error e;
    simdsv__dataset_set_error(&e, code, message);
    simdsv__dataset_fail(ds, file, &e, message);
    return code;
}

/* fail_with a message made by printf: paths and names whole, however long. */
static simdsv_status fail_format(simdsv_dataset *ds, long file, simdsv_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static simdsv_status fail_format(simdsv_dataset *ds, long file, simdsv_status code, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    size_t size;
    char *text = vformat(&ds->alloc, &size, fmt, args);
    va_end(args);
    if (!text)
        return fail_with(ds, file, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
    fail_with(ds, file, code, text);
    simdsv__free(&ds->alloc, text, size);
    return code;
}

simdsv_status simdsv_dataset_new(simdsv_dataset **out, const simdsv_options *opt, const simdsv_sniff_params *detect)
{
    if (!out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    simdsv_options *defaults = opt ? NULL : simdsv_options_new(NULL);
    const simdsv_options *from = opt ? opt : defaults;
    if (!from)
        return SIMDSV_ERR_NOMEM;
    const simdsv_allocator a = from->alloc;
    simdsv_dataset *ds = simdsv__alloc(&a, sizeof *ds);
    simdsv_options *copy = copy_options(from);
    simdsv_options_free(defaults);
    if (!ds || !copy) {
        simdsv__free(&a, ds, sizeof *ds);
        simdsv_options_free(copy);
        return SIMDSV_ERR_NOMEM;
    }
    memset(ds, 0, sizeof *ds);
    ds->alloc = a;
    ds->opt = copy;
    if (detect)
        ds->detect = *detect;
    ds->detect.opt = NULL; /* the settings given are taken from each input's copy of ds->opt */
    ds->error_file = -1;
    *out = ds;
    return SIMDSV_OK;
}

void simdsv_dataset_free(simdsv_dataset *ds)
{
    if (!ds)
        return;
    const simdsv_allocator a = ds->alloc;
    for (size_t i = 0; i < ds->ninputs; i++) {
        ds_input *in = &ds->inputs[i];
        free_name(&a, in->name);
        simdsv__free(&a, in->held, in->held_cap);
        if (in->kind == INPUT_CALLBACK && in->source.release)
            in->source.release(in->source.ctx);
    }
    simdsv__free(&a, ds->inputs, ds->inputs_cap * sizeof *ds->inputs);
    forget_chunks(ds);
    forget_message(ds);
    simdsv_options_free(ds->opt);
    simdsv__free(&a, ds, sizeof *ds);
}

/* A new input at the end, named (copied); NULL when out of memory. */
static ds_input *add_input(simdsv_dataset *ds, const char *name, input_kind kind)
{
    void *p = ds->inputs;
    if (simdsv__grow(&ds->alloc, &p, &ds->inputs_cap, ds->ninputs + 1, sizeof *ds->inputs) != SIMDSV_OK)
        return NULL;
    ds->inputs = p;
    ds_input *in = &ds->inputs[ds->ninputs];
    memset(in, 0, sizeof *in);
    if (!(in->name = simdsv__dataset_copy_name(&ds->alloc, name)))
        return NULL;
    in->kind = kind;
    ds->ninputs++;
    return in;
}

simdsv_status simdsv_dataset_add_path(simdsv_dataset *ds, const char *path)
{
    if (!ds || !path || !*path)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    path_list found = {NULL, 0, 0};
    simdsv_error err;
    simdsv_status st = simdsv__paths_expand(&ds->alloc, path, &found, &err);
    if (st != SIMDSV_OK) {
        simdsv__dataset_fail(ds, -1, &err, NULL);
        return st;
    }
    for (size_t i = 0; i < found.count && st == SIMDSV_OK; i++)
        if (!add_input(ds, found.items[i], INPUT_PATH))
            st = fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
    simdsv__paths_free(&ds->alloc, &found);
    return st;
}

simdsv_status simdsv_dataset_add_memory(simdsv_dataset *ds, const char *name, const void *data, size_t size)
{
    if (!ds || !name || (!data && size))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    ds_input *in = add_input(ds, name, INPUT_MEMORY);
    if (!in)
        return fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
    in->data = data ? data : (const uint8_t *)"";
    in->size = size;
    return SIMDSV_OK;
}

simdsv_status simdsv_dataset_add_callback(simdsv_dataset *ds, const char *name, const simdsv_dataset_source *source)
{
    if (!ds || !name || !source || !source->read)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    ds_input *in = add_input(ds, name, INPUT_CALLBACK);
    if (!in) {
        if (source->release)
            source->release(source->ctx); /* the dataset was to own it */
        return fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
    }
    in->source = *source;
    return SIMDSV_OK;
}

size_t simdsv_dataset_files(const simdsv_dataset *ds)
{
    return ds ? ds->ninputs : 0;
}

const char *simdsv_dataset_file(const simdsv_dataset *ds, size_t index)
{
    return ds && index < ds->ninputs ? ds->inputs[index].name : NULL;
}

const simdsv_error *simdsv_dataset_error(const simdsv_dataset *ds)
{
    static const simdsv_error none = {SIMDSV_OK, 0, 0, 0, 0, 0, 0, ""};
    return ds ? &ds->error : &none;
}

long simdsv_dataset_error_file(const simdsv_dataset *ds)
{
    return ds ? ds->error_file : -1;
}

const char *simdsv_dataset_error_message(const simdsv_dataset *ds)
{
    return !ds ? "" : ds->message ? ds->message : ds->error.message;
}

simdsv_status simdsv_dataset_widen_misfit(simdsv_dataset *ds)
{
    if (!ds || !ds->misfit)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const simdsv_status st = simdsv_options_set_column_min_type(ds->opt, ds->misfit_name, ds->misfit_type);
    if (st == SIMDSV_OK)
        ds->misfit = 0;
    return st;
}

/* ------------------------------------------------------------ one input */

simdsv_status simdsv__dataset_options(simdsv_dataset *ds, int threads, simdsv_options **out)
{
    *out = copy_options(ds->opt);
    if (!*out)
        return SIMDSV_ERR_NOMEM;
    (*out)->threads = threads;
    /* Concatenated inputs' strings are copied into one buffer per column
     * anyway: utf8, whatever SIMDSV_OPT_STRINGS says. */
    (*out)->strings = SIMDSV_STRINGS_UTF8;
    return SIMDSV_OK;
}

/* A callback without rewind, read whole into memory the first time. */
static simdsv_status hold(simdsv_dataset *ds, ds_input *in, simdsv_error *err)
{
    size_t len = 0;
    for (;;) {
        if (in->held_cap - len < 65536) {
            void *p = in->held;
            size_t cap = in->held_cap;
            const size_t need = len + 65536;
            if (simdsv__grow(&ds->alloc, &p, &cap, need, 1) != SIMDSV_OK) {
                simdsv__dataset_set_error(err, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
                return SIMDSV_ERR_NOMEM;
            }
            in->held = p;
            in->held_cap = cap;
        }
        int os_errno = 0;
        const size_t room = in->held_cap - len;
        const long long n = in->source.read(in->source.ctx, in->held + len, room, &os_errno);
        if (n < 0 || n > (long long)room) {
            simdsv__dataset_set_error(err, SIMDSV_ERR_IO, n < 0 ? "the read callback failed" : "the read callback returned too much");
            err->os_errno = n < 0 ? os_errno : 0;
            return SIMDSV_ERR_IO;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    in->data = in->held;
    in->size = len;
    in->held_ready = 1;
    return SIMDSV_OK;
}

simdsv_status simdsv__dataset_open(simdsv_dataset *ds, size_t i, simdsv_options *o, simdsv_input **inp,
                                   simdsv_reader **r, simdsv_error *err)
{
    ds_input *in = &ds->inputs[i];
    *inp = NULL;
    *r = NULL;
    simdsv_status st;
    if (in->kind == INPUT_PATH) {
        st = simdsv_input_open_path(inp, in->name, o, err);
    } else if (in->kind == INPUT_CALLBACK && in->source.rewind) {
        int os_errno = 0;
        if (in->source.rewind(in->source.ctx, &os_errno) != 0) {
            simdsv__dataset_set_error(err, SIMDSV_ERR_IO, "the input could not be read again from its start");
            err->os_errno = os_errno;
            return SIMDSV_ERR_IO;
        }
        st = simdsv__input_open_callback(inp, in->source.read, in->source.ctx, o, err);
    } else {
        st = in->kind == INPUT_CALLBACK && !in->held_ready ? hold(ds, in, err) : SIMDSV_OK;
        if (st == SIMDSV_OK)
            st = simdsv_input_open_memory(inp, in->data, in->size, o, err);
    }
    if (st == SIMDSV_OK && ds->detect.given != SIMDSV_SNIFF_GIVEN_ALL) {
        simdsv_sniff_params p = ds->detect;
        p.opt = o;
        st = simdsv_input_detect(*inp, &p, o, NULL, err);
    }
    if (st == SIMDSV_OK && (st = simdsv_reader_new(r, o)) != SIMDSV_OK)
        simdsv__dataset_set_error(err, st, simdsv_status_message(st));
    if (st == SIMDSV_OK && (st = simdsv_input_open_reader(*inp, *r)) != SIMDSV_OK)
        simdsv__dataset_set_error(err, st, simdsv_status_message(st));
    if (st != SIMDSV_OK) {
        simdsv_reader_free(*r);
        simdsv_input_free(*inp);
        *r = NULL;
        *inp = NULL;
    }
    return st;
}

void simdsv__dataset_reader_error(const simdsv_reader *r, const simdsv_input *in, simdsv_error *err)
{
    *err = *simdsv_reader_error(r);
    const char *why = simdsv_input_error(in);
    if (err->code == SIMDSV_ERR_IO && why)
        snprintf(err->message, sizeof err->message, "%s", why);
}

/* Input i read whole (or, with infer, its schema sampled) into *out with
 * options o (freed here). */
static simdsv_status read_input(simdsv_dataset *ds, size_t i, int infer, simdsv_options *o, simdsv_table **out,
                                simdsv_error *err)
{
    simdsv_input *in = NULL;
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv__dataset_open(ds, i, o, &in, &r, err);
    simdsv_options_free(o);
    if (st != SIMDSV_OK)
        return st;
    st = infer ? simdsv_table_infer(r, out) : simdsv_table_read(r, out);
    if (st != SIMDSV_OK)
        simdsv__dataset_reader_error(r, in, err);
    simdsv_reader_free(r);
    simdsv_input_free(in);
    return st;
}

/* ------------------------------------------------------- many inputs read */

/* The inputs with opts[i] set, read into tables[i]: side by side, one per
 * thread, or one after another on every thread.  Inputs after the first
 * that fails are not read (or read for nothing); that one's error is the
 * dataset's. */
typedef struct read_all {
    simdsv_dataset *ds;
    int infer;
    simdsv_options **opts;  /* taken (freed) as read */
    simdsv_table **tables;
    simdsv_status *status;
    simdsv_error *errors;
    atomic_size_t next;
    atomic_size_t first_failed;
} read_all;

static void read_worker(void *arg, size_t thread)
{
    read_all *job = arg;
    (void)thread;
    for (;;) {
        const size_t i = atomic_fetch_add(&job->next, 1);
        if (i >= job->ds->ninputs)
            return;
        if (!job->opts[i] || i > atomic_load(&job->first_failed))
            continue;
        simdsv_options *o = job->opts[i];
        job->opts[i] = NULL;
        job->status[i] = read_input(job->ds, i, job->infer, o, &job->tables[i], &job->errors[i]);
        if (job->status[i] != SIMDSV_OK) {
            size_t seen = atomic_load(&job->first_failed);
            while (i < seen && !atomic_compare_exchange_weak(&job->first_failed, &seen, i)) {
            }
        }
    }
}

/* How the inputs to read share the threads: `workers` inputs at a time,
 * each read on `each` threads. */
static void share_threads(const simdsv_dataset *ds, size_t inputs, size_t *workers, int *each)
{
    const int threads = simdsv__thread_count(ds->opt->threads);
    if (threads > 1 && inputs >= (size_t)threads) {
        *workers = (size_t)threads;
        *each = 1;
    } else {
        *workers = 1;
        *each = ds->opt->threads;
    }
}

static simdsv_status read_inputs(simdsv_dataset *ds, int infer, simdsv_options **opts, simdsv_table **tables)
{
    const simdsv_allocator *a = &ds->alloc;
    const size_t n = ds->ninputs;
    simdsv_status *status = simdsv__alloc(a, n * sizeof *status);
    simdsv_error *errors = simdsv__alloc(a, n * sizeof *errors);
    simdsv_status st = SIMDSV_OK;
    if (!status || !errors) {
        st = fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
    } else {
        size_t todo = 0, workers;
        int each;
        for (size_t i = 0; i < n; i++) {
            status[i] = SIMDSV_OK;
            todo += opts[i] != NULL;
        }
        share_threads(ds, todo, &workers, &each);
        for (size_t i = 0; i < n; i++)
            if (opts[i])
                opts[i]->threads = each;
        read_all job = {ds, infer, opts, tables, status, errors, 0, SIZE_MAX};
        if (!simdsv__run_threads(a, workers, read_worker, &job)) {
            st = fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
        } else {
            const size_t failed = atomic_load(&job.first_failed);
            if (failed != SIZE_MAX) {
                simdsv__dataset_fail(ds, (long)failed, &errors[failed], NULL);
                st = status[failed];
            }
        }
    }
    for (size_t i = 0; i < n; i++) { /* those not taken by a worker */
        simdsv_options_free(opts[i]);
        opts[i] = NULL;
    }
    simdsv__free(a, status, n * sizeof *status);
    simdsv__free(a, errors, n * sizeof *errors);
    return st;
}

/* ------------------------------------------------------------- the schema */

static size_t name_hash(const char *s)
{
    size_t h = 14695981039346656037ull & SIZE_MAX; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (1099511628211ull & SIZE_MAX);
    return h;
}

/* The schema column called name, or SIZE_MAX. */
static size_t find_column(const ds_schema *s, const char *name)
{
    if (!s->nslots)
        return SIZE_MAX;
    for (size_t k = name_hash(name) & (s->nslots - 1);; k = (k + 1) & (s->nslots - 1)) {
        if (!s->slots[k])
            return SIZE_MAX;
        if (strcmp(s->cols[s->slots[k] - 1].name, name) == 0)
            return s->slots[k] - 1;
    }
}

static simdsv_status rehash(const simdsv_allocator *a, ds_schema *s)
{
    size_t n = 16;
    while (n < 2 * (s->ncols + 1))
        n *= 2;
    if (n <= s->nslots)
        return SIMDSV_OK;
    size_t *slots = simdsv__alloc(a, n * sizeof *slots);
    if (!slots)
        return SIMDSV_ERR_NOMEM;
    memset(slots, 0, n * sizeof *slots);
    for (size_t j = 0; j + 1 < s->ncols; j++) { /* the last one, new, is the caller's to place */
        size_t k = name_hash(s->cols[j].name) & (n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = j + 1;
    }
    simdsv__free(a, s->slots, s->nslots * sizeof *s->slots);
    s->slots = slots;
    s->nslots = n;
    return SIMDSV_OK;
}

static simdsv_status add_column(const simdsv_allocator *a, ds_schema *s, const column *c)
{
    void *p = s->cols;
    if (simdsv__grow(a, &p, &s->cap, s->ncols + 1, sizeof *s->cols) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    s->cols = p;
    ds_column *d = &s->cols[s->ncols];
    memset(d, 0, sizeof *d);
    if (!(d->name = simdsv__dataset_copy_name(a, c->name)))
        return SIMDSV_ERR_NOMEM;
    d->type = SIMDSV_TYPE_NULL;
    s->ncols++;
    if (rehash(a, s) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    size_t k = name_hash(d->name) & (s->nslots - 1);
    while (s->slots[k])
        k = (k + 1) & (s->nslots - 1);
    s->slots[k] = s->ncols;
    return SIMDSV_OK;
}

void simdsv__schema_free(const simdsv_allocator *a, ds_schema *s, size_t ninputs)
{
    for (size_t j = 0; j < s->ncols; j++)
        free_name(a, s->cols[j].name);
    simdsv__free(a, s->cols, s->cap * sizeof *s->cols);
    for (size_t i = 0; s->map && i < ninputs; i++)
        simdsv__free(a, s->map[i], s->map_sizes[i] * sizeof *s->map[i]);
    simdsv__free(a, s->map, ninputs * sizeof *s->map);
    simdsv__free(a, s->map_sizes, ninputs * sizeof *s->map_sizes);
    simdsv__free(a, s->slots, s->nslots * sizeof *s->slots);
    memset(s, 0, sizeof *s);
}

/* Input i's columns cannot be matched by position with input `first`'s. */
static simdsv_status position_conflict(simdsv_dataset *ds, size_t first, size_t i, const simdsv_table *a,
                                       const simdsv_table *b)
{
    const char *fa = ds->inputs[first].name, *fb = ds->inputs[i].name;
    const simdsv_status code = SIMDSV_ERR_INVALID_ARGUMENT;
    size_t j = 0;
    while (j < a->ncols && j < b->ncols && strcmp(a->cols[j].name, b->cols[j].name) == 0)
        j++;
    if (j < a->ncols && j < b->ncols)
        return fail_format(ds, (long)i, code, "column %zu is `%s` in %s but `%s` in %s (columns are matched by position; match them by name to read both)",
                           j + 1, b->cols[j].name, fb, a->cols[j].name, fa);
    if (j < b->ncols)
        return fail_format(ds, (long)i, code, "column %zu `%s` of %s is not in %s, which has %zu (columns are matched by position; match them by name to read both)",
                           j + 1, b->cols[j].name, fb, fa, a->ncols);
    return fail_format(ds, (long)i, code, "column %zu `%s` of %s is not in %s, which has %zu (columns are matched by position; match them by name to read both)",
                       j + 1, a->cols[j].name, fa, fb, b->ncols);
}

simdsv_status simdsv__schema_join(simdsv_dataset *ds, simdsv_table **tables, ds_schema *s)
{
    const simdsv_allocator *a = &ds->alloc;
    const size_t n = ds->ninputs;
    memset(s, 0, sizeof *s);
    s->map = simdsv__alloc(a, (n ? n : 1) * sizeof *s->map);
    s->map_sizes = simdsv__alloc(a, (n ? n : 1) * sizeof *s->map_sizes);
    if (!s->map || !s->map_sizes)
        goto nomem;
    memset(s->map, 0, n * sizeof *s->map);
    memset(s->map_sizes, 0, n * sizeof *s->map_sizes);
    size_t first = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const simdsv_table *t = tables[i];
        if (!t || !t->ncols)
            continue; /* an empty input: no column to match */
        if (!(s->map[i] = simdsv__alloc(a, t->ncols * sizeof *s->map[i])))
            goto nomem;
        s->map_sizes[i] = t->ncols;
        if (!ds->opt->union_by_name && first != SIZE_MAX) {
            const simdsv_table *f = tables[first];
            int same = f->ncols == t->ncols;
            for (size_t j = 0; same && j < t->ncols; j++)
                same = strcmp(f->cols[j].name, t->cols[j].name) == 0;
            if (!same)
                return position_conflict(ds, first, i, f, t);
        }
        if (first == SIZE_MAX)
            first = i;
        for (size_t j = 0; j < t->ncols; j++) {
            const column *c = &t->cols[j];
            size_t k = find_column(s, c->name);
            if (k == SIZE_MAX) {
                if (add_column(a, s, c) != SIMDSV_OK)
                    goto nomem;
                k = s->ncols - 1;
            }
            s->map[i][j] = k;
            ds_column *d = &s->cols[k];
            const simdsv_type joined = simdsv__kind_join(d->type, c->type);
            if (joined != d->type && joined == c->type)
                snprintf(d->reason, sizeof d->reason, "%s", c->reason);
            else if (joined != d->type)
                snprintf(d->reason, sizeof d->reason, "%s: %s in one file, %s in another", simdsv_type_name(joined),
                         simdsv_type_name(d->type), simdsv_type_name(c->type));
            d->type = joined;
            d->utc |= c->type == SIMDSV_TYPE_TIMESTAMP && c->utc;
            d->user_type |= c->user_type;
        }
    }
    /* A schema item (not "*", not a least type) names a column of some input. */
    const spec_list *schema = &SIMDSV__SPEC(ds->opt, SIMDSV_OPT_SCHEMA);
    for (size_t k = 0; k < schema->count; k++) {
        const spec_item *it = &schema->items[k];
        if (strcmp(it->text, "*") != 0 && !it->at_least && find_column(s, it->text) == SIZE_MAX &&
            !(it->index >= 0 && (size_t)it->index < s->ncols))
            return fail_format(ds, -1, SIMDSV_ERR_INVALID_ARGUMENT, "the schema names no column `%s` (of any file)",
                               it->text);
    }
    return SIMDSV_OK;
nomem:
    return fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
}

/* Options to read input i again: each of its columns from the schema's
 * type up (NULL when none of its columns is narrower than the schema's:
 * a column of nulls fits any type as it is). */
static simdsv_status widened_options(simdsv_dataset *ds, const ds_schema *s, size_t i, const simdsv_table *t,
                                     simdsv_options **out)
{
    *out = NULL;
    int narrower = 0;
    for (size_t j = 0; t && j < t->ncols; j++)
        narrower |= t->cols[j].type != SIMDSV_TYPE_NULL && t->cols[j].type != s->cols[s->map[i][j]].type;
    if (!narrower)
        return SIMDSV_OK;
    simdsv_status st = simdsv__dataset_options(ds, ds->opt->threads, out);
    for (size_t j = 0; st == SIMDSV_OK && j < t->ncols; j++) {
        const ds_column *d = &s->cols[s->map[i][j]];
        if (d->type != t->cols[j].type && !t->cols[j].user_type)
            st = simdsv_options_set_column_min_type(*out, t->cols[j].name, d->type);
    }
    if (st != SIMDSV_OK) {
        simdsv_options_free(*out);
        *out = NULL;
    }
    return st;
}

/* ------------------------------------------------------ hive partitions */

/* The value of a hive folder that means "no value". */
static int hive_null(const char *v)
{
    return !*v || strcmp(v, "__HIVE_DEFAULT_PARTITION__") == 0;
}

/* The `key=value` folders of a name (the last part, the file, excluded),
 * as pairs into kv (2 * cap entries, pointing into a copy in buf). */
static size_t hive_pairs(const char *name, char *buf, size_t buf_size, const char **kv, size_t cap)
{
    const char *last = strrchr(name, '/');
    const size_t len = last ? (size_t)(last - name) : 0;
    if (len >= buf_size)
        return 0;
    memcpy(buf, name, len);
    buf[len] = '\0';
    size_t n = 0;
    for (char *part = buf; part && *part;) {
        char *slash = strchr(part, '/');
        if (slash)
            *slash = '\0';
        char *eq = strchr(part, '=');
        if (eq && eq != part && n < cap) {
            *eq = '\0';
            kv[2 * n] = part;
            kv[2 * n + 1] = eq + 1;
            n++;
        }
        part = slash ? slash + 1 : NULL;
    }
    return n;
}

#define HIVE_MAX_KEYS 64

void simdsv__hive_free(const simdsv_allocator *a, ds_hive *h, size_t ninputs)
{
    for (size_t i = 0; h->values && i < ninputs; i++) {
        for (size_t k = 0; h->values[i] && k < h->nkeys; k++)
            free_name(a, h->values[i][k]);
        if (h->values[i])
            simdsv__free(a, h->values[i], h->nkeys * sizeof *h->values[i]);
    }
    simdsv__free(a, h->values, ninputs * sizeof *h->values);
    for (size_t k = 0; k < h->nkeys; k++)
        free_name(a, h->keys[k]);
    simdsv__free(a, h->keys, h->nkeys * sizeof *h->keys);
    simdsv__free(a, h->types, h->nkeys * sizeof *h->types);
    memset(h, 0, sizeof *h);
}

/* Whether the hive columns apply, and which keys: those of the first input,
 * which every other must have in the same order. */
static simdsv_status hive_keys(simdsv_dataset *ds, char *buf, size_t buf_size, const char **kv, size_t *nkeys)
{
    *nkeys = 0;
    if (ds->opt->hive == SIMDSV_HIVE_OFF || !ds->ninputs)
        return SIMDSV_OK;
    const char *first_keys[HIVE_MAX_KEYS];
    const size_t n = hive_pairs(ds->inputs[0].name, buf, buf_size, kv, HIVE_MAX_KEYS);
    for (size_t k = 0; k < n; k++)
        first_keys[k] = kv[2 * k];
    /* first_keys point into buf, which the next inputs reuse: keep them apart. */
    char keys_text[4096];
    size_t used = 0;
    for (size_t k = 0; k < n; k++) {
        const size_t len = strlen(first_keys[k]) + 1;
        if (used + len > sizeof keys_text)
            return fail_with(ds, 0, SIMDSV_ERR_INVALID_ARGUMENT, "the hive partition keys of the path are too long");
        memcpy(keys_text + used, first_keys[k], len);
        first_keys[k] = keys_text + used;
        used += len;
    }
    for (size_t i = 0; i < ds->ninputs; i++) {
        const size_t m = hive_pairs(ds->inputs[i].name, buf, buf_size, kv, HIVE_MAX_KEYS);
        int same = m == n && n > 0;
        for (size_t k = 0; same && k < n; k++)
            same = strcmp(kv[2 * k], first_keys[k]) == 0;
        if (!same && ds->opt->hive == SIMDSV_HIVE_AUTO)
            return SIMDSV_OK; /* not a hive layout: no partition columns */
        if (!same)
            return fail_format(ds, (long)i, SIMDSV_ERR_INVALID_ARGUMENT, "the path's key=value folders are not those of %s (hive partitions: every path has the same keys, in the same order)",
                               ds->inputs[0].name);
    }
    *nkeys = n;
    /* kv holds the last input's pairs; the keys are the same in all. */
    return SIMDSV_OK;
}

simdsv_status simdsv__hive_find(simdsv_dataset *ds, const ds_schema *s, ds_hive *h)
{
    const simdsv_allocator *a = &ds->alloc;
    memset(h, 0, sizeof *h);
    if (*ds->opt->filename_column && find_column(s, ds->opt->filename_column) != SIZE_MAX)
        return fail_format(ds, -1, SIMDSV_ERR_INVALID_ARGUMENT, "the file name column `%s` is also a column's name (give the file name column another name)",
                           ds->opt->filename_column);
    char buf[4096];
    const char *kv[2 * HIVE_MAX_KEYS];
    size_t nkeys;
    simdsv_status st = hive_keys(ds, buf, sizeof buf, kv, &nkeys);
    if (st != SIMDSV_OK || !nkeys)
        return st;
    h->keys = simdsv__alloc(a, nkeys * sizeof *h->keys);
    h->types = simdsv__alloc(a, nkeys * sizeof *h->types);
    h->values = simdsv__alloc(a, ds->ninputs * sizeof *h->values);
    if (!h->keys || !h->types || !h->values)
        goto nomem;
    h->nkeys = nkeys;
    memset(h->keys, 0, nkeys * sizeof *h->keys);
    memset(h->values, 0, ds->ninputs * sizeof *h->values);
    for (size_t k = 0; k < nkeys; k++) {
        h->types[k] = SIMDSV_TYPE_NULL;
        if (!(h->keys[k] = simdsv__dataset_copy_name(a, kv[2 * k])))
            goto nomem;
        if (find_column(s, h->keys[k]) != SIZE_MAX || (*ds->opt->filename_column &&
                                                       strcmp(ds->opt->filename_column, h->keys[k]) == 0))
            return fail_format(ds, -1, SIMDSV_ERR_INVALID_ARGUMENT, "the hive partition `%s` is also a column's name (turn hive partitioning off, or rename it)",
                               h->keys[k]);
    }
    for (size_t i = 0; i < ds->ninputs; i++) {
        hive_pairs(ds->inputs[i].name, buf, sizeof buf, kv, HIVE_MAX_KEYS);
        if (!(h->values[i] = simdsv__alloc(a, nkeys * sizeof *h->values[i])))
            goto nomem;
        memset(h->values[i], 0, nkeys * sizeof *h->values[i]);
        for (size_t k = 0; k < nkeys; k++) {
            const char *v = kv[2 * k + 1];
            if (hive_null(v))
                continue;
            if (!(h->values[i][k] = simdsv__dataset_copy_name(a, v)))
                goto nomem;
            h->types[k] = simdsv__kind_join(h->types[k], simdsv__infer_field(v, strlen(v), 0, NULL));
        }
    }
    /* A value its column's type cannot hold exactly (an integer past 2^53
     * among floats): the column is text, as in a file. */
    for (size_t k = 0; k < nkeys; k++) {
        for (size_t i = 0; i < ds->ninputs && h->types[k] != SIMDSV_TYPE_STRING; i++) {
            column one;
            memset(&one, 0, sizeof one);
            one.type = h->types[k];
            st = simdsv__extra_value(ds, h, i, k, &one);
            simdsv__column_free_data(a, &one);
            if (st == SIMDSV_ERR_VALUE)
                h->types[k] = SIMDSV_TYPE_STRING;
            else if (st != SIMDSV_OK)
                goto nomem;
        }
    }
    return SIMDSV_OK;
nomem:
    return fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
}

size_t simdsv__extra_count(const simdsv_dataset *ds, const ds_hive *h)
{
    return h->nkeys + (*ds->opt->filename_column != '\0');
}

const char *simdsv__extra_name(const simdsv_dataset *ds, const ds_hive *h, size_t k)
{
    return k < h->nkeys ? h->keys[k] : ds->opt->filename_column;
}

simdsv_type simdsv__extra_type(const ds_hive *h, size_t k)
{
    return k < h->nkeys ? h->types[k] : SIMDSV_TYPE_STRING;
}

simdsv_status simdsv__extra_value(const simdsv_dataset *ds, const ds_hive *h, size_t i, size_t k, column *one)
{
    const simdsv_allocator *a = &ds->alloc;
    one->type = simdsv__extra_type(h, k);
    const char *v = k < h->nkeys ? h->values[i][k] : ds->inputs[i].name;
    if (!v)
        return simdsv__column_append_null(a, one);
    static const spec_item true_items[] = {{(char *)"true", 4, -1, 0, SIMDSV_TYPE_NULL, false},
                                           {(char *)"True", 4, -1, 0, SIMDSV_TYPE_NULL, false},
                                           {(char *)"TRUE", 4, -1, 0, SIMDSV_TYPE_NULL, false}};
    static const spec_item false_items[] = {{(char *)"false", 5, -1, 0, SIMDSV_TYPE_NULL, false},
                                            {(char *)"False", 5, -1, 0, SIMDSV_TYPE_NULL, false},
                                            {(char *)"FALSE", 5, -1, 0, SIMDSV_TYPE_NULL, false}};
    const spec_list trues = {(spec_item *)true_items, 3, 3}, falses = {(spec_item *)false_items, 3, 3};
    const value_rules rules = {&trues, &falses, 0, 1, SIMDSV_DATE_ISO, 0};
    int nomem = 0;
    if (simdsv__column_append_text(a, one, v, strlen(v), &rules, &nomem))
        return SIMDSV_OK;
    return nomem ? SIMDSV_ERR_NOMEM : SIMDSV_ERR_VALUE;
}

/* ------------------------------------------------------------ the table */

static void free_tables(simdsv_table **tables, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        simdsv_table_free(tables[i]);
        tables[i] = NULL;
    }
}

/* The columns of the dataset's table filled side by side: column j of
 * every input's table (or nulls, or a hive or file name value) into column
 * j of t, on the thread that takes j. */
typedef struct concat_job {
    simdsv_dataset *ds;
    simdsv_table **tables;
    const ds_schema *s;
    const ds_hive *h;
    simdsv_table *t;
    atomic_size_t next;
    atomic_int failed;  /* a status: NOMEM, or INVALID_ARGUMENT from a piece of another type */
} concat_job;

static simdsv_status concat_column(concat_job *job, size_t j, concat_piece *pieces, column *ones)
{
    simdsv_dataset *ds = job->ds;
    const simdsv_allocator *a = &ds->alloc;
    const ds_schema *s = job->s;
    const size_t n = ds->ninputs;
    simdsv_status st = SIMDSV_OK;
    for (size_t i = 0; i < n && st == SIMDSV_OK; i++) {
        const simdsv_table *ti = job->tables[i];
        pieces[i] = (concat_piece){NULL, NULL, ti ? ti->rows : 0};
        if (j < s->ncols) {
            for (size_t q = 0; ti && q < ti->ncols; q++)
                if (s->map[i][q] == j)
                    pieces[i].from = &ti->cols[q];
        } else if ((st = simdsv__extra_value(ds, job->h, i, j - s->ncols, &ones[i])) == SIMDSV_OK) {
            pieces[i].repeat = &ones[i];
        }
    }
    if (st == SIMDSV_OK)
        st = simdsv__column_concat(a, &job->t->cols[j], pieces, n);
    for (size_t i = 0; i < n; i++) {
        simdsv__column_free_data(a, &ones[i]);
        if (pieces[i].from) /* done with: the peak stays a column per thread above the inputs' tables */
            simdsv__column_free_data(a, (column *)(uintptr_t)pieces[i].from);
        pieces[i].from = NULL;
    }
    return st;
}

static void concat_worker(void *arg, size_t thread)
{
    concat_job *job = arg;
    const simdsv_allocator *a = &job->ds->alloc;
    const size_t n = job->ds->ninputs ? job->ds->ninputs : 1;
    (void)thread;
    concat_piece *pieces = simdsv__alloc(a, n * sizeof *pieces);
    column *ones = simdsv__alloc(a, n * sizeof *ones);
    if (!pieces || !ones) {
        atomic_store(&job->failed, SIMDSV_ERR_NOMEM);
    } else {
        memset(pieces, 0, n * sizeof *pieces);
        memset(ones, 0, n * sizeof *ones);
        for (size_t j; !atomic_load(&job->failed) && (j = atomic_fetch_add(&job->next, 1)) < job->t->ncols;) {
            const simdsv_status st = concat_column(job, j, pieces, ones);
            if (st != SIMDSV_OK)
                atomic_store(&job->failed, st);
        }
    }
    simdsv__free(a, pieces, n * sizeof *pieces);
    simdsv__free(a, ones, n * sizeof *ones);
}

/* Input i's rejects name the dataset's columns (the input's own order and
 * count may differ, by name). */
static void reject_columns(const ds_schema *s, size_t i, simdsv_table *t)
{
    for (size_t e = 0; e < t->nrejects; e++)
        if (t->rejects[e].pub.column < s->map_sizes[i])
            t->rejects[e].pub.column = s->map[i][t->rejects[e].pub.column];
}

/* Column j's type, flags and reason: the schema's, or those of the hive
 * partition or file name column. */
static void describe(const ds_schema *s, const ds_hive *h, size_t j, column *c)
{
    if (j < s->ncols) {
        c->type = s->cols[j].type;
        c->utc = s->cols[j].utc;
        c->user_type = s->cols[j].user_type;
        snprintf(c->reason, sizeof c->reason, "%s", s->cols[j].reason);
        return;
    }
    const size_t k = j - s->ncols;
    c->type = simdsv__extra_type(h, k);
    if (k < h->nkeys)
        snprintf(c->reason, sizeof c->reason, "%s: the hive partition of each file's `%.60s=` folder",
                 simdsv_type_name(c->type), h->keys[k]);
    else
        snprintf(c->reason, sizeof c->reason, "string: each row's file");
}

/* The inputs' tables, joined, concatenated into *out. */
static simdsv_status concatenate(simdsv_dataset *ds, simdsv_table **tables, const ds_schema *s, const ds_hive *h,
                                 simdsv_table **out)
{
    const simdsv_allocator *a = &ds->alloc;
    const size_t n = ds->ninputs, extra = simdsv__extra_count(ds, h), ncols = s->ncols + extra;
    simdsv_table *t = simdsv__alloc(a, sizeof *t);
    simdsv_status st = t ? SIMDSV_OK : SIMDSV_ERR_NOMEM;
    if (t) {
        memset(t, 0, sizeof *t);
        t->alloc = *a;
        t->cols_cap = ncols ? ncols : 1;
        if (!(t->cols = simdsv__alloc(a, t->cols_cap * sizeof *t->cols)))
            st = SIMDSV_ERR_NOMEM;
    }
    for (size_t i = 0; st == SIMDSV_OK && i < n; i++)
        t->rows += tables[i] ? tables[i]->rows : 0;
    for (size_t j = 0; st == SIMDSV_OK && j < ncols; j++) {
        column *c = &t->cols[j];
        memset(c, 0, sizeof *c);
        t->ncols = j + 1;
        const char *name = j < s->ncols ? s->cols[j].name : simdsv__extra_name(ds, h, j - s->ncols);
        c->name_size = strlen(name) + 1;
        if (!(c->name = simdsv__dataset_copy_name(a, name))) {
            st = SIMDSV_ERR_NOMEM;
            break;
        }
        describe(s, h, j, c);
    }
    if (st == SIMDSV_OK) {
        concat_job job = {ds, tables, s, h, t, 0, 0};
        const size_t threads = (size_t)simdsv__thread_count(ds->opt->threads);
        if (!simdsv__run_threads(a, threads < ncols ? threads : ncols ? ncols : 1, concat_worker, &job))
            st = SIMDSV_ERR_NOMEM;
        else if (atomic_load(&job.failed))
            st = (simdsv_status)atomic_load(&job.failed);
    }
    uint64_t row_base = 0;
    for (size_t i = 0; st == SIMDSV_OK && i < n; i++) {
        if (!tables[i])
            continue;
        reject_columns(s, i, tables[i]);
        st = simdsv__move_rejects(t, tables[i], row_base);
        row_base += tables[i]->rows;
    }
    if (st != SIMDSV_OK) {
        simdsv_table_free(t);
        return fail_with(ds, -1, st, simdsv_status_message(st));
    }
    *out = t;
    return SIMDSV_OK;
}

/* Column j of input i's chunk made anew, `rows` rows of the schema's type:
 * the hive or file name value repeated, or nulls (a column the input lacks,
 * or one of nulls typed narrower). */
static simdsv_status fill_column(simdsv_dataset *ds, const ds_schema *s, const ds_hive *h, size_t i, size_t j,
                                 uint64_t rows, column *c)
{
    const simdsv_allocator *a = &ds->alloc;
    if (!c->name) {
        const char *name = j < s->ncols ? s->cols[j].name : simdsv__extra_name(ds, h, j - s->ncols);
        if (!(c->name = simdsv__dataset_copy_name(a, name)))
            return SIMDSV_ERR_NOMEM;
        c->name_size = strlen(name) + 1;
    }
    simdsv__column_free_data(a, c);
    describe(s, h, j, c);
    column one;
    memset(&one, 0, sizeof one);
    concat_piece piece = {NULL, NULL, rows};
    simdsv_status st = SIMDSV_OK;
    if (j >= s->ncols && (st = simdsv__extra_value(ds, h, i, j - s->ncols, &one)) == SIMDSV_OK)
        piece.repeat = &one;
    if (st == SIMDSV_OK)
        st = simdsv__column_concat(a, c, &piece, 1);
    simdsv__column_free_data(a, &one);
    return st;
}

/* Input i's table t, read with the joined types, made a chunk of the
 * dataset's table in place: its columns moved into the schema's order, a
 * column it lacks (or has as nulls of a narrower type) made nulls of the
 * schema's, the hive and file name columns filled, its rejects' columns
 * the dataset's.  Only those made columns are new memory. */
static simdsv_status conform(simdsv_dataset *ds, const ds_schema *s, const ds_hive *h, size_t i, simdsv_table *t)
{
    const simdsv_allocator *a = &ds->alloc;
    const size_t ncols = s->ncols + simdsv__extra_count(ds, h), cap = ncols ? ncols : 1;
    column *cols = simdsv__alloc(a, cap * sizeof *cols);
    if (!cols)
        return SIMDSV_ERR_NOMEM;
    memset(cols, 0, cap * sizeof *cols);
    for (size_t q = 0; q < t->ncols; q++) {
        cols[s->map[i][q]] = t->cols[q];
        memset(&t->cols[q], 0, sizeof t->cols[q]);
    }
    simdsv__free(a, t->cols, t->cols_cap * sizeof *t->cols);
    t->cols = cols;
    t->cols_cap = cap;
    t->ncols = ncols;
    reject_columns(s, i, t);
    simdsv_status st = SIMDSV_OK;
    for (size_t j = 0; j < ncols && st == SIMDSV_OK; j++) {
        column *c = &cols[j];
        const simdsv_type type = j < s->ncols ? s->cols[j].type : simdsv__extra_type(h, j - s->ncols);
        if (c->name && c->type != type && c->type != SIMDSV_TYPE_NULL && c->null_count != c->length)
            st = SIMDSV_ERR_INVALID_ARGUMENT; /* values not read with the joined type, as concat refuses them */
        else if (!c->name || c->type != type)
            st = fill_column(ds, s, h, i, j, t->rows, c);
        else
            describe(s, h, j, c);
        c->vin = &t->vin;
    }
    return st;
}

/* Reads (infer = 0) or samples (infer = 1) every input into tables, then
 * joins their schemas into s; a read reads again the inputs whose columns
 * came out narrower than the join until none does (a sample's join is the
 * schema as it is). */
simdsv_status simdsv__dataset_join(simdsv_dataset *ds, int infer, simdsv_table **tables, ds_schema *s)
{
    const simdsv_allocator *a = &ds->alloc;
    const size_t n = ds->ninputs;
    simdsv_options **opts = simdsv__alloc(a, (n ? n : 1) * sizeof *opts);
    if (!opts)
        return fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
    memset(opts, 0, (n ? n : 1) * sizeof *opts);
    simdsv_status st = SIMDSV_OK;
    for (size_t i = 0; i < n && st == SIMDSV_OK; i++)
        st = simdsv__dataset_options(ds, ds->opt->threads, &opts[i]);
    if (st != SIMDSV_OK)
        fail_with(ds, -1, st, simdsv_status_message(st));
    else
        st = read_inputs(ds, infer, opts, tables);
    /* Each round widens a column of an input at least one step of the
     * finite lattice of types, so the rounds end. */
    while (st == SIMDSV_OK && (st = simdsv__schema_join(ds, tables, s)) == SIMDSV_OK) {
        size_t again = 0;
        for (size_t i = 0; i < n && st == SIMDSV_OK && !infer; i++) {
            st = widened_options(ds, s, i, tables[i], &opts[i]);
            if (opts[i]) {
                again++;
                simdsv_table_free(tables[i]);
                tables[i] = NULL;
            }
        }
        if (st != SIMDSV_OK) {
            fail_with(ds, -1, st, simdsv_status_message(st));
            break;
        }
        if (!again)
            break;
        simdsv__schema_free(a, s, n);
        st = read_inputs(ds, infer, opts, tables);
    }
    for (size_t i = 0; i < n; i++)
        simdsv_options_free(opts[i]);
    simdsv__free(a, opts, (n ? n : 1) * sizeof *opts);
    return st;
}

simdsv_status simdsv__dataset_start(simdsv_dataset *ds)
{
    forget_chunks(ds);
    ds->error_file = -1;
    memset(&ds->error, 0, sizeof ds->error);
    forget_message(ds);
    ds->misfit = 0;
    if (ds->streaming)
        return fail_with(ds, -1, SIMDSV_ERR_INVALID_ARGUMENT, "a stream of this dataset is still open");
    return SIMDSV_OK;
}

/* The inputs' tables, joined, made the dataset's chunks (those with rows,
 * each in place; none: one empty chunk that holds the schema). */
static simdsv_status make_chunks(simdsv_dataset *ds, simdsv_table **tables, const ds_schema *s, const ds_hive *h)
{
    const size_t n = ds->ninputs, cap = n ? n : 1;
    if (!(ds->chunks = simdsv__alloc(&ds->alloc, cap * sizeof *ds->chunks)))
        return fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
    ds->chunks_cap = cap;
    for (size_t i = 0; i < n; i++) {
        if (!tables[i] || !tables[i]->rows)
            continue;
        const simdsv_status st = conform(ds, s, h, i, tables[i]);
        if (st != SIMDSV_OK)
            return fail_with(ds, (long)i, st, simdsv_status_message(st));
        ds->chunks[ds->nchunks++] = tables[i];
        tables[i] = NULL;
    }
    if (ds->nchunks)
        return SIMDSV_OK;
    const simdsv_status st = concatenate(ds, tables, s, h, &ds->chunks[0]);
    ds->nchunks = st == SIMDSV_OK;
    return st;
}

/* Reads (infer = 0) or samples (infer = 1) every input, joined: into one
 * table *out, or (out NULL) into the dataset's chunks. */
static simdsv_status read_or_infer(simdsv_dataset *ds, int infer, simdsv_table **out)
{
    simdsv_status st = simdsv__dataset_start(ds);
    if (st != SIMDSV_OK)
        return st;
    const simdsv_allocator *a = &ds->alloc;
    const size_t n = ds->ninputs;
    simdsv_table **tables = simdsv__alloc(a, (n ? n : 1) * sizeof *tables);
    if (!tables)
        return fail_with(ds, -1, SIMDSV_ERR_NOMEM, simdsv_status_message(SIMDSV_ERR_NOMEM));
    memset(tables, 0, (n ? n : 1) * sizeof *tables);
    ds_schema s;
    memset(&s, 0, sizeof s);
    ds_hive h;
    memset(&h, 0, sizeof h);
    st = simdsv__dataset_join(ds, infer, tables, &s);
    if (st == SIMDSV_OK)
        st = simdsv__hive_find(ds, &s, &h);
    if (st == SIMDSV_OK)
        st = out ? concatenate(ds, tables, &s, &h, out) : make_chunks(ds, tables, &s, &h);
    free_tables(tables, n);
    simdsv__free(a, tables, (n ? n : 1) * sizeof *tables);
    simdsv__schema_free(a, &s, n);
    simdsv__hive_free(a, &h, n);
    return st;
}

simdsv_status simdsv_dataset_read(simdsv_dataset *ds, simdsv_table **out)
{
    if (!ds || !out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    return read_or_infer(ds, 0, out);
}

simdsv_status simdsv_dataset_infer(simdsv_dataset *ds, simdsv_table **out)
{
    if (!ds || !out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    return read_or_infer(ds, 1, out);
}

simdsv_status simdsv_dataset_read_chunks(simdsv_dataset *ds, size_t *count)
{
    if (!ds || !count)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const simdsv_status st = read_or_infer(ds, 0, NULL);
    if (st != SIMDSV_OK)
        forget_chunks(ds);
    *count = ds->nchunks;
    return st;
}

simdsv_table *simdsv_dataset_take_chunk(simdsv_dataset *ds, size_t index)
{
    if (!ds || index >= ds->nchunks)
        return NULL;
    simdsv_table *t = ds->chunks[index];
    ds->chunks[index] = NULL;
    return t;
}
