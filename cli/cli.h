/*
 * cli.h — what the subcommands of the simdsv command share: the common
 * dialect options, opening an input (files, standard input, gzip and zstd
 * decoded as a stream), reporting errors as FILE:LINE:COL: error: ..., a
 * buffered output (standard output or -o FILE through a temporary file) that
 * ends quietly on a broken pipe, the CSV writer, column selectors and the
 * progress line.  The CLI uses only the public header.
 *
 * Files: run.c (the command driver, cli_run), main.c (main() only: every
 * other file also builds the simdsv_cli_core library that fuzz/fuzz_cli.c
 * runs in-process), common.c (options, opening, reports), input.c (sources and
 * decompression), output.c (buffered output, -o, CSV writer), progress.c,
 * selector.c (column selectors), text.c (field text, display width),
 * literal.c (literal search), records.c (the driver of the commands that
 * stream records in batches, cli_run_records; the batch CSV writer), sniff.c
 * (automatic reading), and one cmd_NAME.c per command.  The CLI scans
 * nothing itself: every byte is read by the library's kernels.
 */
#ifndef SIMDSV_CLI_H
#define SIMDSV_CLI_H

#include "simdsv.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Exit statuses, documented in the README, the man page and in --help. */
enum { EXIT_OK = 0, EXIT_DATA = 1, EXIT_USAGE = 2 };

typedef struct cli_input cli_input;

typedef struct cli_common {
    simdsv_options *opt;
    const char *command;  /* "count", ... for messages */
    const char *file;     /* the current FILE; "-" for standard input */
    const char *display;  /* name used in messages ("<stdin>" for -) */
    const char **files;   /* every FILE argument */
    size_t nfiles;
    const char **positional; /* leading non-FILE arguments (search: PATTERN) */
    size_t npositional;
    const char *output;   /* -o FILE, or NULL for standard output */
    int out_delimiter;    /* --output-delimiter (default ,) */
    int progress;         /* --progress 1, --no-progress 0, default -1 (auto) */
    cli_input *in;        /* the input opened by cli_open (owned by the reader's caller) */
    simdsv_reader *reader; /* cli_run_records' reader while it runs (for the callbacks) */
    bool reader_mapped;    /* it reads c->file mapped: the file can be read again */
    const char *bad_why;  /* what was wrong with the option value just refused (ARG_BAD), or NULL */
    /* Automatic reading (sniff.c): */
    unsigned given;       /* 1u << SIMDSV_SNIFF_x for each dialect setting given by hand */
    bool no_sniff;        /* --no-sniff: nothing detected, the defaults apply */
    bool verbose;         /* -v: say what was detected */
    bool records_only;    /* the command reads no typed value (CLI_RECORDS; convert --to csv): the
                             dialect is detected without the value formats (decimal comma,
                             thousands, dates), in a fraction of the time */
    uint64_t header_rows; /* --header-rows N */
    size_t table;         /* --table K, 0-based */
    bool table_all;       /* --table all: the tables one after another (their columns must agree) */
    uint64_t *table_ranges; /* and their byte ranges in the FILE sniffed (2 per table; or the table read
                               cut around its repeated headers), or NULL */
    size_t table_count;
    const char *sniffed;  /* the FILE whose dialect opt holds (cli_open detects again for another) */
    cli_input *sampled;   /* that FILE's stream, its first bytes read by detection and kept for the reader */
    bool refused;         /* that FILE is not text (a binary file): said, and cli_open opens no reader */
    /* Several FILEs, a folder or a glob (CLI_DATASET): one table, file after file. */
    simdsv_dataset *ds;   /* the files as one dataset, or NULL: one FILE read as before */
    bool dataset_options; /* --union-by-name, --filename-column or --hive was given */
    char **expanded;      /* the FILEs that globs and folders named (owned; files points to them) */
    size_t nexpanded;
} cli_common;

/* Result of offering argv[*i] to an option parser. */
typedef enum { ARG_TAKEN, ARG_NOT_MINE, ARG_BAD } arg_result;

/* A subcommand's own options: same contract as cli_common_arg. */
typedef arg_result (*cli_extra_arg)(void *ctx, int argc, char **argv, int *i);

/* What a subcommand accepts besides the dialect options. */
enum {
    CLI_MANY_FILES = 1u, /* FILE... (else exactly one FILE) */
    CLI_OUTPUT = 2u,     /* -o FILE */
    CLI_CSV_OUT = 4u,    /* --output-delimiter C */
    CLI_NO_SNIFF = 8u,   /* the options are not completed by detection (sniff itself) */
    CLI_RECORDS = 16u,   /* reads records, never typed values: detection leaves the value formats out */
    CLI_UTF8_LOSSY = 32u, /* invalid UTF-8 is shown as U+FFFD unless --utf8 is given (a viewer: table) */
    CLI_DATASET = 64u     /* FILE...: several FILEs (or a glob, a folder) read as one table (c->ds) */
};

typedef struct cli_spec {
    const char *command;
    const char *help;        /* the command's own help; the common help follows */
    unsigned flags;
    size_t positionals;      /* arguments before the FILEs (search: 1, the PATTERN) */
    const char *positional_names; /* for the "missing ..." message, e.g. "PATTERN" */
    cli_extra_arg extra;
    void *ctx;
} cli_spec;

/* Parses a subcommand's arguments.  Returns -1 to go on, or the exit status
 * (after printing help or a usage error).  c->opt is created here and freed
 * by cli_common_free. */
int cli_parse(const cli_spec *spec, int argc, char **argv, cli_common *c);
void cli_common_free(cli_common *c);
/* Frees what detection left for the FILE sniffed (its kept stream, the
 * --table all ranges).  A copy of a cli_common that opens its own FILE
 * (cat columns) takes these from the original, which then holds none. */
void cli_release_detected(cli_common *c);
/* Detects the dialect of c->file (cli_parse: the first FILE; cli_open: each
 * next one) and sets every option not given by hand (sniff.c).  A stream
 * (standard input, a pipe, compressed data) is sniffed over its first bytes,
 * which c->sampled keeps for the reader.  --no-sniff keeps the defaults.
 * A binary file is refused (c->refused) with cli_not_text's message.
 * Returns -1 to go on, or the exit status. */
int cli_detect(cli_common *c);
/* The one message for input that is not a delimited text file (every
 * command, and 'simdsv sniff'): what detection found, and --no-sniff. */
void cli_not_text(const char *display, const simdsv_sniff *s);
/* Starts the progress line for c->files (their total size when known). */
void cli_start(cli_common *c);

/* Parses one common option at argv[*i] (advancing *i past its value). */
arg_result cli_common_arg(cli_common *c, int argc, char **argv, int *i);
/* Value of an option given as --name VALUE or --name=VALUE; NULL if argv[*i] is not --name. */
const char *cli_option_value(const char *name, int argc, char **argv, int *i, bool *missing);
/* Parses a dialect byte: one character or an escape (\t \\ \xHH \0 ...). "" gives -1 (none). */
bool cli_parse_byte(const char *text, int *out);
/* 1 to 4 bytes, each a character or an escape as cli_parse_byte takes it
 * (no NUL), into out NUL-terminated; returns their count, -1 if invalid. */
int cli_parse_bytes(const char *text, char out[5]);
bool cli_parse_u64(const char *text, unsigned long long *out);
/* An unsigned option NAME: ARG_TAKEN with *out set, ARG_BAD, or ARG_NOT_MINE. */
arg_result cli_u64_option(const char *name, int argc, char **argv, int *i, unsigned long long *out);
int cli_usage_error(const char *command, const char *fmt, const char *arg);
/* The value of an option of c->opt (0 if unknown). */
int64_t cli_opt(const cli_common *c, simdsv_option id);

/* The usual start of a command after cli_parse returned *status: on -1,
 * opens the output, starts the progress line and opens the reader.
 * Returns NULL (options freed, *status = the exit status) when the command
 * must end here. */
simdsv_reader *cli_begin(cli_common *c, int *status);
/* Creates a reader and opens c->file (decompressing gzip/zstd, with the
 * progress line counting its bytes); prints a message and returns NULL on
 * failure.  cli_close frees both. */
simdsv_reader *cli_open(cli_common *c);
/* A reader with these options; prints why not and returns NULL. */
simdsv_reader *cli_new_reader(const simdsv_options *opt);
/* Same as cli_open with other options (e.g. the header turned off). */
simdsv_reader *cli_open_with(cli_common *c, const simdsv_options *opt);
void cli_close(cli_common *c, simdsv_reader *r);
/* After cli_open, when c->file is an uncompressed regular file: a second
 * reader opened on its path, mapped (map: a file cut short meanwhile ends
 * the run with a message on SIGBUS) or read with read() and pread() (the
 * typed reader's samples); NULL for anything else (keep cli_open's). */
simdsv_reader *cli_open_regular(cli_common *c, bool map);
/* Writes s to stderr with control characters as \xHH: for messages that
 * quote the file's text (a terminal would obey an ESC sequence). */
void cli_put_text(const char *s);
/* Prints the dataset's error: FILE:LINE:COL: error: ... for one file's
 * data, "simdsv: FILE: ..." or "simdsv: ..." otherwise; returns EXIT_DATA. */
int cli_dataset_failure(const cli_common *c);
/* Prints FILE:LINE:COL: error: ... for the reader's last error. */
void cli_report(const cli_common *c, const simdsv_reader *r);
/* The same for an error kept apart from its reader (a reader of one range of
 * the input, whose record numbers the caller has made the input's). */
void cli_report_error(const cli_common *c, const simdsv_error *e);
/* Prints "simdsv: MESSAGE" on stderr (the progress line erased first). */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The status after a loop over records ended with st: EXIT_OK for
 * SIMDSV_END/OK, else the output is flushed, the error reported and EXIT_DATA. */
int cli_end_of_records(cli_common *c, simdsv_reader *r, simdsv_status st);
/* Reads the header (when the options have one): SIMDSV_OK with *rec set,
 * SIMDSV_END for an empty input (rec->field_count 0), or an error (not
 * reported yet: see cli_end_of_records). */
simdsv_status cli_header(cli_common *c, simdsv_reader *r, simdsv_record *rec, bool *has_header);

/* ------------------------------------------------------------------ input */

/* Opens path ("-" = standard input) as the library's simdsv_input (gzip and
 * zstd decoded), its raw bytes counted on the progress line.  Prints
 * "simdsv: FILE: ..." and returns NULL on failure. */
cli_input *input_open(const char *path, const char *display);
void input_close(cli_input *in);
/* The library's input under it: what simdsv_input_detect samples (the
 * sample is kept and read again first by the reader). */
simdsv_input *input_library(cli_input *in);
/* Decoded bytes: count, 0 at the end, -1 on error (input_error says why). */
long long input_read(cli_input *in, void *buf, size_t size, int *os_errno);
/* Opens r on the input: simdsv_input_open_reader. */
simdsv_status input_open_reader(cli_input *in, simdsv_reader *r);
/* From now on the input gives only the decoded bytes in the n ranges
 * [ranges[2i], ranges[2i+1]) (sorted, apart; an end of 0 is the input's
 * end), and it is no longer a file to seek in (simdsv_input_keep_ranges):
 * --table all, repeated headers.  False when out of memory. */
bool input_keep_ranges(cli_input *in, const uint64_t *ranges, size_t n);
/* The decoder's message for the last failure, or NULL (then it was read()). */
const char *input_error(const cli_input *in);
/* Whether path names a regular file (compressed or not; "-" is standard
 * input): it can be opened and read again. */
bool input_path_regular(const char *path);
/* File descriptor and size of an uncompressed regular file (for seeking); -1 otherwise. */
int input_seekable_fd(const cli_input *in, uint64_t *size);
/* Size of a path for the progress line (0 when unknown: pipes, standard input). */
uint64_t input_path_size(const char *path);

/* --------------------------------------------------------------- progress */

/* mode: 1 forced, 0 never, -1 auto (stderr is a terminal and CI is not set).
 * total: expected input bytes, 0 when unknown. */
void progress_start(int mode, uint64_t total);
void progress_add(uint64_t bytes);
void progress_erase(void);  /* before writing anything else on stderr or a terminal */
void progress_end(void);

/* ----------------------------------------------------------------- output */

/* Opens the output: standard output, or a temporary file next to path that
 * out_finish renames (success) or removes (failure).  Returns false after
 * printing a message. */
bool out_open(const char *path);
/* Flushes and closes; returns the final exit status (status, or EXIT_DATA
 * when the output could not be written). */
int out_finish(int status);
/* With -o FILE: drops what was written (the temporary file is emptied), so
 * that the output can be written again from its start; false otherwise
 * (standard output cannot take back what it sent). */
bool out_rewind(void);
/* 1 if the output is a terminal (no -o). */
bool out_is_tty(void);
void out_write(const void *data, size_t size);
void out_byte(char c);
/* Room for size bytes written directly (NULL if size exceeds the buffer);
 * out_commit(n) then adds the n bytes written. */
char *out_reserve(size_t size);
void out_commit(size_t size);
/* The same for many writes: [result, *end) is free (at least need bytes, or
 * NULL when need exceeds the buffer); out_window_done(p) says the output
 * now ends at p.  No other out_* call in between. */
char *out_window(size_t need, char **end);
void out_window_done(char *p);
void out_str(const char *s);
/* n spaces. */
void out_pad(size_t n);
/* printf to the output, whatever the length (nothing goes through a buffer
 * whose length is taken from snprintf's result). */
void out_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* snprintf into buf[size] that returns what it wrote (the text may be cut),
 * never the length the whole text would have had. */
size_t cli_format(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Where the output goes instead of standard output (NULL: standard output
 * again): for running the commands in-process (fuzz/fuzz_cli.c).  -o FILE
 * still writes FILE. */
typedef void (*out_sink_fn)(void *ctx, const char *data, size_t size);
void out_set_sink(out_sink_fn fn, void *ctx);
/* Flushes; returns false if the output could not be written (not for EPIPE, which exits quietly). */
bool out_flush(void);
/* Removes the temporary output file (called on the way out on errors and signals). */
void out_abandon(void);

/* One CSV field with minimal quoting (RFC 4180, like convert --to csv): quoted
 * only when it holds the delimiter, a quote, CR or LF, or is the only, empty
 * field of its record. */
void out_csv_field(const char *s, size_t n, int delimiter, bool alone);

typedef struct text_buffer text_buffer;
/* A growable byte string. */
typedef struct strbuf {
    char *data;
    size_t len, cap;
} strbuf;
/* Makes room for size more bytes: false when out of memory. */
bool sb_grow(strbuf *sb, size_t size);
/* Appends size bytes; false when out of memory.  Inline: 'tail' and the
 * other record writers call it a few times per field. */
static inline bool sb_put(strbuf *sb, const void *data, size_t size)
{
    if (size == 0)
        return true;
    if (sb->cap - sb->len < size && !sb_grow(sb, size))
        return false;
    memcpy(sb->data + sb->len, data, size);
    sb->len += size;
    return true;
}
/* The record as a CSV line (like write_record) appended to sb. */
bool sb_csv_record(strbuf *sb, text_buffer *tb, const simdsv_record *rec, int delimiter);
/* true when a CSV field must be quoted (see out_csv_field). */
bool csv_needs_quotes(const char *s, size_t n, int delimiter, bool alone);
/* true when s[0..n) holds '"' and each one is one of a pair ("" as a quoted
 * field writes a quote). */
bool csv_quotes_doubled(const char *s, size_t n);

/* ------------------------------------------------------------ field text */

/* Field bytes as text: quotes/escapes decoded, and invalid UTF-8 replaced by
 * U+FFFD in lossy mode.  Results stay valid until text_reset. */
struct text_buffer {
    char *data;
    size_t cap, len;
    int quote, escape;
    char **retired; /* full buffers still pointed to by this record's results */
    size_t nretired, cap_retired;
};
void text_init(text_buffer *tb, const cli_common *c);
void text_reset(text_buffer *tb); /* call once per record */
bool text_field(text_buffer *tb, const simdsv_record *rec, size_t i, const char **data, size_t *size);
/* The same for one field view (a field of a batch: simdsv_batch_field). */
bool text_of(text_buffer *tb, const simdsv_field *f, const char **data, size_t *size);
void text_free(text_buffer *tb);
/* A record written as CSV (delimiter c->out_delimiter), LF-terminated.
 * Missing fields (index >= field_count) are written empty. */
bool write_record(text_buffer *tb, const simdsv_record *rec, const size_t *cols, size_t ncols, int delimiter);
bool write_all_fields(text_buffer *tb, const simdsv_record *rec, int delimiter);

/* Display width (terminal columns) of one code point: 0 for combining marks
 * and zero-width characters, 2 for East Asian wide and fullwidth characters
 * and most emoji, else 1. */
int cp_width(uint32_t cp);
/* Decodes one UTF-8 character at s[0..n) (n > 0); invalid bytes give
 * U+FFFD and length 1. */
uint32_t utf8_next(const unsigned char *s, size_t n, size_t *len);
/* The display form of s[0..n) for a terminal (table, schema, stats): line
 * ends as '↵', a tab as a space, other control characters and invalid UTF-8
 * as U+FFFD.  Written to the output when emit, up to max columns (then '…'
 * when full_width > max).  Returns its width in columns. */
size_t text_display(const char *s, size_t n, size_t max, size_t full_width, bool emit);
/* The widest schema and stats pad a column of names to: a longer name is
 * written whole but not padded, so that one long name cannot multiply the
 * size of the output by the number of columns. */
enum { CLI_PAD_MAX = 64 };

/* ---------------------------------------------------------------- records */

/* What a command does with the records (records.c).  header: the header
 * record, or rec NULL with --no-header, before the first batch (header
 * NULL: the header is written as CSV).  batch: the next records.
 * Both return 0 to go on, CLI_STOP to stop reading (success), -1 for out of
 * memory, or an exit status (the problem reported).  finish (may be NULL):
 * after the last record, when all went well; returns the exit status. */
enum { CLI_STOP = 100 };
typedef struct cli_record_ops {
    int (*header)(void *ctx, text_buffer *tb, const simdsv_record *rec);
    int (*batch)(void *ctx, text_buffer *tb, const simdsv_batch *b);
    int (*finish)(void *ctx);
    /* Optional, before each batch: moves the reader past records the
     * command would pass over anyway (simdsv_reader_skip). */
    simdsv_status (*skip)(void *ctx, simdsv_reader *r);
} cli_record_ops;
/* The skeleton of a command that streams records, after cli_parse returned
 * status: output and input opened (cli_begin), the header, the batches, the
 * report of what stopped them; everything is closed and c's options freed.
 * Returns the exit status. */
int cli_run_records(cli_common *c, int status, const cli_record_ops *ops, void *ctx);

/* Room for the field views of one record of a batch. */
typedef struct field_views {
    simdsv_field *fields;
    size_t cap;
} field_views;
void field_views_free(field_views *v);
/* Record k of a batch as a simdsv_record (views in v); false: out of memory. */
bool batch_record(const simdsv_batch *b, size_t k, field_views *v, simdsv_record *rec);
/* What batch_plain needs to know of the command's dialect. */
typedef struct csv_plain {
    int delimiter, out_delimiter;
    bool check_quotes; /* an unquoted field may hold a '"' (other quote byte, none, or lenient) */
} csv_plain;
csv_plain csv_plain_of(const cli_common *c);
/* true when every record of the batch, up to its line end, is already
 * minimal CSV with out_delimiter (no field quoted, decoded or with invalid
 * UTF-8, no quote byte, the same delimiter). */
bool batch_plain(const simdsv_batch *b, const csv_plain *p);
/* true when each field of the batch can be written by batch_field_csv: the
 * output delimiter is the input's, and either quoting is RFC 4180's with '"'
 * (strict: an unquoted field holds no quote byte, a quoted one holds only
 * doubled ones) or the batch is plain. */
bool batch_raw(const simdsv_batch *b, const csv_plain *p);
/* Field e of a batch (an index into its bounds) that batch_raw allowed, as
 * the bytes of its minimal CSV (out_csv_field's rules; alone: the only field
 * of the output record): its raw bytes, quotes included, when its content
 * needs the quotes (a doubled quote is what the writer would write again),
 * else its content.  false when the field must be decoded and quoted
 * (escapes, invalid UTF-8 replaced, an unquoted lone empty field). */
static inline bool batch_field_csv(const simdsv_batch *b, size_t e, int delimiter, bool alone, const char **p,
                                   size_t *n)
{
    const char *raw = b->data + b->bounds[e];
    const size_t size = b->bounds[e + 1] - 1 - b->bounds[e];
    const unsigned flags = b->flags_any ? b->flags[e] : 0u;
    *p = raw;
    *n = size;
    if (flags == 0)
        return size != 0 || !alone;
    if (flags == SIMDSV_FIELD_QUOTED) {
        /* Content that needs no quotes holds no quote either. */
        if (!csv_needs_quotes(raw + 1, size - 2, delimiter, alone)) {
            *p = raw + 1;
            *n = size - 2;
            return true;
        }
        /* A quote inside: the general path decoded the field already
         * (trimmed spaces); the writer must double it. */
        return !memchr(raw + 1, '"', size - 2);
    }
    /* The general path may hand out a quoted field already decoded (trimmed
     * spaces): the raw bytes are taken only when every quote in them is
     * doubled, which is what the writer would write. */
    return flags == (SIMDSV_FIELD_QUOTED | SIMDSV_FIELD_NEEDS_UNESCAPE) && b->escape < 0 &&
           csv_quotes_doubled(raw + 1, size - 2);
}
/* A command that reads only these columns of the records after the header
 * tells c->reader so (simdsv_reader_read_columns): the fields it drops are
 * not checked for UTF-8 or flagged.  Called before the first batch, so that
 * which bytes are checked does not depend on where batches end. */
void read_only_columns(const cli_common *c, const size_t *cols, size_t ncols);
/* Records [from, to) of a batch as CSV lines (raw: batch_raw said so). */
bool write_batch_csv(text_buffer *tb, const simdsv_batch *b, size_t from, size_t to, bool raw,
                     int out_delimiter, field_views *v);

/* -------------------------------------------------------- column selectors */

/* A header as owned strings. */
typedef struct name_list {
    char **names;
    size_t *lens;
    size_t count;
} name_list;
bool names_from_record(name_list *nl, text_buffer *tb, const simdsv_record *rec);
void names_free(name_list *nl);

/* Resolves a selector ("name", "3", "2-5", "!name", "name[2]", comma
 * separated) against the header (NULL with --no-header: indexes only; then
 * width is the field count of the first record).  Returns the 0-based
 * columns in order, or NULL after printing a usage error (*status set). */
size_t *selector_resolve(const char *command, const char *sel, const name_list *header, size_t width,
                         size_t *count, int *status);

/* ---------------------------------------------------------------- literals */

/* A literal to find (search): two anchor bytes compared at 64 positions at
 * a time, then a full comparison; icase folds ASCII letters only. */
typedef struct literal {
    const unsigned char *p;
    size_t n;
    bool icase;
    size_t o1, o2;                /* offsets of the two anchor bytes (o1 <= o2) */
    unsigned char a1, a2, b1, b2; /* the anchor bytes, both cases */
} literal;
void literal_init(literal *l, const char *pattern, size_t size, bool icase);
/* Picks as anchors the two pattern bytes rarest in sample[0..size). */
void literal_tune(literal *l, const char *sample, size_t size);
/* The first occurrence in data[0..size), or NULL. */
const char *literal_find(const literal *l, const char *data, size_t size);

/* ------------------------------------------------------------- subcommands */

/* Runs "simdsv ARGS..." (argv[0] is the program's name) and returns its exit
 * status: 0, 1 (a data or input problem) or 2 (a usage problem).  Every
 * state of the command is reset when it returns, so it can run again in the
 * same process. */
int cli_run(int argc, char **argv);

int cmd_count(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_headers(int argc, char **argv);
int cmd_head(int argc, char **argv);
int cmd_tail(int argc, char **argv);
int cmd_slice(int argc, char **argv);
int cmd_select(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_frequency(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_sniff(int argc, char **argv);

#endif
