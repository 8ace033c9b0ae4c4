/*
 * test_conformance.c — the public CSV conformance corpus (tests/conformance,
 * see its README.md for the conventions and the licences).
 *
 * Usage: test_conformance CORPUS_DIR [CASE_SUBSTRING]
 *
 * Every case NAME.csv has NAME.json: the expected records (an array of
 * arrays of strings) or {"error": true, "reason": "..."} when a strict parser
 * must reject the input; NAME.dialect.json, when present, sets delimiter,
 * quote, escape and comment (the comment may be a non-ASCII character).
 * Each case is read with SIMDSV_OPT_HEADER=0:
 *   - one-shot from memory: the records must equal the expectation; an error
 *     case must fail with the error and the byte offset its reason names;
 *   - split at every byte offset (first k bytes, then the rest), one byte at
 *     a time, through a temporary file with a 4 KiB buffer (read(), mmap and
 *     FILE*) and through a pipe: each must give exactly the one-shot result
 *     (records, flags, error code, byte offset, line, column, record, field);
 *   - simdsv_reader_count must count the same records, or fail the same way.
 */
#include "harness.h"

#include <dirent.h>
#include <sys/stat.h>

typedef struct buffer {
    char *data;
    size_t size;
} buffer;

static int read_file(const char *path, buffer *out)
{
    out->data = NULL;
    out->size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t cap = 4096;
    char *data = h_xmalloc(cap);
    size_t n = 0, got;
    while ((got = fread(data + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            data = h_xrealloc(data, cap);
        }
    }
    const int ok = !ferror(f);
    fclose(f);
    if (!ok) {
        free(data);
        return 0;
    }
    out->data = data;
    out->size = n;
    return 1;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names (malloc'ed, sorted) of the entries of dir accepted by keep(). */
static char **list_dir(const char *dir, int (*keep)(const char *dir, const char *name), size_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t cap = 64;
    char **names = h_xmalloc(cap * sizeof *names);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !keep(dir, e->d_name))
            continue;
        if (*count == cap) {
            cap *= 2;
            names = h_xrealloc(names, cap * sizeof *names);
        }
        const size_t n = strlen(e->d_name) + 1;
        names[*count] = h_xmalloc(n);
        memcpy(names[*count], e->d_name, n);
        ++*count;
    }
    closedir(d);
    qsort(names, *count, sizeof *names, compare_names);
    return names;
}

static void free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

static char *join(const char *a, const char *b, const char *c)
{
    const size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = h_xmalloc(n);
    snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

static int is_suite(const char *dir, const char *name)
{
    char *path = join(dir, "/", name);
    struct stat st;
    const int ok = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    free(path);
    return ok;
}

static int is_case(const char *dir, const char *name)
{
    (void)dir;
    const size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".csv") == 0;
}

/* The code point of a string holding exactly one UTF-8 character, or -1. */
static long one_code_point(const h_json *v)
{
    if (!v || v->type != HJ_STR || v->len == 0 || v->len > 4)
        return -1;
    const unsigned char *s = (const unsigned char *)v->str;
    const size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (len != v->len)
        return -1;
    long cp = len == 1 ? s[0] : s[0] & (0x7F >> len);
    for (size_t k = 1; k < len; k++)
        cp = (cp << 6) | (s[k] & 0x3F);
    return cp;
}

/* Applies NAME.dialect.json to opt. Returns 0 if the dialect is unusable. */
static int apply_dialect(simdsv_options *opt, const h_json *dialect, const char *name)
{
    static const struct {
        const char *key;
        simdsv_option id;
    } keys[] = {{"delimiter", SIMDSV_OPT_DELIMITER},
                {"quote", SIMDSV_OPT_QUOTE},
                {"escape", SIMDSV_OPT_ESCAPE},
                {"comment", SIMDSV_OPT_COMMENT_CHAR}};
    if (dialect->type != HJ_OBJ) {
        FAIL_MSG("%s: the dialect is not an object", name);
        return 0;
    }
    for (size_t i = 0; i < dialect->count; i++) {
        size_t k = 0;
        while (k < sizeof keys / sizeof keys[0] && strcmp(keys[k].key, dialect->keys[i]) != 0)
            k++;
        if (k == sizeof keys / sizeof keys[0]) {
            FAIL_MSG("%s: unknown dialect key '%s'", name, dialect->keys[i]);
            return 0;
        }
        const long cp = one_code_point(&dialect->items[i]);
        if (cp < 0 || (keys[k].id != SIMDSV_OPT_COMMENT_CHAR && cp > 0x7F)) {
            FAIL_MSG("%s: dialect key '%s' is not one (ASCII) character", name, dialect->keys[i]);
            return 0;
        }
        if (!CHECK_STATUS(simdsv_options_set(opt, keys[k].id, cp), SIMDSV_OK))
            return 0;
        int64_t back = 0;
        simdsv_options_get(opt, keys[k].id, &back);
        CHECK_EQ_INT(back, cp);
    }
    return 1;
}

/* The byte offset of the character at index `chars` of a UTF-8 input: the
 * corpus' reasons count characters (code points of the decoded text, after
 * a stripped BOM), the library counts bytes (csv_spectrum/location_coordinates
 * has a U+FFFD before its stray quote: character 79 is byte 81). */
static uint64_t char_to_byte_offset(const buffer *csv, uint64_t chars)
{
    size_t i = csv->size >= 3 && memcmp(csv->data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    for (uint64_t seen = 0; i < csv->size; i++) {
        if (((unsigned char)csv->data[i] & 0xC0) == 0x80)
            continue; /* a continuation byte belongs to the previous character */
        if (seen++ == chars)
            break;
    }
    return i;
}

/* "quote char inside unquoted field at offset 79" -> code and offset. */
static int parse_reason(const h_json *reason, simdsv_status *code, uint64_t *offset)
{
    if (!reason || reason->type != HJ_STR)
        return 0;
    const char *s = reason->str;
    if (strncmp(s, "quote char inside unquoted field", 32) == 0)
        *code = SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD;
    else if (strncmp(s, "unexpected ", 11) == 0 && strstr(s, "after closing quote"))
        *code = SIMDSV_ERR_TEXT_AFTER_QUOTE;
    else if (strncmp(s, "unterminated quoted field", 25) == 0)
        *code = SIMDSV_ERR_UNTERMINATED_QUOTE;
    else
        return 0;
    const char *at = strstr(s, "at offset ");
    if (!at)
        return 0;
    /* the last "at offset N" names the position */
    const char *next;
    while ((next = strstr(at + 1, "at offset ")) != NULL)
        at = next;
    char *end = NULL;
    *offset = strtoull(at + 10, &end, 10);
    return end != at + 10;
}

typedef struct same_ctx {
    const char *name;
    const h_result *baseline;
    int failures;
} same_ctx;

static int same_as_baseline(void *ctx, const char *mode, const h_result *got)
{
    same_ctx *c = ctx;
    char why[256];
    if (h_result_equal(got, c->baseline, H_CMP_FLAGS_ALL, why, sizeof why)) {
        h_passed++;
        return 1;
    }
    c->failures++;
    if (h_fail(__FILE__, __LINE__)) {
        fprintf(stderr, "    %s: %s differs from one-shot: %s\n    one-shot:\n", c->name, mode, why);
        h_result_print(stderr, c->baseline, "      ");
        fprintf(stderr, "    %s:\n", mode);
        h_result_print(stderr, got, "      ");
    }
    return 0;
}

/* Runs one case; returns 1 if it passed entirely. */
static int run_case(const char *suite_dir, const char *suite, const char *csv_name)
{
    const int failed_before = h_failed;
    char name[512];
    snprintf(name, sizeof name, "%s/%.*s", suite, (int)(strlen(csv_name) - 4), csv_name);
    h_context("%s", name);
    char *base = join(suite_dir, "/", csv_name);
    base[strlen(base) - 4] = '\0';
    char *csv_path = join(base, ".csv", "");
    char *json_path = join(base, ".json", "");
    char *dialect_path = join(base, ".dialect.json", "");
    buffer csv = {NULL, 0}, json = {NULL, 0}, dialect_text = {NULL, 0};
    h_json exp, dialect;
    memset(&exp, 0, sizeof exp);
    memset(&dialect, 0, sizeof dialect);
    const char *error = NULL;
    simdsv_options *opt = simdsv_options_new(NULL);
    h_result baseline;
    h_result_init(&baseline);

    if (!CHECK(opt != NULL) || !CHECK(read_file(csv_path, &csv)) || !CHECK(read_file(json_path, &json)))
        goto done;
    if (!h_json_parse(json.data, json.size, &exp, &error)) {
        FAIL_MSG("%s: bad JSON (%s)", json_path, error);
        goto done;
    }
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_HEADER, 0), SIMDSV_OK);
    if (file_exists(dialect_path)) {
        if (!CHECK(read_file(dialect_path, &dialect_text)))
            goto done;
        if (!h_json_parse(dialect_text.data, dialect_text.size, &dialect, &error)) {
            FAIL_MSG("%s: bad JSON (%s)", dialect_path, error);
            goto done;
        }
        if (!apply_dialect(opt, &dialect, name))
            goto done;
    }

    const h_json *is_error = h_json_get(&exp, "error");
    simdsv_status want_code = SIMDSV_OK;
    uint64_t want_offset = 0;
    if (is_error) {
        if (!CHECK(is_error->type == HJ_BOOL && is_error->num == 1) ||
            !CHECK(parse_reason(h_json_get(&exp, "reason"), &want_code, &want_offset)))
            goto done;
        want_offset = char_to_byte_offset(&csv, want_offset);
    } else if (!CHECK(exp.type == HJ_ARR)) {
        goto done;
    }

    /* One-shot: against the expectation. */
    h_read how = h_how(H_MEMORY);
    how.max_errors = 1;
    h_read_into(&baseline, opt, csv.data, csv.size, &how);
    if (is_error) {
        if (!CHECK_EQ_U64(baseline.errors, 1) || !CHECK_STATUS(baseline.end, want_code)) {
            h_result_print(stderr, &baseline, "      ");
            goto done;
        }
        CHECK_EQ_U64(baseline.end_error.byte_offset, want_offset);
    } else {
        char why[256];
        if (h_result_match(&baseline, &exp, why, sizeof why)) {
            PASS();
        } else {
            FAIL_MSG("%s: %s; got:", name, why);
            h_result_print(stderr, &baseline, "      ");
            goto done;
        }
    }

    /* Every other way of reading: identical to one-shot. */
    same_ctx ctx = {name, &baseline, 0};
    h_sweep(opt, csv.data, csv.size, H_SPLITS | H_BYTES | H_FILES | H_PIPES, 1, same_as_baseline, &ctx);

    /* Counting. */
    size_t records = 0;
    for (size_t i = 0; i < baseline.nitems; i++)
        records += baseline.items[i].kind == H_RECORD;
    static const size_t one[1] = {1};
    for (int streamed = 0; streamed < 2; streamed++) {
        h_read chow = h_how(streamed ? H_CHUNKS : H_MEMORY);
        chow.chunks = one;
        chow.nchunks = 1;
        chow.cycle = 1;
        uint64_t count = 0;
        h_error cerr;
        const simdsv_status st = h_count(opt, csv.data, csv.size, &chow, &count, &cerr);
        if (is_error) {
            CHECK_STATUS(st, want_code);
            CHECK_EQ_U64(cerr.byte_offset, want_offset);
        } else {
            CHECK_STATUS(st, SIMDSV_OK);
        }
        CHECK_EQ_U64(count, records);
    }

done:
    h_result_free(&baseline);
    simdsv_options_free(opt);
    h_json_free(&exp);
    h_json_free(&dialect);
    free(csv.data);
    free(json.data);
    free(dialect_text.data);
    free(base);
    free(csv_path);
    free(json_path);
    free(dialect_path);
    h_context(NULL);
    return h_failed == failed_before;
}

int main(int argc, char **argv)
{
    const simdsv_kernel kernel = harness_kernel();
    if (argc < 2) {
        fprintf(stderr, "usage: test_conformance CORPUS_DIR [CASE_SUBSTRING]\n");
        return 2;
    }
    const char *filter = argc > 2 ? argv[2] : NULL;
    printf("kernel: %s\n", simdsv_kernel_name(kernel));
    size_t nsuites = 0, cases = 0, cases_passed = 0;
    char **suites = list_dir(argv[1], is_suite, &nsuites);
    CHECK(nsuites == 7);
    for (size_t s = 0; s < nsuites; s++) {
        char *dir = join(argv[1], "/", suites[s]);
        size_t n = 0;
        char **names = list_dir(dir, is_case, &n);
        size_t suite_passed = 0, suite_cases = 0;
        for (size_t i = 0; i < n; i++) {
            if (filter && !strstr(names[i], filter))
                continue;
            suite_cases++;
            suite_passed += (size_t)run_case(dir, suites[s], names[i]);
        }
        printf("%-16s %zu/%zu cases\n", suites[s], suite_passed, suite_cases);
        cases += suite_cases;
        cases_passed += suite_passed;
        free_names(names, n);
        free(dir);
    }
    free_names(suites, nsuites);
    printf("conformance: %zu/%zu cases passed\n", cases_passed, cases);
    if (!filter)
        CHECK_EQ_U64(cases, 318);
    return check_summary();
}
