/* source.c — opening and reading inputs (POSIX). */
#define _POSIX_C_SOURCE 200809L
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
            return SIMDSV_OK;
        }
        /* Not mappable (some special file systems): fall back to read(). */
    }
    s->kind = SOURCE_FD;
    s->fd = fd;
    s->owns_fd = 1;
    return SIMDSV_OK;
}

simdsv_status simdsv__source_read(source *s, void *buf, size_t size, size_t *got, int *os_errno)
{
    *got = 0;
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

void simdsv__source_close(source *s)
{
    if (s->kind == SOURCE_MAPPED)
        munmap((void *)(uintptr_t)s->data, s->size);
    if (s->kind == SOURCE_FD && s->owns_fd)
        close(s->fd);
    s->kind = SOURCE_NONE;
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
