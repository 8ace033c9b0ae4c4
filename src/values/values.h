/*
 * values.h — the value layer of the typed reader: field text to typed values
 * (int64, float64, bool, date, timestamp) and the inference of a field's kind.
 *
 * Every parser takes the field's bytes exactly as the reader hands them out
 * (s, n: not NUL-terminated, never read past s + n), accepts the whole field
 * or nothing (no leading or trailing whitespace, no partial parse), and
 * writes *out only on success.  Nothing allocates, prints or keeps state;
 * every function is safe to call from any number of threads.
 *
 * The rules, in one place (docs and tests follow this list):
 *
 *  int64     [+-]?[0-9]+ ; "+5" is 5, "-0" is 0; leading zeros parse
 *            ("007" is 7: the column was declared or inferred int64, so the
 *            zeros carry no meaning); out of range is a failure, never a
 *            wrap: INT64_MIN parses, INT64_MAX + 1 does not.
 *  float64   [+-]? ( D+ [.D*] | .D+ ) ( [eE] [+-]? D+ )?  or, any case, with an
 *            optional sign: nan, inf, infinity.  The result is bit for bit
 *            what a correctly rounding strtod (glibc) gives in the default
 *            round-to-nearest-even mode: -0.0 for "-0", subnormals, +-inf
 *            beyond DBL_MAX ("1e400"), 0 below half the smallest subnormal
 *            ("1e-400").  "-nan" is a NaN with the sign bit set, as glibc.
 *            Any number of digits and any exponent are read exactly (time
 *            linear in the length).  Assumes the default floating-point
 *            rounding mode; do not build the library with -ffast-math.
 *            The _comma variant reads "," as the decimal separator (and
 *            then "." is an error); thousands separators are read by the
 *            _grouped variants only (below).
 *  bool      the caller's tokens, compared byte for byte; by default
 *            true/True/TRUE and false/False/FALSE.
 *  date      YYYY-MM-DD, years 0000..9999 (proleptic Gregorian calendar),
 *            as days since 1970-01-01.  Invalid days (2023-02-29, 2024-02-30,
 *            month 13, day 00) are errors.
 *  timestamp YYYY-MM-DD, optionally followed by [Tt ]HH:MM[:SS[.F]] and then
 *            optionally by a zone Z, z, +HH:MM, -HH:MM, +HHMM or -HHMM; F is 1 to
 *            9 digits.  The result is microseconds since 1970-01-01T00:00:00Z:
 *            a time without a zone is taken as UTC; an offset is subtracted
 *            (10:00+02:00 is 08:00Z).  Hours 00..23, minutes 00..59, seconds
 *            00..59: a leap second (:60) is an error, because epoch
 *            microseconds (like POSIX time) cannot represent it and mapping it
 *            to :59 or to the next minute would silently change the text.
 *            Offsets: hours 00..23, minutes 00..59.  Digits of the fraction
 *            beyond the sixth (below a microsecond) are dropped; since the
 *            fraction is always added to a whole second, this rounds the
 *            instant toward negative infinity, also before 1970.  A date
 *            alone is midnight UTC (a column inferred as timestamp may hold
 *            date-only values: date v timestamp = timestamp).
 *
 * Inference (simdsv__infer_field) and the join of kinds are described at
 * their declarations below.
 */
#ifndef SIMDSV_VALUES_H
#define SIMDSV_VALUES_H

#include "simdsv.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------- kinds */

/* The kind of a value is the public simdsv_type (simdsv.h): one enum, whose
 * names (simdsv_type_name) live in infer.c with the rules that produce it.
 * SIMDSV_TYPE_NULL is an empty unquoted field; dates are int32 days since
 * 1970-01-01, timestamps int64 microseconds since 1970-01-01T00:00:00Z. */

/* Why a field was inferred as it was (mostly: why it is a string although
 * it looks like something narrower).  simdsv__infer_reason_text gives the
 * short English phrase used in messages and tests. */
typedef enum simdsv__infer_reason {
    SIMDSV__WHY_NONE = 0,          /* ""                           the kind is what the text says */
    SIMDSV__WHY_TEXT = 1,          /* "not a number, bool, date or timestamp" */
    SIMDSV__WHY_QUOTED = 2,        /* "quoted"                      a quoted field is a string */
    SIMDSV__WHY_LEADING_ZERO = 3,  /* "leading zero"                00501, -01, 00.5: an identifier */
    SIMDSV__WHY_INT_RANGE = 4,     /* "integer does not fit int64"  digits would be lost as float64 */
    SIMDSV__WHY_FLOAT_OVERFLOW = 5,/* "overflows float64"           1e400 would become inf */
    SIMDSV__WHY_FLOAT_UNDERFLOW = 6,/* "underflows float64"         1e-400 would become 0 */
    SIMDSV__WHY_INVALID_DATE = 7,  /* "invalid date"                2024-02-30 */
    SIMDSV__WHY_INVALID_TIMESTAMP = 8, /* "invalid timestamp"       2024-01-01T24:00 */
    SIMDSV__WHY_DECIMAL_POINT = 9  /* "decimal point where the decimal mark is a comma"  1.5 with decimal comma */
} simdsv__infer_reason;

const char *simdsv__infer_reason_text(simdsv__infer_reason why);

/* "null bool int64 float64 date timestamp string": the names
 * simdsv_type_from_name knows, for messages. */
const char *simdsv__type_names_known(void);

/* The kind of one field.  flags are the reader's field flags
 * (SIMDSV_FIELD_QUOTED matters; the others are ignored).  why may be NULL.
 *
 *  - empty and unquoted: NULL; empty and quoted (""): STRING (an empty
 *    string is a value, a missing one is not).
 *  - quoted and not empty: STRING, reason "quoted" — like Polars, "123" in
 *    quotes is text.
 *  - the default bool tokens: BOOL.
 *  - an int64 literal: INT64 ("+5", "-0" included).  With a leading zero
 *    (00501, -01): STRING, "leading zero".  Digits only but out of int64
 *    range: STRING, "integer does not fit int64" — never FLOAT64, which
 *    would silently lose digits.
 *  - a float64 literal: FLOAT64, including nan/inf spellings.  A leading
 *    zero in the integer part (00.5, 01e3) is STRING, "leading zero"
 *    (section numbers like 01.10 would lose their text).  A finite literal
 *    that overflows to +-inf (1e400) is STRING, "overflows float64"; a
 *    nonzero literal that rounds to 0 (1e-400) is STRING, "underflows
 *    float64": no value is silently turned into another kind of value.
 *  - YYYY-MM-DD: DATE; the same shape with an impossible day or month
 *    (2024-02-30): STRING, "invalid date".
 *  - a timestamp (see the rules above): TIMESTAMP; the right shape with
 *    values out of range (hour 24, second 60, invalid date): STRING,
 *    "invalid timestamp".
 *  - anything else, including any leading or trailing space: STRING,
 *    "not a number, bool, date or timestamp".
 * The reason is SIMDSV__WHY_NONE whenever the kind is not STRING. */
simdsv_type simdsv__infer_field(const char *s, size_t n, unsigned flags,
                                      simdsv__infer_reason *why);

/* The least kind that holds both (the join of the lattice):
 *   null < bool, int64, date, ... (null joins to the other kind);
 *   int64 v float64 = float64; date v timestamp = timestamp;
 *   bool v (int64 | float64) = string; (date | timestamp) v (bool | int64 |
 *   float64) = string; string v anything = string. */
simdsv_type simdsv__kind_join(simdsv_type a, simdsv_type b);

/* ---------------------------------------------------------------- integers */

bool simdsv__parse_int64(const char *s, size_t n, int64_t *out);

/* True when, after an optional sign, the text starts with '0' followed by
 * another digit ("00501", "-01", "00.5"); "0", "-0", "0.5", "0e5" are false. */
bool simdsv__int_has_leading_zero(const char *s, size_t n);

/* ------------------------------------------------------------------ floats */

bool simdsv__parse_double(const char *s, size_t n, double *out);
bool simdsv__parse_double_comma(const char *s, size_t n, double *out);

/* A number with digit-group separators (grouped.c, SIMDSV_OPT_THOUSANDS):
 * [+-]? D{1,3} (SEP D{3})+, the first group not starting with 0, then for
 * a float64 optionally the decimal mark ('.', or ',' with decimal_comma) and
 * digits.  No exponent, no nan/inf.  Without a separator it is false: the
 * plain parsers read such text.  The value is that of the digits without
 * the separators (1,234.5 is exactly 1234.5). */
bool simdsv__parse_int64_grouped(const char *s, size_t n, char sep, int64_t *out);
bool simdsv__parse_double_grouped(const char *s, size_t n, char sep, bool decimal_comma, double *out);

/* -------------------------------------------------------------------- bool */

/* A token: bytes and length (not NUL-terminated). */
typedef struct simdsv__token {
    const char *s;
    size_t n;
} simdsv__token;

/* The spellings of true and false; compared byte for byte (list each case
 * variant you accept).  A text in both lists is true. */
typedef struct simdsv__bool_tokens {
    const simdsv__token *true_tokens;
    size_t true_count;
    const simdsv__token *false_tokens;
    size_t false_count;
} simdsv__bool_tokens;

/* true/True/TRUE, false/False/FALSE. */
extern const simdsv__bool_tokens simdsv__bool_tokens_default;

/* tokens == NULL means simdsv__bool_tokens_default (with a fast path). */
bool simdsv__parse_bool(const char *s, size_t n, const simdsv__bool_tokens *tokens, bool *out);

/* -------------------------------------------------------- dates and times */

/* Results of the detailed date/time parsers: the shape is wrong, or the shape
 * is right but a value is out of range (2024-02-30, 25:00). */
typedef enum simdsv__time_result {
    SIMDSV__TIME_OK = 0,
    SIMDSV__TIME_SYNTAX = 1,
    SIMDSV__TIME_RANGE = 2
} simdsv__time_result;

simdsv__time_result simdsv__scan_date(const char *s, size_t n, int32_t *days);
simdsv__time_result simdsv__scan_timestamp(const char *s, size_t n, int64_t *micros);

/* A date in another order (SIMDSV_OPT_DATE_ORDER): D/M/Y, M/D/Y or Y/M/D with
 * '/', '.' or '-' between (the same one twice), 1- or 2-digit day and month,
 * 2- or 4-digit year (2 digits: 69-99 are 19xx, 00-68 are 20xx, as POSIX
 * %y), optionally followed by [ T]H:MM[:SS] and an optional AM/PM (then
 * hours 1..12).  *micros is the instant (UTC, as ISO values without a zone);
 * *has_time says whether a time was there.  SYNTAX for ISO order. */
simdsv__time_result simdsv__scan_ordered(const char *s, size_t n, simdsv_date_order order, int64_t *micros,
                                         bool *has_time);

bool simdsv__parse_date(const char *s, size_t n, int32_t *days);
bool simdsv__parse_timestamp(const char *s, size_t n, int64_t *micros);
/* Whether an ISO timestamp's text ends with a zone offset ('Z', +HH:MM,
 * -HHMM): its column is then read as UTC instants; without one, as naive
 * (wall-clock) timestamps.  Only the shape after the time is looked at. */
bool simdsv__timestamp_has_offset(const char *s, size_t n);

/* Days of the month (0 for a month outside 1..12); days since 1970-01-01
 * are simdsv__civil_days (values_internal.h). */
int simdsv__days_in_month(int32_t year, int month);

#endif
