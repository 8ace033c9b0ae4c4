/*
 * write.h — what the Parquet and Arrow IPC writers share: the output sink
 * (path through a temporary file, descriptor, callback), growable byte
 * buffers, the codecs, the columns of an Arrow stream as the writers see
 * them, and the thread pool that encodes columns side by side.
 *
 * The writers consume an ArrowArrayStream and nothing of the reader: any
 * producer's stream of "+s" batches works.  They allocate with malloc (the
 * reader's allocator hooks belong to the reader's options, which a writer
 * fed by another producer does not have).  The library is built with
 * src/common/threads.c and alloc.c of its own: the core's internal
 * functions are not exported from libsimdsv.so, which libsimdsv_write may be
 * linked with.  Buffers are written as the host
 * holds them; simdsv builds only for little-endian hosts, which is what both
 * formats store.
 */
#ifndef SIMDSV_WRITE_H
#define SIMDSV_WRITE_H

#include "../common/internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ----------------------------------------------------------- byte buffers */

typedef struct wbuf {
    uint8_t *data;
    size_t len, cap;
    bool failed; /* an allocation failed: later writes are dropped, the owner reports NOMEM */
} wbuf;

bool wbuf_reserve(wbuf *b, size_t extra);
void wbuf_put(wbuf *b, const void *data, size_t size);
void wbuf_byte(wbuf *b, uint8_t v);
void wbuf_u32(wbuf *b, uint32_t v);
void wbuf_u64(wbuf *b, uint64_t v);
void wbuf_varint(wbuf *b, uint64_t v);
void wbuf_free(wbuf *b);

/* *p, an array of *cap elements of elem bytes, grown (doubling, from 1024)
 * to hold need; false when out of memory (*p unchanged). */
bool simdsv__grow_array(void **p, size_t *cap, size_t need, size_t elem);

/* ------------------------------------------------------------------ sinks */

typedef struct wsink {
    simdsv_write_fn fn;
    void *ctx;
    uint64_t written; /* bytes so far: the offset of the next byte */
    simdsv_error *err;
    simdsv_allocator alloc; /* malloc, for the thread pool */
} wsink;

/* Writes everything or fails with SIMDSV_ERR_IO (error filled). */
simdsv_status wsink_write(wsink *s, const void *data, size_t size);

/* Fills *err (when not NULL) with code and a formatted message. */
simdsv_status simdsv__write_fail(simdsv_error *err, simdsv_status code, int os_errno, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ----------------------------------------------------------------- codecs */

/* The largest output compress() can produce for n input bytes (0 when the
 * codec is not in this build). */
size_t simdsv__codec_bound(simdsv_codec codec, size_t n);
/* Why a codec of this build cannot be used after all (its library, opened
 * when first asked for, could not be), or NULL. */
const char *simdsv__codec_load_error(simdsv_codec codec);
/* Compresses src into dst (capacity cap, at least the bound); returns the
 * compressed size or 0 on failure.  *state (NULL at first) keeps what a
 * codec reuses between calls of one thread; simdsv__codec_state_free
 * releases it. */
size_t simdsv__codec_compress(simdsv_codec codec, int level, void **state, const void *src, size_t n, void *dst,
                              size_t cap);
void simdsv__codec_state_free(void *state);

/* ---------------------------------------------------------------- columns */

typedef enum wtype {
    W_NULL,
    W_BOOL,
    W_INT64,
    W_DOUBLE,
    W_DATE32,     /* int32 days */
    W_TIMESTAMP,  /* int64 microseconds */
    W_UTF8,       /* int32 offsets */
    W_LARGE_UTF8, /* int64 offsets */
    W_UTF8_VIEW   /* 16-byte string views ("vu") */
} wtype;

static inline bool wtype_string(wtype t)
{
    return t == W_UTF8 || t == W_LARGE_UTF8 || t == W_UTF8_VIEW;
}

/* Row `at` of a string child (utf8, large_utf8 or string view; the
 * child's offset applied by the caller): its bytes and their count. */
static inline const uint8_t *wstring(const struct ArrowArray *a, wtype type, int64_t at, size_t *len)
{
    const uint8_t *values = a->buffers[1];
    if (type == W_UTF8_VIEW) { /* length, then the bytes inline, or prefix, buffer index and offset */
        int32_t view[4];
        memcpy(view, values + 16 * at, 16);
        *len = (size_t)view[0];
        return view[0] <= 12 ? values + 16 * at + 4 : (const uint8_t *)a->buffers[2 + view[2]] + view[3];
    }
    int64_t from, to;
    if (type == W_UTF8) {
        int32_t o[2];
        memcpy(o, values + 4 * at, 8);
        from = o[0];
        to = o[1];
    } else {
        int64_t o[2];
        memcpy(o, values + 8 * at, 16);
        from = o[0];
        to = o[1];
    }
    *len = (size_t)(to - from);
    return (const uint8_t *)a->buffers[2] + from;
}

typedef struct wcolumn {
    const char *name;     /* the schema's (kept alive by the schema) */
    wtype type;
    const char *timezone; /* timestamps: after "tsu:", "" for none */
} wcolumn;

/* The stream's schema (*schema, released by the caller when its release is
 * set) and its columns: a "+s" with children of the formats the typed
 * reader produces (b l g tdD tsu:TZ u U vu n).  Anything else is
 * SIMDSV_ERR_INVALID_ARGUMENT naming the column and the format. */
simdsv_status simdsv__write_columns(struct ArrowArrayStream *stream, struct ArrowSchema *schema, wcolumn **out,
                                    size_t *n, simdsv_error *err);

/* Pulls the next batch: SIMDSV_OK with *batch set, SIMDSV_END, or the
 * stream's failure (ENOMEM -> NOMEM, EIO -> IO, else VALUE) with its
 * get_last_error text.  Checks that the batch has the schema's shape. */
simdsv_status simdsv__write_next(struct ArrowArrayStream *stream, size_t ncols, struct ArrowArray *batch,
                                 simdsv_error *err);

/* A row range of one batch: rows [start, start + rows) of the batch's
 * children (the batch's own offset already applied). */
typedef struct wslice {
    const struct ArrowArray *batch;
    int64_t start, rows;
} wslice;

/* The row `row` of a slice's child col is valid (not null). */
static inline bool wslice_valid(const struct ArrowArray *child, int64_t at)
{
    const uint8_t *bits = child->buffers[0];
    return child->null_count == 0 || !bits || ((bits[at >> 3] >> (at & 7)) & 1);
}

#endif
