/* write.c — convert --to parquet|arrow|arrows: the typed reader's Arrow
 * stream handed to the writers of libsimdsv_write, their bytes going to the
 * command's output (standard output, or -o FILE through a temporary file
 * renamed into place on success).
 *
 * The stream's types are fixed after its sample, so a later value that does
 * not fit an inferred type stops it (a late misfit).  When the input is a
 * regular file and the output is -o FILE, the column is widened as a single
 * read would widen it (simdsv_table_stream_misfit), the output emptied and
 * the file read again, until no misfit is left: the file then holds what a
 * single read gives.  Standard input, or standard output, cannot be read or
 * written again: the error then names the position and the options that
 * avoid it. */
#include "typed.h"

#include <stdio.h>
#include <string.h>

static long long to_output(void *ctx, const void *buf, size_t size, int *os_errno)
{
    (void)ctx;
    (void)os_errno;
    out_write(buf, size); /* exits with a message when the output cannot be written */
    return (long long)size;
}

/* Several files: the dataset's stream, one file at a time; a late misfit
 * is widened in the dataset and the files read again (-o FILE only). */
static int convert_dataset(cli_common *c, const simdsv_write_options *wopt)
{
    size_t reads_left = 0;
    for (;;) {
        struct ArrowArrayStream stream;
        if (simdsv_dataset_stream(c->ds, &stream) != SIMDSV_OK)
            return cli_dataset_failure(c);
        if (!reads_left) { /* each read again widens a column one step at least */
            struct ArrowSchema schema;
            if (stream.get_schema(&stream, &schema) == 0) {
                reads_left = (size_t)schema.n_children * SIMDSV_TYPE_COUNT + 1;
                schema.release(&schema);
            }
        }
        simdsv_write_options o = *wopt;
        o.threads = (int)cli_opt(c, SIMDSV_OPT_THREADS);
        simdsv_error err;
        const simdsv_status wst = simdsv_write_callback(&stream, to_output, NULL, &o, &err);
        stream.release(&stream);
        if (wst == SIMDSV_OK)
            return EXIT_OK;
        const bool from_stream = simdsv_dataset_error(c->ds)->code != SIMDSV_OK;
        if (from_stream && --reads_left > 0 && out_rewind() && simdsv_dataset_widen_misfit(c->ds) == SIMDSV_OK)
            continue;
        if (from_stream)
            return cli_dataset_failure(c);
        cli_error("%s", err.message);
        return wst == SIMDSV_ERR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_DATA;
    }
}

int convert_write(cli_common *c, const simdsv_write_options *wopt)
{
    if (out_is_tty()) {
        cli_error("convert: %s is binary: give -o FILE or redirect the output",
                  wopt->format == SIMDSV_FORMAT_PARQUET ? "Parquet" : "Arrow IPC");
        return EXIT_USAGE;
    }
    if (c->ds)
        return convert_dataset(c, wopt);
    /* Each read again widens one column at least one step of the types'
     * lattice (SIMDSV_TYPE_COUNT types): this many reads at most. */
    size_t reads_left = 0;
    for (;;) {
        struct ArrowArrayStream stream;
        int status = EXIT_OK;
        simdsv_reader *r = cli_open_stream(c, &stream, &status);
        if (!r)
            return status;
        if (!reads_left) { /* the first read: the bound, from its columns */
            struct ArrowSchema schema;
            if (stream.get_schema(&stream, &schema) == 0) {
                reads_left = (size_t)schema.n_children * SIMDSV_TYPE_COUNT + 1;
                schema.release(&schema);
            }
        }
        const bool rereadable = input_path_regular(c->file);
        simdsv_write_options o = *wopt;
        o.threads = (int)cli_opt(c, SIMDSV_OPT_THREADS);
        simdsv_error err;
        const simdsv_status wst = simdsv_write_callback(&stream, to_output, NULL, &o, &err);
        size_t column;
        simdsv_type widened;
        simdsv_column_info info;
        const bool misfit = wst != SIMDSV_OK && simdsv_table_stream_misfit(&stream, &column, &widened) == SIMDSV_OK &&
                            simdsv_table_stream_column(&stream, column, &info) == SIMDSV_OK;
        char fix[200] = "";
        if (misfit)
            snprintf(fix, sizeof fix, " (give --schema '%.60s:%s', the type a whole read gives it; --infer-rows all samples the first 8 MiB whole)",
                     info.name, simdsv_type_name(widened));
        const bool again = misfit && rereadable && --reads_left > 0 && out_rewind() &&
                           simdsv_options_set_column_min_type(c->opt, info.name, widened) == SIMDSV_OK;
        stream.release(&stream); /* frees the reader too */
        cli_close(c, NULL);
        if (wst == SIMDSV_OK)
            return EXIT_OK;
        if (again)
            continue;
        cli_error("%s: %s%s", c->display, err.message, fix);
        return wst == SIMDSV_ERR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_DATA;
    }
}
