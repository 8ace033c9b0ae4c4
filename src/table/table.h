/*
 * table.h — the typed columnar reader's internals: column builders laid out
 * as Arrow buffers, the table, and the conversions between them.
 */
#ifndef SIMDSV_TABLE_H
#define SIMDSV_TABLE_H

#include "../common/internal.h"
#include "../common/spec.h"

/* String views (SIMDSV_STRINGS_VIEW): where a table's views of strings
 * longer than 12 bytes point.  Buffer indexes 0 .. windows - 1 are the
 * input, shared with the reader (src/record/shared.c): window k starts at
 * base + k * VIEW_WINDOW and runs 2 * VIEW_WINDOW bytes (or to the end), so
 * that every string of at most VIEW_WINDOW bytes that starts in window k
 * lies in it at an offset under 2^31 (views hold int32 offsets).  The
 * indexes after them are each column's side blocks: the bytes of strings
 * that are decoded, longer than VIEW_WINDOW, or not in a shared input. */
#define VIEW_WINDOW ((size_t)1 << 30)
typedef struct simdsv__shared_input simdsv__shared_input;
typedef struct view_input {
    bool views;                  /* string columns are built as views */
    const uint8_t *base;         /* the shared input (NULL: none, every long string is copied) */
    size_t size;
    uint32_t windows;
    simdsv__shared_input *shared; /* the table's reference */
} view_input;

/* A full side block of a view column (the bytes of some long strings). */
typedef struct side_block {
    char *data;
    size_t len, cap;
} side_block;

/* One column being built: validity bitmap plus the value buffer of its type
 * (bool: bitmap, int64/timestamp: int64, float64: double, date: int32,
 * string: offsets + bytes, or views).  String offsets are int32, as Arrow's
 * utf8 wants them, until the bytes could pass INT32_MAX: then they are
 * widened to int64 in place (wide_offsets) and export as large_utf8 if the
 * bytes really do.  A string column of a table read as views
 * (simdsv__column_views) has 16-byte views in values and no offsets; chars
 * is its current side block (buffer index vin->windows + nblocks), and the
 * blocks before it are full (each under 2^31 bytes). */
typedef struct column {
    char *name;
    size_t name_size;
    simdsv_type type;
    int user_type;
    int utc;               /* a timestamp column: 1 when the inference sample's values had zone offsets (Arrow
                              zone "UTC"), 0 for naive wall-clock timestamps */
    char reason[224];
    size_t source;         /* field index in the record */
    spec_list nulls;     /* extra null tokens of this column */
    uint64_t length, null_count;
    uint8_t *validity;
    size_t validity_cap;
    uint8_t *values;
    size_t values_cap;
    void *offsets;          /* int32_t or int64_t entries (wide_offsets) */
    size_t offsets_cap;     /* entries */
    int wide_offsets;
    simdsv_type min_type;   /* inferred columns: the inference starts from it (simdsv_options_set_column_min_type) */
    char *chars;
    size_t chars_len, chars_cap;
    const view_input *vin;  /* the table's (NULL: utf8) */
    side_block *blocks;     /* views: the full side blocks */
    size_t nblocks, blocks_cap;
    int input_refs;         /* views: some view points into the input */
    const char **view_buffers; /* views: every buffer index's first byte (simdsv_column_view), or NULL */
    size_t view_buffers_count;
} column;

typedef struct reject_entry {
    simdsv_reject pub;
    size_t value_size;
    size_t reason_size;
} reject_entry;

struct simdsv_table {
    simdsv_allocator alloc;
    view_input vin;
    column *cols;
    size_t ncols, cols_cap;
    uint64_t rows;
    reject_entry *rejects;
    size_t nrejects, rejects_cap;
};

/* Bit i of a bitmap whose bits past i are not yet written (new bytes are
 * not cleared: a byte is written whole when its first bit is set). */
static inline void simdsv__set_bit(uint8_t *bitmap, uint64_t i, int value)
{
    const uint8_t mask = (uint8_t)(1u << (i % 8));
    if (i % 8 == 0)
        bitmap[i / 8] = value ? mask : 0;
    else if (value)
        bitmap[i / 8] |= mask;
}

/* Whether c is a string column built as views (SIMDSV_STRINGS_VIEW). */
static inline int simdsv__column_views(const column *c)
{
    return c->type == SIMDSV_TYPE_STRING && c->vin && c->vin->views;
}

/* String offset i of c, and setting it. */
static inline int64_t simdsv__offset_get(const column *c, uint64_t i)
{
    if (c->wide_offsets)
        return ((const int64_t *)c->offsets)[i];
    return ((const int32_t *)c->offsets)[i];
}

static inline void simdsv__offset_put(column *c, uint64_t i, int64_t v)
{
    if (c->wide_offsets)
        ((int64_t *)c->offsets)[i] = v;
    else
        ((int32_t *)c->offsets)[i] = (int32_t)v;
}

static inline size_t simdsv__offset_width(const column *c)
{
    return c->wide_offsets ? sizeof(int64_t) : sizeof(int32_t);
}

/* Builders. */
simdsv_status simdsv__column_append_null(const simdsv_allocator *a, column *c);
/* Capacity for rows slots (an estimate: appending past it still grows),
 * the new room faulted in at once (it is about to be written). */
simdsv_status simdsv__column_reserve(const simdsv_allocator *a, column *c, uint64_t rows);
/* The same, the room left to fault as it is written (the threaded read
 * faults each chunk's share on its own thread). */
simdsv_status simdsv__column_reserve_unfaulted(const simdsv_allocator *a, column *c, uint64_t rows);
/* How text becomes a value: the bool spellings and the decimal separator. */
typedef struct value_rules {
    const spec_list *true_values, *false_values;
    int decimal_comma;
    int exact_integers; /* float64: an integer past 2^53 does not fit (inferred columns: no silent rounding) */
    simdsv_date_order date_order; /* dates and timestamps also in this order (SIMDSV_OPT_DATE_ORDER) */
    char thousands;     /* digit-group separator of int64 and float64 text, 0 = none (SIMDSV_OPT_THOUSANDS) */
} value_rules;

/* An integer text (sign and digits) whose magnitude is past 2^53, where
 * float64 stops holding every integer exactly. */
int simdsv__integer_past_2p53(const char *s, size_t n);

/* Appends the text as a value of c->type; returns 0 when it does not fit. */
int simdsv__column_append_text(const simdsv_allocator *a, column *c, const char *s, size_t n,
                               const value_rules *rules, int *nomem);

/* The text of one slot; s == NULL: a null. */
typedef struct slot_text {
    const char *s;
    size_t n;
} slot_text;

/* Writes texts[0..count) as values of c->type into slots at.. (capacity
 * reserved, string bytes included).  Returns count when every one fits,
 * else the index of the first that does not (those before it are written).
 * Validity bits, the length and the null count are the caller's. */
size_t simdsv__column_put_run(column *c, uint64_t at, const slot_text *texts, size_t count,
                              const value_rules *rules);
/* The same field of consecutive regular rows, straight from the reader's
 * field starts (src/record/batch.h): field i starts at origin + pos[i *
 * stride] (its opening quote included) and ends before origin + pos[i *
 * stride + 1] - 1, its separator. */
typedef struct field_run {
    const char *origin;
    const uint32_t *pos;
    size_t stride, count;
    int quote, escape; /* the dialect's bytes, or 256 for none */
    size_t readable;   /* origin[0..readable) may be read past a field's end (word loads); 0: no more than the field */
    const struct value_kernel *kernel; /* the number kernels (src/values/fields.h) */
} field_run;

/* The common case of a run, gathered and converted in one loop per type
 * (each field's bytes read once, no slot_text between): an unquoted empty
 * field is a null, any other field a value of c->type.  Converts fields
 * from the first on into the slots after c->length (capacity reserved,
 * string bytes included: the run's span) with their validity bits, and
 * moves c->length, c->null_count and c->chars_len on.  Returns how many it
 * took: it stops before the first field that needs the general rules — a
 * quoted field of a typed column, a value that does not parse, with
 * no_leading_zero an integer such as 00501 — and the caller's general path
 * takes that one (a quoted string is decoded here).  Null tokens
 * other than the empty field are the caller's: with any, do not call. */
size_t simdsv__column_put_fields(column *c, const field_run *f, const value_rules *rules, int no_leading_zero);
/* Capacity for extra more string bytes (the offsets widened first if the
 * bytes could pass INT32_MAX). */
simdsv_status simdsv__column_reserve_chars(const simdsv_allocator *a, column *c, size_t extra);
/* int32 offsets -> int64, in place (the buffer doubles). */
simdsv_status simdsv__column_widen_offsets(const simdsv_allocator *a, column *c);
void simdsv__column_free_data(const simdsv_allocator *a, column *c);
/* A view column's side blocks: chars closed as a full block (when it holds
 * bytes) and a new one started empty.  0 when out of memory. */
int simdsv__column_close_side(const simdsv_allocator *a, column *c);
/* view_buffers of c from its input windows and side blocks (for
 * simdsv_column_view); SIMDSV_OK for a column not read as views. */
simdsv_status simdsv__column_view_buffers(const simdsv_allocator *a, column *c);
/* The number of buffers a view column's views may name: its input windows
 * and side blocks (0 when every string is inline), the current one
 * included when it holds bytes. */
size_t simdsv__column_variadic_count(const column *c);
/* Buffer index i of such a column: its first byte and size. */
void simdsv__column_variadic(const column *c, size_t i, const char **data, size_t *size);
/* No rows and no buffers, without freeing them (they belong elsewhere). */
void simdsv__column_forget_data(column *c);

#endif
