/*
 * choose.c — the dialect: line endings and comment lines of the start, the
 * candidate dialects (delimiters seen, the quotes that open fields, a
 * backslash before a quote, padding after the delimiter), each scored on the
 * rows it parses (dialect.c) and the best one chosen; then the whole sample
 * parsed with it, and its quote, escape, comment marker and padding decided
 * over those rows.
 */
#include "sniff.h"

#include <math.h>
#include <string.h>

void simdsv__sniff_lines(sniff_run *R)
{
    sniff_impl *s = R->s;
    simdsv_sniff *out = &s->pub;
    const region *gs = R->gs;
    /* Line endings over the start (all 256 KiB): CR LF pairs looked for
     * only where there is a CR. */
    size_t lf_all, cr_all;
    simdsv__sniff_count_bytes(gs[0].p, gs[0].n, '\n', '\r', &lf_all, &cr_all);
    R->cr_all = cr_all;
    size_t crlf = 0;
    for (size_t i = 0; cr_all && i + 1 < gs[0].n; i++)
        crlf += (gs[0].p[i] == '\r') & (gs[0].p[i + 1] == '\n');
    const size_t lf = lf_all - crlf, cr = cr_all - crlf;
    const size_t ends = R->ends = lf + crlf + cr;
    out->line_ending = crlf >= lf && crlf >= cr && crlf ? "CRLF" : cr > lf && cr > crlf ? "CR" : "LF";
    if (!ends)
        decide(s, SIMDSV_SNIFF_LINE_ENDING, NOT_SURE, "not sure: no line end in the sample (one line)");
    else
        decide(s, SIMDSV_SNIFF_LINE_ENDING, (double)(crlf >= lf && crlf >= cr ? crlf : cr > lf ? cr : lf) / ends,
               keep(s, "%s: %zu of %zu line ends (LF %zu, CRLF %zu, CR %zu)", out->line_ending,
                    crlf >= lf && crlf >= cr ? crlf : cr > lf ? cr : lf, ends, lf, crlf, cr));

    /* Comment markers at line starts. */
    static const char *const markers[] = {"#", "//", "%"};
    if (is_given(R, SIMDSV_SNIFF_COMMENT)) {
        int64_t c = -1;
        simdsv_options_get(R->opt, SIMDSV_OPT_COMMENT, &c);
        R->comment = c < 0 ? NULL : c == '#' ? "#" : c == '%' ? "%" : c == '/' ? "//" : keep(s, "%c", (int)c);
        decide(s, SIMDSV_SNIFF_COMMENT, 1, "given");
        return;
    }
    /* One walk over the first 2000 lines, every marker tried at each start. */
    size_t hits_of[3] = {0, 0, 0};
    for (size_t i = 0; i < gs[0].n && R->lines < 2000;) {
        for (size_t m = 0; m < 3; m++) {
            const size_t ml = strlen(markers[m]);
            hits_of[m] += gs[0].n - i >= ml && !memcmp(gs[0].p + i, markers[m], ml);
        }
        if (cr_all) {
            while (i < gs[0].n && gs[0].p[i] != '\n' && gs[0].p[i] != '\r')
                i++;
        } else { /* no CR: the line ends at the next LF */
            const uint8_t *lf_at = memchr(gs[0].p + i, '\n', gs[0].n - i);
            i = lf_at ? (size_t)(lf_at - gs[0].p) : gs[0].n;
        }
        while (i < gs[0].n && (gs[0].p[i] == '\n' || gs[0].p[i] == '\r'))
            i++;
        R->lines++;
    }
    /* Any share of the lines but all of them: a comment block may be most of
     * a short file.  Whether the marked lines are notes or rows of the table
     * is decided once the dialect is known (simdsv__sniff_confirm_dialect). */
    size_t best = 0;
    for (size_t m = 0; m < 3; m++) {
        const size_t hits = hits_of[m];
        if (hits > best && hits < R->lines) {
            best = hits;
            R->comment = markers[m];
        }
    }
    R->comment_lines = best;
}

/* The candidate dialects, and how often each delimiter is followed by a space. */
typedef struct candidates {
    dialect c[16 * 3 * 2 * 2];
    size_t n;
    char dl[16][5]; /* the delimiters */
    size_t nd;
    size_t occurrences[16], after_space[16];
} candidates;

static void find_candidates(sniff_run *R, candidates *cs)
{
    const region *gs = R->gs;
    size_t freq[256] = {0}, field_start_quote[256] = {0};
    int backslash_quote = 0;
    const size_t probe = gs[0].n < (size_t)65536 ? gs[0].n : 65536;
    for (size_t i = 0; i < probe; i++)
        freq[gs[0].p[i]]++;
    /* Backslashes and quotes are looked at where they are (found by memchr). */
    for (const uint8_t *q = gs[0].p; freq['\\'] && (q = memchr(q, '\\', probe - (size_t)(q - gs[0].p))); q++) {
        const size_t i = (size_t)(q - gs[0].p);
        if (i + 1 < probe && (gs[0].p[i + 1] == '"' || gs[0].p[i + 1] == '\'')) {
            backslash_quote = 1;
            break;
        }
    }
    static const uint8_t quote_bytes[2] = {'"', '\''};
    for (size_t qi = 0; qi < 2; qi++) {
        const uint8_t qb = quote_bytes[qi];
        for (const uint8_t *q = gs[0].p; freq[qb] && (q = memchr(q, qb, probe - (size_t)(q - gs[0].p))); q++) {
            /* A quote that opens a field: at a line start or after a likely delimiter. */
            const size_t i = (size_t)(q - gs[0].p);
            if (i == 0 || strchr(",;\t|: \n\r", gs[0].p[i - 1]) != NULL)
                field_start_quote[qb]++;
        }
    }
    char(*dl)[5] = cs->dl;
    size_t nd = 0;
    int64_t v = 0;
    if (is_given(R, SIMDSV_SNIFF_DELIMITER)) {
        simdsv_options_get(R->opt, SIMDSV_OPT_DELIMITER, &v);
        const char *seq = simdsv_options_get_string(R->opt, SIMDSV_OPT_DELIMITER_STRING);
        if (strlen(seq) > 1)
            memcpy(dl[nd++], seq, strlen(seq) + 1);
        else {
            dl[nd][0] = (char)v;
            dl[nd++][1] = '\0';
        }
    } else {
        static const char common[] = ",\t;|: ";
        for (const char *c = common; *c; c++) {
            if (freq[(unsigned char)*c]) {
                dl[nd][0] = *c;
                dl[nd++][1] = '\0';
            }
        }
        /* Other ASCII punctuation seen at least once a line, and doubled delimiters. */
        for (int c = 0x21; c < 0x7F && nd < 12; c++) {
            if (strchr(common, c) || strchr("\"'.-+_/\\()[]{}@#%&*!?=$", c) || (c >= '0' && c <= '9') ||
                (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
                continue;
            if (freq[c] && freq[c] + 1 >= R->ends) {
                dl[nd][0] = (char)c;
                dl[nd++][1] = '\0';
            }
        }
        const size_t singles = nd;
        for (size_t i = 0; i < singles && nd < 16; i++) {
            const char d = dl[i][0];
            if (d != '|' && d != ':')
                continue; /* ",," and ";;" are empty columns far more often than a delimiter */
            size_t pairs = 0;
            for (size_t j = 0; j + 1 < probe;) {
                const uint8_t *at = memchr(gs[0].p + j, d, probe - 1 - j);
                if (!at)
                    break;
                j = (size_t)(at - gs[0].p);
                pairs += gs[0].p[j + 1] == d;
                j += gs[0].p[j + 1] == d ? 2 : 1;
            }
            if (pairs * 2 >= freq[(unsigned char)d] && pairs >= (R->ends ? R->ends : 1)) {
                dl[nd][0] = d;
                dl[nd][1] = d;
                dl[nd++][2] = '\0';
            }
        }
        if (!nd) {
            dl[0][0] = ',';
            dl[0][1] = '\0';
            nd = 1;
        }
    }
    int quotes[3], nq = 0;
    if (is_given(R, SIMDSV_SNIFF_QUOTE)) {
        simdsv_options_get(R->opt, SIMDSV_OPT_QUOTE, &v);
        quotes[nq++] = (int)v;
    } else {
        /* No quoting only where '"' never opens a field (inch marks, 5'11"):
         * a file whose quoting is broken keeps '"' here; recheck_quote then
         * lets the rows read without quoting compete over the whole sample. */
        quotes[nq++] = '"';
        if (field_start_quote['\''])
            quotes[nq++] = '\'';
        if (!field_start_quote['"'])
            quotes[nq++] = -1;
    }
    int escapes[2], ne = 0;
    if (is_given(R, SIMDSV_SNIFF_ESCAPE)) {
        simdsv_options_get(R->opt, SIMDSV_OPT_ESCAPE, &v);
        escapes[ne++] = (int)v;
    } else {
        escapes[ne++] = -1;
        if (backslash_quote)
            escapes[ne++] = '\\';
    }
    /* Padding: a delimiter followed by a space nearly every time is also
     * tried with the spaces trimmed ("a, \"b, c\"" splits right only so). */
    size_t *after_space = cs->after_space, *occurrences = cs->occurrences;
    memset(cs->after_space, 0, sizeof cs->after_space);
    memset(cs->occurrences, 0, sizeof cs->occurrences);
    for (size_t a = 0; a < nd; a++) {
        const size_t dn = dl[a][0] ? strlen(dl[a]) : 1;
        for (size_t i = 0; dl[a][0] != ' ' && i + dn < probe;) {
            const uint8_t *at = memchr(gs[0].p + i, (uint8_t)dl[a][0], probe - dn - i);
            if (!at)
                break;
            i = (size_t)(at - gs[0].p);
            if (dn > 1 && memcmp(gs[0].p + i, dl[a], dn) != 0) {
                i++;
                continue;
            }
            occurrences[a]++;
            after_space[a] += gs[0].p[i + dn] == ' ';
            i += dn;
        }
    }
    cs->nd = nd;
    cs->n = 0;
    for (size_t a = 0; a < nd; a++)
        for (int q = 0; q < nq; q++)
            for (int e = 0; e < ne; e++)
                for (int trim = 0; trim < 2; trim++) {
                /* Without quoting an escape has nothing to escape: one
                 * candidate, escape-free, even when an escape was given
                 * (skipping it left no candidate at all, and cands[0]
                 * unset, with --no-quote --escape C). */
                if (quotes[q] < 0 && e > 0)
                    continue;
                if (trim && (occurrences[a] < 4 || after_space[a] * 10 < occurrences[a] * 9 || quotes[q] == ' '))
                    continue;
                dialect *d = &cs->c[cs->n++];
                memcpy(d->delim, dl[a], sizeof d->delim);
                d->dlen = dl[a][0] ? strlen(dl[a]) : 1; /* a NUL delimiter (given) is one byte, not none */
                d->quote = quotes[q];
                d->escape = quotes[q] < 0 ? -1 : escapes[e];
                d->comment = R->comment;
                d->trim = trim;
            }
}

simdsv_status simdsv__sniff_choose_dialect(sniff_run *R)
{
    sniff_impl *s = R->s;
    simdsv_sniff *out = &s->pub;
    const region *gs = R->gs;
    rows *rs = &R->rs;
    candidates cs;
    find_candidates(R, &cs);
    const dialect *cands = cs.c;
    const size_t nc = cs.n;
    size_t best = 0;
    score best_score, second_score;
    memset(&best_score, 0, sizeof best_score);
    memset(&second_score, 0, sizeof second_score);
    best_score.value = -1;
    size_t second = SIZE_MAX;
    /* The candidate before: a quote, escape or trimming that changes
     * nothing in the rows gives its score again, without typing the fields a
     * second time; when only the quote or escape differs and the bytes it
     * parsed hold neither quote, not even the parse is needed. */
    rows before = {.alloc = &s->alloc};
    score before_score;
    size_t before_span = 0; /* bytes the candidate before looked at */
    for (size_t c = 0; c < nc; c++) {
        /* A reader of records needs the best candidate only: one that could
         * not beat it with every row regular and every field typed (at most
         * 2.0 times its delimiter's preference) is not even parsed.  (The
         * next candidate with the same delimiter has the same bound, so the
         * rows of the one before are not needed for it.) */
        if (R->dialect_only && best_score.value >= 0 &&
            2.0 * simdsv__sniff_delimiter_preference(cands[c].delim) <= best_score.value + 1e-9)
            continue;
        if (c && !strcmp(cands[c].delim, cands[c - 1].delim) && cands[c].trim == cands[c - 1].trim &&
            (cands[c].quote < 0 || !memchr(gs[0].p, cands[c].quote, before_span)) &&
            (cands[c - 1].quote < 0 || !memchr(gs[0].p, cands[c - 1].quote, before_span)))
            continue; /* the same rows: the same score, which cannot be better */
        simdsv__sniff_reset_rows(rs);
        simdsv__sniff_parse_region(&gs[0], 0, &cands[c], SCORE_ROWS, rs);
        if (rs->nomem) {
            simdsv__sniff_free_rows(&before);
            return SIMDSV_ERR_NOMEM;
        }
        score sc;
        if (c && !strcmp(cands[c].delim, cands[c - 1].delim) && simdsv__sniff_rows_equal(rs, &before)) {
            sc = before_score;
        } else {
            /* A reader of records needs the best candidate only: the others
             * are typed only when they could beat it. */
            simdsv__sniff_score_rows(gs, rs, cands[c].delim[0] != ',',
                                     simdsv__sniff_delimiter_preference(cands[c].delim),
                                     R->dialect_only ? best_score.value + 1e-9 : -1, &sc);
        }
        const rows parsed = *rs;
        *rs = before;
        before = parsed;
        before_score = sc;
        /* A parse stops after SCORE_ROWS rows, else at the end of the start. */
        before_span = before.nr == SCORE_ROWS ? before.r[before.nr - 1].end : gs[0].n;
        if (sc.value > best_score.value + 1e-9) {
            if (best_score.value >= 0 && strcmp(cands[best].delim, cands[c].delim)) {
                second = best;
                second_score = best_score;
            }
            best = c;
            best_score = sc;
            R->start_rows_ok = simdsv__sniff_copy_rows(&R->start_rows, &before);
        } else if (strcmp(cands[best].delim, cands[c].delim) &&
                   (second == SIZE_MAX || sc.value > second_score.value + 1e-9)) {
            second = c;
            second_score = sc;
        }
    }
    simdsv__sniff_free_rows(&before);
    /* A doubled delimiter ("||") against its single byte: the single one
     * splits the same rows with an empty field between, as regularly; the
     * doubled one is the structure when it is as regular and clean. */
    if (!cands[best].delim[1]) {
        for (size_t c = 0; c < nc; c++) {
            if (cands[c].delim[1] != cands[best].delim[0] || cands[c].delim[0] != cands[best].delim[0] ||
                cands[c].quote != cands[best].quote || cands[c].escape != cands[best].escape)
                continue;
            simdsv__sniff_reset_rows(rs);
            simdsv__sniff_parse_region(&gs[0], 0, &cands[c], SCORE_ROWS, rs);
            score sc;
            simdsv__sniff_score_rows(gs, rs, 1, 1, -1, &sc);
            if (sc.k >= 2 && sc.mode_rows == sc.rows && !sc.bad_rows && best_score.mode_rows == best_score.rows) {
                second = best;
                second_score = best_score;
                best = c;
                best_score = sc;
                R->start_rows_ok = simdsv__sniff_copy_rows(&R->start_rows, rs);
            }
            break;
        }
    }
    R->d = cands[best];
    R->best = best_score;
    const dialect *d = &R->d;
    /* The chosen delimiter's padding, counted on the bytes (for a dialect
     * read trimmed). */
    R->delim_counted = 0;
    for (size_t a = 0; a < cs.nd; a++)
        if (!strcmp(cs.dl[a], d->delim)) {
            R->delim_counted = 1;
            R->delim_occurrences = cs.occurrences[a];
            R->delim_after_space = cs.after_space[a];
        }
    memcpy(out->delimiter, d->delim, sizeof out->delimiter);
    out->quote = d->quote;
    out->escape = d->escape;
    const size_t k = best_score.k;
    if (is_given(R, SIMDSV_SNIFF_DELIMITER)) {
        decide(s, SIMDSV_SNIFF_DELIMITER, 1, "given");
    } else if (!best_score.rows) {
        decide(s, SIMDSV_SNIFF_DELIMITER, 0.1,
               keep(s, "not sure: no complete row in the first %zu bytes (the default ',' is kept)", gs[0].n));
        out->delimiter[0] = ',';
        out->delimiter[1] = '\0';
    } else if (k < 2) {
        decide(s, SIMDSV_SNIFF_DELIMITER, 0.3,
               keep(s, "not sure: every candidate gives one field per row in %zu sampled rows: one column, or a "
                       "delimiter other than , ; tab | : space",
                    best_score.rows));
        out->delimiter[0] = ',';
        out->delimiter[1] = '\0';
    } else {
        const char *other = "";
        double margin = 1;
        if (second != SIZE_MAX) {
            other = keep(s, "; %s gives %zu-%zu", simdsv__sniff_show_delim(s, cands[second].delim), second_score.kmin,
                         second_score.kmax);
            margin = best_score.value > 0 ? (best_score.value - second_score.value) / best_score.value : 0;
        }
        const double consistency = (double)best_score.mode_rows / (double)best_score.rows;
        double conf = consistency * (margin > 0.25 ? 1 : 0.5 + 2 * margin);
        if (best_score.rows < 2)
            conf = conf < NOT_SURE ? conf : NOT_SURE;
        decide(s, SIMDSV_SNIFF_DELIMITER, conf,
               keep(s, "%sdelimiter %s: %zu fields in %zu of %zu sampled rows%s", conf < 0.6 ? "not sure: " : "",
                    simdsv__sniff_show_delim(s, d->delim), k, best_score.mode_rows, best_score.rows, other));
    }
    return SIMDSV_OK;
}

/* The data rows of rs from row r0 that d's quoting breaks. */
static size_t bad_rows_from(const rows *rs, size_t r0)
{
    size_t bad = 0;
    for (size_t i = r0; i < rs->nr; i++)
        bad += rs->r[i].kind == ROW_DATA && rs->r[i].bad;
    return bad;
}

/* Every row of the whole sample parsed with d (each region to its end: the
 * rows R->rs keeps stop at START_ROWS and PART_ROWS), counted in *counts
 * (no field typed); the input ending inside quotes counts as a bad row.
 * The middle and the end start at a line start that may be inside a quoted
 * field: where the rows parsed from outside quotes break, they are parsed
 * from inside a quoted field too, and the parity that breaks fewer rows
 * counts (a file of quoted values with line breaks is no broken quoting).
 * False when out of memory. */
static int count_whole_sample(const sniff_run *R, const dialect *d, score *counts)
{
    rows all = {.alloc = &R->s->alloc};
    size_t bad_tails = 0; /* rests of rows before a region's start that break the quoting */
    for (size_t i = 0; i < R->conv.ng && !all.nomem; i++) {
        const region *g = &R->conv.g[i];
        const size_t r0 = all.nr, f0 = all.nf;
        const int unterminated0 = all.unterminated;
        simdsv__sniff_parse_region(g, (int)i, d, SIZE_MAX, &all);
        if (g->is_start || d->quote < 0)
            continue;
        const size_t outside_bad = bad_rows_from(&all, r0) + (size_t)(all.unterminated && !unterminated0);
        if (!outside_bad)
            continue;
        all.nr = r0;
        all.nf = f0;
        all.unterminated = unterminated0;
        const size_t tail_bad = simdsv__sniff_parse_region_inside_quotes(g, (int)i, d, SIZE_MAX, &all);
        const size_t inside_bad = tail_bad + bad_rows_from(&all, r0) + (size_t)(all.unterminated && !unterminated0);
        if (inside_bad < outside_bad) {
            bad_tails += tail_bad;
            continue;
        }
        all.nr = r0;
        all.nf = f0;
        all.unterminated = unterminated0;
        simdsv__sniff_parse_region(g, (int)i, d, SIZE_MAX, &all);
    }
    const int ok = !all.nomem;
    simdsv__sniff_score_rows(R->gs, &all, 0, 1, HUGE_VAL, counts); /* beat +inf: counts only */
    counts->bad_rows += (size_t)all.unterminated + bad_tails;
    simdsv__sniff_free_rows(&all);
    return ok;
}

/* A dialect whose sample does not parse is no candidate: when rows of the
 * whole sample break the quoting chosen (a JSON column's {"key": "v"}, an
 * inch mark 5'11", or a first stray quote past the rows scored, in the
 * middle or at the end), the rows read without quoting replace them if they
 * are at least as regular (the same share of rows or more has the most
 * common field count).  When they are not (the quotes hold delimiters or
 * line breaks), the quote stays as the structure, the reader reports the
 * first problem and the CLI's message names --lenient and --no-quote.
 * R->rs and R->best then hold the rows and score of the dialect chosen;
 * R->bad_rows counts the rows of the sample that it does not parse.  A
 * sample whose quoting cannot break (walked from quote to quote) is not
 * parsed again. */
static simdsv_status recheck_quote(sniff_run *R)
{
    dialect *d = &R->d;
    R->bad_rows = 0;
    if (d->quote < 0 || is_given(R, SIMDSV_SNIFF_QUOTE))
        return SIMDSV_OK;
    int breaks = 0;
    for (size_t i = 0; i < R->conv.ng && !breaks; i++)
        breaks = simdsv__sniff_quoting_breaks(&R->conv.g[i], d);
    if (!breaks)
        return SIMDSV_OK;
    score quoted;
    if (!count_whole_sample(R, d, &quoted))
        return SIMDSV_ERR_NOMEM;
    R->bad_rows = quoted.bad_rows;
    if (!quoted.bad_rows)
        return SIMDSV_OK;
    dialect plain = *d;
    plain.quote = plain.escape = -1;
    score unquoted;
    if (!count_whole_sample(R, &plain, &unquoted))
        return SIMDSV_ERR_NOMEM;
    /* mode_rows / rows compared without a division */
    if (!unquoted.rows || unquoted.k < 2 ||
        (double)unquoted.mode_rows * (double)quoted.rows < (double)quoted.mode_rows * (double)unquoted.rows)
        return SIMDSV_OK;
    *d = plain;
    R->s->pub.quote = R->s->pub.escape = -1;
    R->quote_dropped = quoted.bad_rows;
    R->bad_rows = 0;
    if (!simdsv__sniff_reparse(&R->conv, d, unquoted.k, &R->rs, &R->s->pub, &R->nstart))
        return SIMDSV_ERR_NOMEM;
    simdsv__sniff_score_rows(R->gs, &R->rs, d->delim[0] != ',', simdsv__sniff_delimiter_preference(d->delim), -1,
                             &R->best);
    return SIMDSV_OK;
}

simdsv_status simdsv__sniff_confirm_dialect(sniff_run *R)
{
    sniff_impl *s = R->s;
    simdsv_sniff *out = &s->pub;
    const region *gs = R->gs;
    rows *rs = &R->rs;
    dialect *d = &R->d;
    /* The whole sample goes on from the rows the candidate was scored on
     * (rs takes them; start_rows the buffers rs had), in arrays sized for
     * the rows it may have (the fields as many a row as so far): no growth
     * copying them as it goes. */
    simdsv__sniff_reset_rows(rs);
    if (R->start_rows_ok) {
        const rows emptied = *rs;
        *rs = R->start_rows;
        R->start_rows = emptied;
        R->start_rows_ok = 0;
    }
    size_t sample = 0; /* a field takes a byte at least (its delimiter or line end) */
    for (size_t i = 0; i < R->conv.ng; i++)
        sample += R->conv.g[i].n;
    const size_t most_rows = START_ROWS + 2 * PART_ROWS, per_row = rs->nr ? rs->nf / rs->nr + 1 : 1;
    const size_t fields = most_rows * per_row < sample + most_rows ? most_rows * per_row : sample + most_rows;
    /* (Sizes only: when they cannot be had, the parse grows the arrays as it needs.) */
    if (simdsv__grow(rs->alloc, (void **)&rs->r, &rs->capr, most_rows, sizeof *rs->r) == SIMDSV_OK)
        simdsv__grow(rs->alloc, (void **)&rs->f, &rs->capf, fields, sizeof *rs->f);
    simdsv__sniff_parse_all(R->conv.g, R->conv.ng, d, R->best.k, rs);
    if (rs->nomem)
        return SIMDSV_ERR_NOMEM;
    const simdsv_status st = recheck_quote(R);
    if (st != SIMDSV_OK)
        return st;
    const score *best = &R->best;
    const size_t k = best->k;
    out->sampled_rows = rs->nr;
    size_t quoted_fields = 0, doubled = 0;
    R->nstart = 0;
    for (size_t i = 0; i < rs->nr; i++) {
        if (rs->r[i].region == 0)
            R->nstart++;
        for (size_t f = 0; f < rs->r[i].nfields; f++) {
            const sn_field *fl = &rs->f[rs->r[i].field0 + f];
            if (!fl->quoted)
                continue;
            quoted_fields++;
            const uint8_t *fp = gs[rs->r[i].region].p + fl->off;
            for (size_t j = 0; j < fl->len; j++)
                if ((fp[j] == d->quote && d->escape < 0) || (d->escape >= 0 && fp[j] == d->escape)) {
                    doubled++;
                    break;
                }
        }
    }
    if (is_given(R, SIMDSV_SNIFF_QUOTE))
        decide(s, SIMDSV_SNIFF_QUOTE, 1, "given");
    else if (d->quote < 0 && R->quote_dropped)
        decide(s, SIMDSV_SNIFF_QUOTE, 0.8,
               keep(s, "none: quoting with '\"' rejects %zu sampled row%s, which read as regularly without it",
                    R->quote_dropped, R->quote_dropped == 1 ? "" : "s"));
    else if (d->quote < 0)
        decide(s, SIMDSV_SNIFF_QUOTE, 0.8, "none: '\"' never opens a field, and quoting with it rejects more rows");
    else if (R->bad_rows)
        decide(s, SIMDSV_SNIFF_QUOTE, 0.6,
               keep(s, "'%c': %zu quoted fields; %zu sampled row%s with quoting problems, which reading without "
                       "quoting splits less regularly (--lenient or --no-quote reads them)",
                    d->quote, quoted_fields, R->bad_rows, R->bad_rows == 1 ? "" : "s"));
    else if (quoted_fields)
        decide(s, SIMDSV_SNIFF_QUOTE, 1, keep(s, "'%c': %zu quoted fields", d->quote, quoted_fields));
    else
        decide(s, SIMDSV_SNIFF_QUOTE, 0.9, "no quoted field in the sample: '\"' (the default)");
    if (is_given(R, SIMDSV_SNIFF_ESCAPE))
        decide(s, SIMDSV_SNIFF_ESCAPE, 1, "given");
    else if (d->escape >= 0)
        decide(s, SIMDSV_SNIFF_ESCAPE, 0.9,
               keep(s, "backslash: %zu quoted fields hold \\%c, which doubled quotes would misread", doubled,
                    d->quote));
    else if (doubled)
        decide(s, SIMDSV_SNIFF_ESCAPE, 1, keep(s, "doubled quotes in %zu fields", doubled));
    else
        decide(s, SIMDSV_SNIFF_ESCAPE, 0.9, "no escaped quote in the sample: doubled quotes (the default)");

    /* Comment: kept only if the marked lines are not rows of the table: a
     * marked record with the table's field count is data ("#1,..."), and a
     * marked line inside a quoted field is no record at all. */
    const char *comment = R->comment;
    if (comment && !is_given(R, SIMDSV_SNIFF_COMMENT)) {
        dialect plain = *d;
        plain.comment = NULL;
        rows marked = {.alloc = &s->alloc};
        simdsv__sniff_parse_region(&gs[0], 0, &plain, START_ROWS, &marked);
        /* In one column a marked line is told from a value only by its
         * place and its form: the marked lines must all come before the
         * first other row, each the marker alone or followed by a space
         * ("# note"), not a value such as "#ff0000" or "%5". */
        size_t notes = 0, data_like = 0, unmarked = 0;
        const size_t ml = strlen(comment);
        for (size_t i = 0; i < marked.nr; i++) {
            const sn_row *r = &marked.r[i];
            if (r->kind != ROW_DATA)
                continue;
            if (r->off + ml > gs[0].n || memcmp(gs[0].p + r->off, comment, ml)) {
                unmarked++;
                continue;
            }
            const size_t after = r->off + ml;
            const int note_form = after >= gs[0].n || strchr(" \t\r\n", gs[0].p[after]) != NULL ||
                                  !memcmp(gs[0].p + after, comment, ml < gs[0].n - after ? ml : gs[0].n - after);
            if (k > 1 ? r->nfields == k : unmarked > 0 || !note_form)
                data_like++;
            else
                notes++;
        }
        simdsv__sniff_free_rows(&marked);
        if (!notes || data_like * 10 > notes || (k == 1 && data_like)) {
            comment = R->comment = NULL;
            d->comment = NULL;
            if (!simdsv__sniff_reparse(&R->conv, d, k, rs, out, &R->nstart))
                return SIMDSV_ERR_NOMEM;
        }
    }
    if (!is_given(R, SIMDSV_SNIFF_COMMENT)) {
        if (comment) {
            decide(s, SIMDSV_SNIFF_COMMENT, 0.9,
                   keep(s, "'%s': %zu of %zu lines start with it", comment, R->comment_lines, R->lines));
        } else {
            decide(s, SIMDSV_SNIFF_COMMENT, 1, "no line starts with # // or %");
        }
    }
    out->comment_marker = comment ? comment : "";
    out->comment = comment ? (unsigned char)comment[0] : -1;

    /* Padding: a space after (nearly) every delimiter. */
    {
        size_t delims = 0, padded = 0;
        for (size_t i = 0; i < rs->nr; i++) {
            const sn_row *r = &rs->r[i];
            if (r->kind != ROW_DATA || r->region)
                continue;
            for (size_t f = 1; f < r->nfields; f++) {
                const sn_field *fl = &rs->f[r->field0 + f];
                delims++;
                padded += fl->len && gs[0].p[fl->off] == ' ' && !fl->quoted;
            }
        }
        if (d->trim && R->delim_counted) { /* the candidate read trimmed: count on the bytes */
            delims = R->delim_occurrences;
            padded = R->delim_after_space;
        }
        out->padding = d->trim || (d->delim[0] != ' ' && delims >= 4 && padded * 10 >= delims * 9);
        if (is_given(R, SIMDSV_SNIFF_PADDING)) {
            int64_t v = 0;
            simdsv_options_get(R->opt, SIMDSV_OPT_TRIM_SPACES, &v);
            out->padding = v != 0;
            decide(s, SIMDSV_SNIFF_PADDING, 1, "given");
        } else {
            decide(s, SIMDSV_SNIFF_PADDING, out->padding || !delims ? 0.9 : 1,
                   out->padding ? keep(s, "a space follows %zu of %zu delimiters: spaces around fields are trimmed "
                                          "(--trim-spaces)",
                                       padded, delims)
                                : keep(s, "no padding: %zu of %zu delimiters are followed by a space", padded, delims));
        }
        /* The rest of the decisions see the fields as the reader will. */
        if (out->padding != d->trim && d->delim[0] != ' ' && d->quote != ' ') {
            d->trim = out->padding;
            if (!simdsv__sniff_reparse(&R->conv, d, k, rs, out, &R->nstart))
                return SIMDSV_ERR_NOMEM;
        }
    }
    return SIMDSV_OK;
}
