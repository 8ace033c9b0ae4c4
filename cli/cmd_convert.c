/* cmd_convert.c — simdsv convert: JSON (array of arrays of strings) or
 * normalised RFC 4180 CSV (minimal quoting, LF line ends). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv convert --to json|csv [OPTIONS] FILE\n"
    "  --to json          an array of arrays of strings, one per record, the header first\n"
    "  --to csv           RFC 4180 CSV: minimal quoting, LF line ends\n"
    "The header, when there is one, is written as the first record either way;\n"
    "with --no-header it is read as an ordinary record.  Stops at the first error\n"
    "(exit status 1) unless --lenient.\n\n";

typedef enum { TO_NONE, TO_JSON, TO_CSV } target;

typedef struct convert_args {
    target to;
} convert_args;

static arg_result convert_arg(void *ctx, int argc, char **argv, int *i)
{
    convert_args *a = ctx;
    bool missing;
    const char *v = cli_option_value("--to", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (v) {
        a->to = strcmp(v, "json") == 0 ? TO_JSON : strcmp(v, "csv") == 0 ? TO_CSV : TO_NONE;
        return a->to == TO_NONE ? ARG_BAD : ARG_TAKEN;
    }
    return ARG_NOT_MINE;
}

static void json_string(const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    out_byte('"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out_write(s + run, i - run);
        run = i + 1;
        char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        switch (c) {
        case '"': out_write("\\\"", 2); break;
        case '\\': out_write("\\\\", 2); break;
        case '\n': out_write("\\n", 2); break;
        case '\r': out_write("\\r", 2); break;
        case '\t': out_write("\\t", 2); break;
        default: out_write(esc, 6); break;
        }
    }
    out_write(s + run, n - run);
    out_byte('"');
}

static bool convert_record(const simdsv_record *rec, const convert_args *a, int delimiter, bool *first,
                           text_buffer *tb)
{
    if (a->to == TO_CSV) {
        *first = false;
        return write_all_fields(tb, rec, delimiter);
    }
    out_write(*first ? "\n[" : ",\n[", *first ? 2 : 3);
    text_reset(tb);
    for (size_t i = 0; i < rec->field_count; i++) {
        const char *data;
        size_t size;
        if (!text_field(tb, rec, i, &data, &size))
            return false;
        if (i)
            out_byte(',');
        json_string(data, size);
    }
    out_byte(']');
    *first = false;
    return true;
}

int cmd_convert(int argc, char **argv)
{
    cli_common c;
    convert_args args = {TO_NONE};
    const cli_spec spec = {"convert", help, CLI_OUTPUT | CLI_CSV_OUT, 0, NULL, convert_arg, &args};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status < 0 && args.to == TO_NONE)
        status = cli_usage_error("convert", "%s", "missing --to json|csv");
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    simdsv_reader *r = cli_open(&c);
    if (!r) {
        cli_common_free(&c);
        return EXIT_DATA;
    }
    text_buffer tb;
    text_init(&tb, &c);
    bool first = true;
    if (args.to == TO_JSON)
        out_byte('[');
    simdsv_record rec;
    simdsv_status st = SIMDSV_OK;
    if (cli_opt(&c, SIMDSV_OPT_HEADER)) {
        st = simdsv_reader_header(r, &rec);
        if (st == SIMDSV_OK && !convert_record(&rec, &args, c.out_delimiter, &first, &tb))
            st = SIMDSV_ERR_NOMEM;
    }
    while (st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
        if (!convert_record(&rec, &args, c.out_delimiter, &first, &tb))
            st = SIMDSV_ERR_NOMEM;
    if (st == SIMDSV_END) {
        if (args.to == TO_JSON)
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
