/* scan_avx512.c — x86-64 kernel: one 64-byte compare per mask, PCLMULQDQ for
 * the quote prefix, and VBMI2 byte compress to turn a separator mask into
 * offsets without a bit-by-bit loop.  Compiled with
 * -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2 -mbmi -mbmi2 -mpclmul -mpopcnt. */
#if defined(__x86_64__) || defined(_M_X64)
#include "scan.h"

#include <immintrin.h>
#include <stddef.h>

#ifdef SCAN_NIBBLE
#define SCAN_ISA avx512_nibble
#else
#define SCAN_ISA avx512
#endif

typedef __m512i simd_block;
typedef __m512i simd_splat;

static inline simd_splat splat_byte(uint8_t c)
{
    return _mm512_set1_epi8((char)c);
}

static inline simd_block block_load(const uint8_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}

static inline uint64_t block_eq(const simd_block *b, simd_splat c)
{
    return (uint64_t)_mm512_cmpeq_epi8_mask(*b, c);
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
    return (unsigned)_tzcnt_u64(x);
}

static inline unsigned count_leading_zeros_nonzero(uint64_t x)
{
    return (unsigned)__builtin_clzll(x);
}

#ifndef SCAN_NIBBLE /* the skip is not built with the nibble classifier */
/* Flags (scan_block.h): a compare's mask register itself. */
typedef uint64_t simd_flags;

static inline simd_flags flags_eq(const simd_block *b, simd_splat c)
{
    return (uint64_t)_mm512_cmpeq_epi8_mask(*b, c);
}

static inline simd_flags flags_high(const simd_block *b)
{
    return (uint64_t)_mm512_movepi8_mask(*b);
}

static inline simd_flags flags_or(simd_flags a, simd_flags b)
{
    return a | b;
}

static inline simd_flags flags_and(simd_flags a, simd_flags b)
{
    return a & b;
}

static inline uint64_t flags_mask(simd_flags f)
{
    return f;
}

static inline int flags_any(simd_flags f)
{
    return f != 0;
}
#endif

static const uint8_t byte_positions[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

/* One 16-entry group: byte (position | 0x80 for a record end) -> entry. */
static inline void store_group(uint32_t *out, __m128i packed_bytes, __m512i base)
{
    const __m512i wide = _mm512_cvtepu8_epi32(packed_bytes);
    const __m512i offset = _mm512_and_si512(wide, _mm512_set1_epi32(0x7f));
    const __m512i term_bit = _mm512_slli_epi32(_mm512_and_si512(wide, _mm512_set1_epi32(0x80)), 24);
    _mm512_storeu_si512((void *)out, _mm512_or_si512(_mm512_add_epi32(offset, base), term_bit));
}

#define SCAN_HAVE_COMPRESS
static inline uint32_t *flatten_compress(uint32_t *out, uint64_t sep, uint64_t term, uint32_t base_offset)
{
    if (!sep)
        return out;
    const unsigned count = count_ones(sep);
    const __m512i positions = _mm512_loadu_si512((const void *)byte_positions);
    const __m512i with_term =
        _mm512_mask_blend_epi8(term, positions, _mm512_or_si512(positions, _mm512_set1_epi8((char)0x80)));
    const __m512i packed = _mm512_maskz_compress_epi8(sep, with_term);
    const __m512i base = _mm512_set1_epi32((int)base_offset);
    store_group(out, _mm512_castsi512_si128(packed), base);
    if (count > 16) {
        store_group(out + 16, _mm512_extracti32x4_epi32(packed, 1), base);
        if (count > 32) {
            store_group(out + 32, _mm512_extracti32x4_epi32(packed, 2), base);
            if (count > 48)
                store_group(out + 48, _mm512_extracti32x4_epi32(packed, 3), base);
        }
    }
    return out + count;
}

#ifdef SCAN_NIBBLE
typedef __m512i simd_table;

static inline simd_table table_load(const uint8_t t[16])
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t));
}

static inline simd_block block_lookup_nibbles(const simd_block *b, simd_table lo, simd_table hi)
{
    const __m512i low4 = _mm512_set1_epi8(0x0f);
    const __m512i l = _mm512_shuffle_epi8(lo, _mm512_and_si512(*b, low4));
    const __m512i h = _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(*b, 4), low4));
    return _mm512_and_si512(l, h);
}

static inline uint64_t block_has_bit(const simd_block *b, unsigned k)
{
    return (uint64_t)_mm512_test_epi8_mask(*b, _mm512_set1_epi8((char)(1u << k)));
}
#endif

#ifndef SCAN_NIBBLE
/* Views eight at a time, as in scan_avx2.c: separator addresses (offsets
 * widened plus seps), starts one past the separator before (lane 7 of the
 * group before rotated in, `start` for the first), sizes the distance;
 * eight 24-byte views {data, size, flags = 0} are three 64-byte stores,
 * each a two-source permute of starts and sizes with zeros in the flags'
 * lanes.  *carry: lane 7 is the start of the group's first field; on
 * return, of the next group's. */
static inline void cut_group(char *out, __m256i raw, __m512i seps_v, __m512i *carry)
{
    /* lanes 0-7: starts s0..s7, 8-15: sizes z0..z7 */
    const __m512i views0 = _mm512_setr_epi64(0, 8, 0, 1, 9, 0, 2, 10);   /* s0 z0 - s1 z1 - s2 z2 */
    const __m512i views1 = _mm512_setr_epi64(0, 3, 11, 0, 4, 12, 0, 5);  /* - s3 z3 - s4 z4 - s5 */
    const __m512i views2 = _mm512_setr_epi64(13, 0, 6, 14, 0, 7, 15, 0); /* z5 - s6 z6 - s7 z7 - */
    const __m512i sep = _mm512_add_epi64(
        _mm512_cvtepu32_epi64(_mm256_and_si256(raw, _mm256_set1_epi32((int)SCAN_OFFSET_MASK))), seps_v);
    const __m512i next = _mm512_add_epi64(sep, _mm512_set1_epi64(1));
    const __m512i starts = _mm512_alignr_epi64(next, *carry, 7); /* carry7 next0 .. next6 */
    *carry = next;
    const __m512i sizes = _mm512_sub_epi64(sep, starts);
    _mm512_storeu_si512((void *)out, _mm512_maskz_permutex2var_epi64(0xdb, starts, views0, sizes));
    _mm512_storeu_si512((void *)(out + 64), _mm512_maskz_permutex2var_epi64(0xb6, starts, views1, sizes));
    _mm512_storeu_si512((void *)(out + 128), _mm512_maskz_permutex2var_epi64(0x6d, starts, views2, sizes));
}

#define SCAN_HAVE_CUT
_Static_assert(sizeof(simdsv_field) == 24 && offsetof(simdsv_field, size) == 8 && offsetof(simdsv_field, flags) == 16,
               "cut_group stores views as {data, size, flags and padding}");
/* Writes and reads up to 7 views and entries past the last. */
static inline size_t cut_fields(simdsv_field *f, const uint32_t *e, size_t n, uintptr_t seps, uintptr_t start)
{
    const __m256i term_bit = _mm256_set1_epi32((int)SCAN_TERM_BIT);
    const __m512i seps_v = _mm512_set1_epi64((long long)seps);
    __m512i carry = _mm512_set1_epi64((long long)start);
    size_t terms = 0;
    for (size_t j = 0; j < n; j += 8) {
        const __m256i raw = _mm256_loadu_si256((const __m256i *)(const void *)(e + j));
        const unsigned lanes = n - j >= 8 ? 0xffu : (1u << (n - j)) - 1; /* the last group's past n left out */
        terms += (size_t)_mm_popcnt_u32(_mm256_test_epi32_mask(raw, term_bit) & lanes);
        cut_group((char *)(f + j), raw, seps_v, &carry);
    }
    return terms;
}

/* Batch rows (scan.h, cut_rows_fn), each row's entries sixteen at a time:
 * offset mask, add, store, line ends counted per lane (the last group's
 * lanes past the row left out) and added up once at the end. */
#define SCAN_HAVE_CUT_ROWS
static inline size_t cut_rows(const uint32_t *e, size_t records, size_t width, size_t gap, uint32_t shift,
                              uint32_t row_start, uint32_t *rows)
{
    const __m512i offset_mask = _mm512_set1_epi32((int)SCAN_OFFSET_MASK), shift_v = _mm512_set1_epi32((int)shift);
    const size_t tail = width - ((width - 1) & ~(size_t)15); /* entries of a row's last group: 1 to 16 */
    const __mmask16 tail_lanes = (__mmask16)((1u << tail) - 1);
    __m512i terms = _mm512_setzero_si512();
    for (size_t k = 0; k < records; k++, e += width + gap, rows += width + 1) {
        rows[0] = row_start;
        uint32_t *const bounds = rows + 1;
        size_t j = 0;
        for (; j + 16 < width; j += 16) {
            const __m512i raw = _mm512_loadu_si512((const void *)(e + j));
            terms = _mm512_add_epi32(terms, _mm512_srli_epi32(raw, 31));
            _mm512_storeu_si512((void *)(bounds + j), _mm512_add_epi32(_mm512_and_si512(raw, offset_mask), shift_v));
        }
        const __m512i raw = _mm512_loadu_si512((const void *)(e + j));
        terms = _mm512_mask_add_epi32(terms, tail_lanes, terms, _mm512_srli_epi32(raw, 31));
        _mm512_storeu_si512((void *)(bounds + j), _mm512_add_epi32(_mm512_and_si512(raw, offset_mask), shift_v));
        row_start = (e[width - 1 + gap] & SCAN_OFFSET_MASK) + shift;
    }
    return (size_t)(uint32_t)_mm512_reduce_add_epi32(terms);
}
#endif

#include "scan_block.h"
#endif
