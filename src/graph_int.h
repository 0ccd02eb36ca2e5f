/* graph_int.h — what the blend graph's two sources share (graph_crowd.c:
 * set-up and control; graph_pose.c: the pose stages). Not installed. */
#ifndef POSEBENCH_GRAPH_INT_H
#define POSEBENCH_GRAPH_INT_H

#include "posebench/graph.h"

/* Gathered buffers of pb_graph_crowd.buf */
enum { GB_SLOT0, GB_SLOT1, GB_SLOT2, GB_TMP, GB_XSRC, GB_A, GB_B, GB_COUNT };

/* The slots of character k's current state (weights from its blend space's
 * output bw of its group at index i, stride m; NULL for one motion). */
void graph_slots_fill(pb_graph_crowd *c, size_t k, const float *bw, size_t i, size_t m);
/* The stages graph_pose.c runs. */
pb_status graph_stage_sample(pb_graph_crowd *c, const pb_variant *v);
pb_status graph_stage_begin(pb_graph_crowd *c, const pb_variant *v);
pb_status graph_stage_transition(pb_graph_crowd *c, const pb_variant *v);
pb_status graph_stage_layers(pb_graph_crowd *c, const pb_variant *v);

#endif
