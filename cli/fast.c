/* fast.c — the raw-byte fast path of select and search.
 *
 * The input is cut into regions of whole records (256 KiB), each
 * classified in one SIMD pass: a region with no quote byte, no CR, valid
 * UTF-8 and within the limits is *plain*: its records are its non-empty
 * lines and its fields are split by the delimiter, so the command can work
 * on the raw bytes (search looks for its literal in the whole region, select
 * splits lines with bitmasks).  Any other region is parsed by the library,
 * opened on the bytes of the region, which then grows to what the buffer
 * holds (up to 1 MiB: fewer readers to create).
 *
 * Region ends.  A region ends after a line feed.  In a region with quotes, a
 * line feed ends a record only outside quotes; for input that follows RFC
 * 4180 that is where the number of quote bytes since the region's start
 * (a record boundary) is even, and the region is cut there.  Input that does
 * not follow it has an error in the first region where the parity goes wrong,
 * which the library reports (strict mode) and which ends the run, so the
 * guess never produces wrong records.  Lenient mode, escapes, comments and
 * skipped lines break that reasoning: with those the whole input goes
 * through the library, as in every other command.
 *
 * Positions.  Error positions from a region's reader are relative to the
 * region; the lines and physical records before it are counted (plain
 * regions in the classifying pass, others from their bytes and records) so
 * that the report shows the position in the whole input, as the library
 * would.  A region after the first starts one byte early, at the line end
 * before it, so that the library sees an empty line first (no record, and no
 * UTF-8 byte-order mark to strip from a field that happens to start with
 * one).
 *
 * Input is read() into a 1 MiB buffer that grows only for a record longer
 * than it.  (Mapping regular files was measured: the page-table work costs
 * as much system time as read()'s copy, and the first pass then reads from
 * memory instead of a buffer hot in the cache, so read() is faster.) */
#define _POSIX_C_SOURCE 200809L
#include "fast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define FAST_X86 1
#endif

enum { REGION = 256 * 1024, LIBRARY_REGION = 1024 * 1024, STREAM_BUFFER = 1024 * 1024 };


/* ------------------------------------------------------------ classifying */

typedef struct scan_info {
    bool quote, cr, high;
    uint64_t lines, empty; /* line feeds; line feeds that end an empty line */
    size_t literal_from;   /* no prefilter candidate starts before this */
} scan_info;

static void classify_scalar(const unsigned char *p, size_t n, int quote, bool prev_lf, scan_info *s)
{
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = p[i];
        s->quote |= (int)c == quote;
        s->cr |= c == '\r';
        s->high |= c >= 0x80;
        if (c == '\n') {
            s->lines++;
            s->empty += prev_lf;
            prev_lf = true;
        } else {
            prev_lf = false;
        }
    }
}

static void masks_scalar(const unsigned char *p, size_t n, int delimiter, uint64_t *dm, uint64_t *lm)
{
    for (size_t w = 0; w * 64 < n; w++) {
        uint64_t d = 0, l = 0;
        const size_t m = n - w * 64 < 64 ? n - w * 64 : 64;
        for (size_t i = 0; i < m; i++) {
            d |= (uint64_t)(p[w * 64 + i] == delimiter) << i;
            l |= (uint64_t)(p[w * 64 + i] == '\n') << i;
        }
        dm[w] = d;
        lm[w] = l;
    }
}

/* The tail after the SIMD loop (i is a multiple of 64). */
static void classify_tail(const unsigned char *p, size_t n, size_t i, int quote, int delimiter, uint64_t *dm,
                          uint64_t *lm, scan_info *s)
{
    classify_scalar(p + i, n - i, quote, i == 0 || p[i - 1] == '\n', s);
    if (dm && i < n)
        masks_scalar(p + i, n - i, delimiter, dm + i / 64, lm + i / 64);
}

#ifdef FAST_X86
__attribute__((target("avx2,popcnt"))) static void classify_avx2(const unsigned char *p, size_t n, int quote,
                                                                 int delimiter, uint64_t *dm, uint64_t *lm,
                                                                 const literal *lit, scan_info *s)
{
    /* The literal's anchors, compared at their offsets for the 64 starts of
     * each block (while the block plus the offset stays in the region). */
    const size_t o1 = lit ? lit->o1 : 0, o2 = lit ? lit->o2 : 0;
    const size_t cand_end = lit && lit->n > 1 && n >= o2 + 64 ? n - o2 - 64 + 1 : 0;
    const __m256i la1 = _mm256_set1_epi8((char)(lit ? lit->a1 : 0)), la2 = _mm256_set1_epi8((char)(lit ? lit->a2 : 0));
    const __m256i lb1 = _mm256_set1_epi8((char)(lit ? lit->b1 : 0)), lb2 = _mm256_set1_epi8((char)(lit ? lit->b2 : 0));
    __m256i any_c = _mm256_setzero_si256();
    size_t checked = 0;
    const __m256i q = _mm256_set1_epi8((char)(quote >= 0 ? quote : '\n'));
    const __m256i cr = _mm256_set1_epi8('\r'), lf = _mm256_set1_epi8('\n');
    const __m256i dv = _mm256_set1_epi8((char)delimiter);
    __m256i any_q = _mm256_setzero_si256(), any_cr = any_q, any_hi = any_q;
    uint64_t carry = 1, lines = 0, empty = 0; /* the region starts at a line start */
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
        any_q = _mm256_or_si256(any_q, _mm256_or_si256(_mm256_cmpeq_epi8(a, q), _mm256_cmpeq_epi8(b, q)));
        any_cr = _mm256_or_si256(any_cr, _mm256_or_si256(_mm256_cmpeq_epi8(a, cr), _mm256_cmpeq_epi8(b, cr)));
        any_hi = _mm256_or_si256(any_hi, _mm256_or_si256(a, b));
        const uint64_t m = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, lf)) |
                           ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, lf)) << 32);
        if (dm) {
            dm[i / 64] = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, dv)) |
                         ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, dv)) << 32);
            lm[i / 64] = m;
        }
        lines += (uint64_t)_mm_popcnt_u64(m);
        empty += (uint64_t)_mm_popcnt_u64(m & ((m << 1) | carry));
        carry = m >> 63;
        if (i < cand_end) {
            const __m256i x0 = _mm256_loadu_si256((const __m256i *)(p + i + o1));
            const __m256i x1 = _mm256_loadu_si256((const __m256i *)(p + i + o1 + 32));
            const __m256i y0 = _mm256_loadu_si256((const __m256i *)(p + i + o2));
            const __m256i y1 = _mm256_loadu_si256((const __m256i *)(p + i + o2 + 32));
            const __m256i c0 = _mm256_and_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x0, la1), _mm256_cmpeq_epi8(x0, la2)),
                                                _mm256_or_si256(_mm256_cmpeq_epi8(y0, lb1), _mm256_cmpeq_epi8(y0, lb2)));
            const __m256i c1 = _mm256_and_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x1, la1), _mm256_cmpeq_epi8(x1, la2)),
                                                _mm256_or_si256(_mm256_cmpeq_epi8(y1, lb1), _mm256_cmpeq_epi8(y1, lb2)));
            any_c = _mm256_or_si256(any_c, _mm256_or_si256(c0, c1));
            checked = i + 64;
        }
    }
    s->quote = quote >= 0 && !_mm256_testz_si256(any_q, any_q);
    s->cr = !_mm256_testz_si256(any_cr, any_cr);
    s->high = _mm256_movemask_epi8(any_hi) != 0;
    s->lines = lines;
    s->empty = empty;
    s->literal_from = _mm256_testz_si256(any_c, any_c) ? checked : 0;
    classify_tail(p, n, i, quote, delimiter, dm, lm, s);
}

static void classify_sse2(const unsigned char *p, size_t n, int quote, int delimiter, uint64_t *dm, uint64_t *lm,
                          scan_info *s)
{
    const __m128i q = _mm_set1_epi8((char)(quote >= 0 ? quote : '\n'));
    const __m128i cr = _mm_set1_epi8('\r'), lf = _mm_set1_epi8('\n'), dv = _mm_set1_epi8((char)delimiter);
    __m128i any_q = _mm_setzero_si128(), any_cr = any_q, any_hi = any_q;
    uint64_t carry = 1, lines = 0, empty = 0;
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        uint64_t m = 0, d = 0;
        for (int k = 0; k < 4; k++) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(p + i + 16 * k));
            any_q = _mm_or_si128(any_q, _mm_cmpeq_epi8(a, q));
            any_cr = _mm_or_si128(any_cr, _mm_cmpeq_epi8(a, cr));
            any_hi = _mm_or_si128(any_hi, a);
            m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, lf)) << (16 * k);
            d |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, dv)) << (16 * k);
        }
        if (dm) {
            dm[i / 64] = d;
            lm[i / 64] = m;
        }
        lines += (uint64_t)__builtin_popcountll(m);
        empty += (uint64_t)__builtin_popcountll(m & ((m << 1) | carry));
        carry = m >> 63;
    }
    s->quote = quote >= 0 && _mm_movemask_epi8(any_q) != 0;
    s->cr = _mm_movemask_epi8(any_cr) != 0;
    s->high = _mm_movemask_epi8(any_hi) != 0;
    s->lines = lines;
    s->empty = empty;
    classify_tail(p, n, i, quote, delimiter, dm, lm, s);
}
#endif

#ifdef FAST_X86
static int have_avx2 = -1;
#endif

/* One pass over a region: what it holds, (when dm is not NULL) its
 * delimiter and line-feed bitmasks, and (with lit) where the literal may
 * start. */
static void classify(const char *data, size_t n, int quote, int delimiter, uint64_t *dm, uint64_t *lm,
                     const literal *lit, scan_info *s)
{
    memset(s, 0, sizeof *s);
    const unsigned char *p = (const unsigned char *)data;
#ifdef FAST_X86
    if (have_avx2 < 0) {
        __builtin_cpu_init();
        have_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    }
    if (have_avx2)
        classify_avx2(p, n, quote, delimiter, dm, lm, lit, s);
    else
        classify_sse2(p, n, quote, delimiter, dm, lm, s);
#else
    (void)lit; /* candidates are found by the search itself */
    classify_tail(p, n, 0, quote, delimiter, dm, lm, s);
#endif
}

/* For regions the library parses: the quote bytes (their parity places the
 * region's end) and the line ends (LF, CRLF and lone CR, for the positions
 * of later errors) in p[0..n). */
static void count_scalar(const unsigned char *p, size_t n, int quote, uint64_t *quotes, uint64_t *lines)
{
    for (size_t i = 0; i < n; i++) {
        *quotes += (int)p[i] == quote;
        *lines += p[i] == '\n' || (p[i] == '\r' && (i + 1 == n || p[i + 1] != '\n'));
    }
}

#ifdef FAST_X86
__attribute__((target("avx2,popcnt"))) static void count_avx2(const unsigned char *p, size_t n, int quote,
                                                              uint64_t *quotes, uint64_t *lines)
{
    const __m256i q = _mm256_set1_epi8((char)(quote >= 0 ? quote : '\n'));
    const __m256i cr = _mm256_set1_epi8('\r'), lf = _mm256_set1_epi8('\n');
    uint64_t nq = 0, nl = 0, pending_cr = 0;
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(p + i));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(p + i + 32));
        const uint64_t qm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, q)) |
                            ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, q)) << 32);
        const uint64_t cm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, cr)) |
                            ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, cr)) << 32);
        const uint64_t lm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, lf)) |
                            ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, lf)) << 32);
        nq += (uint64_t)_mm_popcnt_u64(qm);
        /* a CR is a line end of its own unless a LF follows it */
        nl += (uint64_t)_mm_popcnt_u64(lm) + (pending_cr & ~lm & 1) +
              (uint64_t)_mm_popcnt_u64(cm & ~(lm >> 1) & ~(1ull << 63));
        pending_cr = cm >> 63;
    }
    if (pending_cr && (i == n || p[i] != '\n'))
        nl++;
    *quotes += quote >= 0 ? nq : 0;
    *lines += nl;
    count_scalar(p + i, n - i, quote, quotes, lines);
}
#endif

static void count_for_library(const char *data, size_t n, int quote, uint64_t *quotes, uint64_t *lines)
{
    *quotes = *lines = 0;
    const unsigned char *p = (const unsigned char *)data;
#ifdef FAST_X86
    if (have_avx2 < 0) {
        __builtin_cpu_init();
        have_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    }
    if (have_avx2) {
        count_avx2(p, n, quote, quotes, lines);
        return;
    }
#endif
    count_scalar(p, n, quote, quotes, lines);
}

/* ---------------------------------------------------------------- splitting */

size_t fast_split(const char *line, size_t size, int delimiter, size_t *ends, size_t max)
{
    size_t k = 0;
    const char *p = line, *end = line + size;
    while (k < max) {
        const char *d = memchr(p, delimiter, (size_t)(end - p));
        if (!d) {
            ends[k++] = size;
            return k;
        }
        ends[k++] = (size_t)(d - line);
        p = d + 1;
    }
    /* Past max: only count the rest. */
    for (; p < end; p++)
        k += *p == (char)delimiter;
    return k + 1;
}

int fast_lines(const char *data, size_t size, int (*fn)(void *ctx, const char *line, size_t n), void *ctx)
{
    const char *p = data, *end = data + size;
    while (p < end) {
        const char *lf = memchr(p, '\n', (size_t)(end - p));
        const char *e = lf ? lf : end;
        if (e > p) {
            const int status = fn(ctx, p, (size_t)(e - p));
            if (status)
                return status;
        }
        p = e + 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ source */

typedef struct source {
    cli_common *c;
    simdsv_options *region_opt; /* the command's options, without header or skipped lines */
    const char *data;  /* data[0..len) is the input from offset origin */
    size_t len, pos;   /* pos: the next record starts there */
    uint64_t origin;
    bool eof;
    char *buf;         /* the buffer (data == buf) */
    size_t cap;
    /* bookkeeping for error positions */
    uint64_t lines_before, records_before;
    text_buffer tb;
    const fast_ops *ops;
    void *ctx;
    bool first_done;
    int quote, delimiter;
    int64_t utf8, max_fields, max_record;
    uint64_t *dm, *lm;  /* bitmasks of the region being classified (ops->masks) */
    size_t mask_words;
    size_t literal_from; /* of the region being classified (ops->prefilter) */
    uint64_t region_lines; /* line ends in a region for the library */
} source;

/* Reads more input after compacting; false at the end or on an error
 * (*failed set and reported). */
static bool more(source *s, bool *failed)
{
    *failed = false;
    if (s->eof)
        return false;
    /* Keep the byte before pos (the line end used as the region prefix). */
    const size_t keep_from = s->pos > 0 ? s->pos - 1 : 0;
    memmove(s->buf, s->buf + keep_from, s->len - keep_from);
    s->len -= keep_from;
    s->pos -= keep_from;
    s->origin += keep_from;
    if (s->len == s->cap) {
        char *grown = realloc(s->buf, s->cap * 2);
        if (!grown) {
            cli_error("out of memory");
            *failed = true;
            return false;
        }
        s->buf = grown;
        s->cap *= 2;
    }
    const size_t before = s->len;
    while (s->len < s->cap) {
        int err = 0;
        const long long n = input_read(s->c->in, s->buf + s->len, s->cap - s->len, &err);
        if (n < 0) {
            progress_erase();
            const char *why = input_error(s->c->in);
            if (why)
                fprintf(stderr, "%s: error: %s\n", s->c->display, why);
            else
                fprintf(stderr, "%s: error: %s%s%s\n", s->c->display, simdsv_status_message(SIMDSV_ERR_IO),
                        err ? ": " : "", err ? strerror(err) : "");
            *failed = true;
            return false;
        }
        if (n == 0) {
            s->eof = true;
            break;
        }
        s->len += (size_t)n;
    }
    s->data = s->buf;
    return s->len > before || s->eof;
}

/* The error of a region's reader, moved to its place in the whole input. */
static void report_region_error(source *s, const simdsv_reader *r, size_t region_start, bool prefixed)
{
    const simdsv_error *e = simdsv_reader_error(r);
    progress_erase();
    fprintf(stderr, "%s:%llu:%llu: error: ", s->c->display,
            (unsigned long long)(s->lines_before + e->line - (prefixed ? 1 : 0)), (unsigned long long)e->column);
    cli_put_text(e->message);
    fprintf(stderr, " (byte %llu, record %llu, field %llu)\n",
            (unsigned long long)(s->origin + region_start + e->byte_offset),
            (unsigned long long)(s->records_before + e->record + 1), (unsigned long long)e->field + 1);
}

/* Parses data[pos..end) with the library.  Returns an exit status or -1 to
 * go on. */
static int library_region(source *s, size_t end)
{
    const bool prefixed = s->origin + s->pos > 0;
    const size_t start = prefixed ? s->pos - 1 : s->pos;
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, s->region_opt);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_memory(r, s->data + start, end - start);
    if (st != SIMDSV_OK) {
        simdsv_reader_free(r);
        cli_error("%s", simdsv_status_message(st));
        return EXIT_DATA;
    }
    uint64_t records = 0;
    simdsv_record rec;
    while ((st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        records++;
        fast_kind kind = FAST_DATA;
        if (!s->first_done) {
            kind = cli_opt(s->c, SIMDSV_OPT_HEADER) ? FAST_HEADER : FAST_FIRST;
            s->first_done = true;
        }
        const int status = s->ops->record(s->ctx, &s->tb, &rec, kind);
        if (status) {
            simdsv_reader_free(r);
            return status;
        }
    }
    if (st != SIMDSV_OK && st != SIMDSV_END) {
        out_flush();
        report_region_error(s, r, start, prefixed);
        simdsv_reader_free(r);
        return EXIT_DATA;
    }
    simdsv_reader_free(r);
    s->lines_before += s->region_lines;
    s->records_before += records;
    s->pos = end;
    return -1;
}

/* Where the region starting at pos ends (after a line feed outside quotes,
 * or at the end of the input) and whether it is plain; false when more
 * input is needed. */
static bool choose_region(source *s, size_t *end_out, bool *plain)
{
    const char *d = s->data;
    const size_t pos = s->pos, len = s->len;
    size_t limit = len - pos > REGION ? pos + REGION : len;
    size_t end = 0;
    for (size_t i = limit; i > pos; i--)
        if (d[i - 1] == '\n') {
            end = i;
            break;
        }
    if (!end) {
        const char *lf = memchr(d + limit, '\n', len - limit);
        if (lf)
            end = (size_t)(lf - d) + 1;
        else if (!s->eof)
            return false;
        else
            end = len;
    }
    scan_info info;
    const size_t size = end - pos;
    if (s->ops->masks && (size + 63) / 64 + 1 > s->mask_words) {
        free(s->dm);
        free(s->lm);
        s->mask_words = (size + 63) / 64 + 1;
        s->dm = malloc(s->mask_words * sizeof *s->dm);
        s->lm = malloc(s->mask_words * sizeof *s->lm);
        if (!s->dm || !s->lm) {
            free(s->dm);
            free(s->lm);
            s->dm = s->lm = NULL;
            s->mask_words = 0;
        }
    }
    const bool masks = s->ops->masks && s->dm;
    classify(d + pos, size, s->quote, s->delimiter, masks ? s->dm : NULL, masks ? s->lm : NULL, s->ops->prefilter,
             &info);
    s->literal_from = info.literal_from;
    if (masks)
        s->dm[(size + 63) / 64] = s->lm[(size + 63) / 64] = 0;
    bool ok = (masks || !s->ops->masks) && !info.quote && !info.cr && (size_t)(s->max_fields ? s->max_fields : INT64_MAX) > size &&
              (size_t)(s->max_record ? s->max_record : INT64_MAX) >= size;
    if (ok && info.high && s->utf8 != SIMDSV_UTF8_NONE)
        ok = simdsv_utf8_valid(d + pos, size, NULL) != 0;
    *plain = ok;
    if (ok && s->first_done) {
        s->lines_before += info.lines;
        s->records_before += info.lines - info.empty;
        *end_out = end;
        return true;
    }
    /* For the library: as much as the buffer holds (fewer readers to make),
     * up to the last line feed; never less than the line found above (a
     * line longer than LIBRARY_REGION is one region, not cut). */
    if (!ok && end < len) {
        size_t i = len - pos > LIBRARY_REGION ? pos + LIBRARY_REGION : len;
        while (i > end && d[i - 1] != '\n')
            i--;
        end = i > end ? i : end;
    }
    uint64_t quotes, lines;
    count_for_library(d + pos, end - pos, s->quote, &quotes, &lines);
    if (quotes & 1) {
        /* Cut where the quotes since pos are balanced: backwards first
         * (parity: of the quotes in [pos, i)). */
        const char q = (char)s->quote;
        size_t cut = 0;
        unsigned parity = 1;
        for (size_t i = end; i > pos + 1; i--) {
            parity ^= d[i - 1] == q;
            if (d[i - 2] == '\n' && !parity) {
                cut = i - 1;
                break;
            }
        }
        if (!cut) {
            /* Forwards, past the end. */
            parity = 1;
            for (size_t i = end; i < len && !cut; i++) {
                if (d[i] == '\n' && !parity)
                    cut = i + 1;
                parity ^= d[i] == q;
            }
            if (!cut) {
                if (!s->eof)
                    return false;
                cut = len;
            }
        }
        end = cut;
        count_for_library(d + pos, end - pos, s->quote, &quotes, &lines);
    }
    s->region_lines = lines;
    *end_out = end;
    return true;
}

/* The output quotes fields with '"': a plain line may be copied as it is
 * only when '"' is the input's quote too (with another quote or none, a '"'
 * in a plain line would need quoting). */
static bool eligible(const cli_common *c)
{
    return cli_opt(c, SIMDSV_OPT_QUOTE) == '"' && cli_opt(c, SIMDSV_OPT_ESCAPE) < 0 && cli_opt(c, SIMDSV_OPT_COMMENT) < 0 &&
           cli_opt(c, SIMDSV_OPT_COMMENT_CHAR) < 0 && cli_opt(c, SIMDSV_OPT_SKIP_LINES) == 0 &&
           cli_opt(c, SIMDSV_OPT_LENIENT) == 0 && cli_opt(c, SIMDSV_OPT_END_OFFSET) == 0 &&
           !*simdsv_options_get_string(c->opt, SIMDSV_OPT_ENCODING) && !getenv("SIMDSV_CLI_NO_FAST_PATH");
}

/* Everything through the library (dialects the fast path does not take). */
static int library_run(cli_common *c, const fast_ops *ops, void *ctx)
{
    simdsv_reader *r = cli_open(c);
    if (!r)
        return EXIT_DATA;
    text_buffer tb;
    text_init(&tb, c);
    simdsv_record rec;
    bool has_header;
    simdsv_status st = cli_header(c, r, &rec, &has_header);
    fast_kind kind = FAST_FIRST;
    int status = 0;
    if (st == SIMDSV_OK && has_header) {
        status = ops->record(ctx, &tb, &rec, FAST_HEADER);
        kind = FAST_DATA;
    }
    while (!status && st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        status = ops->record(ctx, &tb, &rec, kind);
        kind = FAST_DATA;
    }
    if (!status)
        status = cli_end_of_records(c, r, st);
    text_free(&tb);
    cli_close(c, r);
    return status;
}

static bool copy_options(const cli_common *c, simdsv_options **out)
{
    simdsv_options *o = simdsv_options_new(NULL);
    if (!o)
        return false;
    for (int id = SIMDSV_OPT_DELIMITER; id <= SIMDSV_OPT_COMMENT_CHAR; id++) {
        int64_t v;
        if (simdsv_options_get(c->opt, (simdsv_option)id, &v) == SIMDSV_OK)
            simdsv_options_set(o, (simdsv_option)id, v);
    }
    simdsv_options_set(o, SIMDSV_OPT_HEADER, 0);
    simdsv_options_set(o, SIMDSV_OPT_SKIP_LINES, 0);
    *out = o;
    return true;
}

int fast_run(cli_common *c, const fast_ops *ops, void *ctx)
{
    if (!eligible(c))
        return library_run(c, ops, ctx);
    source s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.ops = ops;
    s.ctx = ctx;
    s.quote = (int)cli_opt(c, SIMDSV_OPT_QUOTE);
    s.delimiter = (int)cli_opt(c, SIMDSV_OPT_DELIMITER);
    s.utf8 = cli_opt(c, SIMDSV_OPT_UTF8);
    s.max_fields = cli_opt(c, SIMDSV_OPT_MAX_FIELDS);
    s.max_record = cli_opt(c, SIMDSV_OPT_MAX_RECORD_SIZE);
    c->display = strcmp(c->file, "-") == 0 ? "<stdin>" : c->file;
    if (!copy_options(c, &s.region_opt)) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    /* A reader made here checks the dialect and the kernel as cli_open would. */
    simdsv_reader *probe = cli_new_reader(s.region_opt);
    const bool dialect_ok = probe != NULL;
    simdsv_reader_free(probe);
    if (dialect_ok)
        c->in = input_open(c->file, c->display);
    if (!dialect_ok || !c->in) {
        simdsv_options_free(s.region_opt);
        return EXIT_DATA;
    }
    text_init(&s.tb, c);
    s.cap = STREAM_BUFFER;
    s.buf = malloc(s.cap);
    s.data = s.buf;
    if (!s.buf) {
        cli_error("out of memory");
        cli_close(c, NULL);
        text_free(&s.tb);
        simdsv_options_free(s.region_opt);
        return EXIT_DATA;
    }
    int status = -1;
    while (status < 0) {
        if (s.pos == s.len && s.eof)
            break;
        size_t end;
        bool plain;
        if (s.pos == s.len || !choose_region(&s, &end, &plain)) {
            bool failed;
            if (!more(&s, &failed) && failed)
                status = EXIT_DATA;
            continue;
        }
        if (plain && s.first_done) {
            const fast_region region = {s.data + s.pos, end - s.pos, s.dm, s.lm, s.literal_from};
            const int st = ops->plain(ctx, &region);
            if (st)
                status = st;
            s.pos = end;
        } else {
            /* Also the first region: the header (or first record) always
             * comes from the library. */
            status = library_region(&s, end);
        }
    }
    if (status < 0)
        status = EXIT_OK;
    free(s.buf);
    free(s.dm);
    free(s.lm);
    text_free(&s.tb);
    simdsv_options_free(s.region_opt);
    input_close(c->in);
    c->in = NULL;
    return status;
}
