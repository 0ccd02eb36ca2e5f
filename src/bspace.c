/* bspace.c — blend spaces (posebench/bspace.h): the samples checked, the
 * method's tables built in double (internal.h: PB_DEFINE_BSARGS) and kept
 * rounded to float for the kernels, and the per-frame weights call. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#include "minmax.h"

PB_INTERNAL pb_status pb_bspace_triangulate(pb_bspace *bs);   /* bspace_tri.c */

const char *pb_bspace_method_name(pb_bspace_method m)
{
    static const char *names[PB_BSPACE_METHODS] = { "1d", "barycentric", "gradient", "polar" };
    return (unsigned)m < PB_BSPACE_METHODS ? names[m] : NULL;
}

/* Floats in the method's table. */
static size_t tab_len(const pb_bspace *bs)
{
    size_t m = bs->samples;
    switch (bs->method) {
    case PB_BSPACE_1D: return 2 * m - 1;
    case PB_BSPACE_BARYCENTRIC: return PB_BS_TRI * bs->triangles + PB_BS_EDGE * bs->hull;
    case PB_BSPACE_GRADIENT: return 2 * m + 2 * m * m;
    default: return 3 * m + PB_BS_PAIR * m * m;
    }
}


/* The table (tab_len floats) in double; bs->itab already holds the 1D order
 * or the triangles and hull edges. */
static void build_tab(const pb_bspace *bs, double *t)
{
    size_t m = bs->samples;
    const float *x = bs->x, *y = bs->y;
    if (bs->method == PB_BSPACE_1D) {
        for (size_t k = 0; k < m; k++) t[k] = x[bs->itab[k]];
        for (size_t k = 0; k + 1 < m; k++) t[m + k] = t[k + 1] - t[k];
        return;
    }
    if (bs->method == PB_BSPACE_BARYCENTRIC) {
        for (size_t i = 0; i < bs->triangles; i++) {
            const int32_t *v = bs->itab + 3 * i;
            double ax = x[v[0]], ay = y[v[0]], ux = x[v[1]] - ax, uy = y[v[1]] - ay, wx = x[v[2]] - ax,
                   wy = y[v[2]] - ay, det = ux * wy - wx * uy;
            double *a = t + PB_BS_TRI * i;
            a[0] = ax, a[1] = ay, a[2] = wy / det, a[3] = -wx / det, a[4] = -uy / det, a[5] = ux / det;
        }
        for (size_t e = 0; e < bs->hull; e++) {
            const int32_t *v = bs->itab + 3 * bs->triangles + 2 * e;
            double *a = t + PB_BS_TRI * bs->triangles + PB_BS_EDGE * e;
            a[0] = x[v[0]], a[1] = y[v[0]], a[2] = (double)x[v[1]] - x[v[0]], a[3] = (double)y[v[1]] - y[v[0]];
            a[4] = 1.0 / (a[2] * a[2] + a[3] * a[3]);
        }
        return;
    }
    if (bs->method == PB_BSPACE_GRADIENT) {
        for (size_t i = 0; i < m; i++) t[i] = x[i], t[m + i] = y[i];
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < m; j++) {
                double ex = (double)x[j] - x[i], ey = (double)y[j] - y[i], l2 = ex * ex + ey * ey;
                double *g = t + 2 * m + 2 * (i * m + j);
                g[0] = i == j ? 0 : ex / l2, g[1] = i == j ? 0 : ey / l2;
            }
        return;
    }
    /* polar: v_ij = (2|A|, d), v_ip = (2 phi, (r - r_i) / mu): v_ij . v_ip / |v_ij|^2 =
     * (4|A| phi + d (r - r_i) / mu) / (4 A^2 + d^2), phi = +-th_i (signed) or |th_i| */
    for (size_t i = 0; i < m; i++) {
        double r = hypot(x[i], y[i]);
        t[i] = atan2(y[i], x[i]), t[m + i] = r, t[2 * m + i] = r > 0 ? 1 / r : 0;
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++) {
            double *q = t + 3 * m + PB_BS_PAIR * (i * m + j), ri = t[m + i], rj = t[m + j];
            memset(q, 0, PB_BS_PAIR * sizeof *q);
            if (i == j || ri == 0 || rj == 0) continue;
            double A = atan2((double)x[i] * y[j] - (double)y[i] * x[j], (double)x[i] * x[j] + (double)y[i] * y[j]);
            double mu = (ri + rj) / 2, d = (rj - ri) / mu, a = 2 * fabs(A), inv = 1 / (a * a + d * d);
            int unsigned_angle = fabs(A) >= 0.99 * 3.14159265358979323846;   /* within 1 % of opposite */
            q[0] = 2 * a * inv * (unsigned_angle || A >= 0 ? 1 : -1);
            q[1] = unsigned_angle;
            q[2] = d / mu * inv;
        }
}

pb_status pb_bspace_create(pb_bspace *bs, pb_bspace_method method, const float *x, const float *y, size_t samples)
{
    static const char *fn = "pb_bspace_create";
    if (!bs) return pb_fail(PB_ERR_NULL, "%s: bs is NULL", fn);
    memset(bs, 0, sizeof *bs);
    bs->origin = -1;
    if (!pb_bspace_method_name(method))
        return pb_fail(PB_ERR_PARAM, "%s: method is %d (PB_BSPACE_1D .. PB_BSPACE_POLAR)", fn, (int)method);
    int two = method != PB_BSPACE_1D;
    if (!x || (two && !y)) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, !x ? "x" : "y");
    size_t least = method == PB_BSPACE_BARYCENTRIC ? 3 : 2;
    if (samples < least || samples > PB_BSPACE_MAX_SAMPLES)
        return pb_fail(PB_ERR_SIZE, "%s: %zu samples (%s: %zu .. %d)", fn, samples, pb_bspace_method_name(method),
                       least, PB_BSPACE_MAX_SAMPLES);
    double big = 0;
    for (size_t i = 0; i < samples; i++) {
        float yi = two ? y[i] : 0.0f;
        if (!isfinite(x[i]) || !isfinite(yi))
            return pb_fail(PB_ERR_PARAM, "%s: sample %zu is (%g, %g) (finite coordinates)", fn, i, (double)x[i],
                           (double)yi);
        big = bmax(big, hypot(x[i], yi));
    }
    for (size_t i = 0; i < samples; i++)
        for (size_t j = 0; j < i; j++)
            if (hypot((double)x[i] - x[j], two ? (double)y[i] - y[j] : 0) <= 1e-6 * big)
                return pb_fail(PB_ERR_PARAM, "%s: samples %zu and %zu are at the same point (%g, %g)", fn, j, i,
                               (double)x[i], two ? (double)y[i] : 0.0);
    pb_bspace b;
    memset(&b, 0, sizeof b);
    b.method = method, b.samples = samples, b.origin = -1;
    for (size_t i = 0; i < samples; i++) b.x[i] = x[i], b.y[i] = two ? y[i] : 0.0f;
    if (method == PB_BSPACE_POLAR)
        for (size_t i = 0; i < samples; i++) {
            double r = hypot(b.x[i], b.y[i]);
            if (r == 0) b.origin = (int)i;
            else if (r <= 1e-6 * big)
                return pb_fail(PB_ERR_PARAM, "%s: sample %zu is (%g, %g): off the origin by under 1e-6 of the "
                               "largest magnitude (put it at (0, 0))", fn, i, (double)b.x[i], (double)b.y[i]);
        }
    if (method == PB_BSPACE_BARYCENTRIC) {
        pb_status s = pb_bspace_triangulate(&b);
        if (s != PB_OK) return s;
    } else if (method == PB_BSPACE_1D) {
        if (!(b.itab = malloc(samples * sizeof *b.itab))) return pb_fail(PB_ERR_NOMEM, "%s: out of memory", fn);
        for (size_t i = 0; i < samples; i++) {   /* insertion sort by position (no two equal) */
            size_t j = i;
            for (; j > 0 && b.x[b.itab[j - 1]] > b.x[i]; j--) b.itab[j] = b.itab[j - 1];
            b.itab[j] = (int32_t)i;
        }
    }
    size_t n = tab_len(&b);
    double *t = malloc(n * sizeof *t);
    b.tab = malloc(n * sizeof *b.tab);
    if (!t || !b.tab) {
        free(t), free(b.tab), free(b.itab);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for the tables", fn);
    }
    build_tab(&b, t);
    for (size_t i = 0; i < n; i++) b.tab[i] = (float)t[i];
    free(t);
    *bs = b;
    return PB_OK;
}

void pb_bspace_free(pb_bspace *bs)
{
    if (!bs) return;
    free(bs->tab), free(bs->itab);
    memset(bs, 0, sizeof *bs);
    bs->origin = -1;
}

int pb_bspace_tables_f64(const pb_bspace *bs, double **t)
{
    *t = malloc(tab_len(bs) * sizeof **t);
    if (!*t) return -1;
    build_tab(bs, *t);
    return 0;
}

pb_status pb_bspace_weights(const pb_bspace *bs, const float *px, const float *py, size_t n, float *w,
                            size_t w_stride, const pb_variant *v)
{
    static const char *fn = "pb_bspace_weights";
    int two = bs && bs->method != PB_BSPACE_1D;
    if (!bs || !px || (two && !py) || !w)
        return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, !bs ? "bs" : !px ? "px" : !w ? "w" : "py");
    if (!bs->tab || bs->samples == 0) return pb_fail(PB_ERR_EMPTY, "%s: bs was not created", fn);
    if (n == 0) return pb_fail(PB_ERR_EMPTY, "%s: n = 0 characters", fn);
    if (w_stride < n) return pb_fail(PB_ERR_SIZE, "%s: w_stride %zu < n = %zu", fn, w_stride, n);
    for (size_t c = 0; c < n; c++)
        if (!isfinite(px[c]) || (two && !isfinite(py[c])))
            return pb_fail(PB_ERR_PARAM, "%s: character %zu: %s is %g", fn, c, isfinite(px[c]) ? "py" : "px",
                           (double)(isfinite(px[c]) ? py[c] : px[c]));
    pb_status s = v ? pb_variant_check(v) : pb_variant_active(&v);
    if (s != PB_OK) return s;
    pb_bs_kargs k = { bs->samples, n, px, two ? py : NULL, w, w_stride, bs->tab, bs->itab,
                      bs->triangles, bs->hull, bs->origin };
    v->aux->bspace[bs->method](&k);
    return PB_OK;
}
