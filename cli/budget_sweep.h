/* budget_sweep.h — `posebench budget --sweep`: the transition sets at each value of one
 * per-transition parameter (budget_sweep.c). */
#ifndef CLI_BUDGET_SWEEP_H
#define CLI_BUDGET_SWEEP_H

#include <cjson/cJSON.h>
#include "budget_sets.h"

#define BW_MAX_VALUES 8
#define BW_SETS 3   /* real, interrupted, hard (hard only in a half-life sweep: its durations are authored) */
/* the parameters a sweep varies: the window, the extrapolation half-life, Unreal's estimate's scale, min, max */
enum { BW_DURATION, BW_HALFLIFE, BW_HL_SCALE, BW_HL_MIN, BW_HL_MAX, BW_NPARAMS };

typedef struct bw_sweep {
    int param;                 /* BW_DURATION ... BW_HL_MAX */
    int n;
    double value[BW_MAX_VALUES];   /* s (the scale: a ratio) */
    bs_set *sets;              /* n x BW_SETS, value-major */
} bw_sweep;

/* "duration=0.05,0.1,0.2", "halflife=...", "halflife-scale=...", "halflife-min=..." or "halflife-max=..."
 * (duration 0.02-10 s, half-life 0-10 s; the estimate's three as pb_halflife_est_check takes them together
 * with the other two of hl, the command's scale, min and max; at most BW_MAX_VALUES). 0, or -1 after a
 * message naming the bad part. */
int bw_parse(const char *spec, const float hl[3], bw_sweep *w);
const char *bw_param_name(const bw_sweep *w);
const char *bw_param_unit(const bw_sweep *w);   /* "s", or "" for the scale */
/* Every value: the sets made and measured (the context's half-life restored after). PB_ERR_NOMEM, bs_measure's. */
pb_status bw_run(bw_sweep *w, bs_ctx *x, const pb_frame_method *methods, int nm, float duration);
void bw_print(const bw_sweep *w, const pb_frame_method *methods);
int bw_add_json(cJSON *root, const bw_sweep *w, const pb_frame_method *methods);
void bw_free(bw_sweep *w);

#endif
