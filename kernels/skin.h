/* skin.h — the skinning kernels (posebench/skin.h), SIMD across vertices:
 * PB_LANES vertices per step, each influence's palette entry loaded 4 floats
 * a lane at the offsets joint x stride and transposed into SoA (vgather4 of
 * the backend). Measured on AMD Zen 4 (AVX-512, 100 k vertices, bench --op
 * skin_lbs): LBS 16.2 ns per vertex with a hardware gather per component
 * (vgather), 5.1 with vgather4, whose 128-bit inserts are now the bottleneck
 * (left out, as an experiment, the loop ran at 2.1; masked broadcasts and
 * 256-bit halves instead of the inserts measured slower). Summing each
 * vertex's influences on whole records first (one masked 512-bit load per
 * influence, 16 sums transposed once; 128-bit rows on the narrower ISAs)
 * measured slower too: 5.3-6.7 ns AVX-512, 10.4 AVX2, 10.7 SSE4.1 against
 * 5.1 / 6.1 / 9.6 in the same conditions (the 16-wide work on 12-float
 * records and line-crossing loads cost more than the shuffles saved).
 * The last, partial step runs on copies of its vertices padded with joint 0
 * and weight 1 (so every lane is finite), and writes only its vertices:
 * no padding or alignment is asked of the caller's planes. */

/* One step's inputs and outputs: PB_LANES vertices from each pointer. */
typedef struct {
    const float *pos[3], *nrm[3];
    const uint32_t *idx[PB_SKIN_MAX_INFLUENCES];
    const float *w[PB_SKIN_MAX_INFLUENCES];
    float *out_pos[3], *out_nrm[3];
} skin_step;

PB_VINLINE void skin_offsets(const uint32_t *idx, int32_t stride, int32_t off[PB_LANES])
{
    for (int l = 0; l < PB_LANES; l++) off[l] = (int32_t)idx[l] * stride;
}
PB_VINLINE vv3 skin_ld3(const float *const *p) { return vv3_make(vloadu(p[0]), vloadu(p[1]), vloadu(p[2])); }
PB_VINLINE void skin_st3(float *const *p, vv3 v) { vstoreu(p[0], v.x); vstoreu(p[1], v.y); vstoreu(p[2], v.z); }

PB_VINLINE void skin_lbs_step(const pb_skin_kargs *k, const skin_step *s)
{
    pb_vf m[PB_PALETTE_MAT_FLOATS];
    for (int c = 0; c < PB_PALETTE_MAT_FLOATS; c++) m[c] = vzero();
    for (int j = 0; j < k->influences; j++) {
        int32_t off[PB_LANES];
        skin_offsets(s->idx[j], k->stride, off);
        pb_vf w = vloadu(s->w[j]);
        pb_vf e[PB_PALETTE_MAT_FLOATS];
        for (int r = 0; r < 3; r++) vgather4(k->pal + 4 * r, off, e + 4 * r);
        for (int c = 0; c < PB_PALETTE_MAT_FLOATS; c++) m[c] = vadd(m[c], vmul(w, e[c]));
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
    pb_vf l1 = vsel(nz, len, vset1(1.0f));
    t = vv3_make(vsel(nz, vdiv(t.x, l1), vzero()), vsel(nz, vdiv(t.y, l1), vzero()), vsel(nz, vdiv(t.z, l1), vzero()));
    skin_st3(s->out_pos, q);
    skin_st3(s->out_nrm, t);
}

PB_VINLINE vq skin_gather_q(const float *base, const int32_t off[PB_LANES])
{
    pb_vf v[4];
    vgather4(base, off, v);
    return vq_make(v[0], v[1], v[2], v[3]);
}

PB_VINLINE void skin_dqs_step(const pb_skin_kargs *k, const skin_step *s)
{
    vq r0 = vq_make(vzero(), vzero(), vzero(), vzero()), br = r0, bd = r0;
    for (int j = 0; j < k->influences; j++) {
        int32_t off[PB_LANES];
        skin_offsets(s->idx[j], k->stride, off);
        vq r = skin_gather_q(k->pal, off), d = skin_gather_q(k->pal + 4, off);
        if (j == 0) r0 = r;
        pb_vf w = vloadu(s->w[j]);
        w = vsel(vlt(vq_dot(r, r0), vzero()), vneg(w), w);   /* the antipodal flip */
        br = vq_make(vadd(br.w, vmul(w, r.w)), vadd(br.x, vmul(w, r.x)), vadd(br.y, vmul(w, r.y)), vadd(br.z, vmul(w, r.z)));
        bd = vq_make(vadd(bd.w, vmul(w, d.w)), vadd(bd.x, vmul(w, d.x)), vadd(bd.y, vmul(w, d.y)), vadd(bd.z, vmul(w, d.z)));
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
PB_VINLINE void skin_run(const pb_skin_kargs *k, int dqs)
{
    size_t i = 0;
    for (; i + PB_LANES <= k->n; i += PB_LANES) {
        skin_step s;
        for (int c = 0; c < 3; c++) {
            s.pos[c] = k->pos[c] + i; s.nrm[c] = k->nrm[c] + i;
            s.out_pos[c] = k->out_pos[c] + i; s.out_nrm[c] = k->out_nrm[c] + i;
        }
        for (int j = 0; j < k->influences; j++) { s.idx[j] = k->idx[j] + i; s.w[j] = k->w[j] + i; }
        if (dqs) skin_dqs_step(k, &s);
        else skin_lbs_step(k, &s);
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
    if (dqs) skin_dqs_step(k, &s);
    else skin_lbs_step(k, &s);
    for (int c = 0; c < 3; c++)
        for (size_t l = 0; l < left; l++) {
            k->out_pos[c][i + l] = out[c][l];
            k->out_nrm[c][i + l] = out[3 + c][l];
        }
}

static void k_skin_lbs(const pb_skin_kargs *k) { skin_run(k, 0); }
static void k_skin_dqs(const pb_skin_kargs *k) { skin_run(k, 1); }
