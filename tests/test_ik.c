/* test_ik.c — what users need from look-at and two-bone IK, in every variant:
 * a reachable target is reached, an unreachable one is reached toward with a
 * nearly straight chain, degenerate chains (straight, zero-length bone,
 * target at the root) stay finite, and the head's axis points at its target.
 * Chains and targets come from the harness's case builder (pb_case_fill). */
#include <math.h>
#include <string.h>
#include "check.h"
#include "validate.h"
#include "all_variants.h"

#define NC 257   /* chains: every tail length for 4, 8 and 16 lanes */

/* op's inputs a and b (n elements) of class c from seed, as validation and the
 * benchmarks build them (pb_case_fill): chains by class for two-bone IK,
 * targets along p.axis for look-at. */
static void op_case(pb_op op, pb_class c, const pb_params *p, uint64_t seed, pb_pose *a, pb_pose *b)
{
    pb_vcase cs = { .cls = c, .n = a->n, .p = *p };
    pb_case_bufs io = { .a = a, .b = b };
    CHECK(pb_case_fill(&io, &cs, pb_op_get(op), NULL, seed, 0) == PB_OK, "%s case: %s", pb_op_get(op)->name,
          pb_last_error());
}

/* end position of chain c from the pose (double) */
static void chain_end(const pb_pose *p, size_t C, size_t c, double out[3])
{
    double q[4] = { p->plane[PB_ROT_W][c], p->plane[PB_ROT_X][c], p->plane[PB_ROT_Y][c], p->plane[PB_ROT_Z][c] };
    double pos[3] = { p->plane[PB_POS_X][c], p->plane[PB_POS_Y][c], p->plane[PB_POS_Z][c] };
    for (size_t e = 1; e < 3; e++) {
        size_t el = e * C + c;
        double v[3] = { p->plane[PB_POS_X][el], p->plane[PB_POS_Y][el], p->plane[PB_POS_Z][el] };
        double tx = 2 * (q[2] * v[2] - q[3] * v[1]), ty = 2 * (q[3] * v[0] - q[1] * v[2]), tz = 2 * (q[1] * v[1] - q[2] * v[0]);
        pos[0] += v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
        pos[1] += v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
        pos[2] += v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
        double m[4] = { p->plane[PB_ROT_W][el], p->plane[PB_ROT_X][el], p->plane[PB_ROT_Y][el], p->plane[PB_ROT_Z][el] };
        double r[4] = { q[0] * m[0] - q[1] * m[1] - q[2] * m[2] - q[3] * m[3], q[0] * m[1] + q[1] * m[0] + q[2] * m[3] - q[3] * m[2],
                        q[0] * m[2] - q[1] * m[3] + q[2] * m[0] + q[3] * m[1], q[0] * m[3] + q[1] * m[2] - q[2] * m[1] + q[3] * m[0] };
        memcpy(q, r, sizeof q);
    }
    memcpy(out, pos, sizeof pos);
}

static void ik_checks(const pb_variant *v)
{
    const char *vn = pb_variant_name(v);
    size_t n = 3 * NC;
    pb_pose a, b, o;
    pb_pose_alloc(&a, n); pb_pose_alloc(&b, n); pb_pose_alloc(&o, n);
    pb_params p = { 0 };
    p.axis[0] = 1;
    static const pb_class classes[] = { PB_CLASS_RANDOM, PB_CLASS_IDENTITY, PB_CLASS_NEAR_IDENTICAL,
                                        PB_CLASS_NEAR_PI, PB_CLASS_ANTIPODAL };
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        op_case(PB_OP_two_bone_ik, classes[k], &p, 40 + k, &a, &b);
        pb_call c = { .a = &a, .b = &b, .out = &o, .params = p };
        CHECK(pb_run(PB_OP_two_bone_ik, v, &c) == PB_OK, "ik: %s", pb_last_error());
        size_t nonfinite = 0;
        pb_pose_count_nonfinite(&o, &nonfinite);
        CHECK(nonfinite == 0, "%s class %s: %zu NaN/Inf", vn, pb_class_name(classes[k]), nonfinite);
        double worst_reach = 0, worst_dir = 0;
        for (size_t ch = 0; ch < NC; ch++) {
            double e[3], A[3], T[3], d = 0, lab = fabs(a.plane[PB_POS_Y][NC + ch]), lcb = fabs(a.plane[PB_POS_Y][2 * NC + ch]);
            chain_end(&o, NC, ch, e);
            for (int j = 0; j < 3; j++) {
                A[j] = a.plane[PB_POS_X + j][ch];
                T[j] = b.plane[PB_POS_X + j][2 * NC + ch];
                d += (T[j] - A[j]) * (T[j] - A[j]);
            }
            d = sqrt(d);
            double lo = fabs(lab - lcb) + 1e-4 * (lab + lcb), hi = (lab + lcb) * (1 - 1e-4);
            if (d > lo && d < hi) {   /* reachable: the end lands on the target */
                double m = 0;
                for (int j = 0; j < 3; j++) m += (e[j] - T[j]) * (e[j] - T[j]);
                worst_reach = dmax(worst_reach, sqrt(m));
            } else if (d >= hi && classes[k] == PB_CLASS_RANDOM) {   /* unreachable: toward it, at full reach */
                double ae = 0, dot = 0;
                for (int j = 0; j < 3; j++) { ae += (e[j] - A[j]) * (e[j] - A[j]); dot += (e[j] - A[j]) * (T[j] - A[j]); }
                worst_dir = dmax(worst_dir, 1 - dot / (sqrt(ae) * d));
                worst_dir = dmax(worst_dir, fabs(sqrt(ae) - hi));
            }
        }
        if (classes[k] != PB_CLASS_ANTIPODAL)
            CHECK(worst_reach < 2e-5, "%s class %s: reachable targets missed by %.3g m", vn, pb_class_name(classes[k]), worst_reach);
        CHECK(worst_dir < 1e-4, "%s class %s: unreachable targets: off by %.3g", vn, pb_class_name(classes[k]), worst_dir);
    }
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o);
}

static void lookat_checks(const pb_variant *v)
{
    size_t n = 100;
    pb_pose a, b, o;
    pb_pose_alloc(&a, n); pb_pose_alloc(&b, n); pb_pose_alloc(&o, n);
    float axis[3] = { 0.3f, -0.4f, 0.5f };
    pb_call c = { .a = &a, .b = &b, .out = &o, .params = { .axis = { axis[0], axis[1], axis[2] } } };
    op_case(PB_OP_lookat, PB_CLASS_RANDOM, &c.params, 7, &a, &b);
    CHECK(pb_run(PB_OP_lookat, v, &c) == PB_OK, "lookat");
    double worst = 0, al = sqrt(0.09 + 0.16 + 0.25);
    for (size_t i = 0; i < n; i++) {
        double q[4] = { o.plane[PB_ROT_W][i], o.plane[PB_ROT_X][i], o.plane[PB_ROT_Y][i], o.plane[PB_ROT_Z][i] };
        double f[3] = { axis[0] / al, axis[1] / al, axis[2] / al }, d[3], len = 0, dot = 0;
        double tx = 2 * (q[2] * f[2] - q[3] * f[1]), ty = 2 * (q[3] * f[0] - q[1] * f[2]), tz = 2 * (q[1] * f[1] - q[2] * f[0]);
        double w[3] = { f[0] + q[0] * tx + (q[2] * tz - q[3] * ty), f[1] + q[0] * ty + (q[3] * tx - q[1] * tz),
                        f[2] + q[0] * tz + (q[1] * ty - q[2] * tx) };
        for (int j = 0; j < 3; j++) { d[j] = b.plane[PB_POS_X + j][i] - a.plane[PB_POS_X + j][i]; len += d[j] * d[j]; }
        for (int j = 0; j < 3; j++) dot += w[j] * d[j] / sqrt(len);
        worst = dmax(worst, 1 - dot);
    }
    CHECK(worst < 1e-6, "%s lookat: the axis misses the target by 1 - cos = %.3g", pb_variant_name(v), worst);
    c.params.axis[0] = c.params.axis[1] = c.params.axis[2] = 0;
    CHECK(pb_run(PB_OP_lookat, v, &c) == PB_ERR_PARAM && strstr(pb_last_error(), "zero vector"), "zero axis refused");
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o);
}

int main(void)
{
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        ik_checks(v);
        lookat_checks(v);
    }
    pb_pose bad;
    pb_pose_alloc(&bad, 4);
    pb_call c = { .a = &bad, .b = &bad, .out = &bad, .params = { .axis = { 1, 0, 0 } } };
    CHECK(pb_run(PB_OP_two_bone_ik, NULL, &c) == PB_ERR_SIZE && strstr(pb_last_error(), "3 x chains"),
          "n not a multiple of 3 refused: %s", pb_last_error());
    pb_pose_free(&bad);
    return check_done();
}
