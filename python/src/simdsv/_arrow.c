/*
 * _arrow.c — Arrow C data shared with Python consumers: views of one
 * exported table (same buffers, each keeping the table alive), deep copies
 * of its schema, and the PyCapsules they travel in (see _ext.h).
 */
#include "_ext.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- shared arrays, schemas */

void ext_holder_unref(holder *h)
{
    if (atomic_fetch_sub(&h->refs, 1) == 1) {
        if (h->array.release)
            h->array.release(&h->array);
        for (size_t k = 0; k < h->nmore; k++)
            if (h->more[k].release)
                h->more[k].release(&h->more[k]);
        free(h->more);
        if (h->schema.release)
            h->schema.release(&h->schema);
        free(h);
    }
}

typedef struct view_private {
    holder *owner;
} view_private;

static void view_release(struct ArrowArray *a)
{
    for (int64_t i = 0; i < a->n_children; i++) {
        if (a->children[i]->release)
            a->children[i]->release(a->children[i]);
        free(a->children[i]);
    }
    free(a->children);
    view_private *p = a->private_data;
    ext_holder_unref(p->owner);
    free(p);
    a->release = NULL;
}

/* out: a view of src (same buffers) that keeps owner alive; 0 when out of memory. */
int ext_view_of(const struct ArrowArray *src, holder *owner, struct ArrowArray *out)
{
    *out = *src;
    out->children = NULL;
    out->dictionary = NULL; /* simdsv exports no dictionaries */
    view_private *p = malloc(sizeof *p);
    struct ArrowArray **kids = src->n_children ? calloc((size_t)src->n_children, sizeof *kids) : NULL;
    if (!p || (src->n_children && !kids)) {
        free(p);
        free(kids);
        return 0;
    }
    int64_t made = 0;
    for (; made < src->n_children; made++) {
        kids[made] = malloc(sizeof **kids);
        if (!kids[made] || !ext_view_of(src->children[made], owner, kids[made])) {
            free(kids[made]);
            break;
        }
    }
    if (made < src->n_children) {
        for (int64_t i = 0; i < made; i++) {
            kids[i]->release(kids[i]);
            free(kids[i]);
        }
        free(kids);
        free(p);
        return 0;
    }
    atomic_fetch_add(&owner->refs, 1);
    p->owner = owner;
    out->children = kids;
    out->private_data = p;
    out->release = view_release;
    return 1;
}

/* Deep copies of a schema: every consumer gets its own. */
typedef struct schema_private {
    char *format, *name, *metadata;
    size_t metadata_size;
} schema_private;

static void schema_copy_release(struct ArrowSchema *s)
{
    for (int64_t i = 0; i < s->n_children; i++) {
        if (s->children[i]->release)
            s->children[i]->release(s->children[i]);
        free(s->children[i]);
    }
    free(s->children);
    schema_private *p = s->private_data;
    free(p->format);
    free(p->name);
    free(p->metadata);
    free(p);
    s->release = NULL;
}

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    const size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Arrow metadata: int32 count, then (int32 length, bytes) key/value pairs. */
static size_t metadata_size(const char *m)
{
    if (!m)
        return 0;
    int32_t n, len;
    memcpy(&n, m, 4);
    size_t at = 4;
    for (int32_t i = 0; i < 2 * n; i++) {
        memcpy(&len, m + at, 4);
        at += 4 + (size_t)len;
    }
    return at;
}

int ext_schema_copy(const struct ArrowSchema *src, struct ArrowSchema *out)
{
    memset(out, 0, sizeof *out);
    schema_private *p = calloc(1, sizeof *p);
    if (!p)
        return 0;
    p->format = dup_or_null(src->format);
    p->name = dup_or_null(src->name);
    p->metadata_size = metadata_size(src->metadata);
    if (p->metadata_size && (p->metadata = malloc(p->metadata_size)))
        memcpy(p->metadata, src->metadata, p->metadata_size);
    out->format = p->format;
    out->name = p->name;
    out->metadata = p->metadata;
    out->flags = src->flags;
    out->private_data = p;
    out->release = schema_copy_release;
    int ok = p->format && (!src->name || p->name) && (!p->metadata_size || p->metadata);
    if (ok && src->n_children) {
        out->children = calloc((size_t)src->n_children, sizeof *out->children);
        ok = out->children != NULL;
        for (int64_t i = 0; ok && i < src->n_children; i++) {
            out->children[i] = malloc(sizeof **out->children);
            ok = out->children[i] && ext_schema_copy(src->children[i], out->children[i]);
            if (out->children[i] && !ok)
                free(out->children[i]);
            else if (ok)
                out->n_children = i + 1;
        }
    }
    if (!ok) {
        schema_copy_release(out);
        return 0;
    }
    return 1;
}

static void capsule_stream_destructor(PyObject *capsule)
{
    struct ArrowArrayStream *s = PyCapsule_GetPointer(capsule, "arrow_array_stream");
    if (s && s->release)
        s->release(s);
    free(s);
}

static void capsule_schema_destructor(PyObject *capsule)
{
    struct ArrowSchema *s = PyCapsule_GetPointer(capsule, "arrow_schema");
    if (s && s->release)
        s->release(s);
    free(s);
}

static void capsule_array_destructor(PyObject *capsule)
{
    struct ArrowArray *a = PyCapsule_GetPointer(capsule, "arrow_array");
    if (a && a->release)
        a->release(a);
    free(a);
}

PyObject *ext_schema_capsule(struct ArrowSchema *p)
{
    PyObject *capsule = PyCapsule_New(p, "arrow_schema", capsule_schema_destructor);
    if (!capsule) {
        p->release(p);
        free(p);
    }
    return capsule;
}

PyObject *ext_array_capsule(struct ArrowArray *p)
{
    PyObject *capsule = PyCapsule_New(p, "arrow_array", capsule_array_destructor);
    if (!capsule) {
        p->release(p);
        free(p);
    }
    return capsule;
}

PyObject *ext_stream_capsule(struct ArrowArrayStream filled)
{
    struct ArrowArrayStream *s = malloc(sizeof *s);
    if (!s) {
        filled.release(&filled);
        return PyErr_NoMemory();
    }
    *s = filled;
    PyObject *capsule = PyCapsule_New(s, "arrow_array_stream", capsule_stream_destructor);
    if (!capsule) {
        s->release(s);
        free(s);
    }
    return capsule;
}

/* A stream handed to a consumer: the Python object that owns what the stream
 * reads (an input, a dataset) rides along, so that it outlives the stream. */
typedef struct handed {
    struct ArrowArrayStream inner;
    PyObject *keep; /* a strong reference, dropped with the GIL */
} handed;

static int handed_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    handed *h = s->private_data;
    return h->inner.get_schema(&h->inner, out);
}

static int handed_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    handed *h = s->private_data;
    return h->inner.get_next(&h->inner, out);
}

static const char *handed_get_last_error(struct ArrowArrayStream *s)
{
    handed *h = s->private_data;
    return h->inner.get_last_error(&h->inner);
}

static void handed_release(struct ArrowArrayStream *s)
{
    handed *h = s->private_data;
    h->inner.release(&h->inner);
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF(h->keep);
    PyGILState_Release(g);
    free(h);
    s->release = NULL;
}

PyObject *ext_stream_capsule_keeping(struct ArrowArrayStream *stream, PyObject *keep)
{
    handed *h = calloc(1, sizeof *h);
    if (!h)
        return PyErr_NoMemory();
    h->inner = *stream;
    stream->release = NULL;
    h->keep = Py_NewRef(keep);
    return ext_stream_capsule(
        (struct ArrowArrayStream){handed_get_schema, handed_get_next, handed_get_last_error, handed_release, h});
}
