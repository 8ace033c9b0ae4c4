/* cmd_table.c — simdsv table: aligned columns for a terminal, in bounded
 * memory.  Each column is as wide as its widest value (at most --width):
 * a regular file is read twice, once for the widths and once to print; any
 * other input (standard input, a pipe, compressed data) keeps its first
 * 8 MiB of records to measure them, prints them, and prints the rest as it
 * reads it (a wider value widens its column from its row on). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv table [OPTIONS] FILE\n"
    "Writes the records as aligned columns for reading (not CSV): each column as wide\n"
    "as its widest value, at most --width terminal columns; longer values end with\n"
    "'…'.  Widths count East Asian wide characters as 2 and combining marks as 0.\n"
    "Line ends inside a field are shown as '↵', tabs as a space, other control\n"
    "characters and invalid UTF-8 as U+FFFD (table reads with --utf8 lossy unless\n"
    "--utf8 is given: 'simdsv check' reports them).  On a terminal the header is bold\n"
    "(unless NO_COLOR is set).  Memory stays bounded: a regular file is read twice\n"
    "(widths, then the rows); from a pipe or compressed input the widths come from\n"
    "the first 8 MiB of records; a wider value after them widens its column from\n"
    "its row on.\n"
    "  --width N          the widest a column may be (default 40, at least 1)\n\n";

/* The records kept to measure a stream's widths. */
#define TABLE_WINDOW ((size_t)8 << 20)

typedef struct cell {
    size_t offset, len;
} cell;

/* Records held in memory: a stream's first window. */
typedef struct rows {
    strbuf bytes;
    cell *cells;
    size_t ncells, cap_cells;
    size_t *row_start; /* index of each row's first cell; one more entry at the end */
    size_t nrows, cap_rows;
} rows;

typedef struct widths {
    size_t *w;
    size_t n;
    size_t max; /* --width */
} widths;

static bool push_cell(rows *t, const char *data, size_t len)
{
    if (t->ncells == t->cap_cells) {
        const size_t cap = t->cap_cells ? t->cap_cells * 2 : 256;
        cell *grown = realloc(t->cells, cap * sizeof *grown);
        if (!grown)
            return false;
        t->cells = grown;
        t->cap_cells = cap;
    }
    t->cells[t->ncells].offset = t->bytes.len;
    t->cells[t->ncells].len = len;
    t->ncells++;
    return len == 0 || sb_put(&t->bytes, data, len);
}

static bool push_row(rows *t)
{
    if (t->nrows + 1 >= t->cap_rows) {
        const size_t cap = t->cap_rows ? t->cap_rows * 2 : 256;
        size_t *grown = realloc(t->row_start, cap * sizeof *grown);
        if (!grown)
            return false;
        t->row_start = grown;
        t->cap_rows = cap;
    }
    t->row_start[t->nrows++] = t->ncells;
    t->row_start[t->nrows] = t->ncells;
    return true;
}

static void rows_free(rows *t)
{
    free(t->bytes.data);
    free(t->cells);
    free(t->row_start);
    memset(t, 0, sizeof *t);
}

static arg_result table_arg(void *ctx, int argc, char **argv, int *i)
{
    unsigned long long *w = ctx;
    const arg_result res = cli_u64_option("--width", argc, argv, i, w);
    return res == ARG_TAKEN && (*w < 1 || *w > 1000000) ? ARG_BAD : res;
}

/* Column j's width takes the cell's (at most --width). */
static bool measure(widths *ws, size_t j, const char *s, size_t n)
{
    if (j >= ws->n) {
        size_t *grown = realloc(ws->w, (j + 1) * sizeof *grown);
        if (!grown)
            return false;
        memset(grown + ws->n, 0, (j + 1 - ws->n) * sizeof *grown);
        ws->w = grown;
        ws->n = j + 1;
    }
    size_t w = text_display(s, n, SIZE_MAX, 0, false);
    w = w > ws->max ? ws->max : w;
    if (w > ws->w[j])
        ws->w[j] = w;
    return true;
}

/* One row of cells (texts[k], lens[k]) aligned to the widths; trailing
 * empty cells need no padding. */
static void print_row(const widths *ws, const char *const *texts, const size_t *lens, size_t n, bool bold)
{
    if (bold)
        out_str("\033[1m");
    size_t last = n;
    while (last > 0 && text_display(texts[last - 1], lens[last - 1], SIZE_MAX, 0, false) == 0)
        last--;
    for (size_t j = 0; j < last; j++) {
        if (j)
            out_write("  ", 2);
        const size_t full = text_display(texts[j], lens[j], SIZE_MAX, 0, false);
        const size_t width = j < ws->n ? ws->w[j] : ws->max;
        const size_t w = text_display(texts[j], lens[j], width, full, true);
        if (j + 1 < last && w < width)
            out_pad(width - w);
    }
    if (bold)
        out_str("\033[0m");
    out_byte('\n');
}

/* A record's field texts as arrays (valid until the next text_reset). */
typedef struct fields {
    const char **texts;
    size_t *lens;
    size_t cap;
} fields;

static bool fields_reserve(fields *f, size_t n)
{
    if (n <= f->cap)
        return true;
    const char **t = realloc(f->texts, n * sizeof *t);
    if (t)
        f->texts = t;
    size_t *l = realloc(f->lens, n * sizeof *l);
    if (l)
        f->lens = l;
    if (!t || !l)
        return false;
    f->cap = n;
    return true;
}

static bool record_texts(fields *f, text_buffer *tb, const simdsv_record *rec)
{
    if (!fields_reserve(f, rec->field_count))
        return false;
    text_reset(tb);
    for (size_t j = 0; j < rec->field_count; j++)
        if (!text_field(tb, rec, j, &f->texts[j], &f->lens[j]))
            return false;
    return true;
}

typedef struct table_run {
    cli_common *c;
    widths ws;
    fields f;
    text_buffer tb;
    bool bold_header, has_header;
} table_run;

/* Reads every record of r: measuring (print false) or printing. */
static simdsv_status each_record(table_run *s, simdsv_reader *r, bool print)
{
    simdsv_record rec;
    simdsv_status st = cli_header(s->c, r, &rec, &s->has_header);
    bool first = s->has_header;
    if (st != SIMDSV_OK)
        return st;
    if (!s->has_header)
        st = simdsv_reader_next(r, &rec);
    for (; st == SIMDSV_OK; st = simdsv_reader_next(r, &rec)) {
        if (!record_texts(&s->f, &s->tb, &rec))
            return SIMDSV_ERR_NOMEM;
        for (size_t j = 0; !print && j < rec.field_count; j++)
            if (!measure(&s->ws, j, s->f.texts[j], s->f.lens[j]))
                return SIMDSV_ERR_NOMEM;
        if (print)
            print_row(&s->ws, s->f.texts, s->f.lens, rec.field_count, first && s->bold_header);
        first = false;
    }
    return st;
}

/* A stream: the first window of records kept and measured, printed, then
 * the rest printed as it comes. */
static simdsv_status window_then_rest(table_run *s, simdsv_reader *r)
{
    rows t;
    memset(&t, 0, sizeof t);
    simdsv_record rec;
    simdsv_status st = cli_header(s->c, r, &rec, &s->has_header);
    bool held = s->has_header;
    if (st == SIMDSV_OK && !s->has_header)
        held = (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK;
    /* Keep records while they fit the window; the record after it stays
     * in rec, not yet printed. */
    for (; st == SIMDSV_OK && held; held = (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        if (t.bytes.len + t.ncells * sizeof(cell) >= TABLE_WINDOW)
            break;
        if (!record_texts(&s->f, &s->tb, &rec) || !push_row(&t))
            st = SIMDSV_ERR_NOMEM;
        for (size_t j = 0; st == SIMDSV_OK && j < rec.field_count; j++)
            if (!measure(&s->ws, j, s->f.texts[j], s->f.lens[j]) || !push_cell(&t, s->f.texts[j], s->f.lens[j]))
                st = SIMDSV_ERR_NOMEM;
        t.row_start[t.nrows] = t.ncells;
    }
    if (st == SIMDSV_OK || st == SIMDSV_END) {
        /* No bytes at all when every cell is empty: never offset a null pointer. */
        const char *bytes = t.bytes.data ? t.bytes.data : "";
        for (size_t k = 0; k < t.nrows; k++) {
            const size_t from = t.row_start[k], n = t.row_start[k + 1] - from;
            if (!fields_reserve(&s->f, n)) {
                st = SIMDSV_ERR_NOMEM;
                break;
            }
            for (size_t j = 0; j < n; j++) {
                s->f.texts[j] = bytes + t.cells[from + j].offset;
                s->f.lens[j] = t.cells[from + j].len;
            }
            print_row(&s->ws, s->f.texts, s->f.lens, n, k == 0 && s->has_header && s->bold_header);
        }
    }
    rows_free(&t);
    for (; st == SIMDSV_OK && held; held = (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        if (!record_texts(&s->f, &s->tb, &rec))
            return SIMDSV_ERR_NOMEM;
        for (size_t j = 0; j < rec.field_count; j++)
            if (!measure(&s->ws, j, s->f.texts[j], s->f.lens[j]))
                return SIMDSV_ERR_NOMEM;
        print_row(&s->ws, s->f.texts, s->f.lens, rec.field_count, false);
    }
    return st;
}

int cmd_table(int argc, char **argv)
{
    cli_common c;
    unsigned long long max_width = 40;
    const cli_spec spec = {"table", help, CLI_OUTPUT | CLI_RECORDS | CLI_UTF8_LOSSY, 0, NULL, table_arg, &max_width};
    int status = cli_parse(&spec, argc, argv, &c);
    simdsv_reader *r = cli_begin(&c, &status);
    if (!r)
        return status;
    table_run s;
    memset(&s, 0, sizeof s);
    s.c = &c;
    s.ws.max = (size_t)max_width;
    text_init(&s.tb, &c);
    const char *no_color = getenv("NO_COLOR");
    s.bold_header = out_is_tty() && !(no_color && *no_color);
    uint64_t size;
    simdsv_status st;
    if (strcmp(c.file, "-") != 0 && input_seekable_fd(c.in, &size) >= 0) {
        /* Measure, then read the file again and print. */
        st = each_record(&s, r, false);
        if (st == SIMDSV_END) {
            cli_close(&c, r);
            r = cli_open(&c);
            st = r ? each_record(&s, r, true) : SIMDSV_ERR_IO;
        }
    } else {
        st = window_then_rest(&s, r);
    }
    status = r ? cli_end_of_records(&c, r, st) : EXIT_DATA;
    free(s.ws.w);
    free(s.f.texts);
    free(s.f.lens);
    text_free(&s.tb);
    if (r)
        cli_close(&c, r);
    cli_common_free(&c);
    return status;
}
