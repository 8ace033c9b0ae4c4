/*
 * _simdsv.c — the Python extension: a thin layer over include/simdsv.h only.
 *
 * Tables are handed to Python as Arrow C data behind the Arrow PyCapsule
 * interface, never copied: a table's exported struct array is owned by a
 * reference-counted holder, and every stream handed out gives the consumer
 * a tree of ArrowArray views (same buffers, their own release) that keep
 * the holder alive, so pyarrow, polars and duckdb can each take the same
 * table, in any order, from any thread.  Options arrive as two dicts keyed
 * by the header's option ids ({id: int}, {id: str}); simdsv/_options.py
 * builds them from keyword arguments.  Long calls release the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdsv.h"

static PyObject *simdsv_error_type; /* simdsv.Error, created here */

/* ---------------------------------------------------------------- errors */

/* Raises simdsv.Error from a simdsv_error; where names the input. */
static PyObject *raise_error(const simdsv_error *e, simdsv_status st, const char *where)
{
    if (st == SIMDSV_ERR_NOMEM)
        return PyErr_NoMemory();
    char text[512];
    const char *msg = e && e->message[0] ? e->message : simdsv_status_message(st);
    if (e && (e->line || e->byte_offset))
        snprintf(text, sizeof text, "%s:%llu:%llu: %s (byte %llu)", where, (unsigned long long)e->line,
                 (unsigned long long)e->column, msg, (unsigned long long)e->byte_offset);
    else
        snprintf(text, sizeof text, "%s: %s", where, msg);
    PyObject *exc = PyObject_CallFunction(simdsv_error_type, "s", text);
    if (!exc)
        return NULL;
    PyObject_SetAttrString(exc, "code", PyUnicode_FromString(simdsv_status_name(st)));
    PyObject *values[] = {
        PyLong_FromUnsignedLongLong(e ? e->line : 0), PyLong_FromUnsignedLongLong(e ? e->column : 0),
        PyLong_FromUnsignedLongLong(e ? e->byte_offset : 0), PyLong_FromUnsignedLongLong(e ? e->record : 0),
        PyLong_FromUnsignedLongLong(e ? e->field : 0), PyUnicode_FromString(msg)};
    const char *names[] = {"line", "column", "byte_offset", "record", "field", "reason"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        if (values[i])
            PyObject_SetAttrString(exc, names[i], values[i]);
        Py_XDECREF(values[i]);
    }
    if (e && e->os_errno)
        PyObject_SetAttrString(exc, "errno", PyLong_FromLong(e->os_errno));
    PyErr_SetObject(simdsv_error_type, exc);
    Py_DECREF(exc);
    return NULL;
}

/* --------------------------------------------------------------- options */

static simdsv_options *make_options(PyObject *ints, PyObject *strings)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    if (!opt) {
        PyErr_NoMemory();
        return NULL;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (ints && ints != Py_None && PyDict_Next(ints, &pos, &key, &value)) {
        const long id = PyLong_AsLong(key);
        const long long v = PyLong_AsLongLong(value);
        if (PyErr_Occurred())
            goto fail;
        if (simdsv_options_set(opt, (simdsv_option)id, v) != SIMDSV_OK) {
            PyErr_Format(PyExc_ValueError, "option %ld: %lld is out of range", id, v);
            goto fail;
        }
    }
    pos = 0;
    while (strings && strings != Py_None && PyDict_Next(strings, &pos, &key, &value)) {
        const long id = PyLong_AsLong(key);
        const char *s = PyUnicode_AsUTF8(value);
        if (!s)
            goto fail;
        if (simdsv_options_set_string(opt, (simdsv_string_option)id, s) != SIMDSV_OK) {
            PyErr_Format(PyExc_ValueError, "malformed option value %R", value);
            goto fail;
        }
    }
    return opt;
fail:
    simdsv_options_free(opt);
    return NULL;
}

/* An input: a path (str, bytes or os.PathLike) or a buffer (bytes,
 * memoryview, mmap, ...), which stays held while the reader needs it. */
typedef struct input {
    PyObject *path;  /* bytes (fs-encoded), or NULL */
    Py_buffer view;  /* view.obj != NULL when a buffer */
    const char *name;
} input;

static int input_get(PyObject *src, input *in)
{
    memset(in, 0, sizeof *in);
    if (PyObject_CheckBuffer(src) && !PyBytes_Check(src)) {
        if (PyObject_GetBuffer(src, &in->view, PyBUF_SIMPLE) != 0)
            return -1;
        in->name = "<buffer>";
        return 0;
    }
    if (!PyUnicode_FSConverter(src, &in->path))
        return -1;
    in->name = PyBytes_AS_STRING(in->path);
    return 0;
}

static void input_release(input *in)
{
    Py_CLEAR(in->path);
    if (in->view.obj)
        PyBuffer_Release(&in->view);
}

/* A reader over the input; NULL with an exception set. */
static simdsv_reader *open_reader(const simdsv_options *opt, input *in)
{
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, opt);
    if (st != SIMDSV_OK) {
        simdsv_error e;
        memset(&e, 0, sizeof e);
        raise_error(&e, st, in->name);
        return NULL;
    }
    if (in->view.obj)
        st = simdsv_reader_open_memory(r, in->view.buf, (size_t)in->view.len);
    else
        st = simdsv_reader_open_path(r, PyBytes_AS_STRING(in->path));
    if (st != SIMDSV_OK) {
        if (st == SIMDSV_ERR_IO) {
            errno = simdsv_reader_error(r)->os_errno;
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, in->path);
        } else {
            raise_error(simdsv_reader_error(r), st, in->name);
        }
        simdsv_reader_free(r);
        return NULL;
    }
    return r;
}

/* ------------------------------------------------- shared arrays, schemas */

/* The exported table, released when the last view (and the Table) is gone. */
typedef struct holder {
    atomic_long refs;
    struct ArrowArray array;
    struct ArrowSchema schema;
} holder;

static void holder_unref(holder *h)
{
    if (atomic_fetch_sub(&h->refs, 1) == 1) {
        if (h->array.release)
            h->array.release(&h->array);
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
    holder_unref(p->owner);
    free(p);
    a->release = NULL;
}

/* out: a view of src (same buffers) that keeps owner alive; 0 when out of memory. */
static int view_of(const struct ArrowArray *src, holder *owner, struct ArrowArray *out)
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
        if (!kids[made] || !view_of(src->children[made], owner, kids[made])) {
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

static int schema_copy(const struct ArrowSchema *src, struct ArrowSchema *out)
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
            ok = out->children[i] && schema_copy(src->children[i], out->children[i]);
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

/* A stream of one batch: the holder's array (an empty table still has its schema). */
typedef struct one_batch {
    holder *owner;
    int done;
} one_batch;

static int one_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    one_batch *b = s->private_data;
    return schema_copy(&b->owner->schema, out) ? 0 : ENOMEM;
}

static int one_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    one_batch *b = s->private_data;
    if (b->done || b->owner->array.length == 0) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (!view_of(&b->owner->array, b->owner, out))
        return ENOMEM;
    b->done = 1;
    return 0;
}

static const char *one_get_last_error(struct ArrowArrayStream *s)
{
    (void)s;
    return "out of memory";
}

static void one_release(struct ArrowArrayStream *s)
{
    one_batch *b = s->private_data;
    holder_unref(b->owner);
    free(b);
    s->release = NULL;
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

/* An "arrow_array_stream" capsule owning a copy of filled (released on failure). */
static PyObject *stream_capsule(struct ArrowArrayStream filled)
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

/* ----------------------------------------------------------------- Table */

typedef struct {
    PyObject_HEAD
    holder *data;
    PyObject *columns; /* list of (name, type, reason, null_count) */
    PyObject *rejects; /* list of (line, row, column, byte_offset, value, reason) */
} TableObject;

static void Table_dealloc(TableObject *self)
{
    if (self->data)
        holder_unref(self->data);
    Py_XDECREF(self->columns);
    Py_XDECREF(self->rejects);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Table_arrow_c_stream(TableObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &requested))
        return NULL;
    (void)requested; /* the table has one schema: consumers cast if they wish */
    one_batch *b = calloc(1, sizeof *b);
    if (!b)
        return PyErr_NoMemory();
    atomic_fetch_add(&self->data->refs, 1);
    b->owner = self->data;
    return stream_capsule((struct ArrowArrayStream){one_get_schema, one_get_next, one_get_last_error, one_release, b});
}

static PyObject *Table_arrow_c_schema(TableObject *self, PyObject *unused)
{
    (void)unused;
    struct ArrowSchema *s = malloc(sizeof *s);
    if (!s || !schema_copy(&self->data->schema, s)) {
        free(s);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(s, "arrow_schema", capsule_schema_destructor);
    if (!capsule) {
        s->release(s);
        free(s);
    }
    return capsule;
}

/* (schema capsule, array capsule): the whole table as one struct array. */
static PyObject *Table_arrow_c_array(TableObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &requested))
        return NULL;
    PyObject *schema = Table_arrow_c_schema(self, NULL);
    if (!schema)
        return NULL;
    struct ArrowArray *a = malloc(sizeof *a);
    if (!a || !view_of(&self->data->array, self->data, a)) {
        free(a);
        Py_DECREF(schema);
        return PyErr_NoMemory();
    }
    PyObject *array = PyCapsule_New(a, "arrow_array", capsule_array_destructor);
    if (!array) {
        a->release(a);
        free(a);
        Py_DECREF(schema);
        return NULL;
    }
    PyObject *pair = PyTuple_Pack(2, schema, array);
    Py_DECREF(schema);
    Py_DECREF(array);
    return pair;
}

static PyObject *Table_num_rows(TableObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->data->array.length);
}

static PyObject *Table_columns(TableObject *self, void *closure)
{
    (void)closure;
    Py_INCREF(self->columns);
    return self->columns;
}

static PyObject *Table_rejects(TableObject *self, void *closure)
{
    (void)closure;
    Py_INCREF(self->rejects);
    return self->rejects;
}

static PyMethodDef Table_methods[] = {
    {"__arrow_c_stream__", (PyCFunction)(void (*)(void))Table_arrow_c_stream, METH_VARARGS | METH_KEYWORDS,
     "The table as an Arrow C stream of one record batch (a PyCapsule); the buffers are shared, not copied."},
    {"__arrow_c_schema__", (PyCFunction)Table_arrow_c_schema, METH_NOARGS,
     "The table's schema as an Arrow C schema (a PyCapsule)."},
    {"__arrow_c_array__", (PyCFunction)(void (*)(void))Table_arrow_c_array, METH_VARARGS | METH_KEYWORDS,
     "The table as (schema, struct array) PyCapsules; the buffers are shared, not copied."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Table_getset[] = {
    {"num_rows", (getter)Table_num_rows, NULL, "Number of rows.", NULL},
    {"column_info", (getter)Table_columns, NULL, "[(name, type, reason, null_count)] per column.", NULL},
    {"rejects", (getter)Table_rejects, NULL,
     "[(line, row, column, byte_offset, value, reason)]: values made null (on_error='null').", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "simdsv._simdsv.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A typed table read by simdsv, held as Arrow data (use simdsv.read_csv).",
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
    .tp_new = NULL,
};

/* Library text as str; bytes that are not UTF-8 become U+FFFD. */
static PyObject *text_of(const char *s)
{
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* A Table from a read table (consumed: its rows are moved out). */
static PyObject *table_object(simdsv_table *t)
{
    PyObject *columns = PyList_New(0), *rejects = PyList_New(0);
    for (size_t j = 0; columns && j < simdsv_table_columns(t); j++) {
        simdsv_column_info info;
        simdsv_table_column(t, j, &info);
        /* (reasons quote a value cut to a length, maybe inside a UTF-8 sequence) */
        PyObject *reason = info.reason ? text_of(info.reason) : Py_NewRef(Py_None);
        PyObject *item = reason ? Py_BuildValue("(ssOK)", info.name, simdsv_type_name(info.type), reason,
                                                (unsigned long long)info.null_count)
                                : NULL;
        Py_XDECREF(reason);
        if (!item || PyList_Append(columns, item) != 0)
            Py_CLEAR(columns);
        Py_XDECREF(item);
    }
    for (size_t i = 0; rejects && i < simdsv_table_reject_count(t); i++) {
        const simdsv_reject *rj = simdsv_table_reject(t, i);
        PyObject *value = text_of(rj->value), *reason = text_of(rj->reason);
        PyObject *item = value && reason ? Py_BuildValue("(KKnKOO)", (unsigned long long)rj->line,
                                                         (unsigned long long)rj->row, (Py_ssize_t)rj->column,
                                                         (unsigned long long)rj->byte_offset, value, reason)
                                         : NULL;
        Py_XDECREF(value);
        Py_XDECREF(reason);
        if (!item || PyList_Append(rejects, item) != 0)
            Py_CLEAR(rejects);
        Py_XDECREF(item);
    }
    holder *h = calloc(1, sizeof *h);
    TableObject *self = columns && rejects && h ? PyObject_New(TableObject, &TableType) : NULL;
    if (!self) {
        Py_XDECREF(columns);
        Py_XDECREF(rejects);
        free(h);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    atomic_init(&h->refs, 1);
    self->data = h;
    self->columns = columns;
    self->rejects = rejects;
    if (simdsv_table_move_to_arrow(t, &h->schema, &h->array) != SIMDSV_OK) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

/* Reads r into a Table (the GIL released meanwhile); frees r. */
static PyObject *read_into_table(simdsv_reader *r, const char *name, int schema_only)
{
    simdsv_table *t = NULL;
    simdsv_status st;
    Py_BEGIN_ALLOW_THREADS
    st = schema_only ? simdsv_table_infer(r, &t) : simdsv_table_read(r, &t);
    Py_END_ALLOW_THREADS
    PyObject *result = st == SIMDSV_OK ? table_object(t) : raise_error(simdsv_reader_error(r), st, name);
    simdsv_table_free(t);
    simdsv_reader_free(r);
    return result;
}

static PyObject *py_read_table(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    int schema_only = 0;
    if (!PyArg_ParseTuple(args, "OOO|p", &src, &ints, &strings, &schema_only))
        return NULL;
    input in;
    if (input_get(src, &in) != 0)
        return NULL;
    simdsv_options *opt = make_options(ints, strings);
    simdsv_reader *r = opt ? open_reader(opt, &in) : NULL;
    simdsv_options_free(opt);
    PyObject *result = r ? read_into_table(r, in.name, schema_only) : NULL;
    input_release(&in);
    return result;
}

/* ---------------------------------------------------------------- Stream */

typedef struct {
    PyObject_HEAD
    struct ArrowArrayStream stream; /* release == NULL once handed out or closed */
    input in; /* a buffer input stays held while a consumer holds the stream (see handed) */
} StreamObject;

/* A stream handed to a consumer: the input's owner rides along. */
typedef struct handed {
    struct ArrowArrayStream inner;
    StreamObject *keep; /* a strong reference, dropped with the GIL */
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

static void Stream_dealloc(StreamObject *self)
{
    if (self->stream.release)
        self->stream.release(&self->stream);
    input_release(&self->in);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int stream_usable(StreamObject *self)
{
    if (self->stream.release)
        return 1;
    PyErr_SetString(PyExc_ValueError, "the stream was already consumed");
    return 0;
}

/* Raises simdsv.Error from the stream's last error text. */
static PyObject *stream_error(StreamObject *self, int code)
{
    if (code == ENOMEM)
        return PyErr_NoMemory();
    const char *msg = self->stream.get_last_error(&self->stream);
    PyErr_Format(simdsv_error_type, "%s: %s", self->in.name, msg ? msg : "read error");
    return NULL;
}

static PyObject *Stream_arrow_c_stream(StreamObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &requested) || !stream_usable(self))
        return NULL;
    handed *h = calloc(1, sizeof *h);
    if (!h)
        return PyErr_NoMemory();
    h->inner = self->stream;
    self->stream.release = NULL;
    Py_INCREF(self);
    h->keep = self;
    return stream_capsule(
        (struct ArrowArrayStream){handed_get_schema, handed_get_next, handed_get_last_error, handed_release, h});
}

static PyObject *Stream_schema(StreamObject *self, PyObject *unused)
{
    (void)unused;
    if (!stream_usable(self))
        return NULL;
    struct ArrowSchema *s = calloc(1, sizeof *s);
    if (!s)
        return PyErr_NoMemory();
    int code;
    Py_BEGIN_ALLOW_THREADS
    code = self->stream.get_schema(&self->stream, s);
    Py_END_ALLOW_THREADS
    if (code) {
        free(s);
        return stream_error(self, code);
    }
    return PyCapsule_New(s, "arrow_schema", capsule_schema_destructor);
}

/* The next batch as an "arrow_array" capsule, or None at the end. */
static PyObject *Stream_next_batch(StreamObject *self, PyObject *unused)
{
    (void)unused;
    if (!stream_usable(self))
        return NULL;
    struct ArrowArray *a = calloc(1, sizeof *a);
    if (!a)
        return PyErr_NoMemory();
    int code;
    Py_BEGIN_ALLOW_THREADS
    code = self->stream.get_next(&self->stream, a);
    Py_END_ALLOW_THREADS
    if (code) {
        free(a);
        return stream_error(self, code);
    }
    if (!a->release) {
        free(a);
        Py_RETURN_NONE;
    }
    return PyCapsule_New(a, "arrow_array", capsule_array_destructor);
}

static PyObject *Stream_close(StreamObject *self, PyObject *unused)
{
    (void)unused;
    if (self->stream.release)
        self->stream.release(&self->stream);
    Py_RETURN_NONE;
}

static PyMethodDef Stream_methods[] = {
    {"__arrow_c_stream__", (PyCFunction)(void (*)(void))Stream_arrow_c_stream, METH_VARARGS | METH_KEYWORDS,
     "Hands the stream of record batches to a consumer (once)."},
    {"schema_capsule", (PyCFunction)Stream_schema, METH_NOARGS, "The stream's schema (an arrow_schema capsule)."},
    {"next_batch", (PyCFunction)Stream_next_batch, METH_NOARGS,
     "The next record batch (an arrow_array capsule of a struct array), or None at the end."},
    {"close", (PyCFunction)Stream_close, METH_NOARGS, "Releases the reader."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject StreamType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "simdsv._simdsv.Stream",
    .tp_basicsize = sizeof(StreamObject),
    .tp_dealloc = (destructor)Stream_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Record batches read in bounded memory (use simdsv.open_csv).",
    .tp_methods = Stream_methods,
};

static PyObject *py_open_stream(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    if (!PyArg_ParseTuple(args, "OOO", &src, &ints, &strings))
        return NULL;
    StreamObject *self = PyObject_New(StreamObject, &StreamType);
    if (!self)
        return NULL;
    memset(&self->stream, 0, sizeof self->stream);
    if (input_get(src, &self->in) != 0) {
        memset(&self->in, 0, sizeof self->in);
        Py_DECREF(self);
        return NULL;
    }
    simdsv_options *opt = make_options(ints, strings);
    simdsv_reader *r = opt ? open_reader(opt, &self->in) : NULL;
    simdsv_options_free(opt);
    if (!r) {
        Py_DECREF(self);
        return NULL;
    }
    simdsv_status st;
    Py_BEGIN_ALLOW_THREADS
    st = simdsv_table_stream(r, &self->stream);
    Py_END_ALLOW_THREADS
    if (st != SIMDSV_OK) {
        raise_error(simdsv_reader_error(r), st, self->in.name);
        simdsv_reader_free(r);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* --------------------------------------------------------------- Records */

typedef struct {
    PyObject_HEAD
    simdsv_reader *r;
    input in;
    int lossy;
    PyObject *header; /* list of str, or None */
} RecordsObject;

static void Records_dealloc(RecordsObject *self)
{
    simdsv_reader_free(self->r);
    input_release(&self->in);
    Py_XDECREF(self->header);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *field_text(RecordsObject *self, const simdsv_field *f, int decode)
{
    const char *d = f->data;
    size_t n = f->size;
    if (decode && simdsv_reader_unescape(self->r, f, &d, &n) != SIMDSV_OK)
        return PyErr_NoMemory();
    return PyUnicode_DecodeUTF8(d, (Py_ssize_t)n, self->lossy ? "replace" : "strict");
}

static PyObject *record_list(RecordsObject *self, const simdsv_record *rec, int decode)
{
    PyObject *list = PyList_New((Py_ssize_t)rec->field_count);
    for (size_t i = 0; list && i < rec->field_count; i++) {
        PyObject *s = field_text(self, &rec->fields[i], decode);
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    return list;
}

static PyObject *Records_next(RecordsObject *self)
{
    simdsv_record rec;
    const simdsv_status st = simdsv_reader_next(self->r, &rec);
    if (st == SIMDSV_END)
        return NULL; /* StopIteration */
    if (st != SIMDSV_OK)
        return raise_error(simdsv_reader_error(self->r), st, self->in.name);
    return record_list(self, &rec, 1);
}

static PyObject *Records_header(RecordsObject *self, void *closure)
{
    (void)closure;
    Py_INCREF(self->header);
    return self->header;
}

static PyGetSetDef Records_getset[] = {
    {"header", (getter)Records_header, NULL, "The header row (a list of str), or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject RecordsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "simdsv._simdsv.Records",
    .tp_basicsize = sizeof(RecordsObject),
    .tp_dealloc = (destructor)Records_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An iterator of records, each a list of str (use simdsv.records).",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Records_next,
    .tp_getset = Records_getset,
};

static PyObject *py_records(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    int lossy = 0, header = 0;
    if (!PyArg_ParseTuple(args, "OOOpp", &src, &ints, &strings, &lossy, &header))
        return NULL;
    RecordsObject *self = PyObject_New(RecordsObject, &RecordsType);
    if (!self)
        return NULL;
    self->r = NULL;
    self->lossy = lossy;
    self->header = Py_None;
    Py_INCREF(Py_None);
    if (input_get(src, &self->in) != 0) {
        memset(&self->in, 0, sizeof self->in);
        Py_DECREF(self);
        return NULL;
    }
    simdsv_options *opt = make_options(ints, strings);
    self->r = opt ? open_reader(opt, &self->in) : NULL;
    simdsv_options_free(opt);
    if (!self->r) {
        Py_DECREF(self);
        return NULL;
    }
    if (header) {
        simdsv_record rec;
        const simdsv_status st = simdsv_reader_header(self->r, &rec);
        if (st == SIMDSV_OK) {
            PyObject *names = record_list(self, &rec, 0);
            if (!names) {
                Py_DECREF(self);
                return NULL;
            }
            Py_SETREF(self->header, names);
        } else if (st != SIMDSV_END) {
            raise_error(simdsv_reader_error(self->r), st, self->in.name);
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

/* ----------------------------------------------------------------- count */

static PyObject *py_count(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    if (!PyArg_ParseTuple(args, "OOO", &src, &ints, &strings))
        return NULL;
    input in;
    if (input_get(src, &in) != 0)
        return NULL;
    simdsv_options *opt = make_options(ints, strings);
    simdsv_reader *r = opt ? open_reader(opt, &in) : NULL;
    simdsv_options_free(opt);
    PyObject *result = NULL;
    if (r) {
        uint64_t n = 0;
        simdsv_status st;
        Py_BEGIN_ALLOW_THREADS
        st = simdsv_reader_count(r, &n);
        Py_END_ALLOW_THREADS
        result = st == SIMDSV_END || st == SIMDSV_OK ? PyLong_FromUnsignedLongLong(n)
                                                     : raise_error(simdsv_reader_error(r), st, in.name);
        simdsv_reader_free(r);
    }
    input_release(&in);
    return result;
}

/* ---------------------------------------------------------------- ranges */

/* range_summary(bytes, begin, prev_byte, ints, strings) -> tuple of the summary's fields */
static PyObject *py_range_summary(PyObject *mod, PyObject *args)
{
    (void)mod;
    Py_buffer view;
    unsigned long long begin;
    int prev;
    PyObject *ints, *strings;
    if (!PyArg_ParseTuple(args, "y*KiOO", &view, &begin, &prev, &ints, &strings))
        return NULL;
    simdsv_options *opt = make_options(ints, strings);
    PyObject *result = NULL;
    if (opt) {
        simdsv_range_summary s;
        simdsv_error e;
        simdsv_status st;
        Py_BEGIN_ALLOW_THREADS
        st = simdsv_range_summarize(opt, view.buf, (size_t)view.len, begin, prev, &s, &e);
        Py_END_ALLOW_THREADS
        if (st != SIMDSV_OK)
            raise_error(&e, st, "range");
        else
            result = Py_BuildValue("(KK(KK)(KK)(ii)KiK)", (unsigned long long)s.begin, (unsigned long long)s.end,
                                   (unsigned long long)s.record_start[0], (unsigned long long)s.record_start[1],
                                   (unsigned long long)s.lines_to_start[0], (unsigned long long)s.lines_to_start[1],
                                   s.after_cr[0], s.after_cr[1], (unsigned long long)s.lines, s.quote_parity,
                                   (unsigned long long)s.header_end);
        simdsv_options_free(opt);
    }
    PyBuffer_Release(&view);
    return result;
}

/* range_combine([summary tuples]) -> [(start, stop, line, after_cr, in_quote)] */
static PyObject *py_range_combine(PyObject *mod, PyObject *arg)
{
    (void)mod;
    PyObject *seq = PySequence_Fast(arg, "a sequence of summaries");
    if (!seq)
        return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    simdsv_range_summary *s = calloc(n ? (size_t)n : 1, sizeof *s);
    simdsv_range *out = calloc(n ? (size_t)n : 1, sizeof *out);
    PyObject *result = NULL;
    if (!s || !out) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long b, e, r0, r1, l0, l1, lines, hend;
        int c0, c1, parity;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "KK(KK)(KK)(ii)KiK", &b, &e, &r0, &r1, &l0, &l1, &c0,
                              &c1, &lines, &parity, &hend))
            goto done;
        s[i] = (simdsv_range_summary){b, e, {r0, r1}, {l0, l1}, {(uint8_t)c0, (uint8_t)c1}, lines, (uint8_t)parity,
                                      hend};
    }
    if (simdsv_range_combine(s, (size_t)n, out) != SIMDSV_OK) {
        PyErr_SetString(simdsv_error_type,
                        n > 1 && s[0].header_end == UINT64_MAX
                            ? "the header row does not end in the first range: use larger ranges"
                            : "the ranges do not cover the input from 0, in order");
        goto done;
    }
    result = PyList_New(n);
    for (Py_ssize_t i = 0; result && i < n; i++) {
        PyObject *t = Py_BuildValue("(KKKii)", (unsigned long long)out[i].start, (unsigned long long)out[i].stop,
                                    (unsigned long long)out[i].line, out[i].after_cr, out[i].in_quote);
        if (!t) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, t);
    }
done:
    free(s);
    free(out);
    Py_DECREF(seq);
    return result;
}

/* read_range(bytes, (start, stop, line, after_cr, in_quote), ints, strings, name) -> Table */
static PyObject *py_read_range(PyObject *mod, PyObject *args)
{
    (void)mod;
    Py_buffer view;
    simdsv_range range;
    int after_cr, in_quote;
    unsigned long long start, stop, line;
    PyObject *ints, *strings;
    const char *name;
    if (!PyArg_ParseTuple(args, "y*(KKKii)OOs", &view, &start, &stop, &line, &after_cr, &in_quote, &ints, &strings,
                          &name))
        return NULL;
    range = (simdsv_range){start, stop, line, (uint8_t)after_cr, (uint8_t)in_quote};
    PyObject *result = NULL;
    simdsv_options *opt = NULL;
    simdsv_reader *r = NULL;
    if ((unsigned long long)view.len != stop - start) {
        PyErr_SetString(PyExc_ValueError, "the bytes given are not the range's");
        goto done;
    }
    if (!(opt = make_options(ints, strings)))
        goto done;
    simdsv_status st = simdsv_reader_new(&r, opt);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_range(r, view.buf, &range);
    if (st != SIMDSV_OK) {
        raise_error(r ? simdsv_reader_error(r) : NULL, st, name);
        goto done;
    }
    result = read_into_table(r, name, 0);
    r = NULL;
done:
    simdsv_reader_free(r);
    simdsv_options_free(opt);
    PyBuffer_Release(&view);
    return result;
}

/* ---------------------------------------------------------------- module */

static PyMethodDef module_methods[] = {
    {"read_table", py_read_table, METH_VARARGS, "read_table(src, ints, strings[, schema_only]) -> Table"},
    {"open_stream", py_open_stream, METH_VARARGS, "open_stream(src, ints, strings) -> Stream"},
    {"records", py_records, METH_VARARGS, "records(src, ints, strings, lossy, header) -> Records"},
    {"count", py_count, METH_VARARGS, "count(src, ints, strings) -> int"},
    {"range_summary", py_range_summary, METH_VARARGS, "range_summary(bytes, begin, prev_byte, ints, strings)"},
    {"range_combine", py_range_combine, METH_O, "range_combine([summary]) -> [(start, stop, line, after_cr, in_quote)]"},
    {"read_range", py_read_range, METH_VARARGS, "read_range(bytes, range, ints, strings, name) -> Table"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_simdsv",
                                        "The C layer of simdsv (use the simdsv package).", -1, module_methods,
                                        NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__simdsv(void)
{
    if (PyType_Ready(&TableType) < 0 || PyType_Ready(&StreamType) < 0 || PyType_Ready(&RecordsType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    simdsv_error_type = PyErr_NewExceptionWithDoc(
        "simdsv.Error",
        "A CSV reading error.  Attributes: code (e.g. 'SIMDSV_ERR_UNTERMINATED_QUOTE'), line, column "
        "(1-based, in characters), byte_offset, record, field, reason.",
        PyExc_ValueError, NULL);
    if (!simdsv_error_type || PyModule_AddObjectRef(m, "Error", simdsv_error_type) < 0 ||
        PyModule_AddObjectRef(m, "Table", (PyObject *)&TableType) < 0 ||
        PyModule_AddObjectRef(m, "Stream", (PyObject *)&StreamType) < 0 ||
        PyModule_AddStringConstant(m, "version", simdsv_version_string()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    const struct {
        const char *name;
        long value;
    } constants[] = {
        {"OPT_DELIMITER", SIMDSV_OPT_DELIMITER}, {"OPT_QUOTE", SIMDSV_OPT_QUOTE},
        {"OPT_ESCAPE", SIMDSV_OPT_ESCAPE},       {"OPT_COMMENT", SIMDSV_OPT_COMMENT},
        {"OPT_HEADER", SIMDSV_OPT_HEADER},       {"OPT_SKIP_LINES", SIMDSV_OPT_SKIP_LINES},
        {"OPT_LENIENT", SIMDSV_OPT_LENIENT},     {"OPT_UTF8", SIMDSV_OPT_UTF8},
        {"OPT_MMAP", SIMDSV_OPT_MMAP},           {"OPT_THREADS", SIMDSV_OPT_THREADS},
        {"OPT_INFER_ROWS", SIMDSV_OPT_INFER_ROWS}, {"OPT_ROW_LIMIT", SIMDSV_OPT_ROW_LIMIT},
        {"OPT_ON_ERROR", SIMDSV_OPT_ON_ERROR},   {"OPT_SHORT_ROWS", SIMDSV_OPT_SHORT_ROWS},
        {"OPT_LONG_ROWS", SIMDSV_OPT_LONG_ROWS}, {"OPT_DECIMAL_COMMA", SIMDSV_OPT_DECIMAL_COMMA},
        {"OPT_BATCH_ROWS", SIMDSV_OPT_BATCH_ROWS}, {"OPT_NULL_VALUES", SIMDSV_OPT_NULL_VALUES},
        {"OPT_TRUE_VALUES", SIMDSV_OPT_TRUE_VALUES}, {"OPT_FALSE_VALUES", SIMDSV_OPT_FALSE_VALUES},
        {"OPT_COLUMNS", SIMDSV_OPT_COLUMNS},     {"OPT_SCHEMA", SIMDSV_OPT_SCHEMA},
        {"OPT_NAMES", SIMDSV_OPT_NAMES},         {"UTF8_STRICT", SIMDSV_UTF8_STRICT},
        {"UTF8_LOSSY", SIMDSV_UTF8_LOSSY},       {"UTF8_NONE", SIMDSV_UTF8_NONE},
        {"ON_ERROR_FAIL", SIMDSV_ON_ERROR_FAIL}, {"ON_ERROR_NULL", SIMDSV_ON_ERROR_NULL},
        {"RAGGED_ERROR", SIMDSV_RAGGED_ERROR},   {"RAGGED_PAD", SIMDSV_RAGGED_PAD},
        {"RAGGED_TRUNCATE", SIMDSV_RAGGED_TRUNCATE}};
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
