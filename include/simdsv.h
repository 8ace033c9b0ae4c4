/*
 * simdsv.h — the public interface of simdsv, a SIMD reader for CSV and other
 * delimiter-separated files.  This header is the manual: every function says
 * what it does, what it owns and what it never does.
 *
 * The library never prints, never aborts and never exits.  Every fallible call
 * returns a simdsv_status; errors about the data also fill a simdsv_error with
 * the exact position (byte offset, line, column, record, field).
 *
 * How to read a file, field by field:
 *
 *     simdsv_options *opt = simdsv_options_new(NULL);
 *     simdsv_options_set(opt, SIMDSV_OPT_DELIMITER, ';');
 *     simdsv_reader *r = NULL;
 *     simdsv_status st = simdsv_reader_new(&r, opt);
 *     if (st == SIMDSV_OK) st = simdsv_reader_open_path(r, "data.csv");
 *     simdsv_record rec;
 *     while (st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
 *         for (size_t i = 0; i < rec.field_count; i++)
 *             use(rec.fields[i].data, rec.fields[i].size);
 *     }
 *     if (st != SIMDSV_END) report(simdsv_reader_error(r));
 *     simdsv_reader_free(r);
 *     simdsv_options_free(opt);
 *
 * Field views are zero-copy: they point into the input (or the reader's
 * buffer) and stay valid until the next call on the same reader.  A quoted
 * field is presented without its enclosing quotes; if it contains doubled
 * quotes or escapes it carries SIMDSV_FIELD_NEEDS_UNESCAPE and
 * simdsv_reader_unescape() gives the decoded bytes.
 *
 * Thread safety: a reader or an options object is used by one thread at a
 * time; distinct objects are independent.  There is no global mutable state
 * (CPU feature detection is idempotent and race-free).
 */
#ifndef SIMDSV_H
#define SIMDSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(SIMDSV_SHARED)
#  ifdef SIMDSV_BUILDING
#    define SIMDSV_API __declspec(dllexport)
#  else
#    define SIMDSV_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define SIMDSV_API __attribute__((visibility("default")))
#else
#  define SIMDSV_API
#endif

/* ------------------------------------------------------------------ version */

#define SIMDSV_VERSION_MAJOR 0
#define SIMDSV_VERSION_MINOR 1
#define SIMDSV_VERSION_PATCH 0
#define SIMDSV_VERSION_NUMBER \
    (SIMDSV_VERSION_MAJOR * 10000 + SIMDSV_VERSION_MINOR * 100 + SIMDSV_VERSION_PATCH)
#define SIMDSV_VERSION_STRING "0.1.0"

/* The version of the library actually linked (compare with the macros). */
SIMDSV_API unsigned simdsv_version_number(void);
SIMDSV_API const char *simdsv_version_string(void);

/* ----------------------------------------------------------------- statuses */

/* Status codes.  The numbers are part of the ABI: they are never reused or
 * renumbered; new codes are only appended. */
typedef enum simdsv_status {
    SIMDSV_OK = 0,                         /* success; a record was produced */
    SIMDSV_END = 1,                        /* no more records (not an error) */
    SIMDSV_ERR_NOMEM = 2,                  /* an allocation failed */
    SIMDSV_ERR_INVALID_ARGUMENT = 3,       /* NULL handle, bad value, bad call order */
    SIMDSV_ERR_IO = 4,                     /* open/read/mmap failed (errno in error.os_errno) */
    SIMDSV_ERR_KERNEL_UNSUPPORTED = 5,     /* the requested kernel is not supported by this CPU/build */
    SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD = 6,/* a quote inside a field that did not start with one */
    SIMDSV_ERR_TEXT_AFTER_QUOTE = 7,       /* a closing quote followed by something other than a delimiter or record end */
    SIMDSV_ERR_UNTERMINATED_QUOTE = 8,     /* the input ended inside a quoted field */
    SIMDSV_ERR_INVALID_UTF8 = 9,           /* a byte sequence that is not UTF-8 (strict UTF-8 mode) */
    SIMDSV_ERR_RECORD_TOO_LARGE = 10,      /* a record longer than SIMDSV_OPT_MAX_RECORD_SIZE */
    SIMDSV_ERR_TOO_MANY_FIELDS = 11,       /* a record with more than SIMDSV_OPT_MAX_FIELDS fields */
    SIMDSV_ERR_BAD_DIALECT = 12,           /* delimiter/quote/escape/comment collide or are a line end */
    SIMDSV_ERR_UNKNOWN_OPTION = 13,        /* an option id this library version does not know */
    SIMDSV_ERR_VALUE = 14,                 /* a value does not fit its column's user-given type */
    SIMDSV_ERR_RAGGED_ROW = 15             /* a row with fewer or more fields than the header (ragged options) */
} simdsv_status;

/* "SIMDSV_ERR_UNTERMINATED_QUOTE" etc.; "SIMDSV_UNKNOWN_STATUS" for unknown codes. */
SIMDSV_API const char *simdsv_status_name(simdsv_status status);
/* A short English description: "the input ended inside a quoted field". */
SIMDSV_API const char *simdsv_status_message(simdsv_status status);

/* Everything known about a failure.  Positions describe the data error; for
 * errors that are not about the data (I/O, memory) they describe how far the
 * reader got.  Lines and columns are 1-based; a line ends at LF, CRLF or a
 * lone CR (also inside quoted fields).  The column counts UTF-8 characters
 * (code points; every invalid byte counts as one) from the start of the line,
 * so it matches what an editor shows.  record and field are 0-based indexes of
 * the physical record in the input (the header, when present, is record 0). */
typedef struct simdsv_error {
    simdsv_status code;
    uint64_t byte_offset;   /* offset of the offending byte in the input (after nothing is stripped: the BOM counts) */
    uint64_t line;
    uint64_t column;
    uint64_t record;
    uint64_t field;
    int os_errno;           /* errno for SIMDSV_ERR_IO, else 0 */
    char message[256];      /* NUL-terminated, names the problem; no file name (the caller knows it) */
} simdsv_error;

/* --------------------------------------------------------------- allocation */

/* Allocator hooks.  Every allocation the library makes goes through these.
 * realloc receives the old size so that arena-style allocators can work. */
typedef struct simdsv_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} simdsv_allocator;

/* ------------------------------------------------------------------ kernels */

/* The scanning kernels.  AUTO picks the fastest one the CPU supports; the
 * environment variable SIMDSV_KERNEL=scalar|sse42|avx2|avx512|neon overrides
 * AUTO (an explicit SIMDSV_OPT_KERNEL wins over the variable).  Every kernel
 * gives identical results. */
typedef enum simdsv_kernel {
    SIMDSV_KERNEL_AUTO = 0,
    SIMDSV_KERNEL_SCALAR = 1,   /* portable C, 64-bit SWAR */
    SIMDSV_KERNEL_SSE42 = 2,    /* x86-64 SSE4.2 + PCLMULQDQ */
    SIMDSV_KERNEL_AVX2 = 3,     /* x86-64 AVX2 + PCLMULQDQ + BMI1 */
    SIMDSV_KERNEL_AVX512 = 4,   /* x86-64 AVX-512 BW + VBMI2 + PCLMULQDQ */
    SIMDSV_KERNEL_NEON = 5      /* aarch64 NEON + PMULL */
} simdsv_kernel;
#define SIMDSV_KERNEL_COUNT 6

/* 1 if this build has the kernel and this CPU can run it (AUTO: always 1). */
SIMDSV_API int simdsv_kernel_supported(simdsv_kernel kernel);
/* "scalar", "sse42", "avx2", "avx512", "neon", "auto"; NULL for a bad value. */
SIMDSV_API const char *simdsv_kernel_name(simdsv_kernel kernel);
/* Parses a name as above; returns -1 when unknown. */
SIMDSV_API int simdsv_kernel_from_name(const char *name);
/* The kernel AUTO resolves to on this machine (after SIMDSV_KERNEL). Returns
 * SIMDSV_ERR_KERNEL_UNSUPPORTED if the variable names a kernel the CPU lacks,
 * SIMDSV_ERR_INVALID_ARGUMENT if it names no kernel at all. */
SIMDSV_API simdsv_status simdsv_kernel_best(simdsv_kernel *out);

/* ------------------------------------------------------------------ options */

typedef struct simdsv_options simdsv_options;

/* Option ids; the numbers are ABI and never reused.  Values are int64_t. */
typedef enum simdsv_option {
    SIMDSV_OPT_DELIMITER = 1,       /* byte 0..255, default ','; a delimiter of 2 to 4 bytes ("||", ", ")
                                       is set with SIMDSV_OPT_DELIMITER_STRING */
    SIMDSV_OPT_QUOTE = 2,           /* byte, or -1 for no quoting; default '"' */
    SIMDSV_OPT_ESCAPE = 3,          /* byte active inside quotes (ESC x -> x), or -1 (default): quotes are escaped by doubling */
    SIMDSV_OPT_COMMENT = 4,         /* byte: a record starting with it is skipped to the line end; -1 (default) for none */
    SIMDSV_OPT_HEADER = 5,          /* 1 (default): the first record is the header, see simdsv_reader_header(); 0: it is data */
    SIMDSV_OPT_SKIP_LINES = 6,      /* physical lines to skip before parsing (after the BOM), default 0 */
    SIMDSV_OPT_LENIENT = 7,         /* 0 (default): strict RFC 4180; 1: never fail, recover like Python's csv */
    SIMDSV_OPT_UTF8 = 8,            /* simdsv_utf8_mode, default SIMDSV_UTF8_STRICT */
    SIMDSV_OPT_KERNEL = 9,          /* simdsv_kernel, default AUTO */
    SIMDSV_OPT_BUFFER_SIZE = 10,    /* streaming buffer bytes, default 1 MiB (min 4 KiB); grows only for longer records */
    SIMDSV_OPT_MAX_RECORD_SIZE = 11,/* bytes per record, 0 = unlimited; default 1 GiB (SIMDSV_DEFAULT_MAX_RECORD_SIZE) */
    SIMDSV_OPT_MAX_FIELDS = 12,     /* fields per record, 0 = unlimited; default 2^20 (SIMDSV_DEFAULT_MAX_FIELDS) */
    SIMDSV_OPT_MMAP = 13,           /* 0 (default): read() files in a bounded buffer; 1: map regular files
                                       (slightly faster, but the file must not shrink while mapped: the OS
                                       signals SIGBUS on the missing pages, which a library cannot catch) */
    SIMDSV_OPT_COMMENT_CHAR = 14,   /* Unicode code point whose UTF-8 encoding marks a comment record, or -1;
                                       the same setting as SIMDSV_OPT_COMMENT, for non-ASCII markers */
    /* Typed reader (simdsv_table_read): */
    SIMDSV_OPT_THREADS = 15,        /* worker threads, 0 (default) = all cores, 1 = the caller's thread only;
                                       at most 256 are used; simdsv_reader_count uses them too */
    SIMDSV_OPT_INFER_ROWS = 16,     /* rows sampled for inference (start, middle, end); -1 = every row; default 10000 */
    SIMDSV_OPT_ROW_LIMIT = 17,      /* read at most this many data rows; 0 (default) = all */
    SIMDSV_OPT_ON_ERROR = 18,       /* simdsv_on_error: a value that does not fit a user-given type */
    SIMDSV_OPT_SHORT_ROWS = 19,     /* simdsv_ragged: rows with fewer fields than the header; default PAD (nulls) */
    SIMDSV_OPT_LONG_ROWS = 20,      /* simdsv_ragged: rows with more fields; default ERROR */
    SIMDSV_OPT_DECIMAL_COMMA = 21,  /* 1: floats use ',' as the decimal separator (1.5 is then text); default 0 */
    SIMDSV_OPT_BATCH_ROWS = 22,     /* rows per record batch of simdsv_table_stream(), 1..2^31-1; default 8192:
                                       a batch's value buffers (64 KiB per 8-byte column) stay in cache and
                                       under malloc's mmap/trim thresholds, so releasing a batch does not
                                       hand its pages back to the OS for the next one to fault in again
                                       (65536-row batches cost 1.2-1.6x the CPU and 10-20x the page faults) */
    SIMDSV_OPT_END_OFFSET = 23,     /* stop reading at this byte offset of the input (a footer or a second
                                       table after it, see simdsv_sniff); 0 (default) = read to the end */
    SIMDSV_OPT_TYPED_QUOTES = 24,   /* 1 (default): a quoted field is typed like the same text unquoted
                                       ("42" is an int64); 0: a quoted field is always a string */
    SIMDSV_OPT_HEADER_ROWS = 25,    /* rows of the header, 1 (default) to 1000: each column's name is its
                                       non-empty cells joined with a space; an empty cell of a row above
                                       the last takes its left neighbour's (a merged cell) */
    SIMDSV_OPT_DATE_ORDER = 26,     /* simdsv_date_order: dates the typed reader also reads besides ISO */
    SIMDSV_OPT_TRIM_SPACES = 27,    /* 1: spaces (0x20) before and after an unquoted field, and around a
                                       quoted one, are not data ("a, b , c" is a,b,c); default 0.  Like a
                                       delimiter of several bytes, it is read by the scalar record parser
                                       only, never by the SIMD kernels (its speed: docs/SNIFF.md) */
    SIMDSV_OPT_THOUSANDS = 28,      /* the typed reader's digit-group separator: ',' '.' ' ' '\'' '_', or
                                       -1 (default) for none.  "1,234,567" is the int64 1234567 and
                                       "1.234,56" (with SIMDSV_OPT_DECIMAL_COMMA) the float64 1234.56:
                                       groups of exactly three digits after a first group of one to
                                       three; a number without the separator reads as before */
    SIMDSV_OPT_COMPRESSION = 29,    /* simdsv_compression of a simdsv_input (readers opened otherwise
                                       ignore it): AUTO (default) tells gzip and zstd by their first
                                       bytes; NONE reads the bytes as they are; GZIP / ZSTD insist */
    /* Datasets (simdsv_dataset; readers ignore them): */
    SIMDSV_OPT_UNION_BY_NAME = 30,  /* 1: the files' columns are matched by name (a column a file lacks
                                       is null there); 0 (default): by position, and every file must
                                       have the first file's columns, in its order */
    SIMDSV_OPT_HIVE = 31,           /* simdsv_hive: `key=value` folders of the paths as columns */
    SIMDSV_OPT_STRINGS = 32         /* simdsv_strings: how the typed reader lays out string columns
                                       in Arrow; default UTF8 */
} simdsv_option;

/* Hive partitioning (SIMDSV_OPT_HIVE): a folder of a dataset file's path
 * named `key=value` (year=2024/month=05/part.csv) gives every row of the
 * file a column `key` holding `value`, typed as the typed reader infers a
 * field ("" and __HIVE_DEFAULT_PARTITION__ are null).  The columns follow
 * the files' own, in path order. */
typedef enum simdsv_hive {
    SIMDSV_HIVE_AUTO = 0, /* default: on when every path has the same keys in the same order (at least one) */
    SIMDSV_HIVE_ON = 1,   /* on; a path without those keys is an error naming it */
    SIMDSV_HIVE_OFF = 2
} simdsv_hive;

/* String columns of the typed reader (SIMDSV_OPT_STRINGS).
 *
 * UTF8: Arrow utf8 ("u"; "U" past 2 GiB of text): offsets and a copy of
 * every string's bytes.
 *
 * VIEW: Arrow string_view ("vu", the Utf8View layout of the Arrow columnar
 * format): one 16-byte view per row; a string of at most 12 bytes lives in
 * its view, a longer one is a length, its first four bytes, a buffer index
 * and an offset.  simdsv_table_read points the views of longer strings into
 * the input's own bytes when the field needs no decoding (no doubled quote
 * or escape, valid UTF-8): a file read with read() or mapped
 * (SIMDSV_OPT_MMAP), a stream or a converted input, whose held buffer the
 * exported arrays then share with the reader (the last of them to be
 * released frees it, or unmaps the file: the whole input stays in memory
 * while any array of the table that points into it lives).  Decoded strings, strings of a
 * caller's buffer (simdsv_reader_open_memory: the library cannot keep it
 * alive) and every string of simdsv_table_stream (its buffer moves on) are
 * copied into buffers of the column's own.  A dataset (simdsv_dataset)
 * reads utf8 whatever this says: its inputs' columns are concatenated.  Polars, DuckDB and pyarrow read
 * views; the writers (Parquet, Arrow IPC) take them too.  A mapped file must
 * not shrink while any array from it is alive (SIGBUS, as for the reader). */
typedef enum simdsv_strings {
    SIMDSV_STRINGS_UTF8 = 0,
    SIMDSV_STRINGS_VIEW = 1
} simdsv_strings;

/* Compressed input (SIMDSV_OPT_COMPRESSION, simdsv_input).  The decoders are
 * the system's zlib and libzstd, loaded with dlopen() the first time a
 * compressed input is opened (the library links neither): without them,
 * opening such an input fails with a message naming the package to install. */
typedef enum simdsv_compression {
    SIMDSV_COMPRESSION_AUTO = 0,  /* by the magic bytes: 1F 8B gzip, 28 B5 2F FD zstd, else none */
    SIMDSV_COMPRESSION_NONE = 1,
    SIMDSV_COMPRESSION_GZIP = 2,  /* one or more gzip members one after the other */
    SIMDSV_COMPRESSION_ZSTD = 3   /* one or more zstd frames */
} simdsv_compression;

/* Non-ISO dates (SIMDSV_OPT_DATE_ORDER): with an order other than ISO, the
 * typed reader also infers and reads D/M/Y (DMY), M/D/Y (MDY) or Y/M/D
 * (YMD) with '/', '.' or '-', 2- or 4-digit years (00-68: 20xx, 69-99:
 * 19xx), optionally followed by H:MM[:SS] and AM/PM: a date, or with a
 * time a timestamp.  simdsv_sniff decides the order over its sample. */
typedef enum simdsv_date_order {
    SIMDSV_DATE_ISO = 0,  /* default: YYYY-MM-DD only */
    SIMDSV_DATE_DMY = 1,
    SIMDSV_DATE_MDY = 2,
    SIMDSV_DATE_YMD = 3
} simdsv_date_order;

/* Default limits: far above real data (the widest real tables have tens of
 * thousands of columns), low enough that a hostile stream cannot make a
 * reader buffer more than about 1 GiB or allocate more than 24 MiB of field
 * views for one record.  Set 0 to lift them. */
#define SIMDSV_DEFAULT_MAX_RECORD_SIZE ((int64_t)1 << 30)
#define SIMDSV_DEFAULT_MAX_FIELDS ((int64_t)1 << 20)

typedef enum simdsv_utf8_mode {
    SIMDSV_UTF8_STRICT = 0,  /* invalid UTF-8 is SIMDSV_ERR_INVALID_UTF8 at the first bad byte */
    SIMDSV_UTF8_LOSSY = 1,   /* invalid bytes are flagged (SIMDSV_FIELD_INVALID_UTF8); text output replaces them by U+FFFD */
    SIMDSV_UTF8_NONE = 2     /* bytes are not checked */
} simdsv_utf8_mode;

/* alloc may be NULL (malloc/realloc/free).  The allocator is copied and used
 * by every reader created from these options.  Returns NULL on failure. */
SIMDSV_API simdsv_options *simdsv_options_new(const simdsv_allocator *alloc);
SIMDSV_API void simdsv_options_free(simdsv_options *opt);  /* NULL is fine */
/* SIMDSV_ERR_UNKNOWN_OPTION for an unknown id, SIMDSV_ERR_INVALID_ARGUMENT for
 * a value out of range.  Dialect collisions are reported when a reader is
 * created (SIMDSV_ERR_BAD_DIALECT). */
SIMDSV_API simdsv_status simdsv_options_set(simdsv_options *opt, simdsv_option id, int64_t value);
SIMDSV_API simdsv_status simdsv_options_get(const simdsv_options *opt, simdsv_option id, int64_t *value);

/* ------------------------------------------------------------------- reader */

typedef struct simdsv_reader simdsv_reader;

/* Field flags. */
#define SIMDSV_FIELD_QUOTED 1u           /* the field was enclosed in quotes (data excludes them) */
#define SIMDSV_FIELD_NEEDS_UNESCAPE 2u   /* data still holds doubled quotes / escapes: use simdsv_reader_unescape */
#define SIMDSV_FIELD_INVALID_UTF8 4u     /* (lossy UTF-8 mode) the field holds invalid UTF-8 */

/* A zero-copy view of one field. */
typedef struct simdsv_field {
    const char *data;
    size_t size;
    unsigned flags;
} simdsv_field;

/* One record.  fields[0..field_count) stay valid until the next call on the
 * reader.  A record always has at least one field (empty lines are skipped). */
typedef struct simdsv_record {
    const simdsv_field *fields;
    size_t field_count;
    uint64_t index;        /* 0-based record number; the header is not counted */
    uint64_t byte_offset;  /* input offset of the record's first byte */
} simdsv_record;

/* A callback source: fill buf with up to size bytes; return the count, 0 at
 * end of input, or -1 on error (set *os_errno if known).  Never seeked. */
typedef long long (*simdsv_read_fn)(void *ctx, void *buf, size_t size, int *os_errno);

/* Creates a reader (opt may be NULL for defaults; it is copied).  Returns
 * SIMDSV_ERR_BAD_DIALECT when the dialect is inconsistent and
 * SIMDSV_ERR_KERNEL_UNSUPPORTED when the kernel asked for (option or
 * SIMDSV_KERNEL) cannot run here. */
SIMDSV_API simdsv_status simdsv_reader_new(simdsv_reader **out, const simdsv_options *opt);
SIMDSV_API void simdsv_reader_free(simdsv_reader *r);  /* NULL is fine */

/* Sources.  A reader is opened once.  Memory: the caller keeps the bytes
 * alive and unchanged until the reader is freed; nothing is copied.  Path:
 * read() into the streaming buffer, or mapped with SIMDSV_OPT_MMAP=1.  fd and
 * FILE*: read with read()/fread(), never seeked, never closed (on a regular
 * file simdsv_reader_count may use pread(): see there).  Peak memory for the
 * streaming sources is the buffer plus the longest record. */
SIMDSV_API simdsv_status simdsv_reader_open_memory(simdsv_reader *r, const void *data, size_t size);
SIMDSV_API simdsv_status simdsv_reader_open_path(simdsv_reader *r, const char *path);
SIMDSV_API simdsv_status simdsv_reader_open_fd(simdsv_reader *r, int fd);
SIMDSV_API simdsv_status simdsv_reader_open_stdio(simdsv_reader *r, FILE *file);
SIMDSV_API simdsv_status simdsv_reader_open_callback(simdsv_reader *r, simdsv_read_fn fn, void *ctx);

/* The next data record: SIMDSV_OK and *rec filled, SIMDSV_END at the end, or
 * an error (details in simdsv_reader_error).  After a data error (quote,
 * UTF-8, limits) the reader stays usable: the next call continues with the
 * record after the offending one, so a validator can list every problem (a
 * stream record over SIMDSV_OPT_MAX_RECORD_SIZE is skipped without being
 * held, up to where the lenient rules end it).  Record sizes exclude the
 * line end.  I/O and memory errors are final. */
SIMDSV_API simdsv_status simdsv_reader_next(simdsv_reader *r, simdsv_record *rec);

/* The header record (SIMDSV_OPT_HEADER=1): reads it if not read yet.  Returns
 * SIMDSV_END for an empty input, SIMDSV_ERR_INVALID_ARGUMENT when headers are
 * off.  The view stays valid until the reader is freed. */
SIMDSV_API simdsv_status simdsv_reader_header(simdsv_reader *r, simdsv_record *rec);

/* Counts the remaining data records without materialising fields (quote
 * aware; validates quoting in strict mode, but neither UTF-8 nor the field
 * limit: use simdsv_reader_next for a full check).  The header, when there
 * is one, is read and checked as usual first.  *count receives the records
 * counted so far even when an error stops the count.
 * Threads: with SIMDSV_OPT_THREADS other than 1, an input in memory, mapped,
 * or in a regular file (path or descriptor: each thread then reads its part
 * with pread(), and the descriptor is left at the end of the file, as
 * reading it would leave it) is counted on up to that many threads, at least
 * 4 MiB each (so not below 8 MiB), in every dialect.  The result is the same
 * as on one thread: input with irregular quoting, an error, a cut that
 * cannot be proven (in a dialect with an escape byte, comments, lenient
 * recovery, a several-byte delimiter or trimmed spaces the cuts are made at
 * line ends and proven by the chunks' own reads), or anything else out of
 * the ordinary, is counted again on the caller's thread from where the count
 * began, so errors and lenient recovery are unchanged.  Pipes, FILE* and
 * callbacks are read on the caller's thread. */
SIMDSV_API simdsv_status simdsv_reader_count(simdsv_reader *r, uint64_t *count);

/* The decoded bytes of a field of the current record: doubled quotes and
 * escapes removed.  For a field without SIMDSV_FIELD_NEEDS_UNESCAPE this is
 * the field itself.  The result stays valid until the next call to
 * simdsv_reader_next. */
SIMDSV_API simdsv_status simdsv_reader_unescape(simdsv_reader *r, const simdsv_field *field,
                                                const char **data, size_t *size);

/* The last error of this reader (code SIMDSV_OK if none). Never NULL. */
SIMDSV_API const simdsv_error *simdsv_reader_error(const simdsv_reader *r);
/* The kernel this reader uses (never AUTO once created). */
SIMDSV_API simdsv_kernel simdsv_reader_kernel(const simdsv_reader *r);
/* Bytes of input consumed so far (after the BOM and skipped lines count too). */
SIMDSV_API uint64_t simdsv_reader_offset(const simdsv_reader *r);
/* The columns the caller reads, as a bit mask: bit j for the 0-based column
 * j < 63, bit 63 for every column from 63 on; every bit set (the default):
 * all of them.  UTF-8 (strict or lossy) is then checked only in the fields of
 * these columns, by simdsv_reader_next and simdsv_reader_next_batch alike:
 * an invalid byte elsewhere is neither an error nor flagged.  A batch gives
 * the flags of these columns only (another column's read 0, quoted or not;
 * its bounds still span its raw bytes).  Quoting, limits and the records are
 * checked and cut as before.  For a tool that drops columns (the CLI's
 * select, frequency): the bytes it never reads cost no validation.  Takes
 * effect from the next record; the typed reader and simdsv_reader_count
 * ignore it. */
SIMDSV_API void simdsv_reader_read_columns(simdsv_reader *r, uint64_t mask);
/* The UTF-8 check alone, as simdsv_reader_read_columns would set it (the
 * flags stay as they are): for a caller that checks the bytes it uses
 * itself (the CLI's search checks the records it writes, with 0).  Under a
 * mask that leaves a column out, simdsv_reader_skip checks nothing of the
 * records it passes over (it does not cut them into fields). */
SIMDSV_API void simdsv_reader_check_columns(simdsv_reader *r, uint64_t mask);

/* ------------------------------------------------------------------ batches */

/* Many records at once, zero-copy: the same records, fields, flags and
 * errors as simdsv_reader_next gives one by one, but as arrays of offsets,
 * so that a loop over them makes no call per record or field.
 *
 *     simdsv_batch b;
 *     while ((st = simdsv_reader_next_batch(r, &b)) == SIMDSV_OK)
 *         for (size_t k = 0; k < b.count; k++)
 *             for (size_t j = 0; j < simdsv_batch_fields(&b, k); j++) {
 *                 simdsv_field f = simdsv_batch_field(&b, k, j);
 *                 ... f.data, f.size; when f.flags & SIMDSV_FIELD_NEEDS_UNESCAPE,
 *                 simdsv_batch_decode(&b, &f, buf) (buf holds f.size bytes) ...
 *             }
 *     if (st != SIMDSV_END) report(simdsv_reader_error(r));
 *
 * Layout.  Record k owns the entries bounds[first[k] .. first[k+1]) (its
 * field count plus one).  With o = bounds + first[k], field j's raw bytes are
 * data[o[j], o[j+1] - 1): for a quoted field (flags[first[k] + j] has
 * SIMDSV_FIELD_QUOTED) they include the enclosing quotes, which the content
 * excludes: data[o[j] + 1, o[j+1] - 2).  simdsv_batch_field does this.
 * flags_any is the OR of every field's flags (0: no field is quoted, needs
 * decoding or holds invalid UTF-8, so the raw bytes are the text).
 *
 * Which records.  Regular records (RFC 4180 quoting, valid UTF-8 when
 * checked, within the limits) come from the kernel's index in long runs;
 * anything else (irregular quoting in lenient mode, a record across two scan
 * windows, the last record without a line end, a comment line...) is read by
 * the reader's general path and comes in the same kind of batch, possibly
 * holding fewer records.  A caller never needs a second loop: the batches
 * together hold exactly the records simdsv_reader_next would give, in order,
 * with the same field bytes (after decoding), flags, indexes and offsets.
 *
 * Lifetime.  Everything the batch points to belongs to the reader and stays
 * valid until the next call on the reader (any call: next, next_batch,
 * header, count...).  The header is read first (as simdsv_reader_next does)
 * and is never part of a batch: see simdsv_reader_header.
 *
 * Errors.  SIMDSV_OK: at least one record (count >= 1).  SIMDSV_END: no
 * more.  A data error is returned exactly where simdsv_reader_next would
 * return it (the batch before it holds the records before the bad one; the
 * error is never mixed into a batch) with the same simdsv_reader_error; the
 * next call goes on after the bad record.  I/O and memory errors are final.
 * A record of 4 GiB or more (possible only with SIMDSV_OPT_MAX_RECORD_SIZE
 * above that) cannot be described by 32-bit offsets: read it with
 * simdsv_reader_next (SIMDSV_ERR_RECORD_TOO_LARGE here, the reader goes on
 * after it). */
typedef struct simdsv_batch {
    size_t count;                  /* records in the batch */
    const char *data;              /* bounds are offsets from here */
    const uint32_t *bounds;        /* field boundaries, see above */
    const uint8_t *flags;          /* SIMDSV_FIELD_* per field, indexed like bounds */
    const size_t *first;           /* count + 1 entries: where each record's bounds start */
    const uint64_t *byte_offsets;  /* per record: input offset of its first byte (simdsv_record.byte_offset) */
    uint64_t first_index;          /* simdsv_record.index of record 0; record k has first_index + k */
    unsigned flags_any;            /* OR of all flags */
    int quote, escape;             /* the dialect (-1: none), for simdsv_batch_decode */
} simdsv_batch;

/* The next batch of data records (see above). */
SIMDSV_API simdsv_status simdsv_reader_next_batch(simdsv_reader *r, simdsv_batch *batch);

/* The 1-based line where record k of the last batch starts, for messages:
 * counts line ends from the batch's start, so it costs a pass over the
 * batch's bytes before the record.  0 when k is out of range or the batch is
 * no longer valid. */
SIMDSV_API uint64_t simdsv_reader_batch_line(simdsv_reader *r, const simdsv_batch *batch, size_t k);

/* Decodes a field of the batch (doubled quotes, escapes) into dst, which
 * holds at least field->size bytes; returns the decoded length.  A field
 * without SIMDSV_FIELD_NEEDS_UNESCAPE is copied as it is. */
SIMDSV_API size_t simdsv_batch_decode(const simdsv_batch *batch, const simdsv_field *field, char *dst);

/* Fields of record k. */
static inline size_t simdsv_batch_fields(const simdsv_batch *b, size_t k)
{
    return b->first[k + 1] - b->first[k] - 1;
}

/* Field j of record k as a view (quotes excluded, flags as simdsv_reader_next gives them). */
static inline simdsv_field simdsv_batch_field(const simdsv_batch *b, size_t k, size_t j)
{
    const size_t e = b->first[k] + j;
    /* Every flag is 0 when flags_any is: a caller's loop over a batch without
     * quotes then reads no flag (the compiler takes the test out of the loop). */
    const unsigned flags = b->flags_any ? b->flags[e] : 0u;
    const size_t q = (flags & SIMDSV_FIELD_QUOTED) ? 1 : 0;
    simdsv_field f;
    f.data = b->data + b->bounds[e] + q;
    f.size = (size_t)(b->bounds[e + 1] - 1 - b->bounds[e]) - 2 * q;
    f.flags = flags;
    return f;
}

/* ----------------------------------------------------------------- skipping */

/* Moves the reader past the data records whose bytes (from the record's
 * first byte to its line end, as in the input: quotes, doubled quotes and
 * separators included) do not contain the `size` bytes at `needle`, and adds
 * their number to *skipped; a search then reads only the records that may
 * hold it.  With SIMDSV_SKIP_ICASE, ASCII letters match in either case.
 * Only records that simdsv_reader_next would return without an error are
 * skipped (record indexes and offsets after them are unchanged); the skip
 * stops at the first record holding the needle or at one it cannot vouch
 * for cheaply (irregular quoting, a comment line, invalid UTF-8 in strict
 * mode, a record of 256 KiB or more, the last record without a line end, a
 * delimiter of several bytes or trimmed spaces, ...),
 * so the next record read may or may not hold the needle: look.  Returns
 * SIMDSV_OK, or an I/O or memory error.  An empty needle skips nothing. */
#define SIMDSV_SKIP_ICASE 1u
SIMDSV_API simdsv_status simdsv_reader_skip(simdsv_reader *r, const void *needle, size_t size, unsigned flags,
                                            uint64_t *skipped);

/* ------------------------------------------------------------------- helpers */

/* Decodes a field into dst, which must hold field->size bytes (decoding never
 * lengthens).  quote/escape as in the options (-1 for none).  Returns the
 * decoded length. */
SIMDSV_API size_t simdsv_unescape(const simdsv_field *field, int quote, int escape, char *dst);

/* UTF-8 validation of a whole buffer with the best kernel.  Returns 1 if
 * valid; otherwise 0 and *error_offset (if not NULL) is the offset of the
 * first byte of the first invalid sequence. */
SIMDSV_API int simdsv_utf8_valid(const void *data, size_t size, size_t *error_offset);

/* Lossy UTF-8: copies src to dst replacing each maximal invalid subsequence
 * by U+FFFD (the WHATWG/Unicode "maximal subpart" rule).  dst must hold
 * 3 * size bytes.  Returns the bytes written. */
SIMDSV_API size_t simdsv_utf8_lossy(const void *src, size_t size, char *dst);

/* ------------------------------------------------------------ typed reader */

/* The Arrow C Data Interface (https://arrow.apache.org/docs/format/CDataInterface.html),
 * defined here exactly as the specification gives it, guarded so that it
 * coexists with arrow/c/abi.h or nanoarrow. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};
struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
#endif
#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};
#endif

/* Column types.  Arrow formats: bool "b", int64 "l", float64 "g", date
 * "tdD" (int32 days since 1970-01-01), timestamp "tsu:" (int64
 * microseconds since 1970-01-01T00:00:00, naive wall-clock time) or, when
 * the inference sample's timestamps had offsets ('Z', +HH:MM), "tsu:UTC"
 * (instants; values with an offset are normalised to UTC, values without
 * one in such a column are taken as UTC), string "u" (or "U" when a column
 * holds 2 GiB of text or more), null "n". */
typedef enum simdsv_type {
    SIMDSV_TYPE_NULL = 0,
    SIMDSV_TYPE_BOOL = 1,
    SIMDSV_TYPE_INT64 = 2,
    SIMDSV_TYPE_FLOAT64 = 3,
    SIMDSV_TYPE_DATE = 4,
    SIMDSV_TYPE_TIMESTAMP = 5,
    SIMDSV_TYPE_STRING = 6
} simdsv_type;
#define SIMDSV_TYPE_COUNT 7

/* "null", "bool", "int64", "float64", "date", "timestamp", "string"; NULL if unknown. */
SIMDSV_API const char *simdsv_type_name(simdsv_type type);
/* The type of a name as above (also "int", "float", "str", "boolean"); -1 if unknown. */
SIMDSV_API int simdsv_type_from_name(const char *name);

typedef enum simdsv_on_error {
    SIMDSV_ON_ERROR_FAIL = 0, /* a value that does not fit a user-given type is an error with its position */
    SIMDSV_ON_ERROR_NULL = 1  /* it becomes null and is listed in the rejects */
} simdsv_on_error;

typedef enum simdsv_ragged {
    SIMDSV_RAGGED_ERROR = 0,    /* an error with the position */
    SIMDSV_RAGGED_PAD = 1,      /* short rows: missing fields are null */
    SIMDSV_RAGGED_TRUNCATE = 2  /* long rows: extra fields are dropped */
} simdsv_ragged;

/* String-valued options (copied).  Lists are comma-separated; a backslash
 * escapes a comma or a backslash inside an item.
 *   SIMDSV_OPT_NULL_VALUES   tokens read as null in every column, e.g. "NA,NULL,\\N"; an item
 *                            "name=TOKEN" applies to that column only.  Always: an empty
 *                            unquoted field is null (a quoted empty field is the empty string);
 *                            tokens match unquoted fields only.
 *   SIMDSV_OPT_TRUE_VALUES / SIMDSV_OPT_FALSE_VALUES   bool tokens (default true,True,TRUE / false,False,FALSE)
 *   SIMDSV_OPT_COLUMNS       projection: names or 1-based indexes ("#3" or "3"), in output order;
 *                            fields of other columns are never converted
 *   SIMDSV_OPT_SCHEMA        "name:type,..." (or "#3:type"); "*:string" reads every column as string;
 *                            columns not named are inferred
 *                            Names in a typed read are unique: a repeated name takes the first
 *                            suffix _2, _3, ... that no field has ("a,b,a": a, b, a_2), an empty one
 *                            is column_N (N its 1-based field); SIMDSV_OPT_COLUMNS, SIMDSV_OPT_SCHEMA
 *                            and "name=TOKEN" null tokens name these unique names.
 *   SIMDSV_OPT_NAMES         column names for input without a header row (SIMDSV_OPT_HEADER=0), in
 *                            field order, instead of column_1, column_2, ...; a header row, when read,
 *                            wins.  For the ranges of one file (see "byte ranges"): the header's names. */
typedef enum simdsv_string_option {
    SIMDSV_OPT_NULL_VALUES = 100,
    SIMDSV_OPT_TRUE_VALUES = 101,
    SIMDSV_OPT_FALSE_VALUES = 102,
    SIMDSV_OPT_COLUMNS = 103,
    SIMDSV_OPT_SCHEMA = 104,
    SIMDSV_OPT_NAMES = 105,
    SIMDSV_OPT_ENCODING = 106,      /* the input's encoding; the reader sees UTF-8: "utf-8" (default),
                                       "utf-16le", "utf-16be", "iso-8859-1" (latin1), "windows-1252"
                                       (cp1252) are converted by the library itself, any other name
                                       by the C library's iconv (SIMDSV_ERR_INVALID_ARGUMENT when it
                                       does not know the name).  Byte offsets in errors count the
                                       converted UTF-8 bytes; lines and columns are those of the file. */
    SIMDSV_OPT_DELIMITER_STRING = 107, /* the delimiter as 1 to 4 bytes ("||", "::", ", "; "" = ","); a
                                       byte of it may not be CR, LF, the quote or the escape.  With more
                                       than one byte every record is read by the scalar record parser,
                                       not the SIMD kernels (see docs/SNIFF.md for its speed).
                                       SIMDSV_OPT_DELIMITER sets a one-byte delimiter (NUL included) */
    SIMDSV_OPT_COMMENT_STRING = 108, /* the comment marker as 1 to 4 bytes ("#", "//"; "" = none): a
                                       record starting with all of them is skipped to the line end
                                       (a line starting with one '/' is data under "//").  The same
                                       setting as SIMDSV_OPT_COMMENT and SIMDSV_OPT_COMMENT_CHAR */
    SIMDSV_OPT_FILENAME_COLUMN = 109 /* datasets: the name of a last string column holding each row's
                                       file (its path as listed by simdsv_dataset_file); "" (default)
                                       = none.  At most 255 bytes of UTF-8 */
} simdsv_string_option;

/* NULL (or "") resets to the default.  SIMDSV_ERR_INVALID_ARGUMENT for a
 * malformed value (a schema item that is not NAME:TYPE, an unknown type),
 * and simdsv_options_error() says what was wrong.  The value is parsed once,
 * here: the typed reader uses the parsed items. */
SIMDSV_API simdsv_status simdsv_options_set_string(simdsv_options *opt, simdsv_string_option id, const char *value);
/* The encoding set with SIMDSV_OPT_ENCODING ("" when unset), the delimiter
 * (SIMDSV_OPT_DELIMITER_STRING; "" for a NUL delimiter), the comment marker
 * (SIMDSV_OPT_COMMENT_STRING; "" for none or a NUL byte); the list
 * options are parsed when set and not kept as text: "" for them.  Valid
 * until it is set again or the options are freed. */
SIMDSV_API const char *simdsv_options_get_string(const simdsv_options *opt, simdsv_string_option id);

/* Structured forms of the same options, for programs that would rather not
 * build (and escape) strings.  Each call adds one item after those already
 * set, exactly as one more item of the string would:
 *   set_column_type     column `name` (a header name, taken literally: no
 *                       escapes, no index reading; "*" = every column not
 *                       named otherwise) reads as type;
 *   set_column_type_at  the column at 0-based field index reads as type;
 *   select_column(_at)  appends a column to the projection (SIMDSV_OPT_COLUMNS).
 * simdsv_options_set_string(opt, id, NULL) clears them.
 * SIMDSV_ERR_INVALID_ARGUMENT for a NULL or empty name or an unknown type. */
SIMDSV_API simdsv_status simdsv_options_set_column_type(simdsv_options *opt, const char *name, simdsv_type type);
SIMDSV_API simdsv_status simdsv_options_set_column_type_at(simdsv_options *opt, size_t index, simdsv_type type);
/* Column `name` (a unique name of the typed read) stays inferred, but from
 * `type` up: its type is the join of `type` and its sampled values, and its
 * values follow the inferred rules (no leading zeros in int64, no integer
 * past 2^53 in float64).  With simdsv_table_stream_misfit, a reader of a
 * regular file reads again with the type a single read would widen to. */
SIMDSV_API simdsv_status simdsv_options_set_column_min_type(simdsv_options *opt, const char *name, simdsv_type type);
SIMDSV_API simdsv_status simdsv_options_select_column(simdsv_options *opt, const char *name);
SIMDSV_API simdsv_status simdsv_options_select_column_at(simdsv_options *opt, size_t index);
/* Why the last simdsv_options_set_string call on opt was refused, e.g.
 * "unknown type 'money' in `price:money`; known: null bool int64 ...";
 * "" when it was not.  Valid until the next call on opt. */
SIMDSV_API const char *simdsv_options_error(const simdsv_options *opt);

typedef struct simdsv_table simdsv_table;

/* One column's description.  reason says why the type was chosen, e.g.
 * "string: leading zero in `00501` at line 17". */
typedef struct simdsv_column_info {
    const char *name;
    simdsv_type type;
    const char *reason;
    uint64_t null_count;      /* 0 for a schema-only table */
    int user_type;            /* 1 if the type came from SIMDSV_OPT_SCHEMA */
} simdsv_column_info;

/* A value that did not fit its column's user-given type (with SIMDSV_ON_ERROR_NULL). */
typedef struct simdsv_reject {
    uint64_t line;            /* 1-based line of the row */
    uint64_t row;             /* 0-based data row */
    size_t column;            /* 0-based output column */
    uint64_t byte_offset;     /* of the row */
    const char *value;        /* the field's text (decoded), NUL-terminated */
    const char *reason;
} simdsv_reject;

/* Reads every remaining record of the reader into typed columns (honouring
 * the typed options).  The whole input is held in memory (a stream is read to
 * its end first; a path opened with SIMDSV_OPT_MMAP=1 is used in place).
 * Inference samples the start, the middle and the end of the data rows
 * (SIMDSV_OPT_INFER_ROWS, -1 = every row); a later value that does not fit
 * an inferred type widens its column (the column's earlier raw values are
 * re-read: nothing is rounded or truncated; floats mixed with integers past
 * 2^53, which float64 would round, make the column a string column).  On
 * failure *out is NULL and
 * simdsv_reader_error() says why. */
SIMDSV_API simdsv_status simdsv_table_read(simdsv_reader *r, simdsv_table **out);
/* Only the schema (names, types, reasons) from the inference sample; no
 * rows.  Only the sample is read: an input in memory is sampled in place; a
 * regular file (path or descriptor, not converted or cut) has its first
 * 8 MiB read (more only for a longer first row) and its middle and end
 * windows read with pread(), so its size does not matter (a value found in
 * those windows is named in the reason by its row's byte offset, not its
 * line); any other stream gives its first 8 MiB, sampled at its start,
 * middle and end.  SIMDSV_OPT_INFER_ROWS = -1 reads the whole input.  A
 * record that does not parse among the rows sampled from the start (the
 * first record included) fails the call with the error simdsv_table_read
 * would report, rather than giving a schema of what came before it. */
SIMDSV_API simdsv_status simdsv_table_infer(simdsv_reader *r, simdsv_table **out);
SIMDSV_API void simdsv_table_free(simdsv_table *t);  /* NULL is fine */
SIMDSV_API uint64_t simdsv_table_rows(const simdsv_table *t);
SIMDSV_API size_t simdsv_table_columns(const simdsv_table *t);
/* Strings stay valid until the table is freed. */
SIMDSV_API simdsv_status simdsv_table_column(const simdsv_table *t, size_t index, simdsv_column_info *info);
SIMDSV_API size_t simdsv_table_reject_count(const simdsv_table *t);
SIMDSV_API const simdsv_reject *simdsv_table_reject(const simdsv_table *t, size_t index);

/* A typed view of one column, zero-copy: the table's own buffers, valid
 * until the table is freed or its rows are moved out.  Row i holds a value
 * when bit i of validity is set (bits are LSB first: validity[i / 8] >>
 * (i % 8) & 1); validity is NULL when no row does (a null column, or no
 * rows).  values, by type: bool a bitmap like validity; int64 and timestamp
 * int64_t[length] (microseconds since the epoch, UTC); float64
 * double[length]; date int32_t[length] (days since 1970-01-01); string the
 * offsets: offset_width bytes each (4: int32_t, 8: int64_t), length + 1 of
 * them, row i's text being bytes[offsets[i] .. offsets[i + 1]) (UTF-8, not
 * NUL-terminated); NULL for a null column or no rows.  A string column
 * read as views (SIMDSV_STRINGS_VIEW) has offsets NULL and views instead:
 * length Arrow string views of 16 bytes, whose buffer indexes name
 * view_buffers' entries.  The functions after this one read a row without
 * minding the widths or the layout. */
typedef struct simdsv_column_view {
    simdsv_type type;
    uint64_t length;
    uint64_t null_count;
    const uint8_t *validity;
    const void *values;   /* bool, numbers, dates, timestamps (NULL for strings) */
    const void *offsets;  /* strings */
    size_t offset_width;  /* 4 or 8 (strings), else 0 */
    const char *bytes;    /* strings */
    const void *views;    /* strings read as views, else NULL */
    const char *const *view_buffers;
} simdsv_column_view;

/* Fills *view for column index.  SIMDSV_ERR_INVALID_ARGUMENT for a bad index. */
SIMDSV_API simdsv_status simdsv_table_column_view(const simdsv_table *t, size_t index, simdsv_column_view *view);
/* The index of the first column called name (output order), or -1. */
SIMDSV_API long simdsv_table_column_index(const simdsv_table *t, const char *name);

/* Row i of a view (i < length): whether it holds a value, and the value. */
static inline int simdsv_view_valid(const simdsv_column_view *v, uint64_t i)
{
    return v->validity && (v->validity[i / 8] >> (i % 8)) & 1;
}
static inline int simdsv_view_bool(const simdsv_column_view *v, uint64_t i)
{
    return (((const uint8_t *)v->values)[i / 8] >> (i % 8)) & 1;
}
static inline int64_t simdsv_view_int64(const simdsv_column_view *v, uint64_t i) /* int64, timestamp */
{
    return ((const int64_t *)v->values)[i];
}
static inline double simdsv_view_float64(const simdsv_column_view *v, uint64_t i)
{
    return ((const double *)v->values)[i];
}
static inline int32_t simdsv_view_date(const simdsv_column_view *v, uint64_t i)
{
    return ((const int32_t *)v->values)[i];
}
static inline const char *simdsv_view_string(const simdsv_column_view *v, uint64_t i, size_t *size)
{
    int64_t from, to;
    if (v->views) { /* length, then the bytes inline, or prefix, buffer index and offset */
        const int32_t *view = (const int32_t *)v->views + 4 * i;
        *size = (size_t)view[0];
        return view[0] <= 12 ? (const char *)(view + 1) : v->view_buffers[view[2]] + view[3];
    }
    if (v->offset_width == 8) {
        from = ((const int64_t *)v->offsets)[i];
        to = ((const int64_t *)v->offsets)[i + 1];
    } else {
        from = ((const int32_t *)v->offsets)[i];
        to = ((const int32_t *)v->offsets)[i + 1];
    }
    *size = (size_t)(to - from);
    return v->bytes + from;
}

/* Moves the table's rows into an Arrow struct array: *schema and *array
 * (caller-allocated) are filled and own everything they point to; the
 * consumer calls schema->release(schema) and array->release(array) exactly
 * once each, in any order, from any thread (a child moved out of the array
 * must have its release set to NULL by the consumer, as the specification
 * says).  The table keeps its schema information but holds no rows after
 * this.  The top-level array has format "+s", one child per column. */
SIMDSV_API simdsv_status simdsv_table_move_to_arrow(simdsv_table *t, struct ArrowSchema *schema,
                                                   struct ArrowArray *array);

/* Reads the remaining records as an Arrow C stream of record batches, in
 * bounded memory: each get_next() returns a "+s" array of at most
 * SIMDSV_OPT_BATCH_ROWS rows (fewer when a string column reaches 1 GiB),
 * then an array with release == NULL at the end.  The schema is fixed
 * before the first batch: user-given types, the rest inferred from a sample
 * of the first 8 MiB of data rows (SIMDSV_OPT_INFER_ROWS rows: half from the
 * start of that window, a quarter from its middle, a quarter from its last
 * tenth; every row of it when it holds no more).  An inferred type cannot
 * widen afterwards: a later value that does not fit it is an error naming
 * its line, column and byte (get_next returns EINVAL, get_last_error() says
 * where and why; simdsv_table_stream_misfit the type to read again with),
 * or a null listed in the stream's rejects with SIMDSV_ON_ERROR_NULL.  ENOMEM and
 * EIO are returned as such; after an error every call returns it again.
 * Ownership: on SIMDSV_OK the stream owns r (out->release frees it; do not
 * free r yourself); on failure the caller still owns r and *out is
 * untouched.  Every array and schema handed out owns its memory and has its
 * own release; stream calls are not to be made concurrently. */
SIMDSV_API simdsv_status simdsv_table_stream(simdsv_reader *r, struct ArrowArrayStream *out);
/* After get_next failed: the error with its code and position (line, column,
 * byte offset, record, field), as simdsv_reader_error gives a reader's;
 * NULL before a failure or for a stream not made by simdsv_table_stream.
 * Valid until the stream is released. */
SIMDSV_API const simdsv_error *simdsv_table_stream_error(struct ArrowArrayStream *stream);
/* The values made null so far (SIMDSV_ON_ERROR_NULL), rows counted from the
 * stream's first data row; 0 / NULL for a stream not made by simdsv_table_stream
 * or simdsv_dataset_stream (whose rejects come with the batch that holds
 * them: columns the dataset's, line and byte those of their input, which
 * simdsv_dataset_stream_reject_file gives).  Valid until the stream is
 * released. */
SIMDSV_API size_t simdsv_table_stream_reject_count(struct ArrowArrayStream *stream);
SIMDSV_API const simdsv_reject *simdsv_table_stream_reject(struct ArrowArrayStream *stream, size_t index);
/* Forgets the rejects listed so far (pointers to them become invalid; the
 * next one listed has index 0): a consumer that handles each batch's
 * rejects as it goes keeps a long stream's memory bounded. */
SIMDSV_API void simdsv_table_stream_clear_rejects(struct ArrowArrayStream *stream);
/* Column index of the stream's schema as simdsv_table_column describes a
 * table's (user_type tells a --schema type from an inferred one; null_count
 * is 0).  SIMDSV_ERR_INVALID_ARGUMENT for a bad index or a stream not made
 * by simdsv_table_stream or simdsv_dataset_stream.  Strings stay valid until the stream is released. */
SIMDSV_API simdsv_status simdsv_table_stream_column(struct ArrowArrayStream *stream, size_t index,
                                                     simdsv_column_info *info);
/* After get_next failed on a value that does not fit an inferred type (a
 * late misfit: past the sample, with SIMDSV_ON_ERROR_FAIL): the column's
 * index and the type a single read (simdsv_table_read) widens it to there
 * (the join of its type and the value's; string when they join to the
 * same).  SIMDSV_ERR_INVALID_ARGUMENT when the stream's error was no such
 * misfit.  Reading the input again with simdsv_options_set_column_min_type
 * for that column (until no misfit is left) gives the single read's schema. */
SIMDSV_API simdsv_status simdsv_table_stream_misfit(struct ArrowArrayStream *stream, size_t *index,
                                                    simdsv_type *widened);

/* -------------------------------------------------------------------- sniff */

/* Dialect detection: what the options of a file should be, decided over a
 * bounded sample (the first 256 KiB; of a regular file also 64 KiB from the
 * middle and from the end), with a confidence and a reason for each decision.
 *
 *     simdsv_sniff *s = NULL;
 *     if (simdsv_sniff_path("data.csv", NULL, 0, &s) == SIMDSV_OK) {
 *         simdsv_sniff_apply(s, opt);          // then read as usual
 *         puts(s->decisions[SIMDSV_SNIFF_DELIMITER].reason);
 *     }
 *     simdsv_sniff_free(s);
 *
 * Settings the caller already knows are passed in `given` (a bit
 * 1u << SIMDSV_SNIFF_x per setting) and taken from `opt` instead of being
 * detected; the other decisions then take them into account.  Detection
 * never fails on the data: binary input, an empty file or one line give an
 * answer with a low confidence and a reason ("not sure ..."). */
typedef enum simdsv_sniff_setting {
    SIMDSV_SNIFF_ENCODING = 0,   /* from SIMDSV_OPT_ENCODING when given */
    SIMDSV_SNIFF_DELIMITER = 1,
    SIMDSV_SNIFF_QUOTE = 2,
    SIMDSV_SNIFF_ESCAPE = 3,
    SIMDSV_SNIFF_LINE_ENDING = 4,  /* reported only: the reader takes LF, CRLF and CR alike */
    SIMDSV_SNIFF_COMMENT = 5,
    SIMDSV_SNIFF_PREAMBLE = 6,     /* lines before the table: SIMDSV_OPT_SKIP_LINES */
    SIMDSV_SNIFF_FOOTER = 7,       /* lines after the table: SIMDSV_OPT_END_OFFSET */
    SIMDSV_SNIFF_HEADER = 8,       /* SIMDSV_OPT_HEADER */
    SIMDSV_SNIFF_HEADER_ROWS = 9,  /* rows of the header (names of a column joined with a space) */
    SIMDSV_SNIFF_TABLES = 10,      /* several tables: which one is read (simdsv_sniff_params.table) */
    SIMDSV_SNIFF_PADDING = 11,     /* spaces after each delimiter: SIMDSV_OPT_TRIM_SPACES */
    SIMDSV_SNIFF_DECIMAL = 12,     /* decimal comma and thousands: SIMDSV_OPT_DECIMAL_COMMA, SIMDSV_OPT_THOUSANDS */
    SIMDSV_SNIFF_DATES = 13        /* the order of non-ISO dates: SIMDSV_OPT_DATE_ORDER */
} simdsv_sniff_setting;
#define SIMDSV_SNIFF_SETTING_COUNT 14

/* "encoding", "delimiter", ... for messages and JSON keys; NULL if unknown. */
SIMDSV_API const char *simdsv_sniff_setting_name(simdsv_sniff_setting setting);

typedef struct simdsv_sniff_decision {
    double confidence;  /* 0..1; below 0.6 means "not sure": the default or the best guess is kept */
    const char *reason; /* e.g. "delimiter ';': 6 fields in 200 of 200 sampled rows; ',' gives 1-3" */
    int given;          /* 1 when the caller gave the setting */
} simdsv_sniff_decision;

/* One table of the file.  Lines are 1-based physical lines of the input. */
typedef struct simdsv_sniff_table {
    uint64_t first_line;   /* its header (or first row) */
    uint64_t last_line;    /* its last data row; 0 when it runs past the sample to the end */
    uint64_t header_rows;  /* 0: no header */
    size_t columns;
    uint64_t byte_start;   /* input offset of first_line */
    uint64_t byte_end;     /* input offset just past the table (0: to the end of the input) */
    uint64_t data_start;   /* the table read: input offset of its first row below the header rows
                              (0: not in the sample, or not known for an iconv encoding) */
} simdsv_sniff_table;

/* A line of the table read that is not data: a copy of its header inside
 * the table (files concatenated), found among the sample's first 1000 rows
 * when the header is text over typed columns.  simdsv_sniff_apply cannot
 * leave it out (no reader option cuts one line): a reader that should skip
 * it reads the input without [byte_start, byte_end), as simdsv_input_detect
 * has a simdsv_input do (simdsv_sniff_kept_ranges). */
typedef struct simdsv_sniff_line {
    uint64_t line;       /* 1-based physical line of the input */
    uint64_t byte_start; /* input offsets of the line, its line end included */
    uint64_t byte_end;
} simdsv_sniff_line;

/* One column of the table read. */
typedef struct simdsv_sniff_column {
    const char *name;      /* the header's name (rows joined with a space), or "" without a header */
    simdsv_type type;      /* as the typed reader will infer it (quoted fields typed like unquoted ones) */
    const char *format;    /* "" or a value format the typed reader does not infer: "%m/%d/%Y",
                              "%d.%m.%Y %H:%M", "%m/%d/%y %I:%M %p", "decimal comma", "1.234,56" ... */
    double confidence;
    const char *reason;    /* e.g. "day/month order: 14 of 200 values have a first part above 12" */
} simdsv_sniff_column;

typedef struct simdsv_sniff {
    /* The dialect, as options (simdsv_sniff_apply sets them). */
    const char *encoding;      /* "utf-8", "utf-16le", "utf-16be", "iso-8859-1", "windows-1252", or the name given */
    int bom;                   /* 1 if the input starts with a byte order mark */
    char delimiter[5];         /* 1 to 4 bytes, NUL-terminated (SIMDSV_OPT_DELIMITER_STRING) */
    int quote;                 /* byte or -1 */
    int escape;                /* byte or -1 (quotes doubled) */
    const char *line_ending;   /* "LF", "CRLF", "CR" */
    int comment;               /* byte or -1 */
    const char *comment_marker;/* "#", "//", "%" or "" */
    uint64_t skip_lines;       /* preamble lines (and the lines of the tables before the one read) */
    uint64_t footer_lines;     /* lines after the table read */
    uint64_t end_offset;       /* input offset where the table read ends, 0 = the end */
    int header;                /* 1: the table has a header */
    uint64_t header_rows;
    int padding;               /* 1: a space follows every delimiter: SIMDSV_OPT_TRIM_SPACES */
    int decimal_comma;
    simdsv_date_order date_order; /* of the non-ISO date columns (SIMDSV_OPT_DATE_ORDER) */
    int binary;                /* 1: the sample is not text (NUL bytes on half its lines or more, or mostly
                                  control bytes; fewer NULs are values' bytes); nothing else is reliable */
    simdsv_sniff_decision decisions[SIMDSV_SNIFF_SETTING_COUNT];
    size_t table_count;
    const simdsv_sniff_table *tables;
    size_t table;              /* 0-based index of the table read */
    size_t column_count;
    const simdsv_sniff_column *columns;
    uint64_t sampled_rows;
    uint64_t sampled_bytes;
    uint64_t input_size;       /* 0 when unknown (memory: the size given) */
    int thousands;             /* digit-group separator of the numbers (',' in 1,234.5, '.' in 1.234,5), 0: none
                                  (SIMDSV_OPT_THOUSANDS) */
    size_t repeated_header_count;              /* lines of the table read that repeat its header */
    const simdsv_sniff_line *repeated_headers; /* in input order (NULL when none) */
} simdsv_sniff;

/* What the caller already knows. */
typedef struct simdsv_sniff_params {
    const simdsv_options *opt; /* values of the given settings (NULL: defaults) and the allocator */
    unsigned given;            /* 1u << SIMDSV_SNIFF_x for each setting taken from opt */
    uint64_t header_rows;      /* with 1u << SIMDSV_SNIFF_HEADER_ROWS in given */
    size_t table;              /* 0-based table to read */
    int partial;               /* simdsv_sniff_memory: data is only the start of a longer input */
    int dialect_only;          /* 1: for a reader of records, not of typed values: every option
                                  simdsv_sniff_apply sets is detected as without it, except the decimal
                                  comma, thousands separator and date order (left at their defaults);
                                  columns get their names only (type SIMDSV_TYPE_NULL), and the header's
                                  confidence and reason leave out the counts.  A fraction of the time. */
} simdsv_sniff_params;

/* Detects over data[0..size): the whole input, or with params->partial a
 * stream's first bytes (then footers are not looked for).  params may be NULL.
 * *out is freed with simdsv_sniff_free.  Errors: NOMEM, INVALID_ARGUMENT. */
SIMDSV_API simdsv_status simdsv_sniff_memory(const void *data, size_t size, const simdsv_sniff_params *params,
                                             simdsv_sniff **out);
/* The same over a file: its start, middle and end (IO with errno in *os_errno). */
SIMDSV_API simdsv_status simdsv_sniff_path(const char *path, const simdsv_sniff_params *params, simdsv_sniff **out,
                                           int *os_errno);
/* Sets the detected options on opt: delimiter (all its bytes), trimmed
 * spaces, quote, escape, comment, header and its rows, skip lines, end
 * offset, decimal comma, thousands separator, date order and the encoding.  Settings given to the sniff are set
 * to the value given. */
SIMDSV_API simdsv_status simdsv_sniff_apply(const simdsv_sniff *sniff, simdsv_options *opt);
/* What a read as detected leaves out of the table read, for a message:
 * "lines 1-3 (a preamble); lines starting with '#' (comments); lines 14, 27
 * (repeat the header); the last 2 lines (a footer)", or "" when every line
 * is read (the tables not read are listed by s->tables; settings given to
 * the sniff are not said).  Writes at most cap
 * bytes, NUL included, and returns the length of the whole text (snprintf's
 * contract: a return >= cap means it was cut). */
SIMDSV_API size_t simdsv_sniff_left_out(const simdsv_sniff *sniff, char *buf, size_t cap);
/* The byte ranges of the input that read the table without its repeated
 * headers: pairs [begin, end) in ranges[0..2 cap), the first from 0, the
 * last to sniff->end_offset (0: the end).  Returns how many pairs there are
 * (repeated_header_count + 1), 0 when there is no repeated header (the
 * options alone read the table); writes at most cap of them. */
SIMDSV_API size_t simdsv_sniff_kept_ranges(const simdsv_sniff *sniff, uint64_t *ranges, size_t cap);
SIMDSV_API void simdsv_sniff_free(simdsv_sniff *sniff); /* NULL is fine */

/* ------------------------------------------------------------------- inputs */

/* An input read as simdsv reads files with no options: "detect, then read
 * exactly as if the options were given".  It opens a path, a descriptor or a
 * buffer, decodes gzip / zstd (SIMDSV_OPT_COMPRESSION), detects the encoding,
 * dialect and layout (simdsv_sniff) and opens a reader with them; every
 * setting the caller gives wins over detection.
 *
 *     simdsv_options *opt = simdsv_options_new(NULL);
 *     simdsv_error err;
 *     simdsv_input *in = NULL;
 *     simdsv_reader *r = NULL;
 *     simdsv_sniff_params p = {opt, 0};          // nothing given: detect all
 *     if (simdsv_input_open_path(&in, "data.csv.gz", opt, &err) == SIMDSV_OK &&
 *         simdsv_input_detect(in, &p, opt, NULL, &err) == SIMDSV_OK &&
 *         simdsv_reader_new(&r, opt) == SIMDSV_OK &&
 *         simdsv_input_open_reader(in, r) == SIMDSV_OK)
 *         ...  // simdsv_reader_next, simdsv_table_read, ...
 *     simdsv_reader_free(r);                     // the reader first:
 *     simdsv_input_free(in);                     // it reads from the input
 *
 * A plain regular file is sampled at its start, middle and end and then
 * read by its path (so counts and typed reads use threads and pread()); a
 * stream (a pipe, compressed data, a descriptor) is sampled over its first
 * 256 KiB of decoded bytes, which are kept and read again by the reader:
 * nothing is lost and nothing is seeked. */
typedef struct simdsv_input simdsv_input;

/* Open an input.  opt gives the allocator and SIMDSV_OPT_COMPRESSION (NULL:
 * defaults).  A descriptor stays the caller's (closed by the caller after
 * simdsv_input_free); one on a regular file at offset 0 (standard input
 * redirected from a file) is read with pread() like a path and its offset
 * is not moved, any other is read from where it stands.  A buffer must
 * outlive the input and its reader.  On
 * failure *out is NULL and error (may be NULL) says why: SIMDSV_ERR_IO with
 * os_errno and a message ("No such file or directory", "gzip-compressed, but
 * zlib (libz.so.1) cannot be loaded: ...").  The first bytes are read here. */
SIMDSV_API simdsv_status simdsv_input_open_path(simdsv_input **out, const char *path, const simdsv_options *opt,
                                                simdsv_error *error);
SIMDSV_API simdsv_status simdsv_input_open_fd(simdsv_input **out, int fd, const simdsv_options *opt,
                                              simdsv_error *error);
SIMDSV_API simdsv_status simdsv_input_open_memory(simdsv_input **out, const void *data, size_t size,
                                                  const simdsv_options *opt, simdsv_error *error);
SIMDSV_API void simdsv_input_free(simdsv_input *in); /* NULL is fine */

/* NONE, GZIP or ZSTD: what the input holds. */
SIMDSV_API simdsv_compression simdsv_input_compression(const simdsv_input *in);
/* "auto", "none", "gzip", "zstd"; NULL for a bad value. */
SIMDSV_API const char *simdsv_compression_name(simdsv_compression compression);
/* 1 if this process can decode it (its library loads); NONE and AUTO: 1. */
SIMDSV_API int simdsv_compression_supported(simdsv_compression compression);

/* Detects the input's settings (simdsv_sniff with params; NULL: nothing
 * given) and, when opt is not NULL, sets on opt every setting that is not
 * in params->given, as simdsv_sniff_apply does; the given ones are left as
 * opt has them (opt may be params->opt).  With opt, the repeated headers
 * found (sniff->repeated_headers) are left out of what the input serves
 * (simdsv_input_keep_ranges with simdsv_sniff_kept_ranges; END_OFFSET is then
 * 0 and the last range ends where the table does), unless the footer
 * setting is given.  Binary input (sniff->binary)
 * sets nothing.  *sniff (may be NULL) receives the detection, freed with
 * simdsv_sniff_free.  May be called again (another params->table): a
 * stream's sample is read once.  Errors: NOMEM, IO (error says why). */
SIMDSV_API simdsv_status simdsv_input_detect(simdsv_input *in, const simdsv_sniff_params *params, simdsv_options *opt,
                                             simdsv_sniff **sniff, simdsv_error *error);

/* Opens r (from simdsv_reader_new with the options to read with) on the
 * input, once.  The input must outlive r.  A plain regular file opened by
 * path, without a read observer, is opened by its path; a plain buffer in
 * place; anything else through simdsv_input_read (the sample first). */
SIMDSV_API simdsv_status simdsv_input_open_reader(simdsv_input *in, simdsv_reader *r);

/* Serve only these byte ranges of the decoded input to the reader and to
 * simdsv_input_read: n pairs [begin, end) in input order (end 0: to the
 * end), replacing any earlier ones (n = 0: every byte again).  Before the
 * first read only (INVALID_ARGUMENT after).  simdsv_input_detect sets them
 * itself to leave out the repeated headers it found; --table all sets the
 * tables'.  A file with ranges is read through them, not by its path. */
SIMDSV_API simdsv_status simdsv_input_keep_ranges(simdsv_input *in, const uint64_t *ranges, size_t n);

/* The input's decoded bytes, for callers that read them themselves: a
 * simdsv_read_fn whose ctx is the simdsv_input.  Returns the count, 0 at the
 * end, -1 on an error (*os_errno set for a read error; simdsv_input_error
 * says what else, e.g. "the gzip data is truncated"). */
SIMDSV_API long long simdsv_input_read(void *in, void *buf, size_t size, int *os_errno);
/* Why the last read failed when it was not the system's error; else NULL. */
SIMDSV_API const char *simdsv_input_error(const simdsv_input *in);
/* Called with the number of raw (compressed) bytes each time some are read
 * from a path or descriptor: a progress display.  Reading then goes through
 * the input even for a plain file (simdsv_input_open_reader). */
SIMDSV_API void simdsv_input_observe(simdsv_input *in, void (*on_read)(void *ctx, uint64_t bytes), void *ctx);
/* The descriptor of an uncompressed regular file, for pread() (its size in
 * *size), or -1.  Owned by the input. */
SIMDSV_API int simdsv_input_fd(const simdsv_input *in, uint64_t *size);

/* ----------------------------------------------------------------- datasets */

/* Many inputs read as one table: files named by paths, globs and folders,
 * buffers and callbacks, in a fixed order, with one schema.
 *
 *     simdsv_dataset *ds = NULL;
 *     simdsv_table *t = NULL;
 *     simdsv_options_set(opt, SIMDSV_OPT_UNION_BY_NAME, 1);
 *     if (simdsv_dataset_new(&ds, opt, NULL) == SIMDSV_OK &&
 *         simdsv_dataset_add_path(ds, "logs/2024-??.csv.gz") == SIMDSV_OK &&
 *         simdsv_dataset_read(ds, &t) == SIMDSV_OK)
 *         ...  // the rows of every file, file after file
 *     else
 *         report(simdsv_dataset_file(ds, simdsv_dataset_error_file(ds)), simdsv_dataset_error(ds));
 *     simdsv_table_free(t);
 *     simdsv_dataset_free(ds);
 *
 * Each input is read as simdsv_input reads one (compression, encoding,
 * dialect, header detected on its own, settings given in `detect` taken
 * from the options instead), with the typed options.  The result equals
 * reading the inputs one after another and concatenating the rows, with:
 *   - one schema.  By position (default), every input has the first one's
 *     columns; by name (SIMDSV_OPT_UNION_BY_NAME), the columns are the union
 *     of the inputs' in order of first appearance, null in an input that
 *     lacks them.  A column's type is the join of its types in the inputs,
 *     the type a late value widens it to inside one input (int64 and
 *     float64 give float64, date and timestamp give timestamp, anything
 *     else string): an input whose column is narrower is read again with
 *     that type as its least (simdsv_options_set_column_min_type), so its
 *     text is converted once, exactly.  Inputs that cannot be matched
 *     (another column count, or name, by position) are an error naming
 *     both inputs and the column.
 *   - hive partition columns (SIMDSV_OPT_HIVE), then the file name column
 *     (SIMDSV_OPT_FILENAME_COLUMN), after the inputs' columns.
 * An empty input (no bytes) adds no column and no row; a header-only one
 * adds its columns (null-typed unless typed elsewhere) and no row.  String
 * columns are utf8 whatever SIMDSV_OPT_STRINGS says (the inputs' strings
 * are copied into one buffer per column anyway); SIMDSV_OPT_ROW_LIMIT and
 * the rejects (SIMDSV_ON_ERROR_NULL: rows counted from the table's first,
 * lines and offsets the input's) apply to each input.
 *
 * Errors name the input: simdsv_dataset_error gives the error with its
 * line, column and byte offset within that input, simdsv_dataset_error_file
 * its index.  Threads (SIMDSV_OPT_THREADS): several inputs are read side by
 * side, one per thread, when there are at least as many inputs as threads;
 * otherwise one after another, each on every thread (byte ranges of one
 * file).  The result does not depend on the thread count. */
typedef struct simdsv_dataset simdsv_dataset;

/* Bits of simdsv_sniff_params.given: every setting given, nothing detected. */
#define SIMDSV_SNIFF_GIVEN_ALL ((1u << SIMDSV_SNIFF_SETTING_COUNT) - 1u)

/* A dataset with these options (copied; NULL: defaults) and detection
 * parameters (copied; NULL: everything detected; params->opt is ignored,
 * the settings given are taken from opt; SIMDSV_SNIFF_GIVEN_ALL detects
 * nothing but the compression). */
SIMDSV_API simdsv_status simdsv_dataset_new(simdsv_dataset **out, const simdsv_options *opt,
                                            const simdsv_sniff_params *detect);
SIMDSV_API void simdsv_dataset_free(simdsv_dataset *ds); /* NULL is fine */

/* Adds the files a path names, in byte order of their paths: a file; a
 * folder: every file under it, recursively; a glob: `*` (any characters
 * but '/'), `?` (one), `[abc]`, `[a-z]`, `[!a]` in any part, and `**` as a
 * whole part (any number of folders, none included).  Names starting with
 * '.' or '_' (hidden files, _SUCCESS markers) are skipped in folders and
 * matched by a glob only when its part starts so.  A glob that matches no
 * file, or a path that does not exist, is SIMDSV_ERR_IO (the error names
 * it).  Paths are listed now; the files are opened when read. */
SIMDSV_API simdsv_status simdsv_dataset_add_path(simdsv_dataset *ds, const char *path);
/* A buffer, kept alive and unchanged by the caller until the dataset is
 * freed, named `name` in errors and the file name column (copied). */
SIMDSV_API simdsv_status simdsv_dataset_add_memory(simdsv_dataset *ds, const char *name, const void *data,
                                                   size_t size);
/* An input read through callbacks (a remote object the caller streams).
 * read gives its next bytes (simdsv_read_fn); rewind (may be NULL) goes
 * back to byte 0 (return 0, or -1 with *os_errno on failure): with it the
 * dataset reads the input as often as it needs (a stream: its sample, then
 * its rows), without it the input is read once into memory and held until
 * the dataset is freed.  release (may be NULL) is called with ctx once,
 * when the dataset is freed.  size is the input's size, or -1 if unknown. */
typedef struct simdsv_dataset_source {
    simdsv_read_fn read;
    int (*rewind)(void *ctx, int *os_errno);
    void (*release)(void *ctx);
    void *ctx;
    int64_t size;
} simdsv_dataset_source;
SIMDSV_API simdsv_status simdsv_dataset_add_callback(simdsv_dataset *ds, const char *name,
                                                     const simdsv_dataset_source *source);

/* The inputs, in order; file(i) is the path (as found by the glob or the
 * folder walk) or the name given; NULL for a bad index.  Valid until the
 * dataset is freed. */
SIMDSV_API size_t simdsv_dataset_files(const simdsv_dataset *ds);
SIMDSV_API const char *simdsv_dataset_file(const simdsv_dataset *ds, size_t index);

/* Reads every input into one table (simdsv_table_free frees it). */
SIMDSV_API simdsv_status simdsv_dataset_read(simdsv_dataset *ds, simdsv_table **out);
/* simdsv_dataset_read without joining the rows into one table (the copy
 * of every value that costs): the table in chunks, as Arrow holds a table
 * of record batches.  *count chunks, each an input's rows (the inputs
 * without rows give none; when no input has a row, one chunk without rows
 * holds the schema), in input order, every chunk with the dataset's
 * columns and types: the same values as the read's table, cut at the
 * inputs' ends.  A reject's row counts from its chunk's first.  The
 * chunks are held by the dataset until taken (simdsv_dataset_take_chunk)
 * or the next read, stream or free. */
SIMDSV_API simdsv_status simdsv_dataset_read_chunks(simdsv_dataset *ds, size_t *count);
/* Chunk index of the last read_chunks, now the caller's (simdsv_table_free
 * frees it); NULL when taken already or out of range. */
SIMDSV_API simdsv_table *simdsv_dataset_take_chunk(simdsv_dataset *ds, size_t index);
/* Only the schema: each input's as simdsv_table_infer samples it, joined. */
SIMDSV_API simdsv_status simdsv_dataset_infer(simdsv_dataset *ds, simdsv_table **out);
/* The inputs as one Arrow C stream of record batches, in bounded memory
 * whatever their number: each input streamed by simdsv_table_stream; with
 * threads, as many inputs as threads are streamed ahead, at most 4 batches
 * each, and handed out in input order (the batches are those of one
 * thread).  The schema is fixed first from each input's stream sample (its
 * first 8 MiB), joined as above; each input is then streamed with its
 * columns starting from those types.  A later value that does not fit is
 * an error naming the input, line and byte (get_next returns EINVAL);
 * simdsv_dataset_widen_misfit then makes the next stream start that column
 * from the type a whole read gives it.  The dataset must outlive the
 * stream; errors are the dataset's (simdsv_dataset_error).  One stream or
 * read at a time. */
SIMDSV_API simdsv_status simdsv_dataset_stream(simdsv_dataset *ds, struct ArrowArrayStream *out);
/* After a stream failed on a late misfit: the column (by name) starts
 * from the widened type in every later read or stream of the dataset.
 * SIMDSV_ERR_INVALID_ARGUMENT when the last error was no such misfit. */
SIMDSV_API simdsv_status simdsv_dataset_widen_misfit(simdsv_dataset *ds);

/* The last error (code SIMDSV_OK if none): positions are those of the
 * input named by simdsv_dataset_error_file (-1 when the error is about no
 * one input: memory, a glob).  Never NULL. */
SIMDSV_API const simdsv_error *simdsv_dataset_error(const simdsv_dataset *ds);
SIMDSV_API long simdsv_dataset_error_file(const simdsv_dataset *ds);
/* The last error's message whole: simdsv_error.message holds 255 bytes, and
 * a message that names files (a conflict names both, with their paths) may
 * be longer.  "" when there is none; valid until the next read, stream or
 * free of the dataset. */
SIMDSV_API const char *simdsv_dataset_error_message(const simdsv_dataset *ds);
/* The input (simdsv_dataset_file's index) of a dataset stream's reject
 * (simdsv_table_stream_reject); -1 for a bad index or another stream. */
SIMDSV_API long simdsv_dataset_stream_reject_file(struct ArrowArrayStream *stream, size_t index);

/* ------------------------------------------------------------------ writers */

/* Parquet and Arrow IPC out of an Arrow C stream of "+s" record batches:
 * simdsv_table_stream()'s, or any producer's whose columns have the formats
 * the typed reader exports (b l g tdD tsu:TZ u U vu n; string views are
 * written as Parquet strings and as Arrow IPC utf8, at most 2 GiB of text a
 * batch).  These functions live
 * in the separate library simdsv_write (libsimdsv_write, pkg-config
 * simdsv-write), which links the compression libraries the build found; the
 * core library stays dependency-free.
 *
 * Memory is bounded by one row group (Parquet) or one batch (IPC) plus the
 * compressed copy of it, whatever the input size.  The stream is consumed
 * but not released: the caller releases it.  Errors: SIMDSV_ERR_IO for a
 * failed write (err->os_errno), SIMDSV_ERR_INVALID_ARGUMENT for options or
 * a schema these writers cannot take (err->message says which), and a
 * failing stream's own error (SIMDSV_ERR_VALUE for EINVAL, NOMEM, IO) with
 * its get_last_error() text in err->message.  err may be NULL. */

typedef enum simdsv_format {
    SIMDSV_FORMAT_PARQUET = 0,      /* Parquet 2.x: data page v1, PLAIN / DELTA_BINARY_PACKED / RLE_DICTIONARY,
                                       statistics */
    SIMDSV_FORMAT_ARROW_FILE = 1,   /* Arrow IPC file format (Feather v2, .arrow): random access footer */
    SIMDSV_FORMAT_ARROW_STREAM = 2  /* Arrow IPC stream format (.arrows): writable to a pipe */
} simdsv_format;

typedef enum simdsv_codec {
    SIMDSV_CODEC_NONE = 0,
    SIMDSV_CODEC_SNAPPY = 1,   /* Parquet only (libsnappy) */
    SIMDSV_CODEC_GZIP = 2,     /* Parquet only (zlib) */
    SIMDSV_CODEC_ZSTD = 3,     /* Parquet and IPC (libzstd) */
    SIMDSV_CODEC_LZ4 = 4       /* IPC only: the LZ4 frame format (liblz4) */
} simdsv_codec;

typedef struct simdsv_write_options {
    simdsv_format format;
    simdsv_codec codec;      /* default NONE */
    int level;               /* codec level, 0 = the codec's default; at most gzip 9, zstd 22, lz4 12
                                (snappy: 0 only) */
    int64_t row_group_rows;  /* Parquet rows per row group, fewer once they hold 32 MiB of values;
                                0 = default (SIMDSV_DEFAULT_ROW_GROUP_ROWS) */
    int threads;             /* columns gathered and their pages encoded and compressed side by side;
                                0 = all cores; at most 256 */
    int dictionary;          /* Parquet: 1 (default) dictionary-encode columns whose dictionary stays
                                under 1 MiB per row group, else PLAIN (int64 and timestamps:
                                DELTA_BINARY_PACKED); 0: no dictionary */
} simdsv_write_options;

#define SIMDSV_DEFAULT_ROW_GROUP_ROWS ((int64_t)1 << 17)

/* Sets the defaults above. */
SIMDSV_API void simdsv_write_options_init(simdsv_write_options *opt);
/* 1 if this build of simdsv_write has the codec (NONE: always). */
SIMDSV_API int simdsv_codec_supported(simdsv_codec codec);
/* "none", "snappy", "gzip", "zstd", "lz4"; NULL for a bad value. */
SIMDSV_API const char *simdsv_codec_name(simdsv_codec codec);
/* The codec of a name as above; -1 if unknown. */
SIMDSV_API int simdsv_codec_from_name(const char *name);

/* A write callback: writes up to size bytes of buf, returns the count
 * written (> 0), or -1 on failure (set *os_errno if known). */
typedef long long (*simdsv_write_fn)(void *ctx, const void *buf, size_t size, int *os_errno);

/* Writes the stream to path through a temporary file in path's folder that
 * is renamed over path only when everything was written and synced: a
 * failure leaves nothing half-written and keeps what path held before. */
SIMDSV_API simdsv_status simdsv_write_path(struct ArrowArrayStream *stream, const char *path,
                                           const simdsv_write_options *opt, simdsv_error *err);
/* To a descriptor (a file, a pipe; never seeked, never closed). */
SIMDSV_API simdsv_status simdsv_write_fd(struct ArrowArrayStream *stream, int fd, const simdsv_write_options *opt,
                                         simdsv_error *err);
/* Through a callback. */
SIMDSV_API simdsv_status simdsv_write_callback(struct ArrowArrayStream *stream, simdsv_write_fn fn, void *ctx,
                                               const simdsv_write_options *opt, simdsv_error *err);

/* ------------------------------------------------------------- byte ranges */

/* One input cut into byte ranges [begin, end) that are read apart (on other
 * threads, processes or machines) with results that concatenate to exactly
 * the whole read:
 *
 *   1. summarize each range from its bytes alone (simdsv_range_summarize);
 *   2. combine the summaries, in input order, on one machine
 *      (simdsv_range_combine): each range learns the state its begin is in
 *      (inside quotes or not, ...: the ranges' state maps composed in
 *      order), hence where its first record starts, and which bytes hold the records that start in
 *      it: [start, stop), where stop is the next range's start, so the last
 *      record is read past `end` as far as it goes;
 *   3. read each range's bytes [start, stop) with a reader opened by
 *      simdsv_reader_open_range: simdsv_reader_next, simdsv_reader_count,
 *      simdsv_table_read and simdsv_table_stream then work as on a whole
 *      input.  For the typed reader to give every range the same columns,
 *      infer the schema once (simdsv_table_infer on the whole input samples
 *      its start, middle and end) and give every range the names
 *      (SIMDSV_OPT_NAMES) and types (SIMDSV_OPT_SCHEMA) it found; a value
 *      that does not fit is then an error with its position (or a reject),
 *      where the whole read would have widened the column.
 *
 * A record starts after a line end outside quotes.  Which line ends are
 * outside quotes depends on the bytes before, through a small set of states
 * (the summary's `states`): without an escape byte, a comment byte or
 * lenient mode, "inside quotes" is the parity of the quote bytes before, so
 * two states do (outside, inside) and a summary costs one pass that counts
 * quotes; otherwise the states are those of the reader's record grammar
 * (at a record start, at a field's start, in an unquoted field, in quotes,
 * after an escape byte, after a quote in quotes, after its trimmed spaces,
 * in a comment line, part way through a delimiter or comment marker of
 * several bytes), each range is followed from every one of them, and the
 * combine composes the ranges' state maps.  Either way ranges read exactly
 * as the whole input does; on input the strict reader rejects, the first
 * range (in input order) whose read fails reports the error the whole read
 * reports.  Not supported (SIMDSV_ERR_INVALID_ARGUMENT, with a message in
 * the error): SIMDSV_OPT_SKIP_LINES (skipped lines may hold anything).  A
 * header row and a BOM are fine: they belong to the first range (the header
 * row must end in it).
 *
 * Positions in errors and records are input offsets and input lines; the
 * `record` and `index` numbers count from the range's first record. */

/* The most states a range's begin can be in (see above). */
#define SIMDSV_RANGE_STATES 20

/* What a range's own bytes say, for every state its begin can be in. */
typedef struct simdsv_range_summary {
    uint64_t begin, end;        /* the range [begin, end) of the input */
    uint8_t states;             /* the dialect's states: 0 .. states - 1, state 0 at the input's start;
                                   the same in every summary of one input and options */
    uint64_t record_start[SIMDSV_RANGE_STATES]; /* the first record start in (begin, end] when begin
                                   is in state h; UINT64_MAX when none: no line end that ends a
                                   record or comment line (a record longer than the range), or
                                   (two states) bytes that are not strict CSV in that state before
                                   one (then the range before reads through this one, and reports
                                   the error if that is the true state); begin itself for the
                                   range at 0 in state 0 */
    uint64_t lines_to_start[SIMDSV_RANGE_STATES]; /* line ends in [begin, record_start[h]) */
    uint8_t after_cr[SIMDSV_RANGE_STATES];        /* the line end before record_start[h] was a CR */
    uint8_t end_state[SIMDSV_RANGE_STATES];       /* the state at end when begin is in state h */
    uint64_t lines;             /* line ends in [begin, end) (a CRLF is one, at its CR) */
    uint64_t header_end;        /* the range at 0 with SIMDSV_OPT_HEADER=1: just past the header
                                   row's line end, UINT64_MAX when it does not end in the range;
                                   else 0 */
} simdsv_range_summary;

/* Where a range's records are, from simdsv_range_combine. */
typedef struct simdsv_range {
    uint64_t start, stop; /* the bytes of the records that start in the range; start == stop: none */
    uint64_t line;        /* 1-based input line at start */
    uint8_t after_cr;     /* the byte before start is a CR (a LF at start is then its CRLF's) */
    uint8_t state;        /* the state at the range's begin (see simdsv_range_summary) */
} simdsv_range;

/* Summarizes the range that begins at input offset `begin`: bytes[0..size)
 * are the input's bytes [begin, begin + size).  prev_byte is the input byte
 * at begin - 1 (-1 when begin is 0); only whether it is a CR matters, so that
 * a CRLF cut in two counts as one line.  The options give the dialect (and
 * the kernel); see above for what they must not ask for.  err (may be NULL)
 * receives the reason on failure. */
SIMDSV_API simdsv_status simdsv_range_summarize(const simdsv_options *opt, const void *bytes, size_t size,
                                                uint64_t begin, int prev_byte, simdsv_range_summary *out,
                                                simdsv_error *err);

/* Combines the summaries of n ranges that cover the input in order
 * (summaries[0].begin == 0, each range ends where the next begins, the last
 * ends at the input's end) into out[0..n).  SIMDSV_ERR_INVALID_ARGUMENT when
 * they do not cover it so, or when the header row does not end in the first
 * range (blank lines or a record longer than the range: make it larger). */
SIMDSV_API simdsv_status simdsv_range_combine(const simdsv_range_summary *summaries, size_t n, simdsv_range *out);

/* Opens r (not yet opened; its options obey the restrictions above) on one
 * range's records: bytes[0..range->stop - range->start) are the input's bytes
 * [range->start, range->stop), kept alive and unchanged by the caller until
 * r is freed, as for simdsv_reader_open_memory.  The range at offset 0 reads
 * the BOM and the header as a whole read does; any other range has neither
 * (its reader behaves as if SIMDSV_OPT_HEADER were 0: use SIMDSV_OPT_NAMES). */
SIMDSV_API simdsv_status simdsv_reader_open_range(simdsv_reader *r, const void *bytes, const simdsv_range *range);

#ifdef __cplusplus
}
#endif
#endif /* SIMDSV_H */
