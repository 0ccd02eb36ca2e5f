/* transition.h — the transition and layering ops' kernels: blend, the
 * additive layers and inertialization, with their velocity-exact kineform
 * math (see reference/transition.h); decayed extrapolation and dead
 * blending are in dead.h. */

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

/* The transition ops with long dependency chains per vector (blend,
 * additive, inertialize, dead blending) run in passes over a batch of TR_BATCH elements, each pass
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
PB_VINLINE void tr_vq_store(float *const *bp, int first, size_t j, vq q)
{
    vstore(bp[first] + j, q.w), vstore(bp[first + 1] + j, q.x), vstore(bp[first + 2] + j, q.y), vstore(bp[first + 3] + j, q.z);
}
PB_VINLINE vq tr_vq_load(const float *const *bp, int first, size_t j)
{
    return vq_make(vload(bp[first] + j), vload(bp[first + 1] + j), vload(bp[first + 2] + j), vload(bp[first + 3] + j));
}

/* The slerp of q to p at t as d^t q, d = p q^-1 (on the shorter arc, or
 * along the arc to p as given), and its exact angular velocity from wq, wp
 * and tdot: one atan2 and one sincos serve both. Three steps, which the
 * blends run in passes over a batch (blend_batch):
 * 1. d, s = |v| and the half angle h (sqrt -> atan2); */
PB_VINLINE vq vslerp_d(vq q, vq p, int shortest, pb_vf *s, pb_vf *h)
{
    if (shortest) p = vq_sel(vlt(vq_dot(q, p), vzero()), vq_neg(p), p);
    vq d = vq_mul(p, vq_inv(q));   /* on the longer arc (slerp via) |rho| is between pi and 2 pi */
    if (shortest) d = vq_abs(d);
    vv3 v = vq_vec(d);
    *s = vsqrt(vv3_dot(v, v));
    *h = vhalf_angle(*s, d.w);
    return d;
}
/* 2. th = t rho (rho = to_saa(d)) and its rate (rho's by the inverse Jacobian), the sin and cos of t h; */
PB_VINLINE void vslerp_th(vq d, pb_vf s, pb_vf h, vv3 wq, vv3 wp, pb_vf t, pb_vf tdot, vv3 *th, vv3 *th_dot,
                          pb_vf *sn, pb_vf *cs)
{
    vv3 rho = vsaa_from_sh(vq_vec(d), s, h);
    vv3 rho_dot = vjl_inv_mul_sc(rho, vv3_sub(wp, vq_mul_vec3(d, wq)), vmul(h, vset1(2.0f)), s, d.w);
    *th = vv3_scale(rho, t);
    *th_dot = vv3_add(vv3_scale(rho, tdot), vv3_scale(rho_dot, t));
    vsincos(vmul(t, h), sn, cs);
}
/* 3. the rotation d^t q and its angular velocity. */
PB_VINLINE vv3 vslerp_rot(vq d, pb_vf s, pb_vf h, vq q, vv3 wq, pb_vf t, vv3 th, vv3 th_dot, pb_vf sn, pb_vf cs,
                          vq *rot)
{
    vv3 jl;
    vq e = vq_pow_jl_sc(d, s, h, t, th, th_dot, sn, cs, &jl);
    *rot = vq_mul(e, q);
    return vv3_add(jl, vq_mul_vec3(e, wq));
}
/* The blend's positions, scales and their rates into r (its rotation is the slerp's). */
PB_VINLINE void vkf_blend_rest(const vkf *a, const vkf *b, pb_vf t, pb_vf tdot, int lin, vkf *r)
{
    r->pos = vv3_lerp(a->pos, b->pos, t);
    r->vel = vv3_add(vv3_lerp(a->vel, b->vel, t), vv3_scale(vv3_sub(b->pos, a->pos), tdot));
    if (!lin && vv3_same_scale(a->scl, b->scl)) {   /* log(b.s / a.s) = 0: no log or exp, same bits */
        r->scl = a->scl;
        r->svl = vv3_add(vv3_lerp(a->svl, b->svl, t), vv3_scale(vv3_make(vzero(), vzero(), vzero()), tdot));
        return;
    }
    r->scl = vv3_scale_blend(a->scl, b->scl, t, lin);
    if (lin) {   /* svl = s' / s, s' = lerp(a.s a.svl, b.s b.svl) + t' (b.s - a.s) */
        vv3 ds = vv3_add(vv3_lerp(vv3_mul(a->scl, a->svl), vv3_mul(b->scl, b->svl), t),
                         vv3_scale(vv3_sub(b->scl, a->scl), tdot));
        r->svl = vv3_div(ds, r->scl);
    } else {
        r->svl = vv3_add(vv3_lerp(a->svl, b->svl, t), vv3_scale(vv3_log(vv3_div(b->scl, a->scl)), tdot));
    }
}
/* The blend of a batch of nb elements (the velocity-exact cross-fade) in three passes: vslerp_d,
 * vslerp_th, then vslerp_rot and the rest. a is read at elements ia + j, b at ib + j, out written
 * at ib + j (j < nb); t and tdot are ut and utd (uni), else per lane in buf[BL_T] and buf[BL_TD].
 * via (dead blending's state, or NULL): b's rotation taken on via's hemisphere, stored in via_out
 * and slerped to along the arc as given; else on the shorter arc. lin: scales linearly. */
enum { BL_D, BL_S = 4, BL_H, BL_TH, BL_THD = 9, BL_SN = 12, BL_CS, BL_T, BL_TD, BL_NBUF };
PB_VINLINE void blend_batch(const float *const *a, size_t ia, const float *const *b, size_t ib, float *const *out,
                            size_t nb, int uni, pb_vf ut, pb_vf utd, int lin, const float *const *via,
                            float *const *via_out, float (*buf)[TR_BATCH])
{
    float *bp[BL_NBUF];
    tr_buffers(buf, bp, BL_NBUF);
    const float *const *cb = (const float *const *)bp;
    FOR_TR_VECTORS(j, nb) {
        vq p = vq_load(b, ib + j);
        if (via) {
            p = vq_sel(vlt(vq_dot(p, vq_load(via, ib + j)), vzero()), vq_neg(p), p);
            vq_store(via_out, ib + j, p);
        }
        pb_vf s, h;
        tr_vq_store(bp, BL_D, j, vslerp_d(vq_load(a, ia + j), p, !via, &s, &h));
        vstore(bp[BL_S] + j, s), vstore(bp[BL_H] + j, h);
    }
    FOR_TR_VECTORS(j, nb) {
        pb_vf t = uni ? ut : vload(bp[BL_T] + j), tdot = uni ? utd : vload(bp[BL_TD] + j), sn, cs;
        vv3 th, th_dot;
        vslerp_th(tr_vq_load(cb, BL_D, j), vload(bp[BL_S] + j), vload(bp[BL_H] + j), vv3_load(a, PB_ANG_X, ia + j),
                  vv3_load(b, PB_ANG_X, ib + j), t, tdot, &th, &th_dot, &sn, &cs);
        vv3_store(bp, BL_TH, j, th), vv3_store(bp, BL_THD, j, th_dot);
        vstore(bp[BL_SN] + j, sn), vstore(bp[BL_CS] + j, cs);
    }
    FOR_TR_VECTORS(j, nb) {
        pb_vf t = uni ? ut : vload(bp[BL_T] + j), tdot = uni ? utd : vload(bp[BL_TD] + j);
        vkf av = vkf_load(a, ia + j), bv = vkf_load(b, ib + j), r;
        r.ang = vslerp_rot(tr_vq_load(cb, BL_D, j), vload(bp[BL_S] + j), vload(bp[BL_H] + j), av.rot, av.ang, t,
                           vv3_load(cb, BL_TH, j), vv3_load(cb, BL_THD, j), vload(bp[BL_SN] + j),
                           vload(bp[BL_CS] + j), &r.rot);
        vkf_blend_rest(&av, &bv, t, tdot, lin, &r);
        vkf_store(out, ib + j, &r);
    }
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
/* ---- transition and layering ops --------------------------------------------------------- */
/* uni, lin: constants where called (uniform weights in registers; linear scales) */
PB_VINLINE void blend_body(const pb_kargs *k, int uni, int lin)
{
    _Alignas(64) float buf[BL_NBUF][TR_BATCH];
    const pb_vf ut = vset1(k->p.alpha), utd = vset1(k->p.alpha_vel);
    FOR_TR_BATCHES(k, i0, nb) {
        if (!uni)
            FOR_TR_VECTORS(j, nb) vstore(buf[BL_T] + j, VALPHA(k, i0 + j)), vstore(buf[BL_TD] + j, VALPHA_VEL(k, i0 + j));
        blend_batch(k->a, i0, k->b, i0, k->out, nb, uni, ut, utd, lin, NULL, NULL, buf);
    }
}
static void k_blend(const pb_kargs *k)
{
    int lin = k->p.scale == PB_SCALE_LINEAR;
    if (uniform_params(k)) lin ? blend_body(k, 1, 1) : blend_body(k, 1, 0);
    else lin ? blend_body(k, 0, 1) : blend_body(k, 0, 0);
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
        if (!vall_eq(w[j], 0.0f)) a = local ? vq_mul_fma(a, dq[j]) : vq_mul_fma(dq[j], a);
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

/* The additive layer a b^w, velocities exact: one atan2 and one sincos
 * serve the whole rotation (vq_to_saa_sh, the sincos of vq_pow_jl_sc), 16-20 %
 * faster in cache than separate to_saa, pow and two Jacobians (Zen 4, 12800
 * joints). Passes: b's rotation vector (atan2); its rate and b^w's angle
 * (the inverse Jacobian, sincos); the rest. A vector whose weight and rate
 * are all 0 (a bone mask's zeros) is the base: the full form's values there
 * (b^0, q^0 and every term times 0 or rho(0) = 0; equal, though a zero of
 * the base may differ in sign), without reading b. uni (a constant where
 * called): w and wdot the per-call scalars, in registers; still (with uni,
 * a constant): that wdot is 0 (a layer at a constant weight, as the frame's),
 * whose wdot terms (9 multiplies and 9 adds a vector) are then dropped:
 * x + y 0 is x for finite y but for a zero's sign (-0 + +0 is +0). */
PB_VINLINE void additive_body(const pb_kargs *k, int uni, int still)
{
    enum { TH, THD = 3, S = 6, H, SN, CS, W, WD, NBUF };
    _Alignas(64) float buf[NBUF][TR_BATCH];
    float *bp[NBUF];
    tr_buffers(buf, bp, NBUF);
    const float *const *cb = (const float *const *)bp;
    unsigned char live[TR_BATCH / PB_LANES];
    const pb_vf uw = vset1(k->p.alpha), uwd = vset1(k->p.alpha_vel);
    const int ulive = k->p.alpha != 0.0f || k->p.alpha_vel != 0.0f;   /* uni: every vector alike */
    FOR_TR_BATCHES(k, i0, nb) {
        FOR_TR_VECTORS(j, nb) {   /* b's rotation vector (stored in TH until the next pass) */
            size_t i = i0 + j;
            pb_vf w = uni ? uw : VALPHA(k, i), wdot = uni ? uwd : VALPHA_VEL(k, i), s, h;
            if (!(live[j / PB_LANES] = uni ? ulive : !vall_eq(w, 0.0f) || !vall_eq(wdot, 0.0f))) continue;
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
            vv3_store(bp, THD, j, still ? vv3_scale(rho_dot, w) : vv3_fma(rho, wdot, vv3_scale(rho_dot, w)));
            vsincos(vmul(w, h), &sn, &cs);
            vstore(bp[SN] + j, sn), vstore(bp[CS] + j, cs);
        }
        FOR_TR_VECTORS(j, nb) {
            size_t i = i0 + j;
            const float *const *a = k->a, *const *b = k->b;
            float *const *r = k->out;
            if (!live[j / PB_LANES]) {
                vkf av = vkf_load(a, i);
                vkf_store(r, i, &av);
                continue;
            }
            /* b^w and the Jacobian of th on its rate (vq_pow_jl_sc); each result stored as soon as computed,
             * each input loaded where first used (as vkf_mul_planes) */
            pb_vf w = uni ? uw : vload(bp[W] + j), wdot = uni ? uwd : vload(bp[WD] + j);
            vv3 bpos = vv3_load(b, PB_POS_X, i);
            vv3_store(r, PB_POS_X, i, vv3_fma(bpos, w, vv3_load(a, PB_POS_X, i)));
            vv3 vel = vv3_fma(vv3_load(b, PB_VEL_X, i), w, vv3_load(a, PB_VEL_X, i));
            vv3_store(r, PB_VEL_X, i, still ? vel : vv3_fma(bpos, wdot, vel));
            pb_vf s = vload(bp[S] + j), h = vload(bp[H] + j), sn = vload(bp[SN] + j), cs = vload(bp[CS] + j);
            vv3 th = vv3_load(cb, TH, j), th_dot = vv3_load(cb, THD, j), jl;
            vq bw = vq_pow_jl_sc(vq_abs(vq_load(b, i)), s, h, w, th, th_dot, sn, cs, &jl), ar = vq_load(a, i);
            vq_store(r, i, vq_mul_fma(ar, bw));
            vv3_store(r, PB_ANG_X, i, vv3_add(vv3_load(a, PB_ANG_X, i), vq_mul_vec3_fma(ar, jl)));
            vv3 ls = vv3_log_scl(vv3_load(b, PB_SCL_X, i));
            vv3_store(r, PB_SCL_X, i, vv3_mul_exp(vv3_load(a, PB_SCL_X, i), vv3_scale(ls, w)));   /* a b^w */
            vv3 svl = vv3_fma(vv3_load(b, PB_SVL_X, i), w, vv3_load(a, PB_SVL_X, i));
            vv3_store(r, PB_SVL_X, i, still ? svl : vv3_fma(ls, wdot, svl));
        }
    }
}
static void k_additive(const pb_kargs *k)
{
    if (!uniform_params(k)) additive_body(k, 0, 0);
    else if (k->p.alpha_vel == 0.0f) additive_body(k, 1, 1);
    else additive_body(k, 1, 0);
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
            vv3_store(bp, TH, j, vv3_fma(ang, fv, vv3_scale(rho, fx)));
            vv3_store(bp, THD, j, vv3_fma(ang, dfv, vv3_scale(rho, dfx)));
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
            const float *const *d = k->a, *const *o = k->b;   /* destination, offset */
            float *const *r = k->out;
            /* each result stored as soon as computed, each input loaded where first used (as vkf_mul_planes) */
            vv3 op = vv3_load(o, PB_POS_X, i), ov = vv3_load(o, PB_VEL_X, i);
            vv3_store(r, PB_POS_X, i, vv3_fma(ov, fv, vv3_fma(op, fx, vv3_load(d, PB_POS_X, i))));
            vv3_store(r, PB_VEL_X, i, vv3_fma(ov, dfv, vv3_fma(op, dfx, vv3_load(d, PB_VEL_X, i))));
            vv3 th = vv3_load(cb, TH, j), th_dot = vv3_load(cb, THD, j), v = vv3_scale(th, vset1(0.5f));
            pb_vf f = vsel(veq(h, vzero()), vset1(1.0f), vdiv(sn, h));
            vq E = vq_make(cs, vmul(f, v.x), vmul(f, v.y), vmul(f, v.z));   /* from_saa(th) */
            vv3 jl = vjl_mul_sc(th, th_dot, vmul(h, vset1(2.0f)), sn, cs);
            vq_store(r, i, vq_mul_fma(E, vq_load(d, i)));
            vv3_store(r, PB_ANG_X, i, vv3_add(jl, vq_mul_vec3_fma(E, vv3_load(d, PB_ANG_X, i))));
            vv3 ls0 = vv3_log_scl(vv3_load(o, PB_SCL_X, i)), osv = vv3_load(o, PB_SVL_X, i);
            vv3 ls = vv3_fma(osv, fv, vv3_scale(ls0, fx));
            vv3_store(r, PB_SCL_X, i, vv3_mul_exp(vv3_load(d, PB_SCL_X, i), ls));
            vv3_store(r, PB_SVL_X, i, vv3_fma(osv, dfv, vv3_fma(ls0, dfx, vv3_load(d, PB_SVL_X, i))));
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
