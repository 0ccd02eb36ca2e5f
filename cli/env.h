/* env.h — every POSEBENCH_* environment variable, in one table (env.c): the
 * CLI checks them all once at start-up, before any command runs, and lists
 * them in `posebench help` from the same table. The library and the bench
 * read some of them too and ignore a malformed value (a library must not
 * exit); the CLI refuses it instead, naming the variable and the value. */
#ifndef CLI_ENV_H
#define CLI_ENV_H

#include <stdint.h>
#include <stdio.h>

/* Check every POSEBENCH_* variable set (a name not in the table is refused
 * too: a misspelt one would be ignored). An empty value is the same as
 * unset, as it is for the library. 0, or 2 (EXIT_USAGE) after one message
 * "posebench: POSEBENCH_X ..." on stderr. */
int env_check_all(void);
/* After env_check_all: POSEBENCH_THREADS (0: unset), the features POSEBENCH_DISABLE names (0: none),
 * POSEBENCH_VARIANT (NULL: unset). */
int env_threads(void);
uint32_t env_disabled(void);
const char *env_variant(void);
/* The help's lines, two-space indent: "  POSEBENCH_X=META   what it does". */
void env_help(FILE *f);

#endif
