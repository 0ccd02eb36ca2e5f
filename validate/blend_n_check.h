/* blend_n_check.h — validation of the N-way blend (posebench/blend_n.h):
 * every variant x method against the double oracle and the float reference,
 * and checks that do not come from the reference: unit quaternions, the
 * same result when inputs' quaternions change sign, the accurate form's
 * Rayleigh quotient against the largest eigenvalue of M found by a Jacobi
 * eigen-solver in double (written here), and the fast form's method error
 * against that eigenvector, by how far apart the inputs are. */
#ifndef PB_BLEND_N_CHECK_H
#define PB_BLEND_N_CHECK_H
#include <stdio.h>
#include "validate.h"

/* Input classes: inputs within 30, 90 or 180 degrees of each other; edge
 * (identical inputs, a single non-zero weight, antipodal signs, exact ties);
 * mocap (the same joint of the CMU clips at K random frames, when present);
 * neartie (two groups of inputs 120 .. 180 degrees apart whose weights sum
 * to 1/2 +- d, d from 5e-4 to 3e-2: the top two eigenvalues of M within 2d). */
#define PB_BN_CLASSES 6
extern const char *const pb_bn_class_name[PB_BN_CLASSES];

typedef struct {
    double rot, ref_rot;   /* worst rotation error (rad) vs the oracle: variant, float reference */
    double pos, ref_pos;   /* worst position error, relative to max(1, |p|) */
    double scl, ref_scl;   /* worst scale error, relative */
    double norm;           /* worst ||q| - 1| */
    double sign;           /* worst rotation change when inputs' signs flip (rad) */
    double rayleigh;       /* accurate: worst (lambda_max - q^T M q) / lambda_max, M from the variant's inputs */
    double gapped;         /* accurate: worst angle from the true average x (lambda_1 - lambda_2) / lambda_1 / 2^-24 */
    double method_med, method_max;   /* fast vs the true average (Jacobi, double): median, worst (rad) */
} pb_bn_err;

/* Variant v, method m, on k inputs of class cls (n = joints x characters). */
pb_status pb_bn_error(const pb_variant *v, pb_blend_n_method m, int cls, size_t k, pb_bn_err *e);

/* Every method x class x K (2, 4, 16) x variant (the mocap class when the
 * CMU clips are installed and not no_mocap): one table row each to out,
 * and a row per metric to sink (NULL: none); returns the failing table
 * rows, or -1 on a set-up error. */
int pb_bn_validate(FILE *out, int no_mocap, const pb_val_sink *sink);
#endif
