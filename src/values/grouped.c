/*
 * grouped.c — numbers written with a digit-group ("thousands") separator:
 * 1,234,567 and 1,234.56, or 1.234.567 and 1.234,56 with a decimal comma
 * (SIMDSV_OPT_THOUSANDS).  The groups are checked, the separators dropped,
 * and the digits handed to the plain parsers, so the values are exactly
 * those of the same number written without separators.
 */
#include "values.h"

#include <string.h>

/* The longest grouped literal read: far past any int64 or any float64 a
 * person writes with separators; a longer text is not such a number. */
#define GROUPED_MAX 128

/* Copies s without its separators into out when s is [+-]? D{1,3} (SEP D{3})+
 * followed by nothing or by the decimal mark and digits; the first group
 * does not start with 0 (0,123 is no thousands grouping).  Returns the
 * length copied, 0 when s is not such a number. */
static size_t strip_groups(const char *s, size_t n, char sep, char decimal, char *out)
{
    if (n == 0 || n > GROUPED_MAX)
        return 0;
    size_t i = 0, o = 0;
    if (s[0] == '+' || s[0] == '-')
        out[o++] = s[i++];
    const size_t first = i;
    while (i < n && s[i] >= '0' && s[i] <= '9' && i - first < 4)
        out[o++] = s[i++];
    if (i == first || i - first > 3 || s[first] == '0')
        return 0;
    size_t groups = 0;
    while (i < n && s[i] == sep) {
        i++;
        for (int d = 0; d < 3; d++, i++) {
            if (i >= n || s[i] < '0' || s[i] > '9')
                return 0;
            out[o++] = s[i];
        }
        groups++;
    }
    if (!groups)
        return 0;
    if (i < n) {
        if (s[i] != decimal || i + 1 == n)
            return 0;
        out[o++] = s[i++];
        for (; i < n; i++) {
            if (s[i] < '0' || s[i] > '9')
                return 0;
            out[o++] = s[i];
        }
    }
    return o;
}

bool simdsv__parse_int64_grouped(const char *s, size_t n, char sep, int64_t *out)
{
    char digits[GROUPED_MAX];
    const size_t len = strip_groups(s, n, sep, '\0', digits);
    return len && simdsv__parse_int64(digits, len, out);
}

bool simdsv__parse_double_grouped(const char *s, size_t n, char sep, bool decimal_comma, double *out)
{
    const char decimal = decimal_comma ? ',' : '.';
    if (sep == decimal)
        return false;
    char digits[GROUPED_MAX];
    const size_t len = strip_groups(s, n, sep, decimal, digits);
    if (!len)
        return false;
    return decimal_comma ? simdsv__parse_double_comma(digits, len, out) : simdsv__parse_double(digits, len, out);
}
