/* test_jsonfmt.c — the CLI's text formatters (cli/numfmt.c, the JSON
 * string writer of cli/jsonl.c) against references written the slow way.
 *
 *   test_jsonfmt [N]   N random doubles of each kind (default 100000; the
 *                      benchmark run in docs/BENCHMARKS.md uses 10000000)
 *
 * Floats: every text must read back (strtod) as the same double, exactly
 * as %.17g reads back, be no longer than the shortest of %.15g..%.17g that
 * reads back, and equal it in %g's fixed range.  Kinds: random bit
 * patterns (every finite double), short decimals as data files hold them
 * (k digits, d places), integers, and values near powers of ten.  Strings:
 * random bytes (control bytes, quotes, backslashes, UTF-8) escaped and
 * compared with a byte-at-a-time escaper.  Dates and timestamps: against
 * the civil calendar computed with gmtime-free arithmetic over every day
 * of years -1000..12000 and random microseconds. */
#include "check.h"
#include "typed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static size_t printf_shortest(char *out, double v)
{
    size_t n = 0;
    for (int digits = 15; digits <= 17; digits++) {
        n = (size_t)snprintf(out, 40, "%.*g", digits, v);
        if (strtod(out, NULL) == v)
            break;
    }
    return n;
}

static unsigned long long float_failures;

static void check_double(double v)
{
    char text[CLI_DOUBLE_MAX + 1], ref[40], full[40];
    const size_t n = cli_shortest_double(text, v);
    text[n] = '\0';
    snprintf(full, sizeof full, "%.17g", v);
    const double back = strtod(text, NULL), want = strtod(full, NULL);
    const size_t rn = printf_shortest(ref, v);
    const double a = fabs(v);
    const bool fixed_range = a >= 1e-4 && a < 1e15;
    const bool same = memcmp(&back, &want, sizeof back) == 0;
    if (!same || n > rn || (fixed_range && strcmp(text, ref) != 0)) {
        if (float_failures++ < 10)
            fprintf(stderr, "double %.17g: got '%s', printf gives '%s'\n", v, text, ref);
    }
}

static void test_doubles(unsigned long long count)
{
    static const double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                                   1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16};
    for (unsigned long long i = 0; i < count; i++) {
        /* Every finite double, by its bits. */
        uint64_t bits = next_u64();
        double v;
        memcpy(&v, &bits, sizeof v);
        if (isfinite(v))
            check_double(v);
        /* A short decimal: k digits, d of them after the point. */
        const int k = 1 + (int)(next_u64() % 16), d = (int)(next_u64() % 17);
        char text[64];
        const unsigned long long m = next_u64() % (unsigned long long)pow10[k];
        snprintf(text, sizeof text, "%s%llue-%d", next_u64() & 1 ? "-" : "", m, d);
        check_double(strtod(text, NULL));
        /* Integers, and values next to powers of ten. */
        check_double((double)(int64_t)(next_u64() >> (next_u64() % 64)));
        const double p = pow(10.0, (double)((int)(next_u64() % 40) - 20));
        check_double(nextafter(p, next_u64() & 1 ? 0.0 : INFINITY));
    }
    const double specials[] = {0.0, -0.0, 1e-4, 9.999999999999999e-5, 1e15, 999999999999999.9, 0.1, 0.3,
                               0.1 + 0.2, 5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 123456789012345.6};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        check_double(specials[i]);
    CHECK_MSG(float_failures == 0, "%llu doubles of %llu do not read back as themselves or are not the shortest",
              float_failures, count * 4);
    char text[CLI_DOUBLE_MAX + 1];
    text[cli_shortest_double(text, -0.0)] = '\0';
    CHECK_STR(text, "-0");
    text[cli_shortest_double(text, 25.4)] = '\0';
    CHECK_STR(text, "25.4");
    text[cli_shortest_double(text, -73.961326)] = '\0';
    CHECK_STR(text, "-73.961326");
    text[cli_shortest_double(text, 1e20)] = '\0';
    CHECK_STR(text, "1e+20");
    text[cli_shortest_double(text, 0.00012)] = '\0';
    CHECK_STR(text, "0.00012");
}

static char *reference_escape(char *p, const unsigned char *s, size_t n)
{
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\') {
            *p++ = '\\';
            *p++ = (char)s[i];
        } else if (s[i] == '\n') {
            p += sprintf(p, "\\n");
        } else if (s[i] == '\r') {
            p += sprintf(p, "\\r");
        } else if (s[i] == '\t') {
            p += sprintf(p, "\\t");
        } else if (s[i] < 0x20) {
            p += sprintf(p, "\\u%04x", s[i]);
        } else {
            *p++ = (char)s[i];
        }
    }
    *p++ = '"';
    return p;
}

static void test_strings(void)
{
    static const unsigned char alphabet[] = {'a', 'Z', '0', ' ', '"', '\\', '\n', '\r', '\t', 0, 1, 0x1f,
                                             0x20, 0x7f, 0x80, 0xc3, 0xa9, 0xff, '!', '#', 0x5b, 0x5d};
    unsigned char src[300];
    char got[6 * sizeof src + 2], want[6 * sizeof src + 2];
    unsigned long long bad = 0;
    for (int round = 0; round < 200000; round++) {
        const size_t n = next_u64() % sizeof src;
        /* Mostly plain text, so the 32-byte runs are taken too. */
        const unsigned rare = 1 + (unsigned)(next_u64() % 64);
        for (size_t i = 0; i < n; i++) {
            const uint64_t r = next_u64();
            src[i] = r % rare == 0 ? alphabet[(r >> 8) % sizeof alphabet] : (unsigned char)('a' + (r >> 8) % 26);
        }
        const char *end = cli_put_json_string(got, (const char *)src, n);
        const char *wend = reference_escape(want, src, n);
        if ((end - got) != (wend - want) || memcmp(got, want, (size_t)(end - got)) != 0)
            bad++;
    }
    CHECK_MSG(bad == 0, "%llu strings escaped differently from the reference", bad);
}

/* Days since 1970-01-01 of a civil date, the straightforward way. */
static int64_t days_of(int64_t y, int m, int d)
{
    static const int before[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    int64_t days = 0;
    for (int64_t k = 1970; k < y; k++)
        days += (k % 4 == 0 && (k % 100 != 0 || k % 400 == 0)) ? 366 : 365;
    for (int64_t k = y; k < 1970; k++)
        days -= (k % 4 == 0 && (k % 100 != 0 || k % 400 == 0)) ? 366 : 365;
    const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    return days + before[m - 1] + (leap && m > 2) + d - 1;
}

static void test_dates(void)
{
    static const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    unsigned long long bad = 0;
    int64_t day = days_of(0, 1, 1);
    for (int64_t y = 0; y <= 9999; y++)
        for (int m = 1; m <= 12; m++) {
            const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
            for (int d = 1; d <= month_days[m - 1] + (m == 2 && leap); d++, day++) {
                char got[CLI_DATE_MAX + 1], want[32];
                got[cli_put_date(got, day)] = '\0';
                snprintf(want, sizeof want, "%04d-%02d-%02d", (int)y, m, d);
                bad += strcmp(got, want) != 0;
            }
        }
    CHECK_MSG(bad == 0, "%llu dates of years 0-9999 written wrong", bad);
    char text[CLI_TIMESTAMP_MAX + 1];
    text[cli_put_timestamp(text, 0, true)] = '\0';
    CHECK_STR(text, "1970-01-01T00:00:00Z");
    text[cli_put_timestamp(text, -1, true)] = '\0';
    CHECK_STR(text, "1969-12-31T23:59:59.999999Z");
    text[cli_put_timestamp(text, (days_of(2015, 1, 1) * 86400 + 12 * 60 + 5) * 1000000 + 120, true)] = '\0';
    CHECK_STR(text, "2015-01-01T00:12:05.000120Z");
    /* A naive timestamp (no offset in the text it was read from) is written without a zone. */
    text[cli_put_timestamp(text, (days_of(2015, 1, 1) * 86400 + 12 * 60 + 5) * 1000000, false)] = '\0';
    CHECK_STR(text, "2015-01-01T00:12:05");
    text[cli_put_date(text, days_of(12000, 3, 1))] = '\0';
    CHECK_STR(text, "12000-03-01");
    char number[24];
    number[cli_put_int64(number, INT64_MIN)] = '\0';
    CHECK_STR(number, "-9223372036854775808");
    number[cli_put_int64(number, 0)] = '\0';
    CHECK_STR(number, "0");
    number[cli_put_int64(number, 1234567890123)] = '\0';
    CHECK_STR(number, "1234567890123");
}

int main(int argc, char **argv)
{
    const unsigned long long count = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
    test_doubles(count);
    test_strings();
    test_dates();
    return check_summary();
}
