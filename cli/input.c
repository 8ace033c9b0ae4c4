/* input.c — where the command's bytes come from: a file or standard input,
 * decompressed on the fly when it starts with the gzip (1F 8B) or zstd
 * (28 B5 2F FD) magic bytes.  Every byte read is reported to the progress
 * line.  The reader gets the decoded stream through simdsv_reader_open_callback. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef SIMDSV_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef SIMDSV_HAVE_ZSTD
#include <zstd.h>
#endif

typedef enum { KIND_PLAIN, KIND_GZIP, KIND_ZSTD } input_kind;

struct cli_input {
    int fd;
    bool owns_fd;
    bool regular;
    uint64_t size;           /* of a regular file (compressed size for compressed input) */
    input_kind kind;
    unsigned char peek[4];   /* the bytes read to detect the format, served first */
    size_t peek_len, peek_pos;
    /* compressed input: bytes read from fd and not yet decoded */
    unsigned char *zbuf;
    size_t zcap, zpos, zlen;
    bool zeof;               /* fd at its end */
    bool zmid;               /* inside a compressed stream (not at a member boundary) */
    /* decoded bytes read ahead by input_sample, served again before anything else */
    unsigned char *replay;
    size_t replay_len, replay_pos;
    bool sample_hit_end;     /* the sample read the whole input */
    int sample_errno;        /* the sample ended on a read error (0: none), given again after its bytes */
    /* --table all: only the decoded bytes in these [from, to) ranges are served (to 0: the end) */
    uint64_t *keep;
    size_t nkeep, keep_i;
    uint64_t pos;            /* decoded offset of the next byte read */
#ifdef SIMDSV_HAVE_ZLIB
    z_stream gz;
    bool gz_init;
#endif
#ifdef SIMDSV_HAVE_ZSTD
    ZSTD_DStream *zs;
#endif
    char error[200];
};

static ssize_t read_fd(int fd, void *buf, size_t size, int *os_errno)
{
    ssize_t n;
    do
        n = read(fd, buf, size);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        *os_errno = errno;
    return n;
}

/* Raw bytes: the peeked ones first, then read(). */
static ssize_t read_raw(cli_input *in, void *buf, size_t size, int *os_errno)
{
    if (in->peek_pos < in->peek_len) {
        size_t n = in->peek_len - in->peek_pos;
        if (n > size)
            n = size;
        memcpy(buf, in->peek + in->peek_pos, n);
        in->peek_pos += n;
        return (ssize_t)n;
    }
    const ssize_t n = read_fd(in->fd, buf, size, os_errno);
    if (n > 0)
        progress_add((uint64_t)n);
    return n;
}

uint64_t input_path_size(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    return (uint64_t)st.st_size;
}

cli_input *input_open(const char *path, const char *display)
{
    cli_input *in = calloc(1, sizeof *in);
    if (!in) {
        cli_error("out of memory");
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO;
    } else {
        do
            in->fd = open(path, O_RDONLY | O_CLOEXEC);
        while (in->fd < 0 && errno == EINTR);
        if (in->fd < 0) {
            cli_error("%s: %s", display, strerror(errno));
            free(in);
            return NULL;
        }
        in->owns_fd = true;
    }
    struct stat st;
    if (fstat(in->fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            cli_error("%s: %s", display, strerror(EISDIR));
            input_close(in);
            return NULL;
        }
        if (S_ISREG(st.st_mode)) {
            in->regular = true;
            in->size = (uint64_t)st.st_size;
        }
    }
    /* Sniff the format from the first bytes (kept and served first). */
    while (in->peek_len < sizeof in->peek) {
        int err = 0;
        const ssize_t n = read_fd(in->fd, in->peek + in->peek_len, sizeof in->peek - in->peek_len, &err);
        if (n < 0) {
            cli_error("%s: %s", display, strerror(err));
            input_close(in);
            return NULL;
        }
        if (n == 0)
            break;
        in->peek_len += (size_t)n;
        progress_add((uint64_t)n);
    }
    const char *missing = NULL;
    if (in->peek_len >= 2 && in->peek[0] == 0x1F && in->peek[1] == 0x8B) {
        in->kind = KIND_GZIP;
#ifdef SIMDSV_HAVE_ZLIB
        if (inflateInit2(&in->gz, 15 + 16) != Z_OK) {
            cli_error("%s: cannot start the gzip decoder", display);
            input_close(in);
            return NULL;
        }
        in->gz_init = true;
#else
        missing = "gzip-compressed, but this simdsv was built without zlib (gzip support)";
#endif
    } else if (in->peek_len >= 4 && memcmp(in->peek, "\x28\xB5\x2F\xFD", 4) == 0) {
        in->kind = KIND_ZSTD;
#ifdef SIMDSV_HAVE_ZSTD
        in->zs = ZSTD_createDStream();
        if (!in->zs || ZSTD_isError(ZSTD_initDStream(in->zs))) {
            cli_error("%s: cannot start the zstd decoder", display);
            input_close(in);
            return NULL;
        }
#else
        missing = "zstd-compressed, but this simdsv was built without libzstd (zstd support)";
#endif
    }
    if (missing) {
        cli_error("%s: %s", display, missing);
        input_close(in);
        return NULL;
    }
    if (in->kind != KIND_PLAIN) {
        in->zcap = 1 << 17;
        in->zbuf = malloc(in->zcap);
        if (!in->zbuf) {
            cli_error("out of memory");
            input_close(in);
            return NULL;
        }
    }
    return in;
}

void input_close(cli_input *in)
{
    if (!in)
        return;
#ifdef SIMDSV_HAVE_ZLIB
    if (in->gz_init)
        inflateEnd(&in->gz);
#endif
#ifdef SIMDSV_HAVE_ZSTD
    if (in->zs)
        ZSTD_freeDStream(in->zs);
#endif
    free(in->zbuf);
    free(in->replay);
    free(in->keep);
    if (in->owns_fd)
        close(in->fd);
    free(in);
}

const char *input_error(const cli_input *in)
{
    return in && in->error[0] ? in->error : NULL;
}

bool input_is_regular(const cli_input *in)
{
    return in && in->regular;
}

int input_seekable_fd(const cli_input *in, uint64_t *size)
{
    if (!in || in->kind != KIND_PLAIN || !in->regular || in->nkeep)
        return -1;
    *size = in->size;
    return in->fd;
}

#if defined(SIMDSV_HAVE_ZLIB) || defined(SIMDSV_HAVE_ZSTD)
/* Makes compressed bytes available in zbuf[zpos..zlen); false on a read error. */
static bool fill_compressed(cli_input *in, int *os_errno)
{
    if (in->zpos < in->zlen || in->zeof)
        return true;
    const ssize_t n = read_raw(in, in->zbuf, in->zcap, os_errno);
    if (n < 0)
        return false;
    in->zpos = 0;
    in->zlen = (size_t)n;
    in->zeof = n == 0;
    return true;
}

static long long decode_failure(cli_input *in, const char *what, const char *detail)
{
    snprintf(in->error, sizeof in->error, "%s%s%s", what, detail ? ": " : "", detail ? detail : "");
    return -1;
}
#endif

#ifdef SIMDSV_HAVE_ZLIB
static long long read_gzip(cli_input *in, unsigned char *buf, size_t size, int *os_errno)
{
    if (size > UINT32_MAX)
        size = UINT32_MAX;
    for (;;) {
        if (!fill_compressed(in, os_errno))
            return -1;
        const bool no_input = in->zpos == in->zlen;
        if (no_input && !in->zmid)
            return 0; /* the end, at a member boundary */
        in->zmid = true;
        in->gz.next_in = in->zbuf + in->zpos;
        in->gz.avail_in = (uInt)(in->zlen - in->zpos);
        in->gz.next_out = buf;
        in->gz.avail_out = (uInt)size;
        const int ret = inflate(&in->gz, Z_NO_FLUSH);
        in->zpos = in->zlen - in->gz.avail_in;
        const size_t produced = size - in->gz.avail_out;
        if (ret == Z_STREAM_END) {
            /* gzip files may be concatenations of members. */
            in->zmid = false;
            inflateReset(&in->gz);
            if (!fill_compressed(in, os_errno))
                return -1;
            if (in->zpos < in->zlen && in->zbuf[in->zpos] != 0x1F)
                return decode_failure(in, "the gzip data is followed by bytes that are not gzip data", NULL);
        } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
            return decode_failure(in, "the gzip data is corrupt", in->gz.msg ? in->gz.msg : "inflate failed");
        }
        if (produced)
            return (long long)produced;
        if (no_input && in->zeof && in->zmid)
            return decode_failure(in, "the gzip data is truncated", NULL);
    }
}
#endif

#ifdef SIMDSV_HAVE_ZSTD
static long long read_zstd(cli_input *in, unsigned char *buf, size_t size, int *os_errno)
{
    for (;;) {
        if (!fill_compressed(in, os_errno))
            return -1;
        const bool no_input = in->zpos == in->zlen;
        if (no_input && !in->zmid)
            return 0; /* the end, at a frame boundary */
        ZSTD_inBuffer zin = {in->zbuf, in->zlen, in->zpos};
        ZSTD_outBuffer zout = {buf, size, 0};
        const size_t ret = ZSTD_decompressStream(in->zs, &zout, &zin);
        in->zpos = zin.pos;
        if (ZSTD_isError(ret))
            return decode_failure(in, "the zstd data is corrupt", ZSTD_getErrorName(ret));
        in->zmid = ret != 0; /* 0: a frame is complete and flushed */
        if (zout.pos)
            return (long long)zout.pos;
        if (no_input && in->zeof && in->zmid)
            return decode_failure(in, "the zstd data is truncated", NULL);
    }
}
#endif

static long long read_decoded(cli_input *in, void *buf, size_t size, int *os_errno)
{
    switch (in->kind) {
    case KIND_PLAIN: {
        const ssize_t n = read_raw(in, buf, size, os_errno);
        return n;
    }
#ifdef SIMDSV_HAVE_ZLIB
    case KIND_GZIP:
        return read_gzip(in, buf, size, os_errno);
#endif
#ifdef SIMDSV_HAVE_ZSTD
    case KIND_ZSTD:
        return read_zstd(in, buf, size, os_errno);
#endif
    default:
        return -1;
    }
}

static long long read_replayed(cli_input *in, void *buf, size_t size, int *os_errno)
{
    if (in->replay_pos < in->replay_len) {
        size_t n = in->replay_len - in->replay_pos;
        if (n > size)
            n = size;
        memcpy(buf, in->replay + in->replay_pos, n);
        in->replay_pos += n;
        return (long long)n;
    }
    if (in->sample_errno) {
        *os_errno = in->sample_errno;
        return -1;
    }
    return read_decoded(in, buf, size, os_errno);
}

/* The kept ranges' bytes of what read_replayed gives, moved down in buf. */
static long long read_kept(cli_input *in, unsigned char *buf, size_t size, int *os_errno)
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

long long input_read(cli_input *in, void *buf, size_t size, int *os_errno)
{
    if (in->nkeep)
        return read_kept(in, buf, size, os_errno);
    return read_replayed(in, buf, size, os_errno);
}

bool input_keep_ranges(cli_input *in, const uint64_t *ranges, size_t n)
{
    in->keep = malloc(2 * n * sizeof *in->keep);
    if (!in->keep)
        return false;
    memcpy(in->keep, ranges, 2 * n * sizeof *in->keep);
    in->nkeep = n;
    return true;
}

long long input_sample(cli_input *in, size_t size, const void **data, bool *whole, int *os_errno)
{
    if (in->replay_pos || in->replay_len) {
        *data = in->replay;
        *whole = in->sample_hit_end;
        return (long long)in->replay_len;
    }
    in->replay = malloc(size ? size : 1);
    if (!in->replay) {
        *os_errno = ENOMEM;
        return -1;
    }
    long long n = 1;
    while (in->replay_len < size && (n = read_decoded(in, in->replay + in->replay_len, size - in->replay_len,
                                                      os_errno)) > 0)
        in->replay_len += (size_t)n;
    if (n < 0) {
        in->sample_errno = *os_errno ? *os_errno : EIO;
        return -1;
    }
    in->sample_hit_end = n == 0;
    *data = in->replay;
    *whole = in->sample_hit_end;
    return (long long)in->replay_len;
}

long long input_callback(void *ctx, void *buf, size_t size, int *os_errno)
{
    return input_read(ctx, buf, size, os_errno);
}
