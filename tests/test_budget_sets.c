/* test_budget_sets.c — budget's interrupted transitions (cli/budget_sets.c) on a
 * synthetic scene: every method re-triggered every 3 to 9 frames, several times
 * in a row, and at the fastest rate (every 3 frames, 5 switches), plays with no
 * NaN or infinity (pb_quality_measure refuses them: every status is checked)
 * and stays bounded: every shown joint within 1 m of the box the source and
 * destination clips span over the window, the velocity pops finite and below
 * 100 m/s. The sets are seeded: the same seed makes the same set. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "budget_sets.h"

static bs_ctx x;
static bs_set set, again;

static void bounded(const bs_trans *t, pb_frame_method m)
{
    pb_clip out, src, dst;
    pb_status st = bs_play(&x, m, t, &out, &src, &dst);
    CHECK(st == PB_OK, "%s: %s", pb_frame_method_get(m)->key, pb_last_error());
    if (st == PB_OK) {
        size_t J = out.joints, n = out.frames * J;
        double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY }, worst = 0;
        for (size_t e = 0; e < n; e++)
            for (int c = 0; c < 3; c++) {
                double a = src.pose.plane[PB_POS_X + c][e], b = dst.pose.plane[PB_POS_X + c][e];
                lo[c] = -dmax(-lo[c], dmax(-a, -b));   /* dmax, not fmin/fmax: check.h (aarch64 gcc 12 ICE) */
                hi[c] = dmax(hi[c], dmax(a, b));
            }
        for (size_t e = 0; e < n; e++)
            for (int c = 0; c < 3; c++) {
                double v = out.pose.plane[PB_POS_X + c][e], d = v < lo[c] ? lo[c] - v : v > hi[c] ? v - hi[c] : 0;
                if (!(d <= worst)) worst = isfinite(d) ? d : INFINITY;
            }
        CHECK(worst < 1.0, "%s: a joint %.3f m outside the clips' box", pb_frame_method_get(m)->key, worst);
    }
    pb_clip_free(&out);
    pb_clip_free(&src);
    pb_clip_free(&dst);
}

int main(void)
{
    pb_scene sc;
    CHECK(pb_scene_synthetic(&sc, 24, 77) == PB_OK, "%s", pb_last_error());
    CHECK(pb_variant_active(&x.v) == PB_OK, "variant: %s", pb_last_error());
    x.sampler = PB_OP_sample_linear;
    x.halflife = 0.1f;
    CHECK(bs_scene_add(&x, &sc, "synthetic", 0) == PB_OK, "%s", pb_last_error());
    pb_frame_method methods[PB_FM_COUNT];
    for (int m = 0; m < PB_FM_COUNT; m++) methods[m] = (pb_frame_method)m;

    bs_make_interrupted(&x, &set, 11, 0.3f, 5);
    bs_make_interrupted(&x, &again, 11, 0.3f, 5);
    CHECK(set.nt > 0 && memcmp(set.t, again.t, sizeof set.t) == 0, "seeded: %d transitions, the same twice", set.nt);
    for (int i = 0; i < set.nt; i++) {
        CHECK(set.t[i].nseg == 6, "transition %d: %d segments", i, set.t[i].nseg);
        for (int k = 2; k < set.t[i].nseg; k++) {
            int gap = set.t[i].start[k] - set.t[i].start[k - 1];
            CHECK(gap >= 3 && gap <= 9 && gap * PB_FRAME_DT < set.t[i].duration, "gap %d frames: 0.05-0.15 s, before the end", gap);
        }
    }
    /* the fastest re-triggering: every 3 frames (0.05 s) */
    bs_trans *f = &set.t[set.nt < BS_MAX_TRANS ? set.nt++ : set.nt - 1];
    *f = set.t[0];
    for (int k = 2; k < f->nseg; k++) f->start[k] = f->start[k - 1] + 3;
    f->frames = f->start[f->nseg - 1] + 20;
    pb_status st = bs_measure(&x, &set, methods, PB_FM_COUNT);
    CHECK(st == PB_OK, "every method through the interrupted set: %s", pb_last_error());
    for (int m = 0; st == PB_OK && m < PB_FM_COUNT; m++) {
        for (int q = 0; q < PB_QM_COUNT; q++)
            CHECK(isfinite(set.s[m][q].med) && isfinite(set.s[m][q].p90), "%s %s finite",
                  pb_frame_method_get(methods[m])->key, pb_quality_metric_name((pb_quality_metric)q));
        if (methods[m] != PB_FM_CUT)
            CHECK(set.s[m][PB_QM_POP_VEL].p90 < 100, "%s: velocity pop %g m/s", pb_frame_method_get(methods[m])->key,
                  set.s[m][PB_QM_POP_VEL].p90);
    }
    for (int i = 0; i < set.nt; i++)
        for (int m = 0; m < PB_FM_COUNT; m++) bounded(&set.t[i], methods[m]);
    bs_ctx_free(&x);
    pb_scene_free(&sc);
    return check_done();
}
