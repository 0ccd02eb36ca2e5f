/* ref_body.h — the scalar reference of every op, written once over REAL.
 *
 * Included by ref_f32.c (REAL = float: the reference and the "scalar" baseline
 * variant) and ref_f64.c (REAL = double: the accuracy oracle). Readable first:
 * per element, straight from the formulas (Holden, "Propagating Velocities
 * through Animation Systems", and the usual quaternion algebra). tgmath.h
 * picks sinf/sin etc. from the argument type, and R() keeps constants in REAL
 * so the float build really computes in float.
 *
 * The includer defines REAL, KARGS (pb_kargs / pb_kargs_f64), REF(name) (the
 * function name) and REF_TABLE / REF_FN_T (the table symbol and its type). */
#include <tgmath.h>
#include <string.h>
#include "internal.h"

#define R(x) ((REAL)(x))

typedef struct { REAL w, x, y, z; } quat;
typedef struct { REAL x, y, z; } vec3;

/* ---- vec3 ------------------------------------------------------------------ */
static vec3 v3(REAL x, REAL y, REAL z) { vec3 r = { x, y, z }; return r; }
static vec3 v3_add(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static vec3 v3_scale(vec3 a, REAL s) { return v3(a.x * s, a.y * s, a.z * s); }
static REAL v3_length(vec3 a) { return sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }
static vec3 v3_cross(vec3 a, vec3 b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* lerp as (1-t)x + t y: exact at both ends (x + t(y-x) is not at t = 1). */
static REAL lerp(REAL x, REAL y, REAL t) { return (R(1) - t) * x + t * y; }
static vec3 v3_lerp(vec3 a, vec3 b, REAL t) { return v3(lerp(a.x, b.x, t), lerp(a.y, b.y, t), lerp(a.z, b.z, t)); }
static vec3 v3_sub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static vec3 v3_mul(vec3 a, vec3 b) { return v3(a.x * b.x, a.y * b.y, a.z * b.z); }
static vec3 v3_div(vec3 a, vec3 b) { return v3(a.x / b.x, a.y / b.y, a.z / b.z); }
static vec3 v3_log(vec3 a) { return v3(log(a.x), log(a.y), log(a.z)); }

/* ---- scalar functions ---------------------------------------------------------- */
/* sin(x)/x, with its limit 1 at 0 (libm's sin is accurate for tiny x, so the
 * ratio is too). */
static REAL sinc(REAL x) { return x == R(0) ? R(1) : sin(x) / x; }
static REAL negexp(REAL x) { return exp(-x); }
/* Holden's rational approximation of exp(-x) for x >= 0. */
static REAL fast_negexp_est(REAL x) { return R(1) / (R(1) + x + R(0.48) * x * x + R(0.235) * x * x * x); }
static REAL smoothstep(REAL x)
{
    if (x <= R(0)) return R(0);
    if (x >= R(1)) return R(1);
    return x * x * (R(3) - R(2) * x);
}
static REAL smoothstep_dx(REAL x)
{
    if (x <= R(0) || x >= R(1)) return R(0);
    return R(6) * x * (R(1) - x);
}
/* Exponential interpolation x^(1-t) y^t: the right blend for scales. */
static REAL eerp(REAL x, REAL y, REAL t) { return pow(x, R(1) - t) * pow(y, t); }

/* ---- quaternions (w, x, y, z), Hamilton product ----------------------------- */
static quat qt(REAL w, REAL x, REAL y, REAL z) { quat r = { w, x, y, z }; return r; }
static quat q_neg(quat q) { return qt(-q.w, -q.x, -q.y, -q.z); }
static quat q_inv(quat q) { return qt(q.w, -q.x, -q.y, -q.z); }
/* Summed in pairs, in the same order as the kernels' vq_dot: ops that choose
 * a hemisphere by the dot's sign (unroll, the shorter-arc blends) then break
 * exact ties alike everywhere. */
static REAL q_dot(quat a, quat b) { return (a.w * b.w + a.x * b.x) + (a.y * b.y + a.z * b.z); }
static vec3 q_vec(quat q) { return v3(q.x, q.y, q.z); }

static quat q_mul(quat a, quat b)
{
    return qt(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
              a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
              a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}
static quat q_inv_mul(quat a, quat b) { return q_mul(q_inv(a), b); }
static quat q_mul_inv(quat a, quat b) { return q_mul(a, q_inv(b)); }

/* Rotate v by unit q: v + w t + u x t with t = 2 u x v, u = q.xyz. */
static vec3 q_mul_vec3(quat q, vec3 v)
{
    vec3 u = q_vec(q);
    vec3 t = v3_scale(v3_cross(u, v), R(2));
    return v3_add(v3_add(v, v3_scale(t, q.w)), v3_cross(u, t));
}
static vec3 q_inv_mul_vec3(quat q, vec3 v) { return q_mul_vec3(q_inv(q), v); }

/* The representative with w >= 0 (q and -q are the same rotation). */
static quat q_abs(quat q) { return q.w < R(0) ? q_neg(q) : q; }

/* Unit quaternion; the zero quaternion has no direction and maps to identity. */
static quat q_normalize(quat q)
{
    REAL len = sqrt(q_dot(q, q));
    if (len == R(0)) return qt(R(1), R(0), R(0), R(0));
    return qt(q.w / len, q.x / len, q.y / len, q.z / len);
}

/* exp of the pure quaternion (0, v): (cos|v|, sin|v| v/|v|). */
static quat q_exp(vec3 v)
{
    REAL h = v3_length(v);
    REAL s = sinc(h);
    return qt(cos(h), s * v.x, s * v.y, s * v.z);
}

/* log of a unit quaternion: half-angle times axis. atan2(|v|, w) keeps full
 * relative precision for tiny angles, where acos(w) has none left (w rounds to
 * 1 below about 1e-4 rad in float). */
static vec3 q_log(quat q)
{
    vec3 v = q_vec(q);
    REAL s = v3_length(v);
    REAL f = s == R(0) ? R(1) : atan2(s, q.w) / s;
    return v3_scale(v, f);
}

static quat q_from_scaled_angle_axis(vec3 v) { return q_exp(v3_scale(v, R(0.5))); }
static vec3 q_to_scaled_angle_axis(quat q) { return v3_scale(q_log(q), R(2)); }

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

/* Slerp along the shorter arc. The angle between the two 4-vectors is taken
 * as 2 atan2(|p - q|, |p + q|), accurate at every angle (acos(dot) is not near
 * 0, and the classic sin(t th)/sin(th) weights divide 0 by 0 for identical
 * inputs: the NaN a well-known peer returns). Weights are written with sinc so
 * th -> 0 falls back smoothly to lerp weights. */
static quat q_slerp_shortest(quat q, quat p, REAL t)
{
    if (q_dot(q, p) < R(0)) p = q_neg(p);
    quat d = qt(p.w - q.w, p.x - q.x, p.y - q.y, p.z - q.z);
    quat s = qt(p.w + q.w, p.x + q.x, p.y + q.y, p.z + q.z);
    REAL th = R(2) * atan2(sqrt(q_dot(d, d)), sqrt(q_dot(s, s)));
    REAL wq = (R(1) - t) * sinc((R(1) - t) * th) / sinc(th);
    REAL wp = t * sinc(t * th) / sinc(th);
    return qt(wq * q.w + wp * p.w, wq * q.x + wp * p.x, wq * q.y + wp * p.y, wq * q.z + wp * p.z);
}

static quat q_nlerp_shortest(quat q, quat p, REAL t)
{
    if (q_dot(q, p) < R(0)) p = q_neg(p);
    return q_normalize(qt(lerp(q.w, p.w, t), lerp(q.x, p.x, t), lerp(q.y, p.y, t), lerp(q.z, p.z, t)));
}

/* ---- kineforms: a transform and its velocities ---------------------------------------
 * Conventions (ops.h): vel = dp/dt and ang (d rot/dt = 1/2 ang rot) in the
 * parent frame; svl = d(log scl)/dt. A kineform maps a child point x to
 * pos + rot (scl * x). The velocity terms below are the time derivatives of
 * the transform terms, nothing more: differentiate and they follow. */
typedef struct { vec3 pos; quat rot; vec3 scl, vel, ang, svl; } kform;

/* Direction, point and point velocity through a (moving) kineform. */
static vec3 kf_mul_dir(kform a, vec3 d) { return q_mul_vec3(a.rot, v3_mul(a.scl, d)); }
static vec3 kf_mul_pos(kform a, vec3 p) { return v3_add(a.pos, kf_mul_dir(a, p)); }
static vec3 kf_mul_vel(kform a, vec3 p, vec3 v)
{
    /* d/dt [a.pos + a.rot (a.scl * p)]: translation + rotation leverage +
     * scale expansion + the point's own motion */
    vec3 lever = v3_cross(a.ang, kf_mul_dir(a, p));
    vec3 inner = v3_add(v3_mul(a.svl, p), v);
    return v3_add(v3_add(a.vel, lever), kf_mul_dir(a, inner));
}

/* a o b: child b (expressed in a's frame) in a's parent frame. */
static kform kf_mul(kform a, kform b)
{
    kform r;
    r.pos = kf_mul_pos(a, b.pos);
    r.rot = q_mul(a.rot, b.rot);
    r.scl = v3_mul(a.scl, b.scl);
    r.vel = kf_mul_vel(a, b.pos, b.vel);
    r.ang = v3_add(a.ang, q_mul_vec3(a.rot, b.ang));
    r.svl = v3_add(a.svl, b.svl);
    return r;
}

/* inv(a) o b: b expressed in a's frame; kf_mul(a, kf_div(a, b)) = b exactly,
 * non-uniform scales included (the point map is inverted directly rather than
 * through an inverse kineform, which non-uniform scale would make a shear). */
static kform kf_div(kform a, kform b)
{
    kform r;
    vec3 d = v3_sub(b.pos, a.pos);
    r.pos = v3_div(q_inv_mul_vec3(a.rot, d), a.scl);
    r.rot = q_inv_mul(a.rot, b.rot);
    r.scl = v3_div(b.scl, a.scl);
    /* d/dt of pos: un-rotate the relative velocity (minus a's rotation
     * leverage), un-scale it, and remove a's scale expansion */
    vec3 rel = v3_sub(v3_sub(b.vel, a.vel), v3_cross(a.ang, d));
    r.vel = v3_sub(v3_div(q_inv_mul_vec3(a.rot, rel), a.scl), v3_mul(a.svl, r.pos));
    r.ang = q_inv_mul_vec3(a.rot, v3_sub(b.ang, a.ang));
    r.svl = v3_sub(b.svl, a.svl);
    return r;
}

static kform kf_identity(void)
{
    kform r = { v3(R(0), R(0), R(0)), qt(R(1), R(0), R(0), R(0)), v3(R(1), R(1), R(1)),
                v3(R(0), R(0), R(0)), v3(R(0), R(0), R(0)), v3(R(0), R(0), R(0)) };
    return r;
}
static kform kf_inv(kform a) { return kf_div(a, kf_identity()); }

/* ---- rotation-vector calculus -----------------------------------------------------------
 * For a rotation vector th (angle |th| = x, rotation exp(th / 2)), the left
 * Jacobian J maps d(th)/dt to the angular velocity: w = J(th) d(th)/dt, with
 *   J(th) u     = u + A(x) th x u + B(x) th x (th x u),
 *   J(th)^-1 w  = w - 1/2 th x w + C(x) th x (th x w),
 *   A = (1 - cos x) / x^2,  B = (x - sin x) / x^3,  C = (1 - (x/2) cot(x/2)) / x^2.
 * All three lose their digits to cancellation near 0: below 0.25 rad their
 * Taylor series (to x^6; next terms < 4e-10) take over. C is finite up to pi. */
static void jacobian_coefs(REAL x, REAL *A, REAL *B, REAL *C)
{
    REAL x2 = x * x;
    if (x < R(0.25)) {
        *A = R(1) / R(2) - x2 * (R(1) / R(24) - x2 * (R(1) / R(720) - x2 / R(40320)));
        *B = R(1) / R(6) - x2 * (R(1) / R(120) - x2 * (R(1) / R(5040) - x2 / R(362880)));
        *C = R(1) / R(12) + x2 * (R(1) / R(720) + x2 * (R(1) / R(30240) + x2 / R(1209600)));
        return;
    }
    REAL h = x / R(2), sh = sin(h), ch = cos(h);
    *A = R(2) * sh * sh / x2;                     /* 1 - cos x = 2 sin^2(x/2) */
    *B = (x - R(2) * sh * ch) / (x2 * x);
    *C = (R(1) - h * ch / sh) / x2;
}
static vec3 jl_mul(vec3 th, vec3 u)
{
    REAL A, B, C;
    jacobian_coefs(v3_length(th), &A, &B, &C);
    vec3 tu = v3_cross(th, u);
    return v3_add(v3_add(u, v3_scale(tu, A)), v3_scale(v3_cross(th, tu), B));
}
static vec3 jl_inv_mul(vec3 th, vec3 w)
{
    REAL A, B, C;
    jacobian_coefs(v3_length(th), &A, &B, &C);
    vec3 tw = v3_cross(th, w);
    return v3_add(v3_sub(w, v3_scale(tw, R(0.5))), v3_scale(v3_cross(th, tw), C));
}

/* ---- blends with velocities ------------------------------------------------------------
 * Slerp written in world form: slerp(q, p, t) = E q with E = exp(t rho / 2)
 * and rho = 2 log(p conj(q)) (p on q's hemisphere). Its exact angular
 * velocity follows from the chain rule through the Jacobians:
 *   w_d = w_p - rot(d, w_q)          (d = p conj(q))
 *   rho' = J(rho)^-1 w_d
 *   th = t rho,  th' = t' rho + t rho'
 *   w = J(th) th' + rot(E, w_q).
 * (Lerping w_q, w_p and adding t' rho is exact only when q = p.) */
static vec3 slerp_ang(quat q, vec3 wq, quat p, vec3 wp, REAL t, REAL tdot)
{
    if (q_dot(q, p) < R(0)) p = q_neg(p);
    quat d = q_abs(q_mul_inv(p, q));
    vec3 rho = q_to_scaled_angle_axis(d);
    vec3 wd = v3_sub(wp, q_mul_vec3(d, wq));
    vec3 rho_dot = jl_inv_mul(rho, wd);
    vec3 th = v3_scale(rho, t);
    vec3 th_dot = v3_add(v3_scale(rho, tdot), v3_scale(rho_dot, t));
    quat E = q_from_scaled_angle_axis(th);
    return v3_add(jl_mul(th, th_dot), q_mul_vec3(E, wq));
}
/* blend(a, b, t, t'): blend_static's pose with exact velocities (t' = alpha_vel). */
static kform kf_blend(kform a, kform b, REAL t, REAL tdot)
{
    kform r;
    r.pos = v3_lerp(a.pos, b.pos, t);
    r.rot = q_slerp_shortest(a.rot, b.rot, t);
    r.scl = v3(eerp(a.scl.x, b.scl.x, t), eerp(a.scl.y, b.scl.y, t), eerp(a.scl.z, b.scl.z, t));
    r.vel = v3_add(v3_lerp(a.vel, b.vel, t), v3_scale(v3_sub(b.pos, a.pos), tdot));
    r.ang = slerp_ang(a.rot, a.ang, b.rot, b.ang, t, tdot);
    r.svl = v3_add(v3_lerp(a.svl, b.svl, t), v3_scale(v3_log(v3_div(b.scl, a.scl)), tdot));
    return r;
}

/* Additive layers: b is a delta (offset position, delta rotation, scale
 * ratio) applied with weight w to base a, in the joint's parent frame
 * (world) or its own frame (local). */
static kform kf_additive_static(kform a, kform b, REAL w, int local)
{
    kform r = a;
    quat dq = q_from_scaled_angle_axis(v3_scale(q_to_scaled_angle_axis(q_abs(b.rot)), w));
    r.pos = v3_add(a.pos, v3_scale(b.pos, w));
    r.rot = local ? q_mul(a.rot, dq) : q_mul(dq, a.rot);
    r.scl = v3(a.scl.x * pow(b.scl.x, w), a.scl.y * pow(b.scl.y, w), a.scl.z * pow(b.scl.z, w));
    return r;
}
/* Local additive with velocities, the delta animating (b's velocities, in
 * the joint's frame) and the weight changing at w' (alpha_vel):
 * R = a.rot D, D = exp(w rho_b / 2). */
static kform kf_additive(kform a, kform b, REAL w, REAL wdot)
{
    kform r = kf_additive_static(a, b, w, 1);
    quat bq = q_abs(b.rot);
    vec3 rho = q_to_scaled_angle_axis(bq);
    vec3 rho_dot = jl_inv_mul(rho, b.ang);
    vec3 th = v3_scale(rho, w);
    vec3 th_dot = v3_add(v3_scale(rho, wdot), v3_scale(rho_dot, w));
    r.vel = v3_add(v3_add(a.vel, v3_scale(b.vel, w)), v3_scale(b.pos, wdot));
    r.ang = v3_add(a.ang, q_mul_vec3(a.rot, jl_mul(th, th_dot)));
    r.svl = v3_add(v3_add(a.svl, v3_scale(b.svl, w)), v3_scale(v3_log(b.scl), wdot));
    return r;
}

/* ---- inertialization ---------------------------------------------------------------------
 * At the transition, the offset from destination to source: positions and
 * velocities by difference, rotation as a world-frame delta on the shorter
 * arc (the article leaves quat_abs out here, so a sign flip between the
 * poses would unwind a full turn), scale as a ratio, and the offset's
 * angular velocity as the rate of its rotation vector: J(rho)^-1 (w_src -
 * rot(D, w_dst)), which makes the decayed pose leave with exactly the source's
 * angular velocity (w_src - w_dst is right only for small offsets). */
static kform kf_inertialize_offset(kform src, kform dst)
{
    kform o;
    quat D = q_abs(q_mul_inv(src.rot, dst.rot));
    vec3 rho = q_to_scaled_angle_axis(D);
    o.pos = v3_sub(src.pos, dst.pos);
    o.rot = D;
    o.scl = v3_div(src.scl, dst.scl);
    o.vel = v3_sub(src.vel, dst.vel);
    o.ang = jl_inv_mul(rho, v3_sub(src.ang, q_mul_vec3(D, dst.ang)));
    o.svl = v3_sub(src.svl, dst.svl);
    return o;
}
/* Cubic decay of an offset x0 with rate v0 over duration T: the Hermite cubic
 * from (x0, v0) at 0 to (0, 0) at T. Writes the factors on x0 and v0 and
 * their time derivatives; from T on (and for T = 0) all are 0. */
static void decay_cubic(REAL t, REAL T, REAL *fx, REAL *fv, REAL *dfx, REAL *dfv)
{
    if (!(T > R(0)) || t >= T) {
        *fx = *fv = *dfx = *dfv = R(0);
        return;
    }
    REAL u = t / T, u2 = u * u;
    *fx = R(2) * u2 * u - R(3) * u2 + R(1);
    *fv = (u2 * u - R(2) * u2 + u) * T;
    *dfx = (R(6) * u2 - R(6) * u) / T;
    *dfv = R(3) * u2 - R(4) * u + R(1);
}
/* The destination pose (moving) plus the decayed offset, velocities exact. */
static kform kf_inertialize(kform dst, kform off, REAL t, REAL T)
{
    REAL fx, fv, dfx, dfv;
    decay_cubic(t, T, &fx, &fv, &dfx, &dfv);
    vec3 rho = q_to_scaled_angle_axis(q_abs(off.rot));
    vec3 th = v3_add(v3_scale(rho, fx), v3_scale(off.ang, fv));
    vec3 th_dot = v3_add(v3_scale(rho, dfx), v3_scale(off.ang, dfv));
    vec3 ls = v3_add(v3_scale(v3_log(off.scl), fx), v3_scale(off.svl, fv));
    vec3 ls_dot = v3_add(v3_scale(v3_log(off.scl), dfx), v3_scale(off.svl, dfv));
    quat E = q_from_scaled_angle_axis(th);
    kform r;
    r.pos = v3_add(dst.pos, v3_add(v3_scale(off.pos, fx), v3_scale(off.vel, fv)));
    r.vel = v3_add(dst.vel, v3_add(v3_scale(off.pos, dfx), v3_scale(off.vel, dfv)));
    r.rot = q_mul(E, dst.rot);
    r.ang = v3_add(jl_mul(th, th_dot), q_mul_vec3(E, dst.ang));
    r.scl = v3_mul(dst.scl, v3(exp(ls.x), exp(ls.y), exp(ls.z)));
    r.svl = v3_add(dst.svl, ls_dot);
    return r;
}

/* ---- decayed extrapolation and dead blending -------------------------------------------
 * Velocities decaying as exp(-l t), l = ln 2 / half-life, integrate in closed
 * form: x(t) = x0 + v0 (1 - exp(-l t)) / l, v(t) = v0 exp(-l t); the same in
 * rotation-vector space (the angular velocity keeps its direction, so the
 * rotation is exp(w0 f / 2) q0 with angular velocity exactly w0 exp(-l t))
 * and in log-scale space. Half-life 0: the pose holds, velocities 0. */
static kform kf_extrapolate_decayed(kform a, REAL t, REAL halflife)
{
    REAL f = R(0), df = R(0);
    if (halflife > R(0)) {
        REAL l = R(0.69314718055994530942) / halflife;
        df = exp(-l * t);
        f = -expm1(-l * t) / l;   /* (1 - e^-lt) / l without cancellation at small l t */
    }
    kform r;
    r.pos = v3_add(a.pos, v3_scale(a.vel, f));
    r.vel = v3_scale(a.vel, df);
    r.rot = q_mul(q_from_scaled_angle_axis(v3_scale(a.ang, f)), a.rot);
    r.ang = v3_scale(a.ang, df);
    r.scl = v3_mul(a.scl, v3(exp(a.svl.x * f), exp(a.svl.y * f), exp(a.svl.z * f)));
    r.svl = v3_scale(a.svl, df);
    return r;
}
/* Roots are driven by the caller (the character controller): "not
 * extrapolated" means a root holds its pose, with zero velocity. */
static kform kf_hold(kform a)
{
    a.vel = a.ang = a.svl = v3(R(0), R(0), R(0));
    return a;
}
static int is_root(const pb_skeleton *s, size_t e) { return s->parents[e / s->characters] < 0; }

/* ---- look-at ----------------------------------------------------------------------------
 * The rotation taking unit u onto unit v along the shorter arc is the
 * normalized (1 + u.v, u x v). Antiparallel vectors (u.v < -1 + 1e-6) have
 * no shorter arc: half a turn about an axis perpendicular to u. */
static REAL v3_dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec3 v3_normalize_or(vec3 v, vec3 fallback)
{
    REAL l = v3_length(v);
    return l > R(0) ? v3_scale(v, R(1) / l) : fallback;
}
static vec3 v3_perpendicular(vec3 u)
{
    vec3 e = fabs(u.x) < R(0.9) ? v3(R(1), R(0), R(0)) : v3(R(0), R(1), R(0));
    return v3_normalize_or(v3_cross(u, e), v3(R(0), R(0), R(1)));
}
static int antiparallel(vec3 u, vec3 v) { return v3_dot(u, v) < R(-1) + R(1e-6); }
static quat q_between(vec3 u, vec3 v)
{
    if (antiparallel(u, v)) {
        vec3 ax = v3_perpendicular(u);
        return qt(R(0), ax.x, ax.y, ax.z);
    }
    vec3 x = v3_cross(u, v);
    return q_normalize(qt(R(1) + v3_dot(u, v), x.x, x.y, x.z));
}
/* Angular velocity of q_between(u, v) while u, v move at du, dv: derivative
 * of the normalized half-way quaternion, then w = 2 vec(dq conj(q)). */
static vec3 q_between_ang(vec3 u, vec3 du, vec3 v, vec3 dv)
{
    if (antiparallel(u, v)) return v3(R(0), R(0), R(0));
    vec3 x = v3_cross(u, v), dx = v3_add(v3_cross(du, v), v3_cross(u, dv));
    quat h = qt(R(1) + v3_dot(u, v), x.x, x.y, x.z);
    quat dh = qt(v3_dot(du, v) + v3_dot(u, dv), dx.x, dx.y, dx.z);
    REAL len = sqrt(q_dot(h, h));
    quat q = qt(h.w / len, h.x / len, h.y / len, h.z / len);
    REAL along = q_dot(q, dh);
    quat dq = qt((dh.w - q.w * along) / len, (dh.x - q.x * along) / len, (dh.y - q.y * along) / len,
                 (dh.z - q.z * along) / len);
    return v3_scale(q_vec(q_mul(dq, q_inv(q))), R(2));
}
/* Turn head h so its local axis points at target t (moving at tv). A target
 * at the head's position has no direction: the head is left as it is. */
static kform kf_lookat(kform h, vec3 t, vec3 tv, vec3 axis, int with_vel)
{
    vec3 x = v3_sub(t, h.pos);
    REAL len = v3_length(x);
    if (!(len > R(0))) return h;
    vec3 d = v3_scale(x, R(1) / len);
    vec3 f = q_mul_vec3(h.rot, axis);
    quat B = q_between(f, d);
    kform r = h;
    r.rot = q_mul(B, h.rot);
    if (with_vel) {
        vec3 df = v3_cross(h.ang, f);
        vec3 dx = v3_sub(tv, h.vel);
        vec3 dd = v3_scale(v3_sub(dx, v3_scale(d, v3_dot(d, dx))), R(1) / len);
        r.ang = v3_add(q_between_ang(f, df, d, dd), q_mul_vec3(B, h.ang));
    }
    return r;
}

/* ---- two-bone IK ---------------------------------------------------------------------------
 * Chain: root A (global transform), mid B and end C (locals), target T.
 * Angles from side lengths use atan2 with Heron's product for the sine part
 * (acos of a law-of-cosines ratio loses half its digits near a straight
 * chain, which is where legs spend their time). The reach is clamped to
 * [|lab - lcb|, lab + lcb] shrunk by 1e-4 of the chain length, so the chain
 * never locks perfectly straight. The bend axis is the chain's own plane
 * normal; for a straight chain (or a zero-length bone) the root's hint axis
 * (params.axis, in the root's frame) made perpendicular to AC, or, when the
 * hint lies along the chain, a fixed perpendicular. Steps, in world frame: bend
 * the knee by the interior-angle change about the bend axis; bend the root
 * about the same axis so AC keeps its direction; swing AC onto AT. When the
 * target is reachable the end lands on it. */
/* Angle between u and v; 0 when either is zero (the + 0 turns a -0 dot into
 * +0: C's atan2(0, -0) is pi, and the kernels' atan2 ignores the sign of zero). */
static REAL vec_angle(vec3 u, vec3 v) { return atan2(v3_length(v3_cross(u, v)), v3_dot(u, v) + R(0)); }
static quat q_axis_angle(vec3 axis, REAL angle)
{
    REAL s = sin(angle / R(2));
    return qt(cos(angle / R(2)), axis.x * s, axis.y * s, axis.z * s);
}
typedef struct { quat root, mid; } ik_result;   /* new root global, new mid local rotation */
static kform kf_mul_static(kform a, kform b);
static ik_result ik_solve(kform root, kform mid_l, kform end_l, vec3 T, vec3 hint)
{
    kform mid = kf_mul_static(root, mid_l), end = kf_mul_static(mid, end_l);
    vec3 A = root.pos, B = mid.pos, C = end.pos;
    vec3 ab = v3_sub(B, A), cb = v3_sub(C, B), ac = v3_sub(C, A), at = v3_sub(T, A);
    REAL lab = v3_length(ab), lcb = v3_length(cb), total = lab + lcb, eps = R(1e-4) * total;
    REAL lat = v3_length(at);
    REAL lo = fabs(lab - lcb) + eps, hi = total - eps;
    lat = lat < lo ? lo : lat;
    lat = lat > hi ? hi : lat;
    /* interior angles now and wanted: atan2(Heron, law-of-cosines numerator) */
    REAL heron = sqrt(fmax(R(0), (lab + lcb - lat) * (lab + lcb + lat) * (lat - lab + lcb) * (lat + lab - lcb)));
    REAL knee_want = atan2(heron, lab * lab + lcb * lcb - lat * lat);
    REAL root_want = atan2(heron, lab * lab + lat * lat - lcb * lcb);
    REAL knee_now = vec_angle(v3_scale(ab, R(-1)), cb);
    REAL root_now = vec_angle(ac, ab);
    vec3 hint_w = q_mul_vec3(root.rot, hint);
    vec3 acn = v3_normalize_or(ac, v3_normalize_or(ab, v3(R(0), R(-1), R(0))));
    vec3 hint_perp = v3_sub(hint_w, v3_scale(acn, v3_dot(hint_w, acn)));
    vec3 axis0 = v3_cross(ac, ab);
    REAL plane = v3_length(axis0);
    /* a hint (nearly) along the chain says nothing: below 1e-3 of its length,
     * its perpendicular part is rounding noise, so take a fixed perpendicular */
    vec3 fallback = v3_length(hint_perp) > R(1e-3) ? v3_normalize_or(hint_perp, acn) : v3_perpendicular(acn);
    axis0 = plane > R(1e-6) * lab * lcb ? v3_scale(axis0, R(1) / plane) : fallback;
    vec3 axis1 = v3_cross(ac, at);
    REAL swing_len = v3_length(axis1);
    quat swing = swing_len > R(0) ? q_axis_angle(v3_scale(axis1, R(1) / swing_len), vec_angle(ac, at))
                                  : qt(R(1), R(0), R(0), R(0));
    quat knee_w = q_axis_angle(axis0, knee_want - knee_now);
    quat root_w = q_axis_angle(axis0, root_want - root_now);
    ik_result r;
    r.root = q_mul(swing, q_mul(root_w, root.rot));
    /* knee: the world-frame turn, carried into mid's local frame */
    r.mid = q_mul(mid_l.rot, q_mul(q_inv(mid.rot), q_mul(knee_w, mid.rot)));
    return r;
}
/* Move a kineform by its own velocities over dt (dt < 0: back in time). */
static kform kf_step(kform k, REAL dt)
{
    k.pos = v3_add(k.pos, v3_scale(k.vel, dt));
    k.rot = q_mul(q_from_scaled_angle_axis(v3_scale(k.ang, dt)), k.rot);
    k.scl = v3_mul(k.scl, v3(exp(k.svl.x * dt), exp(k.svl.y * dt), exp(k.svl.z * dt)));
    return k;
}
/* Rate of a rotation from two samples dt apart, shorter arc. */
static vec3 q_rate(quat later, quat earlier, REAL dt)
{
    return v3_scale(q_to_scaled_angle_axis(q_abs(q_mul_inv(later, earlier))), R(1) / dt);
}

/* ---- plane access ------------------------------------------------------------------ */
static quat ld_q(const REAL *const *pl, size_t i)
{
    return qt(pl[PB_ROT_W][i], pl[PB_ROT_X][i], pl[PB_ROT_Y][i], pl[PB_ROT_Z][i]);
}
static vec3 ld_v(const REAL *const *pl, int first, size_t i)
{
    return v3(pl[first][i], pl[first + 1][i], pl[first + 2][i]);
}
static void st_q(REAL *const *pl, size_t i, quat q)
{
    pl[PB_ROT_W][i] = q.w; pl[PB_ROT_X][i] = q.x; pl[PB_ROT_Y][i] = q.y; pl[PB_ROT_Z][i] = q.z;
}
static void st_v(REAL *const *pl, int first, size_t i, vec3 v)
{
    pl[first][i] = v.x; pl[first + 1][i] = v.y; pl[first + 2][i] = v.z;
}
static kform ld_k(const REAL *const *pl, size_t i)
{
    kform k = { ld_v(pl, PB_POS_X, i), ld_q(pl, i), ld_v(pl, PB_SCL_X, i),
                ld_v(pl, PB_VEL_X, i), ld_v(pl, PB_ANG_X, i), ld_v(pl, PB_SVL_X, i) };
    return k;
}
static void st_k(REAL *const *pl, size_t i, kform k)
{
    st_v(pl, PB_POS_X, i, k.pos); st_q(pl, i, k.rot); st_v(pl, PB_SCL_X, i, k.scl);
    st_v(pl, PB_VEL_X, i, k.vel); st_v(pl, PB_ANG_X, i, k.ang); st_v(pl, PB_SVL_X, i, k.svl);
}

/* ---- ops: every SoA op runs over the padded count (padding is identity in and out) */
#define FOR_EACH(k) for (size_t i = 0; i < (k)->n_padded; i++)

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
    REAL t = k->p.alpha;
    FOR_EACH(k) st_q(k->out, i, q_slerp_shortest(ld_q(k->a, i), ld_q(k->b, i), t));
}
void REF(nlerp_shortest)(const KARGS *k)
{
    REAL t = k->p.alpha;
    FOR_EACH(k) st_q(k->out, i, q_nlerp_shortest(ld_q(k->a, i), ld_q(k->b, i), t));
}
void REF(eerp)(const KARGS *k)
{
    REAL t = k->p.alpha;
    FOR_EACH(k) for (int c = PB_SCL_X; c <= PB_SCL_Z; c++) k->out[c][i] = eerp(k->a[c][i], k->b[c][i], t);
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

/* Static blend of two poses: lerp positions and velocities, slerp rotations,
 * eerp scales. */
static void blend_static_impl(const KARGS *k, quat (*qblend)(quat, quat, REAL))
{
    REAL t = k->p.alpha;
    static const int lerped[] = { PB_POS_X, PB_VEL_X, PB_ANG_X, PB_SVL_X };
    FOR_EACH(k) {
        for (size_t g = 0; g < sizeof lerped / sizeof lerped[0]; g++)
            st_v(k->out, lerped[g], i, v3_lerp(ld_v(k->a, lerped[g], i), ld_v(k->b, lerped[g], i), t));
        st_q(k->out, i, qblend(ld_q(k->a, i), ld_q(k->b, i), t));
        for (int c = PB_SCL_X; c <= PB_SCL_Z; c++) k->out[c][i] = eerp(k->a[c][i], k->b[c][i], t);
    }
}
void REF(blend_static)(const KARGS *k) { blend_static_impl(k, q_slerp_shortest); }
void REF(blend_static_nlerp)(const KARGS *k) { blend_static_impl(k, q_nlerp_shortest); }

/* Layout conversions: exactly n elements on the AoS side. */
void REF(pose_to_aos)(const KARGS *k)
{
    for (int a = 0; a < PB_AOS_ARRAYS; a++)
        for (size_t i = 0; i < k->n; i++)
            for (int c = 0; c < pb_aos_width[a]; c++)
                k->aos_out[a][i * pb_aos_width[a] + c] = k->a[pb_aos_plane[a] + c][i];
}
void REF(pose_from_aos)(const KARGS *k)
{
    for (int a = 0; a < PB_AOS_ARRAYS; a++)
        for (size_t i = 0; i < k->n; i++)
            for (int c = 0; c < pb_aos_width[a]; c++)
                k->out[pb_aos_plane[a] + c][i] = k->aos_in[a][i * pb_aos_width[a] + c];
}

/* Kineform algebra over arrays. */
void REF(kform_mul)(const KARGS *k) { FOR_EACH(k) st_k(k->out, i, kf_mul(ld_k(k->a, i), ld_k(k->b, i))); }
void REF(kform_div)(const KARGS *k) { FOR_EACH(k) st_k(k->out, i, kf_div(ld_k(k->a, i), ld_k(k->b, i))); }
void REF(kform_inv)(const KARGS *k) { FOR_EACH(k) st_k(k->out, i, kf_inv(ld_k(k->a, i))); }
void REF(kform_mul_dir)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_POS_X, i, kf_mul_dir(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i)));
}
void REF(kform_mul_pos)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_POS_X, i, kf_mul_pos(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i)));
}
void REF(kform_mul_vel)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_VEL_X, i, kf_mul_vel(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i), ld_v(k->b, PB_VEL_X, i)));
}

/* Velocities of b by finite difference from a over dt (shorter arc for
 * rotations); dt = 0 has no defined difference and gives zero velocities. */
void REF(finite_diff)(const KARGS *k)
{
    REAL dt = k->p.dt;
    REAL inv = dt > R(0) ? R(1) / dt : R(0);
    FOR_EACH(k) {
        kform a = ld_k(k->a, i), b = ld_k(k->b, i);
        b.vel = v3_scale(v3_sub(b.pos, a.pos), inv);
        b.ang = v3_scale(q_to_scaled_angle_axis(q_abs(q_mul_inv(b.rot, a.rot))), inv);
        b.svl = v3_scale(v3_log(v3_div(b.scl, a.scl)), inv);
        st_k(k->out, i, b);
    }
}

/* Playback at another rate: the same poses, velocities scaled. */
void REF(timescale)(const KARGS *k)
{
    REAL s = k->p.timescale;
    FOR_EACH(k) {
        kform a = ld_k(k->a, i);
        a.vel = v3_scale(a.vel, s);
        a.ang = v3_scale(a.ang, s);
        a.svl = v3_scale(a.svl, s);
        st_k(k->out, i, a);
    }
}

/* Forward kinematics: a child's global is its parent's global composed with
 * its local; parents precede children, so one pass in joint order does it.
 * Element e = joint * characters + character (crowd layout). */
static kform kf_mul_static(kform a, kform b)
{
    kform r = kf_identity();
    r.pos = kf_mul_pos(a, b.pos);
    r.rot = q_mul(a.rot, b.rot);
    r.scl = v3_mul(a.scl, b.scl);
    return r;
}
static void fk_impl(const KARGS *k, kform (*compose)(kform, kform))
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    for (size_t j = 0; j < s->joints; j++)
        for (size_t c = 0; c < C; c++) {
            size_t e = j * C + c;
            kform local = ld_k(k->a, e);
            int32_t p = s->parents[j];
            kform global = p < 0 ? local : compose(ld_k((const REAL *const *)k->out, (size_t)p * C + c), local);
            st_k(k->out, e, global);
        }
}
void REF(fk)(const KARGS *k) { fk_impl(k, kf_mul); }
void REF(fk_static)(const KARGS *k)
{
    fk_impl(k, kf_mul_static);
}
/* Backward kinematics: each local is its global relative to its parent's
 * global. Children first (descending joints), so out may be the input. */
void REF(bk)(const KARGS *k)
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    for (size_t j = s->joints; j-- > 0;)
        for (size_t c = 0; c < C; c++) {
            size_t e = j * C + c;
            kform global = ld_k(k->a, e);
            int32_t p = s->parents[j];
            st_k(k->out, e, p < 0 ? global : kf_div(ld_k(k->a, (size_t)p * C + c), global));
        }
}

/* Transition and layering ops. */
void REF(blend)(const KARGS *k)
{
    FOR_EACH(k) st_k(k->out, i, kf_blend(ld_k(k->a, i), ld_k(k->b, i), k->p.alpha, k->p.alpha_vel));
}
static void st_transform(REAL *const *pl, size_t i, kform k)
{
    st_v(pl, PB_POS_X, i, k.pos); st_q(pl, i, k.rot); st_v(pl, PB_SCL_X, i, k.scl);
}
void REF(additive_world_static)(const KARGS *k)
{
    FOR_EACH(k) st_transform(k->out, i, kf_additive_static(ld_k(k->a, i), ld_k(k->b, i), k->p.alpha, 0));
}
void REF(additive_local_static)(const KARGS *k)
{
    FOR_EACH(k) st_transform(k->out, i, kf_additive_static(ld_k(k->a, i), ld_k(k->b, i), k->p.alpha, 1));
}
void REF(additive)(const KARGS *k)
{
    FOR_EACH(k) st_k(k->out, i, kf_additive(ld_k(k->a, i), ld_k(k->b, i), k->p.alpha, k->p.alpha_vel));
}
void REF(inertialize_offset)(const KARGS *k)
{
    FOR_EACH(k) st_k(k->out, i, kf_inertialize_offset(ld_k(k->a, i), ld_k(k->b, i)));
}
void REF(inertialize)(const KARGS *k)
{
    FOR_EACH(k) st_k(k->out, i, kf_inertialize(ld_k(k->a, i), ld_k(k->b, i), k->p.time, k->p.duration));
}
/* a: the pose at the transition (fixed); roots hold (call.skel). */
void REF(extrapolate_decayed)(const KARGS *k)
{
    for (size_t i = 0; i < k->n; i++) {
        kform a = ld_k(k->a, i);
        st_k(k->out, i, is_root(k->skel, i) ? kf_hold(a) : kf_extrapolate_decayed(a, k->p.time, k->p.halflife));
    }
}
/* Dead blending: extrapolate the source pose from the transition (a) and
 * blend it into the destination (b) with alpha = smoothstep(t / T) and its
 * rate; roots take the destination's (the controller drives them). */
void REF(dead_blending)(const KARGS *k)
{
    REAL t = k->p.time, T = k->p.duration;
    REAL u = T > R(0) ? t / T : R(1);
    REAL alpha = smoothstep(u), alpha_dot = T > R(0) ? smoothstep_dx(u) / T : R(0);
    for (size_t i = 0; i < k->n; i++) {
        kform dst = ld_k(k->b, i);
        kform ext = kf_extrapolate_decayed(ld_k(k->a, i), t, k->p.halflife);
        st_k(k->out, i, is_root(k->skel, i) ? dst : kf_blend(ext, dst, alpha, alpha_dot));
    }
}

/* Look-at, one head per element; b.pos / b.vel: the targets. */
static vec3 unit_axis(const pb_params *p)
{
    return v3_normalize_or(v3(p->axis[0], p->axis[1], p->axis[2]), v3(R(0), R(0), R(1)));
}
void REF(lookat_static)(const KARGS *k)
{
    vec3 axis = unit_axis(&k->p);
    FOR_EACH(k) st_transform(k->out, i, kf_lookat(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i), ld_v(k->b, PB_VEL_X, i), axis, 0));
}
void REF(lookat)(const KARGS *k)
{
    vec3 axis = unit_axis(&k->p);
    FOR_EACH(k) st_k(k->out, i, kf_lookat(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i), ld_v(k->b, PB_VEL_X, i), axis, 1));
}

/* Two-bone IK over chains (PB_OPF_CHAIN layout): out = a with the root's
 * global rotation and the mid's local rotation solved. */
static void ik_impl(const KARGS *k, int with_vel)
{
    size_t C = k->n / 3;
    vec3 hint = unit_axis(&k->p);
    REAL dt = k->p.dt;
    for (size_t c = 0; c < C; c++) {
        kform root = ld_k(k->a, c), mid = ld_k(k->a, C + c), end = ld_k(k->a, 2 * C + c);
        vec3 T = ld_v(k->b, PB_POS_X, 2 * C + c), TV = ld_v(k->b, PB_VEL_X, 2 * C + c);
        ik_result r = ik_solve(root, mid, end, T, hint);
        kform ro = root, mo = mid;
        ro.rot = r.root;
        mo.rot = r.mid;
        if (with_vel && dt > R(0)) {
            /* central two-sample rate: solve at t - dt/2 and t + dt/2 with every
             * input moved by its own velocities (a one-sided t, t - dt pair lags
             * by dt/2) */
            REAL h = dt / R(2);
            ik_result lo = ik_solve(kf_step(root, -h), kf_step(mid, -h), kf_step(end, -h), v3_sub(T, v3_scale(TV, h)), hint);
            ik_result up = ik_solve(kf_step(root, h), kf_step(mid, h), kf_step(end, h), v3_add(T, v3_scale(TV, h)), hint);
            ro.ang = q_rate(up.root, lo.root, dt);
            mo.ang = q_rate(up.mid, lo.mid, dt);
        }
        st_k(k->out, c, ro);
        st_k(k->out, C + c, mo);
        st_k(k->out, 2 * C + c, end);
    }
}
void REF(two_bone_ik)(const KARGS *k) { ik_impl(k, 0); }
void REF(two_bone_ik_vel)(const KARGS *k) { ik_impl(k, 1); }

/* ---- sampling -------------------------------------------------------------------------------
 * Character c samples the clip at params.time + offsets[c]; out element
 * joint * characters + c. Outside the clip the pose holds its end key and the
 * velocities are 0. Keys are read from the pos/rot/scl planes of k->a. */
#define CLIP_KEY(k, frame, joint) ((frame) * (k)->joints + (joint))
static REAL hermite(REAL p0, REAL m0, REAL p1, REAL m1, REAL a, REAL *d)
{
    REAL a2 = a * a, a3 = a2 * a;
    *d = (R(6) * a2 - R(6) * a) * p0 + (R(3) * a2 - R(4) * a + R(1)) * m0 + (R(6) * a - R(6) * a2) * p1 +
         (R(3) * a2 - R(2) * a) * m1;
    return (R(2) * a3 - R(3) * a2 + R(1)) * p0 + (a3 - R(2) * a2 + a) * m0 + (R(3) * a2 - R(2) * a3) * p1 + (a3 - a2) * m1;
}
static vec3 v3_hermite(vec3 x[4], REAL a, vec3 *d)
{
    /* Catmull-Rom: tangents (x1 - x-1) / 2 and (x2 - x0) / 2, per frame */
    vec3 r;
    REAL *xs[3] = { &r.x, &r.y, &r.z }, *ds[3] = { &d->x, &d->y, &d->z };
    for (int c = 0; c < 3; c++) {
        REAL v[4];
        for (int k = 0; k < 4; k++) v[k] = c == 0 ? x[k].x : c == 1 ? x[k].y : x[k].z;
        *xs[c] = hermite(v[1], (v[2] - v[0]) / R(2), v[2], (v[3] - v[1]) / R(2), a, ds[c]);
    }
    return r;
}
static void sample_impl(const KARGS *k, int cubic)
{
    size_t C = k->n / k->joints;
    for (size_t c = 0; c < C; c++) {
        size_t f0;
        float alpha;
        int inside;
        pb_frame_at(k->p.time + k->offsets[c], k->frames, k->fps, &f0, &alpha, &inside);
        size_t f1 = f0 + 1 < k->frames ? f0 + 1 : f0;
        size_t fm = f0 > 0 ? f0 - 1 : f0, f2 = f1 + 1 < k->frames ? f1 + 1 : f1;
        REAL a = alpha, fps = k->fps, live = inside ? fps : R(0);
        for (size_t j = 0; j < k->joints; j++) {
            kform key[4];
            size_t frames4[4] = { fm, f0, f1, f2 };
            for (int q = 0; q < 4; q++) key[q] = ld_k(k->a, CLIP_KEY(k, frames4[q], j));
            kform r = kf_identity();
            if (!cubic) {
                r.pos = v3_lerp(key[1].pos, key[2].pos, a);
                r.rot = q_slerp_shortest(key[1].rot, key[2].rot, a);
                r.scl = v3(eerp(key[1].scl.x, key[2].scl.x, a), eerp(key[1].scl.y, key[2].scl.y, a),
                           eerp(key[1].scl.z, key[2].scl.z, a));
                r.vel = v3_scale(v3_sub(key[2].pos, key[1].pos), live);
                r.ang = v3_scale(q_to_scaled_angle_axis(q_abs(q_mul_inv(key[2].rot, key[1].rot))), live);
                r.svl = v3_scale(v3_log(v3_div(key[2].scl, key[1].scl)), live);
            } else {
                vec3 p[4], l[4], rv[4], dp, dl, dr;
                for (int q = 0; q < 4; q++) {
                    p[q] = key[q].pos;
                    l[q] = v3_log(key[q].scl);
                    /* rotations as rotation vectors relative to the interval's first key */
                    rv[q] = q_to_scaled_angle_axis(q_abs(q_mul_inv(key[q].rot, key[1].rot)));
                }
                r.pos = v3_hermite(p, a, &dp);
                vec3 ls = v3_hermite(l, a, &dl);
                vec3 th = v3_hermite(rv, a, &dr);
                r.scl = v3(exp(ls.x), exp(ls.y), exp(ls.z));
                r.rot = q_mul(q_from_scaled_angle_axis(th), key[1].rot);
                r.vel = v3_scale(dp, live);
                r.svl = v3_scale(dl, live);
                r.ang = v3_scale(jl_mul(th, dr), live);
            }
            st_k(k->out, j * C + c, r);
        }
    }
}
void REF(sample_linear)(const KARGS *k) { sample_impl(k, 0); }
void REF(sample_cubic)(const KARGS *k) { sample_impl(k, 1); }

/* Hemisphere continuity along a clip: frame 0 as it is, then each joint's
 * rotation negated where the dot with its (already unrolled) previous frame
 * is negative, so interpolation between frames never takes the long way. */
void REF(unroll)(const KARGS *k)
{
    size_t J = k->joints;
    for (size_t f = 0; f < k->frames; f++)
        for (size_t j = 0; j < J; j++) {
            kform key = ld_k(k->a, f * J + j);
            if (f > 0 && q_dot(key.rot, ld_q((const REAL *const *)k->out, (f - 1) * J + j)) < R(0))
                key.rot = q_neg(key.rot);
            st_k(k->out, f * J + j, key);
        }
}

const REF_FN_T REF_TABLE[PB_OP_COUNT] = {
#define PB_X_REF(name) [PB_OP_##name] = REF(name),
    PB_OP_LIST(PB_X_REF)
#undef PB_X_REF
};
