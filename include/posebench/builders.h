/* builders.h — inputs built from clips: crowds of characters playing clips at
 * their own times, and batches of transitions (clip A at a -> clip B at b)
 * for inertialization, dead blending and cross-fade experiments.
 *
 * Both produce poses in the crowd layout of pose.h (element = joint *
 * characters + character) by running the sample_linear / sample_cubic ops
 * through pb_run, so the velocity planes (vel, ang, svl) are the sampler's:
 * the time derivatives of the sampled pose (ops.h conventions), zero where a
 * character's time is outside its clip (the end key holds).
 *
 * Like every job in the library: an init/build call validates everything
 * and allocates what is needed once; the per-frame calls
 * (pb_crowd_build, pb_transitions_dest_at, pb_transitions_source_at)
 * allocate nothing. Clips are borrowed, not copied: they must outlive the
 * crowd / transitions built from them and keep their shape. A crowd or a
 * transition batch is used by one thread at a time (it owns scratch). */
#ifndef POSEBENCH_BUILDERS_H
#define POSEBENCH_BUILDERS_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "pose.h"
#include "clip.h"
#include "skeleton.h"
#include "bvh.h"
#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How clips are sampled: the sample_linear or the sample_cubic op. */
typedef enum pb_sample_method { PB_SAMPLE_LINEAR, PB_SAMPLE_CUBIC } pb_sample_method;

/* Duration of a clip in seconds: the latest time the samplers still treat
 * as inside it ((frames - 1) / fps, rounded down where float rounding would
 * put it past the last key). 0 for NULL or an empty clip. */
PB_API float pb_clip_duration(const pb_clip *clip);

/* ---- Crowds ------------------------------------------------------------------------ */

/* What a crowd plays. Character c plays clips[clip_of[c]] at time + offsets[c]. */
typedef struct pb_crowd_desc {
    const pb_clip *const *clips;  /* nclips clips, all with the same joint count */
    size_t nclips;
    size_t characters;            /* C: the crowd has joints x C elements */
    const size_t *clip_of;        /* C clip indices < nclips, or NULL: clip_of[c] = c % nclips */
    const float *offsets;         /* C time offsets in s (finite), or NULL: drawn from seed,
                                     uniform over [0, duration) of the character's clip */
    uint64_t seed;                /* only read when offsets is NULL */
    pb_sample_method method;
    int loop;                     /* nonzero: time + offsets[c] wraps into [0, duration) of the clip, so
                                     the crowd plays forever; 0: past the end the last key holds */
    const pb_variant *variant;    /* the variant the sampler runs with; NULL: the active one */
    const pb_pose *const *turns;  /* nclips poses, or NULL: clips[k]'s key-to-key turns (pb_clip_turns,
                                     clip.h; borrowed, as the clips). With PB_SAMPLE_LINEAR the crowd is
                                     then sampled by sample_linear_turns, which reads them instead of
                                     computing them per character; they must follow the clips' keys */
} pb_crowd_desc;

/* The crowd builder: a copy of the description plus its scratch.
 * Characters are grouped by clip (one pb_run per clip, SIMD across that
 * clip's characters); with more than one clip in use each group is sampled
 * into scratch and scattered into the crowd layout. Read-only for callers. */
typedef struct pb_crowd_builder {
    size_t joints, characters, n;   /* n = joints x characters */
    size_t nclips;
    pb_sample_method method;
    int loop;
    const pb_variant *variant;
    const pb_clip **clips;          /* copy of desc->clips (the clips themselves are borrowed) */
    const pb_pose **turns;          /* copy of desc->turns (borrowed), or NULL */
    size_t *clip_of;                /* per character: the clip it plays */
    float *offsets;                 /* per character: its time offset in s (given or drawn) */
    /* characters grouped by clip: group k is members[group_start[k] .. group_start[k + 1]) */
    size_t *group_start;
    size_t *members;
    float *times;                   /* per member: the offset handed to the sampler */
    pb_pose scratch;                /* joints x the largest group; empty when one clip plays */
} pb_crowd_builder;

/* Check desc, copy it, draw the missing clip indices / offsets and allocate
 * the scratch. On error *crowd is left empty (safe to pass to pb_crowd_builder_free).
 * Errors:
 *   PB_ERR_NULL         crowd, desc, desc->clips or one clips[k] is NULL.
 *   PB_ERR_EMPTY        nclips or characters is 0.
 *   (pb_clip_check's)   a clip is malformed: the message starts "clips[k]: ".
 *   PB_ERR_SIZE         clips[k] has a joint count other than clips[0]'s (the message names k and
 *                       both counts); a clip above 2^31 - 1 keys (the samplers' gather limit);
 *                       joints x characters overflows or cannot be allocated as a pose.
 *   PB_ERR_PARAM        clip_of[c] >= nclips; offsets[c] not finite; method not a pb_sample_method
 *                       (each message names c or the field).
 *   PB_ERR_UNSUPPORTED  desc->variant cannot run on this CPU.
 *   PB_ERR_NOMEM        an allocation failed. */
PB_API pb_status pb_crowd_builder_init(pb_crowd_builder *crowd, const pb_crowd_desc *desc);

/* Sample the crowd at clock `time` (s) into out (n = joints x characters,
 * crowd layout, velocities included). Allocates nothing. Negative times are
 * fine (a clock before the clips start). On error nothing is written.
 * Errors:
 *   PB_ERR_NULL    crowd or out is NULL.
 *   PB_ERR_PARAM   crowd was not made by pb_crowd_builder_init (or was freed); time not finite.
 *   PB_ERR_SIZE    out->n is not joints x characters.
 *   PB_ERR_ALIAS   out overlaps one of the clips.
 *   pb_pose_check's errors for out (prefixed "out"), pb_clip_check's for a clip changed since init,
 *   PB_ERR_VARIANT / PB_ERR_UNSUPPORTED when the active variant cannot be used. */
PB_API pb_status pb_crowd_build(pb_crowd_builder *crowd, float time, pb_pose *out);

/* Run the sampler with another variant from now on (NULL: the active one),
 * e.g. to time one crowd under each variant. Allocates nothing.
 * Errors: PB_ERR_NULL (crowd), PB_ERR_PARAM (crowd not made by
 * pb_crowd_builder_init), PB_ERR_UNSUPPORTED (this CPU cannot run variant);
 * on error the crowd keeps its variant. */
PB_API pb_status pb_crowd_builder_set_variant(pb_crowd_builder *crowd, const pb_variant *variant);

/* Free what pb_crowd_builder_init allocated and empty *crowd. NULL and empty are fine. */
PB_API void pb_crowd_builder_free(pb_crowd_builder *crowd);

/* The skeleton of a crowd of `characters` sharing a BVH skeleton:
 * pb_skeleton_init(s, bvh->parents, bvh->joints, characters).
 * Errors: PB_ERR_NULL (s, bvh, bvh->parents), PB_ERR_EMPTY (bvh->joints or
 * characters 0), and pb_skeleton_init's. On error *s is left empty. */
PB_API pb_status pb_crowd_skeleton(pb_skeleton *s, const pb_bvh_skeleton *bvh, size_t characters);

/* ---- Transitions ------------------------------------------------------------------- */

/* One transition: leave clip_a at time_a, continue with clip_b from time_b. */
typedef struct pb_transition_desc {
    const pb_clip *clip_a;
    float time_a;    /* s, within [0, pb_clip_duration(clip_a)] */
    const pb_clip *clip_b;
    float time_b;    /* s, within [0, pb_clip_duration(clip_b)] */
} pb_transition_desc;

/* A batch of N transitions as N "characters" of a crowd layout (element =
 * joint x N + pair), so transition ops run SIMD across pairs. The poses are
 * owned by the batch and hold, per pair:
 *   source  clip_a sampled at time_a, with velocities: the fixed state a that
 *           extrapolate_decayed / dead_blending take, and the source of
 *           inertialize_offset;
 *   dest    clip_b sampled at time_b, with velocities;
 *   offset  inertialize_offset(source, dest): inertialize(dest(t), offset,
 *           time t) starts at the source (t = 0) and decays to dest.
 * A skeleton for ROOTS ops is pb_crowd_skeleton(&s, bvh, pairs). */
typedef struct pb_transitions {
    size_t joints, pairs, n;        /* n = joints x pairs */
    pb_transition_desc *desc;       /* copy of the pairs */
    pb_crowd_builder src, dst;      /* clip_a from time_a, clip_b from time_b, one character per pair */
    pb_pose source, dest, offset;
} pb_transitions;

/* Check the pairs, allocate the batch and fill source, dest and offset.
 * On error *tr is left empty (safe to pass to pb_transitions_free).
 * Errors:
 *   PB_ERR_NULL         tr, pairs, or pairs[i].clip_a / clip_b is NULL.
 *   PB_ERR_EMPTY        npairs is 0.
 *   (pb_clip_check's)   a clip is malformed: the message starts "pairs[i].clip_a: " (or clip_b).
 *   PB_ERR_SIZE         a clip's joint count differs from pairs[0].clip_a's (message names the pair,
 *                       the clip and both counts); joints x npairs too large.
 *   PB_ERR_PARAM        time_a / time_b not finite or outside [0, duration] of its clip (message names
 *                       the pair, the time and the duration); method not a pb_sample_method.
 *   PB_ERR_UNSUPPORTED  variant cannot run on this CPU (NULL: the active variant).
 *   PB_ERR_NOMEM        an allocation failed. */
PB_API pb_status pb_transitions_build(pb_transitions *tr, const pb_transition_desc *pairs, size_t npairs,
                               pb_sample_method method, const pb_variant *variant);

/* The destination t seconds after the transition: clip_b at time_b + t per
 * pair (velocities included) into out (n = joints x pairs): the moving
 * input a of inertialize and b of dead_blending / blend. And the source
 * playing on: clip_a at time_a + t (for cross-fades). Any finite t (negative:
 * before the transition); past a clip's end its last key holds. Allocate
 * nothing; on error nothing is written. Errors: as pb_crowd_build (tr for
 * crowd; PB_ERR_PARAM also when tr was not built by pb_transitions_build). */
PB_API pb_status pb_transitions_dest_at(pb_transitions *tr, float t, pb_pose *out);
PB_API pb_status pb_transitions_source_at(pb_transitions *tr, float t, pb_pose *out);

PB_API void pb_transitions_free(pb_transitions *tr);

/* Fill pairs[0 .. npairs) with transitions between the clips, deterministic
 * for a seed, cycling through four kinds so every batch mixes them:
 *   i % 4 == 0  cross-clip: clips[k] -> clips[k + 1] at random times (k = i / 4 mod nclips);
 *   i % 4 == 1  a jump within clips[k], random times (motion-matching style);
 *   i % 4 == 2  near-identical: within clips[k], time_b one frame after time_a (a tiny offset);
 *   i % 4 == 3  a seam: clips[k] at its end -> clips[k + 1] at 0 (a playlist / loop seam).
 * With one clip every kind stays within it. Random times are uniform over the clip.
 * Errors: PB_ERR_NULL (pairs, clips, clips[k]), PB_ERR_EMPTY (npairs or nclips 0),
 * pb_clip_check's (message "clips[k]: ..."), PB_ERR_SIZE (clips[k]'s joint count differs
 * from clips[0]'s). On error nothing is written. */
PB_API pb_status pb_transitions_generate(pb_transition_desc *pairs, size_t npairs, const pb_clip *const *clips,
                                  size_t nclips, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
