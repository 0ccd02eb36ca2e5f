/* clip.h — an animation clip: frames x joints of local transforms, sampled
 * by sample_linear / sample_cubic, loaded from BVH by bvh.h.
 *
 * Storage is frame-major in the pose layout: element = frame * joints +
 * joint, so one frame is contiguous; the pos, rot and scl planes are keys,
 * velocity planes are unused. Sampling a crowd gathers each character's
 * frames (characters play at their own times). */
#ifndef POSEBENCH_CLIP_H
#define POSEBENCH_CLIP_H

#include "export.h"
#include <stddef.h>
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pb_clip {
    size_t frames, joints;
    float frame_time;   /* seconds per frame */
    float fps;          /* 1 / frame_time */
    size_t warnings;    /* warnings emitted while loading (bvh.h) */
    pb_pose pose;       /* n = frames * joints, element = frame * joints + joint */
} pb_clip;

/* Allocate a clip of frames x joints identity keys at fps.
 * Errors: PB_ERR_NULL, PB_ERR_EMPTY (frames or joints 0), PB_ERR_PARAM (fps not
 * finite and > 0), PB_ERR_SIZE, PB_ERR_NOMEM. */
PB_API pb_status pb_clip_alloc(pb_clip *clip, size_t frames, size_t joints, float fps);
PB_API void pb_clip_free(pb_clip *clip);
/* Check a clip's fields and its pose (fps > 0 and finite, pose.n = frames x joints). */
PB_API pb_status pb_clip_check(const pb_clip *clip);
/* The clip's key-to-key turns, for the sample_linear_turns op (ops.h), which reads them instead
 * of computing the same turn for every character at every frame (a quaternion product, a square
 * root and an atan2 per joint: sample_linear_turns is 12-20 % faster than sample_linear on AVX-512
 * and AVX2, 31-37 % on SSE4.1, measured in docs/performance.md). Element
 * frame x joints + joint of turns: t = key(frame + 1) key(frame)^-1 of that joint on the shorter
 * arc (t.w >= 0; the last frame: its key's turn to itself) in the rot planes, |t.v| in pos.x and
 * the half angle atan2(|t.v|, t.w) in pos.y (0 where |t.v| is 0); pos.z 0, the scales 1 and any
 * velocity planes 0. Made in double, rounded to float. The table is a copy of what the keys say:
 * after a key changes, make it again (a stale table samples the old turn). Memory: a pose of
 * frames x joints, static (10 floats per key, of which the sampler reads 5: about half a clip's
 * own pose of 19 planes) or not.
 * Errors: PB_ERR_NULL, the clip's pb_clip_check error, turns' pb_pose_check error, PB_ERR_SIZE
 * (turns.n not frames x joints), PB_ERR_ALIAS (turns overlaps the clip's pose), PB_ERR_PARAM (a key's
 * rotation not finite: its frame, joint and component named); on error turns is not written. */
PB_API pb_status pb_clip_turns(const pb_clip *clip, pb_pose *turns);
/* Joint limits (pb_joint_limits, ops.h) from the motion in clips: per joint and axis, the
 * smallest and largest component of l = the scaled angle-axis vector of rest^-1 r (shorter
 * arc) over every frame of every clip, rounded outward to float. rest: 4 floats per joint (w,
 * x, y, z) or NULL (identity: BVH's rest pose). lo, hi: 3 x joints floats each, written only
 * on success. Errors: PB_ERR_NULL (clips, lo or hi), PB_ERR_EMPTY (count 0), any clip's
 * pb_clip_check error (named by index), PB_ERR_SIZE (clips with different joint counts),
 * PB_ERR_PARAM (a rest rotation not unit within 1e-3). */
PB_API pb_status pb_clip_joint_limits(const pb_clip *const *clips, size_t count, const float *rest, float *lo, float *hi);

#ifdef __cplusplus
}
#endif
#endif
