/* mm.h (reference) — the motion-matching search (posebench/mm.h), straight
 * from its definition: for each query, every row's squared distance summed
 * feature by feature in order (0 .. PB_MM_FEATURES - 1), the smallest kept
 * (a strict < over increasing rows: ties go to the lowest row), rows in the
 * query's excluded range skipped. MMARGS is the argument block of REAL. */

void REF(mm_search)(const MMARGS *k)
{
    for (size_t q = 0; q < k->n; q++) {
        const REAL *x = k->q + q * PB_MM_FEATURES;
        REAL best = (REAL)INFINITY;
        uint32_t at = UINT32_MAX;
        for (size_t r = 0; r < k->rows; r++) {
            if (k->ex && r >= k->ex[2 * q] && r <= k->ex[2 * q + 1]) continue;
            REAL d = R(0);
            for (int f = 0; f < PB_MM_FEATURES; f++) {
                REAL t = k->feat[(size_t)f * k->stride + r] - x[f];
                d = d + t * t;
            }
            if (d < best) {
                best = d;
                at = (uint32_t)r;
            }
        }
        k->best[q] = at;
        if (k->dist) k->dist[q] = best;
    }
}
