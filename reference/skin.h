/* skin.h (reference) — skinning a mesh by a palette, per vertex, straight
 * from the formulas (posebench/skin.h): linear blend skinning by the blended
 * 3x4 matrix, and dual-quaternion skinning (Kavan et al. 2008) by the
 * blended dual quaternion, each influence flipped into influence 0's
 * hemisphere. SKARGS is the skinning argument block of REAL; with
 * k->pos_only the normals are neither read nor written (their planes are
 * NULL) and the positions are computed as in the full form. */

/* The palette entry of vertex v's influence inf (joint j: pal + j x stride). */
static const REAL *skin_entry(const SKARGS *k, size_t v, int inf)
{
    return k->pal + (size_t)k->idx[inf][v] * (size_t)k->stride;
}

static vec3 skin_ld3(const REAL *const *pl, size_t v) { return v3(pl[0][v], pl[1][v], pl[2][v]); }
static void skin_st3(REAL *const *pl, size_t v, vec3 x) { pl[0][v] = x.x; pl[1][v] = x.y; pl[2][v] = x.z; }

/* n / |n|; a zero vector stays zero. */
static vec3 skin_unit(vec3 n)
{
    REAL len = v3_length(n);
    return len > R(0) ? v3(n.x / len, n.y / len, n.z / len) : v3(R(0), R(0), R(0));
}

void REF(skin_lbs)(const SKARGS *k)
{
    for (size_t v = 0; v < k->n; v++) {
        REAL m[PB_PALETTE_MAT_FLOATS] = { 0 };
        for (int j = 0; j < k->influences; j++) {
            const REAL *e = skin_entry(k, v, j), w = k->w[j][v];
            for (int c = 0; c < PB_PALETTE_MAT_FLOATS; c++) m[c] = m[c] + w * e[c];
        }
        vec3 p = skin_ld3(k->pos, v);
        skin_st3(k->out_pos, v, v3(m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3],
                                   m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
                                   m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]));
        if (k->pos_only) continue;
        vec3 n = skin_ld3(k->nrm, v);
        skin_st3(k->out_nrm, v, skin_unit(v3(m[0] * n.x + m[1] * n.y + m[2] * n.z,
                                             m[4] * n.x + m[5] * n.y + m[6] * n.z,
                                             m[8] * n.x + m[9] * n.y + m[10] * n.z)));
    }
}

void REF(skin_dqs)(const SKARGS *k)
{
    for (size_t v = 0; v < k->n; v++) {
        const REAL *e0 = skin_entry(k, v, 0);
        quat r0 = qt(e0[0], e0[1], e0[2], e0[3]), br = qt(R(0), R(0), R(0), R(0)), bd = br;
        for (int j = 0; j < k->influences; j++) {
            const REAL *e = skin_entry(k, v, j);
            quat r = qt(e[0], e[1], e[2], e[3]), d = qt(e[4], e[5], e[6], e[7]);
            REAL w = q_dot(r, r0) < R(0) ? -k->w[j][v] : k->w[j][v];   /* the antipodal flip */
            br = qt(br.w + w * r.w, br.x + w * r.x, br.y + w * r.y, br.z + w * r.z);
            bd = qt(bd.w + w * d.w, bd.x + w * d.x, bd.y + w * d.y, bd.z + w * d.z);
        }
        REAL inv = R(1) / sqrt(q_dot(br, br));
        quat c0 = qt(br.w * inv, br.x * inv, br.y * inv, br.z * inv), ce = qt(bd.w * inv, bd.x * inv, bd.y * inv, bd.z * inv);
        /* translation: the vector part of 2 ce conj(c0) */
        vec3 u = q_vec(c0), d = q_vec(ce);
        vec3 t = v3_scale(v3_add(v3_sub(v3_scale(d, c0.w), v3_scale(u, ce.w)), v3_cross(u, d)), R(2));
        skin_st3(k->out_pos, v, v3_add(q_mul_vec3(c0, skin_ld3(k->pos, v)), t));
        if (!k->pos_only) skin_st3(k->out_nrm, v, q_mul_vec3(c0, skin_ld3(k->nrm, v)));
    }
}

