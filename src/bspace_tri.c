/* bspace_tri.c — the Delaunay triangulation of a blend space's samples
 * (PB_BSPACE_BARYCENTRIC), built once at set-up, in double.
 *
 * Samples are few (at most PB_BSPACE_MAX_SAMPLES), so it is the definition,
 * searched. Three samples count as collinear when one lies within
 * TRI_LINE_EPS x the largest sample magnitude of the line through the other
 * two (the smallest height of their triangle): samples made with sin / cos
 * in float (idle, walk and run along one direction) are off their line by
 * a few float ulps of their magnitude, and the sliver triangle they make
 * would own the points of its long edge, giving a query at the run sample
 * its weight on idle. Such triangles are no candidates, the "outer side"
 * tests below use the same tolerance, and a query on the segment between
 * collinear samples gets the edge's 1D interpolation from either triangle
 * beside it (or the hull edge). Then a triangle is a candidate when no sample lies inside its
 * circumcircle by more than a tolerance (coordinates scaled to the samples'
 * extent; 1e-6 keeps samples that are cocircular up to float rounding, e.g.
 * directions on a circle, from being told apart by noise). Candidates are
 * taken most clearly Delaunay first (smallest worst in-circle value), each
 * kept unless it overlaps one already kept. Where samples are cocircular
 * the candidates are every triangulation of their polygon, and the kept ones
 * tile it (a gap would be a convex polygon of samples holding a candidate).
 * The kept triangles' area is checked against the hull's: a mismatch is
 * reported, never a half-made triangulation. */
#include <math.h>
#include <stdlib.h>

#include "internal.h"

#include "minmax.h"

typedef struct { double x, y; } pt;
typedef struct { int v[3]; double worst; } cand;

static double orient(pt a, pt b, pt c) { return (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y); }

/* > 0: d inside the circle through a, b, c (counter-clockwise). */
static double incircle(pt a, pt b, pt c, pt d)
{
    double ax = a.x - d.x, ay = a.y - d.y, bx = b.x - d.x, by = b.y - d.y, cx = c.x - d.x, cy = c.y - d.y;
    double a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
    return ax * (by * c2 - b2 * cy) - ay * (bx * c2 - b2 * cx) + a2 * (bx * cy - by * cx);
}

static int by_worst(const void *a, const void *b)
{
    double x = ((const cand *)a)->worst, y = ((const cand *)b)->worst;
    return x < y ? -1 : x > y;
}

#define TRI_LINE_EPS 1e-6   /* distance from a line, relative to the largest sample magnitude: on it */
#define TRI_IN_EPS 1e-6     /* in-circle value counted as inside */

static double dist(pt a, pt b) { return hypot(b.x - a.x, b.y - a.y); }

/* c is within tol of the line through a and b, or on its right (clockwise) side. */
static int right_or_on(pt a, pt b, pt c, double tol) { return orient(a, b, c) <= tol * dist(a, b); }

/* Twice the signed area of (a, b, c) when no corner is within tol of the
 * line through the other two, else 0 (degenerate). The smallest height is
 * the one onto the longest side. */
static double area2_or_0(pt a, pt b, pt c, double tol)
{
    double o = orient(a, b, c), l = bmax(dist(a, b), bmax(dist(b, c), dist(c, a)));
    return fabs(o) <= tol * l ? 0 : o;
}

/* Interiors of counter-clockwise triangles s and t overlap: no edge of
 * either has the other wholly on its outer side (or within tol of it). */
static int overlap(const pt *p, const int *s, const int *t, double tol)
{
    for (int pass = 0; pass < 2; pass++) {
        const int *a = pass ? t : s, *b = pass ? s : t;
        for (int e = 0; e < 3; e++) {
            pt u = p[a[e]], v = p[a[(e + 1) % 3]];
            int out = 1;
            for (int k = 0; k < 3 && out; k++) out = right_or_on(u, v, p[b[k]], tol);
            if (out) return 0;
        }
    }
    return 1;
}

/* Twice the area of the convex hull (monotone chain over index order sorted by x, y). */
static int cmp_pt(const void *a, const void *b)
{
    const pt *p = a, *q = b;
    return p->x < q->x ? -1 : p->x > q->x ? 1 : p->y < q->y ? -1 : p->y > q->y;
}
static double hull_area2(const pt *in, size_t m)
{
    pt s[PB_BSPACE_MAX_SAMPLES], h[2 * PB_BSPACE_MAX_SAMPLES];
    for (size_t i = 0; i < m; i++) s[i] = in[i];
    qsort(s, m, sizeof *s, cmp_pt);
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        while (k >= 2 && orient(h[k - 2], h[k - 1], s[i]) <= 0) k--;
        h[k++] = s[i];
    }
    for (size_t i = m - 1, lo = k + 1; i-- > 0;) {
        while (k >= lo && orient(h[k - 2], h[k - 1], s[i]) <= 0) k--;
        h[k++] = s[i];
    }
    double a = 0;
    for (size_t i = 0; i + 1 < k; i++) a += h[i].x * h[i + 1].y - h[i + 1].x * h[i].y;
    return a;
}

pb_status pb_bspace_triangulate(pb_bspace *bs)
{
    static const char *fn = "pb_bspace_create";
    size_t m = bs->samples;
    pt p[PB_BSPACE_MAX_SAMPLES];
    double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        lo_x = bmin(lo_x, bs->x[i]), hi_x = bmax(hi_x, bs->x[i]);
        lo_y = bmin(lo_y, bs->y[i]), hi_y = bmax(hi_y, bs->y[i]);
    }
    double ext = bmax(hi_x - lo_x, hi_y - lo_y), big = 0;
    for (size_t i = 0; i < m; i++) {
        p[i] = (pt){ (bs->x[i] - lo_x) / ext, (bs->y[i] - lo_y) / ext };
        big = bmax(big, hypot(bs->x[i], bs->y[i]));
    }
    double tol = TRI_LINE_EPS * big / ext;   /* in the extent-scaled units of p */
    size_t cap = m * (m - 1) * (m - 2) / 6, nc = 0;
    cand *c = malloc(cap * sizeof *c);
    if (!c) return pb_fail(PB_ERR_NOMEM, "%s: out of memory triangulating %zu samples", fn, m);
    for (size_t i = 0; i < m; i++)
        for (size_t j = i + 1; j < m; j++)
            for (size_t k = j + 1; k < m; k++) {
                double o = area2_or_0(p[i], p[j], p[k], tol);
                if (o == 0) continue;
                cand t = { { (int)i, o > 0 ? (int)j : (int)k, o > 0 ? (int)k : (int)j }, -INFINITY };
                for (size_t l = 0; l < m && t.worst <= TRI_IN_EPS; l++)
                    if (l != i && l != j && l != k) t.worst = bmax(t.worst, incircle(p[t.v[0]], p[t.v[1]], p[t.v[2]], p[l]));
                if (t.worst <= TRI_IN_EPS) c[nc++] = t;
            }
    if (nc == 0) {
        free(c);
        return pb_fail(PB_ERR_PARAM, "%s: samples: all %zu lie on one line, to %g of their largest magnitude (no "
                       "triangle; use PB_BSPACE_1D)", fn, m, TRI_LINE_EPS);
    }
    qsort(c, nc, sizeof *c, by_worst);
    size_t kept = 0;
    double area = 0;
    for (size_t i = 0; i < nc; i++) {
        int ok = 1;
        for (size_t j = 0; j < kept && ok; j++) ok = !overlap(p, c[i].v, c[j].v, tol);
        if (!ok) continue;
        c[kept++] = c[i];
        area += orient(p[c[i].v[0]], p[c[i].v[1]], p[c[i].v[2]]);
    }
    /* A sample within tol inside a hull edge leaves a sliver of the hull out of the triangles (height tol at
     * most, along an edge): they add up to at most tol x the hull's perimeter, at most 4 in these units. */
    double hull = hull_area2(p, m);
    if (fabs(area - hull) > 1e-9 * hull + 4 * tol) {
        free(c);
        return pb_fail(PB_ERR_PARAM, "%s: samples: the triangles found cover %.9g of the hull's area %.9g "
                       "(nearly collinear or nearly coincident samples?)", fn, area / 2, hull / 2);
    }
    /* Hull edges: directed triangle edges whose reverse is in no triangle. */
    size_t nh = 0;
    int32_t edges[2 * 3 * 2 * PB_BSPACE_MAX_SAMPLES];
    for (size_t t = 0; t < kept; t++)
        for (int e = 0; e < 3; e++) {
            int a = c[t].v[e], b = c[t].v[(e + 1) % 3], shared = 0;
            for (size_t s = 0; s < kept && !shared; s++)
                for (int f = 0; f < 3 && !shared; f++) shared = c[s].v[f] == b && c[s].v[(f + 1) % 3] == a;
            if (!shared) edges[2 * nh] = a, edges[2 * nh + 1] = b, nh++;
        }
    bs->itab = malloc((3 * kept + 2 * nh) * sizeof *bs->itab);
    if (!bs->itab) {
        free(c);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu triangles", fn, kept);
    }
    for (size_t t = 0; t < kept; t++)
        for (int e = 0; e < 3; e++) bs->itab[3 * t + e] = c[t].v[e];
    for (size_t e = 0; e < 2 * nh; e++) bs->itab[3 * kept + e] = edges[e];
    bs->triangles = kept, bs->hull = nh, bs->tri = bs->itab;
    free(c);
    return PB_OK;
}
