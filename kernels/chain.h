/* chain.h — the chain IK kernels, FABRIK and CCD (see reference/chain.h for
 * the method and the layout): a vector of chains at a time, every joint's
 * plane a plain load (crowd layout). Lanes iterate together; a lane that is
 * within tolerance (or straight, out of reach) is masked and keeps its
 * positions, and the loop ends when no lane is active. Uses target.h's
 * direction algebra (vq_between, vv3_normalize_or). */

typedef struct {
    vv3 P[PB_CHAIN_MAX];     /* world positions, solved in place */
    vv3 u[PB_CHAIN_MAX];     /* input bone directions (fallbacks) */
    pb_vf d[PB_CHAIN_MAX];   /* bone lengths */
    vv3 T;
    pb_vf reach;
} vch_state;

static inline void vch_load(const pb_kargs *k, size_t C, size_t c, size_t cnt, vch_state *s)
{
    int L = k->p.chain_joints;
    vkf g = vkf_load_n(k->a, c, cnt, 10);
    s->P[0] = g.pos;
    s->reach = vzero();
    for (int j = 1; j < L; j++) {
        vkf l = vkf_load_n(k->a, (size_t)j * C + c, cnt, 10), ng = vkf_mul_static(&g, &l);
        vv3 b = vv3_sub(ng.pos, g.pos);
        s->d[j] = vv3_length(b);
        s->u[j] = vv3_normalize_or(b, vv3_set(1, 0, 0));
        s->reach = vadd(s->reach, s->d[j]);
        s->P[j] = ng.pos;
        g = ng;
    }
    size_t e = (size_t)(L - 1) * C + c;
    s->T = vv3_load_n(k->b, PB_POS_X, e, cnt);
}

/* Positions to rotations (reference: ch_store). */
static inline void vch_store(const pb_kargs *k, size_t C, size_t c, size_t cnt, const vch_state *s)
{
    int L = k->p.chain_joints;
    vkf kj = vkf_load_n(k->a, c, cnt, 10);
    vq par = vq_make(vset1(1.0f), vzero(), vzero(), vzero()), cur = kj.rot;
    vv3 scl = kj.scl;
    for (int j = 0; j < L; j++) {
        vkf out = kj, kn = kj;
        if (j > 0) cur = vq_mul(par, kj.rot);
        if (j + 1 < L) {
            kn = vkf_load_n(k->a, (size_t)(j + 1) * C + c, cnt, 10);
            vv3 bone = vq_mul_vec3(cur, vv3_mul(scl, kn.pos));
            vv3 want = vv3_sub(s->P[j + 1], s->P[j]);
            vv3 u = vv3_normalize_or(bone, vv3_set(1, 0, 0)), w = vv3_normalize_or(want, u);
            vq turn = vq_between(u, w);
            turn = vq_mul(vq_between(vv3_normalize_or(vq_mul_vec3(turn, u), w), w), turn);
            cur = vq_normalize(vq_mul(turn, cur));
            scl = vv3_mul(scl, kn.scl);
        }
        out.rot = j == 0 ? cur : vq_normalize(vq_mul(vq_inv(par), cur));
        vkf_store_n(k->out, (size_t)j * C + c, cnt, 10, &out);
        par = cur;
        kj = kn;
    }
}

PB_VINLINE pb_vf vch_residual(const vch_state *s, int L) { return vv3_length(vv3_sub(s->P[L - 1], s->T)); }

/* Out of reach (|T - root| >= reach): straight at the target; returns those lanes. */
static inline pb_vm vch_straight(vch_state *s, int L)
{
    vv3 to = vv3_sub(s->T, s->P[0]);
    pb_vm far = mnot(vlt(vv3_length(to), s->reach));
    vv3 u = vv3_normalize_or(to, vv3_set(1, 0, 0));
    for (int j = 1; j < L; j++) s->P[j] = vv3_sel(far, vv3_add(s->P[j - 1], vv3_scale(u, s->d[j])), s->P[j]);
    return far;
}

PB_VINLINE vv3 vch_place(vv3 from, vv3 p, pb_vf len, vv3 fallback)
{
    return vv3_add(from, vv3_scale(vv3_normalize_or(vv3_sub(p, from), fallback), len));
}

/* One iteration into Q (from P): FABRIK's two passes, or CCD's sweep. */
static inline void fabrik_step(const vch_state *s, int L, vv3 *Q)
{
    Q[L - 1] = s->T;
    for (int j = L - 2; j >= 0; j--)
        Q[j] = vch_place(Q[j + 1], s->P[j], s->d[j + 1], vv3_scale(s->u[j + 1], vset1(-1.0f)));
    Q[0] = s->P[0];
    for (int j = 1; j < L; j++) Q[j] = vch_place(Q[j - 1], Q[j], s->d[j], s->u[j]);
}
/* The cone limit at joint j (reference: ccd_limit); lanes within it untouched. */
static inline void vccd_limit(const vch_state *s, int L, int j, pb_vf cone, vv3 *Q)
{
    vv3 axis = j == 0 ? s->u[1] : vv3_normalize_or(vv3_sub(Q[j], Q[j - 1]), s->u[j]);
    vv3 b = vv3_normalize_or(vv3_sub(Q[j + 1], Q[j]), axis);
    pb_vm out = vlt(cone, vvec_angle(axis, b));
    if (!many(out)) return;
    vv3 across = vv3_sub(b, vv3_scale(axis, vv3_dot(axis, b)));   /* folded (reference: CH_FOLDED): a fixed perpendicular */
    vv3 e = vv3_sel(vlt(vset1(1e-3f), vv3_length(across)), vv3_normalize_or(across, axis), vv3_perpendicular(axis));
    e = vv3_normalize_or(vv3_sub(e, vv3_scale(axis, vv3_dot(axis, e))), vv3_perpendicular(axis));
    pb_vf sn, cs;
    vsincos(cone, &sn, &cs);
    vv3 c = vv3_add(vv3_scale(axis, cs), vv3_scale(e, sn));
    vq turn = vq_between(b, c);
    turn = vq_mul(vq_between(vv3_normalize_or(vq_mul_vec3(turn, b), c), c), turn);
    for (int m = j + 1; m < L; m++)
        Q[m] = vv3_sel(out, vv3_add(Q[j], vq_mul_vec3(turn, vv3_sub(Q[m], Q[j]))), Q[m]);
}
static inline void ccd_step(const vch_state *s, int L, const pb_vf *cone, vv3 *Q)
{
    for (int j = 0; j < L; j++) Q[j] = s->P[j];
    for (int j = L - 2; j >= 0; j--) {
        vv3 e = vv3_sub(Q[L - 1], Q[j]), t = vv3_sub(s->T, Q[j]);
        vv3 eu = vv3_normalize_or(e, vv3_set(1, 0, 0));
        vq turn = vq_between(eu, vv3_normalize_or(t, eu));
        for (int m = j + 1; m < L; m++) Q[m] = vv3_add(Q[j], vq_mul_vec3(turn, vv3_sub(Q[m], Q[j])));
        if (cone) vccd_limit(s, L, j, cone[j], Q);
    }
    for (int j = 1; j < L; j++) Q[j] = vch_place(Q[j - 1], Q[j], s->d[j], s->u[j]);
}

static inline void chain_body(const pb_kargs *k, int method)   /* 0 fabrik, 1 ccd, 2 ccd_cone */
{
    int L = k->p.chain_joints, iterations = k->p.iterations;
    size_t C = k->n / (size_t)L;
    pb_vf tol = vset1(k->p.tolerance);
    vch_state s;
    vv3 Q[PB_CHAIN_MAX];
    pb_vf cone[PB_CHAIN_MAX];
    for (size_t c = 0; c < C; c += PB_LANES) {
        size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
        /* the next vector's L x 10 input planes: too many streams for the hardware prefetcher
         * (65536 chains of 8, avx512: 37 ns per chain and iteration without, 32 with; 22 in L2) */
        if (c + 2 * PB_LANES <= C)
            for (int j = 0; j < L; j++)
                for (int pl = 0; pl < 10; pl++) __builtin_prefetch(k->a[pl] + (size_t)j * C + c + PB_LANES);
        vch_load(k, C, c, cnt, &s);
        if (method == 2) {   /* joint j's cone: per.joint_cone[j], else params.cone or per.cone per chain */
            for (int j = 0; j < L - 1; j++)
                cone[j] = k->per.joint_cone ? vset1(k->per.joint_cone[j]) : vparam(k, k->per.cone, k->p.cone, 0, (size_t)j * C + c);
            for (int j = 0; j < L - 1; j++) vccd_limit(&s, L, j, cone[j], s.P);   /* the input onto its limits */
        }
        pb_vm active = vlt(tol, vch_residual(&s, L));
        if (method != 2) active = mand(active, mnot(vch_straight(&s, L)));
        pb_vf its = vzero();
        for (int it = 0; it < iterations && many(active); it++) {
            if (method)
                ccd_step(&s, L, method == 2 ? cone : NULL, Q);
            else
                fabrik_step(&s, L, Q);
            for (int j = 1; j < L; j++) s.P[j] = vv3_sel(active, Q[j], s.P[j]);
            its = vadd(its, vsel(active, vset1(1.0f), vzero()));
            active = mand(active, vlt(tol, vch_residual(&s, L)));
        }
        vch_store(k, C, c, cnt, &s);
        if (k->iters) {
            float buf[PB_LANES];
            vstoreu(buf, its);
            for (size_t l = 0; l < cnt; l++) k->iters[c + l] = (uint8_t)buf[l];
        }
    }
}
static void k_fabrik(const pb_kargs *k) { chain_body(k, 0); }
static void k_ccd(const pb_kargs *k) { chain_body(k, 1); }
static void k_ccd_cone(const pb_kargs *k) { chain_body(k, 2); }
