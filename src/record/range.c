/*
 * range.c — byte ranges of one input read apart: summaries, their combine,
 * and readers over one range's records (see "byte ranges" in simdsv.h).
 *
 * The summary is the parallel count's chunk analysis (chunks.c, the chunk planner)
 * made public: the first record start after the range's begin under each
 * of the two quote states the begin can have, and the range's quote parity.
 * The combine is the prefix XOR the parallel count does in one process; here
 * the ranges may have been summarized on different machines.
 */
#include <stdio.h>
#include <string.h>

#include "chunks.h"

/* The dialects whose quote state is not the parity of the quotes before. */
static simdsv_status refuse_unsupported(const struct simdsv_options *o, simdsv_error *err)
{
    const char *why = NULL;
    if (o->escape >= 0)
        why = "byte ranges cannot be read with an escape byte: an escaped quote breaks the quote parity";
    else if (o->comment_len > 0)
        why = "byte ranges cannot be read with a comment byte: a comment line may hold an unbalanced quote";
    else if (o->lenient)
        why = "byte ranges cannot be read in lenient mode: it recovers from stray quotes, so their parity is not "
              "the quote state";
    else if (o->skip_lines)
        why = "byte ranges cannot be read with skipped lines: a skipped line may hold an unbalanced quote";
    if (!why)
        return SIMDSV_OK;
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = SIMDSV_ERR_INVALID_ARGUMENT;
        snprintf(err->message, sizeof err->message, "%s", why);
    }
    return SIMDSV_ERR_INVALID_ARGUMENT;
}

simdsv_status simdsv_range_summarize(const simdsv_options *opt, const void *bytes, size_t size, uint64_t begin,
                                     int prev_byte, simdsv_range_summary *out, simdsv_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    if (!out || (!bytes && size) || begin > UINT64_MAX - size)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    simdsv_reader *r = NULL; /* for its resolved kernel and dialect */
    simdsv_status st = simdsv_reader_new(&r, opt);
    if (st == SIMDSV_OK)
        st = refuse_unsupported(&r->opt, err);
    if (st == SIMDSV_OK)
        simdsv__range_summary(r, bytes ? bytes : (const void *)"", size, begin, prev_byte, out);
    else if (err && err->code == SIMDSV_OK)
        err->code = st;
    simdsv_reader_free(r);
    return st;
}

simdsv_status simdsv_range_combine(const simdsv_range_summary *s, size_t n, simdsv_range *out)
{
    if (!s || !out || n == 0 || s[0].begin != 0 || (n > 1 && s[0].header_end == UINT64_MAX))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++)
        if (s[i].end < s[i].begin || (i + 1 < n && s[i].end != s[i + 1].begin))
            return SIMDSV_ERR_INVALID_ARGUMENT;
    int in_quote = 0;
    uint64_t lines = 0;
    for (size_t i = 0; i < n; i++) {
        const int h = in_quote;
        out[i].in_quote = (uint8_t)h;
        out[i].start = s[i].record_start[h];
        out[i].line = lines + s[i].lines_to_start[h] + 1;
        out[i].after_cr = s[i].after_cr[h];
        lines += s[i].lines;
        in_quote ^= s[i].quote_parity & 1;
    }
    /* Each range's records run to the next record start; a range without
     * one holds none, and the range before reads through it. */
    uint64_t next = s[n - 1].end;
    for (size_t i = n; i-- > 0;) {
        if (out[i].start == UINT64_MAX) {
            out[i].start = next;
            out[i].after_cr = 0;
        }
        out[i].stop = next;
        next = out[i].start;
    }
    return SIMDSV_OK;
}

simdsv_status simdsv_reader_open_range(simdsv_reader *r, const void *bytes, const simdsv_range *range)
{
    if (!r || !range || range->stop < range->start)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    simdsv_status st = refuse_unsupported(&r->opt, &r->err);
    if (st != SIMDSV_OK)
        return st;
    if ((st = simdsv_reader_open_memory(r, bytes, (size_t)(range->stop - range->start))) != SIMDSV_OK)
        return st;
    if (range->start == 0)
        return SIMDSV_OK; /* the input's own start: BOM and header as in a whole read */
    /* A record start inside the input: no BOM, no header; positions and
     * lines are the input's. */
    r->opt.header = false;
    simdsv__restart_scan(r, 0);
    r->utf8_pos = 0;
    r->started = true;
    r->buf_origin = range->start;
    r->line_offset = range->start;
    r->line_count = range->line - 1;
    r->line_after_cr = range->after_cr;
    return SIMDSV_OK;
}
