/* parquet.h — the Parquet writer (parquet.c), its column chunks
 * (parquet_chunk.c) and the Thrift compact protocol it writes its metadata
 * in (thrift.c). */
#ifndef SIMDSV_PARQUET_H
#define SIMDSV_PARQUET_H

#include "write.h"

simdsv_status simdsv__parquet_write(struct ArrowArrayStream *stream, wsink *sink, const simdsv_write_options *opt);

/* parquet.thrift's numbers. */
enum { PT_BOOLEAN = 0, PT_INT32 = 1, PT_INT64 = 2, PT_DOUBLE = 5, PT_BYTE_ARRAY = 6 };
enum { ENC_PLAIN = 0, ENC_RLE = 3, ENC_DELTA_BINARY_PACKED = 5, ENC_RLE_DICTIONARY = 8 };
enum { PAGE_DATA = 0, PAGE_DICTIONARY = 2 };
enum { CT_UTF8 = 0, CT_DATE = 6, CT_TIMESTAMP_MICROS = 10 };
enum { REP_OPTIONAL = 1 };

/* One page of a column chunk: which rows and values it holds, and once
 * encoded, its header and (compressed) body as they are written. */
typedef struct page {
    size_t r, r_end;      /* rows [r, r_end) of the row group */
    size_t v, v_end;      /* their non-null values [v, v_end) */
    bool dictionary;      /* the dictionary page (a chunk's first page, when it has one) */
    bool ok;              /* encoded (false: out of memory or a compression failure) */
    wbuf bytes;           /* page header + body */
    int64_t uncompressed; /* header + uncompressed body */
} page;

/* One column chunk of a row group: gathered by one worker, then its pages
 * encoded and compressed by any worker (so that one large column spreads
 * over every thread), then written in page order. */
typedef struct chunk {
    /* result */
    page *pages;           /* npages in use; kept (with their buffers) for the next row group */
    size_t npages, pages_cap, pages_ready; /* pages_ready: entries whose buffers are initialised */
    int64_t null_count;
    bool dictionary;
    bool delta;            /* no dictionary, int64 values: DELTA_BINARY_PACKED, not PLAIN */
    bool has_minmax;
    wbuf min, max;         /* PLAIN encodings of the statistics */
    simdsv_status status;  /* of the gather: SIMDSV_OK, or out of memory */
    int index_width;       /* dictionary indexes: bits each */
    /* scratch */
    uint8_t *levels;       /* definition level of each row */
    size_t levels_cap;
    wbuf plain;            /* PLAIN values of the non-null rows (bools one byte each) */
    size_t *starts;        /* strings: where each value starts in plain (count + 1) */
    size_t starts_cap;
    uint32_t *indexes;     /* dictionary index of each non-null value */
    size_t indexes_cap;
    uint64_t *slots;       /* hash table: entry + 1 and the hash's high half (0 = empty) */
    size_t slots_cap;
    uint64_t *dict_fixed;  /* fixed-width entries */
    size_t dict_fixed_cap;
    wbuf dict_plain;       /* the dictionary page's PLAIN values (strings: built as they come) */
    size_t *dict_starts;   /* strings: entry starts in dict_plain */
    size_t dict_starts_cap;
    size_t dict_count;
} chunk;

/* What a worker reuses from page to page: one page's body uncompressed and
 * compressed, and the codec's state. */
typedef struct page_scratch {
    wbuf body, packed;
    void *codec_state;
} page_scratch;

/* Gathers column `index` (col) of the row group made of the slices (`rows`
 * rows) into c: levels, values, dictionary, statistics, and the plan of its
 * pages (c->pages, not yet encoded).  c->status says whether it worked; c's
 * scratch is kept for the next row group. */
void simdsv__parquet_gather_chunk(chunk *c, const wcolumn *col, size_t index, const wslice *slices, size_t nslices,
                                  int64_t rows, const simdsv_write_options *opt);
/* Encodes page p of a gathered chunk into c->pages[p].bytes (sets its ok).
 * Pages of one chunk may be encoded at once by different threads, each with
 * its own scratch. */
void simdsv__parquet_encode_page(chunk *c, const wcolumn *col, size_t p, const simdsv_write_options *opt,
                                 page_scratch *s);
void simdsv__parquet_chunk_free(chunk *c);
void simdsv__parquet_scratch_free(page_scratch *s);

/* Thrift compact protocol: a struct is begun, fields are written in
 * increasing id order (the header stores the id as a delta from the last
 * one), and ended; structs nest up to 8 deep. */
typedef struct thrift {
    wbuf *out;
    int16_t last[8];
    int depth;
} thrift;

enum {
    T_BOOL_TRUE = 1,
    T_BOOL_FALSE = 2,
    T_I32 = 5,
    T_I64 = 6,
    T_BINARY = 8,
    T_LIST = 9,
    T_STRUCT = 12
};

void thrift_begin(thrift *t);       /* a struct (the outermost one or a field's / list element's) */
void thrift_end(thrift *t);         /* its stop byte */
void thrift_field(thrift *t, int16_t id, int type);
void thrift_i32(thrift *t, int16_t id, int32_t v);
void thrift_i64(thrift *t, int16_t id, int64_t v);
void thrift_bool(thrift *t, int16_t id, bool v);
void thrift_binary(thrift *t, int16_t id, const void *data, size_t size);
void thrift_string(thrift *t, int16_t id, const char *s);
/* A list field of n elements of type elem (the elements follow: i32 as
 * thrift_list_i32, structs begun and ended, binaries as thrift_list_binary). */
void thrift_list(thrift *t, int16_t id, int elem, size_t n);
void thrift_list_i32(thrift *t, int32_t v);
void thrift_list_binary(thrift *t, const void *data, size_t size);
/* A struct field: thrift_field(id, T_STRUCT) then thrift_begin. */
void thrift_struct(thrift *t, int16_t id);

#endif
