/*
 * int.c — int64 fields: [+-]?[0-9]+, exact range check.
 *
 * Digits are consumed 8 at a time (one load, one digit check, three
 * multiplies; see simdsv__swar_8digits_value) while more than 8 remain, and
 * the last 1..8 as one partial word (two overlapping loads, one digit check,
 * one conversion) — no loop over single bytes.  Leading zeros are skipped first, so at most 19 significant
 * digits are ever accumulated and the uint64 accumulator cannot wrap.
 */
#include "values.h"
#include "values_internal.h"

#define INT64_MAX_U ((uint64_t)INT64_MAX)

bool simdsv__parse_int64(const char *s, size_t n, int64_t *out)
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
        if (v > INT64_MAX_U + 1)
            return false;
        *out = v == INT64_MAX_U + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        if (v > INT64_MAX_U)
            return false;
        *out = (int64_t)v;
    }
    return true;
}

bool simdsv__int_has_leading_zero(const char *s, size_t n)
{
    size_t i = 0;
    if (n > 0 && (s[0] == '-' || s[0] == '+'))
        i = 1;
    return n - i >= 2 && s[i] == '0' && simdsv__is_digit((unsigned char)s[i + 1]);
}
