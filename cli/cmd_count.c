/* cmd_count.c — simdsv count: the number of data records. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>

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
        /* An uncompressed regular file is counted where it lies, mapped:
         * the page cache without a copy into the reader's buffer, and on
         * threads each counts its part of the mapping (cli_open_regular
         * turns a file that shrinks meanwhile into an error, not a crash). */
        simdsv_reader *direct = cli_open_regular(&c, true);
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
