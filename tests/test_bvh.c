/* test_bvh.c — tests for the BVH loader (src/bvh.c).
 *
 * Usage: test_bvh CORPUS_DIR [MOCAP_DIR]
 *   CORPUS_DIR  tests/bvh: every NAME.bvh there has a NAME.expect whose line 1
 *               is the expected status name (PB_OK, PB_ERR_PARSE, ...), line 2
 *               a substring the error message must contain (for PB_OK: a
 *               substring some warning must contain, or empty for "no
 *               warning"), and an optional line 3 "strict" to load in strict mode.
 *   MOCAP_DIR   real files (default /usr/share/assimp/models/BVH, from the
 *               Debian package assimp-testmodels); skipped when absent.
 * Prints one line per check and, last, "N passed, M failed". Exit status is
 * non-zero when a check failed. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bvh_check.h"


/* ---- Argument errors ------------------------------------------------------------------ */
static const char tiny[] =
    "HIERARCHY\n"
    "ROOT Hips\n"
    "{\n"
    "  OFFSET 1 2 3\n"
    "  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "  End Site\n"
    "  {\n"
    "    OFFSET 0 1 0\n"
    "  }\n"
    "}\n"
    "MOTION\n"
    "Frames: 1\n"
    "Frame Time: 0.04\n"
    "90 0 0\n";

static void test_args(void)
{
    pb_bvh_skeleton sk;
    pb_clip cl;
    pb_bvh_options o = pb_bvh_default_options();
    check(o.unit_scale == 1.0f && o.max_joints == 1024 && o.max_elements == 2097152 && o.max_depth == 64 && !o.strict &&
          o.max_bytes == (size_t)128 << 20,
          "default options: unit_scale 1, 1024 joints, 2097152 keys, 128 MiB, depth 64, not strict");
    check(pb_bvh_load(NULL, NULL, &sk, &cl) == PB_ERR_NULL, "load: NULL path -> PB_ERR_NULL");
    check(pb_bvh_load("x.bvh", NULL, NULL, &cl) == PB_ERR_NULL, "load: NULL skel -> PB_ERR_NULL");
    check(pb_bvh_load("x.bvh", NULL, &sk, NULL) == PB_ERR_NULL, "load: NULL clip -> PB_ERR_NULL");
    check(pb_bvh_load_mem(NULL, 5, "m", NULL, &sk, &cl) == PB_ERR_NULL, "load_mem: NULL data, size 5 -> PB_ERR_NULL");
    check(pb_bvh_load_mem(NULL, 0, "m", NULL, &sk, &cl) == PB_ERR_PARSE && contains(pb_last_error(), "m:1: empty file"),
          "load_mem: NULL data, size 0 -> PB_ERR_PARSE empty file (%s)", pb_last_error());

    struct { const char *what; pb_bvh_options o; } bad[9];
    int nb = 0;
    for (int i = 0; i < 9; i++) bad[i].o = pb_bvh_default_options();
    bad[nb].what = "unit_scale 0"; bad[nb++].o.unit_scale = 0;
    bad[nb].what = "unit_scale -1"; bad[nb++].o.unit_scale = -1;
    bad[nb].what = "unit_scale NaN"; bad[nb++].o.unit_scale = NAN;
    bad[nb].what = "unit_scale Inf"; bad[nb++].o.unit_scale = INFINITY;
    bad[nb].what = "max_joints 0"; bad[nb++].o.max_joints = 0;
    bad[nb].what = "max_depth 0"; bad[nb++].o.max_depth = 0;
    bad[nb].what = "max_depth 5000"; bad[nb++].o.max_depth = 5000;
    bad[nb].what = "max_frames 0"; bad[nb++].o.max_frames = 0;
    bad[nb].what = "max_bytes 0"; bad[nb++].o.max_bytes = 0;
    for (int i = 0; i < nb; i++) {
        memset(&sk, 0xAB, sizeof sk);
        memset(&cl, 0xAB, sizeof cl);
        pb_status s = load_str(tiny, "t", &bad[i].o, &sk, &cl);
        check(s == PB_ERR_PARAM && is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl),
              "options %s -> PB_ERR_PARAM, outputs zeroed (%s)", bad[i].what, pb_last_error());
    }

    memset(&sk, 0xAB, sizeof sk);
    memset(&cl, 0xAB, sizeof cl);
    pb_status s = pb_bvh_load("/nonexistent/dir/missing.bvh", NULL, &sk, &cl);
    check(s == PB_ERR_IO && contains(pb_last_error(), "missing.bvh") && is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl),
          "missing file -> PB_ERR_IO naming the file, outputs zeroed (%s)", pb_last_error());
    s = pb_bvh_load("/", NULL, &sk, &cl);
    check(s == PB_ERR_IO, "a directory -> PB_ERR_IO (%s)", pb_last_error());

    pb_bvh_skeleton_free(NULL);
    pb_clip_free(NULL);
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);
    check(1, "free functions accept NULL and zeroed structs");
}

/* ---- Euler -> quaternion ------------------------------------------------------------------ */
/* Files that are not regular files are refused before a byte is read (a FIFO
 * used to block in fopen forever; /dev/zero read until memory ran out), and a
 * file over max_bytes is refused naming the file and the limit. */
static void test_not_regular(void)
{
    pb_bvh_skeleton sk;
    pb_clip cl;
    char dir[] = "/tmp/test_bvh_XXXXXX", fifo[64], big[64];
    if (!check(mkdtemp(dir) != NULL, "mkdtemp")) return;
    snprintf(fifo, sizeof fifo, "%s/f.bvh", dir);
    snprintf(big, sizeof big, "%s/big.bvh", dir);
    if (check(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo)) {
        pb_status s = pb_bvh_load(fifo, NULL, &sk, &cl);   /* would block here before the fix */
        check(s == PB_ERR_IO && contains(pb_last_error(), fifo) && contains(pb_last_error(), "FIFO") &&
                  contains(pb_last_error(), "not a regular file") && is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl),
              "a FIFO -> PB_ERR_IO naming it, without blocking (%s)", pb_last_error());
        unlink(fifo);
    }
    pb_status s = pb_bvh_load("/dev/zero", NULL, &sk, &cl);
    check(s == PB_ERR_IO && contains(pb_last_error(), "/dev/zero: is a character device"),
          "/dev/zero -> PB_ERR_IO, not read until memory runs out (%s)", pb_last_error());
    s = pb_bvh_load(dir, NULL, &sk, &cl);
    check(s == PB_ERR_IO && contains(pb_last_error(), dir), "a directory -> PB_ERR_IO (%s)", pb_last_error());
    FILE *f = fopen(big, "wb");
    if (check(f != NULL, "create %s", big)) {
        fwrite(tiny, 1, sizeof tiny - 1, f);
        fclose(f);
        pb_bvh_options o = pb_bvh_default_options();
        o.max_bytes = sizeof tiny - 2;   /* one byte short */
        s = pb_bvh_load(big, &o, &sk, &cl);
        char want[64];
        snprintf(want, sizeof want, "more than the limit of %zu bytes", o.max_bytes);
        check(s == PB_ERR_SIZE && contains(pb_last_error(), big) && contains(pb_last_error(), want) &&
                  is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl),
              "a file over max_bytes -> PB_ERR_SIZE naming the file and the limit (%s)", pb_last_error());
        s = pb_bvh_load_mem(tiny, sizeof tiny - 1, "m", &o, &sk, &cl);
        check(s == PB_ERR_SIZE && contains(pb_last_error(), want), "load_mem over max_bytes -> PB_ERR_SIZE (%s)",
              pb_last_error());
        o.max_bytes = sizeof tiny - 1;   /* exactly the file */
        s = pb_bvh_load(big, &o, &sk, &cl);
        check(s == PB_OK, "a file of exactly max_bytes loads (%s)", s == PB_OK ? "ok" : pb_last_error());
        pb_bvh_skeleton_free(&sk);
        pb_clip_free(&cl);
        unlink(big);
    }
    rmdir(dir);
}

static void test_single_z90(void)
{
    pb_bvh_skeleton sk;
    pb_clip cl;
    capture c;
    pb_bvh_options o = quiet_options(&c);
    pb_status s = load_str(tiny, "tiny.bvh", &o, &sk, &cl);
    if (!check(s == PB_OK, "tiny: loads%s", why(s))) return;
    check(sk.joints == 1 && sk.end_sites == 1 && cl.frames == 1 && cl.warnings == 0 && c.count == 0,
          "tiny: 1 joint (End Site is not a joint), 1 End Site, 1 frame, no warnings");
    check(strcmp(sk.names[0], "Hips") == 0 && sk.parents[0] == -1 && sk.end_parents[0] == 0 &&
              sk.end_offsets[0][1] == 1.0f,
          "tiny: name, root parent -1, End Site offset kept");
    check(fabs(cl.fps - 25.0f) < 1e-4 && cl.frame_time == 0.04f, "tiny: frame time 0.04 -> 25 fps (%g)", (double)cl.fps);
    check(clip_pos(&cl, 0, 0, 0) == 1 && clip_pos(&cl, 0, 0, 1) == 2 && clip_pos(&cl, 0, 0, 2) == 3,
          "tiny: no position channels -> local position = OFFSET");
    double h = sqrt(0.5);
    dq want = { h, 0, 0, h }, got = clip_rot(&cl, 0, 0);
    check(fabs(got.w - want.w) < 1e-6 && fabs(got.x) < 1e-7 && fabs(got.y) < 1e-7 && fabs(got.z - want.z) < 1e-6,
          "tiny: Zrotation 90 -> (cos45, 0, 0, sin45), got (%.7f, %.7f, %.7f, %.7f)", got.w, got.x, got.y, got.z);
    check(cl.pose.plane[PB_SCL_X][0] == 1 && cl.pose.plane[PB_VEL_X][0] == 0, "tiny: other planes stay identity");
    check_invariants("tiny", &sk, &cl);
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);
    check(is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl), "tiny: free zeroes the structs");
}

static const char order_bvh[] =
    "HIERARCHY\n"
    "ROOT root\n"
    "{\n"
    "\tOFFSET 100 200 300\n"
    "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "\tJOINT a\n"
    "\t{\n"
    "\t\tOFFSET 10 0 0\n"
    "\t\tCHANNELS 3 Yrotation Xrotation Zrotation\n"
    "\t\tEnd Site\n"
    "\t\t{\n"
    "\t\t\tOFFSET 0 5 0\n"
    "\t\t}\n"
    "\t}\n"
    "\tJOINT b\n"
    "\t{\n"
    "\t\tOFFSET 0 -10 0\n"
    "\t\tCHANNELS 3 Xrotation Yrotation Zrotation\n"
    "\t\tJOINT c\n"
    "\t\t{\n"
    "\t\t\tOFFSET 1 1 1\n"
    "\t\t\tCHANNELS 6 Xrotation Zposition Yrotation Xposition Zrotation Yposition\n"
    "\t\t}\n"
    "\t}\n"
    "}\n"
    "MOTION\n"
    "Frames: 2\n"
    "Frame Time: 0.0083333\n"
    "1 2 3 30 45 60 10 20 30 -45 90 170 15 7 -25 8 35 9\n"
    "4 5 6 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

static void test_order(void)
{
    pb_bvh_skeleton sk;
    pb_clip cl;
    capture c;
    pb_bvh_options o = quiet_options(&c);
    o.unit_scale = 0.01f;
    pb_status s = load_str(order_bvh, "order.bvh", &o, &sk, &cl);
    if (!check(s == PB_OK, "order: loads%s", why(s))) return;
    check(sk.joints == 4 && cl.frames == 2 && sk.end_sites == 1, "order: 4 joints, 2 frames, 1 End Site");
    check(sk.parents[0] == -1 && sk.parents[1] == 0 && sk.parents[2] == 0 && sk.parents[3] == 2,
          "order: parents -1 0 0 2");
    check(!strcmp(sk.names[0], "root") && !strcmp(sk.names[1], "a") && !strcmp(sk.names[2], "b") &&
              !strcmp(sk.names[3], "c"),
          "order: names in file order");
    check(fabs(sk.offsets[0][0] - 1.0) < 1e-6 && fabs(sk.offsets[2][1] + 0.1) < 1e-7 &&
              fabs(sk.end_offsets[0][1] - 0.05) < 1e-7,
          "order: OFFSETs (joints and End Site) scaled by unit_scale 0.01");
    check(fabs(clip_pos(&cl, 0, 0, 0) - 0.01) < 1e-7 && fabs(clip_pos(&cl, 0, 0, 1) - 0.02) < 1e-7 &&
              fabs(clip_pos(&cl, 1, 0, 2) - 0.06) < 1e-7,
          "order: root position channels replace its OFFSET (scaled)");
    check(fabs(clip_pos(&cl, 0, 1, 0) - 0.1) < 1e-7 && fabs(clip_pos(&cl, 1, 2, 1) + 0.1) < 1e-7,
          "order: joints without position channels get their OFFSET (scaled)");
    check(fabs(clip_pos(&cl, 0, 3, 0) - 0.08) < 1e-7 && fabs(clip_pos(&cl, 0, 3, 1) - 0.09) < 1e-7 &&
              fabs(clip_pos(&cl, 0, 3, 2) - 0.07) < 1e-7,
          "order: interleaved position channels land on their axes");
    check(fabs(cl.fps - 120.0f) < 0.01f, "order: Frame Time 0.0083333 -> %.4f fps", (double)cl.fps);

    struct { size_t joint; const char *axes; double deg[3]; } cases[] = {
        { 0, "ZXY", { 30, 45, 60 } },
        { 1, "YXZ", { 10, 20, 30 } },
        { 2, "XYZ", { -45, 90, 170 } },
        { 3, "XYZ", { 15, -25, 35 } },   /* c lists Xrotation, Yrotation, Zrotation among positions */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *ax = cases[k].axes;
        dq want = qmul(qmul(qaxis(ax[0], cases[k].deg[0]), qaxis(ax[1], cases[k].deg[1])), qaxis(ax[2], cases[k].deg[2]));
        dq got = clip_rot(&cl, 0, cases[k].joint);
        check(qdiff(got, want) < 2e-7, "order: joint %zu, %c%c%c = (%g, %g, %g): q = q%c*q%c*q%c (diff %.2g)",
              cases[k].joint, ax[0], ax[1], ax[2], cases[k].deg[0], cases[k].deg[1], cases[k].deg[2], ax[0], ax[1], ax[2],
              qdiff(got, want));
        /* Independent of quaternion conventions: compare rotation matrices. */
        double m0[3][3], m1[3][3], m2[3][3], mq[3][3], md = 0;
        maxis(ax[0], cases[k].deg[0], m0);
        maxis(ax[1], cases[k].deg[1], m1);
        maxis(ax[2], cases[k].deg[2], m2);
        mmul(m0, m1, m0);
        mmul(m0, m2, m0);
        qmat(got, mq);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) md = fmax(md, fabs(mq[i][j] - m0[i][j]));
        check(md < 1e-6, "order: joint %zu matrix of q = R%c*R%c*R%c on column vectors (diff %.2g)", cases[k].joint, ax[0],
              ax[1], ax[2], md);
        dq reversed = qmul(qmul(qaxis(ax[2], cases[k].deg[2]), qaxis(ax[1], cases[k].deg[1])), qaxis(ax[0], cases[k].deg[0]));
        check(qdiff(got, reversed) > 1e-2, "order: joint %zu differs from the reversed order (rotations do not commute)",
              cases[k].joint);
    }
    dq id = { 1, 0, 0, 0 };
    int all_id = 1;
    for (size_t j = 0; j < 4; j++) all_id &= qdiff(clip_rot(&cl, 1, j), id) == 0;
    check(all_id, "order: zero angles -> exact identity quaternions");
    check_invariants("order", &sk, &cl);
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);
}

/* ---- Warnings, strict mode, limits ----------------------------------------------------------- */
static void test_warnings(void)
{
    static const char mismatch[] =
        "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n}\n"
        "MOTION\nFrames: 5\nFrame Time: 0.01\n1 2 3\n4 5 6\n7 8 9\n";
    pb_bvh_skeleton sk;
    pb_clip cl;
    capture c;
    pb_bvh_options o = quiet_options(&c);
    pb_status s = load_str(mismatch, "mm.bvh", &o, &sk, &cl);
    check(s == PB_OK && cl.frames == 3 && cl.warnings == 1 && c.count == 1 && contains(c.text, "mm.bvh:8:") &&
              contains(c.text, "5") && contains(c.text, "3 complete"),
          "header Frames: 5 with 3 rows -> 3 frames, one warning naming file:line and counts (%s)", c.text);
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);

    pb_bvh_options plain = pb_bvh_default_options();
    s = load_str(mismatch, "mm.bvh", &plain, &sk, &cl);
    check(s == PB_OK && cl.warnings == 1, "no callback: the warning goes to stderr and is still counted");
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);

    o.strict = 1;
    s = load_str(mismatch, "mm.bvh", &o, &sk, &cl);
    check(s == PB_ERR_PARSE && contains(pb_last_error(), "mm.bvh:8:") && is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl),
          "strict: the same file -> PB_ERR_PARSE with file:line, outputs zeroed (%s)", pb_last_error());

    static const char cut[] =
        "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n}\n"
        "MOTION\nFrames: 3\nFrame Time: 0.01\n1 2 3\n4 5 6\n7 8";
    o = quiet_options(&c);
    s = load_str(cut, "cut.bvh", &o, &sk, &cl);
    check(s == PB_OK && cl.frames == 2 && c.count == 2 && contains(c.text, "cut.bvh:12: last motion row has 2 of 3"),
          "file cut off mid-row -> last row dropped with a warning (%s)", c.text);
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);
    o.strict = 1;
    s = load_str(cut, "cut.bvh", &o, &sk, &cl);
    check(s == PB_ERR_PARSE && contains(pb_last_error(), "cut.bvh:12:"), "strict: cut-off row -> PB_ERR_PARSE (%s)",
          pb_last_error());

    /* Limits: a header claiming a huge count must not allocate from it. */
    static const char huge[] =
        "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n}\n"
        "MOTION\nFrames: 1000000000000\nFrame Time: 0.01\n1 2 3\n";
    o = quiet_options(&c);
    s = load_str(huge, "huge.bvh", &o, &sk, &cl);
    check(s == PB_ERR_PARSE && contains(pb_last_error(), "huge.bvh:8:"), "Frames: 10^12 -> PB_ERR_PARSE (%s)",
          pb_last_error());
    o.max_frames = 2000000000000ull > (size_t)-1 ? (size_t)-1 : (size_t)2000000000000ull;
    s = load_str(huge, "huge.bvh", &o, &sk, &cl);
    check(s == PB_OK && cl.frames == 1 && c.count == 1,
          "Frames: 10^12 under a raised max_frames -> warning, 1 frame, no huge allocation");
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);

    o = quiet_options(&c);
    o.max_joints = 3;
    s = load_str(order_bvh, "order.bvh", &o, &sk, &cl);
    check(s == PB_ERR_PARSE && contains(pb_last_error(), "order.bvh:19: more than 3 joints"),
          "max_joints 3 with 4 joints -> PB_ERR_PARSE (%s)", pb_last_error());
    o = quiet_options(&c);
    o.max_elements = 7;
    s = load_str(order_bvh, "order.bvh", &o, &sk, &cl);
    check(s == PB_ERR_PARSE && contains(pb_last_error(), "order.bvh:30:"), "max_elements 7 with 2x4 -> PB_ERR_PARSE (%s)",
          pb_last_error());
    o = quiet_options(&c);
    o.max_depth = 2;
    s = load_str(order_bvh, "order.bvh", &o, &sk, &cl);
    check(s == PB_ERR_PARSE && contains(pb_last_error(), "order.bvh:10: End Site nested 3 deep") &&
              contains(pb_last_error(), "max_depth"),
          "max_depth 2 with an End Site at depth 3 -> PB_ERR_PARSE (%s)", pb_last_error());
    check(is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl), "limits: outputs zeroed after failure");
}

/* Every prefix of a valid file loads or fails cleanly (ASan/LSan check the
 * "leak nothing" part), and every failure names the file and a line. */
static void test_prefixes(const char *text, const char *name)
{
    size_t n = strlen(text), ok = 0, bad = 0, worst = 0;
    capture c;
    pb_bvh_options o = quiet_options(&c);
    for (size_t len = 0; len <= n; len++) {
        pb_bvh_skeleton sk;
        pb_clip cl;
        pb_status s = pb_bvh_load_mem(text, len, name, &o, &sk, &cl);
        if (s == PB_OK) {
            ok++;
            pb_bvh_skeleton_free(&sk);
            pb_clip_free(&cl);
        } else if (s == PB_ERR_PARSE && !strncmp(pb_last_error(), name, strlen(name)) &&
                   pb_last_error()[strlen(name)] == ':' && is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl)) {
            ok++;
        } else {
            bad++;
            worst = len;
        }
    }
    check(bad == 0, "%s: all %zu prefixes load or fail with 'name:line:' and zeroed outputs (bad at %zu)", name, n + 1,
          worst);
}

/* ---- Real motion capture ------------------------------------------------------------------------ */

/* First three numbers of the first motion row, read independently of the loader. */
static int first_row(const char *path, double v[3])
{
    FILE *f = fopen(path, "r");
    char line[8192];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Frame Time:", 11)) {
            found = fgets(line, sizeof line, f) && sscanf(line, "%lf %lf %lf", &v[0], &v[1], &v[2]) == 3;
            break;
        }
    if (f) fclose(f);
    return found;
}

static void test_real(const char *dir)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        printf("skipped: real motion capture (%s not found; apt-get install assimp-testmodels)\n", dir ? dir : "no dir");
        return;
    }
    closedir(d);
    struct { const char *file; size_t joints, frames; double fps; int header_mismatch; } files[] = {
        { "01_01.bvh", 31, 2752, 120.0, 0 },
        { "01_03.bvh", 31, 4511, 120.0, 0 },
        { "Boxing_Toes.bvh", 21, 3070, 100.0, 1 },   /* header says 3069, 3070 rows follow */
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[k].file);
        FILE *f = fopen(path, "rb");
        if (!f) {
            printf("skipped: %s (not present)\n", path);
            continue;
        }
        fclose(f);
        pb_bvh_skeleton sk;
        pb_clip cl;
        capture c;
        pb_bvh_options o = quiet_options(&c);
        pb_status s = pb_bvh_load(path, &o, &sk, &cl);
        if (!check(s == PB_OK, "%s: loads%s", files[k].file, why(s))) continue;
        check(sk.joints == files[k].joints, "%s: %zu joints (expected %zu)", files[k].file, sk.joints, files[k].joints);
        check(cl.frames == files[k].frames, "%s: %zu frames (expected %zu)", files[k].file, cl.frames, files[k].frames);
        check(fabs(cl.fps - files[k].fps) < 0.01, "%s: %.4f fps (expected %g)", files[k].file, (double)cl.fps,
              files[k].fps);
        check_invariants(files[k].file, &sk, &cl);
        double row[3];
        if (first_row(path, row))
            check(fabs(clip_pos(&cl, 0, 0, 0) - row[0]) < 1e-4 && fabs(clip_pos(&cl, 0, 0, 2) - row[2]) < 1e-4,
                  "%s: root position of frame 0 = first row's position channels", files[k].file);
        if (files[k].header_mismatch) {
            check(cl.warnings == 1 && c.count == 1 && contains(c.text, "Boxing_Toes.bvh:128:") &&
                      contains(c.text, "3069") && contains(c.text, "3070"),
                  "%s: header/rows mismatch -> one warning with file:line and counts (%s)", files[k].file, c.text);
        } else {
            check(cl.warnings == 0 && c.count == 0, "%s: no warnings", files[k].file);
        }
        pb_bvh_skeleton_free(&sk);
        pb_clip_free(&cl);

        /* Units: OFFSETs and positions scale. */
        pb_bvh_skeleton sk2;
        pb_clip cl2;
        o.unit_scale = 0.01f;
        s = pb_bvh_load(path, &o, &sk2, &cl2);
        if (s == PB_OK) {
            check(fabs(clip_pos(&cl2, 0, 0, 0) - 0.01 * row[0]) < 1e-5, "%s: unit_scale 0.01 scales positions",
                  files[k].file);
            pb_bvh_skeleton_free(&sk2);
            pb_clip_free(&cl2);
        } else {
            check(0, "%s: loads with unit_scale 0.01 (%s)", files[k].file, pb_last_error());
        }

        o.unit_scale = 1;
        o.strict = 1;
        s = pb_bvh_load(path, &o, &sk, &cl);
        if (files[k].header_mismatch) {
            check(s == PB_ERR_PARSE && contains(pb_last_error(), "Boxing_Toes.bvh:128:") &&
                      contains(pb_last_error(), "Frames: 3069"),
                  "%s: strict -> PB_ERR_PARSE with file:line (%s)", files[k].file, pb_last_error());
        } else {
            check(s == PB_OK, "%s: strict mode loads too", files[k].file);
            pb_bvh_skeleton_free(&sk);
            pb_clip_free(&cl);
        }
    }
}

/* ---- Corpus ------------------------------------------------------------------------------------ */

static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) break;
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        char *b = realloc(buf, cap * 2 + 1);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    *size = n;
    return buf;
}

static int is_bvh(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 4 && !strcmp(e->d_name + n - 4, ".bvh");
}

static void run_corpus_file(const char *dir, const char *file)
{
    char path[1024], expect_path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(expect_path, sizeof expect_path, "%.*s.expect", (int)strlen(path) - 4, path);
    size_t esize;
    char *exp = read_all(expect_path, &esize);
    if (!check(exp != NULL, "corpus %s: has a .expect file", file)) return;
    char *lines[3] = { "", "", "" };
    char *p = exp;
    for (int i = 0; i < 3 && *p; i++) {
        lines[i] = p;
        p += strcspn(p, "\r\n");
        if (*p == '\r') *p++ = '\0';
        if (*p == '\n') *p++ = '\0';
    }
    capture c;
    pb_bvh_options o = quiet_options(&c);
    o.strict = !strcmp(lines[2], "strict");
    pb_bvh_skeleton sk;
    pb_clip cl;
    pb_status s = pb_bvh_load(path, &o, &sk, &cl);
    char msg[600];
    snprintf(msg, sizeof msg, "%.500s", s == PB_OK ? c.text : pb_last_error());
    int ok = !strcmp(pb_status_name(s), lines[0]);
    if (s == PB_OK) {
        ok &= lines[1][0] ? contains(c.text, lines[1]) : c.count == 0;
        if (ok) check_invariants(file, &sk, &cl);
    } else {
        ok &= contains(pb_last_error(), lines[1]) && is_zero(&sk, sizeof sk) && is_zero(&cl, sizeof cl);
    }
    check(ok, "corpus %s%s: %s [%s] (got %s: %s)", file, o.strict ? " (strict)" : "", lines[0], lines[1],
          pb_status_name(s), msg);
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);

    /* The memory entry point must agree with the file one, message included. */
    size_t size;
    char *data = read_all(path, &size);
    char first[512];
    snprintf(first, sizeof first, "%s", pb_last_error());
    capture c2;
    pb_bvh_options o2 = quiet_options(&c2);
    o2.strict = o.strict;
    pb_status s2 = data ? pb_bvh_load_mem(data, size, path, &o2, &sk, &cl) : PB_ERR_IO;
    check(s2 == s && (s != PB_OK ? !strcmp(first, pb_last_error()) : !strcmp(c.text, c2.text)),
          "corpus %s: pb_bvh_load_mem gives the same result", file);
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);
    free(data);
    free(exp);
}

static void test_corpus(const char *dir)
{
    struct dirent **list;
    int n = scandir(dir, &list, is_bvh, alphasort);
    if (!check(n > 0, "corpus %s: has .bvh files", dir)) return;
    for (int i = 0; i < n; i++) {
        run_corpus_file(dir, list[i]->d_name);
        free(list[i]);
    }
    free(list);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR [MOCAP_DIR]\n", argv[0]);
        return 2;
    }
    test_args();
    test_not_regular();
    test_single_z90();
    test_order();
    test_warnings();
    test_prefixes(tiny, "tiny.bvh");
    test_prefixes(order_bvh, "order.bvh");
    test_real(argc > 2 ? argv[2] : "/usr/share/assimp/models/BVH");
    test_corpus(argv[1]);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
