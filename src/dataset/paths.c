/*
 * paths.c — the files a dataset path names: a file, a folder (every file
 * under it), or a glob matched part by part.  `*`, `?` and `[..]` are
 * fnmatch()'s within one part; `**` as a whole part is any number of
 * folders.  The list is sorted by bytes, so the order of a dataset never
 * depends on the order a file system lists a folder in.
 *
 * Names starting with '.' or '_' are left out of folder walks and of a
 * glob part that does not itself start with that character (pyarrow's
 * rule: hidden files, editors' swap files, _SUCCESS markers).  Folder walks
 * do not follow links to folders (a link loop would never end); links to
 * files are followed.  A folder that cannot be listed is an error, never a
 * silent gap in the data.
 */
#define _POSIX_C_SOURCE 200809L
#include "paths.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct walk {
    const simdsv_allocator *a;
    path_list found;
    char **parts; /* the glob's parts (NULL for a folder walk only) */
    size_t nparts, parts_cap;
    int nomem;
    int os_errno;         /* the first folder that could not be listed ... */
    char failed[160];     /* ... and its path */
} walk;

static int has_magic(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

static int hidden(const char *name)
{
    return name[0] == '.' || name[0] == '_';
}

static char *copy_text(const simdsv_allocator *a, const char *s, size_t n)
{
    char *p = simdsv__alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* dir/name ("" is the current folder: name alone). */
static char *join(walk *w, const char *dir, const char *name)
{
    const size_t d = strlen(dir), n = strlen(name);
    const int slash = d && dir[d - 1] != '/';
    char *p = simdsv__alloc(w->a, d + slash + n + 1);
    if (!p) {
        w->nomem = 1;
        return NULL;
    }
    memcpy(p, dir, d);
    if (slash)
        p[d] = '/';
    memcpy(p + d + slash, name, n + 1);
    return p;
}

static void drop(walk *w, char *path)
{
    if (path)
        simdsv__free(w->a, path, strlen(path) + 1);
}

/* Takes path into the list. */
static void add(walk *w, char *path)
{
    void *items = w->found.items;
    if (simdsv__grow(w->a, &items, &w->found.cap, w->found.count + 1, sizeof *w->found.items) != SIMDSV_OK) {
        w->nomem = 1;
        drop(w, path);
        return;
    }
    w->found.items = items;
    w->found.items[w->found.count++] = path;
}

static DIR *open_folder(walk *w, const char *dir)
{
    DIR *d = opendir(*dir ? dir : ".");
    if (!d && !w->os_errno) {
        w->os_errno = errno;
        snprintf(w->failed, sizeof w->failed, "%s", *dir ? dir : ".");
    }
    return d;
}

/* Every file under dir, recursively. */
static void walk_folder(walk *w, const char *dir)
{
    DIR *d = open_folder(w, dir);
    if (!d)
        return;
    const struct dirent *e;
    while (!w->nomem && (e = readdir(d)) != NULL) {
        if (hidden(e->d_name))
            continue; /* "." and ".." too */
        char *child = join(w, dir, e->d_name);
        struct stat st;
        if (!child || lstat(child, &st) != 0) {
            drop(w, child);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            walk_folder(w, child);
            drop(w, child);
        } else if (S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && stat(child, &st) == 0 && S_ISREG(st.st_mode))) {
            add(w, child);
        } else {
            drop(w, child); /* a device, a socket, a link to a folder */
        }
    }
    closedir(d);
}

/* path matched the glob's last part: a file is taken, a folder walked. */
static void matched_last(walk *w, char *path, int is_dir)
{
    if (is_dir) {
        walk_folder(w, path);
        drop(w, path);
    } else {
        add(w, path);
    }
}

/* The glob's parts from k on, below dir. */
static void match_from(walk *w, const char *dir, size_t k)
{
    const char *part = w->parts[k];
    const int last = k + 1 == w->nparts;
    if (strcmp(part, "**") == 0) {
        if (last) {
            walk_folder(w, dir);
            return;
        }
        match_from(w, dir, k + 1); /* no folder */
        DIR *d = open_folder(w, dir);
        if (!d)
            return;
        const struct dirent *e;
        while (!w->nomem && (e = readdir(d)) != NULL) {
            if (hidden(e->d_name))
                continue;
            char *child = join(w, dir, e->d_name);
            struct stat st;
            if (child && lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
                match_from(w, child, k); /* one folder more */
            drop(w, child);
        }
        closedir(d);
        return;
    }
    if (!has_magic(part)) {
        char *child = join(w, dir, part);
        struct stat st;
        if (!child || stat(child, &st) != 0) {
            drop(w, child);
        } else if (last) {
            matched_last(w, child, S_ISDIR(st.st_mode));
        } else {
            if (S_ISDIR(st.st_mode))
                match_from(w, child, k + 1);
            drop(w, child);
        }
        return;
    }
    DIR *d = open_folder(w, dir);
    if (!d)
        return;
    const struct dirent *e;
    while (!w->nomem && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            (hidden(e->d_name) && part[0] != e->d_name[0]) || fnmatch(part, e->d_name, 0) != 0)
            continue;
        char *child = join(w, dir, e->d_name);
        struct stat st;
        if (!child || stat(child, &st) != 0) {
            drop(w, child);
        } else if (last) {
            matched_last(w, child, S_ISDIR(st.st_mode));
        } else {
            if (S_ISDIR(st.st_mode))
                match_from(w, child, k + 1);
            drop(w, child);
        }
    }
    closedir(d);
}

/* Splits the glob at '/' (empty parts dropped) into w->parts; the folder
 * it starts from is "/" for an absolute one, else "". */
static int split(walk *w, const char *pattern)
{
    for (const char *p = pattern; *p;) {
        const char *end = strchr(p, '/');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n) {
            void *parts = w->parts;
            if (simdsv__grow(w->a, &parts, &w->parts_cap, w->nparts + 1, sizeof *w->parts) != SIMDSV_OK)
                return 0;
            w->parts = parts;
            if (!(w->parts[w->nparts] = copy_text(w->a, p, n)))
                return 0;
            w->nparts++;
        }
        p += n + (end != NULL);
    }
    return 1;
}

static int by_bytes(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void set_error(simdsv_error *error, int os_errno, const char *fmt, const char *what, const char *why)
{
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->code = SIMDSV_ERR_IO;
    error->os_errno = os_errno;
    snprintf(error->message, sizeof error->message, fmt, what, why);
}

simdsv_status simdsv__paths_expand(const simdsv_allocator *a, const char *pattern, path_list *out,
                                   simdsv_error *error)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.a = a;
    struct stat st;
    const int exists = stat(pattern, &st) == 0;
    const int stat_errno = exists ? 0 : errno;
    if (exists && !S_ISDIR(st.st_mode)) {
        char *p = copy_text(a, pattern, strlen(pattern));
        if (p)
            add(&w, p);
        else
            w.nomem = 1;
    } else if (exists) {
        walk_folder(&w, pattern);
    } else if (has_magic(pattern)) {
        if (!split(&w, pattern))
            w.nomem = 1;
        else if (w.nparts)
            match_from(&w, pattern[0] == '/' ? "/" : "", 0);
    }
    for (size_t i = 0; i < w.nparts; i++)
        simdsv__free(a, w.parts[i], strlen(w.parts[i]) + 1);
    simdsv__free(a, w.parts, w.parts_cap * sizeof *w.parts);
    simdsv_status st_out = SIMDSV_OK;
    if (w.nomem) {
        st_out = SIMDSV_ERR_NOMEM;
        if (error) {
            memset(error, 0, sizeof *error);
            error->code = SIMDSV_ERR_NOMEM;
            snprintf(error->message, sizeof error->message, "%s", simdsv_status_message(SIMDSV_ERR_NOMEM));
        }
    } else if (w.os_errno) {
        st_out = SIMDSV_ERR_IO;
        set_error(error, w.os_errno, "the folder '%.160s' cannot be listed: %.60s", w.failed, strerror(w.os_errno));
    } else if (!w.found.count) {
        st_out = SIMDSV_ERR_IO;
        if (!exists && !has_magic(pattern))
            set_error(error, stat_errno, "'%.200s': %.40s", pattern, strerror(stat_errno));
        else
            set_error(error, ENOENT, exists ? "no file in the folder '%.200s'%s" : "no file matches '%.200s'%s",
                      pattern, "");
    }
    if (st_out == SIMDSV_OK) {
        qsort(w.found.items, w.found.count, sizeof *w.found.items, by_bytes);
        size_t kept = 0; /* `**` may reach a file by two routes: once each */
        for (size_t i = 0; i < w.found.count; i++) {
            if (kept && strcmp(w.found.items[kept - 1], w.found.items[i]) == 0)
                drop(&w, w.found.items[i]);
            else
                w.found.items[kept++] = w.found.items[i];
        }
        w.found.count = kept;
        void *items = out->items;
        if (simdsv__grow(a, &items, &out->cap, out->count + kept, sizeof *out->items) != SIMDSV_OK) {
            st_out = SIMDSV_ERR_NOMEM;
        } else {
            out->items = items;
            memcpy(out->items + out->count, w.found.items, kept * sizeof *w.found.items);
            out->count += kept;
            w.found.count = 0; /* moved */
        }
    }
    simdsv__paths_free(a, &w.found);
    return st_out;
}

void simdsv__paths_free(const simdsv_allocator *a, path_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        simdsv__free(a, list->items[i], strlen(list->items[i]) + 1);
    simdsv__free(a, list->items, list->cap * sizeof *list->items);
    memset(list, 0, sizeof *list);
}
