/* test_mm.c — the motion-matching database and search (posebench/mm.h),
 * checked against an exhaustive search in double written here (not the
 * reference): in every variant, on the packaged CMU clips (queries from a
 * held-out clip) and a synthetic character, for random queries, queries far
 * outside the data and duplicated frames (ties), each answer is the float
 * reference's row bit for bit, and the nearest in double or within 1e-6
 * relative of it, for both methods (exhaustive and AABB, which must agree
 * bit for bit), also on a database of perturbed copies; every row lies in
 * its boxes; excluded windows are skipped; a row nearer than the best by a
 * few ulp, in a box as tight as a box can be, is found (the AABB skip
 * margin); features are invariant
 * under moving and turning the whole clip on the ground; bad input is
 * refused with the query (character) named, nothing written. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "all_variants.h"
#include "check.h"
#include "mm_check.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NQ 200    /* sanitizer builds (every emulated variant, unoptimized) check memory safety on every path:
                     fewer queries; posebench validate runs 1000 per class in the release build */
#else
#define NQ 1000
#endif

/* Every variant on n raw queries, judged by the exhaustive search in double
 * (validate/mm_check.c): the double nearest or within 1e-6 relative, never in
 * an excluded window, the float reference's answer bit for bit. */
static void search_checks(const char *what, const pb_mm_db *db, const float *raw, size_t n, const int32_t *ex, int rad)
{
    pb_mm_truth t;
    CHECK(pb_mm_nearest_f64(db, raw, n, ex, rad, &t) == PB_OK, "%s", pb_last_error());
    for (int m = 0; m < PB_MM_METHODS; m++)
        for (size_t i = 0; i < pb_all_variant_count(); i++) {
            const pb_variant *v = pb_all_variant_at(i);
            if (pb_variant_check(v) != PB_OK) continue;
            pb_mm_err e;
            CHECK(pb_mm_error(v, (pb_mm_method)m, db, raw, ex, rad, &t, &e) == PB_OK, "%s %s: %s", what,
                  pb_variant_name(v), pb_last_error());
            if (!strcmp(pb_variant_name(v), "scalar"))
                printf("mm %-10s %-28s %zu queries over %zu rows: %zu the double nearest, the others within %.2g "
                       "relative\n", pb_mm_method_name((pb_mm_method)m), what, n, db->rows, e.same, e.worst_rel);
            CHECK(e.off == 0 && e.excluded == 0 && e.vs_ref == 0, "%s %s %s: %zu answers beyond 1e-6 of the double "
                  "nearest, %zu excluded, %zu not the exhaustive reference's", pb_mm_method_name((pb_mm_method)m), what,
                  pb_variant_name(v), e.off, e.excluded, e.vs_ref);
        }
    pb_mm_truth_free(&t);
}

/* The index holds its rows: every row inside its boxes at both levels, and
 * boxes of padding only at +inf. */
static void index_checks(const char *what, const pb_mm_db *db)
{
    static const size_t size[2] = { PB_MM_BOX_SMALL, PB_MM_BOX_LARGE };
    size_t outside = 0, pad_bad = 0;
    for (int lv = 0; lv < 2; lv++) {
        CHECK(db->nbox[lv] * size[lv] == db->stride && db->box_stride[lv] >= db->nbox[lv] + PB_MM_BLOCK &&
              db->box_stride[lv] % PB_MM_BLOCK == 0, "%s: level %d: %zu boxes", what, lv, db->nbox[lv]);
        for (int f = 0; f < PB_MM_FEATURES; f++) {
            const float *box = db->box[lv];
            for (size_t r = 0; r < db->rows; r++) {
                float x = db->feat[pb_mm_at(r, f)];
                size_t b = r / size[lv];
                outside += !(box[pb_mm_box_at(b, f, 0)] <= x && x <= box[pb_mm_box_at(b, f, 1)]);
            }
            for (size_t b = (db->rows + size[lv] - 1) / size[lv]; b < db->box_stride[lv]; b++)
                pad_bad += !(box[pb_mm_box_at(b, f, 0)] == INFINITY && box[pb_mm_box_at(b, f, 1)] == INFINITY);
        }
    }
    CHECK(outside == 0 && pad_bad == 0, "%s: %zu row features outside their boxes, %zu padding boxes not +inf", what,
          outside, pad_bad);
}

/* A scene's database and its query classes. */
static void scene_checks(const pb_scene *s)
{
    pb_mm_skeleton sk = { s->parents, s->joints, s->leg[0][2], s->leg[1][2] };
    pb_mm_db db, dup;
    CHECK(pb_mm_db_build(&db, &s->clip[0], 1, &sk, NULL) == PB_OK, "%s: build: %s", s->name, pb_last_error());
    size_t F = s->clip[0].frames - PB_MM_FUTURE0 * PB_MM_FUTURE_STEPS;
    CHECK(db.rows == F, "%s: %zu rows for a %zu-frame clip", s->name, db.rows, s->clip[0].frames);
    /* rows are the normalized features of their frames */
    size_t bad = 0;
    for (size_t r = 0; r < db.rows; r += 7) {
        float raw[PB_MM_FEATURES], x[PB_MM_FEATURES];
        CHECK(pb_mm_features(&s->clip[0], &sk, db.frame[r], raw) == PB_OK, "features: %s", pb_last_error());
        pb_mm_normalize(&db, raw, x);
        for (int f = 0; f < PB_MM_FEATURES; f++) bad += x[f] != db.feat[pb_mm_at(r, f)];
    }
    CHECK(bad == 0, "%s: %zu stored features differ from pb_mm_features", s->name, bad);
    index_checks(s->name, &db);
    float *raw = malloc(NQ * PB_MM_FEATURES * sizeof *raw);
    CHECK(raw != NULL, "alloc");
    char what[160];
    for (int cls = 0; cls < PB_MM_CLASSES; cls++) {   /* held out (the other clip's frames), random, far */
        CHECK(pb_mm_queries(s, &db, cls, raw, NQ, 7 + (uint64_t)cls) == PB_OK, "queries: %s", pb_last_error());
        snprintf(what, sizeof what, "%s %s", s->name, pb_mm_class_name[cls]);
        search_checks(what, &db, raw, NQ, NULL, 0);
    }
    /* ties: the clip twice, queries its own frames: distance 0 at both copies, the first wins */
    pb_clip two[2] = { s->clip[0], s->clip[0] };
    CHECK(pb_mm_db_build(&dup, two, 2, &sk, NULL) == PB_OK && dup.rows == 2 * F, "dup build: %s", pb_last_error());
    int32_t *ex = malloc(NQ * sizeof *ex);
    uint32_t *best = malloc(NQ * sizeof *best);
    for (size_t q = 0; q < NQ; q++) {
        CHECK(pb_mm_features(&s->clip[0], &sk, q % F, raw + q * PB_MM_FEATURES) == PB_OK, "%s", pb_last_error());
        ex[q] = q % 3 ? (int32_t)(q % F) : -1;   /* exclude the query's own frame (and 10 around) in 2 of 3 */
    }
    snprintf(what, sizeof what, "%s ties", s->name);
    search_checks(what, &dup, raw, NQ, NULL, 0);
    CHECK(pb_mm_search(&dup, raw, NQ, NULL, 0, PB_MM_AABB, best, NULL, NULL) == PB_OK, "%s", pb_last_error());
    size_t first = 0;
    for (size_t q = 0; q < NQ; q++) first += best[q] == q % F;
    CHECK(first == NQ, "%s: %zu of %d exact duplicates answered by the first copy", s->name, first, NQ);
    snprintf(what, sizeof what, "%s excluded", s->name);
    search_checks(what, &dup, raw, NQ, ex, 10);
    CHECK(pb_mm_search(&dup, raw, NQ, ex, 10, PB_MM_AABB, best, NULL, NULL) == PB_OK, "%s", pb_last_error());
    size_t second = 0;
    for (size_t q = 0; q < NQ; q++) second += ex[q] < 0 || best[q] == q % F + F;
    CHECK(second == NQ, "%s: excluding its own frame, %zu of %d found the copy", s->name, second, NQ);
    /* perturbed copies: a larger database whose boxes overlap */
    pb_mm_db big;
    CHECK(pb_mm_db_replicate(&big, &db, 5 * db.rows + 3, 0.1f, 9) == PB_OK && big.rows == 5 * db.rows + 3,
          "replicate: %s", pb_last_error());
    size_t same_first = 0;
    for (size_t r = 0; r < db.rows; r++)
        for (int f = 0; f < PB_MM_FEATURES; f++)
            same_first += big.feat[pb_mm_at(r, f)] == db.feat[pb_mm_at(r, f)];
    CHECK(same_first == db.rows * PB_MM_FEATURES, "replicate: the first copy is not the source");
    index_checks("replicated", &big);
    /* a subset: every third row, in order, the source's normalization, its own index */
    uint8_t *keep = calloc(big.rows, 1);
    CHECK(keep != NULL, "alloc");
    for (size_t r = 0; r < big.rows; r += 3) keep[r] = 1;
    pb_mm_db sub;
    CHECK(pb_mm_db_subset(&sub, &big, keep) == PB_OK && sub.rows == (big.rows + 2) / 3, "subset: %s", pb_last_error());
    size_t sub_bad = 0;
    for (size_t i = 0; i < sub.rows; i++) {
        sub_bad += sub.clip[i] != big.clip[3 * i] || sub.frame[i] != big.frame[3 * i];
        for (int f = 0; f < PB_MM_FEATURES; f++)
            sub_bad += sub.feat[pb_mm_at(i, f)] != big.feat[pb_mm_at(3 * i, f)];
    }
    for (int f = 0; f < PB_MM_FEATURES; f++) sub_bad += sub.mean[f] != big.mean[f] || sub.scale[f] != big.scale[f];
    CHECK(sub_bad == 0, "subset: %zu values differ from the rows kept", sub_bad);
    index_checks("subset", &sub);
    memset(keep, 0, big.rows);
    pb_mm_db none;
    CHECK(pb_mm_db_subset(&none, &big, keep) == PB_ERR_EMPTY && none.rows == 0, "subset of no rows");
    CHECK(pb_mm_db_subset(&none, &big, NULL) == PB_ERR_NULL && strstr(pb_last_error(), "keep"), "subset NULL keep");
    free(keep);
    pb_mm_db_free(&sub);
    for (int cls = 0; cls < 2; cls++) {
        /* NQ / 5 queries: 5x the rows (the sanitizer build runs every emulated variant) */
        CHECK(pb_mm_queries(s, &big, cls, raw, NQ / 5, 21 + (uint64_t)cls) == PB_OK, "queries: %s", pb_last_error());
        snprintf(what, sizeof what, "%s x5 perturbed %s", s->name, pb_mm_class_name[cls]);
        search_checks(what, &big, raw, NQ / 5, NULL, 0);
    }
    pb_mm_db_free(&big);
    free(ex), free(best), free(raw);
    pb_mm_db_free(&db);
    pb_mm_db_free(&dup);
}

/* Moving the whole clip on the ground and turning it about y leaves every
 * feature as it was (character space). */
static void invariance(const pb_scene *s)
{
    pb_clip c = s->clip[0], m;
    CHECK(pb_clip_alloc(&m, c.frames, c.joints, c.fps) == PB_OK, "alloc");
    for (int p = 0; p < PB_PLANES; p++) memcpy(m.pose.plane[p], c.pose.plane[p], c.frames * c.joints * sizeof(float));
    double a = 0.7, qy[4] = { cos(a / 2), 0, sin(a / 2), 0 };
    for (size_t f = 0; f < c.frames; f++) {   /* root: turned about y and moved by (3, 0, -2) */
        size_t e = f * c.joints;
        double x = c.pose.plane[PB_POS_X][e], z = c.pose.plane[PB_POS_Z][e];
        m.pose.plane[PB_POS_X][e] = (float)(cos(a) * x + sin(a) * z + 3);
        m.pose.plane[PB_POS_Z][e] = (float)(-sin(a) * x + cos(a) * z - 2);
        double q[4] = { c.pose.plane[PB_ROT_W][e], c.pose.plane[PB_ROT_X][e], c.pose.plane[PB_ROT_Y][e],
                        c.pose.plane[PB_ROT_Z][e] };
        double r[4] = { qy[0] * q[0] - qy[2] * q[2], qy[0] * q[1] + qy[2] * q[3], qy[0] * q[2] + qy[2] * q[0],
                        qy[0] * q[3] - qy[2] * q[1] };
        for (int k = 0; k < 4; k++) m.pose.plane[PB_ROT_W + k][e] = (float)r[k];
    }
    pb_mm_skeleton sk = { s->parents, s->joints, s->leg[0][2], s->leg[1][2] };
    double worst = 0;
    for (size_t f = 0; f + 60 < c.frames; f += 11) {
        float x[PB_MM_FEATURES], y[PB_MM_FEATURES];
        CHECK(pb_mm_features(&c, &sk, f, x) == PB_OK && pb_mm_features(&m, &sk, f, y) == PB_OK, "%s", pb_last_error());
        for (int k = 0; k < PB_MM_FEATURES; k++) worst = dmax(worst, fabs((double)x[k] - y[k]) / (1 + fabs(x[k])));
    }
    CHECK(worst < 1e-3, "%s: features change by %.3g when the clip moves and turns on the ground", s->name, worst);
    pb_clip_free(&m);
}

/* Squared distance of row r from x, features summed in order, as the reference. */
static float row_dist(const pb_mm_db *db, size_t r, const float *x)
{
    float d = 0;
    for (int f = 0; f < PB_MM_FEATURES; f++) {
        float t = x[f] - db->feat[pb_mm_at(r, f)];
        d += t * t;
    }
    return d;
}

/* The AABB skip margin (kernels/mm.h, mm_limit). Row 0 is the first best;
 * every row of the third large box is one row B, strictly nearer than row 0
 * by at most 4 units in the last place of its distance, so that box's
 * bounds are as tight as they can be (lo = hi = B at both levels): a bound
 * rounded above row 0's distance must not skip it. Every variant and both
 * methods answer B's first row with the reference's distance, bit for bit;
 * the other rows lie far away. */
static void margin_checks(const pb_scene *s)
{
    pb_mm_skeleton sk = { s->parents, s->joints, s->leg[0][2], s->leg[1][2] };
    pb_mm_db db0, db;   /* db: db0 with perturbed copies where it has fewer than 4 large boxes of rows */
    CHECK(pb_mm_db_build(&db0, &s->clip[0], 1, &sk, NULL) == PB_OK, "%s", pb_last_error());
    size_t frames = db0.rows;
    CHECK(pb_mm_db_replicate(&db, &db0, frames > 4 * PB_MM_BOX_LARGE ? frames : 4 * PB_MM_BOX_LARGE, 0.1f, 5) == PB_OK,
          "%s", pb_last_error());
    pb_mm_db_free(&db0);
    const pb_variant *scalar;
    CHECK(pb_variant_find("scalar", &scalar) == PB_OK, "scalar variant");
    uint8_t *keep = malloc(db.rows);
    CHECK(keep != NULL, "alloc");
    memset(keep, 1, db.rows);
    const size_t rb = 2 * PB_MM_BOX_LARGE;
    uint64_t st = 0x9e3779b97f4a7c15u;
    int trials = 0, wrong = 0;
    for (int t = 0; t < 64; t++) {
        float raw[PB_MM_FEATURES], x[PB_MM_FEATURES], b[PB_MM_FEATURES];
        CHECK(pb_mm_features(&s->clip[0], &sk, db.frame[(size_t)t * 7 % frames], raw) == PB_OK, "%s", pb_last_error());
        for (int f = 0; f < PB_MM_FEATURES; f++) raw[f] += 40.0f / db.scale[f];   /* far from every frame */
        pb_mm_normalize(&db, raw, x);
        for (int f = 0; f < PB_MM_FEATURES; f++) {
            st = st * 6364136223846793005u + 1442695040888963407u;
            b[f] = f ? x[f] + ((float)(st >> 40) / 16777216.0f - 0.5f) * 0.1f : x[f];
        }
        for (int f = 0; f < PB_MM_FEATURES; f++) {
            db.feat[pb_mm_at(0, f)] = b[f];
            for (size_t r = rb; r < rb + PB_MM_BOX_LARGE; r++) db.feat[pb_mm_at(r, f)] = b[f];
        }
        /* row 0: B with feature 0 (B's equals x's) moved an ulp at a time until the distance is above B's */
        float db_b = row_dist(&db, rb, x), da = db_b;
        for (int k = 0; k < 4096 && !(da > db_b); k++) {
            float *a = &db.feat[pb_mm_at(0, 0)];
            *a = nextafterf(*a, INFINITY);
            da = row_dist(&db, 0, x);
        }
        if (!(da > db_b && da - db_b <= 4 * (nextafterf(db_b, INFINITY) - db_b))) continue;
        pb_mm_db m;
        CHECK(pb_mm_db_subset(&m, &db, keep) == PB_OK, "subset: %s", pb_last_error());
        uint32_t ref;
        float ref_d;
        CHECK(pb_mm_search(&m, raw, 1, NULL, 0, PB_MM_EXHAUSTIVE, &ref, &ref_d, scalar) == PB_OK, "%s", pb_last_error());
        CHECK(ref == rb && ref_d == db_b, "%s: the reference answers row %u (%.9g), not B (%.9g)", s->name, ref, ref_d, db_b);
        trials++;
        for (int me = 0; me < PB_MM_METHODS; me++)
            for (size_t i = 0; i < pb_all_variant_count(); i++) {
                const pb_variant *v = pb_all_variant_at(i);
                if (pb_variant_check(v) != PB_OK) continue;
                uint32_t got;
                float d;
                CHECK(pb_mm_search(&m, raw, 1, NULL, 0, (pb_mm_method)me, &got, &d, v) == PB_OK, "%s", pb_last_error());
                if (got != ref || d != ref_d) {
                    wrong++;
                    printf("margin: %s %s trial %d: row %u (%.9g), not %u (%.9g)\n", pb_mm_method_name((pb_mm_method)me),
                           pb_variant_name(v), t, got, d, ref, ref_d);
                }
            }
        pb_mm_db_free(&m);
    }
    printf("mm margin %-24s %d trials of a row a few ulp nearer than the best, in a later tight box\n", s->name, trials);
    CHECK(trials >= 32 && wrong == 0, "%s: %d of %d trials answered otherwise than the reference", s->name, wrong, trials);
    free(keep);
    pb_mm_db_free(&db);
}

static void bad_input(const pb_scene *s)
{
    pb_mm_skeleton sk = { s->parents, s->joints, s->leg[0][2], s->leg[1][2] };
    pb_mm_db db, empty = { 0 };
    CHECK(pb_mm_db_build(&db, &s->clip[0], 1, &sk, NULL) == PB_OK, "%s", pb_last_error());
    float q[3 * PB_MM_FEATURES] = { 0 };
    uint32_t best[3] = { 7, 7, 7 };
    int32_t ex[3] = { -1, 5, -1 };
    q[2 * PB_MM_FEATURES + 4] = NAN;
    CHECK(pb_mm_search(&db, q, 3, NULL, 0, PB_MM_EXHAUSTIVE, best, NULL, NULL) == PB_ERR_PARAM &&
          strstr(pb_last_error(), "query 2 (character 2): feature 4 is nan"), "NaN query: %s", pb_last_error());
    q[2 * PB_MM_FEATURES + 4] = 0;
    CHECK(pb_mm_search(&db, q, 0, NULL, 0, PB_MM_EXHAUSTIVE, best, NULL, NULL) == PB_ERR_EMPTY, "n = 0");
    CHECK(pb_mm_search(&empty, q, 3, NULL, 0, PB_MM_AABB, best, NULL, NULL) == PB_ERR_EMPTY, "empty db");
    CHECK(pb_mm_search(&db, q, 3, ex, -1, PB_MM_EXHAUSTIVE, best, NULL, NULL) == PB_ERR_PARAM, "negative radius");
    ex[1] = (int32_t)db.rows;
    CHECK(pb_mm_search(&db, q, 3, ex, 2, PB_MM_AABB, best, NULL, NULL) == PB_ERR_PARAM && strstr(pb_last_error(), "exclude[1]"),
          "exclude out of range: %s", pb_last_error());
    CHECK(pb_mm_search(&db, q, 3, NULL, 0, (pb_mm_method)2, best, NULL, NULL) == PB_ERR_PARAM &&
          strstr(pb_last_error(), "method is 2"), "bad method: %s", pb_last_error());
    pb_mm_db noidx = db;
    noidx.box[1] = NULL;
    CHECK(pb_mm_search(&noidx, q, 3, NULL, 0, PB_MM_AABB, best, NULL, NULL) == PB_ERR_PARAM &&
          strstr(pb_last_error(), "no index"), "no index: %s", pb_last_error());
    pb_mm_db skew = db;
    skew.box[1] = db.box[1] + 1;
    CHECK(pb_mm_search(&skew, q, 3, NULL, 0, PB_MM_AABB, best, NULL, NULL) == PB_ERR_ALIGN &&
          strstr(pb_last_error(), "box[1]"), "misaligned index: %s", pb_last_error());
    skew = db;
    skew.feat = db.feat + 4;
    CHECK(pb_mm_search(&skew, q, 3, NULL, 0, PB_MM_EXHAUSTIVE, best, NULL, NULL) == PB_ERR_ALIGN &&
          strstr(pb_last_error(), "feat"), "misaligned features: %s", pb_last_error());
    CHECK(best[0] == 7 && best[1] == 7 && best[2] == 7, "refused searches wrote nothing");
    pb_mm_db rep;
    CHECK(pb_mm_db_replicate(&rep, &db, 0, 0.1f, 1) == PB_ERR_EMPTY && rep.rows == 0, "replicate 0 rows");
    CHECK(pb_mm_db_replicate(&rep, &db, 10, NAN, 1) == PB_ERR_PARAM && strstr(pb_last_error(), "sigma"),
          "replicate NaN sigma: %s", pb_last_error());
    CHECK(pb_mm_db_replicate(&rep, &empty, 10, 0.1f, 1) == PB_ERR_EMPTY, "replicate an empty db");
    CHECK(pb_mm_db_replicate(&rep, &db, PB_MM_MAX_FRAMES + 1, 0.1f, 1) == PB_ERR_SIZE, "replicate too many rows");
    pb_mm_weights w = pb_mm_weights_default();
    w.w[3] = 0;
    CHECK(pb_mm_db_build(&empty, &s->clip[0], 1, &sk, &w) == PB_ERR_PARAM && strstr(pb_last_error(), "w[3] is 0") &&
          empty.rows == 0, "zero weight: %s", pb_last_error());
    pb_clip shorty;   /* 60 frames: none has a trajectory 60 frames ahead */
    CHECK(pb_clip_alloc(&shorty, 60, s->joints, 60.0f) == PB_OK, "alloc");
    CHECK(pb_mm_db_build(&empty, &shorty, 1, &sk, NULL) == PB_ERR_EMPTY && strstr(pb_last_error(), "60 frames") &&
          empty.rows == 0, "short clip: %s", pb_last_error());
    pb_clip_free(&shorty);
    pb_mm_skeleton bad = sk;
    bad.left_foot = bad.right_foot;
    CHECK(pb_mm_db_build(&empty, &s->clip[0], 1, &bad, NULL) == PB_ERR_PARAM, "same feet: %s", pb_last_error());
    /* a still clip: every group flat, kept at unit scale (times its weight) */
    pb_clip still;
    CHECK(pb_clip_alloc(&still, 100, s->joints, 60.0f) == PB_OK, "alloc");
    for (size_t f = 0; f < 100; f++)
        for (size_t j = 0; j < s->joints; j++) still.pose.plane[PB_POS_Y][f * s->joints + j] = j ? 0.1f : 1.0f;
    CHECK(pb_mm_db_build(&empty, &still, 1, &sk, NULL) == PB_OK && empty.flat[0] && empty.flat[2] &&
          empty.scale[0] == 1.0f, "still clip: %s", pb_last_error());
    pb_mm_db_free(&empty);
    pb_clip_free(&still);
    pb_mm_db_free(&db);
}

int main(void)
{
    pb_scene syn, cmu;
    CHECK(pb_scene_synthetic(&syn, 40, 11) == PB_OK, "%s", pb_last_error());
    scene_checks(&syn);
    invariance(&syn);
    margin_checks(&syn);
    bad_input(&syn);
    char pa[512], pbp[512];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    snprintf(pbp, sizeof pbp, "%s/01_03.bvh", PB_CMU_DIR);
    if (access(pa, R_OK) == 0 && access(pbp, R_OK) == 0 &&
        pb_scene_bvh_files(&cmu, "cmu", pa, pbp, PB_CMU_UNIT_SCALE, NULL, NULL) == PB_OK) {
        scene_checks(&cmu);
        invariance(&cmu);
        margin_checks(&cmu);
        pb_scene_free(&cmu);
    } else {
        printf("note: no CMU clips installed (%s): real motion not checked\n", PB_CMU_DIR);
    }
    pb_scene_free(&syn);
    return check_done();
}
