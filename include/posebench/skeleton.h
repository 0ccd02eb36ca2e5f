/* skeleton.h — a joint hierarchy shared by one or many characters, with the
 * schedule fk needs precomputed once (nothing is allocated per frame).
 *
 * Poses over a skeleton hold n = joints x characters elements in the crowd
 * layout: element = joint * characters + character. fk processes joint by
 * joint across characters (SIMD across characters, contiguous, no gathers)
 * when there are at least as many characters as vector lanes; otherwise
 * (one large skeleton, small groups) level by level in depth order, SIMD
 * across the joints of a level with gathered parents. */
#ifndef POSEBENCH_SKELETON_H
#define POSEBENCH_SKELETON_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_MAX_JOINTS (1u << 20)
#define PB_FEW_MAX_ELEMENTS 1024   /* largest n with a chain schedule */
#define PB_FEW_LANES 4             /* chains in flight in the few-characters path */
#define PB_FEW_STEP (1 + 2 * PB_FEW_LANES)   /* int32 per step of few_steps */
#define PB_FEW_ID 0                /* the identity record: a root's parent */
#define PB_FEW_SINK 1              /* an idle lane's destination */

typedef struct pb_skeleton {
    size_t joints;          /* joints per character */
    size_t characters;      /* characters sharing the skeleton */
    size_t n;               /* joints * characters: the element count of its poses */
    int32_t *parents;       /* owned copy: parents[j] < j, or -1 for a root */
    int32_t *depth;         /* depth[j]: 0 for roots */
    size_t levels;          /* max depth + 1 */
    /* Level schedule over elements: order[] lists elements level by level,
     * each level padded to a multiple of 16 by repeating its last element
     * (recomputing an element is harmless), with the parent element of each
     * entry in parent_of[] (a root names itself, so every index is valid to
     * load); level l spans [level_start[l], level_start[l+1]) and holds
     * level_len[l] real elements. Kernels of L lanes stop at the first
     * multiple of L past the real ones, so repeats only ever share a vector
     * with their original (which keeps in-place fk exact). */
    int32_t *order, *parent_of;
    size_t *level_start, *level_len;
    size_t scheduled;       /* level_start[levels] */
    /* Chain schedule of the few-characters path (characters < 16 and
     * n <= PB_FEW_MAX_ELEMENTS, else few_steps is NULL and few_nsteps 0): the
     * element forest cut into chains (each node continues its tallest child's
     * chain), list-scheduled onto PB_FEW_LANES lanes so that a lane walks one
     * chain at a time, keeping the running global in registers. Entries are
     * record indices: PB_FEW_ID for the identity, PB_FEW_SINK for a scratch
     * record, e + 2 for the element e. Step t is few_steps[t * PB_FEW_STEP
     * ...]: a reload mask (bit i: lane i starts a chain this step), then
     * PB_FEW_LANES destinations (the element composed and written, or the
     * sink: the lane idles, composing the identity), then PB_FEW_LANES
     * parents (for a lane that starts a chain: its parent, computed at an
     * earlier step, or the identity for a root; else the identity, unused). */
    int32_t *few_steps;
    size_t few_nsteps;
    void *owned;
    uint64_t gen;           /* generation, as pb_pose.gen: new at each pb_skeleton_init, 0 after free */
} pb_skeleton;

/* Copy and check parents, compute depths and the level schedule.
 * Errors: PB_ERR_NULL (s, parents), PB_ERR_EMPTY (joints or characters 0),
 * PB_ERR_SIZE (joints > PB_MAX_JOINTS, or joints x characters too large),
 * PB_ERR_PARAM (a parent that is not -1 and not an earlier joint: the message
 * names the joint), PB_ERR_NOMEM. On error *s is left empty (safe to free).
 * Ops take only skeletons made here (PB_ERR_PARAM for one filled in by hand). */
PB_API pb_status pb_skeleton_init(pb_skeleton *s, const int32_t *parents, size_t joints, size_t characters);
PB_API void pb_skeleton_free(pb_skeleton *s);

/* A random skeleton of `joints` joints for benchmarks, tests and synthetic
 * scenes: parents[0] = -1, every other joint's parent an earlier joint, no
 * joint deeper than max_depth - 1; mostly chains (three joints in four extend
 * one of the four before them), sometimes a branch from anywhere. The same
 * seed gives the same skeleton on every platform. Errors: PB_ERR_NULL
 * (parents), PB_ERR_EMPTY (joints = 0), PB_ERR_PARAM (max_depth < 2 with more
 * than one joint), PB_ERR_SIZE (joints > PB_MAX_JOINTS), PB_ERR_NOMEM; on
 * error parents is left as it was. */
PB_API pb_status pb_skeleton_random_parents(int32_t *parents, size_t joints, size_t max_depth, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
