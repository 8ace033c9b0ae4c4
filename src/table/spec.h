/*
 * spec.h — the typed reader's string options, parsed: comma lists with
 * backslash escapes, the schema ("name:type,...") and the projection.
 */
#ifndef SIMDSV_SPEC_H
#define SIMDSV_SPEC_H

#include "../common/internal.h"

typedef struct string_list {
    char **items;   /* NUL-terminated copies */
    size_t *lens;
    size_t count;
    size_t capacity;   /* allocated items */
    char *block;       /* the text all items point into */
    size_t block_size;
} string_list;

/* Splits s at unescaped commas ("\," and "\\" are literal); s may be NULL. */
simdsv_status simdsv__list_parse(const simdsv_allocator *a, const char *s, string_list *out);
void simdsv__list_free(const simdsv_allocator *a, string_list *l);
/* 1 if value[0..n) equals an item. */
int simdsv__list_contains(const string_list *l, const char *value, size_t n);

/* A column selector: a name, or a 0-based index ("#3" or "3" is index 2 when
 * no column is named "3"). */
typedef struct column_ref {
    const char *name;
    long index; /* -1 when by name only */
} column_ref;

/* Parses "#N" / "N" (1-based) into a 0-based index, or -1. */
long simdsv__parse_index(const char *s);

#endif
