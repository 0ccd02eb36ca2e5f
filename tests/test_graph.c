/* test_graph.c — the blend graph (posebench/graph.h), by checks that do not
 * come from a reference:
 *   - the default graph on the synthetic character and the CMU clips, every
 *     variant: finite output, unit rotations; every method fires and some
 *     transitions interrupt running ones; the states each frame are the
 *     same in every variant (control reads only the parameters) and the
 *     poses agree with scalar within rounding; a run is deterministic; a
 *     crowd of 20 computes its characters bit for bit as the first 20 of a
 *     crowd of 37 (the gathering by method is exact); a character in no
 *     transition shows its state pose; joints outside both layer masks keep
 *     the state machine's output;
 *   - continuity: where a transition starts, the output steps by little
 *     more than the new state's own motion, against a cut's jump;
 *   - a two-state graph, per method: the transition fires on the frame its
 *     condition holds, runs its duration and then shows the new state pose
 *     exactly; interrupted half-way, the output stays continuous;
 *   - refusals: each bad definition names what is wrong; a NaN parameter
 *     names the character and parameter and changes nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "all_variants.h"
#include "check.h"
#include "refuse.h"
#include "pose_check.h"
#include "cmu_scene.h"
#include "posebench/posebench.h"

#define CHARS 37   /* not a multiple of any vector width */
#define FEW 20     /* the smaller crowd: its characters are the first 20 of CHARS */
#define FRAMES_DEFAULT 180   /* PB_TEST_GRAPH_FRAMES overrides it (cross builds: 90) */
static int FRAMES = FRAMES_DEFAULT;
#define SEED 11
#define DT (1.0f / 60.0f)

typedef struct {
    int16_t *states;    /* FRAMES x CHARS */
    size_t fired[PB_GM_COUNT], interrupted;
    double cont_excess, cut_jump;   /* medians over the transition starts */
    size_t starts;
} run_log;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Character k's largest rotation step over its joints but the roots from pose a to b (dead blending's roots
 * take the destination's: the controller drives them). */
static const int32_t *parents_of;
static double char_step(const pb_pose *a, const pb_pose *b, size_t J, size_t C, size_t k)
{
    double w = 0;
    for (size_t j = 0; j < J; j++)
        if (parents_of[j] >= 0) w = dmax(w, pb_pose_rot_angle(a, j * C + k, b, j * C + k));
    return w;
}

/* FRAMES frames of g's default graph; out of the last frame into last (out);
 * mix, pose compared per frame. */
static void run(const pb_graph_scene *g, const pb_scene *sc, const pb_variant *v, size_t chars, run_log *log,
                pb_pose *last)
{
    pb_graph_crowd c;
    CHECK(pb_graph_crowd_init(&c, &g->def, g->clips, 3, sc->parents, chars, SEED) == PB_OK, "init: %s", pb_last_error());
    pb_pose prev2;   /* the output two frames back */
    if (!poses_alloc(c.n, 1, &prev2)) return;
    int16_t *was = malloc(chars * sizeof *was);
    parents_of = sc->parents;
    size_t J = c.joints, nstart = 0, bad_unit = 0, bad_finite = 0, bad_copy = 0;
    double *exc = malloc(FRAMES * chars * sizeof *exc), *cut = malloc(FRAMES * chars * sizeof *cut), layer_gap = 0;
    for (int f = 0; f < FRAMES; f++) {
        pb_graph_scene_drive(g, &c, SEED, DT);
        pb_status s = PB_OK;
        for (int st = 0; st < PB_GS_COUNT && s == PB_OK; st++) s = pb_graph_crowd_stage(&c, v, (pb_graph_stage)st);
        CHECK(s == PB_OK, "%s frame %d: %s (%s)", pb_variant_name(v), f, pb_last_error(), c.failed ? c.failed : "?");
        if (s != PB_OK) break;
        size_t nf = 0;
        pb_pose_count_nonfinite(&c.global, &nf);
        bad_finite += nf;
        for (size_t e = 0; e < c.n; e++) {
            double q = 0;
            for (int i = 0; i < 4; i++) q += (double)c.out.plane[PB_ROT_W + i][e] * c.out.plane[PB_ROT_W + i][e];
            bad_unit += fabs(sqrt(q) - 1) > 1e-5;
        }
        for (size_t k = 0; k < chars; k++) {
            if (log->states) log->states[(size_t)f * chars + k] = c.state[k];
            if (c.method[k] < 0)   /* no transition: the state pose itself */
                for (int p = 0; p < PB_PLANES; p++)
                    for (size_t j = 0; j < J; j++) bad_copy += c.mix.plane[p][j * chars + k] != c.pose.plane[p][j * chars + k];
            /* transition starts (not loops of a state onto itself): the output's step beyond its step the frame
             * before, against a cut's (the output to the new state pose) */
            if (c.began[k] && f > 0 && was[k] != c.state[k]) {
                exc[nstart] = char_step(&c.prev, &c.mix, J, chars, k) - char_step(&prev2, &c.prev, J, chars, k);
                cut[nstart++] = char_step(&c.prev, &c.pose, J, chars, k);
            }
            for (size_t j = 0; j < J; j++)   /* joints neither layer touches */
                if (g->upper[j] == 0 && g->chest[j] == 0)
                    layer_gap = dmax(layer_gap, pb_pose_rot_angle(&c.out, j * chars + k, &c.mix, j * chars + k));
        }
        for (int p = 0; p < PB_PLANES; p++) memcpy(prev2.plane[p], c.prev.plane[p], c.n * sizeof(float));
        memcpy(was, c.state, chars * sizeof *was);
        pb_graph_crowd_advance(&c, DT);
    }
    CHECK(bad_finite == 0 && bad_unit == 0, "%s: %zu non-finite globals, %zu non-unit rotations", pb_variant_name(v),
          bad_finite, bad_unit);
    CHECK(bad_copy == 0, "%s: %zu values of characters in no transition differ from their state pose",
          pb_variant_name(v), bad_copy);
    CHECK(layer_gap <= 1e-6, "%s: joints outside both masks moved by the layers by %.3g rad", pb_variant_name(v), layer_gap);
    memcpy(log->fired, c.fired, sizeof c.fired);
    log->interrupted = c.interrupted;
    log->starts = nstart;
    qsort(exc, nstart, sizeof *exc, cmp_double);
    qsort(cut, nstart, sizeof *cut, cmp_double);
    log->cont_excess = nstart ? exc[nstart / 2] : 0, log->cut_jump = nstart ? cut[nstart / 2] : 0;
    /* the last frame's output is in c.prev after advance */
    if (last) pb_pose_copy(last, &c.prev);
    free(exc), free(cut), free(was);
    pb_pose_free(&prev2);
    pb_graph_crowd_free(&c);
}

static void scene_runs(const pb_scene *sc)
{
    pb_graph_scene g;
    CHECK(pb_graph_scene_default(&g, sc) == PB_OK, "%s: %s", sc->name, pb_last_error());
    if (!g.upper) return;
    const pb_variant *scalar = NULL;
    for (size_t i = 0; pb_all_variant_at(i); i++)
        if (!strcmp(pb_variant_name(pb_all_variant_at(i)), "scalar")) scalar = pb_all_variant_at(i);
    size_t n = sc->joints * CHARS, nf = sc->joints * FEW;
    pb_pose ref, out, again, few;
    if (!poses_alloc(n, 3, &ref, &out, &again) || !poses_alloc(nf, 1, &few)) return;
    run_log rl = { .states = malloc(FRAMES * CHARS * sizeof(int16_t)) }, vl = { .states = malloc(FRAMES * CHARS * sizeof(int16_t)) };
    run(&g, sc, scalar, CHARS, &rl, &ref);
    for (int m = PB_GM_CROSSFADE; m < PB_GM_COUNT; m++)
        CHECK(rl.fired[m] > 0, "%s: no %s transition in %d frames", sc->name, pb_graph_method_name(m), FRAMES);
    CHECK(rl.interrupted > 0, "%s: no transition interrupted another", sc->name);
    /* measured (scalar): the output steps beyond the new state's own motion by a median of 0.003 (synthetic)
     * and 0.002 rad (CMU) where a transition starts, against a cut's 0.33 and 0.19 */
    fprintf(stderr, "%s: %zu transition starts: excess step median %.4f rad, a cut's %.4f; fired", sc->name, rl.starts,
            rl.cont_excess, rl.cut_jump);
    for (int m = 0; m < PB_GM_COUNT; m++) fprintf(stderr, " %s %zu", pb_graph_method_name(m), rl.fired[m]);
    fprintf(stderr, ", interrupted %zu\n", rl.interrupted);
    CHECK(rl.starts > 10 && rl.cont_excess < 0.1 * rl.cut_jump, "%s: excess %.4f vs cut %.4f over %zu starts", sc->name,
          rl.cont_excess, rl.cut_jump, rl.starts);
    for (size_t i = 0; pb_all_variant_at(i); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        run(&g, sc, v, CHARS, &vl, &out);
        CHECK(!memcmp(vl.states, rl.states, FRAMES * CHARS * sizeof(int16_t)) && !memcmp(vl.fired, rl.fired, sizeof rl.fired),
              "%s %s: other states than scalar's", sc->name, pb_variant_name(v));
        pose_gap gap = pose_gap_of(&out, &ref);
        /* measured after 240 frames: up to 2e-5 rad, 3e-6 m, velocities 2e-3 (CMU keys turning a joint by up to pi
         * between frames make velocities of 100 rad/s, where float rounding is 1e-5 relative) */
        CHECK(gap.rot < 1e-4 && gap.scl < 1e-5, "%s %s vs scalar: " POSE_GAP_FMT, sc->name, pb_variant_name(v),
              POSE_GAP_ARGS(gap));
        run_log tl = { 0 };
        size_t diff = 0;
        if (i == 0) {   /* deterministic: the first variant twice */
            run(&g, sc, v, CHARS, &tl, &again);
            for (int p = 0; p < PB_PLANES; p++) diff += memcmp(again.plane[p], out.plane[p], n * sizeof(float)) != 0;
            CHECK(diff == 0, "%s %s: two runs differ in %zu planes", sc->name, pb_variant_name(v), diff);
        }
        run(&g, sc, v, FEW, &tl, &few);
        diff = 0;
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t j = 0; j < sc->joints; j++)
                for (size_t k = 0; k < FEW; k++) diff += few.plane[p][j * FEW + k] != out.plane[p][j * CHARS + k];
        CHECK(diff == 0, "%s %s: a crowd of %d differs from the first %d of %d in %zu values", sc->name,
              pb_variant_name(v), FEW, FEW, CHARS, diff);
    }
    free(rl.states), free(vl.states);
    pb_pose_free(&ref), pb_pose_free(&out), pb_pose_free(&again), pb_pose_free(&few);
    pb_graph_scene_free(&g);
}

/* Two states, A and B (one motion each), "go" > 0.5 goes to B and < 0.5 back to A, by method m. */
static void two_states(pb_graph_def *d, pb_graph_method m, float dur)
{
    memset(d, 0, sizeof *d);
    d->params = 1;
    strcpy(d->param[0], "go");
    d->motions = 2;
    d->motion[0] = (pb_graph_motion){ "a", 0, 0.1f, 1.1f };
    d->motion[1] = (pb_graph_motion){ "b", 1, 0.3f, 1.3f };
    d->states = 2;
    for (int s = 0; s < 2; s++) {
        strcpy(d->state[s].name, s ? "B" : "A");
        d->state[s].samples = 1, d->state[s].motion[0] = s, d->state[s].px = d->state[s].py = -1;
        d->state[s].loop_method = PB_GM_INERTIALIZE, d->state[s].loop_duration = 0.2f;
    }
    d->transitions = 2;
    d->transition[0] = (pb_graph_transition){ 0, 1, 1, { { 0, PB_GC_GREATER, 0.5f } }, dur, m, { PB_CURVE_SMOOTHSTEP, 0, 0, 0, 0 } };
    d->transition[1] = (pb_graph_transition){ 1, 0, 1, { { 0, PB_GC_LESS, 0.5f } }, dur, m, { PB_CURVE_SMOOTHSTEP, 0, 0, 0, 0 } };
    d->halflife = 0.1f;
}

/* Per method: go at frame 5 fires at once and lasts its duration; then the state pose exactly. Interrupted: the
 * largest output step at the interruption is within a bound of the steps around it. */
static void methods(const pb_scene *sc)
{
    parents_of = sc->parents;
    const pb_clip *clips[2] = { &sc->clip[0], &sc->clip[1] };
    static pb_graph_def d;
    for (int m = 0; m < PB_GM_COUNT; m++) {
        float dur = 0.25f;   /* 15 frames */
        two_states(&d, (pb_graph_method)m, dur);
        for (int interrupt = 0; interrupt < 2; interrupt++) {
            pb_graph_crowd c;
            CHECK(pb_graph_crowd_init(&c, &d, clips, 2, sc->parents, 3, 1) == PB_OK, "%s", pb_last_error());
            pb_pose prev;
            if (!poses_alloc(c.n, 1, &prev)) return;
            double step_max = 0, step_at = 0;
            int ended = -1;
            for (int f = 0; f < 40; f++) {
                for (size_t k = 0; k < 3; k++) c.param[k] = (f >= 5 && !(interrupt && f >= 12)) ? 1.0f : 0.0f;
                CHECK(pb_graph_crowd_step(&c, NULL, DT) == PB_OK, "%s", pb_last_error());
                /* after the step the output is in c.prev, the frame before's in prev */
                if (f >= 1) {
                    double st = char_step(&prev, &c.prev, c.joints, 3, 0);
                    if (f == 12 && interrupt) step_at = st;
                    else step_max = dmax(step_max, st);
                }
                pb_pose_copy(&prev, &c.prev);
                if (f == 5) CHECK(c.state[0] == 1 && (m == PB_GM_CUT ? c.method[0] < 0 : c.method[0] == m),
                                  "%s: frame 5: state %d method %d", pb_graph_method_name(m), c.state[0], c.method[0]);
                if (!interrupt && ended < 0 && c.method[0] < 0 && f >= 5) ended = f;
            }
            if (!interrupt) {
                /* the transition's frames: 5 .. 5 + 15 - 1 (since = dt at its first frame); it is over after the
                 * advance of frame 18 (since reaches 0.25 s) */
                CHECK(m == PB_GM_CUT ? ended == 5 : ended == 5 + 13, "%s: ended at frame %d", pb_graph_method_name(m), ended);
                size_t diff = 0;
                for (int p = 0; p < PB_PLANES; p++)
                    for (size_t e = 0; e < c.n; e++) diff += c.prev.plane[p][e] != c.pose.plane[p][e];
                CHECK(diff == 0, "%s: after the transition the output is not the state pose (%zu values)",
                      pb_graph_method_name(m), diff);
            } else if (m != PB_GM_CUT) {
                CHECK(c.interrupted == 3, "%s: %zu interruptions of 3 characters' transitions", pb_graph_method_name(m), c.interrupted);
                /* a continuous start: the step at the interruption within twice the largest elsewhere */
                CHECK(step_at <= 2 * step_max, "%s: interrupted: step %.4f rad against %.4f elsewhere",
                      pb_graph_method_name(m), step_at, step_max);
            }
            pb_pose_free(&prev);
            pb_graph_crowd_free(&c);
        }
    }
}

/* A cross-fade's weight follows its transition's curve: the blend's per-member weight and rate each frame are
 * pb_curve_eval's at since / duration (the loop's cross-fades, no transition's, keep smoothstep). */
static void curves(const pb_scene *sc)
{
    parents_of = sc->parents;
    const pb_clip *clips[2] = { &sc->clip[0], &sc->clip[1] };
    static pb_graph_def d;
    const float dur = 0.25f;
    two_states(&d, PB_GM_CROSSFADE, dur);
    const pb_curve curve = { PB_CURVE_BEZIER, 0.25f, 0.1f, 0.25f, 1.0f }, smooth = { PB_CURVE_SMOOTHSTEP, 0, 0, 0, 0 };
    d.transition[0].curve = curve;
    pb_graph_crowd c;
    CHECK(pb_graph_crowd_init(&c, &d, clips, 2, sc->parents, 3, 1) == PB_OK, "%s", pb_last_error());
    int frames = 0, weights = 1, differs = 0;
    for (int f = 0; f < 20; f++) {
        for (size_t k = 0; k < 3; k++) c.param[k] = f >= 5 ? 1.0f : 0.0f;
        for (int s = 0; s < PB_GS_COUNT; s++) CHECK(pb_graph_crowd_stage(&c, NULL, (pb_graph_stage)s) == PB_OK, "%s", pb_last_error());
        if (c.method[0] == PB_GM_CROSSFADE && c.active[PB_GM_CROSSFADE] == 3) {
            float dw, w = pb_curve_eval(&curve, c.since[0] / c.duration[0], &dw);
            for (size_t i = 0; i < 3; i++) weights &= c.palpha[i] == w && c.prate[i] == dw / c.duration[0];
            differs += w != pb_curve_eval(&smooth, c.since[0] / c.duration[0], NULL);
            frames++;
        }
        pb_graph_crowd_advance(&c, DT);
    }
    CHECK(frames == 14, "the cross-fade ran %d frames with 3 members, not 14", frames);
    CHECK(weights, "the cross-fade's weights or rates are not its transition's bezier curve");
    CHECK(differs >= 12, "the bezier weight equals smoothstep's on %d of %d frames", frames - differs, frames);
    pb_graph_crowd_free(&c);
}

static void refusals(const pb_scene *sc)
{
    const pb_clip *clips[2] = { &sc->clip[0], &sc->clip[1] };
    static pb_graph_def d, good;
    two_states(&good, PB_GM_INERTIALIZE, 0.2f);
    CHECK(pb_graph_check(&good, clips, 2) == PB_OK, "%s", pb_last_error());
#define BAD(want, what, change)            \
    do {                                   \
        d = good;                          \
        change;                            \
        REFUSE(want, what, pb_graph_check(&d, clips, 2)); \
    } while (0)
    BAD(PB_ERR_PARAM, "transition 1 goes from state 1 to state 7", d.transition[1].to = 7);
    BAD(PB_ERR_PARAM, "reads parameter 3", d.transition[0].cond[0].param = 3);
    BAD(PB_ERR_PARAM, "condition 0 compares with nan", d.transition[0].cond[0].value = NAN);
    BAD(PB_ERR_PARAM, "transition 0 has duration inf", d.transition[0].duration = INFINITY);
    BAD(PB_ERR_PARAM, "transition 1 has method 9", d.transition[1].method = (pb_graph_method)9);
    /* cuts both ways on exclusive conditions can never chain: accepted; on overlapping ones: refused */
    d = good, d.transition[0].method = PB_GM_CUT, d.transition[1].duration = 0;
    CHECK(pb_graph_check(&d, clips, 2) == PB_OK, "exclusive zero-duration cycle refused: %s", pb_last_error());
    BAD(PB_ERR_PARAM, "can hold at once: A -> B -> A",
        (d.transition[0].method = PB_GM_CUT, d.transition[1].duration = 0, d.transition[1].cond[0].value = 0.7f));
    BAD(PB_ERR_PARAM, "to itself", d.transition[1].to = 1);
    BAD(PB_ERR_PARAM, "motion 1 (\"b\") is [0.3, 99]", d.motion[1].end = 99);
    BAD(PB_ERR_PARAM, "plays clip 2", d.motion[1].clip = 2);
    BAD(PB_ERR_PARAM, "state 1 (\"B\") plays motion 5", d.state[1].motion[0] = 5);
    BAD(PB_ERR_PARAM, "states 0 and 1 are both named \"A\"", strcpy(d.state[1].name, "A"));
    BAD(PB_ERR_PARAM, "start state 2", d.start = 2);
    BAD(PB_ERR_PARAM, "halflife nan", d.halflife = NAN);
    BAD(PB_ERR_SIZE, "0 states", d.states = 0);
    BAD(PB_ERR_PARAM, "transition 0 has curve linear with method inertialize: only a cross-fade",
        d.transition[0].curve.kind = PB_CURVE_LINEAR);
    BAD(PB_ERR_PARAM, "transition 1: bezier control value x2 is 1.5",
        (d.transition[1].method = PB_GM_CROSSFADE, d.transition[1].curve = (pb_curve){ PB_CURVE_BEZIER, 0.5f, 0, 1.5f, 1 }));
    static const float mask[64] = { 0.5f, 2.0f };
    BAD(PB_ERR_PARAM, "layer 0 mask[1] is 2",
        (d.layers = 1, d.layer[0] = (pb_graph_layer){ PB_GL_ADDITIVE, 0, -1, mask }));
    /* a barycentric space over collinear points: pb_bspace's refusal, prefixed with the state */
    BAD(PB_ERR_PARAM, "state 0 (\"A\"): pb_bspace_create",
        (d.state[0].samples = 3, d.state[0].motion[1] = d.state[0].motion[2] = 1, d.state[0].space = PB_BSPACE_BARYCENTRIC,
         d.state[0].px = d.state[0].py = 0, d.state[0].x[1] = 1, d.state[0].x[2] = 2));
#undef BAD
    /* a NaN parameter at run time: refused, naming character and parameter; nothing changes */
    pb_graph_crowd c;
    CHECK(pb_graph_crowd_init(&c, &good, clips, 2, sc->parents, 5, 1) == PB_OK, "%s", pb_last_error());
    for (int f = 0; f < 3; f++) CHECK(pb_graph_crowd_step(&c, NULL, DT) == PB_OK, "%s", pb_last_error());
    c.param[3] = 1, c.param[4] = NAN;
    int16_t before[5];
    memcpy(before, c.state, sizeof before);
    REFUSE(PB_ERR_PARAM, "character 4's parameter \"go\" is nan", pb_graph_crowd_stage(&c, NULL, PB_GS_CONTROL));
    CHECK(!memcmp(before, c.state, sizeof before) && c.method[3] < 0, "a refused control stage changed states");
    REFUSE(PB_ERR_PARAM, "stage 9", pb_graph_crowd_stage(&c, NULL, (pb_graph_stage)9));
    REFUSE(PB_ERR_PARAM, "dt is -1", pb_graph_crowd_step(&c, NULL, -1));
    pb_graph_crowd_free(&c);
    REFUSE(PB_ERR_EMPTY, "0 characters", pb_graph_crowd_init(&c, &good, clips, 2, sc->parents, 0, 1));
    REFUSE(PB_ERR_NULL, "parents", pb_graph_crowd_init(&c, &good, clips, 2, NULL, 4, 1));
}

/* The default graph needs clips of 1 s: one of 31 frames at 0.0333333 s (bandai1_walk_normal_002.bvh) lasts
 * 0.999999 s and is 1 s to the precision its frame time was written with; 30 frames are not, and the
 * message says what the graph needs. (The clips: the synthetic scene's first frames at that rate.) */
static void clip_rounding(const pb_scene *syn)
{
    const float fps = (float)(1 / 0.0333333);
    for (size_t frames = 31; frames >= 30; frames--) {
        pb_scene sc = *syn;
        int ok = 1;
        for (int k = 0; k < 2; k++) {
            ok &= pb_clip_alloc(&sc.clip[k], frames, syn->joints, fps) == PB_OK;
            for (int q = 0; ok && q < PB_PLANES; q++)
                memcpy(sc.clip[k].pose.plane[q], syn->clip[k].pose.plane[q], frames * syn->joints * sizeof(float));
        }
        CHECK(ok && syn->clip[0].frames >= 31 && syn->clip[1].frames >= 31, "clips of %zu frames", frames);
        pb_graph_scene g;
        pb_status s = ok ? pb_graph_scene_default(&g, &sc) : PB_ERR_NOMEM;
        if (frames == 31) {
            CHECK(pb_clip_duration(&sc.clip[0]) < 1.0f, "31 frames at 0.0333333 s last %.7f s",
                  (double)pb_clip_duration(&sc.clip[0]));
            CHECK(s == PB_OK, "31 frames at 0.0333333 s: refused: %s", pb_last_error());
            if (s == PB_OK) pb_graph_scene_free(&g);
        } else {
            CHECK(s == PB_ERR_PARAM && strstr(pb_last_error(), "each at least 1 s long (frames - 1 >= fps") &&
                      strstr(pb_last_error(), "30 and 30 frames"),
                  "30 frames at 30 fps: PB_ERR_PARAM saying what the graph needs, got %s: %s", pb_status_name(s),
                  pb_last_error());
            CHECK(!g.upper && !g.chest, "refused: g left empty");
        }
        pb_clip_free(&sc.clip[0]);
        pb_clip_free(&sc.clip[1]);
    }
}

int main(void)
{
    if (pb_all_variant_env() != PB_OK) return 1;
    const char *fr = getenv("PB_TEST_GRAPH_FRAMES");
    if (fr && atoi(fr) >= 60) FRAMES = atoi(fr);
    pb_scene syn, cmu;
    CHECK(pb_scene_synthetic(&syn, 24, 3) == PB_OK, "%s", pb_last_error());
    refusals(&syn);
    curves(&syn);
    clip_rounding(&syn);
    methods(&syn);
    scene_runs(&syn);
    if (cmu_scene(&cmu, "test_graph")) {
        methods(&cmu);
        scene_runs(&cmu);
        pb_scene_free(&cmu);
    }
    pb_scene_free(&syn);
    return check_done();
}
