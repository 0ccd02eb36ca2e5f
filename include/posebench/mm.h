/* mm.h — motion matching (Clavet, GDC 2016): a database of animation frames
 * described by features, and the search for the frame whose features best
 * match a query (the character's current state and desired trajectory).
 *
 * Features (PB_MM_FEATURES = 27 floats per frame, the set of Holden et al.'s
 * Learned Motion Matching), all in the character's own space: the root
 * (joint 0) projected onto the ground (y = 0) as origin, facing the hips'
 * forward axis projected onto the ground, y up:
 *   0- 2 left foot position      3- 5 right foot position
 *   6- 8 left foot velocity      9-11 right foot velocity
 *  12-14 hip (joint 0) velocity
 *  15-20 trajectory positions (x, z) at PB_MM_FUTURE frames ahead (20, 40, 60)
 *  21-26 trajectory facing directions (x, z) at the same offsets.
 * Velocities are finite differences over one frame (times the clip's fps).
 * Frames closer to a clip's end than the last future offset have no
 * trajectory and are not in the database.
 *
 * Normalization: per group (PB_MM_GROUPS: foot positions, foot velocities,
 * hip velocity, trajectory positions, trajectory directions), each feature
 * minus its mean over the database, divided by the group's standard
 * deviation (the root of the mean of its features' variances), times the
 * group's weight, so the weighted squared distance of the issue is the
 * plain squared distance of normalized vectors. The database stores them
 * SoA in blocks of PB_MM_BLOCK rows (pb_mm_at). A group whose deviation is
 * 0 (it never varies) keeps unit scale: pb_mm_db.flat says which.
 *
 * Search: for each query (raw features, normalized on the way in), the
 * database row with the smallest squared distance, ties broken by the
 * lowest row; optionally excluding a window of rows around a given one (the
 * frame playing). Two methods, both exact and SIMD: PB_MM_EXHAUSTIVE (every
 * row, many rows per vector) and PB_MM_AABB (bounding boxes over blocks of
 * 16 and 64 rows, two levels as in Learned Motion Matching: a block whose
 * box is no nearer than the best row so far is skipped). A box's distance is
 * a lower bound of its rows' distances in float arithmetic too (monotone
 * rounding, same summation order), so both methods return the same row and
 * distance bit for bit; every variant returns the float reference's row, and
 * that row's distance is within 1e-6 relative of the exhaustive search in
 * double (tests/test_mm.c, posebench validate). */
#ifndef POSEBENCH_MM_H
#define POSEBENCH_MM_H

#include <stddef.h>
#include <stdint.h>
#include "export.h"
#include "status.h"
#include "ops.h"
#include "clip.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_MM_FEATURES 27
#define PB_MM_GROUPS 5
#define PB_MM_FUTURE0 20   /* trajectory offsets: 20, 40, 60 frames ahead */
#define PB_MM_FUTURE_STEPS 3
#define PB_MM_MAX_FRAMES ((size_t)1 << 26)   /* database rows: larger builds are refused */
#define PB_MM_MAX_CLIPS 4096

/* Which joints the features read, per clip (same skeleton for every clip). */
typedef struct pb_mm_skeleton {
    const int32_t *parents;   /* joints entries, parents first (parents[0] = -1: joint 0 the root/hips) */
    size_t joints;
    int left_foot, right_foot;   /* joint indices */
} pb_mm_skeleton;

/* Group weights (0 or NaN is refused; every weight > 0 and finite). */
typedef struct pb_mm_weights { float w[PB_MM_GROUPS]; } pb_mm_weights;
PB_API pb_mm_weights pb_mm_weights_default(void);   /* all 1 */

#define PB_MM_BOX_SMALL 16   /* rows per box, level 0 */
#define PB_MM_BOX_LARGE 64   /* rows per box, level 1 */

/* Where feature f of row i is stored in pb_mm_db's feat: blocks of
 * PB_MM_BLOCK rows, a block's features one after the other, PB_MM_BLOCK
 * floats each. SoA inside a block (a vector holds one feature of
 * consecutive rows), and a block's 27 features in 27 consecutive cache
 * lines: a search that visits a few blocks reads contiguous memory, not 27
 * planes far apart (measured on AVX2 at 100 k rows, this layout alone: the
 * AABB search 44 -> 27 us a query, the exhaustive one 349 -> 191, one
 * session's bench medians). */
#define PB_MM_BLOCK 16
static inline size_t pb_mm_at(size_t i, int f)
{
    return i / PB_MM_BLOCK * (PB_MM_BLOCK * PB_MM_FEATURES) + (size_t)f * PB_MM_BLOCK + i % PB_MM_BLOCK;
}

/* Where feature f of box b's low (side 0) or high (side 1) bound is stored
 * in pb_mm_db's box[k]: blocks of PB_MM_BOX_RUN boxes, per feature the
 * block's lows then its highs, one 64-byte line. Both bounds a search tests
 * together share a line: bounding 8 boxes reads 27 lines, against 54 with
 * lows and highs in separate arrays (4 boxes, as SSE4.1 and NEON bound
 * them: 27 half lines against 54 quarter lines). */
#define PB_MM_BOX_RUN 8
static inline size_t pb_mm_box_at(size_t b, int f, int side)
{
    return b / PB_MM_BOX_RUN * (2 * PB_MM_BOX_RUN * PB_MM_FEATURES) + (size_t)f * (2 * PB_MM_BOX_RUN) +
           (size_t)side * PB_MM_BOX_RUN + b % PB_MM_BOX_RUN;
}
/* feat and box[] start on 64-byte boundaries (the kernels load whole
 * blocks aligned; pb_mm_search checks), so a database is built by
 * pb_mm_db_build / _subset / _replicate, not by hand. */

typedef enum pb_mm_method { PB_MM_EXHAUSTIVE, PB_MM_AABB, PB_MM_METHODS } pb_mm_method;
PB_API const char *pb_mm_method_name(pb_mm_method m);   /* "exhaustive", "aabb"; NULL if out of range */

typedef struct pb_mm_db {
    size_t rows;                  /* database frames */
    size_t stride;                /* row slots: rows rounded up to 64, padding rows +inf far */
    float *feat;                  /* stride x PB_MM_FEATURES floats, normalized, at pb_mm_at(row, f) */
    uint32_t *clip, *frame;       /* each row's clip and frame */
    float mean[PB_MM_FEATURES];   /* normalization: (raw - mean) * scale */
    float scale[PB_MM_FEATURES];
    int flat[PB_MM_GROUPS];       /* 1: the group never varies (scale = its weight) */
    /* The index (PB_MM_AABB): level k's nbox[k] boxes of PB_MM_BOX_SMALL /
     * PB_MM_BOX_LARGE rows, per feature the smallest and largest normalized
     * value (box_stride[k] box slots at pb_mm_box_at(box, f, side); boxes of
     * padding only: +inf). */
    size_t nbox[2], box_stride[2];
    float *box[2];
} pb_mm_db;

/* Raw features of frame f of clip c (locals, frames x joints; clip->fps > 0)
 * into out[PB_MM_FEATURES]; f must leave the future offsets inside the clip.
 * Errors: PB_ERR_NULL, PB_ERR_PARAM (skeleton indices, f), PB_ERR_SIZE. */
PB_API pb_status pb_mm_features(const pb_clip *c, const pb_mm_skeleton *sk, size_t f, float out[PB_MM_FEATURES]);

/* Build the database from nclips clips of skeleton sk: every frame with a
 * full future, normalized with weights w (NULL: pb_mm_weights_default()).
 * Errors: PB_ERR_NULL, PB_ERR_EMPTY (no clip, or no clip long enough for the
 * future window: the message names the shortest), PB_ERR_PARAM (weights,
 * skeleton, a clip's fps, non-finite features naming clip and frame),
 * PB_ERR_SIZE (over PB_MM_MAX_FRAMES rows), PB_ERR_NOMEM; on error db is
 * left empty (zeroed). */
PB_API pb_status pb_mm_db_build(pb_mm_db *db, const pb_clip *clips, size_t nclips, const pb_mm_skeleton *sk,
                                const pb_mm_weights *w);
PB_API void pb_mm_db_free(pb_mm_db *db);

/* The rows of src with keep[r] != 0 (src->rows flags), in order, with src's
 * normalization (queries normalize as for src): a database without some
 * frames, e.g. to search with held-out ones. Errors: PB_ERR_NULL,
 * PB_ERR_EMPTY (no row kept), PB_ERR_NOMEM; on error out is left empty. */
PB_API pb_status pb_mm_db_subset(pb_mm_db *out, const pb_mm_db *src, const uint8_t *keep);

/* A larger database for scaling measurements: rows rows, row r a copy of
 * src's row r mod src->rows, each copy after the first (src itself) with
 * every normalized feature shifted by its own seeded uniform in
 * [-sigma, sigma] (one shift per copy and feature: the copy's motion stays
 * smooth, as a neighbouring take of the same motion would be). Rows keep
 * their source's clip and frame. Labelled as such wherever it is used:
 * perturbed copies are not new motion.
 * Errors: PB_ERR_NULL, PB_ERR_EMPTY (src empty, rows = 0), PB_ERR_PARAM
 * (sigma negative or not finite), PB_ERR_SIZE (rows over PB_MM_MAX_FRAMES),
 * PB_ERR_NOMEM; on error out is left empty. */
PB_API pb_status pb_mm_db_replicate(pb_mm_db *out, const pb_mm_db *src, size_t rows, float sigma, uint64_t seed);

/* Normalize raw features into the database's space (out may be raw). Does nothing if a pointer is NULL. */
PB_API void pb_mm_normalize(const pb_mm_db *db, const float raw[PB_MM_FEATURES], float out[PB_MM_FEATURES]);

/* A crowd's search: n queries (n x PB_MM_FEATURES raw floats, query q at
 * queries + q x PB_MM_FEATURES), best[q] the nearest row, dist[q] its squared
 * distance in normalized space (dist may be NULL). exclude (NULL: none): per
 * query a row r >= 0 whose window r - exclude_radius .. r + exclude_radius
 * (rows, clamped to the database) is skipped; -1 skips nothing for that query. A
 * query whose every row is excluded gets best = UINT32_MAX, dist = +inf.
 * method: PB_MM_EXHAUSTIVE or PB_MM_AABB (same answers). v: the variant
 * (NULL: the active one).
 * Errors: PB_ERR_NULL, PB_ERR_EMPTY (n = 0, an empty database),
 * PB_ERR_PARAM (a NaN/Inf query value: names the query, i.e. the character,
 * and the feature; an exclude row out of range; an unknown method),
 * PB_ERR_ALIGN (feat, or for PB_MM_AABB box[0] or box[1], not 64-byte aligned),
 * PB_ERR_VARIANT; nothing is written on error. */
PB_API pb_status pb_mm_search(const pb_mm_db *db, const float *queries, size_t n, const int32_t *exclude,
                              int exclude_radius, pb_mm_method method, uint32_t *best, float *dist,
                              const pb_variant *v);

#ifdef __cplusplus
}
#endif
#endif
