/*
 * input.h — the simdsv_input object (include/simdsv.h) as src/sniff/detect.c
 * sees it: the raw source, its decoder, and the decoded sample kept for the
 * reader.  Only src/source/input.c changes these fields; detect.c reads the
 * kind of source and asks for the sample.
 */
#ifndef SIMDSV_INPUT_H
#define SIMDSV_INPUT_H

#include "../common/internal.h"

struct simdsv_input {
    simdsv_allocator alloc;
    /* The raw source: a descriptor (path or caller's) or a buffer. */
    int fd;                  /* -1 for a buffer */
    int owns_fd;
    int regular;             /* fd is a regular file of `size` bytes */
    uint64_t size;
    char *path;              /* the path it was opened by, or NULL */
    const uint8_t *mem;      /* a buffer: mem[0..mem_size) */
    simdsv_read_fn read_fn;  /* or a callback (fd -1, mem NULL): a stream */
    void *read_ctx;
    size_t mem_size, mem_pos;
    simdsv_compression compression; /* NONE, GZIP or ZSTD */
    uint8_t peek[4];         /* the first raw bytes of a stream, read to tell the compression, served first */
    size_t peek_len, peek_pos;
    uint64_t raw_pos;        /* raw bytes of a regular file read so far (pread keeps the caller's offset) */
    /* Compressed input: raw bytes read and not yet decoded. */
    uint8_t *zbuf;
    size_t zcap, zpos, zlen;
    int zeof;                /* the raw source is at its end */
    int zmid;                /* inside a member / frame (not at a boundary) */
    void *decoder;           /* z_stream* or ZSTD_DStream* */
    /* The decoded sample read by simdsv_input_detect, served first. */
    uint8_t *sample;
    size_t sample_cap, sample_len, sample_pos;
    int sampled;             /* the sample was taken (it may be empty) */
    int sample_whole;        /* it holds the whole input */
    int sample_errno;        /* the sample ended on this read error, given again after its bytes */
    int sample_failed;       /* ... or on a decoding error (error[] says which) */
    int reading;             /* decoded bytes were handed out: no sample can be taken any more */
    int opened;              /* a reader was opened on it */
    /* simdsv_input_keep_ranges: only the decoded bytes in these [from, to)
     * ranges are served (to 0: the end); pos is the decoded offset of the
     * next byte read. */
    uint64_t *keep;
    size_t nkeep, keep_i;
    uint64_t pos;
    void (*on_read)(void *ctx, uint64_t bytes);
    void *on_read_ctx;
    char error[200];
};

/* The first `size` decoded bytes (fewer at the end), kept to be read again:
 * *data and *whole (they are the whole input).  SIMDSV_ERR_IO with
 * *os_errno, or with in->error for a decoding error; NOMEM. */
simdsv_status simdsv__input_sample(simdsv_input *in, size_t size, const uint8_t **data, size_t *got, int *whole,
                                   int *os_errno);
/* An input whose raw bytes come from fn (a stream, never seeked): a
 * dataset's callback input (src/dataset/).  Errors as simdsv_input_open_fd. */
simdsv_status simdsv__input_open_callback(simdsv_input **out, simdsv_read_fn fn, void *ctx,
                                          const simdsv_options *opt, simdsv_error *error);
/* 1 when the input is an uncompressed regular file opened by its path or a
 * plain buffer: read in place, not through the sample. */
int simdsv__input_direct(const simdsv_input *in);

#endif
