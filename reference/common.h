/* common.h — what every op family of the reference shares: REAL, vec3 and
 * quaternion algebra, the scalar functions, slerp / nlerp, kineforms and
 * their algebra, rotation-vector calculus (the Jacobians), plane access
 * (ld_* / st_*) and FOR_EACH. Included once, first, by ref_body.h. */
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
/* Scales blended by mode (params.scale, resolved): lerp or eerp per axis. */
static REAL scale_blend(REAL x, REAL y, REAL t, int mode) { return mode == PB_SCALE_LINEAR ? lerp(x, y, t) : eerp(x, y, t); }

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

/* Slerp along the shorter arc (q_slerp_arc: along the arc to p as given, which may be the
 * longer one; its ends as 4-vectors are then up to pi apart). The angle between the two 4-vectors is taken
 * as 2 atan2(|p - q|, |p + q|), accurate at every angle (acos(dot) is not near
 * 0, and the classic sin(t th)/sin(th) weights divide 0 by 0 for identical
 * inputs: the NaN a well-known peer returns). Weights are written with sinc so
 * th -> 0 falls back smoothly to lerp weights. */
static quat q_slerp_arc(quat q, quat p, REAL t)   /* along the arc from q to p as given */
{
    quat d = qt(p.w - q.w, p.x - q.x, p.y - q.y, p.z - q.z);
    quat s = qt(p.w + q.w, p.x + q.x, p.y + q.y, p.z + q.z);
    REAL th = R(2) * atan2(sqrt(q_dot(d, d)), sqrt(q_dot(s, s)));
    REAL wq = (R(1) - t) * sinc((R(1) - t) * th) / sinc(th);
    REAL wp = t * sinc(t * th) / sinc(th);
    return qt(wq * q.w + wp * p.w, wq * q.x + wp * p.x, wq * q.y + wp * p.y, wq * q.z + wp * p.z);
}
static quat q_slerp_shortest(quat q, quat p, REAL t)
{
    return q_slerp_arc(q, q_dot(q, p) < R(0) ? q_neg(p) : p, t);
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
/* The transform part of a o b only (fk_static, and the IK chain's globals). */
static kform kf_mul_static(kform a, kform b)
{
    kform r = kf_identity();
    r.pos = kf_mul_pos(a, b.pos);
    r.rot = q_mul(a.rot, b.rot);
    r.scl = v3_mul(a.scl, b.scl);
    return r;
}

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

/* ---- plane access ------------------------------------------------------------------ */
static quat ld_q(const REAL *const *pl, size_t i)
{
    return qt(pl[PB_ROT_W][i], pl[PB_ROT_X][i], pl[PB_ROT_Y][i], pl[PB_ROT_Z][i]);
}
/* A static pose has no velocity planes (NULL): they read as zero and are not stored. */
static vec3 ld_v(const REAL *const *pl, int first, size_t i)
{
    if (!pl[first]) return v3(R(0), R(0), R(0));
    return v3(pl[first][i], pl[first + 1][i], pl[first + 2][i]);
}
static void st_q(REAL *const *pl, size_t i, quat q)
{
    pl[PB_ROT_W][i] = q.w; pl[PB_ROT_X][i] = q.x; pl[PB_ROT_Y][i] = q.y; pl[PB_ROT_Z][i] = q.z;
}
static void st_v(REAL *const *pl, int first, size_t i, vec3 v)
{
    if (!pl[first]) return;
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
static void st_transform(REAL *const *pl, size_t i, kform k)
{
    st_v(pl, PB_POS_X, i, k.pos); st_q(pl, i, k.rot); st_v(pl, PB_SCL_X, i, k.scl);
}

/* ---- parameters: uniform, per character, times the per-joint mask (weights) ------------
 * Element e of a crowd (e = joint x C + character) takes arr[e % C], or the
 * uniform value, times mask[e / C] for masked weights. Padding (e >= n) of a
 * per-element parameter takes 0 (as the kernels: identity stays identity). */
static REAL param_at(const KARGS *k, const float *arr, float uniform, int masked, size_t e)
{
    const float *mask = masked ? k->per.mask : NULL;
    if (!arr && !mask) return uniform;
    if (e >= k->n) return R(0);
    size_t C = k->per.characters;
    REAL w = arr ? arr[e % C] : uniform;
    return mask ? w * mask[e / C] : w;
}
#define ALPHA(k, e) param_at((k), (k)->per.alpha, (k)->p.alpha, 1, (e))
#define ALPHA_VEL(k, e) param_at((k), (k)->per.alpha_vel, (k)->p.alpha_vel, 1, (e))
#define PARAM(k, name, e) param_at((k), (k)->per.name, (k)->p.name, 0, (e))

/* ---- ops: every SoA op runs over the padded count (padding is identity in and out) */
#define FOR_EACH(k) for (size_t i = 0; i < (k)->n_padded; i++)
