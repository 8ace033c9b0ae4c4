/*
 * bool.c — bool fields: the caller's token lists, or the default ones.
 */
#include "values.h"

#include <string.h>

static const simdsv__token default_true[] = {{"true", 4}, {"True", 4}, {"TRUE", 4}};
static const simdsv__token default_false[] = {{"false", 5}, {"False", 5}, {"FALSE", 5}};

const simdsv__bool_tokens simdsv__bool_tokens_default = {
    default_true, sizeof default_true / sizeof default_true[0],
    default_false, sizeof default_false / sizeof default_false[0]};

static bool in_list(const char *s, size_t n, const simdsv__token *list, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (list[i].n == n && (n == 0 || memcmp(list[i].s, s, n) == 0))
            return true;
    }
    return false;
}

/* The six default spellings, without walking a list. */
static bool parse_default(const char *s, size_t n, bool *out)
{
    if (n == 4) {
        if (memcmp(s, "true", 4) == 0 || memcmp(s, "True", 4) == 0 || memcmp(s, "TRUE", 4) == 0) {
            *out = true;
            return true;
        }
    } else if (n == 5) {
        if (memcmp(s, "false", 5) == 0 || memcmp(s, "False", 5) == 0 ||
            memcmp(s, "FALSE", 5) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

bool simdsv__parse_bool(const char *s, size_t n, const simdsv__bool_tokens *tokens, bool *out)
{
    if (tokens == NULL || tokens == &simdsv__bool_tokens_default)
        return parse_default(s, n, out);
    if (in_list(s, n, tokens->true_tokens, tokens->true_count)) {
        *out = true;
        return true;
    }
    if (in_list(s, n, tokens->false_tokens, tokens->false_count)) {
        *out = false;
        return true;
    }
    return false;
}
