/*
 * layout.c — where the table read starts and ends in the rows of the
 * sample parsed with the chosen dialect: a preamble before the first run of
 * rows with the table's field count, more tables after it (after a blank
 * line, a row that reads as a header over the rows below it), a footer of a
 * few rows after the last one; then which table is read and those offsets
 * as input offsets.  Each decision that leaves lines out needs evidence that
 * ordinary data cannot give (issue 21): ragged rows, repeated rows and
 * single columns are one table.
 */
#include "sniff.h"

#include <string.h>

/* The kind of field f joined over the rows `below` (nulls left out). */
static simdsv_type kind_below(const sniff_run *R, const size_t *below, size_t seen, size_t f)
{
    simdsv_type join = SIMDSV_TYPE_NULL;
    for (size_t b = 0; b < seen; b++) {
        const simdsv_type k =
            simdsv__sniff_kind_of(text_of(R->gs, &R->rs, &R->rs.r[below[b]], f), R->dc_allowed);
        if (k != SIMDSV_TYPE_NULL)
            join = simdsv__kind_join(join, k);
    }
    return join;
}

/* 1 when row i is data like the rows below it with its field count: some
 * column typed in all of them (up to 3), and no text in such a column; or,
 * all text, a value of it recurring below in its column.  Narrow lines
 * right before a row of data, with no blank line between, are more likely a
 * header the delimiter cut otherwise (times cut at ':' below a one-word
 * header) than a preamble. */
static int types_like_below(const sniff_run *R, size_t i)
{
    const region *gs = R->gs;
    const rows *rs = &R->rs;
    const sn_row *r = &rs->r[i];
    size_t below[3], seen = 0;
    for (size_t j = i + 1; j < R->nstart && seen < 3; j++)
        if (rs->r[j].kind == ROW_DATA && rs->r[j].nfields == r->nfields)
            below[seen++] = j;
    size_t typed = 0;
    for (size_t f = 0; f < r->nfields; f++) {
        if (!typed_kind(kind_below(R, below, seen, f)))
            continue;
        typed++;
        /* A name has a letter: "07" is text to the typed reader (a leading
         * zero) but no header. */
        const field_text x = text_of(gs, rs, r, f);
        if (simdsv__sniff_kind_of(x, R->dc_allowed) == SIMDSV_TYPE_STRING)
            for (size_t c = 0; c < x.n; c++)
                if ((x.s[c] | 0x20) >= 'a' && (x.s[c] | 0x20) <= 'z')
                    return 0;
    }
    if (typed)
        return 1;
    /* Text everywhere: a value that recurs below in its column is data too
     * (a header names, it does not repeat). */
    for (size_t f = 0; f < r->nfields; f++) {
        const field_text x = text_of(gs, rs, r, f);
        for (size_t b = 0; b < seen && x.n; b++) {
            const field_text y = text_of(gs, rs, &rs->r[below[b]], f);
            if (x.n == y.n && !memcmp(x.s, y.s, x.n))
                return 1;
        }
    }
    return 0;
}

/* The preamble: lines of another shape before a sustained run of the
 * table's.  The table starts at the first row with k fields that three more
 * rows with k fields follow; the rows before it are a preamble only when
 * every one has fewer fields, and either a blank line sets them apart, or
 * they have at most half as many (a title, a note), the table's first
 * row is no row of data (types_like_below) and the table keeps its shape
 * (9 in 10 of its sampled rows have k fields: where rows of other shapes
 * occur in the table too, one more before it is no evidence of a
 * preamble).  Without that evidence the table
 * starts at the first row of data: ragged rows and short tables are data
 * (issue 21: every line is data unless there is positive evidence). */
static size_t table_start(const sniff_run *R)
{
    const rows *rs = &R->rs;
    const size_t nstart = R->nstart, k = R->best.k;
    size_t first_data = 0;
    while (first_data < nstart && rs->r[first_data].kind != ROW_DATA)
        first_data++;
    for (size_t i = first_data; i < nstart; i++) {
        const sn_row *r = &rs->r[i];
        if (r->kind != ROW_DATA || r->nfields != k)
            continue;
        if (i == first_data)
            return i;
        size_t run = 0, need = 0;
        for (size_t j = i + 1; j < nstart && need < 3; j++) {
            if (rs->r[j].kind != ROW_DATA)
                continue;
            need++;
            run += rs->r[j].nfields == k;
        }
        if (run < 3)
            continue;
        int fewer = 1, narrow = 1, blank_after = 0;
        for (size_t j = first_data; j < i; j++) {
            const sn_row *p = &rs->r[j];
            if (p->kind == ROW_BLANK)
                blank_after = 1;
            if (p->kind != ROW_DATA)
                continue;
            blank_after = 0;
            fewer &= p->nfields < k;
            narrow &= p->nfields * 2 <= k;
        }
        size_t table_rows = 0, table_fit = 0;
        for (size_t j = i; j < nstart; j++) {
            table_rows += rs->r[j].kind == ROW_DATA;
            table_fit += rs->r[j].kind == ROW_DATA && rs->r[j].nfields == k;
        }
        const int keeps_shape = table_fit * 10 >= table_rows * 9;
        return fewer && (blank_after || (narrow && keeps_shape && !types_like_below(R, i))) ? i : first_data;
    }
    return first_data;
}

/* 1 when row i, after a blank line, starts a new table: at least two rows
 * with its field count follow before the next blank line, and it is a
 * header over them: text in every column where they are all typed, and
 * some such column.  A field-count change alone is no evidence (ragged rows
 * are data), nor is a row that merely repeats: a table needs a blank line
 * and a header of its own. */
static int starts_table(const sniff_run *R, size_t i)
{
    const region *gs = R->gs;
    const rows *rs = &R->rs;
    const sn_row *r = &rs->r[i];
    size_t below[3], seen = 0;
    for (size_t j = i + 1; j < R->nstart && seen < 3; j++) {
        if (rs->r[j].kind == ROW_BLANK)
            break;
        if (rs->r[j].kind != ROW_DATA)
            continue;
        if (rs->r[j].nfields != r->nfields)
            return 0;
        below[seen++] = j;
    }
    if (seen < 2)
        return 0;
    size_t typed_below = 0;
    for (size_t f = 0; f < r->nfields; f++) {
        if (!typed_kind(kind_below(R, below, seen, f)))
            continue;
        typed_below++;
        if (simdsv__sniff_kind_of(text_of(gs, rs, r, f), R->dc_allowed) != SIMDSV_TYPE_STRING)
            return 0;
    }
    return typed_below > 0;
}

/* The tables of the start from row t0 (R->tbl, R->first_row, R->ntables):
 * a new one where starts_table says so. */
static void find_tables(sniff_run *R, size_t t0)
{
    const region *gs = R->gs;
    const rows *rs = &R->rs;
    const size_t nstart = R->nstart;
    const uint64_t skip0 = R->skip0;
    simdsv_sniff_table *tbl = R->tbl;
    size_t *first_row = R->first_row;
    size_t ntables = 0;
    size_t last_data = t0;
    if (t0 < nstart) {
        memset(&tbl[0], 0, sizeof tbl[0]);
        tbl[0].first_line = rs->r[t0].line;
        tbl[0].columns = rs->r[t0].nfields;
        tbl[0].byte_start = gs[0].offset + skip0 + rs->r[t0].off;
        first_row[0] = t0;
        ntables = 1;
        /* blank: a blank line since the last row of data, and only one-field
         * rows (titles) after it; gap_end: the last row of data before it,
         * where the table ends if a new one starts. */
        int blank = 0;
        size_t gap_end = t0;
        for (size_t i = t0 + 1; i < nstart; i++) {
            const sn_row *r = &rs->r[i];
            if (r->kind == ROW_BLANK) {
                if (!blank)
                    gap_end = last_data;
                blank = 1;
                continue;
            }
            if (r->kind != ROW_DATA)
                continue;
            if (blank && r->nfields >= 2 && ntables < 16 && starts_table(R, i)) {
                simdsv_sniff_table *t = &tbl[ntables - 1];
                t->last_line = rs->r[gap_end].line;
                t->byte_end = gs[0].offset + skip0 + rs->r[gap_end].end;
                simdsv_sniff_table *nt = &tbl[ntables];
                memset(nt, 0, sizeof *nt);
                nt->first_line = r->line;
                nt->columns = r->nfields;
                nt->byte_start = gs[0].offset + skip0 + r->off;
                first_row[ntables] = i;
                ntables++;
            }
            blank &= r->nfields == 1;
            last_data = i;
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
             * apart by a blank line, or at most half as wide as the table when
             * no row of the table is: rows that are merely ragged or broken
             * stay in the table (check reports them). */
            size_t table_rows = 0, broken = 0, narrow = 0, narrow_in_table = 0, text_first = 0;
            simdsv_type first_column = SIMDSV_TYPE_NULL;
            for (size_t i = endg == 0 ? first_row[lt] + 1 : lo; i < tail; i++) {
                const sn_row *r = &rs->r[i];
                if (r->kind != ROW_DATA)
                    continue;
                table_rows += r->nfields == width;
                narrow_in_table += r->nfields * 2 <= width;
                if (r->nfields == width)
                    first_column = simdsv__kind_join(first_column, simdsv__sniff_kind_of(text_of(gs, rs, r, 0),
                                                                                       R->dc_allowed));
            }
            for (size_t i = tail; i < hi; i++) {
                const sn_row *r = &rs->r[i];
                if (r->kind != ROW_DATA)
                    continue;
                broken += r->bad;
                narrow += r->nfields * 2 <= width;
                text_first += simdsv__sniff_kind_of(text_of(gs, rs, r, 0), R->dc_allowed) == SIMDSV_TYPE_STRING;
            }
            /* Without a blank line, narrow rows are a footer only when they
             * cannot be short rows of the table: none of its rows is narrow,
             * and each starts with text where its first column is typed
             * ("Total: 14" below ids, not "7" below "5,5"). */
            const int apart = tail > lo && rs->r[tail - 1].kind == ROW_BLANK;
            const int unlike = narrow == notes && !narrow_in_table && text_first == notes && typed_kind(first_column);
            /* (Rows wider than the table are no notes: data, or a table of its own.) */
            size_t wider = 0;
            for (size_t i = tail; i < hi; i++)
                wider += rs->r[i].kind == ROW_DATA && rs->r[i].nfields > width;
            if (tail < hi && notes && notes <= 10 && table_rows >= 3 && !broken && !wider && (apart || unlike)) {
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
    /* Rows of another shape before or after the table say nothing when the
     * delimiter that cuts the fields is not sure (one column, or fewer than
     * 6 rows in 10 with the most common field count): then no preamble or
     * footer is cut, and the reasons say what was suspected.  (Tables need a blank line and a header of
     * their own, whatever the delimiter's confidence, which their rows of
     * two widths lower.) */
    const int weak = !is_given(R, SIMDSV_SNIFF_DELIMITER) &&
                     (k < 2 || R->best.mode_rows * 10 < R->best.rows * 6); /* (not the confidence: the record
                                                                           commands' detection scores otherwise) */
    size_t first_data = 0;
    while (first_data < nstart && rs->r[first_data].kind != ROW_DATA)
        first_data++;
    size_t t0 = table_start(R);
    const char *suspected_preamble = NULL;
    if (weak && t0 != first_data) {
        suspected_preamble = keep(s, "not sure: %zu line%s before line %u look like a preamble, but the delimiter "
                                     "is not sure: read as data",
                                  (size_t)(rs->r[t0].line - rs->r[first_data].line),
                                  rs->r[t0].line - rs->r[first_data].line == 1 ? "" : "s", rs->r[t0].line);
        t0 = first_data;
    }
    /* Comment lines before the table are the reader's to drop (the marker
     * is the evidence): lines are skipped only for other rows. */
    size_t before = 0;
    for (size_t i = 0; i < t0 && i < nstart; i++)
        before += rs->r[i].kind != ROW_COMMENT;
    out->skip_lines = t0 < nstart && before ? rs->r[t0].line - 1 : 0;
    find_tables(R, t0);
    footer f = find_footer(R);
    if (weak && f.offset) {
        f.reason = keep(s, "not sure: %s, but the delimiter is not sure: read as data", f.reason);
        f.conf = NOT_SURE;
        f.offset = f.lines = 0;
    }
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
               keep(s, "%zu tables (each after a blank line, with a header of its own); table %zu read, lines "
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
    } else if (suspected_preamble) {
        decide(s, SIMDSV_SNIFF_PREAMBLE, NOT_SURE, suspected_preamble);
    } else {
        decide(s, SIMDSV_SNIFF_PREAMBLE, t0 < nstart ? 1 : NOT_SURE, "the table starts on the first line");
    }
    decide(s, SIMDSV_SNIFF_FOOTER, f.conf, footer_reason);
    R->footer_offset = footer_offset;
}
