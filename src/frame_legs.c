/* frame_legs.c — which two 3-joint chains of a scene the IK solves as legs.
 * In order:
 *   1. by name: the thigh-shin-foot names of common rigs (CMU and most BVH
 *      exports, Mixamo, Unreal's mannequin, 3ds Max Biped, Bandai Namco's
 *      motion set, hip-knee-ankle rigs), compared without case and without a
 *      namespace prefix ("mixamorig:"), and checked to be parent-linked;
 *   2. by topology: the two sibling subtrees nearest the root that mirror each
 *      other (same joint count and depth) and are chains; in each, the three
 *      consecutive joints whose two bones are longest (thigh and shin are a
 *      leg's longest bones; a short pelvis-to-hip bone is skipped);
 *   3. otherwise two independent 3-joint chains (frame_scene.c), which keeps
 *      the IK stage running on any skeleton.
 * The scene's leg_desc says which rule chose them. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_int.h"

/* name without a namespace ("rig:Name" -> "Name") equals want, ignoring case */
static int name_is(const char *name, const char *want)
{
    const char *colon = strrchr(name, ':');
    const char *a = colon ? colon + 1 : name;
    for (; *a && *want; a++, want++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*want)) return 0;
    return !*a && !*want;
}

static int find_named(const char (*names)[PB_BVH_NAME_MAX], size_t joints, const char *want)
{
    for (size_t j = 0; j < joints; j++)
        if (name_is(names[j], want)) return (int)j;
    return -1;
}

/* Thigh, shin, foot names, left then right, per rig family. */
static const struct { const char *rig; const char *n[2][3]; } rigs[] = {
    { "CMU/BVH, Mixamo", { { "LeftUpLeg", "LeftLeg", "LeftFoot" }, { "RightUpLeg", "RightLeg", "RightFoot" } } },
    { "Unreal mannequin", { { "thigh_l", "calf_l", "foot_l" }, { "thigh_r", "calf_r", "foot_r" } } },
    { "3ds Max Biped", { { "L Thigh", "L Calf", "L Foot" }, { "R Thigh", "R Calf", "R Foot" } } },
    { "Bandai Namco", { { "UpperLeg_L", "LowerLeg_L", "Foot_L" }, { "UpperLeg_R", "LowerLeg_R", "Foot_R" } } },
    { "hip-knee-ankle", { { "LeftHip", "LeftKnee", "LeftAnkle" }, { "RightHip", "RightKnee", "RightAnkle" } } },
    { "hip-knee-ankle (short)", { { "lhip", "lknee", "lankle" }, { "rhip", "rknee", "rankle" } } },
};

static int legs_by_name(pb_scene *s, const char (*names)[PB_BVH_NAME_MAX])
{
    for (size_t r = 0; r < sizeof rigs / sizeof rigs[0]; r++) {
        int leg[2][3], ok = 1;
        for (int l = 0; ok && l < 2; l++)
            for (int k = 0; ok && k < 3; k++) ok = (leg[l][k] = find_named(names, s->joints, rigs[r].n[l][k])) >= 0;
        for (int l = 0; ok && l < 2; l++) ok = s->parents[leg[l][1]] == leg[l][0] && s->parents[leg[l][2]] == leg[l][1];
        if (!ok) continue;
        memcpy(s->leg, leg, sizeof leg);
        snprintf(s->leg_desc, sizeof s->leg_desc, "%s-%s-%s and %s-%s-%s (by name: %s)", names[leg[0][0]],
                 names[leg[0][1]], names[leg[0][2]], names[leg[1][0]], names[leg[1][1]], names[leg[1][2]], rigs[r].rig);
        return 1;
    }
    return 0;
}

/* Topology of the scene: first child, next sibling, subtree size and height. */
typedef struct {
    int *first, *next, *size, *height;
} tree;

static int tree_build(tree *t, const pb_scene *s)
{
    size_t J = s->joints;
    int *mem = malloc(4 * J * sizeof *mem);
    if (!mem) return 0;
    t->first = mem, t->next = mem + J, t->size = mem + 2 * J, t->height = mem + 3 * J;
    for (size_t j = 0; j < J; j++) t->first[j] = t->next[j] = -1, t->size[j] = 1, t->height[j] = 0;
    for (size_t j = J; j-- > 0;) {   /* children after parents: a reverse pass accumulates subtrees */
        int p = s->parents[j];
        if (p < 0) continue;
        t->next[j] = t->first[p];
        t->first[p] = (int)j;
        t->size[p] += t->size[j];
        if (t->height[j] + 1 > t->height[p]) t->height[p] = t->height[j] + 1;
    }
    return 1;
}

static int is_chain(const tree *t, int j)
{
    for (; j >= 0; j = t->first[j])
        if (t->first[j] >= 0 && t->next[t->first[j]] >= 0) return 0;
    return 1;
}

static double bone_length(const pb_scene *s, int j)   /* rest offset: the first key's local position */
{
    const pb_pose *p = &s->clip[0].pose;
    double x = p->plane[PB_POS_X][j], y = p->plane[PB_POS_Y][j], z = p->plane[PB_POS_Z][j];
    return sqrt(x * x + y * y + z * z);
}

/* The chain from a (a chain subtree of at least 3 joints) as joint indices. */
static int chain_of(const tree *t, int a, int *out, int cap)
{
    int n = 0;
    for (; a >= 0 && n < cap; a = t->first[a]) out[n++] = a;
    return n;
}

static int legs_by_topology(pb_scene *s, const char (*names)[PB_BVH_NAME_MAX])
{
    tree t;
    if (!tree_build(&t, s)) return 0;
    int found = 0;
    /* joints in index order: parents come first, so the first mirrored pair is the one nearest the root */
    for (size_t h = 0; h < s->joints && !found; h++)
        for (int a = t.first[h]; a >= 0 && !found; a = t.next[a])
            for (int b = t.next[a]; b >= 0 && !found; b = t.next[b]) {
                if (t.size[a] != t.size[b] || t.height[a] != t.height[b] || t.size[a] < 3) continue;
                if (!is_chain(&t, a) || !is_chain(&t, b)) continue;
                int ca[64], cb[64], n = chain_of(&t, a, ca, 64);
                if (chain_of(&t, b, cb, 64) != n) continue;
                int best = -1;
                double best_len = -1;
                for (int k = 0; k + 2 < n; k++) {   /* both sides' two bones, summed */
                    double len = bone_length(s, ca[k + 1]) + bone_length(s, ca[k + 2]) + bone_length(s, cb[k + 1]) +
                                 bone_length(s, cb[k + 2]);
                    if (len > best_len) best_len = len, best = k;
                }
                if (best < 0) continue;
                for (int k = 0; k < 3; k++) s->leg[0][k] = ca[best + k], s->leg[1][k] = cb[best + k];
                char jn[6][25];
                for (int i = 0; i < 6; i++) {
                    int j = s->leg[i / 3][i % 3];
                    if (names) snprintf(jn[i], sizeof jn[i], "%.24s", names[j]);
                    else snprintf(jn[i], sizeof jn[i], "%d", j);
                }
                snprintf(s->leg_desc, sizeof s->leg_desc,
                         "%s-%s-%s and %s-%s-%s (by topology: mirrored chains under joint %zu, longest bones)", jn[0],
                         jn[1], jn[2], jn[3], jn[4], jn[5], h);
                found = 1;
            }
    free(t.first);
    return found;
}

void pb_scene_pick_legs(pb_scene *s, const char (*names)[PB_BVH_NAME_MAX])
{
    s->leg[0][0] = s->leg[1][0] = -1;
    if (names && legs_by_name(s, names)) return;
    if (legs_by_topology(s, names)) return;
    pb_scene_pick_legs_fallback(s);
}
