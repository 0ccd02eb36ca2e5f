/* bspace.h — the blend-space weights kernels (posebench/bspace.h; reference:
 * reference/bspace.h). SIMD across characters: PB_LANES parameters a step
 * (the last step partial), the method's tables broadcast. Each lane does the
 * reference's operations in the reference's order, so 1D, barycentric and
 * gradient-band weights equal the float reference's bit for bit where the
 * ISA divides exactly (not NEON through SIMDe: backend_neon.h); the polar
 * form differs also by vatan2 against libm's atan2f (one per character). */

/* Lanes c .. c + cnt - 1 of the characters. */
#define BS_FOR_STEPS(k, c, cnt) \
    for (size_t c = 0, cnt; c < (k)->n && ((cnt = (k)->n - c < PB_LANES ? (k)->n - c : PB_LANES), 1); c += PB_LANES)

static void k_bspace_1d(const pb_bs_kargs *k)
{
    const float *s = k->t, *gap = k->t + k->m;
    BS_FOR_STEPS(k, c, cnt) {
        pb_vf p = vload_n(k->x + c, cnt, 0.0f);
        for (size_t j = 0; j < k->m; j++) {
            pb_vf lo = j == 0 ? vset1(1.0f) : vclamp(vdiv(vsub(p, vset1(s[j - 1])), vset1(gap[j - 1])), 0.0f, 1.0f);
            pb_vf hi = j + 1 == k->m ? vset1(1.0f)
                                     : vclamp(vdiv(vsub(vset1(s[j + 1]), p), vset1(gap[j])), 0.0f, 1.0f);
            vstore_n(k->w + (size_t)k->it[j] * k->w_stride + c, cnt, vmin(lo, hi));
        }
    }
}

/* Character lanes' weights from up to three (sample, weight) pairs per lane
 * (sample indices as floats; -1: none). */
static void bs_expand(const pb_bs_kargs *k, size_t c, size_t cnt, const pb_vf *idx, const pb_vf *l)
{
    for (size_t i = 0; i < k->m; i++) {
        pb_vf s = vset1((float)i), w = vzero();
        for (int j = 0; j < 3; j++) w = vadd(w, vsel(veq(idx[j], s), l[j], vzero()));
        vstore_n(k->w + i * k->w_stride + c, cnt, w);
    }
}

static void k_bspace_bary(const pb_bs_kargs *k)
{
    const float *tt = k->t, *he = k->t + PB_BS_TRI * k->ntri;
    const int32_t *ti = k->it, *hi = k->it + 3 * k->ntri;
    BS_FOR_STEPS(k, c, cnt) {
        pb_vf x = vload_n(k->x + c, cnt, 0.0f), y = vload_n(k->y + c, cnt, 0.0f);
        pb_vm out = vlt(vset1(1.0f), vzero());
        for (size_t e = 0; e < k->nhull; e++) {
            const float *a = he + PB_BS_EDGE * e;
            pb_vf cr = vsub(vmul(vset1(a[2]), vsub(y, vset1(a[1]))), vmul(vset1(a[3]), vsub(x, vset1(a[0]))));
            out = mor(out, vlt(cr, vzero()));
        }
        pb_vf best = vset1(-INFINITY), l[3] = { vzero(), vzero(), vzero() }, idx[3];
        for (int j = 0; j < 3; j++) idx[j] = vset1(-1.0f);
        for (size_t t = 0; t < k->ntri; t++) {
            const float *a = tt + PB_BS_TRI * t;
            pb_vf dx = vsub(x, vset1(a[0])), dy = vsub(y, vset1(a[1]));
            pb_vf l1 = vadd(vmul(vset1(a[2]), dx), vmul(vset1(a[3]), dy));
            pb_vf l2 = vadd(vmul(vset1(a[4]), dx), vmul(vset1(a[5]), dy));
            pb_vf l0 = vsub(vsub(vset1(1.0f), l1), l2);
            pb_vf sc = vmin(vmin(l0, l1), l2);
            pb_vm take = vgt(sc, best);
            best = vsel(take, sc, best);
            pb_vf lt[3] = { l0, l1, l2 };
            for (int j = 0; j < 3; j++) {
                l[j] = vsel(take, lt[j], l[j]);
                idx[j] = vsel(take, vset1((float)ti[3 * t + j]), idx[j]);
            }
        }
        for (int j = 0; j < 3; j++) l[j] = vmax(l[j], vzero());
        if (many(out)) {   /* some lane outside the hull: the nearest point of its edges */
            pb_vf bd = vset1(INFINITY), bu = vzero(), b0 = vzero(), b1 = vzero();
            for (size_t e = 0; e < k->nhull; e++) {
                const float *a = he + PB_BS_EDGE * e;
                pb_vf u = vmul(vadd(vmul(vsub(x, vset1(a[0])), vset1(a[2])), vmul(vsub(y, vset1(a[1])), vset1(a[3]))),
                               vset1(a[4]));
                u = vclamp(u, 0.0f, 1.0f);
                pb_vf qx = vsub(vadd(vset1(a[0]), vmul(u, vset1(a[2]))), x);
                pb_vf qy = vsub(vadd(vset1(a[1]), vmul(u, vset1(a[3]))), y);
                pb_vf d = vadd(vmul(qx, qx), vmul(qy, qy));
                pb_vm take = vlt(d, bd);
                bd = vsel(take, d, bd), bu = vsel(take, u, bu);
                b0 = vsel(take, vset1((float)hi[2 * e]), b0), b1 = vsel(take, vset1((float)hi[2 * e + 1]), b1);
            }
            l[0] = vsel(out, vsub(vset1(1.0f), bu), l[0]), l[1] = vsel(out, bu, l[1]);
            l[2] = vsel(out, vzero(), l[2]);
            idx[0] = vsel(out, b0, idx[0]), idx[1] = vsel(out, b1, idx[1]), idx[2] = vsel(out, vset1(-1.0f), idx[2]);
        }
        bs_expand(k, c, cnt, idx, l);
    }
}

/* W[0 .. m) normalized into the lanes' planes (a zero sum: 1 / m each, as the reference). */
static void bs_store_normalized(const pb_bs_kargs *k, size_t c, size_t cnt, const pb_vf *W)
{
    pb_vf sum = vzero();
    for (size_t i = 0; i < k->m; i++) sum = vadd(sum, W[i]);
    pb_vm pos = vgt(sum, vzero());
    pb_vf inv = vdiv(vset1(1.0f), sum);
    for (size_t i = 0; i < k->m; i++)
        vstore_n(k->w + i * k->w_stride + c, cnt, vsel(pos, vmul(W[i], inv), vset1(1.0f / (float)k->m)));
}

static void k_bspace_gradient(const pb_bs_kargs *k)
{
    size_t m = k->m;
    const float *px = k->t, *py = k->t + m, *g = k->t + 2 * m;
    pb_vf W[PB_BSPACE_MAX_SAMPLES];
    BS_FOR_STEPS(k, c, cnt) {
        pb_vf x = vload_n(k->x + c, cnt, 0.0f), y = vload_n(k->y + c, cnt, 0.0f);
        for (size_t i = 0; i < m; i++) W[i] = vset1(1.0f);
        for (size_t i = 0; i < m; i++) {
            pb_vf dx = vsub(x, vset1(px[i])), dy = vsub(y, vset1(py[i])), wi = W[i];
            for (size_t j = i + 1; j < m; j++) {
                const float *gi = g + 2 * (i * m + j);
                pb_vf s = vadd(vmul(dx, vset1(gi[0])), vmul(dy, vset1(gi[1])));
                wi = vmin(vsub(vset1(1.0f), s), wi);
                W[j] = vmin(s, W[j]);
            }
            W[i] = wi;
        }
        for (size_t i = 0; i < m; i++) W[i] = vmax(W[i], vzero());
        bs_store_normalized(k, c, cnt, W);
    }
}

static void k_bspace_polar(const pb_bs_kargs *k)
{
    size_t m = k->m;
    const float *ang = k->t, *rr = k->t + m, *ir = k->t + 2 * m, *pc = k->t + 3 * m;
    const float pi = 3.14159265358979323846f, twopi = 6.28318530717958647692f;
    /* Per sample off the origin, its partners off the origin as (angle, magnitude) coefficients: those
     * taking the signed angle first (ns[i] of them), then those taking it unsigned (nu[i]); no branch
     * per pair in the loop over characters. */
    float cf[PB_BSPACE_MAX_SAMPLES * PB_BSPACE_MAX_SAMPLES][2];
    size_t ns[PB_BSPACE_MAX_SAMPLES], nu[PB_BSPACE_MAX_SAMPLES];
    for (size_t i = 0; i < m; i++) {
        size_t e = i * m;
        ns[i] = nu[i] = 0;
        for (int uns = 0; uns < 2 && (int)i != k->origin; uns++)
            for (size_t j = 0; j < m; j++) {
                const float *p = pc + PB_BS_PAIR * (i * m + j);
                if (j == i || (int)j == k->origin || (p[1] != 0.0f) != uns) continue;
                cf[e][0] = p[0], cf[e][1] = p[2], e++;
                uns ? nu[i]++ : ns[i]++;
            }
    }
    pb_vf W[PB_BSPACE_MAX_SAMPLES], th[PB_BSPACE_MAX_SAMPLES], q[PB_BSPACE_MAX_SAMPLES];
    BS_FOR_STEPS(k, c, cnt) {
        pb_vf x = vload_n(k->x + c, cnt, 0.0f), y = vload_n(k->y + c, cnt, 0.0f);
        pb_vf r = vsqrt(vadd(vmul(x, x), vmul(y, y))), a = vatan2(y, x);
        for (size_t i = 0; i < m; i++) {
            pb_vf t = vsub(a, vset1(ang[i]));
            t = vsel(vgt(t, vset1(pi)), vsub(t, vset1(twopi)), t);
            th[i] = vsel(vle(t, vset1(-pi)), vadd(t, vset1(twopi)), t);
            pb_vf b = vabs(th[i]);
            q[i] = vdiv(vmul(vset1(4.0f), vmul(r, vset1(ir[i]))), vadd(vmul(b, b), vset1(4.0f)));
        }
        /* min over j of 1 - x_j as 1 - max over j of x_j: the same float (rounding is monotone) */
        for (size_t i = 0; i < m; i++) {
            pb_vf X = vset1(-INFINITY), dr = vsub(r, vset1(rr[i]));
            if ((int)i == k->origin) {
                for (size_t j = 0; j < m; j++)
                    if (j != i) X = vmax(q[j], X);
            } else {
                const float(*e)[2] = cf + i * m;
                for (size_t j = 0; j < ns[i]; j++, e++)
                    X = vmax(vadd(vmul(vset1((*e)[0]), th[i]), vmul(vset1((*e)[1]), dr)), X);
                pb_vf ta = vabs(th[i]);
                for (size_t j = 0; j < nu[i]; j++, e++)
                    X = vmax(vadd(vmul(vset1((*e)[0]), ta), vmul(vset1((*e)[1]), dr)), X);
            }
            pb_vf v = vmin(vsub(vset1(1.0f), X), vset1(1.0f));
            if (k->origin >= 0 && (int)i != k->origin) v = vmin(q[i], v);
            W[i] = vmax(v, vzero());
        }
        bs_store_normalized(k, c, cnt, W);
    }
}
