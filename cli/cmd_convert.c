/* cmd_convert.c — simdsv convert: JSON (array of arrays of strings) or
 * normalised RFC 4180 CSV (minimal quoting, LF line ends). */
#include "typed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv convert --to json|csv|jsonl [OPTIONS] FILE\n"
    "  --to json          an array of arrays of strings, one per record, the header first\n"
    "  --to csv           RFC 4180 CSV: minimal quoting, LF line ends\n"
    "  --to jsonl         typed JSON lines: one object per row, header names as keys,\n"
    "                     numbers as numbers, null as null, true/false, dates and\n"
    "                     timestamps as ISO 8601 strings (the typed options apply)\n"
    "For json and csv the header, when there is one, is written as the first record;\n"
    "with --no-header it is read as an ordinary record.  Stops at the first error\n"
    "(exit status 1) unless --lenient.\n\n" CLI_TYPED_HELP;

typedef enum { TO_NONE, TO_JSON, TO_CSV, TO_JSONL } target;

typedef struct convert_args {
    target to;
    cli_common *common; /* for the typed options */
} convert_args;

static arg_result convert_arg(void *ctx, int argc, char **argv, int *i)
{
    convert_args *a = ctx;
    bool missing;
    const char *v = cli_option_value("--to", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (v) {
        a->to = strcmp(v, "json") == 0    ? TO_JSON
                : strcmp(v, "csv") == 0   ? TO_CSV
                : strcmp(v, "jsonl") == 0 ? TO_JSONL
                                          : TO_NONE;
        return a->to == TO_NONE ? ARG_BAD : ARG_TAKEN;
    }
    return cli_typed_arg(a->common, argc, argv, i);
}

/* --to csv: whole batches (records.c). */
typedef struct csv_run {
    csv_plain csv;
    field_views views;
} csv_run;

static int csv_batch(void *ctx, text_buffer *tb, const simdsv_batch *b)
{
    csv_run *s = ctx;
    const bool plain = batch_plain(b, &s->csv);
    return write_batch_csv(tb, b, 0, b->count, plain, s->csv.out_delimiter, &s->views) ? 0 : -1;
}

static bool convert_record(const simdsv_record *rec, bool *first, text_buffer *tb)
{
    out_write(*first ? "\n[" : ",\n[", *first ? 2 : 3);
    text_reset(tb);
    for (size_t i = 0; i < rec->field_count; i++) {
        const char *data;
        size_t size;
        if (!text_field(tb, rec, i, &data, &size))
            return false;
        if (i)
            out_byte(',');
        out_json_string(data, size);
    }
    out_byte(']');
    *first = false;
    return true;
}

int cmd_convert(int argc, char **argv)
{
    cli_common c;
    convert_args args = {TO_NONE, &c};
    const cli_spec spec = {"convert", help, CLI_OUTPUT | CLI_CSV_OUT, 0, NULL, convert_arg, &args};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status < 0 && args.to == TO_NONE)
        status = cli_usage_error("convert", "%s", "missing --to json|csv|jsonl");
    if (status < 0 && args.to == TO_CSV) {
        csv_run s = {csv_plain_of(&c), {NULL, 0}};
        const cli_record_ops ops = {NULL, csv_batch, NULL};
        status = cli_run(&c, status, &ops, &s);
        field_views_free(&s.views);
        return status;
    }
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    if (args.to == TO_JSONL) {
        status = out_finish(convert_jsonl(&c));
        cli_common_free(&c);
        return status;
    }
    simdsv_reader *r = cli_open(&c);
    if (!r) {
        cli_common_free(&c);
        return EXIT_DATA;
    }
    text_buffer tb;
    text_init(&tb, &c);
    bool first = true;
    out_byte('[');
    simdsv_record rec;
    simdsv_status st = SIMDSV_OK;
    if (cli_opt(&c, SIMDSV_OPT_HEADER)) {
        st = simdsv_reader_header(r, &rec);
        if (st == SIMDSV_OK && !convert_record(&rec, &first, &tb))
            st = SIMDSV_ERR_NOMEM;
    }
    while (st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
        if (!convert_record(&rec, &first, &tb))
            st = SIMDSV_ERR_NOMEM;
    if (st == SIMDSV_END) {
        out_str(first ? "]\n" : "\n]\n");
        status = EXIT_OK;
    } else {
        out_flush();
        if (st == SIMDSV_ERR_NOMEM && simdsv_reader_error(r)->code != SIMDSV_ERR_NOMEM)
            cli_error("out of memory");
        else
            cli_report(&c, r);
        status = EXIT_DATA;
    }
    text_free(&tb);
    cli_close(&c, r);
    cli_common_free(&c);
    return status;
}
