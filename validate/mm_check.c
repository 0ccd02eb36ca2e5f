/* mm_check.c — the motion-matching search judged by an exhaustive search in
 * double (see mm_check.h); `posebench validate` prints its table after the
 * skinning table, tests/test_mm.c runs the same judge. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "all_variants.h"
#include "mm_check.h"

const char *const pb_mm_class_name[PB_MM_CLASSES] = { "held-out", "random", "far" };

static double row_dist(const pb_mm_db *db, const float *x, size_t r)
{
    double d = 0;
    for (int f = 0; f < PB_MM_FEATURES; f++) {
        double t = (double)db->feat[pb_mm_at(r, f)] - (double)x[f];
        d += t * t;
    }
    return d;
}

/* The excluded rows of query q: [*lo, *hi] (lo > hi: none). */
static void window(const int32_t *ex, int radius, size_t q, size_t *lo, size_t *hi)
{
    *lo = 1, *hi = 0;
    if (!ex || ex[q] < 0) return;
    *lo = (size_t)ex[q] > (size_t)radius ? (size_t)ex[q] - (size_t)radius : 0;
    *hi = (size_t)ex[q] + (size_t)radius;
}

pb_status pb_mm_nearest_f64(const pb_mm_db *db, const float *raw, size_t n, const int32_t *ex, int radius,
                            pb_mm_truth *t)
{
    t->n = n;
    t->at = malloc(n * sizeof *t->at);
    t->dmin = malloc(n * sizeof *t->dmin);
    if (!t->at || !t->dmin) {
        pb_mm_truth_free(t);
        return pb_fail(PB_ERR_NOMEM, "mm: out of memory");
    }
    for (size_t q = 0; q < n; q++) {
        float x[PB_MM_FEATURES];
        pb_mm_normalize(db, raw + q * PB_MM_FEATURES, x);
        size_t lo, hi;
        window(ex, radius, q, &lo, &hi);
        t->dmin[q] = INFINITY;
        t->at[q] = SIZE_MAX;
        for (size_t r = 0; r < db->rows; r++) {
            if (r >= lo && r <= hi) continue;
            double d = row_dist(db, x, r);
            if (d < t->dmin[q]) t->dmin[q] = d, t->at[q] = r;
        }
    }
    return PB_OK;
}
void pb_mm_truth_free(pb_mm_truth *t)
{
    free(t->at), free(t->dmin);
    t->at = NULL, t->dmin = NULL;
}

pb_status pb_mm_error(const pb_variant *v, pb_mm_method method, const pb_mm_db *db, const float *raw, const int32_t *ex,
                      int radius, const pb_mm_truth *t, pb_mm_err *err)
{
    size_t n = t->n;
    memset(err, 0, sizeof *err);
    err->n = n;
    const pb_variant *scalar;
    uint32_t *got = malloc(n * sizeof *got), *ref = malloc(n * sizeof *ref);
    float *gd = malloc(n * sizeof *gd), *rd = malloc(n * sizeof *rd);
    pb_status s = got && ref && gd && rd ? pb_variant_find("scalar", &scalar) : pb_fail(PB_ERR_NOMEM, "out of memory");
    if (s == PB_OK) s = pb_mm_search(db, raw, n, ex, radius, PB_MM_EXHAUSTIVE, ref, rd, scalar);
    if (s == PB_OK) s = pb_mm_search(db, raw, n, ex, radius, method, got, gd, v);
    for (size_t q = 0; s == PB_OK && q < n; q++) {
        size_t lo, hi;
        window(ex, radius, q, &lo, &hi);
        err->vs_ref += got[q] != ref[q] || memcmp(&gd[q], &rd[q], sizeof(float)) != 0;
        if (got[q] == UINT32_MAX || got[q] >= db->rows) {   /* none found: right only if every row is excluded */
            err->off += t->at[q] != SIZE_MAX;
            continue;
        }
        err->excluded += got[q] >= lo && got[q] <= hi;
        float x[PB_MM_FEATURES];
        pb_mm_normalize(db, raw + q * PB_MM_FEATURES, x);
        double dm = t->dmin[q], rel = (row_dist(db, x, got[q]) - dm) / (dm > 0 ? dm : 1);
        err->same += got[q] == t->at[q];
        if (got[q] != t->at[q]) {
            err->worst_rel = rel > err->worst_rel ? rel : err->worst_rel;
            err->off += rel > 1e-6;
        }
    }
    free(got), free(ref), free(gd), free(rd);
    return s;
}

static uint64_t mix(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

pb_status pb_mm_queries(const pb_scene *s, const pb_mm_db *db, int cls, float *raw, size_t n, uint64_t seed)
{
    pb_mm_skeleton sk = { s->parents, s->joints, s->leg[0][2], s->leg[1][2] };
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 1;
    size_t F1 = s->clip[1].frames > 60 ? s->clip[1].frames - 60 : 0;
    for (size_t q = 0; q < n; q++) {
        float *x = raw + q * PB_MM_FEATURES;
        if (cls == 0) {
            if (!F1) return pb_fail(PB_ERR_EMPTY, "mm queries: %s's clip 1 is too short", s->name);
            pb_status st = pb_mm_features(&s->clip[1], &sk, (q * 7919) % F1, x);
            if (st != PB_OK) return st;
            continue;
        }
        for (int f = 0; f < PB_MM_FEATURES; f++) {
            double u = (double)(mix(&r) >> 11) / 9007199254740992.0;
            x[f] = db->mean[f] + (float)((cls == 2 ? 1000.0 : 3.0) * (2 * u - 1) / db->scale[f]);
        }
    }
    return PB_OK;
}

#define MM_VAL_QUERIES 1000
/* the perturbed-copy rows (beyond the classes; 4x the rows): fewer
 * queries, so the sanitizer and qemu runs stay in their time */
#define MM_VAL_BIG_QUERIES 250

static int table_rows(FILE *out, const pb_val_sink *sink, const char *scene, const char *cls, const pb_mm_db *db,
                      const float *raw, size_t nq, const int32_t *ex, int radius)
{
    int fails = 0;
    pb_mm_truth t;
    if (pb_mm_nearest_f64(db, raw, nq, ex, radius, &t) != PB_OK) return -1;
    for (int m = 0; m < PB_MM_METHODS; m++)
        for (size_t i = 0; i < pb_all_variant_count(); i++) {
            const pb_variant *v = pb_all_variant_at(i);
            if (pb_variant_check(v) != PB_OK) continue;
            pb_mm_err e;
            if (pb_mm_error(v, (pb_mm_method)m, db, raw, ex, radius, &t, &e) != PB_OK) {
                pb_mm_truth_free(&t);
                return -1;
            }
            int pass = e.off == 0 && e.excluded == 0 && e.vs_ref == 0;
            fails += !pass;
            char form[128];   /* the JSON: the excess over the nearest row (bound 1e-6), and the answers that must be 0 */
            snprintf(form, sizeof form, "%s %s", scene, cls);
            const char *op = m ? "mm_aabb" : "mm_search";
            pb_val_emit(sink, op, form, v, "rel_excess", "rel", e.worst_rel, -1, 1e-6, nq, 0, e.off == 0);
            pb_val_emit(sink, op, form, v, "excluded", "answers", (double)e.excluded, -1, 0, nq, 0, e.excluded == 0);
            pb_val_emit(sink, op, form, v, "vs_ref", "answers", (double)e.vs_ref, -1, 0, nq, 0, e.vs_ref == 0);
            fprintf(out, "%-10s %-18s %-9s %-12s %8zu %8zu %10.3g %8zu %8zu  %s\n", m ? "mm_aabb" : "mm_search", scene,
                    cls, pb_variant_name(v), db->rows, e.same, e.worst_rel, e.off, e.vs_ref, pass ? "ok" : "FAIL");
        }
    pb_mm_truth_free(&t);
    return fails;
}

static int scene_rows(FILE *out, const pb_val_sink *sink, const pb_scene *s)
{
    pb_mm_skeleton sk = { s->parents, s->joints, s->leg[0][2], s->leg[1][2] };
    pb_mm_db db = { 0 }, dup = { 0 };
    pb_clip two[2] = { s->clip[0], s->clip[0] };
    float *raw = malloc(MM_VAL_QUERIES * PB_MM_FEATURES * sizeof *raw);
    int32_t *ex = malloc(MM_VAL_QUERIES * sizeof *ex);
    int fails = raw && ex ? 0 : -1;
    if (fails == 0 && (pb_mm_db_build(&db, &s->clip[0], 1, &sk, NULL) != PB_OK ||
                       pb_mm_db_build(&dup, two, 2, &sk, NULL) != PB_OK))
        fails = -1;
    for (int c = 0; c < PB_MM_CLASSES && fails >= 0; c++) {
        int f = pb_mm_queries(s, &db, c, raw, MM_VAL_QUERIES, (uint64_t)c + 1) == PB_OK
                    ? table_rows(out, sink, s->name, pb_mm_class_name[c], &db, raw, MM_VAL_QUERIES, NULL, 0) : -1;
        fails = f < 0 ? -1 : fails + f;
    }
    for (size_t q = 0; q < MM_VAL_QUERIES && fails >= 0; q++) {   /* ties: the clip's own frames, both copies at 0 */
        if (pb_mm_features(&s->clip[0], &sk, q % db.rows, raw + q * PB_MM_FEATURES) != PB_OK) fails = -1;
        ex[q] = q % 2 ? (int32_t)(q % db.rows) : -1;
    }
    if (fails >= 0) {
        int f = table_rows(out, sink, s->name, "ties", &dup, raw, MM_VAL_QUERIES, ex, 10);
        fails = f < 0 ? -1 : fails + f;
    }
    /* a larger database of perturbed copies (boxes overlap as in real data): held-out and random queries */
    pb_mm_db big = { 0 };
    char name[96];
    snprintf(name, sizeof name, "%.60s x4 perturbed", s->name);
    if (fails >= 0 && pb_mm_db_replicate(&big, &db, 4 * db.rows, 0.1f, 5) != PB_OK) fails = -1;
    for (int c = 0; c < 2 && fails >= 0; c++) {
        int f = pb_mm_queries(s, &big, c, raw, MM_VAL_BIG_QUERIES, (uint64_t)c + 11) == PB_OK
                    ? table_rows(out, sink, name, pb_mm_class_name[c], &big, raw, MM_VAL_BIG_QUERIES, NULL, 0) : -1;
        fails = f < 0 ? -1 : fails + f;
    }
    pb_mm_db_free(&big);
    pb_mm_db_free(&db);
    pb_mm_db_free(&dup);
    free(raw), free(ex);
    return fails;
}

int pb_mm_validate(FILE *out, int no_mocap, const pb_val_sink *sink)
{
    fprintf(out, "# motion-matching search vs an exhaustive search in double (%d queries per row; same: the double "
            "nearest row; the others' distance within rel_excess of it; off: beyond 1e-6 relative; vs_ref: answers "
            "not the float reference's bit for bit; the perturbed-copy rows: %d queries)\n", MM_VAL_QUERIES,
            MM_VAL_BIG_QUERIES);
    fprintf(out, "%-10s %-18s %-9s %-12s %8s %8s %10s %8s %8s  %s\n", "op", "scene", "queries", "variant", "rows", "same",
            "rel_excess", "off", "vs_ref", "verdict");
    pb_scene syn;
    if (pb_scene_synthetic(&syn, 40, 11) != PB_OK) return -1;
    int fails = scene_rows(out, sink, &syn);
    pb_scene_free(&syn);
    char pa[512], pbp[512];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    snprintf(pbp, sizeof pbp, "%s/01_03.bvh", PB_CMU_DIR);
    pb_scene cmu;
    if (fails >= 0 && !no_mocap && access(pa, R_OK) == 0 && access(pbp, R_OK) == 0 &&
        pb_scene_bvh_files(&cmu, "cmu", pa, pbp, PB_CMU_UNIT_SCALE, NULL, NULL) == PB_OK) {
        int f = scene_rows(out, sink, &cmu);
        fails = f < 0 ? -1 : fails + f;
        pb_scene_free(&cmu);
    }
    fprintf(out, "# mm_search bound: the double nearest row, or one within 1e-6 relative of its distance (float "
            "rounding of 27 squared differences); the exhaustive reference's answer bit for bit (mm_aabb too: its "
            "boxes only skip rows that cannot be strictly nearer)\n");
    return fails;
}
