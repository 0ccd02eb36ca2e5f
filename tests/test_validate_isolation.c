/* test_validate_isolation.c — a validation verdict must not depend on what
 * else ran before it (issue 14, defect 2). unroll is exact (copies and
 * negations): validated alone and after every other op it must report the
 * same numbers, 0 error on its exact metrics, and 0 between any variant and
 * the float reference. Runs one SIMD variant (the first this build has and
 * this CPU runs; scalar is the reference either way), quick cases, no motion
 * capture: the point is the order of ops, not coverage. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "validate.h"
#include "all_variants.h"

#define MAX_ROWS 64

typedef struct {
    pb_val_row rows[MAX_ROWS];
    int n, overflow;
} rows;

static void keep_unroll(const pb_val_row *r, void *user)
{
    rows *rs = user;
    if (strcmp(r->op, "unroll") != 0) return;
    if (rs->n == MAX_ROWS) {
        rs->overflow = 1;
        return;
    }
    rs->rows[rs->n++] = *r;
}

/* Metrics the tolerance table calls exact for unroll (rot_norm is the output's
 * own | |q| - 1 |, inherited from the random inputs, in every column). */
static int exact_metric(const char *name) { return strcmp(name, "rot_norm") != 0; }

int main(void)
{
    /* A SIMD variant if there is one: the harness's last evaluation of a
     * previous op then leaves non-zero differences behind. */
    const char *variant = "scalar";
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (strcmp(pb_variant_name(v), "scalar") != 0 && pb_variant_check(v) == PB_OK) {
            variant = pb_variant_name(v);
            break;
        }
    }
    printf("variant: %s\n", variant);
    static rows all, alone;
    pb_validate_opts o = { .variant = variant, .seed = 1, .quick = 1, .no_mocap = 1 };
    int fa = pb_validate(&o, keep_unroll, &all);
    CHECK(fa >= 0, "validate (all ops) failed to run: %s", pb_last_error());
    o.op = "unroll";
    int fu = pb_validate(&o, keep_unroll, &alone);
    CHECK(fu == 0, "validate --op unroll: %d failing rows (%s)", fu, fu < 0 ? pb_last_error() : "");
    CHECK(!all.overflow && !alone.overflow, "more than %d unroll rows", MAX_ROWS);
    CHECK(alone.n > 0 && all.n == alone.n, "unroll rows: %d after every op, %d alone", all.n, alone.n);
    for (int i = 0; i < alone.n && i < all.n; i++) {
        const pb_val_row *a = &alone.rows[i], *b = &all.rows[i];
        CHECK(!strcmp(a->variant, b->variant) && !strcmp(a->form, b->form) && !strcmp(a->metric.name, b->metric.name),
              "row %d: %s/%s/%s alone, %s/%s/%s after every op", i, a->variant, a->form, a->metric.name, b->variant,
              b->form, b->metric.name);
        CHECK(a->max_err == b->max_err && a->p99_err == b->p99_err && a->ref_err == b->ref_err &&
              a->var_vs_ref == b->var_vs_ref && a->bound == b->bound,
              "%s %s[%s] %s: alone max %.3g p99 %.3g ref %.3g vs_ref %.3g; after every op max %.3g p99 %.3g "
              "ref %.3g vs_ref %.3g", a->variant, a->op, a->form, a->metric.name, a->max_err, a->p99_err, a->ref_err,
              a->var_vs_ref, b->max_err, b->p99_err, b->ref_err, b->var_vs_ref);
        CHECK(b->pass, "%s unroll[%s] %s fails after every op", b->variant, b->form, b->metric.name);
        if (exact_metric(b->metric.name))
            CHECK(b->max_err == 0 && b->ref_err == 0 && b->var_vs_ref == 0,
                  "%s unroll[%s] %s: max %.3g, reference %.3g, vs reference %.3g (exact op)", b->variant, b->form,
                  b->metric.name, b->max_err, b->ref_err, b->var_vs_ref);
    }
    return check_done();
}
