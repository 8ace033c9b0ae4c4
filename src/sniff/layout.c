/*
 * layout.c — where the table read starts and ends in the rows of the
 * sample parsed with the chosen dialect: a preamble before the first run of
 * rows with the table's field count, more tables after it (a repeated
 * header, or after a blank line a row whose field count changes or that
 * reads as a header again), a footer of a few rows after the last one; then
 * which table is read and those offsets as input offsets.
 */
#include "sniff.h"

#include <string.h>

static int fields_equal(const region *gs, const rows *rs, const sn_row *a, const sn_row *b)
{
    if (a->nfields != b->nfields)
        return 0;
    for (size_t i = 0; i < a->nfields; i++) {
        const field_text x = text_of(gs, rs, a, i), y = text_of(gs, rs, b, i);
        if (x.n != y.n || memcmp(x.s, y.s, x.n) != 0)
            return 0;
    }
    return 1;
}

/* 1 when some field of row r has text: a row of empty fields names nothing,
 * so its repetition is no repeated header. */
static int has_text(const region *gs, const rows *rs, const sn_row *r)
{
    for (size_t i = 0; i < r->nfields; i++)
        if (text_of(gs, rs, r, i).n)
            return 1;
    return 0;
}

/* The preamble: the first row of a run of rows with k fields (or the first
 * row of data, or nstart when there is none). */
static size_t table_start(const sniff_run *R)
{
    const rows *rs = &R->rs;
    const size_t nstart = R->nstart, k = R->best.k;
    size_t t0 = SIZE_MAX;
    for (size_t i = 0; i < nstart; i++) {
        const sn_row *r = &rs->r[i];
        if (r->kind != ROW_DATA || r->nfields != k)
            continue;
        size_t run = 0, need = 0;
        for (size_t j = i + 1; j < nstart && need < 3; j++) {
            if (rs->r[j].kind != ROW_DATA)
                continue;
            need++;
            run += rs->r[j].nfields == k;
        }
        /* Rows are skipped as a preamble only before a table of some length. */
        if (run == need && (i == 0 || need >= 2)) {
            t0 = i;
            break;
        }
    }
    if (t0 == SIZE_MAX) {
        for (t0 = 0; t0 < nstart && rs->r[t0].kind != ROW_DATA; t0++) {
        }
    }
    return t0;
}

/* The tables of the start from row t0 (R->tbl, R->first_row, R->ntables). */
static void find_tables(sniff_run *R, size_t t0)
{
    const region *gs = R->gs;
    const rows *rs = &R->rs;
    const size_t nstart = R->nstart;
    const uint64_t skip0 = R->skip0;
    const int dc_allowed = R->dc_allowed;
    simdsv_sniff_table *tbl = R->tbl;
    size_t *first_row = R->first_row;
    size_t ntables = 0;
    size_t last_data[16];
    if (t0 < nstart) {
        memset(&tbl[0], 0, sizeof tbl[0]);
        tbl[0].first_line = rs->r[t0].line;
        tbl[0].columns = rs->r[t0].nfields;
        tbl[0].byte_start = gs[0].offset + skip0 + rs->r[t0].off;
        first_row[0] = t0;
        last_data[0] = t0;
        ntables = 1;
        int blank = 0;
        for (size_t i = t0 + 1; i < nstart; i++) {
            const sn_row *r = &rs->r[i];
            if (r->kind == ROW_BLANK) {
                blank = 1;
                continue;
            }
            if (r->kind != ROW_DATA)
                continue;
            simdsv_sniff_table *t = &tbl[ntables - 1];
            const sn_row *h = &rs->r[first_row[ntables - 1]];
            int starts = 0;
            if (r->nfields == t->columns && fields_equal(gs, rs, r, h) && has_text(gs, rs, h)) {
                starts = 1;
            } else if (r->nfields >= 2 && (r->nfields != t->columns || blank)) {
                /* A new table if at least two rows follow with this count before the next blank line. */
                size_t same = 0, seen = 0;
                for (size_t j = i + 1; j < nstart && seen < 3; j++) {
                    if (rs->r[j].kind == ROW_BLANK)
                        break;
                    if (rs->r[j].kind != ROW_DATA)
                        continue;
                    seen++;
                    same += rs->r[j].nfields == r->nfields;
                }
                if (r->nfields != t->columns)
                    starts = same >= 2 && same == seen;
                else if (same >= 1 && same == seen) {
                    /* Same width after a blank line: a new table only if this row is a header again. */
                    size_t text_here = 0, typed_below = 0;
                    for (size_t f = 0; f < r->nfields; f++) {
                        const simdsv_type hk = simdsv__sniff_kind_of(text_of(gs, rs, r, f), dc_allowed);
                        const sn_row *below = i + 1 < nstart ? &rs->r[i + 1] : NULL;
                        const simdsv_type bk =
                            below && below->kind == ROW_DATA && below->nfields == r->nfields
                                ? simdsv__sniff_kind_of(text_of(gs, rs, below, f), dc_allowed)
                                : SIMDSV_TYPE_NULL;
                        if (typed_kind(bk)) {
                            typed_below++;
                            text_here += hk == SIMDSV_TYPE_STRING;
                        }
                    }
                    starts = typed_below && text_here == typed_below;
                }
            }
            blank = 0;
            if (starts && ntables < 16) {
                t->last_line = rs->r[last_data[ntables - 1]].line;
                t->byte_end = gs[0].offset + skip0 + rs->r[last_data[ntables - 1]].end;
                simdsv_sniff_table *nt = &tbl[ntables];
                memset(nt, 0, sizeof *nt);
                nt->first_line = r->line;
                nt->columns = r->nfields;
                nt->byte_start = gs[0].offset + skip0 + r->off;
                first_row[ntables] = i;
                last_data[ntables] = i;
                ntables++;
                continue;
            }
            if (r->nfields == t->columns || (r->nfields >= 2 && i + 1 < nstart))
                last_data[ntables - 1] = i;
        }
    }
    R->ntables = ntables;
}

typedef struct footer {
    uint64_t lines, offset; /* offset: in gs (0: none) */
    const char *reason;
    double conf;
} footer;

/* Footer: trailing rows after the last table row of the right width. */
static footer find_footer(sniff_run *R)
{
    sniff_impl *s = R->s;
    const region *gs = R->gs;
    const rows *rs = &R->rs;
    const uint64_t skip0 = R->skip0;
    const size_t ntables = R->ntables;
    simdsv_sniff_table *tbl = R->tbl;
    const size_t *first_row = R->first_row;
    uint64_t footer_lines = 0, footer_offset = 0;
    const char *footer_reason = "no footer: the table runs to the end";
    double footer_conf = 1;
    if (ntables) {
        const size_t lt = ntables - 1;
        const size_t width = tbl[lt].columns;
        /* The rows of the end: the start when it is the whole input, else the end region. */
        const size_t endg = R->conv.ng > 1 ? R->conv.ng - 1 : 0;
        const int whole = gs[endg].complete;
        if (whole) {
            size_t lo = endg == 0 ? first_row[lt] + 1 : 0, hi = rs->nr;
            if (endg != 0)
                for (lo = 0; lo < rs->nr && rs->r[lo].region != endg; lo++) {
                }
            size_t tail = hi;
            for (size_t i = hi; i > lo; i--) {
                const sn_row *r = &rs->r[i - 1];
                if (r->kind == ROW_DATA && r->nfields == width)
                    break;
                if (r->kind == ROW_DATA)
                    tail = i - 1;
            }
            size_t notes = 0;
            for (size_t i = tail; i < hi; i++)
                notes += rs->r[i].kind == ROW_DATA;
            /* A footer is a few clean rows after a table of some length, set
             * apart by a blank line or narrower than the table: rows that are
             * merely ragged or broken stay in the table (check reports them). */
            size_t table_rows = 0, broken = 0, narrow = 0;
            for (size_t i = endg == 0 ? first_row[lt] : lo; i < tail; i++)
                table_rows += rs->r[i].kind == ROW_DATA && rs->r[i].nfields == width;
            for (size_t i = tail; i < hi; i++) {
                broken += rs->r[i].kind == ROW_DATA && rs->r[i].bad;
                narrow += rs->r[i].kind == ROW_DATA && rs->r[i].nfields * 2 <= width;
            }
            const int apart = tail > lo && rs->r[tail - 1].kind == ROW_BLANK;
            if (tail < hi && notes && notes <= 10 && table_rows >= 3 && !broken && (apart || narrow == notes)) {
                const sn_row *f = &rs->r[tail];
                footer_offset = gs[endg].offset + (endg == 0 ? skip0 : 0) + f->off;
                footer_lines = simdsv__sniff_count_lines(gs[endg].p + f->off, gs[endg].n - f->off);
                footer_reason = keep(s, "%zu row%s after the table with other than %zu fields (totals or notes)",
                                     notes, notes == 1 ? "" : "s", width);
                footer_conf = 0.8;
                /* Blank lines just before the footer end the table too. */
                for (size_t i = tail; i > lo && rs->r[i - 1].kind == ROW_BLANK; i--) {
                    footer_offset = gs[endg].offset + (endg == 0 ? skip0 : 0) + rs->r[i - 1].off;
                    footer_lines++;
                }
                if (endg == 0)
                    tbl[lt].last_line = rs->r[tail].line - 1;
            } else if (endg == 0) {
                for (size_t i = hi; i > lo; i--)
                    if (rs->r[i - 1].kind == ROW_DATA) {
                        tbl[lt].last_line = rs->r[i - 1].line;
                        break;
                    }
            }
        } else {
            footer_reason = "not looked for: only the start of a stream was sampled";
            footer_conf = NOT_SURE;
        }
    }
    const footer result = {footer_lines, footer_offset, footer_reason, footer_conf};
    return result;
}

void simdsv__sniff_layout(sniff_run *R)
{
    sniff_impl *s = R->s;
    simdsv_sniff *out = &s->pub;
    const rows *rs = &R->rs;
    const size_t nstart = R->nstart, k = R->best.k;
    /* Decimal comma: decided per column (header.c), allowed when ',' is not the delimiter. */
    R->dc_allowed = R->d.delim[0] != ',' || R->d.dlen > 1;
    const size_t t0 = table_start(R);
    out->skip_lines = t0 < nstart ? rs->r[t0].line - 1 : 0;
    find_tables(R, t0);
    const footer f = find_footer(R);
    const char *footer_reason = f.reason;
    uint64_t footer_offset = f.offset;
    const size_t ntables = R->ntables;
    simdsv_sniff_table *tbl = R->tbl;
    /* Where the reader cuts: input offsets.  A UTF-16 sample maps back (two
     * or four input bytes per code point); another converted one does not. */
    uint64_t footer_cut = footer_offset;
    if (R->converted && R->enc.kind != ENCODING_ICONV) {
        const sniff_input *in = R->in, *conv = &R->conv;
        for (size_t t = 0; t < ntables; t++) {
            tbl[t].byte_start = simdsv__sniff_utf16_offset(in, conv, R->bufs, 0, (size_t)tbl[t].byte_start);
            if (tbl[t].byte_end)
                tbl[t].byte_end = simdsv__sniff_utf16_offset(in, conv, R->bufs, 0, (size_t)tbl[t].byte_end);
        }
        if (footer_offset) {
            const size_t endg = conv->ng > 1 ? conv->ng - 1 : 0;
            footer_cut = simdsv__sniff_utf16_offset(in, conv, R->bufs, endg,
                                                    (size_t)(footer_offset - R->gs[endg].offset));
        }
    } else if (R->converted && (footer_offset || ntables > 1)) {
        footer_reason = keep(s, "%s (not cut: offsets in the input of iconv are not known)", footer_reason);
        footer_offset = footer_cut = 0;
        for (size_t t = 0; t < ntables; t++)
            tbl[t].byte_end = 0;
    }

    /* Which table is read. */
    const size_t want = R->params ? R->params->table : 0;
    out->table = 0;
    if (ntables > 1) {
        if (want < ntables)
            out->table = want;
        const simdsv_sniff_table *t = &tbl[out->table];
        out->skip_lines = t->first_line - 1;
        decide(s, SIMDSV_SNIFF_TABLES, 0.8,
               keep(s, "%zu tables (a repeated header or a blank line and a new header); table %zu read, lines "
                       "%llu-%llu",
                    ntables, out->table + 1, (unsigned long long)t->first_line, (unsigned long long)t->last_line));
    } else {
        decide(s, SIMDSV_SNIFF_TABLES, ntables ? 0.9 : NOT_SURE, ntables ? "one table" : "not sure: no table found");
    }
    const size_t ti = out->table;
    if (ntables > 1 && ti + 1 < ntables) {
        out->end_offset = tbl[ti].byte_end;
        out->footer_lines = 0;
    } else {
        out->end_offset = footer_cut;
        out->footer_lines = f.lines;
    }
    if (is_given(R, SIMDSV_SNIFF_PREAMBLE)) {
        int64_t v = 0;
        simdsv_options_get(R->opt, SIMDSV_OPT_SKIP_LINES, &v);
        out->skip_lines = (uint64_t)v;
        decide(s, SIMDSV_SNIFF_PREAMBLE, 1, "given");
    } else if (out->skip_lines) {
        decide(s, SIMDSV_SNIFF_PREAMBLE, 0.85,
               keep(s, "%llu line%s before the table (titles, notes or blank lines: rows without %zu fields)",
                    (unsigned long long)out->skip_lines, out->skip_lines == 1 ? "" : "s", k));
    } else {
        decide(s, SIMDSV_SNIFF_PREAMBLE, t0 < nstart ? 1 : NOT_SURE, "the table starts on the first line");
    }
    decide(s, SIMDSV_SNIFF_FOOTER, f.conf, footer_reason);
    R->footer_offset = footer_offset;
}
