/* test_scale_shortcut.c — the transition and layer ops skip work where a
 * whole vector does not need it, and must write the bits the full path
 * writes: scale logs and exps where a whole vector's scales never change
 * (kernels/transition.h: vv3_log_scl, vv3_mul_exp; blend's vv3_same_scale);
 * vlog's and vexp's range reduction where a whole vector needs none; vsincos's
 * reduction where every lane is within pi/4 (kernels/vmath.h). In every
 * variant: inputs where every vector takes a shortcut, then the same inputs
 * with every seventh element changed so that every vector holding one takes
 * the full path: all other elements keep their bits, and the changed ones do
 * change. Cases: every scale 1 and scale velocity 0 against changed scales;
 * scales near 1 and small scale velocities against scales of 4 and more;
 * short rotations and slow angular velocities against a rotation of 2.5 rad
 * and 30 rad/s. (The samplers' shortcuts are checked in test_sample.) */
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

/* What a case sets: every element's values through set (a and b), then
 * every seventh element's through move (run between the two calls). */
typedef struct {
    const char *what;
    void (*set)(pb_pose *a, pb_pose *b, size_t e);
    void (*move)(pb_pose *a, pb_pose *b, size_t e);
} shortcut_case;

static void run_case(const shortcut_case *sc)
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
            for (size_t e = 0; e < N; e++) sc->set(&a, &b, e);
            pb_call call = { .a = &a, .b = info->in_b ? &b : NULL, .out = &o1, .skel = &sk, .params = prm };
            CHECK(pb_run(ops[k], v, &call) == PB_OK, "%s %s: %s", pb_variant_name(v), info->name, pb_last_error());
            for (size_t e = 0; e < N; e += 7) sc->move(&a, &b, e);
            call.out = &o2;
            CHECK(pb_run(ops[k], v, &call) == PB_OK, "%s %s: %s", pb_variant_name(v), info->name, pb_last_error());
            size_t same, moved;
            diff(&o1, &o2, &same, &moved);
            CHECK(same == 0 && moved > 0, "%s %s %s: %zu values moved where the inputs did not change (%zu where they did)",
                  sc->what, pb_variant_name(v), info->name, same, moved);
        }
    }
    pb_pose_free(&a), pb_pose_free(&b), pb_pose_free(&o1), pb_pose_free(&o2);
    pb_skeleton_free(&sk);
}

/* Every scale s(e, c) and every scale velocity svl, in a and b. */
static void set_scales(pb_pose *a, pb_pose *b, size_t e, float (*s)(size_t, int), float svl)
{
    for (int c = 0; c < 3; c++) {
        a->plane[PB_SCL_X + c][e] = b->plane[PB_SCL_X + c][e] = s(e, c);
        a->plane[PB_SVL_X + c][e] = b->plane[PB_SVL_X + c][e] = svl;
    }
}
/* b's scales from scl up, a's and b's scale velocities svl. */
static void move_scales(pb_pose *a, pb_pose *b, size_t e, float scl, float svl)
{
    for (int c = 0; c < 3; c++) {
        b->plane[PB_SCL_X + c][e] = scl + 0.25f * (float)c;
        a->plane[PB_SVL_X + c][e] = b->plane[PB_SVL_X + c][e] = svl;
    }
}
static float one(size_t e, int c) { (void)e, (void)c; return 1.0f; }
static void set_unit(pb_pose *a, pb_pose *b, size_t e) { set_scales(a, b, e, one, 0.0f); }
static void move_unit(pb_pose *a, pb_pose *b, size_t e) { move_scales(a, b, e, 1.25f, 0.3f); }
static void set_near(pb_pose *a, pb_pose *b, size_t e) { set_scales(a, b, e, near_one, 0.1f); }
static void move_near(pb_pose *a, pb_pose *b, size_t e) { move_scales(a, b, e, 4.0f, 2.5f); }

/* Rotation of angle th about a unit axis (x, y, z), into element e of p. */
static void put_rot(pb_pose *p, size_t e, float th, float x, float y, float z)
{
    float s = sinf(0.5f * th);
    p->plane[PB_ROT_W][e] = cosf(0.5f * th);
    p->plane[PB_ROT_X][e] = s * x, p->plane[PB_ROT_Y][e] = s * y, p->plane[PB_ROT_Z][e] = s * z;
}
/* Rotations within 0.35 rad of the identity and angular velocities of at
 * most 0.6 rad/s, so every angle reaching vsincos stays within pi/4. */
static void set_short(pb_pose *a, pb_pose *b, size_t e)
{
    float t = 0.05f * (float)(e % 7);
    put_rot(a, e, t, 0.6f, 0.0f, 0.8f);
    put_rot(b, e, 0.35f - t, 0.0f, 0.8f, -0.6f);
    for (int c = 0; c < 3; c++) {
        a->plane[PB_ANG_X + c][e] = 0.2f * (float)(c + 1) - 0.05f * (float)(e % 5);
        b->plane[PB_ANG_X + c][e] = -0.15f * (float)c;
    }
    set_unit(a, b, e);
}
/* b rotated by 2.5 rad, and angular velocities of 30 rad/s. */
static void move_long(pb_pose *a, pb_pose *b, size_t e)
{
    put_rot(b, e, 2.5f, 0.0f, 0.6f, 0.8f);
    for (int c = 0; c < 3; c++) a->plane[PB_ANG_X + c][e] = b->plane[PB_ANG_X + c][e] = c == 1 ? 30.0f : 0.0f;
}

int main(void)
{
    static const shortcut_case cases[] = {
        { "unit scales", set_unit, move_unit },
        { "scales near 1", set_near, move_near },
        { "short rotations", set_short, move_long },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
    return check_done();
}
