/* bspace.h (reference) — blend-space weights (posebench/bspace.h), one
 * character at a time, straight from each method's definition over the
 * tables src/bspace.c builds (internal.h: PB_DEFINE_BSARGS). BSARGS is the
 * argument block of REAL. */

static REAL bs_clamp01(REAL v) { return v < R(0) ? R(0) : v > R(1) ? R(1) : v; }

/* Store character c's weights: every plane 0 but the given (sample, weight) pairs. */
static void bs_put(const BSARGS *k, size_t c, int np, const int32_t *idx, const REAL *wt)
{
    for (size_t i = 0; i < k->m; i++) k->w[i * k->w_stride + c] = R(0);
    for (int j = 0; j < np; j++) k->w[(size_t)idx[j] * k->w_stride + c] += wt[j];
}

/* 1D: sample at sorted position k weighs min(rise from its left neighbour,
 * fall to its right one), each clamped to [0, 1]; the ends rise / fall as 1. */
void REF(bspace_1d)(const BSARGS *k)
{
    const REAL *s = k->t, *gap = k->t + k->m;
    for (size_t c = 0; c < k->n; c++) {
        REAL p = k->x[c];
        for (size_t j = 0; j < k->m; j++) {
            REAL lo = j == 0 ? R(1) : bs_clamp01((p - s[j - 1]) / gap[j - 1]);
            REAL hi = j + 1 == k->m ? R(1) : bs_clamp01((s[j + 1] - p) / gap[j]);
            k->w[(size_t)k->it[j] * k->w_stride + c] = lo < hi ? lo : hi;
        }
    }
}

/* Barycentric. Outside the hull (on the outer side of one of its edges,
 * which run counter-clockwise): the nearest point of the hull edges (the
 * first nearest) weighs its two ends. Inside: the triangle whose smallest
 * barycentric coordinate is the largest (the first such), its coordinates
 * clamped at 0 (a point on an inner edge may round to -1e-7 in both of its
 * triangles). */
void REF(bspace_bary)(const BSARGS *k)
{
    const REAL *tt = k->t, *he = k->t + PB_BS_TRI * k->ntri;
    const int32_t *ti = k->it, *hi = k->it + 3 * k->ntri;
    for (size_t c = 0; c < k->n; c++) {
        REAL x = k->x[c], y = k->y[c];
        int out = 0;
        for (size_t e = 0; e < k->nhull; e++) {
            const REAL *a = he + PB_BS_EDGE * e;
            out |= a[2] * (y - a[1]) - a[3] * (x - a[0]) < R(0);
        }
        if (out) {
            REAL bd = (REAL)INFINITY, bu = R(0);
            size_t be = 0;
            for (size_t e = 0; e < k->nhull; e++) {
                const REAL *a = he + PB_BS_EDGE * e;
                REAL u = bs_clamp01(((x - a[0]) * a[2] + (y - a[1]) * a[3]) * a[4]);
                REAL qx = a[0] + u * a[2] - x, qy = a[1] + u * a[3] - y, d = qx * qx + qy * qy;
                if (d < bd) bd = d, bu = u, be = e;
            }
            REAL wt[2] = { R(1) - bu, bu };
            bs_put(k, c, 2, hi + 2 * be, wt);
            continue;
        }
        REAL best = -(REAL)INFINITY, l[3] = { R(0), R(0), R(0) };
        size_t bt = 0;
        for (size_t t = 0; t < k->ntri; t++) {
            const REAL *a = tt + PB_BS_TRI * t;
            REAL dx = x - a[0], dy = y - a[1];
            REAL l1 = a[2] * dx + a[3] * dy, l2 = a[4] * dx + a[5] * dy, l0 = R(1) - l1 - l2;
            REAL sc = l0 < l1 ? l0 : l1;
            sc = sc < l2 ? sc : l2;
            if (sc > best) {
                best = sc, bt = t;
                l[0] = l0, l[1] = l1, l[2] = l2;
            }
        }
        for (int j = 0; j < 3; j++) l[j] = l[j] > R(0) ? l[j] : R(0);
        bs_put(k, c, 3, ti + 3 * bt, l);
    }
}

/* Normalize the unnormalized weights W (k->m of them) into character c's
 * planes; a zero sum (not seen for the gradient band, whose sum is >= 1/2)
 * gives every sample 1 / m rather than NaN. */
static void bs_normalize(const BSARGS *k, size_t c, const REAL *W)
{
    REAL sum = R(0);
    for (size_t i = 0; i < k->m; i++) sum = sum + W[i];
    REAL inv = R(1) / sum;
    for (size_t i = 0; i < k->m; i++) k->w[i * k->w_stride + c] = sum > R(0) ? W[i] * inv : R(1) / (REAL)k->m;
}

/* Gradient band: W_i = max(0, min(1, min over j != i of h_ij)), h_ij = 1 -
 * (p - p_i).g_ij, g_ij = (p_j - p_i) / |p_j - p_i|^2; then normalized.
 * h_ji = 1 - h_ij (the two projections add up to the whole pair vector), so
 * each pair is evaluated once, as s = 1 - h_ij = h_ji. (The sum of the W is
 * at least 1/2: the nearest sample's every h_ij is.) */
void REF(bspace_gradient)(const BSARGS *k)
{
    const REAL *px = k->t, *py = k->t + k->m, *g = k->t + 2 * k->m;
    REAL W[PB_BSPACE_MAX_SAMPLES];
    for (size_t c = 0; c < k->n; c++) {
        for (size_t i = 0; i < k->m; i++) W[i] = R(1);
        for (size_t i = 0; i < k->m; i++) {
            REAL dx = k->x[c] - px[i], dy = k->y[c] - py[i];
            for (size_t j = i + 1; j < k->m; j++) {
                const REAL *gi = g + 2 * (i * k->m + j);
                REAL s = dx * gi[0] + dy * gi[1], h = R(1) - s;
                W[i] = h < W[i] ? h : W[i];
                W[j] = s < W[j] ? s : W[j];
            }
        }
        for (size_t i = 0; i < k->m; i++) W[i] = W[i] > R(0) ? W[i] : R(0);
        bs_normalize(k, c, W);
    }
}

/* Polar gradient band. Per character r = |p| and, per sample i off the
 * origin, th_i = the signed angle from p_i to p: atan2(y, x) - atan2(y_i,
 * x_i) wrapped into (-pi, pi] (p = 0 has angle 0). Pairs, h_ij = 1 - (v_ij .
 * v_ip) / |v_ij|^2:
 *   both off the origin: v_ij = (2|A_ij|, (r_j - r_i) / mu), v_ip = (2 phi,
 *     (r - r_i) / mu), mu = (r_i + r_j) / 2, A_ij the angle from p_i to p_j,
 *     phi = th_i signed in A_ij's sense (|th_i| when p_i and p_j are within
 *     1 % of opposite, where the sense is not defined); the table holds the
 *     coefficients of phi and of r - r_i, divided by |v_ij|^2;
 *   j at the origin: v_ij = (b, -2), v_ip = (b, 2 r / r_i - 2), b = |th_i|,
 *     i.e. h_ij = 4 (r / r_i) / (b^2 + 4);
 *   i at the origin: v_ij = (b, 2), v_ip = (0, 2 r / r_j), b = |th_j|,
 *     i.e. h_ij = 1 - 4 (r / r_j) / (b^2 + 4) (the two sum to 1).
 * W_i = max(0, min_j h_ij), normalized. */
void REF(bspace_polar)(const BSARGS *k)
{
    size_t m = k->m;
    const REAL *ang = k->t, *rr = k->t + m, *ir = k->t + 2 * m, *pc = k->t + 3 * m;
    const REAL pi = R(3.14159265358979323846), twopi = R(6.28318530717958647692);
    REAL W[PB_BSPACE_MAX_SAMPLES], th[PB_BSPACE_MAX_SAMPLES], q[PB_BSPACE_MAX_SAMPLES];
    for (size_t c = 0; c < k->n; c++) {
        REAL x = k->x[c], y = k->y[c], r = sqrt(x * x + y * y), a = atan2(y, x);
        for (size_t i = 0; i < m; i++) {
            REAL t = a - ang[i];
            t = t > pi ? t - twopi : t;
            th[i] = t <= -pi ? t + twopi : t;
            REAL b = fabs(th[i]);
            q[i] = R(4) * (r * ir[i]) / (b * b + R(4));   /* h against the origin sample */
        }
        for (size_t i = 0; i < m; i++) {
            REAL v = R(1);
            for (size_t j = 0; j < m; j++) {
                if (j == i) continue;
                REAL h;
                if ((int)i == k->origin) h = R(1) - q[j];
                else if ((int)j == k->origin) h = q[i];
                else {
                    const REAL *p = pc + PB_BS_PAIR * (i * m + j);
                    h = R(1) - (p[0] * (p[1] != R(0) ? fabs(th[i]) : th[i]) + p[2] * (r - rr[i]));
                }
                v = h < v ? h : v;
            }
            W[i] = v > R(0) ? v : R(0);
        }
        bs_normalize(k, c, W);
    }
}
