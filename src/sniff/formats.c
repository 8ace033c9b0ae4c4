/*
 * formats.c — what a sampled value is: its kind as the typed reader infers
 * it, a decimal comma with or without '.' thousands, and the non-ISO date
 * and timestamp formats with their day/month order.
 */
#include "sniff.h"

#include <stdio.h>
#include <string.h>

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

int simdsv__sniff_decimal_comma_value(const char *s, size_t n, int *thousands)
{
    size_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    const size_t int_start = i;
    size_t group = 0, groups = 0;
    while (i < n && (is_digit(s[i]) || s[i] == '.')) {
        if (s[i] == '.') {
            if ((groups == 0 && (group == 0 || group > 3)) || (groups > 0 && group != 3))
                return 0;
            groups++;
            group = 0;
        } else {
            group++;
        }
        i++;
    }
    if (i == int_start || (groups && group != 3))
        return 0;
    if (i >= n || s[i] != ',')
        return 0;
    i++;
    const size_t frac = i;
    while (i < n && is_digit(s[i]))
        i++;
    if (i != n || i == frac)
        return 0;
    *thousands |= groups > 0;
    return 1;
}

simdsv_type simdsv__sniff_kind_of(field_text t, int decimal_comma)
{
    if (t.n == 0)
        return SIMDSV_TYPE_NULL;
    const simdsv_type k = simdsv__infer_field(t.s, t.n, 0, NULL);
    if (k == SIMDSV_TYPE_STRING && decimal_comma) {
        int th = 0;
        if (simdsv__sniff_decimal_comma_value(t.s, t.n, &th))
            return SIMDSV_TYPE_FLOAT64;
    }
    return k;
}

typedef struct date_shape {
    int a, b, c;        /* the three numbers */
    int alen, blen, clen;
    char sep;
    int time;           /* 0 none, 1 HH:MM, 2 HH:MM:SS */
    int ampm;           /* 12-hour clock with AM/PM */
    int hour;
} date_shape;

static int read_num(const char *s, size_t n, size_t *i, int max_digits, int *v, int *len)
{
    int k = 0, x = 0;
    while (*i < n && is_digit(s[*i]) && k < max_digits) {
        x = x * 10 + (s[*i] - '0');
        (*i)++;
        k++;
    }
    if (k == 0 || (*i < n && is_digit(s[*i])))
        return 0;
    *v = x;
    *len = k;
    return 1;
}

/* N/N/N, N.N.N or N-N-N (not ISO YYYY-MM-DD, which the reader reads),
 * optionally followed by H:MM[:SS] and AM/PM. */
static int date_shape_of(const char *s, size_t n, date_shape *d)
{
    size_t i = 0;
    memset(d, 0, sizeof *d);
    if (!read_num(s, n, &i, 4, &d->a, &d->alen) || i >= n)
        return 0;
    d->sep = s[i];
    if (d->sep != '/' && d->sep != '.' && d->sep != '-')
        return 0;
    i++;
    if (!read_num(s, n, &i, 2, &d->b, &d->blen) || i >= n || s[i] != d->sep)
        return 0;
    i++;
    if (!read_num(s, n, &i, 4, &d->c, &d->clen))
        return 0;
    if (d->alen == 3 || d->clen == 3 || (d->alen == 4 && d->clen == 4) || (d->alen == 4 && d->sep == '-'))
        return 0;
    if (i == n)
        return 1;
    if (s[i] != ' ' && s[i] != 'T')
        return 0;
    i++;
    int mm, len;
    if (!read_num(s, n, &i, 2, &d->hour, &len) || i >= n || s[i] != ':')
        return 0;
    i++;
    if (!read_num(s, n, &i, 2, &mm, &len) || len != 2 || mm > 59)
        return 0;
    d->time = 1;
    if (i < n && s[i] == ':') {
        int ss;
        i++;
        if (!read_num(s, n, &i, 2, &ss, &len) || len != 2 || ss > 59)
            return 0;
        d->time = 2;
    }
    if (i < n && s[i] == ' ')
        i++;
    if (i + 2 == n && (s[i] == 'A' || s[i] == 'P' || s[i] == 'a' || s[i] == 'p') && (s[i + 1] == 'M' || s[i + 1] == 'm')) {
        if (d->hour < 1 || d->hour > 12)
            return 0;
        d->ampm = 1;
        return 1;
    }
    return i == n && d->hour <= 23;
}

int simdsv__sniff_guess_date(sniff_impl *s, const field_text *vals, size_t nv, format_guess *g)
{
    size_t matched = 0, a_over_12 = 0, b_over_12 = 0;
    date_shape first = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, d;
    int have = 0, time = 0, ampm = 0, seconds = 0, year_first = 0, two_digit = 0;
    for (size_t i = 0; i < nv; i++) {
        if (!date_shape_of(vals[i].s, vals[i].n, &d))
            return 0;
        if (!have) {
            first = d;
            have = 1;
            year_first = d.alen == 4;
            two_digit = !year_first && d.clen == 2;
        } else if (d.sep != first.sep || (d.alen == 4) != year_first) {
            return 0;
        }
        time |= d.time > 0;
        seconds |= d.time == 2;
        ampm |= d.ampm;
        if (!year_first) {
            a_over_12 += d.a > 12;
            b_over_12 += d.b > 12;
            if (d.a > 31 || d.b > 31 || d.a == 0 || d.b == 0)
                return 0;
        } else if (d.b > 12 || d.c > 31 || d.b == 0 || d.c == 0) {
            return 0;
        }
        matched++;
    }
    if (!matched)
        return 0;
    const char sep = first.sep;
    const char *y = two_digit ? "%y" : "%Y";
    char date[32];
    const char *why;
    double conf = 0.95;
    if (year_first) {
        snprintf(date, sizeof date, "%%Y%c%%m%c%%d", sep, sep);
        why = keep(s, "year first in all %zu values", matched);
    } else if (a_over_12 && b_over_12) {
        return 0; /* both parts above 12 somewhere: not one day/month order */
    } else if (a_over_12) {
        snprintf(date, sizeof date, "%%d%c%%m%c%s", sep, sep, y);
        why = keep(s, "day first: %zu of %zu values have a first part above 12", a_over_12, matched);
    } else if (b_over_12) {
        snprintf(date, sizeof date, "%%m%c%%d%c%s", sep, sep, y);
        why = keep(s, "month first: %zu of %zu values have a second part above 12", b_over_12, matched);
    } else if (sep == '/') {
        snprintf(date, sizeof date, "%%m%c%%d%c%s", sep, sep, y);
        why = keep(s, "not sure of the day/month order: no part above 12 in %zu values; month first (US) "
                      "assumed for '/'", matched);
        conf = NOT_SURE;
    } else {
        snprintf(date, sizeof date, "%%d%c%%m%c%s", sep, sep, y);
        why = keep(s, "not sure of the day/month order: no part above 12 in %zu values; day first assumed for '%c'",
                   matched, sep);
        conf = NOT_SURE;
    }
    const char *clock = !time ? "" : ampm ? (seconds ? " %I:%M:%S %p" : " %I:%M %p")
                                        : (seconds ? " %H:%M:%S" : " %H:%M");
    g->type = time ? SIMDSV_TYPE_TIMESTAMP : SIMDSV_TYPE_DATE;
    g->format = keep(s, "%s%s", date, clock);
    g->confidence = conf;
    g->reason = keep(s, "%s %s: %s%s", time ? "timestamp" : "date", g->format, why,
                     two_digit ? "; two-digit years" : "");
    return 1;
}
