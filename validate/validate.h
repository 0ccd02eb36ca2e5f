/* validate.h — the validation harness: every op x every variant against the
 * float reference and the double oracle, on seeded random inputs and edge
 * classes, with error metrics, a tolerance table and verdicts. */
#ifndef PB_VALIDATE_H
#define PB_VALIDATE_H

#include <stdint.h>
#include <stdio.h>
#include "internal.h"

/* ---- input classes (gen.c) ----------------------------------------------------------- */
typedef enum pb_class {
    PB_CLASS_RANDOM,          /* independent uniform rotations, random positions/scales/velocities */
    PB_CLASS_IDENTITY,        /* everything identity */
    PB_CLASS_IDENTICAL,       /* b = a */
    PB_CLASS_NEAR_IDENTICAL,  /* b = a rotated by 1e-7 ... 1e-2 rad; a itself often a tiny rotation */
    PB_CLASS_ANTIPODAL,       /* b.rot = -a.rot (same rotation, other sign) */
    PB_CLASS_NEAR_PI,         /* b 180 deg - (1e-5 ... 1e-2) rad from a, and exactly 180 deg */
    PB_CLASS_ZERO_VEL,        /* random, all velocities zero */
    PB_CLASS_DEGENERATE,      /* random inputs, degenerate parameters: dt, half-life, duration, time 0;
                                 alpha outside [0, 1]; timescale 0 */
    PB_CLASS_MIXED,           /* every element from a random one of the above */
    PB_CLASS_MOCAP,           /* real motion capture (BVH): frames, velocities, transitions, skeletons, legs */
    PB_CLASSES
} pb_class;

const char *pb_class_name(pb_class c);

/* Fill a and b (same n, allocated) with class c for op info, from seed. */
void pb_gen_case(pb_pose *a, pb_pose *b, pb_class c, uint64_t seed, const pb_op_info *info);
/* Bring a random pose to the scale of a skeleton's locals: bones of a few cm
 * to 17 cm, scales within e^+-0.1, limb-like velocities. */
void pb_gen_bone_scale(pb_pose *p);
/* Look-at targets in b.pos/b.vel by class: random (0.3 .. 3 m away), identity:
 * at the head; near_identical: straight ahead along axis; near_pi: exactly
 * behind (antiparallel). */
void pb_gen_targets(const pb_pose *a, pb_pose *b, pb_class c, const float axis[3], uint64_t seed);
/* Two-bone chains in the PB_OPF_CHAIN layout (n = 3 x chains): thigh/shin-like
 * bones of 0.3 .. 0.5 m, knees bent up to ~120 deg, targets 0.05 .. 1.2 m from
 * the root (some out of reach). By class: identity: straight (collinear)
 * chains; near_identical: target exactly at the current end; near_pi: target
 * at the root; antipodal: a zero-length bone; zero_vel: no velocities. */
void pb_gen_chains(pb_pose *a, pb_pose *b, pb_class c, uint64_t seed);
/* Foot IK characters in the PB_OPF_FOOT layout (n = 7 x characters): an upright
 * pelvis about 1 m up, legs of 0.35 .. 0.5 m bones with bent knees, ground
 * planes near each ankle (mostly below it, tilted up to 0.35 rad). By class:
 * identity: straight legs; near_identical: the ankle on its plane and the foot's
 * up axis (axis) along its normal; near_pi: ground out of reach (2-4 m below, or
 * a wall 2 m to the side); antipodal: a zero-length bone; zero_vel: no
 * velocities; degenerate: zero, horizontal, downward and exactly-up normals. */
void pb_gen_feet(pb_pose *a, pb_pose *b, pb_class c, const float axis[3], uint64_t seed);
/* Clip keys (pose a holds frames x joints, already random) by class: identity:
 * a single key; antipodal: every other frame's rotations negated (same
 * rotations, other sign); zero_vel: every frame a copy of the first. */
void pb_gen_clip_class(pb_pose *clip, size_t frames, size_t joints, pb_class c);
/* Per-character time offsets, multiples of 2^-10 s: random: anywhere in the
 * clip and 0.3 s either side; near_identical: exactly on keys (time + offset =
 * k / fps); near_pi: before the start or past the end. */
void pb_gen_offsets(float *off, size_t characters, pb_class c, size_t frames, float fps, float time, uint64_t seed);
/* Per-element parameter arrays (the "per" form): per character for every
 * parameter flags names, a per-joint mask for weights; mem: 6 C + n / C floats. */
void pb_gen_param_arrays(pb_param_arrays *pa, float *mem, size_t n, size_t C, uint32_t flags, uint64_t seed);
/* 3 x joints half-lives for per.halflife_axis: per axis, some equal, some 0. */
void pb_gen_halflife_axes(float *hl, size_t joints, uint64_t seed);
void pb_gen_halflives(pb_pose *h, uint64_t seed);
void pb_gen_limits(float *lo, float *hi, float *rest, size_t joints, uint64_t seed);
void pb_gen_via(pb_pose *via, const pb_pose *a, const pb_pose *b, uint64_t seed);
/* A random parent array: joints in order, each parent earlier, depth < max_depth. */
void pb_gen_parents(int32_t *parents, size_t joints, size_t max_depth, uint64_t seed);

/* ---- real motion capture (mocap.c) --------------------------------------------------------- */
/* The most keys (frames x joints) a file may hold: the loader's own default
 * (posebench/bvh.h), the same for validate, bench and frame. The loader keeps
 * the whole clip (19 floats a key) and its text while parsing, and validation
 * adds a window of the clip (PB_CASE_CLIP_WINDOW_KEYS), so any file within the
 * bound validates in well under 512 MB. Larger files are refused, naming the
 * file and the bound. */
#define PB_MOCAP_MAX_KEYS PB_BVH_DEFAULT_MAX_KEYS
typedef struct pb_mocap {
    size_t nclips;
    pb_clip *clips;             /* unit scale 0.01: centimetres -> metres */
    pb_bvh_skeleton *skels;
} pb_mocap;
/* Load BVH files (files NULL: the packaged CMU/assimp ones, those present;
 * then none loaded is not an error). Warnings go to log as comments.
 * Units: centimetres -> metres (unit scale 0.01). */
pb_status pb_mocap_load(pb_mocap *m, const char *const *files, size_t nfiles, int strict, FILE *log);
/* Same, files (when given) loaded with unit scale `scale` (0: 0.01). */
pb_status pb_mocap_load_scaled(pb_mocap *m, const char *const *files, size_t nfiles, double scale, int strict,
                               FILE *log);
void pb_mocap_free(pb_mocap *m);
/* Add an imported character's clips (posebench/asset.h), each with the
 * model's skeleton (its rest positions as the offsets; no end sites), in the
 * model's own units. A model whose skeleton has no leg (a joint named *Foot* or
 * *Ankle* with a parent and a grandparent) is not added: the class's IK
 * inputs are the legs. Returns the clips added (0: none; why in *why when
 * given), or -1 (PB_ERR_NOMEM, PB_ERR_SIZE: a clip over PB_MOCAP_MAX_KEYS). */
struct pb_asset;
int pb_mocap_add_asset(pb_mocap *m, const struct pb_asset *a, const char **why);
/* Why the real-data class will not run, or NULL when it will: "--no-mocap
 * given", or (no files given) that none of the packaged CMU clips is installed
 * where they were looked for. (Files given either load or stop the run.) */
const char *pb_mocap_skip_reason(int no_mocap, size_t nfiles);
const pb_clip *pb_mocap_clip(const pb_mocap *m, size_t i);
const pb_bvh_skeleton *pb_mocap_skeleton(const pb_mocap *m, size_t i);
/* a: random (clip, frame, joint) keys with forward-difference velocities; b: the
 * same joint at another moment or clip (a real transition). */
void pb_mocap_fill(const pb_mocap *m, pb_pose *a, pb_pose *b, uint64_t seed);
/* Locals of a crowd of `characters` at random frames of clip i (joint-major). */
void pb_mocap_crowd(const pb_mocap *m, size_t clip, pb_pose *local, size_t characters, uint64_t seed);
/* Two-bone chains from the clips' legs (hip global, knee and foot locals) with
 * targets near the foot (PB_OPF_CHAIN layout). */
void pb_mocap_chains(const pb_mocap *m, pb_pose *a, pb_pose *b, uint64_t seed);
/* The same for chains of L joints (PB_OPF_NCHAIN layout, n = L x chains): L = 3 the
 * legs as above; longer: limbs ending at hands, feet and toes (arms from the
 * clavicle, legs to the toe), every bone of non-zero length. A chain the
 * skeleton does not have that long keeps what a held. */
void pb_mocap_nchains(const pb_mocap *m, pb_pose *a, pb_pose *b, int L, uint64_t seed);
/* Chains of L joints (PB_OPF_NCHAIN layout): bones of 5 .. 30 cm with random
 * bends, the root anywhere near the origin; targets by class: random: in the
 * reachable shell (from the hole a longest bone leaves around the root plus
 * 3 % of the reach, to 97 % of the reach) or out of reach (1.03 .. 1.5 x),
 * never near the shell's edges, where FABRIK stopped after a fixed number of
 * iterations is ill-conditioned; identity: straight chains, targets as
 * random; near_identical: the target at the current end; near_pi: at the
 * root (inside the hole when there is one); antipodal: just out of reach
 * (1.001 x); degenerate: non-uniform scales (root e^+-0.69, joints e^+-0.2).
 * Every element of other classes (and mixed) takes one of these. */
void pb_gen_nchains(pb_pose *a, pb_pose *b, int L, pb_class c, uint64_t seed);
/* Foot IK characters from the clips' two legs (PB_OPF_FOOT layout): the legs'
 * common ancestor as the pelvis (global), the hips relative to it, knees and
 * ankles as in the clip; ground planes near each foot, tilted up to 0.3 rad. */
void pb_mocap_feet(const pb_mocap *m, pb_pose *a, pb_pose *b, uint64_t seed);

/* ---- one op's input case (inputs.c): shared by validation, the benchmarks and the tests -------- */
/* A case, described. n: the elements the op computes (= joints x characters
 * for skeleton and sampling ops; 3 x chains for chain ops; 7 x characters for foot IK). Skeleton ops:
 * characters of `joints` joints. Clip ops (sampling, unroll): a clip of
 * frames x joints keys at fps, from frame frame0 of clip `clip` (class mocap)
 * or generated; sampling ops sample it for `characters` characters at
 * p.time + their offsets. p: the op's parameters (p.axis aims the look-at
 * targets, p.time places the offsets). */
typedef struct pb_vcase {
    pb_class cls;
    size_t n;
    pb_params p;
    size_t joints, characters, frames;
    float fps;
    size_t clip, frame0;
} pb_vcase;

/* Real-data clip cases take a window of at most this many keys (frames x
 * joints) of a clip: validation's buffers of a case cost about 2 KB per key
 * (float poses, AoS copies, six double views), so a whole 56k-frame clip
 * would need gigabytes. */
#define PB_CASE_CLIP_WINDOW_KEYS ((size_t)65536)
/* That window of clip: *frames of it from *frame0, drawn from draw. */
void pb_case_clip_window(const pb_clip *clip, uint64_t draw, size_t *frames, size_t *frame0);

/* Where a case goes: the caller's buffers. */
typedef struct pb_case_bufs {
    pb_pose *a, *b;          /* full poses of pb_case_in_n() elements: inputs, or (clip ops) a: the clip's keys */
    pb_pose_aos *aos_in;     /* as many elements: pose a in engine layout; NULL: not wanted */
    float *offsets;          /* clip ops: cs->characters per-character time offsets */
    pb_skeleton *skel;       /* skeleton ops: initialized here (the caller frees it) */
} pb_case_bufs;

/* Input elements of case cs for op info: n, or frames x joints for clip ops. */
size_t pb_case_in_n(const pb_vcase *cs, const pb_op_info *info);
/* Fill op info's inputs for case cs, by op family: poses a and b of the class
 * (pb_gen_case); for the mocap class real keys and transitions (pb_mocap_fill);
 * look-at targets; two-bone chains (class mocap: the clips' legs); the clip
 * (generated by class, or a window of clip cs->clip) and the offsets; for
 * skeleton ops the skeleton (random parents, or clip cs->clip's) with locals
 * at bone scale (or real characters at random frames); the AoS input.
 * seed: the run's; index: the case's (the generator's seed is spread apart by
 * it, the others follow it). m: the loaded clips (the mocap class only).
 * Errors: PB_ERR_SIZE (poses not pb_case_in_n() long), PB_ERR_NULL (no
 * skeleton or offsets for an op that needs them), PB_ERR_PARAM (mocap class
 * without clips), a skeleton's errors (pb_skeleton_init), PB_ERR_NOMEM. */
pb_status pb_case_fill(const pb_case_bufs *o, const pb_vcase *cs, const pb_op_info *info, const pb_mocap *m,
                       uint64_t seed, size_t index);

/* ---- metrics (metrics.c) ------------------------------------------------------------------ */
typedef enum pb_metric_kind {
    PB_M_ROT_ANGLE,   /* rad: 2 atan2(|v|, |w|) of conj(oracle) * q; q and -q equal */
    PB_M_ROT_NORM,    /* | |q| - 1 | */
    PB_M_ROT_COMP,    /* max |component difference|, sign-sensitive (quat_abs) */
    PB_M_VEC_ABS,     /* |difference| of the 3-vector, in the data's units */
    PB_M_VEC_REL,     /* |difference| / |oracle| of the 3-vector */
    PB_M_SCL_REL,     /* max over xyz of |difference| / |oracle| */
    PB_M_AOS_ABS,     /* max |component difference| of the AoS arrays */
    PB_M_SCL_ABS,     /* max over xyz of |difference| (method error of scalar approximations) */
    PB_M_OBJ_SPACE,   /* cm: virtual vertices 3 cm along each local axis (both signs), max distance */
    PB_M_PAL_ABS,     /* max |component difference| of a palette entry (12 or 8 floats; group: the width) */
    PB_M_KINDS
} pb_metric_kind;

typedef struct pb_metric {
    pb_metric_kind kind;
    int group;            /* pb_group, or -1 for AoS */
    char name[24];        /* "rot_angle", "pos_abs", ... */
    const char *unit;
} pb_metric;

#define PB_MAX_METRICS 16
/* The metrics that judge op's outputs. Returns the count. */
int pb_metrics_for(const pb_op_info *info, pb_metric *m);

/* An engine-layout pose (pb_pose_aos) over n x PB_AOS_FLOATS floats at mem:
 * pos, rot, scl, vel, ang, svl arrays one after the other. */
#define PB_AOS_FLOATS (3 + 4 + 3 * 4)
void pb_aos_layout(pb_pose_aos *a, float *mem, size_t n);

/* Double-precision view of a pose or AoS output: planes of n_padded doubles. */
typedef struct pb_dpose {
    size_t n, n_padded;
    double *plane[PB_PLANES];
    double *aos[PB_AOS_ARRAYS];
    double *pal;   /* palette ops' output: n x PB_PALETTE_MAT_FLOATS (the widest) */
} pb_dpose;
int pb_dpose_alloc(pb_dpose *d, size_t n);
void pb_dpose_free(pb_dpose *d);
void pb_dpose_from_pose(pb_dpose *d, const pb_pose *p);
void pb_dpose_from_aos(pb_dpose *d, const pb_pose_aos *a);
/* Entries per palette element of op info (12, 8), or 0 for other ops. */
int pb_palette_width(const pb_op_info *info);
/* Floats an op reads and writes per element, as `bench` counts its bytes and sizes the copy
 * it is compared with (x 4 for bytes): the groups of a (with its optional velocity groups:
 * the bench's poses have them), of b, of out, AoS arrays and the palette; sampling counts
 * the keys it gathers as if streamed (pos, rot, scl of 2 keys, linear; 4, cubic; + a turn of
 * 5 floats for sample_linear_turns). docs/ops.md prints these (`posebench ops --markdown`). */
void pb_op_floats(pb_op op, size_t *read, size_t *written);

/* Angle in radians of the rotation between quaternions q and p (w, x, y, z;
 * unit, or nearly): the rotation error metric, sign-agnostic (q and -q give
 * 0). pb_pose_rot_angle: between element i of x and element j of y. */
double pb_rot_angle(const double q[4], const double p[4]);
double pb_pose_rot_angle(const pb_pose *x, size_t i, const pb_pose *y, size_t j);

/* Per-element error of test against oracle for metric m, into err[0..n). */
void pb_metric_eval(const pb_metric *m, const pb_dpose *test, const pb_dpose *oracle, double *err);
/* Count of non-finite test values where the oracle is finite, over the op's outputs. */
size_t pb_count_nan(const pb_op_info *info, const pb_dpose *test, const pb_dpose *oracle);

/* ---- tolerance table (tolerance.c) ---------------------------------------------------------- */
typedef struct pb_tolerance {
    const char *op;
    double k;             /* variant may be up to k x the float reference's own error ... */
    double rot_floor;     /* ... or this absolute floor, whichever is larger (rad) */
    double norm_floor;    /* | |q| - 1 | */
    double abs_floor;     /* absolute, in the data's units (and signed quaternion components); cm for object space */
    double rel_floor;     /* relative error of scales; < 0: reported, not judged */
    double vrel_floor;    /* relative error of 3-vectors (rotation vectors: log); < 0: reported only */
    double method_bound;  /* _est ops: bound on method error vs the exact op; < 0 none */
    double vel_bound;     /* PB_OPF_VELCHECK ops: bound on velocity consistency (relative) */
    double obj_floor;     /* PB_OPF_OBJSPACE ops: object-space error floor, cm */
    const char *reason;
} pb_tolerance;
const pb_tolerance *pb_tolerance_for(const char *op);
double pb_tolerance_floor(const pb_tolerance *t, pb_metric_kind kind);

/* ---- the engine (validate.c, runner.c, cases.c, velcheck.c; table.c: the front end) --------------------------------------------------------------- */
typedef struct pb_validate_opts {
    const char *op;        /* only this op (NULL: all, unless ops) */
    const char *const *ops;  /* besides op: only these ops (nops of them) */
    size_t nops;
    const char *variant;   /* only this variant; an ISA name selects its native and emulated builds (NULL: all) */
    uint64_t seed;
    int quick;             /* skip the 100003-element case */
    int verbose;           /* print every metric row */
    const char *const *bvh;  /* BVH files for the mocap class (NULL: the packaged CMU files, when present) */
    size_t nbvh;
    int strict;            /* BVH warnings are errors */
    int no_mocap;          /* skip the mocap class */
    FILE *table;           /* human table (NULL: none) */
    struct pb_val_json *json;  /* collects the JSON rows (NULL: none); written by pb_val_json_write */
    double bvh_scale;      /* unit scale of the bvh files (0: 0.01, centimetres -> metres) */
    const struct pb_asset *model;  /* an imported character whose clips join the mocap class (NULL: none) */
} pb_validate_opts;

/* One judged row: op x variant x metric. max/p99: variant vs oracle; ref:
 * float reference vs oracle; var_vs_ref: variant vs float reference. */
typedef struct pb_val_row {
    const char *op, *variant, *mode;
    const char *form;     /* "full" (poses with velocities, the op's default parameters), "static" (static
                             poses: pos/rot/scl only), "scale=linear" / "scale=exp" (the other scale mode),
                             "per" (per-character parameters and a per-joint weight mask) */
    pb_metric metric;
    double max_err, p99_err, ref_err, var_vs_ref, bound, method_err, method_bound;
    double class_max[PB_CLASSES];
    size_t nan, pad_bad;
    size_t state_bad;     /* the via form: elements whose direction state (call.via) is not the oracle's
                             choice, outside the ill-posed ones; must be 0 */
    size_t inplace_bad;   /* ops writing a pose of a's size: elements whose result in place (out == a) is not the
                             separate out's, bit for bit (all of them if the in-place call failed); must be 0 */
    int rejects_empty;    /* n = 0 returned PB_ERR_EMPTY and wrote nothing; -1: not checked (pb_val_emit rows) */
    double vel_consistency; /* PB_OPF_VELCHECK ops: oracle velocities vs central finite differences of the
                               oracle's own outputs (steps h and 2h, Richardson-extrapolated) (relative, max(1, |v|)); -1 if not applicable */
    double vel_bound;
    size_t ill_posed, elements;  /* chain IK: elements whose answer float inputs do not determine (the oracle on
                                    inputs a few ulps apart moves > 1e-2 rad), left out of the errors; of all.
                                    0, 0 for the other ops (runner.c) */
    int pass;
} pb_val_row;

typedef void (*pb_row_fn)(const pb_val_row *row, void *user);

/* Where the tables besides the pose ops' (skinning, motion matching, blend-space
 * weights, the N-way blend) send their judged rows, besides their text: the
 * same pb_val_row as the pose ops', so --json holds every table. */
typedef struct pb_val_sink {
    pb_row_fn fn;   /* NULL: rows go nowhere */
    void *user;
} pb_val_sink;
/* One row of such a table to sink (NULL: nothing): op, form (the table's case:
 * "random", "cmu ties", "polar dirs8 inside"), variant v, metric (name, unit),
 * the variant's error and the float reference's (< 0: none), its bound (< 0:
 * reported, not judged), elements judged, non-finite outputs, the verdict.
 * Fields with no meaning there (p99, in-place, n = 0, classes) are null in
 * the JSON. */
void pb_val_emit(const pb_val_sink *sink, const char *op, const char *form, const pb_variant *v, const char *metric,
                 const char *unit, double err, double ref, double bound, size_t elements, size_t nonfinite, int pass);

/* The JSON file of a run: every row collected (pb_val_json_row is a
 * pb_row_fn), then written once: an array of rows, or, if the run failed to
 * start or stopped on an error, an error record {"error": message, ...}, so
 * the file is valid JSON either way. mocap_skipped (NULL: real motion capture
 * was used) is why the real-data class was not run: each row then has
 * "mocap": "skipped" and "mocap_skipped": that reason (else "mocap": "used"),
 * and its classes.mocap is null. */
typedef struct pb_val_json pb_val_json;
pb_val_json *pb_val_json_new(const char *mocap_skipped);
void pb_val_json_row(const pb_val_row *row, void *user);
/* 0, or -1 (out of memory or a write error; message in pb_last_error()). */
int pb_val_json_write(pb_val_json *j, FILE *f, const pb_validate_opts *o, const char *error);
void pb_val_json_free(pb_val_json *j);

/* Run the harness; calls row_fn for every row. Returns the number of failing
 * rows, or -1 on a setup error (message in pb_last_error()). */
int pb_validate(const pb_validate_opts *o, pb_row_fn row_fn, void *user);
/* The CLI front end: the table, and the rows into o->json; returns failing rows or -1. */
int pb_validate_report(const pb_validate_opts *o);

#endif
