/*
 * access.c — the record reader as the typed reader sees it (access.h): the
 * few things src/table/ needs of the reader's state, so that nothing outside
 * src/record/ reads or writes it.
 */
#define _POSIX_C_SOURCE 200809L
#include "reader.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct simdsv_options *simdsv__reader_options(const simdsv_reader *r)
{
    return &r->opt;
}

bool simdsv__reader_has_input(const simdsv_reader *r)
{
    return r->src.kind != SOURCE_NONE;
}

const scan_dialect *simdsv__reader_dialect(const simdsv_reader *r)
{
    return &r->dialect;
}

const uint8_t *simdsv__reader_buffer(const simdsv_reader *r)
{
    return r->buf;
}

uint64_t simdsv__reader_origin(const simdsv_reader *r)
{
    return r->buf_origin;
}

bool simdsv__reader_holds(const simdsv_reader *r, const void *p)
{
    const char *c = p;
    return c >= (const char *)r->buf && c <= (const char *)r->buf + r->len;
}

simdsv_status simdsv__reader_hold(simdsv_reader *r, size_t window, simdsv__held *out)
{
    simdsv_status st = simdsv__slurp(r, window);
    if (st != SIMDSV_OK)
        return st;
    if (!r->started && (st = simdsv__start_input(r)) != SIMDSV_OK)
        return st; /* no header was read: the BOM and skipped lines still go */
    out->data = r->buf + r->rec_start;
    out->size = r->len - r->rec_start;
    out->pos = r->rec_start;
    out->whole = r->eof;
    return SIMDSV_OK;
}

bool simdsv__reader_file(const simdsv_reader *r, simdsv__file_view *out)
{
    if (r->src.kind != SOURCE_FD || !simdsv__source_plain(&r->src))
        return false;
    struct stat st;
    if (fstat(r->src.fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0)
        return false;
    /* The file offset now is the input offset just past what was read. */
    const off_t at = lseek(r->src.fd, 0, SEEK_CUR);
    const uint64_t read_end = r->buf_origin + r->len;
    if (at < 0 || (uint64_t)at < read_end || (uint64_t)st.st_size < (uint64_t)at)
        return false;
    out->fd = r->src.fd;
    out->delta = (uint64_t)at - read_end;
    out->end = (uint64_t)st.st_size - out->delta;
    return true;
}

simdsv_status simdsv__file_read_at(const simdsv__file_view *f, uint64_t at, void *buf, size_t size, size_t *got)
{
    *got = 0;
    while (*got < size && at + *got < f->end) {
        const ssize_t n = pread(f->fd, (char *)buf + *got, size - *got, (off_t)(at + *got + f->delta));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return SIMDSV_ERR_IO;
        if (n == 0)
            break;
        *got += (size_t)n;
    }
    return SIMDSV_OK;
}

bool simdsv__reader_in_memory(const simdsv_reader *r)
{
    return (r->src.kind == SOURCE_MEMORY || r->src.kind == SOURCE_MAPPED) && !r->src.streamed;
}

void simdsv__reader_consume_all(simdsv_reader *r)
{
    r->index_i = r->index_n = 0;
    r->special_pending = false;
    r->scanned_all = true;
    r->ss.in_quote = 0;
    r->ss.after_term = 1;
    r->nfields = 0;
    r->scan_pos = r->rec_start = r->field_start = r->len;
}

/* r's options for a reader of part of r's bytes (see simdsv__reader_sub). */
static void sub_options(const simdsv_reader *r, bool validate, simdsv_options *o)
{
    *o = r->opt;
    o->header = false;
    o->skip_lines = 0;
    /* The bytes are r's as it holds them: converted to UTF-8 already, and
     * cut where r's input ends (reading them as UTF-16 again, or stopping at
     * r's end offset counted from their first byte, read garbage). */
    o->encoding[0] = '\0';
    o->end_offset = 0;
    if (!validate && o->utf8 == SIMDSV_UTF8_STRICT)
        o->utf8 = SIMDSV_UTF8_NONE;
    o->kernel = r->kernel->id;
    o->threads = 1; /* sub-readers run inside the threads of the typed reader or the chunk planner */
    memset(o->specs, 0, sizeof o->specs);
}

/* A sub-reader just opened: its bytes are inside the input, past its start,
 * so a record that begins with U+FEFF keeps it (only the input's first bytes
 * can be its byte order mark, and that one was taken at its start). */
static void sub_started(simdsv_reader *sub)
{
    simdsv__restart_scan(sub, 0);
    sub->utf8_pos = 0;
    sub->started = true;
}

simdsv_status simdsv__reader_sub(const simdsv_reader *r, const uint8_t *data, size_t size, bool validate,
                                 simdsv_reader **out)
{
    simdsv_options o;
    sub_options(r, validate, &o);
    simdsv_status st = simdsv_reader_new(out, &o);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_memory(*out, data, size);
    if (st == SIMDSV_OK)
        sub_started(*out);
    return st;
}

simdsv_status simdsv__reader_sub_stream(const simdsv_reader *r, simdsv_read_fn fn, void *ctx, simdsv_reader **out)
{
    simdsv_options o;
    sub_options(r, true, &o);
    simdsv_status st = simdsv_reader_new(out, &o);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_callback(*out, fn, ctx);
    if (st == SIMDSV_OK)
        sub_started(*out);
    return st;
}

bool simdsv__reader_fresh(const simdsv_reader *r)
{
    return r->records_emitted == 0 && !r->err.code;
}

void simdsv__reader_take_error(simdsv_reader *r, const simdsv_reader *from)
{
    r->err = from->err;
}

uint64_t simdsv__line_peek(const simdsv_reader *r, size_t pos)
{
    uint64_t lines, after_cr;
    simdsv__lines_at_origin(r, &lines, &after_cr);
    const size_t ck = r->line_offset > r->buf_origin ? (size_t)(r->line_offset - r->buf_origin) : 0;
    if (pos < ck)
        return lines + 1;
    return lines + r->kernel->count_lines(r->buf + ck, pos - ck, &after_cr) + 1;
}

simdsv_status simdsv__reader_error_at(simdsv_reader *r, simdsv_status code, size_t pos, uint64_t field,
                                      uint64_t record, const char *detail)
{
    const simdsv_status st = simdsv__set_error(r, code, pos, field, detail);
    r->err.record = record;
    return st;
}

simdsv_status simdsv__reader_fail(simdsv_reader *r, simdsv_status code, const char *message)
{
    snprintf(r->err.message, sizeof r->err.message, "%s", message);
    r->err.code = code;
    return code;
}
