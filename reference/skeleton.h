/* skeleton.h — the reference's skeleton ops: fk, fk_static and bk. */

/* Forward kinematics: a child's global is its parent's global composed with
 * its local; parents precede children, so one pass in joint order does it.
 * Element e = joint * characters + character (crowd layout). */
static void fk_impl(const KARGS *k, kform (*compose)(kform, kform))
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    for (size_t j = 0; j < s->joints; j++)
        for (size_t c = 0; c < C; c++) {
            size_t e = j * C + c;
            kform local = ld_k(k->a, e);
            int32_t p = s->parents[j];
            kform global = p < 0 ? local : compose(ld_k((const REAL *const *)k->out, (size_t)p * C + c), local);
            st_k(k->out, e, global);
        }
}
void REF(fk)(const KARGS *k) { fk_impl(k, kf_mul); }
void REF(fk_static)(const KARGS *k)
{
    fk_impl(k, kf_mul_static);
}
/* Backward kinematics: each local is its global relative to its parent's
 * global. Children first (descending joints), so out may be the input. */
void REF(bk)(const KARGS *k)
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    for (size_t j = s->joints; j-- > 0;)
        for (size_t c = 0; c < C; c++) {
            size_t e = j * C + c;
            kform global = ld_k(k->a, e);
            int32_t p = s->parents[j];
            st_k(k->out, e, p < 0 ? global : kf_div(ld_k(k->a, (size_t)p * C + c), global));
        }
}
