/*
 * fast.h — the common shapes of int64 and float64 fields as inline
 * functions, for the loops that convert a column's fields one after
 * another (src/table/column.c): there the call into the parser and the
 * general float path's frame cost as much as the parse of a short field.
 * The parsers of int.c, float.c and datetime.c are built on the same
 * functions, so there is one implementation of each rule (values.h).
 */
#ifndef SIMDSV_VALUES_FAST_H
#define SIMDSV_VALUES_FAST_H

#include "values.h"
#include "values_internal.h"

#include <float.h>

/* int64 fields: the whole of simdsv__parse_int64.
 *
 * Digits are consumed 8 at a time (one load, one digit check, three
 * multiplies; see simdsv__swar_8digits_value) while more than 8 remain, and
 * the last 1..8 as one partial word (two overlapping loads, one digit check,
 * one conversion) — no loop over single bytes.  Leading zeros are skipped
 * first, so at most 19 significant digits are ever accumulated and the
 * uint64 accumulator cannot wrap. */
static inline bool simdsv__int64_inline(const char *s, size_t n, int64_t *out)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + n;
    bool neg = false;

    if (n == 0)
        return false;
    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        p++;
        if (p == end)
            return false;
    }
    if (end - p > 19) {
        /* Only leading zeros can make a valid literal this long. */
        while (end - p > 19 && *p == '0')
            p++;
        if (end - p > 19)
            return false;
    }

    /* 1 to 19 digits: whole words, then the rest as one partial word */
    size_t len = (size_t)(end - p);
    uint64_t v = 0, w;
    while (len > 8) {
        w = simdsv__load_le64(p);
        if (!simdsv__swar_8digits(w))
            return false;
        v = v * 100000000u + simdsv__swar_8digits_value(w);
        p += 8;
        len -= 8;
    }
    w = simdsv__load_partial(p, len);
    if (simdsv__leading_digits(w) != len)
        return false;
    v = v * simdsv__pow10_u32[len] + simdsv__swar_digits_value_n(w, (unsigned)len);

    /* v < 10^19 < 2^64 here. */
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1)
            return false;
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX)
            return false;
        *out = (int64_t)v;
    }
    return true;
}

/* Not with x87 excess precision (double rounding), nor with -ffast-math
 * (a division may become a multiplication by an inexact reciprocal). */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && !defined(__FAST_MATH__)
#define SIMDSV__CLINGER 1
/* Exact powers of ten as doubles. */
static const double simdsv__pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#endif

#ifdef SIMDSV__CLINGER
/* The digits of v's first k bytes (1 <= k <= 16, all digits) followed by
 * those of w's: at most two SWAR conversions, independent of each other. */
static inline uint64_t simdsv__digits_value16(uint64_t lo, uint64_t hi, size_t k)
{
    if (k <= 8)
        return simdsv__swar_digits_value_n(lo, (unsigned)k);
    return (uint64_t)simdsv__swar_8digits_value(lo) * simdsv__pow10_u32[k - 8] +
           simdsv__swar_digits_value_n(hi, (unsigned)(k - 8));
}

/* The field's one non-digit byte must be the separator (bad_lo, bad_hi:
 * bit 7 of each non-digit byte of the words lo, hi; at least one set): true
 * with its index in *at and the separator taken out of the words (the bytes
 * after it move down one), false for any other shape. */
static inline bool simdsv__take_separator(const unsigned char *p, size_t len, unsigned char sep, uint64_t bad_lo,
                                          uint64_t bad_hi, uint64_t *lo, uint64_t *hi, size_t *at)
{
    size_t i;
    if (bad_lo) {
        i = simdsv__ctz64(bad_lo) >> 3;
        bad_lo &= bad_lo - 1;
    } else {
        i = 8 + (simdsv__ctz64(bad_hi) >> 3);
        bad_hi &= bad_hi - 1;
    }
    if ((bad_lo | bad_hi) || p[i] != sep || len == 1)
        return false;
    if (i < 8) {
        const uint64_t keep = ((uint64_t)1 << (8 * i)) - 1;
        *lo = (*lo & keep) | ((*lo >> 8) & ~keep) | *hi << 56;
        *hi >>= 8;
    } else {
        const uint64_t keep = ((uint64_t)1 << (8 * (i - 8))) - 1;
        *hi = (*hi & keep) | ((*hi >> 8) & ~keep);
    }
    *at = i;
    return true;
}

/* The shape of most fields: at most 16 bytes of digits with at most one
 * separator, no exponent.  The field is loaded as two words whatever its
 * shape, its non-digits found with one SWAR test per word, the separator
 * (if any) taken out by shifting the bytes after it down, and the digits
 * converted as two words: the same few steps for every such field, with
 * no branch on where its digits stop.  At most 15 digits with a separator
 * (w < 10^15 < 2^53, 15 fraction digits at most) and 16 without: Clinger's
 * division is exact.  Anything else returns false and the general path
 * parses the text from the start. */
static inline bool simdsv__plain_decimal(const unsigned char *p, const unsigned char *end, unsigned char sep,
                                         bool neg, double *out)
{
    const size_t len = (size_t)(end - p);
    if (len - 1 >= 16)
        return false;
    uint64_t lo, hi = 0, bad_lo, bad_hi = 0;
    if (len >= 8) {
        lo = simdsv__load_le64(p);
        bad_lo = simdsv__nondigits(lo);
        if (len > 8) {
            hi = simdsv__load_partial(p + 8, len - 8);
            bad_hi = simdsv__nondigits(hi) & (len == 16 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * (len - 8))) - 1);
        }
    } else {
        lo = simdsv__load_partial(p, len);
        bad_lo = simdsv__nondigits(lo) & (((uint64_t)1 << (8 * len)) - 1);
    }
    uint64_t w;
    if (!(bad_lo | bad_hi)) {
        w = simdsv__digits_value16(lo, hi, len);
        if (w > (uint64_t)1 << 53)
            return false;
        *out = neg ? -(double)w : (double)w;
        return true;
    }
    size_t at;
    if (!simdsv__take_separator(p, len, sep, bad_lo, bad_hi, &lo, &hi, &at))
        return false;
    w = simdsv__digits_value16(lo, hi, len - 1);
    const double v = (double)w / simdsv__pow10_exact[len - 1 - at]; /* both exact: one correctly rounded division */
    *out = neg ? -v : v;
    return true;
}

/* simdsv__plain_decimal for a field followed by readable bytes: the 16
 * bytes at p may be read whatever len is (in the column loops, fields
 * before the last row of a batch).  Fewer steps: the two words are loaded
 * whole and their bytes past the field made digit zeros, and the digits are
 * not moved down to the end of the number; they are read as 16 digits N
 * whatever their count, which scales the value by a power of ten that the
 * division takes back.  Without a separator N = w * 10^(16 - len); with one,
 * at byte `at`, which is taken out (a zero comes in at the top),
 * N = w * 10^(17 - len) with w the digits and f = len - 1 - at of them
 * after the separator: either way the value is N / 10^(16 - at).  N < 10^16
 * < 2^54 is a double exactly when it is even or at most 2^53, which only a
 * 16-digit integer can fail; so the division is Clinger's exact case. */
static inline bool simdsv__plain_decimal_wide(const unsigned char *p, size_t len, unsigned char sep, bool neg,
                                              double *out)
{
    if (len - 1 >= 16)
        return false;
    /* the field's bytes XOR '0' (a digit becomes its value), those past it 0 */
    const uint64_t zeros = SIMDSV__BYTES(0x30);
    const size_t lo_len = len < 8 ? len : 8;
    uint64_t lo = (simdsv__load_le64(p) ^ zeros) & (~(uint64_t)0 >> (64 - 8 * lo_len));
    uint64_t hi = len > 8 ? (simdsv__load_le64(p + 8) ^ zeros) & (~(uint64_t)0 >> (128 - 8 * len)) : 0;
    /* bit 7 of the bytes that are not digits (simdsv__nondigits after the XOR) */
    uint64_t bad_lo = (((lo & SIMDSV__BYTES(0x7F)) + SIMDSV__BYTES(0x76)) | lo) & SIMDSV__BYTES(0x80);
    uint64_t bad_hi = (((hi & SIMDSV__BYTES(0x7F)) + SIMDSV__BYTES(0x76)) | hi) & SIMDSV__BYTES(0x80);
    size_t at = len;
    if ((bad_lo | bad_hi) && !simdsv__take_separator(p, len, sep, bad_lo, bad_hi, &lo, &hi, &at))
        return false;
    const uint64_t n16 = (uint64_t)simdsv__digit_bytes_value(lo) * 100000000u + simdsv__digit_bytes_value(hi);
    if (n16 > (uint64_t)1 << 53 && (n16 & 1))
        return false;
    const double v = (double)(int64_t)n16 / simdsv__pow10_exact[16 - at]; /* both exact: one correctly rounded division */
    *out = neg ? -v : v;
    return true;
}
#endif

/* The same as simdsv__double_plain for a field with at least 17 readable
 * bytes at s, whatever n is (simdsv__plain_decimal_wide). */
static inline bool simdsv__double_plain_wide(const char *s, size_t n, unsigned char sep, double *out)
{
#ifdef SIMDSV__CLINGER
    const unsigned char *p = (const unsigned char *)s;
    const bool neg = n && *p == '-';
    const size_t sign = n && (*p == '-' || *p == '+');
    return simdsv__plain_decimal_wide(p + sign, n - sign, sep, neg, out);
#else
    (void)s;
    (void)n;
    (void)sep;
    (void)out;
    return false;
#endif
}

/* A float64 field of the plain shape (simdsv__plain_decimal, after an
 * optional sign): true with *out set, or false, and then the general parser
 * (simdsv__parse_double) decides. */
static inline bool simdsv__double_plain(const char *s, size_t n, unsigned char sep, double *out)
{
#ifdef SIMDSV__CLINGER
    const unsigned char *p = (const unsigned char *)s;
    bool neg = false;
    if (n && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    return simdsv__plain_decimal(p, (const unsigned char *)s + n, sep, neg, out);
#else
    (void)s;
    (void)n;
    (void)sep;
    (void)out;
    return false;
#endif
}

/* ------------------------------------------------- dates and timestamps */

/* Whether the parts are a valid date and time of day (years 0000..9999
 * always are); the month's length is looked up only past day 28. */
static inline bool simdsv__ymd_valid(int32_t year, int month, int day)
{
    return (unsigned)(month - 1) < 12u && day >= 1 && (day <= 28 || day <= simdsv__days_in_month(year, month));
}

/* A date field of the one fixed shape, "YYYY-MM-DD", valid: true with *days
 * set; false for anything else, and then simdsv__parse_date and the date
 * order rules decide. */
static inline bool simdsv__date_plain(const char *s, size_t n, int32_t *days)
{
    const unsigned char *p = (const unsigned char *)s;
    int32_t year;
    int month, day;
    if (n != 10 || !simdsv__date_parts(simdsv__load_le64(p), (uint64_t)p[8] | (uint64_t)p[9] << 8, &year, &month,
                                       &day) ||
        !simdsv__ymd_valid(year, month, day))
        return false;
    *days = simdsv__civil_days(year, month, day);
    return true;
}

/* A timestamp field of the common fixed shape, "YYYY-MM-DD HH:MM:SS" (or
 * with 'T' or 't' between), valid: true with *micros set, from three loads
 * (the second and third overlap) and no branch on the shape; false for
 * anything else, and then simdsv__parse_timestamp and the date rules
 * decide. */
static inline bool simdsv__timestamp_plain(const char *s, size_t n, int64_t *micros)
{
    const unsigned char *p = (const unsigned char *)s;
    if (n != 19)
        return false;
    const uint64_t day_part = simdsv__load_le64(p + 8); /* "DD?HH:MM" */
    const unsigned between = (unsigned)(day_part >> 16 & 0xFF);
    int32_t year;
    int month, day, hour, minute, second;
    if (!simdsv__date_parts(simdsv__load_le64(p), day_part, &year, &month, &day) ||
        !simdsv__hms_parts(simdsv__load_le64(p + 11), &hour, &minute, &second) ||
        !(between == ' ' || (between | 0x20) == 't') || !simdsv__ymd_valid(year, month, day) || hour > 23 ||
        minute > 59 || second > 59)
        return false;
    const int64_t secs = (int64_t)simdsv__civil_days(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
    *micros = secs * 1000000;
    return true;
}

#endif
