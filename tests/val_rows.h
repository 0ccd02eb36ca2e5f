/* val_rows.h — a pb_val_sink for the tests of the tables besides the pose
 * ops' (skinning, motion matching, blend-space weights, the N-way blend):
 * it counts the rows the table sends for --json and checks each is a whole
 * row: op, form, variant, mode and metric named, and a verdict that agrees
 * with its own error and bound. */
#ifndef PB_TEST_VAL_ROWS_H
#define PB_TEST_VAL_ROWS_H
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "validate.h"

typedef struct {
    const char *op_prefix;   /* every row's op starts with it ("skin_", "mm_", "bspace", "blend_n") */
    size_t rows, fails, bad;
    char first_bad[200];
} val_rows;

static void val_rows_fn(const pb_val_row *r, void *user)
{
    val_rows *c = user;
    c->rows++;
    c->fails += !r->pass;
    const char *why = !r->op || strncmp(r->op, c->op_prefix, strlen(c->op_prefix)) ? "op"
                      : !r->form || !r->form[0] ? "form"
                      : !r->variant || !r->variant[0] ? "variant"
                      : !r->mode || (strcmp(r->mode, "native") && strcmp(r->mode, "emulated")) ? "mode"
                      : !r->metric.name[0] || !r->metric.unit ? "metric"
                      : r->elements == 0 ? "elements"
                      : isnan(r->max_err) ? "max_err NaN"
                      : (r->pass && r->bound >= 0 && !(r->max_err <= r->bound)) ? "passes above its bound"
                      : (!r->pass && r->bound >= 0 && r->max_err <= r->bound && r->nan == 0 && strcmp(r->op, "bspace"))
                          ? "fails within its bound"
                          : NULL;
    if (why && !c->bad++)
        snprintf(c->first_bad, sizeof c->first_bad, "%s: %s %s %s %s: max_err %g bound %g pass %d", why,
                 r->op ? r->op : "(null)", r->form ? r->form : "(null)", r->variant ? r->variant : "(null)",
                 r->metric.name, r->max_err, r->bound, r->pass);
}
#endif
