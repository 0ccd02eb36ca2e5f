/* commands.h — the CLI commands that live outside posebench.c (frame, budget,
 * report) and the per-frame pipeline that frame.c defines and budget.c
 * measures in parts: scenes (a skeleton with a source and a destination
 * clip), crowds (the buffers of C characters playing a scene) and the
 * pipeline's stages, each one or more pb_run calls. */
#ifndef PB_COMMANDS_H
#define PB_COMMANDS_H

#include <stdint.h>
#include <stdio.h>
#include "posebench/posebench.h"

/* Entry points: argv[0] is the first argument after the command name.
 * Exit status: 0 ok, 1 a measurement or validation failed, 2 bad options or setup. */
int pb_cmd_frame(int argc, char **argv);
int pb_cmd_budget(int argc, char **argv);
int pb_cmd_report(int argc, char **argv);

/* ---- scenes (frame.c) ------------------------------------------------------------------ */

/* CMU mocap as packaged by Debian (assimp-testmodels), and its unit: the
 * cgspeed conversion keeps the ASF's "length 0.45", one unit = 1/0.45 inch
 * (thighs come out 0.40 m; 0.01 would make them 7 cm). */
#define PB_CMU_DIR "/usr/share/assimp/models/BVH"
#define PB_CMU_UNIT_SCALE 0.056444f

typedef struct pb_scene {
    char name[64];            /* "synthetic-64", "cmu-31", "bvh:walk-24" */
    char source[512];         /* the files or the generator it came from */
    size_t joints;
    int32_t *parents;         /* joints entries, parents first */
    pb_clip clip[2];          /* source (0) and destination (1) clips, same skeleton */
    char clip_name[2][64];
    int leg[2][3];            /* two-bone chains (root, mid, end joints); leg[0][0] < 0: none */
    char leg_desc[160];       /* how the legs were chosen, for the output */
} pb_scene;

/* A deterministic synthetic character: random parents (pb_gen_parents, depth < 16),
 * bones 5-17 cm, joint 0 a ground trajectory (y = 0, yaw only), the others
 * swinging smoothly (0.5-2 Hz); two 2 s clips at 60 fps from different seeds. */
int pb_scene_synthetic(pb_scene *s, size_t joints, uint64_t seed);
/* Two BVH files with the same hierarchy (path_b may equal path_a). Legs: the
 * LeftUpLeg/LeftLeg/LeftFoot and RightUpLeg/RightLeg/RightFoot joints when
 * present, else two independent joint chains. 0; -1 with a message on stderr;
 * -2 (nothing printed) when the two files' hierarchies differ. */
int pb_scene_bvh(pb_scene *s, const char *name, const char *path_a, const char *path_b, float unit_scale);
void pb_scene_free(pb_scene *s);

/* ---- transition methods ---------------------------------------------------------------------
 * Every method runs over the same window with the same weight curve
 * (smoothstep of t / window for cross-fades and dead blending). */
#define PB_FRAME_DT (1.0f / 60.0f)   /* the game's frame step */
#define PB_TRANSITION_S 0.3f         /* default transition window */
#define PB_HALFLIFE_S 0.1f           /* default dead-blending extrapolation half-life */

typedef enum pb_tmethod {
    PB_TM_CUT,               /* destination at once (reference: no blend) */
    PB_TM_CROSSFADE_STATIC,  /* blend_static: slerp, velocities lerped */
    PB_TM_CROSSFADE_NLERP,   /* blend_static_nlerp */
    PB_TM_CROSSFADE,         /* blend: slerp with exact velocities */
    PB_TM_INERTIALIZE,       /* inertialize_offset at the transition, inertialize per frame */
    PB_TM_DEAD,              /* dead_blending (slerp inside) */
    PB_TM_DEAD_NLERP,        /* extrapolate_decayed + blend_static_nlerp + roots from the destination */
    PB_TM_COUNT
} pb_tmethod;

typedef struct pb_tmethod_info {
    const char *key;         /* "crossfade_nlerp" */
    const char *method;      /* "cross-fade" */
    const char *rot;         /* "slerp", "nlerp", "n/a" */
    const char *per_frame;   /* the ops each frame runs after sampling */
    const char *once;        /* what runs once at the transition ("" if nothing) */
    int samples;             /* clips sampled per frame: 2 (both) or 1 (destination) */
} pb_tmethod_info;
const pb_tmethod_info *pb_tmethod_get(pb_tmethod m);

/* ---- crowds and stages (frame.c) ---------------------------------------------------------- */
typedef struct pb_crowd {
    const pb_scene *sc;
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
} pb_crowd;

/* A crowd holds 11 poses of 76 bytes per element: joints x characters is
 * capped so that stays within ~3.5 GB (4096 characters x 1024 joints). */
#define PB_CROWD_MAX_ELEMENTS ((size_t)1 << 22)

/* Allocate the buffers for `characters` characters of scene sc. Offsets are
 * spread over the clips deterministically. 0, or -1 with a message. */
int pb_crowd_init(pb_crowd *c, const pb_scene *sc, size_t characters, pb_op sampler);
/* What role (0 source, 1 destination) plays: scene clip `clip`, character k
 * at offsets[k] s (c->characters of them) plus the stage's time. 0, or -1
 * with a message. */
int pb_crowd_play(pb_crowd *c, int role, int clip, const float *offsets);
void pb_crowd_free(pb_crowd *c);

/* Stages. role: 0 samples the source clip into src, 1 the destination into
 * dst; time: seconds added to every character's offset; t: seconds since the
 * transition. Each returns pb_run's status (c->failed names the op). */
pb_status pb_stage_sample(pb_crowd *c, const pb_variant *v, int role, float time);
pb_status pb_stage_begin(pb_crowd *c, const pb_variant *v, pb_tmethod m);      /* once, from src and dst */
pb_status pb_stage_transition(pb_crowd *c, const pb_variant *v, pb_tmethod m, float t);
pb_status pb_stage_additive(pb_crowd *c, const pb_variant *v);
pb_status pb_stage_leg_fk(pb_crowd *c, const pb_variant *v);
pb_status pb_stage_ik(pb_crowd *c, const pb_variant *v);
pb_status pb_stage_fk(pb_crowd *c, const pb_variant *v);
/* Times of timed frame k: each role's clip time (cycling within the first half
 * of the clip) and the time since the transition (cycling within the window,
 * so every timed frame is mid-transition: every character blending). */
float pb_crowd_clip_time(const pb_crowd *c, int role, int k);
float pb_crowd_trans_time(const pb_crowd *c, int k);

/* ---- measurement and context (frame.c) ----------------------------------------------------- */
double pb_cpu_seconds(void);                        /* CLOCK_PROCESS_CPUTIME_ID */
double pb_median(double *v, int n);                 /* sorts v */
/* Native variants this CPU runs (or the one named, which may be an -emu build).
 * Returns the count, or -1 with a message on stderr. */
int pb_cli_variants(const char *name, const pb_variant **out, int max);
/* The JSON context object (CPU, features, compiler, flags) without braces'
 * trailing newline: {"cpu_model": ..., ...}. */
void pb_cli_context_json(FILE *f);
/* Option values: the whole string a number within [lo, hi] (NaN refused).
 * 0, or -1 (nothing printed: the caller names the option). */
int pb_parse_long(const char *s, long lo, long hi, long *out);
int pb_parse_double(const char *s, double lo, double hi, double *out);
/* A JSON string literal (quotes and escapes). */
void pb_json_str(FILE *f, const char *s);

#endif
