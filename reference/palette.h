/* palette.h (reference) — the skinning palettes, straight from the formulas:
 * M = M(a) M(b) with M(x) = T(x.pos) R(x.rot) S(x.scl) (a: the global pose,
 * b: the inverse bind pose), written as 3x4 row-major matrices; and the
 * rigid part of the same product as a unit dual quaternion. Outputs are the
 * n entries of k->pal (no padding). b is per element, or per joint (k->b_chars
 * characters share it): element i reads b's BI(k, i). */
#define BI(k, i) ((k)->b_chars ? (i) / (k)->b_chars : (i))

/* R(q) S(s): the rotation matrix's columns scaled by s. */
static void rs_matrix(quat q, vec3 s, REAL m[3][3])
{
    REAL xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    REAL xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z, wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    m[0][0] = (R(1) - R(2) * (yy + zz)) * s.x; m[0][1] = R(2) * (xy - wz) * s.y; m[0][2] = R(2) * (xz + wy) * s.z;
    m[1][0] = R(2) * (xy + wz) * s.x; m[1][1] = (R(1) - R(2) * (xx + zz)) * s.y; m[1][2] = R(2) * (yz - wx) * s.z;
    m[2][0] = R(2) * (xz - wy) * s.x; m[2][1] = R(2) * (yz + wx) * s.y; m[2][2] = (R(1) - R(2) * (xx + yy)) * s.z;
}

void REF(palette)(const KARGS *k)
{
    for (size_t i = 0; i < k->n; i++) {
        REAL a[3][3], b[3][3];
        rs_matrix(ld_q(k->a, i), ld_v(k->a, PB_SCL_X, i), a);
        size_t bi = BI(k, i);
        rs_matrix(ld_q(k->b, bi), ld_v(k->b, PB_SCL_X, bi), b);
        vec3 ap = ld_v(k->a, PB_POS_X, i), bp = ld_v(k->b, PB_POS_X, bi);
        const REAL t[3] = { ap.x, ap.y, ap.z }, u[3] = { bp.x, bp.y, bp.z };
        REAL *o = k->pal + i * PB_PALETTE_MAT_FLOATS;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) o[4 * r + c] = a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c];
            o[4 * r + 3] = a[r][0] * u[0] + a[r][1] * u[1] + a[r][2] * u[2] + t[r];
        }
    }
}

/* Dual quaternion of the composed kineform's rotation and position (scale
 * dropped: dual-quaternion skinning blends rigid transforms): real = a.rot
 * b.rot, t = a.pos + a.rot (a.scl * b.pos) (the matrix's translation), dual
 * = 1/2 (0, t) real. */
void REF(palette_dq)(const KARGS *k)
{
    for (size_t i = 0; i < k->n; i++) {
        size_t bi = BI(k, i);
        quat ra = ld_q(k->a, i), rb = ld_q(k->b, bi);
        vec3 t = v3_add(ld_v(k->a, PB_POS_X, i),
                        q_mul_vec3(ra, v3_mul(ld_v(k->a, PB_SCL_X, i), ld_v(k->b, PB_POS_X, bi))));
        quat r = q_mul(ra, rb);
        quat d = q_mul(qt(R(0), t.x, t.y, t.z), r);
        REAL *o = k->pal + i * PB_PALETTE_DQ_FLOATS;
        o[0] = r.w; o[1] = r.x; o[2] = r.y; o[3] = r.z;
        o[4] = R(0.5) * d.w; o[5] = R(0.5) * d.x; o[6] = R(0.5) * d.y; o[7] = R(0.5) * d.z;
    }
}
#undef BI
