/* validate.c — the harness's entry point: for every op (registry) x form x
 * variant (dispatch table, native and emulated) x input case, run the double
 * oracle, the float reference and the variant on the same inputs and judge
 * the errors against the tolerance table (runner.c). Here: which variants,
 * which ops, the real motion capture, and the loop. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "all_variants.h"

static int variant_selected(const pb_variant *v, const char *filter)
{
    if (!filter) return 1;
    return strcmp(filter, pb_variant_name(v)) == 0 || strcmp(filter, pb_variant_isa(v)) == 0;
}

/* Variants to validate: those selected that this build has and this CPU runs
 * (the runtime's and, with PB_EMULATED, the emulated builds). */
static size_t pick_variants(const char *filter, const pb_variant **out, FILE *note)
{
    size_t k = 0;
    if (note && !pb_all_variant_emulated())
        fprintf(note, "# emulated variants (<isa>-emu) not built: validating the native ones and scalar "
                      "(configure with -DPB_EMULATED=ON to validate every ISA on this host)\n");
    for (size_t i = 0; i < pb_all_variant_count() && k < PB_VAL_MAXV; i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (!variant_selected(v, filter)) continue;
        if (pb_variant_check(v) != PB_OK) {
            if (note) fprintf(note, "# skipped %s: %s\n", pb_variant_name(v), pb_last_error());
            continue;
        }
        out[k++] = v;
    }
    return k;
}

int pb_validate(const pb_validate_opts *o, pb_row_fn row_fn, void *user)
{
    pb_val_run *run = calloc(1, sizeof *run);
    if (!run) {
        pb_fail(PB_ERR_NOMEM, "validate: out of memory");
        return -1;
    }
    run->o = o;
    run->row_fn = row_fn;
    run->user = user;
    run->nv = pick_variants(o->variant, run->vars, o->table);
    int failures = 0;
    unsigned char only[PB_OP_COUNT];   /* the ops asked for (all when none is named) */
    int any = o->op || o->nops;
    memset(only, !any, sizeof only);
    if (run->nv == 0) {
        pb_fail(PB_ERR_VARIANT, "no runnable variant matches '%s'", o->variant ? o->variant : "(all)");
        failures = -1;
    } else if (pb_variant_find("scalar", &run->scalar) != PB_OK) {
        failures = -1;
    }
    for (size_t i = 0; failures == 0 && any && i <= o->nops; i++) {
        const char *name = i < o->nops ? o->ops[i] : o->op;
        pb_op op;
        if (!name) continue;
        if (pb_op_find(name, &op) != PB_OK) failures = -1;
        else only[op] = 1;
    }
    pb_val_cases_make(&run->cases, o->quick);
    if (failures == 0 && !o->no_mocap) {
        /* the loader's message names the file and line */
        if (pb_mocap_load_scaled(&run->mocap, o->bvh, o->nbvh, o->bvh_scale, o->strict, o->table) != PB_OK) failures = -1;
        else if (o->table && run->mocap.nclips)
            fprintf(o->table, "# mocap: %zu clip(s) (%zu joints, %zu frames first)\n", run->mocap.nclips,
                    run->mocap.clips[0].joints, run->mocap.clips[0].frames);
        const char *why = NULL;
        int added = failures == 0 && o->model ? pb_mocap_add_asset(&run->mocap, o->model, &why) : 0;
        if (added < 0) failures = -1;
        else if (o->model && o->table)
            fprintf(o->table, "# model: %d clip(s) in the mocap class (%zu joints)%s%s\n", added, o->model->joints,
                    why ? ": not added, " : "", why ? why : "");
    }
    for (int opf = 0; opf < PB_OP_COUNT * PB_FORMS && failures >= 0; opf++) {
        int op = opf / PB_FORMS, form = opf % PB_FORMS;
        if (!only[op]) continue;
        if (!pb_val_form_applies(pb_op_get((pb_op)op), form)) continue;
        int f = pb_val_op(run, (pb_op)op, form);
        failures = f < 0 ? -1 : failures + f;
    }
    pb_mocap_free(&run->mocap);
    free(run);
    return failures;
}
