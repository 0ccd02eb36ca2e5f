/* pick.c — choosing variants, the same way for every command (pick.h), and
 * the checks of POSEBENCH_VARIANT, POSEBENCH_DISABLE, POSEBENCH_THREADS and
 * POSEBENCH_STREAM_BYTES. */
#include "pick.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "all_variants.h"

static const char *forced_name;   /* global --variant, else POSEBENCH_VARIANT */
static uint32_t disabled_mask;

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

/* POSEBENCH_DISABLE="avx512,avx2": every name must be a feature. */
static int check_disable(void)
{
    const char *env = getenv("POSEBENCH_DISABLE");
    if (!env) return 0;
    char list[256], known[128];
    if (strlen(env) >= sizeof list) {
        fprintf(stderr, "posebench: POSEBENCH_DISABLE is too long (%zu characters)\n", strlen(env));
        return 2;
    }
    snprintf(list, sizeof list, "%s", env);
    pb_cpu_feature_names(~0u, known, sizeof known);
    for (char *save = NULL, *t = strtok_r(list, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        uint32_t bit = feature_bit(t);
        if (!bit) {
            fprintf(stderr, "posebench: POSEBENCH_DISABLE: unknown CPU feature '%s' (known: %s; separate them "
                            "with commas)\n", t, known);
            return 2;
        }
        disabled_mask |= bit;
    }
    return 0;
}

/* POSEBENCH_THREADS: the default of --threads (an integer 1 .. PB_POOL_MAX_THREADS). */
static int threads_default;
static int check_threads(void)
{
    const char *env = getenv("POSEBENCH_THREADS");
    threads_default = pb_cpu_threads();
    if (!env) return 0;
    char *end;
    errno = 0;
    long n = strtol(env, &end, 10);
    if (errno || end == env || *end || n < 1 || n > PB_POOL_MAX_THREADS) {
        fprintf(stderr, "posebench: POSEBENCH_THREADS expects an integer in 1..%d, got '%s'\n", PB_POOL_MAX_THREADS,
                env);
        return 2;
    }
    threads_default = (int)n;
    return 0;
}

/* POSEBENCH_STREAM_BYTES: the library's streaming threshold (pb_stream_bytes), which
 * ignores a malformed value; here it is an error. */
static int check_stream(void)
{
    const char *env = getenv("POSEBENCH_STREAM_BYTES");
    if (!env) return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(env, &end, 10);
    if (errno || end == env || *end || *env < '0' || *env > '9' || v > SIZE_MAX) {
        fprintf(stderr, "posebench: POSEBENCH_STREAM_BYTES expects a whole number of bytes (0: always stream), "
                        "got '%s'\n", env);
        return 2;
    }
    return 0;
}

int pick_threads(void) { return threads_default > 0 ? threads_default : pb_cpu_threads(); }
pb_op pick_sampler(int choice)
{
    return choice == 1 ? PB_OP_sample_cubic : choice == 2 ? PB_OP_sample_linear_turns : PB_OP_sample_linear;
}

int pick_init(const char *global_variant)
{
    if (check_disable() != 0 || check_threads() != 0 || check_stream() != 0) return 2;
    /* an -emu name is the harness's to force; the others the runtime resolves */
    if (pb_all_variant_env() != PB_OK) {
        fprintf(stderr, "posebench: %s\n", pb_last_error());
        return 2;
    }
    const char *env = getenv("POSEBENCH_VARIANT");
    if (env && *env) {
        const pb_variant *v = NULL;
        if (pb_all_variant_find(env, &v) != PB_OK || pb_variant_check(v) != PB_OK) {
            fprintf(stderr, "posebench: POSEBENCH_VARIANT=%s: %s\n", env, pb_last_error());
            return 2;
        }
        forced_name = env;
    }
    if (global_variant) {
        if (pb_all_variant_force(global_variant) != PB_OK) {
            fprintf(stderr, "posebench: --variant %s: %s\n", global_variant, pb_last_error());
            return 2;
        }
        forced_name = global_variant;
    }
    return 0;
}

const char *pick_forced(void) { return forced_name; }
uint32_t pick_disabled(void) { return disabled_mask; }

int pick_only_disabled(const pb_variant *v)
{
    if (!disabled_mask || pb_variant_check(v) == PB_OK) return 0;
    pb_cpu_disable(0);
    int ok = pb_variant_check(v) == PB_OK;
    pb_cpu_disable(disabled_mask);
    return ok;
}

static int add(const pb_variant **out, int n, int max, const pb_variant *v)
{
    for (int i = 0; i < n; i++)
        if (out[i] == v) return n;
    if (n < max) out[n++] = v;
    return n;
}

int pick_variants(const char *cmd, const char *const *names, int nnames, int flags, const pb_variant **out, int max)
{
    const char *forced[1] = { forced_name };
    if (nnames == 0 && forced_name) {
        names = forced;
        nnames = 1;
    }
    int n = 0;
    for (int k = 0; k < nnames; k++) {
        const char *name = names[k];
        const pb_variant *v = NULL;
        char why[512] = "";
        int matched = 0;
        if (pb_all_variant_find(name, &v) == PB_OK) {
            if (pb_variant_check(v) == PB_OK) {
                n = add(out, n, max, v);
                matched = 1;
            } else {
                snprintf(why, sizeof why, "%s", pb_last_error());
            }
        } else {
            snprintf(why, sizeof why, "%s", pb_last_error());
        }
        if (flags & PICK_EMULATED)   /* an ISA name also selects its -emu build */
            for (size_t i = 0; i < pb_all_variant_count(); i++) {
                const pb_variant *e = pb_all_variant_at(i);
                if (pb_variant_mode(e) == PB_MODE_EMULATED && !strcmp(pb_variant_isa(e), name) &&
                    pb_variant_check(e) == PB_OK) {
                    n = add(out, n, max, e);
                    if (!matched && v) fprintf(stderr, "posebench %s: not running %s: %s\n", cmd, name, why);
                    matched = 1;
                }
            }
        if (!matched) {
            fprintf(stderr, "posebench %s: %s\n", cmd, why);
            return -1;
        }
    }
    if (nnames == 0) {
        if (!(flags & (PICK_ALL_NATIVE | PICK_EMULATED))) {
            const pb_variant *v = NULL;
            if (pb_variant_active(&v) != PB_OK) {
                fprintf(stderr, "posebench %s: %s\n", cmd, pb_last_error());
                return -1;
            }
            out[n++] = v;
        }
        for (size_t i = 0; (flags & (PICK_ALL_NATIVE | PICK_EMULATED)) && i < pb_all_variant_count(); i++) {
            const pb_variant *v = pb_all_variant_at(i);
            int want = pb_variant_mode(v) == PB_MODE_NATIVE ? (flags & PICK_ALL_NATIVE) != 0 : (flags & PICK_EMULATED) != 0;
            if (want && pb_variant_check(v) == PB_OK) n = add(out, n, max, v);
        }
    }
    if (n == 0) {
        fprintf(stderr, "posebench %s: no variant to run on this CPU\n", cmd);
        return -1;
    }
    return n;
}

int pick_check_name(const char *cmd, const char *name)
{
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (!strcmp(name, pb_variant_name(v)) || !strcmp(name, pb_variant_isa(v))) return 0;
    }
    const pb_variant *v = NULL;
    if (pb_all_variant_find(name, &v) != PB_OK) {
        fprintf(stderr, "posebench %s: %s\n", cmd, pb_last_error());
        return -1;
    }
    return 0;
}
