/*
 * datetime.c — date (YYYY-MM-DD) and timestamp fields (rules in values.h).
 *
 * The fixed parts are checked and read with SWAR where a whole 8-byte word
 * is there ("YYYY-MM-DD" as two loads, "HH:MM:SS" as one: the digit
 * positions with one test, the separators with one compare, the two-digit
 * values with one multiply), the rest byte by byte.  The shape is
 * checked completely before any range, so that "2024-02-30" is reported as
 * a range error (an invalid date) and "2024-2-3" as a syntax error.
 */
#include "values.h"
#include "values_internal.h"

static bool is_leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int simdsv__days_in_month(int32_t year, int month)
{
    static const unsigned char dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12)
        return 0;
    return dim[month - 1] + (month == 2 && is_leap(year));
}

static int digit2(const unsigned char *p)
{
    return (p[0] - '0') * 10 + (p[1] - '0');
}

static bool digits_at(const unsigned char *p, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (!simdsv__is_digit(p[i]))
            return false;
    }
    return true;
}

/* The fields of a YYYY-MM-DD. */
typedef struct ymd {
    int32_t year;
    int month, day;
} ymd;

/* The date part at p (10 bytes available): its shape, and its parts. */
static bool date_shape(const unsigned char *p, ymd *d)
{
    return simdsv__date_parts(simdsv__load_le64(p), (uint64_t)p[8] | (uint64_t)p[9] << 8, &d->year, &d->month,
                              &d->day);
}

static simdsv__time_result date_value(const ymd *d, int32_t *days)
{
    if (d->month < 1 || d->month > 12 || d->day < 1 || d->day > simdsv__days_in_month(d->year, d->month))
        return SIMDSV__TIME_RANGE;
    *days = simdsv__civil_days(d->year, d->month, d->day);
    return SIMDSV__TIME_OK;
}

simdsv__time_result simdsv__scan_date(const char *s, size_t n, int32_t *days)
{
    ymd d;
    if (n != 10 || !date_shape((const unsigned char *)s, &d))
        return SIMDSV__TIME_SYNTAX;
    return date_value(&d, days);
}

bool simdsv__parse_date(const char *s, size_t n, int32_t *days)
{
    return simdsv__scan_date(s, n, days) == SIMDSV__TIME_OK;
}

simdsv__time_result simdsv__scan_timestamp(const char *s, size_t n, int64_t *micros)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + n;
    int hour = 0, minute = 0, second = 0;
    int64_t frac_us = 0;
    int offset_min = 0, off_h = 0, off_m = 0;

    ymd date;
    if (n < 10 || !date_shape(p, &date))
        return SIMDSV__TIME_SYNTAX;
    p += 10;
    if (p < end) {
        if (*p != 'T' && *p != 't' && *p != ' ')
            return SIMDSV__TIME_SYNTAX;
        p++;
        bool with_seconds = false;
        /* HH:MM:SS in one word */
        if (end - p >= 8 && simdsv__hms_parts(simdsv__load_le64(p), &hour, &minute, &second)) {
            p += 8;
            with_seconds = true;
        } else {
            if (end - p < 5 || !digits_at(p, 2) || p[2] != ':' || !digits_at(p + 3, 2))
                return SIMDSV__TIME_SYNTAX;
            hour = digit2(p);
            minute = digit2(p + 3);
            p += 5;
            if (p < end && *p == ':') {
                if (end - p < 3 || !digits_at(p + 1, 2))
                    return SIMDSV__TIME_SYNTAX;
                second = digit2(p + 1);
                p += 3;
                with_seconds = true;
            }
        }
        if (with_seconds && p < end && *p == '.') {
            const unsigned char *f = ++p;
            int64_t scale = 100000;
            while (p < end && simdsv__is_digit(*p)) {
                if (p - f < 6) {
                    frac_us += (*p - '0') * scale;
                    scale /= 10;
                }
                p++;
            }
            if (p == f || p - f > 9)
                return SIMDSV__TIME_SYNTAX;
        }
        if (p < end) {
            if (*p == 'Z' || *p == 'z') {
                p++;
            } else if (*p == '+' || *p == '-') {
                int sign = *p == '-' ? -1 : 1;
                p++;
                if (end - p == 5 && digits_at(p, 2) && p[2] == ':' && digits_at(p + 3, 2)) {
                    off_h = digit2(p);
                    off_m = digit2(p + 3);
                } else if (end - p == 4 && digits_at(p, 4)) {
                    off_h = digit2(p);
                    off_m = digit2(p + 2);
                } else {
                    return SIMDSV__TIME_SYNTAX;
                }
                offset_min = sign * (off_h * 60 + off_m);
                p = end;
            }
        }
        if (p != end)
            return SIMDSV__TIME_SYNTAX;
    }

    int32_t days;
    if (date_value(&date, &days) != SIMDSV__TIME_OK || hour > 23 ||
        minute > 59 || second > 59 || off_h > 23 || off_m > 59)
        return SIMDSV__TIME_RANGE;
    int64_t secs = (int64_t)days * 86400 + hour * 3600 + minute * 60 + second -
                   (int64_t)offset_min * 60;
    *micros = secs * 1000000 + frac_us;
    return SIMDSV__TIME_OK;
}

bool simdsv__parse_timestamp(const char *s, size_t n, int64_t *micros)
{
    return simdsv__scan_timestamp(s, n, micros) == SIMDSV__TIME_OK;
}

bool simdsv__timestamp_has_offset(const char *s, size_t n)
{
    /* "YYYY-MM-DD?HH:MM" is 16 bytes: an offset starts there or later (the
     * date's own '-' are before it). */
    if (n <= 16 || s[4] != '-' || s[7] != '-')
        return false;
    if (s[n - 1] == 'Z' || s[n - 1] == 'z')
        return true;
    for (size_t i = 16; i < n; i++)
        if (s[i] == '+' || s[i] == '-')
            return true;
    return false;
}

/* ------------------------------------------------------- other date orders */

static bool read_number(const char *s, size_t n, size_t *i, size_t max_digits, int *v, size_t *len)
{
    size_t k = 0;
    int x = 0;
    while (*i < n && k < max_digits && simdsv__is_digit((unsigned char)s[*i])) {
        x = x * 10 + (s[*i] - '0');
        (*i)++;
        k++;
    }
    if (k == 0 || (*i < n && simdsv__is_digit((unsigned char)s[*i])))
        return false;
    *v = x;
    *len = k;
    return true;
}

simdsv__time_result simdsv__scan_ordered(const char *s, size_t n, simdsv_date_order order, int64_t *micros,
                                         bool *has_time)
{
    size_t i = 0, l1, l2, l3;
    int a, b, c;
    if (order == SIMDSV_DATE_ISO || !read_number(s, n, &i, 4, &a, &l1) || i >= n)
        return SIMDSV__TIME_SYNTAX;
    const char sep = s[i];
    if (sep != '/' && sep != '.' && sep != '-')
        return SIMDSV__TIME_SYNTAX;
    i++;
    if (!read_number(s, n, &i, 2, &b, &l2) || i >= n || s[i] != sep)
        return SIMDSV__TIME_SYNTAX;
    i++;
    if (!read_number(s, n, &i, 4, &c, &l3))
        return SIMDSV__TIME_SYNTAX;
    int year, month, day;
    size_t year_len;
    if (order == SIMDSV_DATE_YMD) {
        year = a, month = b, day = c, year_len = l1;
        if (l3 > 2)
            return SIMDSV__TIME_SYNTAX;
    } else {
        if (l1 > 2)
            return SIMDSV__TIME_SYNTAX;
        year = c, year_len = l3;
        day = order == SIMDSV_DATE_DMY ? a : b;
        month = order == SIMDSV_DATE_DMY ? b : a;
    }
    if (year_len != 2 && year_len != 4)
        return SIMDSV__TIME_SYNTAX;
    if (year_len == 2)
        year += year < 69 ? 2000 : 1900; /* as POSIX strptime's %y */
    int hour = 0, minute = 0, second = 0;
    *has_time = false;
    if (i < n) {
        size_t len;
        if (s[i] != ' ' && s[i] != 'T')
            return SIMDSV__TIME_SYNTAX;
        i++;
        if (!read_number(s, n, &i, 2, &hour, &len) || i >= n || s[i] != ':')
            return SIMDSV__TIME_SYNTAX;
        i++;
        if (!read_number(s, n, &i, 2, &minute, &len) || len != 2)
            return SIMDSV__TIME_SYNTAX;
        if (i < n && s[i] == ':') {
            i++;
            if (!read_number(s, n, &i, 2, &second, &len) || len != 2)
                return SIMDSV__TIME_SYNTAX;
        }
        if (i < n && s[i] == ' ')
            i++;
        if (i < n) {
            const char m = s[i];
            if (i + 2 != n || (m != 'A' && m != 'P' && m != 'a' && m != 'p') || (s[i + 1] != 'M' && s[i + 1] != 'm'))
                return SIMDSV__TIME_SYNTAX;
            if (hour < 1 || hour > 12)
                return SIMDSV__TIME_RANGE;
            hour = hour % 12 + ((m == 'P' || m == 'p') ? 12 : 0);
        }
        *has_time = true;
    }
    if (month < 1 || month > 12 || day < 1 || day > simdsv__days_in_month(year, month) || hour > 23 || minute > 59 ||
        second > 59)
        return SIMDSV__TIME_RANGE;
    const int64_t days = simdsv__civil_days(year, month, day);
    *micros = ((days * 24 + hour) * 60 + minute) * 60 * INT64_C(1000000) + (int64_t)second * 1000000;
    return SIMDSV__TIME_OK;
}
