/* flatbuf.c — the FlatBuffers builder (see flatbuf.h). */
#include "flatbuf.h"

#include <stdlib.h>
#include <string.h>

void fb_reset(fb *b)
{
    b->size = 0;
    b->minalign = 1;
    b->failed = false;
}

void fb_free(fb *b)
{
    free(b->buf);
    memset(b, 0, sizeof *b);
}

/* Room for n more bytes at the front: a larger buffer with the content
 * moved to its end. */
static bool room(fb *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->cap - b->size >= n)
        return true;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap - b->size < n)
        cap *= 2;
    uint8_t *p = malloc(cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    if (b->size)
        memcpy(p + cap - b->size, b->buf + b->cap - b->size, b->size);
    free(b->buf);
    b->buf = p;
    b->cap = cap;
    return true;
}

static void push(fb *b, const void *data, size_t n)
{
    if (n == 0 || !room(b, n))
        return;
    b->size += n;
    memcpy(b->buf + b->cap - b->size, data, n);
}

static void push_le(fb *b, uint64_t v, size_t n)
{
    uint8_t le[8];
    for (size_t i = 0; i < n; i++)
        le[i] = (uint8_t)(v >> (8 * i));
    push(b, le, n);
}

/* Zero padding so that after `extra` more bytes the size is a multiple of
 * align: the object then starts aligned (the finished buffer's size is a
 * multiple of every alignment used, and its start is aligned). */
static void prep(fb *b, size_t align, size_t extra)
{
    if (align > b->minalign)
        b->minalign = align;
    static const uint8_t zeros[8] = {0};
    const size_t pad = (0 - (b->size + extra)) & (align - 1);
    push(b, zeros, pad);
}

/* An offset written at the next 4 bytes, to the object at ref. */
static void push_offset(fb *b, uint32_t ref)
{
    prep(b, 4, 0);
    push_le(b, (uint32_t)(b->size + 4 - ref), 4);
}

uint32_t fb_table(fb *b, const fb_field *fields, size_t n)
{
    uint32_t at[16] = {0};
    size_t nids = 0;
    const size_t start = b->size;
    /* Widest first: the least padding. */
    for (size_t width = 8; width >= 1; width /= 2) {
        for (size_t i = 0; i < n; i++) {
            const fb_field *f = &fields[i];
            if (f->size != width)
                continue;
            if (f->ref) {
                push_offset(b, f->ref);
            } else {
                prep(b, width, width);
                push_le(b, f->value, width);
            }
            at[f->id] = (uint32_t)b->size;
            if (f->id + 1u > nids)
                nids = f->id + 1u;
        }
    }
    prep(b, 4, 4);
    push_le(b, 0, 4); /* soffset to the vtable, patched below */
    const uint32_t table = (uint32_t)b->size;
    uint8_t vt[4 + 2 * 16];
    const size_t vt_size = 4 + 2 * nids;
    vt[0] = (uint8_t)vt_size;
    vt[1] = (uint8_t)(vt_size >> 8);
    vt[2] = (uint8_t)(table - start);
    vt[3] = (uint8_t)((table - start) >> 8);
    for (size_t id = 0; id < nids; id++) {
        const uint32_t off = at[id] ? table - at[id] : 0;
        vt[4 + 2 * id] = (uint8_t)off;
        vt[5 + 2 * id] = (uint8_t)(off >> 8);
    }
    push(b, vt, vt_size);
    if (b->failed)
        return 0;
    /* vtable = table - soffset: the vtable lies below the table. */
    const int32_t soffset = (int32_t)(b->size - table);
    uint8_t *p = b->buf + b->cap - table;
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)((uint32_t)soffset >> (8 * i));
    return table;
}

uint32_t fb_string(fb *b, const char *s)
{
    const size_t n = strlen(s);
    prep(b, 4, n + 1);
    push(b, "", 1);
    push(b, s, n);
    push_le(b, n, 4);
    return (uint32_t)b->size;
}

uint32_t fb_structs(fb *b, const void *data, size_t elem, size_t n, size_t align)
{
    prep(b, 4, elem * n);
    prep(b, align, elem * n);
    push(b, data, elem * n);
    push_le(b, n, 4);
    return (uint32_t)b->size;
}

uint32_t fb_offsets(fb *b, const uint32_t *refs, size_t n)
{
    prep(b, 4, 4 * n);
    for (size_t i = n; i-- > 0;)
        push_offset(b, refs[i]);
    push_le(b, n, 4);
    return (uint32_t)b->size;
}

void fb_finish(fb *b, uint32_t root)
{
    prep(b, b->minalign > 8 ? b->minalign : 8, 4);
    push_offset(b, root);
}
