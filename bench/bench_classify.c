/*
 * bench_classify.c — the two ways a kernel can classify a block's bytes,
 * compared on every ISA this CPU has: one compare per structural byte (what
 * the library's kernels do) and the nibble table lookup (scan_block.h,
 * SCAN_NIBBLE; this program links the nibble variant of each kernel).
 *
 *   bench_classify FILE... [--rounds N] [--kib K]   time both, per dialect
 *   bench_classify --verify [--inputs N]            random inputs: identical results
 *
 * Timing: the first K KiB (default 256, so the buffer stays in L2 and memory
 * bandwidth does not hide the classifier) scanned 64 times per sample, CPU
 * time of this thread (a busy 2-core VM slows wall time, not CPU time), the
 * two classifiers alternating sample by sample; median of N rounds (default
 * 21).  Dialects by their number of structural bytes: 3 (delimiter, LF, CR;
 * no quoting), 4 (+ quote), 5 (+ backslash escape), 6 (+ '#' comment).
 * Every sample's index (or record count) is checked equal between the two.
 */
#define _POSIX_C_SOURCE 200809L
#include "simdsv.h"
#include "../src/scan/scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct variant {
    const char *isa;
    simdsv_kernel id;
    scan_fn index[2], count[2]; /* [0] compare, [1] nibble */
} variant;

static const variant variants[] = {
#if defined(__x86_64__) || defined(_M_X64)
    {"sse42", SIMDSV_KERNEL_SSE42, {simdsv__scan_index_sse42, simdsv__scan_index_sse42_nibble},
     {simdsv__scan_count_sse42, simdsv__scan_count_sse42_nibble}},
    {"avx2", SIMDSV_KERNEL_AVX2, {simdsv__scan_index_avx2, simdsv__scan_index_avx2_nibble},
     {simdsv__scan_count_avx2, simdsv__scan_count_avx2_nibble}},
    {"avx512", SIMDSV_KERNEL_AVX512, {simdsv__scan_index_avx512, simdsv__scan_index_avx512_nibble},
     {simdsv__scan_count_avx512, simdsv__scan_count_avx512_nibble}},
#endif
#if defined(__aarch64__)
    {"neon", SIMDSV_KERNEL_NEON, {simdsv__scan_index_neon, simdsv__scan_index_neon_nibble},
     {simdsv__scan_count_neon, simdsv__scan_count_neon_nibble}},
#endif
};
#define VARIANT_COUNT (sizeof variants / sizeof variants[0])

/* {delimiter, quote, escape, comment, has_quote, has_escape, has_comment, pad} */
static const struct {
    int specials;
    scan_dialect d;
} dialects[] = {
    {3, {',', '"', 0, 0, 0, 0, 0, 1}},
    {4, {',', '"', 0, 0, 1, 0, 0, 1}},
    {5, {',', '"', '\\', 0, 1, 1, 0, 1}},
    {6, {',', '"', '\\', '#', 1, 1, 1, 1}},
};
#define DIALECT_COUNT (sizeof dialects / sizeof dialects[0])

/* Scans all of data like the reader would, restarting after each special
 * byte (the reader's scalar path would handle it), and folds the index
 * entries (fold_entries, to verify; else just their number, to time) or the
 * record count into a checksum the two classifiers must share. */
static uint64_t scan_all(scan_fn fn, const scan_dialect *d, const uint8_t *data, size_t size, uint32_t *index,
                         size_t index_cap, int emit_index, int fold_entries)
{
    scan_state s;
    scan_state_reset(&s);
    uint64_t sum = 0;
    const size_t chunk_max = index_cap - SCAN_INDEX_SLACK;
    for (size_t pos = 0; pos < size;) {
        const size_t chunk = size - pos < chunk_max ? size - pos : chunk_max;
        const scan_result res = fn(d, &s, data + pos, chunk, pos + chunk == size, index);
        if (fold_entries)
            for (size_t i = 0; i < res.index_count; i++)
                sum = (sum ^ (index[i] + pos)) * 0x100000001b3ULL;
        else
            sum = (sum ^ (emit_index ? res.index_count : res.record_ends)) * 0x100000001b3ULL;
        if (res.stopped) {
            sum = (sum ^ (pos + res.consumed)) * 0x100000001b3ULL;
            pos += res.consumed + 1;
            scan_state_reset(&s);
        } else {
            pos += res.consumed;
            if (res.consumed == 0)
                break;
        }
    }
    return sum;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int time_file(const char *path, size_t kib, int rounds)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *data = malloc(kib << 10);
    const size_t size = data ? fread(data, 1, kib << 10, f) : 0;
    fclose(f);
    static uint32_t index[(64 << 10) + SCAN_INDEX_SLACK];
    enum { REPEAT = 64 };
    double *t[2] = {malloc(sizeof(double) * (size_t)rounds), malloc(sizeof(double) * (size_t)rounds)};
    if (!data || !t[0] || !t[1] || size == 0) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    int bad = 0;
    for (size_t v = 0; v < VARIANT_COUNT; v++) {
        if (!simdsv_kernel_supported(variants[v].id))
            continue;
        for (size_t di = 0; di < DIALECT_COUNT; di++) {
            for (int op = 0; op < 2; op++) {
                const scan_fn *fns = op == 0 ? variants[v].index : variants[v].count;
                const size_t cap = sizeof index / sizeof index[0];
                uint64_t check[2], timed[2] = {0, 0};
                for (int c = 0; c < 2; c++)
                    check[c] = scan_all(fns[c], &dialects[di].d, data, size, index, cap, op == 0, op == 0);
                for (int r = 0; r < rounds; r++) {
                    for (int c = 0; c < 2; c++) {
                        const double t0 = cpu_now();
                        for (int i = 0; i < REPEAT; i++)
                            timed[c] += scan_all(fns[c], &dialects[di].d, data, size, index, cap, op == 0, 0);
                        t[c][r] = cpu_now() - t0;
                    }
                }
                qsort(t[0], (size_t)rounds, sizeof(double), cmp_double);
                qsort(t[1], (size_t)rounds, sizeof(double), cmp_double);
                const double gb = (double)size * REPEAT / 1e9;
                const double cmp_gbs = gb / t[0][rounds / 2], nib_gbs = gb / t[1][rounds / 2];
                printf("%-24s %-6s specials=%d op=%-5s compare=%6.2f GB/s nibble=%6.2f GB/s nibble/compare=%.3f%s\n",
                       name, variants[v].isa, dialects[di].specials, op == 0 ? "index" : "count", cmp_gbs, nib_gbs,
                       nib_gbs / cmp_gbs, check[0] == check[1] && timed[0] == timed[1] ? "" : "  RESULTS DIFFER");
                bad |= check[0] != check[1] || timed[0] != timed[1];
            }
        }
    }
    free(t[0]);
    free(t[1]);
    free(data);
    return bad;
}

/* Random inputs over the dialects' structural bytes and a few others, every
 * length up to 300 bytes plus longer ones: both classifiers must give the
 * same index, counts and stops. */
static int verify(int inputs)
{
    static const uint8_t alphabet[] = {',', '"', '\\', '#', '\n', '\r', 'a', '0', ' ', 0x80, 0xc3, 0x2c ^ 0x80, 0x0c};
    static uint32_t index[4096 + SCAN_INDEX_SLACK];
    uint8_t buf[4000];
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    int failures = 0, ran = 0;
    for (int n = 0; n < inputs; n++) {
        const size_t len = n < 300 ? (size_t)n : 300 + (size_t)(seed >> 40) % (sizeof buf - 300);
        for (size_t i = 0; i < len; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            buf[i] = alphabet[(seed >> 33) % sizeof alphabet];
        }
        for (size_t v = 0; v < VARIANT_COUNT; v++) {
            if (!simdsv_kernel_supported(variants[v].id))
                continue;
            for (size_t di = 0; di < DIALECT_COUNT; di++)
                for (int op = 0; op < 2; op++) {
                    const scan_fn *fns = op == 0 ? variants[v].index : variants[v].count;
                    const size_t cap = sizeof index / sizeof index[0];
                    const uint64_t a = scan_all(fns[0], &dialects[di].d, buf, len, index, cap, op == 0, 1);
                    const uint64_t b = scan_all(fns[1], &dialects[di].d, buf, len, index, cap, op == 0, 1);
                    ran++;
                    if (a != b && failures++ < 10)
                        fprintf(stderr, "differ: %s specials=%d op=%s input %d (%zu bytes)\n", variants[v].isa,
                                dialects[di].specials, op == 0 ? "index" : "count", n, len);
                }
        }
    }
    if (ran == 0) {
        printf("no SIMD kernel with a nibble variant on this CPU\n");
        return 77;
    }
    printf("%d comparisons, %d differ\n", ran, failures);
    return failures != 0;
}

int main(int argc, char **argv)
{
    int rounds = 21, inputs = 2000, do_verify = 0, status = 0;
    size_t kib = 256;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--verify") == 0)
            do_verify = 1;
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--kib") == 0 && i + 1 < argc)
            kib = (size_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--inputs") == 0 && i + 1 < argc)
            inputs = atoi(argv[++i]);
    }
    if (rounds < 1 || kib < 1 || inputs < 1) {
        fprintf(stderr, "bench_classify: --rounds, --kib and --inputs take positive numbers\n");
        return 2;
    }
    if (do_verify)
        return verify(inputs);
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 || strcmp(argv[i], "--kib") == 0 || strcmp(argv[i], "--inputs") == 0) {
            i++;
            continue;
        }
        files++;
        status |= time_file(argv[i], kib, rounds);
    }
    if (!files) {
        fprintf(stderr, "usage: bench_classify FILE... [--rounds N] [--kib K] | --verify [--inputs N]\n");
        return 2;
    }
    return status;
}
