/* selector.c — column selectors, shared by select, search -c and
 * frequency --select.
 *
 *   SEL   := ITEM (',' ITEM)*
 *   ITEM  := ['!'] TERM | ['!'] [TERM] '-' [TERM]
 *   TERM  := INDEX (1-based) | NAME | NAME '[' K ']' (K-th column named NAME)
 *            | '"' NAME '"' ['[' K ']']
 *
 * A name that is exactly a header name always means that column (so names
 * holding '-' or digits work); a range runs from its first to its last term,
 * backwards when the first is after the last, and an open end means the
 * first or the last column.  Items without '!' are taken in order (repeats
 * allowed); '!' items are then removed; a selector of only '!' items starts
 * from every column. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sel_ctx {
    const char *command;
    const name_list *header;
    size_t width;
} sel_ctx;

static int sel_error(const sel_ctx *s, const char *fmt, const char *a, size_t alen)
{
    progress_erase();
    fprintf(stderr, "simdsv %s: ", s->command);
    fprintf(stderr, fmt, (int)alen, a);
    fputc('\n', stderr);
    return -1;
}

static bool all_digits(const char *p, size_t n)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return false;
    return true;
}

static size_t parse_size(const char *p, size_t n)
{
    size_t v = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t d = (size_t)(p[i] - '0');
        if (v > (SIZE_MAX - d) / 10)
            return SIZE_MAX;
        v = v * 10 + d;
    }
    return v;
}

/* The k-th (1-based) column named p[0..n), or -1. */
static long find_name(const sel_ctx *s, const char *p, size_t n, size_t k)
{
    if (!s->header)
        return -1;
    for (size_t i = 0; i < s->header->count; i++)
        if (s->header->lens[i] == n && memcmp(s->header->names[i], p, n) == 0 && --k == 0)
            return (long)i;
    return -1;
}

/* One term: a column index (0-based), -1 when it is not a column (quiet),
 * or -2 after an error message. */
static long term(const sel_ctx *s, const char *p, size_t n, bool report)
{
    long col;
    /* "NAME" or "NAME"[K] */
    if (n >= 2 && p[0] == '"') {
        const char *close = memchr(p + 1, '"', n - 1);
        if (close) {
            const size_t name_len = (size_t)(close - p - 1);
            const char *rest = close + 1;
            const size_t rest_len = n - (size_t)(rest - p);
            size_t k = 1;
            if (rest_len) {
                if (rest_len < 3 || rest[0] != '[' || rest[rest_len - 1] != ']' || !all_digits(rest + 1, rest_len - 2))
                    return report ? (sel_error(s, "invalid column selector '%.*s'", p, n), -2) : -1;
                k = parse_size(rest + 1, rest_len - 2);
            }
            col = k ? find_name(s, p + 1, name_len, k) : -1;
            if (col < 0 && report) {
                sel_error(s, s->header ? "no column named %.*s" : "column names need a header (without --no-header): %.*s",
                          p, n);
                return -2;
            }
            return col;
        }
    }
    if ((col = find_name(s, p, n, 1)) >= 0)
        return col;
    if (all_digits(p, n)) {
        const size_t idx = parse_size(p, n);
        if (idx >= 1 && idx <= s->width)
            return (long)(idx - 1);
        if (report) {
            progress_erase();
            fprintf(stderr, "simdsv %s: column %.*s is out of range (there %s %zu column%s)\n", s->command, (int)n, p,
                    s->width == 1 ? "is" : "are", s->width, s->width == 1 ? "" : "s");
            return -2;
        }
        return -1;
    }
    /* NAME[K] */
    if (n >= 4 && p[n - 1] == ']') {
        const char *open = NULL;
        for (size_t i = n - 1; i-- > 0;)
            if (p[i] == '[') {
                open = p + i;
                break;
            }
        if (open && open > p && all_digits(open + 1, (size_t)(p + n - 1 - open - 1))) {
            const size_t k = parse_size(open + 1, (size_t)(p + n - 1 - open - 1));
            col = k ? find_name(s, p, (size_t)(open - p), k) : -1;
            if (col >= 0)
                return col;
        }
    }
    if (report) {
        if (!s->header)
            sel_error(s, "column names need a header (without --no-header): '%.*s'", p, n);
        else
            sel_error(s, "no column named '%.*s'", p, n);
        return -2;
    }
    return -1;
}

typedef struct col_list {
    size_t *v;
    size_t n, cap;
} col_list;

static bool push(col_list *l, size_t col)
{
    if (l->n == l->cap) {
        const size_t cap = l->cap ? l->cap * 2 : 16;
        size_t *grown = realloc(l->v, cap * sizeof *grown);
        if (!grown)
            return false;
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = col;
    return true;
}

/* Appends the columns of one item (without its '!'); false after an error. */
static bool item(const sel_ctx *s, const char *p, size_t n, col_list *out)
{
    if (!n) {
        sel_error(s, "empty column selector%.*s", "", 0);
        return false;
    }
    long col = term(s, p, n, false);
    if (col >= 0)
        return push(out, (size_t)col);
    /* A range: try each '-' (outside a quoted name) until both ends resolve. */
    bool quoted = false;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"')
            quoted = !quoted;
        if (p[i] != '-' || quoted)
            continue;
        long a = i == 0 ? 0 : term(s, p, i, false);
        long b = i + 1 == n ? (long)s->width - 1 : term(s, p + i + 1, n - i - 1, false);
        if (a < 0 || b < 0 || s->width == 0)
            continue;
        if (a <= b) {
            for (long c = a; c <= b; c++)
                if (!push(out, (size_t)c))
                    return false;
        } else {
            for (long c = a; c >= b; c--)
                if (!push(out, (size_t)c))
                    return false;
        }
        return true;
    }
    /* Not a range: report why the whole item is no column. */
    col = term(s, p, n, true);
    if (col >= 0)
        return push(out, (size_t)col);
    return false;
}

size_t *selector_resolve(const char *command, const char *sel, const name_list *header, size_t width,
                         size_t *count, int *status)
{
    sel_ctx s = {command, header, header ? header->count : width};
    col_list pos = {0}, neg = {0};
    bool any_pos = false, ok = true;
    const char *p = sel;
    for (;;) {
        /* An item ends at a comma outside double quotes. */
        const char *e = p;
        bool quoted = false;
        while (*e && (quoted || *e != ',')) {
            if (*e == '"')
                quoted = !quoted;
            e++;
        }
        const bool negative = *p == '!';
        const char *q = negative ? p + 1 : p;
        if (!negative)
            any_pos = true;
        if (!item(&s, q, (size_t)(e - q), negative ? &neg : &pos)) {
            ok = false;
            break;
        }
        if (!*e)
            break;
        p = e + 1;
    }
    size_t *result = NULL;
    *count = 0;
    if (ok) {
        if (!any_pos)
            for (size_t c = 0; c < s.width && ok; c++)
                ok = push(&pos, c);
        result = malloc((pos.n + 1) * sizeof *result);
        if (ok && result) {
            for (size_t i = 0; i < pos.n; i++) {
                bool excluded = false;
                for (size_t j = 0; j < neg.n && !excluded; j++)
                    excluded = neg.v[j] == pos.v[i];
                if (!excluded)
                    result[(*count)++] = pos.v[i];
            }
            if (*count == 0) {
                sel_error(&s, "the selection '%.*s' leaves no column", sel, strlen(sel));
                free(result);
                result = NULL;
            }
        } else {
            free(result);
            result = NULL;
            cli_error("out of memory");
        }
    }
    free(pos.v);
    free(neg.v);
    *status = EXIT_USAGE;
    return result;
}
