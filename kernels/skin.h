/* skin.h — the skinning kernels (posebench/skin.h), SIMD across vertices:
 * PB_LANES vertices per step. Where the palette entries come from:
 * - AVX-512, palettes of at most 64 joints (PB_LUT_MAX): each component's
 *   values for every joint copied once a call into a table of 32 or 64
 *   floats, then read in registers by index (vlut32: one two-table permute;
 *   vlut64: two and a blend). Zen 4, 100 k vertices, 4 random influences:
 *   LBS 5.1 -> 3.5 ns per vertex at 64 joints, 2.3 at 31.
 * - where the job found runs of vertices with the same joints (spans,
 *   pb_skin_kargs) and a step lies in at most SKIN_SPANS_MAX of them: each
 *   influence's entry broadcast per run, runs after the first blended in by
 *   lane. Zen 4, 100 k vertices along 63 bones: LBS 3.5 -> 1.95 ns.
 * - otherwise each influence's entry is loaded 4 floats a lane at the
 *   offsets joint x stride and transposed into SoA (vgather4 of the
 *   backend): 5.1 ns per vertex on AVX-512, its 128-bit inserts the bound
 *   (a hardware gather per component (vgather) was 16.2; masked broadcasts
 *   and 256-bit halves instead of the inserts measured slower).
 * Summing each vertex's influences on whole records first (one masked
 * 512-bit load per influence, 16 sums transposed once) measured slower too:
 * 5.3-6.7 ns AVX-512, 10.4 AVX2, 10.7 SSE4.1 against 5.1 / 6.1 / 9.6 (the
 * 16-wide work on 12-float records cost more than the shuffles saved).
 * Steps read row by row (4 components), each row for every influence, so a
 * row's tables are loaded once a step; table loads bounded the
 * influence-by-influence order (4.2 ns at 64 joints). LBS sums the weighted
 * matrices with vfma (fused where the ISA has it: 3.5 against 4.0 ns at 64
 * joints, 2.3 against 2.6 at 31); its transforms stay multiply-add (fused,
 * AVX2 lost 12%). The last, partial step runs on copies of its vertices
 * padded with joint 0 and weight 1 (so every lane is finite), and writes
 * only its vertices: no padding or alignment is asked of the caller's
 * planes. */

#ifndef PB_LUT_MAX
#define PB_LUT_MAX 0   /* no register tables on this backend */
#endif

/* One step's inputs and outputs: PB_LANES vertices from each pointer. */
typedef struct {
    const float *pos[3], *nrm[3];
    const uint32_t *idx[PB_SKIN_MAX_INFLUENCES];
    const float *w[PB_SKIN_MAX_INFLUENCES];
    float *out_pos[3], *out_nrm[3];
} skin_step;

PB_VINLINE vv3 skin_ld3(const float *const *p) { return vv3_make(vloadu(p[0]), vloadu(p[1]), vloadu(p[2])); }
PB_VINLINE void skin_st3(float *const *p, vv3 v) { vstoreu(p[0], v.x); vstoreu(p[1], v.y); vstoreu(p[2], v.z); }

/* A step whose lanes lie in K <= SKIN_SPANS_MAX spans (pb_skin_kargs):
 * influence j's entry for the lanes of its k-th span, e[k][j]; m[k] the
 * lanes in span k or later (k >= 1). */
#define SKIN_SPANS_MAX 2   /* 3 measured slower on the steps in one (AVX2 4.26 against 3.15 ns) */
typedef struct {
    const float *e[SKIN_SPANS_MAX][PB_SKIN_MAX_INFLUENCES];
    pb_vm m[SKIN_SPANS_MAX];
} skin_spans;

/* Where a step reads the palette: gathered from it (lut 0), or, on a backend
 * with register tables, from its components laid out as tables read by
 * vlut32 (lut 1: at most 32 joints) or vlut64 (lut 2); or for a step in K
 * spans, broadcast from it (lut SKIN_SPAN1 + K - 1: K broadcasts and K - 1
 * blends per component). lut is a constant of each inlined copy of a step. */
#define SKIN_SPAN1 3
typedef struct {
    const pb_skin_kargs *k;
    int lut, nin;   /* nin = k->influences, a constant when it is 4 */
    const float *tab;   /* component c of joint j at tab[c x PB_LUT_MAX + j] */
    const skin_spans *sp;   /* lut >= SKIN_SPAN1 */
    int spans;   /* k->span is set (a constant: each kind in its own function) */
    int pos_only;   /* k->pos_only (a constant, as spans): no normals read or written */
} skin_src;

/* A step's influences as read positions: lane indices for the tables, or
 * gather offsets into the palette (only the one of src->lut is filled). */
typedef struct {
#if PB_LUT_MAX
    pb_vlut x[PB_SKIN_MAX_INFLUENCES];
#endif
    int32_t off[PB_SKIN_MAX_INFLUENCES][PB_LANES];
} skin_at;

PB_VINLINE void skin_locate(const skin_src *src, const skin_step *s, skin_at *at)
{
    if (src->lut >= SKIN_SPAN1) return;
    for (int j = 0; j < src->nin; j++) {
#if PB_LUT_MAX
        if (src->lut) {
            at->x[j] = vlut_index(s->idx[j]);
            continue;
        }
#endif
        for (int l = 0; l < PB_LANES; l++) at->off[j][l] = (int32_t)s->idx[j][l] * src->k->stride;
    }
}

/* Components 4r .. 4r + 3 of influence j's entries. */
PB_VINLINE void skin_row(const skin_src *src, const skin_at *at, int j, int r, pb_vf e[4])
{
    if (src->lut >= SKIN_SPAN1) {
        for (int c = 0; c < 4; c++) {
            e[c] = vset1(src->sp->e[0][j][4 * r + c]);
            for (int q = 1; q <= src->lut - SKIN_SPAN1; q++) e[c] = vsel(src->sp->m[q], vset1(src->sp->e[q][j][4 * r + c]), e[c]);
        }
        return;
    }
#if PB_LUT_MAX
    if (src->lut) {
        for (int c = 0; c < 4; c++) {
            const float *t = src->tab + (4 * r + c) * PB_LUT_MAX;
            e[c] = src->lut == 2 ? vlut64(t, at->x[j]) : vlut32(t, at->x[j]);
        }
        return;
    }
#endif
    vgather4(src->k->pal + 4 * r, at->off[j], e);
}

/* LBS's blended matrices m = sum_j w_j M_j, row by row from the step's
 * source (tables, spans or gathers). */
PB_VINLINE void skin_lbs_blend(const skin_src *src, const skin_step *s, pb_vf m[PB_PALETTE_MAT_FLOATS])
{
    skin_at at;
    skin_locate(src, s, &at);
    pb_vf w[PB_SKIN_MAX_INFLUENCES];
    for (int j = 0; j < PB_SKIN_MAX_INFLUENCES; j++)   /* all set: gcc -O3 for aarch64 warns otherwise */
        w[j] = j < src->nin ? vloadu(s->w[j]) : vzero();
    for (int r = 0; r < 3; r++) {
        pb_vf *mr = m + 4 * r;
        skin_row(src, &at, 0, r, mr);   /* influences >= 1 */
        for (int c = 0; c < 4; c++) mr[c] = vmul(w[0], mr[c]);
        for (int j = 1; j < src->nin; j++) {
            pb_vf e[4];
            skin_row(src, &at, j, r, e);
            for (int c = 0; c < 4; c++) mr[c] = vfma(w[j], e[c], mr[c]);
        }
    }
}

PB_VINLINE void skin_lbs_step(const skin_src *src, const skin_step *s)
{
    pb_vf m[PB_PALETTE_MAT_FLOATS];
#if PB_SKIN_BLEND_AOS
    _Static_assert(PB_SKIN_MAX_INFLUENCES == 4, "vskin_blend12 holds 4 influences");
    if (src->lut == 0) vskin_blend12(src->k->pal, src->k->stride, s->idx, s->w, src->nin, m);
    else
#endif
        skin_lbs_blend(src, s, m);
    vv3 p = skin_ld3(s->pos);
    vv3 q = vv3_make(vadd(vadd(vadd(vmul(m[0], p.x), vmul(m[1], p.y)), vmul(m[2], p.z)), m[3]),
                     vadd(vadd(vadd(vmul(m[4], p.x), vmul(m[5], p.y)), vmul(m[6], p.z)), m[7]),
                     vadd(vadd(vadd(vmul(m[8], p.x), vmul(m[9], p.y)), vmul(m[10], p.z)), m[11]));
    skin_st3(s->out_pos, q);
    if (src->pos_only) return;
    vv3 n = skin_ld3(s->nrm);
    vv3 t = vv3_make(vadd(vadd(vmul(m[0], n.x), vmul(m[1], n.y)), vmul(m[2], n.z)),
                     vadd(vadd(vmul(m[4], n.x), vmul(m[5], n.y)), vmul(m[6], n.z)),
                     vadd(vadd(vmul(m[8], n.x), vmul(m[9], n.y)), vmul(m[10], n.z)));
    pb_vf len = vsqrt(vv3_dot(t, t));
    pb_vm nz = vgt(len, vzero());   /* a zero normal stays zero */
    t = vv3_scale(t, vsel(nz, vdiv(vset1(1.0f), len), vzero()));   /* one division, not three */
    skin_st3(s->out_nrm, t);
}

PB_VINLINE void skin_dqs_step(const skin_src *src, const skin_step *s)
{
    skin_at at;
    skin_locate(src, s, &at);
    vq r0 = vq_make(vzero(), vzero(), vzero(), vzero()), br = r0, bd = r0;
    pb_vf w[PB_SKIN_MAX_INFLUENCES];
    for (int j = 0; j < src->nin; j++) {
        pb_vf e[4];
        skin_row(src, &at, j, 0, e);
        vq r = vq_make(e[0], e[1], e[2], e[3]);
        if (j == 0) r0 = r;
        w[j] = vloadu(s->w[j]);
        w[j] = vsel(vlt(vq_dot(r, r0), vzero()), vneg(w[j]), w[j]);   /* the antipodal flip */
        br = vq_make(vadd(br.w, vmul(w[j], r.w)), vadd(br.x, vmul(w[j], r.x)), vadd(br.y, vmul(w[j], r.y)),
                     vadd(br.z, vmul(w[j], r.z)));
    }
    for (int j = 0; j < src->nin; j++) {
        pb_vf e[4];
        skin_row(src, &at, j, 1, e);
        bd = vq_make(vadd(bd.w, vmul(w[j], e[0])), vadd(bd.x, vmul(w[j], e[1])), vadd(bd.y, vmul(w[j], e[2])),
                     vadd(bd.z, vmul(w[j], e[3])));
    }
    pb_vf inv = vdiv(vset1(1.0f), vsqrt(vq_dot(br, br)));
    vq c0 = vq_make(vmul(br.w, inv), vmul(br.x, inv), vmul(br.y, inv), vmul(br.z, inv));
    vq ce = vq_make(vmul(bd.w, inv), vmul(bd.x, inv), vmul(bd.y, inv), vmul(bd.z, inv));
    vv3 u = vq_vec(c0), d = vq_vec(ce);
    vv3 t = vv3_scale(vv3_add(vv3_sub(vv3_scale(d, c0.w), vv3_scale(u, ce.w)), vv3_cross(u, d)), vset1(2.0f));
    skin_st3(s->out_pos, vv3_add(vq_mul_vec3(c0, skin_ld3(s->pos)), t));
    if (!src->pos_only) skin_st3(s->out_nrm, vq_mul_vec3(c0, skin_ld3(s->nrm)));
}

PB_VINLINE void skin_step_as(const skin_src *src, const skin_step *s, int dqs)
{
    if (dqs) skin_dqs_step(src, s);
    else skin_lbs_step(src, s);
}

/* The step from vertex i (normals: NULL when pos_only, their planes are). */
PB_VINLINE void skin_step_at(const pb_skin_kargs *k, size_t i, int pos_only, skin_step *s)
{
    for (int c = 0; c < 3; c++) {
        s->pos[c] = k->pos[c] + i; s->out_pos[c] = k->out_pos[c] + i;
        s->nrm[c] = pos_only ? NULL : k->nrm[c] + i; s->out_nrm[c] = pos_only ? NULL : k->out_nrm[c] + i;
    }
    for (int j = 0; j < k->influences; j++) { s->idx[j] = k->idx[j] + i; s->w[j] = k->w[j] + i; }
}

/* The number of spans the whole step from vertex i lies in (span s holds
 * vertex i), or 0 when more than SKIN_SPANS_MAX. */
PB_VINLINE int skin_span_kind(const pb_skin_kargs *k, size_t i, size_t s)
{
    for (int q = 1; q <= SKIN_SPANS_MAX; q++) {
        const size_t end = s + q < k->nspan ? k->span[s + q] : k->n;
        if (end >= i + PB_LANES) return q;
    }
    return 0;
}
/* Span s moved on to the one holding vertex i. */
PB_VINLINE size_t skin_span_of(const pb_skin_kargs *k, size_t i, size_t s)
{
    while (s + 1 < k->nspan && k->span[s + 1] <= i) s++;
    return s;
}

/* Step st (from vertex i, span s) in K spans, its entries broadcast (lane[]: up to 16 lanes). */
PB_VINLINE void skin_span_step(const skin_src *src, const skin_step *st, size_t i, size_t s, int K, int dqs)
{
    static const float lane[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    const pb_skin_kargs *k = src->k;
    skin_spans sp;
    memset(&sp, 0, sizeof sp);   /* entries past nin and K: never read, set for the compiler's sake */
    for (int q = 0; q < K; q++) {
        const size_t v = q ? k->span[s + q] : i;   /* span s + q's first vertex in the step */
        if (q) sp.m[q] = vle(vset1((float)(v - i)), vloadu(lane));
        for (int j = 0; j < src->nin; j++) sp.e[q][j] = k->pal + (size_t)k->idx[j][v] * (size_t)k->stride;
    }
    skin_src ps = *src;
    ps.sp = &sp;
    ps.lut = SKIN_SPAN1 + K - 1;
    skin_step_as(&ps, st, dqs);
}

/* Whole steps from vertex i while they lie in at most SKIN_SPANS_MAX spans
 * (*sp: the span holding i, then the one holding the vertex returned: the
 * first not done). */
PB_VINLINE size_t skin_span_steps_nin(const skin_src *src, size_t i, size_t *sp, int dqs)
{
    const pb_skin_kargs *k = src->k;
    size_t s = *sp;
    for (; i + PB_LANES <= k->n; i += PB_LANES, s = skin_span_of(k, i, s)) {
        const int kind = skin_span_kind(k, i, s);
        if (!kind) break;
        skin_step st;
        skin_step_at(k, i, src->pos_only, &st);
        if (kind == 1) skin_span_step(src, &st, i, s, 1, dqs);   /* K a constant in each */
        else skin_span_step(src, &st, i, s, SKIN_SPANS_MAX, dqs);
    }
    *sp = s;
    return i;
}
/* Out of line: the caller's loop keeps its registers (its tables) to itself. */
PB_VINLINE size_t skin_span_steps_as(const skin_src *caller, size_t i, size_t *s, int dqs, int pos_only)
{
    skin_src src = { caller->k, SKIN_SPAN1, PB_SKIN_MAX_INFLUENCES, NULL, NULL, 1, pos_only };
    if (caller->k->influences == PB_SKIN_MAX_INFLUENCES) return skin_span_steps_nin(&src, i, s, dqs);
    src.nin = caller->k->influences;
    return skin_span_steps_nin(&src, i, s, dqs);
}
static __attribute__((noinline)) size_t skin_span_steps(const skin_src *caller, size_t i, size_t *s, int dqs)
{
    if (caller->pos_only) return skin_span_steps_as(caller, i, s, dqs, 1);
    return skin_span_steps_as(caller, i, s, dqs, 0);
}

/* The whole steps from vertex i to g, read by lane (the step's pointers
 * written out here: gcc turned skin_step_at's sums in this loop into vector
 * code spilled to the stack, 6% slower at 31 joints). */
PB_VINLINE size_t skin_steps(const skin_src *src, size_t i, size_t g, int dqs)
{
    const pb_skin_kargs *k = src->k;
    for (; i < g; i += PB_LANES) {
        skin_step st;
        for (int c = 0; c < 3; c++) {
            st.pos[c] = k->pos[c] + i; st.out_pos[c] = k->out_pos[c] + i;
            st.nrm[c] = src->pos_only ? NULL : k->nrm[c] + i;
            st.out_nrm[c] = src->pos_only ? NULL : k->out_nrm[c] + i;
        }
        for (int j = 0; j < k->influences; j++) { st.idx[j] = k->idx[j] + i; st.w[j] = k->w[j] + i; }
        skin_step_as(src, &st, dqs);
    }
    return i;
}

/* The steps over all vertices: whole steps in place, the tail on copies.
 * With spans, runs of steps in more than SKIN_SPANS_MAX spans alternate
 * with runs of steps in fewer (skin_span_steps). */
PB_VINLINE void skin_run(const skin_src *src, int dqs)
{
    const pb_skin_kargs *k = src->k;
    size_t i = 0, sp = 0;
    if (!src->spans) i = skin_steps(src, 0, k->n / PB_LANES * PB_LANES, dqs);
    while (src->spans && i + PB_LANES <= k->n) {
        size_t g = i, sg = sp;   /* the end of the run of other steps */
        while (g + PB_LANES <= k->n && !skin_span_kind(k, g, sg)) { g += PB_LANES; sg = skin_span_of(k, g, sg); }
        i = skin_steps(src, i, g, dqs);
        sp = sg;
        if (i + PB_LANES <= k->n) i = skin_span_steps(src, i, &sp, dqs);
    }
    size_t left = k->n - i;
    if (!left) return;
    float in[6 + PB_SKIN_MAX_INFLUENCES][PB_LANES], out[6][PB_LANES];
    uint32_t idx[PB_SKIN_MAX_INFLUENCES][PB_LANES];
    skin_step s;
    for (int c = 0; c < 3; c++) {
        for (size_t l = 0; l < PB_LANES; l++) {
            in[c][l] = l < left ? k->pos[c][i + l] : 0.0f;
            in[3 + c][l] = l < left && !src->pos_only ? k->nrm[c][i + l] : 0.0f;
        }
        s.pos[c] = in[c]; s.out_pos[c] = out[c];
        s.nrm[c] = in[3 + c]; s.out_nrm[c] = out[3 + c];
    }
    for (int j = 0; j < k->influences; j++) {
        for (size_t l = 0; l < PB_LANES; l++) {
            idx[j][l] = l < left ? k->idx[j][i + l] : 0;
            in[6 + j][l] = l < left ? k->w[j][i + l] : (j == 0 ? 1.0f : 0.0f);
        }
        s.idx[j] = idx[j];
        s.w[j] = in[6 + j];
    }
    skin_step_as(src, &s, dqs);
    for (int c = 0; c < 3; c++)
        for (size_t l = 0; l < left; l++) {
            k->out_pos[c][i + l] = out[c][l];
            if (!src->pos_only) k->out_nrm[c][i + l] = out[3 + c][l];
        }
}

#if PB_LUT_MAX
/* The palette's first 4 x rows components as tables for joints below n
 * (32 or 64); joints past the palette's repeat its last (never read). */
PB_VINLINE void skin_tables(const pb_skin_kargs *k, int rows, int n, float *tab)
{
    for (int j = 0; j < n; j += PB_LANES) {
        int32_t off[PB_LANES];
        pb_vf e[PB_PALETTE_MAT_FLOATS];
        for (int l = 0; l < PB_LANES; l++) off[l] = (j + l < k->joints ? j + l : k->joints - 1) * k->stride;
        for (int r = 0; r < rows; r++) vgather4(k->pal + 4 * r, off, e + 4 * r);
        for (int c = 0; c < 4 * rows; c++) vstore(tab + c * PB_LUT_MAX + j, e[c]);
    }
}
#endif

/* skin_run with the influence count a constant when it is 4 (the loops
 * unrolled, the indices and weights in registers). */
PB_VINLINE void skin_run_nin(skin_src *src, int dqs)
{
    if (src->k->influences == PB_SKIN_MAX_INFLUENCES) {
        src->nin = PB_SKIN_MAX_INFLUENCES;
        skin_run(src, dqs);
    } else {
        src->nin = src->k->influences;
        skin_run(src, dqs);
    }
}

/* Palettes of at most PB_LUT_MAX joints read from tables, others gathered. */
PB_VINLINE void skin_method(const pb_skin_kargs *k, int dqs, int spans, int pos_only)
{
    skin_src src = { k, 0, 0, NULL, NULL, spans, pos_only };
#if PB_LUT_MAX
    _Alignas(64) float tab[PB_PALETTE_MAT_FLOATS * PB_LUT_MAX];
    src.tab = tab;
    if (k->joints <= 32) {
        skin_tables(k, dqs ? 2 : 3, 32, tab);
        src.lut = 1;
        skin_run_nin(&src, dqs);
        return;
    }
    if (k->joints <= PB_LUT_MAX) {
        skin_tables(k, dqs ? 2 : 3, PB_LUT_MAX, tab);
        src.lut = 2;
        skin_run_nin(&src, dqs);
        return;
    }
#endif
    skin_run_nin(&src, dqs);
}

/* With spans and without, each in a function of its own: one function with
 * both kept fewer tables in registers (31 joints, random influences: 2.5
 * against 2.3 ns per vertex); positions only (PB_SKIN_POSITIONS_ONLY) the
 * same way, the normals' code left out by the constant. */
#define SKIN_KIND(name, dqs, spans, pos_only) \
    static __attribute__((noinline)) void name(const pb_skin_kargs *k) { skin_method(k, dqs, spans, pos_only); }
SKIN_KIND(skin_lbs_spans, 0, 1, 0)
SKIN_KIND(skin_lbs_plain, 0, 0, 0)
SKIN_KIND(skin_lbs_spans_pos, 0, 1, 1)
SKIN_KIND(skin_lbs_plain_pos, 0, 0, 1)
SKIN_KIND(skin_dqs_spans, 1, 1, 0)
SKIN_KIND(skin_dqs_plain, 1, 0, 0)
SKIN_KIND(skin_dqs_spans_pos, 1, 1, 1)
SKIN_KIND(skin_dqs_plain_pos, 1, 0, 1)
#undef SKIN_KIND
static void k_skin_lbs(const pb_skin_kargs *k)
{
    if (k->pos_only) {
        if (k->span) skin_lbs_spans_pos(k);
        else skin_lbs_plain_pos(k);
    } else if (k->span) skin_lbs_spans(k);
    else skin_lbs_plain(k);
}
static void k_skin_dqs(const pb_skin_kargs *k)
{
    if (k->pos_only) {
        if (k->span) skin_dqs_spans_pos(k);
        else skin_dqs_plain_pos(k);
    } else if (k->span) skin_dqs_spans(k);
    else skin_dqs_plain(k);
}
