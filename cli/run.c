/* run.c — the command driver: picks the subcommand and runs it, in the
 * simdsv program (main.c) or in-process (fuzz/fuzz_cli.c). */
#include "cli.h"
#include "typed.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: simdsv COMMAND [OPTIONS] FILE...\n"
    "\n"
    "Commands:\n"
    "  count       count the data records (quote-aware, fields are not materialised)\n"
    "  check       validate files; report each problem as FILE:LINE:COL: error: ...\n"
    "  convert     convert to typed JSON (an array of objects) or JSON lines, normalised CSV,\n"
    "              Parquet or Arrow IPC\n"
    "  headers     the column names with their 1-based index\n"
    "  head        the first records (-n N, default 10)\n"
    "  tail        the last records (-n N, default 10); seeks in regular files\n"
    "  slice       records --start A to --end B (0-based, end excluded)\n"
    "  select      columns by name, index, range, exclusion, in any order\n"
    "  search      records where a column matches a literal or a regular expression\n"
    "  frequency   the most frequent values of each column\n"
    "  table       aligned columns for reading on a terminal\n"
    "  cat         concatenate files: 'cat rows' (same header) or 'cat columns'\n"
    "  schema      column types (inferred over the start, middle and end) and why\n"
    "  stats       per column count, nulls, distinct, min, quartiles, max, mean, sd, sum\n"
    "  sniff       the detected dialect, header, tables and column formats, with reasons\n"
    "\n"
    "Input may be gzip- or zstd-compressed.  Run 'simdsv COMMAND --help' for the\n"
    "options of a command, 'man simdsv' for the manual.\n"
    "  simdsv --version    print the version and the kernel this CPU uses\n";

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"count", cmd_count},   {"check", cmd_check},         {"convert", cmd_convert}, {"headers", cmd_headers},
    {"head", cmd_head},     {"tail", cmd_tail},           {"slice", cmd_slice},     {"select", cmd_select},
    {"search", cmd_search}, {"frequency", cmd_frequency}, {"table", cmd_table},     {"cat", cmd_cat},
    {"schema", cmd_schema}, {"stats", cmd_stats},         {"sniff", cmd_sniff},
};

int cli_run(int argc, char **argv)
{
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
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(cmd, commands[i].name) == 0) {
            const int status = out_finish(commands[i].run(argc - 1, argv + 1));
            progress_end();
            return status;
        }
    }
    fprintf(stderr, "simdsv: unknown command '%s'\n\n%s", cmd, usage);
    return EXIT_USAGE;
}
