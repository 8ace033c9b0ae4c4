/*
 * schema.c — the start of every typed read: the header, the columns it (or
 * the names given, or column_N) and the projection make, the types the
 * schema gives them, the null tokens, then inference of the rest (infer.c).
 */
#include "typed.h"

#include <stdio.h>
#include <string.h>

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
    char message[256];
    snprintf(message, sizeof message, "%s `%.120s`", what, name);
    return simdsv__reader_fail(r, SIMDSV_ERR_INVALID_ARGUMENT, message);
}

/* Columns from the header (or the names given, or column_N), the projection and the schema,
 * from the options' parsed items (src/common/spec.h). */
static simdsv_status build_schema(typed_ctx *x, const simdsv_record *header, size_t nfields)
{
    simdsv_reader *r = x->r;
    const struct simdsv_options *opt = x->opt;
    simdsv_table *t = x->t;
    char generated[32];
    const spec_list *projection = &SIMDSV__SPEC(opt, SIMDSV_OPT_COLUMNS);
    /* Names given for a header-less input (SIMDSV_OPT_NAMES) stand in for the header. */
    const spec_list *given = &SIMDSV__SPEC(opt, SIMDSV_OPT_NAMES);
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
    const spec_list *schema = &SIMDSV__SPEC(opt, SIMDSV_OPT_SCHEMA);
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
    const spec_list *nulls = &SIMDSV__SPEC(opt, SIMDSV_OPT_NULL_VALUES);
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

simdsv_status simdsv__typed_start(simdsv_reader *r, simdsv_table **out, typed_ctx *x, size_t window, bool apart,
                                 bool infer)
{
    memset(x, 0, sizeof *x);
    *out = NULL;
    if (!r || !simdsv__reader_has_input(r))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const struct simdsv_options *opt = simdsv__reader_options(r);
    simdsv_table *t = simdsv__alloc(&opt->alloc, sizeof *t);
    if (!t)
        return SIMDSV_ERR_NOMEM;
    memset(t, 0, sizeof *t);
    t->alloc = opt->alloc;
    x->r = r;
    x->opt = opt;
    x->t = t;
    *out = t;
    simdsv_status st;
    simdsv_record header;
    const simdsv_record *names = NULL;
    if (opt->header) {
        st = simdsv_reader_header(r, &header);
        if (st == SIMDSV_OK)
            names = &header;
        else if (st != SIMDSV_END)
            return st;
    }
    /* The typed reader holds the whole input (a stream of batches: the
     * window it infers from). */
    simdsv__held held;
    if ((st = simdsv__reader_hold(r, window, &held)) != SIMDSV_OK)
        return st;
    /* A sample read apart needs a whole row in the start window: a row
     * longer than the window is held whole, and the input with it. */
    if (apart && !held.whole && !memchr(held.data, '\n', held.size) && !memchr(held.data, '\r', held.size) &&
        (st = simdsv__reader_hold(r, SIZE_MAX, &held)) != SIMDSV_OK)
        return st;
    x->data = held.data;
    x->size = held.size;
    x->data_pos = held.pos;
    if (!held.whole && apart && simdsv__reader_file(r, &x->file)) {
        x->apart = true;
        x->data_offset = simdsv__reader_origin(r) + held.pos;
        x->data_total = x->file.end - x->data_offset;
    }
    if (!held.whole) { /* a window: sample whole lines only */
        size_t cut = x->size;
        while (cut && x->data[cut - 1] != '\n' && x->data[cut - 1] != '\r')
            cut--;
        if (cut)
            x->size = cut;
    }
    const spec_list *trues = &SIMDSV__SPEC(opt, SIMDSV_OPT_TRUE_VALUES);
    const spec_list *falses = &SIMDSV__SPEC(opt, SIMDSV_OPT_FALSE_VALUES);
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
        st = simdsv__sub_reader(x, 0, &sr);
        for (int i = 0; st == SIMDSV_OK && i < 1000 && simdsv_reader_next(sr, &rec) == SIMDSV_OK; i++)
            if (rec.field_count > nfields)
                nfields = rec.field_count;
        simdsv_reader_free(sr);
        if (st != SIMDSV_OK)
            return st;
    }
    /* Names given for a header-less input are columns even where no row has
     * that many fields (an empty byte range of a file). */
    if (!names && SIMDSV__SPEC(opt, SIMDSV_OPT_NAMES).count > nfields)
        nfields = SIMDSV__SPEC(opt, SIMDSV_OPT_NAMES).count;
    x->row_fields = nfields;
    if ((st = build_schema(x, names, nfields)) != SIMDSV_OK)
        return st;
    return infer ? simdsv__infer_types(x) : SIMDSV_OK;
}

void simdsv__typed_finish(typed_ctx *x)
{
    simdsv__spec_free(&x->t->alloc, &x->nulls);
    simdsv__spec_free(&x->t->alloc, &x->trues);
    simdsv__spec_free(&x->t->alloc, &x->falses);
    simdsv__free(&x->t->alloc, x->text, x->text_cap);
}
