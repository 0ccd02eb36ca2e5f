/* test_skin.c — skinning (posebench/skin.h). Every variant (emulated ones
 * too) against the double oracle within the tolerance rows, on a random mesh
 * with antipodal DQs and tails at every lane width; checks not from the
 * reference: an identity palette leaves the mesh where it is, a rigid palette
 * (every joint the same transform) moves every vertex by that transform
 * (LBS and DQS), and a joint twisted 90 and 180 degrees keeps its tube's
 * cross-section under DQS far better than under LBS (numbers printed). The
 * synthetic mesh passes its check at any size and is deterministic. Bad
 * input, broken one field at a time: the matching error, the vertex named,
 * the output untouched. Jobs read new palette data each run, and the crowd
 * layout (characters, character) reads the right entries. Palettes read
 * from register tables and gathered ones agree bit for bit, and so do a mesh
 * in runs of vertices with the same joints and its vertices shuffled. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "val_rows.h"
#include "skin_check.h"
#include "all_variants.h"
#include "rng.h"

#define SENTINEL 12345.0f

static const pb_variant *variants[16];
static size_t nvariants;

static void fill(pb_skinned *o, float x)
{
    for (int c = 0; c < 3; c++)
        for (size_t i = 0; i < o->n; i++) {
            if (o->pos[c]) o->pos[c][i] = x;
            if (o->nrm[c]) o->nrm[c][i] = x;
        }
}
static int untouched(const pb_skinned *o)
{
    for (int c = 0; c < 3; c++)
        for (size_t i = 0; i < o->n; i++)
            if ((o->pos[c] && o->pos[c][i] != SENTINEL) || (o->nrm[c] && o->nrm[c][i] != SENTINEL)) return 0;
    return 1;
}

static void test_oracle(void)
{
    const size_t sizes[] = { 1, 3, 7, 15, 17, 37, 1003 };
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        pb_skin_case c;
        CHECK(pb_skin_case_random(&c, sizes[si], 9, 40 + si) == PB_OK, "%s", pb_last_error());
        for (int method = 0; method < 2; method++) {
            const pb_skin_tol *t = &pb_skin_tolerance[method];
            for (size_t i = 0; i < nvariants; i++) {
                pb_skin_err e = { -1, -1 };
                CHECK(pb_skin_error(variants[i], (pb_skin_method)method, &c, &e) == PB_OK, "%s", pb_last_error());
                CHECK(e.pos <= 2 * t->pos_floor && e.nrm <= 2 * t->nrm_floor, "%s %s n=%zu: pos %g nrm %g", t->op,
                      pb_variant_name(variants[i]), sizes[si], e.pos, e.nrm);
            }
        }
        pb_skin_case_free(&c);
    }
    val_rows got = { .op_prefix = "skin_" };
    const pb_val_sink sink = { val_rows_fn, &got };
    int fails = pb_skin_validate(stdout, NULL, NULL, &sink);
    CHECK(fails == 0, "pb_skin_validate: %d failing rows", fails);
    /* the rows --json writes (issue 62, defect 5: none were): some, every one whole, none failing */
    CHECK(got.rows > 0 && got.bad == 0 && got.fails == 0, "skinning JSON rows: %zu, %zu malformed (%s), %zu failing", got.rows,
          got.bad, got.first_bad, got.fails);
}

/* Every palette entry = rotation q (unit), translation t. */
static void set_rigid(pb_skin_case *c, const double q[4], const double t[3])
{
    for (size_t e = 0; e < c->mat.n; e++) {
        double w = q[0], x = q[1], y = q[2], z = q[3];
        double m[3][3] = { { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
                           { 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
                           { 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) } };
        for (int r = 0; r < 3; r++) {
            for (int k = 0; k < 3; k++) c->mat.data[e * 12 + 4 * r + k] = (float)m[r][k];
            c->mat.data[e * 12 + 4 * r + 3] = (float)t[r];
        }
        double d[4] = { 0.5 * (-t[0] * x - t[1] * y - t[2] * z), 0.5 * (t[0] * w + t[1] * z - t[2] * y),
                        0.5 * (-t[0] * z + t[1] * w + t[2] * x), 0.5 * (t[0] * y - t[1] * x + t[2] * w) };
        double s = (e & 1) ? -1 : 1;   /* every other entry as -q: the same transform */
        for (int k = 0; k < 4; k++) {
            c->dq.data[e * 8 + k] = (float)(s * q[k]);
            c->dq.data[e * 8 + 4 + k] = (float)(s * d[k]);
        }
    }
}

static void drot(const double q[4], const double v[3], double o[3])
{
    double tx = 2 * (q[2] * v[2] - q[3] * v[1]), ty = 2 * (q[3] * v[0] - q[1] * v[2]), tz = 2 * (q[1] * v[1] - q[2] * v[0]);
    o[0] = v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
    o[1] = v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
    o[2] = v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
}

/* Max distance of the skinned mesh from the rest mesh moved by (q, t). */
static void rigid_error(const pb_variant *v, pb_skin_method method, pb_skin_case *c, const double q[4],
                        const double t[3], double *pe, double *ne)
{
    pb_skinned o;
    pb_skinned_alloc(&o, c->mesh.n);
    pb_skin_call call = { &c->mesh, method == PB_SKIN_LBS ? &c->mat : &c->dq, 1, 0, &o, 0 };
    pb_skin_job *job = NULL;
    CHECK(pb_skin_job_create(&job, method, v, &call) == PB_OK, "%s", pb_last_error());
    pb_skin_job_run(job);
    pb_skin_job_free(job);
    *pe = *ne = 0;
    for (size_t i = 0; i < c->mesh.n; i++) {
        double p[3] = { c->mesh.pos[0][i], c->mesh.pos[1][i], c->mesh.pos[2][i] }, pr[3];
        double n[3] = { c->mesh.nrm[0][i], c->mesh.nrm[1][i], c->mesh.nrm[2][i] }, nr[3];
        drot(q, p, pr);
        drot(q, n, nr);
        for (int k = 0; k < 3; k++) {
            *pe = dmax(*pe, fabs(pr[k] + t[k] - o.pos[k][i]));
            *ne = dmax(*ne, fabs(nr[k] - o.nrm[k][i]));
        }
    }
    pb_skinned_free(&o);
}

static void test_rigid(void)
{
    pb_skin_case c;
    CHECK(pb_skin_case_random(&c, 333, 12, 7) == PB_OK, "%s", pb_last_error());
    const double id[4] = { 1, 0, 0, 0 }, zero[3] = { 0, 0, 0 };
    const double h = sqrt(0.5), q[4] = { 0.5, 0.5, -0.5, 0.5 }, q2[4] = { h, 0, h, 0 }, t[3] = { 0.7, -1.25, 2.0 };
    const double *qs[3] = { id, q, q2 }, *ts[3] = { zero, t, t };
    for (int k = 0; k < 3; k++) {
        set_rigid(&c, qs[k], ts[k]);
        for (int method = 0; method < 2; method++)
            for (size_t i = 0; i < nvariants; i++) {
                double pe, ne;
                rigid_error(variants[i], (pb_skin_method)method, &c, qs[k], ts[k], &pe, &ne);
                CHECK(pe <= 2e-6 && ne <= 1e-6, "%s %s %s: pos %g nrm %g", k ? "rigid" : "identity",
                      pb_skin_tolerance[method].op, pb_variant_name(variants[i]), pe, ne);
            }
    }
    pb_skin_case_free(&c);
}

/* A 3-joint chain up y (bones 0 -> 1 -> 2, 1 m each), its synthetic mesh. */
static void chain_mesh(pb_mesh *m, size_t n)
{
    const int32_t parents[3] = { -1, 0, 1 };
    pb_skeleton sk;
    pb_pose rest;
    CHECK(pb_skeleton_init(&sk, parents, 3, 1) == PB_OK, "%s", pb_last_error());
    CHECK(pb_pose_alloc_static(&rest, 3) == PB_OK, "%s", pb_last_error());
    for (int j = 0; j < 3; j++) {
        rest.plane[PB_POS_X][j] = 0; rest.plane[PB_POS_Y][j] = (float)j; rest.plane[PB_POS_Z][j] = 0;
        rest.plane[PB_ROT_W][j] = 1;
        for (int c = 1; c < 4; c++) rest.plane[PB_ROT_W + c][j] = 0;
        for (int c = 0; c < 3; c++) rest.plane[PB_SCL_X + c][j] = 1;
    }
    CHECK(pb_mesh_alloc(m, n, 4) == PB_OK, "%s", pb_last_error());
    CHECK(pb_mesh_synthetic(m, &sk, &rest) == PB_OK, "%s", pb_last_error());
    pb_pose_free(&rest);
    pb_skeleton_free(&sk);
}

/* Joint 1 (and its child) twisted by deg about the bone axis (y): the loss
 * of the mean squared radius of the vertices within 0.25 m of joint 1 (the
 * cross-section area around the joint; 0: kept, 1: collapsed). */
static double twist_loss(pb_skin_method method, double deg, const pb_mesh *m)
{
    pb_skin_case c;
    memset(&c, 0, sizeof c);
    float mat[3 * 12], dq[3 * 8];
    c.mat.data = mat; c.dq.data = dq; c.mat.n = c.dq.n = 3;
    const double a = deg * 3.14159265358979323846 / 360, q1[4] = { cos(a), 0, sin(a), 0 }, id[4] = { 1, 0, 0, 0 };
    const double zero[3] = { 0, 0, 0 };
    set_rigid(&c, q1, zero);
    pb_skin_case c0 = c;   /* entry 0: identity */
    c0.mat.n = c0.dq.n = 1;
    set_rigid(&c0, id, zero);
    pb_skinned o;
    pb_skinned_alloc(&o, m->n);
    CHECK((method == PB_SKIN_LBS ? pb_skin_lbs(m, &c.mat, &o) : pb_skin_dqs(m, &c.dq, &o)) == PB_OK, "%s",
          pb_last_error());
    double r0 = 0, r1 = 0;
    for (size_t i = 0; i < m->n; i++)
        if (fabs(m->pos[1][i] - 1.0f) <= 0.25f) {
            r0 += m->pos[0][i] * m->pos[0][i] + m->pos[2][i] * m->pos[2][i];
            r1 += o.pos[0][i] * o.pos[0][i] + o.pos[2][i] * o.pos[2][i];
        }
    pb_skinned_free(&o);
    return 1 - r1 / r0;
}

static void test_volume(void)
{
    pb_mesh m;
    chain_mesh(&m, 20000);
    for (int k = 0; k < 2; k++) {
        double deg = k ? 180 : 90, lbs = twist_loss(PB_SKIN_LBS, deg, &m), dqs = twist_loss(PB_SKIN_DQS, deg, &m);
        printf("twist %3.0f deg: cross-section area lost within 0.25 m of the joint: LBS %.4f, DQS %.2g\n", deg, lbs,
               dqs);
        CHECK(dqs < lbs, "twist %g: DQS loss %g not below LBS's %g", deg, dqs, lbs);
        CHECK(fabs(dqs) < 1e-5, "twist %g: DQS changes the cross-section by %g", deg, dqs);
        CHECK(lbs > (k ? 0.3 : 0.05), "twist %g: LBS loses only %g", deg, lbs);
    }
    pb_mesh_free(&m);
}

static void test_synthetic(void)
{
    const size_t sizes[] = { 1, 2, 7, 1000, 100003 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        pb_mesh a, b;
        chain_mesh(&a, sizes[s]);
        chain_mesh(&b, sizes[s]);
        CHECK(pb_mesh_check(&a, 3) == PB_OK, "n=%zu: %s", sizes[s], pb_last_error());
        int same = 1, multi = 0;
        for (size_t i = 0; i < a.n; i++) {
            int used = 0;
            for (int j = 0; j < 4; j++) {
                same &= a.idx[j][i] == b.idx[j][i] && a.w[j][i] == b.w[j][i];
                used += a.w[j][i] > 0;
                if (j) CHECK(a.w[j][i] <= a.w[j - 1][i], "n=%zu vertex %zu: weights not heaviest first", a.n, i);
            }
            for (int c = 0; c < 3; c++) same &= a.pos[c][i] == b.pos[c][i] && a.nrm[c][i] == b.nrm[c][i];
            multi += used >= 2;
        }
        CHECK(same, "n=%zu: two generations differ", sizes[s]);
        if (a.n >= 1000) CHECK(multi > 0 && (size_t)multi < a.n, "n=%zu: %d vertices with 2+ influences", a.n, multi);
        pb_mesh_free(&a);
        pb_mesh_free(&b);
    }
}

/* One bad call: the expected status, the message naming `needle` (or NULL),
 * the output untouched. */
static void expect_bad(pb_skin_method method, const pb_skin_call *call, pb_status want, const char *needle,
                       const char *what)
{
    /* the output is watched when the call must fail and it is not over an input */
    pb_skinned *o = want != PB_OK && want != PB_ERR_ALIAS && call && call->out ? call->out : NULL;
    if (o) fill(o, SENTINEL);
    pb_skin_job *job = (pb_skin_job *)&job;   /* must come back NULL */
    pb_status s = pb_skin_job_create(&job, method, NULL, call);
    CHECK(s == want, "%s: got %s (%s), want %s", what, pb_status_name(s), pb_last_error(), pb_status_name(want));
    if (s == PB_OK) pb_skin_job_free(job);
    else CHECK(job == NULL, "%s: job not NULL on error", what);
    if (needle) CHECK(strstr(pb_last_error(), needle) != NULL, "%s: message '%s' lacks '%s'", what, pb_last_error(), needle);
    if (o) CHECK(untouched(o), "%s: output written", what);
    if (call && call->characters <= 1 && s == want && (method == PB_SKIN_LBS || method == PB_SKIN_DQS)) {
        /* the one-shot calls check the same */
        if (o) fill(o, SENTINEL);
        pb_status s1 = method == PB_SKIN_LBS ? pb_skin_lbs(call->mesh, call->palette, call->out)
                                             : pb_skin_dqs(call->mesh, call->palette, call->out);
        CHECK(s1 == want, "%s (one-shot): got %s", what, pb_status_name(s1));
        if (o) CHECK(untouched(o), "%s (one-shot): output written", what);
    }
}

static void test_bad_input(void)
{
    pb_skin_case c;
    CHECK(pb_skin_case_random(&c, 40, 5, 3) == PB_OK, "%s", pb_last_error());
    pb_mesh *m = &c.mesh;
    pb_skinned o, small;
    pb_skinned_alloc(&o, 40);
    pb_skinned_alloc(&small, 39);
    for (int method = 0; method < 2; method++) {
        pb_skin_method me = (pb_skin_method)method;
        pb_palette *pal = me == PB_SKIN_LBS ? &c.mat : &c.dq;
        pb_skin_call good = { m, pal, 1, 0, &o, 0 }, k;
        expect_bad(me, &good, PB_OK, NULL, "good call");
        expect_bad(me, NULL, PB_ERR_NULL, "call", "call NULL");
        k = good; k.mesh = NULL; expect_bad(me, &k, PB_ERR_NULL, "mesh", "mesh NULL");
        k = good; k.palette = NULL; expect_bad(me, &k, PB_ERR_NULL, "palette", "palette NULL");
        pb_palette p2 = *pal; p2.data = NULL;
        k = good; k.palette = &p2; expect_bad(me, &k, PB_ERR_NULL, "palette.data", "palette.data NULL");
        p2 = *pal; p2.n = 0;
        k = good; k.palette = &p2; expect_bad(me, &k, PB_ERR_EMPTY, "palette.n", "palette empty");
        k = good; k.out = NULL; expect_bad(me, &k, PB_ERR_NULL, "out", "out NULL");
        pb_skinned o2 = o; o2.nrm[1] = NULL;
        k = good; k.out = &o2; expect_bad(me, &k, PB_ERR_NULL, "out.nrm[1]", "out plane NULL");
        k = good; k.out = &small; expect_bad(me, &k, PB_ERR_SIZE, "out.n", "out size");
        k = good; k.characters = 2; k.character = 2; expect_bad(me, &k, PB_ERR_PARAM, "character", "character");
        k = good; k.characters = 2; expect_bad(me, &k, PB_ERR_SIZE, "multiple", "palette not a multiple");
        expect_bad((pb_skin_method)7, &good, PB_ERR_PARAM, "method", "method");

        pb_mesh saved = *m;
        m->pos[2] = NULL; expect_bad(me, &good, PB_ERR_NULL, "mesh.pos[2]", "mesh plane NULL"); *m = saved;
        m->w[3] = NULL; expect_bad(me, &good, PB_ERR_NULL, "mesh.w[3]", "mesh weight plane NULL"); *m = saved;
        m->n = 0; expect_bad(me, &good, PB_ERR_EMPTY, "n = 0", "mesh empty"); *m = saved;
        m->n = PB_MESH_MAX_VERTICES + 1;
        expect_bad(me, &good, PB_ERR_SIZE, "limit", "mesh over the limit"); *m = saved;
        m->influences = 5; expect_bad(me, &good, PB_ERR_PARAM, "influences", "influences 5"); *m = saved;
        m->influences = 0; expect_bad(me, &good, PB_ERR_PARAM, "influences", "influences 0"); *m = saved;

        uint32_t ix = m->idx[2][17];
        m->idx[2][17] = 5; expect_bad(me, &good, PB_ERR_PARAM, "vertex 17", "index out of range");
        m->idx[2][17] = ix;
        float w = m->w[0][5], p = m->pos[1][9], nr = m->nrm[0][33], w3 = m->w[3][21];
        m->w[0][5] = w + 0.01f; expect_bad(me, &good, PB_ERR_PARAM, "vertex 5", "weights sum to 1.01");
        m->w[0][5] = w + 0.5f * PB_SKIN_WEIGHT_TOL; expect_bad(me, &good, PB_OK, NULL, "weights within the tolerance");
        m->w[0][5] = NAN; expect_bad(me, &good, PB_ERR_PARAM, "vertex 5", "weight NaN");
        m->w[0][5] = w;
        m->w[3][21] = -w3 - 0.1f; m->w[0][21] += 2 * w3 + 0.1f;   /* sums to 1, one weight negative */
        expect_bad(me, &good, PB_ERR_PARAM, "vertex 21", "negative weight");
        m->w[0][21] -= 2 * w3 + 0.1f; m->w[3][21] = w3;
        m->pos[1][9] = NAN; expect_bad(me, &good, PB_ERR_PARAM, "vertex 9", "position NaN"); m->pos[1][9] = p;
        m->nrm[0][33] = INFINITY; expect_bad(me, &good, PB_ERR_PARAM, "vertex 33", "normal Inf"); m->nrm[0][33] = nr;

        pb_skinned alias = o; alias.pos[0] = m->pos[0];
        k = good; k.out = &alias; expect_bad(me, &k, PB_ERR_ALIAS, "out.pos[0]", "out over a mesh plane");
        alias = o; alias.nrm[2] = o.pos[1];
        k = good; k.out = &alias; expect_bad(me, &k, PB_ERR_ALIAS, "out.pos[1]", "two out planes the same");
        alias = o; alias.nrm[0] = pal->data;
        k = good; k.out = &alias; expect_bad(me, &k, PB_ERR_ALIAS, "palette", "out over the palette");
        expect_bad(me, &good, PB_OK, NULL, "good call after all");
    }
    pb_skinned_free(&o);
    pb_skinned_free(&small);
    pb_skin_case_free(&c);
}

/* A job run twice reads the palette anew; the crowd layout reads entry
 * j x characters + character. */
static void test_jobs(void)
{
    pb_skin_case c, crowd;
    CHECK(pb_skin_case_random(&c, 50, 6, 11) == PB_OK, "%s", pb_last_error());
    CHECK(pb_skin_case_random(&crowd, 50, 18, 12) == PB_OK, "%s", pb_last_error());
    for (int method = 0; method < 2; method++) {
        const size_t width = method ? 8 : 12;
        pb_palette *pal = method ? &c.dq : &c.mat, *cp = method ? &crowd.dq : &crowd.mat;
        for (size_t j = 0; j < 6; j++)   /* character 1 of 3 holds c's palette */
            memcpy(cp->data + (j * 3 + 1) * width, pal->data + j * width, width * sizeof(float));
        pb_skinned a, b;
        pb_skinned_alloc(&a, 50);
        pb_skinned_alloc(&b, 50);
        pb_skin_call ca = { &c.mesh, pal, 1, 0, &a, 0 }, cb = { &c.mesh, cp, 3, 1, &b, 0 };
        pb_skin_job *ja, *jb;
        CHECK(pb_skin_job_create(&ja, (pb_skin_method)method, NULL, &ca) == PB_OK, "%s", pb_last_error());
        CHECK(pb_skin_job_create(&jb, (pb_skin_method)method, NULL, &cb) == PB_OK, "%s", pb_last_error());
        pb_skin_job_run(ja);
        pb_skin_job_run(jb);
        CHECK(memcmp(a.pos[0], b.pos[0], 50 * sizeof(float)) == 0 && memcmp(a.nrm[2], b.nrm[2], 50 * sizeof(float)) == 0,
              "crowd character 1 differs from its own palette");
        float before = a.pos[1][7];
        for (size_t i = 0; i < pal->n * width; i += width) pal->data[i + (method ? 5 : 7)] += 1.0f;   /* move */
        pb_skin_job_run(ja);
        CHECK(a.pos[1][7] != before, "the job did not read the new palette");
        CHECK(pb_skin_job_run(NULL) == PB_ERR_NULL, "run NULL");
        pb_skin_job_free(ja);
        pb_skin_job_free(jb);
        pb_skinned_free(&a);
        pb_skinned_free(&b);
    }
    pb_skin_case_free(&c);
    pb_skin_case_free(&crowd);
}

/* Palettes of at most 32 and 64 joints are read from register tables on
 * AVX-512, larger ones gathered. One mesh over joints below 32, skinned with
 * the same palette data cut to 32, 64 and 100 joints, gives bit-identical
 * output on every variant (the three paths do the same arithmetic); meshes
 * over 31, 33, 64 and 65 joints stay within the oracle bound. */
static void test_palette_sizes(void)
{
    pb_skin_case c;
    CHECK(pb_skin_case_random(&c, 333, 100, 21) == PB_OK, "%s", pb_last_error());
    for (int j = 0; j < c.mesh.influences; j++)
        for (size_t v = 0; v < c.mesh.n; v++) c.mesh.idx[j][v] %= 32;
    const size_t cuts[3] = { 32, 64, 100 };
    for (int method = 0; method < 2; method++)
        for (size_t i = 0; i < nvariants; i++) {
            pb_skinned out[3];
            for (int k = 0; k < 3; k++) {
                pb_palette p = method ? c.dq : c.mat;
                p.n = cuts[k];
                CHECK(pb_skinned_alloc(&out[k], c.mesh.n) == PB_OK, "%s", pb_last_error());
                pb_skin_call call = { &c.mesh, &p, 1, 0, &out[k], 0 };
                pb_skin_job *job = NULL;
                CHECK(pb_skin_job_create(&job, (pb_skin_method)method, variants[i], &call) == PB_OK, "%s",
                      pb_last_error());
                CHECK(pb_skin_job_run(job) == PB_OK, "%s", pb_last_error());
                pb_skin_job_free(job);
            }
            for (int k = 1; k < 3; k++)
                for (int a = 0; a < 3; a++)
                    CHECK(!memcmp(out[0].pos[a], out[k].pos[a], c.mesh.n * sizeof(float)) &&
                          !memcmp(out[0].nrm[a], out[k].nrm[a], c.mesh.n * sizeof(float)),
                          "%s %s: a palette of 32 joints and of %zu differ (plane %d)",
                          pb_skin_tolerance[method].op, pb_variant_name(variants[i]), cuts[k], a);
            for (int k = 0; k < 3; k++) pb_skinned_free(&out[k]);
        }
    pb_skin_case_free(&c);
    const size_t joints[4] = { 31, 33, 64, 65 };
    for (int g = 0; g < 4; g++) {
        CHECK(pb_skin_case_random(&c, 101, joints[g], 30 + g) == PB_OK, "%s", pb_last_error());
        for (int method = 0; method < 2; method++) {
            const pb_skin_tol *t = &pb_skin_tolerance[method];
            for (size_t i = 0; i < nvariants; i++) {
                pb_skin_err e = { -1, -1 };
                CHECK(pb_skin_error(variants[i], (pb_skin_method)method, &c, &e) == PB_OK, "%s", pb_last_error());
                CHECK(e.pos <= 2 * t->pos_floor && e.nrm <= 2 * t->nrm_floor, "%s %s, %zu joints: pos %g nrm %g",
                      t->op, pb_variant_name(variants[i]), joints[g], e.pos, e.nrm);
            }
        }
        pb_skin_case_free(&c);
    }
}

/* A job broadcasts the entries of steps that lie in one or two runs of
 * vertices with the same joints (pb_skin_spans). A mesh of runs half of
 * them 1..12 vertices long, half 100..299 (each run's joints the previous
 * run's with one or two changed, so some influences keep their joint across
 * a boundary) and the same vertices shuffled (no runs kept) skin to the same
 * output bit for bit on every variant, over 20, 50 and 100 joints (table
 * and gather paths), both methods, tails included (n = 4099). */
static void test_spans(void)
{
    const size_t n = 4099, joints[3] = { 20, 50, 100 };
    for (int g = 0; g < 3; g++) {
        pb_skin_case c, sh;
        CHECK(pb_skin_case_random(&c, n, joints[g], 50 + g) == PB_OK, "%s", pb_last_error());
        CHECK(pb_skin_case_random(&sh, n, joints[g], 50 + g) == PB_OK, "%s", pb_last_error());
        uint64_t r = 77 + g;
        uint32_t tuple[4] = { 0, 1, 2, 3 };
        for (size_t v = 0, left = 0; v < n; v++, left--) {
            if (!left) {
                left = pb_rng_next(&r) % 2 ? 1 + pb_rng_next(&r) % 12 : 100 + pb_rng_next(&r) % 200;
                for (int k = 0, changes = 1 + (int)(pb_rng_next(&r) % 2); k < changes; k++)
                    tuple[pb_rng_next(&r) % 4] = (uint32_t)(pb_rng_next(&r) % joints[g]);
            }
            for (int j = 0; j < 4; j++) c.mesh.idx[j][v] = tuple[j];
        }
        size_t *perm = malloc(n * sizeof *perm);
        CHECK(perm != NULL, "out of memory");
        if (!perm) return;
        for (size_t v = 0; v < n; v++) perm[v] = v;
        for (size_t v = n - 1; v > 0; v--) {
            size_t u = pb_rng_next(&r) % (v + 1), t = perm[v];
            perm[v] = perm[u]; perm[u] = t;
        }
        for (size_t v = 0; v < n; v++)   /* sh's vertex perm[v] is c's vertex v */
            for (int c3 = 0; c3 < 3; c3++) {
                sh.mesh.pos[c3][perm[v]] = c.mesh.pos[c3][v];
                sh.mesh.nrm[c3][perm[v]] = c.mesh.nrm[c3][v];
                if (c3 == 0)
                    for (int j = 0; j < 4; j++) {
                        sh.mesh.idx[j][perm[v]] = c.mesh.idx[j][v];
                        sh.mesh.w[j][perm[v]] = c.mesh.w[j][v];
                    }
            }
        uint32_t *span = NULL, *none = NULL;
        size_t nspan = 0, nnone = 0;
        CHECK(pb_skin_spans(&c.mesh, PB_SKIN_SPAN_STEPS * 16, &span, &nspan) == PB_OK && span && nspan > 20,
              "the runs' mesh has %zu spans kept", nspan);
        CHECK(pb_skin_spans(&sh.mesh, 2, &none, &nnone) == PB_OK && !none, "the shuffled mesh has spans kept");
        free(span);
        free(none);
        for (int method = 0; method < 2; method++)
            for (size_t i = 0; i < nvariants; i++) {
                pb_skinned a, b;
                CHECK(pb_skinned_alloc(&a, n) == PB_OK && pb_skinned_alloc(&b, n) == PB_OK, "%s", pb_last_error());
                pb_skin_call ca = { &c.mesh, method ? &c.dq : &c.mat, 1, 0, &a, 0 };
                pb_skin_call cb = { &sh.mesh, method ? &c.dq : &c.mat, 1, 0, &b, 0 };
                pb_skin_job *ja = NULL, *jb = NULL;
                CHECK(pb_skin_job_create(&ja, (pb_skin_method)method, variants[i], &ca) == PB_OK &&
                      pb_skin_job_create(&jb, (pb_skin_method)method, variants[i], &cb) == PB_OK, "%s", pb_last_error());
                CHECK(pb_skin_job_run(ja) == PB_OK && pb_skin_job_run(jb) == PB_OK, "%s", pb_last_error());
                size_t bad = n;
                for (size_t v = 0; v < n && bad == n; v++)
                    for (int c3 = 0; c3 < 3; c3++)
                        if (memcmp(&a.pos[c3][v], &b.pos[c3][perm[v]], sizeof(float)) ||
                            memcmp(&a.nrm[c3][v], &b.nrm[c3][perm[v]], sizeof(float)))
                            bad = v;
                CHECK(bad == n, "%s %s, %zu joints: vertex %zu differs from its shuffled copy",
                      pb_skin_tolerance[method].op, pb_variant_name(variants[i]), joints[g], bad);
                pb_skin_job_free(ja);
                pb_skin_job_free(jb);
                pb_skinned_free(&a);
                pb_skinned_free(&b);
            }
        free(perm);
        pb_skin_case_free(&c);
        pb_skin_case_free(&sh);
    }
}

int main(void)
{
    for (size_t i = 0; i < pb_all_variant_count() && nvariants < 16; i++)
        if (pb_variant_check(pb_all_variant_at(i)) == PB_OK) variants[nvariants++] = pb_all_variant_at(i);
    test_oracle();
    test_rigid();
    test_volume();
    test_synthetic();
    test_bad_input();
    test_jobs();
    test_palette_sizes();
    test_spans();
    return check_done();
}
