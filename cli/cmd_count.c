/* cmd_count.c — simdsv count: the number of data records. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: simdsv count [OPTIONS] FILE...\n"
    "Prints the number of data records (the header is not counted unless --no-header).\n"
    "Quoted line ends are handled; empty lines are not records.  Quoting is validated\n"
    "(unless --lenient); UTF-8 is not: use 'simdsv check' for a full validation.\n"
    "With several files, prints 'N FILE' for each and 'N total'.\n"
    "  --threads N        threads for a large uncompressed file (default: all cores;\n"
    "                     1 = none); the count is the same\n\n";

static arg_result count_arg(void *ctx, int argc, char **argv, int *i)
{
    cli_common *c = ctx;
    unsigned long long n;
    const arg_result res = cli_u64_option("--threads", argc, argv, i, &n);
    if (res != ARG_TAKEN)
        return res;
    return simdsv_options_set(c->opt, SIMDSV_OPT_THREADS, (int64_t)(n > 1024 ? 1024 : n)) == SIMDSV_OK ? ARG_TAKEN
                                                                                                         : ARG_BAD;
}

/* A large uncompressed regular file is given to the library by its path
 * rather than through the decoding callback, so that it can count on several
 * threads (each reading its part with pread()).  Returns that reader, or NULL
 * to keep the callback reader.  The progress line then moves once, at the end. */
static simdsv_reader *open_direct(cli_common *c)
{
    uint64_t size = 0;
    const int64_t threads = cli_opt(c, SIMDSV_OPT_THREADS);
    if (threads == 1 || (threads == 0 && sysconf(_SC_NPROCESSORS_ONLN) < 2) || strcmp(c->file, "-") == 0 ||
        input_seekable_fd(c->in, &size) < 0)
        return NULL;
    /* Below two chunks of the library's minimum the count stays serial
     * anyway (SIMDSV_TEST_COUNT_CHUNK: the tests' smaller minimum). */
    const char *test_chunk = getenv("SIMDSV_TEST_COUNT_CHUNK");
    if (size < ((uint64_t)8 << 20) && !(test_chunk && *test_chunk))
        return NULL;
    simdsv_reader *r = cli_new_reader(c->opt);
    if (r && simdsv_reader_open_path(r, c->file) != SIMDSV_OK) {
        simdsv_reader_free(r);
        r = NULL;
    }
    return r;
}

int cmd_count(int argc, char **argv)
{
    cli_common c;
    const cli_spec spec = {"count", help, CLI_MANY_FILES | CLI_OUTPUT | CLI_RECORDS, 0, NULL, count_arg, &c};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    status = EXIT_OK;
    unsigned long long total = 0;
    for (size_t f = 0; f < c.nfiles; f++) {
        c.file = c.files[f];
        simdsv_reader *r = cli_open(&c);
        if (!r) {
            status = EXIT_DATA;
            continue;
        }
        simdsv_reader *direct = open_direct(&c);
        if (direct) {
            simdsv_reader_free(r);
            r = direct;
        }
        uint64_t n = 0;
        const simdsv_status st = simdsv_reader_count(r, &n);
        if (direct)
            progress_add(simdsv_reader_offset(r));
        if (st == SIMDSV_OK) {
            out_printf("%llu", (unsigned long long)n);
            if (c.nfiles > 1) {
                out_byte(' ');
                out_str(c.display);
            }
            out_byte('\n');
            total += n;
        } else {
            out_flush();
            cli_report(&c, r);
            status = EXIT_DATA;
        }
        cli_close(&c, r);
    }
    if (c.nfiles > 1) {
        out_printf("%llu total\n", total);
    }
    cli_common_free(&c);
    return status;
}
