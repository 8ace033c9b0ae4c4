/*
 * test_batch.c — simdsv_reader_next_batch against simdsv_reader_next.
 *
 * Usage: test_batch CORPUS_DIR [RANDOM_INPUTS LONG_INPUTS]   (default 400 12)
 *
 * For every input and dialect, the records of the batches (fields decoded
 * with simdsv_batch_decode, flags, indexes, offsets) and the errors between
 * them (code and full position) must be exactly what simdsv_reader_next
 * gives, record by record, over the same kind of source: memory, a callback
 * feeding 1, 2, 3, 5 or 7 bytes at a time into a 4 KiB buffer (every refill
 * path), a file read with read().  Each record's line (simdsv_reader_batch_line)
 * must be the line its byte offset is on, counted here independently.
 * Inputs: every .csv of the conformance corpus, random inputs over a small
 * alphabet (quotes, CR, LF, delimiters, escapes, comment bytes, invalid
 * UTF-8), and long regular inputs with irregular records placed at random,
 * so that batches cross scan windows and buffer refills.  The same inputs
 * read under simdsv_reader_read_columns: batches and records agree on the
 * columns read and on every error.
 */
#include "harness.h"

/* lines[i]: the line (1-based) of input offset i, LF, CRLF and a lone CR
 * ending a line; set by compare() for its input. */
static uint64_t *lines;

static void count_lines(const unsigned char *data, size_t size)
{
    lines = h_xrealloc(lines, (size + 1) * sizeof *lines);
    uint64_t line = 1;
    for (size_t i = 0; i <= size; i++) {
        lines[i] = line;
        if (i < size && (data[i] == '\n' || (data[i] == '\r' && (i + 1 >= size || data[i + 1] != '\n'))))
            line++;
    }
}

/* The batch form of h_read_into. */
static void read_batches(h_result *out, simdsv_options *opt, const unsigned char *data, size_t size,
                         const h_read *how)
{
    h_session s;
    if (!h_open_for_read(out, &s, opt, data, size, how))
        return;
    simdsv_reader *r = s.reader;
    int64_t header = 0;
    simdsv_options_get(opt, SIMDSV_OPT_HEADER, &header);
    int in_header = header != 0; /* as h_read_into: the header first, again after a data error in it */
    h_error last = {SIMDSV_OK, 0, 0, 0, 0, 0};
    char *decoded = NULL;
    size_t decoded_cap = 0;
    for (size_t guard = 0;; guard++) {
        simdsv_batch b;
        simdsv_record hrec;
        simdsv_status st;
        if (in_header) {
            st = simdsv_reader_header(r, &hrec);
            if (st == SIMDSV_OK || st == SIMDSV_END) {
                if (st == SIMDSV_OK)
                    h_collect_record(out, r, &hrec, H_HEADER);
                in_header = 0;
                continue;
            }
        } else {
            st = simdsv_reader_next_batch(r, &b);
        }
        if (st == SIMDSV_OK) {
            CHECK(b.count >= 1);
            unsigned any = 0;
            for (size_t k = 0; k < b.count; k++) {
                h_item *it = h_result_add_item(out, H_RECORD);
                it->index = b.first_index + k;
                it->byte_offset = b.byte_offsets[k];
                const uint64_t line = simdsv_reader_batch_line(r, &b, k);
                if (line != lines[b.byte_offsets[k]])
                    FAIL_MSG("record %llu at byte %llu: line %llu, expected %llu", (unsigned long long)it->index,
                             (unsigned long long)b.byte_offsets[k], (unsigned long long)line,
                             (unsigned long long)lines[b.byte_offsets[k]]);
                for (size_t j = 0; j < simdsv_batch_fields(&b, k); j++) {
                    const simdsv_field f = simdsv_batch_field(&b, k, j);
                    any |= f.flags;
                    if (f.size > decoded_cap) {
                        decoded_cap = f.size * 2;
                        decoded = h_xrealloc(decoded, decoded_cap);
                    }
                    const size_t n = simdsv_batch_decode(&b, &f, decoded);
                    h_result_add_field(out, decoded, n, f.flags);
                }
            }
            CHECK_EQ_U64(any, b.flags_any);
            CHECK_EQ_U64(simdsv_reader_batch_line(r, &b, b.count), 0);
            continue;
        }
        if (st == SIMDSV_END)
            break;
        const h_error e = h_error_of(simdsv_reader_error(r));
        if (!h_is_data_error(st) || (out->errors && h_error_equal(&e, &last)) || guard > 50000000) {
            out->end = st;
            out->end_error = e;
            break;
        }
        h_item *it = h_result_add_item(out, H_ERROR);
        it->err = e;
        last = e;
    }
    free(decoded);
    h_session_close(&s);
}

static unsigned long long cases;

/* Batches and records over each kind of source must agree. */
static void compare(const char *name, simdsv_options *opt, const unsigned char *data, size_t size)
{
    static const size_t small[] = {1, 2, 3, 5, 7};
    h_read hows[3];
    hows[0] = h_how(H_MEMORY);
    hows[1] = h_how(H_CHUNKS);
    hows[1].chunks = small;
    hows[1].nchunks = 5;
    hows[1].cycle = 1;
    hows[2] = h_how(H_FILE);
    static const char *const how_names[] = {"memory", "chunks of 1-7 bytes, 4 KiB buffer", "file, 4 KiB buffer"};
    count_lines(data, size);
    h_result want, got;
    h_result_init(&want);
    h_result_init(&got);
    for (size_t h = 0; h < 3; h++) {
        h_read_into(&want, opt, data, size, &hows[h]);
        read_batches(&got, opt, data, size, &hows[h]);
        char why[256];
        cases++;
        if (h_result_equal(&want, &got, H_CMP_FLAGS_ALL, why, sizeof why) &&
            h_error_equal(&want.end_error, &got.end_error)) {
            h_passed++;
            continue;
        }
        if (h_fail(__FILE__, __LINE__)) {
            fprintf(stderr, "    %s (%s): %s\n    records:\n", name, how_names[h], why);
            h_result_print(stderr, &want, "      ");
            fprintf(stderr, "    batches:\n");
            h_result_print(stderr, &got, "      ");
        }
        break;
    }
    h_result_free(&want);
    h_result_free(&got);
}

/* The dialects every input is read with. */
typedef struct dialect {
    const char *name;
    int64_t header, lenient, escape, comment, utf8, max_fields, max_record;
} dialect;

static const dialect dialects[] = {
    {"strict", 0, 0, -1, -1, SIMDSV_UTF8_STRICT, 0, 0},
    {"strict, header", 1, 0, -1, -1, SIMDSV_UTF8_STRICT, 0, 0},
    {"lenient, lossy UTF-8", 0, 1, -1, -1, SIMDSV_UTF8_LOSSY, 0, 0},
    {"escape \\, comment #, header", 1, 0, '\\', '#', SIMDSV_UTF8_STRICT, 0, 0},
    {"lenient, escape \\, comment #, no UTF-8 check", 0, 1, '\\', '#', SIMDSV_UTF8_NONE, 0, 0},
    {"at most 3 fields, 40-byte records", 0, 0, -1, -1, SIMDSV_UTF8_STRICT, 3, 40},
};

static void compare_dialects(const char *name, const unsigned char *data, size_t size)
{
    for (size_t d = 0; d < sizeof dialects / sizeof dialects[0]; d++) {
        const dialect *x = &dialects[d];
        simdsv_options *opt = simdsv_options_new(NULL);
        simdsv_options_set(opt, SIMDSV_OPT_HEADER, x->header);
        simdsv_options_set(opt, SIMDSV_OPT_LENIENT, x->lenient);
        simdsv_options_set(opt, SIMDSV_OPT_ESCAPE, x->escape);
        simdsv_options_set(opt, SIMDSV_OPT_COMMENT, x->comment);
        simdsv_options_set(opt, SIMDSV_OPT_UTF8, x->utf8);
        simdsv_options_set(opt, SIMDSV_OPT_MAX_FIELDS, x->max_fields);
        simdsv_options_set(opt, SIMDSV_OPT_MAX_RECORD_SIZE, x->max_record);
        char label[512];
        snprintf(label, sizeof label, "%s [%s]", name, x->name);
        compare(label, opt, data, size);
        simdsv_options_free(opt);
    }
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next_random(void)
{
    return h_random(&rng);
}

static void compare_masked(const char *name, const unsigned char *data, size_t size);

/* Short random inputs: every structural byte, often. */
static void random_inputs(int n)
{
    static const char *const atoms[] = {"a", "bc", ",", "\"", "\"\"", "\n", "\r", "\r\n", "\\", "#", "\xC3\xA9",
                                        "\xFF", " ", ",\"x\"", "\"q,\n\"", "\n\n"};
    h_random_inputs(n, atoms, sizeof atoms / sizeof atoms[0], &rng, compare_dialects);
    h_random_inputs(n, atoms, sizeof atoms / sizeof atoms[0], &rng, compare_masked);
}

/* Long inputs: regular records of varying width (quoted fields with doubled
 * quotes and line ends inside, CRLF and LF) with an irregular record, a
 * comment line or an invalid byte now and then. */
static void long_inputs(int n)
{
    for (int t = 0; t < n; t++) {
        const size_t target = 20000 + (size_t)(next_random() % 150000);
        unsigned char *buf = h_xmalloc(target + 256);
        size_t len = 0;
        const uint64_t rarity = 50 + next_random() % 2000;
        while (len < target) {
            const size_t width = 1 + (size_t)(next_random() % 100 < 95 ? 5 : next_random() % 9);
            const uint64_t odd = next_random() % rarity;
            for (size_t j = 0; j < width; j++) {
                if (j)
                    buf[len++] = ',';
                const uint64_t kind = next_random() % 10;
                if (kind == 0) {
                    len += (size_t)sprintf((char *)buf + len, "\"q\"\"%u\r\nx\"", (unsigned)(next_random() % 100));
                } else if (kind == 1) {
                    len += (size_t)sprintf((char *)buf + len, "\"%u,5\"", (unsigned)(next_random() % 1000));
                } else if (kind != 2) {
                    len += (size_t)sprintf((char *)buf + len, "%llu",
                                           (unsigned long long)(next_random() % 100000000));
                }
            }
            if (odd == 0)
                len += (size_t)sprintf((char *)buf + len, "x\"y");        /* irregular quote */
            else if (odd == 1)
                len += (size_t)sprintf((char *)buf + len, "\n#comment"); /* a comment line (with comment on) */
            else if (odd == 2)
                buf[len++] = 0xFF;                                          /* invalid UTF-8 */
            else if (odd == 3)
                len += (size_t)sprintf((char *)buf + len, "\"\\\"e\"");   /* an escape (with escape on) */
            if (next_random() % 3 == 0)
                buf[len++] = '\r';
            buf[len++] = '\n';
        }
        if (next_random() % 2)
            len--; /* no line end at the end */
        char name[64];
        snprintf(name, sizeof name, "long input %d (%zu bytes)", t, len);
        compare_dialects(name, buf, len);
        compare_masked(name, buf, len);
        free(buf);
    }
}


/* ------------------------------------------------ simdsv_reader_read_columns */

/* What a caller of columns `mask` sees: per record its index, offset and the
 * decoded bytes and flags of the columns it reads; per error its full
 * position.  From batches or from simdsv_reader_next. */
typedef struct text_log {
    char *s;
    size_t len, cap;
} text_log;

static void log_put(text_log *l, const void *p, size_t n)
{
    if (l->len + n + 1 > l->cap) {
        l->cap = (l->len + n + 1) * 2;
        l->s = h_xrealloc(l->s, l->cap);
    }
    if (n) /* an empty field's bytes may be a null pointer */
        memcpy(l->s + l->len, p, n);
    l->len += n;
    l->s[l->len] = 0;
}

static void log_printf(text_log *l, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    log_put(l, tmp, (size_t)n);
}

static int column_read(uint64_t mask, size_t j)
{
    return (int)((mask >> (j < 63 ? j : 63)) & 1);
}

static void read_masked(text_log *l, simdsv_options *opt, const unsigned char *data, size_t size, const h_read *how,
                        uint64_t read, uint64_t mask, int batches, int check_only)
{
    h_result ignored;
    h_result_init(&ignored);
    h_session s;
    l->len = 0;
    log_put(l, "", 0);
    if (!h_open_for_read(&ignored, &s, opt, data, size, how)) {
        log_printf(l, "open %s\n", simdsv_status_name(ignored.end));
        h_result_free(&ignored);
        return;
    }
    h_result_free(&ignored);
    simdsv_reader *r = s.reader;
    simdsv_record rec;
    simdsv_status st = simdsv_reader_header(r, &rec); /* the header is read whole, before the mask */
    log_printf(l, "header %s\n", simdsv_status_name(st));
    if (check_only) /* every column flagged, some checked */
        simdsv_reader_check_columns(r, read);
    else
        simdsv_reader_read_columns(r, read);
    char *decoded = NULL;
    size_t cap = 0;
    h_error last = {SIMDSV_OK, 0, 0, 0, 0, 0};
    for (size_t guard = 0; guard < 1000000; guard++) {
        simdsv_batch b;
        size_t count = 1;
        st = batches ? simdsv_reader_next_batch(r, &b) : simdsv_reader_next(r, &rec);
        if (st == SIMDSV_OK && batches)
            count = b.count;
        for (size_t k = 0; st == SIMDSV_OK && k < count; k++) {
            const size_t n = batches ? simdsv_batch_fields(&b, k) : rec.field_count;
            log_printf(l, "R%llu@%llu:", (unsigned long long)(batches ? b.first_index + k : rec.index),
                       (unsigned long long)(batches ? b.byte_offsets[k] : rec.byte_offset));
            for (size_t j = 0; j < n; j++) {
                if (!column_read(mask, j))
                    continue;
                simdsv_field f = batches ? simdsv_batch_field(&b, k, j) : rec.fields[j];
                const char *p = f.data;
                size_t m = f.size;
                if (batches) {
                    if (f.size > cap)
                        decoded = h_xrealloc(decoded, cap = f.size * 2);
                    m = simdsv_batch_decode(&b, &f, decoded);
                    p = decoded;
                } else {
                    simdsv_reader_unescape(r, &f, &p, &m);
                }
                log_printf(l, " %zu/%u/", j, f.flags);
                log_put(l, p, m);
            }
            log_put(l, "\n", 1);
        }
        if (st == SIMDSV_OK)
            continue;
        if (st == SIMDSV_END)
            break;
        const h_error e = h_error_of(simdsv_reader_error(r));
        log_printf(l, "E %s %llu %llu %llu %llu %llu\n", simdsv_status_name(e.code),
                   (unsigned long long)e.byte_offset, (unsigned long long)e.line, (unsigned long long)e.column,
                   (unsigned long long)e.record, (unsigned long long)e.field);
        if (!h_is_data_error(st) || h_error_equal(&e, &last))
            break;
        last = e;
    }
    free(decoded);
    h_session_close(&s);
}

/* Batches and simdsv_reader_next agree under a mask (of
 * simdsv_reader_read_columns, or of _check_columns alone), through memory
 * and a file read in 4 KiB (records then cross buffer refills and scan
 * windows); with valid UTF-8, a mask changes nothing in the columns read. */
static void compare_masked(const char *name, const unsigned char *data, size_t size)
{
    static const uint64_t masks[] = {1, 2, 5, (uint64_t)1 << 63 | 1, 0};
    static const int utf8[] = {SIMDSV_UTF8_STRICT, SIMDSV_UTF8_LOSSY};
    size_t bad = 0;
    const int valid = simdsv_utf8_valid(data, size, &bad);
    text_log a = {0}, b = {0};
    for (size_t u = 0; u < 2; u++)
        for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++)
            for (int src = 0; src < 4; src++) {
                const int check_only = src >= 2;
                simdsv_options *opt = simdsv_options_new(NULL);
                simdsv_options_set(opt, SIMDSV_OPT_UTF8, utf8[u]);
                const h_read how = h_how(src % 2 ? H_FILE : H_MEMORY);
                /* valid UTF-8: the reference reads every column */
                read_masked(&a, opt, data, size, &how, valid ? UINT64_MAX : masks[m], masks[m], 0, check_only);
                read_masked(&b, opt, data, size, &how, masks[m], masks[m], 1, check_only);
                cases++;
                if (a.len != b.len || memcmp(a.s, b.s, a.len) != 0)
                    FAIL_MSG("%s, mask %llx%s, utf8 %d, %s: records and batches differ:\n%s\n--- batches:\n%s", name,
                             (unsigned long long)masks[m], check_only ? " (checked only)" : "", utf8[u],
                             src % 2 ? "file" : "memory", a.s, b.s);
                simdsv_options_free(opt);
            }
    free(a.s);
    free(b.s);
}

/* A reader over text whose header has been read, then told the mask. */
static simdsv_reader *masked_reader(const char *text, size_t size, uint64_t mask)
{
    simdsv_reader *r = NULL;
    simdsv_record rec;
    CHECK_STATUS(simdsv_reader_new(&r, NULL), SIMDSV_OK);
    CHECK_STATUS(simdsv_reader_open_memory(r, text, size), SIMDSV_OK);
    CHECK_STATUS(simdsv_reader_header(r, &rec), SIMDSV_OK);
    simdsv_reader_read_columns(r, mask);
    return r;
}

/* simdsv_reader_read_columns and _check_columns, exactly: invalid bytes in
 * columns not read pass, in a column read they are the error they always
 * were; the flags of other columns read 0. */
static void masked_edges(void)
{
    static const char text[] = "a,b,c\n1,\xff,3\n\"x\xff\",2,\"\xc3\xa9\"\"\"\n";
    simdsv_batch b;
    simdsv_record rec;
    /* every column: the first invalid byte, record 1's field 1 */
    simdsv_reader *r = masked_reader(text, sizeof text - 1, UINT64_MAX);
    CHECK_STATUS(simdsv_reader_next_batch(r, &b), SIMDSV_ERR_INVALID_UTF8);
    CHECK_EQ_U64(simdsv_reader_error(r)->byte_offset, 8);
    CHECK_EQ_U64(simdsv_reader_error(r)->field, 1);
    simdsv_reader_free(r);
    /* column 2 only: no error, its flags and bytes; the quoted column 0 reads 0 */
    r = masked_reader(text, sizeof text - 1, 4);
    CHECK_STATUS(simdsv_reader_next_batch(r, &b), SIMDSV_OK);
    CHECK_EQ_U64(b.count, 2);
    simdsv_field f = simdsv_batch_field(&b, 1, 2);
    CHECK_EQ_U64(f.flags, SIMDSV_FIELD_QUOTED | SIMDSV_FIELD_NEEDS_UNESCAPE);
    CHECK_MEM(f.data, f.size, "\xc3\xa9\"\"", 4);
    CHECK_EQ_U64(simdsv_batch_field(&b, 1, 0).flags, 0);
    CHECK_MEM(b.data + b.bounds[b.first[1]], 4, "\"x\xff\"", 4); /* its bounds span the raw bytes */
    CHECK_STATUS(simdsv_reader_next_batch(r, &b), SIMDSV_END);
    simdsv_reader_free(r);
    /* column 0: record 2's invalid byte, with its full position */
    r = masked_reader(text, sizeof text - 1, 1);
    CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
    CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_ERR_INVALID_UTF8);
    const simdsv_error *e = simdsv_reader_error(r);
    CHECK_EQ_U64(e->byte_offset, 14);
    CHECK_EQ_U64(e->line, 3);
    CHECK_EQ_U64(e->column, 3);
    CHECK_EQ_U64(e->record, 2);
    CHECK_EQ_U64(e->field, 0);
    simdsv_reader_free(r);
    /* The skip checks the records it passes over only when every column is
     * checked. */
    static const char rows[] = "a,b\nx\xff,1\ny,2\nz,needle\n";
    uint64_t skipped = 0;
    r = masked_reader(rows, sizeof rows - 1, UINT64_MAX);
    simdsv_reader_check_columns(r, 0);
    CHECK_STATUS(simdsv_reader_skip(r, "needle", 6, 0, &skipped), SIMDSV_OK);
    CHECK_EQ_U64(skipped, 2);
    CHECK_STATUS(simdsv_reader_next_batch(r, &b), SIMDSV_OK);
    CHECK_EQ_U64(b.first_index, 2);
    CHECK_EQ_U64(simdsv_batch_field(&b, 0, 1).flags, 0);
    simdsv_reader_free(r);
    skipped = 0;
    r = masked_reader(rows, sizeof rows - 1, UINT64_MAX);
    CHECK_STATUS(simdsv_reader_skip(r, "needle", 6, 0, &skipped), SIMDSV_OK);
    CHECK_EQ_U64(skipped, 0);
    CHECK_STATUS(simdsv_reader_next_batch(r, &b), SIMDSV_ERR_INVALID_UTF8);
    CHECK_EQ_U64(simdsv_reader_error(r)->byte_offset, 5);
    simdsv_reader_free(r);
}

/* The documented edges of the API itself. */
static void api_edges(void)
{
    simdsv_batch b;
    CHECK_STATUS(simdsv_reader_next_batch(NULL, &b), SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_reader *r = NULL;
    CHECK_STATUS(simdsv_reader_new(&r, NULL), SIMDSV_OK);
    CHECK_STATUS(simdsv_reader_next_batch(r, &b), SIMDSV_ERR_INVALID_ARGUMENT); /* not opened */
    static const char text[] = "h1,h2\na,\"b\"\"c\"\nd,e\n";
    CHECK_STATUS(simdsv_reader_open_memory(r, text, sizeof text - 1), SIMDSV_OK);
    CHECK_STATUS(simdsv_reader_next_batch(r, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_next_batch(r, &b), SIMDSV_OK);
    CHECK_EQ_U64(b.count, 2);
    CHECK_EQ_U64(b.first_index, 0);
    CHECK_EQ_U64(b.byte_offsets[0], 6);
    CHECK_EQ_U64(b.byte_offsets[1], 15);
    CHECK_EQ_U64(simdsv_reader_batch_line(r, &b, 1), 3);
    simdsv_field f = simdsv_batch_field(&b, 0, 1);
    CHECK_EQ_U64(f.flags, SIMDSV_FIELD_QUOTED | SIMDSV_FIELD_NEEDS_UNESCAPE);
    CHECK_MEM(f.data, f.size, "b\"\"c", 4);
    char out[8];
    const size_t n = simdsv_batch_decode(&b, &f, out);
    CHECK_MEM(out, n, "b\"c", 3);
    CHECK_EQ_U64(b.flags_any, SIMDSV_FIELD_QUOTED | SIMDSV_FIELD_NEEDS_UNESCAPE);
    simdsv_record hdr;
    CHECK_STATUS(simdsv_reader_header(r, &hdr), SIMDSV_OK);
    CHECK_EQ_U64(simdsv_reader_batch_line(r, &b, 0), 0); /* another call ended the batch */
    CHECK_STATUS(simdsv_reader_next_batch(r, &b), SIMDSV_END);
    simdsv_reader_free(r);
}

int main(int argc, char **argv)
{
    const simdsv_kernel kernel = harness_kernel();
    (void)kernel;
    api_edges();
    masked_edges();
    if (argc > 1)
        h_for_each_csv(argv[1], compare_dialects);
    random_inputs(argc > 2 ? atoi(argv[2]) : 400);
    long_inputs(argc > 3 ? atoi(argv[3]) : 12);
    printf("%llu comparisons\n", cases);
    return check_summary();
}
