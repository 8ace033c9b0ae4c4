/*
 * source.h — where the bytes come from: a caller's buffer, a mapped file, or
 * a stream (file descriptor, FILE*, callback) read into the reader's buffer.
 * Streams are never seeked, so pipes and sockets work.
 */
#ifndef SIMDSV_SOURCE_H
#define SIMDSV_SOURCE_H

#include "../common/internal.h"
#include "transcode.h"

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
    size_t map_size;     /* MAPPED: the length to unmap (0: the reader shared the mapping) */
    size_t released;     /* MAPPED: bytes before this are handed back (simdsv__source_release) */
    /* Set up by simdsv__source_setup from the options: */
    uint64_t left;       /* input bytes still to be read (SIMDSV_OPT_END_OFFSET), UINT64_MAX: no end */
    int limited;         /* an end offset is set */
    int streamed;        /* a MEMORY / MAPPED input read as a stream (it is converted) */
    size_t mem_pos;      /* of a streamed memory input */
    int transcoding;
    transcoder tc;
    const simdsv_allocator *alloc;
    uint8_t *raw;        /* input bytes not converted yet: raw[raw_pos..raw_len) */
    size_t raw_cap, raw_pos, raw_len;
    int raw_eof;
    /* Converted bytes that did not fit the caller's room (under the 8 a
     * conversion needs: the end of a reader's buffer), given first next time. */
    uint8_t spill[8];
    size_t spill_pos, spill_len;
} source;

/* Opens path: a regular file is mapped when use_mmap is set (an empty file is
 * an empty memory source); anything else becomes an FD source. */
simdsv_status simdsv__source_open_path(source *s, const char *path, int use_mmap, int *os_errno);
/* A mapped input read in place: the pages wholly before byte `upto`, which
 * the reader is done with, leave the process's resident memory (they stay in
 * the page cache; touching them again reads them back unchanged), so that
 * reading a big file through the mapping does not grow the RSS by its size.
 * Done once 16 MiB more are behind; nothing for other sources. */
void simdsv__source_release(source *s, size_t upto);
/* The same for the pages wholly inside [from, to), with nothing recorded, so
 * that threads may hand back parts of one mapping at once: the page-table
 * teardown then runs on each of them instead of on one at the unmap.  Nothing
 * for other sources. */
void simdsv__source_release_range(const source *s, size_t from, size_t to);
/* Reads up to size bytes of a stream source; *got == 0 means end of input. */
simdsv_status simdsv__source_read(source *s, void *buf, size_t size, size_t *got, int *os_errno);
void simdsv__source_close(source *s);
/* After opening: applies the encoding (a memory or mapped input in another
 * encoding becomes a stream: the reader then holds converted bytes) and the
 * end offset (a whole input is cut there).  1 if the reader must treat the
 * source as a stream. */
simdsv_status simdsv__source_setup(source *s, const struct simdsv_options *opt, int *stream);
/* 1 when the bytes read are exactly the file's bytes up to its end (no
 * conversion, no end offset): pread() on the descriptor sees the same. */
int simdsv__source_plain(const source *s);
/* Bytes a regular file still has to give (0: unknown or not a regular file):
 * lets a reader that holds everything size its buffer once. */
size_t simdsv__source_size_hint(const source *s);

/* A regular file read as a stream (plain, see above) that is to be held
 * whole: its next size bytes read into buf on up to `threads` threads at
 * once (pread, min_part bytes or more each), so that the copy out of the
 * page cache and the page faults of a fresh buffer are shared among the
 * threads; the file offset then moves past them, as read() would.  *got is
 * size, or 0 when it was not done (another source, one thread, a small rest,
 * the file shrank meanwhile): nothing moved, the caller reads on with
 * simdsv__source_read.  simdsv__source_read_aheads counts the reads done
 * (for the tests). */
simdsv_status simdsv__source_read_ahead(source *s, void *buf, size_t size, int threads, size_t min_part, size_t *got,
                                        int *os_errno);
uint64_t simdsv__source_read_aheads(void);

#endif
