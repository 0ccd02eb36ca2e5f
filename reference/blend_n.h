/* blend_n.h (reference) — the N-way blend (posebench/blend_n.h), one element
 * at a time, straight from the definitions. BNARGS is the argument block of
 * REAL. */

/* Element e's character's weights, normalized (times the reciprocal of their
 * sum); returns the heaviest input (the first on a tie). */
static size_t bn_weights(const BNARGS *k, size_t e, REAL *w)
{
    size_t c = e % k->characters, h = 0;
    REAL sum = R(0);
    for (size_t i = 0; i < k->k; i++) sum = sum + k->w[i * k->characters + c];
    REAL inv = R(1) / sum;
    for (size_t i = 0; i < k->k; i++) {
        w[i] = k->w[i * k->characters + c] * inv;
        if (w[i] > w[h]) h = i;
    }
    return h;
}

static quat bn_rot(const BNARGS *k, size_t i, size_t e)
{
    return qt(k->in[i][PB_ROT_W][e], k->in[i][PB_ROT_X][e], k->in[i][PB_ROT_Y][e], k->in[i][PB_ROT_Z][e]);
}

/* One element: positions and scales, then the rotation (the fast form; the
 * accurate one iterates on from it). */
static void bn_element(const BNARGS *k, size_t e, int accurate)
{
    REAL w[PB_BLEND_N_MAX];
    size_t h = bn_weights(k, e, w);
    for (int p = PB_POS_X; p <= PB_POS_Z; p++) {
        REAL s = R(0);
        for (size_t i = 0; i < k->k; i++) s = s + w[i] * k->in[i][p][e];
        k->out[p][e] = s;
    }
    for (int p = PB_SCL_X; p <= PB_SCL_Z; p++) {
        REAL s = R(0);
        for (size_t i = 0; i < k->k; i++) s = s + w[i] * (k->exp ? log(k->in[i][p][e]) : k->in[i][p][e]);
        k->out[p][e] = k->exp ? exp(s) : s;
    }
    quat qh = bn_rot(k, h, e), a = qt(R(0), R(0), R(0), R(0));
    for (size_t i = 0; i < k->k; i++) {
        quat q = bn_rot(k, i, e);
        REAL s = q_dot(q, qh) < R(0) ? -w[i] : w[i];   /* into the heaviest input's hemisphere */
        a = qt(a.w + s * q.w, a.x + s * q.x, a.y + s * q.y, a.z + s * q.z);
    }
    a = q_normalize(a);
    if (accurate) {
        /* M = sum w_i q_i q_i^T (q and -q alike), then x <- M x / |M x| */
        REAL M[4][4] = { { R(0) } };
        for (size_t i = 0; i < k->k; i++) {
            quat q = bn_rot(k, i, e);
            REAL v[4] = { q.w, q.x, q.y, q.z };
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++) M[r][c] = M[r][c] + w[i] * v[r] * v[c];
        }
        /* M <- M^2 / tr(M^2) until M settles to the top eigenvector's projector: with tr M = 1, 1 - tr(M^2)
         * bounds the other eigenvalues' share (<= tol: one more square leaves tol^2, below the rounding), so
         * how many squares it takes grows only as log2(1 / gap), with no truncation error left; at most
         * PB_BLEND_N_SQUARINGS (a tie or a near-tie below the rounding never settles). Then x = M x0, x0 the
         * fast result, or where x0 is nearly orthogonal to the eigenvector the column of M with the largest
         * diagonal (|v_j| >= 1/2), in x0's hemisphere. */
        const REAL tol = sizeof(REAL) == sizeof(float) ? R(1e-4) : R(1e-8);
        for (int it = 0; it < PB_BLEND_N_SQUARINGS; it++) {
            REAL S[4][4], tr = R(0);
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++) S[r][c] = M[r][0] * M[0][c] + M[r][1] * M[1][c] + M[r][2] * M[2][c] + M[r][3] * M[3][c];
            for (int r = 0; r < 4; r++) tr = tr + S[r][r];
            REAL inv = R(1) / tr;
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++) M[r][c] = S[r][c] * inv;
            if (R(1) - tr <= tol) break;
        }
        REAL x[4] = { a.w, a.x, a.y, a.z }, y[4];
        for (int r = 0; r < 4; r++) y[r] = M[r][0] * x[0] + M[r][1] * x[1] + M[r][2] * x[2] + M[r][3] * x[3];
        quat qy = qt(y[0], y[1], y[2], y[3]);
        if (q_dot(qy, qy) < R(1) / R(16)) {
            int j = 0;
            for (int r = 1; r < 4; r++) j = M[r][r] > M[j][j] ? r : j;
            REAL sg = M[0][j] * x[0] + M[1][j] * x[1] + M[2][j] * x[2] + M[3][j] * x[3] < R(0) ? R(-1) : R(1);
            qy = qt(sg * M[0][j], sg * M[1][j], sg * M[2][j], sg * M[3][j]);
        }
        a = q_normalize(qy);
    }
    k->out[PB_ROT_W][e] = a.w, k->out[PB_ROT_X][e] = a.x, k->out[PB_ROT_Y][e] = a.y, k->out[PB_ROT_Z][e] = a.z;
}

void REF(blend_n_fast)(const BNARGS *k)
{
    for (size_t e = 0; e < k->n; e++) bn_element(k, e, 0);
}
void REF(blend_n_accurate)(const BNARGS *k)
{
    for (size_t e = 0; e < k->n; e++) bn_element(k, e, 1);
}
