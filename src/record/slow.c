/*
 * slow.c — the scalar state machine for records the kernels do not handle:
 * stray or misplaced quotes, comment lines, input ending inside quotes.
 *
 * This is the single place where policy is decided.  Parsing is always
 * lenient (Python csv semantics: a quote inside an unquoted field is literal,
 * text after a closing quote is appended to the field, the input ending
 * inside quotes ends the field); strict mode turns the first departure from
 * RFC 4180 into an error whose position is that byte, and the record is
 * skipped so that reading can continue after it.
 *
 * It is also the whole parser of two dialects the kernels do not know
 * (reader.h, slow_only): a delimiter of 2 to 4 bytes, matched here byte for
 * byte, and SIMDSV_OPT_TRIM_SPACES, which drops the spaces before a field,
 * after an unquoted one and between a closing quote and the delimiter.
 */
#include "reader.h"

#include <string.h>

/* SLOW_FIELD_ENDED and SLOW_NOT_SEPARATOR: separator_at's answers inside a record. */
typedef enum slow_outcome {
    SLOW_RECORD,
    SLOW_SKIPPED,
    SLOW_NEED_MORE,
    SLOW_NOMEM,
    SLOW_FIELD_ENDED,
    SLOW_NOT_SEPARATOR
} slow_outcome;

/* SPACE_AFTER_QUOTE: trimming, spaces after a closing quote (counted in
 * slow_parse.spaces, given back as text if anything but a delimiter or a
 * line end follows). */
typedef enum parse_state {
    START_FIELD,
    IN_FIELD,
    IN_QUOTED,
    ESCAPE_IN_QUOTED,
    QUOTE_IN_QUOTED,
    SPACE_AFTER_QUOTE
} parse_state;

typedef struct violation {
    simdsv_status code; /* SIMDSV_OK when none */
    size_t pos;
    uint64_t field;
} violation;

typedef struct slow_parse {
    size_t scratch_len;
    size_t nfields;    /* fields recorded in scratch_offsets (3 entries each) */
    size_t field_begin;
    size_t raw_begin;  /* buffer position where the field starts */
    size_t content_end;
    unsigned field_flags;
    size_t spaces;     /* SPACE_AFTER_QUOTE: the spaces skipped */
    bool fields_dropped;
    violation first;
} slow_parse;

static void note(slow_parse *sp, simdsv_status code, size_t pos)
{
    if (sp->first.code == SIMDSV_OK) {
        sp->first.code = code;
        sp->first.pos = pos;
        sp->first.field = sp->nfields;
    }
}

static bool add_byte(simdsv_reader *r, slow_parse *sp, uint8_t c)
{
    if (sp->scratch_len == r->scratch_cap) {
        void *p = r->scratch;
        if (simdsv__grow(&r->opt.alloc, &p, &r->scratch_cap, sp->scratch_len + 1, 1) != SIMDSV_OK)
            return false;
        r->scratch = p;
    }
    r->scratch[sp->scratch_len++] = (char)c;
    return true;
}

/* Ends the current field; next_raw is where the next one starts. */
static bool end_field(simdsv_reader *r, slow_parse *sp, size_t next_raw)
{
    if (r->opt.trim_spaces && !(sp->field_flags & SIMDSV_FIELD_QUOTED))
        while (sp->scratch_len > sp->field_begin && r->scratch[sp->scratch_len - 1] == ' ')
            sp->scratch_len--;
    const uint64_t max = r->counting ? 0 : r->opt.max_fields;
    if (max && sp->nfields > max) {
        sp->fields_dropped = true; /* counted, not stored: see grow_fields */
        sp->field_begin = sp->scratch_len;
        sp->field_flags = 0;
        sp->raw_begin = next_raw;
        return true;
    }
    const size_t need = (sp->nfields + 1) * 4;
    if (need > r->scratch_offsets_cap) {
        void *p = r->scratch_offsets;
        if (simdsv__grow(&r->opt.alloc, &p, &r->scratch_offsets_cap, need, sizeof(size_t)) != SIMDSV_OK)
            return false;
        r->scratch_offsets = p;
    }
    size_t *slot = r->scratch_offsets + sp->nfields * 4;
    slot[0] = sp->field_begin;
    slot[1] = sp->scratch_len - sp->field_begin;
    slot[2] = sp->field_flags;
    slot[3] = sp->raw_begin;
    sp->nfields++;
    sp->field_begin = sp->scratch_len;
    sp->field_flags = 0;
    sp->raw_begin = next_raw;
    return true;
}

static bool is_line_end(uint8_t c)
{
    return c == '\n' || c == '\r';
}

/* Whether the delimiter starts at p: 1 yes, 0 no, -1 when the buffer ends
 * inside what may be one (more input decides). */
static int delimiter_at(const simdsv_reader *r, size_t p)
{
    const uint8_t *b = r->buf;
    if (b[p] != r->dialect.delimiter)
        return 0;
    const size_t len = (size_t)r->opt.delimiter_len;
    if (len == 1)
        return 1;
    const size_t have = r->len - p < len ? r->len - p : len;
    if (memcmp(b + p, r->opt.delimiter_seq, have) != 0)
        return 0;
    return have == len ? 1 : r->eof ? 0 : -1;
}

/* At *p, outside quotes: a delimiter ends the field (*p moves to its last
 * byte), a line end the record (*end past it); anything else is no
 * separator.  SLOW_NEED_MORE when the buffer ends inside a possible
 * delimiter. */
static slow_outcome separator_at(simdsv_reader *r, slow_parse *sp, size_t *p, size_t *end)
{
    const uint8_t c = r->buf[*p];
    if (c == r->dialect.delimiter) {
        const int at = delimiter_at(r, *p);
        if (at < 0)
            return SLOW_NEED_MORE;
        if (at) {
            *p += (size_t)r->opt.delimiter_len - 1;
            return end_field(r, sp, *p + 1) ? SLOW_FIELD_ENDED : SLOW_NOMEM;
        }
    }
    if (!is_line_end(c))
        return SLOW_NOT_SEPARATOR;
    if (!end_field(r, sp, *p + 1))
        return SLOW_NOMEM;
    sp->content_end = *p;
    *end = *p + 1;
    return SLOW_RECORD;
}

static slow_outcome skip_comment(simdsv_reader *r, size_t p, size_t *end)
{
    while (p < r->len && !is_line_end(r->buf[p]))
        p++;
    if (p == r->len && !r->eof)
        return SLOW_NEED_MORE;
    if (p == r->len)
        r->ended_by_input_end = true;
    *end = p < r->len ? p + 1 : r->len;
    return SLOW_SKIPPED;
}

/* The fields of the record starting at p. */
static slow_outcome parse_fields(simdsv_reader *r, slow_parse *sp, size_t p, size_t *end)
{
    const uint8_t *b = r->buf;
    const size_t n = r->len;
    const scan_dialect *d = &r->dialect;
    memset(sp, 0, sizeof *sp);
    sp->raw_begin = p;
    parse_state state = START_FIELD;
    slow_outcome sep;
    size_t quote_pos = 0;
    for (; p < n; p++) {
        const uint8_t c = b[p];
        switch (state) {
        case START_FIELD:
        case IN_FIELD:
            if (state == START_FIELD && c == ' ' && r->opt.trim_spaces)
                continue;
            if (state == START_FIELD && d->has_quote && c == d->quote) {
                state = IN_QUOTED;
                sp->field_flags = SIMDSV_FIELD_QUOTED;
                quote_pos = p;
                continue;
            }
            if ((sep = separator_at(r, sp, &p, end)) != SLOW_NOT_SEPARATOR) {
                if (sep != SLOW_FIELD_ENDED)
                    return sep;
                state = START_FIELD;
                continue;
            }
            if (d->has_quote && c == d->quote)
                note(sp, SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD, p);
            state = IN_FIELD;
            break;
        case IN_QUOTED:
            if (d->has_escape && c == d->escape) {
                state = ESCAPE_IN_QUOTED;
                continue;
            }
            if (c == d->quote) {
                state = QUOTE_IN_QUOTED;
                continue;
            }
            break;
        case ESCAPE_IN_QUOTED:
            state = IN_QUOTED;
            break;
        case QUOTE_IN_QUOTED:
        case SPACE_AFTER_QUOTE:
            if (c == d->quote && state == QUOTE_IN_QUOTED) { /* a doubled quote is one literal quote */
                state = IN_QUOTED;
                break;
            }
            if (c == ' ' && r->opt.trim_spaces) {
                sp->spaces = state == QUOTE_IN_QUOTED ? 1 : sp->spaces + 1;
                state = SPACE_AFTER_QUOTE;
                continue;
            }
            if ((sep = separator_at(r, sp, &p, end)) != SLOW_NOT_SEPARATOR) {
                if (sep != SLOW_FIELD_ENDED)
                    return sep;
                state = START_FIELD;
                continue;
            }
            note(sp, SIMDSV_ERR_TEXT_AFTER_QUOTE, p);
            /* The text is appended (the spaces before it too), the field
             * goes on unquoted. */
            for (; state == SPACE_AFTER_QUOTE && sp->spaces; sp->spaces--)
                if (!add_byte(r, sp, ' '))
                    return SLOW_NOMEM;
            state = IN_FIELD;
            break;
        }
        if (!add_byte(r, sp, c))
            return SLOW_NOMEM;
    }
    if (!r->eof)
        return SLOW_NEED_MORE;
    r->ended_by_input_end = true;
    if (state == IN_QUOTED || state == ESCAPE_IN_QUOTED)
        note(sp, SIMDSV_ERR_UNTERMINATED_QUOTE, quote_pos);
    if (!end_field(r, sp, n))
        return SLOW_NOMEM;
    sp->content_end = n;
    *end = n;
    return SLOW_RECORD;
}

/* Parses from rec_start.  On SLOW_RECORD / SLOW_SKIPPED, *end is the offset
 * just past the record's line end (or the input end). */
static slow_outcome parse(simdsv_reader *r, slow_parse *sp, size_t *end)
{
    const uint8_t *b = r->buf;
    const size_t n = r->len;
    size_t p = r->rec_start;
    while (p < n && is_line_end(b[p]))
        p++;
    r->rec_start = p; /* empty lines hold no record */
    if (p == n) {
        if (!r->eof)
            return SLOW_NEED_MORE;
        *end = n;
        return SLOW_SKIPPED;
    }
    if (r->dialect.has_comment && b[p] == r->dialect.comment) {
        /* The kernel stops on the marker's first byte; a multi-byte marker
         * must match whole, otherwise this is an ordinary record. */
        const size_t marker = (size_t)r->opt.comment_len;
        if (n - p < marker && !r->eof && memcmp(b + p, r->opt.comment_seq, n - p) == 0)
            return SLOW_NEED_MORE;
        if (n - p >= marker && memcmp(b + p, r->opt.comment_seq, marker) == 0)
            return skip_comment(r, p, end);
    }
    return parse_fields(r, sp, p, end);
}

static simdsv_status nomem(simdsv_reader *r)
{
    simdsv__set_error(r, SIMDSV_ERR_NOMEM, r->rec_start, 0, NULL);
    r->fatal = true;
    return SIMDSV_ERR_NOMEM;
}

static const char *violation_message(simdsv_status code)
{
    switch (code) {
    case SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD:
        return "quote inside an unquoted field (a field containing quotes must be quoted, and its quotes doubled)";
    case SIMDSV_ERR_TEXT_AFTER_QUOTE:
        return "unexpected character after a closing quote (expected a delimiter or the end of the line)";
    case SIMDSV_ERR_UNTERMINATED_QUOTE:
        return "quoted field opened here is not closed before the end of the input";
    case SIMDSV_ERR_TOO_MANY_FIELDS:
        return "record with more fields than the configured maximum (--max-fields)";
    case SIMDSV_ERR_INVALID_UTF8:
        return "invalid UTF-8 byte sequence";
    case SIMDSV_ERR_RECORD_TOO_LARGE:
        return simdsv_status_message(code);
    default:
        return simdsv_status_message(code);
    }
}

simdsv_status simdsv__slow_record(simdsv_reader *r, simdsv_record *rec)
{
    slow_parse sp;
    size_t end = 0;
    slow_outcome outcome;
    while ((outcome = parse(r, &sp, &end)) == SLOW_NEED_MORE) {
        const simdsv_status st = simdsv__refill(r, true);
        if (st != SIMDSV_OK)
            return st;
    }
    if (outcome == SLOW_NOMEM)
        return nomem(r);
    if (outcome == SLOW_SKIPPED) {
        /* A comment's bytes are not data: they are not checked for UTF-8. */
        if (r->utf8_pos < end)
            r->utf8_pos = end;
        simdsv__restart_scan(r, end);
        return SIMDSV__AGAIN;
    }
    bool limit_hit = false;
    const uint64_t max_fields = r->counting ? 0 : r->opt.max_fields;
    if (!r->counting && r->opt.max_record_size && sp.content_end - r->rec_start > r->opt.max_record_size) {
        /* Limits outrank quoting problems (a stream hits them first, while
         * reading; a whole input must report the same). */
        sp.first.code = SIMDSV_ERR_RECORD_TOO_LARGE;
        sp.first.pos = r->rec_start;
        sp.first.field = 0;
        limit_hit = true;
    } else if (sp.fields_dropped || (max_fields && sp.nfields > max_fields)) {
        /* The limit outranks quoting problems and applies in lenient mode too;
         * like the fast path, it points at the first field past the limit. */
        sp.first.code = SIMDSV_ERR_TOO_MANY_FIELDS;
        sp.first.pos = r->scratch_offsets[max_fields * 4 + 3];
        sp.first.field = max_fields;
        limit_hit = true;
    }
    if (sp.first.code != SIMDSV_OK && !limit_hit && !r->opt.lenient && r->opt.utf8 == SIMDSV_UTF8_STRICT &&
        !r->counting && sp.first.pos > r->rec_start) {
        /* Report the earliest problem: invalid UTF-8 before the quoting one. */
        const size_t from = r->utf8_pos > r->rec_start ? r->utf8_pos : r->rec_start;
        if (from < sp.first.pos) {
            size_t bad = from + r->kernel->utf8_validate(r->buf + from, sp.first.pos - from);
            uint64_t field = 0;
            while (bad < sp.first.pos) {
                while (field + 1 < sp.nfields && bad >= r->scratch_offsets[(field + 1) * 4 + 3])
                    field++;
                if (simdsv__column_in(r->check_columns, field))
                    break;
                /* in a column the caller does not read: the next field on */
                const size_t next = field + 1 < sp.nfields ? r->scratch_offsets[(field + 1) * 4 + 3] : sp.first.pos;
                bad = next >= sp.first.pos ? sp.first.pos
                                          : next + r->kernel->utf8_validate(r->buf + next, sp.first.pos - next);
            }
            if (bad < sp.first.pos) {
                sp.first.code = SIMDSV_ERR_INVALID_UTF8;
                sp.first.pos = bad;
                sp.first.field = field;
            }
        }
    }
    if (sp.first.code != SIMDSV_OK && (!r->opt.lenient || limit_hit)) {
        const simdsv_status code = simdsv__set_error(r, sp.first.code, sp.first.pos, sp.first.field,
                                                     violation_message(sp.first.code));
        r->physical_records++;
        simdsv__restart_scan(r, end);
        if (r->utf8_pos < end)
            r->utf8_pos = end;
        return code;
    }
    void *fields = r->fields;
    if (simdsv__grow(&r->opt.alloc, &fields, &r->fields_cap, sp.nfields, sizeof *r->fields) != SIMDSV_OK)
        return nomem(r);
    r->fields = fields;
    for (size_t i = 0; i < sp.nfields; i++) {
        const size_t *slot = r->scratch_offsets + i * 4;
        r->fields[i].data = r->scratch ? r->scratch + slot[0] : "";
        r->fields[i].size = slot[1];
        r->fields[i].flags = (unsigned)slot[2];
    }
    r->nfields = sp.nfields;
    r->slow_starts = r->scratch_offsets;
    const simdsv_status st = simdsv__finish_record(r, rec, sp.content_end, end, false);
    r->slow_starts = NULL;
    simdsv__restart_scan(r, end);
    return st;
}
