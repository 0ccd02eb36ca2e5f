/* pick.c — choosing variants, the same way for every command (pick.h), after
 * the environment's checks (env.h: POSEBENCH_VARIANT, POSEBENCH_DISABLE, ...). */
#include "pick.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "all_variants.h"
#include "env.h"

static const char *forced_name;   /* global --variant, else POSEBENCH_VARIANT */

int pick_threads(void) { return env_threads() > 0 ? env_threads() : pb_cpu_threads(); }
pb_op pick_sampler(int choice)
{
    return choice == 1 ? PB_OP_sample_cubic : choice == 2 ? PB_OP_sample_linear_turns : PB_OP_sample_linear;
}

int pick_init(const char *global_variant)
{
    if (env_check_all() != 0) return 2;
    forced_name = env_variant();
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
uint32_t pick_disabled(void) { return env_disabled(); }

int pick_only_disabled(const pb_variant *v)
{
    if (!env_disabled() || pb_variant_check(v) == PB_OK) return 0;
    pb_cpu_disable(0);
    int ok = pb_variant_check(v) == PB_OK;
    pb_cpu_disable(env_disabled());
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
