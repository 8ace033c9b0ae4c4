/*
 * batch.c — whole records taken straight from the kernel's separator index,
 * many at a time, for readers that convert column by column (the typed
 * reader).  Only regular records qualify: exactly the expected field count,
 * inside the current index, valid UTF-8 (when checked) and within the size
 * limit.  Anything else is left where it is, and the caller reads that record
 * with simdsv_reader_next, whose policy (errors, lenient recovery, ragged
 * rows) then applies unchanged.  The reader's state after a batch is exactly
 * what the same records read one by one would have left.
 */
#include "batch.h"

#include <string.h>

/* Walks the index from index_i and records up to max_rows regular rows into
 * pos (see batch.h).  Pure: the reader is not changed.  *next_i: the index
 * entry after the last row's line end; *end: the buffer position after it.
 * A row whose `fields` entries end with its only line end takes the
 * straight-line path; anything else (an empty line, a CRLF's LF, a short or
 * long row) is looked at entry by entry. */
static size_t walk(const simdsv_reader *r, size_t fields, size_t max_rows, uint32_t *pos, size_t *next_i,
                   size_t *end)
{
    const uint32_t *index = r->index;
    const size_t count = r->index_n, base = r->index_base, origin = r->rec_start;
    const size_t stride = fields + 1;
    const uint64_t max_size = r->opt.max_record_size;
    /* entry -> offset from origin of the byte after the separator */
    const uint32_t shift = (uint32_t)(base - origin + 1);
    size_t i = r->index_i, rows = 0;
    uint32_t *row = pos;
    row[0] = 0;
    *next_i = i; /* moves with whole rows only: empty lines after the last are the next read's */
    *end = origin;
    while (rows < max_rows) {
        if (count - i >= fields) {
            const uint32_t *e = index + i;
            uint32_t terms = 0;
            for (size_t j = 0; j + 1 < fields; j++) {
                terms |= e[j];
                row[j + 1] = (e[j] & SCAN_OFFSET_MASK) + shift;
            }
            const uint32_t last = e[fields - 1];
            row[fields] = (last & SCAN_OFFSET_MASK) + shift;
            /* (With one field, a line end at the row's start is an empty line, not a row.) */
            if (!(terms & SCAN_TERM_BIT) && (last & SCAN_TERM_BIT) && row[fields] - 1 != row[0] &&
                !(max_size && row[fields] - 1 - row[0] > max_size)) {
                i += fields;
                *next_i = i;
                rows++;
                row += stride;
                row[0] = row[-1];
                continue;
            }
        }
        /* Entry by entry: skip empty lines before the row; stop at anything else. */
        if (i < count && (index[i] & SCAN_TERM_BIT) && (index[i] & SCAN_OFFSET_MASK) + shift - 1 == row[0]) {
            row[0]++;
            i++;
            continue;
        }
        break;
    }
    if (rows)
        *end = origin + pos[(rows - 1) * stride + fields];
    return rows;
}

size_t simdsv__reader_batch(simdsv_reader *r, size_t fields, size_t max_rows, uint32_t *pos, size_t pos_cap,
                            size_t *origin)
{
    *origin = r->rec_start;
    if (fields == 0 || pos_cap / (fields + 1) < 2 || !r->started || r->skipping || r->fatal ||
        r->index_i >= r->index_n || r->rec_start < r->index_base || (r->opt.header && !r->header_done) ||
        (r->opt.max_fields && fields > r->opt.max_fields))
        return 0;
    if (max_rows > pos_cap / (fields + 1) - 1)
        max_rows = pos_cap / (fields + 1) - 1; /* room for the row after the last one */
    size_t next_i, end;
    size_t rows = walk(r, fields, max_rows, pos, &next_i, &end);
    if (rows == 0)
        return 0;
    size_t utf8_pos = r->utf8_pos;
    if (r->opt.utf8 != SIMDSV_UTF8_NONE && end > utf8_pos) {
        /* The same look-ahead as the record path: everything scanned so far. */
        size_t limit = r->scan_pos > end ? r->scan_pos : end;
        if (limit > r->len)
            limit = r->len;
        if (!r->eof)
            limit -= simdsv__utf8_incomplete_tail(r->buf + end, limit - end);
        const size_t bad = utf8_pos + r->kernel->utf8_validate(r->buf + utf8_pos, limit - utf8_pos);
        utf8_pos = bad;
        if (bad < end) {
            /* Rows before the invalid byte go; its row takes the record path. */
            size_t clean = 0;
            while (clean < rows && *origin + pos[clean * (fields + 1) + fields] <= bad)
                clean++;
            if (clean == 0) {
                r->utf8_pos = bad;
                return 0;
            }
            rows = walk(r, fields, clean, pos, &next_i, &end);
        }
    }
    const uint32_t *last = pos + (rows - 1) * (fields + 1);
    r->index_i = next_i;
    r->rec_start = r->field_start = end;
    r->nfields = 0;
    if (r->opt.utf8 != SIMDSV_UTF8_NONE)
        r->utf8_pos = utf8_pos > end ? utf8_pos : end;
    r->physical_records += rows;
    r->records_emitted += rows;
    r->record_bytes = last[fields] - last[0];
    r->unescape_len = 0;
    return rows;
}
