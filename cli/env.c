/* env.c — the POSEBENCH_* environment variables (env.h): one row each, its
 * value's form, its help line and its check. A number goes through num.h,
 * as every numeric option does. */
#include "env.h"

#include <stdlib.h>
#include <string.h>
#include "all_variants.h"
#include "num.h"

extern char **environ;

static int threads_value;
static uint32_t disabled_mask;
static const char *variant_value;

#define WHY_LEN 512

/* The bit of CPU feature `name` (pb_cpu_feature_names spells them), or 0. */
static uint32_t feature_bit(const char *name)
{
    char buf[64];
    for (int b = 0; b < 32; b++) {
        uint32_t m = 1u << b;
        if (!strcmp(pb_cpu_feature_names(m, buf, sizeof buf), name) && strcmp(buf, "none")) return m;
    }
    return 0;
}

/* "avx512,avx2": CPU feature names separated by commas, none empty. */
static int check_disable(const char *v, char *why)
{
    char known[128], name[64];
    pb_cpu_feature_names(~0u, known, sizeof known);
    for (const char *p = v;; p++) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            snprintf(why, WHY_LEN, "empty entry in '%s' (CPU feature names separated by commas, e.g. avx512,avx2; "
                     "known: %s)", v, known);
            return -1;
        }
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
        uint32_t bit = len < sizeof name ? feature_bit(name) : 0;
        if (!bit) {
            snprintf(why, WHY_LEN, "unknown CPU feature '%.*s' (known: %s; separate them with commas)", (int)len, p,
                     known);
            return -1;
        }
        disabled_mask |= bit;
        p += len;
        if (!*p) return 0;
    }
}

static int check_threads(const char *v, char *why)
{
    long n;
    if (num_integer(v, 1, PB_POOL_MAX_THREADS, &n) != 0) {
        snprintf(why, WHY_LEN, "expects an integer in 1..%d, got '%s'", PB_POOL_MAX_THREADS, v);
        return -1;
    }
    threads_value = (int)n;
    return 0;
}

static int check_stream(const char *v, char *why)
{
    uint64_t b;
    if (num_whole(v, 0, SIZE_MAX, &b) != 0) {
        snprintf(why, WHY_LEN, "expects a whole number of bytes 0..%zu (0: always stream), got '%s'", (size_t)SIZE_MAX, v);
        return -1;
    }
    return 0;
}

static int check_llc(const char *v, char *why)
{
    uint64_t b;
    if (num_whole(v, 1, SIZE_MAX, &b) != 0) {
        snprintf(why, WHY_LEN, "expects a positive whole number of bytes (1..%zu), got '%s'", (size_t)SIZE_MAX, v);
        return -1;
    }
    return 0;
}

static int check_cold(const char *v, char *why)
{
    if (!strcmp(v, "auto") || !strcmp(v, "flush") || !strcmp(v, "rotate")) return 0;
    snprintf(why, WHY_LEN, "expects auto, flush or rotate, got '%s'", v);
    return -1;
}

static int check_spin(const char *v, char *why)
{
    uint64_t us;
    if (num_whole(v, 0, 1000000, &us) != 0) {
        snprintf(why, WHY_LEN, "expects microseconds 0..1000000, got '%s'", v);
        return -1;
    }
    return 0;
}

/* A variant this build has and this CPU runs; an -emu name is the harness's to force. */
static int check_variant(const char *v, char *why)
{
    if (pb_all_variant_env() != PB_OK) {
        const char *e = pb_last_error(), pre[] = "POSEBENCH_VARIANT: ";
        snprintf(why, WHY_LEN, "%s", strncmp(e, pre, sizeof pre - 1) ? e : e + sizeof pre - 1);
        return -1;
    }
    const pb_variant *row = NULL;
    if (pb_all_variant_find(v, &row) != PB_OK || pb_variant_check(row) != PB_OK) {
        snprintf(why, WHY_LEN, "%s", pb_last_error());
        return -1;
    }
    variant_value = v;
    return 0;
}

typedef struct env_var {
    const char *name, *meta, *help;
    int (*check)(const char *value, char *why);   /* 0, or -1 with why set */
    char sep;   /* between the name and why in the message: ' ' ("POSEBENCH_X expects ...") or '=' (the value first) */
} env_var;

static const env_var vars[] = {
    { "POSEBENCH_VARIANT", "NAME", "force the variant, as --variant", check_variant, '=' },
    { "POSEBENCH_DISABLE", "avx512,...", "hide CPU features from dispatch", check_disable, ':' },
    { "POSEBENCH_THREADS", "N", "default of --threads (frame, bench, budget)", check_threads, ' ' },
    { "POSEBENCH_STREAM_BYTES", "N", "calls moving more bytes stream their output past the caches", check_stream, ' ' },
    { "POSEBENCH_LLC_BYTES", "N", "the last-level cache size the bench and report assume", check_llc, ' ' },
    { "POSEBENCH_COLD", "auto|flush|rotate", "how the bench makes a cold cache", check_cold, ' ' },
    { "POSEBENCH_POOL_SPIN_US", "N", "how long a waiting pool thread spins before it parks", check_spin, ' ' },
};
#define NVARS ((int)(sizeof vars / sizeof vars[0]))

int env_check_all(void)
{
    char why[WHY_LEN];
    threads_value = 0;
    disabled_mask = 0;
    variant_value = NULL;
    /* a POSEBENCH_ name the table does not know: a typo, which the library would ignore */
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "POSEBENCH_", 10) != 0) continue;
        size_t len = strcspn(*e, "=");
        int known = 0;
        for (int i = 0; i < NVARS && !known; i++) known = strlen(vars[i].name) == len && !strncmp(vars[i].name, *e, len);
        if (!known) {
            fprintf(stderr, "posebench: unknown environment variable %.*s (known:", (int)len, *e);
            for (int i = 0; i < NVARS; i++) fprintf(stderr, " %s", vars[i].name);
            fputs(")\n", stderr);
            return 2;
        }
    }
    for (int i = 0; i < NVARS; i++) {
        const char *v = getenv(vars[i].name);
        if (!v || !*v) continue;   /* empty: unset, as the library reads it */
        if (vars[i].check(v, why) != 0) {
            if (vars[i].sep == '=') fprintf(stderr, "posebench: %s=%s: %s\n", vars[i].name, v, why);
            else fprintf(stderr, "posebench: %s%s %s\n", vars[i].name, vars[i].sep == ':' ? ":" : "", why);
            return 2;
        }
    }
    return 0;
}

int env_threads(void) { return threads_value; }
uint32_t env_disabled(void) { return disabled_mask; }
const char *env_variant(void) { return variant_value; }

void env_help(FILE *f)
{
    int col = 0;
    for (int i = 0; i < NVARS; i++) {
        int w = (int)(strlen(vars[i].name) + strlen(vars[i].meta)) + 3;   /* "  NAME=META" */
        if (w + 2 > col) col = w + 2;
    }
    for (int i = 0; i < NVARS; i++) {
        char head[96];
        snprintf(head, sizeof head, "  %s=%s", vars[i].name, vars[i].meta);
        fprintf(f, "%-*s%s\n", col, head, vars[i].help);
    }
}
