/* kernel_body.h — every op's SIMD kernel, written once over the pb_vf
 * vocabulary. Included by one isa_<name>.c per ISA after its backend header;
 * CMake compiles each of those twice (native flags / emulated), and PB_MODE
 * (native or emu) keeps the two builds' table symbols apart.
 *
 * SoA kernels run over n_padded lanes in whole vectors: pose padding is
 * identity and every op maps identity to identity, so no tail is needed. */
#include <math.h>
#include "internal.h"
#include "vmath.h"

#define PB_CAT3_(a, b, c) a##_##b##_##c
#define PB_CAT3(a, b, c) PB_CAT3_(a, b, c)
#define PB_TABLE PB_CAT3(pb_table, PB_ISA, PB_MODE)
#define PB_AUX_TABLE PB_CAT3(pb_aux_table, PB_ISA, PB_MODE)

#define FOR_VECTORS(k) for (size_t i = 0; i < (k)->n_padded; i += PB_LANES)

/* A rare path (few characters) kept out of its op's main loop: inlined, its
 * register pressure changes the main loop's code (fk_static crowds 12-18 %
 * slower, sample_linear AVX2 crowds 5-8 %). */
#if defined(__GNUC__)
#define FEW_NOINLINE static __attribute__((noinline))
#else
#define FEW_NOINLINE static
#endif

/* The ops by family, each file named like its reference counterpart in
 * reference/; every family may use vmath.h and the macros above. */
#include "params.h"
#include "elementwise.h"
#include "kineform.h"
#include "skeleton.h"
#include "transition.h"
#include "target.h"
#include "chain.h"
#include "foot.h"   /* uses target.h's vik_solve */
#include "sample.h"
#include "palette.h"
#include "skin.h"
#include "mm.h"
#include "bspace.h"
#include "blend_n.h"

const pb_kernel_fn PB_TABLE[PB_OP_COUNT] = {
#define PB_X_KERNEL(name) [PB_OP_##name] = k_##name,
    PB_OP_LIST(PB_X_KERNEL)
#undef PB_X_KERNEL
};

/* Skinning, the motion-matching search and the blend-space weights are not
 * pose ops: their own slots (internal.h). */
const pb_aux_table PB_AUX_TABLE = { k_skin_lbs, k_skin_dqs, { k_mm_search, k_mm_search_aabb },
                                    { k_bspace_1d, k_bspace_bary, k_bspace_gradient, k_bspace_polar },
                                    { k_blend_n_fast, k_blend_n_accurate } };
