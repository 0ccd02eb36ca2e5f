/* frame_pipeline.h — the per-frame animation pipeline that `frame` times and
 * `budget` measures in parts: scenes (a skeleton with a source and a
 * destination clip), crowds (the buffers of C characters playing a scene) and
 * the pipeline's stages, each one or more pb_run calls. Plain structs in and
 * out, errors as pb_status with the message in pb_last_error(), nothing
 * printed: written to move into the library as include/posebench/frame.h
 * (rename fp_ to pb_). */
#ifndef CLI_FRAME_PIPELINE_H
#define CLI_FRAME_PIPELINE_H

#include <stdint.h>
#include "posebench/posebench.h"

/* CMU mocap as packaged by Debian (assimp-testmodels), and its unit: the
 * cgspeed conversion keeps the ASF's "length 0.45", one unit = 1/0.45 inch
 * (thighs come out 0.40 m; 0.01 would make them 7 cm). */
#define FP_CMU_DIR "/usr/share/assimp/models/BVH"
#define FP_CMU_UNIT_SCALE 0.056444f

typedef struct fp_scene {
    char name[64];            /* "synthetic-64", "cmu-31", "bvh:walk-24" */
    char source[512];         /* the files or the generator it came from */
    size_t joints;
    int32_t *parents;         /* joints entries, parents first */
    pb_clip clip[2];          /* source (0) and destination (1) clips, same skeleton */
    char clip_name[2][64];
    int leg[2][3];            /* two-bone chains (root, mid, end joints); leg[0][0] < 0: none */
    char leg_desc[160];       /* how the legs were chosen, for the output */
} fp_scene;

/* A deterministic synthetic character: random parents (pb_gen_parents, depth < 16),
 * bones 5-17 cm, joint 0 a ground trajectory (y = 0, yaw only), the others
 * swinging smoothly (0.5-2 Hz); two 2 s clips at 60 fps from different seeds.
 * Errors: PB_ERR_NOMEM, the clip allocation's. */
pb_status fp_scene_synthetic(fp_scene *s, size_t joints, uint64_t seed);

/* A BVH file loaded once (its warnings reported once, through warn). */
typedef struct fp_bvh {
    char path[512];
    float unit_scale;
    pb_bvh_skeleton skel;
    pb_clip clip;
} fp_bvh;
/* Load path at unit_scale; warn/user as pb_bvh_options (NULL: stderr). Errors: pb_bvh_load's. */
pb_status fp_bvh_load(fp_bvh *b, const char *path, float unit_scale, pb_bvh_warn_fn warn, void *user);
void fp_bvh_free(fp_bvh *b);
/* 1 if a and b have the same hierarchy (joint names and parents). */
int fp_bvh_same_skeleton(const fp_bvh *a, const fp_bvh *b);
/* A scene of a (source) and b (destination; may be a itself), clips copied.
 * name NULL: "bvh:<file>-<joints>". Legs: the LeftUpLeg/LeftLeg/LeftFoot and
 * RightUpLeg/RightLeg/RightFoot joints when present, else two independent
 * joint chains. Errors: PB_ERR_PARAM (hierarchies differ), PB_ERR_NOMEM. */
pb_status fp_scene_bvh(fp_scene *s, const char *name, const fp_bvh *a, const fp_bvh *b);
/* Both files loaded, then fp_scene_bvh (the packaged CMU pair). */
pb_status fp_scene_bvh_files(fp_scene *s, const char *name, const char *path_a, const char *path_b,
                             float unit_scale, pb_bvh_warn_fn warn, void *user);
void fp_scene_free(fp_scene *s);

/* ---- transition methods ---------------------------------------------------------------------
 * Every method runs over the same window with the same weight curve
 * (smoothstep of t / window for cross-fades and dead blending). */
#define FP_FRAME_DT (1.0f / 60.0f)   /* the game's frame step */
#define FP_TRANSITION_S 0.3f         /* default transition window */
#define FP_HALFLIFE_S 0.1f           /* default dead-blending extrapolation half-life */
#define FP_ADDITIVE_WEIGHT 0.5f      /* the additive layer's weight */

typedef enum fp_tmethod {
    FP_TM_CUT,               /* destination at once (reference: no blend) */
    FP_TM_CROSSFADE_STATIC,  /* blend_static: slerp, velocities lerped */
    FP_TM_CROSSFADE_NLERP,   /* blend_static_nlerp */
    FP_TM_CROSSFADE,         /* blend: slerp with exact velocities */
    FP_TM_INERTIALIZE,       /* inertialize_offset at the transition, inertialize per frame */
    FP_TM_DEAD,              /* dead_blending (slerp inside) */
    FP_TM_DEAD_NLERP,        /* extrapolate_decayed + blend_static_nlerp + roots from the destination */
    FP_TM_COUNT
} fp_tmethod;

typedef struct fp_tmethod_info {
    const char *key;         /* "crossfade_nlerp" */
    const char *method;      /* "cross-fade" */
    const char *rot;         /* "slerp", "nlerp", "n/a" */
    const char *per_frame;   /* the ops each frame runs after sampling */
    const char *once;        /* what runs once at the transition ("" if nothing) */
    int samples;             /* clips sampled per frame: 2 (both) or 1 (destination) */
} fp_tmethod_info;
const fp_tmethod_info *fp_tmethod_get(fp_tmethod m);   /* NULL if m is out of range */

/* ---- crowds and stages ------------------------------------------------------------------------ */
typedef struct fp_crowd {
    const fp_scene *sc;
    size_t characters, n;     /* n = joints x characters (crowd layout) */
    pb_skeleton skel;
    pb_op sampler;            /* PB_OP_sample_linear or PB_OP_sample_cubic */
    int clip_of[2];           /* scene clip played as the source (role 0) and the destination (role 1) */
    pb_crowd_builder play[2]; /* the crowd builders sampling them, each character at its own time offset */
    float duration, halflife; /* transition window and dead blending's extrapolation half-life (s) */
    pb_pose src, dst;         /* clip 0 and clip 1 sampled (locals) */
    pb_pose state;            /* the source at the transition (dead blending) or the offset (inertialization) */
    pb_pose tmp;              /* dead blending with nlerp: the extrapolated source */
    pb_pose mix;              /* the transition's output */
    pb_pose delta;            /* the additive layer: a fixed delta pose (not sampled) */
    pb_pose local;            /* after the additive layer and the IK */
    pb_pose global;           /* fk_static for the legs, then fk with velocities */
    pb_pose chain, target, solved;   /* IK: n = 3 x 2 legs x characters */
    float *lift;              /* per-character IK target height change (m) */
    const pb_pose *mixed;     /* what the additive layer reads: &mix, or &dst for a cut */
    const char *failed;       /* the op that failed last (for messages) */
} fp_crowd;

/* A crowd holds 11 poses of 76 bytes per element: joints x characters is
 * capped so that stays within ~3.5 GB (4096 characters x 1024 joints). */
#define FP_CROWD_MAX_ELEMENTS ((size_t)1 << 22)

/* Allocate the buffers for `characters` characters of scene sc. Offsets are
 * spread over the clips deterministically. Errors: PB_ERR_SIZE (above
 * FP_CROWD_MAX_ELEMENTS), PB_ERR_NOMEM, the crowd builder's. */
pb_status fp_crowd_init(fp_crowd *c, const fp_scene *sc, size_t characters, pb_op sampler);
/* What role (0 source, 1 destination) plays: scene clip `clip`, character k
 * at offsets[k] s (c->characters of them) plus the stage's time. */
pb_status fp_crowd_play(fp_crowd *c, int role, int clip, const float *offsets);
void fp_crowd_free(fp_crowd *c);

/* Stages. role: 0 samples the source clip into src, 1 the destination into
 * dst; time: seconds added to every character's offset; t: seconds since the
 * transition. Each returns pb_run's status (c->failed names the op). */
pb_status fp_stage_sample(fp_crowd *c, const pb_variant *v, int role, float time);
pb_status fp_stage_begin(fp_crowd *c, const pb_variant *v, fp_tmethod m);      /* once, from src and dst */
pb_status fp_stage_transition(fp_crowd *c, const pb_variant *v, fp_tmethod m, float t);
pb_status fp_stage_additive(fp_crowd *c, const pb_variant *v);
pb_status fp_stage_leg_fk(fp_crowd *c, const pb_variant *v);
pb_status fp_stage_ik(fp_crowd *c, const pb_variant *v);
pb_status fp_stage_fk(fp_crowd *c, const pb_variant *v);
/* Times of timed frame k: each role's clip time (cycling within the first half
 * of the clip) and the time since the transition (cycling within the window,
 * so every timed frame is mid-transition: every character blending). */
float fp_crowd_clip_time(const fp_crowd *c, int role, int k);
float fp_crowd_trans_time(const fp_crowd *c, int k);

#endif
