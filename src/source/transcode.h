/*
 * transcode.h — input in another encoding, converted to UTF-8 as it is read
 * (SIMDSV_OPT_ENCODING), so that everything after the source sees UTF-8.
 *
 * ISO-8859-1, Windows-1252 and UTF-16 (the encodings simdsv_sniff detects)
 * have their own loops: one table lookup or one code unit at a time, with an
 * ASCII run copied as is.  Any other name goes to the C library's iconv
 * (glibc's covers every legacy code page a CSV comes in, ships with libc and
 * so adds no dependency; ICU would be a second, much larger library for the
 * same conversions).  A byte sequence that is not valid in the source
 * encoding (an unpaired UTF-16 surrogate, an iconv EILSEQ) becomes the byte
 * 0xFF, which is never valid UTF-8: the reader's UTF-8 mode then reports it
 * (strict: an error at that line and column) or replaces it (lossy), so
 * nothing is changed silently.
 */
#ifndef SIMDSV_TRANSCODE_H
#define SIMDSV_TRANSCODE_H

#include "../common/internal.h"

typedef enum encoding_kind {
    ENCODING_UTF8 = 0,
    ENCODING_LATIN1,
    ENCODING_CP1252,
    ENCODING_UTF16LE,
    ENCODING_UTF16BE,
    ENCODING_ICONV
} encoding_kind;

typedef struct transcoder {
    encoding_kind kind;
    void *cd;                /* iconv_t for ENCODING_ICONV */
} transcoder;

/* The kind of an encoding name (case and '-'/'_' insensitive: "UTF-16LE",
 * "latin1", "cp1252" ...); ENCODING_ICONV when only iconv knows it; -1 when
 * nothing does. */
int simdsv__encoding_kind(const char *name);
/* The canonical name of a kind ("utf-8", "iso-8859-1", ...). */
const char *simdsv__encoding_name(encoding_kind kind);

simdsv_status simdsv__transcoder_init(transcoder *t, const char *name);
void simdsv__transcoder_close(transcoder *t);

/* Converts a prefix of in[0..n) into out[0..cap).  *used receives the input
 * bytes consumed: a sequence cut by the end of in is left for the next call
 * unless final (then it is invalid: 0xFF).  cap must be at least 8.  Returns
 * the bytes written. */
size_t simdsv__transcode(transcoder *t, const uint8_t *in, size_t n, size_t *used, uint8_t *out, size_t cap,
                         int final);

#endif
