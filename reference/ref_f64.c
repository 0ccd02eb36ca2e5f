/* ref_f64.c — the double oracle: the reference source evaluated in double.
 * Every variant, and the float reference itself, is measured against it. */
#define REAL double
#define KARGS pb_kargs_f64
#define REF(name) pb_ref_##name##_f64
#define REF_TABLE pb_ref_f64_table
#define REF_FN_T pb_kernel_f64_fn
#define SKARGS pb_skin_kargs_f64
#define REF_AUX_TABLE pb_ref_aux_f64_table
#define MMARGS pb_mm_kargs_f64
#define BSARGS pb_bs_kargs_f64
#define BNARGS pb_bn_kargs_f64
#define REF_AUX_T pb_aux_table_f64
#include "ref_body.h"
