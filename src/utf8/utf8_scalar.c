/*
 * utf8_scalar.c — the reference UTF-8 validator, plus the helpers built on
 * the same per-sequence rule: the streaming tail check and the lossy copy.
 *
 * RFC 3629 well-formed sequences (Unicode Table 3-7):
 *   00..7F
 *   C2..DF 80..BF
 *   E0     A0..BF 80..BF      (E0 80..9F would be overlong)
 *   E1..EC 80..BF 80..BF
 *   ED     80..9F 80..BF      (ED A0..BF would encode surrogates D800..DFFF)
 *   EE..EF 80..BF 80..BF
 *   F0     90..BF 80..BF 80..BF   (F0 80..8F would be overlong)
 *   F1..F3 80..BF 80..BF 80..BF
 *   F4     80..8F 80..BF 80..BF   (F4 90.. would exceed U+10FFFF)
 * Only the second byte has a lead-specific range; later bytes are any
 * continuation byte.  80..C1 and F5..FF never start a sequence.
 */
#include "utf8.h"

#include <string.h>

typedef struct utf8_lead_rule {
    uint8_t length;     /* bytes in the whole sequence; 0: this byte cannot start one */
    uint8_t second_min; /* allowed range of the second byte */
    uint8_t second_max;
} utf8_lead_rule;

static inline utf8_lead_rule lead_rule(uint8_t lead)
{
    utf8_lead_rule r = {0, 0x80, 0xBF};
    if (lead < 0x80)
        r.length = 1;
    else if (lead < 0xC2)
        r.length = 0; /* continuation byte, or C0/C1 (always overlong) */
    else if (lead < 0xE0)
        r.length = 2;
    else if (lead < 0xF0) {
        r.length = 3;
        if (lead == 0xE0)
            r.second_min = 0xA0;
        else if (lead == 0xED)
            r.second_max = 0x9F;
    } else if (lead < 0xF5) {
        r.length = 4;
        if (lead == 0xF0)
            r.second_min = 0x90;
        else if (lead == 0xF4)
            r.second_max = 0x8F;
    }
    return r;
}

/* Looks at the sequence starting at s[0] (avail >= 1 bytes readable).
 * *length: the bytes its lead byte announces (0: s[0] starts nothing).
 * Returns how many of the first bytes are a prefix of some well-formed
 * sequence — the "maximal subpart" when the sequence is ill-formed; equal to
 * *length exactly when a complete, valid sequence starts at s[0]. */
static inline size_t valid_prefix(const uint8_t *s, size_t avail, size_t *length)
{
    const utf8_lead_rule r = lead_rule(s[0]);
    *length = r.length;
    if (r.length <= 1)
        return r.length;
    if (avail < 2 || s[1] < r.second_min || s[1] > r.second_max)
        return 1;
    size_t n = 2;
    while (n < r.length && n < avail && (s[n] & 0xC0) == 0x80)
        n++;
    return n;
}

size_t simdsv__utf8_validate_scalar(const uint8_t *data, size_t size)
{
    const uint64_t high_bits = 0x8080808080808080u;
    size_t pos = 0;
    while (pos < size) {
        if (size - pos >= 8) {
            uint64_t word;
            memcpy(&word, data + pos, sizeof word);
            if ((word & high_bits) == 0) {
                pos += 8;
                continue;
            }
        }
        const uint8_t lead = data[pos];
        if (lead < 0x80) {
            pos++;
            continue;
        }
        /* Any failure, a cut at the end of the data included, is reported
         * at the lead byte: that is where a decoder walking forward stops. */
        const utf8_lead_rule r = lead_rule(lead);
        if (r.length == 0 || r.length > size - pos)
            return pos;
        if (data[pos + 1] < r.second_min || data[pos + 1] > r.second_max)
            return pos;
        if (r.length >= 3 && (data[pos + 2] & 0xC0) != 0x80)
            return pos;
        if (r.length == 4 && (data[pos + 3] & 0xC0) != 0x80)
            return pos;
        pos += r.length;
    }
    return size;
}

size_t simdsv__utf8_incomplete_tail(const uint8_t *data, size_t size)
{
    /* The last sequence starts at the last non-continuation byte; only one
     * within 3 bytes of the end can still be waiting for bytes. */
    for (size_t back = 1; back <= 3 && back <= size; back++) {
        const uint8_t *start = data + size - back;
        if ((*start & 0xC0) == 0x80)
            continue;
        size_t length;
        const size_t valid = valid_prefix(start, back, &length);
        return (length > back && valid == back) ? back : 0;
    }
    return 0;
}

size_t simdsv__utf8_lossy(const uint8_t *src, size_t size, uint8_t *dst)
{
    static const uint8_t replacement[3] = {0xEF, 0xBF, 0xBD}; /* U+FFFD */
    size_t in = 0;
    size_t out = 0;
    while (in < size) {
        const size_t run = simdsv__utf8_validate_scalar(src + in, size - in);
        memcpy(dst + out, src + in, run);
        in += run;
        out += run;
        if (in == size)
            break;
        /* src[in] starts an ill-formed sequence: replace its maximal subpart
         * (at least the one byte that starts nothing). */
        size_t length;
        const size_t subpart = valid_prefix(src + in, size - in, &length);
        in += subpart ? subpart : 1;
        memcpy(dst + out, replacement, sizeof replacement);
        out += sizeof replacement;
    }
    return out;
}
