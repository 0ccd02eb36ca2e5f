/* sample.h — the clip ops' kernels: sample_linear, sample_cubic (with the
 * Hermite helper; blocked by characters x joints with in-register
 * transposes, or gathered for characters of few joints) and unroll. */

/* ---- sampling (see reference/sample.h) --------------------------------------------------------
 * The per-lane math is one function, whatever a lane holds: the keys and
 * their frame position (a, and lv = fps inside the clip, else 0) of one
 * joint of one character. */
static inline vv3 vv3_hermite(const vv3 *x, pb_vf a, vv3 *d)
{
    pb_vf a2 = vmul(a, a), a3 = vmul(a2, a);
    pb_vf h00 = vadd(vsub(vmul(vset1(2), a3), vmul(vset1(3), a2)), vset1(1));
    pb_vf h10 = vadd(vsub(a3, vmul(vset1(2), a2)), a);
    pb_vf h01 = vsub(vmul(vset1(3), a2), vmul(vset1(2), a3));
    pb_vf h11 = vsub(a3, a2);
    pb_vf d00 = vsub(vmul(vset1(6), a2), vmul(vset1(6), a));
    pb_vf d10 = vadd(vsub(vmul(vset1(3), a2), vmul(vset1(4), a)), vset1(1));
    pb_vf d01 = vsub(vmul(vset1(6), a), vmul(vset1(6), a2));
    pb_vf d11 = vsub(vmul(vset1(3), a2), vmul(vset1(2), a));
    vv3 m0 = vv3_scale(vv3_sub(x[2], x[0]), vset1(0.5f)), m1 = vv3_scale(vv3_sub(x[3], x[1]), vset1(0.5f));
    *d = vv3_add(vv3_add(vv3_scale(x[1], d00), vv3_scale(m0, d10)), vv3_add(vv3_scale(x[2], d01), vv3_scale(m1, d11)));
    return vv3_add(vv3_add(vv3_scale(x[1], h00), vv3_scale(m0, h10)), vv3_add(vv3_scale(x[2], h01), vv3_scale(m1, h11)));
}
/* The linear form's rotation and angular velocity of m lanes' sets (m <=
 * 2, as vsincos_m) from the key-to-key turn rel (shorter arc: rel.w >= 0;
 * its w is not read), s = |rel.v| and its half angle h: the slerp is
 * rel^a key1 and ang = to_saa(rel) x rate, one atan2 and one sincos for
 * both. */
PB_VINLINE void sample_turn_m(const vq *rel, const pb_vf *s, const pb_vf *h, const vq *q1, const pb_vf *a, const pb_vf *lv,
                              vkf *r, int m)
{
    vq pw[2];
    vq_pow_sh_m(rel, s, h, a, pw, m);
    for (int j = 0; j < m; j++) {
        r[j].rot = vq_mul_fma(pw[j], q1[j]);
        r[j].ang = vv3_scale(vsaa_from_sh(vq_vec(rel[j]), s[j], h[j]), lv[j]);
    }
}
/* The turn from key 1 to key 2 (rot planes q1, q2), s and h as above. */
PB_VINLINE vq sample_turn(vq q1, vq q2, pb_vf *s, pb_vf *h)
{
    vq rel = vq_abs(vq_mul(q2, vq_inv(q1)));
    vv3 v = vq_vec(rel);
    *s = vsqrt(vv3_dot(v, v));
    *h = vhalf_angle(*s, rel.w);
    return rel;
}
/* The linear form's rotations of m lanes' sets at once (m <= 2, as
 * vsincos_m: each step for all, so their chains overlap; the same bits). */
PB_VINLINE void sample_rot_m(const vkf (*key)[4], const pb_vf *a, const pb_vf *lv, int vel, vkf *r, int m,
                             const vq *trel, const pb_vf *ts, const pb_vf *th)
{
    if (trel) {   /* the turns read from the table (sample_linear_turns), with or without velocities */
        vq q1[2];
        for (int j = 0; j < m; j++) q1[j] = key[j][1].rot;
        sample_turn_m(trel, ts, th, q1, a, lv, r, m);
        return;
    }
    if (!vel) {
        vq q[2], p[2], o[2];
        for (int j = 0; j < m; j++) q[j] = key[j][1].rot, p[j] = vq_hemi(q[j], key[j][2].rot);
        vq_slerp_arc_m(q, p, a, o, m);
        for (int j = 0; j < m; j++) r[j].rot = o[j];
        return;
    }
    vq rel[2], q1[2];
    pb_vf s[2], h[2];
    for (int j = 0; j < m; j++) q1[j] = key[j][1].rot, rel[j] = sample_turn(q1[j], key[j][2].rot, &s[j], &h[j]);
    sample_turn_m(rel, s, h, q1, a, lv, r, m);
}
/* The linear form's positions, scales and their rates (not the rotation). */
PB_VINLINE void sample_lin_rest(const vkf *kj, pb_vf a, pb_vf lv, int vel, int lin, vkf *out)
{
    vkf r = vkf_identity();
    r.pos = vv3_lerp(kj[1].pos, kj[2].pos, a);
    /* unchanging scale keys (nearly every real clip): eerp's log and exp skipped, same bits */
    if (!lin && vv3_same_scale(kj[1].scl, kj[2].scl)) {
        r.scl = kj[1].scl;   /* r.svl keeps the identity's 0 */
    } else {
        r.scl = vv3_scale_blend(kj[1].scl, kj[2].scl, a, lin);
        if (vel)
            r.svl = lin ? vv3_div(vv3_scale(vv3_sub(kj[2].scl, kj[1].scl), lv), r.scl)
                        : vv3_scale(vv3_log(vv3_div(kj[2].scl, kj[1].scl)), lv);
    }
    if (vel) r.vel = vv3_scale(vv3_sub(kj[2].pos, kj[1].pos), lv);
    *out = r;
}
/* The cubic form's key rotations relative to key 1 (rotation vectors;
 * key 1's own is 0, not worth a log) from the keys' rot planes. */
PB_VINLINE void sample_cubic_rv(const vq *q, vv3 *rv)
{
    for (int k = 0; k < 4; k++)
        rv[k] = k == 1 ? vv3_make(vzero(), vzero(), vzero()) : vq_to_saa(vq_abs(vq_mul(q[k], vq_inv(q[1]))));
}
/* The cubic form from the keys and those rotation vectors. */
PB_VINLINE void sample_cubic_rest(const vkf *kj, const vv3 *rv, pb_vf a, pb_vf lv, int vel, vkf *out)
{
    vkf r = vkf_identity();
    vv3 p[4], lg[4], dp, dl, dr;
    for (int q = 0; q < 4; q++) {
        p[q] = kj[q].pos;
        lg[q] = vv3_log_scl(kj[q].scl);   /* unit scales: no log, the same 0s */
    }
    r.pos = vv3_hermite(p, a, &dp);
    vv3 ls = vv3_hermite(lg, a, &dl);
    vv3 th = vv3_hermite(rv, a, &dr);
    r.scl = vv3_mul_exp(vv3_make(vset1(1.0f), vset1(1.0f), vset1(1.0f)), ls);
    vv3 jl;   /* from_saa(th); its half angle's sincos serves the Jacobian too */
    r.rot = vq_mul_fma(vq_from_saa_jl(th, dr, &jl), kj[1].rot);
    if (vel) {
        r.vel = vv3_scale(dp, lv);
        r.svl = vv3_scale(dl, lv);
        r.ang = vv3_scale(jl, lv);
    }
    *out = r;
}
/* m lanes' sets of keys at once (m <= 2; the linear form's rotations
 * interleaved), the same bits as one at a time. */
PB_VINLINE void sample_math_m(const vkf (*key)[4], const pb_vf *av, const pb_vf *lvv, int cubic, int vel, int lin, vkf *out, int m,
                              const vq *trel, const pb_vf *ts, const pb_vf *th)
{
    for (int j = 0; j < m; j++) {
        const vkf *kj = key[j];
        if (!cubic) {
            sample_lin_rest(kj, av[j], lvv[j], vel, lin, &out[j]);
            continue;
        }
        vq q[4] = { kj[0].rot, kj[1].rot, kj[2].rot, kj[3].rot };
        vv3 rv[4];
        sample_cubic_rv(q, rv);
        sample_cubic_rest(kj, rv, av[j], lvv[j], vel, &out[j]);
    }
    if (!cubic) sample_rot_m(key, av, lvv, vel, out, m, trel, ts, th);
}
PB_VINLINE vkf sample_math(const vkf *key, pb_vf a, pb_vf lv, int cubic, int vel, int lin, const vq *trel,
                           const pb_vf *ts, const pb_vf *th)
{
    vkf r;
    sample_math_m((const vkf (*)[4])key, &a, &lv, cubic, vel, lin, &r, 1, trel, ts, th);
    return r;
}
/* The table's turn of the keys from clip element e (sample_linear_turns: pose b, pb_clip_turns), cnt lanes. */
PB_VINLINE vq sample_turn_load(const pb_kargs *k, size_t e, size_t cnt, pb_vf *s, pb_vf *h)
{
    *s = vload_n(k->b[PB_POS_X] + e, cnt, 0.0f);
    *h = vload_n(k->b[PB_POS_Y] + e, cnt, 0.0f);
    return vq_load_n(k->b, e, cnt);
}
/* sample_math's turn arguments: the table's turn at e into trel, ts, th and trel returned where tn,
 * else NULL (the turn computed from the keys); all defined either way (in sample_few tn is a run
 * value, and gcc 12's -O1 builds saw them as maybe uninitialized). */
PB_VINLINE const vq *sample_turn_opt(const pb_kargs *k, int tn, size_t e, size_t cnt, vq *trel, pb_vf *ts, pb_vf *th)
{
    *ts = *th = vzero();
    *trel = vq_make(*ts, *ts, *ts, *ts);
    if (!tn) return NULL;
    *trel = sample_turn_load(k, e, cnt, ts, th);
    return trel;
}
/* How many lanes to load of a key's joints from clip element e (end: the
 * clip's elements; cj: the joints left in the block): whole vectors where
 * the clip has PB_LANES floats from e (lanes past the block read later keys,
 * computed and dropped), else only the block's. */
static inline size_t key_lanes(size_t e, size_t end, size_t cj) { return e + PB_LANES <= end ? PB_LANES : cj; }
/* Character ch's frame position: the clip elements (frame * J) of its keys
 * fm, f0, f1, f2 (clamped to the clip), alpha, and fps inside the clip else 0. */
static inline void sample_frames(const pb_kargs *k, size_t ch, size_t e[4], float *a, float *lv)
{
    size_t f0, J = k->joints;
    int inside;
    pb_frame_at(k->p.time + k->offsets[ch], k->frames, k->fps, &f0, a, &inside);
    size_t f1 = f0 + 1 < k->frames ? f0 + 1 : f0;
    size_t fm = f0 > 0 ? f0 - 1 : f0, f2 = f1 + 1 < k->frames ? f1 + 1 : f1;
    e[0] = fm * J; e[1] = f0 * J; e[2] = f1 * J; e[3] = f2 * J;
    *lv = inside ? k->fps : 0.0f;
}

/* Lanes = characters: each joint gathers its keys from every character's
 * frames; tail lanes repeat the last character and are not stored. */
PB_VINLINE void sample_gathered(const pb_kargs *k, int cubic, int vel, int lin)
{
    size_t J = k->joints, C = k->n / J;
    for (size_t c = 0; c < C; c += PB_LANES) {
        size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
        int32_t fr[4][PB_LANES];
        float al[PB_LANES], live[PB_LANES];
        for (size_t l = 0; l < PB_LANES; l++) {
            size_t e[4];
            sample_frames(k, c + (l < cnt ? l : cnt - 1), e, &al[l], &live[l]);
            for (int q = 0; q < 4; q++) fr[q][l] = (int32_t)e[q];
        }
        pb_vf a = vloadu(al), lv = vloadu(live);
        for (size_t j = 0; j < J; j++) {
            int32_t idx[4][PB_LANES];
            vkf key[4];
            for (int q = cubic ? 0 : 1; q < (cubic ? 4 : 3); q++) {
                for (size_t l = 0; l < PB_LANES; l++) idx[q][l] = fr[q][l] + (int32_t)j;
                key[q] = vkf_gather(k->a, idx[q], 10);
            }
            vkf r = sample_math(key, a, lv, cubic, vel, lin, NULL, NULL, NULL);   /* turns computed, not read */
            vkf_store_n(k->out, j * C + c, cnt, vel ? PB_PLANES : 10, &r);
        }
    }
}

/* Characters c .. C - 1, a block too small for the transposes below (one
 * character of many joints, a crowd's last few): lanes = joints, each
 * character's results written by element, or as whole vectors when it is
 * alone (contiguous then). Not inlined (FEW_NOINLINE): inlined, it made the
 * AVX2 crowd loop 5-8 % slower. gcc 12 keeps one copy with the flags as run
 * values (fast all the same: 9.4 ns per joint, one character). Its key loads
 * repeat sample_blocked's: one shared helper for both measured the AVX2
 * crowd loop 5 % slower again (16.7 against 15.9 ns per joint at 4096). */
FEW_NOINLINE void sample_few(const pb_kargs *k, size_t c, int cubic, int vel, int lin, int tn)
{
    size_t J = k->joints, C = k->n / J, end = k->frames * J;
    int np = vel ? PB_PLANES : 10;
    _Alignas(64) float row[PB_PLANES][PB_LANES];
    float *row_pl[PB_PLANES];
    for (int p = 0; p < PB_PLANES; p++) row_pl[p] = row[p];
    for (size_t l = 0; c + l < C; l++) {
        size_t fr[4];
        float al, live;
        sample_frames(k, c + l, fr, &al, &live);
        for (size_t jb = 0; jb < J; jb += PB_LANES) {
            size_t cj = J - jb < PB_LANES ? J - jb : PB_LANES;
            vkf key[4];
            for (int q = cubic ? 0 : 1; q < (cubic ? 4 : 3); q++) {
                size_t e = fr[q] + jb;
                key[q] = vkf_load_n(k->a, e, key_lanes(e, end, cj), 10);
            }
            vq trel;
            pb_vf ts, th;
            const vq *tp = sample_turn_opt(k, tn, fr[1] + jb, key_lanes(fr[1] + jb, end, cj), &trel, &ts, &th);
            vkf r = sample_math(key, vset1(al), vset1(live), cubic, vel, lin, tp, &ts, &th);
            if (C == 1) {
                vkf_store_n(k->out, jb, cj, np, &r);
                continue;
            }
            vkf_store_n(row_pl, 0, PB_LANES, np, &r);
            for (int p = 0; p < np; p++)
                for (size_t i = 0; i < cj; i++) k->out[p][(jb + i) * C + c + l] = row[p][i];
        }
    }
}

/* Character l's results into the block's rows (row = character), addressed
 * from the rows themselves: through a table of plane pointers, gcc 12 kept
 * the table on the stack and loaded a pointer for every store. */
PB_VINLINE void sample_row_store(float (*rows)[PB_LANES][PB_LANES], size_t l, int np, const vkf *r)
{
    vstore(rows[PB_POS_X][l], r->pos.x), vstore(rows[PB_POS_Y][l], r->pos.y), vstore(rows[PB_POS_Z][l], r->pos.z);
    vstore(rows[PB_ROT_W][l], r->rot.w), vstore(rows[PB_ROT_X][l], r->rot.x);
    vstore(rows[PB_ROT_Y][l], r->rot.y), vstore(rows[PB_ROT_Z][l], r->rot.z);
    vstore(rows[PB_SCL_X][l], r->scl.x), vstore(rows[PB_SCL_Y][l], r->scl.y), vstore(rows[PB_SCL_Z][l], r->scl.z);
    if (np < PB_PLANES) return;
    vstore(rows[PB_VEL_X][l], r->vel.x), vstore(rows[PB_VEL_Y][l], r->vel.y), vstore(rows[PB_VEL_Z][l], r->vel.z);
    vstore(rows[PB_ANG_X][l], r->ang.x), vstore(rows[PB_ANG_Y][l], r->ang.y), vstore(rows[PB_ANG_Z][l], r->ang.z);
    vstore(rows[PB_SVL_X][l], r->svl.x), vstore(rows[PB_SVL_Y][l], r->svl.y), vstore(rows[PB_SVL_Z][l], r->svl.z);
}
/* One plane of a block, as vectors t[i] of joint i (i < cj) across the
 * block's cnt characters: to the crowd from dst, rows C floats apart, or
 * (nt) streamed, or (nt, fewer than 16 lanes) into the step's line buffer
 * ln at column sb. */
PB_VINLINE void sample_put(float *dst, size_t C, const pb_vf *t, size_t cj, size_t cnt, int nt, float (*ln)[16], size_t sb)
{
#if defined(PB_STREAM_STORES)
    if (nt) {
        for (size_t i = 0; i < cj; i++) {
            if (PB_LANES == 16) vstore_nt(dst + i * C, t[i]);
            else vstore(ln[i] + sb, t[i]);
        }
        return;
    }
#endif
    (void)nt, (void)ln, (void)sb;
    for (size_t i = 0; i < cj; i++) vstore_n(dst + i * C, cnt, t[i]);
}
/* Plane p of a block's rows transposed into the crowd (sample_put). kind (a
 * constant where called): 1 a rate (velocity, scale rate), 2 a scale, 0
 * any other. Bones that keep their offsets and scales between the keys (a
 * real clip's joints but the root) give rate rows of +0 only, whose
 * transpose is zeros; clips without scale keys (BVH) give scale rows of 1
 * only: the transposes are skipped. */
PB_VINLINE void sample_plane_out(const pb_kargs *k, size_t C, float (*rows)[PB_LANES][PB_LANES], int p, int kind,
                                 size_t jb, size_t c, size_t cj, size_t cnt, int nt, float (*line)[PB_LANES][16], size_t sb)
{
    pb_vf t[PB_LANES];
    float (*ln)[16] = line ? line[PB_LANES < 16 ? p : 0] : NULL;
    if (kind && vall_bits_at(rows[p][0], PB_LANES, kind == 1 ? 0.0f : 1.0f)) {
        for (size_t i = 0; i < PB_LANES; i++) t[i] = kind == 1 ? vzero() : vset1(1.0f);
    } else {
        for (size_t i = 0; i < PB_LANES; i++) t[i] = vload(rows[p][i]);
        vtranspose(t);
    }
    sample_put(k->out[p] + jb * C + c, C, t, cj, cnt, nt, ln, sb);
}
/* One block of a step (sample_blocked): characters c .. c + cnt - 1 (fr,
 * al, live theirs), joints jb .. jb + cj - 1, its results transposed into
 * the crowd (or the step's line buffer `line`, nt). full (a constant where
 * called): a whole block, cnt = cj = PB_LANES (whose keys key_lanes loads
 * whole, the block's joints being the character's); its loads and stores are
 * then whole vectors without a lane count to test (the checks were 10 % of the AVX2 sampler's
 * instructions: tools/icount.sh), the same lanes, so the same bits. */

PB_VINLINE void sample_block(const pb_kargs *k, size_t jb, size_t c, size_t cj, size_t cnt, size_t (*fr)[4],
                             const float *al, const float *live, int cubic, int vel, int lin, int nt,
                             float (*rows)[PB_LANES][PB_LANES], float (*turn)[PB_LANES][PB_LANES],
                             float (*line)[PB_LANES][16], size_t sb, int full, int tn)
{
    size_t C = k->n / k->joints, end = k->frames * k->joints;   /* C: once a block, not a plane */
    int np = vel ? PB_PLANES : 10;
    if (full) cj = cnt = PB_LANES;
#define SAMPLE_LANES(e) (full ? (size_t)PB_LANES : key_lanes(e, end, cj))
#define SAMPLE_KEYS(key, l)                                                                  \
    for (int q = cubic ? 0 : 1; q < (cubic ? 4 : 3); q++) {                                  \
        size_t e = fr[l][q] + jb;                                                            \
        (key)[q] = vkf_load_n(k->a, e, SAMPLE_LANES(e), 10);                                 \
    }
    size_t l = 0;
    /* With velocities on 8 and 16 lanes, two passes over the block's
     * characters, each over all before the next: their turns (the
     * atan2 chain), then the rest, so the chains overlap (the same
     * bits; AVX-512 9.8 -> 8.4 ns per joint at 4096, the fused
     * frame's stage 82 -> 75 us, AVX2 123 -> 96). On 4 lanes a
     * block is 4 characters and the pairs below do better (SSE4.1
     * 27.0 against 27.8). */
    if (!cubic && vel && !tn && PB_LANES >= 8) {   /* (with the turns read, the loops below: one pass) */
        for (; l < cnt; l++) {
            size_t e1 = fr[l][1] + jb, e2 = fr[l][2] + jb;
            pb_vf s, h;
            vq rel = sample_turn(vq_load_n(k->a, e1, SAMPLE_LANES(e1)), vq_load_n(k->a, e2, SAMPLE_LANES(e2)), &s, &h);
            vstore(turn[0][l], rel.x), vstore(turn[1][l], rel.y), vstore(turn[2][l], rel.z);
            vstore(turn[3][l], s), vstore(turn[4][l], h);
        }
        for (l = 0; l < cnt; l++) {
            vkf key[4], r;
            pb_vf a = vset1(al[l]), lv = vset1(live[l]), s = vload(turn[3][l]), h = vload(turn[4][l]);
            SAMPLE_KEYS(key, l)
            sample_lin_rest(key, a, lv, 1, lin, &r);
            vq rel = vq_make(vzero(), vload(turn[0][l]), vload(turn[1][l]), vload(turn[2][l]));
            sample_turn_m(&rel, &s, &h, &key[1].rot, &a, &lv, &r, 1);
            sample_row_store(rows, l, np, &r);
        }
    }
    /* The same for the cubic form: the keys' rotation vectors (three
     * atan2 chains) first. AVX2 28.1-28.6 -> 26.4-26.7 ns per joint at
     * 4096, AVX-512 unchanged (its three chains already overlap). */
    if (cubic && PB_LANES >= 8) {
        static const int slot[4] = { 0, -1, 3, 6 };   /* keys 0, 2, 3 in turn's planes */
        for (; l < cnt; l++) {
            vq q[4];
            vv3 rv[4];
            for (int t = 0; t < 4; t++) {
                size_t e = fr[l][t] + jb;
                q[t] = vq_load_n(k->a, e, SAMPLE_LANES(e));
            }
            sample_cubic_rv(q, rv);
            for (int t = 0; t < 4; t++)
                if (t != 1) vstore(turn[slot[t]][l], rv[t].x), vstore(turn[slot[t] + 1][l], rv[t].y),
                            vstore(turn[slot[t] + 2][l], rv[t].z);
        }
        for (l = 0; l < cnt; l++) {
            vkf key[4], r;
            vv3 rv[4];
            SAMPLE_KEYS(key, l)
            for (int t = 0; t < 4; t++)
                rv[t] = t == 1 ? vv3_make(vzero(), vzero(), vzero())
                               : vv3_make(vload(turn[slot[t]][l]), vload(turn[slot[t] + 1][l]), vload(turn[slot[t] + 2][l]));
            sample_cubic_rest(key, rv, vset1(al[l]), vset1(live[l]), vel, &r);
            sample_row_store(rows, l, np, &r);
        }
    }
    /* two characters' slerps interleaved; not with the turns read, where the pairs' turns went through the
     * stack (tools/icount.sh --sampler turns, the sampler in instructions per joint: AVX2 55.1 in pairs
     * against 42.0 one by one, SSE4.1 125.6 against 98.0) */
    for (; !cubic && PB_ILP == 2 && !tn && l + 1 < cnt; l += 2) {
        vkf key[2][4], r[2];
        pb_vf a[2] = { vset1(al[l]), vset1(al[l + 1]) }, lv[2] = { vset1(live[l]), vset1(live[l + 1]) };
        SAMPLE_KEYS(key[0], l)
        SAMPLE_KEYS(key[1], l + 1)
        sample_math_m((const vkf (*)[4])key, a, lv, cubic, vel, lin, r, 2, NULL, NULL, NULL);
        sample_row_store(rows, l, np, &r[0]);
        sample_row_store(rows, l + 1, np, &r[1]);
    }
    for (; l < cnt; l++) {
        vkf key[4];
        SAMPLE_KEYS(key, l)
        vq trel;
        pb_vf ts, th;
        const vq *tp = sample_turn_opt(k, tn, fr[l][1] + jb, SAMPLE_LANES(fr[l][1] + jb), &trel, &ts, &th);
        vkf r = sample_math(key, vset1(al[l]), vset1(live[l]), cubic, vel, lin, tp, &ts, &th);
        sample_row_store(rows, l, np, &r);
    }
#undef SAMPLE_KEYS
#undef SAMPLE_LANES
    /* by plane kind, a loop each (one loop testing each plane's kind cost
     * 15 scalar instructions a plane: tools/icount.sh) */
    for (int p = PB_POS_X; p <= PB_ROT_Z; p++) sample_plane_out(k, C, rows, p, 0, jb, c, cj, cnt, nt, line, sb);
    for (int p = PB_SCL_X; p <= PB_SCL_Z; p++) sample_plane_out(k, C, rows, p, 2, jb, c, cj, cnt, nt, line, sb);
    if (np < PB_PLANES) return;
    for (int p = PB_VEL_X; p <= PB_VEL_Z; p++) sample_plane_out(k, C, rows, p, 1, jb, c, cj, cnt, nt, line, sb);
    for (int p = PB_ANG_X; p <= PB_ANG_Z; p++) sample_plane_out(k, C, rows, p, 0, jb, c, cj, cnt, nt, line, sb);
    for (int p = PB_SVL_X; p <= PB_SVL_Z; p++) sample_plane_out(k, C, rows, p, 1, jb, c, cj, cnt, nt, line, sb);
}
/* Lanes = joints: a block of PB_LANES characters x PB_LANES joints. Each
 * character's keys for the block's joints are contiguous in the clip (one
 * unaligned load per plane and key); its results go to a small buffer, row
 * = character, and each plane's rows are transposed in registers into
 * vectors of one joint across the characters, which are contiguous in the
 * crowd layout. Same math per lane as the gathered form, so the same bits. */
PB_VINLINE void sample_blocked(const pb_kargs *k, int cubic, int vel, int lin, int nt, int tn)
{
    size_t J = k->joints, C = k->n / J;
    _Alignas(64) float rows[PB_PLANES][PB_LANES][PB_LANES], turn[9][PB_LANES][PB_LANES];
    /* The last block by element when it fills at most a quarter of the
     * lanes, and a lone character always. Measured, sample_linear, crowds of
     * 64-joint characters, ns per joint by element / by transposes: AVX-512
     * 18 characters (2 of 16 lanes) 12.7 / 18.3, 20 (4 of 16) 13.7 / 17.4;
     * AVX2 18 (2 of 8) 17.9 / 17.6; one character of 4092 joints, AVX-512
     * 9.9 / 60.6, AVX2 15.0 / 41.9. */
    size_t tail = C % PB_LANES, stop = C == 1 || tail * 4 <= PB_LANES ? C - tail : C;
    /* nt (sample_body: k->stream, C a multiple of 16): the output rows are
     * written past the caches, a whole 64-byte line (16 characters of one
     * joint) at a time. A step is then 16 characters, PB_LINE_VECS blocks,
     * whose transposed rows meet in `line` before they are written (AVX-512:
     * one block, written from the registers). Each line is written whole, so
     * its old contents are never read; a step writes 19 planes x 16 rows x J
     * / 16 lines, C x 4 bytes apart, too many scattered streams for plain
     * stores to write lines out whole. */
    size_t step = nt ? 16 : PB_LANES;
#if defined(PB_STREAM_STORES)
    _Alignas(64) float line[PB_LANES < 16 ? PB_PLANES : 1][PB_LANES][16];   /* AVX-512: one plane's worth, unused */
    float (*lines)[PB_LANES][16] = nt ? line : NULL;
#else
    float (*lines)[PB_LANES][16] = NULL;
#endif
    for (size_t c0 = 0; c0 < C; c0 += step) {
        if (c0 == stop) {
            sample_few(k, c0, cubic, vel, lin, tn);
            break;
        }
        size_t chars = C - c0 < step ? C - c0 : step;
        size_t fr_step[16 > PB_LANES ? 16 : PB_LANES][4];
        float al_step[16 > PB_LANES ? 16 : PB_LANES], live_step[16 > PB_LANES ? 16 : PB_LANES];
        for (size_t l = 0; l < chars; l++) sample_frames(k, c0 + l, fr_step[l], &al_step[l], &live_step[l]);
        if (chars < PB_LANES) memset(rows, 0, sizeof rows);   /* rows past the crowd: transposed, never stored */
        for (size_t jb = 0; jb < J; jb += PB_LANES)
        for (size_t sb = 0; sb < step; sb += PB_LANES) {   /* the step's blocks (nt: all whole) */
            size_t c = c0 + sb, cj = J - jb < PB_LANES ? J - jb : PB_LANES, cnt = C - c < PB_LANES ? C - c : PB_LANES;
            if (cj == PB_LANES && cnt == PB_LANES)
                sample_block(k, jb, c, cj, cnt, fr_step + sb, al_step + sb, live_step + sb, cubic, vel, lin, nt, rows,
                             turn, lines, sb, 1, tn);
            else
                sample_block(k, jb, c, cj, cnt, fr_step + sb, al_step + sb, live_step + sb, cubic, vel, lin, nt, rows,
                             turn, lines, sb, 0, tn);
#if defined(PB_STREAM_STORES)
            if (nt && PB_LANES < 16 && sb + PB_LANES == 16)   /* the step's last block: its lines are whole */
                for (int p = 0; p < (vel ? PB_PLANES : 10); p++)
                    for (size_t i = 0; i < cj; i++)
                        for (size_t v = 0; v < 16; v += PB_LANES)
                            vstore_nt(k->out[p] + (jb + i) * C + c0 + v, vload(line[p][i] + v));
#endif
        }
    }
#if defined(PB_STREAM_STORES)
    if (nt) vstore_nt_fence();
#endif
}
/* Blocks once a character fills a vector's lanes with joints; below that
 * most lanes of a block would be idle and the gathers win (measured with
 * pb_run, 65536 joints, AVX-512 / AVX2: J = 64 blocked 14.8 / 19.4 ns per
 * joint, gathered 16.5 / 21.6; J = 8 on AVX-512 27.7 vs 15.9; J = 1 221 vs 20).
 * Blocks past the caches (nt) where sample_blocked says. */
PB_VINLINE void sample_body(const pb_kargs *k, int cubic, int vel, int lin, int tn)
{
    if (k->joints < PB_LANES) sample_gathered(k, cubic, vel, lin);
#if defined(PB_STREAM_STORES)
    else if (k->stream && k->n / k->joints % 16 == 0) sample_blocked(k, cubic, vel, lin, 1, tn);
#endif
    else sample_blocked(k, cubic, vel, lin, 0, tn);
}
/* Velocities only into a pose that has them (a static out skips their
 * math); scales by params.scale for the linear form. Constant flags at each
 * call specialize the body. */
static void k_sample_linear(const pb_kargs *k)
{
    int vel = k->out[PB_VEL_X] != NULL, lin = k->p.scale == PB_SCALE_LINEAR;
    if (vel) lin ? sample_body(k, 0, 1, 1, 0) : sample_body(k, 0, 1, 0, 0);
    else lin ? sample_body(k, 0, 0, 1, 0) : sample_body(k, 0, 0, 0, 0);
}
/* The same with the turns read from b (the characters' blocks and the few; the gathered form of
 * characters narrower than a vector computes them, the same turns in float). */
static void k_sample_linear_turns(const pb_kargs *k)
{
    int vel = k->out[PB_VEL_X] != NULL, lin = k->p.scale == PB_SCALE_LINEAR;
    if (vel) lin ? sample_body(k, 0, 1, 1, 1) : sample_body(k, 0, 1, 0, 1);
    else lin ? sample_body(k, 0, 0, 1, 1) : sample_body(k, 0, 0, 0, 1);
}
static void k_sample_cubic(const pb_kargs *k)
{
    if (k->out[PB_VEL_X]) sample_body(k, 1, 1, 0, 0);
    else sample_body(k, 1, 0, 0, 0);
}

/* Frame by frame (each depends on the previous), SIMD across joints: a
 * frame's joints are contiguous. */
static void k_unroll(const pb_kargs *k)
{
    size_t J = k->joints;
    const float *const *out = (const float *const *)k->out;
    for (size_t f = 0; f < k->frames; f++)
        for (size_t j = 0; j < J; j += PB_LANES) {
            size_t cnt = J - j < PB_LANES ? J - j : PB_LANES, e = f * J + j;
            vkf key = vkf_load_n(k->a, e, cnt, 10);   /* keys: pos/rot/scl */
            if (f > 0) {
                vkf prev = vkf_load_n(out, e - J, cnt, 10);
                key.rot = vq_sel(vlt(vq_dot(key.rot, prev.rot), vzero()), vq_neg(key.rot), key.rot);
            }
            vkf_store_n(k->out, e, cnt, 10, &key);
        }
}
