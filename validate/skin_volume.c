/* skin_volume.c — LBS against DQS at a character's most twisted joint (skin_volume.h). */
#include "skin_volume.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"   /* pb_fail */
#include "posebench/posebench.h"

#define DEG_PER_RAD 57.29577951308232

typedef struct frame_state {
    pb_pose glob;
    pb_palette mat;
} frame_state;

static void state_free(frame_state *f)
{
    pb_pose_free(&f->glob);
    free(f->mat.data);
    memset(f, 0, sizeof *f);
}

static pb_status state_alloc(frame_state *f, size_t J)
{
    memset(f, 0, sizeof *f);
    pb_status s = pb_pose_alloc_static(&f->glob, J);
    f->mat = (pb_palette){ malloc(J * PB_PALETTE_MAT_FLOATS * sizeof(float)), J };
    if (s == PB_OK && !f->mat.data) s = pb_fail(PB_ERR_NOMEM, "skin volume: out of memory");
    if (s != PB_OK) state_free(f);
    return s;
}

/* globals and matrix palette of one pose */
static pb_status state_pose(frame_state *f, const pb_skeleton *sk, const pb_pose *local, const pb_pose *inv_bind)
{
    pb_status s = pb_fk_static(sk, local, &f->glob);
    return s == PB_OK ? pb_matrix_palette(&f->glob, inv_bind, &f->mat) : s;
}

/* the bone axis p -> j: unit direction u; 0 when p and j coincide */
static int bone_axis(const pb_pose *g, size_t j, size_t p, double u[3])
{
    double len = 0;
    for (int k = 0; k < 3; k++) {
        u[k] = (double)g->plane[PB_POS_X + k][j] - g->plane[PB_POS_X + k][p];
        len += u[k] * u[k];
    }
    len = sqrt(len);
    if (!(len > 1e-9)) return 0;
    for (int k = 0; k < 3; k++) u[k] /= len;
    return 1;
}

/* the rotation of a 3x4 palette entry (its columns normalised: a scale left out) as a unit quaternion w x y z */
static void entry_quat(const float *e, double q[4])
{
    double m[3][3];
    for (int c = 0; c < 3; c++) {
        double n = sqrt((double)e[c] * e[c] + (double)e[4 + c] * e[4 + c] + (double)e[8 + c] * e[8 + c]);
        for (int r = 0; r < 3; r++) m[r][c] = n > 0 ? e[4 * r + c] / n : (r == c);
    }
    double tr = m[0][0] + m[1][1] + m[2][2];
    if (tr > 0) {
        double t = sqrt(tr + 1) * 2;
        q[0] = t / 4, q[1] = (m[2][1] - m[1][2]) / t, q[2] = (m[0][2] - m[2][0]) / t, q[3] = (m[1][0] - m[0][1]) / t;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        double t = sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
        q[0] = (m[2][1] - m[1][2]) / t, q[1] = t / 4, q[2] = (m[0][1] + m[1][0]) / t, q[3] = (m[0][2] + m[2][0]) / t;
    } else if (m[1][1] > m[2][2]) {
        double t = sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
        q[0] = (m[0][2] - m[2][0]) / t, q[1] = (m[0][1] + m[1][0]) / t, q[2] = t / 4, q[3] = (m[1][2] + m[2][1]) / t;
    } else {
        double t = sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
        q[0] = (m[1][0] - m[0][1]) / t, q[1] = (m[0][2] + m[2][0]) / t, q[2] = (m[1][2] + m[2][1]) / t, q[3] = t / 4;
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; k++) q[k] /= n;
}

/* The rotation taking p's rigid image of a vertex to j's (R_j R_p^T), split about the posed bone axis
 * into twist (about it) and swing (the rest): both angles in radians, 0 and 0 for a degenerate bone. */
static void twist_swing(const frame_state *f, size_t j, size_t p, double *twist, double *swing)
{
    double u[3], a[4], b[4];
    *twist = *swing = 0;
    if (!bone_axis(&f->glob, j, p, u)) return;
    entry_quat(f->mat.data + j * PB_PALETTE_MAT_FLOATS, b);
    entry_quat(f->mat.data + p * PB_PALETTE_MAT_FLOATS, a);
    /* q = b a^-1 */
    double q[4] = { b[0] * a[0] + b[1] * a[1] + b[2] * a[2] + b[3] * a[3],
                    -b[0] * a[1] + b[1] * a[0] - b[2] * a[3] + b[3] * a[2],
                    -b[0] * a[2] + b[1] * a[3] + b[2] * a[0] - b[3] * a[1],
                    -b[0] * a[3] - b[1] * a[2] + b[2] * a[1] + b[3] * a[0] };
    double along = q[1] * u[0] + q[2] * u[1] + q[3] * u[2];
    double tn = sqrt(q[0] * q[0] + along * along);
    *twist = 2 * atan2(fabs(along), fabs(q[0]));
    /* swing = q twist^-1; its w is (q . twist) */
    double sw = tn > 0 ? (q[0] * q[0] + along * along) / tn : 0;
    *swing = 2 * acos(fmin(1.0, fabs(sw)));
}

/* the largest |column norm - 1| of a 3x4 palette entry: 0 for a rigid transform */
static double scale_dev(const float *e)
{
    double d = 0;
    for (int c = 0; c < 3; c++)
        d = fmax(d, fabs(sqrt((double)e[c] * e[c] + (double)e[4 + c] * e[4 + c] + (double)e[8 + c] * e[8 + c]) - 1));
    return d;
}

/* row-major 3x4 palette entry e applied to vertex v of m */
static void apply(const float *e, const pb_mesh *m, size_t v, double out[3])
{
    double x = m->pos[0][v], y = m->pos[1][v], z = m->pos[2][v];
    for (int r = 0; r < 3; r++) out[r] = e[4 * r] * x + e[4 * r + 1] * y + e[4 * r + 2] * z + e[4 * r + 3];
}

static double dist2(const double x[3], const pb_pose *g, size_t j)
{
    double d = 0;
    for (int k = 0; k < 3; k++) d += (x[k] - g->plane[PB_POS_X + k][j]) * (x[k] - g->plane[PB_POS_X + k][j]);
    return d;
}

/* the band's summed squared distance from joint j: of the two rigid images (their mean), or of s */
static double band_r2(const frame_state *f, const pb_skinned *s, const pb_mesh *m, size_t j, size_t p,
                      const uint32_t *band, size_t nb)
{
    double sum = 0;
    for (size_t i = 0; i < nb; i++) {
        double a[3], b[3];
        if (s) {
            double x[3] = { s->pos[0][band[i]], s->pos[1][band[i]], s->pos[2][band[i]] };
            sum += dist2(x, &f->glob, j);
            continue;
        }
        apply(f->mat.data + p * PB_PALETTE_MAT_FLOATS, m, band[i], a);
        apply(f->mat.data + j * PB_PALETTE_MAT_FLOATS, m, band[i], b);
        sum += 0.5 * (dist2(a, &f->glob, j) + dist2(b, &f->glob, j));
    }
    return sum;
}

/* both methods' volume change at the pose in f (palettes of its globals) */
static pb_status band_volume(const frame_state *f, const pb_pose *inv_bind, const pb_mesh *m, size_t j, size_t p,
                             const uint32_t *band, size_t nb, double *lbs, double *dqs)
{
    pb_skinned out = { 0 };
    pb_palette dq = { malloc(f->glob.n * PB_PALETTE_DQ_FLOATS * sizeof(float)), f->glob.n };
    pb_status s = PB_OK;
    double rigid = band_r2(f, NULL, m, j, p, band, nb);
    *lbs = *dqs = 0;
    if (!dq.data) s = pb_fail(PB_ERR_NOMEM, "skin volume: out of memory");
    if (s == PB_OK) s = pb_skinned_alloc(&out, m->n);
    if (s == PB_OK) s = pb_skin_lbs(m, &f->mat, &out);
    if (s == PB_OK && rigid > 0) *lbs = band_r2(f, &out, m, j, p, band, nb) / rigid - 1;
    if (s == PB_OK) s = pb_dq_palette(&f->glob, inv_bind, &dq);
    if (s == PB_OK) s = pb_skin_dqs(m, &dq, &out);
    if (s == PB_OK && rigid > 0) *dqs = band_r2(f, &out, m, j, p, band, nb) / rigid - 1;
    pb_skinned_free(&out);
    free(dq.data);
    return s;
}

pb_status pb_twist_band(const pb_skeleton *sk, const pb_pose *local, const pb_pose *inv_bind, const pb_mesh *m,
                        size_t j, size_t p, const uint32_t *band, size_t nb, int want_volume, double *twist_deg,
                        double *swing_deg, double *lbs_change, double *dqs_change)
{
    frame_state f;
    pb_status s = state_alloc(&f, local->n);
    if (s == PB_OK) s = state_pose(&f, sk, local, inv_bind);
    double tw = 0, sw = 0;
    if (s == PB_OK) twist_swing(&f, j, p, &tw, &sw);
    *twist_deg = tw * DEG_PER_RAD, *swing_deg = sw * DEG_PER_RAD;
    if (s == PB_OK && want_volume) s = band_volume(&f, inv_bind, m, j, p, band, nb, lbs_change, dqs_change);
    state_free(&f);
    return s;
}

/* Every joint's band: the vertices with weight >= PB_TWIST_BAND_W on it and on its parent. first[J + 1]
 * indexes list. */
static pb_status make_bands(const pb_asset *a, uint32_t **first_out, uint32_t **list_out)
{
    const pb_mesh *m = &a->mesh;
    const size_t J = a->joints;
    uint32_t *first = calloc(J + 1, sizeof *first), *list = NULL, *fill = NULL;
    for (int pass = 0; pass < 2 && first; pass++) {
        for (size_t v = 0; v < m->n; v++)
            for (int s = 0; s < m->influences; s++) {
                uint32_t js = m->idx[s][v];
                if (js >= J || !(m->w[s][v] >= PB_TWIST_BAND_W) || a->parents[js] < 0) continue;
                for (int t = 0; t < m->influences; t++)
                    if (t != s && m->idx[t][v] == (uint32_t)a->parents[js] && m->w[t][v] >= PB_TWIST_BAND_W) {
                        if (pass == 0) first[js + 1]++;
                        else list[fill[js]++] = (uint32_t)v;
                        break;
                    }
            }
        if (pass == 0) {
            for (size_t j = 0; j < J; j++) first[j + 1] += first[j];
            list = malloc((first[J] ? first[J] : 1) * sizeof *list);
            fill = malloc(J * sizeof *fill);
            if (!list || !fill) break;
            memcpy(fill, first, J * sizeof *fill);
        }
    }
    free(fill);
    if (!first || !list) {
        free(first), free(list);
        return pb_fail(PB_ERR_NOMEM, "skin volume: out of memory");
    }
    *first_out = first, *list_out = list;
    return PB_OK;
}

pb_status pb_skin_twist(const pb_asset *a, pb_twist_result *r)
{
    memset(r, 0, sizeof *r);
    if (!a->mesh.n || !a->clips) return pb_fail(PB_ERR_PARAM, "skin volume: the model needs a mesh and a clip");
    const size_t J = a->joints;
    uint32_t *first = NULL, *list = NULL;
    pb_skeleton sk = { 0 };
    pb_pose local = { 0 };
    frame_state f = { 0 };
    pb_status s = make_bands(a, &first, &list);
    if (s == PB_OK) s = pb_skeleton_init(&sk, a->parents, J, 1);
    if (s == PB_OK) s = pb_pose_alloc_static(&local, J);
    if (s == PB_OK) s = state_alloc(&f, J);
    double best = -1;
    for (size_t c = 0; s == PB_OK && c < a->clips; c++) {
        const pb_clip *cl = &a->clip[c].clip;
        for (size_t fr = 0; s == PB_OK && fr < cl->frames; fr++) {
            for (int q = 0; q < PB_STATIC_PLANES; q++)
                memcpy(local.plane[q], cl->pose.plane[q] + fr * J, J * sizeof(float));
            if ((s = state_pose(&f, &sk, &local, &a->inv_bind_pose)) != PB_OK) break;
            for (size_t j = 0; j < J; j++) {
                size_t nb = first[j + 1] - first[j];
                if (nb < PB_TWIST_MIN_BAND) continue;
                double t, sw;
                twist_swing(&f, j, (size_t)a->parents[j], &t, &sw);
                if (t > best) {
                    best = t;
                    *r = (pb_twist_result){ 1, j, (size_t)a->parents[j], c, fr, nb, t * DEG_PER_RAD, sw * DEG_PER_RAD, 0, 0, 0 };
                }
            }
        }
    }
    if (s == PB_OK && r->found) {   /* both methods at the most twisted frame */
        const pb_clip *cl = &a->clip[r->clip].clip;
        for (int q = 0; q < PB_STATIC_PLANES; q++)
            memcpy(local.plane[q], cl->pose.plane[q] + r->frame * J, J * sizeof(float));
        s = state_pose(&f, &sk, &local, &a->inv_bind_pose);
        if (s == PB_OK)
            s = band_volume(&f, &a->inv_bind_pose, &a->mesh, r->joint, r->parent, list + first[r->joint], r->band,
                            &r->lbs_change, &r->dqs_change);
        r->scale_dev = fmax(scale_dev(f.mat.data + r->joint * PB_PALETTE_MAT_FLOATS),
                            scale_dev(f.mat.data + r->parent * PB_PALETTE_MAT_FLOATS));
    }
    state_free(&f);
    pb_pose_free(&local);
    pb_skeleton_free(&sk);
    free(first), free(list);
    return s;
}

void pb_skin_twist_print(FILE *out, const pb_asset *a, const pb_twist_result *r)
{
    if (!r->found) {
        fprintf(out, "# model: LBS vs DQS: no joint has %d vertices weighted >= %.1f to it and to its parent\n",
                PB_TWIST_MIN_BAND, (double)PB_TWIST_BAND_W);
        return;
    }
    fprintf(out, "# model: LBS vs DQS at its most twisted joint, %s (parent %s): twist %.1f deg (swing %.1f), clip \"%s\" "
                 "frame %zu; its %zu vertices weighted >= %.1f to both: volume %+.2f %% by LBS, %+.2f %% by DQS (mean "
                 "squared distance from the joint against the rigid images'; docs/asset.md)\n",
            a->names[r->joint], a->names[r->parent], r->twist_deg, r->swing_deg, a->clip[r->clip].name, r->frame, r->band,
            (double)PB_TWIST_BAND_W, 100.0 * r->lbs_change, 100.0 * r->dqs_change);
    if (r->scale_dev > PB_TWIST_RIGID_TOL)
        fprintf(out, "# model: (its palettes scale there, by up to %.3g away from 1: dual quaternions drop scale, so DQS "
                     "skins this character wrong and its figure above is not a volume change)\n", r->scale_dev);
}
