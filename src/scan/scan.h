/*
 * scan.h — the contract between the reader and the scanning kernels.
 *
 * A kernel turns bytes into structure, 64 bytes at a time, and never makes a
 * policy decision: it reports separators (delimiters and line ends outside
 * quotes) and stops at the first "special" byte — anything the bitmask fast
 * path does not handle by itself (a quote that breaks RFC 4180, a comment at
 * a record start).  The reader (src/record/) re-parses that record with the
 * scalar state machine, which decides between error and lenient recovery.
 * So every kernel gives identical results: they all stop at the same byte.
 */
#ifndef SIMDSV_SCAN_H
#define SIMDSV_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "simdsv.h"

typedef struct scan_dialect {
    uint8_t delimiter;
    uint8_t quote;
    uint8_t escape;
    uint8_t comment;
    uint8_t has_quote;
    uint8_t has_escape;
    uint8_t has_comment;
    uint8_t pad_byte;   /* equal to no structural byte: fills the copied tail block */
} scan_dialect;

/* Carried from one block to the next.  Masks are 0 or 1 (bit 0) except
 * in_quote, which is 0 or all ones so that it can be XORed into a block. */
typedef struct scan_state {
    uint64_t in_quote;     /* the previous byte was inside a quoted field */
    uint64_t after_sep;    /* the previous byte ended a field (or nothing was scanned) */
    uint64_t after_close;  /* the previous byte was a closing quote */
    uint64_t after_term;   /* the previous byte ended a record (or nothing was scanned) */
    uint64_t escaped_next; /* an odd run of escape bytes ended the previous block */
} scan_state;

/* A record-end separator carries this bit in its index entry. */
#define SCAN_TERM_BIT 0x80000000u
#define SCAN_OFFSET_MASK 0x7fffffffu
/* One call scans at most this many bytes, so offsets fit in 31 bits. */
#define SCAN_MAX_CHUNK ((size_t)1 << 30)
/* Index arrays must have room for the chunk's bytes plus this slack (the
 * flattening loop writes a few entries past the last one). */
#define SCAN_INDEX_SLACK 128

typedef struct scan_result {
    size_t consumed;      /* bytes scanned; == stop when a special byte was found */
    size_t index_count;   /* index mode: entries written */
    uint64_t record_ends; /* count mode: line ends that close a non-empty record */
    size_t last_term_end; /* count mode: offset just past the last line end, 0 if none */
    int stopped;          /* 1: data[consumed] is a special byte (state is then stale) */
    int quoted;           /* index mode: 0 when data[0..consumed) holds no quote byte (no field there is quoted) */
} scan_result;

static inline void scan_state_reset(scan_state *s)
{
    s->in_quote = 0;
    s->after_sep = 1;
    s->after_close = 0;
    s->after_term = 1;
    s->escaped_next = 0;
}

/*
 * Scans data[0..len).  len <= SCAN_MAX_CHUNK.  Without `final`, only whole
 * 64-byte blocks are scanned (consumed is a multiple of 64); with `final` the
 * last partial block is scanned from a padded copy, so nothing past data+len
 * is ever read.  Index mode writes, for every separator, its offset (plus
 * SCAN_TERM_BIT for a line end) to index[].
 */
typedef scan_result (*scan_fn)(const scan_dialect *d, scan_state *s, const uint8_t *data, size_t len,
                               int final, uint32_t *index);
typedef size_t (*utf8_validate_fn)(const uint8_t *data, size_t size);
/* A literal that records are skipped for (record/skip.c).  Its first and
 * last bytes (first[], last[]: the two cases of a letter when case is
 * ignored, else the byte twice) propose where it may start, and each such
 * place is compared in full (ASCII letters without case when icase). */
typedef struct scan_literal {
    const uint8_t *bytes;
    size_t size; /* >= 1 */
    int icase;
    uint8_t first[2], last[2];
} scan_literal;
/*
 * One pass of the skip: scans data[0..len) as scan_count does with `final`
 * (so from the state in *s, the last partial block from a padded copy) and
 * stops at the first place the literal starts (it lies wholly inside
 * data[0..len)) as at a special byte: consumed = that offset, stopped = 1.
 * The record ends before the stop are counted.  With non_ascii, also sets
 * *non_ascii to the offset of the first byte >= 0x80 (len when there is
 * none): every byte before it is ASCII.
 */
typedef scan_result (*scan_skip_fn)(const scan_dialect *d, scan_state *s, const uint8_t *data, size_t len,
                                    const scan_literal *lit, size_t *non_ascii);
typedef uint64_t (*count_lines_fn)(const uint8_t *data, size_t len, uint64_t *after_cr);

/* A run of regular records to cut into field views (record/reader.c,
 * cut_run): from entry i of index[0..count), records of exactly `width`
 * fields each, of which only the last entry is a line end.  Positions are
 * offsets into buf; entry offsets count from buf + base. */
typedef struct scan_cut {
    const uint32_t *index;
    size_t i, count;
    const uint8_t *buf;
    size_t base;
    size_t start;        /* the first record's first byte */
    size_t width;        /* fields per record, >= 1 */
    size_t records;      /* at most this many records; records * width <= count - i */
    uint64_t max_size;   /* a record's bytes (line end excluded) may not exceed it; 0: no limit */
    simdsv_field *fields;/* room for records * width + SCAN_CUT_SLACK views */
    size_t *first;       /* per record cut: its first index entry, */
    size_t *starts;      /* its first byte, */
    size_t *ends;        /* the byte after its line end */
} scan_cut;
/* Views or row entries a cut may write past the last record's (scratch: a
 * SIMD kernel cuts a whole vector at a time), and index entries it may read
 * past the last. */
#define SCAN_CUT_SLACK 16
/* Cuts records from c->i until `records`, the first record that is not
 * regular (a line end inside, none at its last entry, an empty one-field
 * record, too large) or the index ends; empty lines (and a CRLF's LF)
 * before a record are skipped.  Returns the number of records cut: their
 * views (flags 0, quotes not yet removed) are fields[k * width ...].  Reads
 * up to SCAN_CUT_SLACK entries past the last record's (index arrays have
 * SCAN_INDEX_SLACK). */
typedef size_t (*cut_records_fn)(const scan_cut *c);
/* Rows of a batch (record/batch.c, walk): `records` records of `width`
 * fields each follow each other in the index from e[0], each followed by
 * `gap` entries (1: the LF of a CRLF, an empty line the caller has checked)
 * that belong to no record.  Row k of rows (width + 1 entries, the rows one
 * after the other) is the offset of the record's first byte (row_start for
 * the first row, the byte after the entry before for the others), then the
 * offset of the byte after each of its separators: its entry's offset +
 * shift.  Returns how many of the records' own entries are line ends: the
 * rows are records when that is `records` and each record's last entry is
 * one.  Writes up to SCAN_CUT_SLACK entries past the last row and reads as
 * many past the last entry. */
typedef size_t (*cut_rows_fn)(const uint32_t *e, size_t records, size_t width, size_t gap, uint32_t shift,
                              uint32_t row_start, uint32_t *rows);

typedef struct scan_kernel {
    simdsv_kernel id;
    const char *name;
    scan_fn scan_index;
    scan_fn scan_count;
    utf8_validate_fn utf8_validate;
    count_lines_fn count_lines;
    scan_skip_fn scan_skip;
    cut_records_fn cut_records;
    cut_rows_fn cut_rows;
} scan_kernel;

/* The kernel table entry for id, or NULL if not compiled in / not supported. */
const scan_kernel *simdsv__kernel_get(simdsv_kernel id);
/* Resolves AUTO (and SIMDSV_KERNEL) to a kernel. */
simdsv_status simdsv__kernel_resolve(simdsv_kernel requested, const scan_kernel **out);

/* Per-ISA entry points (scan_<isa>.c). */
scan_result simdsv__scan_index_scalar(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_count_scalar(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_index_sse42(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_count_sse42(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_index_avx2(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_count_avx2(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_index_avx512(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_count_avx512(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_index_neon(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_count_neon(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);

/* The same kernels with the nibble classifier (scan_block.h, SCAN_NIBBLE),
 * built by bench/ only: bench_classify compares the two classifiers. */
scan_result simdsv__scan_index_sse42_nibble(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_count_sse42_nibble(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_index_avx2_nibble(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_count_avx2_nibble(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_index_avx512_nibble(const scan_dialect *, scan_state *, const uint8_t *, size_t, int,
                                             uint32_t *);
scan_result simdsv__scan_count_avx512_nibble(const scan_dialect *, scan_state *, const uint8_t *, size_t, int,
                                             uint32_t *);
scan_result simdsv__scan_index_neon_nibble(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
scan_result simdsv__scan_count_neon_nibble(const scan_dialect *, scan_state *, const uint8_t *, size_t, int, uint32_t *);
uint64_t simdsv__count_lines_sse42_nibble(const uint8_t *, size_t, uint64_t *);
uint64_t simdsv__count_lines_avx2_nibble(const uint8_t *, size_t, uint64_t *);
uint64_t simdsv__count_lines_avx512_nibble(const uint8_t *, size_t, uint64_t *);
uint64_t simdsv__count_lines_neon_nibble(const uint8_t *, size_t, uint64_t *);

scan_result simdsv__scan_skip_scalar(const scan_dialect *, scan_state *, const uint8_t *, size_t, const scan_literal *,
                                     size_t *);
scan_result simdsv__scan_skip_sse42(const scan_dialect *, scan_state *, const uint8_t *, size_t, const scan_literal *,
                                    size_t *);
scan_result simdsv__scan_skip_avx2(const scan_dialect *, scan_state *, const uint8_t *, size_t, const scan_literal *,
                                   size_t *);
scan_result simdsv__scan_skip_avx512(const scan_dialect *, scan_state *, const uint8_t *, size_t, const scan_literal *,
                                     size_t *);
scan_result simdsv__scan_skip_neon(const scan_dialect *, scan_state *, const uint8_t *, size_t, const scan_literal *,
                                   size_t *);

size_t simdsv__cut_records_scalar(const scan_cut *);
size_t simdsv__cut_records_sse42(const scan_cut *);
size_t simdsv__cut_records_avx2(const scan_cut *);
size_t simdsv__cut_records_avx512(const scan_cut *);
size_t simdsv__cut_records_neon(const scan_cut *);
size_t simdsv__cut_rows_scalar(const uint32_t *, size_t, size_t, size_t, uint32_t, uint32_t, uint32_t *);
size_t simdsv__cut_rows_sse42(const uint32_t *, size_t, size_t, size_t, uint32_t, uint32_t, uint32_t *);
size_t simdsv__cut_rows_avx2(const uint32_t *, size_t, size_t, size_t, uint32_t, uint32_t, uint32_t *);
size_t simdsv__cut_rows_avx512(const uint32_t *, size_t, size_t, size_t, uint32_t, uint32_t, uint32_t *);
size_t simdsv__cut_rows_neon(const uint32_t *, size_t, size_t, size_t, uint32_t, uint32_t, uint32_t *);

uint64_t simdsv__count_lines_scalar(const uint8_t *, size_t, uint64_t *);
uint64_t simdsv__count_lines_sse42(const uint8_t *, size_t, uint64_t *);
uint64_t simdsv__count_lines_avx2(const uint8_t *, size_t, uint64_t *);
uint64_t simdsv__count_lines_avx512(const uint8_t *, size_t, uint64_t *);
uint64_t simdsv__count_lines_neon(const uint8_t *, size_t, uint64_t *);

#endif
