/* cmu_scene.h — the packaged CMU pair (01_01 source, 01_03 destination) as a
 * scene for the tests that also run on real motion: 1 when loaded (a load
 * that fails is a failed check), 0 when the clips are not installed (said on
 * stderr: the test then runs on its synthetic scenes only). */
#ifndef PB_TEST_CMU_SCENE_H
#define PB_TEST_CMU_SCENE_H
#include <stdio.h>
#include <unistd.h>
#include "check.h"
#include "posebench/frame.h"

static inline int cmu_scene(pb_scene *s, const char *test)
{
    char pa[600], pbp[600];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    snprintf(pbp, sizeof pbp, "%s/01_03.bvh", PB_CMU_DIR);
    if (access(pa, R_OK) != 0 || access(pbp, R_OK) != 0) {
        fprintf(stderr, "%s: the CMU clips (%s) are not installed: synthetic scenes only\n", test, PB_CMU_DIR);
        return 0;
    }
    int ok = pb_scene_bvh_files(s, "cmu", pa, pbp, PB_CMU_UNIT_SCALE, NULL, NULL) == PB_OK;
    CHECK(ok, "%s: loading the CMU clips: %s", test, pb_last_error());
    return ok;
}
#endif
