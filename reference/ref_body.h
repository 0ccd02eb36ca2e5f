/* ref_body.h — the scalar reference of every op, written once over REAL.
 *
 * Included by ref_f32.c (REAL = float: the reference and the "scalar" baseline
 * variant) and ref_f64.c (REAL = double: the accuracy oracle). Readable first:
 * per element, straight from the formulas (Holden, "Propagating Velocities
 * through Animation Systems", and the usual quaternion algebra). tgmath.h
 * picks sinf/sin etc. from the argument type, and R() keeps constants in REAL
 * so the float build really computes in float.
 *
 * The includer defines REAL, KARGS (pb_kargs / pb_kargs_f64), REF(name) (the
 * function name) and REF_TABLE / REF_FN_T (the table symbol and its type).
 *
 * The ops live by family, each file the same name as its kernel counterpart
 * in kernels/: common.h (shared algebra, plane access), then elementwise.h,
 * kineform.h, skeleton.h, transition.h, target.h, chain.h, foot.h (over target.h's IK), sample.h, palette.h
 * skin.h, mm.h and bspace.h
 * (skinning, the motion-matching search and blend-space weights: not pose ops, their own table
 * REF_AUX_TABLE of REF_AUX_T). They are
 * include-only, in this order (a family may use common.h, nothing else; chain.h
 * also uses target.h's direction algebra). */
#include "common.h"
#include "elementwise.h"
#include "kineform.h"
#include "skeleton.h"
#include "transition.h"
#include "target.h"
#include "chain.h"
#include "foot.h"   /* uses target.h's ik_solve */
#include "sample.h"
#include "palette.h"
#include "skin.h"
#include "mm.h"
#include "bspace.h"
#include "blend_n.h"

/* Skinning, the motion-matching search and the blend-space weights are not
 * pose ops: their own table. */
const REF_AUX_T REF_AUX_TABLE = { REF(skin_lbs), REF(skin_dqs), { REF(mm_search), REF(mm_search_aabb) },
                                  { REF(bspace_1d), REF(bspace_bary), REF(bspace_gradient), REF(bspace_polar) },
                                  { REF(blend_n_fast), REF(blend_n_accurate) } };

const REF_FN_T REF_TABLE[PB_OP_COUNT] = {
#define PB_X_REF(name) [PB_OP_##name] = REF(name),
    PB_OP_LIST(PB_X_REF)
#undef PB_X_REF
};
