/* spec.c — the typed reader's string options, parsed once (see spec.h). */
#include "spec.h"
#include "../values/values.h"

#include <stdio.h>
#include <string.h>

simdsv_status simdsv__spec_add(const simdsv_allocator *a, spec_list *l, const char *text, size_t size, long index,
                               size_t key, simdsv_type type)
{
    void *p = l->items;
    if (simdsv__grow(a, &p, &l->cap, l->count + 1, sizeof *l->items) != SIMDSV_OK)
        return SIMDSV_ERR_NOMEM;
    l->items = p;
    char *copy = simdsv__alloc(a, size + 1);
    if (!copy)
        return SIMDSV_ERR_NOMEM;
    memcpy(copy, text, size);
    copy[size] = '\0';
    l->items[l->count++] = (spec_item){copy, size, index, key, type, false};
    return SIMDSV_OK;
}

void simdsv__spec_free(const simdsv_allocator *a, spec_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        simdsv__free(a, l->items[i].text, l->items[i].size + 1);
    simdsv__free(a, l->items, l->cap * sizeof *l->items);
    memset(l, 0, sizeof *l);
}

simdsv_status simdsv__spec_copy(const simdsv_allocator *a, spec_list *dst, const spec_list *src)
{
    memset(dst, 0, sizeof *dst);
    for (size_t i = 0; i < src->count; i++) {
        const spec_item *it = &src->items[i];
        if (simdsv__spec_add(a, dst, it->text, it->size, it->index, it->key, it->type) != SIMDSV_OK) {
            simdsv__spec_free(a, dst);
            return SIMDSV_ERR_NOMEM;
        }
        dst->items[dst->count - 1].at_least = it->at_least;
    }
    return SIMDSV_OK;
}

/* Tokens are short (NA, true, NULL): a byte loop beats a call to memcmp. */
static int same_bytes(const char *a, const char *b, size_t n)
{
    while (n && *a == *b) {
        a++;
        b++;
        n--;
    }
    return n == 0;
}

int simdsv__list_contains(const spec_list *l, const char *value, size_t n)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].size == n && same_bytes(l->items[i].text, value, n))
            return 1;
    return 0;
}

long simdsv__parse_index(const char *s)
{
    if (*s == '#')
        s++;
    if (!*s)
        return -1;
    long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > 100000000)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v >= 1 ? v - 1 : -1;
}

/* Appends the decoded item text[0..n) as option id reads it; a malformed
 * one is SIMDSV_ERR_INVALID_ARGUMENT with the reason. */
static simdsv_status add_item(const simdsv_allocator *a, simdsv_string_option id, spec_list *l, char *text, size_t n,
                              char *why, size_t why_size)
{
    text[n] = '\0';
    if (id == SIMDSV_OPT_NULL_VALUES) {
        const char *eq = memchr(text, '=', n);
        return simdsv__spec_add(a, l, text, n, -1, eq ? (size_t)(eq - text) : 0, SIMDSV_TYPE_STRING);
    }
    if (id == SIMDSV_OPT_COLUMNS)
        return simdsv__spec_add(a, l, text, n, simdsv__parse_index(text), 0, SIMDSV_TYPE_STRING);
    if (id != SIMDSV_OPT_SCHEMA)
        return simdsv__spec_add(a, l, text, n, -1, 0, SIMDSV_TYPE_STRING);
    /* NAME:TYPE, split at the last colon: a name may hold colons, a type does not. */
    char *colon = strrchr(text, ':');
    if (!colon || colon == text) {
        snprintf(why, why_size, "schema item `%.60s` is not NAME:TYPE", text);
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    const int type = simdsv_type_from_name(colon + 1);
    if (type < 0) {
        snprintf(why, why_size, "unknown type '%.40s' in `%.60s`; known: %s", colon + 1, text,
                 simdsv__type_names_known());
        return SIMDSV_ERR_INVALID_ARGUMENT;
    }
    *colon = '\0';
    return simdsv__spec_add(a, l, text, (size_t)(colon - text), simdsv__parse_index(text), 0, (simdsv_type)type);
}

simdsv_status simdsv__spec_parse(const simdsv_allocator *a, simdsv_string_option id, const char *value,
                                 spec_list *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (why_size)
        why[0] = '\0';
    if (!value || !*value)
        return SIMDSV_OK;
    const size_t total = strlen(value);
    char *item = simdsv__alloc(a, total + 1);
    if (!item)
        return SIMDSV_ERR_NOMEM;
    simdsv_status st = SIMDSV_OK;
    size_t n = 0;
    for (const char *p = value; st == SIMDSV_OK; p++) {
        if (*p == '\\' && (p[1] == ',' || p[1] == '\\')) {
            item[n++] = *++p;
            continue;
        }
        if (*p != ',' && *p != '\0') {
            item[n++] = *p;
            continue;
        }
        st = add_item(a, id, out, item, n, why, why_size);
        n = 0;
        if (*p == '\0')
            break;
    }
    simdsv__free(a, item, total + 1);
    if (st != SIMDSV_OK)
        simdsv__spec_free(a, out);
    return st;
}
