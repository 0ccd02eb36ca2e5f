/* budget_layers.c — the layers of `posebench budget` (budget_layers.h).
 *
 * Cost: each layer operation is timed alone on the budget's crowd, as what it
 * adds to a frame: one call per frame over every character, CPU time, the
 * median and extremes of the repetitions like the methods' rows. The masked
 * rows also time the same op without per-element arrays (what the mask and
 * the per-character weights add). Bytes per joint count the poses the op
 * reads and writes (the op table's groups: 40 B for a static pose, 76 B with
 * velocities) and the arrays spread over the elements that share them (a
 * mask entry per joint serves every character, a weight per character every
 * joint), so GB/s is comparable with the bench's rows.
 *
 * The layered transitions are timed like the methods (their samples plus the
 * transition; the whole frame with them) and played on the quality clips
 * through bq_measure_forms, so their figures sit beside the methods'. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget_layers.h"
#include "command.h"
#include "internal.h"   /* pb_fail */
#include "measure.h"
#include "rng.h"

static const bl_info ops_info[BL_NOPS] = {
    [BL_OVERRIDE_SLERP] = { "override_slerp_masked", "masked override (slerp)",
                            "blend_static, per-character alpha x upper-body mask" },
    [BL_OVERRIDE_NLERP] = { "override_nlerp_masked", "masked override (nlerp)",
                            "blend_static_nlerp, per-character alpha x upper-body mask" },
    [BL_ADDITIVE] = { "additive_masked", "masked additive", "additive (with velocities), upper-body mask" },
    [BL_ADDITIVE_STATIC] = { "additive_static_masked", "masked additive (static)",
                             "additive_local_static, upper-body mask" },
    [BL_ADDITIVE_NLERP] = { "additive_nlerp_masked", "masked additive (static, nlerp)",
                            "additive_local_static_nlerp, upper-body mask" },
    [BL_NWAY_FAST] = { "blend_n4_fast", "N-way blend K=4 (fast)", "pb_blend_n fast, per-character weights" },
    [BL_NWAY_ACCURATE] = { "blend_n4_accurate", "N-way blend K=4 (accurate)",
                           "pb_blend_n accurate, per-character weights" },
};
static const bl_info forms_info[BL_NFORMS] = {
    [BL_SPLIT] = { "crossfade_split", "split cross-fade (slerp)",
                   "blend_static, per.mask = per-joint weights: upper body over half the window, legs over all" },
    [BL_NWAY2_FAST] = { "crossfade_blend_n_fast", "cross-fade N-way (fast)",
                        "pb_blend_n fast, K=2 (source, destination)" },
    [BL_NWAY2_ACCURATE] = { "crossfade_blend_n_accurate", "cross-fade N-way (accurate)",
                            "pb_blend_n accurate, K=2 (source, destination)" },
};
const bl_info *bl_op_info(int i) { return i >= 0 && i < BL_NOPS ? &ops_info[i] : NULL; }
const bl_info *bl_form_info(int i) { return i >= 0 && i < BL_NFORMS ? &forms_info[i] : NULL; }

size_t bl_lower_body(const pb_scene *sc, unsigned char *lower)
{
    size_t n = 0;
    for (size_t j = 0; j < sc->joints; j++) {   /* parents come first: a joint is in a leg when its parent is */
        int p = sc->parents[j];
        lower[j] = sc->leg[0][0] >= 0 && (sc->leg[0][0] == (int)j || sc->leg[1][0] == (int)j || (p >= 0 && lower[p]));
        n += lower[j];
    }
    return n;
}

void bl_xf_free(bl_xf *x)
{
    free(x->lower);
    free(x->mask);
    free(x->w);
    memset(x, 0, sizeof *x);
}

pb_status bl_xf_init(bl_xf *x, const pb_frame_crowd *c, int form, float upper_fraction)
{
    memset(x, 0, sizeof *x);
    if (!bl_form_info(form)) return pb_fail(PB_ERR_PARAM, "layered transition: form %d", form);
    x->form = form;
    x->upper_fraction = upper_fraction;
    x->lower = malloc(c->sc->joints);
    x->mask = malloc(c->sc->joints * sizeof *x->mask);
    x->w = malloc(2 * c->characters * sizeof *x->w);
    if (!x->lower || !x->mask || !x->w) {
        bl_xf_free(x);
        return pb_fail(PB_ERR_NOMEM, "layered transition: out of memory");
    }
    bl_lower_body(c->sc, x->lower);
    return PB_OK;
}

/* The frame methods' weight curve (pb_frame_transition), over a window of T seconds: the same float
 * operations, so a split whose windows are equal is the plain cross-fade bit for bit. */
static float weight_at(float t, float T)
{
    float u = T > 0 ? t / T : 1.0f;
    if (u > 1.0f) u = 1.0f;
    if (u < 0.0f) u = 0.0f;
    return u * u * (3.0f - 2.0f * u);
}

pb_status bl_transition(pb_frame_crowd *c, const pb_variant *v, float t, void *user)
{
    bl_xf *x = user;
    size_t C = c->characters;
    float T = c->duration;
    c->mixed = &c->mix;
    if (x->form == BL_SPLIT) {
        /* A bone mask multiplies the weight per joint (0 .. 1), so with one weight per character it can
         * only hold a body part back, never let it finish: the split passes alpha 1 and each joint's
         * own weight in the mask, recomputed each frame (one float per joint for the whole crowd). */
        for (size_t j = 0; j < c->sc->joints; j++) x->mask[j] = weight_at(t, x->lower[j] ? T : x->upper_fraction * T);
        pb_call call = { .a = &c->src, .b = &c->dst, .out = &c->mix };
        call.params.alpha = 1.0f;
        call.per.characters = C;
        call.per.mask = x->mask;
        pb_status s = pb_run(PB_OP_blend_static, v, &call);
        if (s != PB_OK) c->failed = "blend_static";
        return s;
    }
    float a = weight_at(t, T);
    for (size_t k = 0; k < C; k++) {
        x->w[k] = 1.0f - a;
        x->w[C + k] = a;
    }
    const pb_pose *in[2] = { &c->src, &c->dst };
    pb_status s = pb_blend_n(in, 2, x->w, C, x->form == BL_NWAY2_FAST ? PB_BLEND_N_FAST : PB_BLEND_N_ACCURATE,
                             PB_SCALE_DEFAULT, &c->mix, v);
    if (s != PB_OK) c->failed = "pb_blend_n";
    return s;
}

/* ---- the layer ops' cost ---------------------------------------------------------------------- */
typedef struct lctx {
    pb_frame_crowd *c;
    const pb_variant *v;
    const pb_pose *in[BL_K];   /* the N-way inputs: both clips, each at two times */
    float *w;                  /* BL_K x characters N-way weights */
    float *alpha;              /* per character: the override's weight */
    float *mask;               /* per joint: 1 in the upper body, 0 in the legs */
} lctx;

/* Layer op i on the crowd, masked (plain 0) or with uniform parameters (plain 1). */
static pb_status layer_run(const lctx *x, int i, int plain)
{
    pb_frame_crowd *c = x->c;
    if (i == BL_NWAY_FAST || i == BL_NWAY_ACCURATE) {
        pb_blend_n_method m = i == BL_NWAY_FAST ? PB_BLEND_N_FAST : PB_BLEND_N_ACCURATE;
        pb_status s = pb_blend_n(x->in, BL_K, x->w, c->characters, m, PB_SCALE_DEFAULT, &c->mix, x->v);
        if (s != PB_OK) c->failed = "pb_blend_n";
        return s;
    }
    if (i == BL_ADDITIVE && plain) return pb_frame_additive(c, x->v);   /* the frame's own additive layer */
    pb_op op = i == BL_OVERRIDE_SLERP    ? PB_OP_blend_static
               : i == BL_OVERRIDE_NLERP  ? PB_OP_blend_static_nlerp
               : i == BL_ADDITIVE_STATIC ? PB_OP_additive_local_static
               : i == BL_ADDITIVE_NLERP  ? PB_OP_additive_local_static_nlerp
                                         : PB_OP_additive;
    int additive = i == BL_ADDITIVE || i == BL_ADDITIVE_STATIC || i == BL_ADDITIVE_NLERP;
    pb_call call = { .a = &c->src, .b = &c->dst, .out = &c->mix };
    call.params.alpha = 0.5f;
    if (additive) {   /* as pb_frame_additive (the static forms without velocities), with the mask */
        call.a = c->mixed;
        call.b = &c->delta;
        call.out = &c->local;
        call.params.alpha = PB_FRAME_ADDITIVE_WEIGHT;
    }
    if (!plain) {
        call.per.characters = c->characters;
        call.per.mask = x->mask;
        if (!additive) call.per.alpha = x->alpha;
    }
    pb_status s = pb_run(op, x->v, &call);
    if (s != PB_OK) c->failed = pb_op_get(op)->name;
    return s;
}

/* Bytes an op reads and writes per element: its groups in a, b and out (the op table). */
static double op_bytes(pb_op op)
{
    const pb_op_info *in = pb_op_get(op);
    double floats = 0;
    for (int g = 0; g < PB_GROUPS; g++) {
        uint32_t b = 1u << g;
        floats += pb_group_size((pb_group)g) * (double)(!!(in->in_a & b) + !!(in->in_b & b) + !!(in->out & b));
    }
    return floats * sizeof(float);
}

static double layer_bytes(int i, double J, double C)
{
    switch (i) {
    case BL_OVERRIDE_SLERP: return op_bytes(PB_OP_blend_static) + 4 / C + 4 / J;
    case BL_OVERRIDE_NLERP: return op_bytes(PB_OP_blend_static_nlerp) + 4 / C + 4 / J;
    case BL_ADDITIVE: return op_bytes(PB_OP_additive) + 4 / C;
    case BL_ADDITIVE_STATIC: return op_bytes(PB_OP_additive_local_static) + 4 / C;
    case BL_ADDITIVE_NLERP: return op_bytes(PB_OP_additive_local_static_nlerp) + 4 / C;
    default: return (BL_K + 1) * 10 * sizeof(float) + 4.0 * BL_K / J;   /* K static poses in, one out: bench's */
    }
}

/* The layer ops' inputs on crowd c: the N-way's four poses (state and tmp take each clip at another time),
 * seeded weights, the upper-body mask. */
static pb_status layer_ctx(lctx *x, budget_res *R, pb_frame_crowd *c)
{
    size_t C = c->characters, J = c->sc->joints;
    memset(x, 0, sizeof *x);
    x->c = c;
    x->v = R->v;
    x->w = malloc(BL_K * C * sizeof *x->w);
    x->alpha = malloc(C * sizeof *x->alpha);
    x->mask = malloc(J * sizeof *x->mask);
    unsigned char *lower = malloc(J);
    if (!x->w || !x->alpha || !x->mask || !lower) {
        free(lower);
        return pb_fail(PB_ERR_NOMEM, "layers: out of memory");
    }
    R->lower = bl_lower_body(c->sc, lower);
    for (size_t j = 0; j < J; j++) x->mask[j] = lower[j] ? 0.0f : 1.0f;
    free(lower);
    uint64_t r = 0x1A7E125ull;   /* seeded: the same weights every run */
    for (size_t k = 0; k < C; k++) x->alpha[k] = pb_rng_unit01(&r);
    for (size_t k = 0; k < BL_K * C; k++) x->w[k] = 0.05f + pb_rng_unit01(&r);   /* as bench --op blend_n */
    pb_status s = pb_frame_sample(c, R->v, 0, 0.25f);
    if (s == PB_OK) s = pb_pose_copy(&c->state, &c->src);
    if (s == PB_OK) s = pb_frame_sample(c, R->v, 1, 0.4f);
    if (s == PB_OK) s = pb_pose_copy(&c->tmp, &c->dst);
    if (s == PB_OK) s = pb_frame_sample(c, R->v, 0, 0.0f);
    if (s == PB_OK) s = pb_frame_sample(c, R->v, 1, 0.0f);
    x->in[0] = &c->src, x->in[1] = &c->dst, x->in[2] = &c->state, x->in[3] = &c->tmp;
    return s;
}

static void layer_ctx_free(lctx *x)
{
    free(x->w);
    free(x->alpha);
    free(x->mask);
}

/* One timed block of F frames of a layered transition: its samples and the transition, and with whole set
 * the rest of the frame; us per frame. */
static pb_status form_block(pb_frame_crowd *c, const pb_variant *v, bl_xf *xf, int whole, int F, double *us)
{
    pb_status st = PB_OK;
    double t0 = cpu_seconds();
    for (int k = 0; k < F && st == PB_OK; k++) {
        /* a cross-fade's stages sample both clips; the layered transition replaces its transition stage */
        st = pb_frame_stages_run(c, v, PB_FM_CROSSFADE_STATIC, k, PB_FS_SAMPLE_SRC, PB_FS_TRANSITION);
        if (st == PB_OK) st = bl_transition(c, v, pb_frame_crowd_trans_time(c, k), xf);
        if (st == PB_OK && whole)
            st = pb_frame_stages_run(c, v, PB_FM_CROSSFADE_STATIC, k, PB_FS_ADDITIVE, PB_FS_COUNT);
    }
    *us = (cpu_seconds() - t0) / F * 1e6;
    return st;
}

static pb_status op_block(const lctx *x, int i, int plain, int F, double *us)
{
    pb_status st = PB_OK;
    double t0 = cpu_seconds();
    for (int k = 0; k < F && st == PB_OK; k++) st = layer_run(x, i, plain);
    *us = (cpu_seconds() - t0) / F * 1e6;
    return st;
}

int bl_measure_cost(budget_res *R, pb_frame_crowd *c)
{
    long reps = R->reps;
    int F = (int)R->frames;
    enum { SLOTS = 2 * BL_NOPS + 2 * BL_NFORMS };   /* masked and plain per op; cost and frame per form */
    double *sm = malloc(sizeof(double) * (size_t)reps * SLOTS);
    lctx x;
    bl_xf xf[BL_NFORMS];
    memset(xf, 0, sizeof xf);
    fprintf(stderr, "posebench budget: layers at %zu characters ...\n", c->characters);
    pb_status st = sm ? layer_ctx(&x, R, c) : pb_fail(PB_ERR_NOMEM, "layers: out of memory");
    for (int f = 0; f < BL_NFORMS && st == PB_OK; f++) st = bl_xf_init(&xf[f], c, f, BL_UPPER_FRACTION);
    if (st == PB_OK && cpu_seconds() <= 0) st = pb_fail(PB_ERR_PARAM, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    for (int i = 0; i < BL_NOPS && st == PB_OK; i++)   /* validated first calls, caches warm */
        for (int plain = 0; plain < 2 && st == PB_OK; plain++) st = layer_run(&x, i, plain);
    /* interleaved inside each repetition, as the methods: slow drifts of the machine hit every row alike */
    for (long r = 0; r < reps && st == PB_OK; r++) {
        for (int i = 0; i < BL_NOPS && st == PB_OK; i++)
            for (int plain = 0; plain < 2 && st == PB_OK; plain++) {
                double *slot = &sm[(size_t)(2 * i + plain) * (size_t)reps + (size_t)r];
                if (plain && (i == BL_NWAY_FAST || i == BL_NWAY_ACCURATE)) *slot = NAN;   /* no unmasked form */
                else st = op_block(&x, i, plain, F, slot);
            }
        for (int f = 0; f < BL_NFORMS && st == PB_OK; f++)
            for (int whole = 0; whole < 2 && st == PB_OK; whole++) {
                double *slot = &sm[(size_t)(2 * BL_NOPS + 2 * f + whole) * (size_t)reps + (size_t)r];
                st = form_block(c, R->v, &xf[f], whole, F, slot);
            }
    }
    int status = EXIT_OK;
    if (st != PB_OK) {
        fprintf(stderr, "posebench budget: layers: %s: %s\n", c->failed ? c->failed : "?", pb_last_error());
        status = st == PB_ERR_NOMEM ? EXIT_USAGE : EXIT_CHECK;
    } else {
        for (int i = 0; i < BL_NOPS; i++) {
            bl_op_row *row = &R->layer[i];
            row->us = budget_meas_of(&sm[(size_t)(2 * i) * (size_t)reps], reps);
            row->plain_us = budget_meas_of(&sm[(size_t)(2 * i + 1) * (size_t)reps], reps);
            if (i == BL_NWAY_FAST || i == BL_NWAY_ACCURATE)
                row->plain_us.median = row->plain_us.min = row->plain_us.max = NAN;
            row->bytes_per_joint = layer_bytes(i, (double)c->sc->joints, (double)c->characters);
        }
        for (int f = 0; f < BL_NFORMS; f++) {
            bl_form_row *row = &R->lform[f];
            row->cost = budget_meas_of(&sm[(size_t)(2 * BL_NOPS + 2 * f) * (size_t)reps], reps);
            row->frame = budget_meas_of(&sm[(size_t)(2 * BL_NOPS + 2 * f + 1) * (size_t)reps], reps);
            row->cost_v = bv_judge(&row->cost, R->budget, BV_NOISE_FLOOR);
            row->frame_v = bv_judge(&row->frame, R->budget, BV_NOISE_FLOOR);
        }
    }
    for (int f = 0; f < BL_NFORMS; f++) bl_xf_free(&xf[f]);
    if (sm) layer_ctx_free(&x);
    free(sm);
    return status;
}

int bl_measure_quality(budget_res *R, pb_frame_crowd *c)
{
    bl_xf xf[BL_NFORMS];
    bq_form forms[BL_NFORMS];
    bq_quality per_pair[BL_NFORMS * BUDGET_MAX_PAIRS], mean[BL_NFORMS];
    double vj, aj;   /* the source alone: bq_measure has them already */
    memset(xf, 0, sizeof xf);
    pb_status st = PB_OK;
    for (int f = 0; f < BL_NFORMS && st == PB_OK; f++) {
        st = bl_xf_init(&xf[f], c, f, BL_UPPER_FRACTION);
        forms[f] = (bq_form){ PB_FM_CROSSFADE_STATIC, bl_transition, &xf[f] };
    }
    if (st == PB_OK) {
        R->qlower = bl_lower_body(c->sc, xf[0].lower);
        st = bq_measure_forms(c, R->v, forms, BL_NFORMS, R->pairs, R->np, per_pair, mean, &vj, &aj);
    }
    for (int f = 0; f < BL_NFORMS; f++) bl_xf_free(&xf[f]);
    if (st != PB_OK) {
        fprintf(stderr, "posebench budget: layered quality: %s: %s\n", c->failed ? c->failed : "?", pb_last_error());
        return st == PB_ERR_NOMEM ? EXIT_USAGE : EXIT_CHECK;
    }
    for (int f = 0; f < BL_NFORMS; f++) {
        R->lform[f].q = mean[f];
        for (int p = 0; p < R->np; p++) R->lform[f].pq[p] = per_pair[f * R->np + p];
    }
    return EXIT_OK;
}
