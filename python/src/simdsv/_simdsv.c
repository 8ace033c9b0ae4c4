/*
 * _simdsv.c — the Python extension's module: its functions and constants,
 * simdsv.Error, options from the two dicts, and inputs (the file list and
 * the design are in _ext.h).
 */
#include "_ext.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

PyObject *ext_error_type; /* simdsv.Error, created by PyInit__simdsv */

/* ---------------------------------------------------------------- errors */

PyObject *ext_raise_error(const simdsv_error *e, simdsv_status st, const char *where)
{
    return ext_raise_error_message(e, st, where, NULL);
}

PyObject *ext_raise_error_message(const simdsv_error *e, simdsv_status st, const char *where, const char *message)
{
    if (st == SIMDSV_ERR_NOMEM)
        return PyErr_NoMemory();
    const char *msg = message && *message ? message : e && e->message[0] ? e->message : simdsv_status_message(st);
    /* Built whole: a path and a message naming files can be long. */
    PyObject *text = e && (e->line || e->byte_offset)
                         ? PyUnicode_FromFormat("%s:%llu:%llu: %s (byte %llu)", where, (unsigned long long)e->line,
                                                (unsigned long long)e->column, msg, (unsigned long long)e->byte_offset)
                         : PyUnicode_FromFormat("%s: %s", where, msg);
    PyObject *exc = text ? PyObject_CallFunctionObjArgs(ext_error_type, text, NULL) : NULL;
    Py_XDECREF(text);
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
    PyErr_SetObject(ext_error_type, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *ext_text_of(const char *s)
{
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* --------------------------------------------------------------- options */

simdsv_options *ext_make_options(PyObject *ints, PyObject *strings)
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
        if (id < 0)
            continue; /* DETECT_*: how to open the input, not an option */
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
            const char *why = simdsv_options_error(opt);
            if (why && *why)
                PyErr_SetString(PyExc_ValueError, why);
            else
                PyErr_Format(PyExc_ValueError, "malformed option value %R", value);
            goto fail;
        }
    }
    return opt;
fail:
    simdsv_options_free(opt);
    return NULL;
}

PyObject *ext_take_exception(void)
{
#if PY_VERSION_HEX >= 0x030C0000
    return PyErr_GetRaisedException();
#else
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb && value)
        PyException_SetTraceback(value, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return value;
#endif
}

/* The callback source of a file object: its read(size) (binary: bytes;
 * text: str, asked for size / 4 characters so that their UTF-8 fits), with
 * the GIL taken for the call.  A Python exception is kept in the input and
 * raised when the C call returns. */
static long long file_read(void *ctx, void *buf, size_t size, int *os_errno)
{
    input *in = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    long long got = -1;
    const size_t ask = in->file_is_text ? (size / 4 ? size / 4 : 1) : size;
    PyObject *data = PyObject_CallMethod(in->file, "read", "n", (Py_ssize_t)ask);
    if (data && PyUnicode_Check(data)) {
        in->file_is_text = 1;
        Py_SETREF(data, PyUnicode_AsUTF8String(data));
    }
    if (data && !PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "the file object's read() returned %.80s, not bytes or str",
                     Py_TYPE(data)->tp_name);
        Py_CLEAR(data);
    }
    if (data) {
        const size_t n = (size_t)PyBytes_GET_SIZE(data);
        if (n <= size) {
            memcpy(buf, PyBytes_AS_STRING(data), n);
            got = (long long)n;
        } else { /* a file object that returned more than asked: a text file's first call */
            PyErr_SetString(PyExc_ValueError, "the file object's read(n) returned more than n bytes");
        }
        Py_DECREF(data);
    }
    if (got < 0) {
        *os_errno = EIO;
        Py_XDECREF(in->file_error);
        in->file_error = ext_take_exception();
    }
    PyGILState_Release(g);
    return got;
}

static int input_get(PyObject *src, input *in)
{
    memset(in, 0, sizeof *in);
    if (!PyUnicode_Check(src) && !PyBytes_Check(src) && !PyObject_CheckBuffer(src) &&
        PyObject_HasAttrString(src, "read") && !PyObject_HasAttrString(src, "__fspath__")) {
        in->file = Py_NewRef(src);
        PyObject *mode = PyObject_GetAttrString(src, "mode"); /* a text file's str is known before its first read */
        in->file_is_text = mode && PyUnicode_Check(mode) && !strchr(PyUnicode_AsUTF8(mode), 'b');
        Py_XDECREF(mode);
        PyErr_Clear();
        PyObject *name = PyObject_GetAttrString(src, "name");
        if (name && PyUnicode_Check(name))
            in->file_name = PyUnicode_AsUTF8String(name);
        Py_XDECREF(name);
        PyErr_Clear();
        in->name = in->file_name ? PyBytes_AS_STRING(in->file_name) : "<file>";
        return 0;
    }
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

int ext_input_raise_pending(input *in)
{
    if (!in->file_error)
        return 0;
    PyObject *exc = in->file_error;
    in->file_error = NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
    return 1;
}

PyObject *ext_raise_reader_error(simdsv_reader *r, simdsv_status st, input *in)
{
    if (ext_input_raise_pending(in))
        return NULL;
    return ext_raise_error(simdsv_reader_error(r), st, in->name);
}

void ext_input_release(input *in)
{
    simdsv_input_free(in->source);
    in->source = NULL;
    Py_CLEAR(in->path);
    Py_CLEAR(in->file);
    Py_CLEAR(in->file_error);
    Py_CLEAR(in->file_name);
    if (in->view.obj)
        PyBuffer_Release(&in->view);
}

/* An int entry of the ints dict (a DETECT_* key), or fallback when absent. */
static long long dict_int(PyObject *ints, long key, long long fallback)
{
    if (!ints || ints == Py_None)
        return fallback;
    PyObject *k = PyLong_FromLong(key);
    PyObject *v = k ? PyDict_GetItemWithError(ints, k) : NULL;
    Py_XDECREF(k);
    return v ? PyLong_AsLongLong(v) : fallback;
}

/* An input error that is not about the data: the system's (OSError with
 * the path) or the library's words (simdsv.Error: a decoder that cannot
 * be loaded, corrupt compressed data). */
static void raise_input_error(const simdsv_error *e, simdsv_status st, input *in)
{
    if (st == SIMDSV_ERR_IO && e->os_errno && in->path) {
        errno = e->os_errno;
        PyObject *shown = PyUnicode_DecodeFSDefault(PyBytes_AS_STRING(in->path)); /* str, as open() shows it */
        if (shown)
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, shown);
        Py_XDECREF(shown);
    } else if (st == SIMDSV_ERR_NOMEM) {
        PyErr_NoMemory();
    } else {
        ext_raise_error(e, st, in->name);
    }
}

/* Opens the input as simdsv_input (gzip and zstd decoded) and, when the
 * ints ask for it (DETECT_GIVEN), sets on opt the settings not given, as
 * detected; -1 with an exception set. */
static int open_detected(simdsv_options *opt, PyObject *ints, input *in)
{
    const long long given = dict_int(ints, EXT_DETECT_GIVEN, -1);
    const long long records = dict_int(ints, EXT_DETECT_RECORDS, 0);
    if (PyErr_Occurred())
        return -1;
    if (in->file) { /* a file object: detected in Python on its first bytes, read through a callback */
        if (given >= 0) {
            PyErr_SetString(PyExc_ValueError, "a file object is detected before it is opened (simdsv._detect)");
            return -1;
        }
        return 0;
    }
    simdsv_error e;
    memset(&e, 0, sizeof e);
    simdsv_status st;
    simdsv_sniff *s = NULL;
    Py_BEGIN_ALLOW_THREADS
    st = in->view.obj ? simdsv_input_open_memory(&in->source, in->view.buf, (size_t)in->view.len, opt, &e)
                      : simdsv_input_open_path(&in->source, PyBytes_AS_STRING(in->path), opt, &e);
    if (st == SIMDSV_OK && given >= 0) {
        simdsv_sniff_params p;
        memset(&p, 0, sizeof p);
        p.opt = opt;
        p.given = (unsigned)given;
        p.dialect_only = records != 0;
        st = simdsv_input_detect(in->source, &p, opt, &s, &e);
    }
    Py_END_ALLOW_THREADS
    if (st != SIMDSV_OK) {
        raise_input_error(&e, st, in);
        return -1;
    }
    /* As the command does: input that is not text is refused, with what
     * detection found, rather than read into nonsense or a UTF-8 error. */
    if (s && s->binary) {
        snprintf(e.message, sizeof e.message, "not a delimited text file (%s); sniff=False reads it anyway",
                 s->decisions[SIMDSV_SNIFF_ENCODING].reason);
        simdsv_sniff_free(s);
        ext_raise_error(&e, SIMDSV_ERR_INVALID_ARGUMENT, in->name);
        return -1;
    }
    simdsv_sniff_free(s);
    return 0;
}

/* A reader over the input with the options (completed by detection); NULL
 * with an exception set. */
static simdsv_reader *open_reader(simdsv_options *opt, PyObject *ints, input *in)
{
    if (open_detected(opt, ints, in) != 0)
        return NULL;
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, opt);
    if (st != SIMDSV_OK) {
        simdsv_error e;
        memset(&e, 0, sizeof e);
        ext_raise_error(&e, st, in->name);
        return NULL;
    }
    st = in->file ? simdsv_reader_open_callback(r, file_read, in) : simdsv_input_open_reader(in->source, r);
    if (st != SIMDSV_OK) {
        if (!ext_input_raise_pending(in))
            raise_input_error(simdsv_reader_error(r), st, in);
        simdsv_reader_free(r);
        return NULL;
    }
    return r;
}

simdsv_reader *ext_open_input(PyObject *src, PyObject *ints, PyObject *strings, input *in)
{
    if (input_get(src, in) != 0) {
        memset(in, 0, sizeof *in);
        return NULL;
    }
    simdsv_options *opt = ext_make_options(ints, strings);
    simdsv_reader *r = opt ? open_reader(opt, ints, in) : NULL;
    simdsv_options_free(opt);
    return r;
}

/* detect(src, ints, strings) -> (ints, strings): the options a reader of src
 * would be opened with after detection (DETECT_GIVEN in ints; without it,
 * none is detected) as plain dicts, for readers that cannot detect by themselves
 * (the byte ranges of a Dask read: detected once, given to every task).
 * OPT_COMPRESSION says what the input holds (NONE, GZIP or ZSTD). */
static PyObject *py_detect(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *src, *ints, *strings;
    if (!PyArg_ParseTuple(args, "OO!O!", &src, &PyDict_Type, &ints, &PyDict_Type, &strings))
        return NULL;
    input in;
    if (input_get(src, &in) != 0)
        return NULL;
    PyObject *out_ints = PyDict_Copy(ints), *out_strings = PyDict_Copy(strings), *result = NULL;
    simdsv_options *opt = out_ints && out_strings ? ext_make_options(ints, strings) : NULL;
    if (opt && open_detected(opt, ints, &in) != 0) {
        simdsv_options_free(opt);
        opt = NULL;
    }
    static const simdsv_option detected[] = {SIMDSV_OPT_QUOTE,        SIMDSV_OPT_ESCAPE,      SIMDSV_OPT_COMMENT,
                                             SIMDSV_OPT_HEADER,       SIMDSV_OPT_HEADER_ROWS, SIMDSV_OPT_SKIP_LINES,
                                             SIMDSV_OPT_END_OFFSET,   SIMDSV_OPT_TRIM_SPACES, SIMDSV_OPT_DECIMAL_COMMA,
                                             SIMDSV_OPT_THOUSANDS,    SIMDSV_OPT_DATE_ORDER};
    int ok = opt != NULL;
    for (size_t i = 0; ok && i < sizeof detected / sizeof *detected; i++) {
        int64_t v = 0;
        simdsv_options_get(opt, detected[i], &v);
        PyObject *k = PyLong_FromLong(detected[i]), *val = PyLong_FromLongLong(v);
        ok = k && val && PyDict_SetItem(out_ints, k, val) == 0;
        Py_XDECREF(k);
        Py_XDECREF(val);
    }
    /* The delimiter: its byte, and its bytes when there are several. */
    const char *delimiter = opt ? simdsv_options_get_string(opt, SIMDSV_OPT_DELIMITER_STRING) : "";
    const char *encoding = opt ? simdsv_options_get_string(opt, SIMDSV_OPT_ENCODING) : "";
    /* The comment marker whole when it is several bytes ("//": its first
     * byte alone would drop the lines starting with one '/'). */
    const char *comment = opt ? simdsv_options_get_string(opt, SIMDSV_OPT_COMMENT_STRING) : "";
    int64_t first = 0;
    if (opt)
        simdsv_options_get(opt, SIMDSV_OPT_DELIMITER, &first);
    const struct {
        PyObject *dict;
        long id;
        PyObject *value; /* NULL: remove the entry */
    } entries[] = {
        {out_ints, SIMDSV_OPT_DELIMITER, PyLong_FromLongLong(first)},
        {out_strings, SIMDSV_OPT_DELIMITER_STRING, strlen(delimiter) > 1 ? PyUnicode_FromString(delimiter) : NULL},
        {out_strings, SIMDSV_OPT_ENCODING, *encoding ? PyUnicode_FromString(encoding) : NULL},
        {out_strings, SIMDSV_OPT_COMMENT_STRING, strlen(comment) > 1 ? PyUnicode_FromString(comment) : NULL},
        {out_ints, SIMDSV_OPT_COMPRESSION, PyLong_FromLong(simdsv_input_compression(in.source))},
        {out_ints, EXT_DETECT_GIVEN, NULL},
        {out_ints, EXT_DETECT_RECORDS, NULL}};
    for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
        PyObject *k = PyLong_FromLong(entries[i].id);
        if (ok && k && entries[i].value)
            ok = PyDict_SetItem(entries[i].dict, k, entries[i].value) == 0;
        else if (ok && k)
            ok = PyDict_Contains(entries[i].dict, k) == 0 || PyDict_DelItem(entries[i].dict, k) == 0;
        else
            ok = 0;
        Py_XDECREF(k);
        Py_XDECREF(entries[i].value);
    }
    if (ok)
        result = PyTuple_Pack(2, out_ints, out_strings);
    else if (!PyErr_Occurred())
        PyErr_NoMemory();
    simdsv_options_free(opt);
    Py_XDECREF(out_ints);
    Py_XDECREF(out_strings);
    ext_input_release(&in);
    return result;
}

/* ---------------------------------------------------------------- module */

static PyMethodDef module_methods[] = {
    {"read_table", py_read_table, METH_VARARGS, "read_table(src, ints, strings[, schema_only]) -> Table"},
    {"open_stream", py_open_stream, METH_VARARGS, "open_stream(src, ints, strings) -> Stream"},
    {"records", py_records, METH_VARARGS, "records(src, ints, strings, lossy, header) -> Records"},
    {"count", py_count, METH_VARARGS, "count(src, ints, strings) -> int"},
    {"detect", py_detect, METH_VARARGS, "detect(src, ints, strings) -> (ints, strings) as detected"},
    {"range_summary", py_range_summary, METH_VARARGS, "range_summary(bytes, begin, prev_byte, ints, strings)"},
    {"range_combine", py_range_combine, METH_O, "range_combine([summary]) -> [(start, stop, line, after_cr, state)]"},
    {"read_range", py_read_range, METH_VARARGS, "read_range(bytes, range, ints, strings, name) -> Table"},
    {"dataset", py_dataset, METH_VARARGS, "dataset([input], ints, strings) -> Dataset"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_simdsv",
                                        "The C layer of simdsv (use the simdsv package).", -1, module_methods,
                                        NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__simdsv(void)
{
    if (PyType_Ready(&ext_TableType) < 0 || PyType_Ready(&ext_StreamType) < 0 || PyType_Ready(&ext_RecordsType) < 0 ||
        PyType_Ready(&ext_DatasetType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    ext_error_type = PyErr_NewExceptionWithDoc(
        "simdsv.Error",
        "A CSV reading error.  Attributes: code (e.g. 'SIMDSV_ERR_UNTERMINATED_QUOTE'), line, column "
        "(1-based, in characters), byte_offset, record, field, reason.",
        PyExc_ValueError, NULL);
    if (!ext_error_type || PyModule_AddObjectRef(m, "Error", ext_error_type) < 0 ||
        PyModule_AddObjectRef(m, "Table", (PyObject *)&ext_TableType) < 0 ||
        PyModule_AddObjectRef(m, "Stream", (PyObject *)&ext_StreamType) < 0 ||
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
        {"RAGGED_TRUNCATE", SIMDSV_RAGGED_TRUNCATE},
        {"OPT_ENCODING", SIMDSV_OPT_ENCODING},   {"OPT_COMPRESSION", SIMDSV_OPT_COMPRESSION},
        {"OPT_STRINGS", SIMDSV_OPT_STRINGS},     {"STRINGS_UTF8", SIMDSV_STRINGS_UTF8},
        {"STRINGS_VIEW", SIMDSV_STRINGS_VIEW},
        {"COMPRESSION_AUTO", SIMDSV_COMPRESSION_AUTO}, {"COMPRESSION_NONE", SIMDSV_COMPRESSION_NONE},
        {"COMPRESSION_GZIP", SIMDSV_COMPRESSION_GZIP}, {"COMPRESSION_ZSTD", SIMDSV_COMPRESSION_ZSTD},
        {"DETECT_GIVEN", EXT_DETECT_GIVEN},      {"DETECT_RECORDS", EXT_DETECT_RECORDS},
        {"SNIFF_ENCODING", SIMDSV_SNIFF_ENCODING}, {"SNIFF_DELIMITER", SIMDSV_SNIFF_DELIMITER},
        {"SNIFF_QUOTE", SIMDSV_SNIFF_QUOTE},     {"SNIFF_ESCAPE", SIMDSV_SNIFF_ESCAPE},
        {"SNIFF_COMMENT", SIMDSV_SNIFF_COMMENT}, {"SNIFF_PREAMBLE", SIMDSV_SNIFF_PREAMBLE},
        {"SNIFF_FOOTER", SIMDSV_SNIFF_FOOTER},   {"SNIFF_HEADER", SIMDSV_SNIFF_HEADER},
        {"SNIFF_HEADER_ROWS", SIMDSV_SNIFF_HEADER_ROWS}, {"SNIFF_TABLES", SIMDSV_SNIFF_TABLES},
        {"SNIFF_PADDING", SIMDSV_SNIFF_PADDING}, {"SNIFF_DECIMAL", SIMDSV_SNIFF_DECIMAL},
        {"SNIFF_DATES", SIMDSV_SNIFF_DATES},
        {"OPT_DELIMITER_STRING", SIMDSV_OPT_DELIMITER_STRING}, {"OPT_COMMENT_CHAR", SIMDSV_OPT_COMMENT_CHAR},
        {"OPT_COMMENT_STRING", SIMDSV_OPT_COMMENT_STRING},
        {"OPT_THOUSANDS", SIMDSV_OPT_THOUSANDS}, {"OPT_DATE_ORDER", SIMDSV_OPT_DATE_ORDER},
        {"OPT_END_OFFSET", SIMDSV_OPT_END_OFFSET}, {"DATE_ISO", SIMDSV_DATE_ISO},           {"DATE_DMY", SIMDSV_DATE_DMY},
        {"DATE_MDY", SIMDSV_DATE_MDY},           {"DATE_YMD", SIMDSV_DATE_YMD},
        {"OPT_UNION_BY_NAME", SIMDSV_OPT_UNION_BY_NAME}, {"OPT_HIVE", SIMDSV_OPT_HIVE},
        {"OPT_FILENAME_COLUMN", SIMDSV_OPT_FILENAME_COLUMN}, {"HIVE_AUTO", SIMDSV_HIVE_AUTO},
        {"HIVE_ON", SIMDSV_HIVE_ON}, {"HIVE_OFF", SIMDSV_HIVE_OFF}};
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
