/*
 * batch.c — whole records taken straight from the kernel's separator index,
 * many at a time: for the typed reader, which converts column by column
 * (simdsv__reader_batch: rows of one width), and for simdsv_reader_next_batch
 * (any width, with field flags).  Only regular records qualify: inside the
 * current index, valid UTF-8 (when checked) and within the limits.  Anything
 * else is left where it is and read by the record path (simdsv_reader_next),
 * whose policy (errors, lenient recovery, ragged rows) then applies
 * unchanged.  The reader's state after a batch is exactly what the same
 * records read one by one would have left.
 */
#include "reader.h"

#include <string.h>

/* Entries of bounds[] and records of a public batch: a batch ends when
 * either is full, well inside the L2 cache. */
#define BATCH_BOUNDS ((size_t)16 << 10)
#define BATCH_RECORDS ((size_t)4 << 10)

/* Where a walk starts, and where its offsets count from. */
typedef struct walk_out {
    size_t rows;     /* records taken */
    size_t used;     /* entries of pos written for them */
    size_t next_i;   /* the index entry after the last record's line end */
    size_t end;      /* buffer position after it */
} walk_out;

/* Walks the index from index_i and records up to max_rows records into pos,
 * as offsets from buffer position origin: record k takes the entries from
 * first[k] (when first is not NULL; else k * (width + 1)): the start of each
 * field (its opening quote included), then the position after its line end.
 * Pure: the reader is not changed.  With exact, only records of `width`
 * fields are taken; otherwise any width, width being the guess for the
 * straight-line path (a record whose `width` entries end with its only line
 * end): anything else (an empty line, a CRLF's LF, a short or long record)
 * is looked at entry by entry. */
static inline walk_out walk(const simdsv_reader *r, size_t origin, size_t width, bool exact, size_t max_rows,
                            uint32_t *pos, size_t pos_cap, size_t *first)
{
    const uint32_t *index = r->index;
    const size_t count = r->index_n, base = r->index_base;
    const uint64_t max_size = r->opt.max_record_size, max_fields = r->opt.max_fields;
    /* entry -> offset from origin of the byte after the separator */
    const uint32_t shift = (uint32_t)(base - origin + 1);
    size_t i = r->index_i, rows = 0, used = 0;
    uint32_t cur = (uint32_t)(r->rec_start - origin), last_end = cur;
    walk_out out = {0, 0, i, r->rec_start}; /* moves with whole records only */
    /* Records in one index window are shorter than the window, so only a
     * lower size limit needs a look at each record. */
    bool straight = !max_size || max_size >= SCAN_CHUNK;
    while (rows < max_rows) {
        uint32_t *row = pos + used;
        if (straight && width > 1 && pos_cap - used > SCAN_CUT_SLACK && count - i > width) {
            /* The records that follow each other at this width, cut by the
             * kernel many at a time (vectors of entries), regular when each
             * one's last entry is a line end and no other entry is.  With
             * CRLF line ends each record is followed by its LF, an empty
             * line of one entry (the gap) right after its CR. */
            const uint32_t first_end = index[i + width - 1], after = index[i + width];
            const size_t gap = (after & SCAN_TERM_BIT) && (after & SCAN_OFFSET_MASK) == (first_end & SCAN_OFFSET_MASK) + 1;
            const size_t stride = width + gap;
            size_t fit = (count - i) / stride;
            if (fit > max_rows - rows)
                fit = max_rows - rows;
            if (fit > (pos_cap - used - SCAN_CUT_SLACK) / (width + 1))
                fit = (pos_cap - used - SCAN_CUT_SLACK) / (width + 1);
            size_t ended = 0;
            for (const uint32_t *end = index + i + width - 1; ended < fit; ended++, end += stride)
                if (!(end[0] & SCAN_TERM_BIT) ||
                    (gap && !((end[1] & SCAN_TERM_BIT) && (end[1] & SCAN_OFFSET_MASK) == (end[0] & SCAN_OFFSET_MASK) + 1)))
                    break;
            if (ended > 1) {
                if (r->kernel->cut_rows(index + i, ended, width, gap, shift, cur, row) == ended) {
                    for (size_t k = 0; first && k < ended; k++)
                        first[rows + k] = used + k * (width + 1);
                    i += ended * stride;
                    used += ended * (width + 1);
                    rows += ended;
                    last_end = pos[used - 1];
                    cur = last_end + (uint32_t)gap;
                    out.next_i = i - gap; /* where the record path would leave it: the LF still to skip */
                    continue;
                }
                straight = false; /* a line end inside: record by record from here */
            }
        }
        if (width && count - i >= width && pos_cap - used > width) {
            const uint32_t *e = index + i;
            uint32_t terms = 0;
            row[0] = cur;
            /* Unmasked: a line-end bit inside the record fails it below,
             * and its entries are rewritten; the loop is shorter by the masks. */
            for (size_t j = 0; j + 1 < width; j++) {
                terms |= e[j];
                row[j + 1] = e[j] + shift;
            }
            const uint32_t last = e[width - 1];
            row[width] = (last & SCAN_OFFSET_MASK) + shift;
            /* (One field ending where it starts is an empty line, no record.) */
            if (!(terms & SCAN_TERM_BIT) && (last & SCAN_TERM_BIT) && !(max_size && row[width] - 1 - cur > max_size) &&
                (width > 1 || row[1] - 1 != cur)) {
                if (first)
                    first[rows] = used;
                i += width;
                used += width + 1;
                rows++;
                cur = last_end = row[width];
                out.next_i = i;
                continue;
            }
        }
        /* Entry by entry: skip empty lines before the record. */
        if (i < count && (index[i] & SCAN_TERM_BIT) && (index[i] & SCAN_OFFSET_MASK) + shift - 1 == cur) {
            cur++;
            i++;
            continue;
        }
        if (exact)
            break;
        size_t n = 0;
        bool ended = false;
        row[0] = cur;
        while (i + n < count && pos_cap - used > n + 1) {
            const uint32_t e = index[i + n++];
            row[n] = (e & SCAN_OFFSET_MASK) + shift;
            if (e & SCAN_TERM_BIT) {
                ended = true;
                break;
            }
        }
        if (!ended || (max_fields && n > max_fields) || (max_size && row[n] - 1 - cur > max_size))
            break;
        first[rows] = used;
        i += n;
        used += n + 1;
        rows++;
        width = n;
        cur = last_end = row[n];
        out.next_i = i;
    }
    if (first && rows)
        first[rows] = used;
    out.rows = rows;
    out.used = used;
    out.end = origin + last_end;
    return out;
}

/* Whether p[0..n) is ASCII: short fields are told without a call. */
static inline bool ascii_only(const uint8_t *p, size_t n)
{
    uint64_t any = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        any |= w;
    }
    for (; i < n; i++)
        any |= p[i];
    return (any & 0x8080808080808080u) == 0;
}

/* utf8_clean when the caller reads some columns only
 * (simdsv_reader_check_columns): each record's runs of checked fields are
 * validated, the other bytes are not.  Returns how many records are clean. */
static size_t utf8_clean_columns(simdsv_reader *r, const walk_out *w, size_t origin, const uint32_t *pos,
                                 const size_t *first)
{
    /* Columns from `past` on are not checked. */
    size_t past = 0;
    for (uint64_t m = r->check_columns; m; m >>= 1)
        past++;
    if (past == 64)
        past = SIZE_MAX;
    for (size_t k = 0; past && k < w->rows; k++) {
        const uint32_t *o = pos + first[k];
        const size_t n = first[k + 1] - first[k] - 1 < past ? first[k + 1] - first[k] - 1 : past;
        if (origin + o[n] <= r->utf8_pos) /* validated already (the record path looks ahead) */
            continue;
        for (size_t j = 0; j < n; j++) {
            if (!simdsv__column_in(r->check_columns, j))
                continue;
            const size_t from = j;
            while (j + 1 < n && simdsv__column_in(r->check_columns, j + 1))
                j++;
            const uint8_t *p = r->buf + origin + o[from];
            const size_t size = o[j + 1] - 1 - o[from];
            if (!(size < 64 && ascii_only(p, size)) && r->kernel->utf8_validate(p, size) != size)
                return k;
        }
    }
    return w->rows;
}

/* The UTF-8 check of a walk's records (the same look-ahead as the record
 * path: everything scanned so far).  Returns how many records are clean
 * (those before the first invalid byte) and sets *utf8_pos to where
 * validation got. */
static size_t utf8_clean(simdsv_reader *r, const walk_out *w, size_t origin, const uint32_t *pos, const size_t *first,
                         size_t stride, size_t *utf8_pos)
{
    *utf8_pos = r->utf8_pos;
    if (r->opt.utf8 == SIMDSV_UTF8_NONE || w->end <= r->utf8_pos)
        return w->rows;
    if (first && r->check_columns != UINT64_MAX)
        return utf8_clean_columns(r, w, origin, pos, first);
    size_t limit = r->scan_pos > w->end ? r->scan_pos : w->end;
    if (limit > r->len)
        limit = r->len;
    if (!r->eof)
        limit -= simdsv__utf8_incomplete_tail(r->buf + w->end, limit - w->end);
    const size_t bad = r->utf8_pos + r->kernel->utf8_validate(r->buf + r->utf8_pos, limit - r->utf8_pos);
    *utf8_pos = bad;
    if (bad >= w->end)
        return w->rows;
    size_t clean = 0;
    while (clean < w->rows && origin + pos[first ? first[clean + 1] - 1 : clean * stride + stride - 1] <= bad)
        clean++;
    return clean;
}

/* Moves the reader past a walk's records. */
static void commit(simdsv_reader *r, const walk_out *w, size_t utf8_pos, size_t last_size)
{
    r->index_i = w->next_i;
    r->rec_start = r->field_start = w->end;
    r->nfields = 0;
    if (r->opt.utf8 != SIMDSV_UTF8_NONE)
        r->utf8_pos = utf8_pos > w->end ? utf8_pos : w->end;
    r->physical_records += w->rows;
    r->records_emitted += w->rows;
    r->record_bytes = last_size;
    r->unescape_len = 0;
}

/* Whether the index can be walked from the current record start. */
static bool walkable(const simdsv_reader *r)
{
    return r->started && !r->skipping && !r->fatal && r->index_i < r->index_n && r->rec_start >= r->index_base &&
           !(r->opt.header && !r->header_done);
}

size_t simdsv__reader_batch(simdsv_reader *r, size_t fields, size_t max_rows, uint32_t *pos, size_t pos_cap,
                            size_t *origin)
{
    *origin = r->rec_start;
    if (fields == 0 || !walkable(r) || (r->opt.max_fields && fields > r->opt.max_fields))
        return 0;
    walk_out w = walk(r, *origin, fields, true, max_rows, pos, pos_cap, NULL);
    if (w.rows == 0)
        return 0;
    size_t utf8_pos;
    const size_t clean = utf8_clean(r, &w, *origin, pos, NULL, fields + 1, &utf8_pos);
    if (clean == 0) {
        r->utf8_pos = utf8_pos;
        return 0;
    }
    if (clean < w.rows) /* rows before the invalid byte go; its row takes the record path */
        w = walk(r, *origin, fields, true, clean, pos, pos_cap, NULL);
    const uint32_t *last = pos + (w.rows - 1) * (fields + 1);
    commit(r, &w, utf8_pos, last[fields] - last[0]);
    return w.rows;
}

/* ------------------------------------------------------------ public batches */

static simdsv_status grow_to(simdsv_reader *r, size_t bounds, size_t records)
{
    if (bounds > r->batch_bounds_cap) {
        const size_t cap = bounds > BATCH_BOUNDS ? bounds : BATCH_BOUNDS;
        uint32_t *b = simdsv__alloc(&r->opt.alloc, cap * sizeof *b);
        uint8_t *f = simdsv__alloc(&r->opt.alloc, cap);
        if (!b || !f) {
            simdsv__free(&r->opt.alloc, b, b ? cap * sizeof *b : 0);
            simdsv__free(&r->opt.alloc, f, f ? cap : 0);
            return SIMDSV_ERR_NOMEM;
        }
        simdsv__free(&r->opt.alloc, r->batch_bounds, r->batch_bounds_cap * sizeof *r->batch_bounds);
        simdsv__free(&r->opt.alloc, r->batch_flags, r->batch_bounds_cap);
        memset(f, 0, cap); /* flags are kept zero between batches */
        r->batch_bounds = b;
        r->batch_flags = f;
        r->batch_flags_dirty = 0;
        r->batch_bounds_cap = cap;
    }
    if (records > r->batch_records_cap) {
        const size_t cap = records > BATCH_RECORDS ? records : BATCH_RECORDS;
        size_t *first = simdsv__alloc(&r->opt.alloc, (cap + 1) * sizeof *first);
        uint64_t *offsets = simdsv__alloc(&r->opt.alloc, cap * sizeof *offsets);
        if (!first || !offsets) {
            simdsv__free(&r->opt.alloc, first, first ? (cap + 1) * sizeof *first : 0);
            simdsv__free(&r->opt.alloc, offsets, offsets ? cap * sizeof *offsets : 0);
            return SIMDSV_ERR_NOMEM;
        }
        simdsv__free(&r->opt.alloc, r->batch_first, (r->batch_records_cap + 1) * sizeof *r->batch_first);
        simdsv__free(&r->opt.alloc, r->batch_offsets, r->batch_records_cap * sizeof *r->batch_offsets);
        r->batch_first = first;
        r->batch_offsets = offsets;
        r->batch_records_cap = cap;
    }
    return SIMDSV_OK;
}

/* A record of the general path as the batch's first record.  Its fields are
 * views into buf (then the batch's offsets count from the record's start,
 * and the walk may append records after it) or into the slow path's
 * scratch: then they are laid out in batch_spill (quotes around quoted
 * fields, one byte between fields) so that the same bounds describe them.
 * Returns the origin, or SIZE_MAX when the record is spilled (no walk after
 * it). */
static simdsv_status put_record(simdsv_reader *r, const simdsv_record *rec, simdsv_batch *b, size_t *origin)
{
    const size_t n = rec->field_count;
    simdsv_status st = grow_to(r, n + 1, 1);
    if (st != SIMDSV_OK)
        return st;
    const size_t start = (size_t)(rec->byte_offset - r->buf_origin);
    const char *base = (const char *)r->buf + start;
    uint64_t span = 0;
    for (size_t j = 0; j < n; j++) /* the bytes the bounds describe: fields, quotes, separators */
        span += rec->fields[j].size + 3;
    if (span > UINT32_MAX)
        return SIMDSV_ERR_RECORD_TOO_LARGE;
    if (!r->last_in_buffer) {
        if (span > r->batch_spill_cap) {
            char *spill = simdsv__alloc(&r->opt.alloc, (size_t)span);
            if (!spill)
                return SIMDSV_ERR_NOMEM;
            simdsv__free(&r->opt.alloc, r->batch_spill, r->batch_spill_cap);
            r->batch_spill = spill;
            r->batch_spill_cap = (size_t)span;
        }
        base = r->batch_spill;
    }
    uint32_t at = 0;
    unsigned any = 0;
    for (size_t j = 0; j < n; j++) {
        const simdsv_field *f = &rec->fields[j];
        const uint32_t q = (f->flags & SIMDSV_FIELD_QUOTED) ? 1 : 0;
        if (r->last_in_buffer) {
            at = (uint32_t)(f->data - base) - q;
        } else {
            char *out = r->batch_spill + at;
            out[0] = (char)r->dialect.quote;
            if (f->size)
                memcpy(out + q, f->data, f->size);
            out[q + f->size] = (char)r->dialect.quote;
            out[2 * q + f->size] = (char)r->dialect.delimiter;
        }
        r->batch_bounds[j] = at;
        r->batch_flags[j] = (uint8_t)f->flags;
        any |= f->flags;
        at += (uint32_t)(f->size + 2 * q + 1);
    }
    r->batch_bounds[n] = at;
    r->batch_flags[n] = 0;
    r->batch_flags_dirty = n + 1;
    r->batch_first[0] = 0;
    r->batch_first[1] = n + 1;
    r->batch_offsets[0] = rec->byte_offset;
    b->count = 1;
    b->data = base;
    b->flags_any = any;
    b->first_index = rec->index;
    *origin = r->last_in_buffer ? start : SIZE_MAX;
    return SIMDSV_OK;
}

/* Flags of the walked records from bounds[from..to), which are zero on
 * entry: a field that opens with a quote is quoted (the kernel saw it close
 * right before its separator), and needs decoding if a quote or escape byte
 * is inside.  An index without any quote byte (the kernel says so) has no
 * quoted field, and neither has a span that memchr finds none in.  Only the
 * columns the caller reads are flagged (simdsv_reader_read_columns). */
static unsigned walked_flags(simdsv_reader *r, const char *data, const uint32_t *bounds, uint8_t *flags,
                             const size_t *first, size_t rows)
{
    const size_t from = first[0], to = first[rows];
    if (!r->dialect.has_quote || !r->index_quoted || rows == 0)
        return 0;
    const char quote = (char)r->dialect.quote, escape = (char)r->dialect.escape;
    const uint32_t span_start = bounds[from], span_end = bounds[to - 1];
    if (!memchr(data + span_start, quote, span_end - span_start))
        return 0;
    unsigned any = 0;
    const bool every_column = r->flag_columns == UINT64_MAX;
    for (size_t k = 0; k < rows; k++)
        for (size_t e = first[k]; e + 1 < first[k + 1]; e++) {
            const char *p = data + bounds[e];
            const size_t raw = bounds[e + 1] - 1 - bounds[e];
            if (raw == 0 || *p != quote || (!every_column && !simdsv__column_in(r->flag_columns, e - first[k])))
                continue;
            unsigned f = SIMDSV_FIELD_QUOTED;
            if (memchr(p + 1, quote, raw - 2) || (r->dialect.has_escape && memchr(p + 1, escape, raw - 2)))
                f |= SIMDSV_FIELD_NEEDS_UNESCAPE;
            flags[e] = (uint8_t)f;
            any |= f;
        }
    if (any && r->batch_flags_dirty < to)
        r->batch_flags_dirty = to;
    return any;
}

/* One record read by the general path, as the batch's first. */
static simdsv_status general_record(simdsv_reader *r, simdsv_batch *b, size_t *origin)
{
    simdsv_record rec;
    simdsv_status st = simdsv__read_record(r, &rec);
    if (st == SIMDSV_OK && (st = put_record(r, &rec, b, origin)) == SIMDSV_ERR_RECORD_TOO_LARGE)
        st = simdsv__set_error(r, st, (size_t)(rec.byte_offset - r->buf_origin), 0,
                               "record too large for a batch (4 GiB or more): read it with simdsv_reader_next");
    return st;
}

/* Appends the regular records the index holds from rec_start to a batch
 * of `have` records whose offsets count from buffer position origin;
 * returns the batch's new record count. */
static size_t append_walked(simdsv_reader *r, simdsv_batch *b, size_t origin, size_t have)
{
    const size_t at = have ? r->batch_first[1] : 0;
    size_t width = have ? r->batch_first[1] - 1 : r->header_count;
    if (r->opt.max_fields && width > r->opt.max_fields)
        width = 0;
    size_t *first = r->batch_first + have;
    uint32_t *pos = r->batch_bounds + at;
    walk_out w = walk(r, origin, width, false, r->batch_records_cap - have, pos, r->batch_bounds_cap - at, first);
    if (w.rows == 0)
        return have;
    size_t utf8_pos;
    const size_t clean = utf8_clean(r, &w, origin, pos, first, 0, &utf8_pos);
    if (clean == 0) {
        r->utf8_pos = utf8_pos;
        r->batch_first[have] = at; /* the walk wrote its own start there */
        return have;
    }
    if (clean < w.rows) /* records before the invalid byte go; its record takes the record path */
        w = walk(r, origin, width, false, clean, pos, r->batch_bounds_cap - at, first);
    for (size_t k = 0; k < w.rows; k++) {
        first[k] += at;
        r->batch_offsets[have + k] = r->buf_origin + origin + r->batch_bounds[first[k]];
    }
    first[w.rows] += at;
    const uint32_t *last = r->batch_bounds + first[w.rows - 1];
    commit(r, &w, utf8_pos, r->batch_bounds[first[w.rows] - 1] - last[0]);
    if (!have) {
        b->data = (const char *)r->buf + origin;
        b->first_index = r->records_emitted - w.rows;
    }
    b->flags_any |= walked_flags(r, b->data, r->batch_bounds, r->batch_flags, first, w.rows);
    return have + w.rows;
}

/* Hands out a batch of `have` records. */
static simdsv_status finish_batch(simdsv_reader *r, simdsv_batch *b, size_t have)
{
    b->count = have;
    b->bounds = r->batch_bounds;
    b->flags = r->batch_flags;
    b->first = r->batch_first;
    b->byte_offsets = r->batch_offsets;
    r->batch_valid = true;
    r->batch_line0_known = false;
    return SIMDSV_OK;
}

simdsv_status simdsv_reader_next_batch(simdsv_reader *r, simdsv_batch *b)
{
    simdsv_status st = simdsv__ensure_usable(r);
    if (st != SIMDSV_OK)
        return st;
    if (!b)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    if ((st = simdsv__ensure_header(r)) != SIMDSV_OK)
        return st;
    if (!r->started && (st = simdsv__start_input(r)) != SIMDSV_OK)
        return st;
    if ((st = grow_to(r, BATCH_BOUNDS, BATCH_RECORDS)) != SIMDSV_OK)
        return st;
    /* the previous batch's views are no longer valid: its pages may go */
    if (r->buf == r->src.data)
        simdsv__source_release(&r->src, r->rec_start);
    memset(r->batch_flags, 0, r->batch_flags_dirty);
    r->batch_flags_dirty = 0;
    memset(b, 0, sizeof *b);
    b->quote = r->opt.quote;
    b->escape = r->opt.escape;
    size_t origin = r->rec_start, have = 0;
    b->data = (const char *)r->buf + origin;
    b->first_index = r->records_emitted;
    /* After a skip the index starts empty at the record: indexed, the batch
     * walks it too, rather than taking its first record by the general path. */
    if (!walkable(r) && !(simdsv__index_from_record(r) && walkable(r))) {
        /* The general path: one record, then what the index holds after it. */
        if ((st = general_record(r, b, &origin)) != SIMDSV_OK)
            return st;
        have = 1;
        /* Offsets from the record's start must stay within 32 bits. */
        if (origin == SIZE_MAX || !walkable(r) || r->scan_pos - origin > UINT32_MAX)
            return finish_batch(r, b, have);
    }
    have = append_walked(r, b, origin, have);
    if (have == 0) {
        /* Nothing regular at the start: the general path takes one record. */
        if ((st = general_record(r, b, &origin)) != SIMDSV_OK)
            return st;
        have = 1;
    }
    return finish_batch(r, b, have);
}

uint64_t simdsv_reader_batch_line(simdsv_reader *r, const simdsv_batch *b, size_t k)
{
    if (!r || !b || !r->batch_valid || b->bounds != r->batch_bounds || k >= b->count)
        return 0;
    const size_t pos0 = (size_t)(b->byte_offsets[0] - r->buf_origin);
    if (!r->batch_line0_known) {
        simdsv__advance_lines(r, pos0);
        r->batch_line0 = r->line_count + 1;
        r->batch_after_cr = r->line_after_cr;
        r->batch_line0_known = true;
    }
    uint64_t after_cr = r->batch_after_cr;
    const size_t pos = (size_t)(b->byte_offsets[k] - r->buf_origin);
    return r->batch_line0 + r->kernel->count_lines(r->buf + pos0, pos - pos0, &after_cr);
}

size_t simdsv_batch_decode(const simdsv_batch *b, const simdsv_field *field, char *dst)
{
    if (!(field->flags & SIMDSV_FIELD_NEEDS_UNESCAPE)) {
        if (field->size)
            memcpy(dst, field->data, field->size);
        return field->size;
    }
    return simdsv_unescape(field, b->quote, b->escape, dst);
}
