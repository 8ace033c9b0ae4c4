/* write.c — convert --to parquet|arrow|arrows: the typed reader's Arrow
 * stream handed to the writers of libsimdsv_write, their bytes going to the
 * command's output (standard output, or -o FILE through a temporary file
 * renamed into place on success). */
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

int convert_write(cli_common *c, const simdsv_write_options *wopt)
{
    if (out_is_tty()) {
        cli_error("convert: %s is binary: give -o FILE or redirect the output",
                  wopt->format == SIMDSV_FORMAT_PARQUET ? "Parquet" : "Arrow IPC");
        return EXIT_USAGE;
    }
    struct ArrowArrayStream stream;
    int status = EXIT_OK;
    simdsv_reader *r = cli_open_stream(c, &stream, &status);
    if (!r)
        return status;
    simdsv_write_options o = *wopt;
    o.threads = (int)cli_opt(c, SIMDSV_OPT_THREADS);
    simdsv_error err;
    const simdsv_status wst = simdsv_write_callback(&stream, to_output, NULL, &o, &err);
    stream.release(&stream); /* frees the reader too */
    cli_close(c, NULL);
    if (wst == SIMDSV_OK)
        return EXIT_OK;
    cli_error("%s: %s", c->display, err.message);
    return wst == SIMDSV_ERR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_DATA;
}
