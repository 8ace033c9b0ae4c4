/*
 * concat.c — one column made of the rows of other columns, one piece after
 * another: the tables of a dataset's inputs concatenated (src/dataset/).
 * Values are copied as they are (never converted: a piece has the target
 * type, or is all null), validity bits shifted into place and string
 * offsets rebased.  A piece may also be a run of nulls (a column an input
 * lacks) or one value repeated (a hive partition, the file name).
 */
#include "concat.h"

#include <string.h>

static size_t fixed_width(simdsv_type type)
{
    return type == SIMDSV_TYPE_DATE ? 4
           : type == SIMDSV_TYPE_INT64 || type == SIMDSV_TYPE_FLOAT64 || type == SIMDSV_TYPE_TIMESTAMP
               ? 8
               : 0;
}

void simdsv__bitmap_append(uint8_t *dst, uint64_t at, const uint8_t *src, uint64_t n)
{
    if (n == 0)
        return;
    const unsigned shift = (unsigned)(at % 8);
    uint8_t *d = dst + at / 8;
    const size_t bytes = (size_t)((n + 7) / 8);
    if (shift == 0) {
        memcpy(d, src, bytes);
        return;
    }
    d[0] = (uint8_t)((d[0] & ((1u << shift) - 1)) | (unsigned)(src[0] << shift));
    for (size_t i = 1; i < bytes; i++)
        d[i] = (uint8_t)((src[i - 1] >> (8 - shift)) | (unsigned)(src[i] << shift));
    if ((shift + n + 7) / 8 > bytes)
        d[bytes] = (uint8_t)(src[bytes - 1] >> (8 - shift));
}

/* Bits [at, at + n) set to value (the bits below `at` kept). */
static void bitmap_fill(uint8_t *bitmap, uint64_t at, uint64_t n, int value)
{
    for (; n && at % 8; at++, n--)
        simdsv__set_bit(bitmap, at, value);
    memset(bitmap + at / 8, value ? 0xFF : 0, (size_t)(n / 8));
    at += n / 8 * 8;
    for (n %= 8; n; at++, n--)
        simdsv__set_bit(bitmap, at, value);
}

/* A piece's rows are all null: a run of nulls, a null repeated, a column of
 * the null type, or one that has no value. */
static int all_null(const concat_piece *p)
{
    const column *c = p->from ? p->from : p->repeat;
    return !c || c->type == SIMDSV_TYPE_NULL || c->null_count == c->length;
}

/* The bytes of the one value a repeat piece repeats. */
static size_t repeat_chars(const column *c)
{
    return (size_t)(simdsv__offset_get(c, 1) - simdsv__offset_get(c, 0));
}

static size_t piece_chars(const concat_piece *p)
{
    if (all_null(p) || (p->from ? p->from : p->repeat)->type != SIMDSV_TYPE_STRING)
        return 0;
    return p->from ? p->from->chars_len : repeat_chars(p->repeat) * (size_t)p->rows;
}

/* Appends one piece's rows at dst's end (capacity reserved). */
static void append_piece(column *dst, const concat_piece *p)
{
    const uint64_t at = dst->length;
    const size_t width = fixed_width(dst->type);
    if (all_null(p)) {
        bitmap_fill(dst->validity, at, p->rows, 0);
        if (width)
            memset(dst->values + width * at, 0, width * (size_t)p->rows);
        else if (dst->type == SIMDSV_TYPE_BOOL)
            bitmap_fill(dst->values, at, p->rows, 0);
        for (uint64_t i = 0; dst->type == SIMDSV_TYPE_STRING && i < p->rows; i++)
            simdsv__offset_put(dst, at + i + 1, (int64_t)dst->chars_len);
        dst->null_count += p->rows;
    } else if (p->from) {
        const column *c = p->from;
        simdsv__bitmap_append(dst->validity, at, c->validity, c->length);
        if (width)
            memcpy(dst->values + width * at, c->values, width * (size_t)c->length);
        else if (dst->type == SIMDSV_TYPE_BOOL)
            simdsv__bitmap_append(dst->values, at, c->values, c->length);
        if (dst->type == SIMDSV_TYPE_STRING) {
            const int64_t base = (int64_t)dst->chars_len - simdsv__offset_get(c, 0);
            for (uint64_t i = 1; i <= c->length; i++)
                simdsv__offset_put(dst, at + i, base + simdsv__offset_get(c, i));
            if (c->chars_len) /* a column of empty strings may have no chars buffer at all */
                memcpy(dst->chars + dst->chars_len, c->chars, c->chars_len);
            dst->chars_len += c->chars_len;
        }
        dst->null_count += c->null_count;
    } else {
        const column *c = p->repeat;
        bitmap_fill(dst->validity, at, p->rows, 1);
        for (uint64_t i = 0; width && i < p->rows; i++)
            memcpy(dst->values + width * (at + i), c->values, width);
        if (dst->type == SIMDSV_TYPE_BOOL)
            bitmap_fill(dst->values, at, p->rows, c->values[0] & 1);
        const size_t n = dst->type == SIMDSV_TYPE_STRING ? repeat_chars(c) : 0;
        for (uint64_t i = 0; dst->type == SIMDSV_TYPE_STRING && i < p->rows; i++) {
            if (n) /* an empty value repeated: its column may have no chars buffer */
                memcpy(dst->chars + dst->chars_len, c->chars + simdsv__offset_get(c, 0), n);
            dst->chars_len += n;
            simdsv__offset_put(dst, at + i + 1, (int64_t)dst->chars_len);
        }
    }
    dst->length = at + p->rows;
}

simdsv_status simdsv__column_concat(const simdsv_allocator *a, column *dst, const concat_piece *pieces, size_t n)
{
    uint64_t rows = 0;
    size_t chars = 0;
    for (size_t i = 0; i < n; i++) {
        const column *c = pieces[i].from;
        if (c && !all_null(&pieces[i]) && c->type != dst->type)
            return SIMDSV_ERR_INVALID_ARGUMENT; /* the caller reads such an input again with the joined type */
        rows += c ? c->length : pieces[i].rows;
        chars += piece_chars(&pieces[i]);
    }
    /* Eight rows more than the pieces hold: a bitmap appended may write the
     * byte after its last whole one. */
    if (simdsv__column_reserve(a, dst, rows + 8) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    if (dst->type == SIMDSV_TYPE_STRING && simdsv__column_reserve_chars(a, dst, chars ? chars : 1) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        concat_piece p = pieces[i];
        if (p.from)
            p.rows = p.from->length;
        append_piece(dst, &p);
    }
    return SIMDSV_OK;
}
