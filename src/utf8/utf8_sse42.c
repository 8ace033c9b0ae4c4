/*
 * utf8_sse42.c — UTF-8 validation with 16-byte SSE vectors (pshufb is
 * SSSE3, ptest SSE4.1; compiled with -msse4.2).  See utf8_simd.h.
 */
#include "utf8.h"

#if defined(__x86_64__) || defined(_M_X64)

#include <immintrin.h>

typedef __m128i utf8_vec;
#define UTF8_VEC_BYTES 16
#define UTF8_KERNEL simdsv__utf8_validate_sse42

static inline utf8_vec vec_load(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline utf8_vec vec_splat(uint8_t b) { return _mm_set1_epi8((char)b); }
static inline utf8_vec vec_table16(const uint8_t table[16]) { return vec_load(table); }
static inline utf8_vec vec_lookup16(utf8_vec table, utf8_vec index) { return _mm_shuffle_epi8(table, index); }
/* No byte shift exists: shift 16-bit lanes and drop the bits that crossed bytes. */
static inline utf8_vec vec_shr4(utf8_vec v) { return _mm_and_si128(_mm_srli_epi16(v, 4), vec_splat(0x0F)); }
static inline utf8_vec vec_and(utf8_vec a, utf8_vec b) { return _mm_and_si128(a, b); }
static inline utf8_vec vec_or(utf8_vec a, utf8_vec b) { return _mm_or_si128(a, b); }
static inline utf8_vec vec_xor(utf8_vec a, utf8_vec b) { return _mm_xor_si128(a, b); }
static inline utf8_vec vec_subs(utf8_vec a, utf8_vec b) { return _mm_subs_epu8(a, b); }
/* alignr(cur, prev, 16 - n): the 32-byte concatenation prev:cur shifted so
 * that byte i is the one n positions before cur[i]. */
static inline utf8_vec vec_prev1(utf8_vec cur, utf8_vec prev) { return _mm_alignr_epi8(cur, prev, 15); }
static inline utf8_vec vec_prev2(utf8_vec cur, utf8_vec prev) { return _mm_alignr_epi8(cur, prev, 14); }
static inline utf8_vec vec_prev3(utf8_vec cur, utf8_vec prev) { return _mm_alignr_epi8(cur, prev, 13); }
static inline int vec_any_nonzero(utf8_vec v) { return !_mm_testz_si128(v, v); }
static inline int vec_any_high_bit(utf8_vec v) { return _mm_movemask_epi8(v) != 0; }

#include "utf8_simd.h"

#endif
