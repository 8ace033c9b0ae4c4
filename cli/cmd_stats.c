/* cmd_stats.c — simdsv stats: a full typed read, then per column its type,
 * count of values, nulls, min, max and (for numbers) the mean, computed from
 * the exported Arrow arrays. */
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
    "a --schema type (with --on-error null) are listed after the table.\n\n" CLI_TYPED_HELP;

static int valid(const struct ArrowArray *a, int64_t i)
{
    return (((const uint8_t *)a->buffers[0])[i / 8] >> (i % 8)) & 1;
}

typedef struct column_stats {
    int64_t count, nulls;
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

static void compute(const struct ArrowSchema *s, const struct ArrowArray *a, column_stats *st)
{
    memset(st, 0, sizeof *st);
    st->nulls = a->null_count;
    st->count = a->length - a->null_count;
    strcpy(st->min, "");
    strcpy(st->max, "");
    strcpy(st->mean, "");
    if (st->count == 0 || strcmp(s->format, "n") == 0)
        return;
    const char *f = s->format;
    if (strcmp(f, "l") == 0 || strcmp(f, "tdD") == 0 || strcmp(f, "tsu:UTC") == 0) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        long double sum = 0;
        for (int64_t i = 0; i < a->length; i++) {
            if (!valid(a, i))
                continue;
            const int64_t v = f[0] == 't' && f[1] == 'd' ? ((const int32_t *)a->buffers[1])[i]
                                                         : ((const int64_t *)a->buffers[1])[i];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
            sum += v;
        }
        if (f[0] == 'l') {
            snprintf(st->min, sizeof st->min, "%" PRId64, lo);
            snprintf(st->max, sizeof st->max, "%" PRId64, hi);
            snprintf(st->mean, sizeof st->mean, "%.6Lg", sum / st->count);
        } else if (f[1] == 'd') {
            cli_format_date(st->min, sizeof st->min, lo);
            cli_format_date(st->max, sizeof st->max, hi);
        } else {
            cli_format_timestamp(st->min, sizeof st->min, lo);
            cli_format_timestamp(st->max, sizeof st->max, hi);
        }
    } else if (strcmp(f, "g") == 0) {
        double lo = 0, hi = 0;
        long double sum = 0;
        int first = 1;
        for (int64_t i = 0; i < a->length; i++) {
            if (!valid(a, i))
                continue;
            const double v = ((const double *)a->buffers[1])[i];
            if (first || v < lo)
                lo = v;
            if (first || v > hi)
                hi = v;
            first = 0;
            sum += v;
        }
        snprintf(st->min, sizeof st->min, "%.17g", lo);
        snprintf(st->max, sizeof st->max, "%.17g", hi);
        snprintf(st->mean, sizeof st->mean, "%.6Lg", sum / st->count);
    } else if (strcmp(f, "b") == 0) {
        int64_t trues = 0;
        for (int64_t i = 0; i < a->length; i++)
            trues += valid(a, i) && ((((const uint8_t *)a->buffers[1])[i / 8] >> (i % 8)) & 1);
        strcpy(st->min, trues < st->count ? "false" : "true");
        strcpy(st->max, trues > 0 ? "true" : "false");
        snprintf(st->mean, sizeof st->mean, "%.6g", (double)trues / (double)st->count); /* share of true */
    } else if (strcmp(f, "u") == 0) {
        const int32_t *off = a->buffers[1];
        const char *chars = a->buffers[2];
        int64_t lo = -1, hi = -1;
        for (int64_t i = 0; i < a->length; i++) {
            if (!valid(a, i))
                continue;
            const size_t n = (size_t)(off[i + 1] - off[i]);
            if (lo < 0) {
                lo = hi = i;
                continue;
            }
            const size_t nl = (size_t)(off[lo + 1] - off[lo]), nh = (size_t)(off[hi + 1] - off[hi]);
            int c = memcmp(chars + off[i], chars + off[lo], n < nl ? n : nl);
            if (c < 0 || (c == 0 && n < nl))
                lo = i;
            c = memcmp(chars + off[i], chars + off[hi], n < nh ? n : nh);
            if (c > 0 || (c == 0 && n > nh))
                hi = i;
        }
        char tmp[4096];
        size_t n = (size_t)(off[lo + 1] - off[lo]);
        n = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
        memcpy(tmp, chars + off[lo], n);
        tmp[n] = '\0';
        shorten(st->min, sizeof st->min, tmp, n);
        n = (size_t)(off[hi + 1] - off[hi]);
        n = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
        memcpy(tmp, chars + off[hi], n);
        tmp[n] = '\0';
        shorten(st->max, sizeof st->max, tmp, n);
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
    struct ArrowSchema s;
    struct ArrowArray a;
    if (simdsv_table_export(t, &s, &a) != SIMDSV_OK) {
        cli_error("out of memory");
        simdsv_table_free(t);
        cli_common_free(&c);
        return out_finish(EXIT_DATA);
    }
    column_stats *stats = calloc(n ? n : 1, sizeof *stats);
    const char *heads[7] = {"column", "type", "count", "nulls", "min", "max", "mean"};
    size_t widths[7];
    for (int k = 0; k < 7; k++)
        widths[k] = strlen(heads[k]);
    for (size_t i = 0; stats && i < n; i++) {
        compute(s.children[i], a.children[i], &stats[i]);
        simdsv_column_info info;
        simdsv_table_column(t, i, &info);
        char num[32];
        const size_t w[7] = {cli_display_width(s.children[i]->name), strlen(simdsv_type_name(info.type)),
                             (size_t)snprintf(num, sizeof num, "%" PRId64, stats[i].count),
                             (size_t)snprintf(num, sizeof num, "%" PRId64, stats[i].nulls),
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
        snprintf(count, sizeof count, "%" PRId64, stats[i].count);
        snprintf(nulls, sizeof nulls, "%" PRId64, stats[i].nulls);
        const char *cells[7] = {s.children[i]->name, simdsv_type_name(info.type), count, nulls,
                                stats[i].min, stats[i].max, stats[i].mean};
        for (int k = 0; k < 7; k++) {
            cell(cells[k], widths[k], k >= 2 && k <= 3);
            out_write(k < 6 ? "  " : "\n", k < 6 ? 2 : 1);
        }
    }
    const size_t rejects = simdsv_table_reject_count(t);
    for (size_t i = 0; i < rejects; i++) {
        const simdsv_reject *r = simdsv_table_reject(t, i);
        out_printf("rejected: line %llu, column %zu (", (unsigned long long)r->line, r->column + 1);
        cell(s.children[r->column]->name, 0, 0);
        out_str("): `");
        cell(r->value, 0, 0);
        out_str("`: ");
        cell(r->reason, 0, 0);
        out_byte('\n');
    }
    free(stats);
    a.release(&a);
    s.release(&s);
    simdsv_table_free(t);
    status = out_finish(stats ? status : EXIT_DATA);
    cli_common_free(&c);
    return status;
}
