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

/* FOR_VECTORS whose body (the variadic argument) sets o[0 .. np) for the
 * vector at i, stored to the output planes c0 .. c0 + np - 1: plain stores,
 * or with k->stream (pb_stream_bytes) where the backend has them
 * (PB_STREAM_STORES: AVX-512, a vector per 64-byte line) cache-bypassing
 * ones. Narrower vectors write a line in parts, flushed in parts with ten
 * planes streaming at once; measured on AMD Zen 4 (bench --op masked,
 * blend_static, 1 M joints, ns per joint): AVX2 13-14 streaming a vector at
 * a time, 6.0-6.4 (SSE4.1 11.6-11.9) storing a line's vectors together,
 * against 6.4-6.7 (9.6) with plain stores; AVX-512 4.4-4.6 against 5.5-5.7. */
#if defined(PB_STREAM_STORES)
#define PB_STREAM_BRANCH(k, c0, np, ...)                                                      \
    if ((k)->stream) {                                                                     \
        FOR_VECTORS(k) {                                                                   \
            pb_vf o[np];                                                                   \
            __VA_ARGS__                                                                    \
            for (int c_ = 0; c_ < (np); c_++) vstore_nt((k)->out[(c0) + c_] + i, o[c_]);    \
        }                                                                                  \
        vstore_nt_fence();                                                                 \
    } else
#else
#define PB_STREAM_BRANCH(k, c0, np, ...)
#endif
#define FOR_VECTORS_STORE(k, c0, np, ...)                                                  \
    do {                                                                                   \
        PB_STREAM_BRANCH(k, c0, np, __VA_ARGS__)                                           \
        FOR_VECTORS(k) {                                                                   \
            pb_vf o[np];                                                                   \
            __VA_ARGS__                                                                    \
            for (int c_ = 0; c_ < (np); c_++) vstore((k)->out[(c0) + c_] + i, o[c_]);       \
        }                                                                                  \
    } while (0)

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
