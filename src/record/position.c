/*
 * position.c — where a byte of the input is (line and column, counted
 * lazily from the last checkpoint by the kernel's line counter) and the
 * reader's errors, which name it.
 */
#include "reader.h"

#include <string.h>

static uint64_t count_breaks(simdsv_reader *r, size_t from, size_t to)
{
    return r->kernel->count_lines(r->buf + from, to - from, &r->line_after_cr);
}

/* Characters in p[0..n): a valid UTF-8 sequence is one, and so is every
 * byte that is not part of one. */
static uint64_t count_chars(const uint8_t *p, size_t n)
{
    uint64_t chars = 0;
    for (size_t i = 0; i < n; chars++) {
        const uint8_t lead = p[i];
        const size_t len = lead < 0x80 ? 1 : lead < 0xC2 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF5 ? 4 : 0;
        i += len && len <= n - i && simdsv__utf8_validate_scalar(p + i, len) == len ? len : 1;
    }
    return chars;
}

/* Line ends in the file's input bytes [from, to) (read with pread), added to
 * *lines with *after_cr carried; fewer when the file ends early. */
static void count_file_lines(const simdsv_reader *r, const simdsv__file_view *f, uint64_t from, uint64_t to,
                             uint64_t *lines, uint64_t *after_cr)
{
    /* Pieces of 1 MiB (a count can leave gigabytes behind); without the
     * memory, a small piece on the stack, which may be a small thread's. */
    uint8_t small[4096];
    size_t cap = (size_t)1 << 20;
    uint8_t *piece = simdsv__alloc(&r->opt.alloc, cap);
    if (!piece) {
        piece = small;
        cap = sizeof small;
    }
    for (uint64_t at = from; at < to;) {
        const uint64_t left = to - at;
        size_t got = 0;
        if (simdsv__file_read_at(f, at, piece, left < cap ? (size_t)left : cap, &got) != SIMDSV_OK || got == 0)
            break;
        *lines += r->kernel->count_lines(piece, got, after_cr);
        at += got;
    }
    if (piece != small)
        simdsv__free(&r->opt.alloc, piece, cap);
}

void simdsv__lines_at_origin(const simdsv_reader *r, uint64_t *lines, uint64_t *after_cr)
{
    *lines = r->line_count;
    *after_cr = r->line_after_cr;
    if (r->line_offset >= r->buf_origin)
        return;
    /* The bytes a count dropped uncounted, read again from the file.  The
     * file changed meanwhile (reader_file refuses it, or it ends early):
     * the lines are those that can still be counted. */
    simdsv__file_view f;
    if (simdsv__reader_file(r, &f))
        count_file_lines(r, &f, r->line_offset, r->buf_origin, lines, after_cr);
}

uint64_t simdsv__line_in_file(const simdsv_reader *r, const simdsv__file_view *f, uint64_t offset)
{
    const uint64_t held_end = r->buf_origin + r->len;
    if (offset <= held_end)
        return simdsv__line_peek(r, (size_t)(offset - r->buf_origin));
    uint64_t lines, after_cr;
    simdsv__lines_at_origin(r, &lines, &after_cr);
    const size_t ck = r->line_offset > r->buf_origin ? (size_t)(r->line_offset - r->buf_origin) : 0;
    if (ck < r->len)
        lines += r->kernel->count_lines(r->buf + ck, r->len - ck, &after_cr);
    count_file_lines(r, f, held_end, offset, &lines, &after_cr);
    return lines + 1;
}

/* Fills line and column for buffer position pos (>= the record start). */
void simdsv__advance_lines(simdsv_reader *r, size_t pos)
{
    if (r->line_offset < r->buf_origin) {
        simdsv__lines_at_origin(r, &r->line_count, &r->line_after_cr);
        r->line_offset = r->buf_origin;
    }
    const size_t ck = (size_t)(r->line_offset - r->buf_origin);
    if (pos >= ck) {
        r->line_count += count_breaks(r, ck, pos);
        r->line_offset = r->buf_origin + pos;
    }
}

static void locate(simdsv_reader *r, size_t pos, simdsv_error *e)
{
    simdsv__advance_lines(r, pos);
    e->line = r->line_count + 1;
    /* A line starts after a line end; a stream buffer always starts at a
     * record start, which is a line start, so the search stays inside it.
     * The BOM is not a column. */
    size_t lower = r->bom_len > r->buf_origin ? (size_t)(r->bom_len - r->buf_origin) : 0;
    if (lower > pos)
        lower = pos;
    size_t line_start = pos;
    while (line_start > lower && r->buf[line_start - 1] != '\n' && r->buf[line_start - 1] != '\r')
        line_start--;
    e->column = 1 + count_chars(r->buf + line_start, pos - line_start);
}

simdsv_status simdsv__set_error(simdsv_reader *r, simdsv_status code, size_t pos, uint64_t field, const char *detail)
{
    simdsv_error *e = &r->err;
    memset(e, 0, sizeof *e);
    e->code = code;
    e->byte_offset = r->buf_origin + pos;
    e->record = r->physical_records;
    e->field = field;
    locate(r, pos, e);
    const char *msg = detail ? detail : simdsv_status_message(code);
    size_t n = strlen(msg);
    if (n >= sizeof e->message)
        n = sizeof e->message - 1;
    memcpy(e->message, msg, n);
    e->message[n] = '\0';
    return code;
}

simdsv_status simdsv__fail(simdsv_reader *r, simdsv_status code, int os_errno)
{
    memset(&r->err, 0, sizeof r->err);
    r->err.code = code;
    r->err.os_errno = os_errno;
    r->err.byte_offset = r->buf_origin + r->rec_start;
    r->err.record = r->physical_records;
    const char *msg = simdsv_status_message(code);
    memcpy(r->err.message, msg, strlen(msg) + 1);
    r->fatal = true;
    return code;
}

uint64_t simdsv__line_at(simdsv_reader *r, size_t pos)
{
    simdsv_error e;
    locate(r, pos, &e);
    return e.line;
}
