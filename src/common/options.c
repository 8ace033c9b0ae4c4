/* options.c — the option object: numbered ids with a setter, so new options
 * never change the ABI. */
#define _DEFAULT_SOURCE /* madvise */
#include "internal.h"
#include "../source/transcode.h"
#include "spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

/* Big buffers (an input held whole, column values) are written once, page
 * by page, and the page faults cost as much as the parsing of some columns.
 * Where Linux leaves transparent huge pages to madvise (its default), ask
 * for them.  Where it gives them always, the advice adds nothing but the
 * defrag setting's direct compaction for advised memory ("madvise", the
 * default again): a fault then waits for the kernel to compact memory, and
 * on a machine whose memory is fragmented (a full page cache) that doubled
 * the system time of a dataset read (100 files of 10 MB: 1.9 s without the
 * advice, 3.7 s with it).  The advice covers every page the block touches:
 * malloc maps such a block by itself, and advice over part of that mapping
 * would split it, after which realloc can no longer grow it in place
 * (mremap) and copies it instead.  Only the default allocator does this. */
#if defined(__linux__) && defined(MADV_HUGEPAGE)
/* 1 when the system's THP mode is "madvise" (looked up once; 0 for
 * "always", "never" or no such file). */
static int huge_pages_need_advice(void)
{
    static atomic_int known = -1; /* racing first calls look it up twice, alike */
    int v = atomic_load_explicit(&known, memory_order_relaxed);
    if (v >= 0)
        return v;
    char mode[128] = "";
    const int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        const ssize_t n = read(fd, mode, sizeof mode - 1);
        mode[n > 0 ? n : 0] = '\0';
        close(fd);
    }
    v = strstr(mode, "[madvise]") != NULL;
    atomic_store_explicit(&known, v, memory_order_relaxed);
    return v;
}
#endif

static void *want_huge_pages(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p && size >= ((size_t)8 << 20) && huge_pages_need_advice()) {
        const uintptr_t page = 4096;
        const uintptr_t from = (uintptr_t)p & ~(page - 1);
        const uintptr_t to = ((uintptr_t)p + size + page - 1) & ~(page - 1);
        (void)madvise((void *)from, to - from, MADV_HUGEPAGE); /* a hint: failure changes nothing */
    }
#else
    SIMDSV_UNUSED(size);
#endif
    return p;
}

static void *default_alloc(void *ctx, size_t size)
{
    SIMDSV_UNUSED(ctx);
    return want_huge_pages(malloc(size), size);
}

static void *default_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    SIMDSV_UNUSED(ctx);
    SIMDSV_UNUSED(old_size);
    return want_huge_pages(realloc(ptr, new_size), new_size);
}

static void default_free(void *ctx, void *ptr, size_t size)
{
    SIMDSV_UNUSED(ctx);
    SIMDSV_UNUSED(size);
    free(ptr);
}

/* The exception: a buffer that read() fills once with a file held whole
 * (the reader's stream buffer).  There the huge pages cost more than the
 * faults they save: in a virtual machine that hands freed memory back to its
 * host (virtio-balloon free page reporting) a fresh 2 MiB page comes from a
 * block the host has taken back and must fill again, while small pages are
 * mostly had from memory the guest freed lately.  Measured with the typed
 * read of a 200 MB file by read(), after 2 s idle, medians of 6 interleaved
 * runs: 0.96 s of CPU with huge pages, 0.55 s without (2 threads: 0.67,
 * 0.47); in a later run of 8 (the other tenants' memory churn varies)
 * equal, 0.52 and 0.51: never worse.  On bare metal huge pages would save
 * some 50,000 minor faults, about 15 ms.
 * The advice covers the whole block, as above. */
void simdsv__read_buffer_pages(const simdsv_allocator *a, void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_NOHUGEPAGE)
    if (a->alloc != default_alloc || !p || size < ((size_t)8 << 20))
        return;
    const uintptr_t page = 4096;
    const uintptr_t from = (uintptr_t)p & ~(page - 1);
    const uintptr_t to = ((uintptr_t)p + size + page - 1) & ~(page - 1);
    (void)madvise((void *)from, to - from, MADV_NOHUGEPAGE); /* a hint: failure changes nothing */
#else
    SIMDSV_UNUSED(a);
    SIMDSV_UNUSED(p);
    SIMDSV_UNUSED(size);
#endif
}

/* A block's bytes already copied elsewhere, dropped before the block is
 * freed: the pages the copy faults in next are then had from the ones just
 * given back (still backed by the host, see above) rather than from memory
 * the host took back long ago. */
void simdsv__drop_pages(const simdsv_allocator *a, void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
    const uintptr_t page = 4096;
    const uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
    const uintptr_t to = ((uintptr_t)p + size) & ~(page - 1);
    if (a->alloc != default_alloc || !p || to <= from)
        return;
    (void)madvise((void *)from, to - from, MADV_DONTNEED); /* a hint: failure changes nothing */
#else
    SIMDSV_UNUSED(a);
    SIMDSV_UNUSED(p);
    SIMDSV_UNUSED(size);
#endif
}

/* Column buffers (src/table/column.c) are written once, front to back, and
 * handed to the caller.  On this kind of VM (free page reporting, above) a
 * huge page is a gamble: 18 ms per 200 MB when the host still backs the
 * block, 135-435 ms when it took it back, which is most of the time when
 * the read does not follow another big free by a second or so.  Small pages
 * faulted in with one madvise(MADV_POPULATE_WRITE) per range are steady:
 * 176 MB in 60-70 ms against 70-100 ms faulted page by page (a test program,
 * fresh processes, 1 s apart, 4 rounds).  The typed read of the 200 MB mixed
 * and taxi files after a Polars read (the churn of a benchmark or a
 * notebook), 6 rounds each, CPU s medians (min-max): huge pages 0.291
 * (0.143-0.451) and 0.472 (0.179-0.760), small pages 0.217 and 0.376,
 * small pages populated 0.198 (0.192-0.367) and 0.258 (0.246-0.281).
 * The advice covers the whole block, as above. */
void simdsv__column_pages(const simdsv_allocator *a, void *p, size_t size)
{
    simdsv__read_buffer_pages(a, p, size);
}

void simdsv__populate_pages(const simdsv_allocator *a, void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    const uintptr_t page = 4096;
    const uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1);
    const uintptr_t to = ((uintptr_t)p + size) & ~(page - 1);
    /* a few pages fault as cheaply one by one; a kernel without
     * MADV_POPULATE_WRITE (before 5.14) refuses it and they do */
    if (a->alloc != default_alloc || !p || to <= from + 16 * page)
        return;
    (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#else
    SIMDSV_UNUSED(a);
    SIMDSV_UNUSED(p);
    SIMDSV_UNUSED(size);
#endif
}

static void set_delimiter_bytes(struct simdsv_options *opt, const uint8_t *bytes, int len)
{
    opt->delimiter = bytes[0];
    memcpy(opt->delimiter_seq, bytes, (size_t)len);
    opt->delimiter_len = len;
    memcpy(opt->delimiter_text, bytes, (size_t)len);
    opt->delimiter_text[len] = '\0';
}

/* 1 to 4 bytes, none of them a line end (the reader checks the quote and
 * escape against them when it is created). */
static simdsv_status set_delimiter_string(simdsv_options *opt, const char *value)
{
    opt->error[0] = '\0';
    if (!value || !*value) {
        set_delimiter_bytes(opt, (const uint8_t *)",", 1);
        return SIMDSV_OK;
    }
    const size_t n = strlen(value);
    if (n > 4 || strpbrk(value, "\r\n")) {
        snprintf(opt->error, sizeof opt->error, "a delimiter is 1 to 4 bytes, without CR or LF: '%.20s'", value);
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    set_delimiter_bytes(opt, (const uint8_t *)value, (int)n);
    return SIMDSV_OK;
}

void simdsv__options_defaults(struct simdsv_options *opt)
{
    opt->alloc.alloc = default_alloc;
    opt->alloc.realloc = default_realloc;
    opt->alloc.free = default_free;
    opt->alloc.ctx = NULL;
    opt->delimiter = ',';
    set_delimiter_bytes(opt, (const uint8_t *)",", 1);
    opt->trim_spaces = false;
    opt->thousands = -1;
    opt->quote = '"';
    opt->escape = -1;
    opt->comment = -1;
    opt->comment_len = 0;
    opt->comment_text[0] = '\0';
    opt->header = true;
    opt->skip_lines = 0;
    opt->lenient = false;
    opt->utf8 = SIMDSV_UTF8_STRICT;
    opt->kernel = SIMDSV_KERNEL_AUTO;
    opt->buffer_size = (size_t)1 << 20;
    opt->max_record_size = SIMDSV_DEFAULT_MAX_RECORD_SIZE;
    opt->max_fields = SIMDSV_DEFAULT_MAX_FIELDS;
    opt->use_mmap = false; /* a file truncated while mapped raises SIGBUS */
    opt->threads = 0;
    opt->infer_rows = 10000;
    opt->row_limit = 0;
    opt->batch_rows = 8192; /* buffers under glibc's mmap threshold: see simdsv.h */
    opt->on_error = SIMDSV_ON_ERROR_FAIL;
    opt->short_rows = SIMDSV_RAGGED_PAD;
    opt->long_rows = SIMDSV_RAGGED_ERROR;
    opt->decimal_comma = false;
    opt->typed_quotes = true;
    opt->end_offset = 0;
    opt->header_rows = 1;
    opt->date_order = SIMDSV_DATE_ISO;
    opt->encoding[0] = '\0';
    opt->compression = SIMDSV_COMPRESSION_AUTO;
    opt->union_by_name = false;
    opt->schema_partial = false; /* set only on a dataset's copies for its inputs */
    opt->hive = SIMDSV_HIVE_AUTO;
    opt->filename_column[0] = '\0';
    opt->strings = SIMDSV_STRINGS_UTF8;
    memset(opt->specs, 0, sizeof opt->specs);
    opt->error[0] = '\0';
}

simdsv_options *simdsv_options_new(const simdsv_allocator *alloc)
{
    struct simdsv_options defaults;
    simdsv__options_defaults(&defaults);
    if (alloc) {
        if (!alloc->alloc || !alloc->realloc || !alloc->free)
            return NULL;
        defaults.alloc = *alloc;
    }
    simdsv_options *opt = simdsv__alloc(&defaults.alloc, sizeof *opt);
    if (opt)
        *opt = defaults;
    return opt;
}

void simdsv_options_free(simdsv_options *opt)
{
    if (opt) {
        simdsv_allocator a = opt->alloc;
        simdsv__options_free_specs(opt);
        simdsv__free(&a, opt, sizeof *opt);
    }
}

void simdsv__options_free_specs(struct simdsv_options *opt)
{
    for (int i = 0; i < SIMDSV__STRING_OPTIONS; i++)
        simdsv__spec_free(&opt->alloc, &opt->specs[i]);
}

simdsv_status simdsv__options_copy_specs(struct simdsv_options *dst, const struct simdsv_options *src)
{
    /* dst may be a shallow copy of src: forget src's lists first, so that a
     * failure frees only the copies. */
    memset(dst->specs, 0, sizeof dst->specs);
    for (int i = 0; i < SIMDSV__STRING_OPTIONS; i++) {
        if (simdsv__spec_copy(&dst->alloc, &dst->specs[i], &src->specs[i]) != SIMDSV_OK) {
            simdsv__options_free_specs(dst);
            return SIMDSV_ERR_NOMEM;
        }
    }
    return SIMDSV_OK;
}

/* The encoding is a name, kept as given (not a list: no parsing). */
static simdsv_status set_encoding(simdsv_options *opt, const char *value)
{
    opt->error[0] = '\0';
    if (!value || !*value) {
        opt->encoding[0] = '\0';
        return SIMDSV_OK;
    }
    if (strlen(value) >= sizeof opt->encoding || simdsv__encoding_kind(value) < 0) {
        snprintf(opt->error, sizeof opt->error, "unknown encoding '%.100s' (utf-8, utf-16le, utf-16be, latin1, cp1252 "
                                                "or a name iconv knows)", value);
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    memcpy(opt->encoding, value, strlen(value) + 1);
    return SIMDSV_OK;
}

/* The file name column's name: any UTF-8 text up to 255 bytes ("" or NULL:
 * no such column); a column name, so no parsing. */
static simdsv_status set_filename_column(simdsv_options *opt, const char *value)
{
    opt->error[0] = '\0';
    const size_t n = value ? strlen(value) : 0;
    if (n >= sizeof opt->filename_column || !simdsv_utf8_valid(value, n, NULL)) {
        snprintf(opt->error, sizeof opt->error, "a file name column's name is UTF-8 text of at most %zu bytes",
                 sizeof opt->filename_column - 1);
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    if (n)
        memcpy(opt->filename_column, value, n);
    opt->filename_column[n] = '\0';
    return SIMDSV_OK;
}

/* comment_text: the marker NUL-terminated ("" for none). */
static void set_comment_text(simdsv_options *opt)
{
    const size_t n = opt->comment >= 0 ? (size_t)opt->comment_len : 0;
    memcpy(opt->comment_text, opt->comment_seq, n);
    opt->comment_text[n] = '\0';
}

/* The comment marker as 1 to 4 bytes ("//" as a whole: a line starting with
 * one '/' is data); "" or NULL: none. */
static simdsv_status set_comment_string(simdsv_options *opt, const char *value)
{
    opt->error[0] = '\0';
    const size_t n = value ? strlen(value) : 0;
    if (n > 4 || (value && strpbrk(value, "\r\n"))) {
        snprintf(opt->error, sizeof opt->error, "a comment marker is 1 to 4 bytes, without CR or LF: '%.20s'", value);
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    opt->comment = n ? (uint8_t)value[0] : -1;
    opt->comment_len = (int)n;
    if (n)
        memcpy(opt->comment_seq, value, n);
    set_comment_text(opt);
    return SIMDSV_OK;
}

const char *simdsv_options_get_string(const simdsv_options *opt, simdsv_string_option id)
{
    if (opt && id == SIMDSV_OPT_DELIMITER_STRING)
        return opt->delimiter_text;
    if (opt && id == SIMDSV_OPT_COMMENT_STRING)
        return opt->comment_text;
    if (opt && id == SIMDSV_OPT_FILENAME_COLUMN)
        return opt->filename_column;
    return opt && id == SIMDSV_OPT_ENCODING ? opt->encoding : "";
}

simdsv_status simdsv_options_set_string(simdsv_options *opt, simdsv_string_option id, const char *value)
{
    if (opt && id == SIMDSV_OPT_ENCODING)
        return set_encoding(opt, value);
    if (opt && id == SIMDSV_OPT_DELIMITER_STRING)
        return set_delimiter_string(opt, value);
    if (opt && id == SIMDSV_OPT_COMMENT_STRING)
        return set_comment_string(opt, value);
    if (opt && id == SIMDSV_OPT_FILENAME_COLUMN)
        return set_filename_column(opt, value);
    if (!opt || id < SIMDSV_OPT_NULL_VALUES || id >= SIMDSV_OPT_NULL_VALUES + SIMDSV__STRING_OPTIONS)
        return opt ? SIMDSV_ERR_UNKNOWN_OPTION : SIMDSV_ERR_INVALID_ARGUMENT;
    spec_list parsed;
    const simdsv_status st = simdsv__spec_parse(&opt->alloc, id, value, &parsed, opt->error, sizeof opt->error);
    if (st != SIMDSV_OK)
        return st;
    simdsv__spec_free(&opt->alloc, &SIMDSV__SPEC(opt, id));
    SIMDSV__SPEC(opt, id) = parsed;
    return SIMDSV_OK;
}

/* Appends one item to a list option, as a parsed item of its string would be. */
static simdsv_status add_spec_item(simdsv_options *opt, simdsv_string_option id, const char *name, long index,
                                   simdsv_type type)
{
    char text[24];
    if (!name) { /* by index: the selector reads "#N" in messages */
        snprintf(text, sizeof text, "#%ld", index + 1);
        name = text;
    }
    opt->error[0] = '\0';
    return simdsv__spec_add(&opt->alloc, &SIMDSV__SPEC(opt, id), name, strlen(name), index, 0, type);
}

simdsv_status simdsv_options_set_column_type(simdsv_options *opt, const char *name, simdsv_type type)
{
    if (!opt || !name || !*name || !simdsv_type_name(type))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    return add_spec_item(opt, SIMDSV_OPT_SCHEMA, name, -1, type);
}

simdsv_status simdsv_options_set_column_min_type(simdsv_options *opt, const char *name, simdsv_type type)
{
    if (!opt || !name || !*name || !simdsv_type_name(type))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    const simdsv_status st = add_spec_item(opt, SIMDSV_OPT_SCHEMA, name, -1, type);
    if (st == SIMDSV_OK)
        SIMDSV__SPEC(opt, SIMDSV_OPT_SCHEMA).items[SIMDSV__SPEC(opt, SIMDSV_OPT_SCHEMA).count - 1].at_least = true;
    return st;
}

simdsv_status simdsv_options_set_column_type_at(simdsv_options *opt, size_t index, simdsv_type type)
{
    if (!opt || index > 100000000 || !simdsv_type_name(type))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    return add_spec_item(opt, SIMDSV_OPT_SCHEMA, NULL, (long)index, type);
}

simdsv_status simdsv_options_select_column(simdsv_options *opt, const char *name)
{
    if (!opt || !name || !*name)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    return add_spec_item(opt, SIMDSV_OPT_COLUMNS, name, -1, SIMDSV_TYPE_STRING);
}

simdsv_status simdsv_options_select_column_at(simdsv_options *opt, size_t index)
{
    if (!opt || index > 100000000)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    return add_spec_item(opt, SIMDSV_OPT_COLUMNS, NULL, (long)index, SIMDSV_TYPE_STRING);
}

const char *simdsv_options_error(const simdsv_options *opt)
{
    return opt ? opt->error : "no options";
}

static bool is_byte(int64_t v)
{
    return v >= 0 && v <= 255;
}

static bool is_byte_or_none(int64_t v)
{
    return v == -1 || is_byte(v);
}

/* Stores the UTF-8 encoding of code point cp as the comment marker. */
static simdsv_status set_comment_char(simdsv_options *opt, int64_t cp)
{
    if (cp < 0x80)
        return simdsv_options_set(opt, SIMDSV_OPT_COMMENT, cp < 0 ? -1 : cp);
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return SIMDSV_ERR_INVALID_ARGUMENT;
    uint8_t *s = opt->comment_seq;
    if (cp < 0x800) {
        s[0] = (uint8_t)(0xC0 | (cp >> 6));
        s[1] = (uint8_t)(0x80 | (cp & 0x3F));
        opt->comment_len = 2;
    } else if (cp < 0x10000) {
        s[0] = (uint8_t)(0xE0 | (cp >> 12));
        s[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        s[2] = (uint8_t)(0x80 | (cp & 0x3F));
        opt->comment_len = 3;
    } else {
        s[0] = (uint8_t)(0xF0 | (cp >> 18));
        s[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        s[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        s[3] = (uint8_t)(0x80 | (cp & 0x3F));
        opt->comment_len = 4;
    }
    opt->comment = s[0];
    set_comment_text(opt);
    return SIMDSV_OK;
}

simdsv_status simdsv_options_set(simdsv_options *opt, simdsv_option id, int64_t value)
{
    if (!opt)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    switch (id) {
    case SIMDSV_OPT_DELIMITER:
        if (!is_byte(value))
            return SIMDSV_ERR_INVALID_ARGUMENT;
        {
            const uint8_t byte = (uint8_t)value;
            set_delimiter_bytes(opt, &byte, 1);
        }
        return SIMDSV_OK;
    case SIMDSV_OPT_TRIM_SPACES:
        if (value != 0 && value != 1)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->trim_spaces = value;
        return SIMDSV_OK;
    case SIMDSV_OPT_THOUSANDS:
        if (value != -1 && value != ',' && value != '.' && value != ' ' && value != '\'' && value != '_')
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->thousands = (int)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_COMPRESSION:
        if (value < SIMDSV_COMPRESSION_AUTO || value > SIMDSV_COMPRESSION_ZSTD)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->compression = (simdsv_compression)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_UNION_BY_NAME:
        if (value != 0 && value != 1)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->union_by_name = value;
        return SIMDSV_OK;
    case SIMDSV_OPT_HIVE:
        if (value < SIMDSV_HIVE_AUTO || value > SIMDSV_HIVE_OFF)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->hive = (simdsv_hive)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_QUOTE:
    case SIMDSV_OPT_ESCAPE:
        if (!is_byte_or_none(value))
            return SIMDSV_ERR_INVALID_ARGUMENT;
        *(id == SIMDSV_OPT_QUOTE ? &opt->quote : &opt->escape) = (int)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_COMMENT:
        if (!is_byte_or_none(value))
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->comment = (int)value;
        opt->comment_len = value >= 0;
        opt->comment_seq[0] = (uint8_t)value;
        set_comment_text(opt);
        return SIMDSV_OK;
    case SIMDSV_OPT_COMMENT_CHAR:
        return set_comment_char(opt, value);
    case SIMDSV_OPT_THREADS:
        if (value < 0 || value > 1024)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->threads = (int)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_INFER_ROWS:
        if (value < -1 || value == 0)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->infer_rows = value;
        return SIMDSV_OK;
    case SIMDSV_OPT_ROW_LIMIT:
        if (value < 0)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->row_limit = (uint64_t)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_ON_ERROR:
        if (value != SIMDSV_ON_ERROR_FAIL && value != SIMDSV_ON_ERROR_NULL)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->on_error = (simdsv_on_error)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_SHORT_ROWS:
        if (value != SIMDSV_RAGGED_ERROR && value != SIMDSV_RAGGED_PAD)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->short_rows = (simdsv_ragged)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_LONG_ROWS:
        if (value != SIMDSV_RAGGED_ERROR && value != SIMDSV_RAGGED_TRUNCATE)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->long_rows = (simdsv_ragged)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_DECIMAL_COMMA:
        if (value != 0 && value != 1)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->decimal_comma = value;
        return SIMDSV_OK;
    case SIMDSV_OPT_END_OFFSET:
        if (value < 0)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->end_offset = (uint64_t)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_DATE_ORDER:
        if (value < SIMDSV_DATE_ISO || value > SIMDSV_DATE_YMD)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->date_order = (simdsv_date_order)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_HEADER_ROWS:
        if (value < 1 || value > 1000)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->header_rows = (uint64_t)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_TYPED_QUOTES:
        if (value != 0 && value != 1)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->typed_quotes = value;
        return SIMDSV_OK;
    case SIMDSV_OPT_STRINGS:
        if (value != SIMDSV_STRINGS_UTF8 && value != SIMDSV_STRINGS_VIEW)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->strings = (simdsv_strings)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_BATCH_ROWS:
        if (value < 1 || value > INT32_MAX)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->batch_rows = (uint64_t)value;
        return SIMDSV_OK;

    case SIMDSV_OPT_HEADER:
    case SIMDSV_OPT_LENIENT:
    case SIMDSV_OPT_MMAP:
        if (value != 0 && value != 1)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        *(id == SIMDSV_OPT_HEADER ? &opt->header : id == SIMDSV_OPT_LENIENT ? &opt->lenient : &opt->use_mmap) = value;
        return SIMDSV_OK;
    case SIMDSV_OPT_SKIP_LINES:
        if (value < 0)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->skip_lines = (uint64_t)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_UTF8:
        if (value < SIMDSV_UTF8_STRICT || value > SIMDSV_UTF8_NONE)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->utf8 = (simdsv_utf8_mode)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_KERNEL:
        if (value < 0 || value >= SIMDSV_KERNEL_COUNT)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->kernel = (simdsv_kernel)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_BUFFER_SIZE:
        if (value < 4096 || (uint64_t)value > SIZE_MAX / 4)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        opt->buffer_size = (size_t)value;
        return SIMDSV_OK;
    case SIMDSV_OPT_MAX_RECORD_SIZE:
    case SIMDSV_OPT_MAX_FIELDS:
        if (value < 0)
            return SIMDSV_ERR_INVALID_ARGUMENT;
        *(id == SIMDSV_OPT_MAX_RECORD_SIZE ? &opt->max_record_size : &opt->max_fields) = (uint64_t)value;
        return SIMDSV_OK;
    }
    return SIMDSV_ERR_UNKNOWN_OPTION;
}

static int64_t comment_code_point(const simdsv_options *opt)
{
    const uint8_t *s = opt->comment_seq;
    switch (opt->comment_len) {
    case 0: return -1;
    case 1: return s[0];
    case 2: return ((int64_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
    case 3: return ((int64_t)(s[0] & 0x0F) << 12) | ((int64_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    default: return ((int64_t)(s[0] & 0x07) << 18) | ((int64_t)(s[1] & 0x3F) << 12) | ((int64_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
    }
}

simdsv_status simdsv_options_get(const simdsv_options *opt, simdsv_option id, int64_t *value)
{
    if (!opt || !value)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    switch (id) {
    case SIMDSV_OPT_DELIMITER: *value = opt->delimiter; return SIMDSV_OK;
    case SIMDSV_OPT_QUOTE: *value = opt->quote; return SIMDSV_OK;
    case SIMDSV_OPT_ESCAPE: *value = opt->escape; return SIMDSV_OK;
    case SIMDSV_OPT_COMMENT: *value = opt->comment; return SIMDSV_OK;
    case SIMDSV_OPT_HEADER: *value = opt->header; return SIMDSV_OK;
    case SIMDSV_OPT_SKIP_LINES: *value = (int64_t)opt->skip_lines; return SIMDSV_OK;
    case SIMDSV_OPT_LENIENT: *value = opt->lenient; return SIMDSV_OK;
    case SIMDSV_OPT_UTF8: *value = opt->utf8; return SIMDSV_OK;
    case SIMDSV_OPT_KERNEL: *value = opt->kernel; return SIMDSV_OK;
    case SIMDSV_OPT_BUFFER_SIZE: *value = (int64_t)opt->buffer_size; return SIMDSV_OK;
    case SIMDSV_OPT_MAX_RECORD_SIZE: *value = (int64_t)opt->max_record_size; return SIMDSV_OK;
    case SIMDSV_OPT_MAX_FIELDS: *value = (int64_t)opt->max_fields; return SIMDSV_OK;
    case SIMDSV_OPT_MMAP: *value = opt->use_mmap; return SIMDSV_OK;
    case SIMDSV_OPT_COMMENT_CHAR: *value = comment_code_point(opt); return SIMDSV_OK;
    case SIMDSV_OPT_THREADS: *value = opt->threads; return SIMDSV_OK;
    case SIMDSV_OPT_INFER_ROWS: *value = opt->infer_rows; return SIMDSV_OK;
    case SIMDSV_OPT_ROW_LIMIT: *value = (int64_t)opt->row_limit; return SIMDSV_OK;
    case SIMDSV_OPT_BATCH_ROWS: *value = (int64_t)opt->batch_rows; return SIMDSV_OK;
    case SIMDSV_OPT_ON_ERROR: *value = opt->on_error; return SIMDSV_OK;
    case SIMDSV_OPT_SHORT_ROWS: *value = opt->short_rows; return SIMDSV_OK;
    case SIMDSV_OPT_LONG_ROWS: *value = opt->long_rows; return SIMDSV_OK;
    case SIMDSV_OPT_DECIMAL_COMMA: *value = opt->decimal_comma; return SIMDSV_OK;
    case SIMDSV_OPT_TRIM_SPACES: *value = opt->trim_spaces; return SIMDSV_OK;
    case SIMDSV_OPT_THOUSANDS: *value = opt->thousands; return SIMDSV_OK;
    case SIMDSV_OPT_COMPRESSION: *value = opt->compression; return SIMDSV_OK;
    case SIMDSV_OPT_UNION_BY_NAME: *value = opt->union_by_name; return SIMDSV_OK;
    case SIMDSV_OPT_HIVE: *value = opt->hive; return SIMDSV_OK;
    case SIMDSV_OPT_STRINGS: *value = opt->strings; return SIMDSV_OK;
    case SIMDSV_OPT_END_OFFSET: *value = (int64_t)opt->end_offset; return SIMDSV_OK;
    case SIMDSV_OPT_TYPED_QUOTES: *value = opt->typed_quotes; return SIMDSV_OK;
    case SIMDSV_OPT_HEADER_ROWS: *value = (int64_t)opt->header_rows; return SIMDSV_OK;
    case SIMDSV_OPT_DATE_ORDER: *value = opt->date_order; return SIMDSV_OK;
    }
    return SIMDSV_ERR_UNKNOWN_OPTION;
}

simdsv_allocator simdsv__options_allocator(const simdsv_options *opt)
{
    if (opt)
        return opt->alloc;
    struct simdsv_options d;
    simdsv__options_defaults(&d);
    return d.alloc;
}
