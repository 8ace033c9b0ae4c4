/*
 * test_range.c — byte ranges (simdsv_range_summarize / _combine /
 * simdsv_reader_open_range): random inputs cut at random places (inside
 * quotes, between a CR and its LF, inside UTF-8 sequences, at every byte of
 * small inputs) read range by range equal the whole read: the same records
 * at the same offsets, the same first error at the same byte, line and
 * column, and for the typed reader the same values, in the dialects the
 * quote parity cuts and in those the record grammar cuts (escape byte,
 * comment lines, lenient mode, a delimiter of two bytes, trimmed spaces).
 * Runs once per kernel.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "simdsv.h"

static uint32_t rng = 12345;
static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* What a read yields, flattened: per record its offset and decoded fields
 * ("\x1f" between fields, "\x1e" after the record), then the error if any. */
typedef struct outcome {
    char *text;
    size_t len, cap;
    simdsv_error err;
} outcome;

static void put(outcome *o, const void *p, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        o->cap = (o->len + n + 1) * 2;
        o->text = realloc(o->text, o->cap);
        if (!o->text)
            abort();
    }
    memcpy(o->text + o->len, p, n);
    o->len += n;
}

/* The dialects inputs are read in: two the quote parity cuts, the others
 * by the record grammar. */
enum { PLAIN, PIPES, ESCAPE, COMMENT, LENIENT, LENIENT_PIPES, EVERYTHING, DIALECTS };
static const char *const dialect_names[DIALECTS] = {"plain", "||", "escape", "comment", "lenient", "lenient ||",
                                                    "everything"};
static int dialect = PLAIN;

static simdsv_options *options(int header)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_HEADER, header);
    if (dialect == PIPES || dialect == LENIENT_PIPES || dialect == EVERYTHING)
        simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, "||");
    if (dialect == ESCAPE || dialect == EVERYTHING)
        simdsv_options_set(opt, SIMDSV_OPT_ESCAPE, '\\');
    if (dialect == COMMENT)
        simdsv_options_set(opt, SIMDSV_OPT_COMMENT, '#');
    if (dialect == EVERYTHING) {
        simdsv_options_set_string(opt, SIMDSV_OPT_COMMENT_STRING, "//");
        simdsv_options_set(opt, SIMDSV_OPT_TRIM_SPACES, 1);
    }
    if (dialect == LENIENT || dialect == LENIENT_PIPES || dialect == EVERYTHING)
        simdsv_options_set(opt, SIMDSV_OPT_LENIENT, 1);
    return opt;
}

/* Reads every record of r into o; returns 0 at the end, 1 after an error. */
static int drain(simdsv_reader *r, outcome *o)
{
    simdsv_record rec;
    simdsv_status st;
    st = simdsv_reader_header(r, &rec);
    if (st == SIMDSV_OK) {
        put(o, "H", 1);
        for (size_t i = 0; i < rec.field_count; i++) {
            put(o, rec.fields[i].data, rec.fields[i].size);
            put(o, "\x1f", 1);
        }
    } else if (st != SIMDSV_END && st != SIMDSV_ERR_INVALID_ARGUMENT) { /* (the latter: no header) */
        o->err = *simdsv_reader_error(r);
        return 1;
    }
    while ((st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        char at[32];
        put(o, at, (size_t)snprintf(at, sizeof at, "@%llu:", (unsigned long long)rec.byte_offset));
        for (size_t i = 0; i < rec.field_count; i++) {
            const char *d;
            size_t n;
            if (simdsv_reader_unescape(r, &rec.fields[i], &d, &n) != SIMDSV_OK)
                abort();
            put(o, d, n);
            put(o, "\x1f", 1);
        }
        put(o, "\x1e", 1);
    }
    if (st == SIMDSV_END)
        return 0;
    o->err = *simdsv_reader_error(r);
    return 1;
}

static void whole_read(const char *csv, size_t n, int header, outcome *o)
{
    simdsv_options *opt = options(header);
    simdsv_reader *r = NULL;
    if (simdsv_reader_new(&r, opt) != SIMDSV_OK)
        exit(77); /* this kernel cannot run here */
    simdsv_reader_open_memory(r, csv, n);
    drain(r, o);
    simdsv_reader_free(r);
    simdsv_options_free(opt);
}

/* The ranges of csv cut at cuts[0..ncuts) (sorted, inside (0, n)). */
static int split(const char *csv, size_t n, const size_t *cuts, size_t ncuts, const simdsv_options *opt,
                 simdsv_range *out)
{
    simdsv_range_summary s[16];
    for (size_t i = 0; i <= ncuts; i++) {
        const size_t b = i ? cuts[i - 1] : 0, e = i < ncuts ? cuts[i] : n;
        simdsv_error err;
        if (simdsv_range_summarize(opt, csv + b, e - b, b, b ? (unsigned char)csv[b - 1] : -1, &s[i], &err) !=
            SIMDSV_OK)
            return 0;
    }
    return simdsv_range_combine(s, ncuts + 1, out) == SIMDSV_OK;
}

/* Reads the ranges one by one into o, stopping at the first failing one.
 * Returns 0 when the combine refused the cuts. */
static int range_read(const char *csv, size_t n, int header, const size_t *cuts, size_t ncuts, outcome *o)
{
    simdsv_options *opt = options(header);
    simdsv_range ranges[16];
    if (!split(csv, n, cuts, ncuts, opt, ranges)) {
        simdsv_options_free(opt);
        return 0;
    }
    for (size_t i = 0; i <= ncuts; i++) {
        simdsv_reader *r = NULL;
        simdsv_reader_new(&r, opt);
        CHECK(simdsv_reader_open_range(r, csv + ranges[i].start, &ranges[i]) == SIMDSV_OK);
        const int failed_here = drain(r, o);
        simdsv_reader_free(r);
        if (failed_here)
            break;
    }
    simdsv_options_free(opt);
    return 1;
}

static int same_outcome(const outcome *a, const outcome *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->text, b->text, a->len) == 0) &&
           a->err.code == b->err.code && a->err.byte_offset == b->err.byte_offset && a->err.line == b->err.line &&
           a->err.column == b->err.column;
}

/* A random CSV: quoted fields with line ends (LF, CRLF, CR) and doubled
 * quotes, UTF-8 text, empty lines, CRLF or LF records, sometimes a BOM, a
 * missing final line end, or (bad) a quote inside an unquoted field; and
 * what the dialect makes special: escaped quotes and line ends after them,
 * comment lines with unbalanced quotes (and records that only start like
 * one), stray quotes for lenient mode, single pipes and runs of three
 * beside the `||` delimiter, spaces around fields. */
static size_t random_csv(char *csv, size_t cap, int allow_errors)
{
    static const char *const pieces[] = {"a", "bc", "\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80",
                                         "1.5", "-7", "x y", ""};
    static const char *const quoted[] = {"\"q,1\"", "\"line\nbreak\"", "\"crlf\r\nin\"", "\"cr\rin\"",
                                         "\"say \"\"hi\"\"\"", "\"\"", "\"\xc3\xa9\n\xf0\x9f\x98\x80\""};
    static const char *const escaped[] = {"\"a\\\"b\"", "\"\\\\\"", "\"x\\\"\n,y\"", "c\\d", "\"\\\n\""};
    static const char *const stray[] = {"a\"b", "\"x\"y", "\"q\" z", "\"open\n", "\"\"\"", "\"a\"\"\n\""};
    static const char *const piped[] = {"a|b", "x|", "|y", "\"p||q\"", "|"};
    static const char *const spaced[] = {" a ", "  ", " \"s, t\" ", "\"u\"  "};
    static const char *const comments[] = {"#say \"hi", "#\"", "a#b", "#", "// \"x", "//", "/x", "/"};
    const int pipes = dialect == PIPES || dialect == LENIENT_PIPES || dialect == EVERYTHING;
    const int lenient = dialect == LENIENT || dialect == LENIENT_PIPES || dialect == EVERYTHING;
    size_t len = 0;
    if (next_random() % 8 == 0) {
        memcpy(csv, "\xEF\xBB\xBF", 3);
        len = 3;
    }
    const unsigned rows = 1 + next_random() % 12, cols = 1 + next_random() % 4;
    const int crlf = next_random() % 2;
    for (unsigned row = 0; row < rows && len + 200 < cap; row++) {
        if (next_random() % 10 == 0)
            csv[len++] = '\n';
        if ((dialect == COMMENT || dialect == EVERYTHING) && next_random() % 4 == 0) {
            const char *line = comments[next_random() % 4 + (dialect == EVERYTHING ? 4 : 0)];
            len += (size_t)snprintf(csv + len, cap - len, "%s%s", line, crlf ? "\r\n" : "\n");
            continue;
        }
        for (unsigned c = 0; c < cols; c++) {
            const char *f = next_random() % 3 == 0 ? quoted[next_random() % 7] : pieces[next_random() % 9];
            const unsigned special = next_random() % 4;
            if ((dialect == ESCAPE || dialect == EVERYTHING) && special == 0)
                f = escaped[next_random() % 5];
            else if (lenient && special == 1)
                f = stray[next_random() % 6];
            else if (pipes && special == 2)
                f = piped[next_random() % 5];
            else if (dialect == EVERYTHING && special == 3)
                f = spaced[next_random() % 4];
            if (allow_errors && next_random() % 40 == 0)
                f = "bad\"quote";
            len += (size_t)snprintf(csv + len, cap - len, "%s%s", c ? pipes ? "||" : "," : "", f);
        }
        if (row + 1 < rows || next_random() % 2)
            len += (size_t)snprintf(csv + len, cap - len, "%s", crlf ? "\r\n" : "\n");
    }
    return len;
}

static void random_splits(void)
{
    char csv[4096];
    int refusals = 0;
    const int rounds = dialect == PLAIN ? 3000 : 600;
    for (int round = 0; round < rounds; round++) {
        const int errors = round % 3 == 0, header = round % 2;
        const size_t n = random_csv(csv, sizeof csv, errors);
        if (n < 2)
            continue;
        outcome whole = {0}, parts = {0};
        whole_read(csv, n, header, &whole);
        size_t cuts[15], ncuts = 1 + next_random() % 15;
        if (ncuts > n - 1)
            ncuts = n - 1;
        for (size_t i = 0; i < ncuts; i++)
            cuts[i] = 1 + next_random() % (n - 1);
        for (size_t i = 1; i < ncuts; i++) /* insertion sort, duplicates allowed: empty ranges */
            for (size_t k = i; k > 0 && cuts[k - 1] > cuts[k]; k--) {
                const size_t t = cuts[k];
                cuts[k] = cuts[k - 1];
                cuts[k - 1] = t;
            }
        if (!range_read(csv, n, header, cuts, ncuts, &parts)) {
            /* Refused only when the header row does not end in the first
             * range: then no data record starts in it either. */
            const char *first = whole.len ? memchr(whole.text, '@', whole.len) : NULL;
            CHECK(header && (!first || strtoull(first + 1, NULL, 10) > cuts[0]));
            refusals++;
            free(whole.text);
            continue;
        }
        CHECK(same_outcome(&whole, &parts));
        if (!same_outcome(&whole, &parts)) {
            fprintf(stderr, "%s, round %d: %zu ranges differ from the whole read (error %s/%s at %llu/%llu)\n",
                    dialect_names[dialect], round, ncuts + 1, simdsv_status_name(whole.err.code), simdsv_status_name(parts.err.code),
                    (unsigned long long)whole.err.byte_offset, (unsigned long long)parts.err.byte_offset);
            free(whole.text);
            free(parts.text);
            return;
        }
        free(whole.text);
        free(parts.text);
    }
    printf("%s: %d of %d cuts refused (the first cut before the header row's end)\n", dialect_names[dialect],
           refusals, rounds);
    CHECK(refusals < rounds * 2 / 5); /* header in half of the rounds, the first of up to 15 cuts often early */
}

/* Two ranges, the cut at every byte: inside quotes, between CR and LF,
 * inside each UTF-8 sequence. */
static void every_cut(void)
{
    static const char csv[] = "\xEF\xBB\xBFid,text\r\n1,\"a\r\nb\"\r\n2,\xe6\x97\xa5\xe6\x9c\xac\r\n\r\n"
                              "3,\"x\"\"\ny\"\r4,\"\xf0\x9f\x98\x80,\"\n5,\"\"\n6,last";
    const size_t n = sizeof csv - 1;
    outcome whole = {0};
    whole_read(csv, n, 1, &whole);
    CHECK(whole.err.code == SIMDSV_OK);
    for (size_t cut = 1; cut < n; cut++) {
        outcome parts = {0};
        const int read = range_read(csv, n, 1, &cut, 1, &parts);
        CHECK(read ? same_outcome(&whole, &parts) : cut < 14); /* the header row ends at 14 */
        free(parts.text);
    }
    free(whole.text);
}

/* Every dialect the grammar cuts at once (lenient, escape byte, `//`
 * comments, `||`, trimmed spaces), two and three ranges: the first cut
 * at every byte of an input holding each of its traps, the second at every
 * seventh after it. */
static void every_cut_grammar(void)
{
    static const char csv[] = "id||text\r\n// a \"comment\r\n1|| \"a\\\"\r\nb\" ||x|||y\r\n/x||\"q\"z\n"
                              "\n2||\"\\\\\"  ||\xe6\x97\xa5\r3||a\"b||\"open\n||\"\n4||last";
    const size_t n = sizeof csv - 1;
    dialect = EVERYTHING;
    outcome whole = {0};
    whole_read(csv, n, 1, &whole);
    CHECK(whole.err.code == SIMDSV_OK);
    /* `x|||y`: the delimiter is the first two pipes. */
    CHECK(whole.len > 27 && memcmp(whole.text, "H" "id\x1f" "text\x1f" "@25:1\x1f" "a\"\r\nb\x1f" "x\x1f" "|y\x1f\x1e", 27) == 0);
    for (size_t cut = 1; cut < n; cut++)
        for (size_t cut2 = cut; cut2 < n; cut2 += 7) {
            const size_t cuts[2] = {cut, cut2};
            outcome parts = {0};
            const int read = range_read(csv, n, 1, cuts, 2, &parts);
            CHECK(read ? same_outcome(&whole, &parts) : cut < 10); /* the header row ends at 10 */
            if (read && !same_outcome(&whole, &parts))
                fprintf(stderr, "cuts %zu, %zu differ\n", cut, cut2);
            free(parts.text);
        }
    free(whole.text);
    dialect = PLAIN;
}

/* A strict error after CRLF lines and a quoted line break: the range reader
 * reports the same byte, line and column as the whole read. */
static void error_position(void)
{
    static const char csv[] = "a,b\r\n1,\"x\r\ny\"\r\n2,3\r\n4,x\"y\r\n5,6\r\n";
    const size_t n = sizeof csv - 1;
    outcome whole = {0};
    whole_read(csv, n, 1, &whole);
    CHECK(whole.err.code == SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD && whole.err.line == 5 && whole.err.column == 4 &&
          whole.err.byte_offset == 23);
    for (size_t cut = 1; cut < n; cut++) {
        outcome parts = {0};
        const int read = range_read(csv, n, 1, &cut, 1, &parts);
        CHECK(read ? same_outcome(&whole, &parts) : cut < 5);
        free(parts.text);
    }
    free(whole.text);
}

/* Skipped lines are the one thing ranges refuse: a range cannot know
 * whether its begin is among them. */
static void refused(void)
{
    simdsv_options *opt = options(1);
    simdsv_options_set(opt, SIMDSV_OPT_SKIP_LINES, 2);
    simdsv_range_summary one;
    simdsv_error err;
    CHECK(simdsv_range_summarize(opt, "a,b\n", 4, 0, -1, &one, &err) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(err.code == SIMDSV_ERR_INVALID_ARGUMENT && strstr(err.message, "skipped lines"));
    simdsv_reader *r = NULL;
    simdsv_reader_new(&r, opt);
    const simdsv_range range = {0, 4, 1, 0, 0};
    CHECK(simdsv_reader_open_range(r, "a,b\n", &range) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(strstr(simdsv_reader_error(r)->message, "skipped lines") != NULL);
    simdsv_reader_free(r);
    simdsv_options_free(opt);
    /* Summaries that do not cover the input in order. */
    simdsv_range_summary s[2];
    simdsv_range out[2];
    memset(s, 0, sizeof s);
    s[0].end = 4;
    s[1].begin = 5;
    s[1].end = 9;
    s[0].states = s[1].states = 2;
    s[1].record_start[0] = 9;
    CHECK(simdsv_range_combine(s, 2, out) == SIMDSV_ERR_INVALID_ARGUMENT);
    s[1].begin = 4;
    CHECK(simdsv_range_combine(s, 2, out) == SIMDSV_OK && out[1].start == 9);
    /* Summaries of different dialects (their states do not compose). */
    s[1].states = 6;
    CHECK(simdsv_range_combine(s, 2, out) == SIMDSV_ERR_INVALID_ARGUMENT);
}

/* The summary itself, by hand: a cut inside quotes. */
static void summary_values(void)
{
    static const char csv[] = "h\n\"a\nb\"\nc\r\nd\n";
    /* [4, 12): "\nb\"\nc\r\nd" -- begin is inside the quoted field. */
    simdsv_options *opt = options(1);
    simdsv_range_summary s;
    CHECK(simdsv_range_summarize(opt, csv + 4, 8, 4, 'a', &s, NULL) == SIMDSV_OK);
    CHECK(s.begin == 4 && s.end == 12 && s.states == 2 && s.end_state[0] == 1 && s.end_state[1] == 0);
    /* outside: `b"` after the LF at 4 is irregular, so no record start
     * (were that the true state, the range before would read through) */
    CHECK(s.record_start[0] == UINT64_MAX);
    CHECK(s.record_start[1] == 8 && s.lines_to_start[1] == 2);                        /* inside: after `b"\n` */
    CHECK(s.lines == 3); /* LF at 4, LF at 7, CRLF at 9 */
    /* [9, 13) of `h\n"a\nb"\nc\r\nd\n`: the CR at 9 ends a line; the next starts at its LF. */
    CHECK(simdsv_range_summarize(opt, csv + 9, 4, 9, 'c', &s, NULL) == SIMDSV_OK);
    CHECK(s.record_start[0] == 10 && s.after_cr[0] == 1 && s.lines_to_start[0] == 1 && s.end_state[0] == 0);
    CHECK(s.record_start[1] == UINT64_MAX); /* inside quotes with no quote ahead */
    simdsv_options_free(opt);
}

/* The record grammar's summary by hand: with an escape byte, a range that
 * begins just after the escape byte of `"a\"` is not where the quote
 * parity says.  The states, numbered as the grammar finds them from the
 * input's start: 0 the input's start, 1 unquoted field, 2 record start, 3
 * quoted field, 4 field start, 5 and 8 one and two bytes of a BOM, 6 after
 * a quote in quotes, 7 after an escape byte. */
static void grammar_summary_values(void)
{
    static const char csv[] = "h\n\"a\\\"\nb\"\nc\n"; /* h LF "a\" LF b" LF c LF: records at 0, 2, 10 */
    dialect = ESCAPE;
    simdsv_options *opt = options(1);
    simdsv_range_summary s;
    CHECK(simdsv_range_summarize(opt, csv + 5, 7, 5, '\\', &s, NULL) == SIMDSV_OK);
    CHECK(s.states == 9 && s.lines == 3);
    CHECK(s.record_start[7] == 10 && s.lines_to_start[7] == 2 && s.end_state[7] == 2); /* the true state */
    CHECK(s.record_start[3] == 7 && s.lines_to_start[3] == 1 && s.end_state[3] == 2);  /* the parity's guess */
    CHECK(s.record_start[2] == 10 && s.end_state[2] == 2);
    CHECK(s.record_start[1] == 7 && s.record_start[4] == 10 && s.record_start[6] == 10); /* a literal quote; an opening one; a doubled one */
    /* The range at 0 ends after the escape byte, in quotes. */
    CHECK(simdsv_range_summarize(opt, csv, 5, 0, -1, &s, NULL) == SIMDSV_OK);
    CHECK(s.record_start[0] == 0 && s.end_state[0] == 7 && s.header_end == 2);
    simdsv_range out[2];
    simdsv_range_summary both[2];
    CHECK(simdsv_range_summarize(opt, csv, 5, 0, -1, &both[0], NULL) == SIMDSV_OK);
    CHECK(simdsv_range_summarize(opt, csv + 5, 7, 5, '\\', &both[1], NULL) == SIMDSV_OK);
    CHECK(simdsv_range_combine(both, 2, out) == SIMDSV_OK);
    CHECK(out[0].start == 0 && out[0].stop == 10 && out[1].start == 10 && out[1].stop == 12 && out[1].state == 7 &&
          out[1].line == 4);
    simdsv_options_free(opt);
    /* Comment lines before the header row: it is the first other record. */
    dialect = COMMENT;
    opt = options(1);
    CHECK(simdsv_range_summarize(opt, "#x\"\n\nid\n1\n", 11, 0, -1, &s, NULL) == SIMDSV_OK);
    CHECK(s.header_end == 8);
    simdsv_options_free(opt);
    dialect = PLAIN;
}

/* Typed: ranges read with the names and types inferred once equal the
 * whole typed read, value by value. */
static void table_of(const char *csv, size_t n, const simdsv_options *opt, const simdsv_range *range,
                     struct ArrowSchema *schema, struct ArrowArray *array)
{
    simdsv_reader *r = NULL;
    simdsv_reader_new(&r, opt);
    if (range)
        CHECK(simdsv_reader_open_range(r, csv + range->start, range) == SIMDSV_OK);
    else
        simdsv_reader_open_memory(r, csv, n);
    simdsv_table *t = NULL;
    CHECK(simdsv_table_read(r, &t) == SIMDSV_OK);
    CHECK(t && simdsv_table_move_to_arrow(t, schema, array) == SIMDSV_OK);
    simdsv_table_free(t);
    simdsv_reader_free(r);
}

/* Row i of column c as text, for the three types used below. */
static void cell(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t i, char *out, size_t cap)
{
    const uint8_t *valid = a->buffers[0];
    const int64_t k = a->offset + i;
    if (valid && !(valid[k / 8] >> (k % 8) & 1)) {
        snprintf(out, cap, "null");
    } else if (strcmp(s->format, "l") == 0) {
        snprintf(out, cap, "%lld", (long long)((const int64_t *)a->buffers[1])[k]);
    } else if (strcmp(s->format, "g") == 0) {
        snprintf(out, cap, "%.17g", ((const double *)a->buffers[1])[k]);
    } else if (strcmp(s->format, "u") == 0) {
        const int32_t *off = a->buffers[1];
        snprintf(out, cap, "%.*s", (int)(off[k + 1] - off[k]), (const char *)a->buffers[2] + off[k]);
    } else {
        snprintf(out, cap, "?%s", s->format);
    }
}

static void typed_ranges(void)
{
    /* ~200 KB: ids, quoted text with line breaks, floats; cut in 7. */
    size_t cap = 300000, n = 0;
    char *csv = malloc(cap);
    n += (size_t)snprintf(csv, cap, "id,text,x\n");
    for (int i = 0; n + 100 < cap - 1000; i++)
        n += (size_t)snprintf(csv + n, cap - n, "%d,%s,%d.%d\n", i,
                              i % 5 == 0 ? "\"multi\nline, \"\"quoted\"\"\"" : i % 7 == 0 ? "" : "plain", i % 97,
                              i % 10);
    simdsv_options *opt = options(1);
    simdsv_options_set(opt, SIMDSV_OPT_THREADS, 2);
    struct ArrowSchema ws, rs[8];
    struct ArrowArray wa, ra[8];
    table_of(csv, n, opt, NULL, &ws, &wa);

    /* Infer once; every range gets the names and types. */
    simdsv_reader *r = NULL;
    simdsv_reader_new(&r, opt);
    simdsv_reader_open_memory(r, csv, n);
    simdsv_table *inferred = NULL;
    CHECK(simdsv_table_infer(r, &inferred) == SIMDSV_OK);
    char names[256] = "", schema[256] = "";
    for (size_t j = 0; j < simdsv_table_columns(inferred); j++) {
        simdsv_column_info info;
        simdsv_table_column(inferred, j, &info);
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? "," : "", info.name);
        snprintf(schema + strlen(schema), sizeof schema - strlen(schema), "%s#%zu:%s", j ? "," : "", j + 1,
                 simdsv_type_name(info.type));
    }
    CHECK(strcmp(schema, "#1:int64,#2:string,#3:float64") == 0);
    simdsv_table_free(inferred);
    simdsv_reader_free(r);
    simdsv_options_set_string(opt, SIMDSV_OPT_NAMES, names);
    simdsv_options_set_string(opt, SIMDSV_OPT_SCHEMA, schema);

    size_t cuts[7];
    for (int i = 0; i < 7; i++)
        cuts[i] = n / 8 * (size_t)(i + 1) + (size_t)(next_random() % 64);
    cuts[3] = cuts[2]; /* an empty range: no rows, the same columns */
    simdsv_range ranges[8];
    CHECK(split(csv, n, cuts, 7, opt, ranges));
    int64_t rows = 0;
    for (int i = 0; i < 8; i++) {
        table_of(csv, n, opt, &ranges[i], &rs[i], &ra[i]);
        rows += ra[i].length;
        CHECK(rs[i].n_children == 3 && strcmp(rs[i].children[1]->name, "text") == 0);
    }
    CHECK(rows == wa.length);
    int64_t row = 0, mismatches = 0;
    for (int i = 0; i < 8; i++)
        for (int64_t k = 0; k < ra[i].length; k++, row++)
            for (int c = 0; c < 3; c++) {
                char x[128], y[128];
                cell(ws.children[c], wa.children[c], row, x, sizeof x);
                cell(rs[i].children[c], ra[i].children[c], k, y, sizeof y);
                mismatches += strcmp(x, y) != 0 || strcmp(ws.children[c]->format, rs[i].children[c]->format) != 0;
            }
    CHECK(mismatches == 0);
    for (int i = 0; i < 8; i++) {
        ra[i].release(&ra[i]);
        rs[i].release(&rs[i]);
    }
    wa.release(&wa);
    ws.release(&ws);
    simdsv_options_free(opt);
    free(csv);
}

int main(void)
{
    summary_values();
    grammar_summary_values();
    refused();
    every_cut();
    every_cut_grammar();
    error_position();
    for (dialect = PLAIN; dialect < DIALECTS; dialect++)
        random_splits();
    dialect = PLAIN;
    typed_ranges();
    return check_summary();
}
