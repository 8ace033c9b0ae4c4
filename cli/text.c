/* text.c — field bytes as text (decoded, lossy UTF-8 when asked), records
 * written as CSV, header names as owned strings, and the display width of
 * characters for the table command. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

void text_init(text_buffer *tb, const cli_common *c)
{
    memset(tb, 0, sizeof *tb);
    tb->quote = (int)cli_opt(c, SIMDSV_OPT_QUOTE);
    tb->escape = (int)cli_opt(c, SIMDSV_OPT_ESCAPE);
}

static void free_retired(text_buffer *tb)
{
    for (size_t i = 0; i < tb->nretired; i++)
        free(tb->retired[i]);
    tb->nretired = 0;
}

void text_reset(text_buffer *tb)
{
    free_retired(tb);
    tb->len = 0;
}

void text_free(text_buffer *tb)
{
    free_retired(tb);
    free(tb->retired);
    free(tb->data);
    memset(tb, 0, sizeof *tb);
}

/* Room for need more bytes.  Earlier results of this record point into the
 * buffer, so a full buffer is retired (freed at the next text_reset), not
 * reallocated. */
static bool reserve(text_buffer *tb, size_t need)
{
    if (tb->cap - tb->len >= need)
        return true;
    size_t cap = tb->cap * 2 > need ? tb->cap * 2 : need;
    if (cap < 4096)
        cap = 4096;
    if (tb->len) {
        if (tb->nretired == tb->cap_retired) {
            const size_t n = tb->cap_retired ? tb->cap_retired * 2 : 8;
            char **grown = realloc(tb->retired, n * sizeof *grown);
            if (!grown)
                return false;
            tb->retired = grown;
            tb->cap_retired = n;
        }
        tb->retired[tb->nretired++] = tb->data;
    } else {
        free(tb->data);
    }
    tb->data = malloc(cap);
    tb->cap = tb->data ? cap : 0;
    tb->len = 0;
    return tb->data != NULL;
}

bool text_field(text_buffer *tb, const simdsv_record *rec, size_t i, const char **data, size_t *size)
{
    return text_of(tb, &rec->fields[i], data, size);
}

bool text_of(text_buffer *tb, const simdsv_field *f, const char **data, size_t *size)
{
    if (!(f->flags & (SIMDSV_FIELD_NEEDS_UNESCAPE | SIMDSV_FIELD_INVALID_UTF8))) {
        *data = f->data;
        *size = f->size;
        return true;
    }
    if (!reserve(tb, f->size * 4))
        return false;
    const char *p = f->data;
    size_t n = f->size;
    if (f->flags & SIMDSV_FIELD_NEEDS_UNESCAPE) {
        char *out = tb->data + tb->len;
        n = simdsv_unescape(f, tb->quote, tb->escape, out);
        p = out;
        tb->len += n;
    }
    if (f->flags & SIMDSV_FIELD_INVALID_UTF8) {
        char *out = tb->data + tb->len;
        n = simdsv_utf8_lossy(p, n, out);
        p = out;
        tb->len += n;
    }
    *data = p;
    *size = n;
    return true;
}

bool write_record(text_buffer *tb, const simdsv_record *rec, const size_t *cols, size_t ncols, int delimiter)
{
    text_reset(tb);
    for (size_t k = 0; k < ncols; k++) {
        if (k)
            out_byte((char)delimiter);
        const size_t i = cols[k];
        if (i >= rec->field_count) {
            if (ncols == 1)
                out_write("\"\"", 2);
            continue;
        }
        const char *data;
        size_t size;
        if (!text_field(tb, rec, i, &data, &size))
            return false;
        out_csv_field(data, size, delimiter, ncols == 1);
    }
    out_byte('\n');
    return true;
}

bool write_all_fields(text_buffer *tb, const simdsv_record *rec, int delimiter)
{
    text_reset(tb);
    for (size_t i = 0; i < rec->field_count; i++) {
        if (i)
            out_byte((char)delimiter);
        const char *data;
        size_t size;
        if (!text_field(tb, rec, i, &data, &size))
            return false;
        out_csv_field(data, size, delimiter, rec->field_count == 1);
    }
    out_byte('\n');
    return true;
}

bool names_from_record(name_list *nl, text_buffer *tb, const simdsv_record *rec)
{
    memset(nl, 0, sizeof *nl);
    nl->names = calloc(rec->field_count + 1, sizeof *nl->names);
    nl->lens = calloc(rec->field_count + 1, sizeof *nl->lens);
    if (!nl->names || !nl->lens)
        return false;
    text_reset(tb);
    for (size_t i = 0; i < rec->field_count; i++) {
        const char *data;
        size_t size;
        if (!text_field(tb, rec, i, &data, &size))
            return false;
        nl->names[i] = malloc(size + 1);
        if (!nl->names[i])
            return false;
        memcpy(nl->names[i], data, size);
        nl->names[i][size] = '\0';
        nl->lens[i] = size;
        nl->count = i + 1;
    }
    return true;
}

void names_free(name_list *nl)
{
    for (size_t i = 0; i < nl->count; i++)
        free(nl->names[i]);
    free(nl->names);
    free(nl->lens);
    memset(nl, 0, sizeof *nl);
}

/* ------------------------------------------------------------ display width */

uint32_t utf8_next(const unsigned char *s, size_t n, size_t *len)
{
    const unsigned char c = s[0];
    *len = 1;
    if (c < 0x80)
        return c;
    int k;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) {
        k = 1;
        cp = c & 0x1F;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        k = 2;
        cp = c & 0x0F;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        k = 3;
        cp = c & 0x07;
        min = 0x10000;
    } else {
        return 0xFFFD;
    }
    if ((size_t)k >= n)
        return 0xFFFD;
    for (int j = 1; j <= k; j++) {
        if ((s[j] & 0xC0) != 0x80)
            return 0xFFFD;
        cp = (cp << 6) | (s[j] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0xFFFD;
    *len = (size_t)k + 1;
    return cp;
}

typedef struct range {
    uint32_t first, last;
} range;

/* Zero width: combining marks (Mn/Me of the common scripts), zero-width
 * spaces and joiners, variation selectors. */
static const range zero_width[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF}, {0x05C1, 0x05C2},
    {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A}, {0x064B, 0x065F}, {0x0670, 0x0670},
    {0x06D6, 0x06DC}, {0x06DF, 0x06E4}, {0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x0711, 0x0711},
    {0x0730, 0x074A}, {0x07A6, 0x07B0}, {0x07EB, 0x07F3}, {0x0816, 0x082D}, {0x0859, 0x085B},
    {0x08D3, 0x08E1}, {0x08E3, 0x0902}, {0x093A, 0x093A}, {0x093C, 0x093C}, {0x0941, 0x0948},
    {0x094D, 0x094D}, {0x0951, 0x0957}, {0x0962, 0x0963}, {0x0981, 0x0981}, {0x09BC, 0x09BC},
    {0x09C1, 0x09C4}, {0x09CD, 0x09CD}, {0x09E2, 0x09E3}, {0x0A01, 0x0A02}, {0x0A3C, 0x0A3C},
    {0x0A41, 0x0A51}, {0x0A70, 0x0A71}, {0x0A75, 0x0A75}, {0x0A81, 0x0A82}, {0x0ABC, 0x0ABC},
    {0x0AC1, 0x0AC8}, {0x0ACD, 0x0ACD}, {0x0AE2, 0x0AE3}, {0x0B01, 0x0B01}, {0x0B3C, 0x0B3C},
    {0x0B3F, 0x0B3F}, {0x0B41, 0x0B44}, {0x0B4D, 0x0B4D}, {0x0B56, 0x0B56}, {0x0B62, 0x0B63},
    {0x0B82, 0x0B82}, {0x0BC0, 0x0BC0}, {0x0BCD, 0x0BCD}, {0x0C00, 0x0C00}, {0x0C3E, 0x0C40},
    {0x0C46, 0x0C56}, {0x0C62, 0x0C63}, {0x0CBC, 0x0CBC}, {0x0CCC, 0x0CCD}, {0x0CE2, 0x0CE3},
    {0x0D00, 0x0D01}, {0x0D41, 0x0D44}, {0x0D4D, 0x0D4D}, {0x0D62, 0x0D63}, {0x0DCA, 0x0DCA},
    {0x0DD2, 0x0DD6}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x0EB1, 0x0EB1},
    {0x0EB4, 0x0EBC}, {0x0EC8, 0x0ECD}, {0x0F18, 0x0F19}, {0x0F35, 0x0F35}, {0x0F37, 0x0F37},
    {0x0F39, 0x0F39}, {0x0F71, 0x0F7E}, {0x0F80, 0x0F84}, {0x0F86, 0x0F87}, {0x0F8D, 0x0FBC},
    {0x102D, 0x1030}, {0x1032, 0x1037}, {0x1039, 0x103A}, {0x103D, 0x103E}, {0x1058, 0x1059},
    {0x1160, 0x11FF}, {0x135D, 0x135F}, {0x1712, 0x1714}, {0x1732, 0x1734}, {0x17B4, 0x17B5},
    {0x17B7, 0x17BD}, {0x17C6, 0x17C6}, {0x17C9, 0x17D3}, {0x17DD, 0x17DD}, {0x180B, 0x180E},
    {0x1A17, 0x1A18}, {0x1AB0, 0x1AFF}, {0x1B00, 0x1B03}, {0x1B34, 0x1B34}, {0x1B36, 0x1B3A},
    {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064}, {0x20D0, 0x20F0},
    {0x2CEF, 0x2CF1}, {0x2DE0, 0x2DFF}, {0x302A, 0x302D}, {0x3099, 0x309A}, {0xA66F, 0xA672},
    {0xA674, 0xA67D}, {0xA69E, 0xA69F}, {0xA6F0, 0xA6F1}, {0xA8E0, 0xA8F1}, {0xFE00, 0xFE0F},
    {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0x1D167, 0x1D169}, {0x1D17B, 0x1D182}, {0x1F3FB, 0x1F3FF},
    {0xE0001, 0xE007F}, {0xE0100, 0xE01EF},
};

/* Two columns: East Asian Wide (W) and Fullwidth (F), and emoji presented
 * as pictures. */
static const range wide[] = {
    {0x1100, 0x115F},  {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},   {0x23F0, 0x23F0},
    {0x23F3, 0x23F3},  {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},   {0x267F, 0x267F},
    {0x2693, 0x2693},  {0x26A1, 0x26A1},   {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
    {0x26CE, 0x26CE},  {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},  {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},
    {0x274C, 0x274C},  {0x274E, 0x274E},   {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27B0, 0x27B0},  {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},
    {0x2E80, 0x303E},  {0x3041, 0x3247},   {0x3250, 0x4DBF},   {0x4E00, 0xA4CF},   {0xA960, 0xA97F},
    {0xAC00, 0xD7A3},  {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
    {0xFFE0, 0xFFE6},  {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004},
    {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F320},
    {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3},
    {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E}, {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC},
    {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596},
    {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F}, {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2},
    {0x1F6D5, 0x1F6D7}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F93A},
    {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

static bool in_table(uint32_t cp, const range *t, size_t n)
{
    if (cp < t[0].first || cp > t[n - 1].last)
        return false;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (cp > t[mid].last)
            lo = mid + 1;
        else if (cp < t[mid].first)
            hi = mid;
        else
            return true;
    }
    return false;
}

int cp_width(uint32_t cp)
{
    if (cp < 0x300)
        return 1;
    if (in_table(cp, zero_width, sizeof zero_width / sizeof zero_width[0]))
        return 0;
    if (in_table(cp, wide, sizeof wide / sizeof wide[0]))
        return 2;
    return 1;
}

size_t text_display(const char *s, size_t n, size_t max, size_t full_width, bool emit)
{
    const unsigned char *u = (const unsigned char *)s;
    const bool cut = full_width > max;
    const size_t room = cut ? max - 1 : max; /* keep one column for the ellipsis */
    size_t width = 0;
    for (size_t i = 0; i < n;) {
        /* A run of printable ASCII: one column a byte, written at once. */
        size_t run = 0;
        while (i + run < n && u[i + run] >= 0x20 && u[i + run] < 0x7F && width + run < room)
            run++;
        if (run) {
            if (emit)
                out_write(s + i, run);
            width += run;
            i += run;
            continue;
        }
        size_t len;
        const uint32_t cp = utf8_next(u + i, n - i, &len);
        const char *piece = s + i;
        size_t piece_len = len;
        int w;
        if (cp == '\r' || cp == '\n') {
            if (cp == '\r' && i + 1 < n && u[i + 1] == '\n')
                len = 2;
            piece = "\xE2\x86\xB5"; /* ↵ */
            piece_len = 3;
            w = 1;
        } else if (cp == '\t') {
            piece = " ";
            piece_len = 1;
            w = 1;
        } else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0xFFFD) {
            /* Control characters (a terminal would obey ESC sequences) and
             * invalid UTF-8. */
            piece = "\xEF\xBF\xBD"; /* U+FFFD */
            piece_len = 3;
            w = 1;
        } else {
            w = cp_width(cp);
        }
        if (width + (size_t)w > room)
            break;
        if (emit)
            out_write(piece, piece_len);
        width += (size_t)w;
        i += len;
    }
    if (cut) {
        if (emit)
            out_write("\xE2\x80\xA6", 3); /* … */
        width++;
    }
    return width;
}

bool sb_grow(strbuf *sb, size_t size)
{
    size_t cap = sb->cap ? sb->cap * 2 : 64;
    while (cap - sb->len < size)
        cap *= 2;
    char *grown = realloc(sb->data, cap);
    if (!grown)
        return false;
    sb->data = grown;
    sb->cap = cap;
    return true;
}

static bool sb_csv_field(strbuf *sb, const char *s, size_t n, int delimiter, bool alone)
{
    if (!csv_needs_quotes(s, n, delimiter, alone))
        return sb_put(sb, s, n);
    bool ok = sb_put(sb, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n && ok; i++) {
        if (s[i] == '"') {
            ok = sb_put(sb, s + run, i + 1 - run) && sb_put(sb, "\"", 1);
            run = i + 1;
        }
    }
    return ok && sb_put(sb, s + run, n - run) && sb_put(sb, "\"", 1);
}

bool sb_csv_record(strbuf *sb, text_buffer *tb, const simdsv_record *rec, int delimiter)
{
    text_reset(tb);
    const char d = (char)delimiter;
    for (size_t i = 0; i < rec->field_count; i++) {
        const char *data;
        size_t size;
        if ((i && !sb_put(sb, &d, 1)) || !text_field(tb, rec, i, &data, &size) ||
            !sb_csv_field(sb, data, size, delimiter, rec->field_count == 1))
            return false;
    }
    return sb_put(sb, "\n", 1);
}
