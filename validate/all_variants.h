/* all_variants.h — the variant table as the harness sees it: the runtime's
 * rows (pb_variant_at: native builds and scalar) followed by the emulated
 * build of every ISA (<isa>-emu), which only the harness contains and only
 * when configured with -DPB_EMULATED=ON. The rows are constant data: the
 * runtime never learns of them (no registration); pb_variant_check, pb_run
 * and the pb_variant_* accessors take them like any row. */
#ifndef PB_ALL_VARIANTS_H
#define PB_ALL_VARIANTS_H

#include "internal.h"

size_t pb_all_variant_count(void);
const pb_variant *pb_all_variant_at(size_t i);   /* NULL past the end */
/* By name over all rows. PB_ERR_VARIANT if unknown; an -emu name in a build
 * without emulated builds gets a message saying so (and how to build them). */
pb_status pb_all_variant_find(const char *name, const pb_variant **v);
/* pb_variant_force over all rows (NULL: automatic). */
pb_status pb_all_variant_force(const char *name);
/* If POSEBENCH_VARIANT names a row the runtime does not have (an -emu one),
 * force it here (the runtime alone would refuse the name); other names are
 * left to the runtime. PB_OK, or the find/check error. */
pb_status pb_all_variant_env(void);
/* 1 if this build has the emulated rows (PB_EMULATED), else 0. */
int pb_all_variant_emulated(void);

#endif
