/* cmd_select.c — simdsv select: columns by name, index, range, exclusion,
 * reordered or repeated.  Records come in batches (cli_run_records); when
 * the dialect allows (batch_raw) each selected field's CSV is copied from its
 * raw bytes (batch_field_csv), otherwise records are decoded and quoted field
 * by field. */
#include "cli.h"

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
    size_t *cols, ncols;
    size_t *run; /* run[i]: how many of cols[i], cols[i+1], ... are consecutive columns */
    bool runs;   /* some run[i] > 1 */
    name_list names;
    int out_delimiter;
    bool unique; /* no column selected twice */
    csv_plain csv;
    field_views views;
} select_run;

/* The columns, from the header's names (header) or the first record's width. */
static int resolve(select_run *s, text_buffer *tb, const simdsv_record *header, size_t width)
{
    int status = EXIT_DATA;
    if (header && !names_from_record(&s->names, tb, header))
        return -1;
    s->cols = selector_resolve("select", s->c->positional[0], header ? &s->names : NULL,
                               header ? header->field_count : width, &s->ncols, &status);
    if (!s->cols)
        return status;
    s->unique = true;
    for (size_t i = 0; i < s->ncols; i++)
        for (size_t k = 0; k < i; k++)
            s->unique = s->unique && s->cols[k] != s->cols[i];
    s->run = malloc(s->ncols * sizeof *s->run);
    if (!s->run)
        return -1;
    for (size_t i = s->ncols; i-- > 0;)
        s->runs |= (s->run[i] = i + 1 < s->ncols && s->cols[i + 1] == s->cols[i] + 1 ? s->run[i + 1] + 1 : 1) > 1;
    return 0;
}

static int select_header(void *ctx, text_buffer *tb, const simdsv_record *rec)
{
    select_run *s = ctx;
    if (!rec)
        return 0; /* --no-header: the first record's width decides */
    const int status = resolve(s, tb, rec, 0);
    if (status)
        return status;
    read_only_columns(s->c, s->cols, s->ncols);
    return write_record(tb, rec, s->cols, s->ncols, s->out_delimiter) ? 0 : -1;
}

/* Record k written field by field: it is larger than the output buffer, or
 * a field must be decoded. */
static bool record_unbuffered(const select_run *s, text_buffer *tb, const simdsv_batch *b, size_t k)
{
    const size_t n = simdsv_batch_fields(b, k);
    const bool alone = s->ncols == 1;
    text_reset(tb);
    for (size_t i = 0; i < s->ncols; i++) {
        const size_t j = s->cols[i];
        if (i)
            out_byte((char)s->out_delimiter);
        const char *p = "";
        size_t size = 0;
        if (j >= n) {
            out_csv_field(p, 0, s->out_delimiter, alone);
        } else if (batch_field_csv(b, b->first[k] + j, s->out_delimiter, alone, &p, &size)) {
            out_write(p, size);
        } else {
            const simdsv_field f = simdsv_batch_field(b, k, j);
            if (!text_of(tb, &f, &p, &size))
                return false;
            out_csv_field(p, size, s->out_delimiter, alone);
        }
    }
    out_byte('\n');
    return true;
}

static inline bool unquoted(const uint8_t *flags, size_t n)
{
    unsigned any = 0;
    for (size_t i = 0; i < n; i++)
        any |= flags[i];
    return any == 0;
}

/* A batch that batch_raw allowed: each selected field's CSV is its raw bytes
 * or its content (batch_field_csv), copied into an output window kept open
 * across the records; a record with a field to decode is written again on
 * its own. */
/* raw_batch_of is compiled once per combination of its constant flags:
 * inlined at each call, whatever the compiler's size limits would choose. */
#if defined(__GNUC__)
#define SELECT_INLINE static inline __attribute__((always_inline))
#else
#define SELECT_INLINE static inline
#endif

SELECT_INLINE bool raw_batch_of(const select_run *s, text_buffer *tb, const simdsv_batch *b, const bool plain,
                                const bool runs)
{
    const size_t ncols = s->ncols;
    const size_t *cols = s->cols;
    const char d = (char)s->out_delimiter;
    const bool alone = ncols == 1;
    char *end, *p = out_window(0, &end);
    for (size_t k = 0; k < b->count; k++) {
        const size_t e0 = b->first[k];
        const uint32_t *o = b->bounds + e0;
        const size_t n = b->first[k + 1] - e0 - 1;
        /* Room: without repeats the record's bytes hold the selected fields. */
        size_t need = ncols + 3 + o[n] - o[0];
        if (!s->unique)
            for (size_t i = 0; i < ncols; i++)
                need += cols[i] < n ? o[cols[i] + 1] - o[cols[i]] : 0;
        if ((size_t)(end - p) < need) {
            out_window_done(p);
            p = out_window(need, &end);
            if (!p) {
                if (!record_unbuffered(s, tb, b, k))
                    return false;
                p = out_window(0, &end);
                continue;
            }
        }
        char *const record_start = p;
        size_t i = 0;
        for (; i < ncols; i++) {
            const size_t j = cols[i];
            /* Consecutive columns of unquoted fields: their raw bytes, the
             * delimiters between them included, in one copy. */
            const size_t len = runs ? s->run[i] : 1;
            if (len > 1 && j + len <= n && (plain || unquoted(b->flags + e0 + j, len))) {
                const size_t size = o[j + len] - 1 - o[j];
                memcpy(p, b->data + o[j], size);
                p += size;
                *p++ = d;
                i += len - 1;
                continue;
            }
            if (plain) { /* no field is quoted: the raw bytes, and "" for a lone empty field */
                const size_t size = j < n ? o[j + 1] - 1 - o[j] : 0;
                memcpy(p, b->data + o[j < n ? j : 0], size);
                p += size;
                if (size == 0 && alone) {
                    *p++ = '"';
                    *p++ = '"';
                }
                *p++ = d;
                continue;
            }
            const char *f = b->data;
            size_t size = 0;
            if (j < n ? !batch_field_csv(b, e0 + j, s->out_delimiter, alone, &f, &size) : alone)
                break; /* a field to decode, or a missing lone field (written "") */
            memcpy(p, f, size);
            p += size;
            *p++ = d;
        }
        if (i < ncols) {
            out_window_done(record_start);
            if (!record_unbuffered(s, tb, b, k))
                return false;
            p = out_window(0, &end);
            continue;
        }
        p[-1] = '\n';
    }
    out_window_done(p);
    return true;
}

static int select_batch(void *ctx, text_buffer *tb, const simdsv_batch *b)
{
    select_run *s = ctx;
    if (!s->cols) {
        const int status = resolve(s, tb, NULL, simdsv_batch_fields(b, 0));
        if (status)
            return status;
    }
    /* Four copies of the loop: a batch without quoted fields reads no flag, a
     * selection without consecutive columns looks for no run. */
    if (batch_raw(b, &s->csv)) {
        bool ok;
        if (b->flags_any)
            ok = s->runs ? raw_batch_of(s, tb, b, false, true) : raw_batch_of(s, tb, b, false, false);
        else
            ok = s->runs ? raw_batch_of(s, tb, b, true, true) : raw_batch_of(s, tb, b, true, false);
        return ok ? 0 : -1;
    }
    simdsv_record rec;
    for (size_t k = 0; k < b->count; k++)
        if (!batch_record(b, k, &s->views, &rec) || !write_record(tb, &rec, s->cols, s->ncols, s->out_delimiter))
            return -1;
    return 0;
}

int cmd_select(int argc, char **argv)
{
    cli_common c;
    const cli_spec spec = {"select", help, CLI_OUTPUT | CLI_CSV_OUT | CLI_RECORDS, 1, "SELECTION", NULL, NULL};
    int status = cli_parse(&spec, argc, argv, &c);
    select_run s;
    memset(&s, 0, sizeof s);
    s.c = &c;
    s.out_delimiter = c.out_delimiter;
    if (status < 0)
        s.csv = csv_plain_of(&c);
    const cli_record_ops ops = {select_header, select_batch, NULL, NULL};
    status = cli_run_records(&c, status, &ops, &s);
    free(s.cols);
    free(s.run);
    names_free(&s.names);
    field_views_free(&s.views);
    return status;
}
