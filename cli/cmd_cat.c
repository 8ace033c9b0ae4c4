/* cmd_cat.c — simdsv cat rows | columns: several files as one CSV. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: simdsv cat rows [OPTIONS] FILE...\n"
    "       simdsv cat columns [OPTIONS] FILE...\n"
    "cat rows: the records of every file, one after the other, under one header.\n"
    "  The headers must be the same (same names, same order): if one differs,\n"
    "  nothing is written and the exit status is 1.  Empty files are skipped.\n"
    "cat columns: the files side by side: record K of the output is record K of each\n"
    "  file, each file's part as wide as its header (or its first record with\n"
    "  --no-header); files that end early, and short records, are padded with empty\n"
    "  fields (longer records are written whole).\n\n";

typedef struct cat_args {
    bool columns;
} cat_args;

/* Header of one file as owned names; false (reported) on a read error.
 * An empty file gives an empty list. */
static int read_header(cli_common *c, name_list *names, bool *empty)
{
    simdsv_reader *r = cli_open(c);
    if (!r)
        return EXIT_DATA;
    text_buffer tb;
    text_init(&tb, c);
    simdsv_record rec;
    const simdsv_status st = simdsv_reader_header(r, &rec);
    int status = EXIT_OK;
    *empty = st == SIMDSV_END;
    memset(names, 0, sizeof *names);
    if (st == SIMDSV_OK) {
        if (!names_from_record(names, &tb, &rec)) {
            cli_error("out of memory");
            status = EXIT_DATA;
        }
    } else if (st != SIMDSV_END) {
        status = cli_end_of_records(c, r, st);
    }
    text_free(&tb);
    cli_close(c, r);
    return status;
}

static bool same_names(const name_list *a, const simdsv_record *rec, text_buffer *tb)
{
    if (a->count != rec->field_count)
        return false;
    text_reset(tb);
    for (size_t i = 0; i < a->count; i++) {
        const char *data;
        size_t size;
        if (!text_field(tb, rec, i, &data, &size) || size != a->lens[i] || memcmp(data, a->names[i], size) != 0)
            return false;
    }
    return true;
}

static int header_mismatch(const char *file, const char *first)
{
    progress_erase();
    fprintf(stderr, "simdsv cat: %s: the header differs from the header of %s\n", file, first);
    return EXIT_DATA;
}

static int cat_rows(cli_common *c)
{
    const bool headers = cli_opt(c, SIMDSV_OPT_HEADER) != 0;
    name_list ref = {0};
    const char *ref_file = NULL;
    int status = EXIT_OK;
    /* Check every header that can be read twice before writing anything. */
    if (headers) {
        for (size_t f = 0; f < c->nfiles && status == EXIT_OK; f++) {
            if (strcmp(c->files[f], "-") == 0)
                continue;
            c->file = c->files[f];
            name_list names;
            bool empty;
            status = read_header(c, &names, &empty);
            if (status != EXIT_OK || empty)
                continue;
            if (!ref_file) {
                ref = names;
                ref_file = c->files[f];
                continue;
            }
            bool same = names.count == ref.count;
            for (size_t i = 0; same && i < names.count; i++)
                same = names.lens[i] == ref.lens[i] && memcmp(names.names[i], ref.names[i], names.lens[i]) == 0;
            names_free(&names);
            if (!same)
                status = header_mismatch(c->files[f], ref_file);
        }
    }
    text_buffer tb;
    text_init(&tb, c);
    field_views views = {NULL, 0};
    const csv_plain plain = csv_plain_of(c);
    bool header_written = false;
    for (size_t f = 0; f < c->nfiles && status == EXIT_OK; f++) {
        c->file = c->files[f];
        simdsv_reader *r = cli_open(c);
        if (!r) {
            status = EXIT_DATA;
            break;
        }
        simdsv_record rec;
        bool has_header;
        simdsv_status st = cli_header(c, r, &rec, &has_header);
        if (st == SIMDSV_OK && has_header) {
            if (!ref_file) {
                if (!names_from_record(&ref, &tb, &rec))
                    st = SIMDSV_ERR_NOMEM;
                ref_file = c->files[f];
            } else if (!same_names(&ref, &rec, &tb)) {
                status = header_mismatch(c->display, ref_file);
                cli_close(c, r);
                break;
            }
            if (st == SIMDSV_OK && !header_written && !write_all_fields(&tb, &rec, c->out_delimiter))
                st = SIMDSV_ERR_NOMEM;
            header_written = true;
        }
        simdsv_batch b;
        while (st == SIMDSV_OK && (st = simdsv_reader_next_batch(r, &b)) == SIMDSV_OK)
            if (!write_batch_csv(&tb, &b, 0, b.count, batch_raw(&b, &plain), c->out_delimiter, &views))
                st = SIMDSV_ERR_NOMEM;
        status = cli_end_of_records(c, r, st);
        cli_close(c, r);
    }
    text_free(&tb);
    field_views_free(&views);
    names_free(&ref);
    return status;
}

typedef struct part {
    cli_common c;
    simdsv_reader *r;
    text_buffer tb;
    simdsv_record rec;
    size_t width;
    bool ended, pending; /* pending: rec holds a record not written yet */
} part;

static int cat_columns(cli_common *c)
{
    const size_t n = c->nfiles;
    part *parts = calloc(n, sizeof *parts);
    if (!parts) {
        cli_error("out of memory");
        return EXIT_DATA;
    }
    int status = EXIT_OK;
    const bool headers = cli_opt(c, SIMDSV_OPT_HEADER) != 0;
    const int d = c->out_delimiter;
    size_t opened = 0;
    /* Open every file; read the header (or the first record) for the widths. */
    for (size_t f = 0; f < n && status == EXIT_OK; f++, opened++) {
        part *p = &parts[f];
        p->c = *c;
        c->sampled = NULL; /* the copy owns what detection kept for its file */
        c->table_ranges = NULL;
        p->c.file = c->files[f];
        text_init(&p->tb, c);
        p->r = cli_open(&p->c);
        if (!p->r) {
            status = EXIT_DATA;
            break;
        }
        const simdsv_status st = headers ? simdsv_reader_header(p->r, &p->rec) : simdsv_reader_next(p->r, &p->rec);
        if (st == SIMDSV_OK) {
            p->width = p->rec.field_count;
            p->pending = true;
        } else if (st == SIMDSV_END) {
            p->ended = true;
        } else {
            status = cli_end_of_records(&p->c, p->r, st);
        }
    }
    /* Rows: the headers (or first records), then one record of each file. */
    size_t total = 0;
    for (size_t f = 0; f < n; f++)
        total += parts[f].width;
    while (status == EXIT_OK) {
        bool any = false;
        for (size_t f = 0; f < n && status == EXIT_OK; f++) {
            part *p = &parts[f];
            if (p->pending || p->ended)
                continue;
            const simdsv_status st = simdsv_reader_next(p->r, &p->rec);
            if (st == SIMDSV_OK)
                p->pending = true;
            else if (st == SIMDSV_END)
                p->ended = true;
            else
                status = cli_end_of_records(&p->c, p->r, st);
        }
        for (size_t f = 0; f < n; f++)
            any = any || parts[f].pending;
        if (status != EXIT_OK || !any)
            break;
        size_t written = 0, fields = 0;
        for (size_t f = 0; f < n; f++)
            fields += parts[f].pending && parts[f].rec.field_count > parts[f].width ? parts[f].rec.field_count
                                                                                      : parts[f].width;
        for (size_t f = 0; f < n; f++) {
            part *p = &parts[f];
            const size_t have = p->pending ? p->rec.field_count : 0;
            const size_t count = have > p->width ? have : p->width;
            text_reset(&p->tb);
            for (size_t i = 0; i < count; i++, written++) {
                if (written)
                    out_byte((char)d);
                const char *data = "";
                size_t size = 0;
                if (i < have && !text_field(&p->tb, &p->rec, i, &data, &size)) {
                    cli_error("out of memory");
                    status = EXIT_DATA;
                }
                out_csv_field(data, size, d, fields == 1);
            }
            p->pending = false;
        }
        out_byte('\n');
    }
    (void)total;
    for (size_t f = 0; f < opened; f++) {
        text_free(&parts[f].tb);
        cli_close(&parts[f].c, parts[f].r);
    }
    for (size_t f = 0; f < n; f++)
        cli_release_detected(&parts[f].c);
    free(parts);
    return status;
}

static arg_result no_arg(void *ctx, int argc, char **argv, int *i)
{
    (void)ctx;
    (void)argc;
    (void)argv;
    (void)i;
    return ARG_NOT_MINE;
}

int cmd_cat(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        const cli_spec spec = {"cat", help, CLI_OUTPUT | CLI_CSV_OUT | CLI_RECORDS, 0, NULL, NULL, NULL};
        cli_common c;
        const int status = cli_parse(&spec, argc, argv, &c);
        cli_common_free(&c);
        return status;
    }
    if (argc < 2 || (strcmp(argv[1], "rows") != 0 && strcmp(argv[1], "columns") != 0))
        return cli_usage_error("cat", "%s", "expected 'rows' or 'columns' after 'cat'");
    const bool columns = strcmp(argv[1], "columns") == 0;
    cli_common c;
    const cli_spec spec = {columns ? "cat columns" : "cat rows", help, CLI_MANY_FILES | CLI_OUTPUT | CLI_CSV_OUT | CLI_RECORDS, 0,
                           NULL, no_arg, NULL};
    int status = cli_parse(&spec, argc - 1, argv + 1, &c);
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    status = columns ? cat_columns(&c) : cat_rows(&c);
    cli_common_free(&c);
    return status;
}
