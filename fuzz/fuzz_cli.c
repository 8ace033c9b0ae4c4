/*
 * fuzz_cli.c — the simdsv command, run in-process on a file made of the
 * input bytes.
 *
 * The first FUZZ_CLI_HEADER bytes pick the command and its options (the
 * dialect, limits, typed options, selections, patterns, -o), two short
 * strings follow (each after its length byte: a selector, a pattern, a
 * schema...), and the rest is the file.  The command runs through cli_run()
 * with its output going to a memory sink (out_set_sink) and the standard
 * streams it writes with stdio swapped for memory streams (glibc lets a
 * program assign stdout and stderr).  Each input runs twice, and the
 * harness checks:
 *   - the exit status is 0, 1 or 2, and a failure says why on stderr;
 *   - both runs give the same status, output and messages (no state
 *     survives from one run to the next);
 *   - with -o, the file exists exactly when the run succeeded, and no
 *     temporary file is left behind.
 * ASan and UBSan watch every byte written: a length taken from snprintf's
 * result past its buffer, as `schema` once did, is a read past that buffer
 * in the sink's copy.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_CLI_HEADER 7

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#define FUZZ_CLI_MAX_STRING 31

typedef struct capture {
    char *data;
    size_t len, cap;
} capture;

static void capture_put(capture *c, const char *p, size_t n)
{
    if (c->len + n > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4096;
        while (cap < c->len + n)
            cap *= 2;
        c->data = realloc(c->data, cap);
        if (!c->data)
            abort();
        c->cap = cap;
    }
    if (n)
        memcpy(c->data + c->len, p, n); /* every byte the command wrote is read here */
    c->len += n;
}

static void sink(void *ctx, const char *data, size_t size)
{
    capture_put(ctx, data, size);
}

typedef struct run_result {
    int status;
    capture out;
    char *err;
    size_t err_len;
} run_result;

static void result_free(run_result *r)
{
    free(r->out.data);
    free(r->err);
    memset(r, 0, sizeof *r);
}

static char dir[64];
static char in_path[96], out_path[96];

static void remove_dir(void)
{
    unlink(in_path);
    unlink(out_path);
    rmdir(dir);
}

static void setup(void)
{
    if (dir[0])
        return;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/simdsv-fuzz-XXXXXX", tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    snprintf(in_path, sizeof in_path, "%s/in.csv", dir);
    snprintf(out_path, sizeof out_path, "%s/out.csv", dir);
    atexit(remove_dir);
}

static void write_file(const uint8_t *data, size_t size)
{
    const int fd = open(in_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        abort();
    while (size) {
        const ssize_t n = write(fd, data, size);
        if (n <= 0)
            abort();
        data += n;
        size -= (size_t)n;
    }
    close(fd);
}

/* Entries of the folder besides in.csv (and out.csv when allowed). */
static int stray_files(int allow_out)
{
    DIR *d = opendir(dir);
    if (!d)
        abort();
    int n = 0;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strcmp(e->d_name, "in.csv") == 0)
            continue;
        if (allow_out && strcmp(e->d_name, "out.csv") == 0)
            continue;
        n++;
    }
    closedir(d);
    return n;
}

static void fail(const char *what, const run_result *r)
{
    fprintf(stderr, "fuzz_cli: %s (status %d)\nstderr: %.*s\n", what, r->status, (int)r->err_len, r->err);
    abort();
}

static void run_once(int argc, char **argv, bool to_file, run_result *r)
{
    memset(r, 0, sizeof *r);
    FILE *saved_out = stdout, *saved_err = stderr;
    char *out_text = NULL;
    size_t out_text_len = 0;
    FILE *mem_out = open_memstream(&out_text, &out_text_len);
    FILE *mem_err = open_memstream(&r->err, &r->err_len);
    if (!mem_out || !mem_err)
        abort();
    stdout = mem_out;
    stderr = mem_err;
    out_set_sink(sink, &r->out);
    r->status = cli_run(argc, argv);
    out_set_sink(NULL, NULL);
    stdout = saved_out;
    stderr = saved_err;
    fclose(mem_out);
    fclose(mem_err);
    /* Text written with stdio (check's result, help) goes with the output. */
    capture_put(&r->out, out_text, out_text_len);
    free(out_text);
    if (r->status != EXIT_OK && r->status != EXIT_DATA && r->status != EXIT_USAGE)
        fail("exit status not 0, 1 or 2", r);
    if (r->status != EXIT_OK && r->err_len == 0)
        fail("a failure without a message", r);
    if (!to_file)
        return;
    if (stray_files(1) != 0)
        fail("-o left a temporary file", r);
    FILE *f = fopen(out_path, "rb");
    if ((f != NULL) != (r->status == EXIT_OK))
        fail(f ? "-o wrote the file of a failed run" : "-o wrote no file", r);
    if (f) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            capture_put(&r->out, buf, n);
        fclose(f);
        unlink(out_path);
    }
}

/* argv under construction. */
typedef struct args {
    char *v[64];
    int n;
} args;

static void add(args *a, const char *s)
{
    if (a->n < 63)
        a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
}

/* A string argument from the input: NUL (which argv cannot hold) becomes 'x'. */
static const uint8_t *take_string(const uint8_t *p, const uint8_t *end, char *out, bool regex)
{
    size_t n = p < end ? *p++ % (FUZZ_CLI_MAX_STRING + 1) : 0;
    if (n > (size_t)(end - p))
        n = (size_t)(end - p);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char ch = (char)p[i];
        if (regex && (ch == '\\' || k >= 12))
            continue; /* back references: exponential in glibc, and a trusted argument */
        out[k++] = ch ? ch : 'x';
    }
    out[k] = '\0';
    return p + n;
}

enum {
    C_COUNT, C_CHECK, C_JSON, C_CSV, C_JSONL, C_HEADERS, C_HEAD, C_TAIL, C_SLICE, C_SELECT,
    C_SEARCH, C_FREQUENCY, C_TABLE, C_CAT_ROWS, C_CAT_COLUMNS, C_SCHEMA, C_STATS, C_COMMANDS
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    uint8_t h[FUZZ_CLI_HEADER] = {0};
    memcpy(h, data, size < FUZZ_CLI_HEADER ? size : FUZZ_CLI_HEADER);
    const uint8_t *p = data + (size < FUZZ_CLI_HEADER ? size : FUZZ_CLI_HEADER), *end = data + size;
    const int command = h[0] % C_COMMANDS;
    const bool regex = command == C_SEARCH && (h[6] & 1);
    char s1[FUZZ_CLI_MAX_STRING + 1], s2[FUZZ_CLI_MAX_STRING + 1];
    p = take_string(p, end, s1, regex);
    p = take_string(p, end, s2, false);
    write_file(p, (size_t)(end - p));

    static const char *const delimiters[8] = {",", ";", "\\t", "|", " ", "\\0", "a", "\\x1f"};
    static const char *const outdelims[4] = {NULL, ";", "\\t", "|"};
    static const char *const records[4] = {NULL, "0", "64", "4096"};
    static const char *const fields[4] = {NULL, "0", "2", "100"};
    static const char *const skips[4] = {NULL, "1", "2", "3"};
    static const char *const infer[4] = {NULL, "1", "3", "all"};
    static const char *const numbers[8] = {"0", "1", "2", "3", "5", "10", "100", "18446744073709551615"};
    char number[24];
    snprintf(number, sizeof number, "%u", h[4]);

    args a = {{0}, 0};
    add(&a, "simdsv");
    static const char *const names[C_COMMANDS] = {"count", "check", "convert", "convert", "convert", "headers",
                                                  "head", "tail", "slice", "select", "search", "frequency",
                                                  "table", "cat", "cat", "schema", "stats"};
    add(&a, names[command]);
    if (command == C_CAT_ROWS || command == C_CAT_COLUMNS)
        add(&a, command == C_CAT_ROWS ? "rows" : "columns");
    if (command == C_JSON || command == C_CSV || command == C_JSONL) {
        add(&a, "--to");
        add(&a, command == C_JSON ? "json" : command == C_CSV ? "csv" : "jsonl");
    }
    add(&a, "--no-progress");
    /* The dialect. */
    add(&a, "--delimiter");
    add(&a, delimiters[h[1] & 7]);
    if (((h[1] >> 3) & 3) == 1) {
        add(&a, "--quote");
        add(&a, "'");
    } else if (((h[1] >> 3) & 3) == 2) {
        add(&a, "--no-quote");
    }
    if (h[1] & 0x20)
        add(&a, "--no-header");
    if (h[1] & 0x40)
        add(&a, "--lenient");
    if (h[1] & 0x80) {
        add(&a, "--escape");
        add(&a, "\\\\");
    }
    if ((h[2] & 3) == 1)
        add(&a, "--utf8=lossy");
    else if ((h[2] & 3) == 2)
        add(&a, "--utf8=none");
    if (((h[2] >> 2) & 3) == 1)
        add(&a, "--comment=#");
    else if (((h[2] >> 2) & 3) == 2)
        add(&a, "--comment=\xC2\xA7"); /* § */
    else if (((h[2] >> 2) & 3) == 3)
        add(&a, "--comment=;");
    if (skips[(h[2] >> 4) & 3]) {
        add(&a, "--skip-lines");
        add(&a, skips[(h[2] >> 4) & 3]);
    }
    if (h[2] & 0x40)
        add(&a, "--kernel=scalar");
    /* Limits and the output. */
    if (records[h[3] & 3]) {
        add(&a, "--max-record-size");
        add(&a, records[h[3] & 3]);
    }
    if (fields[(h[3] >> 2) & 3]) {
        add(&a, "--max-fields");
        add(&a, fields[(h[3] >> 2) & 3]);
    }
    const bool csv_out = command == C_JSON || command == C_CSV || command == C_JSONL || command == C_HEAD ||
                         command == C_TAIL || command == C_SLICE || command == C_SELECT || command == C_SEARCH ||
                         command == C_FREQUENCY || command == C_CAT_ROWS || command == C_CAT_COLUMNS;
    if (csv_out && outdelims[(h[3] >> 4) & 3]) {
        add(&a, "--output-delimiter");
        add(&a, outdelims[(h[3] >> 4) & 3]);
    }
    const bool to_file = (h[3] >> 6) == 3 && command != C_CHECK;
    if (to_file) {
        add(&a, "-o");
        add(&a, out_path);
    }
    /* The command's own options. */
    const char *n = numbers[h[4] & 7];
    const bool typed = command == C_SCHEMA || command == C_STATS || command == C_JSONL;
    switch (command) {
    case C_COUNT:
        add(&a, "--threads");
        add(&a, h[4] & 8 ? "2" : "1");
        break;
    case C_CHECK:
        add(&a, "--max-errors");
        add(&a, n);
        break;
    case C_HEAD:
    case C_TAIL:
        add(&a, "-n");
        add(&a, n);
        break;
    case C_SLICE:
        add(&a, "--start");
        add(&a, numbers[h[4] & 3]);
        add(&a, "--end");
        add(&a, numbers[(h[4] >> 2) & 7]);
        break;
    case C_SELECT:
        add(&a, "--");
        add(&a, s2[0] ? s2 : "1");
        break;
    case C_SEARCH:
        if (h[6] & 1)
            add(&a, "-r");
        if (h[6] & 2)
            add(&a, "-i");
        if (h[6] & 4)
            add(&a, "-v");
        if ((h[6] & 8) && s2[0]) {
            add(&a, "-c");
            add(&a, s2);
        }
        add(&a, "--");
        add(&a, s1);
        break;
    case C_FREQUENCY:
        add(&a, "--limit");
        add(&a, n);
        if ((h[6] & 8) && s2[0]) {
            add(&a, "--select");
            add(&a, s2);
        }
        break;
    case C_TABLE:
        add(&a, "--width");
        add(&a, h[4] ? number : "40");
        break;
    default:
        break;
    }
    if (typed) {
        add(&a, "--threads");
        add(&a, h[5] & 1 ? "2" : "1");
        if (infer[(h[5] >> 1) & 3]) {
            add(&a, "--infer-rows");
            add(&a, infer[(h[5] >> 1) & 3]);
        }
        if (h[5] & 0x08)
            add(&a, "--on-error=null");
        if (h[5] & 0x10)
            add(&a, "--short-rows=error");
        if (h[5] & 0x20)
            add(&a, "--long-rows=truncate");
        if (h[5] & 0x40)
            add(&a, "--decimal-comma");
        if (h[5] & 0x80) {
            add(&a, "--row-limit");
            add(&a, n);
        }
        static const char *const string_options[4] = {"--schema", "--null-values", "--true-values",
                                                      "--false-values"};
        if (h[6] & 0xF0) {
            add(&a, string_options[(h[6] >> 4) & 3]);
            add(&a, s1);
        }
        if ((h[6] & 8) && s2[0]) {
            add(&a, "--columns");
            add(&a, s2);
        }
        /* Arrow string views: stats and jsonl read each view's inline
         * bytes or its buffer and offset, a layout of its own. */
        if (h[2] & 0x80)
            add(&a, "--strings=view");
    }
    if (command != C_SELECT && command != C_SEARCH)
        add(&a, "--");
    add(&a, in_path);
    if (command == C_CAT_ROWS || command == C_CAT_COLUMNS)
        add(&a, in_path);

    /* The count's threads split even small files (see cmd_count.c). */
    if (command == C_COUNT && (h[4] & 16))
        setenv("SIMDSV_TEST_COUNT_CHUNK", "3", 1);
    run_result first, second;
    run_once(a.n, a.v, to_file, &first);
    run_once(a.n, a.v, to_file, &second);
    unsetenv("SIMDSV_TEST_COUNT_CHUNK");
    if (first.status != second.status || first.out.len != second.out.len ||
        (first.out.len && memcmp(first.out.data, second.out.data, first.out.len) != 0) ||
        first.err_len != second.err_len || (first.err_len && memcmp(first.err, second.err, first.err_len) != 0)) {
        fprintf(stderr, "fuzz_cli: two runs of one input differ\n--- first (status %d):\n%.*s\n%.*s\n"
                        "--- second (status %d):\n%.*s\n%.*s\n",
                first.status, (int)first.out.len, first.out.data, (int)first.err_len, first.err, second.status,
                (int)second.out.len, second.out.data, (int)second.err_len, second.err);
        abort();
    }
    result_free(&first);
    result_free(&second);
    return 0;
}
