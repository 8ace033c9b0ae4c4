/* search.h — what cmd_search.c shares with the fast path (fast.c). */
#ifndef SIMDSV_CLI_SEARCH_H
#define SIMDSV_CLI_SEARCH_H

#include "cli.h"

#include <regex.h>

typedef struct search_args {
    const char *pattern;
    const char *columns; /* -c SEL, or NULL for every column */
    bool regex, icase, invert;
    bool re_ok;
    regex_t re;
    literal lit;
    bool raw_prefilter;  /* the literal can be looked for in raw record bytes */
    size_t *cols, ncols; /* resolved -c, or NULL */
} search_args;

bool search_text(const search_args *a, const char *s, size_t n);
bool search_record(const search_args *a, text_buffer *tb, const simdsv_record *rec);
int search_run(cli_common *c, search_args *a);

#endif
