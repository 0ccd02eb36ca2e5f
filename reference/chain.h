/* chain.h — the reference's chain IK: FABRIK (Aristidou & Lasenby 2011) and
 * CCD over chains of L = params.chain_joints joints (PB_OPF_NCHAIN layout:
 * element j x C + c is joint j of chain c; joint 0 the root as a global
 * kineform, joint j > 0 local to joint j - 1; the target in b.pos of joint
 * L - 1). Uses target.h's direction algebra (q_between, v3_normalize_or).
 *
 * Both solve in world space and write rotations only: the root's global
 * rotation and the other joints' local ones (the end keeps its own), so every
 * bone keeps its length (pos and scl are copied). A bone's world vector is
 * rot(parent) (scl(parent) * pos): its length does not depend on rotations.
 *
 * Reach: a target at or beyond the chain's length (|T - root| >= sum of the
 * bones) is not iterated: the chain points straight at it (0 iterations).
 * Otherwise each chain iterates until its end is within params.tolerance of
 * the target or params.iterations are spent; *iters counts them. */

typedef struct {
    int L;
    kform k[PB_CHAIN_MAX];   /* input: root global, then locals */
    vec3 P[PB_CHAIN_MAX];    /* world positions, solved in place */
    quat G[PB_CHAIN_MAX];    /* world rotations of the input (FK) */
    vec3 S[PB_CHAIN_MAX];    /* world scales (FK) */
    REAL d[PB_CHAIN_MAX];    /* d[j]: length of the bone from joint j - 1 to j */
    vec3 u[PB_CHAIN_MAX];    /* u[j]: its input direction (unit; x for a zero-length bone) */
    vec3 T;
    REAL reach;              /* sum of the bones */
} ch_state;

static void ch_load(const KARGS *k, size_t C, size_t c, ch_state *s)
{
    s->L = k->p.chain_joints;
    s->reach = R(0);
    for (int j = 0; j < s->L; j++) {
        s->k[j] = ld_k(k->a, (size_t)j * C + c);
        if (j == 0) {
            s->P[0] = s->k[0].pos;
            s->G[0] = s->k[0].rot;
            s->S[0] = s->k[0].scl;
            continue;
        }
        kform par = { s->P[j - 1], s->G[j - 1], s->S[j - 1], v3(R(0), R(0), R(0)), v3(R(0), R(0), R(0)),
                      v3(R(0), R(0), R(0)) };
        kform g = kf_mul_static(par, s->k[j]);
        s->P[j] = g.pos;
        s->G[j] = g.rot;
        s->S[j] = g.scl;
        vec3 b = v3_sub(s->P[j], s->P[j - 1]);
        s->d[j] = v3_length(b);
        s->u[j] = v3_normalize_or(b, v3(R(1), R(0), R(0)));
        s->reach += s->d[j];
    }
    s->T = ld_v(k->b, PB_POS_X, (size_t)(s->L - 1) * C + c);
}

/* Rotations that carry the input chain onto positions P: joint j - 1's world
 * rotation turned (shorter arc) so its bone points from P[j - 1] to P[j];
 * written as the root's global and the others' local rotations. */
static void ch_store(const KARGS *k, size_t C, size_t c, const ch_state *s)
{
    quat par = qt(R(1), R(0), R(0), R(0)), cur = s->k[0].rot;   /* new world rotations: parent, joint */
    vec3 scl = s->k[0].scl;
    for (int j = 0; j < s->L; j++) {
        kform out = s->k[j];
        if (j > 0) cur = q_mul(par, s->k[j].rot);
        if (j + 1 < s->L) {
            vec3 bone = q_mul_vec3(cur, v3_mul(scl, s->k[j + 1].pos));
            vec3 want = v3_sub(s->P[j + 1], s->P[j]);
            vec3 u = v3_normalize_or(bone, v3(R(1), R(0), R(0))), w = v3_normalize_or(want, u);
            quat turn = q_between(u, w);
            /* near a half-turn the shorter arc's axis is ill-conditioned (q_between snaps within
             * 1.4e-3 rad of it): a second, small turn puts the bone on w itself */
            turn = q_mul(q_between(v3_normalize_or(q_mul_vec3(turn, u), w), w), turn);
            cur = q_normalize(q_mul(turn, cur));
            scl = v3_mul(scl, s->k[j + 1].scl);
        }
        out.rot = j == 0 ? cur : q_normalize(q_mul(q_inv(par), cur));
        st_transform(k->out, (size_t)j * C + c, out);
        par = cur;
    }
}

static REAL ch_residual(const ch_state *s) { return v3_length(v3_sub(s->P[s->L - 1], s->T)); }

/* Out of reach: every bone along the root-to-target direction. */
static int ch_straight(ch_state *s)
{
    vec3 to = v3_sub(s->T, s->P[0]);
    if (v3_length(to) < s->reach) return 0;
    vec3 u = v3_normalize_or(to, v3(R(1), R(0), R(0)));
    for (int j = 1; j < s->L; j++) s->P[j] = v3_add(s->P[j - 1], v3_scale(u, s->d[j]));
    return 1;
}

/* p moved to distance len from `from`, along the line from `from` through p
 * (a coincident p takes the direction `fallback`: the bone's input one). */
static vec3 ch_place(vec3 from, vec3 p, REAL len, vec3 fallback)
{
    return v3_add(from, v3_scale(v3_normalize_or(v3_sub(p, from), fallback), len));
}

static int fabrik_solve(ch_state *s, int iterations, REAL tol)
{
    if (ch_straight(s)) return 0;
    int L = s->L, it = 0;
    vec3 root = s->P[0];
    while (it < iterations && ch_residual(s) > tol) {
        s->P[L - 1] = s->T;   /* backward: end on the target, each joint pulled to its bone length */
        for (int j = L - 2; j >= 0; j--)
            s->P[j] = ch_place(s->P[j + 1], s->P[j], s->d[j + 1], v3_scale(s->u[j + 1], R(-1)));
        s->P[0] = root;       /* forward: root back in place */
        for (int j = 1; j < L; j++)
            s->P[j] = ch_place(s->P[j - 1], s->P[j], s->d[j], s->u[j]);
        it++;
    }
    return it;
}

/* Joint j's cone (ccd_cone): per.joint_cone[j], else params.cone or per.cone of chain c. */
static REAL ch_cone(const KARGS *k, size_t C, size_t c, int j)
{
    return k->per.joint_cone ? (REAL)k->per.joint_cone[j] : PARAM(k, cone, (size_t)j * C + c);
}

/* The cone limit at joint j (ccd_cone): its bone (P[j] to P[j + 1]) at most
 * `cone` rad from the axis (the parent bone's direction; the root bone's
 * input direction), else the joint's subchain turned (shorter arc, plus the
 * correcting small turn of ch_store) so the bone lies on the cone's edge in
 * the plane of axis and bone: c = axis cos(cone) + e sin(cone), e the bone's
 * part across the axis, made unit and orthogonalized twice. A bone folded
 * onto the axis or its opposite (within CH_FOLDED) leaves that part at
 * rounding level, its direction set by rounding: e is then a fixed
 * perpendicular of the axis, so float and double turn the same way
 * (measured: the bone's own plane there left limits up to 0.8 rad off).
 * Turning a joint nearer the root later carries both bones along, so the
 * limits set in a sweep stay met. */
#define CH_FOLDED 1e-3
static void ccd_limit(ch_state *s, int j, REAL cone)
{
    vec3 axis = j == 0 ? s->u[1] : v3_normalize_or(v3_sub(s->P[j], s->P[j - 1]), s->u[j]);
    vec3 b = v3_normalize_or(v3_sub(s->P[j + 1], s->P[j]), axis);
    if (!(vec_angle(axis, b) > cone)) return;
    vec3 across = v3_sub(b, v3_scale(axis, v3_dot(axis, b)));
    vec3 e = v3_length(across) > R(CH_FOLDED) ? v3_normalize_or(across, axis) : v3_perpendicular(axis);
    e = v3_normalize_or(v3_sub(e, v3_scale(axis, v3_dot(axis, e))), v3_perpendicular(axis));
    vec3 c = v3_add(v3_scale(axis, cos(cone)), v3_scale(e, sin(cone)));
    quat turn = q_between(b, c);
    turn = q_mul(q_between(v3_normalize_or(q_mul_vec3(turn, b), c), c), turn);
    for (int m = j + 1; m < s->L; m++) s->P[m] = v3_add(s->P[j], q_mul_vec3(turn, v3_sub(s->P[m], s->P[j])));
}

/* CCD: from the joint before the end back to the root, each joint turned
 * (shorter arc, about its own position) so the end points at the target;
 * positions below it turn along. Each sweep ends with the bones re-set to
 * their lengths along their directions (FABRIK's forward pass). With cone
 * limits (ccd_cone), the input chain is first put within them (root to end:
 * each limit turns only the bones below it, so those above stay met), each
 * turn is followed by its joint's limit, and a target out of reach is
 * iterated like any other (the straight chain may break a limit): every
 * solved chain meets its limits, iterated or not. */
static int ccd_solve(const KARGS *k, size_t C, size_t c, ch_state *s, int coned)
{
    int L = s->L, it = 0, iterations = k->p.iterations;
    REAL tol = k->p.tolerance, cone[PB_CHAIN_MAX];
    if (!coned && ch_straight(s)) return 0;
    for (int j = 0; coned && j < L - 1; j++) cone[j] = ch_cone(k, C, c, j);
    for (int j = 0; coned && j < L - 1; j++) ccd_limit(s, j, cone[j]);   /* the input onto its limits */
    while (it < iterations && ch_residual(s) > tol) {
        for (int j = L - 2; j >= 0; j--) {
            vec3 e = v3_sub(s->P[L - 1], s->P[j]), t = v3_sub(s->T, s->P[j]);
            vec3 eu = v3_normalize_or(e, v3(R(1), R(0), R(0)));
            quat turn = q_between(eu, v3_normalize_or(t, eu));
            for (int m = j + 1; m < L; m++) s->P[m] = v3_add(s->P[j], q_mul_vec3(turn, v3_sub(s->P[m], s->P[j])));
            if (coned) ccd_limit(s, j, cone[j]);
        }
        /* the bones back to their lengths: float turns are not exact isometries, and
         * hundreds of sweeps would drift the solved positions off the chain */
        for (int j = 1; j < L; j++) s->P[j] = ch_place(s->P[j - 1], s->P[j], s->d[j], s->u[j]);
        it++;
    }
    return it;
}

static void chain_impl(const KARGS *k, int method)   /* 0 fabrik, 1 ccd, 2 ccd_cone */
{
    size_t C = k->n / (size_t)k->p.chain_joints;
    ch_state s;
    for (size_t c = 0; c < C; c++) {
        ch_load(k, C, c, &s);
        int it = method ? ccd_solve(k, C, c, &s, method == 2) : fabrik_solve(&s, k->p.iterations, k->p.tolerance);
        ch_store(k, C, c, &s);
        if (k->iters) k->iters[c] = (uint8_t)it;
    }
}
void REF(fabrik)(const KARGS *k) { chain_impl(k, 0); }
void REF(ccd)(const KARGS *k) { chain_impl(k, 1); }
void REF(ccd_cone)(const KARGS *k) { chain_impl(k, 2); }
