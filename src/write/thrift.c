/*
 * thrift.c — the Thrift compact protocol, write side only, for Parquet's
 * footer and page headers: integers as zigzag varints, field headers as a
 * delta from the previous field id in the high nibble (or the id itself
 * after the type byte when the delta is not 1..15), booleans folded into the
 * field header's type, lists as size and element type.
 */
#include "parquet.h"

#include <string.h>

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

void thrift_begin(thrift *t)
{
    t->last[++t->depth] = 0;
}

void thrift_end(thrift *t)
{
    wbuf_byte(t->out, 0);
    t->depth--;
}

void thrift_field(thrift *t, int16_t id, int type)
{
    const int delta = id - t->last[t->depth];
    if (delta > 0 && delta <= 15) {
        wbuf_byte(t->out, (uint8_t)(delta << 4 | type));
    } else {
        wbuf_byte(t->out, (uint8_t)type);
        wbuf_varint(t->out, zigzag(id));
    }
    t->last[t->depth] = id;
}

void thrift_i32(thrift *t, int16_t id, int32_t v)
{
    thrift_field(t, id, T_I32);
    wbuf_varint(t->out, zigzag(v));
}

void thrift_i64(thrift *t, int16_t id, int64_t v)
{
    thrift_field(t, id, T_I64);
    wbuf_varint(t->out, zigzag(v));
}

void thrift_bool(thrift *t, int16_t id, bool v)
{
    thrift_field(t, id, v ? T_BOOL_TRUE : T_BOOL_FALSE);
}

void thrift_binary(thrift *t, int16_t id, const void *data, size_t size)
{
    thrift_field(t, id, T_BINARY);
    thrift_list_binary(t, data, size);
}

void thrift_string(thrift *t, int16_t id, const char *s)
{
    thrift_binary(t, id, s, strlen(s));
}

void thrift_list(thrift *t, int16_t id, int elem, size_t n)
{
    thrift_field(t, id, T_LIST);
    if (n < 15) {
        wbuf_byte(t->out, (uint8_t)(n << 4 | (size_t)elem));
    } else {
        wbuf_byte(t->out, (uint8_t)(0xF0 | elem));
        wbuf_varint(t->out, n);
    }
}

void thrift_list_i32(thrift *t, int32_t v)
{
    wbuf_varint(t->out, zigzag(v));
}

void thrift_list_binary(thrift *t, const void *data, size_t size)
{
    wbuf_varint(t->out, size);
    wbuf_put(t->out, data, size);
}

void thrift_struct(thrift *t, int16_t id)
{
    thrift_field(t, id, T_STRUCT);
    thrift_begin(t);
}
