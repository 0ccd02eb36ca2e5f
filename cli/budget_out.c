/* budget_out.c — `posebench budget`'s output (budget.h): the cost and
 * quality tables with a short reading on the console, and the same as JSON
 * (cJSON) for the report. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "budget.h"
#include "context.h"

/* "cross-fade (nlerp)", "inertialization" */
static const char *method_name(pb_frame_method m, char *buf, size_t len)
{
    const pb_frame_method_info *in = pb_frame_method_get(m);
    if (strcmp(in->rot, "n/a")) snprintf(buf, len, "%s (%s)", in->method, in->rot);
    else snprintf(buf, len, "%s", in->method);
    return buf;
}

void budget_print(const budget_res *R)
{
    /* ---- the tables ---- */
    const char *smp = pb_op_get(R->sampler)->name;
    printf("posebench budget: %.0f us per frame for %zu characters x %ld joints (%s), variant %s, %s\n", R->budget,
           R->sizes[0], R->joints, R->scene, pb_variant_name(R->v), smp);
    printf("transition window %.2f s (smoothstep weight for cross-fades and dead blending), dead-blending half-life "
           "%.2f s\n\n", R->duration, R->halflife);
    printf("COST per frame for the crowd: the clips each method samples + its transition ops (median of %ld x %ld "
           "frames, CPU time)\n", R->reps, R->frames);
    printf("%-16s %-9s %10s %7s %6s %11s %12s %6s %11s %10s\n", "method", "rotation", "us/frame", "spread", "fits",
           "max crowd*", "+rest us/fr", "fits", "max crowd*", "setup us");
    for (int mi = 0; mi < BUDGET_NM; mi++) {
        const pb_frame_method_info *in = pb_frame_method_get(budget_methods[mi]);
        const budget_row *r = &R->rows[mi];
        double full = r->cost_at + R->rest[0];
        printf("%-16s %-9s %10.1f %6.1f%% %6s %11ld %12.1f %6s %11ld", in->method, in->rot, r->cost_at,
               100.0 * r->spread, r->cost_at <= R->budget ? "yes" : "NO", r->max_chars, full, full <= R->budget ? "yes" : "NO",
               r->frame_max_chars);
        if (in->once[0]) printf(" %10.1f\n", r->setup_us);
        else printf(" %10s\n", "-");
    }
    printf("  per frame: cut samples the destination; cross-fades sample both clips and run blend_static (slerp),\n"
           "  blend_static_nlerp (nlerp) or blend (slerp, exact velocities); inertialization samples the destination\n"
           "  and runs inertialize; dead blending samples the destination and runs dead_blending (slerp) or\n"
           "  extrapolate_decayed + blend_static_nlerp + the roots copied (nlerp). setup us: once per transition\n"
           "  (inertialize_offset; dead blending: a copy of the source pose). Every character mid-transition.\n"
           "  spread: (max - min) / median of the repetitions.\n"
           "  +rest: the same frame's additive layer, legs FK, 2-leg IK and FK with velocities: %.1f us at %zu "
           "characters.\n"
           "  * largest crowd within %.0f us: straight line through the costs measured at %zu and %zu characters,\n"
           "    extrapolated (not measured at that size).\n\n",
           R->rest[0], R->sizes[0], R->budget, R->sizes[0], R->sizes[1]);

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
    printf("%-16s %-9s %13s %15s %13s %14s\n", "method", "rotation", "vel jump m/s", "ang jump rad/s", "deviation cm",
           "deviation deg");
    for (int mi = 0; mi < BUDGET_NM; mi++) {
        const pb_frame_method_info *in = pb_frame_method_get(budget_methods[mi]);
        printf("%-16s %-9s %13.3f %15.2f %13.2f %14.2f\n", in->method, in->rot, R->rows[mi].q.vel_jump,
               R->rows[mi].q.ang_jump, R->rows[mi].q.dev_cm, R->rows[mi].q.dev_deg);
    }
    printf("  jump: peak over body joints of |velocity over the frame after - over the frame before| the transition\n"
           "  frame, from world transforms (fk_static) differenced over one frame, mean over the transitions; for\n"
           "  scale, the source clip alone changes by %.3f m/s and %.2f rad/s there (its own acceleration).\n"
           "  deviation: mean over the %.2f s window and the body joints of the distance and angle to the destination\n"
           "  animation (aligned to the source's trajectory): how far the shown motion is from where it is going.\n"
           "  blend and blend_static make the same poses (they differ in the velocities they report): same quality.\n",
           R->src_vj, R->src_aj, R->duration);
    /* reading: the cheapest method that fits, the smoothest, the closest to the destination */
    int best_smooth = -1, best_close = -1, cheapest = -1;
    for (int mi = 1; mi < BUDGET_NM; mi++) {
        if (best_smooth < 0 || R->rows[mi].q.vel_jump < R->rows[best_smooth].q.vel_jump) best_smooth = mi;
        if (best_close < 0 || R->rows[mi].q.dev_cm < R->rows[best_close].q.dev_cm) best_close = mi;
        if (R->rows[mi].cost_at <= R->budget && (cheapest < 0 || R->rows[mi].cost_at < R->rows[cheapest].cost_at)) cheapest = mi;
    }
    char nm[64];
    printf("\nreading (blending methods, cut excluded):\n");
    if (cheapest >= 0)
        printf("  cheapest within %.0f us at %zu characters: %s, %.1f us; up to ~%ld characters (extrapolated)\n",
               R->budget, R->sizes[0], method_name(budget_methods[cheapest], nm, sizeof nm), R->rows[cheapest].cost_at,
               R->rows[cheapest].max_chars);
    else {
        int c = 1;
        for (int mi = 2; mi < BUDGET_NM; mi++)
            if (R->rows[mi].cost_at < R->rows[c].cost_at) c = mi;
        printf("  none fits %.0f us at %zu characters: the cheapest, %s, needs %.1f us\n", R->budget, R->sizes[0],
               method_name(budget_methods[c], nm, sizeof nm), R->rows[c].cost_at);
    }
    printf("  smoothest at the transition: %s, %.3f m/s velocity jump\n", method_name(budget_methods[best_smooth], nm, sizeof nm),
           R->rows[best_smooth].q.vel_jump);
    printf("  closest to the destination during the window: %s, %.2f cm mean deviation\n",
           method_name(budget_methods[best_close], nm, sizeof nm), R->rows[best_close].q.dev_cm);
}

static int add_quality(cJSON *o, const bq_quality *q)
{
    return json_add_num(o, "vel_jump_ms", q->vel_jump) && json_add_num(o, "ang_jump_rads", q->ang_jump) &&
           json_add_num(o, "dev_cm", q->dev_cm) && json_add_num(o, "dev_deg", q->dev_deg);
}

static int add_row(cJSON *rows, const budget_res *R, int mi)
{
    const pb_frame_method_info *in = pb_frame_method_get(budget_methods[mi]);
    const budget_row *r = &R->rows[mi];
    double frame = r->cost_at + R->rest[0];
    double at[2] = { r->cost[0], r->cost[1] };
    cJSON *o = cJSON_CreateObject(), *pp, *sz;
    if (!o || !cJSON_AddItemToArray(rows, o)) {
        cJSON_Delete(o);
        return 0;
    }
    int ok = cJSON_AddStringToObject(o, "key", in->key) && cJSON_AddStringToObject(o, "method", in->method) &&
             cJSON_AddStringToObject(o, "rotation", in->rot) && cJSON_AddStringToObject(o, "ops", in->per_frame) &&
             cJSON_AddNumberToObject(o, "clips_sampled", in->samples) &&
             cJSON_AddStringToObject(o, "setup_once", in->once) &&
             json_add_num(o, "setup_us", in->once[0] ? r->setup_us : NAN) && json_add_num(o, "cost_us", r->cost_at) &&
             (sz = cJSON_CreateDoubleArray(at, 2)) && cJSON_AddItemToObject(o, "cost_us_at_sizes", sz) &&
             json_add_num(o, "cost_spread", r->spread) && json_add_num(o, "fixed_us", r->fixed) &&
             json_add_num(o, "per_character_us", r->per_char) &&
             cJSON_AddBoolToObject(o, "fits", r->cost_at <= R->budget) &&
             cJSON_AddNumberToObject(o, "max_characters", (double)r->max_chars) && json_add_num(o, "frame_us", frame) &&
             cJSON_AddBoolToObject(o, "frame_fits", frame <= R->budget) &&
             cJSON_AddNumberToObject(o, "frame_max_characters", (double)r->frame_max_chars) && add_quality(o, &r->q) &&
             (pp = cJSON_AddArrayToObject(o, "per_pair"));
    for (int p = 0; ok && p < R->np; p++) {
        cJSON *q = cJSON_CreateObject();
        ok = q && cJSON_AddItemToArray(pp, q) && add_quality(q, &r->pq[p]);
    }
    return ok;
}

int budget_write_json(const budget_res *R, const char *path)
{
    cJSON *root = cJSON_CreateObject(), *ctx = context_new(), *cf, *pa, *rows, *sa, *sizes, *rest;
    double sz[2] = { (double)R->sizes[0], (double)R->sizes[1] };
    int ok = root && ctx && cJSON_AddStringToObject(root, "tool", "posebench budget") &&
             cJSON_AddItemToObject(root, "context", ctx);
    if (!ok) cJSON_Delete(ctx);
    ok = ok && (cf = cJSON_AddObjectToObject(root, "config")) &&
         cJSON_AddNumberToObject(cf, "budget_us", R->budget) &&
         cJSON_AddNumberToObject(cf, "characters", (double)R->sizes[0]) &&
         cJSON_AddNumberToObject(cf, "joints", (double)R->joints) && cJSON_AddStringToObject(cf, "scene", R->scene) &&
         cJSON_AddStringToObject(cf, "variant", pb_variant_name(R->v)) &&
         cJSON_AddStringToObject(cf, "sampler", pb_op_get(R->sampler)->name) &&
         cJSON_AddNumberToObject(cf, "duration_s", R->duration) && cJSON_AddNumberToObject(cf, "halflife_s", R->halflife) &&
         cJSON_AddNumberToObject(cf, "frames", (double)R->frames) &&
         cJSON_AddNumberToObject(cf, "repetitions", (double)R->reps) &&
         (sizes = cJSON_CreateDoubleArray(sz, 2)) && cJSON_AddItemToObject(cf, "crowd_sizes", sizes) &&
         cJSON_AddNumberToObject(cf, "frame_dt_s", (double)PB_FRAME_DT) &&
         (rest = cJSON_CreateDoubleArray(R->rest, 2)) && cJSON_AddItemToObject(root, "rest_of_frame_us", rest) &&
         cJSON_AddStringToObject(root, "extrapolation", "linear through the two crowd sizes") &&
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
    if (!ok) {
        fprintf(stderr, "posebench budget: out of memory\n");
        cJSON_Delete(root);
        return -1;
    }
    int st = json_write_file("budget", path, root);
    cJSON_Delete(root);
    return st;
}
