/*
 * test_views.c — string columns read as Arrow string views
 * (SIMDSV_STRINGS_VIEW): exact views of inline, long, escaped, UTF-8,
 * empty and null strings from a file read with read(), a mapped file, a
 * caller's buffer and a stream; long plain strings point into the input,
 * decoded ones into the column's side blocks; the input outlives the reader
 * and the table (the arrays keep it: ASan sees a use after free
 * otherwise); and every read, on one and several threads, equals the utf8
 * read value for value; long strings with runs of doubled quotes are
 * decoded exactly; the writers (Parquet, Arrow IPC) give the same bytes for
 * views as for utf8.  Runs once per kernel (SIMDSV_KERNEL).
 */
#define _POSIX_C_SOURCE 200809L /* getpid, setenv */
#include "simdsv.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The library's counter of typed reads done on several threads (static
 * library only): the threaded reads here must have been threaded. */
void simdsv__table_parallel_stats(uint64_t *reads, uint64_t *line_cuts);

typedef enum source_way { FROM_FILE, FROM_MAP, FROM_MEMORY, FROM_STREAM } source_way;

static const char *temp_path(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/simdsv_test_views_%d.csv", (int)getpid());
    return path;
}

static void write_file(const char *path, const char *csv, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(csv, 1, len, f) != len) {
        FAIL_MSG("cannot write %s", path);
        exit(1);
    }
    fclose(f);
}

/* Lenient reads (set by the test): the same values in another dialect. */
static int lenient;

/* A reader on csv with the given strings layout and threads (memory: the
 * caller's buffer; file and map: written to a file first). */
static simdsv_reader *open_reader(const char *csv, size_t len, source_way way, simdsv_strings strings, int threads)
{
    simdsv_options *o = simdsv_options_new(NULL);
    simdsv_options_set(o, SIMDSV_OPT_LENIENT, lenient);
    simdsv_options_set(o, SIMDSV_OPT_STRINGS, strings);
    simdsv_options_set(o, SIMDSV_OPT_THREADS, threads);
    simdsv_options_set(o, SIMDSV_OPT_MMAP, way == FROM_MAP);
    simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "*:string");
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, o);
    simdsv_options_free(o);
    if (st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    if (st == SIMDSV_OK && way == FROM_MEMORY)
        st = simdsv_reader_open_memory(r, csv, len);
    else if (st == SIMDSV_OK) {
        write_file(temp_path(), csv, len);
        st = simdsv_reader_open_path(r, temp_path());
    }
    CHECK_STATUS(st, SIMDSV_OK);
    return r;
}

/* The table of csv as one Arrow struct array (a stream's batches must all
 * come as one here: the tests' streams have one batch). */
static int read_arrow(const char *csv, size_t len, source_way way, simdsv_strings strings, int threads,
                      struct ArrowSchema *schema, struct ArrowArray *array)
{
    simdsv_reader *r = open_reader(csv, len, way, strings, threads);
    if (way == FROM_STREAM) {
        struct ArrowArrayStream stream;
        if (simdsv_table_stream(r, &stream) != SIMDSV_OK) {
            simdsv_reader_free(r);
            return 0;
        }
        int ok = stream.get_schema(&stream, schema) == 0 && stream.get_next(&stream, array) == 0 && array->release;
        struct ArrowArray end;
        ok = ok && stream.get_next(&stream, &end) == 0 && !end.release; /* one batch */
        stream.release(&stream); /* the reader with it */
        return ok;
    }
    simdsv_table *t = NULL;
    const simdsv_status st = simdsv_table_read(r, &t);
    CHECK_STATUS(st, SIMDSV_OK);
    const int ok = t && simdsv_table_move_to_arrow(t, schema, array) == SIMDSV_OK;
    /* The arrays must not need either of them any more. */
    simdsv_table_free(t);
    simdsv_reader_free(r);
    return ok;
}

/* Row i of a string child: utf8 ("u") or views ("vu"); NULL for a null. */
static const char *string_at(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t i, size_t *n)
{
    const uint8_t *valid = a->buffers[0];
    if (a->null_count && valid && !((valid[i / 8] >> (i % 8)) & 1))
        return NULL;
    if (strcmp(s->format, "vu") == 0) {
        const int32_t *view = (const int32_t *)a->buffers[1] + 4 * i;
        *n = (size_t)view[0];
        if (view[0] <= 12)
            return (const char *)(view + 1);
        return (const char *)a->buffers[2 + view[2]] + view[3];
    }
    const int32_t *offsets = a->buffers[1];
    *n = (size_t)(offsets[i + 1] - offsets[i]);
    return (const char *)a->buffers[2] + offsets[i];
}

/* A view array as the C data interface lays it out: n_buffers is the
 * variadic buffers plus three, the last buffer their sizes, every long
 * view within its buffer, every inline view zero past its bytes, and the
 * prefix the string's first four bytes. */
static int views_well_formed(const struct ArrowArray *a)
{
    if (a->n_buffers < 3)
        return 0;
    const int64_t variadic = a->n_buffers - 3;
    const int64_t *sizes = a->buffers[a->n_buffers - 1];
    const unsigned char *views = a->buffers[1];
    for (int64_t i = 0; i < a->length; i++) {
        const unsigned char *v = views + 16 * i;
        int32_t length, index, offset;
        memcpy(&length, v, 4);
        if (length < 0)
            return 0;
        if (length <= 12) {
            for (int k = 4 + length; k < 16; k++)
                if (v[k])
                    return 0;
            continue;
        }
        memcpy(&index, v + 8, 4);
        memcpy(&offset, v + 12, 4);
        if (index < 0 || index >= variadic || offset < 0 || (int64_t)offset + length > sizes[index] ||
            memcmp(v + 4, (const char *)a->buffers[2 + index] + offset, 4) != 0)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ exact values */

static const char exact_csv[] = "short,long,note\n"
                                "abc,\"a long plain string of 40 bytes......\",x\n"
                                ",\"\",\"he said \"\"hello there, friend\"\"\"\n"
                                "\"twelve bytes\",\"thirteen byte\",\"caf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9\x65\"\n"
                                "\"q\"\"\",unquoted long text here,\"\"\n";

typedef struct expected_cell {
    const char *text; /* NULL: a null */
    int in_input;     /* a long string that needs no decoding: points into the input (when shared) */
} expected_cell;

static const expected_cell exact_values[4][3] = {
    {{"abc", 0}, {"a long plain string of 40 bytes......", 1}, {"x", 0}},
    {{NULL, 0}, {"", 0}, {"he said \"hello there, friend\"", 0}},
    {{"twelve bytes", 0}, {"thirteen byte", 1}, {"caf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9\x65", 1}},
    {{"q\"", 0}, {"unquoted long text here", 1}, {"", 0}},
};

static void test_exact(source_way way, int threads)
{
    static const char *const way_names[] = {"file", "map", "memory", "stream"};
    h_context("exact values, %s, %d thread(s)", way_names[way], threads);
    struct ArrowSchema schema;
    struct ArrowArray array;
    if (!CHECK(read_arrow(exact_csv, strlen(exact_csv), way, SIMDSV_STRINGS_VIEW, threads, &schema, &array)))
        return;
    CHECK_EQ_INT(array.length, 4);
    CHECK_EQ_INT(schema.n_children, 3);
    const int shared = way == FROM_FILE || way == FROM_MAP; /* held by the reader, handed to the arrays */
    for (int64_t j = 0; j < schema.n_children && j < 3; j++) {
        const struct ArrowSchema *cs = schema.children[j];
        const struct ArrowArray *ca = array.children[j];
        CHECK_STR(cs->format, "vu");
        CHECK(views_well_formed(ca));
        CHECK_EQ_INT(ca->null_count, j == 0 ? 1 : 0);
        for (int64_t i = 0; i < 4 && i < ca->length; i++) {
            const expected_cell *want = &exact_values[i][j];
            size_t n = 0;
            const char *got = string_at(cs, ca, i, &n);
            if (!want->text) {
                CHECK_MSG(!got, "row %lld column %lld is a null", (long long)i, (long long)j);
                continue;
            }
            if (!CHECK_MSG(got != NULL, "row %lld column %lld is not a null", (long long)i, (long long)j))
                continue;
            CHECK_MEM(got, n, want->text, strlen(want->text));
            if (n <= 12)
                continue;
            /* a shared input is the first variadic buffer (one window: the
             * bytes after the header), the side block the second */
            int32_t index;
            memcpy(&index, (const unsigned char *)ca->buffers[1] + 16 * i + 8, 4);
            const int into_input = shared && index == 0;
            CHECK_MSG(into_input == (shared && want->in_input), "row %lld column %lld: into the input %d",
                      (long long)i, (long long)j, into_input);
        }
    }
    /* the column of short strings only (and a null) has no variadic buffer */
    CHECK_EQ_INT(array.children[0]->n_buffers, 3);
    array.release(&array);
    schema.release(&schema);
    h_context(NULL);
}

/* simdsv_column_view reads views too (simdsv_view_string). */
static void test_column_view(void)
{
    h_context("column view");
    const size_t len = strlen(exact_csv);
    simdsv_reader *r = open_reader(exact_csv, len, FROM_FILE, SIMDSV_STRINGS_VIEW, 1);
    simdsv_table *t = NULL;
    CHECK_STATUS(simdsv_table_read(r, &t), SIMDSV_OK);
    simdsv_reader_free(r); /* the table keeps the input */
    for (size_t j = 0; t && j < 3; j++) {
        simdsv_column_view v;
        CHECK_STATUS(simdsv_table_column_view(t, j, &v), SIMDSV_OK);
        CHECK(v.views != NULL && v.offsets == NULL);
        for (uint64_t i = 0; i < v.length; i++) {
            const expected_cell *want = &exact_values[i][j];
            if (!want->text) {
                CHECK(!simdsv_view_valid(&v, i));
                continue;
            }
            size_t n;
            const char *got = simdsv_view_string(&v, i, &n);
            CHECK(simdsv_view_valid(&v, i));
            CHECK_MEM(got, n, want->text, strlen(want->text));
        }
    }
    simdsv_table_free(t);
    h_context(NULL);
}

/* ------------------------------------------------------- views against utf8 */

/* A generated input of string columns: empty, null, short, 12 and 13
 * bytes, long, UTF-8, quoted with doubled quotes (short and long), quoted
 * line ends; rows sized to span many scan windows and chunks. */
static char *mixed_csv(size_t target, uint32_t seed, size_t *len_out)
{
    char *csv = malloc(target + 4096);
    size_t len = (size_t)sprintf(csv, "a,b,c\n");
    uint32_t rng = seed;
    while (len < target) {
        for (int j = 0; j < 3; j++) {
            rng = rng * 1103515245u + 12345u;
            const unsigned kind = (rng >> 16) % 11, k = (rng >> 8) % 50;
            switch (kind) {
            case 0: break; /* null */
            case 1: len += (size_t)sprintf(csv + len, "\"\""); break;
            case 2: len += (size_t)sprintf(csv + len, "s%u", k); break;
            case 3: len += (size_t)sprintf(csv + len, "twelve-%05u", k); break;
            case 4: len += (size_t)sprintf(csv + len, "thirteen-%04u", k); break;
            case 5: len += (size_t)sprintf(csv + len, "a longer plain text number %u unquoted", k); break;
            case 6: len += (size_t)sprintf(csv + len, "\"quoted, with a comma and %u more\"", k); break;
            case 7: len += (size_t)sprintf(csv + len, "\"say \"\"%u\"\"\"", k); break;
            case 8: len += (size_t)sprintf(csv + len, "\"a long one with \"\"quotes\"\" inside %u\"", k); break;
            case 9: len += (size_t)sprintf(csv + len, "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E %u \xC3\xA9t\xC3\xA9", k); break;
            default: len += (size_t)sprintf(csv + len, "\"two\nlines %u long enough\"", k); break;
            }
            csv[len++] = j == 2 ? '\n' : ',';
        }
    }
    csv[len] = '\0';
    *len_out = len;
    return csv;
}

/* Every value of two arrays of the same table, one of them views. */
static void same_values(const struct ArrowSchema *sa, const struct ArrowArray *a, const struct ArrowSchema *sb,
                        const struct ArrowArray *b)
{
    if (!CHECK_EQ_INT(a->length, b->length) || !CHECK_EQ_INT(sa->n_children, sb->n_children))
        return;
    for (int64_t j = 0; j < sa->n_children; j++) {
        const struct ArrowArray *ca = a->children[j], *cb = b->children[j];
        CHECK_EQ_INT(ca->null_count, cb->null_count);
        if (strcmp(sb->children[j]->format, "vu") == 0)
            CHECK(views_well_formed(cb));
        int64_t differ = 0;
        for (int64_t i = 0; i < a->length; i++) {
            size_t na = 0, nb = 0;
            const char *x = string_at(sa->children[j], ca, i, &na);
            const char *y = string_at(sb->children[j], cb, i, &nb);
            differ += (!x != !y) || (x && (na != nb || memcmp(x, y, na) != 0));
        }
        CHECK_MSG(differ == 0, "column %lld: %lld rows differ", (long long)j, (long long)differ);
    }
}

static void test_against_utf8(size_t target, uint32_t seed)
{
    size_t len;
    char *csv = mixed_csv(target, seed, &len);
    struct ArrowSchema s1, s2;
    struct ArrowArray a1, a2;
    h_context("utf8 read of %zu bytes", len);
    if (!CHECK(read_arrow(csv, len, FROM_MEMORY, SIMDSV_STRINGS_UTF8, 1, &s1, &a1))) {
        free(csv);
        return;
    }
    CHECK_STR(s1.children[0]->format, "u");
    static const source_way ways[] = {FROM_FILE, FROM_MAP, FROM_MEMORY};
    for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
        for (int threads = 1; threads <= 4; threads += 3) {
            h_context("views of %zu bytes, way %d, %d thread(s)", len, (int)ways[w], threads);
            uint64_t before, after, cuts;
            simdsv__table_parallel_stats(&before, &cuts);
            const int ok = read_arrow(csv, len, ways[w], SIMDSV_STRINGS_VIEW, threads, &s2, &a2);
            simdsv__table_parallel_stats(&after, &cuts);
            if (threads > 1 && len > ((size_t)1 << 20))
                CHECK_EQ_U64(after - before, 1); /* chunks merged: their side blocks renumbered */
            if (!CHECK(ok))
                continue;
            CHECK_STR(s2.children[0]->format, "vu");
            same_values(&s1, &a1, &s2, &a2);
            a2.release(&a2);
            s2.release(&s2);
        }
    a1.release(&a1);
    s1.release(&s1);
    h_context(NULL);
    free(csv);
}

/* ------------------------------------------- long strings with doubled quotes */

/* Row r's value: `r % 150` bytes of text, then a run of r / 150 % 5 + 1
 * quotes, then more text, so that runs of quotes (written doubled) fall
 * at every place of the kernels' 16-, 32- and 64-byte steps and across
 * them; every ninth row has a doubled quote every 7 bytes, and with it
 * one at its very end. */
static size_t quoted_value(size_t r, char *out)
{
    size_t n = 0;
    if (r % 9 == 8) {
        for (size_t i = 0; i < 40 + r % 90; i++)
            out[n++] = i % 7 == 6 ? '"' : (char)('a' + (r + i) % 26);
        out[n++] = '"';
        return n;
    }
    for (size_t i = 0; i < r % 150; i++)
        out[n++] = (char)('A' + (r + i) % 26);
    for (size_t i = 0; i < r / 150 % 5 + 1; i++)
        out[n++] = '"';
    for (size_t i = 0; i < 20 + r % 61; i++)
        out[n++] = i % 10 == 9 ? ',' : (char)('0' + i % 10);
    return n;
}

static char *quoted_csv(size_t rows, size_t *len_out)
{
    char *csv = malloc(rows * 2 * 300 + 16);
    size_t len = (size_t)sprintf(csv, "text\n");
    char value[300];
    for (size_t r = 0; r < rows; r++) {
        const size_t n = quoted_value(r, value);
        csv[len++] = '"';
        for (size_t i = 0; i < n; i++) {
            csv[len++] = value[i];
            if (value[i] == '"')
                csv[len++] = '"';
        }
        csv[len++] = '"';
        csv[len++] = '\n';
    }
    *len_out = len;
    return csv;
}

/* Each row's text, decoded by the typed read as utf8 and as views (a file
 * read, mapped, a buffer; one thread and four), equals the text the file
 * was written from. */
static void test_quoted_long(void)
{
    const size_t rows = 30000;
    size_t len;
    char *csv = quoted_csv(rows, &len);
    static const source_way ways[] = {FROM_FILE, FROM_MAP, FROM_MEMORY}; /* (a stream: several batches) */
    for (int strings = 0; strings < 2; strings++)
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
            for (int threads = 1; threads <= 4; threads += 3) {
                h_context("doubled quotes, %s, way %d, %d thread(s)", strings ? "views" : "utf8", (int)ways[w], threads);
                struct ArrowSchema s;
                struct ArrowArray a;
                if (!CHECK(read_arrow(csv, len, ways[w], strings ? SIMDSV_STRINGS_VIEW : SIMDSV_STRINGS_UTF8, threads,
                                      &s, &a)))
                    continue;
                if (CHECK_EQ_INT(a.length, (int64_t)rows)) {
                    int64_t differ = 0, first = -1;
                    char want[300];
                    for (size_t r = 0; r < rows; r++) {
                        size_t n = 0;
                        const size_t want_n = quoted_value(r, want);
                        const char *got = string_at(s.children[0], a.children[0], (int64_t)r, &n);
                        const int bad = !got || n != want_n || memcmp(got, want, n) != 0;
                        differ += bad;
                        if (bad && first < 0)
                            first = (int64_t)r;
                    }
                    CHECK_MSG(differ == 0, "%lld rows differ, the first %lld", (long long)differ, (long long)first);
                }
                a.release(&a);
                s.release(&s);
            }
    h_context(NULL);
    free(csv);
}

/* ------------------------------------------------------------------ writers */

/* A stream of one batch (the array moved in), for the writers. */
typedef struct one_batch {
    struct ArrowSchema *schema;
    struct ArrowArray *array;
    int given;
} one_batch;

static int one_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    const one_batch *b = s->private_data;
    /* a shallow copy whose release does nothing: the test releases the original */
    *out = *b->schema;
    out->release = NULL;
    return 0;
}

static int one_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    one_batch *b = s->private_data;
    if (b->given++) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    *out = *b->array;
    b->array->release = NULL; /* moved */
    return 0;
}

static const char *one_error(struct ArrowArrayStream *s)
{
    (void)s;
    return NULL;
}

static void one_release(struct ArrowArrayStream *s)
{
    s->release = NULL; /* the batch is the test's */
}

typedef struct bytes_out {
    unsigned char *data;
    size_t len;
} bytes_out;

static long long collect(void *ctx, const void *buf, size_t size, int *os_errno)
{
    (void)os_errno;
    bytes_out *o = ctx;
    unsigned char *p = realloc(o->data, o->len + size);
    if (!p)
        return -1;
    memcpy(p + o->len, buf, size);
    o->data = p;
    o->len += size;
    return (long long)size;
}

/* The file the writer makes of csv read with the given strings layout. */
static bytes_out written(const char *csv, size_t len, simdsv_strings strings, simdsv_format format)
{
    bytes_out out = {NULL, 0};
    struct ArrowSchema schema;
    struct ArrowArray array;
    if (!CHECK(read_arrow(csv, len, FROM_FILE, strings, 1, &schema, &array)))
        return out;
    one_batch b = {&schema, &array, 0};
    struct ArrowArrayStream stream = {one_schema, one_next, one_error, one_release, &b};
    simdsv_write_options opt;
    simdsv_write_options_init(&opt);
    opt.format = format;
    opt.threads = 1;
    simdsv_error err;
    if (CHECK_STATUS(simdsv_write_callback(&stream, collect, &out, &opt, &err), SIMDSV_OK) == 0)
        FAIL_MSG("%s", err.message);
    if (array.release)
        array.release(&array);
    schema.release(&schema);
    return out;
}

static void test_writers(void)
{
    size_t len;
    char *csv = mixed_csv(200000, 3, &len);
    static const simdsv_format formats[] = {SIMDSV_FORMAT_PARQUET, SIMDSV_FORMAT_ARROW_FILE,
                                            SIMDSV_FORMAT_ARROW_STREAM};
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        h_context("writer format %d", (int)formats[f]);
        bytes_out utf8 = written(csv, len, SIMDSV_STRINGS_UTF8, formats[f]);
        bytes_out views = written(csv, len, SIMDSV_STRINGS_VIEW, formats[f]);
        CHECK(utf8.len > 1000);
        CHECK_MEM(views.data, views.len, utf8.data, utf8.len);
        free(utf8.data);
        free(views.data);
    }
    h_context(NULL);
    free(csv);
}

static void test_option(void)
{
    simdsv_options *o = simdsv_options_new(NULL);
    int64_t v = -1;
    CHECK_STATUS(simdsv_options_get(o, SIMDSV_OPT_STRINGS, &v), SIMDSV_OK);
    CHECK_EQ_INT(v, SIMDSV_STRINGS_UTF8);
    CHECK_STATUS(simdsv_options_set(o, SIMDSV_OPT_STRINGS, 2), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_options_set(o, SIMDSV_OPT_STRINGS, SIMDSV_STRINGS_VIEW), SIMDSV_OK);
    CHECK_STATUS(simdsv_options_get(o, SIMDSV_OPT_STRINGS, &v), SIMDSV_OK);
    CHECK_EQ_INT(v, SIMDSV_STRINGS_VIEW);
    simdsv_options_free(o);
}

int main(void)
{
    /* small chunks, so that a few MiB are cut for several threads */
    setenv("SIMDSV_TEST_COUNT_CHUNK", "65536", 1);
    test_option();
    static const source_way ways[] = {FROM_FILE, FROM_MAP, FROM_MEMORY, FROM_STREAM};
    for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
        test_exact(ways[w], 1);
    test_column_view();
    test_against_utf8(3000, 1);
    test_against_utf8((size_t)3 << 20, 2);
    lenient = 1;
    test_against_utf8((size_t)3 << 20, 4);
    lenient = 0;
    test_quoted_long();
    test_writers();
    unlink(temp_path());
    return check_summary();
}
