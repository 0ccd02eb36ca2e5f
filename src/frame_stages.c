/* frame_stages.c — a timed frame of a pb_frame_crowd as its stages in order (frame.h: pb_frame_step,
 * pb_frame_stages_run), the times of timed frame k, and the stage names; the stages themselves are in
 * frame_crowd.c. */
#include <math.h>

#include "posebench/frame.h"
#include "internal.h"   /* pb_fail */
#include "frame_int.h"

pb_status pb_frame_crowd_ok(const pb_frame_crowd *c, const char *fn)
{
    if (!c || !c->sc || !c->memos) return pb_fail(PB_ERR_NULL, "%s: crowd is NULL or not initialized", fn);
    return PB_OK;
}

/* Clip time of frame k: within the first half of the clip, so time + offset
 * stays inside it (sampling never holds an end key). */
float pb_frame_crowd_clip_time(const pb_frame_crowd *c, int role, int k)
{
    if (pb_frame_crowd_ok(c, "pb_frame_crowd_clip_time") != PB_OK) return NAN;
    if (role != 0 && role != 1) {
        pb_fail(PB_ERR_PARAM, "pb_frame_crowd_clip_time: role = %d (0 source, 1 destination)", role);
        return NAN;
    }
    float half = 0.5f * pb_clip_duration(&c->sc->clip[c->clip_of[role]]);
    return half > 0 ? fmodf((float)k * PB_FRAME_DT, half) : 0.0f;
}
/* Time since the transition: cycles through the window, so every timed
 * frame is mid-transition (every character blending: the worst case). */
float pb_frame_crowd_trans_time(const pb_frame_crowd *c, int k)
{
    if (pb_frame_crowd_ok(c, "pb_frame_crowd_trans_time") != PB_OK) return NAN;
    return c->duration > 0 ? fmodf((float)k * PB_FRAME_DT, c->duration) : 0.0f;
}

pb_status pb_frame_step(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int k)
{
    return pb_frame_stages_run(c, v, m, k, 0, PB_FS_COUNT);
}

static const char *const stage_names[PB_FS_COUNT] = { "sample_src", "sample_dst", "transition", "additive",
                                                      "legs_fk", "ik", "fk", "palette", "skin" };
const char *pb_frame_stage_name(pb_frame_stage s)
{
    return (unsigned)s < PB_FS_COUNT ? stage_names[s] : NULL;
}

pb_status pb_frame_transition(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, float t)
{
    return pb_frame_transition_at(c, v, m, t, 0);
}

static pb_status stage_do(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int samples, int k, pb_frame_stage s)
{
    switch (s) {
    case PB_FS_SAMPLE_SRC:   /* a frozen cross-fade's source is the state kept from the transition */
        return samples == 2 && !c->frozen ? pb_frame_sample(c, v, 0, pb_frame_crowd_clip_time(c, 0, k)) : PB_OK;
    case PB_FS_SAMPLE_DST:
        return pb_frame_sample_into(c, v, 1, pb_frame_crowd_clip_time(c, 1, k), m == PB_FM_INERTIALIZE ? &c->local : &c->dst);
    case PB_FS_TRANSITION: return pb_frame_transition_at(c, v, m, pb_frame_crowd_trans_time(c, k), 1);
    case PB_FS_ADDITIVE: return pb_frame_additive(c, v);
    case PB_FS_LEG_FK: return pb_frame_leg_fk(c, v);
    case PB_FS_IK: return pb_frame_ik(c, v);
    case PB_FS_FK: return pb_frame_fk(c, v);
    case PB_FS_PALETTE: return pb_frame_palette(c, v);
    default: return pb_frame_skin(c, v);
    }
}

pb_status pb_frame_stages_run(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int k, pb_frame_stage from,
                              pb_frame_stage to)
{
    const pb_frame_method_info *info = pb_frame_method_get(m);
    if (!c || !c->sc) return pb_fail(PB_ERR_NULL, "pb_frame_stages_run: crowd is NULL or not initialized");
    if (!info) return pb_fail(PB_ERR_PARAM, "pb_frame_stages_run: method %d is not a pb_frame_method", (int)m);
    if (k < 0) return pb_fail(PB_ERR_PARAM, "pb_frame_stages_run: frame k = %d is negative", k);
    if ((unsigned)from > (unsigned)to || (unsigned)to > PB_FS_COUNT)
        return pb_fail(PB_ERR_PARAM, "pb_frame_stages_run: stages [%d, %d) are not within [0, %d)", (int)from, (int)to,
                       PB_FS_COUNT);
    pb_status s = PB_OK;
    for (int st = from; s == PB_OK && st < (int)to; st++) s = stage_do(c, v, m, info->samples, k, (pb_frame_stage)st);
    return s;
}

pb_status pb_frame_stage_run(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int k, pb_frame_stage s)
{
    if ((unsigned)s >= PB_FS_COUNT)
        return pb_fail(PB_ERR_PARAM, "pb_frame_stage_run: stage %d is not a pb_frame_stage", (int)s);
    return pb_frame_stages_run(c, v, m, k, s, (pb_frame_stage)(s + 1));
}
