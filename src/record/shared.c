/*
 * shared.c — the reader's held input handed to what outlives the reader:
 * string views of the typed reader (SIMDSV_STRINGS_VIEW) point into the
 * input's bytes, and the Arrow arrays that carry them may be released long
 * after the reader is freed.  The bytes then belong to a reference-counted
 * block that the reader and every array hold; the last release frees the
 * buffer (or unmaps the file).  A reader only shares a buffer that no longer
 * changes: the whole input, read to its end (a stream's buffer is moved and
 * refilled only before its end, reader.c).
 */
#include "reader.h"

#include <stdatomic.h>
#include <sys/mman.h>

struct simdsv__shared_input {
    atomic_size_t refs;
    simdsv_allocator alloc;
    void *data;
    size_t size;  /* the allocation's (or the mapping's) size */
    bool mapped;  /* unmapped rather than freed */
};

simdsv__shared_input *simdsv__reader_share_input(simdsv_reader *r, const uint8_t **base, size_t *size)
{
    if (!r->eof)
        return NULL; /* the buffer may still move */
    if (!r->shared) {
        const bool mapped = r->src.kind == SOURCE_MAPPED && !r->src.streamed && r->src.map_size;
        if (!r->owns_buf && !mapped)
            return NULL; /* a caller's buffer: its life is the caller's */
        simdsv__shared_input *s = simdsv__alloc(&r->opt.alloc, sizeof *s);
        if (!s)
            return NULL;
        atomic_init(&s->refs, 1); /* the reader's */
        s->alloc = r->opt.alloc;
        s->mapped = !r->owns_buf;
        s->data = s->mapped ? (void *)(uintptr_t)r->src.data : r->buf;
        s->size = s->mapped ? r->src.map_size : r->cap;
        if (s->mapped)
            r->src.map_size = 0; /* source_close leaves the mapping to the block */
        r->owns_buf = false;
        r->shared = s;
    }
    simdsv__shared_input_retain(r->shared);
    *base = r->buf;
    *size = r->len;
    return r->shared;
}

void simdsv__shared_input_retain(simdsv__shared_input *s)
{
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
}

void simdsv__shared_input_release(simdsv__shared_input *s)
{
    if (!s || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    const simdsv_allocator a = s->alloc;
    if (s->mapped)
        munmap(s->data, s->size);
    else
        simdsv__free(&a, s->data, s->size);
    simdsv__free(&a, s, sizeof *s);
}
