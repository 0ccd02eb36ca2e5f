/* variants.c — the dispatch table: one row per native kernel build, in
 * priority order. The first row whose features the CPU has is the default;
 * POSEBENCH_VARIANT or pb_variant_force() pick one by name (and are refused,
 * never silently replaced, when the CPU cannot run it). The emulated builds
 * (<isa>-emu) are not here: they exist for validation and live in the
 * harness (validate/all_variants.c), which runs them through the same
 * pb_variant_check / pb_run and can force one with pb_variant_force_row. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Tables present in this build: CMake defines PB_HAVE_<isa>_<mode> for each
 * object library it compiled. */
#define DECL(isa, mode) PB_DECLARE_TABLE(pb_table_##isa##_##mode)
#ifdef PB_HAVE_sse41_native
DECL(sse41, native)
#define T_sse41 pb_table_sse41_native
extern const pb_aux_table pb_aux_table_sse41_native;
#define S_sse41 (&pb_aux_table_sse41_native)
#else
#define T_sse41 NULL
#define S_sse41 NULL
#endif
#ifdef PB_HAVE_avx2_native
DECL(avx2, native)
#define T_avx2 pb_table_avx2_native
extern const pb_aux_table pb_aux_table_avx2_native;
#define S_avx2 (&pb_aux_table_avx2_native)
#else
#define T_avx2 NULL
#define S_avx2 NULL
#endif
#ifdef PB_HAVE_avx512_native
DECL(avx512, native)
#define T_avx512 pb_table_avx512_native
extern const pb_aux_table pb_aux_table_avx512_native;
#define S_avx512 (&pb_aux_table_avx512_native)
#else
#define T_avx512 NULL
#define S_avx512 NULL
#endif
#ifdef PB_HAVE_neon_native
DECL(neon, native)
#define T_neon pb_table_neon_native
extern const pb_aux_table pb_aux_table_neon_native;
#define S_neon (&pb_aux_table_neon_native)
#else
#define T_neon NULL
#define S_neon NULL
#endif

static const pb_variant table[] = {
    { "avx512", "avx512", PB_MODE_NATIVE, PB_CPU_AVX512 | PB_CPU_AVX2 | PB_CPU_FMA, 16, T_avx512, S_avx512 },
    { "avx2", "avx2", PB_MODE_NATIVE, PB_CPU_AVX2 | PB_CPU_FMA, 8, T_avx2, S_avx2 },
    { "sse41", "sse41", PB_MODE_NATIVE, PB_CPU_SSE41, 4, T_sse41, S_sse41 },
    { "neon", "neon", PB_MODE_NATIVE, PB_CPU_NEON, 4, T_neon, S_neon },
    { "scalar", "scalar", PB_MODE_NATIVE, 0, 1, pb_ref_table, &pb_ref_aux_table },
};
#define NVARIANTS (sizeof table / sizeof table[0])

size_t pb_variant_count(void) { return NVARIANTS; }
const pb_variant *pb_variant_at(size_t i) { return i < NVARIANTS ? &table[i] : NULL; }
const char *pb_variant_name(const pb_variant *v) { return v ? v->name : "(null)"; }
const char *pb_variant_isa(const pb_variant *v) { return v ? v->isa : "(null)"; }
pb_mode pb_variant_mode(const pb_variant *v) { return v ? v->mode : PB_MODE_NATIVE; }
int pb_variant_lanes(const pb_variant *v) { return v ? v->lanes : 0; }

static const char *host_arch(void)
{
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#else
    return "this architecture";
#endif
}

pb_status pb_variant_check(const pb_variant *v)
{
    if (!v) return pb_fail(PB_ERR_NULL, "variant is NULL");
    if (!v->table)
        return pb_fail(PB_ERR_UNSUPPORTED, "variant '%s' is not built for %s (the validation harness's emulated "
                                           "build '%s-emu' runs anywhere)", v->name, host_arch(), v->isa);
    uint32_t missing = v->features & ~pb_cpu_features();
    if (missing) {
        char need[96], have[96];
        pb_cpu_feature_names(missing, need, sizeof need);
        pb_cpu_feature_names(pb_cpu_features(), have, sizeof have);
        return pb_fail(PB_ERR_UNSUPPORTED, "variant '%s' needs CPU features this machine lacks or has disabled: %s "
                                           "(available: %s)", v->name, need, have);
    }
    return PB_OK;
}

pb_status pb_variant_find(const char *name, const pb_variant **v)
{
    if (!name || !v) return pb_fail(PB_ERR_NULL, "pb_variant_find: %s is NULL", name ? "result" : "name");
    for (size_t i = 0; i < NVARIANTS; i++)
        if (strcmp(table[i].name, name) == 0) {
            *v = &table[i];
            return PB_OK;
        }
    char names[256];
    size_t used = 0;
    for (size_t i = 0; i < NVARIANTS && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", table[i].name);
    size_t len = strlen(name);
    int emu = len > 4 && strcmp(name + len - 4, "-emu") == 0;
    return pb_fail(PB_ERR_VARIANT, "unknown variant '%s' (known: %s)%s", name, names,
                   emu ? "; emulated builds (-emu) exist only in the validation harness (posebench CLI, "
                         "configured with -DPB_EMULATED=ON)" : "");
}

/* The forced name: from pb_variant_force(), else POSEBENCH_VARIANT (read once). forced may change
 * while other threads run ops (pb_run reads it on every call without a plan): an atomic pointer,
 * stored with release and loaded with acquire, the row it points to published with it. On x86 the
 * acquire load is a plain mov (AArch64: ldar), so pb_run's path costs what it did. */
static const pb_variant *_Atomic forced;
static char forced_env[64];
static int forced_env_set;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static void read_env(void)
{
    const char *e = getenv("POSEBENCH_VARIANT");
    if (e && *e) {
        snprintf(forced_env, sizeof forced_env, "%s", e);
        forced_env_set = 1;
    }
}

pb_status pb_variant_force_row(const pb_variant *v)
{
    if (v) {
        pb_status s = pb_variant_check(v);
        if (s != PB_OK) return s;
    }
    atomic_store_explicit(&forced, v, memory_order_release);
    return PB_OK;
}

pb_status pb_variant_force(const char *name)
{
    if (!name) return pb_variant_force_row(NULL);
    const pb_variant *v;
    pb_status s = pb_variant_find(name, &v);
    return s == PB_OK ? pb_variant_force_row(v) : s;
}

pb_status pb_variant_active(const pb_variant **out)
{
    if (!out) return pb_fail(PB_ERR_NULL, "pb_variant_active: result pointer is NULL");
    pthread_once(&env_once, read_env);
    const pb_variant *v = atomic_load_explicit(&forced, memory_order_acquire);
    if (!v && forced_env_set) {
        pb_status s = pb_variant_find(forced_env, &v);
        if (s != PB_OK) return pb_fail(s, "POSEBENCH_VARIANT: %s", pb_last_error());
    }
    if (v) {
        pb_status s = pb_variant_check(v);
        if (s != PB_OK) return s;
        *out = v;
        return PB_OK;
    }
    for (size_t i = 0; i < NVARIANTS; i++)
        if (table[i].mode == PB_MODE_NATIVE && pb_variant_check(&table[i]) == PB_OK) {
            *out = &table[i];
            return PB_OK;
        }
    return pb_fail(PB_ERR_UNSUPPORTED, "no runnable variant"); /* unreachable: scalar always runs */
}
