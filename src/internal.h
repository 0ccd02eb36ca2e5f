/* internal.h — what the library's own sources share and users do not see:
 * error reporting, the kernel argument block, and the variant table entry. */
#ifndef POSEBENCH_INTERNAL_H
#define POSEBENCH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "posebench/posebench.h"

#if defined(__GNUC__)
#define PB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PB_PRINTF(f, a)
#endif

/* Record a formatted message for pb_last_error() and return s. */
pb_status pb_fail(pb_status s, const char *fmt, ...) PB_PRINTF(2, 3);

/* Kernel argument block, one definition per element type so the reference can
 * be compiled as float (reference / scalar baseline) and double (oracle).
 * n is the element count, n_padded the count rounded up to PB_PAD: SoA
 * kernels process n_padded lanes (padding is identity, so that is safe); AoS
 * sides hold exactly n elements. aos_* are interleaved arrays in the order
 * pos, rot, scl, vel, ang, svl (3, 4, 3, 3, 3, 3 values per element). */
#define PB_AOS_ARRAYS 6
#define PB_DEFINE_KARGS(T, NAME)               \
    typedef struct NAME {                      \
        size_t n, n_padded;                    \
        const T *a[PB_PLANES];                 \
        const T *b[PB_PLANES];                 \
        T *out[PB_PLANES];                     \
        const T *aos_in[PB_AOS_ARRAYS];        \
        T *aos_out[PB_AOS_ARRAYS];             \
        const pb_skeleton *skel;               \
        pb_params p;                           \
    } NAME;
PB_DEFINE_KARGS(float, pb_kargs)
PB_DEFINE_KARGS(double, pb_kargs_f64)

typedef void (*pb_kernel_fn)(const pb_kargs *k);
typedef void (*pb_kernel_f64_fn)(const pb_kargs_f64 *k);

/* Components per AoS array and the first pose plane each maps to. */
extern const int pb_aos_width[PB_AOS_ARRAYS];
extern const int pb_aos_plane[PB_AOS_ARRAYS];

/* Kernel tables: one per build of an ISA source, plus the float and double
 * reference. Declared here, defined by kernels/ and reference/. */
#define PB_DECLARE_TABLE(sym) extern const pb_kernel_fn sym[PB_OP_COUNT];
PB_DECLARE_TABLE(pb_ref_table)
extern const pb_kernel_f64_fn pb_ref_f64_table[PB_OP_COUNT];

/* A row of the variant table. */
struct pb_variant {
    const char *name;       /* "avx2", "avx2-emu" */
    const char *isa;        /* "avx2" */
    pb_mode mode;
    uint32_t features;      /* PB_CPU_* needed to run it */
    int lanes;
    const pb_kernel_fn *table;  /* NULL when this build does not contain it */
};

/* Fill k from a validated call (planes, counts, params). */
void pb_kargs_from_call(pb_kargs *k, const pb_call *c);

#endif
