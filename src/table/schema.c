/*
 * schema.c — the start of every typed read: the header, the columns it (or
 * the names given, or column_N) and the projection make, the types the
 * schema gives them, the null tokens, then inference of the rest (infer.c).
 */
#include "typed.h"

#include <stdio.h>
#include <string.h>

/* A column of field `field`, named by `name` (allocated with its NUL:
 * the column owns it from here, freed on failure too). */
static simdsv_status add_column(simdsv_table *t, char *name, size_t name_size, size_t field)
{
    if (t->ncols == t->cols_cap) {
        void *p = t->cols;
        if (simdsv__grow(&t->alloc, &p, &t->cols_cap, t->ncols + 1, sizeof *t->cols) != SIMDSV_OK) {
            simdsv__free(&t->alloc, name, name_size + 1);
            return SIMDSV_ERR_NOMEM;
        }
        t->cols = p;
    }
    column *c = &t->cols[t->ncols];
    memset(c, 0, sizeof *c);
    c->name = name;
    c->name_size = name_size + 1;
    c->source = field;
    t->ncols++;
    return SIMDSV_OK;
}

static char *copy_name(const simdsv_allocator *a, const char *text, size_t size)
{
    char *copy = simdsv__alloc(a, size + 1);
    if (copy) {
        memcpy(copy, text, size);
        copy[size] = '\0';
    }
    return copy;
}

/* Column names looked up by their bytes in one probe sequence (open
 * addressing, linear probing), so that the schema's work stays linear in
 * the number of columns: a file may have hundreds of thousands. */
typedef struct name_entry {
    const char *text; /* NULL: the slot is empty */
    size_t size;
    size_t value; /* what the name stands for: a field or column index */
} name_entry;

typedef struct name_table {
    name_entry *slots;
    size_t cap; /* a power of two, more than twice the names it holds */
} name_table;

static simdsv_status name_table_init(const simdsv_allocator *a, name_table *nt, size_t names)
{
    nt->cap = 16;
    while (nt->cap < 2 * names + 2)
        nt->cap *= 2;
    nt->slots = simdsv__alloc(a, nt->cap * sizeof *nt->slots);
    if (!nt->slots)
        return SIMDSV_ERR_NOMEM;
    memset(nt->slots, 0, nt->cap * sizeof *nt->slots);
    return SIMDSV_OK;
}

static void name_table_free(const simdsv_allocator *a, name_table *nt)
{
    simdsv__free(a, nt->slots, nt->cap * sizeof *nt->slots);
    nt->slots = NULL;
}

/* The slot of `text`, or the empty slot where it would go. */
static name_entry *name_slot(const name_table *nt, const char *text, size_t size)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (size_t i = 0; i < size; i++)
        h = (h ^ (uint8_t)text[i]) * 1099511628211ull;
    for (size_t i = (size_t)h & (nt->cap - 1);; i = (i + 1) & (nt->cap - 1)) {
        name_entry *e = &nt->slots[i];
        if (!e->text || (e->size == size && memcmp(e->text, text, size) == 0))
            return e;
    }
}

static const name_entry *name_find(const name_table *nt, const char *text, size_t size)
{
    const name_entry *e = name_slot(nt, text, size);
    return e->text ? e : NULL;
}

/* Adds a name that is not in the table (text must outlive the table). */
static void name_add(name_table *nt, const char *text, size_t size, size_t value)
{
    *name_slot(nt, text, size) = (name_entry){text, size, value};
}

/* Makes names[0..count) unique, in place, so that every typed output (JSON
 * objects, Parquet, Arrow IPC, data frames) can key its columns by name:
 * an empty name becomes column_N (N the 1-based position), and a name seen
 * before gets the first suffix _2, _3, ... that is neither a name of the
 * input nor one given already (nor in `reserved`, when there is one):
 * `a,b,a` reads as a, b, a_2.  Each names[i]
 * is allocated (sizes[i] + 1 bytes, NUL-terminated); a renamed one is
 * replaced.  Linear in the names: each name keeps the next suffix to try. */
static simdsv_status unique_names(const simdsv_allocator *a, char **names, size_t *sizes, size_t count,
                                  const name_table *reserved)
{
    size_t longest = 0;
    for (size_t i = 0; i < count; i++)
        longest = sizes[i] > longest ? sizes[i] : longest;
    const size_t scratch_cap = longest + 32; /* a name, "_", a suffix; or column_N */
    char *scratch = simdsv__alloc(a, scratch_cap);
    size_t *next_suffix = simdsv__alloc(a, (count ? count : 1) * sizeof *next_suffix);
    name_table input = {0}, taken = {0};
    simdsv_status st = scratch && next_suffix ? name_table_init(a, &input, count) : SIMDSV_ERR_NOMEM;
    if (st == SIMDSV_OK)
        st = name_table_init(a, &taken, count);
    for (size_t i = 0; st == SIMDSV_OK && i < count; i++)
        if (sizes[i] && !name_find(&input, names[i], sizes[i]))
            name_add(&input, names[i], sizes[i], i);
    for (size_t i = 0; st == SIMDSV_OK && i < count; i++) {
        next_suffix[i] = 2;
        const char *name = names[i];
        size_t size = sizes[i];
        if (!size)
            size = (size_t)snprintf(scratch, scratch_cap, "column_%zu", i + 1);
        const int generated = !sizes[i];
        if (generated)
            name = scratch;
        const name_entry *owner = name_find(&taken, name, size);
        if (owner || (generated && name_find(&input, name, size))) {
            /* A name given before (or a column_N that the input holds):
             * its suffixes go on from where its last one stopped. */
            size_t *suffix = owner ? &next_suffix[owner->value] : &next_suffix[i];
            char base[32];
            if (generated) /* scratch is about to hold the candidates */
                memcpy(base, scratch, size + 1);
            const char *stem = generated ? base : names[i];
            const int stem_size = (int)size;
            do
                size = (size_t)snprintf(scratch, scratch_cap, "%.*s_%zu", stem_size, stem, (*suffix)++);
            while (name_find(&input, scratch, size) || name_find(&taken, scratch, size) ||
                   (reserved && name_find(reserved, scratch, size)));
            name = scratch;
        }
        if (name == scratch) {
            char *copy = copy_name(a, scratch, size);
            if (!copy) {
                st = SIMDSV_ERR_NOMEM;
                break;
            }
            simdsv__free(a, names[i], sizes[i] + 1);
            names[i] = copy;
            sizes[i] = size;
        }
        name_add(&taken, names[i], sizes[i], i);
    }
    name_table_free(a, &taken);
    name_table_free(a, &input);
    simdsv__free(a, next_suffix, (count ? count : 1) * sizeof *next_suffix);
    simdsv__free(a, scratch, scratch_cap);
    return st;
}

/* Names, each allocated with its NUL (the ones moved out are NULL). */
typedef struct name_list {
    char **names;
    size_t *sizes;
    size_t count, cap;
} name_list;

static simdsv_status name_list_new(const simdsv_allocator *a, name_list *l, size_t cap)
{
    l->count = 0;
    l->cap = cap ? cap : 1;
    l->names = simdsv__alloc(a, l->cap * sizeof *l->names);
    l->sizes = simdsv__alloc(a, l->cap * sizeof *l->sizes);
    return l->names && l->sizes ? SIMDSV_OK : SIMDSV_ERR_NOMEM;
}

static simdsv_status name_list_add(const simdsv_allocator *a, name_list *l, const char *text, size_t size)
{
    if (!(l->names[l->count] = copy_name(a, text, size)))
        return SIMDSV_ERR_NOMEM;
    l->sizes[l->count++] = size;
    return SIMDSV_OK;
}

static void name_list_free(const simdsv_allocator *a, name_list *l)
{
    for (size_t i = 0; l->names && i < l->count; i++)
        simdsv__free(a, l->names[i], l->sizes[i] + 1);
    simdsv__free(a, l->names, l->cap * sizeof *l->names);
    simdsv__free(a, l->sizes, l->cap * sizeof *l->sizes);
}

static simdsv_status spec_error(simdsv_reader *r, const char *what, const char *name)
{
    char message[256];
    snprintf(message, sizeof message, "%s `%.120s`", what, name);
    return simdsv__reader_fail(r, SIMDSV_ERR_INVALID_ARGUMENT, message);
}

/* The table's columns, named: each field's name (the header's, the
 * names given for a header-less input, or column_N) made unique, the
 * projection's selectors looked up among those names (a selector that
 * names no field may be an index: "#3", "3"), and the projected names made
 * unique again (a field selected twice), apart from every field's name. */
static simdsv_status add_columns(typed_ctx *x, const simdsv_record *header, size_t nfields)
{
    simdsv_table *t = x->t;
    const simdsv_allocator *a = &t->alloc;
    const spec_list *projection = &SIMDSV__SPEC(x->opt, SIMDSV_OPT_COLUMNS);
    const spec_list *given = &SIMDSV__SPEC(x->opt, SIMDSV_OPT_NAMES);
    const size_t out_cols = projection->count ? projection->count : nfields;
    name_list fields = {0}, out = {0};
    size_t *sources = simdsv__alloc(a, (out_cols ? out_cols : 1) * sizeof *sources);
    name_table lookup = {0};
    simdsv_status st = sources ? name_list_new(a, &fields, nfields) : SIMDSV_ERR_NOMEM;
    for (size_t i = 0; i < nfields && st == SIMDSV_OK; i++) {
        if (header && i < header->field_count)
            st = name_list_add(a, &fields, header->fields[i].data, header->fields[i].size);
        else if (!header && i < given->count)
            st = name_list_add(a, &fields, given->items[i].text, given->items[i].size);
        else
            st = name_list_add(a, &fields, "", 0);
    }
    if (st == SIMDSV_OK)
        st = unique_names(a, fields.names, fields.sizes, fields.count, NULL);
    name_list *names = &fields;
    if (st == SIMDSV_OK && projection->count) {
        names = &out;
        st = name_table_init(a, &lookup, nfields);
        for (size_t i = 0; i < nfields && st == SIMDSV_OK; i++)
            name_add(&lookup, fields.names[i], fields.sizes[i], i);
        if (st == SIMDSV_OK)
            st = name_list_new(a, &out, out_cols);
        for (size_t j = 0; j < out_cols && st == SIMDSV_OK; j++) {
            const spec_item *sel = &projection->items[j];
            const name_entry *e = name_find(&lookup, sel->text, sel->size);
            const long field = e ? (long)e->value : sel->index >= 0 && (size_t)sel->index < nfields ? sel->index : -1;
            if (field < 0)
                st = spec_error(x->r, "no column", sel->text);
            else if ((st = name_list_add(a, &out, fields.names[field], fields.sizes[field])) == SIMDSV_OK)
                sources[j] = (size_t)field;
        }
        if (st == SIMDSV_OK)
            st = unique_names(a, out.names, out.sizes, out.count, &lookup); /* a_2 stays the file's a_2 */
    } else if (st == SIMDSV_OK) {
        for (size_t j = 0; j < nfields; j++)
            sources[j] = j;
    }
    for (size_t j = 0; j < out_cols && st == SIMDSV_OK; j++) {
        st = add_column(t, names->names[j], names->sizes[j], sources[j]);
        names->names[j] = NULL; /* the column's now */
        names->sizes[j] = 0;
    }
    name_table_free(a, &lookup);
    name_list_free(a, &out);
    name_list_free(a, &fields);
    simdsv__free(a, sources, (out_cols ? out_cols : 1) * sizeof *sources);
    return st;
}

/* Columns from the header (or the names given, or column_N), the projection
 * and the schema, from the options' parsed items (src/common/spec.h).  The
 * schema's and the null tokens' names are the columns' unique names. */
static simdsv_status build_schema(typed_ctx *x, const simdsv_record *header, size_t nfields)
{
    simdsv_reader *r = x->r;
    const struct simdsv_options *opt = x->opt;
    simdsv_table *t = x->t;
    const simdsv_allocator *a = &t->alloc;
    simdsv_status st = add_columns(x, header, nfields);
    if (st != SIMDSV_OK)
        return st;
    /* The columns by name, and by field: each field's first column, and
     * each column's next of the same field (a projection may repeat one). */
    name_table by_name = {0};
    size_t *first_of_field = simdsv__alloc(a, (nfields ? nfields : 1) * sizeof *first_of_field);
    size_t *next_of_field = simdsv__alloc(a, (t->ncols ? t->ncols : 1) * sizeof *next_of_field);
    st = first_of_field && next_of_field ? name_table_init(a, &by_name, t->ncols) : SIMDSV_ERR_NOMEM;
    for (size_t i = 0; i < nfields && st == SIMDSV_OK; i++)
        first_of_field[i] = SIZE_MAX;
    for (size_t j = t->ncols; j-- > 0 && st == SIMDSV_OK;) {
        column *c = &t->cols[j];
        name_add(&by_name, c->name, c->name_size - 1, j);
        next_of_field[j] = first_of_field[c->source];
        first_of_field[c->source] = j;
    }
    /* User types: "name:type" items, "*:type" for every column. */
    const spec_list *schema = &SIMDSV__SPEC(opt, SIMDSV_OPT_SCHEMA);
    for (size_t i = 0; i < schema->count && st == SIMDSV_OK; i++) {
        const spec_item *it = &schema->items[i];
        int matched = 0;
        if (strcmp(it->text, "*") == 0) {
            for (size_t j = 0; j < t->ncols; j++) {
                column *c = &t->cols[j];
                if (c->user_type)
                    continue; /* a named entry wins over "*" */
                c->type = it->type;
                c->user_type = 1;
                matched = 1;
            }
        } else if (it->at_least) {
            const name_entry *e = name_find(&by_name, it->text, it->size);
            if (e) {
                t->cols[e->value].min_type = it->type;
                matched = 1;
            }
        } else {
            const name_entry *e = name_find(&by_name, it->text, it->size);
            if (e) {
                t->cols[e->value].type = it->type;
                t->cols[e->value].user_type = 1;
                matched = 1;
            }
            for (size_t j = it->index >= 0 && (size_t)it->index < nfields ? first_of_field[it->index] : SIZE_MAX;
                 j != SIZE_MAX; j = next_of_field[j]) {
                t->cols[j].type = it->type;
                t->cols[j].user_type = 1;
                matched = 1;
            }
        }
        if (!matched && !opt->schema_partial)
            st = spec_error(r, "the schema names no column", it->text);
    }
    /* Null tokens: "name=TOKEN" items apply to that column, when there is
     * one; every other item (the whole text) to every column. */
    const spec_list *nulls = &SIMDSV__SPEC(opt, SIMDSV_OPT_NULL_VALUES);
    for (size_t i = 0; i < nulls->count && st == SIMDSV_OK; i++) {
        const spec_item *it = &nulls->items[i];
        const name_entry *e = it->key ? name_find(&by_name, it->text, it->key) : NULL;
        if (e)
            st = simdsv__spec_add(a, &t->cols[e->value].nulls, it->text + it->key + 1, it->size - it->key - 1, -1, 0,
                                  SIMDSV_TYPE_STRING);
        else
            st = simdsv__spec_add(a, &x->nulls, it->text, it->size, -1, 0, SIMDSV_TYPE_STRING);
    }
    name_table_free(a, &by_name);
    simdsv__free(a, first_of_field, (nfields ? nfields : 1) * sizeof *first_of_field);
    simdsv__free(a, next_of_field, (t->ncols ? t->ncols : 1) * sizeof *next_of_field);
    return st;
}

simdsv_status simdsv__typed_start(simdsv_reader *r, simdsv_table **out, typed_ctx *x, size_t window,
                                 bool schema_only, bool exact, bool infer)
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
    x->schema_only = schema_only;
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
    x->exact = exact;
    if ((st = simdsv__typed_hold(x, window, schema_only || exact)) != SIMDSV_OK)
        return st;
    /* A sample read apart needs a whole row in the start window: a row
     * longer than the window is held whole, and the input with it. */
    if (schema_only && x->window_cut && !memchr(x->data, '\n', x->size) && !memchr(x->data, '\r', x->size) &&
        (st = simdsv__typed_hold(x, SIZE_MAX, true)) != SIMDSV_OK)
        return st;
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
        for (;;) {
            simdsv_reader *sr = NULL;
            simdsv_record rec;
            st = simdsv__sub_reader(x, 0, &sr);
            simdsv_status next = SIMDSV_OK;
            int i = 0;
            for (nfields = 0; st == SIMDSV_OK && i < 1000 && (next = simdsv_reader_next(sr, &rec)) == SIMDSV_OK; i++)
                if (rec.field_count > nfields)
                    nfields = rec.field_count;
            /* An exact read's window that ran out before 1000 rows (or
             * inside a record) is read again larger: the whole input's
             * first 1000 rows decide. */
            const bool ran_out = (next == SIMDSV_END || next == SIMDSV_ERR_UNTERMINATED_QUOTE ||
                                  (next == SIMDSV_OK && (size_t)simdsv_reader_offset(sr) >= x->size));
            if (st == SIMDSV_OK)
                st = simdsv__sample_error(x, sr, next, 0, 0);
            simdsv_reader_free(sr);
            if (st != SIMDSV_OK)
                return st;
            if (!x->exact || !x->window_cut || !ran_out)
                break;
            if ((st = simdsv__typed_hold(x, x->size * 2, true)) != SIMDSV_OK)
                return st;
        }
    }
    /* Names given for a header-less input are columns even where no row has
     * that many fields (an empty byte range of a file). */
    if (!names && SIMDSV__SPEC(opt, SIMDSV_OPT_NAMES).count > nfields)
        nfields = SIMDSV__SPEC(opt, SIMDSV_OPT_NAMES).count;
    x->row_fields = nfields;
    if ((st = build_schema(x, names, nfields)) != SIMDSV_OK)
        return st;
    if (opt->strings == SIMDSV_STRINGS_VIEW) {
        /* The views of long strings point into the input where the whole
         * input is held in a buffer the arrays can share (else they are
         * copied, see simdsv_strings). */
        t->vin.views = true;
        if (window == SIZE_MAX && !schema_only)
            simdsv__typed_share(x);
    }
    for (size_t j = 0; j < t->ncols; j++)
        t->cols[j].vin = &t->vin;
    return infer ? simdsv__infer_types(x) : SIMDSV_OK;
}

void simdsv__typed_share(typed_ctx *x)
{
    simdsv_table *t = x->t;
    size_t size = 0;
    t->vin.shared = simdsv__reader_share_input(x->r, &t->vin.base, &size);
    t->vin.size = t->vin.shared ? size : 0;
    t->vin.windows = (uint32_t)((t->vin.size + VIEW_WINDOW - 1) / VIEW_WINDOW);
    if (!t->vin.shared)
        t->vin.base = NULL;
}

simdsv_status simdsv__typed_hold(typed_ctx *x, size_t window, bool apart)
{
    simdsv__held held;
    const simdsv_status st = simdsv__reader_hold(x->r, window, &held);
    if (st != SIMDSV_OK)
        return st;
    x->data = held.data;
    x->size = held.size;
    x->data_pos = held.pos;
    x->apart = false;
    x->window_cut = false;
    if (!held.whole && apart && simdsv__reader_file(x->r, &x->file)) {
        x->apart = true;
        x->data_offset = simdsv__reader_origin(x->r) + held.pos;
        x->data_total = x->file.end - x->data_offset;
    }
    if (!held.whole) { /* a window: sample whole lines only */
        size_t cut = x->size;
        while (cut && x->data[cut - 1] != '\n' && x->data[cut - 1] != '\r')
            cut--;
        if (cut)
            x->size = cut;
        x->window_cut = true;
    }
    return SIMDSV_OK;
}

void simdsv__typed_finish(typed_ctx *x)
{
    simdsv__spec_free(&x->t->alloc, &x->nulls);
    simdsv__spec_free(&x->t->alloc, &x->trues);
    simdsv__spec_free(&x->t->alloc, &x->falses);
    simdsv__free(&x->t->alloc, x->text, x->text_cap);
}
