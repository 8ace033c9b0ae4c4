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

/* The shortest of %.15g..%.17g that reads back as the same double; returns
 * the length written. */
static size_t format_double(char *out, size_t size, double v)
{
    size_t n = 0;
    for (int digits = 15; digits <= 17; digits++) {
        n = cli_format(out, size, "%.*g", digits, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return n;
}

static void value(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t i)
{
    const char *f = s->format;
    char buf[64];
    if (a->n_buffers == 0 || !((((const uint8_t *)a->buffers[0])[i / 8] >> (i % 8)) & 1)) {
        out_write("null", 4);
        return;
    }
    switch (f[0]) {
    case 'b':
        if ((((const uint8_t *)a->buffers[1])[i / 8] >> (i % 8)) & 1)
            out_write("true", 4);
        else
            out_write("false", 5);
        return;
    case 'l':
        out_printf("%" PRId64, ((const int64_t *)a->buffers[1])[i]);
        return;
    case 'g': {
        const double v = ((const double *)a->buffers[1])[i];
        if (isnan(v))
            out_str("\"NaN\"");
        else if (isinf(v))
            out_str(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else
            out_write(buf, format_double(buf, sizeof buf, v));
        return;
    }
    case 't': {
        out_byte('"');
        const int n = f[1] == 'd' ? cli_format_date(buf, sizeof buf, ((const int32_t *)a->buffers[1])[i])
                                  : cli_format_timestamp(buf, sizeof buf, ((const int64_t *)a->buffers[1])[i]);
        out_write(buf, (size_t)n);
        out_byte('"');
        return;
    }
    case 'u': {
        const int32_t *off = a->buffers[1];
        out_json_string((const char *)a->buffers[2] + off[i], (size_t)(off[i + 1] - off[i]));
        return;
    }
    case 'U': {
        const int64_t *off = a->buffers[1];
        out_json_string((const char *)a->buffers[2] + off[i], (size_t)(off[i + 1] - off[i]));
        return;
    }
    default:
        out_write("null", 4);
    }
}

int convert_jsonl(cli_common *c)
{
    int status;
    simdsv_table *t = cli_read_table(c, 0, &status);
    if (!t)
        return status;
    struct ArrowSchema s;
    struct ArrowArray a;
    if (simdsv_table_export(t, &s, &a) != SIMDSV_OK) {
        cli_error("out of memory");
        simdsv_table_free(t);
        return EXIT_DATA;
    }
    for (int64_t i = 0; i < a.length; i++) {
        out_byte('{');
        for (int64_t col = 0; col < a.n_children; col++) {
            if (col)
                out_byte(',');
            out_json_string(s.children[col]->name, strlen(s.children[col]->name));
            out_byte(':');
            value(s.children[col], a.children[col], i);
        }
        out_write("}\n", 2);
    }
    a.release(&a);
    s.release(&s);
    simdsv_table_free(t);
    return EXIT_OK;
}
