/*
 * floor.c — what reading a warm file costs before any byte is looked at:
 * the CPU floor under `simdsv count FILE` and every other whole-file read.
 * Each way of getting the file's bytes into view is timed doing no work on
 * them but one load a page (so the pages are really there), in CPU seconds
 * (user + system, getrusage): on a shared machine the steadier number, and
 * the one that says what a read costs the machine rather than how long it
 * waited for a core.
 *
 *   bench_floor FILE [--repeat N]
 *
 * Ways (one line each: the median of N runs, the best, and GB/s of CPU):
 *   map           mmap, one load a 4 KiB page, munmap
 *   map-populate  the same with MAP_POPULATE (the page table built in mmap)
 *   map-exit      map in a forked child, one load a page, _exit without
 *                 munmap: the teardown is the exit's (a process about to exit
 *                 need not unmap); the child's CPU from wait4, less fork-exit
 *   fork-exit     a forked child that exits at once (map-exit's baseline)
 *   madv-huge     a 2 MiB-aligned map with MADV_HUGEPAGE (page-cache folios
 *                 of 2 MiB would be mapped by one entry each)
 *   read-1m       read() into one reused 1 MiB buffer: the copy out of the
 *                 page cache, no page-table work
 *   anon          a fresh anonymous buffer of the file's size, one store a
 *                 page, munmap: what holding the whole input costs a read()
 *                 path before it copies a byte (the kernel zeroes each page;
 *                 on a VM that hands freed memory back to its host, the host
 *                 faults it in again first)
 *   anon-huge     the same, 2 MiB-aligned, with MADV_HUGEPAGE
 *   exec          fork + exec of this program doing nothing (a C process's
 *                 start and exit, the floor of any CLI command), the child's
 *                 CPU from wait4
 *
 * Not a test: its numbers vary with the machine's load; docs/BENCHMARKS.md
 * quotes them with the load average beside them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096u

static double cpu_seconds(int who)
{
    struct rusage u;
    getrusage(who, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
           (double)u.ru_stime.tv_usec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One load a page, summed so the compiler keeps every load. */
static unsigned touch(const unsigned char *p, size_t size)
{
    unsigned sum = 0;
    for (size_t at = 0; at < size; at += PAGE)
        sum += *(const volatile unsigned char *)(p + at);
    return sum;
}

enum way { MAP, MAP_POPULATE_WAY, MAP_EXIT, FORK_EXIT, MADV_HUGE, READ_1M, ANON, ANON_HUGE, EXEC, WAYS };
static const char *const way_name[WAYS] = {"map",     "map-populate", "map-exit", "fork-exit", "madv-huge",
                                           "read-1m", "anon",         "anon-huge", "exec"};

/* SIZE bytes of address space starting on a 2 MiB boundary: the file mapped
 * there (FD >= 0) or fresh anonymous memory (FD < 0); NULL on failure. */
static unsigned char *map_aligned(int fd, size_t size)
{
    const size_t huge = (size_t)2 << 20;
    unsigned char *area = mmap(NULL, size + huge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED)
        return NULL;
    unsigned char *aligned = (unsigned char *)(((uintptr_t)area + huge - 1) & ~(uintptr_t)(huge - 1));
    unsigned char *p = fd >= 0 ? mmap(aligned, size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0)
                               : mmap(aligned, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p == MAP_FAILED) {
        munmap(area, size + huge);
        return NULL;
    }
    if (aligned > area)
        munmap(area, (size_t)(aligned - area));
    munmap(aligned + size, (size_t)(area + size + huge - (aligned + size)));
    madvise(p, size, MADV_HUGEPAGE);
    return p;
}

/* The CPU seconds of a child that runs BODY (or execs SELF when BODY is
 * NULL) and exits, or -1. */
static double child(int (*body)(int, size_t), int fd, size_t size, const char *self)
{
    const double before = cpu_seconds(RUSAGE_CHILDREN);
    const pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (!body)
            execl(self, self, "--nothing", (char *)NULL);
        _exit(body ? body(fd, size) : 127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return cpu_seconds(RUSAGE_CHILDREN) - before;
}

static int map_and_exit(int fd, size_t size)
{
    const unsigned char *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return 1;
    (void)touch(p, size); /* volatile loads: made although the sum is unused */
    return 0;
}

static int nothing(int fd, size_t size)
{
    (void)fd;
    (void)size;
    return 0;
}

/* One run of WAY over FD (SIZE bytes); returns the CPU seconds, or -1. */
static double run(enum way w, int fd, size_t size, const char *self, unsigned *sum)
{
    if (w == EXEC)
        return child(NULL, fd, size, self);
    if (w == MAP_EXIT)
        return child(map_and_exit, fd, size, self);
    if (w == FORK_EXIT)
        return child(nothing, fd, size, self);
    const double before = cpu_seconds(RUSAGE_SELF);
    if (w == READ_1M) {
        static unsigned char buf[1 << 20];
        ssize_t got;
        if (lseek(fd, 0, SEEK_SET) != 0)
            return -1;
        while ((got = read(fd, buf, sizeof buf)) > 0)
            *sum += touch(buf, (size_t)got);
        if (got < 0)
            return -1;
        return cpu_seconds(RUSAGE_SELF) - before;
    }
    unsigned char *p;
    if (w == ANON || w == ANON_HUGE) {
        p = w == ANON_HUGE ? map_aligned(-1, size)
                           : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (!p || p == MAP_FAILED)
            return -1;
        for (size_t at = 0; at < size; at += PAGE)
            p[at] = (unsigned char)at;
        *sum += touch(p, size);
        munmap(p, size);
        return cpu_seconds(RUSAGE_SELF) - before;
    }
    if (w == MADV_HUGE) {
        if (!(p = map_aligned(fd, size)))
            return -1;
    } else {
        p = mmap(NULL, size, PROT_READ, MAP_SHARED | (w == MAP_POPULATE_WAY ? MAP_POPULATE : 0), fd, 0);
        if (p == MAP_FAILED)
            return -1;
    }
    *sum += touch(p, size);
    munmap(p, size);
    return cpu_seconds(RUSAGE_SELF) - before;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--nothing") == 0)
        return 0;
    const char *path = NULL;
    int repeat = 9;
    double idle = 1.5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--idle") == 0 && i + 1 < argc)
            idle = atof(argv[++i]);
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path || repeat < 1 || repeat > 64) {
        fprintf(stderr, "usage: bench_floor FILE [--repeat N] [--idle SECONDS]   (N from 1 to 64)\n");
        return 2;
    }
    const int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        perror(path);
        return 1;
    }
    const size_t size = (size_t)st.st_size;
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        perror("/proc/self/exe");
        return 1;
    }
    self[n] = '\0';
    unsigned sum = 0;
    double times[WAYS][64];
    /* Warm the page cache, then interleave: each round runs every way once,
     * so a slow stretch of the machine hits them alike. */
    run(READ_1M, fd, size, self, &sum);
    for (int r = 0; r < repeat; r++)
        for (int w = 0; w < WAYS; w++) {
            if (idle > 0)
                usleep((useconds_t)(idle * 1e6));
            if ((times[w][r] = run((enum way)w, fd, size, self, &sum)) < 0) {
                fprintf(stderr, "bench_floor: %s failed\n", way_name[w]);
                return 1;
            }
        }
    for (int w = 0; w < WAYS; w++) {
        qsort(times[w], (size_t)repeat, sizeof times[w][0], cmp_double);
        const double median = times[w][repeat / 2];
        printf("way=%-13s cpu_ms=%8.3f best_ms=%8.3f", way_name[w], median * 1e3, times[w][0] * 1e3);
        if (w != EXEC && w != FORK_EXIT && median > 0)
            printf(" GB/s=%6.2f", (double)size / median * 1e-9);
        printf("\n");
    }
    printf("bytes=%zu checksum=%u\n", size, sum);
    close(fd);
    return 0;
}
