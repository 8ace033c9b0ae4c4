/*
 * stats.h — the statistics of one column for `simdsv stats`, gathered from
 * Arrow record batches in memory that does not grow with the input (unless
 * --exact asks for it): count, nulls, min, max, mean and standard deviation
 * (Chan's pairwise update of Welford's running moments), sum (exact for
 * integers, compensated for floats), distinct values (exact up to
 * DISTINCT_EXACT_MAX, then HyperLogLog), quartiles (KLL), string lengths;
 * and, apart, string statistics of the values that did not fit the
 * column's type.  One thread fills one column_stats; the threads' are merged
 * at the end (stats_merge).
 */
#ifndef SIMDSV_CLI_STATS_H
#define SIMDSV_CLI_STATS_H

#include "cli.h"
#include "sketch.h"

/* Statistics of text: a string column, or the values that did not fit a
 * column's type (misfits). */
typedef struct text_stats {
    uint64_t count;
    bool any;
    strbuf min, max;          /* byte order */
    uint64_t min_len, max_len; /* bytes */
    distinct distinct;
    value_counts *exact;      /* --exact: every distinct value */
    uint64_t last_key;        /* the previous value's key: runs of one value cost one compare */
    /* misfits: the first one (lowest line) */
    uint64_t first_line;
    char first_value[64];
} text_stats;

typedef struct column_stats {
    simdsv_type type;
    bool views;               /* a string column's arrays are string views ("vu"), else utf8 ("u") */
    bool zoned;               /* a timestamp column with a zone: its values are instants, shown in UTC with 'Z' */
    bool exact;               /* --exact: quantiles and distinct counts kept whole */
    uint64_t count, nulls;    /* values and nulls as the batches hold them */
    /* numbers, dates, timestamps (int64 and dates as integers) */
    int64_t imin, imax;
    double dmin, dmax;
    uint64_t sum_lo;          /* int64: the exact sum in 128 bits (two's complement) */
    int64_t sum_hi;
    double fsum, fsum_comp;   /* float64: Neumaier's compensated sum */
    double mean, m2;          /* running mean and sum of squared deviations */
    uint64_t trues;           /* bool */
    kll quantiles;
    distinct distinct;
    uint64_t last_key;
    bool has_last;
    int64_t *ivals;           /* --exact: every value (int64, date, timestamp) */
    double *dvals;            /* --exact: every value (float64) */
    size_t nvals, cap_vals;
    text_stats text;          /* string columns */
    text_stats misfits;       /* values that did not fit an inferred type */
    uint64_t rejected;        /* values that did not fit a --schema type, made null (--on-error null) */
    bool failed;              /* out of memory */
} column_stats;

void stats_init(column_stats *cs, simdsv_type type, bool exact, uint64_t seed);
void stats_free(column_stats *cs);
/* One column of a record batch (an Arrow child array of the batch's type). */
void stats_add_array(column_stats *cs, const struct ArrowArray *a);
/* A value that did not fit the column's inferred type, at line. */
void stats_add_misfit(column_stats *cs, const char *value, size_t size, uint64_t line);
void stats_merge(column_stats *dst, const column_stats *src);

/* What a column's statistics print as; empty strings where a statistic
 * does not apply.  full: every digit (CSV, JSON); else means and sums with 7
 * significant digits (the table). */
typedef struct stats_cells {
    char count[32], nulls[32], distinct[32], min[4096], p25[96], median[96], p75[96], max[4096], mean[48], sd[48],
        sum[48], min_len[32], max_len[32];
    bool distinct_exact, quantiles_exact;
    bool numeric; /* min, max, quartiles, mean, ... are JSON numbers (else strings) */
} stats_cells;
bool stats_cells_of(const column_stats *cs, bool full, stats_cells *out);
/* The same for the misfits' text statistics. */
bool stats_misfit_cells(const column_stats *cs, bool full, stats_cells *out);

/* ------------------------------------------- the report (stats_print.c) */

enum { STATS_FORMAT_TABLE, STATS_FORMAT_CSV, STATS_FORMAT_JSON };

/* Rejects listed after the table; the rest are counted (a file of bad
 * values would otherwise print one line per row). */
#define STATS_REJECTS_SHOWN 20

/* A value that did not fit a --schema type (--on-error null), or the first
 * one that failed (--on-error fail). */
typedef struct stats_reject {
    uint64_t line, byte_offset;
    size_t column;
    char *value, *reason;
    long input;       /* several files: the file's index, -1 for one */
    const char *file; /* and its name (the dataset's) */
} stats_reject;

/* What is printed: the merged statistics of every column, by name. */
typedef struct stats_report {
    size_t ncols;
    char *const *names;
    const simdsv_type *types;
    const column_stats *cols;
    uint64_t rows;
} stats_report;

/* The table (false: out of memory), and after it the notes on estimates
 * and on values that did not fit an inferred type. */
bool stats_print_table(const stats_report *rep);
/* One record per column (and one more for its misfits), format
 * STATS_FORMAT_CSV (with delimiter) or STATS_FORMAT_JSON. */
bool stats_print_records(const stats_report *rep, int format, int delimiter);
/* n rejects in any order (sorted here by file, line, then column): the
 * first STATS_REJECTS_SHOWN, then a count of the rest of total. */
void stats_print_rejects(const stats_report *rep, stats_reject *rejects, size_t n, uint64_t total);

/* The library's one fork-join helper (src/common/threads.c, linked into
 * the command with libsimdsv_write): fn(ctx, i) for i < n, on n threads. */
int simdsv__run_threads(const simdsv_allocator *a, size_t n, void (*fn)(void *ctx, size_t i), void *ctx);

#endif
