/* elementwise.h — the reference's per-element primitive ops: quaternion and
 * scalar functions (quat_mul ... smoothstep), blend_static(_nlerp) and the
 * AoS layout conversions, with the accurate exp/log that quat_exp/quat_log use. */

/* ---- the same, accurate at every angle (the quat_exp/quat_log ops) ---------------------
 * Near a half-angle of pi, |v| and the angle round at ulp(pi) = 2.4e-7 in
 * float, and that rounding alone moves the rotation by up to ~5e-7 rad. So
 * there they are carried as a two-part sum hi + lo (lo below an ulp of hi),
 * built with the classic error-free steps: fma gives a product's rounding
 * error, two_sum a sum's. In the double oracle this is harmless extra care. */
typedef struct { REAL hi, lo; } dd;
/* a b + c rounded once. In float the product is exact in double, so the
 * double expression is that (short of ties 2^-29 ulp wide) without a call to
 * libm's fmaf, which is emulated in software (3.5 ns) on this target. */
static REAL fma_r(REAL a, REAL b, REAL c)
{
    if (sizeof(REAL) < sizeof(double)) return (REAL)((double)a * (double)b + (double)c);
    return fma(a, b, c);
}
static REAL prod_err(REAL a, REAL b, REAL p) { return fma_r(a, b, -p); }    /* a b - p, exact */
static REAL sum_err(REAL a, REAL b, REAL s)                                 /* a + b - s, exact */
{
    REAL bb = s - a;
    return (a - (s - bb)) + (b - bb);
}
/* |v| = sqrt(S) with S = x^2 + y^2 + z^2 kept in two parts; the float root h
 * is then corrected by (S - h^2) / 2h. */
static dd v3_length_dd(vec3 v)
{
    REAL px = v.x * v.x, py = v.y * v.y, pz = v.z * v.z;
    REAL a = px + py, s = a + pz;
    REAL s_lo = sum_err(px, py, a) + sum_err(a, pz, s) + prod_err(v.x, v.x, px) + prod_err(v.y, v.y, py) +
                prod_err(v.z, v.z, pz);
    REAL h = sqrt(s);
    dd r = { h, h == R(0) ? R(0) : ((s - h * h) - prod_err(h, h, h * h) + s_lo) / (R(2) * h) };
    return r;
}
/* (hi + lo) / d, d = d.hi + d.lo, as a two-part quotient. */
static dd dd_div(dd n, dd d)
{
    REAL q = n.hi / d.hi;
    dd r = { q, (fma_r(-q, d.hi, n.hi) + n.lo - q * d.lo) / d.hi };
    return r;
}
/* a (b.hi + b.lo), rounded once. */
static REAL dd_scale(REAL a, dd b) { return fma_r(a, b.hi, a * b.lo); }

/* sin and cos of h.hi + h.lo = sin, cos of h.hi (libm reduces a float
 * argument exactly) plus the first-order terms in h.lo. */
static quat q_exp_accurate(vec3 v)
{
    dd h = v3_length_dd(v);
    if (h.hi == R(0)) return qt(R(1), v.x, v.y, v.z);
    REAL s = sin(h.hi), c = cos(h.hi);
    dd sn = { s + c * h.lo, R(0) };
    dd f = dd_div(sn, h);   /* sin |v| / |v| */
    return qt(c - s * h.lo, dd_scale(v.x, f), dd_scale(v.y, f), dd_scale(v.z, f));
}
/* atan2(|v|, w) = K + sign * atan2(|v|, |w|) with K = 0 (w >= 0) or pi: the
 * small angle from libm, K - angle as a two-part sum, and |v|'s low part
 * entering through d atan2(s, w) / ds = w (unit q). Then v times
 * angle / |v|, both in two parts, rounded once per component. */
static vec3 q_log_accurate(quat q)
{
    vec3 v = q_vec(q);
    dd s = v3_length_dd(v);
    if (s.hi == R(0)) return v;
    REAL a = atan2(s.hi, fabs(q.w));
    dd th = { a, R(0) };
    if (q.w < R(0)) {
        REAL pi_hi = R(3.14159265358979323846), pi_lo = (REAL)(3.14159265358979323846 - (double)pi_hi);
        th.hi = pi_hi - a;
        th.lo = ((pi_hi - th.hi) - a) + pi_lo;
    }
    th.lo += q.w * s.lo;
    dd f = dd_div(th, s);
    return v3(dd_scale(v.x, f), dd_scale(v.y, f), dd_scale(v.z, f));
}

void REF(quat_mul)(const KARGS *k) { FOR_EACH(k) st_q(k->out, i, q_mul(ld_q(k->a, i), ld_q(k->b, i))); }
void REF(quat_inv_mul)(const KARGS *k) { FOR_EACH(k) st_q(k->out, i, q_inv_mul(ld_q(k->a, i), ld_q(k->b, i))); }
void REF(quat_mul_inv)(const KARGS *k) { FOR_EACH(k) st_q(k->out, i, q_mul_inv(ld_q(k->a, i), ld_q(k->b, i))); }
void REF(quat_mul_vec3)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_POS_X, i, q_mul_vec3(ld_q(k->a, i), ld_v(k->b, PB_POS_X, i)));
}
void REF(quat_inv_mul_vec3)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_POS_X, i, q_inv_mul_vec3(ld_q(k->a, i), ld_v(k->b, PB_POS_X, i)));
}
void REF(quat_abs)(const KARGS *k) { FOR_EACH(k) st_q(k->out, i, q_abs(ld_q(k->a, i))); }
void REF(quat_normalize)(const KARGS *k) { FOR_EACH(k) st_q(k->out, i, q_normalize(ld_q(k->a, i))); }
void REF(quat_exp)(const KARGS *k) { FOR_EACH(k) st_q(k->out, i, q_exp_accurate(ld_v(k->a, PB_ANG_X, i))); }
void REF(quat_log)(const KARGS *k) { FOR_EACH(k) st_v(k->out, PB_ANG_X, i, q_log_accurate(ld_q(k->a, i))); }
void REF(quat_from_scaled_angle_axis)(const KARGS *k)
{
    FOR_EACH(k) st_q(k->out, i, q_exp_accurate(v3_scale(ld_v(k->a, PB_ANG_X, i), R(0.5))));
}
void REF(quat_to_scaled_angle_axis)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_ANG_X, i, v3_scale(q_log_accurate(ld_q(k->a, i)), R(2)));
}
void REF(slerp_shortest)(const KARGS *k)
{
    FOR_EACH(k) st_q(k->out, i, q_slerp_shortest(ld_q(k->a, i), ld_q(k->b, i), ALPHA(k, i)));
}
void REF(nlerp_shortest)(const KARGS *k)
{
    FOR_EACH(k) st_q(k->out, i, q_nlerp_shortest(ld_q(k->a, i), ld_q(k->b, i), ALPHA(k, i)));
}
void REF(eerp)(const KARGS *k)
{
    FOR_EACH(k) for (int c = PB_SCL_X; c <= PB_SCL_Z; c++) k->out[c][i] = eerp(k->a[c][i], k->b[c][i], ALPHA(k, i));
}
/* Scalar functions map a.pos -> out.scl (negexp(0) = 1 keeps scale padding at identity)
 * or a.pos -> out.pos / out.vel (smoothstep and its derivative are 0 at 0). */
void REF(negexp)(const KARGS *k)
{
    FOR_EACH(k) for (int c = 0; c < 3; c++) k->out[PB_SCL_X + c][i] = negexp(k->a[PB_POS_X + c][i]);
}
void REF(fast_negexp_est)(const KARGS *k)
{
    FOR_EACH(k) for (int c = 0; c < 3; c++) k->out[PB_SCL_X + c][i] = fast_negexp_est(k->a[PB_POS_X + c][i]);
}
void REF(smoothstep)(const KARGS *k)
{
    FOR_EACH(k) for (int c = 0; c < 3; c++) {
        REAL x = k->a[PB_POS_X + c][i];
        k->out[PB_POS_X + c][i] = smoothstep(x);
        k->out[PB_VEL_X + c][i] = smoothstep_dx(x);
    }
}

/* Static blend of two poses, pos/rot/scl only: lerp positions, slerp (or
 * nlerp) rotations, scales by params.scale (linear unless asked for eerp). */
static void blend_static_impl(const KARGS *k, quat (*qblend)(quat, quat, REAL))
{
    FOR_EACH(k) {
        REAL t = ALPHA(k, i);
        st_v(k->out, PB_POS_X, i, v3_lerp(ld_v(k->a, PB_POS_X, i), ld_v(k->b, PB_POS_X, i), t));
        st_q(k->out, i, qblend(ld_q(k->a, i), ld_q(k->b, i), t));
        for (int c = PB_SCL_X; c <= PB_SCL_Z; c++) k->out[c][i] = scale_blend(k->a[c][i], k->b[c][i], t, k->p.scale);
    }
}
void REF(blend_static)(const KARGS *k) { blend_static_impl(k, q_slerp_shortest); }
void REF(blend_static_nlerp)(const KARGS *k) { blend_static_impl(k, q_nlerp_shortest); }

/* Layout conversions: exactly n elements on the AoS side. */
/* The velocity arrays exactly when the pose has velocity planes (pb_run checks it). */
void REF(pose_to_aos)(const KARGS *k)
{
    for (int a = 0; a < (k->aos_out[3] ? PB_AOS_ARRAYS : 3); a++)
        for (size_t i = 0; i < k->n; i++)
            for (int c = 0; c < pb_aos_width[a]; c++)
                k->aos_out[a][i * pb_aos_width[a] + c] = k->a[pb_aos_plane[a] + c][i];
}
void REF(pose_from_aos)(const KARGS *k)
{
    for (int a = 0; a < (k->aos_in[3] ? PB_AOS_ARRAYS : 3); a++)
        for (size_t i = 0; i < k->n; i++)
            for (int c = 0; c < pb_aos_width[a]; c++)
                k->out[pb_aos_plane[a] + c][i] = k->aos_in[a][i * pb_aos_width[a] + c];
}
