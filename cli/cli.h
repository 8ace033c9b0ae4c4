/*
 * cli.h — what the subcommands of the simdsv command share: the common
 * dialect options, opening an input, reporting errors as
 * FILE:LINE:COL: error: ..., and a buffered standard output that ends quietly
 * on a broken pipe.  The CLI uses only the public header.
 */
#ifndef SIMDSV_CLI_H
#define SIMDSV_CLI_H

#include "simdsv.h"

#include <stdbool.h>
#include <stddef.h>

/* Exit statuses, documented in the README and in --help. */
enum { EXIT_OK = 0, EXIT_DATA = 1, EXIT_USAGE = 2 };

typedef struct cli_common {
    simdsv_options *opt;
    const char *file;     /* "-" for standard input */
    const char *display;  /* name used in messages */
} cli_common;

/* Result of offering argv[*i] to the common option parser. */
typedef enum { ARG_TAKEN, ARG_NOT_MINE, ARG_BAD } arg_result;

/* Parses one common option at argv[*i] (advancing *i past its value). */
arg_result cli_common_arg(cli_common *c, int argc, char **argv, int *i);
/* Help text for the common options. */
extern const char cli_common_help[];
/* Value of an option given as --name VALUE or --name=VALUE; NULL if argv[*i] is not --name. */
const char *cli_option_value(const char *name, int argc, char **argv, int *i, bool *missing);
/* Parses a dialect byte: one character or an escape (\t \\ \xHH \0 ...). "" gives -1 (none). */
bool cli_parse_byte(const char *text, int *out);
bool cli_parse_u64(const char *text, unsigned long long *out);

/* A subcommand's own options: same contract as cli_common_arg. */
typedef arg_result (*cli_extra_arg)(void *ctx, int argc, char **argv, int *i);
/* Parses a subcommand's arguments (options and exactly one FILE).  Returns -1
 * to go on, or the exit status (after printing help or a usage error).
 * c->opt is created here and freed by cli_common_free. */
int cli_parse(const char *command, const char *help, int argc, char **argv, cli_common *c, cli_extra_arg extra,
              void *ctx);
void cli_common_free(cli_common *c);

/* Creates and opens the reader; prints a message and returns NULL on failure. */
simdsv_reader *cli_open(cli_common *c);
/* Prints FILE:LINE:COL: error: ... for the reader's last error. */
void cli_report(const cli_common *c, const simdsv_reader *r);
int cli_usage_error(const char *command, const char *fmt, const char *arg);

/* Buffered stdout. */
void out_write(const void *data, size_t size);
void out_byte(char c);
void out_str(const char *s);
/* Flushes; returns false if the output could not be written (not for EPIPE, which exits quietly). */
bool out_flush(void);

int cmd_count(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_convert(int argc, char **argv);

#endif
