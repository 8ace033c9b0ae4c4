/*
 * spec.h — the typed reader's string options (null, true and false tokens,
 * the projection, the schema), parsed once, when they are set, into lists
 * of items (spec_list, in internal.h).  The same lists validate the option,
 * build the table's schema, and take the structured setters' items, so the
 * text is never split a second time by other rules.
 */
#ifndef SIMDSV_SPEC_H
#define SIMDSV_SPEC_H

#include "internal.h"

/* Parses value of string option id: items split at unescaped commas ("\,"
 * and "\\" are literal), schema items at their last ':' into a selector and
 * a known type, null tokens at their first '=' (key).  NULL or "" gives an
 * empty list.  SIMDSV_ERR_INVALID_ARGUMENT for a malformed value, with the
 * reason in why (e.g. "unknown type 'money' in `price:money`; known: ..."). */
simdsv_status simdsv__spec_parse(const simdsv_allocator *a, simdsv_string_option id, const char *value,
                                 spec_list *out, char *why, size_t why_size);
/* Appends a copy of text[0..size) as an item. */
simdsv_status simdsv__spec_add(const simdsv_allocator *a, spec_list *l, const char *text, size_t size, long index,
                               size_t key, simdsv_type type);
simdsv_status simdsv__spec_copy(const simdsv_allocator *a, spec_list *dst, const spec_list *src);
void simdsv__spec_free(const simdsv_allocator *a, spec_list *l);
/* 1 if value[0..n) equals an item's text. */
int simdsv__list_contains(const spec_list *l, const char *value, size_t n);

/* Parses "#N" / "N" (1-based) into a 0-based index, or -1. */
long simdsv__parse_index(const char *s);

#endif
