/* vmath.h — everything above the backend that the op families share, written
 * once for every ISA: derived vector ops, error-free transformations,
 * polynomial sin/cos/atan2/exp/log (vtrig.h), quaternion and vec3 algebra, kineforms,
 * rotation-vector calculus and plane load/store/gather/scatter. Math that
 * serves one op family lives in that family's file (elementwise.h, ...).
 *
 * Include after exactly one backend_*.h, which supplies pb_vf (PB_LANES float
 * lanes), pb_vm (masks), pb_vi (int32 lanes, bit tricks only), pb_vidx
 * (permutation control) and the primitive ops. Nothing here may assume a lane
 * count: PB_LANES is a property of the backend.
 *
 * Polynomials are the classic Cephes single-precision minimax fits (about one
 * ulp on their reduced ranges); range reductions use float-only tricks so no
 * backend needs float<->int conversions (SIMDe 0.7.4 lacks them for AVX-512). */
#ifndef PB_VMATH_H
#define PB_VMATH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Every helper here is forced inline: they pass 2-19 vectors by value, and a
 * call that the compiler declines to inline (gcc did for vq_mul and
 * vq_mul_vec3 inside the AVX2 fk) moves them through the stack, which cost
 * fk_static more than all its arithmetic. Only when optimizing: at -O0 (the
 * sanitizer build) forced inlining makes kernels of enormous unoptimized
 * bodies that took minutes each to compile. */
#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define PB_VINLINE static inline __attribute__((always_inline))
#else
#define PB_VINLINE static inline
#endif

PB_VINLINE pb_vf vzero(void) { return vset1(0.0f); }
PB_VINLINE pb_vf vneg(pb_vf a) { return vsub(vzero(), a); }
PB_VINLINE pb_vm vgt(pb_vf a, pb_vf b) { return vlt(b, a); }
PB_VINLINE int vall_eq(pb_vf v, float c) { return !many(mnot(veq(v, vset1(c)))); }   /* every lane == c */
/* Every lane of the m aligned vectors from p is c, bit for bit (their
 * differences from c's bits, XORed, OR to 0; for c = +0, -0 is not). */
PB_VINLINE int vall_bits_at(const float *p, size_t m, float c)
{
    pb_vi b = vasint(vset1(c)), o = vi_xor(vasint(vload(p)), b);
    for (size_t i = 1; i < m; i++) o = vi_or(o, vi_xor(vasint(vload(p + i * PB_LANES)), b));
    return !many(mnot(vi_eq(o, vi_set1(0))));
}
/* (1 - t) x + t y: exact at both ends, like the reference (fused or not). */
PB_VINLINE pb_vf vlerp(pb_vf x, pb_vf y, pb_vf t)
{
    return vfma(t, y, vmul(vsub(vset1(1.0f), t), x));
}
PB_VINLINE pb_vf vclamp(pb_vf x, float lo, float hi) { return vmin(vmax(x, vset1(lo)), vset1(hi)); }

/* ---- error-free transformations ---------------------------------------------------
 * A few steps (|v| and the angles of quaternion log/exp near pi) need more than
 * one float's precision: there a value is carried as hi + lo, and these return
 * the exact rounding error of one operation. PB_FMA_EXACT is set by backends
 * whose vfma is a real fused multiply-add (one rounding); elsewhere (SSE4.1,
 * SIMDe's portable emulation) vfma rounds twice and the product error comes
 * from Dekker's split into 12-bit halves, whose partial products are exact. */
#ifndef PB_FMA_EXACT
#define PB_FMA_EXACT 0
#endif
/* a*b - p exactly, for p = fl(a*b) (no overflow or underflow). */
PB_VINLINE pb_vf vmul_err(pb_vf a, pb_vf b, pb_vf p)
{
#if PB_FMA_EXACT
    return vfma(a, b, vneg(p));
#else
    pb_vf ca = vmul(a, vset1(4097.0f)), cb = vmul(b, vset1(4097.0f));
    pb_vf ah = vsub(ca, vsub(ca, a)), bh = vsub(cb, vsub(cb, b));
    pb_vf al = vsub(a, ah), bl = vsub(b, bh);
    return vadd(vadd(vadd(vsub(vmul(ah, bh), p), vmul(ah, bl)), vmul(al, bh)), vmul(al, bl));
#endif
}
/* a + b - s exactly, for s = fl(a + b), any magnitudes (Knuth's two-sum). */
PB_VINLINE pb_vf vadd_err(pb_vf a, pb_vf b, pb_vf s)
{
    pb_vf bb = vsub(s, a);
    return vadd(vsub(a, vsub(s, bb)), vsub(b, bb));
}
/* The same when |a| >= |b| or a = 0 (Dekker's fast two-sum: 3 operations). */
PB_VINLINE pb_vf vadd_err_fast(pb_vf a, pb_vf b, pb_vf s) { return vsub(b, vsub(s, a)); }
/* a (bh + bl) rounded once (to within a tiny fraction of an ulp). */
PB_VINLINE pb_vf vmul_dd(pb_vf a, pb_vf bh, pb_vf bl)
{
#if PB_FMA_EXACT
    return vfma(a, bh, vmul(a, bl));
#else
    pb_vf p = vmul(a, bh);
    return vadd(p, vfma(a, bl, vmul_err(a, bh, p)));
#endif
}

#include "vtrig.h"   /* sin/cos, atan2, exp/log */

/* ---- vec3 and quaternion algebra, mirroring reference/common.h -------------------- */
typedef struct { pb_vf x, y, z; } vv3;
typedef struct { pb_vf w, x, y, z; } vq;

PB_VINLINE vv3 vv3_make(pb_vf x, pb_vf y, pb_vf z) { vv3 r = { x, y, z }; return r; }
PB_VINLINE vv3 vv3_add(vv3 a, vv3 b) { return vv3_make(vadd(a.x, b.x), vadd(a.y, b.y), vadd(a.z, b.z)); }
PB_VINLINE vv3 vv3_scale(vv3 a, pb_vf s) { return vv3_make(vmul(a.x, s), vmul(a.y, s), vmul(a.z, s)); }
PB_VINLINE pb_vf vv3_dot(vv3 a, vv3 b) { return vadd(vadd(vmul(a.x, b.x), vmul(a.y, b.y)), vmul(a.z, b.z)); }
PB_VINLINE vv3 vv3_cross(vv3 a, vv3 b)
{
    return vv3_make(vsub(vmul(a.y, b.z), vmul(a.z, b.y)), vsub(vmul(a.z, b.x), vmul(a.x, b.z)),
                    vsub(vmul(a.x, b.y), vmul(a.y, b.x)));
}
/* a x b and a s + c with fused multiply-adds (see vq_mul_fma: where no test reads the result). */
PB_VINLINE vv3 vv3_cross_fma(vv3 a, vv3 b)
{
    return vv3_make(vfnma(a.z, b.y, vmul(a.y, b.z)), vfnma(a.x, b.z, vmul(a.z, b.x)), vfnma(a.y, b.x, vmul(a.x, b.y)));
}
PB_VINLINE vv3 vv3_fma(vv3 a, pb_vf s, vv3 c) { return vv3_make(vfma(a.x, s, c.x), vfma(a.y, s, c.y), vfma(a.z, s, c.z)); }
PB_VINLINE vv3 vv3_lerp(vv3 a, vv3 b, pb_vf t) { return vv3_make(vlerp(a.x, b.x, t), vlerp(a.y, b.y, t), vlerp(a.z, b.z, t)); }

PB_VINLINE vq vq_make(pb_vf w, pb_vf x, pb_vf y, pb_vf z) { vq r = { w, x, y, z }; return r; }
PB_VINLINE vq vq_neg(vq q) { return vq_make(vneg(q.w), vneg(q.x), vneg(q.y), vneg(q.z)); }
PB_VINLINE vq vq_inv(vq q) { return vq_make(q.w, vneg(q.x), vneg(q.y), vneg(q.z)); }
PB_VINLINE vv3 vq_vec(vq q) { return vv3_make(q.x, q.y, q.z); }
PB_VINLINE pb_vf vq_dot(vq a, vq b)
{
    return vadd(vadd(vmul(a.w, b.w), vmul(a.x, b.x)), vadd(vmul(a.y, b.y), vmul(a.z, b.z)));
}
PB_VINLINE vq vq_sel(pb_vm m, vq a, vq b)
{
    return vq_make(vsel(m, a.w, b.w), vsel(m, a.x, b.x), vsel(m, a.y, b.y), vsel(m, a.z, b.z));
}
PB_VINLINE vq vq_mul(vq a, vq b)
{
    return vq_make(vsub(vsub(vmul(a.w, b.w), vmul(a.x, b.x)), vadd(vmul(a.y, b.y), vmul(a.z, b.z))),
                   vadd(vadd(vmul(a.w, b.x), vmul(a.x, b.w)), vsub(vmul(a.y, b.z), vmul(a.z, b.y))),
                   vadd(vsub(vmul(a.w, b.y), vmul(a.x, b.z)), vadd(vmul(a.y, b.w), vmul(a.z, b.x))),
                   vadd(vsub(vmul(a.w, b.z), vmul(a.y, b.x)), vadd(vmul(a.x, b.y), vmul(a.z, b.w))));
}
PB_VINLINE vv3 vq_mul_vec3(vq q, vv3 v)
{
    vv3 u = vq_vec(q);
    vv3 t = vv3_scale(vv3_cross(u, v), vset1(2.0f));
    return vv3_add(vv3_add(v, vv3_scale(t, q.w)), vv3_cross(u, t));
}
/* The same products with fused multiply-adds (three roundings fewer per
 * component; vq_mul_fma 16 operations where vq_mul has 28): for compositions whose
 * result no branch or sign test reads, i.e. FK, the palette, sampling's and
 * the layers' final rotations. Not for a difference whose hemisphere is then
 * chosen (vq_abs(vq_mul(p, vq_inv(q))) near 180 degrees): there the rounding
 * order decides the arc, and it must be the reference's (vq_mul above). */
PB_VINLINE vq vq_mul_fma(vq a, vq b)
{
    return vq_make(vfnma(a.z, b.z, vfnma(a.y, b.y, vfnma(a.x, b.x, vmul(a.w, b.w)))),
                   vfnma(a.z, b.y, vfma(a.y, b.z, vfma(a.x, b.w, vmul(a.w, b.x)))),
                   vfma(a.z, b.x, vfma(a.y, b.w, vfnma(a.x, b.z, vmul(a.w, b.y)))),
                   vfma(a.z, b.w, vfma(a.x, b.y, vfnma(a.y, b.x, vmul(a.w, b.z)))));
}
PB_VINLINE vv3 vq_mul_vec3_fma(vq q, vv3 v)
{
    vv3 u = vq_vec(q), t = vv3_cross_fma(vv3_scale(u, vset1(2.0f)), v);
    return vv3_make(vfnma(u.z, t.y, vfma(u.y, t.z, vfma(q.w, t.x, v.x))), vfnma(u.x, t.z, vfma(u.z, t.x, vfma(q.w, t.y, v.y))),
                    vfnma(u.y, t.x, vfma(u.x, t.y, vfma(q.w, t.z, v.z))));
}
PB_VINLINE vq vq_abs(vq q) { return vq_sel(vlt(q.w, vzero()), vq_neg(q), q); }
PB_VINLINE vq vq_normalize(vq q)
{
    pb_vf len = vsqrt(vq_dot(q, q));
    pb_vm zero = veq(len, vzero());
    pb_vf r = vdiv(vset1(1.0f), len);
    vq n = vq_make(vmul(q.w, r), vmul(q.x, r), vmul(q.y, r), vmul(q.z, r));
    return vq_sel(zero, vq_make(vset1(1.0f), vzero(), vzero(), vzero()), n);
}
/* The fast exp and log below serve the blends and velocity ops, whose rotation
 * vectors are mostly short and whose bounds leave room; the quat_exp/quat_log
 * ops (and the scaled angle-axis ones) use the _dd versions, accurate at every
 * angle, at the price of the compensated steps. */
/* exp((0, v)), also giving h = |v|, sin h and cos h (vjl_mul_sc's, for 2v) */
PB_VINLINE vq vq_exp_sc(vv3 v, pb_vf *h, pb_vf *s, pb_vf *c)
{
    *h = vsqrt(vv3_dot(v, v));
    vsincos(*h, s, c);
    pb_vf f = vsel(veq(*h, vzero()), vset1(1.0f), vdiv(*s, *h));
    return vq_make(*c, vmul(f, v.x), vmul(f, v.y), vmul(f, v.z));
}
PB_VINLINE vq vq_exp(vv3 v)
{
    pb_vf h, s, c;
    return vq_exp_sc(v, &h, &s, &c);
}
/* atan2 form, accurate for tiny angles (see reference q_log). */
PB_VINLINE vv3 vq_log(vq q)
{
    vv3 v = vq_vec(q);
    pb_vf s = vsqrt(vv3_dot(v, v));
    pb_vf f = vsel(veq(s, vzero()), vset1(1.0f), vdiv(vatan2_upper(s, q.w), s));   /* s >= 0 */
    return vv3_scale(v, f);
}
/* Slerp on the shorter arc; the angle between the 4-vectors from atan2 of
 * |p - q| and |p + q| (see reference q_slerp_shortest), half of it phi. The
 * weights sin((1-t)th)/sin th and sin(t th)/sin th from one sincos of t th:
 * sin th = |p - q||p + q|/2 and cos th = (|p + q|^2 - |p - q|^2)/4 on the
 * unit sphere, and sin((1-t)th) = sin th cos(t th) - cos th sin(t th) (or
 * the same with t and 1 - t swapped, for t > 1/2). At th = 0 the sine ratio
 * takes its limit t (1 - t), the other weight follows through the same sum.
 * m slerps at once (m <= 2, as vsincos_m), the same bits as each alone. */
PB_VINLINE void vq_slerp_arc_m(const vq *q, const vq *p, const pb_vf *t, vq *r, int m)
{
    pb_vf dd[2], ss[2], ld[2], ls[2], th[2], u[2], x[2], sn[2], cs[2];
    pb_vm far[2];
    for (int j = 0; j < m; j++) {
        vq d = vq_make(vsub(p[j].w, q[j].w), vsub(p[j].x, q[j].x), vsub(p[j].y, q[j].y), vsub(p[j].z, q[j].z));
        vq s = vq_make(vadd(p[j].w, q[j].w), vadd(p[j].x, q[j].x), vadd(p[j].y, q[j].y), vadd(p[j].z, q[j].z));
        dd[j] = vq_dot(d, d), ss[j] = vq_dot(s, s);
    }
    for (int j = 0; j < m; j++) ld[j] = vsqrt(dd[j]), ls[j] = vsqrt(ss[j]);
    for (int j = 0; j < m; j++) {
        th[j] = vmul(vset1(2.0f), vatan2_pos(ld[j], ls[j]));
        far[j] = vgt(t[j], vset1(0.5f));   /* the weight nearer 0 first: no cancellation in the other */
        u[j] = vsel(far[j], vsub(vset1(1.0f), t[j]), t[j]);
        x[j] = vmul(u[j], th[j]);
    }
    vsincos_m(x, sn, cs, m);
    for (int j = 0; j < m; j++) {
        pb_vf s_th = vmul(vmul(ld[j], ls[j]), vset1(0.5f)), c_th = vmul(vsub(ss[j], dd[j]), vset1(0.25f));
        pb_vf wu = vsel(veq(th[j], vzero()), u[j], vdiv(sn[j], s_th)), wv = vsub(cs[j], vmul(c_th, wu));
        pb_vf wp = vsel(far[j], wv, wu), wq = vsel(far[j], wu, wv);
        r[j] = vq_make(vadd(vmul(wq, q[j].w), vmul(wp, p[j].w)), vadd(vmul(wq, q[j].x), vmul(wp, p[j].x)),
                       vadd(vmul(wq, q[j].y), vmul(wp, p[j].y)), vadd(vmul(wq, q[j].z), vmul(wp, p[j].z)));
    }
}
PB_VINLINE vq vq_slerp_arc(vq q, vq p, pb_vf t)   /* along the arc to p as given */
{
    vq r;
    vq_slerp_arc_m(&q, &p, &t, &r, 1);
    return r;
}
PB_VINLINE vq vq_hemi(vq q, vq p) { return vq_sel(vlt(vq_dot(q, p), vzero()), vq_neg(p), p); }   /* p or -p, by q */
PB_VINLINE vq vq_slerp_shortest(vq q, vq p, pb_vf t) { return vq_slerp_arc(q, vq_hemi(q, p), t); }
PB_VINLINE vq vq_nlerp_shortest(vq q, vq p, pb_vf t)
{
    p = vq_hemi(q, p);
    return vq_normalize(vq_make(vlerp(q.w, p.w, t), vlerp(q.x, p.x, t), vlerp(q.y, p.y, t), vlerp(q.z, p.z, t)));
}
/* x^(1-t) y^t for positive x, y, as x (y/x)^t: one log instead of two
 * (y/x costs half an ulp, which t then scales down). */
PB_VINLINE pb_vf veerp(pb_vf x, pb_vf y, pb_vf t) { return vmul(x, vexp(vmul(t, vlog(vdiv(y, x))))); }
/* Scales blended linearly (lin) or exponentially; lin is a constant where it is used. */
PB_VINLINE pb_vf vscale_blend(pb_vf x, pb_vf y, pb_vf t, int lin) { return lin ? vlerp(x, y, t) : veerp(x, y, t); }

/* ---- kineforms (see reference/common.h for the derivations) ------------------------------- */
typedef struct { vv3 pos; vq rot; vv3 scl, vel, ang, svl; } vkf;

PB_VINLINE vv3 vv3_sub(vv3 a, vv3 b) { return vv3_make(vsub(a.x, b.x), vsub(a.y, b.y), vsub(a.z, b.z)); }
PB_VINLINE vv3 vv3_mul(vv3 a, vv3 b) { return vv3_make(vmul(a.x, b.x), vmul(a.y, b.y), vmul(a.z, b.z)); }
PB_VINLINE vv3 vv3_div(vv3 a, vv3 b) { return vv3_make(vdiv(a.x, b.x), vdiv(a.y, b.y), vdiv(a.z, b.z)); }
/* Per axis, the three axes' logs (exps) together: vlog_m, vexp_m. */
PB_VINLINE vv3 vv3_log(vv3 a)
{
    pb_vf x[3] = { a.x, a.y, a.z }, y[3];
    vlog_m(x, y, 3);
    return vv3_make(y[0], y[1], y[2]);
}
PB_VINLINE vv3 vv3_exp(vv3 a)
{
    pb_vf x[3] = { a.x, a.y, a.z }, y[3];
    vexp_m(x, y, 3);
    return vv3_make(y[0], y[1], y[2]);
}
/* vscale_blend per axis: eerp's three logs and exps together. */
PB_VINLINE vv3 vv3_scale_blend(vv3 x, vv3 y, pb_vf t, int lin)
{
    if (lin) return vv3_lerp(x, y, t);
    vv3 l = vv3_log(vv3_div(y, x));
    return vv3_mul(x, vv3_exp(vv3_make(vmul(t, l.x), vmul(t, l.y), vmul(t, l.z))));
}
PB_VINLINE vv3 vq_inv_mul_vec3(vq q, vv3 v) { return vq_mul_vec3(vq_inv(q), v); }

PB_VINLINE vv3 vkf_mul_dir(const vkf *a, vv3 d) { return vq_mul_vec3(a->rot, vv3_mul(a->scl, d)); }
PB_VINLINE vv3 vkf_mul_pos(const vkf *a, vv3 p) { return vv3_add(a->pos, vkf_mul_dir(a, p)); }
PB_VINLINE vv3 vkf_mul_vel(const vkf *a, vv3 p, vv3 v)
{
    vv3 lever = vv3_cross(a->ang, vkf_mul_dir(a, p));
    return vv3_add(vv3_add(a->vel, lever), vkf_mul_dir(a, vv3_add(vv3_mul(a->svl, p), v)));
}
PB_VINLINE vkf vkf_div(const vkf *a, const vkf *b)
{
    vkf r;
    vv3 d = vv3_sub(b->pos, a->pos);
    r.pos = vv3_div(vq_inv_mul_vec3(a->rot, d), a->scl);
    r.rot = vq_mul(vq_inv(a->rot), b->rot);
    r.scl = vv3_div(b->scl, a->scl);
    vv3 rel = vv3_sub(vv3_sub(b->vel, a->vel), vv3_cross(a->ang, d));
    r.vel = vv3_sub(vv3_div(vq_inv_mul_vec3(a->rot, rel), a->scl), vv3_mul(a->svl, r.pos));
    r.ang = vq_inv_mul_vec3(a->rot, vv3_sub(b->ang, a->ang));
    r.svl = vv3_sub(b->svl, a->svl);
    return r;
}
PB_VINLINE vkf vkf_identity(void)
{
    vkf r;
    pb_vf z = vzero(), o = vset1(1.0f);
    r.pos = r.vel = r.ang = r.svl = vv3_make(z, z, z);
    r.scl = vv3_make(o, o, o);
    r.rot = vq_make(o, z, z, z);
    return r;
}

/* ---- planes ------------------------------------------------------------------------------ */
/* Whole vectors from and to planes at element i: aligned (al, a constant where called: vload) or at any
 * alignment (vloadu). */
PB_VINLINE pb_vf vload_al(const float *p, int al) { return al ? vload(p) : vloadu(p); }
PB_VINLINE void vstore_al(float *p, pb_vf v, int al)
{
    if (al) vstore(p, v);
    else vstoreu(p, v);
}
PB_VINLINE vq vq_load_al(const float *const *pl, size_t i, int al)
{
    return vq_make(vload_al(pl[PB_ROT_W] + i, al), vload_al(pl[PB_ROT_X] + i, al), vload_al(pl[PB_ROT_Y] + i, al),
                   vload_al(pl[PB_ROT_Z] + i, al));
}
PB_VINLINE void vq_store_al(float *const *pl, size_t i, vq q, int al)
{
    vstore_al(pl[PB_ROT_W] + i, q.w, al); vstore_al(pl[PB_ROT_X] + i, q.x, al);
    vstore_al(pl[PB_ROT_Y] + i, q.y, al); vstore_al(pl[PB_ROT_Z] + i, q.z, al);
}
PB_VINLINE vv3 vv3_load_al(const float *const *pl, int first, size_t i, int al)
{
    return vv3_make(vload_al(pl[first] + i, al), vload_al(pl[first + 1] + i, al), vload_al(pl[first + 2] + i, al));
}
PB_VINLINE void vv3_store_al(float *const *pl, int first, size_t i, vv3 v, int al)
{
    vstore_al(pl[first] + i, v.x, al); vstore_al(pl[first + 1] + i, v.y, al); vstore_al(pl[first + 2] + i, v.z, al);
}
PB_VINLINE vq vq_load(const float *const *pl, size_t i) { return vq_load_al(pl, i, 1); }
PB_VINLINE void vq_store(float *const *pl, size_t i, vq q) { vq_store_al(pl, i, q, 1); }
PB_VINLINE vv3 vv3_load(const float *const *pl, int first, size_t i) { return vv3_load_al(pl, first, i, 1); }
PB_VINLINE void vv3_store(float *const *pl, int first, size_t i, vv3 v) { vv3_store_al(pl, first, i, v, 1); }
/* The composition a b of two kineforms with velocities (a = parent), read
 * from planes a at ia and b at ib and written to out at io: position,
 * velocity, angular velocity, rotation, scale, scale rate, each stored as
 * soon as computed and each input loaded where first used. Composed in
 * registers from two loaded vkfs (38 inputs and 19 results live at once), a
 * third of the AVX2 crowd FK's instructions were spills (tools/icount.sh:
 * 45.5 -> 35.6 instructions per joint). Each plane group of a and b is read
 * before out's is written, so out may be a or b (at the same element). The
 * terms are vkf_mul_pos's and vkf_mul_vel's, in their order: the same bits.
 * al (a constant where called): every element's vectors aligned, else any alignment. */
PB_VINLINE void vkf_mul_planes_al(const float *const *a, size_t ia, const float *const *b, size_t ib,
                                  float *const *out, size_t io, int al)
{
    vq ar = vq_load_al(a, ia, al);
    vv3 as = vv3_load_al(a, PB_SCL_X, ia, al), bp = vv3_load_al(b, PB_POS_X, ib, al);
    vv3 d = vq_mul_vec3_fma(ar, vv3_mul(as, bp));   /* vkf_mul_dir(a, b.pos) */
    vv3_store_al(out, PB_POS_X, io, vv3_add(vv3_load_al(a, PB_POS_X, ia, al), d), al);
    vv3 aw = vv3_load_al(a, PB_ANG_X, ia, al);
    vv3 sv = vv3_add(vv3_mul(vv3_load_al(a, PB_SVL_X, ia, al), bp), vv3_load_al(b, PB_VEL_X, ib, al));
    vv3_store_al(out, PB_VEL_X, io, vv3_add(vv3_add(vv3_load_al(a, PB_VEL_X, ia, al), vv3_cross(aw, d)),
                                            vq_mul_vec3_fma(ar, vv3_mul(as, sv))), al);
    vv3_store_al(out, PB_ANG_X, io, vv3_add(aw, vq_mul_vec3_fma(ar, vv3_load_al(b, PB_ANG_X, ib, al))), al);
    vq_store_al(out, io, vq_mul_fma(ar, vq_load_al(b, ib, al)), al);
    vv3_store_al(out, PB_SCL_X, io, vv3_mul(as, vv3_load_al(b, PB_SCL_X, ib, al)), al);
    vv3_store_al(out, PB_SVL_X, io, vv3_add(vv3_load_al(a, PB_SVL_X, ia, al), vv3_load_al(b, PB_SVL_X, ib, al)), al);
}
PB_VINLINE void vkf_mul_planes(const float *const *a, size_t ia, const float *const *b, size_t ib, float *const *out,
                               size_t io)
{
    vkf_mul_planes_al(a, ia, b, ib, out, io, 1);
}

PB_VINLINE vkf vkf_load(const float *const *pl, size_t i)
{
    vkf k;
    k.pos = vv3_load(pl, PB_POS_X, i); k.rot = vq_load(pl, i); k.scl = vv3_load(pl, PB_SCL_X, i);
    k.vel = vv3_load(pl, PB_VEL_X, i); k.ang = vv3_load(pl, PB_ANG_X, i); k.svl = vv3_load(pl, PB_SVL_X, i);
    return k;
}
PB_VINLINE void vkf_store(float *const *pl, size_t i, const vkf *k)
{
    vv3_store(pl, PB_POS_X, i, k->pos); vq_store(pl, i, k->rot); vv3_store(pl, PB_SCL_X, i, k->scl);
    vv3_store(pl, PB_VEL_X, i, k->vel); vv3_store(pl, PB_ANG_X, i, k->ang); vv3_store(pl, PB_SVL_X, i, k->svl);
}
/* The point ops read only the planes they need. */
static inline vkf vkf_load_transform(const float *const *pl, size_t i)
{
    vkf a = vkf_identity();
    a.pos = vv3_load(pl, PB_POS_X, i); a.rot = vq_load(pl, i); a.scl = vv3_load(pl, PB_SCL_X, i);
    return a;
}

#include "vjac.h"   /* rotation-vector calculus */

PB_VINLINE vv3 vv3_sel(pb_vm m, vv3 a, vv3 b) { return vv3_make(vsel(m, a.x, b.x), vsel(m, a.y, b.y), vsel(m, a.z, b.z)); }

/* Kineforms loaded, stored, gathered and scattered component by component:
 * the first np planes are live, 10 = pos/rot/scl (static transforms) or 19
 * (with velocities); the rest are the identity's constants. (A version going
 * through an array of 19 vectors spent a third of fk_static's time filling
 * and spilling that array.) */
PB_VINLINE pb_vf vload_n(const float *p, size_t cnt, float fill)
{
    if (cnt == PB_LANES) return vloadu(p);
#ifdef PB_PARTIAL_MASKED
    return vload_part(p, cnt, fill);
#else
    float buf[PB_LANES];
    for (size_t l = 0; l < PB_LANES; l++) buf[l] = fill;
    memcpy(buf, p, cnt * sizeof(float));
    return vloadu(buf);
#endif
}
PB_VINLINE void vstore_n(float *p, size_t cnt, pb_vf v)
{
    if (cnt == PB_LANES) {
        vstoreu(p, v);
        return;
    }
#ifdef PB_PARTIAL_MASKED
    vstore_part(p, cnt, v);
#else
    float buf[PB_LANES];
    vstoreu(buf, v);
    memcpy(p, buf, cnt * sizeof(float));
#endif
}
/* cnt (1..PB_LANES) elements from i, any alignment; a partial vector is a
 * masked move where the backend has one (PB_PARTIAL_MASKED: native AVX-512
 * and AVX2), else goes through a buffer, so nothing past i + cnt is touched. */
PB_VINLINE vv3 vv3_load_n(const float *const *pl, int first, size_t i, size_t cnt)
{
    return vv3_make(vload_n(pl[first] + i, cnt, 0), vload_n(pl[first + 1] + i, cnt, 0), vload_n(pl[first + 2] + i, cnt, 0));
}
PB_VINLINE vq vq_load_n(const float *const *pl, size_t i, size_t cnt)
{
    return vq_make(vload_n(pl[PB_ROT_W] + i, cnt, 1), vload_n(pl[PB_ROT_X] + i, cnt, 0), vload_n(pl[PB_ROT_Y] + i, cnt, 0),
                   vload_n(pl[PB_ROT_Z] + i, cnt, 0));
}
PB_VINLINE vkf vkf_load_n(const float *const *pl, size_t i, size_t cnt, int np)
{
    vkf k = vkf_identity();
    k.pos = vv3_load_n(pl, PB_POS_X, i, cnt);
    k.rot = vq_load_n(pl, i, cnt);
    k.scl = vv3_make(vload_n(pl[PB_SCL_X] + i, cnt, 1), vload_n(pl[PB_SCL_Y] + i, cnt, 1), vload_n(pl[PB_SCL_Z] + i, cnt, 1));
    if (np == PB_PLANES) {
        k.vel = vv3_load_n(pl, PB_VEL_X, i, cnt);
        k.ang = vv3_load_n(pl, PB_ANG_X, i, cnt);
        k.svl = vv3_load_n(pl, PB_SVL_X, i, cnt);
    }
    return k;
}
PB_VINLINE void vv3_store_n(float *const *pl, int first, size_t i, size_t cnt, vv3 v)
{
    vstore_n(pl[first] + i, cnt, v.x); vstore_n(pl[first + 1] + i, cnt, v.y); vstore_n(pl[first + 2] + i, cnt, v.z);
}
PB_VINLINE void vkf_store_n(float *const *pl, size_t i, size_t cnt, int np, const vkf *k)
{
    vv3_store_n(pl, PB_POS_X, i, cnt, k->pos);
    vstore_n(pl[PB_ROT_W] + i, cnt, k->rot.w); vstore_n(pl[PB_ROT_X] + i, cnt, k->rot.x);
    vstore_n(pl[PB_ROT_Y] + i, cnt, k->rot.y); vstore_n(pl[PB_ROT_Z] + i, cnt, k->rot.z);
    vv3_store_n(pl, PB_SCL_X, i, cnt, k->scl);
    if (np == PB_PLANES) {
        vv3_store_n(pl, PB_VEL_X, i, cnt, k->vel);
        vv3_store_n(pl, PB_ANG_X, i, cnt, k->ang);
        vv3_store_n(pl, PB_SVL_X, i, cnt, k->svl);
    }
}
PB_VINLINE vv3 vv3_gather(const float *const *pl, int first, const int32_t *idx)
{
    return vv3_make(vgather(pl[first], idx), vgather(pl[first + 1], idx), vgather(pl[first + 2], idx));
}
PB_VINLINE vkf vkf_gather(const float *const *pl, const int32_t *idx, int np)
{
    vkf k = vkf_identity();
    k.pos = vv3_gather(pl, PB_POS_X, idx);
    k.rot = vq_make(vgather(pl[PB_ROT_W], idx), vgather(pl[PB_ROT_X], idx), vgather(pl[PB_ROT_Y], idx),
                    vgather(pl[PB_ROT_Z], idx));
    k.scl = vv3_gather(pl, PB_SCL_X, idx);
    if (np == PB_PLANES) {
        k.vel = vv3_gather(pl, PB_VEL_X, idx);
        k.ang = vv3_gather(pl, PB_ANG_X, idx);
        k.svl = vv3_gather(pl, PB_SVL_X, idx);
    }
    return k;
}
/* Scatter by index; repeated indices must carry equal values (they do in the
 * level schedule: padding repeats an element and recomputes it identically). */
PB_VINLINE void vscatter(float *base, const int32_t *idx, pb_vf v)
{
    float buf[PB_LANES];
    vstoreu(buf, v);
    for (int l = 0; l < PB_LANES; l++) base[idx[l]] = buf[l];
}
PB_VINLINE void vv3_scatter(float *const *pl, int first, const int32_t *idx, vv3 v)
{
    vscatter(pl[first], idx, v.x); vscatter(pl[first + 1], idx, v.y); vscatter(pl[first + 2], idx, v.z);
}
PB_VINLINE void vkf_scatter(float *const *pl, const int32_t *idx, int np, const vkf *k)
{
    vv3_scatter(pl, PB_POS_X, idx, k->pos);
    vscatter(pl[PB_ROT_W], idx, k->rot.w); vscatter(pl[PB_ROT_X], idx, k->rot.x);
    vscatter(pl[PB_ROT_Y], idx, k->rot.y); vscatter(pl[PB_ROT_Z], idx, k->rot.z);
    vv3_scatter(pl, PB_SCL_X, idx, k->scl);
    if (np == PB_PLANES) {
        vv3_scatter(pl, PB_VEL_X, idx, k->vel);
        vv3_scatter(pl, PB_ANG_X, idx, k->ang);
        vv3_scatter(pl, PB_SVL_X, idx, k->svl);
    }
}
PB_VINLINE vkf vkf_sel(pb_vm m, const vkf *a, const vkf *b)
{
    vkf r;
    r.pos = vv3_sel(m, a->pos, b->pos);
    r.rot = vq_sel(m, a->rot, b->rot);
    r.scl = vv3_sel(m, a->scl, b->scl);
    r.vel = vv3_sel(m, a->vel, b->vel);
    r.ang = vv3_sel(m, a->ang, b->ang);
    r.svl = vv3_sel(m, a->svl, b->svl);
    return r;
}
/* Composition of the transform part only (fk_static). */
PB_VINLINE vkf vkf_mul_static(const vkf *a, const vkf *b)
{
    vkf r = vkf_identity();
    r.pos = vkf_mul_pos(a, b->pos);
    r.rot = vq_mul(a->rot, b->rot);
    r.scl = vv3_mul(a->scl, b->scl);
    return r;
}

#endif
