/*
 * typed.h — the options of the commands that read typed columns (schema,
 * stats, convert --to jsonl), spelled as the README gives them:
 * --threads N, --columns a,b,c, --schema name:type,..., --null-values LIST,
 * --true-values LIST, --false-values LIST, --infer-rows N|all,
 * --on-error fail|null, --short-rows pad|error, --long-rows error|truncate,
 * --decimal-comma, --thousands C, --strings utf8|view, --row-limit N.
 */
#ifndef SIMDSV_CLI_TYPED_H
#define SIMDSV_CLI_TYPED_H

#include "cli.h"

#define CLI_TYPED_HELP                                                                                       \
    "Typed options:\n"                                                                                       \
    "  --threads N          worker threads (default: all cores; 1 = no threads)\n"                           \
    "  --columns LIST       only these columns (names or 1-based indexes), in this order\n"                  \
    "  --schema SPEC        name:type,... (bool int64 float64 date timestamp string); *:string for all\n"    \
    "  --null-values LIST   tokens read as null, e.g. NA,NULL,\\\\N; name=TOKEN for one column\n"            \
    "                       (an empty unquoted field is always null)\n"                                     \
    "  --true-values LIST / --false-values LIST   bool spellings\n"                                         \
    "  --infer-rows N|all   rows sampled for inference (start, middle, end; default 10000)\n"               \
    "  --on-error fail|null a value that does not fit a --schema type: error (default) or null\n"           \
    "  --short-rows pad|error   rows with fewer fields than the header (default pad)\n"                     \
    "  --long-rows error|truncate   rows with more fields (default error)\n"                                \
    "  --decimal-comma      floats use , as the decimal separator\n"                                        \
    "  --thousands C        numbers group digits with C (, . ' _ or \\s): 1,234.5 or 1.234,5 with\n"      \
    "                       --decimal-comma (detected with the dialect; default none)\n"                   \
    "  --quotes-are-text    a quoted field is a string (by default \"42\" is typed like 42)\n"                 \
    "  --date-order iso|dmy|mdy|ymd   also read dates such as 31/12/2024, 12/31/24 4:01 PM, 2024/12/31\n"      \
    "                       (detected with the dialect; default iso: YYYY-MM-DD only)\n"                       \
    "  --strings utf8|view  string columns as Arrow utf8 (default) or string views (the same output)\n"      \
    "  --row-limit N        read at most N rows\n\n"
/* An extra-argument parser (cli_spec.extra) for the typed options; ctx is
 * the cli_common whose options they set. */
arg_result cli_typed_arg(void *ctx, int argc, char **argv, int *i);
/* Reports a failed typed read or stream (options: a usage error) and
 * returns the exit status. */
int cli_typed_failure(const cli_common *c, const simdsv_reader *r, simdsv_status st);
/* Opens the input as the typed reader's stream of Arrow batches (which then
 * owns the reader returned: stream->release frees it; cli_close(c, NULL)
 * closes the input after).  Prints the error and returns NULL on failure
 * (*status = the exit status). */
simdsv_reader *cli_open_stream(cli_common *c, struct ArrowArrayStream *stream, int *status);
/* Reads the whole input as a typed table; prints the error and returns NULL
 * on failure (*status = the exit status). */
simdsv_table *cli_read_table(cli_common *c, int schema_only, int *status);
/* The column type of an Arrow format the typed reader exports. */
simdsv_type cli_type_of_format(const char *format);
int cmd_schema(int argc, char **argv);
int cmd_stats(int argc, char **argv);
/* Terminal columns of a string as text_display shows it (wide characters
 * count 2). */
size_t cli_display_width(const char *s);
/* ISO 8601 text of an Arrow date32 (days) and timestamp[us] (below); return
 * the length written (cli_format: at most size - 1). */
int cli_format_date(char *out, size_t size, int64_t days);
/* The shortest decimal that reads back as the same double (the form of
 * every float the CLI prints; see numfmt.c). */
int cli_format_double(char *out, size_t size, double v);
/* utc: an instant of a zoned column, written with a trailing Z; naive timestamps without. */
int cli_format_timestamp(char *out, size_t size, int64_t micros, bool utc);
/* The same without a size (numfmt.c): out holds at least the _MAX bytes;
 * they return the length written (no NUL). */
enum { CLI_DOUBLE_MAX = 32, CLI_DATE_MAX = 32, CLI_TIMESTAMP_MAX = 48 };
size_t cli_shortest_double(char *out, double v);
size_t cli_put_int64(char *out, int64_t v);       /* 20 bytes at most */
size_t cli_put_date(char *out, int64_t days);
size_t cli_put_timestamp(char *out, int64_t micros, bool utc);
/* A JSON string literal at p (quotes, backslash and control characters
 * escaped; other bytes as they are): p holds 6 * n + 2 bytes; returns the
 * end.  out_json_string writes one to the output. */
char *cli_put_json_string(char *p, const char *s, size_t n);
void out_json_string(const char *s, size_t n);
/* convert --to jsonl or --to json: the typed rows as JSON objects, one
 * batch of the typed stream at a time (jsonl.c); --to csv of several files
 * (c->ds): the same rows as CSV under one header line. */
typedef enum { TEXT_JSON, TEXT_JSONL, TEXT_CSV } text_format;
int convert_json(cli_common *c, text_format format);
/* convert --to parquet|arrow|arrows: the typed stream through the writers
 * to the output. */
int convert_write(cli_common *c, const simdsv_write_options *opt);

#endif
