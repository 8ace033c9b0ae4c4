/*
 * convert.c — rows into typed columns: regular rows in column-major batches
 * straight from the reader's index, any other row by itself through the
 * record path; widening of inferred columns, errors with their position,
 * and rejects.
 */
#include "typed.h"
#include "../values/values.h"
#include "../values/fields.h"

#include <stdio.h>
#include <string.h>

/* pos: buffer position of the row.  in_order: the caller reads in input
 * order on the reader's own thread, so the line is found now (a stream's
 * buffer moves on); workers leave it to finish_rejects. */
static simdsv_status add_reject(typed_ctx *x, size_t col, uint64_t row, size_t pos, const char *s, size_t n,
                                const char *reason, int in_order)
{
    simdsv_table *t = x->t;
    void *p = t->rejects;
    if (simdsv__grow(&t->alloc, &p, &t->rejects_cap, t->nrejects + 1, sizeof *t->rejects) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    t->rejects = p;
    reject_entry *e = &t->rejects[t->nrejects];
    char *value = simdsv__alloc(&t->alloc, n + 1);
    const size_t reason_size = strlen(reason) + 1;
    char *why = simdsv__alloc(&t->alloc, reason_size);
    if (!value || !why) {
        simdsv__free(&t->alloc, value, n + 1);
        simdsv__free(&t->alloc, why, reason_size);
        return SIMDSV_ERR_NOMEM;
    }
    memcpy(value, s, n);
    value[n] = '\0';
    memcpy(why, reason, reason_size);
    e->pub.line = in_order ? simdsv__line_at(x->r, pos) : 0; /* 0: finish_rejects fills it in */
    e->pub.row = row;
    e->pub.column = col;
    /* a buffer position until finish_rejects */
    e->pub.byte_offset = in_order ? simdsv__reader_origin(x->r) + pos : pos;
    e->pub.value = value;
    e->pub.reason = why;
    e->value_size = n + 1;
    e->reason_size = reason_size;
    t->nrejects++;
    return SIMDSV_OK;
}

/* Appends field `source` of rec (or a null for a short row) to column c.
 * Returns 1 when it fitted, 0 when it did not, -1 when out of memory. */
static int append_field(typed_ctx *x, column *c, const simdsv_record *rec)
{
    const simdsv_allocator *a = &x->t->alloc;
    if (c->source >= rec->field_count)
        return simdsv__column_append_null(a, c) == SIMDSV_OK ? 1 : -1;
    const simdsv_field *f = &rec->fields[c->source];
    const char *s;
    size_t n;
    if (!simdsv__field_text(x, f, &s, &n))
        return -1;
    if (simdsv__is_null_token(x, c, f, s, n))
        return simdsv__column_append_null(a, c) == SIMDSV_OK ? 1 : -1;
    /* An inferred int64 column keeps leading zeros out: "00501" is text. */
    if (c->type == SIMDSV_TYPE_INT64 && !c->user_type && simdsv__has_leading_zero(s, n))
        return 0;
    if (c->type == SIMDSV_TYPE_STRING || c->user_type || !(f->flags & SIMDSV_FIELD_QUOTED) ||
        (x->opt->typed_quotes && n)) {
        int nomem;
        const value_rules rules = {&x->trues, &x->falses, x->opt->decimal_comma, !c->user_type,
                                   x->opt->date_order, x->opt->thousands > 0 ? (char)x->opt->thousands : 0};
        const int ok = simdsv__column_append_text(a, c, s, n, &rules, &nomem);
        return nomem ? -1 : ok;
    }
    return 0; /* a quoted value only fits a string column (inferred types) */
}

/* Re-reads the first `rows` rows of column c with its new type. */
static simdsv_status reread_column(typed_ctx *x, column *c, uint64_t rows)
{
    simdsv__column_free_data(&x->t->alloc, c);
    simdsv_reader *sr = NULL;
    simdsv_status st = simdsv__sub_reader(x, 0, &sr);
    simdsv_record rec;
    for (uint64_t i = 0; st == SIMDSV_OK && i < rows; i++) {
        st = simdsv_reader_next(sr, &rec);
        if (st == SIMDSV_OK) {
            const int ok = append_field(x, c, &rec);
            if (ok < 0)
                st = SIMDSV_ERR_NOMEM;
            else if (!ok)
                st = SIMDSV_ERR_VALUE; /* only an integer past 2^53 met as float64: widen() goes on to text */
        }
    }
    simdsv_reader_free(sr);
    return st;
}

static simdsv_status widen(typed_ctx *x, column *c, const simdsv_record *rec, uint64_t row)
{
    const simdsv_field *f = &rec->fields[c->source];
    const char *s;
    size_t n;
    if (!simdsv__field_text(x, f, &s, &n))
        return SIMDSV_ERR_NOMEM;
    field_kind k = simdsv__infer_text(x, f, s, n);
    simdsv_type to = simdsv__kind_join(c->type, k.type);
    if (to == c->type)
        to = SIMDSV_TYPE_STRING; /* e.g. an int64 column meeting "00501" */
    sample_state why = {to, to == SIMDSV_TYPE_STRING ? (k.why ? k.why : "mixed kinds") : NULL, 0, {0}, row, 0, {0}, 0, false, false, false};
    const uint64_t origin = simdsv__reader_origin(x->r);
    why.why_offset = rec->byte_offset - origin - x->data_pos;
    const size_t m = n < sizeof why.value - 1 ? n : sizeof why.value - 1;
    memcpy(why.value, s, m);
    c->type = to;
    simdsv_status st = reread_column(x, c, row);
    if (st == SIMDSV_ERR_VALUE && to == SIMDSV_TYPE_FLOAT64) {
        /* an earlier integer past 2^53 would be rounded: text instead */
        to = c->type = why.type = SIMDSV_TYPE_STRING;
        why.why = "integer past 2^53 among floats (float64 would round it)";
        st = reread_column(x, c, row);
    }
    if (st != SIMDSV_OK)
        return st;
    simdsv__write_reason(c, &why, simdsv__line_at(x->r, (size_t)(rec->byte_offset - origin)));
    if (to != SIMDSV_TYPE_STRING)
        snprintf(c->reason, sizeof c->reason, "%s: widened at row %llu by `%s`", simdsv_type_name(to),
                 (unsigned long long)row + 1, why.value);
    return append_field(x, c, rec) == 1 ? SIMDSV_OK : SIMDSV_ERR_NOMEM;
}

static simdsv_status record_error(chunk *k, simdsv_status code, size_t pos, uint64_t field, const char *msg)
{
    k->err_row = k->x.t->rows;
    k->code = code;
    k->err_pos = pos;
    k->err_field = field;
    snprintf(k->msg, sizeof k->msg, "%s", msg);
    return code;
}

/* Buffer position of a field (its opening quote for a quoted field), or of
 * its record when the field lives in a scratch buffer (slow path). */
static size_t field_pos(const chunk *k, const simdsv_record *rec, const simdsv_field *f)
{
    const simdsv_reader *r = k->x.r;
    if (simdsv__reader_holds(r, f->data)) {
        const size_t at = (size_t)((const uint8_t *)f->data - simdsv__reader_buffer(r));
        return at - ((f->flags & SIMDSV_FIELD_QUOTED) ? 1 : 0);
    }
    return (size_t)(k->shift + (int64_t)rec->byte_offset);
}

static simdsv_status convert_record(chunk *k, const simdsv_record *rec, uint64_t row)
{
    typed_ctx *x = &k->x;
    simdsv_table *t = x->t;
    const simdsv_options *o = x->opt;
    const size_t expected = x->header_fields;
    char msg[200];
    if (expected && rec->field_count < expected && o->short_rows == SIMDSV_RAGGED_ERROR) {
        snprintf(msg, sizeof msg, "row has %zu fields, the header has %zu", rec->field_count, expected);
        return record_error(k, SIMDSV_ERR_RAGGED_ROW, (size_t)(k->shift + (int64_t)rec->byte_offset),
                            rec->field_count, msg);
    }
    if (expected && rec->field_count > expected && o->long_rows == SIMDSV_RAGGED_ERROR) {
        snprintf(msg, sizeof msg, "row has %zu fields, the header has %zu", rec->field_count, expected);
        return record_error(k, SIMDSV_ERR_RAGGED_ROW, field_pos(k, rec, &rec->fields[expected]), expected, msg);
    }
    for (size_t j = 0; j < t->ncols; j++) {
        column *c = &t->cols[j];
        const int ok = append_field(x, c, rec);
        if (ok == 1)
            continue;
        if (ok < 0)
            return SIMDSV_ERR_NOMEM;
        const simdsv_field *f = &rec->fields[c->source];
        if (!c->user_type && !k->fixed_types) {
            if (k->worker || k->misfit_stops) {
                k->misfit = 1; /* the caller redoes the input on one thread */
                return SIMDSV_ERR_VALUE;
            }
            const simdsv_status st = widen(x, c, rec, row);
            if (st != SIMDSV_OK)
                return st;
            continue;
        }
        if (o->on_error == SIMDSV_ON_ERROR_FAIL) {
            if (!c->user_type) { /* (fixed types) what widen() would make of it */
                const char *s;
                size_t n;
                if (!simdsv__field_text(x, f, &s, &n))
                    return SIMDSV_ERR_NOMEM;
                const simdsv_type to = simdsv__kind_join(c->type, simdsv__infer_text(x, f, s, n).type);
                k->late_misfit = 1;
                k->misfit_column = j;
                k->widened = to == c->type ? SIMDSV_TYPE_STRING : to;
            }
            if (c->user_type)
                snprintf(msg, sizeof msg, "value does not fit column `%.60s` of type %s", c->name,
                         simdsv_type_name(c->type));
            else
                snprintf(msg, sizeof msg,
                         "value does not fit column `%.60s` of type %s, inferred from the start of the stream",
                         c->name, simdsv_type_name(c->type));
            return record_error(k, SIMDSV_ERR_VALUE, field_pos(k, rec, f), c->source, msg);
        }
        const char *s;
        size_t n;
        if (!simdsv__field_text(x, f, &s, &n) || simdsv__column_append_null(&t->alloc, c) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM;
        char reason[96];
        snprintf(reason, sizeof reason, "not a valid %s", simdsv_type_name(c->type));
        const simdsv_status st =
            add_reject(x, j, row, (size_t)(k->shift + (int64_t)rec->byte_offset), s, n, reason, !k->worker);
        if (st != SIMDSV_OK)
            return st;
    }
    return SIMDSV_OK;
}

/* ---------------------------------------------------- column-major batches */

/* Entries of a chunk's field-start array: a few thousand rows of a narrow
 * file, enough for one scan window (64 KiB) of rows of 8+ bytes. */
#define BATCH_POS_CAP ((size_t)32768)
/* Slots whose texts are gathered before their column's type loop runs. */
#define BATCH_RUN ((size_t)512)

/* Regular rows taken from the index at once (simdsv__reader_batch, access.h). */
typedef struct batch_view {
    const char *origin;   /* buffer address the positions are relative to */
    const uint32_t *pos;
    size_t rows, stride;  /* stride: fields per row + 1 */
    uint64_t byte_offset; /* input offset of origin (the source reader's) */
} batch_view;

typedef struct column_mark {
    uint64_t length, null_count;
    size_t chars_len, nblocks; /* (views: a side block closed since the mark is kept, its bytes unused) */
} column_mark;

/* The field that starts at origin + p[0] (and whose separator is at origin
 * + p[1] - 1) without its quotes, and its flags as the record path would
 * set them.  quote: the dialect's quote byte, or 256 for none. */
static inline simdsv_field batch_field(const char *origin, const uint32_t *p, const scan_dialect *d, int quote)
{
    simdsv_field f = {origin + p[0], p[1] - 1 - p[0], 0};
    if (f.size && (unsigned char)f.data[0] == quote) {
        f.data++;
        f.size -= 2;
        f.flags = SIMDSV_FIELD_QUOTED;
        if (memchr(f.data, d->quote, f.size) || (d->has_escape && memchr(f.data, d->escape, f.size)))
            f.flags |= SIMDSV_FIELD_NEEDS_UNESCAPE;
    }
    return f;
}

/* Converts column c's field of every row of the batch into the slots after
 * its last one.  Returns the batch row of the first value that does not fit
 * (b->rows when all fit; rows before it are written), or -1 when out of
 * memory.  The rules of append_field, minus ragged rows (a batch has none).
 * Without null tokens the fields go straight from the field starts into the
 * column's type loop (simdsv__column_put_fields), each field's bytes read
 * once; what that loop leaves (a quoted typed value, a string to unescape,
 * a misfit) and every field when null tokens are listed take the general
 * way: the null and quote rules pick each slot's text, a run at a time,
 * and simdsv__column_put_run converts the run. */
static long batch_column(chunk *k, column *c, const batch_view *b)
{
    typed_ctx *x = &k->x;
    const simdsv_allocator *a = &x->t->alloc;
    const scan_dialect *d = simdsv__reader_dialect(k->source);
    const int quote = d->has_quote ? d->quote : 256;
    if (simdsv__column_reserve(a, c, c->length + b->rows) != SIMDSV_OK ||
        (c->type == SIMDSV_TYPE_STRING &&
         simdsv__column_reserve_chars(a, c, b->pos[(b->rows - 1) * b->stride + b->stride - 1] + 16) != SIMDSV_OK))
        return -1; /* a string column's bytes fit in the batch's span (+ 16: the string kernel's whole stores) */
    const int listed_nulls = x->nulls.count || c->nulls.count;
    const int typed_quotes = !c->user_type && c->type != SIMDSV_TYPE_STRING; /* a quoted value is text... */
    const int quotes_typed = x->opt->typed_quotes;                         /* ...unless typed like unquoted */
    const int check_zeros = !c->user_type && c->type == SIMDSV_TYPE_INT64;   /* and so is "00501" */
    const value_rules rules = {&x->trues, &x->falses, x->opt->decimal_comma, !c->user_type,
                               x->opt->date_order, x->opt->thousands > 0 ? (char)x->opt->thousands : 0};
    size_t done = 0;
    slot_text *texts = k->texts;
    const int escape = d->has_escape ? d->escape : 256;
    const value_kernel *numbers = simdsv__value_kernel(simdsv_reader_kernel(k->source));
    while (done < b->rows) {
        if (!listed_nulls) { /* the common case in one loop per type; the rest of this loop takes what it leaves */
            /* the rows before the last one end with their line ends, in the buffer */
            const field_run fields = {b->origin, b->pos + done * b->stride + c->source, b->stride, b->rows - done,
                                      quote, escape, b->pos[(b->rows - 1) * b->stride], numbers};
            done += simdsv__column_put_fields(c, &fields, &rules, check_zeros);
            if (done == b->rows)
                break;
        }
        const size_t run = b->rows - done < BATCH_RUN ? b->rows - done : BATCH_RUN;
        const uint64_t at = c->length;
        uint8_t *validity = c->validity; /* locals: byte stores may alias anything */
        uint64_t nulls = 0;
        size_t i = 0;
        int misfit = 0;
        /* Validity a byte at a time: the bits of earlier rows in the first
         * byte are kept, whole bytes are stored as they fill. */
        uint64_t bit = at % 8;
        uint8_t *byte = validity + at / 8;
        unsigned bits = bit ? *byte & ((1u << bit) - 1) : 0;
        const uint32_t *pos = b->pos + done * b->stride + c->source;
        for (; i < run; pos += b->stride) {
            simdsv_field f = batch_field(b->origin, pos, d, quote);
            const char *s = f.data;
            size_t n = f.size;
            if ((f.flags & SIMDSV_FIELD_NEEDS_UNESCAPE) && !simdsv__field_text(x, &f, &s, &n))
                return -1;
            const int null = !(f.flags & SIMDSV_FIELD_QUOTED) &&
                             (n == 0 || (listed_nulls && simdsv__is_null_token(x, c, &f, s, n)));
            if (!null && ((typed_quotes && (f.flags & SIMDSV_FIELD_QUOTED) && (!quotes_typed || !n)) ||
                          (check_zeros && simdsv__has_leading_zero(s, n)))) {
                misfit = 1;
                break;
            }
            texts[i].s = null ? NULL : s;
            texts[i].n = n;
            bits |= (unsigned)!null << bit;
            if (++bit == 8) {
                *byte++ = (uint8_t)bits;
                bits = 0;
                bit = 0;
            }
            nulls += (uint64_t)null;
            i++;
            if (f.flags & SIMDSV_FIELD_NEEDS_UNESCAPE)
                break; /* its text is in the scratch until the next decode: convert the run now */
        }
        if (bit)
            *byte = (uint8_t)bits;
        c->null_count += nulls;
        const size_t fit = simdsv__column_put_run(c, at, texts, i, &rules);
        c->length += fit;
        done += fit;
        if (fit < i || misfit)
            break;
    }
    return (long)done;
}

/* Puts c back to a mark: the slots after it are written again. */
static void column_rewind(column *c, const column_mark *m)
{
    c->length = m->length;
    c->null_count = m->null_count;
    if (c->nblocks == m->nblocks)
        c->chars_len = m->chars_len;
    if (m->length % 8) { /* bits past the mark in its byte are ORed into later */
        const uint8_t keep = (uint8_t)((1u << (m->length % 8)) - 1);
        c->validity[m->length / 8] &= keep;
        if (c->type == SIMDSV_TYPE_BOOL)
            c->values[m->length / 8] &= keep;
    }
}

/* The rows of a batch one by one through convert_record: for a batch with a
 * value that does not fit (widening, rejects and errors keep their rules). */
static simdsv_status batch_rows(chunk *k, const batch_view *b)
{
    simdsv_table *t = k->x.t;
    const size_t fields = b->stride - 1;
    for (size_t i = 0; i < b->rows; i++) {
        const scan_dialect *d = simdsv__reader_dialect(k->source);
        for (size_t j = 0; j < fields; j++)
            k->fields[j] = batch_field(b->origin, b->pos + i * b->stride + j, d, d->has_quote ? d->quote : 256);
        const simdsv_record rec = {k->fields, fields, t->rows, b->byte_offset + b->pos[i * b->stride]};
        const simdsv_status st = convert_record(k, &rec, t->rows);
        if (st != SIMDSV_OK)
            return st;
        t->rows++;
    }
    return SIMDSV_OK;
}

/* A batch column by column: each column's loop stays on one type. */
static simdsv_status convert_batch(chunk *k, const batch_view *b)
{
    simdsv_table *t = k->x.t;
    for (size_t j = 0; j < t->ncols; j++) {
        const column *c = &t->cols[j];
        k->marks[j] = (column_mark){c->length, c->null_count, c->chars_len, c->nblocks};
    }
    for (size_t j = 0; j < t->ncols; j++) {
        const long done = batch_column(k, &t->cols[j], b);
        if (done < 0)
            return SIMDSV_ERR_NOMEM;
        if ((size_t)done < b->rows) {
            for (size_t m = 0; m <= j; m++)
                column_rewind(&t->cols[m], &k->marks[m]);
            return batch_rows(k, b);
        }
    }
    t->rows += b->rows;
    return SIMDSV_OK;
}

simdsv_status simdsv__reserve_rows(simdsv_table *t, uint64_t rows)
{
    simdsv_status st = SIMDSV_OK;
    for (size_t j = 0; j < t->ncols && st == SIMDSV_OK; j++)
        st = simdsv__column_reserve(&t->alloc, &t->cols[j], rows);
    return st;
}

/* Batches need room for two rows of field starts. */
static int batch_usable(const chunk *k)
{
    return k->x.row_fields && k->x.t->ncols && k->x.row_fields < BATCH_POS_CAP / 2 - 1;
}

static simdsv_status batch_alloc(chunk *k)
{
    const simdsv_allocator *a = &k->x.t->alloc;
    k->pos = simdsv__alloc(a, BATCH_POS_CAP * sizeof *k->pos);
    k->fields = simdsv__alloc(a, k->x.row_fields * sizeof *k->fields);
    k->marks = simdsv__alloc(a, k->x.t->ncols * sizeof *k->marks);
    k->texts = simdsv__alloc(a, BATCH_RUN * sizeof *k->texts);
    return k->pos && k->fields && k->marks && k->texts ? SIMDSV_OK : SIMDSV_ERR_NOMEM;
}

static void batch_free(chunk *k)
{
    const simdsv_allocator *a = &k->x.t->alloc;
    simdsv__free(a, k->pos, BATCH_POS_CAP * sizeof *k->pos);
    simdsv__free(a, k->fields, k->x.row_fields * sizeof *k->fields);
    simdsv__free(a, k->marks, k->x.t->ncols * sizeof *k->marks);
    simdsv__free(a, k->texts, BATCH_RUN * sizeof *k->texts);
    k->texts = NULL;
    k->pos = NULL;
    k->fields = NULL;
    k->marks = NULL;
}

/* A stream's batch ends before a string column could outgrow 32-bit
 * offsets (the stream's schema says "u"). */
static int strings_full(const chunk *k)
{
    if (!k->chars_budget)
        return 0;
    for (size_t j = 0; j < k->x.t->ncols; j++)
        if (k->x.t->cols[j].chars_len >= k->chars_budget)
            return 1;
    return 0;
}

/* Positions are buffer offsets of the main reader; a stream's buffer drops
 * what it consumed as it refills, so the shift follows it. */
static void follow_buffer(chunk *k)
{
    if (k->source == k->x.r)
        k->shift = -(int64_t)simdsv__reader_origin(k->x.r);
}

/* `want` more rows after `have`, cut to the gate's count once it is known. */
static size_t within_count(const chunk_gate *g, uint64_t have, size_t want)
{
    const uint64_t counted = atomic_load(&g->rows);
    if (counted != SIMDSV__ROWS_UNKNOWN && have + want > counted)
        want = counted > have ? (size_t)(counted - have) : 0;
    return want;
}

/* A gated chunk (chunk_gate): how many of `want` more rows it may write
 * now (0: none, it stops), its claim stored before the count is looked at
 * again. */
static size_t gate_rows(chunk *k, size_t want)
{
    chunk_gate *g = k->gate;
    const uint64_t have = k->x.t->rows;
    want = within_count(g, have, want);
    atomic_store(&g->claim, have + want);
    want = within_count(g, have, want);
    return atomic_load_explicit(&g->stop, memory_order_relaxed) ? 0 : want;
}

/* Rows of a gated chunk's batch that start at or before its bound (the
 * rest are the next chunk's). */
static size_t rows_in_bound(chunk *k, const batch_view *b)
{
    size_t rows = b->rows;
    while (rows && b->byte_offset + b->pos[(rows - 1) * b->stride] > k->gate->bound)
        rows--;
    if (rows < b->rows)
        k->gate->passed = 1;
    return rows;
}

/* Rows of the chunk's source into its columns: regular rows in batches,
 * column by column; any other row (ragged, irregular quoting, invalid UTF-8,
 * at a scan-window edge) by itself through the record path. */
static simdsv_status convert_rows(chunk *k)
{
    simdsv_table *t = k->x.t;
    simdsv_reader *src = k->source;
    const uint64_t limit = k->limit;
    simdsv_record rec;
    simdsv_status st = SIMDSV_OK;
    while ((limit == 0 || t->rows < limit) && !strings_full(k)) {
        size_t want = limit ? (size_t)(limit - t->rows) : SIZE_MAX;
        if (k->gate) { /* a batch holds BATCH_POS_CAP / 2 rows at most */
            if (!(want = gate_rows(k, want < BATCH_POS_CAP / 2 ? want : BATCH_POS_CAP / 2)))
                break;
        }
        if (k->pos) {
            size_t origin;
            const size_t rows = simdsv__reader_batch(src, k->x.row_fields, want, k->pos, BATCH_POS_CAP, &origin);
            if (rows) {
                follow_buffer(k);
                batch_view b = {(const char *)simdsv__reader_buffer(src) + origin, k->pos, rows,
                                k->x.row_fields + 1, simdsv__reader_origin(src) + origin};
                if (k->gate && !(b.rows = rows_in_bound(k, &b)))
                    break;
                if ((st = convert_batch(k, &b)) != SIMDSV_OK)
                    return st;
                if (k->gate && k->gate->passed)
                    break;
                continue;
            }
        }
        if ((st = simdsv_reader_next(src, &rec)) != SIMDSV_OK)
            break;
        if (k->gate && rec.byte_offset > k->gate->bound) {
            k->gate->passed = 1;
            break;
        }
        follow_buffer(k);
        if ((st = convert_record(k, &rec, t->rows)) != SIMDSV_OK)
            return st;
        t->rows++;
    }
    if (st == SIMDSV_OK || st == SIMDSV_END)
        return SIMDSV_OK; /* the limit, the strings' budget, a gate, or the end (a gated chunk's is checked by parallel.c) */
    if (k->source != k->x.r) { /* a chunk reader's data error, in buffer positions */
        const simdsv_error *e = simdsv_reader_error(k->source);
        return record_error(k, st, (size_t)(k->shift + (int64_t)e->byte_offset), e->field, e->message);
    }
    return st; /* the main reader reported it already */
}

simdsv_status simdsv__convert_chunk(chunk *k)
{
    simdsv_status st = batch_usable(k) ? batch_alloc(k) : SIMDSV_OK;
    if (st == SIMDSV_OK)
        st = convert_rows(k);
    batch_free(k);
    /* A worker's misfit stops its chunk with SIMDSV_ERR_VALUE, but it is no
     * error: the caller reads the input again on one thread, which widens.
     * Returned as one, it would be reported as an error without a message. */
    return k->misfit ? SIMDSV_OK : st;
}

simdsv_status simdsv__report(simdsv_reader *r, const chunk *k, uint64_t rows_before)
{
    const uint64_t record = rows_before + k->err_row + (simdsv__reader_options(r)->header ? 1 : 0); /* header = 0 */
    return simdsv__reader_error_at(r, k->code, k->err_pos, k->err_field, record, k->msg);
}

void simdsv__finish_rejects(simdsv_table *t, simdsv_reader *r)
{
    for (size_t i = 0; i < t->nrejects; i++) {
        if (t->rejects[i].pub.line)
            continue; /* found when it was added */
        const size_t pos = (size_t)t->rejects[i].pub.byte_offset;
        t->rejects[i].pub.line = simdsv__line_at(r, pos);
        t->rejects[i].pub.byte_offset = simdsv__reader_origin(r) + pos;
    }
}

simdsv_status simdsv__convert_single(typed_ctx *x)
{
    simdsv_reader *r = x->r;
    chunk k;
    memset(&k, 0, sizeof k);
    k.x = *x;
    k.source = r;
    k.shift = -(int64_t)simdsv__reader_origin(r);
    k.limit = x->opt->row_limit;
    simdsv_status st = SIMDSV_OK;
    if (x->first_rows && x->first_bytes) {
        /* Size the columns once from the sampled row size (a few % spare)
         * instead of doubling through the whole input. */
        uint64_t estimate = (uint64_t)((double)x->size / ((double)x->first_bytes / (double)x->first_rows) * 1.05) + 16;
        if (x->opt->row_limit && estimate > x->opt->row_limit)
            estimate = x->opt->row_limit;
        st = simdsv__reserve_rows(x->t, estimate);
    }
    if (st == SIMDSV_OK)
        st = simdsv__convert_chunk(&k);
    x->text = k.x.text; /* the scratch may have grown */
    x->text_cap = k.x.text_cap;
    if (k.code != SIMDSV_OK)
        return simdsv__report(r, &k, 0);
    return st;
}
