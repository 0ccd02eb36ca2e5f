/* skin.c — skinning set-up (posebench/skin.h): mesh and output buffers, the
 * mesh check, and jobs (validate once, run many) over the variants' skinning
 * kernels (kernels/skin.h, reference/skin.h). The synthetic mesh is in
 * skin_mesh.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define SKIN_ALIGN 64

static size_t plane_bytes(size_t n) { return (n * sizeof(float) + SKIN_ALIGN - 1) / SKIN_ALIGN * SKIN_ALIGN; }

static pb_status size_ok(size_t n, const char *fn)
{
    if (n == 0) return pb_fail(PB_ERR_EMPTY, "%s: n = 0 (at least one vertex)", fn);
    if (n > PB_MESH_MAX_VERTICES)
        return pb_fail(PB_ERR_SIZE, "%s: n = %zu vertices is over the limit PB_MESH_MAX_VERTICES = %zu", fn, n,
                       PB_MESH_MAX_VERTICES);
    return PB_OK;
}

pb_status pb_mesh_alloc(pb_mesh *m, size_t n, int influences)
{
    if (!m) return pb_fail(PB_ERR_NULL, "pb_mesh_alloc: m is NULL");
    memset(m, 0, sizeof *m);
    pb_status s = size_ok(n, "pb_mesh_alloc");
    if (s != PB_OK) return s;
    if (influences < 1 || influences > PB_SKIN_MAX_INFLUENCES)
        return pb_fail(PB_ERR_PARAM, "pb_mesh_alloc: influences = %d (must be 1 .. %d)", influences,
                       PB_SKIN_MAX_INFLUENCES);
    size_t pb = plane_bytes(n), planes = 6 + 2 * (size_t)influences;
    char *mem = aligned_alloc(SKIN_ALIGN, planes * pb);
    if (!mem) return pb_fail(PB_ERR_NOMEM, "pb_mesh_alloc: out of memory (%zu vertices)", n);
    memset(mem, 0, planes * pb);
    m->n = n;
    m->influences = influences;
    for (int c = 0; c < 3; c++) {
        m->pos[c] = (float *)(mem + (size_t)c * pb);
        m->nrm[c] = (float *)(mem + (size_t)(3 + c) * pb);
    }
    for (int j = 0; j < influences; j++) {
        m->idx[j] = (uint32_t *)(mem + (size_t)(6 + j) * pb);
        m->w[j] = (float *)(mem + (size_t)(6 + influences + j) * pb);
    }
    for (size_t v = 0; v < n; v++) m->w[0][v] = 1.0f;
    m->owned = mem;
    return PB_OK;
}

void pb_mesh_free(pb_mesh *m)
{
    if (!m) return;
    free(m->owned);
    memset(m, 0, sizeof *m);
}

pb_status pb_skinned_alloc(pb_skinned *o, size_t n)
{
    if (!o) return pb_fail(PB_ERR_NULL, "pb_skinned_alloc: s is NULL");
    memset(o, 0, sizeof *o);
    pb_status s = size_ok(n, "pb_skinned_alloc");
    if (s != PB_OK) return s;
    size_t pb = plane_bytes(n);
    char *mem = aligned_alloc(SKIN_ALIGN, 6 * pb);
    if (!mem) return pb_fail(PB_ERR_NOMEM, "pb_skinned_alloc: out of memory (%zu vertices)", n);
    memset(mem, 0, 6 * pb);
    o->n = n;
    for (int c = 0; c < 3; c++) {
        o->pos[c] = (float *)(mem + (size_t)c * pb);
        o->nrm[c] = (float *)(mem + (size_t)(3 + c) * pb);
    }
    o->owned = mem;
    return PB_OK;
}

void pb_skinned_free(pb_skinned *o)
{
    if (!o) return;
    free(o->owned);
    memset(o, 0, sizeof *o);
}

/* pb_mesh_check, the normal planes read only when `normals`. */
static pb_status mesh_check(const pb_mesh *m, size_t joints, int normals)
{
    if (!m) return pb_fail(PB_ERR_NULL, "mesh is NULL");
    pb_status s = size_ok(m->n, "mesh");
    if (s != PB_OK) return s;
    if (m->influences < 1 || m->influences > PB_SKIN_MAX_INFLUENCES)
        return pb_fail(PB_ERR_PARAM, "mesh.influences = %d (must be 1 .. %d)", m->influences, PB_SKIN_MAX_INFLUENCES);
    for (int c = 0; c < 3; c++)
        if (!m->pos[c] || (normals && !m->nrm[c]))
            return pb_fail(PB_ERR_NULL, "mesh.%s[%d] is NULL", m->pos[c] ? "nrm" : "pos", c);
    for (int j = 0; j < m->influences; j++)
        if (!m->idx[j] || !m->w[j]) return pb_fail(PB_ERR_NULL, "mesh.%s[%d] is NULL", m->idx[j] ? "w" : "idx", j);
    for (size_t v = 0; v < m->n; v++) {
        for (int c = 0; c < 3; c++) {
            if (!isfinite(m->pos[c][v]))
                return pb_fail(PB_ERR_PARAM, "mesh.pos[%d] of vertex %zu is %g (must be finite)", c, v, (double)m->pos[c][v]);
            if (normals && !isfinite(m->nrm[c][v]))
                return pb_fail(PB_ERR_PARAM, "mesh.nrm[%d] of vertex %zu is %g (must be finite)", c, v, (double)m->nrm[c][v]);
        }
        double sum = 0;
        for (int j = 0; j < m->influences; j++) {
            if (m->idx[j][v] >= joints)
                return pb_fail(PB_ERR_PARAM, "mesh.idx[%d] of vertex %zu is joint %u, out of range (the palette has %zu "
                               "joints)", j, v, (unsigned)m->idx[j][v], joints);
            float w = m->w[j][v];
            if (!isfinite(w) || w < 0.0f)
                return pb_fail(PB_ERR_PARAM, "mesh.w[%d] of vertex %zu is %g (must be finite and >= 0)", j, v, (double)w);
            sum += w;
        }
        if (!(fabs(sum - 1.0) <= PB_SKIN_WEIGHT_TOL))
            return pb_fail(PB_ERR_PARAM, "mesh weights of vertex %zu sum to %.9g (must be 1 +- %g; they are not "
                           "normalized for you)", v, sum, (double)PB_SKIN_WEIGHT_TOL);
    }
    return PB_OK;
}

pb_status pb_mesh_check(const pb_mesh *m, size_t joints) { return mesh_check(m, joints, 1); }

struct pb_skin_job {
    pb_skin_fn fn;
    pb_skin_kargs k;
    int lanes;        /* the variant's */
    uint32_t *span;   /* k.span, owned */
};

/* Same joints for every influence as the vertex before. */
static int same_joints(const pb_mesh *m, size_t v)
{
    for (int j = 0; j < m->influences; j++)
        if (m->idx[j][v] != m->idx[j][v - 1]) return 0;
    return 1;
}

pb_status pb_skin_spans(const pb_mesh *m, size_t min_run, uint32_t **span, size_t *nspan)
{
    *span = NULL;
    *nspan = 0;
    size_t count = 1;
    for (size_t v = 1; v < m->n; v++) count += !same_joints(m, v);
    if (count > m->n / (min_run ? min_run : 1)) return PB_OK;
    uint32_t *sp = malloc(count * sizeof *sp);
    if (!sp) return pb_fail(PB_ERR_NOMEM, "out of memory (%zu spans)", count);
    size_t c = 0;
    sp[c++] = 0;
    for (size_t v = 1; v < m->n; v++)
        if (!same_joints(m, v)) sp[c++] = (uint32_t)v;
    *span = sp;
    *nspan = count;
    return PB_OK;
}

typedef struct { const char *lo, *hi; } span;
static span fspan(const void *p, size_t count, size_t size)
{
    span s = { (const char *)p, (const char *)p + count * size };
    return s;
}
static int overlap(span a, span b) { return a.lo < b.hi && b.lo < a.hi; }

/* Every out plane against every other out plane, mesh plane and the palette
 * (the normal planes only when `normals`). */
static pb_status check_alias(const pb_mesh *m, const pb_palette *pal, size_t width, const pb_skinned *o, int normals)
{
    span in[7 + 2 * PB_SKIN_MAX_INFLUENCES];
    int nin = 0;
    for (int c = 0; c < 3; c++) {
        in[nin++] = fspan(m->pos[c], m->n, sizeof(float));
        if (normals) in[nin++] = fspan(m->nrm[c], m->n, sizeof(float));
    }
    for (int j = 0; j < m->influences; j++) {
        in[nin++] = fspan(m->idx[j], m->n, sizeof(uint32_t));
        in[nin++] = fspan(m->w[j], m->n, sizeof(float));
    }
    in[nin++] = fspan(pal->data, pal->n * width, sizeof(float));
    const int nout = normals ? 6 : 3;
    for (int a = 0; a < nout; a++) {
        span sa = fspan(a < 3 ? o->pos[a] : o->nrm[a - 3], o->n, sizeof(float));
        for (int b = 0; b < nin; b++)
            if (overlap(sa, in[b]))
                return pb_fail(PB_ERR_ALIAS, "out.%s[%d] overlaps %s", a < 3 ? "pos" : "nrm", a % 3,
                               b == nin - 1 ? "the palette" : "a mesh plane");
        for (int b = a + 1; b < nout; b++)
            if (overlap(sa, fspan(b < 3 ? o->pos[b] : o->nrm[b - 3], o->n, sizeof(float))))
                return pb_fail(PB_ERR_ALIAS, "out.%s[%d] overlaps out.%s[%d]", a < 3 ? "pos" : "nrm", a % 3,
                               b < 3 ? "pos" : "nrm", b % 3);
    }
    return PB_OK;
}

/* s with the message so far prefixed by the op's name. */
static pb_status prefixed(pb_status s, const char *name)
{
    char msg[400];
    snprintf(msg, sizeof msg, "%s", pb_last_error());
    return pb_fail(s, "%s: %s", name, msg);
}

/* Every check of pb_skin_job_create, then *j filled (nothing allocated). */
static pb_status job_init(pb_skin_job *j, pb_skin_method method, const pb_variant *v, const pb_skin_call *c)
{
    if (!c) return pb_fail(PB_ERR_NULL, "pb_skin_job_create: call is NULL");
    if (method != PB_SKIN_LBS && method != PB_SKIN_DQS)
        return pb_fail(PB_ERR_PARAM, "pb_skin_job_create: method %d is unknown", (int)method);
    const char *name = method == PB_SKIN_LBS ? "skin_lbs" : "skin_dqs";
    const size_t width = method == PB_SKIN_LBS ? PB_PALETTE_MAT_FLOATS : PB_PALETTE_DQ_FLOATS;
    const pb_palette *pal = c->palette;
    const pb_skinned *o = c->out;
    if (!c->mesh) return pb_fail(PB_ERR_NULL, "%s: mesh is NULL", name);
    if (!pal || !pal->data) return pb_fail(PB_ERR_NULL, "%s: palette%s is NULL", name, pal ? ".data" : "");
    if (!o) return pb_fail(PB_ERR_NULL, "%s: out is NULL", name);
    if (c->flags & ~PB_SKIN_FLAGS_KNOWN)
        return pb_fail(PB_ERR_PARAM, "%s: flags = %#x has unknown bits %#x (known: PB_SKIN_POSITIONS_ONLY = %#x)", name,
                       c->flags, c->flags & ~PB_SKIN_FLAGS_KNOWN, PB_SKIN_POSITIONS_ONLY);
    const int normals = !(c->flags & PB_SKIN_POSITIONS_ONLY);
    for (int p = 0; p < (normals ? 6 : 3); p++)
        if (!(p < 3 ? o->pos[p] : o->nrm[p - 3]))
            return pb_fail(PB_ERR_NULL, "%s: out.%s[%d] is NULL", name, p < 3 ? "pos" : "nrm", p % 3);
    const size_t C = c->characters ? c->characters : 1;
    if (c->character >= C)
        return pb_fail(PB_ERR_PARAM, "%s: character %zu is not below characters = %zu", name, c->character, C);
    if (pal->n == 0 || pal->n % C)
        return pb_fail(pal->n ? PB_ERR_SIZE : PB_ERR_EMPTY, "%s: palette.n = %zu is not a positive multiple of "
                       "characters = %zu", name, pal->n, C);
    if (pal->n > (size_t)INT32_MAX / width)
        return pb_fail(PB_ERR_SIZE, "%s: palette.n = %zu entries is too large (32-bit gather offsets: at most %zu)",
                       name, pal->n, (size_t)INT32_MAX / width);
    pb_status s = mesh_check(c->mesh, pal->n / C, normals);
    if (s != PB_OK) return prefixed(s, name);
    const pb_mesh *m = c->mesh;
    if (o->n != m->n) return pb_fail(PB_ERR_SIZE, "%s: out.n = %zu, mesh.n = %zu", name, o->n, m->n);
    if ((s = check_alias(m, pal, width, o, normals)) != PB_OK) return prefixed(s, name);
    if ((s = v ? pb_variant_check(v) : pb_variant_active(&v)) != PB_OK) return s;
    j->fn = method == PB_SKIN_LBS ? v->aux->lbs : v->aux->dqs;
    j->lanes = v->lanes;
    pb_skin_kargs *k = &j->k;
    k->n = m->n;
    k->influences = m->influences;
    k->pos_only = !normals;
    for (int p = 0; p < 3; p++) {   /* positions only: no normal planes, not even non-NULL ones */
        k->pos[p] = m->pos[p]; k->nrm[p] = normals ? m->nrm[p] : NULL;
        k->out_pos[p] = o->pos[p]; k->out_nrm[p] = normals ? o->nrm[p] : NULL;
    }
    for (int i = 0; i < m->influences; i++) { k->idx[i] = m->idx[i]; k->w[i] = m->w[i]; }
    k->pal = pal->data + c->character * width;
    k->stride = (int32_t)(width * C);
    k->joints = (int32_t)(pal->n / C);
    k->span = NULL;
    k->nspan = 0;
    j->span = NULL;
    return PB_OK;
}

pb_status pb_skin_job_create(pb_skin_job **job, pb_skin_method method, const pb_variant *v, const pb_skin_call *c)
{
    if (!job) return pb_fail(PB_ERR_NULL, "pb_skin_job_create: job is NULL");
    *job = NULL;
    pb_skin_job tmp;
    pb_status s = job_init(&tmp, method, v, c);
    if (s != PB_OK) return s;
    s = pb_skin_spans(c->mesh, PB_SKIN_SPAN_STEPS * (size_t)tmp.lanes, &tmp.span, &tmp.k.nspan);
    if (s != PB_OK) return prefixed(s, "pb_skin_job_create");
    tmp.k.span = tmp.span;
    pb_skin_job *j = malloc(sizeof *j);
    if (!j) {
        free(tmp.span);
        return pb_fail(PB_ERR_NOMEM, "pb_skin_job_create: out of memory");
    }
    *j = tmp;
    *job = j;
    return PB_OK;
}

pb_status pb_skin_job_run(const pb_skin_job *job)
{
    if (!job) return pb_fail(PB_ERR_NULL, "pb_skin_job_run: job is NULL");
    job->fn(&job->k);
    return PB_OK;
}

void pb_skin_job_free(pb_skin_job *job)
{
    if (!job) return;
    free(job->span);
    free(job);
}

static pb_status skin_once(pb_skin_method method, const pb_mesh *mesh, const pb_palette *palette, pb_skinned *out)
{
    pb_skin_call c = { mesh, palette, 1, 0, out, 0 };
    pb_skin_job j;   /* on the stack: a one-shot call allocates nothing (so finds no spans) */
    pb_status s = job_init(&j, method, NULL, &c);
    if (s != PB_OK) return s;
    return pb_skin_job_run(&j);
}

pb_status pb_skin_lbs(const pb_mesh *mesh, const pb_palette *palette, pb_skinned *out)
{
    return skin_once(PB_SKIN_LBS, mesh, palette, out);
}
pb_status pb_skin_dqs(const pb_mesh *mesh, const pb_palette *palette, pb_skinned *out)
{
    return skin_once(PB_SKIN_DQS, mesh, palette, out);
}
