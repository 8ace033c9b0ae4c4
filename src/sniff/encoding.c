/*
 * encoding.c — the sample's encoding: a BOM, the zero bytes of UTF-16, UTF-8
 * validity, else Windows-1252 or ISO-8859-1 when the high bytes sit inside
 * words; the sample converted to UTF-8 for the phases after it (a UTF-16 or
 * iconv sample), and input offsets of a sample converted from UTF-16.
 */
#include "sniff.h"

#include <stdio.h>
#include <string.h>

static size_t complete_utf8_prefix(const uint8_t *p, size_t n)
{
    /* Drops a multi-byte sequence cut by the end of the sample. */
    size_t k = n, back = 0;
    while (k > 0 && back < 4 && (p[k - 1] & 0xC0) == 0x80) {
        k--;
        back++;
    }
    if (k > 0 && p[k - 1] >= 0xC0) {
        const size_t need = p[k - 1] >= 0xF0 ? 4 : p[k - 1] >= 0xE0 ? 3 : 2;
        if (back + 1 < need)
            return k - 1;
    }
    return n;
}

/* What a text's NUL bytes are taken for, appended to its encoding's reason. */
static const char *nul_note(sniff_impl *s, size_t nul_lines, size_t lines)
{
    return nul_lines ? keep(s, "; NUL bytes on %zu of %zu lines, read as data", nul_lines, lines) : "";
}

/* Formats users hand to a CSV reader by mistake, by their first bytes. */
static const char *binary_signature(const uint8_t *p, size_t n)
{
    static const struct {
        const char *magic;
        size_t length;
        const char *name;
    } formats[] = {
        {"\x89PNG\r\n\x1a\n", 8, "a PNG image"},
        {"\xff\xd8\xff", 3, "a JPEG image"},
        {"GIF87a", 6, "a GIF image"},
        {"GIF89a", 6, "a GIF image"},
        {"%PDF-", 5, "a PDF document"},
        {"PK\x03\x04", 4, "a ZIP archive (an .xlsx workbook is one: export it as CSV)"},
        {"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", 8, "an OLE compound file (an .xls workbook: export it as CSV)"},
        {"\x7f" "ELF", 4, "an ELF executable"},
        {"SQLite format 3", 16, "an SQLite database"},
        {"PAR1\x15", 5, "a Parquet file"}, /* the first page header's first field */
        {"ARROW1", 6, "an Arrow IPC file"},
        {"\xfd" "7zXZ", 6, "an xz stream (decompress it first)"},
        {"7z\xbc\xaf\x27\x1c", 6, "a 7-Zip archive"},
        {"\xca\xfe\xba\xbe", 4, "a Java class or Mach-O file"},
        {"\xcf\xfa\xed\xfe", 4, "a Mach-O executable"},
        {"\x00" "asm", 4, "a WebAssembly module"},
    };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (n >= formats[i].length && memcmp(p, formats[i].magic, formats[i].length) == 0)
            return formats[i].name;
    if (n >= 10 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' && p[3] <= '9' && memcmp(p + 4, "1AY&SY", 6) == 0)
        return "a bzip2 stream (decompress it first)";
    return NULL;
}

void simdsv__sniff_detect_encoding(sniff_impl *s, const uint8_t *p, size_t n, int complete, int nul_delimiter,
                                   encoding_result *e)
{
    memset(e, 0, sizeof *e);
    e->kind = ENCODING_UTF8;
    const char *format = binary_signature(p, n);
    if (format) {
        e->binary = 1;
        e->confidence = 0.99;
        e->reason = keep(s, "not text: %s", format);
        return;
    }
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        e->bom = 1;
        e->confidence = 1;
        e->reason = "UTF-8 byte order mark";
        return;
    }
    if (n >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) {
        e->bom = 1;
        e->kind = p[0] == 0xFF ? ENCODING_UTF16LE : ENCODING_UTF16BE;
        e->confidence = 1;
        e->reason = p[0] == 0xFF ? "UTF-16 little-endian byte order mark" : "UTF-16 big-endian byte order mark";
        return;
    }
    size_t zero_even = 0, zero_odd = 0;
    const size_t probe = n < 8192 ? n & ~(size_t)1 : 8192;
    for (size_t i = 0; i < probe; i++) {
        if (p[i] == 0 && (i & 1))
            zero_odd++;
        else if (p[i] == 0)
            zero_even++;
    }
    const size_t pairs = nul_delimiter ? 0 : probe / 2;
    if (pairs >= 2 && zero_odd * 10 >= pairs * 4 && zero_even * 20 <= pairs) {
        e->kind = ENCODING_UTF16LE;
        e->confidence = 0.95;
        e->reason = keep(s, "UTF-16 little-endian: %zu of %zu code units have a zero high byte", zero_odd, pairs);
        return;
    }
    if (pairs >= 2 && zero_even * 10 >= pairs * 4 && zero_odd * 20 <= pairs) {
        e->kind = ENCODING_UTF16BE;
        e->confidence = 0.95;
        e->reason = keep(s, "UTF-16 big-endian: %zu of %zu code units have a zero high byte", zero_even, pairs);
        return;
    }
    /* The line ends and bytes >= 0x80 counted without
     * branches, in blocks of 255 into a byte (the compiler vectorizes the
     * count over the whole sample). */
    size_t high_all = 0, line_feeds = 0;
    for (size_t i = 0; i < n;) {
        const size_t end = n - i > 255 ? i + 255 : n;
        uint8_t high_block = 0, lf_block = 0;
        for (; i < end; i++) {
            const uint8_t c = p[i];
            high_block = (uint8_t)(high_block + (c >= 0x80));
            lf_block = (uint8_t)(lf_block + (c == '\n'));
        }
        high_all += high_block;
        line_feeds += lf_block;
    }
    /* NUL and control bytes are a value's bytes: fuzzers' files, C strings'
     * padding and broken exports are read as the text they are (every line
     * is data unless there is positive evidence otherwise, issue 21).  The
     * positive evidence that a file is not text is a binary format's
     * signature (tested first), or NUL bytes making a quarter of a sample of 4 KiB or more
     * with no UTF-16 pattern (UTF-32, an executable without a known header).
     * The lines holding a NUL are counted NUL by NUL for the reason (files
     * without one pay a memchr). */
    const uint8_t *nul = nul_delimiter ? NULL : memchr(p, 0, n);
    const size_t nul_at = nul ? (size_t)(nul - p) : SIZE_MAX;
    const size_t lines = line_feeds + (n && p[n - 1] != '\n');
    size_t nul_lines = 0, nuls = 0;
    for (const uint8_t *line_end = p; nul; nul = memchr(nul + 1, 0, n - (size_t)(nul + 1 - p))) {
        nuls++;
        if (nul < line_end)
            continue; /* another NUL of a line counted */
        nul_lines++;
        const uint8_t *lf = memchr(nul, '\n', n - (size_t)(nul - p));
        line_end = lf ? lf : p + n;
    }
    if (n >= 4096 && nuls * 4 >= n) {
        e->binary = 1;
        e->confidence = 0.9;
        e->reason = keep(s, "not text: %zu NUL bytes in %zu, the first at offset %zu (and no UTF-16 pattern)", nuls, n,
                         nul_at);
        return;
    }
    const size_t check = complete ? n : complete_utf8_prefix(p, n);
    size_t bad = 0;
    size_t high = 0, c1 = 0;
    if (simdsv_utf8_valid(p, check, &bad)) {
        high = high_all - (n - check); /* the bytes left out end a cut character: all >= 0x80 */
        e->confidence = 1;
        e->reason = high ? keep(s, "valid UTF-8 (%zu bytes of non-ASCII characters)%s", high, nul_note(s, nul_lines, lines))
                         : keep(s, "ASCII only (valid UTF-8)%s", nul_note(s, nul_lines, lines));
        return;
    }
    for (size_t i = 0; i < check; i++) {
        high += p[i] >= 0x80;
        c1 += p[i] >= 0x80 && p[i] < 0xA0;
    }
    size_t multi = 0; /* valid multi-byte UTF-8 sequences: 2-byte ones suffice as evidence */
    for (size_t i = 0; i + 1 < check; i++)
        multi += (p[i] >= 0xC2) & (p[i] <= 0xDF) & ((p[i + 1] & 0xC0) == 0x80);
    /* Latin-1 and Windows-1252 text puts its high bytes inside words. */
    size_t in_words = 0;
    for (size_t i = 0; i < check; i++) {
        if (p[i] < 0x80)
            continue;
        const int before = i > 0 && ((p[i - 1] | 0x20) >= 'a' && (p[i - 1] | 0x20) <= 'z');
        const int after = i + 1 < check && ((p[i + 1] | 0x20) >= 'a' && (p[i + 1] | 0x20) <= 'z');
        in_words += before || after;
    }
    if ((multi * 2 >= high / 2 && multi) || in_words * 2 < high) {
        /* Mostly UTF-8 with some bad bytes: broken UTF-8, not Latin-1 (the
         * reader then reports or replaces the bad bytes as --utf8 says). */
        e->confidence = NOT_SURE;
        e->reason = keep(s, "not sure: UTF-8 with invalid bytes (%zu valid 2-byte characters, %zu of %zu high bytes "
                            "inside words; byte 0x%02X at offset %zu is invalid)%s",
                         multi, in_words, high, p[bad], bad, nul_note(s, nul_lines, lines));
        return;
    }
    e->kind = c1 ? ENCODING_CP1252 : ENCODING_LATIN1;
    e->confidence = 0.8;
    e->reason = keep(s, "not UTF-8 (byte 0x%02X at offset %zu starts no valid sequence); %zu bytes above 0x7F read as "
                        "%s%s%s",
                     p[bad], bad, high, c1 ? "Windows-1252" : "ISO-8859-1",
                     c1 ? " (bytes 0x80-0x9F are its letters and signs)" : " letters", nul_note(s, nul_lines, lines));
}

const char *simdsv__sniff_utf8_name(const encoding_result *e, const char *raw, size_t n, char *out)
{
    size_t o;
    if (e->kind == ENCODING_LATIN1 || e->kind == ENCODING_CP1252) {
        transcoder tc = {e->kind, NULL};
        size_t used = 0;
        o = simdsv__transcode(&tc, (const uint8_t *)raw, n, &used, (uint8_t *)out, 3 * 256, 1);
    } else {
        o = simdsv_utf8_lossy(raw, n, out);
    }
    out[o] = '\0';
    return out;
}

uint64_t simdsv__sniff_utf16_offset(const sniff_input *raw, const sniff_input *conv, uint8_t *const *bufs,
                                    size_t i, size_t off)
{
    const uint8_t *p = bufs[i];
    const size_t end = (size_t)(conv->g[i].p - p) + off;
    uint64_t at = raw->g[i].offset;
    for (size_t j = 0; j < end;) {
        const uint8_t c = p[j];
        const size_t len = c < 0xC0 || c >= 0xF8 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        at += len == 4 ? 4 : 2;
        j += len;
    }
    return at;
}

simdsv_status simdsv__sniff_encoding(sniff_run *R)
{
    sniff_impl *s = R->s;
    simdsv_sniff *out = &s->pub;
    const sniff_input *in = R->in;
    const region *g0 = &in->g[0];
    encoding_result *enc = &R->enc;
    int64_t given_delimiter = ',';
    if (is_given(R, SIMDSV_SNIFF_DELIMITER))
        simdsv_options_get(R->opt, SIMDSV_OPT_DELIMITER, &given_delimiter);
    simdsv__sniff_detect_encoding(s, g0->p, g0->n, g0->complete, given_delimiter == 0, enc);
    R->given_encoding = R->opt ? simdsv_options_get_string(R->opt, SIMDSV_OPT_ENCODING) : "";
    if (is_given(R, SIMDSV_SNIFF_ENCODING)) {
        const int kind = simdsv__encoding_kind(R->given_encoding);
        enc->kind = kind < 0 ? ENCODING_UTF8 : (encoding_kind)kind;
        enc->binary = 0;
        enc->confidence = 1;
        enc->reason = "given";
    }
    out->encoding =
        enc->kind == ENCODING_ICONV ? keep(s, "%s", R->given_encoding) : simdsv__encoding_name(enc->kind);
    out->bom = enc->bom;
    out->binary = enc->binary;
    decide(s, SIMDSV_SNIFF_ENCODING, enc->confidence, enc->reason);

    /* UTF-16 (and iconv) samples are converted; offsets then are not input offsets. */
    sniff_input *conv = &R->conv;
    *conv = *in;
    R->gs = conv->g;
    R->converted = enc->kind == ENCODING_UTF16LE || enc->kind == ENCODING_UTF16BE || enc->kind == ENCODING_ICONV;
    if (R->converted) {
        transcoder tc;
        simdsv_status st =
            simdsv__transcoder_init(&tc, enc->kind == ENCODING_ICONV ? R->given_encoding : out->encoding);
        if (st != SIMDSV_OK)
            return st;
        for (size_t i = 0; i < in->ng; i++) {
            R->caps[i] = in->g[i].n * 2 + 16;
            if (!(R->bufs[i] = simdsv__alloc(&s->alloc, R->caps[i]))) {
                st = SIMDSV_ERR_NOMEM;
                break;
            }
            uint8_t *buf = R->bufs[i];
            size_t used = 0, o = 0, at = 0;
            while (at < in->g[i].n) {
                const size_t w = simdsv__transcode(&tc, in->g[i].p + at, in->g[i].n - at, &used, buf + o,
                                                   R->caps[i] - o, in->g[i].complete);
                if (!w && !used)
                    break;
                o += w;
                at += used;
            }
            conv->g[i].p = buf;
            conv->g[i].n = o;
            if (i == 0 && o >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) {
                conv->g[i].p += 3; /* the converted BOM */
                conv->g[i].n -= 3;
            }
        }
        simdsv__transcoder_close(&tc);
        if (st != SIMDSV_OK)
            return st;
    } else if (enc->bom) {
        conv->g[0].p += 3;
        conv->g[0].n -= 3;
    }
    R->skip0 = R->converted ? 0 : (uint64_t)(conv->g[0].p - in->g[0].p);
    /* The middle and the end start after their first (cut) line. */
    for (size_t i = 1; i < conv->ng; i++) {
        region *g = &conv->g[i];
        size_t k = 0;
        while (k < g->n && g->p[k] != '\n' && g->p[k] != '\r')
            k++;
        while (k < g->n && (g->p[k] == '\n' || g->p[k] == '\r'))
            k++;
        g->p += k;
        g->n -= k;
        g->offset += k;
    }
    out->sampled_bytes = 0;
    for (size_t i = 0; i < conv->ng; i++)
        out->sampled_bytes += in->g[i].n;
    return SIMDSV_OK;
}
