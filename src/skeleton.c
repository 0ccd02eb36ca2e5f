/* skeleton.c — parent checks, depths and the level schedule of fk. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

void pb_skeleton_free(pb_skeleton *s)
{
    if (!s) return;
    free(s->owned);
    memset(s, 0, sizeof *s);
}

pb_status pb_skeleton_init(pb_skeleton *s, const int32_t *parents, size_t joints, size_t characters)
{
    if (!s) return pb_fail(PB_ERR_NULL, "pb_skeleton_init: skeleton is NULL");
    memset(s, 0, sizeof *s);
    if (!parents) return pb_fail(PB_ERR_NULL, "pb_skeleton_init: parents is NULL");
    if (joints == 0) return pb_fail(PB_ERR_EMPTY, "pb_skeleton_init: joints = 0");
    if (characters == 0) return pb_fail(PB_ERR_EMPTY, "pb_skeleton_init: characters = 0");
    if (joints > PB_MAX_JOINTS)
        return pb_fail(PB_ERR_SIZE, "pb_skeleton_init: %zu joints (at most %u)", joints, PB_MAX_JOINTS);
    if (characters > (size_t)INT32_MAX / joints / 2)
        return pb_fail(PB_ERR_SIZE, "pb_skeleton_init: %zu joints x %zu characters is too many elements", joints,
                       characters);
    for (size_t j = 0; j < joints; j++)
        if (parents[j] < -1 || parents[j] >= (int32_t)j)
            return pb_fail(PB_ERR_PARAM,
                           "pb_skeleton_init: joint %zu has parent %d; parents must be -1 (root) or an earlier "
                           "joint (0..%zu), so that parents precede children",
                           j, (int)parents[j], j ? j - 1 : 0);

    size_t n = joints * characters;
    /* Upper bound of the padded schedule: every level padded by < 16. */
    size_t cap = n + 16 * joints;
    size_t bytes = joints * 2 * sizeof(int32_t) + cap * 2 * sizeof(int32_t) + (2 * joints + 1) * sizeof(size_t);
    char *mem = malloc(bytes);
    if (!mem) return pb_fail(PB_ERR_NOMEM, "pb_skeleton_init: out of memory (%zu bytes)", bytes);
    s->owned = mem;
    s->parents = (int32_t *)mem;
    s->depth = s->parents + joints;
    s->order = s->depth + joints;
    s->parent_of = s->order + cap;
    s->level_start = (size_t *)(void *)(s->parent_of + cap);
    s->level_len = s->level_start + joints + 1;
    s->joints = joints;
    s->characters = characters;
    s->n = n;

    memcpy(s->parents, parents, joints * sizeof *parents);
    size_t levels = 0;
    for (size_t j = 0; j < joints; j++) {
        s->depth[j] = parents[j] < 0 ? 0 : s->depth[parents[j]] + 1;
        if ((size_t)s->depth[j] + 1 > levels) levels = (size_t)s->depth[j] + 1;
    }
    s->levels = levels;
    size_t k = 0;
    for (size_t l = 0; l < levels; l++) {
        s->level_start[l] = k;
        size_t first = k;
        for (size_t j = 0; j < joints; j++) {
            if ((size_t)s->depth[j] != l) continue;
            for (size_t c = 0; c < characters; c++) {
                s->order[k] = (int32_t)(j * characters + c);
                s->parent_of[k] = (int32_t)((parents[j] < 0 ? j : (size_t)parents[j]) * characters + c);
                k++;
            }
        }
        s->level_len[l] = k - first;
        while ((k - first) % 16 != 0) {   /* pad with the level's last element */
            s->order[k] = s->order[k - 1];
            s->parent_of[k] = s->parent_of[k - 1];
            k++;
        }
    }
    s->level_start[levels] = k;
    s->scheduled = k;
    return PB_OK;
}
