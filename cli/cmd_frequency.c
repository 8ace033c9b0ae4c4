/* cmd_frequency.c — simdsv frequency: the most frequent values per column. */
#include "cli.h"
#include "sketch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv frequency [OPTIONS] FILE\n"
    "Counts the values of each column and writes, as CSV with the header\n"
    "field,value,count, the most frequent ones of each column (most frequent first,\n"
    "ties in byte order of the value).  Columns are named by the header, or by their\n"
    "1-based index with --no-header.\n"
    "  --limit N          values per column (default 10; 0 = all)\n"
    "  --select SEL       only these columns (a selection, as for 'simdsv select')\n\n";

typedef struct freq_args {
    unsigned long long limit;
    const char *select;
} freq_args;

static arg_result freq_arg(void *ctx, int argc, char **argv, int *i)
{
    freq_args *a = ctx;
    arg_result res = cli_u64_option("--limit", argc, argv, i, &a->limit);
    if (res != ARG_NOT_MINE)
        return res;
    bool missing;
    const char *v = cli_option_value("--select", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (!v)
        return ARG_NOT_MINE;
    a->select = v;
    return ARG_TAKEN;
}

/* The order of the output: most frequent first, ties in byte order of the
 * value (a shorter value before a longer one it begins). */
static const value_counts *sort_table;

static int by_count(const void *pa, const void *pb)
{
    const value_count *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    const size_t n = a->len < b->len ? a->len : b->len;
    const int c = n ? memcmp(value_count_data(sort_table, a), value_count_data(sort_table, b), n) : 0;
    if (c)
        return c;
    return (a->len > b->len) - (a->len < b->len);
}

/* Moves the `limit` values that come first in by_count's order to
 * e[0..limit) (in no order): e[0..limit) is kept as a heap whose root comes
 * last of them, and each later value that comes before the root replaces
 * it.  Most values of a long tail are turned away by one comparison, where
 * sorting them all would cost n log n. */
static void sift_down(value_count *e, size_t limit, size_t i)
{
    for (;;) {
        size_t last = i;
        const size_t l = 2 * i + 1, r = l + 1;
        if (l < limit && by_count(&e[l], &e[last]) > 0)
            last = l;
        if (r < limit && by_count(&e[r], &e[last]) > 0)
            last = r;
        if (last == i)
            return;
        const value_count t = e[i];
        e[i] = e[last];
        e[last] = t;
        i = last;
    }
}

static void keep_first(value_count *e, size_t n, size_t limit)
{
    for (size_t i = limit / 2; i-- > 0;)
        sift_down(e, limit, i);
    for (size_t i = limit; i < n; i++)
        if (by_count(&e[i], &e[0]) < 0) {
            e[0] = e[i];
            sift_down(e, limit, 0);
        }
}

typedef struct freq_run {
    const cli_common *c;
    const freq_args *args;
    name_list names;
    bool has_header, resolved;
    size_t *cols, ncols;
    value_counts *tables;
    int out_delimiter;
    field_views views;
    value_ref *refs; /* one column's values in a batch */
    size_t refs_cap;
} freq_run;

/* The columns counted, from the header or (--no-header) the first record. */
static int resolve(freq_run *s, text_buffer *tb, const simdsv_record *rec)
{
    s->resolved = true;
    if (s->has_header && !names_from_record(&s->names, tb, rec))
        return -1;
    if (s->args->select) {
        int status = EXIT_DATA;
        s->cols = selector_resolve("frequency", s->args->select, s->has_header ? &s->names : NULL, rec->field_count,
                                   &s->ncols, &status);
        if (!s->cols)
            return status;
    } else {
        s->ncols = rec->field_count;
        s->cols = malloc(s->ncols * sizeof *s->cols);
        for (size_t k = 0; s->cols && k < s->ncols; k++)
            s->cols[k] = k;
    }
    s->tables = s->cols ? calloc(s->ncols, sizeof *s->tables) : NULL;
    return s->tables ? 0 : -1;
}

static int freq_header(void *ctx, text_buffer *tb, const simdsv_record *rec)
{
    freq_run *s = ctx;
    s->has_header = rec != NULL;
    if (!rec)
        return 0;
    const int status = resolve(s, tb, rec);
    if (status == 0)
        read_only_columns(s->c, s->cols, s->ncols);
    return status;
}

/* A batch, column by column: the column's values (decoded when they must
 * be) are counted as one run, which lets the table fetch their slots ahead. */
static int freq_batch(void *ctx, text_buffer *tb, const simdsv_batch *b)
{
    freq_run *s = ctx;
    if (!s->resolved) {
        simdsv_record rec;
        if (!batch_record(b, 0, &s->views, &rec))
            return -1;
        const int status = resolve(s, tb, &rec);
        if (status)
            return status;
    }
    if (s->refs_cap < b->count) {
        value_ref *grown = realloc(s->refs, b->count * sizeof *grown);
        if (!grown)
            return -1;
        s->refs = grown;
        s->refs_cap = b->count;
    }
    for (size_t c = 0; c < s->ncols; c++) {
        const size_t j = s->cols[c];
        text_reset(tb);
        for (size_t k = 0; k < b->count; k++) {
            value_ref *v = &s->refs[k];
            if (j >= simdsv_batch_fields(b, k)) { /* a short record: the value is empty */
                v->data = "";
                v->size = 0;
                continue;
            }
            const simdsv_field f = simdsv_batch_field(b, k, j);
            v->data = f.data;
            v->size = f.size;
            if ((f.flags & (SIMDSV_FIELD_NEEDS_UNESCAPE | SIMDSV_FIELD_INVALID_UTF8)) &&
                !text_of(tb, &f, &v->data, &v->size))
                return -1;
        }
        if (!value_counts_add_many(&s->tables[c], s->refs, b->count))
            return -1;
    }
    return 0;
}

/* The tables, most frequent values first. */
static int freq_finish(void *ctx)
{
    freq_run *s = ctx;
    if (!s->tables)
        return EXIT_OK;
    const int d = s->out_delimiter;
    out_csv_field("field", 5, d, false);
    out_byte((char)d);
    out_csv_field("value", 5, d, false);
    out_byte((char)d);
    out_str("count\n");
    for (size_t k = 0; k < s->ncols; k++) {
        value_counts *t = &s->tables[k];
        size_t n = 0;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].count)
                t->slots[n++] = t->slots[i];
        sort_table = t;
        if (s->args->limit && n > s->args->limit) {
            keep_first(t->slots, n, (size_t)s->args->limit);
            n = (size_t)s->args->limit;
        }
        if (n > 1)
            qsort(t->slots, n, sizeof *t->slots, by_count);
        char num[32];
        for (size_t i = 0; i < n; i++) {
            if (s->has_header) {
                out_csv_field(s->names.names[s->cols[k]], s->names.lens[s->cols[k]], d, false);
            } else {
                const int len = snprintf(num, sizeof num, "%zu", s->cols[k] + 1);
                out_write(num, (size_t)len);
            }
            out_byte((char)d);
            out_csv_field(value_count_data(t, &t->slots[i]), t->slots[i].len, d, false);
            const int len = snprintf(num, sizeof num, "%c%llu\n", d, (unsigned long long)t->slots[i].count);
            out_write(num, (size_t)len);
        }
    }
    return EXIT_OK;
}

int cmd_frequency(int argc, char **argv)
{
    cli_common c;
    freq_args args = {10, NULL};
    const cli_spec spec = {"frequency", help, CLI_OUTPUT | CLI_CSV_OUT | CLI_RECORDS, 0, NULL, freq_arg, &args};
    int status = cli_parse(&spec, argc, argv, &c);
    freq_run s;
    memset(&s, 0, sizeof s);
    s.c = &c;
    s.args = &args;
    s.out_delimiter = c.out_delimiter;
    const cli_record_ops ops = {freq_header, freq_batch, freq_finish, NULL};
    status = cli_run_records(&c, status, &ops, &s);
    if (s.tables)
        for (size_t k = 0; k < s.ncols; k++)
            value_counts_free(&s.tables[k]);
    free(s.tables);
    free(s.refs);
    free(s.cols);
    names_free(&s.names);
    field_views_free(&s.views);
    return status;
}
