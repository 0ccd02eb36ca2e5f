/* model.c — the character of `posebench bench --model FILE` (posebench/asset.h),
 * shared by the skinning rows (skin_bench.c) and the palette rows
 * (palette_bench.c): the imported asset and the global transforms of its rest
 * pose (FK), from which both build what they time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

int bench_model_load(const char *path, bench_model *m)
{
    memset(m, 0, sizeof *m);
    pb_skeleton sk = { 0 };
    pb_status s = pb_asset_load(path, NULL, &m->asset);
    if (s == PB_OK) s = pb_skeleton_init(&sk, m->asset.parents, m->asset.joints, 1);
    if (s == PB_OK) s = pb_pose_alloc_static(&m->global, m->asset.joints);
    if (s == PB_OK) s = pb_fk_static(&sk, &m->asset.rest, &m->global);
    pb_skeleton_free(&sk);
    if (s == PB_OK) return 0;
    fprintf(stderr, "posebench bench: --model: %s\n", pb_last_error());
    bench_model_free(m);
    return -1;
}

void bench_model_free(bench_model *m)
{
    pb_asset_free(&m->asset);
    pb_pose_free(&m->global);
    memset(m, 0, sizeof *m);
}
