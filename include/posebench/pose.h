/* pose.h — the planar structure-of-arrays pose every op reads and writes.
 *
 * A pose holds n elements (joints, or joints x characters for crowds). Each of
 * the 19 components lives in its own float plane:
 *     pos.xyz  rot.wxyz  scl.xyz  vel.xyz  ang.xyz  svl.xyz
 * (position, rotation quaternion, scale, linear velocity, angular velocity,
 * scalar (log-scale) velocity). Every plane starts on a 64-byte boundary and
 * holds `stride` floats, stride = n rounded up to a multiple of PB_PAD (16).
 * Lanes n..stride-1 hold the identity (pos 0, rot (1,0,0,0), scl 1, velocities
 * 0), so kernels always process whole vectors of any width up to 16 floats and
 * never need a scalar tail; ops keep the padding at identity.
 * pb_pose_create spaces planes an odd number of 64-byte lines apart, so the
 * 20-30 streams of one op do not all start at the same 4 KiB page offset and
 * fight over the same L1 sets: measured on the 2-core
 * EPYC VM, this took a 4096-joint AVX2 nlerp blend from 57 to 25 us. Wrapped
 * poses (pb_pose_wrap) may lay planes out any way; placing them the same way
 * is worth it.
 *
 * Static poses hold only pos, rot and scl (10 planes; plane[PB_VEL_X ..
 * PB_SVL_Z] are NULL): what an engine blends, 120 B per joint for a two-pose
 * blend instead of 228. Ops that need velocities reject them (PB_ERR_STATIC,
 * naming the missing plane); ops that do not (the *_static ops, fk_static,
 * lookat_static, two_bone_ik, sampling into a static pose, the AoS
 * conversions) read and write only pos/rot/scl, on static and full poses alike.
 *
 * Crowds: C characters sharing a skeleton of J joints use n = J*C with
 * index = joint*C + character (pb_crowd_index), so one joint of all characters
 * is contiguous and can be processed across characters without gathers. */
#ifndef POSEBENCH_POSE_H
#define POSEBENCH_POSE_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_PAD   16   /* plane length is a multiple of this many floats */
#define PB_ALIGN 64   /* plane start alignment in bytes */

/* Plane indices. Groups of planes are contiguous; see pb_group below. */
enum pb_plane {
    PB_POS_X, PB_POS_Y, PB_POS_Z,
    PB_ROT_W, PB_ROT_X, PB_ROT_Y, PB_ROT_Z,
    PB_SCL_X, PB_SCL_Y, PB_SCL_Z,
    PB_VEL_X, PB_VEL_Y, PB_VEL_Z,
    PB_ANG_X, PB_ANG_Y, PB_ANG_Z,
    PB_SVL_X, PB_SVL_Y, PB_SVL_Z,
    PB_PLANES
};

#define PB_STATIC_PLANES 10   /* pos, rot, scl: the planes of a static pose */

/* Component groups, used as bit masks (1u << group) by the op registry. */
typedef enum pb_group {
    PB_G_POS, PB_G_ROT, PB_G_SCL, PB_G_VEL, PB_G_ANG, PB_G_SVL, PB_GROUPS
} pb_group;

/* First plane and plane count of a group; its name ("pos", "rot", ...). */
PB_API int pb_group_first(pb_group g);
PB_API int pb_group_size(pb_group g);
PB_API const char *pb_group_name(pb_group g);
/* Name of a plane ("pos.x", "vel.z"; "?" out of range). */
PB_API const char *pb_plane_name(int plane);
/* Identity value of a plane (0, 1 for rot.w and scl.*). */
PB_API float pb_plane_identity(int plane);

typedef struct pb_pose {
    size_t n;                  /* elements in use */
    size_t stride;             /* floats per plane: n rounded up to PB_PAD */
    float *plane[PB_PLANES];   /* 64-byte aligned planes */
    void *owned;               /* allocation owned by the pose (NULL when wrapped) */
    /* Generation: a number no other pose of the process has had, given by
     * pb_pose_alloc* and pb_pose_wrap (0 after pb_pose_free, and in a pose
     * described by hand). A plan keeps it: a pose freed and allocated again
     * in the same struct is a new pose, even at the same address. */
    uint64_t gen;
} pb_pose;

static inline size_t pb_padded(size_t n) { return (n + PB_PAD - 1) / PB_PAD * PB_PAD; }
static inline size_t pb_crowd_index(size_t joint, size_t character, size_t characters)
{
    return joint * characters + character;
}

/* Allocate a pose of n elements, all set to identity (padding included).
 * Errors: PB_ERR_NULL (p), PB_ERR_EMPTY (n = 0), PB_ERR_SIZE (n too large to
 * address), PB_ERR_NOMEM. On failure *p is left empty (safe to free). */
PB_API pb_status pb_pose_alloc(pb_pose *p, size_t n);

/* Allocate a static pose: pos, rot, scl only (velocity planes NULL). Errors as pb_pose_alloc. */
PB_API pb_status pb_pose_alloc_static(pb_pose *p, size_t n);

/* 1 if p has velocity planes (vel, ang, svl), 0 for a static pose. */
static inline int pb_pose_has_velocities(const pb_pose *p) { return p->plane[PB_VEL_X] != NULL; }

/* Free what pb_pose_alloc allocated and empty *p. NULL and empty poses are fine. */
PB_API void pb_pose_free(pb_pose *p);

/* Describe caller-owned planes as a pose (nothing is copied or allocated).
 * planes[i] must be 64-byte aligned and hold `stride` floats, stride a
 * multiple of PB_PAD and >= n; lanes n..stride-1 must already be identity.
 * The nine velocity planes may all be NULL: a static pose.
 * Errors: PB_ERR_NULL, PB_ERR_EMPTY, PB_ERR_SIZE, PB_ERR_ALIGN, PB_ERR_PADDING. */
PB_API pb_status pb_pose_wrap(pb_pose *p, size_t n, size_t stride, float *const planes[PB_PLANES]);

/* Check a pose's layout: non-NULL pos/rot/scl planes, velocity planes all
 * present or all NULL (static), n > 0, stride a multiple of PB_PAD
 * and >= n, 64-byte aligned planes, identity padding. `what` names the
 * argument in the error message ("a", "out"). */
PB_API pb_status pb_pose_check(const pb_pose *p, const char *what);

/* Copy every element of src into dst (same n): the planes dst has; src must
 * have them (PB_ERR_STATIC if dst has velocities and src is static).
 * Errors: NULL, size mismatch, layout, PB_ERR_STATIC. */
PB_API pb_status pb_pose_copy(pb_pose *dst, const pb_pose *src);

/* Set every element (and the padding) of p to identity. */
PB_API pb_status pb_pose_fill_identity(pb_pose *p);

/* Count NaN/Inf values in the n elements of p (the library never scans
 * pose data in its ops: NaN in, NaN out; this is the explicit check). */
PB_API pb_status pb_pose_count_nonfinite(const pb_pose *p, size_t *count);

/* ---- Array-of-structs layout, as engines store poses ----------------------- */
typedef struct pb_vec3 { float x, y, z; } pb_vec3;
typedef struct pb_quat { float w, x, y, z; } pb_quat;

/* n elements in caller-owned arrays (any alignment, no padding). vel, ang and
 * svl are NULL for a static pose's data: the AoS conversions move the arrays
 * the pose has (velocity arrays exactly when the pose has velocity planes). */
typedef struct pb_pose_aos {
    size_t n;
    pb_vec3 *pos;
    pb_quat *rot;
    pb_vec3 *scl;
    pb_vec3 *vel;
    pb_vec3 *ang;
    pb_vec3 *svl;
} pb_pose_aos;

#ifdef __cplusplus
}
#endif
#endif
