/* cmd_check.c — simdsv check: validate files and list every problem. */
#include "cli.h"

#include <stdio.h>

static const char help[] =
    "usage: simdsv check [OPTIONS] FILE...\n"
    "Validates quoting (RFC 4180) and UTF-8.  Each problem is reported on stderr as\n"
    "  FILE:LINE:COL: error: MESSAGE (byte B, record R, field F)\n"
    "and reading goes on with the next record.  Exit status 1 if there was any problem.\n"
    "  --max-errors N     stop after N problems (default 20; 0 = no limit), per file\n\n";

typedef struct check_args {
    unsigned long long max_errors;
} check_args;

static arg_result check_arg(void *ctx, int argc, char **argv, int *i)
{
    check_args *a = ctx;
    return cli_u64_option("--max-errors", argc, argv, i, &a->max_errors);
}

static int check_file(cli_common *c, const check_args *args)
{
    simdsv_reader *r = cli_open(c);
    if (!r)
        return EXIT_DATA;
    unsigned long long errors = 0, records = 0;
    bool stopped = false;
    simdsv_record rec;
    for (;;) {
        const simdsv_status st = simdsv_reader_next(r, &rec);
        if (st == SIMDSV_END)
            break;
        if (st == SIMDSV_OK) {
            records++;
            continue;
        }
        cli_report(c, r);
        errors++;
        /* Memory and I/O problems end the reader; data problems do not. */
        if (st == SIMDSV_ERR_NOMEM || st == SIMDSV_ERR_IO || st == SIMDSV_ERR_RECORD_TOO_LARGE ||
            (args->max_errors && errors >= args->max_errors)) {
            stopped = true;
            break;
        }
    }
    int status;
    progress_erase();
    if (errors) {
        out_flush();
        fprintf(stderr, "%s: %llu error%s%s\n", c->display, errors, errors == 1 ? "" : "s", stopped ? " (stopped)" : "");
        status = EXIT_DATA;
    } else {
        out_str(c->display);
        out_printf(": ok, %llu records\n", records);
        out_flush(); /* in order with the reports of the next file on stderr */
        status = EXIT_OK;
    }
    cli_close(c, r);
    return status;
}

int cmd_check(int argc, char **argv)
{
    cli_common c;
    check_args args = {20};
    const cli_spec spec = {"check", help, CLI_MANY_FILES | CLI_RECORDS, 0, NULL, check_arg, &args};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status >= 0) {
        cli_common_free(&c);
        return status;
    }
    cli_start(&c);
    status = EXIT_OK;
    for (size_t f = 0; f < c.nfiles; f++) {
        c.file = c.files[f];
        if (check_file(&c, &args) != EXIT_OK)
            status = EXIT_DATA;
    }
    cli_common_free(&c);
    return status;
}
