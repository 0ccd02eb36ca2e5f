/* transition.h — the reference's transition and layering ops: blend, the
 * additive layers, inertialization, decayed extrapolation and dead blending,
 * with their velocity-exact kineform math. */

/* ---- blends with velocities ------------------------------------------------------------
 * Slerp written in world form: slerp(q, p, t) = E q with E = exp(t rho / 2)
 * and rho = 2 log(p conj(q)) (p on q's hemisphere). Its exact angular
 * velocity follows from the chain rule through the Jacobians:
 *   w_d = w_p - rot(d, w_q)          (d = p conj(q))
 *   rho' = J(rho)^-1 w_d
 *   th = t rho,  th' = t' rho + t rho'
 *   w = J(th) th' + rot(E, w_q).
 * (Lerping w_q, w_p and adding t' rho is exact only when q = p.) Without `shortest` the
 * arc is the one to p as given (slerp via), and so is rho. */
static vec3 slerp_ang(quat q, vec3 wq, quat p, vec3 wp, REAL t, REAL tdot, int shortest)
{
    if (shortest && q_dot(q, p) < R(0)) p = q_neg(p);
    quat d = q_mul_inv(p, q);   /* on the longer arc |rho| is between pi and 2 pi */
    if (shortest) d = q_abs(d);
    vec3 rho = q_to_scaled_angle_axis(d);
    vec3 wd = v3_sub(wp, q_mul_vec3(d, wq));
    vec3 rho_dot = jl_inv_mul(rho, wd);
    vec3 th = v3_scale(rho, t);
    vec3 th_dot = v3_add(v3_scale(rho, tdot), v3_scale(rho_dot, t));
    quat E = q_from_scaled_angle_axis(th);
    return v3_add(jl_mul(th, th_dot), q_mul_vec3(E, wq));
}
/* blend(a, b, t, t'): blend_static's pose with exact velocities (t' = alpha_vel).
 * Scales by mode: eerp (log-scale velocities lerp, plus t' log(b/a)) or lerp
 * (svl = s'/s with s' = lerp(a.s a.svl, b.s b.svl) + t' (b.s - a.s)). */
static kform kf_blend_arc(kform a, kform b, REAL t, REAL tdot, int scale_mode, int shortest)
{
    kform r;
    r.pos = v3_lerp(a.pos, b.pos, t);
    r.rot = shortest ? q_slerp_shortest(a.rot, b.rot, t) : q_slerp_arc(a.rot, b.rot, t);
    r.scl = v3(scale_blend(a.scl.x, b.scl.x, t, scale_mode), scale_blend(a.scl.y, b.scl.y, t, scale_mode),
               scale_blend(a.scl.z, b.scl.z, t, scale_mode));
    r.vel = v3_add(v3_lerp(a.vel, b.vel, t), v3_scale(v3_sub(b.pos, a.pos), tdot));
    r.ang = slerp_ang(a.rot, a.ang, b.rot, b.ang, t, tdot, shortest);
    if (scale_mode == PB_SCALE_LINEAR) {
        vec3 ds = v3_add(v3_lerp(v3_mul(a.scl, a.svl), v3_mul(b.scl, b.svl), t), v3_scale(v3_sub(b.scl, a.scl), tdot));
        r.svl = v3_div(ds, r.scl);
    } else {
        r.svl = v3_add(v3_lerp(a.svl, b.svl, t), v3_scale(v3_log(v3_div(b.scl, a.scl)), tdot));
    }
    return r;
}
static kform kf_blend(kform a, kform b, REAL t, REAL tdot, int scale_mode)
{
    return kf_blend_arc(a, b, t, tdot, scale_mode, 1);
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
/* The same with a half-life per axis (per.halflife_axis, or per channel too: per.halflives):
 * each component of the linear, angular and log-scale velocities decays with its own l. The
 * rotation vector r = w0 (.) f(t) then turns as it grows, and the angular
 * velocity is J(r) dr/dt (J the left Jacobian; dr/dt itself when r keeps its
 * direction, as with one half-life). */
static void decay_axes(vec3 hl, REAL t, vec3 *F, vec3 *DF)
{
    REAL h[3] = { hl.x, hl.y, hl.z }, f[3] = { R(0), R(0), R(0) }, df[3] = { R(0), R(0), R(0) };
    for (int c = 0; c < 3; c++)
        if (h[c] > R(0)) {
            REAL l = R(0.69314718055994530942) / h[c];
            df[c] = exp(-l * t);
            f[c] = -expm1(-l * t) / l;
        }
    *F = v3(f[0], f[1], f[2]);
    *DF = v3(df[0], df[1], df[2]);
}
/* Half-lives per axis for positions (hp), rotations (hr) and log-scales (hs). */
static kform kf_extrapolate_decayed_chan(kform a, REAL t, vec3 hp, vec3 hr, vec3 hs)
{
    vec3 F, DF;
    kform r;
    decay_axes(hp, t, &F, &DF);
    r.pos = v3_add(a.pos, v3_mul(a.vel, F));
    r.vel = v3_mul(a.vel, DF);
    decay_axes(hr, t, &F, &DF);
    vec3 rv = v3_mul(a.ang, F);
    r.rot = q_mul(q_from_scaled_angle_axis(rv), a.rot);
    r.ang = jl_mul(rv, v3_mul(a.ang, DF));
    decay_axes(hs, t, &F, &DF);
    r.scl = v3_mul(a.scl, v3(exp(a.svl.x * F.x), exp(a.svl.y * F.y), exp(a.svl.z * F.z)));
    r.svl = v3_mul(a.svl, DF);
    return r;
}
/* Extrapolated with element e's half-life: per joint per axis when given. */
static kform kf_extrapolate_half(const KARGS *k, size_t e, kform a, REAL t)
{
    const float *hx = k->per.halflife_axis;
    const pb_pose *hp = k->per.halflives;
    if (!hx && !hp) return kf_extrapolate_decayed(a, t, PARAM(k, halflife, e));
    if (e >= k->n) return kf_extrapolate_decayed(a, t, R(0));   /* padding, as param_at */
    if (hp) {
        const float *const *pl = (const float *const *)hp->plane;
        return kf_extrapolate_decayed_chan(a, t, v3(pl[PB_VEL_X][e], pl[PB_VEL_Y][e], pl[PB_VEL_Z][e]),
                                           v3(pl[PB_ANG_X][e], pl[PB_ANG_Y][e], pl[PB_ANG_Z][e]),
                                           v3(pl[PB_SVL_X][e], pl[PB_SVL_Y][e], pl[PB_SVL_Z][e]));
    }
    size_t j = e / k->per.characters;
    vec3 h = v3(hx[3 * j], hx[3 * j + 1], hx[3 * j + 2]);
    return kf_extrapolate_decayed_chan(a, t, h, h, h);
}
/* ---- joint limits (per.limits; ops.h explains the box and the modes) ----------------------
 * One axis: x kept in [lo, hi]; *s = the factor on x's rate (1 free, 0 held, -1 reflected);
 * *out = 1 where x was outside.
 * The box is widened past an out-of-range source (ops.h). Bounce folds x into the interval by
 * reflection: m = (x - lo) mod 2w, w = hi - lo, gives lo + m on the way out and hi - (m - w)
 * on the way back. */
static REAL limit_axis(REAL x, REAL lo, REAL hi, int bounce, REAL *s, int *out)
{
    *s = R(1);
    *out = !(x >= lo && x <= hi);
    if (!*out) return x;
    if (!bounce || !(hi > lo)) {
        *s = R(0);
        return x < lo ? lo : hi;
    }
    REAL w = hi - lo, p = R(2) * w, m = x - lo;
    m -= p * floor(m / p);
    if (m <= w) return lo + m;
    *s = R(-1);
    return hi - (m - w);
}
/* r (extrapolated from source rotation src) limited: l = 2 log(rest^-1 r), rate
 * l' = J(l)^-1 rot(rest^-1, w); limited l~ with l~' = s l', and r~ = rest exp(l~ / 2) turning
 * at rot(rest, J(l~) l~'). */
static kform kf_limited(const KARGS *k, size_t e, quat src, kform r)
{
    const pb_joint_limits *L = k->per.limits;
    size_t j = e / k->per.characters;
    quat rest = L->rest ? qt(L->rest[4 * j], L->rest[4 * j + 1], L->rest[4 * j + 2], L->rest[4 * j + 3]) : qt(R(1), R(0), R(0), R(0));
    vec3 l0 = q_to_scaled_angle_axis(q_abs(q_inv_mul(rest, src)));
    vec3 l = q_to_scaled_angle_axis(q_abs(q_inv_mul(rest, r.rot)));
    REAL x[3] = { l.x, l.y, l.z }, x0[3] = { l0.x, l0.y, l0.z }, y[3], s[3];
    int limited = 0;
    for (int c = 0; c < 3; c++) {
        REAL lo = L->lo[3 * j + (size_t)c], hi = L->hi[3 * j + (size_t)c];
        if (x0[c] < lo) lo = x0[c] - R(PB_LIMIT_SLACK);
        if (x0[c] > hi) hi = x0[c] + R(PB_LIMIT_SLACK);
        int out;
        y[c] = limit_axis(x[c], lo, hi, L->mode == PB_LIMIT_BOUNCE, &s[c], &out);
        limited |= out;
    }
    if (!limited) return r;
    vec3 ld = jl_inv_mul(l, q_mul_vec3(q_inv(rest), r.ang)), ly = v3(y[0], y[1], y[2]);
    r.rot = q_mul(rest, q_from_scaled_angle_axis(ly));
    r.ang = q_mul_vec3(rest, jl_mul(ly, v3_mul(ld, v3(s[0], s[1], s[2]))));
    return r;
}

/* Extrapolated with element e's half-life (per joint per axis, or per element per axis and
 * channel, when given), within the joint limits when given. */
static kform kf_extrapolate_at(const KARGS *k, size_t e, kform a, REAL t)
{
    kform r = kf_extrapolate_half(k, e, a, t);
    return k->per.limits && e < k->n ? kf_limited(k, e, a.rot, r) : r;
}
/* Roots are driven by the caller (the character controller): "not
 * extrapolated" means a root holds its pose, with zero velocity. */
static kform kf_hold(kform a)
{
    a.vel = a.ang = a.svl = v3(R(0), R(0), R(0));
    return a;
}
static int is_root(const pb_skeleton *s, size_t e) { return s->parents[e / s->characters] < 0; }

/* Transition and layering ops. */
void REF(blend)(const KARGS *k)
{
    FOR_EACH(k) st_k(k->out, i, kf_blend(ld_k(k->a, i), ld_k(k->b, i), ALPHA(k, i), ALPHA_VEL(k, i), k->p.scale));
}
void REF(additive_world_static)(const KARGS *k)
{
    FOR_EACH(k) st_transform(k->out, i, kf_additive_static(ld_k(k->a, i), ld_k(k->b, i), ALPHA(k, i), 0));
}
void REF(additive_local_static)(const KARGS *k)
{
    FOR_EACH(k) st_transform(k->out, i, kf_additive_static(ld_k(k->a, i), ld_k(k->b, i), ALPHA(k, i), 1));
}
/* The engines' cheap additive: the delta rotation nlerped from identity (on
 * its shorter arc), the delta scale by the scale mode (linear: 1 + w (s - 1)). */
void REF(additive_local_static_nlerp)(const KARGS *k)
{
    FOR_EACH(k) {
        kform a = ld_k(k->a, i), b = ld_k(k->b, i);
        REAL w = ALPHA(k, i);
        a.pos = v3_add(a.pos, v3_scale(b.pos, w));
        a.rot = q_mul(a.rot, q_nlerp_shortest(qt(R(1), R(0), R(0), R(0)), b.rot, w));
        a.scl = v3(a.scl.x * scale_blend(R(1), b.scl.x, w, k->p.scale), a.scl.y * scale_blend(R(1), b.scl.y, w, k->p.scale),
                   a.scl.z * scale_blend(R(1), b.scl.z, w, k->p.scale));
        st_transform(k->out, i, a);
    }
}
void REF(additive)(const KARGS *k)
{
    FOR_EACH(k) st_k(k->out, i, kf_additive(ld_k(k->a, i), ld_k(k->b, i), ALPHA(k, i), ALPHA_VEL(k, i)));
}
void REF(inertialize_offset)(const KARGS *k)
{
    FOR_EACH(k) st_k(k->out, i, kf_inertialize_offset(ld_k(k->a, i), ld_k(k->b, i)));
}
void REF(inertialize)(const KARGS *k)
{
    FOR_EACH(k) st_k(k->out, i, kf_inertialize(ld_k(k->a, i), ld_k(k->b, i), PARAM(k, time, i), PARAM(k, duration, i)));
}
/* a: the pose at the transition (fixed); roots hold (call.skel). */
void REF(extrapolate_decayed)(const KARGS *k)
{
    for (size_t i = 0; i < k->n; i++) {
        kform a = ld_k(k->a, i);
        st_k(k->out, i, is_root(k->skel, i) ? kf_hold(a) : kf_extrapolate_at(k, i, a, PARAM(k, time, i)));
    }
}
/* Dead blending: extrapolate the source pose from the transition (a) and
 * blend it into the destination (b) with alpha = smoothstep(t / T) and its
 * rate; roots take the destination's (the controller drives them). With
 * call.via the blend keeps its direction (ops.h, "Slerp via"). */
void REF(dead_blending)(const KARGS *k)
{
    for (size_t i = 0; i < k->n; i++) {
        REAL t = PARAM(k, time, i), T = PARAM(k, duration, i);
        REAL u = T > R(0) ? t / T : R(1);
        REAL alpha = smoothstep(u), alpha_dot = T > R(0) ? smoothstep_dx(u) / T : R(0);
        kform dst = ld_k(k->b, i), via = dst;
        kform ext = kf_extrapolate_at(k, i, ld_k(k->a, i), t);
        if (k->via[PB_ROT_W]) {   /* slerp via (ops.h): dst on the hemisphere of the state, the new state */
            if (q_dot(dst.rot, ld_q(k->via, i)) < R(0)) via.rot = q_neg(dst.rot);
            if (k->via_out[PB_ROT_W]) st_q(k->via_out, i, via.rot);
        }
        st_k(k->out, i, is_root(k->skel, i) ? dst : kf_blend_arc(ext, via, alpha, alpha_dot, PB_SCALE_EXP, !k->via[PB_ROT_W]));
    }
}

/* ---- Unreal's half-life estimate (UE 5.3 Dead Blending node) ----------------------------
 * At a transition, per element and per axis: h = clamp(scale d / max_mag(v, eps), min, max),
 * d the way from the source a to the destination b and v a's velocity along it. Moving
 * toward the destination, h is (scale times) the time to reach it at that speed; moving
 * away, the ratio is negative and h the minimum, so motion that heads the wrong way dies
 * quickly. Positions: d = b.pos - a.pos, v = a.vel; rotations: d = the rotation vector of
 * the shorter arc b.rot a.rot^-1 (a.ang's frame), v = a.ang; scales: d = log(b.scl /
 * a.scl), v = a.svl. max_mag keeps v's sign and its magnitude at least eps. A velocity of
 * exactly 0 gets half-life 0 instead (Unreal: the min or the max, by the sign d happens to
 * have): nothing moves either way, and 0 keeps padding and still joints at the identity
 * of the decay ops ("no extrapolation"), free of the sign of d's rounding. Out: vel, ang,
 * svl hold the half-lives of positions, rotations and scales. */
static REAL max_mag(REAL v, REAL eps) { return v >= R(0) ? (v > eps ? v : eps) : (v < -eps ? v : -eps); }
static REAL halflife_est(REAL d, REAL v, const REAL e[3])
{
    if (v == R(0)) return R(0);
    REAL h = e[0] * (d / max_mag(v, R(PB_HALFLIFE_EST_EPS)));
    return h < e[1] ? e[1] : h > e[2] ? e[2] : h;
}
static vec3 v3_halflife_est(vec3 d, vec3 v, const REAL e[3])
{
    return v3(halflife_est(d.x, v.x, e), halflife_est(d.y, v.y, e), halflife_est(d.z, v.z, e));
}
void REF(estimate_halflife)(const KARGS *k)
{
    float sc, lo, hi;   /* the call's scale, min, max (all 0: Unreal's defaults) */
    pb_halflife_est_of(&k->p, &sc, &lo, &hi);
    const REAL e[3] = { R(sc), R(lo), R(hi) };
    FOR_EACH(k) {
        kform a = ld_k(k->a, i);
        vec3 bp = ld_v(k->b, PB_POS_X, i), bs = ld_v(k->b, PB_SCL_X, i);
        vec3 dr = q_to_scaled_angle_axis(q_abs(q_mul_inv(ld_q(k->b, i), a.rot)));
        st_v(k->out, PB_VEL_X, i, v3_halflife_est(v3_sub(bp, a.pos), a.vel, e));
        st_v(k->out, PB_ANG_X, i, v3_halflife_est(dr, a.ang, e));
        vec3 ds = v3(log1p((bs.x - a.scl.x) / a.scl.x), log1p((bs.y - a.scl.y) / a.scl.y),
                     log1p((bs.z - a.scl.z) / a.scl.z));   /* log(b / a), well conditioned near 1 */
        st_v(k->out, PB_SVL_X, i, v3_halflife_est(ds, a.svl, e));
    }
}
