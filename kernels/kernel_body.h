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
 * (PB_STREAM_STORES) cache-bypassing ones, a whole 64-byte line of each plane
 * at a time: the body runs for the PB_LINE_VECS vectors of a line (j: which),
 * then each plane's line is written. Measured on AMD Zen 4 (bench --op
 * masked, blend_static, 1 M joints, ns per joint): AVX-512 4.4-4.6 against
 * 5.5-5.7 with plain stores; AVX2 13-14 streaming a vector at a time (ten
 * planes' lines open at once), 6.0-6.4 a line at a time, 6.4-6.7 plain;
 * SSE4.1 a line at a time 11.6-11.9 against 9.6 plain, so its backend has none. */
#define PB_LINE_VECS (16 / PB_LANES)
#if defined(PB_STREAM_STORES)
#define PB_STREAM_BRANCH(k, G, c0, np, PRE, ...)                                                \
    if ((G) * PB_LANES == 16 && (k)->stream) {                                                  \
        for (size_t i_g = 0; i_g < (k)->n_padded; i_g += (size_t)(G) * PB_LANES) {               \
            pb_vf og_[G][np];                                                                   \
            { const size_t i = i_g; (void)i; PRE; }                                             \
            for (int j = 0; j < (G); j++) {                                                     \
                const size_t i = i_g + (size_t)j * PB_LANES;                                    \
                pb_vf *const o = og_[j];                                                        \
                __VA_ARGS__                                                                     \
            }                                                                                   \
            for (int c_ = 0; c_ < (np); c_++)                                                   \
                for (int j_ = 0; j_ < (G); j_++)                                                \
                    vstore_nt((k)->out[(c0) + c_] + i_g + (size_t)j_ * PB_LANES, og_[j_][c_]);  \
        }                                                                                       \
        vstore_nt_fence();                                                                      \
    } else
#else
#define PB_STREAM_BRANCH(k, G, c0, np, PRE, ...)
#endif
#define PB_PLAIN_LOOP(k, G, c0, np, PRE, ...)                                                   \
    for (size_t i_g = 0; i_g < (k)->n_padded; i_g += (size_t)(G) * PB_LANES) {                  \
        { const size_t i = i_g; (void)i; PRE; }                                                 \
        for (int j = 0; j < (G); j++) {                                                         \
            const size_t i = i_g + (size_t)j * PB_LANES;                                        \
            pb_vf o[np];                                                                        \
            __VA_ARGS__                                                                         \
            for (int c_ = 0; c_ < (np); c_++) vstore((k)->out[(c0) + c_] + i, o[c_]);            \
        }                                                                                       \
    }
#define FOR_VECTORS_STORE(k, c0, np, ...)                                                       \
    do {                                                                                        \
        PB_STREAM_BRANCH(k, PB_LINE_VECS, c0, np, (void)0, __VA_ARGS__)                         \
        PB_PLAIN_LOOP(k, 1, c0, np, (void)0, __VA_ARGS__)                                       \
    } while (0)
/* The same over groups of G vectors for bodies that interleave independent
 * vectors (a long dependency chain per vector, e.g. a slerp's sqrt -> atan2
 * -> sincos -> division, that the core alone does not overlap): PRE, an
 * expression, runs once per group with i its first element (e.g. the
 * rotations of all G vectors, step by step), then the body per vector as
 * above. n_padded must be a multiple of G vectors: G * PB_LANES <= PB_PAD.
 * Streams only where a group is a line. */
#define FOR_GROUPS_STORE(k, G, c0, np, PRE, ...)                                                \
    do {                                                                                        \
        PB_STREAM_BRANCH(k, G, c0, np, PRE, __VA_ARGS__)                                        \
        PB_PLAIN_LOOP(k, G, c0, np, PRE, __VA_ARGS__)                                           \
    } while (0)
/* Vectors per group for those bodies: two on the 4- and 8-lane backends,
 * one on AVX-512, whose 32 registers and 16 lanes keep enough in flight
 * (blend_static in cache, Zen 4, ns per joint: AVX2 3.8 -> 3.5, SSE4.1 8.1
 * -> 7.2, AVX-512 2.8 -> 2.9 with two). */
#define PB_ILP (PB_LANES <= 8 ? 2 : 1)

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
#include "dead.h"   /* uses transition.h's blend */
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
