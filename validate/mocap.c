/* mocap.c — validation inputs drawn from real motion capture (BVH clips):
 * real frames with their finite-difference velocities, real transitions
 * between clips, real skeletons for crowds, real legs for IK. Real clips
 * have what random quaternions lack: slow joints (tiny angles), Euler wraps,
 * long chains, near-180-degree rotations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rng.h"
#include "validate.h"
#include "posebench/asset.h"

#define DEFAULT_DIR "/usr/share/assimp/models/BVH/"
static const char *const default_files[] = { DEFAULT_DIR "01_01.bvh", DEFAULT_DIR "01_03.bvh",
                                             DEFAULT_DIR "Boxing_Toes.bvh" };

typedef struct { uint64_t s; } mrng;
static uint64_t mnext(mrng *r) { return pb_rng_next(&r->s); }   /* the one generator (src/rng.h) */

static void log_warning(void *user, const char *msg)
{
    FILE *f = user;
    if (f) fprintf(f, "# warning: %s\n", msg);
}

void pb_mocap_free(pb_mocap *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->nclips; i++) {
        pb_clip_free(&m->clips[i]);
        pb_bvh_skeleton_free(&m->skels[i]);
    }
    free(m->clips);
    free(m->skels);
    memset(m, 0, sizeof *m);
}

pb_status pb_mocap_load(pb_mocap *m, const char *const *files, size_t nfiles, int strict, FILE *log)
{
    return pb_mocap_load_scaled(m, files, nfiles, 0, strict, log);
}

pb_status pb_mocap_load_scaled(pb_mocap *m, const char *const *files, size_t nfiles, double scale, int strict,
                               FILE *log)
{
    memset(m, 0, sizeof *m);
    int defaults = files == NULL;
    if (defaults) {
        files = default_files;
        nfiles = sizeof default_files / sizeof default_files[0];
    }
    m->clips = calloc(nfiles ? nfiles : 1, sizeof *m->clips);
    m->skels = calloc(nfiles ? nfiles : 1, sizeof *m->skels);
    if (!m->clips || !m->skels) {
        pb_mocap_free(m);
        return pb_fail(PB_ERR_NOMEM, "mocap: out of memory");
    }
    for (size_t i = 0; i < nfiles; i++) {
        /* the packaged files are optional; anything else is the loader's to refuse (opening it here
         * would block on a FIFO) */
        if (defaults && access(files[i], F_OK) != 0) continue;
        pb_bvh_options opt = pb_bvh_default_options();
        opt.unit_scale = defaults || scale == 0 ? 0.01f : (float)scale;   /* default: centimetres -> metres */
        opt.strict = strict;
        opt.max_elements = PB_MOCAP_MAX_KEYS;
        opt.warn = log_warning;
        opt.user = log;
        pb_status s = pb_bvh_load(files[i], &opt, &m->skels[m->nclips], &m->clips[m->nclips]);
        if (s != PB_OK) {   /* the loader's message names the file, the line and any limit */
            pb_mocap_free(m);
            return s;
        }
        m->nclips++;
    }
    return PB_OK;
}

const char *pb_mocap_skip_reason(int no_mocap, size_t nfiles)
{
    if (no_mocap) return "--no-mocap given";
    if (nfiles) return NULL;
    for (size_t i = 0; i < sizeof default_files / sizeof default_files[0]; i++)
        if (access(default_files[i], R_OK) == 0) return NULL;
    return "no CMU clips packaged at " DEFAULT_DIR " (01_01.bvh, 01_03.bvh, Boxing_Toes.bvh: Debian package "
           "assimp-testmodels) and no --bvh given";
}

/* a's skeleton as the BVH form the class reads: names, parents, rest positions as offsets */
static pb_status asset_skeleton(const pb_asset *a, pb_bvh_skeleton *s)
{
    memset(s, 0, sizeof *s);
    const size_t J = a->joints;
    s->names = calloc(J, sizeof *s->names);
    s->parents = malloc(J * sizeof *s->parents);
    s->offsets = malloc(J * sizeof *s->offsets);
    if (!s->names || !s->parents || !s->offsets) {
        pb_bvh_skeleton_free(s);
        return pb_fail(PB_ERR_NOMEM, "mocap: out of memory for the model's skeleton");
    }
    s->joints = J;
    for (size_t j = 0; j < J; j++) {
        snprintf(s->names[j], sizeof s->names[j], "%s", a->names[j]);
        s->parents[j] = a->parents[j];
        for (int k = 0; k < 3; k++) s->offsets[j][k] = a->rest.plane[PB_POS_X + k][j];
    }
    return PB_OK;
}

int pb_mocap_add_asset(pb_mocap *m, const pb_asset *a, const char **why)
{
    if (why) *why = NULL;
    if (!a->clips || !a->joints) {
        if (why) *why = "the model has no clip";
        return 0;
    }
    pb_bvh_skeleton probe;
    if (asset_skeleton(a, &probe) != PB_OK) return -1;
    size_t legs = 0;
    for (size_t j = 0; j < probe.joints; j++) {   /* as find_legs, without its fallback to any deep joint */
        int p = probe.parents[j];
        if (p >= 0 && probe.parents[p] >= 0 && (strstr(probe.names[j], "Foot") || strstr(probe.names[j], "foot") ||
                                                strstr(probe.names[j], "Ankle") || strstr(probe.names[j], "ankle")))
            legs++;
    }
    pb_bvh_skeleton_free(&probe);
    if (!legs) {
        if (why) *why = "no joint named *Foot* or *Ankle* with a parent and a grandparent (the class's IK legs)";
        return 0;
    }
    const size_t n0 = m->nclips, add = a->clips;
    for (size_t i = 0; i < add; i++)
        if (a->clip[i].clip.frames * a->joints > PB_MOCAP_MAX_KEYS)
            return pb_fail(PB_ERR_SIZE, "mocap: model clip %zu (%s) has %zu keys, more than %zu", i, a->clip[i].name,
                           a->clip[i].clip.frames * a->joints, (size_t)PB_MOCAP_MAX_KEYS), -1;
    pb_clip *clips = realloc(m->clips, (n0 + add) * sizeof *clips);
    if (clips) m->clips = clips;
    pb_bvh_skeleton *skels = clips ? realloc(m->skels, (n0 + add) * sizeof *skels) : NULL;
    if (skels) m->skels = skels;
    if (!clips || !skels) return pb_fail(PB_ERR_NOMEM, "mocap: out of memory for the model's clips"), -1;
    for (size_t i = 0; i < add; i++) {
        const pb_clip *src = &a->clip[i].clip;
        pb_clip *dst = &m->clips[m->nclips];
        pb_status s = pb_clip_alloc(dst, src->frames, src->joints, src->fps);
        if (s == PB_OK) s = asset_skeleton(a, &m->skels[m->nclips]);
        if (s != PB_OK) {
            pb_clip_free(dst);
            return -1;
        }
        for (int q = 0; q < PB_PLANES; q++)
            if (src->pose.plane[q] && dst->pose.plane[q])
                memcpy(dst->pose.plane[q], src->pose.plane[q], src->pose.n * sizeof(float));
        m->nclips++;
    }
    return (int)add;
}

/* Key (clip c, frame f, joint j) with velocities by forward difference to the
 * next frame (backward at the last): real, noisy, mocap-rate velocities. */
static void key_with_velocity(const pb_clip *c, size_t f, size_t j, float *dst[PB_PLANES], size_t e)
{
    size_t J = c->joints, f1 = f + 1 < c->frames ? f + 1 : f, f0 = f + 1 < c->frames ? f : (f ? f - 1 : f);
    const pb_pose *p = &c->pose;
    for (int q = 0; q < PB_PLANES; q++) dst[q][e] = p->plane[q][f * J + j];
    size_t a = f0 * J + j, b = f1 * J + j;
    double fps = c->fps;
    for (int k = 0; k < 3; k++) {
        dst[PB_VEL_X + k][e] = (float)((p->plane[PB_POS_X + k][b] - p->plane[PB_POS_X + k][a]) * fps);
        dst[PB_SVL_X + k][e] = 0;
    }
    /* ang = 2 log(q1 conj(q0)) * fps, shorter arc */
    double qw = p->plane[PB_ROT_W][a], qx = -p->plane[PB_ROT_X][a], qy = -p->plane[PB_ROT_Y][a], qz = -p->plane[PB_ROT_Z][a];
    double pw = p->plane[PB_ROT_W][b], px = p->plane[PB_ROT_X][b], py = p->plane[PB_ROT_Y][b], pz = p->plane[PB_ROT_Z][b];
    double rw = pw * qw - px * qx - py * qy - pz * qz, rx = pw * qx + px * qw + py * qz - pz * qy,
           ry = pw * qy - px * qz + py * qw + pz * qx, rz = pw * qz + px * qy - py * qx + pz * qw;
    if (rw < 0) { rw = -rw; rx = -rx; ry = -ry; rz = -rz; }
    double s = sqrt(rx * rx + ry * ry + rz * rz), g = s > 0 ? 2 * atan2(s, rw) / s * fps : 2 * fps;
    dst[PB_ANG_X][e] = (float)(g * rx); dst[PB_ANG_Y][e] = (float)(g * ry); dst[PB_ANG_Z][e] = (float)(g * rz);
}

void pb_mocap_fill(const pb_mocap *m, pb_pose *a, pb_pose *b, uint64_t seed)
{
    mrng r = { seed * 0x2545F4914F6CDD1Dull + 77 };
    for (size_t i = 0; i < a->n; i++) {
        /* a: any frame of any clip; b: the same joint elsewhere (another clip or
         * another moment): a real transition between two poses */
        const pb_clip *ca = &m->clips[mnext(&r) % m->nclips];
        size_t j = mnext(&r) % ca->joints;
        key_with_velocity(ca, mnext(&r) % ca->frames, j, a->plane, i);
        const pb_clip *cb = &m->clips[mnext(&r) % m->nclips];
        size_t jb = cb->joints == ca->joints ? j : mnext(&r) % cb->joints;
        key_with_velocity(cb, mnext(&r) % cb->frames, jb, b->plane, i);
    }
}

const pb_clip *pb_mocap_clip(const pb_mocap *m, size_t i) { return m->nclips ? &m->clips[i % m->nclips] : NULL; }
const pb_bvh_skeleton *pb_mocap_skeleton(const pb_mocap *m, size_t i)
{
    return m->nclips ? &m->skels[i % m->nclips] : NULL;
}

void pb_mocap_crowd(const pb_mocap *m, size_t clip, pb_pose *local, size_t characters, uint64_t seed)
{
    mrng r = { seed * 0x9E6C63D0676A9A99ull + 5 };
    const pb_clip *c = pb_mocap_clip(m, clip);
    size_t J = c->joints;
    for (size_t ch = 0; ch < characters; ch++) {
        size_t f = mnext(&r) % c->frames;
        for (size_t j = 0; j < J; j++) key_with_velocity(c, f, j, local->plane, j * characters + ch);
    }
}

/* The legs of a real skeleton: joints with a parent and a grandparent whose
 * names say foot / ankle (CMU: LeftFoot, RightFoot; others: *Ankle*, *Foot*),
 * else any joint of depth >= 2. */
static size_t find_legs(const pb_bvh_skeleton *s, size_t *ends, size_t max)
{
    size_t k = 0;
    for (size_t j = 0; j < s->joints && k < max; j++) {
        int p = s->parents[j];
        if (p < 0 || s->parents[p] < 0) continue;
        if (strstr(s->names[j], "Foot") || strstr(s->names[j], "foot") || strstr(s->names[j], "Ankle") ||
            strstr(s->names[j], "ankle"))
            ends[k++] = j;
    }
    for (size_t j = 0; j < s->joints && k == 0; j++)
        if (s->parents[j] >= 0 && s->parents[s->parents[j]] >= 0) ends[k++] = j;
    return k;
}

/* Globals of one frame by forward kinematics in double (pos/rot only; BVH has unit scales). */
static void frame_globals(const pb_clip *c, const pb_bvh_skeleton *s, size_t f, double (*gp)[3], double (*gq)[4])
{
    size_t J = c->joints;
    const pb_pose *p = &c->pose;
    for (size_t j = 0; j < J; j++) {
        size_t e = f * J + j;
        double lq[4] = { p->plane[PB_ROT_W][e], p->plane[PB_ROT_X][e], p->plane[PB_ROT_Y][e], p->plane[PB_ROT_Z][e] };
        double lp[3] = { p->plane[PB_POS_X][e], p->plane[PB_POS_Y][e], p->plane[PB_POS_Z][e] };
        int par = s->parents[j];
        if (par < 0) {
            memcpy(gq[j], lq, sizeof lq);
            memcpy(gp[j], lp, sizeof lp);
            continue;
        }
        double *q = gq[par];
        double tx = 2 * (q[2] * lp[2] - q[3] * lp[1]), ty = 2 * (q[3] * lp[0] - q[1] * lp[2]), tz = 2 * (q[1] * lp[1] - q[2] * lp[0]);
        gp[j][0] = gp[par][0] + lp[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
        gp[j][1] = gp[par][1] + lp[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
        gp[j][2] = gp[par][2] + lp[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
        gq[j][0] = q[0] * lq[0] - q[1] * lq[1] - q[2] * lq[2] - q[3] * lq[3];
        gq[j][1] = q[0] * lq[1] + q[1] * lq[0] + q[2] * lq[3] - q[3] * lq[2];
        gq[j][2] = q[0] * lq[2] - q[1] * lq[3] + q[2] * lq[0] + q[3] * lq[1];
        gq[j][3] = q[0] * lq[3] + q[1] * lq[2] - q[2] * lq[1] + q[3] * lq[0];
    }
}

/* Limb chains of L > 3 joints: ends at hands, feet and toes (CMU: LeftHand,
 * LeftFoot, LeftToeBase; others: *Wrist*, *Ankle*) with L - 1 ancestors, the
 * bones from the chain's root on all of non-zero length (a chain IK op refuses
 * a zero-length bone); else any joint deep enough. 0 when the skeleton has
 * no chain that long. */
static int deep_enough(const pb_bvh_skeleton *s, size_t j, int L)
{
    for (int k = 1; k < L; k++) {
        float *o = s->offsets[j];
        if (o[0] == 0 && o[1] == 0 && o[2] == 0) return 0;
        if (s->parents[j] < 0) return 0;
        j = (size_t)s->parents[j];
    }
    return 1;
}
static size_t find_limb_ends(const pb_bvh_skeleton *s, int L, size_t *ends, size_t max)
{
    static const char *const limb[] = { "Hand", "hand", "Wrist", "wrist", "Foot", "foot", "Ankle", "ankle", "Toe", "toe" };
    size_t k = 0;
    for (size_t j = 0; j < s->joints && k < max; j++) {
        int named = 0;
        for (size_t w = 0; w < sizeof limb / sizeof limb[0]; w++) named |= strstr(s->names[j], limb[w]) != NULL;
        if (named && deep_enough(s, j, L)) ends[k++] = j;
    }
    for (size_t j = 0; j < s->joints && k == 0; j++)
        if (deep_enough(s, j, L)) ends[k++] = j;
    return k;
}

void pb_mocap_chains(const pb_mocap *m, pb_pose *a, pb_pose *b, uint64_t seed) { pb_mocap_nchains(m, a, b, 3, seed); }

void pb_mocap_nchains(const pb_mocap *m, pb_pose *a, pb_pose *b, int L, uint64_t seed)
{
    mrng r = { seed * 0x94D049BB133111EBull + 11 };
    size_t C = a->n / (size_t)L;
    for (size_t ch = 0; ch < C; ch++) {
        size_t ci = mnext(&r) % m->nclips;
        const pb_clip *c = &m->clips[ci];
        const pb_bvh_skeleton *s = &m->skels[ci];
        size_t ends[64], nl = L == 3 ? find_legs(s, ends, 8) : find_limb_ends(s, L, ends, 64);
        if (nl == 0) continue;   /* no chain this long: the element keeps its generated chain */
        size_t path[PB_CHAIN_MAX];
        path[L - 1] = ends[mnext(&r) % nl];
        for (int j = L - 1; j > 0; j--) path[j - 1] = (size_t)s->parents[path[j]];
        size_t f = mnext(&r) % c->frames;
        double (*gp)[3] = malloc(c->joints * sizeof *gp);
        double (*gq)[4] = malloc(c->joints * sizeof *gq);
        if (!gp || !gq) { free(gp); free(gq); return; }
        frame_globals(c, s, f, gp, gq);
        /* root: the chain root's global transform; the others: locals as in the clip */
        key_with_velocity(c, f, path[0], a->plane, ch);
        for (int k = 0; k < 3; k++) a->plane[PB_POS_X + k][ch] = (float)gp[path[0]][k];
        for (int k = 0; k < 4; k++) a->plane[PB_ROT_W + k][ch] = (float)gq[path[0]][k];
        for (int j = 1; j < L; j++) key_with_velocity(c, f, path[j], a->plane, (size_t)j * C + ch);
        /* target: where the end is, moved up to 25 cm (footsteps on uneven ground, a reach), with a velocity */
        size_t e = (size_t)(L - 1) * C + ch;
        for (int k = 0; k < 3; k++) {
            b->plane[PB_POS_X + k][e] = (float)(gp[path[L - 1]][k] + ((double)(mnext(&r) % 1000) / 1000 - 0.5) * 0.5);
            b->plane[PB_VEL_X + k][e] = (float)(((double)(mnext(&r) % 1000) / 1000 - 0.5) * 2);
        }
        free(gp);
        free(gq);
    }
}

/* (gq[P])^-1 applied to v, in double. */
static void inv_rotate(const double q[4], const double v[3], double o[3])
{
    double x = -q[1], y = -q[2], z = -q[3];
    double tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
    o[0] = v[0] + q[0] * tx + (y * tz - z * ty);
    o[1] = v[1] + q[0] * ty + (z * tx - x * tz);
    o[2] = v[2] + q[0] * tz + (x * ty - y * tx);
}

/* The joint both a and b descend from (a itself when a == b; a's parent first). */
static size_t common_ancestor(const pb_bvh_skeleton *s, size_t a, size_t b)
{
    if (a == b) return s->parents[a] >= 0 ? (size_t)s->parents[a] : a;
    for (int i = s->parents[a]; i >= 0; i = s->parents[i])
        for (int j = (int)b; j >= 0; j = s->parents[j])
            if (i == j) return (size_t)i;
    return 0;
}

void pb_mocap_feet(const pb_mocap *m, pb_pose *a, pb_pose *b, uint64_t seed)
{
    mrng r = { seed * 0xBF58476D1CE4E5B9ull + 13 };
    size_t C = a->n / 7;
    for (size_t ch = 0; ch < C; ch++) {
        size_t ci = mnext(&r) % m->nclips;
        const pb_clip *c = &m->clips[ci];
        const pb_bvh_skeleton *s = &m->skels[ci];
        size_t ends[8], nl = find_legs(s, ends, 8), f = mnext(&r) % c->frames;
        size_t leg[2][3];
        for (int l = 0; l < 2; l++) {
            leg[l][2] = ends[l < (int)nl ? l : 0];
            leg[l][1] = (size_t)s->parents[leg[l][2]];
            leg[l][0] = (size_t)s->parents[leg[l][1]];
        }
        size_t pel = common_ancestor(s, leg[0][0], leg[1][0]);
        double (*gp)[3] = malloc(c->joints * sizeof *gp);
        double (*gq)[4] = malloc(c->joints * sizeof *gq);
        if (!gp || !gq) { free(gp); free(gq); return; }
        frame_globals(c, s, f, gp, gq);
        /* pelvis: its global transform, its local key's velocities */
        key_with_velocity(c, f, pel, a->plane, ch);
        for (int k = 0; k < 3; k++) a->plane[PB_POS_X + k][ch] = (float)gp[pel][k];
        for (int k = 0; k < 4; k++) a->plane[PB_ROT_W + k][ch] = (float)gq[pel][k];
        for (int l = 0; l < 2; l++) {
            size_t e = (size_t)(1 + 3 * l) * C + ch, hip = leg[l][0], ank = leg[l][2];
            for (int j = 0; j < 3; j++) key_with_velocity(c, f, leg[l][j], a->plane, e + (size_t)j * C);
            /* the hip relative to the pelvis (its own parent may be a short bone below it) */
            double d[3] = { gp[hip][0] - gp[pel][0], gp[hip][1] - gp[pel][1], gp[hip][2] - gp[pel][2] }, o[3];
            inv_rotate(gq[pel], d, o);
            const double *p = gq[pel], *q = gq[hip];
            double rq[4] = { p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3],
                             p[0] * q[1] - p[1] * q[0] - p[2] * q[3] + p[3] * q[2],
                             p[0] * q[2] + p[1] * q[3] - p[2] * q[0] - p[3] * q[1],
                             p[0] * q[3] - p[1] * q[2] + p[2] * q[1] - p[3] * q[0] };
            for (int k = 0; k < 3; k++) a->plane[PB_POS_X + k][e] = (float)o[k];
            for (int k = 0; k < 4; k++) a->plane[PB_ROT_W + k][e] = (float)rq[k];
            /* ground: near the foot (+-10 cm across, 15 cm below .. 5 cm above), up tilted up to 0.3 rad */
            double t = ((double)(mnext(&r) % 1000) / 1000) * 0.3, az = ((double)(mnext(&r) % 1000) / 1000) * 6.283185307179586;
            double n[3] = { sin(t) * cos(az), cos(t), sin(t) * sin(az) };
            double g[3] = { gp[ank][0] + ((double)(mnext(&r) % 1000) / 1000 - 0.5) * 0.2,
                            gp[ank][1] - ((double)(mnext(&r) % 1000) / 1000) * 0.2 + 0.05,
                            gp[ank][2] + ((double)(mnext(&r) % 1000) / 1000 - 0.5) * 0.2 };
            for (int k = 0; k < 3; k++) {
                b->plane[PB_POS_X + k][e + C] = (float)n[k];
                b->plane[PB_POS_X + k][e + 2 * C] = (float)g[k];
                b->plane[PB_VEL_X + k][e + C] = (float)(((double)(mnext(&r) % 1000) / 1000 - 0.5) * 0.5);
                b->plane[PB_VEL_X + k][e + 2 * C] = (float)(((double)(mnext(&r) % 1000) / 1000 - 0.5) * 2);
            }
        }
        free(gp);
        free(gq);
    }
}
