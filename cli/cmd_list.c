/* cmd_list.c — `posebench variants` (which variants exist and which this CPU
 * runs) and `posebench ops` (the op registry). Neither takes options. */
#include <stdio.h>
#include "command.h"
#include "pick.h"
#include "all_variants.h"

static int run_variants(const opt_val *vals, int nrest, char **rest)
{
    (void)vals, (void)nrest, (void)rest;
    char feats[128];
    printf("CPU features: %s\n", pb_cpu_feature_names(pb_cpu_features(), feats, sizeof feats));
    if (pick_disabled())
        printf("disabled by POSEBENCH_DISABLE: %s\n", pb_cpu_feature_names(pick_disabled(), feats, sizeof feats));
    const pb_variant *active = NULL;
    pb_status as = pb_variant_active(&active);
    printf("%-12s %-8s %-6s %s\n", "variant", "isa", "lanes", "status");
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        const char *status;
        if (pb_variant_check(v) == PB_OK)
            status = pb_variant_mode(v) == PB_MODE_NATIVE ? "native" : "emulated (portable SIMDe, runs anywhere)";
        else if (pick_only_disabled(v))
            status = "disabled by POSEBENCH_DISABLE (this CPU runs it)";
        else
            status = pb_all_variant_emulated() ? "unavailable on this CPU/build (validated through its -emu build)"
                                               : "unavailable on this CPU/build";
        printf("%-12s %-8s %-6d %s%s\n", pb_variant_name(v), pb_variant_isa(v), pb_variant_lanes(v), status,
               v == active ? "  [active]" : "");
    }
    if (as != PB_OK) {
        fprintf(stderr, "posebench variants: %s\n", pb_last_error());
        return EXIT_USAGE;
    }
    if (!pb_all_variant_emulated())
        printf("(emulated variants <isa>-emu not built: configure with -DPB_EMULATED=ON)\n");
    return ferror(stdout) ? EXIT_USAGE : EXIT_OK;
}

static int run_ops(const opt_val *vals, int nrest, char **rest)
{
    (void)vals, (void)nrest, (void)rest;
    for (int i = 0; i < PB_OP_COUNT; i++) {
        const pb_op_info *o = pb_op_get((pb_op)i);
        printf("%-28s %s\n", o->name, o->summary);
    }
    return ferror(stdout) ? EXIT_USAGE : EXIT_OK;
}

const command cmd_variants = {
    .name = "variants",
    .summary = "list the variants and whether this CPU runs them (native, emulated, disabled, unavailable)",
    .about = "  [active] marks the variant dispatch uses (the forced one, else the best this CPU runs).\n",
    .run = run_variants,
};

const command cmd_ops = {
    .name = "ops",
    .summary = "list the registered ops, one line each",
    .run = run_ops,
};
