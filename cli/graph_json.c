/* graph_json.c — a blend graph definition read from JSON (graph_json.h);
 * the parameter drive for such a graph is in graph_drive.c.
 *
 * The format (docs/graph_json.md has it with an example; data/graph_default.json
 * is the default graph written in it). One object; every object may also
 * have a "comment" key, which is ignored. Names are 1 .. 31 characters.
 *   "params"      optional: each a name, or {"name", "min", "max"} (the range
 *                 the CLI's drive walks it in; default 0 .. 1).
 *   "motions"     required, 1 .. 64: {"name", "clip", "start", "end"}; clip
 *                 0 or 1 is the scene's source or destination clip, 2 the
 *                 synthetic breathing clip; start and end in seconds, or
 *                 strings "P%": that percentage of the clip's duration (so
 *                 one file fits scenes whose clips last differently).
 *   "states"      required, 1 .. 64: {"name", "motion", "loop"} plays one
 *                 motion; {"name", "space": "1d" | "barycentric", "x", "y"
 *                 (parameter names; y for barycentric only), "samples":
 *                 [{"motion", "x", "y"}, ...] (1 .. 16), "loop"} blends.
 *                 "loop": {"method", "duration"}, how the state restarts at
 *                 its end; default {"method": "inertialize", "duration": 0.2}.
 *   "transitions" optional, in priority order, at most 256: {"from": a state
 *                 or "*" (any other state), "to", "when": [[param, "<" or
 *                 ">", number], ...] (all must hold, at most 4; none: at
 *                 once), "method": a frame.h method name the graph runs
 *                 (pb_graph_method_parse), "duration" (s; not for cut),
 *                 "curve": a cross-fade's weight curve (posebench/curve.h:
 *                 PB_CURVE_NAMES; default smoothstep), "bezier": [x1, y1, x2,
 *                 y2] (with "curve": "bezier" only)}.
 *   "layers"      optional, at most 4: {"kind": "override" | "additive",
 *                 "motion", "weight" (a parameter; absent: 1), "mask":
 *                 "upper" | "chest" (the default graph's masks) | "all"
 *                 (the default) | [joint indices]}.
 *   "start"       optional: the state every character starts in (default:
 *                 the first).
 *   "halflife"    optional: dead blending's extrapolation half-life in s
 *                 (default 0.1, the default graph's); "halflife_scale",
 *                 "halflife_min", "halflife_max": Unreal's (dead_ue; 0.3, 0.1, 1).
 * cJSON gives no positions within a parsed tree, so errors name the JSON
 * path ("transitions[3].to"); a syntax error, where cJSON stopped, gets its
 * line and column. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include "graph_json.h"
#include "internal.h"   /* pb_file_read, pb_last_error */

#define AT_MAX 96               /* a JSON path: "transitions[255].when[3][2]" with room */
#define LIST_MAX 200            /* the names listed in an error */
#define LOOP_DURATION 0.2f      /* a state's loop when "loop" is absent (the default graph's) */
#define HALFLIFE 0.1f           /* "halflife" when absent (the default graph's) */
#define FINITE "a finite number"

typedef struct {
    const char *file;
    char *err;
    size_t errlen;
    const pb_graph_scene *base;
    graph_json *g;
    size_t cur;   /* the state, transition or layer whose samples, conditions or mask joints are being read */
} ctx;

/* A value and its JSON path (NULL value: the key is absent). */
typedef struct {
    char at[AT_MAX];
    const cJSON *v;
} field;

static int fail(ctx *x, const char *at, const char *fmt, ...)
{
    if (!x->err || !x->errlen) return -1;
    int n = snprintf(x->err, x->errlen, "%s: %s%s", x->file, at, at[0] ? ": " : "");
    if (n >= 0 && (size_t)n < x->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(x->err + n, x->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A path longer than AT_MAX (only from absurd nesting: keys are the format's own) ends in "..." */
static void clip_path(field *f, int n)
{
    if (n < 0 || (size_t)n >= sizeof f->at) memcpy(f->at + sizeof f->at - 4, "...", 4);
}

static field get(const char *at, const cJSON *obj, const char *key)
{
    field f;
    clip_path(&f, snprintf(f.at, sizeof f.at, "%s%s%s", at, at[0] ? "." : "", key));
    f.v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return f;
}

static field item(const char *at, const cJSON *v, size_t i)
{
    field f;
    clip_path(&f, snprintf(f.at, sizeof f.at, "%s[%zu]", at, i));
    f.v = v;
    return f;
}

static const char *type_of(const cJSON *v)
{
    return cJSON_IsString(v) ? "a string" : cJSON_IsNumber(v) ? "a number" : cJSON_IsArray(v) ? "an array"
           : cJSON_IsObject(v) ? "an object" : cJSON_IsBool(v) ? "a boolean" : "null";
}

/* at's value is an object whose keys are known (NULL-terminated) or "comment", each at most once: a typo
 * is an error, not a key silently ignored. */
static int keys(ctx *x, const char *at, const cJSON *obj, const char *const *known)
{
    if (!cJSON_IsObject(obj)) return fail(x, at, "expected an object, got %s", type_of(obj));
    for (const cJSON *k = obj->child; k; k = k->next) {
        int ok = !strcmp(k->string, "comment");
        for (size_t i = 0; !ok && known[i]; i++) ok = !strcmp(k->string, known[i]);
        if (!ok) {
            char list[LIST_MAX] = "";
            for (size_t i = 0, n = 0; known[i] && n < sizeof list; i++)
                n += (size_t)snprintf(list + n, sizeof list - n, "%s, ", known[i]);
            return fail(x, at, "unknown key \"%s\" (expected one of: %scomment)", k->string, list);
        }
        for (const cJSON *e = obj->child; e != k; e = e->next)
            if (!strcmp(e->string, k->string)) return fail(x, at, "key \"%s\" given twice", k->string);
    }
    return 0;
}

static int str(ctx *x, const field *f, const char *what, const char **out)
{
    if (!f->v) return fail(x, f->at, "missing: expected %s", what);
    if (!cJSON_IsString(f->v)) return fail(x, f->at, "expected %s, got %s", what, type_of(f->v));
    *out = f->v->valuestring;
    return 0;
}

/* A number in [lo, hi] that a float holds (tested in double: converting one out of float's range is undefined). */
static int number(ctx *x, const field *f, double lo, double hi, const char *what, float *out)
{
    if (!f->v) return fail(x, f->at, "missing: expected %s", what);
    if (!cJSON_IsNumber(f->v)) return fail(x, f->at, "expected %s, got %s", what, type_of(f->v));
    double d = f->v->valuedouble;
    if (!(fabs(d) <= FLT_MAX && d >= lo && d <= hi)) return fail(x, f->at, "%g is not %s", d, what);
    *out = (float)d;
    return 0;
}

static int integer(ctx *x, const field *f, long lo, long hi, const char *what, int *out)
{
    float unused;
    if (number(x, f, (double)lo, (double)hi, what, &unused)) return -1;
    double d = f->v->valuedouble;
    if (d != floor(d)) return fail(x, f->at, "%g is not %s", d, what);
    *out = (int)d;
    return 0;
}

/* f's value: an array of at most max entries (limit names the maximum); absent: none unless required;
 * required also means at least one. */
static int array(ctx *x, const field *f, size_t max, const char *limit, int required, size_t *n)
{
    *n = 0;
    if (!f->v) return required ? fail(x, f->at, "missing: expected an array") : 0;
    if (!cJSON_IsArray(f->v)) return fail(x, f->at, "expected an array, got %s", type_of(f->v));
    *n = (size_t)cJSON_GetArraySize(f->v);
    if (*n > max) return fail(x, f->at, "%zu entries, at most %zu (%s)", *n, max, limit);
    if (required && !*n) return fail(x, f->at, "empty: expected at least one entry");
    return 0;
}

/* ---- names ---- */
enum { K_PARAM, K_MOTION, K_STATE };
static const char *const kind_name[] = { "parameter", "motion", "state" };
static const char *const kind_key[] = { "params", "motions", "states" };

static size_t kind_count(const pb_graph_def *d, int k)
{
    return k == K_PARAM ? d->params : k == K_MOTION ? d->motions : d->states;
}

static const char *kind_at(const pb_graph_def *d, int k, size_t i)
{
    return k == K_PARAM ? d->param[i] : k == K_MOTION ? d->motion[i].name : d->state[i].name;
}

static int kind_find(const pb_graph_def *d, int k, const char *name)
{
    for (size_t i = 0; i < kind_count(d, k); i++)
        if (!strcmp(kind_at(d, k, i), name)) return (int)i;
    return -1;
}

/* The index of the parameter / motion / state f names; an unknown name's error lists the known ones. */
static int find(ctx *x, const field *f, int kind, int *out)
{
    const pb_graph_def *d = &x->g->def;
    char what[48];
    snprintf(what, sizeof what, "a %s name", kind_name[kind]);
    const char *s = NULL;
    if (str(x, f, what, &s)) return -1;
    if ((*out = kind_find(d, kind, s)) >= 0) return 0;
    size_t n = kind_count(d, kind), at = 0;
    if (!n) return fail(x, f->at, "unknown %s \"%s\" (\"%s\" defines none)", kind_name[kind], s, kind_key[kind]);
    char list[LIST_MAX];
    for (size_t i = 0; i < n; i++) {
        const char *name = kind_at(d, kind, i);
        if (at + strlen(name) + 8 > sizeof list) {
            snprintf(list + at, sizeof list - at, ", ...");
            break;
        }
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", name);
    }
    return fail(x, f->at, "unknown %s \"%s\" (expected %s, one of: %s)", kind_name[kind], s, what, list);
}

/* The name f gives the n-th element of its kind, into dst: 1 .. 31 characters, not taken. */
static int new_name(ctx *x, const field *f, int kind, size_t n, char *dst)
{
    const char *s = NULL;
    char what[48];
    snprintf(what, sizeof what, "a %s name", kind_name[kind]);
    if (str(x, f, what, &s)) return -1;
    size_t len = strlen(s);
    if (!len || len >= PB_GRAPH_MAX_NAME)
        return fail(x, f->at, "\"%s\" has %zu characters (1 .. %d)", s, len, PB_GRAPH_MAX_NAME - 1);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(kind_at(&x->g->def, kind, i), s))
            return fail(x, f->at, "\"%s\" is already the name of %s[%zu]", s, kind_key[kind], i);
    memcpy(dst, s, len + 1);
    return 0;
}

#define GRAPH_RUNS "cut, crossfade_exact (or crossfade), inertialize, dead_slerp (or dead), dead_ue"
static int method(ctx *x, const field *f, pb_graph_method *out)
{
    const char *s = NULL;
    if (str(x, f, "a method (" GRAPH_RUNS ")", &s)) return -1;
    if ((*out = pb_graph_method_parse(s)) != PB_GM_COUNT) return 0;
    if (pb_frame_method_by_name(s) != PB_FM_COUNT)
        return fail(x, f->at, "method \"%s\" is not one the graph runs (yet): it runs " GRAPH_RUNS, s);
    return fail(x, f->at, "unknown method \"%s\" (expected one of " PB_FRAME_METHOD_NAMES "; the graph runs "
                GRAPH_RUNS ")", s);
}

/* "method" and "duration" of obj at at (a transition or a loop): a cut takes no duration (0 if absent). */
static int method_duration(ctx *x, const char *at, const cJSON *obj, pb_graph_method *m, float *duration)
{
    field f = get(at, obj, "method");
    if (method(x, &f, m)) return -1;
    f = get(at, obj, "duration");
    *duration = 0;
    if (*m == PB_GM_CUT && !f.v) return 0;
    return number(x, &f, 0, 1e6, "a duration in seconds (0 .. 1e6)", duration);
}

/* ---- the sections ---- */
/* The array f (at most max entries, limit naming the maximum; required: at least one): its count into *n,
 * then one(x, element, index) for each element in order. */
typedef int (*element_fn)(ctx *x, const field *e, size_t i);
static int each(ctx *x, const field *f, size_t max, const char *limit, int required, size_t *n, element_fn one)
{
    if (array(x, f, max, limit, required, n)) return -1;
    const cJSON *e;
    size_t i = 0;
    cJSON_ArrayForEach(e, f->v) {
        field it = item(f->at, e, i);
        if (one(x, &it, i++)) return -1;
    }
    return 0;
}

static int param(ctx *x, const field *p, size_t i)
{
    static const char *const k[] = { "name", "min", "max", NULL };
    float *lo = &x->g->lo[i], *hi = &x->g->hi[i];
    *lo = 0, *hi = 1;
    if (cJSON_IsString(p->v)) return new_name(x, p, K_PARAM, i, x->g->def.param[i]);   /* a plain name */
    field name = get(p->at, p->v, "name"), fl = get(p->at, p->v, "min"), fh = get(p->at, p->v, "max");
    if (keys(x, p->at, p->v, k) || new_name(x, &name, K_PARAM, i, x->g->def.param[i]) ||
        (fl.v && number(x, &fl, -FLT_MAX, FLT_MAX, FINITE, lo)) || (fh.v && number(x, &fh, -FLT_MAX, FLT_MAX, FINITE, hi)))
        return -1;
    return *lo <= *hi ? 0 : fail(x, p->at, "min %g is above max %g", (double)*lo, (double)*hi);
}

/* A motion's start or end: seconds, or "P%" of the clip's duration. */
static int motion_time(ctx *x, const field *f, float dur, float *out)
{
    if (!cJSON_IsString(f->v))
        return number(x, f, 0, 1e6, "a time in seconds (>= 0) or a percentage of the clip (\"0%\" .. \"100%\")", out);
    char *end;
    double p = strtod(f->v->valuestring, &end);
    if (end == f->v->valuestring || strcmp(end, "%") || !(p >= 0 && p <= 100))
        return fail(x, f->at, "\"%s\" is not a percentage of the clip (\"0%%\" .. \"100%%\")", f->v->valuestring);
    *out = (float)((double)dur * (p / 100));   /* "12.5%" of a clip is its duration x 0.125f exactly */
    return 0;
}

static int motion(ctx *x, const field *m, size_t i)
{
    static const char *const k[] = { "name", "clip", "start", "end", NULL };
    field name = get(m->at, m->v, "name"), clip = get(m->at, m->v, "clip");
    field start = get(m->at, m->v, "start"), end = get(m->at, m->v, "end");
    pb_graph_motion *mo = &x->g->def.motion[i];
    if (keys(x, m->at, m->v, k) || new_name(x, &name, K_MOTION, i, mo->name) ||
        integer(x, &clip, 0, 2, "a clip: 0 (source), 1 (destination) or 2 (breathing)", &mo->clip))
        return -1;
    float dur = pb_clip_duration(x->base->clips[mo->clip]);
    return motion_time(x, &start, dur, &mo->start) || motion_time(x, &end, dur, &mo->end) ? -1 : 0;
}

static int space(ctx *x, const field *f, pb_bspace_method *out)
{
    const char *s = NULL;
    if (str(x, f, "a blend space: 1d or barycentric", &s)) return -1;
    for (int m = PB_BSPACE_1D; m <= PB_BSPACE_BARYCENTRIC; m++)
        if (!strcmp(s, pb_bspace_method_name((pb_bspace_method)m))) {
            *out = (pb_bspace_method)m;
            return 0;
        }
    return fail(x, f->at, "unknown blend space \"%s\" (expected 1d or barycentric: at most three motions weigh at "
                "once)", s);
}

/* Sample k of the blend space of state x->cur. */
static int sample(ctx *x, const field *s, size_t k)
{
    static const char *const k1[] = { "motion", "x", NULL }, *const k2[] = { "motion", "x", "y", NULL };
    pb_graph_state *st = &x->g->def.state[x->cur];
    int two = st->space == PB_BSPACE_BARYCENTRIC;
    field mo = get(s->at, s->v, "motion"), sx = get(s->at, s->v, "x"), sy = get(s->at, s->v, "y");
    return keys(x, s->at, s->v, two ? k2 : k1) || find(x, &mo, K_MOTION, &st->motion[k]) ||
           number(x, &sx, -FLT_MAX, FLT_MAX, FINITE, &st->x[k]) ||
           (two && number(x, &sy, -FLT_MAX, FLT_MAX, FINITE, &st->y[k])) ? -1 : 0;
}

static int state(ctx *x, const field *s, size_t i)
{
    static const char *const k1[] = { "name", "motion", "loop", NULL };
    static const char *const k2[] = { "name", "space", "x", "y", "samples", "loop", NULL };
    static const char *const kl[] = { "method", "duration", NULL };
    const cJSON *e = s->v;
    field name = get(s->at, e, "name"), loop = get(s->at, e, "loop");
    pb_graph_state *st = &x->g->def.state[i];
    int blend = cJSON_GetObjectItemCaseSensitive(e, "samples") != NULL;
    if (keys(x, s->at, e, blend ? k2 : k1) || new_name(x, &name, K_STATE, i, st->name)) return -1;
    st->px = st->py = -1;
    if (blend) {
        field sp = get(s->at, e, "space"), px = get(s->at, e, "x"), py = get(s->at, e, "y");
        field f = get(s->at, e, "samples");
        if (space(x, &sp, &st->space) || find(x, &px, K_PARAM, &st->px)) return -1;
        if (st->space == PB_BSPACE_BARYCENTRIC ? find(x, &py, K_PARAM, &st->py)
            : py.v ? fail(x, py.at, "a 1d space reads only x") : 0)
            return -1;
        x->cur = i;
        if (each(x, &f, PB_GRAPH_MAX_SAMPLES, "PB_GRAPH_MAX_SAMPLES", 1, &st->samples, sample)) return -1;
    } else {
        field mo = get(s->at, e, "motion");
        if (!mo.v) return fail(x, s->at, "missing \"motion\" (a motion name) or \"samples\" (a blend space)");
        if (find(x, &mo, K_MOTION, &st->motion[0])) return -1;
        st->samples = 1;
    }
    st->loop_method = PB_GM_INERTIALIZE, st->loop_duration = LOOP_DURATION;
    if (loop.v && (keys(x, loop.at, loop.v, kl) || method_duration(x, loop.at, loop.v, &st->loop_method,
                                                                     &st->loop_duration)))
        return -1;
    return 0;
}

/* Condition k of transition x->cur: [parameter, "<" or ">", number]. */
static int condition(ctx *x, const field *f, size_t k)
{
    pb_graph_cond *c = &x->g->def.transition[x->cur].cond[k];
    if (!cJSON_IsArray(f->v) || cJSON_GetArraySize(f->v) != 3)
        return fail(x, f->at, "expected [parameter, \"<\" or \">\", number], got %s%s", type_of(f->v),
                    cJSON_IsArray(f->v) ? " of another length" : "");
    field p = item(f->at, cJSON_GetArrayItem(f->v, 0), 0), op = item(f->at, cJSON_GetArrayItem(f->v, 1), 1);
    field v = item(f->at, cJSON_GetArrayItem(f->v, 2), 2);
    const char *s = NULL;
    if (find(x, &p, K_PARAM, &c->param) || str(x, &op, "\"<\" or \">\"", &s)) return -1;
    if (strcmp(s, "<") && strcmp(s, ">")) return fail(x, op.at, "unknown comparison \"%s\" (expected \"<\" or \">\")", s);
    c->cmp = s[0] == '<' ? PB_GC_LESS : PB_GC_GREATER;
    return number(x, &v, -FLT_MAX, FLT_MAX, FINITE, &c->value);
}

/* A transition's "curve" and "bezier" (both optional; absent: smoothstep), checked as pb_graph_check does. */
static int curve(ctx *x, const char *at, const cJSON *obj, pb_graph_transition *tr)
{
    field f = get(at, obj, "curve"), b = get(at, obj, "bezier");
    const char *s = NULL;
    tr->curve = (pb_curve){ PB_CURVE_SMOOTHSTEP, 0, 0, 0, 0 };
    if (f.v) {
        if (str(x, &f, "a curve name (" PB_CURVE_NAMES ")", &s)) return -1;
        if ((tr->curve.kind = pb_curve_by_name(s)) == PB_CURVE_COUNT)
            return fail(x, f.at, "unknown curve \"%s\" (expected one of " PB_CURVE_NAMES ")", s);
        if (tr->method != PB_GM_CROSSFADE && tr->curve.kind != PB_CURVE_SMOOTHSTEP)
            return fail(x, f.at, "curve \"%s\" with method \"%s\": only a cross-fade takes a curve", s,
                        pb_graph_method_name(tr->method));
    }
    if (tr->curve.kind != PB_CURVE_BEZIER) return b.v ? fail(x, b.at, "goes with \"curve\": \"bezier\" only") : 0;
    size_t n;
    if (array(x, &b, 4, "x1, y1, x2, y2", 1, &n)) return -1;
    if (n != 4) return fail(x, b.at, "%zu numbers: expected 4 (x1, y1, x2, y2)", n);
    float *dst[4] = { &tr->curve.x1, &tr->curve.y1, &tr->curve.x2, &tr->curve.y2 };
    for (size_t i = 0; i < 4; i++) {
        field e = item(b.at, cJSON_GetArrayItem(b.v, (int)i), i);
        if (number(x, &e, 0, 1, "a control value in [0, 1]", dst[i])) return -1;
    }
    return pb_curve_check("bezier", &tr->curve) != PB_OK ? fail(x, b.at, "%s", pb_last_error()) : 0;
}

static int transition(ctx *x, const field *t, size_t i)
{
    static const char *const k[] = { "from", "to", "when", "method", "duration", "curve", "bezier", NULL };
    field from = get(t->at, t->v, "from"), to = get(t->at, t->v, "to"), when = get(t->at, t->v, "when");
    pb_graph_transition *tr = &x->g->def.transition[i];
    if (keys(x, t->at, t->v, k)) return -1;
    if (cJSON_IsString(from.v) && !strcmp(from.v->valuestring, "*")) tr->from = -1;
    else if (find(x, &from, K_STATE, &tr->from)) return -1;
    x->cur = i;
    return find(x, &to, K_STATE, &tr->to) ||
           each(x, &when, PB_GRAPH_MAX_CONDS, "PB_GRAPH_MAX_CONDS", 0, &tr->conds, condition) ||
           method_duration(x, t->at, t->v, &tr->method, &tr->duration) || curve(x, t->at, t->v, tr) ? -1 : 0;
}

/* Joint k of the mask of layer x->cur (made by mask()). */
static int joint(ctx *x, const field *j, size_t k)
{
    size_t joints = x->base->clips[0]->joints;
    char what[64];
    int at = 0;
    (void)k;
    snprintf(what, sizeof what, "a joint index (0 .. %zu)", joints - 1);
    if (integer(x, j, 0, (long)joints - 1, what, &at)) return -1;
    x->g->own_mask[x->cur][at] = 1;
    return 0;
}

/* Layer l's mask: "upper" / "chest" (the base's), "all" (none), or joint indices (a mask of our own). */
static int mask(ctx *x, const field *f, size_t l)
{
    pb_graph_layer *ly = &x->g->def.layer[l];
    size_t joints = x->base->clips[0]->joints, n;
    if (!f->v) return 0;
    if (cJSON_IsString(f->v)) {
        const char *s = f->v->valuestring;
        if (!strcmp(s, "all")) return 0;
        if (strcmp(s, "upper") && strcmp(s, "chest"))
            return fail(x, f->at, "unknown mask \"%s\" (expected upper, chest, all or an array of joint indices)", s);
        ly->mask = s[0] == 'u' ? x->base->upper : x->base->chest;
        return 0;
    }
    if (!cJSON_IsArray(f->v)) return fail(x, f->at, "expected upper, chest, all or an array of joint indices");
    if (!(x->g->own_mask[l] = calloc(joints, sizeof(float)))) return fail(x, f->at, "out of memory");
    x->cur = l;
    ly->mask = x->g->own_mask[l];
    return each(x, f, joints, "the skeleton's joints", 0, &n, joint);
}

static int layer(ctx *x, const field *l, size_t i)
{
    static const char *const k[] = { "kind", "motion", "weight", "mask", NULL };
    field kind = get(l->at, l->v, "kind"), mo = get(l->at, l->v, "motion");
    field w = get(l->at, l->v, "weight"), m = get(l->at, l->v, "mask");
    pb_graph_layer *ly = &x->g->def.layer[i];
    const char *s = NULL;
    if (keys(x, l->at, l->v, k) || str(x, &kind, "a layer kind: override or additive", &s)) return -1;
    if (strcmp(s, "override") && strcmp(s, "additive"))
        return fail(x, kind.at, "unknown layer kind \"%s\" (expected override or additive)", s);
    ly->kind = s[0] == 'o' ? PB_GL_OVERRIDE : PB_GL_ADDITIVE;
    ly->weight = -1;
    return find(x, &mo, K_MOTION, &ly->motion) || (w.v && find(x, &w, K_PARAM, &ly->weight)) || mask(x, &m, i) ? -1 : 0;
}

static int parse(ctx *x, const cJSON *root)
{
    static const char *const k[] = { "params", "motions", "states", "transitions", "layers", "start", "halflife",
                                     "halflife_scale", "halflife_min", "halflife_max", NULL };
    pb_graph_def *d = &x->g->def;
    /* in this order: names are defined before they are used */
    const struct { const char *key; size_t max; const char *limit; int required; size_t *n; element_fn one; } sec[] = {
        { "params", PB_GRAPH_MAX_PARAMS, "PB_GRAPH_MAX_PARAMS", 0, &d->params, param },
        { "motions", PB_GRAPH_MAX_MOTIONS, "PB_GRAPH_MAX_MOTIONS", 1, &d->motions, motion },
        { "states", PB_GRAPH_MAX_STATES, "PB_GRAPH_MAX_STATES", 1, &d->states, state },
        { "transitions", PB_GRAPH_MAX_TRANSITIONS, "PB_GRAPH_MAX_TRANSITIONS", 0, &d->transitions, transition },
        { "layers", PB_GRAPH_MAX_LAYERS, "PB_GRAPH_MAX_LAYERS", 0, &d->layers, layer } };
    if (keys(x, "", root, k)) return -1;
    for (size_t i = 0; i < sizeof sec / sizeof sec[0]; i++) {
        field f = get("", root, sec[i].key);
        if (each(x, &f, sec[i].max, sec[i].limit, sec[i].required, sec[i].n, sec[i].one)) return -1;
    }
    field start = get("", root, "start"), hl = get("", root, "halflife");
    d->start = 0, d->halflife = HALFLIFE;
    if ((start.v && find(x, &start, K_STATE, &d->start)) ||
        (hl.v && number(x, &hl, 0, 1e6, "a half-life in seconds (> 0)", &d->halflife)))
        return -1;
    field ue[3] = { get("", root, "halflife_scale"), get("", root, "halflife_min"), get("", root, "halflife_max") };
    float *uv[3] = { &d->hl_scale, &d->hl_min, &d->hl_max };
    d->hl_scale = PB_HALFLIFE_EST_SCALE, d->hl_min = PB_HALFLIFE_EST_MIN, d->hl_max = PB_HALFLIFE_EST_MAX;
    for (int i = 0; i < 3; i++)
        if (ue[i].v && number(x, &ue[i], 0, PB_HALFLIFE_EST_LIMIT, "Unreal's half-life scale, min or max (0 .. 10)", uv[i]))
            return -1;
    if (pb_halflife_est_check("halflife_scale, halflife_min, halflife_max", d->hl_scale, d->hl_min, d->hl_max) != PB_OK)
        return fail(x, "", "%s", pb_last_error());
    return 0;
}

/* The file, NUL-terminated, at most GRAPH_JSON_MAX_BYTES, a regular file (src/file.c: a FIFO is refused, not
 * waited on): checked before cJSON sees it (the NUL byte by load_text). */
static char *read_text(ctx *x, size_t *n)
{
    char *text = NULL;
    if (pb_file_read(x->file, GRAPH_JSON_MAX_BYTES, "graph definition", &text, n) != PB_OK) {
        if (x->err && x->errlen) snprintf(x->err, x->errlen, "%s", pb_last_error());   /* it names the file */
        return NULL;
    }
    return text;
}

/* cJSON's parse end (where it stopped: the same place as cJSON_GetErrorPtr, without its global) as line:column. */
static int syntax_error(ctx *x, const char *text, size_t n, const char *end)
{
    size_t off = end && end >= text && end <= text + n ? (size_t)(end - text) : 0, line = 1, col = 1;
    for (size_t i = 0; i < off; i++) {
        col++;
        if (text[i] == '\n') line++, col = 1;
    }
    size_t near = strcspn(text + off, "\r\n");
    if (!x->err || !x->errlen) return -1;
    if (off >= n) snprintf(x->err, x->errlen, "%s:%zu:%zu: JSON syntax error: the text ends early", x->file, line, col);
    else snprintf(x->err, x->errlen, "%s:%zu:%zu: JSON syntax error at: %.*s", x->file, line, col,
                  (int)(near < 24 ? near : 24), text + off);
    return -1;
}

void graph_json_free(graph_json *g)
{
    if (!g) return;
    for (size_t l = 0; l < PB_GRAPH_MAX_LAYERS; l++) free(g->own_mask[l]);
    memset(g, 0, sizeof *g);
}

/* The definition in text (n bytes, text[n] == 0) into x->g: the checks every source shares. */
static int load_text(ctx *x, const char *text, size_t n)
{
    if (memchr(text, 0, n)) return fail(x, "", "has a NUL byte: not a JSON text file");
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    int st = root ? parse(x, root) : syntax_error(x, text, n, end);
    cJSON_Delete(root);
    if (st == 0 && pb_graph_check(&x->g->def, x->base->clips, 3) != PB_OK) st = fail(x, "", "%s", pb_last_error());
    if (st != 0) graph_json_free(x->g);
    return st;
}

/* The arguments both entry points check; 0 with out emptied. */
static int start(ctx *x, const void *src)
{
    if (x->err && x->errlen) x->err[0] = 0;
    if (!x->g) return fail(x, "", "nowhere to put the graph");
    memset(x->g, 0, sizeof *x->g);
    if (!src || !x->base || !x->base->clips[0]) return fail(x, "", "no file or no base graph");
    return 0;
}

int graph_json_load(const char *path, const pb_graph_scene *base, graph_json *out, char *err, size_t errlen)
{
    ctx x = { path ? path : "(no file)", err, errlen, base, out, 0 };
    if (start(&x, path)) return -1;
    size_t n;
    char *text = read_text(&x, &n);
    if (!text) return -1;
    int st = load_text(&x, text, n);
    free(text);
    return st;
}

int graph_json_load_mem(const char *name, const char *text, size_t n, const pb_graph_scene *base, graph_json *out,
                        char *err, size_t errlen)
{
    ctx x = { name ? name : "(memory)", err, errlen, base, out, 0 };
    if (start(&x, text)) return -1;
    if (n > GRAPH_JSON_MAX_BYTES)
        return fail(&x, "", "is %zu bytes, over the limit of %u (GRAPH_JSON_MAX_BYTES)", n, GRAPH_JSON_MAX_BYTES);
    char *copy = malloc(n + 1);   /* cJSON reads up to a NUL */
    if (!copy) return fail(&x, "", "out of memory (%zu bytes)", n + 1);
    memcpy(copy, text, n);
    copy[n] = 0;
    int st = load_text(&x, copy, n);
    free(copy);
    return st;
}
