/*
 * stats_print.c — what `simdsv stats` prints from the merged statistics:
 * the table (cells cut to 40 bytes, estimates marked), the CSV and JSON
 * records (every digit, with the estimates' errors), and the --schema
 * misfits made null.  cmd_stats.c gathers; this file only formats.
 */
#include "stats.h"
#include "typed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const heads[] = {"column", "type", "count", "nulls", "distinct", "min", "p25",
                                    "median", "p75", "max", "mean", "sd", "sum", "min_len", "max_len"};
#define NHEADS (sizeof heads / sizeof heads[0])

/* A cell's text for the table: at most 40 bytes of a value (cut at a
 * character start, then "..."), "~" before an estimate. */
static void table_cell(char *dst, size_t size, const char *s, bool estimate)
{
    size_t n = strlen(s);
    const size_t max = 40;
    const bool cut = n > max;
    if (cut)
        for (n = max; n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80; n--)
            ;
    snprintf(dst, size, "%s%.*s%s", estimate && *s ? "~" : "", (int)n, s, cut ? "..." : "");
}

/* The name is written whole (as schema does); the other cells are cut. */
typedef struct table_row {
    const char *name;
    char cells[NHEADS][128];
} table_row;

static void fill_row(table_row *row, const char *name, const char *type, const stats_cells *sc)
{
    const char *values[NHEADS] = {name, type, sc->count, sc->nulls, sc->distinct, sc->min, sc->p25, sc->median,
                                  sc->p75, sc->max, sc->mean, sc->sd, sc->sum, sc->min_len, sc->max_len};
    row->name = name;
    for (size_t k = 1; k < NHEADS; k++) {
        const bool estimate = (k == 4 && !sc->distinct_exact) || (k >= 6 && k <= 8 && !sc->quantiles_exact);
        table_cell(row->cells[k], sizeof row->cells[k], values[k], estimate);
    }
}

/* A cell padded to width terminal columns (names and values come from the
 * file: their display form). */
static void cell(const char *s, size_t width, int right)
{
    const size_t n = cli_display_width(s);
    if (right && n < width)
        out_pad(width - n);
    text_display(s, strlen(s), SIZE_MAX, 0, true);
    if (!right && n < width)
        out_pad(width - n);
}

bool stats_print_table(const stats_report *rep)
{
    const column_stats *cols = rep->cols;
    size_t nrows = 0;
    for (size_t j = 0; j < rep->ncols; j++)
        nrows += 1 + (cols[j].misfits.count > 0);
    table_row *table = calloc(nrows ? nrows : 1, sizeof *table);
    if (!table)
        return false;
    bool approx_distinct = false, approx_quantiles = false, ok = true;
    size_t r = 0;
    for (size_t j = 0; j < rep->ncols; j++) {
        stats_cells sc;
        ok = stats_cells_of(&cols[j], false, &sc) && ok;
        fill_row(&table[r++], rep->names[j], simdsv_type_name(rep->types[j]), &sc);
        approx_distinct |= !sc.distinct_exact;
        approx_quantiles |= !sc.quantiles_exact;
        if (cols[j].misfits.count) {
            ok = stats_misfit_cells(&cols[j], false, &sc) && ok;
            fill_row(&table[r++], rep->names[j], "string", &sc);
            approx_distinct |= !sc.distinct_exact;
        }
    }
    size_t widths[NHEADS];
    for (size_t k = 0; k < NHEADS; k++) {
        widths[k] = strlen(heads[k]);
        for (size_t i = 0; i < nrows; i++) {
            const size_t w = cli_display_width(k ? table[i].cells[k] : table[i].name);
            widths[k] = w > widths[k] ? w : widths[k];
        }
    }
    widths[0] = widths[0] < CLI_PAD_MAX ? widths[0] : CLI_PAD_MAX;
    out_printf("%llu rows, %zu columns\n", (unsigned long long)rep->rows, rep->ncols);
    for (size_t i = 0; i <= nrows; i++) {
        for (size_t k = 0; k < NHEADS; k++) {
            cell(i == 0 ? heads[k] : k ? table[i - 1].cells[k] : table[i - 1].name, widths[k], k >= 2 && k <= 4);
            out_write(k + 1 < NHEADS ? "  " : "\n", k + 1 < NHEADS ? 2 : 1);
        }
    }
    free(table);
    if (approx_distinct)
        out_str("~distinct: a HyperLogLog estimate (standard error 0.81%); --exact counts exactly\n");
    if (approx_quantiles)
        out_str("~p25, ~median, ~p75: from a KLL sketch, within 1% of the rows of the exact position (99% "
                "confidence); --exact gives them exactly\n");
    for (size_t j = 0; j < rep->ncols; j++) {
        const text_stats *m = &cols[j].misfits;
        if (!m->count)
            continue;
        out_str("note: `");
        cell(rep->names[j], 0, 0);
        out_printf("` is %s, inferred from the first 8 MiB of rows; %llu later value%s did not fit it (the first, `",
                   simdsv_type_name(rep->types[j]), (unsigned long long)m->count, m->count == 1 ? "" : "s");
        cell(m->first_value, 0, 0);
        out_printf("`, at line %llu): the %s row describes the values that fit, the string row the others\n",
                   (unsigned long long)m->first_line, simdsv_type_name(rep->types[j]));
    }
    return ok;
}

/* csv and json: one record per column, and one more for a column's misfits. */
static const char *const fields[] = {"column",   "type",           "count", "nulls", "distinct", "distinct_error",
                                     "min",      "p25",            "median", "p75",  "max",      "quantile_error",
                                     "mean",     "sd",             "sum",   "min_length", "max_length", "note"};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* The texts of one record; numeric[k]: a JSON number (else a string; "" is null). */
typedef struct record_texts {
    const char *v[NFIELDS];
    bool numeric[NFIELDS];
} record_texts;

static void record_of(record_texts *rt, const char *name, const char *type, const stats_cells *sc, const char *note,
                      bool has_quantiles)
{
    static char distinct_error[16], quantile_error[16];
    snprintf(distinct_error, sizeof distinct_error, "%g", HLL_STD_ERROR);
    snprintf(quantile_error, sizeof quantile_error, "%g", KLL_RANK_ERROR);
    const char *v[NFIELDS] = {name,
                              type,
                              sc->count,
                              sc->nulls,
                              sc->distinct,
                              !sc->distinct[0] ? "" : sc->distinct_exact ? "0" : distinct_error,
                              sc->min,
                              sc->p25,
                              sc->median,
                              sc->p75,
                              sc->max,
                              !has_quantiles ? "" : sc->quantiles_exact ? "0" : quantile_error,
                              sc->mean,
                              sc->sd,
                              sc->sum,
                              sc->min_len,
                              sc->max_len,
                              note};
    for (size_t k = 0; k < NFIELDS; k++) {
        rt->v[k] = v[k];
        const bool value_field = k >= 6 && k <= 10;
        const bool special = strcmp(v[k], "NaN") == 0 || strstr(v[k], "Infinity") != NULL;
        rt->numeric[k] = k >= 2 && k != 17 && !special && (!value_field || sc->numeric);
    }
}

static void put_record(const record_texts *rt, int format, int delimiter, bool first)
{
    if (format == STATS_FORMAT_CSV) {
        for (size_t k = 0; k < NFIELDS; k++) {
            if (k)
                out_byte((char)delimiter);
            out_csv_field(rt->v[k], strlen(rt->v[k]), delimiter, NFIELDS == 1);
        }
        out_byte('\n');
        return;
    }
    out_str(first ? "\n    {" : ",\n    {");
    for (size_t k = 0; k < NFIELDS; k++) {
        if (k)
            out_str(", ");
        out_json_string(fields[k], strlen(fields[k]));
        out_str(": ");
        if (!rt->v[k][0])
            out_str("null");
        else if (rt->numeric[k])
            out_str(rt->v[k]);
        else
            out_json_string(rt->v[k], strlen(rt->v[k]));
    }
    out_byte('}');
}

bool stats_print_records(const stats_report *rep, int format, int d)
{
    const column_stats *cols = rep->cols;
    if (format == STATS_FORMAT_CSV) {
        for (size_t k = 0; k < NFIELDS; k++) {
            if (k)
                out_byte((char)d);
            out_csv_field(fields[k], strlen(fields[k]), d, false);
        }
        out_byte('\n');
    } else {
        out_printf("{\"rows\": %llu, \"columns\": [", (unsigned long long)rep->rows);
    }
    bool ok = true, first = true;
    for (size_t j = 0; j < rep->ncols; j++) {
        const column_stats *cs = &cols[j];
        const simdsv_type type = rep->types[j];
        const bool has_quantiles = type == SIMDSV_TYPE_INT64 || type == SIMDSV_TYPE_FLOAT64 ||
                                   type == SIMDSV_TYPE_DATE || type == SIMDSV_TYPE_TIMESTAMP;
        char note[160] = "";
        if (cs->misfits.count)
            snprintf(note, sizeof note, "%llu later value%s did not fit %s: see the next record",
                     (unsigned long long)cs->misfits.count, cs->misfits.count == 1 ? "" : "s", simdsv_type_name(type));
        else if (cs->rejected)
            snprintf(note, sizeof note, "%llu values did not fit %s and were made null (--on-error null)",
                     (unsigned long long)cs->rejected, simdsv_type_name(type));
        stats_cells sc;
        record_texts rt;
        ok = stats_cells_of(cs, true, &sc) && ok;
        record_of(&rt, rep->names[j], simdsv_type_name(type), &sc, note, has_quantiles && cs->count);
        put_record(&rt, format, d, first);
        first = false;
        if (cs->misfits.count) {
            snprintf(note, sizeof note, "values that did not fit %s (inferred from the first 8 MiB), from line %llu",
                     simdsv_type_name(type), (unsigned long long)cs->misfits.first_line);
            ok = stats_misfit_cells(cs, true, &sc) && ok;
            record_of(&rt, rep->names[j], "string", &sc, note, false);
            put_record(&rt, format, d, false);
        }
    }
    if (format == STATS_FORMAT_JSON)
        out_str(rep->ncols ? "\n]}\n" : "]}\n");
    return ok;
}

static int by_line(const void *pa, const void *pb)
{
    const stats_reject *a = pa, *b = pb;
    if (a->input != b->input)
        return a->input < b->input ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return (a->column > b->column) - (a->column < b->column);
}

/* The --schema misfits made null: the first STATS_REJECTS_SHOWN in input
 * order, then a count. */
void stats_print_rejects(const stats_report *rep, stats_reject *all, size_t n, uint64_t total)
{
    if (n > 1)
        qsort(all, n, sizeof *all, by_line);
    const size_t shown = n < STATS_REJECTS_SHOWN ? n : STATS_REJECTS_SHOWN;
    for (size_t i = 0; i < shown; i++) {
        const stats_reject *r = &all[i];
        out_str("rejected: ");
        if (r->file) {
            cell(r->file, 0, 0);
            out_str(", ");
        }
        out_printf("line %llu, column %zu (", (unsigned long long)r->line, r->column + 1);
        cell(rep->names[r->column], 0, 0);
        out_str("): `");
        cell(r->value, 0, 0);
        out_str("`: ");
        cell(r->reason, 0, 0);
        out_byte('\n');
    }
    if (total > shown)
        out_printf("rejected: %llu more values\n", (unsigned long long)(total - shown));
}
