/* bench_dataset.c — many files read as one table and exported to Arrow, in
 * process, as the peers' dataset reads are timed (bench/dataset.sh):
 *
 *   bench_dataset [--chunks|--stream] [--mmap] THREADS ROUNDS PATH...
 *                                   (each PATH a file, folder or glob)
 *
 * Prints one line per round, "seconds=S cpu=C rows=N columns=K": the wall
 * and CPU (every thread's) seconds of simdsv_dataset_read +
 * simdsv_table_move_to_arrow + the arrays' release, with the files'
 * columns matched by name.  --chunks: simdsv_dataset_read_chunks instead,
 * each chunk moved to Arrow and kept until the end (a table of one record
 * batch per file, as Python's read_csv of many files returns it).
 * --stream: the dataset's Arrow stream instead,
 * every record batch kept until the end (an Arrow table of many chunks, as
 * pyarrow's dataset to_table, polars' collect and DuckDB's Arrow result
 * are).  --mmap: files mapped (SIMDSV_OPT_MMAP), as bench_read and polars
 * read them.  On a shared machine the CPU seconds are the steadier
 * measure. */
#define _POSIX_C_SOURCE 200809L
#include "simdsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The dataset streamed, every batch kept until the end; its rows and
 * columns, or -1 when the stream failed. */
static int stream_all(simdsv_dataset *ds, uint64_t *rows, size_t *columns)
{
    struct ArrowArrayStream stream;
    if (simdsv_dataset_stream(ds, &stream) != SIMDSV_OK)
        return -1;
    struct ArrowSchema schema;
    if (stream.get_schema(&stream, &schema) != 0) {
        stream.release(&stream);
        return -1;
    }
    *columns = (size_t)schema.n_children;
    schema.release(&schema);
    struct ArrowArray *batches = NULL;
    size_t n = 0, cap = 0;
    int failed = 0;
    *rows = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            struct ArrowArray *grown = realloc(batches, cap * sizeof *batches);
            if (!grown) {
                failed = 1;
                break;
            }
            batches = grown;
        }
        if (stream.get_next(&stream, &batches[n]) != 0) {
            fprintf(stderr, "bench_dataset: %s\n", stream.get_last_error(&stream));
            failed = 1;
            break;
        }
        if (!batches[n].release)
            break;
        *rows += (uint64_t)batches[n].length;
        n++;
    }
    for (size_t i = 0; i < n; i++)
        batches[i].release(&batches[i]);
    free(batches);
    stream.release(&stream);
    return failed ? -1 : 0;
}

/* The dataset read in chunks, each moved to Arrow, all kept until the end
 * as a table of record batches holds them; its rows and columns, or -1. */
static int chunks_all(simdsv_dataset *ds, uint64_t *rows, size_t *columns)
{
    size_t n = 0;
    if (simdsv_dataset_read_chunks(ds, &n) != SIMDSV_OK)
        return -1;
    struct ArrowArray *arrays = calloc(n ? n : 1, sizeof *arrays);
    struct ArrowSchema schema = {0};
    int failed = !arrays;
    *rows = 0;
    for (size_t k = 0; k < n && !failed; k++) {
        simdsv_table *t = simdsv_dataset_take_chunk(ds, k);
        *rows += simdsv_table_rows(t);
        *columns = simdsv_table_columns(t);
        if (schema.release)
            schema.release(&schema);
        failed = simdsv_table_move_to_arrow(t, &schema, &arrays[k]) != SIMDSV_OK;
        simdsv_table_free(t);
    }
    for (size_t k = 0; arrays && k < n; k++)
        if (arrays[k].release)
            arrays[k].release(&arrays[k]);
    if (schema.release)
        schema.release(&schema);
    free(arrays);
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    int streamed = 0, mapped = 0, chunked = 0;
    for (; argc > 1 && strncmp(argv[1], "--", 2) == 0; argc--, argv++) {
        if (strcmp(argv[1], "--chunks") == 0)
            chunked = 1;
        else if (strcmp(argv[1], "--stream") == 0)
            streamed = 1;
        else if (strcmp(argv[1], "--mmap") == 0)
            mapped = 1;
        else
            argc = 0; /* unknown: the usage */
    }
    if (argc < 4) {
        fprintf(stderr, "usage: bench_dataset [--chunks|--stream] [--mmap] THREADS ROUNDS PATH...\n");
        return 2;
    }
    simdsv_options *opt = simdsv_options_new(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_THREADS, atoi(argv[1]));
    simdsv_options_set(opt, SIMDSV_OPT_MMAP, mapped);
    simdsv_options_set(opt, SIMDSV_OPT_UNION_BY_NAME, 1);
    const int rounds = atoi(argv[2]);
    for (int round = 0; round < rounds; round++) {
        simdsv_dataset *ds = NULL;
        simdsv_table *t = NULL;
        const double start = seconds_of(CLOCK_MONOTONIC), cpu_start = seconds_of(CLOCK_PROCESS_CPUTIME_ID);
        simdsv_status st = simdsv_dataset_new(&ds, opt, NULL);
        for (int i = 3; i < argc && st == SIMDSV_OK; i++)
            st = simdsv_dataset_add_path(ds, argv[i]);
        uint64_t rows = 0;
        size_t columns = 0;
        if (st == SIMDSV_OK && streamed) {
            if (stream_all(ds, &rows, &columns) != 0)
                st = SIMDSV_ERR_IO;
        } else if (st == SIMDSV_OK && chunked) {
            if (chunks_all(ds, &rows, &columns) != 0)
                st = SIMDSV_ERR_IO;
        } else if (st == SIMDSV_OK) {
            st = simdsv_dataset_read(ds, &t);
        }
        if (st != SIMDSV_OK) {
            const long f = simdsv_dataset_error_file(ds);
            fprintf(stderr, "bench_dataset: %s: %s\n", f >= 0 ? simdsv_dataset_file(ds, (size_t)f) : "",
                    simdsv_dataset_error(ds)->message);
            return 1;
        }
        if (!streamed && !chunked) {
            rows = simdsv_table_rows(t);
            columns = simdsv_table_columns(t);
            struct ArrowSchema schema;
            struct ArrowArray array;
            if (simdsv_table_move_to_arrow(t, &schema, &array) != SIMDSV_OK)
                return 1;
            array.release(&array);
            schema.release(&schema);
        }
        const double seconds = seconds_of(CLOCK_MONOTONIC) - start;
        const double cpu = seconds_of(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
        simdsv_table_free(t);
        simdsv_dataset_free(ds);
        printf("seconds=%.4f cpu=%.4f rows=%llu columns=%zu\n", seconds, cpu, (unsigned long long)rows, columns);
    }
    simdsv_options_free(opt);
    return 0;
}
