/* scan_avx2.c — x86-64 kernel: two 32-byte compares per block, PCLMULQDQ for
 * the quote prefix, TZCNT for flattening.  Compiled with
 * -mavx2 -mbmi -mbmi2 -mpclmul -mpopcnt only. */
#if defined(__x86_64__) || defined(_M_X64)
#include "scan.h"

#include <immintrin.h>
#include <stddef.h>

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

#ifndef SCAN_NIBBLE /* the skip is not built with the nibble classifier */
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
#endif

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

#ifndef SCAN_NIBBLE
/* Views four at a time (scan_block.h has the contract): each entry's
 * separator address is its offset widened to 64 bits plus seps; a field
 * starts one past the separator before it (the lane rotated in from the
 * group before, `start` for the first), and its size is the distance.  Four
 * 24-byte views {data, size, flags = 0 (and the padding)} are three 32-byte
 * stores of those lanes interleaved with zeros.  *carry: lane 0 is the
 * start of the group's first field; on return, of the next group's. */
static inline void cut_group(char *out, __m128i raw, __m256i seps_v, __m256i *carry)
{
    const __m256i sep =
        _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm_and_si128(raw, _mm_set1_epi32((int)SCAN_OFFSET_MASK))), seps_v);
    /* (next3, next0, next1, next2): lanes 1-3 are the starts of fields 1-3 */
    const __m256i rotated =
        _mm256_permute4x64_epi64(_mm256_add_epi64(sep, _mm256_set1_epi64x(1)), _MM_SHUFFLE(2, 1, 0, 3));
    const __m256i starts = _mm256_blend_epi32(rotated, *carry, 0x03);
    *carry = rotated;
    const __m256i sizes = _mm256_sub_epi64(sep, starts);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i even = _mm256_unpacklo_epi64(starts, sizes);  /* s0 z0 | s2 z2 */
    const __m256i odd = _mm256_unpackhi_epi64(starts, sizes);   /* s1 z1 | s3 z3 */
    const __m256i odd_size = _mm256_unpackhi_epi64(odd, zero);  /* z1 0 | z3 0 */
    const __m256i odd_start = _mm256_unpacklo_epi64(zero, odd); /* 0 s1 | 0 s3 */
    _mm256_storeu_si256((__m256i *)(void *)out, _mm256_permute2x128_si256(even, odd_start, 0x20));
    _mm256_storeu_si256((__m256i *)(void *)(out + 32), _mm256_blend_epi32(odd_size, even, 0xf0));
    _mm256_storeu_si256((__m256i *)(void *)(out + 64), _mm256_permute2x128_si256(odd_start, odd_size, 0x31));
}

/* The sum of four 32-bit lanes. */
static inline size_t sum_lanes(__m128i v)
{
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return (size_t)(uint32_t)_mm_cvtsi128_si32(v);
}

#define SCAN_HAVE_CUT
_Static_assert(sizeof(simdsv_field) == 24 && offsetof(simdsv_field, size) == 8 && offsetof(simdsv_field, flags) == 16,
               "cut_group stores views as {data, size, flags and padding}");
/* Writes and reads up to 3 views and entries past the last. */
static inline size_t cut_fields(simdsv_field *f, const uint32_t *e, size_t n, uintptr_t seps, uintptr_t start)
{
    /* lane_masks + 4 - k: the first k of four lanes */
    static const int32_t lane_masks[8] = {-1, -1, -1, -1, 0, 0, 0, 0};
    const __m256i seps_v = _mm256_set1_epi64x((long long)seps);
    __m256i carry = _mm256_set1_epi64x((long long)start);
    __m128i terms = _mm_setzero_si128(); /* line ends per lane */
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const __m128i raw = _mm_loadu_si128((const __m128i *)(const void *)(e + j));
        terms = _mm_add_epi32(terms, _mm_srli_epi32(raw, 31));
        cut_group((char *)(f + j), raw, seps_v, &carry);
    }
    if (j < n) {
        const __m128i raw = _mm_loadu_si128((const __m128i *)(const void *)(e + j));
        const __m128i valid = _mm_loadu_si128((const __m128i *)(const void *)(lane_masks + 4 - (n - j)));
        terms = _mm_add_epi32(terms, _mm_srli_epi32(_mm_and_si128(raw, valid), 31));
        cut_group((char *)(f + j), raw, seps_v, &carry);
    }
    return sum_lanes(terms);
}

/* Batch rows (scan.h, cut_rows_fn), each row's entries eight at a time:
 * offset mask, add, store, line ends counted per lane (the last group's
 * lanes past the row left out) and added up once at the end. */
#define SCAN_HAVE_CUT_ROWS
static inline size_t cut_rows(const uint32_t *e, size_t records, size_t width, size_t gap, uint32_t shift,
                              uint32_t row_start, uint32_t *rows)
{
    /* lane_masks + 8 - k: the first k of eight lanes */
    static const int32_t lane_masks[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    const __m256i offset_mask = _mm256_set1_epi32((int)SCAN_OFFSET_MASK), shift_v = _mm256_set1_epi32((int)shift);
    const size_t tail = width - ((width - 1) & ~(size_t)7); /* entries of a row's last group: 1 to 8 */
    const __m256i tail_lanes = _mm256_loadu_si256((const __m256i *)(const void *)(lane_masks + 8 - tail));
    __m256i terms = _mm256_setzero_si256();
    for (size_t k = 0; k < records; k++, e += width + gap, rows += width + 1) {
        rows[0] = row_start;
        uint32_t *const bounds = rows + 1;
        size_t j = 0;
        for (; j + 8 < width; j += 8) {
            const __m256i raw = _mm256_loadu_si256((const __m256i *)(const void *)(e + j));
            terms = _mm256_add_epi32(terms, _mm256_srli_epi32(raw, 31));
            _mm256_storeu_si256((__m256i *)(void *)(bounds + j),
                                _mm256_add_epi32(_mm256_and_si256(raw, offset_mask), shift_v));
        }
        const __m256i raw = _mm256_loadu_si256((const __m256i *)(const void *)(e + j));
        terms = _mm256_add_epi32(terms, _mm256_srli_epi32(_mm256_and_si256(raw, tail_lanes), 31));
        _mm256_storeu_si256((__m256i *)(void *)(bounds + j), _mm256_add_epi32(_mm256_and_si256(raw, offset_mask), shift_v));
        row_start = (e[width - 1 + gap] & SCAN_OFFSET_MASK) + shift;
    }
    return sum_lanes(_mm_add_epi32(_mm256_castsi256_si128(terms), _mm256_extracti128_si256(terms, 1)));
}
#endif

#include "scan_block.h"
#endif
