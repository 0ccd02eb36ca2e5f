/* test_plan.c — static poses and plans: what a static pose may be passed to,
 * the errors where it may not, plans that run what pb_run runs (bit for bit),
 * parameters changed between runs, stale-plan detection, the frame's memoized calls, and many threads
 * running plans at once (CI runs this under ThreadSanitizer too), cache-bypassing
 * output giving the same bits as plain stores. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "validate.h"
#include "all_variants.h"
#include "internal.h"   /* pb_run_memoized */

#define N 1000

static void random_pose(pb_pose *p, pb_class c, uint64_t seed)
{
    pb_pose tmp;
    if (pb_pose_alloc(&tmp, p->n) != PB_OK) return;
    pb_pose scratch;
    if (pb_pose_alloc(&scratch, p->n) == PB_OK) {
        pb_gen_case(&tmp, &scratch, c, seed, pb_op_get(PB_OP_blend));
        pb_pose_free(&scratch);
    }
    pb_pose_copy(p, &tmp);   /* the planes p has */
    pb_pose_free(&tmp);
}

static int same_planes(const pb_pose *x, const pb_pose *y, int np)
{
    for (int i = 0; i < np; i++)
        if (memcmp(x->plane[i], y->plane[i], x->n * sizeof(float))) return 0;
    return 1;
}

static void test_static_poses(void)
{
    pb_pose s, f, t;
    CHECK(pb_pose_alloc_static(&s, N) == PB_OK, "alloc static: %s", pb_last_error());
    CHECK(!pb_pose_has_velocities(&s) && s.plane[PB_VEL_X] == NULL && s.plane[PB_SVL_Z] == NULL, "static has no velocity planes");
    CHECK(pb_pose_check(&s, "s") == PB_OK, "a static pose checks: %s", pb_last_error());
    CHECK(pb_pose_alloc(&f, N) == PB_OK && pb_pose_alloc_static(&t, N) == PB_OK, "alloc");
    /* half a set of velocity planes is a layout error naming the plane */
    pb_pose half = f;
    half.plane[PB_ANG_Y] = NULL;
    CHECK(pb_pose_check(&half, "h") == PB_ERR_NULL && strstr(pb_last_error(), "ang.y"), "half velocities: %s",
          pb_last_error());
    /* copies: static <- full fine, full <- static refused */
    random_pose(&f, PB_CLASS_RANDOM, 1);
    CHECK(pb_pose_copy(&s, &f) == PB_OK && same_planes(&s, &f, PB_STATIC_PLANES), "copy full -> static");
    CHECK(pb_pose_copy(&f, &s) == PB_ERR_STATIC, "copy static -> full refused");

    /* ops needing velocities refuse a static pose, naming the missing plane, writing nothing */
    const pb_variant *v;
    CHECK(pb_variant_active(&v) == PB_OK, "active variant");
    pb_pose fo;
    CHECK(pb_pose_alloc(&fo, N) == PB_OK, "alloc");
    pb_call c = { .a = &s, .b = &f, .out = &fo, .params = { .alpha = 0.5f } };
    CHECK(pb_run(PB_OP_blend, v, &c) == PB_ERR_STATIC && strstr(pb_last_error(), "vel.x") &&
              strstr(pb_last_error(), "'a'"), "blend on a static a: %s", pb_last_error());
    CHECK(fo.plane[PB_POS_X][0] == 0.0f && fo.plane[PB_ROT_W][0] == 1.0f, "nothing written on error");
    c = (pb_call){ .a = &f, .b = &f, .out = &t, .params = { .alpha = 0.5f } };
    CHECK(pb_run(PB_OP_fk, v, &c) == PB_ERR_NULL || pb_run(PB_OP_fk, v, &c) == PB_ERR_STATIC, "fk refuses");
    CHECK(pb_run(PB_OP_finite_diff, v, &c) == PB_ERR_STATIC && strstr(pb_last_error(), "'out'"), "finite_diff out: %s",
          pb_last_error());

    /* the static blend on static poses equals the static blend on full poses, and leaves velocities alone */
    pb_pose b2, bs, fo2;
    CHECK(pb_pose_alloc(&b2, N) == PB_OK && pb_pose_alloc_static(&bs, N) == PB_OK && pb_pose_alloc(&fo2, N) == PB_OK,
          "alloc");
    random_pose(&b2, PB_CLASS_RANDOM, 2);
    CHECK(pb_pose_copy(&bs, &b2) == PB_OK && pb_pose_copy(&s, &f) == PB_OK, "copies");
    for (size_t i = 0; i < N; i++) fo2.plane[PB_VEL_X][i] = 42.0f;
    for (int op = PB_OP_blend_static; op <= PB_OP_blend_static_nlerp; op++)
        for (int mode = PB_SCALE_DEFAULT; mode <= PB_SCALE_EXP; mode++) {
            pb_call cs = { .a = &s, .b = &bs, .out = &t, .params = { .alpha = 0.3f, .scale = (pb_scale_mode)mode } };
            pb_call cf = { .a = &f, .b = &b2, .out = &fo2, .params = { .alpha = 0.3f, .scale = (pb_scale_mode)mode } };
            CHECK(pb_run((pb_op)op, v, &cs) == PB_OK && pb_run((pb_op)op, v, &cf) == PB_OK, "static blend: %s",
                  pb_last_error());
            CHECK(same_planes(&t, &fo2, PB_STATIC_PLANES), "%s mode %d: static and full poses agree bit for bit",
                  pb_op_get((pb_op)op)->name, mode);
            CHECK(fo2.plane[PB_VEL_X][N - 1] == 42.0f, "the static blend leaves velocity planes alone");
        }
    /* default scale of the static blends is linear: midpoint of 1 and 4 is 2.5 (eerp: 2) */
    for (size_t i = 0; i < N; i++) { s.plane[PB_SCL_X][i] = 1.0f; bs.plane[PB_SCL_X][i] = 4.0f; }
    pb_call cl = { .a = &s, .b = &bs, .out = &t, .params = { .alpha = 0.5f } };
    CHECK(pb_run(PB_OP_blend_static, v, &cl) == PB_OK && fabsf(t.plane[PB_SCL_X][7] - 2.5f) < 1e-6f,
          "linear scale by default: %g", (double)t.plane[PB_SCL_X][7]);
    cl.params.scale = PB_SCALE_EXP;
    CHECK(pb_run(PB_OP_blend_static, v, &cl) == PB_OK && fabsf(t.plane[PB_SCL_X][7] - 2.0f) < 1e-6f,
          "exponential scale on request: %g", (double)t.plane[PB_SCL_X][7]);
    cl.params.scale = (pb_scale_mode)7;
    CHECK(pb_run(PB_OP_blend_static, v, &cl) == PB_ERR_PARAM && strstr(pb_last_error(), "scale"), "bad scale mode: %s",
          pb_last_error());

    /* AoS of a static pose: three arrays; a velocity array with a static pose is an error */
    pb_vec3 pos[N], scl[N], vel[N];
    pb_quat rot[N];
    pb_pose_aos aos = { N, pos, rot, scl, NULL, NULL, NULL };
    CHECK(pb_pose_to_aos(&s, &aos) == PB_OK && pos[5].x == s.plane[PB_POS_X][5] && rot[9].z == s.plane[PB_ROT_Z][9],
          "static to AoS: %s", pb_last_error());
    aos.vel = vel;
    CHECK(pb_pose_to_aos(&s, &aos) == PB_ERR_STATIC && strstr(pb_last_error(), "vel"), "vel array with a static pose: %s",
          pb_last_error());
    aos.vel = NULL;
    CHECK(pb_pose_to_aos(&f, &aos) == PB_ERR_NULL && strstr(pb_last_error(), "vel"), "full pose needs all arrays: %s",
          pb_last_error());
    pb_pose back;
    CHECK(pb_pose_alloc_static(&back, N) == PB_OK && pb_pose_from_aos(&aos, &back) == PB_OK &&
              same_planes(&back, &s, PB_STATIC_PLANES), "static AoS round trip: %s", pb_last_error());
    pb_pose_free(&back);
    pb_pose_free(&b2); pb_pose_free(&bs); pb_pose_free(&fo2);
    pb_pose_free(&s); pb_pose_free(&f); pb_pose_free(&t); pb_pose_free(&fo);
}

static void test_plans(void)
{
    pb_pose a, b, o1, o2;
    CHECK(pb_pose_alloc_static(&a, N) == PB_OK && pb_pose_alloc_static(&b, N) == PB_OK &&
              pb_pose_alloc_static(&o1, N) == PB_OK && pb_pose_alloc_static(&o2, N) == PB_OK, "alloc");
    random_pose(&a, PB_CLASS_RANDOM, 3);
    random_pose(&b, PB_CLASS_RANDOM, 4);
    pb_call c = { .a = &a, .b = &b, .out = &o1, .params = { .alpha = 0.25f } };
    pb_plan *pl = NULL;
    CHECK(pb_plan_create(&pl, PB_OP_blend_static_nlerp, NULL, &c) == PB_OK && pl, "plan: %s", pb_last_error());
    CHECK(pb_plan_params(pl)->scale == PB_SCALE_LINEAR, "default scale resolved at creation");
    float alpha = 0;
    for (int frame = 0; frame < 3; frame++) {
        alpha = 0.1f + 0.3f * (float)frame;
        pb_params p = { .alpha = alpha };
        CHECK(pb_plan_set_params(pl, &p) == PB_OK, "set params");
        a.plane[PB_POS_X][17] = (float)frame;   /* new data in the same buffers */
        CHECK(pb_plan_run(pl) == PB_OK, "run");
        pb_call c2 = { .a = &a, .b = &b, .out = &o2, .params = { .alpha = alpha } };
        CHECK(pb_run(PB_OP_blend_static_nlerp, pb_plan_variant(pl), &c2) == PB_OK, "pb_run");
        CHECK(same_planes(&o1, &o2, PB_STATIC_PLANES), "frame %d: the plan runs what pb_run runs", frame);
    }
    pb_params bad = { .alpha = NAN };
    CHECK(pb_plan_set_params(pl, &bad) == PB_ERR_PARAM && pb_plan_params(pl)->alpha == alpha,
          "NaN alpha refused, plan unchanged: %s", pb_last_error());
    /* creation errors leave no plan */
    pb_plan *none = (pb_plan *)&c;
    pb_call badc = c;
    badc.params.alpha = INFINITY;
    CHECK(pb_plan_create(&none, PB_OP_blend_static, NULL, &badc) == PB_ERR_PARAM && none == NULL, "bad call, no plan");
    CHECK(pb_plan_create(NULL, PB_OP_blend_static, NULL, &c) == PB_ERR_NULL, "NULL plan pointer");
    CHECK(pb_plan_run(NULL) == PB_ERR_NULL, "NULL plan");
    /* stale: a buffer freed through the library's own free */
    pb_pose_free(&b);
    float before = o1.plane[PB_POS_X][0];
    CHECK(pb_plan_run(pl) == PB_ERR_STALE && strstr(pb_last_error(), "freed"), "stale plan: %s", pb_last_error());
    CHECK(o1.plane[PB_POS_X][0] == before, "a stale plan writes nothing");
    pb_plan_destroy(pl);
    pb_plan_destroy(NULL);
    pb_pose_free(&a); pb_pose_free(&o1); pb_pose_free(&o2);

    /* a skeleton freed under an fk plan */
    int32_t parents[4] = { -1, 0, 1, 1 };
    pb_skeleton sk;
    pb_pose l, g;
    CHECK(pb_skeleton_init(&sk, parents, 4, 3) == PB_OK && pb_pose_alloc_static(&l, 12) == PB_OK &&
              pb_pose_alloc_static(&g, 12) == PB_OK, "skeleton");
    pb_call fc = { .a = &l, .out = &g, .skel = &sk };
    CHECK(pb_plan_create(&pl, PB_OP_fk_static, NULL, &fc) == PB_OK && pb_plan_run(pl) == PB_OK, "fk_static plan on static poses: %s",
          pb_last_error());
    pb_skeleton_free(&sk);
    CHECK(pb_plan_run(pl) == PB_ERR_STALE && strstr(pb_last_error(), "skeleton"), "stale skeleton: %s", pb_last_error());
    pb_plan_destroy(pl);
    pb_pose_free(&l); pb_pose_free(&g);
}

/* Issue 62 #7: a pose or skeleton re-made in the same struct is stale even where the allocator hands
 * back the same address (the plan compared the first plane only). Wrapped memory makes the
 * same address certain; the free/alloc pair is the issue's own repro. */
static void test_stale_remade(void)
{
    pb_pose a, b, out;
    CHECK(pb_pose_alloc(&a, 64) == PB_OK && pb_pose_alloc(&b, 64) == PB_OK && pb_pose_alloc(&out, 64) == PB_OK, "alloc");
    pb_call c = { .a = &a, .b = &b, .out = &out, .params = { .alpha = 0.5f } };
    pb_plan *pl = NULL;
    CHECK(pb_plan_create(&pl, PB_OP_blend_static, NULL, &c) == PB_OK && pb_plan_run(pl) == PB_OK, "plan: %s",
          pb_last_error());
    pb_pose_free(&out);
    CHECK(pb_pose_alloc(&out, 16) == PB_OK, "re-alloc out");
    CHECK(pb_plan_run(pl) == PB_ERR_STALE && strstr(pb_last_error(), "freed"), "out re-made with 16 elements: %s",
          pb_status_name(pb_plan_run(pl)));
    pb_pose_free(&out);
    CHECK(pb_pose_alloc(&out, 64) == PB_OK, "re-alloc out");
    CHECK(pb_plan_run(pl) == PB_ERR_STALE, "out re-made with the same size is another pose: a new plan");
    pb_plan_destroy(pl);

    /* wrapped: the same first plane, another layout */
    enum { W = 64 };
    float *mem = aligned_alloc(PB_ALIGN, PB_PLANES * W * sizeof(float));
    CHECK(mem != NULL, "alloc");
    float *planes[PB_PLANES];
    for (int i = 0; i < PB_PLANES; i++) {
        planes[i] = mem + (size_t)i * W;
        for (size_t j = 0; j < W; j++) planes[i][j] = pb_plane_identity(i);
    }
    pb_pose w;
    CHECK(pb_pose_wrap(&w, W, W, planes) == PB_OK, "wrap: %s", pb_last_error());
    c.out = &w;
    CHECK(pb_plan_create(&pl, PB_OP_blend_static, NULL, &c) == PB_OK && pb_plan_run(pl) == PB_OK, "plan: %s",
          pb_last_error());
    for (int i = 0; i < PB_PLANES; i++) planes[i] = mem + (size_t)i * 16;   /* 16 elements, first plane kept */
    CHECK(pb_pose_wrap(&w, 16, 16, planes) == PB_OK && w.plane[0] == mem, "re-wrap: %s", pb_last_error());
    CHECK(pb_plan_run(pl) == PB_ERR_STALE, "re-wrapped out at the same first plane: %s", pb_status_name(pb_plan_run(pl)));
    pb_plan_destroy(pl);

    /* a pose described by hand (no pb_pose_alloc / pb_pose_wrap): the plan compares all it describes */
    pb_pose h = { .n = W, .stride = W };
    for (int i = 0; i < PB_PLANES; i++) h.plane[i] = mem + (size_t)i * W;
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < W; j++) h.plane[i][j] = pb_plane_identity(i);
    c.out = &h;
    CHECK(pb_plan_create(&pl, PB_OP_blend_static, NULL, &c) == PB_OK && pb_plan_run(pl) == PB_OK, "hand-made pose: %s",
          pb_last_error());
    h.plane[PB_SCL_Z] = mem;   /* another plane moved: not what the plan was made with */
    CHECK(pb_plan_run(pl) == PB_ERR_STALE, "hand-made pose re-described: %s", pb_status_name(pb_plan_run(pl)));
    h.plane[PB_SCL_Z] = mem + (size_t)PB_SCL_Z * W;
    CHECK(pb_plan_run(pl) == PB_OK, "hand-made pose as it was: %s", pb_last_error());
    h.n = 16;
    CHECK(pb_plan_run(pl) == PB_ERR_STALE, "hand-made pose with another n");
    pb_plan_destroy(pl);
    free(mem);

    /* a clip re-made (its pose re-allocated) under a sampling plan: same size, another clip */
    pb_clip clip;
    float offsets[4] = { 0, 0.1f, 0.2f, 0.3f };
    CHECK(pb_clip_alloc(&clip, 10, 16, 30.0f) == PB_OK, "clip: %s", pb_last_error());
    pb_call sc = { .clip = &clip, .out = &a, .offsets = offsets, .params = { .time = 0.1f } };
    CHECK(pb_plan_create(&pl, PB_OP_sample_linear, NULL, &sc) == PB_OK && pb_plan_run(pl) == PB_OK, "sample plan: %s",
          pb_last_error());
    pb_clip_free(&clip);
    CHECK(pb_clip_alloc(&clip, 10, 16, 30.0f) == PB_OK, "clip again");
    CHECK(pb_plan_run(pl) == PB_ERR_STALE, "clip re-made under a sampling plan: %s", pb_status_name(pb_plan_run(pl)));
    pb_plan_destroy(pl);
    pb_clip_free(&clip);

    /* a skeleton re-made with 63 joints in the same struct */
    int32_t parents[64];
    for (int j = 0; j < 64; j++) parents[j] = j - 1;
    pb_skeleton sk;
    CHECK(pb_skeleton_init(&sk, parents, 64, 1) == PB_OK, "skeleton");
    pb_call fc = { .a = &a, .out = &b, .skel = &sk };
    CHECK(pb_plan_create(&pl, PB_OP_fk_static, NULL, &fc) == PB_OK && pb_plan_run(pl) == PB_OK, "fk plan: %s",
          pb_last_error());
    pb_skeleton_free(&sk);
    CHECK(pb_skeleton_init(&sk, parents, 63, 1) == PB_OK, "skeleton of 63");
    CHECK(pb_plan_run(pl) == PB_ERR_STALE && strstr(pb_last_error(), "skeleton"), "skeleton re-made with 63 joints: %s",
          pb_status_name(pb_plan_run(pl)));
    pb_skeleton_free(&sk);
    CHECK(pb_skeleton_init(&sk, parents, 64, 1) == PB_OK, "skeleton of 64");
    CHECK(pb_plan_run(pl) == PB_ERR_STALE, "skeleton re-made with the same joints is another skeleton");
    pb_plan_destroy(pl);

    /* the frame's memoized calls: a skeleton re-made with fewer joints is validated again */
    struct pb_run_memos *ms = calloc(1, sizeof *ms);
    CHECK(ms != NULL, "alloc");
    const pb_variant *v;
    CHECK(pb_variant_active(&v) == PB_OK, "variant");
    CHECK(pb_run_memoized(ms, PB_OP_fk_static, v, &fc) == PB_OK, "memo fk: %s", pb_last_error());
    pb_skeleton_free(&sk);
    CHECK(pb_skeleton_init(&sk, parents, 63, 1) == PB_OK, "skeleton of 63");
    CHECK(pb_run_memoized(ms, PB_OP_fk_static, v, &fc) == PB_ERR_SIZE, "memo with a re-made skeleton: %s",
          pb_last_error());
    free(ms);
    pb_skeleton_free(&sk);
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&out);
}

/* Per-element parameters: equal per-character values give the uniform call
 * bit for bit; mask 0 keeps a, weight 1 with mask 1 gives b; bad arrays are
 * refused with the array and element named, nothing written. */
static void test_per_element(void)
{
    enum { J = 10, C = 100 };
    pb_pose a, b, o1, o2;
    CHECK(pb_pose_alloc(&a, J * C) == PB_OK && pb_pose_alloc(&b, J * C) == PB_OK && pb_pose_alloc(&o1, J * C) == PB_OK &&
              pb_pose_alloc(&o2, J * C) == PB_OK, "alloc");
    random_pose(&a, PB_CLASS_RANDOM, 20);
    random_pose(&b, PB_CLASS_RANDOM, 21);
    float w[C], wv[C], mask[J], t[C], d[C], h[C];
    for (int c = 0; c < C; c++) { w[c] = 0.3f; wv[c] = -2.0f; t[c] = 0.2f; d[c] = 0.5f; h[c] = 0.1f; }
    for (int j = 0; j < J; j++) mask[j] = 1.0f;
    for (size_t vi = 0; vi < pb_variant_count(); vi++) {
        const pb_variant *v = pb_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        static const pb_op ops[] = { PB_OP_blend_static, PB_OP_blend, PB_OP_additive, PB_OP_inertialize };
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            pb_params p = { .alpha = 0.3f, .alpha_vel = -2.0f, .time = 0.2f, .duration = 0.5f, .halflife = 0.1f };
            pb_call cu = { .a = &a, .b = &b, .out = &o1, .params = p };
            pb_call cp = { .a = &a, .b = &b, .out = &o2, .params = { .alpha = 9, .alpha_vel = 9, .time = 9, .duration = 9 } };
            const pb_op_info *info = pb_op_get(ops[k]);
            cp.per.characters = C;
            if (info->flags & PB_OPF_ALPHA) { cp.per.alpha = w; cp.per.mask = mask; }
            if (info->flags & PB_OPF_ALPHA_VEL) cp.per.alpha_vel = wv;
            if (info->flags & PB_OPF_TIME) cp.per.time = t;
            if (info->flags & PB_OPF_DURATION) cp.per.duration = d;
            CHECK(pb_run(ops[k], v, &cu) == PB_OK && pb_run(ops[k], v, &cp) == PB_OK, "%s %s: %s", info->name,
                  pb_variant_name(v), pb_last_error());
            int np = pb_pose_has_velocities(&o1) && (info->out & (1u << PB_G_VEL)) ? PB_PLANES : PB_STATIC_PLANES;
            int same = 1;
            for (int i = 0; i < np; i++)
                for (int e = 0; e < J * C; e++)
                    if (memcmp(&o1.plane[i][e], &o2.plane[i][e], sizeof(float))) same = 0;
            CHECK(same, "%s %s: per-character arrays of one value = the uniform call, bit for bit", info->name,
                  pb_variant_name(v));
        }
        /* mask 0 on joint 3 keeps a there; weight 1 elsewhere gives b */
        for (int c = 0; c < C; c++) w[c] = 1.0f;
        mask[3] = 0.0f;
        pb_call cm = { .a = &a, .b = &b, .out = &o2, .per = { .characters = C, .alpha = w, .mask = mask } };
        CHECK(pb_run(PB_OP_blend_static, v, &cm) == PB_OK, "masked blend: %s", pb_last_error());
        CHECK(o2.plane[PB_POS_X][3 * C + 7] == a.plane[PB_POS_X][3 * C + 7] &&
                  o2.plane[PB_POS_Y][4 * C + 7] == b.plane[PB_POS_Y][4 * C + 7], "%s: mask 0 keeps a, mask 1 weight 1 gives b",
              pb_variant_name(v));
        mask[3] = 1.0f;
        for (int c = 0; c < C; c++) w[c] = 0.3f;
        /* a mask alone scales the uniform weight and rate: the bits of per-character arrays of those
         * values under the same mask (C = 100: vectors within a joint and across two) */
        float ramp[J];
        for (int j = 0; j < J; j++) ramp[j] = (float)j / (J - 1);
        static const pb_op mops[] = { PB_OP_blend_static, PB_OP_additive, PB_OP_additive_local_static_nlerp };
        for (size_t k = 0; k < sizeof mops / sizeof mops[0]; k++) {
            const pb_op_info *info = pb_op_get(mops[k]);
            pb_call ca = { .a = &a, .b = &b, .out = &o1, .params = { .alpha = 0.3f, .alpha_vel = -2.0f },
                           .per = { .characters = C, .mask = ramp } };
            pb_call cw = ca;
            cw.out = &o2;
            cw.per.alpha = w;
            if (info->flags & PB_OPF_ALPHA_VEL) cw.per.alpha_vel = wv;
            CHECK(pb_run(mops[k], v, &ca) == PB_OK && pb_run(mops[k], v, &cw) == PB_OK, "%s %s masked: %s", info->name,
                  pb_variant_name(v), pb_last_error());
            int np = info->out & (1u << PB_G_VEL) ? PB_PLANES : PB_STATIC_PLANES;
            size_t diff = 0;
            for (int i = 0; i < np; i++)
                for (int e = 0; e < J * C; e++) diff += memcmp(&o1.plane[i][e], &o2.plane[i][e], sizeof(float)) != 0;
            CHECK(diff == 0, "%s %s: a mask alone differs from weights of the uniform value in %zu values", info->name,
                  pb_variant_name(v), diff);
        }
    }
    /* bad arrays */
    const pb_variant *v;
    CHECK(pb_variant_active(&v) == PB_OK, "active");
    float saved = o2.plane[PB_POS_X][0];
    w[57] = NAN;
    pb_call cb = { .a = &a, .b = &b, .out = &o2, .per = { .characters = C, .alpha = w } };
    CHECK(pb_run(PB_OP_blend_static, v, &cb) == PB_ERR_PARAM && strstr(pb_last_error(), "per.alpha[57]"), "NaN weight: %s",
          pb_last_error());
    w[57] = 0.3f;
    mask[9] = INFINITY;
    cb.per.mask = mask;
    CHECK(pb_run(PB_OP_blend_static, v, &cb) == PB_ERR_PARAM && strstr(pb_last_error(), "per.mask[9]"), "Inf mask: %s",
          pb_last_error());
    mask[9] = 1.0f;
    d[4] = -0.5f;
    pb_call cd = { .a = &a, .b = &b, .out = &o2, .params = { .time = 0.1f, .duration = 0.5f },
                   .per = { .characters = C, .duration = d } };
    CHECK(pb_run(PB_OP_inertialize, v, &cd) == PB_ERR_PARAM && strstr(pb_last_error(), "per.duration[4]"),
          "negative duration: %s", pb_last_error());
    d[4] = 0.5f;
    cb.per.characters = 3;   /* 1000 elements are not joints x 3 characters */
    CHECK(pb_run(PB_OP_blend_static, v, &cb) == PB_ERR_SIZE && strstr(pb_last_error(), "per.characters"),
          "characters not dividing n: %s", pb_last_error());
    cb.per.characters = C;
    cb.per.time = t;   /* blend_static reads no time */
    CHECK(pb_run(PB_OP_blend_static, v, &cb) == PB_ERR_PARAM && strstr(pb_last_error(), "per.time"),
          "array for a parameter the op does not read: %s", pb_last_error());
    CHECK(o2.plane[PB_POS_X][0] == saved, "nothing written on error");
    /* a crowd array shorter than the skeleton's crowd */
    int32_t parents[J];
    for (int j = 0; j < J; j++) parents[j] = j - 1;
    pb_skeleton sk;
    CHECK(pb_skeleton_init(&sk, parents, J, C) == PB_OK, "skeleton");
    pb_call ce = { .a = &a, .out = &o2, .skel = &sk, .params = { .time = 0.1f, .halflife = 0.1f },
                   .per = { .characters = C / 2, .halflife = h } };
    CHECK(pb_run(PB_OP_extrapolate_decayed, v, &ce) == PB_ERR_SIZE && strstr(pb_last_error(), "skeleton has 100"),
          "per-character arrays shorter than the crowd: %s", pb_last_error());
    pb_skeleton_free(&sk);
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o1); pb_pose_free(&o2);
}

/* Half-lives per joint per axis: three equal ones are the one half-life
 * (to rounding: the angular velocity goes through the Jacobian, which is the
 * identity on a vector parallel to the rotation); a 0 holds that axis; the
 * positions and log-scales follow the closed form x + v (1 - 2^(-t/h)) h / ln 2
 * per component (computed here in double, not by the reference). */
static void test_halflife_axes(void)
{
    enum { J = 8, C = 24 };
    const size_t n = J * C;
    pb_pose a, o1, o2;
    CHECK(pb_pose_alloc(&a, n) == PB_OK && pb_pose_alloc(&o1, n) == PB_OK && pb_pose_alloc(&o2, n) == PB_OK, "alloc");
    random_pose(&a, PB_CLASS_RANDOM, 30);
    int32_t parents[J];
    for (int j = 0; j < J; j++) parents[j] = j - 1;
    pb_skeleton sk;
    CHECK(pb_skeleton_init(&sk, parents, J, C) == PB_OK, "skeleton: %s", pb_last_error());
    const float t = 0.3f, h = 0.12f;
    float same[3 * J], axes[3 * J];
    for (int j = 0; j < J; j++)
        for (int k = 0; k < 3; k++) {
            same[3 * j + k] = h;
            axes[3 * j + k] = k == j % 3 ? 0.0f : 0.05f * (float)(k + 1) + 0.01f * (float)j;
        }
    for (size_t vi = 0; vi < pb_variant_count(); vi++) {
        const pb_variant *v = pb_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        pb_call cu = { .a = &a, .out = &o1, .skel = &sk, .params = { .time = t, .halflife = h } };
        pb_call ca = { .a = &a, .out = &o2, .skel = &sk, .params = { .time = t, .halflife = 9 },
                       .per = { .characters = C, .halflife_axis = same } };
        CHECK(pb_run(PB_OP_extrapolate_decayed, v, &cu) == PB_OK && pb_run(PB_OP_extrapolate_decayed, v, &ca) == PB_OK,
              "%s: %s", pb_variant_name(v), pb_last_error());
        double worst = 0;
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t e = 0; e < n; e++) {
                double d = fabs((double)o1.plane[p][e] - o2.plane[p][e]) / (1 + fabs((double)o1.plane[p][e]));
                if (d > worst) worst = d;
            }
        CHECK(worst < 2e-6, "%s: three equal half-lives per axis = the one half-life (worst %.3g)", pb_variant_name(v),
              worst);
        ca.per.halflife_axis = axes;
        CHECK(pb_run(PB_OP_extrapolate_decayed, v, &ca) == PB_OK, "%s: %s", pb_variant_name(v), pb_last_error());
        worst = 0;
        int held = 1;
        for (size_t e = C; e < n; e++) {   /* joint 0 is the root: it holds */
            size_t j = e / C;
            for (int k = 0; k < 3; k++) {
                double hk = axes[3 * j + (size_t)k], l = hk > 0 ? log(2.0) / hk : 0;
                double f = hk > 0 ? -expm1(-l * t) / l : 0, df = hk > 0 ? exp(-l * t) : 0;
                double x = a.plane[PB_POS_X + k][e] + a.plane[PB_VEL_X + k][e] * f;
                double vx = a.plane[PB_VEL_X + k][e] * df;
                double sx = a.plane[PB_SCL_X + k][e] * exp(a.plane[PB_SVL_X + k][e] * f);
                double d = fmax(fabs(x - o2.plane[PB_POS_X + k][e]), fabs(vx - o2.plane[PB_VEL_X + k][e]));
                d = fmax(d, fabs(sx - o2.plane[PB_SCL_X + k][e]) / sx);
                if (d > worst) worst = d;
                if (hk == 0 && (o2.plane[PB_POS_X + k][e] != a.plane[PB_POS_X + k][e] ||
                                o2.plane[PB_VEL_X + k][e] != 0.0f || o2.plane[PB_SVL_X + k][e] != 0.0f))
                    held = 0;
            }
        }
        CHECK(worst < 1e-5, "%s: positions, velocities and scales per axis follow the closed form (worst %.3g)",
              pb_variant_name(v), worst);
        CHECK(held, "%s: a half-life of 0 holds its axis (position kept, velocities 0)", pb_variant_name(v));
    }
    /* bad input: named element, joint and axis; both forms at once; an op without a half-life */
    const pb_variant *v;
    CHECK(pb_variant_active(&v) == PB_OK, "active");
    float saved = o2.plane[PB_POS_X][C];
    axes[3 * 5 + 2] = NAN;
    pb_call cb = { .a = &a, .out = &o2, .skel = &sk, .params = { .time = t },
                   .per = { .characters = C, .halflife_axis = axes } };
    CHECK(pb_run(PB_OP_extrapolate_decayed, v, &cb) == PB_ERR_PARAM &&
              strstr(pb_last_error(), "per.halflife_axis[17] (joint 5, axis z)"), "NaN half-life: %s", pb_last_error());
    axes[3 * 5 + 2] = -1.0f;
    CHECK(pb_run(PB_OP_extrapolate_decayed, v, &cb) == PB_ERR_PARAM && strstr(pb_last_error(), "halflife_axis[17]"),
          "negative half-life: %s", pb_last_error());
    axes[3 * 5 + 2] = 0.1f;
    float hc[C];
    for (int c = 0; c < C; c++) hc[c] = 0.1f;
    cb.per.halflife = hc;
    CHECK(pb_run(PB_OP_extrapolate_decayed, v, &cb) == PB_ERR_PARAM && strstr(pb_last_error(), "both"),
          "halflife and halflife_axis together: %s", pb_last_error());
    pb_call cn = { .a = &a, .b = &a, .out = &o2, .params = { .alpha = 0.5f },
                   .per = { .characters = C, .halflife_axis = axes } };
    CHECK(pb_run(PB_OP_blend, v, &cn) == PB_ERR_PARAM && strstr(pb_last_error(), "per.halflife_axis"),
          "an op reading no half-life: %s", pb_last_error());
    CHECK(o2.plane[PB_POS_X][C] == saved, "nothing written on error");
    pb_skeleton_free(&sk);
    pb_pose_free(&a); pb_pose_free(&o1); pb_pose_free(&o2);
}

/* Threads: each runs its own plans (blend and fk) many times; results must
 * equal a single-threaded run. Under ThreadSanitizer this shows that running
 * plans reads no unlocked process-wide state. */
#define THREADS 4
typedef struct { pb_pose a, b, out; pb_plan *plan; int ok; } job;
static void *worker(void *arg)
{
    job *j = arg;
    j->ok = 1;
    for (int i = 0; i < 200; i++)
        if (pb_plan_run(j->plan) != PB_OK) j->ok = 0;
    return NULL;
}
static void test_threads(void)
{
    job jobs[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        job *j = &jobs[t];
        CHECK(pb_pose_alloc_static(&j->a, N) == PB_OK && pb_pose_alloc_static(&j->b, N) == PB_OK &&
                  pb_pose_alloc_static(&j->out, N) == PB_OK, "alloc");
        random_pose(&j->a, PB_CLASS_RANDOM, 10);
        random_pose(&j->b, PB_CLASS_RANDOM, 11);
        pb_call c = { .a = &j->a, .b = &j->b, .out = &j->out, .params = { .alpha = 0.6f } };
        CHECK(pb_plan_create(&j->plan, PB_OP_blend_static, NULL, &c) == PB_OK, "plan");
    }
    for (int t = 0; t < THREADS; t++) CHECK(pthread_create(&th[t], NULL, worker, &jobs[t]) == 0, "thread");
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++) {
        CHECK(jobs[t].ok, "thread %d ran", t);
        CHECK(same_planes(&jobs[t].out, &jobs[0].out, PB_STATIC_PLANES), "thread %d: same result", t);
    }
    for (int t = THREADS; t-- > 0;) {
        pb_plan_destroy(jobs[t].plan);
        pb_pose_free(&jobs[t].a); pb_pose_free(&jobs[t].b); pb_pose_free(&jobs[t].out);
    }
}

/* Cache-bypassing output (pb_stream_bytes 0: every call streams, SIZE_MAX: none does) gives
 * the same bits as plain stores, in place too, for every op that has it, in every variant,
 * with one weight for all and with a weight per character times a bone mask (8 characters:
 * a joint is 8 elements, so whole vectors of weight 0 sit beside others in a group of two);
 * the threshold reads back as set. */
static void stream_case(const pb_variant *v, pb_op op, const pb_pose *a, const pb_pose *b, const pb_param_arrays *per,
                        pb_pose *plain, pb_pose *streamed, pb_pose *inplace)
{
    const char *name = pb_op_get(op)->name, *vn = pb_variant_name(v), *wn = per ? "per character" : "uniform";
    pb_pose *out[2] = { plain, streamed };
    for (int m = 0; m < 2; m++) {
        pb_stream_bytes_set(m ? 0 : SIZE_MAX);
        CHECK(pb_stream_bytes() == (m ? 0 : SIZE_MAX), "threshold reads back");
        pb_call c = { .a = a, .b = b, .out = out[m], .params = { .alpha = 0.3f } };
        if (per) c.per = *per;
        CHECK(pb_run(op, v, &c) == PB_OK, "%s %s %s: %s", vn, name, wn, pb_last_error());
    }
    CHECK(same_planes(plain, streamed, PB_STATIC_PLANES), "%s %s %s: streamed = plain", vn, name, wn);
    CHECK(pb_pose_copy(inplace, a) == PB_OK, "copy");
    pb_call c = { .a = inplace, .b = b, .out = inplace, .params = { .alpha = 0.3f } };
    if (per) c.per = *per;
    CHECK(pb_run(op, v, &c) == PB_OK, "%s %s %s in place: %s", vn, name, wn, pb_last_error());
    CHECK(same_planes(inplace, plain, PB_STATIC_PLANES), "%s %s %s: streamed in place = plain", vn, name, wn);
}
static void test_stream(void)
{
    static const pb_op ops[] = { PB_OP_blend_static, PB_OP_blend_static_nlerp, PB_OP_additive_local_static,
                                 PB_OP_additive_local_static_nlerp, PB_OP_additive_world_static };
    enum { C = 8, J = N / C };
    float alpha[C], mask[J];
    for (int k = 0; k < C; k++) alpha[k] = 0.1f + 0.1f * (float)k;
    for (int j = 0; j < J; j++) mask[j] = j % 3 == 0 ? 0.0f : j % 3 == 1 ? 1.0f : 0.5f;
    const pb_param_arrays per = { .characters = C, .alpha = alpha, .mask = mask };
    size_t dflt = pb_stream_bytes();
    /* the default: the last-level cache, at most 2 MiB for each CPU sharing it (never above it) */
    CHECK(getenv("POSEBENCH_STREAM_BYTES") || (dflt > 0 && (!pb_cache_bytes(0) || dflt <= pb_cache_bytes(0))),
          "default threshold %zu within the last-level cache %zu", dflt, pb_cache_bytes(0));
    /* at most 2 MiB for each CPU sharing the cache, every online CPU where sysfs does not say
     * which (or lists no caches at all, as some KVM guests): never above 2 MiB a CPU of the system */
    long cpus = sysconf(_SC_NPROCESSORS_CONF);
    if (!getenv("POSEBENCH_STREAM_BYTES") && cpus > 0)
        CHECK(dflt <= ((size_t)cpus << 21), "default threshold %zu above 2 MiB for each of %ld CPUs", dflt, cpus);
    pb_pose a, b, plain, streamed, inplace;
    CHECK(pb_pose_alloc_static(&a, N) == PB_OK && pb_pose_alloc_static(&b, N) == PB_OK &&
              pb_pose_alloc_static(&plain, N) == PB_OK && pb_pose_alloc_static(&streamed, N) == PB_OK &&
              pb_pose_alloc_static(&inplace, N) == PB_OK, "alloc: %s", pb_last_error());
    random_pose(&a, PB_CLASS_RANDOM, 11);
    random_pose(&b, PB_CLASS_RANDOM, 12);
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            stream_case(v, ops[o], &a, &b, NULL, &plain, &streamed, &inplace);
            stream_case(v, ops[o], &a, &b, &per, &plain, &streamed, &inplace);
        }
    }
    pb_stream_bytes_set(dflt);
    pb_pose_free(&a), pb_pose_free(&b), pb_pose_free(&plain), pb_pose_free(&streamed), pb_pose_free(&inplace);
}

/* The frame's memoized calls (run_memo.c): the same bits as pb_run while the call repeats with
 * new data and parameters; a pose that changed between calls validated again (its error, nothing
 * written); bad parameters refused on the memo's short path too. */
static void test_memo(void)
{
    const pb_variant *v;
    CHECK(pb_variant_active(&v) == PB_OK, "active variant");
    struct pb_run_memos *ms = calloc(1, sizeof *ms);
    pb_pose a, b, o1, o2, small;
    CHECK(ms && pb_pose_alloc(&a, N) == PB_OK && pb_pose_alloc(&b, N) == PB_OK && pb_pose_alloc(&o1, N) == PB_OK &&
          pb_pose_alloc(&o2, N) == PB_OK && pb_pose_alloc(&small, N / 2) == PB_OK, "alloc");
    if (!ms) return;
    for (int r = 0; r < 4; r++) {
        random_pose(&a, PB_CLASS_RANDOM, 10 + r);
        random_pose(&b, PB_CLASS_RANDOM, 20 + r);
        pb_call c = { .a = &a, .b = &b, .out = &o1, .params = { .alpha = 0.2f * (float)r } };
        CHECK(pb_run_memoized(ms, PB_OP_blend, v, &c) == PB_OK, "memoized run %d: %s", r, pb_last_error());
        c.out = &o2;
        CHECK(pb_run(PB_OP_blend, v, &c) == PB_OK, "pb_run %d", r);
        CHECK(same_planes(&o1, &o2, PB_PLANES), "memoized run %d: the same bits as pb_run", r);
        /* in place through the memo, then again out of place: each its own call */
        c.out = (pb_pose *)&a;
        CHECK(pb_run_memoized(ms, PB_OP_blend, v, &c) == PB_OK && same_planes(&a, &o2, PB_PLANES),
              "memoized in place %d: %s", r, pb_last_error());
    }
    /* the memo's pose struct now describes other memory: validated again, refused, nothing written */
    pb_call c = { .a = &a, .b = &b, .out = &o1, .params = { .alpha = 0.5f } };
    CHECK(pb_run_memoized(ms, PB_OP_blend, v, &c) == PB_OK, "memoized");
    CHECK(pb_pose_copy(&o2, &o1) == PB_OK, "copy");
    pb_pose keep = o1;
    o1 = small;
    CHECK(pb_run_memoized(ms, PB_OP_blend, v, &c) == PB_ERR_SIZE && strstr(pb_last_error(), "out"),
          "a smaller out after a memoized call: %s", pb_last_error());
    o1 = keep;
    float *plane = o1.plane[PB_ROT_X];
    o1.plane[PB_ROT_X] = plane + 1;   /* misaligned */
    CHECK(pb_run_memoized(ms, PB_OP_blend, v, &c) == PB_ERR_ALIGN, "a misaligned plane after a memoized call: %s",
          pb_last_error());
    o1.plane[PB_ROT_X] = plane;
    c.params.alpha = 0.5f;
    CHECK(pb_run_memoized(ms, PB_OP_blend, v, &c) == PB_OK, "memoized again");
    c.params.alpha = NAN;
    CHECK(pb_run_memoized(ms, PB_OP_blend, v, &c) == PB_ERR_PARAM && strstr(pb_last_error(), "alpha"),
          "NaN alpha on the memo's path: %s", pb_last_error());
    CHECK(same_planes(&o1, &o2, PB_PLANES), "nothing written by the refused calls");
    pb_pose *all[] = { &a, &b, &o1, &o2, &small };
    for (int i = 0; i < 5; i++) pb_pose_free(all[i]);
    free(ms);
}

int main(void)
{
    test_static_poses();
    test_plans();
    test_stale_remade();
    test_per_element();
    test_halflife_axes();
    test_stream();
    test_memo();
    const char *no_threads = getenv("PB_TEST_NO_THREADS");
    if (no_threads) printf("threads: skipped (%s); the tsan stage runs them natively\n", no_threads);
    else test_threads();
    return check_done();
}
