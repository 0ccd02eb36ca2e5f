/* target.h — the targeting ops' kernels: look-at and two-bone IK, with their
 * math (vq_between, vik_solve, vkf_step, vq_rate; see reference/target.h). */

/* ---- look-at and two-bone IK (see reference/target.h) ------------------------------------- */
PB_VINLINE vv3 vv3_normalize_or(vv3 v, vv3 fallback)
{
    pb_vf l = vv3_length(v);
    pb_vm zero = veq(l, vzero());
    pb_vf inv = vdiv(vset1(1.0f), vsel(zero, vset1(1.0f), l));
    vv3 n = vv3_scale(v, inv);
    return vv3_make(vsel(zero, fallback.x, n.x), vsel(zero, fallback.y, n.y), vsel(zero, fallback.z, n.z));
}
PB_VINLINE vv3 vv3_set(float x, float y, float z) { return vv3_make(vset1(x), vset1(y), vset1(z)); }
PB_VINLINE vv3 vv3_perpendicular(vv3 u)
{
    vv3 e = vv3_sel(vlt(vabs(u.x), vset1(0.9f)), vv3_set(1, 0, 0), vv3_set(0, 1, 0));
    return vv3_normalize_or(vv3_cross(u, e), vv3_set(0, 0, 1));
}
PB_VINLINE pb_vm vantiparallel(vv3 u, vv3 v) { return vlt(vv3_dot(u, v), vset1(-1.0f + 1e-6f)); }
PB_VINLINE vq vq_between(vv3 u, vv3 v)
{
    vv3 x = vv3_cross(u, v), ax = vv3_perpendicular(u);
    vq q = vq_normalize(vq_make(vadd(vset1(1.0f), vv3_dot(u, v)), x.x, x.y, x.z));
    return vq_sel(vantiparallel(u, v), vq_make(vzero(), ax.x, ax.y, ax.z), q);
}
PB_VINLINE vq vq_between_d(vv3 u, vv3 du, vv3 v, vv3 dv, pb_vm anti, vq *q)
{
    vv3 x = vv3_cross(u, v), dx = vv3_add(vv3_cross(du, v), vv3_cross(u, dv));
    vq h = vq_make(vadd(vset1(1.0f), vv3_dot(u, v)), x.x, x.y, x.z);
    vq dh = vq_make(vadd(vv3_dot(du, v), vv3_dot(u, dv)), dx.x, dx.y, dx.z);
    pb_vf len = vsqrt(vq_dot(h, h));
    pb_vf inv = vdiv(vset1(1.0f), vsel(anti, vset1(1.0f), len));
    *q = vq_make(vmul(h.w, inv), vmul(h.x, inv), vmul(h.y, inv), vmul(h.z, inv));
    pb_vf along = vq_dot(*q, dh);
    return vq_make(vmul(vsub(dh.w, vmul(q->w, along)), inv), vmul(vsub(dh.x, vmul(q->x, along)), inv),
                   vmul(vsub(dh.y, vmul(q->y, along)), inv), vmul(vsub(dh.z, vmul(q->z, along)), inv));
}
PB_VINLINE vv3 vq_between_ang(vv3 u, vv3 du, vv3 v, vv3 dv)
{
    pb_vm anti = vantiparallel(u, v);
    vq q, dq = vq_between_d(u, du, v, dv, anti, &q);
    vq w = vq_mul(dq, vq_inv(q));
    vv3 ang = vv3_scale(vq_vec(w), vset1(2.0f));
    return vv3_sel(anti, vv3_set(0, 0, 0), ang);
}
/* The turn stopped at the cone (reference: q_clamp_turn), and the clamped
 * turn's rate (q_clamped_ang) for lanes `clamped`. */
PB_VINLINE vq vq_clamp_turn(vq B, pb_vf cone, pb_vm *clamped)
{
    pb_vf s, c;
    vsincos(vmul(vmin(cone, vset1(3.14159265358979323846f)), vset1(0.5f)), &s, &c);
    *clamped = vlt(B.w, c);
    pb_vf l = vv3_length(vq_vec(B));
    pb_vf k = vdiv(s, vsel(*clamped, l, vset1(1.0f)));
    return vq_sel(*clamped, vq_make(c, vmul(B.x, k), vmul(B.y, k), vmul(B.z, k)), B);
}
PB_VINLINE vv3 vq_clamped_ang(vv3 u, vv3 du, vv3 v, vv3 dv, vq Bc, pb_vm clamped)
{
    pb_vm anti = vantiparallel(u, v), use = mand(mnot(anti), clamped);
    vq q, dq = vq_between_d(u, du, v, dv, anti, &q);
    vv3 vb = vq_vec(q), dvb = vq_vec(dq);
    pb_vf l = vv3_length(vb);
    pb_vf inv = vdiv(vset1(1.0f), vsel(use, l, vset1(1.0f)));
    vv3 n = vv3_scale(vb, inv);
    vv3 dn = vv3_scale(vv3_sub(dvb, vv3_scale(n, vv3_dot(n, dvb))), inv);
    pb_vf s = vv3_length(vq_vec(Bc));
    vq dBc = vq_make(vzero(), vmul(dn.x, s), vmul(dn.y, s), vmul(dn.z, s));
    vv3 ang = vv3_scale(vq_vec(vq_mul(dBc, vq_inv(Bc))), vset1(2.0f));
    return vv3_sel(use, ang, vv3_set(0, 0, 0));
}
PB_VINLINE vkf vkf_lookat_impl(const vkf *h, vv3 t, vv3 tv, vv3 axis, int with_vel, int coned, pb_vf cone)
{
    vv3 x = vv3_sub(t, h->pos);
    pb_vf len = vv3_length(x);
    pb_vm none = mnot(vlt(vzero(), len));                 /* target at the head */
    pb_vf inv = vdiv(vset1(1.0f), vsel(none, vset1(1.0f), len));
    vv3 d = vv3_scale(x, inv);
    vv3 f = vq_mul_vec3(h->rot, axis);
    vq B = vq_between(f, d);
    pb_vm clamped = vlt(vzero(), vzero());
    if (coned) B = vq_clamp_turn(B, cone, &clamped);
    vkf r = *h;
    r.rot = vq_sel(none, h->rot, vq_mul(B, h->rot));
    if (with_vel) {
        vv3 df = vv3_cross(h->ang, f), dx = vv3_sub(tv, h->vel);
        vv3 dd = vv3_scale(vv3_sub(dx, vv3_scale(d, vv3_dot(d, dx))), inv);
        vv3 turn = vq_between_ang(f, df, d, dd);
        if (coned) turn = vv3_sel(clamped, vq_clamped_ang(f, df, d, dd, B, clamped), turn);
        vv3 ang = vv3_add(turn, vq_mul_vec3(B, h->ang));
        r.ang = vv3_sel(none, h->ang, ang);
    }
    return r;
}
PB_VINLINE vkf vkf_lookat(const vkf *h, vv3 t, vv3 tv, vv3 axis, int with_vel)
{
    return vkf_lookat_impl(h, t, tv, axis, with_vel, 0, vzero());
}

PB_VINLINE pb_vf vvec_angle(vv3 u, vv3 v) { return vatan2(vv3_length(vv3_cross(u, v)), vv3_dot(u, v)); }
PB_VINLINE vq vq_axis_angle(vv3 axis, pb_vf angle)
{
    pb_vf s, c;
    vsincos(vmul(angle, vset1(0.5f)), &s, &c);
    return vq_make(c, vmul(axis.x, s), vmul(axis.y, s), vmul(axis.z, s));
}
typedef struct { vq root, mid; } vik_result;
PB_VINLINE vik_result vik_solve(const vkf *root, const vkf *mid_l, const vkf *end_l, vv3 T, vv3 hint)
{
    vkf mid = vkf_mul_static(root, mid_l), end = vkf_mul_static(&mid, end_l);
    vv3 A = root->pos, B = mid.pos, C = end.pos;
    vv3 ab = vv3_sub(B, A), cb = vv3_sub(C, B), ac = vv3_sub(C, A), at = vv3_sub(T, A);
    pb_vf lab = vv3_length(ab), lcb = vv3_length(cb), total = vadd(lab, lcb), eps = vmul(vset1(1e-4f), total);
    pb_vf lo = vadd(vabs(vsub(lab, lcb)), eps), hi = vsub(total, eps);
    pb_vf lat = vmin(vmax(vv3_length(at), lo), hi);
    pb_vf f1 = vsub(total, lat), f2 = vadd(total, lat), f3 = vadd(vsub(lat, lab), lcb), f4 = vsub(vadd(lat, lab), lcb);
    pb_vf heron = vsqrt(vmax(vzero(), vmul(vmul(f1, f2), vmul(f3, f4))));
    pb_vf lab2 = vmul(lab, lab), lcb2 = vmul(lcb, lcb), lat2 = vmul(lat, lat);
    pb_vf knee_want = vatan2(heron, vsub(vadd(lab2, lcb2), lat2));
    pb_vf root_want = vatan2(heron, vsub(vadd(lab2, lat2), lcb2));
    pb_vf knee_now = vvec_angle(vv3_scale(ab, vset1(-1.0f)), cb);
    pb_vf root_now = vvec_angle(ac, ab);
    vv3 hint_w = vq_mul_vec3(root->rot, hint);
    vv3 acn = vv3_normalize_or(ac, vv3_normalize_or(ab, vv3_set(0, -1, 0)));
    vv3 hint_perp = vv3_sub(hint_w, vv3_scale(acn, vv3_dot(hint_w, acn)));
    vv3 axis0 = vv3_cross(ac, ab);
    pb_vf plane = vv3_length(axis0);
    pb_vm in_plane = vlt(vmul(vset1(1e-6f), vmul(lab, lcb)), plane);
    vv3 axis0n = vv3_scale(axis0, vdiv(vset1(1.0f), vsel(in_plane, plane, vset1(1.0f))));
    vv3 fallback = vv3_sel(vlt(vset1(1e-3f), vv3_length(hint_perp)), vv3_normalize_or(hint_perp, acn),
                           vv3_perpendicular(acn));
    axis0 = vv3_sel(in_plane, axis0n, fallback);
    vv3 axis1 = vv3_cross(ac, at);
    pb_vf swing_len = vv3_length(axis1);
    pb_vm swings = vlt(vzero(), swing_len);
    vv3 axis1n = vv3_scale(axis1, vdiv(vset1(1.0f), vsel(swings, swing_len, vset1(1.0f))));
    vq swing = vq_axis_angle(axis1n, vsel(swings, vvec_angle(ac, at), vzero()));
    vq knee_w = vq_axis_angle(axis0, vsub(knee_want, knee_now));
    vq root_w = vq_axis_angle(axis0, vsub(root_want, root_now));
    vik_result r;
    r.root = vq_mul(swing, vq_mul(root_w, root->rot));
    r.mid = vq_mul(mid_l->rot, vq_mul(vq_inv(mid.rot), vq_mul(knee_w, mid.rot)));
    return r;
}
PB_VINLINE vkf vkf_step(vkf k, pb_vf dt)
{
    k.pos = vv3_add(k.pos, vv3_scale(k.vel, dt));
    k.rot = vq_mul(vq_from_saa(vv3_scale(k.ang, dt)), k.rot);
    vv3 e = vv3_scale(k.svl, dt);
    k.scl = vv3_mul(k.scl, vv3_make(vexp(e.x), vexp(e.y), vexp(e.z)));
    return k;
}
PB_VINLINE vv3 vq_rate(vq later, vq earlier, pb_vf inv_dt)
{
    return vv3_scale(vq_to_saa(vq_abs(vq_mul(later, vq_inv(earlier)))), inv_dt);
}

/* ---- look-at and two-bone IK ------------------------------------------------------------ */
static inline vv3 unit_axis(const pb_params *p)
{
    float l = sqrtf(p->axis[0] * p->axis[0] + p->axis[1] * p->axis[1] + p->axis[2] * p->axis[2]);
    return l > 0 ? vv3_set(p->axis[0] / l, p->axis[1] / l, p->axis[2] / l) : vv3_set(0, 0, 1);
}
static inline void lookat_body(const pb_kargs *k, int with_vel, int coned)
{
    vv3 axis = unit_axis(&k->p);
    FOR_VECTORS(k) {
        vkf h = with_vel ? vkf_load(k->a, i) : vkf_load_transform(k->a, i);
        vv3 t = vv3_load(k->b, PB_POS_X, i), tv = with_vel ? vv3_load(k->b, PB_VEL_X, i) : vv3_set(0, 0, 0);
        pb_vf cone = coned ? vparam(k, k->per.cone, k->p.cone, 0, i) : vzero();
        vkf r = vkf_lookat_impl(&h, t, tv, axis, with_vel, coned, cone);
        vkf_store_n(k->out, i, PB_LANES, with_vel ? PB_PLANES : 10, &r);
    }
}
static void k_lookat_static(const pb_kargs *k) { lookat_body(k, 0, 0); }
static void k_lookat(const pb_kargs *k) { lookat_body(k, 1, 0); }
static void k_lookat_cone_static(const pb_kargs *k) { lookat_body(k, 0, 1); }
static void k_lookat_cone(const pb_kargs *k) { lookat_body(k, 1, 1); }

/* Chains in crowd layout: the roots, mids and ends of all chains are three
 * contiguous blocks, so a vector of chains is three plain loads per plane. */
static inline void ik_body(const pb_kargs *k, int with_vel)
{
    size_t C = k->n / 3;
    int np = with_vel ? PB_PLANES : 10;
    vv3 hint = unit_axis(&k->p);
    float dt = k->p.dt;
    pb_vf h = vset1(dt / 2), mh = vset1(-dt / 2), inv_dt = vset1(dt > 0 ? 1.0f / dt : 0.0f);
    for (size_t c = 0; c < C; c += PB_LANES) {
        size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
        vkf root = vkf_load_n(k->a, c, cnt, np), mid = vkf_load_n(k->a, C + c, cnt, np);
        vkf end = vkf_load_n(k->a, 2 * C + c, cnt, np);
        vkf tk = vkf_load_n(k->b, 2 * C + c, cnt, with_vel ? PB_PLANES : 10);
        vik_result r = vik_solve(&root, &mid, &end, tk.pos, hint);
        vkf ro = root, mo = mid;
        ro.rot = r.root;
        mo.rot = r.mid;
        if (with_vel && dt > 0) {
            vkf r0 = vkf_step(root, mh), m0 = vkf_step(mid, mh), e0 = vkf_step(end, mh);
            vkf r1 = vkf_step(root, h), m1 = vkf_step(mid, h), e1 = vkf_step(end, h);
            vik_result lo = vik_solve(&r0, &m0, &e0, vv3_add(tk.pos, vv3_scale(tk.vel, mh)), hint);
            vik_result up = vik_solve(&r1, &m1, &e1, vv3_add(tk.pos, vv3_scale(tk.vel, h)), hint);
            ro.ang = vq_rate(up.root, lo.root, inv_dt);
            mo.ang = vq_rate(up.mid, lo.mid, inv_dt);
        }
        vkf_store_n(k->out, c, cnt, np, &ro);
        vkf_store_n(k->out, C + c, cnt, np, &mo);
        vkf_store_n(k->out, 2 * C + c, cnt, np, &end);
    }
}
static void k_two_bone_ik(const pb_kargs *k) { ik_body(k, 0); }
static void k_two_bone_ik_vel(const pb_kargs *k) { ik_body(k, 1); }
