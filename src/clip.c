/* clip.c — clip allocation and checks. */
#include <math.h>
#include <string.h>
#include "internal.h"
#include "qd.h"

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

pb_status pb_clip_joint_limits(const pb_clip *const *clips, size_t count, const float *rest, float *lo, float *hi)
{
    if (!clips || !lo || !hi) return pb_fail(PB_ERR_NULL, "pb_clip_joint_limits: %s is NULL", !clips ? "clips" : !lo ? "lo" : "hi");
    if (count == 0) return pb_fail(PB_ERR_EMPTY, "pb_clip_joint_limits: no clips (count = 0)");
    for (size_t k = 0; k < count; k++) {
        pb_status s = pb_clip_check(clips[k]);
        if (s != PB_OK) return pb_fail(s, "pb_clip_joint_limits: clips[%zu]: %s", k, pb_last_error());
        if (clips[k]->joints != clips[0]->joints)
            return pb_fail(PB_ERR_SIZE, "pb_clip_joint_limits: clips[%zu] has %zu joints, clips[0] %zu", k,
                           clips[k]->joints, clips[0]->joints);
    }
    size_t J = clips[0]->joints;
    for (size_t j = 0; rest && j < J; j++) {
        double len = pb_quat_len(rest + 4 * j);
        if (!(fabs(len - 1) <= PB_UNIT_TOL))
            return pb_fail(PB_ERR_PARAM, "pb_clip_joint_limits: rest of joint %zu has |q| = %g (must be unit)", j, len);
    }
    for (size_t j = 0; j < J; j++) {
        double l[3] = { INFINITY, INFINITY, INFINITY }, h[3] = { -INFINITY, -INFINITY, -INFINITY };
        qd ir = rest ? qd_conj((qd){ rest[4 * j], rest[4 * j + 1], rest[4 * j + 2], rest[4 * j + 3] }) : (qd){ 1, 0, 0, 0 };
        for (size_t k = 0; k < count; k++)
            for (size_t f = 0; f < clips[k]->frames; f++) {
                double v[3];
                qd_saa(qd_mul(ir, qd_norm(qd_get(&clips[k]->pose, f * J + j))), v);
                for (int a = 0; a < 3; a++) {
                    if (v[a] < l[a]) l[a] = v[a];
                    if (v[a] > h[a]) h[a] = v[a];
                }
            }
        for (int a = 0; a < 3; a++) {   /* rounded outward: every frame stays inside in float */
            lo[3 * j + (size_t)a] = nextafterf((float)l[a], -INFINITY);
            hi[3 * j + (size_t)a] = nextafterf((float)h[a], INFINITY);
        }
    }
    return PB_OK;
}

/* The turns of sample_linear_turns (clip.h). Checked whole, then written: nothing half-written. */
pb_status pb_clip_turns(const pb_clip *clip, pb_pose *turns)
{
    if (!clip || !turns) return pb_fail(PB_ERR_NULL, "pb_clip_turns: %s is NULL", clip ? "turns" : "clip");
    pb_status s = pb_clip_check(clip);
    if (s == PB_OK) s = pb_pose_check(turns, "turns");
    if (s != PB_OK) return s;
    size_t F = clip->frames, J = clip->joints;
    if (turns->n != clip->pose.n)
        return pb_fail(PB_ERR_SIZE, "pb_clip_turns: turns has n = %zu, the clip %zu frames x %zu joints", turns->n, F, J);
    if (pb_poses_overlap(turns, &clip->pose))
        return pb_fail(PB_ERR_ALIAS, "pb_clip_turns: turns overlaps the clip's pose");
    for (size_t e = 0; e < clip->pose.n; e++)
        for (int p = PB_ROT_W; p <= PB_ROT_Z; p++)
            if (!isfinite(clip->pose.plane[p][e]))
                return pb_fail(PB_ERR_PARAM, "pb_clip_turns: the key of frame %zu, joint %zu has rotation component %d = %g "
                               "(must be finite)", e / J, e % J, p - PB_ROT_W, (double)clip->pose.plane[p][e]);
    for (size_t e = 0; e < clip->pose.n; e++) {
        size_t e2 = e + J < clip->pose.n ? e + J : e;   /* the last frame: its turn to itself */
        qd t = qd_mul(qd_get(&clip->pose, e2), qd_conj(qd_get(&clip->pose, e)));
        if (t.w < 0) t = (qd){ -t.w, -t.x, -t.y, -t.z };   /* the shorter arc */
        double sv = sqrt(t.x * t.x + t.y * t.y + t.z * t.z);
        float *const *o = turns->plane;
        o[PB_ROT_W][e] = (float)t.w, o[PB_ROT_X][e] = (float)t.x, o[PB_ROT_Y][e] = (float)t.y, o[PB_ROT_Z][e] = (float)t.z;
        o[PB_POS_X][e] = (float)sv;
        o[PB_POS_Y][e] = sv > 0 ? (float)atan2(sv, t.w) : 0.0f;
        o[PB_POS_Z][e] = 0.0f;
        for (int p = PB_SCL_X; p < PB_PLANES; p++)
            if (o[p]) o[p][e] = pb_plane_identity(p);
    }
    return PB_OK;
}
