/* bvh_check.c — the BVH tests' shared helpers (bvh_check.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bvh_check.h"
int passed, failed;

int check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s ", ok ? "ok  " : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok) passed++;
    else failed++;
    return ok;
}

/* " (message)" after a failed call, "" after success: for check() lines. */
const char *why(pb_status s)
{
    static char buf[600];
    if (s == PB_OK) return "";
    snprintf(buf, sizeof buf, " (%s: %.500s)", pb_status_name(s), pb_last_error());
    return buf;
}

int contains(const char *hay, const char *needle) { return strstr(hay, needle) != NULL; }


void on_warn(void *user, const char *msg)
{
    capture *c = user;
    c->count++;
    size_t used = strlen(c->text);
    snprintf(c->text + used, sizeof c->text - used, "%s%s", used ? " | " : "", msg);
}

pb_bvh_options quiet_options(capture *c)
{
    pb_bvh_options o = pb_bvh_default_options();
    memset(c, 0, sizeof *c);
    o.warn = on_warn;
    o.user = c;
    return o;
}

int is_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

pb_status load_str(const char *text, const char *name, const pb_bvh_options *o, pb_bvh_skeleton *sk, pb_clip *cl)
{
    return pb_bvh_load_mem(text, strlen(text), name, o, sk, cl);
}

/* ---- Quaternion helpers (double, independent of the loader) -------------------- */

dq qmul(dq a, dq b)
{
    dq r = { a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
             a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
    return r;
}

dq qaxis(char axis, double deg)
{
    double h = deg * 3.14159265358979323846 / 360.0;
    dq q = { cos(h), 0, 0, 0 };
    if (axis == 'X') q.x = sin(h);
    if (axis == 'Y') q.y = sin(h);
    if (axis == 'Z') q.z = sin(h);
    return q;
}

/* Rotation matrix of one axis (column vectors), and 3x3 product. */
void maxis(char axis, double deg, double m[3][3])
{
    double a = deg * 3.14159265358979323846 / 180.0, c = cos(a), s = sin(a);
    int i = axis == 'X' ? 0 : axis == 'Y' ? 1 : 2, j = (i + 1) % 3, k = (i + 2) % 3;
    memset(m, 0, 9 * sizeof(double));
    m[i][i] = 1;
    m[j][j] = c;
    m[j][k] = -s;
    m[k][j] = s;
    m[k][k] = c;
}

void mmul(double a[3][3], double b[3][3], double r[3][3])
{
    double t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    memcpy(r, t, sizeof t);
}

void qmat(dq q, double m[3][3])
{
    double w = q.w, x = q.x, y = q.y, z = q.z;
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y - w * z);     m[0][2] = 2 * (x * z + w * y);
    m[1][0] = 2 * (x * y + w * z);     m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z - w * x);
    m[2][0] = 2 * (x * z - w * y);     m[2][1] = 2 * (y * z + w * x);     m[2][2] = 1 - 2 * (x * x + y * y);
}

dq clip_rot(const pb_clip *c, size_t frame, size_t joint)
{
    size_t i = frame * c->joints + joint;
    dq q = { c->pose.plane[PB_ROT_W][i], c->pose.plane[PB_ROT_X][i], c->pose.plane[PB_ROT_Y][i],
             c->pose.plane[PB_ROT_Z][i] };
    return q;
}

double clip_pos(const pb_clip *c, size_t frame, size_t joint, int axis)
{
    return c->pose.plane[PB_POS_X + axis][frame * c->joints + joint];
}

/* Largest component difference, sign-agnostic (q and -q are one rotation). */
double qdiff(dq a, dq b)
{
    double d1 = fmax(fmax(fabs(a.w - b.w), fabs(a.x - b.x)), fmax(fabs(a.y - b.y), fabs(a.z - b.z)));
    double d2 = fmax(fmax(fabs(a.w + b.w), fabs(a.x + b.x)), fmax(fabs(a.y + b.y), fabs(a.z + b.z)));
    return fmin(d1, d2);
}

/* ---- Invariants every loaded clip must satisfy ------------------------------------ */
void check_invariants(const char *what, const pb_bvh_skeleton *sk, const pb_clip *cl)
{
    int parents_ok = sk->joints > 0 && sk->parents[0] == -1;
    for (size_t j = 0; j < sk->joints; j++) parents_ok &= sk->parents[j] >= -1 && sk->parents[j] < (int)j;
    check(parents_ok, "%s: parents precede children (root parent -1)", what);
    int ends_ok = 1;
    for (size_t e = 0; e < sk->end_sites; e++) ends_ok &= sk->end_parents[e] >= 0 && (size_t)sk->end_parents[e] < sk->joints;
    check(ends_ok, "%s: End Sites hang from joints", what);
    double worst = 0;
    for (size_t i = 0; i < cl->frames * cl->joints; i++) {
        double w = cl->pose.plane[PB_ROT_W][i], x = cl->pose.plane[PB_ROT_X][i];
        double y = cl->pose.plane[PB_ROT_Y][i], z = cl->pose.plane[PB_ROT_Z][i];
        double e = fabs(sqrt(w * w + x * x + y * y + z * z) - 1.0);
        if (!(e <= worst)) worst = e;   /* NaN propagates as "worst" */
    }
    check(worst < 1e-5, "%s: all %zu rotations are unit quaternions (max |norm-1| = %.2g)", what,
          cl->frames * cl->joints, worst);
    size_t nonfinite = 1;
    check(pb_clip_check(cl) == PB_OK && cl->pose.n == cl->frames * cl->joints &&
              pb_pose_count_nonfinite(&cl->pose, &nonfinite) == PB_OK && nonfinite == 0,
          "%s: pb_clip_check passes (n = frames*joints, layout, identity padding), all finite", what);
    int names_ok = 1;
    for (size_t j = 0; j < sk->joints; j++) names_ok &= sk->names[j][0] != '\0';
    check(names_ok && cl->joints == sk->joints, "%s: names non-empty, clip joints = skeleton joints", what);
}
