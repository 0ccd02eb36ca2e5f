/* runner.c — one op in one form: every case through the double oracle, the
 * float reference and every variant; errors accumulated per variant and
 * metric; the n = 0 check; the rows judged against the tolerance table. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "measure.h"

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
static double percentile99(acc *a)
{
    if (a->n == 0) return 0;
    sort_doubles(a->err, a->n);
    return quantile_sorted(a->err, a->n, 0.99);
}

/* Run the double oracle of op on inputs (da, db, AoS in da) into d. */
void pb_val_oracle(pb_op op, const pb_dpose *da, const pb_dpose *db, const pb_params *p, const pb_val_bufs *ctx,
                   pb_dpose *d)
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
    k.pal = d->pal;
    /* Outputs start at identity so planes an op does not write compare equal. */
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < d->n_padded; j++) d->plane[i][j] = pb_plane_identity(i);
    k.p = *p;
    pb_params_resolve_scale(pb_op_get(op), &k.p);   /* as pb_run does for the variants */
    k.skel = ctx->skel;
    k.offsets = ctx->offsets;
    k.per = ctx->per;
    if (pb_palette_width(pb_op_get(op)) && ctx->b.n != d->n) k.b_chars = ctx->per.characters;   /* the shared form */
    k.frames = ctx->frames;
    k.joints = ctx->joints;
    k.fps = ctx->fps;
    if (ctx->via.n)   /* the via form: the initial states; the harness checks the choice itself (via.c) */
        for (int i = PB_ROT_W; i <= PB_ROT_Z; i++) k.via[i] = ctx->dvia.plane[i];
    pb_ref_f64_table[op](&k);
}

/* Run variant v through the public entry point (so argument checks and
 * padding restoration are exercised too) into d. Outputs are pre-filled with
 * NaN so a lane a kernel forgets to write is caught. */
/* ip (NULL, or a copy of pose a, or with on_b of pose b): the op run in place in it (a = out = ip, or
 * b = out = ip) instead, b->out left as it is. */
static pb_status run_variant(pb_op op, const pb_op_info *info, int stat, const pb_variant *v, pb_val_bufs *b,
                             const pb_params *p, pb_dpose *d, const pb_pose *ip, int on_b)
{
    size_t n = ip ? 0 : b->out.n;
    pb_val_via_reset(b);
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < n; j++) b->out.plane[i][j] = NAN;
    float *aos_out[PB_AOS_ARRAYS] = { &b->aos_out.pos->x, &b->aos_out.rot->w, &b->aos_out.scl->x,
                                       &b->aos_out.vel->x, &b->aos_out.ang->x, &b->aos_out.svl->x };
    for (int a = 0; a < PB_AOS_ARRAYS; a++)
        for (size_t j = 0; j < b->aos_out.n * (size_t)pb_aos_width[a]; j++) aos_out[a][j] = NAN;
    for (size_t j = 0; j <= b->pal.n * PB_PALETTE_MAT_FLOATS; j++) b->pal.data[j] = NAN;   /* and the guard float */
    /* planes the op does not write: identity, to match the oracle */
    for (int g = 0; g < PB_GROUPS; g++)
        if (!(info->out & (1u << g)))
            for (int p = pb_group_first((pb_group)g); p < pb_group_first((pb_group)g) + pb_group_size((pb_group)g); p++)
                for (size_t j = 0; j < n; j++) b->out.plane[p][j] = pb_plane_identity(p);
    pb_clip clip = { b->frames, b->joints, b->fps > 0 ? 1 / b->fps : 0, b->fps, 0, b->a };
    /* the static form: the same planes seen as static poses (no velocity planes or arrays) */
    pb_pose sa = ip && !on_b ? *ip : b->a, sb = ip && on_b ? *ip : b->b, so = b->out;
    pb_pose_aos ai = b->aos_in, ao = b->aos_out;
    if (stat) {
        for (int i = PB_STATIC_PLANES; i < PB_PLANES; i++) sa.plane[i] = sb.plane[i] = so.plane[i] = NULL;
        ai.vel = ai.ang = ai.svl = ao.vel = ao.ang = ao.svl = NULL;
        clip.pose = sa;
    }
    pb_call c = { .a = &sa, .b = &sb, .out = ip ? (on_b ? &sb : &sa) : &so, .aos_in = &ai, .aos_out = &ao,
                  .skel = b->skel, .clip = (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) ? &clip : NULL,
                  .offsets = b->offsets, .palette = &b->pal, .via = b->via.n ? &b->via : NULL,
                  .params = *p, .per = b->per };
    pb_status s = pb_run(op, v, &c);
    if (s != PB_OK || ip) return s;
    pb_dpose_from_pose(d, &b->out);   /* the full pose: planes a static run leaves alone are not compared */
    /* AoS outputs only exist for AoS ops (whose n is the inputs'; sampling outputs are larger) */
    if (info->flags & PB_OPF_AOS_OUT) pb_dpose_from_aos(d, &b->aos_out);
    int w = pb_palette_width(info);
    for (size_t j = 0; j < b->pal.n * (size_t)w; j++) d->pal[j] = b->pal.data[j];
    /* a palette op writes exactly n entries: the float after them must be untouched (NaN) */
    if (w && !isnan(b->pal.data[b->pal.n * (size_t)w]))
        return pb_fail(PB_ERR_SIZE, "%s: wrote past the palette's %zu entries", info->name, b->pal.n);
    return PB_OK;
}

/* Which forms apply: static poses for the ops that need no velocities (those
 * with optional velocity groups, and those reading and writing whole
 * transforms only), the other scale mode for the ops that read params.scale,
 * per-character parameters for the ops with parameters, per-axis half-lives
 * for the ops with a half-life. */
#define PARAM_FLAGS (PB_OPF_ALPHA | PB_OPF_ALPHA_VEL | PB_OPF_TIME | PB_OPF_DURATION | PB_OPF_HALFLIFE | PB_OPF_TIMESCALE)
#define NO_PER_FLAGS (PB_OPF_SAMPLE | PB_OPF_CLIP_IN | PB_OPF_AOS_IN | PB_OPF_AOS_OUT | PB_OPF_CHAIN | PB_OPF_MAT_OUT | \
                      PB_OPF_DQ_OUT | PB_OPF_NCHAIN | PB_OPF_FOOT)
/* ccd_cone: cones per chain (the per form) and per joint (the axes form: per.joint_cone) */
#define CONED_CHAIN(info) (((info)->flags & (PB_OPF_NCHAIN | PB_OPF_CONE)) == (PB_OPF_NCHAIN | PB_OPF_CONE))
#define T3_GROUPS ((1u << PB_G_POS) | (1u << PB_G_ROT) | (1u << PB_G_SCL))
#define VEL_GROUPS ((1u << PB_G_VEL) | (1u << PB_G_ANG) | (1u << PB_G_SVL))
int pb_val_form_applies(const pb_op_info *info, int form)
{
    switch (form) {
    case PB_FORM_FULL: return 1;
    case PB_FORM_STATIC:
        return info->opt || ((info->out & T3_GROUPS) == T3_GROUPS && !((info->in_a | info->in_b | info->out) & VEL_GROUPS));
    case PB_FORM_SCALE_ALT: return (info->flags & (PB_OPF_SCALE_LIN | PB_OPF_SCALE_EXP)) != 0;
    case PB_FORM_AXES: return ((info->flags & PB_OPF_HALFLIFE) && !(info->flags & NO_PER_FLAGS)) || CONED_CHAIN(info);
    case PB_FORM_HALFLIVES:
    case PB_FORM_CLAMP:
    case PB_FORM_BOUNCE: return (info->flags & PB_OPF_HALFLIFE) && !(info->flags & NO_PER_FLAGS);
    case PB_FORM_VIA: return PB_OP_TAKES_VIA(info);
    case PB_FORM_SHARED: return (info->flags & (PB_OPF_MAT_OUT | PB_OPF_DQ_OUT)) != 0;
    default: return ((info->flags & PARAM_FLAGS) && !(info->flags & NO_PER_FLAGS)) || CONED_CHAIN(info);
    }
}
/* The op as a form sees it: full poses write the optional groups too. */
static pb_op_info form_info(const pb_op_info *info, int form)
{
    pb_op_info e = *info;
    if (form == PB_FORM_STATIC) e.opt = 0;
    else e.out |= e.opt;
    return e;
}
static pb_scale_mode alt_scale(const pb_op_info *info)
{
    return (info->flags & PB_OPF_SCALE_LIN) ? PB_SCALE_EXP : PB_SCALE_LINEAR;
}
static const char *form_name(const pb_op_info *info, int form)
{
    if (form == PB_FORM_STATIC) return "static";
    if (form == PB_FORM_SCALE_ALT) return alt_scale(info) == PB_SCALE_EXP ? "scale=exp" : "scale=linear";
    if (form == PB_FORM_PER) return "per";
    if (form == PB_FORM_AXES) return CONED_CHAIN(info) ? "joint_cone" : "halflife_axis";
    if (form == PB_FORM_HALFLIVES) return "halflives";
    if (form == PB_FORM_CLAMP) return "limits=clamp";
    if (form == PB_FORM_BOUNCE) return "limits=bounce";
    if (form == PB_FORM_VIA) return "via";
    if (form == PB_FORM_SHARED) return "bind=per joint";
    return "full";
}

/* The per-op state: errors per variant and metric, and the reference's. */
typedef struct {
    pb_metric m[PB_MAX_METRICS];
    int nm;
    acc accs[PB_VAL_MAXV][PB_MAX_METRICS], ref[PB_MAX_METRICS];
    double method_max[PB_MAX_METRICS];
    size_t nan[PB_VAL_MAXV], pad_bad[PB_VAL_MAXV], state_bad[PB_VAL_MAXV], inplace_bad[PB_VAL_MAXV];
    int rejects_empty[PB_VAL_MAXV];
    double vel_worst;
    size_t ill_posed, elements;   /* PERTURBED ops: elements left out, of all */
} op_state;

static void op_state_free(op_state *st)
{
    for (size_t vi = 0; vi < PB_VAL_MAXV; vi++)
        for (int mi = 0; mi < PB_MAX_METRICS; mi++) free(st->accs[vi][mi].err);
    for (int mi = 0; mi < PB_MAX_METRICS; mi++) free(st->ref[mi].err);
}

/* Where the velocity check has nothing to say (see the comments inside). */
static int velcheck_applies(const pb_op_info *info, int form, const pb_vcase *cs)
{
    if (!(info->flags & PB_OPF_VELCHECK) || form == PB_FORM_PER || cs->n > 4096) return 0;
    /* Not on degenerate parameters, and not on near-180-degree pairs: there
     * the shorter arc can switch within the step and has no derivative. */
    if (cs->cls == PB_CLASS_DEGENERATE || cs->cls == PB_CLASS_NEAR_PI || cs->cls == PB_CLASS_MIXED) return 0;
    /* Nor where time sits on the end of a blend: the cubic decay and smoothstep are C1
     * there, and a central difference straddling the kink in the second derivative errs
     * by ~h |x''| / 2 (measured 1.4e-4), which says nothing about the formulas. */
    if ((info->flags & PB_OPF_DURATION) && fabs((double)cs->p.time - cs->p.duration) < 4 * PB_VAL_VEL_H) return 0;
    /* Straight chains and zero-length bones have no bend plane of their own: moved
     * by their velocities they bend one way at t - h and the other at t + h, and the
     * solution jumps between the two (the fallback axis is only for standing still). */
    if ((info->flags & (PB_OPF_CHAIN | PB_OPF_FOOT)) && (cs->cls == PB_CLASS_IDENTITY || cs->cls == PB_CLASS_ANTIPODAL))
        return 0;
    /* Sampling: times on keys sit on velocity discontinuities; and only power-of-two
     * rates map a 2^-17 s step to an exact frame-position step in float. */
    if (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) {
        int e2;
        if (cs->cls == PB_CLASS_NEAR_IDENTICAL || frexpf(cs->fps, &e2) != 0.5f) return 0;
    }
    /* (the per form moves uniform parameters only: its velocities are checked in the full form) */
    return 1;
}

/* Chain IK (PB_OPF_NCHAIN) is not continuous everywhere: a turn's axis is set
 * by two nearly (anti)parallel directions, a cone limit by a bone nearly
 * opposite its axis, and there float inputs do not determine the answer (the
 * double oracle itself lands up to 2 rad away from the float reference:
 * measured, ccd at seed 1). So for these ops the oracle also runs on the
 * inputs nudged by +-PERTURB_REL (relative to max(|x|, 1/16), so exact zeros
 * move too; the signs from a hash of the index):
 *  - an element whose rotation either nudge moves by more than ILL_POSED_RAD
 *    is within rounding reach of a discontinuity, or amplifies input changes
 *    more than 1e-3 / 2^-18 = 262: it is left out of every error (the row
 *    counts them) and judged by the invariants of tests/test_chain_ik.c;
 *  - elsewhere the nudges' effect scaled to one float ulp (x 2^-23 /
 *    PERTURB_REL, linear there) is a second estimate, beside the float
 *    reference's own error, of the rounding error the element amplifies:
 *    the reference error the bound scales is the larger of the two.
 * Without it the bound was k x one sample of a heavy tail: a variant whose
 * rounding met a sharper spot than the reference's failed (measured: neon
 * native 3.8e-3 rad against the reference's worst 8.0e-4, ccd_cone --quick). */
/* Joint limits (the limits forms) likewise: an axis within rounding reach of a bound is held or
 * reflected in one computation and free in the other, which moves the angular velocity by up to
 * twice its rate (the rotation stays continuous); limits_skip finds such elements, which are
 * left out the same way and judged by tests/test_limits.c. */
/* The via form too: its slerp has no direction where the arc's two ends are the same rotation with
 * opposite signs (a whole turn), and the choice of b's sign none at 90 degrees (via.c). */
#define PERTURBED(info, form) \
    (((info)->flags & PB_OPF_NCHAIN) != 0 || (form) == PB_FORM_CLAMP || (form) == PB_FORM_BOUNCE || (form) == PB_FORM_VIA)
#define PERTURB_REL 0x1p-18   /* 32 ulps of a float */
#define ILL_POSED_RAD 1e-3

/* Joint limits: the nudges move a widened bound (the source's own l0 + slack) with the
 * extrapolation, so they cannot see an axis sitting on it. The decisions are found directly instead: the oracle's unlimited extrapolation (the same call
 * without per.limits, as extrapolate_decayed), its l per axis in double, and the distance to
 * every point where the rate jumps (the widened bounds; with bounce every multiple of the width
 * from lo) and to the half turn where l's shorter arc wraps. Elements closer than LIMIT_MARGIN
 * rad (the float l of a 15 rad extrapolation is good to ~1e-6) are ill-posed. */
#define LIMIT_MARGIN 2e-5
typedef struct { double w, x, y, z; } lq;
static lq lq_mul(lq a, lq b)
{
    return (lq){ a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}
static lq lq_at(const pb_dpose *p, size_t e)
{
    return (lq){ p->plane[PB_ROT_W][e], p->plane[PB_ROT_X][e], p->plane[PB_ROT_Y][e], p->plane[PB_ROT_Z][e] };
}
/* 2 log(q), shorter arc; *wrap: how far from the half turn */
static void lq_saa(lq q, double v[3], double *wrap)
{
    double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    if (q.w < 0) n = -n;
    double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z) / fabs(n), ang = 2 * atan2(s, q.w / n);
    double k = s > 0 ? ang / s / n : 2 / n;
    v[0] = q.x * k, v[1] = q.y * k, v[2] = q.z * k;
    *wrap = 3.14159265358979323846 - ang;
}
static int limits_skip(const pb_val_bufs *b, const pb_params *p, unsigned char *skip)
{
    pb_dpose ext;
    pb_val_bufs nb = *b;   /* the same call without limits (a shallow view: only read) */
    nb.per.limits = NULL;
    if (pb_dpose_alloc(&ext, b->oracle.n)) return -1;
    pb_val_oracle(PB_OP_extrapolate_decayed, &b->da, &b->db, p, &nb, &ext);
    const pb_joint_limits *L = b->per.limits;
    size_t C = b->per.characters;
    for (size_t e = 0; e < b->oracle.n; e++) {
        size_t j = e / C;
        if (b->skel && b->skel->parents[j] < 0) continue;   /* roots are not extrapolated */
        lq ir = L->rest ? (lq){ L->rest[4 * j], -L->rest[4 * j + 1], -L->rest[4 * j + 2], -L->rest[4 * j + 3] }
                        : (lq){ 1, 0, 0, 0 };
        double x[3], x0[3], wrap, wrap0, margin;
        lq_saa(lq_mul(ir, lq_at(&b->da, e)), x0, &wrap0);
        lq_saa(lq_mul(ir, lq_at(&ext, e)), x, &wrap);
        margin = wrap;
        for (int a = 0; a < 3; a++) {
            double lo = L->lo[3 * j + (size_t)a], hi = L->hi[3 * j + (size_t)a];
            if (x0[a] < lo) lo = x0[a] - (double)PB_LIMIT_SLACK;
            if (x0[a] > hi) hi = x0[a] + (double)PB_LIMIT_SLACK;
            double w = hi - lo;
            double d = L->mode == PB_LIMIT_BOUNCE && w > 0 ? fabs(remainder(x[a] - lo, w))
                                                            : fmin(fabs(x[a] - lo), fabs(x[a] - hi));
            if (!(d >= margin)) margin = d;   /* (no fmin reduction: aarch64 gcc 12 ICE) */
        }
        skip[e] |= !(margin >= LIMIT_MARGIN);
    }
    pb_dpose_free(&ext);
    return 0;
}

/* pert[mi * n + i]: metric mi of the nudged oracles against the oracle (the
 * larger), scaled to one ulp; skip[i]: element i ill-posed. 0, or -1 out of memory. */
static int perturbed_oracle(pb_op op, const pb_vcase *cs, const pb_val_bufs *b, const op_state *st, double *pert,
                            unsigned char *skip)
{
    const size_t n = b->out.n;
    pb_dpose in[2], o;
    double *e = malloc(n * sizeof *e);
    int bad = pb_dpose_alloc(&in[0], b->da.n) | pb_dpose_alloc(&in[1], b->db.n) | pb_dpose_alloc(&o, b->oracle.n) |
              !e;
    memset(skip, 0, n);
    for (size_t i = 0; i < (size_t)st->nm * n; i++) pert[i] = 0;
    for (int sign = -1; sign <= 1 && !bad; sign += 2) {
        for (int k = 0; k < 2; k++) {
            const pb_dpose *src = k ? &b->db : &b->da;
            for (int i = 0; i < PB_PLANES; i++)
                for (size_t j = 0; j < src->n_padded; j++) {
                    uint32_t h = (uint32_t)((j * PB_PLANES + (size_t)i) * 2 + (size_t)k) * 2654435761u;
                    double x = src->plane[i][j];   /* zeros moved too: straight chains are where it matters */
                    in[k].plane[i][j] = x + sign * ((h >> 16) & 1 ? PERTURB_REL : -PERTURB_REL) * fmax(fabs(x), 0.0625);
                }
            for (int a = 0; a < PB_AOS_ARRAYS; a++)
                memcpy(in[k].aos[a], src->aos[a], src->n * (size_t)pb_aos_width[a] * sizeof(double));
        }
        pb_val_oracle(op, &in[0], &in[1], &cs->p, b, &o);
        for (int mi = 0; mi < st->nm; mi++) {
            pb_metric_eval(&st->m[mi], &o, &b->oracle, e);
            for (size_t i = 0; i < n; i++) {
                if (st->m[mi].kind == PB_M_ROT_ANGLE) skip[i] |= !(e[i] <= ILL_POSED_RAD);
                pert[(size_t)mi * n + i] = fmax(pert[(size_t)mi * n + i], e[i] * (0x1p-23 / PERTURB_REL));
            }
        }
    }
    pb_dpose_free(&in[0]);
    pb_dpose_free(&in[1]);
    pb_dpose_free(&o);
    free(e);
    if (!bad && b->per.limits) bad = limits_skip(b, &cs->p, skip);
    if (!bad && b->via.n) bad = pb_val_via_skip(b, &cs->p, skip);
    return bad ? -1 : 0;
}

/* err without the skipped elements (in place); their count. */
static size_t drop_skipped(double *err, const unsigned char *skip, size_t n)
{
    if (!skip) return n;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!skip[i]) err[m++] = err[i];
    return m;
}

/* Ops whose output is a pose of the inputs' elements (not sampling, AoS or palettes): pb_run takes out ==
 * a or out == b (exactly the same pose), and the result must be the same bits as into a separate out. */
static int inplace_applies(const pb_op_info *info, const pb_val_bufs *b)
{
    const unsigned other = PB_OPF_SAMPLE | PB_OPF_CLIP_IN | PB_OPF_AOS_IN | PB_OPF_AOS_OUT | PB_OPF_MAT_OUT | PB_OPF_DQ_OUT;
    return info->in_a && info->out && !(info->flags & other) && b->a.n == b->out.n;
}
/* The op in place in a copy of a (on_b: of b): the elements whose written planes differ in any bit from
 * the separate run's (in b->out), n + 1 if the in-place call failed, SIZE_MAX out of memory. */
static size_t inplace_run(pb_op op, const pb_op_info *info, int stat, const pb_variant *v, pb_val_bufs *b,
                          const pb_params *p, int on_b)
{
    const pb_pose *in = on_b ? &b->b : &b->a;
    pb_pose ip;
    if (pb_pose_alloc(&ip, in->n) != PB_OK) return SIZE_MAX;
    for (int i = 0; i < PB_PLANES; i++) memcpy(ip.plane[i], in->plane[i], in->stride * sizeof(float));
    size_t n = b->out.n, bad = 0;
    if (run_variant(op, info, stat, v, b, p, NULL, &ip, on_b) != PB_OK) bad = n + 1;
    for (size_t j = 0; j < n && !bad; j++) {
        int differs = 0;
        for (int g = 0; g < PB_GROUPS; g++)
            if ((info->out & (1u << g)) && !(stat && g >= PB_G_VEL))
                for (int q = pb_group_first((pb_group)g); q < pb_group_first((pb_group)g) + pb_group_size((pb_group)g); q++)
                    differs |= memcmp(&ip.plane[q][j], &b->out.plane[q][j], sizeof(float)) != 0;
        bad += (size_t)differs;
    }
    pb_pose_free(&ip);
    return bad;
}
static size_t inplace_bad(pb_op op, const pb_op_info *info, int stat, const pb_variant *v, pb_val_bufs *b,
                          const pb_params *p)
{
    size_t bad = inplace_run(op, info, stat, v, b, p, 0);
    if (bad != SIZE_MAX && info->in_b && b->b.n == b->out.n) {
        size_t bb = inplace_run(op, info, stat, v, b, p, 1);
        bad = bb == SIZE_MAX ? bb : bad + bb;
    }
    return bad;
}

/* One case: oracle, method oracle, velocity check, reference, every variant.
 * Errors are taken over the outputs the case has (b->out.n: for clip ops
 * frames x joints keys, not the case's n). */
static pb_status run_case(const pb_val_run *run, pb_op op, int form, const pb_op_info *info, const pb_vcase *cs,
                          size_t ci, op_state *st)
{
    const int method_of = pb_op_row_get(op)->method_of, stat = form == PB_FORM_STATIC;
    pb_val_bufs b;
    pb_status s = pb_val_case_build(&b, cs, info, form, &run->mocap, run->o->seed, ci);
    if (s != PB_OK) return s;
    const size_t n = b.out.n;
    double *err = b.err;
    pb_val_oracle(op, &b.da, &b.db, &cs->p, &b, &b.oracle);
    double *pert = NULL;
    unsigned char *skip = NULL;
    if (PERTURBED(info, form)) {
        pert = malloc((size_t)st->nm * n * sizeof *pert);
        skip = malloc(n);
        if (!pert || !skip || perturbed_oracle(op, cs, &b, st, pert, skip))
            s = pb_fail(PB_ERR_NOMEM, "validate: out of memory (perturbed oracle)");
        for (size_t i = 0; i < n && s == PB_OK; i++) st->ill_posed += skip[i];
        st->elements += n;
    }
    if (method_of >= 0) pb_val_oracle((pb_op)method_of, &b.da, &b.db, &cs->p, &b, &b.method);
    if (velcheck_applies(info, form, cs)) {
        int ok;
        double e = pb_val_vel_consistency(op, info, &b, &cs->p, skip, &ok);
        if (!ok) s = pb_fail(PB_ERR_NOMEM, "validate: out of memory (velocity check)");
        else if (!(e <= st->vel_worst)) st->vel_worst = e;
    }
    if (s == PB_OK) s = run_variant(op, info, stat, run->scalar, &b, &cs->p, &b.ref, NULL, 0);
    for (int mi = 0; mi < st->nm && s == PB_OK; mi++) {
        pb_metric_eval(&st->m[mi], &b.ref, &b.oracle, err);
        if (pert)
            for (size_t i = 0; i < n; i++) err[i] = fmax(err[i], pert[(size_t)mi * n + i]);
        if (acc_push(&st->ref[mi], err, drop_skipped(err, skip, n), cs->cls))
            s = pb_fail(PB_ERR_NOMEM, "validate: out of memory");
        if (method_of >= 0) {
            /* Method error in absolute terms for scalar approximations:
             * fast_negexp's relative error where exp(-x) ~ 1e-7 says nothing useful. */
            pb_metric mm = st->m[mi];
            if (mm.kind == PB_M_SCL_REL) mm.kind = PB_M_SCL_ABS;
            pb_metric_eval(&mm, &b.oracle, &b.method, err);
            for (size_t i = 0; i < n; i++) st->method_max[mi] = fmax(st->method_max[mi], err[i]);
        }
    }
    for (size_t vi = 0; vi < run->nv && s == PB_OK; vi++) {
        s = run_variant(op, info, stat, run->vars[vi], &b, &cs->p, &b.test, NULL, 0);
        if (s != PB_OK) break;
        if (pb_pose_check(&b.out, "out") != PB_OK) st->pad_bad[vi]++;
        st->state_bad[vi] += pb_val_via_bad(&b, skip);
        if (inplace_applies(info, &b)) {
            size_t bad = inplace_bad(op, info, stat, run->vars[vi], &b, &cs->p);
            if (bad == SIZE_MAX) s = pb_fail(PB_ERR_NOMEM, "validate: out of memory (in-place run)");
            else st->inplace_bad[vi] += bad;
        }
        st->nan[vi] += pb_count_nan(info, &b.test, &b.oracle);
        for (int mi = 0; mi < st->nm && s == PB_OK; mi++) {
            acc *a = &st->accs[vi][mi];
            pb_metric_eval(&st->m[mi], &b.test, &b.oracle, err);
            if (acc_push(a, err, drop_skipped(err, skip, n), cs->cls))
                s = pb_fail(PB_ERR_NOMEM, "validate: out of memory");
            pb_metric_eval(&st->m[mi], &b.test, &b.ref, err);
            for (size_t i = 0, m = drop_skipped(err, skip, n); i < m; i++) a->vs_ref = fmax(a->vs_ref, err[i]);
        }
    }
    free(pert);
    free(skip);
    pb_val_bufs_free(&b);
    if (s != PB_OK)
        pb_fail(s, "validate: %s, case %s n=%zu: %s", info->name, pb_class_name(cs->cls), cs->n, pb_last_error());
    return s;
}

/* n = 0 must be rejected cleanly by every variant, with nothing written. */
static int rejects_empty(pb_op op, const pb_op_info *info, const pb_variant *v)
{
    pb_val_bufs z;
    if (pb_val_bufs_alloc(&z, 1, 1) != 0) return 0;
    /* sampling: a valid one-key clip, an empty output */
    float zero_offset = 0;
    pb_clip zclip = { 1, 1, 1, 1, 0, z.a };
    if (!(info->flags & PB_OPF_SAMPLE)) z.a.n = 0;
    if (info->flags & PB_OPF_CLIP_IN) zclip.frames = 0;   /* an empty clip */
    z.b.n = z.out.n = 0;
    z.aos_in.n = z.aos_out.n = 0;
    pb_call c = { .a = &z.a, .b = &z.b, .out = &z.out, .aos_in = &z.aos_in, .aos_out = &z.aos_out,
                  .clip = &zclip, .offsets = &zero_offset, .params = { .axis = { 1, 0, 0 } } };
    int ok = pb_run(op, v, &c) == PB_ERR_EMPTY && z.out.plane[PB_ROT_W][0] == 1.0f && z.out.plane[PB_POS_X][0] == 0.0f;
    pb_val_bufs_free(&z);
    return ok;
}

int pb_val_op(const pb_val_run *run, pb_op op, int form)
{
    const pb_op_info form_view = form_info(pb_op_get(op), form);
    const pb_op_info *info = &form_view;
    const int method_of = pb_op_row_get(op)->method_of;
    const pb_tolerance *tol = pb_tolerance_for(info->name);
    if (!tol) {
        pb_fail(PB_ERR_OP, "op '%s' has no row in the tolerance table", info->name);
        return -1;
    }
    op_state *st = calloc(1, sizeof *st);
    pb_vcase *cases = malloc(PB_VAL_OP_CASES * sizeof *cases);
    if (!st || !cases) {
        free(st);
        free(cases);
        pb_fail(PB_ERR_NOMEM, "validate: out of memory");
        return -1;
    }
    st->nm = pb_metrics_for(info, st->m);
    int failures = 0;
    size_t ncases = pb_val_op_cases(&run->cases, info, &run->mocap, run->o->seed, cases);
    for (size_t ci = 0; ci < ncases && failures == 0; ci++) {
        pb_vcase cs = cases[ci];
        if (form == PB_FORM_SCALE_ALT) cs.p.scale = alt_scale(info);
        if (run_case(run, op, form, info, &cs, ci, st) != PB_OK) failures = -1;
    }
    for (size_t vi = 0; vi < run->nv && failures == 0; vi++) st->rejects_empty[vi] = rejects_empty(op, info, run->vars[vi]);
    for (size_t vi = 0; vi < run->nv && failures >= 0; vi++)
        for (int mi = 0; mi < st->nm; mi++) {
            const acc *a = &st->accs[vi][mi];
            pb_val_row r;
            memset(&r, 0, sizeof r);
            r.op = info->name;
            r.form = form_name(info, form);
            r.variant = pb_variant_name(run->vars[vi]);
            r.mode = pb_variant_mode(run->vars[vi]) == PB_MODE_NATIVE ? "native" : "emulated";
            r.metric = st->m[mi];
            r.max_err = a->max;
            r.p99_err = percentile99(&st->accs[vi][mi]);
            r.ref_err = st->ref[mi].max;
            r.var_vs_ref = a->vs_ref;
            memcpy(r.class_max, a->class_max, sizeof r.class_max);
            double floor_ = pb_tolerance_floor(tol, st->m[mi].kind);
            r.bound = floor_ < 0 ? -1 : fmax(tol->k * r.ref_err, floor_);
            r.method_err = method_of >= 0 ? st->method_max[mi] : -1;
            r.method_bound = (info->flags & PB_OPF_EST) ? tol->method_bound : -1;
            r.nan = st->nan[vi];
            r.pad_bad = st->pad_bad[vi];
            r.state_bad = st->state_bad[vi];
            r.inplace_bad = st->inplace_bad[vi];
            r.rejects_empty = st->rejects_empty[vi];
            r.ill_posed = st->ill_posed;
            r.elements = st->elements;
            int velcheck = (info->flags & PB_OPF_VELCHECK) && form != PB_FORM_PER;
            r.vel_consistency = velcheck ? st->vel_worst : -1;
            r.vel_bound = velcheck ? tol->vel_bound : -1;
            r.pass = r.nan == 0 && r.pad_bad == 0 && r.state_bad == 0 && r.inplace_bad == 0 && r.rejects_empty && (r.bound < 0 || r.max_err <= r.bound) &&
                     (r.vel_bound < 0 || r.vel_consistency <= r.vel_bound) &&
                     (r.method_bound < 0 || r.method_err <= r.method_bound);
            if (!r.pass) failures++;
            if (run->row_fn) run->row_fn(&r, run->user);
        }
    op_state_free(st);
    free(st);
    free(cases);
    return failures;
}
