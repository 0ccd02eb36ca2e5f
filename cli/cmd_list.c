/* cmd_list.c — `posebench variants` (which variants exist and which this CPU
 * runs) and `posebench ops` (the op registry; --markdown: the manual's page,
 * ops_markdown.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "command.h"
#include "pick.h"
#include "all_variants.h"

/* whether this build has the emulated row of ISA isa (PB_EMULATED_ISAS may leave some out) */
static int has_emulated(const char *isa)
{
    for (size_t i = pb_variant_count(); i < pb_all_variant_count(); i++)
        if (strcmp(pb_variant_isa(pb_all_variant_at(i)), isa) == 0) return 1;
    return 0;
}

static int run_variants(const opt_val *vals, int nrest, char **rest)
{
    (void)vals, (void)nrest, (void)rest;
    char feats[128];
    printf("CPU features: %s\n", pb_cpu_feature_names(pb_cpu_features(), feats, sizeof feats));
    size_t l2 = pb_cache_bytes(2), llc = pb_cache_bytes(0);
    if (l2 && llc) printf("caches (sysfs, else the C library): L2 %zu KiB, last level %zu KiB\n", l2 >> 10, llc >> 10);
    else printf("caches: unknown (neither sysfs nor the C library lists them)\n");
    size_t sb = pb_stream_bytes();
    if (sb == SIZE_MAX) printf("output streamed past the caches: never (POSEBENCH_STREAM_BYTES)\n");
    else printf("output streamed past the caches: by calls reading and writing over %zu KiB (pb_stream_bytes, "
                "POSEBENCH_STREAM_BYTES)\n", sb >> 10);
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
            status = has_emulated(pb_variant_isa(v)) ? "unavailable on this CPU/build (validated through its -emu build)"
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
    return EXIT_OK;   /* a failed write to stdout: main's check (posebench.c), as for every command */
}

int ops_markdown(FILE *f);   /* ops_markdown.c */

enum { O_MARKDOWN, O_COUNT };
static const opt_spec ops_opts[O_COUNT] = {
    [O_MARKDOWN] = { "markdown", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                     "the manual's page of ops (docs/ops.md): groups, bytes per element, tolerance and why" },
};

static int run_ops(const opt_val *vals, int nrest, char **rest)
{
    (void)nrest, (void)rest;
    if (vals[O_MARKDOWN].count) return ops_markdown(stdout);
    for (int i = 0; i < PB_OP_COUNT; i++) {
        const pb_op_info *o = pb_op_get((pb_op)i);
        printf("%-28s %s\n", o->name, o->summary);
    }
    return EXIT_OK;
}

const command cmd_variants = {
    .name = "variants",
    .summary = "list the variants and whether this CPU runs them (native, emulated, disabled, unavailable)",
    .about = "  [active] marks the variant dispatch uses (the forced one, else the best this CPU runs).\n"
             "  Also the caches (pb_cache_bytes) and the call size above which outputs are streamed past them\n"
             "  (pb_stream_bytes: the last-level cache, at most 2 MiB a CPU sharing it; POSEBENCH_STREAM_BYTES).\n",
    .run = run_variants,
};

const command cmd_ops = {
    .name = "ops",
    .summary = "list the registered ops, one line each (--markdown: docs/ops.md)",
    .opts = ops_opts,
    .nopts = O_COUNT,
    .run = run_ops,
};
