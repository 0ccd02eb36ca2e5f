/* backend_avx512.h — the pb_vf vocabulary on 16-lane AVX-512F, via SIMDe.
 * Masks are k-registers (simde__mmask16, a plain integer). SIMDe 0.7.4 has no
 * rcp14/rsqrt14 and no float<->int conversions here, so the estimates are
 * exact divisions and vmath.h's bit tricks avoid conversions altogether. */
#include <simde/x86/avx512.h>

#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define PB_BINLINE static inline __attribute__((always_inline))   /* as PB_VINLINE in vmath.h */
#else
#define PB_BINLINE static inline
#endif

#define PB_LANES 16
typedef simde__m512 pb_vf;
typedef simde__mmask16 pb_vm;
typedef simde__m512i pb_vi;
typedef simde__m512i pb_vidx;

PB_BINLINE pb_vf vload(const float *p) { return simde_mm512_load_ps(p); }
PB_BINLINE pb_vf vloadu(const float *p) { return simde_mm512_loadu_ps(p); }
/* PB_LANES floats in runs of at most 8: p[0..7], then p[next..] (the
 * motion-matching boxes, blocks of PB_MM_BOX_RUN); aligned. */
PB_BINLINE pb_vf vload_runs8(const float *p, size_t next)
{
    return simde_mm512_insertf32x8(simde_mm512_castps256_ps512(simde_mm256_load_ps(p)), simde_mm256_load_ps(p + next), 1);
}
PB_BINLINE void vstore(float *p, pb_vf v) { simde_mm512_store_ps(p, v); }
PB_BINLINE void vstoreu(float *p, pb_vf v) { simde_mm512_storeu_ps(p, v); }
/* A store that bypasses the caches (aligned p: a whole 64-byte line), for
 * outputs too large to stay in them (kernel_body.h, FOR_VECTORS_STORE);
 * vstore_nt_fence orders them before the kernel returns. SIMDe 0.7.4 has no
 * 512-bit stream, so only the native build has them. */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define PB_STREAM_STORES 1
PB_BINLINE void vstore_nt(float *p, pb_vf v) { _mm512_stream_ps(p, v); }
PB_BINLINE void vstore_nt_fence(void) { simde_mm_sfence(); }
#endif
/* The first cnt (< PB_LANES) lanes loaded (the rest fill) or stored by a
 * masked move, touching nothing past them (a masked lane never faults). The
 * generic way, through a buffer and memcpy, became `rep movsq`, which costs
 * tens of cycles per call on Zen 4. SIMDe 0.7.4 has no masked 512-bit loads
 * or stores, so only the native build has them (vmath.h's vload_n, vstore_n). */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define PB_PARTIAL_MASKED 1
PB_BINLINE pb_vf vload_part(const float *p, size_t cnt, float fill)
{
    return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), (__mmask16)((1u << cnt) - 1u), p);
}
PB_BINLINE void vstore_part(float *p, size_t cnt, pb_vf v) { _mm512_mask_storeu_ps(p, (__mmask16)((1u << cnt) - 1u), v); }
#endif
PB_BINLINE pb_vf vset1(float x) { return simde_mm512_set1_ps(x); }
PB_BINLINE pb_vf vadd(pb_vf a, pb_vf b) { return simde_mm512_add_ps(a, b); }
PB_BINLINE pb_vf vsub(pb_vf a, pb_vf b) { return simde_mm512_sub_ps(a, b); }
PB_BINLINE pb_vf vmul(pb_vf a, pb_vf b) { return simde_mm512_mul_ps(a, b); }
PB_BINLINE pb_vf vdiv(pb_vf a, pb_vf b) { return simde_mm512_div_ps(a, b); }
/* Fused natively; SIMDe's emulation rounds twice (see vmath.h, PB_FMA_EXACT). */
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define PB_FMA_EXACT 1
#endif
PB_BINLINE pb_vf vfma(pb_vf a, pb_vf b, pb_vf c) { return simde_mm512_fmadd_ps(a, b, c); }
PB_BINLINE pb_vf vfnma(pb_vf a, pb_vf b, pb_vf c) { return simde_mm512_fnmadd_ps(a, b, c); }
PB_BINLINE pb_vf vmin(pb_vf a, pb_vf b) { return simde_mm512_min_ps(a, b); }
PB_BINLINE pb_vf vmax(pb_vf a, pb_vf b) { return simde_mm512_max_ps(a, b); }
PB_BINLINE pb_vf vabs(pb_vf a) { return simde_mm512_abs_ps(a); }
PB_BINLINE pb_vf vsqrt(pb_vf a) { return simde_mm512_sqrt_ps(a); }
PB_BINLINE pb_vf vrcp_est(pb_vf a) { return simde_mm512_div_ps(simde_mm512_set1_ps(1.0f), a); }
PB_BINLINE pb_vf vrsqrt_est(pb_vf a) { return simde_mm512_div_ps(simde_mm512_set1_ps(1.0f), simde_mm512_sqrt_ps(a)); }
/* No SIMDE_MM_FROUND_NO_EXC here: SIMDe 0.7.4's portable roundscale reads that
 * bit (0x08) as part of the scale field and rounds to multiples of 0.5
 * (floor(3.7) = 3.5); on hardware the bit only silences the inexact flag. */
PB_BINLINE pb_vf vround(pb_vf a) { return simde_mm512_roundscale_ps(a, SIMDE_MM_FROUND_TO_NEAREST_INT); }
PB_BINLINE pb_vf vfloor(pb_vf a) { return simde_mm512_roundscale_ps(a, SIMDE_MM_FROUND_TO_NEG_INF); }

PB_BINLINE pb_vm vlt(pb_vf a, pb_vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ); }
PB_BINLINE pb_vm vle(pb_vf a, pb_vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ); }
PB_BINLINE pb_vm veq(pb_vf a, pb_vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_EQ_OQ); }
PB_BINLINE pb_vm mand(pb_vm a, pb_vm b) { return (pb_vm)(a & b); }
PB_BINLINE pb_vm mor(pb_vm a, pb_vm b) { return (pb_vm)(a | b); }
PB_BINLINE pb_vm mnot(pb_vm a) { return (pb_vm)~a; }
PB_BINLINE int many(pb_vm m) { return m != 0; }   /* any lane set */
PB_BINLINE unsigned mbits(pb_vm m) { return m; }   /* lane i set: bit i */
PB_BINLINE pb_vf vsel(pb_vm m, pb_vf a, pb_vf b) { return simde_mm512_mask_blend_ps(m, b, a); }

PB_BINLINE pb_vi vasint(pb_vf a) { return simde_mm512_castps_si512(a); }
PB_BINLINE pb_vf vasfloat(pb_vi a) { return simde_mm512_castsi512_ps(a); }
PB_BINLINE pb_vi vi_set1(int32_t x) { return simde_mm512_set1_epi32(x); }
PB_BINLINE pb_vi vi_add(pb_vi a, pb_vi b) { return simde_mm512_add_epi32(a, b); }
PB_BINLINE pb_vi vi_sub(pb_vi a, pb_vi b) { return simde_mm512_sub_epi32(a, b); }
PB_BINLINE pb_vi vi_and(pb_vi a, pb_vi b) { return simde_mm512_and_si512(a, b); }
PB_BINLINE pb_vi vi_or(pb_vi a, pb_vi b) { return simde_mm512_or_si512(a, b); }
PB_BINLINE pb_vi vi_xor(pb_vi a, pb_vi b) { return simde_mm512_xor_si512(a, b); }
#define vi_slli(a, n) simde_mm512_slli_epi32((a), (n))
#define vi_srli(a, n) simde_mm512_srli_epi32((a), (n))

PB_BINLINE pb_vidx vidx_make(const int32_t idx[PB_LANES]) { return simde_mm512_loadu_si512((const void *)idx); }
PB_BINLINE pb_vf vpermute(pb_vf v, pb_vidx idx) { return simde_mm512_permutexvar_ps(idx, v); }

PB_BINLINE pb_vi vi_load(const int32_t *p) { return simde_mm512_loadu_si512((const void *)p); }
PB_BINLINE pb_vm vi_eq(pb_vi a, pb_vi b) { return simde_mm512_cmpeq_epi32_mask(a, b); }
/* Table look-ups in registers (the skinning palettes of up to 64 joints):
 * lane l of vlut32 / vlut64 = t[i[l]], t a 64-byte-aligned table of
 * PB_LUT_MAX floats and 0 <= i[l] < 32 / 64. One two-table permute reads 32
 * entries; vlut64 does two and picks by bit 5 of the index, held in the
 * pb_vlut once per index vector. The narrower backends have no such table
 * (PB_LUT_MAX undefined): their kernels gather. */
#define PB_LUT_MAX 64
typedef struct { pb_vi i; pb_vm hi; } pb_vlut;
PB_BINLINE pb_vlut vlut_index(const uint32_t *idx)
{
    pb_vlut x;
    x.i = simde_mm512_loadu_si512((const void *)idx);
    x.hi = simde_mm512_test_epi32_mask(x.i, simde_mm512_set1_epi32(32));
    return x;
}
PB_BINLINE pb_vf vlut32(const float *t, pb_vlut x)
{
    return simde_mm512_permutex2var_ps(simde_mm512_load_ps(t), x.i, simde_mm512_load_ps(t + 16));
}
PB_BINLINE pb_vf vlut64(const float *t, pb_vlut x)
{
    return simde_mm512_mask_blend_ps(x.hi, vlut32(t, x), vlut32(t + 32, x));
}
/* SIMDe 0.7.4 has no _mm512_i32gather_ps: two 8-lane gathers, joined. */
PB_BINLINE pb_vf vgather(const float *base, const int32_t *idx)
{
    simde__m256 lo = simde_mm256_i32gather_ps(base, simde_mm256_loadu_si256((const void *)idx), 4);
    simde__m256 hi = simde_mm256_i32gather_ps(base, simde_mm256_loadu_si256((const void *)(idx + 8)), 4);
    return simde_mm512_insertf32x8(simde_mm512_castps256_ps512(lo), hi, 1);
}

/* In-place transpose of PB_LANES rows (v[r] lane c -> v[c] lane r): a 4x4
 * transpose inside each 128-bit quarter (unpack ps, then pd), after which
 * u[4g+e] quarter k holds column 4k+e of rows 4g..4g+3; a 4x4 transpose of
 * quarters among u[e], u[4+e], u[8+e], u[12+e] (two rounds of
 * shuffle_f32x4) finishes it. 64 shuffles. */
PB_BINLINE void vtranspose(pb_vf v[PB_LANES])
{
    pb_vf u[PB_LANES];
    for (int g = 0; g < PB_LANES; g += 4) {
        simde__m512d t0 = simde_mm512_castps_pd(simde_mm512_unpacklo_ps(v[g], v[g + 1]));
        simde__m512d t1 = simde_mm512_castps_pd(simde_mm512_unpackhi_ps(v[g], v[g + 1]));
        simde__m512d t2 = simde_mm512_castps_pd(simde_mm512_unpacklo_ps(v[g + 2], v[g + 3]));
        simde__m512d t3 = simde_mm512_castps_pd(simde_mm512_unpackhi_ps(v[g + 2], v[g + 3]));
        u[g] = simde_mm512_castpd_ps(simde_mm512_unpacklo_pd(t0, t2));
        u[g + 1] = simde_mm512_castpd_ps(simde_mm512_unpackhi_pd(t0, t2));
        u[g + 2] = simde_mm512_castpd_ps(simde_mm512_unpacklo_pd(t1, t3));
        u[g + 3] = simde_mm512_castpd_ps(simde_mm512_unpackhi_pd(t1, t3));
    }
    for (int e = 0; e < 4; e++) {
        pb_vf a = simde_mm512_shuffle_f32x4(u[e], u[4 + e], 0x44), b = simde_mm512_shuffle_f32x4(u[e], u[4 + e], 0xEE);
        pb_vf c = simde_mm512_shuffle_f32x4(u[8 + e], u[12 + e], 0x44), d = simde_mm512_shuffle_f32x4(u[8 + e], u[12 + e], 0xEE);
        v[e] = simde_mm512_shuffle_f32x4(a, c, 0x88);
        v[4 + e] = simde_mm512_shuffle_f32x4(a, c, 0xDD);
        v[8 + e] = simde_mm512_shuffle_f32x4(b, d, 0x88);
        v[12 + e] = simde_mm512_shuffle_f32x4(b, d, 0xDD);
    }
}

/* AoS stores of 4-float rows (the skinning palettes): each 4-lane block of
 * v[0..3] transposed as a 4x4 matrix (block m of v[j] <- lane 4m + j of v[0],
 * v[1], v[2], v[3]), and block m of v stored (4 floats, unaligned). */
PB_BINLINE void vtranspose4_blocks(pb_vf v[4])
{
    simde__m512d t0 = simde_mm512_castps_pd(simde_mm512_unpacklo_ps(v[0], v[1]));
    simde__m512d t1 = simde_mm512_castps_pd(simde_mm512_unpackhi_ps(v[0], v[1]));
    simde__m512d t2 = simde_mm512_castps_pd(simde_mm512_unpacklo_ps(v[2], v[3]));
    simde__m512d t3 = simde_mm512_castps_pd(simde_mm512_unpackhi_ps(v[2], v[3]));
    v[0] = simde_mm512_castpd_ps(simde_mm512_unpacklo_pd(t0, t2));
    v[1] = simde_mm512_castpd_ps(simde_mm512_unpackhi_pd(t0, t2));
    v[2] = simde_mm512_castpd_ps(simde_mm512_unpacklo_pd(t1, t3));
    v[3] = simde_mm512_castpd_ps(simde_mm512_unpackhi_pd(t1, t3));
}
PB_BINLINE void vstore_block4(float *p, pb_vf v, int m)
{
    switch (m) {   /* the block is an immediate of the extract */
    case 0: simde_mm_storeu_ps(p, simde_mm512_castps512_ps128(v)); break;
    case 1: simde_mm_storeu_ps(p, simde_mm512_extractf32x4_ps(v, 1)); break;
    case 2: simde_mm_storeu_ps(p, simde_mm512_extractf32x4_ps(v, 2)); break;
    default: simde_mm_storeu_ps(p, simde_mm512_extractf32x4_ps(v, 3)); break;
    }
}

/* Records of 4 floats (the skinning palettes' rows) at base + off[l], one
 * per lane, as 4 SoA vectors: v[c] lane l = base[off[l] + c]. Lanes q,
 * 4 + q, 8 + q and 12 + q's records loaded into the four 128-bit blocks of
 * v[q], then the in-block 4x4 transposes (see backend_avx2.h). */
PB_BINLINE void vgather4(const float *base, const int32_t *off, pb_vf v[4])
{
    for (int q = 0; q < 4; q++) {
        simde__m512 x = simde_mm512_castps128_ps512(simde_mm_loadu_ps(base + off[q]));
        x = simde_mm512_insertf32x4(x, simde_mm_loadu_ps(base + off[4 + q]), 1);
        x = simde_mm512_insertf32x4(x, simde_mm_loadu_ps(base + off[8 + q]), 2);
        v[q] = simde_mm512_insertf32x4(x, simde_mm_loadu_ps(base + off[12 + q]), 3);
    }
    vtranspose4_blocks(v);
}
