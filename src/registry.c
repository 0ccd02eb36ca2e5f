/* registry.c — one row per op: what it reads, what it writes, its flags.
 * The harness, the CLI and (later) the benchmarks work from this table. */
#include <string.h>
#include "internal.h"

#define G(g) (1u << PB_G_##g)
#define ALL (G(POS) | G(ROT) | G(SCL) | G(VEL) | G(ANG) | G(SVL))

const int pb_aos_width[PB_AOS_ARRAYS] = { 3, 4, 3, 3, 3, 3 };
const int pb_aos_plane[PB_AOS_ARRAYS] = { PB_POS_X, PB_ROT_W, PB_SCL_X, PB_VEL_X, PB_ANG_X, PB_SVL_X };

static const pb_op_info ops[PB_OP_COUNT] = {
    [PB_OP_quat_mul] = { "quat_mul", "out.rot = a.rot * b.rot", G(ROT), G(ROT), G(ROT), 0, 0, 0, -1 },
    [PB_OP_quat_inv_mul] = { "quat_inv_mul", "out.rot = inv(a.rot) * b.rot", G(ROT), G(ROT), G(ROT), 0, 0, 0, -1 },
    [PB_OP_quat_mul_inv] = { "quat_mul_inv", "out.rot = a.rot * inv(b.rot)", G(ROT), G(ROT), G(ROT), 0, 0, 0, -1 },
    [PB_OP_quat_mul_vec3] = { "quat_mul_vec3", "out.pos = a.rot rotating b.pos", G(ROT), G(POS), G(POS), 0, 0, 0, -1 },
    [PB_OP_quat_inv_mul_vec3] = { "quat_inv_mul_vec3", "out.pos = inv(a.rot) rotating b.pos", G(ROT), G(POS), G(POS),
                                  0, 0, 0, -1 },
    [PB_OP_quat_abs] = { "quat_abs", "out.rot = a.rot or -a.rot, whichever has w >= 0", G(ROT), 0, G(ROT),
                         PB_OPF_SIGNED_ROT, 0, 0, -1 },
    [PB_OP_quat_normalize] = { "quat_normalize", "out.rot = a.rot / |a.rot| (zero -> identity)", G(ROT), 0, G(ROT),
                               PB_OPF_UNNORM_IN, 0, 0, -1 },
    [PB_OP_quat_exp] = { "quat_exp", "out.rot = exp((0, a.ang))", G(ANG), 0, G(ROT), PB_OPF_LOG_IN, 0, 0, -1 },
    [PB_OP_quat_log] = { "quat_log", "out.ang = log(a.rot) (half angle x axis)", G(ROT), 0, G(ANG), 0, 0, 0, -1 },
    [PB_OP_quat_from_scaled_angle_axis] = { "quat_from_scaled_angle_axis", "out.rot = exp(a.ang / 2)", G(ANG), 0,
                                            G(ROT), 0, 0, 0, -1 },
    [PB_OP_quat_to_scaled_angle_axis] = { "quat_to_scaled_angle_axis", "out.ang = 2 log(a.rot)", G(ROT), 0, G(ANG),
                                          0, 0, 0, -1 },
    [PB_OP_slerp_shortest] = { "slerp_shortest", "out.rot = slerp(a.rot, b.rot, alpha), shorter arc", G(ROT), G(ROT),
                               G(ROT), PB_OPF_ALPHA, 0, 0, -1 },
    [PB_OP_nlerp_shortest] = { "nlerp_shortest", "out.rot = normalize(lerp(a.rot, +-b.rot, alpha))", G(ROT), G(ROT),
                               G(ROT), PB_OPF_ALPHA, 0, 0, PB_OP_slerp_shortest },
    [PB_OP_eerp] = { "eerp", "out.scl = a.scl^(1-alpha) b.scl^alpha", G(SCL), G(SCL), G(SCL), PB_OPF_ALPHA, 0, 0, -1 },
    [PB_OP_negexp] = { "negexp", "out.scl = exp(-a.pos)", G(POS), 0, G(SCL), PB_OPF_SCALAR_IN, 0.0f, 16.0f, -1 },
    [PB_OP_fast_negexp_est] = { "fast_negexp_est", "out.scl = 1/(1 + x + 0.48x^2 + 0.235x^3), x = a.pos", G(POS), 0,
                                G(SCL), PB_OPF_SCALAR_IN | PB_OPF_EST, 0.0f, 16.0f, PB_OP_negexp },
    [PB_OP_smoothstep] = { "smoothstep", "out.pos = smoothstep(a.pos), out.vel = its derivative", G(POS), 0,
                           G(POS) | G(VEL), PB_OPF_SCALAR_IN, -0.5f, 1.5f, -1 },
    [PB_OP_blend_static] = { "blend_static", "lerp pos/vel/ang/svl, slerp rot, eerp scl", ALL, ALL, ALL, PB_OPF_ALPHA,
                             0, 0, -1 },
    [PB_OP_blend_static_nlerp] = { "blend_static_nlerp", "blend_static with nlerp rotations", ALL, ALL, ALL,
                                   PB_OPF_ALPHA, 0, 0, PB_OP_blend_static },
    [PB_OP_pose_to_aos] = { "pose_to_aos", "SoA pose a -> array-of-structs", ALL, 0, 0, PB_OPF_AOS_OUT, 0, 0, -1 },
    [PB_OP_pose_from_aos] = { "pose_from_aos", "array-of-structs -> SoA pose out", 0, 0, ALL,
                             PB_OPF_AOS_IN | PB_OPF_SIGNED_ROT, 0, 0, -1 },
    [PB_OP_kform_mul] = { "kform_mul", "out = a o b: child kineform b (in a's frame) taken to a's parent frame, "
                          "velocities included", ALL, ALL, ALL, PB_OPF_VELCHECK, 0, 0, -1 },
    [PB_OP_kform_div] = { "kform_div", "out = inv(a) o b: kineform b expressed in a's frame (exact inverse of "
                          "kform_mul in b; what bk does)", ALL, ALL, ALL, PB_OPF_VELCHECK, 0, 0, -1 },
    [PB_OP_kform_inv] = { "kform_inv", "out = inv(a) = kform_div(a, identity) (exact for uniform scale)", ALL, 0, ALL,
                          PB_OPF_VELCHECK, 0, 0, -1 },
    [PB_OP_kform_mul_dir] = { "kform_mul_dir", "out.pos = a.rot (a.scl * b.pos): a direction through a",
                              G(ROT) | G(SCL), G(POS), G(POS), 0, 0, 0, -1 },
    [PB_OP_kform_mul_pos] = { "kform_mul_pos", "out.pos = a.pos + a.rot (a.scl * b.pos): a point through a",
                              G(POS) | G(ROT) | G(SCL), G(POS), G(POS), 0, 0, 0, -1 },
    [PB_OP_kform_mul_vel] = { "kform_mul_vel", "out.vel = velocity of point b.pos moving at b.vel, through moving a",
                              G(ROT) | G(SCL) | G(VEL) | G(ANG) | G(SVL), G(POS) | G(VEL), G(VEL), 0, 0, 0, -1 },
    [PB_OP_finite_diff] = { "finite_diff", "out = b with vel/ang/svl the finite difference from a over dt (dt = 0: 0)",
                            G(POS) | G(ROT) | G(SCL), G(POS) | G(ROT) | G(SCL), ALL, PB_OPF_DT, 0, 0, -1 },
    [PB_OP_timescale] = { "timescale", "out = a with vel/ang/svl scaled by timescale", ALL, 0, ALL,
                          PB_OPF_TIMESCALE, 0, 0, -1 },
    [PB_OP_fk] = { "fk", "out = globals of local pose a over call.skel, velocities propagated (leverage, "
                   "expansion)", ALL, 0, ALL, PB_OPF_SKELETON | PB_OPF_VELCHECK | PB_OPF_OBJSPACE, 0, 0, -1 },
    [PB_OP_fk_static] = { "fk_static", "out.pos/rot/scl = globals of local pose a over call.skel",
                          G(POS) | G(ROT) | G(SCL), 0, G(POS) | G(ROT) | G(SCL), PB_OPF_SKELETON | PB_OPF_OBJSPACE,
                          0, 0, -1 },
    [PB_OP_bk] = { "bk", "out = locals of global pose a over call.skel (inverse of fk, velocities included)", ALL, 0,
                   ALL, PB_OPF_SKELETON | PB_OPF_VELCHECK, 0, 0, -1 },
    [PB_OP_blend] = { "blend", "blend_static with exact velocities: alpha_vel terms, slerp angular velocity through "
                      "the rotation-vector Jacobians", ALL, ALL, ALL,
                      PB_OPF_ALPHA | PB_OPF_ALPHA_VEL | PB_OPF_VELCHECK, 0, 0, -1 },
    [PB_OP_additive_world_static] = { "additive_world_static", "out = a with delta b applied at weight alpha in the "
                                      "parent frame (pos/rot/scl)", G(POS) | G(ROT) | G(SCL), G(POS) | G(ROT) | G(SCL),
                                      G(POS) | G(ROT) | G(SCL), PB_OPF_ALPHA, 0, 0, -1 },
    [PB_OP_additive_local_static] = { "additive_local_static", "out = a with delta b applied at weight alpha in the "
                                      "joint's own frame (pos/rot/scl)", G(POS) | G(ROT) | G(SCL),
                                      G(POS) | G(ROT) | G(SCL), G(POS) | G(ROT) | G(SCL), PB_OPF_ALPHA, 0, 0, -1 },
    [PB_OP_additive] = { "additive", "additive_local_static with velocities: the delta animating and the weight "
                         "changing at alpha_vel", ALL, ALL, ALL, PB_OPF_ALPHA | PB_OPF_ALPHA_VEL | PB_OPF_VELCHECK,
                         0, 0, -1 },
    [PB_OP_inertialize_offset] = { "inertialize_offset", "out = offset from destination b to source a at a "
                                   "transition (shorter-arc rotation, rotation-vector rate)", ALL, ALL, ALL, 0, 0, 0,
                                   -1 },
    [PB_OP_inertialize] = { "inertialize", "out = destination a plus offset b decayed by a cubic over duration, at "
                            "time", ALL, ALL, ALL,
                            PB_OPF_TIME | PB_OPF_DURATION | PB_OPF_VELCHECK | PB_OPF_B_FIXED, 0, 0, -1 },
    [PB_OP_extrapolate_decayed] = { "extrapolate_decayed", "out = transition pose a extrapolated to time with "
                                    "velocities decaying at halflife; roots hold (call.skel)", ALL, 0, ALL,
                                    PB_OPF_TIME | PB_OPF_HALFLIFE | PB_OPF_ROOTS | PB_OPF_VELCHECK | PB_OPF_A_FIXED, 0,
                                    0, -1 },
    [PB_OP_dead_blending] = { "dead_blending", "out = extrapolated transition pose a blended into destination b by "
                              "smoothstep(time / duration); roots take b's", ALL, ALL, ALL,
                              PB_OPF_TIME | PB_OPF_DURATION | PB_OPF_HALFLIFE | PB_OPF_ROOTS | PB_OPF_VELCHECK |
                                  PB_OPF_A_FIXED, 0, 0, -1 },
    [PB_OP_lookat_static] = { "lookat_static", "out = head a turned so its local params.axis points at target "
                              "b.pos (shorter arc)", G(POS) | G(ROT) | G(SCL), G(POS), G(POS) | G(ROT) | G(SCL),
                              PB_OPF_AXIS | PB_OPF_TARGET, 0, 0, -1 },
    [PB_OP_lookat] = { "lookat", "lookat_static with the exact angular velocity as head and target (b.vel) move",
                       ALL, G(POS) | G(VEL), ALL, PB_OPF_AXIS | PB_OPF_TARGET | PB_OPF_VELCHECK, 0, 0, -1 },
    [PB_OP_two_bone_ik] = { "two_bone_ik", "chains (root global, mid local, end local): root and mid rotations "
                            "solved so the end reaches b.pos of the end element", G(POS) | G(ROT) | G(SCL), G(POS),
                            G(POS) | G(ROT) | G(SCL), PB_OPF_CHAIN | PB_OPF_AXIS, 0, 0, -1 },
    [PB_OP_two_bone_ik_vel] = { "two_bone_ik_vel", "two_bone_ik with angular velocities from solves at t -+ dt/2 "
                                "(inputs moved by their velocities)", ALL, G(POS) | G(VEL), ALL,
                                PB_OPF_CHAIN | PB_OPF_AXIS | PB_OPF_DT | PB_OPF_VELCHECK, 0, 0, -1 },
    [PB_OP_sample_linear] = { "sample_linear", "out = call.clip at time + offsets[c] per character: lerp/slerp/eerp "
                              "of two keys, velocities over the key interval", 0, 0, ALL,
                              PB_OPF_SAMPLE | PB_OPF_TIME | PB_OPF_VELCHECK | PB_OPF_A_FIXED, 0, 0, -1 },
    [PB_OP_sample_cubic] = { "sample_cubic", "out = call.clip sampled with Catmull-Rom over four keys (rotations "
                             "and scales in log space), analytic velocities", 0, 0, ALL,
                             PB_OPF_SAMPLE | PB_OPF_TIME | PB_OPF_VELCHECK | PB_OPF_A_FIXED, 0, 0, -1 },
    [PB_OP_unroll] = { "unroll", "out = call.clip with each joint's rotations made hemisphere-continuous over frames "
                       "(q or -q, whichever is nearer the previous frame's)", 0, 0, ALL,
                       PB_OPF_CLIP_IN | PB_OPF_SIGNED_ROT, 0, 0, -1 },
};

const pb_op_info *pb_op_get(pb_op op) { return (unsigned)op < PB_OP_COUNT ? &ops[op] : NULL; }

pb_status pb_op_find(const char *name, pb_op *op)
{
    if (!name || !op) return pb_fail(PB_ERR_NULL, "pb_op_find: %s is NULL", name ? "op" : "name");
    for (int i = 0; i < PB_OP_COUNT; i++)
        if (strcmp(ops[i].name, name) == 0) {
            *op = (pb_op)i;
            return PB_OK;
        }
    return pb_fail(PB_ERR_OP, "unknown op '%s' (posebench ops lists them)", name);
}
