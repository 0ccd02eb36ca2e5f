/* bspace.h — blend-space weights: for each character a parameter point
 * (speed, or a 2D direction-and-speed), the weight of each of the space's
 * sample clips, ready for an N-way blend (one weight plane per sample).
 *
 * Methods (one per blend space, chosen at set-up):
 *   PB_BSPACE_1D           samples at sorted positions on a line; the two
 *                          neighbours of the parameter, linearly; clamped at
 *                          the ends (the first / last sample weight 1).
 *   PB_BSPACE_BARYCENTRIC  2D: barycentric weights in the triangle of the
 *                          samples' Delaunay triangulation (built once, at
 *                          set-up) that holds the parameter; outside the hull,
 *                          the nearest point of the hull (two weights).
 *                          Samples collinear to 1e-6 of the largest
 *                          magnitude (idle, walk, run along one direction)
 *                          make no triangle: a parameter between them gets
 *                          the 1D interpolation along their line.
 *   PB_BSPACE_GRADIENT     2D: gradient band interpolation (Johansen 2009;
 *                          Unity's "freeform cartesian"): sample i's weight is
 *                          max(0, min over j != i of 1 - (p - p_i).(p_j - p_i)
 *                          / |p_j - p_i|^2), then all normalized to sum 1.
 *   PB_BSPACE_POLAR        2D: the same in polar space (Unity's "freeform
 *                          directional"): the pair vectors are (2 x angle,
 *                          magnitude difference / mean magnitude), with the
 *                          angle signed in the turning sense from p_i to p_j,
 *                          and a sample at the origin paired by the angle
 *                          between p and the other sample (reference/bspace.h
 *                          spells the cases out). For direction x speed spaces
 *                          with a sample at the origin (idle). Where the
 *                          samples do not surround the origin the weights
 *                          jump, by the definition, across the ray opposite
 *                          a sample (its angle to p wraps from +pi to -pi):
 *                          keep parameters on the samples' side, or add
 *                          samples around.
 * Every method's weights are >= 0 and sum to 1 (to rounding: 1e-6), a
 * parameter exactly at a sample gives that sample weight 1 (to 1e-6), and
 * the weights are continuous in the parameter (polar: but for that seam;
 * tests/test_bspace.c, posebench validate).
 *
 * Validate once, run many: pb_bspace_create checks the samples and builds
 * the method's tables; pb_bspace_weights runs the variant's kernel, SIMD
 * across characters. */
#ifndef POSEBENCH_BSPACE_H
#define POSEBENCH_BSPACE_H
#include <stddef.h>
#include <stdint.h>
#include "export.h"
#include "status.h"
#include "ops.h"
#ifdef __cplusplus
extern "C" {
#endif

#define PB_BSPACE_MAX_SAMPLES 64

typedef enum pb_bspace_method {
    PB_BSPACE_1D,
    PB_BSPACE_BARYCENTRIC,
    PB_BSPACE_GRADIENT,
    PB_BSPACE_POLAR,
    PB_BSPACE_METHODS
} pb_bspace_method;
/* "1d", "barycentric", "gradient", "polar"; NULL if out of range. */
PB_API const char *pb_bspace_method_name(pb_bspace_method m);

typedef struct pb_bspace {
    pb_bspace_method method;
    size_t samples;
    float x[PB_BSPACE_MAX_SAMPLES], y[PB_BSPACE_MAX_SAMPLES];   /* as given (1D: y = 0) */
    size_t triangles;   /* PB_BSPACE_BARYCENTRIC: the triangulation's triangles */
    int32_t *tri;       /* 3 x triangles sample indices, counter-clockwise */
    size_t hull;        /* PB_BSPACE_BARYCENTRIC: hull edges */
    int origin;         /* PB_BSPACE_POLAR: the sample at (0, 0), -1 if none */
    /* The method's constants for the kernels (float), and the integer tables. */
    float *tab;
    int32_t *itab;
} pb_bspace;

/* A blend space of `samples` sample points (x[i], y[i]); y is not read (may
 * be NULL) for PB_BSPACE_1D. Errors: PB_ERR_NULL (bs, x, or y for 2D),
 * PB_ERR_PARAM (unknown method; a NaN/Inf coordinate, naming the sample;
 * two samples at the same point (1D: the same position), naming both; for
 * PB_BSPACE_BARYCENTRIC all samples on one line (no triangle; three
 * samples count as on one line when one is within 1e-6 of the largest
 * magnitude of the line through the other two, so samples made with sin /
 * cos in float that are meant to be collinear are); for
 * PB_BSPACE_POLAR a sample closer to the origin than 1e-6 of the largest
 * magnitude without being at it), PB_ERR_SIZE (samples < 2, or < 3 for
 * PB_BSPACE_BARYCENTRIC, or over PB_BSPACE_MAX_SAMPLES), PB_ERR_NOMEM; on
 * error bs is left empty (zeroed; pb_bspace_free accepts it). */
PB_API pb_status pb_bspace_create(pb_bspace *bs, pb_bspace_method method, const float *x, const float *y,
                                  size_t samples);
PB_API void pb_bspace_free(pb_bspace *bs);

/* Weights of n characters' parameters (px[c], py[c]; py not read for 1D)
 * into bs->samples planes: sample i's weight for character c at
 * w[i x w_stride + c] (w_stride >= n). v: the variant (NULL: the active one).
 * Errors: PB_ERR_NULL, PB_ERR_EMPTY (n = 0, or bs not created), PB_ERR_SIZE
 * (w_stride < n), PB_ERR_PARAM (a NaN/Inf parameter, naming the character
 * and the coordinate), PB_ERR_VARIANT; nothing is written on error. */
PB_API pb_status pb_bspace_weights(const pb_bspace *bs, const float *px, const float *py, size_t n, float *w,
                                   size_t w_stride, const pb_variant *v);

#ifdef __cplusplus
}
#endif
#endif
