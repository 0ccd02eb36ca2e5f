/* clip.c — clip allocation and checks. */
#include <math.h>
#include <string.h>
#include "internal.h"

pb_status pb_clip_alloc(pb_clip *clip, size_t frames, size_t joints, float fps)
{
    if (!clip) return pb_fail(PB_ERR_NULL, "pb_clip_alloc: clip is NULL");
    memset(clip, 0, sizeof *clip);
    if (frames == 0 || joints == 0)
        return pb_fail(PB_ERR_EMPTY, "pb_clip_alloc: %zu frames x %zu joints (both must be > 0)", frames, joints);
    if (!isfinite(fps) || !(fps > 0)) return pb_fail(PB_ERR_PARAM, "pb_clip_alloc: fps = %g (must be > 0)", (double)fps);
    if (frames > SIZE_MAX / joints) return pb_fail(PB_ERR_SIZE, "pb_clip_alloc: %zu x %zu elements overflow", frames, joints);
    pb_status s = pb_pose_alloc(&clip->pose, frames * joints);
    if (s != PB_OK) return s;
    clip->frames = frames;
    clip->joints = joints;
    clip->fps = fps;
    clip->frame_time = 1.0f / fps;
    return PB_OK;
}

void pb_clip_free(pb_clip *clip)
{
    if (!clip) return;
    pb_pose_free(&clip->pose);
    memset(clip, 0, sizeof *clip);
}

pb_status pb_clip_check(const pb_clip *clip)
{
    if (!clip) return pb_fail(PB_ERR_NULL, "clip is NULL");
    if (clip->frames == 0 || clip->joints == 0)
        return pb_fail(PB_ERR_EMPTY, "clip has %zu frames x %zu joints", clip->frames, clip->joints);
    if (!isfinite(clip->fps) || !(clip->fps > 0)) return pb_fail(PB_ERR_PARAM, "clip fps = %g (must be > 0)", (double)clip->fps);
    if (clip->frames > SIZE_MAX / clip->joints || clip->pose.n != clip->frames * clip->joints)
        return pb_fail(PB_ERR_SIZE, "clip pose has n = %zu, expected %zu frames x %zu joints", clip->pose.n, clip->frames,
                       clip->joints);
    return pb_pose_check(&clip->pose, "clip.pose");
}
