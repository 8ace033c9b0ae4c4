/*
 * sniff.c — dialect detection over a bounded sample (simdsv_sniff_*).
 *
 * The order of the decisions, each using the ones before it:
 *   1. encoding: a BOM, the NUL pattern of UTF-16, UTF-8 validity, else
 *      Windows-1252 (when bytes 0x80..0x9F occur) or ISO-8859-1.  The
 *      structure of an 8-bit file is ASCII, so those are analysed as they
 *      are (offsets stay input offsets); UTF-16 is converted first.
 *   2. line ending and comment lines (# // % at line starts).
 *   3. delimiter, quote and escape together: every candidate dialect parses
 *      the start of the sample; the score is the share of rows with the
 *      most common field count, times how well the fields then type, less
 *      rows the quoting rejects.  Ties go to the usual ',' '"' doubled.
 *   4. with that dialect: where the table starts (preamble), where tables
 *      and the footer begin, the header (type contrast between the first
 *      row and the body) and its row count, and each column's type and
 *      value format.
 * Nothing here parses beyond the sample: the reader does the real work with
 * the options this proposes (src/sniff/ only proposes).
 */
#define _POSIX_C_SOURCE 200809L
#include "../common/internal.h"
#include "../source/transcode.h"
#include "../values/values.h"
#include "sniff.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *simdsv__sniff_vkeep(sniff_impl *s, const char *fmt, va_list ap)
{
    char tmp[512];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (n < 0)
        return "";
    if ((size_t)n >= sizeof tmp)
        n = (int)sizeof tmp - 1;
    text_node *t = simdsv__alloc(&s->alloc, sizeof *t + (size_t)n + 1);
    if (!t)
        return "";
    t->next = s->texts;
    t->size = sizeof *t + (size_t)n + 1;
    s->texts = t;
    char *p = (char *)(t + 1);
    memcpy(p, tmp, (size_t)n);
    p[n] = '\0';
    return p;
}

static void decide(sniff_impl *s, simdsv_sniff_setting k, double confidence, const char *reason)
{
    s->pub.decisions[k].confidence = confidence < 0 ? 0 : confidence > 1 ? 1 : confidence;
    s->pub.decisions[k].reason = reason;
}

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

/* The kind of each column over the body of the table read, worked out a
 * column at a time when a decision first asks for it: the header of a file
 * whose first column is typed is decided over that column alone, and only
 * the full detection (which reports every count) types them all. */
typedef struct body_kinds {
    const region *gs;
    const rows *rs;
    size_t from, end;      /* the body rows */
    size_t width;          /* the table's field count: other rows are left out */
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
        if (r->kind != ROW_DATA || r->nfields != b->width)
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

static simdsv_status run(sniff_impl *s, const sniff_input *in, const simdsv_sniff_params *params)
{
    simdsv_sniff *out = &s->pub;
    const simdsv_options *opt = params ? params->opt : NULL;
    const unsigned given = params ? params->given : 0;
    const int dialect_only = params && params->dialect_only;
    for (int k = 0; k < SIMDSV_SNIFF_SETTING_COUNT; k++)
        out->decisions[k].given = (given >> k) & 1;
    out->input_size = in->input_size;
    rows rs = {&s->alloc, NULL, 0, 0, NULL, 0, 0, 0};
    simdsv_status st = SIMDSV_OK;

    /* 1. Encoding. */
    const region *g0 = &in->g[0];
    encoding_result enc;
    int64_t given_delimiter = ',';
    if (given & (1u << SIMDSV_SNIFF_DELIMITER))
        simdsv_options_get(opt, SIMDSV_OPT_DELIMITER, &given_delimiter);
    simdsv__sniff_detect_encoding(s, g0->p, g0->n, g0->complete, given_delimiter == 0, &enc);
    const char *given_encoding = opt ? simdsv_options_get_string(opt, SIMDSV_OPT_ENCODING) : "";
    if (given & (1u << SIMDSV_SNIFF_ENCODING)) {
        const int kind = simdsv__encoding_kind(given_encoding);
        enc.kind = kind < 0 ? ENCODING_UTF8 : (encoding_kind)kind;
        enc.binary = 0;
        enc.confidence = 1;
        enc.reason = "given";
    }
    out->encoding = enc.kind == ENCODING_ICONV ? keep(s, "%s", given_encoding) : simdsv__encoding_name(enc.kind);
    out->bom = enc.bom;
    out->binary = enc.binary;
    decide(s, SIMDSV_SNIFF_ENCODING, enc.confidence, enc.reason);

    /* UTF-16 (and iconv) samples are converted; offsets then are not input offsets. */
    sniff_input conv = *in;
    uint8_t *bufs[3] = {NULL, NULL, NULL};
    size_t caps[3] = {0, 0, 0};
    const int converted = enc.kind == ENCODING_UTF16LE || enc.kind == ENCODING_UTF16BE || enc.kind == ENCODING_ICONV;
    if (converted) {
        transcoder tc;
        if ((st = simdsv__transcoder_init(&tc, enc.kind == ENCODING_ICONV ? given_encoding : out->encoding)) !=
            SIMDSV_OK)
            return st;
        for (size_t i = 0; i < in->ng; i++) {
            caps[i] = in->g[i].n * 2 + 16;
            if (!(bufs[i] = simdsv__alloc(&s->alloc, caps[i]))) {
                st = SIMDSV_ERR_NOMEM;
                break;
            }
            size_t used = 0, o = 0, at = 0;
            while (at < in->g[i].n) {
                const size_t w = simdsv__transcode(&tc, in->g[i].p + at, in->g[i].n - at, &used, bufs[i] + o,
                                                   caps[i] - o, in->g[i].complete);
                if (!w && !used)
                    break;
                o += w;
                at += used;
            }
            conv.g[i].p = bufs[i];
            conv.g[i].n = o;
            if (i == 0 && o >= 3 && !memcmp(bufs[i], "\xEF\xBB\xBF", 3)) {
                conv.g[i].p += 3; /* the converted BOM */
                conv.g[i].n -= 3;
            }
        }
        simdsv__transcoder_close(&tc);
    } else if (enc.bom) {
        conv.g[0].p += 3;
        conv.g[0].n -= 3;
    }
    const uint64_t skip0 = converted ? 0 : (uint64_t)(conv.g[0].p - in->g[0].p);
    /* The middle and the end start after their first (cut) line. */
    for (size_t i = 1; i < conv.ng && st == SIMDSV_OK; i++) {
        size_t k = 0;
        while (k < conv.g[i].n && conv.g[i].p[k] != '\n' && conv.g[i].p[k] != '\r')
            k++;
        while (k < conv.g[i].n && (conv.g[i].p[k] == '\n' || conv.g[i].p[k] == '\r'))
            k++;
        conv.g[i].p += k;
        conv.g[i].n -= k;
        conv.g[i].offset += k;
    }
    const region *gs = conv.g;
    out->sampled_bytes = 0;
    for (size_t i = 0; i < conv.ng; i++)
        out->sampled_bytes += in->g[i].n;

    /* 2. Line endings over the start (all 256 KiB): CR LF pairs looked for
     * only where there is a CR. */
    const size_t lf_all = simdsv__sniff_count_byte(gs[0].p, gs[0].n, '\n');
    const size_t cr_all = simdsv__sniff_count_byte(gs[0].p, gs[0].n, '\r');
    size_t crlf = 0;
    for (size_t i = 0; cr_all && i + 1 < gs[0].n; i++)
        crlf += (gs[0].p[i] == '\r') & (gs[0].p[i + 1] == '\n');
    const size_t lf = lf_all - crlf, cr = cr_all - crlf;
    const size_t ends = lf + crlf + cr;
    out->line_ending = crlf >= lf && crlf >= cr && crlf ? "CRLF" : cr > lf && cr > crlf ? "CR" : "LF";
    if (!ends)
        decide(s, SIMDSV_SNIFF_LINE_ENDING, NOT_SURE, "not sure: no line end in the sample (one line)");
    else
        decide(s, SIMDSV_SNIFF_LINE_ENDING, (double)(crlf >= lf && crlf >= cr ? crlf : cr > lf ? cr : lf) / ends,
               keep(s, "%s: %zu of %zu line ends (LF %zu, CRLF %zu, CR %zu)", out->line_ending,
                    crlf >= lf && crlf >= cr ? crlf : cr > lf ? cr : lf, ends, lf, crlf, cr));

    /* Comment markers at line starts. */
    static const char *const markers[] = {"#", "//", "%"};
    const char *comment = NULL;
    size_t comment_lines = 0, lines = 0;
    if (given & (1u << SIMDSV_SNIFF_COMMENT)) {
        int64_t c = -1;
        simdsv_options_get(opt, SIMDSV_OPT_COMMENT, &c);
        comment = c < 0 ? NULL : c == '#' ? "#" : c == '%' ? "%" : c == '/' ? "//" : keep(s, "%c", (int)c);
        decide(s, SIMDSV_SNIFF_COMMENT, 1, "given");
    } else {
        /* One walk over the first 2000 lines, every marker tried at each start. */
        size_t hits_of[3] = {0, 0, 0};
        for (size_t i = 0; i < gs[0].n && lines < 2000;) {
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
            lines++;
        }
        size_t best = 0;
        for (size_t m = 0; m < 3; m++) {
            const size_t hits = hits_of[m];
            if (hits > best && hits * 2 < lines) {
                best = hits;
                comment = markers[m];
            }
        }
        comment_lines = best;
    }

    /* 3. Delimiter, quote, escape. */
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
    dialect cands[16 * 3 * 2 * 2];
    size_t nc = 0;
    char dl[16][5];
    size_t nd = 0;
    int64_t v = 0;
    if (given & (1u << SIMDSV_SNIFF_DELIMITER)) {
        simdsv_options_get(opt, SIMDSV_OPT_DELIMITER, &v);
        const char *seq = simdsv_options_get_string(opt, SIMDSV_OPT_DELIMITER_STRING);
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
            if (freq[c] && freq[c] + 1 >= (size_t)(lf + crlf + cr)) {
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
            if (pairs * 2 >= freq[(unsigned char)d] && pairs >= (size_t)(ends ? ends : 1)) {
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
    if (given & (1u << SIMDSV_SNIFF_QUOTE)) {
        simdsv_options_get(opt, SIMDSV_OPT_QUOTE, &v);
        quotes[nq++] = (int)v;
    } else {
        /* No quoting only where '"' never opens a field (inch marks, 5'11"):
         * a file whose quoting is broken keeps '"', so that check reports it. */
        quotes[nq++] = '"';
        if (field_start_quote['\''])
            quotes[nq++] = '\'';
        if (!field_start_quote['"'])
            quotes[nq++] = -1;
    }
    int escapes[2], ne = 0;
    if (given & (1u << SIMDSV_SNIFF_ESCAPE)) {
        simdsv_options_get(opt, SIMDSV_OPT_ESCAPE, &v);
        escapes[ne++] = (int)v;
    } else {
        escapes[ne++] = -1;
        if (backslash_quote)
            escapes[ne++] = '\\';
    }
    /* Padding: a delimiter followed by a space nearly every time is also
     * tried with the spaces trimmed ("a, \"b, c\"" splits right only so). */
    size_t after_space[16] = {0}, occurrences[16] = {0};
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
                dialect *d = &cands[nc++];
                memcpy(d->delim, dl[a], sizeof d->delim);
                d->dlen = dl[a][0] ? strlen(dl[a]) : 1; /* a NUL delimiter (given) is one byte, not none */
                d->quote = quotes[q];
                d->escape = quotes[q] < 0 ? -1 : escapes[e];
                d->comment = comment;
                d->trim = trim;
            }
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
    rows before = {&s->alloc, NULL, 0, 0, NULL, 0, 0, 0};
    score before_score;
    size_t before_span = 0; /* bytes the candidate before looked at */
    for (size_t c = 0; c < nc; c++) {
        if (c && !strcmp(cands[c].delim, cands[c - 1].delim) && cands[c].trim == cands[c - 1].trim &&
            (cands[c].quote < 0 || !memchr(gs[0].p, cands[c].quote, before_span)) &&
            (cands[c - 1].quote < 0 || !memchr(gs[0].p, cands[c - 1].quote, before_span)))
            continue; /* the same rows: the same score, which cannot be better */
        simdsv__sniff_reset_rows(&rs);
        simdsv__sniff_parse_region(&gs[0], 0, &cands[c], SCORE_ROWS, &rs);
        if (rs.nomem) {
            simdsv__sniff_free_rows(&before);
            st = SIMDSV_ERR_NOMEM;
            goto done;
        }
        score sc;
        if (c && !strcmp(cands[c].delim, cands[c - 1].delim) && simdsv__sniff_rows_equal(&rs, &before)) {
            sc = before_score;
        } else {
            /* A reader of records needs the best candidate only: the others
             * are typed only when they could beat it. */
            simdsv__sniff_score_rows(gs, &rs, cands[c].delim[0] != ',',
                                     simdsv__sniff_delimiter_preference(cands[c].delim),
                                     dialect_only ? best_score.value + 1e-9 : -1, &sc);
        }
        const rows parsed = rs;
        rs = before;
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
            simdsv__sniff_reset_rows(&rs);
            simdsv__sniff_parse_region(&gs[0], 0, &cands[c], SCORE_ROWS, &rs);
            score sc;
            simdsv__sniff_score_rows(gs, &rs, 1, 1, -1, &sc);
            if (sc.k >= 2 && sc.mode_rows == sc.rows && !sc.bad_rows && best_score.mode_rows == best_score.rows) {
                second = best;
                second_score = best_score;
                best = c;
                best_score = sc;
            }
            break;
        }
    }
    dialect d = cands[best];
    memcpy(out->delimiter, d.delim, sizeof out->delimiter);
    out->quote = d.quote;
    out->escape = d.escape;
    const size_t k = best_score.k;
    if (given & (1u << SIMDSV_SNIFF_DELIMITER)) {
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
                    simdsv__sniff_show_delim(s, d.delim), k, best_score.mode_rows, best_score.rows, other));
    }

    /* 4. The whole sample with that dialect. */
    simdsv__sniff_reset_rows(&rs);
    simdsv__sniff_parse_all(conv.g, conv.ng, &d, best_score.k, &rs);
    if (rs.nomem) {
        st = SIMDSV_ERR_NOMEM;
        goto done;
    }
    out->sampled_rows = rs.nr;
    size_t nstart = 0, quoted_fields = 0, doubled = 0;
    for (size_t i = 0; i < rs.nr; i++) {
        if (rs.r[i].region == 0)
            nstart++;
        for (size_t f = 0; f < rs.r[i].nfields; f++) {
            const sn_field *fl = &rs.f[rs.r[i].field0 + f];
            if (!fl->quoted)
                continue;
            quoted_fields++;
            const uint8_t *fp = gs[rs.r[i].region].p + fl->off;
            for (size_t j = 0; j < fl->len; j++)
                if ((fp[j] == d.quote && d.escape < 0) || (d.escape >= 0 && fp[j] == d.escape)) {
                    doubled++;
                    break;
                }
        }
    }
    if (given & (1u << SIMDSV_SNIFF_QUOTE))
        decide(s, SIMDSV_SNIFF_QUOTE, 1, "given");
    else if (d.quote < 0)
        decide(s, SIMDSV_SNIFF_QUOTE, 0.8, "none: '\"' never opens a field, and quoting with it rejects more rows");
    else if (quoted_fields)
        decide(s, SIMDSV_SNIFF_QUOTE, best_score.bad_rows ? 0.7 : 1,
               keep(s, "'%c': %zu quoted fields, %zu rows with quoting problems", d.quote, quoted_fields,
                    best_score.bad_rows));
    else
        decide(s, SIMDSV_SNIFF_QUOTE, 0.9, "no quoted field in the sample: '\"' (the default)");
    if (given & (1u << SIMDSV_SNIFF_ESCAPE))
        decide(s, SIMDSV_SNIFF_ESCAPE, 1, "given");
    else if (d.escape >= 0)
        decide(s, SIMDSV_SNIFF_ESCAPE, 0.9,
               keep(s, "backslash: %zu quoted fields hold \\%c, which doubled quotes would misread", doubled, d.quote));
    else if (doubled)
        decide(s, SIMDSV_SNIFF_ESCAPE, 1, keep(s, "doubled quotes in %zu fields", doubled));
    else
        decide(s, SIMDSV_SNIFF_ESCAPE, 0.9, "no escaped quote in the sample: doubled quotes (the default)");

    /* Comment: kept only if the marked lines are not rows of the table: a
     * marked record with the table's field count is data ("#1,..."), and a
     * marked line inside a quoted field is no record at all. */
    if (comment && !(given & (1u << SIMDSV_SNIFF_COMMENT))) {
        dialect plain = d;
        plain.comment = NULL;
        rows marked = {&s->alloc, NULL, 0, 0, NULL, 0, 0, 0};
        simdsv__sniff_parse_region(&gs[0], 0, &plain, START_ROWS, &marked);
        size_t notes = 0, data_like = 0;
        const size_t ml = strlen(comment);
        for (size_t i = 0; i < marked.nr; i++) {
            const sn_row *r = &marked.r[i];
            if (r->kind != ROW_DATA || r->off + ml > gs[0].n || memcmp(gs[0].p + r->off, comment, ml))
                continue;
            if (r->nfields == k && k > 1)
                data_like++;
            else
                notes++;
        }
        simdsv__sniff_free_rows(&marked);
        if (!notes || data_like * 10 > notes) {
            comment = NULL;
            d.comment = NULL;
            if (!simdsv__sniff_reparse(&conv, &d, best_score.k, &rs, out, &nstart)) {
                st = SIMDSV_ERR_NOMEM;
                goto done;
            }
        }
    }
    if (!(given & (1u << SIMDSV_SNIFF_COMMENT))) {
        if (comment) {
            decide(s, SIMDSV_SNIFF_COMMENT, 0.9,
                   keep(s, "'%s': %zu of %zu lines start with it", comment, comment_lines, lines));
        } else {
            decide(s, SIMDSV_SNIFF_COMMENT, 1, "no line starts with # // or %");
        }
    }
    out->comment_marker = comment ? comment : "";
    out->comment = comment ? (unsigned char)comment[0] : -1;

    /* Padding: a space after (nearly) every delimiter. */
    {
        size_t delims = 0, padded = 0;
        for (size_t i = 0; i < rs.nr; i++) {
            const sn_row *r = &rs.r[i];
            if (r->kind != ROW_DATA || r->region)
                continue;
            for (size_t f = 1; f < r->nfields; f++) {
                const sn_field *fl = &rs.f[r->field0 + f];
                delims++;
                padded += fl->len && gs[0].p[fl->off] == ' ' && !fl->quoted;
            }
        }
        if (d.trim) { /* the candidate read trimmed: count on the bytes */
            for (size_t a = 0; a < nd; a++)
                if (!strcmp(dl[a], d.delim)) {
                    delims = occurrences[a];
                    padded = after_space[a];
                }
        }
        out->padding = d.trim || (d.delim[0] != ' ' && delims >= 4 && padded * 10 >= delims * 9);
        if (given & (1u << SIMDSV_SNIFF_PADDING)) {
            simdsv_options_get(opt, SIMDSV_OPT_TRIM_SPACES, &v);
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
        if (out->padding != d.trim && d.delim[0] != ' ' && d.quote != ' ') {
            d.trim = out->padding;
            if (!simdsv__sniff_reparse(&conv, &d, best_score.k, &rs, out, &nstart)) {
                st = SIMDSV_ERR_NOMEM;
                goto done;
            }
        }
    }

    /* Decimal comma: decided per column below, allowed when ',' is not the delimiter. */
    const int dc_allowed = d.delim[0] != ',' || d.dlen > 1;

    /* Preamble: the first row of a run of rows with k fields. */
    size_t t0 = SIZE_MAX;
    for (size_t i = 0; i < nstart; i++) {
        const sn_row *r = &rs.r[i];
        if (r->kind != ROW_DATA || r->nfields != k)
            continue;
        size_t run = 0, need = 0;
        for (size_t j = i + 1; j < nstart && need < 3; j++) {
            if (rs.r[j].kind != ROW_DATA)
                continue;
            need++;
            run += rs.r[j].nfields == k;
        }
        /* Rows are skipped as a preamble only before a table of some length. */
        if (run == need && (i == 0 || need >= 2)) {
            t0 = i;
            break;
        }
    }
    if (t0 == SIZE_MAX) {
        for (t0 = 0; t0 < nstart && rs.r[t0].kind != ROW_DATA; t0++) {
        }
    }
    out->skip_lines = t0 < nstart ? rs.r[t0].line - 1 : 0;

    /* Tables: from t0, a repeated header, or after a blank line a row whose
     * field count changes or that reads as a header again. */
    simdsv_sniff_table tbl[16];
    size_t ntables = 0;
    size_t last_data[16];
    size_t first_row[16];
    if (t0 < nstart) {
        memset(&tbl[0], 0, sizeof tbl[0]);
        tbl[0].first_line = rs.r[t0].line;
        tbl[0].columns = rs.r[t0].nfields;
        tbl[0].byte_start = gs[0].offset + skip0 + rs.r[t0].off;
        first_row[0] = t0;
        last_data[0] = t0;
        ntables = 1;
        int blank = 0;
        for (size_t i = t0 + 1; i < nstart; i++) {
            const sn_row *r = &rs.r[i];
            if (r->kind == ROW_BLANK) {
                blank = 1;
                continue;
            }
            if (r->kind != ROW_DATA)
                continue;
            simdsv_sniff_table *t = &tbl[ntables - 1];
            const sn_row *h = &rs.r[first_row[ntables - 1]];
            int starts = 0;
            if (r->nfields == t->columns && fields_equal(gs, &rs, r, h) && has_text(gs, &rs, h)) {
                starts = 1;
            } else if (r->nfields >= 2 && (r->nfields != t->columns || blank)) {
                /* A new table if at least two rows follow with this count before the next blank line. */
                size_t same = 0, seen = 0;
                for (size_t j = i + 1; j < nstart && seen < 3; j++) {
                    if (rs.r[j].kind == ROW_BLANK)
                        break;
                    if (rs.r[j].kind != ROW_DATA)
                        continue;
                    seen++;
                    same += rs.r[j].nfields == r->nfields;
                }
                if (r->nfields != t->columns)
                    starts = same >= 2 && same == seen;
                else if (same >= 1 && same == seen) {
                    /* Same width after a blank line: a new table only if this row is a header again. */
                    size_t text_here = 0, typed_below = 0;
                    for (size_t f = 0; f < r->nfields; f++) {
                        const simdsv_type hk = simdsv__sniff_kind_of(text_of(gs, &rs, r, f), dc_allowed);
                        const sn_row *below = i + 1 < nstart ? &rs.r[i + 1] : NULL;
                        const simdsv_type bk =
                            below && below->kind == ROW_DATA && below->nfields == r->nfields
                                ? simdsv__sniff_kind_of(text_of(gs, &rs, below, f), dc_allowed)
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
                t->last_line = rs.r[last_data[ntables - 1]].line;
                t->byte_end = gs[0].offset + skip0 + rs.r[last_data[ntables - 1]].end;
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

    /* Footer: trailing rows after the last table row of the right width. */
    uint64_t footer_lines = 0, footer_offset = 0;
    const char *footer_reason = "no footer: the table runs to the end";
    double footer_conf = 1;
    if (ntables) {
        const size_t lt = ntables - 1;
        const size_t width = tbl[lt].columns;
        /* The rows of the end: the start when it is the whole input, else the end region. */
        const size_t endg = conv.ng > 1 ? conv.ng - 1 : 0;
        const int whole = gs[endg].complete;
        if (whole) {
            size_t lo = endg == 0 ? first_row[lt] + 1 : 0, hi = rs.nr;
            if (endg != 0)
                for (lo = 0; lo < rs.nr && rs.r[lo].region != endg; lo++) {
                }
            size_t tail = hi;
            for (size_t i = hi; i > lo; i--) {
                const sn_row *r = &rs.r[i - 1];
                if (r->kind == ROW_DATA && r->nfields == width)
                    break;
                if (r->kind == ROW_DATA)
                    tail = i - 1;
            }
            size_t notes = 0;
            for (size_t i = tail; i < hi; i++)
                notes += rs.r[i].kind == ROW_DATA;
            /* A footer is a few clean rows after a table of some length, set
             * apart by a blank line or narrower than the table: rows that are
             * merely ragged or broken stay in the table (check reports them). */
            size_t table_rows = 0, broken = 0, narrow = 0;
            for (size_t i = endg == 0 ? first_row[lt] : lo; i < tail; i++)
                table_rows += rs.r[i].kind == ROW_DATA && rs.r[i].nfields == width;
            for (size_t i = tail; i < hi; i++) {
                broken += rs.r[i].kind == ROW_DATA && rs.r[i].bad;
                narrow += rs.r[i].kind == ROW_DATA && rs.r[i].nfields * 2 <= width;
            }
            const int apart = tail > lo && rs.r[tail - 1].kind == ROW_BLANK;
            if (tail < hi && notes && notes <= 10 && table_rows >= 3 && !broken && (apart || narrow == notes)) {
                const sn_row *f = &rs.r[tail];
                footer_offset = gs[endg].offset + (endg == 0 ? skip0 : 0) + f->off;
                footer_lines = simdsv__sniff_count_lines(gs[endg].p + f->off, gs[endg].n - f->off);
                footer_reason = keep(s, "%zu row%s after the table with other than %zu fields (totals or notes)",
                                     notes, notes == 1 ? "" : "s", width);
                footer_conf = 0.8;
                /* Blank lines just before the footer end the table too. */
                for (size_t i = tail; i > lo && rs.r[i - 1].kind == ROW_BLANK; i--) {
                    footer_offset = gs[endg].offset + (endg == 0 ? skip0 : 0) + rs.r[i - 1].off;
                    footer_lines++;
                }
                if (endg == 0)
                    tbl[lt].last_line = rs.r[tail].line - 1;
            } else if (endg == 0) {
                for (size_t i = hi; i > lo; i--)
                    if (rs.r[i - 1].kind == ROW_DATA) {
                        tbl[lt].last_line = rs.r[i - 1].line;
                        break;
                    }
            }
        } else {
            footer_reason = "not looked for: only the start of a stream was sampled";
            footer_conf = NOT_SURE;
        }
    }
    /* Where the reader cuts: input offsets.  A UTF-16 sample maps back (two
     * or four input bytes per code point); another converted one does not. */
    uint64_t footer_cut = footer_offset;
    if (converted && enc.kind != ENCODING_ICONV) {
        for (size_t t = 0; t < ntables; t++) {
            tbl[t].byte_start = simdsv__sniff_utf16_offset(in, &conv, bufs, 0, (size_t)tbl[t].byte_start);
            if (tbl[t].byte_end)
                tbl[t].byte_end = simdsv__sniff_utf16_offset(in, &conv, bufs, 0, (size_t)tbl[t].byte_end);
        }
        if (footer_offset) {
            const size_t endg = conv.ng > 1 ? conv.ng - 1 : 0;
            footer_cut = simdsv__sniff_utf16_offset(in, &conv, bufs, endg, (size_t)(footer_offset - gs[endg].offset));
        }
    } else if (converted && (footer_offset || ntables > 1)) {
        footer_reason = keep(s, "%s (not cut: offsets in the input of iconv are not known)", footer_reason);
        footer_offset = footer_cut = 0;
        for (size_t t = 0; t < ntables; t++)
            tbl[t].byte_end = 0;
    }

    /* Which table is read. */
    size_t want = params ? params->table : 0;
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
        out->footer_lines = footer_lines;
    }
    if (given & (1u << SIMDSV_SNIFF_PREAMBLE)) {
        simdsv_options_get(opt, SIMDSV_OPT_SKIP_LINES, &v);
        out->skip_lines = (uint64_t)v;
        decide(s, SIMDSV_SNIFF_PREAMBLE, 1, "given");
    } else if (out->skip_lines) {
        decide(s, SIMDSV_SNIFF_PREAMBLE, 0.85,
               keep(s, "%llu line%s before the table (titles, notes or blank lines: rows without %zu fields)",
                    (unsigned long long)out->skip_lines, out->skip_lines == 1 ? "" : "s", k));
    } else {
        decide(s, SIMDSV_SNIFF_PREAMBLE, t0 < nstart ? 1 : NOT_SURE, "the table starts on the first line");
    }
    decide(s, SIMDSV_SNIFF_FOOTER, footer_conf, footer_reason);

    /* Header and columns of the table read. */
    if (ntables) {
        simdsv_sniff_table *t = &tbl[ti];
        const size_t h0 = first_row[ti];
        const size_t width = t->columns;
        /* Rows of the body: the rest of this table in the start, and the
         * middle and end when this is the last table. */
        size_t body_from = h0 + 1;
        size_t body_end = ti + 1 < ntables ? first_row[ti + 1] : rs.nr;
        size_t nbody_rows = 0;
        for (size_t i = body_from; i < body_end; i++)
            nbody_rows += rs.r[i].kind == ROW_DATA && rs.r[i].nfields == width;
        /* Leave possible header rows out of the body kinds when there are enough rows. */
        body_kinds bk;
        bk.gs = gs;
        bk.rs = &rs;
        bk.from = body_from;
        bk.end = body_end;
        bk.width = width;
        bk.skip_more = nbody_rows > 2 * MAX_HEADER_ROWS ? MAX_HEADER_ROWS - 1 : 0;
        bk.footer_offset = footer_offset;
        bk.last_region = conv.ng - 1;
        bk.dc = dc_allowed;
        const size_t kc = width < 512 ? width : 512;
        memset(bk.known, 0, sizeof bk.known);
        const sn_row *h = &rs.r[h0];
        int header = 1;
        uint64_t header_rows = 1;
        double hconf = 1;
        const char *hreason = "given";
        if (given & (1u << SIMDSV_SNIFF_HEADER_ROWS)) { /* wins over the header given */
            header_rows = params->header_rows;
            header = header_rows > 0;
        } else if (given & (1u << SIMDSV_SNIFF_HEADER)) {
            simdsv_options_get(opt, SIMDSV_OPT_HEADER, &v);
            header = v != 0;
            header_rows = header;
        } else {
            const int first = first_row_kind(&bk, h, kc);
            header = first != FIRST_ROW_DATA;
            header_rows = header;
            if (first == FIRST_ROW_TEXT_OVER_TYPED) {
                for (size_t i = h0 + 1; i < body_end && header_rows < MAX_HEADER_ROWS; i++) {
                    const sn_row *r = &rs.r[i];
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
            } else {
                /* Only text: a header when its names are distinct and not repeated below. */
                int distinct = 1, recur = 0;
                for (size_t a = 0; a < kc && distinct; a++) {
                    const field_text x = text_of(gs, &rs, h, a);
                    for (size_t b = a + 1; b < kc; b++) {
                        const field_text y = text_of(gs, &rs, h, b);
                        if (x.n && x.n == y.n && !memcmp(x.s, y.s, x.n))
                            distinct = 0;
                    }
                    for (size_t i = body_from; i < body_end && !recur; i++) {
                        const sn_row *r = &rs.r[i];
                        if (r->kind != ROW_DATA || r->nfields != width)
                            continue;
                        const field_text y = text_of(gs, &rs, r, a);
                        recur = x.n && x.n == y.n && !memcmp(x.s, y.s, x.n);
                    }
                }
                /* Not sure either way: the default (a header) is kept. */
                hconf = distinct && !recur ? 0.6 : 0.4;
                hreason = distinct && !recur ? "every column is text; the first row is taken as the header (distinct "
                                               "names that do not recur below)"
                                             : "not sure: every column is text and the first row repeats a value; a "
                                               "header assumed (the default)";
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
        for (size_t hd = 0; first_data < rs.nr && rs.r[first_data].region == 0 && hd < header_rows; first_data++)
            hd += rs.r[first_data].kind == ROW_DATA;
        while (first_data < rs.nr && rs.r[first_data].region == 0 && rs.r[first_data].kind != ROW_DATA)
            first_data++;
        if (first_data < rs.nr && rs.r[first_data].region == 0) {
            const size_t off = rs.r[first_data].off;
            t->data_start = !converted                    ? gs[0].offset + skip0 + off
                            : enc.kind != ENCODING_ICONV ? simdsv__sniff_utf16_offset(in, &conv, bufs, 0, off)
                                                         : 0;
        }
        decide(s, SIMDSV_SNIFF_HEADER, hconf, hreason);
        decide(s, SIMDSV_SNIFF_HEADER_ROWS, header_rows > 1 ? 0.7 : hconf,
               header_rows > 1 ? keep(s, "%llu rows: each column's names joined with a space",
                                      (unsigned long long)header_rows)
                               : header ? "one row" : "no header");

        /* Columns: types and formats over the body below the header rows. */
        s->columns = simdsv__alloc(&s->alloc, (kc ? kc : 1) * sizeof *s->columns);
        /* The body and the first row (a row of data without a header). */
        const size_t vals_cap = nbody_rows + 1;
        field_text *vals = dialect_only ? NULL : simdsv__alloc(&s->alloc, vals_cap * sizeof *vals);
        if (!s->columns || (!vals && !dialect_only)) {
            simdsv__free(&s->alloc, vals, vals_cap * sizeof *vals);
            st = SIMDSV_ERR_NOMEM;
            goto done;
        }
        int any_dc = 0, any_dot = 0, any_comma_groups = 0, any_dot_groups = 0;
        for (size_t c = 0; c < kc; c++) {
            simdsv_sniff_column *col = &s->columns[c];
            memset(col, 0, sizeof *col);
            /* The name: the header rows' cells joined with a space. */
            char name[256], shown[3 * sizeof name + 1];
            size_t nl = 0;
            name[0] = '\0';
            size_t hr = 0;
            for (size_t i = h0; i < body_end && hr < header_rows; i++) {
                const sn_row *r = &rs.r[i];
                if (r->kind != ROW_DATA)
                    continue;
                hr++;
                field_text x = c < r->nfields ? text_of(gs, &rs, r, c) : (field_text){"", 0};
                /* An empty cell of an upper header row stands for its left neighbour (a merged cell). */
                for (size_t left = c; header_rows > 1 && hr < header_rows && !x.n && left > 0;) {
                    left--;
                    x = text_of(gs, &rs, r, left);
                }
                if (!x.n)
                    continue;
                const int wrote = snprintf(name + nl, sizeof name - nl, "%s%.*s", nl ? " " : "", (int)x.n, x.s);
                if (wrote > 0)
                    nl = nl + (size_t)wrote < sizeof name ? nl + (size_t)wrote : sizeof name - 1;
            }
            col->name = header ? keep(s, "%s", simdsv__sniff_utf8_name(&enc, name, nl, shown)) : "";
            if (dialect_only) {
                col->type = SIMDSV_TYPE_NULL;
                col->format = "";
                col->reason = "not typed (dialect only)";
                continue;
            }
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
                const sn_row *r = &rs.r[i];
                if (r->kind != ROW_DATA || r->nfields != width)
                    continue;
                if (rowi++ < header_rows)
                    continue;
                if (footer_offset && r->region == conv.ng - 1 &&
                    gs[r->region].offset + (r->region ? 0 : skip0) + r->off >= footer_offset)
                    continue;
                const field_text x = text_of(gs, &rs, r, c);
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
                any_comma_groups = 1;
                col->type = grouped_frac || dot_hits ? SIMDSV_TYPE_FLOAT64 : SIMDSV_TYPE_INT64;
                col->format = "1,234.56";
                col->reason = keep(s, "%s with ',' grouping thousands in %zu of %zu values",
                                   simdsv_type_name(col->type), grouped, nv);
                col->confidence = 0.9;
            } else if (dot_grouped && dot_grouped_sure && !not_dot_grouped && !dc_hits) {
                any_dot_groups = 1;
                col->type = SIMDSV_TYPE_INT64;
                col->format = "1.234.567";
                col->reason = keep(s, "int64 with '.' grouping thousands in %zu of %zu values", dot_grouped, nv);
                col->confidence = 0.8;
            } else if (dc_hits) {
                any_dc = 1;
                col->format = dc_th ? "1.234,56" : "decimal comma";
                col->reason = keep(s, "float64 with a decimal comma in %zu of %zu values%s", dc_hits, nv,
                                   dc_th ? " ('.' groups thousands)" : "");
                any_dot_groups |= dc_th;
                col->confidence = 0.9;
            } else if (kind == SIMDSV_TYPE_STRING && nv && simdsv__sniff_guess_date(s, vals, nv, &fg)) {
                col->type = fg.type;
                col->format = fg.format;
                col->confidence = fg.confidence;
                col->reason = fg.reason;
            }
            /* A decimal point counts where the column reads as float64 with it. */
            any_dot |= dot_hits > 0 && col->type == SIMDSV_TYPE_FLOAT64 && !dc_hits;
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
        if (given & (1u << SIMDSV_SNIFF_DATES)) {
            simdsv_options_get(opt, SIMDSV_OPT_DATE_ORDER, &v);
            out->date_order = (simdsv_date_order)v;
            decide(s, SIMDSV_SNIFF_DATES, 1, "given");
        }
        out->decimal_comma = any_dc && !any_dot && !any_comma_groups;
        /* One separator for the reader: ',' with a decimal point, '.' with a decimal comma. */
        out->thousands = out->decimal_comma ? (any_dot_groups ? '.' : 0) : any_comma_groups ? ',' : 0;
        if (given & (1u << SIMDSV_SNIFF_DECIMAL)) {
            simdsv_options_get(opt, SIMDSV_OPT_DECIMAL_COMMA, &v);
            out->decimal_comma = v != 0;
            simdsv_options_get(opt, SIMDSV_OPT_THOUSANDS, &v);
            out->thousands = v > 0 ? (int)v : 0;
            decide(s, SIMDSV_SNIFF_DECIMAL, 1, "given");
        } else {
            const int mixed = any_dc && (any_dot || any_comma_groups);
            decide(s, SIMDSV_SNIFF_DECIMAL, mixed ? NOT_SURE : 0.9,
                   mixed ? "not sure: some columns use a decimal comma, others a decimal point"
                   : out->thousands == '.' ? "decimal comma, '.' groups thousands (1.234,56)"
                   : any_dc ? "decimal comma (numbers such as 3,14 where ',' is not the delimiter)"
                   : out->thousands == ',' ? "decimal point, ',' groups thousands (1,234.56)"
                                           : "decimal point");
        }
        /* Nothing was typed: the defaults, and no claim about the values. */
        if (dialect_only && !(given & (1u << SIMDSV_SNIFF_DATES)))
            decide(s, SIMDSV_SNIFF_DATES, 0, "not looked for (dialect only)");
        if (dialect_only && !(given & (1u << SIMDSV_SNIFF_DECIMAL)))
            decide(s, SIMDSV_SNIFF_DECIMAL, 0, "not looked for (dialect only)");
    } else {
        decide(s, SIMDSV_SNIFF_HEADER, NOT_SURE, "not sure: no rows");
        decide(s, SIMDSV_SNIFF_HEADER_ROWS, NOT_SURE, "not sure: no rows");
        decide(s, SIMDSV_SNIFF_DECIMAL, NOT_SURE, "not sure: no rows");
        decide(s, SIMDSV_SNIFF_DATES, NOT_SURE, "not sure: no rows");
        out->header = 1;
        out->header_rows = 1;
    }
    if (ntables) {
        s->tables = simdsv__alloc(&s->alloc, ntables * sizeof *s->tables);
        if (!s->tables) {
            st = SIMDSV_ERR_NOMEM;
            goto done;
        }
        memcpy(s->tables, tbl, ntables * sizeof *tbl);
        s->tables_cap = ntables;
        out->tables = s->tables;
        out->table_count = ntables;
    }
    if (out->binary) {
        for (int k2 = SIMDSV_SNIFF_DELIMITER; k2 < SIMDSV_SNIFF_SETTING_COUNT; k2++)
            if (!out->decisions[k2].given)
                decide(s, (simdsv_sniff_setting)k2, 0.1, "not sure: the input is not text");
    }
done:
    for (size_t i = 0; i < 3; i++)
        simdsv__free(&s->alloc, bufs[i], caps[i]);
    simdsv__sniff_free_rows(&rs);
    return st;
}

static simdsv_status make(const simdsv_sniff_params *params, sniff_impl **out)
{
    simdsv_allocator a;
    if (params && params->opt) {
        a = params->opt->alloc;
    } else {
        struct simdsv_options d;
        simdsv__options_defaults(&d);
        a = d.alloc;
    }
    sniff_impl *s = simdsv__alloc(&a, sizeof *s);
    if (!s)
        return SIMDSV_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    s->alloc = a;
    *out = s;
    return SIMDSV_OK;
}

void simdsv_sniff_free(simdsv_sniff *sniff)
{
    if (!sniff)
        return;
    sniff_impl *s = (sniff_impl *)sniff;
    const simdsv_allocator a = s->alloc;
    for (text_node *t = s->texts; t;) {
        text_node *next = t->next;
        simdsv__free(&a, t, t->size);
        t = next;
    }
    simdsv__free(&a, s->tables, s->tables_cap * sizeof *s->tables);
    simdsv__free(&a, s->columns, (s->pub.column_count ? s->pub.column_count : 1) * sizeof *s->columns);
    simdsv__free(&a, s, sizeof *s);
}

static simdsv_status finish(sniff_impl *s, simdsv_status st, simdsv_sniff **out)
{
    if (st != SIMDSV_OK) {
        simdsv_sniff_free(&s->pub);
        return st;
    }
    *out = &s->pub;
    return SIMDSV_OK;
}

simdsv_status simdsv_sniff_memory(const void *data, size_t size, const simdsv_sniff_params *params,
                                  simdsv_sniff **out)
{
    if (!out || (!data && size))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    sniff_impl *s;
    simdsv_status st = make(params, &s);
    if (st != SIMDSV_OK)
        return st;
    sniff_input in;
    memset(&in, 0, sizeof in);
    const uint8_t *p = data ? data : (const uint8_t *)"";
    in.g[0].p = p;
    in.g[0].n = size < START_SAMPLE ? size : START_SAMPLE;
    in.g[0].is_start = 1;
    in.g[0].complete = size <= START_SAMPLE;
    in.ng = 1;
    in.input_size = size;
    if (params && params->partial) {
        in.g[0].complete = 0;
        in.input_size = 0;
    } else if (size > START_SAMPLE + 2 * PART_SAMPLE) {
        const size_t mid = (size / 2) & ~(size_t)1;
        in.g[1].p = p + mid;
        in.g[1].n = PART_SAMPLE;
        in.g[1].offset = mid;
        in.g[2].p = p + (size - PART_SAMPLE);
        in.g[2].n = PART_SAMPLE;
        in.g[2].offset = size - PART_SAMPLE;
        in.g[2].complete = 1;
        in.ng = 3;
    } else if (size > START_SAMPLE) {
        in.g[0].n = size;
        in.g[0].complete = 1;
    }
    return finish(s, run(s, &in, params), out);
}

static int read_at(int fd, uint8_t *buf, size_t size, uint64_t at, size_t *got)
{
    *got = 0;
    while (*got < size) {
        ssize_t n;
        do
            n = pread(fd, buf + *got, size - *got, (off_t)(at + *got));
        while (n < 0 && errno == EINTR);
        if (n < 0)
            return errno;
        if (n == 0)
            break;
        *got += (size_t)n;
    }
    return 0;
}

simdsv_status simdsv_sniff_path(const char *path, const simdsv_sniff_params *params, simdsv_sniff **out,
                                int *os_errno)
{
    int dummy;
    if (!os_errno)
        os_errno = &dummy;
    *os_errno = 0;
    if (!path || !out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        *os_errno = errno;
        return SIMDSV_ERR_IO;
    }
    struct stat stt;
    if (fstat(fd, &stt) != 0 || S_ISDIR(stt.st_mode)) {
        *os_errno = S_ISDIR(stt.st_mode) ? EISDIR : errno;
        close(fd);
        return SIMDSV_ERR_IO;
    }
    sniff_impl *s;
    simdsv_status st = make(params, &s);
    if (st != SIMDSV_OK) {
        close(fd);
        return st;
    }
    const size_t cap = START_SAMPLE + 2 * PART_SAMPLE;
    uint8_t *buf = simdsv__alloc(&s->alloc, cap);
    if (!buf) {
        close(fd);
        return finish(s, SIMDSV_ERR_NOMEM, out);
    }
    sniff_input in;
    memset(&in, 0, sizeof in);
    const int regular = S_ISREG(stt.st_mode);
    const uint64_t size = regular ? (uint64_t)stt.st_size : 0;
    size_t got = 0;
    int err = 0;
    if (regular) {
        err = read_at(fd, buf, START_SAMPLE, 0, &got);
    } else {
        while (!err && got < START_SAMPLE) {
            ssize_t n;
            do
                n = read(fd, buf + got, START_SAMPLE - got);
            while (n < 0 && errno == EINTR);
            if (n < 0)
                err = errno;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
    }
    in.g[0].p = buf;
    in.g[0].n = got;
    in.g[0].is_start = 1;
    in.g[0].complete = regular ? size <= START_SAMPLE : got < START_SAMPLE;
    in.ng = 1;
    in.input_size = size;
    if (!err && regular && size > cap) {
        const uint64_t mid = (size / 2) & ~(uint64_t)1;
        size_t g1 = 0, g2 = 0;
        err = read_at(fd, buf + START_SAMPLE, PART_SAMPLE, mid, &g1);
        if (!err)
            err = read_at(fd, buf + START_SAMPLE + PART_SAMPLE, PART_SAMPLE, size - PART_SAMPLE, &g2);
        in.g[1].p = buf + START_SAMPLE;
        in.g[1].n = g1;
        in.g[1].offset = mid;
        in.g[2].p = buf + START_SAMPLE + PART_SAMPLE;
        in.g[2].n = g2;
        in.g[2].offset = size - PART_SAMPLE;
        in.g[2].complete = 1;
        in.ng = 3;
    } else if (!err && regular && size > START_SAMPLE) {
        size_t more = 0;
        err = read_at(fd, buf + got, (size_t)size - got, got, &more);
        in.g[0].n = got + more;
        in.g[0].complete = 1;
    }
    close(fd);
    if (err) {
        *os_errno = err;
        simdsv__free(&s->alloc, buf, cap);
        return finish(s, SIMDSV_ERR_IO, out);
    }
    st = run(s, &in, params);
    simdsv__free(&s->alloc, buf, cap);
    return finish(s, st, out);
}

simdsv_status simdsv_sniff_apply(const simdsv_sniff *s, simdsv_options *opt)
{
    if (!s || !opt)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    simdsv_status st;
    if ((st = s->delimiter[1] ? simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, s->delimiter)
                              : simdsv_options_set(opt, SIMDSV_OPT_DELIMITER, (unsigned char)s->delimiter[0])) !=
            SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_TRIM_SPACES, s->padding != 0)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_THOUSANDS, s->thousands ? s->thousands : -1)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_QUOTE, s->quote)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_ESCAPE, s->escape)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_COMMENT, s->comment)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_HEADER, s->header != 0)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_HEADER_ROWS, s->header_rows > 1 ? (int64_t)s->header_rows : 1)) !=
            SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_SKIP_LINES, (int64_t)s->skip_lines)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_END_OFFSET, (int64_t)s->end_offset)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_DECIMAL_COMMA, s->decimal_comma != 0)) != SIMDSV_OK ||
        (st = simdsv_options_set(opt, SIMDSV_OPT_DATE_ORDER, s->date_order)) != SIMDSV_OK)
        return st;
    return simdsv_options_set_string(opt, SIMDSV_OPT_ENCODING, strcmp(s->encoding, "utf-8") ? s->encoding : NULL);
}

const char *simdsv_sniff_setting_name(simdsv_sniff_setting setting)
{
    static const char *const names[SIMDSV_SNIFF_SETTING_COUNT] = {
        "encoding", "delimiter",   "quote",  "escape", "line_ending", "comment", "preamble",
        "footer",   "header",      "header_rows", "tables", "padding", "decimal", "dates"};
    return (unsigned)setting < SIMDSV_SNIFF_SETTING_COUNT ? names[setting] : NULL;
}

