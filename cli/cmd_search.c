/* cmd_search.c — simdsv search: the records where a column (or any column)
 * contains a literal, or matches a POSIX extended regular expression.
 *
 * A literal is first looked for in the record's raw bytes (SIMD, literal.c):
 * a record without it anywhere cannot match, and most records are rejected
 * there without looking at their fields.  Plain regions (no quotes) go
 * through fast.c, which looks for the literal in whole blocks of records. */
#define _POSIX_C_SOURCE 200809L
#include "fast.h"
#include "search.h"

#include <locale.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv search [OPTIONS] PATTERN FILE\n"
    "Writes the header and the records in which a field contains PATTERN (a literal\n"
    "string by default), as CSV.  Fields are compared decoded (\"\" is \").\n"
    "  -c, --column SEL   only these columns (a selection, as for 'simdsv select')\n"
    "  -r, --regex        PATTERN is a POSIX extended regular expression (regcomp)\n"
    "  -i, --ignore-case  ignore case (literals: ASCII letters; regexes: the locale's)\n"
    "  -v, --invert       the records that do not match\n"
    "Put -- before a PATTERN that starts with '-'.\n\n";

static arg_result search_arg(void *ctx, int argc, char **argv, int *i)
{
    search_args *a = ctx;
    const char *arg = argv[*i];
    if (strcmp(arg, "-r") == 0 || strcmp(arg, "--regex") == 0)
        a->regex = true;
    else if (strcmp(arg, "-i") == 0 || strcmp(arg, "--ignore-case") == 0)
        a->icase = true;
    else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--invert") == 0)
        a->invert = true;
    else {
        bool missing;
        const char *v = cli_option_value("-c", argc, argv, i, &missing);
        if (!v && !missing)
            v = cli_option_value("--column", argc, argv, i, &missing);
        if (missing)
            return ARG_BAD;
        if (!v)
            return ARG_NOT_MINE;
        a->columns = v;
    }
    return ARG_TAKEN;
}

/* REG_STARTEND (glibc, the BSDs) matches in place; sanitizers' regexec
 * interceptors ignore it and read up to a NUL, so their builds copy. */
#if defined(__SANITIZE_ADDRESS__)
#define SEARCH_NO_STARTEND 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SEARCH_NO_STARTEND 1
#endif
#endif

bool search_text(const search_args *a, const char *s, size_t n)
{
    if (!a->regex)
        return literal_find(&a->lit, s, n) != NULL;
#if defined(REG_STARTEND) && !defined(SEARCH_NO_STARTEND)
    regmatch_t m[1];
    m[0].rm_so = 0;
    m[0].rm_eo = (regoff_t)n;
    return regexec(&a->re, s, 1, m, REG_STARTEND) == 0;
#else
    /* A NUL-terminated copy (fields may hold NUL bytes: they end the text). */
    static char *copy;
    static size_t cap;
    if (cap < n + 1) {
        free(copy);
        cap = n + 1 > 256 ? n + 1 : 256;
        copy = malloc(cap);
        if (!copy)
            return false;
    }
    memcpy(copy, s, n);
    copy[n] = '\0';
    return regexec(&a->re, copy, 0, NULL, 0) == 0;
#endif
}

/* true if the record matches (before -v). */
bool search_record(const search_args *a, text_buffer *tb, const simdsv_record *rec)
{
    if (!rec->field_count)
        return false;
    if (a->raw_prefilter) {
        /* Fields are views into the reader's buffer, in order: the record's
         * raw bytes run from the first field to the end of the last (and a
         * closing quote, which the literal cannot hold). */
        const char *start = rec->fields[0].data;
        const simdsv_field *last = &rec->fields[rec->field_count - 1];
        const char *end = last->data + last->size;
        if (end >= start && !literal_find(&a->lit, start, (size_t)(end - start)))
            return false;
    }
    text_reset(tb);
    const size_t n = a->cols ? a->ncols : rec->field_count;
    for (size_t k = 0; k < n; k++) {
        const size_t i = a->cols ? a->cols[k] : k;
        if (i >= rec->field_count)
            continue;
        const char *data;
        size_t size;
        if (!text_field(tb, rec, i, &data, &size))
            return false;
        if (search_text(a, data, size))
            return true;
    }
    return false;
}

int cmd_search(int argc, char **argv)
{
    cli_common c;
    search_args a;
    memset(&a, 0, sizeof a);
    const cli_spec spec = {"search", help, CLI_OUTPUT | CLI_CSV_OUT, 1, "PATTERN", search_arg, &a};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status < 0) {
        a.pattern = c.positional[0];
        if (a.regex) {
            setlocale(LC_CTYPE, "");
            const int err = regcomp(&a.re, a.pattern, REG_EXTENDED | REG_NOSUB | (a.icase ? REG_ICASE : 0));
            if (err) {
                char msg[256];
                regerror(err, &a.re, msg, sizeof msg);
                fprintf(stderr, "simdsv search: invalid regular expression '%s': %s\n", a.pattern, msg);
                status = EXIT_USAGE;
            } else {
                a.re_ok = true;
            }
        } else {
            literal_init(&a.lit, a.pattern, strlen(a.pattern), a.icase);
            /* The raw bytes hold what the fields hold, but for doubled quotes
             * (a literal without a quote is found in both or neither),
             * escapes (which join what is around them) and bytes replaced in
             * lossy mode. */
            const int q = (int)cli_opt(&c, SIMDSV_OPT_QUOTE), e = (int)cli_opt(&c, SIMDSV_OPT_ESCAPE);
            bool raw = e < 0;
            for (const char *p = a.pattern; *p && raw; p++)
                raw = !((q >= 0 && (unsigned char)*p == q) || (e >= 0 && (unsigned char)*p == e) ||
                        ((unsigned char)*p >= 0x80 && cli_opt(&c, SIMDSV_OPT_UTF8) == SIMDSV_UTF8_LOSSY));
            a.raw_prefilter = raw && *a.pattern;
        }
    }
    if (status >= 0 || !out_open(c.output)) {
        if (a.re_ok)
            regfree(&a.re);
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    status = search_run(&c, &a);
    if (a.re_ok)
        regfree(&a.re);
    free(a.cols);
    cli_common_free(&c);
    return status;
}

typedef struct search_run {
    cli_common *c;
    search_args *a;
    name_list names;
    int delimiter, out_delimiter;
    bool whole_line;  /* a literal hit anywhere in a plain line is a match */
    bool tuned;       /* the literal's anchors were chosen from the data */
    size_t maxcol;
    size_t *ends;     /* field ends of a plain line, maxcol + 1 */
} search_run_t;

static int on_record(void *ctx, text_buffer *tb, const simdsv_record *rec, fast_kind kind)
{
    search_run_t *s = ctx;
    search_args *a = s->a;
    if (kind != FAST_DATA) {
        const bool header = kind == FAST_HEADER;
        if (a->columns) {
            int status = EXIT_DATA;
            if (header && !names_from_record(&s->names, tb, rec)) {
                cli_error("out of memory");
                return EXIT_DATA;
            }
            a->cols = selector_resolve("search", a->columns, header ? &s->names : NULL, rec->field_count, &a->ncols,
                                       &status);
            if (!a->cols)
                return status;
            for (size_t k = 0; k < a->ncols; k++)
                if (a->cols[k] > s->maxcol)
                    s->maxcol = a->cols[k];
            s->ends = malloc((s->maxcol + 1) * sizeof *s->ends);
            if (!s->ends) {
                cli_error("out of memory");
                return EXIT_DATA;
            }
        }
        /* In a plain line (no quotes), a literal without the delimiter that
         * occurs in the line occurs in one of its fields. */
        const size_t plen = strlen(a->pattern);
        s->whole_line = !a->regex && !a->cols && a->raw_prefilter && !memchr(a->pattern, s->delimiter, plen) &&
                        !memchr(a->pattern, '\n', plen) && !memchr(a->pattern, '\r', plen);
        if (header) {
            if (!write_all_fields(tb, rec, s->out_delimiter)) {
                cli_error("out of memory");
                return EXIT_DATA;
            }
            return 0;
        }
    }
    if (search_record(a, tb, rec) != a->invert && !write_all_fields(tb, rec, s->out_delimiter)) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    return 0;
}

static bool plain_line_matches(search_run_t *s, const char *line, size_t n)
{
    search_args *a = s->a;
    if (s->whole_line)
        return literal_find(&a->lit, line, n) != NULL;
    if (a->cols) {
        const size_t known = fast_split(line, n, s->delimiter, s->ends, s->maxcol + 1);
        for (size_t k = 0; k < a->ncols; k++) {
            const size_t j = a->cols[k];
            if (j >= known)
                continue;
            const size_t b = j ? s->ends[j - 1] + 1 : 0;
            if (search_text(a, line + b, s->ends[j] - b))
                return true;
        }
        return false;
    }
    const char *p = line, *end = line + n;
    for (;;) {
        const char *d = memchr(p, s->delimiter, (size_t)(end - p));
        const char *e = d ? d : end;
        if (search_text(a, p, (size_t)(e - p)))
            return true;
        if (!d)
            return false;
        p = d + 1;
    }
}

static void write_plain_line(search_run_t *s, const char *line, size_t n)
{
    if (s->out_delimiter == s->delimiter) {
        /* No quotes, CR or LF inside, and the delimiter is the same: the
         * line is already minimal CSV. */
        out_write(line, n);
        out_byte('\n');
        return;
    }
    const char *p = line, *end = line + n;
    const bool alone = !memchr(line, s->delimiter, n);
    for (;;) {
        const char *d = memchr(p, s->delimiter, (size_t)(end - p));
        const char *e = d ? d : end;
        out_csv_field(p, (size_t)(e - p), s->out_delimiter, alone);
        if (!d)
            break;
        out_byte((char)s->out_delimiter);
        p = d + 1;
    }
    out_byte('\n');
}

static int plain_line(void *ctx, const char *line, size_t n)
{
    search_run_t *s = ctx;
    if (plain_line_matches(s, line, n) != s->a->invert)
        write_plain_line(s, line, n);
    return 0;
}

static int on_plain(void *ctx, const fast_region *region)
{
    search_run_t *s = ctx;
    search_args *a = s->a;
    const char *data = region->data;
    const size_t size = region->size;
    if (!s->tuned && a->raw_prefilter) {
        /* Anchor the literal on its bytes that are rare in this input (the
         * classifying pass of the next regions uses them too). */
        literal_tune(&a->lit, data, size < 256 * 1024 ? size : 256 * 1024);
        s->tuned = true;
    }
    if (a->invert || !a->raw_prefilter)
        return fast_lines(data, size, plain_line, s);
    /* Only the lines with the literal somewhere can match, and it does not
     * start before region->literal_from. */
    const char *p = data + region->literal_from, *end = data + size;
    while (p < end) {
        const char *hit = literal_find(&a->lit, p, (size_t)(end - p));
        if (!hit)
            break;
        const char *start = hit;
        while (start > data && start[-1] != '\n')
            start--;
        const char *lf = memchr(hit, '\n', (size_t)(end - hit));
        const char *e = lf ? lf : end;
        if (s->whole_line || plain_line_matches(s, start, (size_t)(e - start)))
            write_plain_line(s, start, (size_t)(e - start));
        p = e + 1;
    }
    return 0;
}

int search_run(cli_common *c, search_args *a)
{
    search_run_t s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.a = a;
    s.delimiter = (int)cli_opt(c, SIMDSV_OPT_DELIMITER);
    s.out_delimiter = c->out_delimiter;
    const fast_ops ops = {on_record, on_plain, false, a->raw_prefilter && !a->invert ? &a->lit : NULL};
    const int status = fast_run(c, &ops, &s);
    free(s.ends);
    names_free(&s.names);
    return status;
}
