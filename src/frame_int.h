/* frame_int.h — what the frame pipeline's sources share inside the library. */
#ifndef POSEBENCH_FRAME_INT_H
#define POSEBENCH_FRAME_INT_H

#include "posebench/frame.h"

/* Two independent two-bone chains of s (s->leg, s->leg_desc), or none. */
void pb_scene_pick_legs_fallback(pb_scene *s);
/* The legs of s: by joint name (names may be NULL), by topology, else
 * pb_scene_pick_legs_fallback (frame_legs.c). Needs s->parents, s->joints and
 * s->clip[0] (rest bone lengths from its first key). */
void pb_scene_pick_legs(pb_scene *s, const char (*names)[PB_BVH_NAME_MAX]);

/* The bind pose's locals for `characters` characters into p (n = joints x
 * characters, crowd layout; its rotations, scales and velocities left as they
 * are, identity from pb_pose_alloc): each joint's local position in the
 * source clip's first frame (its bone), roots at the origin (frame_crowd.c). */
void pb_scene_bind_local(const pb_scene *sc, pb_pose *p, size_t characters);

/* PB_ERR_NULL naming fn unless c is a crowd pb_frame_crowd_init made (frame_stages.c). */
pb_status pb_frame_crowd_ok(const pb_frame_crowd *c, const char *fn);
/* pb_frame_sample into out (the stages sample an inertialization's destination into c->local), and
 * pb_frame_transition, in place in c->local for inplace (the stages'); both check their arguments
 * (frame_crowd.c). */
pb_status pb_frame_sample_into(pb_frame_crowd *c, const pb_variant *v, int role, float time, pb_pose *out);
pb_status pb_frame_transition_at(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, float t, int inplace);

#endif
