/* scan_sse42.c — x86-64 kernel: four 16-byte compares per block, PCLMULQDQ
 * for the quote prefix.  Compiled with -msse4.2 -mpclmul -mpopcnt only. */
#if defined(__x86_64__) || defined(_M_X64)
#include "scan.h"

#include <immintrin.h>

#ifdef SCAN_NIBBLE
#define SCAN_ISA sse42_nibble
#else
#define SCAN_ISA sse42
#endif

typedef struct simd_block {
    __m128i v[4];
} simd_block;
typedef __m128i simd_splat;

static inline simd_splat splat_byte(uint8_t c)
{
    return _mm_set1_epi8((char)c);
}

static inline simd_block block_load(const uint8_t *p)
{
    simd_block b;
    for (int i = 0; i < 4; i++)
        b.v[i] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
    return b;
}

static inline uint64_t block_eq(const simd_block *b, simd_splat c)
{
    const uint64_t m0 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b->v[0], c));
    const uint64_t m1 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b->v[1], c));
    const uint64_t m2 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b->v[2], c));
    const uint64_t m3 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b->v[3], c));
    return m0 | (m1 << 16) | (m2 << 32) | (m3 << 48);
}

static inline uint64_t prefix_xor(uint64_t x)
{
    const __m128i product = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8(-1), 0);
    return (uint64_t)_mm_cvtsi128_si64(product);
}

static inline unsigned count_ones(uint64_t x)
{
    return (unsigned)_mm_popcnt_u64(x);
}

static inline unsigned trailing_zeros(uint64_t x)
{
    return x ? (unsigned)__builtin_ctzll(x) : 64u;
}

static inline unsigned count_leading_zeros_nonzero(uint64_t x)
{
    return (unsigned)__builtin_clzll(x);
}

#ifndef SCAN_NIBBLE /* the skip is not built with the nibble classifier */
/* Flags (scan_block.h): bit 7 of each byte, as the compares leave it and
 * as a byte >= 0x80 has it. */
typedef simd_block simd_flags;

static inline simd_flags flags_eq(const simd_block *b, simd_splat c)
{
    simd_flags f;
    for (int i = 0; i < 4; i++)
        f.v[i] = _mm_cmpeq_epi8(b->v[i], c);
    return f;
}

static inline simd_flags flags_high(const simd_block *b)
{
    return *b;
}

static inline simd_flags flags_or(simd_flags a, simd_flags b)
{
    for (int i = 0; i < 4; i++)
        a.v[i] = _mm_or_si128(a.v[i], b.v[i]);
    return a;
}

static inline simd_flags flags_and(simd_flags a, simd_flags b)
{
    for (int i = 0; i < 4; i++)
        a.v[i] = _mm_and_si128(a.v[i], b.v[i]);
    return a;
}

static inline uint64_t flags_mask(simd_flags f)
{
    uint64_t m = 0;
    for (int i = 0; i < 4; i++)
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(f.v[i]) << (16 * i);
    return m;
}

static inline int flags_any(simd_flags f)
{
    const __m128i all = _mm_or_si128(_mm_or_si128(f.v[0], f.v[1]), _mm_or_si128(f.v[2], f.v[3]));
    return _mm_movemask_epi8(all) != 0;
}
#endif

#ifdef SCAN_NIBBLE
typedef __m128i simd_table;

static inline simd_table table_load(const uint8_t t[16])
{
    return _mm_loadu_si128((const __m128i *)(const void *)t);
}

static inline simd_block block_lookup_nibbles(const simd_block *b, simd_table lo, simd_table hi)
{
    const __m128i low4 = _mm_set1_epi8(0x0f);
    simd_block r;
    for (int i = 0; i < 4; i++) {
        const __m128i l = _mm_shuffle_epi8(lo, _mm_and_si128(b->v[i], low4));
        const __m128i h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(b->v[i], 4), low4));
        r.v[i] = _mm_and_si128(l, h);
    }
    return r;
}

/* Shifting 16-bit lanes left by 7 - k moves bit k of both bytes to their bit 7. */
static inline uint64_t block_has_bit(const simd_block *b, unsigned k)
{
    uint64_t m = 0;
    for (int i = 0; i < 4; i++)
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_slli_epi16(b->v[i], (int)(7 - k))) << (16 * i);
    return m;
}
#endif

#include "scan_block.h"
#endif
