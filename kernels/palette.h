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

static void k_palette(const pb_kargs *k)
{
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
        if (k->n - i >= PB_LANES) pal_store(dst, o, PB_PALETTE_MAT_FLOATS / 4);
        else pal_store_tail(dst, o, PB_PALETTE_MAT_FLOATS / 4, k->n - i);
    }
}

static void k_palette_dq(const pb_kargs *k)
{
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
        if (k->n - i >= PB_LANES) pal_store(dst, o, PB_PALETTE_DQ_FLOATS / 4);
        else pal_store_tail(dst, o, PB_PALETTE_DQ_FLOATS / 4, k->n - i);
    }
}
