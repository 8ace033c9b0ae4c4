/* progress.c — the progress line on stderr: bytes read, percent of the
 * expected size when it is known, rate and time left; redrawn in place at
 * most ten times a second, shown only once the work has lasted a second (at
 * once with --progress), and erased before anything else is written to the
 * terminal and at the end.  By default it appears only when stderr is a
 * terminal and the CI environment variable is not set. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
    bool on;       /* progress wanted */
    bool forced;   /* --progress */
    bool shown;    /* a line is on the screen now */
    uint64_t total, done;
    double start, last;
} pg;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(int mode, uint64_t total)
{
    memset(&pg, 0, sizeof pg);
    pg.forced = mode > 0;
    if (mode < 0) {
        const char *ci = getenv("CI");
        mode = isatty(STDERR_FILENO) && !(ci && *ci);
    }
    pg.on = mode != 0;
    pg.total = total;
    pg.start = now();
    pg.last = -1;
}

/* "123.4 MB" with decimal units. */
static void human(char *out, size_t n, double bytes)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (bytes >= 1000 && u < 5) {
        bytes /= 1000;
        u++;
    }
    snprintf(out, n, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

static void draw(double t)
{
    const double elapsed = t - pg.start;
    char done[32], total[32], rate[32], line[160];
    human(done, sizeof done, (double)pg.done);
    const double bps = elapsed > 0 ? (double)pg.done / elapsed : 0;
    human(rate, sizeof rate, bps);
    size_t len;
    /* The rate (and the time left) once there is a meaningful one. */
    char speed[64] = "";
    if (elapsed >= 0.25)
        snprintf(speed, sizeof speed, ", %s/s", rate);
    if (pg.total && pg.done <= pg.total) {
        human(total, sizeof total, (double)pg.total);
        char left[32] = "";
        if (elapsed >= 0.25 && bps > 0) {
            const unsigned long s = (unsigned long)((double)(pg.total - pg.done) / bps + 0.5);
            snprintf(left, sizeof left, ", %lu:%02lu left", s / 60, s % 60);
        }
        len = cli_format(line, sizeof line, "\r\033[Ksimdsv: %s of %s (%d%%)%s%s", done, total,
                       (int)((double)pg.done * 100.0 / (double)pg.total), speed, left);
    } else {
        len = cli_format(line, sizeof line, "\r\033[Ksimdsv: %s read%s", done, speed);
    }
    if (len > 0 && write(STDERR_FILENO, line, len) > 0)
        pg.shown = true;
    pg.last = t;
}

void progress_add(uint64_t bytes)
{
    if (!pg.on)
        return;
    pg.done += bytes;
    const double t = now();
    if (!pg.forced && t - pg.start < 1.0)
        return;
    if (pg.last >= 0 && t - pg.last < 0.1)
        return;
    draw(t);
}

void progress_erase(void)
{
    if (!pg.shown)
        return;
    static const char erase[] = "\r\033[K";
    if (write(STDERR_FILENO, erase, sizeof erase - 1) < 0) {
        /* nothing to do */
    }
    pg.shown = false;
}

void progress_end(void)
{
    progress_erase();
    pg.on = false;
}
