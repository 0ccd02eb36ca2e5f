/* mm.h — the motion-matching search kernels (posebench/mm.h; reference:
 * reference/mm.h). Exhaustive: SIMD across database rows: PB_LANES rows a step, each
 * lane's squared distance summed feature by feature in the reference's
 * order, so every lane's distance is the reference's bit for bit and the
 * nearest row is the same. Queries go MM_QB at a time, sharing each loaded
 * feature vector (one pass over the database serves MM_QB characters of a
 * crowd). Each lane keeps its smallest distance and the step it came from
 * (strict <: its earliest); the lanes are then reduced to the smallest
 * distance, ties to the lowest row. Steps are counted in float: exact up to
 * 2^24 steps, above PB_MM_MAX_FRAMES / PB_LANES. Rows are read in blocks of
 * PB_MM_BLOCK (pb_mm_at): one contiguous stream. */

#define MM_QB PB_MM_QB
#define MM_EARLY 14   /* AABB: features summed before a partial distance may end a row or box */

/* Lanes of the step at row i inside query j's excluded rows [lo, hi]. */
PB_VINLINE pb_vm mm_excluded(const uint32_t *ex, size_t i)
{
    static const float iota[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    size_t lo = ex[0], hi = ex[1];
    if (lo > hi || hi < i || lo >= i + PB_LANES) return vlt(vset1(1.0f), vzero());   /* none */
    pb_vf l = vloadu(iota);
    float a = lo > i ? (float)(lo - i) : 0.0f, b = (float)((hi - i) < PB_LANES ? hi - i : PB_LANES);
    return mand(mnot(vlt(l, vset1(a))), mnot(vlt(vset1(b), l)));
}

/* The block of queries from q0: their count (at most MM_QB) and each one's
 * features and excluded range; a short block repeats its last query. */
PB_VINLINE size_t mm_block(const pb_mm_kargs *k, size_t q0, const float *x[MM_QB], const uint32_t *ex[MM_QB])
{
    size_t nq = k->n - q0 < MM_QB ? k->n - q0 : MM_QB;
    for (size_t j = 0; j < MM_QB; j++) {
        size_t q = q0 + (j < nq ? j : nq - 1);
        x[j] = k->q + q * PB_MM_FEATURES;
        ex[j] = k->ex ? k->ex + 2 * q : NULL;
    }
    return nq;
}

static void k_mm_search(const pb_mm_kargs *k)
{
    for (size_t q0 = 0; q0 < k->n; q0 += MM_QB) {
        const float *x[MM_QB];
        const uint32_t *ex[MM_QB];
        size_t nq = mm_block(k, q0, x, ex);
        pb_vf best[MM_QB], step[MM_QB];
        for (int j = 0; j < MM_QB; j++) {
            best[j] = vset1(INFINITY);
            step[j] = vzero();
        }
        for (size_t i = 0; i < k->stride; i += PB_LANES) {
            const float *row = k->feat + pb_mm_at(i, 0);
            pb_vf d[MM_QB];
            for (int j = 0; j < MM_QB; j++) d[j] = vzero();
            for (int f = 0; f < PB_MM_FEATURES; f++) {
                pb_vf v = vload(row + (size_t)f * PB_MM_BLOCK);
                for (int j = 0; j < MM_QB; j++) {
                    pb_vf t = vsub(v, vset1(x[j][f]));
                    d[j] = vadd(d[j], vmul(t, t));
                }
            }
            pb_vf s = vset1((float)(i / PB_LANES));
            for (int j = 0; j < MM_QB; j++) {
                pb_vm take = vlt(d[j], best[j]);
                if (ex[j]) take = mand(take, mnot(mm_excluded(ex[j], i)));
                best[j] = vsel(take, d[j], best[j]);
                step[j] = vsel(take, s, step[j]);
            }
        }
        for (size_t j = 0; j < nq; j++) {
            float bd[PB_LANES], bs[PB_LANES];
            vstoreu(bd, best[j]);
            vstoreu(bs, step[j]);
            float dmin = INFINITY;
            uint32_t at = UINT32_MAX;
            for (int l = 0; l < PB_LANES; l++) {
                uint32_t row = (uint32_t)bs[l] * PB_LANES + (uint32_t)l;
                if (bd[l] < dmin || (bd[l] == dmin && bd[l] < INFINITY && row < at)) {
                    dmin = bd[l];
                    at = row;
                }
            }
            k->best[q0 + j] = at;
            if (k->dist) k->dist[q0 + j] = dmin;
        }
    }
}

/* Lower bounds of the squared distance from x to boxes, one per lane
 * (reference/mm.h's mm_box_lb; the kernels sum them fused, in one or two
 * chains: mm_limit says why that stays exact). Per feature the reference's
 * max(lo - x, 0) + max(x - hi, 0) as x clamped to [lo, hi], minus x:
 * lo <= hi, so at most one term is positive, and the clamped value minus x
 * is that term exactly, or its negation (x - hi negated: the same square);
 * inside the box 0; padding boxes (lo = hi = +inf) +inf, as the reference's.
 * One operation fewer than the two maxima. */
PB_VINLINE pb_vf mm_box_u(pb_vf lo, pb_vf hi, pb_vf x)
{
    return vsub(vmin(vmax(x, lo), hi), x);
}

/* Feature f's low and high bounds of the PB_LANES boxes whose feature 0
 * starts at p (box[pb_mm_box_at(b, 0, 0)], b a multiple of MM_PIECE:
 * aligned; 16 lanes take two runs of PB_MM_BOX_RUN, the second at p + next:
 * MM_RUN_NEXT for the boxes after them). */
#define MM_RUN_NEXT (2 * PB_MM_BOX_RUN * PB_MM_FEATURES)
PB_VINLINE void mm_box_load(const float *p, size_t next, int f, pb_vf *lo, pb_vf *hi)
{
    const float *at = p + (size_t)f * (2 * PB_MM_BOX_RUN);
    *lo = vload_runs8(at, next);
    *hi = vload_runs8(at + PB_MM_BOX_RUN, next);
}

/* The bound a box must exceed to be skipped when the best row so far is
 * at best. The kernels' bounds are fused (vfma) and need not follow the
 * reference's summation order, so a bound may exceed the float distance of
 * a row in its box by rounding: each bound term at most the row's
 * (monotone rounding), at most 27 roundings on any term's way into either
 * sum (u = 2^-24 each), so bound <= row distance x (1 + 55u) away from
 * underflow. A box is skipped only above best x (1 + 2^-16) (that is
 * 1 + 256u) plus 2^-120 (terms that underflow): its rows are all strictly
 * beyond best, as the exact search requires (rows as near as the best are
 * read, for the lowest row of a tie). */
PB_VINLINE float mm_limit(float best)
{
    return best * (1.0f + 0x1p-16f) + 0x1p-120f;
}

/* The bounds of PB_LANES small boxes, from p (mm_box_load) into *d; 0
 * when every one is beyond lim after MM_EARLY features (partial sums only
 * grow). */
PB_VINLINE int mm_small_lb(const float *p, size_t next, const float *x, float lim, pb_vf *d)
{
    pb_vf d0 = vzero(), d1 = vzero(), lo, hi;
    int f = 0;
    for (; f + 1 < PB_MM_FEATURES; f += 2) {
        if (f == MM_EARLY && !many(vle(vadd(d0, d1), vset1(lim)))) return 0;
        mm_box_load(p, next, f, &lo, &hi);
        pb_vf u = mm_box_u(lo, hi, vset1(x[f]));
        d0 = vfma(u, u, d0);
        mm_box_load(p, next, f + 1, &lo, &hi);
        u = mm_box_u(lo, hi, vset1(x[f + 1]));
        d1 = vfma(u, u, d1);
    }
    mm_box_load(p, next, f, &lo, &hi);
    pb_vf u = mm_box_u(lo, hi, vset1(x[f]));
    *d = vadd(vfma(u, u, d0), d1);
    return 1;
}

/* The same for MM_QB queries at once, PB_LANES large boxes from L (a
 * multiple of PB_LANES): each bound vector loaded once for the block of
 * queries, query j's bounds to lb[j * s + L ..]. */
PB_VINLINE void mm_large_lb(const pb_mm_kargs *k, size_t L, const float *const x[MM_QB], float *lb, size_t s)
{
    const float *p = k->box[1] + pb_mm_box_at(L, 0, 0);
    pb_vf d[MM_QB];
    for (int j = 0; j < MM_QB; j++) d[j] = vzero();
    for (int f = 0; f < PB_MM_FEATURES; f++) {
        pb_vf l, h;
        mm_box_load(p, MM_RUN_NEXT, f, &l, &h);
        for (int j = 0; j < MM_QB; j++) {
            pb_vf u = mm_box_u(l, h, vset1(x[j][f]));
            d[j] = vfma(u, u, d[j]);
        }
    }
    for (int j = 0; j < MM_QB; j++) vstoreu(lb + (size_t)j * s + L, d[j]);
}

/* d plus features [from, to) of the squared distances from x to the
 * PB_LANES rows at row (their block's feature 0), in the reference's order. */
PB_VINLINE pb_vf mm_row_sum(const float *row, const float *x, int from, int to, pb_vf d)
{
    for (int f = from; f < to; f++) {
        pb_vf t = vsub(vload(row + (size_t)f * PB_MM_BLOCK), vset1(x[f]));
        d = vadd(d, vmul(t, t));
    }
    return d;
}

/* The rows of small box b (AABB search), PB_LANES at a time (a box is one
 * block: aligned loads). Boxes are visited out of row order, so a row
 * replaces the best when nearer, or as near and lower (the exhaustive
 * search's answer: the lowest of the nearest rows); a box as near as *best
 * is searched for that. */
PB_VINLINE void mm_rows(const pb_mm_kargs *k, size_t b, const float *x, const uint32_t *ex, float *best, uint32_t *at)
{
    float dd[PB_LANES];
    for (size_t i = b * PB_MM_BOX_SMALL; i < (b + 1) * PB_MM_BOX_SMALL; i += PB_LANES) {
        const float *row = k->feat + pb_mm_at(i, 0);
        pb_vf d = mm_row_sum(row, x, 0, MM_EARLY, vzero());
        if (!many(vle(d, vset1(*best)))) continue;
        d = mm_row_sum(row, x, MM_EARLY, PB_MM_FEATURES, d);
        if (ex) d = vsel(mm_excluded(ex, i), vset1(INFINITY), d);
        unsigned near = mbits(vle(d, vset1(*best)));
        if (!near) continue;
        vstoreu(dd, d);
        for (; near; near &= near - 1) {   /* the lanes as near as the best, in row order */
            int l = __builtin_ctz(near);
            if (dd[l] < *best || (dd[l] == *best && dd[l] < INFINITY && i + (size_t)l < *at)) {
                *best = dd[l];
                *at = (uint32_t)(i + (size_t)l);
            }
        }
    }
}

/* Large boxes a group: as many as their small boxes fill a piece of a
 * vector, MM_PIECE lanes (4 small boxes each: one large box on 4 lanes, two
 * on 8 or 16), a piece's first small box starting a run of PB_MM_BOX_RUN
 * or the vector's half of one (aligned). A visit bounds MM_PIECES groups at
 * once (two on 16 lanes: the next two with a large box near enough, not
 * four neighbours, most of whose small boxes are beyond: 2 of 4 large
 * boxes were near, CMU held-out queries). */
#define MM_PIECE (PB_LANES < PB_MM_BOX_RUN ? PB_LANES : PB_MM_BOX_RUN)
#define MM_PIECES (PB_LANES / MM_PIECE)
#define MM_GROUP (MM_PIECE / (PB_MM_BOX_LARGE / PB_MM_BOX_SMALL))

/* The first group of large boxes from L (a multiple of MM_GROUP) with a
 * box whose bound is not beyond lim (mm_limit of the best), other than
 * skip; nl if none. Most boxes are beyond:
 * PB_LANES of them are passed over in one comparison. */
PB_VINLINE size_t mm_next(const float *lb, size_t L, size_t nl, size_t skip, float lim)
{
    const pb_vf b = vset1(lim);
    const unsigned group = (1u << MM_GROUP) - 1;
    for (size_t v = L - L % PB_LANES; v < nl; v += PB_LANES) {
        unsigned near = mbits(vle(vloadu(lb + v), b));
        if (L > v) near &= ~0u << (L - v);   /* boxes before L: done */
        if (skip >= v && skip < v + PB_LANES) near &= ~(group << (skip - v));
        if (near) {
            size_t at = v + (size_t)__builtin_ctz(near);
            return at < nl ? at - at % MM_GROUP : nl;
        }
    }
    return nl;
}

/* The large box with the smallest bound (the first of them), PB_LANES
 * boxes a step (box numbers as floats: exact below 2^24). */
PB_VINLINE size_t mm_nearest(const float *lb, size_t nl)
{
    static const float iota[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    pb_vf m = vset1(INFINITY), at = vzero(), l = vloadu(iota);
    for (size_t L = 0; L < nl; L += PB_LANES, l = vadd(l, vset1((float)PB_LANES))) {
        pb_vf v = vloadu(lb + L);
        pb_vm lt = vlt(v, m);
        m = vsel(lt, v, m);
        at = vsel(lt, l, at);
    }
    float mv[PB_LANES], av[PB_LANES];
    vstoreu(mv, m);
    vstoreu(av, at);
    size_t best = 0;
    for (int i = 1; i < PB_LANES; i++)
        if (mv[i] < mv[best] || (mv[i] == mv[best] && av[i] < av[best])) best = (size_t)i;
    return (size_t)av[best];
}

/* The rows of the groups of large boxes from L and from L2 (L2 == nl:
 * none; MM_PIECES == 1: none): their small boxes bounded in one vector,
 * then the rows of each small box not beyond *best. */
PB_VINLINE void mm_visit(const pb_mm_kargs *k, size_t L, size_t L2, size_t nl, const float *x, const uint32_t *ex,
                         float *best, uint32_t *at)
{
    const size_t per = PB_MM_BOX_LARGE / PB_MM_BOX_SMALL, b = L * per, b2 = L2 < nl ? L2 * per : b;
    const size_t p = pb_mm_box_at(b, 0, 0), p2 = pb_mm_box_at(b2, 0, 0);
    float lbs[PB_LANES];
    pb_vf d;
    if (!mm_small_lb(k->box[0] + p, p2 - p, x, mm_limit(*best), &d)) return;
    vstoreu(lbs, d);
    unsigned near = mbits(vle(d, vset1(mm_limit(*best))));
    if (MM_PIECES > 1 && L2 >= nl) near &= (1u << MM_PIECE) - 1;   /* one group: the other half repeats it */
    for (; near; near &= near - 1) {
        size_t m = (size_t)__builtin_ctz(near);
        if (lbs[m] <= mm_limit(*best)) mm_rows(k, m < MM_PIECE ? b + m : b2 + m - MM_PIECE, x, ex, best, at);
    }
}

/* AABB search. The bounds of every large box for MM_QB queries at once
 * (each bound vector loaded once for the block: at 1 M rows they are 3.4
 * MB), then per query: the group holding its nearest large box first, for
 * a good early best, then in row order every group with a large box not
 * beyond the best so far. A small box lies inside its large box, so its
 * bound is at least the large one's: a large box beyond the best has only
 * small boxes beyond it, skipped by their own bound. Every box or row
 * skipped has a bound (or partial sum) above the best of rows already read
 * (the bounds are lower bounds of the rows' float distances: reference/
 * mm.h), so the answer is the exhaustive search's; reference/mm.h goes in
 * row order, with the same result.
 * Measured (CMU held-out queries, 100 k rows of shifted copies, us a query):
 *  - (avx512) a visit bounds the next two groups of two large boxes with a
 *    box near enough (MM_PIECES) instead of four neighbouring large boxes:
 *    9.4 against 11.3 (10 k rows: 1.11 against 1.28), three rounds
 *    alternating with the previous build; exhaustive 95.9 in the same runs;
 *  - (avx512 / avx2 / sse41) the boxes and rows near enough found from
 *    their lanes' bit mask (mbits, lowest first) instead of a scalar test of
 *    every lane, in mm_next, mm_visit and mm_rows: 10.6 against 12.1 (10.1
 *    against 11.3, 17.9 against 18.9), two rounds alternating with the
 *    previous build; same answers (the tests and validate's table);
 *  - (avx2 / sse41) bounds of low and high in one line per feature
 *    (pb_mm_box_at), the clamp form of mm_box_u, small boxes summed in two
 *    fused chains (mm_limit): 16.9 against 21.4 (sse41 28.6 against 31.9),
 *    medians of 6-8 runs alternating with the previous build; the layout
 *    and clamp alone 20.0 against 22.7, the two chains the rest (the 27
 *    dependent adds of one chain were the small boxes' cost); three chains
 *    no better than two; the rows' first 14 features also in two fused
 *    chains before the exact sum (rows that pass read twice): slower;
 *  - (avx2) features and bounds in planes of the whole database instead of
 *    16-item blocks, one query's large bounds at a time, no early outs:
 *    40.6 against 22.9-23.4 here (exhaustive 350 against 188-192: the
 *    planes' 27 streams, 400 KB apart; bench --op mm_aabb --op mm_search,
 *    medians of one session);
 *  - (avx2) bounding 2 or 4 groups at once (independent sums), prefetching
 *    the next group's bounds or the rows of every small box to be read,
 *    visiting groups in rough order of bound (4 bands): no gain, or slower
 *    (bands: 31 against 25; row order reads the bounds in address order);
 *  - (avx2) every group not beyond the best after the first visit bounded
 *    before any rows are read: 66 against 25 (304 large and 402 small boxes
 *    pass that first best, against 133 and 44 with the best as it improves);
 *  - (avx512, planes) a third level of 1024-row boxes: 27.8 against 27.
 *    Boxes of consecutive frames that large span most of the feature space
 *    (81 of 98 entered a query);
 *  - (avx512, planes) rows reordered as a k-d tree's leaves (boxes over
 *    them): 65 against 27. On real motion consecutive frames are near in
 *    every feature, a k-d leaf only in the few it was split on (16-row boxes
 *    0.79 wide per feature in k-d order, 0.46 in frame order, CMU);
 *  - (avx512, planes) the large bounds with an early out every 9 features,
 *    seeded by the box nearest on the first 9: 29 against 27. */
static void k_mm_search_aabb(const pb_mm_kargs *k)
{
    const size_t nl = k->stride / PB_MM_BOX_LARGE, s = k->box_stride[1];
    for (size_t q0 = 0; q0 < k->n; q0 += MM_QB) {
        const float *xs[MM_QB];
        const uint32_t *exs[MM_QB];
        size_t nq = mm_block(k, q0, xs, exs);
        for (size_t L = 0; L < nl; L += PB_LANES) mm_large_lb(k, L, xs, k->scratch, s);
        for (size_t j = 0; j < nq; j++) {
            const float *x = xs[j], *lb = k->scratch + j * s;
            float best = INFINITY;
            uint32_t at = UINT32_MAX;
            size_t first = mm_nearest(lb, nl);
            first -= first % MM_GROUP;
            mm_visit(k, first, nl, nl, x, exs[j], &best, &at);
            for (size_t L = mm_next(lb, 0, nl, first, mm_limit(best)); L < nl;) {
                size_t L2 = MM_PIECES > 1 ? mm_next(lb, L + MM_GROUP, nl, first, mm_limit(best)) : nl;
                mm_visit(k, L, L2, nl, x, exs[j], &best, &at);
                L = mm_next(lb, (L2 < nl ? L2 : L) + MM_GROUP, nl, first, mm_limit(best));
            }
            k->best[q0 + j] = at;
            if (k->dist) k->dist[q0 + j] = best;
        }
    }
}
