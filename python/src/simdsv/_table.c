/*
 * _table.c — Table: a whole typed read held as one exported Arrow struct
 * array and shared with every consumer (read_table), and the byte ranges
 * through which Dask reads one file on many workers (range_summary,
 * range_combine, read_range).
 */
#include "_ext.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------- Table */

/* A stream of the holder's batches: its array, then the chunks after it;
 * those without rows left out (an empty table still has its schema). */
typedef struct one_batch {
    holder *owner;
    size_t next;
} one_batch;

static int one_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    one_batch *b = s->private_data;
    return ext_schema_copy(&b->owner->schema, out) ? 0 : ENOMEM;
}

static int one_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    one_batch *b = s->private_data;
    const holder *h = b->owner;
    while (b->next <= h->nmore && (b->next ? h->more[b->next - 1] : h->array).length == 0)
        b->next++;
    if (b->next > h->nmore) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (!ext_view_of(b->next ? &h->more[b->next - 1] : &h->array, b->owner, out))
        return ENOMEM;
    b->next++;
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
    ext_holder_unref(b->owner);
    free(b);
    s->release = NULL;
}

typedef struct {
    PyObject_HEAD
    holder *data;
    PyObject *columns; /* list of (name, type, reason, null_count) */
    PyObject *rejects; /* list of (line, row, column, byte_offset, value, reason) */
} TableObject;

static void Table_dealloc(TableObject *self)
{
    if (self->data)
        ext_holder_unref(self->data);
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
    return ext_stream_capsule((struct ArrowArrayStream){one_get_schema, one_get_next, one_get_last_error, one_release, b});
}

static PyObject *Table_arrow_c_schema(TableObject *self, PyObject *unused)
{
    (void)unused;
    struct ArrowSchema *s = malloc(sizeof *s);
    if (!s || !ext_schema_copy(&self->data->schema, s)) {
        free(s);
        return PyErr_NoMemory();
    }
    return ext_schema_capsule(s);
}

/* (schema capsule, array capsule): the whole table as one struct array.
 * A table of chunks is no one array: simdsv.Table joins them (a copy) when
 * a consumer asks for one. */
static PyObject *Table_arrow_c_array(TableObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &requested))
        return NULL;
    if (self->data->nmore) {
        PyErr_SetString(PyExc_ValueError, "a table of several chunks is no one array: read its stream");
        return NULL;
    }
    PyObject *schema = Table_arrow_c_schema(self, NULL);
    if (!schema)
        return NULL;
    struct ArrowArray *a = malloc(sizeof *a);
    if (!a || !ext_view_of(&self->data->array, self->data, a)) {
        free(a);
        Py_DECREF(schema);
        return PyErr_NoMemory();
    }
    PyObject *array = ext_array_capsule(a);
    if (!array) {
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
    long long rows = self->data->array.length;
    for (size_t k = 0; k < self->data->nmore; k++)
        rows += self->data->more[k].length;
    return PyLong_FromLongLong(rows);
}

static PyObject *Table_num_chunks(TableObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromSize_t(1 + self->data->nmore);
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
    {"num_chunks", (getter)Table_num_chunks, NULL, "Record batches held (a dataset's: one per file with rows).",
     NULL},
    {"column_info", (getter)Table_columns, NULL, "[(name, type, reason, null_count)] per column.", NULL},
    {"rejects", (getter)Table_rejects, NULL,
     "[(line, row, column, byte_offset, value, reason)]: values made null (on_error='null').", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ext_TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "simdsv._simdsv.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A typed table read by simdsv, held as Arrow data (use simdsv.read_csv).",
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
    .tp_new = NULL,
};

PyObject *ext_chunked_table_object(simdsv_table *const *chunks, size_t n)
{
    const simdsv_table *t = chunks[0];
    PyObject *columns = PyList_New(0), *rejects = PyList_New(0);
    for (size_t j = 0; columns && j < simdsv_table_columns(t); j++) {
        simdsv_column_info info;
        simdsv_table_column(t, j, &info);
        unsigned long long nulls = 0;
        for (size_t k = 0; k < n; k++) {
            simdsv_column_info other;
            simdsv_table_column(chunks[k], j, &other);
            nulls += (unsigned long long)other.null_count;
        }
        /* (reasons quote a value cut to a length, maybe inside a UTF-8 sequence) */
        PyObject *reason = info.reason ? ext_text_of(info.reason) : Py_NewRef(Py_None);
        PyObject *item = reason ? Py_BuildValue("(ssOK)", info.name, simdsv_type_name(info.type), reason, nulls)
                                : NULL;
        Py_XDECREF(reason);
        if (!item || PyList_Append(columns, item) != 0)
            Py_CLEAR(columns);
        Py_XDECREF(item);
    }
    unsigned long long row_base = 0;
    for (size_t k = 0; rejects && k < n; row_base += simdsv_table_rows(chunks[k]), k++) {
        for (size_t i = 0; rejects && i < simdsv_table_reject_count(chunks[k]); i++) {
            const simdsv_reject *rj = simdsv_table_reject(chunks[k], i);
            PyObject *value = ext_text_of(rj->value), *reason = ext_text_of(rj->reason);
            PyObject *item = value && reason ? Py_BuildValue("(KKnKOO)", (unsigned long long)rj->line,
                                                             row_base + (unsigned long long)rj->row,
                                                             (Py_ssize_t)rj->column,
                                                             (unsigned long long)rj->byte_offset, value, reason)
                                             : NULL;
            Py_XDECREF(value);
            Py_XDECREF(reason);
            if (!item || PyList_Append(rejects, item) != 0)
                Py_CLEAR(rejects);
            Py_XDECREF(item);
        }
    }
    holder *h = calloc(1, sizeof *h);
    struct ArrowArray *more = n > 1 ? calloc(n - 1, sizeof *more) : NULL;
    TableObject *self = columns && rejects && h && (n == 1 || more) ? PyObject_New(TableObject, &ext_TableType)
                                                                    : NULL;
    if (!self) {
        Py_XDECREF(columns);
        Py_XDECREF(rejects);
        free(h);
        free(more);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    atomic_init(&h->refs, 1);
    h->more = more;
    self->data = h;
    self->columns = columns;
    self->rejects = rejects;
    simdsv_status st = simdsv_table_move_to_arrow(chunks[0], &h->schema, &h->array);
    for (size_t k = 1; k < n && st == SIMDSV_OK; k++) {
        struct ArrowSchema schema;
        if ((st = simdsv_table_move_to_arrow(chunks[k], &schema, &more[k - 1])) == SIMDSV_OK) {
            schema.release(&schema); /* the first chunk's: the same */
            h->nmore = k;
        }
    }
    if (st != SIMDSV_OK) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

PyObject *ext_table_object(simdsv_table *t)
{
    return ext_chunked_table_object(&t, 1);
}

/* Reads r into a Table (the GIL released meanwhile); frees r. */
PyObject *ext_read_into_table(simdsv_reader *r, const char *name, int schema_only)
{
    simdsv_table *t = NULL;
    simdsv_status st;
    Py_BEGIN_ALLOW_THREADS
    st = schema_only ? simdsv_table_infer(r, &t) : simdsv_table_read(r, &t);
    Py_END_ALLOW_THREADS
    PyObject *result = st == SIMDSV_OK ? ext_table_object(t) : ext_raise_error(simdsv_reader_error(r), st, name);
    simdsv_table_free(t);
    simdsv_reader_free(r);
    return result;
}

PyObject *py_read_table(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    int schema_only = 0;
    if (!PyArg_ParseTuple(args, "OOO|p", &src, &ints, &strings, &schema_only))
        return NULL;
    input in;
    simdsv_reader *r = ext_open_input(src, ints, strings, &in);
    PyObject *result = r ? ext_read_into_table(r, in.name, schema_only) : NULL;
    ext_input_release(&in);
    return result;
}

/* ---------------------------------------------------------------- ranges */

/* range_summary(bytes, begin, prev_byte, ints, strings) -> the summary (a simdsv_range_summary as bytes) */
PyObject *py_range_summary(PyObject *mod, PyObject *args)
{
    (void)mod;
    Py_buffer view;
    unsigned long long begin;
    int prev;
    PyObject *ints, *strings;
    if (!PyArg_ParseTuple(args, "y*KiOO", &view, &begin, &prev, &ints, &strings))
        return NULL;
    simdsv_options *opt = ext_make_options(ints, strings);
    PyObject *result = NULL;
    if (opt) {
        simdsv_range_summary s;
        simdsv_error e;
        simdsv_status st;
        Py_BEGIN_ALLOW_THREADS
        st = simdsv_range_summarize(opt, view.buf, (size_t)view.len, begin, prev, &s, &e);
        Py_END_ALLOW_THREADS
        if (st != SIMDSV_OK)
            ext_raise_error(&e, st, "range");
        else /* opaque to Python: range_combine reads it back */
            result = PyBytes_FromStringAndSize((const char *)&s, (Py_ssize_t)sizeof s);
        simdsv_options_free(opt);
    }
    PyBuffer_Release(&view);
    return result;
}

/* range_combine([summaries]) -> [(start, stop, line, after_cr, state)] */
PyObject *py_range_combine(PyObject *mod, PyObject *arg)
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
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyBytes_Check(item) || PyBytes_GET_SIZE(item) != (Py_ssize_t)sizeof *s) {
            PyErr_SetString(PyExc_TypeError, "range_combine takes the summaries range_summary returned");
            goto done;
        }
        memcpy(&s[i], PyBytes_AS_STRING(item), sizeof *s);
    }
    if (simdsv_range_combine(s, (size_t)n, out) != SIMDSV_OK) {
        PyErr_SetString(ext_error_type,
                        n > 1 && s[0].header_end == UINT64_MAX
                            ? "the header row does not end in the first range: use larger ranges"
                            : "the ranges do not cover the input from 0, in order");
        goto done;
    }
    result = PyList_New(n);
    for (Py_ssize_t i = 0; result && i < n; i++) {
        PyObject *t = Py_BuildValue("(KKKii)", (unsigned long long)out[i].start, (unsigned long long)out[i].stop,
                                    (unsigned long long)out[i].line, out[i].after_cr, out[i].state);
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

/* read_range(bytes, (start, stop, line, after_cr, state), ints, strings, name) -> Table */
PyObject *py_read_range(PyObject *mod, PyObject *args)
{
    (void)mod;
    Py_buffer view;
    simdsv_range range;
    int after_cr, state;
    unsigned long long start, stop, line;
    PyObject *ints, *strings;
    const char *name;
    if (!PyArg_ParseTuple(args, "y*(KKKii)OOs", &view, &start, &stop, &line, &after_cr, &state, &ints, &strings,
                          &name))
        return NULL;
    range = (simdsv_range){start, stop, line, (uint8_t)after_cr, (uint8_t)state};
    PyObject *result = NULL;
    simdsv_options *opt = NULL;
    simdsv_reader *r = NULL;
    if ((unsigned long long)view.len != stop - start) {
        PyErr_SetString(PyExc_ValueError, "the bytes given are not the range's");
        goto done;
    }
    if (!(opt = ext_make_options(ints, strings)))
        goto done;
    simdsv_status st = simdsv_reader_new(&r, opt);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_range(r, view.buf, &range);
    if (st != SIMDSV_OK) {
        ext_raise_error(r ? simdsv_reader_error(r) : NULL, st, name);
        goto done;
    }
    result = ext_read_into_table(r, name, 0);
    r = NULL;
done:
    simdsv_reader_free(r);
    simdsv_options_free(opt);
    PyBuffer_Release(&view);
    return result;
}
