/* column.c — column builders: text of one field -> one Arrow slot. */
#include "table.h"
#include "../values/values.h"
#include "../values/fast.h"
#include "../values/fields.h"

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
 * clears the unused bits of the last byte.  Big buffers keep small pages
 * (simdsv__column_pages: on a VM huge pages cost more than they save). */
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
    simdsv__column_pages(a, q, n);
    *p = q;
    *cap = n;
    return 1;
}

/* reserve, and when it grew, the bytes up to need faulted in at once
 * (simdsv__populate_pages): they are about to be written. */
static int reserve_faulted(const simdsv_allocator *a, void **p, size_t *cap, size_t need, int fault)
{
    const size_t before = *cap;
    if (!reserve(a, p, cap, need))
        return 0;
    if (fault && *cap != before)
        simdsv__populate_pages(a, (char *)*p + before, need - before);
    return 1;
}

/* Bytes of c's value buffer for one slot (0: bits, or utf8 offsets). */
static size_t slot_width(const column *c)
{
    return simdsv__column_views(c) ? 16 : value_width(c->type);
}

/* Room for rows slots; fault: the new room faulted in at once (a reader
 * that writes these rows soon). */
static simdsv_status column_reserve(const simdsv_allocator *a, column *c, uint64_t rows, int fault)
{
    void *v = c->validity;
    if (!reserve_faulted(a, &v, &c->validity_cap, (size_t)((rows + 7) / 8), fault))
        return SIMDSV_ERR_NOMEM;
    c->validity = v;
    const size_t width = slot_width(c);
    const size_t bytes = c->type == SIMDSV_TYPE_BOOL ? (size_t)((rows + 7) / 8) : width * (size_t)rows;
    v = c->values;
    if (!reserve_faulted(a, &v, &c->values_cap, bytes, fault))
        return SIMDSV_ERR_NOMEM;
    c->values = v;
    if (c->type == SIMDSV_TYPE_STRING && !simdsv__column_views(c)) {
        const size_t w = simdsv__offset_width(c);
        v = c->offsets;
        size_t cap_bytes = c->offsets_cap * w;
        if (!reserve_faulted(a, &v, &cap_bytes, (size_t)(rows + 1) * w, fault))
            return SIMDSV_ERR_NOMEM;
        c->offsets = v;
        c->offsets_cap = cap_bytes / w;
        simdsv__offset_put(c, 0, 0);
    }
    return SIMDSV_OK;
}

simdsv_status simdsv__column_reserve(const simdsv_allocator *a, column *c, uint64_t rows)
{
    return column_reserve(a, c, rows, 1);
}

simdsv_status simdsv__column_reserve_unfaulted(const simdsv_allocator *a, column *c, uint64_t rows)
{
    return column_reserve(a, c, rows, 0);
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

int simdsv__column_close_side(const simdsv_allocator *a, column *c)
{
    if (!c->chars_len)
        return 1;
    void *p = c->blocks;
    if (simdsv__grow(a, &p, &c->blocks_cap, c->nblocks + 1, sizeof *c->blocks) != SIMDSV_OK)
        return 0;
    c->blocks = p;
    c->blocks[c->nblocks++] = (side_block){c->chars, c->chars_len, c->chars_cap};
    c->chars = NULL;
    c->chars_len = c->chars_cap = 0;
    return 1;
}

/* String bytes faulted in a step at a time (simdsv__column_reserve_chars). */
#define CHARS_STEP ((size_t)4 << 20)

simdsv_status simdsv__column_reserve_chars(const simdsv_allocator *a, column *c, size_t extra)
{
    if (simdsv__column_views(c)) {
        /* views hold int32 offsets: a side block stays under 2^31 bytes */
        if (extra > (size_t)INT32_MAX - c->chars_len && !simdsv__column_close_side(a, c))
            return SIMDSV_ERR_NOMEM;
        void *p = c->chars;
        if (!reserve(a, &p, &c->chars_cap, c->chars_len + extra))
            return SIMDSV_ERR_NOMEM;
        c->chars = p;
        return SIMDSV_OK;
    }
    if (!c->wide_offsets && (c->chars_len > (size_t)INT32_MAX || extra > (size_t)INT32_MAX - c->chars_len) &&
        simdsv__column_widen_offsets(a, c) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    void *p = c->chars;
    if (!reserve(a, &p, &c->chars_cap, c->chars_len + extra))
        return SIMDSV_ERR_NOMEM;
    c->chars = p;
    /* The bytes' total is not known ahead: each CHARS_STEP is faulted in at
     * once when the bytes are about to enter it. */
    const size_t next = (c->chars_len / CHARS_STEP + 1) * CHARS_STEP, need = c->chars_len + extra;
    if (need > next && next < c->chars_cap) {
        const size_t until = (need / CHARS_STEP + 1) * CHARS_STEP;
        simdsv__populate_pages(a, c->chars + next, (until < c->chars_cap ? until : c->chars_cap) - next);
    }
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
    const size_t width = slot_width(c);
    const size_t bytes = c->type == SIMDSV_TYPE_BOOL ? (size_t)((n + 7) / 8) : width * (size_t)n;
    if (!reserve(a, &v, &c->values_cap, bytes))
        return 0;
    c->values = v;
    if (c->type == SIMDSV_TYPE_STRING && !simdsv__column_views(c)) {
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

/* ------------------------------------------------------------ string views */

/* Where a run's views of long strings go: the shared input, or the current
 * side block (room reserved by the caller: the run's bytes). */
typedef struct view_sink {
    const char *base; /* the shared input (NULL: none) */
    size_t size;
    uint32_t side;    /* the side block's buffer index */
    char *chars;
    size_t len;
    int input_refs;
} view_sink;

static inline view_sink view_sink_open(const column *c)
{
    const view_input *in = c->vin;
    const view_sink v = {(const char *)in->base, in->size, in->windows + (uint32_t)c->nblocks, c->chars,
                         c->chars_len, 0};
    return v;
}

static inline void view_sink_close(column *c, const view_sink *v)
{
    c->chars_len = v->len;
    c->input_refs |= v->input_refs;
}

/* The 16-byte view of the n bytes at s (Arrow's layout, little-endian):
 * int32 length, then up to 12 bytes inline (zero-padded), or the first 4
 * bytes, the buffer index and the offset.  wide: 16 bytes from s may be
 * read (the field's buffer goes on); else no byte past s + n is. */
static inline void view_put(view_sink *v, unsigned char *out, const char *s, size_t n, int wide)
{
    uint64_t w0, w1;
    if (n <= 12) {
        uint64_t d0 = 0, d1 = 0;
        if (wide) {
            memcpy(&d0, s, 8);
            memcpy(&d1, s + 8, 8);
            if (n < 8) {
                d0 = n ? d0 & (~UINT64_C(0) >> (64 - 8 * n)) : 0;
                d1 = 0;
            } else {
                d1 = n > 8 ? d1 & (~UINT64_C(0) >> (64 - 8 * (n - 8))) : 0;
            }
        } else if (n) {
            d0 = simdsv__load_partial((const unsigned char *)s, n < 8 ? n : 8);
            d1 = n > 8 ? simdsv__load_partial((const unsigned char *)s + 8, n - 8) : 0;
        }
        w0 = (uint64_t)n | d0 << 32;
        w1 = d0 >> 32 | d1 << 32;
    } else {
        uint32_t prefix, index, offset;
        memcpy(&prefix, s, 4);
        const uintptr_t at = (uintptr_t)s - (uintptr_t)v->base;
        if (v->base && at < v->size && n <= v->size - at && n <= VIEW_WINDOW) {
            index = (uint32_t)(at / VIEW_WINDOW); /* the window it starts in holds it: see VIEW_WINDOW */
            offset = (uint32_t)(at % VIEW_WINDOW);
            v->input_refs = 1;
        } else {
            memcpy(v->chars + v->len, s, n);
            index = v->side;
            offset = (uint32_t)v->len;
            v->len += n;
        }
        w0 = (uint64_t)n | (uint64_t)prefix << 32;
        w1 = (uint64_t)index | (uint64_t)offset << 32;
    }
    memcpy(out, &w0, 8);
    memcpy(out + 8, &w1, 8);
}

/* The view of the n bytes just decoded at the side block's end: kept there
 * when long, else inline (16 bytes there may be read: the side block has
 * room for the run's bytes and 16 more). */
static inline void view_put_side(view_sink *v, unsigned char *out, size_t n)
{
    const char *s = v->chars + v->len;
    if (n <= 12) {
        view_put(v, out, s, n, 1);
        return;
    }
    uint32_t prefix;
    memcpy(&prefix, s, 4);
    const uint64_t w0 = (uint64_t)n | (uint64_t)prefix << 32, w1 = (uint64_t)v->side | (uint64_t)v->len << 32;
    memcpy(out, &w0, 8);
    memcpy(out + 8, &w1, 8);
    v->len += n;
}

/* A view column's slots from `at` (views, not validity). */
static void put_view_run(column *c, uint64_t at, const slot_text *texts, size_t count)
{
    unsigned char *out = c->values + 16 * at;
    view_sink v = view_sink_open(c);
    for (size_t i = 0; i < count; i++, out += 16) {
        if (texts[i].s)
            view_put(&v, out, texts[i].s, texts[i].n, 0);
        else
            memset(out, 0, 16); /* a null: an empty view */
    }
    view_sink_close(c, &v);
}

size_t simdsv__column_variadic_count(const column *c)
{
    const size_t sides = c->nblocks + (c->chars_len ? 1 : 0);
    return c->input_refs || sides ? c->vin->windows + sides : 0;
}

void simdsv__column_variadic(const column *c, size_t i, const char **data, size_t *size)
{
    const view_input *in = c->vin;
    if (i < in->windows) {
        const size_t from = i * VIEW_WINDOW, rest = in->size - from;
        *data = (const char *)in->base + from;
        *size = rest < 2 * VIEW_WINDOW ? rest : 2 * VIEW_WINDOW;
    } else if (i - in->windows < c->nblocks) {
        *data = c->blocks[i - in->windows].data;
        *size = c->blocks[i - in->windows].len;
    } else {
        *data = c->chars;
        *size = c->chars_len;
    }
}

simdsv_status simdsv__column_view_buffers(const simdsv_allocator *a, column *c)
{
    if (!simdsv__column_views(c))
        return SIMDSV_OK;
    simdsv__free(a, c->view_buffers, c->view_buffers_count * sizeof *c->view_buffers);
    c->view_buffers = NULL;
    c->view_buffers_count = simdsv__column_variadic_count(c);
    if (!c->view_buffers_count)
        return SIMDSV_OK;
    if (!(c->view_buffers = simdsv__alloc(a, c->view_buffers_count * sizeof *c->view_buffers))) {
        c->view_buffers_count = 0;
        return SIMDSV_ERR_NOMEM;
    }
    for (size_t i = 0; i < c->view_buffers_count; i++) {
        size_t size;
        simdsv__column_variadic(c, i, &c->view_buffers[i], &size);
    }
    return SIMDSV_OK;
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
        if (simdsv__column_views(c)) {
            put_view_run(c, at, texts, count);
            return count;
        }
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

/* ------------------------------------------------- fields straight from the index */

/* Validity (or bool value) bits written a byte at a time from a slot on:
 * the bits of earlier slots in the first byte are kept, whole bytes are
 * stored as they fill, and bits_close stores the last partial one. */
typedef struct bit_writer {
    uint8_t *byte;
    unsigned bits, bit;
} bit_writer;

static inline bit_writer bits_open(uint8_t *bitmap, uint64_t at)
{
    bit_writer w = {bitmap + at / 8, 0, (unsigned)(at % 8)};
    if (w.bit)
        w.bits = *w.byte & ((1u << w.bit) - 1);
    return w;
}

static inline void bits_put(bit_writer *w, unsigned v)
{
    w->bits |= v << w->bit;
    if (++w->bit == 8) {
        *w->byte++ = (uint8_t)w->bits;
        w->bits = 0;
        w->bit = 0;
    }
}

static inline void bits_close(const bit_writer *w)
{
    if (w->bit)
        *w->byte = (uint8_t)w->bits;
}

/* The bool spellings of the rules as words, when every one has 1..8 bytes
 * (and there are at most 16): then a field is matched by a few word
 * compares instead of a walk over the lists. */
typedef struct bool_words {
    uint64_t word[16];
    size_t len[16];
    unsigned value[16];
    size_t count;
} bool_words;

static int add_bool_words(bool_words *b, const spec_list *l, unsigned value)
{
    for (size_t i = 0; i < l->count; i++) {
        const spec_item *it = &l->items[i];
        if (b->count == 16 || it->size == 0 || it->size > 8)
            return 0;
        b->word[b->count] = simdsv__load_partial((const unsigned char *)it->text, it->size);
        b->len[b->count] = it->size;
        b->value[b->count++] = value;
    }
    return 1;
}

/* 1 or 0 for a bool spelling of n >= 1 bytes (the true list first, as the general path),
 * -1 for anything else. */
static inline int bool_word_value(const bool_words *b, const unsigned char *s, size_t n)
{
    if (n > 8)
        return -1;
    /* (byte i at bits 8i, read within s[0..n) only: equal texts of equal
     * length give equal words) */
    const uint64_t w = simdsv__load_partial(s, n);
    for (size_t i = 0; i < b->count; i++)
        if (b->len[i] == n && b->word[i] == w)
            return (int)b->value[i];
    return -1;
}

/* Whether byte b occurs in s[0..n): a word at a time (the classic
 * has-zero-byte test on the word XOR b; exact as a yes/no), the last
 * word overlapping the one before it; memchr past 64 bytes. */
static inline int has_byte(const unsigned char *s, size_t n, unsigned char b)
{
    const uint64_t ones = 0x0101010101010101u, pattern = ones * b;
    if (n > 64)
        return memchr(s, b, n) != NULL; /* long text: the C library's vector search */
    if (n < 8) {
        for (size_t i = 0; i < n; i++)
            if (s[i] == b)
                return 1;
        return 0;
    }
    uint64_t hit = 0, v;
    for (size_t i = 0; i + 8 < n; i += 8) {
        memcpy(&v, s + i, 8);
        v ^= pattern;
        hit |= (v - ones) & ~v & (ones << 7);
    }
    memcpy(&v, s + n - 8, 8);
    v ^= pattern;
    hit |= (v - ones) & ~v & (ones << 7);
    return hit != 0;
}

/* memcpy for the short texts of most fields, inline: whole words, the
 * last one overlapping the one before it (no byte past s + n is read or
 * past d + n written). */
static inline void copy_text(char *d, const char *s, size_t n)
{
    if (n >= 8 && n <= 64) {
        uint64_t v;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&v, s + i, 8);
            memcpy(d + i, &v, 8);
        }
        memcpy(&v, s + n - 8, 8);
        memcpy(d + n - 8, &v, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n > 64) {
        memcpy(d, s, n);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* A quoted field's text with quote or escape bytes, decoded into dst
 * (simdsv_unescape's rules): by the kernel's vector steps where 15 bytes
 * past the text may be read, else by simdsv_unescape.  dst has 16 bytes of
 * room past n (the kernel's whole stores).  Returns the decoded length. */
static inline size_t unescape_text(const field_run *f, const char *text, size_t n, char *dst)
{
    if (f->kernel->unescape && (size_t)(text - f->origin) + n + 16 <= f->readable)
        return f->kernel->unescape(text, n, (unsigned)f->quote, (unsigned)f->escape, dst);
    const simdsv_field field = {text, n, SIMDSV_FIELD_QUOTED | SIMDSV_FIELD_NEEDS_UNESCAPE};
    return simdsv_unescape(&field, f->quote, f->escape < 256 ? f->escape : -1, dst);
}

/* An integer written with a leading zero ("00501", "-01"; not "0"): an
 * identifier, text for an inferred column. */
static inline int leading_zero(const char *s, size_t n)
{
    const size_t sign = s[0] == '-' || s[0] == '+';
    return n > sign + 1 && s[sign] == '0';
}

/* The validity bits of the count slots from at, whose fields start at
 * pos, pos + stride, ...: a field is null exactly when it is empty (a
 * quoted one has its quotes).  The type loops only count the nulls; with
 * none, the common case, the bits are set a byte at a time here, and
 * otherwise a second pass over the field starts writes them. */
static void put_validity(uint8_t *bitmap, uint64_t at, const uint32_t *pos, size_t stride, size_t count,
                         uint64_t nulls)
{
    if (!count)
        return;
    if (nulls == 0) {
        /* as bits_put and bits_close would leave them: the bits below at
         * kept, those past the run in its last byte clear */
        const unsigned low = (unsigned)(at % 8);
        const uint64_t end = at + count;
        uint8_t *first = bitmap + at / 8, *last = bitmap + (end - 1) / 8;
        const unsigned kept = *first & ((1u << low) - 1);
        const unsigned top = 0xFFu >> (7 - (unsigned)((end - 1) % 8)); /* bits up to the last slot's */
        if (first == last) {
            *first = (uint8_t)(kept | ((0xFFu << low) & top));
        } else {
            *first = (uint8_t)(kept | (0xFFu << low));
            memset(first + 1, 0xFF, (size_t)(last - first - 1));
            *last = (uint8_t)top;
        }
        return;
    }
    bit_writer valid = bits_open(bitmap, at);
    for (size_t i = 0; i < count; i++, pos += stride)
        bits_put(&valid, pos[1] - 1 != pos[0]);
    bits_close(&valid);
}

/* The field at pos of a run: s, n (its bytes as they stand, quotes included). */
#define FIELD_TEXT                                                                                                     \
    const char *s = f->origin + pos[0];                                                                                \
    const size_t n = pos[1] - 1 - pos[0]

/* The int64 fields of a run: the number kernel takes the common shape, and
 * each field it leaves is parsed here (a quote byte never parses: quoted
 * fields stop the run). */
static size_t put_int64s(column *c, const field_run *f, int no_leading_zero, uint64_t *nulls)
{
    int64_t *out = (int64_t *)(void *)c->values + c->length;
    const int64_fields_fn common = f->kernel->int64_fields;
    const size_t stride = f->stride, count = f->count;
    size_t i = 0;
    for (;;) {
        i += common(f->origin, f->pos + i * stride, stride, count - i, f->readable, no_leading_zero, out + i, nulls);
        if (i == count)
            return i;
        const uint32_t *pos = f->pos + i * stride; /* not empty: the kernel takes those */
        FIELD_TEXT;
        int64_t v;
        if (!simdsv__int64_inline(s, n, &v) || (no_leading_zero && leading_zero(s, n)))
            return i;
        out[i++] = v;
    }
}

/* The float64 fields of a run, as put_int64s: what the kernel leaves takes
 * the plain shape without reading past the field, or the general parser. */
static size_t put_float64s(column *c, const field_run *f, const value_rules *rules, uint64_t *nulls)
{
    double *out = (double *)(void *)c->values + c->length;
    const int comma = rules->decimal_comma, exact = rules->exact_integers;
    const unsigned char sep = comma ? ',' : '.';
    const float64_fields_fn common = f->kernel->float64_fields;
    const size_t stride = f->stride, count = f->count;
    size_t i = 0;
    for (;;) {
        i += common(f->origin, f->pos + i * stride, stride, count - i, f->readable, sep, out + i, nulls);
        if (i == count)
            return i;
        const uint32_t *pos = f->pos + i * stride; /* not empty */
        FIELD_TEXT;
        double v;
        if (!simdsv__double_plain(s, n, sep, &v) &&
            !(comma ? simdsv__parse_double_comma(s, n, &v) : simdsv__parse_double(s, n, &v)))
            return i;
        if (exact && simdsv__integer_past_2p53(s, n))
            return i;
        out[i++] = v;
    }
}

/* The date fields of a run, as put_int64s: the kernel takes "YYYY-MM-DD",
 * and what it leaves takes the general rules. */
static size_t put_dates(column *c, const field_run *f, const value_rules *rules, uint64_t *nulls)
{
    int32_t *out = (int32_t *)(void *)c->values + c->length;
    const date_fields_fn common = f->kernel->date_fields;
    const size_t stride = f->stride, count = f->count;
    size_t i = 0;
    for (;;) {
        i += common(f->origin, f->pos + i * stride, stride, count - i, f->readable, out + i, nulls);
        if (i == count)
            return i;
        const uint32_t *pos = f->pos + i * stride; /* not empty */
        FIELD_TEXT;
        int32_t v;
        if (!simdsv__date_plain(s, n, &v) && !parse_any_date(s, n, rules->date_order, &v))
            return i;
        out[i++] = v;
    }
}

/* The timestamp fields of a run, as put_dates. */
static size_t put_timestamps(column *c, const field_run *f, const value_rules *rules, uint64_t *nulls)
{
    int64_t *out = (int64_t *)(void *)c->values + c->length;
    const timestamp_fields_fn common = f->kernel->timestamp_fields;
    const size_t stride = f->stride, count = f->count;
    size_t i = 0;
    for (;;) {
        i += common(f->origin, f->pos + i * stride, stride, count - i, f->readable, out + i, nulls);
        if (i == count)
            return i;
        const uint32_t *pos = f->pos + i * stride; /* not empty */
        FIELD_TEXT;
        int64_t v;
        if (!simdsv__timestamp_plain(s, n, &v) && !parse_timestamp_or_date(s, n, rules->date_order, &v))
            return i;
        out[i++] = v;
    }
}

/* The string fields of a run as views: a long string points into the
 * input where it stands; a quoted one with quote or escape bytes is
 * decoded into the side block, and its view points there (or holds it, 12
 * bytes or fewer). */
static size_t put_views(column *c, const field_run *f, uint64_t *nulls)
{
    const uint32_t *pos = f->pos;
    const size_t stride = f->stride, count = f->count;
    unsigned char *out = c->values + 16 * c->length;
    view_sink v = view_sink_open(c);
    uint64_t empty = 0;
    size_t i = 0;
    for (; i < count; i++, pos += stride, out += 16) {
        FIELD_TEXT;
        const char *text = s;
        size_t size = n;
        if (n && (unsigned char)s[0] == f->quote) {
            text++;
            size -= 2;
            if (has_byte((const unsigned char *)text, size, (unsigned char)f->quote) ||
                (f->escape < 256 && has_byte((const unsigned char *)text, size, (unsigned char)f->escape))) {
                view_put_side(&v, out, unescape_text(f, text, size, v.chars + v.len));
                continue;
            }
        }
        view_put(&v, out, text, size, (size_t)(text - f->origin) + 16 <= f->readable);
        empty += n == 0;
    }
    view_sink_close(c, &v);
    *nulls += empty;
    return i;
}

size_t simdsv__column_put_fields(column *c, const field_run *f, const value_rules *rules, int no_leading_zero)
{
    const uint32_t *pos = f->pos;
    const size_t stride = f->stride, count = f->count;
    const uint64_t at = c->length;
    uint64_t nulls = 0;
    size_t i = 0;
    switch (c->type) {
    case SIMDSV_TYPE_NULL:
        for (; i < count && pos[1] - 1 == pos[0]; i++, pos += stride) {
        }
        nulls = i;
        break;
    case SIMDSV_TYPE_BOOL: {
        bool_words words = {{0}, {0}, {0}, 0};
        if (!add_bool_words(&words, rules->true_values, 1) || !add_bool_words(&words, rules->false_values, 0))
            break; /* spellings the words cannot hold: the general path */
        bit_writer values = bits_open(c->values, at);
        for (; i < count; i++, pos += stride) {
            FIELD_TEXT;
            int v = 0;
            if (n && ((unsigned char)s[0] == f->quote || (v = bool_word_value(&words, (const unsigned char *)s, n)) < 0))
                break;
            bits_put(&values, (unsigned)v);
            nulls += n == 0;
        }
        bits_close(&values);
        break;
    }
    case SIMDSV_TYPE_INT64:
        i = put_int64s(c, f, no_leading_zero, &nulls);
        break;
    case SIMDSV_TYPE_FLOAT64:
        i = put_float64s(c, f, rules, &nulls);
        break;
    case SIMDSV_TYPE_DATE:
        i = put_dates(c, f, rules, &nulls);
        break;
    case SIMDSV_TYPE_TIMESTAMP:
        i = put_timestamps(c, f, rules, &nulls);
        break;
    case SIMDSV_TYPE_STRING: {
        if (simdsv__column_views(c)) {
            i = put_views(c, f, &nulls);
            break;
        }
        char *chars = c->chars;
        size_t len = c->chars_len;
        const int wide = c->wide_offsets; /* locals: byte stores may alias c */
        void *offsets = c->offsets;
        if (f->kernel->string_fields && !wide && chars) {
            /* the kernel first; this loop takes the fields it leaves (the
             * last ones of the batch) */
            i = f->kernel->string_fields(f->origin, pos, stride, count, f->readable, (unsigned)f->quote,
                                         (unsigned)f->escape, chars, &len, (int32_t *)offsets + at + 1, &nulls);
            pos += i * stride;
        }
        for (; i < count; i++, pos += stride) {
            FIELD_TEXT;
            const char *text = s;
            size_t size = n;
            const int quoted = n && (unsigned char)s[0] == f->quote;
            if (quoted) {
                text++;
                size -= 2;
            }
            if (quoted && (has_byte((const unsigned char *)text, size, (unsigned char)f->quote) ||
                           (f->escape < 256 && has_byte((const unsigned char *)text, size, (unsigned char)f->escape)))) {
                len += unescape_text(f, text, size, chars + len);
            } else if (size) { /* (no bytes yet: chars may be NULL) */
                copy_text(chars + len, text, size);
                len += size;
            }
            if (wide)
                ((int64_t *)offsets)[at + 1 + i] = (int64_t)len;
            else
                ((int32_t *)offsets)[at + 1 + i] = (int32_t)len;
            nulls += n == 0;
        }
        c->chars_len = len;
        break;
    }
    }
    put_validity(c->validity, at, f->pos, stride, i, nulls);
    c->length += i;
    c->null_count += nulls;
    return i;
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
    for (size_t b = 0; b < c->nblocks; b++)
        simdsv__free(a, c->blocks[b].data, c->blocks[b].cap);
    simdsv__free(a, c->blocks, c->blocks_cap * sizeof *c->blocks);
    simdsv__free(a, c->view_buffers, c->view_buffers_count * sizeof *c->view_buffers);
    simdsv__column_forget_data(c);
}

void simdsv__column_forget_data(column *c)
{
    c->validity = c->values = NULL;
    c->offsets = NULL;
    c->chars = NULL;
    c->validity_cap = c->values_cap = c->offsets_cap = c->chars_cap = c->chars_len = 0;
    c->wide_offsets = 0;
    c->blocks = NULL;
    c->nblocks = c->blocks_cap = 0;
    c->input_refs = 0;
    c->view_buffers = NULL;
    c->view_buffers_count = 0;
    c->length = c->null_count = 0;
}
