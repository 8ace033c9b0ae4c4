/* jsonl.c — typed JSON lines for convert --to jsonl: one object per row,
 * header names as keys, numbers as numbers, null as null, bools as
 * true/false, dates and timestamps as ISO 8601 strings; a float that is not
 * finite is written as the string "NaN", "Infinity" or "-Infinity" (JSON has
 * no such numbers). */
#include "typed.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void out_json_string(const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    out_byte('"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x20 && ch != '"' && ch != '\\')
            continue;
        out_write(s + run, i - run);
        run = i + 1;
        const char esc[6] = {'\\', 'u', '0', '0', hex[ch >> 4], hex[ch & 15]};
        switch (ch) {
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


static void value(const simdsv_column_view *v, uint64_t i)
{
    char buf[64];
    int n;
    if (!simdsv_view_valid(v, i)) {
        out_write("null", 4);
        return;
    }
    switch (v->type) {
    case SIMDSV_TYPE_BOOL:
        if (simdsv_view_bool(v, i))
            out_write("true", 4);
        else
            out_write("false", 5);
        return;
    case SIMDSV_TYPE_INT64:
        out_printf("%" PRId64, simdsv_view_int64(v, i));
        return;
    case SIMDSV_TYPE_FLOAT64: {
        const double x = simdsv_view_float64(v, i);
        if (isnan(x))
            out_str("\"NaN\"");
        else if (isinf(x))
            out_str(x > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else {
            n = cli_format_double(buf, sizeof buf, x);
            out_write(buf, (size_t)n);
        }
        return;
    }
    case SIMDSV_TYPE_DATE:
    case SIMDSV_TYPE_TIMESTAMP:
        out_byte('"');
        n = v->type == SIMDSV_TYPE_DATE ? cli_format_date(buf, sizeof buf, simdsv_view_date(v, i))
                                        : cli_format_timestamp(buf, sizeof buf, simdsv_view_int64(v, i));
        out_write(buf, (size_t)n);
        out_byte('"');
        return;
    case SIMDSV_TYPE_STRING: {
        size_t size;
        const char *s = simdsv_view_string(v, i, &size);
        out_json_string(s, size);
        return;
    }
    case SIMDSV_TYPE_NULL:
        out_write("null", 4);
        return;
    }
}

int convert_jsonl(cli_common *c)
{
    int status;
    simdsv_table *t = cli_read_table(c, 0, &status);
    if (!t)
        return status;
    const size_t ncols = simdsv_table_columns(t);
    simdsv_column_view *views = calloc(ncols ? ncols : 1, sizeof *views);
    const char **names = calloc(ncols ? ncols : 1, sizeof *names);
    if (!views || !names) {
        cli_error("out of memory");
        free(views);
        free(names);
        simdsv_table_free(t);
        return EXIT_DATA;
    }
    for (size_t col = 0; col < ncols; col++) {
        simdsv_column_info info;
        simdsv_table_column(t, col, &info);
        names[col] = info.name;
        simdsv_table_column_view(t, col, &views[col]);
    }
    const uint64_t rows = simdsv_table_rows(t);
    for (uint64_t i = 0; i < rows; i++) {
        out_byte('{');
        for (size_t col = 0; col < ncols; col++) {
            if (col)
                out_byte(',');
            out_json_string(names[col], strlen(names[col]));
            out_byte(':');
            value(&views[col], i);
        }
        out_write("}\n", 2);
    }
    free(views);
    free(names);
    simdsv_table_free(t);
    return EXIT_OK;
}
