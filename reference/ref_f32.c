/* ref_f32.c — the float reference: what "scalar" means in every comparison.
 * Built with auto-vectorization off (see CMakeLists.txt). */
#define REAL float
#define KARGS pb_kargs
#define REF(name) pb_ref_##name
#define REF_TABLE pb_ref_table
#define REF_FN_T pb_kernel_fn
#define SKARGS pb_skin_kargs
#define REF_AUX_TABLE pb_ref_aux_table
#define MMARGS pb_mm_kargs
#define BSARGS pb_bs_kargs
#define BNARGS pb_bn_kargs
#define REF_AUX_T pb_aux_table
#include "ref_body.h"
