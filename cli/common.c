/* common.c — option parsing, input opening, error reports and output
 * buffering shared by every subcommand. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char cli_common_help[] =
    "Dialect and reading options:\n"
    "  --delimiter C      field delimiter (default ,); C is a character or an escape: \\t \\\\ \\xHH\n"
    "  --quote C          quote character (default \")\n"
    "  --no-quote         no quoting: quotes are ordinary bytes\n"
    "  --escape C         escape character inside quoted fields (default: none, quotes are doubled)\n"
    "  --comment C        skip records that start with C\n"
    "  --no-header        the first record is data, not a header\n"
    "  --skip-lines N     skip N physical lines before parsing\n"
    "  --lenient          never fail on quoting: recover like Python's csv module\n"
    "  --utf8 MODE        strict (default: invalid UTF-8 is an error), lossy (replace by U+FFFD), none\n"
    "  --kernel NAME      auto, scalar, sse42, avx2, avx512, neon (default auto; env SIMDSV_KERNEL)\n"
    "  --max-record-size N  fail on a record longer than N bytes (default 1 GiB; 0 = no limit)\n"
    "  --max-fields N     fail on a record with more than N fields (default 1048576; 0 = no limit)\n"
    "  -h, --help         this help\n"
    "FILE is a path or - for standard input.\n"
    "Exit status: 0 success, 1 a data or input problem, 2 a usage problem.\n";

const char *cli_option_value(const char *name, int argc, char **argv, int *i, bool *missing)
{
    const char *arg = argv[*i];
    const size_t n = strlen(name);
    *missing = false;
    if (strncmp(arg, name, n) != 0)
        return NULL;
    if (arg[n] == '=')
        return arg + n + 1;
    if (arg[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool cli_parse_byte(const char *t, int *out)
{
    if (t[0] == '\0') {
        *out = -1;
        return true;
    }
    if (t[0] != '\\' || t[1] == '\0') {
        if (t[1] != '\0')
            return false;
        *out = (unsigned char)t[0];
        return true;
    }
    if (t[1] == 'x' && hex_digit(t[2]) >= 0 && hex_digit(t[3]) >= 0 && t[4] == '\0') {
        *out = hex_digit(t[2]) * 16 + hex_digit(t[3]);
        return true;
    }
    if (t[1] == '\0' || t[2] != '\0')
        return false;
    switch (t[1]) {
    case 't': *out = '\t'; return true;
    case '\\': *out = '\\'; return true;
    case '0': *out = 0; return true;
    case 's': *out = ' '; return true;
    case '|': *out = '|'; return true;
    default: return false;
    }
}

bool cli_parse_u64(const char *text, unsigned long long *out)
{
    if (!*text || *text == '-')
        return false;
    char *end = NULL;
    errno = 0;
    *out = strtoull(text, &end, 10);
    return errno == 0 && *end == '\0';
}

int cli_usage_error(const char *command, const char *fmt, const char *arg)
{
    fprintf(stderr, "simdsv %s: ", command);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'simdsv %s --help'.\n", command);
    return EXIT_USAGE;
}

/* The code point of a string holding exactly one non-ASCII UTF-8
 * character, else -1. */
static long utf8_single_char(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    int len = u[0] >= 0xF0 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC2 ? 2 : 0;
    if (!len || strlen(s) != (size_t)len)
        return -1;
    long cp = u[0] & (0x7F >> len);
    for (int k = 1; k < len; k++) {
        if ((u[k] & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (u[k] & 0x3F);
    }
    return cp;
}

static arg_result set_byte_option(cli_common *c, simdsv_option id, const char *value)
{
    int byte;
    if (!cli_parse_byte(value, &byte))
        return ARG_BAD;
    if (id == SIMDSV_OPT_DELIMITER && byte < 0)
        return ARG_BAD;
    return simdsv_options_set(c->opt, id, byte) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
}

arg_result cli_common_arg(cli_common *c, int argc, char **argv, int *i)
{
    static const struct {
        const char *name;
        simdsv_option id;
    } byte_options[] = {{"--delimiter", SIMDSV_OPT_DELIMITER},
                        {"--quote", SIMDSV_OPT_QUOTE},
                        {"--escape", SIMDSV_OPT_ESCAPE}};
    const char *arg = argv[*i];
    bool missing;
    for (size_t k = 0; k < sizeof byte_options / sizeof byte_options[0]; k++) {
        const char *v = cli_option_value(byte_options[k].name, argc, argv, i, &missing);
        if (missing)
            return ARG_BAD;
        if (v)
            return set_byte_option(c, byte_options[k].id, v);
    }
    const char *comment = cli_option_value("--comment", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (comment) {
        long cp = utf8_single_char(comment);
        if (cp < 0) {
            int byte;
            if (!cli_parse_byte(comment, &byte))
                return ARG_BAD;
            return simdsv_options_set(c->opt, SIMDSV_OPT_COMMENT, byte) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
        }
        return simdsv_options_set(c->opt, SIMDSV_OPT_COMMENT_CHAR, cp) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    }
    if (strcmp(arg, "--no-quote") == 0)
        return simdsv_options_set(c->opt, SIMDSV_OPT_QUOTE, -1) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    if (strcmp(arg, "--no-header") == 0)
        return simdsv_options_set(c->opt, SIMDSV_OPT_HEADER, 0) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    if (strcmp(arg, "--lenient") == 0)
        return simdsv_options_set(c->opt, SIMDSV_OPT_LENIENT, 1) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    const char *v;
    static const struct {
        const char *name;
        simdsv_option id;
    } count_options[] = {{"--skip-lines", SIMDSV_OPT_SKIP_LINES},
                         {"--max-record-size", SIMDSV_OPT_MAX_RECORD_SIZE},
                         {"--max-fields", SIMDSV_OPT_MAX_FIELDS}};
    for (size_t k = 0; k < sizeof count_options / sizeof count_options[0]; k++) {
        if ((v = cli_option_value(count_options[k].name, argc, argv, i, &missing)) || missing) {
            unsigned long long n;
            if (missing || !cli_parse_u64(v, &n) || n > INT64_MAX)
                return ARG_BAD;
            return simdsv_options_set(c->opt, count_options[k].id, (int64_t)n) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
        }
    }
    if ((v = cli_option_value("--utf8", argc, argv, i, &missing)) || missing) {
        if (missing)
            return ARG_BAD;
        const int mode = strcmp(v, "strict") == 0 ? SIMDSV_UTF8_STRICT
                         : strcmp(v, "lossy") == 0 ? SIMDSV_UTF8_LOSSY
                         : strcmp(v, "none") == 0  ? SIMDSV_UTF8_NONE
                                                   : -1;
        if (mode < 0)
            return ARG_BAD;
        return simdsv_options_set(c->opt, SIMDSV_OPT_UTF8, mode) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    }
    if ((v = cli_option_value("--kernel", argc, argv, i, &missing)) || missing) {
        const int k = missing ? -1 : simdsv_kernel_from_name(v);
        if (k < 0)
            return ARG_BAD;
        return simdsv_options_set(c->opt, SIMDSV_OPT_KERNEL, k) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    }
    return ARG_NOT_MINE;
}

simdsv_reader *cli_open(cli_common *c)
{
    c->display = strcmp(c->file, "-") == 0 ? "<stdin>" : c->file;
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, c->opt);
    if (st != SIMDSV_OK) {
        if (st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
            fprintf(stderr, "simdsv: the requested kernel is not supported on this CPU (best available: %s)\n",
                    simdsv_kernel_name(simdsv_kernel_supported(SIMDSV_KERNEL_AVX2) ? SIMDSV_KERNEL_AVX2
                                                                                      : SIMDSV_KERNEL_SCALAR));
        else
            fprintf(stderr, "simdsv: %s\n", simdsv_status_message(st));
        return NULL;
    }
    st = strcmp(c->file, "-") == 0 ? simdsv_reader_open_fd(r, STDIN_FILENO) : simdsv_reader_open_path(r, c->file);
    if (st != SIMDSV_OK) {
        const simdsv_error *e = simdsv_reader_error(r);
        fprintf(stderr, "simdsv: %s: %s\n", c->display, e->os_errno ? strerror(e->os_errno) : simdsv_status_message(st));
        simdsv_reader_free(r);
        return NULL;
    }
    return r;
}

void cli_report(const cli_common *c, const simdsv_reader *r)
{
    const simdsv_error *e = simdsv_reader_error(r);
    if (e->code == SIMDSV_ERR_IO) {
        fprintf(stderr, "%s: error: %s%s%s\n", c->display, e->message, e->os_errno ? ": " : "",
                e->os_errno ? strerror(e->os_errno) : "");
        return;
    }
    fprintf(stderr, "%s:%llu:%llu: error: %s (byte %llu, record %llu, field %llu)\n", c->display,
            (unsigned long long)e->line, (unsigned long long)e->column, e->message, (unsigned long long)e->byte_offset,
            (unsigned long long)e->record + 1, (unsigned long long)e->field + 1);
}

/* ------------------------------------------------------------------ output */

static char out_buf[1 << 16];
static size_t out_len;

static void write_all(const char *p, size_t n)
{
    while (n) {
        const ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EPIPE)
                _exit(EXIT_OK); /* the reader went away (| head): end quietly */
            fprintf(stderr, "simdsv: cannot write the output: %s\n", strerror(errno));
            _exit(EXIT_DATA);
        }
        p += w;
        n -= (size_t)w;
    }
}

void out_write(const void *data, size_t size)
{
    if (out_len + size > sizeof out_buf) {
        write_all(out_buf, out_len);
        out_len = 0;
        if (size > sizeof out_buf) {
            write_all(data, size);
            return;
        }
    }
    memcpy(out_buf + out_len, data, size);
    out_len += size;
}

void out_byte(char c)
{
    if (out_len == sizeof out_buf) {
        write_all(out_buf, out_len);
        out_len = 0;
    }
    out_buf[out_len++] = c;
}

void out_str(const char *s)
{
    out_write(s, strlen(s));
}

bool out_flush(void)
{
    write_all(out_buf, out_len);
    out_len = 0;
    return true;
}

int cli_parse(const char *command, const char *help, int argc, char **argv, cli_common *c, cli_extra_arg extra,
              void *ctx)
{
    c->opt = simdsv_options_new(NULL);
    c->file = NULL;
    if (!c->opt) {
        fputs("simdsv: out of memory\n", stderr);
        return EXIT_DATA;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(help, stdout);
            fputs(cli_common_help, stdout);
            return EXIT_OK;
        }
        if (arg[0] == '-' && arg[1] != '\0') {
            arg_result res = extra ? extra(ctx, argc, argv, &i) : ARG_NOT_MINE;
            if (res == ARG_NOT_MINE)
                res = cli_common_arg(c, argc, argv, &i);
            if (res == ARG_NOT_MINE)
                return cli_usage_error(command, "unknown option '%s'", arg);
            if (res == ARG_BAD)
                return cli_usage_error(command, "missing or invalid value for '%s'", arg);
            continue;
        }
        if (c->file)
            return cli_usage_error(command, "unexpected argument '%s' (one FILE expected)", arg);
        c->file = arg;
    }
    if (!c->file)
        return cli_usage_error(command, "%s", "missing FILE (use - for standard input)");
    return -1;
}

void cli_common_free(cli_common *c)
{
    simdsv_options_free(c->opt);
    c->opt = NULL;
}
