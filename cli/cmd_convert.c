/* cmd_convert.c — simdsv convert: normalised RFC 4180 CSV (minimal
 * quoting, LF line ends), typed JSON lines or a JSON array of the same
 * objects (jsonl.c), or Parquet and Arrow IPC (write.c). */
#include "typed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv convert --to json|csv|jsonl|parquet|arrow|arrows [OPTIONS] FILE...\n"
    "  --to jsonl         typed JSON lines: one object per row, unique names as keys,\n"
    "                     numbers as numbers, null as null, true/false, dates and\n"
    "                     timestamps as ISO 8601 strings (the typed options apply);\n"
    "                     a value that does not fit the type inferred from the start\n"
    "                     of the input is written as a string\n"
    "  --to json          the same objects as one JSON array\n"
    "  --to csv           RFC 4180 CSV: minimal quoting, LF line ends\n"
    "  --to parquet       Parquet (typed columns; dictionary or plain, statistics)\n"
    "  --to arrow         Arrow IPC file (Feather v2); --to arrows: Arrow IPC stream\n"
    "                     Without --to, -o FILE's extension decides: .parquet, .arrow,\n"
    "                     .feather, .arrows.  The typed options apply; binary output\n"
    "                     goes to -o FILE or to a pipe, never to a terminal.\n"
    "  --compression C    parquet: none (default), zstd, snappy, gzip; arrow/arrows:\n"
    "                     none (default), zstd, lz4\n"
    "  --level N          the codec's level (default: the codec's own)\n"
    "  --row-group-size N parquet: rows per row group (default 131072; fewer once\n"
    "                     they hold 32 MiB of values)\n"
    "  --no-dictionary    parquet: no dictionary (PLAIN; int64 DELTA_BINARY_PACKED)\n"
    "For csv the header, when there is one, is written as the first record; with\n"
    "--no-header it is read as an ordinary record.  Memory stays bounded whatever\n"
    "the input's size: csv goes record batch by record batch, the typed formats\n"
    "typed batch by typed batch.  Stops at the first error (exit status 1) unless\n"
    "--lenient.  Several FILEs (a folder, a glob) are converted as one table, a few\n"
    "files in memory at a time; a value past their samples that does not fit its\n"
    "column is read again widened (-o FILE, parquet and arrow) or is an error (json,\n"
    "jsonl).  Their csv has one header line (the table's column names: a repeated\n"
    "name gets _2, an empty one column_N), each column's text as the files have it\n"
    "(--schema types some: then their values are written as typed), empty for a\n"
    "column a file lacks.\n\n" CLI_TYPED_HELP;

typedef enum { TO_NONE, TO_JSON, TO_CSV, TO_JSONL, TO_PARQUET, TO_ARROW, TO_ARROWS } target;

typedef struct convert_args {
    target to;
    cli_common *common; /* for the typed options */
    simdsv_write_options write; /* parquet, arrow, arrows */
    const char *schema; /* --schema as given, or NULL */
} convert_args;

static target target_of(const char *name)
{
    static const struct {
        const char *name;
        target to;
    } names[] = {{"json", TO_JSON},     {"csv", TO_CSV},       {"jsonl", TO_JSONL},  {"parquet", TO_PARQUET},
                 {"arrow", TO_ARROW},   {"feather", TO_ARROW}, {"arrows", TO_ARROWS}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0)
            return names[i].to;
    return TO_NONE;
}

/* The binary formats by -o's extension. */
static target target_of_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return TO_NONE;
    const target t = target_of(dot + 1);
    return t == TO_PARQUET || t == TO_ARROW || t == TO_ARROWS ? t : TO_NONE;
}

/* --compression, --level, --row-group-size, --no-dictionary. */
static arg_result write_arg(convert_args *a, int argc, char **argv, int *i)
{
    bool missing;
    const char *v = cli_option_value("--compression", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (v) {
        const int codec = simdsv_codec_from_name(v);
        if (codec < 0)
            return ARG_BAD;
        a->write.codec = (simdsv_codec)codec;
        return ARG_TAKEN;
    }
    if (strcmp(argv[*i], "--no-dictionary") == 0) {
        a->write.dictionary = 0;
        return ARG_TAKEN;
    }
    unsigned long long n;
    arg_result res;
    if ((res = cli_u64_option("--level", argc, argv, i, &n)) != ARG_NOT_MINE) {
        if (res == ARG_TAKEN && n > 22)
            return ARG_BAD;
        a->write.level = (int)n;
        return res;
    }
    if ((res = cli_u64_option("--row-group-size", argc, argv, i, &n)) != ARG_NOT_MINE) {
        if (res == ARG_TAKEN && (n == 0 || n > INT32_MAX))
            return ARG_BAD;
        a->write.row_group_rows = (int64_t)n;
        return res;
    }
    return ARG_NOT_MINE;
}

/* csv of several files goes through the typed dataset (one header, columns
 * matched by name when asked): every column --schema does not type is read
 * as a string, so that its text is written back as it was.  One file's csv
 * reads records and ignores the schema. */
static arg_result text_schema(convert_args *a)
{
    const char *user = a->schema;
    if (a->to != TO_CSV || (user && (strncmp(user, "*:", 2) == 0 || strstr(user, ",*:"))))
        return ARG_TAKEN; /* the --schema given, or none, stands */
    char text[4096];
    if ((size_t)snprintf(text, sizeof text, "%s%s*:string", user ? user : "", user && *user ? "," : "") >= sizeof text) {
        a->common->bad_why = "the schema is too long";
        return ARG_BAD;
    }
    if (simdsv_options_set_string(a->common->opt, SIMDSV_OPT_SCHEMA, text) != SIMDSV_OK) {
        a->common->bad_why = simdsv_options_error(a->common->opt);
        return ARG_BAD;
    }
    return ARG_TAKEN;
}

static arg_result convert_arg(void *ctx, int argc, char **argv, int *i)
{
    convert_args *a = ctx;
    bool missing;
    const char *v = cli_option_value("--to", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (v) {
        a->to = target_of(v);
        a->common->records_only = a->to == TO_CSV; /* csv: records; the other formats type the values */
        return a->to == TO_NONE ? ARG_BAD : text_schema(a);
    }
    arg_result res = write_arg(a, argc, argv, i);
    if (res != ARG_NOT_MINE)
        return res;
    const int at = *i;
    res = cli_typed_arg(a->common, argc, argv, i);
    if (res == ARG_TAKEN && (v = cli_option_value("--schema", argc, argv, &(int){at}, &missing)) != NULL) {
        a->schema = v;
        return text_schema(a);
    }
    return res;
}

/* --to csv: whole batches (records.c). */
typedef struct csv_run {
    csv_plain csv;
    field_views views;
} csv_run;

static int csv_batch(void *ctx, text_buffer *tb, const simdsv_batch *b)
{
    csv_run *s = ctx;
    return write_batch_csv(tb, b, 0, b->count, batch_raw(b, &s->csv), s->csv.out_delimiter, &s->views) ? 0 : -1;
}

int cmd_convert(int argc, char **argv)
{
    cli_common c;
    convert_args args = {TO_NONE, &c, {0}, NULL};
    simdsv_write_options_init(&args.write);
    const cli_spec spec = {"convert", help, CLI_OUTPUT | CLI_CSV_OUT | CLI_DATASET, 0, NULL, convert_arg, &args};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status < 0 && args.to == TO_NONE)
        args.to = target_of_path(c.output);
    if (status < 0 && args.to == TO_NONE)
        status = cli_usage_error("convert", "%s", "missing --to json|csv|jsonl|parquet|arrow|arrows");
    if (status < 0 && args.to == TO_CSV && !c.ds) {
        csv_run s = {csv_plain_of(&c), {NULL, 0}};
        const cli_record_ops ops = {NULL, csv_batch, NULL, NULL};
        status = cli_run_records(&c, status, &ops, &s);
        field_views_free(&s.views);
        return status;
    }
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    if (args.to == TO_PARQUET || args.to == TO_ARROW || args.to == TO_ARROWS) {
        args.write.format = args.to == TO_PARQUET ? SIMDSV_FORMAT_PARQUET
                            : args.to == TO_ARROW ? SIMDSV_FORMAT_ARROW_FILE
                                                  : SIMDSV_FORMAT_ARROW_STREAM;
        status = out_finish(convert_write(&c, &args.write));
        cli_common_free(&c);
        return status;
    }
    status = out_finish(convert_json(&c, args.to == TO_CSV ? TEXT_CSV : args.to == TO_JSONL ? TEXT_JSONL : TEXT_JSON));
    cli_common_free(&c);
    return status;
}
