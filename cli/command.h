/* command.h — the CLI's command table: each command (cli/cmd_*.c) declares
 * its options once (opts.h) and a run function; posebench.c dispatches on the
 * name and generates `posebench help`, `help CMD` and `CMD --help` from it. */
#ifndef CLI_COMMAND_H
#define CLI_COMMAND_H

#include <stdio.h>
#include "opts.h"

/* Exit status of every command (README, `posebench help`). */
enum { EXIT_OK = 0, EXIT_CHECK = 1, EXIT_USAGE = 2 };
#define EXIT_STATUS_HELP \
    "exit status: 0 success; 1 a check failed (validation, a failing op or benchmark, a report step);\n" \
    "             2 bad usage or bad input (options, environment, files)\n"

typedef struct command {
    const char *name;
    const char *summary;     /* one line, for `posebench help` */
    const char *about;       /* what it does, for `posebench help CMD` (lines end in '\n') */
    const opt_spec *opts;
    int nopts;
    const char *rest;        /* what may follow `--` ("<Google Benchmark flags>"); NULL: nothing */
    /* vals[i] is what was given for opts[i]; rest/nrest the arguments after `--`. */
    int (*run)(const opt_val *vals, int nrest, char **rest);
} command;

extern const command cmd_variants, cmd_ops, cmd_validate, cmd_bench, cmd_frame, cmd_budget, cmd_report;

/* `posebench help CMD` / `CMD --help` */
void command_help(FILE *f, const command *c);

#endif
