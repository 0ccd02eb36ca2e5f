/* budget_sets.h — the transition sets of `posebench budget`'s quality pass,
 * scored by the library's metrics (posebench/quality.h): real (ordered pairs
 * of the packaged clips at seeded times), hard (the pairs farthest apart and
 * with the most opposite joint velocities, at the authored durations 0.05 to
 * 0.4 s), interrupted (a new transition every 0.05-0.15 s, several in a row)
 * and the synthetic clips as a baseline. Per set and method: each metric's
 * median, 10th and 90th percentile over the transitions. */
#ifndef CLI_BUDGET_SETS_H
#define CLI_BUDGET_SETS_H

#include <stdint.h>
#include "posebench/frame.h"
#include "posebench/quality.h"

#define BS_NSETS 4
enum { BS_REAL, BS_HARD, BS_INTERRUPTED, BS_SYNTHETIC };
#define BS_MAX_SEG 6        /* segments of a transition: the source, then one per switch */
#define BS_MAX_TRANS 32
#define BS_MAX_METHODS 16
#define BS_MAX_SCENES 7      /* CMU, Boxing_Toes, up to 3 of --bvh, a --model, synthetic */
#define BS_PRE 4            /* frames of the source before the first switch */

/* A scene the sets play (its joint 0 a ground trajectory, as bq_add_trajectory makes),
 * with what the metrics need from its data: the joint range of its two clips, its feet
 * (the legs' ends) and their contact height (the lowest height they reach in the clips + 2 cm). */
typedef struct bs_scene {
    const pb_scene *sc;
    char name[64];
    int real;                 /* mocap (the real, hard and interrupted sets draw from these) */
    float *lo, *hi;
    int32_t feet[2];
    size_t nfeet;
    float contact;
    uint8_t *measured;        /* every joint but the trajectory (roots) */
    pb_frame_crowd crowd;     /* one character */
} bs_scene;

typedef struct bs_ctx {
    const pb_variant *v;
    pb_op sampler;
    float halflife;
    float hl[3];              /* Unreal's dead blending: estimate_halflife's scale, min, max (s) */
    int nscenes;
    bs_scene scenes[BS_MAX_SCENES];
} bs_ctx;

/* One transition, or a run of them: segment 0 plays clip[0] from at[0] at frame 0; segment k > 0
 * switches to clip[k] (at time at[k]) at frame start[k], aligned to the motion it leaves; every
 * switch is a transition of `duration` s by the method. frames: through the last one's end. */
typedef struct bs_trans {
    int scene, nseg;
    int clip[BS_MAX_SEG];
    float at[BS_MAX_SEG];
    int start[BS_MAX_SEG];
    float duration;
    int frames;
    const char *why;          /* hard set: "distance" or "velocity"; else "" */
} bs_trans;

typedef struct bs_stat {
    double med, p10, p90;
    int worst;                /* the worst joint of the transition that scored worst (-1: none) */
} bs_stat;

typedef struct bs_set {
    const char *name;
    char how[240];            /* how its transitions were chosen */
    uint64_t seed;
    int nt;
    bs_trans t[BS_MAX_TRANS];
    int nm;                   /* methods measured */
    bs_stat s[BS_MAX_METHODS][PB_QM_COUNT];
    double v[BS_MAX_METHODS][BS_MAX_TRANS][PB_QM_COUNT];   /* each transition's values */
} bs_set;

/* Add scene sc (outlives x) named name; real: mocap. Errors: PB_ERR_SIZE (more than BS_MAX_SCENES),
 * PB_ERR_NOMEM, the crowd's, pb_clip_joint_limits', pb_run's (fk_static). */
pb_status bs_scene_add(bs_ctx *x, const pb_scene *sc, const char *name, int real);
void bs_ctx_free(bs_ctx *x);

/* The sets, seeded (the same seed: the same transitions). */
void bs_make_real(const bs_ctx *x, bs_set *s, uint64_t seed, float duration);
void bs_make_hard(const bs_ctx *x, bs_set *s, uint64_t seed);
void bs_make_interrupted(const bs_ctx *x, bs_set *s, uint64_t seed, float duration, int switches);
void bs_make_synthetic(const bs_ctx *x, bs_set *s, uint64_t seed, float duration);

/* Play transition t with method m: the shown, source and destination world poses into out, src, dst
 * (allocated here, t->frames x joints; freed by the caller with pb_clip_free, also on error). At an
 * interruption the new transition starts from the pose shown (moved on one frame by its velocity,
 * measured over the last two frames): inertialization and dead blending from it, cross-fades from it
 * frozen. pb_run's status (the crowd's failed names the op), or PB_ERR_NOMEM. */
pb_status bs_play(bs_ctx *x, pb_frame_method m, const bs_trans *t, pb_clip *out, pb_clip *src, pb_clip *dst);
/* Every transition of s with methods[0..nm): s->s. On error a message names the set, method and transition. */
pb_status bs_measure(bs_ctx *x, bs_set *s, const pb_frame_method *methods, int nm);

#endif
