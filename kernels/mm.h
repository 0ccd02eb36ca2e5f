/* mm.h — the motion-matching search kernels (posebench/mm.h; reference:
 * reference/mm.h). Exhaustive: SIMD across database rows: PB_LANES rows a step, each
 * lane's squared distance summed feature by feature in the reference's
 * order, so every lane's distance is the reference's bit for bit and the
 * nearest row is the same. Queries go MM_QB at a time, sharing each loaded
 * feature vector (one pass over the database serves MM_QB characters of a
 * crowd). Each lane keeps its smallest distance and the step it came from
 * (strict <: its earliest); the lanes are then reduced to the smallest
 * distance, ties to the lowest row. Steps are counted in float: exact up to
 * 2^24 steps, above PB_MM_MAX_FRAMES / PB_LANES. */

#define MM_QB 8

/* Lanes of the step at row i inside query j's excluded rows [lo, hi]. */
PB_VINLINE pb_vm mm_excluded(const uint32_t *ex, size_t i)
{
    static const float iota[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    size_t lo = ex[0], hi = ex[1];
    if (lo > hi || hi < i || lo >= i + PB_LANES) return vlt(vset1(1.0f), vzero());   /* none */
    pb_vf l = vloadu(iota);
    float a = lo > i ? (float)(lo - i) : 0.0f, b = (float)((hi - i) < PB_LANES ? hi - i : PB_LANES);
    return mand(mnot(vlt(l, vset1(a))), mnot(vlt(vset1(b), l)));
}

static void k_mm_search(const pb_mm_kargs *k)
{
    for (size_t q0 = 0; q0 < k->n; q0 += MM_QB) {
        const float *x[MM_QB];
        const uint32_t *ex[MM_QB];
        size_t nq = k->n - q0 < MM_QB ? k->n - q0 : MM_QB;
        for (size_t j = 0; j < MM_QB; j++) {   /* a short block repeats its last query */
            size_t q = q0 + (j < nq ? j : nq - 1);
            x[j] = k->q + q * PB_MM_FEATURES;
            ex[j] = k->ex ? k->ex + 2 * q : NULL;
        }
        pb_vf best[MM_QB], step[MM_QB];
        for (int j = 0; j < MM_QB; j++) {
            best[j] = vset1(INFINITY);
            step[j] = vzero();
        }
        for (size_t i = 0; i < k->stride; i += PB_LANES) {
            pb_vf d[MM_QB];
            for (int j = 0; j < MM_QB; j++) d[j] = vzero();
            for (int f = 0; f < PB_MM_FEATURES; f++) {
                pb_vf v = vload(k->feat + (size_t)f * k->stride + i);
                for (int j = 0; j < MM_QB; j++) {
                    pb_vf t = vsub(v, vset1(x[j][f]));
                    d[j] = vadd(d[j], vmul(t, t));
                }
            }
            pb_vf s = vset1((float)(i / PB_LANES));
            for (int j = 0; j < MM_QB; j++) {
                pb_vm take = vlt(d[j], best[j]);
                if (ex[j]) take = mand(take, mnot(mm_excluded(ex[j], i)));
                best[j] = vsel(take, d[j], best[j]);
                step[j] = vsel(take, s, step[j]);
            }
        }
        for (size_t j = 0; j < nq; j++) {
            float bd[PB_LANES], bs[PB_LANES];
            vstoreu(bd, best[j]);
            vstoreu(bs, step[j]);
            float dmin = INFINITY;
            uint32_t at = UINT32_MAX;
            for (int l = 0; l < PB_LANES; l++) {
                uint32_t row = (uint32_t)bs[l] * PB_LANES + (uint32_t)l;
                if (bd[l] < dmin || (bd[l] == dmin && bd[l] < INFINITY && row < at)) {
                    dmin = bd[l];
                    at = row;
                }
            }
            k->best[q0 + j] = at;
            if (k->dist) k->dist[q0 + j] = dmin;
        }
    }
}

/* Lower bounds of the squared distance from x to PB_LANES boxes of level lv
 * from box b (reference/mm.h's mm_box_lb, one box per lane). */
PB_VINLINE pb_vf mm_box_lb(const pb_mm_kargs *k, int lv, size_t b, const float *x)
{
    const float *lo = k->lo[lv] + b, *hi = k->hi[lv] + b;
    size_t s = k->box_stride[lv];
    pb_vf d = vzero();
    for (int f = 0; f < PB_MM_FEATURES; f++) {
        pb_vf xf = vset1(x[f]);
        pb_vf u = vadd(vmax(vsub(vloadu(lo + (size_t)f * s), xf), vzero()),
                       vmax(vsub(xf, vloadu(hi + (size_t)f * s)), vzero()));
        d = vadd(d, vmul(u, u));
    }
    return d;
}

/* One large box's rows (AABB search): its 4 small boxes' bounds in one
 * vector (PB_LANES >= 4; lanes past them read the next boxes or the planes'
 * padding, unused), then each small box not beyond *best its rows, PB_LANES
 * at a time. Boxes are visited out of row order, so a row replaces the best
 * when nearer, or as near and lower (the exhaustive search's answer: the
 * lowest of the nearest rows); a box as near as *best is searched for that. */
PB_VINLINE void mm_visit(const pb_mm_kargs *k, size_t L, const float *x, const uint32_t *ex, float *best, uint32_t *at)
{
    const size_t per = PB_MM_BOX_LARGE / PB_MM_BOX_SMALL;
    float lbs[PB_LANES], dd[PB_LANES];
    vstoreu(lbs, mm_box_lb(k, 0, L * per, x));
    for (size_t m = 0; m < per; m++) {
        if (!(lbs[m] <= *best)) continue;
        for (size_t i = (L * per + m) * PB_MM_BOX_SMALL; i < (L * per + m + 1) * PB_MM_BOX_SMALL; i += PB_LANES) {
            pb_vf d = vzero();
            for (int f = 0; f < PB_MM_FEATURES; f++) {
                pb_vf t = vsub(vload(k->feat + (size_t)f * k->stride + i), vset1(x[f]));
                d = vadd(d, vmul(t, t));
            }
            if (ex) d = vsel(mm_excluded(ex, i), vset1(INFINITY), d);
            if (!many(vle(d, vset1(*best)))) continue;
            vstoreu(dd, d);
            for (int l = 0; l < PB_LANES; l++)
                if (dd[l] < *best || (dd[l] == *best && dd[l] < INFINITY && i + (size_t)l < *at)) {
                    *best = dd[l];
                    *at = (uint32_t)(i + (size_t)l);
                }
        }
    }
}

/* AABB search, one query at a time: the bounds of every large box first
 * (PB_LANES boxes a vector, into k->scratch), the nearest box searched
 * first for a good early best, then every other box whose bound is not
 * beyond the best so far. Same answer as the exhaustive search (see
 * mm_visit); reference/mm.h goes in row order, with the same result.
 * Measured alternatives (posebench bench --op mm_aabb, avx512, CMU held-out
 * queries, 100 k rows of shifted copies; this one: 27 us a query):
 *  - a third level of 1024-row boxes: 27.8 us. Boxes of consecutive frames
 *    that large span most of the feature space (81 of 98 entered a query);
 *  - rows reordered as a k-d tree's leaves (boxes over them): 65 us. On
 *    real motion consecutive frames are near in every feature, a k-d leaf
 *    only in the few it was split on (16-row boxes 0.79 wide per feature in
 *    k-d order, 0.46 in frame order, CMU);
 *  - partial sums with an early out every 9 features, seeded by the box
 *    nearest on the first 9: 29 us (1 M rows: 478 us against 643). */
static void k_mm_search_aabb(const pb_mm_kargs *k)
{
    const size_t nl = k->stride / PB_MM_BOX_LARGE;
    float *lb = k->scratch;
    for (size_t q = 0; q < k->n; q++) {
        const float *x = k->q + q * PB_MM_FEATURES;
        const uint32_t *ex = k->ex ? k->ex + 2 * q : NULL;
        float best = INFINITY;
        uint32_t at = UINT32_MAX;
        size_t first = 0;
        for (size_t L0 = 0; L0 < nl; L0 += PB_LANES) vstoreu(lb + L0, mm_box_lb(k, 1, L0, x));
        for (size_t L = 1; L < nl; L++) first = lb[L] < lb[first] ? L : first;
        mm_visit(k, first, x, ex, &best, &at);
        for (size_t L = 0; L < nl; L++)
            if (L != first && lb[L] <= best) mm_visit(k, L, x, ex, &best, &at);
        k->best[q] = at;
        if (k->dist) k->dist[q] = best;
    }
}
