/*
 * infer.c — the typed reader's inference: samples of the start, middle and
 * end of the data rows (SIMDSV_OPT_INFER_ROWS rows in all; the whole input
 * when it fits), each column's type the join of its values' kinds, and the
 * reason shown for it.
 */
#include "typed.h"
#include "../values/values.h"

#include <stdio.h>
#include <string.h>

/* One field's kind: the value layer's rules (src/values/values.h), plus the
 * reader's own bool spellings and decimal comma. */
field_kind simdsv__infer_text(const typed_ctx *x, const simdsv_field *f, const char *s, size_t n)
{
    field_kind k = {SIMDSV_TYPE_STRING, NULL, 0};
    /* A quoted field types like the same text unquoted (SIMDSV_OPT_TYPED_QUOTES);
     * "" stays the empty string, never a null. */
    const unsigned flags = x->opt->typed_quotes && n ? f->flags & ~SIMDSV_FIELD_QUOTED : f->flags;
    const int quoted = (flags & SIMDSV_FIELD_QUOTED) != 0;
    if (!quoted && (simdsv__list_contains(&x->trues, s, n) || simdsv__list_contains(&x->falses, s, n))) {
        k.type = SIMDSV_TYPE_BOOL;
        return k;
    }
    /* A thousands separator set: 1,234 (or 1.000 with '.') is the integer 1234 (1000). */
    int64_t grouped;
    if (!quoted && x->opt->thousands > 0 && simdsv__parse_int64_grouped(s, n, (char)x->opt->thousands, &grouped)) {
        k.type = SIMDSV_TYPE_INT64;
        k.past_2p53 = grouped > ((int64_t)1 << 53) || grouped < -((int64_t)1 << 53);
        return k;
    }
    simdsv__infer_reason why = SIMDSV__WHY_NONE;
    k.type = simdsv__infer_field(s, n, flags, &why);
    double d;
    if (k.type == SIMDSV_TYPE_BOOL && x->trues.count + x->falses.count && !simdsv__list_contains(&x->trues, s, n) &&
        !simdsv__list_contains(&x->falses, s, n)) {
        k.type = SIMDSV_TYPE_STRING; /* custom spellings replace the default ones */
        why = SIMDSV__WHY_TEXT;
    }
    if (x->opt->decimal_comma) {
        /* The conversion reads floats with the comma parser only, so the
         * kinds follow it: 1,5 is a float64, and 1.5 is not a number here
         * (it would otherwise be typed float64 and then fail to convert). */
        if (k.type == SIMDSV_TYPE_STRING && why == SIMDSV__WHY_TEXT && !quoted && simdsv__parse_double_comma(s, n, &d)) {
            k.type = SIMDSV_TYPE_FLOAT64;
            why = SIMDSV__WHY_NONE;
        } else if (k.type == SIMDSV_TYPE_FLOAT64 && !simdsv__parse_double_comma(s, n, &d)) {
            k.type = SIMDSV_TYPE_STRING;
            why = SIMDSV__WHY_DECIMAL_POINT;
        }
    }
    /* Digit groups (SIMDSV_OPT_THOUSANDS): 1,234.5 a float64 (1,234 and,
     * with a decimal comma, 1.000 are integers: above). */
    if (k.type == SIMDSV_TYPE_STRING && why == SIMDSV__WHY_TEXT && !quoted && x->opt->thousands > 0) {
        if (simdsv__parse_double_grouped(s, n, (char)x->opt->thousands, x->opt->decimal_comma, &d)) {
            k.type = SIMDSV_TYPE_FLOAT64;
            why = SIMDSV__WHY_NONE;
        }
    }
    int64_t us;
    bool has_time;
    if (k.type == SIMDSV_TYPE_STRING && why == SIMDSV__WHY_TEXT && !quoted && x->opt->date_order &&
        simdsv__scan_ordered(s, n, x->opt->date_order, &us, &has_time) == SIMDSV__TIME_OK) {
        k.type = has_time ? SIMDSV_TYPE_TIMESTAMP : SIMDSV_TYPE_DATE;
        why = SIMDSV__WHY_NONE;
    }
    k.why = k.type == SIMDSV_TYPE_STRING ? simdsv__infer_reason_text(why) : NULL;
    k.past_2p53 = k.type == SIMDSV_TYPE_INT64 && simdsv__integer_past_2p53(s, n);
    return k;
}

static void copy_value(char *dst, size_t size, const char *text, size_t n)
{
    const size_t m = n < size - 1 ? n : size - 1;
    memcpy(dst, text, m);
    dst[m] = '\0';
}

/* offset: of the value's row, in data (apart: an input offset in a window
 * read apart). */
static void note_kind(sample_state *s, field_kind k, const char *text, size_t n, uint64_t offset, bool apart)
{
    const simdsv_type joined = simdsv__kind_join(s->type, k.type);
    s->seen++;
    if (k.type == SIMDSV_TYPE_TIMESTAMP && !s->zoned && simdsv__timestamp_has_offset(text, n))
        s->zoned = true;
    if (k.past_2p53 && !s->past_2p53) {
        s->past_2p53 = 1;
        copy_value(s->big_value, sizeof s->big_value, text, n);
        s->big_offset = offset;
        s->big_apart = apart;
    }
    if (joined == s->type)
        return;
    s->type = joined;
    s->why = joined == SIMDSV_TYPE_STRING && k.type != SIMDSV_TYPE_STRING ? "mixed kinds" : k.why;
    s->why_offset = offset;
    s->why_apart = apart;
    copy_value(s->value, sizeof s->value, text, n);
}

/* Samples up to max_rows rows starting at data offset from.  Windows that do
 * not start at the data start begin after a line end and are trusted only if
 * every row parses cleanly with the header's field count: a window that
 * starts inside a quoted field almost never does. */
static simdsv_status sample_window(typed_ctx *x, size_t from, uint64_t max_rows, int trusted, sample_state *acc,
                                   size_t *reached, uint64_t *sampled)
{
    simdsv_table *t = x->t;
    sample_state *local = simdsv__alloc(&t->alloc, t->ncols * sizeof *local);
    if (!local)
        return SIMDSV_ERR_NOMEM;
    memcpy(local, acc, t->ncols * sizeof *local);
    simdsv_reader *sr = NULL;
    simdsv_status st = simdsv__sub_reader(x, from, &sr);
    simdsv_record rec;
    uint64_t rows = 0;
    size_t good = 0; /* where the record after the last one read starts */
    int clean = 1;
    while (st == SIMDSV_OK && rows < max_rows && (st = simdsv_reader_next(sr, &rec)) == SIMDSV_OK) {
        if (!trusted && x->header_fields && rec.field_count != x->header_fields) {
            clean = 0;
            break;
        }
        for (size_t j = 0; j < t->ncols; j++) {
            column *c = &t->cols[j];
            if (c->user_type || c->source >= rec.field_count)
                continue;
            const simdsv_field *f = &rec.fields[c->source];
            const char *s;
            size_t n;
            if (!simdsv__field_text(x, f, &s, &n)) {
                st = SIMDSV_ERR_NOMEM;
                break;
            }
            if (simdsv__is_null_token(x, c, f, s, n))
                continue;
            note_kind(&local[j], simdsv__infer_text(x, f, s, n), s, n,
                      (x->in_apart_window ? x->apart_base : 0) + from + rec.byte_offset, x->in_apart_window);
        }
        rows++;
        good = (size_t)simdsv_reader_offset(sr);
    }
    /* After an error, what follows the last good record: a window cut inside
     * quotes is sampled on (sample_rest, once the input is held whole) from
     * the record the cut split, not from the cut. */
    *reached = from + (st == SIMDSV_OK || st == SIMDSV_END ? (size_t)simdsv_reader_offset(sr) : good);
    *sampled = rows;
    /* Whether more bytes could change the rows: the window ended first, or
     * its last row ends at its end (a record may go on past a cut). */
    x->ran_out = (st == SIMDSV_OK || st == SIMDSV_END || st == SIMDSV_ERR_UNTERMINATED_QUOTE) &&
                 !(rows == max_rows && from + (size_t)simdsv_reader_offset(sr) < x->size);
    if (from == 0) {
        x->first_rows = rows;
        x->first_bytes = *reached;
    }
    if (st == SIMDSV_END)
        st = SIMDSV_OK;
    if (st != SIMDSV_OK && st != SIMDSV_ERR_NOMEM) {
        /* A trusted window reads the rows the main pass reads: its error is
         * that pass's to report (or, for a schema alone, the result; the
         * rows after the start window's are sample_rest's). */
        clean = trusted;
        st = trusted ? simdsv__sample_error(x, sr, st, from, from ? x->first_rows : 0) : SIMDSV_OK;
    }
    if (st == SIMDSV_OK && clean)
        memcpy(acc, local, t->ncols * sizeof *local);
    simdsv_reader_free(sr);
    simdsv__free(&t->alloc, local, t->ncols * sizeof *local);
    return st;
}

simdsv_status simdsv__sample_error(typed_ctx *x, const simdsv_reader *sr, simdsv_status st, size_t from,
                                   uint64_t rows_before)
{
    if (st == SIMDSV_OK || st == SIMDSV_END || !x->schema_only)
        return SIMDSV_OK;
    if (st == SIMDSV_ERR_NOMEM)
        return st;
    if (st == SIMDSV_ERR_UNTERMINATED_QUOTE && x->window_cut)
        return SIMDSV_OK;
    const simdsv_error *e = simdsv_reader_error(sr);
    return simdsv__reader_error_at(x->r, st, x->data_pos + from + (size_t)e->byte_offset, e->field,
                                   rows_before + e->record + (x->opt->header ? 1 : 0), e->message);
}

/* The first line start at or after pos (pos itself when a line starts there:
 * a window that begins where the last one stopped loses no row). */
static size_t next_line_start(const uint8_t *data, size_t size, size_t pos)
{
    if (pos == 0 || pos >= size || data[pos - 1] == '\n' || data[pos - 1] == '\r')
        return pos;
    while (pos < size && data[pos] != '\n' && data[pos] != '\r')
        pos++;
    while (pos < size && (data[pos] == '\n' || data[pos] == '\r'))
        pos++;
    return pos;
}

/* After the start window (which stopped at *covered): when the rows left
 * fit what remains of the budget, samples them all, from where the start
 * window stopped, so that a file that fits the sample is sampled whole.
 * Whether they fit is tried only when the bytes left are within a few times
 * the budget's worth at the start window's row size, so that a large file
 * costs nothing more; a try that does not reach the end is dropped and the
 * middle and end windows sample as usual. */
static simdsv_status sample_rest(typed_ctx *x, uint64_t budget, sample_state *acc, size_t *covered)
{
    const uint64_t left = budget > x->first_rows ? budget - x->first_rows : 0;
    const size_t rest = x->size - *covered;
    if (!left || !x->first_rows || rest / 4 > left * (x->first_bytes / x->first_rows + 1))
        return SIMDSV_OK;
    simdsv_table *t = x->t;
    const size_t bytes = (t->ncols ? t->ncols : 1) * sizeof *acc;
    sample_state *trial = simdsv__alloc(&t->alloc, bytes);
    if (!trial)
        return SIMDSV_ERR_NOMEM;
    memcpy(trial, acc, bytes);
    size_t reached = *covered;
    /* from a record start: trusted as the start window is */
    uint64_t rows = 0;
    const simdsv_status st = sample_window(x, *covered, left + 1, 1, trial, &reached, &rows);
    if (st == SIMDSV_OK && rows <= left && reached >= x->size) {
        memcpy(acc, trial, bytes);
        *covered = reached;
    }
    simdsv__free(&t->alloc, trial, bytes);
    return st;
}

/* A window of a regular file read apart (pread) at data offset at: up to
 * max_rows rows from the first line start after it, sampled as a middle or
 * end window is (trusted only if every row parses cleanly).  Its size: twice
 * max_rows at the start window's row size, 64 KiB to 8 MiB. */
static simdsv_status sample_apart(typed_ctx *x, uint64_t at, uint64_t max_rows, sample_state *acc, size_t *covered)
{
    const uint64_t row = x->first_rows ? x->first_bytes / x->first_rows + 1 : 1024;
    uint64_t want = 2 * max_rows * row;
    want = want < ((uint64_t)64 << 10) ? (uint64_t)64 << 10 : want > SIMDSV__SAMPLE_WINDOW ? SIMDSV__SAMPLE_WINDOW : want;
    const simdsv_allocator *a = &x->t->alloc;
    const size_t acc_bytes = (x->t->ncols ? x->t->ncols : 1) * sizeof *acc;
    sample_state *before = x->exact ? simdsv__alloc(a, acc_bytes) : NULL;
    if (x->exact && !before)
        return SIMDSV_ERR_NOMEM;
    if (before)
        memcpy(before, acc, acc_bytes);
    /* From the byte before: whether a line starts right at `at`. */
    const uint64_t from_input = x->data_offset + at - 1;
    simdsv_status st = SIMDSV_OK;
    for (;;) {
        uint8_t *buf = simdsv__alloc(a, (size_t)want);
        if (!buf) {
            st = SIMDSV_ERR_NOMEM;
            break;
        }
        size_t got = 0;
        st = simdsv__file_read_at(&x->file, from_input, buf, (size_t)want, &got);
        size_t size = got;
        if (got == want) /* whole lines only, unless the file ended */
            while (size && buf[size - 1] != '\n' && buf[size - 1] != '\r')
                size--;
        bool again = false;
        if (st == SIMDSV_OK && size > 1) {
            typed_ctx w = *x;
            w.data = buf;
            w.size = size;
            w.in_apart_window = true;
            w.apart_base = from_input;
            const size_t from = next_line_start(buf, size, 1);
            size_t reached = from;
            uint64_t sampled;
            if (from < size)
                st = sample_window(&w, from, max_rows, 0, acc, &reached, &sampled);
            x->text = w.text; /* the decode scratch may have grown */
            x->text_cap = w.text_cap;
            /* An exact read samples the rows the whole input's window would:
             * one that ran out before the file's end is read again, twice
             * the size, and the next window starts after it. */
            again = x->exact && st == SIMDSV_OK && from < size && w.ran_out && got == want;
            if (x->exact && !again)
                *covered = (size_t)(at - 1 + reached);
        }
        simdsv__free(a, buf, (size_t)want);
        if (!again)
            break;
        memcpy(acc, before, acc_bytes);
        want *= 2;
    }
    simdsv__free(a, before, before ? acc_bytes : 0);
    return st;
}

/* The line of a sampled value (samples are not in input order). */
static uint64_t line_of_sample(const typed_ctx *x, uint64_t data_offset)
{
    return simdsv__line_peek(x->r, x->data_pos + (size_t)data_offset);
}

void simdsv__write_reason(column *c, const sample_state *s, uint64_t line)
{
    if (c->user_type) {
        snprintf(c->reason, sizeof c->reason, "%s: given by the schema", simdsv_type_name(c->type));
        return;
    }
    if (s->type == SIMDSV_TYPE_NULL) {
        snprintf(c->reason, sizeof c->reason, "null: no non-null value in %llu sampled rows",
                 (unsigned long long)s->seen);
        return;
    }
    if (s->type != SIMDSV_TYPE_STRING) {
        snprintf(c->reason, sizeof c->reason, "%s: every non-null sampled value (%llu)", simdsv_type_name(s->type),
                 (unsigned long long)s->seen);
        return;
    }
    snprintf(c->reason, sizeof c->reason, "string: %s in `%s` at line %llu", s->why ? s->why : "text", s->value,
             (unsigned long long)line);
}

simdsv_status simdsv__infer_types(typed_ctx *x)
{
    simdsv_table *t = x->t;
    simdsv_status st = SIMDSV_OK;
    sample_state *acc = simdsv__alloc(&t->alloc, (t->ncols ? t->ncols : 1) * sizeof *acc);
    if (!acc)
        return SIMDSV_ERR_NOMEM;
    memset(acc, 0, (t->ncols ? t->ncols : 1) * sizeof *acc);
    for (size_t j = 0; j < t->ncols; j++)
        acc[j].type = t->cols[j].user_type ? t->cols[j].type : t->cols[j].min_type;
    const int64_t budget = x->opt->infer_rows;
    size_t covered = 0;
    uint64_t sampled = 0;
    if (budget < 0) {
        st = sample_window(x, 0, UINT64_MAX, 1, acc, &covered, &sampled);
    } else {
        st = sample_window(x, 0, (uint64_t)budget / 2 + 1, 1, acc, &covered, &sampled);
        /* An exact read's start window that ran out is held again, larger
         * (so it is sampled as the whole input is: types, row size). */
        while (st == SIMDSV_OK && x->exact && x->window_cut && x->ran_out) {
            for (size_t j = 0; j < t->ncols; j++) {
                memset(&acc[j], 0, sizeof acc[j]);
                acc[j].type = t->cols[j].user_type ? t->cols[j].type : t->cols[j].min_type;
            }
            if ((st = simdsv__typed_hold(x, x->size * 2, true)) == SIMDSV_OK)
                st = sample_window(x, 0, (uint64_t)budget / 2 + 1, 1, acc, &covered, &sampled);
        }
        if (st == SIMDSV_OK && x->apart && x->first_rows) {
            /* A file small enough to be sampled whole (sample_rest) is read
             * whole after all: the schema then says what a full read ends with. */
            const uint64_t left = (uint64_t)budget > x->first_rows ? (uint64_t)budget - x->first_rows : 0;
            simdsv__held held;
            if ((x->data_total - covered) / 4 <= left * (x->first_bytes / x->first_rows + 1) &&
                (st = simdsv__reader_hold(x->r, SIZE_MAX, &held)) == SIMDSV_OK) {
                x->data = held.data;
                x->size = held.size;
                x->apart = false;
                x->window_cut = false;
            }
        }
        if (st == SIMDSV_OK && covered < x->size && !x->apart)
            st = sample_rest(x, (uint64_t)budget, acc, &covered);
        const uint64_t total = x->apart ? x->data_total : x->size;
        const uint64_t offsets[2] = {total / 2, total - total / 10};
        for (int w = 0; w < 2 && st == SIMDSV_OK; w++) {
            if (x->apart && offsets[w] > covered && (offsets[w] >= x->size || x->exact)) {
                st = sample_apart(x, offsets[w], (uint64_t)budget / 4 + 1, acc, &covered);
                continue;
            }
            if (covered >= x->size)
                break;
            /* Windows never overlap: each starts after what was sampled. */
            const size_t from =
                next_line_start(x->data, x->size, offsets[w] > covered ? (size_t)offsets[w] : covered);
            if (from < x->size && from > covered)
                st = sample_window(x, from, (uint64_t)budget / 4 + 1, 0, acc, &covered, &sampled);
        }
    }
    for (size_t j = 0; st == SIMDSV_OK && j < t->ncols; j++) {
        column *c = &t->cols[j];
        if (!c->user_type && acc[j].type == SIMDSV_TYPE_FLOAT64 && acc[j].past_2p53) {
            /* float64 would round it: text keeps every digit */
            acc[j].type = SIMDSV_TYPE_STRING;
            acc[j].why = "integer past 2^53 among floats (float64 would round it)";
            memcpy(acc[j].value, acc[j].big_value, sizeof acc[j].value);
            acc[j].why_offset = acc[j].big_offset;
            acc[j].why_apart = acc[j].big_apart;
        }
        if (!c->user_type)
            c->type = acc[j].type;
        c->utc = acc[j].zoned;
        if (acc[j].type == SIMDSV_TYPE_STRING && acc[j].why_apart && x->exact) /* its line, counted in the file */
            simdsv__write_reason(c, &acc[j], simdsv__line_in_file(x->r, &x->file, acc[j].why_offset));
        else if (acc[j].type == SIMDSV_TYPE_STRING && acc[j].why_apart) /* no line without reading up to it */
            snprintf(c->reason, sizeof c->reason, "string: %s in `%s` in the row at byte %llu",
                     acc[j].why ? acc[j].why : "text", acc[j].value, (unsigned long long)acc[j].why_offset);
        else
            simdsv__write_reason(c, &acc[j],
                                 acc[j].type == SIMDSV_TYPE_STRING ? line_of_sample(x, acc[j].why_offset) : 0);
    }
    simdsv__free(&t->alloc, acc, (t->ncols ? t->ncols : 1) * sizeof *acc);
    return st;
}
