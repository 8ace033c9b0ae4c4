/* input.c — where the command's bytes come from: a file or standard input,
 * opened as the library's simdsv_input (which decodes gzip and zstd and
 * keeps what detection sampled for the reader).  What stays here is the
 * command's own: every raw byte read is reported to the progress line. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cli_input {
    simdsv_input *in;
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

bool input_path_regular(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int input_seekable_fd(const cli_input *in, uint64_t *size)
{
    if (!in)
        return -1;
    return simdsv_input_fd(in->in, size);
}

long long input_read(cli_input *in, void *buf, size_t size, int *os_errno)
{
    return simdsv_input_read(in->in, buf, size, os_errno);
}

bool input_keep_ranges(cli_input *in, const uint64_t *ranges, size_t n)
{
    return simdsv_input_keep_ranges(in->in, ranges, n) == SIMDSV_OK;
}

simdsv_status input_open_reader(cli_input *in, simdsv_reader *r)
{
    return simdsv_input_open_reader(in->in, r);
}

