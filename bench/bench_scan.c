/*
 * bench_scan.c — throughput of the engine on one file, per kernel, warm
 * cache, single thread unless --threads says otherwise.  The file is read
 * into memory first, so the numbers are the parser's, not the disk's.
 *
 *   bench_scan FILE [--kernel K] [--repeat N] [--op count|count-file|count-map|index|iterate|batch|batch-raw|range-summary|all]
 *              [--threads LIST] [--escape C] [--comment S] [--lenient 1] [--delimiter S]
 *
 * count:   simdsv_reader_count (records, quote-aware, strict checks)
 * count-file: the same on the file opened by path (read(), or pread() per
 *          thread when counting in parallel), so from the page cache
 * count-map: the same on the file opened by path and mapped
 *          (SIMDSV_OPT_MMAP=1): the page cache without a copy
 * index:   the kernel alone producing every field/record boundary
 * iterate: simdsv_reader_next over every record, touching each field's
 *          pointer and length
 * batch:   simdsv_reader_next_batch over every record, touching each field's
 *          pointer and length (simdsv_batch_field), as iterate does
 * range-summary: simdsv_range_summarize over 8 MiB ranges of the input (as
 *          `simdsv stats` cuts a file), then simdsv_range_combine; the check
 *          is the sum of the ranges' record starts
 * Prints one line per op: op, kernel, GB/s (median of N runs), cpu_GB/s (the
 * same from the process's CPU time), and a checksum.
 *
 * --threads LIST (e.g. 1,2): SIMDSV_OPT_THREADS for the count ops, one line
 * per value; the values take turns within each repeat (interleaved, so that
 * a noisy machine slows them alike), and with more than one value each line
 * also gives its median time relative to the first value's.
 *
 * --escape, --comment, --lenient, --delimiter: the dialect of the count ops
 * (bench/dialects.py: the dialects the chunk planner cuts at line ends).
 */
#define _POSIX_C_SOURCE 200809L
#include "simdsv.h"
#include "../src/scan/scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of this process: on a shared machine, steadier than the wall clock. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static unsigned char *load(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static int threads = 1;         /* SIMDSV_OPT_THREADS of the count ops */
static const char *path;        /* the file (count-file) */
static int escape = -1, lenient; /* the dialect: SIMDSV_OPT_ESCAPE, SIMDSV_OPT_LENIENT, */
static const char *comment, *delimiter; /* SIMDSV_OPT_COMMENT_STRING, SIMDSV_OPT_DELIMITER_STRING */

static simdsv_options *bench_options(simdsv_kernel kernel)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_KERNEL, kernel);
    simdsv_options_set(opt, SIMDSV_OPT_THREADS, threads);
    simdsv_options_set(opt, SIMDSV_OPT_UTF8, SIMDSV_UTF8_NONE);
    simdsv_options_set(opt, SIMDSV_OPT_ESCAPE, escape);
    simdsv_options_set(opt, SIMDSV_OPT_LENIENT, lenient);
    if (comment)
        simdsv_options_set_string(opt, SIMDSV_OPT_COMMENT_STRING, comment);
    if (delimiter)
        simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, delimiter);
    return opt;
}

static simdsv_reader *open_reader(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    simdsv_options *opt = bench_options(kernel);
    simdsv_reader *r = NULL;
    if (simdsv_reader_new(&r, opt) != SIMDSV_OK || simdsv_reader_open_memory(r, data, size) != SIMDSV_OK) {
        fprintf(stderr, "cannot create a reader with kernel %s\n", simdsv_kernel_name(kernel));
        exit(2);
    }
    simdsv_options_free(opt);
    return r;
}

static uint64_t op_count(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    simdsv_reader *r = open_reader(data, size, kernel);
    uint64_t n = 0;
    if (simdsv_reader_count(r, &n) != SIMDSV_OK)
        fprintf(stderr, "count failed: %s\n", simdsv_reader_error(r)->message);
    simdsv_reader_free(r);
    return n;
}

static uint64_t op_range_summary(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    enum { RANGE = 8 << 20 };
    simdsv_options *opt = bench_options(kernel);
    const size_t n = size ? (size + RANGE - 1) / RANGE : 1;
    simdsv_range_summary *s = malloc(n * sizeof *s);
    simdsv_range *out = malloc(n * sizeof *out);
    uint64_t sum = 0;
    for (size_t i = 0; s && i < n; i++) {
        const size_t b = i * (size_t)RANGE, e = b + RANGE < size ? b + RANGE : size;
        if (simdsv_range_summarize(opt, data + b, e - b, b, b ? data[b - 1] : -1, &s[i], NULL) != SIMDSV_OK) {
            fprintf(stderr, "range-summary: this dialect is refused\n");
            exit(2);
        }
    }
    if (s && out && simdsv_range_combine(s, n, out) == SIMDSV_OK)
        for (size_t i = 0; i < n; i++)
            sum += out[i].start;
    free(s);
    free(out);
    simdsv_options_free(opt);
    return sum;
}

static uint64_t count_path(simdsv_kernel kernel, int mapped)
{
    simdsv_options *opt = bench_options(kernel);
    simdsv_options_set(opt, SIMDSV_OPT_MMAP, mapped);
    simdsv_reader *r = NULL;
    uint64_t n = 0;
    if (simdsv_reader_new(&r, opt) != SIMDSV_OK || simdsv_reader_open_path(r, path) != SIMDSV_OK) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    if (simdsv_reader_count(r, &n) != SIMDSV_OK)
        fprintf(stderr, "count failed: %s\n", simdsv_reader_error(r)->message);
    simdsv_reader_free(r);
    simdsv_options_free(opt);
    return n;
}

static uint64_t op_count_file(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    (void)data;
    (void)size;
    return count_path(kernel, 0);
}

static uint64_t op_count_map(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    (void)data;
    (void)size;
    return count_path(kernel, 1);
}

static uint64_t op_index(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    const scan_kernel *k = simdsv__kernel_get(kernel);
    static uint32_t index[(64 << 10) + SCAN_INDEX_SLACK];
    scan_dialect d = {',', '"', 0, 0, 1, 0, 0, 1};
    scan_state s;
    scan_state_reset(&s);
    uint64_t total = 0;
    for (size_t pos = 0; pos < size;) {
        size_t chunk = size - pos < (64 << 10) ? size - pos : (64 << 10);
        const scan_result res = k->scan_index(&d, &s, data + pos, chunk, pos + chunk == size, index);
        total += res.index_count;
        if (res.stopped) { /* irregular quoting: skip the byte (benchmark only) */
            pos += res.consumed + 1;
            scan_state_reset(&s);
            continue;
        }
        pos += res.consumed;
        if (res.consumed == 0)
            break;
    }
    return total;
}

static uint64_t op_iterate(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    simdsv_reader *r = open_reader(data, size, kernel);
    simdsv_record rec;
    uint64_t sum = 0;
    simdsv_status st;
    while ((st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
        for (size_t i = 0; i < rec.field_count; i++)
            sum += (uintptr_t)rec.fields[i].data + rec.fields[i].size;
    if (st != SIMDSV_END)
        fprintf(stderr, "iterate failed: %s\n", simdsv_reader_error(r)->message);
    simdsv_reader_free(r);
    return sum;
}

static uint64_t op_batch(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    simdsv_reader *r = open_reader(data, size, kernel);
    simdsv_batch b;
    uint64_t sum = 0;
    simdsv_status st;
    while ((st = simdsv_reader_next_batch(r, &b)) == SIMDSV_OK)
        for (size_t k = 0; k < b.count; k++)
            for (size_t j = 0, n = simdsv_batch_fields(&b, k); j < n; j++) {
                const simdsv_field f = simdsv_batch_field(&b, k, j);
                sum += (uintptr_t)f.data + f.size;
            }
    if (st != SIMDSV_END)
        fprintf(stderr, "batch failed: %s\n", simdsv_reader_error(r)->message);
    simdsv_reader_free(r);
    return sum;
}

/* The batch API as a caller that wants raw text reads it: when flags_any
 * is 0 (no field quoted, to decode or invalid), field j of record k is
 * data[o[j], o[j+1] - 1) with o = bounds + first[k], with no per-field look
 * at the flags; otherwise the general accessor. */
static uint64_t op_batch_raw(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    simdsv_reader *r = open_reader(data, size, kernel);
    simdsv_batch b;
    uint64_t sum = 0;
    simdsv_status st;
    while ((st = simdsv_reader_next_batch(r, &b)) == SIMDSV_OK) {
        if (b.flags_any == 0) {
            for (size_t k = 0; k < b.count; k++) {
                const uint32_t *o = b.bounds + b.first[k];
                for (size_t j = 0, n = simdsv_batch_fields(&b, k); j < n; j++)
                    sum += (uintptr_t)(b.data + o[j]) + (o[j + 1] - 1 - o[j]);
            }
            continue;
        }
        for (size_t k = 0; k < b.count; k++)
            for (size_t j = 0, n = simdsv_batch_fields(&b, k); j < n; j++) {
                const simdsv_field f = simdsv_batch_field(&b, k, j);
                sum += (uintptr_t)f.data + f.size;
            }
    }
    if (st != SIMDSV_END)
        fprintf(stderr, "batch-raw failed: %s\n", simdsv_reader_error(r)->message);
    simdsv_reader_free(r);
    return sum;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_scan FILE [--kernel K] [--repeat N] [--op count|count-file|count-map|index|iterate|batch|batch-raw|range-summary|all]"
                        " [--threads LIST] [--escape C] [--comment S] [--lenient 1] [--delimiter S]\n");
        return 2;
    }
    simdsv_kernel kernel;
    simdsv_kernel_best(&kernel);
    int repeat = 5;
    const char *ops = "all";
    int thread_list[16] = {1};
    size_t nthreads = 1;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--kernel") == 0)
            kernel = (simdsv_kernel)simdsv_kernel_from_name(argv[i + 1]);
        else if (strcmp(argv[i], "--repeat") == 0)
            repeat = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--op") == 0)
            ops = argv[i + 1];
        else if (strcmp(argv[i], "--escape") == 0)
            escape = (unsigned char)argv[i + 1][0];
        else if (strcmp(argv[i], "--comment") == 0)
            comment = argv[i + 1];
        else if (strcmp(argv[i], "--lenient") == 0)
            lenient = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--delimiter") == 0)
            delimiter = argv[i + 1];
        else if (strcmp(argv[i], "--threads") == 0) {
            nthreads = 0;
            for (const char *p = argv[i + 1]; *p && nthreads < 16;) {
                char *next = NULL;
                thread_list[nthreads++] = (int)strtol(p, &next, 10);
                p = *next == ',' ? next + 1 : next + strlen(next);
            }
            if (nthreads == 0)
                thread_list[nthreads++] = 1;
        }
    }
    if ((int)kernel < 0 || !simdsv_kernel_supported(kernel)) {
        fprintf(stderr, "kernel not supported here\n");
        return 77;
    }
    path = argv[1];
    size_t size = 0;
    unsigned char *data = load(argv[1], &size);
    if (!data) {
        perror(argv[1]);
        return 1;
    }
    static const struct {
        const char *name;
        uint64_t (*fn)(const unsigned char *, size_t, simdsv_kernel);
        int threaded;
    } table[] = {{"count", op_count, 1}, {"count-file", op_count_file, 1},
                 {"count-map", op_count_map, 1}, {"index", op_index, 0},
                 {"iterate", op_iterate, 0}, {"batch", op_batch, 0}, {"batch-raw", op_batch_raw, 0},
                 {"range-summary", op_range_summary, 0}};
    if (repeat < 1 || repeat > 100)
        repeat = 5;
    static double times[16][100], cpu_times[16][100];
    for (size_t t = 0; t < sizeof table / sizeof table[0]; t++) {
        if (strcmp(ops, "all") != 0 && strcmp(ops, table[t].name) != 0)
            continue;
        const size_t variants = table[t].threaded ? nthreads : 1;
        uint64_t check[16] = {0};
        for (int i = 0; i < repeat; i++) {
            for (size_t v = 0; v < variants; v++) {
                threads = table[t].threaded ? thread_list[v] : 1;
                const double t0 = now(), c0 = cpu_now();
                check[v] = table[t].fn(data, size, kernel);
                times[v][i] = now() - t0;
                cpu_times[v][i] = cpu_now() - c0;
            }
        }
        double first = 0;
        for (size_t v = 0; v < variants; v++) {
            qsort(times[v], (size_t)repeat, sizeof times[v][0], cmp_double);
            qsort(cpu_times[v], (size_t)repeat, sizeof cpu_times[v][0], cmp_double);
            const double median = times[v][repeat / 2];
            if (v == 0)
                first = median;
            printf("op=%s kernel=%s bytes=%zu", table[t].name, simdsv_kernel_name(kernel), size);
            if (table[t].threaded)
                printf(" threads=%d", thread_list[v]);
            printf(" GB/s=%.2f best=%.2f cpu_GB/s=%.2f check=%llu", (double)size / median / 1e9,
                   (double)size / times[v][0] / 1e9, (double)size / cpu_times[v][repeat / 2] / 1e9,
                   (unsigned long long)check[v]);
            if (variants > 1)
                printf(" speedup=%.2f", first / median);
            printf("\n");
        }
    }
    free(data);
    return 0;
}
