/* gen.c — deterministic inputs for validation: seeded random poses and the
 * edge classes where pose maths breaks (identical, antipodal, 180 degrees,
 * tiny angles, zero velocities). Rotations are built in double and rounded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "validate.h"

#define PB_PI 3.14159265358979323846

static const char *const class_names[PB_CLASSES] = {
    "random", "identity", "identical", "near_identical", "antipodal", "near_pi", "zero_vel", "degenerate", "mixed", "mocap"
};
const char *pb_class_name(pb_class c) { return (unsigned)c < PB_CLASSES ? class_names[c] : "?"; }

/* The one generator (src/rng.h), wrapped so draws read as next(&r) / uni(&r). */
typedef struct { uint64_t s; } rng;
static uint64_t next(rng *r) { return pb_rng_next(&r->s); }
static double uni(rng *r) { return pb_rng_unit01d(&r->s); } /* [0,1) */
static double range(rng *r, double lo, double hi) { return lo + (hi - lo) * uni(r); }
static double logu(rng *r, double lo, double hi) { return exp(range(r, log(lo), log(hi))); }

typedef struct { double w, x, y, z; } dq;
static dq dq_mul(dq a, dq b)
{
    dq r = { a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
             a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
    return r;
}
static dq dq_random(rng *r) /* uniform on SO(3) (Shoemake), both signs */
{
    double u1 = uni(r), u2 = 2 * PB_PI * uni(r), u3 = 2 * PB_PI * uni(r);
    double a = sqrt(1 - u1), b = sqrt(u1);
    dq q = { a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3) };
    return q;
}
static void random_axis(rng *r, double v[3])
{
    double len;
    do {
        v[0] = range(r, -1, 1); v[1] = range(r, -1, 1); v[2] = range(r, -1, 1);
        len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (len < 0.1 || len > 1);
    v[0] /= len; v[1] /= len; v[2] /= len;
}
static dq dq_axis_angle(rng *r, double angle)
{
    double ax[3];
    random_axis(r, ax);
    double s = sin(angle / 2);
    dq q = { cos(angle / 2), s * ax[0], s * ax[1], s * ax[2] };
    return q;
}
static dq dq_flip(rng *r, dq q)
{
    if (next(r) & 1) { q.w = -q.w; q.x = -q.x; q.y = -q.y; q.z = -q.z; }
    return q;
}

static void put_q(pb_pose *p, size_t i, dq q)
{
    p->plane[PB_ROT_W][i] = (float)q.w; p->plane[PB_ROT_X][i] = (float)q.x;
    p->plane[PB_ROT_Y][i] = (float)q.y; p->plane[PB_ROT_Z][i] = (float)q.z;
}
static dq get_q(const pb_pose *p, size_t i)
{
    dq q = { p->plane[PB_ROT_W][i], p->plane[PB_ROT_X][i], p->plane[PB_ROT_Y][i], p->plane[PB_ROT_Z][i] };
    return q;
}
/* scale x 2 log(q) in double: the scaled angle-axis (scale 1) or the log
 * (scale 1/2), used as "ang" input so exp-type ops see angles spanning tiny to
 * their full range in the same classes as the rotations. */
static void put_saa(pb_pose *p, size_t i, dq q, double scale)
{
    double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    double f = scale * (s == 0 ? 2 : 2 * atan2(s, q.w) / s);
    p->plane[PB_ANG_X][i] = (float)(f * q.x);
    p->plane[PB_ANG_Y][i] = (float)(f * q.y);
    p->plane[PB_ANG_Z][i] = (float)(f * q.z);
}

/* An element of class c at index i of both poses. */
static void gen_element(pb_pose *a, pb_pose *b, size_t i, pb_class c, rng *r, const pb_op_info *info)
{
    /* Start from independent random values for every plane. */
    for (int g = 0; g < 2; g++) {
        pb_pose *p = g ? b : a;
        for (int j = 0; j < 3; j++) {
            p->plane[PB_POS_X + j][i] = (float)range(r, -2, 2);
            p->plane[PB_SCL_X + j][i] = (float)exp(range(r, -1, 1));
            p->plane[PB_VEL_X + j][i] = (float)range(r, -5, 5);
            p->plane[PB_ANG_X + j][i] = (float)range(r, -10, 10);
            p->plane[PB_SVL_X + j][i] = (float)range(r, -1, 1);
        }
    }
    dq qa = dq_random(r), qb = dq_random(r);
    switch (c) {
    case PB_CLASS_RANDOM:
    case PB_CLASS_ZERO_VEL:
    case PB_CLASS_MIXED:
        break;
    case PB_CLASS_IDENTITY:
        for (int j = 0; j < PB_PLANES; j++) a->plane[j][i] = b->plane[j][i] = pb_plane_identity(j);
        qa = qb = (dq){ 1, 0, 0, 0 };
        break;
    case PB_CLASS_IDENTICAL:
        for (int j = 0; j < PB_PLANES; j++) b->plane[j][i] = a->plane[j][i];
        qb = qa;
        break;
    case PB_CLASS_NEAR_IDENTICAL: {
        if (next(r) & 1) qa = dq_flip(r, dq_axis_angle(r, logu(r, 1e-7, 1e-2))); /* tiny rotation itself */
        qb = dq_mul(qa, dq_axis_angle(r, logu(r, 1e-7, 1e-2)));
        for (int j = 0; j < PB_PLANES; j++) {
            double d = logu(r, 1e-7, 1e-2) * ((next(r) & 1) ? 1 : -1);
            b->plane[j][i] = (float)(a->plane[j][i] * (1 + d));
        }
        break;
    }
    case PB_CLASS_ANTIPODAL:
        qb = (dq){ -qa.w, -qa.x, -qa.y, -qa.z };
        break;
    case PB_CLASS_NEAR_PI: {
        if (next(r) & 1) qa = dq_flip(r, dq_axis_angle(r, PB_PI - logu(r, 1e-5, 1e-2))); /* a itself near 180 deg */
        /* (Not for ops that extrapolate a before blending it, those reading a
         * half-life: p a stays exactly 180 degrees from b for whole families of
         * p — with t = -s, every p = (c, 0, y, z) — but no longer bit for bit,
         * so float and double round the tie to opposite arcs.) */
        if (next(r) % 4 == 0 && !(info->flags & PB_OPF_HALFLIFE)) {
            /* Exactly 180 degrees: b = (-s x, s w, t z, -t y) with signs s, t has
             * dot(a, b) = s(-wx + xw) + t(yz - zy): each pair cancels exactly
             * before the pairs are summed, in float and double, in the
             * reference's order and the kernels', so every implementation
             * sees the same exact tie (dot = 0, no hemisphere flip). */
            float w = (float)qa.w, x = (float)qa.x, y = (float)qa.y, z = (float)qa.z;
            double sg = (next(r) & 1) ? 1 : -1, tg = (next(r) & 1) ? 1 : -1;
            qb = (dq){ -sg * x, sg * w, tg * z, -tg * y };
            qa = (dq){ w, x, y, z };
        } else {
            /* 180 deg - eps with eps >= 1e-5: |dot| >= 5e-6, far above float
             * rounding of the dot product (~1e-7), so the shorter arc is
             * well defined in float. Closer ties are ill-posed in float. */
            qb = dq_flip(r, dq_mul(qa, dq_axis_angle(r, PB_PI - logu(r, 1e-5, 1e-2))));
        }
        break;
    }
    default:
        break;
    }
    if (c == PB_CLASS_ZERO_VEL)
        for (int g = 0; g < 2; g++)
            for (int j = PB_VEL_X; j <= PB_SVL_Z; j++) (g ? b : a)->plane[j][i] = 0.0f;
    put_q(a, i, qa);
    put_q(b, i, qb);
    if (c != PB_CLASS_ZERO_VEL && c != PB_CLASS_IDENTITY) {
        double f = (info->flags & PB_OPF_LOG_IN) ? 0.5 : 1.0;
        put_saa(a, i, get_q(a, i), f);
        put_saa(b, i, get_q(b, i), f);
    }

    if (info->flags & PB_OPF_UNNORM_IN) {
        /* Non-unit inputs from 1e-3 to 1e3 in length; zero quaternions in the identity class. */
        double s = c == PB_CLASS_IDENTITY ? ((next(r) & 1) ? 0.0 : 1.0) : logu(r, 1e-3, 1e3);
        for (int j = PB_ROT_W; j <= PB_ROT_Z; j++) a->plane[j][i] = (float)(a->plane[j][i] * s);
    }
    if (info->flags & PB_OPF_SCALAR_IN) {
        const pb_op_row *row = pb_op_row_of(info);
        double lo = row->dom_lo, hi = row->dom_hi;
        for (int j = 0; j < 3; j++) {
            double x;
            switch (c) {
            case PB_CLASS_IDENTITY: x = 0; break;
            case PB_CLASS_NEAR_IDENTICAL: x = logu(r, 1e-7, 1e-2); break;     /* near 0 */
            case PB_CLASS_NEAR_PI: {                                           /* the domain's edges */
                double edges[4] = { lo, hi, 0, 1 };
                x = edges[next(r) % 4] + ((next(r) & 1) ? 1 : -1) * logu(r, 1e-7, 1e-2);
                if (x < lo) x = lo;
                if (x > hi) x = hi;
                break;
            }
            default: x = range(r, lo, hi); break;
            }
            a->plane[PB_POS_X + j][i] = (float)x;
        }
    }
}

void pb_gen_case(pb_pose *a, pb_pose *b, pb_class c, uint64_t seed, const pb_op_info *info)
{
    rng r = { seed * 0x9E3779B97F4A7C15ull + (uint64_t)c + 1 };
    for (size_t i = 0; i < a->n; i++) {
        pb_class ci = c == PB_CLASS_MIXED ? (pb_class)(next(&r) % PB_CLASS_MIXED) : c;
        gen_element(a, b, i, ci, &r, info);
    }
}

void pb_gen_bone_scale(pb_pose *p)
{
    for (size_t i = 0; i < p->n; i++)
        for (int c = 0; c < 3; c++) {
            p->plane[PB_POS_X + c][i] *= 0.05f;   /* +-10 cm per axis: bones up to 17 cm */
            p->plane[PB_SCL_X + c][i] = expf(0.1f * logf(p->plane[PB_SCL_X + c][i]));
            p->plane[PB_VEL_X + c][i] *= 0.1f;
            p->plane[PB_SVL_X + c][i] *= 0.1f;
        }
}

void pb_gen_parents(int32_t *parents, size_t joints, size_t max_depth, uint64_t seed)
{
    /* the library's generator of random skeletons; on error parents is left as it was */
    (void)pb_skeleton_random_parents(parents, joints, max_depth, seed);
}

static void rotate(const pb_pose *p, size_t i, const double v[3], double out[3])
{
    double qw = p->plane[PB_ROT_W][i], qx = p->plane[PB_ROT_X][i], qy = p->plane[PB_ROT_Y][i], qz = p->plane[PB_ROT_Z][i];
    double tx = 2 * (qy * v[2] - qz * v[1]), ty = 2 * (qz * v[0] - qx * v[2]), tz = 2 * (qx * v[1] - qy * v[0]);
    out[0] = v[0] + qw * tx + (qy * tz - qz * ty);
    out[1] = v[1] + qw * ty + (qz * tx - qx * tz);
    out[2] = v[2] + qw * tz + (qx * ty - qy * tx);
}

void pb_gen_targets(const pb_pose *a, pb_pose *b, pb_class c, const float axis[3], uint64_t seed)
{
    rng r = { seed * 0xA24BAED4963EE407ull + 5 };
    double ax[3] = { axis[0], axis[1], axis[2] }, len = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    for (int j = 0; j < 3; j++) ax[j] /= len;
    for (size_t i = 0; i < a->n; i++) {
        double f[3], dir[3], dist = range(&r, 0.3, 3.0);
        rotate(a, i, ax, f);
        random_axis(&r, dir);
        for (int j = 0; j < 3; j++) {
            double d = c == PB_CLASS_IDENTITY ? 0
                       : c == PB_CLASS_NEAR_IDENTICAL ? f[j] * dist
                       : c == PB_CLASS_NEAR_PI ? -f[j] * dist : dir[j] * dist;
            b->plane[PB_POS_X + j][i] = (float)(a->plane[PB_POS_X + j][i] + d);
            if (c == PB_CLASS_ZERO_VEL) b->plane[PB_VEL_X + j][i] = 0;
        }
    }
}

/* Element el of a limb (two-bone chains, foot IK characters) at limb scale:
 * unit scales, the random velocities scaled down (the root's linear one less),
 * targets and grounds moving at up to 1.5 m/s; all zero when still. */
static void limb_rates(pb_pose *a, pb_pose *b, size_t el, int root, int still)
{
    for (int j = 0; j < 3; j++) {
        a->plane[PB_SCL_X + j][el] = 1.0f;
        a->plane[PB_SVL_X + j][el] *= 0.1f;
        a->plane[PB_VEL_X + j][el] *= root ? 0.5f : 0.1f;
        a->plane[PB_ANG_X + j][el] *= 0.3f;
        b->plane[PB_VEL_X + j][el] *= 0.3f;
        if (still) a->plane[PB_VEL_X + j][el] = a->plane[PB_ANG_X + j][el] = a->plane[PB_SVL_X + j][el] =
            b->plane[PB_VEL_X + j][el] = 0;
    }
}

void pb_gen_chains(pb_pose *a, pb_pose *b, pb_class c, uint64_t seed)
{
    rng r = { seed * 0x9FB21C651E98DF25ull + 3 };
    size_t C = a->n / 3;
    for (size_t k = 0; k < C; k++) {
        pb_class ck = c == PB_CLASS_MIXED ? (pb_class)(next(&r) % PB_CLASS_MIXED) : c;
        size_t root = k, mid = C + k, end = 2 * C + k;
        double l1 = range(&r, 0.3, 0.5), l2 = range(&r, 0.3, 0.5);
        /* root: a global hip anywhere near the origin, any orientation (from gen_case) */
        for (int j = 0; j < 3; j++) a->plane[PB_POS_X + j][root] = (float)range(&r, -1, 1);
        /* mid and end: bones down the parent's -y, mid bent about a random axis */
        double bend = ck == PB_CLASS_IDENTITY ? 0 : range(&r, 0.05, 2.1);
        dq mq = dq_axis_angle(&r, bend);
        if (ck == PB_CLASS_IDENTITY) mq = (dq){ 1, 0, 0, 0 };
        put_q(a, mid, mq);
        put_q(a, end, dq_random(&r));
        a->plane[PB_POS_X][mid] = 0; a->plane[PB_POS_Y][mid] = (float)(ck == PB_CLASS_ANTIPODAL ? 0 : -l1);
        a->plane[PB_POS_Z][mid] = 0;
        a->plane[PB_POS_X][end] = 0; a->plane[PB_POS_Y][end] = (float)-l2; a->plane[PB_POS_Z][end] = 0;
        for (size_t e = 0; e < 3; e++) limb_rates(a, b, e * C + k, e == 0, ck == PB_CLASS_ZERO_VEL);
        /* target: where the end is (near_identical), at the root (near_pi), else around */
        double dir[3], dist = range(&r, 0.05, 1.2);
        random_axis(&r, dir);
        double end_pos[3] = { 0, 0, 0 };
        if (ck == PB_CLASS_NEAR_IDENTICAL) {
            /* the end's current position relative to the root, in double:
             * root.rot (mid offset) + (root.rot mid.rot) (end offset) */
            double mid_off[3] = { 0, a->plane[PB_POS_Y][mid], 0 }, p1[3];
            rotate(a, root, mid_off, p1);
            dq qg = dq_mul(get_q(a, root), get_q(a, mid));
            double v[3] = { 0, a->plane[PB_POS_Y][end], 0 };
            double tx = 2 * (qg.y * v[2] - qg.z * v[1]), ty = 2 * (qg.z * v[0] - qg.x * v[2]),
                   tz = 2 * (qg.x * v[1] - qg.y * v[0]);
            double p2[3] = { v[0] + qg.w * tx + (qg.y * tz - qg.z * ty), v[1] + qg.w * ty + (qg.z * tx - qg.x * tz),
                             v[2] + qg.w * tz + (qg.x * ty - qg.y * tx) };
            for (int j = 0; j < 3; j++) end_pos[j] = p1[j] + p2[j];
        }
        for (int j = 0; j < 3; j++) {
            double t = ck == PB_CLASS_NEAR_IDENTICAL ? a->plane[PB_POS_X + j][root] + end_pos[j]
                       : ck == PB_CLASS_NEAR_PI ? a->plane[PB_POS_X + j][root]
                       : a->plane[PB_POS_X + j][root] + dir[j] * dist;
            b->plane[PB_POS_X + j][end] = (float)t;
        }
    }
}

void pb_gen_clip_class(pb_pose *clip, size_t frames, size_t joints, pb_class c)
{
    for (size_t f = 0; f < frames; f++)
        for (size_t j = 0; j < joints; j++) {
            size_t e = f * joints + j;
            if (c == PB_CLASS_ANTIPODAL && f % 2)
                for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) clip->plane[p][e] = -clip->plane[p][e];
            if (c == PB_CLASS_ZERO_VEL && f > 0)
                for (int p = 0; p < PB_PLANES; p++) clip->plane[p][e] = clip->plane[p][j];
        }
}

void pb_gen_offsets(float *off, size_t characters, pb_class c, size_t frames, float fps, float time, uint64_t seed)
{
    rng r = { seed * 0xC2B2AE3D27D4EB4Full + 9 };
    double dur = (double)(frames - 1) / fps;
    for (size_t i = 0; i < characters; i++) {
        double t;
        if (c == PB_CLASS_NEAR_IDENTICAL) {
            off[i] = (float)(next(&r) % frames) / fps - time;
            continue;
        }
        if (c == PB_CLASS_NEAR_PI) t = (next(&r) & 1) ? -range(&r, 0.01, 0.5) : dur + range(&r, 0.01, 0.5);
        else t = range(&r, -0.3, dur + 0.3);
        off[i] = (float)(floor((t - time) * 1024) / 1024);   /* on a 2^-10 s grid */
    }
}

/* Per-element parameter arrays for the "per" validation form: every
 * parameter the op reads (flags) per character, from the ranges the uniform
 * cases use and their edges (0 durations and half-lives, weights outside
 * [0, 1]), and a bone mask of 0, 1 and fractions. mem holds 7 C + n / C floats. */
void pb_gen_param_arrays(pb_param_arrays *pa, float *mem, size_t n, size_t C, uint32_t flags, uint64_t seed)
{
    rng r = { seed * 0x9E3779B97F4A7C15ull + 77 };
    memset(pa, 0, sizeof *pa);
    pa->characters = C;
    float *arr[7];
    for (int i = 0; i < 7; i++) arr[i] = mem + (size_t)i * C;
    float *mask = mem + 7 * C;
    for (size_t c = 0; c < C; c++) {
        double u = uni(&r);
        arr[0][c] = (float)(-0.25 + 1.5 * uni(&r));                 /* alpha */
        arr[1][c] = (float)(-5.0 + 10.0 * uni(&r));                 /* alpha_vel */
        arr[2][c] = (float)(1.5 * uni(&r));                         /* time */
        arr[3][c] = u < 0.1 ? 0.0f : (float)(0.1 + 0.9 * uni(&r));  /* duration, some 0 */
        arr[4][c] = u > 0.9 ? 0.0f : (float)(0.02 + 0.5 * uni(&r)); /* halflife, some 0 */
        arr[5][c] = (float)(-1.0 + 3.0 * uni(&r));                  /* timescale */
        arr[6][c] = u < 0.05 ? 0.0f : u > 0.95 ? 4.0f : (float)(3.2 * uni(&r)); /* cone: some 0, some no limit */
    }
    static const float fixed[5] = { 0.0f, 1.0f, 0.5f, 0.25f, 0.75f };
    for (size_t j = 0; j < n / C; j++) mask[j] = j % 6 < 5 ? fixed[j % 6] : (float)uni(&r);
    if (flags & PB_OPF_ALPHA) { pa->alpha = arr[0]; pa->mask = mask; }
    if (flags & PB_OPF_ALPHA_VEL) pa->alpha_vel = arr[1];
    if (flags & PB_OPF_TIME) pa->time = arr[2];
    if (flags & PB_OPF_DURATION) pa->duration = arr[3];
    if (flags & PB_OPF_HALFLIFE) pa->halflife = arr[4];
    if (flags & PB_OPF_TIMESCALE) pa->timescale = arr[5];
    if (flags & PB_OPF_CONE) pa->cone = arr[6];
}

/* Half-lives per joint per axis for the "halflife_axis" form: 3 per joint,
 * each axis its own (0.02 .. 1 s, spread over 50x), with joints where all
 * three are equal (the per-character path's case), where one is 0 (that
 * axis holds), and where all are 0. */
void pb_gen_halflife_axes(float *hl, size_t joints, uint64_t seed)
{
    rng r = { seed * 0x9E3779B97F4A7C15ull + 91 };
    for (size_t j = 0; j < joints; j++) {
        float *h = hl + 3 * j;
        for (int a = 0; a < 3; a++) h[a] = (float)(0.02 * pow(50.0, uni(&r)));
        switch (j % 8) {
        case 1: h[1] = h[2] = h[0]; break;
        case 3: h[next(&r) % 3] = 0.0f; break;
        case 5: h[0] = h[1] = h[2] = 0.0f; break;
        default: break;
        }
    }
}

/* Half-lives per element, axis and channel for the "halflives" form, in h's vel, ang and svl
 * planes: each channel drawn as pb_gen_halflife_axes draws a joint's (so equal axes, one 0
 * and all 0 come up), the channels independently. Padding stays 0. */
void pb_gen_halflives(pb_pose *h, uint64_t seed)
{
    float t[3 * 64];
    for (int ch = 0; ch < 3; ch++)
        for (size_t e0 = 0; e0 < h->n; e0 += 64) {
            size_t m = h->n - e0 < 64 ? h->n - e0 : 64;
            pb_gen_halflife_axes(t, m, seed * 7 + (uint64_t)ch * 131 + e0);
            for (size_t e = 0; e < m; e++)
                for (int a = 0; a < 3; a++) h->plane[PB_VEL_X + 3 * ch + a][e0 + e] = t[3 * e + (size_t)a];
        }
}

/* Joint limits for the limits forms: per joint a box centred in [-1.5, 1.5] rad with half-widths
 * in [0.05, 1.2] per axis (every eighth joint one axis of width 0: held), and a rest rotation,
 * the identity on even joints, a random one (any angle) on odd ones. */
void pb_gen_limits(float *lo, float *hi, float *rest, size_t joints, uint64_t seed)
{
    rng r = { seed * 0x9E3779B97F4A7C15ull + 173 };
    for (size_t j = 0; j < joints; j++) {
        for (int a = 0; a < 3; a++) {
            double c = 3.0 * uni(&r) - 1.5, w = 0.05 + 1.15 * uni(&r);
            if (j % 8 == 7 && a == 1) w = 0;
            lo[3 * j + (size_t)a] = (float)(c - w);
            hi[3 * j + (size_t)a] = (float)(c + w);
        }
        double q[4] = { 1, 0, 0, 0 }, l = 0;
        if (j % 2) {
            for (int c = 0; c < 4; c++) q[c] = 2 * uni(&r) - 1, l += q[c] * q[c];
            l = sqrt(l);
            for (int c = 0; c < 4; c++) q[c] = l > 1e-3 ? q[c] / l : c == 0;
        }
        for (int c = 0; c < 4; c++) rest[4 * j + (size_t)c] = (float)q[c];
    }
}

/* ---- foot IK characters (PB_OPF_FOOT layout) ------------------------------------------------- */
static void dq_rotate(dq q, const double v[3], double o[3])
{
    double tx = 2 * (q.y * v[2] - q.z * v[1]), ty = 2 * (q.z * v[0] - q.x * v[2]), tz = 2 * (q.x * v[1] - q.y * v[0]);
    o[0] = v[0] + q.w * tx + (q.y * tz - q.z * ty);
    o[1] = v[1] + q.w * ty + (q.z * tx - q.x * tz);
    o[2] = v[2] + q.w * tz + (q.x * ty - q.y * tx);
}
static void put_v(pb_pose *p, int first, size_t i, const double v[3])
{
    for (int j = 0; j < 3; j++) p->plane[first + j][i] = (float)v[j];
}

void pb_gen_feet(pb_pose *a, pb_pose *b, pb_class c, const float axis[3], uint64_t seed)
{
    rng r = { seed * 0xD1B54A32D192ED03ull + 9 };
    size_t C = a->n / 7;
    double al = sqrt((double)axis[0] * axis[0] + (double)axis[1] * axis[1] + (double)axis[2] * axis[2]);
    double up_l[3] = { axis[0] / al, axis[1] / al, axis[2] / al };
    for (size_t k = 0; k < C; k++) {
        pb_class ck = c == PB_CLASS_MIXED ? (pb_class)(next(&r) % PB_CLASS_MIXED) : c;
        int straight = ck == PB_CLASS_IDENTITY;
        /* pelvis: about 1 m up, any heading, tilted up to 0.3 rad */
        double P[3] = { range(&r, -1, 1), range(&r, 0.8, 1.1), range(&r, -1, 1) }, yaw = range(&r, -PB_PI, PB_PI);
        dq pq = dq_mul(dq_axis_angle(&r, range(&r, 0, 0.3)), (dq){ cos(yaw / 2), 0, sin(yaw / 2), 0 });
        put_v(a, PB_POS_X, k, P);
        put_q(a, k, pq);
        for (int s = 0; s < 2; s++) {
            size_t e[3] = { (size_t)(1 + 3 * s) * C + k, (size_t)(2 + 3 * s) * C + k, (size_t)(3 + 3 * s) * C + k };
            double l[2] = { range(&r, 0.35, 0.5), range(&r, 0.35, 0.5) };
            if (ck == PB_CLASS_ANTIPODAL) l[s] = 0;   /* a zero-length thigh (left) or shin (right) */
            double off[3][3] = { { s ? -0.1 : 0.1, -0.08, 0 }, { 0, -l[0], 0 }, { 0, -l[1], 0 } };
            dq lq[3] = { dq_axis_angle(&r, range(&r, 0, 0.6)), dq_axis_angle(&r, range(&r, 0.1, 1.2)),
                         dq_axis_angle(&r, range(&r, 0, 0.5)) };
            if (straight) lq[0] = lq[1] = (dq){ 1, 0, 0, 0 };
            /* the ankle's global position and rotation, in double (unit scales) */
            double G[3] = { P[0], P[1], P[2] }, o[3];
            dq gq = pq;
            for (int j = 0; j < 3; j++) {
                put_v(a, PB_POS_X, e[j], off[j]);
                put_q(a, e[j], lq[j]);
                dq_rotate(gq, off[j], o);
                for (int d = 0; d < 3; d++) G[d] += o[d];
                gq = dq_mul(gq, lq[j]);
            }
            /* the ground: up tilted up to 0.35 rad, any length; through a point near the ankle, mostly below */
            double up[3] = { 0, 1, 0 }, n[3], g[3] = { G[0] + range(&r, -0.2, 0.2), G[1] + range(&r, -0.25, 0.1),
                                                        G[2] + range(&r, -0.2, 0.2) };
            dq_rotate(dq_axis_angle(&r, range(&r, 0, 0.35)), up, n);
            double nl = range(&r, 0.5, 2);
            for (int d = 0; d < 3; d++) n[d] *= nl;
            if (ck == PB_CLASS_NEAR_IDENTICAL) {   /* the foot already on the ground, aligned */
                dq_rotate(gq, up_l, n);
                memcpy(g, G, sizeof g);
            } else if (ck == PB_CLASS_NEAR_PI) {   /* out of reach: 2-4 m below, or a wall 2 m to the side */
                g[1] = G[1] - range(&r, 2, 4);
                if (s) { n[0] = 1; n[1] = 0; n[2] = 0; g[0] = G[0] + 2; }
            } else if (ck == PB_CLASS_DEGENERATE) {   /* zero, horizontal, downward, exactly up */
                static const double dn[4][3] = { { 0, 0, 0 }, { 0, 0, 1 }, { 0, -1, 0 }, { 0, 1, 0 } };
                memcpy(n, dn[(2 * k + (size_t)s) % 4], sizeof n);
            }
            put_v(b, PB_POS_X, e[1], n);
            put_v(b, PB_POS_X, e[2], g);
        }
        for (size_t sl = 0; sl < 7; sl++) limb_rates(a, b, sl * C + k, sl == 0, ck == PB_CLASS_ZERO_VEL);
    }
}

/* Direction states for the via form (dead blending's call.via), per element of b: mostly the
 * last frame's choice (b's rotation turned by up to 0.3 rad, either sign, but not within 50
 * degrees of a whole turn from the source: that needs the extrapolation to spin a whole turn
 * relative to the destination), else the transition's
 * initial state (a's rotation), a random rotation, or one exactly 90 degrees from b as
 * 4-vectors (where the choice is ill-posed: the harness leaves those out). Padding stays the
 * identity. */
void pb_gen_via(pb_pose *via, const pb_pose *a, const pb_pose *b, uint64_t seed)
{
    rng r = { seed * 0x9E3779B97F4A7C15ull + 211 };
    for (size_t i = 0; i < via->n; i++) {
        dq q = get_q(b, i);
        double u = uni(&r);
        if (u < 0.7) {
            q = dq_flip(&r, dq_mul(dq_axis_angle(&r, range(&r, 0, 0.3)), q));
            dq s = get_q(a, i);   /* not nearly a whole turn from the source: rare in motion */
            if (q.w * s.w + q.x * s.x + q.y * s.y + q.z * s.z < -0.9) q = (dq){ -q.w, -q.x, -q.y, -q.z };
        }
        else if (u < 0.85) q = get_q(a, i);
        else if (u < 0.97) q = dq_random(&r);
        else q = (dq){ -q.x, q.w, -q.z, q.y };
        put_q(via, i, q);
    }
}
