/*
 * parquet_chunk.c — one column chunk of a Parquet row group, encoded.
 *
 * A column chunk: every column is OPTIONAL (definition levels, bit width 1,
 * RLE/bit-packed hybrid with a 4-byte length, data page v1).  Values are
 * dictionary-encoded (a PLAIN dictionary page, then RLE_DICTIONARY data
 * pages: one byte of bit width and the hybrid of the indexes) while the
 * dictionary's PLAIN size stays under DICT_LIMIT and it is not mostly
 * distinct after DICT_PROBE values; otherwise the whole chunk is written
 * PLAIN, but int64 and timestamps DELTA_BINARY_PACKED (sequential ids and
 * sorted times shrink to a few bits, random values to their width: fewer
 * bytes for the codec, which is most of the time).  Booleans are always
 * PLAIN (bit-packed).  Pages hold about
 * PAGE_BYTES of values.  Statistics: null_count always; min_value/max_value
 * in the type's order (strings: unsigned bytes; doubles: NaN ignored, a zero
 * minimum written -0.0 and a zero maximum +0.0, as the specification asks),
 * left out for strings longer than STAT_MAX_BYTES (they would bloat the
 * footer, and truncating them would need is_exact flags that not every
 * reader knows).
 */
#include "parquet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DICT_LIMIT ((size_t)1 << 20)
#define PAGE_BYTES ((size_t)1 << 20)
#define PAGE_MAX_ROWS ((size_t)1 << 20)
#define STAT_MAX_BYTES 4096

/* ------------------------------------------------------ RLE/bit-packed hybrid */

typedef struct bitpacker {
    wbuf *out;
    uint64_t acc;
    int nbits;
} bitpacker;

static inline void bp_put(bitpacker *p, uint32_t v, int width)
{
    p->acc |= (uint64_t)v << p->nbits;
    p->nbits += width;
    while (p->nbits >= 8) {
        p->out->data[p->out->len++] = (uint8_t)p->acc;
        p->acc >>= 8;
        p->nbits -= 8;
    }
}

static inline uint32_t value_at(const void *v, int wide, size_t i)
{
    return wide ? ((const uint32_t *)v)[i] : ((const uint8_t *)v)[i];
}

/* values[from, to) bit-packed in groups of 8 (the last group padded with zeros). */
static void hybrid_packed(wbuf *out, const void *values, int wide, size_t from, size_t to, int width)
{
    const size_t groups = (to - from + 7) / 8;
    wbuf_varint(out, (uint64_t)groups << 1 | 1);
    if (!wbuf_reserve(out, groups * (size_t)width + 8))
        return;
    bitpacker p = {out, 0, 0};
    for (size_t i = from; i < to; i++)
        bp_put(&p, value_at(values, wide, i), width);
    for (size_t i = to; i < from + groups * 8; i++)
        bp_put(&p, 0, width);
}

static void hybrid_run(wbuf *out, uint32_t v, size_t count, int width)
{
    wbuf_varint(out, (uint64_t)count << 1);
    for (int b = 0; b < (width + 7) / 8; b++)
        wbuf_byte(out, (uint8_t)(v >> (8 * b)));
}

/* The hybrid encoding of values[0, n) (uint8 or, wide, uint32): runs of 8
 * or more equal values as RLE runs, the rest bit-packed.  A literal stretch
 * must be whole groups of 8, so a run first lends it the values it lacks. */
static void hybrid(wbuf *out, const void *values, int wide, size_t n, int width)
{
    size_t i = 0, lit = 0;
    while (i < n) {
        const uint32_t v = value_at(values, wide, i);
        size_t j = i + 1;
        while (j < n && value_at(values, wide, j) == v)
            j++;
        const size_t run = j - i;
        if (run >= 8) {
            const size_t lend = (8 - (i - lit) % 8) % 8;
            if (run - lend >= 8) {
                if (i + lend > lit)
                    hybrid_packed(out, values, wide, lit, i + lend, width);
                hybrid_run(out, v, run - lend, width);
                lit = j;
            }
        }
        i = j;
    }
    if (lit < n)
        hybrid_packed(out, values, wide, lit, n, width);
}

static int bit_width(uint32_t max)
{
    int w = 0;
    while (max >> w)
        w++;
    return w;
}

static int bit_width64(uint64_t max)
{
    return max ? 64 - __builtin_clzll(max) : 0;
}

void simdsv__parquet_chunk_free(chunk *c)
{
    for (size_t p = 0; p < c->pages_ready; p++)
        wbuf_free(&c->pages[p].bytes);
    free(c->pages);
    wbuf_free(&c->min);
    wbuf_free(&c->max);
    wbuf_free(&c->plain);
    wbuf_free(&c->dict_plain);
    free(c->levels);
    free(c->starts);
    free(c->indexes);
    free(c->slots);
    free(c->dict_fixed);
    free(c->dict_starts);
}

void simdsv__parquet_scratch_free(page_scratch *s)
{
    wbuf_free(&s->body);
    wbuf_free(&s->packed);
    simdsv__codec_state_free(s->codec_state);
}

static inline uint64_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t load64(const uint8_t *s)
{
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

static inline uint64_t load32(const uint8_t *s)
{
    uint32_t w;
    memcpy(&w, s, 4);
    return w;
}

/* The tail is read with fixed-size (overlapping) loads: a memcpy of n < 8
 * bytes is a libc call per value, and most dictionary strings are short. */
static uint64_t hash_bytes(const uint8_t *s, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;
    if (n >= 8) {
        const uint8_t *end = s + n - 8;
        for (; s < end; s += 8) {
            h = (h ^ load64(s)) * 0x100000001b3ULL;
            h ^= h >> 29;
        }
        w = load64(end);
    } else if (n >= 4) {
        w = load32(s) | load32(s + n - 4) << 32;
    } else {
        w = n ? (uint64_t)s[0] | (uint64_t)s[n / 2] << 8 | (uint64_t)s[n - 1] << 16 : 0;
    }
    return hash64(h ^ w);
}

/* A hash slot: the entry + 1 in the low half (0: empty), the hash's high
 * half above it, compared before the entry itself is read (a cache miss
 * into the entries that a colliding slot then costs nothing). */
static inline uint64_t slot_of(uint64_t h, size_t e)
{
    return (h >> 32) << 32 | (uint64_t)(e + 1);
}

static inline bool slot_tag_is(uint64_t slot, uint64_t h)
{
    return slot >> 32 == h >> 32;
}

/* Doubles the hash table and re-inserts every entry. */
static bool rehash(chunk *c, bool strings)
{
    const size_t cap = c->slots_cap ? c->slots_cap * 2 : 4096;
    uint64_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t e = 0; e < c->dict_count; e++) {
        uint64_t h;
        if (strings) {
            const size_t at = c->dict_starts[e] + 4;
            h = hash_bytes(c->dict_plain.data + at, c->dict_starts[e + 1] - at);
        } else {
            h = hash64(c->dict_fixed[e]);
        }
        size_t s = (size_t)h & (cap - 1);
        while (slots[s])
            s = (s + 1) & (cap - 1);
        slots[s] = slot_of(h, e);
    }
    free(c->slots);
    c->slots = slots;
    c->slots_cap = cap;
    return true;
}

/* The dictionary index of a fixed-width value, added when new; -1 when the
 * dictionary would pass DICT_LIMIT bytes (or memory runs out). */
static int64_t dict_fixed(chunk *c, uint64_t v, size_t width)
{
    if (2 * (c->dict_count + 1) > c->slots_cap && !rehash(c, false))
        return -1;
    const uint64_t h = hash64(v);
    size_t s = (size_t)h & (c->slots_cap - 1);
    for (; c->slots[s]; s = (s + 1) & (c->slots_cap - 1)) {
        const size_t e = (uint32_t)c->slots[s] - 1;
        if (slot_tag_is(c->slots[s], h) && c->dict_fixed[e] == v)
            return (int64_t)e;
    }
    if ((c->dict_count + 1) * width > DICT_LIMIT ||
        !simdsv__grow_array((void **)&c->dict_fixed, &c->dict_fixed_cap, c->dict_count + 1, sizeof *c->dict_fixed))
        return -1;
    c->dict_fixed[c->dict_count] = v;
    c->slots[s] = slot_of(h, c->dict_count++);
    return (int64_t)c->dict_count - 1;
}

/* Statistics state while gathering. */
typedef struct minmax {
    bool any;
    int64_t imin, imax;
    double dmin, dmax;
    const uint8_t *smin, *smax;
    size_t nmin, nmax;
} minmax;

static int bytes_cmp(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    const int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : (na > nb) - (na < nb);
}

static void minmax_string(minmax *mm, const uint8_t *str, size_t len)
{
    if (!mm->any || bytes_cmp(str, len, mm->smin, mm->nmin) < 0) {
        mm->smin = str;
        mm->nmin = len;
    }
    if (!mm->any || bytes_cmp(str, len, mm->smax, mm->nmax) > 0) {
        mm->smax = str;
        mm->nmax = len;
    }
    mm->any = true;
}

/* The dictionary index of a string, added when new (and only then counted
 * in the statistics: every value is some entry, so the entries' minimum and
 * maximum are the values'); -1 as dict_fixed. */
static int64_t dict_string(chunk *c, const uint8_t *str, size_t n, minmax *mm)
{
    if (2 * (c->dict_count + 1) > c->slots_cap && !rehash(c, true))
        return -1;
    const uint64_t h = hash_bytes(str, n);
    size_t s = (size_t)h & (c->slots_cap - 1);
    for (; c->slots[s]; s = (s + 1) & (c->slots_cap - 1)) {
        if (!slot_tag_is(c->slots[s], h))
            continue;
        const size_t e = (uint32_t)c->slots[s] - 1, at = c->dict_starts[e] + 4;
        if (c->dict_starts[e + 1] - at == n && memcmp(c->dict_plain.data + at, str, n) == 0)
            return (int64_t)e;
    }
    if (c->dict_plain.len + 4 + n > DICT_LIMIT ||
        !simdsv__grow_array((void **)&c->dict_starts, &c->dict_starts_cap, c->dict_count + 2, sizeof *c->dict_starts))
        return -1;
    wbuf_u32(&c->dict_plain, (uint32_t)n);
    wbuf_put(&c->dict_plain, str, n);
    if (c->dict_plain.failed)
        return -1;
    minmax_string(mm, str, n);
    c->dict_starts[c->dict_count + 1] = c->dict_plain.len;
    c->slots[s] = slot_of(h, c->dict_count++);
    return (int64_t)c->dict_count - 1;
}

/* The dictionary gives up early on a column that is mostly distinct (the
 * indexes would cost as much as the values, and hashing them all until
 * DICT_LIMIT is work for nothing): checked once DICT_PROBE values are in. */
#define DICT_PROBE 32768

/* Fixed-width values plain[from, to) (width 4: int32 days, else int64 /
 * double bits) into the statistics and the dictionary. */
static bool fixed_values(chunk *c, wtype type, size_t from, size_t to, bool dict, minmax *mm)
{
    const uint8_t *p = c->plain.data;
    const size_t width = type == W_DATE32 ? 4 : 8;
    for (size_t v = from; v < to; v++) {
        uint64_t bits;
        if (width == 4) {
            int32_t d;
            memcpy(&d, p + 4 * v, 4);
            bits = (uint64_t)(int64_t)d;
        } else {
            memcpy(&bits, p + 8 * v, 8);
        }
        if (type == W_DOUBLE) {
            double x;
            memcpy(&x, &bits, 8);
            if (!isnan(x)) {
                if (!mm->any || x < mm->dmin || (x == 0 && signbit(x)))
                    mm->dmin = x;
                if (!mm->any || x > mm->dmax || (x == 0 && !signbit(x)))
                    mm->dmax = x;
                mm->any = true;
            }
        } else {
            const int64_t x = (int64_t)bits;
            if (!mm->any || x < mm->imin)
                mm->imin = x;
            if (!mm->any || x > mm->imax)
                mm->imax = x;
            mm->any = true;
        }
        if (dict) {
            const int64_t idx = dict_fixed(c, width == 4 ? (uint32_t)bits : bits, width);
            if (idx < 0 || (v == DICT_PROBE && c->dict_count > DICT_PROBE / 2))
                dict = false;
            else
                c->indexes[v] = (uint32_t)idx;
        }
    }
    return dict;
}

/* The PLAIN values of the strings before row i of slice k, written when
 * the dictionary gives up: while it lasted, only their indexes were kept.
 * Their statistics are already in (from the dictionary's entries). */
static bool plain_strings_before(chunk *c, const wcolumn *col, size_t index, const wslice *slices, size_t k_end,
                                 size_t i_end)
{
    size_t nv = 0, r = 0;
    for (size_t k = 0; k <= k_end; k++) {
        const struct ArrowArray *a = slices[k].batch->children[index];
        const int64_t base = a->offset + slices[k].start;
        const size_t n = k == k_end ? i_end : (size_t)slices[k].rows;
        for (size_t i = 0; i < n; i++) {
            if (!c->levels[r + i])
                continue;
            size_t len;
            const uint8_t *str = wstring(a, col->type, base + (int64_t)i, &len);
            c->starts[nv++] = c->plain.len;
            wbuf_u32(&c->plain, (uint32_t)len);
            wbuf_put(&c->plain, str, len);
        }
        r += (size_t)slices[k].rows;
    }
    return !c->plain.failed;
}

/* The rows of the slices into levels, plain (bools one byte each), the
 * string starts, the dictionary and the statistics.  Strings are copied
 * into plain only once the dictionary gives up (most chunks keep it). */
static bool gather(chunk *c, const wcolumn *col, size_t index, const wslice *slices, size_t nslices, int64_t rows,
                   bool use_dict, minmax *mm, size_t *nvalues)
{
    if (!simdsv__grow_array((void **)&c->levels, &c->levels_cap, (size_t)rows + 1, 1))
        return false;
    size_t nv = 0, r = 0;
    bool dict = use_dict;
    const bool strings = wtype_string(col->type);
    const size_t width = col->type == W_DATE32 ? 4 : col->type == W_BOOL ? 1 : 8;
    for (size_t k = 0; k < nslices; k++) {
        const struct ArrowArray *a = slices[k].batch->children[index];
        const int64_t base = a->offset + slices[k].start;
        const size_t n = (size_t)slices[k].rows;
        uint8_t *levels = c->levels + r;
        r += n;
        if (col->type == W_NULL) {
            memset(levels, 0, n);
            continue;
        }
        const uint8_t *bits = a->buffers[0];
        const bool all_valid = a->null_count == 0 || !bits;
        if (all_valid) {
            memset(levels, 1, n);
        } else {
            for (size_t i = 0; i < n; i++)
                levels[i] = (bits[(size_t)(base + (int64_t)i) >> 3] >> ((base + (int64_t)i) & 7)) & 1;
        }
        if (dict && !simdsv__grow_array((void **)&c->indexes, &c->indexes_cap, nv + n, sizeof *c->indexes))
            return false;
        const uint8_t *values = a->buffers[1];
        const size_t first = nv;
        if (col->type == W_BOOL) {
            if (!wbuf_reserve(&c->plain, n))
                return false;
            for (size_t i = 0; i < n; i++) {
                if (!levels[i])
                    continue;
                const int64_t at = base + (int64_t)i;
                const uint8_t b = (values[at >> 3] >> (at & 7)) & 1;
                c->plain.data[c->plain.len++] = b;
                if (!mm->any)
                    mm->imin = mm->imax = b;
                mm->imin &= b;
                mm->imax |= b;
                mm->any = true;
                nv++;
            }
            continue;
        }
        if (!strings) {
            if (!wbuf_reserve(&c->plain, n * width))
                return false;
            const uint8_t *src = values + width * (size_t)base;
            if (all_valid) {
                memcpy(c->plain.data + c->plain.len, src, n * width);
                c->plain.len += n * width;
                nv += n;
            } else {
                for (size_t i = 0; i < n; i++) {
                    if (levels[i]) {
                        memcpy(c->plain.data + c->plain.len, src + width * i, width);
                        c->plain.len += width;
                        nv++;
                    }
                }
            }
            dict = fixed_values(c, col->type, first, nv, dict, mm);
            continue;
        }
        if (!simdsv__grow_array((void **)&c->starts, &c->starts_cap, nv + n + 1, sizeof *c->starts))
            return false;
        for (size_t i = 0; i < n; i++) {
            if (!levels[i])
                continue;
            size_t len;
            const uint8_t *str = wstring(a, col->type, base + (int64_t)i, &len);
            if (len > UINT32_MAX)
                return false;
            if (dict) {
                const int64_t idx = dict_string(c, str, len, mm);
                if (idx >= 0 && !(nv == DICT_PROBE && c->dict_count > DICT_PROBE / 2)) {
                    c->indexes[nv++] = (uint32_t)idx;
                    continue;
                }
                dict = false;
                if (!plain_strings_before(c, col, index, slices, k, i))
                    return false;
            }
            c->starts[nv] = c->plain.len;
            wbuf_u32(&c->plain, (uint32_t)len);
            wbuf_put(&c->plain, str, len);
            if (c->plain.failed)
                return false;
            minmax_string(mm, str, len);
            nv++;
        }
    }
    if (strings && !(dict && nv > 0)) /* PLAIN (no values at all is written PLAIN too) */
        c->starts[nv] = c->plain.len;
    c->dictionary = dict && nv > 0;
    *nvalues = nv;
    return !c->plain.failed;
}

static void stats_bytes(chunk *c, const wcolumn *col, const minmax *mm)
{
    c->has_minmax = mm->any;
    if (!mm->any)
        return;
    switch (col->type) {
    case W_BOOL:
        wbuf_byte(&c->min, (uint8_t)mm->imin);
        wbuf_byte(&c->max, (uint8_t)mm->imax);
        break;
    case W_DATE32:
        wbuf_u32(&c->min, (uint32_t)mm->imin);
        wbuf_u32(&c->max, (uint32_t)mm->imax);
        break;
    case W_INT64:
    case W_TIMESTAMP:
        wbuf_u64(&c->min, (uint64_t)mm->imin);
        wbuf_u64(&c->max, (uint64_t)mm->imax);
        break;
    case W_DOUBLE: {
        const double lo = mm->dmin == 0 ? -0.0 : mm->dmin, hi = mm->dmax == 0 ? 0.0 : mm->dmax;
        wbuf_put(&c->min, &lo, 8);
        wbuf_put(&c->max, &hi, 8);
        break;
    }
    case W_UTF8:
    case W_LARGE_UTF8:
    case W_UTF8_VIEW:
        if (mm->nmin > STAT_MAX_BYTES || mm->nmax > STAT_MAX_BYTES) {
            c->has_minmax = false;
            break;
        }
        wbuf_put(&c->min, mm->smin, mm->nmin);
        wbuf_put(&c->max, mm->smax, mm->nmax);
        break;
    case W_NULL:
        c->has_minmax = false;
        break;
    }
}

/* Compresses s->body and writes header + body into pg->bytes. */
static bool emit_page(page *pg, page_scratch *s, const simdsv_write_options *opt, int type, int32_t nvalues,
                      int encoding)
{
    const uint8_t *body = s->body.data;
    size_t size = s->body.len;
    if (opt->codec != SIMDSV_CODEC_NONE) {
        s->packed.len = 0;
        const size_t bound = simdsv__codec_bound(opt->codec, s->body.len);
        if (!wbuf_reserve(&s->packed, bound))
            return false;
        size = simdsv__codec_compress(opt->codec, opt->level, &s->codec_state, s->body.data, s->body.len,
                                      s->packed.data, bound);
        if (size == 0 && s->body.len)
            return false;
        body = s->packed.data;
    }
    if (s->body.len > INT32_MAX || size > INT32_MAX)
        return false;
    pg->bytes.len = 0;
    thrift t = {&pg->bytes, {0}, 0};
    thrift_begin(&t);
    thrift_i32(&t, 1, type);
    thrift_i32(&t, 2, (int32_t)s->body.len);
    thrift_i32(&t, 3, (int32_t)size);
    if (type == PAGE_DATA) {
        thrift_struct(&t, 5);
        thrift_i32(&t, 1, nvalues);
        thrift_i32(&t, 2, encoding);
        thrift_i32(&t, 3, ENC_RLE);
        thrift_i32(&t, 4, ENC_RLE);
        thrift_end(&t);
    } else {
        thrift_struct(&t, 7);
        thrift_i32(&t, 1, nvalues);
        thrift_i32(&t, 2, ENC_PLAIN);
        thrift_end(&t);
    }
    thrift_end(&t);
    pg->uncompressed = (int64_t)(pg->bytes.len + s->body.len);
    wbuf_put(&pg->bytes, body, size);
    return !pg->bytes.failed;
}

/* 32 values at `width` bits each (0 to 64), LSB first: 4 * width bytes. */
static void pack32(wbuf *out, const uint64_t *v, int width)
{
    if (!width || !wbuf_reserve(out, 4 * (size_t)width))
        return;
    uint8_t *o = out->data + out->len;
    uint64_t acc = 0;
    int nbits = 0; /* bits in acc, < 64 */
    for (int i = 0; i < 32; i++) {
        acc |= v[i] << nbits;
        if (nbits + width >= 64) {
            memcpy(o, &acc, 8);
            o += 8;
            /* The bits of v[i] that did not fit (none when they all did). */
            acc = nbits ? v[i] >> (64 - nbits) : 0;
            nbits += width - 64;
        } else {
            nbits += width;
        }
    }
    memcpy(o, &acc, (size_t)nbits / 8); /* 32 * width bits: whole bytes */
    out->len += 4 * (size_t)width;
}

static inline uint64_t zigzag(uint64_t x)
{
    return x << 1 ^ (uint64_t)-(int64_t)(x >> 63);
}

/* DELTA_BINARY_PACKED of n int64 values (PLAIN bytes): a header (values per
 * block 128, miniblocks per block 4, the count, the first value), then per
 * block of 128 deltas their minimum and the 4 miniblocks' bit widths, and
 * each miniblock's deltas less that minimum at its width (32 values; the
 * last one padded with zeros; the miniblocks the last block does not need
 * have width 0 and no bytes).  Deltas wrap around, as the specification
 * has it, so every int64 sequence encodes. */
static void delta_packed(wbuf *out, const uint8_t *plain, size_t n)
{
    wbuf_varint(out, 128);
    wbuf_varint(out, 4);
    wbuf_varint(out, n);
    uint64_t prev = n ? load64(plain) : 0;
    wbuf_varint(out, zigzag(prev));
    uint64_t d[128];
    for (size_t i = 1; i < n; i += 128) {
        const size_t m = n - i < 128 ? n - i : 128;
        int64_t min = INT64_MAX;
        for (size_t k = 0; k < m; k++) {
            const uint64_t x = load64(plain + 8 * (i + k));
            d[k] = x - prev;
            prev = x;
            if ((int64_t)d[k] < min)
                min = (int64_t)d[k];
        }
        for (size_t k = 0; k < 128; k++)
            d[k] = k < m ? d[k] - (uint64_t)min : 0;
        wbuf_varint(out, zigzag((uint64_t)min));
        int widths[4];
        for (size_t b = 0; b < 4; b++) {
            uint64_t any = 0;
            for (size_t k = 32 * b; k < 32 * b + 32; k++)
                any |= d[k];
            widths[b] = bit_width64(any);
            wbuf_byte(out, 32 * b < m ? (uint8_t)widths[b] : 0);
        }
        for (size_t b = 0; b < 4 && 32 * b < m; b++)
            pack32(out, d + 32 * b, widths[b]);
    }
}

/* Booleans: PLAIN is one bit per value, LSB first. */
static void pack_bools(wbuf *out, const uint8_t *v, size_t n)
{
    if (!wbuf_reserve(out, n / 8 + 1))
        return;
    bitpacker p = {out, 0, 0};
    for (size_t i = 0; i < n; i++)
        bp_put(&p, v[i], 1);
    if (p.nbits)
        out->data[out->len++] = (uint8_t)p.acc;
}

/* The next page of the plan (its buffers initialised on first use), or
 * NULL when out of memory. */
static page *add_page(chunk *c)
{
    if (!simdsv__grow_array((void **)&c->pages, &c->pages_cap, c->npages + 1, sizeof *c->pages))
        return NULL;
    if (c->npages == c->pages_ready)
        memset(&c->pages[c->pages_ready++], 0, sizeof *c->pages);
    page *pg = &c->pages[c->npages++];
    pg->ok = false;
    pg->dictionary = false;
    return pg;
}

void simdsv__parquet_gather_chunk(chunk *c, const wcolumn *col, size_t index, const wslice *slices, size_t nslices,
                                  int64_t rows, const simdsv_write_options *opt)
{
    c->plain.len = c->dict_plain.len = c->min.len = c->max.len = 0;
    c->dict_count = 0;
    c->npages = 0;
    c->index_width = 0;
    c->status = SIMDSV_ERR_NOMEM;
    if (c->slots)
        memset(c->slots, 0, c->slots_cap * sizeof *c->slots);
    const bool strings = wtype_string(col->type);
    const bool use_dict = opt->dictionary && col->type != W_BOOL && col->type != W_NULL;
    if (strings && use_dict) {
        if (!simdsv__grow_array((void **)&c->dict_starts, &c->dict_starts_cap, 2, sizeof *c->dict_starts))
            return;
        c->dict_starts[0] = 0;
    }
    minmax mm;
    memset(&mm, 0, sizeof mm);
    size_t nvalues = 0;
    if (!gather(c, col, index, slices, nslices, rows, use_dict, &mm, &nvalues))
        return;
    c->null_count = rows - (int64_t)nvalues;
    c->delta = !c->dictionary && (col->type == W_INT64 || col->type == W_TIMESTAMP);
    stats_bytes(c, col, &mm);
    const size_t width = col->type == W_DATE32 ? 4 : 8;
    if (c->dictionary) {
        if (!strings) {
            for (size_t e = 0; e < c->dict_count; e++)
                wbuf_put(&c->dict_plain, &c->dict_fixed[e], width);
            if (c->dict_plain.failed)
                return;
        }
        page *pg = add_page(c);
        if (!pg)
            return;
        pg->dictionary = true;
        c->index_width = bit_width((uint32_t)(c->dict_count - 1));
    }
    /* Pages of about PAGE_BYTES of values (dictionary pages: of index bits):
     * a page ends with the value that reaches the budget.  Without nulls,
     * rows are values and the end is found without a walk over the rows. */
    const size_t budget = c->dictionary ? PAGE_BYTES * 8 : PAGE_BYTES;
    const bool plain_strings = strings && !c->dictionary;
    const size_t per = c->dictionary ? (size_t)c->index_width + 1 : col->type == W_BOOL ? 1 : width;
    size_t r = 0, v = 0;
    do {
        size_t r_end = r, v_end = v;
        if (c->null_count == 0) {
            const size_t last = (size_t)rows - r < PAGE_MAX_ROWS ? (size_t)rows : r + PAGE_MAX_ROWS;
            if (plain_strings) {
                size_t lo = r + 1, hi = last; /* the first end whose bytes reach the budget, else last */
                while (lo < hi) {
                    const size_t mid = lo + (hi - lo) / 2;
                    if (c->starts[mid] - c->starts[r] >= budget)
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                r_end = lo;
            } else {
                r_end = last - r < (budget + per - 1) / per ? last : r + (budget + per - 1) / per;
            }
            v_end = r_end;
        } else {
            for (size_t cost = 0; r_end < (size_t)rows && r_end - r < PAGE_MAX_ROWS && cost < budget;) {
                if (c->levels[r_end++]) {
                    cost += plain_strings ? c->starts[v_end + 1] - c->starts[v_end] : per;
                    v_end++;
                }
            }
        }
        page *pg = add_page(c);
        if (!pg)
            return;
        pg->r = r;
        pg->r_end = r_end;
        pg->v = v;
        pg->v_end = v_end;
        r = r_end;
        v = v_end;
    } while (r < (size_t)rows);
    c->status = SIMDSV_OK;
}

void simdsv__parquet_encode_page(chunk *c, const wcolumn *col, size_t p, const simdsv_write_options *opt,
                                 page_scratch *s)
{
    page *pg = &c->pages[p];
    s->body.len = 0;
    if (pg->dictionary) {
        wbuf_put(&s->body, c->dict_plain.data, c->dict_plain.len);
        pg->ok = !s->body.failed && emit_page(pg, s, opt, PAGE_DICTIONARY, (int32_t)c->dict_count, 0);
        return;
    }
    const bool strings = wtype_string(col->type);
    const size_t width = col->type == W_DATE32 ? 4 : 8;
    const size_t r = pg->r, r_end = pg->r_end, v = pg->v, v_end = pg->v_end;
    /* Definition levels: 4-byte length, then the hybrid of width 1. */
    wbuf_u32(&s->body, 0);
    if (v_end - v == r_end - r)
        hybrid_run(&s->body, 1, r_end - r, 1);
    else
        hybrid(&s->body, c->levels + r, 0, r_end - r, 1);
    if (s->body.failed)
        return;
    const uint32_t levels_len = (uint32_t)(s->body.len - 4);
    memcpy(s->body.data, &levels_len, 4);
    if (c->dictionary) {
        wbuf_byte(&s->body, (uint8_t)c->index_width);
        if (c->index_width)
            hybrid(&s->body, c->indexes + v, 1, v_end - v, c->index_width);
        else if (v_end > v)
            hybrid_run(&s->body, 0, v_end - v, 0);
    } else if (col->type == W_BOOL) {
        pack_bools(&s->body, c->plain.data + v, v_end - v);
    } else if (strings) {
        wbuf_put(&s->body, c->plain.data + c->starts[v], c->starts[v_end] - c->starts[v]);
    } else if (c->delta) {
        delta_packed(&s->body, c->plain.data + v * 8, v_end - v);
    } else if (col->type != W_NULL) {
        wbuf_put(&s->body, c->plain.data + v * width, (v_end - v) * width);
    }
    const int encoding = c->dictionary ? ENC_RLE_DICTIONARY : c->delta ? ENC_DELTA_BINARY_PACKED : ENC_PLAIN;
    pg->ok = !s->body.failed && emit_page(pg, s, opt, PAGE_DATA, (int32_t)(r_end - r), encoding);
}
