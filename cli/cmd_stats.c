/* cmd_stats.c — simdsv stats: a full typed read, then per column its type,
 * count of values, nulls, min, max and (for numbers) the mean, computed from
 * the table's column views (simdsv_table_column_view). */
#include "typed.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv stats [OPTIONS] FILE\n"
    "Reads every row into typed columns and prints, per column: type, count of\n"
    "values, nulls, min, max, and the mean of numbers.  Dates print as YYYY-MM-DD,\n"
    "timestamps as UTC ISO 8601; strings compare by bytes.  Values that did not fit\n"
    "a --schema type (with --on-error null) are listed after the table (the first\n"
    "20, then a count of the others).  Floats print in the shortest form that\n"
    "reads back as the same number.\n\n" CLI_TYPED_HELP;

/* Rejects listed after the table; the rest are counted (a file of bad
 * values would otherwise print one line per row). */
#define STATS_REJECTS_SHOWN 20

typedef struct column_stats {
    uint64_t count, nulls;
    char min[96], max[96], mean[48];
} column_stats;

static void shorten(char *dst, size_t size, const char *s, size_t n)
{
    if (n >= size)
        n = size - 4; /* "..." keeps the cell readable; cut at a character start */
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    memcpy(dst, s, n);
    strcpy(dst + n, n < strlen(s) && n == size - 4 ? "..." : "");
}

/* A cell for text that is not NUL-terminated. */
static void text_cell(char *dst, size_t size, const char *s, size_t n)
{
    char tmp[4096];
    n = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    shorten(dst, size, tmp, n);
}

static int bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    const int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : (na > nb) - (na < nb);
}

static void compute(const simdsv_column_view *v, column_stats *st)
{
    memset(st, 0, sizeof *st);
    st->nulls = v->null_count;
    st->count = v->length - v->null_count;
    if (st->count == 0)
        return;
    switch (v->type) {
    case SIMDSV_TYPE_INT64:
    case SIMDSV_TYPE_DATE:
    case SIMDSV_TYPE_TIMESTAMP: {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        long double sum = 0;
        for (uint64_t i = 0; i < v->length; i++) {
            if (!simdsv_view_valid(v, i))
                continue;
            const int64_t x = v->type == SIMDSV_TYPE_DATE ? simdsv_view_date(v, i) : simdsv_view_int64(v, i);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
            sum += x;
        }
        if (v->type == SIMDSV_TYPE_INT64) {
            snprintf(st->min, sizeof st->min, "%" PRId64, lo);
            snprintf(st->max, sizeof st->max, "%" PRId64, hi);
            snprintf(st->mean, sizeof st->mean, "%.6Lg", sum / st->count);
        } else if (v->type == SIMDSV_TYPE_DATE) {
            cli_format_date(st->min, sizeof st->min, lo);
            cli_format_date(st->max, sizeof st->max, hi);
        } else {
            cli_format_timestamp(st->min, sizeof st->min, lo);
            cli_format_timestamp(st->max, sizeof st->max, hi);
        }
        return;
    }
    case SIMDSV_TYPE_FLOAT64: {
        double lo = 0, hi = 0;
        long double sum = 0;
        int first = 1;
        for (uint64_t i = 0; i < v->length; i++) {
            if (!simdsv_view_valid(v, i))
                continue;
            const double x = simdsv_view_float64(v, i);
            if (first || x < lo)
                lo = x;
            if (first || x > hi)
                hi = x;
            first = 0;
            sum += x;
        }
        cli_format_double(st->min, sizeof st->min, lo);
        cli_format_double(st->max, sizeof st->max, hi);
        snprintf(st->mean, sizeof st->mean, "%.6Lg", sum / st->count);
        return;
    }
    case SIMDSV_TYPE_BOOL: {
        uint64_t trues = 0;
        for (uint64_t i = 0; i < v->length; i++)
            trues += simdsv_view_valid(v, i) && simdsv_view_bool(v, i);
        strcpy(st->min, trues < st->count ? "false" : "true");
        strcpy(st->max, trues > 0 ? "true" : "false");
        snprintf(st->mean, sizeof st->mean, "%.6g", (double)trues / (double)st->count); /* share of true */
        return;
    }
    case SIMDSV_TYPE_STRING: { /* 32- or 64-bit offsets alike */
        const char *lo = NULL, *hi = NULL;
        size_t nlo = 0, nhi = 0;
        for (uint64_t i = 0; i < v->length; i++) {
            if (!simdsv_view_valid(v, i))
                continue;
            size_t n;
            const char *x = simdsv_view_string(v, i, &n);
            if (!lo || bytes_cmp(x, n, lo, nlo) < 0) {
                lo = x;
                nlo = n;
            }
            if (!hi || bytes_cmp(x, n, hi, nhi) > 0) {
                hi = x;
                nhi = n;
            }
        }
        text_cell(st->min, sizeof st->min, lo, nlo);
        text_cell(st->max, sizeof st->max, hi, nhi);
        return;
    }
    case SIMDSV_TYPE_NULL:
        return;
    }
}

/* A cell padded to width terminal columns (in its display form: names and
 * values come from the file). */
static void cell(const char *s, size_t width, int right)
{
    const size_t n = cli_display_width(s);
    if (right && n < width)
        out_pad(width - n);
    text_display(s, strlen(s), SIZE_MAX, 0, true);
    if (!right && n < width)
        out_pad(width - n);
}

int cmd_stats(int argc, char **argv)
{
    cli_common c;
    const cli_spec spec = {"stats", help, CLI_OUTPUT, 0, NULL, cli_typed_arg, &c};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    simdsv_table *t = cli_read_table(&c, 0, &status);
    if (!t) {
        status = out_finish(status);
        cli_common_free(&c);
        return status;
    }
    const size_t n = simdsv_table_columns(t);
    const uint64_t rows = simdsv_table_rows(t);
    column_stats *stats = calloc(n ? n : 1, sizeof *stats);
    const char *heads[7] = {"column", "type", "count", "nulls", "min", "max", "mean"};
    size_t widths[7];
    for (int k = 0; k < 7; k++)
        widths[k] = strlen(heads[k]);
    for (size_t i = 0; stats && i < n; i++) {
        simdsv_column_view view;
        simdsv_table_column_view(t, i, &view);
        compute(&view, &stats[i]);
        simdsv_column_info info;
        simdsv_table_column(t, i, &info);
        char num[32];
        const size_t w[7] = {cli_display_width(info.name), strlen(simdsv_type_name(info.type)),
                             cli_format(num, sizeof num, "%" PRIu64, stats[i].count),
                             cli_format(num, sizeof num, "%" PRIu64, stats[i].nulls),
                             cli_display_width(stats[i].min), cli_display_width(stats[i].max),
                             strlen(stats[i].mean)};
        for (int k = 0; k < 7; k++)
            widths[k] = w[k] > widths[k] ? w[k] : widths[k];
    }
    widths[0] = widths[0] < CLI_PAD_MAX ? widths[0] : CLI_PAD_MAX;
    out_printf("%llu rows, %zu columns\n", (unsigned long long)rows, n);
    for (int k = 0; k < 7; k++) {
        cell(heads[k], widths[k], k >= 2 && k <= 3);
        out_write(k < 6 ? "  " : "\n", k < 6 ? 2 : 1);
    }
    for (size_t i = 0; stats && i < n; i++) {
        simdsv_column_info info;
        simdsv_table_column(t, i, &info);
        char count[32], nulls[32];
        snprintf(count, sizeof count, "%" PRIu64, stats[i].count);
        snprintf(nulls, sizeof nulls, "%" PRIu64, stats[i].nulls);
        const char *cells[7] = {info.name, simdsv_type_name(info.type), count, nulls,
                                stats[i].min, stats[i].max, stats[i].mean};
        for (int k = 0; k < 7; k++) {
            cell(cells[k], widths[k], k >= 2 && k <= 3);
            out_write(k < 6 ? "  " : "\n", k < 6 ? 2 : 1);
        }
    }
    const size_t rejects = simdsv_table_reject_count(t);
    const size_t shown = rejects < STATS_REJECTS_SHOWN ? rejects : STATS_REJECTS_SHOWN;
    for (size_t i = 0; i < shown; i++) {
        const simdsv_reject *r = simdsv_table_reject(t, i);
        out_printf("rejected: line %llu, column %zu (", (unsigned long long)r->line, r->column + 1);
        simdsv_column_info info;
        simdsv_table_column(t, r->column, &info);
        cell(info.name, 0, 0);
        out_str("): `");
        cell(r->value, 0, 0);
        out_str("`: ");
        cell(r->reason, 0, 0);
        out_byte('\n');
    }
    if (rejects > shown)
        out_printf("rejected: %zu more values\n", rejects - shown);
    free(stats);
    simdsv_table_free(t);
    status = out_finish(stats ? status : EXIT_DATA);
    cli_common_free(&c);
    return status;
}
