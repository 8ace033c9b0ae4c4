/*
 * reader.c — records out of bytes: the policy layer above the kernels.
 *
 * The fast path consumes the kernel's separator index and cuts fields as
 * zero-copy views.  Whenever a kernel stops at a "special" byte (a quote that
 * breaks RFC 4180, a comment at a record start) or the input ends inside
 * quotes, the record is re-parsed by the scalar state machine in slow.c,
 * which is the single place where strict errors and lenient recovery are
 * decided.  Then scanning restarts after that record with a fresh state.
 *
 * Streaming sources fill a buffer that keeps only the current record: after
 * each refill the bytes before the record start are dropped, so memory is the
 * buffer plus the longest record.
 */
#include "reader.h"
#include "chunks.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ buffer */

/* Drops the bytes before the current record and reads more.  With
 * fill_completely the buffer is filled (or grown) until full or at end of
 * input, so that a caller re-parsing from the record start does geometric,
 * not quadratic, work. */
/* Drops the bytes before the current record from a stream buffer. */
static void drop_consumed(simdsv_reader *r)
{
    const size_t keep = r->rec_start;
    r->run_n = 0; /* its views point where the bytes were */
    if (keep > 0) {
        /* The line count must not lose the dropped bytes; a count, which
         * reports a line only with an error, leaves them to be counted from
         * the file if one is ever asked for (a separate pass over every
         * byte, it cost a count from the file about a sixth of its time). */
        if (!r->lines_from_file)
            simdsv__advance_lines(r, keep);
        memmove(r->buf, r->buf + keep, r->len - keep);
        r->len -= keep;
        r->scan_pos -= keep;
        r->rec_start = 0;
        r->field_start -= keep;
        r->index_base -= keep;
        r->utf8_pos = r->utf8_pos > keep ? r->utf8_pos - keep : 0;
        r->buf_origin += keep;
        for (size_t i = 0; i < r->nfields; i++)
            r->fields[i].data -= keep;
    }
}

static simdsv_status resize_buffer(simdsv_reader *r, size_t new_cap)
{
    uint8_t *grown = simdsv__alloc(&r->opt.alloc, new_cap);
    if (!grown)
        return simdsv__fail(r, SIMDSV_ERR_NOMEM, 0);
    simdsv__read_buffer_pages(&r->opt.alloc, grown, new_cap);
    r->run_n = 0;
    memcpy(grown, r->buf, r->len);
    for (size_t i = 0; i < r->nfields; i++)
        r->fields[i].data = (const char *)grown + (r->fields[i].data - (const char *)r->buf);
    simdsv__free(&r->opt.alloc, r->buf, r->cap);
    r->buf = grown;
    r->cap = new_cap;
    return SIMDSV_OK;
}

static simdsv_status grow_buffer(simdsv_reader *r, bool limited)
{
    if (r->cap > SIZE_MAX / 2)
        return simdsv__fail(r, SIMDSV_ERR_NOMEM, 0);
    size_t new_cap = r->cap * 2;
    /* One byte past the record limit is enough to know a record exceeds it. */
    const uint64_t max = r->opt.max_record_size;
    if (limited && max && max < SIZE_MAX - 1 && new_cap > max + 1 && max + 1 > r->cap)
        new_cap = (size_t)max + 1;
    return resize_buffer(r, new_cap);
}

static simdsv_status read_some(simdsv_reader *r)
{
    size_t got = 0;
    int os_errno = 0;
    if (simdsv__source_read(&r->src, r->buf + r->len, r->cap - r->len, &got, &os_errno) != SIMDSV_OK) {
        simdsv__fail(r, SIMDSV_ERR_IO, os_errno);
        /* An input of the library's own says what failed ("the gzip data is truncated"). */
        const char *why = r->src.kind == SOURCE_CALLBACK && r->src.fn == simdsv_input_read
                              ? simdsv_input_error(r->src.ctx)
                              : NULL;
        if (why)
            snprintf(r->err.message, sizeof r->err.message, "%s", why);
        return SIMDSV_ERR_IO;
    }
    if (got == 0)
        r->eof = true;
    r->len += got;
    return SIMDSV_OK;
}

simdsv_status simdsv__slurp(simdsv_reader *r, size_t at_least)
{
    if (r->eof)
        return SIMDSV_OK;
    drop_consumed(r);
    /* A regular file says how much is left: one buffer of that size (+1 to
     * see the end) instead of doubling, which copies and faults in about
     * three times the input. */
    const size_t rest = simdsv__source_size_hint(&r->src);
    size_t want = rest;
    if (want && want < at_least)
        want = want < SIZE_MAX - r->len - 1 ? r->len + want + 1 : 0;
    else if (want)
        want = at_least < SIZE_MAX - r->len ? r->len + at_least : 0;
    if (want > r->cap) {
        const simdsv_status st = resize_buffer(r, want);
        if (st != SIMDSV_OK)
            return st;
    }
    if (rest && rest < at_least && rest <= r->cap - r->len) {
        /* All the rest is wanted: read on the reader's threads at once,
         * 8 MiB or more each (below that a thread costs more than the copy
         * and page faults it takes over); the loop below then meets the end. */
        size_t got = 0;
        int os_errno = 0;
        if (simdsv__source_read_ahead(&r->src, r->buf + r->len, rest, simdsv__thread_count(r->opt.threads),
                                      (size_t)simdsv__min_chunk((uint64_t)8 << 20), &got, &os_errno) != SIMDSV_OK)
            return simdsv__fail(r, SIMDSV_ERR_IO, os_errno);
        r->len += got;
    }
    while (!r->eof && r->len - r->rec_start < at_least) {
        simdsv_status st;
        if (r->len == r->cap && (st = grow_buffer(r, false)) != SIMDSV_OK)
            return st;
        if ((st = read_some(r)) != SIMDSV_OK)
            return st;
    }
    return SIMDSV_OK;
}

simdsv_status simdsv__refill(simdsv_reader *r, bool fill_completely)
{
    if (r->eof)
        return SIMDSV_OK;
    drop_consumed(r);
    do {
        if (r->len == r->cap) {
            /* Full of one unfinished record: its content is at least len. */
            if (r->opt.max_record_size && r->len > r->opt.max_record_size) {
                /* The record is not held: the next call skips the rest of it. */
                simdsv__set_error(r, SIMDSV_ERR_RECORD_TOO_LARGE, 0, 0, NULL); /* about the record: field 0 */
                r->skipping = true;
                return SIMDSV_ERR_RECORD_TOO_LARGE;
            }
            const simdsv_status st = grow_buffer(r, true);
            if (st != SIMDSV_OK)
                return st;
        }
        const simdsv_status st = read_some(r);
        if (st != SIMDSV_OK)
            return st;
    } while (fill_completely && !r->eof && r->len < r->cap);
    return SIMDSV_OK;
}

/* ---------------------------------------------------------------- scanning */

void simdsv__restart_scan(simdsv_reader *r, size_t pos)
{
    r->run_n = 0;
    r->scan_pos = pos;
    r->rec_start = pos;
    r->field_start = pos;
    r->index_n = r->index_i = 0;
    r->special_pending = false;
    scan_state_reset(&r->ss);
}

/* Runs the kernel over the next chunk.  Returns false when nothing can be
 * scanned without more input. */
static bool scan_more(simdsv_reader *r, bool count_mode)
{
    r->run_n = 0; /* the index is replaced */
    if (r->slow_only) {
        if (r->scan_pos < r->len)
            r->special_pending = true;
        else if (r->eof)
            r->scanned_all = true;
        return r->scan_pos < r->len || r->eof;
    }
    const size_t avail = r->len - r->scan_pos;
    /* After a skip (skip.c) the window starts small and doubles: the
     * records read there are few when the skip goes on after them. */
    const size_t window = r->scan_window ? r->scan_window : SCAN_CHUNK;
    if (window < SCAN_CHUNK)
        r->scan_window = 2 * window;
    size_t chunk = avail < window ? avail : window;
    const int final = r->eof && chunk == avail;
    if (!final)
        chunk &= ~(size_t)63;
    if (chunk == 0 && !final)
        return false;
    const uint8_t *p = r->buf + r->scan_pos;
    if (count_mode) {
        const scan_result res = r->kernel->scan_count(&r->dialect, &r->ss, p, chunk, final, NULL);
        r->count_acc += res.record_ends;
        if (res.last_term_end)
            r->rec_start = r->scan_pos + res.last_term_end;
        r->scan_pos += res.consumed;
        r->special_pending = res.stopped;
    } else {
        const scan_result res = r->kernel->scan_index(&r->dialect, &r->ss, p, chunk, final, r->index);
        r->index_base = r->scan_pos;
        r->index_n = res.index_count;
        r->index_quoted = res.quoted;
        r->index_i = 0;
        r->scan_pos += res.consumed;
        r->special_pending = res.stopped;
    }
    if (final && !r->special_pending)
        r->scanned_all = true;
    return true;
}

bool simdsv__index_from_record(simdsv_reader *r)
{
    if (r->index_i < r->index_n || r->scan_pos != r->rec_start || r->special_pending || r->scanned_all ||
        r->counting || r->slow_only || r->skipping || r->fatal)
        return false;
    return scan_more(r, false) && r->index_i < r->index_n;
}

/* ----------------------------------------------------------------- records */

/* Room for one more field view.  Past the field limit nothing more is stored
 * (*full): the record is read to its end and reported as too many fields,
 * so the memory a hostile record can claim stays bounded. */
static simdsv_status grow_fields(simdsv_reader *r, bool *full)
{
    *full = r->opt.max_fields && r->nfields > r->opt.max_fields;
    if (*full) {
        r->fields_overflow = true;
        return SIMDSV_OK;
    }
    void *fields = r->fields;
    const simdsv_status st = simdsv__grow(&r->opt.alloc, &fields, &r->fields_cap, r->nfields + 1, sizeof *r->fields);
    r->fields = fields;
    return st == SIMDSV_OK ? SIMDSV_OK : simdsv__fail(r, st, 0);
}

/* Flags of a quoted field whose inner bytes are p[0..n). */
static inline unsigned quoted_flags(const scan_dialect *d, const char *p, size_t n)
{
    if (memchr(p, d->quote, n) || (d->has_escape && memchr(p, d->escape, n)))
        return SIMDSV_FIELD_QUOTED | SIMDSV_FIELD_NEEDS_UNESCAPE;
    return SIMDSV_FIELD_QUOTED;
}

static inline simdsv_status push_field(simdsv_reader *r, size_t start, size_t end)
{
    if (r->nfields == r->fields_cap) {
        bool full;
        const simdsv_status st = grow_fields(r, &full);
        if (st != SIMDSV_OK || full)
            return st;
    }
    const char *p = (const char *)r->buf + start;
    size_t n = end - start;
    unsigned flags = 0;
    /* The kernel guarantees a field that opens with a quote closes with one
     * right before its separator, otherwise it would have stopped. */
    if (n && (unsigned char)p[0] == r->dialect.quote && r->dialect.has_quote) {
        p++;
        n -= 2;
        flags = quoted_flags(&r->dialect, p, n);
    }
    simdsv_field *f = &r->fields[r->nfields++];
    f->data = p;
    f->size = n;
    f->flags = flags;
    return SIMDSV_OK;
}

/* Buffer position where field i of the current record starts (its opening
 * quote for a quoted field).  Fields from the slow path live in a scratch
 * buffer; it records their raw starts in slow_starts. */
static size_t field_start_pos(const simdsv_reader *r, size_t i, bool fields_in_buffer)
{
    if (!fields_in_buffer)
        return r->slow_starts ? r->slow_starts[i * 4 + 3] : r->rec_start;
    const simdsv_field *f = &r->fields[i];
    return (size_t)((const uint8_t *)f->data - r->buf) - ((f->flags & SIMDSV_FIELD_QUOTED) ? 1 : 0);
}

/* The field of the current record that holds buffer position pos. */
static uint64_t field_at(const simdsv_reader *r, size_t pos, bool fields_in_buffer)
{
    uint64_t i = 0;
    while (i + 1 < r->nfields && pos >= field_start_pos(r, (size_t)i + 1, fields_in_buffer))
        i++;
    return i;
}

/* Validates from utf8_pos over everything scanned (at least to end), and
 * returns the first invalid byte's position; when that is at or past end,
 * utf8_pos moves there (the bytes before it are valid). */
static size_t utf8_advance(simdsv_reader *r, size_t end)
{
    size_t limit = r->scan_pos > end ? r->scan_pos : end;
    if (limit > r->len)
        limit = r->len;
    if (!r->eof)
        limit -= simdsv__utf8_incomplete_tail(r->buf + end, limit - end);
    const size_t bad = r->utf8_pos + r->kernel->utf8_validate(r->buf + r->utf8_pos, limit - r->utf8_pos);
    if (bad >= end)
        r->utf8_pos = bad;
    return bad;
}

/* UTF-8 check of the record [rec_start, end).  Validation runs over whole
 * scanned chunks, not per record, and stops at the first invalid byte. */
static simdsv_status check_utf8(simdsv_reader *r, size_t end, bool fields_in_buffer)
{
    if (r->opt.utf8 == SIMDSV_UTF8_NONE || end <= r->utf8_pos || r->counting)
        return SIMDSV_OK;
    size_t bad;
    if (r->check_columns == UINT64_MAX) {
        bad = utf8_advance(r, end);
    } else { /* no look-ahead: the bytes after the record may be in columns nobody reads */
        const size_t from = r->utf8_pos > r->rec_start ? r->utf8_pos : r->rec_start;
        bad = from + r->kernel->utf8_validate(r->buf + from, end - from);
    }
    uint64_t field = bad < end ? field_at(r, bad, fields_in_buffer) : 0;
    /* An invalid byte in a column the caller does not read: the record's
     * later fields are checked on their own. */
    while (bad < end && !simdsv__column_in(r->check_columns, field)) {
        const size_t next = field + 1 < r->nfields ? field_start_pos(r, (size_t)field + 1, fields_in_buffer) : end;
        bad = next + r->kernel->utf8_validate(r->buf + next, end - next);
        field = bad < end ? field_at(r, bad, fields_in_buffer) : 0;
    }
    if (bad >= end) {
        if (r->utf8_pos < end)
            r->utf8_pos = end;
        return SIMDSV_OK;
    }
    r->utf8_pos = end; /* resume after this record */
    if (r->opt.utf8 == SIMDSV_UTF8_STRICT)
        return simdsv__set_error(r, SIMDSV_ERR_INVALID_UTF8, bad, field, "invalid UTF-8 byte sequence");
    for (size_t i = 0; i < r->nfields; i++) {
        simdsv_field *f = &r->fields[i];
        if (simdsv__utf8_validate_scalar((const uint8_t *)f->data, f->size) != f->size)
            f->flags |= SIMDSV_FIELD_INVALID_UTF8;
    }
    return SIMDSV_OK;
}

/* Completes the record [rec_start, end) whose fields are in r->fields. */
/* simdsv__finish_record, inlined into the record path's hot loop. */
static inline simdsv_status finish_record(simdsv_reader *r, simdsv_record *rec, size_t content_end, size_t end,
                                          bool fields_in_buffer)
{
    const size_t start = r->rec_start;
    const uint64_t max_fields = r->counting ? 0 : r->opt.max_fields;
    simdsv_status st = SIMDSV_OK;
    if (r->counting) {
        /* counting checks quoting only (documented) */
    } else if (r->opt.max_record_size && content_end - start > r->opt.max_record_size) {
        st = simdsv__set_error(r, SIMDSV_ERR_RECORD_TOO_LARGE, start, 0, NULL);
    } else if (r->fields_overflow || (max_fields && r->nfields > max_fields)) {
        /* Point at the first field past the limit. */
        size_t pos = start;
        if (r->nfields > max_fields)
            pos = field_start_pos(r, (size_t)max_fields, fields_in_buffer);
        st = simdsv__set_error(r, SIMDSV_ERR_TOO_MANY_FIELDS, pos, max_fields,
                               "record with more fields than the configured maximum (--max-fields)");
        r->fields_overflow = false;
    } else
        st = check_utf8(r, end, fields_in_buffer);
    /* A record rejected for its size is not checked for UTF-8 either: the
     * next check starts after it, not inside it. */
    if (st != SIMDSV_OK && r->utf8_pos < end)
        r->utf8_pos = end;
    r->rec_start = r->field_start = end;
    r->physical_records++;
    r->unescape_len = 0;
    r->record_bytes = end - start;
    r->last_in_buffer = fields_in_buffer;
    if (st != SIMDSV_OK)
        return st;
    rec->fields = r->fields;
    rec->field_count = r->nfields;
    rec->index = r->records_emitted++;
    rec->byte_offset = r->buf_origin + start;
    return SIMDSV_OK;
}

simdsv_status simdsv__finish_record(simdsv_reader *r, simdsv_record *rec, size_t content_end, size_t end,
                                    bool fields_in_buffer)
{
    return finish_record(r, rec, content_end, end, fields_in_buffer);
}

/* Handles BOM and skipped lines once, before the first record. */
simdsv_status simdsv__start_input(simdsv_reader *r)
{
    while (r->len < 3 && !r->eof) {
        const simdsv_status st = simdsv__refill(r, false);
        if (st != SIMDSV_OK)
            return st;
    }
    size_t pos = 0;
    if (r->len >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    r->bom_len = pos;
    for (uint64_t skipped = 0; skipped < r->opt.skip_lines;) {
        if (pos >= r->len) {
            if (r->eof)
                break;
            r->rec_start = pos;
            const simdsv_status st = simdsv__refill(r, false);
            if (st != SIMDSV_OK)
                return st;
            pos = r->rec_start;
            continue;
        }
        const uint8_t c = r->buf[pos];
        if (c == '\n' || c == '\r') {
            if (c == '\r' && pos + 1 >= r->len && !r->eof) {
                r->rec_start = pos;
                const simdsv_status st = simdsv__refill(r, false);
                if (st != SIMDSV_OK)
                    return st;
                pos = r->rec_start;
                continue;
            }
            if (c == '\r' && pos + 1 < r->len && r->buf[pos + 1] == '\n')
                pos++;
            skipped++;
        }
        pos++;
    }
    simdsv__restart_scan(r, pos);
    r->utf8_pos = pos;
    r->started = true;
    return SIMDSV_OK;
}

/* The hot loop: turns index entries into fields until a record ends
 * (*end = offset past its line end) or the index runs out (*end = 0).  The
 * state lives in locals while it runs: stores into the field array could
 * otherwise alias the reader's members and force a reload per field. */
static simdsv_status consume_index(simdsv_reader *r, size_t *end)
{
    const uint32_t *index = r->index;
    const size_t count = r->index_n, base = r->index_base;
    const char *buf = (const char *)r->buf;
    const int quote = r->dialect.has_quote ? r->dialect.quote : 256; /* 256 matches no byte */
    size_t i = r->index_i, field_start = r->field_start, nfields = r->nfields;
    simdsv_field *fields = r->fields;
    size_t cap = r->fields_cap;
    *end = 0;
    while (i < count) {
        const uint32_t entry = index[i++];
        const size_t pos = base + (entry & SCAN_OFFSET_MASK);
        if (nfields == cap) {
            r->nfields = nfields;
            r->field_start = field_start;
            bool full;
            const simdsv_status st = grow_fields(r, &full);
            if (st != SIMDSV_OK) {
                r->index_i = i - 1;
                return st;
            }
            fields = r->fields;
            cap = r->fields_cap;
            if (full) {
                field_start = pos + 1;
                if (entry & SCAN_TERM_BIT) {
                    *end = field_start;
                    break;
                }
                continue;
            }
        }
        const size_t start = field_start;
        const char *p = buf + start;
        size_t n = pos - start;
        unsigned flags = 0;
        /* The kernel guarantees that a field opening with a quote closes with
         * one right before its separator; otherwise it would have stopped. */
        if (n && (unsigned char)p[0] == quote) {
            p++;
            n -= 2;
            flags = quoted_flags(&r->dialect, p, n);
        }
        fields[nfields].data = p;
        fields[nfields].size = n;
        fields[nfields].flags = flags;
        nfields++;
        field_start = pos + 1;
        if (entry & SCAN_TERM_BIT) {
            if (nfields == 1 && pos == start) {
                /* An empty line (or the LF of a CRLF): no record. */
                nfields = 0;
                r->rec_start = field_start;
                continue;
            }
            *end = field_start;
            break;
        }
    }
    r->index_i = i;
    r->nfields = nfields;
    r->field_start = field_start;
    return SIMDSV_OK;
}

/* Views of a run: at most this many (24 bytes each, so that the run stays
 * in the L1 cache while the caller reads it). */
#define RUN_FIELDS ((size_t)512)
#define RUN_RECORDS (sizeof ((simdsv_reader *)0)->run_ends / sizeof ((simdsv_reader *)0)->run_ends[0])

/* The regular case, ahead of consume_index: the records from rec_start
 * are runs of fast_width index entries (the last record's width) of which
 * only the last is a line end.  Their views are cut together, many records
 * per call, into r->fields by the kernel's cut_records (vectors of views,
 * no test per field; no look at the bytes when the indexed bytes hold no
 * quote), and the checks
 * of finish_record are made once for the run: a record that would fail one
 * (too large, invalid UTF-8) ends the run and is read by the general path,
 * which reports it.  Returns the number of records cut (run_n), 0 when the
 * record at rec_start is anything else (consume_index reads it); empty
 * lines before it are skipped either way. */
static size_t cut_run(simdsv_reader *r)
{
    const uint32_t *index = r->index;
    const size_t count = r->index_n, base = r->index_base, width = r->fast_width;
    size_t i = r->index_i, start = r->rec_start;
    /* Empty lines (and the LF of a CRLF) before the record are no records. */
    while (i < count && (index[i] & SCAN_TERM_BIT) && base + (index[i] & SCAN_OFFSET_MASK) == start) {
        i++;
        start++;
    }
    r->index_i = i;
    r->rec_start = r->field_start = start;
    r->run_n = r->run_k = 0;
    const uint64_t max_fields = r->counting ? 0 : r->opt.max_fields;
    if (width == 0 || count - i < width || width > RUN_FIELDS || (max_fields && width > max_fields))
        return 0;
    if (r->fields_cap < RUN_FIELDS + SCAN_CUT_SLACK) {
        void *fields = r->fields;
        const simdsv_status st =
            simdsv__grow(&r->opt.alloc, &fields, &r->fields_cap, RUN_FIELDS + SCAN_CUT_SLACK, sizeof *r->fields);
        r->fields = fields;
        if (st != SIMDSV_OK) {
            simdsv__fail(r, st, 0);
            return 0;
        }
    }
    size_t records = RUN_FIELDS / width;
    if (records > RUN_RECORDS)
        records = RUN_RECORDS;
    if (records > (count - i) / width)
        records = (count - i) / width;
    /* The views are cut by the kernel (SIMD where it has wide registers). */
    const scan_cut cut = {index, i, count, r->buf, base, start, width, records,
                          r->counting ? 0 : r->opt.max_record_size, r->fields, r->run_first, r->run_starts, r->run_ends};
    size_t n = r->kernel->cut_records(&cut);
    /* UTF-8, once for the run: everything scanned is validated (as the
     * first record's check would), and the run ends before the first
     * record that is not clean. */
    if (n && r->opt.utf8 != SIMDSV_UTF8_NONE && !r->counting) {
        if (r->run_ends[0] > r->utf8_pos)
            utf8_advance(r, r->run_ends[0]);
        while (n && r->run_ends[n - 1] > r->utf8_pos)
            n--;
    }
    if (n && r->index_quoted) {
        /* The kernel guarantees that a field opening with a quote closes
         * with one right before its separator; otherwise it would have stopped. */
        const uint8_t quote = r->dialect.quote;
        simdsv_field *v = r->fields;
        for (size_t k = 0; k < n * width; k++)
            if (v[k].size && (uint8_t)v[k].data[0] == quote) {
                v[k].data++;
                v[k].size -= 2;
                v[k].flags = quoted_flags(&r->dialect, v[k].data, v[k].size);
            }
    }
    r->run_n = n;
    r->run_width = width;
    return n;
}

/* Whether the next record is the run's next one: the reader is where the
 * last record of the run handed out left it. */
static inline bool run_ready(const simdsv_reader *r)
{
    const size_t last = r->run_k - 1; /* run_k >= 1: a run's first record is handed out as it is cut */
    return r->run_k < r->run_n && r->index_i == r->run_first[last] + r->run_width && r->rec_start == r->run_ends[last];
}

/* Hands out the run's next record: what finish_record does for a record
 * that passed its checks. */
static inline simdsv_status serve_run(simdsv_reader *r, simdsv_record *rec)
{
    const size_t k = r->run_k++, width = r->run_width, start = r->run_starts[k], end = r->run_ends[k];
    r->index_i = r->run_first[k] + width;
    r->rec_start = r->field_start = end;
    r->nfields = 0; /* nothing being assembled */
    r->physical_records++;
    r->unescape_len = 0;
    r->record_bytes = end - start;
    r->last_in_buffer = true;
    rec->fields = r->fields + k * width;
    rec->field_count = width;
    rec->index = r->records_emitted++;
    rec->byte_offset = r->buf_origin + start;
    return SIMDSV_OK;
}

/* After SIMDSV_ERR_RECORD_TOO_LARGE on a stream: drops the rest of that
 * record without holding it, then reading resumes after its line end.  The
 * record ends where the slow path's state machine would end it (the same
 * lenient rules), so a stream and a whole input agree on what follows. */
static simdsv_status skip_oversized(simdsv_reader *r)
{
    enum { FIELD_START, UNQUOTED, QUOTED, ESCAPED, QUOTE_IN_QUOTED } state = FIELD_START;
    const scan_dialect *d = &r->dialect;
    size_t p = r->rec_start;
    for (;;) {
        if (p == r->len) {
            if (r->eof)
                break;
            r->rec_start = r->field_start = p; /* nothing of it is kept */
            const simdsv_status st = simdsv__refill(r, false);
            if (st != SIMDSV_OK)
                return st;
            p = r->rec_start;
            continue;
        }
        const uint8_t c = r->buf[p++];
        const int line_end = c == '\n' || c == '\r';
        if (state == QUOTED) {
            state = d->has_escape && c == d->escape ? ESCAPED : c == d->quote ? QUOTE_IN_QUOTED : QUOTED;
        } else if (state == ESCAPED) {
            state = QUOTED;
        } else if (line_end) {
            break;
        } else if (c == d->delimiter) {
            state = FIELD_START;
        } else if (state == QUOTE_IN_QUOTED && c == d->quote) {
            state = QUOTED;
        } else {
            state = state == FIELD_START && d->has_quote && c == d->quote ? QUOTED : UNQUOTED;
        }
    }
    r->skipping = false;
    r->physical_records++;
    if (r->utf8_pos < p)
        r->utf8_pos = p;
    r->scanned_all = false;
    simdsv__restart_scan(r, p);
    return SIMDSV_OK;
}

simdsv_status simdsv__read_record(simdsv_reader *r, simdsv_record *rec)
{
    if (run_ready(r))
        return serve_run(r, rec);
    simdsv_status st;
    if (!r->started && (st = simdsv__start_input(r)) != SIMDSV_OK)
        return st;
    if (r->skipping && (st = skip_oversized(r)) != SIMDSV_OK)
        return st;
    r->nfields = 0;
    r->fields_overflow = false;
    r->field_start = r->rec_start;
    if (r->index_i < r->index_n && r->rec_start >= r->index_base) {
        if (cut_run(r))
            return serve_run(r, rec);
        if (r->fatal)
            return r->err.code;
    }
    for (;;) {
        if (r->index_i < r->index_n) {
            size_t end;
            if ((st = consume_index(r, &end)) != SIMDSV_OK)
                return st;
            if (end) {
                r->fast_width = r->nfields;
                return simdsv__finish_record(r, rec, end - 1, end, true);
            }
            continue;
        }
        if (r->special_pending) {
            st = simdsv__slow_record(r, rec);
            if (st == SIMDSV__AGAIN)
                continue;
            return st;
        }
        if (!r->scanned_all) {
            /* Counting: the count kernel goes on from here (same state), not
             * another index window (and another, to the end). */
            if (r->counting)
                return SIMDSV__AGAIN;
            if (scan_more(r, false))
                continue;
            if ((st = simdsv__refill(r, false)) != SIMDSV_OK)
                return st;
            continue;
        }
        if (r->ss.in_quote) { /* the input ended inside quotes: the slow path decides */
            r->special_pending = true;
            continue;
        }
        if (r->nfields > 0 || r->field_start < r->len) {
            r->ss.after_term = 1; /* the unterminated last record is taken: none pending */
            r->ended_by_input_end = true;
            if ((st = push_field(r, r->field_start, r->len)) != SIMDSV_OK)
                return st;
            return simdsv__finish_record(r, rec, r->len, r->len, true);
        }
        return SIMDSV_END;
    }
}

simdsv_status simdsv__ensure_usable(simdsv_reader *r)
{
    if (!r || r->src.kind == SOURCE_NONE)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    r->batch_valid = false; /* any call ends the last batch's validity */
    return r->fatal ? r->err.code : SIMDSV_OK;
}

simdsv_status simdsv_reader_next(simdsv_reader *r, simdsv_record *rec)
{
    simdsv_status st = simdsv__ensure_usable(r);
    if (st != SIMDSV_OK)
        return st;
    if (!rec)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    if (run_ready(r) && (r->header_done || !r->opt.header)) /* the common case, without the general path's call */
        return serve_run(r, rec);
    if ((st = simdsv__ensure_header(r)) != SIMDSV_OK)
        return st;
    return simdsv__read_record(r, rec);
}

static simdsv_status count_records(simdsv_reader *r, uint64_t *count);

simdsv_status simdsv_reader_count(simdsv_reader *r, uint64_t *count)
{
    simdsv_status st = simdsv__ensure_usable(r);
    if (st != SIMDSV_OK || !count)
        return st != SIMDSV_OK ? st : SIMDSV_ERR_INVALID_ARGUMENT;
    *count = 0;
    /* The header is read as usual (checked like any record); what follows is counted. */
    st = simdsv__ensure_header(r);
    if (st == SIMDSV_END)
        return SIMDSV_OK;
    if (st != SIMDSV_OK)
        return st;
    r->counting = true;
    simdsv__file_view file;
    r->lines_from_file = simdsv__reader_file(r, &file);
    st = count_records(r, count);
    r->counting = false;
    r->lines_from_file = false;
    return st;
}

static simdsv_status count_records(simdsv_reader *r, uint64_t *count)
{
    simdsv_status st;
    if (!r->started && (st = simdsv__start_input(r)) != SIMDSV_OK)
        return st;
    /* After SIMDSV_ERR_RECORD_TOO_LARGE on a stream, go on after that record
     * (as simdsv_reader_next does) rather than fail on it again. */
    if (r->skipping && (st = skip_oversized(r)) != SIMDSV_OK)
        return st;
    /* Several threads when the source and the size allow and the chunk
     * planner (chunks.c) proves its cuts; otherwise, or at the first thing
     * out of the ordinary, the serial count below, from here. */
    if (simdsv__count_parallel(r, count))
        return SIMDSV_OK;
    /* Records already indexed go through the normal path; then the kernel
     * counts line ends without building an index. */
    simdsv_record rec;
    while (r->index_i < r->index_n) {
        st = simdsv__read_record(r, &rec);
        if (st == SIMDSV__AGAIN)
            break; /* the record goes on past the index: the count kernel takes it from there */
        if (st == SIMDSV_END)
            return SIMDSV_OK;
        if (st != SIMDSV_OK)
            return st;
        ++*count;
    }
    r->nfields = 0;
    for (;;) {
        if (r->special_pending) {
            r->count_acc = 0;
            st = simdsv__slow_record(r, &rec);
            if (st == SIMDSV_OK)
                ++*count;
            else if (st != SIMDSV__AGAIN)
                return st;
            continue;
        }
        if (!r->scanned_all) {
            r->count_acc = 0;
            const bool progressed = scan_more(r, true);
            *count += r->count_acc;
            r->records_emitted += r->count_acc;
            r->physical_records += r->count_acc;
            if (!progressed && (st = simdsv__refill(r, false)) != SIMDSV_OK)
                return st;
            continue;
        }
        if (r->ss.in_quote) {
            r->special_pending = true;
            continue;
        }
        if (!r->ss.after_term) { /* a last record without a line end */
            r->ended_by_input_end = true;
            ++*count;
            r->records_emitted++;
            r->physical_records++;
            r->ss.after_term = 1;
        }
        r->rec_start = r->field_start = r->len;
        return SIMDSV_OK;
    }
}

simdsv_status simdsv_reader_unescape(simdsv_reader *r, const simdsv_field *field, const char **data, size_t *size)
{
    if (!r || !field || !data || !size)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    if (!(field->flags & SIMDSV_FIELD_NEEDS_UNESCAPE)) {
        *data = field->data;
        *size = field->size;
        return SIMDSV_OK;
    }
    /* Decoded fields never exceed the record's bytes, so reserving that much
     * once per record keeps earlier results valid (no reallocation). */
    if (r->unescape_len == 0 && r->unescape_cap < r->record_bytes) {
        simdsv__free(&r->opt.alloc, r->unescape_buf, r->unescape_cap);
        r->unescape_cap = 0;
        r->unescape_buf = simdsv__alloc(&r->opt.alloc, r->record_bytes);
        if (!r->unescape_buf)
            return SIMDSV_ERR_NOMEM;
        r->unescape_cap = r->record_bytes;
    }
    if (r->unescape_cap - r->unescape_len < field->size)
        return SIMDSV_ERR_INVALID_ARGUMENT; /* not a field of the current record */
    char *out = r->unescape_buf + r->unescape_len;
    *size = simdsv_unescape(field, r->opt.quote, r->opt.escape, out);
    *data = out;
    r->unescape_len += *size;
    return SIMDSV_OK;
}

/* The first byte b (-1: none) in [p, end), or end. */
static const char *find_byte(const char *p, const char *end, int b)
{
    const char *at = b >= 0 && p < end ? memchr(p, b, (size_t)(end - p)) : NULL;
    return at ? at : end;
}

size_t simdsv_unescape(const simdsv_field *field, int quote, int escape, char *dst)
{
    /* The runs between quote and escape bytes are copied whole: memchr
     * finds the next of each (long quoted text holds few), and a position
     * is looked for again only once the copy has passed it. */
    const char *p = field->data;
    const char *end = p + field->size;
    const char *next_quote = find_byte(p, end, quote), *next_escape = find_byte(p, end, escape);
    char *out = dst;
    for (;;) {
        const char *stop = next_quote < next_escape ? next_quote : next_escape;
        memcpy(out, p, (size_t)(stop - p));
        out += stop - p;
        if (stop == end)
            break;
        p = stop + 1;
        if (p < end)
            *out++ = *p++; /* ESC x -> x and "" -> " (a last lone one is dropped) */
        if (next_quote < p)
            next_quote = find_byte(p, end, quote);
        if (next_escape < p)
            next_escape = find_byte(p, end, escape);
    }
    return (size_t)(out - dst);
}
