/* opts.h — a command's options, declared once in a table, parsed with
 * getopt_long (`--opt value` and `--opt=value`; everything after `--` is left
 * to the command), checked against their ranges, and turned into `--help`.
 * Every command of the CLI (command.h) declares its options this way, so the
 * help, the range checks and the error messages cannot drift apart. */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stdint.h>
#include <stdio.h>

/* Columns of `--help` text: option help is wrapped at this width (tests/test_docs.sh checks it). */
#define OPTS_HELP_WIDTH 100

typedef enum opt_kind {
    OPT_FLAG,     /* no value */
    OPT_STR,      /* any non-empty string (a file, a name the command checks) */
    OPT_LONG,     /* an integer within [lo, hi] (num.h: decimal digits only) */
    OPT_U64,      /* a non-negative integer up to 2^64 - 1 (seeds): digits only */
    OPT_DOUBLE,   /* a finite decimal number within [lo, hi] (num.h: no hex, no inf) */
    OPT_CHOICE    /* one of the '|'-separated words of `choices`; the value is its index */
} opt_kind;

typedef struct opt_spec {
    const char *name;      /* long name without the dashes */
    opt_kind kind;
    const char *meta;      /* the value's placeholder in the help: "N", "FILE" */
    double lo, hi;         /* OPT_LONG, OPT_DOUBLE */
    const char *choices;   /* OPT_CHOICE: "linear|cubic" */
    int max_count;         /* 0: once (the last one given wins); > 0: repeatable up to that many */
    const char *dflt;      /* the default, for the help ("200"); NULL: none shown */
    const char *help;      /* one line (more lines: '\n'; they are indented) */
} opt_spec;

/* What was given for one option: the values in order (repeatable options keep
 * all of them), the last one parsed. */
#define OPT_MAX_VALUES 64
typedef struct opt_val {
    int count;             /* times given (0: not given) */
    const char *str;       /* the last value as written */
    long l;                /* OPT_LONG */
    uint64_t u;            /* OPT_U64 */
    double d;              /* OPT_DOUBLE */
    int choice;            /* OPT_CHOICE: index into choices */
    const char *all[OPT_MAX_VALUES];   /* every value given (repeatable options) */
} opt_val;

/* Parse argv (argv[0] is the command's name, as getopt expects) against the
 * table. Returns OPTS_OK with *rest the index of the first argument after
 * `--` (argc if none); OPTS_HELP when --help/-h was given (nothing printed:
 * the caller prints the help); OPTS_BAD after printing one message naming
 * the argument on stderr ("posebench <cmd>: ..."). Positional arguments are
 * refused unless after `--`, or, with `positional`, they end the options
 * (*rest is the first of them: the global options before a command name). */
enum { OPTS_OK = 0, OPTS_HELP = 1, OPTS_BAD = 2 };
int opts_parse(const char *cmd, const opt_spec *spec, int nspec, opt_val *vals, int argc, char **argv, int *rest,
               int positional);

/* The option lines of the help (two-space indent, aligned). */
/* Text at column indent (the cursor is there) as one paragraph ('\n' is a space), words wrapped at width. */
void opts_wrap(FILE *f, const char *text, int indent, int width);
void opts_help(FILE *f, const opt_spec *spec, int nspec);
/* The synopsis "[--op NAME]... [--quick]", wrapped at width, lines after the first at column indent;
 * then tail (NULL: none), an item of its own, e.g. "[-- <flags>]". */
void opts_synopsis(FILE *f, const opt_spec *spec, int nspec, int indent, int width, const char *tail);

#endif
