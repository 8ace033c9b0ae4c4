/* bench_dataset.c — many files read as one table and exported to Arrow, in
 * process, as the peers' dataset reads are timed (bench/dataset.sh):
 *
 *   bench_dataset THREADS ROUNDS PATH...     (each PATH a file, folder or glob)
 *
 * Prints one line per round, "seconds=S cpu=C rows=N columns=K": the wall
 * and CPU (every thread's) seconds of simdsv_dataset_read +
 * simdsv_table_move_to_arrow + the arrays' release, with the files'
 * columns matched by name.  On a shared machine the CPU seconds are the
 * steadier measure. */
#define _POSIX_C_SOURCE 200809L
#include "simdsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_dataset THREADS ROUNDS PATH...\n");
        return 2;
    }
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_THREADS, atoi(argv[1]));
    simdsv_options_set(opt, SIMDSV_OPT_UNION_BY_NAME, 1);
    const int rounds = atoi(argv[2]);
    for (int round = 0; round < rounds; round++) {
        simdsv_dataset *ds = NULL;
        simdsv_table *t = NULL;
        const double start = seconds_of(CLOCK_MONOTONIC), cpu_start = seconds_of(CLOCK_PROCESS_CPUTIME_ID);
        simdsv_status st = simdsv_dataset_new(&ds, opt, NULL);
        for (int i = 3; i < argc && st == SIMDSV_OK; i++)
            st = simdsv_dataset_add_path(ds, argv[i]);
        if (st == SIMDSV_OK)
            st = simdsv_dataset_read(ds, &t);
        if (st != SIMDSV_OK) {
            const long f = simdsv_dataset_error_file(ds);
            fprintf(stderr, "bench_dataset: %s: %s\n", f >= 0 ? simdsv_dataset_file(ds, (size_t)f) : "",
                    simdsv_dataset_error(ds)->message);
            return 1;
        }
        const uint64_t rows = simdsv_table_rows(t);
        const size_t columns = simdsv_table_columns(t);
        struct ArrowSchema schema;
        struct ArrowArray array;
        if (simdsv_table_move_to_arrow(t, &schema, &array) != SIMDSV_OK)
            return 1;
        array.release(&array);
        schema.release(&schema);
        const double seconds = seconds_of(CLOCK_MONOTONIC) - start;
        const double cpu = seconds_of(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
        simdsv_table_free(t);
        simdsv_dataset_free(ds);
        printf("seconds=%.4f cpu=%.4f rows=%llu columns=%zu\n", seconds, cpu, (unsigned long long)rows, columns);
    }
    simdsv_options_free(opt);
    return 0;
}
