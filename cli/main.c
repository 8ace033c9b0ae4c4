/* main.c — the simdsv program: the command driver (run.c) with broken
 * pipes reported by write() rather than by a signal. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <signal.h>

int main(int argc, char **argv)
{
    /* Broken pipes are detected at write() time and end the run quietly. */
    signal(SIGPIPE, SIG_IGN);
    return cli_run(argc, argv);
}
