/* backend_sse41.h — the pb_vf vocabulary on 4-lane SSE4.1, via SIMDe.
 * Division and square root are exact IEEE instructions here. */
#include <simde/x86/sse4.1.h>

#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define PB_BINLINE static inline __attribute__((always_inline))   /* as PB_VINLINE in vmath.h */
#else
#define PB_BINLINE static inline
#endif

#define PB_LANES 4
typedef simde__m128 pb_vf;
typedef simde__m128 pb_vm;      /* all-ones / all-zeros lanes */
typedef simde__m128i pb_vi;     /* 32-bit integer lanes, for bit tricks */
typedef simde__m128i pb_vidx;   /* byte shuffle control built by vidx_make */

PB_BINLINE pb_vf vload(const float *p) { return simde_mm_load_ps(p); }
PB_BINLINE pb_vf vloadu(const float *p) { return simde_mm_loadu_ps(p); }
/* PB_LANES floats in runs of at most 8: p[0..7], then p[next..] (the
 * motion-matching boxes, blocks of PB_MM_BOX_RUN); aligned. */
PB_BINLINE pb_vf vload_runs8(const float *p, size_t next) { (void)next; return vload(p); }
PB_BINLINE void vstore(float *p, pb_vf v) { simde_mm_store_ps(p, v); }
PB_BINLINE void vstoreu(float *p, pb_vf v) { simde_mm_storeu_ps(p, v); }
PB_BINLINE pb_vf vset1(float x) { return simde_mm_set1_ps(x); }
PB_BINLINE pb_vf vadd(pb_vf a, pb_vf b) { return simde_mm_add_ps(a, b); }
PB_BINLINE pb_vf vsub(pb_vf a, pb_vf b) { return simde_mm_sub_ps(a, b); }
PB_BINLINE pb_vf vmul(pb_vf a, pb_vf b) { return simde_mm_mul_ps(a, b); }
PB_BINLINE pb_vf vdiv(pb_vf a, pb_vf b) { return simde_mm_div_ps(a, b); }
/* a*b + c. No FMA on this ISA: two roundings. */
PB_BINLINE pb_vf vfma(pb_vf a, pb_vf b, pb_vf c) { return simde_mm_add_ps(simde_mm_mul_ps(a, b), c); }
PB_BINLINE pb_vf vfnma(pb_vf a, pb_vf b, pb_vf c) { return simde_mm_sub_ps(c, simde_mm_mul_ps(a, b)); }
PB_BINLINE pb_vf vmin(pb_vf a, pb_vf b) { return simde_mm_min_ps(a, b); }
PB_BINLINE pb_vf vmax(pb_vf a, pb_vf b) { return simde_mm_max_ps(a, b); }
PB_BINLINE pb_vf vabs(pb_vf a) { return simde_mm_andnot_ps(simde_mm_set1_ps(-0.0f), a); }
PB_BINLINE pb_vf vsqrt(pb_vf a) { return simde_mm_sqrt_ps(a); }
PB_BINLINE pb_vf vrcp_est(pb_vf a) { return simde_mm_rcp_ps(a); }
PB_BINLINE pb_vf vrsqrt_est(pb_vf a) { return simde_mm_rsqrt_ps(a); }
PB_BINLINE pb_vf vround(pb_vf a) { return simde_mm_round_ps(a, SIMDE_MM_FROUND_TO_NEAREST_INT | SIMDE_MM_FROUND_NO_EXC); }
PB_BINLINE pb_vf vfloor(pb_vf a) { return simde_mm_floor_ps(a); }

PB_BINLINE pb_vm vlt(pb_vf a, pb_vf b) { return simde_mm_cmplt_ps(a, b); }
PB_BINLINE pb_vm vle(pb_vf a, pb_vf b) { return simde_mm_cmple_ps(a, b); }
PB_BINLINE pb_vm veq(pb_vf a, pb_vf b) { return simde_mm_cmpeq_ps(a, b); }
PB_BINLINE pb_vm mand(pb_vm a, pb_vm b) { return simde_mm_and_ps(a, b); }
PB_BINLINE pb_vm mor(pb_vm a, pb_vm b) { return simde_mm_or_ps(a, b); }
PB_BINLINE pb_vm mnot(pb_vm a) { return simde_mm_xor_ps(a, simde_mm_castsi128_ps(simde_mm_set1_epi32(-1))); }
PB_BINLINE int many(pb_vm m) { return simde_mm_movemask_ps(m) != 0; }   /* any lane set */
PB_BINLINE unsigned mbits(pb_vm m) { return (unsigned)simde_mm_movemask_ps(m); }   /* lane i set: bit i */
/* m ? a : b */
PB_BINLINE pb_vf vsel(pb_vm m, pb_vf a, pb_vf b) { return simde_mm_blendv_ps(b, a, m); }

PB_BINLINE pb_vi vasint(pb_vf a) { return simde_mm_castps_si128(a); }
PB_BINLINE pb_vf vasfloat(pb_vi a) { return simde_mm_castsi128_ps(a); }
PB_BINLINE pb_vi vi_set1(int32_t x) { return simde_mm_set1_epi32(x); }
PB_BINLINE pb_vi vi_add(pb_vi a, pb_vi b) { return simde_mm_add_epi32(a, b); }
PB_BINLINE pb_vi vi_sub(pb_vi a, pb_vi b) { return simde_mm_sub_epi32(a, b); }
PB_BINLINE pb_vi vi_and(pb_vi a, pb_vi b) { return simde_mm_and_si128(a, b); }
PB_BINLINE pb_vi vi_or(pb_vi a, pb_vi b) { return simde_mm_or_si128(a, b); }
PB_BINLINE pb_vi vi_xor(pb_vi a, pb_vi b) { return simde_mm_xor_si128(a, b); }
#define vi_slli(a, n) simde_mm_slli_epi32((a), (n))
#define vi_srli(a, n) simde_mm_srli_epi32((a), (n))

/* Any-lane permutation: out[l] = v[idx[l]]. SSE has no variable float
 * permute, so the int32 indices become a pshufb byte control. */
PB_BINLINE pb_vidx vidx_make(const int32_t idx[PB_LANES])
{
    int8_t b[16];
    for (int l = 0; l < PB_LANES; l++)
        for (int j = 0; j < 4; j++) b[4 * l + j] = (int8_t)(4 * idx[l] + j);
    return simde_mm_loadu_si128((const void *)b);
}
PB_BINLINE pb_vf vpermute(pb_vf v, pb_vidx idx)
{
    return simde_mm_castsi128_ps(simde_mm_shuffle_epi8(simde_mm_castps_si128(v), idx));
}

/* Gathers: SSE has none; four scalar loads. */
PB_BINLINE pb_vi vi_load(const int32_t *p) { return simde_mm_loadu_si128((const void *)p); }
PB_BINLINE pb_vm vi_eq(pb_vi a, pb_vi b) { return simde_mm_castsi128_ps(simde_mm_cmpeq_epi32(a, b)); }
PB_BINLINE pb_vf vgather(const float *base, const int32_t *idx)
{
    return simde_mm_set_ps(base[idx[3]], base[idx[2]], base[idx[1]], base[idx[0]]);
}

/* Records of 4 floats (the skinning palettes' rows) at base + off[l], one
 * per lane, as 4 SoA vectors: v[c] lane l = base[off[l] + c]. Four 4-float
 * loads and a 4x4 transpose (vtranspose, below). */
PB_BINLINE void vtranspose(pb_vf v[PB_LANES]);
PB_BINLINE void vgather4(const float *base, const int32_t *off, pb_vf v[4])
{
    for (int l = 0; l < 4; l++) v[l] = simde_mm_loadu_ps(base + off[l]);
    vtranspose(v);
}

/* In-place transpose of PB_LANES rows (v[r] lane c -> v[c] lane r): pairs
 * of rows interleaved, then pairs of pairs as 64-bit halves. */
PB_BINLINE void vtranspose(pb_vf v[PB_LANES])
{
    pb_vf t0 = simde_mm_unpacklo_ps(v[0], v[1]), t1 = simde_mm_unpackhi_ps(v[0], v[1]);
    pb_vf t2 = simde_mm_unpacklo_ps(v[2], v[3]), t3 = simde_mm_unpackhi_ps(v[2], v[3]);
    v[0] = simde_mm_movelh_ps(t0, t2);
    v[1] = simde_mm_movehl_ps(t2, t0);
    v[2] = simde_mm_movelh_ps(t1, t3);
    v[3] = simde_mm_movehl_ps(t3, t1);
}

/* AoS stores of 4-float rows (the skinning palettes): each 4-lane block of
 * v[0..3] transposed as a 4x4 matrix (block m of v[j] <- lane 4m + j of v[0],
 * v[1], v[2], v[3]), and block m of v stored (4 floats, unaligned). */
PB_BINLINE void vtranspose4_blocks(pb_vf v[4]) { vtranspose(v); }
PB_BINLINE void vstore_block4(float *p, pb_vf v, int m) { (void)m; simde_mm_storeu_ps(p, v); }
