/* fuzz_asset.c — libFuzzer target for the model importer (posebench/asset.h,
 * pb_asset_load_mem) over Assimp.
 *
 * An input is a format's extension, a newline, then the file's bytes:
 * "gltf\n{...}". Only the formats below are taken (other inputs are ignored):
 * with a hint naming one reader Assimp uses that reader alone, so the
 * fuzzer exercises the readers of skinned, animated characters and the
 * importer's own checks behind them, not the fifty other readers Assimp's
 * content sniffing could pick (one of which, OFF, took 15.8 GB on one file).
 * SMD was here until this target found a file its reader loops on forever:
 * the importer now refuses OFF and SMD itself (asset.c: refuse_format), so
 * they are left out. Memory is bounded
 * three ways: the importer's own caps (max_bytes and the joint, vertex and
 * key limits, lowered here), libFuzzer's -max_len, and -rss_limit_mb /
 * -malloc_limit_mb for what Assimp allocates (tools/test.sh passes them).
 *
 * Build and run (clang; cmake/asset.cmake):
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DPB_FUZZ=ON && cmake --build build-fuzz --target fuzz_asset
 *   LSAN_OPTIONS=suppressions=tests/fuzz/asset.lsan build-fuzz/fuzz_asset -max_len=16384 -timeout=20 \
 *     -rss_limit_mb=2048 -malloc_limit_mb=512 -dict=tests/fuzz/asset.dict CORPUS_DIR tests/fuzz/asset_seed
 * (asset.lsan: Assimp's own leaks; -timeout: a hang inside Assimp fails the run, as SMD's did)
 * Besides crashes and sanitizer reports, it aborts when an import breaks the
 * importer's contract: a refusal must be one of the documented codes, leave
 * the output zeroed and name the input ("fuzz.gltf: ..."); an accepted asset
 * must hold parents that precede children, finite unit-rotation rest poses
 * and inverse binds, a mesh that passes pb_mesh_check with each vertex's
 * weights summing to 1, mesh offsets that add up, and clips of the skeleton's
 * joints with finite frames and ascending key times; pb_asset_free zeroes it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "posebench/posebench.h"

static const char *const formats[] = { "gltf", "glb", "x", "bvh", "dae", "fbx", "obj" };

static int all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

static void check_pose(const pb_pose *p, size_t n)
{
    if (p->n != n) abort();
    for (size_t e = 0; e < n; e++) {
        double q = 0;
        for (int k = 0; k < PB_STATIC_PLANES; k++)
            if (!isfinite(p->plane[k][e])) abort();
        for (int k = 0; k < 4; k++) q += (double)p->plane[PB_ROT_W + k][e] * p->plane[PB_ROT_W + k][e];
        if (fabs(q - 1) > 1e-3) abort();
    }
}

static void check_asset(const pb_asset *a, const pb_asset_options *o)
{
    if (a->joints < 1 || a->joints > o->max_joints || a->parents[0] != -1) abort();
    for (size_t j = 1; j < a->joints; j++)
        if (a->parents[j] < -1 || a->parents[j] >= (int32_t)j) abort();
    check_pose(&a->rest, a->joints);
    check_pose(&a->inv_bind_pose, a->joints);
    for (size_t j = 0; j < a->joints; j++)
        for (int k = 0; k < 16; k++)
            if (!isfinite(a->inv_bind[j][k])) abort();
    if (a->mesh.n == 0) {
        if (!o->allow_no_mesh || a->meshes != 0) abort();
    } else {
        if (pb_mesh_check(&a->mesh, a->joints) != PB_OK || a->mesh.n > o->max_vertices) abort();
        if (a->mesh_first[0] != 0 || a->mesh_first[a->meshes] != a->mesh.n) abort();
        for (size_t m = 0; m < a->meshes; m++)
            if (a->mesh_first[m + 1] < a->mesh_first[m]) abort();
        for (size_t v = 0; v < a->mesh.n; v++) {
            double sum = 0;
            for (int k = 0; k < PB_SKIN_MAX_INFLUENCES; k++) {
                if (!(a->mesh.w[k][v] >= 0) || a->mesh.idx[k][v] >= a->joints) abort();
                sum += a->mesh.w[k][v];
            }
            for (int i = 0; i < 3; i++)
                if (!isfinite(a->mesh.pos[i][v]) || !isfinite(a->mesh.nrm[i][v])) abort();
            if (fabs(sum - 1) > 1e-5) abort();
        }
    }
    if (a->reduced_vertices > a->mesh.n || a->unweighted_vertices > a->mesh.n) abort();
    if (!(a->max_dropped_weight >= 0) || (a->reduced_vertices == 0 && a->max_dropped_weight != 0)) abort();
    for (size_t c = 0; c < a->clips; c++) {
        const pb_asset_clip *k = &a->clip[c];
        if (k->clip.joints != a->joints || k->clip.frames < 1 || !(k->clip.fps > 0) || !isfinite(k->duration))
            abort();
        if (k->clip.frames * a->joints > o->max_keys || k->keys > o->max_keys) abort();
        check_pose(&k->clip.pose, k->clip.frames * a->joints);
        for (size_t t = 0; t < k->times; t++)
            if (!isfinite(k->key_times[t]) || (t > 0 && !(k->key_times[t] > k->key_times[t - 1]))) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size < 8 ? size : 8);
    if (!nl) return 0;
    size_t hl = (size_t)(nl - data);
    const char *hint = NULL;
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (strlen(formats[i]) == hl && memcmp(formats[i], data, hl) == 0) hint = formats[i];
    if (!hint) return 0;
    const uint8_t *file = nl + 1;
    size_t n = size - hl - 1;
    char name[16];
    snprintf(name, sizeof name, "fuzz.%s", hint);
    pb_asset_options o = pb_asset_default_options();
    o.max_bytes = 1 << 16;
    o.max_joints = 256;
    o.max_vertices = 1 << 16;
    o.max_keys = 1 << 18;
    o.allow_no_mesh = (int)(size & 1);   /* both ways; deterministic per input */
    o.fps = size & 2 ? 30.0f : 0.0f;     /* resampled, or at the file's own key rate */
    pb_asset a;
    memset(&a, 0xab, sizeof a);
    pb_status s = pb_asset_load_mem(n ? (const void *)file : (const void *)"", n, hint, name, &o, &a);
    if (s != PB_OK) {
        const char *msg = pb_last_error();
        if (s != PB_ERR_PARSE && s != PB_ERR_PARAM && s != PB_ERR_SIZE && s != PB_ERR_NOMEM) abort();
        if (!all_zero(&a, sizeof a) || strncmp(msg, name, strlen(name)) != 0 || msg[strlen(name)] != ':') abort();
        return 0;
    }
    check_asset(&a, &o);
    pb_asset_free(&a);
    if (!all_zero(&a, sizeof a)) abort();
    return 0;
}
