/* test_budget_layers.c — `posebench budget`'s layers (cli/budget_layers.c) on
 * a small synthetic scene: the lower body is the legs' subtrees; the split
 * cross-fade with equal windows is the plain cross-fade bit for bit, and the
 * fast N-way cross-fade is the nlerp cross-fade to rounding (same formula:
 * weights 1 - w and w, the rotations summed in one hemisphere, normalized);
 * the cost rows of a tiny crowd are present and finite, with the bytes the
 * ops move. No timing is asserted. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "budget_layers.h"

enum { J = 32, SEED = 3, C = 3, NPAIRS = 2 };   /* a synthetic skeleton with two legs (some seeds have none) */

static void lower_body(const pb_scene *s)
{
    unsigned char lower[J];
    size_t n = bl_lower_body(s, lower);
    CHECK(s->leg[0][0] >= 0 && s->leg[1][0] >= 0, "the synthetic scene has legs");
    CHECK(n >= 6 && n < s->joints, "lower body: %zu of %zu joints", n, s->joints);
    for (int l = 0; l < 2 && s->leg[0][0] >= 0; l++)
        for (int i = 0; i < 3; i++) CHECK(lower[s->leg[l][i]], "leg %d joint %d is lower body", l, i);
    size_t below = 0;   /* every lower joint is a leg root or the child of a lower joint */
    for (size_t j = 0; j < s->joints; j++)
        below += lower[j] && ((int)j == s->leg[0][0] || (int)j == s->leg[1][0] ||
                              (s->parents[j] >= 0 && lower[s->parents[j]]));
    CHECK(below == n, "lower body closed under children: %zu of %zu", below, n);
    pb_scene none = *s;
    none.leg[0][0] = none.leg[1][0] = -1;
    CHECK(bl_lower_body(&none, lower) == 0, "no legs: no lower body");
}

static int same_quality(const bq_quality *a, const bq_quality *b, double tol)
{
    return fabs(a->vel_jump - b->vel_jump) <= tol && fabs(a->ang_jump - b->ang_jump) <= tol &&
           fabs(a->dev_cm - b->dev_cm) <= tol && fabs(a->dev_deg - b->dev_deg) <= tol &&
           fabs(a->range_deg - b->range_deg) <= tol;
}
static int finite_quality(const bq_quality *q)
{
    return isfinite(q->vel_jump) && isfinite(q->ang_jump) && isfinite(q->dev_cm) && isfinite(q->dev_deg) &&
           isfinite(q->range_deg);
}

/* forms: the two reference cross-fades, the split with equal windows, the split, the N-way cross-fades */
enum { F_SLERP, F_NLERP, F_SPLIT_EQUAL, F_SPLIT, F_NWAY_FAST, F_NWAY_ACCURATE, NF };

static void quality(const pb_scene *s)
{
    pb_frame_crowd c;
    pb_status st = pb_frame_crowd_init(&c, s, 1, PB_OP_sample_linear);
    CHECK(st == PB_OK, "crowd: %s", pb_last_error());
    if (st != PB_OK) return;
    bl_xf xf[NF];
    memset(xf, 0, sizeof xf);
    bq_form forms[NF] = { { PB_FM_CROSSFADE_STATIC, NULL, NULL }, { PB_FM_CROSSFADE_NLERP, NULL, NULL } };
    const int kind[NF] = { 0, 0, BL_SPLIT, BL_SPLIT, BL_NWAY2_FAST, BL_NWAY2_ACCURATE };
    for (int f = F_SPLIT_EQUAL; f < NF; f++) {
        st = bl_xf_init(&xf[f], &c, kind[f], f == F_SPLIT_EQUAL ? 1.0f : BL_UPPER_FRACTION);
        CHECK(st == PB_OK, "form %d: %s", f, pb_last_error());
        forms[f] = (bq_form){ PB_FM_CROSSFADE_STATIC, bl_transition, &xf[f] };
    }
    bl_xf bad;
    CHECK(bl_xf_init(&bad, &c, BL_NFORMS, 1.0f) == PB_ERR_PARAM, "an unknown form is refused");
    const bq_pair pairs[NPAIRS] = { { 0, 0.3f, 1, 0.5f }, { 1, 0.4f, 0, 1.0f } };
    bq_quality per[NF * NPAIRS], mean[NF];
    double vj, aj;
    st = bq_measure_forms(&c, NULL, forms, NF, pairs, NPAIRS, per, mean, &vj, &aj);
    CHECK(st == PB_OK, "quality: %s: %s", c.failed ? c.failed : "?", pb_last_error());
    if (st == PB_OK) {
        for (int p = 0; p < NPAIRS; p++) {
            /* alpha 1 x a mask of smoothstep(t / T) is the cross-fade's alpha to the bit: same poses */
            CHECK(same_quality(&per[F_SPLIT_EQUAL * NPAIRS + p], &per[F_SLERP * NPAIRS + p], 0.0),
                  "pair %d: the split with equal windows is the slerp cross-fade exactly (dev %.9g vs %.9g cm)", p,
                  per[F_SPLIT_EQUAL * NPAIRS + p].dev_cm, per[F_SLERP * NPAIRS + p].dev_cm);
            /* float rounding of ~1e-7 m in positions, differenced twice over 1/60 s, stays far below 1e-3 */
            CHECK(same_quality(&per[F_NWAY_FAST * NPAIRS + p], &per[F_NLERP * NPAIRS + p], 1e-3),
                  "pair %d: the fast N-way cross-fade is the nlerp cross-fade (jump %.6g vs %.6g m/s)", p,
                  per[F_NWAY_FAST * NPAIRS + p].vel_jump, per[F_NLERP * NPAIRS + p].vel_jump);
        }
        for (int f = 0; f < NF; f++)
            CHECK(finite_quality(&mean[f]) && mean[f].dev_cm > 0, "form %d: finite quality", f);
        /* the upper body finishing in half the window: a different motion from the cross-fade's */
        CHECK(fabs(mean[F_SPLIT].dev_cm - mean[F_SLERP].dev_cm) > 1e-3, "the split differs from the cross-fade");
    }
    for (int f = 0; f < NF; f++) bl_xf_free(&xf[f]);
    pb_frame_crowd_free(&c);
}

/* The cost rows on a crowd of C characters, one frame a repetition: present, finite, the ops' bytes. */
static void cost(const pb_scene *s)
{
    budget_res R;
    memset(&R, 0, sizeof R);
    R.budget = 500, R.duration = 0.3, R.halflife = 0.1, R.joints = J, R.frames = 1, R.reps = 1, R.characters = C;
    R.cost_scene = s, R.sampler = PB_OP_sample_linear;
    CHECK(pb_variant_active(&R.v) == PB_OK, "variant: %s", pb_last_error());
    pb_frame_crowd c;
    pb_status st = pb_frame_crowd_init(&c, s, C, PB_OP_sample_linear);
    CHECK(st == PB_OK, "crowd: %s", pb_last_error());
    if (st != PB_OK) return;
    st = pb_frame_sample(&c, R.v, 0, 0);
    if (st == PB_OK) st = pb_frame_sample(&c, R.v, 1, 0);
    if (st == PB_OK) st = pb_frame_begin(&c, R.v, PB_FM_CROSSFADE_STATIC);
    if (st == PB_OK) st = pb_frame_step(&c, R.v, PB_FM_CROSSFADE_STATIC, 0);
    CHECK(st == PB_OK, "crowd ready: %s", pb_last_error());
    int e = bl_measure_cost(&R, &c);
    CHECK(e == 0, "bl_measure_cost: exit %d", e);
    unsigned char lower[J];
    CHECK(R.lower == bl_lower_body(s, lower), "the rows' lower body is the scene's");
    /* 40 B per static pose (pos, rot, scl), 76 B with velocities; a mask float per joint shared by the C
     * characters, a weight per character shared by the J joints */
    const double want[BL_NOPS] = { 120 + 4.0 / C + 4.0 / J, 120 + 4.0 / C + 4.0 / J, 3 * 76 + 4.0 / C,
                                   120 + 4.0 / C, 120 + 4.0 / C,
                                   (BL_K + 1) * 40 + 4.0 * BL_K / J, (BL_K + 1) * 40 + 4.0 * BL_K / J };
    for (int i = 0; i < BL_NOPS; i++) {
        const bl_op_row *r = &R.layer[i];
        int nway = i == BL_NWAY_FAST || i == BL_NWAY_ACCURATE;
        /* timed: finite and ordered (never how long: no timing is asserted) */
        CHECK(bl_op_info(i) && isfinite(r->us.median) && r->us.min >= 0 && r->us.min <= r->us.median &&
              r->us.median <= r->us.max, "%s: %g us", bl_op_info(i) ? bl_op_info(i)->key : "?", r->us.median);
        CHECK(nway ? isnan(r->plain_us.median) : isfinite(r->plain_us.median) && r->plain_us.median >= 0,
              "%s: the uniform form timed (%g us) when there is one", bl_op_info(i)->key, r->plain_us.median);
        CHECK(fabs(r->bytes_per_joint - want[i]) < 1e-9, "%s: %g B/joint, want %g", bl_op_info(i)->key,
              r->bytes_per_joint, want[i]);
    }
    CHECK(bl_op_info(BL_NOPS) == NULL && bl_form_info(BL_NFORMS) == NULL && bl_op_info(-1) == NULL,
          "no row past the tables");
    for (int f = 0; f < BL_NFORMS; f++) {
        const bl_form_row *r = &R.lform[f];
        CHECK(bl_form_info(f) && isfinite(r->cost.median) && r->cost.min >= 0 && isfinite(r->frame.median) &&
              r->frame.min >= 0 && bv_word(r->cost_v) && bv_word(r->frame_v), "%s: cost %g, frame %g us",
              bl_form_info(f) ? bl_form_info(f)->key : "?", r->cost.median, r->frame.median);
    }
    pb_frame_crowd_free(&c);
}

int main(void)
{
    pb_scene s;
    pb_status st = pb_scene_synthetic(&s, J, SEED);
    CHECK(st == PB_OK, "scene: %s", pb_last_error());
    if (st != PB_OK) return check_done();
    lower_body(&s);
    quality(&s);
    cost(&s);
    pb_scene_free(&s);
    return check_done();
}
