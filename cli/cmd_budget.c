/* cmd_budget.c — `posebench budget`: which transition method fits a per-frame
 * budget on this machine, and what each one does to the motion.
 *
 * Cost: for each method (cut as the reference, cross-fade with slerp,
 * nlerp and exact velocities, inertialization, dead blending with slerp and
 * nlerp) the per-frame CPU time of what it needs each frame — the clips it
 * samples and its transition ops — for the crowd, through the frame pipeline
 * (posebench/frame.h). Measured at two crowd sizes; the largest crowd within
 * the budget comes from the straight line through them (cost = fixed + per
 * character x characters), extrapolated, and is labelled as such.
 * Quality, on the same methods and parameters: budget_quality.h.
 * Output: budget_out.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "command.h"
#include "measure.h"
#include "pick.h"

const pb_frame_method budget_methods[BUDGET_NM] = { PB_FM_CUT, PB_FM_CROSSFADE_STATIC, PB_FM_CROSSFADE_NLERP,
                                               PB_FM_CROSSFADE, PB_FM_INERTIALIZE, PB_FM_DEAD, PB_FM_DEAD_NLERP };
#define NM BUDGET_NM

enum { O_BUDGET, O_CHARACTERS, O_JOINTS, O_VARIANT, O_SAMPLER, O_DURATION, O_HALFLIFE, O_FRAMES, O_REPS, O_NO_CMU,
       O_QUICK, O_JSON, O_COUNT };
static const opt_spec opts[O_COUNT] = {
    [O_BUDGET] = { "budget-us", OPT_DOUBLE, "US", 1e-3, 1e9, NULL, 0, "500", "per-frame budget in microseconds" },
    [O_CHARACTERS] = { "characters", OPT_LONG, "N", 1, 4096, NULL, 0, "200",
                       "crowd size; cost is also measured at twice (or half) that" },
    [O_JOINTS] = { "joints", OPT_LONG, "N", 4, 4096, NULL, 0, "64", "synthetic skeleton for the cost" },
    [O_VARIANT] = { "variant", OPT_STR, "NAME", 0, 0, NULL, 0, NULL,
                    "variant to run (default: the forced one, else the one dispatch picks on this CPU)" },
    [O_SAMPLER] = { "sampler", OPT_CHOICE, NULL, 0, 0, "linear|cubic", 0, "linear", "sample_linear or sample_cubic" },
    [O_DURATION] = { "duration", OPT_DOUBLE, "S", 0.02, 10, NULL, 0, "0.3", "transition window in seconds" },
    [O_HALFLIFE] = { "halflife", OPT_DOUBLE, "S", 0, 10, NULL, 0, "0.1",
                     "dead blending's extrapolation half-life in seconds" },
    [O_FRAMES] = { "frames", OPT_LONG, "N", 1, 1000000, NULL, 0, "100; --quick 30", "timed frames per repetition" },
    [O_REPS] = { "reps", OPT_LONG, "N", 1, 1000, NULL, 0, "5; --quick 3", "repetitions, median reported" },
    [O_NO_CMU] = { "no-cmu", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                   "quality on the synthetic clips even when the CMU clips are packaged" },
    [O_QUICK] = { "quick", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "fewer frames and repetitions" },
    [O_JSON] = { "json", OPT_STR, "FILE", 0, 0, NULL, 0, NULL, "write both tables as JSON" },
};

/* Cost of one method's per-frame work (its samples + its transition) for F frames, us per frame. */
static pb_status cost_block(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int F, double *us)
{
    pb_status st = PB_OK;
    int two = pb_frame_method_get(m)->samples == 2;
    double t0 = cpu_seconds();
    for (int k = 0; k < F && st == PB_OK; k++) {
        if (two) st = pb_frame_sample(c, v, 0, pb_frame_crowd_clip_time(c, 0, k));
        if (st == PB_OK) st = pb_frame_sample(c, v, 1, pb_frame_crowd_clip_time(c, 1, k));
        if (st == PB_OK) st = pb_frame_transition(c, v, m, pb_frame_crowd_trans_time(c, k));
    }
    *us = (cpu_seconds() - t0) / F * 1e6;
    return st;
}
/* The rest of the frame (same for every method): additive, legs FK, IK, FK with velocities. */
static pb_status rest_block(pb_frame_crowd *c, const pb_variant *v, int F, double *us)
{
    pb_status st = PB_OK;
    double t0 = cpu_seconds();
    for (int k = 0; k < F && st == PB_OK; k++) {
        st = pb_frame_additive(c, v);
        if (st == PB_OK) st = pb_frame_leg_fk(c, v);
        if (st == PB_OK) st = pb_frame_ik(c, v);
        if (st == PB_OK) st = pb_frame_fk(c, v);
    }
    *us = (cpu_seconds() - t0) / F * 1e6;
    return st;
}

static long fit_max(double fixed, double per, double budget)
{
    if (!(per > 0)) return -1;
    double n = floor((budget - fixed) / per);
    return n < 0 ? 0 : n > 1e9 ? 1000000000L : (long)n;
}

/* The cost half: R->rows[].cost, spread, setup, fit; R->rest. EXIT_OK, or an exit status after a message. */
static int measure_cost(budget_res *R, const pb_scene *syn, double *samples)
{
    const pb_variant *v = R->v;
    long reps = R->reps, frames = R->frames;
    for (int si = 0; si < 2; si++) {
        pb_frame_crowd crowd;
        fprintf(stderr, "posebench budget: cost at %zu characters x %ld joints (%s) ...\n", R->sizes[si], R->joints,
                pb_variant_name(v));
        if (pb_frame_crowd_init(&crowd, syn, R->sizes[si], R->sampler) != PB_OK) {
            fprintf(stderr, "posebench budget: %s\n", pb_last_error());
            return EXIT_USAGE;
        }
        crowd.duration = (float)R->duration;
        crowd.halflife = (float)R->halflife;
        pb_status st = pb_frame_sample(&crowd, v, 0, 0);
        if (st == PB_OK) st = pb_frame_sample(&crowd, v, 1, 0);
        for (int mi = 0; mi < NM && st == PB_OK; mi++) {   /* setup once per transition, validated first calls */
            double t0 = cpu_seconds();
            for (long k = 0; k < frames && st == PB_OK; k++) st = pb_frame_begin(&crowd, v, budget_methods[mi]);
            if (si == 0) R->rows[mi].setup_us = (cpu_seconds() - t0) / (double)frames * 1e6;
        }
        /* interleave methods inside each repetition: slow drifts of the machine hit them alike */
        for (long r = 0; r < reps && st == PB_OK; r++) {
            for (int mi = 0; mi < NM && st == PB_OK; mi++) {
                if ((st = pb_frame_begin(&crowd, v, budget_methods[mi])) != PB_OK) break;
                st = cost_block(&crowd, v, budget_methods[mi], (int)frames, &samples[(size_t)mi * reps + r]);
            }
            if (st == PB_OK) st = pb_frame_begin(&crowd, v, PB_FM_CROSSFADE);
            if (st == PB_OK) st = pb_frame_transition(&crowd, v, PB_FM_CROSSFADE, 0.1f);
            if (st == PB_OK) st = rest_block(&crowd, v, (int)frames, &samples[(size_t)NM * reps + r]);
        }
        if (st != PB_OK) {
            fprintf(stderr, "posebench budget: %s: %s\n", crowd.failed ? crowd.failed : "?", pb_last_error());
            pb_frame_crowd_free(&crowd);
            return EXIT_CHECK;
        }
        for (int mi = 0; mi < NM; mi++) {
            double *sm = &samples[(size_t)mi * reps];
            budget_row *row = &R->rows[mi];
            row->cost[si] = median_sort(sm, (int)reps);   /* sorts sm */
            if (si == 0) row->spread = row->cost[0] > 0 ? (sm[reps - 1] - sm[0]) / row->cost[0] : 0;
        }
        R->rest[si] = median_sort(&samples[(size_t)NM * reps], (int)reps);
        pb_frame_crowd_free(&crowd);
    }
    double dn = (double)R->sizes[1] - (double)R->sizes[0];
    double rest_per = (R->rest[1] - R->rest[0]) / dn, rest_fixed = R->rest[0] - rest_per * (double)R->sizes[0];
    for (int mi = 0; mi < NM; mi++) {
        budget_row *r = &R->rows[mi];
        r->per_char = (r->cost[1] - r->cost[0]) / dn;
        r->fixed = r->cost[0] - r->per_char * (double)R->sizes[0];
        r->cost_at = r->cost[0];
        r->max_chars = fit_max(r->fixed, r->per_char, R->budget);
        r->frame_max_chars = fit_max(r->fixed + rest_fixed, r->per_char + rest_per, R->budget);
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
    pb_frame_crowd_free(&crowd);
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
    long characters = o[O_CHARACTERS].count ? o[O_CHARACTERS].l : 200;
    R.joints = o[O_JOINTS].count ? o[O_JOINTS].l : 64;
    R.frames = o[O_FRAMES].count ? o[O_FRAMES].l : quick ? 30 : 100;
    R.reps = o[O_REPS].count ? o[O_REPS].l : quick ? 3 : 5;
    R.sampler = o[O_SAMPLER].count && o[O_SAMPLER].choice == 1 ? PB_OP_sample_cubic : PB_OP_sample_linear;
    R.rest[0] = R.rest[1] = NAN;
    const char *json = o[O_JSON].str;
    if (pick_variants("budget", o[O_VARIANT].all, o[O_VARIANT].count, PICK_DISPATCH, &R.v, 1) < 0) return EXIT_USAGE;
    if (json) {   /* an unwritable path fails now, not after the measurements */
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "posebench budget: cannot write %s: %s\n", json, strerror(errno));
            return EXIT_USAGE;
        }
        fclose(f);
    }
    /* crowd sizes for the linear fit: the one asked for and twice it (half near the top) */
    int twice = characters * 2 <= 4096 && (size_t)(characters * 2 * R.joints) <= PB_FRAME_CROWD_MAX_ELEMENTS;
    R.sizes[0] = (size_t)characters;
    R.sizes[1] = twice ? (size_t)characters * 2 : (size_t)characters / 2;
    if (R.sizes[1] == R.sizes[0]) R.sizes[1] = R.sizes[0] + 1;

    pb_scene syn = { 0 }, cmu = { 0 }, qs = { 0 };
    int status = EXIT_OK;
    double *samples = malloc(sizeof(double) * (size_t)R.reps * (NM + 1));
    if (!samples) {
        fprintf(stderr, "posebench budget: out of memory\n");
        return EXIT_USAGE;
    }
    if (pb_scene_synthetic(&syn, (size_t)R.joints, 20231) != PB_OK) {
        fprintf(stderr, "posebench budget: %s\n", pb_last_error());
        status = EXIT_USAGE;
    }
    R.scene = syn.name;
    if (status == EXIT_OK) status = measure_cost(&R, &syn, samples);
    if (status == EXIT_OK) status = measure_quality(&R, &syn, &cmu, &qs, o[O_NO_CMU].count > 0);
    if (status == EXIT_OK) {
        budget_print(&R);
        if (ferror(stdout)) status = EXIT_USAGE;
    }
    if (status == EXIT_OK && json) {
        if (budget_write_json(&R, json) != 0) status = EXIT_USAGE;
        else fprintf(stderr, "posebench budget: wrote %s\n", json);
    }
    free(samples);
    pb_scene_free(&syn);
    pb_scene_free(&cmu);
    pb_scene_free(&qs);
    return status;
}

const command cmd_budget = {
    .name = "budget",
    .summary = "transition methods: cost per frame, fit in a budget, and quality on motion capture",
    .about = "  Per transition method (cut, cross-fade slerp/nlerp/exact velocities, inertialization, dead blending\n"
             "  slerp/nlerp): the measured per-frame cost for the crowd, whether it fits the budget, the largest crowd\n"
             "  that fits; and the quality of the same transitions on real mocap (velocity jump, deviation).\n",
    .opts = opts,
    .nopts = O_COUNT,
    .run = run,
};
