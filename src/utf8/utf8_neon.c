/*
 * utf8_neon.c — UTF-8 validation with 16-byte NEON vectors (aarch64).
 * See utf8_simd.h.
 */
#include "utf8.h"

#if defined(__aarch64__)

#include <arm_neon.h>

typedef uint8x16_t utf8_vec;
#define UTF8_VEC_BYTES 16
#define UTF8_KERNEL simdsv__utf8_validate_neon

static inline utf8_vec vec_load(const uint8_t *p) { return vld1q_u8(p); }
static inline utf8_vec vec_splat(uint8_t b) { return vdupq_n_u8(b); }
static inline utf8_vec vec_table16(const uint8_t table[16]) { return vld1q_u8(table); }
static inline utf8_vec vec_lookup16(utf8_vec table, utf8_vec index) { return vqtbl1q_u8(table, index); }
static inline utf8_vec vec_shr4(utf8_vec v) { return vshrq_n_u8(v, 4); }
static inline utf8_vec vec_and(utf8_vec a, utf8_vec b) { return vandq_u8(a, b); }
static inline utf8_vec vec_or(utf8_vec a, utf8_vec b) { return vorrq_u8(a, b); }
static inline utf8_vec vec_xor(utf8_vec a, utf8_vec b) { return veorq_u8(a, b); }
static inline utf8_vec vec_subs(utf8_vec a, utf8_vec b) { return vqsubq_u8(a, b); }
/* ext(prev, cur, 16 - n): the concatenation prev:cur from byte 16 - n, so
 * byte i is the one n positions before cur[i]. */
static inline utf8_vec vec_prev1(utf8_vec cur, utf8_vec prev) { return vextq_u8(prev, cur, 15); }
static inline utf8_vec vec_prev2(utf8_vec cur, utf8_vec prev) { return vextq_u8(prev, cur, 14); }
static inline utf8_vec vec_prev3(utf8_vec cur, utf8_vec prev) { return vextq_u8(prev, cur, 13); }
static inline int vec_any_nonzero(utf8_vec v) { return vmaxvq_u8(v) != 0; }
static inline int vec_any_high_bit(utf8_vec v) { return vmaxvq_u8(v) >= 0x80; }

#include "utf8_simd.h"

#endif
