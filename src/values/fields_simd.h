/*
 * fields_simd.h — the number kernels (fields.h) with SSE4.1 steps, included
 * by fields_sse42.c, fields_avx2.c and fields_avx512.c, each compiled for
 * its ISA (the same 16-byte steps; the wider ISAs encode them with VEX and
 * keep their own scan kernels' frequency).  FIELDS_ISA names the functions.
 *
 * Per field: one 16-byte load after the sign, its digits found with one
 * compare (and one movemask), the separator (if any) taken out and the
 * digits put in place with one shuffle from a table, the 16 digit bytes
 * combined with pmaddubsw, pmaddwd, packusdw, pmaddwd into two 8-digit
 * halves: the same few steps for every field of the common shapes, with no
 * branch on where its digits stop.
 */
#ifndef SIMDSV_VALUES_FIELDS_SIMD_H
#define SIMDSV_VALUES_FIELDS_SIMD_H

#include "fields.h"
#include "fast.h"

#include <immintrin.h>

#define FIELDS_CAT2(a, b) a##b
#define FIELDS_CAT(a, b) FIELDS_CAT2(a, b)
#define FIELDS_FN(name) FIELDS_CAT(name, FIELDS_ISA)

/* Row a: the shuffle that drops byte a (the bytes after it move down one, a
 * zero comes in at the top); row 16 keeps all 16. */
static _Alignas(16) const uint8_t drop_byte[17][16] = {
#define R(a)                                                                                                           \
    {(0 < a ? 0 : 1), (1 < a ? 1 : 2), (2 < a ? 2 : 3), (3 < a ? 3 : 4), (4 < a ? 4 : 5), (5 < a ? 5 : 6),             \
     (6 < a ? 6 : 7), (7 < a ? 7 : 8), (8 < a ? 8 : 9), (9 < a ? 9 : 10), (10 < a ? 10 : 11), (11 < a ? 11 : 12),    \
     (12 < a ? 12 : 13), (13 < a ? 13 : 14), (14 < a ? 14 : 15), (15 < a ? 15 : 0x80)}
    R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11), R(12), R(13), R(14), R(15), R(16)
#undef R
};

/* Row n: the shuffle that moves the first n bytes to the top (byte j from
 * j + n - 16), zeros below. */
static _Alignas(16) const uint8_t align_top[17][16] = {
#define B(j, n) (j + n >= 16 ? j + n - 16 : 0x80)
#define R(n)                                                                                                           \
    {B(0, n), B(1, n), B(2, n), B(3, n), B(4, n), B(5, n), B(6, n), B(7, n), B(8, n), B(9, n), B(10, n), B(11, n),   \
     B(12, n), B(13, n), B(14, n), B(15, n)}
    R(0), R(1), R(2), R(3), R(4), R(5), R(6), R(7), R(8), R(9), R(10), R(11), R(12), R(13), R(14), R(15), R(16)
#undef R
#undef B
};

/* 16 bytes from here minus n: n bytes 0xFF, then zeros. */
static const uint8_t first_bytes[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0,    0,    0,    0,    0,    0};

/* The digit values in bytes 0..15 (byte 0 most significant) as one number
 * below 10^16. */
static inline uint64_t digits16_value(__m128i d)
{
    d = _mm_maddubs_epi16(d, _mm_set1_epi16(1 << 8 | 10));     /* 8 x 2 digits */
    d = _mm_madd_epi16(d, _mm_set1_epi32(1 << 16 | 100));      /* 4 x 4 digits */
    d = _mm_packus_epi32(d, d);                                /* (as 16-bit lanes) */
    d = _mm_madd_epi16(d, _mm_set1_epi32(1 << 16 | 10000));    /* 2 x 8 digits */
    const uint64_t halves = (uint64_t)_mm_cvtsi128_si64(d);
    return (halves & 0xFFFFFFFFu) * 100000000u + (halves >> 32);
}

/* Bit j set when byte j of x is a digit. */
static inline unsigned digit_bits(__m128i x)
{
    const __m128i d = _mm_sub_epi8(x, _mm_set1_epi8('0'));
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
}

/* The digit values of x's bytes, 0 for the bytes below '0' (a sign, '.',
 * ','): a sign read as a leading zero leaves the number as it is. */
static inline __m128i digit_values(__m128i x)
{
    return _mm_subs_epu8(x, _mm_set1_epi8('0'));
}

/* The field's n bytes: the first n of the 16 at s (n <= 16). */
static inline __m128i first_n(__m128i v, size_t n)
{
    return _mm_and_si128(v, _mm_loadu_si128((const __m128i *)(const void *)(first_bytes + 16 - n)));
}

/* Bit 0 when the field starts with a sign; *neg when it is '-'. */
static inline unsigned sign_bit(const unsigned char *s, int *neg)
{
    *neg = s[0] == '-';
    return (unsigned)*neg | (s[0] == '+');
}

/*
 * Both loops take a field of at most 16 bytes (its sign included) that
 * starts at least 17 bytes before origin + readable: one load holds it all.
 * A field is checked with bit masks of its bytes (digits, separators, the
 * sign at byte 0), with no loop and one branch for every way to fail.
 */
size_t FIELDS_FN(simdsv__int64_fields_)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                        size_t readable, int no_leading_zero, int64_t *out, uint64_t *nulls)
{
    const int64_t last_start = (int64_t)readable - 17;
    const size_t zero_ok = no_leading_zero ? 1 : 16; /* the longest number that may start with '0' */
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const uint32_t start = pos[0];
        const uint32_t n = pos[1] - 1 - start;
        if (n == 0) {
            out[i] = 0;
            empty++;
            continue;
        }
        const unsigned char *s = (const unsigned char *)origin + start;
        if (n == 1) { /* one digit (a code, a count): no load */
            const unsigned d = (unsigned)s[0] - '0';
            if (d > 9)
                break;
            out[i] = (int64_t)d;
            continue;
        }
        if ((int64_t)start > last_start || n > 16)
            break;
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
        const unsigned field = (1u << n) - 1, digits = digit_bits(x) & field;
        int neg;
        const unsigned sign = sign_bit(s, &neg);
        if ((~(digits | sign) & field) || !digits || (s[sign] == '0' && n - sign > zero_ok))
            break;
        /* the n bytes to the top, zeros (and a sign's zero) before them */
        const uint64_t v =
            digits16_value(_mm_shuffle_epi8(digit_values(x), _mm_load_si128((const __m128i *)(const void *)align_top[n])));
        out[i] = neg ? -(int64_t)v : (int64_t)v;
    }
    *nulls += empty;
    return i;
}

#ifdef SIMDSV__CLINGER
/* 10^(16 - at) by at: the scale of a field whose separator is at byte at. */
static const double scale_of[17] = {1e16, 1e15, 1e14, 1e13, 1e12, 1e11, 1e10, 1e9, 1e8,
                                    1e7,  1e6,  1e5,  1e4,  1e3,  1e2,  1e1,  1e0};

/* A field of the plain shape followed by an exponent ("7.37087e-05"): other
 * (bit j: byte j is no digit, separator or leading sign; not 0) must start
 * at an 'e' or 'E' followed by [+-]? and 1..3 digits to the field's end, and
 * the bytes before it be the plain shape.  The mantissa's 16 digits N are
 * then scaled by 10^k, k = 16 - at - exponent: one exact division or
 * multiplication (Clinger's case) while |k| <= 22. */
static inline bool exponent_form(const unsigned char *s, __m128i x, unsigned n, unsigned other, unsigned digits,
                                 unsigned separator, double *out)
{
    const unsigned e_at = (unsigned)__builtin_ctz(other);
    if ((s[e_at] | 0x20) != 'e')
        return false;
    unsigned i = e_at + 1;
    const int neg = s[i] == '-'; /* (within the 16 bytes loaded) */
    i += (unsigned)neg | (s[i] == '+');
    if (i >= n || n - i > 3)
        return false;
    int exponent = 0;
    for (; i < n; i++) {
        const unsigned d = (unsigned)s[i] - '0';
        if (d > 9)
            return false;
        exponent = exponent * 10 + (int)d;
    }
    const unsigned mantissa = (1u << e_at) - 1;
    digits &= mantissa;
    separator &= mantissa;
    if ((separator & (separator - 1)) || !digits)
        return false;
    const unsigned at = (unsigned)__builtin_ctz(separator | 1u << e_at);
    const uint64_t n16 = digits16_value(
        _mm_shuffle_epi8(first_n(digit_values(x), e_at), _mm_load_si128((const __m128i *)(const void *)drop_byte[at])));
    const int k = 16 - (int)at - (neg ? -exponent : exponent); /* (n16 < 10^15: at most 14 digits) */
    if (k > 22 || k < -22)
        return false;
    *out = k >= 0 ? (double)(int64_t)n16 / simdsv__pow10_exact[k] : (double)(int64_t)n16 * simdsv__pow10_exact[-k];
    return true;
}

/* The float64 fields of the plain shape (simdsv__plain_decimal_wide,
 * fast.h, whose comment has the arithmetic: the digits are read as 16
 * whatever their count, the bytes past the field masked to zero, a sign
 * read as a leading zero, the separator taken out, which scales the value
 * by a power of ten that Clinger's exact division takes back) from the
 * first on, up to the first field of another shape or not wholly loadable
 * (n > 16 or past last_start). */
static inline size_t plain_run(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                               int64_t last_start, unsigned char sep, double *out, uint64_t *empty)
{
    const __m128i seps = _mm_set1_epi8((char)sep);
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const uint32_t start = pos[0];
        const uint32_t n = pos[1] - 1 - start;
        if (n == 0) {
            out[i] = 0;
            ++*empty;
            continue;
        }
        if ((int64_t)start > last_start || n > 16)
            break;
        const unsigned char *s = (const unsigned char *)origin + start;
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
        const unsigned field = (1u << n) - 1, digits = digit_bits(x) & field;
        const unsigned separator = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, seps)) & field;
        int neg;
        const unsigned sign = sign_bit(s, &neg);
        /* only digits, at most one separator, a sign only first, a digit */
        if ((~(digits | separator | sign) & field) | (separator & (separator - 1)) || !digits)
            break;
        const unsigned at = (unsigned)__builtin_ctz(separator | 1u << n); /* n: none */
        const uint64_t n16 = digits16_value(
            _mm_shuffle_epi8(first_n(digit_values(x), n), _mm_load_si128((const __m128i *)(const void *)drop_byte[at])));
        if (at == 16 && n16 > (uint64_t)1 << 53)
            break; /* 16 digits: odd ones are not doubles, and the exact-integer rule is the caller's */
        const double v = (double)(int64_t)n16 / scale_of[at]; /* both exact: one correctly rounded division */
        out[i] = neg ? -v : v;
    }
    return i;
}

/* The plain runs, and between them the fields of the plain shape with an
 * exponent (exponent_form), handled apart so that the plain loop keeps its
 * constants in registers. */
size_t FIELDS_FN(simdsv__float64_fields_)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                          size_t readable, unsigned char sep, double *out, uint64_t *nulls)
{
    const int64_t last_start = (int64_t)readable - 17;
    uint64_t empty = 0;
    size_t i = 0;
    for (;;) {
        i += plain_run(origin, pos + i * stride, stride, count - i, last_start, sep, out + i, &empty);
        if (i == count)
            break;
        const uint32_t *p = pos + i * stride;
        const uint32_t n = p[1] - 1 - p[0]; /* not 0 */
        if ((int64_t)p[0] > last_start || n > 16)
            break;
        const unsigned char *s = (const unsigned char *)origin + p[0];
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
        const unsigned field = (1u << n) - 1, digits = digit_bits(x) & field;
        const unsigned separator = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)sep))) & field;
        int neg;
        const unsigned other = ~(digits | separator | sign_bit(s, &neg)) & field;
        double v;
        if (!other || !exponent_form(s, x, n, other, digits, separator, &v))
            break;
        out[i++] = neg ? -v : v;
    }
    *nulls += empty;
    return i;
}
#else
/* Without Clinger's exact division (fast.h) every field takes the general path. */
size_t FIELDS_FN(simdsv__float64_fields_)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                          size_t readable, unsigned char sep, double *out, uint64_t *nulls)
{
    (void)origin, (void)pos, (void)stride, (void)count, (void)readable, (void)sep, (void)out, (void)nulls;
    return 0;
}
#endif

/* ------------------------------------------------- dates and timestamps */

/* By month * 32 + day (month 1..12, day 1..31): the day's place in a year
 * counted from March 1 (0..365, the leap day last, as in simdsv__civil_days),
 * plus MD_JANFEB in January and February (which count in the year before)
 * and MD_LEAPDAY on February 29; MD_NONE for a day the month does not have.
 * Generated: doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1. */
#define MD_JANFEB 0x200u
#define MD_LEAPDAY 0x400u
#define MD_NONE 0xFFFFu
static const uint16_t month_day[13 * 32] = {
    65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535,
    65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535,
    65535, 818, 819, 820, 821, 822, 823, 824, 825, 826, 827, 828, 829, 830, 831, 832,
    833, 834, 835, 836, 837, 838, 839, 840, 841, 842, 843, 844, 845, 846, 847, 848,
    65535, 849, 850, 851, 852, 853, 854, 855, 856, 857, 858, 859, 860, 861, 862, 863,
    864, 865, 866, 867, 868, 869, 870, 871, 872, 873, 874, 875, 876, 1901, 65535, 65535,
    65535, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
    65535, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45,
    46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65535,
    65535, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75,
    76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91,
    65535, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106,
    107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 65535,
    65535, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 134, 135, 136,
    137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152,
    65535, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167,
    168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183,
    65535, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198,
    199, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 65535,
    65535, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223, 224, 225, 226, 227, 228,
    229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244,
    65535, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255, 256, 257, 258, 259,
    260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 270, 271, 272, 273, 274, 65535,
    65535, 275, 276, 277, 278, 279, 280, 281, 282, 283, 284, 285, 286, 287, 288, 289,
    290, 291, 292, 293, 294, 295, 296, 297, 298, 299, 300, 301, 302, 303, 304, 305,
};

/* Days since 1970-01-01 of year and a month_day entry e: simdsv__civil_days
 * with the year moved on by one 400-year era (146097 days) so that it is
 * never negative and the divisions are unsigned. */
static inline int64_t days_since_1970(uint32_t year, unsigned e)
{
    const uint32_t y = year + 400 - ((e & MD_JANFEB) != 0), c = y / 100;
    return (int64_t)(365 * y + y / 4 - c + c / 4 + (e & 0x1FFu)) - (719468 + 146097);
}

/* The digits of a date ("YYYY-MM-DD") or a timestamp ("YYYY-MM-DD HH:MM:SS")
 * gathered in pairs: bytes 0..13 of lo's and hi's shuffles. */
static inline __m128i date_digits(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_setr_epi8(0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, -128, -128, -128, -128));
}

/* The pairs as numbers (16-bit lanes: century, year, month, day, hour,
 * minute, second) and in *ok bit 2k, 2k+1 for each lane k that holds two
 * digits within its range (month 1..12, day 1..31, hour 0..23, minute and
 * second 0..59; the day of the month is the caller's). */
static inline __m128i date_pairs(__m128i z, unsigned *ok)
{
    const __m128i d = _mm_sub_epi8(z, _mm_set1_epi8('0'));
    const __m128i digits = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
    const __m128i pairs = _mm_maddubs_epi16(d, _mm_set1_epi16(1 << 8 | 10));
    const __m128i above = _mm_sub_epi16(pairs, _mm_setr_epi16(0, 0, 1, 1, 0, 0, 0, 0));
    const __m128i in_range = _mm_cmpeq_epi16(_mm_min_epu16(above, _mm_setr_epi16(99, 99, 11, 30, 23, 59, 59, 0)), above);
    *ok = (unsigned)_mm_movemask_epi8(_mm_and_si128(digits, in_range));
    return pairs;
}

/* Whether a February 29 of year is a day: a leap year. */
static inline int leap_year(uint32_t year)
{
    return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

/* Dates of the one fixed shape "YYYY-MM-DD", valid (simdsv__date_plain), as
 * days since 1970-01-01; a field of any other shape stops the run. */
size_t FIELDS_FN(simdsv__date_fields_)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                       size_t readable, int32_t *out, uint64_t *nulls)
{
    const int64_t last_start = (int64_t)readable - 17;
    const __m128i dashes = _mm_setr_epi8(0, 0, 0, 0, '-', 0, 0, '-', 0, 0, 0, 0, 0, 0, 0, 0);
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const uint32_t start = pos[0];
        const uint32_t n = pos[1] - 1 - start;
        if (n == 0) {
            out[i] = 0;
            empty++;
            continue;
        }
        if (n != 10 || (int64_t)start > last_start)
            break;
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(origin + start));
        unsigned ok;
        const __m128i pairs = date_pairs(date_digits(x), &ok);
        if ((ok & 0xFF) != 0xFF || (_mm_movemask_epi8(_mm_cmpeq_epi8(x, dashes)) & 0x90) != 0x90)
            break;
        const __m128i parts = _mm_madd_epi16(pairs, _mm_setr_epi16(100, 1, 32, 1, 0, 0, 0, 0));
        const uint32_t year = (uint32_t)_mm_cvtsi128_si32(parts);
        const unsigned e = month_day[_mm_extract_epi32(parts, 1)];
        if (e == MD_NONE || ((e & MD_LEAPDAY) && !leap_year(year)))
            break;
        out[i] = (int32_t)days_since_1970(year, e);
    }
    *nulls += empty;
    return i;
}

/* Timestamps of the common fixed shape "YYYY-MM-DD HH:MM:SS" (or 'T', 't'
 * between), valid (simdsv__timestamp_plain), as microseconds since the
 * epoch: two overlapping loads, the 14 digits gathered in pairs and checked
 * with their ranges at once. */
size_t FIELDS_FN(simdsv__timestamp_fields_)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                            size_t readable, int64_t *out, uint64_t *nulls)
{
    const int64_t last_start = (int64_t)readable - 20;
    const __m128i marks = _mm_setr_epi8(0, 0, 0, 0, '-', 0, 0, '-', 0, 0, 0, 0, 0, ':', 0, 0);
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const uint32_t start = pos[0];
        const uint32_t n = pos[1] - 1 - start;
        if (n == 0) {
            out[i] = 0;
            empty++;
            continue;
        }
        if (n != 19 || (int64_t)start > last_start)
            break;
        const unsigned char *s = (const unsigned char *)origin + start;
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
        const __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(s + 3)); /* bytes 3..18 */
        const __m128i seconds = _mm_shuffle_epi8(y, _mm_setr_epi8(-128, -128, -128, -128, -128, -128, -128, -128, -128,
                                                                  -128, -128, -128, 14, 15, -128, -128));
        unsigned ok;
        const __m128i pairs = date_pairs(_mm_or_si128(date_digits(x), seconds), &ok);
        const unsigned between = s[10];
        if ((ok & 0x3FFF) != 0x3FFF || (_mm_movemask_epi8(_mm_cmpeq_epi8(x, marks)) & 0x2090) != 0x2090 ||
            s[16] != ':' || !(between == ' ' || (between | 0x20) == 't'))
            break;
        const __m128i parts = _mm_madd_epi16(pairs, _mm_setr_epi16(100, 1, 32, 1, 3600, 60, 1, 0));
        const uint32_t year = (uint32_t)_mm_cvtsi128_si32(parts);
        const unsigned e = month_day[_mm_extract_epi32(parts, 1)];
        if (e == MD_NONE || ((e & MD_LEAPDAY) && !leap_year(year)))
            break;
        const int64_t second_of_day = _mm_extract_epi32(parts, 2) + _mm_extract_epi32(parts, 3);
        out[i] = (days_since_1970(year, e) * 86400 + second_of_day) * 1000000;
    }
    *nulls += empty;
    return i;
}

/* ------------------------------------------------------------- strings */

/* String fields whose bytes are copied as they stand: unquoted ones, and
 * quoted ones (their quotes dropped) that hold no quote or escape byte.
 * The bytes are moved 16 at a time (the last load and store may pass the
 * field's end by up to 15 bytes: the fields must end 16 bytes before
 * origin + readable, and chars must have 16 bytes of room past the run's
 * bytes); a quoted field is checked for the quote and escape bytes in the
 * same pass.  *len: the column's bytes so far; ends[i]: the bytes after
 * field i (int32 offsets). */
/* The quoted text's n bytes decoded into dst as simdsv_unescape decodes
 * them: a quote or escape byte is dropped and the byte after it kept (a
 * last lone one is dropped).  Reads up to 15 bytes past text + n, writes
 * up to 16 past dst's decoded end.  Returns the decoded length. */
#if defined(__AVX512BW__) && defined(__AVX512VBMI2__)
/* 64 bytes a step, with no branch on where the quotes are: the bytes
 * dropped are the first, third, ... of each run of quote and escape bytes
 * (a byte kept after a dropped one at a step's end is the next step's
 * first, carried), the rest compressed together and stored (masked: no
 * byte past text + n is read, none past the decoded end written). */
static inline size_t unescape_steps(const unsigned char *text, size_t n, __m128i quotes, __m128i escapes, char *dst)
{
    const __m512i q = _mm512_broadcastb_epi8(quotes), e = _mm512_broadcastb_epi8(escapes);
    const uint64_t even = UINT64_C(0x5555555555555555);
    uint64_t kept_first = 0; /* byte 0 is the byte a dropped one keeps */
    size_t k = 0, o = 0;
    while (k < n) {
        const size_t left = n - k;
        const __mmask64 valid = left >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << left) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(valid, text + k);
        const uint64_t special =
            (uint64_t)(_mm512_cmpeq_epi8_mask(v, q) | _mm512_cmpeq_epi8_mask(v, e)) & valid & ~kept_first;
        const uint64_t starts = special & ~(special << 1);
        const uint64_t from_even = special & ~(special + (starts & even)); /* runs that start at even bytes */
        const uint64_t dropped = (from_even & even) | (special & ~from_even & ~even);
        const uint64_t kept = valid & ~dropped;
        const __m512i packed = _mm512_maskz_compress_epi8(kept, v);
        const unsigned count = (unsigned)__builtin_popcountll(kept);
        _mm512_mask_storeu_epi8(dst + o, count >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << count) - 1, packed);
        kept_first = dropped >> 63;
        o += count;
        k += 64;
    }
    return o;
}
#else
/* One step of `special` (its quote and escape bytes as bits; the step is
 * stored at dst + *o already): past it, or past the byte the first of them
 * keeps. */
static inline void unescape_step(const unsigned char *text, size_t n, unsigned special, size_t step, size_t *k,
                                 size_t *o, char *dst)
{
    if (!special) {
        *k += step;
        *o += step;
        return;
    }
    const unsigned at = (unsigned)__builtin_ctz(special);
    *o += at;
    *k += at + 1;
    if (*k < n)
        dst[(*o)++] = (char)text[(*k)++];
}

/* 16 bytes a step (32 with AVX2 while 32 are left): a step with no quote
 * or escape byte is stored whole, one with some keeps the bytes before the
 * first, then the step starts again after the byte that byte kept. */
static inline size_t unescape_steps(const unsigned char *text, size_t n, __m128i quotes, __m128i escapes, char *dst)
{
    size_t k = 0, o = 0;
#if defined(__AVX2__)
    const __m256i q = _mm256_broadcastb_epi8(quotes), e = _mm256_broadcastb_epi8(escapes);
    while (n - k >= 32) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(text + k));
        _mm256_storeu_si256((__m256i *)(void *)(dst + o), v);
        unescape_step(text, n,
                      (unsigned)_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(v, q), _mm256_cmpeq_epi8(v, e))),
                      32, &k, &o, dst);
    }
#endif
    while (k < n) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(text + k));
        _mm_storeu_si128((__m128i *)(void *)(dst + o), v);
        const size_t left = n - k;
        unescape_step(text, n,
                      (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quotes), _mm_cmpeq_epi8(v, escapes))) &
                          (left >= 16 ? 0xFFFFu : (1u << left) - 1),
                      left >= 16 ? 16 : left, &k, &o, dst);
    }
    return o;
}
#endif

size_t FIELDS_FN(simdsv__unescape_)(const char *text, size_t n, unsigned quote, unsigned escape, char *dst)
{
    return unescape_steps((const unsigned char *)text, n, _mm_set1_epi8((char)quote),
                          _mm_set1_epi8((char)(escape < 256 ? escape : quote)), dst); /* none: the quote again */
}

size_t FIELDS_FN(simdsv__string_fields_)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                         size_t readable, unsigned quote, unsigned escape, char *chars, size_t *len,
                                         int32_t *ends, uint64_t *nulls)
{
    const int64_t last_end = (int64_t)readable - 16;
    const __m128i quotes = _mm_set1_epi8((char)quote);
    const __m128i escapes = _mm_set1_epi8((char)(escape < 256 ? escape : quote)); /* none: the quote again */
    size_t at = *len;
    uint64_t empty = 0;
    size_t i = 0;
    while (i < count) {
        /* the unquoted fields in a loop of their own, which keeps its
         * registers (the decoding below wants many); it stops at a quoted
         * one or at one too near the end */
        const unsigned char *s = NULL;
        uint32_t start = 0, end = 0;
        for (; i < count; i++, pos += stride) {
            start = pos[0];
            end = pos[1] - 1;
            s = (const unsigned char *)origin + start;
            if ((int64_t)end > last_end || (s[0] == quote && end - start >= 2)) /* (quote 256: never) */
                break;
            for (size_t k = 0; k < end - start; k += 16)
                _mm_storeu_si128((__m128i *)(void *)(chars + at + k),
                                 _mm_loadu_si128((const __m128i *)(const void *)(s + k)));
            at += end - start;
            ends[i] = (int32_t)at;
            empty += end == start;
        }
        if (i == count || (int64_t)end > last_end)
            break;
        at += unescape_steps(s + 1, end - start - 2, quotes, escapes, chars + at);
        ends[i++] = (int32_t)at;
        pos += stride;
    }
    *len = at;
    *nulls += empty;
    return i;
}

#endif
