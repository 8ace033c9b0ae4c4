/*
 * infer.c — the kind of a single field, and the join of two kinds (rules at
 * the declarations in values.h).
 *
 * The first byte routes the field: a digit, sign or '.' to the numbers
 * (and, with a '-' at offset 4, to dates and timestamps), a letter to the
 * bool tokens and the nan/inf spellings, anything else straight to string.
 */
#include "values.h"
#include "values_internal.h"

#define ABS_MASK 0x7FFFFFFFFFFFFFFFu
#define INF_BITS 0x7FF0000000000000u

const char *simdsv__infer_reason_text(simdsv__infer_reason why)
{
    switch (why) {
    case SIMDSV__WHY_NONE: return "";
    case SIMDSV__WHY_TEXT: return "not a number, bool, date or timestamp";
    case SIMDSV__WHY_QUOTED: return "quoted";
    case SIMDSV__WHY_LEADING_ZERO: return "leading zero";
    case SIMDSV__WHY_INT_RANGE: return "integer does not fit int64";
    case SIMDSV__WHY_FLOAT_OVERFLOW: return "overflows float64";
    case SIMDSV__WHY_FLOAT_UNDERFLOW: return "underflows float64";
    case SIMDSV__WHY_INVALID_DATE: return "invalid date";
    case SIMDSV__WHY_INVALID_TIMESTAMP: return "invalid timestamp";
    case SIMDSV__WHY_DECIMAL_POINT: return "decimal point where the decimal mark is a comma";
    }
    return "unknown reason";
}

static const char *const type_names[SIMDSV_TYPE_COUNT] = {"null", "bool", "int64", "float64",
                                                           "date", "timestamp", "string"};

const char *simdsv_type_name(simdsv_type type)
{
    return (unsigned)type < SIMDSV_TYPE_COUNT ? type_names[type] : NULL;
}

const char *simdsv__type_names_known(void)
{
    return "null bool int64 float64 date timestamp string (or int, integer, float, double, str, text, boolean, "
           "datetime)";
}

int simdsv_type_from_name(const char *name)
{
    static const struct {
        const char *alias;
        simdsv_type type;
    } aliases[] = {{"int", SIMDSV_TYPE_INT64},     {"integer", SIMDSV_TYPE_INT64}, {"float", SIMDSV_TYPE_FLOAT64},
                   {"double", SIMDSV_TYPE_FLOAT64}, {"str", SIMDSV_TYPE_STRING},    {"text", SIMDSV_TYPE_STRING},
                   {"boolean", SIMDSV_TYPE_BOOL},   {"datetime", SIMDSV_TYPE_TIMESTAMP}};
    if (!name)
        return -1;
    for (int t = 0; t < SIMDSV_TYPE_COUNT; t++)
        if (strcmp(name, type_names[t]) == 0)
            return t;
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(name, aliases[i].alias) == 0)
            return aliases[i].type;
    return -1;
}

/* Is there a nonzero digit before the exponent? (for "0.000e5" vs "1e-400") */
static bool has_nonzero_digit(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == 'e' || s[i] == 'E')
            break;
        if (s[i] >= '1' && s[i] <= '9')
            return true;
    }
    return false;
}

static simdsv_type infer_number(const char *s, size_t n, simdsv__infer_reason *why)
{
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;

    /* digits only: int64 or nothing */
    size_t j = i;
    while (j < n && simdsv__is_digit((unsigned char)s[j]))
        j++;
    if (j == n && j > i) {
        int64_t v;
        if (simdsv__int_has_leading_zero(s, n)) {
            *why = SIMDSV__WHY_LEADING_ZERO;
            return SIMDSV_TYPE_STRING;
        }
        if (simdsv__parse_int64(s, n, &v))
            return SIMDSV_TYPE_INT64;
        *why = SIMDSV__WHY_INT_RANGE;
        return SIMDSV_TYPE_STRING;
    }

    double d;
    if (!simdsv__parse_double(s, n, &d)) {
        *why = SIMDSV__WHY_TEXT;
        return SIMDSV_TYPE_STRING;
    }
    if (i < n && (simdsv__is_digit((unsigned char)s[i]) || s[i] == '.')) {
        /* a decimal literal, not a nan/inf spelling */
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        bits &= ABS_MASK;
        if (simdsv__int_has_leading_zero(s, n)) {
            *why = SIMDSV__WHY_LEADING_ZERO;
            return SIMDSV_TYPE_STRING;
        }
        if (bits == INF_BITS) {
            *why = SIMDSV__WHY_FLOAT_OVERFLOW;
            return SIMDSV_TYPE_STRING;
        }
        if (bits == 0 && has_nonzero_digit(s, n)) {
            *why = SIMDSV__WHY_FLOAT_UNDERFLOW;
            return SIMDSV_TYPE_STRING;
        }
    }
    return SIMDSV_TYPE_FLOAT64;
}

simdsv_type simdsv__infer_field(const char *s, size_t n, unsigned flags,
                                      simdsv__infer_reason *why)
{
    simdsv__infer_reason dummy;
    if (why == NULL)
        why = &dummy;
    *why = SIMDSV__WHY_NONE;

    if (flags & SIMDSV_FIELD_QUOTED) {
        *why = SIMDSV__WHY_QUOTED;
        return SIMDSV_TYPE_STRING;
    }
    if (n == 0)
        return SIMDSV_TYPE_NULL;

    unsigned char c = (unsigned char)s[0];
    if (simdsv__is_digit(c) || c == '-' || c == '+' || c == '.') {
        if (n >= 10 && simdsv__is_digit(c) && s[4] == '-') {
            if (n == 10) {
                int32_t days;
                switch (simdsv__scan_date(s, n, &days)) {
                case SIMDSV__TIME_OK: return SIMDSV_TYPE_DATE;
                case SIMDSV__TIME_RANGE: *why = SIMDSV__WHY_INVALID_DATE; return SIMDSV_TYPE_STRING;
                case SIMDSV__TIME_SYNTAX: break;
                }
            } else {
                int64_t us;
                switch (simdsv__scan_timestamp(s, n, &us)) {
                case SIMDSV__TIME_OK: return SIMDSV_TYPE_TIMESTAMP;
                case SIMDSV__TIME_RANGE:
                    *why = SIMDSV__WHY_INVALID_TIMESTAMP;
                    return SIMDSV_TYPE_STRING;
                case SIMDSV__TIME_SYNTAX: break;
                }
            }
            *why = SIMDSV__WHY_TEXT;
            return SIMDSV_TYPE_STRING;
        }
        return infer_number(s, n, why);
    }

    bool b;
    if (simdsv__parse_bool(s, n, NULL, &b))
        return SIMDSV_TYPE_BOOL;
    double d;
    if ((c | 0x20) == 'n' || (c | 0x20) == 'i') {
        if (simdsv__parse_double(s, n, &d))
            return SIMDSV_TYPE_FLOAT64;
    }
    *why = SIMDSV__WHY_TEXT;
    return SIMDSV_TYPE_STRING;
}

simdsv_type simdsv__kind_join(simdsv_type a, simdsv_type b)
{
    if (a == b)
        return a;
    if (a == SIMDSV_TYPE_NULL)
        return b;
    if (b == SIMDSV_TYPE_NULL)
        return a;
    if (a > b) {
        simdsv_type t = a;
        a = b;
        b = t;
    }
    if (a == SIMDSV_TYPE_INT64 && b == SIMDSV_TYPE_FLOAT64)
        return SIMDSV_TYPE_FLOAT64;
    if (a == SIMDSV_TYPE_DATE && b == SIMDSV_TYPE_TIMESTAMP)
        return SIMDSV_TYPE_TIMESTAMP;
    return SIMDSV_TYPE_STRING;
}
