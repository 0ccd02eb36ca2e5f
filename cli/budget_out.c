/* budget_out.c — `posebench budget`'s output (budget.h): the cost and
 * quality tables with a short reading on the console, and the same as JSON
 * (cJSON) for the report. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "budget.h"
#include "budget_frame.h"
#include "budget_layers.h"
#include "budget_sets_out.h"
#include "frame_cmd.h"
#include "context.h"
#include "noise.h"

/* "cross-fade (nlerp)", "inertialization" */
static const char *method_name(pb_frame_method m, char *buf, size_t len)
{
    const pb_frame_method_info *in = pb_frame_method_get(m);
    if (strcmp(in->rot, "n/a")) snprintf(buf, len, "%s (%s)", in->method, in->rot);
    else snprintf(buf, len, "%s", in->method);
    return buf;
}

/* noise_check of one timed figure: its spread only. Its parts (the method's cost, the rest of the frame) are
 * timed apart, each finding its data in cache, so their sum falls below the whole frame by cache effects, not
 * noise (docs/frame-and-budget.md, "Stage times add up"): frame's stage sum, timed inside the frame, is the test. */
static int meas_noisy(const bv_meas *m)
{
    return noise_check(noise_spread(m->median, m->min, m->max), NAN, m->median);
}

/* "245..250": 245 measured to fit, 250 not; ">=4096" at the cap; "0" if 1 character does not; "~" if the probe limit
 * stopped the search before the tolerance. */
static const char *crowd_str(const bv_search *s, char *buf, size_t len)
{
    if (s->fit == 0) snprintf(buf, len, "0");
    else if (s->nofit == 0) snprintf(buf, len, "%s>=%ld", s->capped ? "~" : "", s->fit);
    else snprintf(buf, len, "%s%ld..%ld", s->capped ? "~" : "", s->fit, s->nofit);
    return buf;
}

/* the closing reading on the whole frame; ties within noise are named as ties */
static void print_reading(const budget_res *R)
{
    char nm[64], nm2[64], cs[32], rs[128];
    double rest_frac = R->rest.median / R->budget;
    printf("\nreading (blending methods, cut excluded; whole frames, the rest of the frame included):\n");
    printf("  the rest of the frame (%s) takes %.1f us at %zu characters: %.0f%% of "
           "the %.0f us budget,\n  leaving %.1f us (%.0f%%) for sampling and the transition.\n",
           budget_frame_stages(R, PB_FS_ADDITIVE, ", ", rs, sizeof rs), R->rest.median, R->characters, 100 * rest_frac,
           R->budget, R->budget - R->rest.median, 100 * (1 - rest_frac));
    int cheapest = -1;
    for (int mi = 1; mi < BUDGET_NM; mi++)
        if (R->rows[mi].frame_v == BV_FITS && (cheapest < 0 || R->rows[mi].frame.median < R->rows[cheapest].frame.median))
            cheapest = mi;
    if (cheapest < 0) {
        int c = 1;
        for (int mi = 2; mi < BUDGET_NM; mi++)
            if (R->rows[mi].frame.median < R->rows[c].frame.median) c = mi;
        printf("  none fits %.0f us for sure at %zu characters: the cheapest whole frame, %s, takes %.1f us (%s)\n",
               R->budget, R->characters, method_name(budget_methods[c], nm, sizeof nm), R->rows[c].frame.median,
               bv_word(R->rows[c].frame_v));
    } else {
        const budget_row *b = &R->rows[cheapest];
        int ntied = 0;
        for (int mi = 1; mi < BUDGET_NM; mi++)
            if (mi != cheapest && R->rows[mi].frame_v != BV_NOT && bv_tied(&b->frame, &R->rows[mi].frame, BV_NOISE_FLOOR) == 1)
                ntied++;
        if (ntied) {
            printf("  no single cheapest within %.0f us at %zu characters: tied within noise (intervals overlap):\n",
                   R->budget, R->characters);
            printf("    %s %.1f us", method_name(budget_methods[cheapest], nm, sizeof nm), b->frame.median);
            for (int mi = 1; mi < BUDGET_NM; mi++)
                if (mi != cheapest && R->rows[mi].frame_v != BV_NOT &&
                    bv_tied(&b->frame, &R->rows[mi].frame, BV_NOISE_FLOOR) == 1)
                    printf(", %s %.1f us (%s)", method_name(budget_methods[mi], nm2, sizeof nm2), R->rows[mi].frame.median,
                           bv_word(R->rows[mi].frame_v));
            printf("\n");
        } else {
            printf("  cheapest whole frame within %.0f us at %zu characters: %s, %.1f us, ahead of the others by more\n"
                   "  than their spread\n", R->budget, R->characters, method_name(budget_methods[cheapest], nm, sizeof nm),
                   b->frame.median);
        }
        printf("  its largest crowd within %.0f us, measured: %s characters\n", R->budget,
               crowd_str(&b->frame_max, cs, sizeof cs));
    }
    /* quality is computed, not timed: equal values (blend and blend_static make the same poses) are named together */
    int best_smooth = 1, best_close = 1;
    for (int mi = 2; mi < BUDGET_NM; mi++) {
        if (R->rows[mi].q.vel_jump < R->rows[best_smooth].q.vel_jump) best_smooth = mi;
        if (R->rows[mi].q.dev_cm < R->rows[best_close].q.dev_cm) best_close = mi;
    }
    for (int k = 0; k < 2; k++) {
        int best = k ? best_close : best_smooth;
        double bv = k ? R->rows[best].q.dev_cm : R->rows[best].q.vel_jump;
        printf(k ? "  closest to the destination during the window: %s" : "  smoothest at the transition: %s",
               method_name(budget_methods[best], nm, sizeof nm));
        for (int mi = 1; mi < BUDGET_NM; mi++) {
            double x = k ? R->rows[mi].q.dev_cm : R->rows[mi].q.vel_jump;
            if (mi != best && fabs(x - bv) <= 1e-6 * fabs(bv)) printf(" = %s", method_name(budget_methods[mi], nm2, sizeof nm2));
        }
        printf(k ? ", %.2f cm mean deviation\n" : ", %.3f m/s velocity jump\n", bv);
    }
}

/* GB/s of a layer row: its bytes over its median time for the crowd */
static double layer_gbs(const budget_res *R, const bl_op_row *r)
{
    return r->bytes_per_joint * (double)R->characters * (double)R->joints / (r->us.median * 1e3);
}

static void print_layers(const budget_res *R)
{
    char c1[32];
    printf("\nLAYERS: per-frame add-ons for the crowd (%zu characters x %ld joints; lower body: the legs, %zu joints), "
           "one call per frame,\nmedian of %ld x %ld calls (CPU time)\n", R->characters, R->joints, R->lower, R->reps,
           R->frames);
    printf("%-31s | %9s %7s | %10s | %8s %7s | %7s\n", "layer", "us/frame", "spread ", "uniform us", "B/joint", "GB/s",
           "budget");
    int noisy = 0;
    for (int i = 0; i < BL_NOPS; i++) {
        const bl_op_row *r = &R->layer[i];
        if (isfinite(r->plain_us.median)) snprintf(c1, sizeof c1, "%.1f", r->plain_us.median);
        else snprintf(c1, sizeof c1, "-");
        int nz = meas_noisy(&r->us);
        noisy |= nz;
        printf("%-31s | %9.1f %5.1f%%%c | %10s | %8.1f %7.2f | %6.1f%%\n", bl_op_info(i)->name, r->us.median,
               100 * (r->us.max - r->us.min) / r->us.median, noise_mark(nz, NOISE_SPREAD), c1, r->bytes_per_joint,
               layer_gbs(R, r), 100 * r->us.median / R->budget);
    }
    noise_note(noisy);
    printf("  masked override: blend_static (slerp) or blend_static_nlerp of two sampled poses, a seeded weight per\n"
           "  character (per.alpha) times the bone mask (per.mask: 1 upper body, 0 legs); masked additive: the frame's\n"
           "  additive layer (velocities included, weight %.1f) with that mask, static: additive_local_static (slerp) or\n"
           "  additive_local_static_nlerp, no velocities; N-way: pb_blend_n of %d poses (both clips,\n"
           "  each at two times), seeded weights per character, static poses. uniform: the same op with no per-element\n"
           "  arrays (weight 0.5), what the mask and weights add. B/joint: the poses read and written (40 B static,\n"
           "  76 B with velocities) plus the arrays spread over the elements sharing them; budget: share of %.0f us.\n",
           (double)PB_FRAME_ADDITIVE_WEIGHT, BL_K, R->budget);
    printf("\nLAYERED TRANSITIONS: cost as the methods' (its samples + the transition; whole frame), at the crowd "
           "(no bisection);\nquality on the same %d transitions%s\n", R->np,
           R->qlower ? "" : " (no legs in the quality scene: the split switches the whole body over the upper body's window)");
    printf("%-27s | %9s  %-12s | %9s  %-12s | %8s %8s %8s %8s %7s\n", "transition", "us/frame", "verdict", "frame us",
           "verdict", "jump m/s", "rad/s", "dev cm", "dev deg", "range");
    noisy = 0;
    for (int f = 0; f < BL_NFORMS; f++) {
        const bl_form_row *r = &R->lform[f];
        int nc = meas_noisy(&r->cost), nf = meas_noisy(&r->frame);
        noisy |= nc | nf;
        printf("%-27s | %9.1f%c %-12s | %9.1f%c %-12s | %8.3f %8.2f %8.2f %8.2f %7.2f\n", bl_form_info(f)->name,
               r->cost.median, noise_mark(nc, NOISE_SPREAD), bv_word(r->cost_v), r->frame.median, noise_mark(nf, NOISE_SPREAD),
               bv_word(r->frame_v), r->q.vel_jump, r->q.ang_jump, r->q.dev_cm, r->q.dev_deg, r->q.range_deg);
    }
    noise_note(noisy);
    printf("  split: one blend_static at alpha 1 with the bone mask holding each joint's weight, the window's\n"
           "  smoothstep: the upper body over %.0f%% of the %.2f s window, the legs (%zu of the quality scene's joints)\n"
           "  over all of it; with equal windows it is the cross-fade (slerp) exactly. N-way: the cross-fade as\n"
           "  pb_blend_n of source and destination, weights 1 - w and w: fast = weighted nlerp (the nlerp\n"
           "  cross-fade's poses to rounding), accurate = the weighted quaternion mean; static poses only.\n",
           100 * (double)BL_UPPER_FRACTION, R->duration, R->qlower);
}

void budget_print(const budget_res *R)
{
    /* ---- the tables ---- */
    const char *smp = pb_op_get(R->sampler)->name;
    char c1[32], c2[32], rs[128];
    printf("posebench budget: %.0f us per frame for %zu characters x %ld joints (%s), variant %s, %s\n", R->budget,
           R->characters, R->joints, R->scene, pb_variant_name(R->v), smp);
    printf("transition window %.2f s (smoothstep weight for cross-fades and dead blending), dead-blending half-life "
           "%.2f s (dead_ue: clamp(%g d / v, %g, %g) s)\n", R->duration, R->halflife, (double)R->hl[0], (double)R->hl[1],
           (double)R->hl[2]);
    budget_frame_print(R);
    printf("\n");
    printf("COST per frame for the crowd, median of %ld x %ld frames (CPU time); spread: (max - min) / median\n",
           R->reps, R->frames);
    printf("%-17s %-9s | %9s %7s %-12s %11s | %9s %7s %-12s %11s | %8s\n", "", "", "method", "", "", "",
           "whole", "frame", "", "", "");
    printf("%-17s %-9s | %9s %7s %-12s %11s | %9s %7s %-12s %11s | %8s\n", "method", "rotation", "us/frame", "spread ",
           "verdict", "max crowd*", "us/frame", "spread ", "verdict", "max crowd*", "setup us");
    int noisy = 0;
    for (int mi = 0; mi < BUDGET_NM; mi++) {
        const pb_frame_method_info *in = pb_frame_method_get(budget_methods[mi]);
        const budget_row *r = &R->rows[mi];
        int nc = meas_noisy(&r->cost), nf = meas_noisy(&r->frame);
        noisy |= nc | nf;
        printf("%-17s %-9s | %9.1f %5.1f%%%c %-12s %11s | %9.1f %5.1f%%%c %-12s %11s |", in->method, in->rot,
               r->cost.median, 100 * (r->cost.max - r->cost.min) / r->cost.median, noise_mark(nc, NOISE_SPREAD),
               bv_word(r->cost_v), crowd_str(&r->max, c1, sizeof c1), r->frame.median,
               100 * (r->frame.max - r->frame.min) / r->frame.median, noise_mark(nf, NOISE_SPREAD), bv_word(r->frame_v),
               crowd_str(&r->frame_max, c2, sizeof c2));
        if (in->once[0]) printf(" %8.1f\n", r->setup_us);
        else printf(" %8s\n", "-");
    }
    noise_note(noisy);
    printf("\nWHOLE FRAME ON %d THREAD%s: the crowd in fused blocks of %zu characters (pb_frame_blocks), wall time, "
           "median of %ld x %ld frames\n", R->threads, R->threads > 1 ? "S" : "", fused_block(R->cost_scene, 0),
           R->reps, R->frames);
    printf("%-17s %-9s | %9s %7s %-12s %11s\n", "method", "rotation", "us/frame", "spread ", "verdict", "max crowd*");
    noisy = 0;
    for (int mi = 0; mi < BUDGET_NM; mi++) {
        const pb_frame_method_info *in = pb_frame_method_get(budget_methods[mi]);
        const budget_row *r = &R->rows[mi];
        int nt = meas_noisy(&r->frame_mt);
        noisy |= nt;
        printf("%-17s %-9s | %9.1f %5.1f%%%c %-12s %11s\n", in->method, in->rot, r->frame_mt.median,
               100 * (r->frame_mt.max - r->frame_mt.min) / r->frame_mt.median, noise_mark(nt, NOISE_SPREAD),
               bv_word(r->frame_mt_v), crowd_str(&r->frame_mt_max, c1, sizeof c1));
    }
    noise_note(noisy);
    printf("  method: the clips it samples + its transition ops: cut samples the destination; cross-fades sample both\n"
           "  clips and run blend_static (slerp), blend_static_nlerp (nlerp) or blend (slerp, exact velocities);\n"
           "  inertialization samples the destination and runs inertialize; dead blending samples the destination and\n"
           "  runs dead_blending (slerp) or extrapolate_decayed + blend_static_nlerp + the roots copied (nlerp); UE:\n"
           "  dead_blending with Unreal's half-lives per joint, axis and channel (estimate_halflife at the transition).\n"
           "  whole frame: the method, then the rest of the frame (%s), timed as one\n"
           "  frame (pb_frame_step; the rest alone: %.1f us, %.1f-%.1f). setup us: once per transition (inertialize_offset;\n"
           "  dead blending: a copy of the source pose; UE: and estimate_halflife). Every character mid-transition.\n"
           "  verdict: fits when the repetitions' whole interval [min, max], widened to at least the median +-%.0f%%,\n"
           "  is within %.0f us; does not fit when it is all above; marginal when the budget lies inside it (noise\n"
           "  decides: measure again, with more --reps, or leave headroom).\n"
           "  * largest crowd within %.0f us, MEASURED: a..b = a characters measured to fit, b not (marginal or above);\n"
           "    bisection over the character count, each probe %ld x %ld frames, to %.0f%% or 1 character, at most %d\n"
           "    probes (~: the limit stopped it first), up to %ld characters.\n\n",
           budget_frame_stages(R, PB_FS_ADDITIVE, ", ", rs, sizeof rs), R->rest.median, R->rest.min, R->rest.max,
           100 * BV_NOISE_FLOOR, R->budget, R->budget, R->reps, R->frames,
           100 * BUDGET_TOL, BUDGET_PROBES, R->cap);

    if (R->real)
        printf("QUALITY on real mocap: %d transitions between CMU 01_01 and 01_03, %zu body joints, 60 Hz, world space\n",
               R->np, R->body);
    else
        printf("QUALITY on synthetic clips (no CMU mocap packaged): %d transitions, %zu body joints, 60 Hz, world "
               "space\n", R->np, R->body);
    printf("  transitions (clip@seconds -> clip@seconds):");
    for (int p = 0; p < R->np; p++)
        printf("%s %s@%.1f->%s@%.1f", p ? "," : "", R->qscene->clip_name[R->pairs[p].from], (double)R->pairs[p].at,
               R->qscene->clip_name[R->pairs[p].to], (double)R->pairs[p].to_at);
    printf("\n");
    printf("%-17s %-9s %13s %15s %13s %14s %10s\n", "method", "rotation", "vel jump m/s", "ang jump rad/s",
           "deviation cm", "deviation deg", "range deg");
    for (int mi = 0; mi < BUDGET_NM; mi++) {
        const pb_frame_method_info *in = pb_frame_method_get(budget_methods[mi]);
        printf("%-17s %-9s %13.3f %15.2f %13.2f %14.2f %10.2f\n", in->method, in->rot, R->rows[mi].q.vel_jump,
               R->rows[mi].q.ang_jump, R->rows[mi].q.dev_cm, R->rows[mi].q.dev_deg, R->rows[mi].q.range_deg);
    }
    printf("  jump: peak over body joints of |velocity over the frame after - over the frame before| the transition\n"
           "  frame, from world transforms (fk_static) differenced over one frame, mean over the transitions; for\n"
           "  scale, the source clip alone changes by %.3f m/s and %.2f rad/s there (its own acceleration).\n"
           "  deviation: mean over the %.2f s window and the body joints of the distance and angle to the destination\n"
           "  animation (aligned to the source's trajectory): how far the shown motion is from where it is going.\n"
           "  range: how far the shown local rotations leave the joint ranges the two clips show (per joint and axis,\n"
           "  min .. max of the rotation vector from the rest pose over every frame of both clips): the peak over the\n"
           "  window and the body joints, degrees, mean over the transitions (0: always inside).\n"
           "  blend and blend_static make the same poses (they differ in the velocities they report): same quality.\n",
           R->src_vj, R->src_aj, R->duration);
    print_layers(R);
    bs_print(&R->sets_ctx, R->sets, budget_methods, R->set_cost);
    if (R->sweep.n) bw_print(&R->sweep, budget_methods);
    print_reading(R);
}

static int add_quality(cJSON *o, const bq_quality *q)
{
    return json_add_num(o, "vel_jump_ms", q->vel_jump) && json_add_num(o, "ang_jump_rads", q->ang_jump) &&
           json_add_num(o, "dev_cm", q->dev_cm) && json_add_num(o, "dev_deg", q->dev_deg) &&
           json_add_num(o, "range_deg", q->range_deg);
}

/* {"median_us", "min_us", "max_us", "spread", "verdict", "noisy"} */
static int add_meas(cJSON *o, const char *name, const bv_meas *m, bv_verdict v)
{
    cJSON *x = cJSON_AddObjectToObject(o, name);
    return x && json_add_num(x, "median_us", m->median) && json_add_num(x, "min_us", m->min) &&
           json_add_num(x, "max_us", m->max) && json_add_num(x, "spread", (m->max - m->min) / m->median) &&
           cJSON_AddStringToObject(x, "verdict", bv_word(v)) && noise_json(x, meas_noisy(m));
}

/* the bisection: {"fits": a, "does_not_fit": b or null, its verdict, the measurements, probes, capped} */
static int add_search(cJSON *o, const char *name, const bv_search *s)
{
    cJSON *x = cJSON_AddObjectToObject(o, name);
    int ok = x && cJSON_AddNumberToObject(x, "fits", (double)s->fit) &&
             (s->nofit ? cJSON_AddNumberToObject(x, "does_not_fit", (double)s->nofit)
                       : cJSON_AddNullToObject(x, "does_not_fit")) &&
             json_add_num(x, "fits_median_us", s->fit ? s->fit_m.median : NAN) &&
             json_add_num(x, "fits_max_us", s->fit ? s->fit_m.max : NAN) &&
             json_add_num(x, "does_not_fit_median_us", s->nofit ? s->nofit_m.median : NAN) &&
             json_add_num(x, "does_not_fit_min_us", s->nofit ? s->nofit_m.min : NAN) &&
             cJSON_AddStringToObject(x, "does_not_fit_verdict", s->nofit ? bv_word(s->nofit_v) : "") &&
             cJSON_AddNumberToObject(x, "probes", s->probes) && cJSON_AddBoolToObject(x, "capped", s->capped);
    return ok;
}

static int add_row(cJSON *rows, const budget_res *R, int mi)
{
    const pb_frame_method_info *in = pb_frame_method_get(budget_methods[mi]);
    const budget_row *r = &R->rows[mi];
    cJSON *o = cJSON_CreateObject(), *pp;
    if (!o || !cJSON_AddItemToArray(rows, o)) {
        cJSON_Delete(o);
        return 0;
    }
    /* cost_us, fits, max_characters, frame_us, frame_fits, frame_max_characters keep their names for readers of
     * the earlier JSON: fits is now verdict == "fits", the max crowds are the bisections' measured results */
    int ok = cJSON_AddStringToObject(o, "key", in->key) && cJSON_AddStringToObject(o, "method", in->method) &&
             cJSON_AddStringToObject(o, "rotation", in->rot) && cJSON_AddStringToObject(o, "ops", in->per_frame) &&
             cJSON_AddNumberToObject(o, "clips_sampled", in->samples) &&
             cJSON_AddStringToObject(o, "setup_once", in->once) &&
             json_add_num(o, "setup_us", in->once[0] ? r->setup_us : NAN) && json_add_num(o, "cost_us", r->cost.median) &&
             json_add_num(o, "cost_spread", (r->cost.max - r->cost.min) / r->cost.median) &&
             cJSON_AddStringToObject(o, "verdict", bv_word(r->cost_v)) &&
             cJSON_AddBoolToObject(o, "fits", r->cost_v == BV_FITS) &&
             cJSON_AddNumberToObject(o, "max_characters", (double)r->max.fit) &&
             json_add_num(o, "frame_us", r->frame.median) &&
             cJSON_AddStringToObject(o, "frame_verdict", bv_word(r->frame_v)) &&
             cJSON_AddBoolToObject(o, "frame_fits", r->frame_v == BV_FITS) &&
             cJSON_AddNumberToObject(o, "frame_max_characters", (double)r->frame_max.fit) &&
             add_meas(o, "cost", &r->cost, r->cost_v) && add_meas(o, "frame", &r->frame, r->frame_v) &&
             add_search(o, "max_crowd", &r->max) && add_search(o, "frame_max_crowd", &r->frame_max) &&
             json_add_num(o, "frame_threads_us", r->frame_mt.median) &&
             cJSON_AddStringToObject(o, "frame_threads_verdict", bv_word(r->frame_mt_v)) &&
             cJSON_AddNumberToObject(o, "frame_threads_max_characters", (double)r->frame_mt_max.fit) &&
             add_meas(o, "frame_threads", &r->frame_mt, r->frame_mt_v) &&
             add_search(o, "frame_threads_max_crowd", &r->frame_mt_max) &&
             add_quality(o, &r->q) && (pp = cJSON_AddArrayToObject(o, "per_pair"));
    for (int p = 0; ok && p < R->np; p++) {
        cJSON *q = cJSON_CreateObject();
        ok = q && cJSON_AddItemToArray(pp, q) && add_quality(q, &r->pq[p]);
    }
    return ok;
}

/* "layers": the layer ops' rows; "layer_transitions": the layered transitions', with the methods' keys */
static int add_layers(cJSON *root, const budget_res *R)
{
    cJSON *lo = cJSON_AddArrayToObject(root, "layers"), *lt = cJSON_AddArrayToObject(root, "layer_transitions");
    int ok = lo && lt && cJSON_AddNumberToObject(root, "lower_body_joints", (double)R->lower) &&
             cJSON_AddNumberToObject(root, "quality_lower_body_joints", (double)R->qlower);
    for (int i = 0; ok && i < BL_NOPS; i++) {
        const bl_op_row *r = &R->layer[i];
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(lo, o) && cJSON_AddStringToObject(o, "key", bl_op_info(i)->key) &&
             cJSON_AddStringToObject(o, "layer", bl_op_info(i)->name) &&
             cJSON_AddStringToObject(o, "ops", bl_op_info(i)->ops) && json_add_num(o, "us", r->us.median) &&
             json_add_num(o, "min_us", r->us.min) && json_add_num(o, "max_us", r->us.max) &&
             json_add_num(o, "spread", (r->us.max - r->us.min) / r->us.median) &&
             json_add_num(o, "uniform_us", r->plain_us.median) &&
             json_add_num(o, "bytes_per_joint", r->bytes_per_joint) && json_add_num(o, "gbps", layer_gbs(R, r)) &&
             json_add_num(o, "budget_fraction", r->us.median / R->budget) && noise_json(o, meas_noisy(&r->us));
    }
    for (int f = 0; ok && f < BL_NFORMS; f++) {
        const bl_form_row *r = &R->lform[f];
        cJSON *o = cJSON_CreateObject(), *pp;
        ok = o && cJSON_AddItemToArray(lt, o) && cJSON_AddStringToObject(o, "key", bl_form_info(f)->key) &&
             cJSON_AddStringToObject(o, "method", bl_form_info(f)->name) &&
             cJSON_AddStringToObject(o, "ops", bl_form_info(f)->ops) && json_add_num(o, "cost_us", r->cost.median) &&
             json_add_num(o, "cost_spread", (r->cost.max - r->cost.min) / r->cost.median) &&
             cJSON_AddStringToObject(o, "verdict", bv_word(r->cost_v)) &&
             cJSON_AddBoolToObject(o, "fits", r->cost_v == BV_FITS) && json_add_num(o, "frame_us", r->frame.median) &&
             cJSON_AddStringToObject(o, "frame_verdict", bv_word(r->frame_v)) &&
             add_meas(o, "cost", &r->cost, r->cost_v) && add_meas(o, "frame", &r->frame, r->frame_v) &&
             add_quality(o, &r->q) && (pp = cJSON_AddArrayToObject(o, "per_pair"));
        for (int p = 0; ok && p < R->np; p++) {
            cJSON *q = cJSON_CreateObject();
            ok = q && cJSON_AddItemToArray(pp, q) && add_quality(q, &r->pq[p]);
        }
    }
    return ok;
}

int budget_check_passes(const budget_res *R)
{
    for (int mi = 1; mi < BUDGET_NM; mi++)   /* 0 is the cut: not a blending method */
        if (R->rows[mi].frame_v == BV_FITS || R->rows[mi].frame_v == BV_MARGINAL) return 1;
    return 0;
}

int budget_write_json(const budget_res *R, const char *path)
{
    cJSON *root = cJSON_CreateObject(), *ctx = context_new(), *cf, *pa, *rows, *sa, *sizes, *rest, *rm, *ck;
    double sz[1] = { (double)R->characters }, rest_med[1] = { R->rest.median };
    int ok = root && ctx && cJSON_AddStringToObject(root, "tool", "posebench budget") &&
             cJSON_AddItemToObject(root, "context", ctx);
    if (!ok) cJSON_Delete(ctx);
    ok = ok && (cf = cJSON_AddObjectToObject(root, "config")) &&
         cJSON_AddNumberToObject(cf, "budget_us", R->budget) &&
         cJSON_AddNumberToObject(cf, "characters", (double)R->characters) &&
         cJSON_AddNumberToObject(cf, "joints", (double)R->joints) && cJSON_AddStringToObject(cf, "scene", R->scene) &&
         cJSON_AddStringToObject(cf, "variant", pb_variant_name(R->v)) &&
         cJSON_AddStringToObject(cf, "sampler", pb_op_get(R->sampler)->name) &&
         cJSON_AddNumberToObject(cf, "duration_s", R->duration) && cJSON_AddNumberToObject(cf, "halflife_s", R->halflife) &&
         cJSON_AddNumberToObject(cf, "halflife_scale", R->hl[0]) && cJSON_AddNumberToObject(cf, "halflife_min_s", R->hl[1]) &&
         cJSON_AddNumberToObject(cf, "halflife_max_s", R->hl[2]) &&
         cJSON_AddNumberToObject(cf, "frames", (double)R->frames) &&
         cJSON_AddNumberToObject(cf, "threads", R->threads) &&
         cJSON_AddNumberToObject(cf, "block", (double)fused_block(R->cost_scene, 0)) &&
         cJSON_AddNumberToObject(cf, "repetitions", (double)R->reps) &&
         (sizes = cJSON_CreateDoubleArray(sz, 1)) && cJSON_AddItemToObject(cf, "crowd_sizes", sizes) &&
         cJSON_AddNumberToObject(cf, "noise_floor", BV_NOISE_FLOOR) && noise_config_json(cf) == 0 &&
         cJSON_AddNumberToObject(cf, "bisection_tolerance", BUDGET_TOL) &&
         cJSON_AddNumberToObject(cf, "bisection_max_probes", BUDGET_PROBES) &&
         cJSON_AddNumberToObject(cf, "bisection_cap_characters", (double)R->cap) &&
         cJSON_AddNumberToObject(cf, "frame_dt_s", (double)PB_FRAME_DT) && budget_frame_json(cf, R) == 0 &&
         (!R->have_model_cost || model_cost_json(cf, &R->model_cost) == 0) &&
         (rest = cJSON_CreateDoubleArray(rest_med, 1)) && cJSON_AddItemToObject(root, "rest_of_frame_us", rest) &&
         add_meas(root, "rest_of_frame", &R->rest, bv_judge(&R->rest, R->budget, BV_NOISE_FLOOR)) &&
         (rm = cJSON_GetObjectItemCaseSensitive(root, "rest_of_frame")) &&
         json_add_num(rm, "fraction_of_budget", R->rest.median / R->budget) &&
         (ck = cJSON_AddObjectToObject(root, "check")) &&
         cJSON_AddBoolToObject(ck, "passed", budget_check_passes(R)) &&
         cJSON_AddStringToObject(ck, "rule", "passes when at least one blending method's whole frame fits or is "
                                             "marginal at the asked crowd; else the command exits 1") &&
         cJSON_AddStringToObject(root, "verdicts", "fits: [min, max] of the repetitions, widened to median +- "
                                                   "noise_floor, within the budget; marginal: the budget inside it; "
                                                   "does not fit: all above") &&
         cJSON_AddStringToObject(root, "max_crowd_search", "bisection over the character count, each probe measured "
                                                           "like the crowd; fits = largest crowd measured to fit") &&
         cJSON_AddStringToObject(root, "quality_source", R->real ? "cmu mocap 01_01/01_03 with a ground trajectory root"
                                                                  : "synthetic clips") &&
         cJSON_AddNumberToObject(root, "quality_body_joints", (double)R->body) &&
         (sa = cJSON_AddObjectToObject(root, "source_alone_jump")) && json_add_num(sa, "vel_ms", R->src_vj) &&
         json_add_num(sa, "ang_rads", R->src_aj) && (pa = cJSON_AddArrayToObject(root, "pairs")) &&
         (rows = cJSON_AddArrayToObject(root, "rows"));
    for (int p = 0; ok && p < R->np; p++) {
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddItemToArray(pa, o) &&
             cJSON_AddStringToObject(o, "from", R->qscene->clip_name[R->pairs[p].from]) &&
             cJSON_AddNumberToObject(o, "at_s", (double)R->pairs[p].at) &&
             cJSON_AddStringToObject(o, "to", R->qscene->clip_name[R->pairs[p].to]) &&
             cJSON_AddNumberToObject(o, "to_at_s", (double)R->pairs[p].to_at);
    }
    for (int mi = 0; ok && mi < BUDGET_NM; mi++) ok = add_row(rows, R, mi);
    ok = ok && add_layers(root, R) && bs_add_json(root, &R->sets_ctx, R->sets, budget_methods, R->set_cost) == 0 &&
         (!R->sweep.n || bw_add_json(root, &R->sweep, budget_methods) == 0);
    if (!ok) {
        fprintf(stderr, "posebench budget: out of memory\n");
        cJSON_Delete(root);
        return -1;
    }
    int st = json_write_file("budget", path, root);
    cJSON_Delete(root);
    return st;
}
