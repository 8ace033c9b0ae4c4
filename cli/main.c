/* main.c — the simdsv command: dispatches to the subcommands. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: simdsv COMMAND [OPTIONS] FILE\n"
    "\n"
    "Commands:\n"
    "  count     count the data records (quote-aware, fields are not materialised)\n"
    "  check     validate a file; report each problem as FILE:LINE:COL: error: ...\n"
    "  convert   convert to JSON (array of arrays of strings) or normalised CSV\n"
    "\n"
    "Run 'simdsv COMMAND --help' for the options of a command.\n"
    "  simdsv --version    print the version and the kernel this CPU uses\n";

int main(int argc, char **argv)
{
    /* Broken pipes are detected at write() time and end the run quietly. */
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        simdsv_kernel k = SIMDSV_KERNEL_SCALAR;
        const simdsv_status st = simdsv_kernel_best(&k);
        printf("simdsv %s (kernel: %s)\n", simdsv_version_string(),
               st == SIMDSV_OK ? simdsv_kernel_name(k) : simdsv_status_message(st));
        return EXIT_OK;
    }
    if (strcmp(cmd, "count") == 0)
        return cmd_count(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc - 1, argv + 1);
    if (strcmp(cmd, "convert") == 0)
        return cmd_convert(argc - 1, argv + 1);
    fprintf(stderr, "simdsv: unknown command '%s'\n\n%s", cmd, usage);
    return EXIT_USAGE;
}
