/* input.c — where the command's bytes come from: a file or standard input,
 * opened as the library's simdsv_input (which decodes gzip and zstd and
 * keeps what detection sampled for the reader).  What stays here is the
 * command's own: every raw byte read is reported to the progress line, and
 * --table all serves only the byte ranges of the tables joined. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cli_input {
    simdsv_input *in;
    /* --table all: only the decoded bytes in these [from, to) ranges are served (to 0: the end) */
    uint64_t *keep;
    size_t nkeep, keep_i;
    uint64_t pos;            /* decoded offset of the next byte read */
};

static void count_progress(void *ctx, uint64_t bytes)
{
    (void)ctx;
    progress_add(bytes);
}

uint64_t input_path_size(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    return (uint64_t)st.st_size;
}

cli_input *input_open(const char *path, const char *display)
{
    cli_input *in = calloc(1, sizeof *in);
    if (!in) {
        cli_error("out of memory");
        return NULL;
    }
    simdsv_error err;
    const simdsv_status st = strcmp(path, "-") == 0 ? simdsv_input_open_fd(&in->in, STDIN_FILENO, NULL, &err)
                                                    : simdsv_input_open_path(&in->in, path, NULL, &err);
    if (st != SIMDSV_OK) {
        cli_error("%s: %s", display, err.message);
        free(in);
        return NULL;
    }
    simdsv_input_observe(in->in, count_progress, NULL);
    return in;
}

void input_close(cli_input *in)
{
    if (!in)
        return;
    simdsv_input_free(in->in);
    free(in->keep);
    free(in);
}

simdsv_input *input_library(cli_input *in)
{
    return in->in;
}

const char *input_error(const cli_input *in)
{
    return in ? simdsv_input_error(in->in) : NULL;
}

int input_seekable_fd(const cli_input *in, uint64_t *size)
{
    if (!in || in->nkeep)
        return -1;
    return simdsv_input_fd(in->in, size);
}

/* The kept ranges' bytes of the decoded input, moved down in buf. */
static long long read_kept(cli_input *in, unsigned char *buf, size_t size, int *os_errno)
{
    while (in->keep_i < in->nkeep) {
        const long long n = simdsv_input_read(in->in, buf, size, os_errno);
        if (n <= 0)
            return n;
        const uint64_t start = in->pos, end = start + (uint64_t)n;
        in->pos = end;
        size_t out = 0;
        for (; in->keep_i < in->nkeep; in->keep_i++) {
            const uint64_t from = in->keep[2 * in->keep_i];
            const uint64_t to = in->keep[2 * in->keep_i + 1] ? in->keep[2 * in->keep_i + 1] : UINT64_MAX;
            const uint64_t a = from > start ? from : start, b = to < end ? to : end;
            if (a < b) {
                memmove(buf + out, buf + (a - start), (size_t)(b - a));
                out += (size_t)(b - a);
            }
            if (to > end)
                break; /* the range goes on in the next bytes */
        }
        if (out)
            return (long long)out;
    }
    return 0;
}

long long input_read(cli_input *in, void *buf, size_t size, int *os_errno)
{
    if (in->nkeep)
        return read_kept(in, buf, size, os_errno);
    return simdsv_input_read(in->in, buf, size, os_errno);
}

bool input_keep_ranges(cli_input *in, const uint64_t *ranges, size_t n)
{
    in->keep = malloc(2 * n * sizeof *in->keep);
    if (!in->keep)
        return false;
    memcpy(in->keep, ranges, 2 * n * sizeof *in->keep);
    in->nkeep = n;
    return true;
}

static long long input_callback(void *ctx, void *buf, size_t size, int *os_errno)
{
    return input_read(ctx, buf, size, os_errno);
}

simdsv_status input_open_reader(cli_input *in, simdsv_reader *r)
{
    if (in->nkeep)
        return simdsv_reader_open_callback(r, input_callback, in);
    return simdsv_input_open_reader(in->in, r);
}

