/* alloc.c — every allocation of the library goes through the user's hooks. */
#include "internal.h"

#include <stdlib.h>

void *simdsv__alloc(const simdsv_allocator *a, size_t size)
{
    return a->alloc(a->ctx, size ? size : 1);
}

void *simdsv__realloc(const simdsv_allocator *a, void *ptr, size_t old_size, size_t new_size)
{
    return a->realloc(a->ctx, ptr, old_size, new_size ? new_size : 1);
}

void simdsv__free(const simdsv_allocator *a, void *ptr, size_t size)
{
    if (ptr)
        a->free(a->ctx, ptr, size ? size : 1); /* the size alloc() was asked for */
}

simdsv_status simdsv__grow(const simdsv_allocator *a, void **array, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return SIMDSV_OK;
    size_t new_cap = *cap ? *cap : 16;
    while (new_cap < need) {
        if (new_cap > SIZE_MAX / 2 / elem)
            return SIMDSV_ERR_NOMEM;
        new_cap *= 2;
    }
    void *p = simdsv__realloc(a, *array, *cap * elem, new_cap * elem);
    if (!p)
        return SIMDSV_ERR_NOMEM;
    *array = p;
    *cap = new_cap;
    return SIMDSV_OK;
}

uint64_t simdsv__test_size(const char *name, uint64_t normal)
{
    const char *env = getenv(name);
    if (!env || !*env)
        return normal;
    char *stop = NULL;
    const unsigned long long v = strtoull(env, &stop, 10);
    return stop && *stop == '\0' && v > 0 ? (uint64_t)v : normal;
}
