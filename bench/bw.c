/*
 * bw.c — the memory-read floor that the scan numbers are compared against:
 * how fast one thread can merely stream a buffer of the same size through
 * 16-byte vector loads, with nothing done per byte but an XOR.  A CSV kernel
 * that reads a 200 MB in-memory buffer cannot beat this on the same machine
 * in the same minute, so bench/run.sh prints it next to bench_scan.
 *
 *   bench_bw [SIZE_MB] [--repeat N]       (SIZE_MB default 200, 1 MB = 1e6 bytes)
 *
 * Prints one line like bench_scan: op=read-bw, GB/s (median of N runs),
 * best, and a checksum that keeps the loop from being optimised away.
 *
 * Portable on purpose: GCC/Clang vector extensions at 16 bytes compile to
 * SSE2 on x86-64 and NEON on aarch64, the baseline of each, so no ISA flag
 * is needed (a 16-byte load per cycle is far above DRAM bandwidth anyway).
 * The buffer is written before the first run so page faults are not timed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t vec128 __attribute__((vector_size(16)));

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

/* XOR every 16-byte block into four independent accumulators (64 bytes per
 * iteration, so the loop is never latency-bound); the tail goes bytewise. */
static uint64_t read_all(const unsigned char *data, size_t size)
{
    vec128 acc0 = {0, 0}, acc1 = {0, 0}, acc2 = {0, 0}, acc3 = {0, 0};
    size_t pos = 0;
    for (; pos + 64 <= size; pos += 64) {
        vec128 v0, v1, v2, v3;
        memcpy(&v0, data + pos, 16);
        memcpy(&v1, data + pos + 16, 16);
        memcpy(&v2, data + pos + 32, 16);
        memcpy(&v3, data + pos + 48, 16);
        acc0 ^= v0;
        acc1 ^= v1;
        acc2 ^= v2;
        acc3 ^= v3;
    }
    const vec128 acc = acc0 ^ acc1 ^ acc2 ^ acc3;
    uint64_t sum = acc[0] ^ acc[1];
    for (; pos < size; pos++)
        sum += data[pos];
    return sum;
}

int main(int argc, char **argv)
{
    double size_mb = 200;
    int repeat = 9;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fprintf(stderr, "usage: bench_bw [SIZE_MB] [--repeat N]\n");
            return 0;
        } else
            size_mb = atof(argv[i]);
    }
    if (repeat < 1 || repeat > 100)
        repeat = 9;
    if (!(size_mb > 0))
        size_mb = 200;
    const size_t size = (size_t)(size_mb * 1e6);
    unsigned char *data = malloc(size);
    if (!data) {
        perror("malloc");
        return 1;
    }
    for (size_t i = 0; i < size; i++) /* touch every page; bytes look like text */
        data[i] = (unsigned char)(' ' + (i * 7) % 95);

    double times[100];
    uint64_t check = 0;
    read_all(data, size); /* warm-up: TLB, frequency */
    for (int i = 0; i < repeat; i++) {
        const double t0 = now();
        check ^= read_all(data, size);
        times[i] = now() - t0;
    }
    qsort(times, (size_t)repeat, sizeof times[0], cmp_double);
    printf("op=read-bw bytes=%zu GB/s=%.2f best=%.2f check=%llu\n", size,
           (double)size / times[repeat / 2] / 1e9, (double)size / times[0] / 1e9,
           (unsigned long long)check);
    free(data);
    return 0;
}
