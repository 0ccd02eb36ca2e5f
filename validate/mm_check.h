/* mm_check.h — validation of the motion-matching search (posebench/mm.h):
 * every variant against an exhaustive search in double over the same
 * normalized rows, and against the float reference. */
#ifndef PB_MM_CHECK_H
#define PB_MM_CHECK_H
#include <stdio.h>
#include "validate.h"

/* The exhaustive search in double over the same normalized rows (each
 * query normalized in float as pb_mm_search does, then promoted): per query
 * the nearest row (SIZE_MAX: every row excluded) and its distance. */
typedef struct { size_t n, *at; double *dmin; } pb_mm_truth;
pb_status pb_mm_nearest_f64(const pb_mm_db *db, const float *raw, size_t n, const int32_t *ex, int radius,
                            pb_mm_truth *t);
void pb_mm_truth_free(pb_mm_truth *t);

/* Answers of variant v to the t->n raw queries judged against t: how many
 * are the double nearest row, the worst relative excess of the others'
 * distance (in double) over the nearest, how many exceed 1e-6 relative
 * (`off`), answers inside an excluded window, and answers (row or distance
 * bits) differing from the float reference's exhaustive search (for either method). */
typedef struct {
    size_t n, same, off, excluded, vs_ref;
    double worst_rel;
} pb_mm_err;
pb_status pb_mm_error(const pb_variant *v, pb_mm_method method, const pb_mm_db *db, const float *raw, const int32_t *ex,
                      int radius, const pb_mm_truth *t, pb_mm_err *err);

/* The query classes of a database built from clip 0 of scene s: held out
 * (clip 1's frames), random (within 3 deviations), far (1000 deviations)
 * into raw (n x PB_MM_FEATURES). */
pb_status pb_mm_queries(const pb_scene *s, const pb_mm_db *db, int cls, float *raw, size_t n, uint64_t seed);
#define PB_MM_CLASSES 3
extern const char *const pb_mm_class_name[PB_MM_CLASSES];

/* Every variant x case (the synthetic scene; the CMU clips when installed and not no_mocap)
 * x query class, plus ties (the clip twice, its own frames as queries, half
 * of them excluding their own window): one table row each to out, and its
 * rel_excess, excluded and vs_ref rows to sink (NULL: none). Returns the
 * number of failing table rows, or -1 on a set-up error. */
int pb_mm_validate(FILE *out, int no_mocap, const pb_val_sink *sink);
#endif
