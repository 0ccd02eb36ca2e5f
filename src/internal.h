/* internal.h — what the library's own sources share and users do not see:
 * error reporting, the kernel argument block, and the variant table entry.
 * Never installed. The harness, CLI, bench and tests include it too. */
#ifndef POSEBENCH_INTERNAL_H
#define POSEBENCH_INTERNAL_H

#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include "posebench/posebench.h"

#if defined(__GNUC__)
#define PB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PB_PRINTF(f, a)
#endif

/* PB_INTERNAL marks what the runtime exports beyond its public API for the
 * harness, CLI, bench and tests (error reporting, the float reference's
 * table, the kernel argument block): a shared libposebench must export them
 * for those to link against it, and declaring them only here keeps them out
 * of the installed headers. One runtime, one pb_fail: errors the harness
 * records land in the buffer pb_last_error() reads. */
#if defined(PB_BUILDING_SHARED) && defined(__GNUC__)
#define PB_INTERNAL __attribute__((visibility("default")))
#else
#define PB_INTERNAL
#endif

/* The environment variable `name` as a whole number (decimal digits, in
 * range): 1 with *v set, else 0 (unset or malformed: the caller keeps its
 * default). POSEBENCH_STREAM_BYTES and POSEBENCH_POOL_SPIN_US read it. */
int pb_env_whole(const char *name, unsigned long long *v);

/* A generation for a pose or skeleton being made (pb_pose.gen): never 0, never
 * given twice in a process. Each thread takes a block of numbers from a
 * process-wide atomic counter, so making poses on many threads does not
 * contend on it. */
uint64_t pb_generation_next(void);

/* PB_ERR_ALIAS, naming fn, what and the two planes, where two planes of p overlap (a pose an op
 * writes: each plane's stride floats must be memory of its own). p passed pb_pose_check. */
pb_status pb_pose_check_disjoint(const pb_pose *p, const char *fn, const char *what);

/* Record a formatted message for pb_last_error() and return s. */
PB_INTERNAL pb_status pb_fail(pb_status s, const char *fmt, ...) PB_PRINTF(2, 3);

/* Read the whole file at path (what: "BVH file", "graph definition", ... for
 * messages) into *out, NUL-terminated (*size bytes without the NUL; the
 * caller frees *out). Every reader of a file a user names goes through here.
 * Errors (nothing allocated, *out NULL): PB_ERR_IO: it cannot be opened or
 * read, or it is not a regular file (a FIFO, device, directory or socket:
 * refused before reading, never waited on); PB_ERR_SIZE: more than
 * max_bytes (at open, or grown past it while read); PB_ERR_NOMEM. */
PB_INTERNAL pb_status pb_file_read(const char *path, size_t max_bytes, const char *what, char **out, size_t *size);
/* The byte cap of every file posebench reads whole (BVH clips, graph JSON,
 * the report's JSON) unless a reader states a smaller one: 128 MiB. */
#define PB_FILE_MAX_BYTES ((size_t)128 << 20)

/* Op flags only the validation harness reads (the same pb_op_info.flags word;
 * public bits are in ops.h). */
enum {
    PB_OPF_SIGNED_ROT = 1u << 3,  /* output quaternion sign matters (quat_abs, copies) */
    PB_OPF_UNNORM_IN  = 1u << 4,  /* input quaternions need not be unit (quat_normalize) */
    PB_OPF_SCALAR_IN  = 1u << 5,  /* elementwise scalar function of a.pos over the row's domain */
    PB_OPF_EST        = 1u << 6,  /* an approximation: has its own method bound */
    PB_OPF_LOG_IN     = 1u << 7,  /* a.ang is a quaternion log (half-angle x axis, |v| <= pi) */
    PB_OPF_VELCHECK   = 1u << 14, /* output vel/ang/svl are the time derivatives of output pos/rot/scl
                                     when inputs move by their own velocities (checked by validate) */
    PB_OPF_OBJSPACE   = 1u << 16, /* outputs are global transforms: judged by object-space error too */
    PB_OPF_A_FIXED    = 1u << 17, /* a is a state at a fixed instant (does not move with time) */
    PB_OPF_B_FIXED    = 1u << 18  /* b is a state at a fixed instant */
};

/* A whole row of src/ops.def as the library keeps it: the public part and
 * what the harness needs besides (the tolerance half lives in
 * validate/tolerance.c, generated from the same rows). */
typedef struct pb_op_row {
    pb_op_info info;
    float dom_lo, dom_hi;  /* input domain of PB_OPF_SCALAR_IN ops */
    int method_of;         /* op this one approximates (method error), or -1 */
} pb_op_row;
PB_INTERNAL const pb_op_row *pb_op_row_get(pb_op op);   /* NULL if op is out of range */
/* The row holding info (a pointer from pb_op_get), or the row of the same name; NULL if none. */
PB_INTERNAL const pb_op_row *pb_op_row_of(const pb_op_info *info);

/* Kernel argument block, one definition per element type so the reference can
 * be compiled as float (reference / scalar baseline) and double (oracle).
 * n is the element count, n_padded the count rounded up to PB_PAD: SoA
 * kernels process n_padded lanes (padding is identity, so that is safe); AoS
 * sides hold exactly n elements. aos_* are interleaved arrays in the order
 * pos, rot, scl, vel, ang, svl (3, 4, 3, 3, 3, 3 values per element).
 * pal is the palette output of PB_OPF_MAT_OUT / PB_OPF_DQ_OUT ops: exactly
 * n x width values (no padding). via / via_out: dead blending's direction state
 * (call.via; only the rotation planes set, NULL without it): read, then written (the same
 * memory for pb_run; the harness's oracle writes elsewhere or nowhere: via_out NULL).
 * stream: the call's pose planes (a, b, out) hold more than pb_stream_bytes():
 * kernels that can write their output with cache-bypassing stores do.
 * b_chars: palette ops whose b holds one element per joint (the inverse bind
 * shared by a crowd's characters): element e reads b's e / b_chars; 0: b has n. */
#define PB_AOS_ARRAYS 6
#define PB_DEFINE_KARGS(T, NAME)               \
    typedef struct NAME {                      \
        size_t n, n_padded;                    \
        int stream; /* pb_stream_bytes */      \
        const T *a[PB_PLANES];                 \
        const T *b[PB_PLANES];                 \
        T *out[PB_PLANES];                     \
        const T *aos_in[PB_AOS_ARRAYS];        \
        T *aos_out[PB_AOS_ARRAYS];             \
        T *pal;                                \
        uint8_t *iters;                        \
        const pb_skeleton *skel;               \
        const float *offsets;                  \
        size_t frames, joints;                 \
        float fps;                             \
        pb_params p;                           \
        pb_param_arrays per;                   \
        const T *via[PB_PLANES];               \
        T *via_out[PB_PLANES];                 \
        size_t b_chars;                        \
    } NAME;
PB_DEFINE_KARGS(float, pb_kargs)
PB_DEFINE_KARGS(double, pb_kargs_f64)

typedef void (*pb_kernel_fn)(const pb_kargs *k);
typedef void (*pb_kernel_f64_fn)(const pb_kargs_f64 *k);

/* Ops that take call.via (Holden's slerp via: dead blending keeping its direction): those that
 * blend an extrapolation (a half-life and a duration). */
#define PB_OP_TAKES_VIA(info) (((info)->flags & (PB_OPF_HALFLIFE | PB_OPF_DURATION)) == (PB_OPF_HALFLIFE | PB_OPF_DURATION))

/* |q| of a quaternion given as 4 floats, in double; rest rotations (joint limits) must be unit within
 * PB_UNIT_TOL. */
#define PB_UNIT_TOL 1e-3
/* estimate_halflife's scale, min and max from a call's params: all three 0 means Unreal's defaults. */
static inline void pb_halflife_est_of(const pb_params *p, float *scale, float *lo, float *hi)
{
    int dflt = p->hl_scale == 0 && p->hl_min == 0 && p->hl_max == 0;
    *scale = dflt ? PB_HALFLIFE_EST_SCALE : p->hl_scale;
    *lo = dflt ? PB_HALFLIFE_EST_MIN : p->hl_min;
    *hi = dflt ? PB_HALFLIFE_EST_MAX : p->hl_max;
}
static inline double pb_quat_len(const float *q)
{
    return sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
}
/* Where time t falls in a clip of `frames` keys at fps: clamped to the keys
 * (t < 0 and past the end hold the first and last key: never a negative
 * weight), first key *f0 (with *f0 + 1 a key whenever there are two), weight
 * *alpha in [0, 1], and whether t was inside the clip. Computed in float by
 * every implementation, the double oracle included: the frame position is a
 * discretization of the input, so all of them must put key boundaries on
 * the same side. */
/* The memory a pose's planes cover (a static pose's NULL velocity planes cover nothing), for the
 * overlap checks of pb_run, the crowd builder and pb_clip_turns. */
typedef struct { uintptr_t lo, hi; } pb_span;
static inline pb_span pb_pose_span(const pb_pose *p)
{
    pb_span s = { UINTPTR_MAX, 0 };
    for (int i = 0; i < PB_PLANES; i++) {
        if (!p->plane[i]) continue;
        uintptr_t a = (uintptr_t)p->plane[i], b = a + p->stride * sizeof(float);
        if (a < s.lo) s.lo = a;
        if (b > s.hi) s.hi = b;
    }
    return s;
}
static inline int pb_spans_overlap(pb_span a, pb_span b) { return a.lo < b.hi && b.lo < a.hi; }
static inline int pb_poses_overlap(const pb_pose *x, const pb_pose *y)
{
    return pb_spans_overlap(pb_pose_span(x), pb_pose_span(y));
}

static inline void pb_frame_at(float t, size_t frames, float fps, size_t *f0, float *alpha, int *inside)
{
    float last = (float)(frames - 1);
    float pos = t * fps;
    *inside = pos >= 0.0f && pos <= last;
    if (!(pos > 0.0f)) pos = 0.0f;
    if (pos > last) pos = last;
    float fl = floorf(pos);
    if (fl > last - 1.0f) fl = last >= 1.0f ? last - 1.0f : 0.0f;
    *f0 = (size_t)fl;
    *alpha = pos - fl;
}

/* Components per AoS array and the first pose plane each maps to. */
PB_INTERNAL extern const int pb_aos_width[PB_AOS_ARRAYS];
PB_INTERNAL extern const int pb_aos_plane[PB_AOS_ARRAYS];

/* Kernel tables: one per build of an ISA source, plus the float and double
 * reference. Declared here, defined by kernels/ and reference/. The float
 * reference is in the runtime (the "scalar" variant), the double oracle in
 * the harness; native kernel tables in the runtime (src/variants.c), the
 * emulated ones in the harness (validate/all_variants.c). */
#define PB_DECLARE_TABLE(sym) extern const pb_kernel_fn sym[PB_OP_COUNT];
PB_INTERNAL PB_DECLARE_TABLE(pb_ref_table)
extern const pb_kernel_f64_fn pb_ref_f64_table[PB_OP_COUNT];

/* Skinning kernels' argument block (posebench/skin.h), float and double:
 * n vertices of the mesh planes (influences of them read), pal the palette's
 * floats of the call's character, an influence of joint j at pal + j x
 * stride (stride = width x characters, < 2^31) for j < joints (the
 * palette's joints per character), outputs n values. Spans (float
 * kernels; NULL: none known): the mesh's vertices as nspan runs whose
 * vertices all have the same joints (span s from vertex span[s], span[0] =
 * 0, ascending; pb_skin_spans), where a kernel broadcasts entries.
 * pos_only (PB_SKIN_POSITIONS_ONLY): nrm and out_nrm are NULL, only the
 * positions are written. */
#define PB_DEFINE_SKARGS(T, NAME)                       \
    typedef struct NAME {                               \
        size_t n;                                       \
        int influences;                                 \
        int pos_only;                                   \
        const T *pos[3], *nrm[3];                       \
        const uint32_t *idx[PB_SKIN_MAX_INFLUENCES];    \
        const T *w[PB_SKIN_MAX_INFLUENCES];             \
        const T *pal;                                   \
        int32_t stride, joints;                         \
        T *out_pos[3], *out_nrm[3];                     \
        const uint32_t *span;                           \
        size_t nspan;                                   \
    } NAME;
/* The spans of mesh m (as pb_skin_kargs) in a new array (*span, *nspan),
 * or *span NULL when they are shorter than min_run vertices on average
 * (memory: at most n / min_run entries). Jobs ask for PB_SKIN_SPAN_STEPS
 * steps of their variant's lanes: with shorter runs most steps lie in two
 * spans or more, whose broadcasts and blends measured no faster than the
 * tables (AVX-512, 2000 vertices along 63 bones: 3.46 against 3.36 ns). */
#define PB_SKIN_SPAN_STEPS 4
PB_INTERNAL pb_status pb_skin_spans(const pb_mesh *m, size_t min_run, uint32_t **span, size_t *nspan);
PB_DEFINE_SKARGS(float, pb_skin_kargs)
PB_DEFINE_SKARGS(double, pb_skin_kargs_f64)
typedef void (*pb_skin_fn)(const pb_skin_kargs *k);
typedef void (*pb_skin_f64_fn)(const pb_skin_kargs_f64 *k);
/* The motion-matching search's argument block (posebench/mm.h), float and
 * double: stride row slots of PB_MM_FEATURES features (row r's feature f
 * at feat[pb_mm_at(r, f)]; rows up to stride are padding at +inf), n
 * normalized queries (AoS, q x PB_MM_FEATURES), per query an excluded
 * row range ex[2q] .. ex[2q + 1] (inclusive; lo > hi: none) or ex NULL;
 * out best row (UINT32_MAX: none) and its squared distance. The AABB
 * search also reads the boxes (level k's bounds, box_stride[k] slots at
 * pb_mm_box_at, as pb_mm_db) and may use scratch: PB_MM_QB x box_stride[1]
 * values (a block of queries' large-box bounds). Searches take queries
 * PB_MM_QB at a time. */
#define PB_MM_QB 8
#define PB_DEFINE_MMARGS(T, NAME)   \
    typedef struct NAME {           \
        const T *feat;              \
        size_t stride, rows;        \
        const T *q;                 \
        size_t n;                   \
        const uint32_t *ex;         \
        uint32_t *best;             \
        T *dist;                    \
        const T *box[2];            \
        size_t box_stride[2];       \
        T *scratch;                 \
    } NAME;
PB_DEFINE_MMARGS(float, pb_mm_kargs)
PB_DEFINE_MMARGS(double, pb_mm_kargs_f64)
typedef void (*pb_mm_fn)(const pb_mm_kargs *k);
typedef void (*pb_mm_f64_fn)(const pb_mm_kargs_f64 *k);

/* The blend-space weights' argument block (posebench/bspace.h), float and
 * double: n parameters (x; y for 2D), out m weight planes (plane i at w +
 * i x w_stride), and the method's tables (bspace.c builds them in double from
 * the samples; the float ones are those rounded):
 *   1D:          t = m sorted positions s_k, then m - 1 gaps s_(k+1) - s_k;
 *                it = the sample index of each sorted position.
 *   barycentric: t = per triangle 6 (origin corner ox, oy; a1, b1, a2, b2:
 *                l1 = a1 (x - ox) + b1 (y - oy), l2 likewise, l0 = 1 - l1 - l2),
 *                then per hull edge 5 (ux, uy, dx, dy, 1 / |d|^2: the edge from
 *                u to u + d); it = 3 corners per triangle, then 2 ends per edge.
 *   gradient:    t = m x, m y, then per pair i * m + j: gx, gy = (p_j - p_i) /
 *                |p_j - p_i|^2 (i = j: unused).
 *   polar:       t = m angles atan2(y_i, x_i), m magnitudes r_i, m 1 / r_i (0
 *                at the origin), then per pair i * m + j (both off the origin)
 *                3: the angle's coefficient, 1 if the angle enters unsigned
 *                (else 0), the magnitude's coefficient (both divided by
 *                |pair vector|^2); origin: the sample at (0, 0) or -1. */
#define PB_BS_TRI 6
#define PB_BS_EDGE 5
#define PB_BS_PAIR 3
#define PB_DEFINE_BSARGS(T, NAME)   \
    typedef struct NAME {           \
        size_t m, n;                \
        const T *x, *y;             \
        T *w;                       \
        size_t w_stride;            \
        const T *t;                 \
        const int32_t *it;          \
        size_t ntri, nhull;         \
        int origin;                 \
    } NAME;
PB_DEFINE_BSARGS(float, pb_bs_kargs)
PB_DEFINE_BSARGS(double, pb_bs_kargs_f64)
typedef void (*pb_bs_fn)(const pb_bs_kargs *k);
typedef void (*pb_bs_f64_fn)(const pb_bs_kargs_f64 *k);
/* The blend space's tables in double (the oracle's; bs->tab are these
 * rounded): t and it as above, malloc'd (caller frees t; it is bs->itab).
 * 0, or -1 out of memory. */
PB_INTERNAL int pb_bspace_tables_f64(const pb_bspace *bs, double **t);

/* The N-way blend's argument block (posebench/blend_n.h), float and double:
 * k inputs' pos/rot/scl planes (in[i][p]: plane p, PB_POS_X .. PB_SCL_Z, of
 * input i), k weight planes of C characters (unnormalized), n elements (the
 * crowd layout: joints = n / C), the output's planes, exp: exponential scale. */
#define PB_DEFINE_BNARGS(T, NAME)                            \
    typedef struct NAME {                                    \
        size_t k, n, characters;                             \
        const T *in[PB_BLEND_N_MAX][PB_SCL_Z + 1];           \
        const T *w;                                          \
        T *out[PB_SCL_Z + 1];                                \
        int exp;                                             \
        int stream; /* cache-bypassing output (pb_stream_bytes); \
                       characters a multiple of PB_PAD */    \
    } NAME;
PB_DEFINE_BNARGS(float, pb_bn_kargs)
PB_DEFINE_BNARGS(double, pb_bn_kargs_f64)
typedef void (*pb_bn_fn)(const pb_bn_kargs *k);
typedef void (*pb_bn_f64_fn)(const pb_bn_kargs_f64 *k);

/* A variant's kernels beyond its op table: skinning (one slot per
 * pb_skin_method; skin_lbs and skin_dqs are not pose ops, no PB_OP_LIST
 * row), the motion-matching search and the blend-space weights. */
typedef struct pb_aux_table {
    pb_skin_fn lbs, dqs;
    pb_mm_fn mm_search[PB_MM_METHODS];
    pb_bs_fn bspace[PB_BSPACE_METHODS];
    pb_bn_fn blend_n[PB_BLEND_N_METHODS];
} pb_aux_table;
typedef struct pb_aux_table_f64 {
    pb_skin_f64_fn lbs, dqs;
    pb_mm_f64_fn mm_search[PB_MM_METHODS];
    pb_bs_f64_fn bspace[PB_BSPACE_METHODS];
    pb_bn_f64_fn blend_n[PB_BLEND_N_METHODS];
} pb_aux_table_f64;
PB_INTERNAL extern const pb_aux_table pb_ref_aux_table;
/* The database's boxes (mm_index.c), from its normalized rows: 0, or -1 out of memory. */
PB_INTERNAL int pb_mm_db_index(pb_mm_db *db);
extern const pb_aux_table_f64 pb_ref_aux_f64_table;

/* A row of the variant table. */
struct pb_variant {
    const char *name;       /* "avx2", "avx2-emu" */
    const char *isa;        /* "avx2" */
    pb_mode mode;
    uint32_t features;      /* PB_CPU_* needed to run it */
    int lanes;
    const pb_kernel_fn *table;  /* NULL when this build does not contain it */
    const pb_aux_table *aux;   /* its skinning and search kernels (NULL with table) */
};

/* A validated call, ready to run: the kernel, its arguments, and what
 * pb_plan_run compares to notice a pose, clip or skeleton freed or re-made since
 * (filled by pb_plan_create only: pb_run's and the memo's plans do not outlive their call). */
#define PB_PLAN_WATCH 5
typedef struct pb_plan_watch {
    const pb_pose *pose;
    uint64_t gen;               /* the pose's generation: a pose re-made in the struct has another */
    size_t n, stride;
    float *plane[PB_PLANES];    /* every plane compared only for a pose described by hand (gen 0) */
} pb_plan_watch;
struct pb_plan {
    pb_kernel_fn fn;
    pb_kargs k;
    pb_op op;
    const pb_variant *variant;
    const pb_skeleton *skel;
    const int32_t *skel_parents;
    uint64_t skel_gen;
    size_t skel_n;
    int nwatch;
    pb_plan_watch watch[PB_PLAN_WATCH];   /* last: pb_plan_prepare clears the struct only up to here */
};

/* Validate a call completely (everything pb_run checks) and fill pl; nothing written on error. */
pb_status pb_plan_prepare(pb_plan *pl, pb_op op, const pb_variant *v, const pb_call *c);
/* The same with v resolved and checked by the caller (op and c valid): no second check. */
pb_status pb_plan_prepare_as(pb_plan *pl, pb_op op, const pb_variant *v, const pb_call *c);
/* The scalar parameters an op reads finite (times, durations, half-lives, cones >= 0), and its
 * axis non-zero: pb_run's checks, again at pb_plan_set_params. */
pb_status pb_check_params(const pb_op_info *info, const pb_params *p);
pb_status pb_check_axis(const pb_op_info *info, const pb_params *p);

/* A call site's last validated call (run_memo.c), for the library's own callers that repeat a
 * call every frame with new data and parameters (the frame's stages): pb_run_memo(m, ...) is
 * pb_run, except that where op, variant and every struct the call points to describe what the
 * last successful call through m did, only the parameters are checked again (as a plan runs:
 * pb_plan_set_params), not the poses' layouts, sizes and overlaps. Zero-initialize; no free. */
typedef struct pb_run_memo {
    int valid;
    pb_plan plan;
    pb_call call;                   /* its pointers, and per; params are not compared */
    pb_pose pose[5];                /* what a, b, out, via and per.halflives described */
    pb_palette pal;
    const int32_t *parents;         /* the skeleton's arrays, size and generation */
    const int32_t *order;
    size_t skel_n;
    uint64_t skel_gen;
    double stream_need;             /* bytes the kernel touches: k.stream is this > pb_stream_bytes() */
} pb_run_memo;
/* A caller's memos, one per op (the last PB_RUN_MEMOS ops called through it: an op not among them
 * takes the oldest's place). */
#define PB_RUN_MEMOS 8
struct pb_run_memos {
    pb_run_memo m[PB_RUN_MEMOS];
    unsigned next;
};
PB_INTERNAL pb_status pb_run_memoized(struct pb_run_memos *ms, pb_op op, const pb_variant *v, const pb_call *c);
/* pb_run (run_memo.c): a full check, except that a call repeating one of the last few this thread
 * made (same op, variant and structs, each pose the same generation) has only its parameters and
 * pose padding checked again; calls whose checks read data (clips, AoS arrays, offsets,
 * per-element arrays, chain IK) are always checked in full. */
pb_status pb_run_remembered(pb_op op, const pb_variant *v, const pb_call *c);

/* params.scale: PB_SCALE_DEFAULT replaced by the op's default (PB_ERR_PARAM
 * for an unknown mode); the kernels and the oracle only see resolved modes. */
PB_INTERNAL pb_status pb_params_resolve_scale(const pb_op_info *info, pb_params *p);

/* The chain IK ops' own checks (chain_check.c): parameters, n, the chains' bones and targets. */
PB_INTERNAL pb_status pb_check_chains(const pb_op_info *info, const pb_call *c, size_t n);

/* Fill k from a validated call (planes, counts, params), for n elements, the
 * parameters with their scale mode resolved: what a plan runs and what the
 * benchmark times. PB_ERR_PARAM for an unknown scale mode. */
PB_INTERNAL pb_status pb_kargs_from_call(pb_kargs *k, const pb_op_info *info, const pb_call *c, size_t n);

/* Force variant v (any row: the runtime's, or the harness's emulated ones)
 * for this process, after pb_variant_check; NULL: back to automatic.
 * pb_variant_force(name) is this over the runtime's rows; the harness's
 * pb_all_variant_force(name) over its rows too. */
PB_INTERNAL pb_status pb_variant_force_row(const pb_variant *v);

#endif
