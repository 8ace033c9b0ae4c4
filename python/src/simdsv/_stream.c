/*
 * _stream.c — Stream: the typed reader's record batches in bounded memory,
 * read one by one from Python or handed whole to a consumer (open_stream).
 */
#include "_ext.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- Stream */

typedef struct {
    PyObject_HEAD
    struct ArrowArrayStream stream; /* release == NULL once handed out or closed */
    input in; /* a buffer input stays held while a consumer holds the stream (ext_stream_capsule_keeping) */
} StreamObject;

static void Stream_dealloc(StreamObject *self)
{
    if (self->stream.release)
        self->stream.release(&self->stream);
    ext_input_release(&self->in);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int stream_usable(StreamObject *self)
{
    if (self->stream.release)
        return 1;
    PyErr_SetString(PyExc_ValueError, "the stream was already consumed");
    return 0;
}

/* Raises simdsv.Error from the stream's error (its code and position, the
 * form of read_csv's errors), or the file object's exception. */
static PyObject *stream_error(StreamObject *self, int code)
{
    if (ext_input_raise_pending(&self->in))
        return NULL;
    if (code == ENOMEM)
        return PyErr_NoMemory();
    const simdsv_error *e = simdsv_table_stream_error(&self->stream);
    if (e)
        return ext_raise_error(e, e->code, self->in.name);
    const char *msg = self->stream.get_last_error(&self->stream);
    PyErr_Format(ext_error_type, "%s: %s", self->in.name, msg ? msg : "read error");
    return NULL;
}

static PyObject *Stream_arrow_c_stream(StreamObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &requested) || !stream_usable(self))
        return NULL;
    return ext_stream_capsule_keeping(&self->stream, (PyObject *)self);
}

/* The stream's schema (an "arrow_schema" capsule) or, with batch, its next
 * record batch (an "arrow_array" capsule), None after the last. */
static PyObject *stream_take(StreamObject *self, int batch)
{
    if (!stream_usable(self))
        return NULL;
    union {
        struct ArrowSchema schema;
        struct ArrowArray array;
    } *got = calloc(1, sizeof *got);
    if (!got)
        return PyErr_NoMemory();
    int code;
    Py_BEGIN_ALLOW_THREADS
    code = batch ? self->stream.get_next(&self->stream, &got->array)
                 : self->stream.get_schema(&self->stream, &got->schema);
    Py_END_ALLOW_THREADS
    if (code || (batch && !got->array.release)) {
        free(got);
        return code ? stream_error(self, code) : Py_NewRef(Py_None);
    }
    return batch ? ext_array_capsule(&got->array) : ext_schema_capsule(&got->schema);
}

static PyObject *Stream_schema(StreamObject *self, PyObject *unused)
{
    (void)unused;
    return stream_take(self, 0);
}

static PyObject *Stream_next_batch(StreamObject *self, PyObject *unused)
{
    (void)unused;
    return stream_take(self, 1);
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

PyTypeObject ext_StreamType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "simdsv._simdsv.Stream",
    .tp_basicsize = sizeof(StreamObject),
    .tp_dealloc = (destructor)Stream_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Record batches read in bounded memory (use simdsv.open_csv).",
    .tp_methods = Stream_methods,
};

PyObject *py_open_stream(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    if (!PyArg_ParseTuple(args, "OOO", &src, &ints, &strings))
        return NULL;
    StreamObject *self = PyObject_New(StreamObject, &ext_StreamType);
    if (!self)
        return NULL;
    memset(&self->stream, 0, sizeof self->stream);
    simdsv_reader *r = ext_open_input(src, ints, strings, &self->in);
    if (!r) {
        Py_DECREF(self);
        return NULL;
    }
    simdsv_status st;
    Py_BEGIN_ALLOW_THREADS
    st = simdsv_table_stream(r, &self->stream);
    Py_END_ALLOW_THREADS
    if (st != SIMDSV_OK) {
        ext_raise_reader_error(r, st, &self->in);
        simdsv_reader_free(r);
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}
