/* cmd_table.c — simdsv table: aligned columns for a terminal.  The whole
 * input is read first (to know the widths). */
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
    "characters and invalid UTF-8 as U+FFFD.  On a terminal the header is bold\n"
    "(unless NO_COLOR is set).  The whole input is held in memory: for a look at a\n"
    "big file, use 'simdsv head FILE | simdsv table -'.\n"
    "  --width N          the widest a column may be (default 40, at least 1)\n\n";

typedef struct cell {
    size_t offset, len, width;
} cell;

typedef struct rows {
    strbuf bytes;
    cell *cells;
    size_t ncells, cap_cells;
    size_t *row_start; /* index of each row's first cell; one more entry at the end */
    size_t nrows, cap_rows;
} rows;

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
    t->cells[t->ncells].width = 0;
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

static arg_result table_arg(void *ctx, int argc, char **argv, int *i)
{
    unsigned long long *w = ctx;
    const arg_result res = cli_u64_option("--width", argc, argv, i, w);
    return res == ARG_TAKEN && (*w < 1 || *w > 1000000) ? ARG_BAD : res;
}

static bool keep_record(rows *t, text_buffer *tb, const simdsv_record *rec)
{
    if (!push_row(t))
        return false;
    text_reset(tb);
    for (size_t i = 0; i < rec->field_count; i++) {
        const char *data;
        size_t size;
        if (!text_field(tb, rec, i, &data, &size) || !push_cell(t, data, size))
            return false;
    }
    t->row_start[t->nrows] = t->ncells;
    return true;
}

static void print_table(rows *t, size_t max_width, bool bold_header)
{
    size_t ncols = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (t->row_start[r + 1] - t->row_start[r] > ncols)
            ncols = t->row_start[r + 1] - t->row_start[r];
    size_t *widths = calloc(ncols ? ncols : 1, sizeof *widths);
    if (!widths)
        return;
    /* No bytes at all when every cell is empty: never offset a null pointer. */
    const char *bytes = t->bytes.data ? t->bytes.data : "";
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t k = t->row_start[r]; k < t->row_start[r + 1]; k++) {
            cell *x = &t->cells[k];
            x->width = text_display(bytes + x->offset, x->len, SIZE_MAX, 0, false);
            const size_t w = x->width > max_width ? max_width : x->width;
            if (w > widths[k - t->row_start[r]])
                widths[k - t->row_start[r]] = w;
        }
    /* Trailing empty cells need no padding: find each row's last non-empty. */
    for (size_t r = 0; r < t->nrows; r++) {
        const size_t n = t->row_start[r + 1] - t->row_start[r];
        const bool bold = bold_header && r == 0;
        if (bold)
            out_str("\033[1m");
        size_t last = n;
        while (last > 0 && t->cells[t->row_start[r] + last - 1].width == 0)
            last--;
        for (size_t j = 0; j < last; j++) {
            const cell *x = &t->cells[t->row_start[r] + j];
            if (j)
                out_write("  ", 2);
            const size_t w = text_display(bytes + x->offset, x->len, widths[j], x->width, true);
            if (j + 1 < last && w < widths[j])
                out_pad(widths[j] - w);
        }
        if (bold)
            out_str("\033[0m");
        out_byte('\n');
    }
    free(widths);
}

int cmd_table(int argc, char **argv)
{
    cli_common c;
    unsigned long long max_width = 40;
    const cli_spec spec = {"table", help, CLI_OUTPUT, 0, NULL, table_arg, &max_width};
    int status = cli_parse(&spec, argc, argv, &c);
    simdsv_reader *r = cli_begin(&c, &status);
    if (!r)
        return status;
    text_buffer tb;
    text_init(&tb, &c);
    rows t;
    memset(&t, 0, sizeof t);
    simdsv_record rec;
    bool has_header;
    simdsv_status st = cli_header(&c, r, &rec, &has_header);
    if (st == SIMDSV_OK && has_header && !keep_record(&t, &tb, &rec))
        st = SIMDSV_ERR_NOMEM;
    while (st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
        if (!keep_record(&t, &tb, &rec))
            st = SIMDSV_ERR_NOMEM;
    status = cli_end_of_records(&c, r, st);
    if (status == EXIT_OK) {
        const char *no_color = getenv("NO_COLOR");
        const bool bold = has_header && out_is_tty() && !(no_color && *no_color);
        print_table(&t, (size_t)max_width, bold);
    }
    free(t.bytes.data);
    free(t.cells);
    free(t.row_start);
    text_free(&tb);
    cli_close(&c, r);
    cli_common_free(&c);
    return status;
}
