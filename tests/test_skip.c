/*
 * test_skip.c — simdsv_reader_skip against simdsv_reader_next.
 *
 * Usage: test_skip CORPUS_DIR [RANDOM_INPUTS LONG_INPUTS]   (default 300 10)
 *
 * For every input, dialect, source (memory; a callback of 1-7 bytes per call
 * into a 4 KiB buffer; a file) and needle, reading with a skip before every
 * record must give a subsequence of what simdsv_reader_next gives alone:
 * the same records and errors, with the same indexes, offsets, field counts
 * and full error positions, and the reported skip counts must add up to the
 * records left out.  Every record left out must have been returned without
 * an error and not hold the needle within its first byte to its line end
 * (ASCII case ignored with SIMDSV_SKIP_ICASE).  And the kernel under test
 * must skip exactly what the scalar kernel skips (the same items, the same
 * counts).  Inputs: the conformance corpus, random inputs over a small
 * alphabet, long inputs of regular records (some quoted, some not) with
 * irregular ones now and then; needles of 1-4 bytes, and now and then up to
 * 100 (past a 64-byte block).
 *
 * The kernel's skip pass (scan_skip, the static library's) is also checked
 * alone: on every input, needle and kernel, it must count what the count
 * kernel counts up to the literal's first occurrence, stop where that one
 * stops (a special byte) or at the literal, and find the first byte >= 0x80
 * when it lies before the stop.
 */
#include "harness.h"
#include "scan/scan.h"

typedef struct item {
    simdsv_status st;
    uint64_t index, offset, end; /* records: [offset, end] is first byte to line end */
    size_t fields;
    simdsv_error err;
} item;

typedef struct items {
    item *v;
    size_t n, cap;
    uint64_t skipped;
} items;

static void add(items *s, const item *it)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = h_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = *it;
}

/* Reads the data records, skipping to the needle first when size > 0. */
static void read_all(items *out, simdsv_options *opt, const unsigned char *data, size_t len, const h_read *how,
                     const char *needle, size_t size, unsigned flags)
{
    out->n = 0;
    out->skipped = 0;
    h_session s;
    h_session_open(&s, opt, data, len, how);
    if (s.status != SIMDSV_OK) {
        h_session_close(&s);
        return;
    }
    for (size_t guard = 0; guard < 100000; guard++) {
        if (size) {
            const simdsv_status sk = simdsv_reader_skip(s.reader, needle, size, flags, &out->skipped);
            if (sk != SIMDSV_OK) {
                item it = {sk, 0, 0, 0, 0, *simdsv_reader_error(s.reader)};
                add(out, &it);
                break;
            }
        }
        simdsv_record rec;
        const simdsv_status st = simdsv_reader_next(s.reader, &rec);
        if (st == SIMDSV_END)
            break;
        item it;
        memset(&it, 0, sizeof it);
        it.st = st;
        if (st == SIMDSV_OK) {
            it.index = rec.index;
            it.offset = rec.byte_offset;
            it.fields = rec.field_count;
            const simdsv_field *first = &rec.fields[0], *last = &rec.fields[rec.field_count - 1];
            const int q0 = (first->flags & SIMDSV_FIELD_QUOTED) != 0, q1 = (last->flags & SIMDSV_FIELD_QUOTED) != 0;
            /* fields of the record path lie in order in one buffer, unless decoded by the slow path */
            if (last->data >= first->data)
                it.end = rec.byte_offset + (uint64_t)(last->data + last->size + q1 - (first->data - q0));
            else
                it.end = len;
        } else {
            it.err = *simdsv_reader_error(s.reader);
        }
        add(out, &it);
        if (st != SIMDSV_OK && !h_is_data_error(st))
            break;
    }
    h_session_close(&s);
}

static int starts_at(const unsigned char *p, size_t left, const char *needle, size_t size, int icase)
{
    if (left < size)
        return 0;
    for (size_t i = 0; i < size; i++) {
        unsigned char a = p[i], b = (unsigned char)needle[i];
        if (icase) {
            a = a >= 'A' && a <= 'Z' ? (unsigned char)(a + 32) : a;
            b = b >= 'A' && b <= 'Z' ? (unsigned char)(b + 32) : b;
        }
        if (a != b)
            return 0;
    }
    return 1;
}

static int same(const item *a, const item *b)
{
    if (a->st != b->st)
        return 0;
    if (a->st == SIMDSV_OK)
        return a->index == b->index && a->offset == b->offset && a->fields == b->fields;
    return a->err.code == b->err.code && a->err.byte_offset == b->err.byte_offset && a->err.line == b->err.line &&
           a->err.column == b->err.column && a->err.record == b->err.record && a->err.field == b->err.field;
}

static unsigned long long cases, total_skipped;
static items want, got, scalar;

static void compare(const char *name, simdsv_options *opt, const unsigned char *data, size_t len, const char *needle,
                    size_t size, unsigned flags)
{
    static const size_t small[] = {1, 2, 3, 5, 7};
    h_read hows[3];
    hows[0] = h_how(H_MEMORY);
    hows[1] = h_how(H_CHUNKS);
    hows[1].chunks = small;
    hows[1].nchunks = 5;
    hows[1].cycle = 1;
    hows[2] = h_how(H_FILE);
    for (size_t h = 0; h < 3; h++) {
        read_all(&want, opt, data, len, &hows[h], NULL, 0, 0);
        read_all(&got, opt, data, len, &hows[h], needle, size, flags);
        simdsv_options_set(opt, SIMDSV_OPT_KERNEL, SIMDSV_KERNEL_SCALAR);
        read_all(&scalar, opt, data, len, &hows[h], needle, size, flags);
        simdsv_options_set(opt, SIMDSV_OPT_KERNEL, SIMDSV_KERNEL_AUTO);
        cases++;
        size_t j = 0, left_out = 0;
        const char *why = NULL;
        for (size_t i = 0; i < want.n && !why; i++) {
            if (j < got.n && same(&want.v[i], &got.v[j])) {
                j++;
                continue;
            }
            const item *w = &want.v[i];
            left_out++;
            if (w->st != SIMDSV_OK)
                why = "an error was skipped";
            for (uint64_t p = w->offset; !why && p + size <= w->end + 1 && p < len; p++)
                if (starts_at(data + p, len - p, needle, size, (flags & SIMDSV_SKIP_ICASE) != 0))
                    why = "a record holding the needle was skipped";
        }
        if (!why && j != got.n)
            why = "the skipping read has items the plain read has not";
        if (!why && left_out != got.skipped)
            why = "the skip counts do not add up to the records left out";
        for (size_t i = 0; !why && i < got.n; i++)
            if (i >= scalar.n || !same(&got.v[i], &scalar.v[i]))
                why = "the scalar kernel skips otherwise";
        if (!why && (scalar.n != got.n || scalar.skipped != got.skipped))
            why = "the scalar kernel skips otherwise";
        if (!why) {
            h_passed++;
            total_skipped += got.skipped;
            continue;
        }
        if (h_fail(__FILE__, __LINE__))
            fprintf(stderr, "    %s, source %zu, needle '%.*s' flags %u: %s (%zu items, %zu with skips, %llu skipped)\n",
                    name, h, (int)size, needle, flags, why, want.n, got.n, (unsigned long long)got.skipped);
        break;
    }
}

typedef struct dialect {
    const char *name;
    int64_t header, lenient, escape, comment, utf8, max_fields, max_record;
} dialect;

static const dialect dialects[] = {
    {"strict", 0, 0, -1, -1, SIMDSV_UTF8_STRICT, 0, 0},
    {"strict, header", 1, 0, -1, -1, SIMDSV_UTF8_STRICT, 0, 0},
    {"lenient, lossy UTF-8", 0, 1, -1, -1, SIMDSV_UTF8_LOSSY, 0, 0},
    {"escape \\, comment #, header", 1, 0, '\\', '#', SIMDSV_UTF8_STRICT, 0, 0},
    {"at most 3 fields, 40-byte records", 0, 0, -1, -1, SIMDSV_UTF8_STRICT, 3, 40},
};

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t next_random(void)
{
    return h_random(&rng);
}

/* scan_skip of every kernel against scan_count of the scalar one up to the
 * literal found byte by byte. */
static void kernel_pass(const char *name, const unsigned char *data, size_t len, const char *needle, size_t size,
                        int icase)
{
    static const scan_dialect dialects_seen[2] = {{',', '"', 0, 0, 1, 0, 0, 0x01}, {',', '"', '\\', '#', 1, 1, 1, 0x01}};
    const scan_kernel *ref = simdsv__kernel_get(SIMDSV_KERNEL_SCALAR);
    const uint8_t *n = (const uint8_t *)needle;
    scan_literal lit = {n, size, icase, {n[0], n[0]}, {n[size - 1], n[size - 1]}};
    if (icase) {
        for (int e = 0; e < 2; e++) {
            const uint8_t c = e ? n[size - 1] : n[0];
            uint8_t *pair = e ? lit.last : lit.first;
            pair[0] = c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
            pair[1] = c >= 'a' && c <= 'z' ? (uint8_t)(c - 32) : c;
        }
    }
    size_t at = 0, high = 0;
    while (at < len && !starts_at(data + at, len - at, needle, size, icase))
        at++;
    while (high < len && data[high] < 0x80)
        high++;
    for (int dd = 0; dd < 2; dd++) {
        scan_state s;
        scan_state_reset(&s);
        const scan_result want_r = ref->scan_count(&dialects_seen[dd], &s, data, at, 1, NULL);
        const size_t stop = want_r.stopped ? want_r.consumed : at;
        for (int k = SIMDSV_KERNEL_SCALAR; k < SIMDSV_KERNEL_COUNT; k++) {
            const scan_kernel *kern = simdsv__kernel_get((simdsv_kernel)k);
            if (!kern)
                continue;
            size_t na = 0;
            scan_state_reset(&s);
            const scan_result r = kern->scan_skip(&dialects_seen[dd], &s, data, len, &lit, &na);
            const int stopped_right = stop < len ? r.stopped && r.consumed == stop : !r.stopped && r.consumed == len;
            const int ascii_right = high < stop ? na == high : na >= stop;
            if (stopped_right && ascii_right && r.record_ends == want_r.record_ends &&
                r.last_term_end == want_r.last_term_end) {
                h_passed++;
                continue;
            }
            if (h_fail(__FILE__, __LINE__))
                fprintf(stderr,
                        "    %s, dialect %d, kernel %s, needle '%.*s' icase %d: stopped %d at %zu (want %zu), ends %llu "
                        "(want %llu), last end %zu (want %zu), non-ASCII %zu (first %zu)\n",
                        name, dd, kern->name, (int)size, needle, icase, r.stopped, r.consumed, stop,
                        (unsigned long long)r.record_ends, (unsigned long long)want_r.record_ends, r.last_term_end,
                        want_r.last_term_end, na, high);
        }
    }
}

static void compare_all(const char *name, const unsigned char *data, size_t len)
{
    static const char *const fixed[] = {"a", "bc", ",", "\"", "x\n", "\xC3\xA9", "zzz"};
    char picked[100];
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
        /* one fixed needle, and a piece of the input, per dialect */
        const char *f = fixed[next_random() % (sizeof fixed / sizeof fixed[0])];
        const unsigned icase = (unsigned)(next_random() % 2);
        compare(label, opt, data, len, f, strlen(f), icase);
        if (d == 0)
            kernel_pass(name, data, len, f, strlen(f), (int)icase);
        if (len) {
            const size_t at = (size_t)(next_random() % len);
            const size_t n = 1 + (size_t)(next_random() % (next_random() % 8 ? 4 : sizeof picked));
            const size_t k = n < len - at ? n : len - at;
            memcpy(picked, data + at, k);
            const unsigned icase2 = (unsigned)(next_random() % 2);
            compare(label, opt, data, len, picked, k, icase2);
            if (d == 0)
                kernel_pass(name, data, len, picked, k, (int)icase2);
        }
        simdsv_options_free(opt);
    }
}

static void random_inputs(int n)
{
    static const char *const atoms[] = {"a", "bc", ",", "\"", "\"\"", "\n", "\r", "\r\n", "\\", "#", "\xC3\xA9",
                                        "\xFF", " ", ",\"x\"", "\"q,\n\"", "\n\n", "A", "x\n"};
    h_random_inputs(n, atoms, sizeof atoms / sizeof atoms[0], &rng, compare_all);
}

/* Regular records (so that whole stretches are skipped, across buffer
 * refills) with an irregular one, a comment line, an invalid byte or a long
 * record now and then. */
static void long_inputs(int n)
{
    static const char *const odd[] = {"x,\"bad\"q,y\n", "# note, zzz\n", "p,\xFF,q\n", "\"open,\n", "a,b,c,d,e\n",
                                      "\n\r\n", "1,\"q\"\"zzz\",2\r\n", "\xC3\xA9,t\xC3\xA9,\xE2\x82\xAC\n"};
    for (int t = 0; t < n; t++) {
        const size_t target = 20000 + (size_t)(next_random() % 60000);
        unsigned char *buf = h_xmalloc(target + 256);
        size_t len = 0;
        const uint64_t rarity = 20 + next_random() % 500;
        while (len < target) {
            if (next_random() % rarity == 0) {
                const char *o = odd[next_random() % (sizeof odd / sizeof odd[0])];
                memcpy(buf + len, o, strlen(o));
                len += strlen(o);
                continue;
            }
            /* quoted or not, in runs (blocks without a quote take the skip's plain way) */
            const int quoted = (len / 4096) % 2 && next_random() % 2;
            len += (size_t)snprintf((char *)buf + len, 64, quoted ? "%llu,bc,\"q%llu\",a\n" : "%llu,bc,q%llu,a\n",
                                    (unsigned long long)(next_random() % 100000),
                                    (unsigned long long)(next_random() % 1000));
        }
        char name[64];
        snprintf(name, sizeof name, "long input %d", t);
        compare_all(name, buf, len);
        free(buf);
    }
}

static void api_edges(void)
{
    simdsv_reader *r = NULL;
    uint64_t skipped = 0;
    CHECK_STATUS(simdsv_reader_skip(NULL, "a", 1, 0, &skipped), SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_options *o = simdsv_options_new(NULL);
    simdsv_options_set(o, SIMDSV_OPT_HEADER, 0);
    CHECK_STATUS(simdsv_reader_new(&r, o), SIMDSV_OK);
    simdsv_options_free(o);
    const char in[] = "a,b\nc,d\nzz,e\nf,g\n";
    CHECK_STATUS(simdsv_reader_open_memory(r, in, sizeof in - 1), SIMDSV_OK);
    CHECK_STATUS(simdsv_reader_skip(r, "a", 1, 0, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_skip(r, NULL, 1, 0, &skipped), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_skip(r, "", 0, 0, &skipped), SIMDSV_OK);
    CHECK_EQ_U64(skipped, 0);
    CHECK_STATUS(simdsv_reader_skip(r, "ZZ", 2, SIMDSV_SKIP_ICASE, &skipped), SIMDSV_OK);
    CHECK_EQ_U64(skipped, 2);
    simdsv_record rec;
    CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
    CHECK_EQ_U64(rec.index, 2);
    CHECK_EQ_U64(rec.byte_offset, 8);
    CHECK_MEM(rec.fields[0].data, rec.fields[0].size, "zz", 2);
    CHECK_STATUS(simdsv_reader_skip(r, "zz", 2, 0, &skipped), SIMDSV_OK);
    CHECK_EQ_U64(skipped, 3);
    CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END);
    simdsv_reader_free(r);
}

int main(int argc, char **argv)
{
    (void)harness_kernel();
    api_edges();
    if (argc > 1)
        h_for_each_csv(argv[1], compare_all);
    random_inputs(argc > 2 ? atoi(argv[2]) : 300);
    long_inputs(argc > 3 ? atoi(argv[3]) : 10);
    printf("%llu comparisons, %llu records skipped\n", cases, total_skipped);
    CHECK(total_skipped > 10000); /* the skips did skip */
    free(want.v);
    free(got.v);
    free(scalar.v);
    return check_summary();
}
