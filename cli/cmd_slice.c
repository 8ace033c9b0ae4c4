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

typedef struct range_run {
    const range_args *a;
    unsigned long long index; /* of the batch's first record */
    csv_plain csv;
    field_views views;
} range_run;

static int range_header(void *ctx, text_buffer *tb, const simdsv_record *rec)
{
    range_run *s = ctx;
    if (rec && !write_all_fields(tb, rec, s->csv.out_delimiter))
        return -1;
    return s->a->end == 0 ? CLI_STOP : 0; /* no record is read at all */
}

static int range_batch(void *ctx, text_buffer *tb, const simdsv_batch *b)
{
    range_run *s = ctx;
    const unsigned long long first = s->index, start = s->a->start, end = s->a->end;
    s->index += b->count;
    const size_t from = start > first ? (size_t)(start - first < b->count ? start - first : b->count) : 0;
    const size_t to = end - first < b->count ? (size_t)(end - first) : b->count;
    if (from < to &&
        !write_batch_csv(tb, b, from, to, batch_raw(b, &s->csv), s->csv.out_delimiter, &s->views))
        return -1;
    return s->index >= end ? CLI_STOP : 0;
}

static int run_range(int argc, char **argv, range_args *a, const char *name, const char *help)
{
    cli_common c;
    const cli_spec spec = {name, help, CLI_OUTPUT | CLI_CSV_OUT | CLI_RECORDS, 0, NULL, range_arg, a};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status < 0 && a->end < a->start)
        status = cli_usage_error(name, "%s", "--end must not be before --start");
    range_run s = {a, 0, {',', ',', true}, {NULL, 0}};
    if (status < 0)
        s.csv = csv_plain_of(&c);
    const cli_record_ops ops = {range_header, range_batch, NULL, NULL};
    status = cli_run_records(&c, status, &ops, &s);
    field_views_free(&s.views);
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
