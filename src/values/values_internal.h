/*
 * values_internal.h — helpers shared by the files of src/values/ (and,
 * through fast.h, by the column loops of src/table/column.c):
 * little-endian loads, SWAR digit checks and conversion, the 64x64->128
 * multiply, and the exact (big-integer) decimal-to-double rounding used when
 * the fast float paths cannot decide.
 */
#ifndef SIMDSV_VALUES_INTERNAL_H
#define SIMDSV_VALUES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------- loads */

/* The 8 bytes at p as a little-endian integer: the first byte is the low one. */
static inline uint64_t simdsv__load_le64(const unsigned char *p)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
#endif
}

#define SIMDSV__BYTES(b) (0x0101010101010101u * (uint64_t)(b))

/* Are the bytes selected by sel (0xFF per selected byte) all ASCII digits?
 * A digit is 0x30..0x39: high nibble 3, and adding 6 leaves the high nibble
 * at 3 (a low nibble of 10..15 carries into it).  No byte carries into its
 * neighbour unless it is 0xFA..0xFF, whose own high-nibble test then fails,
 * so the answer for a selected byte never depends on an unselected one
 * unless that one is itself selected and failing. */
static inline bool simdsv__swar_digits(uint64_t v, uint64_t sel)
{
    uint64_t hi = SIMDSV__BYTES(0xF0) & sel;
    uint64_t want = SIMDSV__BYTES(0x30) & sel;
    return ((v & hi) == want) & (((v + SIMDSV__BYTES(0x06)) & hi) == want);
}

static inline bool simdsv__swar_8digits(uint64_t v)
{
    return simdsv__swar_digits(v, ~(uint64_t)0);
}

/* The value of 8 ASCII digits loaded little-endian (first digit most
 * significant): adjacent digits, then pairs, then quads are merged with
 * one multiply and one shift each. */
static inline uint32_t simdsv__digit_bytes_value(uint64_t v);

static inline uint32_t simdsv__swar_8digits_value(uint64_t v)
{
    return simdsv__digit_bytes_value(v - SIMDSV__BYTES(0x30));
}

/* The same for 8 digit values 0..9 (not ASCII): the first most significant. */
static inline uint32_t simdsv__digit_bytes_value(uint64_t v)
{
    v = (v * (1 + (10u << 8))) >> 8;                          /* bytes 0,2,4,6: 2-digit values */
    v = ((v & 0x00FF00FF00FF00FFu) * (1 + (100u << 16))) >> 16; /* 16-bit lanes 0,2: 4 digits */
    v = ((v & 0x0000FFFF0000FFFFu) * (1 + ((uint64_t)10000 << 32))) >> 32;
    return (uint32_t)v;
}

/* Number of trailing zero bits of a nonzero value. */
static inline unsigned simdsv__ctz64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(v);
#else
    unsigned n = 0;
    while (!(v & 1)) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}

/* Bit 7 of each byte of v that is not an ASCII digit.  Per byte: x = b ^ '0'
 * is 0..9 exactly for digits; (x & 0x7F) + 0x76 sets bit 7 when the low 7
 * bits are 10 or more (and never carries into the next byte); x's own bit 7
 * catches bytes 0x80..0xFF. */
static inline uint64_t simdsv__nondigits(uint64_t v)
{
    uint64_t x = v ^ SIMDSV__BYTES(0x30);
    return (((x & SIMDSV__BYTES(0x7F)) + SIMDSV__BYTES(0x76)) | x) & SIMDSV__BYTES(0x80);
}

/* How many of the bytes of v, from the first (lowest), are ASCII digits
 * before the first one that is not (0..8). */
static inline unsigned simdsv__leading_digits(uint64_t v)
{
    uint64_t bad = simdsv__nondigits(v);
    return bad ? simdsv__ctz64(bad) >> 3 : 8;
}

/* The len bytes at p (1 <= len <= 8) as a little-endian word, the bytes
 * above len zero (and zero is not a digit).  Never reads outside p[0..len). */
static inline uint64_t simdsv__load_partial(const unsigned char *p, size_t len)
{
    if (len >= 4) {
        uint64_t lo = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
                      (uint64_t)p[3] << 24;
        const unsigned char *q = p + len - 4;
        uint64_t hi = (uint64_t)q[0] | (uint64_t)q[1] << 8 | (uint64_t)q[2] << 16 |
                      (uint64_t)q[3] << 24;
        return lo | hi << (8 * (len - 4)); /* the overlap holds the same bytes */
    }
    if (len >= 2) {
        uint64_t lo = (uint64_t)p[0] | (uint64_t)p[1] << 8;
        const unsigned char *q = p + len - 2;
        uint64_t hi = (uint64_t)q[0] | (uint64_t)q[1] << 8;
        return lo | hi << (8 * (len - 2));
    }
    return p[0];
}

/* The value of the first k (1..8) bytes of v, all ASCII digits: they are
 * moved to the top of the word and the bytes below filled with '0'. */
static inline uint32_t simdsv__swar_digits_value_n(uint64_t v, unsigned k)
{
    if (k < 8)
        v = v << (8 * (8 - k)) | SIMDSV__BYTES(0x30) >> (8 * k);
    return simdsv__swar_8digits_value(v);
}

static const uint32_t simdsv__pow10_u32[9] = {1,      10,      100,      1000,     10000,
                                              100000, 1000000, 10000000, 100000000};

static inline bool simdsv__is_digit(unsigned char c)
{
    return (unsigned)(c - '0') < 10u;
}

/* ------------------------------------------------------ dates and times */

/* The parts of "YYYY-MM-DD" from its first eight bytes v and its last two
 * dd (little-endian): the shape checked — the eight digits moved into one
 * word (MM down over the '-', DD on top) with one digit test, the two '-'
 * with one compare — and the digits read with one multiply, which leaves
 * the two-digit values in bytes 0, 2, 4, 6.  No range check. */
static inline bool simdsv__date_parts(uint64_t v, uint64_t dd, int32_t *year, int *month, int *day)
{
    const uint64_t w = (v & 0xFFFFFFFFu) | ((v >> 8) & 0x0000FFFF00000000u) | (dd & 0xFFFFu) << 48;
    if (!simdsv__swar_8digits(w) || (v & 0xFF0000FF00000000u) != 0x2D00002D00000000u)
        return false;
    const uint64_t pairs = ((w - SIMDSV__BYTES(0x30)) * (1 + (10u << 8))) >> 8;
    *year = (int32_t)(pairs & 0xFF) * 100 + (int32_t)(pairs >> 16 & 0xFF);
    *month = (int)(pairs >> 32 & 0xFF);
    *day = (int)(pairs >> 48 & 0xFF);
    return true;
}

/* The parts of "HH:MM:SS" loaded as one word: digits at bytes 0, 1, 3, 4,
 * 6, 7 (one test), ':' at 2 and 5 (one compare), and one multiply that
 * makes byte i 10 * byte i + byte i+1 (no carries: at most 10 * 10 + 9),
 * so that bytes 0, 3, 6 hold the hours, minutes, seconds.  No range
 * check. */
static inline bool simdsv__hms_parts(uint64_t v, int *hour, int *minute, int *second)
{
    if (!simdsv__swar_digits(v, 0xFFFF00FFFF00FFFFu) || (v & 0x0000FF0000FF0000u) != 0x00003A00003A0000u)
        return false;
    const uint64_t pairs = ((v - SIMDSV__BYTES(0x30)) * (1 + (10u << 8))) >> 8;
    *hour = (int)(pairs & 0xFF);
    *minute = (int)(pairs >> 24 & 0xFF);
    *second = (int)(pairs >> 48 & 0xFF);
    return true;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (a valid one, any
 * year in [-1000000, 1000000]).  Years counted from March (the leap day
 * last), grouped in 400-year eras of 146097 days, so that only divisions
 * by constants remain, and those of values known not to be negative are
 * unsigned (H. Hinnant's days_from_civil). */
static inline int32_t simdsv__civil_days(int32_t year, int month, int day)
{
    const int64_t y = (int64_t)year - (month <= 2);
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const uint64_t year_of_era = (uint64_t)(y - era * 400); /* [0, 399] */
    const uint64_t day_of_year = (153u * (unsigned)(month > 2 ? month - 3 : month + 9) + 2) / 5 + (unsigned)day - 1;
    const uint64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return (int32_t)(era * 146097 + (int64_t)day_of_era - 719468);
}

/* --------------------------------------------------------------- 128 bits */

/* a * b = *hi * 2^64 + return value. */
static inline uint64_t simdsv__mul64(uint64_t a, uint64_t b, uint64_t *hi)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 simdsv__u128;
    simdsv__u128 p = (simdsv__u128)a * b;
    *hi = (uint64_t)(p >> 64);
    return (uint64_t)p;
#else
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return (mid << 32) | (ll & 0xFFFFFFFFu);
#endif
}

/* Number of leading zero bits of a nonzero value. */
static inline int simdsv__clz64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(v);
#else
    int n = 0;
    while (!(v >> 63)) {
        v <<= 1;
        n++;
    }
    return n;
#endif
}

/* ------------------------------------------------------- exact fallback */

/* A decimal literal as the float parser saw it: the digits before and after
 * the separator (either may be empty, not both) and the explicit exponent
 * (saturated at about 10^18 in magnitude, far beyond any double and any
 * field length, so exponent minus digit counts never overflows). */
typedef struct simdsv__decimal_text {
    const unsigned char *int_digits;
    size_t int_len;
    const unsigned char *frac_digits;
    size_t frac_len;
    int64_t exp10;
} simdsv__decimal_text;

/* The bit pattern of the positive double nearest to the (nonzero) decimal,
 * ties to even, +inf beyond.  Exact big-integer arithmetic; candidate is a
 * bit pattern a few units in the last place from the answer (the search
 * walks from there). */
uint64_t simdsv__decimal_round_exact(const simdsv__decimal_text *d, uint64_t candidate);

#endif
