/* test_bspace.c — blend-space weights (posebench/bspace.h): every method x
 * sample set x parameter class x variant through the validation table
 * (validate/bspace_check.c: the double oracle, the float reference's bits,
 * weights >= 0 summing to 1, linear precision, weight 1 at a sample,
 * continuity), plus what the table does not look at: the triangulation is
 * Delaunay (no sample inside a triangle's circumcircle) and tiles the hull,
 * 1D clamps at the ends, polar weights tend to the origin sample's at the
 * origin, and bad input is refused with the culprit named and nothing
 * written. */
#include <math.h>
#include <stdio.h>
#include <string.h>

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
