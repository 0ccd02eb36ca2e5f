/* frame.h — a whole animation frame for a crowd, the way an engine would
 * run it: sample (clip sampling per character) -> transition (cross-fade,
 * inertialization or dead blending) -> additive layer -> leg FK -> two-leg IK
 * -> FK with velocities -> matrix palette -> skinning. What `posebench frame` times and `posebench budget`
 * measures, and what examples/frame_crowd.c shows step by step.
 *
 *   pb_scene        a skeleton with a source and a destination clip (synthetic,
 *                   or two BVH files of one rig), and the two legs the IK solves
 *   pb_frame_crowd  the buffers of C characters playing a scene (crowd layout,
 *                   element = joint x C + character), allocated once
 *   pb_frame_*      the stages, each one or more pb_run calls on the crowd
 *
 * Plain structs in and out; every call returns a pb_status with the message
 * in pb_last_error(); nothing is printed. Stages allocate nothing (but the
 * skinning stage, on its first run with a variant, makes its jobs). A crowd is
 * used by one thread at a time; crowds of one scene may run on many threads. */
#ifndef POSEBENCH_FRAME_H
#define POSEBENCH_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include "export.h"
#include "status.h"
#include "pose.h"
#include "ops.h"
#include "skeleton.h"
#include "clip.h"
#include "bvh.h"
#include "builders.h"
#include "palette.h"
#include "skin.h"
#include "pool.h"
#include "curve.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    pb_pose turns[2];         /* each clip's key-to-key turns (pb_clip_turns, clip.h), made by the scene
                                 constructors below, read by the sample_linear_turns sampler */
    char clip_name[2][64];
    int leg[2][3];            /* two-bone chains (root, mid, end joints); leg[0][0] < 0: none */
    char leg_desc[256];       /* how the legs were chosen, for the output */
    pb_mesh mesh;             /* the mesh the skinning stage skins (pb_scene_mesh); n = 0: none, no skinning */
    pb_skin_method skin;      /* how: PB_SKIN_LBS (0, the default: palette of 3x4 matrices, linear blend
                                 skinning) or PB_SKIN_DQS (palette_dq, dual-quaternion skinning); read at
                                 each palette and skinning stage */
    pb_pose inv_bind;         /* static, n = joints: the palette's inverse bind pose as a file gives it
                                 (pb_scene_asset); n = 0: made from clip[0]'s first key (pb_frame_crowd) */
} pb_scene;

/* A deterministic synthetic character: random parents (pb_skeleton_random_parents, depth < 16),
 * bones 5-17 cm, joint 0 a ground trajectory (y = 0, yaw only), the others
 * swinging smoothly (0.5-2 Hz); two 2 s clips at 60 fps from different seeds.
 * Errors: PB_ERR_NULL (s), PB_ERR_EMPTY (joints = 0), PB_ERR_SIZE (joints >
 * PB_MAX_JOINTS), PB_ERR_NOMEM, the clip allocation's. */
PB_API pb_status pb_scene_synthetic(pb_scene *s, size_t joints, uint64_t seed);
/* (Re)make s->turns from s->clip (pb_clip_turns), allocating them where they are not yet: the
 * constructors call it; call it after making a scene's clips by hand or changing their keys.
 * Errors: PB_ERR_NULL, pb_pose_alloc's and pb_clip_turns' (naming the clip). */
PB_API pb_status pb_scene_turns(pb_scene *s);

/* ---- BVH scenes (in builds with the BVH loader: PB_HAVE_BVH in posebench/version.h) ----
 * A BVH file loaded once (its warnings reported once, through warn). */
typedef struct pb_bvh_file {
    char path[512];
    float unit_scale;
    pb_bvh_skeleton skel;
    pb_clip clip;
} pb_bvh_file;
/* Load path at unit_scale; warn/user as pb_bvh_options (NULL: stderr).
 * Errors: PB_ERR_NULL (b, path), pb_bvh_load's. */
PB_API pb_status pb_bvh_file_load(pb_bvh_file *b, const char *path, float unit_scale, pb_bvh_warn_fn warn, void *user);
PB_API void pb_bvh_file_free(pb_bvh_file *b);
/* 1 if a and b have the same hierarchy (joint names and parents); 0 if either is NULL. */
PB_API int pb_bvh_file_same_skeleton(const pb_bvh_file *a, const pb_bvh_file *b);
/* A scene of a (source) and b (destination; may be a itself), clips copied.
 * name NULL: "bvh:<file>-<joints>". Legs: the LeftUpLeg/LeftLeg/LeftFoot and
 * RightUpLeg/RightLeg/RightFoot joints when present, else two independent
 * joint chains. Errors: PB_ERR_NULL (s; a or b NULL or not loaded), PB_ERR_PARAM
 * (hierarchies differ), PB_ERR_NOMEM. */
PB_API pb_status pb_scene_bvh(pb_scene *s, const char *name, const pb_bvh_file *a, const pb_bvh_file *b);
/* Both files loaded, then pb_scene_bvh (the packaged CMU pair). Errors: PB_ERR_NULL (s, a path),
 * pb_bvh_file_load's, pb_scene_bvh's. */
PB_API pb_status pb_scene_bvh_files(pb_scene *s, const char *name, const char *path_a, const char *path_b,
                             float unit_scale, pb_bvh_warn_fn warn, void *user);
PB_API void pb_scene_free(pb_scene *s);
/* Give scene s a synthetic mesh of `vertices` vertices (pb_mesh_synthetic,
 * 4 influences) around its bind pose (pb_frame_palette's), which the
 * skinning stage skins for every character; 0 removes it (no skinning).
 * Crowds made before keep the mesh they were made with: make them after.
 * Errors: PB_ERR_NULL, PB_ERR_SIZE (vertices > PB_MESH_MAX_VERTICES),
 * pb_mesh_alloc's, pb_mesh_synthetic's; on error s keeps its old mesh. */
PB_API pb_status pb_scene_mesh(pb_scene *s, size_t vertices);
#define PB_FRAME_VERTICES 2000   /* posebench frame's default mesh */

/* ---- transition methods ---------------------------------------------------------------------
 * Every method runs over the same window; dead blending's weight is its op's smoothstep of
 * t / window, the cross-fades' the crowd's curve (posebench/curve.h; smoothstep unless set). */
#define PB_FRAME_DT (1.0f / 60.0f)   /* the game's frame step */
#define PB_FRAME_TRANSITION_S 0.3f         /* default transition window */
#define PB_FRAME_HALFLIFE_S 0.1f           /* default dead-blending extrapolation half-life */
#define PB_FRAME_ADDITIVE_WEIGHT 0.5f      /* the additive layer's weight */

typedef enum pb_frame_method {
    PB_FM_CUT,               /* destination at once (reference: no blend) */
    PB_FM_CROSSFADE_STATIC,  /* blend_static: slerp, velocities lerped */
    PB_FM_CROSSFADE_NLERP,   /* blend_static_nlerp */
    PB_FM_CROSSFADE,         /* blend: slerp with exact velocities */
    PB_FM_INERTIALIZE,       /* inertialize_offset at the transition, inertialize per frame */
    PB_FM_DEAD,              /* dead_blending (slerp inside) */
    PB_FM_DEAD_NLERP,        /* extrapolate_decayed + blend_static_nlerp + roots from the destination */
    PB_FM_DEAD_UE,           /* Unreal's: half-lives per joint, axis and channel from estimate_halflife at the
                                transition, then dead_blending with them (per.halflives) */
    PB_FM_DEAD_CLAMP,        /* dead_blending with joint limits (per.limits) from the range of the scene's two
                                clips: the extrapolation held at a limit */
    PB_FM_DEAD_BOUNCE,       /* the same, the extrapolation reflected off a limit */
    PB_FM_DEAD_VIA,          /* dead_blending slerping via a direction state (call.via, set to the source's
                                rotations at the transition): the blend never switches sides */
    PB_FM_COUNT
} pb_frame_method;

typedef struct pb_frame_method_info {
    const char *key;         /* "crossfade_nlerp" */
    const char *method;      /* "cross-fade" */
    const char *rot;         /* "slerp", "nlerp", "n/a" */
    const char *per_frame;   /* the ops each frame runs after sampling */
    const char *once;        /* what runs once at the transition ("" if nothing) */
    int samples;             /* clips sampled per frame: 2 (both) or 1 (destination) */
} pb_frame_method_info;
PB_API const pb_frame_method_info *pb_frame_method_get(pb_frame_method m);   /* NULL if m is out of range */
/* The one table of transition method names, what `posebench frame --method`, `budget` and the graph JSON
 * read: each method's stable name is its info key (pb_frame_method_info.key), in enum order as
 * PB_FRAME_METHOD_NAMES lists them; "crossfade" and "dead" are also accepted, for crossfade_exact and
 * dead_slerp (the names the CLI and the graph JSON had first). */
#define PB_FRAME_METHOD_NAMES                                                                               \
    "cut|crossfade_slerp|crossfade_nlerp|crossfade_exact|inertialize|dead_slerp|dead_nlerp|dead_ue|dead_clamp|" \
    "dead_bounce|dead_via"
PB_API const char *pb_frame_method_name(pb_frame_method m);        /* its key; NULL if m is out of range */
/* The method named s (a key or one of the two aliases above), or PB_FM_COUNT (s NULL or unknown). */
PB_API pb_frame_method pb_frame_method_by_name(const char *s);

/* ---- crowds and stages ------------------------------------------------------------------------ */
typedef struct pb_frame_crowd {
    const pb_scene *sc;
    size_t characters, n;     /* n = joints x characters (crowd layout) */
    size_t first;             /* the crowd's first character in a larger crowd (blocks); 0 for a whole crowd */
    pb_skeleton skel;
    pb_op sampler;            /* PB_OP_sample_linear, PB_OP_sample_linear_turns (the scene's turns) or
                                 PB_OP_sample_cubic */
    int clip_of[2];           /* scene clip played as the source (role 0) and the destination (role 1) */
    pb_crowd_builder play[2]; /* the crowd builders sampling them, each character at its own time offset */
    float duration, halflife; /* transition window and dead blending's extrapolation half-life (s) */
    pb_curve curve;           /* the cross-fades' weight curve (smoothstep unless set by pb_frame_crowd_curve) */
    int frozen;               /* 1: the cross-fades' source is held at its pose at the transition (in state, its
                                 velocities 0: it does not move) while the destination takes over; the source
                                 clip is then not sampled per frame. 0: it plays on (the smooth cross-fade) */
    float hl_scale, hl_min, hl_max;   /* Unreal's dead blending (PB_FM_DEAD_UE): estimate_halflife's scale, min and
                                         max (params.hl_*), PB_HALFLIFE_EST_SCALE, _MIN, _MAX unless set (by
                                         pb_frame_crowd_halflife_est, or by hand: pb_frame_begin refuses them
                                         out of range) */
    pb_pose src, dst;         /* clip 0 and clip 1 sampled (locals) */
    pb_pose state;            /* the source at the transition (dead blending) or the offset (inertialization) */
    pb_pose tmp;              /* dead blending with nlerp: the extrapolated source */
    pb_pose halflives;        /* Unreal's dead blending: the half-lives from the transition (allocated by its
                                 first pb_frame_begin) */
    pb_pose via;              /* dead blending via: the direction state (allocated by its first pb_frame_begin) */
    float *limits;            /* dead blending with joint limits: lo, then hi, 3 floats per joint each: the
                                 rotation range of the scene's two clips (pb_clip_joint_limits; computed by
                                 the first pb_frame_begin of such a method) */
    pb_pose mix;              /* the transition's output */
    pb_pose delta;            /* the additive layer: a fixed delta pose (not sampled) */
    pb_pose local;            /* after the additive layer and the IK */
    pb_pose global;           /* fk with velocities */
    /* Legs FK: fk_static of the legs' joints and their ancestors only (the
     * IK reads no other global), leg_count joints listed in leg_joints in
     * skeleton order, over leg_skel; leg_at: each leg's root, mid, end and
     * the root's parent (-1: none) as joints of leg_skel. */
    pb_skeleton leg_skel;
    pb_pose leg_local, leg_global;
    int32_t *leg_joints;
    size_t leg_count;
    int32_t leg_at[2][4];
    pb_pose chain, target, solved;   /* IK: n = 3 x 2 legs x characters */
    pb_pose inv_bind;         /* static, one per joint (sc->joints elements) shared by the characters: the
                                 inverse of the bind pose's globals (see pb_frame_palette) */
    pb_palette palette;       /* the skinning palette: 3x4 matrices, M(global) M(inv_bind), n entries */
    /* Skinning (scenes with a mesh): the skinned vertices of all characters,
     * character k's V = sc->mesh.n at [k V, (k + 1) V) of each plane (skin[k]
     * views them), and a job per character for the variant skin_variant. */
    pb_skinned skinned;
    pb_skinned *skin;
    pb_skin_job **skin_jobs;
    const pb_variant *skin_variant;
    int skin_ready;
    pb_skin_method skin_method;   /* the method skin_jobs were made for */
    float *lift;              /* per-character IK target height change (m) */
    const pb_pose *mixed;     /* what the additive layer reads: &mix, &dst for a cut, &local for the
                                 stages' inertialization (in place, see pb_frame_step) */
    const char *failed;       /* the op that failed last (for messages) */
    struct pb_run_memos *memos;   /* the stages' calls as last validated (internal: checked in full
                                     again only where a pose or buffer of a call changed) */
} pb_frame_crowd;

/* A crowd holds 11 poses of 76 bytes and a palette entry (48 B) per element,
 * 884 B (the inverse bind, 40 B a joint, is shared by the characters), and
 * the legs FK's two static poses over the legs' joints and their ancestors
 * (at most 80 B per element): joints x characters is capped so that stays
 * within ~4.0 GB (4096 characters x 1024 joints). */
#define PB_FRAME_CROWD_MAX_ELEMENTS ((size_t)1 << 22)
/* and characters x mesh vertices: the crowd's skinned vertices are one pb_skinned buffer (24 B a vertex),
 * so its limit is the mesh limit, PB_MESH_MAX_VERTICES = 2^24 (~400 MB): one limit, not a larger one here that
 * pb_skinned_alloc then refuses as "out of memory" */
#define PB_FRAME_CROWD_MAX_VERTICES PB_MESH_MAX_VERTICES

/* Allocate the buffers for `characters` characters of scene sc. Offsets are
 * spread over the clips deterministically. Errors: PB_ERR_NULL (c; sc NULL or
 * not made), PB_ERR_EMPTY (characters = 0), PB_ERR_PARAM (sampler not one of
 * the three, or sample_linear_turns on a scene without turns), PB_ERR_SIZE (above
 * PB_FRAME_CROWD_MAX_ELEMENTS, or characters x the scene's mesh vertices
 * above PB_FRAME_CROWD_MAX_VERTICES), PB_ERR_NOMEM, the crowd builder's. */
PB_API pb_status pb_frame_crowd_init(pb_frame_crowd *c, const pb_scene *sc, size_t characters, pb_op sampler);
/* The same for characters [first, first + characters) of a larger crowd:
 * every per-character quantity (clip offsets, IK lift, additive delta) is a
 * function of the character's index in the whole crowd, so a crowd split
 * into ranges computes exactly (bit for bit) what the whole crowd computes. */
PB_API pb_status pb_frame_crowd_init_range(pb_frame_crowd *c, const pb_scene *sc, size_t first, size_t characters,
                                           pb_op sampler);
/* What role (0 source, 1 destination) plays: scene clip `clip` (0 or 1), character k
 * at offsets[k] s (c->characters of them) plus the stage's time. Errors:
 * PB_ERR_NULL (c NULL or not made by pb_frame_crowd_init, offsets),
 * PB_ERR_PARAM (role or clip not 0 or 1), the crowd builder's (an offset
 * not finite); on error the crowd plays what it played. */
PB_API pb_status pb_frame_crowd_play(pb_frame_crowd *c, int role, int clip, const float *offsets);
PB_API void pb_frame_crowd_free(pb_frame_crowd *c);
/* Unreal's dead blending's scale, min and max (s) for the crowd's next pb_frame_begin: checked once here.
 * Errors: PB_ERR_NULL (c), PB_ERR_PARAM as pb_halflife_est_check (ops.h: 0 < scale <= 10, 0 <= min <= max
 * <= 10, all finite; the message names the field), the crowd unchanged. */
PB_API pb_status pb_frame_crowd_halflife_est(pb_frame_crowd *c, float scale, float min, float max);
/* The cross-fades' weight curve (copied) and the frozen (1) or smooth (0) cross-fade, for the crowd's
 * next pb_frame_begin (then fixed until the next). pb_frame_begin refuses a curve other than
 * smoothstep, or frozen, for a method that is no cross-fade (PB_ERR_PARAM: cut, inertialization and
 * dead blending blend by their ops' own weights). Errors: PB_ERR_NULL (c, curve), pb_curve_check's,
 * PB_ERR_PARAM (frozen not 0 or 1); the crowd unchanged on error. */
PB_API pb_status pb_frame_crowd_curve(pb_frame_crowd *c, const pb_curve *curve, int frozen);

/* Stages. role: 0 samples the source clip into src, 1 the destination into
 * dst; time: seconds added to every character's offset; t: seconds since the
 * transition. Each refuses a crowd that is NULL or not made by
 * pb_frame_crowd_init (PB_ERR_NULL), a role other than 0 or 1, a method out
 * of range, a time or t not finite (PB_ERR_PARAM), then returns pb_run's
 * status (c->failed names the op). */
PB_API pb_status pb_frame_sample(pb_frame_crowd *c, const pb_variant *v, int role, float time);
PB_API pb_status pb_frame_begin(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m);      /* once, from src and dst */
PB_API pb_status pb_frame_transition(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, float t);
PB_API pb_status pb_frame_additive(pb_frame_crowd *c, const pb_variant *v);
PB_API pb_status pb_frame_leg_fk(pb_frame_crowd *c, const pb_variant *v);
PB_API pb_status pb_frame_ik(pb_frame_crowd *c, const pb_variant *v);
PB_API pb_status pb_frame_fk(pb_frame_crowd *c, const pb_variant *v);
/* The matrix palette (op palette) of the globals and inv_bind (one per joint:
 * the palettes' shared form), the inverse of the bind pose: each joint's local position in the source clip's first frame
 * (its bone; a BVH joint's OFFSET), no rotation, unit scale, roots at the
 * origin, so a mesh modelled around that pose follows the character; a scene
 * with its own inverse bind pose (sc->inv_bind: an imported character's,
 * pb_scene_asset) uses that instead. A scene
 * skinned by PB_SKIN_DQS gets the dual-quaternion palette (op palette_dq,
 * PB_PALETTE_DQ_FLOATS per element) instead. Errors: PB_ERR_PARAM for a
 * scene's skin that is neither method, the op's. */
PB_API pb_status pb_frame_palette(pb_frame_crowd *c, const pb_variant *v);
/* Skinning of the scene's mesh by each character's palette into c->skin[k]
 * (nothing when the scene has no mesh), by the scene's method: linear blend
 * or dual-quaternion (sc->skin). The first call with a variant and method
 * validates the mesh once per character (pb_skin_job_create); later calls
 * only run the kernels. */
PB_API pb_status pb_frame_skin(pb_frame_crowd *c, const pb_variant *v);
/* Times of timed frame k: each role's clip time (cycling within the first half
 * of the clip) and the time since the transition (cycling within the window,
 * so every timed frame is mid-transition: every character blending). NaN, with
 * the message in pb_last_error(), for a crowd NULL or not made, or a role other than 0 or 1. */
PB_API float pb_frame_crowd_clip_time(const pb_frame_crowd *c, int role, int k);
PB_API float pb_frame_crowd_trans_time(const pb_frame_crowd *c, int k);
/* Timed frame k (k >= 0) whole: the samples the method needs at
 * pb_frame_crowd_clip_time, the transition at pb_frame_crowd_trans_time, the
 * additive layer, leg FK, the IK, FK, the palette and the skinning; the globals
 * are then in c->global, the skinning matrices in c->palette, the skinned
 * vertices in c->skin. Unlike pb_frame_sample and pb_frame_transition, the
 * stages of an inertialization sample the destination into c->local and run the
 * transition in place there (c->mixed == &c->local), and the additive layer then
 * runs in place on it: the frame passes two poses fewer through the caches (the
 * fused default frame 21.2 -> 19.3 ns per joint on AVX-512; the destination's
 * sampling 72 -> 61 us, the transition 54 -> 48, the additive layer 53 -> 47).
 * pb_frame_begin must have run for m. Errors: PB_ERR_NULL, PB_ERR_PARAM
 * (m or k), then the first failing stage's (c->failed names its op). */
PB_API pb_status pb_frame_step(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int k);

/* The stages of a timed frame, in order. pb_frame_step(c, v, m, k) is
 * pb_frame_stage_run for each of them; PB_FS_SAMPLE_SRC does nothing for
 * methods that sample one clip (pb_frame_method_info.samples == 1) and for a frozen cross-fade. */
typedef enum pb_frame_stage {
    PB_FS_SAMPLE_SRC, PB_FS_SAMPLE_DST, PB_FS_TRANSITION, PB_FS_ADDITIVE, PB_FS_LEG_FK, PB_FS_IK, PB_FS_FK,
    PB_FS_PALETTE, PB_FS_SKIN, PB_FS_COUNT
} pb_frame_stage;
PB_API const char *pb_frame_stage_name(pb_frame_stage s);   /* "sample_src" ... "skin"; NULL if out of range */
/* Stages [from, to) of timed frame k, in order, its arguments checked once:
 * pb_frame_step is stages [0, PB_FS_COUNT), pb_frame_stage_run stage [s, s + 1).
 * Errors: as pb_frame_step, and PB_ERR_PARAM (stages not within [0, PB_FS_COUNT)). */
PB_API pb_status pb_frame_stages_run(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int k,
                                     pb_frame_stage from, pb_frame_stage to);
PB_API pb_status pb_frame_stage_run(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, int k,
                                    pb_frame_stage s);

/* ---- fused execution by character block, on threads -------------------------------------------
 * A crowd of C characters split into floor(C / block) blocks of `block`
 * characters, the remainder joining the last block (a crowd smaller than a
 * block is one block), each its own pb_frame_crowd (pb_frame_crowd_init_range):
 * the same kernels on smaller ranges, no second copy of any op. A block's
 * working set (8 poses of 76 bytes per element, block x joints elements)
 * can stay in L2 while it runs through every stage (fused order), where the
 * stage-by-stage order streams the whole crowd through memory once per stage.
 * The split never depends on the thread count, and blocks are independent,
 * so every order and every thread count computes the same poses, bit for
 * bit, as one pb_frame_crowd of all C characters. That needs blocks of at
 * least PB_FRAME_BLOCK_MIN characters: below the vector width, FK takes its
 * few-character path (per-element records), exact but rounded differently. */
#define PB_FRAME_BLOCK_MIN 16
typedef enum pb_frame_order {
    PB_FO_FUSED,    /* each block through all stages, then the next block */
    PB_FO_STAGED    /* each stage over all blocks, then the next stage */
} pb_frame_order;

typedef struct pb_frame_blocks {
    const pb_scene *sc;
    size_t characters;        /* C, the whole crowd */
    size_t block;             /* characters per block */
    size_t count;             /* blocks: max(1, floor(C / block)) */
    pb_frame_crowd *crowd;    /* count crowds; crowd[b] holds characters [b x block, ...), the last up to C - 1 */
    /* The fused order's per-thread scratch: for each pool thread, the 5 poses a
     * frame only passes between its stages (src, dst, tmp, mix, local), sized
     * for the largest block (the last, holding the remainder). A thread runs
     * every one of its blocks in these, one block after another, so they stay
     * in its L2; each block keeps only what outlives
     * the frame (the transition state, the additive delta, the globals).
     * Allocated on the first fused step with that many threads, then reused. */
    pb_pose *scratch;         /* 5 x scratch_threads poses */
    int scratch_threads;
} pb_frame_blocks;

/* The default block for a scene: the multiple of 16 (every ISA's vector width
 * divides it; at least 16) nearest to the characters whose working set (8
 * poses) fills l2_bytes (0: 1 MiB): 32 for 64 joints and 1 MiB. Measured (dev
 * VM, 200 x 64, avx512, inertialization, one thread): blocks of 16 took
 * 732-783 us, 32 589-633, 48 619-651, 64 873-909; below the fill, each block's
 * fixed cost (a pb_run's checks per op call) weighs more; far above, the
 * block's poses leave L2 between stages. */
PB_API size_t pb_frame_block_default(const pb_scene *sc, size_t l2_bytes);
/* Errors: PB_ERR_NULL, PB_ERR_EMPTY (no characters), PB_ERR_PARAM (block < PB_FRAME_BLOCK_MIN),
 * pb_frame_crowd_init_range's. */
PB_API pb_status pb_frame_blocks_init(pb_frame_blocks *b, const pb_scene *sc, size_t characters, size_t block,
                                      pb_op sampler);
PB_API void pb_frame_blocks_free(pb_frame_blocks *b);
/* pb_frame_crowd_halflife_est for every block; its errors (nothing changed on error). */
PB_API pb_status pb_frame_blocks_halflife_est(pb_frame_blocks *b, float scale, float min, float max);
/* pb_frame_crowd_curve for every block; its errors (nothing changed on error). */
PB_API pb_status pb_frame_blocks_curve(pb_frame_blocks *b, const pb_curve *curve, int frozen);
/* A transition starts at `time` on every block, blocks spread over pool
 * (NULL: this thread): each block samples both clips at `time` (seconds
 * added to every character's offset, as pb_frame_sample) and runs
 * pb_frame_begin on them, every block in its thread's scratch (so it may
 * be called between fused frames: it never reads poses an earlier frame left).
 * For the whole crowd this is pb_frame_sample(c, v, 0, time),
 * pb_frame_sample(c, v, 1, time), pb_frame_begin(c, v, m), bit for bit.
 * Errors: PB_ERR_NULL, PB_ERR_PARAM (m, time not finite), PB_ERR_NOMEM (the
 * scratch), then the failing block's (lowest block first). */
PB_API pb_status pb_frame_blocks_begin(pb_frame_blocks *b, const pb_variant *v, pb_frame_method m, float time,
                                       pb_pool *pool);
/* Timed frame k of every block in the given order, blocks spread over pool
 * (NULL: this thread; the staged order waits for all blocks after each
 * stage). Fused, every block runs in its thread's scratch (above), so its
 * src, dst, tmp, mix and local poses are left unchanged. Errors: PB_ERR_NULL, PB_ERR_PARAM
 * (m, k or order), PB_ERR_NOMEM (the scratch), then the failing block's stage
 * (lowest block first), its message naming the block. */
PB_API pb_status pb_frame_blocks_step(pb_frame_blocks *b, const pb_variant *v, pb_frame_method m, int k,
                                      pb_frame_order order, pb_pool *pool);
/* The per-block form, for an engine's own job system (one job per block):
 * stages [from, to) of timed frame k for one block, as thread `thread` of
 * the caller's (it uses scratch slot `thread`: two calls running at once
 * must pass different threads), or thread -1: in the block's own buffers
 * (what the staged order uses). pb_frame_blocks_scratch(b, T) first makes
 * the slots of T threads. pb_frame_blocks_step(.., PB_FO_FUSED, pool) is
 * pb_frame_block_run(b, v, m, k, i, 0, PB_FS_COUNT, t) for block i on pool
 * thread t. Errors: PB_ERR_NULL, PB_ERR_PARAM (block, stages, thread below -1 or without
 * scratch), PB_ERR_NOMEM, the stage's. */
PB_API pb_status pb_frame_blocks_scratch(pb_frame_blocks *b, int threads);
PB_API pb_status pb_frame_block_run(pb_frame_blocks *b, const pb_variant *v, pb_frame_method m, int k, size_t block,
                                    pb_frame_stage from, pb_frame_stage to, int thread);

#ifdef __cplusplus
}
#endif
#endif
