/* frame_mm.h — motion matching as a crowd's pose source (posebench/mm.h's
 * database and search, driving the frame's ops).
 *
 * Every character plays the scene's clips (laid end to end as one clip) from
 * a database frame on. Each frame:
 *   sample       every character's clip at its own time (sample_linear, one
 *                call SIMD across the crowd), with velocities;
 *   inertialize  the output: the sample plus each character's offset decayed
 *                over the window (per-character time since its switch);
 *                or, switching by dead blending, the output at the switch
 *                extrapolated and blended into the sample (dead_blending);
 *                or, by a cut, the sample itself;
 *   search       the characters whose turn it is (character k searches on the
 *                frames where (frame + k) mod interval is 0, so a crowd's
 *                searches spread evenly) query the database at once: the pose
 *                features of the frame each plays (the database's own row,
 *                as in Learned Motion Matching) and a desired trajectory from
 *                its seeded random walk of speed and turn rate;
 *   switch       the characters whose best frame is not the one playing jump
 *                to it: inertialize_offset from this frame's output to the new
 *                frame's sample (over those characters only, gathered), so
 *                the output is continuous (its pose and velocity at the switch
 *                are the source's: the offset starts there and decays);
 *                dead blending keeps their output as the source state instead
 *                (gathered, scattered), a cut nothing;
 *   fk           globals with velocities.
 * Then every clock advances by PB_FRAME_DT. A character whose playing frame
 * has left the database (its clip's last 60 frames) always switches.
 * The random walks and the search depend on the character index only, and
 * the search answers are exact in every variant (bit for bit), so every
 * variant makes the same switches; poses differ by rounding. */
#ifndef POSEBENCH_FRAME_MM_H
#define POSEBENCH_FRAME_MM_H

#include "export.h"
#include "frame.h"
#include "mm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_MM_INTERVAL 6   /* frames between a character's searches (default) */

typedef enum pb_mm_stage { PB_MMS_SAMPLE, PB_MMS_INERTIALIZE, PB_MMS_SEARCH, PB_MMS_SWITCH, PB_MMS_FK, PB_MMS_COUNT } pb_mm_stage;
PB_API const char *pb_mm_stage_name(pb_mm_stage s);   /* "sample" ... "fk"; NULL if out of range */

typedef struct pb_mm_crowd {
    const pb_scene *sc;
    pb_mm_db db;                   /* every frame of the scene's clips with a 60-frame future */
    pb_mm_skeleton mskel;
    pb_clip all;                   /* the scene's clips end to end: what the characters play */
    size_t base[2], rowbase[2];    /* clip k's first frame in all, first row in db */
    size_t characters, n;          /* n = joints x characters */
    pb_skeleton skel;
    int interval;
    pb_mm_method method;
    float duration;                /* the switches' window (s) */
    pb_frame_method switching;     /* how switches blend (pb_mm_crowd_switching): PB_FM_INERTIALIZE (the default),
                                      PB_FM_DEAD or PB_FM_CUT */
    float halflife;                /* dead blending's extrapolation half-life (s) */
    long frame;                    /* frames stepped */
    float *time;                   /* per character: playing time in all (s) */
    float *since;                  /* per character: s since its last switch */
    float *speed, *turn;           /* per character: desired speed (m/s) and turn rate (rad/s), random walks */
    uint64_t *rng;
    size_t *due, ndue;             /* this frame's searchers */
    float *query;                  /* their raw queries */
    uint32_t *best;
    size_t *sw, nsw;               /* this frame's switches: characters ... */
    float *sw_time;                /* ... and their new times */
    pb_pose anim, out, offset, global;   /* offset: inertialization's offsets, or dead blending's source states */
    float *cbuf[3];                /* gathered poses of the switching characters: source, destination, offset */
    size_t searches, switches;     /* since init */
    const char *failed;            /* the op or call that failed last */
} pb_mm_crowd;

/* A crowd of `characters` playing scene sc's two clips (same joints and fps),
 * searching every `interval` frames with `method`, switches inertialized over
 * `duration` s; seed draws the starting frames and the random walks.
 * Errors: PB_ERR_NULL, PB_ERR_EMPTY (characters 0), PB_ERR_PARAM (interval
 * < 1, method, duration not finite or <= 0, clips of different joints or
 * fps), PB_ERR_SIZE (characters x joints over PB_FRAME_CROWD_MAX_ELEMENTS),
 * pb_mm_db_build's, PB_ERR_NOMEM; on error c is left empty. */
PB_API pb_status pb_mm_crowd_init(pb_mm_crowd *c, const pb_scene *sc, size_t characters, int interval,
                                  pb_mm_method method, float duration, uint64_t seed);
PB_API void pb_mm_crowd_free(pb_mm_crowd *c);
/* How the crowd's switches blend, before its first frame: PB_FM_INERTIALIZE (what pb_mm_crowd_init
 * sets), PB_FM_DEAD (dead_slerp: the output at the switch extrapolated with half-life `halflife` s
 * and blended into the new frame by smoothstep over the window) or PB_FM_CUT (the new frame at once;
 * halflife is read by PB_FM_DEAD only). Errors: PB_ERR_NULL (c not initialized), PB_ERR_PARAM (another
 * method, its name and those motion matching runs in the message; halflife not finite or < 0; a frame
 * already stepped); the crowd unchanged on error. */
PB_API pb_status pb_mm_crowd_switching(pb_mm_crowd *c, pb_frame_method m, float halflife);
/* PB_OK if motion matching switches by method m (as pb_mm_crowd_switching takes it), else PB_ERR_PARAM
 * with the message pb_mm_crowd_switching gives (who: its prefix): for checking options before any crowd. */
PB_API pb_status pb_mm_switching_check(const char *who, pb_frame_method m);
/* Stage s of the current frame (in the order of pb_mm_stage; each reads what
 * the ones before it wrote this frame). Errors: PB_ERR_NULL, PB_ERR_PARAM
 * (s), the ops' (c->failed names the op). */
PB_API pb_status pb_mm_crowd_stage(pb_mm_crowd *c, const pb_variant *v, pb_mm_stage s);
/* Every character's clock (and time since its switch) forward by PB_FRAME_DT; the frame count by one. */
PB_API void pb_mm_crowd_advance(pb_mm_crowd *c);
/* The whole frame: every stage, then pb_mm_crowd_advance. */
PB_API pb_status pb_mm_crowd_step(pb_mm_crowd *c, const pb_variant *v);

#ifdef __cplusplus
}
#endif
#endif
