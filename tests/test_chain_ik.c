/* test_chain_ik.c — what users need from FABRIK, CCD and CCD with cone
 * limits (cone_checks), in every variant,
 * checked on the solved pose itself (forward kinematics in double), not
 * against the reference: reachable targets are reached within the
 * tolerance (or the chain used every iteration), out-of-reach targets get a
 * straight chain pointing at them at full reach, bone lengths and the root's
 * position are kept, the iteration counts follow the stopping rule, a lane
 * that stops early is not moved by lanes that go on (each chain alone gives
 * the same pose bit for bit), and bad input is refused with the chain named,
 * the output untouched. Prints the residual, iteration and bone-length drift
 * figures per op and variant. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "all_variants.h"
#include "check.h"
#include "validate.h"

#define NC 257   /* chains: every tail for 4, 8 and 16 lanes */

static pb_mocap mocap;   /* the packaged CMU clips, when installed: real arms and legs */

static void chains_case(pb_op op, pb_class c, int L, uint64_t seed, pb_pose *a, pb_pose *b)
{
    pb_vcase cs = { .cls = c, .n = a->n, .joints = (size_t)L, .characters = a->n / (size_t)L };
    cs.p.chain_joints = L;
    pb_case_bufs io = { .a = a, .b = b };
    CHECK(pb_case_fill(&io, &cs, pb_op_get(op), c == PB_CLASS_MOCAP ? &mocap : NULL, seed, 0) == PB_OK, "case: %s",
          pb_last_error());
}

static void qrot(const double q[4], const double v[3], double o[3])
{
    double tx = 2 * (q[2] * v[2] - q[3] * v[1]), ty = 2 * (q[3] * v[0] - q[1] * v[2]), tz = 2 * (q[1] * v[1] - q[2] * v[0]);
    o[0] = v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
    o[1] = v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
    o[2] = v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
}
static void unitq(double q[4])
{
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) q[k] /= l;
}
/* World positions of chain c's joints (double FK of pos/rot/scl, each float
 * quaternion taken as the rotation it stands for: normalized in double). */
static void chain_fk(const pb_pose *p, size_t C, int L, size_t c, double P[][3])
{
    double q[4], s[3];
    for (int k = 0; k < 4; k++) q[k] = p->plane[PB_ROT_W + k][c];
    unitq(q);
    for (int k = 0; k < 3; k++) {
        P[0][k] = p->plane[PB_POS_X + k][c];
        s[k] = p->plane[PB_SCL_X + k][c];
    }
    for (int j = 1; j < L; j++) {
        size_t e = (size_t)j * C + c;
        double v[3], w[3], m[4];
        for (int k = 0; k < 3; k++) v[k] = s[k] * p->plane[PB_POS_X + k][e];
        qrot(q, v, w);
        for (int k = 0; k < 3; k++) {
            P[j][k] = P[j - 1][k] + w[k];
            s[k] *= p->plane[PB_SCL_X + k][e];
        }
        for (int k = 0; k < 4; k++) m[k] = p->plane[PB_ROT_W + k][e];
        unitq(m);
        double r[4] = { q[0] * m[0] - q[1] * m[1] - q[2] * m[2] - q[3] * m[3], q[0] * m[1] + q[1] * m[0] + q[2] * m[3] - q[3] * m[2],
                        q[0] * m[2] - q[1] * m[3] + q[2] * m[0] + q[3] * m[1], q[0] * m[3] + q[1] * m[2] - q[2] * m[1] + q[3] * m[0] };
        memcpy(q, r, sizeof q);
    }
}
static double dist3(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void solve_checks(pb_op op, const pb_variant *v, int L, float tol, int iterations, pb_class cls)
{
    const char *on = pb_op_get(op)->name, *vn = pb_variant_name(v);
    size_t n = (size_t)L * NC;
    pb_pose a, b, o, a1, b1, o1;
    CHECK(pb_pose_alloc(&a, n) == PB_OK && pb_pose_alloc(&b, n) == PB_OK && pb_pose_alloc(&o, n) == PB_OK, "alloc");
    CHECK(pb_pose_alloc(&a1, (size_t)L) == PB_OK && pb_pose_alloc(&b1, (size_t)L) == PB_OK &&
          pb_pose_alloc(&o1, (size_t)L) == PB_OK, "alloc");
    chains_case(op, cls, L, 1000 + (uint64_t)L, &a, &b);
    uint8_t its[NC], it1 = 0;
    pb_params p = { .chain_joints = L, .iterations = iterations, .tolerance = tol };
    pb_call c = { .a = &a, .b = &b, .out = &o, .iterations = its, .params = p };
    CHECK(pb_run(op, v, &c) == PB_OK, "%s %s: %s", on, vn, pb_last_error());
    size_t nonfinite = 0, missed = 0, reachable = 0, alone_diff = 0, bad_count = 0;
    double worst_drift = 0, worst_straight = 0, worst_root = 0, worst_norm = 0, res[NC], it_sum = 0;
    double worst_slack = 0;
    size_t slow = 0;
    size_t copied = 0;   /* pos and scl values not copied bit for bit */
    int it_max = 0;
    for (size_t ch = 0; ch < NC; ch++) {
        double Pi[PB_CHAIN_MAX][3], Po[PB_CHAIN_MAX][3], T[3], reach = 0;
        chain_fk(&a, NC, L, ch, Pi);
        chain_fk(&o, NC, L, ch, Po);
        for (int k = 0; k < 3; k++) T[k] = b.plane[PB_POS_X + k][(size_t)(L - 1) * NC + ch];
        double dmaxb = 0;
        for (int j = 1; j < L; j++) {
            double li = dist3(Pi[j], Pi[j - 1]), lo = dist3(Po[j], Po[j - 1]);
            reach += li;
            dmaxb = dmax(dmaxb, li);
            worst_drift = dmax(worst_drift, fabs(lo - li) / li);
        }
        for (int j = 0; j < L; j++) {
            size_t e = (size_t)j * NC + ch;
            double nq = 0;
            for (int k = 0; k < 4; k++) nq += (double)o.plane[PB_ROT_W + k][e] * o.plane[PB_ROT_W + k][e];
            worst_norm = dmax(worst_norm, fabs(sqrt(nq) - 1));
            for (int k = 0; k < 3; k++)
                copied += o.plane[PB_POS_X + k][e] != a.plane[PB_POS_X + k][e] ||
                          o.plane[PB_SCL_X + k][e] != a.plane[PB_SCL_X + k][e];
        }
        double hole = dmax(0, 2 * dmaxb - reach);
        /* the solver stops on its own float positions; the pose's end, through L - 1 rotations
         * derived from them, lands within a few float roundings of the reach */
        double slack = 1e-6 * reach;   /* the nearest reachable distance from the root */
        worst_root = dmax(worst_root, dist3(Pi[0], Po[0]));
        for (int j = 0; j < L; j++)
            for (int k = 0; k < 3; k++) nonfinite += !isfinite(Po[j][k]);
        res[ch] = dist3(Po[L - 1], T);
        it_sum += its[ch];
        it_max = its[ch] > it_max ? its[ch] : it_max;
        double to_t = dist3(Pi[0], T);
        if (to_t >= reach * (1 + 1e-5)) {   /* out of reach: straight at the target, no iteration */
            for (int j = 1; j < L; j++) {
                double dot = 0;
                for (int k = 0; k < 3; k++) dot += (Po[j][k] - Po[j - 1][k]) * (T[k] - Pi[0][k]);
                worst_straight = dmax(worst_straight, 1 - dot / (dist3(Po[j], Po[j - 1]) * to_t));
            }
            bad_count += its[ch] != 0;
        } else if (op == PB_OP_ccd && tol > 0 && to_t >= 0.7 * reach && to_t < 0.99 * reach) {
            /* CCD crawls toward full reach: once the end is nearly aligned each joint's turn is
             * tiny (measured, 255 iterations: 14 of 257 random 16-joint chains, 9 of 257 CMU
             * arms, 3 of 257 CMU legs still off, all beyond 0.75 of reach; FABRIK: none).
             * Counted and printed, not judged. Both crawl near the hole a long bone leaves
             * around the root (FABRIK: one chain at 0.04 x reach from its edge). */
            slow += res[ch] > tol + slack;
        } else if (to_t > hole + 0.05 * reach && to_t < (op == PB_OP_ccd ? 0.7 : 0.99) * reach) {
            /* well inside the reachable shell: stopped under the tolerance (tolerance 0: every iteration
             * spent); near its edges convergence slows down (reported, not judged) */
            reachable++;
            if (tol > 0) missed += res[ch] > tol + slack;
            else bad_count += its[ch] != iterations && res[ch] > slack;
            if (getenv("CHAIN_DEBUG") && res[ch] > tol + slack)
                printf("  chain %zu: its %d res %.3g to_t/reach %.4f hole/reach %.4f\n", ch, its[ch], res[ch], to_t / reach, hole / reach);
        }
        /* the stopping rule itself: fewer iterations only once within the tolerance */
        if (its[ch] < iterations && its[ch] > 0) missed += res[ch] > tol + slack;
        worst_slack = dmax(worst_slack, its[ch] < iterations && its[ch] > 0 ? (res[ch] - tol) / reach : 0);
        /* the chain alone: the same pose, bit for bit (masked lanes are left alone) */
        for (int j = 0; j < L; j++) {
            size_t e = (size_t)j * NC + ch;
            for (int pl = 0; pl < 10; pl++) {
                a1.plane[pl][j] = a.plane[pl][e];
                b1.plane[pl][j] = b.plane[pl][e];
            }
        }
        pb_call c1 = { .a = &a1, .b = &b1, .out = &o1, .iterations = &it1, .params = p };
        CHECK(pb_run(op, v, &c1) == PB_OK, "alone: %s", pb_last_error());
        for (int j = 0; j < L; j++)
            for (int pl = 0; pl < 10; pl++) alone_diff += o1.plane[pl][j] != o.plane[pl][(size_t)j * NC + ch];
        alone_diff += it1 != its[ch];
    }
    qsort(res, NC, sizeof res[0], cmp_d);
    printf("%-6s %-10s %s L=%2d tol %.0e: residual median %.2e max %.2e m; iterations mean %.1f max %d; "
           "bone drift %.1e, |q| - 1 %.1e; %zu of %d well reachable; stopped chains over tolerance by %.2g x reach\n",
           on, vn, cls == PB_CLASS_MOCAP ? "cmu " : "gen ", L, (double)tol, res[NC / 2], res[NC - 1], it_sum / NC, it_max, worst_drift, worst_norm, reachable, NC,
           worst_slack);
    CHECK(nonfinite == 0, "%s %s L=%d: %zu NaN/Inf", on, vn, L, nonfinite);
    if (slow) printf("  ccd: %zu chains with the target at 0.7 .. 0.99 of full reach not within tolerance\n", slow);
    CHECK(missed == 0, "%s %s L=%d: %zu reachable targets missed (tolerance %g)", on, vn, L, missed, (double)tol);
    CHECK(worst_drift < 1e-9, "%s %s L=%d: bone lengths drift by %.3g relative", on, vn, L, worst_drift);
    CHECK(worst_norm < 4e-7, "%s %s L=%d: output rotations off unit by %.3g", on, vn, L, worst_norm);
    CHECK(copied == 0, "%s %s L=%d: %zu pos/scl values not copied", on, vn, L, copied);
    CHECK(worst_root == 0, "%s %s L=%d: the root moved by %.3g", on, vn, L, worst_root);
    CHECK(worst_straight < 1e-6, "%s %s L=%d: out-of-reach chains bent: 1 - cos = %.3g", on, vn, L, worst_straight);
    CHECK(bad_count == 0, "%s %s L=%d: %zu chains broke the iteration count rule", on, vn, L, bad_count);
    CHECK(it_max <= iterations, "%s %s: %d iterations > %d", on, vn, it_max, iterations);
    CHECK(alone_diff == 0, "%s %s L=%d: %zu values differ when a chain is solved alone", on, vn, L, alone_diff);
    CHECK(reachable > NC / 8, "%s: the case has %zu well reachable chains", on, reachable);
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o);
    pb_pose_free(&a1); pb_pose_free(&b1); pb_pose_free(&o1);
}

static void cone_bad_input(pb_pose *a, pb_pose *b, pb_pose *o);

/* Bad input: each refused with the chain (or parameter) named, out untouched. */
static void bad_input(pb_op op)
{
    const char *on = pb_op_get(op)->name;
    int L = 4;
    size_t n = (size_t)L * 20;
    pb_pose a, b, o;
    CHECK(pb_pose_alloc(&a, n) == PB_OK && pb_pose_alloc(&b, n) == PB_OK && pb_pose_alloc(&o, n) == PB_OK, "alloc");
    chains_case(op, PB_CLASS_RANDOM, L, 5, &a, &b);
    for (size_t i = 0; i < n; i++) o.plane[PB_POS_X][i] = 42.0f;
    pb_params p = { .chain_joints = L, .iterations = 8, .tolerance = 1e-4f };
    pb_call c = { .a = &a, .b = &b, .out = &o, .params = p };
    CHECK(pb_run(op, NULL, &c) == PB_OK, "%s good case: %s", on, pb_last_error());
    for (size_t i = 0; i < n; i++) o.plane[PB_POS_X][i] = 42.0f;
    struct { int L, it; float tol; const char *msg; } params[] = {
        { 2, 8, 0, "chain_joints is 2" }, { 17, 8, 0, "chain_joints is 17" }, { 4, 0, 0, "iterations is 0" },
        { 4, 256, 0, "iterations is 256" }, { 4, 8, -1, "tolerance is -1" }, { 4, 8, NAN, "tolerance is nan" },
        { 3, 8, 0, "not chain_joints x chains" },   /* n = 80 is not 3 x chains */
    };
    for (size_t k = 0; k < sizeof params / sizeof params[0]; k++) {
        c.params.chain_joints = params[k].L;
        c.params.iterations = params[k].it;
        c.params.tolerance = params[k].tol;
        pb_status s = pb_run(op, NULL, &c);
        CHECK((s == PB_ERR_PARAM || s == PB_ERR_SIZE) && strstr(pb_last_error(), params[k].msg), "%s: %s: got %s",
              on, params[k].msg, pb_last_error());
    }
    c.params = p;
    float keep = a.plane[PB_POS_Y][2 * 20 + 7];
    a.plane[PB_POS_X][2 * 20 + 7] = a.plane[PB_POS_Y][2 * 20 + 7] = a.plane[PB_POS_Z][2 * 20 + 7] = 0;
    CHECK(pb_run(op, NULL, &c) == PB_ERR_PARAM && strstr(pb_last_error(), "chain 7: bone 2"),
          "%s: zero-length bone: %s", on, pb_last_error());
    a.plane[PB_POS_Y][2 * 20 + 7] = keep;
    float keep_t = b.plane[PB_POS_Z][3 * 20 + 11];
    b.plane[PB_POS_Z][3 * 20 + 11] = INFINITY;
    CHECK(pb_run(op, NULL, &c) == PB_ERR_PARAM && strstr(pb_last_error(), "chain 11: its target"),
          "%s: infinite target: %s", on, pb_last_error());
    b.plane[PB_POS_Z][3 * 20 + 11] = keep_t;
    if (op == PB_OP_ccd_cone) cone_bad_input(&a, &b, &o);
    size_t touched = 0;
    for (size_t i = 0; i < n; i++) touched += o.plane[PB_POS_X][i] != 42.0f;
    CHECK(touched == 0, "%s: refused calls wrote %zu values", on, touched);
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o);
}

/* The angle (rad) between two vectors, in double. */
static double angle3(const double u[3], const double v[3])
{
    double c[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
    return atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), u[0] * v[0] + u[1] * v[1] + u[2] * v[2]);
}

/* ccd_cone: every bone of an iterated chain within its joint's cone of its
 * parent bone (the root bone: of its input direction), uniform, per chain
 * and per joint; bone lengths and the root kept; cones of pi or more give
 * ccd's pose bit for bit on reachable targets; each chain alone gives the
 * batch's pose. */
static void cone_checks(const pb_variant *v, int L, pb_class cls)
{
    const char *vn = pb_variant_name(v);
    size_t n = (size_t)L * NC;
    pb_pose a, b, o, o2, a1, b1, o1;
    CHECK(pb_pose_alloc(&a, n) == PB_OK && pb_pose_alloc(&b, n) == PB_OK && pb_pose_alloc(&o, n) == PB_OK &&
          pb_pose_alloc(&o2, n) == PB_OK, "alloc");
    CHECK(pb_pose_alloc(&a1, (size_t)L) == PB_OK && pb_pose_alloc(&b1, (size_t)L) == PB_OK &&
          pb_pose_alloc(&o1, (size_t)L) == PB_OK, "alloc");
    chains_case(PB_OP_ccd_cone, cls, L, 3000 + (uint64_t)L, &a, &b);
    float jc[PB_CHAIN_MAX], pc[NC];
    static const float pattern[5] = { 0.3f, 1.0f, 0.0f, 0.6f, 4.0f };
    for (int j = 0; j < L; j++) jc[j] = pattern[j % 5];
    for (size_t ch = 0; ch < NC; ch++) pc[ch] = 0.05f * (float)(ch % 40);
    uint8_t its[NC], it1;
    for (int form = 0; form < 3; form++) {   /* uniform 0.5 rad, per chain, per joint */
        pb_call c = { .a = &a, .b = &b, .out = &o, .iterations = its,
                      .params = { .chain_joints = L, .iterations = 64, .tolerance = 1e-4f, .cone = 0.5f } };
        if (form == 1) c.per = (pb_param_arrays){ .characters = NC, .cone = pc };
        if (form == 2) c.per = (pb_param_arrays){ .characters = NC, .joint_cone = jc };
        CHECK(pb_run(PB_OP_ccd_cone, v, &c) == PB_OK, "ccd_cone %s: %s", vn, pb_last_error());
        double worst_over = 0, worst_drift = 0, worst_root = 0;
        size_t limited = 0, iterated = 0, nonfinite = 0, alone_diff = 0;
        for (size_t ch = 0; ch < NC; ch++) {
            double Pi[PB_CHAIN_MAX][3], Po[PB_CHAIN_MAX][3];
            chain_fk(&a, NC, L, ch, Pi);
            chain_fk(&o, NC, L, ch, Po);
            worst_root = dmax(worst_root, dist3(Pi[0], Po[0]));
            for (int j = 0; j < L; j++)
                for (int k = 0; k < 3; k++) nonfinite += !isfinite(Po[j][k]);
            for (int j = 1; j < L; j++)
                worst_drift = dmax(worst_drift, fabs(dist3(Po[j], Po[j - 1]) / dist3(Pi[j], Pi[j - 1]) - 1));
            iterated += its[ch] > 0;   /* every chain meets its limits, iterated or not */
            for (int j = 0; j < L - 1; j++) {
                double axis[3], bone[3];
                for (int k = 0; k < 3; k++) {
                    axis[k] = j == 0 ? Pi[1][k] - Pi[0][k] : Po[j][k] - Po[j - 1][k];
                    bone[k] = Po[j + 1][k] - Po[j][k];
                }
                double cone = form == 0 ? 0.5 : form == 1 ? pc[ch] : jc[j], ang = angle3(axis, bone);
                worst_over = dmax(worst_over, ang - cone);
                if (getenv("CONE_DEBUG") && ang - cone > 1e-4)
                    printf("  chain %zu joint %d: angle %.4f cone %.4f its %d\n", ch, j, ang, cone, its[ch]);
                limited += cone < 3.1 && ang > cone - 1e-3;
            }
            if (form != 2) continue;
            for (int j = 0; j < L; j++) {
                size_t e = (size_t)j * NC + ch;
                for (int pl = 0; pl < 10; pl++) {
                    a1.plane[pl][j] = a.plane[pl][e];
                    b1.plane[pl][j] = b.plane[pl][e];
                }
            }
            pb_call c1 = c;
            c1.a = &a1; c1.b = &b1; c1.out = &o1; c1.iterations = &it1;
            c1.per.characters = 1;
            CHECK(pb_run(PB_OP_ccd_cone, v, &c1) == PB_OK, "alone: %s", pb_last_error());
            for (int j = 0; j < L; j++)
                for (int pl = 0; pl < 10; pl++) alone_diff += o1.plane[pl][j] != o.plane[pl][(size_t)j * NC + ch];
            alone_diff += it1 != its[ch];
        }
        printf("ccd_cone %-10s %s L=%2d %s cones: %zu of %d chains iterated, %zu bones at their limit, worst "
               "excess %.2e rad, bone drift %.1e\n", vn, cls == PB_CLASS_MOCAP ? "cmu" : "gen", L,
               form == 0 ? "uniform" : form == 1 ? "per-chain" : "per-joint", iterated, NC, limited, worst_over, worst_drift);
        CHECK(nonfinite == 0, "ccd_cone %s L=%d: %zu NaN/Inf", vn, L, nonfinite);
        CHECK(worst_over < 1e-4, "ccd_cone %s L=%d form %d: a bone is %.3g rad beyond its cone", vn, L, form, worst_over);
        CHECK(limited > 0 && iterated > NC / 2, "ccd_cone %s L=%d: the case never met a limit", vn, L);
        CHECK(worst_drift < 1e-6, "ccd_cone %s L=%d: bone lengths drift by %.3g", vn, L, worst_drift);
        CHECK(worst_root == 0, "ccd_cone %s L=%d: the root moved by %.3g", vn, L, worst_root);
        CHECK(alone_diff == 0, "ccd_cone %s L=%d: %zu values differ when a chain is solved alone", vn, L, alone_diff);
    }
    /* no limit (cones of pi and more): ccd's pose, bit for bit, wherever ccd iterates (in reach) */
    pb_call c = { .a = &a, .b = &b, .out = &o, .params = { .chain_joints = L, .iterations = 64, .tolerance = 1e-4f,
                                                           .cone = 3.5f } };
    pb_call c2 = c;
    c2.out = &o2;
    CHECK(pb_run(PB_OP_ccd_cone, v, &c) == PB_OK && pb_run(PB_OP_ccd, v, &c2) == PB_OK, "%s", pb_last_error());
    size_t diff = 0, compared = 0;
    for (size_t ch = 0; ch < NC; ch++) {
        double Pi[PB_CHAIN_MAX][3], T[3], reach = 0;
        chain_fk(&a, NC, L, ch, Pi);
        for (int j = 1; j < L; j++) reach += dist3(Pi[j], Pi[j - 1]);
        for (int k = 0; k < 3; k++) T[k] = b.plane[PB_POS_X + k][(size_t)(L - 1) * NC + ch];
        if (dist3(Pi[0], T) >= reach * (1 - 1e-6)) continue;
        compared++;
        for (int j = 0; j < L; j++)
            for (int pl = 0; pl < 10; pl++) diff += o.plane[pl][(size_t)j * NC + ch] != o2.plane[pl][(size_t)j * NC + ch];
    }
    CHECK(diff == 0 && compared > NC / 4, "ccd_cone %s L=%d: with no limit, %zu values differ from ccd (%zu chains)",
          vn, L, diff, compared);
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o); pb_pose_free(&o2);
    pb_pose_free(&a1); pb_pose_free(&b1); pb_pose_free(&o1);
}

/* ccd_cone's cone arrays (bad_input's chains of 4 x 20): bad values named, arrays for
 * ops that do not read them refused. */
static void cone_bad_input(pb_pose *a, pb_pose *b, pb_pose *o)
{
    float jc[4] = { 0.5f, 0.5f, -0.1f, 0.5f }, pc[20];
    for (int i = 0; i < 20; i++) pc[i] = 0.5f;
    pc[13] = NAN;
    pb_params p = { .chain_joints = 4, .iterations = 8, .tolerance = 1e-4f, .cone = 0.5f };
    struct { pb_op op; pb_param_arrays per; float cone; const char *msg; } cases[] = {
        { PB_OP_ccd_cone, { .characters = 20, .joint_cone = jc }, 0.5f, "per.joint_cone[2] is -0.1" },
        { PB_OP_ccd_cone, { .characters = 20, .cone = pc }, 0.5f, "per.cone[13] is nan" },
        { PB_OP_ccd_cone, { .characters = 10, .joint_cone = jc }, 0.5f, "per.characters = 10 but there are 20 chains" },
        { PB_OP_ccd_cone, { 0 }, -1.0f, "cone" },
        { PB_OP_ccd, { .characters = 20, .joint_cone = jc }, 0.5f, "ccd does not read joint_cone" },
        { PB_OP_lookat_cone, { .characters = 20, .joint_cone = jc }, 0.5f, "only the chain IK ops read it" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pb_call c = { .a = a, .b = b, .out = o, .params = p, .per = cases[k].per };
        c.params.cone = cases[k].cone;
        if (cases[k].op == PB_OP_lookat_cone) c.params.axis[2] = 1.0f;
        pb_status s = pb_run(cases[k].op, NULL, &c);
        CHECK(s != PB_OK && strstr(pb_last_error(), cases[k].msg), "ccd_cone bad input %zu: want '%s', got %s", k,
              cases[k].msg, pb_last_error());
    }
}

int main(void)
{
    static const pb_op ops[] = { PB_OP_fabrik, PB_OP_ccd };
    static const int lens[] = { 3, 5, 16 };
    if (pb_mocap_load(&mocap, NULL, 0, 0, NULL) != PB_OK) mocap.nclips = 0;
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        int emu = pb_variant_mode(v) == PB_MODE_EMULATED;
        for (size_t o = 0; o < 2; o++)
            for (size_t l = emu ? 1 : 0; l < (emu ? 2u : 3u); l++) {
                solve_checks(ops[o], v, lens[l], 1e-4f, 255, PB_CLASS_MIXED);
                if (!emu) solve_checks(ops[o], v, lens[l], 0.0f, 10, PB_CLASS_MIXED);
            }
        for (size_t o = 0; o < 2 && mocap.nclips; o++)   /* real legs (hip to toe) and arms (clavicle to hand) */
            for (int L = 4; L <= 5; L++) solve_checks(ops[o], v, L, 1e-4f, 255, PB_CLASS_MOCAP);
        for (size_t l = emu ? 1 : 0; l < (emu ? 2u : 3u); l++) cone_checks(v, lens[l], PB_CLASS_MIXED);
        if (mocap.nclips) cone_checks(v, 5, PB_CLASS_MOCAP);
    }
    bad_input(PB_OP_fabrik);
    bad_input(PB_OP_ccd);
    bad_input(PB_OP_ccd_cone);
    if (!mocap.nclips) printf("note: no CMU clips installed (/usr/share/assimp/models/BVH): real chains not checked\n");
    pb_mocap_free(&mocap);
    return check_done();
}
