/* cmd_slice.c — simdsv head and simdsv slice: a range of data records,
 * read from the start and no further than needed. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char head_help[] =
    "usage: simdsv head [-n N] [OPTIONS] FILE\n"
    "Writes the header (unless --no-header) and the first N data records as CSV.\n"
    "  -n N               how many records (default 10)\n\n";

static const char slice_help[] =
    "usage: simdsv slice [--start A] [--end B] [OPTIONS] FILE\n"
    "Writes the header (unless --no-header) and the data records A to B-1 as CSV;\n"
    "indexes are 0-based (the first data record is 0) and the end is excluded.\n"
    "  --start A          first record (default 0)\n"
    "  --end B            the record after the last one (default: to the end)\n\n";

typedef struct range_args {
    unsigned long long start, end;
    bool head;
} range_args;

static arg_result range_arg(void *ctx, int argc, char **argv, int *i)
{
    range_args *a = ctx;
    if (a->head)
        return cli_u64_option("-n", argc, argv, i, &a->end);
    arg_result res = cli_u64_option("--start", argc, argv, i, &a->start);
    if (res == ARG_NOT_MINE)
        res = cli_u64_option("--end", argc, argv, i, &a->end);
    return res;
}

static int run_range(int argc, char **argv, range_args *a, const char *name, const char *help)
{
    cli_common c;
    const cli_spec spec = {name, help, CLI_OUTPUT | CLI_CSV_OUT, 0, NULL, range_arg, a};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status < 0 && a->end < a->start)
        status = cli_usage_error(name, "%s", "--end must not be before --start");
    simdsv_reader *r = cli_begin(&c, &status);
    if (!r)
        return status;
    text_buffer tb;
    text_init(&tb, &c);
    simdsv_record rec;
    bool has_header;
    simdsv_status st = cli_header(&c, r, &rec, &has_header);
    if (st == SIMDSV_OK && has_header && !write_all_fields(&tb, &rec, c.out_delimiter))
        st = SIMDSV_ERR_NOMEM;
    unsigned long long index = 0;
    while (st == SIMDSV_OK && index < a->end && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        if (index++ >= a->start && !write_all_fields(&tb, &rec, c.out_delimiter))
            st = SIMDSV_ERR_NOMEM;
    }
    status = cli_end_of_records(&c, r, st);
    text_free(&tb);
    cli_close(&c, r);
    cli_common_free(&c);
    return status;
}

int cmd_head(int argc, char **argv)
{
    range_args a = {0, 10, true};
    return run_range(argc, argv, &a, "head", head_help);
}

int cmd_slice(int argc, char **argv)
{
    range_args a = {0, UINT64_MAX, false};
    return run_range(argc, argv, &a, "slice", slice_help);
}
