/*
 * header.c — the header of the table read: its first row against the kinds
 * of the body's columns (text over typed values: a header; typed like them:
 * none; text everywhere: a header unless its values recur below; one row
 * alone: a header when none of its fields is typed), the header rows below
 * it, the rows that repeat it (files concatenated: left out), where its data
 * starts.
 */
#include "sniff.h"

#include <string.h>

/* The kind of each column over the body of the table read, worked out a
 * column at a time when a decision first asks for it: the header of a file
 * whose first column is typed is decided over that column alone, and only
 * the full detection (which reports every count) types them all. */
typedef struct body_kinds {
    const region *gs;
    const rows *rs;
    size_t from, end;      /* the body rows */
    size_t width;          /* the table's field count: other rows are left out (0: no row has it, every
                              row with the column counts) */
    size_t skip_more;      /* rows below the first one left out (possible header rows) */
    uint64_t footer_offset; /* 0, or where the footer starts in the last region */
    size_t last_region;
    int dc;                /* a decimal comma may be a number */
    simdsv_type kind[512];
    uint8_t known[512];
} body_kinds;

static simdsv_type body_kind(body_kinds *b, size_t c)
{
    if (b->known[c])
        return b->kind[c];
    /* A column's body kind ignores a few stray texts (a repeated header in
     * the middle, a "n/a"): at most 2% of its values. */
    simdsv_type body = SIMDSV_TYPE_NULL, typed_join = SIMDSV_TYPE_NULL;
    size_t texts = 0, values = 0, seen = 0;
    for (size_t i = b->from; i < b->end; i++) {
        const sn_row *r = &b->rs->r[i];
        if (r->kind != ROW_DATA || (b->width ? r->nfields != b->width : r->nfields <= c))
            continue;
        if (seen++ < b->skip_more)
            continue;
        if (b->footer_offset && r->region == b->last_region && b->gs[r->region].offset + r->off >= b->footer_offset)
            continue;
        const simdsv_type kd = simdsv__sniff_kind_of(text_of(b->gs, b->rs, r, c), b->dc);
        body = simdsv__kind_join(body, kd);
        if (kd == SIMDSV_TYPE_NULL)
            continue;
        values++;
        if (kd == SIMDSV_TYPE_STRING)
            texts++;
        else
            typed_join = simdsv__kind_join(typed_join, kd);
    }
    if (body == SIMDSV_TYPE_STRING && typed_kind(typed_join) && texts * 50 <= values)
        body = typed_join;
    b->known[c] = 1;
    b->kind[c] = body;
    return body;
}

/* Counts of row h against the body kinds: the typed columns (typed_cols),
 * those where h is text (returned) and those where h types like the body
 * (same).  Types every column. */
static size_t contrast(body_kinds *b, const sn_row *h, size_t k, size_t *typed_cols, size_t *same)
{
    size_t c = 0;
    *typed_cols = 0;
    *same = 0;
    for (size_t i = 0; i < k && i < h->nfields; i++) {
        const simdsv_type body = body_kind(b, i);
        if (!typed_kind(body))
            continue;
        ++*typed_cols;
        const simdsv_type hk = simdsv__sniff_kind_of(text_of(b->gs, b->rs, h, i), b->dc);
        if (hk == SIMDSV_TYPE_STRING)
            c++;
        else if (hk != SIMDSV_TYPE_NULL && simdsv__kind_join(hk, body) == body)
            ++*same;
    }
    return c;
}

/* What the first row h of a table is: the answer of contrast's counts
 * (text in a typed column: a header; typed columns and no text in them:
 * none; no typed column: a header by default), found with as few columns
 * typed as it takes. */
enum { FIRST_ROW_DATA, FIRST_ROW_TEXT_ONLY, FIRST_ROW_TEXT_OVER_TYPED };
static int first_row_kind(body_kinds *b, const sn_row *h, size_t k)
{
    /* Text over a typed column decides at once: those columns first. */
    for (size_t i = 0; i < k && i < h->nfields; i++)
        if (simdsv__sniff_kind_of(text_of(b->gs, b->rs, h, i), b->dc) == SIMDSV_TYPE_STRING &&
            typed_kind(body_kind(b, i)))
            return FIRST_ROW_TEXT_OVER_TYPED;
    for (size_t i = 0; i < k && i < h->nfields; i++)
        if (typed_kind(body_kind(b, i)))
            return FIRST_ROW_DATA;
    return FIRST_ROW_TEXT_ONLY;
}

/* 1 when row r, below a header, is one more header row: text in some typed
 * column and nowhere a value typed like its column (contrast's counts: some
 * text, none the same), found with as few columns typed as it takes. */
static int another_header_row(body_kinds *b, const sn_row *r, size_t k)
{
    int text = 0;
    for (size_t i = 0; i < k && i < r->nfields; i++) {
        const simdsv_type rk = simdsv__sniff_kind_of(text_of(b->gs, b->rs, r, i), b->dc);
        if (rk == SIMDSV_TYPE_NULL)
            continue;
        const simdsv_type body = body_kind(b, i);
        if (!typed_kind(body))
            continue;
        if (rk == SIMDSV_TYPE_STRING)
            text = 1;
        else if (simdsv__kind_join(rk, body) == body)
            return 0;
    }
    return text;
}

/* Turns the rows of kind from in (h0, end) whose fields equal row h0's into
 * kind to; returns how many.  A first row of empty fields names nothing:
 * none then. */
static size_t mark_repeats(sniff_run *R, size_t h0, size_t end, uint8_t from, uint8_t to)
{
    const region *gs = R->gs;
    rows *rs = &R->rs;
    const sn_row *h = &rs->r[h0];
    int named = 0;
    for (size_t f = 0; f < h->nfields && !named; f++)
        named = text_of(gs, rs, h, f).n > 0;
    size_t n = 0;
    for (size_t i = h0 + 1; named && i < end; i++) {
        sn_row *r = &rs->r[i];
        if (r->kind != from || r->nfields != h->nfields)
            continue;
        size_t f = 0;
        for (; f < h->nfields; f++) {
            const field_text x = text_of(gs, rs, h, f), y = text_of(gs, rs, r, f);
            if (x.n != y.n || memcmp(x.s, y.s, x.n) != 0)
                break;
        }
        if (f == h->nfields) {
            r->kind = to;
            n++;
        }
    }
    return n;
}

/* The rows of kind ROW_REPEATED_HEADER in the start, as lines and input
 * offsets for the reader to leave out (s->pub.repeated_headers).  Those of
 * another region, or of an input converted by iconv (whose offsets are not
 * known), are read as data: rows again. */
static simdsv_status keep_repeats(sniff_run *R, size_t h0, size_t end)
{
    sniff_impl *s = R->s;
    rows *rs = &R->rs;
    const region *gs = R->gs;
    if (R->converted && R->enc.kind == ENCODING_ICONV) {
        mark_repeats(R, h0, end, ROW_REPEATED_HEADER, ROW_DATA);
        return SIMDSV_OK;
    }
    size_t n = 0;
    for (size_t i = h0 + 1; i < end; i++) {
        sn_row *r = &rs->r[i];
        if (r->kind != ROW_REPEATED_HEADER)
            continue;
        if (r->region)
            r->kind = ROW_DATA;
        else
            n++;
    }
    if (!n)
        return SIMDSV_OK;
    s->repeated = simdsv__alloc(&s->alloc, n * sizeof *s->repeated);
    if (!s->repeated)
        return SIMDSV_ERR_NOMEM;
    s->repeated_cap = n;
    size_t k = 0;
    for (size_t i = h0 + 1; i < end; i++) {
        const sn_row *r = &rs->r[i];
        if (r->kind != ROW_REPEATED_HEADER)
            continue;
        simdsv_sniff_line *line = &s->repeated[k++];
        line->line = r->line;
        if (R->converted) {
            line->byte_start = simdsv__sniff_utf16_offset(R->in, &R->conv, R->bufs, 0, r->off);
            line->byte_end = simdsv__sniff_utf16_offset(R->in, &R->conv, R->bufs, 0, r->end);
        } else {
            line->byte_start = gs[0].offset + R->skip0 + r->off;
            line->byte_end = gs[0].offset + R->skip0 + r->end;
        }
    }
    s->pub.repeated_headers = s->repeated;
    s->pub.repeated_header_count = n;
    return SIMDSV_OK;
}

simdsv_status simdsv__sniff_header(sniff_run *R, table_read *tr)
{
    sniff_impl *s = R->s;
    simdsv_sniff *out = &s->pub;
    const region *gs = R->gs;
    const rows *rs = &R->rs;
    const int dialect_only = R->dialect_only;
    const size_t ti = out->table;
    simdsv_sniff_table *t = &R->tbl[ti];
    const size_t h0 = tr->h0 = R->first_row[ti];
    const size_t width = tr->width = t->columns;
    /* Rows of the body: the rest of this table in the start, and the
     * middle and end when this is the last table. */
    const size_t body_from = h0 + 1;
    const size_t body_end = tr->body_end = ti + 1 < R->ntables ? R->first_row[ti + 1] : rs->nr;
    const sn_row *h = &rs->r[h0];
    const int detect = !is_given(R, SIMDSV_SNIFF_HEADER_ROWS) && !is_given(R, SIMDSV_SNIFF_HEADER);
    /* Rows equal to the first one are left out of the body while its kind is
     * decided: copies of a header must not make its columns text, and copies
     * of a row of data say nothing.  They stay out (a repeated header) only
     * if the first row is a header by type contrast. */
    size_t repeats = detect ? mark_repeats(R, h0, body_end, ROW_DATA, ROW_REPEATED_HEADER) : 0;
    size_t nbody_rows = 0, body_rows = 0;
    for (size_t i = body_from; i < body_end; i++) {
        nbody_rows += rs->r[i].kind == ROW_DATA && rs->r[i].nfields == width;
        body_rows += rs->r[i].kind == ROW_DATA;
    }
    tr->nbody_rows = nbody_rows;
    /* Leave possible header rows out of the body kinds when there are enough rows. */
    body_kinds bk;
    bk.gs = gs;
    bk.rs = rs;
    bk.from = body_from;
    bk.end = body_end;
    bk.width = nbody_rows ? width : 0;
    bk.skip_more = nbody_rows > 2 * MAX_HEADER_ROWS ? MAX_HEADER_ROWS - 1 : 0;
    bk.footer_offset = R->footer_offset;
    bk.last_region = R->conv.ng - 1;
    bk.dc = R->dc_allowed;
    const size_t kc = tr->kc = width < 512 ? width : 512;
    memset(bk.known, 0, sizeof bk.known);
    int header = 1;
    uint64_t header_rows = 1;
    double hconf = 1;
    const char *hreason = "given";
    if (is_given(R, SIMDSV_SNIFF_HEADER_ROWS)) { /* wins over the header given */
        header_rows = R->params->header_rows;
        header = header_rows > 0;
    } else if (is_given(R, SIMDSV_SNIFF_HEADER)) {
        int64_t v = 0;
        simdsv_options_get(R->opt, SIMDSV_OPT_HEADER, &v);
        header = v != 0;
        header_rows = header;
    } else {
        int first = first_row_kind(&bk, h, kc);
        /* Copies of a header have its shape, which is the table's: most of
         * its rows have as many fields. */
        if (repeats && (first != FIRST_ROW_TEXT_OVER_TYPED || nbody_rows < 2 || nbody_rows * 2 < body_rows)) {
            /* The copies are rows like any other: the kinds again with them. */
            mark_repeats(R, h0, body_end, ROW_REPEATED_HEADER, ROW_DATA);
            body_rows += repeats;
            nbody_rows += repeats;
            bk.width = width;
            tr->nbody_rows = nbody_rows;
            bk.skip_more = nbody_rows > 2 * MAX_HEADER_ROWS ? MAX_HEADER_ROWS - 1 : 0;
            repeats = 0;
            memset(bk.known, 0, sizeof bk.known);
            first = first_row_kind(&bk, h, kc);
        }
        header = first != FIRST_ROW_DATA;
        header_rows = header;
        if (first == FIRST_ROW_TEXT_OVER_TYPED) {
            for (size_t i = h0 + 1; i < body_end && header_rows < MAX_HEADER_ROWS; i++) {
                const sn_row *r = &rs->r[i];
                if (r->kind != ROW_DATA)
                    continue;
                if (r->nfields != width || !another_header_row(&bk, r, kc))
                    break;
                header_rows++;
            }
        }
        size_t typed_cols = 0, same = 0, hc = 0;
        if (!dialect_only)
            hc = contrast(&bk, h, kc, &typed_cols, &same);
        if (first == FIRST_ROW_TEXT_OVER_TYPED) {
            hconf = dialect_only ? 0.6 : 0.6 + 0.4 * (double)hc / (double)typed_cols;
            hreason = dialect_only ? "present: the first row is text where the data is typed"
                                   : keep(s, "present: the first row is text in %zu of %zu typed columns", hc,
                                          typed_cols);
        } else if (first == FIRST_ROW_DATA) {
            hconf = dialect_only || same != typed_cols ? 0.6 : 0.9;
            hreason = dialect_only ? "absent: the first row types like the data"
                                   : keep(s, "absent: the first row types like the data in %zu of %zu typed "
                                             "columns",
                                          same, typed_cols);
        } else if (!body_rows) {
            /* One row alone: a header when no field of it is typed (a name is
             * not a number or a date), as DuckDB decides; else one record. */
            size_t typed = 0;
            for (size_t a = 0; a < kc; a++)
                typed += typed_kind(simdsv__sniff_kind_of(text_of(gs, rs, h, a), bk.dc));
            header = header_rows = typed == 0;
            hconf = NOT_SURE;
            hreason = typed ? keep(s, "not sure: one row, %zu of its %zu fields typed: read as data", typed, kc)
                            : "not sure: one row, all text: read as the header (no data)";
        } else {
            /* Only text: a value of the first row that recurs below in its
             * column is evidence against a header (a name is not a value). */
            int distinct = 1, recur = 0;
            for (size_t a = 0; a < kc && !recur; a++) {
                const field_text x = text_of(gs, rs, h, a);
                for (size_t b = a + 1; b < kc; b++) {
                    const field_text y = text_of(gs, rs, h, b);
                    if (x.n && x.n == y.n && !memcmp(x.s, y.s, x.n))
                        distinct = 0;
                }
                for (size_t i = body_from; i < body_end && !recur; i++) {
                    const sn_row *r = &rs->r[i];
                    if (r->kind != ROW_DATA || a >= r->nfields)
                        continue;
                    const field_text y = text_of(gs, rs, r, a);
                    recur = x.n && x.n == y.n && !memcmp(x.s, y.s, x.n);
                }
            }
            header = header_rows = !recur;
            hconf = recur || distinct ? 0.6 : 0.4;
            hreason = recur      ? "absent: every column is text and a value of the first row recurs below it"
                      : distinct ? "every column is text; the first row is taken as the header (distinct names "
                                   "that do not recur below)"
                                 : "not sure: every column is text and the first row repeats a name; a header "
                                   "assumed (the default)";
        }
        if (header_rows != 1 && repeats) {
            mark_repeats(R, h0, body_end, ROW_REPEATED_HEADER, ROW_DATA);
            repeats = 0;
        }
        if (header_rows > 1)
            hreason = keep(s, "%s; %llu header rows (the rows below it are text too where the data is typed)",
                           hreason, (unsigned long long)header_rows);
    }
    out->header = header;
    out->header_rows = header_rows;
    t->header_rows = header_rows;
    /* Where its data starts, past the header rows (what --table all joins). */
    size_t first_data = h0;
    for (size_t hd = 0; first_data < rs->nr && rs->r[first_data].region == 0 && hd < header_rows; first_data++)
        hd += rs->r[first_data].kind == ROW_DATA;
    while (first_data < rs->nr && rs->r[first_data].region == 0 && rs->r[first_data].kind != ROW_DATA)
        first_data++;
    if (first_data < rs->nr && rs->r[first_data].region == 0) {
        const size_t off = rs->r[first_data].off;
        t->data_start = !R->converted                    ? gs[0].offset + R->skip0 + off
                        : R->enc.kind != ENCODING_ICONV ? simdsv__sniff_utf16_offset(R->in, &R->conv, R->bufs, 0, off)
                                                     : 0;
    }
    decide(s, SIMDSV_SNIFF_HEADER, hconf, hreason);
    decide(s, SIMDSV_SNIFF_HEADER_ROWS, header_rows > 1 ? 0.7 : hconf,
           header_rows > 1 ? keep(s, "%llu rows: each column's names joined with a space",
                                  (unsigned long long)header_rows)
                           : header ? "one row" : "no header");
    tr->header = header;
    tr->header_rows = header_rows;
    return repeats ? keep_repeats(R, h0, body_end) : SIMDSV_OK;
}
