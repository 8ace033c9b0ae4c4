/* common.c — option parsing, opening an input as a reader, and error
 * reports, shared by every subcommand. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char cli_common_help[] =
    "Dialect and reading options:\n"
    "  --delimiter C      field delimiter (default ,); C is a character or an escape: \\t \\\\ \\xHH,\n"
    "                     or 2 to 4 of them ('||', '::', ', ': read by the scalar parser, slower)\n"
    "  --trim-spaces      spaces around fields are not data ('a, b , c' is a,b,c; scalar parser)\n"
    "  --quote C          quote character (default \")\n"
    "  --no-quote         no quoting: quotes are ordinary bytes\n"
    "  --escape C         escape character inside quoted fields (default: none, quotes are doubled;\n"
    "                     --escape '' says none)\n"
    "  --comment C        skip records that start with C, a character or 2 to 4 bytes ('//');\n"
    "                     --comment '' says none: no comment lines\n"
    "  --no-header        the first record is data, not a header\n"
    "  --skip-lines N     skip N physical lines before parsing\n"
    "  --lenient          never fail on quoting: recover like Python's csv module\n"
    "  --encoding NAME    the input's encoding (utf-8, utf-16le, utf-16be, latin1, cp1252, or any\n"
    "                     name iconv knows); converted to UTF-8 as it is read\n"
    "  --header-rows N    the header is N rows (a column's names joined with a space)\n"
    "  --table K          read the K-th table of a file holding several (1-based); all: every\n"
    "                     table, one after another, when their columns agree\n"
    "  --end-offset N     stop reading at byte N of the input (a footer after the table)\n"
    "  --no-sniff         do not detect the dialect: defaults for every option not given\n"
    "                     (by default the dialect is detected over a sample of each FILE,\n"
    "                     every option given by hand wins, and a FILE that is not text is\n"
    "                     refused; 'simdsv sniff' shows what is detected)\n"
    "  -v, --verbose      say on stderr what was detected (search: --verbose; -v inverts)\n"
    "  --utf8 MODE        strict (default: invalid UTF-8 is an error), lossy (replace by U+FFFD), none\n"
    "  --kernel NAME      auto, scalar, sse42, avx2, avx512, neon (default auto; env SIMDSV_KERNEL)\n"
    "  --max-record-size N  fail on a record longer than N bytes (default 1 GiB; 0 = no limit)\n"
    "  --max-fields N     fail on a record with more than N fields (default 1048576; 0 = no limit)\n"
    "  --progress, --no-progress  show (or never show) a progress line on stderr; by default\n"
    "                     it appears after a second when stderr is a terminal and CI is not set\n"
    "  -h, --help         this help\n"
    "FILE is a path or - for standard input; gzip and zstd input is decompressed.  A FILE\n"
    "that is a folder names every file under it, a quoted glob (*, ?, [a-z], ** for any\n"
    "folders) the files it matches, in byte order of their paths.\n"
    "Exit status: 0 success, 1 a data or input problem, 2 a usage problem.\n";

static const char dataset_help[] =
    "Several FILEs (a folder, a glob) are read as one table, file after file, each\n"
    "file's dialect, header and compression detected on its own:\n"
    "  --union-by-name    match the files' columns by name: a column a file lacks is null\n"
    "                     there (default: by position; every file has the first one's columns)\n"
    "  --filename-column NAME  a last column NAME holding each row's file\n"
    "  --hive, --no-hive  key=value folders of the paths (year=2024/month=05/) as typed\n"
    "                     columns, or not (default: when every path has the same keys)\n";

static const char output_help[] =
    "Output options:\n"
    "  -o, --output FILE  write to FILE (through a temporary file renamed at the end; a\n"
    "                     failed run leaves no file) instead of standard output\n";
static const char csv_output_help[] =
    "  --output-delimiter C   delimiter of the CSV output (default ,); fields are quoted\n"
    "                     only when needed, lines end with LF\n";

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

int cli_parse_bytes(const char *t, char out[5])
{
    int n = 0;
    while (*t) {
        char token[5] = {0};
        const size_t len = t[0] != '\\' || !t[1] ? 1 : t[1] == 'x' && t[2] && t[3] ? 4 : 2;
        if (strlen(t) < len)
            return -1;
        memcpy(token, t, len);
        int byte;
        if (n == 4 || !cli_parse_byte(token, &byte) || byte <= 0)
            return -1;
        out[n++] = (char)byte;
        t += len;
    }
    out[n] = '\0';
    return n;
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
    if (id == SIMDSV_OPT_DELIMITER && !cli_parse_byte(value, &byte)) {
        char bytes[5];
        c->bad_why = "expected 1 to 4 characters or escapes (\\t, \\\\, \\xHH)";
        if (cli_parse_bytes(value, bytes) < 2)
            return ARG_BAD;
        return simdsv_options_set_string(c->opt, SIMDSV_OPT_DELIMITER_STRING, bytes) == SIMDSV_OK ? ARG_TAKEN
                                                                                                  : ARG_BAD;
    }
    c->bad_why = "expected one character or an escape (\\t, \\\\, \\xHH)";
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
        if (v) {
            c->given |= 1u << (byte_options[k].id == SIMDSV_OPT_DELIMITER ? SIMDSV_SNIFF_DELIMITER
                               : byte_options[k].id == SIMDSV_OPT_QUOTE   ? SIMDSV_SNIFF_QUOTE
                                                                          : SIMDSV_SNIFF_ESCAPE);
            return set_byte_option(c, byte_options[k].id, v);
        }
    }
    const char *comment = cli_option_value("--comment", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (comment) {
        c->given |= 1u << SIMDSV_SNIFF_COMMENT;
        long cp = utf8_single_char(comment);
        if (cp < 0) {
            int byte;
            char marker[5];
            if (cli_parse_byte(comment, &byte))
                return simdsv_options_set(c->opt, SIMDSV_OPT_COMMENT, byte) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
            /* A marker of 2 to 4 bytes ("//"), applied whole. */
            if (cli_parse_bytes(comment, marker) < 2)
                return ARG_BAD;
            return simdsv_options_set_string(c->opt, SIMDSV_OPT_COMMENT_STRING, marker) == SIMDSV_OK ? ARG_TAKEN
                                                                                                   : ARG_BAD;
        }
        return simdsv_options_set(c->opt, SIMDSV_OPT_COMMENT_CHAR, cp) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    }
    if (strcmp(arg, "--no-quote") == 0 && (c->given |= 1u << SIMDSV_SNIFF_QUOTE))
        return simdsv_options_set(c->opt, SIMDSV_OPT_QUOTE, -1) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    if (strcmp(arg, "--no-header") == 0 && (c->given |= 1u << SIMDSV_SNIFF_HEADER | 1u << SIMDSV_SNIFF_HEADER_ROWS))
        return simdsv_options_set(c->opt, SIMDSV_OPT_HEADER, 0) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    if (strcmp(arg, "--lenient") == 0)
        return simdsv_options_set(c->opt, SIMDSV_OPT_LENIENT, 1) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    if (strcmp(arg, "--trim-spaces") == 0 && (c->given |= 1u << SIMDSV_SNIFF_PADDING))
        return simdsv_options_set(c->opt, SIMDSV_OPT_TRIM_SPACES, 1) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
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
            c->bad_why = missing ? NULL : "expected a whole number";
            if (missing || !cli_parse_u64(v, &n) || n > INT64_MAX)
                return ARG_BAD;
            if (count_options[k].id == SIMDSV_OPT_SKIP_LINES)
                c->given |= 1u << SIMDSV_SNIFF_PREAMBLE | 1u << SIMDSV_SNIFF_TABLES;
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
        c->bad_why = "expected strict, lossy or none";
        if (mode < 0)
            return ARG_BAD;
        return simdsv_options_set(c->opt, SIMDSV_OPT_UTF8, mode) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    }
    if ((v = cli_option_value("--encoding", argc, argv, i, &missing)) || missing) {
        c->given |= 1u << SIMDSV_SNIFF_ENCODING;
        return !missing && *v && simdsv_options_set_string(c->opt, SIMDSV_OPT_ENCODING, v) == SIMDSV_OK ? ARG_TAKEN
                                                                                                     : ARG_BAD;
    }
    unsigned long long n;
    arg_result res;
    if ((res = cli_u64_option("--header-rows", argc, argv, i, &n)) != ARG_NOT_MINE) {
        if (res != ARG_TAKEN || n > 1000)
            return ARG_BAD;
        c->header_rows = n;
        c->given |= 1u << SIMDSV_SNIFF_HEADER_ROWS | 1u << SIMDSV_SNIFF_HEADER;
        return simdsv_options_set(c->opt, SIMDSV_OPT_HEADER, n > 0) == SIMDSV_OK &&
                       simdsv_options_set(c->opt, SIMDSV_OPT_HEADER_ROWS, n ? (int64_t)n : 1) == SIMDSV_OK
                   ? ARG_TAKEN
                   : ARG_BAD;
    }
    if (strcmp(arg, "--table=all") == 0 || (strcmp(arg, "--table") == 0 && *i + 1 < argc && strcmp(argv[*i + 1], "all") == 0)) {
        *i += arg[7] == '\0';
        c->table_all = true;
        return ARG_TAKEN;
    }
    if ((res = cli_u64_option("--table", argc, argv, i, &n)) != ARG_NOT_MINE) {
        if (res != ARG_TAKEN || n == 0 || n > 1000)
            return ARG_BAD;
        c->table = (size_t)n - 1;
        return ARG_TAKEN;
    }
    if ((res = cli_u64_option("--end-offset", argc, argv, i, &n)) != ARG_NOT_MINE) {
        if (res != ARG_TAKEN || n > INT64_MAX)
            return ARG_BAD;
        c->given |= 1u << SIMDSV_SNIFF_FOOTER;
        return simdsv_options_set(c->opt, SIMDSV_OPT_END_OFFSET, (int64_t)n) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    }
    if (strcmp(arg, "--no-sniff") == 0) {
        c->no_sniff = true;
        return ARG_TAKEN;
    }
    if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
        c->verbose = true;
        return ARG_TAKEN;
    }
    if ((v = cli_option_value("--kernel", argc, argv, i, &missing)) || missing) {
        const int k = missing ? -1 : simdsv_kernel_from_name(v);
        c->bad_why = missing ? NULL : "expected auto, scalar, sse42, avx2, avx512 or neon";
        if (k < 0)
            return ARG_BAD;
        return simdsv_options_set(c->opt, SIMDSV_OPT_KERNEL, k) == SIMDSV_OK ? ARG_TAKEN : ARG_BAD;
    }
    return ARG_NOT_MINE;
}

arg_result cli_u64_option(const char *name, int argc, char **argv, int *i, unsigned long long *out)
{
    bool missing;
    const char *v = cli_option_value(name, argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    if (!v)
        return ARG_NOT_MINE;
    return cli_parse_u64(v, out) ? ARG_TAKEN : ARG_BAD;
}

int64_t cli_opt(const cli_common *c, simdsv_option id)
{
    int64_t v = 0;
    simdsv_options_get(c->opt, id, &v);
    return v;
}

void cli_error(const char *fmt, ...)
{
    progress_erase();
    va_list ap;
    va_start(ap, fmt);
    fputs("simdsv: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

simdsv_reader *cli_new_reader(const simdsv_options *opt)
{
    simdsv_reader *r = NULL;
    const simdsv_status st = simdsv_reader_new(&r, opt);
    if (st == SIMDSV_OK)
        return r;
    progress_erase();
    if (st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        fprintf(stderr, "simdsv: the requested kernel is not supported on this CPU (best available: %s)\n",
                simdsv_kernel_name(simdsv_kernel_supported(SIMDSV_KERNEL_AVX2) ? SIMDSV_KERNEL_AVX2
                                                                                  : SIMDSV_KERNEL_SCALAR));
    else
        fprintf(stderr, "simdsv: %s\n", simdsv_status_message(st));
    return NULL;
}

simdsv_reader *cli_open_with(cli_common *c, const simdsv_options *opt)
{
    c->display = strcmp(c->file, "-") == 0 ? "<stdin>" : c->file;
    c->in = NULL;
    /* Every FILE is read with its own dialect: the first was detected by
     * cli_parse, each next one here. */
    if (opt == c->opt && c->sniffed != c->file) {
        cli_release_detected(c);
        if (cli_detect(c) >= 0)
            return NULL;
    }
    if (c->refused && opt == c->opt && c->sniffed == c->file)
        return NULL; /* not text: cli_detect said so */
    simdsv_reader *r = cli_new_reader(opt);
    if (!r)
        return NULL;
    simdsv_status st;
    if (c->sampled && c->sniffed == c->file) {
        c->in = c->sampled; /* its first bytes were read by detection: served again first */
        c->sampled = NULL;
    } else {
        c->in = input_open(c->file, c->display);
    }
    if (c->in && c->table_ranges && c->sniffed == c->file && !input_keep_ranges(c->in, c->table_ranges, c->table_count)) {
        cli_error("out of memory");
        cli_close(c, r);
        return NULL;
    }
    if (!c->in) {
        simdsv_reader_free(r);
        return NULL;
    }
    st = input_open_reader(c->in, r);
    if (st != SIMDSV_OK) {
        cli_error("%s: %s", c->display, simdsv_status_message(st));
        cli_close(c, r);
        return NULL;
    }
    return r;
}

simdsv_reader *cli_open(cli_common *c)
{
    return cli_open_with(c, c->opt);
}

void cli_close(cli_common *c, simdsv_reader *r)
{
    simdsv_reader_free(r);
    input_close(c->in);
    c->in = NULL;
}

void cli_put_text(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7F)
            fprintf(stderr, "\\x%02X", *p);
        else
            fputc(*p, stderr);
    }
}

void cli_report(const cli_common *c, const simdsv_reader *r)
{
    cli_report_error(c, simdsv_reader_error(r));
}

void cli_report_error(const cli_common *c, const simdsv_error *e)
{
    progress_erase();
    if (e->code == SIMDSV_ERR_IO) {
        const char *why = c->in ? input_error(c->in) : NULL;
        if (why) {
            fprintf(stderr, "%s: error: %s\n", c->display, why);
            return;
        }
        fprintf(stderr, "%s: error: %s%s%s\n", c->display, e->message, e->os_errno ? ": " : "",
                e->os_errno ? strerror(e->os_errno) : "");
        return;
    }
    /* The library says what is wrong; which option changes that is the CLI's to say. */
    const char *hint = e->code == SIMDSV_ERR_VALUE         ? " (use --on-error null to make it null)"
                       : e->code == SIMDSV_ERR_RAGGED_ROW ? " (--short-rows pad and --long-rows truncate accept it)"
                       : e->code == SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD || e->code == SIMDSV_ERR_TEXT_AFTER_QUOTE ||
                               e->code == SIMDSV_ERR_UNTERMINATED_QUOTE
                           ? " (--lenient reads stray quotes as text, --no-quote reads every quote as text)"
                           : "";
    fprintf(stderr, "%s:%llu:%llu: error: ", c->display, (unsigned long long)e->line, (unsigned long long)e->column);
    cli_put_text(e->message); /* it may quote a column name */
    fprintf(stderr, "%s (byte %llu, record %llu, field %llu)\n", hint, (unsigned long long)e->byte_offset,
            (unsigned long long)e->record + 1, (unsigned long long)e->field + 1);
}

simdsv_status cli_header(cli_common *c, simdsv_reader *r, simdsv_record *rec, bool *has_header)
{
    *has_header = cli_opt(c, SIMDSV_OPT_HEADER) != 0;
    rec->field_count = 0;
    if (!*has_header)
        return SIMDSV_OK;
    const simdsv_status st = simdsv_reader_header(r, rec);
    if (st != SIMDSV_OK)
        rec->field_count = 0;
    return st;
}

/* --union-by-name, --filename-column NAME, --hive, --no-hive. */
static arg_result dataset_arg(cli_common *c, int argc, char **argv, int *i)
{
    bool missing;
    const char *v = cli_option_value("--filename-column", argc, argv, i, &missing);
    if (missing)
        return ARG_BAD;
    simdsv_status st;
    if (v)
        st = simdsv_options_set_string(c->opt, SIMDSV_OPT_FILENAME_COLUMN, *v ? v : NULL);
    else if (strcmp(argv[*i], "--union-by-name") == 0)
        st = simdsv_options_set(c->opt, SIMDSV_OPT_UNION_BY_NAME, 1);
    else if (strcmp(argv[*i], "--hive") == 0)
        st = simdsv_options_set(c->opt, SIMDSV_OPT_HIVE, SIMDSV_HIVE_ON);
    else if (strcmp(argv[*i], "--no-hive") == 0)
        st = simdsv_options_set(c->opt, SIMDSV_OPT_HIVE, SIMDSV_HIVE_OFF);
    else
        return ARG_NOT_MINE;
    if (st != SIMDSV_OK) {
        c->bad_why = simdsv_options_error(c->opt);
        return ARG_BAD;
    }
    c->dataset_options = true;
    return ARG_TAKEN;
}

static bool has_glob_magic(const char *s)
{
    return strpbrk(s, "*?[") != NULL;
}

/* Each FILE that is a folder, or a glob that names no file as it is, is
 * replaced by the files it names (the library's listing: sorted, each
 * once).  *any: some FILE was.  false after a message. */
static bool expand_files(cli_common *c, bool *any)
{
    *any = false;
    size_t want = 0;
    for (size_t k = 0; k < c->nfiles; k++) {
        struct stat st;
        const char *f = c->files[k];
        const bool exists = strcmp(f, "-") == 0 || stat(f, &st) == 0;
        if (exists && (strcmp(f, "-") == 0 || !S_ISDIR(st.st_mode)))
            continue;
        if (!exists && !has_glob_magic(f))
            continue; /* opening it says why */
        *any = true;
        break;
    }
    if (!*any)
        return true;
    const char **files = NULL;
    for (size_t k = 0; k < c->nfiles; k++) {
        struct stat st;
        const char *f = c->files[k];
        const bool as_given = strcmp(f, "-") == 0 || (stat(f, &st) == 0 ? !S_ISDIR(st.st_mode) : !has_glob_magic(f));
        simdsv_dataset *list = NULL;
        size_t n = 1;
        if (!as_given) {
            if (simdsv_dataset_new(&list, NULL, NULL) != SIMDSV_OK) {
                cli_error("out of memory");
                free(files);
                return false;
            }
            if (simdsv_dataset_add_path(list, f) != SIMDSV_OK) {
                cli_error("%s", simdsv_dataset_error(list)->message);
                simdsv_dataset_free(list);
                free(files);
                return false;
            }
            n = simdsv_dataset_files(list);
        }
        const char **grown = realloc(files, (want + n) * sizeof *files);
        char **owned = as_given ? c->expanded : realloc(c->expanded, (c->nexpanded + n) * sizeof *c->expanded);
        if (!grown || (!as_given && !owned)) {
            cli_error("out of memory");
            free(grown ? grown : files);
            simdsv_dataset_free(list);
            return false;
        }
        files = grown;
        if (!as_given)
            c->expanded = owned;
        if (as_given)
            files[want++] = f;
        for (size_t i = 0; !as_given && i < n; i++) {
            char *copy = strdup(simdsv_dataset_file(list, i));
            if (!copy) {
                cli_error("out of memory");
                free(files);
                simdsv_dataset_free(list);
                return false;
            }
            c->expanded[c->nexpanded++] = copy;
            files[want++] = copy;
        }
        simdsv_dataset_free(list);
    }
    free(c->files);
    c->files = files;
    c->nfiles = want;
    return true;
}

static long long read_stdin(void *ctx, void *buf, size_t size, int *os_errno)
{
    (void)ctx;
    ssize_t n;
    do
        n = read(STDIN_FILENO, buf, size);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        *os_errno = errno;
    return n;
}

/* The FILEs as one dataset (c->ds), each file detected on its own with the
 * settings given by hand.  -1 to go on, or the exit status. */
static int open_dataset(cli_common *c)
{
    const simdsv_sniff_params detect = {NULL, c->no_sniff ? SIMDSV_SNIFF_GIVEN_ALL : c->given, c->header_rows,
                                        c->table, 0, c->records_only};
    if (c->table_all)
        return cli_usage_error(c->command, "%s", "--table all reads one FILE");
    if (simdsv_dataset_new(&c->ds, c->opt, &detect) != SIMDSV_OK) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    c->file = c->files[0];
    c->display = c->file;
    for (size_t k = 0; k < c->nfiles; k++) {
        const simdsv_dataset_source in = {read_stdin, NULL, NULL, NULL, -1};
        const simdsv_status st = strcmp(c->files[k], "-") == 0 ? simdsv_dataset_add_callback(c->ds, "<stdin>", &in)
                                                              : simdsv_dataset_add_path(c->ds, c->files[k]);
        if (st != SIMDSV_OK)
            return cli_dataset_failure(c);
    }
    return -1;
}

int cli_dataset_failure(const cli_common *c)
{
    const simdsv_error *e = simdsv_dataset_error(c->ds);
    const long f = simdsv_dataset_error_file(c->ds);
    /* Whole: a message naming files is longer than e->message holds. */
    const char *message = *simdsv_dataset_error_message(c->ds) ? simdsv_dataset_error_message(c->ds)
                                                                : simdsv_status_message(e->code);
    progress_erase();
    if (f < 0) {
        cli_error("%s", message);
        return EXIT_DATA;
    }
    cli_common one = *c;
    one.display = simdsv_dataset_file(c->ds, (size_t)f);
    one.in = NULL;
    if (!e->line && strstr(message, one.display)) { /* a conflict between files: the message names them */
        cli_error("%s", message);
    } else if (e->line) {
        cli_report_error(&one, e);
    } else {
        fprintf(stderr, "%s: error: ", one.display);
        cli_put_text(message);
        if (e->os_errno)
            fprintf(stderr, ": %s", strerror(e->os_errno));
        fputc('\n', stderr);
    }
    return EXIT_DATA;
}

int cli_parse(const cli_spec *spec, int argc, char **argv, cli_common *c)
{
    const char *command = spec->command;
    memset(c, 0, sizeof *c);
    c->command = command;
    c->out_delimiter = ',';
    c->progress = -1;
    c->records_only = (spec->flags & CLI_RECORDS) != 0;
    c->opt = simdsv_options_new(NULL);
    c->files = malloc(sizeof *c->files * (size_t)(argc > 0 ? argc : 1));
    c->positional = malloc(sizeof *c->positional * (spec->positionals + 1));
    if (!c->opt || !c->files || !c->positional) {
        fputs("simdsv: out of memory\n", stderr);
        return EXIT_DATA;
    }
    if (spec->flags & CLI_UTF8_LOSSY) /* before the arguments: --utf8 given wins */
        simdsv_options_set(c->opt, SIMDSV_OPT_UTF8, SIMDSV_UTF8_LOSSY);
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)) {
            fputs(spec->help, stdout);
            if (spec->flags & CLI_DATASET)
                fputs(dataset_help, stdout);
            if (spec->flags & (CLI_OUTPUT | CLI_CSV_OUT)) {
                fputs(output_help, stdout);
                if (spec->flags & CLI_CSV_OUT)
                    fputs(csv_output_help, stdout);
            }
            fputs(cli_common_help, stdout);
            return EXIT_OK;
        }
        if (!options_done && strcmp(arg, "--") == 0) {
            options_done = true;
            continue;
        }
        if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            c->bad_why = NULL; /* a reason belongs to this argument only */
            arg_result res = spec->extra ? spec->extra(spec->ctx, argc, argv, &i) : ARG_NOT_MINE;
            if (res == ARG_NOT_MINE && (spec->flags & CLI_DATASET))
                res = dataset_arg(c, argc, argv, &i);
            if (res == ARG_NOT_MINE)
                res = cli_common_arg(c, argc, argv, &i);
            if (res == ARG_NOT_MINE) {
                bool missing = false;
                const char *v;
                if (strcmp(arg, "--progress") == 0) {
                    c->progress = 1;
                    res = ARG_TAKEN;
                } else if (strcmp(arg, "--no-progress") == 0) {
                    c->progress = 0;
                    res = ARG_TAKEN;
                } else if ((spec->flags & CLI_OUTPUT) &&
                           ((v = cli_option_value("-o", argc, argv, &i, &missing)) || missing ||
                            (v = cli_option_value("--output", argc, argv, &i, &missing)) || missing)) {
                    res = missing || !*v ? ARG_BAD : ARG_TAKEN;
                    if (res == ARG_TAKEN)
                        c->output = strcmp(v, "-") == 0 ? NULL : v;
                } else if ((spec->flags & CLI_CSV_OUT) &&
                           ((v = cli_option_value("--output-delimiter", argc, argv, &i, &missing)) || missing)) {
                    int d = -1;
                    res = !missing && cli_parse_byte(v, &d) && d >= 0 && d != '"' && d != '\n' && d != '\r'
                              ? ARG_TAKEN
                              : ARG_BAD;
                    c->out_delimiter = d;
                }
            }
            if (res == ARG_NOT_MINE)
                return cli_usage_error(command, "unknown option '%s'", arg);
            if (res == ARG_BAD && c->bad_why && *c->bad_why) {
                fprintf(stderr, "simdsv %s: invalid value for '%s': %s\nTry 'simdsv %s --help'.\n", command, arg,
                        c->bad_why, command);
                return EXIT_USAGE;
            }
            if (res == ARG_BAD)
                return cli_usage_error(command, "missing or invalid value for '%s'", arg);
            continue;
        }
        if (c->npositional < spec->positionals) {
            c->positional[c->npositional++] = arg;
            continue;
        }
        if (c->nfiles && !(spec->flags & (CLI_MANY_FILES | CLI_DATASET)))
            return cli_usage_error(command, "unexpected argument '%s' (one FILE expected)", arg);
        if (strcmp(arg, "-") == 0)
            for (size_t k = 0; k < c->nfiles; k++)
                if (strcmp(c->files[k], "-") == 0)
                    return cli_usage_error(command, "%s", "standard input (-) can be read only once");
        c->files[c->nfiles++] = arg;
    }
    if (c->npositional < spec->positionals)
        return cli_usage_error(command, "missing %s", spec->positional_names);
    if (!c->nfiles)
        return cli_usage_error(command, "%s", "missing FILE (use - for standard input)");
    bool expanded = false;
    if (!expand_files(c, &expanded))
        return EXIT_DATA;
    if (c->nfiles > 1 && !(spec->flags & (CLI_MANY_FILES | CLI_DATASET)))
        return cli_usage_error(command, "unexpected argument '%s' (one FILE expected)", c->files[1]);
    if ((spec->flags & CLI_DATASET) && (c->nfiles > 1 || expanded || c->dataset_options))
        return open_dataset(c);
    c->file = c->files[0];
    c->display = strcmp(c->file, "-") == 0 ? "<stdin>" : c->file;
    return spec->flags & CLI_NO_SNIFF ? -1 : cli_detect(c);
}

void cli_release_detected(cli_common *c)
{
    input_close(c->sampled);
    c->sampled = NULL;
    free(c->table_ranges);
    c->table_ranges = NULL;
}

void cli_common_free(cli_common *c)
{
    cli_release_detected(c);
    simdsv_dataset_free(c->ds);
    c->ds = NULL;
    for (size_t k = 0; k < c->nexpanded; k++)
        free(c->expanded[k]);
    free(c->expanded);
    c->expanded = NULL;
    c->nexpanded = 0;
    simdsv_options_free(c->opt);
    free(c->files);
    free(c->positional);
    c->opt = NULL;
    c->files = NULL;
    c->positional = NULL;
}

void cli_start(cli_common *c)
{
    uint64_t total = 0;
    for (size_t i = 0; i < c->nfiles; i++) {
        const uint64_t n = input_path_size(c->files[i]);
        if (!n) {
            total = 0;
            break;
        }
        total += n;
    }
    progress_start(c->progress, total);
}

int cli_end_of_records(cli_common *c, simdsv_reader *r, simdsv_status st)
{
    if (st == SIMDSV_END || st == SIMDSV_OK)
        return EXIT_OK;
    out_flush();
    if (st == SIMDSV_ERR_NOMEM && simdsv_reader_error(r)->code != SIMDSV_ERR_NOMEM)
        cli_error("out of memory");
    else
        cli_report(c, r);
    return EXIT_DATA;
}

simdsv_reader *cli_begin(cli_common *c, int *status)
{
    if (*status >= 0 || !out_open(c->output)) {
        cli_common_free(c);
        *status = *status >= 0 ? *status : EXIT_DATA;
        return NULL;
    }
    cli_start(c);
    simdsv_reader *r = cli_open(c);
    if (!r) {
        cli_common_free(c);
        *status = EXIT_DATA;
    }
    return r;
}
