/*
 * _dataset.c — Dataset: many inputs read as one table or one stream
 * (simdsv_dataset): paths, globs and folders the library lists, buffers, and
 * Python objects read through callbacks (a remote object's reader, with
 * read(n) and rewind()).  All the logic (schema join, union by name, hive
 * and file name columns) is the library's; this file only hands it inputs
 * and turns its results and errors into Python objects.
 */
#include "_ext.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    simdsv_dataset *ds;
    Py_buffer *views; /* the buffers the dataset reads in place, released with it */
    size_t n_views;
    PyObject *error;  /* the first exception a callback raised, raised when the C call returns */
    struct ArrowArrayStream stream; /* release == NULL until open_stream, and once handed out or closed */
} DatasetObject;

/* One input read through callbacks: a Python object with read(n) and rewind(). */
typedef struct {
    PyObject *file;
    DatasetObject *owner; /* borrowed: the dataset (hence this input) dies first */
} callback_input;

static void keep_error(callback_input *in)
{
    if (!in->owner->error)
        in->owner->error = ext_take_exception();
    else
        PyErr_Clear();
}

static long long callback_read(void *ctx, void *buf, size_t size, int *os_errno)
{
    callback_input *in = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    long long got = -1;
    PyObject *data = PyObject_CallMethod(in->file, "read", "n", (Py_ssize_t)size);
    if (data && !PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "read() returned %.80s, not bytes", Py_TYPE(data)->tp_name);
        Py_CLEAR(data);
    }
    if (data && (size_t)PyBytes_GET_SIZE(data) > size) {
        PyErr_SetString(PyExc_ValueError, "read(n) returned more than n bytes");
        Py_CLEAR(data);
    }
    if (data) {
        got = (long long)PyBytes_GET_SIZE(data);
        memcpy(buf, PyBytes_AS_STRING(data), (size_t)got);
        Py_DECREF(data);
    } else {
        *os_errno = EIO;
        keep_error(in);
    }
    PyGILState_Release(g);
    return got;
}

static int callback_rewind(void *ctx, int *os_errno)
{
    callback_input *in = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *done = PyObject_CallMethod(in->file, "rewind", NULL);
    int result = done ? 0 : -1;
    if (!done) {
        *os_errno = EIO;
        keep_error(in);
    }
    Py_XDECREF(done);
    PyGILState_Release(g);
    return result;
}

static void callback_release(void *ctx)
{
    callback_input *in = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF(in->file);
    PyGILState_Release(g);
    free(in);
}

static void Dataset_dealloc(DatasetObject *self)
{
    if (self->stream.release)
        self->stream.release(&self->stream);
    simdsv_dataset_free(self->ds);
    for (size_t i = 0; i < self->n_views; i++)
        PyBuffer_Release(&self->views[i]);
    free(self->views);
    Py_CLEAR(self->error);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Raises the callback's exception, or simdsv.Error from the dataset's error
 * named by its input (an OSError with the path for a file that cannot be
 * read). */
static PyObject *dataset_error(DatasetObject *self, simdsv_status st)
{
    if (self->error) {
        PyObject *exc = self->error;
        self->error = NULL;
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
        return NULL;
    }
    if (st == SIMDSV_ERR_NOMEM)
        return PyErr_NoMemory();
    const simdsv_error *e = simdsv_dataset_error(self->ds);
    const long index = simdsv_dataset_error_file(self->ds);
    const char *name = index >= 0 ? simdsv_dataset_file(self->ds, (size_t)index) : NULL;
    if (st == SIMDSV_ERR_IO && e->os_errno && name) {
        errno = e->os_errno;
        PyObject *shown = PyUnicode_DecodeFSDefault(name);
        if (shown)
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, shown);
        Py_XDECREF(shown);
        return NULL;
    }
    return ext_raise_error_message(e, st, name ? name : "dataset", simdsv_dataset_error_message(self->ds));
}

/* Adds one input: ("path", str), ("memory", name, buffer) or ("callback",
 * name, object, size); -1 with an exception set. */
static int add_input(DatasetObject *self, PyObject *item)
{
    const char *kind = NULL, *name = NULL;
    PyObject *value = NULL;
    long long size = -1;
    if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "s|zOL", &kind, &name, &value, &size)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a dataset input is a tuple (kind, ...)");
        return -1;
    }
    simdsv_status st;
    if (strcmp(kind, "path") == 0 && name) {
        PyObject *path = NULL;
        PyObject *text = PyUnicode_FromString(name);
        if (!text || !PyUnicode_FSConverter(text, &path)) {
            Py_XDECREF(text);
            return -1;
        }
        Py_DECREF(text);
        Py_BEGIN_ALLOW_THREADS
        st = simdsv_dataset_add_path(self->ds, PyBytes_AS_STRING(path));
        Py_END_ALLOW_THREADS
        Py_DECREF(path);
    } else if (strcmp(kind, "memory") == 0 && name && value) {
        Py_buffer *grown = realloc(self->views, (self->n_views + 1) * sizeof *grown);
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        self->views = grown;
        if (PyObject_GetBuffer(value, &self->views[self->n_views], PyBUF_SIMPLE) != 0)
            return -1;
        const Py_buffer *view = &self->views[self->n_views++];
        st = simdsv_dataset_add_memory(self->ds, name, view->buf, (size_t)view->len);
    } else if (strcmp(kind, "callback") == 0 && name && value) {
        callback_input *in = malloc(sizeof *in);
        if (!in) {
            PyErr_NoMemory();
            return -1;
        }
        in->file = Py_NewRef(value);
        in->owner = self;
        const simdsv_dataset_source source = {callback_read, callback_rewind, callback_release, in, size};
        st = simdsv_dataset_add_callback(self->ds, name, &source);
        if (st != SIMDSV_OK) { /* not added: the dataset will not release it */
            Py_DECREF(in->file);
            free(in);
        }
    } else {
        PyErr_Format(PyExc_ValueError, "unknown dataset input kind %.20s", kind);
        return -1;
    }
    if (st != SIMDSV_OK) {
        dataset_error(self, st);
        return -1;
    }
    return 0;
}

static PyObject *Dataset_files(DatasetObject *self, PyObject *unused)
{
    (void)unused;
    const size_t n = simdsv_dataset_files(self->ds);
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; out && i < n; i++) {
        PyObject *name = PyUnicode_DecodeFSDefault(simdsv_dataset_file(self->ds, i));
        if (!name) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, name);
    }
    return out;
}

static PyObject *Dataset_read(DatasetObject *self, PyObject *args)
{
    int schema_only = 0;
    if (!PyArg_ParseTuple(args, "|p", &schema_only))
        return NULL;
    simdsv_table *t = NULL;
    simdsv_status st;
    Py_BEGIN_ALLOW_THREADS
    st = schema_only ? simdsv_dataset_infer(self->ds, &t) : simdsv_dataset_read(self->ds, &t);
    Py_END_ALLOW_THREADS
    PyObject *result = st == SIMDSV_OK && !self->error ? ext_table_object(t) : dataset_error(self, st);
    simdsv_table_free(t);
    return result;
}

/* read_chunks() -> Table: every input as one table of chunks, one per input
 * with rows (simdsv_dataset_read_chunks: no copy into one table). */
static PyObject *Dataset_read_chunks(DatasetObject *self, PyObject *unused)
{
    (void)unused;
    size_t n = 0;
    simdsv_status st;
    Py_BEGIN_ALLOW_THREADS
    st = simdsv_dataset_read_chunks(self->ds, &n);
    Py_END_ALLOW_THREADS
    if (st != SIMDSV_OK || self->error)
        return dataset_error(self, st);
    simdsv_table **chunks = calloc(n, sizeof *chunks);
    if (!chunks)
        return PyErr_NoMemory();
    for (size_t k = 0; k < n; k++)
        chunks[k] = simdsv_dataset_take_chunk(self->ds, k);
    PyObject *result = ext_chunked_table_object(chunks, n);
    for (size_t k = 0; k < n; k++)
        simdsv_table_free(chunks[k]);
    free(chunks);
    return result;
}

static PyObject *Dataset_open_stream(DatasetObject *self, PyObject *unused)
{
    (void)unused;
    if (self->stream.release) {
        PyErr_SetString(PyExc_ValueError, "the dataset's stream is already open");
        return NULL;
    }
    simdsv_status st;
    Py_BEGIN_ALLOW_THREADS
    st = simdsv_dataset_stream(self->ds, &self->stream);
    Py_END_ALLOW_THREADS
    if (st != SIMDSV_OK || self->error) {
        if (self->stream.release)
            self->stream.release(&self->stream);
        return dataset_error(self, st);
    }
    return Py_NewRef(self);
}

/* ---- the stream: the methods of simdsv._simdsv.Stream, over the dataset's */

static int stream_usable(DatasetObject *self)
{
    if (self->stream.release)
        return 1;
    PyErr_SetString(PyExc_ValueError, "the stream was already consumed");
    return 0;
}

static PyObject *Dataset_arrow_c_stream(DatasetObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"requested_schema", NULL};
    PyObject *requested = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &requested) || !stream_usable(self))
        return NULL;
    return ext_stream_capsule_keeping(&self->stream, (PyObject *)self);
}

static PyObject *stream_take(DatasetObject *self, int batch)
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
    if (code || self->error || (batch && !got->array.release)) {
        if (batch && got->array.release)
            got->array.release(&got->array);
        free(got);
        if (code == ENOMEM)
            return PyErr_NoMemory();
        if (code || self->error)
            return dataset_error(self, simdsv_dataset_error(self->ds)->code);
        return Py_NewRef(Py_None);
    }
    return batch ? ext_array_capsule(&got->array) : ext_schema_capsule(&got->schema);
}

static PyObject *Dataset_schema(DatasetObject *self, PyObject *unused)
{
    (void)unused;
    return stream_take(self, 0);
}

static PyObject *Dataset_next_batch(DatasetObject *self, PyObject *unused)
{
    (void)unused;
    return stream_take(self, 1);
}

static PyObject *Dataset_close(DatasetObject *self, PyObject *unused)
{
    (void)unused;
    if (self->stream.release)
        self->stream.release(&self->stream);
    Py_RETURN_NONE;
}

static PyMethodDef Dataset_methods[] = {
    {"files", (PyCFunction)Dataset_files, METH_NOARGS, "The inputs' names (paths as listed), in order."},
    {"read", (PyCFunction)Dataset_read, METH_VARARGS, "read([schema_only]) -> Table: every input as one table."},
    {"read_chunks", (PyCFunction)Dataset_read_chunks, METH_NOARGS,
     "read_chunks() -> Table: every input as one table of chunks, one per input with rows (no copy)."},
    {"open_stream", (PyCFunction)Dataset_open_stream, METH_NOARGS,
     "Starts the stream of record batches (then schema_capsule, next_batch, __arrow_c_stream__); returns self."},
    {"__arrow_c_stream__", (PyCFunction)(void (*)(void))Dataset_arrow_c_stream, METH_VARARGS | METH_KEYWORDS,
     "Hands the stream of record batches to a consumer (once)."},
    {"schema_capsule", (PyCFunction)Dataset_schema, METH_NOARGS, "The stream's schema (an arrow_schema capsule)."},
    {"next_batch", (PyCFunction)Dataset_next_batch, METH_NOARGS,
     "The next record batch (an arrow_array capsule of a struct array), or None at the end."},
    {"close", (PyCFunction)Dataset_close, METH_NOARGS, "Releases the stream."},
    {NULL, NULL, 0, NULL}};

PyTypeObject ext_DatasetType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "simdsv._simdsv.Dataset",
    .tp_basicsize = sizeof(DatasetObject),
    .tp_dealloc = (destructor)Dataset_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Many inputs as one table or stream (use simdsv.read_csv / open_csv with a list, glob or URL).",
    .tp_methods = Dataset_methods,
};

/* dataset(inputs, ints, strings) -> Dataset.  ints may hold DETECT_GIVEN
 * (the settings given, as for one input); without it nothing is detected
 * but the compression. */
PyObject *py_dataset(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *inputs, *ints, *strings;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyList_Type, &inputs, &PyDict_Type, &ints, &PyDict_Type, &strings))
        return NULL;
    long long given = SIMDSV_SNIFF_GIVEN_ALL;
    PyObject *key = PyLong_FromLong(EXT_DETECT_GIVEN);
    PyObject *mask = key ? PyDict_GetItemWithError(ints, key) : NULL;
    Py_XDECREF(key);
    if (mask)
        given = PyLong_AsLongLong(mask);
    if (PyErr_Occurred())
        return NULL;
    simdsv_options *opt = ext_make_options(ints, strings);
    if (!opt)
        return NULL;
    DatasetObject *self = PyObject_New(DatasetObject, &ext_DatasetType);
    if (!self) {
        simdsv_options_free(opt);
        return NULL;
    }
    self->ds = NULL;
    self->views = NULL;
    self->n_views = 0;
    self->error = NULL;
    memset(&self->stream, 0, sizeof self->stream);
    simdsv_sniff_params detect;
    memset(&detect, 0, sizeof detect);
    detect.given = (unsigned)given;
    const simdsv_status st = simdsv_dataset_new(&self->ds, opt, &detect);
    simdsv_options_free(opt);
    if (st != SIMDSV_OK) {
        simdsv_error e;
        memset(&e, 0, sizeof e);
        ext_raise_error(&e, st, "dataset");
        Py_DECREF(self);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(inputs); i++) {
        if (add_input(self, PyList_GET_ITEM(inputs, i)) != 0) {
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}
