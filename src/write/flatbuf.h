/*
 * flatbuf.h — a FlatBuffers builder for the Arrow IPC metadata.  Like the
 * official builders it fills its buffer from the back: an object is written
 * before the objects that point at it, so every offset points forward, as
 * the format requires (uoffset_t is unsigned).  A reference to an object is
 * its distance from the end of the buffer, which does not move as the
 * buffer grows at the front.
 */
#ifndef SIMDSV_FLATBUF_H
#define SIMDSV_FLATBUF_H

#include "write.h"

typedef struct fb {
    uint8_t *buf;
    size_t cap;
    size_t size;     /* bytes in use, at buf[cap - size, cap) */
    size_t minalign; /* the largest alignment asked for: the finished size is a multiple */
    bool failed;
} fb;

/* A table field: a scalar of 1, 2, 4 or 8 bytes, or (ref != 0) an offset
 * to an object built before the table. */
typedef struct fb_field {
    uint16_t id;
    uint8_t size;
    uint64_t value;
    uint32_t ref;
} fb_field;

#define FB_SCALAR(id, size, value) ((fb_field){(id), (size), (uint64_t)(value), 0})
#define FB_OFFSET(id, ref) ((fb_field){(id), 4, 0, (ref)})

void fb_reset(fb *b);
void fb_free(fb *b);
/* A table of n fields (ids below 16): fields, then its vtable. */
uint32_t fb_table(fb *b, const fb_field *fields, size_t n);
uint32_t fb_string(fb *b, const char *s);
/* A vector of n structs of elem bytes each (already in their wire layout). */
uint32_t fb_structs(fb *b, const void *data, size_t elem, size_t n, size_t align);
/* A vector of offsets to objects refs[0..n). */
uint32_t fb_offsets(fb *b, const uint32_t *refs, size_t n);
/* Writes the root offset; the finished buffer is fb_data(b), b->size bytes. */
void fb_finish(fb *b, uint32_t root);
static inline const uint8_t *fb_data(const fb *b)
{
    return b->buf + b->cap - b->size;
}

#endif
