/*
 * test_sketch.c — the summaries behind `simdsv stats` (cli/sketch.c) against
 * exact answers on known distributions: KLL quantiles within their stated
 * rank error (KLL_RANK_ERROR of n) for uniform, normal (Box-Muller),
 * heavy-tailed (Pareto), many duplicates, sorted and reversed inputs, fed
 * whole and merged from parts; HyperLogLog within three standard errors
 * (3 x HLL_STD_ERROR) from 10^3 to 10^7 distinct values, merged with
 * overlaps; distinct counts exact up to their bound; the sort.  Every
 * generator has a fixed seed: the results are the same on every run.
 */
#include "check.h"
#include "sketch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static double uniform01(void)
{
    return (double)(rnd() >> 11) * 0x1p-53;
}

static double normal(void)
{
    const double u1 = uniform01() + 0x1p-54, u2 = uniform01();
    return sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* First position of a value >= v (or > v when strictly) in sorted a. */
static size_t lower(const double *a, size_t n, double v, int strictly)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (strictly ? a[mid] <= v : a[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static const double probes[] = {0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1};
#define NPROBES (sizeof probes / sizeof probes[0])

/* The largest distance, as a share of n, between the asked position of each
 * probe and the positions the returned value holds in the sorted input. */
static double worst_rank_error(const kll *s, const double *sorted, size_t n)
{
    double got[NPROBES], worst = 0;
    CHECK(kll_quantiles(s, probes, NPROBES, got));
    for (size_t i = 0; i < NPROBES; i++) {
        const double target = floor(probes[i] * (double)(n - 1));
        const size_t first = lower(sorted, n, got[i], 0), past = lower(sorted, n, got[i], 1);
        CHECK_MSG(past > first, "quantile %g returned %g, which is not in the input", probes[i], got[i]);
        double err = 0;
        if (target < (double)first)
            err = ((double)first - target) / (double)n;
        else if (target >= (double)past)
            err = (target - (double)(past - 1)) / (double)n;
        worst = err > worst ? err : worst;
    }
    return worst;
}

/* One distribution: a whole sketch, and sketches of `parts` slices merged. */
static void check_distribution(const char *name, double *data, size_t n, size_t parts)
{
    h_context("KLL, %s, n = %zu", name, n);
    kll whole;
    kll_init(&whole, 42);
    for (size_t i = 0; i < n; i++)
        kll_add(&whole, data[i]);
    CHECK(kll_ok(&whole));
    CHECK_EQ_U64(whole.n, n);
    kll merged;
    kll_init(&merged, 7);
    for (size_t p = 0; p < parts; p++) {
        kll part;
        kll_init(&part, 100 + p);
        /* uneven slices: the merge meets sketches of different shifts */
        const size_t from = n * p * p / (parts * parts), to = n * (p + 1) * (p + 1) / (parts * parts);
        for (size_t i = from; i < to; i++)
            kll_add(&part, data[i]);
        CHECK(kll_merge(&merged, &part));
        kll_free(&part);
    }
    CHECK_EQ_U64(merged.n, n);
    double *sorted = malloc(n * sizeof *sorted);
    memcpy(sorted, data, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    const double e_whole = worst_rank_error(&whole, sorted, n);
    const double e_merged = worst_rank_error(&merged, sorted, n);
    CHECK_MSG(e_whole <= KLL_RANK_ERROR, "rank error %.5f of n over the bound %.3f", e_whole, KLL_RANK_ERROR);
    CHECK_MSG(e_merged <= KLL_RANK_ERROR, "merged: rank error %.5f of n over the bound %.3f", e_merged,
              KLL_RANK_ERROR);
    printf("%-28s n=%-8zu worst rank error %.5f (whole) %.5f (merged from %zu)\n", name, n, e_whole, e_merged,
           parts);
    free(sorted);
    kll_free(&whole);
    kll_free(&merged);
}

static void test_kll(void)
{
    const size_t n = 1000000;
    double *data = malloc(n * sizeof *data);
    rng_state = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++)
        data[i] = uniform01();
    check_distribution("uniform [0, 1)", data, n, 4);
    for (size_t i = 0; i < n; i++)
        data[i] = 100 + 15 * normal();
    check_distribution("normal (100, 15)", data, n, 7);
    for (size_t i = 0; i < n; i++)
        data[i] = pow(1 - uniform01(), -1 / 1.1); /* Pareto, alpha 1.1: mean defined, variance not */
    check_distribution("Pareto (alpha 1.1)", data, n, 3);
    for (size_t i = 0; i < n; i++)
        data[i] = (double)(rnd() % 10);
    check_distribution("ten values", data, n, 5);
    for (size_t i = 0; i < n; i++)
        data[i] = (double)i;
    check_distribution("ascending", data, n, 2);
    for (size_t i = 0; i < n; i++)
        data[i] = (double)(n - i);
    check_distribution("descending", data, n, 2);
    /* 50 million items: the sampler's blocks grow to thousands */
    const size_t big = 50000000;
    kll s;
    kll_init(&s, 1);
    rng_state = 12345;
    for (size_t i = 0; i < big; i++)
        kll_add(&s, uniform01());
    double med[3];
    CHECK(kll_quantiles(&s, (const double[]){0.25, 0.5, 0.75}, 3, med));
    h_context("KLL, uniform, n = 5e7");
    /* uniform [0, 1): the quantile q is q itself, to within the rank error */
    CHECK_MSG(fabs(med[0] - 0.25) <= KLL_RANK_ERROR && fabs(med[1] - 0.5) <= KLL_RANK_ERROR &&
                  fabs(med[2] - 0.75) <= KLL_RANK_ERROR,
              "quartiles %g %g %g", med[0], med[1], med[2]);
    CHECK_EQ_U64(s.n, big);
    kll_free(&s);
    /* Told how many items to expect, it samples from the start: the same bound. */
    for (size_t i = 0; i < n; i++)
        data[i] = 100 + 15 * normal();
    double *sorted = malloc(n * sizeof *sorted);
    memcpy(sorted, data, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    for (int parts = 1; parts <= 4; parts *= 2) {
        h_context("KLL, normal, n = %zu, expecting it, in %d parts", n, parts);
        kll_init(&s, 11);
        kll part;
        for (int p = 0; p < parts; p++) {
            kll_init(&part, 20 + (uint64_t)p);
            kll_expect(&part, n / (size_t)parts);
            CHECK(part.shift == (parts == 1 ? 1 : 0));
            for (size_t i = n / (size_t)parts * (size_t)p; i < n / (size_t)parts * (size_t)(p + 1); i++)
                kll_add(&part, data[i]);
            CHECK(kll_merge(&s, &part));
            kll_free(&part);
        }
        const double e = worst_rank_error(&s, sorted, n);
        CHECK_MSG(e <= KLL_RANK_ERROR, "rank error %.5f of n", e);
        printf("%-28s n=%-8zu worst rank error %.5f (%d parts, expecting n)\n", "normal, sampled at once", n, e,
               parts);
        kll_free(&s);
    }
    free(sorted);
    /* Up to KLL_EXACT_ITEMS items: no compaction, every quantile is exact. */
    h_context("KLL, %d items", KLL_EXACT_ITEMS - 1);
    kll_init(&s, 3);
    for (int i = KLL_EXACT_ITEMS - 2; i >= 0; i--)
        kll_add(&s, i * 2.0);
    CHECK(kll_exact(&s));
    double q[NPROBES];
    CHECK(kll_quantiles(&s, probes, NPROBES, q));
    for (size_t i = 0; i < NPROBES; i++)
        CHECK_MSG(q[i] == 2 * floor(probes[i] * (KLL_EXACT_ITEMS - 2)), "q %g gave %g", probes[i], q[i]);
    kll_add(&s, 1);
    CHECK(!kll_exact(&s));
    kll_free(&s);
    /* NaNs sort after every number: counted apart, returned for the top. */
    kll_init(&s, 5);
    for (int i = 0; i < 90; i++)
        kll_add(&s, i);
    for (int i = 0; i < 10; i++)
        kll_add(&s, NAN);
    CHECK(kll_quantiles(&s, (const double[]){0, 0.5, 0.89, 0.91, 1}, 5, q));
    CHECK(q[0] == 0 && q[1] == 49 && q[2] == 88 && isnan(q[3]) && isnan(q[4]));
    kll_free(&s);
    /* One item. */
    kll_init(&s, 4);
    kll_add(&s, -3.5);
    CHECK(kll_quantiles(&s, probes, NPROBES, q));
    CHECK(q[0] == -3.5 && q[5] == -3.5 && q[NPROBES - 1] == -3.5);
    kll_free(&s);
    free(data);
}

static void check_hll_count(const char *name, double got, double want)
{
    const double err = fabs(got - want) / want;
    CHECK_MSG(err <= 3 * HLL_STD_ERROR, "%s: estimate %.0f for %.0f (error %.4f)", name, got, want, err);
    printf("%-28s %10.0f for %10.0f (error %.4f)\n", name, got, want, err);
}

static void test_hll(void)
{
    h_context("HyperLogLog");
    for (unsigned k = 0; k < 64; k++) {
        CHECK_EQ_INT(sketch_clz64((uint64_t)1 << k), 63 - k);
        CHECK_EQ_INT(sketch_clz64(((uint64_t)1 << k) | 1), 63 - k);
        CHECK_EQ_INT(sketch_clz64(UINT64_MAX >> k), k);
    }
    static hll h, other;
    hll_init(&h);
    CHECK(hll_estimate(&h) == 0);
    const uint64_t sizes[] = {100, 1000, 20000, 100000, 1000000, 10000000};
    uint64_t added = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (; added < sizes[k]; added++)
            hll_add(&h, sketch_mix64(added * 0x9E3779B97F4A7C15ull + 17));
        char name[64];
        snprintf(name, sizeof name, "HLL %llu distinct", (unsigned long long)sizes[k]);
        check_hll_count(name, hll_estimate(&h), (double)sizes[k]);
    }
    /* Adding the same keys again changes nothing. */
    const double before = hll_estimate(&h);
    for (uint64_t i = 0; i < 100000; i++)
        hll_add(&h, sketch_mix64(i * 0x9E3779B97F4A7C15ull + 17));
    CHECK(hll_estimate(&h) == before);
    /* Two halves overlapping by a third merge to the union. */
    hll_init(&h);
    hll_init(&other);
    for (uint64_t i = 0; i < 600000; i++)
        hll_add(&h, sketch_hash_bytes((const char *)&i, sizeof i));
    for (uint64_t i = 400000; i < 1000000; i++)
        hll_add(&other, sketch_hash_bytes((const char *)&i, sizeof i));
    hll_merge(&h, &other);
    check_hll_count("HLL merged halves", hll_estimate(&h), 1000000);
}

static void test_distinct(void)
{
    h_context("distinct");
    distinct d;
    bool exact;
    /* Many duplicates under the bound: exact. */
    distinct_init(&d, DISTINCT_EXACT_MAX);
    for (uint64_t i = 0; i < 1000000; i++)
        CHECK(distinct_add(&d, sketch_mix64(i % 5000 + 1)));
    CHECK(distinct_count(&d, &exact) == 5000 && exact);
    /* The key 0 counts like any other. */
    CHECK(distinct_add(&d, 0) && distinct_add(&d, 0));
    CHECK(distinct_count(&d, &exact) == 5001 && exact);
    /* Exactly at the bound: still exact; one more: approximate. */
    for (uint64_t i = 5000; i < DISTINCT_EXACT_MAX - 1; i++)
        CHECK(distinct_add(&d, sketch_mix64(i + 1)));
    CHECK(distinct_count(&d, &exact) == DISTINCT_EXACT_MAX && exact);
    CHECK(distinct_add(&d, sketch_mix64(DISTINCT_EXACT_MAX + 1)));
    const double approx = distinct_count(&d, &exact);
    CHECK(!exact);
    check_hll_count("distinct past the bound", approx, DISTINCT_EXACT_MAX + 1);
    /* Merging an exact set into an approximate one and back. */
    distinct small;
    distinct_init(&small, DISTINCT_EXACT_MAX);
    for (uint64_t i = 0; i < 300000; i++)
        CHECK(distinct_add(&small, sketch_mix64(i + 1000000)));
    CHECK(distinct_merge(&d, &small));
    check_hll_count("distinct merged", distinct_count(&d, &exact), DISTINCT_EXACT_MAX + 1 + 300000);
    distinct_free(&small);
    distinct_init(&small, DISTINCT_EXACT_MAX);
    CHECK(distinct_add(&small, sketch_mix64(1)) && distinct_merge(&small, &d));
    CHECK(distinct_count(&small, &exact) > 300000 && !exact);
    distinct_free(&small);
    distinct_free(&d);
    /* No bound (--exact): 200000 distinct, exact. */
    distinct_init(&d, 0);
    for (uint64_t i = 0; i < 400000; i++)
        CHECK(distinct_add(&d, sketch_mix64(i % 200000)));
    CHECK(distinct_count(&d, &exact) == 200000 && exact);
    distinct_free(&d);
    /* Keys of doubles: -0 and 0 are one value, every NaN is one. */
    CHECK(sketch_double_key(-0.0) == sketch_double_key(0.0));
    CHECK(sketch_double_key(NAN) == sketch_double_key(-NAN));
    CHECK(sketch_double_key(1.0) != sketch_double_key(-1.0));
    CHECK(sketch_hash_bytes("abc", 3) != sketch_hash_bytes("abd", 3));
    CHECK(sketch_hash_bytes("", 0) != sketch_hash_bytes("\0", 1));
}

static void test_sort(void)
{
    h_context("sort");
    const size_t n = 200000;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    rng_state = 99;
    const int shapes = 5;
    for (int shape = 0; shape < shapes; shape++) {
        for (size_t i = 0; i < n; i++)
            a[i] = shape == 0 ? normal() : shape == 1 ? (double)(rnd() % 3) : shape == 2 ? (double)i
                                       : shape == 3 ? (double)(n - i) : (double)(i % 2 ? i : n - i);
        memcpy(b, a, n * sizeof *a);
        sketch_sort_doubles(a, n);
        qsort(b, n, sizeof *b, cmp_double);
        CHECK_MSG(memcmp(a, b, n * sizeof *a) == 0, "shape %d sorts differently from qsort", shape);
    }
    /* the sizes the KLL levels sort (a radix sort on keys): against qsort */
    for (size_t m = 2; m <= 5000; m = m * 3 + 1) {
        for (size_t i = 0; i < m; i++)
            a[i] = i % 3 == 0 ? -normal() * 1e6 : i % 3 == 1 ? normal() * 1e-300 : (double)(rnd() % 7) - 3;
        memcpy(b, a, m * sizeof *a);
        sketch_sort_doubles(a, m);
        qsort(b, m, sizeof *b, cmp_double);
        for (size_t i = 0; i < m; i++)
            if (a[i] == 0)
                a[i] = 0; /* -0 and 0 compare equal; qsort may order them either way */
        for (size_t i = 0; i < m; i++)
            if (b[i] == 0)
                b[i] = 0;
        CHECK_MSG(memcmp(a, b, m * sizeof *a) == 0, "%zu items sort differently from qsort", m);
    }
    double nan_last[] = {3, NAN, -1, 2, NAN, 0};
    sketch_sort_doubles(nan_last, 6);
    CHECK(nan_last[0] == -1 && nan_last[1] == 0 && nan_last[2] == 2 && nan_last[3] == 3 && isnan(nan_last[4]) &&
          isnan(nan_last[5]));
    free(a);
    free(b);
}

int main(void)
{
    test_sort();
    test_distinct();
    test_hll();
    test_kll();
    return check_summary();
}
