/* status.c — names and messages of the status codes, and the version. */
#include "internal.h"

typedef struct status_text {
    const char *name;
    const char *message;
} status_text;

/* Indexed by code; codes are never renumbered, so neither is this table. */
static const status_text status_texts[] = {
    {"SIMDSV_OK", "success"},
    {"SIMDSV_END", "no more records"},
    {"SIMDSV_ERR_NOMEM", "out of memory"},
    {"SIMDSV_ERR_INVALID_ARGUMENT", "invalid argument"},
    {"SIMDSV_ERR_IO", "input/output error"},
    {"SIMDSV_ERR_KERNEL_UNSUPPORTED", "the requested kernel is not supported on this CPU"},
    {"SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD", "quote inside an unquoted field"},
    {"SIMDSV_ERR_TEXT_AFTER_QUOTE", "unexpected character after a closing quote"},
    {"SIMDSV_ERR_UNTERMINATED_QUOTE", "the input ended inside a quoted field"},
    {"SIMDSV_ERR_INVALID_UTF8", "invalid UTF-8"},
    {"SIMDSV_ERR_RECORD_TOO_LARGE", "record larger than the configured maximum"},
    {"SIMDSV_ERR_TOO_MANY_FIELDS", "record with more fields than the configured maximum"},
    {"SIMDSV_ERR_BAD_DIALECT", "inconsistent dialect (delimiter, quote, escape and comment must differ and not be a line end)"},
    {"SIMDSV_ERR_UNKNOWN_OPTION", "unknown option"},
    {"SIMDSV_ERR_VALUE", "a value does not fit its column's type"},
    {"SIMDSV_ERR_RAGGED_ROW", "a row with a different number of fields than the header"},
};

const char *simdsv_status_name(simdsv_status status)
{
    if ((unsigned)status < sizeof status_texts / sizeof status_texts[0])
        return status_texts[status].name;
    return "SIMDSV_UNKNOWN_STATUS";
}

const char *simdsv_status_message(simdsv_status status)
{
    if ((unsigned)status < sizeof status_texts / sizeof status_texts[0])
        return status_texts[status].message;
    return "unknown status";
}

unsigned simdsv_version_number(void)
{
    return SIMDSV_VERSION_NUMBER;
}

const char *simdsv_version_string(void)
{
    return SIMDSV_VERSION_STRING;
}
