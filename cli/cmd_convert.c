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
    "  --output-delimiter C   delimiter of the CSV output (default ,)\n"
    "The header, when there is one, is written as the first record either way;\n"
    "with --no-header it is read as an ordinary record.  Stops at the first error\n"
    "(exit status 1) unless --lenient.\n\n";

typedef enum { TO_NONE, TO_JSON, TO_CSV } target;

typedef struct convert_args {
    target to;
    int out_delimiter;
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
    v = cli_option_value("--output-delimiter", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (v)
        return cli_parse_byte(v, &a->out_delimiter) && a->out_delimiter >= 0 && a->out_delimiter != '"' &&
                       a->out_delimiter != '\n' && a->out_delimiter != '\r'
                   ? ARG_TAKEN
                   : ARG_BAD;
    return ARG_NOT_MINE;
}

/* Field bytes as text: decoded, and with invalid UTF-8 replaced in lossy mode. */
typedef struct text_buffer {
    char *data;
    size_t cap;
} text_buffer;

static bool field_text(simdsv_reader *r, const simdsv_field *f, text_buffer *tb, const char **data, size_t *size)
{
    if (simdsv_reader_unescape(r, f, data, size) != SIMDSV_OK)
        return false;
    if (f->flags & SIMDSV_FIELD_INVALID_UTF8) {
        if (tb->cap < *size * 3 + 1) {
            free(tb->data);
            tb->cap = *size * 3 + 1;
            tb->data = malloc(tb->cap);
            if (!tb->data)
                return false;
        }
        *size = simdsv_utf8_lossy(*data, *size, tb->data);
        *data = tb->data;
    }
    return true;
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

static void csv_field(const char *s, size_t n, int delimiter, bool alone)
{
    bool needs_quotes = alone && n == 0; /* a lone empty field would read back as an empty line */
    for (size_t i = 0; i < n && !needs_quotes; i++) {
        const char c = s[i];
        needs_quotes = c == '"' || c == '\n' || c == '\r' || (unsigned char)c == delimiter;
    }
    if (!needs_quotes) {
        out_write(s, n);
        return;
    }
    out_byte('"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') {
            out_write(s + run, i + 1 - run);
            out_byte('"');
            run = i + 1;
        }
    }
    out_write(s + run, n - run);
    out_byte('"');
}

static bool write_record(simdsv_reader *r, const simdsv_record *rec, const convert_args *a, bool *first,
                         text_buffer *tb)
{
    if (a->to == TO_JSON)
        out_write(*first ? "\n[" : ",\n[", *first ? 2 : 3);
    for (size_t i = 0; i < rec->field_count; i++) {
        const char *data;
        size_t size;
        if (!field_text(r, &rec->fields[i], tb, &data, &size))
            return false;
        if (a->to == TO_JSON) {
            if (i)
                out_byte(',');
            json_string(data, size);
        } else {
            if (i)
                out_byte((char)a->out_delimiter);
            csv_field(data, size, a->out_delimiter, rec->field_count == 1);
        }
    }
    if (a->to == TO_JSON)
        out_byte(']');
    else
        out_byte('\n');
    *first = false;
    return true;
}

int cmd_convert(int argc, char **argv)
{
    cli_common c;
    convert_args args = {TO_NONE, ','};
    int status = cli_parse("convert", help, argc, argv, &c, convert_arg, &args);
    if (status < 0 && args.to == TO_NONE)
        status = cli_usage_error("convert", "%s", "missing --to json|csv");
    if (status >= 0) {
        cli_common_free(&c);
        return status;
    }
    simdsv_reader *r = cli_open(&c);
    if (!r) {
        cli_common_free(&c);
        return EXIT_DATA;
    }
    text_buffer tb = {NULL, 0};
    bool first = true;
    if (args.to == TO_JSON)
        out_byte('[');
    simdsv_record rec;
    simdsv_status st = SIMDSV_OK;
    int64_t has_header = 0;
    simdsv_options_get(c.opt, SIMDSV_OPT_HEADER, &has_header);
    if (has_header) {
        st = simdsv_reader_header(r, &rec);
        if (st == SIMDSV_OK && !write_record(r, &rec, &args, &first, &tb))
            st = SIMDSV_ERR_NOMEM;
    }
    while (st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
        if (!write_record(r, &rec, &args, &first, &tb))
            st = SIMDSV_ERR_NOMEM;
    if (st == SIMDSV_END) {
        if (args.to == TO_JSON)
            out_str(first ? "]\n" : "\n]\n");
        out_flush();
        status = EXIT_OK;
    } else {
        out_flush();
        if (st == SIMDSV_ERR_NOMEM && simdsv_reader_error(r)->code != SIMDSV_ERR_NOMEM)
            fprintf(stderr, "simdsv: out of memory\n");
        else
            cli_report(&c, r);
        status = EXIT_DATA;
    }
    free(tb.data);
    simdsv_reader_free(r);
    cli_common_free(&c);
    return status;
}
