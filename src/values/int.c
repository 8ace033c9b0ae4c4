/*
 * int.c — int64 fields: [+-]?[0-9]+, exact range check.  The parser is
 * simdsv__int64_inline (fast.h), which the column loops inline.
 */
#include "values.h"
#include "values_internal.h"
#include "fast.h"

bool simdsv__parse_int64(const char *s, size_t n, int64_t *out)
{
    return simdsv__int64_inline(s, n, out);
}

bool simdsv__int_has_leading_zero(const char *s, size_t n)
{
    size_t i = 0;
    if (n > 0 && (s[0] == '-' || s[0] == '+'))
        i = 1;
    return n - i >= 2 && s[i] == '0' && simdsv__is_digit((unsigned char)s[i + 1]);
}
