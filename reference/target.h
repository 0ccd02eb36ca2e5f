/* target.h — the reference's targeting ops: look-at and two-bone IK, with
 * their math (q_between, ik_solve, kf_step, q_rate). */

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
static quat q_between_d(vec3 u, vec3 du, vec3 v, vec3 dv, quat *q)
{
    vec3 x = v3_cross(u, v), dx = v3_add(v3_cross(du, v), v3_cross(u, dv));
    quat h = qt(R(1) + v3_dot(u, v), x.x, x.y, x.z);
    quat dh = qt(v3_dot(du, v) + v3_dot(u, dv), dx.x, dx.y, dx.z);
    REAL len = sqrt(q_dot(h, h));
    *q = qt(h.w / len, h.x / len, h.y / len, h.z / len);
    REAL along = q_dot(*q, dh);
    return qt((dh.w - q->w * along) / len, (dh.x - q->x * along) / len, (dh.y - q->y * along) / len,
              (dh.z - q->z * along) / len);
}
static vec3 q_between_ang(vec3 u, vec3 du, vec3 v, vec3 dv)
{
    if (antiparallel(u, v)) return v3(R(0), R(0), R(0));
    quat q, dq = q_between_d(u, du, v, dv, &q);
    return v3_scale(q_vec(q_mul(dq, q_inv(q))), R(2));
}
/* A turn B (w >= 0) stopped at `cone` rad along its own arc: when its angle
 * 2 atan2(|vec B|, B.w) exceeds the cone (B.w < cos(cone / 2)), the same
 * unit axis with half-angle cone / 2. Cones of pi or more never clamp. */
static quat q_clamp_turn(quat B, REAL cone, int *clamped)
{
    REAL pi = R(3.14159265358979323846), half = (cone < pi ? cone : pi) / R(2), c = cos(half);
    *clamped = B.w < c;
    if (!*clamped) return B;
    vec3 v = q_vec(B);
    REAL s = sin(half) / v3_length(v);
    return qt(c, v.x * s, v.y * s, v.z * s);
}
/* Angular velocity of the clamped turn Bc = (cos(cone / 2), n sin(cone / 2)),
 * n = vec(B) / |vec(B)|, as u, v move: only its axis moves, dn = (dv - n (n.dv))
 * / |vec B| with dv = vec(dB), and w = 2 vec((0, sin(cone / 2) dn) conj(Bc)). */
static vec3 q_clamped_ang(vec3 u, vec3 du, vec3 v, vec3 dv, quat Bc)
{
    if (antiparallel(u, v)) return v3(R(0), R(0), R(0));
    quat q, dq = q_between_d(u, du, v, dv, &q);
    vec3 vb = q_vec(q), dvb = q_vec(dq);
    REAL l = v3_length(vb);
    vec3 n = v3_scale(vb, R(1) / l);
    vec3 dn = v3_scale(v3_sub(dvb, v3_scale(n, v3_dot(n, dvb))), R(1) / l);
    REAL s = v3_length(q_vec(Bc));
    quat dBc = qt(R(0), dn.x * s, dn.y * s, dn.z * s);
    return v3_scale(q_vec(q_mul(dBc, q_inv(Bc))), R(2));
}
/* Turn head h so its local axis points at target t (moving at tv), the turn
 * at most `cone` rad when coned. A target at the head's position has no
 * direction: the head is left as it is. */
static kform kf_lookat_impl(kform h, vec3 t, vec3 tv, vec3 axis, int with_vel, int coned, REAL cone)
{
    vec3 x = v3_sub(t, h.pos);
    REAL len = v3_length(x);
    if (!(len > R(0))) return h;
    vec3 d = v3_scale(x, R(1) / len);
    vec3 f = q_mul_vec3(h.rot, axis);
    quat B = q_between(f, d);
    int clamped = 0;
    if (coned) B = q_clamp_turn(B, cone, &clamped);
    kform r = h;
    r.rot = q_mul(B, h.rot);
    if (with_vel) {
        vec3 df = v3_cross(h.ang, f);
        vec3 dx = v3_sub(tv, h.vel);
        vec3 dd = v3_scale(v3_sub(dx, v3_scale(d, v3_dot(d, dx))), R(1) / len);
        vec3 turn = clamped ? q_clamped_ang(f, df, d, dd, B) : q_between_ang(f, df, d, dd);
        r.ang = v3_add(turn, q_mul_vec3(B, h.ang));
    }
    return r;
}
static kform kf_lookat(kform h, vec3 t, vec3 tv, vec3 axis, int with_vel)
{
    return kf_lookat_impl(h, t, tv, axis, with_vel, 0, R(0));
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
void REF(lookat_cone_static)(const KARGS *k)
{
    vec3 axis = unit_axis(&k->p);
    FOR_EACH(k) st_transform(k->out, i, kf_lookat_impl(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i), ld_v(k->b, PB_VEL_X, i),
                                                       axis, 0, 1, PARAM(k, cone, i)));
}
void REF(lookat_cone)(const KARGS *k)
{
    vec3 axis = unit_axis(&k->p);
    FOR_EACH(k) st_k(k->out, i, kf_lookat_impl(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i), ld_v(k->b, PB_VEL_X, i), axis, 1,
                                               1, PARAM(k, cone, i)));
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
