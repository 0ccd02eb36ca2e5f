/* frame_crowd.c — embedding posebench's frame in a game loop: a crowd of
 * characters, each at its own point of two clips, dead-blending from one to
 * the other, with an additive layer, two-leg IK and FK with velocities every
 * frame. Uses only the installed public API (posebench/posebench.h).
 *
 *   frame_crowd [CHARACTERS [FRAMES [JOINTS]]]   (default 256 characters, 120 frames, 64 joints)
 *
 * Prints where one character's foot ends up and the mean time per frame
 * (wall clock: an illustration, not a benchmark; `posebench frame` measures). */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <posebench/posebench.h>

static int fail(const char *what)
{
    fprintf(stderr, "frame_crowd: %s: %s\n", what, pb_last_error());
    return 1;
}

static long arg(int argc, char **argv, int i, long def, long lo, long hi)
{
    if (argc <= i) return def;
    char *end;
    long v = strtol(argv[i], &end, 10);
    if (*end || v < lo || v > hi) {
        fprintf(stderr, "frame_crowd: argument %d: expected an integer in %ld..%ld, got '%s'\n", i, lo, hi, argv[i]);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    size_t characters = (size_t)arg(argc, argv, 1, 256, 1, 4096);
    int frames = (int)arg(argc, argv, 2, 120, 1, 100000);
    size_t joints = (size_t)arg(argc, argv, 3, 64, 4, 1024);

    const pb_variant *v = NULL;   /* the best variant this CPU runs (POSEBENCH_VARIANT forces one) */
    if (pb_variant_active(&v) != PB_OK) return fail("variant");

    /* 1. What to play: a skeleton and two clips (pb_scene_bvh_files for mocap). */
    pb_scene scene;
    if (pb_scene_synthetic(&scene, joints, 42) != PB_OK) return fail("scene");
    printf("scene %s: %zu joints; IK legs: %s\n", scene.name, scene.joints, scene.leg_desc);

    /* 2. Everything a frame needs, allocated once: sampling with cubic
     *    interpolation, characters spread over the clips. */
    pb_frame_crowd crowd;
    if (pb_frame_crowd_init(&crowd, &scene, characters, PB_OP_sample_cubic) != PB_OK) {
        pb_scene_free(&scene);
        return fail("crowd");
    }

    /* 3. The transition starts: dead blending keeps the source's pose and
     *    velocities at this instant and extrapolates them while fading. */
    pb_frame_method m = PB_FM_DEAD;
    pb_status st = pb_frame_sample(&crowd, v, 0, 0.0f);
    if (st == PB_OK) st = pb_frame_sample(&crowd, v, 1, 0.0f);
    if (st == PB_OK) st = pb_frame_begin(&crowd, v, m);

    /* 4. The game loop: one call per frame runs sample -> transition ->
     *    additive -> leg FK -> IK -> FK for every character. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int k = 0; st == PB_OK && k < frames; k++) st = pb_frame_step(&crowd, v, m, k);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (st != PB_OK) {
        fprintf(stderr, "frame_crowd: %s: %s\n", crowd.failed ? crowd.failed : "frame", pb_last_error());
        pb_frame_crowd_free(&crowd);
        pb_scene_free(&scene);
        return 1;
    }

    /* 5. Read the result: globals in the crowd layout, element = joint x C + character. */
    if (scene.leg[0][0] >= 0) {
        size_t foot = (size_t)scene.leg[0][2] * characters + 0;
        printf("character 0, joint %d (the first IK leg's end) at (%.3f, %.3f, %.3f) m, moving at (%.3f, %.3f, %.3f) m/s\n",
               scene.leg[0][2], crowd.global.plane[PB_POS_X][foot], crowd.global.plane[PB_POS_Y][foot],
               crowd.global.plane[PB_POS_Z][foot], crowd.global.plane[PB_VEL_X][foot],
               crowd.global.plane[PB_VEL_Y][foot], crowd.global.plane[PB_VEL_Z][foot]);
    }
    double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / 1e3 / frames;
    printf("%s, %s: %zu characters x %zu joints, %d frames, %.1f us per frame (wall clock)\n",
           pb_frame_method_get(m)->method, pb_variant_name(v), characters, scene.joints, frames, us);
    pb_frame_crowd_free(&crowd);
    pb_scene_free(&scene);
    return 0;
}
