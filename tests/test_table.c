/*
 * test_table.c — the typed columnar reader: inference (and its traps),
 * widening, user schema with rejects, projection, null tokens, ragged rows,
 * and every exported Arrow array validated (lengths, offsets, bitmaps, null
 * counts, release semantics).  Runs once per kernel (SIMDSV_KERNEL).
 */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "simdsv.h"
#include "check.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


typedef struct opt_kv {
    simdsv_option id;
    int64_t value;
} opt_kv;

typedef struct str_kv {
    simdsv_string_option id;
    const char *value;
} str_kv;

/* Reads csv into a table; returns NULL on failure with *st set (and the error copied). */
static simdsv_table *read_table(const char *csv, const opt_kv *opts, const str_kv *strs, simdsv_status *st,
                                simdsv_error *err)
{
    simdsv_options *o = simdsv_options_new(NULL);
    for (; opts && opts->id; opts++)
        simdsv_options_set(o, opts->id, opts->value);
    for (; strs && strs->id; strs++)
        if (simdsv_options_set_string(o, strs->id, strs->value) != SIMDSV_OK)
            FAIL_MSG("bad string option %s: %s", strs->value, simdsv_options_error(o));
    simdsv_reader *r = NULL;
    *st = simdsv_reader_new(&r, o);
    if (*st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    simdsv_table *t = NULL;
    if (*st == SIMDSV_OK && (*st = simdsv_reader_open_memory(r, csv, strlen(csv))) == SIMDSV_OK)
        *st = simdsv_table_read(r, &t);
    if (err)
        *err = *simdsv_reader_error(r);
    simdsv_reader_free(r);
    simdsv_options_free(o);
    return t;
}

static simdsv_type col_type(const simdsv_table *t, size_t i)
{
    simdsv_column_info info;
    return simdsv_table_column(t, i, &info) == SIMDSV_OK ? info.type : (simdsv_type)-1;
}

static const char *col_reason(const simdsv_table *t, size_t i)
{
    simdsv_column_info info;
    return simdsv_table_column(t, i, &info) == SIMDSV_OK ? info.reason : "";
}

/* ------------------------------------------------------- Arrow validation */

static int release_calls;

static int bit(const void *bitmap, int64_t i)
{
    return (((const uint8_t *)bitmap)[i / 8] >> (i % 8)) & 1;
}

/* Full validation of one exported child: buffers present, null count equal
 * to the unset validity bits, offsets monotonic and within the data. */
static int validate_child(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t rows)
{
    int ok = a->length == rows && a->offset == 0 && a->n_children == 0 && a->release != NULL;
    if (strcmp(s->format, "n") == 0)
        return ok && a->n_buffers == 0 && a->null_count == rows;
    const int is_string = strcmp(s->format, "u") == 0 || strcmp(s->format, "U") == 0;
    ok = ok && a->n_buffers == (is_string ? 3 : 2) && a->buffers[0] && a->buffers[1];
    if (!ok)
        return 0;
    int64_t nulls = 0;
    for (int64_t i = 0; i < rows; i++)
        nulls += !bit(a->buffers[0], i);
    ok = nulls == a->null_count;
    if (is_string) {
        ok = ok && a->buffers[2];
        int64_t prev = 0;
        for (int64_t i = 0; i <= rows && ok; i++) {
            const int64_t off =
                s->format[0] == 'u' ? ((const int32_t *)a->buffers[1])[i] : ((const int64_t *)a->buffers[1])[i];
            ok = (i == 0 ? off == 0 : off >= prev);
            prev = off;
        }
    }
    return ok;
}

static int validate_export(simdsv_table *t, struct ArrowSchema *s, struct ArrowArray *a)
{
    const int64_t rows = (int64_t)simdsv_table_rows(t);
    const size_t cols = simdsv_table_columns(t);
    if (simdsv_table_move_to_arrow(t, s, a) != SIMDSV_OK)
        return 0;
    int ok = strcmp(s->format, "+s") == 0 && s->n_children == (int64_t)cols && a->n_children == (int64_t)cols &&
             a->length == rows && a->null_count == 0 && a->n_buffers == 1;
    for (size_t i = 0; ok && i < cols; i++)
        ok = validate_child(s->children[i], a->children[i], rows) && s->children[i]->release &&
             (s->children[i]->flags & ARROW_FLAG_NULLABLE);
    return ok;
}

/* Wraps release callbacks to count them. */
static void (*real_array_release)(struct ArrowArray *);
static void counting_array_release(struct ArrowArray *a)
{
    release_calls++;
    real_array_release(a);
}

/* Row i of an exported string array (stream batches are Arrow arrays). */
static const char *string_at(const struct ArrowArray *a, int64_t i, size_t *n)
{
    const int32_t *off = a->buffers[1];
    *n = (size_t)(off[i + 1] - off[i]);
    return (const char *)a->buffers[2] + off[i];
}

/* -------------------------------------------------------------------- tests */

/* Quotes do not make text (SIMDSV_OPT_TYPED_QUOTES, default 1): "42" is an
 * int64 and a quoted ISO timestamp a timestamp; leading zeros and "" still
 * make strings; the option at 0 keeps quoted fields as text. */
static void test_typed_quotes(void)
{
    const char *csv = "n,ts,zip,e,mix\n"
                      "\"42\",\"2017-08-27 00:05:34\",\"00501\",\"\",1\n"
                      "7,\"2017-08-27 00:05:35\",\"12345\",\"x\",\"2\"\n";
    simdsv_status st;
    simdsv_table *t = read_table(csv, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (t) {
        CHECK(col_type(t, 0) == SIMDSV_TYPE_INT64);
        CHECK(col_type(t, 1) == SIMDSV_TYPE_TIMESTAMP);
        CHECK(col_type(t, 2) == SIMDSV_TYPE_STRING);
        CHECK(col_type(t, 3) == SIMDSV_TYPE_STRING);
        CHECK(col_type(t, 4) == SIMDSV_TYPE_INT64);
        struct ArrowSchema s;
        struct ArrowArray a;
        CHECK(validate_export(t, &s, &a));
        const int64_t *n = a.children[0]->buffers[1];
        CHECK(n[0] == 42 && n[1] == 7);
        const int64_t *ts = a.children[1]->buffers[1];
        CHECK(ts[0] == INT64_C(1503792334000000) && ts[1] == INT64_C(1503792335000000));
        s.release(&s);
        a.release(&a);
        simdsv_table_free(t);
    }
    const opt_kv text[] = {{SIMDSV_OPT_TYPED_QUOTES, 0}, {0, 0}};
    t = read_table(csv, text, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (t) {
        CHECK(col_type(t, 0) == SIMDSV_TYPE_STRING);
        CHECK(col_type(t, 1) == SIMDSV_TYPE_STRING);
        CHECK(col_type(t, 4) == SIMDSV_TYPE_STRING);
        simdsv_table_free(t);
    }
}

/* With a decimal comma (SIMDSV_OPT_DECIMAL_COMMA) the floats are read by
 * the comma rule only, and inference follows it: 1,5 is a float64, while a
 * column holding 1.5 is a string that says why (it was once typed float64
 * and then failed to convert, and every value became text late). */
static void test_decimal_comma_inference(void)
{
    const char *csv = "a;b;c\n1,5;1.5;7\n-2,25;2;8\n";
    const opt_kv comma[] = {{SIMDSV_OPT_DELIMITER, ';'}, {SIMDSV_OPT_DECIMAL_COMMA, 1}, {0, 0}};
    simdsv_status st;
    simdsv_table *t = read_table(csv, comma, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (!t)
        return;
    CHECK(col_type(t, 0) == SIMDSV_TYPE_FLOAT64);
    CHECK(col_type(t, 1) == SIMDSV_TYPE_STRING);
    CHECK(strstr(col_reason(t, 1), "decimal point where the decimal mark is a comma") && strstr(col_reason(t, 1), "`1.5`") &&
          strstr(col_reason(t, 1), "line 2"));
    CHECK(col_type(t, 2) == SIMDSV_TYPE_INT64);
    simdsv_column_view v[3];
    for (size_t i = 0; i < 3; i++)
        CHECK(simdsv_table_column_view(t, i, &v[i]) == SIMDSV_OK && v[i].length == 2);
    CHECK(simdsv_view_float64(&v[0], 0) == 1.5 && simdsv_view_float64(&v[0], 1) == -2.25);
    size_t len;
    const char *b0 = simdsv_view_string(&v[1], 0, &len);
    CHECK(len == 3 && memcmp(b0, "1.5", 3) == 0);
    b0 = simdsv_view_string(&v[1], 1, &len);
    CHECK(len == 1 && b0[0] == '2');
    simdsv_table_free(t);
}

static void test_inference_traps(void)
{
    const char *csv = "zip,n,big,f,nan,plus,negzero,huge,d,bad_date,ts,flag,q,empty\n"
                      "00501,1,9223372036854775807,1.5,NaN,+5,-0,1e400,2024-02-29,2024-02-30,2024-01-01T10:00:00+02:00,true,\"7\",\n"
                      "12345,2,9223372036854775808,2,inf,6,0,1,2023-12-31,2024-01-01,2024-01-01 08:00,false,\"8\",\n";
    simdsv_status st;
    simdsv_table *t = read_table(csv, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (!t)
        return;
    CHECK(simdsv_table_rows(t) == 2);
    CHECK(col_type(t, 0) == SIMDSV_TYPE_STRING);
    CHECK(strstr(col_reason(t, 0), "leading zero") && strstr(col_reason(t, 0), "00501") && strstr(col_reason(t, 0), "line 2"));
    CHECK(col_type(t, 1) == SIMDSV_TYPE_INT64);
    CHECK(col_type(t, 2) == SIMDSV_TYPE_STRING); /* 2^63 does not fit: digits are never lost */
    CHECK(strstr(col_reason(t, 2), "does not fit int64") != NULL);
    CHECK(col_type(t, 3) == SIMDSV_TYPE_FLOAT64);
    CHECK(col_type(t, 4) == SIMDSV_TYPE_FLOAT64);
    CHECK(col_type(t, 5) == SIMDSV_TYPE_INT64);
    CHECK(col_type(t, 6) == SIMDSV_TYPE_INT64);
    CHECK(col_type(t, 7) == SIMDSV_TYPE_STRING); /* 1e400 would become inf */
    CHECK(col_type(t, 8) == SIMDSV_TYPE_DATE);
    CHECK(col_type(t, 9) == SIMDSV_TYPE_STRING);
    CHECK(strstr(col_reason(t, 9), "invalid date") != NULL);
    CHECK(col_type(t, 10) == SIMDSV_TYPE_TIMESTAMP);
    CHECK(col_type(t, 11) == SIMDSV_TYPE_BOOL);
    CHECK(col_type(t, 12) == SIMDSV_TYPE_INT64); /* quoted numbers type like unquoted ones */
    CHECK(col_type(t, 13) == SIMDSV_TYPE_NULL);
    /* exact values, through the typed view */
    simdsv_column_view v[14];
    for (size_t i = 0; i < 14; i++)
        CHECK(simdsv_table_column_view(t, i, &v[i]) == SIMDSV_OK && v[i].length == 2);
    CHECK(simdsv_view_int64(&v[1], 0) == 1 && simdsv_view_int64(&v[1], 1) == 2);
    CHECK(simdsv_view_int64(&v[5], 0) == 5 && simdsv_view_int64(&v[5], 1) == 6);
    CHECK(simdsv_view_float64(&v[3], 0) == 1.5 && simdsv_view_float64(&v[3], 1) == 2.0);
    CHECK(isnan(simdsv_view_float64(&v[4], 0)) && isinf(simdsv_view_float64(&v[4], 1)));
    CHECK(simdsv_view_date(&v[8], 0) == 19782 && simdsv_view_date(&v[8], 1) == 19722); /* 2024-02-29, 2023-12-31 */
    CHECK(simdsv_view_int64(&v[10], 0) == INT64_C(1704096000000000) &&
          simdsv_view_int64(&v[10], 1) == INT64_C(1704096000000000)); /* both 08:00Z */
    CHECK(simdsv_view_bool(&v[11], 0) == 1 && simdsv_view_bool(&v[11], 1) == 0);
    size_t len;
    const char *zip = simdsv_view_string(&v[0], 0, &len);
    CHECK(len == 5 && memcmp(zip, "00501", 5) == 0);
    CHECK(v[13].validity == NULL && v[13].null_count == 2 && !simdsv_view_valid(&v[13], 1));
    struct ArrowSchema s;
    struct ArrowArray a;
    CHECK(validate_export(t, &s, &a));
    CHECK(strcmp(s.children[8]->format, "tdD") == 0 && strcmp(s.children[10]->format, "tsu:UTC") == 0);
    real_array_release = a.release;
    a.release = counting_array_release;
    release_calls = 0;
    a.release(&a);
    CHECK(release_calls == 1 && a.release == NULL);
    s.release(&s);
    CHECK(s.release == NULL);
    simdsv_table_free(t);
}

/* The typed view: every column's values are the exported Arrow array's,
 * columns are found by name (the first of two with one name), a bad index
 * is refused, and once the rows are moved out the view has none. */
static void test_column_view(void)
{
    const char *csv = "i,f,b,d,ts,s,i,n\n"
                      "1,1.5,true,2024-01-02,2024-01-01T00:00:01Z,x,7,\n"
                      ",,,,,,8,\n"
                      "-3,2,false,1970-01-01,1970-01-01T00:00:00Z,\"y,z\",9,\n";
    simdsv_status st;
    simdsv_table *t = read_table(csv, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && simdsv_table_columns(t) == 8);
    if (!t)
        return;
    CHECK(simdsv_table_column_index(t, "i") == 0 && simdsv_table_column_index(t, "s") == 5);
    CHECK(simdsv_table_column_index(t, "nope") == -1 && simdsv_table_column_index(t, NULL) == -1);
    simdsv_column_view v[8];
    CHECK(simdsv_table_column_view(t, 8, &v[0]) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_table_column_view(NULL, 0, &v[0]) == SIMDSV_ERR_INVALID_ARGUMENT);
    static const simdsv_type types[8] = {SIMDSV_TYPE_INT64, SIMDSV_TYPE_FLOAT64, SIMDSV_TYPE_BOOL,
                                         SIMDSV_TYPE_DATE,  SIMDSV_TYPE_TIMESTAMP, SIMDSV_TYPE_STRING,
                                         SIMDSV_TYPE_INT64, SIMDSV_TYPE_NULL};
    for (size_t c = 0; c < 8; c++) {
        CHECK(simdsv_table_column_view(t, c, &v[c]) == SIMDSV_OK && v[c].type == types[c] && v[c].length == 3);
        CHECK(v[c].null_count == (c == 6 ? 0u : c == 7 ? 3u : 1u));
        CHECK(simdsv_view_valid(&v[c], 0) == (c != 7) && simdsv_view_valid(&v[c], 1) == (c == 6));
    }
    CHECK(simdsv_view_int64(&v[0], 2) == -3 && simdsv_view_int64(&v[6], 1) == 8);
    CHECK(simdsv_view_float64(&v[1], 0) == 1.5 && simdsv_view_bool(&v[2], 0) && !simdsv_view_bool(&v[2], 2));
    CHECK(simdsv_view_date(&v[3], 0) == 19724 && simdsv_view_date(&v[3], 2) == 0);
    CHECK(simdsv_view_int64(&v[4], 0) == INT64_C(1704067201000000) && simdsv_view_int64(&v[4], 2) == 0);
    CHECK(v[5].offset_width == 4 && v[5].values == NULL && v[0].offsets == NULL && v[7].validity == NULL);
    size_t n;
    const char *text = simdsv_view_string(&v[5], 2, &n);
    CHECK(n == 3 && memcmp(text, "y,z", 3) == 0);
    /* The view and the export agree, value for value. */
    struct ArrowSchema s;
    struct ArrowArray a;
    int64_t ints[3], dates[3];
    for (int i = 0; i < 3; i++) {
        ints[i] = simdsv_view_valid(&v[0], (uint64_t)i) ? simdsv_view_int64(&v[0], (uint64_t)i) : 0;
        dates[i] = simdsv_view_valid(&v[3], (uint64_t)i) ? simdsv_view_date(&v[3], (uint64_t)i) : 0;
    }
    CHECK(validate_export(t, &s, &a));
    for (int64_t i = 0; i < 3; i++) {
        if (bit(a.children[0]->buffers[0], i))
            CHECK(((const int64_t *)a.children[0]->buffers[1])[i] == ints[i]);
        if (bit(a.children[3]->buffers[0], i))
            CHECK(((const int32_t *)a.children[3]->buffers[1])[i] == dates[i]);
    }
    CHECK(simdsv_table_column_view(t, 0, &v[0]) == SIMDSV_OK && v[0].length == 0 && v[0].validity == NULL);
    a.release(&a);
    s.release(&s);
    simdsv_table_free(t);
}

static void test_widening(void)
{
    /* The sample (start/middle/end) sees ints; a float and then text later
     * widen the column, and the earlier values are re-read from their text. */
    size_t cap = 1 << 20, len = 0;
    char *csv = malloc(cap);
    len += (size_t)sprintf(csv + len, "a,b\n");
    for (int i = 0; i < 20000; i++)
        len += (size_t)sprintf(csv + len, "%d,%d\n", i, i);
    len += (size_t)sprintf(csv + len, "9007199254740993,2.5\n"); /* 2^53+1: must survive as text, not as a double */
    for (int i = 0; i < 20000; i++)
        len += (size_t)sprintf(csv + len, "%d,%d\n", i, i);
    len += (size_t)sprintf(csv + len, "x,3\n");
    for (int i = 0; i < 20000; i++)
        len += (size_t)sprintf(csv + len, "%d,%d\n", i, i);
    const opt_kv opts[] = {{SIMDSV_OPT_INFER_ROWS, 100}, {0, 0}};
    simdsv_status st;
    simdsv_table *t = read_table(csv, opts, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (t) {
        CHECK(simdsv_table_rows(t) == 60002);
        CHECK(col_type(t, 0) == SIMDSV_TYPE_STRING);
        CHECK(col_type(t, 1) == SIMDSV_TYPE_FLOAT64);
        simdsv_column_view va, vb;
        CHECK(simdsv_table_column_view(t, 0, &va) == SIMDSV_OK && simdsv_table_column_view(t, 1, &vb) == SIMDSV_OK);
        size_t n;
        const char *v = simdsv_view_string(&va, 20000, &n);
        CHECK(n == 16 && memcmp(v, "9007199254740993", 16) == 0);
        v = simdsv_view_string(&va, 19999, &n);
        CHECK(n == 5 && memcmp(v, "19999", 5) == 0);
        CHECK(simdsv_view_float64(&vb, 20000) == 2.5 && simdsv_view_float64(&vb, 19999) == 19999.0 &&
              simdsv_view_float64(&vb, 60001) == 19999.0);
        struct ArrowSchema s;
        struct ArrowArray a;
        CHECK(validate_export(t, &s, &a));
        a.release(&a);
        s.release(&s);
        simdsv_table_free(t);
    }
    free(csv);
}

static void test_schema_and_rejects(void)
{
    const char *csv = "id,price,day\n1,2.5,2024-01-01\nx,3,2024-13-01\n3,4.25,2024-01-03\n";
    const str_kv schema[] = {{SIMDSV_OPT_SCHEMA, "id:int64,day:date"}, {0, NULL}};
    simdsv_status st;
    simdsv_error err;
    simdsv_table *t = read_table(csv, NULL, schema, &st, &err);
    CHECK(st == SIMDSV_ERR_VALUE && t == NULL);
    CHECK(err.line == 3 && err.column == 1 && err.byte_offset == 30 && err.field == 0);
    const opt_kv on_null[] = {{SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL}, {0, 0}};
    t = read_table(csv, on_null, schema, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (!t)
        return;
    CHECK(simdsv_table_reject_count(t) == 2);
    const simdsv_reject *r0 = simdsv_table_reject(t, 0);
    const simdsv_reject *r1 = simdsv_table_reject(t, 1);
    CHECK(r0 && r0->line == 3 && r0->row == 1 && r0->column == 0 && strcmp(r0->value, "x") == 0);
    CHECK(r1 && r1->line == 3 && r1->column == 2 && strcmp(r1->value, "2024-13-01") == 0);
    CHECK(col_type(t, 0) == SIMDSV_TYPE_INT64 && col_type(t, 1) == SIMDSV_TYPE_FLOAT64);
    simdsv_column_info info;
    simdsv_table_column(t, 0, &info);
    CHECK(info.user_type == 1 && info.null_count == 1);
    struct ArrowSchema s;
    struct ArrowArray a;
    CHECK(validate_export(t, &s, &a));
    CHECK(a.children[0]->null_count == 1 && a.children[2]->null_count == 1);
    a.release(&a);
    s.release(&s);
    simdsv_table_free(t);
    /* all strings */
    const str_kv all[] = {{SIMDSV_OPT_SCHEMA, "*:string"}, {0, NULL}};
    t = read_table(csv, NULL, all, &st, NULL);
    CHECK(st == SIMDSV_OK && t && col_type(t, 0) == SIMDSV_TYPE_STRING && col_type(t, 2) == SIMDSV_TYPE_STRING);
    simdsv_table_free(t);
}

/* The string options are parsed once, by one parser: what it refuses it
 * says why, and what it accepts is what the schema is built from (an
 * escaped backslash before a comma once passed validation and crashed the
 * read).  The structured setters add the same items. */
static void test_spec_options(void)
{
    simdsv_options *o = simdsv_options_new(NULL);
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "a\\\\,b:int") == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(simdsv_options_error(o), "schema item `a\\` is not NAME:TYPE") == 0);
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "price:money") == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(strncmp(simdsv_options_error(o), "unknown type 'money' in `price:money`; known: null bool int64 ", 62) == 0);
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, ":int") == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "a:b:int") == SIMDSV_OK);
    CHECK(simdsv_options_error(o)[0] == '\0');
    simdsv_options_free(o);

    /* "a\,b" names the column a,b; "x:y" splits at its last colon. */
    const char *csv = "\"a,b\",x:y,c\n1,2,3\n";
    const str_kv escaped[] = {{SIMDSV_OPT_SCHEMA, "a\\,b:string,x:y:float"}, {0, NULL}};
    simdsv_status st;
    simdsv_table *t = read_table(csv, NULL, escaped, &st, NULL);
    CHECK(st == SIMDSV_OK && t && col_type(t, 0) == SIMDSV_TYPE_STRING && col_type(t, 1) == SIMDSV_TYPE_FLOAT64 &&
          col_type(t, 2) == SIMDSV_TYPE_INT64);
    simdsv_table_free(t);

    /* Structured setters: by name (literal: "3" is a name), by index, projection. */
    o = simdsv_options_new(NULL);
    CHECK(simdsv_options_set_column_type(o, "c", SIMDSV_TYPE_FLOAT64) == SIMDSV_OK);
    CHECK(simdsv_options_set_column_type_at(o, 0, SIMDSV_TYPE_STRING) == SIMDSV_OK);
    CHECK(simdsv_options_set_column_type(o, "", SIMDSV_TYPE_STRING) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_options_set_column_type(o, "c", (simdsv_type)99) == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_options_select_column(o, "c") == SIMDSV_OK);
    CHECK(simdsv_options_select_column_at(o, 0) == SIMDSV_OK);
    simdsv_reader *r = NULL;
    CHECK(simdsv_reader_new(&r, o) == SIMDSV_OK);
    simdsv_options_free(o); /* the reader holds its own copy of the items */
    CHECK(simdsv_reader_open_memory(r, csv, strlen(csv)) == SIMDSV_OK);
    t = NULL;
    CHECK(simdsv_table_read(r, &t) == SIMDSV_OK && t);
    simdsv_column_info info;
    CHECK(t && simdsv_table_columns(t) == 2 && simdsv_table_column(t, 0, &info) == SIMDSV_OK &&
          strcmp(info.name, "c") == 0 && info.type == SIMDSV_TYPE_FLOAT64 && info.user_type);
    CHECK(t && simdsv_table_column(t, 1, &info) == SIMDSV_OK && strcmp(info.name, "a,b") == 0 &&
          info.type == SIMDSV_TYPE_STRING && info.user_type);
    simdsv_table_free(t);
    simdsv_reader_free(r);

    /* A by-name item names no index: "1" is not column 1. */
    o = simdsv_options_new(NULL);
    CHECK(simdsv_options_set_column_type(o, "1", SIMDSV_TYPE_STRING) == SIMDSV_OK);
    r = NULL;
    CHECK(simdsv_reader_new(&r, o) == SIMDSV_OK && simdsv_reader_open_memory(r, csv, strlen(csv)) == SIMDSV_OK);
    t = NULL;
    CHECK(simdsv_table_read(r, &t) == SIMDSV_ERR_INVALID_ARGUMENT && !t);
    CHECK(strcmp(simdsv_reader_error(r)->message, "the schema names no column `1`") == 0);
    simdsv_reader_free(r);
    simdsv_options_free(o);
}

static void test_projection_and_nulls(void)
{
    const char *csv = "a,b,c\n1,NA,x\n2,\\N,\"NA\"\n,5,\n";
    const str_kv strs[] = {{SIMDSV_OPT_COLUMNS, "c,#1"}, {SIMDSV_OPT_NULL_VALUES, "NA,\\\\N"}, {0, NULL}};
    simdsv_status st;
    simdsv_table *t = read_table(csv, NULL, strs, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (!t)
        return;
    CHECK(simdsv_table_columns(t) == 2);
    simdsv_column_info info;
    simdsv_table_column(t, 0, &info);
    CHECK(strcmp(info.name, "c") == 0 && info.type == SIMDSV_TYPE_STRING && info.null_count == 1);
    simdsv_table_column(t, 1, &info);
    CHECK(strcmp(info.name, "a") == 0 && info.type == SIMDSV_TYPE_INT64 && info.null_count == 1);
    simdsv_column_view view;
    CHECK(simdsv_table_column_view(t, 0, &view) == SIMDSV_OK);
    size_t n;
    const char *v = simdsv_view_string(&view, 1, &n); /* quoted "NA" is text */
    CHECK(n == 2 && memcmp(v, "NA", 2) == 0);
    struct ArrowSchema s;
    struct ArrowArray a;
    CHECK(validate_export(t, &s, &a));
    a.release(&a);
    s.release(&s);
    simdsv_table_free(t);
    /* column b: NA and \N are null, 5 is an int */
    const str_kv strs2[] = {{SIMDSV_OPT_COLUMNS, "b"}, {SIMDSV_OPT_NULL_VALUES, "NA,\\\\N"}, {0, NULL}};
    t = read_table(csv, NULL, strs2, &st, NULL);
    CHECK(t && col_type(t, 0) == SIMDSV_TYPE_INT64);
    if (t) {
        simdsv_table_column(t, 0, &info);
        CHECK(info.null_count == 2);
    }
    simdsv_table_free(t);
    /* unknown projected column */
    const str_kv bad[] = {{SIMDSV_OPT_COLUMNS, "nope"}, {0, NULL}};
    t = read_table(csv, NULL, bad, &st, NULL);
    CHECK(t == NULL && st == SIMDSV_ERR_INVALID_ARGUMENT);
}

/* The table's column names, comma-joined. */
static const char *names_of(const simdsv_table *t)
{
    static char joined[4096];
    size_t len = 0;
    joined[0] = '\0';
    for (size_t i = 0; t && i < simdsv_table_columns(t); i++) {
        simdsv_column_info info;
        if (simdsv_table_column(t, i, &info) == SIMDSV_OK && len + strlen(info.name) + 2 < sizeof joined)
            len += (size_t)sprintf(joined + len, "%s%s", i ? "," : "", info.name);
    }
    return joined;
}

/* Duplicate and empty names (issue #21, defect 7): every column of a table
 * has its own name, so that JSON objects, Parquet, Arrow IPC and data
 * frames can key by it; the projection, the schema and the null tokens
 * name those unique names. */
static void test_unique_names(void)
{
    simdsv_status st;
    simdsv_table *t = read_table("a,b,a\n1,x,2.5\n", NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && strcmp(names_of(t), "a,b,a_2") == 0);
    simdsv_table_free(t);
    /* an empty name is column_N; a suffix or a column_N the file holds is skipped */
    t = read_table("a,,a,a_2,column_2,a\n1,2,3,4,5,6\n", NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && strcmp(names_of(t), "a,column_2_2,a_3,a_2,column_2,a_4") == 0);
    simdsv_table_free(t);
    /* names given for a header-less input, and fields past them */
    const opt_kv no_header[] = {{SIMDSV_OPT_HEADER, 0}, {0, 0}};
    const str_kv given[] = {{SIMDSV_OPT_NAMES, "x,x"}, {0, NULL}};
    t = read_table("1,2,3\n", no_header, given, &st, NULL);
    CHECK(st == SIMDSV_OK && strcmp(names_of(t), "x,x_2,column_3") == 0);
    simdsv_table_free(t);
    /* the projection selects by the unique names; a column selected twice
     * gets a name no field of the file has */
    const str_kv projected[] = {{SIMDSV_OPT_COLUMNS, "a_2,#1,a"}, {SIMDSV_OPT_SCHEMA, "a_2:string"}, {0, NULL}};
    t = read_table("a,b,a\n1,x,2.5\n", NULL, projected, &st, NULL);
    CHECK(st == SIMDSV_OK && strcmp(names_of(t), "a_2,a,a_3") == 0);
    CHECK(col_type(t, 0) == SIMDSV_TYPE_STRING && col_type(t, 1) == SIMDSV_TYPE_INT64 &&
          col_type(t, 2) == SIMDSV_TYPE_INT64);
    simdsv_table_free(t);
    /* the schema and the null tokens: a is the first column only */
    const str_kv typed[] = {{SIMDSV_OPT_SCHEMA, "a:float64"}, {SIMDSV_OPT_NULL_VALUES, "a_2=7"}, {0, NULL}};
    t = read_table("a,b,a\n1,x,7\n2,y,8\n", NULL, typed, &st, NULL);
    CHECK(st == SIMDSV_OK && strcmp(names_of(t), "a,b,a_2") == 0);
    CHECK(col_type(t, 0) == SIMDSV_TYPE_FLOAT64 && col_type(t, 2) == SIMDSV_TYPE_INT64);
    simdsv_column_info info;
    CHECK(t && simdsv_table_column(t, 2, &info) == SIMDSV_OK && info.null_count == 1);
    simdsv_table_free(t);
    /* a name repeated 1,000 times: x, x_2 .. x_1000 (each name keeps the next suffix to try) */
    char *csv = malloc(1000 * 2 + 1000 * 2 + 2);
    size_t len = 0;
    for (int i = 0; i < 1000; i++)
        len += (size_t)sprintf(csv + len, "x%c", i < 999 ? ',' : '\n');
    for (int i = 0; i < 1000; i++)
        len += (size_t)sprintf(csv + len, "1%c", i < 999 ? ',' : '\n');
    t = read_table(csv, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && simdsv_table_columns(t) == 1000);
    CHECK(t && simdsv_table_column(t, 1, &info) == SIMDSV_OK && strcmp(info.name, "x_2") == 0);
    CHECK(t && simdsv_table_column(t, 999, &info) == SIMDSV_OK && strcmp(info.name, "x_1000") == 0);
    simdsv_table_free(t);
    free(csv);
}

static void test_ragged(void)
{
    const char *short_rows = "a,b,c\n1,2,3\n4,5\n";
    simdsv_status st;
    simdsv_error err;
    simdsv_table *t = read_table(short_rows, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (t) {
        simdsv_column_info info;
        simdsv_table_column(t, 2, &info);
        CHECK(info.null_count == 1 && info.type == SIMDSV_TYPE_INT64);
    }
    simdsv_table_free(t);
    const opt_kv strict_short[] = {{SIMDSV_OPT_SHORT_ROWS, SIMDSV_RAGGED_ERROR}, {0, 0}};
    t = read_table(short_rows, strict_short, NULL, &st, &err);
    CHECK(t == NULL && st == SIMDSV_ERR_RAGGED_ROW && err.line == 3);
    const char *long_rows = "a,b\n1,2\n3,4,5\n";
    t = read_table(long_rows, NULL, NULL, &st, &err);
    CHECK(t == NULL && st == SIMDSV_ERR_RAGGED_ROW && err.line == 3 && err.column == 5 && err.field == 2);
    const opt_kv truncate[] = {{SIMDSV_OPT_LONG_ROWS, SIMDSV_RAGGED_TRUNCATE}, {0, 0}};
    t = read_table(long_rows, truncate, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && simdsv_table_rows(t) == 2 && simdsv_table_columns(t) == 2);
    simdsv_table_free(t);
}

static void test_empty_and_limits(void)
{
    simdsv_status st;
    simdsv_table *t = read_table("a,b\n", NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && simdsv_table_rows(t) == 0 && simdsv_table_columns(t) == 2);
    if (t) {
        struct ArrowSchema s;
        struct ArrowArray a;
        CHECK(validate_export(t, &s, &a));
        a.release(&a);
        s.release(&s);
    }
    simdsv_table_free(t);
    const opt_kv limit[] = {{SIMDSV_OPT_ROW_LIMIT, 2}, {SIMDSV_OPT_HEADER, 0}, {0, 0}};
    t = read_table("1\n2\n3\n4\n", limit, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && simdsv_table_rows(t) == 2);
    if (t) {
        simdsv_column_info info;
        simdsv_table_column(t, 0, &info);
        CHECK(strcmp(info.name, "column_1") == 0);
    }
    simdsv_table_free(t);
    CHECK(simdsv_type_from_name("int") == SIMDSV_TYPE_INT64 && simdsv_type_from_name("nope") == -1);
    CHECK(strcmp(simdsv_type_name(SIMDSV_TYPE_TIMESTAMP), "timestamp") == 0);
    simdsv_options *o = simdsv_options_new(NULL);
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "a:nosuchtype") == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "a:int,b:date") == SIMDSV_OK);
    simdsv_options_free(o);
}

/* float64 holds every integer only up to 2^53: an integer past it among
 * floats makes the column text, whether the sample sees both (inference),
 * the float comes later (int64 widened, the earlier integer re-read), or the
 * integer comes later (float64 widened); a user-given float64 rounds. */
/* A one-column file with empty lines between its records: an empty line is
 * no row (the batch walk once took it for a row of one empty field, null). */
static void test_one_column_blank_lines(void)
{
    char csv[512];
    int n = snprintf(csv, sizeof csv, "a\n");
    for (int i = 0; i < 20; i++)
        n += snprintf(csv + n, sizeof csv - (size_t)n, "%d\n\n", i);
    simdsv_status st;
    simdsv_table *t = read_table(csv, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && simdsv_table_rows(t) == 20);
    simdsv_column_info info;
    CHECK(t && simdsv_table_column(t, 0, &info) == SIMDSV_OK && info.null_count == 0 &&
          info.type == SIMDSV_TYPE_INT64);
    simdsv_table_free(t);
}

static void test_integers_past_2p53(void)
{
    simdsv_status st;
    const char *sampled = "n\n9007199254740993\n1.5\n";
    simdsv_table *t = read_table(sampled, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && col_type(t, 0) == SIMDSV_TYPE_STRING &&
          strstr(col_reason(t, 0), "past 2^53") && strstr(col_reason(t, 0), "line 2"));
    simdsv_table_free(t);
    const char *exact = "n\n9007199254740992\n-9007199254740992\n1.5\n"; /* 2^53 itself is exact */
    t = read_table(exact, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && col_type(t, 0) == SIMDSV_TYPE_FLOAT64);
    simdsv_table_free(t);
    const char *only_ints = "n\n9007199254740993\n12\n";
    t = read_table(only_ints, NULL, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t && col_type(t, 0) == SIMDSV_TYPE_INT64);
    simdsv_table_free(t);

    for (int later = 0; later < 2; later++) {
        char *csv = malloc(1 << 20);
        size_t len = (size_t)sprintf(csv, "n\n");
        for (int i = 0; i < 30000; i++) {
            const char *v = i == 10000 ? (later ? "1.5" : "9007199254740993") : i == 20000 ? (later ? "-9007199254740995" : "2.5") : NULL;
            len += v ? (size_t)sprintf(csv + len, "%s\n", v) : (size_t)sprintf(csv + len, later ? "%d.5\n" : "%d\n", i);
        }
        const opt_kv opts[] = {{SIMDSV_OPT_INFER_ROWS, 10}, {SIMDSV_OPT_THREADS, 1}, {0, 0}};
        t = read_table(csv, opts, NULL, &st, NULL);
        CHECK(st == SIMDSV_OK && t && col_type(t, 0) == SIMDSV_TYPE_STRING);
        simdsv_column_view view;
        if (t && simdsv_table_column_view(t, 0, &view) == SIMDSV_OK) {
            size_t n;
            const char *v = simdsv_view_string(&view, later ? 20000 : 10000, &n);
            CHECK(later ? (n == 17 && memcmp(v, "-9007199254740995", 17) == 0)
                        : (n == 16 && memcmp(v, "9007199254740993", 16) == 0));
        }
        simdsv_table_free(t);
        free(csv);
    }
    const str_kv schema[] = {{SIMDSV_OPT_SCHEMA, "n:float64"}, {0, 0}};
    t = read_table(sampled, NULL, schema, &st, NULL);
    CHECK(st == SIMDSV_OK && t && col_type(t, 0) == SIMDSV_TYPE_FLOAT64); /* asked for: rounded */
    simdsv_table_free(t);
}

/* Compares rows [a_from, a_from + n) of struct array a with rows [b_from,
 * b_from + n) of b, slot by slot (valid slots' values). */
static int same_rows(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t a_from,
                     const struct ArrowArray *b, int64_t b_from, int64_t n)
{
    if (a->n_children != b->n_children || a_from + n > a->length || b_from + n > b->length)
        return 0;
    for (int64_t c = 0; c < a->n_children; c++) {
        const struct ArrowArray *x = a->children[c], *y = b->children[c];
        const char *f = s->children[c]->format;
        for (int64_t k = 0; k < n; k++) {
            const int64_t i = a_from + k, j = b_from + k;
            const int vx = bit(x->buffers[0], i), vy = bit(y->buffers[0], j);
            if (vx != vy)
                return 0;
            if (!vx)
                continue;
            if (strcmp(f, "u") == 0) {
                size_t nx, ny;
                const char *px = string_at(x, i, &nx), *py = string_at(y, j, &ny);
                if (nx != ny || memcmp(px, py, nx) != 0)
                    return 0;
            } else if (strcmp(f, "b") == 0) {
                if (bit(x->buffers[1], i) != bit(y->buffers[1], j))
                    return 0;
            } else {
                const size_t w = strcmp(f, "tdD") == 0 ? 4 : 8;
                if (memcmp((const char *)x->buffers[1] + w * (size_t)i, (const char *)y->buffers[1] + w * (size_t)j, w))
                    return 0;
            }
        }
    }
    return 1;
}

static int same_arrays(const struct ArrowSchema *s, const struct ArrowArray *a, const struct ArrowArray *b)
{
    int64_t nulls_a = 0, nulls_b = 0;
    for (int64_t c = 0; c < a->n_children && c < b->n_children; c++) {
        nulls_a += a->children[c]->null_count;
        nulls_b += b->children[c]->null_count;
    }
    return a->length == b->length && nulls_a == nulls_b && same_rows(s, a, 0, b, 0, a->length);
}

/* Multi-threaded reads equal the single-threaded read, including quoted
 * fields whose line ends sit exactly at the raw chunk edges. */
static void test_threads(void)
{
    uint32_t rng = 12345;
    for (int round = 0; round < 6; round++) {
        const size_t target = (size_t)(4u << 20) + (size_t)round * 77777;
        char *csv = malloc(target + 4096);
        size_t len = (size_t)sprintf(csv, "id,name,price,day,note\n");
        for (int row = 0; len < target; row++) {
            rng = rng * 1103515245u + 12345u;
            len += (size_t)sprintf(csv + len, "%d,\"n%u, x\",%u.%02u,2024-%02u-%02u,", row, rng % 1000, rng % 5000,
                                   (rng >> 8) % 100, 1 + (rng >> 12) % 12, 1 + (rng >> 16) % 28);
            /* notes: plain, empty, or quoted with a line end; the line end
             * is placed on a chunk edge (size/n) for n = 2, 3, 4 when near */
            const size_t n2 = target / 2, n3 = target / 3, n4 = target / 4;
            const int near_edge = (len + 2 > n2 - 8 && len < n2) || (len + 2 > n3 - 8 && len < n3) ||
                                  (len + 2 > n4 - 8 && len < n4);
            if (near_edge || (rng >> 20) % 7 == 0)
                len += (size_t)sprintf(csv + len, "\"multi\nline \"\"q\"\"\"\n");
            else if ((rng >> 20) % 7 == 1)
                len += (size_t)sprintf(csv + len, "\n");
            else
                len += (size_t)sprintf(csv + len, "plain %u\n", rng % 77);
        }
        simdsv_status st1, st2;
        const opt_kv one[] = {{SIMDSV_OPT_THREADS, 1}, {0, 0}};
        simdsv_table *t1 = read_table(csv, one, NULL, &st1, NULL);
        for (int threads = 2; threads <= 4; threads++) {
            const opt_kv many[] = {{SIMDSV_OPT_THREADS, threads}, {0, 0}};
            simdsv_table *t2 = read_table(csv, many, NULL, &st2, NULL);
            CHECK(st1 == SIMDSV_OK && st2 == SIMDSV_OK && t1 && t2);
            if (!t1 || !t2) {
                simdsv_table_free(t2);
                continue;
            }
            CHECK(simdsv_table_rows(t1) == simdsv_table_rows(t2));
            for (size_t c = 0; c < simdsv_table_columns(t1); c++)
                CHECK(col_type(t1, c) == col_type(t2, c));
            struct ArrowSchema s1, s2;
            struct ArrowArray a1, a2;
            /* Export a copy of t1 each time: re-read it. */
            simdsv_table *t1b = read_table(csv, one, NULL, &st1, NULL);
            CHECK(validate_export(t1b, &s1, &a1) && validate_export(t2, &s2, &a2));
            CHECK(same_arrays(&s1, &a1, &a2));
            a1.release(&a1);
            s1.release(&s1);
            a2.release(&a2);
            s2.release(&s2);
            simdsv_table_free(t1b);
            simdsv_table_free(t2);
        }
        simdsv_table_free(t1);
        /* a stray quote: the error (first in input order) is the same with threads */
        csv[len / 2 + 3] = '"';
        simdsv_error e1, e2;
        t1 = read_table(csv, one, NULL, &st1, &e1);
        const opt_kv many[] = {{SIMDSV_OPT_THREADS, 3}, {0, 0}};
        simdsv_table *t2 = read_table(csv, many, NULL, &st2, &e2);
        CHECK(st1 == st2 && e1.byte_offset == e2.byte_offset && e1.line == e2.line && e1.column == e2.column);
        simdsv_table_free(t1);
        simdsv_table_free(t2);
        free(csv);
    }
}

/* The column-major batch path against the record reader: every field of a
 * "*:string" read equals what simdsv_reader_next gives (an empty unquoted
 * field: null), on inputs mixing LF and CRLF, empty lines, short and long
 * rows (padded / truncated), quoted fields with doubled quotes, delimiters
 * and line ends, spanning many 64 KiB scan windows. */
static void test_batches_match_records(void)
{
    uint32_t rng = 777;
    for (int round = 0; round < 4; round++) {
        const size_t target = 300000 + (size_t)round * 50000;
        char *csv = malloc(target + 512);
        size_t len = (size_t)sprintf(csv, "a,b,c,d\n");
        while (len < target) {
            rng = rng * 1103515245u + 12345u;
            const unsigned shape = (rng >> 24) % 16;
            const int fields = shape == 0 ? 2 : shape == 1 ? 6 : 4; /* short, long, regular */
            for (int f = 0; f < fields; f++) {
                rng = rng * 1103515245u + 12345u;
                const unsigned kind = (rng >> 20) % 8;
                if (f)
                    csv[len++] = ',';
                if (kind == 0)
                    len += (size_t)sprintf(csv + len, "\"q\"\"%u\"", rng % 100);
                else if (kind == 1)
                    len += (size_t)sprintf(csv + len, "\"x,\r\ny %u\"", rng % 100);
                else if (kind == 2)
                    len += (size_t)sprintf(csv + len, "\"\""); /* quoted empty: "" not null */
                else if (kind != 3) /* 3: empty, null */
                    len += (size_t)sprintf(csv + len, "v%u", rng % 1000);
            }
            rng = rng * 1103515245u + 12345u;
            const unsigned end = (rng >> 16) % 10;
            len += (size_t)sprintf(csv + len, end == 0 ? "\r\n" : end == 1 ? "\n\n" : end == 2 ? "\r\n\r\n" : "\n");
        }
        csv[len] = '\0';
        simdsv_status st;
        const opt_kv opts[] = {{SIMDSV_OPT_THREADS, 1}, {SIMDSV_OPT_LONG_ROWS, SIMDSV_RAGGED_TRUNCATE}, {0, 0}};
        const str_kv strs[] = {{SIMDSV_OPT_SCHEMA, "*:string"}, {0, 0}};
        simdsv_table *t = read_table(csv, opts, strs, &st, NULL);
        CHECK(st == SIMDSV_OK && t && simdsv_table_columns(t) == 4);
        if (!t) {
            free(csv);
            continue;
        }
        const int64_t table_rows = (int64_t)simdsv_table_rows(t);
        simdsv_options *o = simdsv_options_new(NULL);
        simdsv_reader *r = NULL;
        CHECK(simdsv_reader_new(&r, o) == SIMDSV_OK && simdsv_reader_open_memory(r, csv, len) == SIMDSV_OK);
        simdsv_record rec;
        int64_t row = 0, mismatches = 0;
        while (simdsv_reader_next(r, &rec) == SIMDSV_OK && row < table_rows) {
            for (size_t c = 0; c < 4; c++) {
                simdsv_column_view col;
                simdsv_table_column_view(t, c, &col);
                const int valid = simdsv_view_valid(&col, (uint64_t)row);
                if (c >= rec.field_count) {
                    mismatches += valid; /* padded: null */
                    continue;
                }
                const simdsv_field *f = &rec.fields[c];
                if (!(f->flags & SIMDSV_FIELD_QUOTED) && f->size == 0) {
                    mismatches += valid;
                    continue;
                }
                const char *want;
                size_t want_n;
                simdsv_reader_unescape(r, f, &want, &want_n);
                size_t got_n;
                const char *got = valid ? simdsv_view_string(&col, (uint64_t)row, &got_n) : NULL;
                const int bad = !got || got_n != want_n || memcmp(got, want, want_n) != 0;
                if (bad && mismatches < 3)
                    fprintf(stderr, "row %lld col %zu: want [%.*s] got %s[%.*s]\n", (long long)row, c, (int)want_n, want,
                            got ? "" : "null ", got ? (int)got_n : 0, got ? got : "");
                mismatches += bad;
            }
            row++;
        }
        if (mismatches || row != table_rows) fprintf(stderr, "round %d: mismatches %lld rows %lld table %lld\n", round, (long long)mismatches, (long long)row, (long long)table_rows);
        CHECK(mismatches == 0 && row == table_rows && row > 5000);
        simdsv_reader_free(r);
        simdsv_options_free(o);
        struct ArrowSchema s;
        struct ArrowArray a;
        CHECK(validate_export(t, &s, &a));
        a.release(&a);
        s.release(&s);
        simdsv_table_free(t);
        free(csv);
    }
}

/* ------------------------------------------------------------------ streams */

/* A CSV of `bytes` bytes or more whose types are the same in any window:
 * ints, quoted strings with commas, floats, dates, notes that are plain,
 * empty (null) or quoted over two lines. */
static char *stable_csv(size_t bytes, size_t *len_out)
{
    char *csv = malloc(bytes + 4096);
    size_t len = (size_t)sprintf(csv, "id,name,price,day,note\n");
    uint32_t rng = 99;
    for (int row = 0; len < bytes; row++) {
        rng = rng * 1103515245u + 12345u;
        len += (size_t)sprintf(csv + len, "%d,\"n%u, x\",%u.%02u,2024-%02u-%02u,", row, rng % 1000, rng % 5000,
                               (rng >> 8) % 100, 1 + (rng >> 12) % 12, 1 + (rng >> 16) % 28);
        const unsigned kind = (rng >> 20) % 7;
        len += (size_t)sprintf(csv + len, kind == 0 ? "\"multi\nline \"\"q\"\"\"\n" : kind == 1 ? "\n" : "plain %u\n", rng % 77);
    }
    *len_out = len;
    return csv;
}

typedef enum { FROM_MEMORY, FROM_PATH, FROM_FILE } stream_source;

/* A file of this process's own: the kernels' runs of this test may overlap. */
static const char *stream_path(void)
{
    static char path[64];
    snprintf(path, sizeof path, "test_table_stream_%ld.csv", (long)getpid());
    return path;
}

static simdsv_status open_stream(const char *csv, size_t len, stream_source from, const opt_kv *opts,
                                 struct ArrowArrayStream *out, FILE **file)
{
    simdsv_options *o = simdsv_options_new(NULL);
    for (; opts && opts->id; opts++)
        simdsv_options_set(o, opts->id, opts->value);
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, o);
    simdsv_options_free(o);
    if (st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    *file = NULL;
    if (st == SIMDSV_OK && from == FROM_MEMORY) {
        st = simdsv_reader_open_memory(r, csv, len);
    } else if (st == SIMDSV_OK) {
        const char *path = stream_path();
        FILE *f = fopen(path, "wb");
        CHECK(f && fwrite(csv, 1, len, f) == len);
        fclose(f);
        if (from == FROM_PATH) {
            st = simdsv_reader_open_path(r, path);
        } else {
            *file = fopen(path, "rb");
            st = simdsv_reader_open_stdio(r, *file);
        }
    }
    if (st == SIMDSV_OK)
        st = simdsv_table_stream(r, out);
    if (st != SIMDSV_OK)
        simdsv_reader_free(r); /* the stream owns r only on success */
    return st;
}

/* Batches of a stream ≡ slices of the whole-table read, from every source;
 * each batch validated; the schema is the table's. */
static void test_stream_batches(void)
{
    size_t len;
    char *csv = stable_csv((size_t)11 << 20, &len); /* past the 8 MiB inference window */
    simdsv_status st;
    const opt_kv one[] = {{SIMDSV_OPT_THREADS, 1}, {0, 0}};
    simdsv_table *t = read_table(csv, one, NULL, &st, NULL);
    CHECK(st == SIMDSV_OK && t);
    if (!t) {
        free(csv);
        return;
    }
    const int64_t rows = (int64_t)simdsv_table_rows(t);
    struct ArrowSchema ts;
    struct ArrowArray ta;
    CHECK(validate_export(t, &ts, &ta));
    for (stream_source from = FROM_MEMORY; from <= FROM_FILE; from++) {
        const opt_kv opts[] = {{SIMDSV_OPT_BATCH_ROWS, 7777}, {SIMDSV_OPT_BUFFER_SIZE, from == FROM_FILE ? 4096 : 1 << 20},
                               {0, 0}};
        struct ArrowArrayStream stream;
        FILE *file;
        CHECK(open_stream(csv, len, from, opts, &stream, &file) == SIMDSV_OK);
        struct ArrowSchema schema;
        CHECK(stream.get_schema(&stream, &schema) == 0);
        CHECK(strcmp(schema.format, "+s") == 0 && schema.n_children == ts.n_children);
        for (int64_t c = 0; c < schema.n_children && c < ts.n_children; c++)
            CHECK(strcmp(schema.children[c]->format, ts.children[c]->format) == 0 &&
                  strcmp(schema.children[c]->name, ts.children[c]->name) == 0);
        int64_t seen = 0, batches = 0;
        for (;;) {
            struct ArrowArray batch;
            const int rc = stream.get_next(&stream, &batch);
            CHECK(rc == 0);
            if (rc != 0 || !batch.release)
                break;
            batches++;
            CHECK(batch.length > 0 && batch.length <= 7777 && batch.n_children == schema.n_children);
            for (int64_t c = 0; c < batch.n_children; c++)
                CHECK(validate_child(schema.children[c], batch.children[c], batch.length));
            CHECK(same_rows(&ts, &ta, seen, &batch, 0, batch.length));
            seen += batch.length;
            real_array_release = batch.release;
            batch.release = counting_array_release;
            release_calls = 0;
            batch.release(&batch);
            CHECK(release_calls == 1 && batch.release == NULL);
        }
        CHECK(seen == rows && batches == (rows + 7776) / 7777);
        struct ArrowArray after;
        CHECK(stream.get_next(&stream, &after) == 0 && after.release == NULL); /* the end stays the end */
        CHECK(simdsv_table_stream_reject_count(&stream) == 0);
        schema.release(&schema);
        stream.release(&stream);
        CHECK(stream.release == NULL);
        if (file)
            fclose(file);
    }
    remove(stream_path());
    ta.release(&ta);
    ts.release(&ts);
    simdsv_table_free(t);
    free(csv);
}

/* Reads a stream to its end or its first error, releasing each batch:
 * returns get_next's last code; *rows and *nulls (of column 0) add up. */
static int drain_stream(struct ArrowArrayStream *stream, int64_t *rows, int64_t *nulls)
{
    *rows = *nulls = 0;
    for (;;) {
        struct ArrowArray batch;
        const int rc = stream->get_next(stream, &batch);
        if (rc != 0 || !batch.release)
            return rc;
        *rows += batch.length;
        *nulls += batch.n_children ? batch.children[0]->null_count : 0;
        batch.release(&batch);
    }
}

/* Library messages say what is wrong, not which CLI option to use; a file
 * that cannot be opened says why, with no position. */
static void test_messages(void)
{
    const char *csv = "n,m\n1,2\nx,3\n4,5,6\n";
    const str_kv schema[] = {{SIMDSV_OPT_SCHEMA, "n:int64"}, {0, NULL}};
    simdsv_status st;
    simdsv_error err;
    CHECK(read_table(csv, NULL, schema, &st, &err) == NULL && st == SIMDSV_ERR_VALUE);
    CHECK(strcmp(err.message, "value does not fit column `n` of type int64") == 0);
    CHECK(read_table("a,b\n1,2\n3,4,5\n", NULL, NULL, &st, &err) == NULL && st == SIMDSV_ERR_RAGGED_ROW);
    CHECK(strcmp(err.message, "row has 3 fields, the header has 2") == 0);
    /* An unterminated quote is reported where the quoted field opened, not
     * where the input ended (three lines later), by the table and the stream. */
    const char *open_quote = "a,b\n1,2\n3,\"open\nx,1\ny,2\n";
    CHECK(read_table(open_quote, NULL, NULL, &st, &err) == NULL && st == SIMDSV_ERR_UNTERMINATED_QUOTE);
    CHECK(err.line == 3 && err.column == 3 && err.byte_offset == 10);
    struct ArrowArrayStream stream;
    FILE *file;
    CHECK(open_stream(open_quote, strlen(open_quote), FROM_MEMORY, NULL, &stream, &file) == SIMDSV_OK);
    CHECK(simdsv_table_stream_error(&stream) == NULL); /* nothing failed yet */
    int64_t rows, nulls;
    CHECK(drain_stream(&stream, &rows, &nulls) == EINVAL && rows == 0); /* the first batch holds the error */
    const char *msg = stream.get_last_error(&stream);
    CHECK(msg && strstr(msg, "line 3, column 3 (byte 10)") && strstr(msg, "not closed"));
    /* The same error as the table's, with its code, record and field (Python's open_csv raises it). */
    const simdsv_error *failed = simdsv_table_stream_error(&stream);
    CHECK(failed && failed->code == SIMDSV_ERR_UNTERMINATED_QUOTE && failed->line == err.line &&
          failed->column == err.column && failed->byte_offset == err.byte_offset && failed->record == err.record &&
          failed->field == err.field && strcmp(failed->message, err.message) == 0);
    CHECK(failed->record == 2 && failed->field == 1);
    stream.release(&stream);
    struct ArrowArrayStream foreign = {0};
    CHECK(simdsv_table_stream_error(&foreign) == NULL && simdsv_table_stream_error(NULL) == NULL);
    simdsv_reader *r = NULL;
    CHECK(simdsv_reader_new(&r, NULL) == SIMDSV_OK);
    CHECK(simdsv_reader_open_path(r, "/nonexistent/simdsv-test.csv") == SIMDSV_ERR_IO);
    const simdsv_error *e = simdsv_reader_error(r);
    CHECK(e->os_errno == ENOENT && e->line == 0 && e->column == 0);
    CHECK(strcmp(e->message, "cannot open the file: No such file or directory") == 0);
    simdsv_reader_free(r);
}

/* The inference sample: when the file fits it (SIMDSV_OPT_INFER_ROWS),
 * every row is sampled, so the schema's type is the type the whole read ends
 * with, and the stream, which cannot widen, never fails on a value the
 * sample saw.  Random files (rows of varying width), random positions of
 * the values that do not fit, random budgets. */
static simdsv_type inferred_type(const char *csv, size_t len, int64_t budget, int full, char *reason, size_t size)
{
    simdsv_options *o = simdsv_options_new(NULL);
    simdsv_options_set(o, SIMDSV_OPT_INFER_ROWS, budget);
    simdsv_reader *r = NULL;
    if (simdsv_reader_new(&r, o) == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    simdsv_options_free(o);
    simdsv_table *t = NULL;
    simdsv_type type = (simdsv_type)-1;
    if (simdsv_reader_open_memory(r, csv, len) == SIMDSV_OK &&
        (full ? simdsv_table_read(r, &t) : simdsv_table_infer(r, &t)) == SIMDSV_OK) {
        simdsv_column_info info;
        simdsv_table_column(t, 0, &info);
        type = info.type;
        snprintf(reason, size, "%s", info.reason);
    }
    simdsv_table_free(t);
    simdsv_reader_free(r);
    return type;
}

static void test_sample_covers_small_files(void)
{
    uint32_t rng = 2026;
    char *csv = malloc(16000 * 16 + 16);
    for (int round = 0; round < 60; round++) {
        rng = rng * 1103515245u + 12345u;
        const size_t rows = 1 + (rng >> 8) % 14000;
        rng = rng * 1103515245u + 12345u;
        const int64_t budget = round % 2 ? 10000 : 50 + (int64_t)((rng >> 8) % 6000);
        rng = rng * 1103515245u + 12345u;
        /* anywhere (past the end: none), just after the start window (the
         * seam), or late in the file */
        size_t misfit = (rng >> 8) % (rows + rows / 4);
        if (round % 4 == 1)
            misfit = (size_t)budget / 2 + 1;
        else if (round % 4 == 2)
            misfit = rows - 1 - (rng >> 8) % (rows / 4 + 1);
        const int as_text = round % 3 == 0;
        size_t len = (size_t)sprintf(csv, "v\n");
        for (size_t i = 0; i < rows; i++) {
            rng = rng * 1103515245u + 12345u;
            if (i == misfit)
                len += (size_t)sprintf(csv + len, as_text ? "x\n" : "2.5\n");
            else
                len += (size_t)sprintf(csv + len, "%u\n", (rng >> 4) % (1u + (rng >> 28) * 100000u));
        }
        char schema_reason[256], read_reason[256];
        const simdsv_type schema = inferred_type(csv, len, budget, 0, schema_reason, sizeof schema_reason);
        const simdsv_type read = inferred_type(csv, len, budget, 1, read_reason, sizeof read_reason);
        const simdsv_type want =
            misfit < rows ? (as_text ? SIMDSV_TYPE_STRING : SIMDSV_TYPE_FLOAT64) : SIMDSV_TYPE_INT64;
        CHECK(read == want);
        if ((int64_t)rows > budget)
            continue;
        CHECK(schema == read);
        if (schema != read)
            fprintf(stderr, "rows %zu, budget %lld, misfit at %zu: schema says %s\n", rows, (long long)budget,
                    misfit, schema_reason);
        if (misfit >= rows) { /* every row sampled, and counted */
            char want_reason[64];
            snprintf(want_reason, sizeof want_reason, "int64: every non-null sampled value (%zu)", rows);
            CHECK(strcmp(schema_reason, want_reason) == 0);
        }
        const opt_kv opts[] = {{SIMDSV_OPT_INFER_ROWS, budget}, {SIMDSV_OPT_BATCH_ROWS, 1000}, {0, 0}};
        struct ArrowArrayStream stream;
        FILE *file;
        CHECK(open_stream(csv, len, FROM_MEMORY, opts, &stream, &file) == SIMDSV_OK);
        int64_t seen, nulls;
        CHECK(drain_stream(&stream, &seen, &nulls) == 0 && seen == (int64_t)rows && nulls == 0);
        stream.release(&stream);
    }
    free(csv);
}

/* After the inference window a value that does not fit an inferred type is
 * an error naming its line, or a null listed in the rejects. */
static void test_stream_misfit(void)
{
    const size_t rows_before = 2000000; /* "123\n" * 2e6 = 8 MB: the misfit lies past the window */
    char *csv = malloc(rows_before * 4 + 64);
    size_t len = (size_t)sprintf(csv, "n,s\n");
    for (size_t i = 0; i < rows_before; i++) {
        memcpy(csv + len, i % 2 ? "7,a\n" : "1,b\n", 4);
        len += 4;
    }
    len += (size_t)sprintf(csv + len, "abc,c\n5,d\n");
    const uint64_t bad_line = 1 + rows_before + 1;
    struct ArrowArrayStream stream;
    FILE *file;
    const opt_kv opts[] = {{SIMDSV_OPT_BATCH_ROWS, 100000}, {0, 0}};
    CHECK(open_stream(csv, len, FROM_PATH, opts, &stream, &file) == SIMDSV_OK);
    int64_t seen, nulls;
    int rc = drain_stream(&stream, &seen, &nulls);
    char want[64];
    snprintf(want, sizeof want, "line %llu, column 1 ", (unsigned long long)bad_line);
    const char *msg = stream.get_last_error(&stream);
    CHECK(rc == EINVAL && msg && strstr(msg, want) && strstr(msg, "int64"));
    CHECK(seen == 2000000); /* the batches before the one with the misfit */
    struct ArrowArray again;
    CHECK(stream.get_next(&stream, &again) == EINVAL);
    stream.release(&stream);

    const opt_kv lenient[] = {{SIMDSV_OPT_BATCH_ROWS, 100000}, {SIMDSV_OPT_ON_ERROR, SIMDSV_ON_ERROR_NULL}, {0, 0}};
    CHECK(open_stream(csv, len, FROM_MEMORY, lenient, &stream, &file) == SIMDSV_OK);
    rc = drain_stream(&stream, &seen, &nulls);
    CHECK(rc == 0 && seen == 2000002 && nulls == 1);
    CHECK(simdsv_table_stream_reject_count(&stream) == 1);
    const simdsv_reject *rej = simdsv_table_stream_reject(&stream, 0);
    CHECK(rej && rej->line == bad_line && rej->row == 2000000 && rej->column == 0 && strcmp(rej->value, "abc") == 0);
    /* The column it came from is inferred (not --schema), and a consumer may
     * forget the rejects it has read. */
    simdsv_column_info info;
    CHECK(simdsv_table_stream_column(&stream, 0, &info) == SIMDSV_OK && info.type == SIMDSV_TYPE_INT64 &&
          !info.user_type);
    CHECK(simdsv_table_stream_column(&stream, 99, &info) == SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_table_stream_clear_rejects(&stream);
    CHECK(simdsv_table_stream_reject_count(&stream) == 0 && simdsv_table_stream_reject(&stream, 0) == NULL);
    stream.release(&stream);
    remove(stream_path());
    free(csv);
}

/* The row limit spans batches; a tiny input is one batch; an empty one none. */
/* Late misfits in a stream (issue #21, defect 10): simdsv_table_stream_misfit
 * says which column and the type a single read widens it to; reading again
 * with simdsv_options_set_column_min_type for it, until no misfit is left,
 * gives exactly the single read's schema (the inferred rules kept: an
 * integer past 2^53 then met as float64 goes on to string). */
static void test_stream_widen(void)
{
    enum { ROWS = 6000 };
    char *csv = malloc((size_t)ROWS * 64 + 64);
    size_t len = (size_t)sprintf(csv, "i,f,d,big,s\n");
    for (int row = 0; row < ROWS; row++) {
        const char *i = row == 4000 ? "2.5" : NULL;          /* int64 -> float64 */
        const char *f = row == 4500 ? "n/a" : NULL;          /* float64 -> string */
        const char *d = row == 3000 ? "2024-02-30" : NULL;   /* date -> string */
        /* an int64 past 2^53, then a float: float64, which would round it: string */
        const char *big = row == 3500 ? "9007199254740993" : row == 5000 ? "0.5" : NULL;
        char text[5][32];
        snprintf(text[0], sizeof text[0], "%s", i ? i : "7");
        snprintf(text[1], sizeof text[1], "%s", f ? f : "1.25");
        snprintf(text[2], sizeof text[2], "%s", d ? d : "2024-01-02");
        snprintf(text[3], sizeof text[3], "%s", big ? big : "12");
        len += (size_t)sprintf(csv + len, "%s,%s,%s,%s,x%d\n", text[0], text[1], text[2], text[3], row);
    }
    simdsv_options *o = simdsv_options_new(NULL);
    simdsv_options_set(o, SIMDSV_OPT_INFER_ROWS, 100); /* the misfits lie past the sample */
    simdsv_options_set(o, SIMDSV_OPT_THREADS, 1);
    simdsv_reader *r = NULL;
    if (simdsv_reader_new(&r, o) == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    simdsv_table *single = NULL;
    CHECK(simdsv_reader_open_memory(r, csv, len) == SIMDSV_OK && simdsv_table_read(r, &single) == SIMDSV_OK);
    simdsv_reader_free(r);
    CHECK(single && col_type(single, 0) == SIMDSV_TYPE_FLOAT64 && col_type(single, 1) == SIMDSV_TYPE_STRING &&
          col_type(single, 2) == SIMDSV_TYPE_STRING && col_type(single, 3) == SIMDSV_TYPE_STRING &&
          col_type(single, 4) == SIMDSV_TYPE_STRING);
    /* each read: the first misfit in input order widens its column */
    static const struct {
        size_t column;
        simdsv_type widened;
    } expected[] = {{2, SIMDSV_TYPE_STRING}, {0, SIMDSV_TYPE_FLOAT64}, {1, SIMDSV_TYPE_STRING},
                    {3, SIMDSV_TYPE_FLOAT64}, {3, SIMDSV_TYPE_STRING}};
    size_t reads = 0;
    int rc;
    struct ArrowArrayStream stream;
    for (;;) {
        r = NULL;
        CHECK(simdsv_reader_new(&r, o) == SIMDSV_OK && simdsv_reader_open_memory(r, csv, len) == SIMDSV_OK);
        CHECK(simdsv_table_stream(r, &stream) == SIMDSV_OK);
        int64_t seen, nulls;
        rc = drain_stream(&stream, &seen, &nulls);
        size_t column;
        simdsv_type widened;
        simdsv_column_info info;
        if (rc == 0) {
            CHECK(seen == ROWS);
            CHECK(simdsv_table_stream_misfit(&stream, &column, &widened) == SIMDSV_ERR_INVALID_ARGUMENT);
            break;
        }
        CHECK(rc == EINVAL && simdsv_table_stream_misfit(&stream, &column, &widened) == SIMDSV_OK);
        if (reads >= sizeof expected / sizeof expected[0] || column != expected[reads].column ||
            widened != expected[reads].widened) {
            FAIL_MSG("read %zu: column %zu widened to %d", reads, column, (int)widened);
            stream.release(&stream);
            break;
        }
        CHECK(simdsv_table_stream_column(&stream, column, &info) == SIMDSV_OK && !info.user_type);
        CHECK(simdsv_options_set_column_min_type(o, info.name, widened) == SIMDSV_OK);
        stream.release(&stream);
        reads++;
    }
    CHECK_EQ_U64(reads, 5);
    for (size_t j = 0; rc == 0 && j < 5; j++) {
        simdsv_column_info info;
        CHECK(simdsv_table_stream_column(&stream, j, &info) == SIMDSV_OK && !info.user_type &&
              info.type == col_type(single, j));
    }
    if (rc == 0)
        stream.release(&stream);
    /* a --schema type that a value does not fit is no late misfit */
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_SCHEMA, "i:int64,f:string,d:string,big:string") == SIMDSV_OK);
    r = NULL;
    CHECK(simdsv_reader_new(&r, o) == SIMDSV_OK && simdsv_reader_open_memory(r, csv, len) == SIMDSV_OK &&
          simdsv_table_stream(r, &stream) == SIMDSV_OK);
    int64_t seen, nulls;
    size_t column;
    simdsv_type widened;
    CHECK(drain_stream(&stream, &seen, &nulls) == EINVAL &&
          simdsv_table_stream_misfit(&stream, &column, &widened) == SIMDSV_ERR_INVALID_ARGUMENT);
    stream.release(&stream);
    simdsv_options_free(o);
    simdsv_table_free(single);
    free(csv);
}

static void test_stream_limits(void)
{
    size_t len;
    char *csv = stable_csv(300000, &len);
    struct ArrowArrayStream stream;
    FILE *file;
    const opt_kv opts[] = {{SIMDSV_OPT_BATCH_ROWS, 1000}, {SIMDSV_OPT_ROW_LIMIT, 2501}, {0, 0}};
    CHECK(open_stream(csv, len, FROM_MEMORY, opts, &stream, &file) == SIMDSV_OK);
    int64_t lengths[8] = {0};
    int n = 0;
    for (;;) {
        struct ArrowArray batch;
        if (stream.get_next(&stream, &batch) != 0 || !batch.release)
            break;
        if (n < 8)
            lengths[n] = batch.length;
        n++;
        batch.release(&batch);
    }
    CHECK(n == 3 && lengths[0] == 1000 && lengths[1] == 1000 && lengths[2] == 501);
    stream.release(&stream);
    free(csv);

    const char *empty = "a,b\n";
    CHECK(open_stream(empty, strlen(empty), FROM_MEMORY, NULL, &stream, &file) == SIMDSV_OK);
    struct ArrowSchema schema;
    CHECK(stream.get_schema(&stream, &schema) == 0 && schema.n_children == 2);
    schema.release(&schema);
    struct ArrowArray batch;
    CHECK(stream.get_next(&stream, &batch) == 0 && batch.release == NULL);
    stream.release(&stream);
}

/* One column: an empty line, or the LF of a CRLF, is no row (the batch
 * path once took a lone line end for a one-field row), and names given with
 * SIMDSV_OPT_NAMES stand in for a missing header. */
static void test_one_column_line_ends(void)
{
    const char *inputs[] = {"a\r\n1\r\n2\r\n", "a\n1\n\n2\n\n", "a\r1\r\r2", "a\r\n\r\n1\r\n2"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        simdsv_status st;
        const opt_kv one[] = {{SIMDSV_OPT_THREADS, 1}, {0, 0}};
        simdsv_table *t = read_table(inputs[i], one, NULL, &st, NULL);
        CHECK(st == SIMDSV_OK && t && simdsv_table_rows(t) == 2 && col_type(t, 0) == SIMDSV_TYPE_INT64);
        simdsv_table_free(t);
    }
    simdsv_status st;
    const opt_kv no_header[] = {{SIMDSV_OPT_HEADER, 0}, {0, 0}};
    const str_kv names[] = {{SIMDSV_OPT_NAMES, "x,y\\,z"}, {SIMDSV_OPT_COLUMNS, "y\\,z"}, {0, NULL}};
    simdsv_table *t = read_table("1,2\n3,4\n", no_header, names, &st, NULL);
    simdsv_column_info info;
    CHECK(st == SIMDSV_OK && t && simdsv_table_columns(t) == 1 && simdsv_table_rows(t) == 2);
    CHECK(t && simdsv_table_column(t, 0, &info) == SIMDSV_OK && strcmp(info.name, "y,z") == 0);
    simdsv_table_free(t);
}

/* simdsv_table_infer has no later pass to report an error in the rows it
 * samples: a bad record at the start (the first, the first data row, one
 * after the start window's rows) is its error, the one simdsv_table_read
 * reports, rather than a schema of no columns or of nulls.  A start window
 * of a file cut at a line end inside quotes is no error (the file goes on). */
static simdsv_status infer_or_read(const char *csv, const char *path, int header, int64_t budget, int full,
                                   simdsv_error *err, simdsv_table **t)
{
    simdsv_options *o = simdsv_options_new(NULL);
    simdsv_options_set(o, SIMDSV_OPT_HEADER, header);
    simdsv_options_set(o, SIMDSV_OPT_INFER_ROWS, budget);
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, o);
    if (st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    simdsv_options_free(o);
    *t = NULL;
    if (st == SIMDSV_OK)
        st = path ? simdsv_reader_open_path(r, path) : simdsv_reader_open_memory(r, csv, strlen(csv));
    if (st == SIMDSV_OK)
        st = full ? simdsv_table_read(r, t) : simdsv_table_infer(r, t);
    *err = *simdsv_reader_error(r);
    simdsv_reader_free(r);
    return st;
}

static void test_infer_errors(void)
{
    static const struct {
        const char *csv;
        int header;
        int64_t budget;
        simdsv_status code;
        uint64_t byte, line, record, field;
    } cases[] = {
        {"\"x\"y,2\n3,4\n", 0, 1000, SIMDSV_ERR_TEXT_AFTER_QUOTE, 3, 1, 0, 0},        /* the first record */
        {"1,\"2\n3,4\n", 0, 1000, SIMDSV_ERR_UNTERMINATED_QUOTE, 2, 1, 0, 1},          /* ... to the end */
        {"a,b\n\"x\"y,2\n3,4\n", 1, 1000, SIMDSV_ERR_TEXT_AFTER_QUOTE, 7, 2, 1, 0},    /* the first data row */
        {"a,b\n1,2\n3,4\n\"x\"y,2\n", 0, 1000, SIMDSV_ERR_TEXT_AFTER_QUOTE, 15, 4, 3, 0},
        /* infer_rows 10: the start window samples 6 rows, the rest (sample_rest) the 7th and 8th */
        {"a,b\n1,2\n3,4\n5,6\n7,8\n9,10\n11,12\n13,14\n\"x\"y,2\n", 1, 10, SIMDSV_ERR_TEXT_AFTER_QUOTE, 40, 9, 8, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int full = 0; full < 2; full++) {
            simdsv_error e;
            simdsv_table *t;
            const simdsv_status st = infer_or_read(cases[i].csv, NULL, cases[i].header, cases[i].budget, full, &e, &t);
            CHECK(st == cases[i].code && t == NULL);
            CHECK(e.code == cases[i].code && e.byte_offset == cases[i].byte && e.line == cases[i].line &&
                  e.record == cases[i].record && e.field == cases[i].field);
            if (e.byte_offset != cases[i].byte || e.record != cases[i].record)
                fprintf(stderr, "case %zu (%s): byte %llu record %llu\n", i, full ? "read" : "infer",
                        (unsigned long long)e.byte_offset, (unsigned long long)e.record);
        }
    }
    /* 9 MB of rows whose quoted field holds a line end and then 300 bytes:
     * the 2 MiB start window is cut at a line end inside quotes (nine in ten
     * of the bytes lie on a field's second line), sampled to its end (a
     * budget of 100000 rows), and the rest, held whole then, sampled from the
     * record the cut split.  Every row is sampled; the types are read's. */
    char path[64];
    snprintf(path, sizeof path, "test_table_infer_%ld.csv", (long)getpid());
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    char tail[301];
    memset(tail, 'x', 300);
    tail[300] = '\0';
    fputs("id,note\n", f);
    for (int i = 0; i < 30000; i++)
        fprintf(f, "%d,\"a\n%s\"\n", i, tail);
    fclose(f);
    for (int full = 0; full < 2; full++) {
        simdsv_error e;
        simdsv_table *t;
        CHECK(infer_or_read(NULL, path, 1, 100000, full, &e, &t) == SIMDSV_OK);
        CHECK(t && simdsv_table_columns(t) == 2 && col_type(t, 0) == SIMDSV_TYPE_INT64 &&
              col_type(t, 1) == SIMDSV_TYPE_STRING);
        CHECK(t && strcmp(col_reason(t, 0), "int64: every non-null sampled value (30000)") == 0);
        simdsv_table_free(t);
    }
    remove(path);
}

int main(void)
{
    test_one_column_line_ends();
    test_threads();
    test_inference_traps();
    test_decimal_comma_inference();
    test_typed_quotes();
    test_column_view();
    test_widening();
    test_integers_past_2p53();
    test_schema_and_rejects();
    test_spec_options();
    test_messages();
    test_projection_and_nulls();
    test_unique_names();
    test_ragged();
    test_empty_and_limits();
    test_one_column_blank_lines();
    test_batches_match_records();
    test_stream_batches();
    test_stream_misfit();
    test_stream_widen();
    test_sample_covers_small_files();
    test_stream_limits();
    test_infer_errors();
    return check_summary();
}
