/* all_variants.c — the runtime's variant rows plus the harness's emulated
 * builds (see all_variants.h). The kernels/isa_<isa>.c sources compiled
 * without ISA flags and with SIMDE_NO_NATIVE define pb_table_<isa>_emu;
 * CMake links them into the harness and defines PB_HAVE_EMULATED only with
 * -DPB_EMULATED=ON, and PB_HAVE_EMU_<isa> for each ISA of PB_EMULATED_ISAS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "all_variants.h"

#ifdef PB_HAVE_EMULATED
/* one row per ISA in PB_EMULATED_ISAS (cmake/isa.cmake defines PB_HAVE_EMU_<isa> for each) */
#define DECL(isa)                                                                                                    \
    PB_DECLARE_TABLE(pb_table_##isa##_emu)                                                                           \
    extern const pb_aux_table pb_aux_table_##isa##_emu;
#define ROW(isa, lanes) { #isa "-emu", #isa, PB_MODE_EMULATED, 0, lanes, pb_table_##isa##_emu, &pb_aux_table_##isa##_emu },
#ifdef PB_HAVE_EMU_sse41
DECL(sse41)
#endif
#ifdef PB_HAVE_EMU_avx2
DECL(avx2)
#endif
#ifdef PB_HAVE_EMU_avx512
DECL(avx512)
#endif
#ifdef PB_HAVE_EMU_neon
DECL(neon)
#endif
static const pb_variant emulated[] = {
#ifdef PB_HAVE_EMU_sse41
    ROW(sse41, 4)
#endif
#ifdef PB_HAVE_EMU_avx2
    ROW(avx2, 8)
#endif
#ifdef PB_HAVE_EMU_avx512
    ROW(avx512, 16)
#endif
#ifdef PB_HAVE_EMU_neon
    ROW(neon, 4)
#endif
};
static const size_t nemulated = sizeof emulated / sizeof emulated[0];
#else
static const pb_variant *const emulated = NULL;
static const size_t nemulated = 0;
#endif

int pb_all_variant_emulated(void) { return nemulated > 0; }

size_t pb_all_variant_count(void) { return pb_variant_count() + nemulated; }

const pb_variant *pb_all_variant_at(size_t i)
{
    size_t nrt = pb_variant_count();
    if (i < nrt) return pb_variant_at(i);
    return i - nrt < nemulated ? &emulated[i - nrt] : NULL;
}

static int is_emu_name(const char *name)
{
    size_t len = strlen(name);
    return len > 4 && strcmp(name + len - 4, "-emu") == 0;
}

pb_status pb_all_variant_find(const char *name, const pb_variant **v)
{
    if (!name || !v) return pb_fail(PB_ERR_NULL, "pb_all_variant_find: %s is NULL", name ? "result" : "name");
    for (size_t i = 0; i < nemulated; i++)
        if (strcmp(emulated[i].name, name) == 0) {
            *v = &emulated[i];
            return PB_OK;
        }
    if (!pb_all_variant_emulated() && is_emu_name(name))
        return pb_fail(PB_ERR_VARIANT, "variant '%s': the emulated builds were not built (configure with "
                                       "-DPB_EMULATED=ON)", name);
    pb_status s = is_emu_name(name) ? PB_ERR_VARIANT : pb_variant_find(name, v);
    if (s != PB_OK && pb_all_variant_emulated()) {
        char msg[512];
        size_t used = is_emu_name(name)
                          ? (size_t)snprintf(msg, sizeof msg, "variant '%s': not built emulated (-DPB_EMULATED_ISAS "
                                                              "names the ISAs built so); emulated builds:", name)
                          : (size_t)snprintf(msg, sizeof msg, "%s; emulated builds:", pb_last_error());
        for (size_t i = 0; i < nemulated && used < sizeof msg; i++)
            used += (size_t)snprintf(msg + used, sizeof msg - used, " %s", emulated[i].name);
        return pb_fail(s, "%s", msg);
    }
    return s;
}

pb_status pb_all_variant_force(const char *name)
{
    if (!name) return pb_variant_force_row(NULL);
    const pb_variant *v = NULL;
    pb_status s = pb_all_variant_find(name, &v);
    return s == PB_OK ? pb_variant_force_row(v) : s;
}

pb_status pb_all_variant_env(void)
{
    const char *e = getenv("POSEBENCH_VARIANT");
    if (!e || !*e || !is_emu_name(e)) return PB_OK;
    pb_status s = pb_all_variant_force(e);
    return s == PB_OK ? PB_OK : pb_fail(s, "POSEBENCH_VARIANT: %s", pb_last_error());
}
