/* records.c — the skeleton of the commands that stream records: open the
 * output and the input, the header, the records in batches
 * (simdsv_reader_next_batch), the end-of-input report; and the records of a
 * batch written as CSV.  The CLI has no scanner of its own: every byte goes
 * through the library's kernels (SIMDSV_KERNEL / --kernel). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

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

bool batch_plain(const simdsv_batch *b, int delimiter, int out_delimiter)
{
    if (b->flags_any || delimiter != out_delimiter)
        return false;
    /* Unquoted fields hold no line end; a quote byte (--no-quote, lenient
     * recovery) would need quoting in the output. */
    const uint32_t from = b->bounds[b->first[0]], to = b->bounds[b->first[b->count] - 1] - 1;
    return !memchr(b->data + from, '"', to - from);
}

bool write_batch_csv(text_buffer *tb, const simdsv_batch *b, size_t from, size_t to, bool plain,
                     int out_delimiter, field_views *v)
{
    if (plain) {
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

void field_views_free(field_views *v)
{
    free(v->fields);
    v->fields = NULL;
    v->cap = 0;
}

int cli_run(cli_common *c, int status, const cli_record_ops *ops, void *ctx)
{
    simdsv_reader *r = cli_begin(c, &status);
    if (!r)
        return status;
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
    while (run == 0 && st == SIMDSV_OK && (st = simdsv_reader_next_batch(r, &b)) == SIMDSV_OK)
        run = ops->batch(ctx, &tb, &b);
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
    cli_close(c, r);
    cli_common_free(c);
    return status;
}
