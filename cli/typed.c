/* typed.c — typed-reader options and reading a table for the CLI. */
#include "typed.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static arg_result set_string(cli_common *c, simdsv_string_option id, const char *v)
{
    if (simdsv_options_set_string(c->opt, id, v) == SIMDSV_OK)
        return ARG_TAKEN;
    c->bad_why = simdsv_options_error(c->opt);
    return ARG_BAD;
}

static arg_result set_value(cli_common *c, simdsv_option id, int64_t v)
{
    return simdsv_options_set(c->opt, id, v) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
}

size_t cli_display_width(const char *s)
{
    return text_display(s, strlen(s), SIZE_MAX, 0, false);
}

arg_result cli_typed_arg(void *ctx, int argc, char **argv, int *i)
{
    cli_common *c = ctx;
    static const struct {
        const char *name;
        simdsv_string_option id;
    } strings[] = {{"--columns", SIMDSV_OPT_COLUMNS},
                   {"--schema", SIMDSV_OPT_SCHEMA},
                   {"--null-values", SIMDSV_OPT_NULL_VALUES},
                   {"--true-values", SIMDSV_OPT_TRUE_VALUES},
                   {"--false-values", SIMDSV_OPT_FALSE_VALUES}};
    bool missing;
    const char *v;
    for (size_t k = 0; k < sizeof strings / sizeof strings[0]; k++) {
        if ((v = cli_option_value(strings[k].name, argc, argv, i, &missing)) || missing)
            return missing ? ARG_BAD : set_string(c, strings[k].id, v);
    }
    unsigned long long n;
    arg_result res;
    if ((res = cli_u64_option("--threads", argc, argv, i, &n)) != ARG_NOT_MINE)
        return res == ARG_TAKEN ? set_value(c, SIMDSV_OPT_THREADS, (int64_t)(n > 1024 ? 1024 : n)) : res;
    if ((res = cli_u64_option("--row-limit", argc, argv, i, &n)) != ARG_NOT_MINE)
        return res == ARG_TAKEN ? set_value(c, SIMDSV_OPT_ROW_LIMIT, (int64_t)n) : res;
    if ((v = cli_option_value("--infer-rows", argc, argv, i, &missing)) || missing) {
        if (missing)
            return ARG_BAD;
        if (strcmp(v, "all") == 0)
            return set_value(c, SIMDSV_OPT_INFER_ROWS, -1);
        if (cli_parse_u64(v, &n) && n > 0 && n < INT64_MAX)
            return set_value(c, SIMDSV_OPT_INFER_ROWS, (int64_t)n);
        c->bad_why = "expected a positive number of rows, or 'all'";
        return ARG_BAD;
    }
    static const struct {
        const char *name, *a, *b, *expected;
        simdsv_option id;
        int64_t va, vb;
    } choices[] = {{"--on-error", "fail", "null", "expected 'fail' or 'null'", SIMDSV_OPT_ON_ERROR,
                    SIMDSV_ON_ERROR_FAIL, SIMDSV_ON_ERROR_NULL},
                   {"--short-rows", "pad", "error", "expected 'pad' or 'error'", SIMDSV_OPT_SHORT_ROWS,
                    SIMDSV_RAGGED_PAD, SIMDSV_RAGGED_ERROR},
                   {"--long-rows", "error", "truncate", "expected 'error' or 'truncate'", SIMDSV_OPT_LONG_ROWS,
                    SIMDSV_RAGGED_ERROR, SIMDSV_RAGGED_TRUNCATE},
                   {"--strings", "utf8", "view", "expected 'utf8' or 'view'", SIMDSV_OPT_STRINGS,
                    SIMDSV_STRINGS_UTF8, SIMDSV_STRINGS_VIEW}};
    for (size_t k = 0; k < sizeof choices / sizeof choices[0]; k++) {
        if ((v = cli_option_value(choices[k].name, argc, argv, i, &missing)) || missing) {
            if (missing)
                return ARG_BAD;
            if (strcmp(v, choices[k].a) == 0)
                return set_value(c, choices[k].id, choices[k].va);
            if (strcmp(v, choices[k].b) == 0)
                return set_value(c, choices[k].id, choices[k].vb);
            c->bad_why = choices[k].expected;
            return ARG_BAD;
        }
    }
    if (strcmp(argv[*i], "--decimal-comma") == 0) {
        c->given |= 1u << SIMDSV_SNIFF_DECIMAL;
        return set_value(c, SIMDSV_OPT_DECIMAL_COMMA, 1);
    }
    if ((v = cli_option_value("--date-order", argc, argv, i, &missing)) || missing) {
        static const char *const orders[] = {"iso", "dmy", "mdy", "ymd"};
        for (int k = 0; !missing && k < 4; k++)
            if (strcmp(v, orders[k]) == 0) {
                c->given |= 1u << SIMDSV_SNIFF_DATES;
                return set_value(c, SIMDSV_OPT_DATE_ORDER, k);
            }
        return ARG_BAD;
    }
    if ((v = cli_option_value("--thousands", argc, argv, i, &missing)) || missing) {
        int sep;
        c->bad_why = "expected one of , . ' _ or \\s (a space)";
        if (missing || !cli_parse_byte(v, &sep))
            return ARG_BAD;
        c->given |= 1u << SIMDSV_SNIFF_DECIMAL;
        return set_value(c, SIMDSV_OPT_THOUSANDS, sep);
    }
    if (strcmp(argv[*i], "--quotes-are-text") == 0)
        return set_value(c, SIMDSV_OPT_TYPED_QUOTES, 0);
    return ARG_NOT_MINE;
}

int cli_typed_failure(const cli_common *c, const simdsv_reader *r, simdsv_status st)
{
    const simdsv_error *e = simdsv_reader_error(r);
    if (st == SIMDSV_ERR_INVALID_ARGUMENT && e->message[0])
        cli_error("%s: %s", c->command, e->message);
    else
        cli_report(c, r);
    return st == SIMDSV_ERR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_DATA;
}

simdsv_table *cli_read_table(cli_common *c, int schema_only, int *status)
{
    if (c->ds) { /* several files: each sampled (or read), their schemas joined */
        simdsv_table *t = NULL;
        const simdsv_status st = schema_only ? simdsv_dataset_infer(c->ds, &t) : simdsv_dataset_read(c->ds, &t);
        *status = st == SIMDSV_OK ? EXIT_OK : cli_dataset_failure(c);
        return t;
    }
    simdsv_reader *r = cli_open(c);
    if (!r) {
        *status = EXIT_DATA;
        return NULL;
    }
    /* The schema of a regular file: the library reads its sample windows
     * with pread() instead of the whole file. */
    simdsv_reader *sampled = schema_only ? cli_open_regular(c, false) : NULL;
    if (sampled) {
        simdsv_reader_free(r);
        r = sampled;
    }
    simdsv_table *t = NULL;
    const simdsv_status st = schema_only ? simdsv_table_infer(r, &t) : simdsv_table_read(r, &t);
    *status = st == SIMDSV_OK ? EXIT_OK : cli_typed_failure(c, r, st);
    cli_close(c, r);
    return t;
}

simdsv_reader *cli_open_stream(cli_common *c, struct ArrowArrayStream *stream, int *status)
{
    simdsv_reader *r = cli_open(c);
    if (!r) {
        *status = EXIT_DATA;
        return NULL;
    }
    const simdsv_status st = simdsv_table_stream(r, stream);
    if (st != SIMDSV_OK) {
        *status = cli_typed_failure(c, r, st);
        cli_close(c, r);
        return NULL;
    }
    return r;
}

int cli_format_double(char *out, size_t size, double v)
{
    char text[CLI_DOUBLE_MAX];
    const size_t n = cli_shortest_double(text, v);
    return (int)cli_format(out, size, "%.*s", (int)n, text);
}

int cli_format_date(char *out, size_t size, int64_t days)
{
    char text[CLI_DATE_MAX];
    const size_t n = cli_put_date(text, days);
    return (int)cli_format(out, size, "%.*s", (int)n, text);
}

int cli_format_timestamp(char *out, size_t size, int64_t micros, bool utc)
{
    char text[CLI_TIMESTAMP_MAX];
    const size_t n = cli_put_timestamp(text, micros, utc);
    return (int)cli_format(out, size, "%.*s", (int)n, text);
}

simdsv_type cli_type_of_format(const char *f)
{
    switch (f[0]) {
    case 'b': return SIMDSV_TYPE_BOOL;
    case 'l': return SIMDSV_TYPE_INT64;
    case 'g': return SIMDSV_TYPE_FLOAT64;
    case 't': return f[1] == 'd' ? SIMDSV_TYPE_DATE : SIMDSV_TYPE_TIMESTAMP;
    case 'u':
    case 'U': return SIMDSV_TYPE_STRING;
    case 'v': return f[1] == 'u' ? SIMDSV_TYPE_STRING : SIMDSV_TYPE_NULL;
    default: return SIMDSV_TYPE_NULL;
    }
}
