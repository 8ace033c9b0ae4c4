/* cmd_tail.c — simdsv tail: the last N records.
 *
 * A regular, uncompressed file is not read through: the last 64 KiB are
 * read, and record boundaries found from the first line end in that part.
 * Whether that line end is a record boundary or inside a quoted field cannot
 * be known without the bytes before it, so both are tried, each parsed by the
 * library (strict RFC 4180): "the line end ends a record" (H0) and "the line
 * end is inside quotes" (H1: the part is parsed after an opening quote).  On
 * real data exactly one of them parses; when both do (ambiguous) or there are
 * fewer than N records, the part grows (x4); when it reaches the header, or
 * neither parses (the file has an error somewhere), or in lenient mode when
 * the part holds a quote, the file is read from the start, keeping the last N
 * records in a ring.  Pipes and compressed input are read that way too. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: simdsv tail [-n N] [OPTIONS] FILE\n"
    "Writes the header (unless --no-header) and the last N data records as CSV.  A\n"
    "regular file is not read through: only its end is read and parsed (quoted line\n"
    "ends included), so only the records written are validated.\n"
    "  -n N               how many records (default 10)\n\n";

typedef struct ring {
    strbuf *slots;
    size_t n, next, filled;
} ring;

static bool ring_init(ring *g, size_t n)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->slots = calloc(n ? n : 1, sizeof *g->slots);
    return g->slots != NULL;
}

static void ring_clear(ring *g)
{
    g->next = g->filled = 0;
}

static void ring_free(ring *g)
{
    for (size_t i = 0; i < g->n; i++)
        free(g->slots[i].data);
    free(g->slots);
}

static bool ring_push(ring *g, text_buffer *tb, const simdsv_record *rec, int delimiter)
{
    if (!g->n)
        return true;
    strbuf *s = &g->slots[g->next];
    s->len = 0;
    g->next = (g->next + 1) % g->n;
    g->filled++;
    return sb_csv_record(s, tb, rec, delimiter);
}

static void ring_write(const ring *g)
{
    const size_t count = g->filled < g->n ? g->filled : g->n;
    size_t i = (g->next + g->n - count) % (g->n ? g->n : 1);
    for (size_t k = 0; k < count; k++, i = (i + 1) % g->n)
        out_write(g->slots[i].data, g->slots[i].len);
}

/* Parses data[0..size) with the command's options (no header, no skipped
 * lines) into the ring, dropping the first `drop` records.  Returns the
 * number of records kept, or -1 if the bytes do not parse. */
static long long parse_part(cli_common *c, const char *data, size_t size, size_t drop, ring *g, text_buffer *tb)
{
    int64_t header = cli_opt(c, SIMDSV_OPT_HEADER), skip = cli_opt(c, SIMDSV_OPT_SKIP_LINES);
    simdsv_options_set(c->opt, SIMDSV_OPT_HEADER, 0);
    simdsv_options_set(c->opt, SIMDSV_OPT_SKIP_LINES, 0);
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, c->opt);
    simdsv_options_set(c->opt, SIMDSV_OPT_HEADER, header);
    simdsv_options_set(c->opt, SIMDSV_OPT_SKIP_LINES, skip);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_memory(r, data, size);
    ring_clear(g);
    long long kept = 0;
    simdsv_record rec;
    while (st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        if (drop) {
            drop--;
            continue;
        }
        if (!ring_push(g, tb, &rec, c->out_delimiter))
            st = SIMDSV_ERR_NOMEM;
        kept++;
    }
    simdsv_reader_free(r);
    return st == SIMDSV_END ? kept : -1;
}

static bool read_at(int fd, char *buf, size_t size, uint64_t offset)
{
    while (size) {
        const ssize_t n = pread(fd, buf, size, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        buf += n;
        size -= (size_t)n;
        offset += (uint64_t)n;
    }
    return true;
}

/* 1: the ring holds the last records; 0: read the whole file instead. */
static int tail_seek(cli_common *c, int fd, uint64_t size, uint64_t min_start, size_t want, ring *out,
                     text_buffer *tb)
{
    const int quote = (int)cli_opt(c, SIMDSV_OPT_QUOTE);
    const bool lenient = cli_opt(c, SIMDSV_OPT_LENIENT) != 0;
    size_t chunk = 64 * 1024;
    int result = 0;
    char *buf = NULL;
    ring other;
    if (!ring_init(&other, out->n))
        return 0;
    for (;; chunk *= 4) {
        if (size <= min_start || size - min_start <= chunk || chunk > SIZE_MAX / 8)
            break; /* the part would reach the header: read everything */
        free(buf);
        buf = malloc(chunk + 1);
        if (!buf || !read_at(fd, buf + 1, chunk, size - chunk))
            break;
        progress_add(chunk);
        char *lf = memchr(buf + 1, '\n', chunk);
        if (!lf)
            continue;
        /* H0: the part from the line end (an empty line, then records). */
        const char *h0 = lf;
        const size_t h0_size = chunk - (size_t)(lf - (buf + 1));
        const bool has_quote = quote >= 0 && memchr(lf + 1, quote, h0_size - 1) != NULL;
        if (!has_quote) {
            if (parse_part(c, h0, h0_size, 0, out, tb) < 0)
                break;
            if (out->filled >= want) {
                result = 1;
                break;
            }
            continue;
        }
        if (lenient)
            break; /* any reading parses: nothing to decide with */
        const long long n0 = parse_part(c, h0, h0_size, 0, out, tb);
        /* H1: an opening quote instead of the line end; its record is dropped. */
        *lf = (char)quote;
        const long long n1 = parse_part(c, lf, h0_size, 1, &other, tb);
        *lf = '\n';
        if (n0 < 0 && n1 < 0)
            break;         /* an error somewhere: a full read reports it */
        if (n0 >= 0 && n1 >= 0)
            continue;      /* ambiguous: look further back */
        if (n1 >= 0) {
            ring tmp = *out;
            *out = other;
            other = tmp;
        }
        if (out->filled >= want) {
            result = 1;
            break;
        }
    }
    free(buf);
    ring_free(&other);
    if (!result)
        ring_clear(out);
    return result;
}

static arg_result tail_arg(void *ctx, int argc, char **argv, int *i)
{
    return cli_u64_option("-n", argc, argv, i, ctx);
}

typedef struct tail_run {
    cli_common *c;
    size_t n;
    ring g;
    field_views views;
} tail_run;

/* The header, then the end of a regular file read directly when that works. */
static int tail_header(void *ctx, text_buffer *tb, const simdsv_record *rec)
{
    tail_run *s = ctx;
    cli_common *c = s->c;
    if (rec && !write_all_fields(tb, rec, c->out_delimiter))
        return -1;
    if (s->n == 0)
        return CLI_STOP;
    uint64_t size = 0;
    const int fd = input_seekable_fd(c->in, &size);
    /* Seeking reads the file's own bytes: not for a converted or cut input. */
    if (fd >= 0 && (rec || cli_opt(c, SIMDSV_OPT_SKIP_LINES) == 0) && cli_opt(c, SIMDSV_OPT_END_OFFSET) == 0 &&
        !*simdsv_options_get_string(c->opt, SIMDSV_OPT_ENCODING)) {
        const uint64_t min_start = rec ? simdsv_reader_offset(c->reader) : 0;
        if (tail_seek(c, fd, size, min_start, s->n, &s->g, tb) == 1)
            return CLI_STOP;
    }
    return 0;
}

static int tail_batch(void *ctx, text_buffer *tb, const simdsv_batch *b)
{
    tail_run *s = ctx;
    simdsv_record rec;
    /* Only the last n records of the batch can be among the last n. */
    for (size_t k = b->count > s->n ? b->count - s->n : 0; k < b->count; k++)
        if (!batch_record(b, k, &s->views, &rec) || !ring_push(&s->g, tb, &rec, s->c->out_delimiter))
            return -1;
    return 0;
}

static int tail_finish(void *ctx)
{
    ring_write(&((tail_run *)ctx)->g);
    return EXIT_OK;
}

int cmd_tail(int argc, char **argv)
{
    cli_common c;
    unsigned long long n = 10;
    const cli_spec spec = {"tail", help, CLI_OUTPUT | CLI_CSV_OUT | CLI_RECORDS, 0, NULL, tail_arg, &n};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status < 0 && n > SIZE_MAX / sizeof(strbuf))
        status = cli_usage_error("tail", "%s", "-n is too large");
    tail_run s;
    memset(&s, 0, sizeof s);
    s.c = &c;
    s.n = (size_t)n;
    if (status < 0 && !ring_init(&s.g, s.n)) {
        cli_error("out of memory");
        status = EXIT_DATA;
    }
    const cli_record_ops ops = {tail_header, tail_batch, tail_finish, NULL};
    status = cli_run_records(&c, status, &ops, &s);
    ring_free(&s.g);
    field_views_free(&s.views);
    return status;
}
