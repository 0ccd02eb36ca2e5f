/* foot.h — the reference's foot IK (the approach of ozz-animation's foot_ik
 * sample, as an op over crowds): lower the pelvis so both ankles reach their
 * ground, two-bone IK on each leg (target.h's ik_solve: one solve serves
 * two_bone_ik and this op), then turn each ankle toward the ground normal by a
 * weight. Uses target.h (included before it). Layout: PB_OPF_FOOT (ops.h).
 *
 * Rules, per character and leg s (slots: pelvis 0; hip, knee, ankle 1 + 3s ..):
 *   normal   n = b.pos of the knee slot, normalized; zero: up (0, 1, 0).
 *   target   T = the ankle (input pose) projected on the plane along n: the
 *            plane is where the ankle joint rests (the ground raised by the
 *            ankle's height, as ozz's ankle offset), its point b.pos of the
 *            ankle slot. A foot already on the plane keeps its target.
 *   pelvis   lowered along world -y by the least d >= 0 that puts both
 *            targets within reach FOOT_REACH (l1 + l2) of their hips; never
 *            raised. A target no drop brings within reach (too far to the
 *            side) takes the drop that brings the hip level with it (as near
 *            as a drop gets); the leg then stretches toward it.
 *   legs     ik_solve with the hip as root (global: pelvis x hip local), bend
 *            hint the hip's local x axis (used only for straight legs).
 *   ankle    its local up axis (params.axis) turned onto n by the rotation
 *            exp(alpha log B), B the shorter arc (q_between): alpha 0 keeps
 *            the IK's foot, 1 aligns it, others extrapolate along the arc.
 * Velocities (foot_ik_vel): central two-sample rates (as two_bone_ik_vel):
 * the solve at t -+ dt/2 with every input moved by its velocities (ground
 * points and normals by their b.vel); the pelvis's vel.y loses the drop's
 * rate, the locals' ang are the rates of their new rotations. */

/* The reach the pelvis drop leaves a leg: 1e-4 of its length inside
 * ik_solve's clamp (1 - 1e-4), so the binding leg lands on its target and
 * does not sit on the clamp's kink. */
#define FOOT_REACH R(0.9998)

/* Least d >= 0 with |H - d y - T| <= reach: d = v.y - sqrt(reach^2 - |v.xz|^2)
 * for v = H - T (negative when already in reach), v.y when |v.xz| > reach. */
static REAL foot_drop(vec3 H, vec3 T, REAL reach)
{
    vec3 v = v3_sub(H, T);
    REAL d = v.y - sqrt(fmax(R(0), reach * reach - (v.x * v.x + v.z * v.z)));
    return fmax(R(0), d);
}

typedef struct { REAL drop; quat rot[2][3]; } foot_result;   /* pelvis drop, legs' new local rotations */
/* leg[s]: hip, knee, ankle locals; gp, gn: ground point and normal per leg. */
static foot_result foot_solve(kform pelvis, const kform leg[2][3], const vec3 gp[2], const vec3 gn[2], vec3 up,
                              REAL weight)
{
    foot_result r;
    kform hip[2];
    vec3 T[2], n[2];
    r.drop = R(0);
    for (int s = 0; s < 2; s++) {
        hip[s] = kf_mul_static(pelvis, leg[s][0]);
        kform knee = kf_mul_static(hip[s], leg[s][1]), ankle = kf_mul_static(knee, leg[s][2]);
        n[s] = v3_normalize_or(gn[s], v3(R(0), R(1), R(0)));
        T[s] = v3_sub(ankle.pos, v3_scale(n[s], v3_dot(v3_sub(ankle.pos, gp[s]), n[s])));
        REAL reach = FOOT_REACH * (v3_length(v3_sub(knee.pos, hip[s].pos)) + v3_length(v3_sub(ankle.pos, knee.pos)));
        r.drop = fmax(r.drop, foot_drop(hip[s].pos, T[s], reach));
    }
    for (int s = 0; s < 2; s++) {
        hip[s].pos.y -= r.drop;
        ik_result ik = ik_solve(hip[s], leg[s][1], leg[s][2], T[s], v3(R(1), R(0), R(0)));
        kform hg = hip[s], kl = leg[s][1];
        hg.rot = ik.root;
        kl.rot = ik.mid;
        quat knee_rot = kf_mul_static(hg, kl).rot, ankle_rot = q_mul(knee_rot, leg[s][2].rot);
        quat B = q_between(q_mul_vec3(ankle_rot, up), n[s]);
        quat Bw = q_from_scaled_angle_axis(v3_scale(q_to_scaled_angle_axis(B), weight));
        r.rot[s][0] = q_mul(q_inv(pelvis.rot), ik.root);
        r.rot[s][1] = ik.mid;
        r.rot[s][2] = q_mul(q_inv(knee_rot), q_mul(Bw, ankle_rot));
    }
    return r;
}

static kform kf_step_if(kform k, REAL h) { return h != R(0) ? kf_step(k, h) : k; }
/* One character's inputs at time offset h (h = 0: as given). */
static foot_result foot_at(const KARGS *k, size_t C, size_t c, vec3 up, REAL h)
{
    kform leg[2][3];
    vec3 gp[2], gn[2];
    for (int s = 0; s < 2; s++) {
        for (int j = 0; j < 3; j++) leg[s][j] = kf_step_if(ld_k(k->a, (size_t)(1 + 3 * s + j) * C + c), h);
        size_t e_n = (size_t)(2 + 3 * s) * C + c, e_p = (size_t)(3 + 3 * s) * C + c;
        gp[s] = v3_add(ld_v(k->b, PB_POS_X, e_p), v3_scale(ld_v(k->b, PB_VEL_X, e_p), h));
        gn[s] = v3_add(ld_v(k->b, PB_POS_X, e_n), v3_scale(ld_v(k->b, PB_VEL_X, e_n), h));
    }
    return foot_solve(kf_step_if(ld_k(k->a, c), h), leg, gp, gn, up, k->p.alpha);
}

static void foot_impl(const KARGS *k, int with_vel)
{
    size_t C = k->n / 7;
    vec3 up = unit_axis(&k->p);
    REAL dt = k->p.dt;
    for (size_t c = 0; c < C; c++) {
        foot_result r = foot_at(k, C, c, up, R(0)), lo = r, hi = r;
        if (with_vel && dt > R(0)) {
            lo = foot_at(k, C, c, up, -dt / R(2));
            hi = foot_at(k, C, c, up, dt / R(2));
        }
        int rates = with_vel && dt > R(0);
        kform pelvis = ld_k(k->a, c);
        pelvis.pos.y -= r.drop;
        if (rates) pelvis.vel.y -= (hi.drop - lo.drop) / dt;
        st_k(k->out, c, pelvis);
        for (int s = 0; s < 2; s++)
            for (int j = 0; j < 3; j++) {
                size_t e = (size_t)(1 + 3 * s + j) * C + c;
                kform l = ld_k(k->a, e);
                l.rot = r.rot[s][j];
                if (rates) l.ang = q_rate(hi.rot[s][j], lo.rot[s][j], dt);
                st_k(k->out, e, l);
            }
    }
}
void REF(foot_ik)(const KARGS *k) { foot_impl(k, 0); }
void REF(foot_ik_vel)(const KARGS *k) { foot_impl(k, 1); }
