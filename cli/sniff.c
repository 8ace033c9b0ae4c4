/* sniff.c — automatic reading (the dialect detected before a command reads,
 * for every setting not given by hand) and the 'simdsv sniff' command. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "typed.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool given(const cli_common *c, simdsv_sniff_setting k)
{
    return (c->given >> k) & 1u;
}

/* Detects the dialect of an opened input (simdsv_input_detect: the start,
 * middle and end of a plain regular file, else the first decoded bytes of
 * the stream, kept for the reader: nothing is lost, no seek is needed).
 * With opt, every setting not given by hand is set on it. */
static simdsv_status sniff_input(const cli_common *c, cli_input *in, const char *display, bool quiet,
                                 simdsv_options *opt, simdsv_sniff **out)
{
    simdsv_sniff_params p;
    memset(&p, 0, sizeof p);
    p.opt = c->opt;
    p.given = c->given;
    p.header_rows = c->header_rows;
    p.table = c->table;
    /* -v says everything detected, as 'simdsv sniff' does: the value formats too. */
    p.dialect_only = c->records_only && !c->verbose;
    simdsv_error err;
    const simdsv_status st = simdsv_input_detect(input_library(in), &p, opt, out, &err);
    if (st == SIMDSV_ERR_IO && !quiet)
        cli_error("%s: %s", display, err.message);
    return st;
}

/* 'simdsv sniff FILE': the input opened for detection only. */
static simdsv_status sniff_file(const cli_common *c, const char *file, const char *display, simdsv_sniff **out)
{
    cli_input *in = input_open(file, display);
    if (!in)
        return SIMDSV_ERR_IO;
    const simdsv_status st = sniff_input(c, in, display, false, NULL, out);
    input_close(in);
    return st;
}

/* A dialect byte as the --delimiter option takes it. */
static void option_byte(strbuf *sb, int b)
{
    char tmp[8];
    if (b == '\t')
        snprintf(tmp, sizeof tmp, "'\\t'");
    else if (b == '\'')
        snprintf(tmp, sizeof tmp, "\"'\"");
    else if (b == '\\')
        snprintf(tmp, sizeof tmp, "'\\\\'");
    else if (b < 0x20 || b >= 0x7F)
        snprintf(tmp, sizeof tmp, "'\\x%02X'", (unsigned)b);
    else
        snprintf(tmp, sizeof tmp, "'%c'", b);
    sb_put(sb, tmp, strlen(tmp));
}

static void put(strbuf *sb, const char *s)
{
    sb_put(sb, s, strlen(s));
}

/* The options that read the file as detected, NUL-terminated in sb. */
static void reproduce(const simdsv_sniff *s, strbuf *sb)
{
    put(sb, "--delimiter ");
    if (s->delimiter[1]) {
        put(sb, "'");
        for (const char *d = s->delimiter; *d; d++) {
            char tmp[8];
            if (*d == '\'' || (unsigned char)*d < 0x20 || (unsigned char)*d >= 0x7F || *d == '\\')
                snprintf(tmp, sizeof tmp, "\\x%02X", (unsigned char)*d);
            else
                snprintf(tmp, sizeof tmp, "%c", *d);
            put(sb, tmp);
        }
        put(sb, "'");
    } else {
        option_byte(sb, (unsigned char)s->delimiter[0]);
    }
    if (s->padding)
        put(sb, " --trim-spaces");
    if (s->quote < 0) {
        put(sb, " --no-quote");
    } else {
        put(sb, " --quote ");
        option_byte(sb, s->quote);
    }
    if (s->escape >= 0) {
        put(sb, " --escape ");
        option_byte(sb, s->escape);
    }
    if (s->comment >= 0) {
        put(sb, " --comment ");
        option_byte(sb, s->comment);
    }
    if (strcmp(s->encoding, "utf-8") != 0) {
        put(sb, " --encoding ");
        put(sb, s->encoding);
    }
    char tmp[64];
    if (s->skip_lines) {
        snprintf(tmp, sizeof tmp, " --skip-lines %llu", (unsigned long long)s->skip_lines);
        put(sb, tmp);
    }
    if (!s->header)
        put(sb, " --no-header");
    else if (s->header_rows > 1) {
        snprintf(tmp, sizeof tmp, " --header-rows %llu", (unsigned long long)s->header_rows);
        put(sb, tmp);
    }
    if (s->table_count > 1) {
        snprintf(tmp, sizeof tmp, " --table %zu", s->table + 1);
        put(sb, tmp);
    }
    if (s->end_offset) {
        snprintf(tmp, sizeof tmp, " --end-offset %llu", (unsigned long long)s->end_offset);
        put(sb, tmp);
    }
    if (s->decimal_comma)
        put(sb, " --decimal-comma");
    if (s->thousands) {
        put(sb, " --thousands ");
        option_byte(sb, s->thousands);
    }
    if (s->date_order != SIMDSV_DATE_ISO) {
        static const char *const orders[] = {"iso", "dmy", "mdy", "ymd"};
        put(sb, " --date-order ");
        put(sb, orders[s->date_order]);
    }
    sb_put(sb, "", 1);
}

/* A table's columns, for the message: "a, b, c" (the first few). */
static void column_list(const simdsv_sniff *s, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < s->column_count && n + 1 < cap; i++) {
        const int w = snprintf(out + n, cap - n, "%s%s", i ? ", " : "", *s->columns[i].name ? s->columns[i].name : "-");
        if (w < 0 || (size_t)w >= cap - n) {
            snprintf(out + (cap > 4 ? cap - 4 : 0), cap > 4 ? 4 : cap, "...");
            return;
        }
        n += (size_t)w;
    }
}

/* --table all: every table sniffed as the one read, its columns compared
 * with the first's (count and names), and the byte ranges kept in
 * c->table_ranges: the first table from its first line, each next one from
 * its first row below the header.  Returns -1 to go on, or the exit status
 * after the message. */
static int join_tables(cli_common *c, cli_input *in, const simdsv_sniff *first)
{
    const size_t n = first->table_count;
    uint64_t *ranges = malloc(2 * n * sizeof *ranges);
    if (!ranges) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    int status = -1;
    for (size_t k = 0; k < n && status < 0; k++) {
        cli_common one = *c;
        one.table = k;
        simdsv_sniff *t = NULL;
        const simdsv_status st = k ? sniff_input(&one, in, c->display, true, NULL, &t) : SIMDSV_OK;
        const simdsv_sniff *tk = k ? t : first;
        if (st != SIMDSV_OK || tk->table != k) {
            cli_error("%s: --table all: table %zu could not be read (%s)", c->display, k + 1,
                      st != SIMDSV_OK ? simdsv_status_message(st) : "not found again");
            status = EXIT_DATA;
        } else {
            bool same = tk->column_count == first->column_count;
            for (size_t i = 0; same && i < first->column_count; i++)
                same = strcmp(tk->columns[i].name, first->columns[i].name) == 0;
            const simdsv_sniff_table *range = &tk->tables[k];
            if (!same) {
                char a[160], b[160];
                column_list(first, a, sizeof a);
                column_list(tk, b, sizeof b);
                cli_error("%s: --table all: the columns of table %zu (line %llu: %zu, %s) differ from table 1's "
                          "(line %llu: %zu, %s); --table K reads one of them",
                          c->display, k + 1, (unsigned long long)range->first_line, tk->column_count, b,
                          (unsigned long long)first->tables[0].first_line, first->column_count, a);
                status = EXIT_DATA;
            } else if (k && !range->data_start) {
                cli_error("%s: --table all: where the rows of table %zu start is not known (past the sample, or "
                          "an encoding read by iconv); --table K reads one table",
                          c->display, k + 1);
                status = EXIT_DATA;
            }
            ranges[2 * k] = k ? range->data_start : range->byte_start;
            /* The last table ends where the footer starts (or at the end). */
            ranges[2 * k + 1] = k + 1 < n ? range->byte_end : tk->end_offset;
        }
        simdsv_sniff_free(t);
    }
    if (status >= 0) {
        free(ranges);
        return status;
    }
    free(c->table_ranges);
    c->table_ranges = ranges;
    c->table_count = n;
    return -1;
}

void cli_not_text(const char *display, const simdsv_sniff *s)
{
    const char *why = s->decisions[SIMDSV_SNIFF_ENCODING].reason;
    static const char said[] = "not text: "; /* the reason's start, which the message says already */
    if (!strncmp(why, said, sizeof said - 1))
        why += sizeof said - 1;
    cli_error("%s: not a delimited text file (%s); --no-sniff reads it anyway", display, why);
}

int cli_detect(cli_common *c)
{
    /* A file that cannot be opened is reported by the command. */
    struct stat info;
    c->sniffed = c->file;
    c->refused = false;
    if (c->no_sniff || (strcmp(c->file, "-") != 0 && (stat(c->file, &info) != 0 || S_ISDIR(info.st_mode))))
        return -1;
    const char *file = c->display;
    cli_input *in = input_open(c->file, c->display);
    if (!in)
        return -1;
    simdsv_sniff *s = NULL;
    /* Every setting not given is set (the library's simdsv_input_detect), to
     * the default when nothing was found: with several FILEs, nothing
     * detected in one carries over to the next. */
    const simdsv_status st = sniff_input(c, in, c->display, true, c->opt, &s);
    free(c->table_ranges);
    c->table_ranges = NULL;
    const int joined = st == SIMDSV_OK && c->table_all && !s->binary && s->table_count > 1 ? join_tables(c, in, s) : -1;
    /* A stream keeps its sample for the reader, and a read error for the
     * reader to report after it: the command's cli_open takes it. */
    uint64_t size = 0;
    if (strcmp(c->file, "-") != 0 && input_seekable_fd(in, &size) >= 0)
        input_close(in); /* a plain file: the command opens it again */
    else
        c->sampled = in;
    if (st == SIMDSV_ERR_NOMEM) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    if (st != SIMDSV_OK)
        return -1;
    if (joined >= 0) {
        simdsv_sniff_free(s);
        return joined;
    }
    if (s->binary) {
        /* Read as text, a binary file gives nonsense or an error about its
         * bytes (invalid UTF-8): say once what it is, and how to read it anyway. */
        cli_not_text(file, s);
        c->refused = true;
        simdsv_sniff_free(s);
        return -1;
    }
    /* The tables joined are cut out of the input (c->table_ranges): no line skipped, no end. */
    if (c->table_ranges && !given(c, SIMDSV_SNIFF_PREAMBLE))
        simdsv_options_set(c->opt, SIMDSV_OPT_SKIP_LINES, 0);
    if (c->table_ranges && !given(c, SIMDSV_SNIFF_FOOTER))
        simdsv_options_set(c->opt, SIMDSV_OPT_END_OFFSET, 0);
    /* Copies of the header inside the table read (files concatenated): the
     * input is read without their lines, and the last range ends where the
     * table does (offsets past a cut line no longer match the input's). */
    const size_t kept = c->table_ranges || given(c, SIMDSV_SNIFF_FOOTER) ? 0 : simdsv_sniff_kept_ranges(s, NULL, 0);
    if (kept) {
        uint64_t *ranges = malloc(2 * kept * sizeof *ranges);
        if (!ranges) {
            simdsv_sniff_free(s);
            cli_error("out of memory");
            return EXIT_DATA;
        }
        simdsv_sniff_kept_ranges(s, ranges, kept);
        simdsv_options_set(c->opt, SIMDSV_OPT_END_OFFSET, 0);
        c->table_ranges = ranges;
        c->table_count = kept;
    }
    char left_out[256];
    if (simdsv_sniff_left_out(s, left_out, sizeof left_out)) {
        progress_erase();
        fprintf(stderr, "simdsv: %s: left out: %s\n", file, left_out);
    }
    if (s->table_count > 1 && !given(c, SIMDSV_SNIFF_TABLES) && !c->table_all) {
        progress_erase();
        fprintf(stderr, "simdsv: %s: %zu tables:", file, s->table_count);
        for (size_t i = 0; i < s->table_count; i++)
            fprintf(stderr, " %zu (line %llu)", i + 1, (unsigned long long)s->tables[i].first_line);
        fprintf(stderr, "; reading table %zu (--table K reads another)\n", s->table + 1);
    }
    if (c->verbose) {
        strbuf sb = {NULL, 0, 0};
        reproduce(s, &sb);
        cli_error("%s: detected %s", file, sb.data ? sb.data : "");
        free(sb.data);
        if (c->table_all && c->table_ranges)
            cli_error("%s: --table all: its %zu tables read one after another", file, c->table_count);
    }
    simdsv_sniff_free(s);
    return -1;
}

/* ------------------------------------------------------------ sniff */

static const char help[] =
    "usage: simdsv sniff [OPTIONS] FILE...\n"
    "Detects the dialect of each FILE over a sample (its start, middle and end):\n"
    "encoding, delimiter, quote, escape, line ending, comment lines, preamble and\n"
    "footer lines, header rows, tables, and each column's type and value format,\n"
    "each with a confidence (below 0.6: not sure) and the reason, then the options\n"
    "that read the file so.  Options given by hand are taken as they are.\n"
    "  --json             one JSON object per file\n\n";

static arg_result sniff_arg(void *ctx, int argc, char **argv, int *i)
{
    (void)argc;
    if (strcmp(argv[*i], "--json") == 0) {
        *(bool *)ctx = true;
        return ARG_TAKEN;
    }
    return ARG_NOT_MINE;
}

static void outf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#include <stdarg.h>
static void outf(const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        out_write(tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void json_str(const char *s)
{
    out_json_string(s, strlen(s));
}

static void print_json(const char *file, const simdsv_sniff *s, const char *options)
{
    out_str("{\"file\":");
    json_str(file);
    out_str(",\"encoding\":");
    json_str(s->encoding);
    outf(",\"bom\":%s,\"binary\":%s,\"delimiter\":", s->bom ? "true" : "false", s->binary ? "true" : "false");
    json_str(s->delimiter);
    char q[2] = {(char)s->quote, 0}, e[2] = {(char)s->escape, 0}, cm[2] = {(char)s->comment, 0};
    out_str(",\"quote\":");
    if (s->quote < 0)
        out_str("null");
    else
        json_str(q);
    out_str(",\"escape\":");
    if (s->escape < 0)
        out_str("null");
    else
        json_str(e);
    out_str(",\"line_ending\":");
    json_str(s->line_ending);
    out_str(",\"comment\":");
    if (s->comment < 0)
        out_str("null");
    else
        json_str(*s->comment_marker ? s->comment_marker : cm);
    outf(",\"skip_lines\":%llu,\"footer_lines\":%llu,\"end_offset\":%llu,\"header\":%s,\"header_rows\":%llu,"
         "\"padding\":%s,\"decimal_comma\":%s,\"date_order\":%d,\"sampled_rows\":%llu,\"sampled_bytes\":%llu",
         (unsigned long long)s->skip_lines, (unsigned long long)s->footer_lines, (unsigned long long)s->end_offset,
         s->header ? "true" : "false", (unsigned long long)s->header_rows, s->padding ? "true" : "false",
         s->decimal_comma ? "true" : "false", (int)s->date_order, (unsigned long long)s->sampled_rows,
         (unsigned long long)s->sampled_bytes);
    char th[2] = {(char)s->thousands, 0};
    out_str(",\"thousands\":");
    if (s->thousands)
        json_str(th);
    else
        out_str("null");
    out_str(",\"decisions\":{");
    for (int k = 0; k < SIMDSV_SNIFF_SETTING_COUNT; k++) {
        outf("%s\"%s\":{\"confidence\":%.2f,\"given\":%s,\"reason\":", k ? "," : "",
             simdsv_sniff_setting_name((simdsv_sniff_setting)k), s->decisions[k].confidence,
             s->decisions[k].given ? "true" : "false");
        json_str(s->decisions[k].reason ? s->decisions[k].reason : "");
        out_str("}");
    }
    out_str("},\"tables\":[");
    for (size_t i = 0; i < s->table_count; i++) {
        const simdsv_sniff_table *t = &s->tables[i];
        outf("%s{\"first_line\":%llu,\"last_line\":%llu,\"header_rows\":%llu,\"columns\":%zu}", i ? "," : "",
             (unsigned long long)t->first_line, (unsigned long long)t->last_line,
             (unsigned long long)t->header_rows, t->columns);
    }
    out_str("],\"repeated_headers\":[");
    for (size_t i = 0; i < s->repeated_header_count; i++)
        outf("%s%llu", i ? "," : "", (unsigned long long)s->repeated_headers[i].line);
    char left_out[512];
    simdsv_sniff_left_out(s, left_out, sizeof left_out);
    out_str("],\"left_out\":");
    json_str(left_out);
    outf(",\"table\":%zu,\"columns\":[", s->table + 1);
    for (size_t i = 0; i < s->column_count; i++) {
        const simdsv_sniff_column *col = &s->columns[i];
        out_str(i ? ",{\"name\":" : "{\"name\":");
        json_str(col->name);
        out_str(",\"type\":");
        json_str(simdsv_type_name(col->type));
        out_str(",\"format\":");
        json_str(col->format);
        outf(",\"confidence\":%.2f,\"reason\":", col->confidence);
        json_str(col->reason);
        out_str("}");
    }
    out_str("],\"options\":");
    json_str(options);
    out_str("}\n");
}

static void print_text(const char *file, const simdsv_sniff *s, const char *options)
{
    outf("%s\n", file);
    for (int k = 0; k < SIMDSV_SNIFF_SETTING_COUNT; k++)
        outf("  %-12s %.2f  %s\n", simdsv_sniff_setting_name((simdsv_sniff_setting)k), s->decisions[k].confidence,
             s->decisions[k].reason ? s->decisions[k].reason : "");
    for (size_t i = 0; i < s->table_count; i++) {
        const simdsv_sniff_table *t = &s->tables[i];
        char last[32];
        if (t->last_line)
            snprintf(last, sizeof last, "%llu", (unsigned long long)t->last_line);
        else
            snprintf(last, sizeof last, "end");
        outf("  table %zu%s: lines %llu-%s, %zu columns, %llu header row%s\n", i + 1, i == s->table ? " (read)" : "",
             (unsigned long long)t->first_line, last, t->columns, (unsigned long long)t->header_rows,
             t->header_rows == 1 ? "" : "s");
    }
    char left_out[512];
    if (simdsv_sniff_left_out(s, left_out, sizeof left_out))
        outf("  left out: %s\n", left_out);
    outf("  columns:\n");
    for (size_t i = 0; i < s->column_count; i++) {
        const simdsv_sniff_column *col = &s->columns[i];
        outf("    %zu %s: %s%s%s %.2f  %s\n", i + 1, *col->name ? col->name : "-", simdsv_type_name(col->type),
             *col->format ? " " : "", col->format, col->confidence, col->reason);
    }
    outf("  options: %s\n", options);
}

int cmd_sniff(int argc, char **argv)
{
    cli_common c;
    bool json = false;
    const cli_spec spec = {"sniff", help, CLI_MANY_FILES | CLI_OUTPUT | CLI_NO_SNIFF, 0, NULL, sniff_arg, &json};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    status = EXIT_OK;
    for (size_t f = 0; f < c.nfiles; f++) {
        const char *file = c.files[f];
        const char *display = strcmp(file, "-") == 0 ? "<stdin>" : file;
        simdsv_sniff *s = NULL;
        const simdsv_status st = sniff_file(&c, file, display, &s);
        if (st != SIMDSV_OK) {
            if (st != SIMDSV_ERR_IO)
                cli_error("%s: %s", display, simdsv_status_message(st));
            status = EXIT_DATA;
            continue;
        }
        strbuf sb = {NULL, 0, 0};
        reproduce(s, &sb);
        const char *options = sb.data ? sb.data : "";
        if (json)
            print_json(display, s, options);
        else
            print_text(display, s, options);
        if (s->binary) {
            cli_not_text(display, s);
            status = EXIT_DATA;
        }
        free(sb.data);
        simdsv_sniff_free(s);
    }
    cli_common_free(&c);
    return status;
}
