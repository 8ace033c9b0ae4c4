/*
 * test_differential.c — random inputs under random dialects; everything
 * must agree.
 *
 * Usage: test_differential [SEED [INPUTS]]
 *
 * A deterministic PRNG builds thousands of CSV-like inputs (quoted fields
 * with delimiters, line ends, doubled quotes and escapes; stray quotes; text
 * after closing quotes; CR/LF/CRLF mixes; empty lines; comment lines; long
 * fields; multibyte UTF-8 and random bytes; a BOM; truncation anywhere) with
 * sizes around the 64-byte block edges and past the 64 KiB scan chunk, under
 * random options (delimiter, quote or none, escape, comment byte or
 * character, header, skipped lines, lenient or strict, UTF-8 mode).  For
 * each input:
 *   KERNEL  every kernel the CPU supports gives exactly the scalar result
 *           (records, flags, errors and their positions);
 *   STREAM  a callback source with random chunk sizes (and one byte at a
 *           time for small inputs) gives exactly the one-shot result;
 *   REF     the result equals the one of a deliberately simple reference
 *           parser written here from the documented conventions (a
 *           record's error is its first problem by position; field
 *           flags compared except NEEDS_UNESCAPE, which only says whether a
 *           view still holds quotes: decoded values are compared);
 *   COUNT   simdsv_reader_count equals the reference count (records up to
 *           the first quoting error in strict mode; UTF-8 is not checked).
 * A failing input is shrunk (bytes removed while the same check still
 * fails) and printed with its options as a ready-made reproducer.
 */
#include "harness.h"

/* ------------------------------------------------------------------ PRNG */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static size_t rng_below(size_t n)
{
    return n ? (size_t)(rng_next() % n) : 0;
}

/* 1 with probability percent/100 */
static int rng_chance(unsigned percent)
{
    return rng_below(100) < percent;
}

/* --------------------------------------------------------------- dialect */

typedef struct dialect {
    int delimiter, quote, escape; /* quote/escape -1 = none */
    uint8_t comment[4];
    size_t comment_len;           /* 0 = no comment */
    long comment_cp;
    int header, lenient, skip;
    simdsv_utf8_mode utf8;
} dialect;

/* The dialect bytes must differ and not be line ends (an escape equal to
 * the quote means "doubled quotes" and takes no byte of its own). */
static int dialect_bytes_distinct(const dialect *d)
{
    const int escape = d->escape == d->quote ? -1 : d->escape;
    const int bytes[4] = {d->delimiter, d->quote, escape, d->comment_len ? d->comment[0] : -1};
    for (int i = 0; i < 4; i++) {
        if (bytes[i] == '\n' || bytes[i] == '\r')
            return 0;
        for (int j = i + 1; j < 4; j++)
            if (bytes[i] >= 0 && bytes[i] == bytes[j])
                return 0;
    }
    return 1;
}

static void random_dialect(dialect *d)
{
    static const int delimiters[] = {',', ',', ',', ',', ';', '\t', '|', 0, 0x1f, 'x', ' ', 0xA7};
    static const int quotes[] = {'"', '"', '"', '"', '"', '"', '\'', -1, -1, '|', 'q'};
    static const int escapes[] = {-1, -1, -1, -1, -1, -1, '\\', '\\', '\\', 'e', '"'};
    static const long comments[] = {-1, -1, -1, -1, -1, '#', '#', '#', ';', 0x3B8, 0x1F600};
    do {
        memset(d, 0, sizeof *d);
        d->utf8 = (simdsv_utf8_mode)(rng_chance(50) ? SIMDSV_UTF8_STRICT : rng_chance(50) ? SIMDSV_UTF8_LOSSY : SIMDSV_UTF8_NONE);
        d->delimiter = delimiters[rng_below(sizeof delimiters / sizeof delimiters[0])];
        /* A byte that can be part of a character splits characters: only
         * when UTF-8 is not checked. */
        if (d->delimiter >= 0x80 && d->utf8 != SIMDSV_UTF8_NONE)
            d->delimiter = ',';
        d->quote = quotes[rng_below(sizeof quotes / sizeof quotes[0])];
        d->escape = escapes[rng_below(sizeof escapes / sizeof escapes[0])];
        if (d->quote < 0 && d->escape >= 0 && rng_chance(50))
            d->escape = -1;
        d->comment_cp = comments[rng_below(sizeof comments / sizeof comments[0])];
        if (d->comment_cp >= 0)
            d->comment_len = h_utf8_encode((unsigned long)d->comment_cp, (char *)d->comment);
        d->header = rng_chance(25);
        d->lenient = rng_chance(40);
        d->skip = rng_chance(10) ? (int)rng_below(4) : 0;
    } while (!dialect_bytes_distinct(d));
}

/* The options for d, in the syntax of test_cases.c (for reproducers). */
static void print_dialect(FILE *f, const dialect *d)
{
    fprintf(f, "d=\\x%02x", d->delimiter);
    if (d->quote < 0)
        fprintf(f, " q=none");
    else
        fprintf(f, " q=\\x%02x", d->quote);
    if (d->escape >= 0)
        fprintf(f, " e=\\x%02x", d->escape);
    if (d->comment_len)
        fprintf(f, " cc=0x%lx", d->comment_cp);
    if (d->header)
        fprintf(f, " h=1");
    if (d->skip)
        fprintf(f, " skip=%d", d->skip);
    if (d->lenient)
        fprintf(f, " lenient");
    fprintf(f, " utf8=%s", d->utf8 == SIMDSV_UTF8_STRICT ? "strict" : d->utf8 == SIMDSV_UTF8_LOSSY ? "lossy" : "none");
}

static simdsv_options *dialect_options(const dialect *d)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    if (!opt)
        return NULL;
    int ok = simdsv_options_set(opt, SIMDSV_OPT_DELIMITER, d->delimiter) == SIMDSV_OK;
    ok &= simdsv_options_set(opt, SIMDSV_OPT_QUOTE, d->quote) == SIMDSV_OK;
    ok &= simdsv_options_set(opt, SIMDSV_OPT_ESCAPE, d->escape) == SIMDSV_OK;
    ok &= simdsv_options_set(opt, SIMDSV_OPT_COMMENT_CHAR, d->comment_len ? d->comment_cp : -1) == SIMDSV_OK;
    ok &= simdsv_options_set(opt, SIMDSV_OPT_HEADER, d->header) == SIMDSV_OK;
    ok &= simdsv_options_set(opt, SIMDSV_OPT_LENIENT, d->lenient) == SIMDSV_OK;
    ok &= simdsv_options_set(opt, SIMDSV_OPT_SKIP_LINES, d->skip) == SIMDSV_OK;
    ok &= simdsv_options_set(opt, SIMDSV_OPT_UTF8, d->utf8) == SIMDSV_OK;
    if (!CHECK(ok)) {
        simdsv_options_free(opt);
        return NULL;
    }
    return opt;
}

/* ----------------------------------------------------------------- input */

typedef struct bytes {
    uint8_t *data;
    size_t len, cap;
} bytes;

static void add(bytes *b, const void *p, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n)
            cap *= 2;
        b->data = h_xrealloc(b->data, cap);
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void add_byte(bytes *b, int c)
{
    const uint8_t u = (uint8_t)c;
    add(b, &u, 1);
}

static void add_str(bytes *b, const char *s)
{
    add(b, s, strlen(s));
}

static void add_line_end(bytes *b)
{
    const size_t r = rng_below(100);
    add_str(b, r < 50 ? "\n" : r < 80 ? "\r\n" : "\r");
}

/* Text for an unquoted field; `wild` adds the bytes that break it. */
static void add_text(bytes *b, const dialect *d, size_t n, int wild)
{
    static const char *const chars[] = {"a", "b", "z", "0", "9", " ", "-", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "#"};
    for (size_t i = 0; i < n; i++) {
        const size_t r = rng_below(100);
        if (wild && r < 3 && d->quote >= 0)
            add_byte(b, d->quote); /* a stray quote */
        else if (wild && r < 5)
            add_byte(b, (int)rng_below(256)); /* any byte */
        else if (r < 8 && d->escape >= 0)
            for (size_t k = rng_chance(10) ? rng_below(100) : 1; k > 0; k--)
                add_byte(b, d->escape);
        else if (r < 10 && d->comment_len)
            add(b, d->comment, d->comment_len);
        else if (r < 11)
            add_byte(b, 0);
        else
            add_str(b, chars[rng_below(sizeof chars / sizeof chars[0])]);
    }
}

/* Inside quotes: delimiters, line ends, doubled quotes, escapes. */
static void add_quoted_content(bytes *b, const dialect *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const size_t r = rng_below(100);
        if (r < 2) {
            /* a run of escapes or doubled quotes, possibly across blocks */
            const size_t run = 1 + rng_below(rng_chance(50) ? 8 : 140);
            for (size_t k = 0; k < run; k++)
                add_byte(b, d->escape >= 0 && rng_chance(70) ? d->escape : d->quote);
            if (d->escape >= 0 && rng_chance(50))
                add_byte(b, d->quote);
        } else if (r < 10)
            add_byte(b, d->delimiter);
        else if (r < 16)
            add_line_end(b);
        else if (r < 24) {
            add_byte(b, d->quote);
            add_byte(b, d->quote);
        } else if (r < 32 && d->escape >= 0) {
            add_byte(b, d->escape);
            const size_t e = rng_below(4);
            add_byte(b, e == 0 ? d->quote : e == 1 ? d->escape : e == 2 ? 'n' : d->delimiter);
        } else if (r < 34 && d->comment_len) {
            add(b, d->comment, d->comment_len);
        } else {
            add_text(b, d, 1, 0);
        }
    }
}

static void add_field(bytes *b, const dialect *d, int wild)
{
    const size_t len = rng_chance(2) ? 3000 + rng_below(80000) : rng_below(rng_chance(20) ? 40 : 6);
    if (d->quote >= 0 && rng_chance(40)) {
        add_byte(b, d->quote);
        add_quoted_content(b, d, len);
        if (wild && rng_chance(2))
            return; /* unterminated: the rest of the input is inside quotes */
        add_byte(b, d->quote);
        if (wild && rng_chance(4))
            add_text(b, d, 1 + rng_below(3), 1); /* text after the closing quote */
        return;
    }
    add_text(b, d, len, wild);
}

/* An input of about `target` bytes (cut to exactly target when `exact`). */
static void random_input(bytes *b, const dialect *d, size_t target, int exact)
{
    b->len = 0;
    const int wild = rng_chance(70);
    /* A regular file: most records of one width (1 to 40), few empty lines,
     * so that the record path's long runs of one width (the kernels cut
     * them many fields at a time) meet every kind of record that ends one. */
    const size_t width = rng_chance(30) ? 1 + rng_below(rng_chance(50) ? 40 : 6) : 0;
    if (rng_chance(5))
        add_str(b, "\xEF\xBB\xBF");
    while (b->len < target) {
        const size_t r = width && rng_chance(90) ? 99 : rng_below(100);
        if (r < 8) {
            add_line_end(b); /* an empty line */
            continue;
        }
        if (r < 14 && d->comment_len) {
            add(b, d->comment, d->comment_len);
            add_text(b, d, rng_below(10), 1);
            if (d->quote >= 0 && rng_chance(50))
                add_byte(b, d->quote);
            add_line_end(b);
            continue;
        }
        const size_t nfields = width && r == 99 ? width : 1 + rng_below(rng_chance(10) ? 30 : 5);
        for (size_t i = 0; i < nfields; i++) {
            if (i)
                add_byte(b, d->delimiter);
            add_field(b, d, wild);
        }
        if (b->len < target || rng_chance(50))
            add_line_end(b);
    }
    if (exact && b->len > target)
        b->len = target;
}

/* ------------------------------------------------------ reference parser */

/* The reference follows the documented conventions (README of the corpus
 * and simdsv.h) with the simplest possible code: whole input in memory, one
 * record at a time, one field at a time. */

static int ref_is_line_end(uint8_t c)
{
    return c == '\n' || c == '\r';
}

/* Length of a valid UTF-8 sequence at p (RFC 3629), or 0. */
static size_t ref_utf8_seq(const uint8_t *p, size_t left)
{
    const uint8_t c = p[0];
    if (c < 0x80)
        return 1;
    size_t len;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (left < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Offset of the first invalid sequence in p[0..n), or n. */
static size_t ref_utf8_first_invalid(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const size_t len = ref_utf8_seq(p + i, n - i);
        if (!len)
            return i;
        i += len;
    }
    return n;
}

typedef struct ref_field {
    bytes value;
    size_t raw_start, raw_end;
    int quoted;
} ref_field;

typedef struct ref_record {
    ref_field *fields;
    size_t nfields, cap;
    size_t start, end;          /* end: past the line end, or the input end */
    simdsv_status violation;    /* first departure from RFC 4180, SIMDSV_OK if none */
    size_t violation_pos;
    size_t violation_field;
} ref_record;

static void ref_violation(ref_record *r, simdsv_status code, size_t pos)
{
    if (r->violation == SIMDSV_OK) {
        r->violation = code;
        r->violation_pos = pos;
        r->violation_field = r->nfields - 1; /* the field being read */
    }
}

static ref_field *ref_new_field(ref_record *r, size_t start)
{
    if (r->nfields == r->cap) {
        const size_t old = r->cap;
        r->cap = r->cap ? r->cap * 2 : 8;
        r->fields = h_xrealloc(r->fields, r->cap * sizeof *r->fields);
        memset(r->fields + old, 0, (r->cap - old) * sizeof *r->fields);
    }
    ref_field *f = &r->fields[r->nfields++];
    f->value.len = 0;
    f->raw_start = start;
    f->quoted = 0;
    return f;
}

/* Reads the record at p (not a line end, not a comment). */
static void ref_record_at(const dialect *d, const uint8_t *in, size_t n, size_t p, ref_record *r)
{
    r->nfields = 0;
    r->start = p;
    r->violation = SIMDSV_OK;
    for (;;) {
        ref_field *f = ref_new_field(r, p);
        if (d->quote >= 0 && p < n && in[p] == d->quote) {
            /* A quoted field: up to the closing quote. */
            const size_t open = p++;
            f->quoted = 1;
            int closed = 0;
            while (p < n) {
                const uint8_t c = in[p];
                if (d->escape >= 0 && d->escape != d->quote && c == d->escape) {
                    if (p + 1 < n)
                        add_byte(&f->value, in[p + 1]);
                    p += 2;
                    continue;
                }
                if (c == d->quote) {
                    if (p + 1 < n && in[p + 1] == d->quote) {
                        add_byte(&f->value, c);
                        p += 2;
                        continue;
                    }
                    p++;
                    closed = 1;
                    break;
                }
                add_byte(&f->value, c);
                p++;
            }
            if (p > n)
                p = n;
            if (!closed) {
                ref_violation(r, SIMDSV_ERR_UNTERMINATED_QUOTE, open);
            } else if (p < n && in[p] != d->delimiter && !ref_is_line_end(in[p])) {
                /* Text after the closing quote: kept, as unquoted text. */
                ref_violation(r, SIMDSV_ERR_TEXT_AFTER_QUOTE, p);
                while (p < n && in[p] != d->delimiter && !ref_is_line_end(in[p]))
                    add_byte(&f->value, in[p++]);
            }
        } else {
            while (p < n && in[p] != d->delimiter && !ref_is_line_end(in[p])) {
                if (d->quote >= 0 && in[p] == d->quote)
                    ref_violation(r, SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD, p);
                add_byte(&f->value, in[p++]);
            }
        }
        f->raw_end = p;
        if (p >= n) {
            r->end = n;
            return;
        }
        if (in[p] == d->delimiter) {
            p++;
            continue;
        }
        r->end = p + 1; /* one line-end byte: the LF of a CRLF is an empty line */
        return;
    }
}

/* Line and column of input offset pos (1-based; the column counts
 * characters, each byte of an invalid sequence as one; a BOM is not a
 * character of line 1). */
static void ref_line_column(const uint8_t *in, size_t pos, size_t bom, uint64_t *line, uint64_t *column)
{
    uint64_t l = 1;
    size_t line_start = bom;
    for (size_t i = 0; i < pos; i++) {
        if (in[i] == '\r' || (in[i] == '\n' && !(i > 0 && in[i - 1] == '\r')))
            l++;
        if (ref_is_line_end(in[i]))
            line_start = i + 1;
    }
    uint64_t c = 1;
    for (size_t i = line_start; i < pos;) {
        const size_t len = ref_utf8_seq(in + i, pos - i);
        i += len ? len : 1;
        c++;
    }
    *line = l;
    *column = c;
}

typedef struct ref_count_result {
    simdsv_status status;
    uint64_t count, byte_offset;
} ref_count_result;

static void ref_parse(const dialect *d, const uint8_t *in, size_t n, h_result *out, ref_count_result *cnt)
{
    h_result_reset(out);
    ref_record rec;
    memset(&rec, 0, sizeof rec);
    const size_t bom = n >= 3 && memcmp(in, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    size_t p = bom;
    for (int k = 0; k < d->skip && p < n; k++) {
        while (p < n && !ref_is_line_end(in[p]))
            p++;
        if (p < n)
            p += in[p] == '\r' && p + 1 < n && in[p + 1] == '\n' ? 2 : 1;
    }
    int header_pending = d->header;
    uint64_t physical = 0, index = 0;
    cnt->status = SIMDSV_OK;
    cnt->count = 0;
    cnt->byte_offset = 0;
    int counting = 1;
    for (;;) {
        while (p < n && ref_is_line_end(in[p]))
            p++;
        if (p >= n)
            break;
        if (d->comment_len && n - p >= d->comment_len && memcmp(in + p, d->comment, d->comment_len) == 0) {
            while (p < n && !ref_is_line_end(in[p]))
                p++;
            if (p < n)
                p++;
            continue;
        }
        ref_record_at(d, in, n, p, &rec);
        p = rec.end;
        simdsv_status code = SIMDSV_OK;
        size_t pos = 0;
        uint64_t field = 0;
        /* The first problem of the record by position: a quoting error
         * (strict mode) or the first invalid UTF-8 byte (strict UTF-8). */
        const size_t quoting_at = rec.violation != SIMDSV_OK && !d->lenient ? rec.violation_pos : rec.end;
        if (rec.violation != SIMDSV_OK && !d->lenient) {
            code = rec.violation;
            pos = rec.violation_pos;
            field = rec.violation_field;
        }
        if (d->utf8 == SIMDSV_UTF8_STRICT) {
            const size_t bad = rec.start + ref_utf8_first_invalid(in + rec.start, quoting_at - rec.start);
            if (bad < quoting_at) {
                field = 0;
                code = SIMDSV_ERR_INVALID_UTF8;
                pos = bad;
                while (field + 1 < rec.nfields && rec.fields[field + 1].raw_start <= bad)
                    field++;
            }
        }
        /* Counting (after the header) ignores UTF-8 and stops at the first
         * quoting error. */
        if (counting && !header_pending) {
            if (rec.violation != SIMDSV_OK && !d->lenient) {
                cnt->status = rec.violation;
                cnt->byte_offset = rec.violation_pos;
                counting = 0;
            } else {
                cnt->count++;
            }
        } else if (counting && code != SIMDSV_OK) {
            /* the header cannot be read: counting fails there */
            cnt->status = code;
            cnt->byte_offset = pos;
            counting = 0;
        }
        if (code != SIMDSV_OK) {
            h_item *it = h_result_add_item(out, H_ERROR);
            it->err.code = code;
            it->err.byte_offset = pos;
            ref_line_column(in, pos, bom, &it->err.line, &it->err.column);
            it->err.record = physical;
            it->err.field = field;
            physical++;
            continue;
        }
        physical++;
        h_item *it = h_result_add_item(out, header_pending ? H_HEADER : H_RECORD);
        if (!header_pending) {
            it->index = index++;
            it->byte_offset = rec.start;
        }
        header_pending = 0;
        for (size_t i = 0; i < rec.nfields; i++) {
            const ref_field *f = &rec.fields[i];
            unsigned flags = f->quoted ? SIMDSV_FIELD_QUOTED : 0;
            if (d->utf8 == SIMDSV_UTF8_LOSSY && ref_utf8_first_invalid(f->value.data, f->value.len) < f->value.len)
                flags |= SIMDSV_FIELD_INVALID_UTF8;
            h_result_add_field(out, f->value.data, f->value.len, flags);
        }
    }
    for (size_t i = 0; i < rec.cap; i++)
        free(rec.fields[i].value.data);
    free(rec.fields);
}

/* ---------------------------------------------------------------- checks */

enum { CAT_KERNEL = 1, CAT_STREAM = 2, CAT_REF = 4, CAT_COUNT = 8 };
static const char *const cat_names[] = {"KERNEL", "STREAM", "REF", "COUNT"};

static simdsv_kernel kernels[SIMDSV_KERNEL_COUNT];
static size_t nkernels;

/* How an input is streamed; fixed per input so that shrinking replays it. */
typedef struct plan {
    size_t chunks[4];
    size_t nchunks;
    simdsv_kernel stream_kernel;
} plan;

typedef struct check_state {
    h_result base, other, ref;
    char why[256];
    const char *what;      /* the failing comparison */
    simdsv_kernel kernel;
} check_state;

static void show_failure(const dialect *d, const uint8_t *in, size_t n, check_state *s, unsigned cat,
                         const ref_count_result *want_count, uint64_t got_count, simdsv_status got_st, h_error *got_err)
{
    fprintf(stderr, "    %s mismatch: %s (%s)\n    options: ", cat_names[cat == CAT_KERNEL ? 0 : cat == CAT_STREAM ? 1 : cat == CAT_REF ? 2 : 3], s->what, s->why);
    print_dialect(stderr, d);
    fprintf(stderr, "\n    input (%zu bytes): ", n);
    h_print_bytes(stderr, in, n);
    fputc('\n', stderr);
    if (cat == CAT_COUNT) {
        fprintf(stderr, "    simdsv_reader_count: %s, %llu (error at byte %llu); reference: %s, %llu (at %llu)\n",
                simdsv_status_name(got_st), (unsigned long long)got_count, (unsigned long long)got_err->byte_offset,
                simdsv_status_name(want_count->status), (unsigned long long)want_count->count,
                (unsigned long long)want_count->byte_offset);
        return;
    }
    fprintf(stderr, "    expected (%s):\n", cat == CAT_REF ? "reference" : "scalar one-shot");
    h_result_print(stderr, cat == CAT_REF ? &s->ref : &s->base, "      ");
    fprintf(stderr, "    got:\n");
    h_result_print(stderr, cat == CAT_REF ? &s->base : &s->other, "      ");
}

/* Runs every comparison in `cats`; returns the failed ones.  With `report`
 * the first failure of each is printed. */
static unsigned check_input(const dialect *d, const uint8_t *in, size_t n, const plan *pl, unsigned cats, int report,
                            check_state *s)
{
    unsigned failed = 0;
    simdsv_options *opt = dialect_options(d);
    if (!opt)
        return cats;
    h_read how = h_how(H_MEMORY);
    how.kernel = SIMDSV_KERNEL_SCALAR;
    h_read_into(&s->base, opt, in, n, &how);
    if (s->base.end != SIMDSV_END) {
        s->what = "scalar one-shot read";
        snprintf(s->why, sizeof s->why, "ended with %s", simdsv_status_name(s->base.end));
        failed |= cats;
        if (report && h_fail(__FILE__, __LINE__))
            show_failure(d, in, n, s, CAT_REF, NULL, 0, SIMDSV_OK, NULL);
        simdsv_options_free(opt);
        return failed;
    }
    if (cats & CAT_KERNEL) {
        for (size_t k = 0; k < nkernels && !(failed & CAT_KERNEL); k++) {
            if (kernels[k] == SIMDSV_KERNEL_SCALAR)
                continue;
            how.kernel = kernels[k];
            h_read_into(&s->other, opt, in, n, &how);
            if (!h_result_equal(&s->other, &s->base, H_CMP_FLAGS_ALL, s->why, sizeof s->why)) {
                s->what = simdsv_kernel_name(kernels[k]);
                failed |= CAT_KERNEL;
                if (report && h_fail(__FILE__, __LINE__))
                    show_failure(d, in, n, s, CAT_KERNEL, NULL, 0, SIMDSV_OK, NULL);
            } else if (report) {
                PASS();
            }
        }
    }
    if (cats & CAT_STREAM) {
        static const size_t one[1] = {1};
        for (int variant = 0; variant < 2 && !(failed & CAT_STREAM); variant++) {
            if (variant == 1 && n > 3000)
                break;
            h_read sh = h_how(H_CHUNKS);
            sh.kernel = pl->stream_kernel;
            sh.cycle = 1;
            sh.chunks = variant ? one : pl->chunks;
            sh.nchunks = variant ? 1 : pl->nchunks;
            h_read_into(&s->other, opt, in, n, &sh);
            if (!h_result_equal(&s->other, &s->base, H_CMP_FLAGS_ALL, s->why, sizeof s->why)) {
                s->what = variant ? "one byte at a time" : "random chunks";
                failed |= CAT_STREAM;
                if (report && h_fail(__FILE__, __LINE__)) {
                    show_failure(d, in, n, s, CAT_STREAM, NULL, 0, SIMDSV_OK, NULL);
                    fprintf(stderr, "    chunks:");
                    for (size_t i = 0; i < sh.nchunks; i++)
                        fprintf(stderr, " %zu", sh.chunks[i]);
                    fprintf(stderr, " (repeating), kernel %s, 4 KiB buffer\n", simdsv_kernel_name(sh.kernel));
                }
            } else if (report) {
                PASS();
            }
        }
    }
    ref_count_result want;
    if (cats & (CAT_REF | CAT_COUNT))
        ref_parse(d, in, n, &s->ref, &want);
    if (cats & CAT_REF) {
        if (!h_result_equal(&s->base, &s->ref, H_CMP_NO_UNESCAPE_FLAG, s->why, sizeof s->why)) {
            s->what = "library vs reference";
            failed |= CAT_REF;
            if (report && h_fail(__FILE__, __LINE__))
                show_failure(d, in, n, s, CAT_REF, NULL, 0, SIMDSV_OK, NULL);
        } else if (report) {
            PASS();
        }
    }
    if (cats & CAT_COUNT) {
        for (int streamed = 0; streamed < 2 && !(failed & CAT_COUNT); streamed++) {
            h_read ch = h_how(streamed ? H_CHUNKS : H_MEMORY);
            ch.kernel = streamed ? pl->stream_kernel : SIMDSV_KERNEL_SCALAR;
            ch.chunks = pl->chunks;
            ch.nchunks = pl->nchunks;
            ch.cycle = 1;
            uint64_t count = 0;
            h_error err;
            const simdsv_status st = h_count(opt, in, n, &ch, &count, &err);
            if (st != want.status || count != want.count || (st != SIMDSV_OK && err.byte_offset != want.byte_offset)) {
                s->what = streamed ? "count, streamed" : "count, one-shot";
                snprintf(s->why, sizeof s->why, "different count");
                failed |= CAT_COUNT;
                if (report && h_fail(__FILE__, __LINE__))
                    show_failure(d, in, n, s, CAT_COUNT, &want, count, st, &err);
            } else if (report) {
                PASS();
            }
        }
    }
    simdsv_options_free(opt);
    return failed;
}

/* Removes bytes while check `cat` still fails; returns the new length. */
static size_t shrink(const dialect *d, uint8_t *in, size_t n, const plan *pl, unsigned cat, check_state *s)
{
    uint8_t *tmp = h_xmalloc(n + 1);
    size_t tries = 0;
    const size_t max_tries = 4000;
    for (size_t chunk = n / 2 ? n / 2 : 1; chunk >= 1 && tries < max_tries; chunk /= 2) {
        int progress = 1;
        while (progress && tries < max_tries) {
            progress = 0;
            for (size_t i = 0; i + chunk <= n && tries < max_tries; tries++) {
                memcpy(tmp, in, i);
                memcpy(tmp + i, in + i + chunk, n - i - chunk);
                if (check_input(d, tmp, n - chunk, pl, cat, 0, s) & cat) {
                    memcpy(in, tmp, n - chunk);
                    n -= chunk;
                    progress = 1;
                } else {
                    i += chunk;
                }
            }
        }
        if (chunk == 1)
            break;
    }
    free(tmp);
    return n;
}

int main(int argc, char **argv)
{
    const uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 20240601;
    const size_t inputs = argc > 2 ? (size_t)strtoull(argv[2], NULL, 0) : 3000;
    rng_state = seed;
    for (int k = SIMDSV_KERNEL_SCALAR; k < SIMDSV_KERNEL_COUNT; k++)
        if (simdsv_kernel_supported((simdsv_kernel)k))
            kernels[nkernels++] = (simdsv_kernel)k;
    printf("seed %llu, %zu inputs, kernels:", (unsigned long long)seed, inputs);
    for (size_t k = 0; k < nkernels; k++)
        printf(" %s", simdsv_kernel_name(kernels[k]));
    printf("\n");
    fflush(stdout);

    check_state s;
    h_result_init(&s.base);
    h_result_init(&s.other);
    h_result_init(&s.ref);
    bytes in = {NULL, 0, 0};
    unsigned reported = 0;
    size_t failures[4] = {0, 0, 0, 0};
    size_t total_bytes = 0, big = 0;
    static const size_t edges[] = {1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257};
    static const size_t chunk_sizes[] = {1, 2, 3, 7, 31, 63, 64, 65, 100, 1000, 4095, 4096, 5000};
    for (size_t iter = 0; iter < inputs; iter++) {
        dialect d;
        random_dialect(&d);
        const size_t kind = rng_below(1000);
        size_t target;
        int exact = 1;
        if (kind < 550) {
            target = rng_below(200);
        } else if (kind < 800) {
            target = edges[rng_below(sizeof edges / sizeof edges[0])] + 64 * rng_below(3);
        } else if (kind < 990) {
            target = 200 + rng_below(6000);
            exact = rng_chance(50);
        } else {
            target = 65536 + rng_below(3) * 40000 - 64 + rng_below(128);
            big++;
        }
        random_input(&in, &d, target, exact);
        total_bytes += in.len;
        plan pl;
        pl.nchunks = 1 + rng_below(4);
        for (size_t i = 0; i < pl.nchunks; i++)
            pl.chunks[i] = chunk_sizes[rng_below(sizeof chunk_sizes / sizeof chunk_sizes[0])];
        pl.stream_kernel = kernels[rng_below(nkernels)];

        h_context("input %zu (seed %llu)", iter, (unsigned long long)seed);
        const unsigned all = CAT_KERNEL | CAT_STREAM | CAT_REF | CAT_COUNT;
        const unsigned failed = check_input(&d, in.data, in.len, &pl, all, 0, &s);
        for (unsigned c = 0; c < 4; c++) {
            const unsigned cat = 1u << c;
            if (!(failed & cat)) {
                PASS();
                continue;
            }
            failures[c]++;
            if (failures[c] > 3) {
                h_failed++; /* counted; only the first few are shrunk and shown */
                continue;
            }
            uint8_t *copy = h_xmalloc(in.len + 1);
            memcpy(copy, in.data, in.len);
            const size_t n = shrink(&d, copy, in.len, &pl, cat, &s);
            h_context("input %zu (seed %llu), shrunk from %zu to %zu bytes", iter, (unsigned long long)seed, in.len, n);
            if (!(check_input(&d, copy, n, &pl, cat, 1, &s) & cat))
                FAIL_MSG("(the failure did not reproduce after shrinking)");
            reported++;
            free(copy);
        }
    }
    h_context(NULL);
    printf("%zu inputs (%zu over 64 KiB), %zu bytes; failures: kernel %zu, stream %zu, reference %zu, count %zu\n",
           inputs, big, total_bytes, failures[0], failures[1], failures[2], failures[3]);
    free(in.data);
    h_result_free(&s.base);
    h_result_free(&s.other);
    h_result_free(&s.ref);
    return check_summary();
}
