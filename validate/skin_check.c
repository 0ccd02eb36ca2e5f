/* skin_check.c — skinning validation (skin_check.h): every variant, the
 * float reference included, against the double oracle; one tolerance row per
 * method with its reason. */
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "skin_check.h"
#include "skin_volume.h"
#include "all_variants.h"

const pb_skin_tol pb_skin_tolerance[2] = {
    [PB_SKIN_LBS] = { "skin_lbs", 4, 4e-6, 2e-6,
                      "4 weighted sums of 12 palette floats, then 3 dot products on |p| <= 3.5 m: a few ulp of "
                      "the blended matrix times |p| (ulp(2) = 2.4e-7); normals: divided by the length (the"
                      " kernels: times its reciprocal, and their matrix sums fused on FMA ISAs)" },
    [PB_SKIN_DQS] = { "skin_dqs", 4, 4e-6, 2e-6,
                      "4 weighted sums of 8 floats, a normalization, a rotation and a translation from the dual "
                      "part: a few ulp of |p| and |t| <= 3.5 m" },
};

static float *falloc(size_t n) { return calloc(n ? n : 1, sizeof(float)); }

/* Matrix and DQ entries e of rotation q (unit), translation t, unit scale. */
static void put_transform(pb_skin_case *c, size_t e, const double q[4], const double t[3], int flip)
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double m[3][3] = { { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
                       { 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
                       { 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) } };
    float *o = c->mat.data + e * PB_PALETTE_MAT_FLOATS;
    for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 3; k++) o[4 * r + k] = (float)m[r][k];
        o[4 * r + 3] = (float)t[r];
    }
    double s = flip ? -1 : 1;
    double d[4] = { 0.5 * (-t[0] * x - t[1] * y - t[2] * z), 0.5 * (t[0] * w + t[1] * z - t[2] * y),
                    0.5 * (-t[0] * z + t[1] * w + t[2] * x), 0.5 * (t[0] * y - t[1] * x + t[2] * w) };
    float *dq = c->dq.data + e * PB_PALETTE_DQ_FLOATS;
    for (int k = 0; k < 4; k++) { dq[k] = (float)(s * q[k]); dq[4 + k] = (float)(s * d[k]); }
}

static pb_status case_palettes(pb_skin_case *c, size_t entries)
{
    c->mat.n = c->dq.n = entries;
    c->mat.data = falloc(entries * PB_PALETTE_MAT_FLOATS);
    c->dq.data = falloc(entries * PB_PALETTE_DQ_FLOATS);
    return c->mat.data && c->dq.data ? PB_OK : pb_fail(PB_ERR_NOMEM, "skin case: out of memory");
}

/* Both palettes of `joints` random rigid transforms (skin_check.h). */
static pb_status random_palettes(pb_skin_case *c, size_t joints, uint64_t *rng)
{
    uint64_t r = *rng;
    c->joints = joints;
    pb_status s = case_palettes(c, joints);
    if (s != PB_OK) return s;
    for (size_t e = 0; e < joints; e++) {
        double q[4], t[3], d[3];
        do {
            for (int k = 0; k < 4; k++) q[k] = 2 * pb_rng_unit01d(&r) - 1;
        } while (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] < 0.01);
        double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int k = 0; k < 4; k++) q[k] /= l;
        pb_rng_dir(&r, d);
        double len = 2 * pb_rng_unit01d(&r);
        for (int k = 0; k < 3; k++) t[k] = d[k] * len;
        put_transform(c, e, q, t, (int)(pb_rng_next(&r) & 1));
    }
    *rng = r;
    return PB_OK;
}

pb_status pb_skin_case_random(pb_skin_case *c, size_t n, size_t joints, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->name = "random";
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 12;
    pb_status s = pb_mesh_alloc(&c->mesh, n, 4);
    if (s != PB_OK || (s = random_palettes(c, joints, &r)) != PB_OK) { pb_skin_case_free(c); return s; }
    pb_mesh *m = &c->mesh;
    for (size_t v = 0; v < n; v++) {
        double d[3];
        pb_rng_dir(&r, d);
        for (int k = 0; k < 3; k++) { m->pos[k][v] = 2 * pb_rng_unit01(&r) - 1; m->nrm[k][v] = (float)d[k]; }
        float rest = 0;
        for (int j = 3; j >= 0; j--) {
            m->idx[j][v] = (uint32_t)(pb_rng_next(&r) % joints);
            if (j) { m->w[j][v] = 0.25f * pb_rng_unit01(&r); rest += m->w[j][v]; }
        }
        m->w[0][v] = 1.0f - rest;
    }
    return PB_OK;
}

pb_status pb_skin_case_mocap(pb_skin_case *c, const pb_mocap *mc, size_t clip, size_t n, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->name = "mocap";
    const pb_bvh_skeleton *bvh = pb_mocap_skeleton(mc, clip);
    if (!bvh) return pb_fail(PB_ERR_PARAM, "skin case: no clips loaded");
    pb_skeleton sk;
    pb_pose rest, restg, inv, local, glob;
    memset(&rest, 0, sizeof rest); restg = inv = local = glob = rest;
    pb_status s = pb_crowd_skeleton(&sk, bvh, 1);
    if (s != PB_OK) return s;
    const size_t J = sk.joints;
    c->joints = J;
    if ((s = pb_pose_alloc_static(&rest, J)) == PB_OK && (s = pb_pose_alloc_static(&restg, J)) == PB_OK &&
        (s = pb_pose_alloc_static(&inv, J)) == PB_OK && (s = pb_pose_alloc(&local, J)) == PB_OK &&
        (s = pb_pose_alloc_static(&glob, J)) == PB_OK && (s = pb_rest_pose_from_bvh(bvh, &sk, &rest)) == PB_OK &&
        (s = pb_fk_static(&sk, &rest, &restg)) == PB_OK && (s = pb_inverse_bind_from_rest(&sk, &rest, &inv)) == PB_OK &&
        (s = pb_mesh_alloc(&c->mesh, n, 4)) == PB_OK && (s = pb_mesh_synthetic(&c->mesh, &sk, &restg)) == PB_OK &&
        (s = case_palettes(c, J)) == PB_OK) {
        pb_mocap_crowd(mc, clip, &local, 1, seed);
        if ((s = pb_fk_static(&sk, &local, &glob)) == PB_OK && (s = pb_matrix_palette(&glob, &inv, &c->mat)) == PB_OK)
            s = pb_dq_palette(&glob, &inv, &c->dq);
    }
    pb_pose_free(&rest); pb_pose_free(&restg); pb_pose_free(&inv); pb_pose_free(&local); pb_pose_free(&glob);
    pb_skeleton_free(&sk);
    if (s != PB_OK) pb_skin_case_free(c);
    return s;
}

pb_status pb_skin_case_asset(pb_skin_case *c, const pb_asset *a, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->name = "model";
    if (!a || !a->joints || !a->mesh.n) return pb_fail(PB_ERR_PARAM, "skin case: the model has no skinned mesh");
    const size_t J = a->joints, n = a->mesh.n;
    const int I = a->mesh.influences;
    c->joints = J;
    pb_skeleton sk = { 0 };
    pb_pose local = { 0 }, glob = { 0 };
    pb_status s = pb_skeleton_init(&sk, a->parents, J, 1);
    if (s == PB_OK) s = pb_pose_alloc_static(&local, J);
    if (s == PB_OK) s = pb_pose_alloc_static(&glob, J);
    if (s == PB_OK) s = pb_mesh_alloc(&c->mesh, n, I);
    if (s == PB_OK) s = case_palettes(c, J);
    if (s == PB_OK) {
        const pb_pose *from = &a->rest;
        size_t at = 0;
        if (a->clips && a->clip[0].clip.frames) {
            uint64_t r = seed * 0x9E3779B97F4A7C15ull + 14;
            from = &a->clip[0].clip.pose;
            at = (size_t)(pb_rng_next(&r) % a->clip[0].clip.frames) * J;
        }
        for (int q = 0; q < PB_STATIC_PLANES; q++) memcpy(local.plane[q], from->plane[q] + at, J * sizeof(float));
        for (int k = 0; k < 3; k++) {
            memcpy(c->mesh.pos[k], a->mesh.pos[k], n * sizeof(float));
            memcpy(c->mesh.nrm[k], a->mesh.nrm[k], n * sizeof(float));
        }
        for (int i = 0; i < I; i++) {
            memcpy(c->mesh.idx[i], a->mesh.idx[i], n * sizeof(uint32_t));
            memcpy(c->mesh.w[i], a->mesh.w[i], n * sizeof(float));
        }
        if ((s = pb_fk_static(&sk, &local, &glob)) == PB_OK && (s = pb_matrix_palette(&glob, &a->inv_bind_pose, &c->mat)) == PB_OK)
            s = pb_dq_palette(&glob, &a->inv_bind_pose, &c->dq);
    }
    pb_pose_free(&local);
    pb_pose_free(&glob);
    pb_skeleton_free(&sk);
    if (s != PB_OK) pb_skin_case_free(c);
    return s;
}

pb_status pb_skin_case_bones(pb_skin_case *c, size_t n, size_t joints, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->name = "bones";
    pb_scene sc;
    pb_status s = pb_scene_synthetic(&sc, joints, seed);
    if (s != PB_OK) return s;
    if ((s = pb_scene_mesh(&sc, n)) == PB_OK) {
        c->mesh = sc.mesh;   /* taken over: the scene frees no mesh */
        memset(&sc.mesh, 0, sizeof sc.mesh);
        uint64_t r = seed * 0x9E3779B97F4A7C15ull + 13;
        s = random_palettes(c, joints, &r);
    }
    pb_scene_free(&sc);
    if (s != PB_OK) pb_skin_case_free(c);
    return s;
}

void pb_skin_case_free(pb_skin_case *c)
{
    pb_mesh_free(&c->mesh);
    free(c->mat.data);
    free(c->dq.data);
    memset(c, 0, sizeof *c);
}

static double *to_double(const float *p, size_t n)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (d) for (size_t i = 0; i < n; i++) d[i] = p[i];
    return d;
}

pb_status pb_skin_error(const pb_variant *v, pb_skin_method method, const pb_skin_case *c, pb_skin_err *err)
{
    return pb_skin_error_flags(v, method, 0, c, err);
}

/* Normals not skinned: the variant's run without normal planes in the mesh,
 * and over output normal planes filled with NaN that must stay NaN. */
#define SKIN_UNWRITTEN NAN

pb_status pb_skin_error_flags(const pb_variant *v, pb_skin_method method, unsigned flags, const pb_skin_case *c,
                              pb_skin_err *err)
{
    const int pos_only = (flags & PB_SKIN_POSITIONS_ONLY) != 0;
    pb_mesh mv = c->mesh;   /* positions only: a mesh without normals */
    if (pos_only) mv.nrm[0] = mv.nrm[1] = mv.nrm[2] = NULL;
    const pb_mesh *m = &c->mesh;
    const pb_palette *pal = method == PB_SKIN_LBS ? &c->mat : &c->dq;
    const size_t n = m->n, width = method == PB_SKIN_LBS ? PB_PALETTE_MAT_FLOATS : PB_PALETTE_DQ_FLOATS;
    pb_skinned out;
    pb_status s = pb_skinned_alloc(&out, n);
    if (s != PB_OK) return s;
    for (int p = 0; p < 3 && pos_only; p++)
        for (size_t i = 0; i < n; i++) out.nrm[p][i] = SKIN_UNWRITTEN;
    pb_skin_call call = { &mv, pal, 1, 0, &out, flags };
    pb_skin_job *job = NULL;
    if ((s = pb_skin_job_create(&job, method, v, &call)) != PB_OK) { pb_skinned_free(&out); return s; }
    pb_skin_job_run(job);
    pb_skin_job_free(job);
    /* the oracle: the same inputs in double */
    pb_skin_kargs_f64 k;
    memset(&k, 0, sizeof k);
    double *buf[6 + 4 + 1 + 6] = { 0 };
    int nb = 0, ok = 1;
    k.n = n;
    k.influences = m->influences;
    k.pos_only = pos_only;
    for (int p = 0; p < 3; p++) {
        k.pos[p] = buf[nb++] = to_double(m->pos[p], n);
        k.out_pos[p] = buf[nb++] = to_double(out.pos[p], n);
        if (pos_only) continue;   /* the oracle neither reads nor writes normals */
        k.nrm[p] = buf[nb++] = to_double(m->nrm[p], n);
        k.out_nrm[p] = buf[nb++] = to_double(out.nrm[p], n);
    }
    for (int j = 0; j < m->influences; j++) {
        k.idx[j] = m->idx[j];
        k.w[j] = buf[nb++] = to_double(m->w[j], n);
    }
    k.pal = buf[nb++] = to_double(pal->data, pal->n * width);
    k.stride = (int32_t)width;
    k.joints = (int32_t)pal->n;
    for (int b = 0; b < nb; b++) ok &= buf[b] != NULL;
    if (ok) {
        (method == PB_SKIN_LBS ? pb_ref_aux_f64_table.lbs : pb_ref_aux_f64_table.dqs)(&k);
        err->pos = err->nrm = 0;
        for (int p = 0; p < 3; p++)
            for (size_t i = 0; i < n; i++) {
                double dp = fabs(out.pos[p][i] - k.out_pos[p][i]);
                /* positions only: a normal written (not NaN) counts as an infinite error */
                double dn = pos_only ? (isnan(out.nrm[p][i]) ? 0 : INFINITY) : fabs(out.nrm[p][i] - k.out_nrm[p][i]);
                if (!(dp <= err->pos)) err->pos = dp;   /* NaN wins */
                if (!(dn <= err->nrm)) err->nrm = dn;
            }
    }
    for (int b = 0; b < nb; b++) free(buf[b]);
    pb_skinned_free(&out);
    return ok ? PB_OK : pb_fail(PB_ERR_NOMEM, "pb_skin_error: out of memory");
}

int pb_skin_validate(FILE *out, const pb_mocap *mc, const pb_asset *model, const pb_val_sink *sink)
{
    pb_skin_case cases[4];
    int ncases = 0, fails = 0;
    if (pb_skin_case_random(&cases[ncases], 10007, 64, 1) != PB_OK) return -1;
    ncases++;
    /* 30011 vertices along 63 bones: runs of 159 on average, so jobs of every variant keep them */
    if (pb_skin_case_bones(&cases[ncases], 30011, 64, 3) != PB_OK) { pb_skin_case_free(&cases[0]); return -1; }
    ncases++;
    if (mc && mc->nclips) {
        if (pb_skin_case_mocap(&cases[ncases], mc, 0, 10007, 2) != PB_OK) {
            for (int ci = 0; ci < ncases; ci++) pb_skin_case_free(&cases[ci]);
            return -1;
        }
        ncases++;
    }
    if (model) {
        if (pb_skin_case_asset(&cases[ncases], model, 4) != PB_OK) {
            for (int ci = 0; ci < ncases; ci++) pb_skin_case_free(&cases[ci]);
            return -1;
        }
        fprintf(out, "# model: %zu vertices, %zu joints, the file's inverse binds (case model)\n", model->mesh.n,
                model->joints);
        ncases++;
        pb_twist_result tw;
        if (model->clips && pb_skin_twist(model, &tw) == PB_OK) pb_skin_twist_print(out, model, &tw);
        else if (model->clips) fprintf(out, "# model: LBS vs DQS not measured: %s\n", pb_last_error());
    }
    const pb_variant *scalar = NULL;
    pb_variant_find("scalar", &scalar);
    fprintf(out, "# skinning vs the double oracle (10007 vertices, bones 30011, 4 influences; pos: m, nrm: absolute)\n");
    fprintf(out, "# positions only (PB_SKIN_POSITIONS_ONLY; cases <case>_pos): nrm_err is 0 when no normal was written\n");
    fprintf(out, "%-9s %-10s %-12s %10s %10s %10s %10s %10s %10s  %s\n", "op", "case", "variant", "pos_err", "ref_pos",
            "pos_bound", "nrm_err", "ref_nrm", "nrm_bound", "verdict");
    for (int method = 0; method < 2; method++) {
        const pb_skin_tol *t = &pb_skin_tolerance[method];
        for (int ci = 0; ci < 2 * ncases; ci++) {
            const pb_skin_case *cs = &cases[ci / 2];
            const unsigned flags = ci % 2 ? PB_SKIN_POSITIONS_ONLY : 0;
            char form[32];
            snprintf(form, sizeof form, "%s%s", cs->name, flags ? "_pos" : "");
            pb_skin_err ref;
            if (pb_skin_error_flags(scalar, (pb_skin_method)method, flags, cs, &ref) != PB_OK) { fails = -1; goto done; }
            double pb_ = fmax(t->k * ref.pos, t->pos_floor), nb_ = fmax(t->k * ref.nrm, t->nrm_floor);
            for (size_t i = 0; i < pb_all_variant_count(); i++) {
                const pb_variant *v = pb_all_variant_at(i);
                if (pb_variant_check(v) != PB_OK) continue;
                pb_skin_err e;
                if (pb_skin_error_flags(v, (pb_skin_method)method, flags, cs, &e) != PB_OK) { fails = -1; goto done; }
                int pass = e.pos <= pb_ && e.nrm <= nb_;
                fails += !pass;
                size_t nv = cs->mesh.n;   /* the JSON: a row per metric, each judged by its own bound */
                pb_val_emit(sink, t->op, form, v, "pos", "m", e.pos, ref.pos, pb_, nv, 0, e.pos <= pb_);
                pb_val_emit(sink, t->op, form, v, "nrm", "abs", e.nrm, ref.nrm, nb_, nv, 0, e.nrm <= nb_);
                fprintf(out, "%-9s %-10s %-12s %10.3g %10.3g %10.3g %10.3g %10.3g %10.3g  %s\n", t->op, form,
                        pb_variant_name(v), e.pos, ref.pos, pb_, e.nrm, ref.nrm, nb_, pass ? "ok" : "FAIL");
            }
        }
        fprintf(out, "# %s bound: max(%g x ref, pos %g m, nrm %g): %s\n", t->op, t->k, t->pos_floor, t->nrm_floor,
                t->reason);
    }
done:
    for (int ci = 0; ci < ncases; ci++) pb_skin_case_free(&cases[ci]);
    return fails;
}
