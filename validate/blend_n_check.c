/* blend_n_check.c — the N-way blend against the double oracle and the float
 * reference, with the checks that do not come from the reference
 * (blend_n_check.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "all_variants.h"
#include "blend_n_check.h"
#include "rng.h"

#include "minmax.h"

const char *const pb_bn_class_name[PB_BN_CLASSES] = { "within30", "within90", "within180", "edge", "mocap", "neartie" };

#define BN_CHARS 37    /* characters: a partial last vector at every lane width */
#define BN_JOINTS 29

typedef struct { double w, x, y, z; } dq;

static dq dq_mul(dq a, dq b)
{
    return (dq){ a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}
static double dq_dot(dq a, dq b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }
static dq dq_unit(dq a)
{
    double l = sqrt(dq_dot(a, a));
    return (dq){ a.w / l, a.x / l, a.y / l, a.z / l };
}
/* Angle between the rotations of unit quaternions a and b (sign-agnostic). */
static double dq_angle(dq a, dq b)
{
    double s = dq_dot(a, b) < 0 ? -1 : 1;
    dq d = { a.w - s * b.w, a.x - s * b.x, a.y - s * b.y, a.z - s * b.z }, u = { a.w + s * b.w, a.x + s * b.x,
                                                                                    a.y + s * b.y, a.z + s * b.z };
    return 2 * atan2(sqrt(dq_dot(d, d)), sqrt(dq_dot(u, u)));
}
static dq dq_random(uint64_t *s)
{
    double d[3];
    pb_rng_dir(s, d);
    double a = 3.141592653589793 * pb_rng_unit01d(s);
    return (dq){ cos(a), sin(a) * d[0], sin(a) * d[1], sin(a) * d[2] };
}
/* A rotation at most deg degrees from identity, uniform in angle. */
static dq dq_within(uint64_t *s, double deg)
{
    double d[3];
    pb_rng_dir(s, d);
    double h = 0.5 * deg * 3.141592653589793 / 180 * pb_rng_unit01d(s);
    return (dq){ cos(h), sin(h) * d[0], sin(h) * d[1], sin(h) * d[2] };
}
static dq pose_q(const pb_pose *p, size_t e)
{
    return (dq){ p->plane[PB_ROT_W][e], p->plane[PB_ROT_X][e], p->plane[PB_ROT_Y][e], p->plane[PB_ROT_Z][e] };
}
static void set_q(pb_pose *p, size_t e, dq q)
{
    p->plane[PB_ROT_W][e] = (float)q.w, p->plane[PB_ROT_X][e] = (float)q.x;
    p->plane[PB_ROT_Y][e] = (float)q.y, p->plane[PB_ROT_Z][e] = (float)q.z;
}

/* The largest eigenvalue of the symmetric 4x4 A and its unit eigenvector, and the second largest
 * eigenvalue (cyclic Jacobi, in double). */
static double jacobi_max(double A[4][4], double v[4], double *second)
{
    double V[4][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0;
        for (int p = 0; p < 4; p++)
            for (int q = p + 1; q < 4; q++) off += A[p][q] * A[p][q];
        if (off < 1e-36) break;
        for (int p = 0; p < 4; p++)
            for (int q = p + 1; q < 4; q++) {
                if (A[p][q] == 0) continue;
                double th = (A[q][q] - A[p][p]) / (2 * A[p][q]);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1)), c = 1 / sqrt(t * t + 1), s = t * c;
                for (int r = 0; r < 4; r++) {   /* A <- A J, then J^T A */
                    double arp = A[r][p], arq = A[r][q];
                    A[r][p] = c * arp - s * arq, A[r][q] = s * arp + c * arq;
                }
                for (int r = 0; r < 4; r++) {
                    double apr = A[p][r], aqr = A[q][r];
                    A[p][r] = c * apr - s * aqr, A[q][r] = s * apr + c * aqr;
                }
                for (int r = 0; r < 4; r++) {
                    double vrp = V[r][p], vrq = V[r][q];
                    V[r][p] = c * vrp - s * vrq, V[r][q] = s * vrp + c * vrq;
                }
            }
    }
    int b = 0;
    for (int i = 1; i < 4; i++)
        if (A[i][i] > A[b][b]) b = i;
    for (int r = 0; r < 4; r++) v[r] = V[r][b];
    *second = -INFINITY;
    for (int i = 0; i < 4; i++)
        if (i != b) *second = bmax(*second, A[i][i]);
    return A[b][b];
}

typedef struct {
    size_t k, n;
    pb_pose in[PB_BLEND_N_MAX], out, ref;
    float w[PB_BLEND_N_MAX * BN_CHARS];
} bn_case;

static void case_free(bn_case *c)
{
    for (size_t i = 0; i < PB_BLEND_N_MAX; i++) pb_pose_free(&c->in[i]);
    pb_pose_free(&c->out), pb_pose_free(&c->ref);
}

static pb_status case_make(bn_case *c, int cls, size_t k, const pb_scene *mocap, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->k = k, c->n = BN_JOINTS * BN_CHARS;
    pb_status s = PB_OK;
    for (size_t i = 0; i < k && s == PB_OK; i++) s = pb_pose_alloc_static(&c->in[i], c->n);
    if (s == PB_OK) s = pb_pose_alloc_static(&c->out, c->n);
    if (s == PB_OK) s = pb_pose_alloc_static(&c->ref, c->n);
    if (s != PB_OK) return s;
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 7;
    /* near ties: the inputs in two groups (even, odd) of totals 1/2 + d and 1/2 - d, d by character */
    static const double tie_d[6] = { 5e-4, 1e-3, 3e-3, 1e-2, 3e-2, -1e-3 };
    for (size_t ch = 0; ch < BN_CHARS && cls == 5; ch++) {
        size_t ne = (k + 1) / 2, no = k / 2;
        double d = tie_d[ch % 6] * (1 + 0.1 * pb_rng_unit01d(&r));
        for (size_t i = 0; i < k; i++) c->w[i * BN_CHARS + ch] = (float)(i % 2 ? (0.5 - d) / (double)no : (0.5 + d) / (double)ne);
    }
    for (size_t ch = 0; ch < BN_CHARS && cls != 5; ch++) {
        size_t one = pb_rng_next(&r) % k;
        for (size_t i = 0; i < k; i++) {
            float x = pb_rng_unit01(&r);
            if (cls == 3) x = ch % 3 == 0 ? (i == one ? 0.7f : 0.0f) : ch % 3 == 1 ? 0.25f : x;
            else if (pb_rng_unit01(&r) < 0.25f && i != one) x = 0.0f;
            c->w[i * BN_CHARS + ch] = i == one && x == 0.0f ? 0.5f : x;
        }
    }
    for (size_t e = 0; e < c->n; e++) {
        dq q0 = dq_random(&r), q1;
        double ax[3];
        pb_rng_dir(&r, ax);   /* near ties: the odd inputs 120 .. 180 degrees from the even ones */
        double h = 3.141592653589793 / 180 * (60 + 30 * pb_rng_unit01d(&r)), l = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
        q1 = dq_mul(q0, (dq){ cos(h), sin(h) * ax[0] / l, sin(h) * ax[1] / l, sin(h) * ax[2] / l });
        size_t joint = e / BN_CHARS;
        for (size_t i = 0; i < k; i++) {
            dq q;
            if (cls <= 2) q = dq_mul(q0, dq_within(&r, cls == 0 ? 30 : cls == 1 ? 90 : 180));
            else if (cls == 5) q = dq_mul(i % 2 ? q1 : q0, dq_within(&r, 1e-3));
            else if (cls == 3) q = joint % 3 == 0 ? q0 : joint % 3 == 1 ? (i % 2 ? (dq){ -q0.w, -q0.x, -q0.y, -q0.z } : q0)
                                                     : dq_mul(q0, dq_within(&r, 1e-4));
            else {
                size_t f = pb_rng_next(&r) % mocap->clip[0].frames, jj = joint % mocap->joints;
                q = dq_unit(pose_q(&mocap->clip[0].pose, f * mocap->joints + jj));
            }
            if (pb_rng_unit01(&r) < 0.5f) q = (dq){ -q.w, -q.x, -q.y, -q.z };
            set_q(&c->in[i], e, dq_unit(q));
            for (int p = PB_POS_X; p <= PB_POS_Z; p++) c->in[i].plane[p][e] = 2 * pb_rng_unit01(&r) - 1;
            for (int p = PB_SCL_X; p <= PB_SCL_Z; p++) c->in[i].plane[p][e] = expf(0.6f * pb_rng_unit01(&r) - 0.3f);
        }
    }
    return PB_OK;
}

/* The oracle's output planes (double, n each) for the case's float inputs. */
static pb_status oracle(const bn_case *c, pb_blend_n_method m, double *o)
{
    double *buf = malloc(((c->k + 1) * (PB_SCL_Z + 1) * c->n + c->k * BN_CHARS) * sizeof *buf);
    if (!buf) return pb_fail(PB_ERR_NOMEM, "blend_n check: out of memory");
    pb_bn_kargs_f64 a;
    memset(&a, 0, sizeof a);
    a.k = c->k, a.n = c->n, a.characters = BN_CHARS, a.exp = 1;   /* the check's calls: PB_SCALE_EXP */
    double *w = buf + (c->k + 1) * (PB_SCL_Z + 1) * c->n;
    for (size_t i = 0; i < c->k * BN_CHARS; i++) w[i] = c->w[i];
    a.w = w;
    for (size_t i = 0; i < c->k; i++)
        for (int p = 0; p <= PB_SCL_Z; p++) {
            double *d = buf + (i * (PB_SCL_Z + 1) + (size_t)p) * c->n;
            for (size_t e = 0; e < c->n; e++) d[e] = c->in[i].plane[p][e];
            a.in[i][p] = d;
        }
    for (int p = 0; p <= PB_SCL_Z; p++) a.out[p] = o + (size_t)p * c->n;
    pb_ref_aux_f64_table.blend_n[m](&a);
    free(buf);
    return PB_OK;
}

static const pb_pose *const *inputs(const bn_case *c)
{
    static const pb_pose *p[PB_BLEND_N_MAX];
    for (size_t i = 0; i < c->k; i++) p[i] = &c->in[i];
    return p;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

pb_status pb_bn_error(const pb_variant *v, pb_blend_n_method m, int cls, size_t k, pb_bn_err *e)
{
    memset(e, 0, sizeof *e);
    pb_scene mocap;
    memset(&mocap, 0, sizeof mocap);
    if (cls == 4) {
        char pa[512];
        snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
        if (access(pa, R_OK) != 0) return pb_fail(PB_ERR_IO, "blend_n check: %s not installed", pa);
        pb_status s = pb_scene_bvh_files(&mocap, "cmu", pa, pa, PB_CMU_UNIT_SCALE, NULL, NULL);
        if (s != PB_OK) return s;
    }
    bn_case c;
    const pb_variant *ref = NULL;
    pb_status s = case_make(&c, cls, k, &mocap, (uint64_t)(cls * 31 + (int)k));
    double *o = malloc((PB_SCL_Z + 1) * c.n * sizeof *o), *meth = malloc(c.n * sizeof *meth);
    if (s == PB_OK && (!o || !meth)) s = pb_fail(PB_ERR_NOMEM, "blend_n check: out of memory");
    if (s == PB_OK) s = pb_all_variant_find("scalar", &ref);
    if (s == PB_OK) s = pb_blend_n(inputs(&c), k, c.w, BN_CHARS, m, PB_SCALE_EXP, &c.out, v);
    if (s == PB_OK) s = pb_blend_n(inputs(&c), k, c.w, BN_CHARS, m, PB_SCALE_EXP, &c.ref, ref);
    if (s == PB_OK) s = oracle(&c, m, o);
    for (size_t el = 0; el < c.n && s == PB_OK; el++) {
        dq qo = { o[PB_ROT_W * c.n + el], o[PB_ROT_X * c.n + el], o[PB_ROT_Y * c.n + el], o[PB_ROT_Z * c.n + el] };
        dq qv = pose_q(&c.out, el), qr = pose_q(&c.ref, el);
        e->norm = bmax(e->norm, fabs(sqrt(dq_dot(qv, qv)) - 1));
        e->rot = bmax(e->rot, dq_angle(dq_unit(qv), qo)), e->ref_rot = bmax(e->ref_rot, dq_angle(dq_unit(qr), qo));
        for (int p = PB_POS_X; p <= PB_POS_Z; p++) {
            double x = o[(size_t)p * c.n + el], sc = bmax(1, fabs(x));
            e->pos = bmax(e->pos, fabs(c.out.plane[p][el] - x) / sc), e->ref_pos = bmax(e->ref_pos, fabs(c.ref.plane[p][el] - x) / sc);
        }
        for (int p = PB_SCL_X; p <= PB_SCL_Z; p++) {
            double x = o[(size_t)p * c.n + el];
            e->scl = bmax(e->scl, fabs(c.out.plane[p][el] - x) / x), e->ref_scl = bmax(e->ref_scl, fabs(c.ref.plane[p][el] - x) / x);
        }
        /* the true weighted average: M from the float inputs and the weights normalized in double */
        size_t ch = el % BN_CHARS;
        double sum = 0, M[4][4] = { { 0 } }, ev[4];
        for (size_t i = 0; i < k; i++) sum += c.w[i * BN_CHARS + ch];
        for (size_t i = 0; i < k; i++) {
            dq q = pose_q(&c.in[i], el);
            double x[4] = { q.w, q.x, q.y, q.z }, wi = c.w[i * BN_CHARS + ch] / sum;
            for (int r = 0; r < 4; r++)
                for (int cc = 0; cc < 4; cc++) M[r][cc] += wi * x[r] * x[cc];
        }
        double Mc[4][4], l2;
        memcpy(Mc, M, sizeof Mc);
        double lmax = jacobi_max(Mc, ev, &l2);
        dq qu = dq_unit(qv), truth = { ev[0], ev[1], ev[2], ev[3] };
        double x[4] = { qu.w, qu.x, qu.y, qu.z }, rq = 0;
        for (int r = 0; r < 4; r++)
            for (int cc = 0; cc < 4; cc++) rq += x[r] * M[r][cc] * x[cc];
        meth[el] = dq_angle(qu, truth);
        if (m == PB_BLEND_N_ACCURATE) {
            e->rayleigh = bmax(e->rayleigh, (lmax - rq) / lmax);
            e->gapped = bmax(e->gapped, meth[el] * (lmax - l2) / lmax / 0x1p-24);
        }
    }
    if (s == PB_OK) {
        qsort(meth, c.n, sizeof *meth, cmp_d);
        e->method_med = meth[c.n / 2], e->method_max = meth[c.n - 1];
        /* every input's quaternion negated: the same rotations, so the same blend */
        for (size_t i = 0; i < k; i++)
            for (int p = PB_ROT_W; p <= PB_ROT_Z; p++)
                for (size_t el = 0; el < c.n; el++) c.in[i].plane[p][el] = -c.in[i].plane[p][el];
        s = pb_blend_n(inputs(&c), k, c.w, BN_CHARS, m, PB_SCALE_EXP, &c.ref, v);
        for (size_t el = 0; el < c.n && s == PB_OK; el++)
            e->sign = bmax(e->sign, dq_angle(dq_unit(pose_q(&c.ref, el)), dq_unit(pose_q(&c.out, el))));
    }
    free(o), free(meth);
    case_free(&c);
    pb_scene_free(&mocap);
    return s;
}

/* Bounds (and why) in the closing line of pb_bn_validate. */
#define BN_RAYLEIGH 1e-5
#define BN_GAPPED 16   /* accurate vs the true average x relative gap, in float eps (2^-24) */

int pb_bn_validate(FILE *out, int no_mocap, const pb_val_sink *sink)
{
    static const size_t ks[3] = { 2, 4, 16 };
    char pa[512];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    int have_mocap = !no_mocap && access(pa, R_OK) == 0, fails = 0;
    fprintf(out, "# N-way blend vs the double oracle (%d joints x %d characters; rot: rad, pos: relative to max(1, |p|), "
            "scl: relative, exponential scale; norm: ||q| - 1|; sign: change when every input quaternion is negated; "
            "rayleigh: (lambda_max - q^T M q) / lambda_max (accurate); gapped: accurate's angle from the true average "
            "x (lambda_1 - lambda_2) / lambda_1, in units of 2^-24; method: fast vs the true average (Jacobi in "
            "double), median / worst, reported not judged)\n", BN_JOINTS, BN_CHARS);
    fprintf(out, "%-8s %-9s %3s %-12s %9s %9s %9s %9s %8s %8s %9s %7s %9s %9s  %s\n", "method", "inputs", "K", "variant",
            "rot", "ref_rot", "pos", "scl", "norm", "sign", "rayleigh", "gapped", "meth_med", "meth_max", "verdict");
    for (int m = 0; m < PB_BLEND_N_METHODS && fails >= 0; m++)
        for (int cls = 0; cls < PB_BN_CLASSES && fails >= 0; cls++)
            for (int ki = 0; ki < 3 && fails >= 0; ki++) {
                if (cls == 4 && !have_mocap) continue;
                for (size_t i = 0; i < pb_all_variant_count() && fails >= 0; i++) {
                    const pb_variant *v = pb_all_variant_at(i);
                    if (pb_variant_check(v) != PB_OK) continue;
                    pb_bn_err e;
                    if (pb_bn_error(v, (pb_blend_n_method)m, cls, ks[ki], &e) != PB_OK) {
                        fails = -1;
                        break;
                    }
                    int bad = e.rot > bmax(4 * e.ref_rot, 1e-6) || e.pos > bmax(4 * e.ref_pos, 1e-6) ||
                              e.scl > bmax(4 * e.ref_scl, 1e-6) || e.norm > 1e-6 || e.sign > 1e-6 ||
                              (m == PB_BLEND_N_ACCURATE && (e.rayleigh > BN_RAYLEIGH || e.gapped > BN_GAPPED));
                    fprintf(out, "%-8s %-9s %3zu %-12s %9.2e %9.2e %9.2e %9.2e %8.1e %8.1e %9.2e %7.1f %9.2e %9.2e  %s\n",
                            pb_blend_n_method_name((pb_blend_n_method)m), pb_bn_class_name[cls], ks[ki],
                            pb_variant_name(v), e.rot, e.ref_rot, e.pos, e.scl, e.norm, e.sign, e.rayleigh, e.gapped,
                            e.method_med, e.method_max, bad ? "FAIL" : "ok");
                    fails += bad;
                    char form[48];   /* the JSON: a row per metric, each judged by its own bound */
                    snprintf(form, sizeof form, "%s %s K=%zu", pb_blend_n_method_name((pb_blend_n_method)m),
                             pb_bn_class_name[cls], ks[ki]);
                    const size_t n = (size_t)BN_JOINTS * BN_CHARS;
                    const double br = bmax(4 * e.ref_rot, 1e-6), bp = bmax(4 * e.ref_pos, 1e-6),
                                 bs = bmax(4 * e.ref_scl, 1e-6),
                                 bq = m == PB_BLEND_N_ACCURATE && cls != 2 ? BN_RAYLEIGH : -1;
                    pb_val_emit(sink, "blend_n", form, v, "rot_angle", "rad", e.rot, e.ref_rot, br, n, 0, e.rot <= br);
                    pb_val_emit(sink, "blend_n", form, v, "pos_rel", "rel", e.pos, e.ref_pos, bp, n, 0, e.pos <= bp);
                    pb_val_emit(sink, "blend_n", form, v, "scl_rel", "rel", e.scl, e.ref_scl, bs, n, 0, e.scl <= bs);
                    pb_val_emit(sink, "blend_n", form, v, "rot_norm", "abs", e.norm, -1, 1e-6, n, 0, e.norm <= 1e-6);
                    pb_val_emit(sink, "blend_n", form, v, "sign", "rad", e.sign, -1, 1e-6, n, 0, e.sign <= 1e-6);
                    pb_val_emit(sink, "blend_n", form, v, "rayleigh", "rel", e.rayleigh, -1, bq, n, 0,
                                bq < 0 || e.rayleigh <= bq);
                    pb_val_emit(sink, "blend_n", form, v, "method_max", "rad", e.method_max, -1, -1, n, 0, 1);
                }
            }
    fprintf(out, "# blend_n bounds: rot, pos, scl <= max(4 x the float reference's, 1e-6); norm <= 1e-6; sign <= 1e-6; "
            "accurate, every class: rayleigh <= %.0e; gapped <= %d: an eigenvector moves by up to |E| / gap under a "
            "perturbation E of M (Davis-Kahan), and forming M and squaring it in float perturbs it by some eps, so a "
            "solver whose error does not grow faster than eps / gap as the top two eigenvalues near a tie stays "
            "within a fixed number of eps there (the neartie class: gaps 1e-3 .. 6e-2; at most %d squarings)\n",
            BN_RAYLEIGH, BN_GAPPED, PB_BLEND_N_SQUARINGS);
    return fails;
}
