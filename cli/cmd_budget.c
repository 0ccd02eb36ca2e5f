/* cmd_budget.c — `posebench budget`: which transition method fits a per-frame
 * budget on this machine, and what each one does to the motion.
 *
 * Cost: for each method (cut as the reference, cross-fade with slerp,
 * nlerp and exact velocities, inertialization, dead blending with slerp and
 * nlerp) the per-frame CPU time of what it needs each frame — the clips it
 * samples and its transition ops — for the crowd, through the frame pipeline
 * (posebench/frame.h), and of the whole frame (pb_frame_step: the method and
 * the rest of the frame), as the median and extremes of the repetitions. A
 * verdict is "fits", "marginal" (the budget lies inside the measured noise
 * interval) or "does not fit" (budget_verdict.h). The largest crowd that fits
 * is measured, not extrapolated: a bisection over the character count, each
 * probe a measurement like the first (budget_verdict.c's bv_bisect).
 * Quality, on the same methods and parameters: budget_quality.h.
 * Layers (masked and N-way blends as add-ons, and transitions made of them): budget_layers.h.
 * Output: budget_out.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "budget_frame.h"
#include "budget_layers.h"
#include "command.h"
#include "context.h"
#include "frame_cmd.h"
#include "halflife_opts.h"
#include "measure.h"
#include "pick.h"
#include "skin_opts.h"

const pb_frame_method budget_methods[BUDGET_NM] = { PB_FM_CUT, PB_FM_CROSSFADE_STATIC, PB_FM_CROSSFADE_NLERP,
                                               PB_FM_CROSSFADE, PB_FM_INERTIALIZE, PB_FM_DEAD, PB_FM_DEAD_NLERP,
                                               PB_FM_DEAD_UE, PB_FM_DEAD_CLAMP, PB_FM_DEAD_BOUNCE, PB_FM_DEAD_VIA };
#define NM BUDGET_NM

enum { O_BUDGET, O_CHARACTERS, O_JOINTS, O_VARIANT, O_SAMPLER, O_DURATION, O_HALFLIFE, O_FRAMES, O_REPS, O_NO_CMU,
       O_QUICK, O_JSON, O_THREADS, O_HL_SCALE, O_HL_MIN, O_HL_MAX, O_SWEEP, O_BVH, O_BVH_SCALE, O_MODEL, O_VERTICES,
       O_SKIN, O_COUNT };
static const opt_spec opts[O_COUNT] = {
    [O_BUDGET] = { "budget-us", OPT_DOUBLE, "US", 1e-3, 1e9, NULL, 0, "500", "per-frame budget in microseconds" },
    [O_CHARACTERS] = { "characters", OPT_LONG, "N", 1, 4096, NULL, 0, "200",
                       "crowd size the verdicts are for; the largest crowd that fits is measured by bisection" },
    [O_JOINTS] = { "joints", OPT_LONG, "N", 4, 4096, NULL, 0, "64", "synthetic skeleton for the cost" },
    [O_VARIANT] = { "variant", OPT_STR, "NAME", 0, 0, NULL, 0, NULL,
                    "variant to run (default: the forced one, else the one dispatch picks on this CPU)" },
    [O_SAMPLER] = { "sampler", OPT_CHOICE, NULL, 0, 0, PICK_SAMPLER_CHOICES, 0, "linear", PICK_SAMPLER_HELP },
    [O_DURATION] = { "duration", OPT_DOUBLE, "S", 0.02, 10, NULL, 0, "0.3", "transition window in seconds" },
    [O_HALFLIFE] = { "halflife", OPT_DOUBLE, "S", 0, 10, NULL, 0, "0.1",
                     "dead blending's extrapolation half-life in seconds" },
    [O_FRAMES] = { "frames", OPT_LONG, "N", 1, 1000000, NULL, 0, "100; --quick 30", "timed frames per repetition" },
    [O_REPS] = { "reps", OPT_LONG, "N", 1, 1000, NULL, 0, "5; --quick 3", "repetitions, median reported" },
    [O_NO_CMU] = { "no-cmu", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                   "quality on the synthetic clips even when the CMU clips are packaged" },
    [O_QUICK] = { "quick", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "fewer frames and repetitions" },
    [O_JSON] = { "json", OPT_STR, "FILE", 0, 0, NULL, 0, NULL, "write both tables as JSON" },
    [O_THREADS] = { "threads", OPT_LONG, "N", 1, PB_POOL_MAX_THREADS, NULL, 0, "all cores; POSEBENCH_THREADS",
                    "the threaded whole frame: fused blocks on N threads (wall time)" },
    HALFLIFE_EST_OPTS(""),   /* O_HL_SCALE, O_HL_MIN, O_HL_MAX */
    [O_SWEEP] = { "sweep", OPT_STR, "PARAM=V,...", 0, 0, NULL, 0, NULL,
                  "the transition sets again at each value (at most 8) of duration, halflife (s) or\n"
                  "Unreal's halflife-scale, halflife-min, halflife-max, e.g. duration=0.05,0.1,0.2: pick a\n"
                  "method and its setting" },
    [O_BVH] = { "bvh", OPT_STR, "FILE", 0, 0, NULL, BUDGET_MAX_BVH, NULL,
                "your own motion capture in the real, hard and interrupted sets (two files of one skeleton in a row\n"
                "make one scene of two clips; a file alone, a scene of itself)" },
    [O_BVH_SCALE] = { "bvh-scale", OPT_DOUBLE, "S", 1e-6, 1e6, NULL, 0, "0.01: centimetres to metres",
                      "unit scale of the --bvh files" },
    [O_MODEL] = { "model", OPT_STR, "FILE", 0, 0, NULL, 0, NULL,
                  "your character (FBX, glTF 2, Collada, X, ...: posebench/asset.h): the cost on its skeleton\n"
                  "instead of the synthetic one (not with --joints), and its first two clips in the transition sets" },
    [O_VERTICES] = SKIN_OPT_VERTICES,   /* frame's (skin_opts.h): the whole frame skins as frame's */
    [O_SKIN] = SKIN_OPT_SKIN,
};

/* what a block times: the method's own work, the whole frame, the rest, the whole frame fused on threads */
enum { K_COST, K_FRAME, K_REST, K_FRAME_MT };

/* One block of F frames of kind `kind` for method m, us per frame. */
static pb_status time_block(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int kind, int F, double *us)
{
    pb_status st = PB_OK;
    double t0 = cpu_seconds();
    for (int k = 0; k < F && st == PB_OK; k++) {
        pb_frame_stage from = kind == K_REST ? PB_FS_ADDITIVE : PB_FS_SAMPLE_SRC;
        pb_frame_stage to = kind == K_COST ? PB_FS_ADDITIVE : PB_FS_COUNT;
        st = pb_frame_stages_run(c, v, m, k, from, to);
    }
    double t1 = cpu_seconds();
    if (st == PB_OK && (t0 <= 0 || t1 <= 0)) {
        c->failed = "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)";
        return PB_ERR_PARAM;
    }
    *us = (t1 - t0) / F * 1e6;
    return st;
}

/* The whole frame in fused blocks on R's pool: F frames, wall us per frame (CPU time adds up over threads). */
static pb_status time_blocks(pb_frame_blocks *b, const budget_res *R, pb_frame_method m, int F, double *us)
{
    pb_status st = PB_OK;
    double t0 = wall_seconds();
    for (int k = 0; k < F && st == PB_OK; k++) st = pb_frame_blocks_step(b, R->v, m, k, PB_FO_FUSED, R->pool);
    *us = (wall_seconds() - t0) / F * 1e6;
    return st;
}

/* A blocked crowd of n characters ready for timed frames of m (as crowd_ready). */
static pb_status blocks_ready(pb_frame_blocks *b, const budget_res *R, size_t n, pb_frame_method m)
{
    pb_status st = pb_frame_blocks_init(b, R->cost_scene, n, fused_block(R->cost_scene, 0), R->sampler);
    for (size_t i = 0; st == PB_OK && i < b->count; i++) {
        b->crowd[i].duration = (float)R->duration;
        b->crowd[i].halflife = (float)R->halflife;
    }
    if (st == PB_OK) st = pb_frame_blocks_halflife_est(b, R->hl[0], R->hl[1], R->hl[2]);
    if (st == PB_OK) st = pb_frame_blocks_begin(b, R->v, m, 0.0f, R->pool);
    if (st == PB_OK) st = pb_frame_blocks_step(b, R->v, m, 0, PB_FO_FUSED, R->pool);
    if (st != PB_OK) pb_frame_blocks_free(b);
    return st;
}

/* A crowd of n characters ready for timed frames of method m (both clips sampled, the transition begun). */
static pb_status crowd_ready(pb_frame_crowd *c, const budget_res *R, size_t n, pb_frame_method m)
{
    pb_status st = pb_frame_crowd_init(c, R->cost_scene, n, R->sampler);
    if (st != PB_OK) return st;
    c->duration = (float)R->duration;
    c->halflife = (float)R->halflife;
    st = pb_frame_crowd_halflife_est(c, R->hl[0], R->hl[1], R->hl[2]);
    if (st == PB_OK) st = pb_frame_sample(c, R->v, 0, 0);
    if (st == PB_OK) st = pb_frame_sample(c, R->v, 1, 0);
    if (st == PB_OK) st = pb_frame_begin(c, R->v, m);
    if (st == PB_OK) st = pb_frame_step(c, R->v, m, 0);   /* one validated frame, caches warm */
    if (st != PB_OK) pb_frame_crowd_free(c);
    return st;
}

static void report_fail(const pb_frame_crowd *c, const char *what)
{
    fprintf(stderr, "posebench budget: %s: %s: %s\n", what, c && c->failed ? c->failed : "?", pb_last_error());
}

/* One bisection probe: method m (kind K_COST or K_FRAME) measured at n characters like the first measurement. */
typedef struct probe_ctx {
    const budget_res *R;
    pb_frame_method m;
    int kind;
    double *samples;
} probe_ctx;
static int probe(void *ctx, long n, bv_meas *out)
{
    probe_ctx *p = ctx;
    if (p->kind == K_FRAME_MT) {
        pb_frame_blocks b;
        pb_status st = blocks_ready(&b, p->R, (size_t)n, p->m);
        for (long r = 0; r < p->R->reps && st == PB_OK; r++)
            st = time_blocks(&b, p->R, p->m, (int)p->R->frames, &p->samples[r]);
        if (st != PB_OK) report_fail(NULL, "bisection (threads)");
        pb_frame_blocks_free(&b);   /* also after a failed blocks_ready: it left b empty */
        if (st != PB_OK) return st == PB_ERR_NOMEM || st == PB_ERR_SIZE ? EXIT_USAGE : EXIT_CHECK;
        *out = budget_meas_of(p->samples, p->R->reps);
        return 0;
    }
    pb_frame_crowd c;
    pb_status st = crowd_ready(&c, p->R, (size_t)n, p->m);
    if (st != PB_OK) {
        report_fail(NULL, "bisection");
        return st == PB_ERR_NOMEM || st == PB_ERR_SIZE ? EXIT_USAGE : EXIT_CHECK;
    }
    for (long r = 0; r < p->R->reps && st == PB_OK; r++)
        st = time_block(&c, p->R->v, p->m, p->kind, (int)p->R->frames, &p->samples[r]);
    if (st != PB_OK) {
        report_fail(&c, "bisection");
        pb_frame_crowd_free(&c);
        return EXIT_CHECK;
    }
    pb_frame_crowd_free(&c);
    *out = budget_meas_of(p->samples, p->R->reps);
    return 0;
}

/* The largest crowd that fits, measured: a bisection seeded by the cost at the crowd asked for. */
static int search(budget_res *R, int mi, int kind, double *samples)
{
    budget_row *row = &R->rows[mi];
    const bv_meas *at = kind == K_FRAME ? &row->frame : kind == K_FRAME_MT ? &row->frame_mt : &row->cost;
    double g = at->median > 0 ? (double)R->characters * R->budget / at->median : (double)R->cap;
    long guess = g > (double)R->cap ? R->cap : g < 1 ? 1 : (long)g;
    probe_ctx p = { R, budget_methods[mi], kind, samples };
    bv_search *out = kind == K_FRAME ? &row->frame_max : kind == K_FRAME_MT ? &row->frame_mt_max : &row->max;
    int st = bv_bisect(probe, &p, guess, R->cap, R->budget, BV_NOISE_FLOOR, BUDGET_TOL, BUDGET_PROBES, out);
    if (st == -1) {
        fprintf(stderr, "posebench budget: bisection: bad arguments\n");
        return EXIT_CHECK;
    }
    return st;
}

/* The cost half: every method's cost and whole frame at the crowd, the rest
 * of the frame, then the searches. EXIT_OK, or an exit status after a message. */
static int measure_cost(budget_res *R, double *samples)
{
    const pb_variant *v = R->v;
    long reps = R->reps, frames = R->frames;
    pb_frame_crowd crowd;
    fprintf(stderr, "posebench budget: cost at %zu characters x %ld joints (%s) ...\n", R->characters, R->joints,
            pb_variant_name(v));
    pb_status st = crowd_ready(&crowd, R, R->characters, PB_FM_CUT);
    if (st != PB_OK) {
        fprintf(stderr, "posebench budget: %s\n", pb_last_error());
        return EXIT_USAGE;
    }
    for (int mi = 0; mi < NM && st == PB_OK; mi++) {   /* setup once per transition, validated first calls */
        double t0 = cpu_seconds();
        for (long k = 0; k < frames && st == PB_OK; k++) st = pb_frame_begin(&crowd, v, budget_methods[mi]);
        R->rows[mi].setup_us = (cpu_seconds() - t0) / (double)frames * 1e6;
        if (st == PB_OK) st = pb_frame_step(&crowd, v, budget_methods[mi], 0);
    }
    /* interleave methods inside each repetition: slow drifts of the machine hit them alike */
    for (long r = 0; r < reps && st == PB_OK; r++) {
        for (int mi = 0; mi < NM && st == PB_OK; mi++) {
            if ((st = pb_frame_begin(&crowd, v, budget_methods[mi])) != PB_OK) break;
            st = time_block(&crowd, v, budget_methods[mi], K_COST, (int)frames, &samples[(size_t)(2 * mi) * reps + r]);
            if (st == PB_OK)
                st = time_block(&crowd, v, budget_methods[mi], K_FRAME, (int)frames,
                                &samples[(size_t)(2 * mi + 1) * reps + r]);
        }
        if (st == PB_OK) st = pb_frame_begin(&crowd, v, PB_FM_CROSSFADE);
        if (st == PB_OK) st = pb_frame_transition(&crowd, v, PB_FM_CROSSFADE, 0.1f);
        if (st == PB_OK)
            st = time_block(&crowd, v, PB_FM_CROSSFADE, K_REST, (int)frames, &samples[(size_t)(2 * NM) * reps + r]);
    }
    if (st != PB_OK) {
        report_fail(&crowd, "cost");
        pb_frame_crowd_free(&crowd);
        return EXIT_CHECK;
    }
    int le = bl_measure_cost(R, &crowd);   /* the layers on the same crowd */
    pb_frame_crowd_free(&crowd);
    if (le != EXIT_OK) return le;
    for (int mi = 0; mi < NM; mi++) {
        budget_row *row = &R->rows[mi];
        row->cost = budget_meas_of(&samples[(size_t)(2 * mi) * reps], reps);
        row->frame = budget_meas_of(&samples[(size_t)(2 * mi + 1) * reps], reps);
        row->cost_v = bv_judge(&row->cost, R->budget, BV_NOISE_FLOOR);
        row->frame_v = bv_judge(&row->frame, R->budget, BV_NOISE_FLOOR);
    }
    R->rest = budget_meas_of(&samples[(size_t)(2 * NM) * reps], reps);
    /* the whole frame in fused blocks on the pool's threads, each method its own blocked crowd */
    fprintf(stderr, "posebench budget: the whole frame in fused blocks on %d thread%s ...\n", R->threads,
            R->threads > 1 ? "s" : "");
    for (int mi = 0; mi < NM; mi++) {
        pb_frame_blocks b;
        if ((st = blocks_ready(&b, R, R->characters, budget_methods[mi])) != PB_OK) {
            report_fail(NULL, "threaded frame");
            return st == PB_ERR_NOMEM ? EXIT_USAGE : EXIT_CHECK;
        }
        for (long r = 0; r < reps && st == PB_OK; r++) st = time_blocks(&b, R, budget_methods[mi], (int)frames, &samples[r]);
        pb_frame_blocks_free(&b);
        if (st != PB_OK) {
            report_fail(NULL, "threaded frame");
            return EXIT_CHECK;
        }
        budget_row *row = &R->rows[mi];
        row->frame_mt = budget_meas_of(samples, reps);
        row->frame_mt_v = bv_judge(&row->frame_mt, R->budget, BV_NOISE_FLOOR);
    }
    fprintf(stderr, "posebench budget: the largest crowd within %.0f us, by bisection (up to %d probes per method, "
                    "to %.0f%% or 1 character) ...\n", R->budget, BUDGET_PROBES, 100 * BUDGET_TOL);
    for (int mi = 0; mi < NM; mi++) {
        int e = search(R, mi, K_COST, samples);
        if (e == EXIT_OK) e = search(R, mi, K_FRAME, samples);
        if (e == EXIT_OK) e = search(R, mi, K_FRAME_MT, samples);
        if (e != EXIT_OK) return e;
    }
    return EXIT_OK;
}

/* The quality half on the CMU clips (with a trajectory root: qs) when
 * packaged, else the synthetic scene. EXIT_OK, or an exit status after a message. */
static int measure_quality(budget_res *R, const pb_scene *syn, pb_scene *cmu, pb_scene *qs, int no_cmu)
{
    char pa[512], pbp[512];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    snprintf(pbp, sizeof pbp, "%s/01_03.bvh", PB_CMU_DIR);
    R->np = 0;
    if (!no_cmu && access(pa, R_OK) == 0 && access(pbp, R_OK) == 0 &&
        pb_scene_bvh_files(cmu, "cmu", pa, pbp, PB_CMU_UNIT_SCALE, NULL, NULL) == PB_OK) {
        if (bq_add_trajectory(cmu, qs) != PB_OK) {
            fprintf(stderr, "posebench budget: %s\n", pb_last_error());
            return EXIT_USAGE;
        }
        R->real = 1;
        /* walking, jumping, turning and climbing moments of both clips, both directions */
        const bq_pair cp[] = { { 0, 2.0f, 1, 3.0f }, { 0, 6.0f, 1, 10.0f }, { 0, 15.0f, 1, 25.0f },
                               { 1, 5.0f, 0, 12.0f }, { 1, 20.0f, 0, 17.0f }, { 1, 32.0f, 0, 8.0f } };
        for (size_t i = 0; i < sizeof cp / sizeof cp[0]; i++) R->pairs[R->np++] = cp[i];
    } else {
        if (!no_cmu)
            fprintf(stderr, "posebench budget: no CMU clips at %s (apt-get install assimp-testmodels): quality on "
                            "the synthetic clips\n", PB_CMU_DIR);
        const bq_pair sp[] = { { 0, 0.3f, 1, 0.5f }, { 0, 0.8f, 1, 0.2f }, { 1, 0.4f, 0, 1.0f }, { 1, 1.1f, 0, 0.6f } };
        for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) R->pairs[R->np++] = sp[i];
    }
    R->qscene = R->real ? qs : syn;
    R->body = 0;
    for (size_t j = 0; j < R->qscene->joints; j++) R->body += R->qscene->parents[j] >= 0;
    fprintf(stderr, "posebench budget: quality on %d transitions (%s) ...\n", R->np,
            R->real ? "CMU mocap" : "synthetic");
    pb_frame_crowd crowd;
    if (pb_frame_crowd_init(&crowd, R->qscene, 1, R->sampler) != PB_OK) {
        fprintf(stderr, "posebench budget: %s\n", pb_last_error());
        return EXIT_USAGE;
    }
    crowd.duration = (float)R->duration;
    crowd.halflife = (float)R->halflife;
    if (pb_frame_crowd_halflife_est(&crowd, R->hl[0], R->hl[1], R->hl[2]) != PB_OK) {   /* checked by run() */
        fprintf(stderr, "posebench budget: %s\n", pb_last_error());
        pb_frame_crowd_free(&crowd);
        return EXIT_USAGE;
    }
    bq_quality per_pair[NM * BUDGET_MAX_PAIRS], mean[NM];
    pb_status st = bq_measure(&crowd, R->v, budget_methods, NM, R->pairs, R->np, per_pair, mean, &R->src_vj,
                              &R->src_aj);
    if (st != PB_OK) {
        fprintf(stderr, "posebench budget: quality: %s: %s\n", crowd.failed ? crowd.failed : "?", pb_last_error());
        pb_frame_crowd_free(&crowd);
        return st == PB_ERR_NOMEM ? EXIT_USAGE : EXIT_CHECK;
    }
    for (int mi = 0; mi < NM; mi++) {
        R->rows[mi].q = mean[mi];
        for (int p = 0; p < R->np; p++) R->rows[mi].pq[p] = per_pair[mi * R->np + p];
    }
    int e = bl_measure_quality(R, &crowd);   /* the layered transitions on the same transitions */
    pb_frame_crowd_free(&crowd);
    return e;
}

/* The --bvh files as scenes with a trajectory root (user[2 k] the loaded scene, user[2 k + 1] with the
 * root): how many, or -1 after a message naming the file. */
static int load_user(const opt_val *bvh, float scale, pb_scene *user)
{
    pb_bvh_file files[BUDGET_MAX_BVH];
    memset(files, 0, sizeof files);
    int nf = 0, ns = 0, bad = 0;
    for (; nf < bvh->count && !bad; nf++)
        if (pb_bvh_file_load(&files[nf], bvh->all[nf], scale, NULL, NULL) != PB_OK) bad = 1;
    for (int i = 0; !bad && i < nf; i++, ns++) {
        int pair = i + 1 < nf && pb_bvh_file_same_skeleton(&files[i], &files[i + 1]);
        bad = pb_scene_bvh(&user[2 * ns], NULL, &files[i], &files[pair ? i + 1 : i]) != PB_OK ||
              bq_add_trajectory(&user[2 * ns], &user[2 * ns + 1]) != PB_OK;
        i += pair;
    }
    if (bad) fprintf(stderr, "posebench budget: --bvh: %s\n", pb_last_error());
    for (int i = 0; i < nf; i++) pb_bvh_file_free(&files[i]);
    return bad ? -1 : ns;
}

/* Boxing_Toes is in centimetres (thighs 42 units), not the cgspeed CMU unit */
#define BOXING_UNIT_SCALE 0.01f

/* The transition sets (budget_sets.h): the CMU pair and Boxing_Toes (each with a trajectory root) when
 * packaged, the synthetic scene always. EXIT_OK, or an exit status after a message. */
static int measure_sets(budget_res *R, const pb_scene *syn, const pb_scene *qs, pb_scene *box, pb_scene *boxq, int no_cmu,
                        const pb_scene *user, int nuser)
{
    bs_ctx *x = &R->sets_ctx;
    x->v = R->v;
    x->sampler = R->sampler;
    x->halflife = (float)R->halflife;
    pb_status st = PB_OK;
    if (R->real) st = bs_scene_add(x, qs, "cmu", 1);
    char pbx[512];
    snprintf(pbx, sizeof pbx, "%s/Boxing_Toes.bvh", PB_CMU_DIR);
    if (st == PB_OK && !no_cmu && access(pbx, R_OK) == 0 &&
        pb_scene_bvh_files(box, "boxing", pbx, pbx, BOXING_UNIT_SCALE, NULL, NULL) == PB_OK) {
        st = bq_add_trajectory(box, boxq);
        if (st == PB_OK) st = bs_scene_add(x, boxq, "boxing", 1);
    }
    for (int i = 0; st == PB_OK && i < nuser; i++) st = bs_scene_add(x, &user[2 * i + 1], user[2 * i].name, 1);
    if (st == PB_OK) st = bs_scene_add(x, syn, "synthetic", 0);
    if (st != PB_OK) {
        fprintf(stderr, "posebench budget: transition sets: %s\n", pb_last_error());
        return EXIT_USAGE;
    }
    memcpy(x->hl, R->hl, sizeof x->hl);
    float d = (float)R->duration;
    bs_make_real(x, &R->sets[BS_REAL], 5901, d);
    bs_make_hard(x, &R->sets[BS_HARD], 5902);
    bs_make_interrupted(x, &R->sets[BS_INTERRUPTED], 5903, d, 4);
    bs_make_synthetic(x, &R->sets[BS_SYNTHETIC], 5904, d);
    for (int mi = 0; mi < NM; mi++) R->set_cost[mi] = R->rows[mi].cost.median;
    int n = 0;
    for (int si = 0; si < BS_NSETS; si++) n += R->sets[si].nt;
    fprintf(stderr, "posebench budget: quality on %d transitions in %d sets ...\n", n, BS_NSETS);
    double c0 = cpu_seconds(), w0 = wall_seconds();
    for (int si = 0; si < BS_NSETS && st == PB_OK; si++) st = bs_measure(x, &R->sets[si], budget_methods, NM);
    fprintf(stderr, "posebench budget: the sets took %.2f s of CPU (%.2f s wall)\n", cpu_seconds() - c0, wall_seconds() - w0);
    if (st == PB_OK && R->sweep.n) {
        fprintf(stderr, "posebench budget: sweep of %s over %d values ...\n", bw_param_name(&R->sweep), R->sweep.n);
        st = bw_run(&R->sweep, x, budget_methods, NM, d);
    }
    if (st != PB_OK) {
        fprintf(stderr, "posebench budget: quality: %s\n", pb_last_error());
        return st == PB_ERR_NOMEM ? EXIT_USAGE : EXIT_CHECK;
    }
    return EXIT_OK;
}

static int run(const opt_val *o, int nrest, char **rest)
{
    (void)nrest, (void)rest;
    int quick = o[O_QUICK].count > 0;
    budget_res R;
    memset(&R, 0, sizeof R);
    R.budget = o[O_BUDGET].count ? o[O_BUDGET].d : 500;
    R.duration = o[O_DURATION].count ? o[O_DURATION].d : PB_FRAME_TRANSITION_S;
    R.halflife = o[O_HALFLIFE].count ? o[O_HALFLIFE].d : PB_FRAME_HALFLIFE_S;
    const opt_val *hl[3] = { &o[O_HL_SCALE], &o[O_HL_MIN], &o[O_HL_MAX] };
    if (halflife_est_opts("budget", hl, R.hl) != 0) return EXIT_USAGE;
    long characters = o[O_CHARACTERS].count ? o[O_CHARACTERS].l : 200;
    R.joints = o[O_JOINTS].count ? o[O_JOINTS].l : 64;
    R.frames = o[O_FRAMES].count ? o[O_FRAMES].l : quick ? 30 : 100;
    R.reps = o[O_REPS].count ? o[O_REPS].l : quick ? 3 : 5;
    R.sampler = pick_sampler(o[O_SAMPLER].count ? o[O_SAMPLER].choice : 0);
    R.threads = o[O_THREADS].count ? (int)o[O_THREADS].l : pick_threads();
    const char *json = o[O_JSON].str;
    if (pick_variants("budget", o[O_VARIANT].all, o[O_VARIANT].count, PICK_DISPATCH, &R.v, 1) < 0) return EXIT_USAGE;
    if (json_path_check("budget", json) != 0) return EXIT_USAGE;   /* before the measurements */
    if (o[O_SWEEP].count && bw_parse(o[O_SWEEP].str, R.hl, &R.sweep) != 0) return EXIT_USAGE;
    pb_asset model;
    pb_scene ms = { 0 };
    memset(&model, 0, sizeof model);
    if (o[O_MODEL].count) {   /* before the measurements: a bad file is refused at once */
        if (o[O_JOINTS].count) {
            fprintf(stderr, "posebench budget: --joints is the synthetic skeleton's: not with --model (its skeleton)\n");
            return EXIT_USAGE;
        }
        pb_asset_options ao = pb_asset_default_options();
        ao.allow_no_mesh = 1;   /* a skeleton with clips is enough: its whole frame then skins nothing */
        pb_status st = model_import(o[O_MODEL].str, &ao, &model, &R.model_cost);
        if (st == PB_OK) st = pb_scene_asset(&ms, &model, NULL, NULL);
        if (st == PB_OK) {
            char cost[160];
            model_cost_line(cost, sizeof cost, &R.model_cost);
            printf("posebench budget: --model %s: %s\n", o[O_MODEL].str, cost);
            R.have_model_cost = 1;
        }
        pb_asset_free(&model);
        if (st != PB_OK) {
            fprintf(stderr, "posebench budget: --model: %s\n", pb_last_error());
            return EXIT_USAGE;
        }
        R.joints = (long)ms.joints;
    }
    R.characters = (size_t)characters;
    R.cap = (long)(PB_FRAME_CROWD_MAX_ELEMENTS / (size_t)R.joints);   /* a search measures at most 4096 characters */
    if (R.cap > 4096) R.cap = 4096;
    if (R.characters > (size_t)R.cap) {
        fprintf(stderr, "posebench budget: --characters %ld x --joints %ld is above the crowd limit of %zu elements\n",
                characters, R.joints, (size_t)PB_FRAME_CROWD_MAX_ELEMENTS);
        pb_scene_free(&ms);
        return EXIT_USAGE;
    }

    pb_scene syn = { 0 }, cmu = { 0 }, qs = { 0 }, box = { 0 }, boxq = { 0 }, user[2 * BUDGET_MAX_BVH + 2];
    memset(user, 0, sizeof user);
    int nuser = o[O_BVH].count ? load_user(&o[O_BVH], o[O_BVH_SCALE].count ? (float)o[O_BVH_SCALE].d : 0.01f, user) : 0;
    if (nuser >= 0 && ms.joints) {   /* the model in the sets, after the --bvh scenes, with a trajectory root */
        if (bq_add_trajectory(&ms, &user[2 * nuser + 1]) != PB_OK) {
            fprintf(stderr, "posebench budget: --model: %s\n", pb_last_error());
            nuser = -1;
        } else {
            snprintf(user[2 * nuser].name, sizeof user[2 * nuser].name, "%s", ms.name);
            nuser++;
        }
    }
    if (nuser < 0) {   /* before the measurements */
        for (int i = 0; i < 2 * BUDGET_MAX_BVH + 2; i++) pb_scene_free(&user[i]);
        pb_scene_free(&ms);
        return EXIT_USAGE;
    }
    int status = EXIT_OK;
    double *samples = malloc(sizeof(double) * (size_t)R.reps * (2 * NM + 1));
    if (!samples) {
        fprintf(stderr, "posebench budget: out of memory\n");
        return EXIT_USAGE;
    }
    if (pb_scene_synthetic(&syn, (size_t)R.joints, 20231) != PB_OK) {
        fprintf(stderr, "posebench budget: %s\n", pb_last_error());
        status = EXIT_USAGE;
    }
    R.scene = ms.joints ? ms.name : syn.name;
    R.cost_scene = ms.joints ? &ms : &syn;
    if (status == EXIT_OK) status = budget_frame_skin(&R, ms.joints ? &ms : &syn, &o[O_VERTICES], &o[O_SKIN], quick);
    if (status == EXIT_OK && pb_pool_create(&R.pool, R.threads) != PB_OK) {
        fprintf(stderr, "posebench budget: %s\n", pb_last_error());
        status = EXIT_USAGE;
    }
    if (status == EXIT_OK) status = measure_cost(&R, samples);
    pb_pool_destroy(R.pool);
    R.pool = NULL;
    if (status == EXIT_OK) status = measure_quality(&R, &syn, &cmu, &qs, o[O_NO_CMU].count > 0);
    if (status == EXIT_OK) status = measure_sets(&R, &syn, &qs, &box, &boxq, o[O_NO_CMU].count > 0, user, nuser);
    if (status == EXIT_OK) budget_print(&R);   /* a failed write to stdout: main's check (posebench.c) */
    /* the tables whole before stderr's next lines (a pipe's buffer split a line); a failure: main reports it */
    if (status == EXIT_OK && fflush(stdout) != 0) status = EXIT_USAGE;
    if (status == EXIT_OK && json) {
        if (budget_write_json(&R, json) != 0) status = EXIT_USAGE;
        else fprintf(stderr, "posebench budget: wrote %s\n", json);
    }
    if (status == EXIT_OK)   /* last on stdout, in both outcomes: the line the exit status stands for */
        printf("\ncheck: %s (exit %d: 0 when a blending method's whole frame fits or is marginal, else 1)\n",
               budget_check_passes(&R) ? "passed" : "FAILED", budget_check_passes(&R) ? 0 : 1);
    if (status == EXIT_OK && !budget_check_passes(&R)) {
        /* the command's check, for scripts: the frame does not fit with any blending method */
        fprintf(stderr, "posebench budget: CHECK FAILED: no blending method's whole frame fits %g us at %zu characters "
                        "(every one does not fit, beyond its spread): exit 1\n", R.budget, R.characters);
        status = EXIT_CHECK;
    }
    free(samples);
    pb_scene_free(&syn);
    pb_scene_free(&cmu);
    pb_scene_free(&qs);
    bs_ctx_free(&R.sets_ctx);
    bw_free(&R.sweep);
    pb_scene_free(&box);
    pb_scene_free(&boxq);
    for (int i = 0; i < 2 * BUDGET_MAX_BVH + 2; i++) pb_scene_free(&user[i]);
    pb_scene_free(&ms);
    return status;
}

const command cmd_budget = {
    .name = "budget",
    .summary = "transition methods: cost per frame, fit in a budget, and quality on motion capture",
    .about = "  Per transition method (cut, cross-fade slerp/nlerp/exact velocities, inertialization, dead blending\n"
             "  slerp/nlerp): the measured per-frame cost for the crowd, alone and as a whole frame (frame's stages:\n"
             "  additive, legs FK, IK, FK, palette, and skin of --vertices by --skin), each with a verdict: fits (the\n"
             "  repetitions' whole spread, at least +-3% of the median, is within the budget), marginal (the budget\n"
             "  lies inside it) or does not fit; the largest crowd that fits, measured by bisection (to 2% or 1\n"
             "  character, at most 10 probes); and the quality of\n"
             "  the same transitions on real mocap (velocity jump, deviation). Then the layers: masked override,\n"
             "  masked additive and N-way blend (K=4) as per-frame add-ons (us, B/joint, GB/s), and a split (masked)\n"
             "  and an N-way cross-fade, timed and played like the methods. Then the transition sets (real pairs,\n"
             "  hard ones, interrupted runs, synthetic; seeded) scored by posebench/quality.h: per method each\n"
             "  metric's median and 90th percentile, what separates the methods, the Pareto front of cost against\n"
             "  each metric and the dead-blending claims measured (--sweep: the sets at each setting).\n"
             "  Exit status 1 (a failed check) when no\n"
             "  blending method's whole frame fits or is marginal at --characters, or an op fails; the report\n"
             "  records that as a finding and completes.\n",
    .opts = opts,
    .nopts = O_COUNT,
    .run = run,
};
