/* skin_check.h — validation of the skinning kernels (posebench/skin.h):
 * every variant against the double oracle (reference/skin.h in double) on
 * a random mesh and palette and on the synthetic mesh of a real skeleton
 * posed by real motion capture; the tolerance rows and their reasons. */
#ifndef PB_SKIN_CHECK_H
#define PB_SKIN_CHECK_H
#include <stdio.h>
#include "validate.h"
#include "posebench/asset.h"

/* A mesh with both palettes of the same transforms (matrix and DQ). */
typedef struct pb_skin_case {
    const char *name;
    pb_mesh mesh;
    pb_palette mat, dq;
    size_t joints;
} pb_skin_case;

/* Random: n vertices with 4 influences over `joints` random rigid
 * transforms (rotations anywhere, half of them given as -q in the DQ
 * palette: the antipodal flip; translations within 2 m), positions within
 * 1 m, unit normals, weights summing to 1. */
pb_status pb_skin_case_random(pb_skin_case *c, size_t n, size_t joints, uint64_t seed);
/* Real: the synthetic mesh (n vertices) of clip i's skeleton, palettes of a
 * real frame (FK of the clip's locals, inverse bind from the BVH rest). */
pb_status pb_skin_case_mocap(pb_skin_case *c, const pb_mocap *m, size_t clip, size_t n, uint64_t seed);
/* Bones: the synthetic mesh (n vertices, along the bones as an engine's
 * mesh sorted by bone: neighbouring vertices share their joints) of the
 * synthetic skeleton of `joints` joints (pb_scene_synthetic(seed)), with
 * both palettes of random rigid transforms as the random case's. */
pb_status pb_skin_case_bones(pb_skin_case *c, size_t n, size_t joints, uint64_t seed);
/* Model: an imported character's own mesh (every mesh of the file, its
 * influences as imported) and both palettes of a real frame: FK of a seeded
 * frame of its first clip (its rest pose when it has none) against the file's
 * inverse binds (a->inv_bind_pose). */
pb_status pb_skin_case_asset(pb_skin_case *c, const pb_asset *a, uint64_t seed);
void pb_skin_case_free(pb_skin_case *c);

/* Max errors of variant v (NULL: the double oracle vs itself is 0) against
 * the double oracle: positions (data units, m) and normals (absolute). */
typedef struct { double pos, nrm; } pb_skin_err;
pb_status pb_skin_error(const pb_variant *v, pb_skin_method method, const pb_skin_case *c, pb_skin_err *err);
/* The same for a call with `flags` (posebench/skin.h). PB_SKIN_POSITIONS_ONLY:
 * the variant runs on the mesh without its normal planes (NULL), over output
 * normals filled with NaN; err->nrm is 0 when they all stayed NaN, else
 * infinite (a normal written), and the oracle skins positions only. */
pb_status pb_skin_error_flags(const pb_variant *v, pb_skin_method method, unsigned flags, const pb_skin_case *c,
                              pb_skin_err *err);

/* The tolerance rows: a variant passes when its error is at most
 * max(k x the float reference's own, floor). */
typedef struct { const char *op; double k, pos_floor, nrm_floor; const char *reason; } pb_skin_tol;
extern const pb_skin_tol pb_skin_tolerance[2];   /* [PB_SKIN_LBS], [PB_SKIN_DQS] */

/* Every variant (emulated ones too) x method x case (random, bones; the
 * mocap case when m has clips; the model case when model is not NULL) x form (full; positions only, case <name>_pos): one table row each to out, and a pos and an nrm
 * row each to sink (NULL: none). Returns the number of failing table rows,
 * or -1 on a set-up error. */
int pb_skin_validate(FILE *out, const pb_mocap *m, const pb_asset *model, const pb_val_sink *sink);
#endif
