/*
 * test_fields.c — the number kernels (src/values/fields.h) on every kernel
 * the CPU has: runs of generated fields, each separated by ';' and followed
 * by bytes that read like digits, through every kernel.  Each field a
 * kernel takes must be a field of the kernels' shapes (checked against an
 * independent description of them here) and its value must be strtod's bit
 * for bit (strtoll's for int64); each field it stops at must not be of those
 * shapes or be longer than 16 bytes (the SIMD kernels' one load; the scalar
 * one may take longer fields), and the run goes on after it.  Nulls are counted, and nothing
 * past the last field is written.  Internal functions: static library only.
 *
 *   test_fields [FIELDS]   random fields per kind and kernel (default 200000)
 */
#include "values/fields.h"
#include "values/fast.h"
#include "check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

enum { MAX_FIELDS = 4096, MAX_FIELD = 24 };

typedef struct run {
    char buf[MAX_FIELDS * (MAX_FIELD + 1) + 64];
    uint32_t pos[MAX_FIELDS + 1];
    size_t count, len;
} run;

/* One field: mostly the common shapes (a sign, digits, one separator),
 * some with a stray byte, some too long, some empty. */
static size_t make_field(char *f, unsigned char sep)
{
    static const char stray[] = "0123456789.,+-eE \"x\x80\xff/:";
    const uint64_t r = next_random();
    if (r % 23 == 0)
        return 0;
    size_t n = 0;
    if (r % 5 == 0)
        f[n++] = r % 2 ? '-' : '+';
    const size_t digits = 1 + (size_t)(r >> 8) % (r % 7 == 0 ? 20 : 17);
    const size_t sep_at = (r >> 16) % 3 == 0 ? digits + 1 : (size_t)(r >> 24) % (digits + 1);
    for (size_t i = 0; i < digits && n + 2 <= MAX_FIELD; i++) {
        if (i == sep_at)
            f[n++] = (char)sep;
        const uint64_t d = next_random();
        /* runs of nines and zeros: the carries and the 2^53 edge */
        f[n++] = (char)('0' + (r % 11 == 0 ? 9 : r % 13 == 0 ? 0 : d % 10));
    }
    if (sep_at == digits && n < MAX_FIELD)
        f[n++] = (char)sep;
    if ((r >> 56) % 4 == 0 && n + 6 <= MAX_FIELD) { /* an exponent: 1..4 digits, a sign or not */
        const uint64_t e = next_random();
        f[n++] = e % 2 ? 'e' : 'E';
        if (e % 3)
            f[n++] = e % 3 == 1 ? '-' : '+';
        for (size_t i = 0; i <= (e >> 8) % 4; i++)
            f[n++] = (char)('0' + (e >> (16 + 4 * i)) % (i ? 10 : 3));
    }
    if ((r >> 32) % 9 == 0)
        f[(r >> 40) % n] = stray[(r >> 48) % (sizeof stray - 1)];
    return n;
}

static void add_field(run *u, const char *f, size_t n)
{
    u->pos[u->count++] = (uint32_t)u->len;
    memcpy(u->buf + u->len, f, n);
    u->len += n;
    u->buf[u->len++] = ';';
    u->pos[u->count] = (uint32_t)u->len;
}

/* Digits after the last field (a kernel must not read them as the field's). */
static void close_run(run *u)
{
    for (size_t i = 0; i < 64; i++)
        u->buf[u->len + i] = (char)('0' + i % 10);
}

/* [+-]? then the body: how many bytes and where the separator is (body
 * length when none); 0 when the body is not digits with at most one sep. */
static int body_shape(const char *f, size_t n, unsigned char sep, size_t *sign, size_t *len, size_t *at)
{
    *sign = n && (f[0] == '-' || f[0] == '+');
    *len = n - *sign;
    *at = *len;
    for (size_t i = 0; i < *len; i++) {
        const unsigned char c = (unsigned char)f[*sign + i];
        if (c == sep && *at == *len)
            *at = i;
        else if (c < '0' || c > '9')
            return 0;
    }
    return *len >= 1 && !(*len == 1 && *at == 0);
}

/* The float64 fields the kernels take: the plain shape, and with exponent
 * (the SIMD kernels) also followed by [eE][+-]?D{1,3} when the whole field
 * has at most 16 bytes and 16 - (digits before the separator) - exponent
 * is within [-22, 22] (one exact division or multiplication). */
static int float_shape(const char *f, size_t n, unsigned char sep, int exponent)
{
    size_t m = n; /* the mantissa's bytes */
    long e = 0;
    if (exponent)
        for (size_t i = 0; i < n; i++)
            if (f[i] == 'e' || f[i] == 'E') {
                size_t j = i + 1;
                const int neg = j < n && f[j] == '-';
                j += j < n && (f[j] == '-' || f[j] == '+');
                if (j == n || n - j > 3 || n > 16)
                    return 0;
                for (; j < n; j++) {
                    if (f[j] < '0' || f[j] > '9')
                        return 0;
                    e = e * 10 + (f[j] - '0');
                }
                e = neg ? -e : e;
                m = i;
                break;
            }
    size_t sign, len, at;
    if (!body_shape(f, m, sep, &sign, &len, &at) || len > 16)
        return 0;
    if (m < n) {
        const long k = 16 - (long)(sign + at) - e;
        return k >= -22 && k <= 22;
    }
    if (len == 16 && at == 16) {
        char digits[17];
        memcpy(digits, f + sign, 16);
        digits[16] = 0;
        return strtoull(digits, NULL, 10) <= (uint64_t)1 << 53;
    }
    return 1;
}

static int int_shape(const char *f, size_t n, int no_leading_zero, size_t most_digits)
{
    size_t sign, len, at;
    return body_shape(f, n, 0, &sign, &len, &at) && at == len && len <= most_digits &&
           !(no_leading_zero && len > 1 && f[sign] == '0');
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static void check_floats(const char *kernel, const value_kernel *k, const run *u, unsigned char sep, int simd)
{
    static double out[MAX_FIELDS + 1];
    out[u->count] = 42.0;
    size_t i = 0;
    uint64_t nulls = 0, want_nulls = 0;
    while (i < u->count) {
        const size_t took = k->float64_fields(u->buf, u->pos + i, 1, u->count - i, u->len, sep, out + i, &nulls);
        for (size_t j = i; j < i + took; j++) {
            const char *f = u->buf + u->pos[j];
            const size_t n = u->pos[j + 1] - 1 - u->pos[j];
            char text[MAX_FIELD + 1];
            memcpy(text, f, n);
            text[n] = 0;
            if (n == 0) {
                want_nulls++;
                CHECK_MSG(out[j] == 0.0, "%s: null field %zu wrote %a", kernel, j, out[j]);
                continue;
            }
            if (sep != '.') {
                char *c = memchr(text, sep, n);
                if (c)
                    *c = '.';
            }
            const double want = strtod(text, NULL);
            CHECK_MSG(float_shape(f, n, sep, simd) && bits_of(out[j]) == bits_of(want),
                      "%s: float64 \"%.*s\" (sep %c) took %a, strtod %a", kernel, (int)n, f, sep, out[j], want);
        }
        i += took;
        if (i == u->count)
            break;
        const char *f = u->buf + u->pos[i];
        const size_t n = u->pos[i + 1] - 1 - u->pos[i];
        CHECK_MSG(n && (!float_shape(f, n, sep, simd) || u->pos[i] + 17 > u->len || n > 16),
                  "%s: float64 stopped at \"%.*s\" (sep %c), field %zu of %zu", kernel, (int)n, f, sep, i, u->count);
        i++;
    }
    CHECK_MSG(nulls == want_nulls, "%s: float64 nulls %" PRIu64 ", want %" PRIu64, kernel, nulls, want_nulls);
    CHECK(out[u->count] == 42.0);
}

static void check_ints(const char *kernel, const value_kernel *k, const run *u, int no_leading_zero, int simd)
{
    static int64_t out[MAX_FIELDS + 1];
    out[u->count] = 42;
    size_t i = 0;
    uint64_t nulls = 0, want_nulls = 0;
    while (i < u->count) {
        const size_t took =
            k->int64_fields(u->buf, u->pos + i, 1, u->count - i, u->len, no_leading_zero, out + i, &nulls);
        for (size_t j = i; j < i + took; j++) {
            const char *f = u->buf + u->pos[j];
            const size_t n = u->pos[j + 1] - 1 - u->pos[j];
            char text[MAX_FIELD + 1];
            memcpy(text, f, n);
            text[n] = 0;
            if (n == 0) {
                want_nulls++;
                CHECK_MSG(out[j] == 0, "%s: null field %zu wrote %" PRId64, kernel, j, out[j]);
                continue;
            }
            errno = 0;
            const long long want = strtoll(text, NULL, 10);
            CHECK_MSG(int_shape(f, n, no_leading_zero, simd ? 16 : MAX_FIELD) && errno == 0 && out[j] == want,
                      "%s: int64 \"%.*s\" took %" PRId64, kernel, (int)n, f, out[j]);
        }
        i += took;
        if (i == u->count)
            break;
        const char *f = u->buf + u->pos[i];
        const size_t n = u->pos[i + 1] - 1 - u->pos[i];
        CHECK_MSG(n && (!int_shape(f, n, no_leading_zero, 16) || (simd && (u->pos[i] + 17 > u->len || n > 16))),
                  "%s: int64 stopped at \"%.*s\", field %zu of %zu", kernel, (int)n, f, i, u->count);
        i++;
    }
    CHECK_MSG(nulls == want_nulls, "%s: int64 nulls %" PRIu64 ", want %" PRIu64, kernel, nulls, want_nulls);
    CHECK(out[u->count] == 42);
}

/* A date "YYYY-MM-DD" or timestamp "YYYY-MM-DD HH:MM:SS": every part near
 * and past its range (leap days of every kind of year among them), now and
 * then a byte changed, the length cut or another separator. */
static size_t make_time(char *f, int with_time)
{
    static const char stray[] = "0123456789-: Tt/x\x80";
    const uint64_t r = next_random(), q = next_random();
    const unsigned year = r % 4 == 0 ? (unsigned)(q % 25) * 400 + (unsigned)(r >> 8) % 3 * 100 : (unsigned)(q % 10000);
    const unsigned month = r % 3 == 0 ? (unsigned)(q >> 16) % 14 : 1 + (unsigned)(q >> 16) % 12;
    const unsigned day = r % 3 == 1 ? (unsigned)(q >> 24) % 33 : 27 + (unsigned)(q >> 24) % 4;
    const unsigned hour = (unsigned)(q >> 32) % 26, minute = (unsigned)(q >> 40) % 62, second = (unsigned)(q >> 48) % 62;
    static const char between[] = " TtZ";
    int n = with_time ? snprintf(f, MAX_FIELD + 1, "%04u-%02u-%02u%c%02u:%02u:%02u", year, month, day,
                                 between[(r >> 16) % 4 == 3 ? 3 : (r >> 18) % 3], hour, minute, second)
                      : snprintf(f, MAX_FIELD + 1, "%04u-%02u-%02u", year, month, day);
    if ((r >> 24) % 11 == 0)
        f[(r >> 32) % (unsigned)n] = stray[(r >> 40) % (sizeof stray - 1)];
    if ((r >> 48) % 17 == 0)
        n -= 1 + (int)((r >> 56) % 3);
    if ((r >> 52) % 29 == 0)
        n = 0;
    return (size_t)n;
}

static void check_times(const char *kernel, const value_kernel *k, const run *u, int with_time, int simd)
{
    static int64_t out[MAX_FIELDS + 1];
    static int32_t days[MAX_FIELDS + 1];
    out[u->count] = 42;
    days[u->count] = 42;
    const size_t need = with_time ? 20 : 17; /* bytes the SIMD kernels read from a field's start, and one */
    size_t i = 0;
    uint64_t nulls = 0, want_nulls = 0;
    while (i < u->count) {
        const size_t took = with_time ? k->timestamp_fields(u->buf, u->pos + i, 1, u->count - i, u->len, out + i, &nulls)
                                      : k->date_fields(u->buf, u->pos + i, 1, u->count - i, u->len, days + i, &nulls);
        for (size_t j = i; j < i + took; j++) {
            const char *f = u->buf + u->pos[j];
            const size_t n = u->pos[j + 1] - 1 - u->pos[j];
            const int64_t got = with_time ? out[j] : days[j];
            if (n == 0) {
                want_nulls++;
                CHECK_MSG(got == 0, "%s: null field %zu wrote %" PRId64, kernel, j, got);
                continue;
            }
            int64_t want = -1, general = -2;
            int32_t d = -1, gd = -2;
            const int plain = with_time ? simdsv__timestamp_plain(f, n, &want) : simdsv__date_plain(f, n, &d);
            const int parsed = with_time ? simdsv__parse_timestamp(f, n, &general) : simdsv__parse_date(f, n, &gd);
            if (!with_time) {
                want = d;
                general = gd;
            }
            CHECK_MSG(plain && parsed && got == want && got == general,
                      "%s: %s \"%.*s\" took %" PRId64 ", fixed shape %d %" PRId64 ", general %d %" PRId64, kernel,
                      with_time ? "timestamp" : "date", (int)n, f, got, plain, want, parsed, general);
        }
        i += took;
        if (i == u->count)
            break;
        const char *f = u->buf + u->pos[i];
        const size_t n = u->pos[i + 1] - 1 - u->pos[i];
        int64_t v;
        int32_t d;
        const int plain = with_time ? simdsv__timestamp_plain(f, n, &v) : simdsv__date_plain(f, n, &d);
        CHECK_MSG(n && (!plain || (simd && u->pos[i] + need > u->len)), "%s: %s stopped at \"%.*s\", field %zu of %zu",
                  kernel, with_time ? "timestamp" : "date", (int)n, f, i, u->count);
        i++;
    }
    CHECK_MSG(nulls == want_nulls, "%s: time nulls %" PRIu64 ", want %" PRIu64, kernel, nulls, want_nulls);
    CHECK(out[u->count] == 42 && days[u->count] == 42);
}

/* A string field: text of 0..40 bytes, or now and then up to 199 (several
 * of the wider kernels' steps), quoted or not, with a quote or escape byte
 * inside now and then, or often (runs of them, across steps). */
enum { MAX_STRING = 202 };
static size_t make_string(char *f, int quote, int escape)
{
    static const char bytes[] = "abc XYZ,;\n\x80\xff" "0123456789";
    const uint64_t r = next_random();
    const size_t len = (r >> 16) % 4 ? (size_t)(r % 41) : (size_t)(r % 200);
    const int quoted = quote < 256 && (r >> 8) % 2;
    const uint64_t quotes = (r >> 24) % 3 ? 97 : 3, escapes = quotes == 3 ? 5 : 89;
    size_t n = 0;
    if (quoted)
        f[n++] = (char)quote;
    for (size_t i = 0; i < len; i++) {
        const uint64_t b = next_random();
        f[n++] = b % quotes == 0 && quote < 256 ? (char)quote
                 : b % escapes == 0 && escape < 256 ? (char)escape
                                                   : bytes[(b >> 8) % (sizeof bytes - 1)];
    }
    if (quoted)
        f[n++] = (char)quote;
    return n;
}

/* The text a string field stands for: a quoted one decoded by
 * simdsv_unescape (the general path's rules), into out. */
static size_t string_text(const char *f, size_t n, int quote, int escape, char *out)
{
    if (n >= 2 && (unsigned char)f[0] == quote) {
        const simdsv_field field = {f + 1, n - 2, SIMDSV_FIELD_QUOTED | SIMDSV_FIELD_NEEDS_UNESCAPE};
        return simdsv_unescape(&field, quote, escape < 256 ? escape : -1, out);
    }
    memcpy(out, f, n);
    return n;
}

static void check_strings(const char *kernel, const value_kernel *k, const run *u, int quote, int escape)
{
    static char chars[sizeof u->buf + 64];
    static int32_t ends[MAX_FIELDS + 1];
    char want[MAX_STRING];
    size_t len = 3, want_len = 3; /* bytes of earlier runs */
    size_t i = 0;
    uint64_t nulls = 0, want_nulls = 0;
    ends[u->count] = 42;
    while (i < u->count) {
        const size_t took = k->string_fields(u->buf, u->pos + i, 1, u->count - i, u->len, (unsigned)quote,
                                             (unsigned)escape, chars, &len, ends + i, &nulls);
        for (size_t j = i; j < i + took; j++) {
            const char *f = u->buf + u->pos[j];
            const size_t n = u->pos[j + 1] - 1 - u->pos[j];
            const size_t size = string_text(f, n, quote, escape, want);
            CHECK_MSG(ends[j] == (int32_t)(want_len + size) && memcmp(chars + want_len, want, size) == 0,
                      "%s: string \"%.*s\" took, end %d (want %zu)", kernel, (int)n, f, (int)ends[j], want_len + size);
            want_len += size;
            want_nulls += n == 0;
        }
        i += took;
        CHECK_MSG(len == want_len, "%s: string bytes %zu, want %zu", kernel, len, want_len);
        if (i == u->count)
            break;
        /* stopped: only a field too near the end */
        const char *f = u->buf + u->pos[i];
        const size_t n = u->pos[i + 1] - 1 - u->pos[i];
        CHECK_MSG(u->pos[i + 1] - 1 + 16 > u->len, "%s: string stopped at \"%.*s\", field %zu of %zu", kernel,
                  (int)n, f, i, u->count);
        /* the caller's own loop takes it: its text as is */
        memcpy(chars + want_len, f, n);
        len = want_len += n;
        ends[i] = (int32_t)want_len;
        want_nulls += n == 0;
        nulls += n == 0;
        i++;
    }
    CHECK_MSG(nulls == want_nulls, "%s: string nulls %" PRIu64 ", want %" PRIu64, kernel, nulls, want_nulls);
    CHECK(ends[u->count] == 42);
}

/* k->unescape on each quoted field of the run against simdsv_unescape, and
 * no byte written past its 16 bytes of room. */
static void check_unescape(const char *kernel, const value_kernel *k, const run *u, int quote, int escape)
{
    char want[MAX_STRING], got[MAX_STRING + 16 + 8];
    for (size_t i = 0; i < u->count; i++) {
        const char *f = u->buf + u->pos[i];
        const size_t n = u->pos[i + 1] - 1 - u->pos[i];
        if (n < 2 || (unsigned char)f[0] != quote)
            continue;
        const size_t size = string_text(f, n, quote, escape, want);
        memset(got, '#', sizeof got);
        const size_t len = k->unescape(f + 1, n - 2, (unsigned)quote, (unsigned)escape, got);
        int kept = 1;
        for (size_t b = n - 2 + 16; b < sizeof got; b++)
            kept &= got[b] == '#';
        CHECK_MSG(len == size && memcmp(got, want, size) == 0 && kept, "%s: unescape \"%.*s\": %zu bytes \"%.*s\"",
                  kernel, (int)n, f, len, (int)len, got);
    }
}

/* Every length 1..16 and separator place, signs, the 2^53 edge. */
static void fixed_fields(run *u, unsigned char sep)
{
    u->count = u->len = 0;
    char f[MAX_FIELD];
    for (size_t len = 1; len <= 16; len++)
        for (size_t at = 0; at <= len; at++)
            for (int sign = 0; sign < 3; sign++) {
                size_t n = 0;
                if (sign)
                    f[n++] = sign == 1 ? '-' : '+';
                for (size_t i = 0; i < len; i++)
                    f[n++] = i == at ? (char)sep : (char)('0' + (next_random() % 10));
                add_field(u, f, n);
            }
    static const char *const edges[] = {"9007199254740992", "9007199254740993", "9007199254740994",
                                        "-9007199254740993", "9999999999999999", "0000000000000001",
                                        "0",                 "-0",               "00",
                                        "+0",                "1",                "-",
                                        "+",                 "12345678901234567"};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
        add_field(u, edges[i], strlen(edges[i]));
    close_run(u);
}

int main(int argc, char **argv)
{
    const long fields = argc > 1 ? atol(argv[1]) : 200000;
    static const simdsv_kernel kernels[] = {SIMDSV_KERNEL_SCALAR, SIMDSV_KERNEL_SSE42, SIMDSV_KERNEL_AVX2,
                                            SIMDSV_KERNEL_AVX512, SIMDSV_KERNEL_NEON};
    static run u;
    for (size_t kk = 0; kk < sizeof kernels / sizeof *kernels; kk++) {
        if (!simdsv_kernel_supported(kernels[kk]))
            continue;
        const char *name = simdsv_kernel_name(kernels[kk]);
        const value_kernel *k = simdsv__value_kernel(kernels[kk]);
        const int simd = k->int64_fields != simdsv__int64_fields_scalar;
        printf("kernel %s%s\n", name, simd ? "" : " (portable)");
        for (int comma = 0; comma < 2; comma++) {
            const unsigned char sep = comma ? ',' : '.';
            fixed_fields(&u, sep);
            check_floats(name, k, &u, sep, simd);
            check_ints(name, k, &u, 0, simd);
            check_ints(name, k, &u, 1, simd);
            for (long done = 0; done < fields; done += (long)u.count) {
                u.count = u.len = 0;
                char f[MAX_FIELD];
                while (u.count < MAX_FIELDS) {
                    const size_t n = make_field(f, sep);
                    add_field(&u, f, n);
                }
                close_run(&u);
                check_floats(name, k, &u, sep, simd);
                check_ints(name, k, &u, (int)(done & 1), simd);
            }
        }
        /* strings: the x86 kernels (the portable loop is column.c's own) */
        for (int dialect = 0; k->string_fields && dialect < 3; dialect++) {
            const int quote = dialect == 2 ? 256 : '"', escape = dialect == 1 ? '\\' : 256;
            for (long done = 0; done < fields; done += (long)u.count) {
                u.count = u.len = 0;
                char f[MAX_STRING];
                while (u.count < MAX_FIELDS / 2 && u.len + MAX_STRING + 1 < sizeof u.buf - 64) {
                    const size_t n = make_string(f, quote, escape);
                    add_field(&u, f, n);
                }
                close_run(&u);
                check_strings(name, k, &u, quote, escape);
                if (quote < 256)
                    check_unescape(name, k, &u, quote, escape);
            }
        }
        for (int with_time = 0; with_time < 2; with_time++)
            for (long done = 0; done < fields; done += (long)u.count) {
                u.count = u.len = 0;
                char f[MAX_FIELD + 1];
                while (u.count < MAX_FIELDS) {
                    const size_t n = make_time(f, with_time);
                    add_field(&u, f, n);
                }
                close_run(&u);
                check_times(name, k, &u, with_time, simd);
            }
    }
    return check_summary();
}
