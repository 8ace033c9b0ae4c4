/*
 * scan_scalar.c — the portable kernel: 64-bit SWAR compares and a shift-XOR
 * prefix, feeding the same block algorithm as every SIMD kernel.  It is the
 * fallback on any CPU and the reference the others are tested against.
 */
#include "scan.h"

#include <string.h>

#define SCAN_ISA scalar

typedef struct simd_block {
    uint64_t word[8];
} simd_block;
typedef uint64_t simd_splat;

static inline simd_splat splat_byte(uint8_t c)
{
    return 0x0101010101010101ULL * c;
}

static inline simd_block block_load(const uint8_t *p)
{
    simd_block b;
    memcpy(b.word, p, sizeof b.word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (int i = 0; i < 8; i++)
        b.word[i] = __builtin_bswap64(b.word[i]); /* byte i must be bits 8i..8i+7 */
#endif
    return b;
}

/* 0x80 in every byte of x that is zero, exactly (no borrow false positives):
 * adding 0x7f to the low seven bits sets bit 7 unless they are all zero. */
static inline uint64_t zero_byte_flags(uint64_t x)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    return ~(((x & low7) + low7) | x | low7);
}

static inline uint64_t block_eq(const simd_block *b, simd_splat c)
{
    uint64_t mask = 0;
    for (int i = 0; i < 8; i++) {
        /* One bit per byte at bit 8k; the multiply gathers byte k's bit into
         * bit 56 + k, and no two partial products share a bit (no carries). */
        const uint64_t flags = zero_byte_flags(b->word[i] ^ c) >> 7;
        mask |= ((flags * 0x0102040810204080ULL) >> 56) << (8 * i);
    }
    return mask;
}

static inline uint64_t prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
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

/* Flags (scan_block.h): bit 7 of each byte (0x80 exactly, the rest zero),
 * as zero_byte_flags leaves it and as a byte >= 0x80 has it. */
typedef simd_block simd_flags;
#define HIGH_BITS 0x8080808080808080ULL

static inline simd_flags flags_eq(const simd_block *b, simd_splat c)
{
    simd_flags f;
    for (int i = 0; i < 8; i++)
        f.word[i] = zero_byte_flags(b->word[i] ^ c);
    return f;
}

static inline simd_flags flags_high(const simd_block *b)
{
    simd_flags f;
    for (int i = 0; i < 8; i++)
        f.word[i] = b->word[i] & HIGH_BITS;
    return f;
}

static inline simd_flags flags_or(simd_flags a, simd_flags b)
{
    for (int i = 0; i < 8; i++)
        a.word[i] |= b.word[i];
    return a;
}

static inline simd_flags flags_and(simd_flags a, simd_flags b)
{
    for (int i = 0; i < 8; i++)
        a.word[i] &= b.word[i];
    return a;
}

/* As in block_eq: the multiply gathers byte k's flag into bit 56 + k. */
static inline uint64_t flags_mask(simd_flags f)
{
    uint64_t mask = 0;
    for (int i = 0; i < 8; i++)
        mask |= (((f.word[i] >> 7) * 0x0102040810204080ULL) >> 56) << (8 * i);
    return mask;
}

static inline int flags_any(simd_flags f)
{
    uint64_t any = 0;
    for (int i = 0; i < 8; i++)
        any |= f.word[i];
    return any != 0;
}

#include "scan_block.h"
