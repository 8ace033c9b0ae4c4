/*
 * test_values.c — the value layer (src/values/): int64, float64, bool, date
 * and timestamp parsers, single-field inference and the join of kinds.
 *
 *   test_values                 everything (about 10^7 float comparisons)
 *   test_values --floats N      N random float strings instead of 10^7
 *                               (the aarch64 run under qemu uses fewer)
 *   test_values --seed N        another random sequence (default fixed)
 *   test_values --bench         throughput of the int64 and float64 parsers
 *                               against strtoll/strtod; no tests
 *
 * The float parser must return exactly what the C library's strtod returns
 * (glibc rounds correctly) for every string it accepts: bit patterns are
 * compared, NaNs only as NaNs.  The strings: random doubles printed with
 * %.17g and with 1..25 significant digits, random digit strings of 1..40
 * digits with exponents -350..350, exact halfway points between adjacent
 * doubles (printed exactly by a big-integer printer written here), one unit
 * above and below them in the last digit, truncated, and extended past 800
 * digits; subnormals, the normal/subnormal boundary, DBL_MAX; 19 to 30
 * significant digits.  One string in 16 is also checked with a decimal
 * comma.  Integers are checked against strtoll the same way, dates
 * exhaustively (every day of years 0000..9999 against a day counter),
 * timestamps against the same counter.
 *
 * The last line is "N passed, N failed"; the exit status is 1 on failure.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/values/values.h"
#include "../src/values/fast.h"
#include "check.h"

/* ------------------------------------------------------------- harness */

static uint64_t rng_state = 0x5eed5eed12345678u;

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
    return rnd() % n;
}

static int64_t rnd_range(int64_t lo, int64_t hi) /* inclusive */
{
    return lo + (int64_t)rnd_below((uint64_t)(hi - lo + 1));
}

static double bits_to_double(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static uint64_t double_to_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A heap copy of exactly n bytes (no terminator), so that a sanitizer
 * build catches any read past the end of a field.  Freed by the next call. */
static const char *exact_copy(const char *s, size_t n)
{
    static char *last;
    free(last);
    last = malloc(n ? n : 1);
    if (!last) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memcpy(last, s, n);
    return last;
}

/* --------------------------------------------------------------- int64 */

typedef struct int_case {
    const char *s;
    int ok;
    int64_t v;
} int_case;

static void test_int64_fixed(void)
{
    static const int_case cases[] = {
        {"0", 1, 0},
        {"-0", 1, 0},
        {"+0", 1, 0},
        {"5", 1, 5},
        {"+5", 1, 5},
        {"-5", 1, -5},
        {"007", 1, 7},
        {"00501", 1, 501},
        {"12345678", 1, 12345678},
        {"123456789", 1, 123456789},
        {"1234567890123456", 1, 1234567890123456},
        {"12345678901234567", 1, 12345678901234567},
        {"9223372036854775807", 1, INT64_MAX},
        {"+9223372036854775807", 1, INT64_MAX},
        {"-9223372036854775808", 1, INT64_MIN},
        {"-9223372036854775807", 1, -INT64_MAX},
        {"00000000000000000000000009223372036854775807", 1, INT64_MAX},
        {"-00000000000000000000000009223372036854775808", 1, INT64_MIN},
        {"0000000000000000000000000000000", 1, 0},
        {"9223372036854775808", 0, 0},
        {"-9223372036854775809", 0, 0},
        {"9999999999999999999", 0, 0},
        {"10000000000000000000", 0, 0},
        {"18446744073709551616", 0, 0},
        {"99999999999999999999999", 0, 0},
        {"", 0, 0},
        {"-", 0, 0},
        {"+", 0, 0},
        {"--5", 0, 0},
        {"+-5", 0, 0},
        {" 5", 0, 0},
        {"5 ", 0, 0},
        {"1a", 0, 0},
        {"1.0", 0, 0},
        {"1e3", 0, 0},
        {"0x10", 0, 0},
        {"1234567a", 0, 0},
        {"12345678a", 0, 0},
        {"1234567812345678a", 0, 0},
        {"a1234567812345678", 0, 0},
        {"1234/678", 0, 0},
        {"1234:678", 0, 0},
        {"12345678901234567890123", 0, 0},
        {"0000000000000000000000x", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t v = 12345;
        size_t n = strlen(cases[i].s);
        bool ok = simdsv__parse_int64(exact_copy(cases[i].s, n), n, &v);
        CHECK_MSG(ok == (cases[i].ok != 0), "parse_int64(\"%s\") ok=%d", cases[i].s, ok);
        if (ok && cases[i].ok)
            CHECK_MSG(v == cases[i].v, "parse_int64(\"%s\") = %" PRId64, cases[i].s, v);
        if (!ok)
            CHECK_MSG(v == 12345, "parse_int64(\"%s\") wrote *out on failure", cases[i].s);
    }
    /* every bad byte at every position of a 19-digit literal */
    char buf[32];
    for (int pos = 0; pos < 19; pos++) {
        for (int c = 0; c < 256; c++) {
            if (c >= '0' && c <= '9')
                continue;
            memcpy(buf, "1234567890123456789", 20);
            buf[pos] = (char)c;
            int64_t v;
            bool ok = simdsv__parse_int64(buf, 19, &v);
            bool sign_ok = pos == 0 && (c == '-' || c == '+');
            CHECK_MSG(ok == sign_ok, "parse_int64 with byte %d at %d", c, pos);
        }
    }

    static const struct {
        const char *s;
        bool lz;
    } lz[] = {{"00501", true}, {"0", false},  {"-0", false},  {"+0", false},  {"01", true},
              {"-01", true},   {"+00", true}, {"10", false},  {"0.5", false}, {"00.5", true},
              {"0e5", false},  {"", false},   {"-", false},   {"0a", false},  {"100", false}};
    for (size_t i = 0; i < sizeof lz / sizeof lz[0]; i++)
        CHECK_MSG(simdsv__int_has_leading_zero(lz[i].s, strlen(lz[i].s)) == lz[i].lz,
              "int_has_leading_zero(\"%s\")", lz[i].s);
}

static void test_int64_random(long count)
{
    char buf[64];
    for (long i = 0; i < count; i++) {
        size_t n;
        if (i & 1) {
            int bits = (int)rnd_below(64);
            int64_t v = (int64_t)(rnd() >> (63 - bits));
            if (rnd() & 1)
                v = -v;
            n = (size_t)snprintf(buf, sizeof buf, "%" PRId64, v);
        } else {
            n = 0;
            uint64_t r = rnd();
            if (r & 1)
                buf[n++] = (r & 2) ? '-' : '+';
            size_t zeros = (r >> 2) % 4 == 0 ? (size_t)((r >> 4) % 8) : 0;
            size_t len = 1 + (size_t)rnd_below(22);
            for (size_t k = 0; k < zeros; k++)
                buf[n++] = '0';
            for (size_t k = 0; k < len; k++)
                buf[n++] = (char)('0' + rnd_below(10));
            buf[n] = 0;
        }
        errno = 0;
        char *end;
        long long ref = strtoll(buf, &end, 10);
        bool ref_ok = errno == 0 && *end == 0;
        int64_t v;
        bool ok = simdsv__parse_int64(exact_copy(buf, n), n, &v);
        CHECK_MSG(ok == ref_ok && (!ok || v == ref), "parse_int64(\"%s\") ok=%d v=%" PRId64
              " strtoll ok=%d %lld", buf, ok, ok ? v : 0, ref_ok, ref);
    }
}

/* ------------------------------------------------------------- float64 */

static unsigned long long float_strings;

/* s[n] == 0. Our parser must accept and agree with strtod bit for bit. */
static void check_float(const char *s, size_t n)
{
    char *end;
    double ref = strtod(s, &end);
    double got = 0;
    bool ok = simdsv__parse_double((float_strings & 3) ? s : exact_copy(s, n), n, &got);
    float_strings++;
    if (!ok || end != s + n) {
        FAIL_MSG("parse_double(\"%.200s\") ok=%d, strtod used %td of %zu bytes",
              s, ok, end - s, n);
        return;
    }
    if (isnan(ref) ? isnan(got) : double_to_bits(got) == double_to_bits(ref))
        PASS();
    else
        FAIL_MSG("parse_double(\"%.300s\") = %a, strtod = %a", s, got, ref);

    if (n <= 17) { /* the column loops' plain shape with bytes after the field: any bytes */
        char padded[40];
        memcpy(padded, s, n);
        for (size_t i = n; i < sizeof padded; i++)
            padded[i] = (float_strings & 4) ? (char)('0' + rnd_below(10)) : (char)rnd();
        double plain = 0, wide = 0;
        const bool plain_ok = simdsv__double_plain(s, n, '.', &plain);
        const bool wide_ok = simdsv__double_plain_wide(padded, n, '.', &wide);
        CHECK_MSG(wide_ok >= plain_ok && (!wide_ok || double_to_bits(wide) == double_to_bits(ref)),
                  "double_plain_wide(\"%.*s\") ok=%d = %a (plain ok=%d), strtod = %a", (int)n, s, (int)wide_ok, wide,
                  (int)plain_ok, ref);
    }

    if ((float_strings & 15) == 0) { /* the decimal comma variant */
        static char alt[4096];
        if (n < sizeof alt) {
            memcpy(alt, s, n + 1);
            char *dot = memchr(alt, '.', n);
            if (dot)
                *dot = ',';
            double got2 = 0;
            bool ok2 = simdsv__parse_double_comma(alt, n, &got2);
            CHECK_MSG(ok2 && (isnan(ref) ? isnan(got2) : double_to_bits(got2) == double_to_bits(ref)),
                  "parse_double_comma(\"%.200s\") = %a, want %a", alt, got2, ref);
            if (dot) {
                double got3;
                CHECK_MSG(!simdsv__parse_double(alt, n, &got3), "parse_double accepted \"%.200s\"",
                      alt);
                CHECK_MSG(!simdsv__parse_double_comma(s, n, &got3),
                      "parse_double_comma accepted \"%.200s\"", s);
            }
        }
    }
}

static void check_float_str(const char *s)
{
    check_float(s, strlen(s));
}

static void test_float_fixed(void)
{
    static const char *const accept[] = {
        /* the plain shapes near the limits of the column loops' fast paths (fast.h) */
        "9007199254740992", "9007199254740993", "9007199254740994", "9999999999999999", "-9007199254740995",
        "1234567890123456", "0000000000000001", "000000000000000.1", ".000000000000001", "123456789012345.",
        "900719925474099.3", "0.9007199254740993", "9007199254.740993", "+.5", "-5.", "12345678.9", "1234567.89",
        "-73.961326", "40.730267", "0.000485065", "4102.13941", "2.2250738585072014", "1.7976931348623157",
        "0.1000000000000000", "1.000000000000001", "999999999999999.9", "0.30000000000000004",
        "0", "-0", "+0", "0.0", "-0.0", "0e0", "-0e-0", "0e999999999999999999999",
        "-0E-999999999999", "00000000000000000000000000000000000000.000000000000000000000",
        "1", "-1", "+1", "1.", "-1.", ".5", "-.5", "+.5", "5.e3", ".5e-3", "1e0", "1E+0",
        "1e-0", "1e000000000000000000000000000001", "12.5", "-73.982155", "40.767937",
        "0.1", "0.2", "0.3", "3.14159265358979323846264338327950288419716939937510",
        "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
        "9007199254740993.0", "9007199254740993.00000000000000000000000000001",
        "9007199254740992.9999999999999999999999999", "9007199254740993e0",
        "90071992547409930e-1", "900719925474099300000000000000000e-17",
        "1e22", "1e23", "8.5e22", "1e-22", "1e-23", "123456789012345678",
        "1234567890123456789", "12345678901234567890", "9999999999999999999",
        "99999999999999999999", "18446744073709551615", "18446744073709551616",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649"
        "017977587207096330286416692887910946555547851940402630657488671505820681908902000708383"
        "676273854845817711531764475730270069855571366959622842914819860834936475292719074168444"
        "365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649"
        "017977587207096330286416692887910946555547851940402630657488671505820681908902000708383"
        "676273854845817711531764475730270069855571366959622842914819860834936475292719074168444"
        "365510704342711559699508093042880177904174497792",
        "1e308", "1e309", "1e400", "-1e400", "1e99999999999999999999", "2.2250738585072011e-308",
        "2.2250738585072012e-308", "2.2250738585072014e-308", "2.225073858507201136057409796709131975934819546351645648e-308",
        "4.9406564584124654e-324", "4.9e-324", "5e-324", "3e-324", "2.5e-324",
        "2.4703282292062328e-324", "2.4703282292062327e-324",
        "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649"
        "918180817996189898282347722858865463328355177969898199387398005390939063150356595155702"
        "263922908583924491051844359318028499365361525003193704576782492193656236698636584807570"
        "015857692699037063119282795585513329278343384093519780155312465972635795746227664652728"
        "272200563740064854999770965994704540208281662262378573934507363390079677619305775067401"
        "763246736009689513405355374585166611342237666786041621596804619144672918403005300575308"
        "490487653917113865916462395249126236538818796362393732804238910186723484976682350898633"
        "885879256283027559956575244555072551893136908362547791869486679949683240497058210285131"
        "854513962138377228261454376934125320985913276672363281249e-324",
        "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649"
        "918180817996189898282347722858865463328355177969898199387398005390939063150356595155702"
        "263922908583924491051844359318028499365361525003193704576782492193656236698636584807570"
        "015857692699037063119282795585513329278343384093519780155312465972635795746227664652728"
        "272200563740064854999770965994704540208281662262378573934507363390079677619305775067401"
        "763246736009689513405355374585166611342237666786041621596804619144672918403005300575308"
        "490487653917113865916462395249126236538818796362393732804238910186723484976682350898633"
        "885879256283027559956575244555072551893136908362547791869486679949683240497058210285131"
        "854513962138377228261454376934125320985913276672363281250e-324",
        "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649"
        "918180817996189898282347722858865463328355177969898199387398005390939063150356595155702"
        "263922908583924491051844359318028499365361525003193704576782492193656236698636584807570"
        "015857692699037063119282795585513329278343384093519780155312465972635795746227664652728"
        "272200563740064854999770965994704540208281662262378573934507363390079677619305775067401"
        "763246736009689513405355374585166611342237666786041621596804619144672918403005300575308"
        "490487653917113865916462395249126236538818796362393732804238910186723484976682350898633"
        "885879256283027559956575244555072551893136908362547791869486679949683240497058210285131"
        "854513962138377228261454376934125320985913276672363281250000000000000000000000000000001e-324",
        "1e-320", "1e-323", "1e-324", "1e-325", "1e-400", "-1e-400", "1e-99999999999999999",
        "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
        "7.2057594037927933e16", "7.2057594037927936e16", "4.4501477170144023e-308",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "1.00000000000000033306690738754696212708950042724609375",
        "0.500000000000000166533453693773481063544750213623046875",
        "3.0517578125e-05", "4.35679716e-1", "123456789.123456789e-5",
        "nan", "NaN", "NAN", "-nan", "+nan", "inf", "-inf", "+inf", "INF", "Inf",
        "infinity", "Infinity", "-Infinity", "+INFINITY", "iNfInItY",
    };
    for (size_t i = 0; i < sizeof accept / sizeof accept[0]; i++)
        check_float_str(accept[i]);

    static const char *const reject[] = {
        "", "+", "-", ".", "+.", "-.", "e5", ".e5", "1e", "1e+", "1e-", "1e+-5", "--1", "+-1",
        "1.2.3", "1..2", " 1", "1 ", "1\n", "0x10", "0x1p3", "1,5", "1_000", "nan(1)", "nanq",
        "na", "in", "infinit", "infinityy", "-infinit", "+-inf", "inf.0", "1e5.5", "1e5e5",
        "1d5", "1f", "1.5f", "e", "E", "ee", "5ee", "1.e", ".e", "1e 5", "\xd9\xa1", ("1\x00" "5"),
    };
    for (size_t i = 0; i < sizeof reject / sizeof reject[0]; i++) {
        double d = 42.0;
        size_t n = strlen(reject[i]);
        if (i == sizeof reject / sizeof reject[0] - 1)
            n = 3; /* "1\0" "5": an embedded NUL */
        CHECK_MSG(!simdsv__parse_double(exact_copy(reject[i], n), n, &d) && d == 42.0,
              "parse_double accepted \"%s\"", reject[i]);
        if (strcmp(reject[i], "1,5") != 0)
            CHECK_MSG(!simdsv__parse_double_comma(reject[i], n, &d) && d == 42.0,
                  "parse_double_comma accepted \"%s\"", reject[i]);
    }
    /* very long literals: linear time, exact */
    size_t big = 200000;
    char *lit = malloc(big + 64);
    if (lit) {
        size_t n = 0;
        lit[n++] = '0';
        lit[n++] = '.';
        memset(lit + n, '0', big);
        n += big;
        lit[n++] = '1';
        n += (size_t)sprintf(lit + n, "e%zu", big + 1);
        check_float(lit, n); /* 1 */
        n = (size_t)sprintf(lit, "9007199254740993.");
        memset(lit + n, '0', big);
        n += big;
        lit[n] = 0;
        check_float(lit, n); /* a tie: to even */
        lit[n++] = '1';
        lit[n] = 0;
        check_float(lit, n); /* just above the tie */
        memset(lit, '9', big);
        lit[big] = 0;
        check_float(lit, big); /* inf */
        n = (size_t)sprintf(lit, "1e-");
        memset(lit + n, '9', 1000);
        n += 1000;
        lit[n] = 0;
        check_float(lit, n); /* 0 */
        free(lit);
    }

    double d;
    CHECK_MSG(simdsv__parse_double_comma("1,5", 3, &d) && d == 1.5, "comma 1,5");
    CHECK_MSG(simdsv__parse_double_comma("-,5e1", 5, &d) && d == -5.0, "comma -,5e1");
    CHECK_MSG(!simdsv__parse_double_comma("1.5", 3, &d), "comma rejects 1.5");
    CHECK_MSG(simdsv__parse_double("-nan", 4, &d) && isnan(d) && signbit(d), "-nan has its sign");
    CHECK_MSG(simdsv__parse_double("-0", 2, &d) && d == 0 && signbit(d), "-0 is -0.0");
    CHECK_MSG(simdsv__parse_double("-1e-400", 7, &d) && d == 0 && signbit(d), "-1e-400 is -0.0");
}

/* The plain-decimal path loads a field of up to 16 bytes as two words and
 * takes the separator out by shifting: every length around the word size,
 * every separator position, with and without a sign, against strtod; and
 * one stray byte at every position is rejected (the word tests must not
 * let a byte of the other word, or past the end, decide). */
static void test_float_shapes(void)
{
    static const char stray[] = {'a', '/', ':', ' ', '.', 'e', '-', (char)0x80, (char)0xB9, 0};
    char buf[32];
    for (size_t len = 1; len <= 19; len++) {
        for (size_t at = 0; at <= len; at++) { /* at == len: no separator */
            for (int sign = 0; sign < 3; sign++) {
                size_t n = 0;
                if (sign)
                    buf[n++] = sign == 1 ? '-' : '+';
                const size_t first = n;
                for (size_t i = 0; i < len; i++)
                    buf[n++] = i == at ? '.' : (char)('0' + rnd_below(10));
                buf[n] = 0;
                if (!(len == 1 && at == 0))
                    check_float(buf, n);
                for (size_t k = 0; k < sizeof stray; k++) {
                    for (size_t i = first; i < n; i++) {
                        char bad[32];
                        memcpy(bad, buf, n);
                        /* a second '.', a sign inside, a NUL, a letter: never a number; but an 'e' may
                         * be, and so may the only '.' or a leading '-' */
                        if (bad[i] == stray[k] || stray[k] == 'e' || (stray[k] == '.' && at == len) ||
                            (stray[k] == '-' && i == 0))
                            continue;
                        bad[i] = stray[k];
                        double d = 42.0;
                        CHECK_MSG(!simdsv__parse_double(exact_copy(bad, n), n, &d) && d == 42.0,
                                  "parse_double accepted \"%.*s\" (stray byte %d at %zu)", (int)n, bad,
                                  (unsigned char)stray[k], i);
                        for (size_t j = n; j < sizeof bad; j++)
                            bad[j] = (char)('0' + rnd_below(10));
                        CHECK_MSG(!simdsv__double_plain_wide(bad, n, '.', &d) && d == 42.0,
                                  "double_plain_wide accepted \"%.*s\" (stray byte %d at %zu)", (int)n, bad,
                                  (unsigned char)stray[k], i);
                    }
                }
            }
        }
    }
}

/* ---- exact decimal printing of m * 2^k (independent of the library) */

#define TB_LIMBS 200

typedef struct tbig {
    uint32_t w[TB_LIMBS];
    int n;
} tbig;

static void tb_mul(tbig *a, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] * m + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry)
        a->w[a->n++] = (uint32_t)carry;
}

static uint32_t tb_divmod(tbig *a, uint32_t d)
{
    uint64_t rem = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t cur = rem << 32 | a->w[i];
        a->w[i] = (uint32_t)(cur / d);
        rem = cur % d;
    }
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
    return (uint32_t)rem;
}

/* Writes the decimal digits of m * 2^k (m > 0) to out, NUL-terminated, and
 * returns the decimal exponent x with value = digits * 10^x. */
static int exact_digits(uint64_t m, int k, char *out)
{
    tbig a;
    a.w[0] = (uint32_t)m;
    a.w[1] = (uint32_t)(m >> 32);
    a.n = a.w[1] ? 2 : 1;
    int x = 0;
    if (k >= 0) {
        for (; k >= 31; k -= 31)
            tb_mul(&a, 1u << 31);
        tb_mul(&a, 1u << k);
    } else {
        x = k;
        for (k = -k; k >= 13; k -= 13)
            tb_mul(&a, 1220703125u); /* 5^13 */
        for (; k > 0; k--)
            tb_mul(&a, 5);
    }
    char rev[1200];
    int len = 0;
    while (a.n > 0) {
        uint32_t r = tb_divmod(&a, 1000000000u);
        for (int i = 0; i < 9; i++) {
            rev[len++] = (char)('0' + r % 10);
            r /= 10;
        }
    }
    while (len > 1 && rev[len - 1] == '0')
        len--;
    for (int i = 0; i < len; i++)
        out[i] = rev[len - 1 - i];
    out[len] = 0;
    /* strip trailing zeros into the exponent */
    while (len > 1 && out[len - 1] == '0') {
        out[--len] = 0;
        x++;
    }
    return x;
}

/* Adds delta (+1 or -1) to the decimal integer in digits (in place; may
 * grow by one digit or lose its leading digit). */
static void decimal_step(char *digits, int delta)
{
    size_t len = strlen(digits);
    size_t i = len;
    if (delta > 0) {
        while (i > 0 && digits[i - 1] == '9')
            digits[--i] = '0';
        if (i == 0) {
            memmove(digits + 1, digits, len + 1);
            digits[0] = '1';
        } else {
            digits[i - 1]++;
        }
    } else {
        while (i > 0 && digits[i - 1] == '0')
            digits[--i] = '9';
        if (i == 0) /* was zero: not used */
            return;
        digits[i - 1]--;
        if (digits[0] == '0' && len > 1)
            memmove(digits, digits + 1, len);
    }
}

/* Writes digits * 10^x as a literal in a random style: integer mantissa
 * with exponent, scientific, or positional; random sign and exponent
 * spelling.  Returns the length. */
static size_t format_decimal(const char *digits, long x, char *out, size_t cap)
{
    size_t len = strlen(digits), n = 0;
    uint64_t r = rnd();
    if (r % 8 == 0)
        out[n++] = '-';
    else if (r % 8 == 1)
        out[n++] = '+';
    int style = (int)((r >> 3) % 3);
    long sci = x + (long)len - 1;
    if (style == 2 && ((x >= 0 && x > 30) || (x < 0 && -x - (long)len > 30)))
        style = 1;
    if (len + 64 + (style == 2 ? 40 : 0) > cap)
        style = 0;
    if (style == 2) {
        if (x >= 0) {
            memcpy(out + n, digits, len);
            n += len;
            for (long i = 0; i < x; i++)
                out[n++] = '0';
            if ((r >> 5) & 1)
                out[n++] = '.';
        } else if ((long)len > -x) {
            size_t ip = len - (size_t)(-x);
            memcpy(out + n, digits, ip);
            n += ip;
            out[n++] = '.';
            memcpy(out + n, digits + ip, len - ip);
            n += len - ip;
        } else {
            if ((r >> 5) & 1)
                out[n++] = '0';
            out[n++] = '.';
            for (long i = 0; i < -x - (long)len; i++)
                out[n++] = '0';
            memcpy(out + n, digits, len);
            n += len;
        }
        out[n] = 0;
        return n;
    }
    long e = x;
    if (style == 1) {
        out[n++] = digits[0];
        if (len > 1) {
            out[n++] = '.';
            memcpy(out + n, digits + 1, len - 1);
            n += len - 1;
        }
        e = sci;
    } else {
        memcpy(out + n, digits, len);
        n += len;
    }
    out[n++] = ((r >> 6) & 1) ? 'E' : 'e';
    if (e < 0)
        out[n++] = '-';
    else if ((r >> 7) & 1)
        out[n++] = '+';
    if (((r >> 8) & 7) == 0)
        out[n++] = '0';
    n += (size_t)snprintf(out + n, cap - n, "%ld", e < 0 ? -e : e);
    return n;
}

static uint64_t random_finite_bits(void)
{
    for (;;) {
        uint64_t b = rnd() & 0x7FFFFFFFFFFFFFFFu;
        if ((b >> 52) != 0x7FF)
            return b;
    }
}

/* A positive finite double from a mix of ranges. */
static uint64_t random_double_bits(void)
{
    uint64_t r = rnd_below(100);
    uint64_t frac = rnd() & 0x000FFFFFFFFFFFFFu;
    if (r < 40)
        return random_finite_bits();
    if (r < 70) /* |value| in roughly 1e-20 .. 1e20 */
        return (uint64_t)rnd_range(1023 - 66, 1023 + 66) << 52 | frac;
    if (r < 85) /* subnormal */
        return frac >> rnd_below(52);
    if (r < 92) /* near the smallest normal */
        return (uint64_t)rnd_range(0, 2) << 52 | frac;
    if (r < 97) /* near DBL_MAX */
        return (uint64_t)rnd_range(2044, 2046) << 52 | frac;
    /* a few units from the edges of the mantissa */
    uint64_t field = (uint64_t)rnd_range(1, 2046) << 52;
    uint64_t low = rnd_below(4);
    return field | ((rnd() & 1) ? low : 0x000FFFFFFFFFFFFFu - low);
}

static char fbuf[8192];

/* %.17g and %.Ng / %.Ne of random doubles. */
static void float_printf_case(bool shortest_too)
{
    uint64_t b = random_double_bits();
    if (rnd() & 1)
        b |= 0x8000000000000000u;
    double d = bits_to_double(b);
    int precision = (int)rnd_range(0, 24);
    uint64_t r = rnd();
    size_t n;
    if (shortest_too && (r & 1))
        n = (size_t)snprintf(fbuf, sizeof fbuf, "%.17g", d);
    else
        n = (size_t)snprintf(fbuf, sizeof fbuf, (r & 2) ? "%.*g" : "%.*e", precision, d);
    check_float(fbuf, n);
}

/* Random digit strings: len digits (first may be 0), a point somewhere or
 * nowhere, an exponent in [-350, 350] or none. */
static void float_digits_case(size_t len, long emin, long emax)
{
    size_t n = 0;
    uint64_t r = rnd();
    if (r % 6 == 0)
        fbuf[n++] = '-';
    else if (r % 6 == 1)
        fbuf[n++] = '+';
    size_t point = (r >> 3) % 3 == 0 ? (size_t)-1 : (size_t)rnd_below(len + 1);
    for (size_t i = 0; i < len; i++) {
        if (i == point)
            fbuf[n++] = '.';
        fbuf[n++] = (char)('0' + ((i == 0 && (r >> 5) % 4 != 0) ? 1 + rnd_below(9) : rnd_below(10)));
    }
    if (point == len)
        fbuf[n++] = '.';
    if ((r >> 7) % 4 != 0 || point == (size_t)-1) {
        fbuf[n++] = ((r >> 9) & 1) ? 'E' : 'e';
        n += (size_t)snprintf(fbuf + n, sizeof fbuf - n, ((r >> 10) & 1) ? "%+ld" : "%ld",
                              (long)rnd_range(emin, emax));
    }
    fbuf[n] = 0;
    check_float(fbuf, n);
}

/* Exact halfway points between b and b + 1, and strings next to them. */
static void float_halfway_case(bool long_tails)
{
    uint64_t b = random_double_bits();
    if (b >= 0x7FEFFFFFFFFFFFFFu && rnd() % 2)
        b = 0x7FEFFFFFFFFFFFFFu; /* DBL_MAX: the point toward inf */
    uint64_t field = b >> 52, m = b & 0x000FFFFFFFFFFFFFu;
    int e = -1074;
    if (field) {
        m |= (uint64_t)1 << 52;
        e = (int)field - 1075;
    }
    static char digits[1400], work[1400];
    int x = exact_digits(2 * m + 1, e - 1, digits);
    size_t n;

    n = format_decimal(digits, x, fbuf, sizeof fbuf); /* the tie itself */
    check_float(fbuf, n);

    strcpy(work, digits); /* one unit above in the last digit */
    decimal_step(work, +1);
    n = format_decimal(work, x, fbuf, sizeof fbuf);
    check_float(fbuf, n);

    strcpy(work, digits); /* one unit below */
    decimal_step(work, -1);
    if (work[0] != '0') {
        n = format_decimal(work, x, fbuf, sizeof fbuf);
        check_float(fbuf, n);
    }

    size_t len = strlen(digits); /* truncated to fewer digits, +-1 */
    if (len > 2) {
        size_t keep = 1 + (size_t)rnd_below(len - 1 < 40 ? len - 1 : 40);
        memcpy(work, digits, keep);
        work[keep] = 0;
        long xt = x + (long)(len - keep);
        n = format_decimal(work, xt, fbuf, sizeof fbuf);
        check_float(fbuf, n);
        decimal_step(work, +1);
        n = format_decimal(work, xt, fbuf, sizeof fbuf);
        check_float(fbuf, n);
    }

    if (long_tails) {
        /* the tie followed by zeros and a final 1 past digit 800: just above */
        size_t total = 801 + (size_t)rnd_below(400);
        if (total < len + 2)
            total = len + 2;
        memcpy(work, digits, len);
        memset(work + len, '0', total - len);
        work[total - 1] = '1';
        work[total] = 0;
        n = format_decimal(work, x - (long)(total - len), fbuf, sizeof fbuf);
        check_float(fbuf, n);
        /* just below: the tie minus one unit, then nines */
        memcpy(work, digits, len + 1);
        decimal_step(work, -1);
        size_t wl = strlen(work);
        if (work[0] != '0' && wl == len) {
            memset(work + wl, '9', total - wl);
            work[total] = 0;
            n = format_decimal(work, x - (long)(total - wl), fbuf, sizeof fbuf);
            check_float(fbuf, n);
        }
        /* the tie followed by only zeros (a tie still) */
        memcpy(work, digits, len);
        memset(work + len, '0', total - len);
        work[total] = 0;
        n = format_decimal(work, x - (long)(total - len), fbuf, sizeof fbuf);
        check_float(fbuf, n);
    }
}

static void test_float_random(long target)
{
    double t0 = now_seconds();
    unsigned long long start = float_strings;
    unsigned long long goal = start + (unsigned long long)target;
    long round = 0;
    while (float_strings < goal) {
        long phase = round++ % 50;
        if (phase < 12) {
            float_printf_case(true);
        } else if (phase < 24) {
            float_printf_case(false);
        } else if (phase < 38) {
            float_digits_case(1 + (size_t)rnd_below(40), -350, 350);
        } else if (phase < 44) {
            /* 19 to 30 significant digits, ordinary and extreme scales */
            size_t len = 19 + (size_t)rnd_below(12);
            long lo = (rnd() & 1) ? -40 : -350;
            long hi = (rnd() & 1) ? 40 : 330;
            float_digits_case(len, lo, hi);
        } else if (phase < 48) {
            float_digits_case(1 + (size_t)rnd_below(17), -30, 30);
        } else {
            float_halfway_case(round % 1000 == 49);
        }
    }
    printf("float64: %llu strings compared with strtod in %.1f s\n", float_strings - start,
           now_seconds() - t0);
}

/* ---------------------------------------------------------------- bool */

static void test_bool(void)
{
    static const struct {
        const char *s;
        int ok, v;
    } cases[] = {{"true", 1, 1},   {"True", 1, 1},   {"TRUE", 1, 1},   {"false", 1, 0},
                 {"False", 1, 0},  {"FALSE", 1, 0},  {"tRUE", 0, 0},   {"fALSE", 0, 0},
                 {"t", 0, 0},      {"f", 0, 0},      {"1", 0, 0},      {"0", 0, 0},
                 {"yes", 0, 0},    {"", 0, 0},       {" true", 0, 0},  {"true ", 0, 0},
                 {"truee", 0, 0},  {"fals", 0, 0},   {"TrUe", 0, 0},   {"FaLsE", 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool v = false;
        bool ok = simdsv__parse_bool(exact_copy(cases[i].s, strlen(cases[i].s)),
                                     strlen(cases[i].s), NULL, &v);
        CHECK_MSG(ok == (cases[i].ok != 0) && (!ok || v == (cases[i].v != 0)), "parse_bool(\"%s\")",
              cases[i].s);
        bool v2 = false;
        bool ok2 = simdsv__parse_bool(cases[i].s, strlen(cases[i].s),
                                      &simdsv__bool_tokens_default, &v2);
        CHECK_MSG(ok2 == ok && v2 == v, "parse_bool(\"%s\") with the default list", cases[i].s);
    }
    static const simdsv__token yes[] = {{"yes", 3}, {"Y", 1}, {"1", 1}};
    static const simdsv__token no[] = {{"no", 2}, {"N", 1}, {"0", 1}, {"", 0}};
    simdsv__bool_tokens custom = {yes, 3, no, 4};
    bool v;
    CHECK_MSG(simdsv__parse_bool("yes", 3, &custom, &v) && v, "custom yes");
    CHECK_MSG(simdsv__parse_bool("1", 1, &custom, &v) && v, "custom 1");
    CHECK_MSG(simdsv__parse_bool("N", 1, &custom, &v) && !v, "custom N");
    CHECK_MSG(simdsv__parse_bool("", 0, &custom, &v) && !v, "custom empty");
    CHECK_MSG(!simdsv__parse_bool("true", 4, &custom, &v), "custom rejects true");
    CHECK_MSG(!simdsv__parse_bool("y", 1, &custom, &v), "custom is case-sensitive");
}

/* ------------------------------------------------------- dates, times */

#define FIRST_DAY (-719528) /* 0000-01-01 */
#define DAY_COUNT 3652425   /* 0000-01-01 .. 9999-12-31 */

static uint16_t *day_year;
static uint8_t *day_month, *day_mday;

static int month_days_ref(int y, int m) /* written differently from the library */
{
    if (m == 2)
        return (y % 400 == 0) ? 29 : (y % 100 == 0) ? 28 : (y % 4 == 0) ? 29 : 28;
    return (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
}

static void put_date(char *p, int y, int m, int d)
{
    p[0] = (char)('0' + y / 1000);
    p[1] = (char)('0' + y / 100 % 10);
    p[2] = (char)('0' + y / 10 % 10);
    p[3] = (char)('0' + y % 10);
    p[4] = '-';
    p[5] = (char)('0' + m / 10);
    p[6] = (char)('0' + m % 10);
    p[7] = '-';
    p[8] = (char)('0' + d / 10);
    p[9] = (char)('0' + d % 10);
}

static void test_dates(void)
{
    day_year = malloc(DAY_COUNT * sizeof *day_year);
    day_month = malloc(DAY_COUNT);
    day_mday = malloc(DAY_COUNT);
    if (!day_year || !day_month || !day_mday) {
        FAIL_MSG("out of memory");
        return;
    }
    long day = FIRST_DAY;
    unsigned long long bad = 0, good = 0, checked_zero = 0;
    char buf[16];
    for (int y = 0; y <= 9999; y++) {
        for (int m = 0; m <= 13; m++) {
            int dim = (m >= 1 && m <= 12) ? month_days_ref(y, m) : 0;
            for (int d = 0; d <= 32; d++) {
                put_date(buf, y, m, d);
                int32_t got = 7777777, fast = 7777777;
                simdsv__time_result r = simdsv__scan_date(buf, 10, &got);
                /* the column loops' fixed-shape path: the same days, or false */
                const bool fast_ok = simdsv__date_plain(buf, 10, &fast);
                if (fast_ok != (d >= 1 && d <= dim) || (fast_ok && fast != day))
                    FAIL_MSG("date_plain(%.10s) = %d (%d), want %ld", buf, (int)fast_ok, fast, day);
                if (d >= 1 && d <= dim) {
                    if (r == SIMDSV__TIME_OK && got == day)
                        good++;
                    else
                        FAIL_MSG("scan_date(%.10s) = %d (%d), want %ld", buf,
                              (int)r, got, day);
                    day_year[day - FIRST_DAY] = (uint16_t)y;
                    day_month[day - FIRST_DAY] = (uint8_t)m;
                    day_mday[day - FIRST_DAY] = (uint8_t)d;
                    if (y == 1970 && m == 1 && d == 1)
                        checked_zero = (day == 0);
                    day++;
                } else {
                    if (r == SIMDSV__TIME_RANGE && got == 7777777)
                        bad++;
                    else
                        FAIL_MSG("scan_date(%.10s) = %d, want a range error",
                              buf, (int)r);
                }
            }
        }
    }
    h_passed += (int)(good + bad);
    CHECK_MSG(day == FIRST_DAY + DAY_COUNT, "day count %ld", day - FIRST_DAY);
    CHECK_MSG(checked_zero, "1970-01-01 is day 0");
    printf("dates: %llu valid and %llu invalid dates checked\n", good, bad);

    static const struct {
        const char *s;
        simdsv__time_result r;
        int32_t days;
    } cases[] = {
        {"1970-01-01", SIMDSV__TIME_OK, 0},        {"1969-12-31", SIMDSV__TIME_OK, -1},
        {"2000-01-01", SIMDSV__TIME_OK, 10957},    {"2000-02-29", SIMDSV__TIME_OK, 11016},
        {"2024-02-29", SIMDSV__TIME_OK, 19782},    {"1900-03-01", SIMDSV__TIME_OK, -25508},
        {"0000-01-01", SIMDSV__TIME_OK, -719528},  {"9999-12-31", SIMDSV__TIME_OK, 2932896},
        {"0000-02-29", SIMDSV__TIME_OK, -719469},  {"2024-02-30", SIMDSV__TIME_RANGE, 0},
        {"2023-02-29", SIMDSV__TIME_RANGE, 0},     {"1900-02-29", SIMDSV__TIME_RANGE, 0},
        {"2100-02-29", SIMDSV__TIME_RANGE, 0},     {"2024-13-01", SIMDSV__TIME_RANGE, 0},
        {"2024-00-10", SIMDSV__TIME_RANGE, 0},     {"2024-04-31", SIMDSV__TIME_RANGE, 0},
        {"2024-01-00", SIMDSV__TIME_RANGE, 0},     {"2024-1-01", SIMDSV__TIME_SYNTAX, 0},
        {"2024/01/01", SIMDSV__TIME_SYNTAX, 0},    {"2024-01-011", SIMDSV__TIME_SYNTAX, 0},
        {"2024-01-0a", SIMDSV__TIME_SYNTAX, 0},    {" 2024-01-01", SIMDSV__TIME_SYNTAX, 0},
        {"+2024-01-01", SIMDSV__TIME_SYNTAX, 0},   {"2024-01-1", SIMDSV__TIME_SYNTAX, 0},
        {"20240101", SIMDSV__TIME_SYNTAX, 0},      {"2024-01-01T00:00", SIMDSV__TIME_SYNTAX, 0},
        {"2\xff" "24-01-01", SIMDSV__TIME_SYNTAX, 0}, {"2024-0\xfa-01", SIMDSV__TIME_SYNTAX, 0},
        {"", SIMDSV__TIME_SYNTAX, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int32_t got = 0;
        simdsv__time_result r =
            simdsv__scan_date(exact_copy(cases[i].s, strlen(cases[i].s)), strlen(cases[i].s), &got);
        CHECK_MSG(r == cases[i].r && (r != SIMDSV__TIME_OK || got == cases[i].days),
              "scan_date(\"%s\") = %d (%d)", cases[i].s, (int)r, got);
        CHECK_MSG(simdsv__parse_date(cases[i].s, strlen(cases[i].s), &got) ==
                  (cases[i].r == SIMDSV__TIME_OK),
              "parse_date(\"%s\")", cases[i].s);
        got = 0;
        const bool fast_ok = simdsv__date_plain(exact_copy(cases[i].s, strlen(cases[i].s)), strlen(cases[i].s), &got);
        CHECK_MSG(fast_ok == (cases[i].r == SIMDSV__TIME_OK) && (!fast_ok || got == cases[i].days),
                  "date_plain(\"%s\") = %d (%d)", cases[i].s, (int)fast_ok, got);
    }
}

static void test_timestamps(void)
{
    static const struct {
        const char *s;
        simdsv__time_result r;
        int64_t us;
    } cases[] = {
        {"1970-01-01T00:00:00Z", SIMDSV__TIME_OK, 0},
        {"1970-01-01", SIMDSV__TIME_OK, 0},
        {"1970-01-01T00:00", SIMDSV__TIME_OK, 0},
        {"1970-01-01 00:00:01", SIMDSV__TIME_OK, 1000000},
        {"1970-01-01t00:00:01", SIMDSV__TIME_OK, 1000000},
        {"2024-02-29T23:59:59", SIMDSV__TIME_OK, 1709251199000000},
        {"2000-02-29 00:00:00", SIMDSV__TIME_OK, 951782400000000},
        {"1900-02-28 23:59:59", SIMDSV__TIME_OK, -2203891201000000},
        {"1900-02-29 00:00:00", SIMDSV__TIME_RANGE, 0},
        {"2024-04-31 00:00:00", SIMDSV__TIME_RANGE, 0},
        {"2024-00-01 00:00:00", SIMDSV__TIME_RANGE, 0},
        {"2024-01-00 00:00:00", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29_12:34:56", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56Z", SIMDSV__TIME_OK, 1709210096000000},
        {"2024-02-29T12:34;56", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:3a:56", SIMDSV__TIME_SYNTAX, 0},
        {"2024/02-29T12:34:56", SIMDSV__TIME_SYNTAX, 0},
        {"1970-01-01t00:01z", SIMDSV__TIME_OK, 60000000},
        {"2024-02-29T12:34:56", SIMDSV__TIME_OK, 1709210096000000},
        {"2024-02-29T12:34:56.789", SIMDSV__TIME_OK, 1709210096789000},
        {"2024-02-29T12:34:56.7", SIMDSV__TIME_OK, 1709210096700000},
        {"2024-02-29T12:34:56.123456", SIMDSV__TIME_OK, 1709210096123456},
        {"2024-02-29T12:34:56.123456789", SIMDSV__TIME_OK, 1709210096123456},
        {"2024-02-29T12:34:56.999999999Z", SIMDSV__TIME_OK, 1709210096999999},
        {"2024-02-29T14:34:56+02:00", SIMDSV__TIME_OK, 1709210096000000},
        {"2024-02-29T14:34:56+0200", SIMDSV__TIME_OK, 1709210096000000},
        {"2024-02-29T07:04:56-05:30", SIMDSV__TIME_OK, 1709210096000000},
        {"2024-02-29T12:34:56-00:00", SIMDSV__TIME_OK, 1709210096000000},
        {"2024-02-29T12:34:56.5+01:00", SIMDSV__TIME_OK, 1709206496500000},
        {"2024-03-01T00:30+01:00", SIMDSV__TIME_OK, 1709249400000000},
        {"2024-02-29 23:30-01:00", SIMDSV__TIME_OK, 1709253000000000},
        {"1969-12-31T23:59:59.9999999", SIMDSV__TIME_OK, -1},
        {"1969-12-31T23:59:59.5", SIMDSV__TIME_OK, -500000},
        {"1969-12-31T23:59:59", SIMDSV__TIME_OK, -1000000},
        {"0000-01-01T00:00:00", SIMDSV__TIME_OK, -62167219200000000},
        {"9999-12-31T23:59:59.999999", SIMDSV__TIME_OK, 253402300799999999},
        {"2000-01-01T00:00:00+23:59", SIMDSV__TIME_OK, 946598460000000},
        {"2024-02-29T24:00:00", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29T23:60:00", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29T23:59:60", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29T23:59:61", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29T23:59:99", SIMDSV__TIME_RANGE, 0},
        {"2023-02-29T00:00:00", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29T12:00+24:00", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29T12:00+01:60", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29T12:00+0160", SIMDSV__TIME_RANGE, 0},
        {"2024-02-29T", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29 ", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:3", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:5", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56.", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56.1234567890", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34.5", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56+02", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56+2:00", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56+02:0", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56 +02:00", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56ZZ", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56Z ", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29X12:34:56", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12-34-56", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T1a:34:56", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:5\xff", SIMDSV__TIME_SYNTAX, 0},
        {"2024-2-29T12:34:56", SIMDSV__TIME_SYNTAX, 0},
        {"2024-02-29T12:34:56,5", SIMDSV__TIME_SYNTAX, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t got = 0;
        simdsv__time_result r = simdsv__scan_timestamp(exact_copy(cases[i].s, strlen(cases[i].s)),
                                                       strlen(cases[i].s), &got);
        CHECK_MSG(r == cases[i].r && (r != SIMDSV__TIME_OK || got == cases[i].us),
              "scan_timestamp(\"%s\") = %d (%" PRId64 ")", cases[i].s, (int)r, got);
        CHECK_MSG(simdsv__parse_timestamp(cases[i].s, strlen(cases[i].s), &got) ==
                  (cases[i].r == SIMDSV__TIME_OK),
              "parse_timestamp(\"%s\")", cases[i].s);
        /* the column loops' fixed-shape path takes every valid
         * YYYY-MM-DD?HH:MM:SS (the only valid 19-byte shape) and nothing else */
        const size_t n = strlen(cases[i].s);
        got = 0;
        const bool fast_ok = simdsv__timestamp_plain(exact_copy(cases[i].s, n), n, &got);
        CHECK_MSG(fast_ok == (cases[i].r == SIMDSV__TIME_OK && n == 19) && (!fast_ok || got == cases[i].us),
                  "timestamp_plain(\"%s\") = %d (%" PRId64 ")", cases[i].s, (int)fast_ok, got);
    }

    /* random instants against the day table of test_dates */
    if (!day_year)
        return;
    char buf[64];
    for (int i = 0; i < 300000; i++) {
        long di = (long)rnd_below(DAY_COUNT);
        int y = day_year[di], mo = day_month[di], d = day_mday[di];
        int h = (int)rnd_below(24), mi = (int)rnd_below(60), s = (int)rnd_below(60);
        int fd = (int)rnd_below(10); /* fraction digits, 0 = none */
        uint32_t frac = (uint32_t)rnd_below(1000000000);
        int zone = (int)rnd_below(4); /* none, Z, +HH:MM, +HHMM */
        int oh = (int)rnd_below(24), om = (int)rnd_below(60), osign = (rnd() & 1) ? -1 : 1;
        bool secs = fd > 0 || (rnd() & 1);
        size_t n = 0;
        put_date(buf, y, mo, d);
        n = 10;
        buf[n++] = (rnd() & 1) ? 'T' : ' ';
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%02d:%02d", h, mi);
        int64_t frac_us = 0;
        if (secs) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, ":%02d", s);
            if (fd > 0) {
                char f9[16];
                snprintf(f9, sizeof f9, "%09u", (unsigned)frac);
                buf[n++] = '.';
                memcpy(buf + n, f9, (size_t)fd);
                n += (size_t)fd;
                f9[fd] = 0;
                for (int k = fd; k < 6; k++)
                    f9[k] = '0';
                f9[6] = 0;
                frac_us = strtol(f9, NULL, 10);
            }
        } else {
            s = 0;
        }
        int64_t off = 0;
        if (zone == 1) {
            buf[n++] = 'Z';
        } else if (zone >= 2) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, zone == 2 ? "%c%02d:%02d" : "%c%02d%02d",
                                  osign < 0 ? '-' : '+', oh, om);
            off = osign * (oh * 3600 + mi * 0 + om * 60);
        }
        buf[n] = 0;
        int64_t want = ((int64_t)(di + FIRST_DAY) * 86400 + h * 3600 + mi * 60 + s - off) * 1000000 +
                       frac_us;
        int64_t got = 0;
        bool ok = simdsv__parse_timestamp(exact_copy(buf, n), n, &got);
        CHECK_MSG(ok && got == want, "parse_timestamp(\"%s\") = %" PRId64 ", want %" PRId64, buf, got,
              want);
        if (n == 19) {
            got = 0;
            ok = simdsv__timestamp_plain(exact_copy(buf, n), n, &got);
            CHECK_MSG(ok && got == want, "timestamp_plain(\"%s\") = %" PRId64 ", want %" PRId64, buf, got, want);
        }
    }
}

/* ----------------------------------------------------------- inference */

static void test_infer(void)
{
    static const struct {
        const char *s;
        unsigned flags;
        simdsv_type kind;
        simdsv__infer_reason why;
    } cases[] = {
        {"", 0, SIMDSV_TYPE_NULL, SIMDSV__WHY_NONE},
        {"", SIMDSV_FIELD_QUOTED, SIMDSV_TYPE_STRING, SIMDSV__WHY_QUOTED},
        {"123", SIMDSV_FIELD_QUOTED, SIMDSV_TYPE_STRING, SIMDSV__WHY_QUOTED},
        {"true", SIMDSV_FIELD_QUOTED, SIMDSV_TYPE_STRING, SIMDSV__WHY_QUOTED},
        {"123", SIMDSV_FIELD_NEEDS_UNESCAPE, SIMDSV_TYPE_INT64, SIMDSV__WHY_NONE},
        {"true", 0, SIMDSV_TYPE_BOOL, SIMDSV__WHY_NONE},
        {"FALSE", 0, SIMDSV_TYPE_BOOL, SIMDSV__WHY_NONE},
        {"False", 0, SIMDSV_TYPE_BOOL, SIMDSV__WHY_NONE},
        {"tRue", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"yes", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"0", 0, SIMDSV_TYPE_INT64, SIMDSV__WHY_NONE},
        {"-0", 0, SIMDSV_TYPE_INT64, SIMDSV__WHY_NONE},
        {"+5", 0, SIMDSV_TYPE_INT64, SIMDSV__WHY_NONE},
        {"-5", 0, SIMDSV_TYPE_INT64, SIMDSV__WHY_NONE},
        {"1234567", 0, SIMDSV_TYPE_INT64, SIMDSV__WHY_NONE},
        {"9223372036854775807", 0, SIMDSV_TYPE_INT64, SIMDSV__WHY_NONE},
        {"-9223372036854775808", 0, SIMDSV_TYPE_INT64, SIMDSV__WHY_NONE},
        {"9223372036854775808", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INT_RANGE},
        {"-9223372036854775809", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INT_RANGE},
        {"123456789012345678901234567890", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INT_RANGE},
        {"00501", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_LEADING_ZERO},
        {"-01", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_LEADING_ZERO},
        {"00", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_LEADING_ZERO},
        {"007.5", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_LEADING_ZERO},
        {"01e3", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_LEADING_ZERO},
        {"0.5", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"-0.5", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"0e5", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"12.5", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"-73.982155", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {".5", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"5.", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"1e5", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"+1.5E-3", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"12345678901234567890.0", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"1e308", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"1e400", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_FLOAT_OVERFLOW},
        {"-1e400", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_FLOAT_OVERFLOW},
        {"1.7976931348623159e308", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_FLOAT_OVERFLOW},
        {"1e-400", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_FLOAT_UNDERFLOW},
        {"0.0e-400", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"4.9e-324", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"nan", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"NaN", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"-nan", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"inf", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"+inf", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"-inf", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"Infinity", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"-Infinity", 0, SIMDSV_TYPE_FLOAT64, SIMDSV__WHY_NONE},
        {"info", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"Nancy", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"-", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {".", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"1,5", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {" 5", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"5 ", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"1.2.3", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"0x1F", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"hello", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"2024-01-15", 0, SIMDSV_TYPE_DATE, SIMDSV__WHY_NONE},
        {"2024-02-29", 0, SIMDSV_TYPE_DATE, SIMDSV__WHY_NONE},
        {"2024-02-30", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INVALID_DATE},
        {"2023-02-29", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INVALID_DATE},
        {"2024-13-01", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INVALID_DATE},
        {"2024-1-15", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"2024-01-15T10:30", 0, SIMDSV_TYPE_TIMESTAMP, SIMDSV__WHY_NONE},
        {"2024-01-15 10:30:00", 0, SIMDSV_TYPE_TIMESTAMP, SIMDSV__WHY_NONE},
        {"2024-01-15T10:30:00.123Z", 0, SIMDSV_TYPE_TIMESTAMP, SIMDSV__WHY_NONE},
        {"2024-01-15T10:30:00+05:30", 0, SIMDSV_TYPE_TIMESTAMP, SIMDSV__WHY_NONE},
        {"2024-01-15T24:00", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INVALID_TIMESTAMP},
        {"2024-01-15T23:59:60", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INVALID_TIMESTAMP},
        {"2024-02-30T10:00", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_INVALID_TIMESTAMP},
        {"2024-01-15T10", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"2024-01-15 x", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
        {"1234-5678-9", 0, SIMDSV_TYPE_STRING, SIMDSV__WHY_TEXT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        simdsv__infer_reason why = SIMDSV__WHY_TEXT;
        simdsv_type k = simdsv__infer_field(exact_copy(cases[i].s, strlen(cases[i].s)),
                                                  strlen(cases[i].s), cases[i].flags, &why);
        CHECK_MSG(k == cases[i].kind && why == cases[i].why,
              "infer(\"%s\", %u) = %s (\"%s\"), want %s (\"%s\")", cases[i].s, cases[i].flags,
              simdsv_type_name(k), simdsv__infer_reason_text(why),
              simdsv_type_name(cases[i].kind), simdsv__infer_reason_text(cases[i].why));
        CHECK_MSG(simdsv__infer_field(cases[i].s, strlen(cases[i].s), cases[i].flags, NULL) == k,
              "infer(\"%s\") with why == NULL", cases[i].s);
        /* whatever is inferred must parse as that kind */
        const char *s = cases[i].s;
        size_t n = strlen(s);
        int64_t iv;
        double dv;
        bool bv;
        int32_t days;
        switch (k) {
        case SIMDSV_TYPE_INT64:
            CHECK_MSG(simdsv__parse_int64(s, n, &iv) && simdsv__parse_double(s, n, &dv),
                  "\"%s\" parses as int64 and float64", s);
            break;
        case SIMDSV_TYPE_FLOAT64:
            CHECK_MSG(simdsv__parse_double(s, n, &dv), "\"%s\" parses as float64", s);
            break;
        case SIMDSV_TYPE_BOOL:
            CHECK_MSG(simdsv__parse_bool(s, n, NULL, &bv), "\"%s\" parses as bool", s);
            break;
        case SIMDSV_TYPE_DATE:
            CHECK_MSG(simdsv__parse_date(s, n, &days) && simdsv__parse_timestamp(s, n, &iv),
                  "\"%s\" parses as date and timestamp", s);
            break;
        case SIMDSV_TYPE_TIMESTAMP:
            CHECK_MSG(simdsv__parse_timestamp(s, n, &iv), "\"%s\" parses as timestamp", s);
            break;
        default:
            break;
        }
    }
    CHECK_MSG(strcmp(simdsv__infer_reason_text(SIMDSV__WHY_LEADING_ZERO), "leading zero") == 0,
          "reason text");
    CHECK_MSG(strcmp(simdsv__infer_reason_text(SIMDSV__WHY_INT_RANGE), "integer does not fit int64") ==
              0,
          "reason text");
    CHECK_MSG(strcmp(simdsv__infer_reason_text(SIMDSV__WHY_FLOAT_OVERFLOW), "overflows float64") == 0,
          "reason text");
    CHECK_MSG(strcmp(simdsv__infer_reason_text(SIMDSV__WHY_INVALID_DATE), "invalid date") == 0,
          "reason text");
    CHECK_MSG(simdsv_type_name((simdsv_type)99) == NULL, "kind_name out of range");

    /* the join: the full table */
    enum { N_ = SIMDSV_TYPE_NULL, B_ = SIMDSV_TYPE_BOOL, I_ = SIMDSV_TYPE_INT64,
           F_ = SIMDSV_TYPE_FLOAT64, D_ = SIMDSV_TYPE_DATE, T_ = SIMDSV_TYPE_TIMESTAMP,
           S_ = SIMDSV_TYPE_STRING };
    static const unsigned char join[7][7] = {
        /*        N   B   I   F   D   T   S */
        /* N */ {N_, B_, I_, F_, D_, T_, S_},
        /* B */ {B_, B_, S_, S_, S_, S_, S_},
        /* I */ {I_, S_, I_, F_, S_, S_, S_},
        /* F */ {F_, S_, F_, F_, S_, S_, S_},
        /* D */ {D_, S_, S_, S_, D_, T_, S_},
        /* T */ {T_, S_, S_, S_, T_, T_, S_},
        /* S */ {S_, S_, S_, S_, S_, S_, S_},
    };
    for (int a = 0; a < 7; a++) {
        for (int b = 0; b < 7; b++) {
            simdsv_type j = simdsv__kind_join((simdsv_type)a, (simdsv_type)b);
            CHECK_MSG(j == join[a][b], "join(%s, %s) = %s", simdsv_type_name((simdsv_type)a),
                  simdsv_type_name((simdsv_type)b), simdsv_type_name(j));
            /* a lattice: associative, and the join is an upper bound */
            for (int c = 0; c < 7; c++) {
                simdsv_type l = simdsv__kind_join(
                    simdsv__kind_join((simdsv_type)a, (simdsv_type)b),
                    (simdsv_type)c);
                simdsv_type r = simdsv__kind_join(
                    (simdsv_type)a,
                    simdsv__kind_join((simdsv_type)b, (simdsv_type)c));
                CHECK_MSG(l == r, "join is associative at %d %d %d", a, b, c);
            }
        }
    }
}

/* --------------------------------------------------------------- bench */

typedef struct field_set {
    const char *name;
    char *text;   /* fields separated by NUL */
    size_t *off;  /* start of each */
    size_t *len;
    size_t count;
    size_t bytes; /* sum of the lengths */
} field_set;

static void set_add(field_set *fs, const char *s, size_t *cap, size_t *tcap, size_t *tlen)
{
    size_t n = strlen(s);
    if (fs->count == *cap) {
        *cap = *cap ? *cap * 2 : 1024;
        fs->off = realloc(fs->off, *cap * sizeof *fs->off);
        fs->len = realloc(fs->len, *cap * sizeof *fs->len);
    }
    if (*tlen + n + 1 > *tcap) {
        *tcap = (*tcap + n + 1) * 2;
        fs->text = realloc(fs->text, *tcap);
    }
    if (!fs->off || !fs->len || !fs->text) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memcpy(fs->text + *tlen, s, n + 1);
    fs->off[fs->count] = *tlen;
    fs->len[fs->count] = n;
    fs->count++;
    fs->bytes += n;
    *tlen += n + 1;
}

static field_set make_set(const char *name, int kind, size_t count)
{
    field_set fs = {name, NULL, NULL, NULL, 0, 0};
    size_t cap = 0, tcap = 0, tlen = 0;
    char buf[64];
    for (size_t i = 0; i < count; i++) {
        switch (kind) {
        case 0: /* taxi coordinates */
            snprintf(buf, sizeof buf, "%s%d.%06d", (i & 1) ? "-" : "", (i & 1) ? 73 : 40,
                     (int)rnd_below(1000000));
            break;
        case 1: /* prices and short decimals */
            snprintf(buf, sizeof buf, "%d.%0*d", (int)rnd_below(200), (int)(1 + i % 2),
                     (int)rnd_below(i % 2 ? 100 : 10));
            break;
        case 2: /* %.17g random doubles in ordinary ranges */
            snprintf(buf, sizeof buf, "%.17g",
                     bits_to_double((uint64_t)rnd_range(1023 - 30, 1023 + 30) << 52 |
                                    (rnd() & 0x000FFFFFFFFFFFFFu)));
            break;
        case 3: /* ids and counts */
            snprintf(buf, sizeof buf, "%d", (int)rnd_range(1000000, 9999999));
            break;
        case 4: /* small ints */
            snprintf(buf, sizeof buf, "%d", (int)rnd_below(100));
            break;
        default: /* 13-digit timestamps in ms */
            snprintf(buf, sizeof buf, "%" PRId64, (int64_t)rnd_range(1600000000000, 1800000000000));
            break;
        }
        set_add(&fs, buf, &cap, &tcap, &tlen);
    }
    return fs;
}

/* CPU time of this thread: the machine may be shared, and time spent
 * descheduled must not count. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile double sink_d;
static volatile int64_t sink_i;

static void bench_set(const field_set *fs, bool is_int, int reps)
{
    double best_ours = 1e30, best_ref = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = cpu_seconds(), acc = 0;
        int64_t iacc = 0;
        for (size_t i = 0; i < fs->count; i++) {
            if (is_int) {
                int64_t v = 0;
                simdsv__parse_int64(fs->text + fs->off[i], fs->len[i], &v);
                iacc += v;
            } else {
                double v = 0;
                simdsv__parse_double(fs->text + fs->off[i], fs->len[i], &v);
                acc += v;
            }
        }
        double t1 = cpu_seconds();
        sink_d = acc;
        sink_i = iacc;
        if (t1 - t0 < best_ours)
            best_ours = t1 - t0;
        t0 = cpu_seconds();
        acc = 0;
        iacc = 0;
        for (size_t i = 0; i < fs->count; i++) {
            if (is_int)
                iacc += strtoll(fs->text + fs->off[i], NULL, 10);
            else
                acc += strtod(fs->text + fs->off[i], NULL);
        }
        t1 = cpu_seconds();
        sink_d = acc;
        sink_i = iacc;
        if (t1 - t0 < best_ref)
            best_ref = t1 - t0;
    }
    double mb = (double)fs->bytes / 1e6;
    printf("%-34s %8.1f MB/s %6.2f ns/value | %-7s %7.1f MB/s %6.2f ns/value | x%.1f\n",
           fs->name, mb / best_ours, best_ours * 1e9 / (double)fs->count,
           is_int ? "strtoll" : "strtod", mb / best_ref, best_ref * 1e9 / (double)fs->count,
           best_ref / best_ours);
}

static void bench(void)
{
    const size_t count = 200000;
    static const struct {
        const char *name;
        int kind;
        bool is_int;
    } sets[] = {
        {"float taxi coords -73.982155", 0, false},
        {"float prices 12.5 / 7.25", 1, false},
        {"float %.17g (17 digits)", 2, false},
        {"float ints 1234567 as double", 3, false},
        {"int64 1234567", 3, true},
        {"int64 0..99", 4, true},
        {"int64 13-digit ms timestamps", 5, true},
    };
    printf("%zu fields per set, best of 21 runs, thread CPU time\n", count);
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        field_set fs = make_set(sets[i].name, sets[i].kind, count);
        bench_set(&fs, sets[i].is_int, 21);
        free(fs.text);
        free(fs.off);
        free(fs.len);
    }
}

/* ---------------------------------------------------------------- main */

/* Digit groups (grouped.c): exact values, and the shapes refused. */
static void test_grouped(void)
{
    static const struct {
        const char *s;
        char sep;
        int64_t want;
    } ints[] = {{"1,234", ',', 1234},           {"-12,345,678", ',', -12345678},
                {"+999,999", ',', 999999},      {"1.000.000", '.', 1000000},
                {"9 223 372 036 854 775 807", ' ', INT64_MAX}, {"1'000", '\'', 1000}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        int64_t v = 0;
        CHECK_MSG(simdsv__parse_int64_grouped(ints[i].s, strlen(ints[i].s), ints[i].sep, &v) && v == ints[i].want,
                  "int64_grouped(\"%s\") = %lld", ints[i].s, (long long)v);
    }
    static const char *const bad_ints[] = {"1234", "1,23", "1,2345", "12345,678", ",123", "1,234,", "0,123",
                                           "1,234.5", "-", "1,,234", "9,223,372,036,854,775,808", ""};
    for (size_t i = 0; i < sizeof bad_ints / sizeof bad_ints[0]; i++) {
        int64_t v = 42;
        CHECK_MSG(!simdsv__parse_int64_grouped(bad_ints[i], strlen(bad_ints[i]), ',', &v) && v == 42,
                  "int64_grouped accepted \"%s\"", bad_ints[i]);
    }
    static const struct {
        const char *s;
        char sep;
        bool comma;
        double want;
    } floats[] = {{"1,234.56", ',', false, 1234.56}, {"-1.234,56", '.', true, -1234.56},
                  {"12,345,678.9", ',', false, 12345678.9}, {"1.234", '.', true, 1234.0},
                  {"1 234,5", ' ', true, 1234.5},    {"999,999.999999", ',', false, 999999.999999}};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        double v = 0;
        CHECK_MSG(simdsv__parse_double_grouped(floats[i].s, strlen(floats[i].s), floats[i].sep, floats[i].comma, &v) &&
                      v == floats[i].want,
                  "double_grouped(\"%s\") = %.17g", floats[i].s, v);
    }
    static const char *const bad_floats[] = {"1234.5", "1,234.", "1,234.5e3", "1,234,5", "1,23.4", "nan", "1,234.5x"};
    for (size_t i = 0; i < sizeof bad_floats / sizeof bad_floats[0]; i++) {
        double v = 42;
        CHECK_MSG(!simdsv__parse_double_grouped(bad_floats[i], strlen(bad_floats[i]), ',', false, &v) && v == 42,
                  "double_grouped accepted \"%s\"", bad_floats[i]);
    }
    double v = 42;
    CHECK(!simdsv__parse_double_grouped("1,234", 5, ',', true, &v) && v == 42); /* the separator is the decimal mark */
}

int main(int argc, char **argv)
{
    long floats = 10000000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0) {
            bench();
            return 0;
        } else if (strcmp(argv[i], "--floats") == 0 && i + 1 < argc) {
            floats = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            rng_state = strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: %s [--floats N] [--seed N] [--bench]\n", argv[0]);
            return 2;
        }
    }
    double t0 = now_seconds();
    test_int64_fixed();
    test_int64_random(1000000);
    test_float_fixed();
    test_float_shapes();
    test_bool();
    test_dates();
    test_timestamps();
    test_infer();
    test_grouped();
    test_float_random(floats);
    exact_copy("", 0);
    free(day_year);
    free(day_month);
    free(day_mday);
    printf("total %.1f s\n", now_seconds() - t0);
    return check_summary();
}
