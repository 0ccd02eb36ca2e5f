/* cmd_frame.c — `posebench frame`: a crowd running one animation frame
 * (posebench/frame.h: sample -> transition -> additive -> legs FK -> 2-leg IK
 * -> FK with velocities), timed per stage, per variant and per transition
 * method. Times are CPU time (CLOCK_PROCESS_CPUTIME_ID): each stage is timed
 * as a block of F frames (one clock read per block, not per call: the
 * process clock is a system call, ~0.3 us, which per stage would be a few %
 * of a stage), and the whole frame as its own block; medians over
 * repetitions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "context.h"
#include "frame_cmd.h"
#include "model_import.h"
#include "frame_opts.h"
#include "posebench/frame.h"
#include "measure.h"
#include "noise.h"
#include "pick.h"
#include "skin_opts.h"

#define MAX_VARIANTS FRAME_MAX_VARIANTS
#define MAX_BVH FRAME_MAX_BVH

enum { ST_SAMPLE, ST_TRANSITION, ST_ADDITIVE, ST_LEGFK, ST_IK, ST_FK, ST_PALETTE, ST_SKIN, ST_COUNT };
static const char *stage_key[ST_COUNT] = { "sample", "transition", "additive", "legs_fk", "ik", "fk", "palette",
                                           "skin" };
static const char *stage_head[ST_COUNT] = { "sample", "transition", "additive", "legs FK", "2-leg IK", "FK+vel",
                                            "palette", "skin" };
static model_cost model_import_cost;   /* the --model's import, for its scene's JSON */
static char model_scene_name[64];   /* its scene's name ('' without --model) */


typedef struct frame_row {
    const pb_scene *sc;
    const pb_variant *v;
    pb_frame_method m;
    double stage_us[ST_COUNT];   /* NAN: not run (missing op or no legs) */
    char missing[ST_COUNT][96];  /* why a stage did not run */
    double stage_apart_us[ST_COUNT];   /* each stage timed as its own block of frames (caches warm for it) */
    double stage_sum_us;         /* sum of the stage medians */
    double apart_sum_us;         /* sum of the stage medians timed apart */
    double total_us, setup_us;   /* median of the whole-frame totals (each repetition's total = its stages' sum) */
    double total_spread;         /* (max - min) / median of the total over the repetitions */
    double cpu_per_wall;         /* median CPU time / wall time of the whole-frame blocks (1: never descheduled) */
    int noisy;                   /* noise_check of the total: NOISE_SPREAD, NOISE_STAGE_SUM (noise.h) */
} frame_row;

/* The library's stages [st_first[s], st_first[s + 1]) make table stage s (sample: both clips). */
static const pb_frame_stage st_first[ST_COUNT + 1] = { PB_FS_SAMPLE_SRC, PB_FS_TRANSITION, PB_FS_ADDITIVE,
                                                      PB_FS_LEG_FK, PB_FS_IK, PB_FS_FK, PB_FS_PALETTE,
                                                      PB_FS_SKIN, PB_FS_COUNT };

static pb_status run_stage(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int stage, int k)
{
    return pb_frame_stages_run(c, v, m, k, st_first[stage], st_first[stage + 1]);
}

/* Measure one scene x variant x method. Returns 0, or -1 after printing
 * the failing op's message. A stage whose op this variant cannot run
 * (PB_ERR_OP / PB_ERR_UNSUPPORTED) is marked missing, not timed. */
static int measure(pb_frame_crowd *c, const frame_cfg *cfg, frame_row *row)
{
    const pb_variant *v = row->v;
    pb_frame_method m = row->m;
    int skip[ST_COUNT] = { 0 };
    for (int s = 0; s < ST_COUNT; s++) row->stage_us[s] = NAN;
    row->total_us = row->setup_us = NAN;
    /* the transition: both clips sampled at its instant, the state kept */
    pb_status st = pb_frame_sample(c, v, 0, 0.0f);
    if (st == PB_OK) st = pb_frame_sample(c, v, 1, 0.0f);
    if (st == PB_OK) st = pb_frame_begin(c, v, m);
    if (st != PB_OK) goto fail;
    /* one validated frame; find missing stages */
    for (int s = 0; s < ST_COUNT; s++) {
        st = run_stage(c, v, m, s, 0);
        if (st == PB_ERR_OP || st == PB_ERR_UNSUPPORTED) {
            skip[s] = 1;
            snprintf(row->missing[s], sizeof row->missing[s], "missing: %s", c->failed);
        } else if (st != PB_OK) goto fail;
    }
    if (c->sc->leg[0][0] < 0) {
        skip[ST_IK] = 1;
        snprintf(row->missing[ST_IK], sizeof row->missing[ST_IK], "no legs");
    }
    if (!c->sc->mesh.n) {
        skip[ST_SKIN] = 1;
        snprintf(row->missing[ST_SKIN], sizeof row->missing[ST_SKIN], "no mesh");
    }
    int R = cfg->reps, F = cfg->frames;
    double *tot = calloc((size_t)R * (2 * ST_COUNT + 3), sizeof(double));
    if (!tot) {
        fprintf(stderr, "posebench frame: out of memory\n");
        return -1;
    }
    double *stg = tot + R, *apart = stg + (size_t)R * ST_COUNT, *setup = apart + (size_t)R * ST_COUNT;
    double *ratio = setup + R;
    for (int r = 0; r < R; r++) {
        /* the whole frame, each stage timed inside it: a wall-clock read after every stage (cheap), the block's
         * CPU time around it; each stage gets its share of the block's CPU time, so the stages add up to the
         * total exactly in every repetition */
        double acc[ST_COUNT] = { 0 };
        double c0 = cpu_seconds(), w0 = wall_seconds(), prev = w0;
        for (int k = 0; k < F; k++)
            for (int s = 0; s < ST_COUNT; s++) {
                if (skip[s]) continue;
                if ((st = run_stage(c, v, m, s, k)) != PB_OK) goto fail_free;
                double t = wall_seconds();
                acc[s] += t - prev;
                prev = t;
            }
        double c1 = cpu_seconds();
        if (c0 <= 0 || c1 <= 0 || w0 <= 0 || prev <= w0) {
            free(tot);
            fprintf(stderr, "posebench frame: the process CPU clock or the monotonic clock failed\n");
            return -1;
        }
        double scale = (c1 - c0) / (prev - w0);   /* CPU seconds per wall second of this block */
        ratio[r] = scale;
        tot[r] = (c1 - c0) / F * 1e6;
        for (int s = 0; s < ST_COUNT; s++) stg[(size_t)s * R + r] = acc[s] * scale / F * 1e6;
        /* each stage as its own block (the earlier method, kept to show why it did not add up) */
        for (int s = 0; s < ST_COUNT; s++) {
            if (skip[s]) continue;
            double t0 = cpu_seconds();
            for (int k = 0; k < F; k++)
                if ((st = run_stage(c, v, m, s, k)) != PB_OK) goto fail_free;
            apart[(size_t)s * R + r] = (cpu_seconds() - t0) / F * 1e6;
        }
        double t0 = cpu_seconds();
        for (int k = 0; k < F; k++)
            if ((st = pb_frame_begin(c, v, m)) != PB_OK) goto fail_free;
        setup[r] = (cpu_seconds() - t0) / F * 1e6;
    }
    row->cpu_per_wall = median_sort(ratio, R);
    row->stage_sum_us = row->apart_sum_us = 0;
    for (int s = 0; s < ST_COUNT; s++) {
        row->stage_apart_us[s] = NAN;
        if (skip[s]) continue;
        row->stage_us[s] = median_sort(stg + (size_t)s * R, R);
        row->stage_apart_us[s] = median_sort(apart + (size_t)s * R, R);
        row->stage_sum_us += row->stage_us[s];
        row->apart_sum_us += row->stage_apart_us[s];
    }
    row->total_us = median_sort(tot, cfg->reps);   /* sorts: tot[0] is the min, tot[reps - 1] the max */
    row->total_spread = row->total_us > 0 ? (tot[cfg->reps - 1] - tot[0]) / row->total_us : NAN;
    if (pb_frame_method_get(m)->once[0]) row->setup_us = median_sort(setup, cfg->reps);
    row->noisy = noise_check(row->total_spread, row->stage_sum_us, row->total_us);
    free(tot);
    return 0;
fail_free:
    free(tot);
fail:
    fprintf(stderr, "posebench frame: %s (%s, %s, %s): %s\n", c->failed ? c->failed : "?", c->sc->name,
            pb_variant_name(v), pb_frame_method_name(m), pb_last_error());
    return -1;
}

static void print_us(double v, int width)
{
    if (isnan(v)) printf(" %*s", width, "-");
    else printf(" %*.1f", width, v);
}

static void print_row(const frame_row *row, size_t characters, double cpm)
{
    printf("%-16s %-8s", pb_frame_method_name(row->m), pb_variant_name(row->v));
    const int w[ST_COUNT] = { 9, 10, 9, 8, 9, 8, 8, 8 };
    for (int s = 0; s < ST_COUNT; s++) {
        if (row->missing[s][0]) printf(" %*.*s", w[s], w[s], row->missing[s]);
        else print_us(row->stage_us[s], w[s]);
    }
    print_us(row->stage_sum_us, 9);
    print_us(row->total_us, 9);
    if (isnan(row->total_us) || isnan(row->stage_sum_us) || !(row->total_us > 0)) printf(" %7s", "-");
    else printf(" %+6.1f%%", 100.0 * (row->total_us - row->stage_sum_us) / row->total_us);
    putchar(noise_mark(row->noisy, NOISE_STAGE_SUM));
    print_us(row->apart_sum_us, 9);
    if (isnan(row->total_spread)) printf(" %7s", "-");
    else printf(" %6.1f%%", 100.0 * row->total_spread);
    putchar(noise_mark(row->noisy, NOISE_SPREAD));
    printf(" %9.0f", cpm);
    print_us(row->setup_us, 10);
    putchar('\n');
    fflush(stdout);   /* rows appear as they are measured, between the progress lines */
    (void)characters;
}

/* One row of the JSON. 0, or -1 when out of memory. */
static int json_row(cJSON *rows, const frame_row *row, size_t characters, double cpm)
{
    const pb_frame_method_info *in = pb_frame_method_get(row->m);
    cJSON *o = cJSON_CreateObject(), *su, *miss;
    if (!o || !cJSON_AddItemToArray(rows, o)) {
        cJSON_Delete(o);
        return -1;
    }
    int ok = cJSON_AddStringToObject(o, "scene", row->sc->name) && cJSON_AddNumberToObject(o, "joints", (double)row->sc->joints) &&
             cJSON_AddNumberToObject(o, "characters", (double)characters) &&
             cJSON_AddStringToObject(o, "variant", pb_variant_name(row->v)) &&
             cJSON_AddStringToObject(o, "method", in->method) && cJSON_AddStringToObject(o, "method_key", in->key) &&
             cJSON_AddStringToObject(o, "transition_ops", in->per_frame) &&
             cJSON_AddNumberToObject(o, "clips_sampled", in->samples) &&
             (su = cJSON_AddObjectToObject(o, "stage_us")) && (miss = cJSON_AddArrayToObject(o, "missing"));
    for (int s = 0; ok && s < ST_COUNT; s++) {
        ok = json_add_num(su, stage_key[s], row->stage_us[s]) != NULL;
        if (ok && row->missing[s][0]) {
            cJSON *m = cJSON_CreateObject();
            ok = m && cJSON_AddItemToArray(miss, m) && cJSON_AddStringToObject(m, "stage", stage_key[s]) &&
                 cJSON_AddStringToObject(m, "why", row->missing[s]);
        }
    }
    cJSON *ap = ok ? cJSON_AddObjectToObject(o, "stage_apart_us") : NULL;
    ok = ok && ap;
    for (int s = 0; ok && s < ST_COUNT; s++) ok = json_add_num(ap, stage_key[s], row->stage_apart_us[s]) != NULL;
    ok = ok && json_add_num(o, "stage_sum_us", row->stage_sum_us) &&
         json_add_num(o, "total_minus_stage_sum_us", row->total_us - row->stage_sum_us) &&
         json_add_num(o, "stage_apart_sum_us", row->apart_sum_us) &&
         json_add_num(o, "total_minus_stage_apart_sum_us", row->total_us - row->apart_sum_us) &&
         json_add_num(o, "cpu_per_wall", row->cpu_per_wall) &&
         json_add_num(o, "total_us", row->total_us) &&
         json_add_num(o, "total_spread", isnan(row->total_spread) ? 0.0 : row->total_spread) &&
         json_add_num(o, "characters_per_ms", cpm) && json_add_num(o, "setup_once_us", row->setup_us) &&
         cJSON_AddStringToObject(o, "setup_once", in->once) && noise_json(o, row->noisy);
    return ok ? 0 : -1;
}

/* The JSON's head: tool, context, config, stages, scenes. NULL when out of memory. */
static cJSON *json_head(const frame_cfg *cfg, const pb_scene *scenes, int ns)
{
    cJSON *root = cJSON_CreateObject(), *cf, *st, *sa;
    cJSON *ctx = context_new();
    int ok = root && ctx && cJSON_AddStringToObject(root, "tool", "posebench frame") &&
             cJSON_AddItemToObject(root, "context", ctx);
    if (!ok) cJSON_Delete(ctx);
    ok = ok && (cf = cJSON_AddObjectToObject(root, "config")) &&
         cJSON_AddNumberToObject(cf, "characters", (double)cfg->characters) &&
         cJSON_AddNumberToObject(cf, "frames", cfg->frames) && cJSON_AddNumberToObject(cf, "repetitions", cfg->reps) &&
         cJSON_AddNumberToObject(cf, "threads", cfg->threads) &&
         cJSON_AddNumberToObject(cf, "block", (double)cfg->block) &&
         cJSON_AddStringToObject(cf, "blocked_timing", "blocked: one thread, CPU time shared out per stage by "
                                 "CLOCK_MONOTONIC reads after each stage of each block; threads: wall time of a "
                                 "block of fused frames, medians; copy: memcpy of half of what a fused frame streams (state, "
                                 "delta read, globals, palette written: 276 B per element, the inverse bind being one per joint; skinned "
                                 "vertices: 24 B each), so that its reads and writes add up to the frame's, on as "
                                 "many threads, GB/s counting read + write") &&
         cJSON_AddStringToObject(cf, "sampler", pb_op_get(cfg->sampler)->name) &&
         cJSON_AddNumberToObject(cf, "frame_dt_s", (double)PB_FRAME_DT) &&
         cJSON_AddNumberToObject(cf, "transition_s", (double)PB_FRAME_TRANSITION_S) &&
         cJSON_AddNumberToObject(cf, "halflife_s", (double)PB_FRAME_HALFLIFE_S) &&
         cJSON_AddNumberToObject(cf, "halflife_scale", (double)cfg->hl[0]) &&
         cJSON_AddNumberToObject(cf, "halflife_min_s", (double)cfg->hl[1]) &&
         cJSON_AddNumberToObject(cf, "halflife_max_s", (double)cfg->hl[2]) &&
         cJSON_AddStringToObject(cf, "curve", pb_curve_name(cfg->curve.kind)) && cJSON_AddBoolToObject(cf, "frozen", cfg->frozen) &&
         cJSON_AddNumberToObject(cf, "additive_weight", (double)PB_FRAME_ADDITIVE_WEIGHT) &&
         cJSON_AddStringToObject(cf, "timing", "CPU time (CLOCK_PROCESS_CPUTIME_ID) of each block of whole frames, "
                                               "medians over repetitions; stages timed inside the whole frame by "
                                               "CLOCK_MONOTONIC reads after each stage, each given its share of the "
                                               "block's CPU time; stage_apart_us: each stage as its own block") &&
         json_add_num(cf, "clock_read_us", clock_read_cost(wall_seconds) * 1e6) && noise_config_json(cf) == 0 &&
         (st = cJSON_CreateStringArray(stage_key, ST_COUNT)) && cJSON_AddItemToObject(root, "stages", st) &&
         (sa = cJSON_AddArrayToObject(root, "scenes")) && cJSON_AddArrayToObject(root, "rows");
    for (int i = 0; ok && i < ns; i++) {
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(sa, o) && cJSON_AddStringToObject(o, "name", scenes[i].name) &&
             cJSON_AddNumberToObject(o, "joints", (double)scenes[i].joints) &&
             cJSON_AddNumberToObject(o, "vertices", (double)scenes[i].mesh.n) &&
             cJSON_AddStringToObject(o, "skin", scenes[i].skin == PB_SKIN_DQS ? "dqs" : "lbs") &&
             cJSON_AddStringToObject(o, "source", scenes[i].source) &&
             cJSON_AddStringToObject(o, "legs", scenes[i].leg_desc) &&
             (strcmp(scenes[i].name, model_scene_name) != 0 || model_cost_json(o, &model_import_cost) == 0);
    }
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static void print_legend(const frame_cfg *cfg)
{
    printf("\nstages (us per frame for the whole crowd, CPU time; each stage timed inside the whole frame):\n"
           "  sample      %s of both clips for a cross-fade, of the destination only for inertialization and\n"
           "              dead blending (their source is the state kept at the transition); by the crowd builder:\n"
           "              one run across the characters, each at its own time offset\n"
           "  transition  cross-fade: blend (slerp, exact velocities; smoothstep weight); inertialization:\n"
           "              inertialize (setup once per transition: inertialize_offset); dead blending:\n"
           "              dead_blending (setup once: a copy of the source pose); every frame mid-transition\n"
           "  additive    additive (local, with velocities) of a fixed delta pose (not sampled) at weight %.1f\n"
           "  legs FK     fk_static of the legs' joints and their ancestors only: the globals the IK reads\n"
           "  2-leg IK    gather 2 chains per character (C), two_bone_ik, scatter the rotations back (C); the\n"
           "              solved joints keep their sampled velocities (two_bone_ik_vel would update them)\n"
           "  FK+vel      fk with velocities\n"
           "  palette     palette: 3x4 skinning matrices, globals x the inverse bind pose (bind: each joint's bone\n"
           "              in the source clip's first frame, no rotation)\n"
           "  skin        linear blend skinning (skin_lbs, up to 4 influences, positions and normals) of a\n"
           "              synthetic mesh of --vertices vertices around the bind pose, for every character\n"
           "  total       the whole frame: CPU time of a block of frames, median over the repetitions. Inside it a\n"
           "              monotonic-clock read after every stage (%.2f us a read, %d reads a frame, in the total)\n"
           "              gives each stage its share of the block's CPU time: in every repetition the stages add up\n"
           "              to the total; diff = (total - stage sum) / total is only that a sum of medians is not the\n"
           "              median of the sums. spread: (max - min) / median of the total over the repetitions\n"
           "  apart sum   the stages timed apart, each as its own block of frames (how frame timed them before):\n"
           "              below the total because a stage repeated alone finds its own data in cache, while in the\n"
           "              frame the other stages have evicted it (docs/frame-and-budget.md)\n"
           "  chars/ms    characters / total; setup us: once per transition, not per frame\n",
           pb_op_get(cfg->sampler)->name, (double)PB_FRAME_ADDITIVE_WEIGHT, clock_read_cost(wall_seconds) * 1e6,
           ST_COUNT);
}

/* The scene's blocked table (frame_fused.c): every method x variant of the first. */
static int fused_table(pb_frame_crowd *crowd, const frame_cfg *cfg, int nm, const pb_frame_method *mlist,
                       const pb_variant *const *vars, int nv, cJSON *root)
{
    const pb_scene *sc = crowd->sc;
    size_t block = fused_block(sc, cfg->block);
    size_t blocks = cfg->characters / block ? cfg->characters / block : 1;
    printf("\n%s in blocks of %zu characters (%zu block%s, the last holding the remainder), one thread, CPU time, "
           "us per frame; then the fused frame on 1 .. %d threads, wall time:\n", sc->name, block, blocks,
           blocks > 1 ? "s" : "", cfg->threads);
    if ((size_t)cfg->threads > blocks)
        printf("  note: %d threads for %zu block%s: at most %zu run at once, the others wait (blocks are the unit "
               "of work)\n", cfg->threads, blocks, blocks > 1 ? "s" : "", blocks);
    printf("%-16s %-8s %-7s", "method", "variant", "order");
    for (int s = 0; s < PB_FS_COUNT; s++) printf(" %9.9s", pb_frame_stage_name((pb_frame_stage)s));
    printf(" %9s %8s\n", "total us", "ns/joint");
    cJSON *fr = root ? cJSON_GetObjectItemCaseSensitive(root, "blocked") : NULL;
    if (root && !fr && !(fr = cJSON_AddArrayToObject(root, "blocked"))) return EXIT_USAGE;
    for (int mi = 0; mi < nm; mi++) {
        for (int vi = 0; vi < nv; vi++) {
            fused_row row;
            fprintf(stderr, "posebench frame: %s, blocks, %s, %s ...\n", sc->name, pb_frame_method_name(mlist[mi]),
                    pb_variant_name(vars[vi]));
            if (fused_measure(crowd, cfg, vars[vi], mlist[mi], &row) != 0) return EXIT_CHECK;
            fused_print(&row, sc, vars[vi], mlist[mi], cfg->characters);
            if (fr && fused_json(fr, &row, sc, vars[vi], mlist[mi], cfg->characters) != 0) {
                fprintf(stderr, "posebench frame: out of memory\n");
                return EXIT_USAGE;
            }
        }
    }
    return EXIT_OK;
}

static int run(const opt_val *v, int nrest, char **rest)
{
    (void)nrest, (void)rest;
    int quick = v[O_QUICK].count > 0;
    frame_cfg cfg = { 200, quick ? 20 : 200, quick ? 3 : 5, PB_OP_sample_linear, pick_threads(), 0, NULL, { 0 }, 0,
                      { PB_CURVE_SMOOTHSTEP, 0, 0, 0, 0 }, 0 };
    if (v[O_THREADS].count) cfg.threads = (int)v[O_THREADS].l;
    if (v[O_BLOCK].count) cfg.block = (size_t)v[O_BLOCK].l;
    if (v[O_CHARACTERS].count) cfg.characters = (size_t)v[O_CHARACTERS].l;
    if (v[O_FRAMES].count) cfg.frames = (int)v[O_FRAMES].l;
    if (v[O_REPS].count) cfg.reps = (int)v[O_REPS].l;
    if (v[O_SAMPLER].count) cfg.sampler = pick_sampler(v[O_SAMPLER].choice);
    long joints = v[O_JOINTS].count ? v[O_JOINTS].l : 64;
    float bvh_scale = v[O_BVH_SCALE].count ? (float)v[O_BVH_SCALE].d : 0.01f;
    pb_frame_method mlist[FRAME_MAX_METHODS];
    int nm = frame_opts_methods(v, mlist);
    if (nm < 0 || frame_opts_sources(v) != 0 || frame_opts_halflife_est(v, &cfg) != 0 ||
        frame_opts_curve(v, mlist, nm, &cfg) != 0)
        return EXIT_USAGE;
    size_t vertices = skin_opts_vertices(&v[O_VERTICES], &v[O_SKIN], quick);   /* --skin none: 0 */
    if (skin_opts_check("frame", cfg.characters, vertices) != 0) return EXIT_USAGE;   /* before anything runs */

    const pb_variant *vars[MAX_VARIANTS];
    int nv = pick_variants("frame", v[O_VARIANT].all, v[O_VARIANT].count, PICK_ALL_NATIVE, vars, MAX_VARIANTS);
    if (nv < 0) return EXIT_USAGE;
    const char *json = v[O_JSON].str;
    if (json_path_check("frame", json) != 0) return EXIT_USAGE;   /* before the measurements */
    if (v[O_CLIP].count && !v[O_MODEL].count) {
        fprintf(stderr, "posebench frame: --clip names a clip of --model FILE: give the model\n");
        return EXIT_USAGE;
    }
    pb_scene scenes[3 + MAX_BVH];
    int ns = frame_load_scenes(scenes, 3 + MAX_BVH, joints, v[O_NO_CMU].count > 0, &v[O_BVH], bvh_scale,
                               v[O_MODEL].str, &v[O_CLIP], &model_import_cost, model_scene_name, sizeof model_scene_name);
    if (ns < 0) return EXIT_USAGE;
    if (v[O_SOURCE].count && v[O_SOURCE].choice == 2) {   /* the blend graph: its own table */
        if (!v[O_CHARACTERS].count) cfg.characters = 1000;
        cfg.graph = v[O_GRAPH].count ? v[O_GRAPH].str : NULL;
        cJSON *root = json ? cJSON_CreateObject() : NULL;
        int st = json && !root ? -1 : frame_graph_run(&cfg, vars, nv, scenes, ns, root);
        if (st == 0 && root) st = json_write_file("frame", json, root);
        cJSON_Delete(root);
        for (int i = 0; i < ns; i++) pb_scene_free(&scenes[i]);
        return st == 0 ? EXIT_OK : st == -2 ? EXIT_USAGE : EXIT_CHECK;   /* -2: a bad --graph file */
    }
    if (v[O_SOURCE].count && v[O_SOURCE].choice == 1) {   /* motion matching: its own table */
        if (!v[O_METHOD].count) nm = 1, mlist[0] = PB_FM_INERTIALIZE;   /* its default: switches inertialized */
        for (int i = 0; i < nm; i++)
            if (pb_mm_switching_check("posebench frame --source mm --method", mlist[i]) != PB_OK) {
                fprintf(stderr, "%s\n", pb_last_error());
                for (int s = 0; s < ns; s++) pb_scene_free(&scenes[s]);
                return EXIT_USAGE;
            }
        int want_s[2] = { !v[O_MM_SEARCH].count, !v[O_MM_SEARCH].count };
        for (int i = 0; i < v[O_MM_SEARCH].count; i++) want_s[!strcmp(v[O_MM_SEARCH].all[i], "aabb")] = 1;
        cJSON *root = json ? cJSON_CreateObject() : NULL;
        int st = json && !root ? -1
                 : frame_mm_run(&cfg, vars, nv, v[O_MM_INTERVAL].count ? (int)v[O_MM_INTERVAL].l : PB_MM_INTERVAL,
                                want_s, mlist, nm, scenes, ns, root);
        if (st == 0 && root) st = json_write_file("frame", json, root);
        cJSON_Delete(root);
        for (int i = 0; i < ns; i++) pb_scene_free(&scenes[i]);
        return st == 0 ? EXIT_OK : EXIT_CHECK;
    }
    for (int i = 0; i < ns; i++)   /* a --model keeps its own mesh (none with --vertices 0) */
        if (skin_opts_scene(&scenes[i], vertices, skin_opts_method(&v[O_SKIN])) != PB_OK) {
            fprintf(stderr, "posebench frame: %s\n", pb_last_error());
            for (int k = 0; k < ns; k++) pb_scene_free(&scenes[k]);
            return EXIT_USAGE;
        }

    int status = EXIT_OK;
    cJSON *root = json ? json_head(&cfg, scenes, ns) : NULL;
    cJSON *jrows = cJSON_GetObjectItemCaseSensitive(root, "rows");
    if (json && !root) {
        fprintf(stderr, "posebench frame: out of memory\n");
        status = EXIT_USAGE;
    }
    if (status == EXIT_OK)
        printf("posebench frame: %zu characters per crowd, %d frames x %d repetitions (median), %s, transition "
               "window %.2f s, dead-blending half-life %.2f s (dead_ue: clamp(%g d / v, %g, %g) s), CPU time\n",
               cfg.characters, cfg.frames, cfg.reps, pb_op_get(cfg.sampler)->name, (double)PB_FRAME_TRANSITION_S,
               (double)PB_FRAME_HALFLIFE_S, (double)cfg.hl[0], (double)cfg.hl[1], (double)cfg.hl[2]);
    if (status == EXIT_OK && (cfg.curve.kind != PB_CURVE_SMOOTHSTEP || cfg.frozen)) {
        printf("cross-fade weight: %s", pb_curve_name(cfg.curve.kind));
        if (cfg.curve.kind == PB_CURVE_BEZIER)
            printf(" (%g, %g, %g, %g)", (double)cfg.curve.x1, (double)cfg.curve.y1, (double)cfg.curve.x2, (double)cfg.curve.y2);
        printf(", %s\n", cfg.frozen ? "frozen (the source held at the switch)" : "smooth (the source plays on)");
    }
    for (int si = 0; si < ns && status == EXIT_OK; si++) {
        pb_scene *sc = &scenes[si];
        pb_frame_crowd crowd;
        if (pb_frame_crowd_init(&crowd, sc, cfg.characters, cfg.sampler) != PB_OK ||
            pb_frame_crowd_halflife_est(&crowd, cfg.hl[0], cfg.hl[1], cfg.hl[2]) != PB_OK ||
            pb_frame_crowd_curve(&crowd, &cfg.curve, cfg.frozen) != PB_OK) {
            fprintf(stderr, "posebench frame: %s\n", pb_last_error());
            status = EXIT_USAGE;
            break;
        }
        printf("\n%s: %zu joints x %zu characters = %zu elements; legs: %s; mesh: %zu vertices (%s)\n  %s\n",
               sc->name, sc->joints, cfg.characters, crowd.n, sc->leg_desc, sc->mesh.n,
               sc->skin == PB_SKIN_DQS ? "dual-quaternion skinning" : "linear blend skinning", sc->source);
        printf("%-16s %-8s %9s %10s %9s %8s %9s %8s %8s %8s %9s %9s %8s %9s %8s %9s %10s\n", "method", "variant",
               stage_head[0], stage_head[1], stage_head[2], stage_head[3], stage_head[4], stage_head[5], stage_head[6],
               stage_head[7], "stage sum",
               "total us", "diff ", "apart sum", "spread ", "chars/ms", "setup us");
        fflush(stdout);
        int noisy = 0;
        for (int mi = 0; mi < nm && status == EXIT_OK; mi++) {
            for (int vi = 0; vi < nv; vi++) {
                frame_row row = { .sc = sc, .v = vars[vi], .m = mlist[mi] };
                fprintf(stderr, "posebench frame: %s, %s, %s ...\n", sc->name, pb_frame_method_name(row.m),
                        pb_variant_name(row.v));
                if (measure(&crowd, &cfg, &row) != 0) {
                    status = EXIT_CHECK;
                    break;
                }
                double cpm = row.total_us > 0 ? (double)cfg.characters / (row.total_us / 1000.0) : NAN;
                print_row(&row, cfg.characters, cpm);
                noisy |= row.noisy;
                if (jrows && json_row(jrows, &row, cfg.characters, cpm) != 0) {
                    fprintf(stderr, "posebench frame: out of memory\n");
                    status = EXIT_USAGE;
                    break;
                }
            }
        }
        if (status == EXIT_OK) noise_note(noisy);
        if (status == EXIT_OK) status = fused_table(&crowd, &cfg, nm, mlist, vars, nv, root);
        pb_frame_crowd_free(&crowd);
    }
    if (status == EXIT_OK) print_legend(&cfg);
    if (root && status == EXIT_OK) {
        if (json_write_file("frame", json, root) != 0) status = EXIT_USAGE;
        else fprintf(stderr, "posebench frame: wrote %s\n", json);
    }
    cJSON_Delete(root);
    for (int i = 0; i < ns; i++) pb_scene_free(&scenes[i]);
    return status;
}

const command cmd_frame = {
    .name = "frame",
    .summary = "a crowd's animation frame (sample, transition, additive, 2-leg IK, FK, palette, skin), timed per stage",
    .about = "  A crowd running one animation frame: sample -> transition -> additive layer -> two-bone IK on\n"
             "  both legs -> FK with velocities -> matrix palette -> skinning; CPU time per stage, per variant and transition\n"
             "  method. Scenes: a synthetic skeleton (--joints), the packaged CMU clips when installed, and any\n"
             "  --bvh files.\n",
    .opts = frame_opts,
    .nopts = O_COUNT,
    .run = run,
};
