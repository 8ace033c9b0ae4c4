/* source.c — opening and reading inputs (POSIX). */
#define _DEFAULT_SOURCE /* madvise */
#include "source.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

static simdsv_status read_unlimited(source *s, void *buf, size_t size, size_t *got, int *os_errno);

void simdsv__source_release(source *s, size_t upto)
{
    if (s->kind != SOURCE_MAPPED || s->streamed || upto < s->released + ((size_t)16 << 20))
        return;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    simdsv__source_release_range(s, s->released, upto);
    s->released = upto / page * page;
}

void simdsv__source_release_range(const source *s, size_t from, size_t to)
{
    if (s->kind != SOURCE_MAPPED || s->streamed || to > s->size)
        return;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    from = (from + page - 1) / page * page; /* the mapping starts on a page */
    to = to / page * page;
    /* A private read-only file mapping: the dropped pages read back as they were. */
    if (from < to)
        (void)madvise((void *)(uintptr_t)(s->data + from), to - from, MADV_DONTNEED);
}

simdsv_status simdsv__source_open_path(source *s, const char *path, int use_mmap, int *os_errno)
{
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        *os_errno = errno;
        return SIMDSV_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        *os_errno = errno;
        close(fd);
        return SIMDSV_ERR_IO;
    }
    if (S_ISDIR(st.st_mode)) {
        *os_errno = EISDIR;
        close(fd);
        return SIMDSV_ERR_IO;
    }
    if (use_mmap && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= (uint64_t)SIZE_MAX) {
        const size_t size = (size_t)st.st_size;
        if (size == 0) {
            close(fd);
            s->kind = SOURCE_MEMORY;
            s->data = (const uint8_t *)"";
            s->size = 0;
            return SIMDSV_OK;
        }
        void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            close(fd);
            (void)posix_madvise(map, size, POSIX_MADV_SEQUENTIAL);
            s->kind = SOURCE_MAPPED;
            s->data = map;
            s->size = size;
            s->map_size = size;
            return SIMDSV_OK;
        }
        /* Not mappable (some special file systems): fall back to read(). */
    }
    s->kind = SOURCE_FD;
    s->fd = fd;
    s->owns_fd = 1;
    return SIMDSV_OK;
}

static simdsv_status read_raw(source *s, void *buf, size_t size, size_t *got, int *os_errno)
{
    *got = 0;
    if (s->limited && size > s->left)
        size = (size_t)s->left;
    if (size == 0)
        return SIMDSV_OK;
    const simdsv_status st = read_unlimited(s, buf, size, got, os_errno);
    if (s->limited)
        s->left -= *got;
    return st;
}

/* Converted bytes for a caller with less room than a conversion needs (8
 * bytes: simdsv__transcode's minimum).  Converting into so little room gave
 * nothing, which the loop below took for a full raw buffer to read more into
 * (read() of 0 bytes: "end of input"), and a reader ended a converted input
 * wherever its buffer's last bytes fell short of a character. */
static simdsv_status read_spilled(source *s, uint8_t *buf, size_t size, size_t *got, int *os_errno)
{
    if (s->spill_pos == s->spill_len) {
        s->spill_pos = s->spill_len = 0;
        const simdsv_status st = simdsv__source_read(s, s->spill, sizeof s->spill, &s->spill_len, os_errno);
        if (st != SIMDSV_OK)
            return st;
    }
    const size_t n = s->spill_len - s->spill_pos < size ? s->spill_len - s->spill_pos : size;
    memcpy(buf, s->spill + s->spill_pos, n);
    s->spill_pos += n;
    *got = n;
    return SIMDSV_OK;
}

simdsv_status simdsv__source_read(source *s, void *buf, size_t size, size_t *got, int *os_errno)
{
    if (!s->transcoding)
        return read_raw(s, buf, size, got, os_errno);
    *got = 0;
    if (s->spill_pos < s->spill_len || size < sizeof s->spill)
        return size ? read_spilled(s, buf, size, got, os_errno) : SIMDSV_OK;
    for (;;) {
        if (s->raw_pos < s->raw_len || s->raw_eof) {
            size_t used = 0;
            *got = simdsv__transcode(&s->tc, s->raw + s->raw_pos, s->raw_len - s->raw_pos, &used, buf, size,
                                     s->raw_eof);
            s->raw_pos += used;
            if (*got || s->raw_eof)
                return SIMDSV_OK;
        }
        /* Keep the unconverted tail (a cut sequence) and read more after it. */
        memmove(s->raw, s->raw + s->raw_pos, s->raw_len - s->raw_pos);
        s->raw_len -= s->raw_pos;
        s->raw_pos = 0;
        size_t n = 0;
        const simdsv_status st = read_raw(s, s->raw + s->raw_len, s->raw_cap - s->raw_len, &n, os_errno);
        if (st != SIMDSV_OK)
            return st;
        s->raw_len += n;
        if (n == 0)
            s->raw_eof = 1;
    }
}

static simdsv_status read_unlimited(source *s, void *buf, size_t size, size_t *got, int *os_errno)
{
    *got = 0;
    if (s->streamed) {
        const size_t n = s->size - s->mem_pos < size ? s->size - s->mem_pos : size;
        memcpy(buf, s->data + s->mem_pos, n);
        s->mem_pos += n;
        *got = n;
        return SIMDSV_OK;
    }
    switch (s->kind) {
    case SOURCE_FD: {
        ssize_t n;
        do
            n = read(s->fd, buf, size);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
            *os_errno = errno;
            return SIMDSV_ERR_IO;
        }
        *got = (size_t)n;
        return SIMDSV_OK;
    }
    case SOURCE_STDIO: {
        const size_t n = fread(buf, 1, size, s->file);
        if (n == 0 && ferror(s->file)) {
            *os_errno = errno;
            return SIMDSV_ERR_IO;
        }
        *got = n;
        return SIMDSV_OK;
    }
    case SOURCE_CALLBACK: {
        int err = 0;
        const long long n = s->fn(s->ctx, buf, size, &err);
        if (n < 0 || (unsigned long long)n > size) {
            *os_errno = err;
            return SIMDSV_ERR_IO;
        }
        *got = (size_t)n;
        return SIMDSV_OK;
    }
    default:
        return SIMDSV_OK; /* whole-input sources have nothing more to read */
    }
}

#define RAW_BUFFER ((size_t)64 << 10)

simdsv_status simdsv__source_setup(source *s, const struct simdsv_options *opt, int *stream)
{
    s->alloc = &opt->alloc;
    s->left = UINT64_MAX;
    s->limited = opt->end_offset != 0;
    if (s->limited)
        s->left = opt->end_offset;
    const char *encoding = opt->encoding;
    const int whole = s->kind == SOURCE_MEMORY || s->kind == SOURCE_MAPPED;
    if (simdsv__encoding_kind(encoding) != ENCODING_UTF8) {
        simdsv_status st = simdsv__transcoder_init(&s->tc, encoding);
        if (st != SIMDSV_OK)
            return st;
        s->raw = simdsv__alloc(s->alloc, RAW_BUFFER);
        if (!s->raw) {
            simdsv__transcoder_close(&s->tc);
            return SIMDSV_ERR_NOMEM;
        }
        s->raw_cap = RAW_BUFFER;
        s->transcoding = 1;
        s->streamed = whole;
    } else if (whole && s->limited && s->size > s->left) {
        s->size = (size_t)s->left; /* a whole input simply ends there */
    }
    *stream = !whole || s->streamed;
    return SIMDSV_OK;
}

int simdsv__source_plain(const source *s)
{
    return !s->transcoding && !s->limited;
}

void simdsv__source_close(source *s)
{
    if (s->transcoding) {
        simdsv__transcoder_close(&s->tc);
        simdsv__free(s->alloc, s->raw, s->raw_cap);
        s->transcoding = 0;
        s->raw = NULL;
    }
    if (s->kind == SOURCE_MAPPED && s->map_size) /* (0: the mapping was shared, src/record/shared.c) */
        munmap((void *)(uintptr_t)s->data, s->map_size);
    if (s->kind == SOURCE_FD && s->owns_fd)
        close(s->fd);
    s->kind = SOURCE_NONE;
}

/* One thread's part of simdsv__source_read_ahead. */
typedef struct read_part {
    int fd;
    uint8_t *buf;
    uint64_t at; /* file offset of buf[0] */
    size_t size;
    int os_errno; /* a read() error */
    int complete; /* all size bytes arrived */
} read_part;

static void read_one_part(void *ctx, size_t i)
{
    read_part *p = (read_part *)ctx + i;
    size_t got = 0;
    while (got < p->size) {
        const ssize_t n = pread(p->fd, p->buf + got, p->size - got, (off_t)(p->at + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            p->os_errno = errno;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    p->complete = got == p->size;
}

#define READ_AHEAD_MAX_PARTS 64

static atomic_ullong read_aheads;

uint64_t simdsv__source_read_aheads(void)
{
    return atomic_load_explicit(&read_aheads, memory_order_relaxed);
}

simdsv_status simdsv__source_read_ahead(source *s, void *buf, size_t size, int threads, size_t min_part, size_t *got,
                                        int *os_errno)
{
    *got = 0;
    size_t n = min_part ? size / min_part : 0;
    if (n > (size_t)threads)
        n = (size_t)threads;
    if (n > READ_AHEAD_MAX_PARTS)
        n = READ_AHEAD_MAX_PARTS;
    if (n < 2 || s->kind != SOURCE_FD || !simdsv__source_plain(s) || (uint64_t)size > (uint64_t)INT64_MAX)
        return SIMDSV_OK;
    const off_t at = lseek(s->fd, 0, SEEK_CUR);
    if (at < 0 || (uint64_t)at > (uint64_t)INT64_MAX - size)
        return SIMDSV_OK; /* not seekable after all: read() as a stream */
    read_part parts[READ_AHEAD_MAX_PARTS];
    for (size_t i = 0; i < n; i++) {
        const size_t from = size / n * i, to = i + 1 == n ? size : size / n * (i + 1);
        parts[i] = (read_part){s->fd, (uint8_t *)buf + from, (uint64_t)at + from, to - from, 0, 0};
    }
    if (!simdsv__run_threads(s->alloc, n, read_one_part, parts))
        return SIMDSV_OK;
    for (size_t i = 0; i < n; i++) {
        if (parts[i].os_errno) {
            *os_errno = parts[i].os_errno;
            return SIMDSV_ERR_IO;
        }
        if (!parts[i].complete)
            return SIMDSV_OK; /* the file shrank: the stream reads what is left, from where it was */
    }
    if (lseek(s->fd, (off_t)((uint64_t)at + size), SEEK_SET) < 0) {
        *os_errno = errno;
        return SIMDSV_ERR_IO;
    }
    *got = size;
    atomic_fetch_add_explicit(&read_aheads, 1, memory_order_relaxed);
    return SIMDSV_OK;
}

size_t simdsv__source_size_hint(const source *s)
{
    if (s->kind != SOURCE_FD)
        return 0;
    struct stat st;
    if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return 0;
    const off_t at = lseek(s->fd, 0, SEEK_CUR); /* reports the position, moves nothing */
    if (at < 0 || at >= st.st_size)
        return 0;
    return (uint64_t)(st.st_size - at) > (uint64_t)SIZE_MAX / 2 ? 0 : (size_t)(st.st_size - at);
}
