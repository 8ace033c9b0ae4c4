/*
 * harness.h — the test harness shared by the simdsv tests (header only).
 *
 *   the assertions of check.h (CHECK, CHECK_EQ_U64, ..., h_context()).
 *   harness_kernel()   the kernel named by SIMDSV_KERNEL (ctest runs a test
 *                      once per kernel); exits 77 ("skipped") when the CPU or
 *                      the build lacks it.
 *
 * Readers: h_read() runs a reader over an input given as a memory buffer, a
 * callback source returning the input in chunks of chosen sizes, a temporary
 * file (read() or mmap), a FILE* or a pipe fed by a child process, and
 * collects what simdsv_reader_next yields — decoded fields (through
 * simdsv_reader_unescape), flags, record index and offset, and each error with
 * its full position — into an h_result.  Streaming sources use a 4 KiB buffer
 * (SIMDSV_OPT_BUFFER_SIZE) so that records straddle refills.
 *
 * Expectations are written in a relaxed JSON (see h_json_parse): an array of
 * items, each a record ["a", "b"], a record with details
 * {"fields": [...], "flags": [...], "index": N, "offset": N}, a header
 * {"header": [...]}, an error {"error": "QUOTE_IN_UNQUOTED_FIELD", "byte": N,
 * "line": N, "column": N, "record": N, "field": N} (any subset of the
 * positions, or all as "at": [byte, line, column, record, field]), or last
 * {"end": "NAME"} when reading must stop with a status other than SIMDSV_END.
 *
 * Everything is static: each test is one translation unit.
 */
#ifndef SIMDSV_TEST_HARNESS_H
#define SIMDSV_TEST_HARNESS_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "simdsv.h"

/* The assertions (CHECK, CHECK_EQ_U64, ...) are check.h's. */
#include "check.h"

/* The kernel this run is for (SIMDSV_KERNEL); exits 77 if unsupported. */
static inline simdsv_kernel harness_kernel(void)
{
    const char *env = getenv("SIMDSV_KERNEL");
    if (!env || !*env || strcmp(env, "auto") == 0)
        return SIMDSV_KERNEL_AUTO;
    const int k = simdsv_kernel_from_name(env);
    if (k < 0) {
        fprintf(stderr, "SIMDSV_KERNEL=%s names no kernel\n", env);
        exit(1);
    }
    if (!simdsv_kernel_supported((simdsv_kernel)k)) {
        printf("kernel %s is not supported by this CPU or build: skipped\n", env);
        exit(77);
    }
    return (simdsv_kernel)k;
}


static inline void *h_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "test: out of memory\n");
        exit(2);
    }
    return p;
}

static inline void *h_xrealloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p) {
        fprintf(stderr, "test: out of memory\n");
        exit(2);
    }
    return p;
}

/* Calls fn on every .csv file under dir (recursively), read whole. */
static inline void h_for_each_csv(const char *dir, void (*fn)(const char *name, const unsigned char *data, size_t size))
{
    DIR *d = opendir(dir);
    if (!d) {
        FAIL_MSG("cannot open %s", dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        struct stat st;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path || stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            h_for_each_csv(path, fn);
            continue;
        }
        const size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".csv") != 0)
            continue;
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        unsigned char *data = h_xmalloc((size_t)st.st_size + 1);
        const size_t got = fread(data, 1, (size_t)st.st_size, f);
        fclose(f);
        fn(path, data, got);
        free(data);
    }
    closedir(d);
}

/* xorshift64: the tests' repeatable random numbers (state never 0). */
static inline uint64_t h_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Calls fn on n random inputs of up to about 500 bytes, each a run of
 * atoms[0..natoms) picked at random: every structural byte, often. */
static inline void h_random_inputs(int n, const char *const *atoms, size_t natoms, uint64_t *state,
                                   void (*fn)(const char *name, const unsigned char *data, size_t size))
{
    unsigned char buf[600];
    for (int t = 0; t < n; t++) {
        size_t len = 0;
        const size_t target = (size_t)(h_random(state) % 500);
        while (len < target) {
            const char *a = atoms[h_random(state) % natoms];
            const size_t k = strlen(a);
            memcpy(buf + len, a, k);
            len += k;
        }
        char name[64];
        snprintf(name, sizeof name, "random input %d", t);
        fn(name, buf, len);
    }
}

/* ------------------------------------------------------------------ results */

typedef struct h_error {
    simdsv_status code;
    uint64_t byte_offset, line, column, record, field;
} h_error;

typedef enum h_kind { H_RECORD, H_HEADER, H_ERROR } h_kind;

typedef struct h_item {
    h_kind kind;
    h_error err;              /* H_ERROR */
    size_t first_field, nfields;
    uint64_t index, byte_offset; /* H_RECORD */
} h_item;

typedef struct h_field {
    size_t off, size;         /* decoded bytes in h_result.bytes */
    unsigned flags;
} h_field;

typedef struct h_result {
    h_item *items;
    size_t nitems, items_cap;
    h_field *fields;
    size_t nfields, fields_cap;
    char *bytes;
    size_t nbytes, bytes_cap;
    simdsv_status end;        /* SIMDSV_END, or the status that stopped reading */
    h_error end_error;        /* the reader's error when end is not SIMDSV_END */
    size_t errors;            /* number of H_ERROR items */
} h_result;

static inline void h_result_reset(h_result *r)
{
    r->nitems = r->nfields = r->nbytes = 0;
    r->end = SIMDSV_END;
    memset(&r->end_error, 0, sizeof r->end_error);
    r->errors = 0;
}

static inline void h_result_init(h_result *r)
{
    memset(r, 0, sizeof *r);
    h_result_reset(r);
}

static inline void h_result_free(h_result *r)
{
    free(r->items);
    free(r->fields);
    free(r->bytes);
    h_result_init(r);
}

static inline h_item *h_result_add_item(h_result *r, h_kind kind)
{
    if (!r->bytes) { /* never NULL once an item exists: views into it are compared */
        r->bytes_cap = 1024;
        r->bytes = h_xmalloc(r->bytes_cap);
    }
    if (r->nitems == r->items_cap) {
        r->items_cap = r->items_cap ? r->items_cap * 2 : 16;
        r->items = h_xrealloc(r->items, r->items_cap * sizeof *r->items);
    }
    h_item *it = &r->items[r->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->first_field = r->nfields;
    if (kind == H_ERROR)
        r->errors++;
    return it;
}

/* Appends a field to the last item. */
static inline void h_result_add_field(h_result *r, const void *data, size_t size, unsigned flags)
{
    if (r->nfields == r->fields_cap) {
        r->fields_cap = r->fields_cap ? r->fields_cap * 2 : 64;
        r->fields = h_xrealloc(r->fields, r->fields_cap * sizeof *r->fields);
    }
    if (r->bytes_cap - r->nbytes < size) {
        size_t cap = r->bytes_cap ? r->bytes_cap : 1024;
        while (cap - r->nbytes < size)
            cap *= 2;
        r->bytes = h_xrealloc(r->bytes, cap);
        r->bytes_cap = cap;
    }
    if (size)
        memcpy(r->bytes + r->nbytes, data, size);
    h_field *f = &r->fields[r->nfields++];
    f->off = r->nbytes;
    f->size = size;
    f->flags = flags;
    r->nbytes += size;
    r->items[r->nitems - 1].nfields++;
}

static inline h_error h_error_of(const simdsv_error *e)
{
    h_error h;
    h.code = e->code;
    h.byte_offset = e->byte_offset;
    h.line = e->line;
    h.column = e->column;
    h.record = e->record;
    h.field = e->field;
    return h;
}

/* The short name of a status: "QUOTE_IN_UNQUOTED_FIELD", "END", ... */
static inline const char *h_status_short(simdsv_status st)
{
    const char *n = simdsv_status_name(st);
    if (strncmp(n, "SIMDSV_ERR_", 11) == 0)
        return n + 11;
    if (strncmp(n, "SIMDSV_", 7) == 0)
        return n + 7;
    return n;
}

static inline void h_print_error(FILE *f, const h_error *e)
{
    fprintf(f, "{\"error\": \"%s\", \"byte\": %llu, \"line\": %llu, \"column\": %llu, \"record\": %llu, \"field\": %llu}",
            h_status_short(e->code), (unsigned long long)e->byte_offset, (unsigned long long)e->line,
            (unsigned long long)e->column, (unsigned long long)e->record, (unsigned long long)e->field);
}

static inline void h_print_item(FILE *f, const h_result *r, const h_item *it)
{
    if (it->kind == H_ERROR) {
        h_print_error(f, &it->err);
        return;
    }
    int any_flags = 0;
    for (size_t i = 0; i < it->nfields; i++)
        any_flags |= r->fields[it->first_field + i].flags != 0;
    fputs(it->kind == H_HEADER ? "{\"header\": [" : "[", f);
    for (size_t i = 0; i < it->nfields; i++) {
        const h_field *fl = &r->fields[it->first_field + i];
        if (i)
            fputs(", ", f);
        h_print_bytes(f, r->bytes + fl->off, fl->size);
    }
    fputc(']', f);
    if (any_flags) {
        fputs(it->kind == H_HEADER ? ", \"flags\": [" : " /* flags", f);
        for (size_t i = 0; i < it->nfields; i++)
            fprintf(f, "%s%u", i ? ", " : " ", r->fields[it->first_field + i].flags);
        fputs(it->kind == H_HEADER ? "]" : " */", f);
    }
    if (it->kind == H_HEADER)
        fputc('}', f);
}

static inline void h_result_print(FILE *f, const h_result *r, const char *indent)
{
    fprintf(f, "%s[", indent);
    for (size_t i = 0; i < r->nitems; i++) {
        fprintf(f, "%s\n%s  ", i ? "," : "", indent);
        h_print_item(f, r, &r->items[i]);
    }
    if (r->end != SIMDSV_END) {
        fprintf(f, "%s\n%s  {\"end\": \"%s\"}", r->nitems ? "," : "", indent, h_status_short(r->end));
    }
    fprintf(f, "\n%s]\n", indent);
}

/* What h_result_equal compares. */
#define H_CMP_FLAGS_ALL 0xffffffffu
#define H_CMP_NO_UNESCAPE_FLAG (~SIMDSV_FIELD_NEEDS_UNESCAPE)

static inline int h_error_equal(const h_error *a, const h_error *b)
{
    return a->code == b->code && a->byte_offset == b->byte_offset && a->line == b->line && a->column == b->column &&
           a->record == b->record && a->field == b->field;
}

/* 1 if both results hold the same items; otherwise 0 and *why names the
 * first difference.  flag_mask selects the field flags compared. */
static inline int h_result_equal(const h_result *a, const h_result *b, unsigned flag_mask, char *why, size_t why_size)
{
    const size_t n = a->nitems < b->nitems ? a->nitems : b->nitems;
    for (size_t i = 0; i < n; i++) {
        const h_item *x = &a->items[i], *y = &b->items[i];
        if (x->kind != y->kind) {
            snprintf(why, why_size, "item %zu: kind %d vs %d", i, (int)x->kind, (int)y->kind);
            return 0;
        }
        if (x->kind == H_ERROR) {
            if (!h_error_equal(&x->err, &y->err)) {
                snprintf(why, why_size, "item %zu: different errors", i);
                return 0;
            }
            continue;
        }
        if (x->kind == H_RECORD && (x->index != y->index || x->byte_offset != y->byte_offset)) {
            snprintf(why, why_size, "item %zu: index/offset %llu/%llu vs %llu/%llu", i, (unsigned long long)x->index,
                     (unsigned long long)x->byte_offset, (unsigned long long)y->index,
                     (unsigned long long)y->byte_offset);
            return 0;
        }
        if (x->nfields != y->nfields) {
            snprintf(why, why_size, "item %zu: %zu vs %zu fields", i, x->nfields, y->nfields);
            return 0;
        }
        for (size_t k = 0; k < x->nfields; k++) {
            const h_field *f = &a->fields[x->first_field + k], *g = &b->fields[y->first_field + k];
            if (f->size != g->size || memcmp(a->bytes + f->off, b->bytes + g->off, f->size) != 0) {
                snprintf(why, why_size, "item %zu field %zu: different bytes", i, k);
                return 0;
            }
            if ((f->flags & flag_mask) != (g->flags & flag_mask)) {
                snprintf(why, why_size, "item %zu field %zu: flags %u vs %u", i, k, f->flags & flag_mask,
                         g->flags & flag_mask);
                return 0;
            }
        }
    }
    if (a->nitems != b->nitems) {
        snprintf(why, why_size, "%zu vs %zu items", a->nitems, b->nitems);
        return 0;
    }
    if (a->end != b->end) {
        snprintf(why, why_size, "reading ended with %s vs %s", h_status_short(a->end), h_status_short(b->end));
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ sources */

typedef enum h_source {
    H_MEMORY,     /* simdsv_reader_open_memory */
    H_CHUNKS,     /* callback returning the input in chunks (h_read.chunks) */
    H_FILE,       /* temporary file, open_path with SIMDSV_OPT_MMAP=0 (read()) */
    H_FILE_MMAP,  /* temporary file, open_path with SIMDSV_OPT_MMAP=1 */
    H_STDIO,      /* temporary file, open_stdio */
    H_PIPE        /* a pipe fed by a child process, open_fd */
} h_source;

typedef struct h_read {
    h_source source;
    /* H_CHUNKS: no read crosses a chunk boundary.  chunks[0..nchunks) are the
     * first chunk sizes (each >= 1); after them the chunks repeat when
     * `cycle`, else the rest of the input comes as fast as asked. */
    const size_t *chunks;
    size_t nchunks;
    int cycle;
    /* H_CHUNKS: the callback fails (-1, EIO) once this many bytes were
     * delivered; 0 = never. */
    size_t fail_at;
    size_t buffer_size;   /* streaming sources; 0 = 4096 */
    simdsv_kernel kernel; /* AUTO = leave SIMDSV_OPT_KERNEL as set */
    size_t max_errors;    /* stop after this many data errors; 0 = never */
    int no_header_call;   /* do not call simdsv_reader_header first */
} h_read;

typedef struct h_chunk_source {
    const unsigned char *data;
    size_t size, pos;
    const h_read *how;
    size_t chunk_i, chunk_left;
    int calls_after_end;
} h_chunk_source;

static inline long long h_chunk_read(void *ctx, void *buf, size_t size, int *os_errno)
{
    h_chunk_source *s = ctx;
    if (s->pos >= s->size) {
        s->calls_after_end++;
        return 0;
    }
    if (s->how->fail_at && s->pos >= s->how->fail_at) {
        *os_errno = EIO;
        return -1;
    }
    size_t n = s->size - s->pos;
    if (s->chunk_left == 0) {
        const h_read *h = s->how;
        if (s->chunk_i < h->nchunks)
            s->chunk_left = h->chunks[s->chunk_i++];
        else if (h->cycle && h->nchunks)
            s->chunk_left = h->chunks[s->chunk_i++ % h->nchunks];
        else
            s->chunk_left = SIZE_MAX;
        if (s->chunk_left == 0)
            s->chunk_left = 1;
    }
    if (n > s->chunk_left)
        n = s->chunk_left;
    if (n > size)
        n = size;
    if (s->how->fail_at && n > s->how->fail_at - s->pos)
        n = s->how->fail_at - s->pos;
    memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    if (s->chunk_left != SIZE_MAX)
        s->chunk_left -= n;
    return (long long)n;
}

/* Writes data to a new temporary file; returns its path (free it) or NULL. */
static inline char *h_temp_file(const void *data, size_t size)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    const size_t n = strlen(dir) + 32;
    char *path = h_xmalloc(n);
    snprintf(path, n, "%s/simdsv-test-XXXXXX", dir);
    const int fd = mkstemp(path);
    if (fd < 0) {
        free(path);
        return NULL;
    }
    const unsigned char *p = data;
    size_t left = size;
    while (left) {
        const ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            unlink(path);
            free(path);
            return NULL;
        }
        p += w;
        left -= (size_t)w;
    }
    close(fd);
    return path;
}

/* A pipe whose write end is fed by a child process. Returns the read end or -1. */
static inline int h_pipe_feed(const void *data, size_t size, pid_t *child)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        const unsigned char *p = data;
        size_t left = size;
        while (left) {
            /* Odd write sizes, so that reads see partial blocks. */
            size_t n = left < 1000 ? left : 1000;
            const ssize_t w = write(fds[1], p, n);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                _exit(1);
            p += w;
            left -= (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    *child = pid;
    return fds[0];
}

static inline int h_is_data_error(simdsv_status st)
{
    return st == SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD || st == SIMDSV_ERR_TEXT_AFTER_QUOTE ||
           st == SIMDSV_ERR_UNTERMINATED_QUOTE || st == SIMDSV_ERR_INVALID_UTF8 ||
           st == SIMDSV_ERR_RECORD_TOO_LARGE || st == SIMDSV_ERR_TOO_MANY_FIELDS;
}

/* An opened reader plus what must be undone afterwards. */
typedef struct h_session {
    simdsv_reader *reader;
    h_chunk_source chunk;
    char *path;
    FILE *file;
    int fd;
    pid_t child;
    simdsv_status status; /* of reader creation / opening */
} h_session;

/* Creates a reader for `how` (options adjusted for the duration of the call
 * and restored) and opens the source. */
static inline void h_session_open(h_session *s, simdsv_options *opt, const void *data, size_t size, const h_read *how)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    int64_t old_buffer = 0, old_mmap = 0, old_kernel = 0;
    simdsv_options_get(opt, SIMDSV_OPT_BUFFER_SIZE, &old_buffer);
    simdsv_options_get(opt, SIMDSV_OPT_MMAP, &old_mmap);
    simdsv_options_get(opt, SIMDSV_OPT_KERNEL, &old_kernel);
    simdsv_options_set(opt, SIMDSV_OPT_BUFFER_SIZE, how->buffer_size ? (int64_t)how->buffer_size : 4096);
    if (how->source == H_FILE || how->source == H_FILE_MMAP)
        simdsv_options_set(opt, SIMDSV_OPT_MMAP, how->source == H_FILE_MMAP);
    if (how->kernel != SIMDSV_KERNEL_AUTO)
        simdsv_options_set(opt, SIMDSV_OPT_KERNEL, how->kernel);
    s->status = simdsv_reader_new(&s->reader, opt);
    simdsv_options_set(opt, SIMDSV_OPT_BUFFER_SIZE, old_buffer);
    simdsv_options_set(opt, SIMDSV_OPT_MMAP, old_mmap);
    simdsv_options_set(opt, SIMDSV_OPT_KERNEL, old_kernel);
    if (s->status != SIMDSV_OK) {
        s->reader = NULL;
        return;
    }
    switch (how->source) {
    case H_MEMORY:
        s->status = simdsv_reader_open_memory(s->reader, data, size);
        break;
    case H_CHUNKS:
        s->chunk.data = data;
        s->chunk.size = size;
        s->chunk.how = how;
        s->status = simdsv_reader_open_callback(s->reader, h_chunk_read, &s->chunk);
        break;
    case H_FILE:
    case H_FILE_MMAP:
    case H_STDIO:
        s->path = h_temp_file(data, size);
        if (!s->path) {
            s->status = SIMDSV_ERR_IO;
            break;
        }
        if (how->source == H_STDIO) {
            s->file = fopen(s->path, "rb");
            s->status = s->file ? simdsv_reader_open_stdio(s->reader, s->file) : SIMDSV_ERR_IO;
        } else {
            s->status = simdsv_reader_open_path(s->reader, s->path);
        }
        break;
    case H_PIPE:
        s->fd = h_pipe_feed(data, size, &s->child);
        s->status = s->fd >= 0 ? simdsv_reader_open_fd(s->reader, s->fd) : SIMDSV_ERR_IO;
        break;
    }
}

static inline void h_session_close(h_session *s)
{
    simdsv_reader_free(s->reader);
    s->reader = NULL;
    if (s->file)
        fclose(s->file);
    if (s->fd >= 0)
        close(s->fd);
    if (s->child > 0) {
        int wstatus;
        while (waitpid(s->child, &wstatus, 0) < 0 && errno == EINTR) {
        }
    }
    if (s->path) {
        unlink(s->path);
        free(s->path);
    }
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

/* Records a record; checks the contracts of every field on the way. */
static inline void h_collect_record(h_result *out, simdsv_reader *r, const simdsv_record *rec, h_kind kind)
{
    h_item *it = h_result_add_item(out, kind);
    if (kind == H_RECORD) {
        it->index = rec->index;
        it->byte_offset = rec->byte_offset;
    }
    if (rec->field_count == 0)
        FAIL_MSG("a record without fields (index %llu)", (unsigned long long)rec->index);
    for (size_t i = 0; i < rec->field_count; i++) {
        const simdsv_field *f = &rec->fields[i];
        const char *data = NULL;
        size_t size = 0;
        if (kind == H_HEADER) {
            /* Header fields are decoded copies. */
            if (f->flags & SIMDSV_FIELD_NEEDS_UNESCAPE)
                FAIL_MSG("header field %zu still needs unescaping", i);
            h_result_add_field(out, f->data, f->size, f->flags);
            continue;
        }
        const simdsv_status st = simdsv_reader_unescape(r, f, &data, &size);
        if (st != SIMDSV_OK) {
            FAIL_MSG("simdsv_reader_unescape(field %zu) = %s", i, simdsv_status_name(st));
            data = f->data;
            size = f->size;
        } else if (!(f->flags & SIMDSV_FIELD_NEEDS_UNESCAPE) && (data != f->data || size != f->size)) {
            FAIL_MSG("simdsv_reader_unescape changed field %zu without SIMDSV_FIELD_NEEDS_UNESCAPE", i);
        } else if ((f->flags & SIMDSV_FIELD_NEEDS_UNESCAPE) && !(f->flags & SIMDSV_FIELD_QUOTED)) {
            FAIL_MSG("field %zu needs unescaping but is not quoted", i);
        }
        h_result_add_field(out, data, size, f->flags);
    }
}

/* Resets *out and opens a session to read into it; on failure records how
 * opening ended in *out, closes the session and returns 0. */
static inline int h_open_for_read(h_result *out, h_session *s, simdsv_options *opt, const void *data, size_t size,
                                  const h_read *how)
{
    h_result_reset(out);
    h_session_open(s, opt, data, size, how);
    if (s->status == SIMDSV_OK)
        return 1;
    out->end = s->status;
    if (s->reader)
        out->end_error = h_error_of(simdsv_reader_error(s->reader));
    h_session_close(s);
    return 0;
}

/* Reads everything (see h_read) into *out (reset first). */
static inline void h_read_into(h_result *out, simdsv_options *opt, const void *data, size_t size, const h_read *how)
{
    h_session s;
    if (!h_open_for_read(out, &s, opt, data, size, how))
        return;
    simdsv_reader *r = s.reader;
    simdsv_record rec;
    simdsv_status st = SIMDSV_OK;
    int64_t header = 0;
    simdsv_options_get(opt, SIMDSV_OPT_HEADER, &header);
    h_error last = {SIMDSV_OK, 0, 0, 0, 0, 0};
    int in_header = header && !how->no_header_call;
    for (size_t guard = 0;; guard++) {
        st = in_header ? simdsv_reader_header(r, &rec) : simdsv_reader_next(r, &rec);
        if (st == SIMDSV_OK) {
            h_collect_record(out, r, &rec, in_header ? H_HEADER : H_RECORD);
            in_header = 0;
            continue;
        }
        if (st == SIMDSV_END) {
            if (in_header) {
                in_header = 0;
                continue;
            }
            break;
        }
        const h_error e = h_error_of(simdsv_reader_error(r));
        if (e.code != st)
            FAIL_MSG("status %s but simdsv_reader_error says %s", simdsv_status_name(st), simdsv_status_name(e.code));
        if (!h_is_data_error(st) || (out->errors && h_error_equal(&e, &last)) || guard > 50000000) {
            /* final (I/O, memory, a limit that cannot be skipped) or no progress */
            out->end = st;
            out->end_error = e;
            break;
        }
        h_item *it = h_result_add_item(out, H_ERROR);
        it->err = e;
        last = e;
        if (how->max_errors && out->errors >= how->max_errors) {
            out->end = st;
            out->end_error = e;
            break;
        }
    }
    h_session_close(&s);
}

/* simdsv_reader_count over the same kind of source.  Returns its status. */
static inline simdsv_status h_count(simdsv_options *opt, const void *data, size_t size, const h_read *how,
                                    uint64_t *count, h_error *err)
{
    h_session s;
    h_session_open(&s, opt, data, size, how);
    simdsv_status st = s.status;
    *count = 0;
    if (st == SIMDSV_OK)
        st = simdsv_reader_count(s.reader, count);
    if (err)
        *err = s.reader ? h_error_of(simdsv_reader_error(s.reader)) : (h_error){st, 0, 0, 0, 0, 0};
    h_session_close(&s);
    return st;
}

/* Convenience constructors for h_read. */
static inline h_read h_how(h_source source)
{
    h_read h;
    memset(&h, 0, sizeof h);
    h.source = source;
    return h;
}

/* ------------------------------------------------------------------- JSON */

/* A small JSON reader.  Besides standard JSON it accepts (for expectations
 * written inside C strings) single-quoted strings, \xHH (a raw byte) and \0
 * escapes.  \uXXXX escapes, surrogate pairs included, become UTF-8. */
typedef enum h_json_type { HJ_NULL, HJ_BOOL, HJ_NUM, HJ_STR, HJ_ARR, HJ_OBJ } h_json_type;

typedef struct h_json {
    h_json_type type;
    int64_t num;              /* HJ_NUM, HJ_BOOL */
    char *str;                /* HJ_STR (NUL-terminated, may hold NULs) */
    size_t len;
    struct h_json *items;     /* HJ_ARR, HJ_OBJ values */
    char **keys;              /* HJ_OBJ */
    size_t count;
} h_json;

typedef struct h_json_parser {
    const char *p, *end;
    const char *error;
} h_json_parser;

static inline void h_json_free(h_json *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->count; i++) {
        h_json_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

static inline void h_json_ws(h_json_parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static inline int h_hex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static inline long h_json_hex4(h_json_parser *ps)
{
    if (ps->end - ps->p < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        const int d = h_hex(ps->p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    ps->p += 4;
    return v;
}

/* Appends the UTF-8 encoding of cp. */
static inline size_t h_utf8_encode(unsigned long cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static inline int h_json_string(h_json_parser *ps, char **out, size_t *out_len)
{
    const char q = *ps->p++;
    /* Decoding never lengthens by more than the source. */
    char *buf = h_xmalloc((size_t)(ps->end - ps->p) + 1);
    size_t n = 0;
    for (;;) {
        if (ps->p >= ps->end) {
            ps->error = "unterminated string";
            free(buf);
            return 0;
        }
        char c = *ps->p++;
        if (c == q)
            break;
        if (c != '\\') {
            buf[n++] = c;
            continue;
        }
        if (ps->p >= ps->end) {
            ps->error = "bad escape";
            free(buf);
            return 0;
        }
        c = *ps->p++;
        switch (c) {
        case '"': case '\'': case '\\': case '/': buf[n++] = c; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case '0': buf[n++] = '\0'; break;
        case 'x': {
            const int hi = ps->p + 1 < ps->end ? h_hex(ps->p[0]) : -1;
            const int lo = hi >= 0 ? h_hex(ps->p[1]) : -1;
            if (lo < 0) {
                ps->error = "bad \\x escape";
                free(buf);
                return 0;
            }
            ps->p += 2;
            buf[n++] = (char)(hi * 16 + lo);
            break;
        }
        case 'u': {
            long cp = h_json_hex4(ps);
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                long lo = -1;
                if (ps->end - ps->p >= 2 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                    ps->p += 2;
                    lo = h_json_hex4(ps);
                }
                if (lo < 0xDC00 || lo > 0xDFFF) {
                    ps->error = "unpaired surrogate";
                    free(buf);
                    return 0;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                cp = -1;
            }
            if (cp < 0) {
                ps->error = "bad \\u escape";
                free(buf);
                return 0;
            }
            n += h_utf8_encode((unsigned long)cp, buf + n);
            break;
        }
        default:
            ps->error = "unknown escape";
            free(buf);
            return 0;
        }
    }
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return 1;
}

static inline int h_json_value(h_json_parser *ps, h_json *v, int depth)
{
    memset(v, 0, sizeof *v);
    h_json_ws(ps);
    if (ps->p >= ps->end) {
        ps->error = "unexpected end";
        return 0;
    }
    if (depth > 64) {
        ps->error = "too deep";
        return 0;
    }
    const char c = *ps->p;
    if (c == '"' || c == '\'') {
        v->type = HJ_STR;
        return h_json_string(ps, &v->str, &v->len);
    }
    if (c == '[' || c == '{') {
        const int obj = c == '{';
        v->type = obj ? HJ_OBJ : HJ_ARR;
        ps->p++;
        size_t cap = 0;
        h_json_ws(ps);
        if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
            ps->p++;
            return 1;
        }
        for (;;) {
            if (v->count == cap) {
                cap = cap ? cap * 2 : 8;
                v->items = h_xrealloc(v->items, cap * sizeof *v->items);
                if (obj)
                    v->keys = h_xrealloc(v->keys, cap * sizeof *v->keys);
            }
            if (obj) {
                h_json_ws(ps);
                size_t klen;
                if (ps->p >= ps->end || (*ps->p != '"' && *ps->p != '\'')) {
                    ps->error = "expected a key";
                    return 0;
                }
                if (!h_json_string(ps, &v->keys[v->count], &klen))
                    return 0;
                h_json_ws(ps);
                if (ps->p >= ps->end || *ps->p != ':') {
                    free(v->keys[v->count]);
                    ps->error = "expected ':'";
                    return 0;
                }
                ps->p++;
            }
            if (!h_json_value(ps, &v->items[v->count], depth + 1)) {
                if (obj)
                    free(v->keys[v->count]);
                return 0;
            }
            v->count++;
            h_json_ws(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
                ps->p++;
                return 1;
            }
            ps->error = obj ? "expected ',' or '}'" : "expected ',' or ']'";
            return 0;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        int neg = c == '-';
        if (neg)
            ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') {
            ps->error = "bad number";
            return 0;
        }
        int64_t n = 0;
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            n = n * 10 + (*ps->p++ - '0');
        v->type = HJ_NUM;
        v->num = neg ? -n : n;
        return 1;
    }
    static const struct {
        const char *word;
        h_json_type type;
        int value;
    } words[] = {{"true", HJ_BOOL, 1}, {"false", HJ_BOOL, 0}, {"null", HJ_NULL, 0}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        const size_t n = strlen(words[i].word);
        if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, words[i].word, n) == 0) {
            ps->p += n;
            v->type = words[i].type;
            v->num = words[i].value;
            return 1;
        }
    }
    ps->error = "unexpected character";
    return 0;
}

/* Parses text[0..len) into *v.  Returns 1, or 0 with a message in *error. */
static inline int h_json_parse(const char *text, size_t len, h_json *v, const char **error)
{
    h_json_parser ps = {text, text + len, NULL};
    if (!h_json_value(&ps, v, 0)) {
        h_json_free(v);
        *error = ps.error ? ps.error : "invalid JSON";
        return 0;
    }
    h_json_ws(&ps);
    if (ps.p != ps.end) {
        h_json_free(v);
        *error = "trailing characters";
        return 0;
    }
    return 1;
}

/* The value of key in an object, or NULL. */
static inline const h_json *h_json_get(const h_json *obj, const char *key)
{
    if (!obj || obj->type != HJ_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

/* The status whose name (with or without SIMDSV_ERR_ / SIMDSV_) is name; -1 if none. */
static inline int h_status_from_name(const char *name)
{
    for (int st = 0; st < 64; st++) {
        const char *full = simdsv_status_name((simdsv_status)st);
        if (strcmp(full, "SIMDSV_UNKNOWN_STATUS") == 0)
            break;
        if (strcmp(full, name) == 0 || strcmp(h_status_short((simdsv_status)st), name) == 0)
            return st;
    }
    return -1;
}

/* Compares a record item with an expected array of strings. */
static inline int h_match_fields(const h_result *r, const h_item *it, const h_json *fields, const h_json *flags,
                                 char *why, size_t why_size, size_t i)
{
    if (!fields || fields->type != HJ_ARR) {
        snprintf(why, why_size, "item %zu: bad expectation (fields must be an array)", i);
        return 0;
    }
    if (it->nfields != fields->count) {
        snprintf(why, why_size, "item %zu: %zu fields, expected %zu", i, it->nfields, fields->count);
        return 0;
    }
    for (size_t k = 0; k < fields->count; k++) {
        const h_field *f = &r->fields[it->first_field + k];
        const h_json *e = &fields->items[k];
        if (e->type != HJ_STR) {
            snprintf(why, why_size, "item %zu: bad expectation (field %zu is not a string)", i, k);
            return 0;
        }
        if (f->size != e->len || memcmp(r->bytes + f->off, e->str, e->len) != 0) {
            snprintf(why, why_size, "item %zu field %zu: different bytes", i, k);
            return 0;
        }
        if (flags) {
            if (flags->type != HJ_ARR || flags->count != fields->count || flags->items[k].type != HJ_NUM) {
                snprintf(why, why_size, "item %zu: bad expectation (flags)", i);
                return 0;
            }
            if ((int64_t)f->flags != flags->items[k].num) {
                snprintf(why, why_size, "item %zu field %zu: flags %u, expected %lld", i, k, f->flags,
                         (long long)flags->items[k].num);
                return 0;
            }
        }
    }
    return 1;
}

/* 1 if r matches the expectation (see the top of this file). */
static inline int h_result_match(const h_result *r, const h_json *exp, char *why, size_t why_size)
{
    if (exp->type != HJ_ARR) {
        snprintf(why, why_size, "bad expectation (not an array)");
        return 0;
    }
    size_t n = exp->count;
    simdsv_status want_end = SIMDSV_END;
    if (n && h_json_get(&exp->items[n - 1], "end")) {
        const h_json *e = h_json_get(&exp->items[n - 1], "end");
        const int st = e->type == HJ_STR ? h_status_from_name(e->str) : -1;
        if (st < 0) {
            snprintf(why, why_size, "bad expectation (end)");
            return 0;
        }
        want_end = (simdsv_status)st;
        n--;
    }
    for (size_t i = 0; i < n && i < r->nitems; i++) {
        const h_json *e = &exp->items[i];
        const h_item *it = &r->items[i];
        const h_json *err = h_json_get(e, "error");
        const h_json *hdr = h_json_get(e, "header");
        if (err) {
            if (it->kind != H_ERROR) {
                snprintf(why, why_size, "item %zu: a record, expected an error", i);
                return 0;
            }
            const int st = err->type == HJ_STR ? h_status_from_name(err->str) : -1;
            if (st < 0) {
                snprintf(why, why_size, "bad expectation (error name)");
                return 0;
            }
            if ((int)it->err.code != st) {
                snprintf(why, why_size, "item %zu: error %s, expected %s", i, h_status_short(it->err.code),
                         h_status_short((simdsv_status)st));
                return 0;
            }
            static const char *const keys[] = {"byte", "line", "column", "record", "field"};
            const uint64_t got[] = {it->err.byte_offset, it->err.line, it->err.column, it->err.record, it->err.field};
            const h_json *at = h_json_get(e, "at");
            if (at && (at->type != HJ_ARR || at->count != 5)) {
                snprintf(why, why_size, "bad expectation (at)");
                return 0;
            }
            for (size_t k = 0; k < 5; k++) {
                const h_json *v = at ? &at->items[k] : h_json_get(e, keys[k]);
                if (v && (v->type != HJ_NUM || (uint64_t)v->num != got[k])) {
                    snprintf(why, why_size, "item %zu: error %s %llu, expected %lld", i, keys[k],
                             (unsigned long long)got[k], v->type == HJ_NUM ? (long long)v->num : -1LL);
                    return 0;
                }
            }
            continue;
        }
        if (it->kind == H_ERROR) {
            snprintf(why, why_size, "item %zu: an error, expected a %s", i, hdr ? "header" : "record");
            return 0;
        }
        if ((hdr != NULL) != (it->kind == H_HEADER)) {
            snprintf(why, why_size, "item %zu: %s, expected %s", i, it->kind == H_HEADER ? "a header" : "a record",
                     hdr ? "a header" : "a record");
            return 0;
        }
        if (e->type == HJ_ARR) {
            if (!h_match_fields(r, it, e, NULL, why, why_size, i))
                return 0;
            continue;
        }
        const h_json *fields = hdr ? hdr : h_json_get(e, "fields");
        if (!h_match_fields(r, it, fields, h_json_get(e, "flags"), why, why_size, i))
            return 0;
        const h_json *index = h_json_get(e, "index");
        if (index && (index->type != HJ_NUM || (uint64_t)index->num != it->index)) {
            snprintf(why, why_size, "item %zu: index %llu, expected %lld", i, (unsigned long long)it->index,
                     index->type == HJ_NUM ? (long long)index->num : -1LL);
            return 0;
        }
        const h_json *offset = h_json_get(e, "offset");
        if (offset && (offset->type != HJ_NUM || (uint64_t)offset->num != it->byte_offset)) {
            snprintf(why, why_size, "item %zu: offset %llu, expected %lld", i, (unsigned long long)it->byte_offset,
                     offset->type == HJ_NUM ? (long long)offset->num : -1LL);
            return 0;
        }
    }
    if (r->nitems != n) {
        snprintf(why, why_size, "%zu items, expected %zu", r->nitems, n);
        return 0;
    }
    if (r->end != want_end) {
        snprintf(why, why_size, "reading ended with %s, expected %s", h_status_short(r->end), h_status_short(want_end));
        return 0;
    }
    return 1;
}

/* --------------------------------------------------------- mode sweeps */

/* Reading modes for h_expect_modes. */
#define H_ONESHOT 1u   /* memory */
#define H_SPLITS 2u    /* callback: first k bytes, then the rest, for every k */
#define H_BYTES 4u     /* callback: one byte per read */
#define H_FILES 8u     /* temporary file: read() with a 4 KiB buffer, mmap, FILE* */
#define H_PIPES 16u    /* a pipe */
#define H_ALL_MODES 31u

/* Inputs longer than this are split at sampled offsets only, to keep the
 * sweep near linear: every offset in the first and last 512 bytes, next to
 * every multiple of 4096 (the streaming buffer), plus a stride. */
#define H_SPLIT_ALL_LIMIT 8192

static inline int h_split_wanted(size_t k, size_t len)
{
    if (len <= H_SPLIT_ALL_LIMIT || k < 512 || len - k < 512)
        return 1;
    const size_t m = k % 4096;
    if (m < 2 || m > 4094)
        return 1;
    return k % 331 == 0;
}

/* Runs every mode in `modes` and calls check(ctx, mode name, result) for
 * each; stops a sweep after its first failure. */
typedef int (*h_mode_check)(void *ctx, const char *mode, const h_result *got);

static inline void h_sweep(simdsv_options *opt, const void *data, size_t len, unsigned modes, size_t max_errors,
                           h_mode_check check, void *ctx)
{
    h_result got;
    h_result_init(&got);
    h_read how = h_how(H_MEMORY);
    how.max_errors = max_errors;
    char mode[64];
    if (modes & H_ONESHOT) {
        h_read_into(&got, opt, data, len, &how);
        check(ctx, "one-shot", &got);
    }
    if (modes & H_SPLITS) {
        how = h_how(H_CHUNKS);
        how.max_errors = max_errors;
        for (size_t k = 1; k < len; k++) {
            if (!h_split_wanted(k, len))
                continue;
            size_t chunk[1];
            chunk[0] = k;
            how.chunks = chunk;
            how.nchunks = 1;
            h_read_into(&got, opt, data, len, &how);
            snprintf(mode, sizeof mode, "split at %zu", k);
            if (!check(ctx, mode, &got))
                break;
        }
    }
    if (modes & H_BYTES) {
        static const size_t one[1] = {1};
        how = h_how(H_CHUNKS);
        how.max_errors = max_errors;
        how.chunks = one;
        how.nchunks = 1;
        how.cycle = 1;
        h_read_into(&got, opt, data, len, &how);
        check(ctx, "one byte at a time", &got);
    }
    if (modes & H_FILES) {
        static const h_source sources[] = {H_FILE, H_FILE_MMAP, H_STDIO};
        static const char *const names[] = {"file read() 4 KiB buffer", "file mmap", "FILE* 4 KiB buffer"};
        for (size_t i = 0; i < 3; i++) {
            how = h_how(sources[i]);
            how.max_errors = max_errors;
            h_read_into(&got, opt, data, len, &how);
            check(ctx, names[i], &got);
        }
    }
    if (modes & H_PIPES) {
        how = h_how(H_PIPE);
        how.max_errors = max_errors;
        h_read_into(&got, opt, data, len, &how);
        check(ctx, "pipe 4 KiB buffer", &got);
    }
    h_result_free(&got);
}

typedef struct h_expect_ctx {
    const char *name;
    const h_json *exp;
    const char *exp_text;
    const char *file;
    int line;
    int failures;
} h_expect_ctx;

static inline int h_expect_check(void *ctx, const char *mode, const h_result *got)
{
    h_expect_ctx *c = ctx;
    char why[256];
    if (h_result_match(got, c->exp, why, sizeof why)) {
        h_passed++;
        return 1;
    }
    c->failures++;
    if (h_fail(c->file, c->line)) {
        fprintf(stderr, "    case %s, %s: %s\n    expected %s\n    got\n", c->name, mode, why, c->exp_text);
        h_result_print(stderr, got, "      ");
    }
    return 0;
}

/* Checks that reading data (all modes in `modes`, continuing after data
 * errors) gives exactly the items of the expectation `json`. */
static inline int h_expect_at(const char *file, int line, const char *name, simdsv_options *opt, const void *data,
                              size_t len, const char *json, unsigned modes)
{
    h_json exp;
    const char *error = NULL;
    if (!h_json_parse(json, strlen(json), &exp, &error)) {
        if (h_fail(file, line))
            fprintf(stderr, "    case %s: bad expectation JSON (%s): %s\n", name, error, json);
        return 0;
    }
    h_expect_ctx ctx = {name, &exp, json, file, line, 0};
    h_sweep(opt, data, len, modes, 0, h_expect_check, &ctx);
    h_json_free(&exp);
    return ctx.failures == 0;
}

#define H_EXPECT(name, opt, data, len, json, modes) h_expect_at(__FILE__, __LINE__, name, opt, data, len, json, modes)

#endif /* SIMDSV_TEST_HARNESS_H */
