/* test_skin_pos.c — positions-only skinning (PB_SKIN_POSITIONS_ONLY,
 * posebench/skin.h), on every variant (emulated ones too), LBS and DQS, on
 * a random mesh (gathered palettes, tails at every lane width) and a mesh
 * along the bones (its runs of shared joints, so the span kernels): the
 * positions are those of the full call bit for bit, the normals neither read
 * (NULL mesh planes; NaN normals accepted) nor written (output normals left
 * as they were, and output normal planes over the inputs leave the inputs
 * alone). Without the flag a NULL normal plane is still PB_ERR_NULL; an
 * unknown flag is PB_ERR_PARAM. The oracle comparison is validate's
 * (skin_check.c, test_skin). */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "skin_check.h"
#include "all_variants.h"

#define SENTINEL 12345.0f

static const pb_variant *variants[16];
static size_t nvariants;

static pb_status run_job(const pb_variant *v, pb_skin_method method, const pb_skin_call *call)
{
    pb_skin_job *job = NULL;
    pb_status s = pb_skin_job_create(&job, method, v, call);
    if (s != PB_OK) return s;
    s = pb_skin_job_run(job);
    pb_skin_job_free(job);
    return s;
}

/* Full and positions-only runs of case c agree on the positions bit for bit. */
static void same_positions(pb_skin_case *c, const char *what)
{
    const size_t n = c->mesh.n;
    pb_mesh bare = c->mesh;   /* the mesh without its normals */
    bare.nrm[0] = bare.nrm[1] = bare.nrm[2] = NULL;
    for (int method = 0; method < 2; method++) {
        const pb_skin_method me = (pb_skin_method)method;
        const pb_palette *pal = me == PB_SKIN_LBS ? &c->mat : &c->dq;
        for (size_t i = 0; i < nvariants; i++) {
            const char *vn = pb_variant_name(variants[i]);
            pb_skinned full, pos;
            CHECK(pb_skinned_alloc(&full, n) == PB_OK && pb_skinned_alloc(&pos, n) == PB_OK, "%s", pb_last_error());
            for (int p = 0; p < 3; p++)
                for (size_t k = 0; k < n; k++) pos.nrm[p][k] = SENTINEL;
            pb_skin_call cf = { &c->mesh, pal, 1, 0, &full, 0 };
            pb_skin_call cp = { &bare, pal, 1, 0, &pos, PB_SKIN_POSITIONS_ONLY };
            pb_status sf = run_job(variants[i], me, &cf), sp = run_job(variants[i], me, &cp);
            CHECK(sf == PB_OK && sp == PB_OK, "%s %s %s: full %s, positions only %s (%s)", what, vn,
                  me == PB_SKIN_LBS ? "lbs" : "dqs", pb_status_name(sf), pb_status_name(sp), pb_last_error());
            int same = 1, kept = 1, moved = 0;
            for (int p = 0; p < 3; p++) {
                same &= memcmp(full.pos[p], pos.pos[p], n * sizeof(float)) == 0;
                for (size_t k = 0; k < n; k++) {
                    kept &= pos.nrm[p][k] == SENTINEL;
                    moved |= pos.pos[p][k] != c->mesh.pos[p][k];
                }
            }
            CHECK(same, "%s %s %s: positions differ from the full call's", what, vn, me == PB_SKIN_LBS ? "lbs" : "dqs");
            CHECK(kept, "%s %s %s: an output normal was written", what, vn, me == PB_SKIN_LBS ? "lbs" : "dqs");
            CHECK(moved, "%s %s %s: no position moved (the kernel did not run)", what, vn,
                  me == PB_SKIN_LBS ? "lbs" : "dqs");
            pb_skinned_free(&full);
            pb_skinned_free(&pos);
        }
    }
}

static void test_same_positions(void)
{
    const size_t sizes[] = { 1, 7, 15, 17, 37, 1003 };
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        pb_skin_case c;
        CHECK(pb_skin_case_random(&c, sizes[si], 9, 70 + si) == PB_OK, "%s", pb_last_error());
        same_positions(&c, "random");
        pb_skin_case_free(&c);
    }
    pb_skin_case b;   /* runs of ~80 vertices: every variant's job keeps its spans */
    CHECK(pb_skin_case_bones(&b, 5003, 64, 9) == PB_OK, "%s", pb_last_error());
    same_positions(&b, "bones");
    pb_skin_case_free(&b);
}

static void expect(pb_skin_method me, const pb_skin_call *call, pb_status want, const char *needle, const char *what)
{
    pb_skin_job *job = (pb_skin_job *)&job;   /* must come back NULL on error */
    pb_status s = pb_skin_job_create(&job, me, NULL, call);
    CHECK(s == want, "%s: got %s (%s), want %s", what, pb_status_name(s), pb_last_error(), pb_status_name(want));
    if (s == PB_OK) pb_skin_job_free(job);
    else CHECK(job == NULL, "%s: job not NULL on error", what);
    if (needle && s != PB_OK)
        CHECK(strstr(pb_last_error(), needle) != NULL, "%s: message '%s' lacks '%s'", what, pb_last_error(), needle);
}

static void test_arguments(void)
{
    pb_skin_case c;
    CHECK(pb_skin_case_random(&c, 40, 5, 3) == PB_OK, "%s", pb_last_error());
    pb_skinned o;
    CHECK(pb_skinned_alloc(&o, 40) == PB_OK, "%s", pb_last_error());
    for (int method = 0; method < 2; method++) {
        const pb_skin_method me = (pb_skin_method)method;
        pb_palette *pal = me == PB_SKIN_LBS ? &c.mat : &c.dq;
        pb_mesh m = c.mesh;
        pb_skinned on = o;
        pb_skin_call full = { &m, pal, 1, 0, &on, 0 }, pos = full;
        pos.flags = PB_SKIN_POSITIONS_ONLY;
        m.nrm[1] = NULL;
        expect(me, &full, PB_ERR_NULL, "mesh.nrm[1]", "no flag, mesh normal plane NULL");
        expect(me, &pos, PB_OK, NULL, "positions only, mesh normal plane NULL");
        m = c.mesh;
        on.nrm[2] = NULL;
        expect(me, &full, PB_ERR_NULL, "out.nrm[2]", "no flag, out normal plane NULL");
        expect(me, &pos, PB_OK, NULL, "positions only, out normal plane NULL");
        on = o;
        on.pos[0] = NULL;
        expect(me, &pos, PB_ERR_NULL, "out.pos[0]", "positions only, out position plane NULL");
        on = o;
        m.pos[1] = NULL;
        expect(me, &pos, PB_ERR_NULL, "mesh.pos[1]", "positions only, mesh position plane NULL");
        m = c.mesh;
        pb_skin_call bad = full;
        bad.flags = 2;
        expect(me, &bad, PB_ERR_PARAM, "flags", "unknown flag");
        bad.flags = PB_SKIN_POSITIONS_ONLY | 0x80u;
        expect(me, &bad, PB_ERR_PARAM, "flags", "positions only and an unknown flag");

        /* normals not read: a NaN normal is refused only when normals are skinned */
        const float nr = c.mesh.nrm[0][13];
        c.mesh.nrm[0][13] = NAN;
        expect(me, &full, PB_ERR_PARAM, "vertex 13", "no flag, NaN normal");
        expect(me, &pos, PB_OK, NULL, "positions only, NaN normal");
        c.mesh.nrm[0][13] = nr;

        /* normals not written: output normal planes over the mesh's own planes leave them alone */
        float *keep = malloc(40 * sizeof(float));
        CHECK(keep != NULL, "out of memory");
        memcpy(keep, c.mesh.w[1], 40 * sizeof(float));
        on.nrm[0] = c.mesh.w[1];
        on.nrm[1] = c.mesh.pos[2];
        on.nrm[2] = pal->data;
        expect(me, &full, PB_ERR_ALIAS, NULL, "no flag, out normals over the inputs");
        pb_status s = run_job(NULL, me, &pos);
        CHECK(s == PB_OK, "positions only, out normals over the inputs: %s (%s)", pb_status_name(s), pb_last_error());
        CHECK(memcmp(keep, c.mesh.w[1], 40 * sizeof(float)) == 0, "positions only: a normal written over the weights");
        free(keep);
        on = o;
        /* positions still checked for overlap */
        on.pos[2] = c.mesh.pos[0];
        expect(me, &pos, PB_ERR_ALIAS, "out.pos[2]", "positions only, out position over a mesh plane");
        on = o;
    }
    pb_skinned_free(&o);
    pb_skin_case_free(&c);
}

int main(void)
{
    for (size_t i = 0; i < pb_all_variant_count() && nvariants < 16; i++)
        if (pb_variant_check(pb_all_variant_at(i)) == PB_OK) variants[nvariants++] = pb_all_variant_at(i);
    test_same_positions();
    test_arguments();
    return check_done();
}
