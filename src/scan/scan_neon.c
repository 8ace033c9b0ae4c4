/* scan_neon.c — aarch64 kernel: four 16-byte compares per mask, narrowed to a
 * 64-bit mask by pairwise adds, PMULL for the quote prefix.  Compiled with
 * -march=armv8-a+crypto; used only when the CPU reports PMULL. */
#if defined(__aarch64__)
#include "scan.h"

#include <arm_neon.h>

#ifdef SCAN_NIBBLE
#define SCAN_ISA neon_nibble
#else
#define SCAN_ISA neon
#endif

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

/* NEON has no movemask: give each all-ones byte its bit within the byte
 * (1, 2, 4, ... 128 repeating), then three rounds of pairwise adds fold 64
 * bytes into 8, byte k holding the bits of input bytes 8k..8k+7. */
static inline uint64_t fold_to_mask(const simd_block *ones)
{
    static const uint8_t bit_of_byte[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t bits = vld1q_u8(bit_of_byte);
    const uint8x16_t s01 = vpaddq_u8(vandq_u8(ones->v[0], bits), vandq_u8(ones->v[1], bits));
    const uint8x16_t s23 = vpaddq_u8(vandq_u8(ones->v[2], bits), vandq_u8(ones->v[3], bits));
    const uint8x16_t s = vpaddq_u8(s01, s23);
    const uint8x16_t s2 = vpaddq_u8(s, s);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s2), 0);
}

static inline uint64_t block_eq(const simd_block *b, simd_splat c)
{
    simd_block eq;
    for (int i = 0; i < 4; i++)
        eq.v[i] = vceqq_u8(b->v[i], c);
    return fold_to_mask(&eq);
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

#ifndef SCAN_NIBBLE /* the skip is not built with the nibble classifier */
/* Flags (scan_block.h): all-ones bytes, as the compares leave them. */
typedef simd_block simd_flags;

static inline simd_flags flags_eq(const simd_block *b, simd_splat c)
{
    simd_flags f;
    for (int i = 0; i < 4; i++)
        f.v[i] = vceqq_u8(b->v[i], c);
    return f;
}

/* An arithmetic shift by 7 spreads bit 7 over the byte. */
static inline simd_flags flags_high(const simd_block *b)
{
    simd_flags f;
    for (int i = 0; i < 4; i++)
        f.v[i] = vreinterpretq_u8_s8(vshrq_n_s8(vreinterpretq_s8_u8(b->v[i]), 7));
    return f;
}

static inline simd_flags flags_or(simd_flags a, simd_flags b)
{
    for (int i = 0; i < 4; i++)
        a.v[i] = vorrq_u8(a.v[i], b.v[i]);
    return a;
}

static inline simd_flags flags_and(simd_flags a, simd_flags b)
{
    for (int i = 0; i < 4; i++)
        a.v[i] = vandq_u8(a.v[i], b.v[i]);
    return a;
}

static inline uint64_t flags_mask(simd_flags f)
{
    return fold_to_mask(&f);
}

static inline int flags_any(simd_flags f)
{
    return vmaxvq_u8(vorrq_u8(vorrq_u8(f.v[0], f.v[1]), vorrq_u8(f.v[2], f.v[3]))) != 0;
}
#endif

#ifdef SCAN_NIBBLE
typedef uint8x16_t simd_table;

static inline simd_table table_load(const uint8_t t[16])
{
    return vld1q_u8(t);
}

static inline simd_block block_lookup_nibbles(const simd_block *b, simd_table lo, simd_table hi)
{
    const uint8x16_t low4 = vdupq_n_u8(0x0f);
    simd_block r;
    for (int i = 0; i < 4; i++)
        r.v[i] = vandq_u8(vqtbl1q_u8(lo, vandq_u8(b->v[i], low4)), vqtbl1q_u8(hi, vshrq_n_u8(b->v[i], 4)));
    return r;
}

/* A byte with bit k set becomes all ones (vtst), then folded like block_eq. */
static inline uint64_t block_has_bit(const simd_block *b, unsigned k)
{
    const uint8x16_t bit = vdupq_n_u8((uint8_t)(1u << k));
    simd_block t;
    for (int i = 0; i < 4; i++)
        t.v[i] = vtstq_u8(b->v[i], bit);
    return fold_to_mask(&t);
}
#endif

#include "scan_block.h"
#endif
