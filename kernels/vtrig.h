/* vtrig.h — the transcendental functions over pb_vf that vmath.h's algebra
 * and the op families use: sin/cos, atan2 and exp/log, each a Cephes
 * single-precision minimax polynomial (about one ulp on its reduced range)
 * behind a float-only range reduction, with compensated (_dd) forms where an
 * op needs more than float. Included by vmath.h after its derived ops and
 * error-free transformations; not on its own. */
#ifndef PB_VTRIG_H
#define PB_VTRIG_H

/* ---- sin / cos ------------------------------------------------------------------
 * Reduce by pi/2 in three parts (Cody-Waite; each n*part is exact for |n| <
 * 2^13, i.e. |x| < ~1e4), evaluate both polynomials on [-pi/4, pi/4], pick by
 * quadrant. The quadrant is n mod 4 computed in float, so no int conversion. */
#define PB_PIO2_C1 1.5703125f                     /* 8 significant bits */
#define PB_PIO2_C2 4.837512969970703125e-4f       /* 11 significant bits */
#define PB_PIO2_C3 7.54978995489188216e-8f
/* sin and cos of r in [-pi/4, pi/4] (a little beyond is fine). */
PB_VINLINE void vsincos_poly(pb_vf r, pb_vf *ps, pb_vf *pc)
{
    pb_vf z = vmul(r, r);
    pb_vf s = vfma(vfma(vset1(-1.9515295891e-4f), z, vset1(8.3321608736e-3f)), z, vset1(-1.6666654611e-1f));
    *ps = vadd(r, vmul(vmul(r, z), s));
    pb_vf c = vfma(vfma(vset1(2.443315711809948e-5f), z, vset1(-1.388731625493765e-3f)), z, vset1(4.166664568298827e-2f));
    *pc = vadd(vsub(vmul(vmul(z, z), c), vmul(vset1(0.5f), z)), vset1(1.0f));   /* small terms first */
}
/* sin and cos of r + n pi/2 from those of r. */
PB_VINLINE void vsincos_quadrant(pb_vf n, pb_vf ps, pb_vf pc, pb_vf *s, pb_vf *c)
{
    pb_vf q = vsub(n, vmul(vset1(4.0f), vfloor(vmul(n, vset1(0.25f)))));   /* 0, 1, 2, 3 */
    pb_vm odd = mor(veq(q, vset1(1.0f)), veq(q, vset1(3.0f)));
    pb_vf sv = vsel(odd, pc, ps), cv = vsel(odd, ps, pc);
    *s = vsel(vle(vset1(2.0f), q), vneg(sv), sv);
    *c = vsel(mor(veq(q, vset1(1.0f)), veq(q, vset1(2.0f))), vneg(cv), cv);
}
/* sin and cos of m vectors (m <= 2, a constant where called: the loops
 * unroll), each step for all of them before the next, so that their
 * dependency chains overlap; the same bits as m calls of vsincos. */
PB_VINLINE void vsincos_m(const pb_vf *x, pb_vf *s, pb_vf *c, int m)
{
    pb_vf n[2];
    int all0 = 1;
    for (int j = 0; j < m; j++) {
        n[j] = vround(vmul(x[j], vset1(0.63661977236758134f)));
        all0 &= vall_eq(n[j], 0.0f);
    }
    if (all0) {   /* |x| <= pi/4 everywhere: r = x and quadrant 0, the same bits */
        for (int j = 0; j < m; j++) vsincos_poly(x[j], &s[j], &c[j]);
        return;
    }
    for (int j = 0; j < m; j++) {
        pb_vf r = vsub(x[j], vmul(n[j], vset1(PB_PIO2_C1)));
        r = vsub(r, vmul(n[j], vset1(PB_PIO2_C2)));
        r = vsub(r, vmul(n[j], vset1(PB_PIO2_C3)));
        pb_vf ps, pc;
        vsincos_poly(r, &ps, &pc);
        vsincos_quadrant(n[j], ps, pc, &s[j], &c[j]);
    }
}
PB_VINLINE void vsincos(pb_vf x, pb_vf *s, pb_vf *c) { vsincos_m(&x, s, c, 1); }
/* sin and cos of x + xl, xl a correction below ~ulp(x), |x| < ~1e4. The same
 * reduction, but x - n C1 is exact (Sterbenz) and the rounding of - n C2 is
 * recovered, so the reduced argument is r + rl with rl exact to ~1e-15; the
 * polynomials run on r and rl enters to first order (its square is < 1e-11).
 * Near x = pi this keeps sin x accurate to its own ulp, not ulp(pi). */
PB_VINLINE void vsincos_dd(pb_vf x, pb_vf xl, pb_vf *s, pb_vf *c)
{
    pb_vf n = vround(vmul(x, vset1(0.63661977236758134f)));
    pb_vf r1 = vsub(x, vmul(n, vset1(PB_PIO2_C1)));
    pb_vf m2 = vmul(n, vset1(-PB_PIO2_C2));
    pb_vf r = vadd(r1, m2);
    pb_vf rl = vsub(vadd(vadd_err(r1, m2, r), xl), vmul(n, vset1(PB_PIO2_C3)));
    pb_vf ps, pc;
    vsincos_poly(r, &ps, &pc);
    vsincos_quadrant(n, vfma(pc, rl, ps), vfma(vneg(ps), rl, pc), s, c);
}
PB_VINLINE pb_vf vsin(pb_vf x) { pb_vf s, c; vsincos(x, &s, &c); return s; }
/* sin(x)/x with its limit 1 at 0. */
PB_VINLINE pb_vf vsinc(pb_vf x)
{
    return vsel(veq(x, vzero()), vset1(1.0f), vdiv(vsin(x), x));
}

/* ---- atan2 -------------------------------------------------------------------------
 * atan of t = min/max in [0, 1], with the upper range folded by
 * atan t = pi/4 + atan((t-1)/(t+1)) (one division either way), then the
 * octant fixed up with two-part pi/2 and pi so the sums keep full precision. */
#define PB_PIO4_HI 0.785398185253143310546875f     /* float(pi/4) and the rest */
#define PB_PIO4_LO -2.18556950009312e-8f
#define PB_PIO2_HI 1.57079637050628662f
#define PB_PIO2_LO -4.37113900018624e-8f
#define PB_PI_HI 3.14159274101257324f
#define PB_PI_LO -8.74227800037248e-8f
/* atan(min/max) of ax, ay >= 0 less pi/4 where *big (ratio above tan(pi/8)). */
PB_VINLINE pb_vf vatan_folded(pb_vf ax, pb_vf ay, pb_vm *big)
{
    pb_vf mx = vmax(ax, ay), mn = vmin(ax, ay);
    *big = vgt(mn, vmul(vset1(0.414213562373095f), mx));
    pb_vf num = vsel(*big, vsub(mn, mx), mn);
    pb_vf den = vsel(*big, vadd(mn, mx), mx);
    pb_vf t = vsel(veq(mx, vzero()), vzero(), vdiv(num, den));
    pb_vf z = vmul(t, t);
    pb_vf p = vfma(vfma(vfma(vset1(8.05374449538e-2f), z, vset1(-1.38776856032e-1f)), z, vset1(1.99777106478e-1f)), z,
                   vset1(-3.33329491539e-1f));
    return vadd(t, vmul(vmul(p, z), t));
}
/* atan2 of y, x >= 0 (or -0): the first quadrant, where vatan2's sign fix-ups do nothing. */
PB_VINLINE pb_vf vatan2_pos(pb_vf y, pb_vf x)
{
    pb_vm big;
    pb_vf a = vatan_folded(x, y, &big);
    pb_vf r = vadd(vsel(big, vset1(0.785398163397448f), vzero()), a);
    return vsel(vgt(y, x), vadd(vsub(vset1(PB_PIO2_HI), r), vset1(PB_PIO2_LO)), r);
}
/* atan2 of y >= 0 (+0, or NaN), any x: the upper half plane, where vatan2's y sign fix-up does nothing
 * (a vector length against a cosine: vq_log, vhalf_angle) */
PB_VINLINE pb_vf vatan2_upper(pb_vf y, pb_vf x)
{
    pb_vf r = vatan2_pos(y, vabs(x));
    return vsel(vlt(x, vzero()), vadd(vsub(vset1(PB_PI_HI), r), vset1(PB_PI_LO)), r);
}
PB_VINLINE pb_vf vatan2(pb_vf y, pb_vf x)
{
    pb_vf r = vatan2_upper(vabs(y), x);
    return vsel(vlt(y, vzero()), vneg(r), r);
}
/* Where m: k - r as hi + *lo (k = k_hi + k_lo, |k| >= |r|), the rounding of
 * the difference kept in *lo with the old *lo negated; elsewhere r and *lo. */
PB_VINLINE pb_vf vpivot_sub(pb_vm m, pb_vf k_hi, pb_vf k_lo, pb_vf r, pb_vf *lo)
{
    pb_vf k = vsel(m, k_hi, vzero()), rs = vsel(m, vneg(r), r);
    pb_vf d = vadd(k, rs);
    *lo = vadd(vadd(vadd_err_fast(k, rs, d), vsel(m, vneg(*lo), *lo)), vsel(m, k_lo, vzero()));
    return d;
}
/* atan2 as hi + *lo: the same fold and octant fix-ups, each sum with its
 * rounding error kept, so an angle near pi is not rounded to ulp(pi) = 2.4e-7. */
PB_VINLINE pb_vf vatan2_dd(pb_vf y, pb_vf x, pb_vf *lo)
{
    pb_vf ax = vabs(x), ay = vabs(y);
    pb_vm big;
    pb_vf a = vatan_folded(ax, ay, &big);
    pb_vf k = vsel(big, vset1(PB_PIO4_HI), vzero());
    pb_vf r = vadd(k, a);
    *lo = vadd(vadd_err_fast(k, a, r), vsel(big, vset1(PB_PIO4_LO), vzero()));
    r = vpivot_sub(vgt(ay, ax), vset1(PB_PIO2_HI), vset1(PB_PIO2_LO), r, lo);
    r = vpivot_sub(vlt(x, vzero()), vset1(PB_PI_HI), vset1(PB_PI_LO), r, lo);
    pb_vm neg = vlt(y, vzero());
    *lo = vsel(neg, vneg(*lo), *lo);
    return vsel(neg, vneg(r), r);
}

/* ---- exp / log ------------------------------------------------------------------------ */
/* 2^n for integer-valued n in [-126, 127]: adding 2^23 + 127 leaves n + 127 in
 * the low mantissa bits, which shifted into the exponent field is 2^n. */
PB_VINLINE pb_vf vpow2i(pb_vf n)
{
    pb_vi k = vi_sub(vasint(vadd(n, vset1(8388735.0f))), vi_set1(0x4B000000));
    return vasfloat(vi_slli(k, 23));
}
/* exp(x) for x in [-87.3, 88]; below, 0; above, clamped to exp(88). */
/* e^r for |r| <= ln 2 / 2. */
PB_VINLINE pb_vf vexp_poly(pb_vf r)
{
    pb_vf p = vfma(vfma(vfma(vfma(vfma(vset1(1.9875691500e-4f), r, vset1(1.3981999507e-3f)), r, vset1(8.3334519073e-3f)), r,
                             vset1(4.1665795894e-2f)), r, vset1(1.6666665459e-1f)), r, vset1(5.0000001201e-1f));
    return vadd(vadd(vmul(p, vmul(r, r)), r), vset1(1.0f));
}
/* m of them (m <= 3: a constant where called, the loops unroll), each step
 * for all before the next, one shortcut test for all; the same bits. */
PB_VINLINE void vexp_m(const pb_vf *x, pb_vf *y, int m)
{
    pb_vf xc[3], n[3];
    int all0 = 1;
    for (int j = 0; j < m; j++) {
        xc[j] = vclamp(x[j], -87.3f, 88.0f);
        n[j] = vround(vmul(xc[j], vset1(1.44269504088896341f)));
        all0 &= vall_eq(n[j], 0.0f);
    }
    if (all0) {   /* |x| <= ln 2 / 2 everywhere: r = x, 2^0 = 1, the same bits */
        for (int j = 0; j < m; j++) y[j] = vexp_poly(x[j]);
        return;
    }
    for (int j = 0; j < m; j++) {
        pb_vf r = vsub(xc[j], vmul(n[j], vset1(0.693359375f)));
        r = vsub(r, vmul(n[j], vset1(-2.12194440e-4f)));
        y[j] = vsel(vlt(x[j], vset1(-87.3f)), vzero(), vmul(vexp_poly(r), vpow2i(n[j])));
    }
}
PB_VINLINE pb_vf vexp(pb_vf x)
{
    pb_vf y;
    vexp_m(&x, &y, 1);
    return y;
}
/* Natural log of positive normal x: x = m 2^e with m in [sqrt(1/2), sqrt(2)).
 * The exponent field becomes a float through the 2^23 mantissa trick. */
/* log(1 + m) - m + m^2/2 over m^3, for m in [sqrt(1/2) - 1, sqrt(2) - 1). */
PB_VINLINE pb_vf vlog_poly(pb_vf m)
{
    pb_vf p = vset1(7.0376836292e-2f);
    p = vfma(p, m, vset1(-1.1514610310e-1f));
    p = vfma(p, m, vset1(1.1676998740e-1f));
    p = vfma(p, m, vset1(-1.2420140846e-1f));
    p = vfma(p, m, vset1(1.4249322787e-1f));
    p = vfma(p, m, vset1(-1.6668057665e-1f));
    p = vfma(p, m, vset1(2.0000714765e-1f));
    p = vfma(p, m, vset1(-2.4999993993e-1f));
    return vfma(p, m, vset1(3.3333331174e-1f));
}
/* Where every lane is in [sqrt(1/2), sqrt(2)) the exponent is 0 and m = x - 1
 * exactly (x / 2 doubled back), and e's terms add only +-0 to a sum that is
 * never -0: the shortcut gives the same bits (scales near 1, the common case). */
PB_VINLINE void vlog_m(const pb_vf *x, pb_vf *y, int m)   /* m <= 3, as vexp_m */
{
    const pb_vf c = vset1(0.707106781186547524f);
    int near = 1;
    for (int j = 0; j < m; j++) near &= !many(mnot(mand(vle(c, x[j]), vlt(x[j], vadd(c, c)))));   /* NaN lanes fail it */
    if (near) {
        for (int j = 0; j < m; j++) {
            pb_vf mm = vsub(x[j], vset1(1.0f)), z = vmul(mm, mm);
            y[j] = vadd(mm, vsub(vmul(vmul(vlog_poly(mm), mm), z), vmul(vset1(0.5f), z)));
        }
        return;
    }
    for (int j = 0; j < m; j++) {
        pb_vi bits = vasint(x[j]);
        pb_vf e = vsub(vasfloat(vi_or(vi_srli(bits, 23), vi_set1(0x4B000000))), vset1(8388608.0f + 126.0f));
        pb_vf mm = vasfloat(vi_or(vi_and(bits, vi_set1(0x007FFFFF)), vi_set1(0x3F000000)));   /* [0.5, 1) */
        pb_vm lo = vlt(mm, c);
        e = vsel(lo, vsub(e, vset1(1.0f)), e);
        mm = vsub(vsel(lo, vadd(mm, mm), mm), vset1(1.0f));
        pb_vf z = vmul(mm, mm);
        pb_vf r = vmul(vmul(vlog_poly(mm), mm), z);
        r = vadd(r, vmul(e, vset1(-2.12194440e-4f)));
        r = vsub(r, vmul(vset1(0.5f), z));
        y[j] = vadd(vadd(mm, r), vmul(e, vset1(0.693359375f)));
    }
}
PB_VINLINE pb_vf vlog(pb_vf x)
{
    pb_vf y;
    vlog_m(&x, &y, 1);
    return y;
}

#endif
