/* foot.h — the foot IK kernels (rules and layout: reference/foot.h and
 * PB_OPF_FOOT in ops.h): pelvis drop, target.h's vik_solve per leg, the ankle
 * turned toward the ground normal by a weight. Characters in crowd layout, so
 * a vector of characters is plain loads of each slot. */

#define VFOOT_REACH 0.9998f   /* reference: FOOT_REACH */

PB_VINLINE pb_vf vfoot_drop(vv3 H, vv3 T, pb_vf reach)
{
    vv3 v = vv3_sub(H, T);
    pb_vf side = vadd(vmul(v.x, v.x), vmul(v.z, v.z));
    pb_vf d = vsub(v.y, vsqrt(vmax(vzero(), vsub(vmul(reach, reach), side))));
    return vmax(vzero(), d);
}

typedef struct { pb_vf drop; vq rot[2][3]; } vfoot_result;
typedef struct { vkf pelvis, leg[2][3]; vv3 gp[2], gn[2], gpv[2], gnv[2]; } vfoot_in;

PB_VINLINE vfoot_result vfoot_solve(const vfoot_in *in, vv3 up, pb_vf weight, pb_vf h, int step)
{
    vfoot_result r;
    vkf pelvis = step ? vkf_step(in->pelvis, h) : in->pelvis, leg[2][3], hip[2];
    vv3 T[2], n[2];
    r.drop = vzero();
    for (int s = 0; s < 2; s++) {
        for (int j = 0; j < 3; j++) leg[s][j] = step ? vkf_step(in->leg[s][j], h) : in->leg[s][j];
        vv3 gp = step ? vv3_add(in->gp[s], vv3_scale(in->gpv[s], h)) : in->gp[s];
        vv3 gn = step ? vv3_add(in->gn[s], vv3_scale(in->gnv[s], h)) : in->gn[s];
        hip[s] = vkf_mul_static(&pelvis, &leg[s][0]);
        vkf knee = vkf_mul_static(&hip[s], &leg[s][1]), ankle = vkf_mul_static(&knee, &leg[s][2]);
        n[s] = vv3_normalize_or(gn, vv3_set(0, 1, 0));
        T[s] = vv3_sub(ankle.pos, vv3_scale(n[s], vv3_dot(vv3_sub(ankle.pos, gp), n[s])));
        pb_vf reach = vmul(vset1(VFOOT_REACH), vadd(vv3_length(vv3_sub(knee.pos, hip[s].pos)),
                                                    vv3_length(vv3_sub(ankle.pos, knee.pos))));
        r.drop = vmax(r.drop, vfoot_drop(hip[s].pos, T[s], reach));
    }
    vv3 hint = vv3_set(1, 0, 0);
    for (int s = 0; s < 2; s++) {
        hip[s].pos.y = vsub(hip[s].pos.y, r.drop);
        vik_result ik = vik_solve(&hip[s], &leg[s][1], &leg[s][2], T[s], hint);
        vkf hg = hip[s], kl = leg[s][1];
        hg.rot = ik.root;
        kl.rot = ik.mid;
        vq knee_rot = vkf_mul_static(&hg, &kl).rot, ankle_rot = vq_mul(knee_rot, leg[s][2].rot);
        vq B = vq_between(vq_mul_vec3(ankle_rot, up), n[s]);
        vq Bw = vq_from_saa(vv3_scale(vq_to_saa(B), weight));
        r.rot[s][0] = vq_mul(vq_inv(pelvis.rot), ik.root);
        r.rot[s][1] = ik.mid;
        r.rot[s][2] = vq_mul(vq_inv(knee_rot), vq_mul(Bw, ankle_rot));
    }
    return r;
}

static inline void foot_body(const pb_kargs *k, int with_vel)
{
    size_t C = k->n / 7;
    int np = with_vel ? PB_PLANES : 10;
    vv3 up = unit_axis(&k->p);
    pb_vf weight = vset1(k->p.alpha);
    float dt = k->p.dt;
    int rates = with_vel && dt > 0;
    pb_vf h = vset1(dt / 2), mh = vset1(-dt / 2), inv_dt = vset1(rates ? 1.0f / dt : 0.0f);
    for (size_t c = 0; c < C; c += PB_LANES) {
        size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
        vfoot_in in;
        in.pelvis = vkf_load_n(k->a, c, cnt, np);
        for (int s = 0; s < 2; s++) {
            for (int j = 0; j < 3; j++) in.leg[s][j] = vkf_load_n(k->a, (size_t)(1 + 3 * s + j) * C + c, cnt, np);
            /* b: only the planes' pos (and vel) planes */
            size_t en = (size_t)(2 + 3 * s) * C + c, ep = en + C;
            in.gn[s] = vv3_load_n(k->b, PB_POS_X, en, cnt);
            in.gp[s] = vv3_load_n(k->b, PB_POS_X, ep, cnt);
            in.gnv[s] = with_vel ? vv3_load_n(k->b, PB_VEL_X, en, cnt) : vv3_set(0, 0, 0);
            in.gpv[s] = with_vel ? vv3_load_n(k->b, PB_VEL_X, ep, cnt) : vv3_set(0, 0, 0);
        }
        vfoot_result r = vfoot_solve(&in, up, weight, vzero(), 0), lo = r, hi = r;
        if (rates) {
            lo = vfoot_solve(&in, up, weight, mh, 1);
            hi = vfoot_solve(&in, up, weight, h, 1);
        }
        vkf pelvis = in.pelvis;
        pelvis.pos.y = vsub(pelvis.pos.y, r.drop);
        if (rates) pelvis.vel.y = vsub(pelvis.vel.y, vmul(vsub(hi.drop, lo.drop), inv_dt));
        vkf_store_n(k->out, c, cnt, np, &pelvis);
        for (int s = 0; s < 2; s++)
            for (int j = 0; j < 3; j++) {
                vkf l = in.leg[s][j];
                l.rot = r.rot[s][j];
                if (rates) l.ang = vq_rate(hi.rot[s][j], lo.rot[s][j], inv_dt);
                vkf_store_n(k->out, (size_t)(1 + 3 * s + j) * C + c, cnt, np, &l);
            }
    }
}
static void k_foot_ik(const pb_kargs *k) { foot_body(k, 0); }
static void k_foot_ik_vel(const pb_kargs *k) { foot_body(k, 1); }
