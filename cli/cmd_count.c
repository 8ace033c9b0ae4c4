/* cmd_count.c — simdsv count: the number of data records. */
#include "cli.h"

#include <stdio.h>

static const char help[] =
    "usage: simdsv count [OPTIONS] FILE...\n"
    "Prints the number of data records (the header is not counted unless --no-header).\n"
    "Quoted line ends are handled; empty lines are not records.  Quoting is validated\n"
    "(unless --lenient); UTF-8 is not: use 'simdsv check' for a full validation.\n"
    "With several files, prints 'N FILE' for each and 'N total'.\n\n";

int cmd_count(int argc, char **argv)
{
    cli_common c;
    const cli_spec spec = {"count", help, CLI_MANY_FILES | CLI_OUTPUT, 0, NULL, NULL, NULL};
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
        uint64_t n = 0;
        const simdsv_status st = simdsv_reader_count(r, &n);
        if (st == SIMDSV_OK) {
            char line[32];
            const int len = snprintf(line, sizeof line, "%llu", (unsigned long long)n);
            out_write(line, (size_t)len);
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
        char line[40];
        const int len = snprintf(line, sizeof line, "%llu total\n", total);
        out_write(line, (size_t)len);
    }
    cli_common_free(&c);
    return status;
}
