/* transcode.c — other encodings to UTF-8 (see transcode.h). */
#define _POSIX_C_SOURCE 200809L
#include "transcode.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <string.h>

/* Windows-1252 0x80..0x9F; the five bytes it leaves undefined map to the
 * C1 control of the same number, as Windows itself and WHATWG do. */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

static const struct {
    const char *name;
    encoding_kind kind;
} known[] = {{"utf8", ENCODING_UTF8},         {"latin1", ENCODING_LATIN1},     {"iso88591", ENCODING_LATIN1},
             {"l1", ENCODING_LATIN1},         {"windows1252", ENCODING_CP1252}, {"cp1252", ENCODING_CP1252},
             {"utf16le", ENCODING_UTF16LE},   {"utf16be", ENCODING_UTF16BE}};

/* "UTF-16LE" -> "utf16le": lower case without '-' and '_'. */
static void fold_name(const char *name, char *out, size_t cap)
{
    size_t k = 0;
    for (; *name && k + 1 < cap; name++)
        if (*name != '-' && *name != '_')
            out[k++] = (char)tolower((unsigned char)*name);
    out[k] = '\0';
}

int simdsv__encoding_kind(const char *name)
{
    if (!name || !*name)
        return ENCODING_UTF8;
    char folded[64];
    fold_name(name, folded, sizeof folded);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(folded, known[i].name) == 0)
            return (int)known[i].kind;
    iconv_t cd = iconv_open("UTF-8", name);
    if (cd == (iconv_t)-1)
        return -1;
    iconv_close(cd);
    return ENCODING_ICONV;
}

const char *simdsv__encoding_name(encoding_kind kind)
{
    switch (kind) {
    case ENCODING_UTF8: return "utf-8";
    case ENCODING_LATIN1: return "iso-8859-1";
    case ENCODING_CP1252: return "windows-1252";
    case ENCODING_UTF16LE: return "utf-16le";
    case ENCODING_UTF16BE: return "utf-16be";
    case ENCODING_ICONV: return "iconv";
    }
    return "unknown";
}

simdsv_status simdsv__transcoder_init(transcoder *t, const char *name)
{
    const int kind = simdsv__encoding_kind(name);
    t->cd = NULL;
    if (kind < 0)
        return SIMDSV_ERR_INVALID_ARGUMENT;
    t->kind = (encoding_kind)kind;
    if (kind == ENCODING_ICONV) {
        iconv_t cd = iconv_open("UTF-8", name);
        if (cd == (iconv_t)-1)
            return errno == ENOMEM ? SIMDSV_ERR_NOMEM : SIMDSV_ERR_INVALID_ARGUMENT;
        t->cd = cd;
    }
    return SIMDSV_OK;
}

void simdsv__transcoder_close(transcoder *t)
{
    if (t->cd)
        iconv_close((iconv_t)t->cd);
    t->cd = NULL;
}

static size_t put_utf8(uint32_t cp, uint8_t *out)
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (cp >> 18));
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

static size_t from_8bit(const uint8_t *in, size_t n, size_t *used, uint8_t *out, size_t cap, bool cp1252)
{
    size_t i = 0, o = 0;
    while (i < n && o + 3 <= cap) {
        const uint8_t b = in[i];
        if (b < 0x80) {
            /* An ASCII run: copied as far as both buffers allow. */
            size_t run = n - i < cap - o ? n - i : cap - o;
            size_t k = 0;
            while (k < run && in[i + k] < 0x80)
                k++;
            memcpy(out + o, in + i, k);
            i += k;
            o += k;
            continue;
        }
        o += put_utf8(cp1252 && b < 0xA0 ? cp1252_high[b - 0x80] : b, out + o);
        i++;
    }
    *used = i;
    return o;
}

static size_t from_utf16(const uint8_t *in, size_t n, size_t *used, uint8_t *out, size_t cap, bool big, int final)
{
    size_t i = 0, o = 0;
    while (i + 2 <= n && o + 4 <= cap) {
        const uint32_t u = big ? (uint32_t)in[i] << 8 | in[i + 1] : (uint32_t)in[i + 1] << 8 | in[i];
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (i + 4 > n) {
                if (!final)
                    break;  /* the low half is in the next block */
                out[o++] = 0xFF;
                i += 2;
                continue;
            }
            const uint32_t lo = big ? (uint32_t)in[i + 2] << 8 | in[i + 3] : (uint32_t)in[i + 3] << 8 | in[i + 2];
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                o += put_utf8(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00), out + o);
                i += 4;
                continue;
            }
            out[o++] = 0xFF; /* a high surrogate without its low half */
            i += 2;
            continue;
        }
        if (u >= 0xDC00 && u <= 0xDFFF) {
            out[o++] = 0xFF; /* a low surrogate alone */
            i += 2;
            continue;
        }
        o += put_utf8(u, out + o);
        i += 2;
    }
    if (final && i + 1 == n && o < cap) { /* an odd last byte */
        out[o++] = 0xFF;
        i++;
    }
    *used = i;
    return o;
}

static size_t with_iconv(transcoder *t, const uint8_t *in, size_t n, size_t *used, uint8_t *out, size_t cap,
                         int final)
{
    char *src = (char *)(uintptr_t)in, *dst = (char *)out;
    size_t left = n, room = cap;
    while (left && room) {
        const size_t r = iconv((iconv_t)t->cd, &src, &left, &dst, &room);
        if (r != (size_t)-1)
            break;
        if (errno == EILSEQ || (errno == EINVAL && final)) {
            *dst++ = (char)0xFF;
            room--;
            src++;
            left--;
            continue;
        }
        break; /* E2BIG: out is full; EINVAL: a sequence continues in the next block */
    }
    *used = n - left;
    return cap - room;
}

size_t simdsv__transcode(transcoder *t, const uint8_t *in, size_t n, size_t *used, uint8_t *out, size_t cap,
                         int final)
{
    switch (t->kind) {
    case ENCODING_LATIN1: return from_8bit(in, n, used, out, cap, false);
    case ENCODING_CP1252: return from_8bit(in, n, used, out, cap, true);
    case ENCODING_UTF16LE: return from_utf16(in, n, used, out, cap, false, final);
    case ENCODING_UTF16BE: return from_utf16(in, n, used, out, cap, true, final);
    case ENCODING_ICONV: return with_iconv(t, in, n, used, out, cap, final);
    case ENCODING_UTF8: break;
    }
    const size_t k = n < cap ? n : cap;
    memcpy(out, in, k);
    *used = k;
    return k;
}
