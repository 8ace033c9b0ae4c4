/*
 * columns.c — the columns of the table read: each one's name (its header
 * rows' cells joined), and but for the record commands' detection its type
 * and value format over the body (thousands grouped by ',' or '.', a
 * decimal comma, a non-ISO date); then one date order and one decimal mark
 * for the reader.
 */
#include "sniff.h"

#include <stdio.h>
#include <string.h>

/* The value formats seen over the columns. */
typedef struct marks {
    int any_dc, any_dot, any_comma_groups, any_dot_groups;
} marks;

/* The name: the header rows' cells joined with a space. */
static void column_name(sniff_run *R, const table_read *tr, size_t c, simdsv_sniff_column *col)
{
    sniff_impl *s = R->s;
    const region *gs = R->gs;
    const rows *rs = &R->rs;
    const uint64_t header_rows = tr->header_rows;
    const size_t h0 = tr->h0, body_end = tr->body_end;
    char name[256], shown[3 * sizeof name + 1];
    size_t nl = 0;
    name[0] = '\0';
    size_t hr = 0;
    for (size_t i = h0; i < body_end && hr < header_rows; i++) {
        const sn_row *r = &rs->r[i];
        if (r->kind != ROW_DATA)
            continue;
        hr++;
        field_text x = c < r->nfields ? text_of(gs, rs, r, c) : (field_text){"", 0};
        /* An empty cell of an upper header row stands for its left neighbour (a merged cell). */
        for (size_t left = c; header_rows > 1 && hr < header_rows && !x.n && left > 0;) {
            left--;
            x = text_of(gs, rs, r, left);
        }
        if (!x.n)
            continue;
        const int wrote = snprintf(name + nl, sizeof name - nl, "%s%.*s", nl ? " " : "", (int)x.n, x.s);
        if (wrote > 0)
            nl = nl + (size_t)wrote < sizeof name ? nl + (size_t)wrote : sizeof name - 1;
    }
    col->name = tr->header ? keep(s, "%s", simdsv__sniff_utf8_name(&R->enc, name, nl, shown)) : "";
}

/* Type and value format over the body below the header rows; vals has room
 * for every body row's value. */
static void type_column(sniff_run *R, const table_read *tr, size_t c, simdsv_sniff_column *col, field_text *vals,
                        marks *m)
{
    sniff_impl *s = R->s;
    const region *gs = R->gs;
    const rows *rs = &R->rs;
    const uint64_t header_rows = tr->header_rows, footer_offset = R->footer_offset, skip0 = R->skip0;
    const size_t h0 = tr->h0, body_end = tr->body_end, width = tr->width;
    const int dc_allowed = R->dc_allowed;
    size_t nv = 0, nulls = 0, rowi = 0, texts_seen = 0;
    simdsv_type kind = SIMDSV_TYPE_NULL, typed_only = SIMDSV_TYPE_NULL;
    int dc_th = 0;
    size_t dc_hits = 0, dot_hits = 0;
    /* '1,234.56': ',' groups thousands (the plain number's decimal point); decided for the
     * column when every value reads so and one cannot be a decimal comma (two ',' or a '.'). */
    size_t grouped = 0, grouped_sure = 0, grouped_frac = 0, not_grouped = 0;
    /* '1.234.567' with a decimal comma: '.' groups an integer's digits. */
    size_t dot_grouped = 0, dot_grouped_sure = 0, not_dot_grouped = 0;
    for (size_t i = h0; i < body_end; i++) {
        const sn_row *r = &rs->r[i];
        if (r->kind != ROW_DATA || r->nfields != width)
            continue;
        if (rowi++ < header_rows)
            continue;
        if (footer_offset && r->region == R->conv.ng - 1 &&
            gs[r->region].offset + (r->region ? 0 : skip0) + r->off >= footer_offset)
            continue;
        const field_text x = text_of(gs, rs, r, c);
        if (!x.n) {
            nulls++;
            continue;
        }
        vals[nv++] = x;
        const simdsv_type k0 = simdsv__infer_field(x.s, x.n, 0, NULL);
        if (k0 == SIMDSV_TYPE_FLOAT64)
            dot_hits += memchr(x.s, '.', x.n) != NULL;
        double gv;
        if (k0 == SIMDSV_TYPE_STRING && simdsv__parse_double_grouped(x.s, x.n, ',', false, &gv)) {
            const char *comma = memchr(x.s, ',', x.n);
            const int frac = memchr(x.s, '.', x.n) != NULL;
            grouped++;
            grouped_frac += frac;
            grouped_sure += frac || memchr(comma + 1, ',', x.n - (size_t)(comma + 1 - x.s)) != NULL;
        } else if (k0 != SIMDSV_TYPE_INT64 && k0 != SIMDSV_TYPE_FLOAT64) {
            not_grouped++;
        }
        int64_t iv;
        if (dc_allowed && simdsv__parse_int64_grouped(x.s, x.n, '.', &iv)) {
            const char *dot = memchr(x.s, '.', x.n);
            dot_grouped++;
            dot_grouped_sure += memchr(dot + 1, '.', x.n - (size_t)(dot + 1 - x.s)) != NULL;
        } else if (k0 != SIMDSV_TYPE_INT64) {
            not_dot_grouped++;
        }
        if (dc_allowed && k0 == SIMDSV_TYPE_STRING && simdsv__sniff_decimal_comma_value(x.s, x.n, &dc_th)) {
            dc_hits++;
            kind = simdsv__kind_join(kind, SIMDSV_TYPE_FLOAT64);
        } else {
            kind = simdsv__kind_join(kind, k0);
            if (k0 == SIMDSV_TYPE_STRING)
                texts_seen++;
            else
                typed_only = simdsv__kind_join(typed_only, k0);
        }
    }
    col->type = kind;
    col->format = "";
    col->confidence = nv ? 0.95 : NOT_SURE;
    col->reason = nv ? keep(s, "%s over %zu values (%zu empty)", simdsv_type_name(kind), nv, nulls)
                     : keep(s, "not sure: no value in the sample (%zu empty)", nulls);
    if (kind == SIMDSV_TYPE_STRING && texts_seen && texts_seen * 50 <= nv && typed_kind(typed_only)) {
        /* A few texts among typed values: strays of a sample that
         * starts inside a quoted field, or real exceptions ("n/a"),
         * which the typed reader would read as text: said so. */
        col->type = typed_only;
        col->confidence = 0.7;
        col->reason = keep(s, "%s in %zu of %zu values; %zu text value%s (the reader makes the column a "
                              "string if the file holds them)",
                           simdsv_type_name(typed_only), nv - texts_seen, nv, texts_seen,
                           texts_seen == 1 ? "" : "s");
    }
    format_guess fg;
    if (grouped && grouped_sure && !not_grouped) {
        m->any_comma_groups = 1;
        col->type = grouped_frac || dot_hits ? SIMDSV_TYPE_FLOAT64 : SIMDSV_TYPE_INT64;
        col->format = "1,234.56";
        col->reason = keep(s, "%s with ',' grouping thousands in %zu of %zu values",
                           simdsv_type_name(col->type), grouped, nv);
        col->confidence = 0.9;
    } else if (dot_grouped && dot_grouped_sure && !not_dot_grouped && !dc_hits) {
        m->any_dot_groups = 1;
        col->type = SIMDSV_TYPE_INT64;
        col->format = "1.234.567";
        col->reason = keep(s, "int64 with '.' grouping thousands in %zu of %zu values", dot_grouped, nv);
        col->confidence = 0.8;
    } else if (dc_hits) {
        m->any_dc = 1;
        col->format = dc_th ? "1.234,56" : "decimal comma";
        col->reason = keep(s, "float64 with a decimal comma in %zu of %zu values%s", dc_hits, nv,
                           dc_th ? " ('.' groups thousands)" : "");
        m->any_dot_groups |= dc_th;
        col->confidence = 0.9;
    } else if (kind == SIMDSV_TYPE_STRING && nv && simdsv__sniff_guess_date(s, vals, nv, &fg)) {
        col->type = fg.type;
        col->format = fg.format;
        col->confidence = fg.confidence;
        col->reason = fg.reason;
    }
    /* A decimal point counts where the column reads as float64 with it. */
    m->any_dot |= dot_hits > 0 && col->type == SIMDSV_TYPE_FLOAT64 && !dc_hits;
}

simdsv_status simdsv__sniff_columns(sniff_run *R, const table_read *tr)
{
    sniff_impl *s = R->s;
    simdsv_sniff *out = &s->pub;
    const int dialect_only = R->dialect_only;
    const size_t kc = tr->kc;
    s->columns = simdsv__alloc(&s->alloc, (kc ? kc : 1) * sizeof *s->columns);
    /* The body and the first row (a row of data without a header). */
    const size_t vals_cap = tr->nbody_rows + 1;
    field_text *vals = dialect_only ? NULL : simdsv__alloc(&s->alloc, vals_cap * sizeof *vals);
    if (!s->columns || (!vals && !dialect_only)) {
        simdsv__free(&s->alloc, vals, vals_cap * sizeof *vals);
        /* freed here with its own size: the sniff's free would take the
         * column count, which is not set yet */
        simdsv__free(&s->alloc, s->columns, (kc ? kc : 1) * sizeof *s->columns);
        s->columns = NULL;
        return SIMDSV_ERR_NOMEM;
    }
    marks m = {0, 0, 0, 0};
    for (size_t c = 0; c < kc; c++) {
        simdsv_sniff_column *col = &s->columns[c];
        memset(col, 0, sizeof *col);
        column_name(R, tr, c, col);
        if (dialect_only) {
            col->type = SIMDSV_TYPE_NULL;
            col->format = "";
            col->reason = "not typed (dialect only)";
            continue;
        }
        type_column(R, tr, c, col, vals, &m);
    }
    simdsv__free(&s->alloc, vals, vals_cap * sizeof *vals);
    out->column_count = kc;
    out->columns = s->columns;
    /* One date order for the reader: the first non-ISO date column's, the others reported. */
    const char *order_from = NULL;
    size_t disagree = 0;
    for (size_t c = 0; c < kc; c++) {
        const char *f = s->columns[c].format;
        const simdsv_date_order o = !strncmp(f, "%d", 2)   ? SIMDSV_DATE_DMY
                                    : !strncmp(f, "%m", 2) ? SIMDSV_DATE_MDY
                                    : !strncmp(f, "%Y", 2) ? SIMDSV_DATE_YMD
                                                           : SIMDSV_DATE_ISO;
        if (o == SIMDSV_DATE_ISO)
            continue;
        if (!order_from) {
            out->date_order = o;
            order_from = s->columns[c].name;
            decide(s, SIMDSV_SNIFF_DATES, s->columns[c].confidence,
                   keep(s, "%s (column %zu%s%s)", f, c + 1, *order_from ? ": " : "", order_from));
        } else if (o != out->date_order) {
            disagree++;
        }
    }
    if (!order_from)
        decide(s, SIMDSV_SNIFF_DATES, 0.9, "no non-ISO date column");
    else if (disagree)
        decide(s, SIMDSV_SNIFF_DATES, NOT_SURE,
               keep(s, "not sure: %zu date columns in another order than %s's, read as text", disagree,
                    order_from));
    int64_t v = 0;
    if (is_given(R, SIMDSV_SNIFF_DATES)) {
        simdsv_options_get(R->opt, SIMDSV_OPT_DATE_ORDER, &v);
        out->date_order = (simdsv_date_order)v;
        decide(s, SIMDSV_SNIFF_DATES, 1, "given");
    }
    out->decimal_comma = m.any_dc && !m.any_dot && !m.any_comma_groups;
    /* One separator for the reader: ',' with a decimal point, '.' with a decimal comma. */
    out->thousands = out->decimal_comma ? (m.any_dot_groups ? '.' : 0) : m.any_comma_groups ? ',' : 0;
    if (is_given(R, SIMDSV_SNIFF_DECIMAL)) {
        simdsv_options_get(R->opt, SIMDSV_OPT_DECIMAL_COMMA, &v);
        out->decimal_comma = v != 0;
        simdsv_options_get(R->opt, SIMDSV_OPT_THOUSANDS, &v);
        out->thousands = v > 0 ? (int)v : 0;
        decide(s, SIMDSV_SNIFF_DECIMAL, 1, "given");
    } else {
        const int mixed = m.any_dc && (m.any_dot || m.any_comma_groups);
        decide(s, SIMDSV_SNIFF_DECIMAL, mixed ? NOT_SURE : 0.9,
               mixed ? "not sure: some columns use a decimal comma, others a decimal point"
               : out->thousands == '.' ? "decimal comma, '.' groups thousands (1.234,56)"
               : m.any_dc ? "decimal comma (numbers such as 3,14 where ',' is not the delimiter)"
               : out->thousands == ',' ? "decimal point, ',' groups thousands (1,234.56)"
                                       : "decimal point");
    }
    /* Nothing was typed: the defaults, and no claim about the values. */
    if (dialect_only && !is_given(R, SIMDSV_SNIFF_DATES))
        decide(s, SIMDSV_SNIFF_DATES, 0, "not looked for (dialect only)");
    if (dialect_only && !is_given(R, SIMDSV_SNIFF_DECIMAL))
        decide(s, SIMDSV_SNIFF_DECIMAL, 0, "not looked for (dialect only)");
    return SIMDSV_OK;
}
