/*
 * skip.c — simdsv_reader_skip: past the records that cannot hold a literal,
 * without cutting them into fields.
 *
 * The input is taken a piece (256 KiB) at a time from the current record
 * start.  One pass of the kernel (scan_skip in scan_block.h) goes over it as
 * the count kernel does, from a fresh state at the record start, and stops
 * where the literal first occurs: it counts the records that end before
 * that and gives where the last of them ends, and where the first byte
 * >= 0x80 is, so that only the bytes from there are checked for UTF-8 as
 * the record path would check them.  Those records are regular (the count
 * stops at anything irregular: a misplaced quote, a comment, the input
 * ending inside quotes) and shorter than the piece, so within the field and
 * size limits: they are exactly records that simdsv_reader_next would
 * return, and the reader moves past them as if it had (record numbers go
 * on; the scan restarts after them).  The record holding the match, or the
 * first one the piece cannot vouch for, is left for the record path.
 */
#include "reader.h"

#include <string.h>

/* Bytes looked at per step: the pass leaves them in the L2 cache for the
 * UTF-8 check after it.  Records longer than this are left to the record
 * path (which also keeps skipped records within the field and size
 * limits). */
#define SKIP_PIECE ((size_t)256 << 10)
/* The kernel window after a skip (doubling from there): a search that skips
 * again after a hit indexes little more than the hit's record. */
#define SKIP_WINDOW ((size_t)256)

static uint8_t lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

static uint8_t upper(uint8_t c)
{
    return c >= 'a' && c <= 'z' ? (uint8_t)(c - 32) : c;
}

simdsv_status simdsv_reader_skip(simdsv_reader *r, const void *needle, size_t size, unsigned flags,
                                 uint64_t *skipped)
{
    simdsv_status st = simdsv__ensure_usable(r);
    if (st != SIMDSV_OK)
        return st;
    if (!skipped || (!needle && size))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    /* The header, and whatever is odd at the current record, are the
     * record path's: it reports them as it always does. */
    if (size == 0 || (r->opt.header && !r->header_done) || r->skipping || r->special_pending || r->slow_only)
        return SIMDSV_OK; /* slow_only: the kernels do not know a multi-byte delimiter or trimmed spaces */
    if (!r->started && (st = simdsv__start_input(r)) != SIMDSV_OK)
        return st;
    const uint8_t *n = needle;
    scan_literal lit = {n, size, (flags & SIMDSV_SKIP_ICASE) != 0, {n[0], n[0]}, {n[size - 1], n[size - 1]}};
    if (lit.icase) {
        lit.first[0] = lower(n[0]);
        lit.first[1] = upper(n[0]);
        lit.last[0] = lower(n[size - 1]);
        lit.last[1] = upper(n[size - 1]);
    }
    size_t piece = SKIP_PIECE;
    if (r->opt.max_fields && piece > r->opt.max_fields)
        piece = (size_t)r->opt.max_fields;
    if (r->opt.max_record_size && piece > r->opt.max_record_size)
        piece = (size_t)r->opt.max_record_size;
    const scan_kernel *k = r->kernel;
    for (;;) {
        /* A stream buffer is refilled while that can make room without
         * growing it (records are never held whole here). */
        while (!r->eof && r->len - r->rec_start < piece && (r->rec_start > 0 || r->len < r->cap))
            if ((st = simdsv__refill(r, false)) != SIMDSV_OK)
                return st;
        const size_t pos = r->rec_start;
        const size_t avail = r->len - pos, len = avail < piece ? avail : piece;
        const uint8_t *data = r->buf + pos;
        /* Unless every column is checked, records passed over are not: their
         * fields are not cut (simdsv_reader_check_columns). */
        const bool strict = r->opt.utf8 == SIMDSV_UTF8_STRICT && r->check_columns == UINT64_MAX && pos + len > r->utf8_pos;
        size_t ascii_end = len; /* data[0..ascii_end) is ASCII */
        scan_state state;
        scan_state_reset(&state);
        scan_result res = k->scan_skip(&r->dialect, &state, data, len, &lit, strict ? &ascii_end : NULL);
        size_t z = res.stopped ? res.consumed : len;
        bool stop = res.stopped;
        size_t from = r->utf8_pos > pos ? r->utf8_pos - pos : 0;
        if (from < ascii_end)
            from = ascii_end;
        if (strict && from < z) {
            const size_t bad = from + k->utf8_validate(data + from, z - from);
            if (bad < z) { /* counted again up to the invalid byte, which the record path reports */
                z = bad;
                stop = true;
                scan_state_reset(&state);
                res = k->scan_count(&r->dialect, &state, data, z, 1, NULL);
            }
        }
        if (res.last_term_end == 0)
            return SIMDSV_OK;
        const size_t to = pos + res.last_term_end;
        *skipped += res.record_ends;
        r->records_emitted += res.record_ends;
        r->physical_records += res.record_ends;
        if (r->utf8_pos < to)
            r->utf8_pos = to;
        r->scanned_all = false;
        simdsv__restart_scan(r, to);
        r->scan_window = SKIP_WINDOW;
        if (stop || res.stopped || (len == avail && r->eof))
            return SIMDSV_OK;
    }
}
