/* posebench.c — the command-line front end (build/posebench).
 *   posebench variants                 list variants: native / emulated-only / unavailable here
 *   posebench ops                      list registered ops
 *   posebench validate [options]       every op x variant vs reference and oracle
 *   posebench bench [options]          Google Benchmark timings (bench/; needs libbenchmark-dev at build)
 *   posebench frame|budget|report      the frame pipeline, the blend-method budget, the report (cli/commands.h)
 * Global: --variant NAME forces the variant ops run with (like POSEBENCH_VARIANT). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "posebench/posebench.h"
#include "validate.h"
#include "all_variants.h"
#include "commands.h"   /* frame, budget, report (cli/frame.c, cli/budget.c, cli/report.c) */
#ifdef PB_HAVE_BENCH
#include "bench.h"
#endif

static void usage(FILE *f)
{
    fputs("usage: posebench <command> [options]\n"
          "commands:\n"
          "  variants                     list variants and whether this CPU runs them\n"
          "  ops                          list registered ops\n"
          "  validate [--op NAME] [--variant NAME] [--json FILE] [--seed N] [--quick] [--verbose]\n"
          "           [--bvh FILE]... [--strict] [--no-mocap]\n"
          "                               check every op x variant against the float reference\n"
          "                               and the double oracle, on synthetic classes and real motion\n"
          "                               capture (--bvh files, else the packaged CMU clips when\n"
          "                               present); exit status 1 on any failure\n"
          "  bench [--op NAME]... [--variant NAME]... [--sizes N,N,...] [--quick] [--emulated]\n"
          "        [--json FILE] [--csv FILE] [--seed N] [--pb-run] [-- <Google Benchmark flags>]\n"
          "                               time every op x variant x size with a memcpy roofline\n"
          "                               (posebench bench --help for details)\n"
          "  frame [--characters N] [--joints N] [--bvh FILE]... [--method M]... [--variant NAME] [--json FILE]\n"
          "                               a crowd's frame (sample, transition, additive, 2-leg IK, FK) per stage\n"
          "  budget [--budget-us US] [--characters N] [--joints N] [--variant NAME] [--json FILE]\n"
          "                               transition methods: cost per frame, fit in a budget, and quality\n"
          "  report [--quick] [--out DIR]   validate + bench + frame + budget -> plots, index.html, summary.md\n"
          "                               in a new reports/out/<timestamp>/ (each command: --help)\n"
          "environment:\n"
          "  POSEBENCH_VARIANT=NAME       force the variant ops use (refused if the CPU cannot run it)\n"
          "  POSEBENCH_DISABLE=avx512,... hide CPU features from dispatch\n",
          f);
}

static int cmd_variants(void)
{
    char feats[128];
    printf("CPU features: %s\n", pb_cpu_feature_names(pb_cpu_features(), feats, sizeof feats));
    const pb_variant *active = NULL;
    pb_status as = pb_variant_active(&active);
    printf("%-12s %-8s %-6s %s\n", "variant", "isa", "lanes", "status");
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        const char *status;
        if (pb_variant_check(v) == PB_OK)
            status = pb_variant_mode(v) == PB_MODE_NATIVE ? "native" : "emulated (portable SIMDe, runs anywhere)";
        else
            status = pb_all_variant_emulated() ? "unavailable on this CPU/build (validated through its -emu build)"
                                               : "unavailable on this CPU/build";
        printf("%-12s %-8s %-6d %s%s\n", pb_variant_name(v), pb_variant_isa(v), pb_variant_lanes(v), status,
               v == active ? "  [active]" : "");
    }
    if (as != PB_OK) {
        fprintf(stderr, "posebench: %s\n", pb_last_error());
        return 2;
    }
    if (!pb_all_variant_emulated())
        printf("(emulated variants <isa>-emu not built: configure with -DPB_EMULATED=ON)\n");
    return 0;
}

static int cmd_ops(void)
{
    for (int i = 0; i < PB_OP_COUNT; i++) {
        const pb_op_info *o = pb_op_get((pb_op)i);
        printf("%-28s %s\n", o->name, o->summary);
    }
    return 0;
}

static int cmd_validate(int argc, char **argv)
{
    pb_validate_opts o = { .seed = 20231, .table = stdout };
    const char *json = NULL;
    const char *bvh[64];
    size_t nbvh = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--op") && has) o.op = argv[++i];
        else if (!strcmp(a, "--variant") && has) o.variant = argv[++i];
        else if (!strcmp(a, "--json") && has) json = argv[++i];
        else if (!strcmp(a, "--seed") && has) {
            char *end;
            errno = 0;
            o.seed = strtoull(argv[++i], &end, 10);
            if (errno || *end) {
                fprintf(stderr, "posebench validate: --seed expects a non-negative integer, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--quick")) o.quick = 1;
        else if (!strcmp(a, "--verbose")) o.verbose = 1;
        else if (!strcmp(a, "--bvh") && has) {
            if (nbvh == sizeof bvh / sizeof bvh[0]) {
                fprintf(stderr, "posebench validate: at most %zu --bvh files\n", sizeof bvh / sizeof bvh[0]);
                return 2;
            }
            bvh[nbvh++] = argv[++i];
        } else if (!strcmp(a, "--strict")) o.strict = 1;
        else if (!strcmp(a, "--no-mocap")) o.no_mocap = 1;
        else {
            fprintf(stderr, "posebench validate: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (o.op) {
        pb_op op;
        if (pb_op_find(o.op, &op) != PB_OK) {
            fprintf(stderr, "posebench validate: %s\n", pb_last_error());
            return 2;
        }
    }
    if (o.variant) {
        const pb_variant *v = NULL;
        int known = 0;
        for (size_t i = 0; i < pb_all_variant_count(); i++)
            known |= !strcmp(o.variant, pb_variant_name(pb_all_variant_at(i))) ||
                     !strcmp(o.variant, pb_variant_isa(pb_all_variant_at(i)));
        if (!known && pb_all_variant_find(o.variant, &v) != PB_OK) {
            fprintf(stderr, "posebench validate: %s\n", pb_last_error());
            return 2;
        }
    }
    if (nbvh) {
        o.bvh = bvh;
        o.nbvh = nbvh;
    }
    FILE *jf = NULL;
    if (json) {
        jf = fopen(json, "w");
        if (!jf) {
            fprintf(stderr, "posebench validate: cannot write %s: %s\n", json, strerror(errno));
            return 2;
        }
        o.json = jf;
    }
    int fails = pb_validate_report(&o);
    if (jf && fclose(jf) != 0) {
        fprintf(stderr, "posebench validate: error writing %s\n", json);
        return 2;
    }
    if (fails < 0) {
        fprintf(stderr, "posebench validate: %s\n", pb_last_error());
        return 2;
    }
    printf("%s: %d failing row(s)\n", fails ? "FAILED" : "all passed", fails);
    return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
    /* POSEBENCH_VARIANT naming an emulated build: only the harness has those
     * rows, so it forces them (other names are the runtime's to resolve). */
    if (pb_all_variant_env() != PB_OK) {
        fprintf(stderr, "posebench: %s\n", pb_last_error());
        return 2;
    }
    /* Global --variant (before the command) forces the dispatch choice. */
    int i = 1;
    while (i < argc && argv[i][0] == '-') {
        if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
            if (pb_all_variant_force(argv[i + 1]) != PB_OK) {
                fprintf(stderr, "posebench: %s\n", pb_last_error());
                return 2;
            }
            i += 2;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "posebench: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[i++];
    if (!strcmp(cmd, "variants")) return cmd_variants();
    if (!strcmp(cmd, "ops")) return cmd_ops();
    if (!strcmp(cmd, "validate")) return cmd_validate(argc - i, argv + i);
    if (!strcmp(cmd, "bench")) {
#ifdef PB_HAVE_BENCH
        return pb_bench_main(argc - i, argv + i);
#else
        fprintf(stderr, "posebench was built without Google Benchmark (install libbenchmark-dev)\n");
        return 2;
#endif
    }
    /* commands in their own files (cli/commands.h) */
    if (!strcmp(cmd, "frame")) return pb_cmd_frame(argc - i, argv + i);
    if (!strcmp(cmd, "budget")) return pb_cmd_budget(argc - i, argv + i);
    if (!strcmp(cmd, "report")) return pb_cmd_report(argc - i, argv + i);
    fprintf(stderr, "posebench: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
