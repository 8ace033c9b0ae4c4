/*
 * dialect.c — the sample parsed with a candidate dialect (delimiter of 1 to 4
 * bytes, quote, escape, comment marker, trimmed spaces) into rows, and the
 * score that ranks the candidates (sniff.c decides with it).
 */
#include "sniff.h"

#include <string.h>

static int add_field(rows *rs, uint32_t off, uint32_t len, int quoted)
{
    if (rs->nf == rs->capf &&
        simdsv__grow(rs->alloc, (void **)&rs->f, &rs->capf, rs->nf + 1, sizeof *rs->f) != SIMDSV_OK) {
        rs->nomem = 1;
        return 0;
    }
    rs->f[rs->nf].off = off;
    rs->f[rs->nf].len = len;
    rs->f[rs->nf].quoted = (uint8_t)quoted;
    rs->nf++;
    return 1;
}

static sn_row *add_row(rows *rs)
{
    if (rs->nr == rs->capr &&
        simdsv__grow(rs->alloc, (void **)&rs->r, &rs->capr, rs->nr + 1, sizeof *rs->r) != SIMDSV_OK) {
        rs->nomem = 1;
        return NULL;
    }
    sn_row *row = &rs->r[rs->nr++];
    memset(row, 0, sizeof *row);
    row->field0 = rs->nf;
    return row;
}

static int at_delim(const dialect *d, const uint8_t *p, size_t n, size_t i)
{
    return p[i] == (uint8_t)d->delim[0] && (d->dlen == 1 || (n - i >= d->dlen && !memcmp(p + i, d->delim, d->dlen)));
}

static size_t line_end_len(const uint8_t *p, size_t n, size_t i)
{
    if (p[i] == '\n')
        return 1;
    if (p[i] == '\r')
        return i + 1 < n && p[i + 1] == '\n' ? 2 : 1;
    return 0;
}

/* Parses region g from pos (line `line`, `added` rows already parsed) up to
 * max_rows rows in all; where it stops goes to rs->next_pos and next_line. */
static void parse_from(const region *g, int gi, const dialect *d, size_t max_rows, rows *rs, size_t pos,
                       uint32_t line, size_t added)
{
    const uint8_t *p = g->p;
    const size_t n = g->n < UINT32_MAX ? g->n : UINT32_MAX;
    rs->next_pos = pos;
    rs->next_line = line;
    const size_t clen = d->comment ? strlen(d->comment) : 0;
    /* The bytes that may end a run of field text, unquoted (a line end, the
     * delimiter's first byte, a stray quote) and quoted (a line end, counted;
     * the quote; the escape): the bytes between are passed over at once. */
    uint8_t stop[256], quoted_stop[256];
    memset(stop, 0, sizeof stop);
    memset(quoted_stop, 0, sizeof quoted_stop);
    stop['\n'] = stop['\r'] = quoted_stop['\n'] = quoted_stop['\r'] = 1;
    stop[(uint8_t)d->delim[0]] = 1;
    if (d->quote >= 0)
        stop[d->quote] = quoted_stop[d->quote] = 1;
    if (d->escape >= 0)
        quoted_stop[d->escape] = 1;
    while (pos < n && added < max_rows && !rs->nomem) {
        rs->next_pos = pos; /* a row cut by the end of the region is parsed again by a parse going on */
        rs->next_line = line;
        const size_t rows_before = rs->nr, fields_before = rs->nf;
        sn_row *row = add_row(rs);
        if (!row)
            return;
        row->off = (uint32_t)pos;
        row->line = g->is_start ? line : 0;
        row->region = (uint8_t)gi;
        size_t el = line_end_len(p, n, pos);
        if (el) {
            row->kind = ROW_BLANK;
            pos += el;
            line++;
            row->end = (uint32_t)pos;
            added++;
            continue;
        }
        if (clen && n - pos >= clen && memcmp(p + pos, d->comment, clen) == 0) {
            row->kind = ROW_COMMENT;
            while (pos < n && !line_end_len(p, n, pos))
                pos++;
            if (pos >= n && !g->complete) {
                rs->nr = rows_before;
                return;
            }
            if (pos < n)
                pos += line_end_len(p, n, pos);
            line++;
            row->end = (uint32_t)pos;
            added++;
            continue;
        }
        int cut = 0, bad = 0;
        for (;;) {
            while (d->trim && pos < n && p[pos] == ' ')
                pos++;
            size_t start = pos, len;
            int quoted = 0;
            if (d->quote >= 0 && pos < n && p[pos] == d->quote) {
                quoted = 1;
                pos++;
                start = pos;
                for (;;) {
                    while (pos < n && !quoted_stop[p[pos]])
                        pos++;
                    if (pos >= n) {
                        /* The row is not counted; when the input ends
                         * here, it is a quoting problem all the same (the
                         * reader's unterminated quote). */
                        rs->unterminated |= g->complete;
                        cut = 1;
                        break;
                    }
                    const uint8_t c = p[pos];
                    if (d->escape >= 0 && c == d->escape && pos + 1 < n) {
                        pos += 2;
                        continue;
                    }
                    if (c == d->quote) {
                        if (d->escape < 0 && pos + 1 < n && p[pos + 1] == d->quote) {
                            pos += 2;
                            continue;
                        }
                        break;
                    }
                    if (c == '\n' || (c == '\r' && !(pos + 1 < n && p[pos + 1] == '\n')))
                        line++;
                    pos++;
                }
                if (cut)
                    break;
                len = pos - start;
                pos++; /* the closing quote */
                while (d->trim && pos < n && p[pos] == ' ')
                    pos++;
                if (pos < n && !line_end_len(p, n, pos) && !at_delim(d, p, n, pos)) {
                    bad = 1; /* text after the closing quote: read on to the delimiter */
                    while (pos < n && !line_end_len(p, n, pos) &&
                           !at_delim(d, p, n, pos))
                        pos++;
                    len = pos - start;
                }
            } else {
                for (;;) {
                    while (pos < n && !stop[p[pos]])
                        pos++;
                    if (pos >= n || line_end_len(p, n, pos) || at_delim(d, p, n, pos))
                        break;
                    if (d->quote >= 0 && p[pos] == d->quote)
                        bad = 1; /* a quote inside an unquoted field */
                    pos++;
                }
                len = pos - start;
                while (d->trim && len && p[start + len - 1] == ' ')
                    len--;
            }
            if (!add_field(rs, (uint32_t)start, (uint32_t)len, quoted))
                return;
            if (pos < n && !line_end_len(p, n, pos)) {
                pos += d->dlen; /* a delimiter: another field follows */
                continue;
            }
            if (pos >= n && !g->complete)
                cut = 1;
            break;
        }
        if (cut) {
            /* The end of the sample cuts this row: it is not counted. */
            rs->nr = rows_before;
            rs->nf = fields_before;
            return;
        }
        row = &rs->r[rs->nr - 1];
        row->kind = ROW_DATA;
        row->bad = (uint8_t)bad;
        row->nfields = (uint32_t)(rs->nf - row->field0);
        if (pos < n) {
            pos += line_end_len(p, n, pos);
        }
        line++;
        row->end = (uint32_t)pos;
        added++;
    }
    rs->next_pos = pos;
    rs->next_line = line;
}

void simdsv__sniff_parse_region(const region *g, int gi, const dialect *d, size_t max_rows, rows *rs)
{
    parse_from(g, gi, d, max_rows, rs, 0, 1, 0);
}

/* Whether the byte before p[i] ends a field's start: the region's start, a
 * line end or the delimiter (spaces before it skipped when trimming). */
static int opens_field(const dialect *d, const uint8_t *p, size_t i)
{
    while (d->trim && i && p[i - 1] == ' ')
        i--;
    return !i || p[i - 1] == '\n' || p[i - 1] == '\r' || (i >= d->dlen && !memcmp(p + i - d->dlen, d->delim, d->dlen));
}

/* Where the quoted field open at p[i] closes: its first quote that is
 * neither doubled nor escaped (an odd run of escape bytes before it); n
 * when the region ends first. */
static size_t closing_quote(const uint8_t *p, size_t n, size_t i, const dialect *d)
{
    const uint8_t quote = (uint8_t)d->quote;
    for (;;) {
        const uint8_t *q = i < n ? memchr(p + i, quote, n - i) : NULL;
        if (!q)
            return n;
        i = (size_t)(q - p);
        size_t escapes = 0;
        while (d->escape >= 0 && escapes < i && p[i - 1 - escapes] == (uint8_t)d->escape)
            escapes++;
        if (escapes & 1) {
            i++;
            continue;
        }
        if (d->escape < 0 && i + 1 < n && p[i + 1] == quote) {
            i += 2;
            continue;
        }
        return i;
    }
}

/* Whether the byte after a closing quote at p[i] is other text than a
 * delimiter or a line end (spaces skipped when trimming). */
static int text_after_quote(const dialect *d, const uint8_t *p, size_t n, size_t i)
{
    for (i++; d->trim && i < n && p[i] == ' ';)
        i++;
    return i < n && p[i] != '\n' && p[i] != '\r' && !at_delim(d, p, n, i);
}

/* quoting_breaks' walk, from the region's start outside quotes or, when
 * `inside`, inside a quoted field. */
static int walk_breaks(const region *g, const dialect *d, int inside)
{
    const uint8_t *p = g->p;
    const size_t n = g->n;
    for (size_t i = 0; i < n;) {
        if (!inside) {
            const uint8_t *q = memchr(p + i, (uint8_t)d->quote, n - i);
            if (!q)
                return 0;
            i = (size_t)(q - p);
            if (!opens_field(d, p, i))
                return 1; /* a quote inside an unquoted field */
            i++;
        }
        inside = 0;
        i = closing_quote(p, n, i, d);
        if (i >= n)
            return g->complete; /* the input ends inside the quotes; a sample's end only cut them */
        if (text_after_quote(d, p, n, i))
            return 1;
        i++;
    }
    return 0;
}

/* The middle and the end of a file start at a line start that may be inside
 * a quoted field (a value with line breaks): like the threaded reader's
 * range summaries, they are read with either quote parity at their start,
 * and break only when both do. */
int simdsv__sniff_quoting_breaks(const region *g, const dialect *d)
{
    return walk_breaks(g, d, 0) && (g->is_start || walk_breaks(g, d, 1));
}

size_t simdsv__sniff_parse_region_inside_quotes(const region *g, int gi, const dialect *d, size_t max_rows, rows *rs)
{
    const size_t n = g->n < UINT32_MAX ? g->n : UINT32_MAX;
    const size_t close = closing_quote(g->p, n, 0, d);
    if (close >= n) {
        rs->unterminated |= g->complete;
        return 0;
    }
    size_t bad = (size_t)text_after_quote(d, g->p, n, close);
    /* The rest of the row the field is in: its start is before the region,
     * so it is no row of its own, but its quoting may break. */
    const size_t r0 = rs->nr, f0 = rs->nf;
    parse_from(g, gi, d, 1, rs, close + 1, 0, 0);
    if (rs->nr == r0)
        return bad; /* the region ends in it, or out of memory */
    bad |= rs->r[r0].bad;
    const size_t rows_start = rs->next_pos;
    rs->nr = r0;
    rs->nf = f0;
    parse_from(g, gi, d, max_rows, rs, rows_start, 0, 0);
    return bad;
}

uint64_t simdsv__sniff_count_lines(const uint8_t *p, size_t n)
{
    uint64_t lines = 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] == '\n' || (p[i] == '\r' && !(i + 1 < n && p[i + 1] == '\n')))
            lines++;
    return lines + (n && p[n - 1] != '\n' && p[n - 1] != '\r');
}

/* The most common field count among the data rows (ties: the larger) and
 * how many rows have it; 0 when there is no row.  Counts below 256 are
 * tallied in a table, larger ones counted over the rows. */
static size_t mode_fields(const rows *rs, size_t *mode_rows)
{
    *mode_rows = 0;
    uint32_t tally[256] = {0};
    size_t k = 0;
    for (size_t i = 0; i < rs->nr; i++) {
        const sn_row *r = &rs->r[i];
        if (r->kind != ROW_DATA)
            continue;
        if (r->nfields < 256) {
            tally[r->nfields]++;
            continue;
        }
        int seen_before = 0; /* each large count is counted once, at its first row */
        for (size_t j = 0; j < i && !seen_before; j++)
            seen_before = rs->r[j].kind == ROW_DATA && rs->r[j].nfields == r->nfields;
        if (seen_before)
            continue;
        size_t same = 0;
        for (size_t j = i; j < rs->nr; j++)
            same += rs->r[j].kind == ROW_DATA && rs->r[j].nfields == r->nfields;
        if (same > *mode_rows || (same == *mode_rows && r->nfields > k)) {
            *mode_rows = same;
            k = r->nfields;
        }
    }
    for (size_t n = 0; n < 256; n++)
        if (tally[n] && (tally[n] > *mode_rows || (tally[n] == *mode_rows && n > k))) {
            *mode_rows = tally[n];
            k = n;
        }
    return k;
}

void simdsv__sniff_score_rows(const region *gs, const rows *rs, int decimal_comma, double preference, double beat,
                              score *sc)
{
    memset(sc, 0, sizeof sc[0]);
    size_t rows_seen = 0, bad = 0;
    sc->kmin = SIZE_MAX;
    for (size_t i = 0; i < rs->nr; i++) {
        const sn_row *r = &rs->r[i];
        if (r->kind != ROW_DATA)
            continue;
        rows_seen++;
        bad += r->bad;
        if (r->nfields < sc->kmin)
            sc->kmin = r->nfields;
        if (r->nfields > sc->kmax)
            sc->kmax = r->nfields;
    }
    size_t mode_rows = 0;
    const size_t k = rows_seen ? mode_fields(rs, &mode_rows) : 0;
    if (!rows_seen || !k) {
        sc->kmin = 0;
        return;
    }
    sc->rows = rows_seen;
    sc->mode_rows = mode_rows;
    sc->k = k;
    sc->bad_rows = bad;
    const double consistency = (double)mode_rows / (double)rows_seen;
    const double clean = 1.0 - (double)bad / (double)rows_seen;
    /* More fields is likelier the structure than a coincidence (a ',' inside
     * one column of a ';' file is as regular as the ';' but splits less). */
    const double width = 1.0 + 0.1 * (double)(k < 10 ? k : 10);
    const double untyped = (k >= 2 ? 1.0 : 0.2) * consistency * clean * clean;
    if (untyped * (0.6 + 0.4 * 1.0) * width * preference <= beat) {
        sc->typed = 1; /* the most the fields could give, and still no better than beat */
        sc->value = untyped * (0.6 + 0.4 * sc->typed) * width * preference;
        return;
    }
    size_t typed = 0, values = 0, skipped_first = 0;
    for (size_t i = 0; i < rs->nr; i++) {
        const sn_row *r = &rs->r[i];
        if (r->kind != ROW_DATA || r->nfields != k)
            continue;
        if (!skipped_first++)
            continue; /* likely the header */
        for (size_t f = 0; f < r->nfields; f++) {
            const simdsv_type kind = simdsv__sniff_kind_of(text_of(gs, rs, r, f), decimal_comma);
            if (kind == SIMDSV_TYPE_NULL)
                continue;
            values++;
            typed += typed_kind(kind);
        }
    }
    sc->typed = values ? (double)typed / (double)values : 0;
    sc->value = untyped * (0.6 + 0.4 * sc->typed) * width * preference;
}

double simdsv__sniff_delimiter_preference(const char *d)
{
    if (d[1])
        return 0.97; /* a multi-byte delimiter only when clearly better */
    switch (d[0]) {
    case ',': case '\t': case ';': return 1.0;
    case '|': return 0.98;
    case ':': return 0.9;
    case ' ': return 0.85;
    default: return 0.8;
    }
}

const char *simdsv__sniff_show_delim(sniff_impl *s, const char *d)
{
    if (!strcmp(d, "\t"))
        return "tab";
    if (!strcmp(d, " "))
        return "space";
    return keep(s, "'%s'", d);
}

void simdsv__sniff_parse_all(region *g, size_t ng, const dialect *d, size_t k, rows *rs)
{
    for (size_t i = 0; i < ng && !rs->nomem; i++) {
        for (int attempt = 0; attempt < 2; attempt++) {
            const size_t r0 = rs->nr, f0 = rs->nf;
            if (i == 0 && rs->nr) /* the start's first rows are there: go on after them */
                parse_from(&g[0], 0, d, START_ROWS, rs, rs->next_pos, rs->next_line, rs->nr);
            else
                simdsv__sniff_parse_region(&g[i], (int)i, d, i == 0 ? START_ROWS : PART_ROWS, rs);
            if (i == 0 || k < 2 || d->quote < 0)
                break;
            size_t data = 0, fit = 0, bad = 0;
            for (size_t j = r0; j < rs->nr; j++) {
                if (rs->r[j].kind != ROW_DATA)
                    continue;
                data++;
                fit += rs->r[j].nfields == k;
                bad += rs->r[j].bad;
            }
            if (fit * 10 >= data * 9 && bad * 50 <= data)
                break;
            rs->nr = r0;
            rs->nf = f0;
            if (attempt == 1)
                break;
            size_t at = 0;
            while (at + 1 < g[i].n && !(g[i].p[at] == (uint8_t)d->quote && (g[i].p[at + 1] == '\n' || g[i].p[at + 1] == '\r')))
                at++;
            at += 1;
            while (at < g[i].n && (g[i].p[at] == '\n' || g[i].p[at] == '\r'))
                at++;
            if (at >= g[i].n)
                break;
            g[i].p += at;
            g[i].n -= at;
            g[i].offset += at;
        }
    }
}

void simdsv__sniff_free_rows(rows *rs)
{
    simdsv__free(rs->alloc, rs->f, rs->capf * sizeof *rs->f);
    simdsv__free(rs->alloc, rs->r, rs->capr * sizeof *rs->r);
    rs->f = NULL;
    rs->r = NULL;
    rs->nf = rs->capf = rs->nr = rs->capr = 0;
}

int simdsv__sniff_rows_equal(const rows *a, const rows *b)
{
    if (a->nr != b->nr || a->nf != b->nf)
        return 0;
    for (size_t i = 0; i < a->nr; i++) {
        const sn_row *x = &a->r[i], *y = &b->r[i];
        if (x->field0 != y->field0 || x->nfields != y->nfields || x->off != y->off || x->end != y->end ||
            x->line != y->line || x->kind != y->kind || x->bad != y->bad || x->region != y->region)
            return 0;
    }
    for (size_t i = 0; i < a->nf; i++)
        if (a->f[i].off != b->f[i].off || a->f[i].len != b->f[i].len || a->f[i].quoted != b->f[i].quoted)
            return 0;
    return 1;
}

int simdsv__sniff_copy_rows(rows *dst, const rows *src)
{
    if ((src->nf > dst->capf &&
         simdsv__grow(dst->alloc, (void **)&dst->f, &dst->capf, src->nf, sizeof *dst->f) != SIMDSV_OK) ||
        (src->nr > dst->capr &&
         simdsv__grow(dst->alloc, (void **)&dst->r, &dst->capr, src->nr, sizeof *dst->r) != SIMDSV_OK))
        return 0;
    if (src->nf)
        memcpy(dst->f, src->f, src->nf * sizeof *src->f);
    if (src->nr)
        memcpy(dst->r, src->r, src->nr * sizeof *src->r);
    dst->nf = src->nf;
    dst->nr = src->nr;
    dst->next_pos = src->next_pos;
    dst->next_line = src->next_line;
    return 1;
}

void simdsv__sniff_reset_rows(rows *rs)
{
    rs->nf = rs->nr = 0;
    rs->unterminated = 0;
}

int simdsv__sniff_reparse(sniff_input *conv, const dialect *d, size_t k, rows *rs, simdsv_sniff *out, size_t *nstart)
{
    simdsv__sniff_reset_rows(rs);
    simdsv__sniff_parse_all(conv->g, conv->ng, d, k, rs);
    if (rs->nomem)
        return 0;
    out->sampled_rows = rs->nr;
    for (*nstart = 0; *nstart < rs->nr && rs->r[*nstart].region == 0; ++*nstart) {
    }
    return 1;
}
