/* parquet.h — the Parquet writer (parquet.c) and the Thrift compact
 * protocol it writes its metadata in (thrift.c). */
#ifndef SIMDSV_PARQUET_H
#define SIMDSV_PARQUET_H

#include "write.h"

simdsv_status simdsv__parquet_write(struct ArrowArrayStream *stream, wsink *sink, const simdsv_write_options *opt);

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
