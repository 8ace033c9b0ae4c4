/* cmd_select.c — simdsv select: columns by name, index, range, exclusion,
 * reordered or repeated.  Plain regions (fast.c) are split with bitmasks
 * and copied field by field; other records go through the reader. */
#include "fast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv select [OPTIONS] SELECTION FILE\n"
    "Writes the selected columns, in the order given, as CSV (the header first).\n"
    "SELECTION is a comma-separated list of:\n"
    "  name               the column with that name (the first one if names repeat)\n"
    "  name[K]            the K-th column with that name (1-based)\n"
    "  \"name\"             a name that has commas, dashes or digits in it\n"
    "  N                  the N-th column (1-based; see 'simdsv headers')\n"
    "  A-B                columns A to B (names or indexes; B-A backwards; A- and -B open)\n"
    "  !ITEM              without these columns (only '!' items: every other column)\n"
    "Put -- before a SELECTION that starts with '-'.  Missing fields of short\n"
    "records are written empty.\n\n";

typedef struct select_run {
    cli_common *c;
    size_t *cols, ncols, maxcol;
    name_list names;
    int delimiter, out_delimiter;
    size_t *ends;               /* field ends of the current line, maxcol + 1 */
    size_t *ranks, nranks;      /* delimiters that bound a selected field (sorted) */
    int bmi2;                   /* -1: not known yet */
    bool unique;                /* no column selected twice */
    bool same_delimiter;        /* output delimiter = input delimiter */
    char *o, *oe;               /* the output window during a plain region */
} select_run;

static int resolve(select_run *s, text_buffer *tb, const simdsv_record *rec, bool header)
{
    int status = EXIT_DATA;
    if (header && !names_from_record(&s->names, tb, rec)) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    s->cols = selector_resolve("select", s->c->positional[0], header ? &s->names : NULL, rec->field_count, &s->ncols,
                               &status);
    if (!s->cols)
        return status;
    s->maxcol = 0;
    for (size_t k = 0; k < s->ncols; k++)
        if (s->cols[k] > s->maxcol)
            s->maxcol = s->cols[k];
    s->ends = malloc((s->maxcol + 1) * sizeof *s->ends);
    /* Field j is bounded by delimiters j-1 and j (0-based, in its line). */
    bool *need = calloc(s->maxcol + 1, sizeof *need);
    s->ranks = malloc((s->maxcol + 1) * sizeof *s->ranks);
    if (!s->ends || !need || !s->ranks) {
        free(need);
        cli_error("out of memory");
        return EXIT_DATA;
    }
    s->unique = true;
    for (size_t k = 0; k < s->ncols; k++) {
        need[s->cols[k]] = true;
        if (s->cols[k])
            need[s->cols[k] - 1] = true;
    }
    for (size_t r = 0; r <= s->maxcol; r++)
        if (need[r])
            s->ranks[s->nranks++] = r;
    memset(need, 0, (s->maxcol + 1) * sizeof *need);
    for (size_t k = 0; k < s->ncols; k++) {
        if (need[s->cols[k]])
            s->unique = false;
        need[s->cols[k]] = true;
    }
    free(need);
    return 0;
}

static int on_record(void *ctx, text_buffer *tb, const simdsv_record *rec, fast_kind kind)
{
    select_run *s = ctx;
    if (kind != FAST_DATA) {
        const int status = resolve(s, tb, rec, kind == FAST_HEADER);
        if (status)
            return status;
    }
    if (!write_record(tb, rec, s->cols, s->ncols, s->out_delimiter)) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    return 0;
}

/* One plain line: of its fields 0..known-1, the selected ones (and the one
 * before each) end at ends[] (offsets in data). */
/* One plain line, written at s->o (an output window kept open across the
 * lines of a region). */
static inline __attribute__((always_inline)) void emit_line(select_run *s, const char *data, size_t line_start,
                                                            size_t line_end, size_t known, const char *limit)
{
    const size_t *ends = s->ends;
    const size_t n = s->ncols;
    /* Room: the line itself holds every selected field when none repeats;
     * else add them up.  Plus delimiters, a quoted empty field and slack for
     * the wide copies below. */
    size_t need = line_end - line_start + n + 3 + 32;
    if (!s->unique)
        for (size_t k = 0; k < n; k++) {
            const size_t j = s->cols[k];
            if (j < known)
                need += ends[j] - (j ? ends[j - 1] + 1 : line_start);
        }
    char *o = s->o;
    if ((size_t)(s->oe - o) < need) {
        out_window_done(o);
        o = s->same_delimiter ? out_window(need, &s->oe) : NULL;
    }
    if (!o) {
        for (size_t k = 0; k < n; k++) {
            const size_t j = s->cols[k];
            if (k)
                out_byte((char)s->out_delimiter);
            if (j < known) {
                const size_t b = j ? ends[j - 1] + 1 : line_start;
                out_csv_field(data + b, ends[j] - b, s->out_delimiter, n == 1);
            } else if (n == 1) {
                out_write("\"\"", 2);
            }
        }
        out_byte('\n');
        s->o = out_window(0, &s->oe);
        if (!s->same_delimiter)
            s->oe = s->o; /* every line through the quoting path */
        return;
    }
    /* The delimiter is the same and plain fields hold no quote, CR, LF or
     * delimiter: only a lone empty field needs quotes. */
    const char d = (char)s->out_delimiter;
    for (size_t k = 0; k < n; k++) {
        const size_t j = s->cols[k];
        size_t len = 0;
        if (j < known) {
            const size_t b = j ? ends[j - 1] + 1 : line_start;
            len = ends[j] - b;
            if (len <= 32 && data + b + 32 <= limit)
                memcpy(o, data + b, 32); /* one wide copy; the bytes after len are overwritten */
            else
                memcpy(o, data + b, len);
            o += len;
        }
        if (len == 0 && n == 1) {
            *o++ = '"';
            *o++ = '"';
        }
        *o++ = d;
    }
    o[-1] = '\n';
    s->o = o;
}

/* The walk over a plain region's lines (select_walk.h), compiled twice:
 * with BMI2 (PDEP finds the r-th delimiter of a word in one instruction)
 * and without. */
static inline size_t select_clear(uint64_t bits, size_t n)
{
    for (; n; n--)
        bits &= bits - 1;
    return (size_t)__builtin_ctzll(bits);
}

#define WALK_NAME walk_generic
#define WALK_ATTR
#define WALK_POPCOUNT(x) ((size_t)__builtin_popcountll(x))
#define WALK_SELECT(bits, n) select_clear((bits), (n))
#include "select_walk.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WALK_NAME walk_bmi2
#define WALK_ATTR __attribute__((target("bmi,bmi2,popcnt")))
#define WALK_POPCOUNT(x) ((size_t)_mm_popcnt_u64(x))
#define WALK_SELECT(bits, n) ((size_t)__builtin_ctzll(_pdep_u64(1ull << (n), (bits))))
#include "select_walk.h"
#endif

static int on_plain(void *ctx, const fast_region *region)
{
    select_run *s = ctx;
    const char *data = region->data;
    const size_t size = region->size;
    const uint64_t *dm = region->dm, *lm = region->lm;
    const size_t words = (size + 63) / 64;
    s->o = out_window(0, &s->oe);
    if (!s->same_delimiter)
        s->oe = s->o;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (s->bmi2 < 0) {
        __builtin_cpu_init();
        s->bmi2 = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    }
    if (s->bmi2)
        walk_bmi2(s, data, size, words, dm, lm);
    else
#endif
        walk_generic(s, data, size, words, dm, lm);
    out_window_done(s->o);
    return 0;
}

int cmd_select(int argc, char **argv)
{
    cli_common c;
    const cli_spec spec = {"select", help, CLI_OUTPUT | CLI_CSV_OUT, 1, "SELECTION", NULL, NULL};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    select_run s;
    memset(&s, 0, sizeof s);
    s.c = &c;
    s.delimiter = (int)cli_opt(&c, SIMDSV_OPT_DELIMITER);
    s.out_delimiter = c.out_delimiter;
    s.bmi2 = -1;
    s.same_delimiter = s.out_delimiter == s.delimiter;
    const fast_ops ops = {on_record, on_plain, true, NULL};
    status = fast_run(&c, &ops, &s);
    free(s.cols);
    free(s.ends);
    free(s.ranks);
    names_free(&s.names);
    cli_common_free(&c);
    return status;
}
