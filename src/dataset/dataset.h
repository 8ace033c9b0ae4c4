/*
 * dataset.h — simdsv_dataset's insides, shared by dataset.c (inputs, the
 * joined schema, the table read) and stream.c (the Arrow stream).
 */
#ifndef SIMDSV_DATASET_H
#define SIMDSV_DATASET_H

#include "../table/concat.h"

typedef enum input_kind { INPUT_PATH, INPUT_MEMORY, INPUT_CALLBACK } input_kind;

typedef struct ds_input {
    char *name;                 /* the path, or the name given (strlen + 1 bytes) */
    input_kind kind;
    const uint8_t *data;        /* a buffer; a callback without rewind once read (held) */
    size_t size;
    simdsv_dataset_source source;
    uint8_t *held;              /* that callback's bytes, read once */
    size_t held_cap;
    int held_ready;
} ds_input;

/* One column of the dataset's schema. */
typedef struct ds_column {
    char *name;                 /* strlen + 1 bytes */
    simdsv_type type;
    int utc;                    /* timestamps: an input's were instants */
    int user_type;
    char reason[224];           /* the reason of the first input whose type is the column's */
} ds_column;

/* Hive partition keys, the same in every input's path. */
typedef struct ds_hive {
    size_t nkeys;
    char **keys;                /* strlen + 1 bytes each */
    simdsv_type *types;
    char ***values;             /* values[input][key]: NULL for a null (or no hive) */
} ds_hive;

/* The joined schema of the inputs' own columns; map[i][j] is the schema
 * column of input i's column j. */
typedef struct ds_schema {
    ds_column *cols;
    size_t ncols, cap;
    size_t **map;               /* per input, NULL for an input without columns */
    size_t *map_sizes;
    size_t *slots;              /* open addressing by name: column index + 1, 0 = free */
    size_t nslots;
} ds_schema;

struct simdsv_dataset {
    simdsv_allocator alloc;
    simdsv_options *opt;        /* a copy; widen_misfit adds least types to it */
    simdsv_sniff_params detect;
    ds_input *inputs;
    size_t ninputs, inputs_cap;
    simdsv_error error;
    char *message;              /* error's message whole (error.message is cut at 255 bytes), or NULL */
    long error_file;
    int misfit;                 /* the last stream stopped on a late misfit: */
    char misfit_name[512];      /* its column's name (cut at 511 bytes: then not widened) */
    simdsv_type misfit_type;
    int streaming;              /* a stream of this dataset is open */
    simdsv_table **chunks;      /* the last simdsv_dataset_read_chunks's, NULL once taken */
    size_t nchunks, chunks_cap;
};

/* A copy of the dataset's options for input reads: threads as given. */
simdsv_status simdsv__dataset_options(simdsv_dataset *ds, int threads, simdsv_options **out);
/* Input i opened with o (detection sets what is not given; o is then
 * copied by the reader): *in and *r, freed by the caller (r first).  err
 * says why not. */
simdsv_status simdsv__dataset_open(simdsv_dataset *ds, size_t i, simdsv_options *o, simdsv_input **in,
                                   simdsv_reader **r, simdsv_error *err);
/* err set to code and message; a message that names files may be longer
 * than the error holds: it is cut at a character boundary. */
void simdsv__dataset_set_error(simdsv_error *err, simdsv_status code, const char *message);
/* A copy of s (strlen + 1 bytes of a's), or NULL when out of memory. */
char *simdsv__dataset_copy_name(const simdsv_allocator *a, const char *s);
/* printf into a string of a's (*size bytes, NUL included), or NULL when out
 * of memory. */
char *simdsv__dataset_format(const simdsv_allocator *a, size_t *size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Sets the dataset's error: err's, about input `file` (-1: none); message
 * (NULL: err's own) is kept whole for simdsv_dataset_error_message. */
void simdsv__dataset_fail(simdsv_dataset *ds, long file, const simdsv_error *err, const char *message);
/* The reader's error for input i, with the input's decoder message when it
 * has one. */
void simdsv__dataset_reader_error(const simdsv_reader *r, const simdsv_input *in, simdsv_error *err);

/* Starts a read or a stream: the last error forgotten; INVALID_ARGUMENT
 * while a stream is open. */
simdsv_status simdsv__dataset_start(simdsv_dataset *ds);
/* Reads (infer = 0) or samples (infer = 1) every input into tables and
 * joins their schemas into s (see dataset.c); the dataset's error on
 * failure. */
simdsv_status simdsv__dataset_join(simdsv_dataset *ds, int infer, simdsv_table **tables, ds_schema *s);
/* Joins the inputs' tables (NULL or no columns: left out) into s, input by
 * input in order; a conflict sets the dataset's error. */
simdsv_status simdsv__schema_join(simdsv_dataset *ds, simdsv_table **tables, ds_schema *s);
void simdsv__schema_free(const simdsv_allocator *a, ds_schema *s, size_t ninputs);
/* The hive keys of the inputs' names (SIMDSV_OPT_HIVE); they and the file
 * name column checked against the schema's names. */
simdsv_status simdsv__hive_find(simdsv_dataset *ds, const ds_schema *s, ds_hive *h);
void simdsv__hive_free(const simdsv_allocator *a, ds_hive *h, size_t ninputs);
/* A column of one row: hive key k's value of input i, or the file name
 * (k == nkeys), as the dataset's table and stream hold it. */
simdsv_status simdsv__extra_value(const simdsv_dataset *ds, const ds_hive *h, size_t i, size_t k, column *one);
/* The extra columns after the inputs' own: the hive keys, then the file
 * name when asked for. */
size_t simdsv__extra_count(const simdsv_dataset *ds, const ds_hive *h);
const char *simdsv__extra_name(const simdsv_dataset *ds, const ds_hive *h, size_t k);
simdsv_type simdsv__extra_type(const ds_hive *h, size_t k);

/* A dataset's stream (stream.c) lists its inputs' rejects and describes
 * its columns as a table stream does: simdsv_table_stream_reject_count,
 * _reject, _clear_rejects and _column come here for it (0, NULL, nothing,
 * INVALID_ARGUMENT for another stream). */
size_t simdsv__dataset_stream_reject_count(struct ArrowArrayStream *stream);
const simdsv_reject *simdsv__dataset_stream_reject(struct ArrowArrayStream *stream, size_t index);
void simdsv__dataset_stream_clear_rejects(struct ArrowArrayStream *stream);
simdsv_status simdsv__dataset_stream_column(struct ArrowArrayStream *stream, size_t index, simdsv_column_info *info);

#endif
