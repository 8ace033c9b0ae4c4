/*
 * header.c — the header: its row (or rows, SIMDSV_OPT_HEADER_ROWS, joined
 * with a space) read as the first records, checked like any record, and
 * kept as the reader's column names (simdsv_reader_header).
 */
#include "reader.h"

#include <string.h>

/* Appends the cells of one more header row to the names, with a space:
 * the header bytes are rebuilt in a new block (names are short). */
static simdsv_status add_header_row(simdsv_reader *r, bool upper)
{
    simdsv_record rec;
    simdsv_status st = simdsv__read_record(r, &rec);
    if (st != SIMDSV_OK)
        return st;
    r->records_emitted = 0;
    size_t bytes = r->header_bytes_size;
    for (size_t i = 0; i < rec.field_count && i < r->header_count; i++)
        bytes += rec.fields[i].size + 1;
    /* An upper row's empty cell may repeat its left neighbour: room for the widest. */
    size_t widest = 0;
    for (size_t i = 0; i < rec.field_count; i++)
        widest = rec.fields[i].size > widest ? rec.fields[i].size : widest;
    if (upper)
        bytes += r->header_count * (widest + 1);
    char *nb = simdsv__alloc(&r->opt.alloc, bytes ? bytes : 1);
    if (!nb)
        return simdsv__fail(r, SIMDSV_ERR_NOMEM, 0);
    char *out = nb;
    const simdsv_field *left = NULL;
    for (size_t i = 0; i < r->header_count; i++) {
        simdsv_field *h = &r->header_fields[i];
        memcpy(out, h->data, h->size);
        size_t n = h->size;
        const simdsv_field *f = i < rec.field_count ? &rec.fields[i] : NULL;
        if (f && f->size)
            left = f;
        else if (upper && left)
            f = left;
        if (f && f->size) {
            if (n)
                out[n++] = ' ';
            n += (f->flags & SIMDSV_FIELD_NEEDS_UNESCAPE) ? simdsv_unescape(f, r->opt.quote, r->opt.escape, out + n)
                                                           : (memcpy(out + n, f->data, f->size), f->size);
        }
        h->data = out;
        h->size = n;
        out += n;
    }
    simdsv__free(&r->opt.alloc, r->header_bytes, r->header_bytes_size);
    r->header_bytes = nb;
    r->header_bytes_size = bytes ? bytes : 1;
    return SIMDSV_OK;
}

static simdsv_status read_header(simdsv_reader *r)
{
    simdsv_record rec;
    simdsv_status st = simdsv__read_record(r, &rec);
    if (st == SIMDSV_END) {
        r->header_done = true;
        return SIMDSV_END;
    }
    if (st != SIMDSV_OK)
        return st;
    r->records_emitted = 0;
    /* Copy: the header outlives the buffer it was read from. */
    size_t bytes = 0;
    for (size_t i = 0; i < rec.field_count; i++)
        bytes += rec.fields[i].size;
    r->header_bytes = simdsv__alloc(&r->opt.alloc, bytes);
    if (!r->header_bytes)
        return simdsv__fail(r, SIMDSV_ERR_NOMEM, 0);
    r->header_bytes_size = bytes;
    r->header_fields = simdsv__alloc(&r->opt.alloc, rec.field_count * sizeof *r->header_fields);
    if (!r->header_fields)
        return simdsv__fail(r, SIMDSV_ERR_NOMEM, 0);
    r->header_count = rec.field_count;
    char *out = r->header_bytes;
    for (size_t i = 0; i < rec.field_count; i++) {
        const simdsv_field *f = &rec.fields[i];
        const size_t n = (f->flags & SIMDSV_FIELD_NEEDS_UNESCAPE) ? simdsv_unescape(f, r->opt.quote, r->opt.escape, out)
                                                                   : (memcpy(out, f->data, f->size), f->size);
        r->header_fields[i].data = out;
        r->header_fields[i].size = n;
        r->header_fields[i].flags = f->flags & ~SIMDSV_FIELD_NEEDS_UNESCAPE;
        out += n;
    }
    /* An empty cell of an upper header row stands for its left neighbour (a merged cell). */
    for (size_t i = 1; r->opt.header_rows > 1 && i < r->header_count; i++)
        if (r->header_fields[i].size == 0)
            r->header_fields[i] = r->header_fields[i - 1];
    for (uint64_t row = 1; row < r->opt.header_rows; row++)
        if ((st = add_header_row(r, row + 1 < r->opt.header_rows)) != SIMDSV_OK)
            break;
    r->header_done = true;
    return st == SIMDSV_END ? SIMDSV_OK : st;
}

simdsv_status simdsv_reader_header(simdsv_reader *r, simdsv_record *rec)
{
    simdsv_status st = simdsv__ensure_usable(r);
    if (st != SIMDSV_OK)
        return st;
    if (!rec || !r->opt.header)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    if (!r->header_done && (st = read_header(r)) != SIMDSV_OK)
        return st;
    if (!r->header_fields)
        return SIMDSV_END;
    rec->fields = r->header_fields;
    rec->field_count = r->header_count;
    rec->index = 0;
    rec->byte_offset = 0;
    return SIMDSV_OK;
}

simdsv_status simdsv__ensure_header(simdsv_reader *r)
{
    return r->opt.header && !r->header_done ? read_header(r) : SIMDSV_OK;
}
