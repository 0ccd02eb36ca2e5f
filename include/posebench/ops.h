/* ops.h — the op list, the variant (ISA) table, and the calls that run ops.
 *
 * Every op has one name used everywhere: pb_ref_<name> in reference/, one
 * kernel body in kernels/ instantiated per ISA, one registry row
 * (src/registry.c), one tolerance row (validate/tolerance.c). Adding an op
 * means adding it to PB_OP_LIST and filling those rows: the dispatcher,
 * the validation harness and the CLI pick it up from the registry. */
#ifndef POSEBENCH_OPS_H
#define POSEBENCH_OPS_H

#include "export.h"
#include <stdint.h>
#include "pose.h"
#include "skeleton.h"
#include "clip.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(name): every op, in registry order. Primitives first (each maps its
 * inputs and outputs onto pose planes so one harness validates them all),
 * then pose ops. */
#define PB_OP_LIST(X)            \
    X(quat_mul)                  \
    X(quat_inv_mul)              \
    X(quat_mul_inv)              \
    X(quat_mul_vec3)             \
    X(quat_inv_mul_vec3)         \
    X(quat_abs)                  \
    X(quat_normalize)            \
    X(quat_exp)                  \
    X(quat_log)                  \
    X(quat_from_scaled_angle_axis) \
    X(quat_to_scaled_angle_axis) \
    X(slerp_shortest)            \
    X(nlerp_shortest)            \
    X(eerp)                      \
    X(negexp)                    \
    X(fast_negexp_est)           \
    X(smoothstep)                \
    X(blend_static)              \
    X(blend_static_nlerp)        \
    X(pose_to_aos)               \
    X(pose_from_aos)             \
    X(kform_mul)                 \
    X(kform_div)                 \
    X(kform_inv)                 \
    X(kform_mul_dir)             \
    X(kform_mul_pos)             \
    X(kform_mul_vel)             \
    X(finite_diff)               \
    X(timescale)                 \
    X(fk)                        \
    X(fk_static)                 \
    X(bk)                        \
    X(blend)                     \
    X(additive_world_static)     \
    X(additive_local_static)     \
    X(additive_local_static_nlerp) \
    X(additive)                  \
    X(inertialize_offset)        \
    X(inertialize)               \
    X(extrapolate_decayed)       \
    X(dead_blending)             \
    X(estimate_halflife)         \
    X(lookat_static)             \
    X(lookat)                    \
    X(lookat_cone_static)        \
    X(lookat_cone)               \
    X(two_bone_ik)               \
    X(two_bone_ik_vel)           \
    X(fabrik)                    \
    X(ccd)                       \
    X(ccd_cone)                  \
    X(sample_linear)             \
    X(sample_cubic)              \
    X(unroll)                    \
    X(palette)                   \
    X(palette_dq)                \
    X(foot_ik)                   \
    X(foot_ik_vel)               \
    X(sample_linear_turns)

typedef enum pb_op {
#define PB_X_ENUM(name) PB_OP_##name,
    PB_OP_LIST(PB_X_ENUM)
#undef PB_X_ENUM
    PB_OP_COUNT
} pb_op;

/* How an op blends scales (pb_params.scale; ops with PB_OPF_SCALE_LIN or
 * PB_OPF_SCALE_EXP read it). Linear is what engines and most blending notes
 * use, and the cheaper; exponential (eerp: a^(1-t) b^t, Holden) is exact
 * for scale velocities (svl = d log(scl)/dt moves linearly) and keeps a
 * product of blends a blend. PB_SCALE_DEFAULT is each op's own default: linear
 * for the static blends, exponential where velocities are propagated. */
typedef enum pb_scale_mode { PB_SCALE_DEFAULT = 0, PB_SCALE_LINEAR = 1, PB_SCALE_EXP = 2 } pb_scale_mode;

/* Scalar parameters of an op call. Ops read only the fields their registry
 * flags name (PB_OPF_ALPHA, PB_OPF_DT, ...); pb_run checks those. */
typedef struct pb_params {
    float alpha;      /* blend weight; any finite value (outside [0,1] extrapolates) */
    float alpha_vel;  /* d(alpha)/dt in 1/s (a per-frame change d_alpha is d_alpha / dt) */
    float dt;         /* time step in s, >= 0 (finite_diff: 0 gives zero velocities) */
    float time;       /* time since a transition in s, >= 0 */
    float halflife;   /* decay half-life in s, >= 0 (0: no extrapolation) */
    float duration;   /* blend duration in s, >= 0 (0: the destination at once) */
    float timescale;  /* playback-rate factor, any finite value */
    float axis[3];    /* lookat: the head's local forward axis; two_bone_ik: the root's local bend
                         axis hint used when the chain is straight; foot_ik: the ankle's local up
                         axis (non-zero; normalized) */
    pb_scale_mode scale; /* how scales blend (0: the op's default; see pb_scale_mode) */
    float cone;       /* lookat_cone: the largest turn in rad, >= 0 (0: the head keeps its rotation;
                         pi or more: no limit); ccd_cone: every joint's limit, the largest angle in
                         rad between its bone and its parent's (the root's: its input direction) */
    /* Chain IK (fabrik, ccd, ccd_cone; PB_OPF_NCHAIN): */
    int chain_joints; /* joints per chain, PB_CHAIN_MIN .. PB_CHAIN_MAX (n = chain_joints x chains) */
    int iterations;   /* the most iterations a chain takes, 1 .. PB_CHAIN_MAX_ITERATIONS */
    float tolerance;  /* a chain stops once its end is within this distance of the target
                         (>= 0; 0: only when exactly on it, so nearly always all `iterations`) */
    /* estimate_halflife: Unreal's h = clamp(hl_scale x d / max_mag(v), hl_min, hl_max). All three 0 (a
     * zeroed pb_params): Unreal's defaults, PB_HALFLIFE_EST_SCALE, _MIN, _MAX; otherwise each finite,
     * 0 < hl_scale <= PB_HALFLIFE_EST_LIMIT and 0 <= hl_min <= hl_max <= PB_HALFLIFE_EST_LIMIT (s). */
    float hl_scale, hl_min, hl_max;
} pb_params;

/* estimate_halflife: Unreal's heuristic (UE 5.3 Dead Blending node) and its defaults there:
 * h = clamp(SCALE x d / max_mag(v, EPS), MIN, MAX) per element and axis, in s. */
#define PB_HALFLIFE_EST_SCALE 0.3f
#define PB_HALFLIFE_EST_MIN 0.1f
#define PB_HALFLIFE_EST_MAX 1.0f
#define PB_HALFLIFE_EST_EPS 1e-8f
/* the largest scale and half-life (s) a call may ask for: beyond a few seconds the extrapolation
 * outlives any transition window (and a larger scale only moves more half-lives onto hl_max) */
#define PB_HALFLIFE_EST_LIMIT 10.0f

#define PB_CHAIN_MIN 3
#define PB_CHAIN_MAX 16
#define PB_CHAIN_MAX_ITERATIONS 255

/* Velocity conventions for every op: vel = d(pos)/dt and ang = angular
 * velocity, both in the element's parent frame (world for globals), with
 * d(rot)/dt = 1/2 (0, ang) * rot; svl = d(log scl)/dt per axis. */

/* Op flags (pb_op_info.flags): the shape of the call and the parameters an op
 * reads. (Bits not listed here are the validation harness's own.) */
enum {
    PB_OPF_ALPHA      = 1u << 0, /* reads params.alpha */
    PB_OPF_AOS_IN     = 1u << 1, /* input is a pb_pose_aos (pose_from_aos) */
    PB_OPF_AOS_OUT    = 1u << 2, /* output is a pb_pose_aos (pose_to_aos) */
    PB_OPF_ALPHA_VEL  = 1u << 8, /* reads params.alpha_vel */
    PB_OPF_DT         = 1u << 9, /* reads params.dt */
    PB_OPF_TIME       = 1u << 10, /* reads params.time */
    PB_OPF_HALFLIFE   = 1u << 11, /* reads params.halflife */
    PB_OPF_DURATION   = 1u << 12, /* reads params.duration */
    PB_OPF_TIMESCALE  = 1u << 13, /* reads params.timescale */
    PB_OPF_SKELETON   = 1u << 15, /* works over a pb_skeleton (call.skel); n = joints x characters */
    PB_OPF_ROOTS      = 1u << 19, /* takes call.skel only to find root joints (parent -1), handled apart */
    PB_OPF_AXIS       = 1u << 20, /* reads params.axis */
    PB_OPF_TARGET     = 1u << 21, /* b.pos / b.vel are a target point per element */
    PB_OPF_CHAIN      = 1u << 22, /* two-bone chains: n = 3 x chains in crowd layout (root global, mid
                                     local, end local; element = joint * chains + chain); b.pos of the
                                     end elements holds the targets */
    PB_OPF_SAMPLE     = 1u << 23, /* samples call.clip for each character at params.time + offsets[c]
                                     into out (n = joints x characters, crowd layout) */
    PB_OPF_CLIP_IN    = 1u << 24, /* reads call.clip (instead of a); out has the clip's n */
    PB_OPF_SCALE_LIN  = 1u << 25, /* reads params.scale; PB_SCALE_DEFAULT means linear */
    PB_OPF_SCALE_EXP  = 1u << 26, /* reads params.scale; PB_SCALE_DEFAULT means exponential (eerp) */
    PB_OPF_MAT_OUT    = 1u << 27, /* output is call.palette: PB_PALETTE_MAT_FLOATS floats per element */
    PB_OPF_DQ_OUT     = 1u << 28, /* output is call.palette: PB_PALETTE_DQ_FLOATS floats per element */
    PB_OPF_CONE       = 1u << 29, /* reads params.cone */
    PB_OPF_NCHAIN     = 1u << 30, /* chains of params.chain_joints joints: n = chain_joints x chains in
                                     crowd layout (element = joint * chains + chain): joint 0 the
                                     chain's root as a global kineform, the others local to the joint
                                     before; b.pos of the last joint holds the targets. Reads
                                     chain_joints, iterations, tolerance; writes call.iterations
                                     when given */
    /* bit 31, PB_OPF_FOOT: below the enum (an enumerator must fit in an int) */
};
/* foot IK: n = 7 x characters in crowd layout (element = slot x characters + character):
 * slot 0 the pelvis (global), 1-3 the left hip, knee, ankle (locals: hip to pelvis, knee to
 * hip, ankle to knee), 4-6 the right leg likewise. The ground of each leg is a plane in b:
 * b.pos of the ankle slot (3, 6) a point of it, b.pos of the knee slot (2, 5) its normal
 * (any length; zero means up, (0, 1, 0)), b.vel their rates. The plane is where the ankle
 * joint should rest (the ground raised by the ankle's height). params.axis: the ankle's
 * local up axis; params.alpha: how far the foot turns onto the normal (0: not, 1: aligned).
 * The pelvis is only lowered (along world -y); the rules: reference/foot.h. */
#define PB_OPF_FOOT (1u << 31)

/* ---- Skinning palettes (PB_OPF_MAT_OUT / PB_OPF_DQ_OUT ops) -------------------------------
 * What a skinning shader reads, one entry per element (joint x character in
 * the crowd layout), packed back to back (array of structs, no padding):
 *   palette     a 3x4 row-major matrix [R S | t] (12 floats: row 0, row 1,
 *               row 2, each x y z t), the last row (0 0 0 1) implied;
 *   palette_dq  a unit dual quaternion (8 floats: real w x y z, then dual
 *               w x y z), dual = 1/2 (0, t) real.
 * data holds n x width floats (width: 12 or 8), float-aligned; n must equal
 * pose a's n (b's too, or n / per.characters: palette.h). The palette is
 * written, never read. */
#define PB_PALETTE_MAT_FLOATS 12
#define PB_PALETTE_DQ_FLOATS 8
typedef struct pb_palette {
    float *data;   /* n x width floats */
    size_t n;      /* entries: must be pose a's n */
} pb_palette;

/* What the registry knows about an op (one row of src/ops.def). */
typedef struct pb_op_info {
    const char *name;
    const char *summary;   /* one line: what it computes, in plane terms */
    uint32_t in_a, in_b;   /* masks of pb_group read from a and b (1u << PB_G_x) */
    uint32_t out;          /* mask of pb_group written to out */
    uint32_t opt;          /* groups also read and written when the poses have them (velocity planes
                              of ops that take static poses); never required */
    uint32_t flags;        /* PB_OPF_* */
} pb_op_info;

PB_API const pb_op_info *pb_op_get(pb_op op);               /* NULL if op is out of range */
PB_API pb_status pb_op_find(const char *name, pb_op *op);   /* by name */
/* estimate_halflife's hl_scale, hl_min, hl_max (pb_params) as pb_run checks them, for a set-up
 * step to check once: PB_OK, or PB_ERR_PARAM with a message beginning "who: " naming the field. */
PB_API pb_status pb_halflife_est_check(const char *who, float scale, float min, float max);

/* ---- Variants: one per ISA -----------------------------------------------------
 * "scalar"      the float reference, auto-vectorization off (the baseline).
 * "sse41" "avx2" "avx512" "neon"
 *               kernels built with the ISA's flags; runnable when the CPU has
 *               the features (x86 checks CPUID and XGETBV; NEON is aarch64
 *               baseline).
 * "<isa>-emu"   the same kernel source built without ISA flags (SIMDe's
 *               portable path): runs on any CPU, used to validate every ISA
 *               everywhere; slow, never chosen by dispatch. Built only into
 *               the validation harness, not this library: pb_variant_count /
 *               at / find / force list the rows above; the accessors,
 *               pb_variant_check and pb_run take the harness's rows too. */
typedef struct pb_variant pb_variant;

typedef enum pb_mode { PB_MODE_NATIVE, PB_MODE_EMULATED } pb_mode;

PB_API size_t pb_variant_count(void);
PB_API const pb_variant *pb_variant_at(size_t i);          /* NULL past the end */
PB_API const char *pb_variant_name(const pb_variant *v);   /* "avx2", "avx2-emu" */
PB_API const char *pb_variant_isa(const pb_variant *v);    /* "avx2" for both */
PB_API pb_mode pb_variant_mode(const pb_variant *v);
PB_API int pb_variant_lanes(const pb_variant *v);          /* floats per vector; 1 for scalar */
/* PB_OK if this CPU can run v, else PB_ERR_UNSUPPORTED with the missing features named. */
PB_API pb_status pb_variant_check(const pb_variant *v);
/* Look up by name. PB_ERR_VARIANT if unknown (message lists the names). */
PB_API pb_status pb_variant_find(const char *name, const pb_variant **v);

/* The variant ops use when none is passed: the one forced by
 * pb_variant_force() or POSEBENCH_VARIANT, else the first native entry of the
 * priority table (avx512, avx2, sse41, neon, scalar) the CPU supports.
 * PB_ERR_VARIANT / PB_ERR_UNSUPPORTED if the forced name is unknown or the CPU
 * cannot run it (never a fallback: a forced choice is honoured or refused). */
PB_API pb_status pb_variant_active(const pb_variant **v);
/* Force a variant by name for this process (NULL: back to automatic).
 * Thread-safe, like pb_cpu_disable: either may be called while other threads
 * run ops (no data race). An op called at the same time runs with the old
 * setting or the new one, each a variant this CPU can run; a plan keeps the
 * variant it was made with. */
PB_API pb_status pb_variant_force(const char *name);

/* ---- CPU features ----------------------------------------------------------- */
enum {
    PB_CPU_SSE41  = 1u << 0,
    PB_CPU_AVX2   = 1u << 1,  /* AVX2 with OS-enabled YMM state */
    PB_CPU_FMA    = 1u << 2,
    PB_CPU_AVX512 = 1u << 3,  /* AVX-512 F+DQ+BW+VL with OS-enabled ZMM/opmask state */
    PB_CPU_NEON   = 1u << 4
};
PB_API uint32_t pb_cpu_features(void);          /* detected, minus disabled */
PB_API const char *pb_cpu_feature_names(uint32_t mask, char *buf, size_t len);
/* The CPU's model name (/proc/cpuinfo "model name"), or "unknown" where the
 * system does not say (some aarch64 kernels). Returns buf. */
PB_API const char *pb_cpu_model(char *buf, size_t len);
/* Hide features from dispatch, as if the CPU lacked them (for tests and for
 * comparing variants). Also read once from POSEBENCH_DISABLE="avx512,avx2".
 * Thread-safe: pb_cpu_features on another thread sees the old mask or the
 * new one, whole. */
PB_API void pb_cpu_disable(uint32_t mask);
/* The size in bytes of cpu0's data (or unified) cache of this level, or with
 * level 0 of its largest (the last level), from Linux's sysfs, else from the
 * C library (glibc: CPUID; some virtual machines' sysfs lists no caches, and
 * their CPUID may give the host's whole last-level cache); 0 if unknown. */
PB_API size_t pb_cache_bytes(int level);

/* Cache-bypassing output. The static override and additive layers
 * (blend_static, blend_static_nlerp, additive_*_static*), the samplers
 * (sample_linear, sample_cubic, crowds of a multiple of 16 characters of at
 * least a vector of joints) and pb_blend_n (blend_n.h) write their output
 * with non-temporal stores (AVX-512 and AVX2 builds) when the bytes a call
 * reads and writes exceed pb_stream_bytes(): such an output would leave the
 * last-level cache before anything reads it, and streaming it saves the read
 * of each output line before its write (a quarter of a blend's memory
 * traffic). The default is the last-level cache's size (pb_cache_bytes(0),
 * else 32 MiB) but at most 2 MiB
 * for each CPU sharing it (every online CPU where sysfs does not say which),
 * since a virtual machine sees a whole socket's cache beside its own few
 * CPUs; or POSEBENCH_STREAM_BYTES when that is a whole number; 0 streams always,
 * SIZE_MAX never (set it when the next op reads the output at once and it
 * fits). Read when a call is prepared: a plan keeps the choice it was made
 * with. The results are the same bits either way. */
PB_API size_t pb_stream_bytes(void);
PB_API void pb_stream_bytes_set(size_t bytes);

/* ---- Joint limits on extrapolation (per.limits) --------------------------------------------
 * Holden's dead blending with joint limits: the decayed extrapolation of a joint's rotation r is
 * kept inside a box per joint and axis. The box is over l = the scaled angle-axis vector of
 * rest^-1 r (the rotation relative to the joint's rest rotation, shorter arc, in the rest's
 * frame), per axis l in [lo, hi] (rad). Where the transition pose itself is outside on an
 * axis, that side of the interval is moved to PB_LIMIT_SLACK beyond it: the extrapolation
 * starts exactly at the source (no pop), keeps its velocity at the transition (no instant
 * stop) and goes at most that much further out.
 *   PB_LIMIT_CLAMP   an axis reaching a bound stays there; its rate is 0 while it is held.
 *   PB_LIMIT_BOUNCE  an axis reaching a bound reflects off it (its rate changes sign: the
 *                    velocity then pushes away from the bound), as often as it reaches one.
 * The angular velocity is the exact derivative of the limited rotation. Axes inside their
 * interval leave the rotation and its velocity exactly as without limits. Positions and
 * scales are not limited. pb_clip_joint_limits (clip.h) measures boxes from clips. */
typedef enum pb_limit_mode { PB_LIMIT_CLAMP = 0, PB_LIMIT_BOUNCE = 1 } pb_limit_mode;
#define PB_LIMIT_SLACK 0.05f   /* rad (~3 deg): how far past an out-of-range source an axis may go */
typedef struct pb_joint_limits {
    pb_limit_mode mode;
    const float *lo;     /* 3 floats per joint (x, y, z), finite, rad */
    const float *hi;     /* 3 floats per joint, finite, >= lo */
    const float *rest;   /* 4 floats per joint (w, x, y, z; unit within 1e-3), or NULL: identity */
} pb_joint_limits;

/* ---- Slerp via: dead blending that keeps its direction (call.via) ------------------------------
 * Dead blending slerps from the extrapolated pose to the destination. Along the shorter arc
 * (call.via NULL) the path switches sides whenever the two rotations pass 180 degrees apart,
 * which they do when the extrapolation keeps turning: the output jumps by up to the blend
 * weight times a full turn. With a direction state (Holden's quat_slerp_via) the blend
 * instead keeps going the way it started:
 *   - call.via is a pose of the call's n with the rotation group; per element it holds the
 *     destination's representative (q or -q) used last;
 *   - each call takes b.rot or -b.rot, whichever is on via's hemisphere (dot >= 0; a NaN dot
 *     takes +b.rot), slerps along the arc from the extrapolated rotation to it without
 *     flipping (it may be longer than 180 degrees), and stores it into via;
 *   - at a transition set via to the source rotations (a's rot planes): the first call then
 *     takes the shorter arc, as without via.
 * Velocities are exact on the longer arc too. The one place the blend has no direction is
 * the extrapolation a whole turn ahead of the destination (the arc's two ends the same
 * rotation, with opposite signs): the output is then ill-conditioned in any form. Roots
 * take b's as without via; their via is updated all the same. via must not overlap a, b
 * or out. */

/* ---- Running ops -------------------------------------------------------------- */
/* Per-element parameters (pb_call.per). Any parameter an op reads may come
 * per character instead of uniform: an array of `characters` floats that
 * replaces the pb_params value, element e (crowd layout: e = joint x
 * characters + character) taking arr[e % characters]. Weights may also be
 * scaled per joint: mask holds n / characters floats (one per joint, 0 .. 1
 * usually) and multiplies alpha and alpha_vel (uniform or per character),
 * element e taking mask[e / characters] — a bone mask. Arrays not given
 * (NULL) leave the uniform value; all NULL is the uniform call, exactly as
 * fast as before. Checked once (pb_run / pb_plan_create): n a multiple of
 * characters (the skeleton's own characters for skeleton ops), every value
 * finite, times, durations and half-lives >= 0; an array for a parameter the
 * op does not read is refused. Errors name the array and the first bad
 * element. Half-lives may instead come per joint per axis (halflife_axis), or per element
 * per axis and channel (halflives), as dead blending in the style of Unreal computes them. */
typedef struct pb_param_arrays {
    size_t characters;        /* length of the per-character arrays (0: no arrays) */
    const float *alpha;       /* per character: replaces params.alpha */
    const float *alpha_vel;   /* per character: replaces params.alpha_vel */
    const float *time;        /* per character: replaces params.time */
    const float *duration;    /* per character: replaces params.duration */
    const float *halflife;    /* per character: replaces params.halflife */
    const float *timescale;   /* per character: replaces params.timescale */
    const float *mask;        /* per joint: multiplies alpha and alpha_vel */
    /* Per joint per axis: 3 floats per joint (x, y, z), n / characters joints;
     * replaces halflife for that joint, the velocities decaying per component
     * (linear and log-scale velocity component k, and the angular velocity's
     * component k, all with half-life [joint][k]). Not together with halflife. */
    const float *halflife_axis;
    /* Per element per axis per channel: a pose of the call's n whose vel, ang and svl planes
     * hold the half-lives (s, finite, >= 0) of the position, rotation and log-scale velocity
     * components, as estimate_halflife writes them at a transition (Unreal's dead blending).
     * Replaces halflife and halflife_axis (not together with either); needs no characters. */
    const pb_pose *halflives;
    /* Per joint (n / characters joints): joint limits on the extrapolated rotations of
     * extrapolate_decayed and dead_blending (see pb_joint_limits); with any half-life form. */
    const pb_joint_limits *limits;
    const float *cone;        /* per character: replaces params.cone (ccd_cone: per chain) */
    /* ccd_cone: per joint of the chain (chain_joints floats, characters = the chains): joint j's
     * limit, replacing params.cone and per.cone (the end joint's is not read) */
    const float *joint_cone;
} pb_param_arrays;

typedef struct pb_call {
    const pb_pose *a;            /* first input pose */
    const pb_pose *b;            /* second input pose (ops that read b; sample_linear_turns: the clip's turns,
                                    pb_clip_turns in clip.h, clip.frames x clip.joints elements) */
    pb_pose *out;                /* output pose (may be the same pose as a or b) */
    const pb_pose_aos *aos_in;   /* PB_OPF_AOS_IN ops */
    pb_pose_aos *aos_out;        /* PB_OPF_AOS_OUT ops */
    const pb_skeleton *skel;     /* PB_OPF_SKELETON ops */
    const pb_clip *clip;         /* PB_OPF_SAMPLE ops: the clip sampled (instead of a) */
    const float *offsets;        /* PB_OPF_SAMPLE ops: per-character time offsets (out.n / clip.joints) */
    pb_palette *palette;         /* PB_OPF_MAT_OUT / PB_OPF_DQ_OUT ops: the output (out is not used) */
    uint8_t *iterations;         /* PB_OPF_NCHAIN ops: optional output, the iterations each chain took
                                    (0: the target was out of reach or already within tolerance) */
    pb_pose *via;                /* dead_blending: direction state (see "Slerp via" above), read and
                                    written; NULL: the shorter arc every frame */
    pb_params params;
    pb_param_arrays per;         /* per-character / per-joint parameters (all NULL: uniform params) */
} pb_call;

/* Run op with variant v (NULL: the active variant). Validates everything
 * first: op id, variant runnable on this CPU, each pointer the op needs is
 * non-NULL, every pose's layout (pb_pose_check), equal n across inputs and
 * output, no partial overlap of out with an input, finite parameters. On
 * error nothing is written. Palette ops (palette, palette_dq) besides:
 * PB_ERR_NULL (call.palette or palette.data NULL), PB_ERR_SIZE (palette.n
 * not a's n), PB_ERR_ALIGN (data not float-aligned), PB_ERR_ALIAS (data
 * overlaps pose a or b); they take no per-element parameters, but b may hold
 * one inverse bind per joint: b.n = n / per.characters (see palette.h). Pose data is
 * not scanned: a NaN in an input element gives NaN in that entry only. A call
 * repeating one of its thread's last few (same op, variant and structs, each pose
 * and skeleton the same generation) has only its parameters and pose padding
 * checked again: the same errors, in the same order, for less (docs/library.md). */
PB_API pb_status pb_run(pb_op op, const pb_variant *v, const pb_call *call);

/* ---- Plans: validate once, run many ------------------------------------------
 * A plan is a call validated once: op, variant, shapes, buffers and
 * parameters are checked by pb_plan_create exactly as pb_run checks them,
 * then pb_plan_run only calls the kernel (it reads nothing process-wide, so
 * any number of threads may run plans at once; two runs must not write the
 * same pose at the same time).
 *
 * Between runs a caller may change, without re-planning:
 *   - the contents of every buffer (pose planes, clip keys, AoS arrays,
 *     sampling offsets): new data each frame is the point of a plan;
 *   - the parameters, through pb_plan_set_params (checked like pb_run's).
 * Anything else needs a new plan: other poses, sizes, skeleton, clip, op or
 * variant. The plan keeps pointers to the caller's pb_pose / pb_clip /
 * pb_skeleton structs, which must outlive it; pb_plan_run returns
 * PB_ERR_STALE (and runs nothing) when one of them was freed by its
 * pb_*_free or re-made since pb_plan_create (pb_pose_alloc*, pb_pose_wrap,
 * pb_skeleton_init or pb_clip_alloc again in the same struct), even where the
 * memory comes back at the same address and with the same size: each gives
 * the struct a new generation (pb_pose.gen), which the plan compares, with
 * the pose's n and first plane. A pose described by hand (its fields filled
 * in, gen 0) has no generation: the plan then compares n, stride and every
 * plane, so it notices any change to the struct but not memory freed and
 * reused under an unchanged struct. What a plan cannot see: a struct copied
 * before the plan was made and freed through the copy.
 *
 * pb_plan_create errors: every pb_run error (nothing is allocated then; *plan
 * is NULL), PB_ERR_NULL (plan), PB_ERR_NOMEM. */
typedef struct pb_plan pb_plan;
PB_API pb_status pb_plan_create(pb_plan **plan, pb_op op, const pb_variant *v, const pb_call *call);
PB_API pb_status pb_plan_run(const pb_plan *plan);   /* PB_ERR_NULL, PB_ERR_STALE, else PB_OK */
PB_API pb_status pb_plan_set_params(pb_plan *plan, const pb_params *params);
PB_API const pb_params *pb_plan_params(const pb_plan *plan);   /* as the kernel sees them (scale mode resolved) */
PB_API pb_op pb_plan_op(const pb_plan *plan);
PB_API const pb_variant *pb_plan_variant(const pb_plan *plan); /* the variant chosen at creation */
PB_API void pb_plan_destroy(pb_plan *plan);                    /* NULL is fine */

/* Typed conveniences over pb_run with the active variant. */
PB_API pb_status pb_blend_static(const pb_pose *a, const pb_pose *b, float alpha, pb_pose *out);
PB_API pb_status pb_blend_static_nlerp(const pb_pose *a, const pb_pose *b, float alpha, pb_pose *out);
PB_API pb_status pb_pose_to_aos(const pb_pose *pose, pb_pose_aos *aos);
PB_API pb_status pb_pose_from_aos(const pb_pose_aos *aos, pb_pose *pose);
/* Local -> global over a skeleton (velocities propagated), its static form
 * (pos/rot/scl only), and global -> local. out may be the same pose as the input. */
PB_API pb_status pb_fk(const pb_skeleton *skel, const pb_pose *local, pb_pose *global);
PB_API pb_status pb_fk_static(const pb_skeleton *skel, const pb_pose *local, pb_pose *global);
PB_API pb_status pb_bk(const pb_skeleton *skel, const pb_pose *global, pb_pose *local);
/* Skinning palettes of global pose `global` and inverse bind pose `inv_bind`
 * (same n; see palette.h: pb_run with per.characters takes one per joint):
 * 3x4 matrices, and unit dual quaternions. */
PB_API pb_status pb_matrix_palette(const pb_pose *global, const pb_pose *inv_bind, pb_palette *out);
PB_API pb_status pb_dq_palette(const pb_pose *global, const pb_pose *inv_bind, pb_palette *out);

#ifdef __cplusplus
}
#endif
#endif
