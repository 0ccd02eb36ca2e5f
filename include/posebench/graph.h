/* graph.h — a blend graph per character: a data-driven state machine whose
 * states play motions or blend spaces, with transitions (cut, cross-fade,
 * inertialization, dead blending in Holden's and in Unreal's form) chosen
 * by conditions on named float parameters, and layers (a masked override
 * and a masked additive) on top. Every character of a crowd runs its own
 * machine; the pose work of all characters runs batched in the SIMD ops.
 *
 * The definition (pb_graph_def) is plain data, checked once
 * (pb_graph_check). A crowd (pb_graph_crowd) runs it:
 *   control     scalar, per character: the parameters are checked (NaN,
 *               Inf: refused, naming character and parameter), the state's
 *               transitions are tried in priority order (the order of
 *               def->transitions), the first whose conditions all hold
 *               fires; zero-duration ones chain within the frame (the
 *               definition has no cycle of them). A transition that fires
 *               while another runs interrupts it: the new one starts from
 *               the current output (its pose and velocities), never from
 *               the interrupted source, so the output stays continuous.
 *   sample      every character's state pose at its phase: up to three
 *               motions with weights (a blend space's non-zero weights;
 *               1D and barycentric spaces have at most three). Characters
 *               are grouped by how many motions they play; per group, one
 *               sample_linear call per motion SIMD across the group (all
 *               motions lie end to end in one clip, so a character's time
 *               picks its motion), velocities scaled to the motion's
 *               playback rate (timescale; blend spaces only), then one or two
 *               blend calls with per-character weights and their rates of
 *               change (exact velocities), scattered into the crowd (a group
 *               of every character is computed in place). The cross-fading
 *               characters' source states, gathered, the same way.
 *   begin       the characters whose transition started this frame, gathered:
 *               inertialize_offset (output -> new state), the output copied
 *               as the extrapolated source (dead blending), estimate_halflife
 *               (Unreal's).
 *   transition  per method, the characters in such a transition, gathered:
 *               blend (cross-fade, smoothstep weight), inertialize,
 *               dead_blending (uniform half-life, or per.halflives); the
 *               others take their state pose.
 *   layers      override: blend toward a layer motion with per-character
 *               weight x per-joint mask; additive: the additive op with a
 *               delta motion (keys relative to the motion's first key) at
 *               per-character weight x mask. Each over the joints its mask
 *               touches only: their rows of the crowd layout copied out and
 *               back, the motion sampled from a clip of those joints.
 *   fk          globals with velocities.
 * Blend-space samples play in sync: the state advances a phase in [0, 1)
 * at 1 / (sum of weight x motion length) per second and each motion plays
 * at phase x its length. A phase passing 1 restarts the state (the motions
 * are not loops in general: mocap segments) by the state's own loop
 * transition, so the seam is blended like any transition.
 *
 * Plain structs in and out; errors return a pb_status with the message in
 * pb_last_error(). Stages allocate nothing, but for the skeleton of the
 * first gathered set of each size (a multiple of 16 characters) that runs
 * dead blending, whose roots need one: at most characters / 16 of them,
 * kept until the crowd is freed. A crowd is used by one thread at a time. */
#ifndef POSEBENCH_GRAPH_H
#define POSEBENCH_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include "export.h"
#include "status.h"
#include "pose.h"
#include "ops.h"
#include "clip.h"
#include "skeleton.h"
#include "bspace.h"
#include "frame.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_GRAPH_MAX_NAME 32
#define PB_GRAPH_MAX_MOTIONS 64
#define PB_GRAPH_MAX_STATES 64
#define PB_GRAPH_MAX_TRANSITIONS 256
#define PB_GRAPH_MAX_PARAMS 16
#define PB_GRAPH_MAX_CONDS 4
#define PB_GRAPH_MAX_SAMPLES 16   /* motions of one blend space */
#define PB_GRAPH_MAX_LAYERS 4

typedef enum pb_graph_method {
    PB_GM_CUT,           /* the new state at once (duration not read) */
    PB_GM_CROSSFADE,     /* blend (slerp, exact velocities) from the old state playing on, smoothstep weight */
    PB_GM_INERTIALIZE,   /* inertialize_offset at the start, inertialize over the duration */
    PB_GM_DEAD,          /* Holden's dead blending: the output extrapolated (half-life def->halflife) */
    PB_GM_DEAD_UE,       /* Unreal's: half-lives per joint, axis and channel from estimate_halflife */
    PB_GM_COUNT
} pb_graph_method;
/* "cut", "crossfade", "inertialize", "dead", "dead_ue"; NULL if out of range. */
PB_API const char *pb_graph_method_name(pb_graph_method m);
/* The graph's form of frame method m (frame.h's one table of names): cut, crossfade_exact, inertialize,
 * dead_slerp, dead_ue; PB_GM_COUNT for the methods the graph does not run (yet): crossfade_slerp,
 * crossfade_nlerp, dead_nlerp, dead_clamp, dead_bounce, dead_via. */
PB_API pb_graph_method pb_graph_method_of(pb_frame_method m);
/* The method named s in frame.h's table (pb_frame_method_by_name: its keys and "crossfade", "dead") that
 * the graph runs (pb_graph_method_of), or PB_GM_COUNT. */
PB_API pb_graph_method pb_graph_method_parse(const char *s);

/* A motion: the part [start, end] (s) of clip `clip` of the crowd's clips. */
typedef struct pb_graph_motion {
    char name[PB_GRAPH_MAX_NAME];
    int clip;
    float start, end;
} pb_graph_motion;

/* A state plays one motion (samples = 1) or a blend space over motions at
 * the points (x[i], y[i]) of parameters px (and py for 2D, -1 for 1D):
 * PB_BSPACE_1D or PB_BSPACE_BARYCENTRIC. It restarts at its end by
 * loop_method over loop_duration s. */
typedef struct pb_graph_state {
    char name[PB_GRAPH_MAX_NAME];
    size_t samples;
    int motion[PB_GRAPH_MAX_SAMPLES];
    float x[PB_GRAPH_MAX_SAMPLES], y[PB_GRAPH_MAX_SAMPLES];
    pb_bspace_method space;
    int px, py;
    pb_graph_method loop_method;
    float loop_duration;
} pb_graph_state;

typedef enum pb_graph_cmp { PB_GC_LESS, PB_GC_GREATER } pb_graph_cmp;
typedef struct pb_graph_cond {
    int param;            /* index into def->params */
    pb_graph_cmp cmp;     /* params[param] < value, or > value */
    float value;
} pb_graph_cond;

/* From state `from` (-1: from any state but `to`) to state `to` when all
 * conds hold (none: at once), over duration s by method. A cross-fade's
 * weight follows curve (posebench/curve.h; zero-initialized: smoothstep);
 * the other methods take no curve (pb_graph_check refuses one). */
typedef struct pb_graph_transition {
    int from, to;
    size_t conds;
    pb_graph_cond cond[PB_GRAPH_MAX_CONDS];
    float duration;
    pb_graph_method method;
    pb_curve curve;
} pb_graph_transition;

typedef enum pb_graph_layer_kind { PB_GL_OVERRIDE, PB_GL_ADDITIVE } pb_graph_layer_kind;
/* A layer over the state machine's output: motion `motion` looping at the
 * character's clock, at weight params[weight] (clamped to [0, 1]; -1:
 * weight 1) times mask[joint] (joints floats in [0, 1], or NULL: 1).
 * Additive layers apply the motion's keys relative to its first key. */
typedef struct pb_graph_layer {
    pb_graph_layer_kind kind;
    int motion;
    int weight;
    const float *mask;
} pb_graph_layer;

typedef struct pb_graph_def {
    size_t params;
    char param[PB_GRAPH_MAX_PARAMS][PB_GRAPH_MAX_NAME];
    size_t motions;
    pb_graph_motion motion[PB_GRAPH_MAX_MOTIONS];
    size_t states;
    pb_graph_state state[PB_GRAPH_MAX_STATES];
    size_t transitions;
    pb_graph_transition transition[PB_GRAPH_MAX_TRANSITIONS];
    size_t layers;
    pb_graph_layer layer[PB_GRAPH_MAX_LAYERS];
    int start;            /* the state every character starts in */
    float halflife;       /* PB_GM_DEAD's extrapolation half-life (s) */
    float hl_scale, hl_min, hl_max;   /* PB_GM_DEAD_UE's estimate_halflife scale, min and max (params.hl_*, ops.h;
                                         all 0: Unreal's defaults, PB_HALFLIFE_EST_*) */
} pb_graph_def;

/* Check def against clips[0 .. nclips) (same joints and fps) once.
 * Errors, each naming the element: PB_ERR_NULL; PB_ERR_SIZE (a count above
 * its PB_GRAPH_MAX_*, or 0 states / motions); PB_ERR_PARAM: an unknown
 * state, motion, clip or parameter index, a motion outside its clip or
 * shorter than one frame, a NaN / Inf / negative duration, threshold or
 * half-life, Unreal's half-life scale, min or max out of range (pb_halflife_est_check), an unknown method, comparison, layer kind or space, a blend
 * space pb_bspace_create refuses (its message), a mask value outside
 * [0, 1], a cycle of zero-duration transitions (cuts and duration 0)
 * whose conditions can all hold at once (it would never end within a
 * frame; the message lists the cycle's states), an empty or duplicate name,
 * a transition from a state to itself; PB_ERR_SIZE also for zero-duration
 * transitions with too many paths to search (over 10^6 steps). */
PB_API pb_status pb_graph_check(const pb_graph_def *def, const pb_clip *const *clips, size_t nclips);
/* The index of the state / parameter named name, or -1. */
PB_API int pb_graph_state_find(const pb_graph_def *def, const char *name);
PB_API int pb_graph_param_find(const pb_graph_def *def, const char *name);

/* ---- crowds ------------------------------------------------------------------------------- */
typedef enum pb_graph_stage {
    PB_GS_CONTROL, PB_GS_SAMPLE, PB_GS_BEGIN, PB_GS_TRANSITION, PB_GS_LAYERS, PB_GS_FK, PB_GS_COUNT
} pb_graph_stage;
PB_API const char *pb_graph_stage_name(pb_graph_stage s);   /* "control" ... "fk"; NULL if out of range */

/* The motions of a set of characters' state poses: up to three per
 * character (a blend space's non-zero weights, in sample order). */
typedef struct pb_graph_slots {
    int16_t *mot[3];            /* motion of slot s (-1: none) */
    float *w[3];                /* its weight */
    float *time[3], *rate[3];   /* its time in the library clip, its playback rate */
    float *alpha[2], *alpha_vel[2];   /* the two blends' weights (slot 1 into 0, slot 2 into that) and rates */
    float *span;                /* sum of weight x motion length (s): the state's period */
} pb_graph_slots;

typedef struct pb_graph_crowd {
    pb_graph_def def;               /* a copy */
    size_t joints, characters, n;   /* n = joints x characters */
    size_t cpad;                    /* characters rounded up to 16: gathered sets are padded to a multiple of 16 */
    pb_skeleton skel;
    pb_skeleton *skel16;            /* cpad / 16 skeletons of 16, 32, ... characters (gathered dead blending;
                                       made on first use) */
    pb_clip lib;                    /* every motion end to end, a copy of its first and last key around it
                                       (additive layers' motions relative to their first key) */
    float *t0, *len;                /* per motion: its first key's time in lib, its length (s) */
    /* Layers run over the joints their mask touches only (joint-major rows of the crowd layout):
     * layer l's layer_joints[l] joints are layer_joint[l x joints ...], their mask values
     * mask[l x joints ...], and layer_clip[l] its motion over those joints (keys as in lib). */
    size_t layer_joints[PB_GRAPH_MAX_LAYERS];
    size_t *layer_joint;
    float *mask;
    pb_clip layer_clip[PB_GRAPH_MAX_LAYERS];
    pb_bspace *space;               /* per state (empty for single-motion states) */
    /* per character */
    float *param;                   /* characters x def.params, character-major: what the caller drives */
    int16_t *state, *from;          /* current state; a cross-fade's source state (-1: none) */
    float *phase, *from_phase;      /* the states' phases in [0, 1] */
    int8_t *method;                 /* the running transition's method, or -1 */
    int16_t *trans;                 /* its index in def.transition (a cross-fade's curve), or -1: a state's loop
                                       (smoothstep); read only while method >= 0 */
    float *since, *duration;        /* s since it started; its duration */
    uint8_t *began, *wrapped;       /* it started this frame; the phase passed 1 last frame */
    float *clock;                   /* the layers' clock (s) */
    float *lw, *lw_vel;             /* per layer x character: weight and its rate */
    float *bx, *by, *bw;            /* scratch: blend-space parameters and weights */
    size_t *list;                   /* scratch: a gathered set of characters */
    float *ptime, *prate, *palpha, *pdur;   /* scratch: per-member parameters of a gathered set */
    pb_graph_slots cur;             /* the state poses' slots, per character */
    int16_t *mot_prev[3];           /* last frame's slot motions and blend weights (their rates) */
    float *alpha_prev[2];
    pb_graph_slots grp;             /* scratch: a group's time, rate, alpha, alpha_vel per member */
    pb_graph_slots src;             /* cross-fade sources: frozen at the transition (mot, w, span) per character;
                                       time, rate, alpha, alpha_vel per member of the gathered set */
    pb_pose pose;                   /* the state poses */
    pb_pose mix, prev;              /* the transition's output this frame and the frame before */
    pb_pose out;                    /* after the layers */
    pb_pose global;
    pb_pose offset;                 /* inertialization offsets / dead blending sources */
    pb_pose halflives;              /* Unreal's half-lives */
    pb_pose lay;                    /* a layer motion's sample */
    float *buf[7];                  /* gathered poses (joints x cpad elements each): 3 slots, a blend's
                                       intermediate, the cross-fade sources, two more for the transitions */
    float dt;                       /* the last advance's step (s) */
    int have_out;                   /* a frame has run: prev holds an output */
    int mixed;                      /* this frame's transition stage ran: mix holds its output */
    long frame;
    size_t fired[PB_GM_COUNT];      /* transitions started since init, by method (loops included) */
    size_t interrupted;             /* of them, started while another ran */
    size_t active[PB_GM_COUNT];     /* this frame: characters in a transition of each method */
    const char *failed;             /* the op or stage that failed last */
} pb_graph_crowd;

/* A crowd of `characters` running def (checked by pb_graph_check) over
 * clips, joints with `parents` (clips[0]->joints entries, parents first);
 * every character starts in def->start at a phase drawn from seed, its
 * parameters 0. Errors: pb_graph_check's, PB_ERR_EMPTY (no characters),
 * PB_ERR_SIZE (characters x joints over 2^22), pb_skeleton_init's,
 * PB_ERR_NOMEM; on error c is left empty. */
PB_API pb_status pb_graph_crowd_init(pb_graph_crowd *c, const pb_graph_def *def, const pb_clip *const *clips,
                                     size_t nclips, const int32_t *parents, size_t characters, uint64_t seed);
PB_API void pb_graph_crowd_free(pb_graph_crowd *c);
/* Character k's parameter p: c->param[k x def.params + p]; the caller sets
 * them between frames. Stage s of the current frame, in pb_graph_stage
 * order. Errors: PB_ERR_NULL, PB_ERR_PARAM (s; a parameter NaN or Inf at
 * the control stage, naming character and parameter: nothing changes), the
 * ops' (c->failed names the op). */
PB_API pb_status pb_graph_crowd_stage(pb_graph_crowd *c, const pb_variant *v, pb_graph_stage s);
/* Every clock forward by dt; the frame count by one; this frame's output
 * (if its transition stage ran) kept as the source of the transitions that
 * start next frame (until then every transition is a cut). */
PB_API void pb_graph_crowd_advance(pb_graph_crowd *c, float dt);
/* The whole frame: every stage, then pb_graph_crowd_advance(c, dt). */
PB_API pb_status pb_graph_crowd_step(pb_graph_crowd *c, const pb_variant *v, float dt);

/* ---- the default graph over a scene (what `posebench frame --graph` runs) ----------------
 * Parameters speed (m/s, 0 .. 3), direction (-1 .. 1), jump (> 0.5: jump),
 * upper (the override layer's weight) and breathe (the additive layer's).
 * Motions: segments of the scene's two clips (1/8 of each, in order) and a
 * synthetic breathing clip (the chest joints turning by up to 2 degrees,
 * 4 s loop) made here. States:
 *   idle        one motion;
 *   locomotion  a barycentric blend space over (direction, speed) of 6 motions;
 *   strafe      a 1D blend space over speed of 3 motions;
 *   jump        one motion.
 * Transitions, every method among them: any -> jump (jump > 0.5, Unreal's
 * dead blending 0.25 s), jump -> idle (jump < 0.5, dead blending 0.3 s),
 * idle -> strafe (speed > 0.3 and direction < -0.8, cut), idle ->
 * locomotion (speed > 0.6, inertialization 0.3 s), locomotion -> idle
 * (speed < 0.4, cross-fade 0.4 s), locomotion -> strafe (direction < -0.8,
 * cross-fade 0.25 s), strafe -> locomotion (direction > -0.6,
 * inertialization 0.25 s), strafe -> idle (speed < 0.2, dead blending 0.3 s).
 * Layers: an override of the upper body (every joint outside the legs'
 * subtrees and the root) by a motion of the second clip at weight upper,
 * and the breathing clip added on the spine at weight breathe. */
typedef struct pb_graph_scene {
    pb_graph_def def;
    pb_clip breath;           /* the breathing clip */
    const pb_clip *clips[3];  /* the scene's two clips and breath: the crowd's clips */
    float *upper, *chest;     /* the layers' masks (joints floats each) */
} pb_graph_scene;
/* Errors: PB_ERR_NULL, PB_ERR_PARAM (the scene's clips shorter than 1 s or
 * of different joints or fps; 0.1 % short counts as 1 s: a frame time
 * written with few digits, 31 frames at 0.0333333 s), PB_ERR_NOMEM; on error
 * g is left empty. */
PB_API pb_status pb_graph_scene_default(pb_graph_scene *g, const pb_scene *sc);
PB_API void pb_graph_scene_free(pb_graph_scene *g);
/* The default graph's parameters for c's next frame, for every character:
 * targets drawn anew every 1.5 .. 3 s (a hash of seed, character and time
 * slot: no state beyond the parameters themselves) that speed, direction
 * and the layer weights ease toward, and a jump in about one slot in four,
 * so transitions keep happening. dt: the frame step (s). */
PB_API void pb_graph_scene_drive(const pb_graph_scene *g, pb_graph_crowd *c, uint64_t seed, float dt);

#ifdef __cplusplus
}
#endif
#endif
