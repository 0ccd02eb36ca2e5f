/* test_dispatch.c — the priority table picks the first native variant the CPU
 * supports; hiding one more feature at a time walks down the table, so every
 * entry this machine can run is exercised and agrees with the scalar
 * reference; forcing a variant the CPU lacks is refused, never replaced. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "posebench/posebench.h"
#include "all_variants.h"

static const char *active_name(void)
{
    const pb_variant *v = NULL;
    return pb_variant_active(&v) == PB_OK ? pb_variant_name(v) : "(error)";
}

/* blend_static with the active variant vs scalar: the kernels agree closely. */
static double max_diff_vs_scalar(void)
{
    pb_pose a, b, o1, o2;
    size_t n = 333;
    pb_pose_alloc(&a, n); pb_pose_alloc(&b, n); pb_pose_alloc(&o1, n); pb_pose_alloc(&o2, n);
    for (size_t i = 0; i < n; i++) {
        float t = (float)i / (float)n;
        a.plane[PB_POS_X][i] = t;
        b.plane[PB_POS_X][i] = -t;
        b.plane[PB_ROT_W][i] = cosf(t);
        b.plane[PB_ROT_Z][i] = sinf(t);
        b.plane[PB_SCL_Y][i] = 1.0f + t;
    }
    double m = INFINITY;
    const pb_variant *scalar;
    pb_variant_find("scalar", &scalar);
    pb_call c2 = { .a = &a, .b = &b, .out = &o2, .params = { .alpha = 0.3f } };
    if (pb_blend_static(&a, &b, 0.3f, &o1) == PB_OK && pb_run(PB_OP_blend_static, scalar, &c2) == PB_OK) {
        m = 0;
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t i = 0; i < n; i++) m = dmax(m, fabs((double)o1.plane[p][i] - o2.plane[p][i]));
    }
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o1); pb_pose_free(&o2);
    return m;
}

int main(void)
{
    uint32_t have = pb_cpu_features();
    char buf[128];
    printf("features: %s\n", pb_cpu_feature_names(have, buf, sizeof buf));

    /* Hide features in priority order, one more each time. */
    const struct { uint32_t hide; const char *expect; uint32_t needs; } steps[] = {
        { 0, NULL, 0 },
        { PB_CPU_AVX512, NULL, 0 },
        { PB_CPU_AVX512 | PB_CPU_AVX2, NULL, 0 },
        { PB_CPU_AVX512 | PB_CPU_AVX2 | PB_CPU_SSE41, NULL, 0 },
        { PB_CPU_AVX512 | PB_CPU_AVX2 | PB_CPU_SSE41 | PB_CPU_NEON, "scalar", 0 },
    };
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        pb_cpu_disable(steps[s].hide);
        uint32_t f = pb_cpu_features();
        const char *want = f & PB_CPU_AVX512 ? "avx512"
                           : (f & PB_CPU_AVX2) && (f & PB_CPU_FMA) ? "avx2"
                           : f & PB_CPU_SSE41 ? "sse41"
                           : f & PB_CPU_NEON ? "neon" : "scalar";
        CHECK(strcmp(active_name(), want) == 0, "hiding %s: active %s, want %s",
              pb_cpu_feature_names(steps[s].hide, buf, sizeof buf), active_name(), want);
        double d = max_diff_vs_scalar();
        CHECK(d < 1e-5, "variant %s differs from scalar by %g", active_name(), d);
        printf("hide [%s] -> %s (max |diff| vs scalar %.2g)\n", pb_cpu_feature_names(steps[s].hide, buf, sizeof buf),
               active_name(), d);
    }

    /* Forcing: honoured when runnable, refused (not replaced) when hidden. */
    pb_cpu_disable(0);
    CHECK(pb_variant_force("scalar") == PB_OK, "force scalar: %s", pb_last_error());
    CHECK(strcmp(active_name(), "scalar") == 0, "forced scalar, active %s", active_name());
    /* Emulated builds are the harness's rows: the runtime does not know the
     * name, the harness forces it through the runtime (or says it was not built). */
    const pb_variant *emu;
    CHECK(pb_variant_find("avx2-emu", &emu) == PB_ERR_VARIANT && strstr(pb_last_error(), "harness"),
          "runtime has no -emu rows: %s", pb_last_error());
    if (pb_all_variant_emulated()) {
        /* the build's first emulated row (PB_EMULATED_ISAS may leave some ISAs out) */
        const char *ename = pb_all_variant_at(pb_variant_count())->name;
        CHECK(pb_all_variant_force(ename) == PB_OK, "force emulated %s: %s", ename, pb_last_error());
        CHECK(strcmp(active_name(), ename) == 0, "forced %s, active %s", ename, active_name());
        double d = max_diff_vs_scalar();
        CHECK(d < 1e-5, "forced %s differs from scalar by %g", ename, d);
        /* an ISA left out of PB_EMULATED_ISAS: refused by name, the built ones listed */
        static const char *const names[] = { "sse41-emu", "avx2-emu", "avx512-emu", "neon-emu" };
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            const pb_variant *row = NULL;
            int built = 0;
            for (size_t i = pb_variant_count(); i < pb_all_variant_count(); i++)
                built |= strcmp(pb_all_variant_at(i)->name, names[k]) == 0;
            pb_status st = pb_all_variant_find(names[k], &row);
            if (built)
                CHECK(st == PB_OK && strcmp(row->name, names[k]) == 0, "find %s: %s", names[k], pb_last_error());
            else
                CHECK(st == PB_ERR_VARIANT && strstr(pb_last_error(), "PB_EMULATED_ISAS") &&
                          strstr(pb_last_error(), ename),
                      "%s not built: %s", names[k], pb_last_error());
        }
    } else {
        CHECK(pb_all_variant_force("avx2-emu") == PB_ERR_VARIANT && strstr(pb_last_error(), "PB_EMULATED"),
              "emulated not built: %s", pb_last_error());
    }
    pb_variant_force(NULL);
    if (have & PB_CPU_AVX2) {
        CHECK(pb_variant_force("avx2") == PB_OK, "force avx2");
        pb_cpu_disable(PB_CPU_AVX2);
        const pb_variant *v;
        pb_status s = pb_variant_active(&v);
        CHECK(s == PB_ERR_UNSUPPORTED, "forced avx2 with avx2 hidden: %s", pb_status_name(s));
        CHECK(strstr(pb_last_error(), "avx2") != NULL, "message names avx2: %s", pb_last_error());
        pb_pose p;
        pb_pose_alloc(&p, 4);
        CHECK(pb_blend_static(&p, &p, 0.5f, &p) == PB_ERR_UNSUPPORTED, "ops refuse too");
        pb_pose_free(&p);
        pb_cpu_disable(0);
        pb_variant_force(NULL);
    }
    if (have & PB_CPU_NEON) {
        pb_cpu_disable(PB_CPU_NEON);
        CHECK(pb_variant_force("neon") == PB_ERR_UNSUPPORTED, "force hidden neon: %s", pb_last_error());
        pb_cpu_disable(0);
    }
    /* Every variant is listed once with a lane count; the runtime's rows are
     * native, the harness lists them first, then its emulated ones. */
    for (size_t i = 0; i < pb_variant_count(); i++) {
        const pb_variant *v = pb_variant_at(i);
        CHECK(pb_variant_lanes(v) >= 1 && pb_variant_lanes(v) <= 16, "%s lanes", pb_variant_name(v));
        CHECK(pb_variant_mode(v) == PB_MODE_NATIVE, "runtime row %s is native", pb_variant_name(v));
        CHECK(pb_all_variant_at(i) == v, "harness lists runtime row %s first", pb_variant_name(v));
    }
    CHECK(pb_variant_at(pb_variant_count()) == NULL, "past the end is NULL");
    for (size_t i = pb_variant_count(); i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        CHECK(pb_variant_mode(v) == PB_MODE_EMULATED && pb_variant_check(v) == PB_OK, "%s: emulated, runs anywhere",
              pb_variant_name(v));
    }
    /* one row per ISA of PB_EMULATED_ISAS: 1 to 4 with emulated builds, each a different ISA named <isa>-emu */
    size_t nemu = pb_all_variant_count() - pb_variant_count();
    CHECK(pb_all_variant_emulated() ? nemu >= 1 && nemu <= 4 : nemu == 0, "%zu emulated rows", nemu);
    for (size_t i = pb_variant_count(); i < pb_all_variant_count(); i++) {
        char want[32];
        snprintf(want, sizeof want, "%s-emu", pb_variant_isa(pb_all_variant_at(i)));
        CHECK(strcmp(pb_variant_name(pb_all_variant_at(i)), want) == 0, "emulated row %s named %s",
              pb_variant_name(pb_all_variant_at(i)), want);
        for (size_t j = pb_variant_count(); j < i; j++)
            CHECK(strcmp(pb_variant_isa(pb_all_variant_at(i)), pb_variant_isa(pb_all_variant_at(j))) != 0,
                  "ISA %s emulated twice", pb_variant_isa(pb_all_variant_at(i)));
    }
    CHECK(pb_all_variant_at(pb_all_variant_count()) == NULL, "harness: past the end is NULL");
    return check_done();
}
