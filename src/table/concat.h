/*
 * concat.h — a column made of the rows of other columns (concat.c): what
 * src/dataset/ needs of the typed reader's columns, and nothing more.
 */
#ifndef SIMDSV_CONCAT_H
#define SIMDSV_CONCAT_H

#include "table.h"

/* One piece of the rows: `from`'s rows (of the target type, or all null);
 * or, without from, `repeat`'s one row `rows` times; or, without either,
 * `rows` nulls. */
typedef struct concat_piece {
    const column *from;
    const column *repeat;
    uint64_t rows;
} concat_piece;

/* Appends the pieces' rows, in order, to dst (its type set, no rows yet).
 * SIMDSV_ERR_INVALID_ARGUMENT when a piece's column has values of another
 * type; NOMEM. */
simdsv_status simdsv__column_concat(const simdsv_allocator *a, column *dst, const concat_piece *pieces, size_t n);

/* Appends n bits of src to dst at bit `at` (dst's bits below `at` kept;
 * the byte after the last one written may be written too). */
void simdsv__bitmap_append(uint8_t *dst, uint64_t at, const uint8_t *src, uint64_t n);

#endif
