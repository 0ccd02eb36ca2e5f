/* metrics.c — how far an output is from the oracle, per element, in units a
 * user can judge: radians of rotation (sign-agnostic), norm drift, metres,
 * relative scale error. All arithmetic in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "validate.h"

static void add(pb_metric *m, int *n, pb_metric_kind kind, int group, const char *name, const char *unit)
{
    m[*n].kind = kind;
    m[*n].group = group;
    snprintf(m[*n].name, sizeof m[*n].name, "%s", name);
    m[*n].unit = unit;
    (*n)++;
}

int pb_metrics_for(const pb_op_info *info, pb_metric *m)
{
    int n = 0;
    if (info->flags & PB_OPF_AOS_OUT) {
        /* group: how many AoS arrays are compared (the velocity ones when the pose has them) */
        add(m, &n, PB_M_AOS_ABS, (info->opt & (1u << PB_G_VEL)) ? PB_AOS_ARRAYS : 3, "aos_abs", "abs");
        return n;
    }
    if (pb_palette_width(info)) {
        add(m, &n, PB_M_PAL_ABS, pb_palette_width(info), "pal_abs", "abs");
        return n;
    }
    if (info->flags & PB_OPF_OBJSPACE) add(m, &n, PB_M_OBJ_SPACE, -1, "objspace", "cm");
    for (int g = 0; g < PB_GROUPS; g++) {
        if (!(info->out & (1u << g))) continue;
        char name[24];
        const char *gn = pb_group_name((pb_group)g);
        if (g == PB_G_ROT) {
            if (info->flags & PB_OPF_SIGNED_ROT) add(m, &n, PB_M_ROT_COMP, g, "rot_comp", "abs");
            else add(m, &n, PB_M_ROT_ANGLE, g, "rot_angle", "rad");
            add(m, &n, PB_M_ROT_NORM, g, "rot_norm", "abs");
        } else if (g == PB_G_SCL) {
            snprintf(name, sizeof name, "%s_rel", gn);
            add(m, &n, PB_M_SCL_REL, g, name, "rel");
        } else {
            snprintf(name, sizeof name, "%s_abs", gn);
            add(m, &n, PB_M_VEC_ABS, g, name, g == PB_G_POS ? "m" : "units");
            snprintf(name, sizeof name, "%s_rel", gn);
            add(m, &n, PB_M_VEC_REL, g, name, "rel");
        }
    }
    return n;
}

int pb_palette_width(const pb_op_info *info)
{
    return (info->flags & PB_OPF_MAT_OUT) ? PB_PALETTE_MAT_FLOATS : (info->flags & PB_OPF_DQ_OUT) ? PB_PALETTE_DQ_FLOATS : 0;
}

static size_t group_floats(uint32_t mask)
{
    size_t c = 0;
    for (int g = 0; g < PB_GROUPS; g++)
        if (mask & (1u << g)) c += (size_t)pb_group_size((pb_group)g);
    return c;
}

void pb_op_floats(pb_op op, size_t *read, size_t *written)
{
    const pb_op_info *info = pb_op_get(op);
    const uint32_t keys = (1u << PB_G_POS) | (1u << PB_G_ROT) | (1u << PB_G_SCL);
    size_t rd = group_floats(info->in_a | (info->in_a ? info->opt : 0)) + group_floats(info->in_b) +
                ((info->flags & PB_OPF_AOS_IN) ? PB_AOS_FLOATS : 0) + ((info->flags & PB_OPF_CLIP_IN) ? group_floats(keys) : 0);
    if (info->flags & PB_OPF_SAMPLE) rd = group_floats(keys) * (op == PB_OP_sample_cubic ? 4 : 2) + (info->in_b ? 5 : 0);
    *read = rd;
    *written = group_floats(info->out | (info->out ? info->opt : 0)) + ((info->flags & PB_OPF_AOS_OUT) ? PB_AOS_FLOATS : 0) +
               (size_t)pb_palette_width(info);
}

int pb_dpose_alloc(pb_dpose *d, size_t n)
{
    memset(d, 0, sizeof *d);
    d->n = n;
    d->n_padded = pb_padded(n);
    for (int i = 0; i < PB_PLANES; i++)
        if (!(d->plane[i] = calloc(d->n_padded, sizeof(double)))) return -1;
    for (int a = 0; a < PB_AOS_ARRAYS; a++)
        if (!(d->aos[a] = calloc(n * (size_t)pb_aos_width[a], sizeof(double)))) return -1;
    if (!(d->pal = calloc(n * PB_PALETTE_MAT_FLOATS + 1, sizeof(double)))) return -1;
    return 0;
}

void pb_dpose_free(pb_dpose *d)
{
    for (int i = 0; i < PB_PLANES; i++) free(d->plane[i]);
    for (int a = 0; a < PB_AOS_ARRAYS; a++) free(d->aos[a]);
    free(d->pal);
    memset(d, 0, sizeof *d);
}

void pb_dpose_from_pose(pb_dpose *d, const pb_pose *p)
{
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < d->n_padded; j++) d->plane[i][j] = p->plane[i][j];
}

void pb_dpose_from_aos(pb_dpose *d, const pb_pose_aos *a)
{
    const float *arr[PB_AOS_ARRAYS] = { &a->pos->x, &a->rot->w, &a->scl->x, &a->vel->x, &a->ang->x, &a->svl->x };
    for (int k = 0; k < PB_AOS_ARRAYS; k++)
        for (size_t j = 0; j < d->n * (size_t)pb_aos_width[k]; j++) d->aos[k][j] = arr[k][j];
}

static double rel(double diff, double ref)
{
    if (diff == 0) return 0;
    return ref == 0 ? INFINITY : diff / ref;
}

double pb_rot_angle(const double q[4], const double p[4])
{
    /* r = conj(q) * p; its angle 2 atan2(|r.xyz|, |r.w|) is accurate at 0 and
     * at pi alike (acos of a dot product loses half the digits near 0) */
    double rw = q[0] * p[0] + q[1] * p[1] + q[2] * p[2] + q[3] * p[3];
    double rx = q[0] * p[1] - q[1] * p[0] - q[2] * p[3] + q[3] * p[2];
    double ry = q[0] * p[2] + q[1] * p[3] - q[2] * p[0] - q[3] * p[1];
    double rz = q[0] * p[3] - q[1] * p[2] + q[2] * p[1] - q[3] * p[0];
    return 2 * atan2(sqrt(rx * rx + ry * ry + rz * rz), fabs(rw));
}

double pb_pose_rot_angle(const pb_pose *x, size_t i, const pb_pose *y, size_t j)
{
    double q[4], p[4];
    for (int c = 0; c < 4; c++) {
        q[c] = x->plane[PB_ROT_W + c][i];
        p[c] = y->plane[PB_ROT_W + c][j];
    }
    return pb_rot_angle(q, p);
}

void pb_metric_eval(const pb_metric *m, const pb_dpose *t, const pb_dpose *o, double *err)
{
    int f = m->group >= 0 ? pb_group_first((pb_group)m->group) : 0;
    for (size_t i = 0; i < t->n; i++) {
        double e = 0;
        switch (m->kind) {
        case PB_M_ROT_ANGLE: {
            const double q[4] = { o->plane[f][i], o->plane[f + 1][i], o->plane[f + 2][i], o->plane[f + 3][i] };
            const double p[4] = { t->plane[f][i], t->plane[f + 1][i], t->plane[f + 2][i], t->plane[f + 3][i] };
            e = pb_rot_angle(q, p);
            break;
        }
        case PB_M_ROT_NORM: {
            double s = 0;
            for (int c = 0; c < 4; c++) s += t->plane[f + c][i] * t->plane[f + c][i];
            e = fabs(sqrt(s) - 1);
            break;
        }
        case PB_M_ROT_COMP:
            for (int c = 0; c < 4; c++) e = fmax(e, fabs(t->plane[f + c][i] - o->plane[f + c][i]));
            break;
        case PB_M_VEC_ABS:
        case PB_M_VEC_REL: {
            double d2 = 0, r2 = 0;
            for (int c = 0; c < 3; c++) {
                double d = t->plane[f + c][i] - o->plane[f + c][i];
                d2 += d * d;
                r2 += o->plane[f + c][i] * o->plane[f + c][i];
            }
            e = m->kind == PB_M_VEC_ABS ? sqrt(d2) : rel(sqrt(d2), sqrt(r2));
            break;
        }
        case PB_M_SCL_REL:
            for (int c = 0; c < 3; c++)
                e = fmax(e, rel(fabs(t->plane[f + c][i] - o->plane[f + c][i]), fabs(o->plane[f + c][i])));
            break;
        case PB_M_SCL_ABS:
            for (int c = 0; c < 3; c++) e = fmax(e, fabs(t->plane[f + c][i] - o->plane[f + c][i]));
            break;
        case PB_M_AOS_ABS:
            for (int a = 0; a < m->group; a++)
                for (int c = 0; c < pb_aos_width[a]; c++) {
                    size_t j = i * (size_t)pb_aos_width[a] + (size_t)c;
                    e = fmax(e, fabs(t->aos[a][j] - o->aos[a][j]));
                }
            break;
        case PB_M_PAL_ABS:
            for (int c = 0; c < m->group; c++) {
                size_t j = i * (size_t)m->group + (size_t)c;
                e = fmax(e, fabs(t->pal[j] - o->pal[j]));
            }
            break;
        case PB_M_OBJ_SPACE: {
            /* vertices p + q (s * d) for d = +-3 cm on each axis, in double */
            for (int ax = 0; ax < 3; ax++)
                for (int sg = -1; sg <= 1; sg += 2) {
                    double d[3] = { 0, 0, 0 }, vt[3], vo[3];
                    const pb_dpose *src[2] = { t, o };
                    double *dst[2] = { vt, vo };
                    d[ax] = 0.03 * sg;
                    for (int w = 0; w < 2; w++) {
                        const pb_dpose *x = src[w];
                        double qw = x->plane[PB_ROT_W][i], qx = x->plane[PB_ROT_X][i], qy = x->plane[PB_ROT_Y][i],
                               qz = x->plane[PB_ROT_Z][i];
                        double v[3] = { d[0] * x->plane[PB_SCL_X][i], d[1] * x->plane[PB_SCL_Y][i],
                                        d[2] * x->plane[PB_SCL_Z][i] };
                        /* v + w t + u x t, t = 2 u x v (unit q; float outputs are unit to 1e-6) */
                        double tx = 2 * (qy * v[2] - qz * v[1]), ty = 2 * (qz * v[0] - qx * v[2]),
                               tz = 2 * (qx * v[1] - qy * v[0]);
                        dst[w][0] = x->plane[PB_POS_X][i] + v[0] + qw * tx + (qy * tz - qz * ty);
                        dst[w][1] = x->plane[PB_POS_Y][i] + v[1] + qw * ty + (qz * tx - qx * tz);
                        dst[w][2] = x->plane[PB_POS_Z][i] + v[2] + qw * tz + (qx * ty - qy * tx);
                    }
                    double dx = vt[0] - vo[0], dy = vt[1] - vo[1], dz = vt[2] - vo[2];
                    e = fmax(e, 100 * sqrt(dx * dx + dy * dy + dz * dz));
                }
            break;
        }
        default:
            break;
        }
        /* A NaN error is a failure, counted separately; keep it visible as +inf. */
        err[i] = isnan(e) ? INFINITY : e;
    }
}

size_t pb_count_nan(const pb_op_info *info, const pb_dpose *t, const pb_dpose *o)
{
    size_t c = 0;
    if (pb_palette_width(info)) {
        for (size_t j = 0; j < t->n * (size_t)pb_palette_width(info); j++) c += !isfinite(t->pal[j]) && isfinite(o->pal[j]);
        return c;
    }
    if (info->flags & PB_OPF_AOS_OUT) {
        for (int a = 0; a < ((info->opt & (1u << PB_G_VEL)) ? PB_AOS_ARRAYS : 3); a++)
            for (size_t j = 0; j < t->n * (size_t)pb_aos_width[a]; j++)
                c += !isfinite(t->aos[a][j]) && isfinite(o->aos[a][j]);
        return c;
    }
    for (int g = 0; g < PB_GROUPS; g++) {
        if (!(info->out & (1u << g))) continue;
        int f = pb_group_first((pb_group)g);
        for (int p = f; p < f + pb_group_size((pb_group)g); p++)
            for (size_t i = 0; i < t->n; i++) c += !isfinite(t->plane[p][i]) && isfinite(o->plane[p][i]);
    }
    return c;
}
