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

/* The shortest of %.15g..%.17g that reads back as the same double. */
static int format_double(char *out, size_t size, double v)
{
    int n = 0;
    for (int digits = 15; digits <= 17; digits++) {
        n = snprintf(out, size, "%.*g", digits, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return n;
}

static void civil(int64_t days, int64_t *y, unsigned *m, unsigned *d)
{
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const unsigned doe = (unsigned)(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static void value(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t i)
{
    const char *f = s->format;
    char buf[64];
    int n;
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
        n = snprintf(buf, sizeof buf, "%" PRId64, ((const int64_t *)a->buffers[1])[i]);
        out_write(buf, (size_t)n);
        return;
    case 'g': {
        const double v = ((const double *)a->buffers[1])[i];
        if (isnan(v))
            out_str("\"NaN\"");
        else if (isinf(v))
            out_str(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        else {
            n = format_double(buf, sizeof buf, v);
            out_write(buf, (size_t)n);
        }
        return;
    }
    case 't': {
        int64_t y;
        unsigned m, d;
        if (f[1] == 'd') {
            civil(((const int32_t *)a->buffers[1])[i], &y, &m, &d);
            n = snprintf(buf, sizeof buf, "\"%04" PRId64 "-%02u-%02u\"", y, m, d);
        } else {
            const int64_t us = ((const int64_t *)a->buffers[1])[i];
            int64_t secs = us / 1000000, frac = us % 1000000;
            if (frac < 0) {
                frac += 1000000;
                secs--;
            }
            int64_t days = secs / 86400, rem = secs % 86400;
            if (rem < 0) {
                rem += 86400;
                days--;
            }
            civil(days, &y, &m, &d);
            n = frac ? snprintf(buf, sizeof buf, "\"%04" PRId64 "-%02u-%02uT%02d:%02d:%02d.%06dZ\"", y, m, d,
                                (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60), (int)frac)
                     : snprintf(buf, sizeof buf, "\"%04" PRId64 "-%02u-%02uT%02d:%02d:%02dZ\"", y, m, d,
                                (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60));
        }
        out_write(buf, (size_t)n);
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
