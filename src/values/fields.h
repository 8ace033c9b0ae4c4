/*
 * fields.h — the number kernels: runs of one column's fields, straight from
 * the reader's field starts, to int64 or float64 values, one kernel per ISA
 * (fields_<isa>.c) chosen with the scan kernel (SIMDSV_KERNEL).
 *
 * Field i of a run starts at origin + pos[i * stride] and ends before
 * origin + pos[i * stride + 1] - 1, its separator (src/table/table.h,
 * field_run).  A kernel converts fields from the first on and returns how
 * many it took; it stops before the first field it does not take, and the
 * caller's general path (values.h) decides that one: the kernels take only
 * the common shapes, whose result is the general parser's bit for bit.
 * The SIMD kernels take exactly these (the portable ones may take more):
 *  - an empty field: a null, 0 in out, counted in *nulls;
 *  - any other field of at most 16 bytes that starts at least 17 bytes
 *    before origin + readable (one 16-byte load holds it), and is
 *  - int64: [+-]? and digits; with no_leading_zero not "0" followed by
 *    more digits ("00501" is an identifier: the caller decides);
 *  - float64: [+-]? and digits with at most one decimal separator (sep),
 *    at least one digit, and not 16 digits past 2^53 (the caller's
 *    exact-integer rule looks at those);
 *  - date: "YYYY-MM-DD", a valid day (simdsv__date_plain), that starts at
 *    least 17 bytes before origin + readable;
 *  - timestamp: "YYYY-MM-DD HH:MM:SS" ('T' or 't' may stand for the space),
 *    valid (simdsv__timestamp_plain), that starts at least 20 bytes before
 *    origin + readable;
 *  - string (the x86 kernels only): a field that ends at least 16 bytes
 *    before origin + readable, unquoted, or quoted (quote: the dialect's
 *    byte, 256 for none; the text between its quotes decoded as
 *    simdsv_unescape decodes it, escape: the byte or 256 for none); its
 *    bytes are appended to chars + *len (which must have 16 bytes of room
 *    past the run's bytes: whole 16-byte stores) and *len, the end of the
 *    column's bytes, written to ends[i] (int32 offsets).
 */
#ifndef SIMDSV_VALUES_FIELDS_H
#define SIMDSV_VALUES_FIELDS_H

#include "simdsv.h"

#include <stddef.h>
#include <stdint.h>

typedef size_t (*int64_fields_fn)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                  size_t readable, int no_leading_zero, int64_t *out, uint64_t *nulls);
typedef size_t (*float64_fields_fn)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                    size_t readable, unsigned char sep, double *out, uint64_t *nulls);

typedef size_t (*date_fields_fn)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                 size_t readable, int32_t *out, uint64_t *nulls);
typedef size_t (*timestamp_fields_fn)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                      size_t readable, int64_t *out, uint64_t *nulls);

typedef size_t (*string_fields_fn)(const char *origin, const uint32_t *pos, size_t stride, size_t count,
                                   size_t readable, unsigned quote, unsigned escape, char *chars, size_t *len,
                                   int32_t *ends, uint64_t *nulls);

/* A quoted field's text decoded into dst as simdsv_unescape decodes it
 * (quote, escape: the bytes, or 256 for none); reads up to 15 bytes past
 * text + n and writes up to 16 past dst's decoded end.  Returns its length. */
typedef size_t (*unescape_fn)(const char *text, size_t n, unsigned quote, unsigned escape, char *dst);

typedef struct value_kernel {
    int64_fields_fn int64_fields;
    float64_fields_fn float64_fields;
    date_fields_fn date_fields;
    timestamp_fields_fn timestamp_fields;
    string_fields_fn string_fields; /* NULL: the column loop's own (portable) copy */
    unescape_fn unescape;           /* NULL: simdsv_unescape */
} value_kernel;

/* The number kernels that go with scan kernel id (one the reader runs, so
 * one the CPU supports); the portable ones for any other id. */
const value_kernel *simdsv__value_kernel(simdsv_kernel id);

/* Per-ISA entry points. */
size_t simdsv__int64_fields_scalar(const char *, const uint32_t *, size_t, size_t, size_t, int, int64_t *, uint64_t *);
size_t simdsv__float64_fields_scalar(const char *, const uint32_t *, size_t, size_t, size_t, unsigned char, double *,
                                     uint64_t *);
size_t simdsv__int64_fields_sse42(const char *, const uint32_t *, size_t, size_t, size_t, int, int64_t *, uint64_t *);
size_t simdsv__float64_fields_sse42(const char *, const uint32_t *, size_t, size_t, size_t, unsigned char, double *,
                                    uint64_t *);
size_t simdsv__int64_fields_avx2(const char *, const uint32_t *, size_t, size_t, size_t, int, int64_t *, uint64_t *);
size_t simdsv__float64_fields_avx2(const char *, const uint32_t *, size_t, size_t, size_t, unsigned char, double *,
                                   uint64_t *);
size_t simdsv__int64_fields_avx512(const char *, const uint32_t *, size_t, size_t, size_t, int, int64_t *,
                                   uint64_t *);
size_t simdsv__float64_fields_avx512(const char *, const uint32_t *, size_t, size_t, size_t, unsigned char, double *,
                                     uint64_t *);

size_t simdsv__date_fields_scalar(const char *, const uint32_t *, size_t, size_t, size_t, int32_t *, uint64_t *);
size_t simdsv__timestamp_fields_scalar(const char *, const uint32_t *, size_t, size_t, size_t, int64_t *, uint64_t *);
size_t simdsv__date_fields_sse42(const char *, const uint32_t *, size_t, size_t, size_t, int32_t *, uint64_t *);
size_t simdsv__timestamp_fields_sse42(const char *, const uint32_t *, size_t, size_t, size_t, int64_t *, uint64_t *);
size_t simdsv__date_fields_avx2(const char *, const uint32_t *, size_t, size_t, size_t, int32_t *, uint64_t *);
size_t simdsv__timestamp_fields_avx2(const char *, const uint32_t *, size_t, size_t, size_t, int64_t *, uint64_t *);
size_t simdsv__date_fields_avx512(const char *, const uint32_t *, size_t, size_t, size_t, int32_t *, uint64_t *);
size_t simdsv__timestamp_fields_avx512(const char *, const uint32_t *, size_t, size_t, size_t, int64_t *, uint64_t *);

size_t simdsv__unescape_sse42(const char *, size_t, unsigned, unsigned, char *);
size_t simdsv__unescape_avx2(const char *, size_t, unsigned, unsigned, char *);
size_t simdsv__unescape_avx512(const char *, size_t, unsigned, unsigned, char *);

size_t simdsv__string_fields_sse42(const char *, const uint32_t *, size_t, size_t, size_t, unsigned, unsigned, char *,
                                 size_t *, int32_t *, uint64_t *);
size_t simdsv__string_fields_avx2(const char *, const uint32_t *, size_t, size_t, size_t, unsigned, unsigned, char *,
                                 size_t *, int32_t *, uint64_t *);
size_t simdsv__string_fields_avx512(const char *, const uint32_t *, size_t, size_t, size_t, unsigned, unsigned, char *,
                                 size_t *, int32_t *, uint64_t *);

#endif
