/* cmd_count.c — simdsv count: the number of data records. */
#include "cli.h"

#include <stdio.h>

static const char help[] =
    "usage: simdsv count [OPTIONS] FILE\n"
    "Prints the number of data records (the header is not counted unless --no-header).\n"
    "Quoted line ends are handled; empty lines are not records.  Quoting is validated\n"
    "(unless --lenient); UTF-8 is not: use 'simdsv check' for a full validation.\n\n";

int cmd_count(int argc, char **argv)
{
    cli_common c;
    int status = cli_parse("count", help, argc, argv, &c, NULL, NULL);
    if (status >= 0) {
        cli_common_free(&c);
        return status;
    }
    simdsv_reader *r = cli_open(&c);
    if (!r) {
        cli_common_free(&c);
        return EXIT_DATA;
    }
    uint64_t n = 0;
    const simdsv_status st = simdsv_reader_count(r, &n);
    if (st == SIMDSV_OK) {
        char line[32];
        const int len = snprintf(line, sizeof line, "%llu\n", (unsigned long long)n);
        out_write(line, (size_t)len);
        out_flush();
        status = EXIT_OK;
    } else {
        cli_report(&c, r);
        status = EXIT_DATA;
    }
    simdsv_reader_free(r);
    cli_common_free(&c);
    return status;
}
