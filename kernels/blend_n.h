/* blend_n.h — the N-way blend kernels (posebench/blend_n.h; reference:
 * reference/blend_n.h). SIMD across the characters of one joint: PB_LANES
 * consecutive elements of a joint's row share nothing but sit side by side,
 * as do their characters' weights (so both load as vectors; the last step of
 * a row is partial). Same operations as the reference; quaternion
 * normalization multiplies by the reciprocal of the length. */

/* Each step prefetches its inputs' lines BN_AHEAD floats on (once per
 * line) when K <= 8 and the blend streams more than BN_PF_BYTES: 10 planes a
 * pose, so 30-90 streams, more than the hardware prefetcher follows from
 * memory. Measured on AMD Zen 4 (bench --op blend_n, ns per joint, fast
 * form, AVX-512 / AVX2, three runs alternating with the build before): 1 M
 * joints, K = 2 10.6-11.2 / 13.2-13.4 without, 6.1-6.3 / 6.9-7.6 with; K = 4
 * 23.7-26.2 / 32.1-34.3 against 10.6-11.0 / 13.3-16.1 (accurate 30.7-41.4 /
 * 32.1-35.1 against 19.2-19.6 / 26.6-26.9). In cache it costs (65536
 * joints, in the last level), hence the size gate; there AVX2 K = 2 still
 * measures 5.7 against 5.0 with the prefetch gated off (the step's code, not
 * the prefetches). Ahead 32 floats did best of 32 .. 256. K = 16 is left to the
 * hardware: 47-49 at 1 M either way, but at 65536 110 without, 130 with. */
#define BN_AHEAD 32
#define BN_PF_K 8
#define BN_PF_BYTES ((size_t)16 << 20)
/* The blend of one step: cnt lanes from element e (weights from character
 * c), written to out's planes from element eo. Always inlined: gcc 12 kept
 * one copy for bn_run's streamed call with `accurate` a run-time value, and
 * the accurate form streamed ran 14.2-14.6 ns per joint against 10.8-10.9
 * plain (AVX-512, K = 2, Intel Xeon; bench --op blend_n, 65536 and 1 M
 * joints, POSEBENCH_STREAM_BYTES 0 against never); inlined, 10.9-11.1
 * streamed (AVX2 19.3-19.7 -> 16.0-17.0), the same bits. */
PB_VINLINE void bn_step(const pb_bn_kargs *k, size_t e, size_t c, size_t cnt, int accurate, float *const *out, size_t eo)
{
    size_t K = k->k;
    if (K <= BN_PF_K && e % 16 == 0 && e + BN_AHEAD < k->n &&   /* once per 64-byte line */
        k->n * (K + 1) * 40 > BN_PF_BYTES)
        for (size_t i = 0; i < K; i++)
            for (int pl = PB_POS_X; pl <= PB_SCL_Z; pl++) __builtin_prefetch(k->in[i][pl] + e + BN_AHEAD);
    pb_vf w[PB_BLEND_N_MAX], sum = vzero();
    for (size_t i = 0; i < K; i++) {
        w[i] = vload_n(k->w + i * k->characters + c, cnt, 1.0f);
        sum = vadd(sum, w[i]);
    }
    pb_vf inv = vdiv(vset1(1.0f), sum), best = vset1(-1.0f);
    vq qh = vq_make(vset1(1.0f), vzero(), vzero(), vzero()), q[PB_BLEND_N_MAX];
    for (size_t i = 0; i < K; i++) {
        w[i] = vmul(w[i], inv);
        const float *const *p = k->in[i];
        q[i] = vq_make(vload_n(p[PB_ROT_W] + e, cnt, 1.0f), vload_n(p[PB_ROT_X] + e, cnt, 0.0f),
                       vload_n(p[PB_ROT_Y] + e, cnt, 0.0f), vload_n(p[PB_ROT_Z] + e, cnt, 0.0f));
        pb_vm take = vgt(w[i], best);   /* the heaviest, the first on a tie */
        best = vsel(take, w[i], best);
        qh = vq_sel(take, q[i], qh);
    }
    for (int pl = PB_POS_X; pl <= PB_SCL_Z; pl++) {
        if (pl >= PB_ROT_W && pl <= PB_ROT_Z) continue;
        int lg = pl >= PB_SCL_X && k->exp;
        pb_vf s = vzero();
        for (size_t i = 0; i < K; i++) {
            pb_vf x = vload_n(k->in[i][pl] + e, cnt, 1.0f);
            s = vadd(s, vmul(w[i], lg ? vlog(x) : x));
        }
        vstore_n(out[pl] + eo, cnt, lg ? vexp(s) : s);
    }
    vq a = vq_make(vzero(), vzero(), vzero(), vzero());
    for (size_t i = 0; i < K; i++) {
        pb_vf s = vsel(vlt(vq_dot(q[i], qh), vzero()), vneg(w[i]), w[i]);
        a = vq_make(vadd(a.w, vmul(s, q[i].w)), vadd(a.x, vmul(s, q[i].x)), vadd(a.y, vmul(s, q[i].y)),
                    vadd(a.z, vmul(s, q[i].z)));
    }
    a = vq_normalize(a);
    if (accurate) {
        pb_vf M[10];   /* the upper triangle of sum w_i q_i q_i^T, row by row */
        for (int j = 0; j < 10; j++) M[j] = vzero();
        for (size_t i = 0; i < K; i++) {
            pb_vf v[4] = { q[i].w, q[i].x, q[i].y, q[i].z };
            for (int r = 0, j = 0; r < 4; r++)
                for (int c2 = r; c2 < 4; c2++, j++) M[j] = vadd(M[j], vmul(vmul(w[i], v[r]), v[c2]));
        }
        static const int at[4][4] = { { 0, 1, 2, 3 }, { 1, 4, 5, 6 }, { 2, 5, 7, 8 }, { 3, 6, 8, 9 } };
        /* M <- M^2 / tr(M^2) until every lane has settled (the reference's rule; lanes that settled
         * earlier square on, their M a projector already), then x = M x0 (reference/blend_n.h) */
        for (int it = 0; it < PB_BLEND_N_SQUARINGS; it++) {
            pb_vf S[10], tr = vzero();
            for (int r = 0; r < 4; r++)
                for (int c2 = r; c2 < 4; c2++)
                    S[at[r][c2]] = vadd(vadd(vadd(vmul(M[at[r][0]], M[at[0][c2]]), vmul(M[at[r][1]], M[at[1][c2]])),
                                             vmul(M[at[r][2]], M[at[2][c2]])), vmul(M[at[r][3]], M[at[3][c2]]));
            for (int r = 0; r < 4; r++) tr = vadd(tr, S[at[r][r]]);
            pb_vf inv = vdiv(vset1(1.0f), tr);
            for (int j = 0; j < 10; j++) M[j] = vmul(S[j], inv);
            if (!many(vgt(vsub(vset1(1.0f), tr), vset1(1e-4f)))) break;
        }
        pb_vf x[4] = { a.w, a.x, a.y, a.z }, y[4];
        for (int r = 0; r < 4; r++)
            y[r] = vadd(vadd(vadd(vmul(M[at[r][0]], x[0]), vmul(M[at[r][1]], x[1])), vmul(M[at[r][2]], x[2])),
                        vmul(M[at[r][3]], x[3]));
        vq qy = vq_make(y[0], y[1], y[2], y[3]);
        pb_vm far = vlt(vq_dot(qy, qy), vset1(1.0f / 16.0f));
        if (many(far)) {   /* x0 nearly orthogonal to the eigenvector: M's column of the largest diagonal */
            pb_vf best = M[at[0][0]];
            vq col = vq_make(M[at[0][0]], M[at[1][0]], M[at[2][0]], M[at[3][0]]);
            for (int j = 1; j < 4; j++) {
                pb_vm take = vgt(M[at[j][j]], best);
                best = vsel(take, M[at[j][j]], best);
                col = vq_sel(take, vq_make(M[at[0][j]], M[at[1][j]], M[at[2][j]], M[at[3][j]]), col);
            }
            col = vq_sel(vlt(vq_dot(col, vq_make(x[0], x[1], x[2], x[3])), vzero()), vq_neg(col), col);
            qy = vq_sel(far, col, qy);
        }
        a = vq_normalize(qy);
    }
    vstore_n(out[PB_ROT_W] + eo, cnt, a.w), vstore_n(out[PB_ROT_X] + eo, cnt, a.x);
    vstore_n(out[PB_ROT_Y] + eo, cnt, a.y), vstore_n(out[PB_ROT_Z] + eo, cnt, a.z);
}

/* With k->stream (characters a multiple of 16: every step whole and every
 * plane's 64-byte line written by PB_LINE_VECS consecutive steps) and K <=
 * BN_PF_K each line is blended into a small buffer, then written past the
 * caches (as FOR_VECTORS_STORE). Inputs of a line are read before it is
 * written, so out may be an input. Measured on AMD Zen 4 (bench --op
 * blend_n, 1 M joints, ns per joint, AVX-512 / AVX2, three runs alternating
 * with the build before): K = 4 fast 10.4-10.6 / 14.6-15.2 -> 8.8-8.9 /
 * 10.2-11.0, accurate 17.5-17.9 / 27.5-28.3 -> 15.5-15.9 / 23.4-24.0; K = 2
 * fast 5.8-7.2 / 6.7-7.2 -> 5.8-5.9 / 6.0-6.1. K = 16 streamed: AVX-512
 * 61-63 -> 57-58 but AVX2 51-54 -> 60-74, so it is left to the hardware. */
static void bn_run(const pb_bn_kargs *k, int accurate)
{
    size_t C = k->characters;
#if defined(PB_STREAM_STORES)
    if (k->stream && k->k <= BN_PF_K) {
        _Alignas(64) float line[PB_SCL_Z + 1][16];
        float *lp[PB_SCL_Z + 1];
        for (int p = 0; p <= PB_SCL_Z; p++) lp[p] = line[p];
        for (size_t e = 0; e < k->n; e += 16) {
            for (size_t v = 0; v < 16; v += PB_LANES) bn_step(k, e + v, (e + v) % C, PB_LANES, accurate, lp, v);
            for (int p = 0; p <= PB_SCL_Z; p++)
                for (size_t v = 0; v < 16; v += PB_LANES) vstore_nt(k->out[p] + e + v, vload(line[p] + v));
        }
        vstore_nt_fence();
        return;
    }
#endif
    for (size_t j = 0; j < k->n / C; j++)
        for (size_t c = 0; c < C; c += PB_LANES)
            bn_step(k, j * C + c, c, C - c < PB_LANES ? C - c : PB_LANES, accurate, k->out, j * C + c);
}
static void k_blend_n_fast(const pb_bn_kargs *k) { bn_run(k, 0); }
static void k_blend_n_accurate(const pb_bn_kargs *k) { bn_run(k, 1); }
