/*
 * table.c — the typed reader: schema inference over a sample spread across
 * the input, then one pass that converts every projected field into its
 * column.  A value that does not fit an inferred type widens its column
 * (that column's earlier raw values are re-read from the input and converted
 * again), so no value is ever rounded, truncated or rejected by inference.
 * A value that does not fit a user-given type is an error with its position,
 * or a null listed in the rejects (SIMDSV_ON_ERROR_NULL).
 */
#define _POSIX_C_SOURCE 200809L
#include "table.h"
#include "../record/batch.h"
#include "../record/count_parallel.h"
#include "../record/reader.h"
#include "../values/values.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- inference */

/* What one field says about its column's type. */
typedef struct field_kind {
    simdsv_type type;
    const char *why; /* for a string: what made it one */
    int past_2p53;   /* an int64 past 2^53: with floats the column is text */
} field_kind;

typedef struct typed_ctx {
    simdsv_reader *r;
    simdsv_table *t;
    const uint8_t *data; /* the input's data rows (after the header), whole in memory */
    size_t size;
    size_t header_fields; /* fields per row the header promises (0 without header) */
    size_t row_fields;    /* fields of a regular row: the header's, or the widest sampled row's */
    spec_list nulls, trues, falses;
    char *text;           /* decode scratch */
    size_t text_cap;
    uint64_t first_rows;  /* rows and bytes of the first sample window: the row size estimate */
    size_t first_bytes;
} typed_ctx;

static int is_null_token(const typed_ctx *x, const column *c, const simdsv_field *f, const char *s, size_t n)
{
    if (f->flags & SIMDSV_FIELD_QUOTED)
        return 0; /* a quoted field is text, even "" and "NA" */
    return n == 0 || (x->nulls.count && simdsv__list_contains(&x->nulls, s, n)) ||
           (c->nulls.count && simdsv__list_contains(&c->nulls, s, n));
}

static int has_leading_zero(const char *s, size_t n)
{
    if (n && (*s == '+' || *s == '-')) {
        s++;
        n--;
    }
    return n > 1 && s[0] == '0';
}

/* One field's kind: the value layer's rules (src/values/values.h), plus the
 * reader's own bool spellings and decimal comma. */
static field_kind infer_text(const typed_ctx *x, const simdsv_field *f, const char *s, size_t n)
{
    field_kind k = {SIMDSV_TYPE_STRING, NULL, 0};
    /* A quoted field types like the same text unquoted (SIMDSV_OPT_TYPED_QUOTES);
     * "" stays the empty string, never a null. */
    const unsigned flags = x->r->opt.typed_quotes && n ? f->flags & ~SIMDSV_FIELD_QUOTED : f->flags;
    const int quoted = (flags & SIMDSV_FIELD_QUOTED) != 0;
    if (!quoted && (simdsv__list_contains(&x->trues, s, n) || simdsv__list_contains(&x->falses, s, n))) {
        k.type = SIMDSV_TYPE_BOOL;
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
    if (k.type == SIMDSV_TYPE_STRING && why == SIMDSV__WHY_TEXT && !quoted && x->r->opt.decimal_comma &&
        simdsv__parse_double_comma(s, n, &d)) {
        k.type = SIMDSV_TYPE_FLOAT64;
        why = SIMDSV__WHY_NONE;
    }
    int64_t us;
    bool has_time;
    if (k.type == SIMDSV_TYPE_STRING && why == SIMDSV__WHY_TEXT && !quoted && x->r->opt.date_order &&
        simdsv__scan_ordered(s, n, x->r->opt.date_order, &us, &has_time) == SIMDSV__TIME_OK) {
        k.type = has_time ? SIMDSV_TYPE_TIMESTAMP : SIMDSV_TYPE_DATE;
        why = SIMDSV__WHY_NONE;
    }
    k.why = k.type == SIMDSV_TYPE_STRING ? simdsv__infer_reason_text(why) : NULL;
    k.past_2p53 = k.type == SIMDSV_TYPE_INT64 && simdsv__integer_past_2p53(s, n);
    return k;
}

static simdsv_type join(simdsv_type a, simdsv_type b)
{
    return simdsv__kind_join(a, b);
}

/* The decoded text of a field (unescaped; lossy UTF-8 replaced). */
static int field_text(typed_ctx *x, const simdsv_field *f, const char **s, size_t *n)
{
    *s = f->data;
    *n = f->size;
    if (!(f->flags & (SIMDSV_FIELD_NEEDS_UNESCAPE | SIMDSV_FIELD_INVALID_UTF8)))
        return 1;
    const size_t need = f->size * 3 + 1;
    if (x->text_cap < need) {
        simdsv__free(&x->t->alloc, x->text, x->text_cap);
        x->text_cap = 0;
        if (!(x->text = simdsv__alloc(&x->t->alloc, need)))
            return 0;
        x->text_cap = need;
    }
    size_t len = f->size;
    const char *src = f->data;
    if (f->flags & SIMDSV_FIELD_NEEDS_UNESCAPE) {
        len = simdsv_unescape(f, x->r->opt.quote, x->r->opt.escape, x->text + f->size * 2);
        src = x->text + f->size * 2;
    }
    if (f->flags & SIMDSV_FIELD_INVALID_UTF8)
        len = simdsv_utf8_lossy(src, len, x->text);
    else
        memmove(x->text, src, len);
    *s = x->text;
    *n = len;
    return 1;
}

/* A reader over the data rows, for sampling and re-reading. */
static simdsv_status sub_reader_range(const typed_ctx *x, size_t from, size_t to, int validate, simdsv_reader **out)
{
    simdsv_options o = x->r->opt;
    o.header = false;
    o.skip_lines = 0;
    if (!validate && o.utf8 == SIMDSV_UTF8_STRICT)
        o.utf8 = SIMDSV_UTF8_NONE; /* samples and re-reads: the conversion pass reports UTF-8 errors */
    o.kernel = x->r->kernel->id;
    o.threads = 1; /* sub-readers run inside the typed reader's own threads */
    memset(o.specs, 0, sizeof o.specs);
    simdsv_status st = simdsv_reader_new(out, &o);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_memory(*out, x->data + from, to - from);
    return st;
}

static simdsv_status sub_reader(const typed_ctx *x, size_t from, simdsv_reader **out)
{
    return sub_reader_range(x, from, x->size, 0, out);
}

typedef struct sample_state {
    simdsv_type type;
    const char *why;
    uint64_t why_offset; /* input offset of the value that set type, for the reason */
    char value[40];      /* that value, shortened */
    uint64_t seen;
    int past_2p53;       /* an integer past 2^53 was seen: its text and offset */
    char big_value[40];
    uint64_t big_offset;
} sample_state;

static void copy_value(char *dst, size_t size, const char *text, size_t n)
{
    const size_t m = n < size - 1 ? n : size - 1;
    memcpy(dst, text, m);
    dst[m] = '\0';
}

static void note_kind(sample_state *s, field_kind k, const char *text, size_t n, uint64_t offset)
{
    const simdsv_type joined = join(s->type, k.type);
    s->seen++;
    if (k.past_2p53 && !s->past_2p53) {
        s->past_2p53 = 1;
        copy_value(s->big_value, sizeof s->big_value, text, n);
        s->big_offset = offset;
    }
    if (joined == s->type)
        return;
    s->type = joined;
    s->why = joined == SIMDSV_TYPE_STRING && k.type != SIMDSV_TYPE_STRING ? "mixed kinds" : k.why;
    s->why_offset = offset;
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
    simdsv_status st = sub_reader(x, from, &sr);
    simdsv_record rec;
    uint64_t rows = 0;
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
            if (!field_text(x, f, &s, &n)) {
                st = SIMDSV_ERR_NOMEM;
                break;
            }
            if (is_null_token(x, c, f, s, n))
                continue;
            note_kind(&local[j], infer_text(x, f, s, n), s, n, from + rec.byte_offset);
        }
        rows++;
    }
    *reached = from + (size_t)simdsv_reader_offset(sr);
    *sampled = rows;
    if (from == 0) {
        x->first_rows = rows;
        x->first_bytes = *reached;
    }
    if (st == SIMDSV_END)
        st = SIMDSV_OK;
    if (st != SIMDSV_OK && st != SIMDSV_ERR_NOMEM) {
        clean = trusted; /* the start window's errors surface in the main pass */
        st = SIMDSV_OK;
    }
    if (st == SIMDSV_OK && clean)
        memcpy(acc, local, t->ncols * sizeof *local);
    simdsv_reader_free(sr);
    simdsv__free(&t->alloc, local, t->ncols * sizeof *local);
    return st;
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

/* line: 1-based line of the value behind a string reason (0 if none). */
/* The line of a sampled value: counted from the reader's line checkpoint
 * without moving it (samples are not in input order). */
static uint64_t line_of_sample(const typed_ctx *x, uint64_t data_offset)
{
    const simdsv_reader *r = x->r;
    const size_t ck = (size_t)(r->line_offset - r->buf_origin);
    const size_t pos = (size_t)(x->data - r->buf) + (size_t)data_offset;
    if (pos < ck)
        return r->line_count + 1;
    uint64_t after_cr = r->line_after_cr;
    return r->line_count + r->kernel->count_lines(r->buf + ck, pos - ck, &after_cr) + 1;
}

static void write_reason(column *c, const sample_state *s, uint64_t line)
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

/* ------------------------------------------------------------------ schema */

static simdsv_status add_column(simdsv_table *t, const char *name, size_t name_size, size_t field)
{
    if (t->ncols == t->cols_cap) {
        void *p = t->cols;
        if (simdsv__grow(&t->alloc, &p, &t->cols_cap, t->ncols + 1, sizeof *t->cols) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM;
        t->cols = p;
    }
    column *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    c->name = simdsv__alloc(&t->alloc, name_size + 1);
    if (!c->name)
        return SIMDSV_ERR_NOMEM;
    memcpy(c->name, name, name_size);
    c->name[name_size] = '\0';
    c->name_size = name_size + 1;
    c->source = field;
    t->ncols++;
    return SIMDSV_OK;
}

/* Field index of a selector among the file's names, or -1. */
static long find_source(const simdsv_record *names, size_t nfields, const spec_item *sel)
{
    for (size_t i = 0; names && i < names->field_count; i++)
        if (sel->size == names->fields[i].size && memcmp(sel->text, names->fields[i].data, sel->size) == 0)
            return (long)i;
    return sel->index >= 0 && (size_t)sel->index < nfields ? sel->index : -1;
}

/* find_source, where a header-less input has names given (SIMDSV_OPT_NAMES). */
static long find_source_named(const simdsv_record *header, const spec_list *given, size_t nfields,
                              const spec_item *sel)
{
    for (size_t i = 0; !header && i < given->count && i < nfields; i++)
        if (sel->size == given->items[i].size && memcmp(sel->text, given->items[i].text, sel->size) == 0)
            return (long)i;
    return find_source(header, nfields, sel);
}

static column *column_named(simdsv_table *t, const char *name, size_t size)
{
    for (size_t j = 0; j < t->ncols; j++)
        if (t->cols[j].name_size == size + 1 && memcmp(t->cols[j].name, name, size) == 0)
            return &t->cols[j];
    return NULL;
}

static simdsv_status spec_error(simdsv_reader *r, const char *what, const char *name)
{
    snprintf(r->err.message, sizeof r->err.message, "%s `%.120s`", what, name);
    r->err.code = SIMDSV_ERR_INVALID_ARGUMENT;
    return SIMDSV_ERR_INVALID_ARGUMENT;
}

/* Columns from the header (or the names given, or column_N), the projection and the schema,
 * from the options' parsed items (src/common/spec.h). */
static simdsv_status build_schema(typed_ctx *x, const simdsv_record *header, size_t nfields)
{
    simdsv_reader *r = x->r;
    simdsv_table *t = x->t;
    char generated[32];
    const spec_list *projection = &SIMDSV__SPEC(&r->opt, SIMDSV_OPT_COLUMNS);
    /* Names given for a header-less input (SIMDSV_OPT_NAMES) stand in for the header. */
    const spec_list *given = &SIMDSV__SPEC(&r->opt, SIMDSV_OPT_NAMES);
    const size_t out_cols = projection->count ? projection->count : nfields;
    simdsv_status st = SIMDSV_OK;
    for (size_t j = 0; j < out_cols && st == SIMDSV_OK; j++) {
        long field = (long)j;
        if (projection->count && (field = find_source_named(header, given, nfields, &projection->items[j])) < 0)
            return spec_error(r, "no column", projection->items[j].text);
        const char *name = generated;
        size_t name_size;
        if (header && (size_t)field < header->field_count) {
            name = header->fields[field].data;
            name_size = header->fields[field].size;
        } else if (!header && (size_t)field < given->count) {
            name = given->items[field].text;
            name_size = given->items[field].size;
        } else {
            snprintf(generated, sizeof generated, "column_%ld", field + 1);
            name_size = strlen(generated);
        }
        st = add_column(t, name, name_size, (size_t)field);
    }
    if (st != SIMDSV_OK)
        return st;
    /* User types: "name:type" items, "*:type" for every column. */
    const spec_list *schema = &SIMDSV__SPEC(&r->opt, SIMDSV_OPT_SCHEMA);
    for (size_t i = 0; i < schema->count; i++) {
        const spec_item *it = &schema->items[i];
        const int all = strcmp(it->text, "*") == 0;
        int matched = 0;
        for (size_t j = 0; j < t->ncols; j++) {
            column *c = &t->cols[j];
            if (all || strcmp(it->text, c->name) == 0 || it->index == (long)c->source) {
                if (all && c->user_type)
                    continue; /* a named entry wins over "*" */
                c->type = it->type;
                c->user_type = 1;
                matched = 1;
            }
        }
        if (!matched)
            return spec_error(r, "the schema names no column", it->text);
    }
    /* Null tokens: "name=TOKEN" items apply to that column, when there is
     * one; every other item (the whole text) to every column. */
    const spec_list *nulls = &SIMDSV__SPEC(&r->opt, SIMDSV_OPT_NULL_VALUES);
    for (size_t i = 0; i < nulls->count && st == SIMDSV_OK; i++) {
        const spec_item *it = &nulls->items[i];
        column *target = it->key ? column_named(t, it->text, it->key) : NULL;
        if (target)
            st = simdsv__spec_add(&t->alloc, &target->nulls, it->text + it->key + 1, it->size - it->key - 1, -1, 0,
                                  SIMDSV_TYPE_STRING);
        else
            st = simdsv__spec_add(&t->alloc, &x->nulls, it->text, it->size, -1, 0, SIMDSV_TYPE_STRING);
    }
    return st;
}

/* --------------------------------------------------------------- the table */

void simdsv_table_free(simdsv_table *t)
{
    if (!t)
        return;
    const simdsv_allocator a = t->alloc;
    for (size_t j = 0; j < t->ncols; j++) {
        simdsv__column_free_data(&a, &t->cols[j]);
        simdsv__free(&a, t->cols[j].name, t->cols[j].name_size);
        simdsv__spec_free(&a, &t->cols[j].nulls);
    }
    simdsv__free(&a, t->cols, t->cols_cap * sizeof *t->cols);
    for (size_t i = 0; i < t->nrejects; i++) {
        simdsv__free(&a, (void *)(uintptr_t)t->rejects[i].pub.value, t->rejects[i].value_size);
        simdsv__free(&a, (void *)(uintptr_t)t->rejects[i].pub.reason, t->rejects[i].reason_size);
    }
    simdsv__free(&a, t->rejects, t->rejects_cap * sizeof *t->rejects);
    simdsv__free(&a, t, sizeof *t);
}

uint64_t simdsv_table_rows(const simdsv_table *t)
{
    return t ? t->rows : 0;
}

size_t simdsv_table_columns(const simdsv_table *t)
{
    return t ? t->ncols : 0;
}

simdsv_status simdsv_table_column(const simdsv_table *t, size_t index, simdsv_column_info *info)
{
    if (!t || !info || index >= t->ncols)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const column *c = &t->cols[index];
    info->name = c->name;
    info->type = c->type;
    info->reason = c->reason;
    info->null_count = c->null_count;
    info->user_type = c->user_type;
    return SIMDSV_OK;
}

size_t simdsv_table_reject_count(const simdsv_table *t)
{
    return t ? t->nrejects : 0;
}

const simdsv_reject *simdsv_table_reject(const simdsv_table *t, size_t index)
{
    return t && index < t->nrejects ? &t->rejects[index].pub : NULL;
}

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
    e->pub.byte_offset = in_order ? x->r->buf_origin + pos : pos; /* a buffer position until finish_rejects */
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
    if (!field_text(x, f, &s, &n))
        return -1;
    if (is_null_token(x, c, f, s, n))
        return simdsv__column_append_null(a, c) == SIMDSV_OK ? 1 : -1;
    /* An inferred int64 column keeps leading zeros out: "00501" is text. */
    if (c->type == SIMDSV_TYPE_INT64 && !c->user_type && has_leading_zero(s, n))
        return 0;
    if (c->type == SIMDSV_TYPE_STRING || c->user_type || !(f->flags & SIMDSV_FIELD_QUOTED) ||
        (x->r->opt.typed_quotes && n)) {
        int nomem;
        const value_rules rules = {&x->trues, &x->falses, x->r->opt.decimal_comma, !c->user_type,
                                   x->r->opt.date_order};
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
    simdsv_status st = sub_reader(x, 0, &sr);
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
    if (!field_text(x, f, &s, &n))
        return SIMDSV_ERR_NOMEM;
    field_kind k = infer_text(x, f, s, n);
    simdsv_type to = join(c->type, k.type);
    if (to == c->type)
        to = SIMDSV_TYPE_STRING; /* e.g. an int64 column meeting "00501" */
    sample_state why = {to, to == SIMDSV_TYPE_STRING ? (k.why ? k.why : "mixed kinds") : NULL, 0, {0}, row, 0, {0}, 0};
    why.why_offset = rec->byte_offset - x->r->buf_origin - (uint64_t)(x->data - x->r->buf);
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
    write_reason(c, &why, simdsv__line_at(x->r, (size_t)(rec->byte_offset - x->r->buf_origin)));
    if (to != SIMDSV_TYPE_STRING)
        snprintf(c->reason, sizeof c->reason, "%s: widened at row %llu by `%s`", simdsv_type_name(to),
                 (unsigned long long)row + 1, why.value);
    return append_field(x, c, rec) == 1 ? SIMDSV_OK : SIMDSV_ERR_NOMEM;
}

/* -------------------------------------------------------------- conversion */

/* One run of conversion over a range of rows: the whole input on the
 * caller's thread, or one chunk on a worker.  Errors are recorded here with
 * buffer positions and reported by the caller, so workers never touch the
 * reader's error state. */
typedef struct chunk {
    typed_ctx x;             /* x.t: the table (or the chunk's own columns) */
    simdsv_reader *source;   /* the main reader, or a reader over the chunk's bytes */
    int64_t shift;           /* buffer position = shift + record byte_offset */
    size_t from, to;         /* data offsets of the chunk (workers) */
    int worker;              /* 1: a misfit of an inferred column stops the chunk */
    int fixed_types;         /* 1 (streams): inferred types cannot widen any more */
    uint64_t limit;          /* rows to convert at most, 0 = all */
    size_t chars_budget;     /* stop once a string column holds this many bytes (0: no limit) */
    int misfit;              /* set when it did */
    simdsv_status status;
    simdsv_status code;      /* the recorded error, if any */
    size_t err_pos;
    uint64_t err_field;
    uint64_t err_row;        /* data row of the error, within the chunk */
    char msg[256];
    /* column-major batches (convert_chunk) */
    uint32_t *pos;           /* field starts of the batch's rows (batch.h) */
    simdsv_field *fields;    /* one row's fields, for a batch converted row by row */
    struct column_mark *marks; /* each column's state before the batch */
    slot_text *texts;        /* one run of a column's slots */
} chunk;

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
    if (f->data >= (const char *)r->buf && f->data <= (const char *)r->buf + r->len)
        return (size_t)((const uint8_t *)f->data - r->buf) - ((f->flags & SIMDSV_FIELD_QUOTED) ? 1 : 0);
    return (size_t)(k->shift + (int64_t)rec->byte_offset);
}

static simdsv_status convert_record(chunk *k, const simdsv_record *rec, uint64_t row)
{
    typed_ctx *x = &k->x;
    simdsv_table *t = x->t;
    const simdsv_options *o = &x->r->opt;
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
            if (k->worker) {
                k->misfit = 1; /* the caller redoes the input on one thread */
                return SIMDSV_ERR_VALUE;
            }
            const simdsv_status st = widen(x, c, rec, row);
            if (st != SIMDSV_OK)
                return st;
            continue;
        }
        if (o->on_error == SIMDSV_ON_ERROR_FAIL) {
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
        if (!field_text(x, f, &s, &n) || simdsv__column_append_null(&t->alloc, c) != SIMDSV_OK)
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

/* Regular rows taken from the index at once (src/record/batch.h). */
typedef struct batch_view {
    const char *origin;   /* buffer address the positions are relative to */
    const uint32_t *pos;
    size_t rows, stride;  /* stride: fields per row + 1 */
    uint64_t byte_offset; /* input offset of origin (the source reader's) */
} batch_view;

typedef struct column_mark {
    uint64_t length, null_count;
    size_t chars_len;
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
 * memory.  The rules of append_field, minus ragged rows (a batch has none):
 * here the null and quote rules pick each slot's text, a run at a time, and
 * the column's type loop converts the run. */
static long batch_column(chunk *k, column *c, const batch_view *b)
{
    typed_ctx *x = &k->x;
    const simdsv_allocator *a = &x->t->alloc;
    const scan_dialect *d = &k->source->dialect;
    const int quote = d->has_quote ? d->quote : 256;
    if (simdsv__column_reserve(a, c, c->length + b->rows) != SIMDSV_OK ||
        (c->type == SIMDSV_TYPE_STRING &&
         simdsv__column_reserve_chars(a, c, b->pos[(b->rows - 1) * b->stride + b->stride - 1]) != SIMDSV_OK))
        return -1; /* a string column's bytes fit in the batch's span */
    const int listed_nulls = x->nulls.count || c->nulls.count;
    const int typed_quotes = !c->user_type && c->type != SIMDSV_TYPE_STRING; /* a quoted value is text... */
    const int quotes_typed = x->r->opt.typed_quotes;                         /* ...unless typed like unquoted */
    const int check_zeros = !c->user_type && c->type == SIMDSV_TYPE_INT64;   /* and so is "00501" */
    const value_rules rules = {&x->trues, &x->falses, x->r->opt.decimal_comma, !c->user_type,
                               x->r->opt.date_order};
    size_t done = 0;
    slot_text *texts = k->texts;
    while (done < b->rows) {
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
            if ((f.flags & SIMDSV_FIELD_NEEDS_UNESCAPE) && !field_text(x, &f, &s, &n))
                return -1;
            const int null = !(f.flags & SIMDSV_FIELD_QUOTED) &&
                             (n == 0 || (listed_nulls && is_null_token(x, c, &f, s, n)));
            if (!null && ((typed_quotes && (f.flags & SIMDSV_FIELD_QUOTED) && (!quotes_typed || !n)) ||
                          (check_zeros && has_leading_zero(s, n)))) {
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
        const scan_dialect *d = &k->source->dialect;
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
        k->marks[j] = (column_mark){c->length, c->null_count, c->chars_len};
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

static simdsv_status reserve_rows(simdsv_table *t, uint64_t rows)
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
        k->shift = -(int64_t)k->x.r->buf_origin;
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
        if (k->pos) {
            size_t origin;
            const size_t rows = simdsv__reader_batch(src, k->x.row_fields, limit ? (size_t)(limit - t->rows) : SIZE_MAX,
                                                     k->pos, BATCH_POS_CAP, &origin);
            if (rows) {
                follow_buffer(k);
                const batch_view b = {(const char *)src->buf + origin, k->pos, rows, k->x.row_fields + 1,
                                      src->buf_origin + origin};
                if ((st = convert_batch(k, &b)) != SIMDSV_OK)
                    return st;
                continue;
            }
        }
        if ((st = simdsv_reader_next(src, &rec)) != SIMDSV_OK)
            break;
        follow_buffer(k);
        if ((st = convert_record(k, &rec, t->rows)) != SIMDSV_OK)
            return st;
        t->rows++;
    }
    if (st == SIMDSV_END || (limit && t->rows >= limit) || strings_full(k))
        return SIMDSV_OK;
    if (k->source != k->x.r) { /* a chunk reader's data error, in buffer positions */
        const simdsv_error *e = simdsv_reader_error(k->source);
        return record_error(k, st, (size_t)(k->shift + (int64_t)e->byte_offset), e->field, e->message);
    }
    return st; /* the main reader reported it already */
}

static simdsv_status convert_chunk(chunk *k)
{
    simdsv_status st = batch_usable(k) ? batch_alloc(k) : SIMDSV_OK;
    if (st == SIMDSV_OK)
        st = convert_rows(k);
    batch_free(k);
    return st;
}
/* Header, schema and inference.  window: the bytes of data rows to hold
 * and sample (SIZE_MAX: the whole input). */
static simdsv_status start(simdsv_reader *r, simdsv_table **out, typed_ctx *x, size_t window)
{
    memset(x, 0, sizeof *x);
    *out = NULL;
    if (!r || r->src.kind == SOURCE_NONE)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    simdsv_table *t = simdsv__alloc(&r->opt.alloc, sizeof *t);
    if (!t)
        return SIMDSV_ERR_NOMEM;
    memset(t, 0, sizeof *t);
    t->alloc = r->opt.alloc;
    x->r = r;
    x->t = t;
    *out = t;
    simdsv_status st;
    simdsv_record header;
    const simdsv_record *names = NULL;
    if (r->opt.header) {
        st = simdsv_reader_header(r, &header);
        if (st == SIMDSV_OK)
            names = &header;
        else if (st != SIMDSV_END)
            return st;
    }
    /* The typed reader holds the whole input (a stream of batches: the
     * window it infers from). */
    if ((st = simdsv__slurp(r, window)) != SIMDSV_OK)
        return st;
    if (!r->started && (st = simdsv__start_input(r)) != SIMDSV_OK)
        return st; /* no header was read: the BOM and skipped lines still go */
    x->data = r->buf + r->rec_start;
    x->size = r->len - r->rec_start;
    if (!r->eof) { /* a window: sample whole lines only */
        size_t cut = x->size;
        while (cut && x->data[cut - 1] != '\n' && x->data[cut - 1] != '\r')
            cut--;
        if (cut)
            x->size = cut;
    }
    const spec_list *trues = &SIMDSV__SPEC(&r->opt, SIMDSV_OPT_TRUE_VALUES);
    const spec_list *falses = &SIMDSV__SPEC(&r->opt, SIMDSV_OPT_FALSE_VALUES);
    if ((st = trues->count ? simdsv__spec_copy(&t->alloc, &x->trues, trues)
                           : simdsv__spec_parse(&t->alloc, SIMDSV_OPT_TRUE_VALUES, "true,True,TRUE", &x->trues, NULL,
                                                0)) != SIMDSV_OK ||
        (st = falses->count ? simdsv__spec_copy(&t->alloc, &x->falses, falses)
                            : simdsv__spec_parse(&t->alloc, SIMDSV_OPT_FALSE_VALUES, "false,False,FALSE", &x->falses,
                                                 NULL, 0)) != SIMDSV_OK)
        return st;
    size_t nfields = names ? names->field_count : 0;
    x->header_fields = nfields;
    if (!names) { /* no header: the widest row of the first sample decides */
        simdsv_reader *sr = NULL;
        simdsv_record rec;
        st = sub_reader(x, 0, &sr);
        for (int i = 0; st == SIMDSV_OK && i < 1000 && simdsv_reader_next(sr, &rec) == SIMDSV_OK; i++)
            if (rec.field_count > nfields)
                nfields = rec.field_count;
        simdsv_reader_free(sr);
        if (st != SIMDSV_OK)
            return st;
    }
    /* Names given for a header-less input are columns even where no row has
     * that many fields (an empty byte range of a file). */
    if (!names && SIMDSV__SPEC(&r->opt, SIMDSV_OPT_NAMES).count > nfields)
        nfields = SIMDSV__SPEC(&r->opt, SIMDSV_OPT_NAMES).count;
    x->row_fields = nfields;
    if ((st = build_schema(x, names, nfields)) != SIMDSV_OK)
        return st;
    /* Inference: start, middle and end of the data rows. */
    sample_state *acc = simdsv__alloc(&t->alloc, (t->ncols ? t->ncols : 1) * sizeof *acc);
    if (!acc)
        return SIMDSV_ERR_NOMEM;
    memset(acc, 0, (t->ncols ? t->ncols : 1) * sizeof *acc);
    for (size_t j = 0; j < t->ncols; j++)
        acc[j].type = t->cols[j].user_type ? t->cols[j].type : SIMDSV_TYPE_NULL;
    const int64_t budget = r->opt.infer_rows;
    size_t covered = 0;
    uint64_t sampled = 0;
    if (budget < 0) {
        st = sample_window(x, 0, UINT64_MAX, 1, acc, &covered, &sampled);
    } else {
        st = sample_window(x, 0, (uint64_t)budget / 2 + 1, 1, acc, &covered, &sampled);
        if (st == SIMDSV_OK && covered < x->size)
            st = sample_rest(x, (uint64_t)budget, acc, &covered);
        const size_t offsets[2] = {x->size / 2, x->size - x->size / 10};
        for (int w = 0; w < 2 && st == SIMDSV_OK && covered < x->size; w++) {
            /* Windows never overlap: each starts after what was sampled. */
            const size_t from = next_line_start(x->data, x->size, offsets[w] > covered ? offsets[w] : covered);
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
        }
        if (!c->user_type)
            c->type = acc[j].type;
        write_reason(c, &acc[j], acc[j].type == SIMDSV_TYPE_STRING ? line_of_sample(x, acc[j].why_offset) : 0);
    }
    simdsv__free(&t->alloc, acc, (t->ncols ? t->ncols : 1) * sizeof *acc);
    return st;
}

static void finish(typed_ctx *x)
{
    simdsv__spec_free(&x->t->alloc, &x->nulls);
    simdsv__spec_free(&x->t->alloc, &x->trues);
    simdsv__spec_free(&x->t->alloc, &x->falses);
    simdsv__free(&x->t->alloc, x->text, x->text_cap);
}

simdsv_status simdsv_table_infer(simdsv_reader *r, simdsv_table **out)
{
    typed_ctx x;
    simdsv_status st = start(r, out, &x, SIZE_MAX);
    if (x.t)
        finish(&x);
    if (st != SIMDSV_OK) {
        simdsv_table_free(*out);
        *out = NULL;
    }
    return st;
}

/* Reports a chunk's recorded error on the main reader (with line/column);
 * rows_before: data rows of the chunks before it. */
static simdsv_status report(simdsv_reader *r, const chunk *k, uint64_t rows_before)
{
    const simdsv_status st = simdsv__set_error(r, k->code, k->err_pos, k->err_field, k->msg);
    r->err.record = rows_before + k->err_row + (r->opt.header ? 1 : 0); /* physical record, header = 0 */
    return st;
}

/* Rejects were recorded with buffer positions: now, in input order, their
 * lines and input offsets. */
static void finish_rejects(simdsv_table *t, simdsv_reader *r)
{
    for (size_t i = 0; i < t->nrejects; i++) {
        if (t->rejects[i].pub.line)
            continue; /* found when it was added */
        const size_t pos = (size_t)t->rejects[i].pub.byte_offset;
        t->rejects[i].pub.line = simdsv__line_at(r, pos);
        t->rejects[i].pub.byte_offset = r->buf_origin + pos;
    }
}

/* The whole input on the caller's thread; widening re-reads in place. */
static simdsv_status convert_single(typed_ctx *x)
{
    simdsv_reader *r = x->r;
    chunk k;
    memset(&k, 0, sizeof k);
    k.x = *x;
    k.source = r;
    k.shift = -(int64_t)r->buf_origin;
    k.limit = r->opt.row_limit;
    simdsv_status st = SIMDSV_OK;
    if (x->first_rows && x->first_bytes) {
        /* Size the columns once from the sampled row size (a few % spare)
         * instead of doubling through the whole input. */
        uint64_t estimate = (uint64_t)((double)x->size / ((double)x->first_bytes / (double)x->first_rows) * 1.05) + 16;
        if (r->opt.row_limit && estimate > r->opt.row_limit)
            estimate = r->opt.row_limit;
        st = reserve_rows(x->t, estimate);
    }
    if (st == SIMDSV_OK)
        st = convert_chunk(&k);
    x->text = k.x.text; /* the scratch may have grown */
    x->text_cap = k.x.text_cap;
    if (k.code != SIMDSV_OK)
        return report(r, &k, 0);
    return st;
}

/* ------------------------------------------------------- borrowed schemas */

/* own: an empty table with t's columns (types, sources; names and null
 * lists borrowed), for rows converted apart from t (a chunk, a batch). */
static simdsv_status borrow_schema(const simdsv_table *t, simdsv_table *own)
{
    memset(own, 0, sizeof *own);
    own->alloc = t->alloc;
    own->cols_cap = t->ncols ? t->ncols : 1;
    own->cols = simdsv__alloc(&t->alloc, own->cols_cap * sizeof *own->cols);
    if (!own->cols) {
        own->cols_cap = 0;
        return SIMDSV_ERR_NOMEM;
    }
    own->ncols = t->ncols;
    for (size_t j = 0; j < t->ncols; j++) {
        own->cols[j] = t->cols[j];
        simdsv__column_forget_data(&own->cols[j]); /* t's buffers stay t's */
    }
    return SIMDSV_OK;
}

/* Frees what borrow_schema's table owns: rows, rejects, the column array. */
static void free_borrowed(simdsv_table *own)
{
    const simdsv_allocator *a = &own->alloc;
    for (size_t j = 0; j < own->ncols; j++)
        simdsv__column_free_data(a, &own->cols[j]);
    simdsv__free(a, own->cols, own->cols_cap * sizeof *own->cols);
    for (size_t e = 0; e < own->nrejects; e++) {
        simdsv__free(a, (void *)(uintptr_t)own->rejects[e].pub.value, own->rejects[e].value_size);
        simdsv__free(a, (void *)(uintptr_t)own->rejects[e].pub.reason, own->rejects[e].reason_size);
    }
    simdsv__free(a, own->rejects, own->rejects_cap * sizeof *own->rejects);
    memset(own, 0, sizeof *own);
}

/* Moves src's rejects to the end of dst's, their rows shifted by row_base. */
static simdsv_status move_rejects(simdsv_table *dst, simdsv_table *src, uint64_t row_base)
{
    for (size_t e = 0; e < src->nrejects; e++) {
        void *p = dst->rejects;
        if (simdsv__grow(&dst->alloc, &p, &dst->rejects_cap, dst->nrejects + 1, sizeof *dst->rejects) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM;
        dst->rejects = p;
        dst->rejects[dst->nrejects] = src->rejects[e]; /* the strings move over */
        dst->rejects[dst->nrejects].pub.row += row_base;
        dst->nrejects++;
        src->rejects[e].pub.value = src->rejects[e].pub.reason = NULL;
        src->rejects[e].value_size = src->rejects[e].reason_size = 0;
    }
    return SIMDSV_OK;
}

/* --------------------------------------------------------------- threads */

typedef struct worker_job {
    chunk k;
    simdsv_table own;   /* the chunk's columns (names and null lists borrowed) */
    uint64_t rows;      /* records in the chunk (counted first) */
    uint64_t row_base;  /* rows of the chunks before it */
    simdsv_table *table; /* the table being read */
    int first;          /* chunk 0: its string buffers become the table's */
    size_t chars_base[]; /* per column: string bytes of the chunks before it */
} worker_job;

static void *run_convert(void *arg)
{
    worker_job *w = arg;
    chunk *k = &w->k;
    k->status = sub_reader_range(&k->x, k->from, k->to, 1, &k->source);
    if (k->status == SIMDSV_OK)
        k->status = reserve_rows(&w->own, w->rows);
    if (k->status == SIMDSV_OK && w->rows) /* (a limit of 0 would mean no limit) */
        k->status = convert_chunk(k);
    if (k->status == SIMDSV_OK && k->code == SIMDSV_OK && !k->misfit) {
        /* The count and the conversion must agree to the record: else the
         * single-thread path redoes the input (and reports what differs). */
        simdsv_record rec;
        k->misfit = w->own.rows != w->rows || simdsv_reader_next(k->source, &rec) != SIMDSV_END;
    }
    simdsv_reader_free(k->source);
    k->source = NULL;
    return NULL;
}

/* Job i of a list of worker jobs, for simdsv__run_threads. */
static void run_convert_listed(void *jobs, size_t i)
{
    run_convert(((worker_job **)jobs)[i]);
}

/* Appends n bits of src to dst at bit `at` (dst's bits below `at` kept). */
static void bitmap_append(uint8_t *dst, uint64_t at, const uint8_t *src, uint64_t n)
{
    if (n == 0)
        return;
    const unsigned shift = (unsigned)(at % 8);
    uint8_t *d = dst + at / 8;
    const size_t bytes = (size_t)((n + 7) / 8);
    if (shift == 0) {
        memcpy(d, src, bytes);
        return;
    }
    d[0] = (uint8_t)((d[0] & ((1u << shift) - 1)) | (unsigned)(src[0] << shift));
    for (size_t i = 1; i < bytes; i++)
        d[i] = (uint8_t)((src[i - 1] >> (8 - shift)) | (unsigned)(src[i] << shift));
    if ((shift + n + 7) / 8 > bytes)
        d[bytes] = (uint8_t)(src[bytes - 1] >> (8 - shift));
}

static int in_place(simdsv_type type)
{
    return type == SIMDSV_TYPE_INT64 || type == SIMDSV_TYPE_FLOAT64 || type == SIMDSV_TYPE_DATE ||
           type == SIMDSV_TYPE_TIMESTAMP;
}

static size_t value_bytes(simdsv_type type)
{
    return type == SIMDSV_TYPE_DATE ? 4 : 8;
}

/* The table's fixed-width value buffers, sized for every chunk's rows; each
 * chunk's columns point into them at its first row. */
static simdsv_status place_values(simdsv_table *t, worker_job **jobs, size_t n, uint64_t rows)
{
    for (size_t j = 0; j < t->ncols; j++) {
        column *c = &t->cols[j];
        if (!in_place(c->type))
            continue;
        const simdsv_status st = simdsv__column_reserve(&t->alloc, c, rows);
        if (st != SIMDSV_OK)
            return st;
        for (size_t i = 0; i < n; i++) {
            column *own = &jobs[i]->own.cols[j];
            own->values = c->values + value_bytes(c->type) * jobs[i]->row_base;
            own->values_cap = value_bytes(c->type) * (size_t)jobs[i]->rows;
        }
    }
    return SIMDSV_OK;
}

/* Takes back the table's buffers lent to the chunks (before freeing them). */
static void unplace_values(simdsv_table *t, worker_job **jobs, size_t n)
{
    for (size_t j = 0; j < t->ncols; j++)
        for (size_t i = 0; i < n && in_place(t->cols[j].type); i++) {
            jobs[i]->own.cols[j].values = NULL;
            jobs[i]->own.cols[j].values_cap = 0;
        }
}

/* Chunk i > 0 copies its string bytes and offsets into the table's
 * buffers (chunk 0's, grown by merge), then frees its own. */
static void *run_strings(void *arg)
{
    worker_job *w = arg;
    const simdsv_table *t = w->table;
    for (size_t j = 0; j < t->ncols && !w->first; j++) {
        const column *c = &t->cols[j];
        column *own = &w->own.cols[j];
        if (c->type != SIMDSV_TYPE_STRING)
            continue;
        const size_t base = w->chars_base[j];
        if (own->chars_len)
            memcpy(c->chars + base, own->chars, own->chars_len);
        column *to = (column *)&t->cols[j]; /* rows of its own: no other worker writes them */
        for (uint64_t i = 0; i < own->length; i++)
            simdsv__offset_put(to, w->row_base + 1 + i, (int64_t)base + simdsv__offset_get(own, i + 1));
        simdsv__column_free_data(&t->alloc, own);
    }
    return NULL;
}

/* Job i of a list of worker jobs, for simdsv__run_threads. */
static void run_strings_listed(void *jobs, size_t i)
{
    run_strings(((worker_job **)jobs)[i]);
}

/* The chunks' rows into the table: values are in place already; bitmaps
 * are appended (a byte per 8 rows); strings take chunk 0's buffers, grown,
 * and the other chunks copy theirs after them, in parallel. */
static simdsv_status merge(simdsv_table *t, worker_job **jobs, size_t n, uint64_t rows)
{
    const simdsv_allocator *a = &t->alloc;
    const size_t bitmap_bytes = (size_t)((rows + 7) / 8) + 1;
    for (size_t j = 0; j < t->ncols; j++) {
        column *c = &t->cols[j];
        void *p = simdsv__realloc(a, c->validity, c->validity_cap, bitmap_bytes);
        if (!p)
            return SIMDSV_ERR_NOMEM;
        c->validity = p;
        c->validity_cap = bitmap_bytes;
        if (c->type == SIMDSV_TYPE_BOOL) {
            if (!(p = simdsv__realloc(a, c->values, c->values_cap, bitmap_bytes)))
                return SIMDSV_ERR_NOMEM;
            c->values = p;
            c->values_cap = bitmap_bytes;
        }
        c->length = c->null_count = 0;
        for (size_t i = 0; i < n; i++) {
            const column *own = &jobs[i]->own.cols[j];
            bitmap_append(c->validity, c->length, own->validity, own->length);
            if (c->type == SIMDSV_TYPE_BOOL)
                bitmap_append(c->values, c->length, own->values, own->length);
            c->length += own->length;
            c->null_count += own->null_count;
        }
        if (c->type != SIMDSV_TYPE_STRING)
            continue;
        size_t chars = 0;
        for (size_t i = 0; i < n; i++) {
            jobs[i]->chars_base[j] = chars;
            chars += jobs[i]->own.cols[j].chars_len;
        }
        column *first = &jobs[0]->own.cols[j];
        if (!first->offsets && simdsv__column_reserve(a, first, 0) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM; /* a chunk of no rows: offsets[0] still */
        if (chars > (size_t)INT32_MAX && simdsv__column_widen_offsets(a, first) != SIMDSV_OK)
            return SIMDSV_ERR_NOMEM;
        const size_t width = simdsv__offset_width(first);
        void *offsets = simdsv__realloc(a, first->offsets, first->offsets_cap * width, (size_t)(rows + 1) * width);
        if (!offsets)
            return SIMDSV_ERR_NOMEM;
        first->offsets = offsets;
        first->offsets_cap = (size_t)(rows + 1);
        void *bytes = simdsv__realloc(a, first->chars, first->chars_cap, chars ? chars : 1);
        if (!bytes)
            return SIMDSV_ERR_NOMEM;
        first->chars = bytes;
        first->chars_cap = chars ? chars : 1;
        simdsv__free(a, c->offsets, c->offsets_cap * simdsv__offset_width(c));
        simdsv__free(a, c->chars, c->chars_cap);
        c->offsets = first->offsets;
        c->offsets_cap = first->offsets_cap;
        c->wide_offsets = first->wide_offsets;
        c->chars = first->chars;
        c->chars_cap = first->chars_cap;
        c->chars_len = chars;
        first->offsets = NULL;
        first->chars = NULL;
        first->offsets_cap = first->chars_cap = first->chars_len = 0;
    }
    if (!simdsv__run_threads(a, n, run_strings_listed, jobs))
        return SIMDSV_ERR_NOMEM;
    t->rows = rows;
    for (size_t i = 0; i < n; i++) {
        const simdsv_status st = move_rejects(t, &jobs[i]->own, jobs[i]->row_base);
        if (st != SIMDSV_OK)
            return st;
    }
    return SIMDSV_OK;
}

static void free_job(const simdsv_allocator *a, worker_job *w, size_t ncols)
{
    if (!w)
        return;
    free_borrowed(&w->own);
    simdsv__free(a, w->k.x.text, w->k.x.text_cap);
    simdsv__free(a, w, sizeof *w + ncols * sizeof w->chars_base[0]);
}

/* Chunks that start at record starts found without a serial rescan: the
 * count kernel finds them, and each chunk's record count, in one parallel
 * scan (simdsv__count_chunks: each boundary's quote state is guessed and
 * the guesses checked by a prefix XOR of the chunks' quote parities).
 * Valid for strict RFC 4180 without escape or comment bytes; anything
 * irregular is left to the one-thread read, which reports it.  With each
 * chunk's records known, fixed-width values are written in place and only
 * strings and bitmaps are merged.  A value that does not fit an inferred
 * type (or a count that disagrees with the conversion) sends the input back
 * to the single-thread path, which widens in place.  Returns 0 in *done
 * when it did not apply. */
static simdsv_status convert_parallel(typed_ctx *x, int threads, int *done)
{
    simdsv_reader *r = x->r;
    simdsv_table *t = x->t;
    const simdsv_allocator *a = &t->alloc;
    *done = 0;
    /* Polars' budget: at most ~500k column buffers over all chunks. */
    size_t n = (size_t)threads;
    const size_t by_width = 500000 / (t->ncols ? t->ncols : 1);
    if (n > by_width)
        n = by_width ? by_width : 1;
    if (n < 2 || x->size < ((size_t)1 << 20) * n || r->opt.lenient || r->dialect.has_escape ||
        r->dialect.has_comment || r->opt.row_limit)
        return SIMDSV_OK;
    worker_job **jobs = simdsv__alloc(a, n * sizeof *jobs);
    if (!jobs)
        return SIMDSV_ERR_NOMEM;
    memset(jobs, 0, n * sizeof *jobs);
    simdsv_status st = SIMDSV_OK;
    for (size_t i = 0; i < n && st == SIMDSV_OK; i++) {
        worker_job *w = jobs[i] = simdsv__alloc(a, sizeof *w + t->ncols * sizeof w->chars_base[0]);
        if (!w) {
            st = SIMDSV_ERR_NOMEM;
            break;
        }
        memset(w, 0, sizeof *w + t->ncols * sizeof w->chars_base[0]);
        w->table = t;
        w->first = i == 0;
        w->k.x = *x;
        w->k.x.text = NULL;
        w->k.x.text_cap = 0;
        w->k.x.t = &w->own;
        w->k.worker = 1;
        st = borrow_schema(t, &w->own);
    }
    /* Chunk starts and record counts in one parallel scan (count_parallel.c). */
    uint64_t *starts = simdsv__alloc(a, (2 * n + 1) * sizeof *starts);
    if (st == SIMDSV_OK && !starts)
        st = SIMDSV_ERR_NOMEM;
    int fallback = 0;
    uint64_t rows = 0;
    if (st == SIMDSV_OK) {
        uint64_t *records = starts + n + 1;
        /* No: a quoting error or a record longer than a chunk; one thread reports or reads it. */
        fallback = !simdsv__count_chunks(r, x->data, x->size, n, starts, records);
        for (size_t i = 0; i < n && !fallback; i++) {
            chunk *k = &jobs[i]->k;
            k->from = (size_t)starts[i];
            k->to = (size_t)starts[i + 1];
            k->shift = (int64_t)(x->data - r->buf) + (int64_t)k->from;
            jobs[i]->rows = k->limit = records[i];
            jobs[i]->row_base = rows;
            rows += records[i];
        }
    }
    simdsv__free(a, starts, (2 * n + 1) * sizeof *starts);
    const int placed = st == SIMDSV_OK && !fallback;
    if (placed)
        st = place_values(t, jobs, n, rows);
    if (st == SIMDSV_OK && !fallback && !simdsv__run_threads(a, n, run_convert_listed, jobs))
        st = SIMDSV_ERR_NOMEM;
    for (size_t i = 0; i < n && st == SIMDSV_OK && !fallback; i++)
        fallback |= jobs[i]->k.misfit;
    for (size_t i = 0; i < n && st == SIMDSV_OK && !fallback; i++) {
        const chunk *k = &jobs[i]->k;
        if (k->code != SIMDSV_OK) {
            st = report(r, k, jobs[i]->row_base); /* the first error in input order */
            *done = 1;
        } else if (k->status != SIMDSV_OK) {
            st = k->status;
        }
    }
    if (placed)
        unplace_values(t, jobs, n);
    if (st == SIMDSV_OK && !fallback) {
        st = merge(t, jobs, n, rows);
        *done = 1;
    }
    if (fallback) { /* the table's columns start again from nothing */
        for (size_t j = 0; j < t->ncols; j++)
            simdsv__column_free_data(a, &t->cols[j]);
    }
    for (size_t i = 0; i < n; i++)
        free_job(a, jobs[i], t->ncols);
    simdsv__free(a, jobs, n * sizeof *jobs);
    return st;
}

static int thread_count(const simdsv_reader *r)
{
    if (r->opt.threads > 0)
        return r->opt.threads;
    return simdsv__online_cores();
}

/* After a typed read the reader has nothing more to give. */
static void consume_all(simdsv_reader *r)
{
    r->index_i = r->index_n = 0;
    r->special_pending = false;
    r->scanned_all = true;
    r->ss.in_quote = 0;
    r->ss.after_term = 1;
    r->nfields = 0;
    r->scan_pos = r->rec_start = r->field_start = r->len;
}

simdsv_status simdsv_table_read(simdsv_reader *r, simdsv_table **out)
{
    typed_ctx x;
    simdsv_status st = start(r, out, &x, SIZE_MAX);
    int done = 0;
    if (st == SIMDSV_OK)
        st = convert_parallel(&x, thread_count(r), &done);
    if (st == SIMDSV_OK && !done)
        st = convert_single(&x);
    if (x.t)
        finish(&x);
    if (st == SIMDSV_OK) {
        finish_rejects(*out, r);
        consume_all(r);
    } else if (*out) {
        simdsv_table_free(*out);
        *out = NULL;
    }
    return st;
}

/* ----------------------------------------------------------------- streams */

/* The bytes a stream holds to infer its schema: its start, middle and end
 * are sampled (SIMDSV_OPT_INFER_ROWS rows at most), then the buffer moves on. */
#define STREAM_WINDOW ((size_t)8 << 20)
/* A batch ends once a string column holds this much (its offsets stay
 * 32-bit: a record adds at most SIMDSV_OPT_MAX_RECORD_SIZE, 1 GiB by default). */
#define STREAM_CHARS_BUDGET ((size_t)1 << 30)

struct simdsv__typed_stream {
    typed_ctx x; /* x.t: the schema; it also collects every batch's rejects */
    uint64_t rows;
};

simdsv_status simdsv__stream_open(simdsv_reader *r, simdsv__typed_stream **out)
{
    *out = NULL;
    if (!r)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    simdsv__typed_stream *s = simdsv__alloc(&r->opt.alloc, sizeof *s);
    if (!s)
        return SIMDSV_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    simdsv_table *t = NULL;
    const simdsv_status st = start(r, &t, &s->x, STREAM_WINDOW);
    if (st != SIMDSV_OK) {
        if (s->x.t)
            finish(&s->x);
        simdsv_table_free(t);
        simdsv__free(&r->opt.alloc, s, sizeof *s);
        return st;
    }
    *out = s;
    return SIMDSV_OK;
}

const simdsv_table *simdsv__stream_schema(const simdsv__typed_stream *s)
{
    return s->x.t;
}

simdsv_status simdsv__stream_empty(const simdsv__typed_stream *s, simdsv_table *batch)
{
    return borrow_schema(s->x.t, batch);
}

simdsv_status simdsv__stream_next(simdsv__typed_stream *s, simdsv_table *batch)
{
    typed_ctx *x = &s->x;
    simdsv_reader *r = x->r;
    simdsv_status st = borrow_schema(x->t, batch);
    if (st != SIMDSV_OK)
        return st;
    uint64_t limit = r->opt.batch_rows;
    if (r->opt.row_limit) {
        const uint64_t left = r->opt.row_limit - s->rows;
        if (left == 0)
            return SIMDSV_OK;
        if (left < limit)
            limit = left;
    }
    chunk k;
    memset(&k, 0, sizeof k);
    k.x = *x;
    k.x.t = batch;
    k.source = r;
    k.shift = -(int64_t)r->buf_origin;
    k.limit = limit;
    k.fixed_types = 1;
    k.chars_budget = STREAM_CHARS_BUDGET;
    st = convert_chunk(&k);
    x->text = k.x.text; /* the scratch may have grown */
    x->text_cap = k.x.text_cap;
    if (k.code != SIMDSV_OK)
        st = report(r, &k, s->rows);
    if (st == SIMDSV_OK)
        st = move_rejects(x->t, batch, s->rows);
    if (st != SIMDSV_OK) {
        free_borrowed(batch);
        return st;
    }
    s->rows += batch->rows;
    return SIMDSV_OK;
}

void simdsv__stream_free_batch(simdsv_table *batch)
{
    free_borrowed(batch);
}

void simdsv__stream_close(simdsv__typed_stream *s)
{
    if (!s)
        return;
    const simdsv_allocator a = s->x.t->alloc;
    finish(&s->x);
    simdsv_table_free(s->x.t);
    simdsv__free(&a, s, sizeof *s);
}
