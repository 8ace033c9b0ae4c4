/*
 * detect.c — simdsv_input_detect: the one place where an input's settings
 * are detected and set on the options a reader is then opened with, for the
 * CLI, the Python package and the Dask reader alike.  It chooses what the
 * sniff looks at (the start, middle and end of a plain regular file; a plain
 * buffer whole; the first decoded bytes of anything else, kept for the
 * reader) and sets only the settings the caller did not give.  It decides
 * nothing about the data itself: that is simdsv_sniff's.
 */
#include "sniff.h"
#include "../source/input.h"

#include <stdio.h>
#include <string.h>

static void io_error(simdsv_error *error, simdsv_status code, int os_errno, const char *why)
{
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->code = code;
    error->os_errno = os_errno;
    snprintf(error->message, sizeof error->message, "%s", why);
}

simdsv_status simdsv_input_detect(simdsv_input *in, const simdsv_sniff_params *params, simdsv_options *opt,
                                  simdsv_sniff **sniff, simdsv_error *error)
{
    if (sniff)
        *sniff = NULL;
    if (!in) {
        io_error(error, SIMDSV_ERR_INVALID_ARGUMENT, 0, simdsv_status_message(SIMDSV_ERR_INVALID_ARGUMENT));
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    simdsv_sniff_params p;
    memset(&p, 0, sizeof p);
    if (params)
        p = *params;
    simdsv_sniff *s = NULL;
    simdsv_status st;
    int os_errno = 0;
    const int plain = in->compression == SIMDSV_COMPRESSION_NONE && !in->reading;
    if (plain && in->fd >= 0 && in->regular) {
        /* Its start, middle and end, read with pread(): nothing is consumed. */
        p.partial = 0;
        st = simdsv__sniff_fd(in->fd, &p, &s, &os_errno);
    } else if (plain && in->fd < 0 && !in->read_fn) {
        p.partial = 0;
        st = simdsv_sniff_memory(in->mem, in->mem_size, &p, &s);
    } else {
        /* A stream or compressed data: its first decoded bytes, kept for the reader. */
        const uint8_t *data = NULL;
        size_t got = 0;
        int whole = 0;
        st = simdsv__input_sample(in, START_SAMPLE, &data, &got, &whole, &os_errno);
        if (st == SIMDSV_OK) {
            p.partial = !whole;
            st = simdsv_sniff_memory(data, got, &p, &s);
        }
    }
    if (st == SIMDSV_ERR_IO) {
        const char *why = simdsv_input_error(in);
        io_error(error, st, os_errno, why ? why : os_errno ? strerror(os_errno) : "the input could not be read");
    } else if (st != SIMDSV_OK) {
        io_error(error, st, 0, simdsv_status_message(st));
    }
    if (st == SIMDSV_OK && opt && !s->binary)
        st = simdsv__sniff_apply_detected(s, opt, p.given);
    /* Repeated headers: no option cuts one line, so the input serves the
     * bytes around them (their offsets are the input's own, as decoded). */
    if (st == SIMDSV_OK && opt) {
        const size_t n = s->binary || (p.given >> SIMDSV_SNIFF_FOOTER & 1) ? 0 : simdsv_sniff_kept_ranges(s, NULL, 0);
        uint64_t *ranges = n ? simdsv__alloc(&in->alloc, 2 * n * sizeof *ranges) : NULL;
        if (n && !ranges) {
            st = SIMDSV_ERR_NOMEM;
        } else {
            simdsv_sniff_kept_ranges(s, ranges, n);
            if (n || in->nkeep) /* (a detection again, for another table: its own ranges) */
                st = simdsv_input_keep_ranges(in, ranges, n);
            if (st == SIMDSV_OK && n)
                st = simdsv_options_set(opt, SIMDSV_OPT_END_OFFSET, 0);
            simdsv__free(&in->alloc, ranges, 2 * n * sizeof *ranges);
        }
        if (st != SIMDSV_OK)
            io_error(error, st, 0, simdsv_status_message(st));
    }
    if (st != SIMDSV_OK || !sniff)
        simdsv_sniff_free(s);
    else
        *sniff = s;
    return st;
}
