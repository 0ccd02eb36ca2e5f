/* skeleton.h — the skeleton op family's kernels (fk_static, fk, bk), written
 * once over the pb_vf vocabulary like every op body; included by
 * kernel_body.h, which instantiates it per ISA (see there). */

/* Forward / backward kinematics over a skeleton (see posebench/skeleton.h).
 * Crowd path (characters >= PB_LANES): joint by joint, the characters of a
 * joint are contiguous and so are their parents': plain loads, no gathers;
 * the last partial vector of a joint is vload_n / vstore_n's (masked moves
 * on native AVX-512 and AVX2, else through a buffer). Level path (one
 * large skeleton, small groups): level by level in depth order, gathering
 * each vector's elements and their parents (computed in an earlier level) and
 * scattering the results. np = 10 (static transforms) or 19 (velocities). */
/* End of level l for this lane count: its real elements rounded up to whole vectors. */
static inline size_t level_end(const pb_skeleton *s, size_t l)
{
    return s->level_start[l] + (s->level_len[l] + PB_LANES - 1) / PB_LANES * PB_LANES;
}
/* parent x local of vectors in registers (the level path's gathers, the
 * crowd path's partial vectors): with velocities through a vector's worth
 * of planes, so that vkf_mul_planes is the one composition. */
PB_VINLINE vkf compose(const vkf *parent, const vkf *local, int np)
{
    if (np != PB_PLANES) return vkf_mul_static(parent, local);
    _Alignas(64) float buf[2][PB_PLANES][PB_LANES];
    float *pa[PB_PLANES], *pl[PB_PLANES];
    for (int q = 0; q < PB_PLANES; q++) pa[q] = buf[0][q], pl[q] = buf[1][q];
    vkf_store(pa, 0, parent);
    vkf_store(pl, 0, local);
    vkf_mul_planes((const float *const *)pa, 0, (const float *const *)pl, 0, pl, 0);
    return vkf_load((const float *const *)pl, 0);
}
/* The crowd path's joints (characters >= PB_LANES), each vector of joint j
 * composed with its parent's (already global) in out. full (a constant where
 * called): C a multiple of PB_LANES (a frame's blocks), so every vector is
 * whole and aligned: no lane count is tested per plane (the tests were a
 * fifth of the AVX2 crowd FK's instructions: tools/icount.sh), and with
 * velocities the composition goes straight from and to the planes
 * (vkf_mul_planes); the same lanes, the same bits. Otherwise whole vectors
 * go from and to the planes too, by unaligned moves, and only the last
 * partial one of each joint through compose (AVX-512, a frame's last block
 * of 56 characters: every vector through compose had made that block's FK
 * half as slow again per joint as the others'). */
PB_VINLINE void fk_crowd(const pb_kargs *k, int np, int full)
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    const float *const *out = (const float *const *)k->out;
    for (size_t j = 0; j < s->joints; j++) {
        int32_t p = s->parents[j];
        for (size_t c = 0; c < C; c += PB_LANES) {
            size_t cnt = full || C - c >= PB_LANES ? PB_LANES : C - c, ip = (size_t)p * C + c, il = j * C + c;
            if (p >= 0 && np == PB_PLANES && cnt == PB_LANES) {   /* whole vectors: aligned when C is a multiple */
                if (full) vkf_mul_planes(out, ip, k->a, il, k->out, il);
                else vkf_mul_planes_al(out, ip, k->a, il, k->out, il, 0);
                continue;
            }
            vkf g = vkf_load_n(k->a, il, cnt, np);
            if (p >= 0) {
                vkf parent = vkf_load_n(out, ip, cnt, np);
                g = compose(&parent, &g, np);
            }
            vkf_store_n(k->out, il, cnt, np, &g);
        }
    }
}
static inline void fk_body(const pb_kargs *k, int np)
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    const float *const *out = (const float *const *)k->out;
    if (C >= PB_LANES) {
        if (C % PB_LANES == 0) fk_crowd(k, np, 1);
        else fk_crowd(k, np, 0);
        return;
    }
    for (size_t l = 0; l < s->levels; l++)
        for (size_t i = s->level_start[l]; i < level_end(s, l); i += PB_LANES) {
            vkf local = vkf_gather(k->a, s->order + i, np);
            vkf parent = vkf_gather(out, s->parent_of + i, np);   /* roots name themselves: discarded below */
            vkf g = compose(&parent, &local, np);
            pb_vm root = vi_eq(vi_load(s->order + i), vi_load(s->parent_of + i));
            g = vkf_sel(root, &local, &g);
            vkf_scatter(k->out, s->order + i, np, &g);
        }
}

/* bk needs no schedule (each local reads globals only) but runs children
 * before parents so that out may be the input pose. */
static inline void bk_body(const pb_kargs *k)
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    if (C >= PB_LANES) {
        for (size_t j = s->joints; j-- > 0;) {
            int32_t p = s->parents[j];
            for (size_t c = 0; c < C; c += PB_LANES) {
                size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
                vkf g = vkf_load_n(k->a, j * C + c, cnt, PB_PLANES);
                if (p >= 0) {
                    vkf parent = vkf_load_n(k->a, (size_t)p * C + c, cnt, PB_PLANES);
                    g = vkf_div(&parent, &g);
                }
                vkf_store_n(k->out, j * C + c, cnt, PB_PLANES, &g);
            }
        }
        return;
    }
    for (size_t l = s->levels; l-- > 0;)
        for (size_t i = s->level_start[l]; i < level_end(s, l); i += PB_LANES) {
            vkf g = vkf_gather(k->a, s->order + i, PB_PLANES);
            vkf parent = vkf_gather(k->a, s->parent_of + i, PB_PLANES);
            vkf local = vkf_div(&parent, &g);
            pb_vm root = vi_eq(vi_load(s->order + i), vi_load(s->parent_of + i));
            local = vkf_sel(root, &g, &local);
            vkf_scatter(k->out, s->order + i, PB_PLANES, &local);
        }
}

/* ---- few characters: per-element records --------------------------------------------------
 * One character (or a few: characters < PB_LANES) leaves most lanes of a level
 * vector empty (a 64-joint skeleton's levels hold ~4 joints) and pays 10 or 19
 * gathers and scatters per level vector. Here instead:
 *   1. the input planes are transposed, PB_LANES-independent, into per-element
 *      records of 4-float groups (pos, rot as x y z w, scl; then vel, ang, svl),
 *      on the stack: contiguous vector loads and in-register shuffles;
 *   2. each element is composed with its parent's record (already global),
 *      one element per 128-bit group: 4-wide AoS algebra, parents read with
 *      one 16-byte load per group; AVX2/AVX-512 do two elements per 256-bit op
 *      (a pair of one level of the skeleton's schedule, so independent);
 *   3. the records are transposed back into the output planes.
 * Roots compose with an identity record kept after the elements (exact for
 * finite inputs: 1*x + 0). Pad lanes hold 0 (scl: 1) and stay finite. Records
 * are overwritten in place in dependency order, so out may be the input.
 * AVX-512 uses the 256-bit code too: four elements per 512-bit op would
 * double-pump on Zen 4 for no gain and need wider independent sets. */
#define FEW_MAX_FLOATS 8192   /* record scratch: 32 KiB of stack */

#if PB_LANES >= 8
#include <simde/x86/avx2.h>
#include <simde/x86/fma.h>
typedef simde__m256 av;
#define AV_ELEMS 2   /* elements per av: one per 128-bit half */
PB_VINLINE av av_load(const float *lo, const float *hi)
{
    return simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(lo)), simde_mm_loadu_ps(hi), 1);
}
PB_VINLINE void av_store(float *lo, float *hi, av v)
{
    simde_mm_storeu_ps(lo, simde_mm256_castps256_ps128(v));
    simde_mm_storeu_ps(hi, simde_mm256_extractf128_ps(v, 1));
}
PB_VINLINE av av_load_lo(av v, const float *p)   /* v with its low element's group from p */
{
    return simde_mm256_blend_ps(v, simde_mm256_castps128_ps256(simde_mm_loadu_ps(p)), 0x0F);
}
PB_VINLINE av av_load_hi(av v, const float *p) { return simde_mm256_insertf128_ps(v, simde_mm_loadu_ps(p), 1); }
PB_VINLINE av av_loadp(const float *p) { return simde_mm256_loadu_ps(p); }
PB_VINLINE void av_storep(float *p, av v) { simde_mm256_storeu_ps(p, v); }
PB_VINLINE av av_set1(float x) { return simde_mm256_set1_ps(x); }
PB_VINLINE av av_set4(float x, float y, float z, float w) { return simde_mm256_setr_ps(x, y, z, w, x, y, z, w); }
PB_VINLINE av av_add(av a, av b) { return simde_mm256_add_ps(a, b); }
PB_VINLINE av av_sub(av a, av b) { return simde_mm256_sub_ps(a, b); }
PB_VINLINE av av_mul(av a, av b) { return simde_mm256_mul_ps(a, b); }
PB_VINLINE av av_div(av a, av b) { return simde_mm256_div_ps(a, b); }
PB_VINLINE av av_xor(av a, av b) { return simde_mm256_xor_ps(a, b); }
PB_VINLINE av av_fma(av a, av b, av c) { return simde_mm256_fmadd_ps(a, b, c); }
/* out = (v[a], v[b], v[c], v[d]) within each element's group */
#define AV_SWZ(v, a, b, c, d) simde_mm256_permute_ps((v), SIMDE_MM_SHUFFLE(d, c, b, a))
/* (x[a], x[b], y[c], y[d]) per group */
#define AV_SHUF2(x, y, a, b, c, d) simde_mm256_shuffle_ps((x), (y), SIMDE_MM_SHUFFLE(d, c, b, a))
PB_VINLINE av av_unpacklo(av x, av y) { return simde_mm256_unpacklo_ps(x, y); }
PB_VINLINE av av_unpackhi(av x, av y) { return simde_mm256_unpackhi_ps(x, y); }
#elif defined(SIMDE_X86_SSE4_1_H)
/* sse41: one element's group per 128-bit op, with SSE's immediate shuffles
 * (the backend's any-lane vpermute is a pshufb plus a table: twice as slow here). */
typedef simde__m128 av;
#define AV_ELEMS 1
PB_VINLINE av av_load(const float *lo, const float *hi) { (void)hi; return simde_mm_loadu_ps(lo); }
PB_VINLINE void av_store(float *lo, float *hi, av v) { (void)hi; simde_mm_storeu_ps(lo, v); }
PB_VINLINE av av_load_lo(av v, const float *p) { (void)v; return simde_mm_loadu_ps(p); }
PB_VINLINE av av_load_hi(av v, const float *p) { (void)p; return v; }
PB_VINLINE av av_loadp(const float *p) { return simde_mm_loadu_ps(p); }
PB_VINLINE void av_storep(float *p, av v) { simde_mm_storeu_ps(p, v); }
PB_VINLINE av av_set1(float x) { return simde_mm_set1_ps(x); }
PB_VINLINE av av_set4(float x, float y, float z, float w) { return simde_mm_setr_ps(x, y, z, w); }
PB_VINLINE av av_add(av a, av b) { return simde_mm_add_ps(a, b); }
PB_VINLINE av av_sub(av a, av b) { return simde_mm_sub_ps(a, b); }
PB_VINLINE av av_mul(av a, av b) { return simde_mm_mul_ps(a, b); }
PB_VINLINE av av_div(av a, av b) { return simde_mm_div_ps(a, b); }
PB_VINLINE av av_xor(av a, av b) { return simde_mm_xor_ps(a, b); }
PB_VINLINE av av_fma(av a, av b, av c) { return simde_mm_add_ps(simde_mm_mul_ps(a, b), c); }   /* no FMA: as vfma */
#define AV_SWZ(v, a, b, c, d) simde_mm_shuffle_ps((v), (v), SIMDE_MM_SHUFFLE(d, c, b, a))
#define AV_SHUF2(x, y, a, b, c, d) simde_mm_shuffle_ps((x), (y), SIMDE_MM_SHUFFLE(d, c, b, a))
PB_VINLINE av av_unpacklo(av x, av y) { return simde_mm_unpacklo_ps(x, y); }
PB_VINLINE av av_unpackhi(av x, av y) { return simde_mm_unpackhi_ps(x, y); }
#else
/* neon: an av is one element's group, in the backend's pb_vf. */
typedef pb_vf av;
#define AV_ELEMS 1
PB_VINLINE av av_load(const float *lo, const float *hi) { (void)hi; return vloadu(lo); }
PB_VINLINE void av_store(float *lo, float *hi, av v) { (void)hi; vstoreu(lo, v); }
PB_VINLINE av av_load_lo(av v, const float *p) { (void)v; return vloadu(p); }
PB_VINLINE av av_load_hi(av v, const float *p) { (void)p; return v; }
PB_VINLINE av av_loadp(const float *p) { return vloadu(p); }
PB_VINLINE void av_storep(float *p, av v) { vstoreu(p, v); }
PB_VINLINE av av_set1(float x) { return vset1(x); }
PB_VINLINE av av_set4(float x, float y, float z, float w)
{
    float t[4] = { x, y, z, w };
    return vloadu(t);
}
PB_VINLINE av av_add(av a, av b) { return vadd(a, b); }
PB_VINLINE av av_sub(av a, av b) { return vsub(a, b); }
PB_VINLINE av av_mul(av a, av b) { return vmul(a, b); }
PB_VINLINE av av_div(av a, av b) { return vdiv(a, b); }
PB_VINLINE av av_xor(av a, av b) { return simde_vreinterpretq_f32_s32(simde_veorq_s32(vasint(a), vasint(b))); }
PB_VINLINE av av_fma(av a, av b, av c) { return vfma(a, b, c); }
PB_VINLINE av av_swz(av v, int a, int b, int c, int d)
{
    int32_t i[4] = { a, b, c, d };
    return vpermute(v, vidx_make(i));
}
#define AV_SWZ(v, a, b, c, d) av_swz((v), a, b, c, d)
/* lanes 0, 1 from x, lanes 2, 3 from y */
PB_VINLINE av av_shuf2(av x, av y, int a, int b, int c, int d)
{
    static const int32_t lane[4] = { 0, 1, 2, 3 };
    pb_vm upper = vi_eq(vi_and(vi_load(lane), vi_set1(2)), vi_set1(2));
    return vsel(upper, av_swz(y, c, c, c, d), av_swz(x, a, b, a, b));
}
#define AV_SHUF2(x, y, a, b, c, d) av_shuf2((x), (y), a, b, c, d)
PB_VINLINE av av_interleave(av x, av y, int h)   /* (x[h], y[h], x[h+1], y[h+1]) */
{
    static const int32_t lane[4] = { 0, 1, 2, 3 };
    pb_vm odd = vi_eq(vi_and(vi_load(lane), vi_set1(1)), vi_set1(1));
    return vsel(odd, av_swz(y, h, h, h + 1, h + 1), av_swz(x, h, h, h + 1, h + 1));
}
PB_VINLINE av av_unpacklo(av x, av y) { return av_interleave(x, y, 0); }
PB_VINLINE av av_unpackhi(av x, av y) { return av_interleave(x, y, 2); }
#endif

/* A 4x4 transpose per 128-bit group: planes <-> records (its own inverse). */
PB_VINLINE void av_transpose(av *r0, av *r1, av *r2, av *r3)
{
    av t0 = av_unpacklo(*r0, *r1), t1 = av_unpackhi(*r0, *r1);
    av t2 = av_unpacklo(*r2, *r3), t3 = av_unpackhi(*r2, *r3);
    *r0 = AV_SHUF2(t0, t2, 0, 1, 0, 1);
    *r1 = AV_SHUF2(t0, t2, 2, 3, 2, 3);
    *r2 = AV_SHUF2(t1, t3, 0, 1, 0, 1);
    *r3 = AV_SHUF2(t1, t3, 2, 3, 2, 3);
}
/* (u x v) per group given u.yzx, w lanes 0 when finite: (u * v.yzx - u.yzx * v).yzx */
PB_VINLINE av av_cross_y(av u, av u_yzx, av v)
{
    av c = av_sub(av_mul(u, AV_SWZ(v, 1, 2, 0, 3)), av_mul(u_yzx, v));
    return AV_SWZ(c, 1, 2, 0, 3);
}
PB_VINLINE av av_cross(av u, av v) { return av_cross_y(u, AV_SWZ(u, 1, 2, 0, 3), v); }
/* q v q*, as vq_mul_vec3: t = 2 (u x v); v + w t + u x t */
PB_VINLINE av av_rotate(av q, av v)
{
    av q_yzx = AV_SWZ(q, 1, 2, 0, 3);
    av t = av_cross_y(av_add(q, q), av_add(q_yzx, q_yzx), v);
    return av_add(av_fma(t, AV_SWZ(q, 3, 3, 3, 3), v), av_cross_y(q, q_yzx, t));
}
/* Hamilton product, groups x y z w. The signs ride on b's swizzles (b is the
 * local: off fk's parent-to-child chain) and the four terms add as two
 * independent pairs, which shortens that chain. */
PB_VINLINE av av_qmul(av a, av b)
{
    av sgn = av_set4(0.0f, 0.0f, 0.0f, -0.0f);   /* sign flips as xor: off the multiply pipes */
    av lo = av_fma(AV_SWZ(a, 0, 1, 2, 0), av_xor(AV_SWZ(b, 3, 3, 3, 0), sgn), av_mul(AV_SWZ(a, 3, 3, 3, 3), b));
    av hi = av_sub(av_mul(AV_SWZ(a, 1, 2, 0, 1), av_xor(AV_SWZ(b, 2, 0, 1, 1), sgn)),
                   av_mul(AV_SWZ(a, 2, 0, 1, 2), AV_SWZ(b, 1, 2, 0, 2)));
    return av_add(lo, hi);
}

/* Record groups: pos, rot, scl (K = 3), then vel, ang, svl (K = 6). */
typedef struct { av g[6]; } akf;
enum { AK_POS, AK_ROT, AK_SCL, AK_VEL, AK_ANG, AK_SVL };
PB_VINLINE akf akf_load(const float *lo, const float *hi, int K)
{
    akf r;
    for (int g = 0; g < K; g++) r.g[g] = av_load(lo + 4 * g, hi + 4 * g);
    return r;
}
PB_VINLINE void akf_store(float *lo, float *hi, int K, const akf *r)
{
    for (int g = 0; g < K; g++) av_store(lo + 4 * g, hi + 4 * g, r->g[g]);
}
/* vkf_mul / vkf_mul_static / vkf_div on records; a = parent. */
PB_VINLINE akf akf_mul(const akf *a, const akf *b, int K)
{
    akf r;
    av d = av_rotate(a->g[AK_ROT], av_mul(a->g[AK_SCL], b->g[AK_POS]));
    r.g[AK_POS] = av_add(a->g[AK_POS], d);
    r.g[AK_ROT] = av_qmul(a->g[AK_ROT], b->g[AK_ROT]);
    r.g[AK_SCL] = av_mul(a->g[AK_SCL], b->g[AK_SCL]);
    if (K == 6) {
        av v = av_fma(a->g[AK_SVL], b->g[AK_POS], b->g[AK_VEL]);
        r.g[AK_VEL] = av_add(av_add(a->g[AK_VEL], av_cross(a->g[AK_ANG], d)),
                             av_rotate(a->g[AK_ROT], av_mul(a->g[AK_SCL], v)));
        r.g[AK_ANG] = av_add(a->g[AK_ANG], av_rotate(a->g[AK_ROT], b->g[AK_ANG]));
        r.g[AK_SVL] = av_add(a->g[AK_SVL], b->g[AK_SVL]);
    }
    return r;
}
PB_VINLINE akf akf_div(const akf *a, const akf *b)
{
    akf r;
    av qi = av_xor(a->g[AK_ROT], av_set4(-0.0f, -0.0f, -0.0f, 0.0f));
    av d = av_sub(b->g[AK_POS], a->g[AK_POS]);
    av inv = av_div(av_set1(1.0f), a->g[AK_SCL]);   /* one division, not three: the divider is the bound */
    r.g[AK_POS] = av_mul(av_rotate(qi, d), inv);
    r.g[AK_ROT] = av_qmul(qi, b->g[AK_ROT]);
    r.g[AK_SCL] = av_mul(b->g[AK_SCL], inv);
    av rel = av_sub(av_sub(b->g[AK_VEL], a->g[AK_VEL]), av_cross(a->g[AK_ANG], d));
    r.g[AK_VEL] = av_sub(av_mul(av_rotate(qi, rel), inv), av_mul(a->g[AK_SVL], r.g[AK_POS]));
    r.g[AK_ANG] = av_rotate(qi, av_sub(b->g[AK_ANG], a->g[AK_ANG]));
    r.g[AK_SVL] = av_sub(b->g[AK_SVL], a->g[AK_SVL]);
    return r;
}

/* The planes of each record group; -1: a pad lane of 0, -2: of 1. */
static const int few_planes[6][4] = {
    { PB_POS_X, PB_POS_Y, PB_POS_Z, -1 }, { PB_ROT_X, PB_ROT_Y, PB_ROT_Z, PB_ROT_W },
    { PB_SCL_X, PB_SCL_Y, PB_SCL_Z, -2 }, { PB_VEL_X, PB_VEL_Y, PB_VEL_Z, -1 },
    { PB_ANG_X, PB_ANG_Y, PB_ANG_Z, -1 }, { PB_SVL_X, PB_SVL_Y, PB_SVL_Z, -1 },
};
/* Elements per transpose step: 4 per 128-bit group. */
#define FEW_STEP (4 * AV_ELEMS)

/* Planes [0, n_padded) -> records (stride 4K floats): the identity record
 * at 0, a scratch (sink) record at 1, element e at e + 2. */
PB_VINLINE void few_to_records(float *rec, const float *const *pl, size_t n_padded, int K)
{
    size_t rs = 4 * (size_t)K;
    for (size_t f = 0; f < rs; f++) rec[f] = (f >= 7 && f < 12) ? 1.0f : 0.0f;   /* pos 0, rot (0, 0, 0, 1), scl 1 (pad too), the rates 0 */
    rec += 2 * rs;
    for (size_t e = 0; e < n_padded; e += FEW_STEP)
        for (int g = 0; g < K; g++) {
            av r[4];
            for (int c = 0; c < 4; c++) {
                int p = few_planes[g][c];
                r[c] = p >= 0 ? av_loadp(pl[p] + e) : av_set1(p == -2 ? 1.0f : 0.0f);
            }
            av_transpose(&r[0], &r[1], &r[2], &r[3]);
            for (size_t c = 0; c < 4; c++)
                av_store(rec + (e + c) * rs + 4 * (size_t)g, rec + (e + (AV_ELEMS - 1) * 4 + c) * rs + 4 * (size_t)g, r[c]);
        }
}
PB_VINLINE void few_from_records(float *const *pl, const float *rec, size_t n_padded, int K)
{
    size_t rs = 4 * (size_t)K;
    rec += 2 * rs;
    for (size_t e = 0; e < n_padded; e += FEW_STEP)
        for (int g = 0; g < K; g++) {
            av r[4];
            for (size_t c = 0; c < 4; c++)
                r[c] = av_load(rec + (e + c) * rs + 4 * (size_t)g, rec + (e + (AV_ELEMS - 1) * 4 + c) * rs + 4 * (size_t)g);
            av_transpose(&r[0], &r[1], &r[2], &r[3]);
            for (int c = 0; c < 4; c++)
                if (few_planes[g][c] >= 0) av_storep(pl[few_planes[g][c]] + e, r[c]);
        }
}
/* Does the few-characters path take this call? (The shape decides: characters
 * below the lane count, and records (plus identity and sink) that fit the
 * stack scratch; fk also needs the chain schedule.) */
static inline int few_fits(const pb_kargs *k, int K)
{
    return k->skel->characters < PB_LANES && (k->n_padded + 2) * 4 * (size_t)K <= FEW_MAX_FLOATS;
}

/* A lane that starts a chain loads its parent's record: m says which halves. */
PB_VINLINE void akf_reload(akf *r, const float *lo, const float *hi, unsigned m, int K)
{
    for (int g = 0; g < K; g++)
        r->g[g] = m == 3 || AV_ELEMS == 1 ? av_load(lo + 4 * g, hi + 4 * g)
                  : m == 1               ? av_load_lo(r->g[g], lo + 4 * g)
                                         : av_load_hi(r->g[g], hi + 4 * g);
}
#define FEW_AVS (PB_FEW_LANES / AV_ELEMS)

/* One av of one step: lanes a*AV_ELEMS.. of the chain schedule (record
 * indices, see posebench/skeleton.h: 0 the identity, 1 the sink, e + 2 the
 * element e). An idle lane (destination: the sink) composes the identity. */
PB_VINLINE void few_av_step(akf *cur, float *rec, const int32_t *st, int a, int K)
{
    size_t rs = 4 * (size_t)K;
    int l0 = a * AV_ELEMS, l1 = l0 + AV_ELEMS - 1;
    const int32_t *dst = st + 1, *par = dst + PB_FEW_LANES;
    unsigned m = ((unsigned)st[0] >> l0) & ((1u << AV_ELEMS) - 1);
    if (m) akf_reload(cur, rec + (size_t)par[l0] * rs, rec + (size_t)par[l1] * rs, m, K);
    size_t d0 = (size_t)dst[l0], d1 = (size_t)dst[l1];
    akf loc = akf_load(rec + (d0 - (d0 == 1)) * rs, rec + (d1 - (d1 == 1)) * rs, K);
    *cur = akf_mul(cur, &loc, K);
    akf_store(rec + d0 * rs, rec + d1 * rs, K, cur);
}

/* The chain schedule (pb_skeleton.few_steps): PB_FEW_LANES chains in flight,
 * AV_ELEMS per av; each lane's running global stays in registers along its
 * chain (the parent of the next element is the value just computed: no
 * store-to-load round trip on the dependency chain), and is stored once for
 * the output and for chains that branch off it. The avs are named variables,
 * not an array, so that they stay in registers. */
PB_VINLINE void fk_few(const pb_kargs *k, int K)
{
    const pb_skeleton *s = k->skel;
    float rec[FEW_MAX_FLOATS];
    few_to_records(rec, (const float *const *)k->a, k->n_padded, K);
    akf c0 = akf_load(rec, rec, K), c1 = c0, c2 = c0, c3 = c0;
    for (size_t t = 0; t < s->few_nsteps; t++) {
        const int32_t *st = s->few_steps + t * PB_FEW_STEP;
        few_av_step(&c0, rec, st, 0, K);
        few_av_step(&c1, rec, st, 1, K);
        if (FEW_AVS > 2) {
            few_av_step(&c2, rec, st, 2, K);
            few_av_step(&c3, rec, st, 3, K);
        }
    }
    few_from_records(k->out, rec, k->n_padded, K);
}

/* bk reads only input globals: descending elements (children before their
 * parents, in place), two at a time where the ISA pairs them — both loaded
 * before either is stored, so a pair may be a child and its parent. */
static inline void bk_few(const pb_kargs *k)
{
    const pb_skeleton *s = k->skel;
    size_t rs = 4 * 6, C = s->characters;
    float rec[FEW_MAX_FLOATS];
    few_to_records(rec, k->a, k->n_padded, 6);   /* the identity at record 0, element e at e + 2 */
    size_t e_prev = SIZE_MAX, p_prev = 0;
    for (size_t j = s->joints; j-- > 0;)
        for (size_t c = C; c-- > 0;) {
            size_t e = j * C + c + 2, p = s->parents[j] < 0 ? 0 : (size_t)s->parents[j] * C + c + 2;
            if (AV_ELEMS == 2 && e_prev == SIZE_MAX) {
                e_prev = e;
                p_prev = p;
                continue;
            }
            if (AV_ELEMS == 1) e_prev = e, p_prev = p;
            akf par = akf_load(rec + p_prev * rs, rec + p * rs, 6), g = akf_load(rec + e_prev * rs, rec + e * rs, 6);
            akf r = akf_div(&par, &g);
            akf_store(rec + e_prev * rs, rec + e * rs, 6, &r);
            e_prev = SIZE_MAX;
        }
    if (e_prev != SIZE_MAX) {
        akf par = akf_load(rec + p_prev * rs, rec + p_prev * rs, 6), g = akf_load(rec + e_prev * rs, rec + e_prev * rs, 6);
        akf r = akf_div(&par, &g);
        akf_store(rec + e_prev * rs, rec + e_prev * rs, 6, &r);
    }
    few_from_records(k->out, rec, k->n_padded, 6);
}

/* The path is a function of the shape (characters, element count): crowd,
 * few characters (records), or the level schedule for large skeletons. */
/* Each few-characters path in a function of its own (FEW_NOINLINE). */
FEW_NOINLINE void fk_few3(const pb_kargs *k) { fk_few(k, 3); }
FEW_NOINLINE void fk_few6(const pb_kargs *k) { fk_few(k, 6); }
static void k_fk(const pb_kargs *k)
{
    /* with chains in flight, one element per op (4-lane ISAs) wins too:
     * sse41 one 64-joint character 16.8 (level) vs 12.1 ns/joint (chains) */
    if (few_fits(k, 6) && k->skel->few_steps) fk_few6(k);
    else fk_body(k, PB_PLANES);
}
static void k_fk_static(const pb_kargs *k)
{
    if (few_fits(k, 3) && k->skel->few_steps) fk_few3(k);
    else fk_body(k, 10);
}
static void k_bk(const pb_kargs *k)
{
    if (few_fits(k, 6)) bk_few(k);
    else bk_body(k);
}
