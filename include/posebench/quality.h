/* quality.h — what a transition does to the motion, as a viewer would see it:
 * scores for a window of world-space poses (after FK) that an engine played
 * through one transition, or through several in a row (interruptions), given
 * the source and destination clips' world poses at the same times. Offline
 * (double precision, no kernels): for choosing a transition method and its
 * settings, not for the frame loop. Formulas and units: docs/quality.md.
 *
 * Every metric is per joint and reduced over the body (the joints flagged in
 * `measured`), the worst joint named. Positions are in the data's units
 * (metres for posebench's scenes), y up. */
#ifndef POSEBENCH_QUALITY_H
#define POSEBENCH_QUALITY_H

#include <stddef.h>
#include <stdint.h>
#include "export.h"
#include "status.h"
#include "clip.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pb_quality_metric {
    PB_QM_POP_POS,     /* m: jump of position at the switch and at each interruption (peak) */
    PB_QM_POP_VEL,     /* m/s: jump of velocity there */
    PB_QM_POP_ACC,     /* m/s^2: jump of acceleration there */
    PB_QM_JERK_PEAK,   /* ratio: peak jerk over the window / the clips' own (1: as smooth as the clips) */
    PB_QM_JERK_RMS,    /* ratio: RMS jerk over the window / the clips' own */
    PB_QM_DEV_CM,      /* cm: mean distance from the destination over the window */
    PB_QM_DEV_DEG,     /* degrees: mean angle from the destination over the window */
    PB_QM_SETTLE_S,    /* s: from the last switch until within 1 cm and 1 degree of the destination for good */
    PB_QM_DAMPING,     /* ratio: mean joint speed over the window / the clips' mean (below 1: damped) */
    PB_QM_LIMIT_DEG_S, /* degree-seconds: local rotation beyond the joint range, per axis, integrated */
    PB_QM_SLIDE_M,     /* m: horizontal distance the feet move while both clips have them in contact */
    PB_QM_COUNT
} pb_quality_metric;

/* "pop_pos" ... "slide_m"; NULL out of range. And its unit ("m", "ratio", ...). */
PB_API const char *pb_quality_metric_name(pb_quality_metric m);
PB_API const char *pb_quality_metric_unit(pb_quality_metric m);

typedef struct pb_quality_window {
    size_t joints;
    const int32_t *parents;   /* joints entries: parents[j] < j, or -1 for a root */
    /* World transforms (position and rotation planes read; element = frame x joints + joint, as a clip's
     * keys), the same frames and frame_time (the step between frames) in all three:
     * out what was shown, src the clip the first transition left, dst the clip the last one went to. */
    const pb_clip *out, *src, *dst;
    /* Frames at which a transition starts: switches[0] the transition (>= 3: the frames before it
     * are the source playing), any later ones interruptions (increasing). The window is frames
     * switches[0] .. frames - 1, at least 2 of them. */
    const size_t *switches;
    size_t nswitches;
    const uint8_t *measured;  /* joints flags, nonzero: in the body's reductions; NULL: every joint */
    /* The joint range (pb_clip_joint_limits of the data set's local clips, identity rest): 3 floats per
     * joint each, the scaled angle-axis components' smallest and largest (radians). NULL, NULL: no
     * range (PB_QM_LIMIT_DEG_S is 0). */
    const float *lo, *hi;
    const int32_t *feet;      /* nfeet joints whose sliding is measured (none: PB_QM_SLIDE_M is 0) */
    size_t nfeet;
    float contact_height;     /* a foot is in contact at a frame when its height (y) is below this in both src and dst */
} pb_quality_window;

typedef struct pb_quality {
    double value[PB_QM_COUNT];    /* reduced over the measured joints (docs/quality.md: max, mean, sum or ratio) */
    int32_t worst[PB_QM_COUNT];   /* the joint that made it worst (-1: none, e.g. no feet) */
} pb_quality;

/* Score window w into q; per_joint (NULL, or PB_QM_COUNT x joints doubles, metric-major:
 * per_joint[m * joints + j]) gets each joint's own value (for the jerks, the joint's
 * peak or RMS jerk in m/s^3; for the feet, 0 on joints that are not feet).
 * Errors, checked before anything is written (nothing is written on error):
 * PB_ERR_NULL (w, q, parents, out, src, dst, switches; feet with nfeet > 0; one of lo and hi),
 * PB_ERR_EMPTY (joints 0, no switches, a window of fewer than 2 frames: the zero-length window),
 * PB_ERR_SIZE (a clip whose joints are not `joints` — another skeleton — or whose frames differ from out's;
 a switch at or past the last frame),
 * PB_ERR_PARAM (a parent not below its joint, switches[0] < 3 or not increasing, frame times that differ
 * or are not finite and > 0, a foot out of range, contact_height not finite, lo/hi not finite or lo > hi,
 * a position or rotation not finite or a rotation far from unit: the clip, frame, joint and plane named),
 * a clip failing pb_clip_check: its error, the clip named; PB_ERR_NOMEM. */
PB_API pb_status pb_quality_measure(const pb_quality_window *w, pb_quality *q, double *per_joint);

#ifdef __cplusplus
}
#endif
#endif
