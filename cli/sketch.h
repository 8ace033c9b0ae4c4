/*
 * sketch.h — mergeable summaries of a column's values in bounded memory, for
 * `simdsv stats`: a KLL quantile sketch, HyperLogLog, and a distinct count
 * that is exact up to a bound and becomes a HyperLogLog past it.  Each
 * summary is filled by one thread and merged with the others' at the end;
 * the results do not depend on how the values were split between them
 * beyond the sketches' stated errors.  Nothing here allocates more than its
 * bound says, and every allocation failure is reported (false), never hidden.
 */
#ifndef SIMDSV_CLI_SKETCH_H
#define SIMDSV_CLI_SKETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ----------------------------------------------------------------- hashes */

/* A bijection of 64-bit words (the MurmurHash3 finalizer): distinct inputs
 * give distinct outputs, so a set of mixed integers is exact. */
static inline uint64_t sketch_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}
/* A 64-bit hash of bytes (8 at a time), mixed so that every bit of the
 * result depends on every input byte. */
uint64_t sketch_hash_bytes(const char *s, size_t n);
/* The key of a double for distinct counting: -0 and 0 are one value, every
 * NaN is one value; a bijection otherwise. */
static inline uint64_t sketch_double_key(double x)
{
    uint64_t bits = 0x7FF8000000000000ull; /* NaN */
    if (x == 0)
        x = 0; /* -0 == 0: one value */
    if (x == x)
        memcpy(&bits, &x, sizeof bits);
    return sketch_mix64(bits);
}

/* ------------------------------------------------------------ HyperLogLog */

/* 2^14 one-byte registers: relative standard error 1.04 / sqrt(2^14) = 0.81%
 * over the whole range (Ertl's estimator, no bias tables needed). */
#define HLL_PRECISION 14
#define HLL_REGISTERS (1u << HLL_PRECISION)
#define HLL_STD_ERROR 0.0081

typedef struct hll {
    uint8_t reg[HLL_REGISTERS];
} hll;

void hll_init(hll *h);
/* Leading zero bits of x != 0, in portable C without a branch to mispredict
 * (each step halves the width left to search). */
static inline unsigned sketch_clz64(uint64_t x)
{
    unsigned n = 0, t;
    t = (x >> 32) == 0, n += t << 5, x <<= t << 5;
    t = (x >> 48) == 0, n += t << 4, x <<= t << 4;
    t = (x >> 56) == 0, n += t << 3, x <<= t << 3;
    t = (x >> 60) == 0, n += t << 2, x <<= t << 2;
    t = (x >> 62) == 0, n += t << 1, x <<= t << 1;
    return n + ((x >> 63) == 0);
}

static inline void hll_add(hll *h, uint64_t hash)
{
    const uint32_t index = (uint32_t)(hash >> (64 - HLL_PRECISION));
    /* rank of the first 1 bit among the other 50 bits (51 when all zero) */
    const uint64_t rest = hash << HLL_PRECISION | (uint64_t)1 << (HLL_PRECISION - 1);
    const uint8_t rank = (uint8_t)(sketch_clz64(rest) + 1);
    if (rank > h->reg[index])
        h->reg[index] = rank;
}
void hll_merge(hll *dst, const hll *src);
double hll_estimate(const hll *h);

/* ------------------------------------------------- distinct (exact, then HLL) */

/* Up to DISTINCT_EXACT_MAX distinct keys are kept in a hash set (exact: keys
 * of numbers are bijections of their values; keys of strings are 64-bit
 * hashes, so two strings could collide with a chance below 2^-38 at this
 * size); one more and the keys move to a HyperLogLog for good.  A bound of
 * 0 means no bound (--exact). */
#define DISTINCT_EXACT_MAX 8192

typedef struct distinct {
    uint64_t *slots; /* open addressing, 0 = empty (the key 0 is kept in has_zero) */
    size_t cap, count;
    bool has_zero;
    size_t bound; /* DISTINCT_EXACT_MAX, or 0 = never approximate */
    hll *approx;  /* non-NULL once past the bound */
} distinct;

void distinct_init(distinct *d, size_t bound);
bool distinct_add_slow(distinct *d, uint64_t key);
static inline bool distinct_add(distinct *d, uint64_t key)
{
    if (d->approx) { /* past the bound: every key is one register update */
        hll_add(d->approx, key);
        return true;
    }
    return distinct_add_slow(d, key);
}
bool distinct_merge(distinct *dst, const distinct *src);
/* The count, and whether it is exact. */
double distinct_count(const distinct *d, bool *exact);
void distinct_free(distinct *d);

/* ----------------------------------------------------------- value counts */

/* Every distinct byte string with its count (frequency; stats --exact):
 * open addressing with linear probing.  A table of millions of values is
 * far larger than the caches, so one lookup costs a miss to memory; each slot
 * therefore holds a value of up to VALUE_INLINE bytes itself (numbers, dates,
 * timestamps, codes), and only longer ones live in an arena, and
 * value_counts_add_many looks up a run of values with each slot fetched
 * some lookups ahead.  Memory grows with the distinct values only. */
#define VALUE_INLINE 24

typedef struct value_count {
    uint64_t count; /* 0: an empty slot */
    uint64_t hash;
    size_t len;
    union {
        char bytes[VALUE_INLINE]; /* len <= VALUE_INLINE */
        size_t offset;            /* in the arena, for a longer value */
    } at;
} value_count;

typedef struct value_counts {
    value_count *slots; /* cap slots (a power of 2), count used */
    size_t cap, count;
    char *bytes;
    size_t bytes_len, bytes_cap;
} value_counts;

/* A value to count, and its hash (value_counts_add_many fills it in). */
typedef struct value_ref {
    const char *data;
    size_t size;
    uint64_t hash;
} value_ref;

bool value_counts_add(value_counts *t, const char *s, size_t n);
/* Counts n values (v[i].hash is set here). */
bool value_counts_add_many(value_counts *t, value_ref *v, size_t n);
/* The bytes of a used slot. */
static inline const char *value_count_data(const value_counts *t, const value_count *e)
{
    return e->len <= VALUE_INLINE ? e->at.bytes : t->bytes + e->at.offset;
}
/* Room for count values in all (before adding another table's values in
 * the order of its slots, which would otherwise pile up in long runs). */
bool value_counts_reserve(value_counts *t, size_t count);
void value_counts_free(value_counts *t);

/* -------------------------------------------------------------------- KLL */

/* KLL (Karnin, Lang, Liberty 2016): compactors of capacity k (2/3)^depth,
 * at least KLL_MIN_CAP, each halving its sorted items by keeping every
 * other one from a random offset.  Once there are KLL_MAX_LEVELS of them
 * the bottom one gives way to a sampler that keeps one item at random per
 * block of 2^shift (the paper's own way to bound the lower levels), so an
 * item costs a counter step once the input is large.  With k = 512 the rank
 * of a returned quantile is within 1% of n of the asked rank with 99%
 * confidence (tests/test_sketch.c checks it on known distributions); memory
 * is about 1500 doubles.  The random choices come from a generator seeded by
 * the caller: the same input in the same order gives the same answer. */
#define KLL_K 512
/* Items kept whole before the first compaction: up to this many, the
 * quantiles are exact (kll_exact). */
#define KLL_EXACT_ITEMS 4096
#define KLL_MIN_CAP 8
#define KLL_MAX_LEVELS 8
#define KLL_RANK_ERROR 0.01

typedef struct kll {
    double *level[KLL_MAX_LEVELS]; /* level h holds items of weight 2^(shift + h) */
    uint32_t len[KLL_MAX_LEVELS], cap[KLL_MAX_LEVELS];
    unsigned levels; /* levels in use (at least 1) */
    unsigned shift;  /* log2 of the sampler's block (0: every item goes to level 0) */
    uint64_t n;      /* items added (merged sketches included), NaNs apart */
    uint64_t nans;
    uint64_t rng;
    /* the sampler's current block: its weight so far, the position picked
     * at random for it (1-based; 0 once the pick is made), the item picked,
     * and the last item seen */
    uint64_t seen, next;
    double item, last;
    bool failed; /* an allocation failed: kll_ok says so */
} kll;

void kll_init(kll *s, uint64_t seed);
/* Before the first item: the sketch will see about `items` items, so it
 * may start with the sampler that it would reach anyway (the compactions
 * on the way there are most of its work), with blocks small enough that
 * the rank error stays within KLL_RANK_ERROR. */
#define KLL_EXPECT_LOG 18
void kll_expect(kll *s, uint64_t items);
/* Out of line: an item for level 0 (no sampler yet), and a sampler step
 * that replaces the block's item or completes the block. */
void kll_push_item(kll *s, double x);
void kll_sample_event(kll *s, double x);
static inline void kll_add(kll *s, double x)
{
    if (x != x) { /* NaN: counted apart, it sorts after every number */
        s->nans++;
        return;
    }
    s->n++;
    if (!s->shift) {
        kll_push_item(s, x);
        return;
    }
    const uint64_t seen = ++s->seen;
    s->last = x;
    if (seen == s->next || seen == (uint64_t)1 << s->shift)
        kll_sample_event(s, x);
}
bool kll_merge(kll *dst, const kll *src);
/* True while every item is still held at weight 1 (no compaction, no
 * sampling): the quantiles are then exact. */
static inline bool kll_exact(const kll *s)
{
    return s->shift == 0 && s->len[0] == s->n;
}
/* False when an allocation failed while adding (the sketch then lacks items). */
static inline bool kll_ok(const kll *s)
{
    return !s->failed;
}
/* For each q[i] (0 <= q <= 1): the item whose rank is closest above
 * floor(q (n - 1)) (0-based), the position of that quantile among the
 * sorted values (NaNs after every number).  At least one item added.  False
 * when out of memory. */
bool kll_quantiles(const kll *s, const double *q, size_t nq, double *out);
void kll_free(kll *s);

/* Sorts doubles ascending, NaN after everything (shared with the exact
 * quantiles of --exact). */
void sketch_sort_doubles(double *a, size_t n);

#endif
