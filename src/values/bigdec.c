/*
 * bigdec.c — the exact decimal-to-double rounding behind the float parser's
 * fast paths (correctness over speed; reached only when they cannot decide).
 *
 * The decimal is reduced to D * 10^E with D an integer of at most 801
 * digits: the first 800 significant digits, plus a final digit 1 when any
 * nonzero digit was dropped.  That keeps the rounding exact: every double
 * and every halfway point between two doubles has at most 767 significant
 * digits, so none lies strictly between the truncated decimal and the
 * truncated decimal plus one unit of its 800th digit, where both the real
 * value and the stand-in (with its 801st digit 1) lie.
 *
 * Starting from a candidate double b (from the fast path, within an ulp or
 * two), the value is compared with the halfway point above b,
 * (2M + 1) * 2^(e - 1) for b = M * 2^e, as big integers:
 *
 *     D * 5^E * 2^E   vs   (2M + 1) * 2^(e - 1)        (E >= 0)
 *     D * 2^E         vs   (2M + 1) * 5^-E * 2^(e - 1) (E < 0)
 *
 * with the powers of two moved to one side as a shift.  Above (or on the
 * point with b odd): step to b + 1; likewise below the point under b: step
 * to b - 1.  Stepping over bit patterns walks through the doubles in
 * order, through the subnormals and up to +inf, whose "halfway point" below
 * is 2^1024 - 2^970 (ties go to inf, the even one).
 *
 * Sizes: with the value in [10^-324, 10^309] (outside, the answer is 0 or
 * inf at once) and D < 10^801, both sides stay below about 2^2720.
 */
#include "values.h"
#include "values_internal.h"

#define MAX_DIGITS 800
#define BIG_LIMBS 160 /* 5120 bits: room even for a candidate far off */
#define INF_BITS 0x7FF0000000000000u

typedef struct big {
    uint32_t w[BIG_LIMBS]; /* little-endian limbs */
    int n;                 /* limbs in use: w[n - 1] != 0, or n == 0 */
} big;

static void big_set_u64(big *a, uint64_t v)
{
    a->w[0] = (uint32_t)v;
    a->w[1] = (uint32_t)(v >> 32);
    a->n = a->w[1] ? 2 : a->w[0] ? 1 : 0;
}

/* a = a * m + add.  Never writes past the end (the sizes above leave a
 * wide margin; a product that would not fit is cut, never overflowed). */
static void big_mul_add(big *a, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] * m + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && a->n < BIG_LIMBS)
        a->w[a->n++] = (uint32_t)carry;
}

static void big_mul_pow5(big *a, int64_t k)
{
    static const uint32_t pow5[14] = {1,       5,        25,        125,       625,
                                      3125,    15625,    78125,     390625,    1953125,
                                      9765625, 48828125, 244140625, 1220703125};
    while (k >= 13) {
        big_mul_add(a, pow5[13], 0);
        k -= 13;
    }
    if (k > 0)
        big_mul_add(a, pow5[k], 0);
}

static void big_shl(big *a, int64_t k)
{
    if (a->n == 0 || k <= 0)
        return;
    int64_t limbs = k / 32;
    int bits = (int)(k % 32);
    if (a->n + limbs + 1 > BIG_LIMBS) { /* cannot happen (see the sizes above) */
        limbs = BIG_LIMBS - 1 - a->n;
        if (limbs < 0)
            return;
    }
    int n = a->n + (int)limbs;
    a->w[n] = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        int j = i + (int)limbs;
        if (bits) {
            a->w[j + 1] |= a->w[i] >> (32 - bits);
            a->w[j] = a->w[i] << bits;
        } else {
            a->w[j] = a->w[i];
        }
    }
    for (int i = 0; i < (int)limbs; i++)
        a->w[i] = 0;
    a->n = n + 1;
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

/* a += b << (32 * limbs) */
static void big_add_shifted(big *a, const big *b, int limbs)
{
    int n = b->n + limbs;
    if (n > BIG_LIMBS) /* cannot happen (see the sizes above) */
        n = BIG_LIMBS;
    for (int i = a->n; i < n; i++)
        a->w[i] = 0;
    if (a->n < n)
        a->n = n;
    uint64_t carry = 0;
    int i = limbs;
    for (; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] + (i - limbs < b->n ? b->w[i - limbs] : 0) + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
        if (i - limbs >= b->n && !carry)
            break;
    }
    if (carry && a->n < BIG_LIMBS)
        a->w[a->n++] = (uint32_t)carry;
}

/* y = p * m */
static void big_mul_u64(big *y, const big *p, uint64_t m)
{
    big hi = *p;
    *y = *p;
    big_mul_add(y, (uint32_t)m, 0);
    if (m >> 32) {
        big_mul_add(&hi, (uint32_t)(m >> 32), 0);
        big_add_shifted(y, &hi, 1);
    }
    while (y->n > 0 && y->w[y->n - 1] == 0)
        y->n--;
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--) {
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    }
    return 0;
}

/* Compares D * 10^E (given as xd = D * 5^max(E, 0), and p5 = 5^max(-E, 0))
 * with the point halfway between the doubles with bit patterns b and b + 1. */
static int cmp_halfway_above(const big *xd, const big *p5, int64_t E, uint64_t b)
{
    uint64_t field = b >> 52, M = b & 0x000FFFFFFFFFFFFFu;
    int64_t e = -1074;
    if (field) {
        M |= (uint64_t)1 << 52;
        e = (int64_t)field - 1075;
    }
    big x = *xd, y;
    big_mul_u64(&y, p5, 2 * M + 1);
    int64_t shift = E - (e - 1);
    if (shift > 0)
        big_shl(&x, shift);
    else
        big_shl(&y, -shift);
    return big_cmp(&x, &y);
}

static unsigned char digit_at(const simdsv__decimal_text *d, size_t i)
{
    return i < d->int_len ? d->int_digits[i] : d->frac_digits[i - d->int_len];
}

uint64_t simdsv__decimal_round_exact(const simdsv__decimal_text *d, uint64_t candidate)
{
    unsigned char dig[MAX_DIGITS + 1];
    size_t total = d->int_len + d->frac_len, i = 0, k = 0;

    while (i < total && digit_at(d, i) == '0')
        i++;
    if (i == total)
        return 0;
    while (i < total && k < MAX_DIGITS)
        dig[k++] = (unsigned char)(digit_at(d, i++) - '0');
    /* i: the first digit not kept; the last kept one has scale 10^E */
    int64_t E = d->exp10 - (int64_t)d->frac_len + (int64_t)(total - i);
    bool sticky = false;
    for (; i < total; i++) {
        if (digit_at(d, i) != '0') {
            sticky = true;
            break;
        }
    }
    if (sticky) {
        dig[k++] = 1;
        E--;
    } else {
        while (dig[k - 1] == 0) { /* dig[0] != 0 */
            k--;
            E++;
        }
    }
    /* value in [10^(k-1+E), 10^(k+E)) */
    if ((int64_t)k + E <= -324) /* < 10^-324 < 2^-1075 */
        return 0;
    if ((int64_t)k - 1 + E >= 309) /* >= 10^309 > DBL_MAX */
        return INF_BITS;

    big xd;
    xd.n = 0;
    for (size_t j = 0; j < k;) {
        uint32_t chunk = 0, scale = 1;
        for (int c = 0; c < 9 && j < k; c++, j++) {
            chunk = chunk * 10 + dig[j];
            scale *= 10;
        }
        big_mul_add(&xd, scale, chunk);
    }
    big p5;
    big_set_u64(&p5, 1);
    if (E > 0)
        big_mul_pow5(&xd, E);
    else
        big_mul_pow5(&p5, -E);

    uint64_t b = candidate > INF_BITS ? INF_BITS : candidate;
    for (;;) {
        if (b < INF_BITS) {
            int c = cmp_halfway_above(&xd, &p5, E, b);
            if (c > 0 || (c == 0 && (b & 1))) {
                b++;
                continue;
            }
        }
        if (b == 0)
            break;
        int c = cmp_halfway_above(&xd, &p5, E, b - 1);
        if (c < 0 || (c == 0 && !((b - 1) & 1))) {
            b--;
            continue;
        }
        break;
    }
    return b;
}
