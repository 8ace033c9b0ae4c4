/*
 * sniff.h — what the files of src/sniff/ share: the result being built, the
 * sample and its rows, the dialect tried, the state one detection passes
 * from phase to phase, and the phases' entry points.
 *   sniff.c     the driver: the order of the phases (run), the public functions
 *   encoding.c  BOM, UTF-16 pattern, UTF-8 validity, 8-bit code pages; the
 *               sample converted to UTF-8
 *   choose.c    line endings, comment lines, the candidate dialects and the
 *               one chosen; its quote, escape, comment and padding decided
 *               over the whole sample
 *   dialect.c   parsing the sample with a candidate dialect, scoring it
 *   layout.c    preamble, tables, footer: where the table read starts and ends
 *   header.c    the header rows of the table read
 *   columns.c   its columns: names, types and value formats
 *   formats.c   value kinds, decimal comma, non-ISO dates
 */
#ifndef SIMDSV_SNIFF_H
#define SIMDSV_SNIFF_H

#include "../common/internal.h"
#include "../source/transcode.h"
#include "../values/values.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define START_SAMPLE ((size_t)256 << 10)
#define PART_SAMPLE ((size_t)64 << 10)
#define SCORE_ROWS 200   /* rows parsed per candidate dialect */
#define START_ROWS 1000  /* rows of the start kept for the decisions (tables are found among them) */
#define PART_ROWS 250    /* rows of the middle and of the end */
#define MAX_HEADER_ROWS 4
#define NOT_SURE 0.5

typedef struct text_node {
    struct text_node *next;
    size_t size;
} text_node;

typedef struct sniff_impl {
    simdsv_sniff pub;            /* first: the public pointer is this one */
    simdsv_allocator alloc;
    text_node *texts;            /* every string handed out */
    simdsv_sniff_table *tables;
    size_t tables_cap;
    simdsv_sniff_column *columns;
    simdsv_sniff_line *repeated;  /* the repeated headers of the table read */
    size_t repeated_cap;
} sniff_impl;

/* A part of the input: the start (line numbers known), the middle or the end. */
typedef struct region {
    const uint8_t *p;
    size_t n;
    uint64_t offset;   /* input offset of p[0]; valid when offsets_exact */
    int is_start;
    int complete;      /* p ends where the input ends */
} region;

typedef struct sn_field {
    uint32_t off, len;
    uint8_t quoted;
} sn_field;

/* ROW_REPEATED_HEADER: a row of the table read equal to its header
 * (header.c), not data. */
enum { ROW_DATA, ROW_BLANK, ROW_COMMENT, ROW_REPEATED_HEADER };

typedef struct sn_row {
    size_t field0;
    uint32_t nfields;
    uint32_t off, end;  /* bytes of the row in its region, end after the line end */
    uint32_t line;      /* 1-based physical line (start region only) */
    uint8_t kind, bad, region;
} sn_row;

typedef struct rows {
    const simdsv_allocator *alloc;
    sn_field *f;
    size_t nf, capf;
    sn_row *r;
    size_t nr, capr;
    int nomem;
    int unterminated;   /* the input ended inside a quoted field (that row is not in r) */
    size_t next_pos;    /* where the last parse of a region stopped, and its line there */
    uint32_t next_line;
} rows;

typedef struct dialect {
    char delim[5];
    size_t dlen;
    int quote, escape;
    const char *comment; /* marker or NULL */
    int trim;            /* spaces around fields are not data (SIMDSV_OPT_TRIM_SPACES) */
} dialect;

/* Text of a field with doubled quotes or escapes left in: only type tests
 * use it, and those never accept a quote or a backslash anyway. */
typedef struct field_text {
    const char *s;
    size_t n;
} field_text;

static inline field_text text_of(const region *gs, const rows *rs, const sn_row *row, size_t i)
{
    const sn_field *f = &rs->f[row->field0 + i];
    field_text t = {(const char *)gs[row->region].p + f->off, f->len};
    return t;
}

static inline int typed_kind(simdsv_type k)
{
    return k != SIMDSV_TYPE_NULL && k != SIMDSV_TYPE_STRING;
}

typedef struct format_guess {
    simdsv_type type;
    const char *format;
    double confidence;
    const char *reason;
} format_guess;

typedef struct encoding_result {
    encoding_kind kind;
    int bom, binary;
    double confidence;
    const char *reason;
} encoding_result;

typedef struct score {
    double value;
    size_t rows, mode_rows, k, kmin, kmax, bad_rows;
    double typed;
} score;

typedef struct sniff_input {
    region g[3];
    size_t ng;
    uint64_t input_size;  /* 0: unknown */
} sniff_input;

/* How many bytes of p[0..n) are a and how many b, in one pass: counted in
 * blocks of 255 into a byte, which the compiler vectorizes (a 64-bit count
 * per byte would not pay). */
static inline void simdsv__sniff_count_bytes(const uint8_t *p, size_t n, uint8_t a, uint8_t b, size_t *na, size_t *nb)
{
    *na = *nb = 0;
    for (size_t i = 0; i < n;) {
        const size_t end = n - i > 255 ? i + 255 : n;
        uint8_t block_a = 0, block_b = 0;
        for (; i < end; i++) {
            block_a = (uint8_t)(block_a + (p[i] == a));
            block_b = (uint8_t)(block_b + (p[i] == b));
        }
        *na += block_a;
        *nb += block_b;
    }
}

/* One detection: what each phase decided, for the phases after it (the
 * order is sniff.c's run). */
typedef struct sniff_run {
    sniff_impl *s;
    const simdsv_sniff_params *params; /* NULL: all defaults */
    const simdsv_options *opt;         /* the options given, or NULL */
    unsigned given;                    /* bit k: setting k was given, not detected */
    int dialect_only;                  /* the record commands' detection: no value typed beyond the header's need */
    /* encoding (encoding.c) */
    const sniff_input *in;             /* the sample as read */
    sniff_input conv;                  /* as analysed: UTF-8, past a BOM, later regions from their second line */
    const region *gs;                  /* conv.g */
    encoding_result enc;
    const char *given_encoding;
    int converted;                     /* conv's offsets are not input offsets */
    uint8_t *bufs[3];                  /* the converted regions (freed by run) */
    size_t caps[3];
    uint64_t skip0;                    /* input bytes before gs[0] (a BOM), when not converted */
    /* line ends and comment lines of the start (choose.c) */
    size_t cr_all, ends;
    const char *comment;               /* marker, or NULL */
    size_t comment_lines, lines;
    /* the dialect chosen (choose.c) */
    dialect d;
    score best;
    int delim_counted;                 /* the chosen delimiter's occurrences in the probe are known: */
    size_t delim_occurrences, delim_after_space; /* and how many a space follows */
    rows start_rows;                   /* the rows of the start the chosen candidate was scored on */
    int start_rows_ok;                 /* ... which the whole sample's parse goes on from */
    rows rs;                           /* the whole sample parsed with d */
    size_t bad_rows;                   /* rows of rs that d's quoting rejects */
    size_t quote_dropped;              /* rows '"' rejected, when no quoting was chosen for them */
    size_t nstart;                     /* rows of rs in the start */
    int dc_allowed;                    /* a decimal comma may be a number (',' is not the delimiter) */
    /* the layout (layout.c) */
    simdsv_sniff_table tbl[16];
    size_t ntables;
    size_t first_row[16];              /* each table's first row in rs */
    uint64_t footer_offset;            /* where the footer starts in gs (0: none) */
} sniff_run;

/* ---------------------------------------------------------------- sniff.c */

/* A formatted copy owned by the result ("" when out of memory). */
const char *simdsv__sniff_vkeep(sniff_impl *s, const char *fmt, va_list ap);

/* simdsv_sniff_path over an open descriptor (not closed, its offset not
 * moved for a regular file: the samples are read with pread()). */
simdsv_status simdsv__sniff_fd(int fd, const simdsv_sniff_params *params, simdsv_sniff **out, int *os_errno);
/* simdsv_sniff_apply for the settings not in given (1u << SIMDSV_SNIFF_x):
 * the given ones are left as opt has them. */
simdsv_status simdsv__sniff_apply_detected(const simdsv_sniff *s, simdsv_options *opt, unsigned given);
static inline const char *keep(sniff_impl *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *text = simdsv__sniff_vkeep(s, fmt, ap);
    va_end(ap);
    return text;
}

static inline void decide(sniff_impl *s, simdsv_sniff_setting k, double confidence, const char *reason)
{
    s->pub.decisions[k].confidence = confidence < 0 ? 0 : confidence > 1 ? 1 : confidence;
    s->pub.decisions[k].reason = reason;
}

static inline int is_given(const sniff_run *R, simdsv_sniff_setting k)
{
    return (R->given >> k) & 1;
}

/* ------------------------------------------------------------ the phases */

/* encoding.c: the encoding decided, the sample converted (R->conv, R->gs). */
simdsv_status simdsv__sniff_encoding(sniff_run *R);
/* choose.c: line endings and comment lines of the start; the dialect whose
 * rows are most regular (R->d, R->best), then the whole sample parsed with
 * it (R->rs) and its quote, escape, comment and padding decided. */
void simdsv__sniff_lines(sniff_run *R);
simdsv_status simdsv__sniff_choose_dialect(sniff_run *R);
simdsv_status simdsv__sniff_confirm_dialect(sniff_run *R);
/* layout.c: preamble, tables and footer; which table is read. */
void simdsv__sniff_layout(sniff_run *R);
/* The table read (its rows in R->rs) and its header. */
typedef struct table_read {
    size_t h0;         /* its first row */
    size_t width;      /* its field count */
    size_t body_end;   /* the row after its last */
    size_t nbody_rows; /* rows of width fields below h0 */
    size_t kc;         /* columns described (width, at most 512) */
    int header;
    uint64_t header_rows;
} table_read;
/* header.c: the header and header rows of table R->s->pub.table (R->ntables > 0),
 * and the lines that repeat its header (NOMEM when they cannot be kept). */
simdsv_status simdsv__sniff_header(sniff_run *R, table_read *tr);
/* columns.c: its columns' names and (but for dialect_only) types and value
 * formats; one date order and decimal mark for the reader. */
simdsv_status simdsv__sniff_columns(sniff_run *R, const table_read *tr);

/* ------------------------------------------------------------- dialect.c */

/* Parses up to max_rows rows of a region with dialect d, appending to rs.
 * A row cut by the end of an incomplete region is dropped. */
void simdsv__sniff_parse_region(const region *g, int gi, const dialect *d, size_t max_rows, rows *rs);

/* Parses region g as parse_region does, but from inside a quoted field of
 * d (d->quote >= 0), as the middle or the end of a file may start: its rows
 * begin after the row the field's closing quote is in.  Returns 1 when the
 * rest of that row breaks the quoting (its rows are not counted otherwise). */
size_t simdsv__sniff_parse_region_inside_quotes(const region *g, int gi, const dialect *d, size_t max_rows, rows *rs);

/* Whether d's quoting (d->quote >= 0) may break somewhere in region g: a
 * quote opening no field, text after a closing quote, the input ending
 * inside quotes; the middle and the end (!g->is_start) only when they break
 * with both quote parities at their start.  Walks from quote to quote
 * (memchr), so it costs little where quotes are few; a quote in a comment
 * line is answered 1 too (the parse, which knows comment lines, then
 * decides). */
int simdsv__sniff_quoting_breaks(const region *g, const dialect *d);

/* Physical lines in p[0..n): line ends (CRLF counts once), and a last line without one. */
uint64_t simdsv__sniff_count_lines(const uint8_t *p, size_t n);

/* The score of a candidate's rows (sc->value, 0 without a row), times the
 * delimiter's preference.  One whose value could not exceed beat even if
 * every field typed is not typed: its value is then that bound (beat -1:
 * always the exact value). */
void simdsv__sniff_score_rows(const region *gs, const rows *rs, int decimal_comma, double preference, double beat,
                              score *sc);

double simdsv__sniff_delimiter_preference(const char *d);

const char *simdsv__sniff_show_delim(sniff_impl *s, const char *d);

/* Copies src's rows into dst; false when out of memory. */
int simdsv__sniff_copy_rows(rows *dst, const rows *src);

/* Parses every region.  When rs already holds rows, they are the first rows
 * of the start parsed with d (its parse goes on from there).  The middle and
 * the end begin at a line start that
 * may lie inside a quoted field (a text with line breaks): a region whose
 * rows do not mostly have k fields is parsed again from just after the
 * first quote that ends a line (the other parity), and left out when that
 * is no better. */
void simdsv__sniff_parse_all(region *g, size_t ng, const dialect *d, size_t k, rows *rs);

void simdsv__sniff_free_rows(rows *rs);

/* 1 when a and b hold the same rows and fields (every offset and flag). */
int simdsv__sniff_rows_equal(const rows *a, const rows *b);

void simdsv__sniff_reset_rows(rows *rs);

/* The whole sample parsed again with dialect d (a comment marker dropped,
 * spaces trimmed): the rows, their count and the rows of the start.  False
 * when out of memory. */
int simdsv__sniff_reparse(sniff_input *conv, const dialect *d, size_t k, rows *rs, simdsv_sniff *out, size_t *nstart);

/* ------------------------------------------------------------- formats.c */

/* 1.234,56 / 1234,5 / -0,25: a decimal comma, optionally '.' thousands. */
int simdsv__sniff_decimal_comma_value(const char *s, size_t n, int *thousands);

/* The kind of a field as the typed reader infers it, quotes or not. */
simdsv_type simdsv__sniff_kind_of(field_text t, int decimal_comma);

/* A date format shared by every non-null value of a column, or 0. */
int simdsv__sniff_guess_date(sniff_impl *s, const field_text *vals, size_t nv, format_guess *g);

/* ------------------------------------------------------------ encoding.c */

/* nul_delimiter: NUL was given as the delimiter: zero bytes are structure,
 * neither a UTF-16 pattern nor a sign of binary data. */
void simdsv__sniff_detect_encoding(sniff_impl *s, const uint8_t *p, size_t n, int complete, int nul_delimiter,
                                   encoding_result *e);

/* A header name as UTF-8 in out (room for 3 n + 1 bytes): 8-bit text
 * converted, invalid bytes replaced (the name is shown, never read back). */
const char *simdsv__sniff_utf8_name(const encoding_result *e, const char *raw, size_t n, char *out);

/* The input offset of byte off of region i of a sample converted from
 * UTF-16: the converted bytes before it (a BOM and the cut first line of a
 * later region included) walked as code points, two input bytes each and
 * four above U+FFFF; a byte 0xFF (an invalid unit) stood for two. */
uint64_t simdsv__sniff_utf16_offset(const sniff_input *raw, const sniff_input *conv, uint8_t *const *bufs,
                                    size_t i, size_t off);

#endif
