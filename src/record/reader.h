/*
 * reader.h — the reader's state, shared by the fast path (reader.c) and the
 * scalar state machine that handles irregular records (slow.c).
 *
 * Positions are offsets into buf; buf_origin is the input offset of buf[0]
 * (it grows when a streaming buffer drops consumed bytes).
 */
#ifndef SIMDSV_READER_H
#define SIMDSV_READER_H

#include "../common/internal.h"
#include "../scan/scan.h"
#include "../source/source.h"
#include "../utf8/utf8.h"
#include "access.h"

/* Internal status: the slow path consumed something that is not a record
 * (a comment line); the caller goes on reading. */
#define SIMDSV__AGAIN ((simdsv_status)-1)

/* Bytes per kernel call: large enough to amortise the call, small enough that
 * the index (4 bytes per separator) stays in the L2 cache. */
#define SCAN_CHUNK ((size_t)64 << 10)

struct simdsv_reader {
    struct simdsv_options opt;
    const scan_kernel *kernel;
    scan_dialect dialect;
    source src;

    /* input bytes */
    uint8_t *buf;
    size_t len, cap;
    bool owns_buf;
    simdsv__shared_input *shared; /* buf belongs to this block, shared with string views (shared.c) */
    bool eof;             /* nothing more will be appended to buf */
    uint64_t buf_origin;
    bool started;         /* BOM and skipped lines handled */

    /* scanning */
    size_t scan_pos;      /* next byte for the kernel */
    scan_state ss;
    bool special_pending; /* the kernel stopped at scan_pos: slow path next */
    bool slow_only;       /* a delimiter of several bytes or SIMDSV_OPT_TRIM_SPACES: no kernel scan,
                             every record is read by slow.c (scan_more hands each one to it) */
    bool scanned_all;     /* the final block has been scanned */
    uint32_t *index;
    size_t index_n, index_i, index_base;
    bool index_quoted;    /* the indexed bytes hold a quote byte (else no field is quoted) */
    size_t scan_window;   /* bytes for the next kernel call; 0: the full 64 KiB */
    size_t fast_width;    /* fields of the last record read: the width the fast path tries first */
    /* A run of regular records cut ahead (reader.c, cut_run): record k's
     * views are fields[k * run_width ...], its index entries start at
     * run_first[k], its bytes are [run_starts[k], run_ends[k]); run_k
     * records of run_n have been handed out.  It is served only while the
     * reader is exactly where the last served record left it. */
    size_t run_n, run_k, run_width;
    size_t run_first[64], run_starts[64], run_ends[64];
    uint64_t count_acc;

    /* the record being assembled */
    size_t rec_start, field_start;
    simdsv_field *fields;
    size_t nfields, fields_cap;
    bool fields_overflow; /* the record has more fields than SIMDSV_OPT_MAX_FIELDS */
    const size_t *slow_starts; /* slow path: 4 entries per field, [3] = raw start position */
    bool counting;        /* inside simdsv_reader_count: quoting is all that is checked */
    bool ended_by_input_end; /* a record or comment line was ended by the end of the input (not by a line
                                end): a chunk cut there by the planner (chunks.c) was cut inside it */
    bool skipping;        /* a stream record over the size limit is being skipped */
    size_t bom_len;       /* 3 if the input started with a UTF-8 BOM */
    size_t record_bytes;  /* size of the last completed record */
    uint64_t records_emitted;
    uint64_t physical_records;

    /* slow path output: decoded field bytes and their offsets */
    char *scratch;
    size_t scratch_cap;
    size_t *scratch_offsets;
    size_t scratch_offsets_cap;

    /* simdsv_reader_unescape results for the current record */
    char *unescape_buf;
    size_t unescape_len, unescape_cap;

    /* header copy */
    bool header_done;
    simdsv_field *header_fields;
    size_t header_count;
    char *header_bytes;
    size_t header_bytes_size;

    size_t utf8_pos;      /* bytes before it are known valid (or already reported) */
    /* simdsv_reader_read_columns / _check_columns: bit j for column j < 63, bit 63 for the rest */
    uint64_t flag_columns;  /* the batches' flags are given for these */
    uint64_t check_columns; /* UTF-8 is checked in these */

    /* simdsv_reader_next_batch: the arrays of the batch handed out (batch.c) */
    uint32_t *batch_bounds;
    uint8_t *batch_flags;
    size_t batch_flags_dirty; /* batch_flags past this are zero (they are zeroed before each batch) */
    size_t batch_bounds_cap;
    size_t *batch_first;
    uint64_t *batch_offsets;
    size_t batch_records_cap;
    char *batch_spill;    /* a record of the general path whose fields are not in buf */
    size_t batch_spill_cap;
    bool batch_valid;     /* the last batch handed out is still valid (no call since) */
    bool batch_line0_known; /* batch_line0: line of its first record; batch_after_cr: the count's state there */
    uint64_t batch_line0, batch_after_cr;
    bool last_in_buffer;  /* the last record's fields are views into buf (not the slow path's scratch) */

    /* line-number checkpoint: line_count line ends before input offset line_offset */
    uint64_t line_offset, line_count, line_after_cr;
    /* simdsv_reader_count on a file that can be read again: the bytes it
     * drops from the buffer leave their lines uncounted (line_offset stays
     * behind buf_origin) until a line is asked for (position.c). */
    bool lines_from_file;

    simdsv_error err;
    bool fatal;
};

/* Whether column j is in a mask of simdsv_reader_read_columns. */
static inline bool simdsv__column_in(uint64_t mask, uint64_t j)
{
    return (mask >> (j < 63 ? j : 63)) & 1;
}

simdsv_status simdsv__set_error(simdsv_reader *r, simdsv_status code, size_t pos, uint64_t field, const char *detail);
/* A fatal error with no position of its own (out of memory, I/O): the
 * reader keeps returning code. */
simdsv_status simdsv__fail(simdsv_reader *r, simdsv_status code, int os_errno);
simdsv_status simdsv__refill(simdsv_reader *r, bool fill_completely);
/* Reads a stream into the buffer until it holds at_least bytes from
 * rec_start, or all of it (SIZE_MAX); no record-size limit: the typed
 * reader holds what it reads. */
simdsv_status simdsv__slurp(simdsv_reader *r, size_t at_least);
/* Strips the BOM and skips SIMDSV_OPT_SKIP_LINES lines (once). */
simdsv_status simdsv__start_input(simdsv_reader *r);
void simdsv__restart_scan(simdsv_reader *r, size_t pos);
/* After a restart (a skip, a slow record: nothing scanned past the record
 * start), indexes the next window from the record start; true when the
 * index then holds entries. */
bool simdsv__index_from_record(simdsv_reader *r);
/* content_end: where the record's bytes end (before its line end); end:
 * where the next record starts. */
simdsv_status simdsv__finish_record(simdsv_reader *r, simdsv_record *rec, size_t content_end, size_t end,
                                    bool fields_in_buffer);
/* Parses the record at rec_start with the scalar state machine; restarts the
 * scan after it.  Returns OK (record), SIMDSV__AGAIN (comment skipped) or an
 * error (strict mode: the record is skipped, reading can continue). */
simdsv_status simdsv__slow_record(simdsv_reader *r, simdsv_record *rec);
/* Checks a reader before a public call (and ends the last batch's validity). */
simdsv_status simdsv__ensure_usable(simdsv_reader *r);
/* simdsv_reader_next without the argument checks: the header must be done. */
simdsv_status simdsv__read_record(simdsv_reader *r, simdsv_record *rec);
/* The header record (SIMDSV_OPT_HEADER=1) if it has not been read yet. */
simdsv_status simdsv__ensure_header(simdsv_reader *r);
/* Checkpoint of line numbers moved to buffer position pos (>= the current one). */
void simdsv__advance_lines(simdsv_reader *r, size_t pos);
/* The line checkpoint at the buffer's start (line_offset, or buf_origin
 * when a count left the lines before it uncounted: they are counted from
 * the file then): line ends before it and whether the byte before is CR. */
void simdsv__lines_at_origin(const simdsv_reader *r, uint64_t *lines, uint64_t *after_cr);

#endif
