/* mm.h (reference) — the motion-matching search (posebench/mm.h), straight
 * from its definition: for each query, every row's squared distance summed
 * feature by feature in order (0 .. PB_MM_FEATURES - 1), the smallest kept
 * (a strict < over increasing rows: ties go to the lowest row), rows in the
 * query's excluded range skipped. MMARGS is the argument block of REAL. */

/* Row r for query q (features x): unless excluded, its squared distance
 * (summed feature by feature in order) replaces *best when smaller. */
static void mm_take(const MMARGS *k, size_t q, size_t r, const REAL *x, REAL *best, uint32_t *at)
{
    if (k->ex && r >= k->ex[2 * q] && r <= k->ex[2 * q + 1]) return;
    REAL d = R(0);
    for (int f = 0; f < PB_MM_FEATURES; f++) {
        REAL t = k->feat[pb_mm_at(r, f)] - x[f];
        d = d + t * t;
    }
    if (d < *best) {
        *best = d;
        *at = (uint32_t)r;
    }
}

void REF(mm_search)(const MMARGS *k)
{
    for (size_t q = 0; q < k->n; q++) {
        const REAL *x = k->q + q * PB_MM_FEATURES;
        REAL best = (REAL)INFINITY;
        uint32_t at = UINT32_MAX;
        for (size_t r = 0; r < k->rows; r++) mm_take(k, q, r, x, &best, &at);
        k->best[q] = at;
        if (k->dist) k->dist[q] = best;
    }
}

/* Lower bound of the squared distance from x to the rows of box b (level k):
 * per feature the distance to the box's interval, summed in the rows' order
 * (each term at most the row's own, in float too: rounding is monotone). */
static REAL mm_box_lb(const MMARGS *k, int lv, size_t b, const REAL *x)
{
    REAL d = R(0);
    for (int f = 0; f < PB_MM_FEATURES; f++) {
        REAL below = k->box[lv][pb_mm_box_at(b, f, 0)] - x[f], above = x[f] - k->box[lv][pb_mm_box_at(b, f, 1)];
        REAL u = (below > R(0) ? below : R(0)) + (above > R(0) ? above : R(0));
        d = d + u * u;
    }
    return d;
}

/* The AABB search: the same rows in the same order as mm_search, a box
 * skipped when its bound is not below the best distance so far (its rows
 * cannot be strictly nearer), so the answer is mm_search's. */
void REF(mm_search_aabb)(const MMARGS *k)
{
    const size_t per = PB_MM_BOX_LARGE / PB_MM_BOX_SMALL, nl = k->stride / PB_MM_BOX_LARGE;
    for (size_t q = 0; q < k->n; q++) {
        const REAL *x = k->q + q * PB_MM_FEATURES;
        REAL best = (REAL)INFINITY;
        uint32_t at = UINT32_MAX;
        for (size_t L = 0; L < nl; L++) {
            if (!(mm_box_lb(k, 1, L, x) < best)) continue;
            for (size_t b = L * per; b < (L + 1) * per; b++) {
                if (!(mm_box_lb(k, 0, b, x) < best)) continue;
                for (size_t r = b * PB_MM_BOX_SMALL; r < (b + 1) * PB_MM_BOX_SMALL && r < k->rows; r++)
                    mm_take(k, q, r, x, &best, &at);
            }
        }
        k->best[q] = at;
        if (k->dist) k->dist[q] = best;
    }
}
