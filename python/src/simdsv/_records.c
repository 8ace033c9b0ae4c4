/*
 * _records.c — Records: an iterator of records as lists of str (records),
 * and the record count of an input (count).
 */
#include "_ext.h"


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
    ext_input_release(&self->in);
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
        return ext_raise_reader_error(self->r, st, &self->in);
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

PyTypeObject ext_RecordsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "simdsv._simdsv.Records",
    .tp_basicsize = sizeof(RecordsObject),
    .tp_dealloc = (destructor)Records_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An iterator of records, each a list of str (use simdsv.records).",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Records_next,
    .tp_getset = Records_getset,
};

PyObject *py_records(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    int lossy = 0, header = 0;
    if (!PyArg_ParseTuple(args, "OOOpp", &src, &ints, &strings, &lossy, &header))
        return NULL;
    RecordsObject *self = PyObject_New(RecordsObject, &ext_RecordsType);
    if (!self)
        return NULL;
    self->lossy = lossy;
    self->header = Py_None;
    Py_INCREF(Py_None);
    self->r = ext_open_input(src, ints, strings, &self->in);
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
        } else if (st != SIMDSV_END && st != SIMDSV_ERR_INVALID_ARGUMENT) {
            /* INVALID_ARGUMENT: detection found no header (header=None left it to detection). */
            ext_raise_reader_error(self->r, st, &self->in);
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

/* ----------------------------------------------------------------- count */

PyObject *py_count(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    if (!PyArg_ParseTuple(args, "OOO", &src, &ints, &strings))
        return NULL;
    input in;
    simdsv_reader *r = ext_open_input(src, ints, strings, &in);
    PyObject *result = NULL;
    if (r) {
        uint64_t n = 0;
        simdsv_status st;
        Py_BEGIN_ALLOW_THREADS
        st = simdsv_reader_count(r, &n);
        Py_END_ALLOW_THREADS
        result = st == SIMDSV_END || st == SIMDSV_OK ? PyLong_FromUnsignedLongLong(n)
                                                     : ext_raise_reader_error(r, st, &in);
        simdsv_reader_free(r);
    }
    ext_input_release(&in);
    return result;
}
