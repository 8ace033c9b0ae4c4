/*
 * test_dataset.c — simdsv_dataset: many inputs read as one table.  Files,
 * globs, folders, buffers and callbacks; columns matched by position and by
 * name, types joined as a late value widens them inside one input (the
 * text read again, never a value cast); hive folders and the file name
 * column; empty and header-only inputs; errors that name the input with
 * its line and byte; the same table at 1, 2 and 4 threads as the inputs
 * read one by one; the stream equal to the read.  The test links zlib
 * (when found) to make gzip data; the library only loads it.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "simdsv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef TEST_HAVE_ZLIB
#include <zlib.h>
#endif

/* ------------------------------------------------------------- helpers */

static char root[200];

static void path_of(char *out, size_t cap, const char *rel)
{
    snprintf(out, cap, "%s/%s", root, rel);
}

/* Writes rel (folders made as needed) under the test's folder. */
static void put_file(const char *rel, const void *data, size_t size)
{
    char path[1024];
    path_of(path, sizeof path, rel);
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size) {
        FAIL_MSG("cannot write %s", path);
        if (f)
            fclose(f);
        return;
    }
    fclose(f);
}

static void put_text(const char *rel, const char *text)
{
    put_file(rel, text, strlen(text));
}

static void remove_tree(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0)
        FAIL_MSG("cannot remove %s", path);
}

/* A growable text. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s)
            abort();
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void putf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(text *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf)
        FAIL_MSG("%s", "putf: a text longer than its buffer");
    put(t, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* The table as text: "name:type|..." then one line per row, "-" for a null,
 * floats with every digit. */
static void render_rows(text *t, const simdsv_table *table, int with_schema)
{
    const size_t ncols = simdsv_table_columns(table);
    for (size_t j = 0; with_schema && j < ncols; j++) {
        simdsv_column_info info;
        simdsv_table_column(table, j, &info);
        putf(t, "%s%s:%s", j ? "|" : "", info.name, simdsv_type_name(info.type));
    }
    if (with_schema)
        put(t, "\n", 1);
    for (uint64_t i = 0; i < simdsv_table_rows(table); i++) {
        for (size_t j = 0; j < ncols; j++) {
            simdsv_column_view v;
            simdsv_table_column_view(table, j, &v);
            if (j)
                put(t, "|", 1);
            if (!simdsv_view_valid(&v, i)) {
                put(t, "-", 1);
                continue;
            }
            size_t n;
            const char *s;
            switch (v.type) {
            case SIMDSV_TYPE_BOOL: putf(t, "%s", simdsv_view_bool(&v, i) ? "true" : "false"); break;
            case SIMDSV_TYPE_INT64:
            case SIMDSV_TYPE_TIMESTAMP: putf(t, "%lld", (long long)simdsv_view_int64(&v, i)); break;
            case SIMDSV_TYPE_FLOAT64: putf(t, "%.17g", simdsv_view_float64(&v, i)); break;
            case SIMDSV_TYPE_DATE: putf(t, "d%d", (int)simdsv_view_date(&v, i)); break;
            case SIMDSV_TYPE_STRING:
                s = simdsv_view_string(&v, i, &n);
                put(t, "'", 1);
                put(t, s, n);
                put(t, "'", 1);
                break;
            default: put(t, "?", 1); break;
            }
        }
        put(t, "\n", 1);
    }
}

static char *render(const simdsv_table *table)
{
    text t = {NULL, 0, 0};
    put(&t, "", 0);
    render_rows(&t, table, 1);
    return t.s;
}

/* The dataset read in chunks (simdsv_dataset_read_chunks), rendered as
 * render() renders one table: the schema once (every chunk's the same),
 * then each chunk's rows; NULL when the read fails.  *count: the chunks,
 * *rows_in: how many of them have rows. */
/* A dataset of in-memory inputs, added in order. */
static simdsv_dataset *memory_dataset(simdsv_options *opt, const char *const *names, const char *const *data, size_t n)
{
    simdsv_dataset *ds = NULL;
    CHECK_STATUS(simdsv_dataset_new(&ds, opt, NULL), SIMDSV_OK);
    for (size_t i = 0; i < n; i++)
        CHECK_STATUS(simdsv_dataset_add_memory(ds, names[i], data[i], strlen(data[i])), SIMDSV_OK);
    return ds;
}

static char *chunks_text(simdsv_dataset *ds, size_t *count, size_t *rows_in)
{
    *rows_in = 0;
    if (simdsv_dataset_read_chunks(ds, count) != SIMDSV_OK)
        return NULL;
    text t = {NULL, 0, 0};
    put(&t, "", 0);
    char *first = NULL;
    for (size_t k = 0; k < *count; k++) {
        simdsv_table *c = simdsv_dataset_take_chunk(ds, k);
        CHECK(c != NULL);
        if (!c)
            continue;
        CHECK(simdsv_dataset_take_chunk(ds, k) == NULL); /* taken once */
        *rows_in += simdsv_table_rows(c) > 0;
        text schema = {NULL, 0, 0};
        put(&schema, "", 0);
        render_rows(&schema, c, 1);
        *strchr(schema.s, '\n') = '\0';
        if (!first)
            putf(&t, "%s\n", schema.s);
        else
            CHECK_STR(schema.s, first);
        free(first);
        first = schema.s;
        render_rows(&t, c, 0);
        simdsv_table_free(c);
    }
    free(first);
    CHECK(simdsv_dataset_take_chunk(ds, *count) == NULL);
    return t.s;
}

/* The chunked read of ds equals its read, rendered as `read` (NULL: the
 * read failed with the error the dataset holds, which the chunked read
 * gives too); one chunk per input with rows, or one without rows. */
static void check_chunks(simdsv_dataset *ds, const char *read)
{
    const simdsv_error want = *simdsv_dataset_error(ds);
    const long want_file = simdsv_dataset_error_file(ds);
    size_t count = 0, rows_in = 0;
    char *got = chunks_text(ds, &count, &rows_in);
    if (!read) {
        CHECK(got == NULL);
        CHECK_STATUS(simdsv_dataset_error(ds)->code, want.code);
        CHECK_EQ_INT(simdsv_dataset_error_file(ds), want_file);
        CHECK_STR(simdsv_dataset_error(ds)->message, want.message);
        CHECK_EQ_U64(count, 0);
    } else {
        CHECK_STR(got ? got : "(the chunked read failed)", read);
        CHECK(count == rows_in || (count == 1 && rows_in == 0));
    }
    free(got);
}

static simdsv_options *options(int union_by_name, int threads)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_UNION_BY_NAME, union_by_name);
    simdsv_options_set(opt, SIMDSV_OPT_THREADS, threads);
    return opt;
}

/* Reads the named buffers as one dataset; returns the table as text, or
 * "error N (file F): MESSAGE" when it fails. */
static const simdsv_sniff_params *detect_params; /* NULL: everything detected */

static char *read_buffers(const simdsv_options *opt, const char *const *names, const char *const *data, size_t n)
{
    simdsv_dataset *ds = NULL;
    simdsv_table *t = NULL;
    CHECK_STATUS(simdsv_dataset_new(&ds, opt, detect_params), SIMDSV_OK);
    for (size_t i = 0; i < n; i++)
        CHECK_STATUS(simdsv_dataset_add_memory(ds, names[i], data[i], strlen(data[i])), SIMDSV_OK);
    char *out;
    const int ok = simdsv_dataset_read(ds, &t) == SIMDSV_OK;
    char *table = ok ? render(t) : NULL;
    check_chunks(ds, table);
    if (ok) {
        out = table;
    } else {
        const simdsv_error *e = simdsv_dataset_error(ds);
        text m = {NULL, 0, 0};
        putf(&m, "error %s (file %ld, line %llu, byte %llu): ", simdsv_status_name(e->code),
             simdsv_dataset_error_file(ds), (unsigned long long)e->line, (unsigned long long)e->byte_offset);
        put(&m, e->message, strlen(e->message));
        out = m.s;
    }
    simdsv_table_free(t);
    simdsv_dataset_free(ds);
    return out;
}

static void expect_buffers(const simdsv_options *opt, const char *const *names, const char *const *data, size_t n,
                           const char *expected)
{
    char *got = read_buffers(opt, names, data, n);
    CHECK_STR(got, expected);
    free(got);
}

/* ------------------------------------------------------------- options */

static void test_options(void)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    int64_t v = -1;
    CHECK_STATUS(simdsv_options_get(opt, SIMDSV_OPT_UNION_BY_NAME, &v), SIMDSV_OK);
    CHECK_EQ_INT(v, 0);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_UNION_BY_NAME, 2), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_UNION_BY_NAME, 1), SIMDSV_OK);
    CHECK_STATUS(simdsv_options_get(opt, SIMDSV_OPT_UNION_BY_NAME, &v), SIMDSV_OK);
    CHECK_EQ_INT(v, 1);
    CHECK_STATUS(simdsv_options_get(opt, SIMDSV_OPT_HIVE, &v), SIMDSV_OK);
    CHECK_EQ_INT(v, SIMDSV_HIVE_AUTO);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_HIVE, 3), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_HIVE, SIMDSV_HIVE_OFF), SIMDSV_OK);
    CHECK_STATUS(simdsv_options_get(opt, SIMDSV_OPT_HIVE, &v), SIMDSV_OK);
    CHECK_EQ_INT(v, SIMDSV_HIVE_OFF);
    CHECK_STR(simdsv_options_get_string(opt, SIMDSV_OPT_FILENAME_COLUMN), "");
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_FILENAME_COLUMN, "source file"), SIMDSV_OK);
    CHECK_STR(simdsv_options_get_string(opt, SIMDSV_OPT_FILENAME_COLUMN), "source file");
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_FILENAME_COLUMN, "bad \xff"), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STR(simdsv_options_error(opt), "a file name column's name is UTF-8 text of at most 255 bytes");
    char long_name[300];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_FILENAME_COLUMN, long_name), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STR(simdsv_options_get_string(opt, SIMDSV_OPT_FILENAME_COLUMN), "source file"); /* unchanged */
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_FILENAME_COLUMN, NULL), SIMDSV_OK);
    CHECK_STR(simdsv_options_get_string(opt, SIMDSV_OPT_FILENAME_COLUMN), "");
    simdsv_options_free(opt);
}

/* ------------------------------------------------------------- schemas */

static void test_by_position(void)
{
    simdsv_options *opt = options(0, 1);
    const char *names[] = {"a.csv", "b.csv", "c.csv"};
    const char *same[] = {"id,name\n1,x\n2,y\n", "id,name\n3,z\n", "id,name\n4,\"w, v\"\n"};
    expect_buffers(opt, names, same, 3, "id:int64|name:string\n1|'x'\n2|'y'\n3|'z'\n4|'w, v'\n");
    /* Another column count, or another name at a position: an error naming both inputs and the column. */
    const char *extra[] = {"id,name\n1,x\n", "id,name,more\n2,y,7\n"};
    expect_buffers(opt, names, extra, 2,
                   "error SIMDSV_ERR_INVALID_ARGUMENT (file 1, line 0, byte 0): column 3 `more` of b.csv is not in "
                   "a.csv, which has 2 (columns are matched by position; match them by name to read both)");
    const char *renamed[] = {"id,name\n1,x\n", "id,label\n2,y\n"};
    expect_buffers(opt, names, renamed, 2,
                   "error SIMDSV_ERR_INVALID_ARGUMENT (file 1, line 0, byte 0): column 2 is `label` in b.csv but "
                   "`name` in a.csv (columns are matched by position; match them by name to read both)");
    simdsv_options_free(opt);
}

static void test_types_joined(void)
{
    simdsv_options *opt = options(0, 1);
    const char *names[] = {"a.csv", "b.csv", "c.csv"};
    /* int64 and float64 join to float64: a's text is read again as floats. */
    const char *floats[] = {"x,y\n1,2024-01-01\n2,2024-01-02\n", "x,y\n1.5,2024-01-03T10:00:00\n"};
    expect_buffers(opt, names, floats, 2,
                   "x:float64|y:timestamp\n1|1704067200000000\n2|1704153600000000\n1.5|1704276000000000\n");
    /* Any type and a string join to string: the text is kept as written (1.50, not 1.5). */
    const char *strings[] = {"x\n1.50\n007\n", "x\n2\n", "x\nabc\n"};
    expect_buffers(opt, names, strings, 3, "x:string\n'1.50'\n'007'\n'2'\n'abc'\n");
    /* A column of nulls fits any type; bool and int64 join to string. */
    const char *mixed[] = {"x,y\n,true\n,false\n", "x,y\n5,1\n"};
    expect_buffers(opt, names, mixed, 2, "x:int64|y:string\n-|'true'\n-|'false'\n5|'1'\n");
    simdsv_options_free(opt);
}

static void test_by_name(void)
{
    simdsv_options *opt = options(1, 1);
    const char *names[] = {"a.csv", "b.csv", "c.csv"};
    const char *data[] = {"a,b\n1,x\n", "b,c\ny,2020-01-01\n", "c,a\n2021-01-01,2.5\n"};
    expect_buffers(opt, names, data, 3, "a:float64|b:string|c:date\n1|'x'|-\n-|'y'|d18262\n2.5|-|d18628\n");
    /* A schema type for a column one input lacks: null there, typed everywhere (an empty input has none). */
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_SCHEMA, "c:string"), SIMDSV_OK);
    const char *lacking[] = {"a,b\n1,x\n", "", "c,a\n2021-01-01,2.5\n"};
    expect_buffers(opt, names, lacking, 3, "a:float64|b:string|c:string\n1|'x'|-\n2.5|-|'2021-01-01'\n");
    /* A column no input has: the error says so, naming no file. */
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_SCHEMA, "c:string,nowhere:int64"), SIMDSV_OK);
    expect_buffers(opt, names, lacking, 3,
                   "error SIMDSV_ERR_INVALID_ARGUMENT (file -1, line 0, byte 0): the schema names no column "
                   "`nowhere` (of any file)");
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_SCHEMA, NULL), SIMDSV_OK);
    /* Each input's dialect is its own: a semicolon file and a tab file. */
    const char *dialects[] = {"k;v\n1;a\n", "v\tk\nb\t2\n"};
    expect_buffers(opt, names, dialects, 2, "k:int64|v:string\n1|'a'\n2|'b'\n");
    simdsv_options_free(opt);
}

static void test_empty_inputs(void)
{
    simdsv_options *opt = options(0, 1);
    const char *names[] = {"empty.csv", "a.csv", "header.csv", "b.csv"};
    /* An empty input adds nothing; a header-only one its columns (null-typed) and no row. */
    const char *data[] = {"", "id,v\n1,x\n", "id,v\n", "id,v\n2,y\n"};
    expect_buffers(opt, names, data, 4, "id:int64|v:string\n1|'x'\n2|'y'\n");
    const char *only_empty[] = {"", ""};
    expect_buffers(opt, names, only_empty, 2, "\n");
    const char *only_header[] = {"id,v\n"};
    expect_buffers(opt, names, only_header, 1, "id:null|v:null\n");
    simdsv_options_free(opt);
}

static void test_filename_column(void)
{
    simdsv_options *opt = options(0, 1);
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_FILENAME_COLUMN, "file"), SIMDSV_OK);
    const char *names[] = {"s3://bucket/a.csv", "b.csv"};
    const char *data[] = {"x\n1\n2\n", "x\n3\n"};
    expect_buffers(opt, names, data, 2, "x:int64|file:string\n1|'s3://bucket/a.csv'\n2|'s3://bucket/a.csv'\n3|'b.csv'\n");
    /* A name the inputs' columns have already: the error says so. */
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_FILENAME_COLUMN, "x"), SIMDSV_OK);
    expect_buffers(opt, names, data, 2,
                   "error SIMDSV_ERR_INVALID_ARGUMENT (file -1, line 0, byte 0): the file name column `x` is also "
                   "a column's name (give the file name column another name)");
    simdsv_options_free(opt);
}

/* ------------------------------------------------------------- errors */

static void test_errors(void)
{
    simdsv_options *opt = options(0, 1);
    const char *names[] = {"a.csv", "bad.csv"};
    const char *data[] = {"id,v\n1,x\n", "id,v\n2,y\n3,\"open\n"};
    /* The input that fails, with its own line and byte (nothing detected:
     * detection would read the stray quote as text). */
    const simdsv_sniff_params given = {NULL, SIMDSV_SNIFF_GIVEN_ALL, 0, 0, 0, 0};
    detect_params = &given;
    expect_buffers(opt, names, data, 2,
                   "error SIMDSV_ERR_UNTERMINATED_QUOTE (file 1, line 3, byte 11): quoted field opened here is not "
                   "closed before the end of the input");
    detect_params = NULL;
    simdsv_options_free(opt);
    simdsv_dataset *ds = NULL;
    CHECK_STATUS(simdsv_dataset_new(&ds, NULL, NULL), SIMDSV_OK);
    char pattern[1024];
    path_of(pattern, sizeof pattern, "nothing/*.csv");
    CHECK_STATUS(simdsv_dataset_add_path(ds, pattern), SIMDSV_ERR_IO);
    char expected[1400];
    snprintf(expected, sizeof expected, "no file matches '%s'", pattern);
    CHECK_STR(simdsv_dataset_error(ds)->message, expected);
    CHECK_EQ_INT(simdsv_dataset_error_file(ds), -1);
    path_of(pattern, sizeof pattern, "missing.csv");
    CHECK_STATUS(simdsv_dataset_add_path(ds, pattern), SIMDSV_ERR_IO);
    CHECK_EQ_INT(simdsv_dataset_error(ds)->os_errno, ENOENT);
    CHECK_EQ_U64(simdsv_dataset_files(ds), 0);
    CHECK(simdsv_dataset_file(ds, 0) == NULL);
    CHECK_STATUS(simdsv_dataset_add_path(ds, ""), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_dataset_widen_misfit(ds), SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_dataset_free(ds);
}

/* Messages that name files keep their paths whole, however long: a
 * conflict names both inputs (simdsv_dataset_error_message; the error's
 * own 255 bytes are a cut of it), and a stream's error names the input,
 * its line and byte. */
static void test_long_paths(void)
{
    char folder[400], a[1024], b[1024];
    snprintf(folder, sizeof folder, "%s", "long");
    for (int k = 0; k < 7; k++) /* 7 parts of 42 bytes: paths of more than 300 bytes */
        snprintf(folder + strlen(folder), sizeof folder - strlen(folder), "/%s%d",
                 "a-folder-name-long-enough-to-matter-here-", k);
    char rel[600];
    snprintf(rel, sizeof rel, "%s/first.csv", folder);
    put_text(rel, "id,name\n1,x\n");
    path_of(a, sizeof a, rel);
    snprintf(rel, sizeof rel, "%s/second.csv", folder);
    put_text(rel, "id,label\n2,y\nq,z\n");
    path_of(b, sizeof b, rel);
    CHECK(strlen(b) > 300);
    simdsv_options *opt = options(0, 1);
    simdsv_dataset *ds = NULL;
    simdsv_table *t = NULL;
    CHECK_STATUS(simdsv_dataset_new(&ds, opt, NULL), SIMDSV_OK);
    CHECK_STATUS(simdsv_dataset_add_path(ds, a), SIMDSV_OK);
    CHECK_STATUS(simdsv_dataset_add_path(ds, b), SIMDSV_OK);
    CHECK_STATUS(simdsv_dataset_read(ds, &t), SIMDSV_ERR_INVALID_ARGUMENT);
    char expected[2000];
    snprintf(expected, sizeof expected,
             "column 2 is `label` in %s but `name` in %s (columns are matched by position; match them by name to "
             "read both)", b, a);
    CHECK_STR(simdsv_dataset_error_message(ds), expected);
    CHECK_EQ_INT(simdsv_dataset_error_file(ds), 1);
    CHECK_EQ_U64(strlen(simdsv_dataset_error(ds)->message), 255);
    CHECK(strncmp(simdsv_dataset_error(ds)->message, expected, 255) == 0);
    CHECK(t == NULL);
    simdsv_dataset_free(ds);
    /* By name they fit; a value of the second file that misfits its
     * --schema type stops the stream, which names the file whole, its line
     * and byte. */
    simdsv_options_set(opt, SIMDSV_OPT_UNION_BY_NAME, 1);
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_SCHEMA, "id:int64"), SIMDSV_OK);
    CHECK_STATUS(simdsv_dataset_new(&ds, opt, NULL), SIMDSV_OK);
    CHECK_STATUS(simdsv_dataset_add_path(ds, a), SIMDSV_OK);
    CHECK_STATUS(simdsv_dataset_add_path(ds, b), SIMDSV_OK);
    struct ArrowArrayStream stream;
    CHECK_STATUS(simdsv_dataset_stream(ds, &stream), SIMDSV_OK);
    if (stream.release) {
        struct ArrowArray batch;
        int err = 0;
        while ((err = stream.get_next(&stream, &batch)) == 0 && batch.release)
            batch.release(&batch);
        CHECK_EQ_INT(err, EINVAL);
        snprintf(expected, sizeof expected, "%s: line 3, column 1 (byte 13): %s", b, simdsv_dataset_error(ds)->message);
        CHECK_STR(stream.get_last_error(&stream), expected);
        CHECK_EQ_INT(simdsv_dataset_error_file(ds), 1);
        CHECK_EQ_U64(simdsv_dataset_error(ds)->line, 3);
        CHECK_STR(simdsv_dataset_error(ds)->message, "value does not fit column `id` of type int64");
        stream.release(&stream);
    }
    simdsv_dataset_free(ds);
    simdsv_options_free(opt);
}

/* --------------------------------------------------------- files, globs */

static char *read_paths(const simdsv_options *opt, const char *const *patterns, size_t n, text *files)
{
    simdsv_dataset *ds = NULL;
    simdsv_table *t = NULL;
    CHECK_STATUS(simdsv_dataset_new(&ds, opt, NULL), SIMDSV_OK);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        path_of(path, sizeof path, patterns[i]);
        CHECK_STATUS(simdsv_dataset_add_path(ds, path), SIMDSV_OK);
    }
    for (size_t i = 0; files && i < simdsv_dataset_files(ds); i++) {
        const char *f = simdsv_dataset_file(ds, i) + strlen(root) + 1;
        putf(files, "%s%s", i ? " " : "", f);
    }
    char *out = NULL;
    const int ok = simdsv_dataset_read(ds, &t) == SIMDSV_OK;
    char *table = ok ? render(t) : NULL;
    check_chunks(ds, table);
    if (ok) {
        out = table;
    } else {
        text m = {NULL, 0, 0};
        putf(&m, "error (file %ld): ", simdsv_dataset_error_file(ds));
        put(&m, simdsv_dataset_error(ds)->message, strlen(simdsv_dataset_error(ds)->message));
        out = m.s;
    }
    simdsv_table_free(t);
    simdsv_dataset_free(ds);
    return out;
}

static void test_globs(void)
{
    put_text("g/b.csv", "n\n2\n");
    put_text("g/a.csv", "n\n1\n");
    put_text("g/sub/c.csv", "n\n3\n");
    put_text("g/sub/deeper/d.csv", "n\n4\n");
    put_text("g/_SUCCESS", "");
    put_text("g/.hidden.csv", "n\n99\n");
    put_text("g/a.txt", "n\n5\n");
    simdsv_options *opt = options(0, 1);
    const struct {
        const char *pattern, *files, *table;
    } cases[] = {
        {"g", "g/a.csv g/a.txt g/b.csv g/sub/c.csv g/sub/deeper/d.csv", "n:int64\n1\n5\n2\n3\n4\n"},
        {"g/*.csv", "g/a.csv g/b.csv", "n:int64\n1\n2\n"},
        {"g/?.csv", "g/a.csv g/b.csv", "n:int64\n1\n2\n"},
        {"g/[b-z].*", "g/b.csv", "n:int64\n2\n"},
        {"g/[!b]*", "g/a.csv g/a.txt g/sub/c.csv g/sub/deeper/d.csv", "n:int64\n1\n5\n3\n4\n"},
        {"g/**/*.csv", "g/a.csv g/b.csv g/sub/c.csv g/sub/deeper/d.csv", "n:int64\n1\n2\n3\n4\n"},
        {"g/**/deeper/*.csv", "g/sub/deeper/d.csv", "n:int64\n4\n"},
        {"g/.*.csv", "g/.hidden.csv", "n:int64\n99\n"},
        {"g/sub/c.csv", "g/sub/c.csv", "n:int64\n3\n"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        h_context("glob %s", cases[k].pattern);
        text files = {NULL, 0, 0};
        put(&files, "", 0);
        char *got = read_paths(opt, &cases[k].pattern, 1, &files);
        CHECK_STR(files.s, cases[k].files);
        CHECK_STR(got, cases[k].table);
        free(got);
        free(files.s);
    }
    h_context("%s", "");
    simdsv_options_free(opt);
}

static void test_hive(void)
{
    put_text("h/year=2024/month=05/part-0.csv", "id,v\n1,a\n2,b\n");
    put_text("h/year=2024/month=11/part-0.csv", "id,v\n3,c\n");
    put_text("h/year=2025/month=__HIVE_DEFAULT_PARTITION__/part-0.csv", "id,v\n4,d\n");
    simdsv_options *opt = options(0, 1);
    const char *pattern[] = {"h"};
    char *got = read_paths(opt, pattern, 1, NULL);
    /* 05 is text (a leading zero), as in a file. */
    CHECK_STR(got, "id:int64|v:string|year:int64|month:string\n1|'a'|2024|'05'\n2|'b'|2024|'05'\n3|'c'|2024|'11'\n4|'d'|2025|-\n");
    free(got);
    /* Off: no partition columns; the file name column follows them when on. */
    simdsv_options_set(opt, SIMDSV_OPT_HIVE, SIMDSV_HIVE_OFF);
    got = read_paths(opt, pattern, 1, NULL);
    CHECK_STR(got, "id:int64|v:string\n1|'a'\n2|'b'\n3|'c'\n4|'d'\n");
    free(got);
    /* Auto leaves paths alone whose keys differ; on names the path. */
    put_text("h2/year=2024/a.csv", "id\n1\n");
    put_text("h2/region=eu/b.csv", "id\n2\n");
    const char *mixed[] = {"h2"};
    simdsv_options_set(opt, SIMDSV_OPT_HIVE, SIMDSV_HIVE_AUTO);
    got = read_paths(opt, mixed, 1, NULL);
    CHECK_STR(got, "id:int64\n2\n1\n");
    free(got);
    simdsv_options_set(opt, SIMDSV_OPT_HIVE, SIMDSV_HIVE_ON);
    got = read_paths(opt, mixed, 1, NULL);
    char expected[1400];
    snprintf(expected, sizeof expected, "error (file 1): the path's key=value folders are not those of %s/h2/region=eu/b.csv (hive partitions: every path has the same keys, in the same order)", root);
    CHECK_STR(got, expected);
    free(got);
    /* Values typed as a field is: a date, text, and a key that is also a column. */
    put_text("h3/day=2024-01-02/kind=x/a.csv", "id\n1\n");
    put_text("h3/day=2024-01-03/kind=7/a.csv", "id\n2\n");
    const char *typed[] = {"h3"};
    simdsv_options_set(opt, SIMDSV_OPT_HIVE, SIMDSV_HIVE_AUTO);
    got = read_paths(opt, typed, 1, NULL);
    CHECK_STR(got, "id:int64|day:date|kind:string\n1|d19724|'x'\n2|d19725|'7'\n");
    free(got);
    put_text("h4/id=1/a.csv", "id\n1\n");
    const char *clash[] = {"h4"};
    got = read_paths(opt, clash, 1, NULL);
    CHECK_STR(got, "error (file -1): the hive partition `id` is also a column's name (turn hive partitioning off, or rename it)");
    free(got);
    simdsv_options_free(opt);
}

#ifdef TEST_HAVE_ZLIB
static size_t gzip_of(const char *text_in, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)(uintptr_t)text_in;
    z.avail_in = (unsigned)strlen(text_in);
    z.next_out = out;
    z.avail_out = (unsigned)cap;
    deflate(&z, Z_FINISH);
    const size_t n = z.total_out;
    deflateEnd(&z);
    return n;
}
#endif

static void test_compressed(void)
{
#ifdef TEST_HAVE_ZLIB
    if (!simdsv_compression_supported(SIMDSV_COMPRESSION_GZIP)) {
        FAIL_MSG("%s", "zlib was linked into the test but the library cannot load it");
        return;
    }
    unsigned char gz[256];
    const size_t n = gzip_of("x;y\n7;seven\n8;eight\n", gz, sizeof gz);
    put_file("z/b.csv.gz", gz, n);
    put_text("z/a.csv", "x,y\n6,six\n");
    simdsv_options *opt = options(0, 1);
    const char *pattern[] = {"z"};
    char *got = read_paths(opt, pattern, 1, NULL);
    CHECK_STR(got, "x:int64|y:string\n6|'six'\n7|'seven'\n8|'eight'\n");
    free(got);
    simdsv_options_free(opt);
#endif
}

/* ------------------------------------------------------------ callbacks */

typedef struct chunked {
    const char *data;
    size_t size, pos;
    int rewinds, released;
} chunked;

static long long read_chunk(void *ctx, void *buf, size_t size, int *os_errno)
{
    chunked *c = ctx;
    (void)os_errno;
    size_t n = c->size - c->pos;
    if (n > 3)
        n = 3; /* a few bytes at a time, as a network read may give them */
    if (n > size)
        n = size;
    memcpy(buf, c->data + c->pos, n);
    c->pos += n;
    return (long long)n;
}

static int rewind_chunk(void *ctx, int *os_errno)
{
    chunked *c = ctx;
    (void)os_errno;
    c->pos = 0;
    c->rewinds++;
    return 0;
}

static void release_chunk(void *ctx)
{
    ((chunked *)ctx)->released++;
}

static void test_callbacks(void)
{
    chunked once = {"a,b\n1,\"x\ny\"\n", 0, 0, 0, 0};
    chunked again = {"a,b\n2,z\n", 0, 0, 0, 0};
    once.size = strlen(once.data);
    again.size = strlen(again.data);
    simdsv_dataset *ds = NULL;
    CHECK_STATUS(simdsv_dataset_new(&ds, NULL, NULL), SIMDSV_OK);
    const simdsv_dataset_source s1 = {read_chunk, NULL, release_chunk, &once, -1};
    const simdsv_dataset_source s2 = {read_chunk, rewind_chunk, release_chunk, &again, (int64_t)again.size};
    CHECK_STATUS(simdsv_dataset_add_callback(ds, "https://host/one.csv", &s1), SIMDSV_OK);
    CHECK_STATUS(simdsv_dataset_add_callback(ds, "https://host/two.csv", &s2), SIMDSV_OK);
    for (int round = 0; round < 2; round++) { /* read twice: the callbacks serve it again */
        simdsv_table *t = NULL;
        CHECK_STATUS(simdsv_dataset_read(ds, &t), SIMDSV_OK);
        char *got = render(t);
        CHECK_STR(got, "a:int64|b:string\n1|'x\ny'\n2|'z'\n");
        free(got);
        simdsv_table_free(t);
    }
    CHECK_EQ_INT(again.rewinds, 2);
    CHECK_EQ_INT(once.released, 0);
    simdsv_dataset_free(ds);
    CHECK_EQ_INT(once.released, 1);
    CHECK_EQ_INT(again.released, 1);
}

#ifdef TEST_HAVE_ZLIB
/* A gzip stream through a callback (a remote .csv.gz) is told by its first bytes and decoded, as a path is
 * (the magic was looked for in a buffer the callback input does not have). */
static void test_callback_gzip(void)
{
    unsigned char gz[256];
    chunked zipped = {NULL, gzip_of("a,b\n3,\"w\nv\"\n", gz, sizeof gz), 0, 0, 0};
    zipped.data = (const char *)gz;
    simdsv_dataset *ds = NULL;
    CHECK_STATUS(simdsv_dataset_new(&ds, NULL, NULL), SIMDSV_OK);
    const simdsv_dataset_source s = {read_chunk, rewind_chunk, NULL, &zipped, (int64_t)zipped.size};
    CHECK_STATUS(simdsv_dataset_add_callback(ds, "s3://bucket/three.csv.gz", &s), SIMDSV_OK);
    simdsv_table *t = NULL;
    CHECK_STATUS(simdsv_dataset_read(ds, &t), SIMDSV_OK);
    char *got = render(t);
    CHECK_STR(got, "a:int64|b:string\n3|'w\nv'\n");
    free(got);
    simdsv_table_free(t);
    simdsv_dataset_free(ds);
}
#endif

/* --------------------------------------------------------------- stream */

/* Row i of an Arrow array of the typed reader's formats, as render_rows
 * writes a table's. */
static void render_value(text *t, const char *format, const struct ArrowArray *a, int64_t i)
{
    const int64_t k = a->offset + i;
    const uint8_t *valid = a->n_buffers ? a->buffers[0] : NULL;
    if (format[0] == 'n' || (valid && !((valid[k / 8] >> (k % 8)) & 1))) {
        put(t, "-", 1);
        return;
    }
    const void *values = a->buffers[1];
    if (strcmp(format, "b") == 0)
        putf(t, "%s", (((const uint8_t *)values)[k / 8] >> (k % 8)) & 1 ? "true" : "false");
    else if (strcmp(format, "l") == 0 || strncmp(format, "tsu:", 4) == 0)
        putf(t, "%lld", (long long)((const int64_t *)values)[k]);
    else if (strcmp(format, "g") == 0)
        putf(t, "%.17g", ((const double *)values)[k]);
    else if (strcmp(format, "tdD") == 0)
        putf(t, "d%d", (int)((const int32_t *)values)[k]);
    else if (strcmp(format, "u") == 0) {
        const int32_t *offsets = values;
        put(t, "'", 1);
        put(t, (const char *)a->buffers[2] + offsets[k], (size_t)(offsets[k + 1] - offsets[k]));
        put(t, "'", 1);
    } else {
        putf(t, "?%s", format);
    }
}

static const char *type_of_format(const char *format)
{
    static const char *const pairs[][2] = {{"n", "null"}, {"b", "bool"},       {"l", "int64"}, {"g", "float64"},
                                           {"tdD", "date"}, {"tsu:", "timestamp"}, {"tsu:UTC", "timestamp"},
                                           {"u", "string"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (strcmp(format, pairs[i][0]) == 0)
            return pairs[i][1];
    return format;
}

/* The dataset streamed, rendered as render() renders its table; or the
 * error as read_paths gives it.  batches counts the batches. */
static char *stream_text(simdsv_dataset *ds, size_t *batches)
{
    struct ArrowArrayStream st;
    text t = {NULL, 0, 0};
    put(&t, "", 0);
    *batches = 0;
    if (simdsv_dataset_stream(ds, &st) != SIMDSV_OK) {
        putf(&t, "error (file %ld): ", simdsv_dataset_error_file(ds));
        put(&t, simdsv_dataset_error(ds)->message, strlen(simdsv_dataset_error(ds)->message));
        return t.s;
    }
    struct ArrowSchema schema;
    CHECK_EQ_INT(st.get_schema(&st, &schema), 0);
    for (int64_t j = 0; j < schema.n_children; j++)
        putf(&t, "%s%s:%s", j ? "|" : "", schema.children[j]->name, type_of_format(schema.children[j]->format));
    put(&t, "\n", 1);
    for (;;) {
        struct ArrowArray batch;
        const int err = st.get_next(&st, &batch);
        if (err) {
            free(t.s);
            t.s = NULL;
            t.len = t.cap = 0;
            putf(&t, "error %d (file %ld, line %llu, byte %llu): %s", err, simdsv_dataset_error_file(ds),
                 (unsigned long long)simdsv_dataset_error(ds)->line,
                 (unsigned long long)simdsv_dataset_error(ds)->byte_offset, st.get_last_error(&st));
            break;
        }
        if (!batch.release)
            break;
        ++*batches;
        CHECK_EQ_INT(batch.n_children, schema.n_children);
        for (int64_t j = 0; j < batch.n_children; j++)
            if (batch.children[j]->length != batch.length)
                FAIL_MSG("child %lld has %lld rows, its batch %lld", (long long)j,
                         (long long)batch.children[j]->length, (long long)batch.length);
        for (int64_t i = 0; i < batch.length; i++) {
            for (int64_t j = 0; j < batch.n_children; j++) {
                if (j)
                    put(&t, "|", 1);
                render_value(&t, schema.children[j]->format, batch.children[j], i);
            }
            put(&t, "\n", 1);
        }
        batch.release(&batch);
    }
    schema.release(&schema);
    st.release(&st);
    return t.s;
}

/* The stream gives the read's table, batch by batch, for buffers and for
 * files (hive folders and the file name column included). */
static void test_stream_equals_read(void)
{
    const char *names[] = {"a.csv", "b.csv", "c.csv"};
    const char *data[] = {"a,b\n1,x\n", "b,c\ny,2020-01-01\n", "c,a\n2021-01-01,2.5\n"};
    simdsv_options *opt = options(1, 1);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_BATCH_ROWS, 2), SIMDSV_OK);
    for (int files = 0; files < 2; files++) {
        simdsv_dataset *ds = NULL;
        CHECK_STATUS(simdsv_dataset_new(&ds, opt, NULL), SIMDSV_OK);
        if (files) {
            char path[1024];
            path_of(path, sizeof path, "h");
            CHECK_STATUS(simdsv_dataset_add_path(ds, path), SIMDSV_OK);
            CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_FILENAME_COLUMN, "f"), SIMDSV_OK);
        } else {
            for (size_t i = 0; i < 3; i++)
                CHECK_STATUS(simdsv_dataset_add_memory(ds, names[i], data[i], strlen(data[i])), SIMDSV_OK);
        }
        simdsv_table *t = NULL;
        CHECK_STATUS(simdsv_dataset_read(ds, &t), SIMDSV_OK);
        char *expected = render(t);
        simdsv_table_free(t);
        size_t batches;
        char *got = stream_text(ds, &batches);
        CHECK_STR(got, expected);
        CHECK_EQ_U64(batches, 3); /* 2 rows a batch at most, one input at a time: 1+1+1 and 2+1+1 rows */
        free(got);
        free(expected);
        simdsv_dataset_free(ds);
    }
    simdsv_options_free(opt);
}

/* The chunked read's boundaries: a file without rows gives no chunk, a
 * type widened by a later file is the earlier chunk's type too (its text
 * read again), a column a file lacks is nulls in its chunk, the file name
 * column is made per chunk; on 1 and 2 threads. */
static void test_chunks(void)
{
    const char *names[] = {"a.csv", "b.csv", "c.csv", "d.csv"};
    const char *data[] = {"x,y\n1,p\n2,q\n", "x,y\n", "", "y,z,x\nr,2020-01-01,2.5\n"};
    const char *want[] = {"x:float64|y:string|z:date|f:string\n1|'p'|-|'a.csv'\n2|'q'|-|'a.csv'\n",
                          "x:float64|y:string|z:date|f:string\n2.5|'r'|d18262|'d.csv'\n"};
    for (int threads = 1; threads <= 2; threads++) {
        h_context("threads %d", threads);
        simdsv_options *opt = options(1, threads);
        CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_FILENAME_COLUMN, "f"), SIMDSV_OK);
        simdsv_dataset *ds = memory_dataset(opt, names, data, 4);
        size_t count = 0;
        CHECK_STATUS(simdsv_dataset_read_chunks(ds, &count), SIMDSV_OK);
        CHECK_EQ_U64(count, 2);
        for (size_t k = 0; k < count && k < 2; k++) {
            simdsv_table *c = simdsv_dataset_take_chunk(ds, k);
            char *got = render(c);
            CHECK_STR(got, want[k]);
            simdsv_column_info info;
            CHECK_STATUS(simdsv_table_column(c, 2, &info), SIMDSV_OK);
            CHECK_EQ_U64(info.null_count, k == 0 ? 2 : 0);
            free(got);
            simdsv_table_free(c);
        }
        /* Chunks not taken are freed by the next read, or with the dataset. */
        CHECK_STATUS(simdsv_dataset_read_chunks(ds, &count), SIMDSV_OK);
        CHECK_EQ_U64(count, 2);
        simdsv_dataset_free(ds);
        simdsv_options_free(opt);
    }
    h_context("%s", "");
}

/* Rejects (SIMDSV_ON_ERROR_NULL) of a read name the dataset's column, also
 * where the input has it at another position (b.csv's v is its first);
 * the chunks' rows count from each chunk's first. */
static void test_read_rejects(void)
{
    const char *names[] = {"a.csv", "b.csv", "c.csv"};
    const char *data[] = {"id,v\n1,2\n2,x\n", "v,id\nw,4\n", "extra,v,id\nq,y,5\n"};
    static const struct {
        uint64_t row, chunk_row, line;
        const char *value;
    } want[] = {{1, 1, 3, "x"}, {2, 0, 2, "w"}, {3, 0, 2, "y"}};
    simdsv_options *opt = options(1, 1);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL), SIMDSV_OK);
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_SCHEMA, "v:int64"), SIMDSV_OK);
    simdsv_dataset *ds = memory_dataset(opt, names, data, 3);
    simdsv_table *t = NULL;
    CHECK_STATUS(simdsv_dataset_read(ds, &t), SIMDSV_OK);
    CHECK_EQ_U64(simdsv_table_reject_count(t), 3);
    for (size_t k = 0; k < 3 && k < simdsv_table_reject_count(t); k++) {
        const simdsv_reject *r = simdsv_table_reject(t, k);
        CHECK_EQ_U64(r->row, want[k].row);
        CHECK_EQ_U64(r->column, 1);
        CHECK_EQ_U64(r->line, want[k].line);
        CHECK_STR(r->value, want[k].value);
    }
    simdsv_table_free(t);
    size_t count = 0;
    CHECK_STATUS(simdsv_dataset_read_chunks(ds, &count), SIMDSV_OK);
    CHECK_EQ_U64(count, 3);
    for (size_t k = 0; k < count && k < 3; k++) {
        simdsv_table *c = simdsv_dataset_take_chunk(ds, k);
        CHECK_EQ_U64(simdsv_table_reject_count(c), 1);
        const simdsv_reject *r = simdsv_table_reject(c, 0);
        CHECK(r != NULL);
        if (r) {
            CHECK_EQ_U64(r->row, want[k].chunk_row);
            CHECK_EQ_U64(r->column, 1);
            CHECK_EQ_U64(r->line, want[k].line);
            CHECK_STR(r->value, want[k].value);
        }
        simdsv_table_free(c);
    }
    simdsv_dataset_free(ds);
    simdsv_options_free(opt);
}

/* A value past every sample that does not fit the joined type: the stream
 * stops with the input's line and byte; widened, the next stream reads it. */
/* A stream's rejects (SIMDSV_ON_ERROR_NULL) come with the batch that holds
 * them: the dataset's row and column (columns matched by name, in another
 * order in each input), the input's line and byte, and the input; the same
 * on one thread and on two. */
static void test_stream_rejects(void)
{
    const char *names[] = {"a.csv", "b.csv", "c.csv"};
    const char *data[] = {"id,v\n1,2\n2,x\n3,4\n", "v,id\n5,4\n", "extra,v,id\nq,y,5\nr,7,6\ns,z,7\n"};
    /* dataset row, column, input line, byte of the row, input, value */
    static const struct {
        uint64_t row;
        size_t column;
        uint64_t line, byte;
        long input;
        const char *value;
    } want[] = {{1, 1, 3, 9, 0, "x"}, {4, 1, 2, 11, 2, "y"}, {6, 1, 4, 23, 2, "z"}};
    for (int threads = 1; threads <= 2; threads++) {
        simdsv_options *opt = options(1, threads);
        CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_BATCH_ROWS, 2), SIMDSV_OK);
        CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL), SIMDSV_OK);
        CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_SCHEMA, "v:int64"), SIMDSV_OK);
        simdsv_dataset *ds = memory_dataset(opt, names, data, 3);
        struct ArrowArrayStream stream;
        CHECK_STATUS(simdsv_dataset_stream(ds, &stream), SIMDSV_OK);
        simdsv_column_info info;
        CHECK_STATUS(simdsv_table_stream_column(&stream, 1, &info), SIMDSV_OK);
        CHECK_STR(info.name, "v");
        CHECK_EQ_INT(info.user_type, 1);
        CHECK_STATUS(simdsv_table_stream_column(&stream, 2, &info), SIMDSV_OK);
        CHECK_STR(info.name, "extra");
        CHECK_EQ_INT(info.user_type, 0);
        CHECK_STATUS(simdsv_table_stream_column(&stream, 3, &info), SIMDSV_ERR_INVALID_ARGUMENT);
        size_t seen = 0;
        uint64_t rows = 0;
        struct ArrowArray batch;
        while (stream.get_next(&stream, &batch) == 0 && batch.release) {
            const uint64_t first = rows;
            rows += (uint64_t)batch.length;
            for (size_t k = 0; k < simdsv_table_stream_reject_count(&stream); k++, seen++) {
                const simdsv_reject *r = simdsv_table_stream_reject(&stream, k);
                h_context("threads %d, reject %zu", threads, seen);
                if (seen >= 3) {
                    FAIL_MSG("%s", "more rejects than values that do not fit");
                    break;
                }
                CHECK(r->row >= first && r->row < rows); /* in the batch just read */
                CHECK_EQ_U64(r->row, want[seen].row);
                CHECK_EQ_U64(r->column, want[seen].column);
                CHECK_EQ_U64(r->line, want[seen].line);
                CHECK_EQ_U64(r->byte_offset, want[seen].byte);
                CHECK_STR(r->value, want[seen].value);
                CHECK_EQ_INT(simdsv_dataset_stream_reject_file(&stream, k), want[seen].input);
            }
            CHECK_EQ_INT(simdsv_dataset_stream_reject_file(&stream, simdsv_table_stream_reject_count(&stream)), -1);
            simdsv_table_stream_clear_rejects(&stream);
            CHECK_EQ_U64(simdsv_table_stream_reject_count(&stream), 0);
            batch.release(&batch);
        }
        h_context("%s", "");
        CHECK_EQ_U64(seen, 3);
        CHECK_EQ_U64(rows, 7);
        stream.release(&stream);
        simdsv_dataset_free(ds);
        simdsv_options_free(opt);
    }
}

static void test_stream_misfit(void)
{
    text big = {NULL, 0, 0};
    put(&big, "x\n", 2);
    for (int r = 0; r < 1000; r++)
        putf(&big, r == 300 ? "%d.5\n" : "%d\n", r);
    const char *names[] = {"a.csv", "big.csv"};
    const char *data[] = {"x\n7\n", big.s};
    for (int threads = 1; threads <= 3; threads += 2) {
    h_context("threads %d", threads);
    simdsv_options *opt = options(0, threads);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_INFER_ROWS, 10), SIMDSV_OK);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_BATCH_ROWS, 100), SIMDSV_OK);
    simdsv_dataset *ds = memory_dataset(opt, names, data, 2);
    CHECK_STATUS(simdsv_dataset_add_memory(ds, "after.csv", "x\n9\n", 4), SIMDSV_OK);
    size_t batches;
    char *got = stream_text(ds, &batches);
    CHECK_STR(got, "error 22 (file 1, line 302, byte 1092): big.csv: line 302, column 1 (byte 1092): value does not fit column `x` of type int64, inferred from the start of the stream");
    free(got);
    CHECK_STATUS(simdsv_dataset_widen_misfit(ds), SIMDSV_OK);
    CHECK_STATUS(simdsv_dataset_widen_misfit(ds), SIMDSV_ERR_INVALID_ARGUMENT); /* once */
    got = stream_text(ds, &batches);
    simdsv_table *t = NULL;
    CHECK_STATUS(simdsv_dataset_read(ds, &t), SIMDSV_OK);
    char *expected = render(t);
    CHECK(strncmp(expected, "x:float64\n7\n0\n1\n", strlen("x:float64\n7\n0\n1\n")) == 0);
    CHECK(strstr(expected, "\n999\n9\n") != NULL);
    CHECK_STR(got, expected);
    simdsv_table_free(t);
    free(expected);
    free(got);
    simdsv_dataset_free(ds);
    simdsv_options_free(opt);
    }
    h_context("%s", "");
    free(big.s);
}

/* ---------------------------------------------- threads and one by one */

/* Files of several shapes and sizes (one above the typed reader's
 * threaded minimum), read as a dataset at 1, 2 and 4 threads: the same
 * table, and the same rows as each file read alone, in order. */
static void test_threads_equal_one_by_one(void)
{
    enum { FILES = 9 };
    char rel[FILES][32];
    for (int f = 0; f < FILES; f++) {
        snprintf(rel[f], sizeof rel[f], "t/part-%02d.csv", f);
        text t = {NULL, 0, 0};
        put(&t, "id,price,name,day\n", 18);
        const int rows = f == 4 ? 400000 : 50 + 37 * f;
        for (int r = 0; r < rows; r++)
            putf(&t, "%d,%d.%02d,\"n %d\"\"q\",2024-%02d-%02d\n", f * 1000000 + r, r % 997, r % 100, r, 1 + r % 12,
                 1 + r % 28);
        put_file(rel[f], t.s, t.len);
        free(t.s);
    }
    text expected = {NULL, 0, 0};
    put(&expected, "id:int64|price:float64|name:string|day:date\n", 44);
    for (int f = 0; f < FILES; f++) {
        char path[1024];
        path_of(path, sizeof path, rel[f]);
        simdsv_reader *r = NULL;
        simdsv_table *t = NULL;
        simdsv_reader_new(&r, NULL);
        CHECK_STATUS(simdsv_reader_open_path(r, path), SIMDSV_OK);
        CHECK_STATUS(simdsv_table_read(r, &t), SIMDSV_OK);
        render_rows(&expected, t, 0);
        simdsv_table_free(t);
        simdsv_reader_free(r);
    }
    const int threads[] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        h_context("threads %d", threads[k]);
        simdsv_options *opt = options(0, threads[k]);
        const char *pattern[] = {"t/*.csv"};
        char *got = read_paths(opt, pattern, 1, NULL);
        CHECK(strcmp(got, expected.s) == 0);
        free(got);
        /* The stream: the same rows, its workers ahead of the consumer. */
        simdsv_dataset *ds = NULL;
        char path[1024];
        path_of(path, sizeof path, pattern[0]);
        CHECK_STATUS(simdsv_dataset_new(&ds, opt, NULL), SIMDSV_OK);
        CHECK_STATUS(simdsv_dataset_add_path(ds, path), SIMDSV_OK);
        size_t batches;
        got = stream_text(ds, &batches);
        CHECK(strcmp(got, expected.s) == 0);
        CHECK(batches > FILES);
        free(got);
        simdsv_dataset_free(ds);
        simdsv_options_free(opt);
    }
    h_context("%s", "");
    free(expected.s);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/simdsv-dataset-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    test_options();
    test_by_position();
    test_types_joined();
    test_by_name();
    test_empty_inputs();
    test_filename_column();
    test_errors();
    test_long_paths();
    test_globs();
    test_hive();
    test_compressed();
    test_callbacks();
#ifdef TEST_HAVE_ZLIB
    test_callback_gzip();
#endif
    test_chunks();
    test_read_rejects();
    test_stream_equals_read();
    test_stream_misfit();
    test_stream_rejects();
    test_threads_equal_one_by_one();
    remove_tree(root);
    return check_summary();
}
