/*
 * arrow.c — export through the Arrow C Data Interface.  Each exported array
 * and schema owns its memory through private_data and frees it in its
 * release callback, which then sets release = NULL, as the specification
 * requires; the parent's release releases the children that were not moved
 * out (their release is not NULL).
 */
#include "table.h"
#include "../record/access.h"

#include <string.h>

typedef struct owned_buffer {
    void *data;
    size_t size;
} owned_buffer;

typedef struct array_private {
    simdsv_allocator alloc;
    owned_buffer owned[3];
    const void *buffers[3];
    struct ArrowArray **children;
    struct ArrowArray *child_structs;
    int64_t n_children;
    /* A string view column: its buffers (validity, views, the variadic
     * buffers, their sizes), the side blocks it owns and the input it
     * shares. */
    const void **view_buffers;
    size_t view_buffer_count;
    owned_buffer *blocks;
    size_t nblocks;
    int64_t *sizes;
    simdsv__shared_input *shared;
} array_private;

typedef struct schema_private {
    simdsv_allocator alloc;
    char *name;
    size_t name_size;
    struct ArrowSchema **children;
    struct ArrowSchema *child_structs;
    int64_t n_children;
} schema_private;

static void release_array(struct ArrowArray *array)
{
    array_private *p = array->private_data;
    for (int64_t i = 0; i < p->n_children; i++)
        if (p->child_structs[i].release)
            p->child_structs[i].release(&p->child_structs[i]);
    const simdsv_allocator a = p->alloc;
    for (int i = 0; i < 3; i++)
        simdsv__free(&a, p->owned[i].data, p->owned[i].size);
    for (size_t i = 0; i < p->nblocks; i++)
        simdsv__free(&a, p->blocks[i].data, p->blocks[i].size);
    simdsv__free(&a, p->blocks, p->nblocks * sizeof *p->blocks);
    simdsv__free(&a, p->view_buffers, p->view_buffer_count * sizeof *p->view_buffers);
    if (p->view_buffer_count) /* (sizes: one per variadic buffer, three buffers fewer) */
        simdsv__free(&a, p->sizes, (p->view_buffer_count - 3 + 1) * sizeof *p->sizes);
    simdsv__shared_input_release(p->shared);
    simdsv__free(&a, p->children, (size_t)p->n_children * sizeof *p->children);
    simdsv__free(&a, p->child_structs, (size_t)p->n_children * sizeof *p->child_structs);
    simdsv__free(&a, p, sizeof *p);
    array->release = NULL;
}

static void release_schema(struct ArrowSchema *schema)
{
    schema_private *p = schema->private_data;
    for (int64_t i = 0; i < p->n_children; i++)
        if (p->child_structs[i].release)
            p->child_structs[i].release(&p->child_structs[i]);
    const simdsv_allocator a = p->alloc;
    simdsv__free(&a, p->name, p->name_size);
    simdsv__free(&a, p->children, (size_t)p->n_children * sizeof *p->children);
    simdsv__free(&a, p->child_structs, (size_t)p->n_children * sizeof *p->child_structs);
    simdsv__free(&a, p, sizeof *p);
    schema->release = NULL;
}

static const char *format_of(const column *c, int large)
{
    switch (c->type) {
    case SIMDSV_TYPE_NULL: return "n";
    case SIMDSV_TYPE_BOOL: return "b";
    case SIMDSV_TYPE_INT64: return "l";
    case SIMDSV_TYPE_FLOAT64: return "g";
    case SIMDSV_TYPE_DATE: return "tdD";
    case SIMDSV_TYPE_TIMESTAMP: return c->utc ? "tsu:UTC" : "tsu:";
    case SIMDSV_TYPE_STRING: return simdsv__column_views(c) ? "vu" : large ? "U" : "u";
    }
    return "n";
}

static simdsv_status init_schema(struct ArrowSchema *s, const simdsv_allocator *a, const char *format, const char *name,
                                 int64_t n_children, int64_t flags)
{
    memset(s, 0, sizeof *s);
    schema_private *p = simdsv__alloc(a, sizeof *p);
    if (!p)
        return SIMDSV_ERR_NOMEM;
    memset(p, 0, sizeof *p);
    p->alloc = *a;
    p->name_size = strlen(name) + 1;
    p->name = simdsv__alloc(a, p->name_size);
    if (n_children) {
        p->children = simdsv__alloc(a, (size_t)n_children * sizeof *p->children);
        p->child_structs = simdsv__alloc(a, (size_t)n_children * sizeof *p->child_structs);
    }
    if (!p->name || (n_children && (!p->children || !p->child_structs))) {
        simdsv__free(a, p->name, p->name_size);
        simdsv__free(a, p->children, (size_t)n_children * sizeof *p->children);
        simdsv__free(a, p->child_structs, (size_t)n_children * sizeof *p->child_structs);
        simdsv__free(a, p, sizeof *p);
        return SIMDSV_ERR_NOMEM;
    }
    s->private_data = p;
    s->release = release_schema;
    memcpy(p->name, name, p->name_size);
    for (int64_t i = 0; i < n_children; i++) {
        p->children[i] = &p->child_structs[i];
        p->child_structs[i].release = NULL;
    }
    p->n_children = n_children;
    s->format = format; /* static strings */
    s->name = p->name;
    s->flags = flags;
    s->n_children = n_children;
    s->children = n_children ? p->children : NULL;
    return SIMDSV_OK;
}

static simdsv_status init_array(struct ArrowArray *arr, const simdsv_allocator *a, int64_t n_children)
{
    memset(arr, 0, sizeof *arr);
    array_private *p = simdsv__alloc(a, sizeof *p);
    if (!p)
        return SIMDSV_ERR_NOMEM;
    memset(p, 0, sizeof *p);
    p->alloc = *a;
    if (n_children) {
        p->children = simdsv__alloc(a, (size_t)n_children * sizeof *p->children);
        p->child_structs = simdsv__alloc(a, (size_t)n_children * sizeof *p->child_structs);
        if (!p->children || !p->child_structs) {
            simdsv__free(a, p->children, (size_t)n_children * sizeof *p->children);
            simdsv__free(a, p->child_structs, (size_t)n_children * sizeof *p->child_structs);
            simdsv__free(a, p, sizeof *p);
            return SIMDSV_ERR_NOMEM;
        }
        for (int64_t i = 0; i < n_children; i++) {
            p->children[i] = &p->child_structs[i];
            p->child_structs[i].release = NULL;
        }
    }
    p->n_children = n_children;
    arr->private_data = p;
    arr->release = release_array;
    arr->n_children = n_children;
    arr->children = n_children ? p->children : NULL;
    arr->buffers = p->buffers;
    return SIMDSV_OK;
}

/* Hands one of the column's buffers to the array (ownership moves). */
static void give(array_private *p, int slot, void *data, size_t size)
{
    p->owned[slot].data = data;
    p->owned[slot].size = size;
    p->buffers[slot] = data;
}

/* Bits past the last slot are left as zeros (bitmaps are built without
 * clearing memory first). */
static void clear_tail_bits(uint8_t *bitmap, uint64_t length)
{
    if (length % 8)
        bitmap[length / 8] &= (uint8_t)((1u << (length % 8)) - 1);
}

/* A view column's views and side blocks move to the array; its variadic
 * buffers are the input's windows (a reference to the shared input) and
 * the side blocks, and the last buffer their sizes, as the C data interface
 * lays out string_view. */
static simdsv_status export_views(const simdsv_allocator *a, column *c, array_private *p, struct ArrowArray *arr)
{
    const size_t variadic = simdsv__column_variadic_count(c);
    const size_t count = 2 + variadic + 1;
    if (!simdsv__column_close_side(a, c))
        return SIMDSV_ERR_NOMEM;
    p->view_buffers = simdsv__alloc(a, count * sizeof *p->view_buffers);
    p->sizes = simdsv__alloc(a, (variadic + 1) * sizeof *p->sizes); /* (+1: never an empty allocation) */
    p->blocks = c->nblocks ? simdsv__alloc(a, c->nblocks * sizeof *p->blocks) : NULL;
    if (!p->view_buffers || !p->sizes || (c->nblocks && !p->blocks)) {
        simdsv__free(a, p->view_buffers, count * sizeof *p->view_buffers);
        simdsv__free(a, p->sizes, (variadic + 1) * sizeof *p->sizes);
        simdsv__free(a, p->blocks, c->nblocks * sizeof *p->blocks);
        p->view_buffers = NULL;
        p->sizes = NULL;
        p->blocks = NULL;
        return SIMDSV_ERR_NOMEM;
    }
    p->view_buffer_count = count;
    p->view_buffers[0] = p->buffers[0];
    p->view_buffers[1] = p->buffers[1];
    for (size_t i = 0; i < variadic; i++) {
        const char *data;
        size_t size;
        simdsv__column_variadic(c, i, &data, &size);
        p->view_buffers[2 + i] = data;
        p->sizes[i] = (int64_t)size;
    }
    p->view_buffers[2 + variadic] = p->sizes;
    if (variadic && c->vin->windows) {
        simdsv__shared_input_retain(c->vin->shared);
        p->shared = c->vin->shared;
    }
    for (size_t b = 0; b < c->nblocks; b++)
        p->blocks[b] = (owned_buffer){c->blocks[b].data, c->blocks[b].cap};
    p->nblocks = c->nblocks;
    c->nblocks = 0; /* the blocks now belong to the array */
    arr->n_buffers = (int64_t)count;
    arr->buffers = p->view_buffers;
    return SIMDSV_OK;
}

static simdsv_status export_column(const simdsv_allocator *a, column *c, struct ArrowArray *arr, int *large)
{
    *large = c->type == SIMDSV_TYPE_STRING && c->chars_len > (size_t)INT32_MAX;
    simdsv_status st = init_array(arr, a, 0);
    if (st != SIMDSV_OK)
        return st;
    array_private *p = arr->private_data;
    arr->length = (int64_t)c->length;
    arr->null_count = (int64_t)c->null_count;
    if (c->type == SIMDSV_TYPE_NULL) {
        arr->n_buffers = 0;
        simdsv__column_free_data(a, c);
        return SIMDSV_OK;
    }
    /* Every buffer exists even for zero rows: consumers may dereference them. */
    if (!c->validity && !(c->validity = simdsv__alloc(a, 8)))
        return SIMDSV_ERR_NOMEM;
    if (!c->validity_cap) {
        memset(c->validity, 0, 8);
        c->validity_cap = 8;
    }
    if (!c->values && !(c->values = simdsv__alloc(a, 8)))
        return SIMDSV_ERR_NOMEM;
    if (!c->values_cap) {
        memset(c->values, 0, 8);
        c->values_cap = 8;
    }
    clear_tail_bits(c->validity, c->length);
    if (c->type == SIMDSV_TYPE_BOOL)
        clear_tail_bits(c->values, c->length);
    give(p, 0, c->validity, c->validity_cap);
    c->validity = NULL;
    c->validity_cap = 0;
    if (simdsv__column_views(c)) {
        give(p, 1, c->values, c->values_cap);
        c->values = NULL;
        c->values_cap = 0;
        const simdsv_status exported = export_views(a, c, p, arr);
        simdsv__column_free_data(a, c);
        return exported;
    }
    if (c->type != SIMDSV_TYPE_STRING) {
        arr->n_buffers = 2;
        give(p, 1, c->values, c->values_cap);
        c->values = NULL;
        c->values_cap = 0;
        simdsv__column_free_data(a, c);
        return SIMDSV_OK;
    }
    arr->n_buffers = 3;
    const size_t n = (size_t)c->length + 1;
    if (!c->offsets) { /* no rows: one offset, 0 */
        const size_t width = *large ? sizeof(int64_t) : sizeof(int32_t);
        void *zero = simdsv__alloc(a, width);
        if (!zero)
            return SIMDSV_ERR_NOMEM;
        memset(zero, 0, width);
        give(p, 1, zero, width);
    } else if (*large || !c->wide_offsets) {
        /* The builder's offsets as they are: int64 past INT32_MAX bytes
         * (widened then), int32 otherwise. */
        give(p, 1, c->offsets, c->offsets_cap * simdsv__offset_width(c));
    } else {
        /* Widened for bytes that then fit after all: narrowed in place (the
         * int32 at i overwrites bytes already read: 4i <= 8i) and shrunk.
         * Bytes, not typed pointers: the buffer changes type. */
        unsigned char *bytes = (unsigned char *)c->offsets;
        for (size_t i = 0; i < n; i++) {
            int64_t wide;
            memcpy(&wide, bytes + 8 * i, sizeof wide);
            const int32_t narrow = (int32_t)wide;
            memcpy(bytes + 4 * i, &narrow, sizeof narrow);
        }
        void *shrunk = simdsv__realloc(a, bytes, c->offsets_cap * sizeof(int64_t), n * sizeof(int32_t));
        if (shrunk)
            give(p, 1, shrunk, n * sizeof(int32_t));
        else /* the narrowed offsets are valid in the unshrunk buffer too */
            give(p, 1, bytes, c->offsets_cap * sizeof(int64_t));
    }
    c->offsets = NULL;
    c->offsets_cap = 0;
    if (!c->chars && !(c->chars = simdsv__alloc(a, 1)))
        return SIMDSV_ERR_NOMEM;
    give(p, 2, c->chars, c->chars_cap ? c->chars_cap : 1);
    c->chars = NULL;
    c->chars_cap = c->chars_len = 0;
    simdsv__column_free_data(a, c);
    return SIMDSV_OK;
}

simdsv_status simdsv_table_move_to_arrow(simdsv_table *t, struct ArrowSchema *schema, struct ArrowArray *array)
{
    if (!t || !schema || !array)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const simdsv_allocator *a = &t->alloc;
    const int64_t n = (int64_t)t->ncols;
    simdsv_status st = init_schema(schema, a, "+s", "", n, 0);
    if (st != SIMDSV_OK)
        return st;
    if ((st = init_array(array, a, n)) != SIMDSV_OK) {
        schema->release(schema);
        return st;
    }
    array->length = (int64_t)t->rows;
    array->null_count = 0;
    array->n_buffers = 1; /* a struct array: the validity buffer only, absent */
    array_private *ap = array->private_data;
    schema_private *sp = schema->private_data;
    for (int64_t i = 0; i < n && st == SIMDSV_OK; i++) {
        column *c = &t->cols[i];
        int large = 0;
        st = export_column(a, c, &ap->child_structs[i], &large);
        if (st == SIMDSV_OK)
            st = init_schema(&sp->child_structs[i], a, format_of(c, large), c->name, 0, ARROW_FLAG_NULLABLE);
    }
    if (st != SIMDSV_OK) {
        array->release(array);
        schema->release(schema);
        return st;
    }
    t->rows = 0; /* the rows now belong to the array */
    return SIMDSV_OK;
}
