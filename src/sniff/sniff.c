/*
 * sniff.c — dialect detection over a bounded sample (simdsv_sniff_*).
 *
 * The order of the decisions, each using the ones before it (run):
 *   1. encoding (encoding.c): a BOM, the NUL pattern of UTF-16, UTF-8
 *      validity, else Windows-1252 (when bytes 0x80..0x9F occur) or
 *      ISO-8859-1.  The structure of an 8-bit file is ASCII, so those are
 *      analysed as they are (offsets stay input offsets); UTF-16 is
 *      converted first.
 *   2. line ending and comment lines (# // % at line starts) (choose.c).
 *   3. delimiter, quote and escape together (choose.c): every candidate
 *      dialect parses the start of the sample; the score is the share of
 *      rows with the most common field count, times how well the fields
 *      then type, less rows the quoting rejects.  Ties go to the usual ','
 *      '"' doubled.
 *   4. with that dialect: where the table starts (preamble), where tables
 *      and the footer begin (layout.c), the header (type contrast between
 *      the first row and the body) and its row count (header.c), and each
 *      column's type and value format (columns.c).
 * Nothing here parses beyond the sample: the reader does the real work with
 * the options this proposes (src/sniff/ only proposes).
 */
#define _POSIX_C_SOURCE 200809L
#include "../common/internal.h"
#include "../source/transcode.h"
#include "../values/values.h"
#include "sniff.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *simdsv__sniff_vkeep(sniff_impl *s, const char *fmt, va_list ap)
{
    char tmp[512];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (n < 0)
        return "";
    if ((size_t)n >= sizeof tmp)
        n = (int)sizeof tmp - 1;
    text_node *t = simdsv__alloc(&s->alloc, sizeof *t + (size_t)n + 1);
    if (!t)
        return "";
    t->next = s->texts;
    t->size = sizeof *t + (size_t)n + 1;
    s->texts = t;
    char *p = (char *)(t + 1);
    memcpy(p, tmp, (size_t)n);
    p[n] = '\0';
    return p;
}


static simdsv_status run(sniff_impl *s, const sniff_input *in, const simdsv_sniff_params *params)
{
    simdsv_sniff *out = &s->pub;
    sniff_run R;
    memset(&R, 0, sizeof R);
    R.s = s;
    R.params = params;
    R.opt = params ? params->opt : NULL;
    R.given = params ? params->given : 0;
    R.dialect_only = params && params->dialect_only;
    R.in = in;
    R.rs.alloc = &s->alloc;
    R.start_rows.alloc = &s->alloc;
    for (int k = 0; k < SIMDSV_SNIFF_SETTING_COUNT; k++)
        out->decisions[k].given = (R.given >> k) & 1;
    out->input_size = in->input_size;
    simdsv_status st = simdsv__sniff_encoding(&R);
    if (st == SIMDSV_OK) {
        simdsv__sniff_lines(&R);
        st = simdsv__sniff_choose_dialect(&R);
    }
    if (st == SIMDSV_OK)
        st = simdsv__sniff_confirm_dialect(&R);
    if (st == SIMDSV_OK) {
        simdsv__sniff_layout(&R);
        if (R.ntables) {
            table_read tr;
            st = simdsv__sniff_header(&R, &tr);
            if (st == SIMDSV_OK)
                st = simdsv__sniff_columns(&R, &tr);
        } else {
            decide(s, SIMDSV_SNIFF_HEADER, NOT_SURE, "not sure: no rows");
            decide(s, SIMDSV_SNIFF_HEADER_ROWS, NOT_SURE, "not sure: no rows");
            decide(s, SIMDSV_SNIFF_DECIMAL, NOT_SURE, "not sure: no rows");
            decide(s, SIMDSV_SNIFF_DATES, NOT_SURE, "not sure: no rows");
            out->header = 1;
            out->header_rows = 1;
        }
    }
    if (st == SIMDSV_OK && R.ntables) {
        s->tables = simdsv__alloc(&s->alloc, R.ntables * sizeof *s->tables);
        if (s->tables) {
            memcpy(s->tables, R.tbl, R.ntables * sizeof *R.tbl);
            s->tables_cap = R.ntables;
            out->tables = s->tables;
            out->table_count = R.ntables;
        } else {
            st = SIMDSV_ERR_NOMEM;
        }
    }
    if (st == SIMDSV_OK && out->binary) {
        for (int k = SIMDSV_SNIFF_DELIMITER; k < SIMDSV_SNIFF_SETTING_COUNT; k++)
            if (!out->decisions[k].given)
                decide(s, (simdsv_sniff_setting)k, 0.1, "not sure: the input is not text");
    }
    for (size_t i = 0; i < 3; i++)
        simdsv__free(&s->alloc, R.bufs[i], R.caps[i]);
    simdsv__sniff_free_rows(&R.rs);
    simdsv__sniff_free_rows(&R.start_rows);
    return st;
}

static simdsv_status make(const simdsv_sniff_params *params, sniff_impl **out)
{
    const simdsv_allocator a = simdsv__options_allocator(params ? params->opt : NULL);
    sniff_impl *s = simdsv__alloc(&a, sizeof *s);
    if (!s)
        return SIMDSV_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    s->alloc = a;
    *out = s;
    return SIMDSV_OK;
}

void simdsv_sniff_free(simdsv_sniff *sniff)
{
    if (!sniff)
        return;
    sniff_impl *s = (sniff_impl *)sniff;
    const simdsv_allocator a = s->alloc;
    for (text_node *t = s->texts; t;) {
        text_node *next = t->next;
        simdsv__free(&a, t, t->size);
        t = next;
    }
    simdsv__free(&a, s->tables, s->tables_cap * sizeof *s->tables);
    simdsv__free(&a, s->repeated, s->repeated_cap * sizeof *s->repeated);
    simdsv__free(&a, s->columns, (s->pub.column_count ? s->pub.column_count : 1) * sizeof *s->columns);
    simdsv__free(&a, s, sizeof *s);
}

static simdsv_status finish(sniff_impl *s, simdsv_status st, simdsv_sniff **out)
{
    if (st != SIMDSV_OK) {
        simdsv_sniff_free(&s->pub);
        return st;
    }
    *out = &s->pub;
    return SIMDSV_OK;
}

simdsv_status simdsv_sniff_memory(const void *data, size_t size, const simdsv_sniff_params *params,
                                  simdsv_sniff **out)
{
    if (!out || (!data && size))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    sniff_impl *s;
    simdsv_status st = make(params, &s);
    if (st != SIMDSV_OK)
        return st;
    sniff_input in;
    memset(&in, 0, sizeof in);
    const uint8_t *p = data ? data : (const uint8_t *)"";
    in.g[0].p = p;
    in.g[0].n = size < START_SAMPLE ? size : START_SAMPLE;
    in.g[0].is_start = 1;
    in.g[0].complete = size <= START_SAMPLE;
    in.ng = 1;
    in.input_size = size;
    if (params && params->partial) {
        in.g[0].complete = 0;
        in.input_size = 0;
    } else if (size > START_SAMPLE + 2 * PART_SAMPLE) {
        const size_t mid = (size / 2) & ~(size_t)1;
        in.g[1].p = p + mid;
        in.g[1].n = PART_SAMPLE;
        in.g[1].offset = mid;
        in.g[2].p = p + (size - PART_SAMPLE);
        in.g[2].n = PART_SAMPLE;
        in.g[2].offset = size - PART_SAMPLE;
        in.g[2].complete = 1;
        in.ng = 3;
    } else if (size > START_SAMPLE) {
        in.g[0].n = size;
        in.g[0].complete = 1;
    }
    return finish(s, run(s, &in, params), out);
}

static int read_at(int fd, uint8_t *buf, size_t size, uint64_t at, size_t *got)
{
    *got = 0;
    while (*got < size) {
        ssize_t n;
        do
            n = pread(fd, buf + *got, size - *got, (off_t)(at + *got));
        while (n < 0 && errno == EINTR);
        if (n < 0)
            return errno;
        if (n == 0)
            break;
        *got += (size_t)n;
    }
    return 0;
}

simdsv_status simdsv_sniff_path(const char *path, const simdsv_sniff_params *params, simdsv_sniff **out,
                                int *os_errno)
{
    int dummy;
    if (!os_errno)
        os_errno = &dummy;
    *os_errno = 0;
    if (!path || !out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        *os_errno = errno;
        return SIMDSV_ERR_IO;
    }
    const simdsv_status st = simdsv__sniff_fd(fd, params, out, os_errno);
    close(fd);
    return st;
}

simdsv_status simdsv__sniff_fd(int fd, const simdsv_sniff_params *params, simdsv_sniff **out, int *os_errno)
{
    *out = NULL;
    *os_errno = 0;
    struct stat stt;
    if (fstat(fd, &stt) != 0 || S_ISDIR(stt.st_mode)) {
        *os_errno = S_ISDIR(stt.st_mode) ? EISDIR : errno;
        return SIMDSV_ERR_IO;
    }
    sniff_impl *s;
    simdsv_status st = make(params, &s);
    if (st != SIMDSV_OK)
        return st;
    const size_t cap = START_SAMPLE + 2 * PART_SAMPLE;
    uint8_t *buf = simdsv__alloc(&s->alloc, cap);
    if (!buf)
        return finish(s, SIMDSV_ERR_NOMEM, out);
    sniff_input in;
    memset(&in, 0, sizeof in);
    const int regular = S_ISREG(stt.st_mode);
    const uint64_t size = regular ? (uint64_t)stt.st_size : 0;
    size_t got = 0;
    int err = 0;
    if (regular) {
        err = read_at(fd, buf, START_SAMPLE, 0, &got);
    } else {
        while (!err && got < START_SAMPLE) {
            ssize_t n;
            do
                n = read(fd, buf + got, START_SAMPLE - got);
            while (n < 0 && errno == EINTR);
            if (n < 0)
                err = errno;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
    }
    in.g[0].p = buf;
    in.g[0].n = got;
    in.g[0].is_start = 1;
    in.g[0].complete = regular ? size <= START_SAMPLE : got < START_SAMPLE;
    in.ng = 1;
    in.input_size = size;
    if (!err && regular && size > cap) {
        const uint64_t mid = (size / 2) & ~(uint64_t)1;
        size_t g1 = 0, g2 = 0;
        err = read_at(fd, buf + START_SAMPLE, PART_SAMPLE, mid, &g1);
        if (!err)
            err = read_at(fd, buf + START_SAMPLE + PART_SAMPLE, PART_SAMPLE, size - PART_SAMPLE, &g2);
        in.g[1].p = buf + START_SAMPLE;
        in.g[1].n = g1;
        in.g[1].offset = mid;
        in.g[2].p = buf + START_SAMPLE + PART_SAMPLE;
        in.g[2].n = g2;
        in.g[2].offset = size - PART_SAMPLE;
        in.g[2].complete = 1;
        in.ng = 3;
    } else if (!err && regular && size > START_SAMPLE) {
        size_t more = 0;
        err = read_at(fd, buf + got, (size_t)size - got, got, &more);
        in.g[0].n = got + more;
        in.g[0].complete = 1;
    }
    if (err) {
        *os_errno = err;
        simdsv__free(&s->alloc, buf, cap);
        return finish(s, SIMDSV_ERR_IO, out);
    }
    st = run(s, &in, params);
    simdsv__free(&s->alloc, buf, cap);
    return finish(s, st, out);
}

simdsv_status simdsv_sniff_apply(const simdsv_sniff *s, simdsv_options *opt)
{
    return simdsv__sniff_apply_detected(s, opt, 0);
}

/* One setting's options, unless the caller gave it (bit k of given). */
#define DETECTED(k) (!((given >> (k)) & 1u))

simdsv_status simdsv__sniff_apply_detected(const simdsv_sniff *s, simdsv_options *opt, unsigned given)
{
    if (!s || !opt)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    simdsv_status st = SIMDSV_OK;
    if (DETECTED(SIMDSV_SNIFF_DELIMITER))
        st = s->delimiter[1] ? simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, s->delimiter)
                             : simdsv_options_set(opt, SIMDSV_OPT_DELIMITER, (unsigned char)s->delimiter[0]);
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_PADDING))
        st = simdsv_options_set(opt, SIMDSV_OPT_TRIM_SPACES, s->padding != 0);
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_QUOTE))
        st = simdsv_options_set(opt, SIMDSV_OPT_QUOTE, s->quote);
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_ESCAPE))
        st = simdsv_options_set(opt, SIMDSV_OPT_ESCAPE, s->escape);
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_COMMENT))
        st = s->comment_marker && s->comment_marker[0] && s->comment_marker[1]
                 ? simdsv_options_set_string(opt, SIMDSV_OPT_COMMENT_STRING, s->comment_marker) /* "//" whole */
                 : simdsv_options_set(opt, SIMDSV_OPT_COMMENT, s->comment);
    /* The header and its rows are one decision: either given keeps both. */
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_HEADER) && DETECTED(SIMDSV_SNIFF_HEADER_ROWS)) {
        st = simdsv_options_set(opt, SIMDSV_OPT_HEADER, s->header != 0);
        if (st == SIMDSV_OK)
            st = simdsv_options_set(opt, SIMDSV_OPT_HEADER_ROWS, s->header_rows > 1 ? (int64_t)s->header_rows : 1);
    }
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_PREAMBLE))
        st = simdsv_options_set(opt, SIMDSV_OPT_SKIP_LINES, (int64_t)s->skip_lines);
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_FOOTER))
        st = simdsv_options_set(opt, SIMDSV_OPT_END_OFFSET, (int64_t)s->end_offset);
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_DECIMAL)) {
        st = simdsv_options_set(opt, SIMDSV_OPT_DECIMAL_COMMA, s->decimal_comma != 0);
        if (st == SIMDSV_OK)
            st = simdsv_options_set(opt, SIMDSV_OPT_THOUSANDS, s->thousands ? s->thousands : -1);
    }
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_DATES))
        st = simdsv_options_set(opt, SIMDSV_OPT_DATE_ORDER, s->date_order);
    if (st == SIMDSV_OK && DETECTED(SIMDSV_SNIFF_ENCODING))
        st = simdsv_options_set_string(opt, SIMDSV_OPT_ENCODING, strcmp(s->encoding, "utf-8") ? s->encoding : NULL);
    return st;
}

#undef DETECTED

size_t simdsv_sniff_kept_ranges(const simdsv_sniff *s, uint64_t *ranges, size_t cap)
{
    if (!s || !s->repeated_header_count)
        return 0;
    const size_t n = s->repeated_header_count + 1;
    for (size_t i = 0; i < n && i < cap && ranges; i++) {
        ranges[2 * i] = i ? s->repeated_headers[i - 1].byte_end : 0;
        ranges[2 * i + 1] = i + 1 < n ? s->repeated_headers[i].byte_start : s->end_offset;
    }
    return n;
}

size_t simdsv_sniff_left_out(const simdsv_sniff *s, char *buf, size_t cap)
{
    char none[1];
    if (!buf || !cap) {
        buf = none;
        cap = sizeof none;
    }
    buf[0] = '\0';
    if (!s || s->binary)
        return 0;
    size_t n = 0;
    /* Appends one item: "; " between items; n counts what would be written. */
#define LEFT_OUT(...)                                                                                         \
    do {                                                                                                        \
        const int w_ = snprintf(buf + (n < cap ? n : cap - 1), n < cap ? cap - n : 1, __VA_ARGS__);             \
        n += w_ > 0 ? (size_t)w_ : 0;                                                                           \
    } while (0)
    /* Only what detection decided: lines the caller's own options leave out
     * (--skip-lines, --comment, --footer) are no news to the caller. */
    const int preamble = !s->decisions[SIMDSV_SNIFF_PREAMBLE].given;
    const int comment = !s->decisions[SIMDSV_SNIFF_COMMENT].given;
    const int footer = !s->decisions[SIMDSV_SNIFF_FOOTER].given;
    if (preamble && s->skip_lines && (s->table_count < 2 || s->table == 0)) {
        if (s->skip_lines == 1)
            LEFT_OUT("line 1 (a preamble)");
        else
            LEFT_OUT("lines 1-%llu (a preamble)", (unsigned long long)s->skip_lines);
    }
    if (comment && s->comment_marker && s->comment_marker[0])
        LEFT_OUT("%slines starting with '%s' (comments)", n ? "; " : "", s->comment_marker);
    for (size_t i = 0; i < s->repeated_header_count; i++)
        LEFT_OUT("%s%s%llu", !i && n ? "; " : "", !i ? (s->repeated_header_count > 1 ? "lines " : "line ") : ", ",
                 (unsigned long long)s->repeated_headers[i].line);
    if (s->repeated_header_count)
        LEFT_OUT(" (%s the header)", s->repeated_header_count > 1 ? "repeat" : "repeats");
    if (footer && s->footer_lines && (s->table_count < 2 || s->table + 1 == s->table_count)) {
        if (s->footer_lines == 1)
            LEFT_OUT("%sthe last line (a footer)", n ? "; " : "");
        else
            LEFT_OUT("%sthe last %llu lines (a footer)", n ? "; " : "", (unsigned long long)s->footer_lines);
    }
#undef LEFT_OUT
    return n;
}

const char *simdsv_sniff_setting_name(simdsv_sniff_setting setting)
{
    static const char *const names[SIMDSV_SNIFF_SETTING_COUNT] = {
        "encoding", "delimiter",   "quote",  "escape", "line_ending", "comment", "preamble",
        "footer",   "header",      "header_rows", "tables", "padding", "decimal", "dates"};
    return (unsigned)setting < SIMDSV_SNIFF_SETTING_COUNT ? names[setting] : NULL;
}

