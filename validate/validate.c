/* validate.c — the harness: for every op (registry) x variant (dispatch
 * table, native and emulated) x input case, run the double oracle, the float
 * reference and the variant on the same inputs; accumulate per-metric errors;
 * judge against the tolerance table; report rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "validate.h"
#include "all_variants.h"

typedef struct { pb_class cls; size_t n; pb_params p; size_t joints, characters, frames; float fps; size_t clip; } vcase;

static const float alphas[] = { 0.5f, 0.0f, 1.0f, 0.25f, 0.75f, 1e-3f, 0.999f, 0.37f };
static const size_t sizes[] = { 1, 15, 16, 17, 1000 };
#define BIG_N 100003
#define NA (sizeof alphas / sizeof alphas[0])

/* Ordinary parameters, varied from case to case. */
static pb_params case_params(size_t k)
{
    static const float alpha_vel[] = { 0.0f, 2.5f, -1.0f, 7.0f };
    static const float dt[] = { 1.0f / 60, 1.0f / 30, 0.1f, 1.0f / 120 };
    static const float time[] = { 0.05f, 0.2f, 0.5f, 1.3f };
    static const float halflife[] = { 0.1f, 0.25f, 0.05f, 1.0f };
    static const float duration[] = { 0.3f, 0.5f, 0.15f, 1.0f };
    static const float timescale[] = { 1.0f, 1.5f, -0.5f, 0.25f };
    static const float axes[4][3] = { { 0, 0, 1 }, { 1, 0, 0 }, { 0.3f, -0.4f, 0.5f }, { 0, 2, 0 } };
    pb_params p = { alphas[k % NA], alpha_vel[k % 4], dt[k % 4], time[(k / 4) % 4], halflife[(k + 1) % 4],
                    duration[(k + 2) % 4], timescale[(k + 3) % 4], { axes[k % 4][0], axes[k % 4][1], axes[k % 4][2] },
                    PB_SCALE_DEFAULT };
    return p;
}

/* Degenerate parameters: each must give a defined result, no NaN/Inf. */
static pb_params degenerate_params(size_t k)
{
    pb_params p = case_params(k);
    switch (k % 4) {
    case 0: p.dt = 0; p.halflife = 0; p.duration = 0; p.time = 0; p.alpha = -0.5f; break;
    case 1: p.alpha = 1.5f; p.halflife = 0; p.time = p.duration; break;
    case 2: p.duration = 0; p.alpha = 0; p.timescale = 0; break;
    default: p.alpha = 2.0f; p.alpha_vel = -40.0f; p.dt = 1e-6f; p.time = 100.0f; break;
    }
    return p;
}

static size_t make_cases(vcase *c, int quick)
{
    size_t k = 0;
    for (int cl = 0; cl < PB_CLASS_MIXED; cl++) {
        if (cl == PB_CLASS_DEGENERATE) continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++, k++)
            c[k] = (vcase){ (pb_class)cl, sizes[s], case_params(k), 0, 0, 0, 0, 0 };
    }
    for (size_t d = 0; d < 4; d++, k++) c[k] = (vcase){ PB_CLASS_DEGENERATE, d % 2 ? 1000 : 17, degenerate_params(d), 0, 0, 0, 0, 0 };
    c[k++] = (vcase){ PB_CLASS_MIXED, 1000, case_params(7), 0, 0, 0, 0, 0 };
    if (!quick) c[k++] = (vcase){ PB_CLASS_MIXED, BIG_N, case_params(5), 0, 0, 0, 0, 0 };
    return k;
}

/* Skeleton ops: random 64-joint skeletons up to 16 deep shared by crowds of
 * 1, 3, 16, 17 and 40 characters (both fk paths, every tail), one 4096-joint
 * skeleton up to 24 deep, and (full runs) a crowd of 1600 x 64 joints. */
static size_t make_skel_cases(vcase *c, int quick)
{
    static const size_t chars[] = { 1, 3, 16, 17, 40 };
    static const pb_class cls[] = { PB_CLASS_RANDOM, PB_CLASS_IDENTITY, PB_CLASS_NEAR_IDENTICAL,
                                    PB_CLASS_ANTIPODAL, PB_CLASS_NEAR_PI, PB_CLASS_ZERO_VEL };
    size_t k = 0;
    for (size_t i = 0; i < sizeof cls / sizeof cls[0]; i++)
        for (size_t j = 0; j < sizeof chars / sizeof chars[0]; j++, k++)
            c[k] = (vcase){ cls[i], 64 * chars[j], case_params(k), 64, chars[j], 0, 0, 0 };
    c[k++] = (vcase){ PB_CLASS_MIXED, 4096, case_params(3), 4096, 1, 0, 0, 0 };
    if (!quick) c[k++] = (vcase){ PB_CLASS_MIXED, 64 * 1600, case_params(6), 64, 1600, 0, 0, 0 };
    return k;
}

/* Sampling: clips of frames x joints at a frame rate, sampled by characters
 * at their own times (pb_gen_clip_class says what each class means here).
 * Power-of-two rates keep time -> frame position exact in float, which the
 * velocity check needs; 30 and 120 fps cases check accuracy at real rates. */
static size_t make_sample_cases(vcase *c, int quick)
{
    static const struct { pb_class cls; size_t frames, joints, chars; float fps; } t[] = {
        { PB_CLASS_RANDOM, 30, 31, 1, 64 },       { PB_CLASS_RANDOM, 30, 31, 16, 64 },
        { PB_CLASS_RANDOM, 30, 31, 17, 64 },      { PB_CLASS_RANDOM, 30, 5, 40, 30 },
        { PB_CLASS_RANDOM, 7, 3, 1000, 120 },     { PB_CLASS_IDENTITY, 1, 5, 17, 30 },
        { PB_CLASS_NEAR_IDENTICAL, 30, 5, 17, 30 }, { PB_CLASS_NEAR_PI, 10, 5, 17, 64 },
        { PB_CLASS_ANTIPODAL, 10, 5, 17, 64 },    { PB_CLASS_ZERO_VEL, 10, 5, 17, 64 },
        { PB_CLASS_DEGENERATE, 2, 3, 16, 64 },
    };
    size_t k = 0;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++, k++) {
        pb_params p = t[i].cls == PB_CLASS_DEGENERATE ? degenerate_params(i) : case_params(i);
        p.time = t[i].cls == PB_CLASS_NEAR_IDENTICAL ? 0.0f : 0.125f;   /* on the 2^-10 grid of the offsets */
        c[k] = (vcase){ t[i].cls, t[i].joints * t[i].chars, p, t[i].joints, t[i].chars, t[i].frames, t[i].fps, 0 };
    }
    if (!quick) c[k++] = (vcase){ PB_CLASS_MIXED, 31 * 1000, case_params(2), 31, 1000, 120, 120, 0 };
    return k;
}

/* Real motion capture, after an op's synthetic cases: the same op family
 * on the loaded clips (elementwise ops on real frames and transitions;
 * crowds of the real skeletons; real legs; the clips themselves). */
static size_t make_mocap_cases(const pb_op_info *info, const pb_mocap *m, vcase *c)
{
    size_t k = 0;
    if (!m || m->nclips == 0 || (info->flags & PB_OPF_SCALAR_IN)) return 0;
    pb_params p = case_params(1);
    p.time = 0.125f;
    for (size_t i = 0; i < m->nclips && k < 24; i++) {
        const pb_clip *cl = &m->clips[i];
        size_t J = cl->joints, F = cl->frames;
        if (info->flags & PB_OPF_CLIP_IN) {
            c[k++] = (vcase){ PB_CLASS_MOCAP, F * J, p, J, 1, F, cl->fps, i };
        } else if (info->flags & PB_OPF_SAMPLE) {
            static const size_t chars[] = { 1, 17, 100 };
            for (size_t q = 0; q < 3; q++) c[k++] = (vcase){ PB_CLASS_MOCAP, J * chars[q], p, J, chars[q], F, cl->fps, i };
        } else if (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) {
            static const size_t chars[] = { 1, 17, 64 };
            for (size_t q = 0; q < (i ? 2u : 3u); q++) c[k++] = (vcase){ PB_CLASS_MOCAP, J * chars[q], p, J, chars[q], 0, 0, i };
        }
    }
    if (info->flags & PB_OPF_CHAIN) c[k++] = (vcase){ PB_CLASS_MOCAP, 3 * 1000, p, 3, 1000, 0, 0, 0 };
    if (!(info->flags & (PB_OPF_CLIP_IN | PB_OPF_SAMPLE | PB_OPF_SKELETON | PB_OPF_ROOTS | PB_OPF_CHAIN))) {
        c[k++] = (vcase){ PB_CLASS_MOCAP, 1000, p, 0, 0, 0, 0, 0 };
        c[k++] = (vcase){ PB_CLASS_MOCAP, 4096, case_params(6), 0, 0, 0, 0, 0 };
    }
    return k;
}

/* Two-bone chains: every class (pb_gen_chains says what each means for a
 * chain) at 1, 15, 16, 17 and 1000 chains, and 100003 mixed in full runs. */
static size_t make_chain_cases(vcase *c, int quick)
{
    static const size_t chains[] = { 1, 15, 16, 17, 1000 };
    size_t k = 0;
    for (int cl = 0; cl < PB_CLASS_MIXED; cl++)
        for (size_t j = 0; j < sizeof chains / sizeof chains[0]; j++, k++)
            c[k] = (vcase){ (pb_class)cl, 3 * chains[j], cl == PB_CLASS_DEGENERATE ? degenerate_params(j) : case_params(k),
                            3, chains[j], 0, 0, 0 };
    if (!quick) c[k++] = (vcase){ PB_CLASS_MIXED, 3 * 33334, case_params(3), 3, 33334, 0, 0, 0 };
    return k;
}

/* Growing per-(variant, metric) error sample, for max and percentile. */
typedef struct {
    double *err;
    size_t n, cap;
    double max, vs_ref, class_max[PB_CLASSES];
} acc;

static int acc_push(acc *a, const double *e, size_t n, pb_class cls)
{
    if (a->n + n > a->cap) {
        size_t cap = (a->cap + n) * 2;
        double *p = realloc(a->err, cap * sizeof *p);
        if (!p) return -1;
        a->err = p;
        a->cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        a->err[a->n++] = e[i];
        if (e[i] > a->max) a->max = e[i];
        if (e[i] > a->class_max[cls]) a->class_max[cls] = e[i];
    }
    return 0;
}
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}
static double percentile99(acc *a)
{
    if (a->n == 0) return 0;
    qsort(a->err, a->n, sizeof *a->err, cmp_double);
    return a->err[(size_t)floor(0.99 * (double)(a->n - 1))];
}

/* Buffers for one case. */
typedef struct {
    pb_pose a, b, out;
    pb_pose_aos aos_in, aos_out;
    float *aos_mem[2];
    pb_dpose da, db, oracle, method, ref, test;
    const pb_skeleton *skel;
    /* sampling ops: the clip is pose a (frames x joints keys), outputs joints x characters */
    const float *offsets;
    size_t frames, joints;
    float fps;
    pb_param_arrays per;   /* the "per" form's arrays (in per_mem), else none */
    float *per_mem;
} bufs;

static int aos_alloc(pb_pose_aos *a, float **mem, size_t n)
{
    size_t per = 3 + 4 + 3 * 4;   /* pos, rot, scl, vel, ang, svl */
    *mem = malloc(n * per * sizeof(float));
    if (!*mem) return -1;
    float *p = *mem;
    a->n = n;
    a->pos = (pb_vec3 *)p; p += 3 * n;
    a->rot = (pb_quat *)p; p += 4 * n;
    a->scl = (pb_vec3 *)p; p += 3 * n;
    a->vel = (pb_vec3 *)p; p += 3 * n;
    a->ang = (pb_vec3 *)p; p += 3 * n;
    a->svl = (pb_vec3 *)p;
    return 0;
}

static void bufs_free(bufs *b)
{
    pb_pose_free(&b->a); pb_pose_free(&b->b); pb_pose_free(&b->out);
    free(b->aos_mem[0]); free(b->aos_mem[1]); free(b->per_mem);
    pb_dpose_free(&b->da); pb_dpose_free(&b->db); pb_dpose_free(&b->oracle);
    pb_dpose_free(&b->method); pb_dpose_free(&b->ref); pb_dpose_free(&b->test);
}

/* Inputs of n_in elements, outputs of n_out (equal but for sampling). */
static int bufs_alloc(bufs *b, size_t n_in, size_t n_out)
{
    memset(b, 0, sizeof *b);
    if (pb_pose_alloc(&b->a, n_in) || pb_pose_alloc(&b->b, n_in) || pb_pose_alloc(&b->out, n_out) ||
        aos_alloc(&b->aos_in, &b->aos_mem[0], n_in) || aos_alloc(&b->aos_out, &b->aos_mem[1], n_in) ||
        pb_dpose_alloc(&b->da, n_in) || pb_dpose_alloc(&b->db, n_in) || pb_dpose_alloc(&b->oracle, n_out) ||
        pb_dpose_alloc(&b->method, n_out) || pb_dpose_alloc(&b->ref, n_out) || pb_dpose_alloc(&b->test, n_out)) {
        bufs_free(b);
        return -1;
    }
    return 0;
}

/* Run the double oracle of op on inputs (da, db, AoS in da) into d. */
static void run_oracle_on(pb_op op, const pb_dpose *da, const pb_dpose *db, const pb_params *p,
                          const bufs *ctx, pb_dpose *d)
{
    pb_kargs_f64 k;
    memset(&k, 0, sizeof k);
    k.n = d->n;
    k.n_padded = d->n_padded;
    for (int i = 0; i < PB_PLANES; i++) {
        k.a[i] = da->plane[i];
        k.b[i] = db->plane[i];
        k.out[i] = d->plane[i];
    }
    for (int a = 0; a < PB_AOS_ARRAYS; a++) {
        k.aos_in[a] = da->aos[a];
        k.aos_out[a] = d->aos[a];
    }
    /* Outputs start at identity so planes an op does not write compare equal. */
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < d->n_padded; j++) d->plane[i][j] = pb_plane_identity(i);
    k.p = *p;
    pb_params_resolve_scale(pb_op_get(op), &k.p);   /* as pb_run does for the variants */
    k.skel = ctx->skel;
    k.offsets = ctx->offsets;
    k.per = ctx->per;
    k.frames = ctx->frames;
    k.joints = ctx->joints;
    k.fps = ctx->fps;
    pb_ref_f64_table[op](&k);
}
static void run_oracle(pb_op op, bufs *b, const pb_params *p, pb_dpose *d)
{
    run_oracle_on(op, &b->da, &b->db, p, b, d);
}

/* Run variant v through the public entry point (so argument checks and
 * padding restoration are exercised too) into d. Outputs are pre-filled with
 * NaN so a lane a kernel forgets to write is caught. */
static pb_status run_variant(pb_op op, const pb_op_info *info, int stat, const pb_variant *v, bufs *b,
                             const pb_params *p, pb_dpose *d)
{
    size_t n = b->out.n;
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < n; j++) b->out.plane[i][j] = NAN;
    float *aos_out[PB_AOS_ARRAYS] = { &b->aos_out.pos->x, &b->aos_out.rot->w, &b->aos_out.scl->x,
                                       &b->aos_out.vel->x, &b->aos_out.ang->x, &b->aos_out.svl->x };
    for (int a = 0; a < PB_AOS_ARRAYS; a++)
        for (size_t j = 0; j < b->aos_out.n * (size_t)pb_aos_width[a]; j++) aos_out[a][j] = NAN;
    /* planes the op does not write: identity, to match the oracle */
    for (int g = 0; g < PB_GROUPS; g++)
        if (!(info->out & (1u << g)))
            for (int p = pb_group_first((pb_group)g); p < pb_group_first((pb_group)g) + pb_group_size((pb_group)g); p++)
                for (size_t j = 0; j < n; j++) b->out.plane[p][j] = pb_plane_identity(p);
    pb_clip clip = { b->frames, b->joints, b->fps > 0 ? 1 / b->fps : 0, b->fps, 0, b->a };
    /* the static form: the same planes seen as static poses (no velocity planes or arrays) */
    pb_pose sa = b->a, sb = b->b, so = b->out;
    pb_pose_aos ai = b->aos_in, ao = b->aos_out;
    if (stat) {
        for (int i = PB_STATIC_PLANES; i < PB_PLANES; i++) sa.plane[i] = sb.plane[i] = so.plane[i] = NULL;
        ai.vel = ai.ang = ai.svl = ao.vel = ao.ang = ao.svl = NULL;
        clip.pose = sa;
    }
    pb_call c = { .a = &sa, .b = &sb, .out = &so, .aos_in = &ai, .aos_out = &ao,
                  .skel = b->skel, .clip = (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) ? &clip : NULL,
                  .offsets = b->offsets,
                  .params = *p, .per = b->per };
    pb_status s = pb_run(op, v, &c);
    if (s != PB_OK) return s;
    pb_dpose_from_pose(d, &b->out);   /* the full pose: planes a static run leaves alone are not compared */
    /* AoS outputs only exist for AoS ops (whose n is the inputs'; sampling outputs are larger) */
    if (info->flags & PB_OPF_AOS_OUT) pb_dpose_from_aos(d, &b->aos_out);
    return PB_OK;
}

/* ---- velocity consistency ---------------------------------------------------------------
 * Move every input by its own velocities for a time h (and alpha by
 * alpha_vel, time by h), run the oracle at t - h and t + h, and compare the
 * central differences of the outputs' pos/rot/scl with the velocities the op
 * propagated at t. In double with h = 1e-5 the difference itself is good to
 * ~1e-9, so disagreement means the velocity formulas are wrong (or, where a
 * row says so, knowingly approximate). */
/* h = 2^-17 s (7.6e-6): truncation ~h^2 |w|^3 |p| / 6 ~ 1e-7 for the generated
 * 10 rad/s and metres, and, being a power of two, time +- h and alpha +-
 * alpha_vel h stay exact in the float parameters (a step like 1e-5 rounds
 * there by ~1e-3 of itself and reads as a velocity error of that size). */
#define VEL_H (1.0 / 131072.0)

static void advance(pb_dpose *dst, const pb_dpose *src, double h)
{
    for (size_t i = 0; i < src->n_padded; i++) {
        for (int p = 0; p < PB_PLANES; p++) dst->plane[p][i] = src->plane[p][i];
        for (int c = 0; c < 3; c++) {
            dst->plane[PB_POS_X + c][i] += h * src->plane[PB_VEL_X + c][i];
            dst->plane[PB_SCL_X + c][i] *= exp(h * src->plane[PB_SVL_X + c][i]);
        }
        /* rot <- exp(ang h / 2) rot */
        double wx = src->plane[PB_ANG_X][i] * h / 2, wy = src->plane[PB_ANG_Y][i] * h / 2,
               wz = src->plane[PB_ANG_Z][i] * h / 2;
        double th = sqrt(wx * wx + wy * wy + wz * wz), sc = th > 0 ? sin(th) / th : 1;
        double ew = cos(th), ex = sc * wx, ey = sc * wy, ez = sc * wz;
        double qw = src->plane[PB_ROT_W][i], qx = src->plane[PB_ROT_X][i], qy = src->plane[PB_ROT_Y][i],
               qz = src->plane[PB_ROT_Z][i];
        dst->plane[PB_ROT_W][i] = ew * qw - ex * qx - ey * qy - ez * qz;
        dst->plane[PB_ROT_X][i] = ew * qx + ex * qw + ey * qz - ez * qy;
        dst->plane[PB_ROT_Y][i] = ew * qy - ex * qz + ey * qw + ez * qx;
        dst->plane[PB_ROT_Z][i] = ew * qz + ex * qy - ey * qx + ez * qw;
    }
}

static pb_params advance_params(const pb_op_info *info, pb_params p, double h)
{
    if (info->flags & PB_OPF_ALPHA_VEL) p.alpha += (float)(p.alpha_vel * h);
    if (info->flags & PB_OPF_TIME) p.time += (float)h;
    return p;
}

/* Two-bone chains away from their singularities, where a velocity exists and
 * sampled estimates mean something: target at least 5 cm inside both reach
 * limits, swing below 150 deg (AC not nearly opposite AT: its axis flips
 * there), knee bent at least 0.1 rad. Computed from the inputs in double. */
static int chain_regular(const pb_dpose *a, const pb_dpose *t, size_t C, size_t c)
{
    double P[3][3];
    double q[4] = { a->plane[PB_ROT_W][c], a->plane[PB_ROT_X][c], a->plane[PB_ROT_Y][c], a->plane[PB_ROT_Z][c] };
    /* positions of root, mid, end (unit scales in the generated chains) */
    double acc[4] = { q[0], q[1], q[2], q[3] };
    for (int j = 0; j < 3; j++) P[0][j] = a->plane[PB_POS_X + j][c];
    for (int e = 1; e < 3; e++) {
        size_t el = e * C + c;
        double v[3] = { a->plane[PB_POS_X][el], a->plane[PB_POS_Y][el], a->plane[PB_POS_Z][el] };
        double tx = 2 * (acc[2] * v[2] - acc[3] * v[1]), ty = 2 * (acc[3] * v[0] - acc[1] * v[2]),
               tz = 2 * (acc[1] * v[1] - acc[2] * v[0]);
        P[e][0] = P[e - 1][0] + v[0] + acc[0] * tx + (acc[2] * tz - acc[3] * ty);
        P[e][1] = P[e - 1][1] + v[1] + acc[0] * ty + (acc[3] * tx - acc[1] * tz);
        P[e][2] = P[e - 1][2] + v[2] + acc[0] * tz + (acc[1] * ty - acc[2] * tx);
        double m[4] = { a->plane[PB_ROT_W][el], a->plane[PB_ROT_X][el], a->plane[PB_ROT_Y][el], a->plane[PB_ROT_Z][el] };
        double r[4] = { acc[0] * m[0] - acc[1] * m[1] - acc[2] * m[2] - acc[3] * m[3],
                        acc[0] * m[1] + acc[1] * m[0] + acc[2] * m[3] - acc[3] * m[2],
                        acc[0] * m[2] - acc[1] * m[3] + acc[2] * m[0] + acc[3] * m[1],
                        acc[0] * m[3] + acc[1] * m[2] - acc[2] * m[1] + acc[3] * m[0] };
        memcpy(acc, r, sizeof acc);
    }
    double ab[3], cb[3], ac[3], at[3], lab = 0, lcb = 0, lac = 0, lat = 0, dot = 0, knee = 0;
    for (int j = 0; j < 3; j++) {
        ab[j] = P[1][j] - P[0][j]; cb[j] = P[2][j] - P[1][j]; ac[j] = P[2][j] - P[0][j];
        at[j] = t->plane[PB_POS_X + j][2 * C + c] - P[0][j];
        lab += ab[j] * ab[j]; lcb += cb[j] * cb[j]; lac += ac[j] * ac[j]; lat += at[j] * at[j];
        dot += ac[j] * at[j]; knee -= ab[j] * cb[j];
    }
    lab = sqrt(lab); lcb = sqrt(lcb); lac = sqrt(lac); lat = sqrt(lat);
    if (lab < 1e-3 || lcb < 1e-3 || lat < 1e-3) return 0;
    double knee_angle = acos(fmax(-1, fmin(1, knee / (lab * lcb))));   /* interior; pi = straight */
    return lat > fabs(lab - lcb) + 0.05 && lat < lab + lcb - 0.05 && dot / (lac * lat) > cos(150 * 3.14159265358979 / 180) &&
           knee_angle < 3.14159265358979 - 0.1;
}

/* Worst relative disagreement |fd - v| / max(1, |v|) over the op's velocity outputs. */
static double vel_consistency(pb_op op, const pb_op_info *info, bufs *b, const pb_params *p, int *ok)
{
    size_t n = b->oracle.n;
    pb_dpose a[2], bb[2], o[2];
    double worst = 0;
    memset(a, 0, sizeof a);
    memset(bb, 0, sizeof bb);
    memset(o, 0, sizeof o);
    *ok = 0;
    for (int k = 0; k < 2; k++)
        if (pb_dpose_alloc(&a[k], b->da.n) || pb_dpose_alloc(&bb[k], b->da.n) || pb_dpose_alloc(&o[k], n)) goto out;
    /* Parameters move with exactly the same float steps in both directions
     * only approximately (alpha is a float); use h in double for inputs and
     * the param change actually applied for the division. */
    for (int k = 0; k < 2; k++) {
        double h = k ? VEL_H : -VEL_H;
        /* inputs that are states at a fixed instant (a transition snapshot) stay put */
        advance(&a[k], &b->da, (info->flags & PB_OPF_A_FIXED) ? 0 : h);
        advance(&bb[k], &b->db, (info->flags & PB_OPF_B_FIXED) ? 0 : h);
        pb_params q = advance_params(info, *p, h);
        if (info->flags & PB_OPF_DT) q.dt = 1e-3f;
        run_oracle_on(op, &a[k], &bb[k], &q, b, &o[k]);
    }
    *ok = 1;
    /* Ops that estimate velocities from their own samples dt apart (PB_OPF_DT with
     * PB_OPF_VELCHECK: two_bone_ik_vel) are checked with dt = 1 ms: this verifies the
     * machinery; their truncation at a frame-sized dt is a property of the method. */
    const pb_dpose *c = &b->oracle;
    pb_dpose center;
    memset(&center, 0, sizeof center);
    if ((info->flags & PB_OPF_DT) && pb_dpose_alloc(&center, n) == 0) {
        pb_params q = *p;
        q.dt = 1e-3f;
        run_oracle_on(op, &b->da, &b->db, &q, b, &center);
        c = &center;
    }
    size_t C = n / 3;
    for (size_t i = 0; i < n; i++) {
        double fd[3][3], v[3][3];
        if ((info->flags & PB_OPF_CHAIN) && !chain_regular(&b->da, &b->db, C, i % C)) continue;
        int have[3] = { (info->out >> PB_G_VEL) & 1, (info->out >> PB_G_ANG) & 1, (info->out >> PB_G_SVL) & 1 };
        for (int j = 0; j < 3; j++) {
            fd[0][j] = (o[1].plane[PB_POS_X + j][i] - o[0].plane[PB_POS_X + j][i]) / (2 * VEL_H);
            fd[2][j] = log(o[1].plane[PB_SCL_X + j][i] / o[0].plane[PB_SCL_X + j][i]) / (2 * VEL_H);
            v[0][j] = c->plane[PB_VEL_X + j][i];
            v[1][j] = c->plane[PB_ANG_X + j][i];
            v[2][j] = c->plane[PB_SVL_X + j][i];
        }
        /* ang: 2 log(r(t+h) conj(r(t-h))) / 2h, shorter arc */
        double pw = o[1].plane[PB_ROT_W][i], px = o[1].plane[PB_ROT_X][i], py = o[1].plane[PB_ROT_Y][i],
               pz = o[1].plane[PB_ROT_Z][i];
        double qw = o[0].plane[PB_ROT_W][i], qx = -o[0].plane[PB_ROT_X][i], qy = -o[0].plane[PB_ROT_Y][i],
               qz = -o[0].plane[PB_ROT_Z][i];
        double rw = pw * qw - px * qx - py * qy - pz * qz, rx = pw * qx + px * qw + py * qz - pz * qy,
               ry = pw * qy - px * qz + py * qw + pz * qx, rz = pw * qz + px * qy - py * qx + pz * qw;
        if (rw < 0) { rw = -rw; rx = -rx; ry = -ry; rz = -rz; }
        double sv = sqrt(rx * rx + ry * ry + rz * rz), f = sv > 0 ? 2 * atan2(sv, rw) / sv : 2;
        fd[1][0] = f * rx / (2 * VEL_H); fd[1][1] = f * ry / (2 * VEL_H); fd[1][2] = f * rz / (2 * VEL_H);
        for (int g = 0; g < 3; g++) {
            if (!have[g]) continue;
            double d2 = 0, v2 = 0;
            for (int j = 0; j < 3; j++) {
                d2 += (fd[g][j] - v[g][j]) * (fd[g][j] - v[g][j]);
                v2 += v[g][j] * v[g][j];
            }
            double e = sqrt(d2) / fmax(1.0, sqrt(v2));
            if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
        }
    }
    pb_dpose_free(&center);
out:
    for (int k = 0; k < 2; k++) { pb_dpose_free(&a[k]); pb_dpose_free(&bb[k]); pb_dpose_free(&o[k]); }
    return worst;
}

static int variant_selected(const pb_variant *v, const char *filter)
{
    if (!filter) return 1;
    return strcmp(filter, pb_variant_name(v)) == 0 || strcmp(filter, pb_variant_isa(v)) == 0;
}

/* Variants to validate: those selected that this build has and this CPU runs
 * (the runtime's and, with PB_EMULATED, the emulated builds). */
static size_t pick_variants(const char *filter, const pb_variant **out, FILE *note)
{
    size_t k = 0;
    if (note && !pb_all_variant_emulated())
        fprintf(note, "# emulated variants (<isa>-emu) not built: validating the native ones and scalar "
                      "(configure with -DPB_EMULATED=ON to validate every ISA on this host)\n");
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (!variant_selected(v, filter)) continue;
        if (pb_variant_check(v) != PB_OK) {
            if (note) fprintf(note, "# skipped %s: %s\n", pb_variant_name(v), pb_last_error());
            continue;
        }
        out[k++] = v;
    }
    return k;
}

#define MAXV 16

/* Forms an op is validated in besides the full one: static poses for the ops
 * that need no velocities (those with optional velocity groups, and those
 * reading and writing whole transforms only), and the other scale mode for
 * the ops that read params.scale. */
enum { FORM_FULL, FORM_STATIC, FORM_SCALE_ALT, FORM_PER, FORM_AXES, FORMS };
#define PARAM_FLAGS (PB_OPF_ALPHA | PB_OPF_ALPHA_VEL | PB_OPF_TIME | PB_OPF_DURATION | PB_OPF_HALFLIFE | PB_OPF_TIMESCALE)
#define NO_PER_FLAGS (PB_OPF_SAMPLE | PB_OPF_CLIP_IN | PB_OPF_AOS_IN | PB_OPF_AOS_OUT | PB_OPF_CHAIN)
#define T3_GROUPS ((1u << PB_G_POS) | (1u << PB_G_ROT) | (1u << PB_G_SCL))
#define VEL_GROUPS ((1u << PB_G_VEL) | (1u << PB_G_ANG) | (1u << PB_G_SVL))
static int form_applies(const pb_op_info *info, int form)
{
    switch (form) {
    case FORM_FULL: return 1;
    case FORM_STATIC:
        return info->opt || ((info->out & T3_GROUPS) == T3_GROUPS && !((info->in_a | info->in_b | info->out) & VEL_GROUPS));
    case FORM_SCALE_ALT: return (info->flags & (PB_OPF_SCALE_LIN | PB_OPF_SCALE_EXP)) != 0;
    case FORM_AXES: return (info->flags & PB_OPF_HALFLIFE) && !(info->flags & NO_PER_FLAGS);
    default: return (info->flags & PARAM_FLAGS) && !(info->flags & NO_PER_FLAGS);
    }
}
/* The op as a form sees it: full poses write the optional groups too. */
static pb_op_info form_info(const pb_op_info *info, int form)
{
    pb_op_info e = *info;
    if (form == FORM_STATIC) e.opt = 0;
    else e.out |= e.opt;
    return e;
}
static pb_scale_mode alt_scale(const pb_op_info *info)
{
    return (info->flags & PB_OPF_SCALE_LIN) ? PB_SCALE_EXP : PB_SCALE_LINEAR;
}
static const char *form_name(const pb_op_info *info, int form)
{
    if (form == FORM_STATIC) return "static";
    if (form == FORM_SCALE_ALT) return alt_scale(info) == PB_SCALE_EXP ? "scale=exp" : "scale=linear";
    if (form == FORM_PER) return "per";
    if (form == FORM_AXES) return "halflife_axis";
    return "full";
}

int pb_validate(const pb_validate_opts *o, pb_row_fn row_fn, void *user)
{
    const pb_variant *vars[MAXV];
    size_t nv = pick_variants(o->variant, vars, o->table);
    if (nv == 0) {
        pb_fail(PB_ERR_VARIANT, "no runnable variant matches '%s'", o->variant ? o->variant : "(all)");
        return -1;
    }
    const pb_variant *scalar = NULL;
    pb_variant_find("scalar", &scalar);
    pb_op only = PB_OP_COUNT;
    if (o->op && pb_op_find(o->op, &only) != PB_OK) return -1;

    vcase cases[64], skel_cases[64], chain_cases[64], sample_cases[64];
    size_t ncases = make_cases(cases, o->quick), nskel = make_skel_cases(skel_cases, o->quick);
    size_t nchain = make_chain_cases(chain_cases, o->quick), nsample = make_sample_cases(sample_cases, o->quick);
    size_t maxn = 0;
    for (size_t c = 0; c < ncases; c++)
        if (cases[c].n > maxn) maxn = cases[c].n;
    for (size_t c = 0; c < nskel; c++)
        if (skel_cases[c].n > maxn) maxn = skel_cases[c].n;
    for (size_t c = 0; c < nchain; c++)
        if (chain_cases[c].n > maxn) maxn = chain_cases[c].n;
    for (size_t c = 0; c < nsample; c++)
        if (sample_cases[c].n > maxn) maxn = sample_cases[c].n;
    pb_mocap mocap = { 0 };
    if (!o->no_mocap) {
        pb_status ms = pb_mocap_load(&mocap, o->bvh, o->nbvh, o->strict, o->table);
        if (ms != PB_OK) return -1;   /* the loader's message names the file and line */
        for (size_t i = 0; i < mocap.nclips; i++) {
            size_t big = mocap.clips[i].frames * mocap.clips[i].joints, crowd = 64 * mocap.clips[i].joints;
            if (big > maxn) maxn = big;
            if (crowd > maxn) maxn = crowd;
        }
        if (maxn < 4096) maxn = 4096;
        if (o->table && mocap.nclips)
            fprintf(o->table, "# mocap: %zu clip(s) (%zu joints, %zu frames first)\n", mocap.nclips, mocap.clips[0].joints,
                    mocap.clips[0].frames);
    }
    double *err = malloc(maxn * sizeof *err);
    if (!err) {
        pb_mocap_free(&mocap);
        pb_fail(PB_ERR_NOMEM, "validate: out of memory");
        return -1;
    }
    int failures = 0;

    for (int opf = 0; opf < PB_OP_COUNT * FORMS; opf++) {
        int op = opf / FORMS, form = opf % FORMS;
        if (only != PB_OP_COUNT && op != (int)only) continue;
        if (!form_applies(pb_op_get((pb_op)op), form)) continue;
        const pb_op_info form_view = form_info(pb_op_get((pb_op)op), form);
        const pb_op_info *info = &form_view;
        const int stat = form == FORM_STATIC;
        const int method_of = pb_op_row_get((pb_op)op)->method_of;
        const pb_tolerance *tol = pb_tolerance_for(info->name);
        if (!tol) {
            pb_fail(PB_ERR_OP, "op '%s' has no row in the tolerance table", info->name);
            free(err);
            return -1;
        }
        pb_metric m[PB_MAX_METRICS];
        int nm = pb_metrics_for(info, m);
        acc accs[MAXV][PB_MAX_METRICS], ref[PB_MAX_METRICS];
        double method_max[PB_MAX_METRICS] = { 0 };
        size_t nan[MAXV] = { 0 }, pad_bad[MAXV] = { 0 };
        double vel_worst = 0;
        memset(accs, 0, sizeof accs);
        memset(ref, 0, sizeof ref);

        int skeletal = (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) != 0;
        int chained = (info->flags & PB_OPF_CHAIN) != 0;
        int clip_in = (info->flags & PB_OPF_CLIP_IN) != 0, sampling = (info->flags & PB_OPF_SAMPLE) != 0 || clip_in;
        const vcase *fam = sampling ? sample_cases : chained ? chain_cases : skeletal ? skel_cases : cases;
        size_t nfam = sampling ? nsample : chained ? nchain : skeletal ? nskel : ncases;
        vcase op_cases[96];
        memcpy(op_cases, fam, nfam * sizeof *fam);
        size_t op_ncases = nfam + make_mocap_cases(info, &mocap, op_cases + nfam);
        for (size_t ci = 0; ci < op_ncases; ci++) {
            vcase cs_form = op_cases[ci];
            if (form == FORM_SCALE_ALT) cs_form.p.scale = alt_scale(info);
            const vcase *cs = &cs_form;
            int real = cs->cls == PB_CLASS_MOCAP;
            bufs b;
            pb_skeleton sk = { 0 };
            float *offsets = NULL;
            size_t n_in = sampling ? cs->frames * cs->joints : cs->n, n_out = clip_in ? n_in : cs->n;
            if (bufs_alloc(&b, n_in, n_out) || (sampling && !(offsets = malloc(cs->characters * sizeof *offsets)))) {
                if (!offsets) bufs_free(&b);
                pb_fail(PB_ERR_NOMEM, "validate: out of memory for n = %zu", cs->n);
                failures = -1;
                goto done;
            }
            pb_gen_case(&b.a, &b.b, cs->cls, o->seed + ci * 7919u, info);
            if (real && !sampling && !chained && !skeletal) pb_mocap_fill(&mocap, &b.a, &b.b, o->seed + ci);
            if (info->flags & PB_OPF_TARGET) pb_gen_targets(&b.a, &b.b, real ? PB_CLASS_RANDOM : cs->cls, cs->p.axis, o->seed + ci);
            if (chained) {
                if (real) pb_mocap_chains(&mocap, &b.a, &b.b, o->seed + ci);
                else pb_gen_chains(&b.a, &b.b, cs->cls, o->seed + ci);
            }
            if (sampling) {
                if (real) pb_pose_copy(&b.a, &pb_mocap_clip(&mocap, cs->clip)->pose);
                else pb_gen_clip_class(&b.a, cs->frames, cs->joints, cs->cls);
                pb_gen_offsets(offsets, cs->characters, real ? PB_CLASS_RANDOM : cs->cls, cs->frames, cs->fps, cs->p.time,
                               o->seed + ci);
                b.offsets = offsets;
                b.frames = cs->frames;
                b.joints = cs->joints;
                b.fps = cs->fps;
            }
            if (skeletal) {
                int32_t *parents = malloc(cs->joints * sizeof *parents);
                pb_status ss = parents ? PB_OK : PB_ERR_NOMEM;
                if (parents) {
                    if (real) memcpy(parents, pb_mocap_skeleton(&mocap, cs->clip)->parents, cs->joints * sizeof *parents);
                    else pb_gen_parents(parents, cs->joints, cs->joints > 64 ? 24 : 16, o->seed + ci);
                    ss = pb_skeleton_init(&sk, parents, cs->joints, cs->characters);
                    free(parents);
                }
                if (ss != PB_OK) {
                    bufs_free(&b);
                    pb_fail(ss, "validate: skeleton for %s: %s", info->name, pb_last_error());
                    failures = -1;
                    goto done;
                }
                b.skel = &sk;
                if (real) {
                    pb_mocap_crowd(&mocap, cs->clip, &b.a, cs->characters, o->seed + ci);
                    pb_mocap_crowd(&mocap, cs->clip, &b.b, cs->characters, o->seed + ci + 1);
                } else {
                    pb_gen_bone_scale(&b.a);
                    pb_gen_bone_scale(&b.b);
                }
            }
            /* The "per" form: parameters per character (the skeleton's, else n / J for the
             * largest J of 64, 16, 4, 2, 1 dividing n) and a per-joint weight mask. */
            if (form == FORM_PER || form == FORM_AXES) {
                size_t J = 64;
                while (cs->n % J) J /= 2;
                size_t C = b.skel ? b.skel->characters : cs->n / J;
                if (!(b.per_mem = malloc((6 * C + 3 * (cs->n / C)) * sizeof(float)))) {
                    bufs_free(&b);
                    pb_skeleton_free(&sk);
                    free(offsets);
                    pb_fail(PB_ERR_NOMEM, "validate: out of memory");
                    failures = -1;
                    goto done;
                }
                if (form == FORM_PER) {
                    pb_gen_param_arrays(&b.per, b.per_mem, cs->n, C, info->flags, o->seed + ci);
                } else {   /* half-lives per joint per axis, every other parameter uniform */
                    pb_gen_halflife_axes(b.per_mem, cs->n / C, o->seed + ci);
                    b.per = (pb_param_arrays){ .characters = C, .halflife_axis = b.per_mem };
                }
            }
            /* AoS input (pose_from_aos): the case's pose a in engine layout. */
            pb_call to = { .a = &b.a, .aos_out = &b.aos_in };
            pb_run(PB_OP_pose_to_aos, scalar, &to);
            pb_dpose_from_pose(&b.da, &b.a);
            pb_dpose_from_pose(&b.db, &b.b);
            pb_dpose_from_aos(&b.da, &b.aos_in);

            run_oracle((pb_op)op, &b, &cs->p, &b.oracle);
            if (method_of >= 0) run_oracle((pb_op)method_of, &b, &cs->p, &b.method);
            /* Not on degenerate parameters, and not on near-180-degree pairs: there
             * the shorter arc can switch within the step and has no derivative. */
            /* Nor where time sits on the end of a blend: the cubic decay and smoothstep are C1
             * there, and a central difference straddling the kink in the second derivative errs
             * by ~h |x''| / 2 (measured 1.4e-4), which says nothing about the formulas. */
            int at_kink = (info->flags & PB_OPF_DURATION) && fabs((double)cs->p.time - cs->p.duration) < 4 * VEL_H;
            /* Straight chains and zero-length bones have no bend plane of their own: moved
             * by their velocities they bend one way at t - h and the other at t + h, and the
             * solution jumps between the two (the fallback axis is only for standing still). */
            if (chained && (cs->cls == PB_CLASS_IDENTITY || cs->cls == PB_CLASS_ANTIPODAL)) at_kink = 1;
            /* Sampling: times on keys sit on velocity discontinuities; and only power-of-two
             * rates map a 2^-17 s step to an exact frame-position step in float. */
            if (sampling) {
                int e2;
                if (cs->cls == PB_CLASS_NEAR_IDENTICAL || frexpf(cs->fps, &e2) != 0.5f) at_kink = 1;
            }
            /* (the per form moves uniform parameters only: its velocities are checked in the full form) */
            if ((info->flags & PB_OPF_VELCHECK) && form != FORM_PER && cs->n <= 4096 && cs->cls != PB_CLASS_DEGENERATE &&
                cs->cls != PB_CLASS_NEAR_PI && cs->cls != PB_CLASS_MIXED && !at_kink) {
                int ok;
                double e = vel_consistency((pb_op)op, info, &b, &cs->p, &ok);
                if (ok && !(e <= vel_worst)) vel_worst = e;
            }
            pb_status s = run_variant((pb_op)op, info, stat, scalar, &b, &cs->p, &b.ref);
            for (int mi = 0; mi < nm && s == PB_OK; mi++) {
                pb_metric_eval(&m[mi], &b.ref, &b.oracle, err);
                acc_push(&ref[mi], err, n_out, cs->cls);
                if (method_of >= 0) {
                    /* Method error in absolute terms for scalar approximations:
                     * fast_negexp's relative error where exp(-x) ~ 1e-7 says nothing useful. */
                    pb_metric mm = m[mi];
                    if (mm.kind == PB_M_SCL_REL) mm.kind = PB_M_SCL_ABS;
                    pb_metric_eval(&mm, &b.oracle, &b.method, err);
                    for (size_t i = 0; i < n_out; i++) method_max[mi] = fmax(method_max[mi], err[i]);
                }
            }
            for (size_t vi = 0; vi < nv && s == PB_OK; vi++) {
                s = run_variant((pb_op)op, info, stat, vars[vi], &b, &cs->p, &b.test);
                if (s != PB_OK) break;
                if (pb_pose_check(&b.out, "out") != PB_OK) pad_bad[vi]++;
                nan[vi] += pb_count_nan(info, &b.test, &b.oracle);
                for (int mi = 0; mi < nm; mi++) {
                    pb_metric_eval(&m[mi], &b.test, &b.oracle, err);
                    if (acc_push(&accs[vi][mi], err, n_out, cs->cls)) s = PB_ERR_NOMEM;
                    pb_metric_eval(&m[mi], &b.test, &b.ref, err);
                    for (size_t i = 0; i < n_out; i++) accs[vi][mi].vs_ref = fmax(accs[vi][mi].vs_ref, err[i]);
                }
            }
            bufs_free(&b);
            pb_skeleton_free(&sk);
            free(offsets);
            if (s != PB_OK) {
                pb_fail(s, "validate: %s, case %s n=%zu: %s", info->name, pb_class_name(cs->cls), cs->n,
                        pb_last_error());
                failures = -1;
                goto done;
            }
        }

        /* n = 0 must be rejected cleanly by every variant, with nothing written. */
        int rejects_empty[MAXV];
        for (size_t vi = 0; vi < nv; vi++) {
            bufs z;
            rejects_empty[vi] = 0;
            if (bufs_alloc(&z, 1, 1) == 0) {
                /* sampling: a valid one-key clip, an empty output */
                float zero_offset = 0;
                pb_clip zclip = { 1, 1, 1, 1, 0, z.a };
                if (!(info->flags & PB_OPF_SAMPLE)) z.a.n = 0;
                if (info->flags & PB_OPF_CLIP_IN) zclip.frames = 0;   /* an empty clip */
                z.b.n = z.out.n = 0;
                z.aos_in.n = z.aos_out.n = 0;
                pb_call c = { .a = &z.a, .b = &z.b, .out = &z.out, .aos_in = &z.aos_in, .aos_out = &z.aos_out,
                              .clip = &zclip, .offsets = &zero_offset, .params = { .axis = { 1, 0, 0 } } };
                rejects_empty[vi] = pb_run((pb_op)op, vars[vi], &c) == PB_ERR_EMPTY &&
                                    z.out.plane[PB_ROT_W][0] == 1.0f && z.out.plane[PB_POS_X][0] == 0.0f;
                bufs_free(&z);
            }
        }
        for (size_t vi = 0; vi < nv; vi++)
            for (int mi = 0; mi < nm; mi++) {
                pb_val_row r;
                memset(&r, 0, sizeof r);
                r.op = info->name;
                r.form = form_name(info, form);
                r.variant = pb_variant_name(vars[vi]);
                r.mode = pb_variant_mode(vars[vi]) == PB_MODE_NATIVE ? "native" : "emulated";
                r.metric = m[mi];
                r.max_err = accs[vi][mi].max;
                r.p99_err = percentile99(&accs[vi][mi]);
                r.ref_err = ref[mi].max;
                r.var_vs_ref = accs[vi][mi].vs_ref;
                memcpy(r.class_max, accs[vi][mi].class_max, sizeof r.class_max);
                double floor_ = pb_tolerance_floor(tol, m[mi].kind);
                r.bound = floor_ < 0 ? -1 : fmax(tol->k * r.ref_err, floor_);
                r.method_err = method_of >= 0 ? method_max[mi] : -1;
                r.method_bound = (info->flags & PB_OPF_EST) ? tol->method_bound : -1;
                r.nan = nan[vi];
                r.pad_bad = pad_bad[vi];
                r.rejects_empty = rejects_empty[vi];
                r.vel_consistency = (info->flags & PB_OPF_VELCHECK) && form != FORM_PER ? vel_worst : -1;
                r.vel_bound = (info->flags & PB_OPF_VELCHECK) && form != FORM_PER ? tol->vel_bound : -1;
                r.pass = r.nan == 0 && r.pad_bad == 0 && r.rejects_empty && (r.bound < 0 || r.max_err <= r.bound) &&
                         (r.vel_bound < 0 || r.vel_consistency <= r.vel_bound) &&
                         (r.method_bound < 0 || r.method_err <= r.method_bound);
                if (!r.pass) failures++;
                if (row_fn) row_fn(&r, user);
            }
    done:
        for (size_t vi = 0; vi < MAXV; vi++)
            for (int mi = 0; mi < PB_MAX_METRICS; mi++) free(accs[vi][mi].err);
        for (int mi = 0; mi < PB_MAX_METRICS; mi++) free(ref[mi].err);
        if (failures < 0) break;
    }
    free(err);
    pb_mocap_free(&mocap);
    return failures;
}

/* ---- report: a table line per op x variant (its worst metric), JSON rows ---- */
typedef struct {
    const pb_validate_opts *o;
    pb_val_row worst;
    int have, any_fail, rows;
    double worst_ratio;
} report;

static double ratio(const pb_val_row *r)
{
    if (!r->pass) return INFINITY;
    if (r->bound < 0) return -1;
    return r->bound > 0 ? r->max_err / r->bound : (r->max_err > 0 ? INFINITY : 0);
}

static void print_row(FILE *f, const pb_val_row *r, int fail)
{
    char method[16] = "-";
    if (r->method_err >= 0) snprintf(method, sizeof method, "%.2e", r->method_err);
    char bound[16] = "report";
    if (r->bound >= 0) snprintf(bound, sizeof bound, "%.2e", r->bound);
    char vel[16] = "-";
    if (r->vel_consistency >= 0) snprintf(vel, sizeof vel, "%.2e", r->vel_consistency);
    char opf[64];
    if (strcmp(r->form, "full") == 0) snprintf(opf, sizeof opf, "%s", r->op);
    else snprintf(opf, sizeof opf, "%s[%s]", r->op, r->form);
    fprintf(f, "%-28s %-11s %-8s %-10s %9.2e %9.2e %9.2e %9.2e %9s %9s %9s %5zu  %s\n", opf, r->variant, r->mode,
            r->metric.name, r->max_err, r->p99_err, r->ref_err, r->var_vs_ref, bound, method, vel, r->nan,
            fail ? (r->rejects_empty ? "FAIL" : "FAIL (n = 0 not rejected)") : "pass");
}

static void flush(report *rp)
{
    if (rp->have && !rp->o->verbose && rp->o->table) print_row(rp->o->table, &rp->worst, rp->any_fail);
    rp->have = 0;
    rp->any_fail = 0;
}

static void json_num(FILE *f, const char *key, double v)
{
    if (isfinite(v)) fprintf(f, "\"%s\": %.6g", key, v);
    else fprintf(f, "\"%s\": null", key);
}

static void on_row(const pb_val_row *r, void *user)
{
    report *rp = user;
    const pb_validate_opts *o = rp->o;
    if (rp->have && (strcmp(rp->worst.op, r->op) || strcmp(rp->worst.form, r->form) ||
                     strcmp(rp->worst.variant, r->variant)))
        flush(rp);
    if (!rp->have || ratio(r) > rp->worst_ratio) {
        rp->worst = *r;
        rp->worst_ratio = ratio(r);
    }
    rp->have = 1;
    rp->any_fail |= !r->pass;
    if (o->verbose && o->table) print_row(o->table, r, !r->pass);
    if (o->json) {
        FILE *f = o->json;
        fprintf(f, "%s\n  {\"op\": \"%s\", \"form\": \"%s\", \"variant\": \"%s\", \"mode\": \"%s\", \"metric\": \"%s\", "
                   "\"unit\": \"%s\", \"pass\": %s, ",
                rp->rows ? "," : "", r->op, r->form, r->variant, r->mode, r->metric.name, r->metric.unit,
                r->pass ? "true" : "false");
        json_num(f, "max_err", r->max_err); fputs(", ", f);
        json_num(f, "p99_err", r->p99_err); fputs(", ", f);
        json_num(f, "ref_err", r->ref_err); fputs(", ", f);
        json_num(f, "var_vs_ref", r->var_vs_ref); fputs(", ", f);
        if (r->bound >= 0) json_num(f, "bound", r->bound); else fputs("\"bound\": null", f);
        fputs(", ", f);
        if (r->method_err >= 0) json_num(f, "method_err", r->method_err); else fputs("\"method_err\": null", f);
        fputs(", ", f);
        if (r->method_bound >= 0) json_num(f, "method_bound", r->method_bound); else fputs("\"method_bound\": null", f);
        fputs(", ", f);
        if (r->vel_consistency >= 0) json_num(f, "vel_consistency", r->vel_consistency);
        else fputs("\"vel_consistency\": null", f);
        fputs(", ", f);
        if (r->vel_bound >= 0) json_num(f, "vel_bound", r->vel_bound); else fputs("\"vel_bound\": null", f);
        fprintf(f, ", \"nan\": %zu, \"padding_bad\": %zu, \"rejects_n0\": %s, \"classes\": {", r->nan, r->pad_bad,
                r->rejects_empty ? "true" : "false");
        for (int c = 0; c < PB_CLASSES; c++) {
            fprintf(f, "%s\"%s\": ", c ? ", " : "", pb_class_name((pb_class)c));
            fprintf(f, isfinite(r->class_max[c]) ? "%.6g" : "null", r->class_max[c]);
        }
        fputs("}}", f);
    }
    rp->rows++;
}

int pb_validate_report(const pb_validate_opts *o)
{
    report rp;
    memset(&rp, 0, sizeof rp);
    rp.o = o;
    if (o->table)
        fprintf(o->table, "%-28s %-11s %-8s %-10s %9s %9s %9s %9s %9s %9s %9s %5s  %s\n", "op", "variant", "mode",
                o->verbose ? "metric" : "worst", "max", "p99", "ref", "vs_ref", "bound", "method", "velchk", "nan",
                "verdict");
    if (o->json) fputs("[", o->json);
    int fails = pb_validate(o, on_row, &rp);
    flush(&rp);
    if (o->json) fputs("\n]\n", o->json);
    return fails;
}
