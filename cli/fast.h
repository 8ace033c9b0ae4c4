/* fast.h — the raw-byte fast path of select and search (fast.c). */
#ifndef SIMDSV_CLI_FAST_H
#define SIMDSV_CLI_FAST_H

#include "cli.h"

typedef enum {
    FAST_HEADER, /* the header record */
    FAST_FIRST,  /* the first record, with --no-header (a data record) */
    FAST_DATA    /* any other data record */
} fast_kind;

/* A plain region handed to fast_ops.plain. */
typedef struct fast_region {
    const char *data;  /* whole lines, each ended by LF (but maybe the last one
                          at the end of the input), with no quote, no CR, valid
                          UTF-8 (unless --utf8 none) and within the limits: a
                          record is a non-empty line, its fields are split by
                          the delimiter, nothing to decode; empty lines (no
                          record) may occur */
    size_t size;
    /* With fast_ops.masks: bit i of dm[w] / lm[w] is set when byte 64 * w + i
     * is the delimiter / a line feed; (size + 63) / 64 words and one more, 0. */
    const uint64_t *dm, *lm;
    /* With fast_ops.prefilter: no occurrence of the literal starts before
     * this offset (size: none in the region). */
    size_t literal_from;
} fast_region;

typedef struct fast_ops {
    /* A record parsed by the library.  Returns 0 to go on, or an exit
     * status to stop with (the problem already reported). */
    int (*record)(void *ctx, text_buffer *tb, const simdsv_record *rec, fast_kind kind);
    /* Plain data records (see fast_region). */
    int (*plain)(void *ctx, const fast_region *region);
    /* Whether plain() wants the region's bitmasks (else dm, lm are NULL). */
    bool masks;
    /* A literal looked for in the same pass that classifies a region (its
     * anchor bytes), or NULL. */
    const literal *prefilter;
} fast_ops;

/* Reads c->file through ops: the header (or first record) first, then the
 * data records.  Plain regions go to ops->plain, everything else (quoted
 * fields, CR line ends, invalid UTF-8, dialects with escapes or comments,
 * lenient mode, skipped lines) is parsed by the library and goes to
 * ops->record.  Errors are reported with their position in the whole input.
 * Returns the exit status. */
int fast_run(cli_common *c, const fast_ops *ops, void *ctx);

/* Splits a plain line into fields: ends[k] receives the end offset (from
 * line) of field k for k < max; returns the number of fields. */
size_t fast_split(const char *line, size_t size, int delimiter, size_t *ends, size_t max);

/* The lines of data[0..size), without their LF: calls fn for each
 * non-empty one; stops when fn returns non-zero, and returns that. */
int fast_lines(const char *data, size_t size, int (*fn)(void *ctx, const char *line, size_t n), void *ctx);

#endif
