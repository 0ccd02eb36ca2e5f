/* registry.c — the op registry, generated from the op table (src/ops.def):
 * what each op reads and writes, its flags. The harness, the CLI, the
 * benchmarks and pb_run work from it. */
#include <string.h>
#include "internal.h"

#define G(g) (1u << PB_G_##g)
#define T3 (G(POS) | G(ROT) | G(SCL))      /* a transform: what a static pose has */
#define VELS (G(VEL) | G(ANG) | G(SVL))    /* the velocity groups */
#define ALL (T3 | VELS)
#define NO_DOMAIN 0.0f, 0.0f
#define DOMAIN(lo, hi) lo, hi
#define NO_METHOD -1
#define METHOD_OF(op) PB_OP_##op

const int pb_aos_width[PB_AOS_ARRAYS] = { 3, 4, 3, 3, 3, 3 };
const int pb_aos_plane[PB_AOS_ARRAYS] = { PB_POS_X, PB_ROT_W, PB_SCL_X, PB_VEL_X, PB_ANG_X, PB_SVL_X };

static const pb_op_row rows[PB_OP_COUNT] = {
#define OP(name, summary, in_a, in_b, out, opt, flags, domain, method, tol, reason) \
    [PB_OP_##name] = { { #name, summary, in_a, in_b, out, opt, flags }, domain, method },
#include "ops.def"
#undef OP
};

/* Every op of PB_OP_LIST has exactly one row: count them. */
enum {
    PB_OP_ROWS = 0
#define OP(name, ...) + 1
#include "ops.def"
#undef OP
};
_Static_assert((int)PB_OP_ROWS == (int)PB_OP_COUNT, "src/ops.def must have one row per op of PB_OP_LIST (ops.h)");

const pb_op_row *pb_op_row_get(pb_op op) { return (unsigned)op < PB_OP_COUNT ? &rows[op] : NULL; }
const pb_op_row *pb_op_row_of(const pb_op_info *info)
{
    if (!info) return NULL;
    for (int i = 0; i < PB_OP_COUNT; i++)
        if (&rows[i].info == info || strcmp(rows[i].info.name, info->name) == 0) return &rows[i];
    return NULL;
}
const pb_op_info *pb_op_get(pb_op op) { return (unsigned)op < PB_OP_COUNT ? &rows[op].info : NULL; }

pb_status pb_op_find(const char *name, pb_op *op)
{
    if (!name || !op) return pb_fail(PB_ERR_NULL, "pb_op_find: %s is NULL", name ? "op" : "name");
    for (int i = 0; i < PB_OP_COUNT; i++)
        if (strcmp(rows[i].info.name, name) == 0) {
            *op = (pb_op)i;
            return PB_OK;
        }
    return pb_fail(PB_ERR_OP, "unknown op '%s' (posebench ops lists them)", name);
}
