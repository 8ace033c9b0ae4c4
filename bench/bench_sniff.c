/* bench_sniff FILE [RUNS] — the CPU time of one detection (simdsv_sniff_path:
 * the start, middle and end of FILE), averaged over RUNS calls (default 100)
 * in one process, so the process start is not counted (bench/sniff.sh times
 * whole commands). */
#define _POSIX_C_SOURCE 200809L
#include "simdsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_sniff FILE [RUNS]\n");
        return 2;
    }
    const int runs = argc > 2 ? atoi(argv[2]) : 100;
    const double t0 = cpu_ms();
    for (int i = 0; i < runs; i++) {
        simdsv_sniff *s = NULL;
        int err = 0;
        if (simdsv_sniff_path(argv[1], NULL, &s, &err) != SIMDSV_OK) {
            fprintf(stderr, "bench_sniff: %s: cannot sniff\n", argv[1]);
            return 1;
        }
        simdsv_sniff_free(s);
    }
    printf("%.3f ms of CPU per sniff (%d runs)\n", (cpu_ms() - t0) / runs, runs);
    return 0;
}
