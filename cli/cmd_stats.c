/*
 * cmd_stats.c — simdsv stats: per column statistics over the typed reader's
 * record batches (simdsv_table_stream), in memory that does not grow with
 * the input (stats.h says what is kept).
 *
 * A regular file is cut into byte ranges (simdsv_range_summarize/combine)
 * that threads read apart, each range a stream of its own, in rounds of one
 * range per thread; each thread keeps its own statistics, merged at the end.
 * The first range's stream fixes the schema (its first 8 MiB, as one stream
 * over the whole input would) and the other ranges get it as given types.
 * Every dialect is cut so (the ranges follow the reader's record grammar
 * where the quote state is not the quote parity).  One thread, standard
 * input, compressed input, skipped lines (the one option ranges refuse), a
 * footer, another encoding, a header of several rows and a row limit are
 * read as one stream.
 *
 * Inferred types are fixed by the first window, so a later value may not
 * fit: the stream makes it a null and lists it as a reject (SIMDSV_OPT_ON_ERROR
 * is set to null here); the value is then counted apart, in the column's
 * misfit (string) statistics, and removed from its nulls.  A value that does
 * not fit a --schema type keeps the user's --on-error: an error, or a null
 * listed after the table.
 */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"
#include "typed.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: simdsv stats [OPTIONS] FILE...\n"
    "Reads the rows in batches, in memory that does not grow with the file, and\n"
    "prints per column: type, count of values, nulls, distinct values, min, p25,\n"
    "median, p75, max, mean, sample standard deviation and sum of numbers (mean\n"
    "of a bool column: the share of true), and the shortest and longest string in\n"
    "bytes.  Counts, min, max, mean, deviation and sums are exact (integer sums in\n"
    "128 bits, float sums compensated).  Distinct values are counted exactly up\n"
    "to 8192 per column, past that estimated by HyperLogLog (standard error 0.81%,\n"
    "shown as ~N); p25, median and p75 come from a KLL sketch: the value shown is\n"
    "within 1% of the rows of the asked position (99% confidence; shown with ~).\n"
    "Types are inferred from the first 8 MiB of rows (or given by --schema).  A\n"
    "later value that does not fit an inferred type is not an error: the column's\n"
    "statistics are those of the values that fit, and the others are counted as\n"
    "strings on a second row under the same name, with a note naming the line of\n"
    "the first.  Dates print as YYYY-MM-DD, timestamps as UTC ISO 8601; strings\n"
    "compare by bytes.  Values that did not fit a --schema type (with --on-error\n"
    "null) are listed after the table (the first 20, then a count of the others).\n"
    "A regular file is read by --threads threads, standard input by one.  Several\n"
    "FILEs (a folder, a glob) are one table, read file after file on one thread; a\n"
    "later value that does not fit widens its column and the files are read again.\n"
    "  --format table|csv|json   output format (default table); csv and json give\n"
    "                     every digit, and the error of approximate values\n"
    "  --exact            exact quartiles and distinct counts: every value is kept\n"
    "                     in memory (memory grows with the data)\n\n" CLI_TYPED_HELP;

/* Bytes per range of a threaded read: each thread holds one range (and the
 * record that crosses its end) at a time. */
#define STATS_RANGE_BYTES ((uint64_t)8 << 20)

typedef struct stats_args {
    cli_common *c;
    int format;
    bool exact;
} stats_args;

static arg_result stats_arg(void *ctx, int argc, char **argv, int *i)
{
    stats_args *a = ctx;
    if (strcmp(argv[*i], "--exact") == 0) {
        a->exact = true;
        return ARG_TAKEN;
    }
    bool missing;
    const char *v = cli_option_value("--format", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (v) {
        static const char *const names[] = {"table", "csv", "json"};
        for (int k = 0; k < 3; k++)
            if (strcmp(v, names[k]) == 0) {
                a->format = k;
                return ARG_TAKEN;
            }
        a->c->bad_why = "expected 'table', 'csv' or 'json'";
        return ARG_BAD;
    }
    return cli_typed_arg(a->c, argc, argv, i);
}

/* What one thread gathers. */
typedef struct worker {
    column_stats *cols;
    uint64_t rows;
    stats_reject shown[STATS_REJECTS_SHOWN];
    size_t nshown;
    uint64_t rejected;     /* --schema misfits made null, shown or not */
    /* the first failure of this worker (ranges are taken in input order) */
    size_t failed_range;   /* SIZE_MAX: none */
    int failure;           /* 0, EXIT_DATA */
    bool nomem;
    simdsv_error error;    /* a read error (error.code != OK) */
    char stream_message[512];
    stats_reject misfit;    /* a --schema misfit with --on-error fail (value != NULL) */
    bool summary_failed;   /* a range this worker summarized cannot be cut so */
    /* the range being read */
    char *buf;
    size_t buf_cap;
    simdsv_reader *reader;
} worker;

typedef struct stats_run {
    cli_common *c;
    stats_args *args;
    int64_t user_on_error;
    size_t ncols;
    simdsv_type *types;
    bool string_views;    /* string columns come as views ("vu") */
    bool *user;        /* the type came from --schema */
    bool *zoned;       /* a timestamp column with a zone (Arrow "tsu:UTC"), shown with 'Z'; naive ones without */
    char **names;
    worker *workers;
    size_t nworkers;
    /* threaded reads of a regular file */
    int fd;
    uint64_t size;
    simdsv_range_summary *summaries;
    simdsv_range *ranges;
    uint64_t *range_rows;
    size_t nranges, round;      /* ranges of this round: round * nworkers + slot */
    struct ArrowArrayStream first; /* range 0's stream (opened to learn the schema) */
    bool header;
} stats_run;

static void free_reject(stats_reject *k)
{
    free(k->value);
    free(k->reason);
    k->value = k->reason = NULL;
}

/* Reject i of the stream: of a dataset's, its file is named. */
static bool keep_reject(const stats_run *run, stats_reject *k, struct ArrowArrayStream *stream, size_t i)
{
    const simdsv_reject *r = simdsv_table_stream_reject(stream, i);
    simdsv_dataset *ds = run->c->ds;
    k->input = ds ? simdsv_dataset_stream_reject_file(stream, i) : -1;
    k->file = k->input >= 0 ? simdsv_dataset_file(ds, (size_t)k->input) : NULL;
    k->line = r->line;
    k->byte_offset = r->byte_offset;
    k->column = r->column;
    k->value = strdup(r->value);
    k->reason = strdup(r->reason);
    return k->value && k->reason;
}

/* The stream's schema: names, types, which came from --schema. */
static bool learn_schema(stats_run *run, struct ArrowArrayStream *stream)
{
    struct ArrowSchema schema;
    if (stream->get_schema(stream, &schema) != 0)
        return false;
    run->ncols = (size_t)schema.n_children;
    const size_t n = run->ncols ? run->ncols : 1;
    run->types = calloc(n, sizeof *run->types);
    run->user = calloc(n, sizeof *run->user);
    run->names = calloc(n, sizeof *run->names);
    run->zoned = calloc(n, sizeof *run->zoned);
    if (!run->types || !run->user || !run->names || !run->zoned) {
        schema.release(&schema);
        return false;
    }
    for (size_t j = 0; j < run->ncols; j++) {
        const char *format = schema.children[j]->format;
        run->string_views |= strcmp(format, "vu") == 0; /* every string column has the layout --strings asks for */
        run->zoned[j] = strncmp(format, "tsu:", 4) == 0 && format[4] != '\0';
    }
    schema.release(&schema);
    for (size_t j = 0; j < run->ncols; j++) { /* a dataset's stream describes its columns too */
        simdsv_column_info info;
        if (simdsv_table_stream_column(stream, j, &info) != SIMDSV_OK || !(run->names[j] = strdup(info.name)))
            return false;
        run->types[j] = info.type;
        run->user[j] = info.user_type != 0;
    }
    return true;
}

/* Each worker's statistics, once the schema is known. */
static bool init_columns(stats_run *run)
{
    for (size_t w = 0; w < run->nworkers; w++) {
        worker *wk = &run->workers[w];
        wk->failed_range = SIZE_MAX;
        wk->cols = calloc(run->ncols ? run->ncols : 1, sizeof *wk->cols);
        if (!wk->cols)
            return false;
        for (size_t j = 0; j < run->ncols; j++) {
            stats_init(&wk->cols[j], run->types[j], run->args->exact, (uint64_t)w * 1000003u + j);
            wk->cols[j].views = run->string_views;
            wk->cols[j].zoned = run->zoned[j];
        }
    }
    return true;
}

static void *heap_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void *heap_realloc(void *ctx, void *p, size_t old_size, size_t size)
{
    (void)ctx;
    (void)old_size;
    return realloc(p, size);
}

static void heap_free(void *ctx, void *p, size_t size)
{
    (void)ctx;
    (void)size;
    free(p);
}

static const simdsv_allocator heap = {heap_alloc, heap_realloc, heap_free, NULL};

static void fail_worker(worker *wk, size_t range, bool nomem)
{
    if (wk->failed_range == SIZE_MAX) {
        wk->failed_range = range;
        wk->failure = EXIT_DATA;
        wk->nomem = nomem;
    }
}

/* The rejects of the batch just read: misfits of inferred types go to the
 * column's misfit statistics; those of --schema types are kept to be listed
 * (--on-error null) or end the read (fail).  Then the stream forgets them. */
static void take_rejects(stats_run *run, worker *wk, struct ArrowArrayStream *stream, size_t range)
{
    const size_t n = simdsv_table_stream_reject_count(stream);
    for (size_t i = 0; i < n && wk->failed_range == SIZE_MAX; i++) {
        const simdsv_reject *r = simdsv_table_stream_reject(stream, i);
        if (!run->user[r->column]) {
            stats_add_misfit(&wk->cols[r->column], r->value, strlen(r->value), r->line);
        } else if (run->user_on_error == SIMDSV_ON_ERROR_FAIL) {
            if (!keep_reject(run, &wk->misfit, stream, i))
                wk->nomem = true;
            fail_worker(wk, range, false);
        } else {
            if (wk->nshown < STATS_REJECTS_SHOWN && !keep_reject(run, &wk->shown[wk->nshown++], stream, i))
                fail_worker(wk, range, true);
            wk->rejected++;
            wk->cols[r->column].rejected++;
        }
    }
    simdsv_table_stream_clear_rejects(stream);
}

/* Every batch of a stream into the worker's statistics; the stream is
 * released.  Returns the rows read. */
static uint64_t consume(stats_run *run, worker *wk, struct ArrowArrayStream *stream, size_t range)
{
    uint64_t rows = 0;
    struct ArrowArray batch;
    while (wk->failed_range == SIZE_MAX) {
        const int rc = stream->get_next(stream, &batch);
        if (rc != 0) {
            const char *why = stream->get_last_error(stream);
            snprintf(wk->stream_message, sizeof wk->stream_message, "%s", why ? why : "");
            /* the reader says where (the stream owns it, alive until released) */
            if (wk->reader)
                wk->error = *simdsv_reader_error(wk->reader);
            fail_worker(wk, range, rc == ENOMEM);
            break;
        }
        if (!batch.release)
            break;
        for (size_t j = 0; j < run->ncols && j < (size_t)batch.n_children; j++)
            stats_add_array(&wk->cols[j], batch.children[j]);
        rows += (uint64_t)batch.length;
        batch.release(&batch);
        take_rejects(run, wk, stream, range);
    }
    stream->release(stream);
    wk->reader = NULL;
    return rows;
}

/* ------------------------------------------------------ threaded ranges */

/* The bytes [from, to) of the file into the worker's buffer. */
static bool read_bytes(stats_run *run, worker *wk, uint64_t from, uint64_t to)
{
    const size_t n = (size_t)(to - from);
    if (n > wk->buf_cap) {
        char *p = realloc(wk->buf, n);
        if (!p)
            return false;
        wk->buf = p;
        wk->buf_cap = n;
    }
    for (size_t done = 0; done < n;) {
        const ssize_t got = pread(run->fd, wk->buf + done, n - done, (off_t)(from + done));
        if (got <= 0)
            return false;
        done += (size_t)got;
    }
    return true;
}

static void summarize_one(void *ctx, size_t slot)
{
    stats_run *run = ctx;
    const size_t k = run->round * run->nworkers + slot;
    if (k >= run->nranges)
        return;
    worker *wk = &run->workers[slot];
    const uint64_t begin = (uint64_t)k * STATS_RANGE_BYTES;
    const uint64_t end = begin + STATS_RANGE_BYTES < run->size ? begin + STATS_RANGE_BYTES : run->size;
    const uint64_t from = begin ? begin - 1 : 0; /* the byte before: a CRLF cut in two is one line end */
    simdsv_error err;
    if (!read_bytes(run, wk, from, end) ||
        simdsv_range_summarize(run->c->opt, wk->buf + (begin - from), (size_t)(end - begin), begin,
                               begin ? (unsigned char)wk->buf[0] : -1, &run->summaries[k], &err) != SIMDSV_OK)
        wk->summary_failed = true; /* any one: the whole input is read as one stream */
}

static void read_one(void *ctx, size_t slot)
{
    stats_run *run = ctx;
    const size_t k = run->round * run->nworkers + slot;
    if (k >= run->nranges)
        return;
    worker *wk = &run->workers[slot];
    const simdsv_range *range = &run->ranges[k];
    struct ArrowArrayStream stream;
    if (k == 0) {
        stream = run->first; /* opened by the caller, on this worker's buffer */
        run->first.release = NULL;
    } else {
        simdsv_reader *r = wk->reader;
        if (range->start == range->stop) { /* no record starts in it */
            simdsv_reader_free(r);
            wk->reader = NULL;
            return;
        }
        if (!read_bytes(run, wk, range->start, range->stop)) {
            simdsv_reader_free(r);
            wk->reader = NULL;
            wk->error.code = SIMDSV_ERR_IO;
            snprintf(wk->error.message, sizeof wk->error.message, "cannot read the file");
            fail_worker(wk, k, false);
            return;
        }
        simdsv_status st = simdsv_reader_open_range(r, wk->buf, range);
        if (st == SIMDSV_OK)
            st = simdsv_table_stream(r, &stream);
        if (st != SIMDSV_OK) {
            wk->error = *simdsv_reader_error(r);
            simdsv_reader_free(r);
            wk->reader = NULL;
            fail_worker(wk, k, st == SIMDSV_ERR_NOMEM);
            return;
        }
    }
    run->range_rows[k] = consume(run, wk, &stream, k);
    wk->rows += run->range_rows[k];
}

/* The names of the header row as one SIMDSV_OPT_NAMES list (commas and
 * backslashes escaped), for the ranges after the first, which have no
 * header.  NULL when a name would not read back the same (quoted with
 * escapes: the typed reader's own decoding decides those). */
static char *header_names(stats_run *run, const char *bytes)
{
    simdsv_reader *r = cli_new_reader(run->c->opt);
    simdsv_record rec;
    strbuf sb = {NULL, 0, 0};
    bool ok = r && simdsv_reader_open_range(r, bytes, &run->ranges[0]) == SIMDSV_OK &&
              simdsv_reader_header(r, &rec) == SIMDSV_OK;
    for (size_t i = 0; ok && i < rec.field_count; i++) {
        const simdsv_field *f = &rec.fields[i];
        ok = !(f->flags & (SIMDSV_FIELD_NEEDS_UNESCAPE | SIMDSV_FIELD_INVALID_UTF8)) && (i == 0 || sb_put(&sb, ",", 1));
        for (size_t b = 0; ok && b < f->size; b++)
            ok = (f->data[b] != ',' && f->data[b] != '\\' ? true : sb_put(&sb, "\\", 1)) && sb_put(&sb, &f->data[b], 1);
    }
    ok = ok && sb_put(&sb, "", 1);
    simdsv_reader_free(r);
    if (!ok)
        free(sb.data);
    return ok ? sb.data : NULL;
}

/* Sets up the threaded read of a regular file.  Returns 1 when it will be
 * read so, 0 when it must be read as one stream (nothing consumed), -1 on
 * a failure already reported (*status set). */
static int open_ranges(stats_run *run, int *status)
{
    cli_common *c = run->c;
    int64_t threads = cli_opt(c, SIMDSV_OPT_THREADS);
    if (threads == 0)
        threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
    const char *encoding = simdsv_options_get_string(c->opt, SIMDSV_OPT_ENCODING);
    /* One thread reads one stream: ranges would only add their summaries. */
    if (threads < 2 || strcmp(c->file, "-") == 0 || (run->fd = input_seekable_fd(c->in, &run->size)) < 0 ||
        run->size == 0 ||
        cli_opt(c, SIMDSV_OPT_ROW_LIMIT) || cli_opt(c, SIMDSV_OPT_END_OFFSET) || cli_opt(c, SIMDSV_OPT_HEADER_ROWS) > 1 ||
        (encoding[0] && strcmp(encoding, "utf-8") != 0))
        return 0;
    run->header = cli_opt(c, SIMDSV_OPT_HEADER) != 0;
    run->nranges = (size_t)((run->size + STATS_RANGE_BYTES - 1) / STATS_RANGE_BYTES);
    const size_t nworkers = (size_t)threads < run->nranges ? (size_t)threads : run->nranges;
    run->summaries = calloc(run->nranges, sizeof *run->summaries);
    run->ranges = calloc(run->nranges, sizeof *run->ranges);
    run->range_rows = calloc(run->nranges, sizeof *run->range_rows);
    run->nworkers = nworkers;
    run->workers = calloc(nworkers, sizeof *run->workers); /* buffers only, until the schema is known */
    if (!run->summaries || !run->ranges || !run->range_rows || !run->workers)
        return 0;
    bool cut = true;
    for (run->round = 0; cut && run->round * nworkers < run->nranges; run->round++) {
        simdsv__run_threads(&heap, nworkers, summarize_one, run);
        for (size_t w = 0; w < nworkers; w++)
            cut = cut && !run->workers[w].summary_failed;
    }
    if (!cut || simdsv_range_combine(run->summaries, run->nranges, run->ranges) != SIMDSV_OK)
        return 0;
    /* Range 0: the header's names, then its stream, whose schema the others take. */
    worker *w0 = &run->workers[0];
    if (!read_bytes(run, w0, run->ranges[0].start, run->ranges[0].stop))
        return 0;
    char *names = run->header ? header_names(run, w0->buf) : NULL;
    if (run->header && !names)
        return 0;
    simdsv_reader *r = cli_new_reader(c->opt);
    simdsv_status st = r ? simdsv_reader_open_range(r, w0->buf, &run->ranges[0]) : SIMDSV_ERR_NOMEM;
    if (st == SIMDSV_OK)
        st = simdsv_table_stream(r, &run->first);
    if (st != SIMDSV_OK) {
        free(names);
        if (!r)
            return 0;
        *status = cli_typed_failure(c, r, st);
        simdsv_reader_free(r);
        return -1;
    }
    w0->reader = r; /* owned by the stream */
    if (!learn_schema(run, &run->first)) {
        cli_error("out of memory");
        *status = EXIT_DATA;
        free(names);
        return -1;
    }
    /* The other ranges name their columns as range 0's header does and take
     * its types by name (the library makes the names unique, the same way
     * for the header and for names given); names the options refuse cannot
     * be given. */
    bool usable = true;
    if (names) {
        simdsv_options *probe = simdsv_options_new(NULL);
        usable = probe && simdsv_options_set_string(probe, SIMDSV_OPT_NAMES, names) == SIMDSV_OK;
        simdsv_options_free(probe);
    }
    if (!usable) {
        free(names);
        run->first.release(&run->first); /* frees r: nothing was read from the input itself */
        w0->reader = NULL;
        return 0;
    }
    bool ok = !names || (simdsv_options_set(c->opt, SIMDSV_OPT_HEADER, 0) == SIMDSV_OK &&
                         simdsv_options_set_string(c->opt, SIMDSV_OPT_NAMES, names) == SIMDSV_OK);
    free(names);
    for (size_t j = 0; ok && j < run->ncols; j++)
        ok = run->user[j] || simdsv_options_set_column_type(c->opt, run->names[j], run->types[j]) == SIMDSV_OK;
    if (!ok) {
        cli_error("out of memory");
        *status = EXIT_DATA;
        return -1;
    }
    if (!init_columns(run)) {
        cli_error("out of memory");
        *status = EXIT_DATA;
        return -1;
    }
    /* Rows each worker will see, from the line ends of the first MiB: the
     * quantile sketches may start sampling at once (sketch.h, kll_expect). */
    const size_t sample = (size_t)(run->ranges[0].stop - run->ranges[0].start) < ((size_t)1 << 20)
                              ? (size_t)(run->ranges[0].stop - run->ranges[0].start)
                              : (size_t)1 << 20;
    uint64_t lines = 0;
    for (const char *p = w0->buf, *end = w0->buf + sample; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        lines++;
    const uint64_t expected = sample ? (uint64_t)((double)lines / (double)sample * (double)run->size) / nworkers : 0;
    for (size_t w = 0; w < nworkers; w++)
        for (size_t j = 0; j < run->ncols; j++)
            kll_expect(&run->workers[w].cols[j].quantiles, expected);
    return 1;
}

/* Reads the ranges in rounds of one per worker.  Stops after the round in
 * which a range failed (the ranges before it are then all read). */
static void read_ranges(stats_run *run)
{
    for (run->round = 0; run->round * run->nworkers < run->nranges; run->round++) {
        uint64_t bytes = 0;
        for (size_t slot = 0; slot < run->nworkers; slot++) {
            const size_t k = run->round * run->nworkers + slot;
            if (k >= run->nranges)
                break;
            bytes += run->ranges[k].stop - run->ranges[k].start;
            if (k > 0 && !(run->workers[slot].reader = cli_new_reader(run->c->opt)))
                fail_worker(&run->workers[slot], k, true);
        }
        simdsv__run_threads(&heap, run->nworkers, read_one, run);
        progress_add(bytes);
        for (size_t slot = 0; slot < run->nworkers; slot++)
            if (run->workers[slot].failed_range != SIZE_MAX)
                return;
    }
}

/* Standard input and what ranges cannot cut: one stream on this thread.
 * Takes r (the stream frees it, or this function when there is none). */
static int read_stream(stats_run *run, simdsv_reader *r)
{
    struct ArrowArrayStream stream;
    const simdsv_status st = simdsv_table_stream(r, &stream);
    if (st != SIMDSV_OK) {
        const int status = cli_typed_failure(run->c, r, st);
        simdsv_reader_free(r); /* not the stream's: it was not made */
        return status;
    }
    run->nworkers = 1;
    run->workers = calloc(1, sizeof *run->workers);
    if (!run->workers || !learn_schema(run, &stream) || !init_columns(run)) {
        stream.release(&stream);
        cli_error("out of memory");
        return EXIT_DATA;
    }
    run->workers[0].reader = r;
    run->workers[0].rows = consume(run, &run->workers[0], &stream, 0);
    return EXIT_OK;
}

/* The first failure in input order, reported; EXIT_OK when none. */
static int report_failure(stats_run *run)
{
    const worker *first = NULL;
    for (size_t w = 0; w < run->nworkers; w++)
        if (run->workers[w].failed_range != SIZE_MAX &&
            (!first || run->workers[w].failed_range < first->failed_range))
            first = &run->workers[w];
    if (!first)
        return EXIT_OK;
    cli_common *c = run->c;
    out_flush();
    if (first->nomem) {
        cli_error("out of memory");
    } else if (first->misfit.value) {
        progress_erase();
        const stats_reject *m = &first->misfit;
        fprintf(stderr, "%s:%llu: error: value `", c->display, (unsigned long long)m->line);
        cli_put_text(m->value);
        char name[64]; /* cut as the library's own messages cut names */
        snprintf(name, sizeof name, "%.60s", run->names[m->column]);
        fputs("` does not fit column `", stderr);
        cli_put_text(name);
        fprintf(stderr, "` of type %s (use --on-error null to make it null) (row at byte %llu)\n",
                simdsv_type_name(run->types[m->column]), (unsigned long long)m->byte_offset);
    } else if (first->error.code != SIMDSV_OK) {
        simdsv_error e = first->error;
        if (run->ranges && first->failed_range > 0) {
            /* the range's reader counts records from its own start */
            e.record += run->header;
            for (size_t k = 0; k < first->failed_range; k++)
                e.record += run->range_rows[k];
        }
        cli_report_error(c, &e);
    } else {
        cli_error("%s: %s", c->display, first->stream_message);
    }
    return EXIT_DATA;
}

/* The --schema misfits made null: the workers' first ones, then a count. */
static void print_rejects(stats_run *run, const stats_report *rep)
{
    stats_reject *all = malloc(run->nworkers * STATS_REJECTS_SHOWN * sizeof *all);
    size_t n = 0;
    uint64_t total = 0;
    for (size_t w = 0; w < run->nworkers; w++) {
        total += run->workers[w].rejected;
        for (size_t i = 0; all && i < run->workers[w].nshown; i++)
            all[n++] = run->workers[w].shown[i];
    }
    stats_print_rejects(rep, all, n, total);
    free(all);
}

static void free_run(stats_run *run)
{
    if (run->first.release) {
        run->first.release(&run->first); /* and its reader, range 0's */
        run->workers[0].reader = NULL;
    }
    for (size_t w = 0; run->workers && w < run->nworkers; w++) {
        worker *wk = &run->workers[w];
        for (size_t j = 0; wk->cols && j < run->ncols; j++)
            stats_free(&wk->cols[j]);
        free(wk->cols);
        for (size_t i = 0; i < wk->nshown; i++)
            free_reject(&wk->shown[i]);
        free_reject(&wk->misfit);
        simdsv_reader_free(wk->reader);
        free(wk->buf);
    }
    free(run->workers);
    for (size_t j = 0; run->names && j < run->ncols; j++)
        free(run->names[j]);
    free(run->names);
    free(run->types);
    free(run->user);
    free(run->zoned);
    free(run->summaries);
    free(run->ranges);
    free(run->range_rows);
}

/* Several files: the dataset's stream on this thread, read again with a
 * column widened each time a value does not fit its type (nothing is
 * printed before the end). */
static int read_dataset(stats_run *run)
{
    cli_common *c = run->c;
    for (size_t reads_left = 0;;) {
        struct ArrowArrayStream stream;
        if (simdsv_dataset_stream(c->ds, &stream) != SIMDSV_OK)
            return cli_dataset_failure(c);
        run->nworkers = 1;
        run->workers = calloc(1, sizeof *run->workers);
        if (!run->workers || !learn_schema(run, &stream) || !init_columns(run)) {
            stream.release(&stream);
            cli_error("out of memory");
            return EXIT_DATA;
        }
        if (!reads_left)
            reads_left = run->ncols * SIMDSV_TYPE_COUNT + 1;
        run->workers[0].rows = consume(run, &run->workers[0], &stream, 0);
        if (run->workers[0].failed_range == SIZE_MAX)
            return EXIT_OK;
        if (run->workers[0].nomem || simdsv_dataset_error(c->ds)->code == SIMDSV_OK) {
            cli_error("%s", run->workers[0].nomem ? "out of memory" : run->workers[0].stream_message);
            return EXIT_DATA;
        }
        if (--reads_left == 0 || simdsv_dataset_widen_misfit(c->ds) != SIMDSV_OK)
            return cli_dataset_failure(c);
        const stats_run keep = *run;
        free_run(run);
        memset(run, 0, sizeof *run);
        run->c = c;
        run->args = keep.args;
        run->fd = -1;
        run->user_on_error = keep.user_on_error;
    }
}

/* The statistics printed (or the first failure reported), and everything
 * freed; the exit status. */
static int finish(cli_common *c, stats_run *run, const stats_args *args, int status, simdsv_reader *r)
{
    if (status == EXIT_OK)
        status = report_failure(run);
    if (status == EXIT_OK) {
        column_stats *cols = run->workers[0].cols;
        uint64_t rows = run->workers[0].rows;
        for (size_t w = 1; w < run->nworkers; w++) {
            for (size_t j = 0; j < run->ncols; j++)
                stats_merge(&cols[j], &run->workers[w].cols[j]);
            rows += run->workers[w].rows;
        }
        const stats_report rep = {run->ncols, run->names, run->types, cols, rows};
        const bool ok = args->format == STATS_FORMAT_TABLE ? stats_print_table(&rep)
                                                          : stats_print_records(&rep, args->format, c->out_delimiter);
        if (args->format == STATS_FORMAT_TABLE)
            print_rejects(run, &rep);
        if (!ok) {
            out_flush();
            cli_error("out of memory");
            status = EXIT_DATA;
        }
    }
    free_run(run);
    cli_close(c, r);
    status = out_finish(status);
    cli_common_free(c);
    return status;
}

int cmd_stats(int argc, char **argv)
{
    cli_common c;
    stats_args args = {&c, STATS_FORMAT_TABLE, false};
    const cli_spec spec = {"stats", help, CLI_OUTPUT | CLI_CSV_OUT | CLI_DATASET, 0, NULL, stats_arg, &args};
    int status = cli_parse(&spec, argc, argv, &c);
    /* Misfits of inferred types are nulls listed as rejects, never errors
     * (take_rejects applies the user's --on-error to --schema types). */
    const int64_t user_on_error = status < 0 ? cli_opt(&c, SIMDSV_OPT_ON_ERROR) : 0;
    if (status < 0)
        simdsv_options_set(c.opt, SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL);
    stats_run run;
    memset(&run, 0, sizeof run);
    run.c = &c;
    run.args = &args;
    run.fd = -1;
    run.user_on_error = user_on_error;
    if (status < 0 && c.ds) {
        if (!out_open(c.output)) {
            cli_common_free(&c);
            return EXIT_DATA;
        }
        cli_start(&c);
        return finish(&c, &run, &args, read_dataset(&run), NULL);
    }
    simdsv_reader *r = cli_begin(&c, &status);
    if (!r)
        return status;
    status = EXIT_OK;
    const int threaded = open_ranges(&run, &status);
    if (threaded == 1) {
        read_ranges(&run);
        simdsv_reader_free(r);
        r = NULL;
    } else if (threaded == 0) {
        /* what open_ranges allocated for ranges is not needed */
        free_run(&run);
        memset(&run, 0, sizeof run);
        run.c = &c;
        run.args = &args;
        run.user_on_error = user_on_error;
        status = read_stream(&run, r);
        r = NULL; /* read_stream took it */
    }
    return finish(&c, &run, &args, status, r);
}
