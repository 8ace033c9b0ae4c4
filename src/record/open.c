/*
 * open.c — a reader's life: its options checked and its buffers made
 * (simdsv_reader_new), its input opened (memory, path, descriptor, FILE,
 * callback), freed; and the small public queries and UTF-8 helpers that need
 * no reading.  The reading itself is reader.c's.
 */
#include "reader.h"

#include <stdio.h>
#include <string.h>

static bool collide(int a, int b)
{
    return a >= 0 && a == b;
}

simdsv_status simdsv_reader_new(simdsv_reader **out, const simdsv_options *opt)
{
    if (!out)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    struct simdsv_options o;
    if (opt)
        o = *opt;
    else
        simdsv__options_defaults(&o);
    const int d = o.delimiter, q = o.quote, e = o.escape == o.quote ? -1 : o.escape, c = o.comment;
    o.escape = e;
    const int bytes[4] = {d, q, e, c};
    for (int i = 0; i < 4; i++) {
        if (bytes[i] == '\n' || bytes[i] == '\r')
            return SIMDSV_ERR_BAD_DIALECT;
        for (int j = i + 1; j < 4; j++)
            if (collide(bytes[i], bytes[j]))
                return SIMDSV_ERR_BAD_DIALECT;
    }
    /* The later bytes of a longer delimiter: not the quote or the escape
     * (where would a field end?); with trimming, no delimiter of spaces. */
    for (int i = 1; i < o.delimiter_len; i++)
        if (collide(o.delimiter_seq[i], q) || collide(o.delimiter_seq[i], e))
            return SIMDSV_ERR_BAD_DIALECT;
    if (o.trim_spaces && (d == ' ' || q == ' ' || e == ' '))
        return SIMDSV_ERR_BAD_DIALECT;
    const scan_kernel *kernel = NULL;
    simdsv_status st = simdsv__kernel_resolve(o.kernel, &kernel);
    if (st != SIMDSV_OK)
        return st;
    simdsv_reader *r = simdsv__alloc(&o.alloc, sizeof *r);
    if (!r)
        return SIMDSV_ERR_NOMEM;
    memset(r, 0, sizeof *r);
    r->opt = o;
    if (simdsv__options_copy_specs(&r->opt, &o) != SIMDSV_OK) {
        simdsv__free(&o.alloc, r, sizeof *r);
        return SIMDSV_ERR_NOMEM;
    }
    r->kernel = kernel;
    r->flag_columns = r->check_columns = UINT64_MAX;
    r->slow_only = o.delimiter_len > 1 || o.trim_spaces;
    r->dialect.delimiter = (uint8_t)d;
    r->dialect.has_quote = q >= 0;
    r->dialect.quote = (uint8_t)(q >= 0 ? q : 0);
    r->dialect.has_escape = e >= 0;
    r->dialect.escape = (uint8_t)(e >= 0 ? e : 0);
    r->dialect.has_comment = c >= 0;
    r->dialect.comment = (uint8_t)(c >= 0 ? c : 0);
    /* The tail block is padded with a byte that matches nothing structural. */
    uint8_t pad = 0;
    while (pad == d || pad == q || pad == e || pad == c || pad == '\n' || pad == '\r')
        pad++;
    r->dialect.pad_byte = pad;
    r->index = simdsv__alloc(&o.alloc, (SCAN_CHUNK + SCAN_INDEX_SLACK) * sizeof *r->index);
    if (!r->index) {
        simdsv__options_free_specs(&r->opt);
        simdsv__free(&o.alloc, r, sizeof *r);
        return SIMDSV_ERR_NOMEM;
    }
    *out = r;
    return SIMDSV_OK;
}

static simdsv_status begin(simdsv_reader *r)
{
    if (!r)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    if (r->src.kind != SOURCE_NONE)
        return SIMDSV_ERR_INVALID_ARGUMENT; /* a reader is opened once */
    return SIMDSV_OK;
}

static simdsv_status open_whole(simdsv_reader *r)
{
    r->buf = (uint8_t *)(uintptr_t)r->src.data; /* never written: whole-input buffers are read only */
    r->len = r->src.size;
    r->cap = r->src.size;
    r->eof = true;
    return SIMDSV_OK;
}

static simdsv_status open_stream(simdsv_reader *r)
{
    r->cap = r->opt.buffer_size;
    r->buf = simdsv__alloc(&r->opt.alloc, r->cap);
    if (!r->buf) {
        simdsv__source_close(&r->src);
        r->cap = 0;
        return SIMDSV_ERR_NOMEM;
    }
    r->owns_buf = true;
    return SIMDSV_OK;
}

/* The encoding and the end offset decide how a source is held. */
static simdsv_status open_source(simdsv_reader *r)
{
    int stream = 0;
    const simdsv_status st = simdsv__source_setup(&r->src, &r->opt, &stream);
    if (st != SIMDSV_OK) {
        simdsv__source_close(&r->src);
        r->src.kind = SOURCE_NONE;
        return st;
    }
    return stream ? open_stream(r) : open_whole(r);
}

simdsv_status simdsv_reader_open_memory(simdsv_reader *r, const void *data, size_t size)
{
    simdsv_status st = begin(r);
    if (st != SIMDSV_OK)
        return st;
    if (!data && size)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    r->src.kind = SOURCE_MEMORY;
    r->src.data = data ? data : (const void *)"";
    r->src.size = size;
    return open_source(r);
}

simdsv_status simdsv_reader_open_path(simdsv_reader *r, const char *path)
{
    simdsv_status st = begin(r);
    if (st != SIMDSV_OK)
        return st;
    if (!path)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    int os_errno = 0;
    st = simdsv__source_open_path(&r->src, path, r->opt.use_mmap, &os_errno);
    if (st != SIMDSV_OK) {
        memset(&r->err, 0, sizeof r->err);
        r->err.code = st;
        r->err.os_errno = os_errno;
        snprintf(r->err.message, sizeof r->err.message, "cannot open the file: %s",
                 os_errno ? strerror(os_errno) : "not a readable file");
        return st;
    }
    return open_source(r);
}

simdsv_status simdsv_reader_open_fd(simdsv_reader *r, int fd)
{
    simdsv_status st = begin(r);
    if (st != SIMDSV_OK)
        return st;
    if (fd < 0)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    r->src.kind = SOURCE_FD;
    r->src.fd = fd;
    return open_source(r);
}

simdsv_status simdsv_reader_open_stdio(simdsv_reader *r, FILE *file)
{
    simdsv_status st = begin(r);
    if (st != SIMDSV_OK)
        return st;
    if (!file)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    r->src.kind = SOURCE_STDIO;
    r->src.file = file;
    return open_source(r);
}

simdsv_status simdsv_reader_open_callback(simdsv_reader *r, simdsv_read_fn fn, void *ctx)
{
    simdsv_status st = begin(r);
    if (st != SIMDSV_OK)
        return st;
    if (!fn)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    r->src.kind = SOURCE_CALLBACK;
    r->src.fn = fn;
    r->src.ctx = ctx;
    return open_source(r);
}

void simdsv_reader_free(simdsv_reader *r)
{
    if (!r)
        return;
    const simdsv_allocator a = r->opt.alloc;
    simdsv__source_close(&r->src);
    if (r->owns_buf)
        simdsv__free(&a, r->buf, r->cap);
    simdsv__shared_input_release(r->shared);
    simdsv__free(&a, r->index, (SCAN_CHUNK + SCAN_INDEX_SLACK) * sizeof *r->index);
    simdsv__free(&a, r->fields, r->fields_cap * sizeof *r->fields);
    simdsv__free(&a, r->scratch, r->scratch_cap);
    simdsv__free(&a, r->scratch_offsets, r->scratch_offsets_cap * sizeof *r->scratch_offsets);
    simdsv__free(&a, r->unescape_buf, r->unescape_cap);
    simdsv__free(&a, r->header_bytes, r->header_bytes_size);
    simdsv__free(&a, r->header_fields, r->header_count * sizeof *r->header_fields);
    simdsv__free(&a, r->batch_bounds, r->batch_bounds_cap * sizeof *r->batch_bounds);
    simdsv__free(&a, r->batch_flags, r->batch_bounds_cap);
    simdsv__free(&a, r->batch_first, (r->batch_records_cap + 1) * sizeof *r->batch_first);
    simdsv__free(&a, r->batch_offsets, r->batch_records_cap * sizeof *r->batch_offsets);
    simdsv__free(&a, r->batch_spill, r->batch_spill_cap);
    simdsv__options_free_specs(&r->opt);
    simdsv__free(&a, r, sizeof *r);
}

const simdsv_error *simdsv_reader_error(const simdsv_reader *r)
{
    static const simdsv_error no_reader = {SIMDSV_ERR_INVALID_ARGUMENT, 0, 0, 0, 0, 0, 0, "no reader"};
    return r ? &r->err : &no_reader;
}

simdsv_kernel simdsv_reader_kernel(const simdsv_reader *r)
{
    return r ? r->kernel->id : SIMDSV_KERNEL_AUTO;
}

uint64_t simdsv_reader_offset(const simdsv_reader *r)
{
    return r ? r->buf_origin + r->rec_start : 0;
}

void simdsv_reader_read_columns(simdsv_reader *r, uint64_t mask)
{
    if (r)
        r->flag_columns = r->check_columns = mask;
}

void simdsv_reader_check_columns(simdsv_reader *r, uint64_t mask)
{
    if (r)
        r->check_columns = mask;
}

int simdsv_utf8_valid(const void *data, size_t size, size_t *error_offset)
{
    const scan_kernel *k = NULL;
    if (simdsv__kernel_resolve(SIMDSV_KERNEL_AUTO, &k) != SIMDSV_OK)
        k = simdsv__kernel_get(SIMDSV_KERNEL_SCALAR);
    const size_t bad = k->utf8_validate(data, size);
    if (bad == size)
        return 1;
    if (error_offset)
        *error_offset = bad;
    return 0;
}

size_t simdsv_utf8_lossy(const void *src, size_t size, char *dst)
{
    return simdsv__utf8_lossy(src, size, (uint8_t *)dst);
}
