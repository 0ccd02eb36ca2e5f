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

#define FOR_VECTORS(k) for (size_t i = 0; i < (k)->n_padded; i += PB_LANES)

static void k_quat_mul(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_mul(vq_load(k->a, i), vq_load(k->b, i)));
}
static void k_quat_inv_mul(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_mul(vq_inv(vq_load(k->a, i)), vq_load(k->b, i)));
}
static void k_quat_mul_inv(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_mul(vq_load(k->a, i), vq_inv(vq_load(k->b, i))));
}
static void k_quat_mul_vec3(const pb_kargs *k)
{
    FOR_VECTORS(k) vv3_store(k->out, PB_POS_X, i, vq_mul_vec3(vq_load(k->a, i), vv3_load(k->b, PB_POS_X, i)));
}
static void k_quat_inv_mul_vec3(const pb_kargs *k)
{
    FOR_VECTORS(k) vv3_store(k->out, PB_POS_X, i, vq_mul_vec3(vq_inv(vq_load(k->a, i)), vv3_load(k->b, PB_POS_X, i)));
}
static void k_quat_abs(const pb_kargs *k) { FOR_VECTORS(k) vq_store(k->out, i, vq_abs(vq_load(k->a, i))); }
static void k_quat_normalize(const pb_kargs *k) { FOR_VECTORS(k) vq_store(k->out, i, vq_normalize(vq_load(k->a, i))); }
static void k_quat_exp(const pb_kargs *k) { FOR_VECTORS(k) vq_store(k->out, i, vq_exp_dd(vv3_load(k->a, PB_ANG_X, i))); }
static void k_quat_log(const pb_kargs *k) { FOR_VECTORS(k) vv3_store(k->out, PB_ANG_X, i, vq_log_dd(vq_load(k->a, i))); }
static void k_quat_from_scaled_angle_axis(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_exp_dd(vv3_scale(vv3_load(k->a, PB_ANG_X, i), vset1(0.5f))));
}
static void k_quat_to_scaled_angle_axis(const pb_kargs *k)
{
    FOR_VECTORS(k) vv3_store(k->out, PB_ANG_X, i, vv3_scale(vq_log_dd(vq_load(k->a, i)), vset1(2.0f)));
}
static void k_slerp_shortest(const pb_kargs *k)
{
    pb_vf t = vset1(k->p.alpha);
    FOR_VECTORS(k) vq_store(k->out, i, vq_slerp_shortest(vq_load(k->a, i), vq_load(k->b, i), t));
}
static void k_nlerp_shortest(const pb_kargs *k)
{
    pb_vf t = vset1(k->p.alpha);
    FOR_VECTORS(k) vq_store(k->out, i, vq_nlerp_shortest(vq_load(k->a, i), vq_load(k->b, i), t));
}
static void k_eerp(const pb_kargs *k)
{
    pb_vf t = vset1(k->p.alpha);
    FOR_VECTORS(k) for (int c = PB_SCL_X; c <= PB_SCL_Z; c++)
        vstore(k->out[c] + i, veerp(vload(k->a[c] + i), vload(k->b[c] + i), t));
}
static void k_negexp(const pb_kargs *k)
{
    FOR_VECTORS(k) for (int c = 0; c < 3; c++)
        vstore(k->out[PB_SCL_X + c] + i, vexp(vneg(vload(k->a[PB_POS_X + c] + i))));
}
static void k_fast_negexp_est(const pb_kargs *k)
{
    FOR_VECTORS(k) for (int c = 0; c < 3; c++) {
        pb_vf x = vload(k->a[PB_POS_X + c] + i);
        pb_vf d = vfma(vfma(vfma(vset1(0.235f), x, vset1(0.48f)), x, vset1(1.0f)), x, vset1(1.0f));
        vstore(k->out[PB_SCL_X + c] + i, vdiv(vset1(1.0f), d));
    }
}
static void k_smoothstep(const pb_kargs *k)
{
    FOR_VECTORS(k) for (int c = 0; c < 3; c++) {
        pb_vf x = vload(k->a[PB_POS_X + c] + i);
        vstore(k->out[PB_POS_X + c] + i, vsmoothstep(x));
        vstore(k->out[PB_VEL_X + c] + i, vsmoothstep_dx(x));
    }
}

/* Static blend: lerp pos and the three velocities, slerp/nlerp rot, eerp scl. */
static inline void blend_static_body(const pb_kargs *k, int nlerp)
{
    static const int lerped[] = { PB_POS_X, PB_POS_Y, PB_POS_Z, PB_VEL_X, PB_VEL_Y, PB_VEL_Z,
                                  PB_ANG_X, PB_ANG_Y, PB_ANG_Z, PB_SVL_X, PB_SVL_Y, PB_SVL_Z };
    pb_vf t = vset1(k->p.alpha);
    FOR_VECTORS(k) {
        for (size_t g = 0; g < sizeof lerped / sizeof lerped[0]; g++) {
            int c = lerped[g];
            vstore(k->out[c] + i, vlerp(vload(k->a[c] + i), vload(k->b[c] + i), t));
        }
        vq qa = vq_load(k->a, i), qb = vq_load(k->b, i);
        vq_store(k->out, i, nlerp ? vq_nlerp_shortest(qa, qb, t) : vq_slerp_shortest(qa, qb, t));
        for (int c = PB_SCL_X; c <= PB_SCL_Z; c++)
            vstore(k->out[c] + i, veerp(vload(k->a[c] + i), vload(k->b[c] + i), t));
    }
}
/* The flag is a constant at each call: the compiler specializes the body. */
static void k_blend_static(const pb_kargs *k) { blend_static_body(k, 0); }
static void k_blend_static_nlerp(const pb_kargs *k) { blend_static_body(k, 1); }

/* Layout conversions. The AoS side holds exactly n elements, so the last
 * partial vector goes through a small buffer: its AoS part is copied out
 * (to_aos) or in, over identity (from_aos, keeping the pose padding identity). */
static void k_pose_to_aos(const pb_kargs *k)
{
    for (int a = 0; a < PB_AOS_ARRAYS; a++) {
        int w = pb_aos_width[a], first = pb_aos_plane[a];
        vil_plan plan;
        vil_plan_store(&plan, w);
        float *dst = k->aos_out[a];
        for (size_t i = 0; i < k->n; i += PB_LANES) {
            pb_vf src[4];
            for (int c = 0; c < w; c++) src[c] = vload(k->a[first + c] + i);
            size_t left = k->n - i;
            if (left >= PB_LANES) {
                vstore_interleaved(dst + i * (size_t)w, src, &plan);
            } else {
                float buf[4 * PB_LANES];
                vstore_interleaved(buf, src, &plan);
                memcpy(dst + i * (size_t)w, buf, left * (size_t)w * sizeof(float));
            }
        }
    }
}
static void k_pose_from_aos(const pb_kargs *k)
{
    for (int a = 0; a < PB_AOS_ARRAYS; a++) {
        int w = pb_aos_width[a], first = pb_aos_plane[a];
        vil_plan plan;
        vil_plan_load(&plan, w);
        const float *src = k->aos_in[a];
        for (size_t i = 0; i < k->n; i += PB_LANES) {
            pb_vf dst[4];
            size_t left = k->n - i;
            if (left >= PB_LANES) {
                vload_deinterleaved(src + i * (size_t)w, dst, &plan);
            } else {
                float buf[4 * PB_LANES];
                for (size_t j = 0; j < PB_LANES; j++)
                    for (int c = 0; c < w; c++) buf[j * (size_t)w + (size_t)c] = pb_plane_identity(first + c);
                memcpy(buf, src + i * (size_t)w, left * (size_t)w * sizeof(float));
                vload_deinterleaved(buf, dst, &plan);
            }
            for (int c = 0; c < w; c++) vstore(k->out[first + c] + i, dst[c]);
        }
    }
}

/* Kineform algebra. */
static void k_kform_mul(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i), r = vkf_mul(&a, &b);
        vkf_store(k->out, i, &r);
    }
}
static void k_kform_div(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i), r = vkf_div(&a, &b);
        vkf_store(k->out, i, &r);
    }
}
static void k_kform_inv(const pb_kargs *k)
{
    vkf id = vkf_identity();
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), r = vkf_div(&a, &id);
        vkf_store(k->out, i, &r);
    }
}
/* The point ops read only the planes they need. */
static inline vkf vkf_load_transform(const float *const *pl, size_t i)
{
    vkf a = vkf_identity();
    a.pos = vv3_load(pl, PB_POS_X, i); a.rot = vq_load(pl, i); a.scl = vv3_load(pl, PB_SCL_X, i);
    return a;
}
static void k_kform_mul_dir(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load_transform(k->a, i);
        vv3_store(k->out, PB_POS_X, i, vkf_mul_dir(&a, vv3_load(k->b, PB_POS_X, i)));
    }
}
static void k_kform_mul_pos(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load_transform(k->a, i);
        vv3_store(k->out, PB_POS_X, i, vkf_mul_pos(&a, vv3_load(k->b, PB_POS_X, i)));
    }
}
static void k_kform_mul_vel(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i);
        vv3_store(k->out, PB_VEL_X, i, vkf_mul_vel(&a, vv3_load(k->b, PB_POS_X, i), vv3_load(k->b, PB_VEL_X, i)));
    }
}
static void k_finite_diff(const pb_kargs *k)
{
    pb_vf inv = vset1(k->p.dt > 0.0f ? 1.0f / k->p.dt : 0.0f);
    FOR_VECTORS(k) {
        vkf a = vkf_load_transform(k->a, i), b = vkf_load_transform(k->b, i);
        b.vel = vv3_scale(vv3_sub(b.pos, a.pos), inv);
        vq d = vq_abs(vq_mul(b.rot, vq_inv(a.rot)));
        b.ang = vv3_scale(vq_log(d), vmul(vset1(2.0f), inv));
        b.svl = vv3_scale(vv3_log(vv3_div(b.scl, a.scl)), inv);
        vkf_store(k->out, i, &b);
    }
}
static void k_timescale(const pb_kargs *k)
{
    pb_vf s = vset1(k->p.timescale);
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i);
        a.vel = vv3_scale(a.vel, s);
        a.ang = vv3_scale(a.ang, s);
        a.svl = vv3_scale(a.svl, s);
        vkf_store(k->out, i, &a);
    }
}

#include "skeleton.h"

/* ---- transition and layering ops --------------------------------------------------------- */
static void k_blend(const pb_kargs *k)
{
    pb_vf t = vset1(k->p.alpha), tdot = vset1(k->p.alpha_vel);
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i), r = vkf_blend(&a, &b, t, tdot);
        vkf_store(k->out, i, &r);
    }
}
static inline void additive_static_body(const pb_kargs *k, int local)
{
    pb_vf w = vset1(k->p.alpha);
    FOR_VECTORS(k) {
        vkf a = vkf_load_transform(k->a, i), b = vkf_load_transform(k->b, i);
        vkf r = vkf_additive_static(&a, &b, w, local);
        vkf_store_n(k->out, i, PB_LANES, 10, &r);
    }
}
static void k_additive_world_static(const pb_kargs *k) { additive_static_body(k, 0); }
static void k_additive_local_static(const pb_kargs *k) { additive_static_body(k, 1); }
static void k_additive(const pb_kargs *k)
{
    pb_vf w = vset1(k->p.alpha), wdot = vset1(k->p.alpha_vel);
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i), r = vkf_additive(&a, &b, w, wdot);
        vkf_store(k->out, i, &r);
    }
}
static void k_inertialize_offset(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i), r = vkf_inertialize_offset(&a, &b);
        vkf_store(k->out, i, &r);
    }
}
static void k_inertialize(const pb_kargs *k)
{
    /* the cubic's factors depend only on time and duration: once per call */
    float t = k->p.time, T = k->p.duration, fx = 0, fv = 0, dfx = 0, dfv = 0;
    if (T > 0 && t < T) {
        float u = t / T, u2 = u * u;
        fx = 2 * u2 * u - 3 * u2 + 1;
        fv = (u2 * u - 2 * u2 + u) * T;
        dfx = (6 * u2 - 6 * u) / T;
        dfv = 3 * u2 - 4 * u + 1;
    }
    pb_vf vfx = vset1(fx), vfv = vset1(fv), vdfx = vset1(dfx), vdfv = vset1(dfv);
    FOR_VECTORS(k) {
        vkf d = vkf_load(k->a, i), o = vkf_load(k->b, i), r = vkf_inertialize(&d, &o, vfx, vfv, vdfx, vdfv);
        vkf_store(k->out, i, &r);
    }
}
/* (1 - exp(-l t)) / l and exp(-l t) for the decayed extrapolation, per call. */
static void decay_factors(float t, float halflife, float *f, float *df)
{
    *f = *df = 0;
    if (halflife > 0) {
        float l = 0.69314718055994530942f / halflife;
        *df = expf(-l * t);
        *f = -expm1f(-l * t) / l;
    }
}
/* Root joints' elements, set apart after the vector loop: hold a (zero
 * velocities) or take b. */
static void roots_fixup(const pb_kargs *k, int take_b)
{
    const pb_skeleton *s = k->skel;
    for (size_t j = 0; j < s->joints; j++) {
        if (s->parents[j] >= 0) continue;
        for (size_t e = j * s->characters; e < (j + 1) * s->characters; e++)
            for (int p = 0; p < PB_PLANES; p++)
                k->out[p][e] = take_b ? k->b[p][e] : (p >= PB_VEL_X ? 0.0f : k->a[p][e]);
    }
}
static void k_extrapolate_decayed(const pb_kargs *k)
{
    float f, df;
    decay_factors(k->p.time, k->p.halflife, &f, &df);
    pb_vf vf = vset1(f), vdf = vset1(df);
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), r = vkf_extrapolate(&a, vf, vdf);
        vkf_store(k->out, i, &r);
    }
    roots_fixup(k, 0);
}
static void k_dead_blending(const pb_kargs *k)
{
    float t = k->p.time, T = k->p.duration, f, df;
    decay_factors(t, k->p.halflife, &f, &df);
    float u = T > 0 ? t / T : 1, c = u < 0 ? 0 : u > 1 ? 1 : u;
    float alpha = c * c * (3 - 2 * c), alpha_dot = (T > 0 && u > 0 && u < 1) ? 6 * u * (1 - u) / T : 0;
    pb_vf vf = vset1(f), vdf = vset1(df), va = vset1(alpha), vad = vset1(alpha_dot);
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i);
        vkf ext = vkf_extrapolate(&a, vf, vdf), r = vkf_blend(&ext, &b, va, vad);
        vkf_store(k->out, i, &r);
    }
    roots_fixup(k, 1);
}

/* ---- look-at and two-bone IK ------------------------------------------------------------ */
static inline vv3 unit_axis(const pb_params *p)
{
    float l = sqrtf(p->axis[0] * p->axis[0] + p->axis[1] * p->axis[1] + p->axis[2] * p->axis[2]);
    return l > 0 ? vv3_set(p->axis[0] / l, p->axis[1] / l, p->axis[2] / l) : vv3_set(0, 0, 1);
}
static inline void lookat_body(const pb_kargs *k, int with_vel)
{
    vv3 axis = unit_axis(&k->p);
    FOR_VECTORS(k) {
        vkf h = with_vel ? vkf_load(k->a, i) : vkf_load_transform(k->a, i);
        vv3 t = vv3_load(k->b, PB_POS_X, i), tv = with_vel ? vv3_load(k->b, PB_VEL_X, i) : vv3_set(0, 0, 0);
        vkf r = vkf_lookat(&h, t, tv, axis, with_vel);
        vkf_store_n(k->out, i, PB_LANES, with_vel ? PB_PLANES : 10, &r);
    }
}
static void k_lookat_static(const pb_kargs *k) { lookat_body(k, 0); }
static void k_lookat(const pb_kargs *k) { lookat_body(k, 1); }

/* Chains in crowd layout: the roots, mids and ends of all chains are three
 * contiguous blocks, so a vector of chains is three plain loads per plane. */
static inline void ik_body(const pb_kargs *k, int with_vel)
{
    size_t C = k->n / 3;
    int np = with_vel ? PB_PLANES : 10;
    vv3 hint = unit_axis(&k->p);
    float dt = k->p.dt;
    pb_vf h = vset1(dt / 2), mh = vset1(-dt / 2), inv_dt = vset1(dt > 0 ? 1.0f / dt : 0.0f);
    for (size_t c = 0; c < C; c += PB_LANES) {
        size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
        vkf root = vkf_load_n(k->a, c, cnt, np), mid = vkf_load_n(k->a, C + c, cnt, np);
        vkf end = vkf_load_n(k->a, 2 * C + c, cnt, np);
        vkf tk = vkf_load_n(k->b, 2 * C + c, cnt, with_vel ? PB_PLANES : 10);
        vik_result r = vik_solve(&root, &mid, &end, tk.pos, hint);
        vkf ro = root, mo = mid;
        ro.rot = r.root;
        mo.rot = r.mid;
        if (with_vel && dt > 0) {
            vkf r0 = vkf_step(root, mh), m0 = vkf_step(mid, mh), e0 = vkf_step(end, mh);
            vkf r1 = vkf_step(root, h), m1 = vkf_step(mid, h), e1 = vkf_step(end, h);
            vik_result lo = vik_solve(&r0, &m0, &e0, vv3_add(tk.pos, vv3_scale(tk.vel, mh)), hint);
            vik_result up = vik_solve(&r1, &m1, &e1, vv3_add(tk.pos, vv3_scale(tk.vel, h)), hint);
            ro.ang = vq_rate(up.root, lo.root, inv_dt);
            mo.ang = vq_rate(up.mid, lo.mid, inv_dt);
        }
        vkf_store_n(k->out, c, cnt, np, &ro);
        vkf_store_n(k->out, C + c, cnt, np, &mo);
        vkf_store_n(k->out, 2 * C + c, cnt, np, &end);
    }
}
static void k_two_bone_ik(const pb_kargs *k) { ik_body(k, 0); }
static void k_two_bone_ik_vel(const pb_kargs *k) { ik_body(k, 1); }

/* ---- sampling (see reference/ref_body.h) -----------------------------------------------------
 * A vector of characters at a time: their frame positions once (pb_frame_at,
 * the same float arithmetic as the reference), then each joint gathers its
 * keys; tail lanes repeat the last character and are not stored. */
static inline vv3 vv3_hermite(const vv3 *x, pb_vf a, vv3 *d)
{
    pb_vf a2 = vmul(a, a), a3 = vmul(a2, a);
    pb_vf h00 = vadd(vsub(vmul(vset1(2), a3), vmul(vset1(3), a2)), vset1(1));
    pb_vf h10 = vadd(vsub(a3, vmul(vset1(2), a2)), a);
    pb_vf h01 = vsub(vmul(vset1(3), a2), vmul(vset1(2), a3));
    pb_vf h11 = vsub(a3, a2);
    pb_vf d00 = vsub(vmul(vset1(6), a2), vmul(vset1(6), a));
    pb_vf d10 = vadd(vsub(vmul(vset1(3), a2), vmul(vset1(4), a)), vset1(1));
    pb_vf d01 = vsub(vmul(vset1(6), a), vmul(vset1(6), a2));
    pb_vf d11 = vsub(vmul(vset1(3), a2), vmul(vset1(2), a));
    vv3 m0 = vv3_scale(vv3_sub(x[2], x[0]), vset1(0.5f)), m1 = vv3_scale(vv3_sub(x[3], x[1]), vset1(0.5f));
    *d = vv3_add(vv3_add(vv3_scale(x[1], d00), vv3_scale(m0, d10)), vv3_add(vv3_scale(x[2], d01), vv3_scale(m1, d11)));
    return vv3_add(vv3_add(vv3_scale(x[1], h00), vv3_scale(m0, h10)), vv3_add(vv3_scale(x[2], h01), vv3_scale(m1, h11)));
}
static inline void sample_body(const pb_kargs *k, int cubic)
{
    size_t J = k->joints, C = k->n / J;
    for (size_t c = 0; c < C; c += PB_LANES) {
        size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
        int32_t fr[4][PB_LANES];
        float al[PB_LANES], live[PB_LANES];
        for (size_t l = 0; l < PB_LANES; l++) {
            size_t ch = c + (l < cnt ? l : cnt - 1), f0;
            float a;
            int inside;
            pb_frame_at(k->p.time + k->offsets[ch], k->frames, k->fps, &f0, &a, &inside);
            size_t f1 = f0 + 1 < k->frames ? f0 + 1 : f0;
            size_t fm = f0 > 0 ? f0 - 1 : f0, f2 = f1 + 1 < k->frames ? f1 + 1 : f1;
            fr[0][l] = (int32_t)(fm * J); fr[1][l] = (int32_t)(f0 * J);
            fr[2][l] = (int32_t)(f1 * J); fr[3][l] = (int32_t)(f2 * J);
            al[l] = a;
            live[l] = inside ? k->fps : 0.0f;
        }
        pb_vf a = vloadu(al), lv = vloadu(live);
        for (size_t j = 0; j < J; j++) {
            int32_t idx[4][PB_LANES];
            vkf key[4];
            for (int q = cubic ? 0 : 1; q < (cubic ? 4 : 3); q++) {
                for (size_t l = 0; l < PB_LANES; l++) idx[q][l] = fr[q][l] + (int32_t)j;
                key[q] = vkf_gather(k->a, idx[q], 10);
            }
            vkf r = vkf_identity();
            if (!cubic) {
                r.pos = vv3_lerp(key[1].pos, key[2].pos, a);
                r.rot = vq_slerp_shortest(key[1].rot, key[2].rot, a);
                r.scl = vv3_make(veerp(key[1].scl.x, key[2].scl.x, a), veerp(key[1].scl.y, key[2].scl.y, a),
                                 veerp(key[1].scl.z, key[2].scl.z, a));
                r.vel = vv3_scale(vv3_sub(key[2].pos, key[1].pos), lv);
                r.ang = vv3_scale(vq_to_saa(vq_abs(vq_mul(key[2].rot, vq_inv(key[1].rot)))), lv);
                r.svl = vv3_scale(vv3_log(vv3_div(key[2].scl, key[1].scl)), lv);
            } else {
                vv3 p[4], lg[4], rv[4], dp, dl, dr;
                for (int q = 0; q < 4; q++) {
                    p[q] = key[q].pos;
                    lg[q] = vv3_log(key[q].scl);
                    rv[q] = vq_to_saa(vq_abs(vq_mul(key[q].rot, vq_inv(key[1].rot))));
                }
                r.pos = vv3_hermite(p, a, &dp);
                vv3 ls = vv3_hermite(lg, a, &dl);
                vv3 th = vv3_hermite(rv, a, &dr);
                r.scl = vv3_make(vexp(ls.x), vexp(ls.y), vexp(ls.z));
                r.rot = vq_mul(vq_from_saa(th), key[1].rot);
                r.vel = vv3_scale(dp, lv);
                r.svl = vv3_scale(dl, lv);
                r.ang = vv3_scale(vjl_mul(th, dr), lv);
            }
            vkf_store_n(k->out, j * C + c, cnt, PB_PLANES, &r);
        }
    }
}
static void k_sample_linear(const pb_kargs *k) { sample_body(k, 0); }
static void k_sample_cubic(const pb_kargs *k) { sample_body(k, 1); }

/* Frame by frame (each depends on the previous), SIMD across joints: a
 * frame's joints are contiguous. */
static void k_unroll(const pb_kargs *k)
{
    size_t J = k->joints;
    const float *const *out = (const float *const *)k->out;
    for (size_t f = 0; f < k->frames; f++)
        for (size_t j = 0; j < J; j += PB_LANES) {
            size_t cnt = J - j < PB_LANES ? J - j : PB_LANES, e = f * J + j;
            vkf key = vkf_load_n(k->a, e, cnt, PB_PLANES);
            if (f > 0) {
                vkf prev = vkf_load_n(out, e - J, cnt, 10);
                key.rot = vq_sel(vlt(vq_dot(key.rot, prev.rot), vzero()), vq_neg(key.rot), key.rot);
            }
            vkf_store_n(k->out, e, cnt, PB_PLANES, &key);
        }
}

const pb_kernel_fn PB_TABLE[PB_OP_COUNT] = {
#define PB_X_KERNEL(name) [PB_OP_##name] = k_##name,
    PB_OP_LIST(PB_X_KERNEL)
#undef PB_X_KERNEL
};
