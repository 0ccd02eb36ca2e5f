/* test_kinematics.c — fk and bk over skeletons: bk(fk(local)) = local in every
 * variant, on both fk paths (crowd: characters >= lanes; level schedule:
 * fewer), in place too; fk of a known chain; skeletons with bad parent
 * arrays are refused with the joint named. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "validate.h"
#include "all_variants.h"

static double max_diff(const pb_pose *x, const pb_pose *y)
{
    double m = 0;
    for (int p = 0; p < PB_PLANES; p++)
        for (size_t i = 0; i < x->n; i++) {
            double d = fabs((double)x->plane[p][i] - y->plane[p][i]);
            /* q and -q: compare rotations through |dot| instead */
            if (p >= PB_ROT_W && p <= PB_ROT_Z) continue;
            m = dmax(m, d);
        }
    for (size_t i = 0; i < x->n; i++) {
        double dot = 0;
        for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) dot += (double)x->plane[p][i] * y->plane[p][i];
        m = dmax(m, 1 - fabs(dot));
    }
    return m;
}

static int same_pose(const pb_pose *x, const pb_pose *y)
{
    for (int p = 0; p < PB_PLANES; p++)
        if (memcmp(x->plane[p], y->plane[p], x->n * sizeof(float))) return 0;
    return 1;
}

static void round_trip(const pb_variant *v, size_t joints, size_t chars, uint64_t seed)
{
    int32_t *parents = malloc(joints * sizeof *parents);
    pb_gen_parents(parents, joints, 16, seed);
    pb_skeleton sk;
    CHECK(pb_skeleton_init(&sk, parents, joints, chars) == PB_OK, "skeleton: %s", pb_last_error());
    pb_pose local, global, back, dummy;
    size_t n = joints * chars;
    pb_pose_alloc(&local, n); pb_pose_alloc(&global, n); pb_pose_alloc(&back, n); pb_pose_alloc(&dummy, n);
    const pb_op_info *info = pb_op_get(PB_OP_fk);
    pb_gen_case(&local, &dummy, PB_CLASS_RANDOM, seed, info);
    pb_gen_bone_scale(&local);
    pb_call fk = { .a = &local, .out = &global, .skel = &sk }, bk = { .a = &global, .out = &back, .skel = &sk };
    CHECK(pb_run(PB_OP_fk, v, &fk) == PB_OK, "fk: %s", pb_last_error());
    CHECK(pb_run(PB_OP_bk, v, &bk) == PB_OK, "bk: %s", pb_last_error());
    double d = max_diff(&local, &back);
    /* globals reach a few metres: a few ulp there, divided back by scales ~1 */
    CHECK(d < 2e-5, "%s %zu joints x %zu: bk(fk(local)) differs by %.3g", pb_variant_name(v), joints, chars, d);
    /* in place: fk then bk on one pose */
    pb_pose_copy(&back, &local);
    pb_call fk_in = { .a = &back, .out = &back, .skel = &sk }, bk_in = { .a = &back, .out = &back, .skel = &sk };
    CHECK(pb_run(PB_OP_fk, v, &fk_in) == PB_OK && same_pose(&back, &global), "%s fk in place equals fk",
          pb_variant_name(v));
    CHECK(pb_run(PB_OP_bk, v, &bk_in) == PB_OK && max_diff(&back, &local) < 2e-5, "%s bk in place",
          pb_variant_name(v));
    pb_pose_free(&local); pb_pose_free(&global); pb_pose_free(&back); pb_pose_free(&dummy);
    pb_skeleton_free(&sk);
    free(parents);
}

int main(void)
{
    /* a known chain: three joints 1 m apart along x, each turning 90 deg about z */
    int32_t chain[3] = { -1, 0, 1 };
    pb_skeleton sk;
    CHECK(pb_skeleton_init(&sk, chain, 3, 1) == PB_OK, "chain");
    CHECK(sk.levels == 3, "levels %zu", sk.levels);
    pb_pose l, g;
    pb_pose_alloc(&l, 3);
    pb_pose_alloc(&g, 3);
    for (size_t j = 0; j < 3; j++) {
        l.plane[PB_POS_X][j] = j ? 1.0f : 0.0f;
        l.plane[PB_ROT_W][j] = (float)cos(0.78539816339744831);
        l.plane[PB_ROT_Z][j] = (float)sin(0.78539816339744831);
    }
    CHECK(pb_fk(&sk, &l, &g) == PB_OK, "fk");
    /* joint 1 at (0, 1, 0) (x turned by 90), joint 2 at (-1, 1, 0) */
    CHECK(fabs(g.plane[PB_POS_X][1]) < 1e-6 && fabs(g.plane[PB_POS_Y][1] - 1) < 1e-6, "joint 1 at (%g, %g)",
          g.plane[PB_POS_X][1], g.plane[PB_POS_Y][1]);
    CHECK(fabs(g.plane[PB_POS_X][2] + 1) < 1e-6 && fabs(g.plane[PB_POS_Y][2] - 1) < 1e-6, "joint 2 at (%g, %g)",
          g.plane[PB_POS_X][2], g.plane[PB_POS_Y][2]);

    /* argument errors */
    int32_t bad1[3] = { -1, 1, 0 }, bad2[3] = { -1, -2, 0 }, bad3[3] = { -1, 0, 5 };
    pb_skeleton b;
    CHECK(pb_skeleton_init(&b, bad1, 3, 1) == PB_ERR_PARAM && strstr(pb_last_error(), "joint 1"), "self parent: %s",
          pb_last_error());
    CHECK(pb_skeleton_init(&b, bad2, 3, 1) == PB_ERR_PARAM && strstr(pb_last_error(), "joint 1"), "parent -2");
    CHECK(pb_skeleton_init(&b, bad3, 3, 1) == PB_ERR_PARAM && strstr(pb_last_error(), "joint 2"), "later parent");
    CHECK(pb_skeleton_init(&b, NULL, 3, 1) == PB_ERR_NULL, "NULL parents");
    CHECK(pb_skeleton_init(&b, chain, 0, 1) == PB_ERR_EMPTY, "0 joints");
    CHECK(pb_skeleton_init(&b, chain, 3, 0) == PB_ERR_EMPTY, "0 characters");
    CHECK(pb_skeleton_init(&b, chain, (size_t)PB_MAX_JOINTS + 1, 1) == PB_ERR_SIZE, "too many joints");
    pb_skeleton_free(&b);
    CHECK(pb_fk(NULL, &l, &g) == PB_ERR_NULL && strstr(pb_last_error(), "skel"), "fk without skeleton");
    pb_pose four;
    pb_pose_alloc(&four, 4);
    CHECK(pb_fk(&sk, &l, &four) == PB_ERR_SIZE, "fk out size mismatch");
    CHECK(pb_fk(&sk, &four, &four) == PB_ERR_SIZE && strstr(pb_last_error(), "3 joints x 1 characters"),
          "skeleton/pose mismatch: %s", pb_last_error());
    pb_pose_free(&four);
    pb_pose_free(&l);
    pb_pose_free(&g);
    pb_skeleton_free(&sk);

    /* round trips: level path (1, 3 characters) and crowd path (16, 21) in every variant */
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        round_trip(v, 64, 1, 1);
        round_trip(v, 64, 3, 2);
        round_trip(v, 64, 16, 3);
        round_trip(v, 40, 21, 4);
    }
    return check_done();
}
