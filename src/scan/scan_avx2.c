/* scan_avx2.c — x86-64 kernel: two 32-byte compares per block, PCLMULQDQ for
 * the quote prefix, TZCNT for flattening.  Compiled with
 * -mavx2 -mbmi -mbmi2 -mpclmul -mpopcnt only. */
#if defined(__x86_64__) || defined(_M_X64)
#include "scan.h"

#include <immintrin.h>

#ifdef SCAN_NIBBLE
#define SCAN_ISA avx2_nibble
#else
#define SCAN_ISA avx2
#endif

typedef struct simd_block {
    __m256i lo, hi;
} simd_block;
typedef __m256i simd_splat;

static inline simd_splat splat_byte(uint8_t c)
{
    return _mm256_set1_epi8((char)c);
}

static inline simd_block block_load(const uint8_t *p)
{
    simd_block b;
    b.lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    b.hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    return b;
}

static inline uint64_t block_eq(const simd_block *b, simd_splat c)
{
    const uint64_t lo = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b->lo, c));
    const uint64_t hi = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b->hi, c));
    return lo | (hi << 32);
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
    return (unsigned)_tzcnt_u64(x); /* defined for 0: 64 */
}

static inline unsigned count_leading_zeros_nonzero(uint64_t x)
{
    return (unsigned)__builtin_clzll(x);
}

/* Flags (scan_block.h): bit 7 of each byte, as the compares leave it and
 * as a byte >= 0x80 has it. */
typedef simd_block simd_flags;

static inline simd_flags flags_eq(const simd_block *b, simd_splat c)
{
    simd_flags f;
    f.lo = _mm256_cmpeq_epi8(b->lo, c);
    f.hi = _mm256_cmpeq_epi8(b->hi, c);
    return f;
}

static inline simd_flags flags_high(const simd_block *b)
{
    return *b;
}

static inline simd_flags flags_or(simd_flags a, simd_flags b)
{
    a.lo = _mm256_or_si256(a.lo, b.lo);
    a.hi = _mm256_or_si256(a.hi, b.hi);
    return a;
}

static inline simd_flags flags_and(simd_flags a, simd_flags b)
{
    a.lo = _mm256_and_si256(a.lo, b.lo);
    a.hi = _mm256_and_si256(a.hi, b.hi);
    return a;
}

static inline uint64_t flags_mask(simd_flags f)
{
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(f.lo) | ((uint64_t)(uint32_t)_mm256_movemask_epi8(f.hi) << 32);
}

static inline int flags_any(simd_flags f)
{
    return _mm256_movemask_epi8(_mm256_or_si256(f.lo, f.hi)) != 0;
}

#ifdef SCAN_NIBBLE
typedef __m256i simd_table;

static inline simd_table table_load(const uint8_t t[16])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t));
}

static inline __m256i lookup_half(__m256i v, simd_table lo, simd_table hi)
{
    const __m256i low4 = _mm256_set1_epi8(0x0f);
    const __m256i l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, low4));
    const __m256i h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4));
    return _mm256_and_si256(l, h);
}

static inline simd_block block_lookup_nibbles(const simd_block *b, simd_table lo, simd_table hi)
{
    simd_block r;
    r.lo = lookup_half(b->lo, lo, hi);
    r.hi = lookup_half(b->hi, lo, hi);
    return r;
}

/* Shifting 16-bit lanes left by 7 - k moves bit k of both bytes to their bit 7. */
static inline uint64_t block_has_bit(const simd_block *b, unsigned k)
{
    const uint64_t lo = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(b->lo, (int)(7 - k)));
    const uint64_t hi = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(b->hi, (int)(7 - k)));
    return lo | (hi << 32);
}
#endif

#include "scan_block.h"
#endif
