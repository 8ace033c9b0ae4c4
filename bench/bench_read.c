/*
 * bench_read.c — the typed columnar read, timed like the peers' `read` and
 * `read1` ops (bench/typed.sh runs both side by side):
 *
 *   bench_read FILE [--threads N] [--columns LIST] [--mmap 0|1] [--peak 1]
 *              [--lenient 1] [--escape C] [--comment C] [--delimiter S]
 *              [--strings utf8|view]
 *
 * Prints one peer-style line: rows, columns, types and the seconds of
 * simdsv_table_read plus the export to Arrow (the data a consumer gets),
 * the Arrow output's bytes and the anonymous RSS after the export; cpu is
 * the process's user + system time over the same interval, all threads
 * (as the peers report it: on a shared machine it is the steadier number).  With
 * --peak 1 a thread samples the anonymous RSS every millisecond during the
 * read (the mapped input, file-backed, is not counted): peak_anon_kb.
 */
#define _POSIX_C_SOURCE 200809L
#include "simdsv.h"

#include <pthread.h>
#include <sys/resource.h>
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

/* Bytes of the exported buffers (what an Arrow consumer holds). */
static uint64_t arrow_bytes(const struct ArrowSchema *s, const struct ArrowArray *a)
{
    uint64_t total = 0;
    for (int64_t c = 0; c < a->n_children; c++) {
        const struct ArrowArray *x = a->children[c];
        const char *f = s->children[c]->format;
        const uint64_t n = (uint64_t)x->length;
        if (x->n_buffers == 0)
            continue;
        total += (n + 7) / 8; /* validity */
        if (strcmp(f, "b") == 0)
            total += (n + 7) / 8;
        else if (strcmp(f, "tdD") == 0)
            total += 4 * n;
        else if (strcmp(f, "u") == 0)
            total += 4 * (n + 1) + (uint64_t)((const int32_t *)x->buffers[1])[n];
        else if (strcmp(f, "U") == 0)
            total += 8 * (n + 1) + (uint64_t)((const int64_t *)x->buffers[1])[n];
        else if (strcmp(f, "vu") == 0) /* the views and the column's side blocks (not the shared input) */
            total += 16 * n;
        else
            total += 8 * n;
    }
    return total;
}

/* Anonymous (not file-backed) resident memory now, from /proc: the mapped
 * input is file-backed and not counted. */
static long rss_anon_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "RssAnon: %ld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

/* User + system CPU seconds of the process so far, all threads. */
static double cpu_now(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

static volatile int sampling;
static long peak_kb;

static void *sample_rss(void *arg)
{
    (void)arg;
    const struct timespec ms = {0, 1000000};
    while (sampling) {
        const long kb = rss_anon_kb();
        if (kb > peak_kb)
            peak_kb = kb;
        nanosleep(&ms, NULL);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_read FILE [--threads N] [--columns LIST] [--mmap 0|1] [--strings utf8|view]\n");
        return 2;
    }
    simdsv_options *o = simdsv_options_new(NULL);
    int threads = 0, peak = 0;
    simdsv_options_set(o, SIMDSV_OPT_MMAP, 1);
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--threads") == 0) {
            threads = atoi(argv[i + 1]);
            simdsv_options_set(o, SIMDSV_OPT_THREADS, threads);
        } else if (strcmp(argv[i], "--columns") == 0) {
            simdsv_options_set_string(o, SIMDSV_OPT_COLUMNS, argv[i + 1]);
        } else if (strcmp(argv[i], "--mmap") == 0) {
            simdsv_options_set(o, SIMDSV_OPT_MMAP, atoi(argv[i + 1]));
        } else if (strcmp(argv[i], "--lenient") == 0) {
            simdsv_options_set(o, SIMDSV_OPT_LENIENT, atoi(argv[i + 1]));
        } else if (strcmp(argv[i], "--escape") == 0) {
            simdsv_options_set(o, SIMDSV_OPT_ESCAPE, (unsigned char)argv[i + 1][0]);
        } else if (strcmp(argv[i], "--comment") == 0) {
            simdsv_options_set(o, SIMDSV_OPT_COMMENT, (unsigned char)argv[i + 1][0]);
        } else if (strcmp(argv[i], "--delimiter") == 0) { /* 1 to 4 bytes: "||" */
            simdsv_options_set_string(o, SIMDSV_OPT_DELIMITER_STRING, argv[i + 1]);
        } else if (strcmp(argv[i], "--strings") == 0) {
            simdsv_options_set(o, SIMDSV_OPT_STRINGS,
                               strcmp(argv[i + 1], "view") == 0 ? SIMDSV_STRINGS_VIEW : SIMDSV_STRINGS_UTF8);
        } else if (strcmp(argv[i], "--peak") == 0) {
            peak = atoi(argv[i + 1]);
        }
    }
    pthread_t sampler;
    sampling = peak;
    if (peak && pthread_create(&sampler, NULL, sample_rss, NULL) != 0)
        peak = sampling = 0;
    const double t0 = now(), cpu0 = cpu_now();
    simdsv_reader *r = NULL;
    simdsv_table *t = NULL;
    simdsv_status st = simdsv_reader_new(&r, o);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_path(r, argv[1]);
    if (st == SIMDSV_OK)
        st = simdsv_table_read(r, &t);
    struct ArrowSchema schema;
    struct ArrowArray array;
    if (st == SIMDSV_OK)
        st = simdsv_table_move_to_arrow(t, &schema, &array);
    const double seconds = now() - t0, cpu = cpu_now() - cpu0;
    if (peak) {
        sampling = 0;
        pthread_join(sampler, NULL);
    }
    if (st != SIMDSV_OK) {
        fprintf(stderr, "bench_read: %s\n", simdsv_reader_error(r)->message);
        return 1;
    }
    printf("peer=simdsv op=read threads=%d rows=%lld cols=%lld seconds=%.3f cpu=%.3f types=", threads,
           (long long)array.length, (long long)array.n_children, seconds, cpu);
    for (int64_t i = 0; i < array.n_children; i++) {
        simdsv_column_info info;
        simdsv_table_column(t, (size_t)i, &info);
        printf("%s%s", i ? "," : "", simdsv_type_name(info.type));
    }
    printf(" arrow_bytes=%llu rss_anon_kb=%ld", (unsigned long long)arrow_bytes(&schema, &array), rss_anon_kb());
    if (peak)
        printf(" peak_anon_kb=%ld", peak_kb);
    printf("\n");
    array.release(&array);
    schema.release(&schema);
    simdsv_table_free(t);
    simdsv_reader_free(r);
    simdsv_options_free(o);
    return 0;
}
