/* pose.c — allocation, layout checks, copy and identity fill of SoA poses. */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const int group_first[PB_GROUPS] = { PB_POS_X, PB_ROT_W, PB_SCL_X, PB_VEL_X, PB_ANG_X, PB_SVL_X };
static const int group_size[PB_GROUPS] = { 3, 4, 3, 3, 3, 3 };
static const char *const group_name[PB_GROUPS] = { "pos", "rot", "scl", "vel", "ang", "svl" };
static const char *const plane_name[PB_PLANES] = {
    "pos.x", "pos.y", "pos.z", "rot.w", "rot.x", "rot.y", "rot.z", "scl.x", "scl.y", "scl.z",
    "vel.x", "vel.y", "vel.z", "ang.x", "ang.y", "ang.z", "svl.x", "svl.y", "svl.z"
};

int pb_group_first(pb_group g) { return (unsigned)g < PB_GROUPS ? group_first[g] : -1; }
int pb_group_size(pb_group g) { return (unsigned)g < PB_GROUPS ? group_size[g] : 0; }
const char *pb_group_name(pb_group g) { return (unsigned)g < PB_GROUPS ? group_name[g] : "?"; }

const char *pb_plane_name(int plane) { return (unsigned)plane < PB_PLANES ? plane_name[plane] : "?"; }

float pb_plane_identity(int plane)
{
    return (plane == PB_ROT_W || (plane >= PB_SCL_X && plane <= PB_SCL_Z)) ? 1.0f : 0.0f;
}

#define PB_GEN_BLOCK 4096
static _Atomic uint64_t gen_next = 1;   /* 0 is a hand-made pose's */
static _Thread_local uint64_t gen_cur, gen_end;
uint64_t pb_generation_next(void)
{
    if (gen_cur == gen_end) {
        gen_cur = atomic_fetch_add_explicit(&gen_next, PB_GEN_BLOCK, memory_order_relaxed);
        gen_end = gen_cur + PB_GEN_BLOCK;
    }
    return gen_cur++;
}

static void fill_identity_range(float *plane, int which, size_t from, size_t to)
{
    float v = pb_plane_identity(which);
    for (size_t i = from; i < to; i++) plane[i] = v;
}

/* Plane pitch: an odd number of cache lines. With a power-of-two stride
 * every plane would start at the same offset in its 4 KiB page, and a kernel
 * streaming 20-30 planes at once (a blend reads 20 and writes 10) would map
 * them all onto the same L1 sets and alias every load with every store. An
 * odd line count is coprime with the 64 lines of a page, so up to 64 planes
 * start on distinct sets. */
#define PB_PLANE_STAGGER 16   /* floats: at most one line added per plane */
static size_t plane_pitch(size_t stride)
{
    size_t lines = stride / PB_PLANE_STAGGER;
    return (lines | 1) * PB_PLANE_STAGGER;
}

/* Largest n whose 19 padded planes fit in a size_t byte count. */
static size_t max_elements(void) { return (SIZE_MAX / sizeof(float) / PB_PLANES) - PB_PAD - PB_PLANE_STAGGER; }

/* np planes (PB_PLANES, or PB_STATIC_PLANES: pos, rot, scl) in one allocation. */
static pb_status alloc_planes(pb_pose *p, size_t n, int np, const char *fn)
{
    if (!p) return pb_fail(PB_ERR_NULL, "%s: pose pointer is NULL", fn);
    memset(p, 0, sizeof *p);
    if (n == 0) return pb_fail(PB_ERR_EMPTY, "%s: n = 0 (a pose needs at least one element)", fn);
    if (n > max_elements()) return pb_fail(PB_ERR_SIZE, "%s: n = %zu is too large to allocate", fn, n);
    size_t stride = pb_padded(n), pitch = plane_pitch(stride);
    size_t bytes = pitch * sizeof(float) * (size_t)np;
    void *mem = aligned_alloc(PB_ALIGN, bytes);
    if (!mem) return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu elements (%zu bytes)", fn, n, bytes);
    p->n = n;
    p->stride = stride;
    p->owned = mem;
    p->gen = pb_generation_next();
    for (int i = 0; i < np; i++) {
        p->plane[i] = (float *)mem + (size_t)i * pitch;
        fill_identity_range(p->plane[i], i, 0, stride);
    }
    return PB_OK;
}
pb_status pb_pose_alloc(pb_pose *p, size_t n) { return alloc_planes(p, n, PB_PLANES, "pb_pose_alloc"); }
pb_status pb_pose_alloc_static(pb_pose *p, size_t n)
{
    return alloc_planes(p, n, PB_STATIC_PLANES, "pb_pose_alloc_static");
}

/* Planes a pose has: all 19, or the 10 of a static pose. */
static int plane_count(float *const *planes) { return planes[PB_VEL_X] ? PB_PLANES : PB_STATIC_PLANES; }

void pb_pose_free(pb_pose *p)
{
    if (!p) return;
    free(p->owned);
    memset(p, 0, sizeof *p);
}

static pb_status check_shape(const char *what, size_t n, size_t stride)
{
    if (n == 0) return pb_fail(PB_ERR_EMPTY, "pose '%s': n = 0 (at least one element required)", what);
    if (stride % PB_PAD != 0)
        return pb_fail(PB_ERR_PADDING, "pose '%s': stride %zu is not a multiple of %d floats", what, stride, PB_PAD);
    if (stride < n) return pb_fail(PB_ERR_SIZE, "pose '%s': stride %zu is smaller than n = %zu", what, stride, n);
    if (n > max_elements()) return pb_fail(PB_ERR_SIZE, "pose '%s': n = %zu is absurdly large", what, n);
    return PB_OK;
}

static pb_status check_planes(const char *what, size_t n, size_t stride, float *const *planes)
{
    int np = plane_count(planes);
    for (int i = 0; i < PB_PLANES; i++) {
        if (i >= np) {
            if (planes[i])
                return pb_fail(PB_ERR_NULL, "pose '%s': plane %s is set but plane %s is NULL (velocity planes are "
                                            "all present, or all NULL for a static pose)", what, plane_name[i],
                               plane_name[PB_VEL_X]);
            continue;
        }
        if (!planes[i])
            return pb_fail(PB_ERR_NULL, "pose '%s': plane %s is NULL%s", what, plane_name[i],
                           i >= PB_STATIC_PLANES ? " (velocity planes are all present, or all NULL for a static pose)"
                                                 : "");
        if ((uintptr_t)planes[i] % PB_ALIGN != 0)
            return pb_fail(PB_ERR_ALIGN, "pose '%s': plane %s at %p is not %d-byte aligned", what, plane_name[i],
                           (void *)planes[i], PB_ALIGN);
    }
    for (int i = 0; i < np; i++) {
        float id = pb_plane_identity(i);
        for (size_t j = n; j < stride; j++)
            if (planes[i][j] != id)
                return pb_fail(PB_ERR_PADDING,
                               "pose '%s': padding lane %zu of plane %s is %g, expected identity %g "
                               "(kernels process whole vectors, so padding must stay identity)",
                               what, j, plane_name[i], (double)planes[i][j], (double)id);
    }
    return PB_OK;
}

pb_status pb_pose_check(const pb_pose *p, const char *what)
{
    if (!what) what = "pose";
    if (!p) return pb_fail(PB_ERR_NULL, "pose '%s' is NULL", what);
    pb_status s = check_shape(what, p->n, p->stride);
    if (s != PB_OK) return s;
    return check_planes(what, p->n, p->stride, p->plane);
}

pb_status pb_pose_check_disjoint(const pb_pose *p, const char *fn, const char *what)
{
    /* pb_pose_alloc's layout (and most others): planes in index order, each ending before the
     * next begins. One pass checks that; only other orders are sorted by address. */
    uintptr_t bytes = p->stride * sizeof(float), end = 0;
    int ordered = 1;
    for (int i = 0; i < PB_PLANES && ordered; i++) {
        if (!p->plane[i]) continue;
        uintptr_t a = (uintptr_t)p->plane[i];
        ordered = a >= end;
        end = a + bytes;
    }
    if (ordered) return PB_OK;
    int idx[PB_PLANES], np = 0;   /* insertion sort by address */
    for (int i = 0; i < PB_PLANES; i++) {
        if (!p->plane[i]) continue;
        int k = np++;
        for (; k > 0 && (uintptr_t)p->plane[idx[k - 1]] > (uintptr_t)p->plane[i]; k--) idx[k] = idx[k - 1];
        idx[k] = i;
    }
    for (int k = 1; k < np; k++)
        if ((uintptr_t)p->plane[idx[k]] - (uintptr_t)p->plane[idx[k - 1]] < bytes)
            return pb_fail(PB_ERR_ALIAS, "%s: pose '%s': plane %s overlaps plane %s (the planes of a pose that is "
                           "written must be separate memory)", fn, what, plane_name[idx[k]], plane_name[idx[k - 1]]);
    return PB_OK;
}

pb_status pb_pose_wrap(pb_pose *p, size_t n, size_t stride, float *const planes[PB_PLANES])
{
    if (!p) return pb_fail(PB_ERR_NULL, "pb_pose_wrap: pose pointer is NULL");
    memset(p, 0, sizeof *p);
    if (!planes) return pb_fail(PB_ERR_NULL, "pb_pose_wrap: planes array is NULL");
    pb_status s = check_shape("wrapped", n, stride);
    if (s == PB_OK) s = check_planes("wrapped", n, stride, planes);
    if (s != PB_OK) return s;
    p->n = n;
    p->stride = stride;
    p->gen = pb_generation_next();
    for (int i = 0; i < plane_count(planes); i++) p->plane[i] = planes[i];
    return PB_OK;
}

pb_status pb_pose_copy(pb_pose *dst, const pb_pose *src)
{
    pb_status s = pb_pose_check(src, "src");
    if (s == PB_OK) s = pb_pose_check(dst, "dst");
    if (s != PB_OK) return s;
    if (dst->n != src->n)
        return pb_fail(PB_ERR_SIZE, "pb_pose_copy: dst has n = %zu, src has n = %zu", dst->n, src->n);
    if (dst == src) return PB_OK;
    if (pb_pose_has_velocities(dst) && !pb_pose_has_velocities(src))
        return pb_fail(PB_ERR_STATIC, "pb_pose_copy: src is a static pose (no plane %s) but dst has velocity planes",
                       plane_name[PB_VEL_X]);
    for (int i = 0; i < plane_count(dst->plane); i++) memmove(dst->plane[i], src->plane[i], src->n * sizeof(float));
    return PB_OK;
}

pb_status pb_pose_fill_identity(pb_pose *p)
{
    if (!p) return pb_fail(PB_ERR_NULL, "pb_pose_fill_identity: pose is NULL");
    pb_status s = check_shape("pose", p->n, p->stride);
    if (s != PB_OK) return s;
    for (int i = 0; i < plane_count(p->plane); i++) {
        if (!p->plane[i]) return pb_fail(PB_ERR_NULL, "pose: plane %s is NULL", plane_name[i]);
        fill_identity_range(p->plane[i], i, 0, p->stride);
    }
    return PB_OK;
}

pb_status pb_pose_count_nonfinite(const pb_pose *p, size_t *count)
{
    if (!count) return pb_fail(PB_ERR_NULL, "pb_pose_count_nonfinite: count is NULL");
    pb_status s = pb_pose_check(p, "pose");
    if (s != PB_OK) return s;
    size_t c = 0;
    for (int i = 0; i < plane_count(p->plane); i++)
        for (size_t j = 0; j < p->n; j++) c += !isfinite(p->plane[i][j]);
    *count = c;
    return PB_OK;
}
