/* jsonl.c — typed JSON for convert --to jsonl (one object per line) and
 * --to json (an array of the same objects), and the CSV of several files
 * as one table (convert --to csv of a dataset), over the typed reader's
 * Arrow stream, one batch at a time: memory is a batch, its text and the
 * reader's buffer, whatever the input's size.
 *
 * Header names are the keys; int64 and float64 values are numbers, bools
 * true/false, nulls null, dates and timestamps ISO 8601 strings, strings
 * strings.  A float that is not finite is the string "NaN", "Infinity" or
 * "-Infinity" (JSON has no such numbers).  Types come from the start of the
 * input (simdsv_table_stream); a later value that does not fit its inferred
 * type is written as the JSON string of its text (the stream's rejects say
 * which: the reader runs with --on-error null underneath, and a reject of a
 * --schema column is an error unless --on-error null was asked for).
 *
 * With --threads 2 or more (or the default, on a machine with two cores)
 * the next batch is parsed on the caller's thread while a second thread
 * writes the JSON of the one before. */
#define _POSIX_C_SOURCE 200809L
#include "typed.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ strings */

static const char hex_digits[] = "0123456789abcdef";

/* Nonzero when one of the 8 bytes of w is a control byte, '"' or '\\':
 * SWAR's "has a byte below n" and "has a zero byte" tests (exact about
 * whether there is one, which is all that is asked here). */
static inline uint64_t needs_escape(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    const uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b)) & high;
}

static inline uint64_t load8(const char *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

char *cli_put_json_string(char *p, const char *s, size_t n)
{
    *p++ = '"';
    size_t i = 0;
    for (;;) {
        /* 32 bytes at a time while none needs escaping. */
        while (i + 32 <= n && !(needs_escape(load8(s + i)) | needs_escape(load8(s + i + 8)) |
                                needs_escape(load8(s + i + 16)) | needs_escape(load8(s + i + 24)))) {
            memcpy(p, s + i, 32);
            p += 32;
            i += 32;
        }
        if (i == n)
            break;
        const size_t stop = i + 32 <= n ? i + 32 : n;
        for (; i < stop; i++) {
            const unsigned char ch = (unsigned char)s[i];
            if (ch >= 0x20 && ch != '"' && ch != '\\') {
                *p++ = (char)ch;
                continue;
            }
            *p++ = '\\';
            switch (ch) {
            case '"': *p++ = '"'; break;
            case '\\': *p++ = '\\'; break;
            case '\n': *p++ = 'n'; break;
            case '\r': *p++ = 'r'; break;
            case '\t': *p++ = 't'; break;
            default:
                memcpy(p, "u00", 3);
                p[3] = hex_digits[ch >> 4];
                p[4] = hex_digits[ch & 15];
                p += 5;
                break;
            }
        }
    }
    *p++ = '"';
    return p;
}

void out_json_string(const char *s, size_t n)
{
    /* In pieces that fit the output buffer escaped (6 bytes per byte at most). */
    enum { PIECE = 8192 };
    out_byte('"');
    while (n) {
        const size_t k = n < PIECE ? n : PIECE;
        char *w = out_reserve(6 * k + 2);
        char *end = cli_put_json_string(w, s, k);
        /* cli_put_json_string quotes its piece: keep only the inside. */
        memmove(w, w + 1, (size_t)(end - w) - 2);
        out_commit((size_t)(end - w) - 2);
        s += k;
        n -= k;
    }
    out_byte('"');
}

/* ------------------------------------------------------------ columns */

typedef struct json_column {
    simdsv_type type;
    char *key;          /* "name": as JSON, ready to copy */
    size_t key_len;
    bool wide_offsets;  /* large_utf8 */
    bool views;         /* string views ("vu", --strings view) */
    bool user_type;     /* from --schema */
    bool utc;           /* a timestamp column with a zone ("tsu:UTC"): written with 'Z'; naive ones without */
    const char *name;   /* for messages (the stream's) */
} json_column;

/* One reject of a batch: the cell and the text to write as a string. */
typedef struct json_cell {
    uint64_t row;
    size_t column;
    char *text;
} json_cell;

/* A batch from the stream and the JSON written for it. */
typedef struct json_batch {
    struct ArrowArray array;
    uint64_t first_row;      /* stream row of the batch's row 0 */
    json_cell *cells;
    size_t ncells, cap_cells;
    char *out;
    size_t len, cap;
    bool nomem;
} json_batch;

/* Floats already written, by their bits: data repeats its prices, rates
 * and flags, and a lookup costs a fraction of the shortest-form search.
 * Only the formatting thread of the moment touches it (one batch at a
 * time). */
enum { MEMO_SLOTS = 4096 };
typedef struct float_memo {
    uint64_t bits;
    char text[23];
    uint8_t len; /* 0: empty */
} float_memo;

/* A column of the batch being written: its buffers, looked up once per
 * batch instead of once per value. */
typedef struct json_cursor {
    bool none;               /* a null column (no buffers): every row is null */
    const uint8_t *validity; /* NULL: every row holds a value */
    const void *values;      /* values, or string offsets, or string views */
    const char *chars;       /* strings */
    const void *const *view_buffers; /* string views: the array's buffers (the variadic ones from 2 on) */
    int64_t offset;          /* of the array's row 0 in its buffers */
} json_cursor;

typedef struct json_run {
    float_memo *memo;
    json_cursor *cursors;
    size_t *string_cols; /* indexes of the string columns */
    size_t nstring;
    json_column *cols;
    size_t ncols;
    size_t row_fixed;  /* bytes of a row without its strings, at most */
    text_format format;
    int delimiter;     /* csv */
    bool any_row;      /* a row was written (the array's separators) */
} json_run;

static bool reserve(json_batch *b, size_t more)
{
    if (b->cap - b->len >= more)
        return true;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap - b->len < more)
        cap *= 2;
    char *grown = realloc(b->out, cap);
    if (!grown) {
        b->nomem = true;
        return false;
    }
    b->out = grown;
    b->cap = cap;
    return true;
}

static inline bool bit(const void *bitmap, int64_t i)
{
    return (((const uint8_t *)bitmap)[i / 8] >> (i % 8)) & 1;
}

static char *put_double(float_memo *memo, char *p, double x)
{
    if (isnan(x)) {
        memcpy(p, "\"NaN\"", 5);
        return p + 5;
    }
    if (isinf(x)) {
        const char *s = x > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        const size_t n = strlen(s);
        memcpy(p, s, n);
        return p + n;
    }
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    float_memo *m = &memo[(bits * 0x9e3779b97f4a7c15u) >> 52]; /* 12 bits: MEMO_SLOTS */
    if (m->len && m->bits == bits) {
        memcpy(p, m->text, sizeof m->text); /* the buffer has room past the value */
        return p + m->len;
    }
    const size_t n = cli_shortest_double(p, x);
    if (n <= sizeof m->text) {
        m->bits = bits;
        memcpy(m->text, p, sizeof m->text); /* whole: no call for a variable length */
        m->len = (uint8_t)n;
    }
    return p + n;
}

static inline bool valid_at(const json_cursor *cur, int64_t i)
{
    return !cur->none && (!cur->validity || bit(cur->validity, i));
}

static void string_at(const json_column *col, const json_cursor *cur, int64_t i, const char **s, size_t *n)
{
    int64_t from, to;
    if (col->views) { /* length, then the bytes inline, or prefix, buffer index and offset */
        const int32_t *view = (const int32_t *)cur->values + 4 * i;
        *n = (size_t)view[0];
        *s = view[0] <= 12 ? (const char *)(view + 1) : (const char *)cur->view_buffers[2 + view[2]] + view[3];
        return;
    }
    if (col->wide_offsets) {
        from = ((const int64_t *)cur->values)[i];
        to = ((const int64_t *)cur->values)[i + 1];
    } else {
        from = ((const int32_t *)cur->values)[i];
        to = ((const int32_t *)cur->values)[i + 1];
    }
    *s = cur->chars + from;
    *n = (size_t)(to - from);
}

/* The value of row i (buffer index) of a column. */
static char *put_value(float_memo *memo, char *p, const json_column *col, const json_cursor *cur, int64_t i)
{
    if (!valid_at(cur, i)) {
        memcpy(p, "null", 4);
        return p + 4;
    }
    switch (col->type) {
    case SIMDSV_TYPE_BOOL:
        if (bit(cur->values, i)) {
            memcpy(p, "true", 4);
            return p + 4;
        }
        memcpy(p, "false", 5);
        return p + 5;
    case SIMDSV_TYPE_INT64:
        return p + cli_put_int64(p, ((const int64_t *)cur->values)[i]);
    case SIMDSV_TYPE_FLOAT64:
        return put_double(memo, p, ((const double *)cur->values)[i]);
    case SIMDSV_TYPE_DATE:
        *p++ = '"';
        p += cli_put_date(p, ((const int32_t *)cur->values)[i]);
        *p++ = '"';
        return p;
    case SIMDSV_TYPE_TIMESTAMP:
        *p++ = '"';
        p += cli_put_timestamp(p, ((const int64_t *)cur->values)[i], col->utc);
        *p++ = '"';
        return p;
    case SIMDSV_TYPE_STRING: {
        const char *s;
        size_t n;
        string_at(col, cur, i, &s, &n);
        return cli_put_json_string(p, s, n);
    }
    case SIMDSV_TYPE_NULL:
        break;
    }
    memcpy(p, "null", 4);
    return p + 4;
}

/* A CSV field at p: quoted (quotes doubled) only when needed; p holds
 * 2 * n + 2 bytes. */
static char *put_csv_string(char *p, const char *s, size_t n, int delimiter, bool alone)
{
    if (!csv_needs_quotes(s, n, delimiter, alone)) {
        memcpy(p, s, n);
        return p + n;
    }
    *p++ = '"';
    for (const char *q; n && (q = memchr(s, '"', n)) != NULL; n -= (size_t)(q + 1 - s), s = q + 1) {
        memcpy(p, s, (size_t)(q + 1 - s));
        p += q + 1 - s;
        *p++ = '"';
    }
    memcpy(p, s, n);
    p += n;
    *p++ = '"';
    return p;
}

/* The CSV text of row i (buffer index) of a column (alone: the row's only
 * field, an empty one quoted so that the line is not empty). */
static char *put_csv_value(float_memo *memo, char *p, const json_column *col, const json_cursor *cur, int64_t i,
                           int delimiter, bool alone)
{
    if (!valid_at(cur, i) || col->type == SIMDSV_TYPE_NULL)
        return put_csv_string(p, "", 0, delimiter, alone);
    switch (col->type) {
    case SIMDSV_TYPE_FLOAT64: {
        const double x = ((const double *)cur->values)[i];
        if (!isfinite(x)) { /* the words the typed reader reads back, unquoted */
            const char *w = isnan(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
            memcpy(p, w, strlen(w));
            return p + strlen(w);
        }
        return put_double(memo, p, x);
    }
    case SIMDSV_TYPE_DATE:
        return p + cli_put_date(p, ((const int32_t *)cur->values)[i]);
    case SIMDSV_TYPE_TIMESTAMP:
        return p + cli_put_timestamp(p, ((const int64_t *)cur->values)[i], col->utc);
    case SIMDSV_TYPE_STRING: {
        const char *s;
        size_t n;
        string_at(col, cur, i, &s, &n);
        return put_csv_string(p, s, n, delimiter, alone);
    }
    default: /* bool and int64: as JSON writes them */
        return put_value(memo, p, col, cur, i);
    }
}

/* Writes the batch's rows as JSON (or CSV) into b->out. */
static void format_batch(const json_run *run, json_batch *b, bool first_of_array)
{
    const struct ArrowArray *top = &b->array;
    const bool csv = run->format == TEXT_CSV, alone = run->ncols == 1;
    for (size_t j = 0; j < run->ncols; j++) {
        const struct ArrowArray *a = top->children[j];
        json_cursor *cur = &run->cursors[j];
        cur->none = run->cols[j].type == SIMDSV_TYPE_NULL || a->n_buffers < 2;
        if (cur->none)
            continue;
        cur->offset = top->offset + a->offset;
        cur->validity = a->null_count ? a->buffers[0] : NULL;
        cur->values = a->buffers[1];
        cur->chars = run->cols[j].type == SIMDSV_TYPE_STRING && !run->cols[j].views ? a->buffers[2] : NULL;
        cur->view_buffers = a->buffers;
    }
    size_t cell = 0;
    for (int64_t r = 0; r < top->length; r++) {
        const uint64_t row = b->first_row + (uint64_t)r;
        size_t need = run->row_fixed;
        for (size_t k = 0; k < run->nstring; k++) {
            const size_t j = run->string_cols[k];
            const json_cursor *cur = &run->cursors[j];
            const int64_t i = r + cur->offset;
            if (valid_at(cur, i)) {
                const char *s;
                size_t n;
                string_at(&run->cols[j], cur, i, &s, &n);
                need += 6 * n;
            }
        }
        for (size_t k = cell; k < b->ncells && b->cells[k].row == row; k++)
            need += 6 * strlen(b->cells[k].text) + 2;
        if (!reserve(b, need))
            return;
        char *p = b->out + b->len;
        if (csv) {
            for (size_t j = 0; j < run->ncols; j++) {
                if (j)
                    *p++ = (char)run->delimiter;
                if (cell < b->ncells && b->cells[cell].row == row && b->cells[cell].column == j) {
                    p = put_csv_string(p, b->cells[cell].text, strlen(b->cells[cell].text), run->delimiter, alone);
                    cell++;
                } else {
                    p = put_csv_value(run->memo, p, &run->cols[j], &run->cursors[j], r + run->cursors[j].offset,
                                      run->delimiter, alone);
                }
            }
            *p++ = '\n';
            b->len = (size_t)(p - b->out);
            continue;
        }
        if (run->format == TEXT_JSON) { /* the array: "\n" before the first object, ",\n" before the others */
            const bool first = first_of_array && r == 0;
            memcpy(p, first ? "\n" : ",\n", 2);
            p += first ? 1 : 2;
        }
        *p++ = '{';
        for (size_t j = 0; j < run->ncols; j++) {
            const json_column *col = &run->cols[j];
            if (j)
                *p++ = ',';
            /* Keys are padded to 16 bytes: whole pieces, no library call
             * (the bytes past the key are overwritten by the value). */
            for (size_t k = 0; k < col->key_len; k += 16)
                memcpy(p + k, col->key + k, 16);
            p += col->key_len;
            if (cell < b->ncells && b->cells[cell].row == row && b->cells[cell].column == j) {
                p = cli_put_json_string(p, b->cells[cell].text, strlen(b->cells[cell].text));
                cell++;
            } else {
                p = put_value(run->memo, p, col, &run->cursors[j], r + run->cursors[j].offset);
            }
        }
        *p++ = '}';
        if (run->format == TEXT_JSONL)
            *p++ = '\n';
        b->len = (size_t)(p - b->out);
    }
}

/* --------------------------------------------------------------- driver */

static void batch_clear(json_batch *b)
{
    if (b->array.release)
        b->array.release(&b->array);
    for (size_t k = 0; k < b->ncells; k++)
        free(b->cells[k].text);
    b->ncells = 0;
    b->len = 0;
}

static void batch_free(json_batch *b)
{
    batch_clear(b);
    free(b->cells);
    free(b->out);
}

/* Keys and types from the stream's schema. */
static bool columns_of(struct ArrowArrayStream *stream, json_run *run)
{
    struct ArrowSchema schema;
    if (stream->get_schema(stream, &schema) != 0)
        return false;
    const size_t n = (size_t)schema.n_children;
    run->cols = calloc(n ? n : 1, sizeof *run->cols);
    run->memo = calloc(MEMO_SLOTS, sizeof *run->memo);
    run->cursors = calloc(n ? n : 1, sizeof *run->cursors);
    run->string_cols = calloc(n ? n : 1, sizeof *run->string_cols);
    bool ok = run->cols && run->memo && run->cursors && run->string_cols;
    run->ncols = ok ? n : 0;
    run->row_fixed = 4; /* {}\n and the array's ",\n" before the row */
    for (size_t j = 0; ok && j < n; j++) {
        const struct ArrowSchema *child = schema.children[j];
        json_column *col = &run->cols[j];
        simdsv_column_info info;
        col->type = cli_type_of_format(child->format);
        col->utc = strncmp(child->format, "tsu:", 4) == 0 && child->format[4] != '\0';
        col->wide_offsets = child->format[0] == 'U';
        col->views = child->format[0] == 'v';
        if (col->type == SIMDSV_TYPE_STRING)
            run->string_cols[run->nstring++] = j;
        const bool known = simdsv_table_stream_column(stream, j, &info) == SIMDSV_OK;
        col->user_type = known && info.user_type;
        col->name = known ? info.name : "";
        const size_t name_len = strlen(child->name);
        col->key = calloc(1, (6 * name_len + 3 + 15) / 16 * 16);
        if (!col->key) {
            ok = false;
            break;
        }
        char *end = cli_put_json_string(col->key, child->name, name_len);
        *end++ = ':';
        col->key_len = (size_t)(end - col->key);
        /* A value's longest text: a timestamp of a far year, or "-Infinity". */
        run->row_fixed += col->key_len + 16 + 1 + CLI_TIMESTAMP_MAX;
    }
    schema.release(&schema);
    return ok;
}

typedef struct json_job {
    const json_run *run;
    json_batch *batch;
    bool first_of_array;
} json_job;

static void *format_job(void *arg)
{
    json_job *job = arg;
    format_batch(job->run, job->batch, job->first_of_array);
    return NULL;
}

/* Takes the stream's rejects into b as cells (copies: the stream's list is
 * cleared).  Returns false with *status set when one of them is an error:
 * a --schema column's misfit without --on-error null. */
static bool take_rejects(cli_common *c, struct ArrowArrayStream *stream, const json_run *run, json_batch *b,
                         bool user_null, int *status)
{
    const size_t n = simdsv_table_stream_reject_count(stream);
    for (size_t k = 0; k < n; k++) {
        const simdsv_reject *rj = simdsv_table_stream_reject(stream, k);
        if (run->cols[rj->column].user_type) {
            if (user_null)
                continue; /* null, as asked */
            progress_erase();
            fprintf(stderr, "%s:%llu: error: value `", c->display, (unsigned long long)rj->line);
            cli_put_text(rj->value);
            fprintf(stderr, "` does not fit column %zu `", rj->column + 1);
            cli_put_text(run->cols[rj->column].name);
            fprintf(stderr, "`: %s (the row starts at byte %llu; --on-error null makes it null)\n",
                    rj->reason, (unsigned long long)rj->byte_offset);
            *status = EXIT_DATA;
            return false;
        }
        if (b->ncells == b->cap_cells) {
            const size_t cap = b->cap_cells ? 2 * b->cap_cells : 16;
            json_cell *grown = realloc(b->cells, cap * sizeof *grown);
            if (!grown)
                goto nomem;
            b->cells = grown;
            b->cap_cells = cap;
        }
        json_cell *cell = &b->cells[b->ncells];
        cell->row = rj->row;
        cell->column = rj->column;
        cell->text = malloc(strlen(rj->value) + 1);
        if (!cell->text)
            goto nomem;
        strcpy(cell->text, rj->value);
        b->ncells++;
    }
    simdsv_table_stream_clear_rejects(stream);
    return true;
nomem:
    cli_error("out of memory");
    *status = EXIT_DATA;
    return false;
}

/* The next batch into b: 1 a batch, 0 the end, -1 an error (reported). */
static int next_batch(cli_common *c, simdsv_reader *r, struct ArrowArrayStream *stream, const json_run *run,
                      json_batch *b, uint64_t *rows, bool user_null, int *status)
{
    batch_clear(b);
    const int e = stream->get_next(stream, &b->array);
    if (e != 0) {
        /* The stream's reader (alive until the stream is released) holds
         * the error with its position: reported like every command's. */
        if (c->ds && simdsv_dataset_error(c->ds)->code != SIMDSV_OK)
            cli_dataset_failure(c); /* several files: the dataset names the file */
        else if (r && simdsv_reader_error(r)->code != SIMDSV_OK)
            cli_report(c, r);
        else
            cli_error("%s: %s", c->display, stream->get_last_error(stream));
        *status = EXIT_DATA;
        return -1;
    }
    if (!b->array.release)
        return 0;
    b->first_row = *rows;
    *rows += (uint64_t)b->array.length;
    return take_rejects(c, stream, run, b, user_null, status) ? 1 : -1;
}

static int emit(json_batch *b)
{
    if (b->nomem) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    out_write(b->out, b->len);
    return EXIT_OK;
}

/* The header line of CSV: the stream's column names. */
static bool put_csv_header(struct ArrowArrayStream *stream, int delimiter)
{
    struct ArrowSchema schema;
    if (stream->get_schema(stream, &schema) != 0)
        return false;
    for (int64_t j = 0; j < schema.n_children; j++) {
        if (j)
            out_byte((char)delimiter);
        const char *name = schema.children[j]->name;
        out_csv_field(name, strlen(name), delimiter, schema.n_children == 1);
    }
    out_byte('\n');
    schema.release(&schema);
    return true;
}

int convert_json(cli_common *c, text_format format)
{
    /* Misfits of inferred types come back as rejects (written as strings);
     * the user's --on-error still decides for --schema columns. */
    const bool user_null = cli_opt(c, SIMDSV_OPT_ON_ERROR) == SIMDSV_ON_ERROR_NULL;
    simdsv_options_set(c->opt, SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL);
    int64_t threads = cli_opt(c, SIMDSV_OPT_THREADS);
    if (threads == 0)
        threads = sysconf(_SC_NPROCESSORS_ONLN);
    struct ArrowArrayStream stream;
    int status = EXIT_OK;
    simdsv_reader *r = NULL;
    if (c->ds) { /* several files: the dataset's stream (a late misfit stops it: no rejects to write) */
        if (simdsv_dataset_stream(c->ds, &stream) != SIMDSV_OK)
            return cli_dataset_failure(c);
    } else if (!(r = cli_open_stream(c, &stream, &status))) {
        return status;
    }
    json_run run;
    memset(&run, 0, sizeof run);
    run.format = format;
    run.delimiter = c->out_delimiter;
    /* csv: the header line unless --no-header said the files have none. */
    if (status == EXIT_OK && format == TEXT_CSV &&
        !((c->given >> SIMDSV_SNIFF_HEADER & 1u) && cli_opt(c, SIMDSV_OPT_HEADER) == 0) &&
        !put_csv_header(&stream, c->out_delimiter)) {
        cli_error("%s: %s", c->display, stream.get_last_error(&stream));
        status = EXIT_DATA;
    }
    if (!columns_of(&stream, &run)) {
        cli_error("%s: %s", c->display, stream.get_last_error(&stream));
        status = EXIT_DATA;
    }
    json_batch batches[2];
    memset(batches, 0, sizeof batches);
    uint64_t rows = 0;
    int got = status == EXIT_OK ? next_batch(c, r, &stream, &run, &batches[0], &rows, user_null, &status) : -1;
    if (format == TEXT_JSON && got >= 0)
        out_byte('[');
    bool first = true;
    for (int cur = 0; got == 1; cur ^= 1) {
        json_batch *b = &batches[cur];
        json_job job = {&run, b, first};
        pthread_t worker;
        const bool side = threads > 1 && pthread_create(&worker, NULL, format_job, &job) == 0;
        if (!side)
            format_batch(&run, b, first);
        got = next_batch(c, r, &stream, &run, &batches[cur ^ 1], &rows, user_null, &status);
        if (side)
            pthread_join(worker, NULL);
        const int e = emit(b);
        if (e != EXIT_OK) {
            status = e;
            got = -1;
        }
        first = first && b->array.length == 0;
        batch_clear(b);
    }
    if (format == TEXT_JSON && got == 0)
        out_str(first ? "]\n" : "\n]\n");
    batch_free(&batches[0]);
    batch_free(&batches[1]);
    for (size_t j = 0; j < run.ncols; j++)
        free(run.cols[j].key);
    free(run.cols);
    free(run.memo);
    free(run.cursors);
    free(run.string_cols);
    stream.release(&stream); /* frees the reader too */
    cli_close(c, NULL);
    return status;
}
