/* frame_opts.h — `posebench frame`'s options (the table its --help is made from) and what they mean
 * across its pose sources: which source reads which option (the others are refused, never ignored),
 * the transition methods by frame.h's one table of names, Unreal's half-life estimate. */
#ifndef CLI_FRAME_OPTS_H
#define CLI_FRAME_OPTS_H

#include "opts.h"
#include "frame_cmd.h"
#include "halflife_opts.h"

enum { O_CHARACTERS, O_JOINTS, O_BVH, O_BVH_SCALE, O_NO_CMU, O_METHOD, O_FRAMES, O_REPS, O_SAMPLER, O_VARIANT,
       O_QUICK, O_JSON, O_THREADS, O_BLOCK, O_VERTICES, O_SKIN, O_SOURCE, O_MM_INTERVAL, O_MM_SEARCH, O_GRAPH,
       O_HL_SCALE, O_HL_MIN, O_HL_MAX, O_CURVE, O_BEZIER, O_FROZEN, O_MODEL, O_CLIP, O_COUNT };
#define FRAME_MAX_VARIANTS 16
#define FRAME_MAX_BVH 64
#define FRAME_MAX_METHODS (PB_FM_COUNT + 2)   /* every name once, the two aliases too */
extern const opt_spec frame_opts[O_COUNT];

/* Options only some pose sources read, given with another: a message naming both, -1; else 0. */
int frame_opts_sources(const opt_val *v);
/* The --method values as methods, each once, in the order given (none given: crossfade_exact, inertialize,
 * dead_slerp): their count, or -1 after a message naming a value that is no method's name. */
int frame_opts_methods(const opt_val *v, pb_frame_method *list);
/* --halflife-scale, --halflife-min, --halflife-max into cfg->hl (Unreal's defaults for those not given),
 * checked together (pb_halflife_est_check): 0, or -1 after a message naming the options. */
int frame_opts_halflife_est(const opt_val *v, frame_cfg *cfg);
/* --curve, --bezier, --frozen into cfg (checked by pb_curve_check), refused unless every method of list[0 .. nm)
 * is a cross-fade: 0, or -1 after a message. */
int frame_opts_curve(const opt_val *v, const pb_frame_method *list, int nm, frame_cfg *cfg);

#endif
