/* posebench.c — the command-line front end (build/posebench): global options,
 * then one command from the table below (command.h); `posebench help` and
 * `help CMD` are generated from the same table as each command's --help. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "command.h"
#include "env.h"
#include "pick.h"

static const command *const commands[] = { &cmd_variants, &cmd_ops, &cmd_validate, &cmd_bench,
                                           &cmd_frame, &cmd_budget, &cmd_report };
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static const opt_spec global_opts[] = {
    { "variant", OPT_STR, "NAME", 0, 0, NULL, 0, NULL,
      "force the variant every command runs (like POSEBENCH_VARIANT; refused if this CPU cannot run it)" },
};
#define NGLOBAL ((int)(sizeof global_opts / sizeof global_opts[0]))

static void usage(FILE *f)
{
    fputs("usage: posebench [--variant NAME] <command> [options]\n"
          "       posebench help [COMMAND]     this help, or a command's (same as posebench COMMAND --help)\n"
          "commands:\n", f);
    for (int i = 0; i < NCOMMANDS; i++) {
        fprintf(f, "  %-10s ", commands[i]->name);
        opts_wrap(f, commands[i]->summary, 13, OPTS_HELP_WIDTH);
        fputc('\n', f);
    }
    fputs("global options (before the command):\n", f);
    opts_help(f, global_opts, NGLOBAL);
    fputs("environment (a bad value or an unknown POSEBENCH_ name is an error, exit 2; empty: unset):\n", f);
    env_help(f);
    fputs("  Every command runs the variants its own --variant names, else the forced one, else its default.\n"
          "examples:\n"
          "  posebench variants                                  what this CPU runs\n"
          "  posebench validate --quick                          every op x variant, the short input set\n"
          "  posebench bench --op blend_static --sizes 4096      one op, every native variant, beside a memcpy\n"
          "  posebench frame --quick                             a crowd's frame, timed per stage\n"
          "  posebench budget --budget-us 500                    which transition methods fit 500 us\n"
          "  posebench report --quick                            all of it -> reports/out/<time>/index.html\n"
          "  (docs/cli.md: every command; docs/cli-options.md: every option)\n",
          f);
    fputs(EXIT_STATUS_HELP, f);
}

void command_help(FILE *f, const command *c)
{
    fprintf(f, "usage: posebench %s", c->name);
    char rest[160];
    if (c->rest) snprintf(rest, sizeof rest, "[-- %s]", c->rest);
    if (c->nopts) {
        fputc(' ', f);
        opts_synopsis(f, c->opts, c->nopts, 18 + (int)strlen(c->name), OPTS_HELP_WIDTH, c->rest ? rest : NULL);
    } else if (c->rest) {
        fprintf(f, " %s", rest);
    }
    fputs("\n  ", f);
    opts_wrap(f, c->summary, 2, OPTS_HELP_WIDTH);
    fputc('\n', f);
    /* the about text: lines of one indent are a paragraph, reflowed at the width */
    for (const char *p = c->about ? c->about : ""; *p;) {
        size_t ind = strspn(p, " "), n = 0;
        char para[4096];
        para[0] = '\0';
        while (*p && strspn(p, " ") == ind) {
            size_t len = strcspn(p, "\n");
            if (n + len + 2 < sizeof para) n += (size_t)snprintf(para + n, sizeof para - n, "%s%.*s", n ? " " : "", (int)(len - ind), p + ind);
            p += len + (p[len] == '\n');
        }
        fprintf(f, "%*s", (int)ind, "");
        opts_wrap(f, para, (int)ind, OPTS_HELP_WIDTH);
        fputc('\n', f);
    }
    if (c->nopts) fputs("options (--opt value or --opt=value):\n", f);
    opts_help(f, c->opts, c->nopts);
    fputs(EXIT_STATUS_HELP, f);
}

static const command *find(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i]->name, name)) return commands[i];
    return NULL;
}

static int help(int argc, char **argv)
{
    if (argc == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    const command *c = find(argv[0]);
    if (!c || argc > 1) {
        fprintf(stderr, c ? "posebench help: one command at a time, got '%s'\n" : "posebench help: unknown command '%s'\n",
                c ? argv[1] : argv[0]);
        usage(stderr);
        return EXIT_USAGE;
    }
    command_help(stdout, c);
    return EXIT_OK;
}

/* Google Benchmark's --benchmark_* flags are also taken before `--` (bench):
 * they go with the arguments after `--`, in order. */
#define PASS_PREFIX "--benchmark_"

static int run(const command *c, int argc, char **argv)
{
    opt_val vals[32];
    if (c->nopts > (int)(sizeof vals / sizeof vals[0])) return EXIT_USAGE;   /* a table too long for this parser */
    char **own = calloc((size_t)argc + 1, sizeof *own), **pass = calloc((size_t)argc + 1, sizeof *pass);
    if (!own || !pass) {
        free(own);
        free(pass);
        fprintf(stderr, "posebench %s: out of memory\n", c->name);
        return EXIT_USAGE;
    }
    int nown = 0, npass = 0, i = 0;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (c->rest && i > 0 && !strncmp(argv[i], PASS_PREFIX, strlen(PASS_PREFIX))) pass[npass++] = argv[i];
        else own[nown++] = argv[i];
    }
    for (int k = i; k < argc; k++) own[nown++] = argv[k];   /* `--` and what follows, for getopt to see */
    int rest = nown, status;
    int st = opts_parse(c->name, c->opts, c->nopts, vals, nown, own, &rest, 0);
    if (st == OPTS_HELP) {
        command_help(stdout, c);
        status = EXIT_OK;
    } else if (st != OPTS_OK) {
        status = EXIT_USAGE;
    } else if (rest < nown && !c->rest) {
        fprintf(stderr, "posebench %s: takes no arguments after '--', got '%s'\n", c->name, own[rest]);
        status = EXIT_USAGE;
    } else {
        for (int k = rest; k < nown; k++) pass[npass++] = own[k];
        status = c->run(vals, npass, pass);
    }
    free(own);
    free(pass);
    return status;
}

static int dispatch(int argc, char **argv, const char **name)
{
    opt_val g[NGLOBAL];
    int first = argc;
    int st = opts_parse("", global_opts, NGLOBAL, g, argc, argv, &first, 1);
    if (st == OPTS_HELP) {
        usage(stdout);
        return EXIT_OK;
    }
    if (st != OPTS_OK) return EXIT_USAGE;
    if (first >= argc) {
        fputs("posebench: no command given\n", stderr);
        usage(stderr);
        return EXIT_USAGE;
    }
    *name = argv[first];
    if (!strcmp(*name, "help")) return help(argc - first - 1, argv + first + 1);
    const command *c = find(*name);
    if (!c) {
        fprintf(stderr, "posebench: unknown command '%s'\n", *name);
        usage(stderr);
        return EXIT_USAGE;
    }
    /* the environment and the forced variant are checked before any command runs */
    if (pick_init(g[0].count ? g[0].str : NULL) != 0) return EXIT_USAGE;
    return run(c, argc - first, argv + first);
}

/* Every command's standard output, checked once here: a table, a help text or a listing that could not be
 * written (a full disk, a closed pipe: posebench variants >/dev/full) is an error, exit 2, never a silent 0. */
int main(int argc, char **argv)
{
    const char *name = NULL;
    int status = dispatch(argc, argv, &name);
    errno = 0;
    int flushed = fflush(stdout) == 0, e = errno;
    if (!flushed || ferror(stdout)) {
        fprintf(stderr, "posebench%s%s: error writing standard output%s%s\n", name ? " " : "", name ? name : "",
                e ? ": " : "", e ? strerror(e) : "");
        return EXIT_USAGE;
    }
    return status;
}
