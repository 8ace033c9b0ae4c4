/*
 * scan_block.h — THE block algorithm, written once and compiled once per ISA.
 *
 * An ISA file (scan_<isa>.c) defines, then includes this file:
 *   SCAN_ISA                         name suffix (scalar, avx2, ...)
 *   simd_block, simd_splat           a 64-byte block and a broadcast byte
 *   simd_splat splat_byte(uint8_t)
 *   simd_block block_load(const uint8_t *p)      64 bytes, any alignment
 *   uint64_t block_eq(const simd_block *, simd_splat)   bit i = (byte i == c)
 *   uint64_t prefix_xor(uint64_t)    bit i = XOR of bits 0..i (carry-less multiply by ~0)
 *   unsigned count_ones(uint64_t), unsigned trailing_zeros(uint64_t) (64 for 0),
 *   unsigned count_leading_zeros_nonzero(uint64_t)
 *   optionally SCAN_HAVE_COMPRESS and
 *   uint32_t *flatten_compress(uint32_t *out, uint64_t sep, uint64_t term, uint32_t base)
 *   and, for the nibble classifier (SCAN_NIBBLE, see below):
 *   simd_table, simd_table table_load(const uint8_t t[16])
 *   simd_block block_lookup_nibbles(const simd_block *, simd_table lo, simd_table hi)
 *                                    byte i = lo[low nibble of i] & hi[high nibble of i]
 *   uint64_t block_has_bit(const simd_block *, unsigned k)   bit i = bit k of byte i
 *   and, for the skip pass (scan_skip), per-byte flags:
 *   simd_flags                       a flag per byte (bit 7 of each, or a mask register)
 *   simd_flags flags_eq(const simd_block *, simd_splat)   byte i == c
 *   simd_flags flags_high(const simd_block *)             byte i >= 0x80
 *   simd_flags flags_or(simd_flags, simd_flags), flags_and(simd_flags, simd_flags)
 *   uint64_t flags_mask(simd_flags)  bit i = flag of byte i
 *   int flags_any(simd_flags)        some flag is set
 *
 * Per block we compute masks of line ends (LF, CR), delimiters and quotes;
 * "inside quotes" for all 64 positions is the prefix XOR of the quote mask
 * (a doubled quote toggles twice, so `""` inside a quoted field leaves the
 * parity unchanged), XORed with the state carried from the previous block.
 * Separators are the delimiters and line ends outside quotes.
 *
 * RFC 4180 is checked with the same masks: an opening quote must start a
 * field (follow a separator) or be the second quote of a doubled pair
 * (follow a closing quote); the byte after a closing quote must be a
 * separator or the second quote of a pair.  Any other quote is "special":
 * the scan stops there and the reader's scalar state machine decides (error
 * in strict mode, Python-like recovery in lenient mode).  A comment byte at a
 * record start is special too.  Well-formed data never leaves this loop.
 */
#include <string.h>

#ifndef SCAN_PREFETCH_DISTANCE
#define SCAN_PREFETCH_DISTANCE 2048
#endif

#define SCAN_CAT2(a, b) a##b
#define SCAN_CAT(a, b) SCAN_CAT2(a, b)

/*
 * How a block's bytes become masks.  Two classifiers, one interface:
 *   compare (default): one byte compare per structural byte (LF, CR,
 *     delimiter, quote, escape, comment);
 *   SCAN_NIBBLE: table lookup ("nibble classification") -- each byte's low and high nibble index two 16-byte tables whose AND
 *     is a byte of class bits, then one bit test per class (LF and CR share
 *     the class "line end").  Classes are single bytes apart from LF/CR,
 *     which share their high nibble, so the AND has no false positives.
 * docs/BENCHMARKS.md ("Nibble classification") measures both on each ISA;
 * the library's kernels use the faster, compare, and bench_classify builds
 * the nibble variant of each kernel to keep that measurement reproducible.
 */
#ifdef SCAN_NIBBLE
enum { CLASS_DELIMITER = 0, CLASS_QUOTE = 1, CLASS_TERM = 2, CLASS_ESCAPE = 3, CLASS_COMMENT = 4 };

typedef struct classifier {
    simd_table lo, hi;
} classifier;

static inline void class_add(uint8_t lo[16], uint8_t hi[16], uint8_t byte, unsigned cls)
{
    lo[byte & 15] |= (uint8_t)(1u << cls);
    hi[byte >> 4] |= (uint8_t)(1u << cls);
}

static inline classifier make_classifier(const scan_dialect *d)
{
    uint8_t lo[16] = {0}, hi[16] = {0};
    class_add(lo, hi, '\n', CLASS_TERM);
    class_add(lo, hi, '\r', CLASS_TERM);
    class_add(lo, hi, d->delimiter, CLASS_DELIMITER);
    if (d->has_quote)
        class_add(lo, hi, d->quote, CLASS_QUOTE);
    if (d->has_escape)
        class_add(lo, hi, d->escape, CLASS_ESCAPE);
    if (d->has_comment)
        class_add(lo, hi, d->comment, CLASS_COMMENT);
    classifier c;
    c.lo = table_load(lo);
    c.hi = table_load(hi);
    return c;
}

static inline simd_block classify(const classifier *c, const simd_block *b)
{
    return block_lookup_nibbles(b, c->lo, c->hi);
}

#define MASK_TERM(c, k) block_has_bit(k, CLASS_TERM)
#define MASK_DELIMITER(c, k) block_has_bit(k, CLASS_DELIMITER)
#define MASK_QUOTE(c, k) block_has_bit(k, CLASS_QUOTE)
#define MASK_ESCAPE(c, k) block_has_bit(k, CLASS_ESCAPE)
#define MASK_COMMENT(c, k) block_has_bit(k, CLASS_COMMENT)
#else
typedef struct classifier {
    simd_splat lf, cr, delimiter, quote, escape, comment;
} classifier;

static inline classifier make_classifier(const scan_dialect *d)
{
    classifier c;
    c.lf = splat_byte('\n');
    c.cr = splat_byte('\r');
    c.delimiter = splat_byte(d->delimiter);
    c.quote = splat_byte(d->quote);
    c.escape = splat_byte(d->escape);
    c.comment = splat_byte(d->comment);
    return c;
}

/* The compare classifier works on the block itself. */
static inline simd_block classify(const classifier *c, const simd_block *b)
{
    (void)c;
    return *b;
}

#define MASK_TERM(c, k) (block_eq(k, (c)->lf) | block_eq(k, (c)->cr))
#define MASK_DELIMITER(c, k) block_eq(k, (c)->delimiter)
#define MASK_QUOTE(c, k) block_eq(k, (c)->quote)
#define MASK_ESCAPE(c, k) block_eq(k, (c)->escape)
#define MASK_COMMENT(c, k) block_eq(k, (c)->comment)
#endif

typedef struct block_masks {
    uint64_t sep;        /* field or record ends outside quotes */
    uint64_t term;       /* record ends (LF or CR) outside quotes */
    uint64_t prev_term;  /* bit i: byte i-1 was a record end (or i starts the scan) */
    uint64_t special;    /* bytes the fast path does not handle */
    uint64_t quote;      /* quote bytes */
} block_masks;

/* Bytes preceded by an odd-length run of escape bytes (they are escaped).
 * A run that starts at an even bit and lands (first non-escape bit) on an odd
 * bit has odd length, and vice versa; adding the run's start bit to the run
 * carries through it and sets the landing bit.  *carry: bit 0 is escaped by
 * the previous block; on return, whether this block ends in an odd run. */
static inline uint64_t escaped_positions(uint64_t esc, uint64_t *carry)
{
    const uint64_t even_bits = 0x5555555555555555ULL;
    const uint64_t first_escaped = *carry;
    esc &= ~first_escaped; /* an escaped escape byte starts no run */
    const uint64_t starts = esc & ~(esc << 1);
    const uint64_t even_land = (esc + (starts & even_bits)) & ~esc;
    const uint64_t odd_sum = esc + (starts & ~even_bits);
    *carry = odd_sum < esc; /* an odd-started run reached bit 63: odd length */
    const uint64_t odd_land = odd_sum & ~esc;
    return (even_land & ~even_bits) | (odd_land & even_bits) | first_escaped;
}

/* need_delimiters: whether the caller needs delimiters in m.sep.  Counting
 * does not, except to validate quotes, so a quote-free block skips that
 * compare and takes "the last byte ended a field" from the byte itself. */
static inline block_masks classify_block(const scan_dialect *d, const classifier *c, scan_state *s,
                                         const simd_block *b, const uint8_t *bytes, uint64_t valid,
                                         const int need_delimiters)
{
    block_masks m;
    const simd_block k = classify(c, b);
    uint64_t term = MASK_TERM(c, &k);
    uint64_t special = 0;
    const uint64_t quote_raw = d->has_quote ? MASK_QUOTE(c, &k) : 0;
    if (quote_raw | s->in_quote) {
        uint64_t escaped = 0;
        if (d->has_escape)
            escaped = escaped_positions(MASK_ESCAPE(c, &k), &s->escaped_next);
        const uint64_t quote = quote_raw & ~escaped;
        const uint64_t delimiter = MASK_DELIMITER(c, &k);
        const uint64_t inside = prefix_xor(quote) ^ s->in_quote;
        s->in_quote = (uint64_t)((int64_t)inside >> 63);
        term &= ~inside;
        m.sep = (delimiter | term) & ~inside;
        const uint64_t opens = quote & inside;
        const uint64_t closes = quote & ~inside;
        const uint64_t field_start = (m.sep << 1) | s->after_sep;
        const uint64_t after_close = (closes << 1) | s->after_close;
        special = (opens & ~(field_start | after_close)) | (after_close & ~(m.sep | opens)) |
                  (quote_raw & escaped & ~inside);
        s->after_close = closes >> 63;
    } else {
        if (d->has_escape)
            (void)escaped_positions(MASK_ESCAPE(c, &k), &s->escaped_next);
        if (need_delimiters || s->after_close)
            m.sep = MASK_DELIMITER(c, &k) | term;
        else
            m.sep = term | ((uint64_t)(bytes[63] == d->delimiter) << 63);
        special = s->after_close & ~m.sep; /* bit 0 only: the byte after a closing quote */
        s->after_close = 0;
    }
    m.prev_term = (term << 1) | s->after_term;
    if (d->has_comment)
        special |= MASK_COMMENT(c, &k) & m.prev_term;
    s->after_term = term >> 63;
    s->after_sep = m.sep >> 63;
    m.term = term;
    m.quote = quote_raw;
    m.special = special & valid;
    return m;
}

#ifndef SCAN_HAVE_COMPRESS
/* Writes the offsets of the set bits of sep.  Entries are written in groups
 * of eight without checking the count first (the index has slack), which
 * keeps the loop free of unpredictable branches for typical densities.  The
 * line-end bit is ORed in afterwards, at each line end's rank among the
 * separators: line ends are few (one a record), and the loop over all
 * separators is then four instructions an entry.  The first line end is
 * handled without a branch (with none, the OR of 0 lands on the slack past
 * the last entry). */
static inline uint32_t *flatten_bits(uint32_t *out, uint64_t sep, uint64_t term, uint32_t base)
{
    if (!sep)
        return out;
    const unsigned count = count_ones(sep);
    uint32_t *p = out;
    for (uint64_t s = sep;;) {
        for (int i = 0; i < 8; i++) {
            p[i] = base + trailing_zeros(s);
            s &= s - 1;
        }
        if (!s)
            break;
        p += 8;
    }
    const uint64_t first_term = term & (0 - term);
    out[count_ones(sep & (first_term - 1))] |= term ? SCAN_TERM_BIT : 0;
    for (term &= term - 1; term; term &= term - 1)
        out[count_ones(sep & ((term & (0 - term)) - 1))] |= SCAN_TERM_BIT;
    return out + count;
}
#define flatten_compress flatten_bits
#endif

/* What the count mode accumulates; kept branch-free per block, since line
 * ends fall in blocks at random and a branch on them mispredicts. */
typedef struct count_acc {
    uint64_t record_ends;
    size_t last_term_block;
    uint64_t last_term_mask;
    uint64_t quotes;     /* index mode: OR of the quote masks */
} count_acc;

/* Handles one block's masks; returns 0 to stop (a special byte was found). */
static inline int consume_block(block_masks m, size_t pos, scan_result *res, count_acc *acc, uint32_t **out,
                                const int emit_index)
{
    int go_on = 1;
    if (m.special) {
        const unsigned stop = trailing_zeros(m.special);
        const uint64_t below = (1ULL << stop) - 1; /* stop < 64 */
        m.sep &= below;
        m.term &= below;
        res->consumed = pos + stop;
        res->stopped = 1;
        go_on = 0;
    }
    if (emit_index) {
        *out = flatten_compress(*out, m.sep, m.term, (uint32_t)pos);
        acc->quotes |= m.quote;
    } else {
        acc->record_ends += count_ones(m.term & ~m.prev_term);
        const int has_term = m.term != 0;
        acc->last_term_block = has_term ? pos : acc->last_term_block;
        acc->last_term_mask = has_term ? m.term : acc->last_term_mask;
    }
    return go_on;
}

/* Inlined into each caller (below), so that count and index, and the usual
 * dialect, each get a loop of their own with their flags constant. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline scan_result scan_generic(const scan_dialect *d, scan_state *s, const uint8_t *data, size_t len,
                                       int final, uint32_t *index, const int emit_index)
{
    const classifier cls = make_classifier(d);
    scan_state state = *s; /* a local copy: stores through `out` cannot alias it */
    scan_result res = {0, 0, 0, 0, 0, 0};
    count_acc acc = {0, 0, 0, 0};
    uint32_t *out = index;
    const size_t full = len & ~(size_t)63;
    size_t pos = 0;
    for (; pos < full; pos += 64) {
        /* Keeps more cache-line reads in flight than the hardware
         * prefetcher alone on the machines measured (docs/BENCHMARKS.md). */
        __builtin_prefetch(data + pos + SCAN_PREFETCH_DISTANCE);
        const simd_block b = block_load(data + pos);
        const block_masks m = classify_block(d, &cls, &state, &b, data + pos, ~0ULL, emit_index);
        if (!consume_block(m, pos, &res, &acc, &out, emit_index))
            goto done;
    }
    if (final && pos < len) {
        uint8_t tail[64];
        memset(tail, d->pad_byte, sizeof tail);
        memcpy(tail, data + pos, len - pos);
        const simd_block b = block_load(tail);
        const uint64_t valid = (1ULL << (len - pos)) - 1; /* len - pos < 64 */
        const block_masks m = classify_block(d, &cls, &state, &b, tail, valid, 1);
        if (!consume_block(m, pos, &res, &acc, &out, emit_index))
            goto done;
        /* The state must describe the last real byte, not the padding. */
        const unsigned last = (unsigned)(len - pos - 1);
        state.after_term = (m.term >> last) & 1;
        state.after_sep = (m.sep >> last) & 1;
        pos = len;
    }
    res.consumed = pos;
done:
    *s = state;
    res.record_ends = acc.record_ends;
    if (acc.last_term_mask)
        res.last_term_end = acc.last_term_block + 64 - (size_t)count_leading_zeros_nonzero(acc.last_term_mask);
    res.index_count = emit_index ? (size_t)(out - index) : 0;
    res.quoted = acc.quotes != 0;
    return res;
}

/* Count and index each get a loop of their own (emit_index constant), and
 * so does the usual dialect, neither escape nor comment byte: with its flags
 * constant the compiler drops their tests and masks from every block and
 * spills fewer registers.  Out of line with everything a variable, the count
 * paid for the index and the escape in every block.  bench_scan, AVX-512, GB/s
 * of CPU, mixed / quoted / taxi 200 MB (docs/BENCHMARKS.md): count 10.8 / 10.8
 * / 17.7 before, 12.4 / 12.5 / 17.5 after; index 8.9 / 8.9 / 11.1 before,
 * 10.8 / 9.9 / 13.4 after. */
static inline int plain_dialect(const scan_dialect *d)
{
    return !d->has_escape && !d->has_comment;
}

/* d, which plain_dialect accepted, with the flags as constants the compiler sees. */
static inline scan_dialect plain_copy(const scan_dialect *d)
{
    scan_dialect plain = *d;
    plain.has_escape = 0;
    plain.has_comment = 0;
    return plain;
}

scan_result SCAN_CAT(simdsv__scan_index_, SCAN_ISA)(const scan_dialect *d, scan_state *s, const uint8_t *data,
                                                    size_t len, int final, uint32_t *index)
{
    if (plain_dialect(d)) {
        const scan_dialect plain = plain_copy(d);
        return scan_generic(&plain, s, data, len, final, index, 1);
    }
    return scan_generic(d, s, data, len, final, index, 1);
}

scan_result SCAN_CAT(simdsv__scan_count_, SCAN_ISA)(const scan_dialect *d, scan_state *s, const uint8_t *data,
                                                    size_t len, int final, uint32_t *index)
{
    if (plain_dialect(d)) {
        const scan_dialect plain = plain_copy(d);
        return scan_generic(&plain, s, data, len, final, index, 0);
    }
    return scan_generic(d, s, data, len, final, index, 0);
}

/* Physical line breaks in data[0..len): LF, lone CR, CRLF counted once.
 * *after_cr carries "the previous byte was CR" across calls.  Used to turn
 * byte offsets into line numbers without a byte-at-a-time loop. */
uint64_t SCAN_CAT(simdsv__count_lines_, SCAN_ISA)(const uint8_t *data, size_t len, uint64_t *after_cr)
{
    const simd_splat lf = splat_byte('\n'), cr = splat_byte('\r');
    uint64_t lines = 0, carry = *after_cr;
    size_t pos = 0;
    uint8_t tail[64];
    while (pos < len) {
        const uint8_t *p = data + pos;
        if (len - pos < 64) {
            memset(tail, 0, sizeof tail);
            memcpy(tail, p, len - pos);
            p = tail;
        }
        const simd_block b = block_load(p);
        const uint64_t cr_mask = block_eq(&b, cr);
        const uint64_t lf_mask = block_eq(&b, lf);
        lines += count_ones(cr_mask) + count_ones(lf_mask & ~((cr_mask << 1) | carry));
        const size_t n = len - pos < 64 ? len - pos : 64;
        carry = (cr_mask >> (n - 1)) & 1;
        pos += n;
    }
    *after_cr = carry;
    return lines;
}

#ifndef SCAN_NIBBLE
/* ------------------------------------------------- the skip (record/skip.c) */

static inline uint8_t ascii_lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

static inline int literal_at(const scan_literal *lit, const uint8_t *s)
{
    if (!lit->icase)
        return memcmp(s, lit->bytes, lit->size) == 0;
    for (size_t i = 0; i < lit->size; i++)
        if (ascii_lower(s[i]) != ascii_lower(lit->bytes[i]))
            return 0;
    return 1;
}

typedef struct skip_splats {
    simd_splat lf, cr, first0, first1, last0, last1;
    simd_splat odd0, odd1, odd2; /* the dialect's quote, escape and comment bytes (repeated to fill) */
    size_t o2;                   /* the literal's last byte's offset */
    int track_high;              /* the first byte >= 0x80 is still looked for */
} skip_splats;

/* Where the literal may start in the block at data: its first byte there
 * and its last o2 bytes further on (the two cases of a letter). */
static inline simd_flags skip_candidates(const skip_splats *c, const simd_block *x, const uint8_t *data)
{
    const simd_flags f = flags_or(flags_eq(x, c->first0), flags_eq(x, c->first1));
    if (!c->o2)
        return f;
    const simd_block y = block_load(data + c->o2);
    return flags_and(f, flags_or(flags_eq(&y, c->last0), flags_eq(&y, c->last1)));
}

/* What a run of plain blocks leaves: the count's accumulators and the line
 * end state of its last byte. */
typedef struct plain_run {
    size_t pos;
    uint64_t after_term;
    count_acc acc;
} plain_run;

/*
 * Whole blocks from r.pos up to limit (the last block start whose literal
 * bytes are all inside the data) while they are plain: none of the bytes
 * the count has to look at closely (a quote, escape or comment byte, a
 * candidate of the literal, a byte >= 0x80 while one is looked for), the
 * state outside quotes and not after a closing quote (the caller sees to
 * that).  For those, the count is what classify_block and consume_block
 * would make of their line ends alone.  The variants (constants where it is
 * called) leave out what a dialect or literal does not need: exact: a
 * one-byte literal of one case; odd3: escape or comment bytes besides the
 * quote; high: bytes >= 0x80 looked for.
 */
static inline plain_run skip_plain_blocks(const skip_splats *c, const uint8_t *data, plain_run r, size_t limit,
                                          const int exact, const int odd3, const int high)
{
    const size_t start = r.pos;
    for (; r.pos <= limit; r.pos += 64) {
        __builtin_prefetch(data + r.pos + SCAN_PREFETCH_DISTANCE); /* as in scan_generic */
        const simd_block x = block_load(data + r.pos);
        simd_flags odd = exact ? flags_eq(&x, c->first0) : skip_candidates(c, &x, data + r.pos);
        odd = flags_or(odd, flags_eq(&x, c->odd0));
        if (odd3)
            odd = flags_or(odd, flags_or(flags_eq(&x, c->odd1), flags_eq(&x, c->odd2)));
        if (high)
            odd = flags_or(odd, flags_high(&x));
        if (flags_any(odd))
            break;
        const uint64_t term = flags_mask(flags_or(flags_eq(&x, c->lf), flags_eq(&x, c->cr)));
        r.acc.record_ends += count_ones(term & ~((term << 1) | r.after_term));
        r.after_term = term >> 63;
    }
    /* The run's last line end, looked for from its end back (records are
     * short next to a run) rather than noted in every block. */
    for (size_t b = r.pos; b > start;) {
        b -= 64;
        const simd_block x = block_load(data + b);
        const uint64_t term = flags_mask(flags_or(flags_eq(&x, c->lf), flags_eq(&x, c->cr)));
        if (term) {
            r.acc.last_term_block = b;
            r.acc.last_term_mask = term;
            break;
        }
    }
    return r;
}

/* Any other block (x, from data + pos or a padded copy `bytes`): the count's
 * own classification, the literal's candidates compared in full (the first
 * match stops the count as a special byte does) and the first byte >= 0x80.
 * Returns 0 to stop. */
static inline int skip_block(const scan_dialect *d, const classifier *cls, skip_splats *c, scan_state *s,
                             const simd_block *x, simd_flags cand, const uint8_t *bytes, uint64_t valid,
                             uint64_t starts, const uint8_t *data, size_t pos, const scan_literal *lit,
                             size_t *non_ascii, scan_result *res, count_acc *acc)
{
    block_masks m = classify_block(d, cls, s, x, bytes, valid, valid != ~0ULL);
    for (uint64_t hits = flags_mask(cand) & starts; hits; hits &= hits - 1) {
        const unsigned j = trailing_zeros(hits);
        if (literal_at(lit, data + pos + j)) {
            m.special |= 1ULL << j;
            break;
        }
    }
    if (c->track_high) {
        const uint64_t high = flags_mask(flags_high(x)) & valid;
        if (high) {
            *non_ascii = pos + trailing_zeros(high);
            c->track_high = 0;
        }
    }
    uint32_t *no_index = NULL;
    const block_masks all = m;
    if (!consume_block(m, pos, res, acc, &no_index, 0))
        return 0;
    if (valid != ~0ULL) { /* the state describes the last real byte, not the padding (as in scan_generic) */
        const unsigned last = 63 - (unsigned)count_leading_zeros_nonzero(valid);
        s->after_term = (all.term >> last) & 1;
        s->after_sep = (all.sep >> last) & 1;
    }
    return 1;
}

scan_result SCAN_CAT(simdsv__scan_skip_, SCAN_ISA)(const scan_dialect *d, scan_state *s, const uint8_t *data,
                                                   size_t len, const scan_literal *lit, size_t *non_ascii)
{
    const classifier cls = make_classifier(d);
    skip_splats c;
    c.lf = splat_byte('\n');
    c.cr = splat_byte('\r');
    c.first0 = splat_byte(lit->first[0]);
    c.first1 = splat_byte(lit->first[1]);
    c.last0 = splat_byte(lit->last[0]);
    c.last1 = splat_byte(lit->last[1]);
    c.o2 = lit->size - 1;
    c.track_high = non_ascii != NULL;
    /* The bytes a plain block must not hold besides the literal's; without
     * any, the literal's first byte (a block holding it is looked at anyway). */
    uint8_t odd[3];
    int nodd = 0;
    if (d->has_quote)
        odd[nodd++] = d->quote;
    if (d->has_escape)
        odd[nodd++] = d->escape;
    if (d->has_comment)
        odd[nodd++] = d->comment;
    if (!nodd)
        odd[nodd++] = lit->first[0];
    c.odd0 = splat_byte(odd[0]);
    c.odd1 = splat_byte(odd[nodd > 1 ? 1 : 0]);
    c.odd2 = splat_byte(odd[nodd - 1]);
    const int exact = c.o2 == 0 && lit->first[0] == lit->first[1], odd3 = nodd > 1;
    size_t unused;
    if (!non_ascii)
        non_ascii = &unused;
    *non_ascii = len;
    scan_state state = *s;
    scan_result res = {0, 0, 0, 0, 0, 0};
    count_acc acc = {0, 0, 0, 0};
    size_t pos = 0;
    int go_on = 1;
    if (len >= 64 + c.o2) {
        const size_t limit = len - 64 - c.o2; /* whole blocks whose literal's last bytes are inside data too */
        while (go_on && pos <= limit) {
            if (!(state.in_quote | state.after_close)) {
                plain_run r = {pos, state.after_term, acc};
                if (c.track_high) {
                    r = exact   ? odd3 ? skip_plain_blocks(&c, data, r, limit, 1, 1, 1)
                                       : skip_plain_blocks(&c, data, r, limit, 1, 0, 1)
                        : odd3 ? skip_plain_blocks(&c, data, r, limit, 0, 1, 1)
                               : skip_plain_blocks(&c, data, r, limit, 0, 0, 1);
                } else {
                    r = exact   ? odd3 ? skip_plain_blocks(&c, data, r, limit, 1, 1, 0)
                                       : skip_plain_blocks(&c, data, r, limit, 1, 0, 0)
                        : odd3 ? skip_plain_blocks(&c, data, r, limit, 0, 1, 0)
                               : skip_plain_blocks(&c, data, r, limit, 0, 0, 0);
                }
                if (r.pos != pos) { /* the state of the last plain block's last byte */
                    state.after_term = r.after_term;
                    state.after_sep = r.after_term | (data[r.pos - 1] == d->delimiter);
                    state.escaped_next = 0; /* no escape byte in a plain block */
                    pos = r.pos;
                    acc = r.acc;
                }
                if (pos > limit)
                    break;
            }
            const simd_block x = block_load(data + pos);
            go_on = skip_block(d, &cls, &c, &state, &x, skip_candidates(&c, &x, data + pos), data + pos, ~0ULL, ~0ULL,
                               data, pos, lit, non_ascii, &res, &acc);
            pos += 64;
        }
    }
    /* The rest, from padded copies: places where the literal would run past
     * the end are no candidates. */
    for (; go_on && pos < len; pos += 64) {
        const size_t n = len - pos < 64 ? len - pos : 64;
        const size_t room = len - pos >= lit->size ? len - pos - lit->size + 1 : 0; /* starts that fit */
        uint8_t xt[64], yt[64];
        memset(xt, d->pad_byte, sizeof xt);
        memcpy(xt, data + pos, n);
        const simd_block x = block_load(xt);
        simd_flags cand = flags_or(flags_eq(&x, c.first0), flags_eq(&x, c.first1));
        if (c.o2) {
            memset(yt, 0, sizeof yt);
            if (len - pos > c.o2)
                memcpy(yt, data + pos + c.o2, len - pos - c.o2 < 64 ? len - pos - c.o2 : 64);
            const simd_block y = block_load(yt);
            cand = flags_and(cand, flags_or(flags_eq(&y, c.last0), flags_eq(&y, c.last1)));
        }
        const uint64_t valid = n < 64 ? (1ULL << n) - 1 : ~0ULL;
        const uint64_t starts = room < 64 ? (1ULL << room) - 1 : ~0ULL;
        go_on = skip_block(d, &cls, &c, &state, &x, cand, xt, valid, starts, data, pos, lit, non_ascii, &res, &acc);
    }
    if (go_on)
        res.consumed = len;
    *s = state;
    res.record_ends = acc.record_ends;
    if (acc.last_term_mask)
        res.last_term_end = acc.last_term_block + 64 - (size_t)count_leading_zeros_nonzero(acc.last_term_mask);
    return res;
}
#endif

#ifndef SCAN_NIBBLE
#ifndef SCAN_HAVE_CUT
/* The views of n consecutive fields: field j ends at the separator of entry
 * e[j] (seps + its offset) and starts one past the separator before (field
 * 0 at start); flags 0.  Returns how many of e[0..n) are line ends.  An ISA
 * with wide registers defines its own (SCAN_HAVE_CUT), which may write up
 * to SCAN_CUT_SLACK views and read as many entries past the last. */
static inline size_t cut_fields(simdsv_field *f, const uint32_t *e, size_t n, uintptr_t seps, uintptr_t start)
{
    size_t terms = 0;
    uintptr_t p = start;
    size_t j = 0;
    /* two fields a step: half the loop's own instructions */
    for (; j + 2 <= n; j += 2) {
        const uint32_t e0 = e[j], e1 = e[j + 1];
        const uintptr_t sep0 = seps + (e0 & SCAN_OFFSET_MASK), sep1 = seps + (e1 & SCAN_OFFSET_MASK);
        terms += (e0 >> 31) + (e1 >> 31);
        f[j].data = (const char *)p;
        f[j].size = (size_t)(sep0 - p);
        f[j].flags = 0;
        f[j + 1].data = (const char *)(sep0 + 1);
        f[j + 1].size = (size_t)(sep1 - sep0 - 1);
        f[j + 1].flags = 0;
        p = sep1 + 1;
    }
    if (j < n) {
        const uintptr_t sep = seps + (e[j] & SCAN_OFFSET_MASK);
        terms += e[j] >> 31;
        f[j].data = (const char *)p;
        f[j].size = (size_t)(sep - p);
        f[j].flags = 0;
    }
    return terms;
}
#endif

#ifndef SCAN_HAVE_CUT_ROWS
/* The contract is in scan.h (cut_rows_fn).  An ISA with wide registers
 * defines its own (SCAN_HAVE_CUT_ROWS). */
static inline size_t cut_rows(const uint32_t *e, size_t records, size_t width, size_t gap, uint32_t shift,
                              uint32_t row_start, uint32_t *rows)
{
    size_t terms = 0;
    for (size_t k = 0; k < records; k++, e += width + gap, rows += width + 1) {
        rows[0] = row_start;
        for (size_t j = 0; j < width; j++) {
            terms += e[j] >> 31;
            rows[j + 1] = (e[j] & SCAN_OFFSET_MASK) + shift;
        }
        row_start = (e[width - 1 + gap] & SCAN_OFFSET_MASK) + shift;
    }
    return terms;
}
#endif

size_t SCAN_CAT(simdsv__cut_rows_, SCAN_ISA)(const uint32_t *e, size_t records, size_t width, size_t gap,
                                            uint32_t shift, uint32_t row_start, uint32_t *rows)
{
    return cut_rows(e, records, width, gap, shift, row_start, rows);
}

/* The contract is in scan.h (cut_records_fn).  The regular case is one
 * straight cut: the run's records follow each other in the index (no empty
 * line between them), so their views are the views of records * width
 * consecutive entries, and they are all regular when each record's last
 * entry is a line end and no other is (the count of line ends says so).
 * Anything else is cut record by record, each record's views first and its
 * line ends checked after: a record that fails leaves only scratch in its
 * views, and the run ends before it. */
size_t SCAN_CAT(simdsv__cut_records_, SCAN_ISA)(const scan_cut *c)
{
    const uint32_t *e = c->index + c->i, *const index_end = c->index + c->count;
    const uintptr_t buf = (uintptr_t)c->buf, seps = buf + c->base; /* entry -> its separator */
    const size_t width = c->width;
    const uint64_t max_size = c->max_size;
    size_t records = c->records;
    uintptr_t p = buf + c->start;
    simdsv_field *f = c->fields;
    size_t n = 0;
    size_t ended = 0; /* records whose last entry is a line end, from the first */
    while (ended < records && (e[ended * width + width - 1] & SCAN_TERM_BIT))
        ended++;
    if (ended == records && width > 1 && cut_fields(f, e, records * width, seps, p) == records) {
        for (; n < records; n++, e += width) {
            const uintptr_t sep = seps + (e[width - 1] & SCAN_OFFSET_MASK);
            if (max_size && sep - p > max_size)
                break;
            c->first[n] = (size_t)(e - c->index);
            c->starts[n] = (size_t)(p - buf);
            p = sep + 1;
            c->ends[n] = (size_t)(p - buf);
        }
        return n;
    }
    for (; n < records; n++) {
        /* Empty lines (and the LF of a CRLF) between records are no records.
         * `records` holds while none is skipped: at least `width` entries
         * are left. */
        if ((*e & SCAN_TERM_BIT) && seps + (*e & SCAN_OFFSET_MASK) == p) {
            do {
                e++;
                p++;
            } while (e < index_end && (*e & SCAN_TERM_BIT) && seps + (*e & SCAN_OFFSET_MASK) == p);
            const size_t fit = (size_t)(index_end - e) / width;
            if (fit == 0)
                break;
            if (records > n + fit)
                records = n + fit;
        }
        const uint32_t last = e[width - 1];
        const uintptr_t sep = seps + (last & SCAN_OFFSET_MASK);
        /* (One field ending where it starts is an empty line, no record.) */
        if (cut_fields(f, e, width, seps, p) != 1 || !(last & SCAN_TERM_BIT) || (width == 1 && sep == p) ||
            (max_size && sep - p > max_size))
            break;
        c->first[n] = (size_t)(e - c->index);
        c->starts[n] = (size_t)(p - buf);
        p = sep + 1;
        c->ends[n] = (size_t)(p - buf);
        e += width;
        f += width;
    }
    return n;
}
#endif
