/*
 * test_table_threads.c — the typed reader on several threads for the
 * dialects whose chunks are cut at line ends (src/record/chunks.c): an escape byte,
 * comment lines, lenient mode, the delimiter "||", trimmed spaces.  Inputs are built so that escaped quotes,
 * quoted line ends, comment lines holding quotes and delimiters, stray
 * quotes and blank lines fall on and around the chunk edges
 * (SIMDSV_TEST_COUNT_CHUNK lets inputs of a few KiB be cut; 2 to 7 threads
 * move the edges).  Every threaded read must equal the one-thread read —
 * values, nulls, types, rejects with their rows, lines and offsets, and the
 * error with its position — and the one-thread read must hold what the
 * generator wrote (rows, the sum of the ids, the rejects).  The library's
 * counter (simdsv__table_parallel_stats) shows the threaded path ran.
 *
 *   test_table_threads [DIR...]   also every .csv under each DIR (the
 *   conformance corpus, ../shared/datasets when beside the clone), read with
 *   four dialect option sets on 1 thread and on 3.
 */
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void simdsv__table_parallel_stats(uint64_t *reads, uint64_t *line_cuts);
void simdsv__table_overlap_stats(uint64_t *overlapped, uint64_t *lent);

typedef struct opt_kv {
    simdsv_option id;
    int64_t value;
} opt_kv;

/* Whether a dump also holds each column's reason (the streamed file's
 * checks: its schema must be the whole read's, reasons included). */
static int dump_reasons;

/* The delimiter of the PIPES shape (SIMDSV_OPT_DELIMITER_STRING) for the
 * reads that follow; NULL: the default. */
static const char *delimiter_string;

/* What a read gave, as text: status, error, types, every value, rejects. */
typedef struct dump {
    char *s;
    size_t len, cap;
    uint64_t rows, id_sum, rejects;
} dump;

static void put(dump *d, const char *fmt, ...)
{
    va_list ap;
    if (!d->s)
        d->s = malloc(d->cap = 256);
    for (;;) {
        va_start(ap, fmt);
        const int n = vsnprintf(d->s + d->len, d->cap - d->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < d->cap - d->len) {
            d->len += (size_t)n;
            return;
        }
        d->cap = d->cap * 2 + (size_t)(n > 0 ? n : 0) + 256;
        d->s = realloc(d->s, d->cap);
    }
}

static int bit_at(const void *bits, int64_t i)
{
    return (((const uint8_t *)bits)[i / 8] >> (i % 8)) & 1;
}

static void dump_array(dump *d, const struct ArrowSchema *s, const struct ArrowArray *a)
{
    for (int64_t c = 0; c < a->n_children; c++) {
        const struct ArrowArray *x = a->children[c];
        const char *f = s->children[c]->format;
        put(d, "col %s %s nulls %lld\n", s->children[c]->name, f, (long long)x->null_count);
        for (int64_t i = 0; i < x->length; i++) {
            const int64_t k = i + x->offset;
            if (x->n_buffers == 0 || (x->buffers[0] && !bit_at(x->buffers[0], k))) { /* all-null type: no buffers */
                put(d, "N\n");
            } else if (strcmp(f, "u") == 0) {
                const int32_t *o = x->buffers[1];
                put(d, "'%.*s'\n", (int)(o[k + 1] - o[k]), (const char *)x->buffers[2] + o[k]);
            } else if (strcmp(f, "vu") == 0) { /* a view: its bytes, wherever they are */
                const unsigned char *v = (const unsigned char *)x->buffers[1] + 16 * k;
                int32_t n, buffer, offset;
                memcpy(&n, v, 4);
                memcpy(&buffer, v + 8, 4);
                memcpy(&offset, v + 12, 4);
                put(d, "'%.*s'\n", (int)n, n <= 12 ? (const char *)v + 4 : (const char *)x->buffers[2 + buffer] + offset);
            } else if (strcmp(f, "b") == 0) {
                put(d, "%d\n", bit_at(x->buffers[1], k));
            } else if (strcmp(f, "tdD") == 0) {
                put(d, "%d\n", ((const int32_t *)x->buffers[1])[k]);
            } else {
                int64_t v;
                memcpy(&v, (const char *)x->buffers[1] + 8 * k, 8);
                put(d, "%llx\n", (long long)v);
                if (c == 0 && strcmp(f, "l") == 0)
                    d->id_sum += (uint64_t)v;
            }
        }
    }
}

/* The read of csv in memory, or of the file at path (mapped when map is set). */
static dump read_dump_from(const char *csv, const char *path, int map, const opt_kv *opts, const char *schema,
                           int threads)
{
    dump d = {0};
    simdsv_options *o = simdsv_options_new(NULL);
    for (; opts && opts->id; opts++)
        simdsv_options_set(o, opts->id, opts->value);
    if (delimiter_string)
        CHECK(simdsv_options_set_string(o, SIMDSV_OPT_DELIMITER_STRING, delimiter_string) == SIMDSV_OK);
    simdsv_options_set(o, SIMDSV_OPT_THREADS, threads);
    simdsv_options_set(o, SIMDSV_OPT_MMAP, map);
    if (path) /* the header's read takes 4 KiB: the rest is left to the typed reader */
        simdsv_options_set(o, SIMDSV_OPT_BUFFER_SIZE, 4096);
    if (schema)
        CHECK(simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, schema) == SIMDSV_OK);
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, o);
    if (st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    simdsv_table *t = NULL;
    if (st == SIMDSV_OK && (st = path ? simdsv_reader_open_path(r, path)
                                      : simdsv_reader_open_memory(r, csv, strlen(csv))) == SIMDSV_OK)
        st = simdsv_table_read(r, &t);
    const simdsv_error *e = simdsv_reader_error(r);
    put(&d, "status %d\n", (int)st);
    if (st != SIMDSV_OK)
        put(&d, "error %d at byte %llu line %llu column %llu record %llu field %llu: %s\n", (int)e->code,
            (unsigned long long)e->byte_offset, (unsigned long long)e->line, (unsigned long long)e->column,
            (unsigned long long)e->record, (unsigned long long)e->field, e->message);
    if (t) {
        d.rows = simdsv_table_rows(t);
        for (size_t j = 0; dump_reasons && j < simdsv_table_columns(t); j++) {
            simdsv_column_info info;
            CHECK(simdsv_table_column(t, j, &info) == SIMDSV_OK);
            put(&d, "reason %s\n", info.reason);
        }
        d.rejects = simdsv_table_reject_count(t);
        for (size_t i = 0; i < d.rejects; i++) {
            const simdsv_reject *j = simdsv_table_reject(t, i);
            put(&d, "reject row %llu line %llu column %zu byte %llu '%s': %s\n", (unsigned long long)j->row,
                (unsigned long long)j->line, j->column, (unsigned long long)j->byte_offset, j->value, j->reason);
        }
        struct ArrowSchema s;
        struct ArrowArray a;
        CHECK(simdsv_table_move_to_arrow(t, &s, &a) == SIMDSV_OK);
        put(&d, "rows %llu\n", (unsigned long long)a.length);
        dump_array(&d, &s, &a);
        a.release(&a);
        s.release(&s);
        simdsv_table_free(t);
    }
    simdsv_reader_free(r);
    simdsv_options_free(o);
    return d;
}

static dump read_dump(const char *csv, const opt_kv *opts, const char *schema, int threads)
{
    return read_dump_from(csv, NULL, 0, opts, schema, threads);
}

enum shape { PLAIN, ESCAPED, COMMENTED, LENIENT, PIPES, TRIMMED };

static size_t first_bad; /* offset of the first id that is not an integer (build) */

/* The name field's forms (with a number for %u), eight per shape. */
static const char *const name_forms[][8] = {
    /* RFC 4180: doubled quotes, quoted delimiters and line ends */
    [PLAIN] = {"\"say \"\"hi\"\", %u\",", "\"say \"\"hi\"\", %u\",", "\"say \"\"hi\"\", %u\",",
               "\"two\r\nlines %u\",", "\"two\r\nlines %u\",", "plain %u,", "plain %u,", "plain %u,"},
    /* escaped quotes, backslashes, delimiters, line ends inside quotes */
    [ESCAPED] = {"\"say \\\"hi\\\", %u\",", "\"say \\\"hi\\\", %u\",", "\"say \\\"hi\\\", %u\",",
                 "\"two\nlines \\\\ %u\\\\\",", "\"two\nlines \\\\ %u\\\\\",", "\"\\\n%u\\\"\n\",",
                 "plain %u,", "plain %u,"},
    /* # inside fields is data; quoted line ends */
    [COMMENTED] = {"\"a # %u\",", "\"a # %u\",", "\"a # %u\",", "\"b\n#%u\",", "c%u#,", "c%u#,", "c%u#,", "c%u#,"},
    /* stray quotes, text after a closing quote, quoted line ends */
    [LENIENT] = {"ab\"c%u,", "ab\"c%u,", "\"ab\"cd %u,", "\"ab\"cd %u,", "\"q\n\"\"x\"\" %u\",", "w%u\",", "w%u\",",
                 "w%u\","},
    /* the delimiter "||": bars inside fields, quoted or not; a bar after a
     * delimiter is the next field's ("|||x" is "||" then "|x") */
    [PIPES] = {"\"say \"\"hi\"\"|| %u\"||", "\"a|b %u\"||", "\"two\r\nlines|| %u\"||", "\"two\r\nlines|| %u\"||",
               "plain|bar %u||", "|lead %u||", "p %u||", "p %u||"},
    /* trimmed spaces: around unquoted fields, around quoted ones */
    [TRIMMED] = {" \"say \"\"hi\"\", %u\"  ,", "  plain %u  ,", "\"two\r\nlines %u\" ,", "\"two\r\nlines %u\" ,",
                 "  \" q %u \",", "p %u,", "p %u,", " p %u ,"},
};

/* A CSV of `rows` data rows in the given shape: id,x,name,day,flag (flag a
 * bool or null, so that bitmaps of every alignment are merged).  *id_sum and
 * *bad (ids that are not integers, lenient only) are what was written. */
static char *build(enum shape shape, int rows, uint32_t seed, uint64_t *id_sum, int *bad)
{
    size_t cap = (size_t)rows * 120 + 256, len = 0;
    char *csv = malloc(cap);
    *id_sum = 0;
    *bad = 0;
    const char *const sep = shape == PIPES ? "||" : ",";
    len += (size_t)sprintf(csv + len, "id%sx%sname%sday%sflag\n", sep, sep, sep, sep);
    uint32_t rng = seed;
    for (int row = 0; row < rows; row++) {
        rng = rng * 1103515245u + 12345u;
        const unsigned pick = (rng >> 16) % 8;
        if (shape == COMMENTED && pick == 0)
            len += (size_t)sprintf(csv + len, "# a comment, with \"an open quote\n");
        if (shape == COMMENTED && pick == 1)
            len += (size_t)sprintf(csv + len, "#\"\n\n");
        if (shape == LENIENT && pick == 2 && row % 5 == 0) {
            if (!*bad)
                first_bad = len;
            len += (size_t)sprintf(csv + len, "x%d,", row); /* not an int64: a reject */
            ++*bad;
        } else {
            len += (size_t)sprintf(csv + len, "%d%s", row, sep);
            *id_sum += (uint64_t)row;
        }
        len += (size_t)sprintf(csv + len, "%u.%02u%s", rng % 1000, (rng >> 10) % 100, sep);
        /* the name field: one of eight forms per shape, each with a number */
        const char *form = name_forms[shape][pick];
        const char *cut = strstr(form, "%u");
        memcpy(csv + len, form, (size_t)(cut - form));
        len += (size_t)(cut - form);
        len += (size_t)sprintf(csv + len, "%u", rng % 97);
        len += (size_t)sprintf(csv + len, "%s", cut + 2);
        len += (size_t)sprintf(csv + len, "2024-%02u-%02u%s%s%s", 1 + (rng >> 4) % 12, 1 + (rng >> 8) % 28, sep,
                               (rng >> 24) % 3 == 0 ? "" : (rng >> 24) % 3 == 1 ? "true" : "false",
                               (rng >> 20) % 3 == 0 ? "\r\n" : "\n");
    }
    csv[len] = '\0';
    return csv;
}

static int same(const dump *a, const dump *b)
{
    return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/* 1 thread against 2..7, exact counts against the generator. */
static void check_shape(enum shape shape, const opt_kv *opts, const char *schema, int rows)
{
    for (uint32_t seed = 1; seed <= 3; seed++) {
        uint64_t id_sum;
        int bad;
        char *csv = build(shape, rows, seed, &id_sum, &bad);
        dump one = read_dump(csv, opts, schema, 1);
        CHECK(strncmp(one.s, "status 0\n", 9) == 0);
        CHECK_EQ_U64(one.rows, (uint64_t)rows);
        CHECK_EQ_U64(one.id_sum, id_sum);
        CHECK_EQ_U64(one.rejects, (uint64_t)bad);
        CHECK(strstr(one.s, "col flag b nulls ") != NULL && strstr(one.s, "col day tdD nulls 0\n") != NULL);
        uint64_t reads0, cuts0, reads1, cuts1, over0, over1, lent;
        simdsv__table_parallel_stats(&reads0, &cuts0);
        simdsv__table_overlap_stats(&over0, &lent);
        for (int threads = 2; threads <= 7; threads++) {
            dump many = read_dump(csv, opts, schema, threads);
            if (!same(&one, &many))
                FAIL_MSG("shape %d seed %u: %d threads differ from one", (int)shape, seed, threads);
            free(many.s);
        }
        simdsv__table_parallel_stats(&reads1, &cuts1);
        simdsv__table_overlap_stats(&over1, &lent);
        /* Edges inside quoted fields may fall back; most thread counts must
         * not.  Only RFC 4180 is cut by the parity scan instead of at lines;
         * every read converts its first chunk while the others are counted. */
        const uint64_t cuts = cuts1 - cuts0, reads = reads1 - reads0;
        if (over1 - over0 != reads)
            FAIL_MSG("shape %d seed %u: %llu of %llu threaded reads overlapped", (int)shape, seed,
                     (unsigned long long)(over1 - over0), (unsigned long long)reads);
        if (reads < 3 || cuts != (shape == PLAIN ? 0 : reads))
            FAIL_MSG("shape %d seed %u: %llu of 6 reads threaded, %llu cut at lines", (int)shape, seed,
                     (unsigned long long)reads, (unsigned long long)cuts);
        free(one.s);
        free(csv);
    }
}

/* An error (a stray quote in strict mode, a value that does not fit the
 * schema) at rows around the chunk edges: the threaded read reports the
 * same error, at the same byte, line, column and record. */
static void check_errors(void)
{
    const opt_kv escaped[] = {{SIMDSV_OPT_ESCAPE, '\\'}, {0, 0}};
    uint64_t id_sum;
    int bad;
    char *csv = build(ESCAPED, 400, 7, &id_sum, &bad);
    const size_t len = strlen(csv);
    for (int place = 1; place < 8; place++) {
        /* "plain N," fields become "pl"ain N,": a quote in an unquoted field */
        char *at = strstr(csv + len * (size_t)place / 8, ",plain ");
        if (!at)
            continue;
        at[3] = '"';
        dump one = read_dump(csv, escaped, NULL, 1);
        CHECK(strncmp(one.s, "status 6\nerror 6 at byte ", 25) == 0); /* SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD */
        CHECK(strtoull(one.s + 25, NULL, 10) == (uint64_t)(at + 3 - csv));
        for (int threads = 2; threads <= 5; threads++) {
            dump many = read_dump(csv, escaped, NULL, threads);
            if (!same(&one, &many))
                FAIL_MSG("stray quote at %zu: %d threads differ from one", (size_t)(at + 3 - csv), threads);
            free(many.s);
        }
        free(one.s);
        at[3] = 'a';
    }
    free(csv);
    /* lenient, a user type that a value does not fit: an error, not a reject */
    const opt_kv lenient[] = {{SIMDSV_OPT_LENIENT, 1}, {0, 0}};
    csv = build(LENIENT, 400, 9, &id_sum, &bad);
    CHECK(bad > 0);
    dump one = read_dump(csv, lenient, "id:int64", 1);
    uint64_t line = 1; /* physical lines before the first bad id: CR LF, LF and lone CR end one */
    for (size_t i = 0; i < first_bad; i++)
        line += csv[i] == '\n' || (csv[i] == '\r' && csv[i + 1] != '\n');
    char expect[96];
    snprintf(expect, sizeof expect, "status 14\nerror 14 at byte %zu line %llu column 1 ", first_bad,
             (unsigned long long)line); /* SIMDSV_ERR_VALUE */
    if (strncmp(one.s, expect, strlen(expect)) != 0)
        FAIL_MSG("expected %s, got %.120s", expect, one.s);
    CHECK(one.rows == 0);
    for (int threads = 2; threads <= 5; threads++) {
        dump many = read_dump(csv, lenient, "id:int64", threads);
        if (!same(&one, &many))
            FAIL_MSG("schema error: %d threads differ from one: %.300s VS %.300s", threads, one.s, many.s);
        free(many.s);
    }
    free(one.s);
    free(csv);
}

/* Reads csv on 2..max_threads threads, each compared with `one` (what one
 * thread gave); returns how many of those reads were threaded. */
static uint64_t threaded_reads_same(const char *csv, const opt_kv *opts, const dump *one, int max_threads,
                                    const char *what)
{
    uint64_t reads0, cuts0, reads1, cuts1;
    simdsv__table_parallel_stats(&reads0, &cuts0);
    for (int threads = 2; threads <= max_threads; threads++) {
        dump many = read_dump(csv, opts, NULL, threads);
        if (!same(one, &many))
            FAIL_MSG("%s: %d threads differ from one", what, threads);
        free(many.s);
    }
    simdsv__table_parallel_stats(&reads1, &cuts1);
    return reads1 - reads0;
}

/* RFC 4180 (the overlapped read, parallel.c): rows that get shorter past
 * the sampled start, so that the chunks after the first fill the rows the
 * sample's size estimate lends them and are lent more after the threads;
 * and a value that does not fit the schema at places around the chunk
 * edges, the first chunk's included: the same error as one thread. */
static void check_overlapped(void)
{
    size_t cap = 1 << 20, len = 0;
    char *csv = malloc(cap);
    len += (size_t)sprintf(csv + len, "id,text,x\n");
    uint64_t id_sum = 0;
    int rows = 0;
    for (; rows < 2000; rows++) /* the start window's rows: long ones */
        len += (size_t)sprintf(csv + len, "%d,\"a long, quoted text of row %d that the later rows do not have\",%d.5\n",
                               rows, rows, rows % 7);
    for (; len < cap - 64; rows++)
        len += (size_t)sprintf(csv + len, "%d,s,%d\n", rows, rows % 5);
    for (int i = 0; i < rows; i++)
        id_sum += (uint64_t)i;
    const opt_kv rows_sampled[] = {{SIMDSV_OPT_INFER_ROWS, 1000}, {0, 0}};
    dump one = read_dump(csv, rows_sampled, NULL, 1);
    CHECK(strncmp(one.s, "status 0\n", 9) == 0);
    CHECK_EQ_U64(one.rows, (uint64_t)rows);
    CHECK_EQ_U64(one.id_sum, id_sum);
    uint64_t over0, lent0, over1, lent1;
    simdsv__table_overlap_stats(&over0, &lent0);
    for (int threads = 2; threads <= 7; threads++) {
        dump many = read_dump(csv, rows_sampled, NULL, threads);
        if (!same(&one, &many))
            FAIL_MSG("shorter rows: %d threads differ from one", threads);
        free(many.s);
    }
    simdsv__table_overlap_stats(&over1, &lent1);
    CHECK_EQ_U64(over1 - over0, 6);
    CHECK(lent1 - lent0 >= 6); /* (a read lends to each chunk that fills up) */
    free(one.s);
    for (int place = 4; place < 16; place++) { /* past the long rows */
        /* "N,s,M" becomes "N,s,z": not a float64 */
        char *at = strstr(csv + len * (size_t)place / 16, "\n");
        CHECK(at != NULL);
        at = strchr(strchr(at + 1, ',') + 1, ',') + 1;
        const char keep = at[0];
        at[0] = 'z';
        dump first = read_dump(csv, NULL, "x:float64", 1);
        CHECK(strncmp(first.s, "status 14\n", 10) == 0); /* SIMDSV_ERR_VALUE */
        for (int threads = 2; threads <= 5; threads++) {
            dump many = read_dump(csv, NULL, "x:float64", threads);
            if (!same(&first, &many))
                FAIL_MSG("error at %zu: %d threads differ from one: %.200s VS %.200s", (size_t)(at - csv), threads,
                         first.s, many.s);
            free(many.s);
        }
        free(first.s);
        at[0] = keep;
    }
    free(csv);
}

/* The "col NAME FORMAT" lines of a dump, joined: the column types. */
static void types_of(const dump *d, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (const char *line = d->s; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "col ", 4) != 0)
            continue;
        const char *nulls = strstr(line, " nulls ");
        const size_t n = (size_t)(nulls - line);
        if (len + n + 2 < cap) {
            memcpy(out + len, line, n);
            len += n;
            out[len++] = ';';
            out[len] = '\0';
        }
    }
}

/* Late misfits (issue #21, defect 8): values past the sampled rows that do
 * not fit their column's inferred type, of every type (int64, float64,
 * bool, date, timestamp, an all-null start), at random rows.  One thread
 * widens the column in place; a threaded read's chunk stops at the misfit
 * and the input is read again on one thread, so every thread count (1..8,
 * both ways of cutting chunks) must give exactly the one-thread table, and
 * the one-thread read must have widened (its types differ from the same
 * rows without the misfits).  The threaded tests above missed this: their
 * inputs are sampled whole, so no inferred type ever met a misfit. */
static void check_late_misfits(void)
{
    enum { ROWS = 3000, COLS = 6 };
    static const char *const misfits[COLS][3] = {
        {"x%u", "%u.5", "92233720368547758%02u"}, /* int64: text, a float, past int64 */
        {"f%u", "1e%uzz", "true"},                /* float64 */
        {"maybe%u", "%u", "yes"},                 /* bool */
        {"2024-13-%02u", "day %u", "2024-02-30"}, /* date */
        {"later %u", "2024-01-02T25:%02u:00", "x"}, /* timestamp */
        {"%u", "n%u", "2.5"},                     /* null so far */
    };
    const opt_kv sampled[] = {{SIMDSV_OPT_INFER_ROWS, 100}, {0, 0}};
    const opt_kv sampled_escaped[] = {{SIMDSV_OPT_INFER_ROWS, 100}, {SIMDSV_OPT_ESCAPE, '\\'}, {0, 0}};
    const opt_kv *const dialects[2] = {sampled, sampled_escaped};
    int widened_reads = 0, cases = 0;
    uint32_t rng = 2126;
    for (int round = 0; round < 24; round++) {
        /* which rows hold a misfit, and of which form, per column */
        int late[COLS][2];
        unsigned form[COLS][2];
        for (int c = 0; c < COLS; c++)
            for (int m = 0; m < 2; m++) {
                rng = rng * 1103515245u + 12345u;
                /* about one column in three has none; rows past the start window */
                late[c][m] = (rng >> 8) % 3 == 0 ? -1 : 200 + (int)((rng >> 12) % (ROWS - 200));
                form[c][m] = (rng >> 4) % 3;
            }
        char *with = malloc((size_t)ROWS * 128 + 64), *without = malloc((size_t)ROWS * 128 + 64);
        size_t len_with = 0, len_without = 0;
        for (int pass = 0; pass < 2; pass++) {
            char *csv = pass ? with : without;
            size_t len = (size_t)sprintf(csv, "i,f,b,d,t,n\n");
            for (int row = 0; row < ROWS; row++) {
                char cell[COLS][48];
                snprintf(cell[0], sizeof cell[0], "%d", row * 7 - 900);
                snprintf(cell[1], sizeof cell[1], "%d.25", row);
                snprintf(cell[2], sizeof cell[2], "%s", row % 3 ? "true" : "false");
                snprintf(cell[3], sizeof cell[3], "2024-%02d-%02d", 1 + row % 12, 1 + row % 28);
                snprintf(cell[4], sizeof cell[4], "2024-03-%02dT%02d:%02d:07", 1 + row % 28, row % 24, row % 60);
                cell[5][0] = '\0';
                for (int c = 0; pass && c < COLS; c++)
                    for (int m = 0; m < 2; m++)
                        if (late[c][m] == row)
                            snprintf(cell[c], sizeof cell[c], misfits[c][form[c][m]], (unsigned)row % 90 + 10);
                len += (size_t)sprintf(csv + len, "%s,%s,%s,%s,%s,%s%s", cell[0], cell[1], cell[2], cell[3], cell[4],
                                       cell[5], row % 4 == 3 ? "\r\n" : "\n");
            }
            *(pass ? &len_with : &len_without) = len;
        }
        (void)len_with;
        (void)len_without;
        const opt_kv *opts = dialects[round % 2];
        dump clean = read_dump(without, opts, NULL, 1);
        dump one = read_dump(with, opts, NULL, 1);
        CHECK(strncmp(one.s, "status 0\n", 9) == 0);
        CHECK_EQ_U64(one.rows, ROWS);
        char clean_types[256], one_types[256];
        types_of(&clean, clean_types, sizeof clean_types);
        types_of(&one, one_types, sizeof one_types);
        if (strcmp(clean_types, "col i l;col f g;col b b;col d tdD;col t tsu:;col n n;") != 0)
            FAIL_MSG("late misfits, round %d: the types without them: %s", round, clean_types);
        widened_reads += strcmp(clean_types, one_types) != 0;
        for (int threads = 2; threads <= 8; threads++) {
            dump many = read_dump(with, opts, NULL, threads);
            if (!same(&one, &many))
                FAIL_MSG("late misfits, round %d: %d threads differ from one: %.200s VS %.200s", round, threads,
                         one.s, many.s);
            free(many.s);
        }
        cases++;
        free(clean.s);
        free(one.s);
        free(with);
        free(without);
    }
    /* the samples catch some misfits (their types are then inferred wider
     * at once); most rounds must widen during the read */
    if (widened_reads < cases / 2)
        FAIL_MSG("late misfits: only %d of %d reads widened a column", widened_reads, cases);
}

/* A quoted field that holds most of the input as lines that read like rows:
 * every cut lands inside it and starts plausible records, so only the proof
 * after the conversion (the record after a chunk's rows starts where the
 * next chunk's first record does) can reject the cuts.  Every read falls
 * back to one thread and equals it: one row holds the field. */
uint64_t simdsv__source_read_aheads(void);

/* A file read with read() is held whole by the typed reader: on several
 * threads its rest is read at once by parts (source.c, read ahead), which
 * must give what the one-thread read of the same bytes in memory gives, and
 * what the mapped file gives; one thread reads it as a stream. */
static void check_file_read_ahead(const opt_kv *opts, enum shape shape)
{
    uint64_t id_sum;
    int bad;
    char *csv = build(shape, 900, 7, &id_sum, &bad);
    char path[] = "/tmp/simdsv_read_ahead_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    CHECK(f && fwrite(csv, 1, strlen(csv), f) == strlen(csv) && fclose(f) == 0);
    dump one = read_dump(csv, opts, NULL, 1);
    CHECK_EQ_U64(one.rows, 900);
    for (int threads = 1; threads <= 5; threads++) {
        const uint64_t before = simdsv__source_read_aheads();
        dump streamed = read_dump_from(NULL, path, 0, opts, NULL, threads);
        CHECK_EQ_U64(simdsv__source_read_aheads() - before, threads > 1 ? 1 : 0);
        dump mapped = read_dump_from(NULL, path, 1, opts, NULL, threads);
        if (!same(&one, &streamed) || !same(&one, &mapped))
            FAIL_MSG("shape %d, %d threads: the file read (read() %d, mapped %d) differs from memory", (int)shape,
                     threads, same(&one, &streamed), same(&one, &mapped));
        free(streamed.s);
        free(mapped.s);
    }
    remove(path);
    free(one.s);
    free(csv);
}

/* ------------------------------------------------- a file streamed by read()
 *
 * A regular file read with read() on one thread is streamed through the
 * reader's buffer, not held (table.c): the types from windows sampled as the
 * whole input's are, a late misfit read again whole.  Every such read must
 * equal the mapped read of the same file — values, types and reasons,
 * rejects, the error with its position — for start windows from 1 byte up
 * (SIMDSV_TEST_STREAM_WINDOW; 4 KiB buffers), so that records, CRLF pairs and
 * quoted line ends straddle the windows and the buffer's refills.  Adds to
 * *streamed and *again how many of the reads streamed, and how many of
 * those read the file again whole. */
void simdsv__table_stream_stats(uint64_t *streamed, uint64_t *again);

static const size_t stream_windows[] = {1, 7, 64, 333, 4096, 0};

static void streamed_same(const char *name, const char *csv, const opt_kv *opts, const char *schema,
                          uint64_t *streamed, uint64_t *again)
{
    char path[] = "/tmp/simdsv_streamed_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    CHECK(f && fwrite(csv, 1, strlen(csv), f) == strlen(csv) && fclose(f) == 0);
    dump_reasons = 1;
    unsetenv("SIMDSV_TEST_STREAM_WINDOW");
    dump mapped = read_dump_from(NULL, path, 1, opts, schema, 1);
    uint64_t s0, a0, s1, a1;
    simdsv__table_stream_stats(&s0, &a0);
    for (size_t w = 0; w < sizeof stream_windows / sizeof stream_windows[0]; w++) {
        char window[32];
        snprintf(window, sizeof window, "%zu", stream_windows[w]);
        if (stream_windows[w])
            setenv("SIMDSV_TEST_STREAM_WINDOW", window, 1);
        else
            unsetenv("SIMDSV_TEST_STREAM_WINDOW");
        dump read = read_dump_from(NULL, path, 0, opts, schema, 1);
        if (!same(&mapped, &read))
            FAIL_MSG("%s, window %zu: the streamed file differs from the mapped one:\n%.600s\nVS\n%.600s", name,
                     stream_windows[w], mapped.s, read.s);
        free(read.s);
    }
    simdsv__table_stream_stats(&s1, &a1);
    unsetenv("SIMDSV_TEST_STREAM_WINDOW");
    dump_reasons = 0;
    *streamed += s1 - s0;
    *again += a1 - a0;
    free(mapped.s);
    remove(path);
}

/* Rows of every type with CRLF and LF mixed, quoted fields holding line ends
 * and CRLF pairs, escaped quotes, long text; late rows that misfit their
 * inferred types (read again), or with a stray quote (an error), or ragged. */
static char *stream_csv(uint32_t seed, int rows, int misfits, int stray, int ragged)
{
    char *csv = malloc((size_t)rows * 160 + 256);
    size_t len = (size_t)sprintf(csv, "id,x,flag,day,note,when\r\n");
    uint32_t rng = seed;
    for (int row = 0; row < rows; row++) {
        rng = rng * 1103515245u + 12345u;
        const unsigned pick = (rng >> 8) % 16;
        char x[48], note[96];
        snprintf(x, sizeof x, "%d.%u", row - 50, pick);
        if (pick == 0)
            snprintf(note, sizeof note, "\"two\r\nlines, \"\"q\"\" %d\"", row);
        else if (pick == 1)
            snprintf(note, sizeof note, "\"a quoted line end\nhere\"");
        else if (pick == 2)
            snprintf(note, sizeof note, "%s", "");
        else
            snprintf(note, sizeof note, "note %u of a longer text; r%d", pick, row);
        if (misfits && row > rows / 3 && pick == 5 && row % 7 == 0)
            snprintf(x, sizeof x, "%s", row % 2 ? "n/a" : "1e400x");
        const char *end = pick % 3 == 0 ? "\r\n" : "\n";
        if (stray && row == rows - 5)
            len += (size_t)sprintf(csv + len, "%d,%s,true,2024-01-02,bad \"quote,2024-01-02T03:04:05%s", row, x, end);
        else if (ragged && row == rows - 9)
            len += (size_t)sprintf(csv + len, "%d,%s,false%s", row, x, end);
        else
            len += (size_t)sprintf(csv + len, "%d,%s,%s,2024-%02d-%02d,%s,2024-03-%02dT%02d:%02d:07%s", row, x,
                                   pick % 2 ? "true" : "false", 1 + row % 12, 1 + row % 28, note, 1 + row % 28,
                                   row % 24, row % 60, end);
    }
    return csv;
}

static void check_streamed_files(void)
{
    const opt_kv few[] = {{SIMDSV_OPT_INFER_ROWS, 12}, {0, 0}};
    const opt_kv few_nulls[] = {{SIMDSV_OPT_INFER_ROWS, 12}, {SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL}, {0, 0}};
    const opt_kv few_lenient[] = {{SIMDSV_OPT_INFER_ROWS, 12}, {SIMDSV_OPT_LENIENT, 1}, {0, 0}};
    const opt_kv no_header[] = {{SIMDSV_OPT_INFER_ROWS, 12}, {SIMDSV_OPT_HEADER, 0}, {0, 0}};
    const opt_kv views[] = {{SIMDSV_OPT_INFER_ROWS, 12}, {SIMDSV_OPT_STRINGS, SIMDSV_STRINGS_VIEW}, {0, 0}};
    const opt_kv limited[] = {{SIMDSV_OPT_INFER_ROWS, 12}, {SIMDSV_OPT_ROW_LIMIT, 500}, {0, 0}};
    uint64_t streamed = 0, again = 0;
    for (uint32_t seed = 1; seed <= 3; seed++) {
        char *plain = stream_csv(seed, 1200, 0, 0, 0);
        char *late = stream_csv(seed, 1200, 1, 0, 0);
        char *stray = stream_csv(seed, 1200, 0, 1, 0);
        char *ragged = stream_csv(seed, 1200, 0, 0, 1);
        streamed_same("plain", plain, few, NULL, &streamed, &again);
        streamed_same("plain, no header", plain, no_header, NULL, &streamed, &again);
        streamed_same("plain, views", plain, views, NULL, &streamed, &again);
        streamed_same("plain, default sample", plain, NULL, NULL, &streamed, &again);
        streamed_same("late misfits", late, few, NULL, &streamed, &again);
        streamed_same("late misfits, views", late, views, NULL, &streamed, &again);
        streamed_same("late misfits, 500 rows", late, limited, NULL, &streamed, &again);
        streamed_same("late misfits, schema, nulls", late, few_nulls, "x:float64", &streamed, &again);
        streamed_same("late misfits, schema", late, few, "x:float64", &streamed, &again);
        streamed_same("stray quote", stray, few, NULL, &streamed, &again);
        streamed_same("stray quote, lenient", stray, few_lenient, NULL, &streamed, &again);
        streamed_same("ragged", ragged, few, NULL, &streamed, &again);
        free(plain);
        free(late);
        free(stray);
        free(ragged);
    }
    /* Every read of a test window streams but those that fail (a schema
     * misfit, a stray quote in strict mode: 2 of the 12 option sets) and
     * those that read again (the late misfits without a schema, 2 sets, 3
     * with the row limit where its rows hold a misfit); the default window
     * and sample hold these files whole. */
    CHECK_EQ_U64(streamed + again, 3 * 9 * 5);
    CHECK(again >= 3 * 2 * 5);
}

static void check_fake_rows(const opt_kv *opts)
{
    size_t cap = 64 << 10, len = 0;
    char *csv = malloc(cap);
    len += (size_t)sprintf(csv + len, "id,x,name,day,flag\n0,1.5,\"start\n");
    for (int i = 1; len < cap - 200; i++)
        len += (size_t)sprintf(csv + len, "%d,2.5,fake,2024-01-02,true\n", i);
    len += (size_t)sprintf(csv + len, "end\",2024-01-01,false\n7,3.5,last,2024-01-03,\n");
    dump one = read_dump(csv, opts, NULL, 1);
    CHECK(strncmp(one.s, "status 0\n", 9) == 0);
    CHECK_EQ_U64(one.rows, 2);
    CHECK_EQ_U64(one.id_sum, 7);
    CHECK_EQ_U64(threaded_reads_same(csv, opts, &one, 5, "fake rows"), 0);
    free(one.s);
    free(csv);
}

/* Every file under the directories given, with the dialects cut at line
 * ends and RFC 4180: 3 threads give what one gives. */
static const opt_kv sweep_sets[][4] = {
    {{SIMDSV_OPT_LENIENT, 1}, {0, 0}},
    {{SIMDSV_OPT_ESCAPE, '\\'}, {0, 0}},
    {{SIMDSV_OPT_LENIENT, 1}, {SIMDSV_OPT_COMMENT, '#'}, {SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL}, {0, 0}},
    {{0, 0}},
};
static uint64_t swept_files;

static uint64_t swept_streamed, swept_again;

static void sweep_file(const char *name, const unsigned char *data, size_t size)
{
    if (memchr(data, '\0', size))
        return; /* read_dump takes text */
    char *csv = malloc(size + 1);
    memcpy(csv, data, size);
    csv[size] = '\0';
    swept_files++;
    const opt_kv few[] = {{SIMDSV_OPT_INFER_ROWS, 2}, {0, 0}};
    const opt_kv few_lenient[] = {{SIMDSV_OPT_INFER_ROWS, 2}, {SIMDSV_OPT_LENIENT, 1}, {0, 0}};
    streamed_same(name, csv, few, NULL, &swept_streamed, &swept_again);
    streamed_same(name, csv, few_lenient, NULL, &swept_streamed, &swept_again);
    for (size_t set = 0; set < sizeof sweep_sets / sizeof sweep_sets[0]; set++) {
        dump one = read_dump(csv, sweep_sets[set], NULL, 1);
        dump many = read_dump(csv, sweep_sets[set], NULL, 3);
        if (!same(&one, &many))
            FAIL_MSG("%s, option set %zu: 3 threads differ from one", name, set);
        free(many.s);
        free(one.s);
    }
    free(csv);
}

/* A byte order mark is the input's own only at its start: rows that begin
 * with U+FEFF keep it as data wherever a threaded read cuts the input. */
static void check_bom_rows(const opt_kv *opts)
{
    char *csv = malloc(3000 * 24 + 64);
    size_t len = (size_t)sprintf(csv, "\xEF\xBB\xBFname,n\n");
    for (int row = 0; row < 3000; row++)
        len += (size_t)sprintf(csv + len, "\xEF\xBB\xBFx%d,%d\n", row, row);
    dump one = read_dump(csv, opts, NULL, 1);
    CHECK(strstr(one.s, "col name u nulls 0\n'\xEF\xBB\xBFx0'\n'\xEF\xBB\xBFx1'\n") != NULL);
    CHECK(strstr(one.s, "'\xEF\xBB\xBFx2999'\ncol n l nulls 0\n") != NULL);
    CHECK_EQ_U64(threaded_reads_same(csv, opts, &one, 4, "rows that begin with a BOM"), 3);
    free(one.s);
    free(csv);
}

int main(int argc, char **argv)
{
    harness_kernel();
    setenv("SIMDSV_TEST_COUNT_CHUNK", "64", 1);
    const opt_kv escaped[] = {{SIMDSV_OPT_ESCAPE, '\\'}, {0, 0}};
    const opt_kv commented[] = {{SIMDSV_OPT_COMMENT, '#'}, {0, 0}};
    const opt_kv lenient[] = {{SIMDSV_OPT_LENIENT, 1}, {SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL}, {0, 0}};
    const opt_kv lenient_escaped[] = {{SIMDSV_OPT_LENIENT, 1}, {SIMDSV_OPT_ESCAPE, '\\'}, {0, 0}};
    check_shape(PLAIN, NULL, NULL, 600);
    check_shape(ESCAPED, escaped, NULL, 600);
    check_shape(COMMENTED, commented, NULL, 600);
    check_shape(LENIENT, lenient, "id:int64", 600);
    check_shape(ESCAPED, lenient_escaped, NULL, 600);
    const opt_kv trimmed[] = {{SIMDSV_OPT_TRIM_SPACES, 1}, {0, 0}};
    check_shape(TRIMMED, trimmed, NULL, 600);
    delimiter_string = "||";
    check_shape(PIPES, NULL, NULL, 600);
    delimiter_string = NULL;
    check_errors();
    check_overlapped();
    check_late_misfits();
    check_streamed_files();
    check_fake_rows(lenient_escaped);
    check_fake_rows(escaped);
    check_fake_rows(commented);
    check_bom_rows(NULL);
    check_bom_rows(commented);
    setenv("SIMDSV_TEST_COUNT_CHUNK", "4096", 1); /* read-ahead parts of 4 KiB: 2 to 5 of them */
    check_file_read_ahead(NULL, PLAIN);
    check_file_read_ahead(commented, COMMENTED);
    setenv("SIMDSV_TEST_COUNT_CHUNK", "64", 1);
    setenv("SIMDSV_TEST_COUNT_CHUNK", "16", 1); /* the corpus's files are small */
    uint64_t reads0, cuts0, reads1, cuts1;
    simdsv__table_parallel_stats(&reads0, &cuts0);
    for (int i = 1; i < argc; i++)
        h_for_each_csv(argv[i], sweep_file);
    simdsv__table_parallel_stats(&reads1, &cuts1);
    /* many files are a few lines or broken (one thread reads those): a
     * share of the reads must still be threaded (the corpus alone: 41 of
     * 314 files, the datasets with it: 418 of 948) */
    /* and the files of more than a few rows are streamed (2 sampled rows;
     * the corpus alone: 104 reads of 314 files) */
    if (argc > 1 && swept_streamed < swept_files / 4)
        FAIL_MSG("%llu files, %llu streamed reads", (unsigned long long)swept_files,
                 (unsigned long long)swept_streamed);
    if (argc > 1 && !(swept_files > 100 && cuts1 - cuts0 > swept_files / 16))
        FAIL_MSG("%llu files, %llu threaded reads cut at lines", (unsigned long long)swept_files,
                 (unsigned long long)(cuts1 - cuts0));
    return check_summary();
}
