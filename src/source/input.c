/*
 * input.c — simdsv_input: bytes in as simdsv reads a file with no options.
 * A path, a descriptor or a buffer; gzip and zstd decoded on the fly by the
 * system's zlib and libzstd, loaded with dlopen() when first needed (the
 * library links neither, so a program that never reads compressed data pays
 * nothing and needs neither installed); a decoded sample kept and served
 * again first, so that a stream can be detected over its first bytes and
 * then read whole, without a seek.  Detection itself is src/sniff/detect.c.
 * Never prints, never exits: a missing decoder is an error with a message.
 */
#define _POSIX_C_SOURCE 200809L
#include "input.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef SIMDSV_HAVE_ZLIB_H
#include <zlib.h>
#endif
#ifdef SIMDSV_HAVE_ZSTD_H
#include <zstd.h>
#endif

/* Raw (compressed) bytes read at a time. */
#define RAW_CHUNK ((size_t)128 << 10)

/* ------------------------------------------------------------- decoders */

/* The decoders' entry points, found once per process (pthread_once: two
 * threads opening compressed inputs at once load the library once).  The
 * library is never closed: its functions may be in use by any input. */
typedef struct decoder_lib {
    pthread_once_t once;
    int ready;
    char why[160]; /* why it could not be loaded */
} decoder_lib;

#if defined(SIMDSV_HAVE_ZLIB_H) || defined(SIMDSV_HAVE_ZSTD_H)
static void *load_symbols(const char *const *sonames, const char *const *names, void **out, size_t n, char *why,
                          size_t why_size)
{
    const char *last = NULL;
    for (const char *const *so = sonames; *so; so++) {
        void *lib = dlopen(*so, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            last = dlerror();
            continue;
        }
        size_t i = 0;
        for (; i < n; i++) {
            out[i] = dlsym(lib, names[i]);
            if (!out[i])
                break;
        }
        if (i == n)
            return lib;
        snprintf(why, why_size, "%s has no %s", *so, names[i]);
        dlclose(lib);
        return NULL;
    }
    snprintf(why, why_size, "%s", last ? last : "not found");
    return NULL;
}
#endif

#ifdef SIMDSV_HAVE_ZLIB_H
static struct {
    int (*inflate_init)(z_streamp, int, const char *, int);
    int (*inflate)(z_streamp, int);
    int (*inflate_end)(z_streamp);
    int (*inflate_reset)(z_streamp);
} zlib_fn;
static decoder_lib zlib_lib = {PTHREAD_ONCE_INIT, 0, ""};

static void zlib_load(void)
{
    static const char *const sonames[] = {"libz.so.1", "libz.1.dylib", "libz.so", NULL};
    static const char *const names[] = {"inflateInit2_", "inflate", "inflateEnd", "inflateReset"};
    void *fn[4];
    if (!load_symbols(sonames, names, fn, 4, zlib_lib.why, sizeof zlib_lib.why))
        return;
    /* A data pointer to a function pointer, as POSIX dlsym allows. */
    memcpy(&zlib_fn.inflate_init, &fn[0], sizeof fn[0]);
    memcpy(&zlib_fn.inflate, &fn[1], sizeof fn[1]);
    memcpy(&zlib_fn.inflate_end, &fn[2], sizeof fn[2]);
    memcpy(&zlib_fn.inflate_reset, &fn[3], sizeof fn[3]);
    zlib_lib.ready = 1;
}
#endif

#ifdef SIMDSV_HAVE_ZSTD_H
static struct {
    ZSTD_DStream *(*create)(void);
    size_t (*free_stream)(ZSTD_DStream *);
    size_t (*init)(ZSTD_DStream *);
    size_t (*decompress)(ZSTD_DStream *, ZSTD_outBuffer *, ZSTD_inBuffer *);
    unsigned (*is_error)(size_t);
    const char *(*error_name)(size_t);
} zstd_fn;
static decoder_lib zstd_lib = {PTHREAD_ONCE_INIT, 0, ""};

static void zstd_load(void)
{
    static const char *const sonames[] = {"libzstd.so.1", "libzstd.1.dylib", "libzstd.so", NULL};
    static const char *const names[] = {"ZSTD_createDStream", "ZSTD_freeDStream", "ZSTD_initDStream",
                                        "ZSTD_decompressStream", "ZSTD_isError", "ZSTD_getErrorName"};
    void *fn[6];
    if (!load_symbols(sonames, names, fn, 6, zstd_lib.why, sizeof zstd_lib.why))
        return;
    memcpy(&zstd_fn.create, &fn[0], sizeof fn[0]);
    memcpy(&zstd_fn.free_stream, &fn[1], sizeof fn[1]);
    memcpy(&zstd_fn.init, &fn[2], sizeof fn[2]);
    memcpy(&zstd_fn.decompress, &fn[3], sizeof fn[3]);
    memcpy(&zstd_fn.is_error, &fn[4], sizeof fn[4]);
    memcpy(&zstd_fn.error_name, &fn[5], sizeof fn[5]);
    zstd_lib.ready = 1;
}
#endif

/* NULL when the decoder of c can be used, else why not (with the package). */
static const char *decoder_missing(simdsv_compression c)
{
    switch (c) {
    case SIMDSV_COMPRESSION_GZIP:
#ifdef SIMDSV_HAVE_ZLIB_H
        pthread_once(&zlib_lib.once, zlib_load);
        return zlib_lib.ready ? NULL : zlib_lib.why;
#else
        return "this simdsv was built without zlib.h";
#endif
    case SIMDSV_COMPRESSION_ZSTD:
#ifdef SIMDSV_HAVE_ZSTD_H
        pthread_once(&zstd_lib.once, zstd_load);
        return zstd_lib.ready ? NULL : zstd_lib.why;
#else
        return "this simdsv was built without zstd.h";
#endif
    default:
        return NULL;
    }
}

int simdsv_compression_supported(simdsv_compression compression)
{
    return (unsigned)compression <= SIMDSV_COMPRESSION_ZSTD && !decoder_missing(compression);
}

const char *simdsv_compression_name(simdsv_compression compression)
{
    static const char *const names[] = {"auto", "none", "gzip", "zstd"};
    return (unsigned)compression <= SIMDSV_COMPRESSION_ZSTD ? names[compression] : NULL;
}

/* ------------------------------------------------------------ raw bytes */

static void set_error(simdsv_error *error, simdsv_status code, int os_errno, const char *message)
{
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->code = code;
    error->os_errno = os_errno;
    snprintf(error->message, sizeof error->message, "%s", message);
}

/* Raw bytes of the source after those already read: the buffer, or the
 * descriptor (a regular file with pread, so the caller's offset and the
 * reader's view of the file stay as they were). */
static long long read_source(simdsv_input *in, uint8_t *buf, size_t size, int *os_errno)
{
    if (in->read_fn) {
        const long long n = in->read_fn(in->read_ctx, buf, size, os_errno);
        if (n > (long long)size) { /* a callback that claims more than it was given room for */
            snprintf(in->error, sizeof in->error, "the read callback returned %lld bytes for %zu", n, size);
            *os_errno = 0;
            return -1;
        }
        if (n > 0 && in->on_read)
            in->on_read(in->on_read_ctx, (uint64_t)n);
        return n < 0 ? -1 : n;
    }
    if (in->fd < 0) {
        size_t n = in->mem_size - in->mem_pos;
        if (n > size)
            n = size;
        memcpy(buf, in->mem + in->mem_pos, n);
        in->mem_pos += n;
        return (long long)n;
    }
    ssize_t n;
    do
        n = in->regular ? pread(in->fd, buf, size, (off_t)in->raw_pos) : read(in->fd, buf, size);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        *os_errno = errno;
        return -1;
    }
    in->raw_pos += (uint64_t)n;
    if (n > 0 && in->on_read)
        in->on_read(in->on_read_ctx, (uint64_t)n);
    return n;
}

/* Raw bytes: the peeked ones first, then the source's. */
static long long read_raw(simdsv_input *in, uint8_t *buf, size_t size, int *os_errno)
{
    if (in->peek_pos < in->peek_len) {
        size_t n = in->peek_len - in->peek_pos;
        if (n > size)
            n = size;
        memcpy(buf, in->peek + in->peek_pos, n);
        in->peek_pos += n;
        return (long long)n;
    }
    return read_source(in, buf, size, os_errno);
}

#if defined(SIMDSV_HAVE_ZLIB_H) || defined(SIMDSV_HAVE_ZSTD_H)
/* Makes raw bytes available in zbuf[zpos..zlen); -1 on a read error. */
static int fill_compressed(simdsv_input *in, int *os_errno)
{
    if (in->zpos < in->zlen || in->zeof)
        return 0;
    const long long n = read_raw(in, in->zbuf, in->zcap, os_errno);
    if (n < 0)
        return -1;
    in->zpos = 0;
    in->zlen = (size_t)n;
    in->zeof = n == 0;
    return 0;
}

static long long decode_failure(simdsv_input *in, const char *what, const char *detail)
{
    snprintf(in->error, sizeof in->error, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
    return -1;
}
#endif

#ifdef SIMDSV_HAVE_ZLIB_H
static long long read_gzip(simdsv_input *in, uint8_t *buf, size_t size, int *os_errno)
{
    z_stream *gz = in->decoder;
    if (size > UINT32_MAX)
        size = UINT32_MAX;
    for (;;) {
        if (fill_compressed(in, os_errno) < 0)
            return -1;
        const int no_input = in->zpos == in->zlen;
        if (no_input && !in->zmid)
            return 0; /* the end, at a member boundary */
        in->zmid = 1;
        gz->next_in = in->zbuf + in->zpos;
        gz->avail_in = (uInt)(in->zlen - in->zpos);
        gz->next_out = buf;
        gz->avail_out = (uInt)size;
        const int ret = zlib_fn.inflate(gz, Z_NO_FLUSH);
        in->zpos = in->zlen - gz->avail_in;
        const size_t produced = size - gz->avail_out;
        if (ret == Z_STREAM_END) {
            /* A gzip file may be members one after the other. */
            in->zmid = 0;
            zlib_fn.inflate_reset(gz);
            if (fill_compressed(in, os_errno) < 0)
                return -1;
            if (in->zpos < in->zlen && in->zbuf[in->zpos] != 0x1F)
                return decode_failure(in, "the gzip data is followed by bytes that are not gzip data", NULL);
        } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            return decode_failure(in, "the gzip data is corrupt", gz->msg ? gz->msg : "inflate failed");
        }
        if (produced)
            return (long long)produced;
        if (no_input && in->zeof && in->zmid)
            return decode_failure(in, "the gzip data is truncated", NULL);
    }
}
#endif

#ifdef SIMDSV_HAVE_ZSTD_H
static long long read_zstd(simdsv_input *in, uint8_t *buf, size_t size, int *os_errno)
{
    for (;;) {
        if (fill_compressed(in, os_errno) < 0)
            return -1;
        const int no_input = in->zpos == in->zlen;
        if (no_input && !in->zmid)
            return 0; /* the end, at a frame boundary */
        ZSTD_inBuffer zin = {in->zbuf, in->zlen, in->zpos};
        ZSTD_outBuffer zout = {buf, size, 0};
        const size_t ret = zstd_fn.decompress(in->decoder, &zout, &zin);
        in->zpos = zin.pos;
        if (zstd_fn.is_error(ret))
            return decode_failure(in, "the zstd data is corrupt", zstd_fn.error_name(ret));
        in->zmid = ret != 0; /* 0: a frame is complete and flushed */
        if (zout.pos)
            return (long long)zout.pos;
        if (no_input && in->zeof && in->zmid)
            return decode_failure(in, "the zstd data is truncated", NULL);
    }
}
#endif

/* Decoded bytes, not counting the sample. */
static long long read_decoded(simdsv_input *in, uint8_t *buf, size_t size, int *os_errno)
{
    if (in->error[0])
        return -1; /* a decoding error stays */
    switch (in->compression) {
#ifdef SIMDSV_HAVE_ZLIB_H
    case SIMDSV_COMPRESSION_GZIP:
        return read_gzip(in, buf, size, os_errno);
#endif
#ifdef SIMDSV_HAVE_ZSTD_H
    case SIMDSV_COMPRESSION_ZSTD:
        return read_zstd(in, buf, size, os_errno);
#endif
    default:
        return read_raw(in, buf, size, os_errno);
    }
}

/* The decoded bytes: the sample first, then the source. */
static long long read_replayed(simdsv_input *in, uint8_t *buf, size_t size, int *os_errno)
{
    if (in->sample_pos < in->sample_len) {
        size_t n = in->sample_len - in->sample_pos;
        if (n > size)
            n = size;
        memcpy(buf, in->sample + in->sample_pos, n);
        in->sample_pos += n;
        return (long long)n;
    }
    if (in->sample_errno) {
        *os_errno = in->sample_errno;
        return -1;
    }
    return read_decoded(in, buf, size, os_errno);
}

/* The kept ranges' bytes of the decoded input, moved down in buf. */
static long long read_kept(simdsv_input *in, uint8_t *buf, size_t size, int *os_errno)
{
    while (in->keep_i < in->nkeep) {
        const long long n = read_replayed(in, buf, size, os_errno);
        if (n <= 0)
            return n;
        const uint64_t start = in->pos, end = start + (uint64_t)n;
        in->pos = end;
        size_t out = 0;
        for (; in->keep_i < in->nkeep; in->keep_i++) {
            const uint64_t from = in->keep[2 * in->keep_i];
            const uint64_t to = in->keep[2 * in->keep_i + 1] ? in->keep[2 * in->keep_i + 1] : UINT64_MAX;
            const uint64_t a = from > start ? from : start, b = to < end ? to : end;
            if (a < b) {
                memmove(buf + out, buf + (a - start), (size_t)(b - a));
                out += (size_t)(b - a);
            }
            if (to > end)
                break; /* the range goes on in the next bytes */
        }
        if (out)
            return (long long)out;
    }
    return 0;
}

long long simdsv_input_read(void *ctx, void *buf, size_t size, int *os_errno)
{
    simdsv_input *in = ctx;
    int dummy = 0;
    if (!os_errno)
        os_errno = &dummy;
    *os_errno = 0;
    if (!in || (!buf && size))
        return -1;
    in->reading = 1;
    return in->nkeep ? read_kept(in, buf, size, os_errno) : read_replayed(in, buf, size, os_errno);
}

simdsv_status simdsv_input_keep_ranges(simdsv_input *in, const uint64_t *ranges, size_t n)
{
    if (!in || (n && !ranges) || in->reading)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    uint64_t *keep = NULL;
    if (n && !(keep = simdsv__alloc(&in->alloc, 2 * n * sizeof *keep)))
        return SIMDSV_ERR_NOMEM;
    if (n)
        memcpy(keep, ranges, 2 * n * sizeof *keep);
    simdsv__free(&in->alloc, in->keep, 2 * in->nkeep * sizeof *in->keep);
    in->keep = keep;
    in->nkeep = n;
    in->keep_i = 0;
    return SIMDSV_OK;
}

simdsv_status simdsv__input_sample(simdsv_input *in, size_t size, const uint8_t **data, size_t *got, int *whole,
                                   int *os_errno)
{
    *os_errno = 0;
    if (!in->sampled) {
        if (in->reading)
            return SIMDSV_ERR_INVALID_ARGUMENT; /* its first bytes are gone */
        in->sample = simdsv__alloc(&in->alloc, size ? size : 1);
        if (!in->sample)
            return SIMDSV_ERR_NOMEM;
        in->sample_cap = size ? size : 1;
        long long n = 1;
        while (in->sample_len < size &&
               (n = read_decoded(in, in->sample + in->sample_len, size - in->sample_len, os_errno)) > 0)
            in->sample_len += (size_t)n;
        in->sampled = 1;
        in->sample_whole = n == 0;
        if (n < 0) {
            /* The reader gets the bytes before the failure, then the failure. */
            in->sample_errno = *os_errno;
            in->sample_failed = 1;
        }
    }
    if (in->sample_failed) {
        *os_errno = in->sample_errno;
        return SIMDSV_ERR_IO;
    }
    *data = in->sample;
    *got = in->sample_len;
    *whole = in->sample_whole;
    return SIMDSV_OK;
}

/* -------------------------------------------------------------- opening */

/* Reads the first bytes of a stream to tell its compression (kept in peek,
 * served first), then starts the decoder. */
static simdsv_status start(simdsv_input *in, simdsv_compression asked, simdsv_error *error)
{
    simdsv_compression c = asked;
    if (c == SIMDSV_COMPRESSION_AUTO) {
        if (in->fd >= 0 || in->read_fn) { /* a descriptor or a callback: its first bytes read (and kept) */
            while (in->peek_len < sizeof in->peek) {
                int err = 0;
                const long long n = read_source(in, in->peek + in->peek_len, sizeof in->peek - in->peek_len, &err);
                if (n < 0) {
                    set_error(error, SIMDSV_ERR_IO, err, strerror(err));
                    return SIMDSV_ERR_IO;
                }
                if (n == 0)
                    break;
                in->peek_len += (size_t)n;
            }
        } else {
            in->peek_len = in->mem_size < sizeof in->peek ? in->mem_size : sizeof in->peek;
            memcpy(in->peek, in->mem, in->peek_len);
            in->mem_pos = in->peek_len;
        }
        if (in->peek_len >= 2 && in->peek[0] == 0x1F && in->peek[1] == 0x8B)
            c = SIMDSV_COMPRESSION_GZIP;
        else if (in->peek_len >= 4 && memcmp(in->peek, "\x28\xB5\x2F\xFD", 4) == 0)
            c = SIMDSV_COMPRESSION_ZSTD;
        else
            c = SIMDSV_COMPRESSION_NONE;
    }
    in->compression = c;
    if (c == SIMDSV_COMPRESSION_NONE)
        return SIMDSV_OK;
    const char *missing = decoder_missing(c);
    if (missing) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s-compressed, but %s cannot be loaded (%s): install it (%s)",
                 c == SIMDSV_COMPRESSION_GZIP ? "gzip" : "zstd", c == SIMDSV_COMPRESSION_GZIP ? "zlib" : "libzstd",
                 missing, c == SIMDSV_COMPRESSION_GZIP ? "apt install zlib1g" : "apt install libzstd1");
        set_error(error, SIMDSV_ERR_IO, 0, msg);
        return SIMDSV_ERR_IO;
    }
    in->zcap = RAW_CHUNK;
    in->zbuf = simdsv__alloc(&in->alloc, in->zcap);
    if (!in->zbuf) {
        set_error(error, SIMDSV_ERR_NOMEM, 0, simdsv_status_message(SIMDSV_ERR_NOMEM));
        return SIMDSV_ERR_NOMEM;
    }
    int started = 0;
#ifdef SIMDSV_HAVE_ZLIB_H
    if (c == SIMDSV_COMPRESSION_GZIP) {
        z_stream *gz = simdsv__alloc(&in->alloc, sizeof *gz);
        if (gz) {
            memset(gz, 0, sizeof *gz);
            in->decoder = gz;
            /* 15 + 16: the largest window, gzip framing. */
            started = zlib_fn.inflate_init(gz, 15 + 16, ZLIB_VERSION, (int)sizeof *gz) == Z_OK;
            if (!started) {
                simdsv__free(&in->alloc, gz, sizeof *gz);
                in->decoder = NULL;
            }
        }
    }
#endif
#ifdef SIMDSV_HAVE_ZSTD_H
    if (c == SIMDSV_COMPRESSION_ZSTD) {
        in->decoder = zstd_fn.create();
        started = in->decoder && !zstd_fn.is_error(zstd_fn.init(in->decoder));
    }
#endif
    if (!started) {
        set_error(error, SIMDSV_ERR_NOMEM, 0, "cannot start the decoder");
        return SIMDSV_ERR_NOMEM;
    }
    return SIMDSV_OK;
}

static simdsv_input *make(const simdsv_options *opt)
{
    const simdsv_allocator a = simdsv__options_allocator(opt);
    simdsv_input *in = simdsv__alloc(&a, sizeof *in);
    if (!in)
        return NULL;
    memset(in, 0, sizeof *in);
    in->alloc = a;
    in->fd = -1;
    return in;
}

static simdsv_status finish_open(simdsv_input *in, const simdsv_options *opt, simdsv_input **out,
                                 simdsv_error *error)
{
    const simdsv_status st = start(in, opt ? opt->compression : SIMDSV_COMPRESSION_AUTO, error);
    if (st != SIMDSV_OK) {
        simdsv_input_free(in);
        return st;
    }
    *out = in;
    return SIMDSV_OK;
}

static simdsv_status no_memory(simdsv_error *error)
{
    set_error(error, SIMDSV_ERR_NOMEM, 0, simdsv_status_message(SIMDSV_ERR_NOMEM));
    return SIMDSV_ERR_NOMEM;
}

/* Takes the kind and size of in->fd; a directory is refused. */
static simdsv_status stat_fd(simdsv_input *in, simdsv_error *error)
{
    struct stat st;
    if (fstat(in->fd, &st) != 0) {
        const int err = errno;
        set_error(error, SIMDSV_ERR_IO, err, strerror(err));
        return SIMDSV_ERR_IO;
    }
    if (S_ISDIR(st.st_mode)) {
        set_error(error, SIMDSV_ERR_IO, EISDIR, strerror(EISDIR));
        return SIMDSV_ERR_IO;
    }
    in->regular = S_ISREG(st.st_mode);
    in->size = in->regular ? (uint64_t)st.st_size : 0;
    return SIMDSV_OK;
}

simdsv_status simdsv_input_open_path(simdsv_input **out, const char *path, const simdsv_options *opt,
                                     simdsv_error *error)
{
    if (!out || !path) {
        set_error(error, SIMDSV_ERR_INVALID_ARGUMENT, 0, simdsv_status_message(SIMDSV_ERR_INVALID_ARGUMENT));
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    simdsv_input *in = make(opt);
    const size_t len = strlen(path) + 1;
    if (!in || !(in->path = simdsv__alloc(&in->alloc, len))) {
        simdsv_input_free(in);
        return no_memory(error);
    }
    memcpy(in->path, path, len);
    do
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
    while (in->fd < 0 && errno == EINTR);
    if (in->fd < 0) {
        const int err = errno;
        set_error(error, SIMDSV_ERR_IO, err, strerror(err));
        simdsv_input_free(in);
        return SIMDSV_ERR_IO;
    }
    in->owns_fd = 1;
    const simdsv_status st = stat_fd(in, error);
    if (st != SIMDSV_OK) {
        simdsv_input_free(in);
        return st;
    }
    return finish_open(in, opt, out, error);
}

simdsv_status simdsv_input_open_fd(simdsv_input **out, int fd, const simdsv_options *opt, simdsv_error *error)
{
    if (!out || fd < 0) {
        set_error(error, SIMDSV_ERR_INVALID_ARGUMENT, 0, simdsv_status_message(SIMDSV_ERR_INVALID_ARGUMENT));
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    simdsv_input *in = make(opt);
    if (!in)
        return no_memory(error);
    in->fd = fd;
    const simdsv_status st = stat_fd(in, error);
    /* A regular file is read with pread() from its start, like a path,
     * only when the descriptor stands at its start (standard input
     * redirected from a file); else it is read from where it stands. */
    if (in->regular && lseek(fd, 0, SEEK_CUR) != 0)
        in->regular = 0;
    if (st != SIMDSV_OK) {
        simdsv_input_free(in);
        return st;
    }
    return finish_open(in, opt, out, error);
}

simdsv_status simdsv_input_open_memory(simdsv_input **out, const void *data, size_t size, const simdsv_options *opt,
                                       simdsv_error *error)
{
    if (!out || (!data && size)) {
        set_error(error, SIMDSV_ERR_INVALID_ARGUMENT, 0, simdsv_status_message(SIMDSV_ERR_INVALID_ARGUMENT));
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    simdsv_input *in = make(opt);
    if (!in)
        return no_memory(error);
    in->mem = data ? data : (const uint8_t *)"";
    in->mem_size = size;
    return finish_open(in, opt, out, error);
}

simdsv_status simdsv__input_open_callback(simdsv_input **out, simdsv_read_fn fn, void *ctx,
                                          const simdsv_options *opt, simdsv_error *error)
{
    if (!out || !fn) {
        set_error(error, SIMDSV_ERR_INVALID_ARGUMENT, 0, simdsv_status_message(SIMDSV_ERR_INVALID_ARGUMENT));
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    *out = NULL;
    simdsv_input *in = make(opt);
    if (!in)
        return no_memory(error);
    in->read_fn = fn;
    in->read_ctx = ctx;
    return finish_open(in, opt, out, error);
}

void simdsv_input_free(simdsv_input *in)
{
    if (!in)
        return;
    const simdsv_allocator a = in->alloc;
#ifdef SIMDSV_HAVE_ZLIB_H
    if (in->decoder && in->compression == SIMDSV_COMPRESSION_GZIP) {
        zlib_fn.inflate_end(in->decoder);
        simdsv__free(&a, in->decoder, sizeof(z_stream));
    }
#endif
#ifdef SIMDSV_HAVE_ZSTD_H
    if (in->decoder && in->compression == SIMDSV_COMPRESSION_ZSTD)
        zstd_fn.free_stream(in->decoder);
#endif
    simdsv__free(&a, in->zbuf, in->zcap);
    simdsv__free(&a, in->sample, in->sample_cap);
    simdsv__free(&a, in->keep, 2 * in->nkeep * sizeof *in->keep);
    if (in->path)
        simdsv__free(&a, in->path, strlen(in->path) + 1);
    if (in->owns_fd)
        close(in->fd);
    simdsv__free(&a, in, sizeof *in);
}

/* ------------------------------------------------------------- queries */

simdsv_compression simdsv_input_compression(const simdsv_input *in)
{
    return in ? in->compression : SIMDSV_COMPRESSION_NONE;
}

const char *simdsv_input_error(const simdsv_input *in)
{
    return in && in->error[0] ? in->error : NULL;
}

void simdsv_input_observe(simdsv_input *in, void (*on_read)(void *ctx, uint64_t bytes), void *ctx)
{
    if (!in)
        return;
    in->on_read = on_read;
    in->on_read_ctx = ctx;
    /* The bytes read to tell the compression were read before anyone watched. */
    if (on_read && in->fd >= 0 && in->peek_len)
        on_read(ctx, in->peek_len);
}

int simdsv_input_fd(const simdsv_input *in, uint64_t *size)
{
    if (!in || in->fd < 0 || !in->regular || in->compression != SIMDSV_COMPRESSION_NONE || in->nkeep)
        return -1;
    if (size)
        *size = in->size;
    return in->fd;
}

int simdsv__input_direct(const simdsv_input *in)
{
    return in->compression == SIMDSV_COMPRESSION_NONE && !in->on_read && !in->reading && !in->nkeep &&
           ((in->fd >= 0 && in->regular && in->path) || (in->fd < 0 && !in->read_fn));
}

simdsv_status simdsv_input_open_reader(simdsv_input *in, simdsv_reader *r)
{
    if (!in || !r || in->opened)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    in->opened = 1;
    if (simdsv__input_direct(in))
        return in->fd >= 0 ? simdsv_reader_open_path(r, in->path) : simdsv_reader_open_memory(r, in->mem, in->mem_size);
    return simdsv_reader_open_callback(r, simdsv_input_read, in);
}
