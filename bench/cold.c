/* cold.c — cold-cache runs of `posebench bench`: flush the op's own lines
 * (x86, aarch64), rotate buffer sets where they fit, or skip with the reason.
 * See cold.h for why each. */
#include "cold.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>   /* _mm_clflush, _mm_mfence (SSE2: every x86-64) */
#define COLD_X86 1
#elif defined(__aarch64__)
#define COLD_A64 1
#endif

int cold_can_flush(void)
{
#if defined(COLD_X86) || defined(COLD_A64)
    return 1;
#else
    return 0;
#endif
}

#if defined(COLD_A64)
/* Smallest data cache line (CTR_EL0.DminLine, log2 of 4-byte words): Linux
 * lets user space read CTR_EL0 (or emulates the read). */
static size_t a64_line(void)
{
    uint64_t ctr;
    __asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
    return (size_t)4 << (ctr >> 16 & 0xF);
}
#endif

/* Flush the lines of [p, p + bytes). clflush is ordered with other clflushes
 * and stores; the mfence after all of them waits for the write-backs. dc
 * civac (clean and invalidate to the point of coherency: memory) likewise
 * with dsb ish. Linux allows both at EL0. */
static void flush_range(const void *p, size_t bytes)
{
    if (bytes == 0) return;
#if defined(COLD_X86)
    const size_t line = 64;   /* clflush's granule is the line; 64 B on every x86-64 to date, and
                                 a smaller step would only flush lines twice */
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)(line - 1), end = (uintptr_t)p + bytes;
    for (; a < end; a += line) _mm_clflush((const void *)a);
#elif defined(COLD_A64)
    static size_t line;
    if (!line) line = a64_line();
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)(line - 1), end = (uintptr_t)p + bytes;
    for (; a < end; a += line) __asm__ volatile("dc civac, %0" : : "r"(a) : "memory");
#else
    (void)p;
#endif
}

void cold_flush(const float *const *arrays, const size_t *floats, int count)
{
    for (int i = 0; i < count; i++) flush_range(arrays[i], floats[i] * sizeof(float));
#if defined(COLD_X86)
    _mm_mfence();
#elif defined(COLD_A64)
    __asm__ volatile("dsb ish" : : : "memory");
#endif
}

/* A positive byte count from the environment; 0 and why if malformed, 0 and
 * why empty if unset. */
static size_t env_bytes(const char *name, char *why, size_t len)
{
    const char *s = getenv(name);
    why[0] = 0;
    if (!s) return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *s == '-' || *s == '+' || errno || *end || v == 0 || v > SIZE_MAX) {
        snprintf(why, len, "%s='%s' is not a positive number of bytes", name, s);
        return 0;
    }
    return (size_t)v;
}

size_t cold_cache_bytes(size_t detected_total, size_t detected_llc, char *why, size_t len)
{
    size_t llc = env_bytes("POSEBENCH_LLC_BYTES", why, len);
    if (why[0]) return 0;
    if (!llc) return detected_total ? detected_total : (size_t)64 << 20;   /* unknown hierarchy: assume a large one */
    size_t inner = detected_total > detected_llc ? detected_total - detected_llc : 0;
    return inner + llc;
}

cold_plan cold_choose(size_t touched, size_t set_bytes, size_t cache_bytes)
{
    cold_plan p;
    memset(&p, 0, sizeof p);
    p.method = COLD_SKIP;
    const char *force = getenv("POSEBENCH_COLD");
    int want_flush = !force || !*force || !strcmp(force, "auto") || !strcmp(force, "flush");
    int want_rotate = !force || !*force || !strcmp(force, "auto") || !strcmp(force, "rotate");
    if (!want_flush && !want_rotate) {
        snprintf(p.why, sizeof p.why, COLD_SKIP_PREFIX "POSEBENCH_COLD='%s': expected auto, flush or rotate", force);
        return p;
    }
    if (want_flush && cold_can_flush()) {
        p.method = COLD_FLUSH;
        p.nsets = 1;
        return p;
    }
    if (want_rotate && touched > 0 && cache_bytes > 0) {
        size_t need = 1 + (2 * cache_bytes + touched - 1) / touched;
        if (need < 2) need = 2;
        if (need <= COLD_MEM_CAP / (set_bytes ? set_bytes : 1) && need <= 4096) {
            p.method = COLD_ROTATE;
            p.nsets = (int)need;
            return p;
        }
        snprintf(p.why, sizeof p.why,
                 COLD_SKIP_PREFIX "cold cache: %s; rotating would take %zu buffer sets of %zu MiB to exceed "
                 "2 x %zu MiB of cache (cap %zu MiB)",
                 want_flush ? "no cache-line flush on this architecture" : "rotation forced (POSEBENCH_COLD=rotate)",
                 need, set_bytes >> 20, cache_bytes >> 20, COLD_MEM_CAP >> 20);
        return p;
    }
    snprintf(p.why, sizeof p.why, COLD_SKIP_PREFIX "cold cache: %s",
             want_rotate ? "nothing to rotate" : "no cache-line flush on this architecture (POSEBENCH_COLD=flush)");
    return p;
}

int cold_is_skip(const char *msg)
{
    return msg && strncmp(msg, COLD_SKIP_PREFIX, sizeof COLD_SKIP_PREFIX - 1) == 0;
}

void cold_describe(char *buf, size_t len, size_t min_n, size_t detected_total, size_t detected_llc)
{
    char why[160];
    size_t caches = cold_cache_bytes(detected_total, detected_llc, why, sizeof why);
    const char *force = getenv("POSEBENCH_COLD");
    int rotate = (force && !strcmp(force, "rotate")) || !cold_can_flush();
    if (why[0]) {
        snprintf(buf, len, "n >= %zu also run cold (name suffix /cold): none run: %s", min_n, why);
    } else if (!rotate) {
        snprintf(buf, len, "n >= %zu also run cold (name suffix /cold): before every iteration the op's input and "
                 "output arrays are flushed from every cache level (%s), the timer paused meanwhile; "
                 "cache %zu bytes (LLC %zu%s)", min_n,
#if defined(COLD_A64)
                 "dc civac + dsb ish",
#else
                 "clflush + mfence",
#endif
                 caches, detected_llc, getenv("POSEBENCH_LLC_BYTES") ? ", POSEBENCH_LLC_BYTES overrides it" : "");
    } else {
        snprintf(buf, len, "n >= %zu also run cold (name suffix /cold): buffer sets rotated per iteration, more than "
                 "2 x %zu bytes of cache touched between uses of a set; where that needs over %zu MiB the benchmark "
                 "is skipped", min_n, caches, COLD_MEM_CAP >> 20);
    }
}
