/* cmd_headers.c — simdsv headers: the column names with their 1-based index. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: simdsv headers [OPTIONS] FILE\n"
    "Prints the column names, one a line, each after its 1-based index (the index\n"
    "that select, search -c and frequency --select accept).  With --no-header, the\n"
    "fields of the first record.\n"
    "  --just-names       the names only, without the index\n\n";

static arg_result headers_arg(void *ctx, int argc, char **argv, int *i)
{
    (void)argc;
    if (strcmp(argv[*i], "--just-names") == 0) {
        *(bool *)ctx = true;
        return ARG_TAKEN;
    }
    return ARG_NOT_MINE;
}

int cmd_headers(int argc, char **argv)
{
    cli_common c;
    bool just_names = false;
    const cli_spec spec = {"headers", help, CLI_OUTPUT | CLI_RECORDS, 0, NULL, headers_arg, &just_names};
    int status = cli_parse(&spec, argc, argv, &c);
    simdsv_reader *r = cli_begin(&c, &status);
    if (!r)
        return status;
    simdsv_record rec;
    const simdsv_status st =
        cli_opt(&c, SIMDSV_OPT_HEADER) ? simdsv_reader_header(r, &rec) : simdsv_reader_next(r, &rec);
    text_buffer tb;
    text_init(&tb, &c);
    if (st == SIMDSV_OK) {
        int width = snprintf(NULL, 0, "%zu", rec.field_count);
        for (size_t i = 0; i < rec.field_count; i++) {
            const char *data;
            size_t size;
            if (!text_field(&tb, &rec, i, &data, &size)) {
                status = EXIT_DATA;
                cli_error("out of memory");
                break;
            }
            if (!just_names)
                out_printf("%*zu  ", width, i + 1);
            out_write(data, size);
            out_byte('\n');
        }
        if (status < 0)
            status = EXIT_OK;
    } else {
        status = cli_end_of_records(&c, r, st);
    }
    text_free(&tb);
    cli_close(&c, r);
    cli_common_free(&c);
    return status;
}
