/* records.c — the skeleton of the commands that stream records: open the
 * output and the input, the header, the records in batches
 * (simdsv_reader_next_batch), the end-of-input report; and the records of a
 * batch written as CSV.  The CLI has no scanner of its own: every byte goes
 * through the library's kernels (SIMDSV_KERNEL / --kernel). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool batch_record(const simdsv_batch *b, size_t k, field_views *v, simdsv_record *rec)
{
    const size_t n = simdsv_batch_fields(b, k);
    if (n > v->cap) {
        simdsv_field *grown = realloc(v->fields, n * sizeof *grown);
        if (!grown)
            return false;
        v->fields = grown;
        v->cap = n;
    }
    for (size_t j = 0; j < n; j++)
        v->fields[j] = simdsv_batch_field(b, k, j);
    rec->fields = v->fields;
    rec->field_count = n;
    rec->index = b->first_index + k;
    rec->byte_offset = b->byte_offsets[k];
    return true;
}

csv_plain csv_plain_of(const cli_common *c)
{
    const csv_plain p = {(int)cli_opt(c, SIMDSV_OPT_DELIMITER), c->out_delimiter,
                         cli_opt(c, SIMDSV_OPT_QUOTE) != '"' || cli_opt(c, SIMDSV_OPT_LENIENT) != 0};
    return p;
}

bool batch_plain(const simdsv_batch *b, const csv_plain *p)
{
    if (b->flags_any || p->delimiter != p->out_delimiter)
        return false;
    /* Unquoted fields hold no line end, and no quote byte unless quotes are
     * off or something else, or lenient recovery made the field: such a
     * byte needs quoting in the output. */
    if (!p->check_quotes)
        return true;
    const uint32_t from = b->bounds[b->first[0]], to = b->bounds[b->first[b->count] - 1] - 1;
    return !memchr(b->data + from, '"', to - from);
}

bool batch_raw(const simdsv_batch *b, const csv_plain *p)
{
    return p->delimiter == p->out_delimiter && (!p->check_quotes || batch_plain(b, p));
}

/* Record k of a batch that batch_raw allowed, as a CSV line: the fields whose
 * raw bytes are their CSV (all of them, most of the time) are copied in runs
 * with the delimiters between them; the others are written on their own. */
static bool write_fields_raw(text_buffer *tb, const simdsv_batch *b, size_t k, int delimiter)
{
    const size_t e0 = b->first[k], n = b->first[k + 1] - e0 - 1;
    const uint32_t *o = b->bounds + e0;
    uint32_t run = o[0]; /* the bytes from here to the current field are written as they are */
    for (size_t j = 0; j < n; j++) {
        const char *p;
        size_t size;
        const bool csv = batch_field_csv(b, e0 + j, delimiter, n == 1, &p, &size);
        if (csv && p == b->data + o[j])
            continue;
        out_write(b->data + run, o[j] - run);
        if (csv) {
            out_write(p, size);
        } else {
            const simdsv_field f = simdsv_batch_field(b, k, j);
            text_reset(tb);
            if (!text_of(tb, &f, &p, &size))
                return false;
            out_csv_field(p, size, delimiter, n == 1);
        }
        run = o[j + 1] - 1; /* the separator after the field starts the next run */
    }
    const size_t size = o[n] - 1 - run;
    char *w = out_reserve(size + 1);
    if (w) {
        memcpy(w, b->data + run, size);
        w[size] = '\n';
        out_commit(size + 1);
    } else {
        out_write(b->data + run, size);
        out_byte('\n');
    }
    return true;
}

bool write_batch_csv(text_buffer *tb, const simdsv_batch *b, size_t from, size_t to, bool raw,
                     int out_delimiter, field_views *v)
{
    if (raw && b->flags_any) {
        for (size_t k = from; k < to; k++)
            if (!write_fields_raw(tb, b, k, out_delimiter))
                return false;
        return true;
    }
    if (raw) {
        /* Each record's bytes, up to its line end, are already its CSV. */
        for (size_t k = from; k < to; k++) {
            const uint32_t *o = b->bounds + b->first[k];
            const size_t n = b->first[k + 1] - b->first[k] - 1;
            const size_t size = o[n] - 1 - o[0];
            if (size == 0) { /* a lone empty field reads back as an empty line unless quoted */
                out_write("\"\"\n", 3);
                continue;
            }
            char *w = out_reserve(size + 1);
            if (w) {
                memcpy(w, b->data + o[0], size);
                w[size] = '\n';
                out_commit(size + 1);
            } else {
                out_write(b->data + o[0], size);
                out_byte('\n');
            }
        }
        return true;
    }
    simdsv_record rec;
    for (size_t k = from; k < to; k++)
        if (!batch_record(b, k, v, &rec) || !write_all_fields(tb, &rec, out_delimiter))
            return false;
    return true;
}

void read_only_columns(const cli_common *c, const size_t *cols, size_t ncols)
{
    uint64_t mask = 0;
    for (size_t i = 0; i < ncols; i++)
        mask |= (uint64_t)1 << (cols[i] < 63 ? cols[i] : 63);
    simdsv_reader_read_columns(c->reader, mask);
}

void field_views_free(field_views *v)
{
    free(v->fields);
    v->fields = NULL;
    v->cap = 0;
}

static void on_sigbus(int sig)
{
    (void)sig;
    static const char msg[] = "simdsv: error: the input file shrank while it was being read\n";
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more can be said */
    }
    out_abandon();
    _exit(EXIT_DATA);
}

simdsv_reader *cli_open_regular(cli_common *c, bool map)
{
    uint64_t size = 0;
    int64_t mapped = 0;
    if (strcmp(c->file, "-") == 0 || input_seekable_fd(c->in, &size) < 0 || size == 0 ||
        simdsv_options_get(c->opt, SIMDSV_OPT_MMAP, &mapped) ||
        simdsv_options_set(c->opt, SIMDSV_OPT_MMAP, map) != SIMDSV_OK)
        return NULL;
    simdsv_reader *r = cli_new_reader(c->opt);
    simdsv_options_set(c->opt, SIMDSV_OPT_MMAP, mapped);
    if (r && simdsv_reader_open_path(r, c->file) != SIMDSV_OK) {
        simdsv_reader_free(r);
        r = NULL;
    }
    if (r && map)
        signal(SIGBUS, on_sigbus);
    return r;
}

int cli_run_records(cli_common *c, int status, const cli_record_ops *ops, void *ctx)
{
    simdsv_reader *r = cli_begin(c, &status);
    if (!r)
        return status;
    /* An uncompressed regular file is mapped: no copy into the reader's
     * buffer, nothing to move or count as the buffer refills. */
    simdsv_reader *mapped = cli_open_regular(c, true);
    if (mapped) {
        simdsv_reader_free(r);
        r = mapped;
    }
    c->reader = r;
    c->reader_mapped = mapped != NULL;
    uint64_t reported = 0; /* bytes given to the progress line (mapped input) */
    text_buffer tb;
    text_init(&tb, c);
    simdsv_record rec;
    bool has_header;
    simdsv_status st = cli_header(c, r, &rec, &has_header);
    int run = 0;
    if (st == SIMDSV_OK && ops->header)
        run = ops->header(ctx, &tb, has_header ? &rec : NULL);
    else if (st == SIMDSV_OK && has_header)
        run = write_all_fields(&tb, &rec, c->out_delimiter) ? 0 : -1;
    simdsv_batch b;
    while (run == 0 && st == SIMDSV_OK && (!ops->skip || (st = ops->skip(ctx, r)) == SIMDSV_OK) &&
           (st = simdsv_reader_next_batch(r, &b)) == SIMDSV_OK) {
        run = ops->batch(ctx, &tb, &b);
        if (mapped && simdsv_reader_offset(r) - reported >= ((uint64_t)1 << 20)) {
            progress_add(simdsv_reader_offset(r) - reported);
            reported = simdsv_reader_offset(r);
        }
    }
    if (run < 0) {
        cli_error("out of memory");
        status = EXIT_DATA;
    } else if (run > 0 && run != CLI_STOP) {
        status = run;
    } else {
        status = cli_end_of_records(c, r, st);
    }
    if (status == EXIT_OK && ops->finish)
        status = ops->finish(ctx);
    text_free(&tb);
    c->reader = NULL;
    cli_close(c, r);
    cli_common_free(c);
    return status;
}
