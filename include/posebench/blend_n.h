/* blend_n.h — the N-way blend: K input poses (2 .. PB_BLEND_N_MAX) mixed by
 * per-character weights, e.g. a blend space's (posebench/bspace.h: one
 * weight plane per sample). Static poses: positions, rotations, scales.
 *
 * Weights need not be normalized: each character's are divided by their sum
 * (a character whose weights are all 0 is refused). Positions are weighted
 * linearly; scales linearly (PB_SCALE_LINEAR, the default) or exponentially
 * (PB_SCALE_EXP: exp of the weighted logs). Rotations, two methods:
 *   PB_BLEND_N_FAST      weighted nlerp: each quaternion flipped into the
 *                        hemisphere of the heaviest input (the first, on a
 *                        tie), accumulated with its weight, normalized;
 *   PB_BLEND_N_ACCURATE  the weighted quaternion average (Markley et al.
 *                        2007): the unit eigenvector of the largest
 *                        eigenvalue of M = sum w_i q_i q_i^T: M squared
 *                        (and scaled to trace 1) until it settles to that
 *                        eigenvector's projector (1 - tr(M^2) <= 1e-4,
 *                        then one square more), then applied to the fast
 *                        result. The squares needed grow as log2(1 / gap)
 *                        of the top two eigenvalues (2-3 for inputs within
 *                        30 degrees of each other, 3-5 within 90, 4-12
 *                        spread over 180; a SIMD step takes its lanes' most;
 *                        at most PB_BLEND_N_SQUARINGS), so the error does not
 *                        depend on the gap beyond the rounding's eps / gap
 *                        (measured in
 *                        validate/blend_n_check.c, near ties included).
 *                        At an exact tie the average is not defined: the
 *                        result is then the fast result projected onto the
 *                        top eigenvectors' plane. Sign-agnostic by
 *                        construction (q and -q give the same M).
 * The fast form's distance from the accurate one is method error, reported
 * by `posebench validate --op blend_n` for inputs within 30, 90 and 180
 * degrees of each other, not folded into a tolerance.
 *
 * Layout: the crowd layout of every pose (element e = joint x characters +
 * character); weights in K planes of `characters` floats (input i's weight
 * for character c at w[i x characters + c]). */
#ifndef POSEBENCH_BLEND_N_H
#define POSEBENCH_BLEND_N_H
#include <stddef.h>
#include "export.h"
#include "status.h"
#include "pose.h"
#include "ops.h"
#ifdef __cplusplus
extern "C" {
#endif

#define PB_BLEND_N_MAX 16
#define PB_BLEND_N_SQUARINGS 24   /* at most: settles when the top two eigenvalues differ by > ~5e-7 */
typedef enum pb_blend_n_method { PB_BLEND_N_FAST, PB_BLEND_N_ACCURATE, PB_BLEND_N_METHODS } pb_blend_n_method;
/* "fast", "accurate"; NULL if out of range. */
PB_API const char *pb_blend_n_method_name(pb_blend_n_method m);

/* out = the blend of in[0 .. k-1] (all of out's n elements, n a multiple of
 * characters). out may be one of the inputs; with characters a multiple of
 * 16 it is written past the caches when the call's bytes exceed
 * pb_stream_bytes() (ops.h; the same bits). scale: PB_SCALE_DEFAULT
 * (linear), PB_SCALE_LINEAR or PB_SCALE_EXP. v: the variant (NULL: the
 * active one). Errors: PB_ERR_NULL (in, an input, w, out), PB_ERR_SIZE (k
 * outside 2 .. PB_BLEND_N_MAX; an input's n not out's; n not a multiple of
 * characters, characters = 0), PB_ERR_PARAM (a weight NaN, Inf or negative,
 * naming input and character; a character whose weights are all 0; method or
 * scale unknown), the pose errors of pb_pose_check (naming the input),
 * PB_ERR_VARIANT; nothing is written on error. */
PB_API pb_status pb_blend_n(const pb_pose *const *in, size_t k, const float *w, size_t characters,
                            pb_blend_n_method method, pb_scale_mode scale, pb_pose *out, const pb_variant *v);

#ifdef __cplusplus
}
#endif
#endif
