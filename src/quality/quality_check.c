/* quality_check.c — pb_quality_measure's argument checks, all of them before
 * anything is computed (quality.h lists them): a window is refused whole,
 * its first bad element named. */
#include <math.h>
#include <stdio.h>

#include "internal.h"   /* pb_fail */
#include "quality_int.h"

static pb_status check_clip(const char *name, const pb_clip *c, const pb_clip *out, size_t J)
{
    if (!c) return pb_fail(PB_ERR_NULL, "quality window: %s is NULL", name);
    pb_status st = pb_clip_check(c);
    if (st != PB_OK) {
        char msg[256];   /* pb_fail writes the buffer pb_last_error reads */
        snprintf(msg, sizeof msg, "%s", pb_last_error());
        return pb_fail(st, "quality window: %s: %s", name, msg);
    }
    if (c->joints != J)
        return pb_fail(PB_ERR_SIZE, "quality window: %s has %zu joints, the window's skeleton %zu (another skeleton)", name,
                       c->joints, J);
    if (c->frames != out->frames)
        return pb_fail(PB_ERR_SIZE, "quality window: %s has %zu frames, out %zu", name, c->frames, out->frames);
    if (!(isfinite(c->frame_time) && c->frame_time > 0) || c->frame_time != out->frame_time)
        return pb_fail(PB_ERR_PARAM, "quality window: %s's frame_time %g (out's %g): not finite and > 0, or they differ",
                       name, (double)c->frame_time, (double)out->frame_time);
    for (size_t f = 0; f < c->frames; f++)
        for (size_t j = 0; j < J; j++) {
            size_t e = f * J + j;
            double n2 = 0;
            for (int pl = PB_POS_X; pl <= PB_ROT_Z; pl++) {
                float x = c->pose.plane[pl][e];
                if (!isfinite(x))
                    return pb_fail(PB_ERR_PARAM, "quality window: %s frame %zu joint %zu %s = %g: not finite", name, f, j,
                                   pb_plane_name(pl), (double)x);
                if (pl >= PB_ROT_W) n2 += (double)x * x;
            }
            if (fabs(sqrt(n2) - 1) > 1e-3)
                return pb_fail(PB_ERR_PARAM, "quality window: %s frame %zu joint %zu rotation of length %g: not unit", name,
                               f, j, sqrt(n2));
        }
    return PB_OK;
}

pb_status pbq_check(const pb_quality_window *w, const pb_quality *q)
{
    if (!w) return pb_fail(PB_ERR_NULL, "quality: the window w is NULL");
    if (!q) return pb_fail(PB_ERR_NULL, "quality: the result q is NULL");
    if (w->joints == 0) return pb_fail(PB_ERR_EMPTY, "quality window: joints is 0");
    if (!w->parents) return pb_fail(PB_ERR_NULL, "quality window: parents is NULL");
    for (size_t j = 0; j < w->joints; j++)
        if (w->parents[j] < -1 || (w->parents[j] >= 0 && (size_t)w->parents[j] >= j))
            return pb_fail(PB_ERR_PARAM, "quality window: parents[%zu] = %d: not -1 or below %zu", j, (int)w->parents[j], j);
    if (!w->out) return pb_fail(PB_ERR_NULL, "quality window: out is NULL");
    pb_status st;
    if ((st = check_clip("out", w->out, w->out, w->joints)) != PB_OK) return st;
    if ((st = check_clip("src", w->src, w->out, w->joints)) != PB_OK) return st;
    if ((st = check_clip("dst", w->dst, w->out, w->joints)) != PB_OK) return st;
    if (w->nswitches == 0) return pb_fail(PB_ERR_EMPTY, "quality window: no switches (nswitches 0)");
    if (!w->switches) return pb_fail(PB_ERR_NULL, "quality window: switches is NULL");
    size_t F = w->out->frames;
    if (w->switches[0] < 3)
        return pb_fail(PB_ERR_PARAM, "quality window: switches[0] = %zu: below 3 (the source's frames before it)",
                       w->switches[0]);
    for (size_t i = 0; i < w->nswitches; i++) {
        if (w->switches[i] >= F)
            return pb_fail(PB_ERR_SIZE, "quality window: switches[%zu] = %zu: past the last frame (%zu frames)", i,
                           w->switches[i], F);
        if (i && w->switches[i] <= w->switches[i - 1])
            return pb_fail(PB_ERR_PARAM, "quality window: switches[%zu] = %zu: not after switches[%zu] = %zu", i,
                           w->switches[i], i - 1, w->switches[i - 1]);
    }
    if (F - w->switches[0] < 2)
        return pb_fail(PB_ERR_EMPTY, "quality window: %zu frame(s) from switches[0] = %zu: a window needs at least 2",
                       F - w->switches[0], w->switches[0]);
    if (!w->lo != !w->hi) return pb_fail(PB_ERR_NULL, "quality window: %s is NULL but not %s", w->lo ? "hi" : "lo",
                                          w->lo ? "lo" : "hi");
    if (w->lo)
        for (size_t i = 0; i < 3 * w->joints; i++)
            if (!isfinite(w->lo[i]) || !isfinite(w->hi[i]) || w->lo[i] > w->hi[i])
                return pb_fail(PB_ERR_PARAM, "quality window: joint %zu axis %zu range [%g, %g]: not finite or lo > hi",
                               i / 3, i % 3, (double)w->lo[i], (double)w->hi[i]);
    if (w->nfeet && !w->feet) return pb_fail(PB_ERR_NULL, "quality window: feet is NULL (nfeet %zu)", w->nfeet);
    for (size_t i = 0; i < w->nfeet; i++)
        if (w->feet[i] < 0 || (size_t)w->feet[i] >= w->joints)
            return pb_fail(PB_ERR_PARAM, "quality window: feet[%zu] = %d: not a joint (0 .. %zu)", i, (int)w->feet[i],
                           w->joints - 1);
    if (!isfinite(w->contact_height))
        return pb_fail(PB_ERR_PARAM, "quality window: contact_height %g: not finite", (double)w->contact_height);
    return PB_OK;
}
