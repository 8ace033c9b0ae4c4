/*
 * test_utf8.c — checks the UTF-8 validators, the streaming tail check and
 * the lossy copy.
 *
 * The scalar validator is checked against an independent decoder written
 * here (it assembles the code point and checks its range, instead of the
 * library's per-lead byte ranges); every SIMD kernel the CPU supports must
 * return exactly the scalar offset.  Buffers are malloc'ed at their exact
 * size so that a sanitizer build catches any read past the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/utf8/utf8.h"
#include "check.h"

typedef size_t (*validate_fn)(const uint8_t *data, size_t size);

typedef struct kernel {
    const char *name;
    validate_fn validate;
    int supported;
} kernel;

#define MAX_KERNELS 4
static kernel kernels[MAX_KERNELS];
static int kernel_count;

static void add_kernel(const char *name, validate_fn validate, int supported)
{
    kernels[kernel_count].name = name;
    kernels[kernel_count].validate = validate;
    kernels[kernel_count].supported = supported;
    kernel_count++;
}

static void register_kernels(void)
{
#if defined(__x86_64__) || defined(_M_X64)
    __builtin_cpu_init();
    add_kernel("sse42", simdsv__utf8_validate_sse42, __builtin_cpu_supports("sse4.2"));
    add_kernel("avx2", simdsv__utf8_validate_avx2, __builtin_cpu_supports("avx2"));
    add_kernel("avx512", simdsv__utf8_validate_avx512,
               __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi") &&
                   __builtin_cpu_supports("avx512vbmi2"));
#elif defined(__aarch64__)
    add_kernel("neon", simdsv__utf8_validate_neon, 1);
#endif
}

/* ---- results ---------------------------------------------------------- */

static void print_hex(const uint8_t *data, size_t size, size_t around)
{
    const size_t from = around > 8 ? around - 8 : 0;
    const size_t to = around + 8 < size ? around + 8 : size;
    printf("    bytes [%zu..%zu):", from, to);
    for (size_t i = from; i < to; i++)
        printf(i == around ? " [%02X]" : " %02X", data[i]);
    printf("\n");
}

/* A bulk group counts one result per validator: index 0 is the scalar
 * validator against the independent decoder, index 1 + i is kernel i
 * against the scalar validator. */
static size_t group_mismatches[MAX_KERNELS + 1];
static size_t group_cases;

static void group_begin(void)
{
    memset(group_mismatches, 0, sizeof group_mismatches);
    group_cases = 0;
}

static void group_end(const char *group)
{
    char what[160];
    snprintf(what, sizeof what, "%s: scalar vs independent decoder (%zu cases, %zu mismatches)", group,
             group_cases, group_mismatches[0]);
    CHECK_MSG(group_mismatches[0] == 0, "%s", what);
    for (int k = 0; k < kernel_count; k++) {
        if (!kernels[k].supported)
            continue;
        snprintf(what, sizeof what, "%s: %s vs scalar (%zu cases, %zu mismatches)", group, kernels[k].name,
                 group_cases, group_mismatches[k + 1]);
        CHECK_MSG(group_mismatches[k + 1] == 0, "%s", what);
    }
    printf("  %s: %zu cases\n", group, group_cases);
}

static void note_mismatch(int slot, const char *who, const uint8_t *data, size_t size, size_t expected,
                          size_t got)
{
    if (group_mismatches[slot]++ < 5) {
        printf("  mismatch (%s): size %zu, expected %zu, got %zu\n", who, size, expected, got);
        print_hex(data, size, expected < size ? expected : size);
    }
}

/* ---- independent reference ------------------------------------------- */

/* Decodes sequence by sequence: the lead's leading one bits give the
 * length, the payload bits give the code point, and the code point must be
 * in range for that length, not a surrogate and at most U+10FFFF. */
static size_t reference_validate(const uint8_t *s, size_t n)
{
    static const uint32_t min_code_point[5] = {0, 0, 0x80, 0x800, 0x10000};
    size_t i = 0;
    while (i < n) {
        const uint8_t lead = s[i];
        size_t length = 0;
        while (length < 8 && (lead & (0x80u >> length)))
            length++;
        if (length == 0)
            length = 1;
        else if (length == 1 || length > 4)
            return i;
        if (length > n - i)
            return i;
        uint32_t cp = length == 1 ? lead : (lead & (0x7Fu >> length));
        for (size_t j = 1; j < length; j++) {
            if ((s[i + j] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + j] & 0x3Fu);
        }
        if (cp < min_code_point[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += length;
    }
    return n;
}

/* Can prefix[0..k) (1 <= k <= 3) be extended by continuation bytes into one
 * well-formed sequence?  Probing each range edge of continuation bytes is
 * enough: every UTF-8 constraint is a range with one of these edges. */
static int completes(const uint8_t *prefix, size_t k)
{
    static const uint8_t probes[6] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF};
    uint8_t tmp[4];
    memcpy(tmp, prefix, k);
    for (size_t more = 1; k + more <= 4; more++) {
        size_t combos = 1;
        for (size_t j = 0; j < more; j++)
            combos *= 6;
        for (size_t c = 0; c < combos; c++) {
            size_t rest = c;
            for (size_t j = 0; j < more; j++) {
                tmp[k + j] = probes[rest % 6];
                rest /= 6;
            }
            if (reference_validate(tmp, k + more) == k + more)
                return 1;
        }
    }
    return 0;
}

static size_t reference_incomplete_tail(const uint8_t *s, size_t n)
{
    for (size_t k = 1; k <= 3 && k <= n; k++)
        if (completes(s + n - k, k))
            return k;
    return 0;
}

/* At an offset where no valid sequence starts, the maximal subpart is the
 * longest prefix that can still be completed (at least one byte). */
static size_t reference_lossy(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t i = 0;
    size_t o = 0;
    while (i < n) {
        size_t length = 0;
        for (size_t l = 1; l <= 4 && l <= n - i; l++) {
            if (reference_validate(s + i, l) == l) {
                length = l;
                break;
            }
        }
        if (length) {
            memcpy(out + o, s + i, length);
            o += length;
            i += length;
            continue;
        }
        size_t subpart = 1;
        for (size_t k = (n - i < 3 ? n - i : 3); k >= 1; k--) {
            if (completes(s + i, k)) {
                subpart = k;
                break;
            }
        }
        out[o++] = 0xEF;
        out[o++] = 0xBF;
        out[o++] = 0xBD;
        i += subpart;
    }
    return o;
}

/* ---- comparing validators -------------------------------------------- */

static void compare_validators(const uint8_t *data, size_t size)
{
    group_cases++;
    const size_t scalar = simdsv__utf8_validate_scalar(data, size);
    const size_t reference = reference_validate(data, size);
    if (scalar != reference)
        note_mismatch(0, "scalar", data, size, reference, scalar);
    for (int k = 0; k < kernel_count; k++) {
        if (!kernels[k].supported)
            continue;
        const size_t got = kernels[k].validate(data, size);
        if (got != scalar)
            note_mismatch(k + 1, kernels[k].name, data, size, scalar, got);
    }
}

/* Lossy copy and tail check against their references; mismatches are
 * counted in *bad, the first few printed. */
static void compare_lossy_and_tail(const uint8_t *data, size_t size, size_t *bad)
{
    uint8_t *got = malloc(3 * size + 1);
    uint8_t *want = malloc(3 * size + 1);
    const size_t got_size = simdsv__utf8_lossy(data, size, got);
    const size_t want_size = reference_lossy(data, size, want);
    const int lossy_ok = got_size == want_size && memcmp(got, want, got_size) == 0 &&
                         simdsv__utf8_validate_scalar(got, got_size) == got_size;
    const size_t tail = simdsv__utf8_incomplete_tail(data, size);
    const size_t want_tail = reference_incomplete_tail(data, size);
    if (!lossy_ok || tail != want_tail) {
        if ((*bad)++ < 5) {
            printf("  lossy/tail mismatch: size %zu, lossy %s, tail %zu (expected %zu)\n", size,
                   lossy_ok ? "ok" : "WRONG", tail, want_tail);
            print_hex(data, size, 0);
        }
    }
    free(got);
    free(want);
}

/* ---- deterministic random text --------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint32_t rng_below(uint32_t n) { return (uint32_t)(rng_next() % n); }

static uint8_t random_continuation(void) { return (uint8_t)(0x80 + rng_below(64)); }

static size_t encode(uint32_t cp, uint8_t *out)
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

/* Profiles: 0 mostly ASCII, 1 even mix of lengths, 2 mostly 3- and 4-byte. */
static uint32_t random_code_point(int profile)
{
    static const uint32_t edges[] = {0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF};
    static const unsigned weights[3][4] = {{95, 3, 1, 1}, {25, 25, 25, 25}, {4, 6, 50, 40}};
    if (rng_below(50) == 0)
        return edges[rng_below(sizeof edges / sizeof edges[0])];
    unsigned pick = rng_below(100);
    int length = 0;
    while (pick >= weights[profile][length])
        pick -= weights[profile][length++];
    switch (length) {
    case 0: return rng_below(0x80);
    case 1: return 0x80 + rng_below(0x800 - 0x80);
    case 2: {
        uint32_t cp = 0x800 + rng_below(0x10000 - 0x800 - 0x800);
        return cp >= 0xD800 ? cp + 0x800 : cp; /* skip the surrogates */
    }
    default: return 0x10000 + rng_below(0x110000 - 0x10000);
    }
}

static void fill_valid(uint8_t *buf, size_t size, int profile)
{
    size_t pos = 0;
    while (pos < size) {
        uint8_t seq[4];
        size_t length = encode(random_code_point(profile), seq);
        if (length > size - pos)
            length = encode('a' + rng_below(26), seq);
        memcpy(buf + pos, seq, length);
        pos += length;
    }
}

/* Writes one ill-formed sequence of a random kind somewhere in buf. */
static void corrupt(uint8_t *buf, size_t size)
{
    if (size == 0)
        return;
    uint8_t seq[4];
    size_t length = 0;
    const uint32_t kind = rng_below(9);
    switch (kind) {
    case 0: /* any byte */
        seq[length++] = (uint8_t)rng_next();
        break;
    case 1: /* overlong 2-byte */
        seq[length++] = (uint8_t)(0xC0 + rng_below(2));
        seq[length++] = random_continuation();
        break;
    case 2: /* overlong 3-byte */
        seq[length++] = 0xE0;
        seq[length++] = (uint8_t)(0x80 + rng_below(0x20));
        seq[length++] = random_continuation();
        break;
    case 3: /* overlong 4-byte */
        seq[length++] = 0xF0;
        seq[length++] = (uint8_t)(0x80 + rng_below(0x10));
        seq[length++] = random_continuation();
        seq[length++] = random_continuation();
        break;
    case 4: /* surrogate */
        seq[length++] = 0xED;
        seq[length++] = (uint8_t)(0xA0 + rng_below(0x20));
        seq[length++] = random_continuation();
        break;
    case 5: /* above U+10FFFF */
        if (rng_below(2)) {
            seq[length++] = 0xF4;
            seq[length++] = (uint8_t)(0x90 + rng_below(0x30));
        } else {
            seq[length++] = (uint8_t)(0xF5 + rng_below(11));
            seq[length++] = random_continuation();
        }
        seq[length++] = random_continuation();
        seq[length++] = random_continuation();
        break;
    case 6: /* stray continuation */
        seq[length++] = random_continuation();
        break;
    case 7: /* truncated sequence at the end */
    case 8: /* truncated sequence in the middle */ {
        const uint32_t cp = 0x80 + rng_below(0x110000 - 0x80);
        if (cp >= 0xD800 && cp <= 0xDFFF)
            return;
        length = encode(cp, seq) - 1 - rng_below(2);
        if (length == 0)
            length = 1;
        break;
    }
    }
    if (length > size)
        return;
    const size_t pos = kind == 7 ? size - length : rng_below((uint32_t)(size - length + 1));
    memcpy(buf + pos, seq, length);
}

/* ---- the tests --------------------------------------------------------- */

static void test_hand_cases(void)
{
    static const struct {
        const char *data;
        size_t size;
        size_t valid_until;
    } cases[] = {
        {"", 0, 0},
        {"plain ascii", 11, 11},
        {"caf\xC3\xA9", 5, 5},
        {"\xE2\x82\xAC", 3, 3},
        {"\xF0\x9F\x98\x80", 4, 4},
        {"\xF4\x8F\xBF\xBF", 4, 4},         /* U+10FFFF */
        {"\xED\x9F\xBF\xEE\x80\x80", 6, 6}, /* U+D7FF, U+E000 around the surrogates */
        {"a\xC3", 2, 1},
        {"\xC0\x80", 2, 0},
        {"\xC1\xBF", 2, 0},
        {"ab\xE0\x9F\xBF", 5, 2},
        {"\xED\xA0\x80", 3, 0},
        {"\xF0\x8F\xBF\xBF", 4, 0},
        {"\xF4\x90\x80\x80", 4, 0},
        {"\xF5\x80\x80\x80", 4, 0},
        {"x\x80", 2, 1},
        {"\xC3\xA9\xA9", 3, 2},
        {"\xE2\x82\x41", 3, 0},
        {"\xFF", 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[96];
        snprintf(what, sizeof what, "hand case %zu: scalar validate", i);
        CHECK_MSG(simdsv__utf8_validate_scalar((const uint8_t *)cases[i].data, cases[i].size) == cases[i].valid_until, "%s",
              what);
        for (int k = 0; k < kernel_count; k++) {
            if (!kernels[k].supported)
                continue;
            snprintf(what, sizeof what, "hand case %zu: %s validate", i, kernels[k].name);
            CHECK_MSG(kernels[k].validate((const uint8_t *)cases[i].data, cases[i].size) == cases[i].valid_until, "%s", what);
        }
    }
    CHECK_MSG(simdsv__utf8_validate_scalar(NULL, 0) == 0, "%s", "scalar validate(NULL, 0)");
    for (int k = 0; k < kernel_count; k++)
        if (kernels[k].supported)
            CHECK_MSG(kernels[k].validate(NULL, 0) == 0, "%s", "kernel validate(NULL, 0)");
}

static void test_incomplete_tail(void)
{
    static const struct {
        const char *data;
        size_t size;
        size_t tail;
    } cases[] = {
        {"", 0, 0},
        {"a", 1, 0},
        {"a\xC3", 2, 1},
        {"\xC3\xA9", 2, 0},
        {"\xE2\x82", 2, 2},
        {"\xE2\x82\xAC", 3, 0},
        {"x\xE2", 2, 1},
        {"\xF0\x9F", 2, 2},
        {"\xF0\x9F\x98", 3, 3},
        {"\xF0\x9F\x98\x80", 4, 0},
        {"\xF4\x8F\xBF", 3, 3},
        {"\xED\x9F", 2, 2},
        {"\xE0\x80", 2, 0}, /* overlong: never completes */
        {"\xED\xA0", 2, 0}, /* surrogate */
        {"\xF4\x90", 2, 0}, /* above U+10FFFF */
        {"\xF5", 1, 0},
        {"\xC0", 1, 0},
        {"\x80", 1, 0},
        {"\x80\x80\x80", 3, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "incomplete_tail case %zu", i);
        CHECK_MSG(simdsv__utf8_incomplete_tail((const uint8_t *)cases[i].data, cases[i].size) == cases[i].tail, "%s", what);
    }
    CHECK_MSG(simdsv__utf8_incomplete_tail(NULL, 0) == 0, "%s", "incomplete_tail(NULL, 0)");
}

#define R "\xEF\xBF\xBD"

static void test_lossy(void)
{
    static const struct {
        const char *in;
        size_t in_size;
        const char *out;
    } cases[] = {
        {"", 0, ""},
        {"abc", 3, "abc"},
        {"\xF0\x9F\x98\x80", 4, "\xF0\x9F\x98\x80"},
        {"a\xF0\x9F\x98"
         "b",
         5, "a" R "b"},
        {"\xED\xA0\x80", 3, R R R}, /* ED A0 is no valid prefix: three subparts */
        /* The example of Unicode chapter 3 ("U+FFFD Substitution of Maximal Subparts"). */
        {"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64", 13, "a" R R R "b" R "c" R R "d"},
        {"\xC0\xAF", 2, R R},
        {"\xE0\x80\xAF", 3, R R R},
        {"\xF4\x90\x80\x80", 4, R R R R},
        {"\xF8\x88\x80\x80\x80", 5, R R R R R},
        {"\xE2\x82", 2, R},
        {"x\xE2\x82"
         "y",
         4, "x" R "y"},
        {"\xFF", 1, R},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t out[64];
        const size_t size = simdsv__utf8_lossy((const uint8_t *)cases[i].in, cases[i].in_size, out);
        const size_t want = strlen(cases[i].out);
        char what[64];
        snprintf(what, sizeof what, "lossy case %zu", i);
        CHECK_MSG(size == want && memcmp(out, cases[i].out, want) == 0, "%s", what);
    }
    CHECK_MSG(simdsv__utf8_lossy(NULL, 0, NULL) == 0, "%s", "lossy(NULL, 0)");
}

/* Every sequence at every offset of the first block, across the boundary
 * of the first and second blocks, and cut by the end of the data (the
 * zero-padded last block).  The rest of the buffer is ASCII. */
#define PLACEMENT_SIZE 136

static int placement_offset(int index, size_t *offset)
{
    if (index <= 70)
        *offset = (size_t)index;
    else if (index <= 70 + 16)
        *offset = PLACEMENT_SIZE - 16 + (size_t)(index - 71);
    else
        return 0;
    return 1;
}

static void check_at_all_offsets(uint8_t *buf, const uint8_t *seq, size_t length)
{
    size_t offset;
    for (int index = 0; placement_offset(index, &offset); index++) {
        const size_t n = length < PLACEMENT_SIZE - offset ? length : PLACEMENT_SIZE - offset;
        memcpy(buf + offset, seq, n);
        compare_validators(buf, PLACEMENT_SIZE);
        memset(buf + offset, 'a', n);
    }
}

static void test_exhaustive_sequences(void)
{
    static const uint8_t edges24[24] = {0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xBF, 0xC0,
                                        0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFF};
    static const uint8_t edges16[16] = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF,
                                        0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xF0, 0xF4, 0xFF};
    static const uint8_t leads16[16] = {0x41, 0x80, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF,
                                        0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF};
    uint8_t *buf = malloc(PLACEMENT_SIZE);
    memset(buf, 'a', PLACEMENT_SIZE);
    uint8_t seq[4];

    group_begin();
    for (unsigned a = 0; a < 256; a++) {
        seq[0] = (uint8_t)a;
        check_at_all_offsets(buf, seq, 1);
    }
    group_end("all 1-byte sequences");

    group_begin();
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 256; b++) {
            seq[0] = (uint8_t)a;
            seq[1] = (uint8_t)b;
            check_at_all_offsets(buf, seq, 2);
        }
    group_end("all 2-byte sequences");

    /* An ASCII first byte only repeats the 2-byte cases. */
    group_begin();
    for (unsigned a = 0x80; a < 256; a++)
        for (unsigned b = 0; b < 24; b++)
            for (unsigned c = 0; c < 24; c++) {
                seq[0] = (uint8_t)a;
                seq[1] = edges24[b];
                seq[2] = edges24[c];
                check_at_all_offsets(buf, seq, 3);
            }
    group_end("3-byte sequences (any lead, edge bytes)");

    group_begin();
    for (unsigned a = 0; a < 16; a++)
        for (unsigned b = 0; b < 16 * 16 * 16; b++) {
            seq[0] = leads16[a];
            seq[1] = edges16[b & 15];
            seq[2] = edges16[(b >> 4) & 15];
            seq[3] = edges16[b >> 8];
            check_at_all_offsets(buf, seq, 4);
        }
    group_end("4-byte sequences (edge bytes)");

    /* Every valid 2-, 3- and 4-byte lead with every second byte, so each
     * range edge of the second byte is crossed exactly. */
    group_begin();
    for (unsigned a = 0xC0; a < 256; a++)
        for (unsigned b = 0x70; b < 0xD0; b++) {
            seq[0] = (uint8_t)a;
            seq[1] = (uint8_t)b;
            seq[2] = 0x80;
            seq[3] = 0xBF;
            check_at_all_offsets(buf, seq, 4);
        }
    group_end("every lead with every second byte");
    free(buf);
}

/* Each multibyte character cut after 1..length-1 bytes at the end of the
 * data, behind 0..130 ASCII bytes (every position in and after a block). */
static void test_truncations(void)
{
    static const uint32_t chars[] = {0xE9, 0x7FF, 0x800, 0x20AC, 0xFFFD, 0x10000, 0x1F600, 0x10FFFF};
    size_t bad_tails = 0;
    group_begin();
    for (size_t c = 0; c < sizeof chars / sizeof chars[0]; c++) {
        uint8_t seq[4];
        const size_t length = encode(chars[c], seq);
        for (size_t pad = 0; pad <= 130; pad++) {
            for (size_t cut = 1; cut <= length; cut++) {
                const size_t size = pad + cut;
                uint8_t *buf = malloc(size);
                memset(buf, 'x', pad);
                memcpy(buf + pad, seq, cut);
                compare_validators(buf, size);
                const size_t want_valid = cut == length ? size : pad;
                const size_t want_tail = cut == length ? 0 : cut;
                if (simdsv__utf8_validate_scalar(buf, size) != want_valid ||
                    simdsv__utf8_incomplete_tail(buf, size) != want_tail) {
                    if (bad_tails++ < 5)
                        printf("  truncation: U+%04X cut to %zu bytes after %zu\n", (unsigned)chars[c], cut, pad);
                }
                free(buf);
            }
        }
    }
    group_end("truncated characters at every offset");

    /* Every prefix of a long valid text. */
    uint8_t text[400];
    rng_state = 0x1234567u;
    fill_valid(text, sizeof text, 1);
    group_begin();
    for (size_t size = 0; size <= sizeof text; size++) {
        uint8_t *buf = malloc(size ? size : 1);
        memcpy(buf, text, size);
        compare_validators(buf, size);
        const size_t tail = simdsv__utf8_incomplete_tail(buf, size);
        if (simdsv__utf8_validate_scalar(buf, size) != size - tail || reference_incomplete_tail(buf, size) != tail) {
            if (bad_tails++ < 5)
                printf("  prefix of %zu bytes: tail %zu\n", size, tail);
        }
        free(buf);
    }
    group_end("every prefix of valid text");
    CHECK_MSG(bad_tails == 0, "%s", "truncations: expected offsets and incomplete tails");
}

static void test_random_corpus(void)
{
    size_t bad_lossy = 0;
    rng_state = 0x9E3779B97F4A7C15u;
    group_begin();
    for (size_t size = 0; size <= 300; size++) {
        for (int round = 0; round < 200; round++) {
            uint8_t *buf = malloc(size ? size : 1);
            fill_valid(buf, size, (int)rng_below(3));
            const uint32_t corruptions = rng_below(4);
            for (uint32_t c = 0; c < corruptions; c++)
                corrupt(buf, size);
            compare_validators(buf, size);
            if (round % 8 == 0)
                compare_lossy_and_tail(buf, size, &bad_lossy);
            free(buf);
        }
    }
    group_end("random corpus, sizes 0..300");
    CHECK_MSG(bad_lossy == 0, "%s", "random corpus: lossy and incomplete_tail vs references");

    /* A few large buffers: valid, then with one error at a random place. */
    static const size_t large_sizes[] = {(size_t)1 << 20, ((size_t)3 << 20) + 37};
    group_begin();
    for (size_t s = 0; s < sizeof large_sizes / sizeof large_sizes[0]; s++) {
        for (int profile = 0; profile < 3; profile++) {
            const size_t size = large_sizes[s];
            uint8_t *buf = malloc(size);
            uint8_t *copy = malloc(size);
            fill_valid(buf, size, profile);
            compare_validators(buf, size);
            for (int round = 0; round < 12; round++) {
                memcpy(copy, buf, size);
                /* Corrupt a small window so the error lands anywhere, the end included. */
                const size_t window = 8;
                const size_t at = round == 0 ? size - window : rng_below((uint32_t)(size - window));
                corrupt(copy + at, window);
                compare_validators(copy, size);
            }
            if (profile == 1)
                compare_lossy_and_tail(buf, size, &bad_lossy);
            free(copy);
            free(buf);
        }
    }
    group_end("large buffers");
    CHECK_MSG(bad_lossy == 0, "%s", "large buffers: lossy of valid text is the text");
}

int main(void)
{
    register_kernels();
    for (int k = 0; k < kernel_count; k++)
        printf("kernel %s: %s\n", kernels[k].name, kernels[k].supported ? "tested" : "skipped (CPU lacks it)");

    test_hand_cases();
    test_incomplete_tail();
    test_lossy();
    test_exhaustive_sequences();
    test_truncations();
    test_random_corpus();

    int skipped = 0;
    for (int k = 0; k < kernel_count; k++)
        skipped += !kernels[k].supported;
    if (skipped)
        printf("%d kernel(s) skipped\n", skipped);
    return check_summary();
}
