/*
 * _ext.h — what the files of the Python extension share.  The extension is
 * a thin layer over include/simdsv.h only:
 *
 *   _simdsv.c   the module (functions, constants), errors, options, inputs
 *   _arrow.c    Arrow C data shared with consumers: views of one exported
 *               table, schema copies, PyCapsules
 *   _table.c    Table (read_csv), and the byte ranges of distributed reads
 *   _stream.c   Stream (open_csv): record batches in bounded memory
 *   _records.c  Records (an iterator of lists of str) and count
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
#ifndef SIMDSV_PY_EXT_H
#define SIMDSV_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdatomic.h>

#include "simdsv.h"

/* ---- _simdsv.c: errors, options, inputs */

extern PyObject *ext_error_type; /* simdsv.Error */

/* Raises simdsv.Error from a simdsv_error; where names the input. */
PyObject *ext_raise_error(const simdsv_error *e, simdsv_status st, const char *where);
/* The same with the message given (NULL: e's), e.g. a dataset's whole one. */
PyObject *ext_raise_error_message(const simdsv_error *e, simdsv_status st, const char *where, const char *message);
/* Library text as str; bytes that are not UTF-8 become U+FFFD. */
PyObject *ext_text_of(const char *s);
simdsv_options *ext_make_options(PyObject *ints, PyObject *strings);

/* An input: a path (str, bytes or os.PathLike) or a buffer (bytes,
 * memoryview, mmap, ...), opened as the library's simdsv_input (gzip and
 * zstd decoded; the reader reads from it, so it is freed after the
 * reader), or a file object, read through a callback as the reader goes
 * (simdsv/__init__.py detects on its first bytes and replays them); it
 * stays held while the reader needs it. */
typedef struct input {
    PyObject *path;  /* bytes (fs-encoded), or NULL */
    Py_buffer view;  /* view.obj != NULL when a buffer */
    PyObject *file;  /* a file object read as the reader goes (a callback source), or NULL */
    int file_is_text;       /* its read() returns str */
    PyObject *file_error;   /* the exception its read() raised, until raised by the caller */
    PyObject *file_name;    /* bytes: the file object's str `name` (a path, a URL), named in errors; or NULL */
    const char *name;
    simdsv_input *source;
} input;

/* Keys of the ints dict that are not options (negative: no option has
 * such an id) but say how the input is opened (simdsv/_detect.py):
 * DETECT_GIVEN: detect the settings not in this mask (1 << SIMDSV_SNIFF_x
 * per setting given), absent: no detection; DETECT_RECORDS: 1 for a reader
 * of records only (simdsv_sniff_params.dialect_only). */
#define EXT_DETECT_GIVEN (-1)
#define EXT_DETECT_RECORDS (-2)


/* A reader over src (a path or a buffer, held in *in) with the options of
 * the two dicts; NULL with an exception set.  *in is released by the caller
 * (ext_input_release) either way. */
simdsv_reader *ext_open_input(PyObject *src, PyObject *ints, PyObject *strings, input *in);
void ext_input_release(input *in);
/* Raises the exception a file object's read() raised during the last C
 * call, if any: 1 when it did (use it instead of the reader's EIO). */
int ext_input_raise_pending(input *in);
/* Raises the reader's error (or the file object's exception); returns NULL. */
PyObject *ext_raise_reader_error(simdsv_reader *r, simdsv_status st, input *in);

/* ---- _arrow.c: shared Arrow data */

/* The exported table, released when the last view (and the Table) is gone:
 * one record batch (array), or a dataset's chunks (array, then more). */
typedef struct holder {
    atomic_long refs;
    struct ArrowArray array;
    struct ArrowSchema schema;
    struct ArrowArray *more;
    size_t nmore;
} holder;


void ext_holder_unref(holder *h);
/* out: a view of src (same buffers) that keeps owner alive; 0 when out of memory. */
int ext_view_of(const struct ArrowArray *src, holder *owner, struct ArrowArray *out);
/* A deep copy: every consumer gets its own schema; 0 when out of memory. */
int ext_schema_copy(const struct ArrowSchema *src, struct ArrowSchema *out);
/* An "arrow_schema" or "arrow_array" capsule owning p (a filled struct
 * ArrowSchema or ArrowArray on the heap); on failure p is released and freed. */
PyObject *ext_schema_capsule(struct ArrowSchema *p);
PyObject *ext_array_capsule(struct ArrowArray *p);
/* An "arrow_array_stream" capsule owning a copy of filled (released on failure). */
PyObject *ext_stream_capsule(struct ArrowArrayStream filled);
/* The same for *stream, moved out of its owner (release set to NULL there);
 * keep (the owner) stays referenced until the consumer releases the stream. */
PyObject *ext_stream_capsule_keeping(struct ArrowArrayStream *stream, PyObject *keep);

/* ---- _table.c, _stream.c, _records.c, _dataset.c: the module's types and functions */

extern PyTypeObject ext_TableType, ext_StreamType, ext_RecordsType, ext_DatasetType;
/* The exception being raised, normalized to one object, and cleared. */
PyObject *ext_take_exception(void);
/* A Table from a read table (consumed: its rows are moved out); NULL with an exception set. */
PyObject *ext_table_object(simdsv_table *t);
/* A Table of n chunks (n >= 1, the same columns; each moved out, left for
 * the caller to free): column info of the first with every chunk's nulls,
 * rejects with the rows counted from the first chunk's first row. */
PyObject *ext_chunked_table_object(simdsv_table *const *chunks, size_t n);
/* Reads r into a Table (the GIL released meanwhile); frees r. */
PyObject *ext_read_into_table(simdsv_reader *r, const char *name, int schema_only);
PyObject *py_read_table(PyObject *mod, PyObject *args);
PyObject *py_range_summary(PyObject *mod, PyObject *args);
PyObject *py_range_combine(PyObject *mod, PyObject *arg);
PyObject *py_read_range(PyObject *mod, PyObject *args);
PyObject *py_open_stream(PyObject *mod, PyObject *args);
PyObject *py_records(PyObject *mod, PyObject *args);
PyObject *py_count(PyObject *mod, PyObject *args);
PyObject *py_dataset(PyObject *mod, PyObject *args);

#endif
