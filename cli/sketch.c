/* sketch.c — KLL, HyperLogLog and bounded distinct counts (see sketch.h). */
#define _DEFAULT_SOURCE /* madvise */
#include "sketch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ----------------------------------------------------------------- hashes */

uint64_t sketch_hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return sketch_mix64(h);
}

/* ------------------------------------------------------------ HyperLogLog */

void hll_init(hll *h)
{
    memset(h->reg, 0, sizeof h->reg);
}

void hll_merge(hll *dst, const hll *src)
{
    for (size_t i = 0; i < HLL_REGISTERS; i++)
        if (src->reg[i] > dst->reg[i])
            dst->reg[i] = src->reg[i];
}

/* Ertl, "New cardinality estimation algorithms for HyperLogLog sketches"
 * (2017), algorithm 6: corrections for registers still 0 (sigma) and
 * saturated (tau) that keep the estimate unbiased from 0 to 2^64 without the
 * empirical tables of HyperLogLog++. */
static double hll_sigma(double x)
{
    if (x == 1)
        return INFINITY;
    double y = 1, z = x, previous;
    do {
        x *= x;
        previous = z;
        z += x * y;
        y += y;
    } while (z != previous);
    return z;
}

static double hll_tau(double x)
{
    if (x == 0 || x == 1)
        return 0;
    double y = 1, z = 1 - x, previous;
    do {
        x = sqrt(x);
        previous = z;
        y *= 0.5;
        z -= (1 - x) * (1 - x) * y;
    } while (z != previous);
    return z / 3;
}

double hll_estimate(const hll *h)
{
    enum { Q = 64 - HLL_PRECISION }; /* register values are 0..Q+1 */
    uint32_t counts[Q + 2] = {0};
    for (size_t i = 0; i < HLL_REGISTERS; i++)
        counts[h->reg[i]]++;
    const double m = HLL_REGISTERS;
    double z = m * hll_tau(1 - counts[Q + 1] / m);
    for (int k = Q; k >= 1; k--)
        z = 0.5 * (z + counts[k]);
    z += m * hll_sigma(counts[0] / m);
    return m * m / (2 * log(2)) / z;
}

/* ------------------------------------------------- distinct (exact, then HLL) */

void distinct_init(distinct *d, size_t bound)
{
    memset(d, 0, sizeof *d);
    d->bound = bound;
}

void distinct_free(distinct *d)
{
    free(d->slots);
    free(d->approx);
    d->slots = NULL;
    d->approx = NULL;
}

static bool set_grow(distinct *d)
{
    const size_t cap = d->cap ? d->cap * 2 : 64;
    uint64_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < d->cap; i++) {
        const uint64_t key = d->slots[i];
        if (!key)
            continue;
        size_t j = (size_t)key & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = key;
    }
    free(d->slots);
    d->slots = slots;
    d->cap = cap;
    return true;
}

/* The set's keys go to a HyperLogLog, which takes every later key. */
static bool to_approx(distinct *d)
{
    d->approx = malloc(sizeof *d->approx);
    if (!d->approx)
        return false;
    hll_init(d->approx);
    if (d->has_zero)
        hll_add(d->approx, 0);
    for (size_t i = 0; i < d->cap; i++)
        if (d->slots[i])
            hll_add(d->approx, d->slots[i]);
    free(d->slots);
    d->slots = NULL;
    d->cap = d->count = 0;
    return true;
}

bool distinct_add_slow(distinct *d, uint64_t key)
{
    if (!key) {
        d->count += !d->has_zero;
        d->has_zero = true;
        return true;
    }
    if (d->cap) {
        for (size_t j = (size_t)key & (d->cap - 1);; j = (j + 1) & (d->cap - 1)) {
            if (d->slots[j] == key)
                return true;
            if (!d->slots[j])
                break;
        }
    }
    if (d->bound && d->count + 1 > d->bound) {
        if (!to_approx(d))
            return false;
        hll_add(d->approx, key);
        return true;
    }
    if ((d->count + 1) * 4 > d->cap * 3 && !set_grow(d))
        return false;
    size_t j = (size_t)key & (d->cap - 1);
    while (d->slots[j])
        j = (j + 1) & (d->cap - 1);
    d->slots[j] = key;
    d->count++;
    return true;
}

bool distinct_merge(distinct *dst, const distinct *src)
{
    if (src->approx) {
        if (!dst->approx && !to_approx(dst))
            return false;
        hll_merge(dst->approx, src->approx);
        return true;
    }
    if (src->has_zero && !distinct_add(dst, 0))
        return false;
    /* Room for both first: keys inserted in the order of src's slots into a
     * smaller table would pile up in long probe runs. */
    const size_t both = dst->count + src->count;
    while ((!dst->bound || both <= dst->bound) && (both + 1) * 4 > dst->cap * 3)
        if (!set_grow(dst))
            return false;
    for (size_t i = 0; i < src->cap; i++)
        if (src->slots[i] && !distinct_add(dst, src->slots[i]))
            return false;
    return true;
}

double distinct_count(const distinct *d, bool *exact)
{
    *exact = !d->approx;
    return d->approx ? hll_estimate(d->approx) : (double)d->count;
}

/* ----------------------------------------------------------- value counts */

/* A fresh table of cap slots (zeroed: every slot empty).  A big one is
 * read and written at random, one lookup per value, so it asks for huge
 * pages: one TLB entry then covers 2 MiB of it instead of 4 KiB. */
static value_count *new_slots(size_t cap)
{
    value_count *slots = calloc(cap, sizeof *slots);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t size = cap * sizeof *slots;
    if (slots && size >= ((size_t)8 << 20)) {
        const uintptr_t page = 4096;
        const uintptr_t from = (uintptr_t)slots & ~(page - 1);
        const uintptr_t to = ((uintptr_t)slots + size + page - 1) & ~(page - 1);
        (void)madvise((void *)from, to - from, MADV_HUGEPAGE); /* a hint: failure changes nothing */
    }
#endif
    return slots;
}

static bool counts_grow(value_counts *t)
{
    const size_t cap = t->cap ? t->cap * 2 : 64;
    value_count *slots = new_slots(cap);
    if (!slots)
        return false;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].count)
            continue;
        size_t j = (size_t)t->slots[i].hash & (cap - 1);
        while (slots[j].count)
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return true;
}

bool value_counts_reserve(value_counts *t, size_t count)
{
    while ((count + 1) * 4 > t->cap * 3)
        if (!counts_grow(t))
            return false;
    return true;
}

/* Counts one value whose hash is h; the table has room for it. */
static bool counts_put(value_counts *t, const char *s, size_t n, uint64_t h)
{
    size_t j = (size_t)h & (t->cap - 1);
    for (;; j = (j + 1) & (t->cap - 1)) {
        value_count *e = &t->slots[j];
        if (!e->count)
            break;
        if (e->hash == h && e->len == n && (n == 0 || memcmp(value_count_data(t, e), s, n) == 0)) {
            e->count++;
            return true;
        }
    }
    value_count *e = &t->slots[j];
    if (n > VALUE_INLINE) {
        if (t->bytes_cap - t->bytes_len < n) {
            size_t cap = t->bytes_cap ? t->bytes_cap : 4096;
            while (cap - t->bytes_len < n)
                cap *= 2;
            char *bytes = realloc(t->bytes, cap);
            if (!bytes)
                return false;
            t->bytes = bytes;
            t->bytes_cap = cap;
        }
        memcpy(t->bytes + t->bytes_len, s, n);
        e->at.offset = t->bytes_len;
        t->bytes_len += n;
    } else if (n) {
        memcpy(e->at.bytes, s, n);
    }
    e->hash = h;
    e->len = n;
    e->count = 1;
    t->count++;
    return true;
}

bool value_counts_add(value_counts *t, const char *s, size_t n)
{
    if ((t->count + 1) * 4 > t->cap * 3 && !counts_grow(t))
        return false;
    return counts_put(t, s, n, sketch_hash_bytes(s, n));
}

#if defined(__GNUC__)
#define PREFETCH_WRITE(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH_WRITE(p) ((void)(p))
#endif

/* Up to VALUE_RUN values: room is made for all of them first (so that no
 * slot moves while lookups are in flight), and no more (a column of a few
 * values keeps a small table). */
enum { VALUE_RUN = 256 };

static bool add_run(value_counts *t, value_ref *v, size_t n)
{
    if (!value_counts_reserve(t, t->count + n))
        return false;
    for (size_t i = 0; i < n; i++)
        v[i].hash = sketch_hash_bytes(v[i].data, v[i].size);
    /* Each slot is fetched AHEAD lookups before it is needed (both of its
     * cache lines: a slot may straddle two), so that that many misses to
     * memory overlap instead of following one another. */
    enum { AHEAD = 16 };
    const size_t mask = t->cap - 1;
    for (size_t i = 0; i < n && i < AHEAD; i++) {
        const value_count *e = &t->slots[(size_t)v[i].hash & mask];
        PREFETCH_WRITE(e);
        PREFETCH_WRITE((const char *)e + sizeof *e - 1);
    }
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD < n) {
            const value_count *e = &t->slots[(size_t)v[i + AHEAD].hash & mask];
            PREFETCH_WRITE(e);
            PREFETCH_WRITE((const char *)e + sizeof *e - 1);
        }
        if (!counts_put(t, v[i].data, v[i].size, v[i].hash))
            return false;
    }
    return true;
}

bool value_counts_add_many(value_counts *t, value_ref *v, size_t n)
{
    for (size_t i = 0; i < n; i += VALUE_RUN)
        if (!add_run(t, v + i, n - i < VALUE_RUN ? n - i : VALUE_RUN))
            return false;
    return true;
}

void value_counts_free(value_counts *t)
{
    free(t->slots);
    free(t->bytes);
    memset(t, 0, sizeof *t);
}

/* ---------------------------------------------------------------- sorting */

/* The sort itself compares with <: it never sees a NaN (sketch_sort_doubles
 * moves them to the end first; the KLL sketch counts them apart). */
static inline bool before(double a, double b)
{
    return a < b;
}

static void insertion_sort(double *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        const double x = a[i];
        size_t j = i;
        for (; j > 0 && before(x, a[j - 1]); j--)
            a[j] = a[j - 1];
        a[j] = x;
    }
}

static void heap_sift(double *a, size_t n, size_t i)
{
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            return;
        if (child + 1 < n && before(a[child], a[child + 1]))
            child++;
        if (!before(a[i], a[child]))
            return;
        const double t = a[i];
        a[i] = a[child];
        a[child] = t;
        i = child;
    }
}

/* Quicksort (median of three) that falls back to heapsort past a depth of
 * 2 log2 n, so that no input makes it quadratic. */
static void sort_range(double *a, size_t n, int depth)
{
    while (n > 24) {
        if (depth-- == 0) {
            for (size_t i = n / 2; i-- > 0;)
                heap_sift(a, n, i);
            for (size_t end = n - 1; end > 0; end--) {
                const double t = a[0];
                a[0] = a[end];
                a[end] = t;
                heap_sift(a, end, 0);
            }
            return;
        }
        double lo = a[0], mid = a[n / 2], hi = a[n - 1], t;
        if (before(mid, lo)) {
            t = lo, lo = mid, mid = t;
        }
        if (before(hi, mid)) {
            t = mid, mid = hi, hi = t;
            if (before(mid, lo)) {
                t = lo, lo = mid, mid = t;
            }
        }
        const double pivot = mid;
        size_t i = 0, j = n - 1;
        for (;;) {
            while (before(a[i], pivot))
                i++;
            while (before(pivot, a[j]))
                j--;
            if (i >= j)
                break;
            t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse on the smaller side */
        const size_t left = j + 1;
        if (left < n - left) {
            sort_range(a, left, depth);
            a += left;
            n -= left;
        } else {
            sort_range(a + left, n - left, depth);
            n = left;
        }
    }
    insertion_sort(a, n);
}

/* Doubles as unsigned keys in the same order (negative numbers: every bit
 * flipped; others: the sign bit set). */
static inline uint64_t order_key(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

static inline double from_order_key(uint64_t k)
{
    const uint64_t u = k >> 63 ? k & ~((uint64_t)1 << 63) : ~k;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* The sizes of the KLL levels (tens to a few hundred items): a radix sort
 * on the keys, a byte at a time from the lowest, with no branch to
 * mispredict; a byte that every key shares (the sign and exponent of
 * numbers of one magnitude, often) costs one histogram and no pass. */
#define RADIX_MIN 64
#define RADIX_MAX 4096

static void radix_sort(double *a, size_t n)
{
    uint64_t keys[RADIX_MAX], tmp[RADIX_MAX];
    uint32_t counts[8][256];
    memset(counts, 0, sizeof counts);
    for (size_t i = 0; i < n; i++) {
        const uint64_t k = keys[i] = order_key(a[i]);
        for (int b = 0; b < 8; b++)
            counts[b][(k >> (8 * b)) & 0xFF]++;
    }
    uint64_t *from = keys, *to = tmp;
    for (int b = 0; b < 8; b++) {
        uint32_t *c = counts[b];
        if (c[(from[0] >> (8 * b)) & 0xFF] == n)
            continue; /* every key has this byte */
        uint32_t sum = 0;
        for (int v = 0; v < 256; v++) {
            const uint32_t here = c[v];
            c[v] = sum;
            sum += here;
        }
        for (size_t i = 0; i < n; i++)
            to[c[(from[i] >> (8 * b)) & 0xFF]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = from_order_key(from[i]);
}

static void sort_numbers(double *a, size_t n)
{
    if (n >= RADIX_MIN && n <= RADIX_MAX) {
        radix_sort(a, n);
        return;
    }
    int depth = 0;
    for (size_t m = n; m > 1; m >>= 1)
        depth += 2;
    sort_range(a, n, depth);
}

void sketch_sort_doubles(double *a, size_t n)
{
    /* NaN sorts after every number (as in SQL engines) */
    size_t numbers = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(a[i])) {
            const double t = a[numbers];
            a[numbers++] = a[i];
            a[i] = t;
        }
    sort_numbers(a, numbers);
}

/* -------------------------------------------------------------------- KLL */

static uint64_t next_random(kll *s)
{
    /* xorshift64*: fast, and good enough for coin flips and skips */
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return s->rng * 0x2545F4914F6CDD1Dull;
}

static void repick(kll *s);

void kll_init(kll *s, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->levels = 1;
    s->rng = sketch_mix64(seed) | 1; /* xorshift needs a non-zero state */
    s->next = 1;
}

void kll_expect(kll *s, uint64_t items)
{
    if (s->n || s->shift)
        return;
    /* blocks of at most items / 2^KLL_EXPECT_LOG: sampling moves a rank by
     * sqrt(items * block) / 2 at one standard deviation, 0.1% of items */
    while (((uint64_t)2 << s->shift) <= items >> KLL_EXPECT_LOG)
        s->shift++;
    if (s->shift)
        repick(s);
}

void kll_free(kll *s)
{
    for (unsigned h = 0; h < KLL_MAX_LEVELS; h++)
        free(s->level[h]);
    memset(s, 0, sizeof *s);
}

/* The capacity of level h: k (2/3)^depth, depth counted from the top. */
static uint32_t capacity(const kll *s, unsigned h)
{
    if (s->levels == 1 && !s->shift)
        return KLL_EXACT_ITEMS; /* a small column's quartiles stay exact */
    static const uint32_t by_depth[KLL_MAX_LEVELS] = {512, 342, 228, 152, 102, 68, 45, 30};
    const uint32_t c = by_depth[s->levels - 1 - h];
    return c > KLL_MIN_CAP ? c : KLL_MIN_CAP;
}

static bool push(kll *s, unsigned h, double x)
{
    if (s->len[h] == s->cap[h]) {
        const uint32_t cap = s->cap[h] ? s->cap[h] * 2 : 64;
        double *grown = realloc(s->level[h], cap * sizeof *grown);
        if (!grown) {
            s->failed = true;
            return false;
        }
        s->level[h] = grown;
        s->cap[h] = cap;
    }
    s->level[h][s->len[h]++] = x;
    return true;
}

/* Level h sorted and halved into level h + 1: every other item from a random
 * offset, so each kept item stands for itself and its neighbour and the rank
 * of any value moves by at most one item's weight, up or down at random.  An
 * odd item out stays (the smallest). */
static bool compact(kll *s, unsigned h)
{
    double *a = s->level[h];
    const uint32_t n = s->len[h];
    sort_numbers(a, n);
    const uint32_t from = n & 1;
    const uint32_t offset = (uint32_t)(next_random(s) >> 63);
    for (uint32_t i = from; i + 1 < n; i += 2)
        if (!push(s, h + 1, a[i + offset]))
            return false;
    s->len[h] = from;
    return true;
}

/* The item that stands for the current block's weight so far: the one
 * picked when its position has passed, else the last one seen (the block
 * weighs less than 2^shift, a share of n far below the rank error, so which
 * of its items stands for it hardly matters). */
static double block_item(const kll *s)
{
    return s->next > s->seen ? s->last : s->item;
}

/* The position of the current block's pick, uniform over the whole block,
 * given that the weight so far (s->seen) is represented by s->item. */
static void repick(kll *s)
{
    const uint64_t block = (uint64_t)1 << s->shift;
    if (s->seen && next_random(s) % block < s->seen)
        s->next = 0; /* the item so far stays the pick: no later position matches */
    else
        s->next = s->seen + 1 + next_random(s) % (block - s->seen);
}

/* A weight w of item x through the sampler (an odd item out of a level
 * being dropped, or another sketch's lighter item or partial block): it
 * joins the current block, split at block ends, and replaces the block's
 * item with probability w / (the block's weight so far), so the item is
 * chosen in proportion to weight as for single items. */
static bool sample_weighted(kll *s, double x, uint64_t w)
{
    const uint64_t block = (uint64_t)1 << s->shift;
    if (s->seen)
        s->item = block_item(s);
    while (w) {
        const uint64_t part = w < block - s->seen ? w : block - s->seen;
        s->seen += part;
        if (next_random(s) % s->seen < part)
            s->item = x;
        w -= part;
        if (s->seen == block) {
            if (!push(s, 0, s->item))
                return false;
            s->seen = 0;
        }
    }
    s->last = s->item; /* stands for the block until a later single item does */
    repick(s);
    return true;
}

/* The bottom level compacted into the one above and dropped: every level's
 * weight is now 2^(shift + h) with shift one more, and new items go through
 * a sampler whose blocks are twice as large.  The current block goes on: its
 * pick stays where it is or moves to the new half, at random. */
static bool raise_sampler(kll *s)
{
    if (s->levels == 1)
        s->levels = 2; /* an empty level above to compact into */
    if (!compact(s, 0))
        return false;
    double *spare = s->level[0];
    const uint32_t spare_cap = s->cap[0];
    const bool odd = s->len[0] == 1;
    const double odd_item = odd ? spare[0] : 0;
    for (unsigned h = 0; h + 1 < s->levels; h++) {
        s->level[h] = s->level[h + 1];
        s->len[h] = s->len[h + 1];
        s->cap[h] = s->cap[h + 1];
    }
    s->levels--;
    s->level[s->levels] = spare;
    s->len[s->levels] = 0;
    s->cap[s->levels] = spare_cap;
    const bool sampling = s->shift > 0;
    if (sampling && s->next && next_random(s) >> 63)
        s->next += (uint64_t)1 << s->shift; /* 0 (already picked) stays: it was in the first half */
    s->shift++;
    if (!sampling)
        repick(s); /* the first block */
    return !odd || sample_weighted(s, odd_item, (uint64_t)1 << (s->shift - 1));
}

/* Compacts every level at or over its capacity, bottom up; a full top level
 * adds a level, or when there are KLL_MAX_LEVELS, first drops the bottom one
 * into the sampler. */
static bool settle(kll *s)
{
    for (unsigned h = 0; h < s->levels; h++) {
        if (s->len[h] < capacity(s, h))
            continue;
        if (h + 1 == s->levels) {
            if (s->levels == KLL_MAX_LEVELS) {
                if (!raise_sampler(s))
                    return false;
                h--;
            }
            s->levels++;
        }
        if (!compact(s, h))
            return false;
    }
    return true;
}

void kll_push_item(kll *s, double x)
{
    if (push(s, 0, x) && s->len[0] >= capacity(s, 0) && !settle(s))
        s->failed = true;
}

void kll_sample_event(kll *s, double x)
{
    /* s->seen counts x already */
    if (s->seen == s->next) {
        s->item = x;
        s->next = 0; /* picked */
    }
    if (s->seen == (uint64_t)1 << s->shift) {
        s->seen = 0;
        repick(s);
        if (!push(s, 0, s->item) || (s->len[0] >= capacity(s, 0) && !settle(s)))
            s->failed = true;
    }
}

bool kll_merge(kll *dst, const kll *src)
{
    if (src->failed)
        dst->failed = true;
    dst->nans += src->nans;
    if (!src->n || dst->failed)
        return !dst->failed;
    /* Both at the larger shift: dst's bottom levels drop into its sampler. */
    while (dst->shift < src->shift)
        if (!raise_sampler(dst))
            return false;
    /* src's levels as heavy as dst's bottom one or heavier join dst's levels
     * of the same weight; its lighter ones, and its partial block, go
     * through dst's sampler. */
    for (unsigned h = 0; h < src->levels; h++) {
        const unsigned weight_log = src->shift + h;
        for (uint32_t i = 0; i < src->len[h]; i++) {
            if (weight_log >= dst->shift ? !push(dst, weight_log - dst->shift, src->level[h][i])
                                         : !sample_weighted(dst, src->level[h][i], (uint64_t)1 << weight_log))
                return false;
        }
        if (weight_log >= dst->shift && weight_log - dst->shift >= dst->levels)
            dst->levels = weight_log - dst->shift + 1;
    }
    if (src->seen && !sample_weighted(dst, block_item(src), src->seen))
        return false;
    dst->n += src->n;
    return settle(dst);
}

typedef struct weighted {
    double value;
    uint64_t weight;
} weighted;

static int by_value(const void *pa, const void *pb)
{
    const weighted *a = pa, *b = pb;
    return before(a->value, b->value) ? -1 : before(b->value, a->value) ? 1 : 0;
}

bool kll_quantiles(const kll *s, const double *q, size_t nq, double *out)
{
    size_t n = s->seen ? 1 : 0;
    for (unsigned h = 0; h < s->levels; h++)
        n += s->len[h];
    weighted *items = malloc((n ? n : 1) * sizeof *items);
    if (!items)
        return false;
    size_t k = 0;
    for (unsigned h = 0; h < s->levels; h++)
        for (uint32_t i = 0; i < s->len[h]; i++)
            items[k++] = (weighted){s->level[h][i], (uint64_t)1 << (s->shift + h)};
    if (s->seen)
        items[k++] = (weighted){block_item(s), s->seen};
    qsort(items, n, sizeof *items, by_value);
    const uint64_t total = s->n + s->nans;
    for (size_t j = 0; j < nq; j++) {
        /* the item covering 0-based position floor(q (total - 1)) of the sorted
         * input, NaNs last */
        const uint64_t target = (uint64_t)(q[j] * (double)(total - 1));
        if (target >= s->n) {
            out[j] = NAN;
            continue;
        }
        uint64_t below = 0;
        size_t i = 0;
        while (i + 1 < n && below + items[i].weight <= target)
            below += items[i++].weight;
        out[j] = items[i].value;
    }
    free(items);
    return true;
}
