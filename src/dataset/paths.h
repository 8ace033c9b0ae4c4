/*
 * paths.h — a dataset's paths, globs and folders made a sorted list of
 * files (paths.c).  Nothing here opens a file for reading.
 */
#ifndef SIMDSV_DATASET_PATHS_H
#define SIMDSV_DATASET_PATHS_H

#include "../common/internal.h"

typedef struct path_list {
    char **items; /* NUL-terminated, each allocated with its strlen + 1 */
    size_t count, cap;
} path_list;

/* Appends to *out the files `pattern` names (a file, a folder walked
 * recursively, or a glob; see simdsv_dataset_add_path), sorted by their
 * bytes, each once.  SIMDSV_ERR_IO with error (its message naming the
 * pattern) when it names nothing; NOMEM.  On failure *out is unchanged. */
simdsv_status simdsv__paths_expand(const simdsv_allocator *a, const char *pattern, path_list *out,
                                   simdsv_error *error);
void simdsv__paths_free(const simdsv_allocator *a, path_list *list);

#endif
