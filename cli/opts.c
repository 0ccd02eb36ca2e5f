/* opts.c — option tables parsed with getopt_long, checked and described
 * from the same table (opts.h). */
#include "opts.h"
#include "num.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define HELP_VAL 'h'
#define FIRST_VAL 256   /* getopt_long's val for spec[i] is FIRST_VAL + i */

/* One message on stderr: "posebench <cmd>: ..." ("posebench: ..." for the global options). */
static void say(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "posebench%s%s: ", *cmd ? " " : "", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* The i-th word of "a|b|c" into buf; 0 if there is none. */
static int choice_word(const char *choices, int i, char *buf, size_t len)
{
    const char *p = choices;
    for (int k = 0; k < i; k++) {
        p = strchr(p, '|');
        if (!p) return 0;
        p++;
    }
    size_t n = strcspn(p, "|");
    if (n == 0 || n >= len) return 0;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return 1;
}

/* "linear or cubic", "crossfade, inertialize or dead" */
static void choice_list(const char *choices, char *buf, size_t len)
{
    char w[64];
    int n = 0;
    while (choice_word(choices, n, w, sizeof w)) n++;
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < n && used < len; i++) {
        choice_word(choices, i, w, sizeof w);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", w);
    }
}

/* Parse one value into v. 0, or -1 after printing why. */
static int take(const char *cmd, const opt_spec *s, opt_val *v, const char *arg)
{
    char what[256];
    if (s->kind == OPT_STR) {
        if (!*arg) {
            say(cmd, "--%s expects %s, got an empty string", s->name, s->meta);
            return -1;
        }
    } else if (s->kind == OPT_LONG) {
        if (num_integer(arg, (long)s->lo, (long)s->hi, &v->l) != 0) {
            say(cmd, "--%s expects an integer in %.0f..%.0f, got '%s'", s->name, s->lo, s->hi, arg);
            return -1;
        }
    } else if (s->kind == OPT_U64) {
        if (num_whole(arg, 0, UINT64_MAX, &v->u) != 0) {
            say(cmd, "--%s expects a non-negative integer (0..18446744073709551615), got '%s'", s->name, arg);
            return -1;
        }
    } else if (s->kind == OPT_DOUBLE) {
        if (num_real(arg, s->lo, s->hi, &v->d) != 0) {
            say(cmd, "--%s expects a number in %g..%g, got '%s'", s->name, s->lo, s->hi, arg);
            return -1;
        }
    } else if (s->kind == OPT_CHOICE) {
        char w[64];
        int found = -1;
        for (int i = 0; found < 0 && choice_word(s->choices, i, w, sizeof w); i++)
            if (!strcmp(w, arg)) found = i;
        if (found < 0) {
            choice_list(s->choices, what, sizeof what);
            say(cmd, "--%s expects %s, got '%s'", s->name, what, arg);
            return -1;
        }
        v->choice = found;
    }
    return 0;
}

int opts_parse(const char *cmd, const opt_spec *spec, int nspec, opt_val *vals, int argc, char **argv, int *rest,
               int positional)
{
    struct option *lo = calloc((size_t)nspec + 2, sizeof *lo);
    if (!lo) {
        say(cmd, "out of memory");
        return OPTS_BAD;
    }
    for (int i = 0; i < nspec; i++) {
        lo[i].name = spec[i].name;
        lo[i].has_arg = spec[i].kind == OPT_FLAG ? no_argument : required_argument;
        lo[i].val = FIRST_VAL + i;
    }
    lo[nspec].name = "help";
    lo[nspec].val = HELP_VAL;
    memset(vals, 0, sizeof *vals * (size_t)nspec);

    int status = OPTS_OK, c;
    const char *last_value = NULL;   /* to tell `--json --` (a value) from `--` (the end of the options) */
    opterr = 0;   /* our messages, naming the command */
    optind = 0;   /* glibc: start over (every command parses its own argv) */
    /* '+': stop at the first non-option (POSIX order); ':': report a missing value as ':' */
    while (status == OPTS_OK && (c = getopt_long(argc, argv, "+:h", lo, NULL)) != -1) {
        const char *arg = argv[optind - 1];
        if (c == HELP_VAL) {
            status = OPTS_HELP;
        } else if (c == ':') {
            say(cmd, "option '%s' needs a value (posebench help%s%s)", arg, *cmd ? " " : "", cmd);
            status = OPTS_BAD;
        } else if (c == '?') {
            if (optopt >= FIRST_VAL)
                say(cmd, "option '--%s' takes no value, got '%s'", spec[optopt - FIRST_VAL].name, arg);
            else
                say(cmd, "unknown option '%s' (posebench help%s%s)", arg, *cmd ? " " : "", cmd);
            status = OPTS_BAD;
        } else {
            int i = c - FIRST_VAL;
            const opt_spec *s = &spec[i];
            opt_val *v = &vals[i];
            if (s->max_count > 0 && v->count >= s->max_count) {
                say(cmd, "at most %d --%s options", s->max_count, s->name);
                status = OPTS_BAD;
            } else if (s->kind != OPT_FLAG && take(cmd, s, v, optarg) != 0) {
                status = OPTS_BAD;
            } else {
                if (s->kind != OPT_FLAG) {
                    last_value = optarg;
                    v->str = optarg;
                    if (v->count < OPT_MAX_VALUES) v->all[v->count] = optarg;
                }
                v->count++;
            }
        }
    }
    /* After the options: `--` (consumed by getopt, not as a value) starts the
     * pass-through arguments; anything else is a stray argument. */
    if (status == OPTS_OK) {
        int dashdash = optind > 1 && !strcmp(argv[optind - 1], "--") && argv[optind - 1] != last_value;
        if (!dashdash && !positional && optind < argc) {
            say(cmd, "unexpected argument '%s' (posebench help%s%s)", argv[optind], *cmd ? " " : "", cmd);
            status = OPTS_BAD;
        }
        *rest = optind;
    }
    free(lo);
    return status;
}

static void meta_of(const opt_spec *s, char *buf, size_t len)
{
    if (s->kind == OPT_FLAG) buf[0] = '\0';
    else if (s->kind == OPT_CHOICE) snprintf(buf, len, " %s", s->choices);
    else snprintf(buf, len, " %s", s->meta ? s->meta : "VALUE");
}

void opts_synopsis(FILE *f, const opt_spec *spec, int nspec, int indent, int width, const char *tail)
{
    int col = indent;
    for (int i = 0; i < nspec + (tail != NULL); i++) {   /* the tail wraps as the options do */
        char meta[96], item[160];
        int n;
        if (i == nspec) {
            n = snprintf(item, sizeof item, "%s", tail);
        } else {
            meta_of(&spec[i], meta, sizeof meta);
            n = snprintf(item, sizeof item, "[--%s%s]%s", spec[i].name, meta, spec[i].max_count > 1 ? "..." : "");
        }
        if (col + 1 + n > width && col > indent) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(f, "%s%s", col > indent ? " " : "", item);
        col += n + (col > indent);
    }
}

/* Text at column `indent`, words wrapped so no line passes `width`: the text is one
 * paragraph (a '\n' in it is a space, so help written pre-wrapped reflows). */
void opts_wrap(FILE *f, const char *text, int indent, int width)
{
    int col = indent;
    const char *p = text;
    while (*p) {
        if (*p == ' ' || *p == '\n') {
            p++;
            continue;
        }
        size_t n = strcspn(p, " \n");
        if (col > indent && col + 1 + (int)n > width) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(f, "%s%.*s", col > indent ? " " : "", (int)n, p);
        col += (int)n + (col > indent);
        p += n;
    }
}

void opts_help(FILE *f, const opt_spec *spec, int nspec)
{
    for (int i = 0; i < nspec; i++) {
        const opt_spec *s = &spec[i];
        char meta[96], head[160];
        meta_of(s, meta, sizeof meta);
        snprintf(head, sizeof head, "  --%s%s", s->name, meta);
        fprintf(f, "%-24s", head);
        if (strlen(head) >= 24) fprintf(f, "\n%-24s", "");
        char extra[160], text[2048];
        int n = 0;
        extra[0] = '\0';
        if (s->kind == OPT_LONG)
            n += snprintf(extra + n, sizeof extra - (size_t)n, "%.0f..%.0f", s->lo, s->hi);
        else if (s->kind == OPT_DOUBLE)
            n += snprintf(extra + n, sizeof extra - (size_t)n, "%g..%g", s->lo, s->hi);
        if (s->dflt) n += snprintf(extra + n, sizeof extra - (size_t)n, "%sdefault %s", n ? "; " : "", s->dflt);
        if (s->max_count > 1) snprintf(extra + n, sizeof extra - (size_t)n, "%srepeatable", n ? "; " : "");
        snprintf(text, sizeof text, "%s%s%s%s", s->help, extra[0] ? " (" : "", extra, extra[0] ? ")" : "");
        opts_wrap(f, text, 24, OPTS_HELP_WIDTH);
        fputc('\n', f);
    }
    fprintf(f, "%-24s%s\n", "  --help, -h", "this help");
}
