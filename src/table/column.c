/* column.c — column builders: text of one field -> one Arrow slot. */
#include "table.h"
#include "../values/values.h"

#include <string.h>

static size_t value_width(simdsv_type t)
{
    switch (t) {
    case SIMDSV_TYPE_INT64:
    case SIMDSV_TYPE_TIMESTAMP:
    case SIMDSV_TYPE_FLOAT64:
        return 8;
    case SIMDSV_TYPE_DATE:
        return 4;
    default:
        return 0; /* bool: bits; string: offsets; null: nothing */
    }
}

/* Grows geometrically.  New memory is not cleared: bitmap bytes are
 * written whole when their first bit is set (see set_bit), and the export
 * clears the unused bits of the last byte. */
static int reserve(const simdsv_allocator *a, void **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 1;
    size_t n = *cap ? *cap : 256;
    while (n < need)
        n *= 2;
    void *q = simdsv__realloc(a, *p, *cap, n);
    if (!q)
        return 0;
    *p = q;
    *cap = n;
    return 1;
}

simdsv_status simdsv__column_reserve(const simdsv_allocator *a, column *c, uint64_t rows)
{
    void *v = c->validity;
    if (!reserve(a, &v, &c->validity_cap, (size_t)((rows + 7) / 8)))
        return SIMDSV_ERR_NOMEM;
    c->validity = v;
    const size_t width = value_width(c->type);
    const size_t bytes = c->type == SIMDSV_TYPE_BOOL ? (size_t)((rows + 7) / 8) : width * (size_t)rows;
    v = c->values;
    if (!reserve(a, &v, &c->values_cap, bytes))
        return SIMDSV_ERR_NOMEM;
    c->values = v;
    if (c->type == SIMDSV_TYPE_STRING) {
        const size_t w = simdsv__offset_width(c);
        v = c->offsets;
        size_t cap_bytes = c->offsets_cap * w;
        if (!reserve(a, &v, &cap_bytes, (size_t)(rows + 1) * w))
            return SIMDSV_ERR_NOMEM;
        c->offsets = v;
        c->offsets_cap = cap_bytes / w;
        simdsv__offset_put(c, 0, 0);
    }
    return SIMDSV_OK;
}

simdsv_status simdsv__column_widen_offsets(const simdsv_allocator *a, column *c)
{
    if (c->wide_offsets)
        return SIMDSV_OK;
    c->wide_offsets = 1;
    if (!c->offsets)
        return SIMDSV_OK;
    void *p = simdsv__realloc(a, c->offsets, c->offsets_cap * sizeof(int32_t), c->offsets_cap * sizeof(int64_t));
    if (!p) {
        c->wide_offsets = 0;
        return SIMDSV_ERR_NOMEM;
    }
    /* From the last entry down: the int64 at 8i covers int32 slots 2i and
     * 2i + 1, both at or after i, so already read. */
    unsigned char *bytes = p;
    for (size_t i = c->length + 1; i-- > 0;) {
        int32_t narrow;
        memcpy(&narrow, bytes + 4 * i, sizeof narrow);
        const int64_t wide = narrow;
        memcpy(bytes + 8 * i, &wide, sizeof wide);
    }
    c->offsets = p;
    return SIMDSV_OK;
}

simdsv_status simdsv__column_reserve_chars(const simdsv_allocator *a, column *c, size_t extra)
{
    if (!c->wide_offsets && (c->chars_len > (size_t)INT32_MAX || extra > (size_t)INT32_MAX - c->chars_len) &&
        simdsv__column_widen_offsets(a, c) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    void *p = c->chars;
    if (!reserve(a, &p, &c->chars_cap, c->chars_len + extra))
        return SIMDSV_ERR_NOMEM;
    c->chars = p;
    return SIMDSV_OK;
}

/* Room for one more slot in every buffer of c. */
static int grow_slot(const simdsv_allocator *a, column *c)
{
    const uint64_t n = c->length + 1;
    void *v = c->validity;
    if (!reserve(a, &v, &c->validity_cap, (size_t)((n + 7) / 8)))
        return 0;
    c->validity = v;
    v = c->values;
    const size_t width = value_width(c->type);
    const size_t bytes = c->type == SIMDSV_TYPE_BOOL ? (size_t)((n + 7) / 8) : width * (size_t)n;
    if (!reserve(a, &v, &c->values_cap, bytes))
        return 0;
    c->values = v;
    if (c->type == SIMDSV_TYPE_STRING) {
        const size_t w = simdsv__offset_width(c);
        v = c->offsets;
        size_t cap_bytes = c->offsets_cap * w;
        if (!reserve(a, &v, &cap_bytes, (size_t)(n + 1) * w))
            return 0;
        c->offsets = v;
        c->offsets_cap = cap_bytes / w;
        if (c->length == 0)
            simdsv__offset_put(c, 0, 0);
    }
    return 1;
}

static void finish_slot(column *c, int valid)
{
    simdsv__set_bit(c->validity, c->length, valid);
    c->null_count += !valid;
    c->length++;
}

/* A timestamp field: a timestamp, or a date (its midnight, UTC), ISO or in
 * the date order of the options. */
static int parse_timestamp_or_date(const char *s, size_t n, simdsv_date_order order, int64_t *v)
{
    int32_t days;
    bool has_time;
    if (simdsv__parse_timestamp(s, n, v))
        return 1;
    if (simdsv__parse_date(s, n, &days)) {
        *v = (int64_t)days * 86400 * 1000000;
        return 1;
    }
    return order && simdsv__scan_ordered(s, n, order, v, &has_time) == SIMDSV__TIME_OK;
}

/* A date field: ISO, or a date without a time in the date order. */
static int parse_any_date(const char *s, size_t n, simdsv_date_order order, int32_t *days)
{
    int64_t us;
    bool has_time;
    if (simdsv__parse_date(s, n, days))
        return 1;
    if (!order || simdsv__scan_ordered(s, n, order, &us, &has_time) != SIMDSV__TIME_OK || has_time)
        return 0;
    *days = (int32_t)(us / (INT64_C(86400) * 1000000));
    return 1;
}

int simdsv__integer_past_2p53(const char *s, size_t n)
{
    int64_t v;
    const int64_t limit = (int64_t)1 << 53;
    return n >= 16 && simdsv__parse_int64(s, n, &v) && (v > limit || v < -limit); /* 2^53 has 16 digits */
}

/* One loop per type, so that the type is decided once per run. */
size_t simdsv__column_put_run(column *c, uint64_t at, const slot_text *texts, size_t count, const value_rules *rules)
{
    size_t i = 0;
    switch (c->type) {
    case SIMDSV_TYPE_NULL:
        for (; i < count && !texts[i].s; i++) {
        }
        return i; /* a null column holds only nulls */
    case SIMDSV_TYPE_BOOL:
        for (; i < count; i++) {
            int value = 0;
            if (texts[i].s) {
                if (simdsv__list_contains(rules->true_values, texts[i].s, texts[i].n))
                    value = 1;
                else if (!simdsv__list_contains(rules->false_values, texts[i].s, texts[i].n))
                    return i;
            }
            simdsv__set_bit(c->values, at + i, value);
        }
        return i;
    case SIMDSV_TYPE_INT64: {
        int64_t *out = (int64_t *)(void *)c->values + at;
        const char sep = rules ? rules->thousands : 0;
        for (; i < count; i++) {
            out[i] = 0;
            if (texts[i].s && !simdsv__parse_int64(texts[i].s, texts[i].n, &out[i]) &&
                !(sep && simdsv__parse_int64_grouped(texts[i].s, texts[i].n, sep, &out[i])))
                return i;
        }
        return i;
    }
    case SIMDSV_TYPE_FLOAT64: {
        double *out = (double *)(void *)c->values + at;
        const int comma = rules && rules->decimal_comma; /* no rules: nulls only */
        const char sep = rules ? rules->thousands : 0;
        const int exact = rules && rules->exact_integers;
        for (; i < count; i++) {
            out[i] = 0;
            if (texts[i].s && (!(comma ? simdsv__parse_double_comma(texts[i].s, texts[i].n, &out[i])
                                       : simdsv__parse_double(texts[i].s, texts[i].n, &out[i])) ||
                               (exact && simdsv__integer_past_2p53(texts[i].s, texts[i].n))) &&
                !(sep && simdsv__parse_double_grouped(texts[i].s, texts[i].n, sep, comma, &out[i]) &&
                  !(exact && (out[i] > 9007199254740992.0 || out[i] < -9007199254740992.0))))
                return i;
        }
        return i;
    }
    case SIMDSV_TYPE_DATE: {
        int32_t *out = (int32_t *)(void *)c->values + at;
        for (; i < count; i++) {
            out[i] = 0;
            if (texts[i].s && !parse_any_date(texts[i].s, texts[i].n, rules->date_order, &out[i]))
                return i;
        }
        return i;
    }
    case SIMDSV_TYPE_TIMESTAMP: {
        int64_t *out = (int64_t *)(void *)c->values + at;
        for (; i < count; i++) {
            out[i] = 0;
            if (texts[i].s && !parse_timestamp_or_date(texts[i].s, texts[i].n, rules->date_order, &out[i]))
                return i;
        }
        return i;
    }
    case SIMDSV_TYPE_STRING: {
        /* The bytes were reserved, and the offsets widened if they could
         * pass INT32_MAX (simdsv__column_reserve_chars). */
        char *chars = c->chars;
        size_t len = c->chars_len;
        const int wide = c->wide_offsets; /* locals: byte stores may alias c */
        void *offsets = c->offsets;
        for (; i < count; i++) {
            if (texts[i].s && texts[i].n) { /* (no bytes yet: chars may be NULL) */
                memcpy(chars + len, texts[i].s, texts[i].n);
                len += texts[i].n;
            }
            if (wide)
                ((int64_t *)offsets)[at + 1 + i] = (int64_t)len;
            else
                ((int32_t *)offsets)[at + 1 + i] = (int32_t)len;
        }
        c->chars_len = len;
        return i;
    }
    }
    return 0;
}

simdsv_status simdsv__column_append_null(const simdsv_allocator *a, column *c)
{
    if (!grow_slot(a, c))
        return SIMDSV_ERR_NOMEM;
    const slot_text null = {NULL, 0};
    simdsv__column_put_run(c, c->length, &null, 1, NULL);
    finish_slot(c, 0);
    return SIMDSV_OK;
}

int simdsv__column_append_text(const simdsv_allocator *a, column *c, const char *s, size_t n,
                               const value_rules *rules, int *nomem)
{
    *nomem = 0;
    if (!grow_slot(a, c) || (c->type == SIMDSV_TYPE_STRING && simdsv__column_reserve_chars(a, c, n) != SIMDSV_OK)) {
        *nomem = 1;
        return 0;
    }
    const slot_text text = {s ? s : "", n};
    if (simdsv__column_put_run(c, c->length, &text, 1, rules) != 1)
        return 0;
    finish_slot(c, 1);
    return 1;
}

void simdsv__column_free_data(const simdsv_allocator *a, column *c)
{
    simdsv__free(a, c->validity, c->validity_cap);
    simdsv__free(a, c->values, c->values_cap);
    simdsv__free(a, c->offsets, c->offsets_cap * simdsv__offset_width(c));
    simdsv__free(a, c->chars, c->chars_cap);
    simdsv__column_forget_data(c);
}

void simdsv__column_forget_data(column *c)
{
    c->validity = c->values = NULL;
    c->offsets = NULL;
    c->chars = NULL;
    c->validity_cap = c->values_cap = c->offsets_cap = c->chars_cap = c->chars_len = 0;
    c->wide_offsets = 0;
    c->length = c->null_count = 0;
}
