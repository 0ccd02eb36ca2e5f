/* test_palette.c — the skinning palettes, checked without the reference's
 * formulas: in every variant, points through each 3x4 matrix land where the
 * two kineforms put them one after the other (computed here in double);
 * at unit scale the 3x3 part is orthonormal with determinant 1; dual
 * quaternions are unit with real . dual = 0 and move points as the matrix
 * does; q and -q give the same matrix (and the negated dual quaternion).
 * The inverse bind pose of a small BVH: the palette of the rest pose is the
 * identity, and its per-joint form each joint's element of the crowd's; an
 * inverse bind per joint gives the palette of it repeated per character, bit
 * for bit. Bad calls are refused with the argument named and nothing
 * written; NaN inputs propagate (the library does not scan pose data). Plans
 * and the typed calls run the same kernel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "validate.h"
#include "all_variants.h"

#define N 37   /* two full AVX-512 blocks and a tail of 5 */

static void drot(const double q[4], const double v[3], double o[3])
{
    double tx = 2 * (q[2] * v[2] - q[3] * v[1]), ty = 2 * (q[3] * v[0] - q[1] * v[2]), tz = 2 * (q[1] * v[1] - q[2] * v[0]);
    o[0] = v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
    o[1] = v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
    o[2] = v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
}
/* x through element e of pose p: pos + rot (scl * x), in double. */
static void dkf_point(const pb_pose *p, size_t e, const double x[3], double o[3])
{
    double q[4], v[3];
    for (int c = 0; c < 4; c++) q[c] = p->plane[PB_ROT_W + c][e];
    double qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int c = 0; c < 4; c++) q[c] /= qn;
    for (int c = 0; c < 3; c++) v[c] = p->plane[PB_SCL_X + c][e] * x[c];
    drot(q, v, o);
    for (int c = 0; c < 3; c++) o[c] += p->plane[PB_POS_X + c][e];
}
static void mat_point(const float *m, const double x[3], double o[3])
{
    for (int r = 0; r < 3; r++) o[r] = m[4 * r] * x[0] + m[4 * r + 1] * x[1] + m[4 * r + 2] * x[2] + m[4 * r + 3];
}
/* x through dual quaternion d: real r, t = 2 dual conj(r). */
static void dq_point(const float *d, const double x[3], double o[3])
{
    double r[4] = { d[0], d[1], d[2], d[3] }, e[4] = { d[4], d[5], d[6], d[7] };
    double t[3] = { 2 * (-e[0] * r[1] + e[1] * r[0] - e[2] * r[3] + e[3] * r[2]),
                    2 * (-e[0] * r[2] + e[1] * r[3] + e[2] * r[0] - e[3] * r[1]),
                    2 * (-e[0] * r[3] - e[1] * r[2] + e[2] * r[1] + e[3] * r[0]) };
    drot(r, x, o);
    for (int c = 0; c < 3; c++) o[c] += t[c];
}
static double dist(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}
static const double pts[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, -0.5, 0.25 }, { 0.3, 0.7, -0.9 } };

static void set_unit_scale(pb_pose *p)
{
    for (int c = 0; c < 3; c++)
        for (size_t i = 0; i < p->n; i++) p->plane[PB_SCL_X + c][i] = 1.0f;
}

/* Every runnable variant on random globals and inverse binds (scales in [e^-1, e]) and at unit scale. */
static void check_variants(void)
{
    pb_pose a, b;
    pb_pose_alloc(&a, N);
    pb_pose_alloc(&b, N);
    float mat[N * 12 + 1], dq[N * 8 + 1], mat2[N * 12];
    double worst_pt = 0, worst_orth = 0, worst_dq = 0, worst_dqpt = 0;
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        for (int unit = 0; unit < 2; unit++) {
            pb_gen_case(&a, &b, PB_CLASS_RANDOM, 42 + (uint64_t)unit, pb_op_get(PB_OP_palette));
            if (unit) { set_unit_scale(&a); set_unit_scale(&b); }
            pb_palette pm = { mat, N }, pd = { dq, N };
            mat[N * 12] = dq[N * 8] = -7.0f;   /* guards past the end */
            pb_call cm = { .a = &a, .b = &b, .palette = &pm }, cd = { .a = &a, .b = &b, .palette = &pd };
            CHECK(pb_run(PB_OP_palette, v, &cm) == PB_OK, "%s: %s", pb_variant_name(v), pb_last_error());
            CHECK(pb_run(PB_OP_palette_dq, v, &cd) == PB_OK, "%s: %s", pb_variant_name(v), pb_last_error());
            CHECK(mat[N * 12] == -7.0f && dq[N * 8] == -7.0f, "%s wrote past the palette", pb_variant_name(v));
            for (size_t e = 0; e < N; e++) {
                const float *m = mat + 12 * e, *d = dq + 8 * e;
                for (int k = 0; k < 4; k++) {
                    double mid[3], want[3], got[3], viadq[3];
                    dkf_point(&b, e, pts[k], mid);
                    dkf_point(&a, e, mid, want);
                    mat_point(m, pts[k], got);
                    worst_pt = dmax(worst_pt, dist(got, want) / (1 + sqrt(want[0] * want[0] + want[1] * want[1] + want[2] * want[2])));
                    if (unit) {
                        dq_point(d, pts[k], viadq);
                        worst_dqpt = dmax(worst_dqpt, dist(viadq, got));
                    }
                }
                double rn = 0, rd = 0, tn = 0;
                for (int c = 0; c < 4; c++) {
                    rn += (double)d[c] * d[c];
                    rd += (double)d[c] * d[4 + c];
                    tn += (double)d[4 + c] * d[4 + c];
                }
                worst_dq = dmax(worst_dq, dmax(fabs(sqrt(rn) - 1), fabs(rd) / (1 + sqrt(tn))));
                if (unit) {
                    for (int r = 0; r < 3; r++)
                        for (int s = 0; s < 3; s++) {
                            double dot = 0;
                            for (int c = 0; c < 3; c++) dot += (double)m[4 * r + c] * m[4 * s + c];
                            worst_orth = dmax(worst_orth, fabs(dot - (r == s)));
                        }
                    double det = m[0] * ((double)m[5] * m[10] - (double)m[6] * m[9]) -
                                 m[1] * ((double)m[4] * m[10] - (double)m[6] * m[8]) +
                                 m[2] * ((double)m[4] * m[9] - (double)m[5] * m[8]);
                    worst_orth = dmax(worst_orth, fabs(det - 1));
                }
            }
            /* q and -q: the same matrix bit for bit, the dual quaternion negated exactly */
            for (size_t i = 0; i < N; i++)
                for (int c = 0; c < 4; c++) b.plane[PB_ROT_W + c][i] = -b.plane[PB_ROT_W + c][i];
            float dq2[N * 8];
            pb_palette pm2 = { mat2, N }, pd2 = { dq2, N };
            pb_call cm2 = { .a = &a, .b = &b, .palette = &pm2 }, cd2 = { .a = &a, .b = &b, .palette = &pd2 };
            CHECK(pb_run(PB_OP_palette, v, &cm2) == PB_OK && pb_run(PB_OP_palette_dq, v, &cd2) == PB_OK, "%s",
                  pb_last_error());
            CHECK(memcmp(mat, mat2, sizeof mat2) == 0, "%s: -q changed the matrix", pb_variant_name(v));
            int neg = 1;
            for (size_t j = 0; j < N * 8; j++) neg &= dq2[j] == -dq[j];
            CHECK(neg, "%s: -q did not negate the dual quaternion exactly", pb_variant_name(v));
        }
    }
    printf("points vs composed kineforms (double): %.3g rel; orthonormality at unit scale: %.3g; "
           "dq | |r| - 1 |, r.d: %.3g; dq vs matrix points at unit scale: %.3g\n",
           worst_pt, worst_orth, worst_dq, worst_dqpt);
    CHECK(worst_pt < 4e-6, "matrix points off by %g", worst_pt);
    CHECK(worst_orth < 2e-6, "not orthonormal: %g", worst_orth);
    CHECK(worst_dq < 2e-6, "dual quaternion not unit / orthogonal: %g", worst_dq);
    CHECK(worst_dqpt < 4e-6, "dual quaternion and matrix disagree by %g", worst_dqpt);
    pb_pose_free(&a);
    pb_pose_free(&b);
}

static const char bvh_text[] =
    "HIERARCHY\nROOT Hips\n{\n OFFSET 0 90 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    " JOINT Spine\n {\n  OFFSET 0 10 2\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "  JOINT Head\n  {\n   OFFSET 1 30 0\n   CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "   End Site\n   {\n    OFFSET 0 10 0\n   }\n  }\n }\n"
    " JOINT Leg\n {\n  OFFSET 10 -5 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "  End Site\n  {\n   OFFSET 0 -40 0\n  }\n }\n}\n"
    "MOTION\nFrames: 1\nFrame Time: 0.0333333\n0 90 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

/* The inverse bind per joint (b.n = n / per.characters): in every variant the
 * same palette, bit for bit, as b repeated for each character, at crowds
 * below, at and across the lane widths (a vector holding several joints,
 * two, or one); bad shapes refused with the palette untouched. */
static void check_shared(void)
{
    static const size_t chars[] = { 2, 5, 16, 17, 48, 200 };
    const size_t J = 7;
    for (size_t ci = 0; ci < sizeof chars / sizeof chars[0]; ci++) {
        size_t C = chars[ci], n = J * C;
        pb_pose a, b, bj, be;
        pb_pose_alloc(&a, n), pb_pose_alloc(&b, n), pb_pose_alloc_static(&bj, J), pb_pose_alloc_static(&be, n);
        pb_gen_case(&a, &b, PB_CLASS_RANDOM, 7 + C, pb_op_get(PB_OP_palette));
        for (int p = 0; p < PB_STATIC_PLANES; p++)
            for (size_t e = 0; e < n; e++) {
                if (e % C == 0) bj.plane[p][e / C] = b.plane[p][e];   /* each joint's first character's */
                be.plane[p][e] = b.plane[p][e - e % C];
            }
        float *x = malloc((n * 12 + 1) * sizeof *x), *y = malloc((n * 12 + 1) * sizeof *y);
        for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
            const pb_variant *v = pb_all_variant_at(vi);
            if (pb_variant_check(v) != PB_OK) continue;
            for (int dq = 0; dq < 2; dq++) {
                pb_op op = dq ? PB_OP_palette_dq : PB_OP_palette;
                size_t w = dq ? 8 : 12;
                pb_palette px = { x, n }, py = { y, n };
                x[n * w] = y[n * w] = -7.0f;
                pb_call ce = { .a = &a, .b = &be, .palette = &px }, cs = { .a = &a, .b = &bj, .palette = &py };
                cs.per.characters = C;
                CHECK(pb_run(op, v, &ce) == PB_OK && pb_run(op, v, &cs) == PB_OK, "%s C=%zu: %s", pb_variant_name(v), C,
                      pb_last_error());
                CHECK(memcmp(x, y, n * w * sizeof *x) == 0 && y[n * w] == -7.0f,
                      "%s %s, %zu characters: b per joint differs from b per element", pb_variant_name(v),
                      pb_op_get(op)->name, C);
            }
        }
        /* b neither n nor n / per.characters, or no characters: refused, nothing written */
        for (size_t e = 0; e < n * 12; e++) y[e] = 3.0f;
        pb_palette py = { y, n };
        pb_pose b2;
        pb_pose_alloc_static(&b2, J + 1);
        pb_call bad[3] = { { .a = &a, .b = &bj, .palette = &py }, { .a = &a, .b = &bj, .palette = &py },
                           { .a = &a, .b = &b2, .palette = &py } };
        bad[1].per.characters = C + 1, bad[2].per.characters = C;
        for (int k = 0; k < 3; k++)
            CHECK(pb_run(PB_OP_palette, NULL, &bad[k]) == PB_ERR_SIZE && strstr(pb_last_error(), "per.characters"),
                  "bad shape %d (C=%zu): %s", k, C, pb_last_error());
        int kept = 1;
        for (size_t e = 0; e < n * 12; e++) kept &= y[e] == 3.0f;
        CHECK(kept, "a refused call wrote the palette");
        free(x), free(y);
        pb_pose_free(&a), pb_pose_free(&b), pb_pose_free(&bj), pb_pose_free(&be), pb_pose_free(&b2);
    }
}

/* The rest pose of a BVH, its inverse bind; the palette of the rest globals is the identity. */
static void check_inverse_bind(void)
{
    pb_bvh_options opt = pb_bvh_default_options();
    opt.unit_scale = 0.01f;
    pb_bvh_skeleton bs;
    pb_clip clip;
    CHECK(pb_bvh_load_mem(bvh_text, sizeof bvh_text - 1, "palette.bvh", &opt, &bs, &clip) == PB_OK, "%s", pb_last_error());
    const size_t C = 5;
    pb_skeleton sk;
    CHECK(pb_crowd_skeleton(&sk, &bs, C) == PB_OK, "%s", pb_last_error());
    pb_pose rest, glob, ib;
    pb_pose_alloc(&rest, sk.n);
    pb_pose_alloc(&glob, sk.n);
    pb_pose_alloc(&ib, sk.n);
    CHECK(pb_rest_pose_from_bvh(&bs, &sk, &rest) == PB_OK, "%s", pb_last_error());
    CHECK(pb_inverse_bind_from_rest(&sk, &rest, &ib) == PB_OK, "%s", pb_last_error());
    /* Head: global rest at (0.01, 1.30, 0.02): its inverse bind moves it back to the origin */
    size_t head = 2 * C + 3;
    CHECK(fabsf(ib.plane[PB_POS_X][head] + 0.01f) < 1e-7f && fabsf(ib.plane[PB_POS_Y][head] + 1.30f) < 1e-6f &&
          fabsf(ib.plane[PB_POS_Z][head] + 0.02f) < 1e-7f && ib.plane[PB_ROT_W][head] == 1.0f,
          "head inverse bind (%g %g %g)", ib.plane[PB_POS_X][head], ib.plane[PB_POS_Y][head], ib.plane[PB_POS_Z][head]);
    /* a rest pose with rotations and a uniform scale: palette(fk(rest), inverse bind) = identity */
    for (size_t e = 0; e < sk.n; e++) {
        float h = 0.3f + 0.1f * (float)e, c = cosf(h), s = sinf(h);
        rest.plane[PB_ROT_W][e] = c; rest.plane[PB_ROT_X][e] = s * 0.6f; rest.plane[PB_ROT_Z][e] = s * 0.8f;
        for (int k = 0; k < 3; k++) rest.plane[PB_SCL_X + k][e] = 1.25f;
    }
    CHECK(pb_inverse_bind_from_rest(&sk, &rest, &ib) == PB_OK, "%s", pb_last_error());
    pb_call fk = { .a = &rest, .out = &glob, .skel = &sk };
    CHECK(pb_run(PB_OP_fk_static, NULL, &fk) == PB_OK, "%s", pb_last_error());
    float *m = malloc(sk.n * 12 * sizeof *m);
    pb_palette pm = { m, sk.n };
    CHECK(pb_matrix_palette(&glob, &ib, &pm) == PB_OK, "%s", pb_last_error());
    double worst = 0;
    for (size_t e = 0; e < sk.n; e++)
        for (int j = 0; j < 12; j++) worst = dmax(worst, fabs(m[12 * e + j] - (j % 5 == 0 ? 1.0 : 0.0)));
    printf("palette of the rest pose vs identity: %.3g\n", worst);
    CHECK(worst < 2e-6, "rest palette is not the identity: %g", worst);
    /* bad rest poses: refused, inv_bind untouched */
    float keep = ib.plane[PB_POS_X][0];
    rest.plane[PB_ROT_Y][3] = NAN;
    CHECK(pb_inverse_bind_from_rest(&sk, &rest, &ib) == PB_ERR_PARAM && strstr(pb_last_error(), "element 3"), "%s",
          pb_last_error());
    rest.plane[PB_ROT_Y][3] = 0.0f;
    rest.plane[PB_SCL_Z][4] = 0.0f;
    CHECK(pb_inverse_bind_from_rest(&sk, &rest, &ib) == PB_ERR_PARAM && strstr(pb_last_error(), "non-zero"), "%s",
          pb_last_error());
    CHECK(ib.plane[PB_POS_X][0] == keep, "inv_bind written on error");
    /* one per joint (n = skel->joints): each joint's element of the crowd's, bit for bit */
    pb_pose rest1, ib1;
    pb_pose_alloc_static(&rest1, sk.joints);
    pb_pose_alloc_static(&ib1, sk.joints);
    rest.plane[PB_SCL_Z][4] = 1.25f;
    CHECK(pb_inverse_bind_from_rest(&sk, &rest, &ib) == PB_OK, "%s", pb_last_error());
    for (int p = 0; p < PB_STATIC_PLANES; p++)
        for (size_t j = 0; j < sk.joints; j++) rest1.plane[p][j] = rest.plane[p][j * C];
    CHECK(pb_inverse_bind_from_rest(&sk, &rest1, &ib1) == PB_OK, "%s", pb_last_error());
    int same = 1;
    for (int p = 0; p < PB_STATIC_PLANES; p++)
        for (size_t j = 0; j < sk.joints; j++) same &= ib1.plane[p][j] == ib.plane[p][j * C];
    CHECK(same, "the per-joint inverse bind differs from the crowd's");
    CHECK(pb_rest_pose_from_bvh(&bs, &sk, &rest1) == PB_OK && rest1.plane[PB_POS_Y][2] == bs.offsets[2][1],
          "%s (head %g)", pb_last_error(), rest1.plane[PB_POS_Y][2]);
    CHECK(pb_inverse_bind_from_rest(&sk, &rest, &ib1) == PB_ERR_SIZE, "mixed shapes: %s", pb_last_error());
    pb_pose_free(&rest1), pb_pose_free(&ib1);
    pb_pose small;
    pb_pose_alloc(&small, 3);
    CHECK(pb_inverse_bind_from_rest(&sk, &rest, &small) == PB_ERR_SIZE, "%s", pb_last_error());
    CHECK(pb_inverse_bind_from_rest(NULL, &rest, &ib) == PB_ERR_NULL, "%s", pb_last_error());
    CHECK(pb_rest_pose_from_bvh(&bs, &sk, &small) == PB_ERR_SIZE, "%s", pb_last_error());
    pb_pose_free(&small);
    free(m);
    pb_pose_free(&rest); pb_pose_free(&glob); pb_pose_free(&ib);
    pb_skeleton_free(&sk);
    pb_bvh_skeleton_free(&bs);
    pb_clip_free(&clip);
}

/* Bad calls: each refused with its status and the argument named, the palette untouched. */
static void check_bad_calls(void)
{
    pb_pose a, b, c;
    pb_pose_alloc(&a, N);
    pb_pose_alloc(&b, N);
    pb_pose_alloc(&c, N + 1);
    pb_gen_case(&a, &b, PB_CLASS_RANDOM, 7, pb_op_get(PB_OP_palette));
    float buf[N * 12 + 2];
    for (size_t j = 0; j < N * 12 + 2; j++) buf[j] = 3.5f;
    const struct { pb_op op; const char *what; } ops[] = { { PB_OP_palette, "matrix" }, { PB_OP_palette_dq, "dq" } };
    for (int o = 0; o < 2; o++) {
        pb_palette good = { buf, N }, nodata = { NULL, N }, wrong = { buf, N - 1 };
        pb_palette mis = { (float *)((char *)buf + 2), N }, over = { a.plane[PB_POS_X], N };
        struct { pb_call call; pb_status want; const char *msg; } bad[] = {
            { { .a = &a, .b = &b }, PB_ERR_NULL, "call.palette is NULL" },
            { { .a = &a, .b = &b, .palette = &nodata }, PB_ERR_NULL, "palette.data is NULL" },
            { { .a = &a, .b = &b, .palette = &wrong }, PB_ERR_SIZE, "palette has n = 36" },
            { { .a = &a, .b = &c, .palette = &good }, PB_ERR_SIZE, "pose b has n = 38" },
            { { .a = &a, .palette = &good }, PB_ERR_NULL, "b" },
            { { .a = &a, .b = &b, .palette = &mis }, PB_ERR_ALIGN, "not aligned" },
            { { .a = &a, .b = &b, .palette = &over }, PB_ERR_ALIAS, "overlaps pose a" },
            { { .a = &a, .b = &b, .palette = &good, .per = { .characters = 1, .alpha = buf } }, PB_ERR_PARAM, "per.alpha" },
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            float a0 = a.plane[PB_POS_X][0];
            pb_status s = pb_run(ops[o].op, NULL, &bad[i].call);
            CHECK(s == bad[i].want && strstr(pb_last_error(), bad[i].msg), "%s case %zu: %s (%s), want %s", ops[o].what, i,
                  pb_status_name(s), pb_last_error(), bad[i].msg);
            int untouched = a.plane[PB_POS_X][0] == a0;
            for (size_t j = 0; j < N * 12 + 2; j++) untouched &= buf[j] == 3.5f;
            CHECK(untouched, "%s case %zu wrote on error", ops[o].what, i);
        }
        /* NaN in an input: accepted (pose data is not scanned per call: NaN in, NaN out), and only
         * that element's entry is affected */
        float *clean = malloc(N * 12 * sizeof *clean), *dirty = malloc(N * 12 * sizeof *dirty);
        pb_palette pc = { clean, N }, pdn = { dirty, N };
        pb_call cc = { .a = &a, .b = &b, .palette = &pc }, cdn = { .a = &a, .b = &b, .palette = &pdn };
        CHECK(pb_run(ops[o].op, NULL, &cc) == PB_OK, "%s", pb_last_error());
        float keep = b.plane[PB_ROT_X][20];
        b.plane[PB_ROT_X][20] = NAN;
        CHECK(pb_run(ops[o].op, NULL, &cdn) == PB_OK, "%s", pb_last_error());
        b.plane[PB_ROT_X][20] = keep;
        int w = o ? 8 : 12, only = 1, nan20 = 0;
        for (size_t e = 0; e < N; e++)
            for (int j = 0; j < w; j++) {
                size_t q = e * (size_t)w + (size_t)j;
                if (e == 20) nan20 |= isnan(dirty[q]);
                else only &= dirty[q] == clean[q];
            }
        CHECK(nan20 && only, "%s: NaN in element 20 of b: nan there %d, others unchanged %d", ops[o].what, nan20, only);
        free(clean);
        free(dirty);
    }
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&c);
}

/* A plan runs the same kernel as pb_run; the typed calls match too. */
static void check_plan(void)
{
    pb_pose a, b;
    pb_pose_alloc(&a, N);
    pb_pose_alloc(&b, N);
    pb_gen_case(&a, &b, PB_CLASS_RANDOM, 11, pb_op_get(PB_OP_palette_dq));
    float x[N * 8], y[N * 8];
    pb_palette px = { x, N }, py = { y, N };
    pb_call c = { .a = &a, .b = &b, .palette = &px };
    pb_plan *plan = NULL;
    CHECK(pb_plan_create(&plan, PB_OP_palette_dq, NULL, &c) == PB_OK, "%s", pb_last_error());
    CHECK(pb_plan_run(plan) == PB_OK, "%s", pb_last_error());
    CHECK(pb_dq_palette(&a, &b, &py) == PB_OK, "%s", pb_last_error());
    CHECK(memcmp(x, y, sizeof x) == 0, "plan and pb_dq_palette differ");
    pb_plan_destroy(plan);
    /* static poses (pos/rot/scl planes only) give the same palette */
    pb_pose sa, sb;
    pb_pose_alloc_static(&sa, N);
    pb_pose_alloc_static(&sb, N);
    CHECK(pb_pose_copy(&sa, &a) == PB_OK && pb_pose_copy(&sb, &b) == PB_OK, "%s", pb_last_error());
    CHECK(pb_dq_palette(&sa, &sb, &py) == PB_OK && memcmp(x, y, sizeof x) == 0, "static poses: %s", pb_last_error());
    pb_pose_free(&sa);
    pb_pose_free(&sb);
    pb_palette bad = { x, N + 1 };
    CHECK(pb_dq_palette(&a, &b, &bad) == PB_ERR_SIZE && pb_matrix_palette(&a, &b, NULL) == PB_ERR_NULL, "%s",
          pb_last_error());
    pb_pose_free(&a);
    pb_pose_free(&b);
}

int main(void)
{
    check_plan();
    check_variants();
    check_inverse_bind();
    check_bad_calls();
    check_shared();
    return check_done();
}
