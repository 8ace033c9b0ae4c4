/* stats_acc.c — one column's statistics over Arrow batches (see stats.h). */
#include "stats.h"
#include "typed.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void text_stats_init(text_stats *t, bool exact)
{
    memset(t, 0, sizeof *t);
    distinct_init(&t->distinct, exact ? 0 : DISTINCT_EXACT_MAX);
    t->first_line = UINT64_MAX;
}

static void text_stats_free(text_stats *t)
{
    free(t->min.data);
    free(t->max.data);
    distinct_free(&t->distinct);
    if (t->exact)
        value_counts_free(t->exact);
    free(t->exact);
}

void stats_init(column_stats *cs, simdsv_type type, bool exact, uint64_t seed)
{
    memset(cs, 0, sizeof *cs);
    cs->type = type;
    cs->exact = exact;
    cs->imin = INT64_MAX;
    cs->imax = INT64_MIN;
    kll_init(&cs->quantiles, seed);
    distinct_init(&cs->distinct, exact ? 0 : DISTINCT_EXACT_MAX);
    text_stats_init(&cs->text, exact);
    text_stats_init(&cs->misfits, exact);
}

void stats_free(column_stats *cs)
{
    kll_free(&cs->quantiles);
    distinct_free(&cs->distinct);
    free(cs->ivals);
    free(cs->dvals);
    text_stats_free(&cs->text);
    text_stats_free(&cs->misfits);
}

static bool put_copy(strbuf *sb, const char *s, size_t n)
{
    sb->len = 0;
    return sb_put(sb, s, n) || n == 0;
}

static int bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    const size_t n = na < nb ? na : nb;
    const int c = n ? memcmp(a, b, n) : 0;
    return c ? c : (na > nb) - (na < nb);
}

/* NaN after every number, as in the sort (sketch.c). */
static inline bool before(double a, double b)
{
    return a < b || (isnan(b) && !isnan(a));
}

static bool text_add(text_stats *t, const char *s, size_t n, bool exact)
{
    if (!t->any || n < t->min_len)
        t->min_len = n;
    if (!t->any || n > t->max_len)
        t->max_len = n;
    if ((!t->any || bytes_cmp(s, n, t->min.data, t->min.len) < 0) && !put_copy(&t->min, s, n))
        return false;
    if ((!t->any || bytes_cmp(s, n, t->max.data, t->max.len) > 0) && !put_copy(&t->max, s, n))
        return false;
    const uint64_t key = sketch_hash_bytes(s, n);
    if (!t->count || key != t->last_key) {
        t->last_key = key;
        if (exact) {
            if (!t->exact && !(t->exact = calloc(1, sizeof *t->exact)))
                return false;
            if (!value_counts_add(t->exact, s, n))
                return false;
        } else if (!distinct_add(&t->distinct, key)) {
            return false;
        }
    }
    t->any = true;
    t->count++;
    return true;
}

static bool keep_value(column_stats *cs, int64_t iv, double dv)
{
    if (cs->nvals == cs->cap_vals) {
        const size_t cap = cs->cap_vals ? cs->cap_vals * 2 : 1024;
        if (cs->type == SIMDSV_TYPE_FLOAT64) {
            double *p = realloc(cs->dvals, cap * sizeof *p);
            if (!p)
                return false;
            cs->dvals = p;
        } else {
            int64_t *p = realloc(cs->ivals, cap * sizeof *p);
            if (!p)
                return false;
            cs->ivals = p;
        }
        cs->cap_vals = cap;
    }
    if (cs->type == SIMDSV_TYPE_FLOAT64)
        cs->dvals[cs->nvals++] = dv;
    else
        cs->ivals[cs->nvals++] = iv;
    return true;
}

static inline bool valid_at(const uint8_t *validity, int64_t i)
{
    return !validity || (validity[i / 8] >> (i % 8)) & 1;
}

/* Chan et al.: a batch's count, mean and sum of squared deviations folded
 * into the running ones; exact in exact arithmetic and stable in floating
 * point (no sum of squares minus square of sums). */
static void fold_moments(column_stats *cs, uint64_t n_before, uint64_t nb, double mean_b, double m2_b)
{
    if (!nb)
        return;
    const uint64_t n = n_before + nb;
    const double delta = mean_b - cs->mean;
    cs->mean += delta * ((double)nb / (double)n);
    cs->m2 += m2_b + delta * delta * ((double)n_before * (double)nb / (double)n);
}

/* What every value of a batch updates, in a local copy for the batch's loop:
 * fields of *cs could not stay in registers across the sketches' calls
 * (the compiler must assume those write to *cs). */
typedef struct value_state {
    int64_t imin, imax;
    double dmin, dmax;
    uint64_t sum_lo;
    int64_t sum_hi;
    uint64_t last_key;
    bool has_last, any, exact, failed;
} value_state;

static value_state state_of(const column_stats *cs)
{
    return (value_state){cs->imin, cs->imax, cs->dmin, cs->dmax, cs->sum_lo, cs->sum_hi,
                         cs->last_key, cs->has_last, cs->count > 0, cs->exact, false};
}

static void state_back(column_stats *cs, const value_state *st)
{
    cs->imin = st->imin;
    cs->imax = st->imax;
    cs->dmin = st->dmin;
    cs->dmax = st->dmax;
    cs->sum_lo = st->sum_lo;
    cs->sum_hi = st->sum_hi;
    cs->last_key = st->last_key;
    cs->has_last = st->has_last;
    cs->failed |= st->failed;
}

static inline void add_key(column_stats *cs, value_state *st, uint64_t key)
{
    if (!st->has_last || key != st->last_key) {
        st->last_key = key;
        st->has_last = true;
        if (!distinct_add(&cs->distinct, key))
            st->failed = true;
    }
}

static inline void add_integer(column_stats *cs, value_state *st, int64_t v)
{
    st->imin = v < st->imin ? v : st->imin;
    st->imax = v > st->imax ? v : st->imax;
    const uint64_t lo = st->sum_lo + (uint64_t)v;
    st->sum_hi += (v < 0 ? -1 : 0) + (lo < st->sum_lo);
    st->sum_lo = lo;
    if (!st->exact)
        kll_add(&cs->quantiles, (double)v);
    else if (!keep_value(cs, v, 0))
        st->failed = true;
    add_key(cs, st, sketch_mix64((uint64_t)v));
}

static inline void add_float(column_stats *cs, value_state *st, double v)
{
    if (!st->any) {
        st->dmin = st->dmax = v;
        st->any = true;
    }
    if (before(v, st->dmin))
        st->dmin = v;
    if (before(st->dmax, v))
        st->dmax = v;
    if (!st->exact)
        kll_add(&cs->quantiles, v);
    else if (!keep_value(cs, 0, v))
        st->failed = true;
    add_key(cs, st, sketch_double_key(v));
}

void stats_add_array(column_stats *cs, const struct ArrowArray *a)
{
    const int64_t n = a->length, off = a->offset;
    const uint8_t *validity = a->null_count ? a->buffers[0] : NULL;
    cs->nulls += (uint64_t)a->null_count;
    const uint64_t n_before = cs->count;
    switch (cs->type) {
    case SIMDSV_TYPE_INT64:
    case SIMDSV_TYPE_TIMESTAMP:
    case SIMDSV_TYPE_DATE: {
        const int64_t *v64 = a->buffers[1];
        const int32_t *v32 = a->buffers[1];
        const bool date = cs->type == SIMDSV_TYPE_DATE;
        uint64_t nb = 0;
        double bsum = 0;
        value_state st = state_of(cs);
        for (int64_t i = off; i < off + n; i++) {
            if (!valid_at(validity, i))
                continue;
            const int64_t v = date ? v32[i] : v64[i];
            add_integer(cs, &st, v);
            bsum += (double)v;
            nb++;
        }
        state_back(cs, &st);
        cs->count += nb;
        if (cs->type == SIMDSV_TYPE_INT64 && nb) {
            const double mean_b = bsum / (double)nb;
            double m2_b = 0;
            for (int64_t i = off; i < off + n; i++)
                if (valid_at(validity, i)) {
                    const double d = (double)v64[i] - mean_b;
                    m2_b += d * d;
                }
            fold_moments(cs, n_before, nb, mean_b, m2_b);
        }
        break;
    }
    case SIMDSV_TYPE_FLOAT64: {
        const double *v = a->buffers[1];
        uint64_t nb = 0;
        double bsum = 0;
        value_state st = state_of(cs);
        for (int64_t i = off; i < off + n; i++) {
            if (!valid_at(validity, i))
                continue;
            add_float(cs, &st, v[i]);
            bsum += v[i];
            nb++;
        }
        state_back(cs, &st);
        cs->count += nb;
        if (nb) {
            /* Neumaier: the batch's sum into the running one, the low bits kept apart */
            const double t = cs->fsum + bsum;
            cs->fsum_comp += fabs(cs->fsum) >= fabs(bsum) ? (cs->fsum - t) + bsum : (bsum - t) + cs->fsum;
            cs->fsum = t;
            /* deviations from the batch's first value first: a column of one
             * value has a deviation of exactly 0 (bsum / nb need not be it) */
            double shift = 0, dsum = 0, m2_b = 0;
            int64_t i = off;
            while (!valid_at(validity, i))
                i++;
            shift = v[i];
            for (; i < off + n; i++)
                if (valid_at(validity, i))
                    dsum += v[i] - shift;
            const double dmean = dsum / (double)nb;
            for (i = off; i < off + n; i++)
                if (valid_at(validity, i)) {
                    const double d = (v[i] - shift) - dmean;
                    m2_b += d * d;
                }
            fold_moments(cs, n_before, nb, shift + dmean, m2_b);
        }
        break;
    }
    case SIMDSV_TYPE_BOOL: {
        const uint8_t *bits = a->buffers[1];
        for (int64_t i = off; i < off + n; i++) {
            if (!valid_at(validity, i))
                continue;
            cs->trues += (bits[i / 8] >> (i % 8)) & 1;
            cs->count++;
        }
        break;
    }
    case SIMDSV_TYPE_STRING: {
        if (cs->views) { /* length, then the bytes inline, or prefix, buffer index and offset */
            const int32_t *views = a->buffers[1];
            for (int64_t i = off; i < off + n; i++) {
                if (!valid_at(validity, i))
                    continue;
                const int32_t *view = views + 4 * i;
                const char *s = view[0] <= 12 ? (const char *)(view + 1)
                                              : (const char *)a->buffers[2 + view[2]] + view[3];
                if (!text_add(&cs->text, s, (size_t)view[0], cs->exact))
                    cs->failed = true;
                cs->count++;
            }
            break;
        }
        /* "u": simdsv_table_stream's batches always have 32-bit offsets (a
         * batch of 2 GiB of text is an error there, not a "U" array) */
        const int32_t *offsets = a->buffers[1];
        const char *bytes = a->buffers[2];
        for (int64_t i = off; i < off + n; i++) {
            if (!valid_at(validity, i))
                continue;
            if (!text_add(&cs->text, bytes + offsets[i], (size_t)(offsets[i + 1] - offsets[i]), cs->exact))
                cs->failed = true;
            cs->count++;
        }
        break;
    }
    case SIMDSV_TYPE_NULL:
        break;
    }
}

void stats_add_misfit(column_stats *cs, const char *value, size_t size, uint64_t line)
{
    text_stats *t = &cs->misfits;
    if (!text_add(t, value, size, cs->exact))
        cs->failed = true;
    if (line < t->first_line) {
        t->first_line = line;
        snprintf(t->first_value, sizeof t->first_value, "%.*s", (int)(size < 60 ? size : 60), value);
    }
}

static bool text_merge(text_stats *dst, const text_stats *src)
{
    if (!src->any)
        return true;
    if (!dst->any || src->min_len < dst->min_len)
        dst->min_len = src->min_len;
    if (!dst->any || src->max_len > dst->max_len)
        dst->max_len = src->max_len;
    if ((!dst->any || bytes_cmp(src->min.data, src->min.len, dst->min.data, dst->min.len) < 0) &&
        !put_copy(&dst->min, src->min.data, src->min.len))
        return false;
    if ((!dst->any || bytes_cmp(src->max.data, src->max.len, dst->max.data, dst->max.len) > 0) &&
        !put_copy(&dst->max, src->max.data, src->max.len))
        return false;
    if (!distinct_merge(&dst->distinct, &src->distinct))
        return false;
    if (src->exact) {
        if (!dst->exact && !(dst->exact = calloc(1, sizeof *dst->exact)))
            return false;
        if (!value_counts_reserve(dst->exact, dst->exact->count + src->exact->count))
            return false;
        for (size_t i = 0; i < src->exact->cap; i++) {
            const value_count *e = &src->exact->slots[i];
            if (e->count && !value_counts_add(dst->exact, value_count_data(src->exact, e), e->len))
                return false;
        }
    }
    if (src->first_line < dst->first_line) {
        dst->first_line = src->first_line;
        memcpy(dst->first_value, src->first_value, sizeof dst->first_value);
    }
    dst->count += src->count;
    dst->any = true;
    return true;
}

void stats_merge(column_stats *dst, const column_stats *src)
{
    if (src->failed)
        dst->failed = true;
    if (src->count) {
        if (!dst->count || src->imin < dst->imin)
            dst->imin = src->imin;
        if (!dst->count || src->imax > dst->imax)
            dst->imax = src->imax;
        if (!dst->count || before(src->dmin, dst->dmin))
            dst->dmin = src->dmin;
        if (!dst->count || before(dst->dmax, src->dmax))
            dst->dmax = src->dmax;
    }
    const uint64_t lo = dst->sum_lo + src->sum_lo;
    dst->sum_hi += src->sum_hi + (lo < dst->sum_lo);
    dst->sum_lo = lo;
    const double t = dst->fsum + src->fsum;
    dst->fsum_comp += (fabs(dst->fsum) >= fabs(src->fsum) ? (dst->fsum - t) + src->fsum : (src->fsum - t) + dst->fsum) +
                      src->fsum_comp;
    dst->fsum = t;
    const double mean = src->mean, m2 = src->m2;
    fold_moments(dst, dst->count, src->count, mean, m2);
    dst->count += src->count;
    dst->nulls += src->nulls;
    dst->trues += src->trues;
    dst->rejected += src->rejected;
    if (!kll_merge(&dst->quantiles, &src->quantiles) || !distinct_merge(&dst->distinct, &src->distinct))
        dst->failed = true;
    for (size_t i = 0; i < src->nvals; i++)
        if (!keep_value(dst, src->ivals ? src->ivals[i] : 0, src->dvals ? src->dvals[i] : 0))
            dst->failed = true;
    if (!text_merge(&dst->text, &src->text) || !text_merge(&dst->misfits, &src->misfits))
        dst->failed = true;
}

/* ---------------------------------------------------------------- results */

static int cmp_int64(const void *pa, const void *pb)
{
    const int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

/* A value of the column's type as text (a KLL item is a double: integers
 * are exact below 2^53). */
static void value_text(char *out, size_t size, const column_stats *cs, double d, int64_t i, bool use_int)
{
    if (!use_int && cs->type != SIMDSV_TYPE_FLOAT64)
        i = (int64_t)d;
    switch (cs->type) {
    case SIMDSV_TYPE_FLOAT64:
        if (isnan(d))
            snprintf(out, size, "NaN");
        else if (isinf(d))
            snprintf(out, size, d > 0 ? "Infinity" : "-Infinity");
        else
            cli_format_double(out, size, d);
        return;
    case SIMDSV_TYPE_DATE:
        cli_format_date(out, size, i);
        return;
    case SIMDSV_TYPE_TIMESTAMP:
        cli_format_timestamp(out, size, i, cs->zoned);
        return;
    default:
        snprintf(out, size, "%" PRId64, i);
        return;
    }
}

/* A computed number (mean, deviation, float sum): every digit, or 7. */
static void number_text(char *out, size_t size, double v, bool full)
{
    if (isnan(v))
        snprintf(out, size, "NaN");
    else if (isinf(v))
        snprintf(out, size, v > 0 ? "Infinity" : "-Infinity");
    else if (full)
        cli_format_double(out, size, v);
    else
        snprintf(out, size, "%.7g", v);
}

/* The 128-bit two's complement sum in decimal. */
static void int128_text(char *out, size_t size, uint64_t lo, int64_t hi)
{
    const bool negative = hi < 0;
    uint64_t h = (uint64_t)hi, l = lo;
    if (negative) { /* magnitude: -(hi:lo) */
        l = ~l + 1;
        h = ~h + (l == 0);
    }
    char digits[48];
    size_t n = 0;
    /* divide (h:l) by 10 repeatedly, 32 bits at a time */
    do {
        uint64_t parts[4] = {h >> 32, h & 0xFFFFFFFFu, l >> 32, l & 0xFFFFFFFFu}, rem = 0;
        for (int k = 0; k < 4; k++) {
            const uint64_t cur = rem << 32 | parts[k];
            parts[k] = cur / 10;
            rem = cur % 10;
        }
        h = parts[0] << 32 | parts[1];
        l = parts[2] << 32 | parts[3];
        digits[n++] = (char)('0' + rem);
    } while (h || l);
    size_t k = 0;
    if (negative && k + 1 < size)
        out[k++] = '-';
    while (n && k + 1 < size)
        out[k++] = digits[--n];
    out[k] = '\0';
}

static void text_cells(const text_stats *t, stats_cells *out)
{
    snprintf(out->count, sizeof out->count, "%" PRIu64, t->count);
    if (!t->any)
        return;
    bool exact = true;
    const double d = t->exact ? (double)t->exact->count : distinct_count(&t->distinct, &exact);
    snprintf(out->distinct, sizeof out->distinct, "%.0f", d);
    out->distinct_exact = exact;
    snprintf(out->min_len, sizeof out->min_len, "%" PRIu64, t->min_len);
    snprintf(out->max_len, sizeof out->max_len, "%" PRIu64, t->max_len);
    snprintf(out->min, sizeof out->min, "%.*s", (int)(t->min.len < sizeof out->min - 1 ? t->min.len : sizeof out->min - 1),
             t->min.len ? t->min.data : "");
    snprintf(out->max, sizeof out->max, "%.*s", (int)(t->max.len < sizeof out->max - 1 ? t->max.len : sizeof out->max - 1),
             t->max.len ? t->max.data : "");
}

bool stats_cells_of(const column_stats *cs, bool full, stats_cells *out)
{
    memset(out, 0, sizeof *out);
    out->distinct_exact = out->quantiles_exact = true;
    const uint64_t misfits = cs->misfits.count;
    /* the misfits were nulls in the batches: they are counted apart */
    snprintf(out->nulls, sizeof out->nulls, "%" PRIu64, cs->nulls - misfits);
    if (cs->type == SIMDSV_TYPE_STRING) {
        text_cells(&cs->text, out);
        return !cs->failed;
    }
    snprintf(out->count, sizeof out->count, "%" PRIu64, cs->count);
    if (!cs->count)
        return !cs->failed;
    out->numeric = cs->type == SIMDSV_TYPE_INT64 || cs->type == SIMDSV_TYPE_FLOAT64;
    if (cs->type == SIMDSV_TYPE_BOOL) {
        snprintf(out->min, sizeof out->min, "%s", cs->trues < cs->count ? "false" : "true");
        snprintf(out->max, sizeof out->max, "%s", cs->trues ? "true" : "false");
        snprintf(out->distinct, sizeof out->distinct, "%d", (cs->trues > 0) + (cs->trues < cs->count));
        number_text(out->mean, sizeof out->mean, (double)cs->trues / (double)cs->count, full); /* share of true */
        return !cs->failed;
    }
    const bool is_float = cs->type == SIMDSV_TYPE_FLOAT64;
    value_text(out->min, sizeof out->min, cs, cs->dmin, cs->imin, true);
    value_text(out->max, sizeof out->max, cs, cs->dmax, cs->imax, true);
    bool exact = true;
    snprintf(out->distinct, sizeof out->distinct, "%.0f", distinct_count(&cs->distinct, &exact));
    out->distinct_exact = exact;
    static const double q[3] = {0.25, 0.5, 0.75};
    char *cells[3] = {out->p25, out->median, out->p75};
    if (cs->exact) {
        /* every value kept: the one at position floor(q (n - 1)) of the sorted values */
        if (is_float)
            sketch_sort_doubles(cs->dvals, cs->nvals);
        else
            qsort(cs->ivals, cs->nvals, sizeof *cs->ivals, cmp_int64);
        for (int k = 0; k < 3; k++) {
            const size_t at = (size_t)(q[k] * (double)(cs->nvals - 1));
            value_text(cells[k], 96, cs, is_float ? cs->dvals[at] : 0, is_float ? 0 : cs->ivals[at], true);
        }
    } else {
        double got[3];
        if (!kll_ok(&cs->quantiles) || !kll_quantiles(&cs->quantiles, q, 3, got))
            return false;
        for (int k = 0; k < 3; k++)
            value_text(cells[k], 96, cs, got[k], 0, false);
        out->quantiles_exact = kll_exact(&cs->quantiles);
    }
    if (cs->type == SIMDSV_TYPE_INT64) {
        int128_text(out->sum, sizeof out->sum, cs->sum_lo, cs->sum_hi);
        const double sum = (double)cs->sum_hi * 0x1p64 + (double)cs->sum_lo;
        number_text(out->mean, sizeof out->mean, sum / (double)cs->count, full);
    } else if (is_float) {
        number_text(out->sum, sizeof out->sum, cs->fsum + cs->fsum_comp, full);
        number_text(out->mean, sizeof out->mean, cs->mean, full);
    }
    if (out->numeric && cs->count > 1) /* the sample standard deviation (n - 1), as SQL's stddev */
        number_text(out->sd, sizeof out->sd, sqrt(cs->m2 / (double)(cs->count - 1)), full);
    return !cs->failed;
}

bool stats_misfit_cells(const column_stats *cs, bool full, stats_cells *out)
{
    (void)full;
    memset(out, 0, sizeof *out);
    out->distinct_exact = out->quantiles_exact = true;
    snprintf(out->nulls, sizeof out->nulls, "0");
    text_cells(&cs->misfits, out);
    return !cs->failed;
}
