/* select_walk.h — the lines of a plain region for select, included by
 * cmd_select.c once per instruction set with WALK_NAME, WALK_ATTR,
 * WALK_POPCOUNT(x) and WALK_SELECT(bits, n) (the position of the n-th set
 * bit, 0-based) defined.
 *
 * Lines are found from the line-feed bitmask.  In each line only the
 * delimiters that bound a selected field are located (their ranks, 0-based
 * within the line, are s->ranks): for a line of up to four 64-byte words the
 * words' delimiter counts are added up first and each rank finds its word
 * without a branch; longer lines skip whole words by their count. */

WALK_ATTR static void WALK_NAME(select_run *s, const char *data, size_t size, size_t words, const uint64_t *dm,
                                const uint64_t *lm)
{
    const size_t *ranks = s->ranks, nranks = s->nranks, maxcol = s->maxcol;
    size_t *ends = s->ends;
    const char *limit = data + size;
    size_t ls = 0;
    for (size_t w = 0; w <= words; w++) {
        uint64_t l = w < words ? lm[w] : 0;
        for (;;) {
            size_t le;
            if (l) {
                le = w * 64 + (size_t)__builtin_ctzll(l);
                l &= l - 1;
            } else if (w == words && ls < size) {
                le = size; /* the last line, without a line feed */
            } else {
                break;
            }
            if (le > ls) {
                const size_t w0 = ls >> 6, wlast = le >> 6;
                const uint64_t last_mask = (1ull << (le & 63)) - 1;
                size_t known = maxcol + 1;
                if (wlast - w0 < 4) {
                    uint64_t wd[4];
                    size_t cum[4];
                    const size_t nw = wlast - w0 + 1;
                    size_t total = 0;
                    for (size_t q = 0; q < 4; q++) {
                        uint64_t b = q < nw ? dm[w0 + q] : 0;
                        if (q == 0)
                            b &= ~0ull << (ls & 63);
                        if (q == nw - 1)
                            b &= last_mask;
                        wd[q] = b;
                        cum[q] = total;
                        total += WALK_POPCOUNT(b);
                    }
                    for (size_t ri = 0; ri < nranks; ri++) {
                        const size_t r = ranks[ri];
                        if (r >= total) {
                            known = total + 1; /* fields in the line; the last ends at le */
                            ends[total] = le;
                            break;
                        }
                        const size_t q = (size_t)(r >= cum[1]) + (size_t)(r >= cum[2]) + (size_t)(r >= cum[3]);
                        ends[r] = (w0 + q) * 64 + WALK_SELECT(wd[q], r - cum[q]);
                    }
                } else {
                    size_t wi = w0, k = 0;
                    uint64_t bits = dm[wi] & (~0ull << (ls & 63));
                    for (size_t ri = 0; ri < nranks; ri++) {
                        const size_t r = ranks[ri];
                        size_t c;
                        while (r >= k + (c = WALK_POPCOUNT(bits))) {
                            if (wi == wlast) {
                                known = k + c + 1;
                                ends[known - 1] = le;
                                goto line_done;
                            }
                            k += c;
                            bits = dm[++wi];
                            if (wi == wlast)
                                bits &= last_mask;
                        }
                        ends[r] = wi * 64 + WALK_SELECT(bits, r - k);
                    }
                }
            line_done:
                emit_line(s, data, ls, le, known, limit);
            }
            ls = le + 1;
        }
    }
}

#undef WALK_NAME
#undef WALK_ATTR
#undef WALK_POPCOUNT
#undef WALK_SELECT
