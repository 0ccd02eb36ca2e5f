/* elementwise.h — the per-element primitive ops' kernels (quat_mul ...
 * smoothstep), blend_static(_nlerp) and the AoS layout conversions, with
 * their vector math: the accurate (_dd) exp/log and the AoS interleave plans. */

/* |v| as h + *lo (*lo ~ ulp(h) or less; 0 when h = 0): squares and their sum
 * carried in two parts, then the float square root corrected by its residual
 * (S + Sl - h^2) / 2h, which needs only a rough reciprocal. */
PB_VINLINE pb_vf vv3_length_dd(vv3 v, pb_vf *lo)
{
    pb_vf px = vmul(v.x, v.x), py = vmul(v.y, v.y), pz = vmul(v.z, v.z);
    pb_vf a = vadd(px, py), S = vadd(a, pz);
    pb_vf sl = vadd(vadd(vadd_err(px, py, a), vadd_err(a, pz, S)),
                    vadd(vadd(vmul_err(v.x, v.x, px), vmul_err(v.y, v.y, py)), vmul_err(v.z, v.z, pz)));
    pb_vf h = vsqrt(S), t = vmul(h, h);
    pb_vf res = vadd(vsub(vsub(S, t), vmul_err(h, h, t)), sl);   /* S - t is exact (Sterbenz) */
    *lo = vsel(veq(h, vzero()), vzero(), vmul(res, vmul(vset1(0.5f), vrcp_est(h))));
    return h;
}
/* exp with |v| in two parts and sin/cos of that sum: the angle is not rounded
 * to ulp(|v|) (2.4e-7 near pi), which alone cost up to 5e-7 rad of rotation. */
PB_VINLINE vq vq_exp_dd(vv3 v)
{
    pb_vf hl, h = vv3_length_dd(v, &hl);
    pb_vf s, c;
    vsincos_dd(h, hl, &s, &c);
    pb_vf f = vdiv(s, h);
    f = vsub(f, vmul(f, vmul(hl, vrcp_est(h))));   /* s / (h + hl) */
    f = vsel(veq(h, vzero()), vset1(1.0f), f);
    return vq_make(c, vmul(f, v.x), vmul(f, v.y), vmul(f, v.z));
}
/* log with |v|, the angle and their ratio each in two parts, and the products
 * v (f_hi + f_lo) rounded once: near a half-angle of pi the output is ~pi long,
 * and each float rounding of the angle or of the ratio would cost ~1e-7. */
PB_VINLINE vv3 vq_log_dd(vq q)
{
    vv3 v = vq_vec(q);
    pb_vf sl, s = vv3_length_dd(v, &sl);
    pb_vf thl, th = vatan2_dd(s, q.w, &thl);
    thl = vfma(q.w, sl, thl);                       /* d atan2(s, w) / ds = w on the unit sphere */
    pb_vf fh = vdiv(th, s), p = vmul(fh, s);
    pb_vf rho = vsub(vsub(th, p), vmul_err(fh, s, p));   /* th - fh s, exactly enough */
    pb_vf fl = vmul(vsub(vadd(rho, thl), vmul(fh, sl)), vrcp_est(s));
    pb_vm zero = veq(s, vzero());
    fl = vsel(vlt(s, vset1(1e-30f)), vzero(), fl);
    fh = vsel(zero, vset1(1.0f), fh);
    return vv3_make(vmul_dd(v.x, fh, fl), vmul_dd(v.y, fh, fl), vmul_dd(v.z, fh, fl));
}
PB_VINLINE pb_vf vsmoothstep(pb_vf x)
{
    pb_vf c = vclamp(x, 0.0f, 1.0f);
    return vmul(vmul(c, c), vsub(vset1(3.0f), vmul(vset1(2.0f), c)));
}
PB_VINLINE pb_vf vsmoothstep_dx(pb_vf x)
{
    pb_vm inside = mand(vlt(vzero(), x), vlt(x, vset1(1.0f)));
    return vsel(inside, vmul(vmul(vset1(6.0f), x), vsub(vset1(1.0f), x)), vzero());
}

static void k_quat_mul(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_mul(vq_load(k->a, i), vq_load(k->b, i)));
}
static void k_quat_inv_mul(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_mul(vq_inv(vq_load(k->a, i)), vq_load(k->b, i)));
}
static void k_quat_mul_inv(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_mul(vq_load(k->a, i), vq_inv(vq_load(k->b, i))));
}
static void k_quat_mul_vec3(const pb_kargs *k)
{
    FOR_VECTORS(k) vv3_store(k->out, PB_POS_X, i, vq_mul_vec3(vq_load(k->a, i), vv3_load(k->b, PB_POS_X, i)));
}
static void k_quat_inv_mul_vec3(const pb_kargs *k)
{
    FOR_VECTORS(k) vv3_store(k->out, PB_POS_X, i, vq_mul_vec3(vq_inv(vq_load(k->a, i)), vv3_load(k->b, PB_POS_X, i)));
}
static void k_quat_abs(const pb_kargs *k) { FOR_VECTORS(k) vq_store(k->out, i, vq_abs(vq_load(k->a, i))); }
static void k_quat_normalize(const pb_kargs *k) { FOR_VECTORS(k) vq_store(k->out, i, vq_normalize(vq_load(k->a, i))); }
static void k_quat_exp(const pb_kargs *k) { FOR_VECTORS(k) vq_store(k->out, i, vq_exp_dd(vv3_load(k->a, PB_ANG_X, i))); }
static void k_quat_log(const pb_kargs *k) { FOR_VECTORS(k) vv3_store(k->out, PB_ANG_X, i, vq_log_dd(vq_load(k->a, i))); }
static void k_quat_from_scaled_angle_axis(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_exp_dd(vv3_scale(vv3_load(k->a, PB_ANG_X, i), vset1(0.5f))));
}
static void k_quat_to_scaled_angle_axis(const pb_kargs *k)
{
    FOR_VECTORS(k) vv3_store(k->out, PB_ANG_X, i, vv3_scale(vq_log_dd(vq_load(k->a, i)), vset1(2.0f)));
}
static void k_slerp_shortest(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_slerp_shortest(vq_load(k->a, i), vq_load(k->b, i), VALPHA(k, i)));
}
static void k_nlerp_shortest(const pb_kargs *k)
{
    FOR_VECTORS(k) vq_store(k->out, i, vq_nlerp_shortest(vq_load(k->a, i), vq_load(k->b, i), VALPHA(k, i)));
}
static void k_eerp(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        pb_vf t = VALPHA(k, i);
        for (int c = PB_SCL_X; c <= PB_SCL_Z; c++)
            vstore(k->out[c] + i, veerp(vload(k->a[c] + i), vload(k->b[c] + i), t));
    }
}
static void k_negexp(const pb_kargs *k)
{
    FOR_VECTORS(k) for (int c = 0; c < 3; c++)
        vstore(k->out[PB_SCL_X + c] + i, vexp(vneg(vload(k->a[PB_POS_X + c] + i))));
}
static void k_fast_negexp_est(const pb_kargs *k)
{
    FOR_VECTORS(k) for (int c = 0; c < 3; c++) {
        pb_vf x = vload(k->a[PB_POS_X + c] + i);
        pb_vf d = vfma(vfma(vfma(vset1(0.235f), x, vset1(0.48f)), x, vset1(1.0f)), x, vset1(1.0f));
        vstore(k->out[PB_SCL_X + c] + i, vdiv(vset1(1.0f), d));
    }
}
static void k_smoothstep(const pb_kargs *k)
{
    FOR_VECTORS(k) for (int c = 0; c < 3; c++) {
        pb_vf x = vload(k->a[PB_POS_X + c] + i);
        vstore(k->out[PB_POS_X + c] + i, vsmoothstep(x));
        vstore(k->out[PB_VEL_X + c] + i, vsmoothstep_dx(x));
    }
}

/* Static blend, pos/rot/scl only (120 B per element), with a weight per
 * element: lerp pos, slerp/nlerp rot, scl by lerp or eerp. The nlerp form in
 * three passes (positions, rotations, scales; each plane still read or
 * written once): a third of the streams and live vectors at a time, as the
 * additive layers. The slerp form in one: its rotation pass is compute-bound,
 * and alone it cannot overlap the other passes' memory traffic. Measured on
 * AMD Zen 4 (bench --op masked, ns per joint, avx512 / avx2, three passes
 * against one, runs alternating): slerp 4.9 / 6.9 against 4.4 / 6.3 at
 * 65536 joints, 6.8-6.9 / 8.6-9.0 against 6.1-6.5 / 7.2-7.8 at 1 M; nlerp at
 * 1 M 4.4-4.6 / 4.5-4.8 against 5.5 / 7.7 (30 streams at once, more than the
 * hardware prefetcher follows). */
PB_VINLINE void blend_static_rot(const pb_kargs *k, size_t i, int uni, pb_vf *t, vq *r)
{
    vq q[PB_ILP], p[PB_ILP];
    for (int j = 0; j < PB_ILP; j++) {
        size_t e = i + (size_t)j * PB_LANES;
        t[j] = uni ? vset1(k->p.alpha) : VALPHA(k, e);
        q[j] = vq_load(k->a, e), p[j] = vq_hemi(q[j], vq_load(k->b, e));
    }
    vq_slerp_arc_m(q, p, t, r, PB_ILP);
}
PB_VINLINE void blend_static_slerp(const pb_kargs *k, int lin, int uni)
{
    pb_vf t[PB_ILP];
    vq r[PB_ILP];
    FOR_GROUPS_STORE(k, PB_ILP, PB_POS_X, PB_SCL_Z + 1, blend_static_rot(k, i, uni, t, r), {
        o[PB_ROT_W] = r[j].w, o[PB_ROT_X] = r[j].x, o[PB_ROT_Y] = r[j].y, o[PB_ROT_Z] = r[j].z;
        for (int c = PB_POS_X; c <= PB_POS_Z; c++) o[c] = vlerp(vload(k->a[c] + i), vload(k->b[c] + i), t[j]);
        for (int c = PB_SCL_X; c <= PB_SCL_Z; c++) o[c] = vscale_blend(vload(k->a[c] + i), vload(k->b[c] + i), t[j], lin);
    });
}
PB_VINLINE void blend_static_body(const pb_kargs *k, int nlerp, int lin)
{
    if (!nlerp) {
        blend_static_slerp(k, lin, 0);
        return;
    }
    FOR_VECTORS_STORE(k, PB_POS_X, 3, {
        pb_vf t = VALPHA(k, i);
        for (int c = 0; c < 3; c++) o[c] = vlerp(vload(k->a[PB_POS_X + c] + i), vload(k->b[PB_POS_X + c] + i), t);
    });
    FOR_VECTORS_STORE(k, PB_ROT_W, 4, {
        vq r = vq_nlerp_shortest(vq_load(k->a, i), vq_load(k->b, i), VALPHA(k, i));
        o[0] = r.w, o[1] = r.x, o[2] = r.y, o[3] = r.z;
    });
    FOR_VECTORS_STORE(k, PB_SCL_X, 3, {
        pb_vf t = VALPHA(k, i);
        for (int c = 0; c < 3; c++) o[c] = vscale_blend(vload(k->a[PB_SCL_X + c] + i), vload(k->b[PB_SCL_X + c] + i), t, lin);
    });
}
/* With one weight for all, the nlerp form: plane by plane (three streams per
 * pass for pos and scl, twelve for the rotation). The one-loop body keeps 30 plane pointers
 * live, more than the integer registers, and spent a third of its
 * instructions reloading them; each plane is still read and written once. */
PB_VINLINE void blend_static_planes(const pb_kargs *k, int nlerp, int lin)
{
    if (!nlerp) {   /* one pass, as with per-element weights (1 M joints, avx512: 6.2-6.4 ns against 7.4-7.8) */
        blend_static_slerp(k, lin, 1);
        return;
    }
    const pb_vf t = vset1(k->p.alpha);
    const size_t n = k->n_padded;
    for (int c = PB_POS_X; c <= PB_POS_Z; c++) {
        const float *a = k->a[c], *b = k->b[c];
        float *o = k->out[c];
        for (size_t i = 0; i < n; i += PB_LANES) vstore(o + i, vlerp(vload(a + i), vload(b + i), t));
    }
    for (int c = PB_SCL_X; c <= PB_SCL_Z; c++) {
        const float *a = k->a[c], *b = k->b[c];
        float *o = k->out[c];
        for (size_t i = 0; i < n; i += PB_LANES) vstore(o + i, vscale_blend(vload(a + i), vload(b + i), t, lin));
    }
    const float *a[4] = { k->a[PB_ROT_W], k->a[PB_ROT_X], k->a[PB_ROT_Y], k->a[PB_ROT_Z] };
    const float *b[4] = { k->b[PB_ROT_W], k->b[PB_ROT_X], k->b[PB_ROT_Y], k->b[PB_ROT_Z] };
    float *o[4] = { k->out[PB_ROT_W], k->out[PB_ROT_X], k->out[PB_ROT_Y], k->out[PB_ROT_Z] };
    for (size_t i = 0; i < n; i += PB_LANES) {
        vq qa = vq_make(vload(a[0] + i), vload(a[1] + i), vload(a[2] + i), vload(a[3] + i));
        vq qb = vq_make(vload(b[0] + i), vload(b[1] + i), vload(b[2] + i), vload(b[3] + i));
        vq r = vq_nlerp_shortest(qa, qb, t);
        vstore(o[0] + i, r.w); vstore(o[1] + i, r.x); vstore(o[2] + i, r.y); vstore(o[3] + i, r.z);
    }
}
/* The flags are constants at each call: the compiler specializes the body. */
PB_VINLINE void blend_static_dispatch(const pb_kargs *k, int nlerp)
{
    int lin = k->p.scale == PB_SCALE_LINEAR, uni = uniform_params(k);
    if (uni) lin ? blend_static_planes(k, nlerp, 1) : blend_static_planes(k, nlerp, 0);
    else lin ? blend_static_body(k, nlerp, 1) : blend_static_body(k, nlerp, 0);
}
static void k_blend_static(const pb_kargs *k) { blend_static_dispatch(k, 0); }
static void k_blend_static_nlerp(const pb_kargs *k) { blend_static_dispatch(k, 1); }

/* ---- AoS <-> SoA: N-way (de)interleave with any-lane permutes ----------------------------
 * Interleaving N vectors into N*PB_LANES consecutive floats: output vector k,
 * lane l holds element g = k*L + l, i.e. component g % N of lane g / N. So
 * every source is permuted by the same index g / N and a select picks the
 * component: N permutes and N-1 selects per output vector, for any L and N.
 * Deinterleaving is the mirror image. Plans are built once per kernel call. */
typedef struct { int n; pb_vidx idx[4]; pb_vm pick[4][4]; } vil_plan;

PB_VINLINE void vil_plan_store(vil_plan *pl, int n)
{
    pl->n = n;
    for (int k = 0; k < n; k++) {
        int32_t idx[PB_LANES];
        float comp[PB_LANES];
        for (int l = 0; l < PB_LANES; l++) {
            int g = k * PB_LANES + l;
            idx[l] = g / n;
            comp[l] = (float)(g % n);
        }
        pl->idx[k] = vidx_make(idx);
        for (int s = 0; s < n; s++) pl->pick[k][s] = veq(vloadu(comp), vset1((float)s));
    }
}
PB_VINLINE void vil_plan_load(vil_plan *pl, int n)
{
    pl->n = n;
    for (int s = 0; s < n; s++) {
        int32_t idx[PB_LANES];
        float vec[PB_LANES];
        for (int j = 0; j < PB_LANES; j++) {
            int g = j * n + s;
            idx[j] = g % PB_LANES;
            vec[j] = (float)(g / PB_LANES);
        }
        pl->idx[s] = vidx_make(idx);
        for (int k = 0; k < n; k++) pl->pick[s][k] = veq(vloadu(vec), vset1((float)k));
    }
}
/* dst[N*L] <- interleave(src[0..N-1]) */
PB_VINLINE void vstore_interleaved(float *dst, const pb_vf *src, const vil_plan *pl)
{
    for (int k = 0; k < pl->n; k++) {
        pb_vf o = vpermute(src[0], pl->idx[k]);
        for (int s = 1; s < pl->n; s++) o = vsel(pl->pick[k][s], vpermute(src[s], pl->idx[k]), o);
        vstoreu(dst + (size_t)k * PB_LANES, o);
    }
}
/* dst[0..N-1] <- deinterleave(src[N*L]) */
PB_VINLINE void vload_deinterleaved(const float *src, pb_vf *dst, const vil_plan *pl)
{
    pb_vf in[4];
    for (int k = 0; k < pl->n; k++) in[k] = vloadu(src + (size_t)k * PB_LANES);
    for (int s = 0; s < pl->n; s++) {
        pb_vf o = vpermute(in[0], pl->idx[s]);
        for (int k = 1; k < pl->n; k++) o = vsel(pl->pick[s][k], vpermute(in[k], pl->idx[s]), o);
        dst[s] = o;
    }
}

/* Layout conversions. The AoS side holds exactly n elements, so the last
 * partial vector goes through a small buffer: its AoS part is copied out
 * (to_aos) or in, over identity (from_aos, keeping the pose padding identity). */
static void k_pose_to_aos(const pb_kargs *k)
{
    for (int a = 0; a < (k->aos_out[3] ? PB_AOS_ARRAYS : 3); a++) {   /* velocity arrays of full poses */
        int w = pb_aos_width[a], first = pb_aos_plane[a];
        vil_plan plan;
        vil_plan_store(&plan, w);
        float *dst = k->aos_out[a];
        for (size_t i = 0; i < k->n; i += PB_LANES) {
            pb_vf src[4];
            for (int c = 0; c < w; c++) src[c] = vload(k->a[first + c] + i);
            size_t left = k->n - i;
            if (left >= PB_LANES) {
                vstore_interleaved(dst + i * (size_t)w, src, &plan);
            } else {
                float buf[4 * PB_LANES];
                vstore_interleaved(buf, src, &plan);
                memcpy(dst + i * (size_t)w, buf, left * (size_t)w * sizeof(float));
            }
        }
    }
}
static void k_pose_from_aos(const pb_kargs *k)
{
    for (int a = 0; a < (k->aos_in[3] ? PB_AOS_ARRAYS : 3); a++) {
        int w = pb_aos_width[a], first = pb_aos_plane[a];
        vil_plan plan;
        vil_plan_load(&plan, w);
        const float *src = k->aos_in[a];
        for (size_t i = 0; i < k->n; i += PB_LANES) {
            pb_vf dst[4];
            size_t left = k->n - i;
            if (left >= PB_LANES) {
                vload_deinterleaved(src + i * (size_t)w, dst, &plan);
            } else {
                float buf[4 * PB_LANES];
                for (size_t j = 0; j < PB_LANES; j++)
                    for (int c = 0; c < w; c++) buf[j * (size_t)w + (size_t)c] = pb_plane_identity(first + c);
                memcpy(buf, src + i * (size_t)w, left * (size_t)w * sizeof(float));
                vload_deinterleaved(buf, dst, &plan);
            }
            for (int c = 0; c < w; c++) vstore(k->out[first + c] + i, dst[c]);
        }
    }
}
