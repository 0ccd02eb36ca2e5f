/* test_asset_scene.c — pb_scene_asset (posebench/asset.h): an imported
 * character as a frame scene. On the packaged X character (BCN_Epileptic.X):
 * the scene holds the model's skeleton, clips, mesh and inverse binds; a
 * crowd's palette uses the file's inverse binds, not the ones made from the
 * first key; a whole frame skins the file's mesh, checked against linear
 * blend skinning computed here in double from the frame's globals and the
 * file's inverse bind matrices (inv_bind, row-major 4x4: not the kineforms
 * the library reads); the rest pose skins every vertex to where the file puts
 * it (the palette at the bind pose is the identity). Bad arguments refused.
 * usage: test_asset_scene [MODELS_DIR] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "posebench/posebench.h"
#include "check.h"

/* the 4x4 (row-major) of kineform element e of p: T R S */
static void kine_matrix(const pb_pose *p, size_t e, double m[16])
{
    double w = p->plane[PB_ROT_W][e], x = p->plane[PB_ROT_X][e], y = p->plane[PB_ROT_Y][e], z = p->plane[PB_ROT_Z][e];
    double l = sqrt(w * w + x * x + y * y + z * z);
    w /= l, x /= l, y /= l, z /= l;
    double r[3][3] = { { 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y) },
                       { 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x) },
                       { 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y) } };
    memset(m, 0, 16 * sizeof *m);
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) m[4 * i + k] = r[i][k] * p->plane[PB_SCL_X + k][e];
        m[4 * i + 3] = p->plane[PB_POS_X + i][e];
    }
    m[15] = 1;
}

/* positions of vertex v skinned in double by the globals g (element j) and inv_bind (row-major 4x4) */
static void lbs_double(const pb_mesh *mesh, size_t v, const pb_pose *g, const float (*inv_bind)[16], double out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (int i = 0; i < mesh->influences; i++) {
        size_t j = mesh->idx[i][v];
        double G[16], M[16] = { 0 };
        kine_matrix(g, j, G);
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                for (int k = 0; k < 4; k++) M[4 * r + c] += G[4 * r + k] * inv_bind[j][4 * k + c];
        double p[3] = { mesh->pos[0][v], mesh->pos[1][v], mesh->pos[2][v] };
        for (int r = 0; r < 3; r++)
            out[r] += mesh->w[i][v] * (M[4 * r] * p[0] + M[4 * r + 1] * p[1] + M[4 * r + 2] * p[2] + M[4 * r + 3]);
    }
}

static double mesh_extent(const pb_mesh *m)
{
    double e = 0;
    for (int k = 0; k < 3; k++)
        for (size_t v = 0; v < m->n; v++) e = dmax(e, fabs(m->pos[k][v]));
    return e;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/usr/share/assimp/models";
    char path[1024];
    snprintf(path, sizeof path, "%s/X/BCN_Epileptic.X", dir);
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        printf("skipped: %s not found (Debian package assimp-testmodels)\n", path);
        return 0;
    }
    fclose(probe);
    pb_asset a;
    pb_status st = pb_asset_load(path, NULL, &a);
    CHECK(st == PB_OK, "import %s: %s", path, pb_last_error());
    if (st != PB_OK) return check_done();
    const pb_variant *scalar = NULL;
    CHECK(pb_variant_find("scalar", &scalar) == PB_OK, "scalar variant");

    /* bad arguments: refused, the scene zeroed */
    pb_scene s;
    memset(&s, 0xab, sizeof s);
    CHECK(pb_scene_asset(&s, NULL, NULL, NULL) == PB_ERR_NULL && s.joints == 0, "NULL asset");
    CHECK(pb_scene_asset(NULL, &a, NULL, NULL) == PB_ERR_NULL, "NULL scene");
    memset(&s, 0xab, sizeof s);
    st = pb_scene_asset(&s, &a, "no such clip", NULL);
    CHECK(st == PB_ERR_PARAM && strstr(pb_last_error(), "no such clip") && strstr(pb_last_error(), a.clip[0].name) &&
              s.joints == 0 && s.parents == NULL,
          "unknown clip name: %s, '%s'", pb_status_name(st), pb_last_error());
    pb_asset empty;
    memset(&empty, 0, sizeof empty);
    CHECK(pb_scene_asset(&s, &empty, NULL, NULL) == PB_ERR_PARAM, "empty asset: %s", pb_last_error());

    st = pb_scene_asset(&s, &a, NULL, NULL);
    CHECK(st == PB_OK, "scene: %s", pb_last_error());
    if (st != PB_OK) { pb_asset_free(&a); return check_done(); }
    CHECK(s.joints == a.joints && s.mesh.n == a.mesh.n && s.inv_bind.n == a.joints, "counts: %zu/%zu joints, %zu/%zu vertices",
          s.joints, a.joints, s.mesh.n, a.mesh.n);
    CHECK(!memcmp(s.parents, a.parents, a.joints * sizeof *a.parents), "parents copied");
    CHECK(s.clip[0].frames == a.clip[0].clip.frames &&
              !memcmp(s.clip[0].pose.plane[PB_ROT_X], a.clip[0].clip.pose.plane[PB_ROT_X], a.clip[0].clip.pose.n * sizeof(float)),
          "clip 0 copied");
    CHECK(!strcmp(s.clip_name[0], a.clip[0].name), "clip name '%s' vs '%s'", s.clip_name[0], a.clip[0].name);

    /* the rest pose through the library's palette and skinning: the mesh as the file gives it */
    {
        pb_skeleton sk = { 0 };
        pb_pose g = { 0 };
        pb_palette pal = { malloc(a.joints * PB_PALETTE_MAT_FLOATS * sizeof(float)), a.joints };
        pb_skinned out = { 0 };
        st = pb_skeleton_init(&sk, a.parents, a.joints, 1);
        if (st == PB_OK) st = pb_pose_alloc_static(&g, a.joints);
        if (st == PB_OK) st = pb_fk_static(&sk, &a.rest, &g);
        if (st == PB_OK) st = pb_matrix_palette(&g, &s.inv_bind, &pal);
        if (st == PB_OK) st = pb_skinned_alloc(&out, s.mesh.n);
        if (st == PB_OK) st = pb_skin_lbs(&s.mesh, &pal, &out);
        CHECK(st == PB_OK, "rest-pose skinning: %s", pb_last_error());
        double worst = 0, ext = mesh_extent(&s.mesh);
        for (size_t v = 0; st == PB_OK && v < s.mesh.n; v++)
            for (int k = 0; k < 3; k++) worst = dmax(worst, fabs(out.pos[k][v] - s.mesh.pos[k][v]));
        CHECK(a.skewed_binds == 0 && worst <= 1e-5 * ext, "rest pose skins to the mesh: worst %.3g (extent %.3g, %zu skewed)",
              worst, ext, a.skewed_binds);
        printf("rest pose: worst vertex %.3g of extent %.3g\n", worst, ext);
        pb_skinned_free(&out);
        free(pal.data);
        pb_pose_free(&g);
        pb_skeleton_free(&sk);
    }

    /* a crowd of 3 through a whole frame: the file's inverse binds in its palette, its mesh skinned */
    pb_frame_crowd c;
    st = pb_frame_crowd_init(&c, &s, 3, PB_OP_sample_linear);
    CHECK(st == PB_OK, "crowd: %s", pb_last_error());
    if (st == PB_OK) {
        int same = 1;
        for (int q = 0; q < PB_STATIC_PLANES; q++)
            same &= !memcmp(c.inv_bind.plane[q], a.inv_bind_pose.plane[q], a.joints * sizeof(float));
        CHECK(same, "the crowd's inverse binds are the file's");
        st = pb_frame_begin(&c, scalar, PB_FM_CROSSFADE);
        if (st == PB_OK) st = pb_frame_step(&c, scalar, PB_FM_CROSSFADE, 1);
        CHECK(st == PB_OK, "frame: %s (%s)", pb_last_error(), c.failed ? c.failed : "-");
        double worst = 0, ext = mesh_extent(&s.mesh);
        for (size_t k = 0; st == PB_OK && k < c.characters; k++) {
            /* character k's globals, out of the crowd layout */
            pb_pose gk = { 0 };
            if (pb_pose_alloc_static(&gk, a.joints) != PB_OK) { CHECK(0, "out of memory"); break; }
            for (size_t j = 0; j < a.joints; j++)
                for (int q = 0; q < PB_STATIC_PLANES; q++)
                    gk.plane[q][j] = c.global.plane[q][pb_crowd_index(j, k, c.characters)];
            for (size_t v = 0; v < s.mesh.n; v++) {
                double p[3];
                lbs_double(&s.mesh, v, &gk, (const float (*)[16])a.inv_bind, p);
                for (int q = 0; q < 3; q++) worst = dmax(worst, fabs(c.skin[k].pos[q][v] - p[q]));
            }
            pb_pose_free(&gk);
        }
        CHECK(st == PB_OK && worst <= 1e-5 * ext, "skinned vs LBS in double from the file's matrices: worst %.3g (extent %.3g)",
              worst, ext);
        printf("frame: 3 characters x %zu vertices, worst %.3g of extent %.3g\n", s.mesh.n, worst, ext);
        pb_frame_crowd_free(&c);
    }
    pb_scene_free(&s);
    CHECK(s.joints == 0 && s.inv_bind.n == 0, "scene freed");
    pb_asset_free(&a);
    return check_done();
}
