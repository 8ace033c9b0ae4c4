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
        const size_t n = pos[1] - 1 - start;
        if (n == 0) {
            out[i] = 0;
            empty++;
            continue;
        }
        if ((int64_t)start > last_start || n > 16)
            break;
        const unsigned char *s = (const unsigned char *)origin + start;
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
        const unsigned field = (1u << n) - 1, digits = digit_bits(x) & field;
        int neg;
        const unsigned sign = sign_bit(s, &neg);
        if ((~(digits | sign) & field) || !digits || (n - sign > zero_ok && s[sign] == '0'))
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
#endif

/* The float64 shape of simdsv__plain_decimal_wide (fast.h), whose comment
 * has the arithmetic: the digits are read as 16 whatever their count (the
 * bytes past the field masked to zero, a sign read as a leading zero, the
 * separator taken out), which scales the value by a power of ten that
 * Clinger's exact division takes back. */
size_t FIELDS_FN(simdsv__float64_fields_)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                          size_t readable, unsigned char sep, double *out, uint64_t *nulls)
{
#ifdef SIMDSV__CLINGER
    const int64_t last_start = (int64_t)readable - 17;
    const __m128i seps = _mm_set1_epi8((char)sep);
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride) {
        const uint32_t start = pos[0];
        const size_t n = pos[1] - 1 - start;
        if (n == 0) {
            out[i] = 0;
            empty++;
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
        const size_t at = (size_t)__builtin_ctz(separator | 1u << n); /* n: none */
        const uint64_t n16 = digits16_value(
            _mm_shuffle_epi8(first_n(digit_values(x), n), _mm_load_si128((const __m128i *)(const void *)drop_byte[at])));
        if (n16 > (uint64_t)1 << 53 && at == 16)
            break; /* 16 digits: odd ones are not doubles, and the exact-integer rule is the caller's */
        const double v = (double)(int64_t)n16 / scale_of[at]; /* both exact: one correctly rounded division */
        out[i] = neg ? -v : v;
    }
    *nulls += empty;
    return i;
#else
    (void)origin, (void)pos, (void)stride, (void)count, (void)readable, (void)sep, (void)out, (void)nulls;
    return 0;
#endif
}

#endif
