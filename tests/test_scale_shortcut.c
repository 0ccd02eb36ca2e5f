/* test_scale_shortcut.c — the transition and layer ops skip scale logs and
 * exps where a whole vector's scales never change (kernels/transition.h:
 * vv3_log_scl, vv3_mul_exp; blend's vv3_same_scale),
 * and must write the bits the full path writes. In every variant: inputs
 * with every scale 1 and every scale velocity 0 (each shortcut taken), then
 * the same inputs with every seventh element's scales and scale velocities
 * changed, so that every vector holding one takes the full path: all other
 * elements keep their bits, and the changed ones do change. (The samplers'
 * shortcuts are checked in test_sample.) The same with scales near 1 and small
 * scale velocities (vlog's and vexp's shortcuts in kernels/vmath.h, taken
 * where a whole vector needs no range reduction) against every seventh
 * element's scales at 4 and more, whose vectors reduce. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "pose_check.h"
#include "validate.h"
#include "all_variants.h"

#define N 280   /* whole vectors in every variant; every vector of 4, 8 or 16 holds a multiple of 7 */

static const pb_op ops[] = { PB_OP_blend, PB_OP_additive, PB_OP_additive_local_static, PB_OP_additive_world_static,
                             PB_OP_inertialize, PB_OP_extrapolate_decayed, PB_OP_dead_blending };

/* Values of x and y that differ: *same over elements not a multiple of 7, *moved over the others. */
static void diff(const pb_pose *x, const pb_pose *y, size_t *same, size_t *moved)
{
    *same = *moved = 0;
    for (size_t e = 0; e < N; e++)
        for (int p = 0; p < PB_PLANES; p++)
            if (x->plane[p] && memcmp(&x->plane[p][e], &y->plane[p][e], sizeof(float)) != 0) (e % 7 ? ++*same : ++*moved);
}

/* Scales near 1 (in [sqrt(1/2), sqrt(2)), both ends included: vlog skips its
 * exponent split, and vexp its reduction where |x| <= ln 2 / 2) and every
 * other one 1, the velocities svl. */
static float near_one(size_t e, int c)
{
    static const float v[] = { 0.70710677f, 1.4142134f, 0.9f, 1.1f, 1.0f, 0.8f, 1.3f };
    return v[(e + (size_t)c) % 7];
}

/* One case per op and variant: scales from scl (a and b) and scale velocities svl, then every
 * seventh element's b scales set to moved_scl and its velocities to moved_svl. */
static void run_case(const char *what, float (*scl)(size_t, int), float svl, float moved_scl, float moved_svl)
{
    pb_pose a, b, o1, o2;
    pb_skeleton sk;   /* 7 joints x 40 characters (the decaying ops take half-lives per character) */
    const int32_t parents[7] = { -1, 0, 1, 2, 1, 4, 0 };
    CHECK(pb_skeleton_init(&sk, parents, 7, N / 7) == PB_OK, "skeleton: %s", pb_last_error());
    if (!poses_alloc(N, 4, &a, &b, &o1, &o2)) return;
    pb_params prm = { .alpha = 0.3f, .alpha_vel = -0.7f, .time = 0.2f, .halflife = 0.15f, .duration = 0.5f };
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            const pb_op_info *info = pb_op_get(ops[k]);
            pb_gen_case(&a, &b, PB_CLASS_RANDOM, 11 + k, info);
            for (size_t e = 0; e < N; e++)
                for (int c = 0; c < 3; c++) {
                    a.plane[PB_SCL_X + c][e] = b.plane[PB_SCL_X + c][e] = scl(e, c);
                    a.plane[PB_SVL_X + c][e] = b.plane[PB_SVL_X + c][e] = svl;
                }
            pb_call call = { .a = &a, .b = info->in_b ? &b : NULL, .out = &o1, .skel = &sk, .params = prm };
            CHECK(pb_run(ops[k], v, &call) == PB_OK, "%s %s: %s", pb_variant_name(v), info->name, pb_last_error());
            for (size_t e = 0; e < N; e += 7)
                for (int c = 0; c < 3; c++) {
                    b.plane[PB_SCL_X + c][e] = moved_scl + 0.25f * (float)c;
                    a.plane[PB_SVL_X + c][e] = b.plane[PB_SVL_X + c][e] = moved_svl;
                }
            call.out = &o2;
            CHECK(pb_run(ops[k], v, &call) == PB_OK, "%s %s: %s", pb_variant_name(v), info->name, pb_last_error());
            size_t same, moved;
            diff(&o1, &o2, &same, &moved);
            CHECK(same == 0 && moved > 0, "%s %s %s: %zu values moved where the scales did not change (%zu where they did)",
                  what, pb_variant_name(v), info->name, same, moved);
        }
    }
    pb_pose_free(&a), pb_pose_free(&b), pb_pose_free(&o1), pb_pose_free(&o2);
    pb_skeleton_free(&sk);
}

static float one(size_t e, int c) { (void)e, (void)c; return 1.0f; }

int main(void)
{
    run_case("unit scales", one, 0.0f, 1.25f, 0.3f);
    run_case("scales near 1", near_one, 0.1f, 4.0f, 2.5f);
    return check_done();
}
