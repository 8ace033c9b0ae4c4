/*
 * range.c — byte ranges of one input read apart: summaries, their combine,
 * and readers over one range's records (see "byte ranges" in simdsv.h).
 *
 * The summary is the chunk planner's (chunks.c) made public: the first
 * record start after the range's begin under each state the begin can be
 * in, and the state at its end under each: two states where the quote
 * state is the quote parity (the parallel count's chunk analysis), the
 * record grammar's otherwise.  The combine composes the ranges' state maps
 * in order (for two states, the prefix XOR the parallel count does in one
 * process); here the ranges may have been summarized on different machines.
 */
#include <stdio.h>
#include <string.h>

#include "chunks.h"

/* Skipped lines are skipped by counting line ends, quotes or not: a range
 * cannot know whether its begin is among them. */
static simdsv_status refuse_unsupported(const struct simdsv_options *o, simdsv_error *err)
{
    if (!o->skip_lines)
        return SIMDSV_OK;
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = SIMDSV_ERR_INVALID_ARGUMENT;
        snprintf(err->message, sizeof err->message, "%s",
                 "byte ranges cannot be read with skipped lines: a skipped line may hold an unbalanced quote");
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
        if (s[i].end < s[i].begin || (i + 1 < n && s[i].end != s[i + 1].begin) || s[i].states != s[0].states ||
            s[i].states == 0 || s[i].states > SIMDSV_RANGE_STATES)
            return SIMDSV_ERR_INVALID_ARGUMENT;
    uint8_t state = 0; /* the input's start */
    uint64_t lines = 0;
    for (size_t i = 0; i < n; i++) {
        if (state >= s[i].states)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        out[i].state = state;
        out[i].start = s[i].record_start[state];
        out[i].line = lines + s[i].lines_to_start[state] + 1;
        out[i].after_cr = s[i].after_cr[state];
        lines += s[i].lines;
        state = s[i].end_state[state];
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
