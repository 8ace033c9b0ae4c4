/*
 * float.c — float64 fields, correctly rounded (bit for bit what glibc's
 * strtod returns in round-to-nearest mode).
 *
 * The literal is scanned once: the integer digits and the fraction digits
 * eight at a time (SWAR: one digit test and three multiplies per word) and
 * the rest one by one, then the exponent; the first 19
 * significant digits become w and the value is w * 10^q.  Then, in order:
 *
 * 1. Clinger's fast path: w <= 2^53 and |q| <= 22.  w and 10^|q| are exact
 *    doubles, so one IEEE multiply or divide rounds correctly.  Only where
 *    double arithmetic is really double (FLT_EVAL_METHOD == 0, no
 *    -ffast-math); elsewhere step 2 does the same work in integers.
 *
 * 2. The Eisel-Lemire method (el_round below).  With w normalised to
 *    [2^63, 2^64) and T(q) the 128-bit truncation of 5^q from
 *    pow5_table.h, R = w * T(q) is computed exactly (192 bits).  The true
 *    product w * 5^q lies in [R, R + w): equal to R when T(q) is exact
 *    (0 <= q <= 55), otherwise strictly inside.  The rounding of R at the
 *    last kept bit (53 bits, fewer for subnormals) is then certain unless
 *    the bits below the rounding point sit just under the halfway mark,
 *    where R + w may cross it; in that one case the method reports
 *    "undecided" and hands a candidate (R rounded down) to step 3.  (With
 *    more than 19 significant digits the value lies strictly between
 *    w * 10^q and (w + 1) * 10^q; when both round to the same double, that
 *    is the answer.)
 *
 * 3. The exact fallback (bigdec.c): the decimal and the halfway point next
 *    to the candidate are compared as big integers.  Rare: exact ties
 *    written with a fraction (9007199254740993.0), more than 19 digits near
 *    a halfway point, values near the smallest subnormal.
 */
#include "values.h"
#include "values_internal.h"
#include "fast.h"
#include "pow5_table.h"

#define EXP_MASK 0x7FF0000000000000u
#define FRAC_MASK 0x000FFFFFFFFFFFFFu
#define SIGN_BIT 0x8000000000000000u
#define INF_BITS EXP_MASK
#define NAN_BITS 0x7FF8000000000000u

/* floor(log2(5^q)) for |q| <= 342; gen_pow5.c checks the constant for
 * every q in the table. */
static int64_t floor_log2_pow5(int64_t q)
{
    int64_t x = q * 1217359;
    return x >= 0 ? x >> 19 : -((-x + ((int64_t)1 << 19) - 1) >> 19);
}

/* Bits of the double M * 2^e where e = -1074 (subnormal range; M <= 2^52,
 * M == 2^52 being the smallest normal) or M in [2^52, 2^53] (normal; 2^53
 * renormalises).  Overflow gives +inf. */
static uint64_t assemble(uint64_t M, int64_t e, bool normal)
{
    if (!normal)
        return M;
    if (M == (uint64_t)1 << 53) {
        M >>= 1;
        e++;
    }
    int64_t field = e + 1075;
    if (field >= 2047)
        return INF_BITS;
    return (uint64_t)field << 52 | (M & FRAC_MASK);
}

/*
 * Rounds w * 10^q (w != 0) to a double.  Returns true with the answer in
 * *bits, or false with a candidate within one unit in the last place (the
 * value rounded down) when the 192-bit product cannot decide.
 */
static bool el_round(uint64_t w, int64_t q, uint64_t *bits)
{
    if (q < SIMDSV__POW5_Q_MIN) { /* w * 10^q < 2^64 * 10^-343 < 2^-1075 */
        *bits = 0;
        return true;
    }
    if (q > SIMDSV__POW5_Q_MAX) { /* >= 10^309 */
        *bits = INF_BITS;
        return true;
    }
    const uint64_t *t = simdsv__pow5_128[q - SIMDSV__POW5_Q_MIN];
    int lz = simdsv__clz64(w);
    uint64_t wn = w << lz;

    /* R = wn * (t[0] * 2^64 + t[1]) = r2:r1:r0 */
    uint64_t h1, h2;
    uint64_t l1 = simdsv__mul64(wn, t[0], &h1);
    uint64_t r0 = simdsv__mul64(wn, t[1], &h2);
    uint64_t r1 = l1 + h2;
    uint64_t r2 = h1 + (r1 < l1);

    /* value ~= R * 2^x, R in [2^190, 2^192): its top bit is 190 + u */
    int top = 190 + (int)(r2 >> 63);
    int64_t x = q + floor_log2_pow5(q) - 127 - lz;
    int64_t etop = top + x; /* value in [2^etop, 2^(etop+1)) (up to the error) */
    if (etop > 1023) {
        *bits = INF_BITS;
        return true;
    }
    if (etop < -1077) { /* value < 2^-1076 (1 + 2^-126) < 2^-1075: rounds to 0 */
        *bits = 0;
        return true;
    }
    if (etop < -1075) { /* near half the smallest subnormal: let the exact path say */
        *bits = 0;
        return false;
    }
    bool normal = etop >= -1022;
    /* p: the bit of R that becomes the last bit of the significand */
    int64_t p = normal ? top - 52 : -1074 - x;
    int P = (int)(p - 64); /* the same bit in z = r2:r1; 74 <= P <= 128 */
    uint64_t mant, remh;
    if (P >= 128) {
        mant = 0;
        remh = r2;
    } else {
        mant = r2 >> (P - 64);
        remh = r2 & (((uint64_t)1 << (P - 64)) - 1);
    }
    /* the remainder below p is remh:r1:r0; half is half_h:0:0 */
    uint64_t half_h = (uint64_t)1 << (P - 65);
    bool up;
    if (q >= 0 && q <= SIMDSV__POW5_EXACT_MAX) {
        /* T(q) is exact: R is the product, ties are real ties. */
        if (remh != half_h)
            up = remh > half_h;
        else if (r1 | r0)
            up = true;
        else
            up = (mant & 1) != 0;
    } else if (remh >= half_h) {
        /* the true remainder is strictly above half (or the product carries
         * into mant + 1 and then rounds down): mant + 1 either way */
        up = true;
    } else if (remh == half_h - 1 && r1 == UINT64_MAX && r0 > UINT64_MAX - wn) {
        /* R + wn may reach the halfway point */
        *bits = assemble(mant, p + x, normal);
        return false;
    } else {
        up = false;
    }
    *bits = assemble(mant + up, p + x, normal);
    return true;
}

static unsigned char digit_at(const simdsv__decimal_text *d, size_t i)
{
    return i < d->int_len ? d->int_digits[i] : d->frac_digits[i - d->int_len];
}

/* More than 19 digits: w = the first 19 significant ones, q their scale,
 * *truncated when a nonzero digit was dropped. */
static void first_19(const simdsv__decimal_text *d, uint64_t *w, int64_t *q, bool *truncated)
{
    size_t total = d->int_len + d->frac_len;
    size_t i = 0;
    while (i < total && digit_at(d, i) == '0')
        i++;
    uint64_t v = 0;
    for (int taken = 0; i < total && taken < 19; i++, taken++)
        v = v * 10 + (unsigned)(digit_at(d, i) - '0');
    *w = v;
    *q = d->exp10 - (int64_t)d->frac_len + (int64_t)(total - i);
    *truncated = false;
    for (; i < total; i++) {
        if (digit_at(d, i) != '0') {
            *truncated = true;
            break;
        }
    }
}

static bool lower_is(const unsigned char *p, const char *word, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if ((p[i] | 0x20) != (unsigned char)word[i])
            return false;
    }
    return true;
}

static bool parse_special(const unsigned char *p, size_t n, bool neg, double *out)
{
    uint64_t bits;
    if (n == 3 && lower_is(p, "nan", 3))
        bits = NAN_BITS;
    else if ((n == 3 && lower_is(p, "inf", 3)) || (n == 8 && lower_is(p, "infinity", 8)))
        bits = INF_BITS;
    else
        return false;
    if (neg)
        bits |= SIGN_BIT;
    memcpy(out, &bits, sizeof bits);
    return true;
}

/* Appends the digits at *pp to *w (mod 2^64); returns how many.  Eight at
 * a time while a whole word of digits remains (SWAR), then one at a time:
 * for the short tails of typical fields a byte loop costs fewer
 * instructions than assembling and converting a partial word. */
static inline size_t scan_digits(const unsigned char **pp, const unsigned char *end, uint64_t *w)
{
    const unsigned char *p = *pp, *start = p;
    uint64_t v = *w;
    while (end - p >= 8) {
        const uint64_t word = simdsv__load_le64(p);
        if (!simdsv__swar_8digits(word))
            break;
        v = v * 100000000u + simdsv__swar_8digits_value(word);
        p += 8;
    }
    while (p < end && simdsv__is_digit(*p)) {
        v = v * 10 + (uint64_t)(*p - '0');
        p++;
    }
    *w = v;
    *pp = p;
    return (size_t)(p - start);
}

static bool parse_float(const char *s, size_t n, unsigned char sep, double *out)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + n;
    bool neg = false;

    if (n == 0)
        return false;
    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        if (++p == end)
            return false;
    }

    if (!simdsv__is_digit(*p) && *p != sep)
        return parse_special(p, (size_t)(end - p), neg, out);

    simdsv__decimal_text d;
    uint64_t w = 0;
    d.int_digits = p;
    d.int_len = scan_digits(&p, end, &w);
    d.frac_digits = p;
    d.frac_len = 0;
    if (p < end && *p == sep) {
        p++;
        d.frac_digits = p;
        d.frac_len = scan_digits(&p, end, &w);
    }
    if (d.int_len + d.frac_len == 0)
        return false;
    int64_t ex = 0;
    if (p < end && (*p | 0x20) == 'e') {
        bool eneg = false;
        p++;
        if (p < end && (*p == '+' || *p == '-')) {
            eneg = *p == '-';
            p++;
        }
        if (p == end || !simdsv__is_digit(*p))
            return false;
        do {
            /* saturate far beyond any double and any field length (a
             * fraction of 10^17 zeros cannot bring it back), within int64 */
            if (ex < 100000000000000000)
                ex = ex * 10 + (*p - '0');
            p++;
        } while (p < end && simdsv__is_digit(*p));
        if (eneg)
            ex = -ex;
    }
    if (p != end)
        return false;
    d.exp10 = ex;

    int64_t q = ex - (int64_t)d.frac_len;
    bool truncated = false;
    if (d.int_len + d.frac_len > 19)
        first_19(&d, &w, &q, &truncated);

    uint64_t bits;
    if (w == 0) {
        bits = 0;
    } else if (!truncated) {
#ifdef SIMDSV__CLINGER
        if (w <= (uint64_t)1 << 53 && q >= -22 && q <= 22) {
            double v = (double)w;
            v = q < 0 ? v / simdsv__pow10_exact[-q] : v * simdsv__pow10_exact[q];
            *out = neg ? -v : v;
            return true;
        }
#endif
        if (!el_round(w, q, &bits))
            bits = simdsv__decimal_round_exact(&d, bits);
    } else {
        uint64_t above;
        bool sure = el_round(w, q, &bits);
        if (!(sure && el_round(w + 1, q, &above) && above == bits))
            bits = simdsv__decimal_round_exact(&d, bits);
    }
    if (neg)
        bits |= SIGN_BIT;
    memcpy(out, &bits, sizeof bits);
    return true;
}

/* The plain shape first, in a small function of its own: the general
 * path's frame (its registers saved and restored) is paid only by the
 * texts that need it. */
static inline bool parse_number(const char *s, size_t n, unsigned char sep, double *out)
{
    return simdsv__double_plain(s, n, sep, out) || parse_float(s, n, sep, out);
}

bool simdsv__parse_double(const char *s, size_t n, double *out)
{
    return parse_number(s, n, '.', out);
}

bool simdsv__parse_double_comma(const char *s, size_t n, double *out)
{
    return parse_number(s, n, ',', out);
}
