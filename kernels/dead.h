/* dead.h — decayed extrapolation and dead blending (Holden's, and Unreal's
 * half-life estimate and joint limits) with their velocity-exact kineform
 * math (see reference/transition.h); included after transition.h, whose
 * blend it uses. */

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
/* Root joints' elements (j x C .. (j + 1) x C - 1) are set apart: extrapolate_decayed's hold
 * a (zero velocities), dead blending's take b (the destination drives them). Either is set
 * where the element is written, so that out may be a or b (in place: a fix-up after the loop
 * would read back what the loop wrote). Whether a root joint's elements meet [i, i + w);
 * *cur: the first root joint whose elements end past i (callers go in order: it only moves on). */
PB_VINLINE int roots_meet(const pb_skeleton *s, size_t i, size_t w, size_t *cur)
{
    size_t C = s->characters;
    while (*cur < s->joints && (s->parents[*cur] >= 0 || (*cur + 1) * C <= i)) ++*cur;
    return *cur < s->joints && *cur * C < i + w;
}
/* The root lanes of the vector at i take a's transform, zero velocities. */
PB_VINLINE void roots_hold(const pb_kargs *k, size_t i, size_t *cur, const vkf *a, vkf *r)
{
    const pb_skeleton *s = k->skel;
    if (!roots_meet(s, i, PB_LANES, cur)) return;
    _Alignas(64) float m[PB_LANES];
    for (size_t l = 0; l < PB_LANES; l++) {
        size_t j = (i + l) / s->characters;
        m[l] = j < s->joints && s->parents[j] < 0 ? 1.0f : 0.0f;
    }
    vkf hold = *a;
    hold.vel = hold.ang = hold.svl = vv3_make(vzero(), vzero(), vzero());
    *r = vkf_sel(vlt(vzero(), vload(m)), &hold, r);
}
/* The root elements of the batch [i0, i0 + nb) (a root joint at cur or later): b's values saved
 * (to_out 0, before the blend writes out) or written to out (to_out 1, after it); with no save
 * buffer (out is not b), b's values written to out. */
static void roots_take_b(const pb_kargs *k, size_t i0, size_t nb, size_t cur, float (*save)[TR_BATCH], int to_out)
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters, end = i0 + nb < k->n ? i0 + nb : k->n;
    for (size_t j = cur; j < s->joints && j * C < end; j++) {
        if (s->parents[j] >= 0) continue;
        size_t lo = j * C > i0 ? j * C : i0, hi = (j + 1) * C < end ? (j + 1) * C : end;
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t e = lo; e < hi; e++)
                if (!save) k->out[p][e] = k->b[p][e];
                else if (to_out) k->out[p][e] = save[p][e - i0];
                else save[p][e - i0] = k->b[p][e];
    }
}
static void k_extrapolate_decayed(const pb_kargs *k)
{
    size_t cur = 0;
    if (!uniform_params(k)) {
        FOR_VECTORS(k) {
            vkf a = vkf_load(k->a, i), r = vkf_extrapolate_per(k, i, vparam(k, k->per.time, k->p.time, 0, i), &a);
            roots_hold(k, i, &cur, &a, &r);
            vkf_store(k->out, i, &r);
        }
        return;
    }
    float f, df;
    decay_factors(k->p.time, k->p.halflife, &f, &df);
    pb_vf vf = vset1(f), vdf = vset1(df);
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), r = vkf_extrapolate(&a, vf, vdf);
        roots_hold(k, i, &cur, &a, &r);
        vkf_store(k->out, i, &r);
    }
}
/* The weight alpha of dead blending's blend (smoothstep of t / T) and its rate, per lane. */
PB_VINLINE void vdead_alpha(pb_vf t, pb_vf T, pb_vf *va, pb_vf *vad)
{
    pb_vm live = vlt(vzero(), T);
    pb_vf u = vsel(live, vdiv(t, vsel(live, T, vset1(1.0f))), vset1(1.0f));
    pb_vf c = vmin(vmax(u, vzero()), vset1(1.0f));
    *va = vmul(vmul(c, c), vsub(vset1(3), vmul(vset1(2), c)));
    pb_vm moving = mand(live, mand(vlt(vzero(), u), vlt(u, vset1(1.0f))));
    *vad = vsel(moving, vdiv(vmul(vmul(vset1(6), u), vsub(vset1(1), u)), vsel(live, T, vset1(1.0f))), vzero());
}
/* Dead blending in passes over a batch (transition.h): the source extrapolated into a batch
 * buffer, then the blend to b (blend_batch), slerping via the state when call.via is given
 * (ops.h: b's rotation on the state's hemisphere, stored as the new state). uni (a constant
 * where called): the extrapolation's factors f, df and the weight va, vad are per-call scalars
 * in registers; else per lane (half-lives, limits). */
PB_VINLINE void dead_body(const pb_kargs *k, int uni, int inb, pb_vf f, pb_vf df, pb_vf va, pb_vf vad)
{
    _Alignas(64) float ebuf[PB_PLANES][TR_BATCH], buf[BL_NBUF][TR_BATCH], save[PB_PLANES][TR_BATCH];
    float *ep[PB_PLANES];
    tr_buffers(ebuf, ep, PB_PLANES);
    int via = k->via[PB_ROT_W] != NULL;
    size_t cur = 0;
    FOR_TR_BATCHES(k, i0, nb) {
        int roots = inb && roots_meet(k->skel, i0, nb, &cur);   /* in place on b: saved per batch */
        if (roots) roots_take_b(k, i0, nb, cur, save, 0);
        FOR_TR_VECTORS(j, nb) {
            size_t i = i0 + j;
            vkf a = vkf_load(k->a, i), ext;
            if (uni) {
                ext = vkf_extrapolate(&a, f, df);
            } else {
                pb_vf t = vparam(k, k->per.time, k->p.time, 0, i), w, wd;
                vdead_alpha(t, vparam(k, k->per.duration, k->p.duration, 0, i), &w, &wd);
                vstore(buf[BL_T] + j, w), vstore(buf[BL_TD] + j, wd);
                ext = vkf_extrapolate_per(k, i, t, &a);
            }
            vkf_store(ep, j, &ext);
        }
        blend_batch((const float *const *)ep, 0, k->b, i0, k->out, nb, uni, va, vad, 0, via ? k->via : NULL,
                    via ? k->via_out : NULL, buf);
        if (roots) roots_take_b(k, i0, nb, cur, save, 1);
    }
    if (!inb) roots_take_b(k, 0, k->n, 0, NULL, 1);   /* b intact: its roots copied once */
}
/* inb (out is b, in place) a constant where dead_body is called: the per-batch root test in the
 * loop of the other case cost it 4-6 % on AVX2 (bench --sizes 4096,16384, Zen 4, three runs). */
static void k_dead_blending(const pb_kargs *k)
{
    int inb = 0;   /* any plane of out b's own (pb_run lets each plane be in place on its own) */
    for (int p = 0; p < PB_PLANES; p++) inb |= k->out[p] && k->out[p] == k->b[p];
    if (!uniform_params(k)) {
        if (inb) dead_body(k, 0, 1, vzero(), vzero(), vzero(), vzero());
        else dead_body(k, 0, 0, vzero(), vzero(), vzero(), vzero());
        return;
    }
    float t = k->p.time, T = k->p.duration, f, df;
    decay_factors(t, k->p.halflife, &f, &df);
    float u = T > 0 ? t / T : 1, c = u < 0 ? 0 : u > 1 ? 1 : u;
    float alpha = c * c * (3 - 2 * c), alpha_dot = (T > 0 && u > 0 && u < 1) ? 6 * u * (1 - u) / T : 0;
    if (inb) dead_body(k, 1, 1, vset1(f), vset1(df), vset1(alpha), vset1(alpha_dot));
    else dead_body(k, 1, 0, vset1(f), vset1(df), vset1(alpha), vset1(alpha_dot));
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
/* Unreal's half-life estimate per lane and axis (reference/transition.h), h = clamp(scale d / max_mag(v), lo, hi). */
typedef struct vhl_est { pb_vf scale, lo, hi; } vhl_est;
PB_VINLINE pb_vf vhalflife_est(pb_vf d, pb_vf v, vhl_est e)
{
    pb_vf eps = vset1(PB_HALFLIFE_EST_EPS);
    pb_vf m = vsel(vle(vzero(), v), vmax(v, eps), vmin(v, vneg(eps)));
    pb_vf h = vmul(e.scale, vdiv(d, m));
    h = vmin(vmax(h, e.lo), e.hi);
    return vsel(vlt(vzero(), vabs(v)), h, vzero());   /* v == 0: 0 */
}
PB_VINLINE vv3 vv3_halflife_est(vv3 d, vv3 v, vhl_est e)
{
    return vv3_make(vhalflife_est(d.x, v.x, e), vhalflife_est(d.y, v.y, e), vhalflife_est(d.z, v.z, e));
}
static void k_estimate_halflife(const pb_kargs *k)
{
    float sc, lo, hi;
    pb_halflife_est_of(&k->p, &sc, &lo, &hi);
    vhl_est e = { vset1(sc), vset1(lo), vset1(hi) };
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i);
        vv3 dp = vv3_sub(vv3_load(k->b, PB_POS_X, i), a.pos);
        vv3 dr = vq_to_saa(vq_abs(vq_mul(vq_load(k->b, i), vq_inv(a.rot))));
        vv3 bs = vv3_load(k->b, PB_SCL_X, i);
        vv3 ds = vv3_make(vlog_ratio(bs.x, a.scl.x), vlog_ratio(bs.y, a.scl.y), vlog_ratio(bs.z, a.scl.z));
        vv3_store(k->out, PB_VEL_X, i, vv3_halflife_est(dp, a.vel, e));
        vv3_store(k->out, PB_ANG_X, i, vv3_halflife_est(dr, a.ang, e));
        vv3_store(k->out, PB_SVL_X, i, vv3_halflife_est(ds, a.svl, e));
    }
}
