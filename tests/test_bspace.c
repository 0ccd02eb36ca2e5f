/* test_bspace.c — blend-space weights (posebench/bspace.h): every method x
 * sample set x parameter class x variant through the validation table
 * (validate/bspace_check.c: the double oracle, the float reference's bits,
 * weights >= 0 summing to 1, linear precision, weight 1 at a sample,
 * continuity), plus what the table does not look at: the triangulation is
 * Delaunay (no sample inside a triangle's circumcircle) and tiles the hull,
 * 1D clamps at the ends, samples collinear up to float rounding, polar
 * weights against the definition written out in double (both sides of the
 * seam) and unchanged by turning the space, polar weights tend to the
 * origin sample's at the origin, and bad input is refused with the culprit named and nothing
 * written. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "all_variants.h"
#include "bspace_check.h"
#include "check.h"
#include "val_rows.h"
#include "refuse.h"

#include "minmax.h"

static double orient(const pb_bspace *bs, int a, int b, int c)
{
    return ((double)bs->x[b] - bs->x[a]) * ((double)bs->y[c] - bs->y[a]) -
           ((double)bs->x[c] - bs->x[a]) * ((double)bs->y[b] - bs->y[a]);
}

/* Circumcircle of (a, b, c) contains sample d by more than tol x radius. */
static int inside_circle(const pb_bspace *bs, int a, int b, int c, int d, double tol)
{
    double ax = bs->x[a], ay = bs->y[a], bx = bs->x[b], by = bs->y[b], cx = bs->x[c], cy = bs->y[c];
    double D = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
    double ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / D;
    double uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / D;
    double r = hypot(ax - ux, ay - uy);
    return hypot(bs->x[d] - ux, bs->y[d] - uy) < r * (1 - tol);
}

static void triangulation_checks(void)
{
    for (int set = 1; set < PB_BS_SETS; set++) {
        float x[PB_BSPACE_MAX_SAMPLES], y[PB_BSPACE_MAX_SAMPLES];
        const char *name;
        size_t m = pb_bs_set(set, x, y, &name);
        pb_bspace bs;
        CHECK(pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, x, y, m) == PB_OK, "%s: %s", name, pb_last_error());
        double area = 0;
        size_t bad_circle = 0, cw = 0;
        for (size_t t = 0; t < bs.triangles; t++) {
            const int32_t *v = bs.tri + 3 * t;
            double o = orient(&bs, v[0], v[1], v[2]);
            cw += o <= 0;
            area += o / 2;
            for (size_t d = 0; d < m; d++)
                if ((int)d != v[0] && (int)d != v[1] && (int)d != v[2]) bad_circle += inside_circle(&bs, v[0], v[1], v[2], (int)d, 1e-6);
        }
        /* Euler: a triangulation of m points with h on the hull has 2m - h - 2 triangles and h hull edges */
        size_t h = bs.hull;
        printf("bspace %-10s %zu samples: %zu triangles, %zu hull edges, area %.6g\n", name, m, bs.triangles, h, area);
        CHECK(cw == 0 && bad_circle == 0, "%s: %zu clockwise triangles, %zu samples inside a circumcircle", name, cw,
              bad_circle);
        CHECK(bs.triangles + h + 2 == 2 * m, "%s: %zu triangles for %zu samples, %zu hull edges (every sample a corner)",
              name, bs.triangles, m, h);
        double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
        for (size_t i = 0; i < m; i++)
            lo[0] = bmin(lo[0], x[i]), hi[0] = bmax(hi[0], x[i]), lo[1] = bmin(lo[1], y[i]), hi[1] = bmax(hi[1], y[i]);
        /* the sets with a square or circular outline: their hull area is known */
        if (set == 2) CHECK(fabs(area - 4) < 1e-9, "grid3x3: area %.9g (4)", area);
        if (set == 1) CHECK(fabs(area - 8 * 0.5 * 3.5 * 3.5 * sin(0.7853981633974483)) < 1e-4, "locomotion: area %.9g", area);
        pb_bspace_free(&bs);
    }
}

/* Weights of the n points (px, py) on variant v into w (planes of stride n). */
static int weights_at(const pb_bspace *bs, const float *px, const float *py, size_t n, float *w, const pb_variant *v)
{
    pb_status s = pb_bspace_weights(bs, px, py, n, w, n, v);
    CHECK(s == PB_OK, "%s: %s", pb_variant_name(v), pb_last_error());
    return s == PB_OK;
}

/* Samples along one direction made as users make them, with cosf / sinf:
 * idle (0, 0), walk at radius 1 and run at 3 in direction d, so collinear
 * only up to float rounding, plus walks beside them (one 120 degrees
 * clockwise, as issue 62 found it; or two, 90 degrees either side, so the
 * line is an inner edge). On every variant: weight 1 at each sample's own
 * point, and at the middle of idle-walk and of walk-run half on each end
 * (the 1D interpolation along the line), nothing on the others; no triangle
 * thinner than the collinearity tolerance; three such samples alone are one
 * line. */
static void collinear_checks(void)
{
    static const double dirs[] = { 120, 0, 30, 45, 90, 135, 200, 270, 333 };
    const size_t nd = sizeof dirs / sizeof *dirs;
    const double rad = 3.14159265358979323846 / 180;
    size_t bad_at = 0, bad_mid = 0, slivers = 0, rows = 0;
    for (size_t di = 0; di < 2 * nd; di++)
        for (int beside = 1; beside <= 2; beside++) {
            /* in float (cosf, sinf), then in double rounded to float */
            int dbl = di >= nd;
            double dd = dirs[di % nd] * rad;
            double b0 = beside == 1 ? dd - 120 * rad : dd - 90 * rad, b1 = dd + 90 * rad;
            float d = (float)dd, x[5], y[5];
            x[0] = 0, y[0] = 0;
            x[1] = dbl ? (float)cos(dd) : cosf(d), y[1] = dbl ? (float)sin(dd) : sinf(d);
            x[2] = dbl ? (float)(3 * cos(dd)) : 3 * cosf(d), y[2] = dbl ? (float)(3 * sin(dd)) : 3 * sinf(d);
            x[3] = (float)cos(b0), y[3] = (float)sin(b0), x[4] = (float)cos(b1), y[4] = (float)sin(b1);
            size_t m = beside == 1 ? 4 : 5;
            pb_bspace bs;
            pb_status s = pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, x, y, m);
            CHECK(s == PB_OK, "direction %g, %d beside: %s", dirs[di % nd], beside, pb_last_error());
            if (s != PB_OK) continue;
            for (size_t t = 0; t < bs.triangles; t++) {
                const int32_t *v = bs.tri + 3 * t;
                double l = 0;
                for (int e = 0; e < 3; e++)
                    l = dmax(l, hypot((double)bs.x[v[(e + 1) % 3]] - bs.x[v[e]], (double)bs.y[v[(e + 1) % 3]] - bs.y[v[e]]));
                slivers += fabs(orient(&bs, v[0], v[1], v[2])) / l <= 1e-6 * 3;   /* height vs 1e-6 x |run| */
            }
            /* the samples, then the middles of idle-walk and walk-run */
            float px[7], py[7], w[5 * 7];
            for (size_t i = 0; i < m; i++) px[i] = x[i], py[i] = y[i];
            px[m] = 0.5f * x[1], py[m] = 0.5f * y[1], px[m + 1] = 0.5f * (x[1] + x[2]), py[m + 1] = 0.5f * (y[1] + y[2]);
            size_t n = m + 2;
            for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
                const pb_variant *v = pb_all_variant_at(vi);
                if (pb_variant_check(v) != PB_OK || !weights_at(&bs, px, py, n, w, v)) continue;
                rows++;
                for (size_t i = 0; i < m; i++)
                    if (!(fabs(1.0 - w[i * n + i]) <= 1e-6)) {
                        bad_at++;
                        fprintf(stderr, "direction %g, %d beside, %s: at sample %zu its weight is %g\n", dirs[di % nd], beside,
                                pb_variant_name(v), i, (double)w[i * n + i]);
                    }
                for (size_t c = m; c < n; c++) {
                    size_t lo = c == m ? 0 : 1;   /* the segment's ends: idle-walk, walk-run */
                    double off = 0;
                    for (size_t i = 0; i < m; i++)
                        off = dmax(off, fabs(w[i * n + c] - (i == lo || i == lo + 1 ? 0.5 : 0.0)));
                    if (!(off <= 1e-5)) {
                        bad_mid++;
                        fprintf(stderr, "direction %g, %d beside, %s: middle of samples %zu-%zu: a weight %g off\n",
                                dirs[di % nd], beside, pb_variant_name(v), lo, lo + 1, off);
                    }
                }
            }
            pb_bspace_free(&bs);
            REFUSE(PB_ERR_PARAM, "one line", pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, x, y, 3));
        }
    CHECK(rows > 0 && bad_at == 0 && bad_mid == 0 && slivers == 0,
          "collinear samples by trigonometry, %zu variant rows: %zu wrong at a sample, %zu wrong between collinear "
          "samples, %zu sliver triangles", rows, bad_at, bad_mid, slivers);
}

/* Polar gradient band weights written straight from the definition, in
 * double, apart from reference/bspace.h's tables (Johansen 2009, and his
 * Locomotion System's interpolator): per pair (i, j) the pair vector and the
 * parameter's vector from p_i, in (angle, radius) space, radii over the
 * pair's mean radius, h_ij = 1 - v_ip . v_ij / |v_ij|^2; W_i = max(0, min(1,
 * min_j h_ij)), normalized. Angles are differences of atan2 wrapped into
 * (-pi, pi] and count twice; an origin sample has no direction and takes the
 * parameter's (its pairs' angle counts once: the angle between p and the
 * other sample); a pair within 1 % of opposite has no turning sense, so its
 * angles count unsigned. */
static double wrap_pi(double a)
{
    const double pi = 3.14159265358979323846;
    while (a > pi) a -= 2 * pi;
    while (a <= -pi) a += 2 * pi;
    return a;
}
static void polar_by_definition(const float *x, const float *y, size_t m, double px, double py, double *w)
{
    double r = hypot(px, py), ap = atan2(py, px), sum = 0;
    for (size_t i = 0; i < m; i++) {
        double ri = hypot(x[i], y[i]), ai = atan2(y[i], x[i]), v = 1;
        for (size_t j = 0; j < m; j++) {
            if (j == i) continue;
            double rj = hypot(x[j], y[j]), aj = atan2(y[j], x[j]), mu = (ri + rj) / 2, u[2], q[2];
            if (ri == 0) {   /* p_i takes p's direction: no angle from it to p */
                u[0] = fabs(wrap_pi(aj - ap)), u[1] = rj / mu, q[0] = 0, q[1] = r / mu;
            } else if (rj == 0) {   /* p_j takes p's direction */
                double b = fabs(wrap_pi(ap - ai));
                u[0] = b, u[1] = -ri / mu, q[0] = b, q[1] = (r - ri) / mu;
            } else {
                double A = wrap_pi(aj - ai), th = wrap_pi(ap - ai);
                if (fabs(A) >= 0.99 * 3.14159265358979323846) A = fabs(A), th = fabs(th);
                u[0] = 2 * A, u[1] = (rj - ri) / mu, q[0] = 2 * th, q[1] = (r - ri) / mu;
            }
            double h = 1 - (u[0] * q[0] + u[1] * q[1]) / (u[0] * u[0] + u[1] * u[1]);
            v = h < v ? h : v;
        }
        w[i] = v > 0 ? v : 0, sum += w[i];
    }
    for (size_t i = 0; i < m; i++) w[i] /= sum;
}

/* The polar weights beside the seam and elsewhere against the definition,
 * every variant; and unchanged when samples and parameters turn together. The
 * seam: with samples not around the origin, the ray opposite a sample is
 * where the parameter's angle from it wraps from +pi to -pi, and the weights
 * jump there by definition (0.30 for idle, walk and run at 0 degrees, walk and
 * run at 120, across (-2, 0)). */
static void polar_checks(void)
{
    const double d120 = 2.0943951023931957;
    float sets[3][2][8] = {
        { { 0, 1, 3, (float)cos(d120), (float)(3 * cos(d120)) }, { 0, 0, 0, (float)sin(d120), (float)(3 * sin(d120)) } },
        { { 0, 1, -1, 0, 2 }, { 0, 0, 0, 1, 0 } },   /* an opposite pair, the origin on the hull */
        { { 1, 3, 0, 0, -1 }, { 0, 0, 1, 3, 0.05f } },   /* no origin sample, a pair 1 % short of opposite */
    };
    const size_t ms[3] = { 5, 5, 5 };
    enum { NQ = 64 };
    float qx[NQ], qy[NQ], rx[NQ], ry[NQ];
    const double side[4] = { 1e-3, -1e-3, 1e-5, -1e-5 };
    uint64_t seed = 5;
    for (int i = 0; i < NQ; i++) {
        if (i < 4) qx[i] = -2, qy[i] = (float)side[i];
        else if (i < 8) qx[i] = 0.5f, qy[i] = (float)(i < 6 ? 1 : -1) * (i % 2 ? 1e-3f : 1e-5f);   /* opposite sample 2 of set 1 */
        else {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            double a = (double)(seed >> 11) * 0x1p-53 * 6.283185307179586, rr = 0.3 + 3.5 * (double)((seed >> 3) & 0xff) / 255;
            qx[i] = (float)(rr * cos(a)), qy[i] = (float)(rr * sin(a));
        }
    }
    double worst = 0, worst_turn = 0, jump = 0;
    for (int set = 0; set < 3; set++) {
        size_t m = ms[set];
        const float *x = sets[set][0], *y = sets[set][1];
        pb_bspace bs, rot;
        const double turn = 0.6457718232379019;   /* 37 degrees */
        float tx[8], ty[8];
        for (size_t i = 0; i < m; i++)
            tx[i] = (float)(cos(turn) * x[i] - sin(turn) * y[i]), ty[i] = (float)(sin(turn) * x[i] + cos(turn) * y[i]);
        for (int i = 0; i < NQ; i++)
            rx[i] = (float)(cos(turn) * qx[i] - sin(turn) * qy[i]), ry[i] = (float)(sin(turn) * qx[i] + cos(turn) * qy[i]);
        pb_status s1 = pb_bspace_create(&bs, PB_BSPACE_POLAR, x, y, m), s2 = pb_bspace_create(&rot, PB_BSPACE_POLAR, tx, ty, m);
        CHECK(s1 == PB_OK && s2 == PB_OK, "polar set %d: %s", set, pb_last_error());
        if (s1 != PB_OK || s2 != PB_OK) continue;
        double def[NQ][8];
        for (int c = 0; c < NQ; c++) polar_by_definition(x, y, m, qx[c], qy[c], def[c]);
        if (set == 0)
            for (size_t i = 0; i < m; i++) jump = dmax(jump, fabs(def[0][i] - def[1][i]));
        float w[8 * NQ], wr[8 * NQ];
        for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
            const pb_variant *v = pb_all_variant_at(vi);
            if (pb_variant_check(v) != PB_OK || !weights_at(&bs, qx, qy, NQ, w, v) || !weights_at(&rot, rx, ry, NQ, wr, v))
                continue;
            for (int c = 0; c < NQ; c++)
                for (size_t i = 0; i < m; i++) {
                    double e = fabs(w[i * NQ + c] - def[c][i]), t = fabs(wr[i * NQ + c] - w[i * NQ + c]);
                    if (e > 1e-5 || t > 1e-5)
                        fprintf(stderr, "polar set %d, %s, (%g, %g): sample %zu weight %.6f, by definition %.6f, "
                                "turned %.6f\n", set, pb_variant_name(v), (double)qx[c], (double)qy[c], i,
                                (double)w[i * NQ + c], def[c][i], (double)wr[i * NQ + c]);
                    worst = dmax(worst, e), worst_turn = dmax(worst_turn, t);
                }
        }
        pb_bspace_free(&bs), pb_bspace_free(&rot);
    }
    printf("bspace polar: worst |w - definition| %.2e, turned 37 degrees %.2e; the definition's jump across the "
           "seam %.4f\n", worst, worst_turn, jump);
    CHECK(worst <= 1e-5 && worst_turn <= 1e-5, "polar weights: %.3g from the definition, %.3g changed by turning",
          worst, worst_turn);
    CHECK(jump > 0.25, "the definition's jump across the seam: %.3g (0.30 expected)", jump);
}

static void behaviour_checks(void)
{
    /* 1D: clamped at the ends, by sorted position (the samples are given unsorted) */
    float x[PB_BSPACE_MAX_SAMPLES], y[PB_BSPACE_MAX_SAMPLES];
    const char *name;
    size_t m = pb_bs_set(0, x, y, &name);
    pb_bspace bs;
    CHECK(pb_bspace_create(&bs, PB_BSPACE_1D, x, NULL, m) == PB_OK, "%s", pb_last_error());
    float p[2] = { -100.0f, 100.0f }, w[2 * PB_BSPACE_MAX_SAMPLES];
    CHECK(pb_bspace_weights(&bs, p, NULL, 2, w, 2, NULL) == PB_OK, "%s", pb_last_error());
    CHECK(w[1 * 2 + 0] == 1.0f && w[2 * 2 + 1] == 1.0f, "1d ends: sample 1 (speed 0) %g below, sample 2 (6.5) %g above",
          (double)w[1 * 2 + 0], (double)w[2 * 2 + 1]);
    pb_bspace_free(&bs);

    /* polar: the origin sample takes over as the parameter nears the origin */
    m = pb_bs_set(1, x, y, &name);
    CHECK(pb_bspace_create(&bs, PB_BSPACE_POLAR, x, y, m) == PB_OK, "%s", pb_last_error());
    CHECK(bs.origin == 0, "locomotion: origin sample %d (0)", bs.origin);
    float px[3] = { 1e-4f, 0.0f, -3e-4f }, py[3] = { 0.0f, 0.0f, 2e-4f }, w3[3 * PB_BSPACE_MAX_SAMPLES];
    CHECK(pb_bspace_weights(&bs, px, py, 3, w3, 3, NULL) == PB_OK, "%s", pb_last_error());
    for (int c = 0; c < 3; c++)
        CHECK(w3[c] >= 1.0f - 1e-3f, "polar near the origin (%g, %g): origin weight %g", (double)px[c], (double)py[c],
              (double)w3[c]);
    pb_bspace_free(&bs);
}

static void bad_input(void)
{
    float x[4] = { 0, 1, 2, 0 }, y[4] = { 0, 0, 0, 1 }, nanx[3] = { 0, NAN, 1 };
    pb_bspace bs;
    REFUSE(PB_ERR_NULL, "bs", pb_bspace_create(NULL, PB_BSPACE_1D, x, NULL, 3));
    REFUSE(PB_ERR_NULL, "x", pb_bspace_create(&bs, PB_BSPACE_1D, NULL, NULL, 3));
    REFUSE(PB_ERR_NULL, "y", pb_bspace_create(&bs, PB_BSPACE_GRADIENT, x, NULL, 3));
    REFUSE(PB_ERR_PARAM, "method", pb_bspace_create(&bs, (pb_bspace_method)7, x, y, 3));
    REFUSE(PB_ERR_SIZE, "1 samples", pb_bspace_create(&bs, PB_BSPACE_1D, x, NULL, 1));
    REFUSE(PB_ERR_SIZE, "2 samples", pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, x, y, 2));
    REFUSE(PB_ERR_SIZE, "65 samples", pb_bspace_create(&bs, PB_BSPACE_GRADIENT, x, y, 65));
    REFUSE(PB_ERR_PARAM, "sample 1", pb_bspace_create(&bs, PB_BSPACE_1D, nanx, NULL, 3));
    float dx[3] = { 1, 2, 1 }, dy[3] = { 5, 0, 5 };
    REFUSE(PB_ERR_PARAM, "samples 0 and 2", pb_bspace_create(&bs, PB_BSPACE_GRADIENT, dx, dy, 3));
    REFUSE(PB_ERR_PARAM, "samples 0 and 2", pb_bspace_create(&bs, PB_BSPACE_1D, dx, NULL, 3));
    REFUSE(PB_ERR_PARAM, "one line", pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, x, y, 3));
    float nx[3] = { 1e-9f, 1, 0 }, ny[3] = { 0, 0, 1 };
    REFUSE(PB_ERR_PARAM, "sample 0", pb_bspace_create(&bs, PB_BSPACE_POLAR, nx, ny, 3));
    CHECK(bs.tab == NULL && bs.samples == 0, "a refused create leaves bs empty");
    pb_bspace_free(&bs);   /* accepted on an empty blend space */

    CHECK(pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, x, y, 4) == PB_OK, "%s", pb_last_error());
    float px[5] = { 0.1f, 0.2f, 0.3f, NAN, 0.5f }, py[5] = { 0.1f, 0.1f, INFINITY, 0.1f, 0.1f };
    float w[4 * 5], keep[4 * 5];
    for (size_t i = 0; i < 20; i++) w[i] = keep[i] = -7.0f;
    REFUSE(PB_ERR_NULL, "bs", pb_bspace_weights(NULL, px, py, 2, w, 5, NULL));
    REFUSE(PB_ERR_NULL, "py", pb_bspace_weights(&bs, px, NULL, 2, w, 5, NULL));
    REFUSE(PB_ERR_NULL, "w", pb_bspace_weights(&bs, px, py, 2, NULL, 5, NULL));
    REFUSE(PB_ERR_EMPTY, "n = 0", pb_bspace_weights(&bs, px, py, 0, w, 5, NULL));
    REFUSE(PB_ERR_SIZE, "w_stride 4", pb_bspace_weights(&bs, px, py, 5, w, 4, NULL));
    REFUSE(PB_ERR_PARAM, "character 2: py", pb_bspace_weights(&bs, px, py, 5, w, 5, NULL));
    float fy[5] = { 0.1f, 0.1f, 0.1f, 0.1f, 0.1f };
    REFUSE(PB_ERR_PARAM, "character 3: px", pb_bspace_weights(&bs, px, fy, 5, w, 5, NULL));
    CHECK(!memcmp(w, keep, sizeof w), "nothing written on error");
    pb_bspace empty;
    memset(&empty, 0, sizeof empty);
    REFUSE(PB_ERR_EMPTY, "not created", pb_bspace_weights(&empty, px, py, 2, w, 5, NULL));
    pb_bspace_free(&bs);
}

int main(void)
{
    triangulation_checks();
    collinear_checks();
    polar_checks();
    behaviour_checks();
    bad_input();
    FILE *devnull = fopen("/dev/null", "w");
    val_rows got = { .op_prefix = "bspace" };
    const pb_val_sink sink = { val_rows_fn, &got };
    int fails = pb_bs_validate(devnull ? devnull : stdout, &sink);
    if (devnull) fclose(devnull);
    CHECK(fails == 0, "%d failing blend-space rows (posebench validate --op bspace shows them)", fails);
    /* the rows --json writes (issue 62, defect 5: none were): some, every one whole, none failing */
    CHECK(got.rows > 0 && got.bad == 0 && got.fails == 0, "blend-space JSON rows: %zu, %zu malformed (%s), %zu failing", got.rows,
          got.bad, got.first_bad, got.fails);
    return check_done();
}
