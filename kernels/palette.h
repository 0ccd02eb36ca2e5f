/* palette.h — the skinning palettes' kernels (palette: 3x4 matrices;
 * palette_dq: dual quaternions), SIMD across elements, and the AoS store
 * they share: an element is `rows` rows of 4 floats (3 matrix rows, or the
 * real and dual quaternions), written back to back.
 *
 * The store transposes each row's 4 component vectors block by block (4x4
 * within every 128 bits: the backends' vtranspose4_blocks, in-lane shuffles)
 * and writes each element's row as one 4-float store. Measured on AVX-512
 * (AMD EPYC, 4096 joints in cache): palette 3.3 ns per joint, as fast as
 * with the stores left out, against 8.8 ns with any-lane permutes and selects
 * (elementwise.h's interleave plans widened to 12 components: 12 permutes
 * per output vector); palette_dq 2.4 against 4.4. */
#define PAL_ROWS 3

/* The L elements of comp[0 .. 4 rows) (one vector per component, row by
 * row; clobbered) to dst[0 .. 4 rows L). */
PB_VINLINE void pal_store(float *dst, pb_vf *comp, int rows)
{
    for (int r = 0; r < rows; r++) {
        pb_vf *t = comp + 4 * r;
        vtranspose4_blocks(t);
        for (int m = 0; m < PB_LANES / 4; m++)
            for (int j = 0; j < 4; j++) vstore_block4(dst + (size_t)(4 * m + j) * (size_t)(4 * rows) + 4 * r, t[j], m);
    }
}
/* The same for the last, partial block: through a buffer, `left` elements copied. */
PB_VINLINE void pal_store_tail(float *dst, pb_vf *comp, int rows, size_t left)
{
    float buf[4 * PAL_ROWS * PB_LANES];
    pal_store(buf, comp, rows);
    memcpy(dst, buf, left * (size_t)(4 * rows) * sizeof(float));
}

/* R(q) S(s) as in the reference: rotation matrix columns scaled by s. */
PB_VINLINE void vrs_matrix(vq q, vv3 s, pb_vf m[3][3])
{
    pb_vf two = vset1(2.0f), one = vset1(1.0f);
    pb_vf xx = vmul(q.x, q.x), yy = vmul(q.y, q.y), zz = vmul(q.z, q.z);
    pb_vf xy = vmul(q.x, q.y), xz = vmul(q.x, q.z), yz = vmul(q.y, q.z);
    pb_vf wx = vmul(q.w, q.x), wy = vmul(q.w, q.y), wz = vmul(q.w, q.z);
    m[0][0] = vmul(vsub(one, vmul(two, vadd(yy, zz))), s.x);
    m[0][1] = vmul(vmul(two, vsub(xy, wz)), s.y);
    m[0][2] = vmul(vmul(two, vadd(xz, wy)), s.z);
    m[1][0] = vmul(vmul(two, vadd(xy, wz)), s.x);
    m[1][1] = vmul(vsub(one, vmul(two, vadd(xx, zz))), s.y);
    m[1][2] = vmul(vmul(two, vsub(yz, wx)), s.z);
    m[2][0] = vmul(vmul(two, vsub(xz, wy)), s.x);
    m[2][1] = vmul(vmul(two, vadd(yz, wx)), s.y);
    m[2][2] = vmul(vsub(one, vmul(two, vadd(xx, yy))), s.z);
}

/* Where the vectors' lanes fall in b: b per element (C = 0), or (k->b_chars
 * = C) one b per joint, lane e at joint e / C. The walk keeps the next
 * vector's joint j and character c (no division per vector); below PB_LANES
 * characters a vector spans several joints, each lane's offset from j (a
 * function of c alone) tabled once per call. */
typedef struct {
    size_t C, j, c, last, q, r;   /* q, r: PB_LANES / C and PB_LANES % C, the step */
    int32_t (*off)[PB_LANES];     /* C < PB_LANES: [c][lane] */
} pal_walk;
PB_VINLINE void pal_walk_init(pal_walk *w, const pb_kargs *k, int32_t (*off)[PB_LANES])
{
    w->off = off;
    w->C = k->b_chars, w->j = w->c = w->q = w->r = 0, w->last = w->C ? k->n / w->C - 1 : 0;
    if (!w->C) return;
    w->q = PB_LANES / w->C, w->r = PB_LANES % w->C;
    if (w->C >= PB_LANES) return;
    for (size_t c0 = 0; c0 < w->C; c0++)
        for (size_t l = 0, c = c0, o = 0; l < PB_LANES; l++) {
            w->off[c0][l] = (int32_t)o;
            if (++c == w->C) c = 0, o++;
        }
}
/* b's static planes (pos, rot, scl) for the walk's next PB_LANES lanes into
 * v (loaded from element i where b is per element), then a step. Returns 1
 * when every lane has the same joint (v broadcasts it: the same bits as b
 * repeated per character); padding lanes, whose entries are not stored,
 * read the last joint. */
PB_VINLINE int pal_b_load(pal_walk *w, const pb_kargs *k, size_t i, pb_vf *v)
{
    const size_t C = w->C, j = w->j, c = w->c, L = PB_LANES;
    if (!C) {
        for (int p = 0; p < PB_STATIC_PLANES; p++) v[p] = vload(k->b[p] + i);
        return 0;
    }
    w->c = c + w->r, w->j = j + w->q;   /* the step: L lanes on */
    if (w->c >= C) w->c -= C, w->j++;
    if (c + L <= C) {
        for (int p = 0; p < PB_STATIC_PLANES; p++) v[p] = vset1(k->b[p][j]);
        return 1;
    }
    if (C >= L) {   /* two joints: the lanes before C - c the first's */
        static const float lane[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
        pb_vm first = vlt(vloadu(lane), vset1((float)(C - c)));
        size_t j1 = j < w->last ? j + 1 : w->last;
        for (int p = 0; p < PB_STATIC_PLANES; p++) v[p] = vsel(first, vset1(k->b[p][j]), vset1(k->b[p][j1]));
        return 0;
    }
    /* the lanes' joints are j .. j + PB_LANES - 1 at most: one load per plane, each lane picking its own */
    size_t have = w->last - j + 1 < L ? w->last - j + 1 : L;
    int32_t off[PB_LANES];
    for (size_t l = 0; l < L; l++) off[l] = w->off[c][l] < (int32_t)have ? w->off[c][l] : (int32_t)have - 1;
    pb_vidx ix = vidx_make(have == L ? w->off[c] : off);
    for (int p = 0; p < PB_STATIC_PLANES; p++) v[p] = vpermute(vload_n(k->b[p] + j, have, 0.0f), ix);
    return 0;
}
#define PAL_VQ(v) vq_make((v)[PB_ROT_W], (v)[PB_ROT_X], (v)[PB_ROT_Y], (v)[PB_ROT_Z])
#define PAL_VV3(v, first) vv3_make((v)[first], (v)[(first) + 1], (v)[(first) + 2])

/* b's matrix is made once per joint where b is per joint and a vector's
 * lanes share one (a crowd of at least PB_LANES characters). */
static void k_palette(const pb_kargs *k)
{
    pb_vf b[3][3], u[3];
    pal_walk w;
    int32_t off[PB_LANES][PB_LANES];
    pal_walk_init(&w, k, off);
    int same = 0;   /* b, u hold the broadcast matrix of joint w.j's previous vector */
    for (size_t i = 0; i < k->n; i += PB_LANES) {
        pb_vf a[3][3], o[PB_PALETTE_MAT_FLOATS], bv[PB_STATIC_PLANES];
        vrs_matrix(vq_load(k->a, i), vv3_load(k->a, PB_SCL_X, i), a);
        /* The same joint as the last vector: only the walk's step (b's planes not loaded again). Loading
         * them and comparing joints instead (one path for both) measured AVX2 2.90-2.97 ns per joint against
         * 2.14-2.24, AVX-512 1.55-1.61 against 1.63-1.72 (bench --op palette_bind --sizes 12800, two runs). */
        if (same && w.c + PB_LANES <= w.C && w.c >= PB_LANES) {
            w.c += PB_LANES;
            if (w.c == w.C) w.c = 0, w.j++;
        } else {
            same = pal_b_load(&w, k, i, bv);
            vrs_matrix(PAL_VQ(bv), PAL_VV3(bv, PB_SCL_X), b);
            for (int c = 0; c < 3; c++) u[c] = bv[PB_POS_X + c];
        }
        vv3 tp = vv3_load(k->a, PB_POS_X, i);
        const pb_vf t[3] = { tp.x, tp.y, tp.z };
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                o[4 * r + c] = vfma(a[r][2], b[2][c], vfma(a[r][1], b[1][c], vmul(a[r][0], b[0][c])));
            o[4 * r + 3] = vfma(a[r][2], u[2], vfma(a[r][1], u[1], vfma(a[r][0], u[0], t[r])));
        }
        float *dst = k->pal + i * PB_PALETTE_MAT_FLOATS;
        if (k->n - i >= PB_LANES) pal_store(dst, o, PB_PALETTE_MAT_FLOATS / 4);
        else pal_store_tail(dst, o, PB_PALETTE_MAT_FLOATS / 4, k->n - i);
    }
}

static void k_palette_dq(const pb_kargs *k)
{
    const pb_vf half = vset1(0.5f);
    pal_walk w;
    int32_t off[PB_LANES][PB_LANES];
    pal_walk_init(&w, k, off);
    for (size_t i = 0; i < k->n; i += PB_LANES) {
        pb_vf bv[PB_STATIC_PLANES];
        pal_b_load(&w, k, i, bv);
        vq ra = vq_load(k->a, i), rb = PAL_VQ(bv);
        vv3 t = vv3_add(vv3_load(k->a, PB_POS_X, i),
                        vq_mul_vec3_fma(ra, vv3_mul(vv3_load(k->a, PB_SCL_X, i), PAL_VV3(bv, PB_POS_X))));
        vq r = vq_mul_fma(ra, rb);
        vq d = vq_mul_fma(vq_make(vzero(), t.x, t.y, t.z), r);
        pb_vf o[PB_PALETTE_DQ_FLOATS] = { r.w, r.x, r.y, r.z, vmul(half, d.w), vmul(half, d.x), vmul(half, d.y),
                                          vmul(half, d.z) };
        float *dst = k->pal + i * PB_PALETTE_DQ_FLOATS;
        if (k->n - i >= PB_LANES) pal_store(dst, o, PB_PALETTE_DQ_FLOATS / 4);
        else pal_store_tail(dst, o, PB_PALETTE_DQ_FLOATS / 4, k->n - i);
    }
}
#undef PAL_VQ
#undef PAL_VV3
