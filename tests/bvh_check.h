/* bvh_check.h — test_bvh's helpers, apart from its tests: the check
 * counters and line printer, warning capture, string loading, double
 * quaternion helpers independent of the loader, and the invariants every
 * loaded clip must satisfy (bvh_check.c). */
#ifndef BVH_CHECK_H
#define BVH_CHECK_H
#include <stddef.h>
#include "posebench/bvh.h"

extern int passed, failed;

/* Warnings captured through the callback. */
typedef struct capture {
    size_t count;
    char text[4096];   /* all messages, separated by " | " */
} capture;
typedef struct dq { double w, x, y, z; } dq;

int check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *why(pb_status s);
void on_warn(void *user, const char *msg);
pb_bvh_options quiet_options(capture *c);
int is_zero(const void *p, size_t n);
pb_status load_str(const char *text, const char *name, const pb_bvh_options *o, pb_bvh_skeleton *sk, pb_clip *cl);
dq qmul(dq a, dq b);
dq qaxis(char axis, double deg);
void maxis(char axis, double deg, double m[3][3]);
void mmul(double a[3][3], double b[3][3], double r[3][3]);
void qmat(dq q, double m[3][3]);
dq clip_rot(const pb_clip *c, size_t frame, size_t joint);
double clip_pos(const pb_clip *c, size_t frame, size_t joint, int axis);
double qdiff(dq a, dq b);
void check_invariants(const char *what, const pb_bvh_skeleton *sk, const pb_clip *cl);
int contains(const char *hay, const char *needle);
#endif
