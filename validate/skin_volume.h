/* skin_volume.h — LBS against DQS on a real character where they differ most: at its most twisted
 * joint (issue 60). Linear blend skinning averages the images of a vertex under its joints'
 * matrices, so where a joint twists about its bone the band of vertices blended between it and its
 * parent shrinks towards the bone (the "candy wrapper"); dual quaternion skinning blends the rigid
 * transforms instead and keeps the band's radius.
 *
 * The band of joint j: vertices with weight >= PB_TWIST_BAND_W on both j and its parent p. At a frame,
 * the rotation from p's palette matrix to j's (R_j R_p^T) is split about the bone axis (p's global
 * position to j's) into twist and swing; the most twisted joint is the one whose twist is largest
 * over every frame of every clip. The volume change of a method there is
 *     sum over the band of |x - P_j|^2 (x the method's skinned vertex) / sum of the mean of the same
 *     over the two rigid images (by p's matrix and by j's) - 1,
 * P_j the joint's global position: both rigid images keep a vertex's distance from the joint, LBS
 * averages them (so it pulls the band in), DQS blends the two rigid motions, which for two joints
 * sharing that point keeps it (a band's volume goes as its mean squared size). Known answers: a ring
 * weighted 1/2 and 1/2 between two joints, around the joint, twisted by theta about the bone gives LBS
 * cos^2(theta / 2) - 1 and DQS 0; bent by beta about an axis across the bone, LBS -sin^2(beta / 2) / 2
 * and DQS 0 (tests/test_skin_volume.c). */
#ifndef PB_SKIN_VOLUME_H
#define PB_SKIN_VOLUME_H
#include <stdio.h>
#include "posebench/asset.h"

#define PB_TWIST_BAND_W 0.2f    /* the weight on each of the two joints that puts a vertex in the band */
#define PB_TWIST_MIN_BAND 8     /* joints with fewer band vertices are not considered */
#define PB_TWIST_RIGID_TOL 1e-3 /* palettes whose columns' lengths leave 1 by more scale: DQS cannot skin them */

typedef struct pb_twist_result {
    int found;                  /* 0: no joint has a band (then the rest is unset) */
    size_t joint, parent;       /* the most twisted joint and its parent */
    size_t clip, frame;         /* where (clip index; frame of it) */
    size_t band;                /* vertices in its band */
    double twist_deg, swing_deg;   /* the rotation from p's matrix to j's: about the bone, and the rest */
    double lbs_change, dqs_change;   /* volume change of the band, as defined above (-0.1: 10 % lost) */
    double scale_dev;           /* the largest |column length - 1| of j's and p's palette matrices there */
} pb_twist_result;

/* At one pose (locals of skeleton sk: parents, one frame), joint j (parent p):
 * its twist and swing (degrees) and, when want_volume, both methods' volume
 * change (skinned by pb_skin_lbs and pb_skin_dqs, the active variant). band
 * lists nb vertex indices. Errors: PB_ERR_NOMEM, and the ops' own. */
pb_status pb_twist_band(const pb_skeleton *sk, const pb_pose *local, const pb_pose *inv_bind, const pb_mesh *m,
                        size_t j, size_t p, const uint32_t *band, size_t nb, int want_volume, double *twist_deg,
                        double *swing_deg, double *lbs_change, double *dqs_change);
/* Over every frame of every clip of a, the joint (with a band of at least
 * PB_TWIST_MIN_BAND vertices) and frame of the largest twist, then both
 * methods' volume change there. Errors: PB_ERR_PARAM (no
 * mesh, no clip), PB_ERR_NOMEM, the ops' own. */
pb_status pb_skin_twist(const pb_asset *a, pb_twist_result *r);
/* One "# model: ..." line saying r (names from a). */
void pb_skin_twist_print(FILE *out, const pb_asset *a, const pb_twist_result *r);

#endif
