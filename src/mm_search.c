/* mm_search.c — the motion-matching search (posebench/mm.h): arguments
 * checked, queries normalized into the database's space, excluded windows
 * as row ranges, then the variant's kernel (SIMD across rows). */
#include <math.h>
#include <stdlib.h>

#include "internal.h"

pb_status pb_mm_search(const pb_mm_db *db, const float *queries, size_t n, const int32_t *exclude,
                       int exclude_radius, pb_mm_method method, uint32_t *best, float *dist, const pb_variant *v)
{
    static const char *fn = "pb_mm_search";
    if (!db || !queries || !best)
        return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, !db ? "db" : !queries ? "queries" : "best");
    if (!pb_mm_method_name(method))
        return pb_fail(PB_ERR_PARAM, "%s: method is %d (PB_MM_EXHAUSTIVE or PB_MM_AABB)", fn, (int)method);
    if (n == 0) return pb_fail(PB_ERR_EMPTY, "%s: n = 0 queries", fn);
    if (db->rows == 0 || !db->feat) return pb_fail(PB_ERR_EMPTY, "%s: the database is empty", fn);
    if (method == PB_MM_AABB && (!db->box[0] || !db->box[1]))
        return pb_fail(PB_ERR_PARAM, "%s: the database has no index (built by pb_mm_db_build or "
                       "pb_mm_db_replicate)", fn);
    const float *planes[3] = { db->feat, db->box[0], db->box[1] };
    static const char *names[3] = { "feat", "box[0]", "box[1]" };
    for (int i = 0; i < (method == PB_MM_AABB ? 3 : 1); i++)
        if ((uintptr_t)planes[i] % 64)
            return pb_fail(PB_ERR_ALIGN, "%s: db->%s is not 64-byte aligned (the kernels load whole blocks aligned)",
                           fn, names[i]);
    if (n > PB_MM_MAX_FRAMES) return pb_fail(PB_ERR_SIZE, "%s: n = %zu queries (at most %zu)", fn, n, PB_MM_MAX_FRAMES);
    for (size_t q = 0; q < n; q++)
        for (int f = 0; f < PB_MM_FEATURES; f++)
            if (!isfinite(queries[q * PB_MM_FEATURES + f]))
                return pb_fail(PB_ERR_PARAM, "%s: query %zu (character %zu): feature %d is %g", fn, q, q, f,
                               (double)queries[q * PB_MM_FEATURES + f]);
    if (exclude) {
        if (exclude_radius < 0) return pb_fail(PB_ERR_PARAM, "%s: exclude_radius is %d (>= 0)", fn, exclude_radius);
        for (size_t q = 0; q < n; q++)
            if (exclude[q] < -1 || (exclude[q] >= 0 && (size_t)exclude[q] >= db->rows))
                return pb_fail(PB_ERR_PARAM, "%s: exclude[%zu] is %d (a row below %zu, or -1)", fn, q,
                               (int)exclude[q], db->rows);
    }
    pb_status s = v ? pb_variant_check(v) : pb_variant_active(&v);
    if (s != PB_OK) return s;
    float *x = malloc(n * PB_MM_FEATURES * sizeof *x);
    uint32_t *ex = exclude ? malloc(2 * n * sizeof *ex) : NULL;
    uint32_t *b = malloc(n * sizeof *b);
    float *d = malloc(n * sizeof *d);
    float *scratch = method == PB_MM_AABB ? malloc(PB_MM_QB * db->box_stride[1] * sizeof *scratch) : NULL;
    if (!x || (exclude && !ex) || !b || !d || (method == PB_MM_AABB && !scratch)) {
        free(x), free(ex), free(b), free(d), free(scratch);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu queries", fn, n);
    }
    for (size_t q = 0; q < n; q++) {
        pb_mm_normalize(db, queries + q * PB_MM_FEATURES, x + q * PB_MM_FEATURES);
        if (!ex) continue;
        if (exclude[q] < 0) {
            ex[2 * q] = 1, ex[2 * q + 1] = 0;   /* lo > hi: none */
        } else {
            size_t r = (size_t)exclude[q], R = (size_t)exclude_radius;
            ex[2 * q] = (uint32_t)(r > R ? r - R : 0);
            ex[2 * q + 1] = (uint32_t)(r + R < db->rows ? r + R : db->rows - 1);
        }
    }
    pb_mm_kargs k = { db->feat, db->stride, db->rows, x, n, ex, b, d, { db->box[0], db->box[1] },
                      { db->box_stride[0], db->box_stride[1] }, scratch };
    v->aux->mm_search[method](&k);
    for (size_t q = 0; q < n; q++) {   /* written only now: nothing half-written on error */
        best[q] = b[q];
        if (dist) dist[q] = d[q];
    }
    free(x), free(ex), free(b), free(d), free(scratch);
    return PB_OK;
}
