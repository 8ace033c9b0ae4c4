/* literal.c — finding a literal in bytes, in portable C: two bytes of the
 * pattern (the anchors) are compared at 64 positions at a time, each at its
 * offset in the pattern, in a byte loop the compiler vectorises, and only
 * positions where both match are compared in full (W. Muła's
 * "SIMD-friendly" substring search, without intrinsics).  The anchors start as the first and the last byte;
 * literal_tune moves them to the two bytes of the pattern that match
 * together least often in a sample of the input, so that "-73.961326" in a
 * file full of longitudes is not checked at every "-73.".  ASCII case
 * folding (-i) compares each anchor with both of its cases. */
#include "cli.h"

#include <string.h>

static unsigned char fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static unsigned char other_case(unsigned char c)
{
    const unsigned char f = fold(c);
    return f >= 'a' && f <= 'z' ? (unsigned char)(f - 32) : f;
}

static void set_anchors(literal *l, size_t o1, size_t o2)
{
    l->o1 = o1;
    l->o2 = o2;
    const unsigned char a = l->p[o1], b = l->p[o2];
    l->a1 = l->icase ? fold(a) : a;
    l->b1 = l->icase ? fold(b) : b;
    l->a2 = l->icase ? other_case(a) : a;
    l->b2 = l->icase ? other_case(b) : b;
}

void literal_init(literal *l, const char *pattern, size_t size, bool icase)
{
    memset(l, 0, sizeof *l);
    l->p = (const unsigned char *)pattern;
    l->n = size;
    l->icase = icase;
    if (!size)
        return;
    set_anchors(l, 0, size - 1);
}

void literal_tune(literal *l, const char *sample, size_t size)
{
    if (l->n < 2 || size == 0)
        return;
    /* The candidates of a pair of anchors are the positions where both
     * match.  Rank the pattern's bytes by how often they occur in the
     * sample, then count, for each pair of the rarest few, the positions of
     * the sample where both match: the pair with the fewest wins (the
     * farther apart on ties). */
    uint32_t count[256] = {0};
    const unsigned char *s = (const unsigned char *)sample;
    for (size_t i = 0; i < size; i++)
        count[s[i]]++;
    enum { K = 6 };
    size_t best[K];
    uint64_t weight[K];
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        const unsigned char c = l->p[i];
        uint64_t w = count[c];
        if (l->icase && other_case(c) != c)
            w += count[other_case(c)];
        if (l->icase && fold(c) != c)
            w += count[fold(c)];
        /* insertion into the K lightest */
        size_t j = k < K ? k++ : K;
        if (j == K && w >= weight[K - 1])
            continue;
        if (j == K)
            j = K - 1;
        while (j > 0 && weight[j - 1] > w) {
            weight[j] = weight[j - 1];
            best[j] = best[j - 1];
            j--;
        }
        weight[j] = w;
        best[j] = i;
    }
    const size_t span = size > 32768 ? 32768 : size;
    size_t o1 = l->o1, o2 = l->o2;
    uint64_t fewest = UINT64_MAX;
    for (size_t x = 0; x < k; x++)
        for (size_t y = x + 1; y < k; y++) {
            const size_t i = best[x] < best[y] ? best[x] : best[y], j = best[x] < best[y] ? best[y] : best[x];
            const unsigned char ci = l->icase ? fold(l->p[i]) : l->p[i], cj = l->icase ? fold(l->p[j]) : l->p[j];
            uint64_t hits = 0;
            for (size_t t = 0; t + j < span; t++) {
                const unsigned char si = l->icase ? fold(s[t + i]) : s[t + i];
                const unsigned char sj = l->icase ? fold(s[t + j]) : s[t + j];
                hits += si == ci && sj == cj;
            }
            if (hits < fewest || (hits == fewest && j - i > o2 - o1)) {
                fewest = hits;
                o1 = i;
                o2 = j;
            }
        }
    set_anchors(l, o1, o2);
}

static bool equal_at(const literal *l, const unsigned char *s)
{
    if (!l->icase)
        return memcmp(s, l->p, l->n) == 0;
    for (size_t i = 0; i < l->n; i++)
        if (fold(s[i]) != fold(l->p[i]))
            return false;
    return true;
}

/* The byte an anchor is compared with after OR-ing fold into the input's
 * byte: a letter's two cases become one (other bytes that fold onto it are
 * mere candidates, compared in full later). */
static void anchor_byte(unsigned char a, unsigned char b, unsigned char *want, unsigned char *fold_bit)
{
    *fold_bit = a != b ? 0x20 : 0;
    *want = (unsigned char)(a | *fold_bit);
}

static bool anchors_at(const literal *l, const unsigned char *p)
{
    const unsigned char x = p[l->o1], y = p[l->o2];
    return (x == l->a1 || x == l->a2) && (y == l->b1 || y == l->b2);
}

/* 64 candidate starts at a time: the anchors are compared at their offsets
 * in a plain byte loop that the compiler vectorises for the target (no
 * intrinsics); only a block where both may match is looked at start by
 * start. */
enum { BLOCK = 64 };

/* folded: OR the fold bits in (-i with a letter as an anchor); a constant
 * at each call, so that each loop is compiled without the other's work. */
static inline const char *find_blocks(const literal *l, const unsigned char *s, size_t n, bool folded)
{
    const size_t m = l->n, o1 = l->o1, o2 = l->o2;
    unsigned char want1, fold1, want2, fold2;
    anchor_byte(l->a1, l->a2, &want1, &fold1);
    anchor_byte(l->b1, l->b2, &want2, &fold2);
    size_t i = 0;
    /* starts i..i+BLOCK-1: their anchors lie below i + o2 + BLOCK <= n */
    for (; i + o2 + BLOCK <= n; i += BLOCK) {
        const unsigned char *x = s + i + o1, *y = s + i + o2;
        unsigned char any = 0;
        for (size_t k = 0; k < BLOCK; k++)
            any |= (unsigned char)((((folded ? x[k] | fold1 : x[k]) == want1) &
                                    ((folded ? y[k] | fold2 : y[k]) == want2)));
        if (!any)
            continue;
        for (size_t k = 0; k < BLOCK && i + k + m <= n; k++)
            if (anchors_at(l, s + i + k) && equal_at(l, s + i + k))
                return (const char *)(s + i + k);
    }
    for (; i + m <= n; i++)
        if (anchors_at(l, s + i) && equal_at(l, s + i))
            return (const char *)(s + i);
    return NULL;
}

const char *literal_find(const literal *l, const char *data, size_t size)
{
    if (l->n == 0)
        return data;
    if (size < l->n)
        return NULL;
    const bool folded = l->a1 != l->a2 || l->b1 != l->b2;
    if (l->n == 1 && !folded) /* one byte: the C library's memchr is the fastest search there is */
        return memchr(data, l->p[0], size);
    return folded ? find_blocks(l, (const unsigned char *)data, size, true)
                  : find_blocks(l, (const unsigned char *)data, size, false);
}
