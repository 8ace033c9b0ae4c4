/* cmd_search.c — simdsv search: the records where a column (or any column)
 * contains a literal, or matches a POSIX extended regular expression.
 *
 * Records come in batches (cli_run_records).  A literal is first looked for in the
 * batch's raw bytes (literal.c): only the records that hold it somewhere can
 * match, so most records are passed over without looking at their fields;
 * those are then checked field by field, decoded. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

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

typedef struct search_args {
    const char *pattern;
    const char *columns; /* -c SEL, or NULL for every column */
    bool regex, icase, invert;
    bool re_ok;
    regex_t re;
    literal lit;
    bool raw_prefilter;  /* the literal can be looked for in raw record bytes */
    size_t *cols, ncols; /* resolved -c, or NULL */
} search_args;

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

static bool search_text(const search_args *a, const char *s, size_t n)
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

typedef struct search_run {
    cli_common *c;
    search_args *a;
    name_list names;
    bool resolved;    /* -c resolved (or none given) */
    bool whole_line;  /* a literal hit anywhere in a plain record is a match */
    bool tuned;       /* the literal's anchors were chosen from the data */
    int delimiter;
    csv_plain csv;
    field_views views;
    bool check_written; /* the reader checks no UTF-8: the records written are checked here */
    uint64_t seen, written; /* records so far: when many are written, a batch is checked whole */
    int batch_utf8;         /* this batch checked whole: 1 valid, 0 not, -1 not checked */
} search_run_t;

/* -c against the header's names, or (--no-header) the first record's width. */
static int resolve(search_run_t *s, text_buffer *tb, const simdsv_record *header, size_t width)
{
    search_args *a = s->a;
    s->resolved = true;
    if (a->columns) {
        int status = EXIT_DATA;
        if (header && !names_from_record(&s->names, tb, header))
            return -1;
        a->cols = selector_resolve("search", a->columns, header ? &s->names : NULL,
                                   header ? header->field_count : width, &a->ncols, &status);
        if (!a->cols)
            return status;
    }
    /* In a plain record (no quotes), a literal without the delimiter that
     * occurs in the record occurs in one of its fields. */
    const size_t plen = strlen(a->pattern);
    s->whole_line = !a->regex && !a->cols && a->raw_prefilter && !memchr(a->pattern, s->delimiter, plen) &&
                    !memchr(a->pattern, '\n', plen) && !memchr(a->pattern, '\r', plen);
    return 0;
}

static int search_header(void *ctx, text_buffer *tb, const simdsv_record *rec)
{
    search_run_t *s = ctx;
    if (!rec)
        return 0;
    const int status = resolve(s, tb, rec, 0);
    if (status)
        return status;
    /* Strict UTF-8 is checked in the records written, not in every record
     * looked at (most are passed over unread); a file that can be read
     * again gives the error of a bad record written exactly (utf8_error). */
    if (s->c->reader_mapped && cli_opt(s->c, SIMDSV_OPT_UTF8) == SIMDSV_UTF8_STRICT) {
        simdsv_reader_check_columns(s->c->reader, 0);
        s->check_written = true;
    }
    return write_all_fields(tb, rec, s->csv.out_delimiter) ? 0 : -1;
}

/* Record `index` is to be written but holds invalid UTF-8: the file is read
 * again up to it, checked from there on, and that error reported as the
 * reader gives it.  Returns EXIT_DATA (or -1 out of memory). */
static int utf8_error(search_run_t *s, uint64_t index)
{
    cli_common *c = s->c;
    simdsv_reader *r = cli_open_regular(c, true);
    if (!r)
        return -1;
    simdsv_reader_check_columns(r, 0);
    simdsv_record rec;
    simdsv_status st = SIMDSV_OK;
    for (uint64_t k = 0; k < index && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK; k++) {
    }
    simdsv_reader_check_columns(r, UINT64_MAX);
    if (st == SIMDSV_OK)
        st = simdsv_reader_next(r, &rec);
    out_flush();
    if (st == SIMDSV_OK || st == SIMDSV_END) /* not what the first reading saw: no position to give */
        cli_error("invalid UTF-8 in record %llu", (unsigned long long)index + 1);
    else
        cli_report(c, r);
    simdsv_reader_free(r);
    return EXIT_DATA;
}

/* Record k written, checked first when the reader did not: on its own, or
 * (one record in 16 or more written so far) with the whole batch in one call,
 * record by record only when that finds an invalid byte. */
static int write_checked(search_run_t *s, text_buffer *tb, const simdsv_batch *b, size_t k, bool raw)
{
    s->written++;
    if (s->check_written && s->batch_utf8 < 0 && s->written * 16 > s->seen) {
        const uint32_t from = b->bounds[b->first[0]], to = b->bounds[b->first[b->count] - 1] - 1;
        s->batch_utf8 = simdsv_utf8_valid(b->data + from, to - from, NULL);
    }
    if (s->check_written && s->batch_utf8 != 1) {
        const uint32_t *o = b->bounds + b->first[k];
        const size_t n = simdsv_batch_fields(b, k);
        if (!simdsv_utf8_valid(b->data + o[0], o[n] - 1 - o[0], NULL))
            return utf8_error(s, b->first_index + k);
    }
    return write_batch_csv(tb, b, k, k + 1, raw, s->csv.out_delimiter, &s->views) ? 0 : -1;
}

/* Whether record k matches (before -v); *failed on out of memory.  hit:
 * the literal is known to occur in the record's raw bytes.  Only the fields
 * searched are looked at, straight in the batch. */
static bool record_matches(search_run_t *s, text_buffer *tb, const simdsv_batch *b, size_t k, bool plain, bool hit,
                           bool *failed)
{
    const search_args *a = s->a;
    const uint32_t *o = b->bounds + b->first[k];
    const size_t n = simdsv_batch_fields(b, k);
    if (plain && s->whole_line)
        return hit || literal_find(&a->lit, b->data + o[0], o[n] - 1 - o[0]) != NULL;
    /* The raw bytes hold the literal if a field does (search_args.raw_prefilter);
     * they add only the quotes around the fields, which the literal lacks. */
    if (a->raw_prefilter && !hit && !literal_find(&a->lit, b->data + o[0], o[n] - 1 - o[0]))
        return false;
    text_reset(tb);
    const size_t m = a->cols ? a->ncols : n;
    for (size_t c = 0; c < m; c++) {
        const size_t i = a->cols ? a->cols[c] : c;
        if (i >= n)
            continue;
        const simdsv_field f = simdsv_batch_field(b, k, i);
        const char *data = f.data;
        size_t size = f.size;
        if ((f.flags & (SIMDSV_FIELD_NEEDS_UNESCAPE | SIMDSV_FIELD_INVALID_UTF8)) && !text_of(tb, &f, &data, &size)) {
            *failed = true;
            return false;
        }
        if (search_text(a, data, size))
            return true;
    }
    return false;
}

static int search_batch(void *ctx, text_buffer *tb, const simdsv_batch *b)
{
    search_run_t *s = ctx;
    search_args *a = s->a;
    if (!s->resolved) {
        const int status = resolve(s, tb, NULL, simdsv_batch_fields(b, 0));
        if (status)
            return status;
    }
    const bool plain = batch_plain(b, &s->csv), raw = batch_raw(b, &s->csv);
    s->seen += b->count;
    s->batch_utf8 = -1;
    const uint32_t span_end = b->bounds[b->first[b->count] - 1] - 1;
    if (!s->tuned && a->raw_prefilter) {
        /* Anchor the literal on its bytes that are rare in this input. */
        const uint32_t from = b->bounds[b->first[0]];
        literal_tune(&a->lit, b->data + from, span_end - from < 256 * 1024 ? span_end - from : 256 * 1024);
        s->tuned = true;
    }
    bool failed = false;
    if (!a->raw_prefilter || a->invert) {
        for (size_t k = 0; k < b->count && !failed; k++)
            if (record_matches(s, tb, b, k, plain, false, &failed) != a->invert && !failed) {
                const int status = write_checked(s, tb, b, k, raw);
                if (status)
                    return status;
            }
        return failed ? -1 : 0;
    }
    /* Only the records holding the literal somewhere can match. */
    size_t k = 0;
    uint32_t pos = b->bounds[b->first[0]];
    const char *hit;
    while (k < b->count && (hit = literal_find(&a->lit, b->data + pos, span_end - pos)) != NULL) {
        const uint32_t at = (uint32_t)(hit - b->data);
        while (k < b->count && b->bounds[b->first[k + 1] - 1] - 1 <= at)
            k++; /* records that end before the hit */
        if (k == b->count)
            break;
        const uint32_t start = b->bounds[b->first[k]], end = b->bounds[b->first[k + 1] - 1] - 1;
        const bool inside = at >= start && at + a->lit.n <= end;
        if (record_matches(s, tb, b, k, plain, inside, &failed) && !failed) {
            const int status = write_checked(s, tb, b, k, raw);
            if (status)
                return status;
        }
        if (failed)
            return -1;
        pos = b->bounds[b->first[k + 1] - 1]; /* after the record's line end */
        k++;
        if (k < b->count && pos < b->bounds[b->first[k]])
            pos = b->bounds[b->first[k]];
    }
    return 0;
}

/* Only records holding the literal in their raw bytes can match: the
 * library passes over the others without cutting them into fields. */
static simdsv_status search_skip(void *ctx, simdsv_reader *r)
{
    search_run_t *s = ctx;
    const search_args *a = s->a;
    if (!s->resolved || !a->raw_prefilter || a->invert)
        return SIMDSV_OK;
    uint64_t skipped = 0;
    return simdsv_reader_skip(r, a->pattern, strlen(a->pattern), a->icase ? SIMDSV_SKIP_ICASE : 0, &skipped);
}

static int search_run(cli_common *c, search_args *a, int status)
{
    search_run_t s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.a = a;
    if (status < 0) {
        s.delimiter = (int)cli_opt(c, SIMDSV_OPT_DELIMITER);
        s.csv = csv_plain_of(c);
    }
    const cli_record_ops ops = {search_header, search_batch, NULL, search_skip};
    status = cli_run_records(c, status, &ops, &s);
    names_free(&s.names);
    field_views_free(&s.views);
    return status;
}

int cmd_search(int argc, char **argv)
{
    cli_common c;
    search_args a;
    memset(&a, 0, sizeof a);
    const cli_spec spec = {"search", help, CLI_OUTPUT | CLI_CSV_OUT | CLI_RECORDS, 1, "PATTERN", search_arg, &a};
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
    status = search_run(&c, &a, status);
    if (a.re_ok)
        regfree(&a.re);
    free(a.cols);
    cli_common_free(&c);
    return status;
}

