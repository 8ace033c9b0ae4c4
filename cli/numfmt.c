/* numfmt.c — numbers, dates and timestamps as text without printf, for
 * the commands that print many of them (convert --to json|jsonl, stats).
 *
 * Floats: the shortest decimal that reads back as the same double.  Most
 * doubles in data files came from short decimals ("25.4", "-73.961326"),
 * and for those one multiplication finds the digits: m = round(|v| *
 * 10^p) at 15 significant digits, its trailing zeros dropped, is the
 * shortest decimal when m / 10^p == |v|.  That test is exact: m < 2^53 and
 * 10^p (p <= 22) are doubles, so the division is correctly rounded, as is
 * reading the text m * 10^-p, and both round the same real number.  And it
 * is the shortest: a decimal of k <= 15 digits that reads back is within
 * half an ulp of |v|, far less than half a unit of the 15th digit, so |v|
 * rounded to 15 digits is that decimal followed by zeros.  Anything else
 * (exponents outside %g's fixed range, values that need 16 or 17 digits, a
 * product rounded the wrong way) takes the %.15g / %.16g / %.17g loop,
 * checked with strtod. */
#include "typed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                     "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

/* Exactly count digits of v (its lowest ones, zeros in front) ending at
 * end; returns v without them. */
static uint64_t put_fixed(char *end, uint64_t v, int count)
{
    for (; count >= 2; count -= 2) {
        end -= 2;
        memcpy(end, digit_pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (count) {
        end[-1] = (char)('0' + v % 10);
        v /= 10;
    }
    return v;
}

/* The decimal digits of v (no sign) at out; returns their count. */
static size_t put_u64(char *out, uint64_t v)
{
    int n = 1;
    for (uint64_t p = 10; n < 20 && v >= p; p *= 10)
        n++;
    put_fixed(out + n, v, n);
    return (size_t)n;
}

size_t cli_put_int64(char *out, int64_t v)
{
    if (v >= 0)
        return put_u64(out, (uint64_t)v);
    out[0] = '-';
    return 1 + put_u64(out + 1, (uint64_t)0 - (uint64_t)v);
}

/* The slow, sure way: the first of %.15g, %.16g, %.17g that reads back. */
static size_t shortest_by_printf(char *out, double v)
{
    size_t n = 0;
    for (int digits = 15; digits <= 17; digits++) {
        n = cli_format(out, CLI_DOUBLE_MAX, "%.*g", digits, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return n;
}

size_t cli_shortest_double(char *out, double v)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const double a = fabs(v);
    /* %g writes fixed notation for decimal exponents -4 .. 14 (at 15 or
     * more digits); the digits found here are written that way too, so the
     * text is the one the printf loop gives. */
    if (!(a >= 1e-4 && a < 1e15))
        return v == 0 ? (signbit(v) ? (memcpy(out, "-0", 2), 2) : (out[0] = '0', 1)) : shortest_by_printf(out, v);
    int x = 0; /* the decimal exponent: 10^x <= a < 10^(x+1) */
    if (a >= 1) {
        while (x < 14 && a >= pow10[x + 1])
            x++;
    } else {
        x = -1;
        while (a * pow10[-x] < 1)
            x--;
    }
    /* 15 significant digits, then the trailing zeros off. */
    int places = 14 - x;
    uint64_t digits = (uint64_t)(a * pow10[places] + 0.5);
    /* At most 14 zeros: 8, 4, 2 and 1 at a time (one loop per zero was a
     * third of convert --to jsonl on taxi). */
    static const uint64_t strip[4] = {100000000, 10000, 100, 10};
    for (int k = 0, step = 8; k < 4; k++, step /= 2)
        if (places >= step && digits % strip[k] == 0) {
            digits /= strip[k];
            places -= step;
        }
    if ((double)digits / pow10[places] != a)
        return shortest_by_printf(out, v); /* 16 or 17 digits, or a product rounded the wrong way */
    if (digits >= 1000000000000000u)
        return shortest_by_printf(out, v); /* rounded up to 10^15: the exponent is one more */
    char *p = out;
    if (v < 0)
        *p++ = '-';
    const int whole = x >= 0 ? x + 1 : 1; /* digits before the point */
    /* From the last digit back: the places, the point, the whole part. */
    const uint64_t rest = places ? put_fixed(p + whole + 1 + places, digits, places) : digits;
    put_fixed(p + whole, rest, whole);
    if (places)
        p[whole] = '.';
    return (size_t)(p - out) + (size_t)whole + (places ? 1 + (size_t)places : 0);
}

/* Civil date of a day count (days since 1970-01-01), proleptic Gregorian. */
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

size_t cli_put_date(char *out, int64_t days)
{
    int64_t y;
    unsigned m, d;
    civil(days, &y, &m, &d);
    if (y < 0 || y > 9999)
        return cli_format(out, CLI_DATE_MAX, "%04lld-%02u-%02u", (long long)y, m, d);
    memcpy(out, digit_pairs + 2 * (y / 100), 2);
    memcpy(out + 2, digit_pairs + 2 * (y % 100), 2);
    out[4] = '-';
    memcpy(out + 5, digit_pairs + 2 * m, 2);
    out[7] = '-';
    memcpy(out + 8, digit_pairs + 2 * d, 2);
    return 10;
}

size_t cli_put_timestamp(char *out, int64_t micros, bool utc)
{
    int64_t secs = micros / 1000000, frac = micros % 1000000;
    if (frac < 0) {
        frac += 1000000;
        secs--;
    }
    int64_t days = secs / 86400, rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    size_t n = cli_put_date(out, days);
    out[n++] = 'T';
    const unsigned hms[3] = {(unsigned)(rem / 3600), (unsigned)(rem / 60 % 60), (unsigned)(rem % 60)};
    for (int k = 0; k < 3; k++) {
        memcpy(out + n, digit_pairs + 2 * hms[k], 2);
        n += 2;
        out[n++] = k < 2 ? ':' : '.';
    }
    if (frac) {
        const unsigned f = (unsigned)frac;
        memcpy(out + n, digit_pairs + 2 * (f / 10000), 2);
        memcpy(out + n + 2, digit_pairs + 2 * (f / 100 % 100), 2);
        memcpy(out + n + 4, digit_pairs + 2 * (f % 100), 2);
        n += 6;
    } else {
        n--; /* no fraction: drop the '.' */
    }
    if (utc)
        out[n++] = 'Z';
    return n;
}
