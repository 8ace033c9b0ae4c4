/*
 * write.c — the writers' shared parts: byte buffers, the three sinks (a
 * path through a temporary file renamed into place, a descriptor, a
 * callback), the stream's schema and batches as the writers see them, and
 * the public entry points that pick the format.
 */
#define _POSIX_C_SOURCE 200809L
#include "write.h"
#include "parquet.h"
#include "ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ----------------------------------------------------------- byte buffers */

bool wbuf_reserve(wbuf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->cap - b->len >= extra)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < extra) {
        if (cap > SIZE_MAX / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void wbuf_put(wbuf *b, const void *data, size_t size)
{
    if (size && wbuf_reserve(b, size)) {
        memcpy(b->data + b->len, data, size);
        b->len += size;
    }
}

void wbuf_byte(wbuf *b, uint8_t v)
{
    if (wbuf_reserve(b, 1))
        b->data[b->len++] = v;
}

void wbuf_u32(wbuf *b, uint32_t v)
{
    const uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    wbuf_put(b, le, 4);
}

void wbuf_u64(wbuf *b, uint64_t v)
{
    wbuf_u32(b, (uint32_t)v);
    wbuf_u32(b, (uint32_t)(v >> 32));
}

void wbuf_varint(wbuf *b, uint64_t v)
{
    if (!wbuf_reserve(b, 10))
        return;
    while (v >= 0x80) {
        b->data[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (uint8_t)v;
}

void wbuf_free(wbuf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------------ sinks */

simdsv_status simdsv__write_fail(simdsv_error *err, simdsv_status code, int os_errno, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = code;
        err->os_errno = os_errno;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

simdsv_status wsink_write(wsink *s, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size) {
        int os_errno = 0;
        const long long w = s->fn(s->ctx, p, size, &os_errno);
        if (w <= 0 || (unsigned long long)w > size)
            return simdsv__write_fail(s->err, SIMDSV_ERR_IO, os_errno, "cannot write the output: %s",
                                      os_errno ? strerror(os_errno) : "the write callback failed");
        p += w;
        size -= (size_t)w;
        s->written += (uint64_t)w;
    }
    return SIMDSV_OK;
}

static long long write_fd(void *ctx, const void *buf, size_t size, int *os_errno)
{
    const int fd = *(const int *)ctx;
    for (;;) {
        const ssize_t w = write(fd, buf, size);
        if (w >= 0)
            return (long long)w;
        if (errno != EINTR) {
            *os_errno = errno;
            return -1;
        }
    }
}

/* ---------------------------------------------------------------- columns */

simdsv_status simdsv__write_columns(struct ArrowArrayStream *stream, struct ArrowSchema *schema, wcolumn **out,
                                    size_t *n, simdsv_error *err)
{
    memset(schema, 0, sizeof *schema);
    if (stream->get_schema(stream, schema) != 0) {
        const char *why = stream->get_last_error ? stream->get_last_error(stream) : NULL;
        return simdsv__write_fail(err, SIMDSV_ERR_VALUE, 0, "%s", why && *why ? why : "the stream has no schema");
    }
    if (!schema->format || strcmp(schema->format, "+s") != 0)
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0,
                                  "the stream's schema is \"%s\", not a struct (\"+s\") of columns",
                                  schema->format ? schema->format : "");
    const size_t count = (size_t)schema->n_children;
    wcolumn *cols = malloc((count ? count : 1) * sizeof *cols);
    if (!cols)
        return simdsv__write_fail(err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < count; i++) {
        const struct ArrowSchema *c = schema->children[i];
        const char *f = c->format;
        cols[i].name = c->name ? c->name : "";
        cols[i].timezone = "";
        if (c->dictionary || c->n_children) {
            f = NULL;
        } else if (strcmp(f, "n") == 0) {
            cols[i].type = W_NULL;
        } else if (strcmp(f, "b") == 0) {
            cols[i].type = W_BOOL;
        } else if (strcmp(f, "l") == 0) {
            cols[i].type = W_INT64;
        } else if (strcmp(f, "g") == 0) {
            cols[i].type = W_DOUBLE;
        } else if (strcmp(f, "tdD") == 0) {
            cols[i].type = W_DATE32;
        } else if (strncmp(f, "tsu:", 4) == 0) {
            cols[i].type = W_TIMESTAMP;
            cols[i].timezone = f + 4;
        } else if (strcmp(f, "u") == 0) {
            cols[i].type = W_UTF8;
        } else if (strcmp(f, "U") == 0) {
            cols[i].type = W_LARGE_UTF8;
        } else if (strcmp(f, "vu") == 0) {
            cols[i].type = W_UTF8_VIEW;
        } else {
            f = NULL;
        }
        if (!f) {
            free(cols);
            return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0,
                                      "column %zu (\"%s\"): Arrow format \"%s\" cannot be written (the writers take "
                                      "b l g tdD tsu:TZ u U vu n)",
                                      i + 1, c->name ? c->name : "", c->format ? c->format : "");
        }
    }
    *out = cols;
    *n = count;
    return SIMDSV_OK;
}

simdsv_status simdsv__write_next(struct ArrowArrayStream *stream, size_t ncols, struct ArrowArray *batch,
                                 simdsv_error *err)
{
    memset(batch, 0, sizeof *batch);
    const int rc = stream->get_next(stream, batch);
    if (rc != 0) {
        const char *why = stream->get_last_error ? stream->get_last_error(stream) : NULL;
        const simdsv_status st = rc == ENOMEM ? SIMDSV_ERR_NOMEM : rc == EIO ? SIMDSV_ERR_IO : SIMDSV_ERR_VALUE;
        return simdsv__write_fail(err, st, rc == EIO ? EIO : 0, "%s", why && *why ? why : strerror(rc));
    }
    if (!batch->release)
        return SIMDSV_END;
    if ((size_t)batch->n_children != ncols || batch->length < 0) {
        batch->release(batch);
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0,
                                  "a batch has %lld columns, the schema %zu", (long long)batch->n_children, ncols);
    }
    for (size_t i = 0; i < ncols; i++) {
        const struct ArrowArray *c = batch->children[i];
        if (c->length < batch->offset + batch->length) {
            batch->release(batch);
            return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0,
                                      "column %zu of a batch is shorter than the batch", i + 1);
        }
    }
    return SIMDSV_OK;
}

/* ------------------------------------------------------------ entry points */

/* malloc for the thread pool's bookkeeping (see write.h). */
static void *writer_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void *writer_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void writer_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

void simdsv_write_options_init(simdsv_write_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->format = SIMDSV_FORMAT_PARQUET;
    opt->codec = SIMDSV_CODEC_NONE;
    opt->row_group_rows = SIMDSV_DEFAULT_ROW_GROUP_ROWS;
    opt->dictionary = 1;
}

static const char *const codec_names[] = {"none", "snappy", "gzip", "zstd", "lz4"};
/* The Debian package that brings each codec, for "not in this build". */
static const char *const codec_packages[] = {"", "libsnappy-dev", "zlib1g-dev", "libzstd-dev", "liblz4-dev"};

const char *simdsv_codec_name(simdsv_codec codec)
{
    return (unsigned)codec < sizeof codec_names / sizeof codec_names[0] ? codec_names[codec] : NULL;
}

int simdsv_codec_from_name(const char *name)
{
    for (size_t i = 0; name && i < sizeof codec_names / sizeof codec_names[0]; i++)
        if (strcmp(name, codec_names[i]) == 0)
            return (int)i;
    return -1;
}

int simdsv_codec_supported(simdsv_codec codec)
{
    return codec == SIMDSV_CODEC_NONE || simdsv__codec_bound(codec, 1) > 0;
}

simdsv_status simdsv_write_callback(struct ArrowArrayStream *stream, simdsv_write_fn fn, void *ctx,
                                    const simdsv_write_options *opt, simdsv_error *err)
{
    simdsv_write_options o;
    if (opt)
        o = *opt;
    else
        simdsv_write_options_init(&o);
    if (err)
        memset(err, 0, sizeof *err);
    if (!stream || !stream->release || !fn)
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "no stream or no sink");
    if (!simdsv_codec_name(o.codec))
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "unknown codec %d", (int)o.codec);
    const bool parquet = o.format == SIMDSV_FORMAT_PARQUET;
    if (!parquet && o.format != SIMDSV_FORMAT_ARROW_FILE && o.format != SIMDSV_FORMAT_ARROW_STREAM)
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "unknown format %d", (int)o.format);
    if (parquet ? o.codec == SIMDSV_CODEC_LZ4 : (o.codec == SIMDSV_CODEC_SNAPPY || o.codec == SIMDSV_CODEC_GZIP))
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "%s compression is not defined for %s",
                                  codec_names[o.codec], parquet ? "Parquet (use zstd, snappy or gzip)"
                                                                : "Arrow IPC (use zstd or lz4)");
    const char *unloadable = simdsv__codec_load_error(o.codec);
    if (unloadable)
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "%s compression: %s", codec_names[o.codec],
                                  unloadable);
    if (!simdsv_codec_supported(o.codec))
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0,
                                  "this build has no %s compression: install %s and rebuild",
                                  codec_names[o.codec], codec_packages[o.codec]);
    static const int max_level[] = {0, 0, 9, 22, 12}; /* none, snappy, gzip, zstd, lz4 */
    if (o.level < 0 || o.level > max_level[o.codec])
        return max_level[o.codec]
                   ? simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "%s levels are 1..%d (0: default), not %d",
                                        codec_names[o.codec], max_level[o.codec], o.level)
                   : simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "%s has no levels", codec_names[o.codec]);
    if (o.row_group_rows <= 0)
        o.row_group_rows = SIMDSV_DEFAULT_ROW_GROUP_ROWS;
    o.threads = simdsv__thread_count(o.threads);
    simdsv_error local;
    wsink sink = {fn, ctx, 0, err ? err : &local, {writer_alloc, writer_realloc, writer_free, NULL}};
    return parquet ? simdsv__parquet_write(stream, &sink, &o) : simdsv__ipc_write(stream, &sink, &o);
}

simdsv_status simdsv_write_fd(struct ArrowArrayStream *stream, int fd, const simdsv_write_options *opt,
                              simdsv_error *err)
{
    return simdsv_write_callback(stream, write_fd, &fd, opt, err);
}

simdsv_status simdsv_write_path(struct ArrowArrayStream *stream, const char *path, const simdsv_write_options *opt,
                                simdsv_error *err)
{
    if (!path || !*path)
        return simdsv__write_fail(err, SIMDSV_ERR_INVALID_ARGUMENT, 0, "no output path");
    /* A device, FIFO or symbolic link is written in place: a temporary file
     * renamed over it would replace the node or the link itself (as root,
     * /dev/null would become a regular file). */
    struct stat st_path;
    if (lstat(path, &st_path) == 0 && !S_ISREG(st_path.st_mode)) {
        const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0) {
            const int e = errno;
            return simdsv__write_fail(err, SIMDSV_ERR_IO, e, "%s: cannot open the output: %s", path, strerror(e));
        }
        simdsv_status st = simdsv_write_fd(stream, fd, opt, err);
        if (close(fd) != 0 && st == SIMDSV_OK)
            st = simdsv__write_fail(err, SIMDSV_ERR_IO, errno, "%s: %s", path, strerror(errno));
        return st;
    }
    /* PATH.simdsv-XXXXXX next to path, so that rename() stays on one file system. */
    const size_t n = strlen(path);
    char *temp = malloc(n + 16);
    if (!temp)
        return simdsv__write_fail(err, SIMDSV_ERR_NOMEM, 0, "out of memory");
    memcpy(temp, path, n);
    memcpy(temp + n, ".simdsv-XXXXXX", 15);
    const int fd = mkstemp(temp);
    if (fd < 0) {
        const int e = errno;
        free(temp);
        return simdsv__write_fail(err, SIMDSV_ERR_IO, e, "%s: cannot create a temporary file: %s", path, strerror(e));
    }
    /* The mode a plain creat() would give (mkstemp makes it 0600). */
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    simdsv_status st = simdsv_write_fd(stream, fd, opt, err);
    if (st == SIMDSV_OK && fsync(fd) != 0)
        st = simdsv__write_fail(err, SIMDSV_ERR_IO, errno, "%s: %s", path, strerror(errno));
    if (close(fd) != 0 && st == SIMDSV_OK)
        st = simdsv__write_fail(err, SIMDSV_ERR_IO, errno, "%s: %s", path, strerror(errno));
    if (st == SIMDSV_OK && rename(temp, path) != 0)
        st = simdsv__write_fail(err, SIMDSV_ERR_IO, errno, "%s: cannot rename the output into place: %s", path,
                                strerror(errno));
    if (st != SIMDSV_OK)
        unlink(temp);
    free(temp);
    return st;
}

bool simdsv__grow_array(void **p, size_t *cap, size_t need, size_t elem)
{
    if (*cap >= need)
        return true;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}
