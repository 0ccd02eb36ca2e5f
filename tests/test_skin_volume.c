/* test_skin_volume.c — the LBS-vs-DQS measure at the most twisted joint (validate/skin_volume.h) on
 * known answers: a ring of vertices weighted 1/2 and 1/2 between a joint and its parent on one bone
 * axis, the child twisted by theta about that axis. LBS averages the two rigid images, so the ring's
 * radius becomes r cos(theta / 2) and the volume change cos^2(theta / 2) - 1; DQS blends to a rotation
 * by theta / 2 about the axis and keeps the radius (change 0); the twist reads back theta. Bent by
 * beta across the bone instead: swing beta, no twist, LBS -sin^2(beta / 2) / 2 over the ring, DQS 0. Then the
 * search over a clip's frames picks the frame of the largest twist, and a ring weighted to one joint
 * only has no band (found 0). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "skin_volume.h"

#define RING 24
#define RADIUS 0.1
#define PI 3.14159265358979323846

static void set_twist(pb_pose *p, size_t e, double theta)   /* joint 1 of element block e: at (0,1,0), theta about y */
{
    for (int q = 0; q < PB_STATIC_PLANES; q++) p->plane[q][e] = pb_plane_identity(q);
    p->plane[PB_POS_Y][e] = 1.0f;
    p->plane[PB_ROT_W][e] = (float)cos(theta / 2);
    p->plane[PB_ROT_Y][e] = (float)sin(theta / 2);
}

int main(void)
{
    static const int32_t parents[2] = { -1, 0 };
    pb_skeleton sk = { 0 };
    pb_pose local = { 0 }, inv = { 0 };
    pb_mesh m = { 0 };
    CHECK(pb_skeleton_init(&sk, parents, 2, 1) == PB_OK, "skeleton: %s", pb_last_error());
    CHECK(pb_pose_alloc_static(&local, 2) == PB_OK && pb_pose_alloc_static(&inv, 2) == PB_OK, "poses");
    CHECK(pb_mesh_alloc(&m, RING, 2) == PB_OK, "mesh: %s", pb_last_error());
    if (!local.n || !inv.n || !m.n) return check_done();
    /* bind: joint 0 at the origin, joint 1 at (0,1,0); the inverse binds undo that */
    for (size_t e = 0; e < 2; e++)
        for (int q = 0; q < PB_STATIC_PLANES; q++) inv.plane[q][e] = local.plane[q][e] = pb_plane_identity(q);
    inv.plane[PB_POS_Y][1] = -1.0f;
    uint32_t band[RING];
    for (size_t v = 0; v < RING; v++) {   /* the ring at the joint, half and half */
        double phi = 2 * PI * (double)v / RING;
        m.pos[0][v] = (float)(RADIUS * cos(phi)), m.pos[1][v] = 1.0f, m.pos[2][v] = (float)(RADIUS * sin(phi));
        m.nrm[0][v] = (float)cos(phi), m.nrm[1][v] = 0.0f, m.nrm[2][v] = (float)sin(phi);
        m.idx[0][v] = 0, m.w[0][v] = 0.5f, m.idx[1][v] = 1, m.w[1][v] = 0.5f;
        band[v] = (uint32_t)v;
    }
    static const double deg[] = { 0, 30, 90, 150, 179 };
    for (size_t k = 0; k < sizeof deg / sizeof deg[0]; k++) {
        double th = deg[k] * PI / 180, tw = -1, sw = -1, lbs = 1, dqs = 1;
        set_twist(&local, 1, th);
        CHECK(pb_twist_band(&sk, &local, &inv, &m, 1, 0, band, RING, 1, &tw, &sw, &lbs, &dqs) == PB_OK, "band: %s",
              pb_last_error());
        double want = cos(th / 2) * cos(th / 2) - 1;
        CHECK(fabs(tw - deg[k]) < 1e-3 && fabs(sw) < 1e-3, "twist %g deg: read twist %g, swing %g", deg[k], tw, sw);
        CHECK(fabs(lbs - want) < 1e-5, "twist %g deg: LBS volume change %.7f, want cos^2(theta/2) - 1 = %.7f", deg[k],
              lbs, want);
        CHECK(fabs(dqs) < 1e-5, "twist %g deg: DQS volume change %.7f, want 0", deg[k], dqs);
        printf("twist %5.1f deg: read %7.3f; LBS %+.5f (want %+.5f), DQS %+.1e\n", deg[k], tw, lbs, want, dqs);
        /* bent by the same angle about z (across the bone): swing, no twist; LBS pulls the ring in by
         * -sin^2(beta/2)/2 on average over it, DQS keeps every vertex's distance from the joint */
        double sb = sin(th / 2);
        set_twist(&local, 1, 0);
        local.plane[PB_ROT_W][1] = (float)cos(th / 2), local.plane[PB_ROT_Z][1] = (float)sb;
        CHECK(pb_twist_band(&sk, &local, &inv, &m, 1, 0, band, RING, 1, &tw, &sw, &lbs, &dqs) == PB_OK, "bend: %s",
              pb_last_error());
        CHECK(fabs(tw) < 1e-3 && fabs(sw - deg[k]) < 2e-3, "bend %g deg: read twist %g, swing %g", deg[k], tw, sw);
        CHECK(fabs(lbs + sb * sb / 2) < 1e-5 && fabs(dqs) < 1e-5, "bend %g deg: LBS %.7f (want %.7f), DQS %.7f",
              deg[k], lbs, -sb * sb / 2, dqs);
    }

    /* the search: a 3-frame clip twisting 20, 120 and 60 degrees picks frame 1 */
    char names[2][PB_ASSET_NAME_MAX] = { "root", "wrist" };
    pb_asset a;
    memset(&a, 0, sizeof a);
    pb_asset_clip clip;
    memset(&clip, 0, sizeof clip);
    snprintf(clip.name, sizeof clip.name, "twist");
    CHECK(pb_clip_alloc(&clip.clip, 3, 2, 30) == PB_OK, "clip: %s", pb_last_error());
    static const double frames_deg[3] = { 20, 120, 60 };
    for (size_t f = 0; clip.clip.frames && f < 3; f++) set_twist(&clip.clip.pose, f * 2 + 1, frames_deg[f] * PI / 180);
    a.joints = 2, a.parents = (int32_t *)parents, a.names = names, a.inv_bind_pose = inv, a.mesh = m;
    a.clips = 1, a.clip = &clip;
    pb_twist_result r;
    CHECK(pb_skin_twist(&a, &r) == PB_OK, "search: %s", pb_last_error());
    double th = frames_deg[1] * PI / 180;
    CHECK(r.found && r.joint == 1 && r.parent == 0 && r.clip == 0 && r.frame == 1 && r.band == RING,
          "most twisted: found %d joint %zu parent %zu frame %zu band %zu", r.found, r.joint, r.parent, r.frame, r.band);
    CHECK(fabs(r.twist_deg - 120) < 1e-3 && fabs(r.lbs_change - (cos(th / 2) * cos(th / 2) - 1)) < 1e-5 &&
              fabs(r.dqs_change) < 1e-5,
          "at 120 deg: twist %g, LBS %g, DQS %g", r.twist_deg, r.lbs_change, r.dqs_change);
    pb_skin_twist_print(stdout, &a, &r);
    for (size_t v = 0; v < RING; v++) m.w[0][v] = 1.0f, m.w[1][v] = 0.0f;   /* one joint only: no band */
    CHECK(pb_skin_twist(&a, &r) == PB_OK && !r.found, "no band: found %d", r.found);
    a.clips = 0;
    CHECK(pb_skin_twist(&a, &r) == PB_ERR_PARAM, "no clip: refused");
    pb_clip_free(&clip.clip);
    pb_mesh_free(&m);
    pb_pose_free(&local), pb_pose_free(&inv);
    pb_skeleton_free(&sk);
    return check_done();
}
