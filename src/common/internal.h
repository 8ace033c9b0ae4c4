/*
 * internal.h — what every library file shares: allocation through the user's
 * hooks, the resolved options, and the one-line error helpers.  Never include
 * ISA-specific headers here: this file is compiled for the baseline ISA.
 */
#ifndef SIMDSV_INTERNAL_H
#define SIMDSV_INTERNAL_H

#include "simdsv.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIMDSV_UNUSED(x) ((void)(x))

/* One item of a string option (src/common/spec.h), decoded: "\," and "\\"
 * are literal.  Schema items keep only their selector in text; the type is
 * parsed into type. */
typedef struct spec_item {
    char *text;       /* NUL-terminated, owned */
    size_t size;      /* bytes of text */
    long index;       /* the selector as a 0-based column index ("#3" / "3"), or -1 */
    size_t key;       /* null tokens: bytes of a "name" before '=', 0 when there is none */
    simdsv_type type; /* schema items */
    bool at_least;    /* schema items: the column stays inferred, from this type up (simdsv_options_set_column_min_type) */
} spec_item;

typedef struct spec_list {
    spec_item *items;
    size_t count, cap;
} spec_list;

/* Resolved options; the reader keeps its own copy. */
struct simdsv_options {
    simdsv_allocator alloc;
    int delimiter;          /* 0..255: the delimiter's first byte (the one the kernels look for) */
    uint8_t delimiter_seq[4]; /* the whole delimiter (SIMDSV_OPT_DELIMITER_STRING) */
    int delimiter_len;        /* 1..4; above 1 every record goes through the slow path (slow.c) */
    char delimiter_text[5];   /* delimiter_seq NUL-terminated, for simdsv_options_get_string */
    bool trim_spaces;         /* SIMDSV_OPT_TRIM_SPACES: also read by the slow path only */
    int thousands;            /* SIMDSV_OPT_THOUSANDS: the digit-group separator, -1 = none */
    int quote;              /* -1 = none */
    int escape;             /* -1 = none */
    int comment;            /* first byte of the comment marker, -1 = none */
    uint8_t comment_seq[4]; /* the whole marker (a UTF-8 character, or "//") */
    int comment_len;
    char comment_text[5];   /* comment_seq NUL-terminated, for simdsv_options_get_string */
    bool header;
    uint64_t skip_lines;
    bool lenient;
    simdsv_utf8_mode utf8;
    simdsv_kernel kernel;
    size_t buffer_size;
    uint64_t max_record_size; /* 0 = unlimited */
    uint64_t max_fields;      /* 0 = unlimited */
    bool use_mmap;
    /* typed reader */
    int threads;              /* 0 = all cores */
    int64_t infer_rows;       /* -1 = all */
    uint64_t row_limit;       /* 0 = all */
    uint64_t batch_rows;      /* rows per record batch of a stream */
    simdsv_on_error on_error;
    simdsv_ragged short_rows, long_rows;
    bool decimal_comma;
    bool typed_quotes;        /* quoted fields typed like unquoted ones */
    uint64_t end_offset;      /* 0 = to the end */
    uint64_t header_rows;     /* >= 1 */
    simdsv_date_order date_order;
    char encoding[64];        /* SIMDSV_OPT_ENCODING as given, "" = UTF-8 */
    simdsv_compression compression; /* SIMDSV_OPT_COMPRESSION: read by simdsv_input only */
    bool union_by_name;       /* SIMDSV_OPT_UNION_BY_NAME: read by simdsv_dataset only */
    bool schema_partial;      /* a dataset's input: a schema item may name none of its columns (the dataset
                                 checks the joined columns instead); not an option */
    simdsv_hive hive;         /* SIMDSV_OPT_HIVE: read by simdsv_dataset only */
    char filename_column[256]; /* SIMDSV_OPT_FILENAME_COLUMN, "" = none: read by simdsv_dataset only */
    simdsv_strings strings;   /* SIMDSV_OPT_STRINGS: string columns as utf8 or as views */
    spec_list specs[6];       /* SIMDSV_OPT_NULL_VALUES.. NAMES, parsed once when set */
    char error[192];          /* why the last string or structured option was refused ("" if it was not) */
};

#define SIMDSV__STRING_OPTIONS 6
/* The parsed list of string option id. */
#define SIMDSV__SPEC(opt, id) ((opt)->specs[(id) - SIMDSV_OPT_NULL_VALUES])

/* Deep copy / release of the parsed string options of an options value. */
simdsv_status simdsv__options_copy_specs(struct simdsv_options *dst, const struct simdsv_options *src);
void simdsv__options_free_specs(struct simdsv_options *opt);

void simdsv__options_defaults(struct simdsv_options *opt);
/* The allocator of opt, or the default one when opt is NULL. */
simdsv_allocator simdsv__options_allocator(const simdsv_options *opt);

void *simdsv__alloc(const simdsv_allocator *a, size_t size);
void *simdsv__realloc(const simdsv_allocator *a, void *ptr, size_t old_size, size_t new_size);
void simdsv__free(const simdsv_allocator *a, void *ptr, size_t size);
/* A block p of size bytes just had from simdsv__alloc with a's hooks, that
 * read() is to fill once: with the default allocator its pages stay small
 * (see options.c); nothing for a caller's allocator. */
void simdsv__read_buffer_pages(const simdsv_allocator *a, void *p, size_t size);

/* Grows *array (element size elem) to hold at least need elements, doubling. */
simdsv_status simdsv__grow(const simdsv_allocator *a, void **array, size_t *cap, size_t need, size_t elem);

/* Calls fn(ctx, i) for i in [0, n): i = 0 on the caller's thread, the others
 * on threads started for them (on the caller's thread when one cannot
 * start); returns when all are done.  0 (nothing ran) when memory for the
 * thread handles is lacking. */
int simdsv__run_threads(const simdsv_allocator *a, size_t n, void (*fn)(void *ctx, size_t i), void *ctx);
/* The threads a request gets (SIMDSV_OPT_THREADS; 0 or less: every online
 * core, 1 when unknown): at most 256, for the count, the typed reader and the
 * writers alike. */
int simdsv__thread_count(int requested);

#endif
