/* bspace_check.h — validation of the blend-space weights (posebench/bspace.h):
 * every variant against the double oracle (the reference's source in double
 * over the tables built in double) and the float reference, and checks that
 * do not come from the reference: weights >= 0 summing to 1, a sample's own
 * point giving it weight 1, linear precision (1D and barycentric: the
 * weighted samples reproduce a parameter inside the hull), and continuity
 * (the largest jump between grid neighbours halves when the grid is refined). */
#ifndef PB_BSPACE_CHECK_H
#define PB_BSPACE_CHECK_H
#include <stdio.h>
#include "validate.h"

typedef struct {
    size_t n;              /* characters */
    double worst;          /* largest |w - w_oracle| of the variant */
    double ref_worst;      /* the same for the float reference */
    size_t vs_ref;         /* weights whose bits differ from the float reference's */
    double neg;            /* most negative weight (0: none) */
    double sum_dev;        /* largest |sum of a character's weights - 1| */
    size_t nonfinite;      /* NaN / Inf weights */
    double lin_dev;        /* largest |sum w_i p_i - p| relative to the samples' extent (every character) */
} pb_bs_err;

/* Variant v on n parameters (py ignored for 1D) judged as above. */
pb_status pb_bs_error(const pb_variant *v, const pb_bspace *bs, const float *px, const float *py, size_t n,
                      pb_bs_err *e);

/* Largest |1 - w_i| with the parameter at sample i's own point, over every sample. */
pb_status pb_bs_at_samples(const pb_variant *v, const pb_bspace *bs, double *worst);

/* Largest change of any weight between neighbouring points of an N x N grid
 * (1D: N points) over the box lo .. hi (x, then y), both points at least
 * rmin from the origin. */
pb_status pb_bs_grid_jump(const pb_variant *v, const pb_bspace *bs, const double lo[2], const double hi[2], size_t N,
                          double rmin, double *jump);

/* Test sets: 0: 1D speeds (unsorted); 1: locomotion (origin, 8 directions
 * at walk and run speed: cocircular rings); 2: a 3 x 3 grid (cocircular
 * squares); 3: 8 seeded random points; 4: 8 directions plus the origin at
 * one speed; 5: idle, walk and run at 120 degrees made with cos / sin
 * (collinear up to float rounding) and a walk at 0 degrees (not for polar:
 * it does not surround the origin). Fills x, y (PB_BSPACE_MAX_SAMPLES
 * each); returns the count. */
#define PB_BS_SETS 6
size_t pb_bs_set(int set, float *x, float *y, const char **name);

/* Parameter classes over a blend space: random (the samples' box grown by
 * 30 % each side), inside (convex combinations of three samples), samples
 * (each sample's own point, repeated), far (1e3 extents away). */
#define PB_BS_CLASSES 4
extern const char *const pb_bs_class_name[PB_BS_CLASSES];
void pb_bs_params(const pb_bspace *bs, int cls, float *px, float *py, size_t n, uint64_t seed);

/* Every method x set x class x variant, one row each, plus the sample and
 * continuity rows, to out and (weight; at_sample, jump_256, jump_511) to
 * sink (NULL: none); returns the failing table rows, or -1 on a set-up error. */
int pb_bs_validate(FILE *out, const pb_val_sink *sink);
#endif
