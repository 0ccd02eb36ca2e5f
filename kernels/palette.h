/* palette.h — the skinning palettes' kernels (palette: 3x4 matrices;
 * palette_dq: dual quaternions), SIMD across elements, and the wide AoS
 * store they share: N = 12 or 8 floats per element written back to back.
 *
 * The store generalizes elementwise.h's interleave plans to any N <= 12:
 * output vector k of a block holds the floats k*L .. k*L+L-1 of the block's
 * L elements, i.e. lane l holds component g % N of element g / N (g = k*L +
 * l). Every component vector present in that output vector is permuted by
 * the same index g / N and a select keeps its lanes; components absent from
 * it (N > L) are skipped, so SSE/NEON pay 4 permutes per output vector and
 * AVX2 8, not N. */
#define PAL_MAX 12

typedef struct {
    int n;                       /* floats per element */
    int nsrc[PAL_MAX];           /* components present in output vector k */
    int src[PAL_MAX][PAL_MAX];   /* which ones, in lane order of first appearance */
    pb_vidx idx[PAL_MAX];        /* lane l <- element (k*L + l) / n */
    pb_vm pick[PAL_MAX][PAL_MAX];/* lanes of output vector k taken from its j-th component */
} pal_plan;

static void pal_plan_make(pal_plan *pl, int n)
{
    pl->n = n;
    for (int k = 0; k < n; k++) {
        int32_t idx[PB_LANES];
        float comp[PB_LANES];
        pl->nsrc[k] = 0;
        for (int l = 0; l < PB_LANES; l++) {
            int g = k * PB_LANES + l, c = g % n, seen = 0;
            idx[l] = g / n;
            comp[l] = (float)c;
            for (int j = 0; j < pl->nsrc[k]; j++) seen |= pl->src[k][j] == c;
            if (!seen) pl->src[k][pl->nsrc[k]++] = c;
        }
        pl->idx[k] = vidx_make(idx);
        for (int j = 0; j < pl->nsrc[k]; j++) pl->pick[k][j] = veq(vloadu(comp), vset1((float)pl->src[k][j]));
    }
}

/* The L elements of comp[0..n-1] (one vector per component) to dst[0 .. n*L). */
PB_VINLINE void pal_store(float *dst, const pb_vf *comp, const pal_plan *pl)
{
    for (int k = 0; k < pl->n; k++) {
        pb_vf o = vpermute(comp[pl->src[k][0]], pl->idx[k]);
        for (int j = 1; j < pl->nsrc[k]; j++) o = vsel(pl->pick[k][j], vpermute(comp[pl->src[k][j]], pl->idx[k]), o);
        vstoreu(dst + (size_t)k * PB_LANES, o);
    }
}
/* The same for the last, partial block: through a buffer, `left` elements copied. */
PB_VINLINE void pal_store_tail(float *dst, const pb_vf *comp, const pal_plan *pl, size_t left)
{
    float buf[PAL_MAX * PB_LANES];
    pal_store(buf, comp, pl);
    memcpy(dst, buf, left * (size_t)pl->n * sizeof(float));
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

static void k_palette(const pb_kargs *k)
{
    pal_plan plan;
    pal_plan_make(&plan, PB_PALETTE_MAT_FLOATS);
    for (size_t i = 0; i < k->n; i += PB_LANES) {
        pb_vf a[3][3], b[3][3], o[PB_PALETTE_MAT_FLOATS];
        vrs_matrix(vq_load(k->a, i), vv3_load(k->a, PB_SCL_X, i), a);
        vrs_matrix(vq_load(k->b, i), vv3_load(k->b, PB_SCL_X, i), b);
        vv3 tp = vv3_load(k->a, PB_POS_X, i), up = vv3_load(k->b, PB_POS_X, i);
        const pb_vf t[3] = { tp.x, tp.y, tp.z }, u[3] = { up.x, up.y, up.z };
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                o[4 * r + c] = vadd(vadd(vmul(a[r][0], b[0][c]), vmul(a[r][1], b[1][c])), vmul(a[r][2], b[2][c]));
            o[4 * r + 3] = vadd(vadd(vadd(vmul(a[r][0], u[0]), vmul(a[r][1], u[1])), vmul(a[r][2], u[2])), t[r]);
        }
        float *dst = k->pal + i * PB_PALETTE_MAT_FLOATS;
        if (k->n - i >= PB_LANES) pal_store(dst, o, &plan);
        else pal_store_tail(dst, o, &plan, k->n - i);
    }
}

static void k_palette_dq(const pb_kargs *k)
{
    pal_plan plan;
    pal_plan_make(&plan, PB_PALETTE_DQ_FLOATS);
    const pb_vf half = vset1(0.5f);
    for (size_t i = 0; i < k->n; i += PB_LANES) {
        vq ra = vq_load(k->a, i), rb = vq_load(k->b, i);
        vv3 t = vv3_add(vv3_load(k->a, PB_POS_X, i),
                        vq_mul_vec3(ra, vv3_mul(vv3_load(k->a, PB_SCL_X, i), vv3_load(k->b, PB_POS_X, i))));
        vq r = vq_mul(ra, rb);
        vq d = vq_mul(vq_make(vzero(), t.x, t.y, t.z), r);
        pb_vf o[PB_PALETTE_DQ_FLOATS] = { r.w, r.x, r.y, r.z, vmul(half, d.w), vmul(half, d.x), vmul(half, d.y),
                                          vmul(half, d.z) };
        float *dst = k->pal + i * PB_PALETTE_DQ_FLOATS;
        if (k->n - i >= PB_LANES) pal_store(dst, o, &plan);
        else pal_store_tail(dst, o, &plan, k->n - i);
    }
}
