/* test_clip_turns.c — a clip's key-to-key turns (pb_clip_turns) and the
 * sampler that reads them (sample_linear_turns):
 * - the table's invariants, not from the reference: each turn a unit
 *   quaternion on the shorter arc that takes its key to the next one, its
 *   |v| and half angle consistent, the last frame's the identity;
 * - bad clips and tables refused, the table untouched;
 * - in every variant, sample_linear_turns agrees with sample_linear (the
 *   same slerp, the turn rounded once in double instead of per character in
 *   float) on crowds of every path, static and with velocities;
 * - pb_run and the crowd builder refuse a missing or mis-sized table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "pose_check.h"
#include "validate.h"
#include "all_variants.h"

#define F 9
#define J 40

static double qdot(const pb_pose *a, size_t i, const pb_pose *b, size_t j)
{
    double d = 0;
    for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) d += (double)a->plane[p][i] * b->plane[p][j];
    return d;
}

/* The invariants of every element of t, the turns of clip c. */
static void table_invariants(const pb_clip *c, const pb_pose *t)
{
    double worst_unit = 0, worst_map = 0, worst_s = 0, worst_h = 0, worst_w = 0, last = 0;
    size_t negative_w = 0;
    for (size_t e = 0; e < c->pose.n; e++) {
        double w = t->plane[PB_ROT_W][e], x = t->plane[PB_ROT_X][e], y = t->plane[PB_ROT_Y][e], z = t->plane[PB_ROT_Z][e];
        negative_w += w < 0;
        worst_unit = fmax(worst_unit, fabs(sqrt(w * w + x * x + y * y + z * z) - 1));
        double sv = sqrt(x * x + y * y + z * z);
        worst_s = fmax(worst_s, fabs(t->plane[PB_POS_X][e] - sv));
        worst_h = fmax(worst_h, fabs(t->plane[PB_POS_Y][e] - atan2(sv, w)));
        size_t e2 = e + J < c->pose.n ? e + J : e;
        if (e2 == e) {   /* the last frame: the identity */
            last = fmax(last, fabs(w - 1) + sv);
            continue;
        }
        /* t key(e) is key(e2) or its negation (the same rotation) */
        float *const *k = c->pose.plane;
        double kw = k[PB_ROT_W][e], kx = k[PB_ROT_X][e], ky = k[PB_ROT_Y][e], kz = k[PB_ROT_Z][e];
        double r[4] = { w * kw - x * kx - y * ky - z * kz, w * kx + x * kw + y * kz - z * ky,
                        w * ky - x * kz + y * kw + z * kx, w * kz + x * ky - y * kx + z * kw };
        double dp = 0, dm = 0;
        for (int q = 0; q < 4; q++) {
            double n = k[PB_ROT_W + q][e2];
            dp += (r[q] - n) * (r[q] - n);
            dm += (r[q] + n) * (r[q] + n);
        }
        worst_map = fmax(worst_map, sqrt(fmin(dp, dm)));
        /* the shorter arc: w = |key(e2) . key(e)| */
        worst_w = fmax(worst_w, fabs(w - fabs(qdot(&c->pose, e2, &c->pose, e))));
    }
    CHECK(negative_w == 0, "turns: %zu elements not on the shorter arc", negative_w);
    CHECK(worst_unit < 1e-6 && worst_map < 2e-6 && worst_s < 1e-6 && worst_h < 1e-6 && worst_w < 1e-6 && last < 1e-6,
          "turns: |t| - 1 %.3g, t key - next key %.3g, |v| %.3g, half angle %.3g, w vs |dot| %.3g, last frame %.3g",
          worst_unit, worst_map, worst_s, worst_h, worst_w, last);
}

/* sample_linear_turns against sample_linear: a crowd of nch characters at scattered times. */
static void turns_vs_linear(const pb_variant *v, const pb_clip *clip, const pb_pose *turns, size_t nch, int stat)
{
    pb_pose a, b;
    int ok = stat ? pb_pose_alloc_static(&a, J * nch) == PB_OK && pb_pose_alloc_static(&b, J * nch) == PB_OK
                  : poses_alloc(J * nch, 2, &a, &b);
    CHECK(ok, "crowd poses");
    if (!ok) return;
    float *off = malloc(nch * sizeof *off);
    CHECK(off != NULL, "offsets");
    if (!off) return;
    for (size_t c = 0; c < nch; c++) off[c] = (float)((c * 7919) % 97) / 96.0f * 0.35f - 0.02f;
    pb_call lin = { .out = &a, .clip = clip, .offsets = off, .params = { .time = 0.01f } };
    pb_call tn = { .out = &b, .clip = clip, .b = turns, .offsets = off, .params = { .time = 0.01f } };
    CHECK(pb_run(PB_OP_sample_linear, v, &lin) == PB_OK && pb_run(PB_OP_sample_linear_turns, v, &tn) == PB_OK,
          "%s, %zu characters: %s", pb_variant_name(v), nch, pb_last_error());
    pose_gap g = { 0, 0, 0 };   /* pos, rot, scl; the rates below, relative */
    for (size_t e = 0; e < a.n; e++) pose_gap_add(&g, &a, e, &b, e, 0);
    /* both within ~4e-7 rad of the double oracle (validate); rates up to pi x 30 / s: 1e-5 relative */
    double rate = 0;
    for (int p = PB_VEL_X; !stat && p < PB_PLANES; p++)
        for (size_t e = 0; e < a.n; e++) {   /* (an if, not fmax: gcc 12 for aarch64 crashed vectorizing fmax here) */
            double d = fabs(a.plane[p][e] - b.plane[p][e]) / fmax(1.0, fabs(a.plane[p][e]));
            if (d > rate) rate = d;
        }
    CHECK(pose_gap_within(g, 2e-6, 1e-6, 1e-6) && rate < 1e-5,
          "%s, %zu characters%s: sample_linear_turns vs sample_linear " POSE_GAP_FMT ", rates %.3g", pb_variant_name(v),
          nch, stat ? " (static)" : "", POSE_GAP_ARGS(g), rate);
    free(off);
    pb_pose_free(&a);
    pb_pose_free(&b);
}

static void errors(pb_clip *clip, pb_pose *turns)
{
    CHECK(pb_clip_turns(NULL, turns) == PB_ERR_NULL && pb_clip_turns(clip, NULL) == PB_ERR_NULL, "NULL arguments");
    pb_pose small;
    CHECK(pb_pose_alloc(&small, clip->pose.n - 1) == PB_OK, "small pose");
    CHECK(pb_clip_turns(clip, &small) == PB_ERR_SIZE && strstr(pb_last_error(), "frames"), "short table: %s",
          pb_last_error());
    CHECK(pb_clip_turns(clip, &clip->pose) == PB_ERR_ALIAS, "the clip's own pose: %s", pb_last_error());
    /* a NaN key: refused, named, nothing written */
    float keep = clip->pose.plane[PB_ROT_Y][3 * J + 2], first = turns->plane[PB_ROT_X][0];
    clip->pose.plane[PB_ROT_Y][3 * J + 2] = NAN;
    turns->plane[PB_ROT_X][0] = 7.0f;
    CHECK(pb_clip_turns(clip, turns) == PB_ERR_PARAM && strstr(pb_last_error(), "frame 3, joint 2") &&
              turns->plane[PB_ROT_X][0] == 7.0f,
          "NaN key: %s", pb_last_error());
    clip->pose.plane[PB_ROT_Y][3 * J + 2] = keep;
    turns->plane[PB_ROT_X][0] = first;
    CHECK(pb_clip_turns(clip, turns) == PB_OK, "the clip again: %s", pb_last_error());
    /* pb_run: no table, a table of another clip's size */
    pb_pose out;
    float off[3] = { 0, 0.1f, 0.2f };
    CHECK(poses_alloc(J * 3, 1, &out), "out");
    pb_call call = { .out = &out, .clip = clip, .offsets = off };
    CHECK(pb_run(PB_OP_sample_linear_turns, NULL, &call) == PB_ERR_NULL, "no turns: %s", pb_last_error());
    call.b = &small;
    CHECK(pb_run(PB_OP_sample_linear_turns, NULL, &call) == PB_ERR_SIZE && strstr(pb_last_error(), "pb_clip_turns"),
          "mis-sized turns: %s", pb_last_error());
    /* the crowd builder: turns with the cubic sampler, a NULL or mis-sized table */
    const pb_clip *clips[1] = { clip };
    const pb_pose *tabs[1] = { turns };
    pb_crowd_builder cb;
    pb_crowd_desc d = { .clips = clips, .nclips = 1, .characters = 3, .offsets = off, .method = PB_SAMPLE_CUBIC,
                        .turns = tabs };
    CHECK(pb_crowd_builder_init(&cb, &d) == PB_ERR_PARAM, "turns with the cubic sampler: %s", pb_last_error());
    d.method = PB_SAMPLE_LINEAR;
    tabs[0] = NULL;
    CHECK(pb_crowd_builder_init(&cb, &d) == PB_ERR_NULL, "a NULL table: %s", pb_last_error());
    tabs[0] = &small;
    CHECK(pb_crowd_builder_init(&cb, &d) == PB_ERR_SIZE, "a mis-sized table: %s", pb_last_error());
    /* with the right table: what sample_linear_turns gives, bit for bit */
    tabs[0] = turns;
    pb_pose direct;
    CHECK(poses_alloc(J * 3, 1, &direct), "direct");
    call.b = turns;
    call.out = &direct;
    CHECK(pb_crowd_builder_init(&cb, &d) == PB_OK && pb_crowd_build(&cb, 0.0f, &out) == PB_OK &&
              pb_run(PB_OP_sample_linear_turns, NULL, &call) == PB_OK,
          "crowd with turns: %s", pb_last_error());
    size_t differ = 0;
    for (int p = 0; p < PB_PLANES; p++) differ += memcmp(out.plane[p], direct.plane[p], out.n * sizeof(float)) != 0;
    CHECK(differ == 0, "the crowd builder with turns: %zu planes differ from sample_linear_turns", differ);
    pb_crowd_builder_free(&cb);
    pb_pose_free(&direct);
    pb_pose_free(&out);
    pb_pose_free(&small);
}

int main(void)
{
    pb_clip clip;
    pb_pose dummy, turns, tstat;
    CHECK(pb_clip_alloc(&clip, F, J, 30.0f) == PB_OK && poses_alloc(F * J, 2, &dummy, &turns) &&
              pb_pose_alloc_static(&tstat, F * J) == PB_OK,
          "clip");
    if (!clip.pose.n || !turns.n || !tstat.n) return check_done();
    pb_gen_case(&clip.pose, &dummy, PB_CLASS_RANDOM, 5, pb_op_get(PB_OP_sample_linear));
    /* an antipodal pair (q and -q: no turn) and a repeated key */
    for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) {
        clip.pose.plane[p][2 * J + 1] = -clip.pose.plane[p][1 * J + 1];
        clip.pose.plane[p][5 * J + 4] = clip.pose.plane[p][4 * J + 4];
    }
    CHECK(pb_clip_turns(&clip, &turns) == PB_OK && pb_clip_turns(&clip, &tstat) == PB_OK, "turns: %s", pb_last_error());
    table_invariants(&clip, &turns);
    double zero_turn = fabs(turns.plane[PB_POS_X][1 * J + 1]) + fabs(turns.plane[PB_POS_X][4 * J + 4]);
    CHECK(zero_turn < 1e-7, "q to -q and a repeated key: no turn (|v| %.3g)", zero_turn);
    size_t vel_planes = 0;   /* nonzero values */
    for (int p = PB_VEL_X; p < PB_PLANES; p++)
        for (size_t e = 0; e < turns.n; e++) vel_planes += turns.plane[p][e] != 0.0f;
    CHECK(vel_planes == 0 && memcmp(turns.plane[PB_ROT_X], tstat.plane[PB_ROT_X], turns.n * sizeof(float)) == 0,
          "the velocity planes 0, a static table the same");
    static const size_t crowds[] = { 1, 3, 16, 21, 37 };
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        for (size_t c = 0; c < sizeof crowds / sizeof crowds[0]; c++)
            for (int stat = 0; stat < 2; stat++) turns_vs_linear(v, &clip, stat ? &tstat : &turns, crowds[c], stat);
    }
    errors(&clip, &turns);
    pb_pose_free(&tstat);
    pb_pose_free(&turns);
    pb_pose_free(&dummy);
    pb_clip_free(&clip);
    return check_done();
}
