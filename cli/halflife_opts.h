/* halflife_opts.h — Unreal's dead blending's --halflife-scale, --halflife-min, --halflife-max, one text
 * and one check for every command that takes them (frame, budget; frame_opts.c). */
#ifndef CLI_HALFLIFE_OPTS_H
#define CLI_HALFLIFE_OPTS_H

#include "opts.h"
#include "posebench/ops.h"

/* The same for any command's three options (given: scale, min, max), into hl; cmd names it in messages. */
int halflife_est_opts(const char *cmd, const opt_val *given[3], float hl[3]);
/* The three options' table rows (frame's and budget's: one text) */
#define HALFLIFE_EST_OPTS(tail)                                                                                  \
    { "halflife-scale", OPT_DOUBLE, "S", 0, PB_HALFLIFE_EST_LIMIT, NULL, 0, "0.3",                              \
      "Unreal's dead blending (dead_ue): half-life = clamp(S x distance / speed, min, max)" tail },              \
    { "halflife-min", OPT_DOUBLE, "S", 0, PB_HALFLIFE_EST_LIMIT, NULL, 0, "0.1",                                \
      "dead_ue: the shortest half-life (s), at most --halflife-max" },                                          \
    { "halflife-max", OPT_DOUBLE, "S", 0, PB_HALFLIFE_EST_LIMIT, NULL, 0, "1", "dead_ue: the longest half-life (s)" }

#endif
