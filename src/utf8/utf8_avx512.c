/*
 * utf8_avx512.c — UTF-8 validation with 64-byte AVX-512 vectors, one per
 * block.  Uses only AVX512-F and AVX512-BW instructions (compiled with the
 * library's AVX-512 flag set).  See utf8_simd.h.
 */
#include "utf8.h"

#if defined(__x86_64__) || defined(_M_X64)

#include <immintrin.h>

typedef __m512i utf8_vec;
#define UTF8_VEC_BYTES 64
#define UTF8_KERNEL simdsv__utf8_validate_avx512

static inline utf8_vec vec_load(const uint8_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline utf8_vec vec_splat(uint8_t b) { return _mm512_set1_epi8((char)b); }
static inline utf8_vec vec_table16(const uint8_t table[16])
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)table));
}
/* vpshufb looks up within each 128-bit lane: hence the table in every lane. */
static inline utf8_vec vec_lookup16(utf8_vec table, utf8_vec index) { return _mm512_shuffle_epi8(table, index); }
/* No byte shift exists: shift 16-bit lanes and drop the bits that crossed bytes. */
static inline utf8_vec vec_shr4(utf8_vec v) { return _mm512_and_si512(_mm512_srli_epi16(v, 4), vec_splat(0x0F)); }
static inline utf8_vec vec_and(utf8_vec a, utf8_vec b) { return _mm512_and_si512(a, b); }
static inline utf8_vec vec_or(utf8_vec a, utf8_vec b) { return _mm512_or_si512(a, b); }
static inline utf8_vec vec_xor(utf8_vec a, utf8_vec b) { return _mm512_xor_si512(a, b); }
static inline utf8_vec vec_subs(utf8_vec a, utf8_vec b) { return _mm512_subs_epu8(a, b); }

/* vpalignr works per 128-bit lane, so first build the vector whose lanes
 * are the 16 bytes before each lane of cur: (prev lane 3, cur lanes 0..2),
 * i.e. the concatenation prev:cur shifted by 6 quadwords. */
static inline utf8_vec lanes_before(utf8_vec cur, utf8_vec prev) { return _mm512_alignr_epi64(cur, prev, 6); }
static inline utf8_vec vec_prev1(utf8_vec cur, utf8_vec prev) { return _mm512_alignr_epi8(cur, lanes_before(cur, prev), 15); }
static inline utf8_vec vec_prev2(utf8_vec cur, utf8_vec prev) { return _mm512_alignr_epi8(cur, lanes_before(cur, prev), 14); }
static inline utf8_vec vec_prev3(utf8_vec cur, utf8_vec prev) { return _mm512_alignr_epi8(cur, lanes_before(cur, prev), 13); }
static inline int vec_any_nonzero(utf8_vec v) { return _mm512_test_epi8_mask(v, v) != 0; }
static inline int vec_any_high_bit(utf8_vec v) { return _mm512_movepi8_mask(v) != 0; }

#include "utf8_simd.h"

#endif
