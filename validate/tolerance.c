/* tolerance.c — the one tolerance table. A variant passes a metric when its
 * worst error against the double oracle is at most max(k x the float
 * reference's own worst error on the same inputs, floor). Floors are absolute
 * and sit a little above what correctly rounded float arithmetic can reach on
 * each output; every row says why. Method error (nlerp vs slerp, fast_negexp
 * vs exp) is never folded in here: it is reported in its own column, and only
 * _est ops are judged on it, against their own looser method_bound.
 *
 * Float quantities for orientation: ulp(1) = 1.19e-7, so a unit quaternion
 * whose components are each off by half an ulp is about 1.2e-7 rad from the
 * exact rotation; a few roundings of intermediate products make 2-3e-7. */
#include <string.h>
#include "validate.h"

#define NONE (-1.0)

static const pb_tolerance table[] = {
    /* op                          k  rot   norm  abs   srel  vrel  method   reason
     * (rot: rad; norm: ||q|-1|; abs: data units; srel: scale relative; vrel: 3-vector
     * relative; NONE: that metric is reported, not judged; last column, vel: bound on velocity
     * consistency for PB_OPF_VELCHECK ops, relative to max(1, |v|): central differences with
     * h = 1e-5 in double agree with exact derivatives to ~1e-7 on the generated motion, while a
     * missing or wrong term shows up at 1e-2 .. 1) */
    { "quat_mul",                  4, 4e-7, 1e-6, NONE, NONE, NONE, NONE,
      "16 products and 12 sums: a few ulp per component, same as the float reference", NONE, NONE },
    { "quat_inv_mul",              4, 4e-7, 1e-6, NONE, NONE, NONE, NONE, "as quat_mul", NONE, NONE },
    { "quat_mul_inv",              4, 4e-7, 1e-6, NONE, NONE, NONE, NONE, "as quat_mul", NONE, NONE },
    { "quat_mul_vec3",             4, NONE, NONE, 2e-6, NONE, NONE, NONE,
      "two cross products on |v| <= 3.5 m: a few ulp of 2-4 m (ulp(2) = 2.4e-7)", NONE, NONE },
    { "quat_inv_mul_vec3",         4, NONE, NONE, 2e-6, NONE, NONE, NONE, "as quat_mul_vec3", NONE, NONE },
    { "quat_abs",                  1, NONE, 1e-6, 0.0, NONE, NONE, NONE,
      "a sign flip is exact: any difference, including the wrong sign, fails", NONE, NONE },
    { "quat_normalize",            4, 4e-7, 1e-6, NONE, NONE, NONE, NONE,
      "one sqrt and one division (or NEON estimate + Newton): ~2 ulp per component", NONE, NONE },
    { "quat_exp",                  2, 4e-7, 1e-6, NONE, NONE, NONE, NONE,
      "|v| as a two-part sum (error-free squares and sums, residual-corrected sqrt) and sin/cos of that "
      "sum (exact Cody-Waite step, first-order low part), so the angle is not rounded to ulp(pi) = 2.4e-7; "
      "polynomial sin/cos ~1 ulp. Every class incl. mocap (|v| to ~60): reference 1.8e-7, variants <= 2.7e-7 "
      "(neon-emu; 2.6e-7 others); tests/test_numerics.c: <= 2.2e-7 at |v| <= pi/2, <= 2.9e-7 above "
      "(was 6.7e-7 reference, 7.6e-7 variants; mocap 2.1e-5)", NONE, NONE },
    { "quat_log",                  2, NONE, NONE, 4e-7, NONE, 3e-7, NONE,
      "atan2 form (tiny angles keep full relative precision), with |v|, the angle (octant fix-ups as two-part "
      "sums) and angle/|v| in two parts and v times it rounded once. Every class: reference 1.8e-7 abs, variants "
      "<= 1.6e-7 abs and 1.9e-7 rel (neon-emu); tests/test_numerics.c: <= 1.6e-7 at w >= 0, 2.5e-7 at w < 0 "
      "(half-angle near pi; was 5.7e-7 reference, 6.8e-7 variants)", NONE, NONE },
    { "quat_from_scaled_angle_axis", 2, 4e-7, 1e-6, NONE, NONE, NONE, NONE, "quat_exp of v / 2 (exact halving)", NONE, NONE },
    { "quat_to_scaled_angle_axis", 2, NONE, NONE, 8e-7, NONE, 3e-7, NONE,
      "2 x quat_log (exact doubling): twice its absolute floor; reference 3.7e-7 abs, variants <= 3.3e-7", NONE, NONE },
    { "slerp_shortest",            4, 4e-7, 1e-6, NONE, NONE, NONE, NONE,
      "atan2 angle + three polynomial sines + one division; issue bound 4e-7 rad on every class", NONE, NONE },
    { "nlerp_shortest",            4, 4e-7, 1e-6, NONE, NONE, NONE, NONE,
      "lerp + normalize: rounding only; nlerp vs slerp is method error, shown, not judged", NONE, NONE },
    { "eerp",                      4, NONE, NONE, NONE, 1e-6, NONE, NONE,
      "exp of lerped logs of scales in [e^-1, e]: ~2 ulp from log, ~2 from exp, relative", NONE, NONE },
    { "negexp",                    4, NONE, NONE, NONE, 1e-6, NONE, NONE,
      "polynomial exp on [-16, 0]: a few ulp relative", NONE, NONE },
    { "fast_negexp_est",           4, NONE, NONE, NONE, 1e-6, NONE, 2e-2,
      "rational approximation: its rounding is tight (relative); its method error vs exp(-x) is the "
      "approximation's own, 1.876e-2 absolute at worst (x = 3.34, dense sampling of [0, 16] in double)", NONE, NONE },
    { "smoothstep",                4, NONE, NONE, 1e-6, NONE, NONE, NONE,
      "cubic and its derivative on [-0.5, 1.5]: values <= 1.5, a few ulp", NONE, NONE },
    { "blend_static",              4, 4e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "slerp bound on rotations (issue: 4e-7 rad); lerp of |x| <= 10 is a few ulp of 10 (ulp(8) = 9.5e-7); "
      "eerp bound on scales", NONE, NONE },
    { "blend_static_nlerp",        4, 4e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "as blend_static with nlerp; nlerp vs slerp is method error, shown, not judged", NONE, NONE },
    { "pose_to_aos",               1, NONE, NONE, 0.0, NONE, NONE, NONE, "a copy: must be exact", NONE, NONE },
    { "pose_from_aos",             1, NONE, 1e-6, 0.0, 0.0, NONE, NONE, "a copy: must be exact", NONE, NONE },
    /* Kineform rows: positions are lever arms of |p| <= 2 m scaled by e^1 and rotated: tens of
     * ulp of 2-6 m in the velocity terms, where three products of sizeable vectors add up. */
    { "kform_mul",                 4, 4e-7, 1e-6, 2e-5, 1e-6, NONE, NONE,
      "composition: rotation as quat_mul; positions and velocities sum rotated, scaled lever terms of up "
      "to ~50 units/s (ulp(32) = 3.8e-6)", 1e-5, NONE },
    { "kform_div",                 4, 4e-7, 1e-6, 2e-5, 1e-6, NONE, NONE,
      "as kform_mul, with divisions by scales in [e^-1, e] that can magnify by e", 1e-5, NONE },
    { "kform_inv",                 4, 4e-7, 1e-6, 2e-5, 1e-6, NONE, NONE, "kform_div(a, identity)", 1e-5, NONE },
    { "kform_mul_dir",             4, NONE, NONE, 4e-6, NONE, NONE, NONE, "rotate a scaled direction", NONE, NONE },
    { "kform_mul_pos",             4, NONE, NONE, 4e-6, NONE, NONE, NONE, "rotate a scaled offset and add", NONE, NONE },
    { "kform_mul_vel",             4, NONE, NONE, 2e-5, NONE, NONE, NONE, "the velocity terms of kform_mul", NONE, NONE },
    { "finite_diff",               4, 4e-7, 1e-6, NONE, 1e-6, NONE, NONE,
      "differences divided by dt (as small as 1/120 s): absolute errors grow as 1/dt, so velocities "
      "are judged against k x the float reference alone (abs floor none)", NONE, NONE },
    { "timescale",                 4, 4e-7, 1e-6, 4e-6, 1e-6, NONE, NONE, "one product per velocity", NONE, NONE },
    /* Kinematics over skeletons (bones <= 17 cm, chains up to 16 deep, 4096 joints up to 24 deep):
     * errors accumulate down each chain, so positions are held by object-space error. */
    { "fk",                        4, 2e-6, 2e-6, 2e-5, 1e-6, NONE, NONE,
      "16-24 compositions in a chain: a few ulp each on rotations (~2e-7 rad per level) and positions "
      "of a few metres; object space: issue bound 1e-4 cm on 3 cm virtual vertices", 1e-5, 1e-4 },
    { "fk_static",                 4, 2e-6, 2e-6, 2e-5, 1e-6, NONE, NONE, "as fk, transforms only", NONE, 1e-4 },
    { "bk",                        4, 4e-7, 1e-6, 2e-5, 1e-6, NONE, NONE,
      "one kform_div per joint from globals: no accumulation", 1e-5, NONE },
    /* Transitions and layers: rotations through log/exp (half-angles <= pi/2 after the
     * shorter-arc choice) and the Jacobians; velocities sum products of rates up to ~10/s
     * with rotation vectors up to pi. */
    { "blend",                     4, 4e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "blend_static's pose bounds; velocities: slerp angular velocity through log, exp and two "
      "Jacobians (series below 0.25 rad), a few ulp of ~30 rad/s", 1e-5, NONE },
    { "additive_world_static",     4, 6e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "delta rotation by log/exp (as quat_exp/log) then one product: one more rounding step than slerp", NONE, NONE },
    { "additive_local_static",     4, 6e-7, 1e-6, 4e-6, 1e-6, NONE, NONE, "as additive_world_static", NONE, NONE },
    { "additive",                  4, 6e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "additive_local_static's pose; velocities through the Jacobians as blend", 1e-5, NONE },
    { "inertialize_offset",        4, 4e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "differences, a shorter-arc delta and one inverse Jacobian", NONE, NONE },
    { "inertialize",               4, 6e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "destination plus a cubic-decayed offset: exp of a rotation vector up to pi, one product", 1e-5, NONE },
    { "extrapolate_decayed",       4, 6e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "closed-form decay: exp of w f / 2 with |w f| up to ~10 rad (sin/cos reduced from there)", 1e-5, NONE },
    { "dead_blending",             4, 6e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "extrapolate_decayed then blend", 1e-5, NONE },
    /* Look-at and IK: rotations built from directions (normalize, cross, atan2 of sides). */
    { "lookat_static",             4, 6e-7, 1e-6, 4e-6, NONE, NONE, NONE,
      "direction from positions up to 4 m apart, normalized, then the half-way quaternion: a few ulp", NONE, NONE },
    { "lookat",                    4, 6e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "lookat_static plus the derivative of the half-way quaternion (divides by |target - head| >= 0.3 m)",
      1e-5, NONE },
    { "two_bone_ik",               4, 2e-6, 1e-6, 4e-6, NONE, NONE, NONE,
      "angles from side lengths (atan2 with Heron's product). Near-straight (reach clamped 1e-4 short) and "
      "folded chains are ill-conditioned: the angle moves as the square root of a length residue; measured "
      "float reference 1e-5 rad on random chains, 1.6e-4 with the target at the root", NONE, NONE },
    { "two_bone_ik_vel",           4, 2e-6, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "two_bone_ik, plus rates from two solves dt apart (rounding divided by dt >= 1/120 s: judged against "
      "k x reference). vel: checked at dt = 1 ms on chains away from their singularities (validate.c "
      "chain_regular): central two-sample rate measured 6.8e-4 relative", 5e-3, NONE },
    /* Sampling: keys are random (any rotation between consecutive frames). */
    { "sample_linear",             4, 4e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "as blend_static between two keys; velocities are key differences times the frame rate (up to "
      "120/s), judged against k x reference", 1e-5, NONE },
    { "sample_cubic",              4, 8e-7, 1e-6, 4e-6, 1e-6, NONE, NONE,
      "Catmull-Rom over rotation vectors relative to a key (log, Hermite, exp): two more rounding steps "
      "than slerp; velocities through the Jacobian, times the frame rate. vel: h^2 truncation of the check "
      "on random keys (large third derivatives) measured 7.9e-6", 2e-5, NONE },
    { "unroll",                    1, NONE, 1e-6, 0.0, 0.0, NONE, NONE,
      "copies and negations only: exact, sign included (dot products are summed in one order everywhere, "
      "so even exact ties resolve alike)", NONE, NONE },
};

const pb_tolerance *pb_tolerance_for(const char *op)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].op, op) == 0) return &table[i];
    return NULL;
}

double pb_tolerance_floor(const pb_tolerance *t, pb_metric_kind kind)
{
    switch (kind) {
    case PB_M_ROT_ANGLE: return t->rot_floor;
    case PB_M_ROT_NORM: return t->norm_floor;
    case PB_M_ROT_COMP:
    case PB_M_VEC_ABS:
    case PB_M_AOS_ABS: return t->abs_floor;
    case PB_M_OBJ_SPACE: return t->obj_floor;
    case PB_M_VEC_REL: return t->vrel_floor;
    case PB_M_SCL_REL: return t->rel_floor;
    default: return NONE;
    }
}
