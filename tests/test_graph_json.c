/* test_graph_json.c — the CLI's blend graph loader (cli/graph_json.c, built
 * into this test from its source):
 *   - data/graph_default.json read over two synthetic scenes and the CMU
 *     clips (when packaged) equals, field by field, what
 *     pb_graph_scene_default builds in C: two independent writings of one
 *     graph, so a loader that misreads a field shows here;
 *   - each bad definition (the fixtures in tests/graph/, and a few written
 *     here, one of them over the size limit) is refused with the message
 *     naming the file, the JSON path and what was expected, and leaves the
 *     output empty;
 *   - the random-walk drive keeps every parameter in its range and is the
 *     same for the same seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cmu_scene.h"
#include "graph_json.h"
#include "posebench/posebench.h"

#define DATA PB_SOURCE_DIR "/data/graph_default.json"
#define FIXTURES PB_SOURCE_DIR "/tests/graph/"

static void same_layer(const pb_graph_layer *a, const pb_graph_layer *b, size_t l, size_t joints)
{
    CHECK(a->kind == b->kind && a->motion == b->motion && a->weight == b->weight, "layer %zu", l);
    CHECK(!a->mask == !b->mask, "layer %zu: a mask on one side only", l);
    for (size_t j = 0; a->mask && b->mask && j < joints; j++)
        CHECK(a->mask[j] == b->mask[j], "layer %zu mask[%zu]: %g vs %g", l, j, (double)a->mask[j], (double)b->mask[j]);
}

/* a (read from JSON) equals b (built in C), every field the definition has. */
static void same_def(const pb_graph_def *a, const pb_graph_def *b, size_t joints)
{
    CHECK(a->params == b->params, "params %zu vs %zu", a->params, b->params);
    for (size_t i = 0; i < a->params && i < b->params; i++)
        CHECK(!strcmp(a->param[i], b->param[i]), "param %zu: %s vs %s", i, a->param[i], b->param[i]);
    CHECK(a->motions == b->motions, "motions %zu vs %zu", a->motions, b->motions);
    for (size_t i = 0; i < a->motions && i < b->motions; i++) {
        const pb_graph_motion *m = &a->motion[i], *n = &b->motion[i];
        CHECK(!strcmp(m->name, n->name) && m->clip == n->clip && m->start == n->start && m->end == n->end,
              "motion %zu: %s clip %d [%.9g, %.9g] vs %s clip %d [%.9g, %.9g]", i, m->name, m->clip, (double)m->start,
              (double)m->end, n->name, n->clip, (double)n->start, (double)n->end);
    }
    CHECK(a->states == b->states, "states %zu vs %zu", a->states, b->states);
    for (size_t i = 0; i < a->states && i < b->states; i++) {
        const pb_graph_state *s = &a->state[i], *t = &b->state[i];
        CHECK(!strcmp(s->name, t->name) && s->samples == t->samples && s->space == t->space && s->px == t->px &&
              s->py == t->py && s->loop_method == t->loop_method && s->loop_duration == t->loop_duration,
              "state %zu (%s vs %s)", i, s->name, t->name);
        for (size_t k = 0; k < s->samples && k < t->samples; k++)
            CHECK(s->motion[k] == t->motion[k] && s->x[k] == t->x[k] && s->y[k] == t->y[k], "state %zu sample %zu", i, k);
    }
    CHECK(a->transitions == b->transitions, "transitions %zu vs %zu", a->transitions, b->transitions);
    for (size_t i = 0; i < a->transitions && i < b->transitions; i++) {
        const pb_graph_transition *s = &a->transition[i], *t = &b->transition[i];
        CHECK(s->from == t->from && s->to == t->to && s->conds == t->conds && s->method == t->method &&
              s->duration == t->duration, "transition %zu", i);
        for (size_t k = 0; k < s->conds && k < t->conds; k++)
            CHECK(s->cond[k].param == t->cond[k].param && s->cond[k].cmp == t->cond[k].cmp &&
                  s->cond[k].value == t->cond[k].value, "transition %zu condition %zu", i, k);
    }
    CHECK(a->layers == b->layers, "layers %zu vs %zu", a->layers, b->layers);
    for (size_t i = 0; i < a->layers && i < b->layers; i++) same_layer(&a->layer[i], &b->layer[i], i, joints);
    CHECK(a->start == b->start && a->halflife == b->halflife, "start %d vs %d, halflife %g vs %g", a->start, b->start,
          (double)a->halflife, (double)b->halflife);
    CHECK(a->hl_scale == b->hl_scale && a->hl_min == b->hl_min && a->hl_max == b->hl_max,
          "Unreal's half-life scale, min, max: %g %g %g vs %g %g %g", (double)a->hl_scale, (double)a->hl_min,
          (double)a->hl_max, (double)b->hl_scale, (double)b->hl_min, (double)b->hl_max);
}

/* path is refused with a message that contains want, and out is left empty. */
static void refused(const char *path, const pb_graph_scene *g, const char *want)
{
    graph_json j;
    char err[512];
    int st = graph_json_load(path, g, &j, err, sizeof err);
    CHECK(st == -1, "%s: loaded (want an error with \"%s\")", path, want);
    CHECK(strstr(err, want) != NULL, "%s:\n  got:  %s\n  want: %s", path, err, want);
    CHECK(j.def.states == 0 && j.def.motions == 0 && !j.own_mask[0], "%s: output not emptied", path);
    graph_json_free(&j);
}

/* text written to a temporary file, refused as refused() says; the message is the file's name, then want. */
static void refused_text(const char *text, size_t n, const pb_graph_scene *g, const char *want)
{
    char path[] = "/tmp/pb_graph_json_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp failed");
    if (fd < 0) return;
    FILE *f = fdopen(fd, "wb");
    CHECK(f != NULL, "fdopen failed");
    if (!f) {
        close(fd);
        unlink(path);
        return;
    }
    int ok = fwrite(text, 1, n, f) == n;
    ok = fclose(f) == 0 && ok;
    CHECK(ok, "writing %s failed", path);
    char full[600];
    snprintf(full, sizeof full, "%s%s", path, want);
    if (ok) refused(path, g, full);
    CHECK(unlink(path) == 0, "unlink %s", path);
}

#define HEAD "{\"params\": [\"speed\"], \"motions\": [{\"name\": \"walk\", \"clip\": 0, \"start\": 0, \"end\": 1}], "
#define TWO "\"states\": [{\"name\": \"idle\", \"motion\": \"walk\"}, {\"name\": \"walk\", \"motion\": \"walk\"}]"

static void bad_files(const pb_graph_scene *g)
{
    static const struct { const char *file, *want; } fix[] = {
        { "unknown_state.json", "unknown_state.json: transitions[1].to: unknown state \"jmp\" (expected a state name, "
                                "one of: idle, walk)" },
        { "unknown_param.json", "unknown_param.json: transitions[0].when[1][0]: unknown parameter \"sped\" (expected a "
                                "parameter name, one of: speed, direction)" },
        { "string_number.json", "string_number.json: transitions[0].duration: expected a duration in seconds (0 .. "
                                "1e6), got a string" },
        { "infinite_number.json", "infinite_number.json: transitions[0].when[0][2]: inf is not a finite number" },
        { "zero_cycle.json", "zero_cycle.json: pb_graph_check: a cycle of zero-duration transitions (cuts or duration "
                             "0) whose conditions can hold at once: idle -> walk -> idle" },
        { "syntax.json", "syntax.json:4:3: JSON syntax error at: \"states\"" },
        { "unknown_key.json", "unknown_key.json: transitions[0]: unknown key \"duraton\" (expected one of: from, to, "
                              "when, method, duration, curve, bezier, comment)" },
    };
    for (size_t i = 0; i < sizeof fix / sizeof fix[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s%s", FIXTURES, fix[i].file);
        refused(path, g, fix[i].want);
    }
    refused(FIXTURES "nope.json", g, "nope.json: cannot open: No such file or directory");
    /* one byte over the limit, a valid definition up front: refused before parsing */
    size_t n = GRAPH_JSON_MAX_BYTES + 1;
    char *big = malloc(n);
    CHECK(big != NULL, "out of memory");
    if (big) {
        memset(big, ' ', n);
        memcpy(big, HEAD TWO "}", strlen(HEAD TWO "}"));
        refused_text(big, n, g, ": 1048577 bytes, more than the limit of 1048576 bytes for a graph definition");
        free(big);
    }
    /* a FIFO: refused naming it, not waited on for a writer that never comes (it blocked in fopen) */
    char fdir[] = "/tmp/pb_graph_fifo_XXXXXX", fifo[64];
    if (mkdtemp(fdir)) {
        snprintf(fifo, sizeof fifo, "%s/g.json", fdir);
        CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
        char want[128];
        snprintf(want, sizeof want, "%s: is a FIFO (named pipe), not a regular file", fifo);
        refused(fifo, g, want);
        unlink(fifo);
        rmdir(fdir);
    }
#define BAD(json, want) refused_text(json, strlen(json), g, ": " want)
    refused_text(HEAD TWO, strlen(HEAD TWO), g, ":1:169: JSON syntax error: the text ends early");
    BAD("[1, 2]", "expected an object, got an array");
    BAD(HEAD "\"states\": []}", "states: empty: expected at least one entry");
    BAD("{\"motions\": [{\"name\": \"m\", \"clip\": 3, \"start\": 0, \"end\": 1}], " TWO "}",
        "motions[0].clip: 3 is not a clip: 0 (source), 1 (destination) or 2 (breathing)");
    BAD("{\"params\": [\"speed\", \"speed\"]}", "params[1]: \"speed\" is already the name of params[0]");
    BAD(HEAD TWO ", \"start\": \"idle\", \"start\": \"walk\"}", "key \"start\" given twice");
    BAD(HEAD TWO ", \"halflife\": 0}", "pb_graph_check: halflife 0 (finite, > 0 s)");
    BAD(HEAD "\"states\": [{\"name\": \"idle\"}]}", "states[0]: missing \"motion\" (a motion name) or \"samples\"");
    BAD(HEAD "\"states\": [{\"name\": \"s\", \"space\": \"1d\", \"x\": \"speed\", \"y\": \"speed\", \"samples\": "
             "[{\"motion\": \"walk\", \"x\": 0}, {\"motion\": \"walk\", \"x\": 1}]}]}",
        "states[0].y: a 1d space reads only x");
    BAD(HEAD "\"states\": [{\"name\": \"s\", \"space\": \"polar\", \"x\": \"speed\", \"samples\": []}]}",
        "states[0].space: unknown blend space \"polar\"");
    BAD(HEAD TWO ", \"layers\": [{\"kind\": \"override\", \"motion\": \"walk\", \"mask\": [0, 99]}]}",
        "layers[0].mask[1]: 99 is not a joint index (0 .. 23)");
    BAD(HEAD TWO ", \"layers\": [{\"kind\": \"override\", \"motion\": \"walk\", \"mask\": \"legs\"}]}",
        "layers[0].mask: unknown mask \"legs\"");
    BAD(HEAD TWO ", \"transitions\": [{\"from\": \"idle\", \"to\": \"walk\", \"method\": \"blend\"}]}",
        "transitions[0].method: unknown method \"blend\" (expected one of " PB_FRAME_METHOD_NAMES "; the graph runs cut");
    BAD(HEAD TWO ", \"transitions\": [{\"from\": \"idle\", \"to\": \"walk\", \"method\": \"dead_via\", \"duration\": 1}]}",
        "transitions[0].method: method \"dead_via\" is not one the graph runs (yet): it runs cut, crossfade_exact");
#define XF "{\"from\": \"idle\", \"to\": \"walk\", \"method\": \"crossfade\", \"duration\": 0.2, "
    BAD(HEAD TWO ", \"transitions\": [" XF "\"curve\": \"cubic\"}]}",
        "transitions[0].curve: unknown curve \"cubic\" (expected one of " PB_CURVE_NAMES ")");
    BAD(HEAD TWO ", \"transitions\": [{\"from\": \"idle\", \"to\": \"walk\", \"method\": \"dead\", \"duration\": 0.2, "
             "\"curve\": \"linear\"}]}",
        "transitions[0].curve: curve \"linear\" with method \"dead\": only a cross-fade takes a curve");
    BAD(HEAD TWO ", \"transitions\": [" XF "\"curve\": \"linear\", \"bezier\": [0, 0, 1, 1]}]}",
        "transitions[0].bezier: goes with \"curve\": \"bezier\" only");
    BAD(HEAD TWO ", \"transitions\": [" XF "\"curve\": \"bezier\"}]}", "transitions[0].bezier: missing: expected an array");
    BAD(HEAD TWO ", \"transitions\": [" XF "\"curve\": \"bezier\", \"bezier\": [0.2, 0.1, 0.3]}]}",
        "transitions[0].bezier: 3 numbers: expected 4 (x1, y1, x2, y2)");
    BAD(HEAD TWO ", \"transitions\": [" XF "\"curve\": \"bezier\", \"bezier\": [0.2, 1.1, 0.3, 1]}]}",
        "transitions[0].bezier[1]: 1.1 is not a control value in [0, 1]");
    BAD(HEAD TWO ", \"transitions\": [" XF "\"curve\": \"bezier\", \"bezier\": [0, 0.5, 0.3, 1]}]}",
        "transitions[0].bezier: bezier: bezier control points (x1 0, y1 0.5, x2 0.3, y2 1) give a vertical tangent at the start");
    BAD(HEAD TWO ", \"halflife_scale\": 0}", "halflife_scale, halflife_min, halflife_max: hl_scale is 0 (must be in (0, 10]");
    BAD(HEAD TWO ", \"halflife_min\": 0.5, \"halflife_max\": 0.2}", "halflife_scale, halflife_min, halflife_max: hl_max is 0.2 (must be in [hl_min = 0.5, 10] s)");
    BAD(HEAD TWO ", \"halflife_max\": 11}", "halflife_max: 11 is not Unreal's half-life scale, min or max (0 .. 10)");
    BAD(HEAD TWO ", \"halflife_scale\": \"0.3\"}", "halflife_scale: expected Unreal's half-life scale");
    BAD(HEAD TWO ", \"transitions\": [{\"from\": \"idle\", \"to\": \"walk\", \"when\": [[\"speed\", \">=\", 1]], "
             "\"method\": \"cut\"}]}",
        "transitions[0].when[0][1]: unknown comparison \">=\"");
    BAD("{\"params\": [\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\",\"m\",\"n\",\"o\",\"p\","
        "\"q\"]}",
        "params: 17 entries, at most 16 (PB_GRAPH_MAX_PARAMS)");
    BAD("{\"motions\": [{\"name\": \"a_name_of_thirty_two_characters_\", \"clip\": 0, \"start\": 0, \"end\": 1}]}",
        "motions[0].name: \"a_name_of_thirty_two_characters_\" has 32 characters (1 .. 31)");
    BAD("{\"motions\": [{\"name\": \"m\", \"clip\": 0, \"start\": \"10\", \"end\": 1}]}",
        "motions[0].start: \"10\" is not a percentage of the clip");
    BAD("{\"motions\": [{\"name\": \"m\", \"clip\": 0, \"start\": 0, \"end\": 9}], \"states\": [{\"name\": \"a\", "
        "\"motion\": \"m\"}]}",
        "pb_graph_check: motion 0 (\"m\") is [0, 9] s of clip 0");
#undef BAD
}

/* Every name of frame.h's table: the graph's methods load as theirs (and through pb_graph_method_of), the others
 * are refused naming the method; Unreal's scale, min and max are read, the others keeping their defaults. */
static void method_names(const pb_graph_scene *g)
{
    char text[1024], err[512];
    for (int m = 0; m <= PB_FM_COUNT + 1; m++) {
        const char *name = m < PB_FM_COUNT ? pb_frame_method_name((pb_frame_method)m) : m == PB_FM_COUNT ? "crossfade"
                                                                                                        : "dead";
        pb_graph_method want = pb_graph_method_of(pb_frame_method_by_name(name));
        snprintf(text, sizeof text, HEAD TWO ", \"transitions\": [{\"from\": \"idle\", \"to\": \"walk\", \"method\": "
                 "\"%s\", \"duration\": 0.2}], \"halflife_scale\": 0.6, \"halflife_max\": 2}", name);
        graph_json j;
        int st = graph_json_load_mem("m.json", text, strlen(text), g, &j, err, sizeof err);
        if (want == PB_GM_COUNT) {
            CHECK(st == -1 && strstr(err, name) && strstr(err, "is not one the graph runs"), "%s: %d, %s", name, st, err);
        } else {
            CHECK(st == 0 && j.def.transition[0].method == want, "%s: %d, %s", name, st, err);
            CHECK(st != 0 || (j.def.hl_scale == 0.6f && j.def.hl_min == PB_HALFLIFE_EST_MIN && j.def.hl_max == 2.0f),
                  "%s: halflife_scale, min, max read as %g %g %g", name, (double)j.def.hl_scale, (double)j.def.hl_min,
                  (double)j.def.hl_max);
        }
        graph_json_free(&j);
    }
    /* a transition's curve: read as given (the default smoothstep when absent) */
    snprintf(text, sizeof text, HEAD TWO ", \"transitions\": [" XF "\"curve\": \"bezier\", \"bezier\": [0.25, 0.1, 0.25, 1]}, "
             "{\"from\": \"walk\", \"to\": \"idle\", \"method\": \"crossfade\", \"duration\": 0.2, \"curve\": \"ease_out\"}, "
             "{\"from\": \"*\", \"to\": \"idle\", \"method\": \"inertialize\", \"duration\": 0.2}]}");
    graph_json j;
    int st = graph_json_load_mem("c.json", text, strlen(text), g, &j, err, sizeof err);
    const pb_graph_transition *t = j.def.transition;
    CHECK(st == 0 && t[0].curve.kind == PB_CURVE_BEZIER && t[0].curve.x1 == 0.25f && t[0].curve.y1 == 0.1f &&
          t[0].curve.x2 == 0.25f && t[0].curve.y2 == 1.0f && t[1].curve.kind == PB_CURVE_EASE_OUT &&
          t[2].curve.kind == PB_CURVE_SMOOTHSTEP, "curves: %d, %s", st, err);
    if (st == 0) graph_json_free(&j);
#undef XF
    CHECK(pb_graph_method_of(PB_FM_CROSSFADE) == PB_GM_CROSSFADE && pb_graph_method_of(PB_FM_DEAD_UE) == PB_GM_DEAD_UE &&
          pb_graph_method_of(PB_FM_COUNT) == PB_GM_COUNT, "pb_graph_method_of");
}

/* The drive: every parameter within its range every frame, and the same walk for the same seed. */
static void drive(const pb_scene *sc, const pb_graph_scene *g, const graph_json *j)
{
    pb_graph_crowd c[2];
    for (int r = 0; r < 2; r++)
        CHECK(pb_graph_crowd_init(&c[r], &j->def, g->clips, 3, sc->parents, 9, 1) == PB_OK, "init: %s", pb_last_error());
    size_t P = j->def.params, out = 0, moved = 0, differ = 0;
    float first[PB_GRAPH_MAX_PARAMS];
    for (int f = 0; f < 300; f++) {
        for (int r = 0; r < 2; r++) {
            graph_json_drive(j, &c[r], 42, 1.0f / 60.0f);
            pb_graph_crowd_advance(&c[r], 1.0f / 60.0f);
        }
        for (size_t k = 0; k < 9; k++)
            for (size_t p = 0; p < P; p++) {
                float v = c[0].param[k * P + p];
                out += !(v >= j->lo[p] && v <= j->hi[p]);
                differ += v != c[1].param[k * P + p];
                if (f == 0 && k == 0) first[p] = v;
                if (f == 299 && k == 0) moved += v != first[p];
            }
    }
    CHECK(out == 0, "%zu parameter values outside their range", out);
    CHECK(differ == 0, "%zu parameter values differ between two walks with one seed", differ);
    CHECK(moved == P, "%zu of %zu parameters moved in 5 s", moved, P);
    for (int r = 0; r < 2; r++) pb_graph_crowd_free(&c[r]);
}

/* graph_json_load_mem (what fuzz_graph feeds): the default graph from memory, not NUL-terminated, is
 * the one the file gives; a NUL byte, a cut text and an empty one are refused naming the buffer. */
static void from_memory(const pb_graph_scene *g, const graph_json *from_file, size_t joints)
{
    FILE *f = fopen(DATA, "rb");
    CHECK(f != NULL, "open %s", DATA);
    if (!f) return;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text, f);
    CHECK(fclose(f) == 0 && n > 0 && n < sizeof text, "read %s: %zu bytes", DATA, n);
    text[n] = 'x';   /* past the n bytes: never read */
    graph_json j;
    char err[512];
    int st = graph_json_load_mem("mem.json", text, n, g, &j, err, sizeof err);
    CHECK(st == 0, "from memory: %s", err);
    if (st == 0) same_def(&j.def, &from_file->def, joints);
    graph_json_free(&j);
    static const struct { size_t cut; int nul; const char *want; } bad[] = {
        { 0, 0, "mem.json:1:1: JSON syntax error: the text ends early" },
        { 40, 0, "mem.json:" },
        { 0, 1, "mem.json: has a NUL byte: not a JSON text file" },
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        size_t len = bad[b].cut ? bad[b].cut : bad[b].nul ? n : 0;
        if (bad[b].nul) text[n / 2] = 0;
        st = graph_json_load_mem("mem.json", text, len, g, &j, err, sizeof err);
        CHECK(st == -1 && strncmp(err, bad[b].want, strlen(bad[b].want)) == 0, "%zu bytes%s: %d, %s", len,
              bad[b].nul ? " with a NUL" : "", st, err);
        CHECK(j.def.states == 0 && j.def.motions == 0, "refused from memory: output not emptied");
    }
    CHECK(graph_json_load_mem("mem.json", NULL, 0, g, &j, err, sizeof err) == -1 && strstr(err, "no file"),
          "NULL text: %s", err);
}

/* The default JSON over sc equals pb_graph_scene_default(sc); the rest of the test runs over the first scene. */
static void over(const pb_scene *sc, int first)
{
    pb_graph_scene g;
    graph_json j;
    char err[512];
    int st = pb_graph_scene_default(&g, sc) == PB_OK ? 0 : -1;
    CHECK(st == 0, "%s: %s", sc->name, pb_last_error());
    if (st != 0) return;
    st = graph_json_load(DATA, &g, &j, err, sizeof err);
    CHECK(st == 0, "%s: %s", sc->name, err);
    if (st == 0) {
        same_def(&j.def, &g.def, sc->joints);
        if (first) drive(sc, &g, &j);
        if (first) from_memory(&g, &j, sc->joints);
    }
    graph_json_free(&j);
    if (first) bad_files(&g);
    if (first) method_names(&g);
    pb_graph_scene_free(&g);
}

int main(void)
{
    /* two synthetic skeletons (masks differ), and the CMU clips where packaged: clips of other lengths, which
     * the JSON's "P%" motion times must follow exactly */
    static const size_t joints[2] = { 24, 41 };
    for (int s = 0; s < 2; s++) {
        pb_scene sc;
        int ok = pb_scene_synthetic(&sc, joints[s], 3 + (uint64_t)s) == PB_OK;
        CHECK(ok, "%s", pb_last_error());
        if (ok) over(&sc, s == 0);
        pb_scene_free(&sc);
    }
    pb_scene cmu;
    if (cmu_scene(&cmu, "test_graph_json")) {
        over(&cmu, 0);
        pb_scene_free(&cmu);
    }
    return check_done();
}
