/*
 * access.h — what the typed reader (src/table/) may do with a record reader:
 * the seam between the two.  src/table/ includes this header and no other
 * of src/record/, so the reader's state (reader.h) stays private to
 * src/record/; every use of it goes through a function below.
 *
 * Buffer positions: offsets into the reader's input buffer, whose first byte
 * is input offset simdsv__reader_origin().  The typed reader holds the whole
 * input (or a stream's inference window) in that buffer, so positions it
 * takes from its data span stay valid until it reads records on from the
 * reader (a stream's buffer then drops consumed bytes and its origin grows).
 */
#ifndef SIMDSV_ACCESS_H
#define SIMDSV_ACCESS_H

#include "../common/internal.h"
#include "../scan/scan.h"

/* The reader's resolved options (its own copy: valid while it lives). */
const struct simdsv_options *simdsv__reader_options(const simdsv_reader *r);

/* Whether an input has been opened on the reader. */
bool simdsv__reader_has_input(const simdsv_reader *r);

/* The dialect the kernel scans with (quote and escape bytes, comments). */
const scan_dialect *simdsv__reader_dialect(const simdsv_reader *r);

/* The input buffer's first byte, and the input offset it stands for. */
const uint8_t *simdsv__reader_buffer(const simdsv_reader *r);
uint64_t simdsv__reader_origin(const simdsv_reader *r);
/* Whether p points into the buffer's held bytes (or just past them). */
bool simdsv__reader_holds(const simdsv_reader *r, const void *p);

/* The data the typed reader works on, held in the buffer. */
typedef struct simdsv__held {
    const uint8_t *data; /* the unread input: the data rows after the header */
    size_t size;
    size_t pos;          /* buffer position of data */
    bool whole;          /* data runs to the end of the input (else: a window of it) */
} simdsv__held;

/* Reads the input into the buffer until it holds `window` bytes of unread
 * data, or all of it (SIZE_MAX), with no record-size limit; strips the BOM
 * and skips SIMDSV_OPT_SKIP_LINES lines first if no record has been read.
 * The header, if any, must have been read already. */
simdsv_status simdsv__reader_hold(simdsv_reader *r, size_t window, simdsv__held *out);

/* A regular file read with read(), exactly as the file's bytes (no
 * conversion, no end offset): input offset o is at file offset o + delta
 * and the input ends at input offset end.  The typed reader's inference
 * reads the middle and the end of a large file apart with pread(), leaving
 * the reader where it was. */
typedef struct simdsv__file_view {
    int fd;
    uint64_t delta;
    uint64_t end;
} simdsv__file_view;
/* Whether the input is such a file (call it while nothing past the held
 * bytes has been read). */
bool simdsv__reader_file(const simdsv_reader *r, simdsv__file_view *out);
/* Up to size bytes at input offset `at` (fewer at the end of the file). */
simdsv_status simdsv__file_read_at(const simdsv__file_view *f, uint64_t at, void *buf, size_t size, size_t *got);
/* 1-based line of input offset `offset` of such a file (at or past the
 * line checkpoint): counted in the held bytes, then in the file's bytes
 * after them (pread), leaving the reader where it was. */
uint64_t simdsv__line_in_file(const simdsv_reader *r, const simdsv__file_view *f, uint64_t offset);
/* Whether no data record has been handed out yet (the header may have
 * been): a reader opened again on the same input reads what r would. */
bool simdsv__reader_fresh(const simdsv_reader *r);
/* r's error (simdsv_reader_error) becomes what `from` reports: a read of
 * the same input done again by another reader. */
void simdsv__reader_take_error(simdsv_reader *r, const simdsv_reader *from);
/* Whether the whole input is in memory (a buffer or a map) rather than read
 * through the reader's buffer as a stream. */
bool simdsv__reader_in_memory(const simdsv_reader *r);

/* The held input as a reference-counted block (shared.c), so that what
 * points into it outlives the reader: the whole input read to its end (a
 * file read with read(), a stream, a converted input: the reader's own
 * buffer; or a mapped file).  Returns a new reference (release it with
 * simdsv__shared_input_release) and the buffer's first byte and held size
 * in *base, *size; NULL when the bytes cannot be shared (a caller's buffer,
 * or an input not held to its end) or out of memory. */
typedef struct simdsv__shared_input simdsv__shared_input;
simdsv__shared_input *simdsv__reader_share_input(simdsv_reader *r, const uint8_t **base, size_t *size);
void simdsv__shared_input_retain(simdsv__shared_input *s);
/* NULL is fine; the last release frees the buffer or unmaps the file. */
void simdsv__shared_input_release(simdsv__shared_input *s);

/* Marks every held byte consumed: after a typed read the reader has nothing
 * more to give (simdsv_reader_next returns SIMDSV_END). */
void simdsv__reader_consume_all(simdsv_reader *r);

/* A new reader over data[0..size) with r's options and kernel, for reading
 * again part of what r holds (the bytes must outlive it): no header, no
 * skipped lines, no conversion and no end offset (r's bytes are UTF-8 and
 * within its end already), no byte order mark (the bytes are past the input's start:
 * a record that begins with U+FEFF keeps it), one thread; UTF-8 is checked
 * only when validate is set (samples and re-reads leave that to the pass
 * over r). */
simdsv_status simdsv__reader_sub(const simdsv_reader *r, const uint8_t *data, size_t size, bool validate,
                                 simdsv_reader **out);

/* The same over a stream of r's bytes that fn reads (a part of a regular
 * file, read with pread() by the chunk planner), UTF-8 checked as r checks
 * it: read as r would read those bytes as a stream. */
simdsv_status simdsv__reader_sub_stream(const simdsv_reader *r, simdsv_read_fn fn, void *ctx, simdsv_reader **out);

/* 1-based line of buffer position pos; it moves the reader's line
 * checkpoint there, so the positions asked for must not go backwards. */
uint64_t simdsv__line_at(simdsv_reader *r, size_t pos);
/* The same, for positions in any order: counted from the checkpoint without
 * moving it (a position before the checkpoint: the checkpoint's line). */
uint64_t simdsv__line_peek(const simdsv_reader *r, size_t pos);

/* Sets the reader's error (what simdsv_reader_error returns) at buffer
 * position pos, with its line and column: field `field`, physical record
 * `record` (header = 0), message detail (NULL: the status's own).  Returns
 * code. */
simdsv_status simdsv__reader_error_at(simdsv_reader *r, simdsv_status code, size_t pos, uint64_t field,
                                      uint64_t record, const char *detail);
/* Sets the reader's error code and message only (an option that does not
 * fit the input: no position).  Returns code. */
simdsv_status simdsv__reader_fail(simdsv_reader *r, simdsv_status code, const char *message);

/*
 * Takes up to max_rows complete records of exactly `fields` fields that lie
 * in the current index, and returns how many it took (0: read the next record
 * with simdsv_reader_next).  For row k, pos[k * (fields + 1) + j] is the
 * buffer offset, relative to *origin, where field j starts; entry `fields` is
 * where the next record starts (after the line end).  So field j spans
 * [*origin + pos[j], *origin + pos[j + 1] - 1) in the buffer, opening quote
 * and closing quote included.  pos holds pos_cap entries (batch.c).
 */
size_t simdsv__reader_batch(simdsv_reader *r, size_t fields, size_t max_rows, uint32_t *pos, size_t pos_cap,
                            size_t *origin);

/* The chunk planner (chunks.c) for the typed reader's threads:
 * data[0..size), which starts at a record start and is the whole rest of
 * the input, cut into n chunks at record starts of the single read, with
 * the records of each chunk but the last counted, on n - 1 threads (the
 * last chunk is not read: only where it starts is found).  Every dialect:
 * by the one-scan guess-and-check of the quote parities where the quote
 * state is that parity, else at line ends proven by readers that count the
 * chunks.  Chunk i starts at a record start after raw[i] (raw: n + 1 bounds
 * from 0 to size).  Returns how it cut (SIMDSV__CUT_*, non-zero) with
 * starts[0..n] (starts[0] == 0, starts[n] == size; chunk i is [starts[i],
 * starts[i+1]), and a reader over exactly those bytes reads the single
 * read's records) and records[0..n)
 * (records[n - 1] == 0); 0 when the cuts cannot be proven (an error or a
 * special byte the policy must see, the input ending inside quotes, a
 * record longer than a chunk, a failed allocation): then one thread
 * decides. */
int simdsv__count_chunks(const simdsv_reader *r, const uint8_t *data, size_t size, size_t n, const uint64_t *raw,
                         uint64_t *starts, uint64_t *records);
/* simdsv__count_chunks' answers when it cut the chunks. */
#define SIMDSV__CUT_BY_PARITY 1
#define SIMDSV__CUT_AT_LINES 2
/* A raw boundary moved to where the records of the chunk before the cut
 * there end: the chunk after it starts at the first record start past the
 * boundary returned.  The raw boundary itself where the cut is the first
 * record start after it anyway (the quote parities); else the line end
 * before the record start that simdsv__count_chunks cuts at for `raw`
 * (the first of some that starts plausible records), so that a first chunk
 * read before the cuts are known (the overlapped typed read) ends there. */
uint64_t simdsv__chunk_bound(const simdsv_reader *r, const uint8_t *data, size_t size, uint64_t raw);

/* The smallest chunk a parallel count or typed read cuts: `normal`, or for
 * the tests the byte count in the environment variable
 * SIMDSV_TEST_COUNT_CHUNK, so that small inputs are cut too. */
uint64_t simdsv__min_chunk(uint64_t normal);

#endif
