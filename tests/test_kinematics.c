/* test_kinematics.c — fk and bk over skeletons: bk(fk(local)) = local in every
 * variant, on both fk paths (crowd: characters >= lanes; level schedule:
 * fewer), in place too; fk_static, fk and bk of every variant against the
 * scalar reference over small shapes (the few-characters record path), in
 * place and keeping the pose padding identity; the chain schedule of that
 * path (every element once, parents before children); fk of a known chain; skeletons
 * with bad parent arrays are refused with the joint named. Skeletons and
 * locals come from the harness's case builder (pb_case_fill), as validation's do. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "pose_check.h"
#include "validate.h"
#include "all_variants.h"

/* Rotations after fk/bk: up to 16 levels of composition, each a few float
 * roundings (~1e-7 rad; measured at most 1.1e-6 rad over every shape and
 * variant); the old 1 - |dot| < 2e-5 allowed 0.7 degrees. */
#define ROT_EPS 1e-5

/* x and y agree: rotations within ROT_EPS radians, pos/velocities within lin, scales relatively. */
static int near(const pb_pose *x, const pb_pose *y, double lin, pose_gap *g)
{
    *g = pose_gap_of(x, y);
    if (getenv("PB_TEST_VERBOSE")) printf("gap " POSE_GAP_FMT "\n", POSE_GAP_ARGS(*g));
    return pose_gap_within(*g, ROT_EPS, lin, lin);
}

static int same_pose(const pb_pose *x, const pb_pose *y)
{
    for (int p = 0; p < PB_PLANES; p++)
        if (memcmp(x->plane[p], y->plane[p], x->n * sizeof(float))) return 0;
    return 1;
}

/* A skeleton case as validation and the benchmarks build it (pb_case_fill):
 * random parents (depth < 16; < 24 over 64 joints), locals in x at bone scale
 * from seed for op (y: the case's other pose). 1, or 0 after a failed check. */
static int skeleton_case(pb_skeleton *sk, pb_pose *x, pb_pose *y, pb_op op, size_t joints, size_t chars, uint64_t seed)
{
    pb_vcase cs = { .cls = PB_CLASS_RANDOM, .n = joints * chars, .joints = joints, .characters = chars };
    pb_case_bufs io = { .a = x, .b = y, .skel = sk };
    pb_status s = pb_case_fill(&io, &cs, pb_op_get(op), NULL, seed, 0);
    CHECK(s == PB_OK, "%s case of %zu joints x %zu: %s", pb_op_get(op)->name, joints, chars, pb_last_error());
    return s == PB_OK;
}

static void round_trip(const pb_variant *v, size_t joints, size_t chars, uint64_t seed)
{
    pb_skeleton sk;
    pb_pose local, global, back, dummy;
    size_t n = joints * chars;
    if (!poses_alloc(n, 4, &local, &global, &back, &dummy)) return;
    if (!skeleton_case(&sk, &local, &dummy, PB_OP_fk, joints, chars, seed)) {
        pb_pose_free(&local); pb_pose_free(&global); pb_pose_free(&back); pb_pose_free(&dummy);
        return;
    }
    pb_call fk = { .a = &local, .out = &global, .skel = &sk }, bk = { .a = &global, .out = &back, .skel = &sk };
    CHECK(pb_run(PB_OP_fk, v, &fk) == PB_OK, "fk: %s", pb_last_error());
    CHECK(pb_run(PB_OP_bk, v, &bk) == PB_OK, "bk: %s", pb_last_error());
    pose_gap g;
    /* globals reach a few metres: a few ulp there, divided back by scales ~1 */
    CHECK(near(&local, &back, 2e-5, &g), "%s %zu joints x %zu: bk(fk(local)) differs by " POSE_GAP_FMT,
          pb_variant_name(v), joints, chars, POSE_GAP_ARGS(g));
    /* in place: fk then bk on one pose */
    CHECK(pb_pose_copy(&back, &local) == PB_OK, "copy: %s", pb_last_error());
    pb_call fk_in = { .a = &back, .out = &back, .skel = &sk }, bk_in = { .a = &back, .out = &back, .skel = &sk };
    CHECK(pb_run(PB_OP_fk, v, &fk_in) == PB_OK && same_pose(&back, &global), "%s fk in place equals fk",
          pb_variant_name(v));
    CHECK(pb_run(PB_OP_bk, v, &bk_in) == PB_OK && near(&back, &local, 2e-5, &g), "%s bk in place: " POSE_GAP_FMT,
          pb_variant_name(v), POSE_GAP_ARGS(g));
    pb_pose_free(&local); pb_pose_free(&global); pb_pose_free(&back); pb_pose_free(&dummy);
    pb_skeleton_free(&sk);
}

/* fk_static, fk and bk of v against the scalar reference on joints x chars;
 * in place must equal out of place exactly, and padding lanes stay identity. */
static void against_reference(const pb_variant *v, const pb_variant *ref, size_t joints, size_t chars, uint64_t seed)
{
    size_t n = joints * chars;
    pb_pose in, dummy, want, got, inplace;
    if (!poses_alloc(n, 5, &in, &dummy, &want, &got, &inplace)) return;
    static const pb_op ops[] = { PB_OP_fk_static, PB_OP_fk, PB_OP_bk };
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        pb_skeleton sk;   /* each op its own skeleton and locals */
        if (!skeleton_case(&sk, &in, &dummy, ops[o], joints, chars, seed + o)) continue;
        if (ops[o] == PB_OP_bk) {   /* bk of globals: the fk of these locals */
            pb_call f = { .a = &in, .out = &in, .skel = &sk };
            CHECK(pb_run(PB_OP_fk, ref, &f) == PB_OK, "reference fk");
        }
        CHECK(pb_pose_copy(&want, &in) == PB_OK && pb_pose_copy(&got, &in) == PB_OK &&
                  pb_pose_copy(&inplace, &in) == PB_OK,
              "copy: %s", pb_last_error());
        pb_call cr = { .a = &in, .out = &want, .skel = &sk }, cv = { .a = &in, .out = &got, .skel = &sk };
        pb_call ci = { .a = &inplace, .out = &inplace, .skel = &sk };
        CHECK(pb_run(ops[o], ref, &cr) == PB_OK && pb_run(ops[o], v, &cv) == PB_OK && pb_run(ops[o], v, &ci) == PB_OK,
              "%s: %s", pb_op_get(ops[o])->name, pb_last_error());
        if (ops[o] == PB_OP_fk_static)   /* transforms only: the reference zeroes the rates, kernels skip them */
            for (int p = PB_VEL_X; p < PB_PLANES; p++) memcpy(want.plane[p], got.plane[p], n * sizeof(float));
        pose_gap g;
        /* globals reach a few metres through up to 16 levels (24 at 200 joints): a few ulp per level */
        CHECK(near(&want, &got, 5e-5, &g), "%s %s %zu joints x %zu: differs from the reference by " POSE_GAP_FMT,
              pb_variant_name(v), pb_op_get(ops[o])->name, joints, chars, POSE_GAP_ARGS(g));
        CHECK(same_pose(&got, &inplace), "%s %s %zu x %zu: in place differs", pb_variant_name(v),
              pb_op_get(ops[o])->name, joints, chars);
        int pad_ok = 1;
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t i = n; i < got.stride; i++)
                pad_ok &= got.plane[p][i] == pb_plane_identity(p) && inplace.plane[p][i] == pb_plane_identity(p);
        CHECK(pad_ok, "%s %s %zu x %zu: padding is not identity", pb_variant_name(v), pb_op_get(ops[o])->name, joints,
              chars);
        pb_skeleton_free(&sk);
    }
    pb_pose_free(&in); pb_pose_free(&dummy); pb_pose_free(&want); pb_pose_free(&got); pb_pose_free(&inplace);
}

/* The chain schedule of the few-characters path: every element written by
 * exactly one step, each lane's chain continuing from its own previous
 * element, and every chain start reading a parent finished at an earlier step. */
static void chain_schedule(size_t joints, size_t chars, uint64_t seed)
{
    int32_t *parents = malloc(joints * sizeof *parents);
    CHECK(parents != NULL, "out of memory");
    if (!parents) return;
    pb_gen_parents(parents, joints, 16, seed);
    pb_skeleton sk;
    CHECK(pb_skeleton_init(&sk, parents, joints, chars) == PB_OK, "skeleton: %s", pb_last_error());
    size_t n = sk.n;
    int32_t *done = malloc(n * sizeof *done);
    CHECK(done != NULL, "out of memory");
    if (!done) {
        pb_skeleton_free(&sk);
        free(parents);
        return;
    }
    for (size_t e = 0; e < n; e++) done[e] = -1;
    int32_t prev[PB_FEW_LANES] = { PB_FEW_ID, PB_FEW_ID, PB_FEW_ID, PB_FEW_ID };
    int ok = sk.few_steps != NULL && sk.few_nsteps <= n;
    for (size_t t = 0; ok && t < sk.few_nsteps; t++) {
        const int32_t *st = sk.few_steps + t * PB_FEW_STEP;
        for (int l = 0; l < PB_FEW_LANES; l++) {
            int32_t d = st[1 + l], p = (st[0] >> l) & 1 ? st[1 + PB_FEW_LANES + l] : prev[l];
            if (d == PB_FEW_SINK) continue;
            size_t e = (size_t)d - 2, want = parents[e / chars] < 0 ? 0 : (size_t)parents[e / chars] * chars + e % chars + 2;
            ok &= d >= 2 && e < n && done[e] < 0 && (size_t)p == want && (p < 2 || done[p - 2] >= 0);
            if (ok) done[e] = (int32_t)t;
            prev[l] = d;
        }
    }
    for (size_t e = 0; e < n; e++) ok &= done[e] >= 0;
    CHECK(ok, "chain schedule of %zu joints x %zu characters", joints, chars);
    free(done);
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
    if (!poses_alloc(3, 2, &l, &g)) return check_done();
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
    CHECK(pb_pose_alloc(&four, 4) == PB_OK, "pose of 4: %s", pb_last_error());
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
    static const size_t sched_joints[] = { 1, 2, 17, 64, 200 }, sched_chars[] = { 1, 3, 15 };
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b < 3; b++)
            if (sched_joints[a] * sched_chars[b] <= PB_FEW_MAX_ELEMENTS) chain_schedule(sched_joints[a], sched_chars[b], 40 + a + b);
    int32_t one[1] = { -1 };
    pb_skeleton big;
    CHECK(pb_skeleton_init(&big, one, 1, 16) == PB_OK && !big.few_steps && !big.few_nsteps, "crowd: no chain schedule");
    pb_skeleton_free(&big);
    /* small shapes, every variant (emulated ones too) against the reference */
    const pb_variant *ref = NULL;
    CHECK(pb_variant_find("scalar", &ref) == PB_OK, "scalar variant");
    static const size_t joint_counts[] = { 1, 2, 3, 17, 64, 200 }, char_counts[] = { 1, 2, 3, 15 };
    for (size_t i = 0; ref && i < pb_variant_count(); i++) {
        const pb_variant *v = pb_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        for (size_t a = 0; a < sizeof joint_counts / sizeof joint_counts[0]; a++)
            for (size_t b = 0; b < sizeof char_counts / sizeof char_counts[0]; b++)
                against_reference(v, ref, joint_counts[a], char_counts[b], 10 + a * 7 + b);
    }
    return check_done();
}
