/* cmd_validate.c — `posebench validate`: every op x variant against the float
 * reference and the double oracle (validate/validate.h), on synthetic input
 * classes and real motion capture. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "command.h"
#include "skin_check.h"
#include "mm_check.h"
#include "bspace_check.h"
#include "blend_n_check.h"
#include "model_import.h"
#include "pick.h"
#include "validate.h"

enum { O_OP, O_VARIANT, O_JSON, O_SEED, O_QUICK, O_VERBOSE, O_BVH, O_BVH_SCALE, O_STRICT, O_NO_MOCAP, O_MODEL, O_COUNT };
static const opt_spec opts[O_COUNT] = {
    [O_OP] = { "op", OPT_STR, "NAME", 0, 0, NULL, OPT_MAX_VALUES, NULL, "only this op (posebench ops lists them; skin_lbs, skin_dqs, mm_search, bspace, blend_n: those tables)" },
    [O_VARIANT] = { "variant", OPT_STR, "NAME", 0, 0, NULL, 0, NULL,
                    "only this variant; an ISA name selects its native and -emu builds\n"
                    "(default: the forced variant, else every variant of the build)" },
    [O_JSON] = { "json", OPT_STR, "FILE", 0, 0, NULL, 0, NULL, "one row per op x variant x metric as JSON" },
    [O_SEED] = { "seed", OPT_U64, "N", 0, 0, NULL, 0, "20231", "input seed" },
    [O_QUICK] = { "quick", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "skip the 100003-element case (and, unless asked for by --op, the bspace and\n"
                                                          "blend_n tables)" },
    [O_VERBOSE] = { "verbose", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "print every metric row" },
    [O_BVH] = { "bvh", OPT_STR, "FILE", 0, 0, NULL, 64, NULL,
                "motion capture for the mocap class (default: the packaged CMU clips when present)" },
    [O_BVH_SCALE] = { "bvh-scale", OPT_DOUBLE, "S", 1e-6, 1e6, NULL, 0, "0.01: centimetres to metres",
                      "unit scale of the --bvh files" },
    [O_STRICT] = { "strict", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "BVH warnings are errors" },
    [O_NO_MOCAP] = { "no-mocap", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "skip the mocap class (not with --bvh, --bvh-scale or --strict: they are its)" },
    [O_MODEL] = { "model", OPT_STR, "FILE", 0, 0, NULL, 0, NULL,
                  "your character (FBX, glTF 2, Collada, X, ...: posebench/asset.h): its mesh skinned by skin_lbs and\n"
                  "skin_dqs at a frame of its first clip with its own inverse binds (case model), and its clips in\n"
                  "the mocap class (FK, IK, transitions on its skeleton; not with --no-mocap: then the mesh only)" },
};

static int run_with(const opt_val *v, const pb_asset *model)
{
    pb_validate_opts o = { .seed = 20231, .table = stdout, .model = model };
    o.ops = v[O_OP].all;
    o.nops = (size_t)v[O_OP].count;
    o.variant = v[O_VARIANT].count ? v[O_VARIANT].str : pick_forced();
    if (v[O_SEED].count) o.seed = v[O_SEED].u;
    o.quick = v[O_QUICK].count > 0;
    o.verbose = v[O_VERBOSE].count > 0;
    o.strict = v[O_STRICT].count > 0;
    o.no_mocap = v[O_NO_MOCAP].count > 0;
    /* the options of the mocap class, which --no-mocap skips: refused, not silently left unread */
    for (int k = O_BVH; o.no_mocap && k <= O_STRICT; k++)
        if (v[k].count) {
            fprintf(stderr, "posebench validate: --%s%s%s is for the mocap class, which --no-mocap skips: give one or "
                    "the other\n", opts[k].name, v[k].str ? " " : "", v[k].str ? v[k].str : "");
            return EXIT_USAGE;
        }
    if (v[O_BVH].count) {
        o.bvh = v[O_BVH].all;
        o.nbvh = (size_t)v[O_BVH].count;
    }
    if (v[O_BVH_SCALE].count) o.bvh_scale = v[O_BVH_SCALE].d;
    /* skinning, the motion-matching search and blend-space weights are not pose ops: their own tables
     * (validate/skin_check.c, mm_check.c, bspace_check.c), after the ops' (or alone) */
    const char *pose_ops[OPT_MAX_VALUES];
    size_t nskin = 0, nmm = 0, nbs = 0, nbn = 0, npose = 0;
    for (size_t i = 0; i < o.nops; i++) {
        if (!strcmp(o.ops[i], "skin_lbs") || !strcmp(o.ops[i], "skin_dqs")) {
            nskin++;
            continue;
        }
        if (!strcmp(o.ops[i], "mm_search")) {
            nmm++;
            continue;
        }
        if (!strcmp(o.ops[i], "bspace")) {
            nbs++;
            continue;
        }
        if (!strcmp(o.ops[i], "blend_n")) {
            nbn++;
            continue;
        }
        pb_op op;
        if (pb_op_find(o.ops[i], &op) != PB_OK) {
            fprintf(stderr, "posebench validate: %s\n", pb_last_error());
            return EXIT_USAGE;
        }
        pose_ops[npose++] = o.ops[i];
    }
    const int aux_only = (nskin > 0 || nmm > 0 || nbs > 0 || nbn > 0) && npose == 0, skin = o.nops == 0 || nskin > 0,
              mm = o.nops == 0 || nmm > 0;
    /* the blend-space and N-way tables: when asked for, or in a full run (not --quick: report's run; nor in
     * sanitizer builds, unoptimized, where their unit tests run the same tables) */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    const int full = 0;
#else
    const int full = o.nops == 0 && !o.quick;
#endif
    const int bsp = nbs > 0 || full, bln = nbn > 0 || full;
    o.ops = pose_ops;
    o.nops = npose;
    if (o.variant && pick_check_name("validate", o.variant) != 0) return EXIT_USAGE;
    const char *json = v[O_JSON].str;
    FILE *jf = NULL;
    /* the real-data class: said once, in the text and in every JSON row, when it does not run */
    const char *skipped = pb_mocap_skip_reason(o.no_mocap, o.nbvh);
    if (skipped) printf("# mocap: skipped (%s): no row has real motion capture; the mocap class column is null in --json\n", skipped);
    if (json) {
        if (!(jf = fopen(json, "w"))) {   /* opened first: an unwritable path is refused before the run */
            fprintf(stderr, "posebench validate: cannot write %s: %s\n", json, strerror(errno));
            return EXIT_USAGE;
        }
        if (!(o.json = pb_val_json_new(skipped))) {
            fclose(jf);
            fprintf(stderr, "posebench validate: out of memory\n");
            return EXIT_USAGE;
        }
    }
    /* every table's rows go to the same JSON (written once, at the end) */
    const pb_val_sink sink = { o.json ? pb_val_json_row : NULL, o.json };
    int fails = aux_only ? 0 : pb_validate_report(&o);
    if (skin && fails >= 0) {
        pb_mocap mc = { 0 };
        if (!o.no_mocap) pb_mocap_load_scaled(&mc, o.bvh, o.nbvh, o.bvh_scale, 0, NULL);   /* none: the random case only */
        int sf = pb_skin_validate(stdout, &mc, model, &sink);
        pb_mocap_free(&mc);
        fails = sf < 0 ? -1 : fails + sf;
    }
    if (mm && fails >= 0) {
        int mf = pb_mm_validate(stdout, o.no_mocap, &sink);
        fails = mf < 0 ? -1 : fails + mf;
    }
    if (bsp && fails >= 0) {
        int bf = pb_bs_validate(stdout, &sink);
        fails = bf < 0 ? -1 : fails + bf;
    }
    if (bln && fails >= 0) {
        int nf = pb_bn_validate(stdout, o.no_mocap, &sink);
        fails = nf < 0 ? -1 : fails + nf;
    }
    if (jf) {   /* the rows of every table, or the error record: valid JSON either way */
        char why[512];
        snprintf(why, sizeof why, "%s", fails < 0 ? pb_last_error() : "");
        int bad = pb_val_json_write(o.json, jf, &o, fails < 0 ? why : NULL) != 0;
        pb_val_json_free(o.json);
        if ((fclose(jf) != 0 || bad) && fails >= 0) {
            fprintf(stderr, "posebench validate: error writing %s\n", json);
            return EXIT_USAGE;
        }
        if (fails < 0) pb_fail(PB_ERR_PARAM, "%s", why);   /* the run's error, not the write's */
    }
    if (fails < 0) {
        fprintf(stderr, "posebench validate: %s\n", pb_last_error());
        return EXIT_USAGE;
    }
    printf("%s: %d failing row(s)\n", fails ? "FAILED" : "all passed", fails);
    return fails ? EXIT_CHECK : EXIT_OK;
}

static int run(const opt_val *v, int nrest, char **rest)
{
    (void)nrest, (void)rest;
    pb_asset model;
    memset(&model, 0, sizeof model);
    model_cost mcost;
    if (v[O_MODEL].count && model_import(v[O_MODEL].str, NULL, &model, &mcost) != PB_OK) {   /* names the file */
        fprintf(stderr, "posebench validate: --model: %s\n", pb_last_error());
        return EXIT_USAGE;
    }
    if (v[O_MODEL].count) {
        char cost[160];
        model_cost_line(cost, sizeof cost, &mcost);
        printf("# model %s: %s\n", v[O_MODEL].str, cost);
    }
    int status = run_with(v, v[O_MODEL].count ? &model : NULL);
    pb_asset_free(&model);
    return status;
}

const command cmd_validate = {
    .name = "validate",
    .summary = "check every op x variant against the float reference and the double oracle",
    .about = "  On seeded synthetic input classes (every edge class) and real motion capture (--bvh files, else\n"
             "  the packaged CMU clips when present). One line per op x variant: its worst metric against the\n"
             "  tolerance table; exit status 1 if any row fails.\n",
    .opts = opts,
    .nopts = O_COUNT,
    .run = run,
};
