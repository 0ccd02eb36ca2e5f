/* backend_neon.h — the pb_vf vocabulary on 4-lane NEON (AArch64), via SIMDe.
 * SIMDe 0.7.4 has no vdivq_f32/vsqrtq_f32: division and square root are the
 * hardware estimates refined by Newton-Raphson steps (each doubles the
 * correct bits: 8 -> 16 -> 32), plus one residual correction for division. */
#include <simde/arm/neon.h>

#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define PB_BINLINE static inline __attribute__((always_inline))   /* as PB_VINLINE in vmath.h */
#else
#define PB_BINLINE static inline
#endif

#define PB_LANES 4
typedef simde_float32x4_t pb_vf;
typedef simde_uint32x4_t pb_vm;
typedef simde_int32x4_t pb_vi;
typedef simde_uint8x16_t pb_vidx;

PB_BINLINE pb_vf vload(const float *p) { return simde_vld1q_f32(p); }
PB_BINLINE pb_vf vloadu(const float *p) { return simde_vld1q_f32(p); }
/* PB_LANES floats in runs of at most 8: p[0..7], then p[next..] (the
 * motion-matching boxes, blocks of PB_MM_BOX_RUN); aligned. */
PB_BINLINE pb_vf vload_runs8(const float *p, size_t next) { (void)next; return vload(p); }
PB_BINLINE void vstore(float *p, pb_vf v) { simde_vst1q_f32(p, v); }
PB_BINLINE void vstoreu(float *p, pb_vf v) { simde_vst1q_f32(p, v); }
PB_BINLINE pb_vf vset1(float x) { return simde_vdupq_n_f32(x); }
PB_BINLINE pb_vf vadd(pb_vf a, pb_vf b) { return simde_vaddq_f32(a, b); }
PB_BINLINE pb_vf vsub(pb_vf a, pb_vf b) { return simde_vsubq_f32(a, b); }
PB_BINLINE pb_vf vmul(pb_vf a, pb_vf b) { return simde_vmulq_f32(a, b); }
/* Fused on AArch64 (SIMDe's own condition for a native vfmaq); its portable
 * emulation rounds twice (see vmath.h, PB_FMA_EXACT). */
#if defined(SIMDE_ARM_NEON_A32V7_NATIVE) && defined(__ARM_FEATURE_FMA)
#define PB_FMA_EXACT 1
#endif
PB_BINLINE pb_vf vfma(pb_vf a, pb_vf b, pb_vf c) { return simde_vfmaq_f32(c, a, b); }
PB_BINLINE pb_vf vfnma(pb_vf a, pb_vf b, pb_vf c) { return simde_vfmaq_f32(c, simde_vnegq_f32(a), b); }
PB_BINLINE pb_vf vmin(pb_vf a, pb_vf b) { return simde_vminq_f32(a, b); }
PB_BINLINE pb_vf vmax(pb_vf a, pb_vf b) { return simde_vmaxq_f32(a, b); }
PB_BINLINE pb_vf vabs(pb_vf a) { return simde_vabsq_f32(a); }
/* The estimate of |a| with a's sign: SIMDe 0.7.4's portable vrecpeq_f32
 * computes 0x7EF311C3 - bits(a) in int32, which overflows (undefined
 * behaviour, caught by UBSan in the emulated build) for negative a. */
PB_BINLINE pb_vf vrcp_est(pb_vf a)
{
    pb_vf r = simde_vrecpeq_f32(simde_vabsq_f32(a));
    return simde_vbslq_f32(simde_vcltq_f32(a, simde_vdupq_n_f32(0.0f)), simde_vnegq_f32(r), r);
}
PB_BINLINE pb_vf vrsqrt_est(pb_vf a) { return simde_vrsqrteq_f32(a); }
PB_BINLINE pb_vf vround(pb_vf a) { return simde_vrndnq_f32(a); }
PB_BINLINE pb_vf vfloor(pb_vf a) { return simde_vrndmq_f32(a); }

PB_BINLINE pb_vm vlt(pb_vf a, pb_vf b) { return simde_vcltq_f32(a, b); }
PB_BINLINE pb_vm vle(pb_vf a, pb_vf b) { return simde_vcleq_f32(a, b); }
PB_BINLINE pb_vm veq(pb_vf a, pb_vf b) { return simde_vceqq_f32(a, b); }
PB_BINLINE pb_vm mand(pb_vm a, pb_vm b) { return simde_vandq_u32(a, b); }
PB_BINLINE pb_vm mor(pb_vm a, pb_vm b) { return simde_vorrq_u32(a, b); }
PB_BINLINE pb_vm mnot(pb_vm a) { return simde_vmvnq_u32(a); }
PB_BINLINE int many(pb_vm m) { return simde_vmaxvq_u32(m) != 0; }   /* any lane set */
PB_BINLINE unsigned mbits(pb_vm m)   /* lane i set: bit i */
{
    static const uint32_t bit[4] = { 1, 2, 4, 8 };
    return simde_vaddvq_u32(simde_vandq_u32(m, simde_vld1q_u32(bit)));
}
PB_BINLINE pb_vf vsel(pb_vm m, pb_vf a, pb_vf b) { return simde_vbslq_f32(m, a, b); }

/* a / b: reciprocal estimate, two Newton steps, then q += (a - q b) r. */
PB_BINLINE pb_vf vdiv(pb_vf a, pb_vf b)
{
    pb_vf r = vrcp_est(b);
    r = simde_vmulq_f32(r, simde_vrecpsq_f32(b, r));
    r = simde_vmulq_f32(r, simde_vrecpsq_f32(b, r));
    pb_vf q = simde_vmulq_f32(a, r);
    return simde_vfmaq_f32(q, simde_vfmaq_f32(a, simde_vnegq_f32(q), b), r);
}
/* sqrt(a) = a / sqrt(a) from the refined reciprocal square root, corrected once
 * by a Newton step on the root itself; sqrt(0) = 0 (a * rsqrt(0) is 0 * inf). */
PB_BINLINE pb_vf vsqrt(pb_vf a)
{
    pb_vf r = simde_vrsqrteq_f32(a);
    r = simde_vmulq_f32(r, simde_vrsqrtsq_f32(simde_vmulq_f32(a, r), r));
    r = simde_vmulq_f32(r, simde_vrsqrtsq_f32(simde_vmulq_f32(a, r), r));
    pb_vf s = simde_vmulq_f32(a, r);
    /* s += (a - s*s) * r / 2 */
    s = simde_vfmaq_f32(s, simde_vfmaq_f32(a, simde_vnegq_f32(s), s), simde_vmulq_n_f32(r, 0.5f));
    return simde_vbslq_f32(simde_vceqq_f32(a, simde_vdupq_n_f32(0.0f)), a, s);
}

PB_BINLINE pb_vi vasint(pb_vf a) { return simde_vreinterpretq_s32_f32(a); }
PB_BINLINE pb_vf vasfloat(pb_vi a) { return simde_vreinterpretq_f32_s32(a); }
PB_BINLINE pb_vi vi_set1(int32_t x) { return simde_vdupq_n_s32(x); }
PB_BINLINE pb_vi vi_add(pb_vi a, pb_vi b) { return simde_vaddq_s32(a, b); }
PB_BINLINE pb_vi vi_sub(pb_vi a, pb_vi b) { return simde_vsubq_s32(a, b); }
PB_BINLINE pb_vi vi_and(pb_vi a, pb_vi b) { return simde_vandq_s32(a, b); }
PB_BINLINE pb_vi vi_or(pb_vi a, pb_vi b) { return simde_vorrq_s32(a, b); }
PB_BINLINE pb_vi vi_xor(pb_vi a, pb_vi b) { return simde_veorq_s32(a, b); }
#define vi_slli(a, n) simde_vshlq_n_s32((a), (n))
#define vi_srli(a, n) simde_vreinterpretq_s32_u32(simde_vshrq_n_u32(simde_vreinterpretq_u32_s32(a), (n)))

PB_BINLINE pb_vidx vidx_make(const int32_t idx[PB_LANES])
{
    uint8_t b[16];
    for (int l = 0; l < PB_LANES; l++)
        for (int j = 0; j < 4; j++) b[4 * l + j] = (uint8_t)(4 * idx[l] + j);
    return simde_vld1q_u8(b);
}
PB_BINLINE pb_vf vpermute(pb_vf v, pb_vidx idx)
{
    return simde_vreinterpretq_f32_u8(simde_vqtbl1q_u8(simde_vreinterpretq_u8_f32(v), idx));
}

/* Gathers: NEON has none; four scalar loads. */
PB_BINLINE pb_vi vi_load(const int32_t *p) { return simde_vld1q_s32(p); }
PB_BINLINE pb_vm vi_eq(pb_vi a, pb_vi b) { return simde_vceqq_s32(a, b); }
PB_BINLINE pb_vf vgather(const float *base, const int32_t *idx)
{
    float t[4] = { base[idx[0]], base[idx[1]], base[idx[2]], base[idx[3]] };
    return simde_vld1q_f32(t);
}

/* Records of 4 floats (the skinning palettes' rows) at base + off[l], one
 * per lane, as 4 SoA vectors: v[c] lane l = base[off[l] + c]. Four 4-float
 * loads and a 4x4 transpose (vtranspose, below). */
PB_BINLINE void vtranspose(pb_vf v[PB_LANES]);
PB_BINLINE void vgather4(const float *base, const int32_t *off, pb_vf v[4])
{
    for (int l = 0; l < 4; l++) v[l] = simde_vld1q_f32(base + off[l]);
    vtranspose(v);
}

/* In-place transpose of PB_LANES rows (v[r] lane c -> v[c] lane r): 2x2
 * element transposes of row pairs, then their 64-bit halves recombined. */
PB_BINLINE void vtranspose(pb_vf v[PB_LANES])
{
    simde_float32x4x2_t a = simde_vtrnq_f32(v[0], v[1]), b = simde_vtrnq_f32(v[2], v[3]);
    v[0] = simde_vcombine_f32(simde_vget_low_f32(a.val[0]), simde_vget_low_f32(b.val[0]));
    v[1] = simde_vcombine_f32(simde_vget_low_f32(a.val[1]), simde_vget_low_f32(b.val[1]));
    v[2] = simde_vcombine_f32(simde_vget_high_f32(a.val[0]), simde_vget_high_f32(b.val[0]));
    v[3] = simde_vcombine_f32(simde_vget_high_f32(a.val[1]), simde_vget_high_f32(b.val[1]));
}

/* AoS stores of 4-float rows (the skinning palettes): each 4-lane block of
 * v[0..3] transposed as a 4x4 matrix (block m of v[j] <- lane 4m + j of v[0],
 * v[1], v[2], v[3]), and block m of v stored (4 floats, unaligned). */
PB_BINLINE void vtranspose4_blocks(pb_vf v[4]) { vtranspose(v); }
PB_BINLINE void vstore_block4(float *p, pb_vf v, int m) { (void)m; simde_vst1q_f32(p, v); }
