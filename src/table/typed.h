/*
 * typed.h — the typed reader's private pieces, shared by the files that make
 * it up.  A value that does not fit an inferred type widens its column
 * (that column's earlier raw values are re-read from the input and converted
 * again), so no value is ever rounded, truncated or rejected by inference.
 * A value that does not fit a user-given type is an error with its position,
 * or a null listed in the rejects (SIMDSV_ON_ERROR_NULL).
 *
 *   schema.c    header, columns from it and the options, then inference
 *   infer.c     sampling the start, middle and end of the data rows
 *   convert.c   rows into columns: column-major batches, single rows,
 *               widening, errors and rejects
 *   parallel.c  chunks converted on several threads and merged
 *   stream.c    record batches of a fixed schema as an Arrow C stream
 *   table.c     the public table functions and simdsv_table_read/infer
 *
 * The record reader is reached through src/record/access.h only.
 */
#ifndef SIMDSV_TYPED_H
#define SIMDSV_TYPED_H

#include "table.h"
#include "../record/access.h"

#include <stdatomic.h>
#include <string.h>

/* What one field says about its column's type. */
typedef struct field_kind {
    simdsv_type type;
    const char *why; /* for a string: what made it one */
    int past_2p53;   /* an int64 past 2^53: with floats the column is text */
} field_kind;

typedef struct typed_ctx {
    simdsv_reader *r;
    const struct simdsv_options *opt; /* r's */
    simdsv_table *t;
    const uint8_t *data; /* the input's data rows (after the header), whole in memory */
    size_t size;
    size_t data_pos;      /* buffer position of data in r */
    size_t header_fields; /* fields per row the header promises (0 without header) */
    size_t row_fields;    /* fields of a regular row: the header's, or the widest sampled row's */
    spec_list nulls, trues, falses;
    char *text;           /* decode scratch */
    size_t text_cap;
    uint64_t first_rows;  /* rows and bytes of the first sample window: the row size estimate */
    size_t first_bytes;
    /* simdsv_table_infer on a regular file larger than its start window:
     * data is that window, and the middle and end windows are read apart
     * (pread) from the file. */
    bool apart;               /* the file is read apart */
    simdsv__file_view file;
    uint64_t data_offset;     /* input offset of data[0] */
    uint64_t data_total;      /* bytes of data rows in the whole input */
    bool in_apart_window;     /* data is a window read apart: offsets are input offsets (apart_base + ...) */
    uint64_t apart_base;
    /* simdsv_table_infer: no later pass reads the rows, so an error in the
     * rows sampled from the data start is its result (simdsv__sample_error). */
    bool schema_only;
    bool window_cut; /* data is a start window cut at a line end, not the whole input */
    /* simdsv_table_read of a regular file read apart (streamed.c): the
     * windows are sampled exactly as the whole input's would be (one that
     * runs out of bytes before its rows is read again larger) and a reason's
     * line is counted in the file, so the schema is the whole read's. */
    bool exact;
    bool ran_out; /* the last sample window ended at its bytes' end, before its rows or inside a record */
} typed_ctx;

/* What the sample says about a column, and the value behind it. */
typedef struct sample_state {
    simdsv_type type;
    const char *why;
    uint64_t why_offset; /* input offset of the value that set type, for the reason */
    char value[40];      /* that value, shortened */
    uint64_t seen;
    int past_2p53;       /* an integer past 2^53 was seen: its text and offset */
    char big_value[40];
    uint64_t big_offset;
    bool why_apart, big_apart; /* that offset is an input offset in a window read apart (no line known) */
    bool zoned;          /* a sampled timestamp had a zone offset: the column holds UTC instants */
} sample_state;

/* The first chunk of a threaded read that starts converting while the
 * chunks after it are still being cut and counted (parallel.c): its rows
 * are the records that start at or before `bound`, and it never writes a
 * row at or past `rows`, its count, which the counting thread publishes
 * while the chunk runs and before the next chunk writes there.  Before each
 * batch the chunk stores in `claim` the rows it may have written by the
 * batch's end (within the count once it knows it), then loads `rows`; the
 * counting thread stores `rows`, then waits until `claim` is within it or
 * the chunk is done (all sequentially consistent): either the chunk sees
 * the count and stays within it, or the counting thread sees a claim past
 * it, which is within the count by the chunk's next batch (or the chunk's
 * rows at its end: past the count, the threaded read is given up). */
#define SIMDSV__ROWS_UNKNOWN UINT64_MAX
typedef struct chunk_gate {
    size_t bound;        /* data offset: the last record start of the chunk's */
    atomic_ullong claim; /* rows written by the end of the chunk's current batch, at most */
    atomic_ullong rows;  /* the chunk's counted rows, SIMDSV__ROWS_UNKNOWN until known */
    atomic_int stop;     /* the count failed: the read falls back, the chunk may stop now */
    atomic_int done;     /* the chunk wrote its last row (claim: its rows) */
    int passed;          /* the chunk met a record that starts past bound (its end) */
} chunk_gate;

/* One run of conversion over a range of rows: the whole input on the
 * caller's thread, or one chunk on a worker.  Errors are recorded here with
 * buffer positions and reported by the caller, so workers never touch the
 * reader's error state. */
typedef struct chunk {
    typed_ctx x;             /* x.t: the table (or the chunk's own columns) */
    simdsv_reader *source;   /* the main reader, or a reader over the chunk's bytes */
    int64_t shift;           /* buffer position = shift + record byte_offset */
    size_t from, to;         /* data offsets of the chunk (workers) */
    int worker;              /* 1: a misfit of an inferred column stops the chunk; rejects are located later */
    int misfit_stops;        /* 1: a misfit stops the chunk too (a streamed read, which reads again to widen) */
    int fixed_types;         /* 1 (streams): inferred types cannot widen any more */
    uint64_t limit;          /* rows to convert at most, 0 = all */
    size_t chars_budget;     /* stop once a string column holds this many bytes (0: no limit) */
    int misfit;              /* set when it did */
    int late_misfit;         /* fixed_types: a value did not fit an inferred type (the error) */
    size_t misfit_column;    /* ... in this column, */
    simdsv_type widened;     /* which a single read would widen to this type */
    chunk_gate *gate;        /* the first chunk of an overlapped threaded read (else NULL) */
    simdsv_status status;
    simdsv_status code;      /* the recorded error, if any */
    size_t err_pos;
    uint64_t err_field;
    uint64_t err_row;        /* data row of the error, within the chunk */
    char msg[256];
    /* column-major batches (convert_chunk) */
    uint32_t *pos;           /* field starts of the batch's rows (access.h) */
    simdsv_field *fields;    /* one row's fields, for a batch converted row by row */
    struct column_mark *marks; /* each column's state before the batch */
    slot_text *texts;        /* one run of a column's slots */
} chunk;

static inline int simdsv__is_null_token(const typed_ctx *x, const column *c, const simdsv_field *f, const char *s,
                                        size_t n)
{
    if (f->flags & SIMDSV_FIELD_QUOTED)
        return 0; /* a quoted field is text, even "" and "NA" */
    return n == 0 || (x->nulls.count && simdsv__list_contains(&x->nulls, s, n)) ||
           (c->nulls.count && simdsv__list_contains(&c->nulls, s, n));
}

static inline int simdsv__has_leading_zero(const char *s, size_t n)
{
    if (n && (*s == '+' || *s == '-')) {
        s++;
        n--;
    }
    return n > 1 && s[0] == '0';
}

/* The decoded text of a field (unescaped; lossy UTF-8 replaced). */
static inline int simdsv__field_text(typed_ctx *x, const simdsv_field *f, const char **s, size_t *n)
{
    *s = f->data;
    *n = f->size;
    if (!(f->flags & (SIMDSV_FIELD_NEEDS_UNESCAPE | SIMDSV_FIELD_INVALID_UTF8)))
        return 1;
    const size_t need = f->size * 3 + 1;
    if (x->text_cap < need) {
        simdsv__free(&x->t->alloc, x->text, x->text_cap);
        x->text_cap = 0;
        if (!(x->text = simdsv__alloc(&x->t->alloc, need)))
            return 0;
        x->text_cap = need;
    }
    size_t len = f->size;
    const char *src = f->data;
    if (f->flags & SIMDSV_FIELD_NEEDS_UNESCAPE) {
        len = simdsv_unescape(f, x->opt->quote, x->opt->escape, x->text + f->size * 2);
        src = x->text + f->size * 2;
    }
    if (f->flags & SIMDSV_FIELD_INVALID_UTF8)
        len = simdsv_utf8_lossy(src, len, x->text);
    else
        memmove(x->text, src, len);
    *s = x->text;
    *n = len;
    return 1;
}

/* A reader over the data rows from data offset `from`, for sampling and
 * re-reading. */
static inline simdsv_status simdsv__sub_reader(const typed_ctx *x, size_t from, simdsv_reader **out)
{
    return simdsv__reader_sub(x->r, x->data + from, x->size - from, false, out);
}

/* The bytes a stream holds to infer its schema (its start, middle and end
 * are sampled, SIMDSV_OPT_INFER_ROWS rows at most, then the buffer moves
 * on), and simdsv_table_infer's window on an input not in memory. */
#define SIMDSV__SAMPLE_WINDOW ((size_t)8 << 20)
/* simdsv_table_infer's start window on a regular file, whose middle and end
 * are read apart: the start sample's rows (half the budget) of up to 400
 * bytes; a file of wider rows has fewer rows sampled at its start. */
#define SIMDSV__FILE_START_WINDOW ((size_t)2 << 20)

/* schema.c.  Header, schema and inference into a new table *out.  window:
 * the bytes of data rows to hold and sample (SIZE_MAX: the whole input);
 * schema_only (simdsv_table_infer): a regular file larger than the window
 * has its middle and end sampled with pread() instead of within the window,
 * and an error in the rows read from the data start fails the call;
 * exact: the same for simdsv_table_read, the schema exactly the whole
 * input's (typed_ctx.exact); infer: the types are inferred too (else the
 * caller infers them). */
simdsv_status simdsv__typed_start(simdsv_reader *r, simdsv_table **out, typed_ctx *x, size_t window,
                                 bool schema_only, bool exact, bool infer);
/* Holds `window` bytes of data rows (SIZE_MAX: all) as x's data: cut at the
 * last line end unless whole (window_cut); a regular file not held whole is
 * read apart when apart is set. */
simdsv_status simdsv__typed_hold(typed_ctx *x, size_t window, bool apart);
/* A table read as views: its long strings point into the input, which x's
 * reader holds whole, shared with the table (else they are copied). */
void simdsv__typed_share(typed_ctx *x);
/* Frees what the context owns (not the table). */
void simdsv__typed_finish(typed_ctx *x);

/* infer.c.  The columns' types (those the schema does not give) and their
 * reasons, from samples of the start, middle and end of the data rows. */
simdsv_status simdsv__infer_types(typed_ctx *x);
/* sr read the data rows from data offset `from`, after rows_before rows, and
 * stopped with st.  Under schema_only an error in them is reported on x->r
 * as simdsv_table_read would report it, and returned; otherwise (a later pass
 * reports it), and for a quoted field cut by the start window's end, which
 * the input does not end in, SIMDSV_OK. */
simdsv_status simdsv__sample_error(typed_ctx *x, const simdsv_reader *sr, simdsv_status st, size_t from,
                                   uint64_t rows_before);
/* One field's kind: the value layer's rules (src/values/values.h), plus the
 * reader's own bool spellings and decimal comma. */
field_kind simdsv__infer_text(const typed_ctx *x, const simdsv_field *f, const char *s, size_t n);
/* c's reason from what the sample (or a widening value) said; line: 1-based
 * line of the value behind a string reason (0 if none). */
void simdsv__write_reason(column *c, const sample_state *s, uint64_t line);

/* convert.c.  Rows of k's source into its table's columns, up to k->limit
 * (0: all).  Data errors are recorded in k (code, position, message). */
simdsv_status simdsv__convert_chunk(chunk *k);
/* The whole input on the caller's thread; widening re-reads in place. */
simdsv_status simdsv__convert_single(typed_ctx *x);
/* Capacity for rows rows in every column of t. */
simdsv_status simdsv__reserve_rows(simdsv_table *t, uint64_t rows);
/* Reports a chunk's recorded error on the main reader (with line/column);
 * rows_before: data rows of the chunks before it. */
simdsv_status simdsv__report(simdsv_reader *r, const chunk *k, uint64_t rows_before);
/* Rejects were recorded with buffer positions: now, in input order, their
 * lines and input offsets. */
void simdsv__finish_rejects(simdsv_table *t, simdsv_reader *r);

/* parallel.c.  The types inferred (simdsv__infer_types), and the input
 * converted on `threads` threads when that applies; *done = 0 when it did
 * not (the caller converts on one thread). */
simdsv_status simdsv__convert_parallel(typed_ctx *x, int threads, int *done);
/* For the tests: how many typed reads ran on several threads, and how many
 * of those cut their chunks at line ends (relaxed atomic counters; they
 * change nothing else). */
void simdsv__table_parallel_stats(uint64_t *reads, uint64_t *line_cuts);
/* For the tests: how many threaded reads were overlapped (the first chunk
 * converted while the others were counted), and in how many a chunk was
 * lent more rows than the sample's estimate left it. */
void simdsv__table_overlap_stats(uint64_t *overlapped, uint64_t *lent);

/* table.c.  For the tests: how many typed reads streamed a file read with
 * read() (not holding it), and how many of them read it again whole to
 * widen a column. */
void simdsv__table_stream_stats(uint64_t *streamed, uint64_t *again);
/* own: an empty table with t's columns (types, sources; names and
 * null lists borrowed), for rows converted apart from t (a chunk, a batch). */
simdsv_status simdsv__borrow_schema(const simdsv_table *t, simdsv_table *own);
/* Frees what simdsv__borrow_schema's table owns: rows, rejects, the column
 * array. */
void simdsv__free_borrowed(simdsv_table *own);
/* Moves src's rejects to the end of dst's, their rows shifted by row_base. */
simdsv_status simdsv__move_rejects(simdsv_table *dst, simdsv_table *src, uint64_t row_base);

#endif
