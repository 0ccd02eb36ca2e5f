/* transition.h — the transition and layering ops' kernels: blend, the
 * additive layers, inertialization, decayed extrapolation and dead blending,
 * with their velocity-exact kineform math (see reference/transition.h). */

/* Shortcuts for scales that never change (nearly every real clip: BVH has no
 * scale channel), taken only where a whole vector qualifies and giving the
 * same bits: x / x is 1, vlog(1) is 0 and vexp(+-0) is 1 exactly, so eerp(x,
 * x, t) is x, log(y / x) times a finite rate is 0, and s exp(0) is s
 * (vall_eq is in vmath.h). */
PB_VINLINE int vv3_all(vv3 v, float c)
{
    pb_vf x = vset1(c);
    return !many(mnot(mand(mand(veq(v.x, x), veq(v.y, x)), veq(v.z, x))));
}
/* every lane's scales x and y the same positive finite value on all three axes */
PB_VINLINE int vv3_same_scale(vv3 x, vv3 y)
{
    pb_vm m = mand(mand(veq(x.x, y.x), veq(x.y, y.y)), veq(x.z, y.z));
    pb_vf lo = vmin(vmin(x.x, x.y), x.z), hi = vmax(vmax(x.x, x.y), x.z);
    return !many(mnot(mand(m, mand(vlt(vzero(), lo), vlt(hi, vset1(INFINITY))))));
}
PB_VINLINE vv3 vv3_log_scl(vv3 s) { return vv3_all(s, 1.0f) ? vv3_make(vzero(), vzero(), vzero()) : vv3_log(s); }
/* s exp(e) per axis: s itself where every e is 0 */
PB_VINLINE vv3 vv3_mul_exp(vv3 s, vv3 e)
{
    return vv3_all(e, 0.0f) ? s : vv3_mul(s, vv3_exp(e));
}

/* The slerp of q to p at t as d^t q, d = p q^-1 (on the shorter arc, or
 * along the arc to p as given), and its exact angular velocity from wq, wp
 * and tdot: one atan2 and one sincos (vq_to_saa_sh, vq_pow_jl) serve both. */
PB_VINLINE vv3 vslerp_ang(vq q, vv3 wq, vq p, vv3 wp, pb_vf t, pb_vf tdot, int shortest, vq *rot)
{
    if (shortest) p = vq_sel(vlt(vq_dot(q, p), vzero()), vq_neg(p), p);
    vq d = vq_mul(p, vq_inv(q));   /* on the longer arc (slerp via) |rho| is between pi and 2 pi */
    if (shortest) d = vq_abs(d);
    pb_vf s, h;
    vv3 rho = vq_to_saa_sh(d, &s, &h), jl;
    vv3 rho_dot = vjl_inv_mul_sc(rho, vv3_sub(wp, vq_mul_vec3(d, wq)), vmul(h, vset1(2.0f)), s, d.w);
    vv3 th = vv3_scale(rho, t);
    vv3 th_dot = vv3_add(vv3_scale(rho, tdot), vv3_scale(rho_dot, t));
    vq e = vq_pow_jl(d, s, h, t, th, th_dot, &jl);
    *rot = vq_mul(e, q);
    return vv3_add(jl, vq_mul_vec3(e, wq));
}
/* shortest and lin are constants where used: 0 slerps via (the arc to b as given) */
PB_VINLINE vkf vkf_blend_arc(const vkf *a, const vkf *b, pb_vf t, pb_vf tdot, int lin, int shortest)
{
    vkf r;
    r.pos = vv3_lerp(a->pos, b->pos, t);
    r.vel = vv3_add(vv3_lerp(a->vel, b->vel, t), vv3_scale(vv3_sub(b->pos, a->pos), tdot));
    r.ang = vslerp_ang(a->rot, a->ang, b->rot, b->ang, t, tdot, shortest, &r.rot);
    if (!lin && vv3_same_scale(a->scl, b->scl)) {   /* log(b.s / a.s) = 0: no log or exp, same bits */
        r.scl = a->scl;
        r.svl = vv3_add(vv3_lerp(a->svl, b->svl, t), vv3_scale(vv3_make(vzero(), vzero(), vzero()), tdot));
        return r;
    }
    r.scl = vv3_scale_blend(a->scl, b->scl, t, lin);
    if (lin) {   /* svl = s' / s, s' = lerp(a.s a.svl, b.s b.svl) + t' (b.s - a.s) */
        vv3 ds = vv3_add(vv3_lerp(vv3_mul(a->scl, a->svl), vv3_mul(b->scl, b->svl), t),
                         vv3_scale(vv3_sub(b->scl, a->scl), tdot));
        r.svl = vv3_div(ds, r.scl);
    } else {
        r.svl = vv3_add(vv3_lerp(a->svl, b->svl, t), vv3_scale(vv3_log(vv3_div(b->scl, a->scl)), tdot));
    }
    return r;
}
PB_VINLINE vkf vkf_blend(const vkf *a, const vkf *b, pb_vf t, pb_vf tdot, int lin)
{
    return vkf_blend_arc(a, b, t, tdot, lin, 1);
}
/* Dead blending's blend, slerping via the state when call.via is given (ops.h): b's rotation
 * on the state's hemisphere, stored as the new state. */
PB_VINLINE vkf vkf_dead_blend(const pb_kargs *k, size_t i, const vkf *ext, vkf *b, pb_vf t, pb_vf tdot)
{
    if (!k->via[PB_ROT_W]) return vkf_blend_arc(ext, b, t, tdot, 0, 1);
    b->rot = vq_sel(vlt(vq_dot(b->rot, vq_load(k->via, i)), vzero()), vq_neg(b->rot), b->rot);
    vq_store(k->via_out, i, b->rot);
    return vkf_blend_arc(ext, b, t, tdot, 0, 0);
}
/* s^w for m of them (m <= 3), as vexp_m */
PB_VINLINE void vpow_m(const pb_vf *s, pb_vf w, pb_vf *r, int m)
{
    pb_vf l[3];
    vlog_m(s, l, m);
    for (int j = 0; j < m; j++) l[j] = vmul(w, l[j]);
    vexp_m(l, r, m);
}
/* q^t for q with w >= 0 (the reference's from_saa(t to_saa(q))) in one step:
 * the half angle h = atan2(|v|, w), then (cos th, sin(th) v / |v|), which
 * saves the exp's square root and one division. */
PB_VINLINE void vq_pow_hemi_m(const vq *q, const pb_vf *t, vq *r, int m)   /* m of them, as vsincos_m */
{
    pb_vf s[2], h[2];
    for (int j = 0; j < m; j++) {
        vv3 v = vq_vec(q[j]);
        s[j] = vsqrt(vv3_dot(v, v));
    }
    for (int j = 0; j < m; j++) h[j] = vatan2_pos(s[j], vabs(q[j].w));
    vq_pow_sh_m(q, s, h, t, r, m);
}
PB_VINLINE vq vq_pow_hemi(vq q, pb_vf t)
{
    vq r;
    vq_pow_hemi_m(&q, &t, &r, 1);
    return r;
}
PB_VINLINE vkf vkf_inertialize_offset(const vkf *src, const vkf *dst)
{
    vkf o;
    vq D = vq_abs(vq_mul(src->rot, vq_inv(dst->rot)));
    o.pos = vv3_sub(src->pos, dst->pos);
    o.rot = D;
    o.scl = vv3_div(src->scl, dst->scl);
    o.vel = vv3_sub(src->vel, dst->vel);
    o.ang = vjl_inv_mul(vq_to_saa(D), vv3_sub(src->ang, vq_mul_vec3(D, dst->ang)));
    o.svl = vv3_sub(src->svl, dst->svl);
    return o;
}
/* f = (1 - exp(-l t)) / l and df = exp(-l t): per-call scalars. */
PB_VINLINE vkf vkf_extrapolate(const vkf *a, pb_vf f, pb_vf df)
{
    vkf r;
    r.pos = vv3_add(a->pos, vv3_scale(a->vel, f));
    r.vel = vv3_scale(a->vel, df);
    r.rot = vq_mul(vq_from_saa(vv3_scale(a->ang, f)), a->rot);
    r.ang = vv3_scale(a->ang, df);
    vv3 e = vv3_scale(a->svl, f);
    r.scl = vv3_mul_exp(a->scl, e);
    r.svl = vv3_scale(a->svl, df);
    return r;
}
/* The same with a half-life per axis (factors f, df per component; [0] positions, [1]
 * rotations, [2] log-scales). The
 * rotation vector v = ang (.) f turns as well as grows, so the angular
 * velocity is J(v) dv/dt, J the left Jacobian (it is dv/dt when v keeps its
 * direction, as with one half-life). */
PB_VINLINE vkf vkf_extrapolate_axes(const vkf *a, const vv3 f[3], const vv3 df[3])
{
    vkf r;
    r.pos = vv3_add(a->pos, vv3_mul(a->vel, f[0]));
    r.vel = vv3_mul(a->vel, df[0]);
    vv3 v = vv3_mul(a->ang, f[1]);
    r.rot = vq_mul(vq_from_saa_jl(v, vv3_mul(a->ang, df[1]), &r.ang), a->rot);
    vv3 e = vv3_mul(a->svl, f[2]);
    r.scl = vv3_mul_exp(a->scl, e);
    r.svl = vv3_mul(a->svl, df[2]);
    return r;
}

/* ---- transition and layering ops --------------------------------------------------------- */
PB_VINLINE void blend_body(const pb_kargs *k, int lin)
{
    FOR_VECTORS(k) {
        pb_vf t = VALPHA(k, i), tdot = VALPHA_VEL(k, i);
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i), r = vkf_blend(&a, &b, t, tdot, lin);
        vkf_store(k->out, i, &r);
    }
}
static void k_blend(const pb_kargs *k)
{
    if (k->p.scale == PB_SCALE_LINEAR) blend_body(k, 1);
    else blend_body(k, 0);
}
/* Static additive layers in three passes, positions, rotations, scales: each
 * plane is still read or written once, but a pass holds a third of the live
 * vectors (AVX2 has 16 registers; one pass over all planes spilled) and
 * streams a third of the planes. Vectors whose weights are all 0 keep the
 * base (q^0, nlerp(1, q, 0), s^0 and lerp(1, s, 0) are exactly the identity
 * in the full form too), and a scale delta of exactly 1 is skipped (vlog(1)
 * = 0, vexp(0) = 1, lerp(1, 1, w) = 1): the values are the full
 * computation's (equal: a zero of the base may differ in sign, a 0 + -0
 * there), without its cost, where masks are 0 and deltas do not scale.
 * nlerp: the delta rotation nlerped from identity; lin: scales linearly
 * (both constants where used). */
/* The weights w and the weighted delta rotations dq of a group of PB_ILP
 * vectors at i (identity where the whole group's weights are 0). */
PB_VINLINE void additive_delta_rot(const pb_kargs *k, size_t i, int nlerp, pb_vf *w, vq *dq)
{
    const vq id = vq_make(vset1(1.0f), vzero(), vzero(), vzero());
    vq b[PB_ILP];
    int any = 0;
    for (int j = 0; j < PB_ILP; j++) {
        w[j] = VALPHA(k, i + (size_t)j * PB_LANES);
        any |= !vall_eq(w[j], 0.0f);
        dq[j] = id;
    }
    if (!any) return;
    for (int j = 0; j < PB_ILP; j++) b[j] = vq_load(k->b, i + (size_t)j * PB_LANES);
    if (nlerp)
        for (int j = 0; j < PB_ILP; j++) dq[j] = vq_nlerp_shortest(id, b[j], w[j]);
    else {
        for (int j = 0; j < PB_ILP; j++) b[j] = vq_abs(b[j]);
        vq_pow_hemi_m(b, w, dq, PB_ILP);
    }
}
PB_VINLINE void additive_static_body(const pb_kargs *k, int local, int nlerp, int lin)
{
    FOR_VECTORS_STORE(k, PB_POS_X, 3, {
        pb_vf w = VALPHA(k, i);
        for (int c = 0; c < 3; c++) o[c] = vadd(vload(k->a[PB_POS_X + c] + i), vmul(vload(k->b[PB_POS_X + c] + i), w));
    });
    pb_vf w[PB_ILP];
    vq dq[PB_ILP];
    FOR_GROUPS_STORE(k, PB_ILP, PB_ROT_W, 4, additive_delta_rot(k, i, nlerp, w, dq), {
        vq a = vq_load(k->a, i);
        if (!vall_eq(w[j], 0.0f)) a = local ? vq_mul(a, dq[j]) : vq_mul(dq[j], a);
        o[0] = a.w, o[1] = a.x, o[2] = a.y, o[3] = a.z;
    });
    FOR_VECTORS_STORE(k, PB_SCL_X, 3, {   /* the three axes' pow together (vpow_m) where any needs one */
        pb_vf w = VALPHA(k, i), a[3], b[3], pw[3];
        int skip = vall_eq(w, 0.0f), need[3], any = 0;
        for (int c = 0; c < 3; c++) {
            a[c] = vload(k->a[PB_SCL_X + c] + i), b[c] = vload(k->b[PB_SCL_X + c] + i);
            need[c] = !skip && !vall_eq(b[c], 1.0f);
            any |= need[c];
        }
        if (any && !lin) vpow_m(b, w, pw, 3);
        for (int c = 0; c < 3; c++) o[c] = need[c] ? vmul(a[c], lin ? vlerp(vset1(1.0f), b[c], w) : pw[c]) : a[c];
    });
}
static void k_additive_world_static(const pb_kargs *k) { additive_static_body(k, 0, 0, 0); }
static void k_additive_local_static(const pb_kargs *k) { additive_static_body(k, 1, 0, 0); }
static void k_additive_local_static_nlerp(const pb_kargs *k)
{
    if (k->p.scale == PB_SCALE_LINEAR) additive_static_body(k, 1, 1, 1);
    else additive_static_body(k, 1, 1, 0);
}
/* The transition ops with long dependency chains per vector (additive,
 * inertialize) run in passes over a batch of TR_BATCH elements, each pass
 * over the whole batch before the next, through a few KB of buffer (in L1):
 * one vector's chain alone (sqrt -> atan2 -> division, then sincos ->
 * Jacobian) left the core idle, a batch's independent chains overlap. The
 * same operations per lane as one pass, so the same bits. Batches of 4
 * vectors measured best (fused default frame, Zen 4; 8 and 16 within 2 %). */
#define TR_BATCH (4 * PB_LANES)
#define FOR_TR_BATCHES(k, i0, nb)                                                                       \
    for (size_t i0 = 0, nb = 0; i0 < (k)->n_padded &&                                                   \
                                ((nb = (k)->n_padded - i0 < TR_BATCH ? (k)->n_padded - i0 : TR_BATCH), 1); \
         i0 += TR_BATCH)
#define FOR_TR_VECTORS(j, nb) for (size_t j = 0; j < (nb); j += PB_LANES)
static inline void tr_buffers(float (*buf)[TR_BATCH], float **bp, int n)
{
    for (int q = 0; q < n; q++) bp[q] = buf[q];
}

/* The additive layer a b^w, velocities exact: one atan2 and one sincos
 * serve the whole rotation (vq_to_saa_sh, the sincos of vq_pow_jl), 16-20 %
 * faster in cache than separate to_saa, pow and two Jacobians (Zen 4, 12800
 * joints). Passes: b's rotation vector (atan2); its rate and b^w's angle
 * (the inverse Jacobian, sincos); the rest. A vector whose weight and rate
 * are all 0 (a bone mask's zeros) is the base: the full form's values there
 * (b^0, q^0 and every term times 0 or rho(0) = 0; equal, though a zero of
 * the base may differ in sign), without reading b. uni (a constant where
 * called): w and wdot the per-call scalars, in registers. */
PB_VINLINE void additive_body(const pb_kargs *k, int uni)
{
    enum { TH, THD = 3, S = 6, H, SN, CS, W, WD, NBUF };
    _Alignas(64) float buf[NBUF][TR_BATCH];
    float *bp[NBUF];
    tr_buffers(buf, bp, NBUF);
    const float *const *cb = (const float *const *)bp;
    unsigned char live[TR_BATCH / PB_LANES];
    const pb_vf uw = vset1(k->p.alpha), uwd = vset1(k->p.alpha_vel);
    FOR_TR_BATCHES(k, i0, nb) {
        FOR_TR_VECTORS(j, nb) {   /* b's rotation vector (stored in TH until the next pass) */
            size_t i = i0 + j;
            pb_vf w = uni ? uw : VALPHA(k, i), wdot = uni ? uwd : VALPHA_VEL(k, i), s, h;
            if (!(live[j / PB_LANES] = !vall_eq(w, 0.0f) || !vall_eq(wdot, 0.0f))) continue;
            if (!uni) vstore(bp[W] + j, w), vstore(bp[WD] + j, wdot);
            vv3_store(bp, TH, j, vq_to_saa_sh(vq_abs(vq_load(k->b, i)), &s, &h));
            vstore(bp[S] + j, s), vstore(bp[H] + j, h);
        }
        FOR_TR_VECTORS(j, nb) {   /* th = w rho and its rate; sin and cos of w h */
            if (!live[j / PB_LANES]) continue;
            size_t i = i0 + j;
            pb_vf w = uni ? uw : vload(bp[W] + j), wdot = uni ? uwd : vload(bp[WD] + j);
            pb_vf s = vload(bp[S] + j), h = vload(bp[H] + j), sn, cs;
            vv3 rho = vv3_load(cb, TH, j);
            vv3 rho_dot = vjl_inv_mul_sc(rho, vv3_load(k->b, PB_ANG_X, i), vmul(h, vset1(2.0f)), s, vq_abs(vq_load(k->b, i)).w);
            vv3_store(bp, TH, j, vv3_scale(rho, w));
            vv3_store(bp, THD, j, vv3_add(vv3_scale(rho, wdot), vv3_scale(rho_dot, w)));
            vsincos(vmul(w, h), &sn, &cs);
            vstore(bp[SN] + j, sn), vstore(bp[CS] + j, cs);
        }
        FOR_TR_VECTORS(j, nb) {
            size_t i = i0 + j;
            vkf a = vkf_load(k->a, i), r = a;
            if (live[j / PB_LANES]) {   /* b^w and the Jacobian of th on its rate (vq_pow_jl) */
                vkf b = vkf_load(k->b, i);
                pb_vf w = uni ? uw : vload(bp[W] + j), wdot = uni ? uwd : vload(bp[WD] + j);
                pb_vf s = vload(bp[S] + j), h = vload(bp[H] + j), sn = vload(bp[SN] + j), cs = vload(bp[CS] + j);
                vv3 th = vv3_load(cb, TH, j), th_dot = vv3_load(cb, THD, j), ls = vv3_log_scl(b.scl);
                vv3 jl = vjl_mul_sc(th, th_dot, vmul(vmul(vabs(w), h), vset1(2.0f)), vsel(vlt(w, vzero()), vneg(sn), sn), cs);
                vq bw = vq_pow_sc(vq_abs(b.rot), s, w, sn, cs);
                r.pos = vv3_add(a.pos, vv3_scale(b.pos, w));
                r.rot = vq_mul(a.rot, bw);
                r.scl = vv3_mul_exp(a.scl, vv3_scale(ls, w));   /* a b^w */
                r.vel = vv3_add(vv3_add(a.vel, vv3_scale(b.vel, w)), vv3_scale(b.pos, wdot));
                r.ang = vv3_add(a.ang, vq_mul_vec3(a.rot, jl));
                r.svl = vv3_add(vv3_add(a.svl, vv3_scale(b.svl, w)), vv3_scale(ls, wdot));
            }
            vkf_store(k->out, i, &r);
        }
    }
}
static void k_additive(const pb_kargs *k)
{
    if (uniform_params(k)) additive_body(k, 1);
    else additive_body(k, 0);
}
static void k_inertialize_offset(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i), r = vkf_inertialize_offset(&a, &b);
        vkf_store(k->out, i, &r);
    }
}
/* The cubic's factors for time and duration per lane (per-element parameters). */
PB_VINLINE void vdecay_cubic(pb_vf t, pb_vf T, pb_vf *fx, pb_vf *fv, pb_vf *dfx, pb_vf *dfv)
{
    pb_vm live = mand(vlt(vzero(), T), vlt(t, T));
    pb_vf Ts = vsel(live, T, vset1(1.0f)), u = vdiv(t, Ts), u2 = vmul(u, u), u3 = vmul(u2, u);
    *fx = vsel(live, vadd(vsub(vmul(vset1(2), u3), vmul(vset1(3), u2)), vset1(1)), vzero());
    *fv = vsel(live, vmul(vadd(vsub(u3, vmul(vset1(2), u2)), u), Ts), vzero());
    *dfx = vsel(live, vdiv(vsub(vmul(vset1(6), u2), vmul(vset1(6), u)), Ts), vzero());
    *dfv = vsel(live, vadd(vsub(vmul(vset1(3), u2), vmul(vset1(4), u)), vset1(1)), vzero());
}
/* Inertialization in passes (see additive_body): the offset's rotation
 * vector decayed (sqrt -> atan2 -> division), its half angle's sin and cos
 * (sqrt -> sincos), then the rest. Measured in the fused default frame
 * (Zen 4): the stage 86-89 -> 70-72 us on AVX-512, 134 -> 99-101 on AVX2. */
/* uni (a constant where called): the factors are the per-call scalars u[4],
 * kept in registers; else per lane, through the buffer (measured: buffering
 * uniform ones cost the frame's stage 4 %). */
PB_VINLINE void inertialize_body(const pb_kargs *k, int uni, const float u[4])
{
    enum { TH, THD = 3, H = 6, SN, CS, FX, FV, DFX, DFV, NBUF };
    _Alignas(64) float buf[NBUF][TR_BATCH];
    float *bp[NBUF];
    tr_buffers(buf, bp, NBUF);
    const float *const *cb = (const float *const *)bp;
    const pb_vf ufx = vset1(u[0]), ufv = vset1(u[1]), udfx = vset1(u[2]), udfv = vset1(u[3]);
    FOR_TR_BATCHES(k, i0, nb) {
        FOR_TR_VECTORS(j, nb) {   /* the factors; the offset's rotation vector, decayed */
            size_t i = i0 + j;
            pb_vf fx = ufx, fv = ufv, dfx = udfx, dfv = udfv;
            if (!uni) {
                vdecay_cubic(vparam(k, k->per.time, k->p.time, 0, i), vparam(k, k->per.duration, k->p.duration, 0, i),
                             &fx, &fv, &dfx, &dfv);
                vstore(bp[FX] + j, fx), vstore(bp[FV] + j, fv), vstore(bp[DFX] + j, dfx), vstore(bp[DFV] + j, dfv);
            }
            vv3 rho = vq_to_saa(vq_abs(vq_load(k->b, i))), ang = vv3_load(k->b, PB_ANG_X, i);
            vv3_store(bp, TH, j, vv3_add(vv3_scale(rho, fx), vv3_scale(ang, fv)));
            vv3_store(bp, THD, j, vv3_add(vv3_scale(rho, dfx), vv3_scale(ang, dfv)));
        }
        FOR_TR_VECTORS(j, nb) {   /* from_saa's half angle (vq_exp_sc), its sin and cos */
            vv3 v = vv3_scale(vv3_load(cb, TH, j), vset1(0.5f));
            pb_vf h = vsqrt(vv3_dot(v, v)), sn, cs;
            vsincos(h, &sn, &cs);
            vstore(bp[H] + j, h), vstore(bp[SN] + j, sn), vstore(bp[CS] + j, cs);
        }
        FOR_TR_VECTORS(j, nb) {   /* the destination plus the decayed offset, velocities exact */
            size_t i = i0 + j;
            pb_vf fx = ufx, fv = ufv, dfx = udfx, dfv = udfv;
            if (!uni) fx = vload(bp[FX] + j), fv = vload(bp[FV] + j), dfx = vload(bp[DFX] + j), dfv = vload(bp[DFV] + j);
            pb_vf h = vload(bp[H] + j), sn = vload(bp[SN] + j), cs = vload(bp[CS] + j);
            vkf d = vkf_load(k->a, i), o = vkf_load(k->b, i), r;
            vv3 th = vv3_load(cb, TH, j), th_dot = vv3_load(cb, THD, j), v = vv3_scale(th, vset1(0.5f));
            pb_vf f = vsel(veq(h, vzero()), vset1(1.0f), vdiv(sn, h));
            vq E = vq_make(cs, vmul(f, v.x), vmul(f, v.y), vmul(f, v.z));   /* from_saa(th) */
            vv3 jl = vjl_mul_sc(th, th_dot, vmul(h, vset1(2.0f)), sn, cs), ls0 = vv3_log_scl(o.scl);
            vv3 ls = vv3_add(vv3_scale(ls0, fx), vv3_scale(o.svl, fv));
            vv3 ls_dot = vv3_add(vv3_scale(ls0, dfx), vv3_scale(o.svl, dfv));
            r.pos = vv3_add(d.pos, vv3_add(vv3_scale(o.pos, fx), vv3_scale(o.vel, fv)));
            r.vel = vv3_add(d.vel, vv3_add(vv3_scale(o.pos, dfx), vv3_scale(o.vel, dfv)));
            r.rot = vq_mul(E, d.rot);
            r.ang = vv3_add(jl, vq_mul_vec3(E, d.ang));
            r.scl = vv3_mul_exp(d.scl, ls);
            r.svl = vv3_add(d.svl, ls_dot);
            vkf_store(k->out, i, &r);
        }
    }
}
static void k_inertialize(const pb_kargs *k)
{
    /* uniform: the cubic's factors depend only on time and duration, once per call */
    float t = k->p.time, T = k->p.duration, u[4] = { 0, 0, 0, 0 };
    if (T > 0 && t < T) {
        float x = t / T, x2 = x * x;
        u[0] = 2 * x2 * x - 3 * x2 + 1;
        u[1] = (x2 * x - 2 * x2 + x) * T;
        u[2] = (6 * x2 - 6 * x) / T;
        u[3] = 3 * x2 - 4 * x + 1;
    }
    if (uniform_params(k)) inertialize_body(k, 1, u);
    else inertialize_body(k, 0, u);
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
/* The same per lane: 1 - exp(-x) by its series below x = 0.5 (no cancellation
 * for small l t), from exp above. */
PB_VINLINE void vdecay_factors(pb_vf t, pb_vf halflife, pb_vf *f, pb_vf *df)
{
    pb_vm live = vlt(vzero(), halflife);
    pb_vf l = vdiv(vset1(0.69314718055994530942f), vsel(live, halflife, vset1(1.0f))), x = vmul(l, t);
    pb_vf e = vexp(vneg(x));
    pb_vf s = vset1(1.0f / 362880);   /* x - x^2/2! + ... + x^9/9!, Horner */
    static const float c[8] = { -1.0f / 40320, 1.0f / 5040, -1.0f / 720, 1.0f / 120, -1.0f / 24, 1.0f / 6, -0.5f, 1.0f };
    for (int q = 0; q < 8; q++) s = vfma(s, x, vset1(c[q]));
    s = vmul(s, x);
    pb_vf om = vsel(vlt(x, vset1(0.5f)), s, vsub(vset1(1.0f), e));
    *df = vsel(live, e, vzero());
    *f = vsel(live, vdiv(om, l), vzero());
}
/* Joint limits, one axis per lane (reference/transition.h limit_axis): x kept in [lo, hi]
 * (clamped, or folded by reflection when bounce); *s the factor on its rate; *in where x was inside. */
PB_VINLINE pb_vf vlimit_axis(pb_vf x, pb_vf lo, pb_vf hi, int bounce, pb_vf *s, pb_vm *inside)
{
    pb_vm in = *inside = mand(vle(lo, x), vle(x, hi));
    pb_vf held = vmin(vmax(x, lo), hi);
    if (!bounce) {
        *s = vsel(in, vset1(1.0f), vzero());
        return vsel(in, x, held);
    }
    pb_vf w = vsub(hi, lo), p = vadd(w, w), m = vsub(x, lo);
    pb_vm wide = vlt(lo, hi);
    m = vsub(m, vmul(p, vfloor(vdiv(m, vsel(wide, p, vset1(1.0f))))));
    pb_vm out = vlt(w, m);
    pb_vf y = vsel(out, vsub(hi, vsub(m, w)), vadd(lo, m));
    *s = vsel(in, vset1(1.0f), vsel(wide, vsel(out, vset1(-1.0f), vset1(1.0f)), vzero()));
    return vsel(in, x, vsel(wide, y, held));
}
/* r, extrapolated from source rotation src, within the joint limits (per.limits). */
PB_VINLINE vkf vkf_limited(const pb_kargs *k, size_t i, vq src, vkf r)
{
    static const float pad0[3] = { 0, 0, 0 }, pad_rest[4] = { 1, 0, 0, 0 };
    const pb_joint_limits *L = k->per.limits;
    pb_vf lo[3], hi[3], q[4] = { vset1(1.0f), vzero(), vzero(), vzero() };
    vparam_joint(k, L->lo, 3, pad0, i, lo);
    vparam_joint(k, L->hi, 3, pad0, i, hi);
    if (L->rest) vparam_joint(k, L->rest, 4, pad_rest, i, q);
    vq rest = vq_make(q[0], q[1], q[2], q[3]), irest = vq_inv(rest);
    vv3 l0 = vq_to_saa(vq_abs(vq_mul(irest, src))), l = vq_to_saa(vq_abs(vq_mul(irest, r.rot)));
    pb_vf x[3] = { l.x, l.y, l.z }, x0[3] = { l0.x, l0.y, l0.z }, y[3], s[3];
    pb_vm limited = vlt(vset1(1.0f), vzero());
    for (int c = 0; c < 3; c++) {
        pb_vf a = vsel(vlt(x0[c], lo[c]), vsub(x0[c], vset1(PB_LIMIT_SLACK)), lo[c]);
        pb_vf b = vsel(vlt(hi[c], x0[c]), vadd(x0[c], vset1(PB_LIMIT_SLACK)), hi[c]);
        pb_vm in;
        y[c] = vlimit_axis(x[c], a, b, L->mode == PB_LIMIT_BOUNCE, &s[c], &in);
        limited = mor(limited, mnot(in));
    }
    if (!many(limited)) return r;
    vv3 ld = vjl_inv_mul(l, vq_mul_vec3(irest, r.ang)), ly = vv3_make(y[0], y[1], y[2]);
    vkf o = r;
    vv3 jl;
    o.rot = vq_mul(rest, vq_from_saa_jl(ly, vv3_mul(ld, vv3_make(s[0], s[1], s[2])), &jl));
    o.ang = vq_mul_vec3(rest, jl);
    return vkf_sel(limited, &o, &r);
}
/* a extrapolated by t with the call's half-lives, no limits. */
PB_VINLINE vkf vkf_extrapolate_half(const pb_kargs *k, size_t i, pb_vf t, const vkf *a)
{
    if (k->per.halflife_axis || k->per.halflives) {
        vv3 hl[3], f[3], df[3];
        if (k->per.halflives) {
            const float *const *pl = (const float *const *)k->per.halflives->plane;
            hl[0] = vv3_load(pl, PB_VEL_X, i), hl[1] = vv3_load(pl, PB_ANG_X, i), hl[2] = vv3_load(pl, PB_SVL_X, i);
        } else {
            hl[0] = hl[1] = hl[2] = vparam_axes(k, k->per.halflife_axis, i);
        }
        int chans = k->per.halflives ? 3 : 1;
        for (int c = 0; c < chans; c++) {
            vdecay_factors(t, hl[c].x, &f[c].x, &df[c].x);
            vdecay_factors(t, hl[c].y, &f[c].y, &df[c].y);
            vdecay_factors(t, hl[c].z, &f[c].z, &df[c].z);
        }
        for (int c = chans; c < 3; c++) f[c] = f[0], df[c] = df[0];
        return vkf_extrapolate_axes(a, f, df);
    }
    pb_vf f, df;
    vdecay_factors(t, vparam(k, k->per.halflife, k->p.halflife, 0, i), &f, &df);
    return vkf_extrapolate(a, f, df);
}
/* a extrapolated by t with the call's per-element half-lives (per character or uniform, per
 * joint per axis, or per element per axis and channel), within the joint limits when given. */
PB_VINLINE vkf vkf_extrapolate_per(const pb_kargs *k, size_t i, pb_vf t, const vkf *a)
{
    vkf r = vkf_extrapolate_half(k, i, t, a);
    return k->per.limits ? vkf_limited(k, i, a->rot, r) : r;
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
    if (!uniform_params(k)) {
        FOR_VECTORS(k) {
            vkf a = vkf_load(k->a, i), r = vkf_extrapolate_per(k, i, vparam(k, k->per.time, k->p.time, 0, i), &a);
            vkf_store(k->out, i, &r);
        }
        roots_fixup(k, 0);
        return;
    }
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
    if (!uniform_params(k)) {
        FOR_VECTORS(k) {
            pb_vf t = vparam(k, k->per.time, k->p.time, 0, i), T = vparam(k, k->per.duration, k->p.duration, 0, i);
            pb_vm live = vlt(vzero(), T);
            pb_vf u = vsel(live, vdiv(t, vsel(live, T, vset1(1.0f))), vset1(1.0f));
            pb_vf c = vmin(vmax(u, vzero()), vset1(1.0f));
            pb_vf va = vmul(vmul(c, c), vsub(vset1(3), vmul(vset1(2), c)));
            pb_vm moving = mand(live, mand(vlt(vzero(), u), vlt(u, vset1(1.0f))));
            pb_vf vad = vsel(moving, vdiv(vmul(vmul(vset1(6), u), vsub(vset1(1), u)), vsel(live, T, vset1(1.0f))), vzero());
            vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i);
            vkf ext = vkf_extrapolate_per(k, i, t, &a), r = vkf_dead_blend(k, i, &ext, &b, va, vad);
            vkf_store(k->out, i, &r);
        }
        roots_fixup(k, 1);
        return;
    }
    float t = k->p.time, T = k->p.duration, f, df;
    decay_factors(t, k->p.halflife, &f, &df);
    float u = T > 0 ? t / T : 1, c = u < 0 ? 0 : u > 1 ? 1 : u;
    float alpha = c * c * (3 - 2 * c), alpha_dot = (T > 0 && u > 0 && u < 1) ? 6 * u * (1 - u) / T : 0;
    pb_vf vf = vset1(f), vdf = vset1(df), va = vset1(alpha), vad = vset1(alpha_dot);
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i);
        vkf ext = vkf_extrapolate(&a, vf, vdf), r = vkf_dead_blend(k, i, &ext, &b, va, vad);
        vkf_store(k->out, i, &r);
    }
    roots_fixup(k, 1);
}
/* log(b / a) for positive a, b as log1p((b - a) / a): b - a is exact where it matters (b
 * near a), so an inexact division (NEON's) costs an ulp of the small quotient, not of b / a
 * near 1. log1p(u) = log(w) u / (w - 1), w = 1 + u (exact where w = 1: u). */
PB_VINLINE pb_vf vlog_ratio(pb_vf b, pb_vf a)
{
    pb_vf u = vdiv(vsub(b, a), a), w = vadd(vset1(1.0f), u), wm1 = vsub(w, vset1(1.0f));
    pb_vm one = vle(vabs(wm1), vzero());
    return vsel(one, u, vdiv(vmul(vlog(w), u), vsel(one, vset1(1.0f), wm1)));
}
/* Unreal's half-life estimate per lane and axis (reference/transition.h). */
PB_VINLINE pb_vf vhalflife_est(pb_vf d, pb_vf v)
{
    pb_vf eps = vset1(PB_HALFLIFE_EST_EPS);
    pb_vf m = vsel(vle(vzero(), v), vmax(v, eps), vmin(v, vneg(eps)));
    pb_vf h = vmul(vset1(PB_HALFLIFE_EST_SCALE), vdiv(d, m));
    h = vmin(vmax(h, vset1(PB_HALFLIFE_EST_MIN)), vset1(PB_HALFLIFE_EST_MAX));
    return vsel(vlt(vzero(), vabs(v)), h, vzero());   /* v == 0: 0 */
}
PB_VINLINE vv3 vv3_halflife_est(vv3 d, vv3 v)
{
    return vv3_make(vhalflife_est(d.x, v.x), vhalflife_est(d.y, v.y), vhalflife_est(d.z, v.z));
}
static void k_estimate_halflife(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i);
        vv3 dp = vv3_sub(vv3_load(k->b, PB_POS_X, i), a.pos);
        vv3 dr = vq_to_saa(vq_abs(vq_mul(vq_load(k->b, i), vq_inv(a.rot))));
        vv3 bs = vv3_load(k->b, PB_SCL_X, i);
        vv3 ds = vv3_make(vlog_ratio(bs.x, a.scl.x), vlog_ratio(bs.y, a.scl.y), vlog_ratio(bs.z, a.scl.z));
        vv3_store(k->out, PB_VEL_X, i, vv3_halflife_est(dp, a.vel));
        vv3_store(k->out, PB_ANG_X, i, vv3_halflife_est(dr, a.ang));
        vv3_store(k->out, PB_SVL_X, i, vv3_halflife_est(ds, a.svl));
    }
}
