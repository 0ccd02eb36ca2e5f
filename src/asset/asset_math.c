/* asset_math.c — the importer's double-precision 4x4 algebra and the unit /
 * axis conversion C M C^-1 (asset_int.h). Set-up code: run once per import. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "asset_int.h"

void am_identity(amat *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 0; i < 4; i++) a->m[i][i] = 1.0;
}

void am_from_ai(amat *out, const struct aiMatrix4x4 *in)
{
    const float *r[4] = { &in->a1, &in->b1, &in->c1, &in->d1 };
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) out->m[i][j] = r[i][j];
}

void am_mul(amat *out, const amat *a, const amat *b)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a->m[i][k] * b->m[k][j];
            out->m[i][j] = s;
        }
}

int am_finite(const amat *a)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (!isfinite(a->m[i][j])) return 0;
    return 1;
}

static double col_norm(const amat *a, int j)
{
    return sqrt(a->m[0][j] * a->m[0][j] + a->m[1][j] * a->m[1][j] + a->m[2][j] * a->m[2][j]);
}

static double det3(const amat *a)
{
    const double (*m)[4] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

int am_inverse(amat *out, const amat *a)
{
    const double (*m)[4] = a->m;
    double big = fmax(col_norm(a, 0), fmax(col_norm(a, 1), col_norm(a, 2)));
    double d = det3(a);
    if (!(big > 0) || !(fabs(d) > 1e-9 * big * big * big) || !isfinite(d)) return 0;
    double r[3][3] = {
        { m[1][1] * m[2][2] - m[1][2] * m[2][1], m[0][2] * m[2][1] - m[0][1] * m[2][2], m[0][1] * m[1][2] - m[0][2] * m[1][1] },
        { m[1][2] * m[2][0] - m[1][0] * m[2][2], m[0][0] * m[2][2] - m[0][2] * m[2][0], m[0][2] * m[1][0] - m[0][0] * m[1][2] },
        { m[1][0] * m[2][1] - m[1][1] * m[2][0], m[0][1] * m[2][0] - m[0][0] * m[2][1], m[0][0] * m[1][1] - m[0][1] * m[1][0] },
    };
    am_identity(out);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out->m[i][j] = r[i][j] / d;
    for (int i = 0; i < 3; i++)
        out->m[i][3] = -(out->m[i][0] * m[0][3] + out->m[i][1] * m[1][3] + out->m[i][2] * m[2][3]);
    return 1;
}

void am_rot_to_quat(const amat *r, double q[4])
{
    const double (*m)[4] = r->m;
    double t = m[0][0] + m[1][1] + m[2][2];
    if (t > 0) {
        double s = 2.0 * sqrt(t + 1.0);
        q[0] = 0.25 * s, q[1] = (m[2][1] - m[1][2]) / s, q[2] = (m[0][2] - m[2][0]) / s, q[3] = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        q[0] = (m[2][1] - m[1][2]) / s, q[1] = 0.25 * s, q[2] = (m[0][1] + m[1][0]) / s, q[3] = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        q[0] = (m[0][2] - m[2][0]) / s, q[1] = (m[0][1] + m[1][0]) / s, q[2] = 0.25 * s, q[3] = (m[1][2] + m[2][1]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        q[0] = (m[1][0] - m[0][1]) / s, q[1] = (m[0][2] + m[2][0]) / s, q[2] = (m[1][2] + m[2][1]) / s, q[3] = 0.25 * s;
    }
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++) q[i] /= n;
    if (q[0] < 0)
        for (int i = 0; i < 4; i++) q[i] = -q[i];
}

int am_to_kform(const amat *a, double pos[3], double rot[4], double scl[3])
{
    amat r;
    am_identity(&r);
    for (int j = 0; j < 3; j++) {
        scl[j] = col_norm(a, j);
        if (!(scl[j] > 0)) return 0;
    }
    if (det3(a) < 0) scl[0] = -scl[0];
    for (int i = 0; i < 3; i++) {
        pos[i] = a->m[i][3];
        for (int j = 0; j < 3; j++) r.m[i][j] = a->m[i][j] / scl[j];
    }
    am_rot_to_quat(&r, rot);
    return 1;
}

void aconv_matrix(const aconv *k, const amat *in, amat *out)
{
    if (!k->on) {
        *out = *in;
        return;
    }
    amat t;
    am_mul(&t, &k->c, in);
    am_mul(out, &t, &k->c_inv);
}

void aconv_dir(const aconv *k, const double in[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = k->on ? k->sign[i] * in[k->perm[i]] : in[i];
    memcpy(out, t, sizeof t);
}

void aconv_point(const aconv *k, const double in[3], double out[3])
{
    aconv_dir(k, in, out);
    if (k->on)
        for (int i = 0; i < 3; i++) out[i] *= k->scale;
}

static void qmul(const double a[4], const double b[4], double o[4])
{
    o[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    o[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    o[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    o[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void aconv_quat(const aconv *k, const double in[4], double out[4])
{
    if (!k->on) {
        memmove(out, in, 4 * sizeof *in);
        return;
    }
    double t[4], pc[4] = { k->pq[0], -k->pq[1], -k->pq[2], -k->pq[3] };
    qmul(k->pq, in, t);
    qmul(t, pc, out);
}

void aconv_scale(const aconv *k, const double in[3], double out[3])
{
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = k->on ? in[k->perm[i]] : in[i];
    memcpy(out, t, sizeof t);
}
