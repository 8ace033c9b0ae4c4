/*
 * bench_scan.c — throughput of the engine on one file, per kernel, warm
 * cache, single thread.  The file is read into memory first, so the numbers
 * are the parser's, not the disk's.
 *
 *   bench_scan FILE [--kernel K] [--repeat N] [--op count|index|iterate|all]
 *
 * count:   simdsv_reader_count (records, quote-aware, strict checks)
 * index:   the kernel alone producing every field/record boundary
 * iterate: simdsv_reader_next over every record, touching each field's
 *          pointer and length
 * Prints one line per op: op, kernel, GB/s (median of N runs), and a checksum.
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

static simdsv_reader *open_reader(const unsigned char *data, size_t size, simdsv_kernel kernel)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_KERNEL, kernel);
    simdsv_options_set(opt, SIMDSV_OPT_UTF8, SIMDSV_UTF8_NONE);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_scan FILE [--kernel K] [--repeat N] [--op count|index|iterate|all]\n");
        return 2;
    }
    simdsv_kernel kernel;
    simdsv_kernel_best(&kernel);
    int repeat = 5;
    const char *ops = "all";
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--kernel") == 0)
            kernel = (simdsv_kernel)simdsv_kernel_from_name(argv[i + 1]);
        else if (strcmp(argv[i], "--repeat") == 0)
            repeat = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--op") == 0)
            ops = argv[i + 1];
    }
    if ((int)kernel < 0 || !simdsv_kernel_supported(kernel)) {
        fprintf(stderr, "kernel not supported here\n");
        return 77;
    }
    size_t size = 0;
    unsigned char *data = load(argv[1], &size);
    if (!data) {
        perror(argv[1]);
        return 1;
    }
    static const struct {
        const char *name;
        uint64_t (*fn)(const unsigned char *, size_t, simdsv_kernel);
    } table[] = {{"count", op_count}, {"index", op_index}, {"iterate", op_iterate}};
    if (repeat < 1 || repeat > 100)
        repeat = 5;
    double times[100];
    for (size_t t = 0; t < sizeof table / sizeof table[0]; t++) {
        if (strcmp(ops, "all") != 0 && strcmp(ops, table[t].name) != 0)
            continue;
        uint64_t check = 0;
        for (int i = 0; i < repeat; i++) {
            const double t0 = now();
            check = table[t].fn(data, size, kernel);
            times[i] = now() - t0;
        }
        qsort(times, (size_t)repeat, sizeof times[0], cmp_double);
        printf("op=%s kernel=%s bytes=%zu GB/s=%.2f best=%.2f check=%llu\n", table[t].name,
               simdsv_kernel_name(kernel), size, (double)size / times[repeat / 2] / 1e9,
               (double)size / times[0] / 1e9, (unsigned long long)check);
    }
    free(data);
    return 0;
}
