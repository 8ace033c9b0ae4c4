/*
 * utf8_simd.h — THE SIMD UTF-8 validation algorithm, written once and
 * compiled once per ISA (the nibble-table "lookup" method of Keiser and
 * Lemire, "Validating UTF-8 In Less Than One Instruction Per Byte", 2021).
 *
 * An ISA file (utf8_<isa>.c) defines, then includes this file:
 *   UTF8_KERNEL                      the function to define (simdsv__utf8_validate_<isa>)
 *   utf8_vec, UTF8_VEC_BYTES         a vector of 16, 32 or 64 bytes
 *   utf8_vec vec_load(const uint8_t *p)             any alignment
 *   utf8_vec vec_splat(uint8_t b)
 *   utf8_vec vec_table16(const uint8_t table[16])   the table in every 16-byte lane
 *   utf8_vec vec_lookup16(utf8_vec table, utf8_vec index)  byte i = table[index[i]], index 0..15
 *   utf8_vec vec_shr4(utf8_vec v)                   byte i = v[i] >> 4
 *   utf8_vec vec_and/vec_or/vec_xor(utf8_vec, utf8_vec)
 *   utf8_vec vec_subs(utf8_vec a, utf8_vec b)       unsigned saturating a - b per byte
 *   utf8_vec vec_prev1/2/3(utf8_vec cur, utf8_vec prev)
 *       byte i = the byte 1/2/3 positions before cur[i], taken from the end
 *       of prev (the vector just before cur in the input) when i < 1/2/3
 *   int vec_any_nonzero(utf8_vec v), int vec_any_high_bit(utf8_vec v)
 *
 * The input is checked in 64-byte blocks.  A block is valid when no byte
 * breaks a rule together with the (up to 3) bytes before it, which may lie
 * in the previous block.  A block with an error is handed to the scalar
 * validator, so every kernel returns exactly the scalar offset.
 */
#include <string.h>

#include "utf8.h"

#define UTF8_VECS_PER_BLOCK (64 / UTF8_VEC_BYTES)

/*
 * Every error that involves only a byte and the byte before it ("prev1") is
 * a product of three conditions: on prev1's high nibble, on prev1's low
 * nibble, and on the current byte's high nibble.  Each error class gets one
 * bit; the three tables say, per nibble value, which classes that nibble is
 * compatible with, and the AND of the three lookups keeps exactly the classes
 * whose three conditions all hold.  (High nibbles: 0..7 ASCII, 8..B
 * continuation, C..D 2-byte lead, E 3-byte lead, F 4-byte lead or invalid.)
 */
#define UTF8_TOO_SHORT 0x01  /* lead byte, then no continuation: C..F then 0..7/C..F */
#define UTF8_TOO_LONG 0x02   /* ASCII, then a continuation: 0..7 then 8..B */
#define UTF8_OVERLONG_3 0x04 /* E0 80..9F: a 3-byte form of a code point below U+0800 */
#define UTF8_TOO_LARGE 0x08  /* F4 90..BF, F5..FF 90..BF: above U+10FFFF */
#define UTF8_SURROGATE 0x10  /* ED A0..BF: U+D800..DFFF */
#define UTF8_OVERLONG_2 0x20 /* C0/C1 80..BF: a 2-byte form of ASCII */
/* F0 80..8F (overlong: below U+10000) and F5..FF 80..8F (too large) share a
 * bit: both need prev1 high nibble F and current high nibble 8, so their low
 * nibble sets (0 and 5..F) can simply be united. */
#define UTF8_OVERLONG_4_OR_TOO_LARGE_8 0x40
/* Continuation after continuation.  Not an error by itself: it is correct
 * exactly where the byte must be the 3rd or 4th of a sequence, which
 * the prev2/prev3 check below decides.  It must be 0x80 for that check. */
#define UTF8_TWO_CONTS 0x80

/* Classes that do not depend on prev1's low nibble. */
#define UTF8_ANY_LOW (UTF8_TOO_SHORT | UTF8_TOO_LONG | UTF8_TWO_CONTS)

static const uint8_t utf8_prev_high_table[16] = {
    /* 0..7 ASCII */
    UTF8_TOO_LONG, UTF8_TOO_LONG, UTF8_TOO_LONG, UTF8_TOO_LONG,
    UTF8_TOO_LONG, UTF8_TOO_LONG, UTF8_TOO_LONG, UTF8_TOO_LONG,
    /* 8..B continuation */
    UTF8_TWO_CONTS, UTF8_TWO_CONTS, UTF8_TWO_CONTS, UTF8_TWO_CONTS,
    /* C */ UTF8_TOO_SHORT | UTF8_OVERLONG_2,
    /* D */ UTF8_TOO_SHORT,
    /* E */ UTF8_TOO_SHORT | UTF8_OVERLONG_3 | UTF8_SURROGATE,
    /* F */ UTF8_TOO_SHORT | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
};

static const uint8_t utf8_prev_low_table[16] = {
    /* 0: C0, E0, F0 */ UTF8_ANY_LOW | UTF8_OVERLONG_2 | UTF8_OVERLONG_3 | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    /* 1: C1 */ UTF8_ANY_LOW | UTF8_OVERLONG_2,
    /* 2 */ UTF8_ANY_LOW,
    /* 3 */ UTF8_ANY_LOW,
    /* 4: F4 */ UTF8_ANY_LOW | UTF8_TOO_LARGE,
    /* 5..C: F5..FC */
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    /* D: ED, FD */ UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8 | UTF8_SURROGATE,
    /* E..F: FE, FF */
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    UTF8_ANY_LOW | UTF8_TOO_LARGE | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
};

/* Classes a continuation byte (8..B) can take part in, per sub-range. */
#define UTF8_CONT_ANY (UTF8_TOO_LONG | UTF8_TWO_CONTS | UTF8_OVERLONG_2)
static const uint8_t utf8_cur_high_table[16] = {
    /* 0..7 ASCII */
    UTF8_TOO_SHORT, UTF8_TOO_SHORT, UTF8_TOO_SHORT, UTF8_TOO_SHORT,
    UTF8_TOO_SHORT, UTF8_TOO_SHORT, UTF8_TOO_SHORT, UTF8_TOO_SHORT,
    /* 8: 80..8F */ UTF8_CONT_ANY | UTF8_OVERLONG_3 | UTF8_OVERLONG_4_OR_TOO_LARGE_8,
    /* 9: 90..9F */ UTF8_CONT_ANY | UTF8_OVERLONG_3 | UTF8_TOO_LARGE,
    /* A: A0..AF */ UTF8_CONT_ANY | UTF8_SURROGATE | UTF8_TOO_LARGE,
    /* B: B0..BF */ UTF8_CONT_ANY | UTF8_SURROGATE | UTF8_TOO_LARGE,
    /* C..F leads */
    UTF8_TOO_SHORT, UTF8_TOO_SHORT, UTF8_TOO_SHORT, UTF8_TOO_SHORT,
};

/* The last vector of a block ends inside a sequence when its last byte is a
 * lead (>= C0), its second-to-last a 3/4-byte lead (>= E0) or its
 * third-to-last a 4-byte lead (>= F0): "byte > limit" for these limits.
 * Read as the last UTF8_VEC_BYTES bytes of this array. */
static const uint8_t utf8_incomplete_limits[64] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF,
};

typedef struct utf8_constants {
    utf8_vec prev_high, prev_low, cur_high; /* the three tables */
    utf8_vec low_nibble;                    /* 0x0F */
    utf8_vec third_byte_bias;               /* prev2 - 0x60 >= 0x80  <=>  prev2 >= E0 */
    utf8_vec fourth_byte_bias;              /* prev3 - 0x70 >= 0x80  <=>  prev3 >= F0 */
    utf8_vec high_bit;                      /* 0x80 */
    utf8_vec incomplete_limits;
} utf8_constants;

typedef struct utf8_carry {
    utf8_vec prev_input;      /* the last vector of the previous block (zeros at the start) */
    utf8_vec prev_incomplete; /* nonzero: the previous block ended inside a sequence */
} utf8_carry;

/* Nonzero bytes where cur (with prev, the vector before it) breaks a rule. */
static inline utf8_vec vector_errors(const utf8_constants *k, utf8_vec cur, utf8_vec prev)
{
    const utf8_vec prev1 = vec_prev1(cur, prev);
    const utf8_vec pair_errors =
        vec_and(vec_and(vec_lookup16(k->prev_high, vec_shr4(prev1)),
                        vec_lookup16(k->prev_low, vec_and(prev1, k->low_nibble))),
                vec_lookup16(k->cur_high, vec_shr4(cur)));
    /* A byte two after a 3/4-byte lead, or three after a 4-byte lead, must be
     * a continuation.  The pair check cannot see that far back: it only
     * flagged "continuation after continuation" (TWO_CONTS = 0x80).  XOR with
     * "must be 3rd/4th byte" (also 0x80) clears the flag where it is expected
     * and raises it where a required continuation is missing.  If the bytes
     * in between are wrong themselves, their own pair check already fails. */
    const utf8_vec third = vec_subs(vec_prev2(cur, prev), k->third_byte_bias);
    const utf8_vec fourth = vec_subs(vec_prev3(cur, prev), k->fourth_byte_bias);
    const utf8_vec must_continue = vec_and(vec_or(third, fourth), k->high_bit);
    return vec_xor(must_continue, pair_errors);
}

/* Checks the 64 bytes at block and updates the carry; 1 if no error shows. */
static inline int block_is_valid(const utf8_constants *k, utf8_carry *carry, const uint8_t *block)
{
    utf8_vec in[UTF8_VECS_PER_BLOCK];
    utf8_vec any = vec_load(block);
    in[0] = any;
    for (int i = 1; i < UTF8_VECS_PER_BLOCK; i++) {
        in[i] = vec_load(block + i * UTF8_VEC_BYTES);
        any = vec_or(any, in[i]);
    }
    const utf8_vec last = in[UTF8_VECS_PER_BLOCK - 1];
    if (!vec_any_high_bit(any)) {
        /* All ASCII: valid unless the previous block left a sequence open. */
        const int valid = !vec_any_nonzero(carry->prev_incomplete);
        carry->prev_input = last;
        carry->prev_incomplete = vec_splat(0);
        return valid;
    }
    utf8_vec errors = vector_errors(k, in[0], carry->prev_input);
    for (int i = 1; i < UTF8_VECS_PER_BLOCK; i++)
        errors = vec_or(errors, vector_errors(k, in[i], in[i - 1]));
    carry->prev_input = last;
    carry->prev_incomplete = vec_subs(last, k->incomplete_limits);
    return !vec_any_nonzero(errors);
}

/* The block at block_start has an error (or closes one left open before it).
 * Everything before the block is valid except, possibly, a sequence started
 * in its last 3 bytes: restart the scalar walk at that sequence's lead (any
 * non-continuation byte there starts a sequence; three continuation bytes
 * end one), so it fails at the same offset as a walk from the start. */
static size_t locate_error(const uint8_t *data, size_t size, size_t block_start)
{
    size_t restart = block_start;
    for (size_t back = 1; back <= 3 && back <= block_start; back++) {
        if ((data[block_start - back] & 0xC0) != 0x80) {
            restart = block_start - back;
            break;
        }
    }
    return restart + simdsv__utf8_validate_scalar(data + restart, size - restart);
}

size_t UTF8_KERNEL(const uint8_t *data, size_t size)
{
    utf8_constants k;
    k.prev_high = vec_table16(utf8_prev_high_table);
    k.prev_low = vec_table16(utf8_prev_low_table);
    k.cur_high = vec_table16(utf8_cur_high_table);
    k.low_nibble = vec_splat(0x0F);
    k.third_byte_bias = vec_splat(0xE0 - 0x80);
    k.fourth_byte_bias = vec_splat(0xF0 - 0x80);
    k.high_bit = vec_splat(0x80);
    k.incomplete_limits = vec_load(utf8_incomplete_limits + 64 - UTF8_VEC_BYTES);

    utf8_carry carry;
    carry.prev_input = vec_splat(0);
    carry.prev_incomplete = vec_splat(0);

    size_t pos = 0;
    for (; size - pos >= 64; pos += 64)
        if (!block_is_valid(&k, &carry, data + pos))
            return locate_error(data, size, pos);

    /* The rest (0..63 bytes) in a zero-padded block.  Zero bytes are ASCII,
     * so a sequence cut by the end of the data fails as "too short", and an
     * empty rest still checks the sequence left open by the last block. */
    uint8_t tail[64] = {0};
    if (size > pos)
        memcpy(tail, data + pos, size - pos);
    if (!block_is_valid(&k, &carry, tail))
        return locate_error(data, size, pos);
    return size;
}
