/* palette.h — what the skinning palettes need besides the ops themselves:
 * the rest (bind) pose of a skeleton and its inverse.
 *
 * The palette ops (ops.h: palette, palette_dq) take the global pose and an
 * inverse bind pose, either of the same n (crowd layout: element = joint x
 * characters + character) or, with call.per.characters = C, of n / C
 * elements: one per joint, shared by every character, as an engine keeps it
 * per skeleton (the same output, bit for bit, as that pose repeated for each
 * character; the per-joint form reads 40 bytes per joint once instead of per
 * element, and makes each joint's matrix once per PB_LANES characters).
 * pb_rest_pose_from_bvh and pb_inverse_bind_from_rest write either form:
 * n = skel->n (every character) or skel->joints (one per joint). Both are
 * set-up calls: they run once per skeleton, not per frame, so they scan
 * their inputs and compute in double. */
#ifndef POSEBENCH_PALETTE_H
#define POSEBENCH_PALETTE_H

#include "export.h"
#include "status.h"
#include "pose.h"
#include "skeleton.h"
#include "bvh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rest locals of a BVH skeleton for a crowd skeleton skel of the same
 * joint count: pos = the joint's OFFSET, rot = identity, scl = 1, for every
 * character, or once per joint when rest->n = skel->joints (velocity planes,
 * when rest has them, zero). Errors: PB_ERR_NULL (bvh, its offsets, skel),
 * PB_ERR_SIZE (bvh->joints != skel->joints, or rest->n neither skel->n nor
 * skel->joints), pb_pose_check's for rest (prefixed "rest"). On error
 * nothing is written. */
PB_API pb_status pb_rest_pose_from_bvh(const pb_bvh_skeleton *bvh, const pb_skeleton *skel, pb_pose *rest);

/* The inverse bind pose: inv_bind = inv(fk(rest_local)) per element, in the
 * kineform algebra of the ops (kform_inv: pos -inv(s) (conj(q) p), rot conj(q),
 * scl 1/s). M(inv_bind) is the exact inverse matrix of M(fk(rest)) when the
 * global rest scales are uniform per joint (BVH rests: scale 1); with
 * non-uniform scales the inverse of R S is not a T R S and the kineform
 * inverse is the usual engine approximation. Computed in double, rounded
 * once. inv_bind may be the same pose as rest_local; velocity planes of
 * inv_bind, when it has them, are set to zero.
 * Both poses hold skel->n elements, or both skel->joints (one per joint: the
 * shared form of the palette ops).
 * Errors: PB_ERR_NULL (skel, rest_local, inv_bind), PB_ERR_PARAM (skel not
 * made by pb_skeleton_init), PB_ERR_SIZE (the poses' n not both skel->n or
 * both skel->joints),
 * pb_pose_check's (prefixed "rest_local" / "inv_bind"), PB_ERR_PARAM (a
 * non-finite value or a zero scale in rest_local, or a global rest scale
 * that underflows or overflows: the message names the element and plane).
 * On error nothing is written. */
PB_API pb_status pb_inverse_bind_from_rest(const pb_skeleton *skel, const pb_pose *rest_local, pb_pose *inv_bind);

#ifdef __cplusplus
}
#endif
#endif
