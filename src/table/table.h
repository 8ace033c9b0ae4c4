/*
 * table.h — the typed columnar reader's internals: column builders laid out
 * as Arrow buffers, the table, and the conversions between them.
 */
#ifndef SIMDSV_TABLE_H
#define SIMDSV_TABLE_H

#include "../common/internal.h"
#include "spec.h"

/* One column being built: validity bitmap plus the value buffer of its type
 * (bool: bitmap, int64/timestamp: int64, float64: double, date: int32,
 * string: int64 offsets + bytes; converted to int32 offsets at export when
 * the bytes fit). */
typedef struct column {
    char *name;
    size_t name_size;
    simdsv_type type;
    int user_type;
    char reason[224];
    size_t source;         /* field index in the record */
    string_list nulls;     /* extra null tokens of this column */
    uint64_t length, null_count;
    uint8_t *validity;
    size_t validity_cap;
    uint8_t *values;
    size_t values_cap;
    int64_t *offsets;
    size_t offsets_cap;
    char *chars;
    size_t chars_len, chars_cap;
} column;

typedef struct reject_entry {
    simdsv_reject pub;
    size_t value_size;
    size_t reason_size;
} reject_entry;

struct simdsv_table {
    simdsv_allocator alloc;
    column *cols;
    size_t ncols, cols_cap;
    uint64_t rows;
    reject_entry *rejects;
    size_t nrejects, rejects_cap;
};

/* Builders. */
simdsv_status simdsv__column_append_null(const simdsv_allocator *a, column *c);
/* Capacity for rows slots (an estimate: appending past it still grows). */
simdsv_status simdsv__column_reserve(const simdsv_allocator *a, column *c, uint64_t rows);
/* Appends the text as a value of c->type; returns 0 when it does not fit. */
int simdsv__column_append_text(const simdsv_allocator *a, column *c, const char *s, size_t n, int decimal_comma,
                               const string_list *true_values, const string_list *false_values, int *nomem);
void simdsv__column_free_data(const simdsv_allocator *a, column *c);

#endif
