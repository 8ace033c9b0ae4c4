/* spec.c — parsing of the typed reader's string options. */
#include "spec.h"

#include <stdlib.h>
#include <string.h>

simdsv_status simdsv__list_parse(const simdsv_allocator *a, const char *s, string_list *out)
{
    memset(out, 0, sizeof *out);
    if (!s || !*s)
        return SIMDSV_OK;
    size_t max_items = 1;
    for (const char *p = s; *p; p++)
        max_items += *p == ',';
    const size_t total = strlen(s) + 1;
    out->items = simdsv__alloc(a, max_items * sizeof *out->items);
    out->lens = simdsv__alloc(a, max_items * sizeof *out->lens);
    char *text = simdsv__alloc(a, total + max_items);
    if (!out->items || !out->lens || !text) {
        simdsv__free(a, out->items, max_items * sizeof *out->items);
        simdsv__free(a, out->lens, max_items * sizeof *out->lens);
        simdsv__free(a, text, total + max_items);
        memset(out, 0, sizeof *out);
        return SIMDSV_ERR_NOMEM;
    }
    out->capacity = max_items;
    out->block = text;
    out->block_size = total + max_items;
    /* One block holds every item; items[0] owns it. */
    char *w = text;
    out->items[0] = w;
    for (const char *p = s;; p++) {
        if (*p == '\\' && (p[1] == ',' || p[1] == '\\')) {
            *w++ = *++p;
            continue;
        }
        if (*p == ',' || *p == '\0') {
            out->lens[out->count] = (size_t)(w - out->items[out->count]);
            *w++ = '\0';
            out->count++;
            if (*p == '\0')
                break;
            out->items[out->count] = w;
            continue;
        }
        *w++ = *p;
    }
    return SIMDSV_OK;
}

void simdsv__list_free(const simdsv_allocator *a, string_list *l)
{
    if (l->capacity) {
        simdsv__free(a, l->block, l->block_size);
        simdsv__free(a, l->items, l->capacity * sizeof *l->items);
        simdsv__free(a, l->lens, l->capacity * sizeof *l->lens);
    }
    memset(l, 0, sizeof *l);
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

int simdsv__list_contains(const string_list *l, const char *value, size_t n)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->lens[i] == n && same_bytes(l->items[i], value, n))
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

int simdsv__schema_valid(const char *spec)
{
    /* Every item must be NAME:TYPE with a known type. */
    const char *item = spec;
    for (;;) {
        const char *end = item;
        const char *colon = NULL;
        while (*end && !(*end == ',' && (end == spec || end[-1] != '\\'))) {
            if (*end == ':')
                colon = end;
            end++;
        }
        if (!colon || colon == item)
            return 0;
        char type[16];
        const size_t n = (size_t)(end - colon - 1);
        if (n == 0 || n >= sizeof type)
            return 0;
        memcpy(type, colon + 1, n);
        type[n] = '\0';
        if (simdsv_type_from_name(type) < 0)
            return 0;
        if (!*end)
            return 1;
        item = end + 1;
    }
}
