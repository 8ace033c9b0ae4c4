/*
 * utf8_avx2.c — UTF-8 validation with 32-byte AVX2 vectors (compiled with
 * -mavx2).  See utf8_simd.h.
 */
#include "utf8.h"

#if defined(__x86_64__) || defined(_M_X64)

#include <immintrin.h>

typedef __m256i utf8_vec;
#define UTF8_VEC_BYTES 32
#define UTF8_KERNEL simdsv__utf8_validate_avx2

static inline utf8_vec vec_load(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
static inline utf8_vec vec_splat(uint8_t b) { return _mm256_set1_epi8((char)b); }
static inline utf8_vec vec_table16(const uint8_t table[16])
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)table));
}
/* vpshufb looks up within each 128-bit lane: hence the table in both lanes. */
static inline utf8_vec vec_lookup16(utf8_vec table, utf8_vec index) { return _mm256_shuffle_epi8(table, index); }
/* No byte shift exists: shift 16-bit lanes and drop the bits that crossed bytes. */
static inline utf8_vec vec_shr4(utf8_vec v) { return _mm256_and_si256(_mm256_srli_epi16(v, 4), vec_splat(0x0F)); }
static inline utf8_vec vec_and(utf8_vec a, utf8_vec b) { return _mm256_and_si256(a, b); }
static inline utf8_vec vec_or(utf8_vec a, utf8_vec b) { return _mm256_or_si256(a, b); }
static inline utf8_vec vec_xor(utf8_vec a, utf8_vec b) { return _mm256_xor_si256(a, b); }
static inline utf8_vec vec_subs(utf8_vec a, utf8_vec b) { return _mm256_subs_epu8(a, b); }
/* vpalignr also works per 128-bit lane, so first build the vector whose
 * lanes are the 16 bytes before each lane of cur: (prev high, cur low). */
static inline utf8_vec lanes_before(utf8_vec cur, utf8_vec prev) { return _mm256_permute2x128_si256(prev, cur, 0x21); }
static inline utf8_vec vec_prev1(utf8_vec cur, utf8_vec prev) { return _mm256_alignr_epi8(cur, lanes_before(cur, prev), 15); }
static inline utf8_vec vec_prev2(utf8_vec cur, utf8_vec prev) { return _mm256_alignr_epi8(cur, lanes_before(cur, prev), 14); }
static inline utf8_vec vec_prev3(utf8_vec cur, utf8_vec prev) { return _mm256_alignr_epi8(cur, lanes_before(cur, prev), 13); }
static inline int vec_any_nonzero(utf8_vec v) { return !_mm256_testz_si256(v, v); }
static inline int vec_any_high_bit(utf8_vec v) { return _mm256_movemask_epi8(v) != 0; }

#include "utf8_simd.h"

#endif
