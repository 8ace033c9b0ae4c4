/* cmd_check.c — simdsv check: validate a file and list every problem. */
#include "cli.h"

#include <stdio.h>

static const char help[] =
    "usage: simdsv check [OPTIONS] FILE\n"
    "Validates quoting (RFC 4180) and UTF-8.  Each problem is reported on stderr as\n"
    "  FILE:LINE:COL: error: MESSAGE (byte B, record R, field F)\n"
    "and reading goes on with the next record.  Exit status 1 if there was any problem.\n"
    "  --max-errors N     stop after N problems (default 20; 0 = no limit)\n\n";

typedef struct check_args {
    unsigned long long max_errors;
} check_args;

static arg_result check_arg(void *ctx, int argc, char **argv, int *i)
{
    check_args *a = ctx;
    bool missing;
    const char *v = cli_option_value("--max-errors", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (!v)
        return ARG_NOT_MINE;
    return cli_parse_u64(v, &a->max_errors) ? ARG_TAKEN : ARG_BAD;
}

int cmd_check(int argc, char **argv)
{
    cli_common c;
    check_args args = {20};
    int status = cli_parse("check", help, argc, argv, &c, check_arg, &args);
    if (status >= 0) {
        cli_common_free(&c);
        return status;
    }
    simdsv_reader *r = cli_open(&c);
    if (!r) {
        cli_common_free(&c);
        return EXIT_DATA;
    }
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
        cli_report(&c, r);
        errors++;
        /* Memory and I/O problems end the reader; data problems do not. */
        if (st == SIMDSV_ERR_NOMEM || st == SIMDSV_ERR_IO || st == SIMDSV_ERR_RECORD_TOO_LARGE ||
            (args.max_errors && errors >= args.max_errors)) {
            stopped = true;
            break;
        }
    }
    if (errors) {
        fprintf(stderr, "%s: %llu error%s%s\n", c.display, errors, errors == 1 ? "" : "s",
                stopped ? " (stopped)" : "");
        status = EXIT_DATA;
    } else {
        printf("%s: ok, %llu records\n", c.display, records);
        status = EXIT_OK;
    }
    simdsv_reader_free(r);
    cli_common_free(&c);
    return status;
}
