/*
 * codec.c — the compression libraries, each compiled in only when the build
 * found it (SIMDSV_HAVE_SNAPPY, _ZLIB, _ZSTD, _LZ4); a codec that is not in
 * the build has bound 0, which the entry points report by name.
 */
#define _POSIX_C_SOURCE 200809L
#include "write.h"

#include <stdio.h>
#include <string.h>

#ifdef SIMDSV_HAVE_SNAPPY
/* Snappy is opened (dlopen, its SONAME SIMDSV_SNAPPY_LIBRARY) the first
 * time it is asked for, not linked: it is C++, and linking it loads the C++
 * runtime, whose thousands of symbol relocations cost every start of every
 * program that links the writers about 2 million instructions (more than a
 * short 'simdsv headers' does in all). */
#include <dlfcn.h>
#include <pthread.h>
#include <snappy-c.h>

static struct {
    size_t (*bound)(size_t n);
    snappy_status (*compress)(const char *src, size_t n, char *dst, size_t *out);
    char error[256]; /* why it could not be opened */
} snappy;
static pthread_once_t snappy_once = PTHREAD_ONCE_INIT;

static void snappy_open(void)
{
    void *lib = dlopen(SIMDSV_SNAPPY_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    void *bound = lib ? dlsym(lib, "snappy_max_compressed_length") : NULL;
    void *compress = lib ? dlsym(lib, "snappy_compress") : NULL;
    if (!bound || !compress) {
        const char *why = dlerror();
        snprintf(snappy.error, sizeof snappy.error, "%s", why ? why : "cannot open " SIMDSV_SNAPPY_LIBRARY);
        return;
    }
    /* POSIX: a symbol's address converts to a function pointer of its type. */
    memcpy(&snappy.bound, &bound, sizeof bound);
    memcpy(&snappy.compress, &compress, sizeof compress);
}

static int snappy_ready(void)
{
    pthread_once(&snappy_once, snappy_open);
    return snappy.compress != NULL;
}
#endif
#ifdef SIMDSV_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef SIMDSV_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef SIMDSV_HAVE_LZ4
#include <lz4frame.h>
#endif

size_t simdsv__codec_bound(simdsv_codec codec, size_t n)
{
    switch (codec) {
    case SIMDSV_CODEC_NONE:
        return n;
#ifdef SIMDSV_HAVE_SNAPPY
    case SIMDSV_CODEC_SNAPPY:
        return snappy_ready() ? snappy.bound(n) : 0;
#endif
#ifdef SIMDSV_HAVE_ZLIB
    case SIMDSV_CODEC_GZIP:
        /* deflateBound plus the gzip header and trailer. */
        return (size_t)compressBound((uLong)n) + 32;
#endif
#ifdef SIMDSV_HAVE_ZSTD
    case SIMDSV_CODEC_ZSTD:
        return ZSTD_compressBound(n);
#endif
#ifdef SIMDSV_HAVE_LZ4
    case SIMDSV_CODEC_LZ4:
        return LZ4F_compressFrameBound(n, NULL) + 64; /* + the content size field */
#endif
    default:
        return 0;
    }
}

#ifdef SIMDSV_HAVE_ZLIB
/* A gzip member (RFC 1952), as Parquet's GZIP codec stores it. */
static size_t gzip(int level, const void *src, size_t n, void *dst, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    z.next_in = (Bytef *)(uintptr_t)src;
    z.avail_in = (uInt)n;
    z.next_out = dst;
    z.avail_out = (uInt)cap;
    const int rc = deflate(&z, Z_FINISH);
    const size_t out = (size_t)z.total_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? out : 0;
}
#endif

const char *simdsv__codec_load_error(simdsv_codec codec)
{
#ifdef SIMDSV_HAVE_SNAPPY
    if (codec == SIMDSV_CODEC_SNAPPY && !snappy_ready())
        return snappy.error;
#endif
    (void)codec;
    return NULL;
}

void simdsv__codec_state_free(void *state)
{
#ifdef SIMDSV_HAVE_ZSTD
    ZSTD_freeCCtx(state);
#else
    (void)state;
#endif
}

size_t simdsv__codec_compress(simdsv_codec codec, int level, void **state, const void *src, size_t n, void *dst,
                              size_t cap)
{
    (void)level;
    (void)state;
    switch (codec) {
    case SIMDSV_CODEC_NONE:
        if (n > cap)
            return 0;
        memcpy(dst, src, n);
        return n;
#ifdef SIMDSV_HAVE_SNAPPY
    case SIMDSV_CODEC_SNAPPY: {
        size_t out = cap;
        return snappy_ready() && snappy.compress(src, n, dst, &out) == SNAPPY_OK ? out : 0;
    }
#endif
#ifdef SIMDSV_HAVE_ZLIB
    case SIMDSV_CODEC_GZIP:
        return n > UINT32_MAX || cap > UINT32_MAX ? 0 : gzip(level, src, n, dst, cap);
#endif
#ifdef SIMDSV_HAVE_ZSTD
    case SIMDSV_CODEC_ZSTD: {
        /* One context per caller, kept: making one per page costs more than
         * a small page's compression (allocation and page faults). */
        if (!*state && !(*state = ZSTD_createCCtx()))
            return 0;
        const size_t out = ZSTD_compressCCtx(*state, dst, cap, src, n, level ? level : 3);
        return ZSTD_isError(out) ? 0 : out;
    }
#endif
#ifdef SIMDSV_HAVE_LZ4
    case SIMDSV_CODEC_LZ4: {
        LZ4F_preferences_t prefs;
        memset(&prefs, 0, sizeof prefs);
        prefs.compressionLevel = level;
        prefs.frameInfo.contentSize = n;
        const size_t out = LZ4F_compressFrame(dst, cap, src, n, &prefs);
        return LZ4F_isError(out) ? 0 : out;
    }
#endif
    default:
        return 0;
    }
}
