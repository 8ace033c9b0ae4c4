/* fuzz_range.c — byte ranges (simdsv_range_summarize / _combine /
 * simdsv_reader_open_range) of arbitrary input cut at arbitrary places,
 * in every dialect (the quote parity's two states, and the record grammar's
 * for escapes, comments, lenient mode, a delimiter of two bytes and trimmed
 * spaces), read range by range, give exactly the whole read's records (byte
 * offsets and decoded fields) and its first error (byte, line, column). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The options of c, with the delimiter doubled and spaces trimmed when the
 * streaming buffer's bits (no stream here) say so. */
static simdsv_options *range_options(const fuzz_config *c, const uint8_t *h)
{
    simdsv_options *o = fuzz_options(c, SIMDSV_KERNEL_AUTO);
    if (h[2] & 4) {
        const char twice[3] = {(char)c->delimiter, (char)c->delimiter, 0};
        if (c->delimiter > 0 && c->delimiter < 128)
            simdsv_options_set_string(o, SIMDSV_OPT_DELIMITER_STRING, twice);
    }
    if (h[2] & 8)
        simdsv_options_set(o, SIMDSV_OPT_TRIM_SPACES, 1);
    return o;
}

/* Records up to the first error, the header row's included (the whole
 * read stops there; so does the first range that fails).  Returns 1 after
 * an error. */
static int transcribe(simdsv_reader *r, int header, transcript *t)
{
    simdsv_record rec;
    simdsv_status st = header ? simdsv_reader_header(r, &rec) : SIMDSV_OK;
    if (header && st == SIMDSV_OK)
        for (size_t i = 0; i < rec.field_count; i++)
            tr_put(t, rec.fields[i].data, rec.fields[i].size);
    if (st == SIMDSV_OK || st == SIMDSV_END)
        while ((st = simdsv_reader_next(r, &rec)) == SIMDSV_OK)
            tr_record(t, &rec, 0, rec.byte_offset, decode_by_reader, r);
    if (st == SIMDSV_END)
        return 0;
    const simdsv_error *e = simdsv_reader_error(r);
    tr_u64(t, (uint64_t)st);
    tr_u64(t, e->byte_offset);
    tr_u64(t, e->line);
    tr_u64(t, e->column);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const fuzz_config c = fuzz_decode(data, size);
    uint8_t h[FUZZ_HEADER_BYTES] = {0};
    memcpy(h, data, size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES);
    const uint8_t *csv = data + (size < FUZZ_HEADER_BYTES ? size : FUZZ_HEADER_BYTES);
    const size_t n = size - (size_t)(csv - data);
    simdsv_options *o = range_options(&c, h);
    simdsv_reader *r = NULL;
    if (simdsv_reader_new(&r, o) != SIMDSV_OK) { /* a dialect collision */
        simdsv_options_free(o);
        return 0;
    }
    transcript whole = {0}, parts = {0};
    simdsv_reader_open_memory(r, csv, n);
    transcribe(r, c.header, &whole);
    simdsv_reader_free(r);

    /* Up to 7 cuts, from the chunk seed: anywhere, repeats (empty ranges) too. */
    enum { MAX_CUTS = 7 };
    size_t cuts[MAX_CUTS + 2], ncuts = n > 1 ? 1 + c.chunk_seed % MAX_CUTS : 0;
    uint32_t rng = (uint32_t)c.chunk_seed * 2654435761u + (uint32_t)n;
    cuts[0] = 0;
    for (size_t i = 1; i <= ncuts; i++) {
        rng = rng * 1103515245u + 12345u;
        cuts[i] = 1 + (rng >> 8) % (n - 1);
    }
    for (size_t i = 2; i <= ncuts; i++) /* sorted */
        for (size_t k = i; k > 1 && cuts[k - 1] > cuts[k]; k--) {
            const size_t x = cuts[k];
            cuts[k] = cuts[k - 1];
            cuts[k - 1] = x;
        }
    cuts[ncuts + 1] = n;
    simdsv_range_summary s[MAX_CUTS + 1];
    simdsv_range ranges[MAX_CUTS + 1];
    for (size_t i = 0; i <= ncuts; i++) {
        const simdsv_status st = simdsv_range_summarize(o, csv + cuts[i], cuts[i + 1] - cuts[i], cuts[i],
                                                        cuts[i] ? csv[cuts[i] - 1] : -1, &s[i], NULL);
        FUZZ_ASSERT(c.skip_lines ? st == SIMDSV_ERR_INVALID_ARGUMENT : st == SIMDSV_OK);
        if (st != SIMDSV_OK)
            goto done;
    }
    if (simdsv_range_combine(s, ncuts + 1, ranges) != SIMDSV_OK) {
        /* Only when the header row does not end in the first range. */
        FUZZ_ASSERT(c.header && ncuts > 0 && s[0].header_end == UINT64_MAX);
        goto done;
    }
    for (size_t i = 0; i <= ncuts; i++) {
        FUZZ_ASSERT(ranges[i].start <= ranges[i].stop && ranges[i].stop <= n);
        simdsv_reader_new(&r, o);
        FUZZ_ASSERT(simdsv_reader_open_range(r, csv + ranges[i].start, &ranges[i]) == SIMDSV_OK);
        const int failed = transcribe(r, c.header && i == 0, &parts);
        simdsv_reader_free(r);
        if (failed)
            break;
    }
    FUZZ_ASSERT(whole.len == parts.len && (whole.len == 0 || memcmp(whole.data, parts.data, whole.len) == 0));
done:
    simdsv_options_free(o);
    free(whole.data);
    free(parts.data);
    return 0;
}
