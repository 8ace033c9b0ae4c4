/*
 * test_count_threads.c — simdsv_reader_count on several threads
 * (src/record/chunks.c, the chunk planner) gives exactly what the serial count gives:
 * the same status, count, error position, the records counted before an
 * error, what a count after the error gives, and the same end state (the
 * next record is SIMDSV_END, the reader's offset is the end).
 *
 * Inputs: thousands of random ones (quoted fields holding line ends, CRLF,
 * delimiters and doubled quotes; empty lines, CR, CRLF and LF line ends, a
 * missing final line end, a BOM, skipped lines, header on and off, lenient
 * mode, stray and unclosed quotes), half of them in a dialect the planner
 * cuts at line ends (escapes, '#' and "//" comment lines, the delimiter
 * "||", trimmed spaces), inputs of those dialects with records of one width
 * (which must nearly all run in parallel), sweeps that move a chunk boundary over
 * every byte around a quoted line end, and one input of some MiB with the
 * library's real chunk size.  Every thread count from 1 to 8 against the
 * serial count, from memory and from a file read with read() (pread() per
 * thread), and some from a mapped file and from a file descriptor whose
 * input starts after other bytes.
 *
 * SIMDSV_TEST_COUNT_CHUNK (read by the library, meant for tests only) makes
 * chunks as small as a few bytes, so that kilobyte inputs are split.  The
 * library's counters (simdsv__count_parallel_stats) show that the parallel
 * path did run, including its rescan of chunks whose guessed quote state was
 * wrong.  Runs once per kernel (SIMDSV_KERNEL); under `make tsan` too.
 *
 *   test_count_threads [INPUTS]   (default 1500 random inputs)
 */
#include "harness.h"

/* src/record/chunks.h (internal: in the static library only). */
void simdsv__count_parallel_stats(uint64_t *parallel_counts, uint64_t *rescanned_chunks);
void simdsv__count_line_cut_stats(uint64_t *line_cut_counts);

/* ------------------------------------------------------------------ random */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static size_t below(size_t n)
{
    return n ? (size_t)(rnd() % n) : 0;
}

/* ------------------------------------------------------------------ buffers */

typedef struct text {
    char *p;
    size_t n, cap;
} text;

static void put(text *t, const void *s, size_t n)
{
    if (t->cap - t->n < n + 1) {
        while (t->cap - t->n < n + 1)
            t->cap = t->cap ? t->cap * 2 : 256;
        t->p = h_xrealloc(t->p, t->cap);
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = '\0';
}

static void puts_(text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* ------------------------------------------------------------------ inputs */

static const char *const line_ends[] = {"\n", "\n", "\n", "\r\n", "\r\n", "\r"};

static void random_field(text *t)
{
    switch (below(10)) {
    case 0: /* empty */
        break;
    case 1: /* a quoted line end and nothing else: valid CSV read either way */
        puts_(t, below(2) ? "\"\n\"" : "\"\r\n\"");
        break;
    case 2:
    case 3:
    case 4:
    case 5: { /* quoted, with line ends, delimiters and doubled quotes */
        static const char *const pieces[] = {"a", "bc", ",", "\n", "\r\n", "\r", "\"\"", " ", "x\ny", ";"};
        puts_(t, "\"");
        for (size_t k = below(7); k > 0; k--)
            puts_(t, pieces[below(sizeof pieces / sizeof pieces[0])]);
        puts_(t, "\"");
        break;
    }
    default: { /* unquoted */
        static const char chars[] = "abcxyz0123 _-";
        for (size_t k = 1 + below(8); k > 0; k--)
            put(t, &chars[below(sizeof chars - 1)], 1);
    }
    }
}

/* One of the faults the strict reader rejects (lenient mode recovers). */
static void random_fault(text *t)
{
    switch (below(3)) {
    case 0:
        puts_(t, "ab\"c"); /* a quote inside an unquoted field */
        break;
    case 1:
        puts_(t, "\"ab\"c"); /* text after a closing quote */
        break;
    default:
        puts_(t, "\"open\nquote"); /* closed later by chance, or never */
    }
}

/* The dialects the chunk planner cuts at line ends (every one but PLAIN:
 * a quote's meaning there depends on more than the parity before it). */
typedef enum dialect {
    PLAIN,
    ESCAPE,        /* backslash escapes inside quotes */
    COMMENT,       /* '#' comment lines, holding quotes and delimiters */
    COMMENT_PAIR,  /* "//" comment lines; a line that starts with one '/' is a record */
    PIPES,         /* the two-byte delimiter "||"; single and triple bars in fields */
    TRIM,          /* spaces around fields and after closing quotes, trimmed */
    DIALECTS
} dialect;
static const char *const dialect_names[] = {"plain", "escape", "comment #", "comment //", "delimiter ||", "trim"};

typedef struct input {
    text data;
    int header, skip_lines, lenient, no_quote;
    dialect dialect;
    size_t width; /* fields a record (no faults then), 0: 1 to 5 and faults now and then */
} input;

/* Pieces of fields that only some dialects read in a special way. */
static void dialect_field(text *t, dialect d)
{
    switch (d) {
    case ESCAPE: {
        static const char *const pieces[] = {"\"\\\"q\"", "\"a\\\\\"", "\"x\\\ny\"", "\"\\\",\n\\\"\"", "b\\c",
                                             "\"\\\"\"\"\""};
        puts_(t, pieces[below(sizeof pieces / sizeof pieces[0])]);
        break;
    }
    case COMMENT:
    case COMMENT_PAIR:
        puts_(t, below(2) ? "x#" : "y/"); /* (a field that starts a record with the marker makes a comment line) */
        break;
    case PIPES: {
        /* (a bar at a field's end would make the delimiter after it start
         * one byte early) */
        static const char *const pieces[] = {"a|b", "\"x||y\"", "\"|\n|\"", "|c", "|||d"};
        puts_(t, pieces[below(sizeof pieces / sizeof pieces[0])]);
        break;
    }
    case TRIM: {
        static const char *const pieces[] = {"  a b ", " \"q, \n\"  ", "\"r\" ", "   "};
        puts_(t, pieces[below(sizeof pieces / sizeof pieces[0])]);
        break;
    }
    default:
        random_field(t);
    }
}

/* A line the comment dialects skip (or, for COMMENT_PAIR, one that only
 * looks like a comment): quotes and delimiters in it must not count. */
static void comment_line(text *t, dialect d)
{
    static const char *const bodies[] = {" a \"quote", "\"\"\",x,\"", ",,\"", "\",\""};
    if (d == COMMENT_PAIR && below(3) == 0) {
        puts_(t, "/y,z"); /* a record */
        return;
    }
    puts_(t, d == COMMENT ? "#" : "//");
    puts_(t, bodies[below(sizeof bodies / sizeof bodies[0])]);
}

static void random_input(input *in, size_t target)
{
    in->data.n = 0;
    put(&in->data, "", 0);
    in->header = (int)below(2);
    in->skip_lines = below(5) == 0 ? (int)below(3) : 0;
    in->lenient = below(5) == 0;
    in->no_quote = below(20) == 0;
    const dialect d = in->dialect;
    const char *const delimiter = d == PIPES ? "||" : ",";
    const int faulty = !in->width && below(5) == 0;
    text *t = &in->data;
    if (below(10) == 0)
        puts_(t, "\xEF\xBB\xBF");
    size_t fault_at = faulty ? below(target) : SIZE_MAX; /* faults: from here on, now and then */
    while (t->n < target) {
        const size_t fields = in->width ? in->width : 1 + below(5);
        if ((d == COMMENT || d == COMMENT_PAIR) && below(6) == 0) {
            comment_line(t, d);
            puts_(t, line_ends[below(sizeof line_ends / sizeof line_ends[0])]);
            continue;
        }
        for (size_t f = 0; f < fields; f++) {
            if (f)
                puts_(t, delimiter);
            if (t->n >= fault_at) {
                random_fault(t);
                fault_at = t->n + below(target);
            } else if (d != PLAIN && below(4) == 0) {
                dialect_field(t, d);
            } else {
                random_field(t);
            }
        }
        puts_(t, line_ends[below(sizeof line_ends / sizeof line_ends[0])]);
        if (below(20) == 0)
            puts_(t, below(2) ? "\n" : "\r\n"); /* an empty line */
    }
    if (below(4) == 0) { /* no final line end */
        while (t->n && (t->p[t->n - 1] == '\n' || t->p[t->n - 1] == '\r'))
            t->n--;
        if (below(2))
            puts_(t, "last");
    }
    if (faulty && below(6) == 0)
        puts_(t, "\n1,\"never closed\n2,3\n"); /* the input ends inside quotes */
}

/* ------------------------------------------------------------------ counting */

typedef enum src_kind { SRC_MEMORY, SRC_PATH, SRC_MMAP, SRC_FD, SRC_CALLBACK } src_kind;
static const char *const source_names[] = {"memory", "file read()", "file mmap", "file descriptor at an offset",
                                           "callback, 1000 bytes a read"};

/* A callback source: a stream, counted in parallel only once it is all in
 * the reader's buffer. */
typedef struct feed {
    const char *p;
    size_t n, pos;
} feed;

static long long feed_read(void *ctx, void *buf, size_t size, int *os_errno)
{
    feed *f = ctx;
    (void)os_errno;
    size_t n = f->n - f->pos;
    if (n > size)
        n = size;
    if (n > 1000)
        n = 1000;
    memcpy(buf, f->p + f->pos, n);
    f->pos += n;
    return (long long)n;
}

/* Up to this many counts in a row (a count after an error goes on after it). */
#define MAX_ROUNDS 8

typedef struct outcome {
    size_t rounds;
    simdsv_status st[MAX_ROUNDS];
    uint64_t n[MAX_ROUNDS];
    simdsv_error err[MAX_ROUNDS];
    simdsv_status next;   /* simdsv_reader_next after the last count */
    uint64_t offset;      /* simdsv_reader_offset then */
    int fd_at_end;        /* SRC_FD: the descriptor's offset is at the end of the file */
} outcome;

static simdsv_kernel kernel;
static char *file_path;     /* the input, for SRC_PATH and SRC_MMAP */
static char *offset_path;   /* some other bytes, then the input, for SRC_FD */
static const size_t offset_len = 11;

static void write_files(const input *in)
{
    if (file_path) {
        unlink(file_path);
        free(file_path);
    }
    if (offset_path) {
        unlink(offset_path);
        free(offset_path);
    }
    file_path = h_temp_file(in->data.p, in->data.n);
    text t = {NULL, 0, 0};
    put(&t, "junk,\"\n\"\n\"", offset_len); /* not part of the input: must not be read */
    put(&t, in->data.p, in->data.n);
    offset_path = h_temp_file(t.p, t.n);
    free(t.p);
    if (!file_path || !offset_path) {
        fprintf(stderr, "cannot write a temporary file\n");
        exit(2);
    }
}

static uint64_t max_record_size; /* 0: the default */

static void count_with(const input *in, src_kind src, int threads, outcome *out)
{
    memset(out, 0, sizeof *out);
    feed f = {in->data.p, in->data.n, 0};
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_KERNEL, kernel);
    simdsv_options_set(opt, SIMDSV_OPT_THREADS, threads);
    simdsv_options_set(opt, SIMDSV_OPT_HEADER, in->header);
    simdsv_options_set(opt, SIMDSV_OPT_SKIP_LINES, in->skip_lines);
    simdsv_options_set(opt, SIMDSV_OPT_LENIENT, in->lenient);
    if (in->no_quote)
        simdsv_options_set(opt, SIMDSV_OPT_QUOTE, -1);
    switch (in->dialect) {
    case ESCAPE:
        simdsv_options_set(opt, SIMDSV_OPT_ESCAPE, '\\');
        break;
    case COMMENT:
        simdsv_options_set_string(opt, SIMDSV_OPT_COMMENT_STRING, "#");
        break;
    case COMMENT_PAIR:
        simdsv_options_set_string(opt, SIMDSV_OPT_COMMENT_STRING, "//");
        break;
    case PIPES:
        simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, "||");
        break;
    case TRIM:
        simdsv_options_set(opt, SIMDSV_OPT_TRIM_SPACES, 1);
        break;
    default:
        break;
    }
    simdsv_options_set(opt, SIMDSV_OPT_BUFFER_SIZE, 4096); /* files: most of the input is not read yet */
    simdsv_options_set(opt, SIMDSV_OPT_MMAP, src == SRC_MMAP);
    if (max_record_size)
        simdsv_options_set(opt, SIMDSV_OPT_MAX_RECORD_SIZE, (int64_t)max_record_size);
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, opt);
    int fd = -1;
    if (st == SIMDSV_OK) {
        switch (src) {
        case SRC_MEMORY:
            st = simdsv_reader_open_memory(r, in->data.p, in->data.n);
            break;
        case SRC_PATH:
        case SRC_MMAP:
            st = simdsv_reader_open_path(r, file_path);
            break;
        case SRC_FD:
            fd = open(offset_path, O_RDONLY);
            if (fd < 0 || lseek(fd, (off_t)offset_len, SEEK_SET) != (off_t)offset_len)
                st = SIMDSV_ERR_IO;
            else
                st = simdsv_reader_open_fd(r, fd);
            break;
        case SRC_CALLBACK:
            st = simdsv_reader_open_callback(r, feed_read, &f);
            break;
        }
    }
    if (st != SIMDSV_OK) {
        fprintf(stderr, "cannot open a reader: %s\n", simdsv_status_name(st));
        exit(2);
    }
    for (;;) {
        const size_t k = out->rounds++;
        out->st[k] = simdsv_reader_count(r, &out->n[k]);
        out->err[k] = *simdsv_reader_error(r);
        if (out->st[k] == SIMDSV_OK || out->rounds == MAX_ROUNDS || out->st[k] == SIMDSV_ERR_IO ||
            out->st[k] == SIMDSV_ERR_NOMEM)
            break;
    }
    simdsv_record rec;
    out->next = simdsv_reader_next(r, &rec);
    out->offset = simdsv_reader_offset(r);
    if (fd >= 0) {
        out->fd_at_end = lseek(fd, 0, SEEK_CUR) == (off_t)(offset_len + in->data.n);
        close(fd);
    }
    simdsv_reader_free(r);
    simdsv_options_free(opt);
}

static int same_error(const simdsv_error *a, const simdsv_error *b)
{
    return a->code == b->code && a->byte_offset == b->byte_offset && a->line == b->line && a->column == b->column &&
           a->record == b->record && a->field == b->field && strcmp(a->message, b->message) == 0;
}

static void print_input(const input *in)
{
    fprintf(stderr, "    input (%zu bytes, %s, header %d, skip_lines %d, lenient %d, no quote %d): ", in->data.n,
            dialect_names[in->dialect], in->header, in->skip_lines, in->lenient, in->no_quote);
    h_print_bytes(stderr, in->data.p, in->data.n < 2000 ? in->data.n : 2000);
    fputc('\n', stderr);
}

static int compare(const char *what, const input *in, const outcome *want, const outcome *got, src_kind src,
                   int threads)
{
    int ok = want->rounds == got->rounds && want->next == got->next && want->offset == got->offset;
    for (size_t k = 0; ok && k < want->rounds; k++) {
        ok = want->st[k] == got->st[k] && want->n[k] == got->n[k];
        if (ok && want->st[k] != SIMDSV_OK)
            ok = same_error(&want->err[k], &got->err[k]);
    }
    if (ok && src == SRC_FD && want->st[want->rounds - 1] == SIMDSV_OK && !got->fd_at_end)
        ok = 0;
    if (ok) {
        PASS();
        return 1;
    }
    if (h_fail(__FILE__, __LINE__)) {
        fprintf(stderr, "    %s: %s, %d threads differs from the serial count from memory\n", what,
                source_names[src], threads);
        for (size_t k = 0; k < want->rounds || k < got->rounds; k++) {
            fprintf(stderr, "    count %zu: serial %s %llu", k,
                    k < want->rounds ? simdsv_status_name(want->st[k]) : "-",
                    (unsigned long long)(k < want->rounds ? want->n[k] : 0));
            if (k < want->rounds && want->st[k] != SIMDSV_OK) {
                h_error e = h_error_of(&want->err[k]);
                fputc(' ', stderr);
                h_print_error(stderr, &e);
            }
            fprintf(stderr, "; threads %s %llu", k < got->rounds ? simdsv_status_name(got->st[k]) : "-",
                    (unsigned long long)(k < got->rounds ? got->n[k] : 0));
            if (k < got->rounds && got->st[k] != SIMDSV_OK) {
                h_error e = h_error_of(&got->err[k]);
                fputc(' ', stderr);
                h_print_error(stderr, &e);
            }
            fputc('\n', stderr);
        }
        fprintf(stderr, "    then next: %s / %s, offset %llu / %llu, fd at end %d\n", simdsv_status_name(want->next),
                simdsv_status_name(got->next), (unsigned long long)want->offset, (unsigned long long)got->offset,
                got->fd_at_end);
        print_input(in);
    }
    return 0;
}

static void set_chunk(size_t bytes)
{
    char v[32];
    snprintf(v, sizeof v, "%zu", bytes);
    setenv("SIMDSV_TEST_COUNT_CHUNK", v, 1);
}

/* Multi-thread counts of clean inputs, and how many of them ran in
 * parallel: of the plain dialect, and of the others (cut at line ends). */
static uint64_t eligible, ran_parallel, eligible_lines, ran_lines;

static uint64_t parallel_counts(void)
{
    uint64_t counts, rescans;
    simdsv__count_parallel_stats(&counts, &rescans);
    return counts;
}

/* Every thread count from memory and a file; some from mmap and a descriptor. */
static void check_input(const char *what, const input *in, int all_sources)
{
    outcome want, got;
    count_with(in, SRC_MEMORY, 1, &want);
    write_files(in);
    const int clean = want.rounds == 1 && want.st[0] == SIMDSV_OK;
    for (int threads = 1; threads <= 8; threads++) {
        const uint64_t before = parallel_counts();
        count_with(in, SRC_MEMORY, threads, &got);
        compare(what, in, &want, &got, SRC_MEMORY, threads);
        count_with(in, SRC_PATH, threads, &got);
        compare(what, in, &want, &got, SRC_PATH, threads);
        if (threads > 1 && clean) {
            *(in->dialect == PLAIN ? &eligible : &eligible_lines) += 2;
            *(in->dialect == PLAIN ? &ran_parallel : &ran_lines) += parallel_counts() - before;
        }
    }
    if (all_sources) {
        const int threads = 2 + (int)below(7);
        count_with(in, SRC_MMAP, threads, &got);
        compare(what, in, &want, &got, SRC_MMAP, threads);
        count_with(in, SRC_FD, threads, &got);
        compare(what, in, &want, &got, SRC_FD, threads);
        count_with(in, SRC_FD, 1, &got);
        compare(what, in, &want, &got, SRC_FD, 1);
        count_with(in, SRC_CALLBACK, threads, &got);
        compare(what, in, &want, &got, SRC_CALLBACK, threads);
    }
}

/* ------------------------------------------------------------------ cases */

static void random_inputs(size_t count)
{
    input in = {{NULL, 0, 0}, 0, 0, 0, 0, PLAIN, 0};
    for (size_t i = 0; i < count; i++) {
        in.dialect = i % 2 ? (dialect)(1 + i / 2 % (DIALECTS - 1)) : PLAIN;
        random_input(&in, 200 + below(i % 4 == 0 ? 12000 : 3000));
        set_chunk(1 + below(i % 3 == 0 ? 16 : 120));
        char what[64];
        snprintf(what, sizeof what, "random input %zu", i);
        h_context("%s", what);
        check_input(what, &in, i % 4 == 0);
    }
    free(in.data.p);
}

/* Inputs of every dialect whose records all have one width, so that the
 * planner's cuts at line ends find plausible record starts: counted on 2 to
 * 4 threads from memory and from a file, each count equal to the serial
 * one, and nearly all of them in parallel, cut at line ends. */
static void dialect_inputs(size_t inputs)
{
    const int rounds = inputs >= 1000 ? 12 : 3; /* (fewer under the sanitizers, which ask for fewer inputs) */
    input in = {{NULL, 0, 0}, 0, 0, 0, 0, PLAIN, 4};
    uint64_t lines0 = 0, lines1 = 0, tried = 0;
    simdsv__count_line_cut_stats(&lines0);
    for (int d = ESCAPE; d < DIALECTS; d++) {
        for (int round = 0; round < rounds; round++) {
            char what[64];
            snprintf(what, sizeof what, "%s input %d", dialect_names[d], round);
            h_context("%s", what);
            outcome want, got;
            /* Valid ones (the random end may put text after a closing quote). */
            for (int tries = 0; tries < 20; tries++) {
                in.dialect = (dialect)d;
                random_input(&in, 4000 + below(20000));
                in.skip_lines = 0;
                in.lenient = round % 3 == 0;
                in.no_quote = 0;
                count_with(&in, SRC_MEMORY, 1, &want);
                if (want.st[0] == SIMDSV_OK)
                    break;
            }
            CHECK_STATUS(want.st[0], SIMDSV_OK);
            set_chunk(in.data.n / 5);
            write_files(&in);
            for (int threads = 2; threads <= 4; threads++) {
                count_with(&in, SRC_MEMORY, threads, &got);
                compare(what, &in, &want, &got, SRC_MEMORY, threads);
                count_with(&in, SRC_PATH, threads, &got);
                compare(what, &in, &want, &got, SRC_PATH, threads);
                tried += 2;
            }
        }
    }
    simdsv__count_line_cut_stats(&lines1);
    printf("dialect inputs: %llu of %llu counts cut at line ends\n", (unsigned long long)(lines1 - lines0),
           (unsigned long long)tried);
    h_context("dialect inputs cut at line ends");
    CHECK(lines1 - lines0 >= tried * 8 / 10);
    free(in.data.p);
}

/* The raw boundary b_1 = len / n (no header, no BOM: the count starts at 0)
 * is moved over every byte of a probe and a little around it, by padding
 * the end of the input. */
static void boundary_sweeps(void)
{
    static const char *const probes[] = {
        "1,\"a\nb\",2\n",       "1,\"a\r\nb\",2\r\n", "\"\n\",x\n",        "x,\"\r\n\",\"\r\n\"\r\n",
        "1,\"\",\"\"\"\"\n",    "x,\"\r\",y\r",       "\"q\"\"\n\"\"q\"\n", "a,\"\n\n\n\",b\n\n\n",
        "1,\"a\nb\"x,2\n",      "1,a\"b,2\n",         "\"\n\"\n\"\n\"\n",   "\"\r\n\"\r\n\r\n",
    };
    static const char prefix[] = "h1,h2\r\na,b\n\"c\nd\",e\n";
    input in = {{NULL, 0, 0}, 0, 0, 0, 0, PLAIN, 0};
    for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++) {
        const size_t plen = strlen(probes[p]);
        for (int n = 2; n <= 4; n++) {
            set_chunk(1);
            for (int lenient = 0; lenient <= 1; lenient++) {
                /* b_1 = len / n goes from 3 bytes before the probe to 3 after. */
                const size_t lo = sizeof prefix - 1 >= 3 ? sizeof prefix - 1 - 3 : 0;
                for (size_t b1 = lo; b1 <= sizeof prefix - 1 + plen + 3; b1++) {
                    in.data.n = 0;
                    puts_(&in.data, prefix);
                    puts_(&in.data, probes[p]);
                    /* Pad with short records (and the ambiguous `"\n"`) to
                     * len with len / n == b1. */
                    const size_t len = b1 * (size_t)n + (size_t)(b1 % (size_t)n);
                    size_t k = 0;
                    while (in.data.n + 8 < len)
                        puts_(&in.data, k++ % 3 == 0 ? "\"\n\",z\n" : "abcdef\n");
                    while (in.data.n + 1 < len)
                        puts_(&in.data, "y");
                    if (in.data.n < len)
                        puts_(&in.data, "\n");
                    in.header = 0;
                    in.skip_lines = 0;
                    in.lenient = lenient;
                    char what[96];
                    snprintf(what, sizeof what, "probe %zu, %d chunks, boundary at %zu, lenient %d", p, n, b1, lenient);
                    h_context("%s", what);
                    outcome want, got;
                    count_with(&in, SRC_MEMORY, 1, &want);
                    write_files(&in);
                    count_with(&in, SRC_MEMORY, n, &got);
                    compare(what, &in, &want, &got, SRC_MEMORY, n);
                    count_with(&in, SRC_PATH, n, &got);
                    compare(what, &in, &want, &got, SRC_PATH, n);
                }
            }
        }
    }
    free(in.data.p);
}

/* Some MiB with the library's own chunk size (4 MiB) and 1 MiB windows. */
static void large_input(void)
{
    unsetenv("SIMDSV_TEST_COUNT_CHUNK");
    input in = {{NULL, 0, 0}, 1, 0, 0, 0, PLAIN, 0};
    const size_t target = (size_t)13 << 20;
    while (in.data.n < target) {
        const size_t fields = 1 + below(6);
        for (size_t f = 0; f < fields; f++) {
            if (f)
                puts_(&in.data, ",");
            random_field(&in.data);
        }
        puts_(&in.data, line_ends[below(sizeof line_ends / sizeof line_ends[0])]);
    }
    h_context("large input");
    uint64_t before, rescans;
    simdsv__count_parallel_stats(&before, &rescans);
    outcome want, got;
    count_with(&in, SRC_MEMORY, 1, &want);
    CHECK_STATUS(want.st[0], SIMDSV_OK);
    write_files(&in);
    for (int threads = 2; threads <= 3; threads++) {
        count_with(&in, SRC_MEMORY, threads, &got);
        compare("large input", &in, &want, &got, SRC_MEMORY, threads);
        count_with(&in, SRC_PATH, threads, &got);
        compare("large input", &in, &want, &got, SRC_PATH, threads);
    }
    count_with(&in, SRC_FD, 3, &got);
    compare("large input", &in, &want, &got, SRC_FD, 3);
    uint64_t after;
    simdsv__count_parallel_stats(&after, &rescans);
    CHECK_EQ_U64(after - before, 5); /* every one of them in parallel */
    free(in.data.p);
}

/* Resident bytes of mapped files in this process (RssFile), or -1 where
 * /proc does not say. */
static long long rss_file_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "RssFile: %lld kB", &kib) == 1)
            break;
    fclose(f);
    return kib < 0 ? -1 : kib * 1024;
}

/* RssFile after counting the mapped file_path on `threads`, the reader still
 * open, less the RssFile before it was opened. */
static long long rss_growth_of_mapped_count(int threads, uint64_t *count)
{
    const long long before = rss_file_bytes();
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_KERNEL, kernel);
    simdsv_options_set(opt, SIMDSV_OPT_THREADS, threads);
    simdsv_options_set(opt, SIMDSV_OPT_MMAP, 1);
    simdsv_reader *r = NULL;
    *count = 0;
    if (simdsv_reader_new(&r, opt) != SIMDSV_OK || simdsv_reader_open_path(r, file_path) != SIMDSV_OK ||
        simdsv_reader_count(r, count) != SIMDSV_OK)
        *count = UINT64_MAX;
    const long long after = rss_file_bytes();
    simdsv_reader_free(r);
    simdsv_options_free(opt);
    return before < 0 || after < 0 ? -1 : after - before;
}

/* A mapped file counted on threads: each hands the pages of its chunk back
 * when it is done (chunks.c), so the page-table teardown runs on all of them.
 * Pages handed back read back unchanged: a count that then fails over to the
 * serial path (an unclosed quote at the very end; a stray quote in lenient
 * mode, cut at line ends) reads them again, and its count, error and
 * positions must be the serial count's from memory, on 1 to 3 threads; and
 * the pages must really have left (RssFile, where /proc has it). */
static void mapped_pages_handed_back(void)
{
    unsetenv("SIMDSV_TEST_COUNT_CHUNK");
    input in = {{NULL, 0, 0}, 1, 0, 0, 0, PLAIN, 0};
    puts_(&in.data, "id,text,n\n");
    for (int k = 0; in.data.n < ((size_t)13 << 20); k++) {
        char row[64];
        snprintf(row, sizeof row, k % 3 ? "%d,plain,%d\n" : "%d,\"quoted, with\nline end\",%d\r\n", k, k % 97);
        puts_(&in.data, row);
    }
    const size_t clean_size = in.data.n;
    static const char *const endings[] = {"", "last,\"never closed\n1,2\n", "7,ab\"c,1\n8,9,10\n"};
    for (int e = 0; e < 3; e++) {
        in.data.n = clean_size;
        puts_(&in.data, endings[e]);
        in.lenient = e == 2;
        h_context(e == 0 ? "mapped pages handed back: clean"
                         : e == 1 ? "mapped pages handed back: unclosed quote at the end"
                                  : "mapped pages handed back: lenient, a stray quote near the end");
        outcome want, got;
        count_with(&in, SRC_MEMORY, 1, &want);
        CHECK_STATUS(want.st[0], e == 1 ? SIMDSV_ERR_UNTERMINATED_QUOTE : SIMDSV_OK);
        write_files(&in);
        for (int threads = 1; threads <= 3; threads++) {
            count_with(&in, SRC_MMAP, threads, &got);
            compare("mapped pages handed back", &in, &want, &got, SRC_MMAP, threads);
        }
        if (e == 1) /* the error is the serial path's, on the last line */
            CHECK(want.err[0].byte_offset + 40 > in.data.n && want.err[0].line > 300000);
    }
    in.data.n = clean_size;
    in.lenient = 0;
    write_files(&in);
    h_context("mapped pages handed back: resident memory");
    uint64_t serial_count = 0, parallel_count = 0;
    const long long serial = rss_growth_of_mapped_count(1, &serial_count);
    const long long parallel = rss_growth_of_mapped_count(2, &parallel_count);
    CHECK_EQ_U64(parallel_count, serial_count);
    CHECK(serial_count > 300000 && serial_count != UINT64_MAX);
    if (serial >= 0 && parallel >= 0) {
        /* one thread keeps what it touched mapped until the reader goes;
         * two keep at most the pages that straddle a chunk's ends */
        CHECK(serial > (long long)(clean_size / 2));
        CHECK(parallel < (long long)(1 << 20));
    } else {
        printf("mapped pages handed back: no RssFile in /proc/self/status, resident memory not checked\n");
    }
    free(in.data.p);
}

/* A count by read() drops the bytes it has counted without counting their
 * lines; an error's line then counts them from the file, 1 MiB a piece
 * (position.c).  Three pieces and more behind an error, a CRLF cut by the
 * first piece's end (one line end, not two), a lone CR ending the second
 * piece and a quoted line end: every count of the rounds (the error, then the
 * count after it) gives the lines the count from memory gives, at one
 * thread (the serial count) and from a descriptor that starts inside a file. */
static void lines_counted_from_the_file(void)
{
    unsetenv("SIMDSV_TEST_COUNT_CHUNK");
    input in = {{NULL, 0, 0}, 0, 0, 0, 0, PLAIN, 0};
    put(&in.data, "", 0);
    const size_t piece = (size_t)1 << 20;
    const char *const ends[] = {"\r\n", "\r"};
    for (int k = 0; k < 2; k++) {
        while (in.data.n < piece * (size_t)(k + 1) - 64)
            puts_(&in.data, below(4) ? "12,\"a\nb\",cd\n" : "3,x,\r\n");
        /* a record whose line end starts on the piece's last byte */
        puts_(&in.data, "pad,");
        while (in.data.n < piece * (size_t)(k + 1) - 1)
            puts_(&in.data, "p");
        puts_(&in.data, ends[k]);
        CHECK_EQ_U64(in.data.n, piece * (size_t)(k + 1) + (k == 0));
    }
    while (in.data.n < 3 * piece + 5000)
        puts_(&in.data, "7,\"q\r\nq\",z\n");
    puts_(&in.data, "bad,ab\"c,1\n8,9,10\r\n11,12,13\n");
    h_context("lines counted from the file");
    outcome want, got;
    count_with(&in, SRC_MEMORY, 1, &want);
    CHECK_STATUS(want.st[0], SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD);
    CHECK(want.err[0].line > 3 * piece / 16); /* far past the buffer: the lines were dropped */
    write_files(&in);
    count_with(&in, SRC_PATH, 1, &got);
    compare("lines counted from the file", &in, &want, &got, SRC_PATH, 1);
    count_with(&in, SRC_FD, 1, &got);
    compare("lines counted from the file", &in, &want, &got, SRC_FD, 1);
    free(in.data.p);
}

/* A file read with read() holds at most a record of SIMDSV_OPT_MAX_RECORD_SIZE
 * in its buffer: past that the serial count fails, and so must the parallel
 * one (it cannot see records, only gaps between line ends, so it leaves
 * such a file to the serial count).  The same with an escape byte, whose
 * chunks are cut at line ends and read as streams that check the limit
 * themselves. */
static void record_size_limit(size_t inputs)
{
    set_chunk(300000); /* 150000-byte windows */
    max_record_size = 200000;
    /* (the escape rounds only in the full run: the sanitizers ask for fewer inputs) */
    for (int round = 0; round < (inputs >= 1000 ? 4 : 2); round++) {
        const int over = round % 2;
        input in = {{NULL, 0, 0}, 1, 0, 0, 0, round < 2 ? PLAIN : ESCAPE, 0};
        puts_(&in.data, "id,text\n");
        for (int k = 0; in.data.n < 2400000; k++) {
            char head[32];
            snprintf(head, sizeof head, "%d,", k);
            puts_(&in.data, head);
            /* Records of about 100000 bytes, one of 300000 when `over`;
             * every other one a quoted field with line ends inside. */
            const size_t len = over && k == 13 ? 300000 : 100000;
            if (k % 2) {
                puts_(&in.data, "\"");
                for (size_t i = 0; i + 2 < len; i++)
                    put(&in.data, i % 1000 == 999 ? "\n" : "q", 1);
                puts_(&in.data, "\"");
            } else {
                for (size_t i = 0; i < len; i++)
                    put(&in.data, "x", 1);
            }
            puts_(&in.data, "\n");
        }
        char what[64];
        snprintf(what, sizeof what, "record size limit, %s it, %s", over ? "a record over" : "every record under",
                 dialect_names[in.dialect]);
        h_context("%s", what);
        outcome want, got;
        write_files(&in);
        count_with(&in, SRC_MEMORY, 1, &want);
        CHECK_STATUS(want.st[0], SIMDSV_OK); /* no limit on counting a whole input */
        const uint64_t records = want.n[0];
        count_with(&in, SRC_PATH, 1, &want);
        CHECK_STATUS(want.st[0], over ? SIMDSV_ERR_RECORD_TOO_LARGE : SIMDSV_OK);
        /* Counting goes on after the record over the limit. */
        CHECK_EQ_U64(want.rounds, over ? 2 : 1);
        CHECK_EQ_U64(want.n[0] + want.n[1], over ? records - 1 : records);
        const uint64_t before = parallel_counts();
        for (int threads = 2; threads <= 8; threads += 3) {
            count_with(&in, SRC_PATH, threads, &got);
            compare(what, &in, &want, &got, SRC_PATH, threads);
        }
        /* In parallel: every count without a record over the limit, the
         * count that goes on after it when there is one (the parity cut:
         * the cuts at line ends mostly fall inside the long quoted fields,
         * and the serial count reads those inputs). */
        if (in.dialect == PLAIN)
            CHECK_EQ_U64(parallel_counts() - before, 3);
        free(in.data.p);
    }
    max_record_size = 0;
}

/* Options that keep the count on one thread give the same result anyway. */
static void serial_dialects(void)
{
    set_chunk(4);
    /* An escaped quote (the parity trick does not hold), then a comment line. */
    static const char *const data[2] = {"a,b\n1,\"x\\\"y\"\n#c,d\n2,\"p\nq\"\n3,4\n5,6\n7,8\n",
                                        "a,b\n1,\"xy\"\n#c,d\n2,\"p\nq\"\n3,4\n5,6\n7,8\n"};
    for (int variant = 0; variant < 2; variant++) {
        uint64_t n[2] = {0, 0};
        for (int threads = 1; threads <= 2; threads++) {
            simdsv_options *opt = simdsv_options_new(NULL);
            simdsv_options_set(opt, SIMDSV_OPT_KERNEL, kernel);
            simdsv_options_set(opt, SIMDSV_OPT_THREADS, threads);
            simdsv_options_set(opt, variant ? SIMDSV_OPT_COMMENT : SIMDSV_OPT_ESCAPE, variant ? '#' : '\\');
            simdsv_reader *r = NULL;
            CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK);
            CHECK_STATUS(simdsv_reader_open_memory(r, data[variant], strlen(data[variant])), SIMDSV_OK);
            CHECK_STATUS(simdsv_reader_count(r, &n[threads - 1]), SIMDSV_OK);
            simdsv_reader_free(r);
            simdsv_options_free(opt);
        }
        const uint64_t want = variant ? 5 : 6;
        CHECK_EQ_U64(n[0], want);
        CHECK_EQ_U64(n[1], want);
    }
}

int main(int argc, char **argv)
{
    kernel = harness_kernel();
    const size_t inputs = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1500;
    uint64_t counts0, rescans0;
    serial_dialects();
    simdsv__count_parallel_stats(&counts0, &rescans0);
    random_inputs(inputs);
    uint64_t counts1, rescans1;
    simdsv__count_parallel_stats(&counts1, &rescans1);
    boundary_sweeps();
    uint64_t counts2, rescans2;
    simdsv__count_parallel_stats(&counts2, &rescans2);
    printf("random inputs: %llu of %llu multi-thread counts of clean inputs ran in parallel "
           "(%llu parallel counts in all), %llu chunks rescanned; other dialects: %llu of %llu, cut at line ends\n",
           (unsigned long long)ran_parallel, (unsigned long long)eligible, (unsigned long long)(counts1 - counts0),
           (unsigned long long)(rescans1 - rescans0), (unsigned long long)ran_lines,
           (unsigned long long)eligible_lines);
    printf("boundary sweeps: %llu counts in parallel, %llu chunks rescanned\n",
           (unsigned long long)(counts2 - counts1), (unsigned long long)(rescans2 - rescans1));
    h_context("the parallel path ran");
    /* A chunk without a record start in its range keeps a count serial;
     * nearly all clean random inputs must have run in parallel, and wrong
     * guesses of the quote state must have been rescanned. */
    CHECK(ran_parallel * 10 >= eligible * 8);
    /* Records of random widths make most cuts at line ends implausible
     * (the first is taken then), and many line ends are quoted: fewer of
     * those run in parallel, and every one that does is checked. */
    CHECK(ran_lines * 8 >= eligible_lines);
    CHECK(rescans1 - rescans0 > 0 || inputs < 200);
    CHECK(rescans2 - rescans1 > 0);
    dialect_inputs(inputs);
    large_input();
    mapped_pages_handed_back();
    lines_counted_from_the_file();
    record_size_limit(inputs);
    if (file_path) {
        unlink(file_path);
        free(file_path);
    }
    if (offset_path) {
        unlink(offset_path);
        free(offset_path);
    }
    return check_summary();
}
