/*
 * source.h — where the bytes come from: a caller's buffer, a mapped file, or
 * a stream (file descriptor, FILE*, callback) read into the reader's buffer.
 * Streams are never seeked, so pipes and sockets work.
 */
#ifndef SIMDSV_SOURCE_H
#define SIMDSV_SOURCE_H

#include "../common/internal.h"

typedef enum source_kind {
    SOURCE_NONE = 0,
    SOURCE_MEMORY,   /* whole input in memory, not owned */
    SOURCE_MAPPED,   /* whole input mapped, unmapped at close */
    SOURCE_FD,       /* read() */
    SOURCE_STDIO,    /* fread() */
    SOURCE_CALLBACK  /* user function */
} source_kind;

typedef struct source {
    source_kind kind;
    int fd;
    int owns_fd;
    FILE *file;
    simdsv_read_fn fn;
    void *ctx;
    const uint8_t *data; /* MEMORY / MAPPED */
    size_t size;
} source;

/* Opens path: a regular file is mapped when use_mmap is set (an empty file is
 * an empty memory source); anything else becomes an FD source. */
simdsv_status simdsv__source_open_path(source *s, const char *path, int use_mmap, int *os_errno);
/* Reads up to size bytes of a stream source; *got == 0 means end of input. */
simdsv_status simdsv__source_read(source *s, void *buf, size_t size, size_t *got, int *os_errno);
void simdsv__source_close(source *s);
/* Bytes a regular file still has to give (0: unknown or not a regular file):
 * lets a reader that holds everything size its buffer once. */
size_t simdsv__source_size_hint(const source *s);

#endif
