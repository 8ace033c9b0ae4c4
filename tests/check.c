/* check.c — the assertion harness of the C tests (see check.h). */
#include "check.h"

#include <stdarg.h>
#include <string.h>

int h_passed;
int h_failed;
static int h_reported;
static char h_context_text[512];

/* Failures past this many are counted but not printed. */
#define H_MAX_REPORTS 200

void h_context(const char *fmt, ...)
{
    if (!fmt) {
        h_context_text[0] = '\0';
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h_context_text, sizeof h_context_text, fmt, ap);
    va_end(ap);
}

int h_fail(const char *file, int line)
{
    h_failed++;
    if (h_reported >= H_MAX_REPORTS) {
        if (h_reported++ == H_MAX_REPORTS)
            fprintf(stderr, "(further failures are counted, not printed)\n");
        return 0;
    }
    h_reported++;
    fprintf(stderr, "%s:%d: FAILED", file, line);
    if (h_context_text[0])
        fprintf(stderr, " [%s]", h_context_text);
    fputc('\n', stderr);
    return 1;
}

int h_check(int ok, const char *file, int line, const char *expr)
{
    if (ok) {
        h_passed++;
        return 1;
    }
    if (h_fail(file, line))
        fprintf(stderr, "    CHECK(%s)\n", expr);
    return 0;
}

int h_check_msg(int ok, const char *file, int line, const char *fmt, ...)
{
    if (ok) {
        h_passed++;
        return 1;
    }
    if (h_fail(file, line)) {
        va_list ap;
        va_start(ap, fmt);
        fputs("    ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    return 0;
}

int h_check_u64(uint64_t a, uint64_t b, const char *file, int line, const char *ea, const char *eb)
{
    if (a == b) {
        h_passed++;
        return 1;
    }
    if (h_fail(file, line))
        fprintf(stderr, "    %s == %s\n    got %llu, expected %llu\n", ea, eb, (unsigned long long)a,
                (unsigned long long)b);
    return 0;
}

int h_check_int(int64_t a, int64_t b, const char *file, int line, const char *ea, const char *eb)
{
    if (a == b) {
        h_passed++;
        return 1;
    }
    if (h_fail(file, line))
        fprintf(stderr, "    %s == %s\n    got %lld, expected %lld\n", ea, eb, (long long)a, (long long)b);
    return 0;
}

void h_print_bytes(FILE *f, const void *data, size_t size)
{
    const unsigned char *p = data;
    fputc('"', f);
    for (size_t i = 0; i < size; i++) {
        const unsigned c = p[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", (char)c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\r')
            fputs("\\r", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(f, "\\x%02x", c);
        else
            fputc((int)c, f);
    }
    fputc('"', f);
}

int h_check_mem(const void *a, size_t alen, const void *b, size_t blen, const char *file, int line, const char *ea,
                const char *eb)
{
    if (alen == blen && (alen == 0 || memcmp(a, b, alen) == 0)) {
        h_passed++;
        return 1;
    }
    if (h_fail(file, line)) {
        fprintf(stderr, "    %s == %s\n    got      ", ea, eb);
        h_print_bytes(stderr, a, alen);
        fprintf(stderr, "\n    expected ");
        h_print_bytes(stderr, b, blen);
        fputc('\n', stderr);
    }
    return 0;
}

int h_check_str(const char *a, const char *b, const char *file, int line, const char *ea, const char *eb)
{
    if (a && b && strcmp(a, b) == 0) {
        h_passed++;
        return 1;
    }
    if (h_fail(file, line))
        fprintf(stderr, "    %s == %s\n    got \"%s\", expected \"%s\"\n", ea, eb, a ? a : "(null)", b ? b : "(null)");
    return 0;
}

int h_check_status(simdsv_status a, simdsv_status b, const char *file, int line, const char *ea, const char *eb)
{
    if (a == b) {
        h_passed++;
        return 1;
    }
    if (h_fail(file, line))
        fprintf(stderr, "    %s == %s\n    got %s (%d), expected %s (%d)\n", ea, eb, simdsv_status_name(a), (int)a,
                simdsv_status_name(b), (int)b);
    return 0;
}

int check_summary(void)
{
    printf("%d passed, %d failed\n", h_passed, h_failed);
    fflush(stdout);
    return h_failed ? 1 : 0;
}
