/* skin.h — the skinning kernels (posebench/skin.h), SIMD across vertices:
 * PB_LANES vertices per step. Where the palette entries come from:
 * - AVX-512, palettes of at most 64 joints (PB_LUT_MAX): each component's
 *   values for every joint copied once a call into a table of 32 or 64
 *   floats, then read in registers by index (vlut32: one two-table permute;
 *   vlut64: two and a blend). Zen 4, 100 k vertices, 4 random influences:
 *   LBS 5.1 -> 3.5 ns per vertex at 64 joints, 2.3 at 31.
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

/* Where a step reads the palette: gathered from it (lut 0), or, on a backend
 * with register tables, from its components laid out as tables read by
 * vlut32 (lut 1: at most 32 joints) or vlut64 (lut 2). lut is a constant of
 * each inlined copy of skin_run. */
typedef struct {
    const pb_skin_kargs *k;
    int lut, nin;   /* nin = k->influences, a constant when it is 4 */
    const float *tab;   /* component c of joint j at tab[c x PB_LUT_MAX + j] */
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

PB_VINLINE void skin_lbs_step(const skin_src *src, const skin_step *s)
{
    skin_at at;
    skin_locate(src, s, &at);
    pb_vf m[PB_PALETTE_MAT_FLOATS], w[PB_SKIN_MAX_INFLUENCES];
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
    vv3 p = skin_ld3(s->pos), n = skin_ld3(s->nrm);
    vv3 q = vv3_make(vadd(vadd(vadd(vmul(m[0], p.x), vmul(m[1], p.y)), vmul(m[2], p.z)), m[3]),
                     vadd(vadd(vadd(vmul(m[4], p.x), vmul(m[5], p.y)), vmul(m[6], p.z)), m[7]),
                     vadd(vadd(vadd(vmul(m[8], p.x), vmul(m[9], p.y)), vmul(m[10], p.z)), m[11]));
    vv3 t = vv3_make(vadd(vadd(vmul(m[0], n.x), vmul(m[1], n.y)), vmul(m[2], n.z)),
                     vadd(vadd(vmul(m[4], n.x), vmul(m[5], n.y)), vmul(m[6], n.z)),
                     vadd(vadd(vmul(m[8], n.x), vmul(m[9], n.y)), vmul(m[10], n.z)));
    pb_vf len = vsqrt(vv3_dot(t, t));
    pb_vm nz = vgt(len, vzero());   /* a zero normal stays zero */
    t = vv3_scale(t, vsel(nz, vdiv(vset1(1.0f), len), vzero()));   /* one division, not three */
    skin_st3(s->out_pos, q);
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
    skin_st3(s->out_nrm, vq_mul_vec3(c0, skin_ld3(s->nrm)));
}

/* The steps over all vertices: whole steps in place, the tail on copies. */
PB_VINLINE void skin_run(const skin_src *src, int dqs)
{
    const pb_skin_kargs *k = src->k;
    size_t i = 0;
    for (; i + PB_LANES <= k->n; i += PB_LANES) {
        skin_step s;
        for (int c = 0; c < 3; c++) {
            s.pos[c] = k->pos[c] + i; s.nrm[c] = k->nrm[c] + i;
            s.out_pos[c] = k->out_pos[c] + i; s.out_nrm[c] = k->out_nrm[c] + i;
        }
        for (int j = 0; j < k->influences; j++) { s.idx[j] = k->idx[j] + i; s.w[j] = k->w[j] + i; }
        if (dqs) skin_dqs_step(src, &s);
        else skin_lbs_step(src, &s);
    }
    size_t left = k->n - i;
    if (!left) return;
    float in[6 + PB_SKIN_MAX_INFLUENCES][PB_LANES], out[6][PB_LANES];
    uint32_t idx[PB_SKIN_MAX_INFLUENCES][PB_LANES];
    skin_step s;
    for (int c = 0; c < 3; c++) {
        for (size_t l = 0; l < PB_LANES; l++) {
            in[c][l] = l < left ? k->pos[c][i + l] : 0.0f;
            in[3 + c][l] = l < left ? k->nrm[c][i + l] : 0.0f;
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
    if (dqs) skin_dqs_step(src, &s);
    else skin_lbs_step(src, &s);
    for (int c = 0; c < 3; c++)
        for (size_t l = 0; l < left; l++) {
            k->out_pos[c][i + l] = out[c][l];
            k->out_nrm[c][i + l] = out[3 + c][l];
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
PB_VINLINE void skin_method(const pb_skin_kargs *k, int dqs)
{
    skin_src src = { k, 0, 0, NULL };
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

static void k_skin_lbs(const pb_skin_kargs *k) { skin_method(k, 0); }
static void k_skin_dqs(const pb_skin_kargs *k) { skin_method(k, 1); }
