/* literal.c — finding a literal in bytes, fast: two bytes of the pattern
 * (the anchors) are compared with 32 (AVX2) or 16 (SSE2) positions at once,
 * each at its offset in the pattern, and only positions where both match
 * are compared in full (W. Muła's "SIMD-friendly" substring search).  The
 * anchors start as the first and the last byte; literal_tune moves them to
 * the two bytes of the pattern that match together least often in a sample
 * of the input, so that "-73.961326" in a file full of longitudes is not
 * checked at every "-73.".
 * ASCII case folding (-i) compares each anchor with both of its cases.  Other
 * CPUs (aarch64 builds) use memchr on the first anchor. */
#include "cli.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LIT_X86 1
#endif

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
#ifdef LIT_X86
    __builtin_cpu_init();
    l->avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
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

/* Portable: positions whose first anchor matches, then the whole pattern. */
static const char *find_scalar(const literal *l, const unsigned char *s, size_t n)
{
    const size_t m = l->n, o = l->o1;
    /* Candidate starts are [s, end); their first anchor is at start + o. */
    const unsigned char *start = s, *end = s + n - m + 1;
    while (start < end) {
        const unsigned char *p1 = memchr(start + o, l->a1, (size_t)(end - start));
        const unsigned char *p2 = l->a2 != l->a1 ? memchr(start + o, l->a2, (size_t)(end - start)) : NULL;
        const unsigned char *p = !p1 ? p2 : !p2 ? p1 : p1 < p2 ? p1 : p2;
        if (!p)
            return NULL;
        if (equal_at(l, p - o))
            return (const char *)(p - o);
        start = p - o + 1;
    }
    return NULL;
}

#ifdef LIT_X86
static const char *find_sse2(const literal *l, const unsigned char *s, size_t n)
{
    const size_t m = l->n, o1 = l->o1, o2 = l->o2;
    const __m128i a1 = _mm_set1_epi8((char)l->a1), a2 = _mm_set1_epi8((char)l->a2);
    const __m128i b1 = _mm_set1_epi8((char)l->b1), b2 = _mm_set1_epi8((char)l->b2);
    size_t i = 0;
    for (; i + m - 1 + 16 <= n; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(s + i + o1));
        const __m128i y = _mm_loadu_si128((const __m128i *)(s + i + o2));
        const __m128i fa = _mm_or_si128(_mm_cmpeq_epi8(x, a1), _mm_cmpeq_epi8(x, a2));
        const __m128i lb = _mm_or_si128(_mm_cmpeq_epi8(y, b1), _mm_cmpeq_epi8(y, b2));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(fa, lb));
        while (mask) {
            const unsigned bit = (unsigned)__builtin_ctz(mask);
            if (equal_at(l, s + i + bit))
                return (const char *)(s + i + bit);
            mask &= mask - 1;
        }
    }
    return i + m <= n ? find_scalar(l, s + i, n - i) : NULL;
}

__attribute__((target("avx2"))) static const char *find_avx2(const literal *l, const unsigned char *s, size_t n)
{
    const size_t m = l->n, o1 = l->o1, o2 = l->o2;
    const __m256i a1 = _mm256_set1_epi8((char)l->a1), a2 = _mm256_set1_epi8((char)l->a2);
    const __m256i b1 = _mm256_set1_epi8((char)l->b1), b2 = _mm256_set1_epi8((char)l->b2);
    size_t i = 0;
    if (l->a1 == l->a2 && l->b1 == l->b2) {
        for (; i + m - 1 + 64 <= n; i += 64) {
            const __m256i x0 = _mm256_loadu_si256((const __m256i *)(s + i + o1));
            const __m256i x1 = _mm256_loadu_si256((const __m256i *)(s + i + o1 + 32));
            const __m256i y0 = _mm256_loadu_si256((const __m256i *)(s + i + o2));
            const __m256i y1 = _mm256_loadu_si256((const __m256i *)(s + i + o2 + 32));
            const __m256i m0 = _mm256_and_si256(_mm256_cmpeq_epi8(x0, a1), _mm256_cmpeq_epi8(y0, b1));
            const __m256i m1 = _mm256_and_si256(_mm256_cmpeq_epi8(x1, a1), _mm256_cmpeq_epi8(y1, b1));
            if (_mm256_testz_si256(_mm256_or_si256(m0, m1), _mm256_or_si256(m0, m1)))
                continue;
            uint64_t mask = (uint32_t)_mm256_movemask_epi8(m0) | ((uint64_t)(uint32_t)_mm256_movemask_epi8(m1) << 32);
            while (mask) {
                const unsigned bit = (unsigned)__builtin_ctzll(mask);
                if (equal_at(l, s + i + bit))
                    return (const char *)(s + i + bit);
                mask &= mask - 1;
            }
        }
    }
    for (; i + m - 1 + 32 <= n; i += 32) {
        const __m256i x = _mm256_loadu_si256((const __m256i *)(s + i + o1));
        const __m256i y = _mm256_loadu_si256((const __m256i *)(s + i + o2));
        const __m256i fa = _mm256_or_si256(_mm256_cmpeq_epi8(x, a1), _mm256_cmpeq_epi8(x, a2));
        const __m256i lb = _mm256_or_si256(_mm256_cmpeq_epi8(y, b1), _mm256_cmpeq_epi8(y, b2));
        unsigned mask = (unsigned)_mm256_movemask_epi8(_mm256_and_si256(fa, lb));
        while (mask) {
            const unsigned bit = (unsigned)__builtin_ctz(mask);
            if (equal_at(l, s + i + bit))
                return (const char *)(s + i + bit);
            mask &= mask - 1;
        }
    }
    return i + m <= n ? find_sse2(l, s + i, n - i) : NULL;
}
#endif

const char *literal_find(const literal *l, const char *data, size_t size)
{
    if (l->n == 0)
        return data;
    if (size < l->n)
        return NULL;
    const unsigned char *s = (const unsigned char *)data;
#ifdef LIT_X86
    if (l->n > 1 || l->icase)
        return l->avx2 ? find_avx2(l, s, size) : find_sse2(l, s, size);
#endif
    return find_scalar(l, s, size);
}
