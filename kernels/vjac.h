/* vjac.h — rotation-vector calculus over the pb_vf vocabulary (see
 * reference/common.h): scaled angle-axis conversions and the left Jacobian
 * of SO(3) and its inverse applied to a vector. Included by vmath.h; the
 * _sc forms take sin and cos of the half angle from a caller that has them
 * already (an exp or a pow of the same angle), saving a sincos. */

PB_VINLINE vv3 vq_to_saa(vq q) { return vv3_scale(vq_log(q), vset1(2.0f)); }
PB_VINLINE vq vq_from_saa(vv3 v) { return vq_exp(vv3_scale(v, vset1(0.5f))); }
PB_VINLINE pb_vf vv3_length(vv3 v) { return vsqrt(vv3_dot(v, v)); }

/* A, B, C of the left Jacobian of angle x: series below 0.25 rad, closed
 * forms above from sh, ch = sin, cos of x/2 (so 1 - cos x needs no
 * subtraction; any values where x < 0.25). Each side alone where every
 * lane is on it (the other's lanes would be dropped: the same bits). */
PB_VINLINE void vjac_series(pb_vf x, pb_vf *A, pb_vf *B, pb_vf *C)
{
    pb_vf x2 = vmul(x, x);
    *A = vfnma(x2, vfnma(x2, vfnma(x2, vset1(1.0f / 40320), vset1(1.0f / 720)), vset1(1.0f / 24)), vset1(0.5f));
    *B = vfnma(x2, vfnma(x2, vfnma(x2, vset1(1.0f / 362880), vset1(1.0f / 5040)), vset1(1.0f / 120)), vset1(1.0f / 6));
    *C = vfma(x2, vfma(x2, vfma(x2, vset1(1.0f / 1209600), vset1(1.0f / 30240)), vset1(1.0f / 720)), vset1(1.0f / 12));
}
PB_VINLINE void vjac_closed(pb_vf x, pb_vf sh, pb_vf ch, pb_vf *A, pb_vf *B, pb_vf *C)
{
    pb_vf x2 = vmul(x, x);
    pb_vf h = vmul(x, vset1(0.5f));
    *A = vdiv(vmul(vset1(2.0f), vmul(sh, sh)), x2);
    *B = vdiv(vsub(x, vmul(vset1(2.0f), vmul(sh, ch))), vmul(x2, x));
    *C = vdiv(vsub(vset1(1.0f), vdiv(vmul(h, ch), sh)), x2);
}
PB_VINLINE void vjac_coefs_sc(pb_vf x, pb_vf sh, pb_vf ch, pb_vf *A, pb_vf *B, pb_vf *C)
{
    pb_vm small = vlt(x, vset1(0.25f));
    if (!many(small)) {
        vjac_closed(x, sh, ch, A, B, C);
        return;
    }
    pb_vf sA, sB, sC, dA, dB, dC;
    vjac_series(x, &sA, &sB, &sC);
    if (!many(mnot(small))) {
        *A = sA, *B = sB, *C = sC;
        return;
    }
    /* keep the unused closed forms finite: x 1, sin and cos of 0.5 */
    vjac_closed(vsel(small, vset1(1.0f), x), vsel(small, vset1(0.479425538604203f), sh),
                vsel(small, vset1(0.877582561890373f), ch), &dA, &dB, &dC);
    *A = vsel(small, sA, dA);
    *B = vsel(small, sB, dB);
    *C = vsel(small, sC, dC);
}
PB_VINLINE void vjac_coefs(pb_vf x, pb_vf *A, pb_vf *B, pb_vf *C)
{
    pb_vf sh, ch;
    vsincos(vmul(vsel(vlt(x, vset1(0.25f)), vset1(1.0f), x), vset1(0.5f)), &sh, &ch);
    vjac_coefs_sc(x, sh, ch, A, B, C);
}
PB_VINLINE vv3 vjl_apply(vv3 th, vv3 u, pb_vf A, pb_vf B)
{
    vv3 tu = vv3_cross_fma(th, u);
    return vv3_fma(vv3_cross_fma(th, tu), B, vv3_fma(tu, A, u));
}
PB_VINLINE vv3 vjl_inv_apply(vv3 th, vv3 w, pb_vf C)
{
    vv3 tw = vv3_cross_fma(th, w);
    return vv3_fma(vv3_cross_fma(th, tw), C, vv3_fma(tw, vset1(-0.5f), w));
}
PB_VINLINE vv3 vjl_mul(vv3 th, vv3 u)
{
    pb_vf A, B, C;
    vjac_coefs(vv3_length(th), &A, &B, &C);
    return vjl_apply(th, u, A, B);
}
PB_VINLINE vv3 vjl_inv_mul(vv3 th, vv3 w)
{
    pb_vf A, B, C;
    vjac_coefs(vv3_length(th), &A, &B, &C);
    return vjl_inv_apply(th, w, C);
}
/* The same with x = |th| and sin, cos of x/2 given. For vjl_inv_mul_sc
 * only their ratio matters (C reads ch / sh): a quaternion's |v| and w do. */
PB_VINLINE vv3 vjl_mul_sc(vv3 th, vv3 u, pb_vf x, pb_vf sh, pb_vf ch)
{
    pb_vf A, B, C;
    vjac_coefs_sc(x, sh, ch, &A, &B, &C);
    return vjl_apply(th, u, A, B);
}
PB_VINLINE vv3 vjl_inv_mul_sc(vv3 th, vv3 w, pb_vf x, pb_vf sh, pb_vf ch)
{
    pb_vf A, B, C;
    vjac_coefs_sc(x, sh, ch, &A, &B, &C);
    return vjl_inv_apply(th, w, C);
}
/* to_saa(d) = 2h v / |v|, h = atan2(|v|, w) (v = 0: 0, as vq_log), also
 * giving s = |v| and h for vq_pow_jl_sc and vjl_inv_mul_sc (x = 2h; s and w
 * in the ratio of sin h and cos h); vhalf_angle and vsaa_from_sh are its
 * two steps, for kernels that run them in separate passes. */
PB_VINLINE pb_vf vhalf_angle(pb_vf s, pb_vf w) { return vsel(veq(s, vzero()), vzero(), vatan2_upper(s, w)); }
PB_VINLINE vv3 vsaa_from_sh(vv3 v, pb_vf s, pb_vf h)
{
    return vv3_scale(vv3_scale(v, vsel(veq(s, vzero()), vset1(1.0f), vdiv(h, s))), vset1(2.0f));
}
PB_VINLINE vv3 vq_to_saa_sh(vq d, pb_vf *s, pb_vf *h)
{
    vv3 v = vq_vec(d);
    *s = vsqrt(vv3_dot(v, v));
    *h = vhalf_angle(*s, d.w);
    return vsaa_from_sh(v, *s, *h);
}
/* d^t = from_saa(t to_saa(d)) = (cos th, sin(th) v / |v|), from s = |v|
 * and sn, cs = sin, cos of t h (vq_pow_sc), or from s and h (vq_pow_sh_m,
 * m of them at once). */
PB_VINLINE vq vq_pow_sc(vq d, pb_vf s, pb_vf t, pb_vf sn, pb_vf cs)
{
    pb_vf f = vsel(veq(s, vzero()), t, vdiv(sn, s));
    return vq_make(cs, vmul(f, d.x), vmul(f, d.y), vmul(f, d.z));
}
PB_VINLINE void vq_pow_sh_m(const vq *d, const pb_vf *s, const pb_vf *h, const pb_vf *t, vq *r, int m)   /* m <= 2, as vsincos_m */
{
    pb_vf x[2], sn[2], cs[2];
    for (int j = 0; j < m; j++) x[j] = vmul(t[j], h[j]);
    vsincos_m(x, sn, cs, m);
    for (int j = 0; j < m; j++) r[j] = vq_pow_sc(d[j], s[j], t[j], sn[j], cs[j]);
}
/* d^t and the left Jacobian of th = t to_saa(d) applied to u, given sn, cs =
 * sin, cos of t h: |th| / 2 = |t| h, whose sin and cos are +-sn and cs, so
 * one sincos serves both. */
PB_VINLINE vq vq_pow_jl_sc(vq d, pb_vf s, pb_vf h, pb_vf t, vv3 th, vv3 u, pb_vf sn, pb_vf cs, vv3 *jl)
{
    *jl = vjl_mul_sc(th, u, vmul(vmul(vabs(t), h), vset1(2.0f)), vsel(vlt(t, vzero()), vneg(sn), sn), cs);
    return vq_pow_sc(d, s, t, sn, cs);
}
/* from_saa(th) and the left Jacobian of th applied to u, sharing the half
 * angle's sincos (the same bits as vq_from_saa and vjl_mul apart). */
PB_VINLINE vq vq_from_saa_jl(vv3 th, vv3 u, vv3 *jl)
{
    pb_vf h, sh, ch;
    vq e = vq_exp_sc(vv3_scale(th, vset1(0.5f)), &h, &sh, &ch);
    *jl = vjl_mul_sc(th, u, vmul(h, vset1(2.0f)), sh, ch);
    return e;
}
