/* scan_neon.c — aarch64 kernel: four 16-byte compares per mask, narrowed to a
 * 64-bit mask by pairwise adds, PMULL for the quote prefix.  Compiled with
 * -march=armv8-a+crypto; used only when the CPU reports PMULL. */
#if defined(__aarch64__)
#include "scan.h"

#include <arm_neon.h>

#define SCAN_ISA neon

typedef struct simd_block {
    uint8x16_t v[4];
} simd_block;
typedef uint8x16_t simd_splat;

static inline simd_splat splat_byte(uint8_t c)
{
    return vdupq_n_u8(c);
}

static inline simd_block block_load(const uint8_t *p)
{
    simd_block b;
    for (int i = 0; i < 4; i++)
        b.v[i] = vld1q_u8(p + 16 * i);
    return b;
}

/* NEON has no movemask: give each matching byte its bit within the byte
 * (1, 2, 4, ... 128 repeating), then three rounds of pairwise adds fold 64
 * bytes into 8, byte k holding the bits of input bytes 8k..8k+7. */
static inline uint64_t block_eq(const simd_block *b, simd_splat c)
{
    static const uint8_t bit_of_byte[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t bits = vld1q_u8(bit_of_byte);
    const uint8x16_t m0 = vandq_u8(vceqq_u8(b->v[0], c), bits);
    const uint8x16_t m1 = vandq_u8(vceqq_u8(b->v[1], c), bits);
    const uint8x16_t m2 = vandq_u8(vceqq_u8(b->v[2], c), bits);
    const uint8x16_t m3 = vandq_u8(vceqq_u8(b->v[3], c), bits);
    const uint8x16_t s01 = vpaddq_u8(m0, m1);
    const uint8x16_t s23 = vpaddq_u8(m2, m3);
    const uint8x16_t s = vpaddq_u8(s01, s23);
    const uint8x16_t s2 = vpaddq_u8(s, s);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s2), 0);
}

static inline uint64_t prefix_xor(uint64_t x)
{
    return (uint64_t)vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64((poly64_t)x, (poly64_t)~0ULL)), 0);
}

static inline unsigned count_ones(uint64_t x)
{
    return (unsigned)__builtin_popcountll(x);
}

static inline unsigned trailing_zeros(uint64_t x)
{
    return x ? (unsigned)__builtin_ctzll(x) : 64u;
}

static inline unsigned count_leading_zeros_nonzero(uint64_t x)
{
    return (unsigned)__builtin_clzll(x);
}

#include "scan_block.h"
#endif
