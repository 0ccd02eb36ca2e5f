/* backend_avx2.h — the pb_vf vocabulary on 8-lane AVX2 with FMA, via SIMDe. */
#include <simde/x86/avx2.h>
#include <simde/x86/fma.h>

#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define PB_BINLINE static inline __attribute__((always_inline))   /* as PB_VINLINE in vmath.h */
#else
#define PB_BINLINE static inline
#endif

#define PB_LANES 8
typedef simde__m256 pb_vf;
typedef simde__m256 pb_vm;
typedef simde__m256i pb_vi;
typedef simde__m256i pb_vidx;

PB_BINLINE pb_vf vload(const float *p) { return simde_mm256_load_ps(p); }
PB_BINLINE pb_vf vloadu(const float *p) { return simde_mm256_loadu_ps(p); }
/* PB_LANES floats in runs of at most 8: p[0..7], then p[next..] (the
 * motion-matching boxes, blocks of PB_MM_BOX_RUN); aligned. */
PB_BINLINE pb_vf vload_runs8(const float *p, size_t next) { (void)next; return vload(p); }
PB_BINLINE void vstore(float *p, pb_vf v) { simde_mm256_store_ps(p, v); }
PB_BINLINE void vstoreu(float *p, pb_vf v) { simde_mm256_storeu_ps(p, v); }
/* Cache-bypassing stores (aligned p), two to a 64-byte line: kernel_body.h
 * writes a line's two together (FOR_VECTORS_STORE). Native build only, as
 * AVX-512's. */
#if defined(SIMDE_X86_AVX_NATIVE)
#define PB_STREAM_STORES 1
PB_BINLINE void vstore_nt(float *p, pb_vf v) { _mm256_stream_ps(p, v); }
PB_BINLINE void vstore_nt_fence(void) { simde_mm_sfence(); }
#endif
/* The first cnt (< PB_LANES) lanes loaded (the rest fill) or stored by
 * vmaskmovps, touching nothing past them (as AVX-512's; vmath.h). Native
 * only: SIMDe's portable maskload reads all 8 lanes. */
#if defined(SIMDE_X86_AVX_NATIVE)
#define PB_PARTIAL_MASKED 1
PB_BINLINE simde__m256i vpart_mask(size_t cnt)
{
    return simde_mm256_cmpgt_epi32(simde_mm256_set1_epi32((int)cnt), simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
PB_BINLINE pb_vf vload_part(const float *p, size_t cnt, float fill)
{
    simde__m256i m = vpart_mask(cnt);
    return simde_mm256_blendv_ps(simde_mm256_set1_ps(fill), simde_mm256_maskload_ps(p, m), simde_mm256_castsi256_ps(m));
}
PB_BINLINE void vstore_part(float *p, size_t cnt, pb_vf v) { simde_mm256_maskstore_ps(p, vpart_mask(cnt), v); }
#endif
PB_BINLINE pb_vf vset1(float x) { return simde_mm256_set1_ps(x); }
PB_BINLINE pb_vf vadd(pb_vf a, pb_vf b) { return simde_mm256_add_ps(a, b); }
PB_BINLINE pb_vf vsub(pb_vf a, pb_vf b) { return simde_mm256_sub_ps(a, b); }
PB_BINLINE pb_vf vmul(pb_vf a, pb_vf b) { return simde_mm256_mul_ps(a, b); }
PB_BINLINE pb_vf vdiv(pb_vf a, pb_vf b) { return simde_mm256_div_ps(a, b); }
/* a*b + c, fused (one rounding) where the ISA has FMA; SIMDe's emulation rounds
 * twice, so vmath.h's exact-product helpers only trust it natively. */
#if defined(SIMDE_X86_FMA_NATIVE)
#define PB_FMA_EXACT 1
#endif
PB_BINLINE pb_vf vfma(pb_vf a, pb_vf b, pb_vf c) { return simde_mm256_fmadd_ps(a, b, c); }
PB_BINLINE pb_vf vfnma(pb_vf a, pb_vf b, pb_vf c) { return simde_mm256_fnmadd_ps(a, b, c); }
PB_BINLINE pb_vf vmin(pb_vf a, pb_vf b) { return simde_mm256_min_ps(a, b); }
PB_BINLINE pb_vf vmax(pb_vf a, pb_vf b) { return simde_mm256_max_ps(a, b); }
PB_BINLINE pb_vf vabs(pb_vf a) { return simde_mm256_andnot_ps(simde_mm256_set1_ps(-0.0f), a); }
PB_BINLINE pb_vf vsqrt(pb_vf a) { return simde_mm256_sqrt_ps(a); }
PB_BINLINE pb_vf vrcp_est(pb_vf a) { return simde_mm256_rcp_ps(a); }
PB_BINLINE pb_vf vrsqrt_est(pb_vf a) { return simde_mm256_rsqrt_ps(a); }
PB_BINLINE pb_vf vround(pb_vf a) { return simde_mm256_round_ps(a, SIMDE_MM_FROUND_TO_NEAREST_INT | SIMDE_MM_FROUND_NO_EXC); }
PB_BINLINE pb_vf vfloor(pb_vf a) { return simde_mm256_floor_ps(a); }

PB_BINLINE pb_vm vlt(pb_vf a, pb_vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
PB_BINLINE pb_vm vle(pb_vf a, pb_vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
PB_BINLINE pb_vm veq(pb_vf a, pb_vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ); }
PB_BINLINE pb_vm mand(pb_vm a, pb_vm b) { return simde_mm256_and_ps(a, b); }
PB_BINLINE pb_vm mor(pb_vm a, pb_vm b) { return simde_mm256_or_ps(a, b); }
PB_BINLINE pb_vm mnot(pb_vm a) { return simde_mm256_xor_ps(a, simde_mm256_castsi256_ps(simde_mm256_set1_epi32(-1))); }
PB_BINLINE int many(pb_vm m) { return simde_mm256_movemask_ps(m) != 0; }   /* any lane set */
PB_BINLINE unsigned mbits(pb_vm m) { return (unsigned)simde_mm256_movemask_ps(m); }   /* lane i set: bit i */
PB_BINLINE pb_vf vsel(pb_vm m, pb_vf a, pb_vf b) { return simde_mm256_blendv_ps(b, a, m); }

PB_BINLINE pb_vi vasint(pb_vf a) { return simde_mm256_castps_si256(a); }
PB_BINLINE pb_vf vasfloat(pb_vi a) { return simde_mm256_castsi256_ps(a); }
PB_BINLINE pb_vi vi_set1(int32_t x) { return simde_mm256_set1_epi32(x); }
PB_BINLINE pb_vi vi_add(pb_vi a, pb_vi b) { return simde_mm256_add_epi32(a, b); }
PB_BINLINE pb_vi vi_sub(pb_vi a, pb_vi b) { return simde_mm256_sub_epi32(a, b); }
PB_BINLINE pb_vi vi_and(pb_vi a, pb_vi b) { return simde_mm256_and_si256(a, b); }
PB_BINLINE pb_vi vi_or(pb_vi a, pb_vi b) { return simde_mm256_or_si256(a, b); }
PB_BINLINE pb_vi vi_xor(pb_vi a, pb_vi b) { return simde_mm256_xor_si256(a, b); }
#define vi_slli(a, n) simde_mm256_slli_epi32((a), (n))
#define vi_srli(a, n) simde_mm256_srli_epi32((a), (n))

PB_BINLINE pb_vidx vidx_make(const int32_t idx[PB_LANES]) { return simde_mm256_loadu_si256((const void *)idx); }
PB_BINLINE pb_vf vpermute(pb_vf v, pb_vidx idx) { return simde_mm256_permutevar8x32_ps(v, idx); }

PB_BINLINE pb_vi vi_load(const int32_t *p) { return simde_mm256_loadu_si256((const void *)p); }
PB_BINLINE pb_vm vi_eq(pb_vi a, pb_vi b) { return simde_mm256_castsi256_ps(simde_mm256_cmpeq_epi32(a, b)); }
PB_BINLINE pb_vf vgather(const float *base, const int32_t *idx)
{
    return simde_mm256_i32gather_ps(base, vi_load(idx), 4);
}

/* In-place transpose of PB_LANES rows (v[r] lane c -> v[c] lane r): a 4x4
 * transpose inside each 128-bit half (unpack ps, then pd), after which
 * u[4g+e] half k holds column 4k+e of rows 4g..4g+3; swapping halves
 * between u[e] and u[4+e] finishes it. 24 shuffles. */
PB_BINLINE void vtranspose(pb_vf v[PB_LANES])
{
    pb_vf u[PB_LANES];
    for (int g = 0; g < PB_LANES; g += 4) {
        simde__m256d t0 = simde_mm256_castps_pd(simde_mm256_unpacklo_ps(v[g], v[g + 1]));
        simde__m256d t1 = simde_mm256_castps_pd(simde_mm256_unpackhi_ps(v[g], v[g + 1]));
        simde__m256d t2 = simde_mm256_castps_pd(simde_mm256_unpacklo_ps(v[g + 2], v[g + 3]));
        simde__m256d t3 = simde_mm256_castps_pd(simde_mm256_unpackhi_ps(v[g + 2], v[g + 3]));
        u[g] = simde_mm256_castpd_ps(simde_mm256_unpacklo_pd(t0, t2));
        u[g + 1] = simde_mm256_castpd_ps(simde_mm256_unpackhi_pd(t0, t2));
        u[g + 2] = simde_mm256_castpd_ps(simde_mm256_unpacklo_pd(t1, t3));
        u[g + 3] = simde_mm256_castpd_ps(simde_mm256_unpackhi_pd(t1, t3));
    }
    for (int e = 0; e < 4; e++) {
        v[e] = simde_mm256_permute2f128_ps(u[e], u[4 + e], 0x20);
        v[4 + e] = simde_mm256_permute2f128_ps(u[e], u[4 + e], 0x31);
    }
}

/* AoS stores of 4-float rows (the skinning palettes): each 4-lane block of
 * v[0..3] transposed as a 4x4 matrix (block m of v[j] <- lane 4m + j of v[0],
 * v[1], v[2], v[3]), and block m of v stored (4 floats, unaligned). */
PB_BINLINE void vtranspose4_blocks(pb_vf v[4])
{
    simde__m256d t0 = simde_mm256_castps_pd(simde_mm256_unpacklo_ps(v[0], v[1]));
    simde__m256d t1 = simde_mm256_castps_pd(simde_mm256_unpackhi_ps(v[0], v[1]));
    simde__m256d t2 = simde_mm256_castps_pd(simde_mm256_unpacklo_ps(v[2], v[3]));
    simde__m256d t3 = simde_mm256_castps_pd(simde_mm256_unpackhi_ps(v[2], v[3]));
    v[0] = simde_mm256_castpd_ps(simde_mm256_unpacklo_pd(t0, t2));
    v[1] = simde_mm256_castpd_ps(simde_mm256_unpackhi_pd(t0, t2));
    v[2] = simde_mm256_castpd_ps(simde_mm256_unpacklo_pd(t1, t3));
    v[3] = simde_mm256_castpd_ps(simde_mm256_unpackhi_pd(t1, t3));
}
PB_BINLINE void vstore_block4(float *p, pb_vf v, int m)
{
    simde_mm_storeu_ps(p, m ? simde_mm256_extractf128_ps(v, 1) : simde_mm256_castps256_ps128(v));
}

/* Records of 4 floats (the skinning palettes' rows) at base + off[l], one
 * per lane, as 4 SoA vectors: v[c] lane l = base[off[l] + c]. Lanes q and
 * 4 + q's records loaded into the two halves of v[q], then the in-block 4x4
 * transposes: 8 loads and 8 shuffles where hardware gathers would load 32
 * floats one by one (measured on AMD Zen 4: gathers made skinning ~3x slower). */
PB_BINLINE void vgather4(const float *base, const int32_t *off, pb_vf v[4])
{
    for (int q = 0; q < 4; q++)
        v[q] = simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(base + off[q])),
                                         simde_mm_loadu_ps(base + off[4 + q]), 1);
    vtranspose4_blocks(v);
}

/* LBS's blended matrices record by record (skin.h): lane l's sum over
 * influences j < nin of w[j][l] x the 12-float record at pal + idx[j][l] x
 * stride, as 12 SoA vectors (m[c] lane l: component c). Each record is one
 * 256-bit load (rows 0 and 1) and one 128-bit load (row 2) scaled by lane
 * l's weight, the first influence multiplied and the others fused in
 * influence order, as the gathered form's vmul / vfma: the same bits. The
 * eight lanes' sums are transposed once (20 shuffles a step, where gathering
 * every influence's rows into SoA costs 144: vgather4). Loads bound AVX2
 * skinning on Zen 4 (about one a cycle, 256 or 128 bits, measured), so the
 * indices and weights are read as vectors (the record offsets through the
 * stack, the weights spread by permutes) rather than lane by lane: 8 fewer
 * loads a vertex. */
#define PB_SKIN_BLEND_AOS 1
PB_BINLINE void vskin_blend12(const float *pal, int32_t stride, const uint32_t *const *idx, const float *const *w,
                              int nin, pb_vf m[12])
{
    simde__m256 a[8], wv[4];   /* PB_SKIN_MAX_INFLUENCES (skin.h checks) */
    simde__m128 b[8];
    _Alignas(32) int32_t off[4][8];
    for (int j = 0; j < 4; j++) {   /* past nin: zeros, never read (set for the compiler's sake) */
        simde__m256i iv = j < nin ? simde_mm256_loadu_si256((const void *)idx[j]) : simde_mm256_setzero_si256();
        simde_mm256_store_si256((void *)off[j], simde_mm256_mullo_epi32(iv, simde_mm256_set1_epi32(stride)));
        wv[j] = j < nin ? simde_mm256_loadu_ps(w[j]) : simde_mm256_setzero_ps();
    }
    for (int l = 0; l < 8; l++) {
        const simde__m256i lane = simde_mm256_set1_epi32(l);
        const float *e = pal + (uint32_t)off[0][l];
        simde__m256 wl = simde_mm256_permutevar8x32_ps(wv[0], lane);
        a[l] = simde_mm256_mul_ps(wl, simde_mm256_loadu_ps(e));
        b[l] = simde_mm_mul_ps(simde_mm256_castps256_ps128(wl), simde_mm_loadu_ps(e + 8));
        for (int j = 1; j < nin; j++) {
            e = pal + (uint32_t)off[j][l];
            wl = simde_mm256_permutevar8x32_ps(wv[j], lane);
            a[l] = simde_mm256_fmadd_ps(wl, simde_mm256_loadu_ps(e), a[l]);
            b[l] = simde_mm_fmadd_ps(simde_mm256_castps256_ps128(wl), simde_mm_loadu_ps(e + 8), b[l]);
        }
    }
    for (int q = 0; q < 4; q++) {   /* block 0 lane q's row, block 1 lane 4 + q's: vgather4's layout */
        m[q] = simde_mm256_permute2f128_ps(a[q], a[4 + q], 0x20);
        m[4 + q] = simde_mm256_permute2f128_ps(a[q], a[4 + q], 0x31);
        m[8 + q] = simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(b[q]), b[4 + q], 1);
    }
    vtranspose4_blocks(m);
    vtranspose4_blocks(m + 4);
    vtranspose4_blocks(m + 8);
}
