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

#endif
