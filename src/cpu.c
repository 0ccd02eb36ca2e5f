/* cpu.c — which SIMD features this CPU and OS can run.
 * x86: CPUID feature bits, and XGETBV to confirm the OS saves the wide
 * register state (a CPU with AVX-512 under an OS that does not enable ZMM
 * state faults on the first AVX-512 instruction). AArch64: NEON is baseline. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
static uint32_t detect(void)
{
    unsigned a, b, c, d;
    uint32_t f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int sse41 = (c >> 19) & 1, fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    uint64_t xcr0 = osxsave ? xgetbv0() : 0;
    int ymm = (xcr0 & 0x6) == 0x6;        /* XMM and YMM state */
    int zmm = (xcr0 & 0xE6) == 0xE6;      /* plus opmask, ZMM_Hi256, Hi16_ZMM */
    unsigned b7 = 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) b7 = b;
    int avx2 = (b7 >> 5) & 1;
    int avx512 = ((b7 >> 16) & 1) && ((b7 >> 17) & 1) && ((b7 >> 30) & 1) && ((b7 >> 31) & 1); /* F DQ BW VL */
    if (sse41) f |= PB_CPU_SSE41;
    if (avx && avx2 && ymm) f |= PB_CPU_AVX2;
    if (avx && fma && ymm) f |= PB_CPU_FMA;
    if (avx512 && ymm && zmm) f |= PB_CPU_AVX512;
    return f;
}
#elif defined(__aarch64__)
static uint32_t detect(void) { return PB_CPU_NEON; }
#else
static uint32_t detect(void) { return 0; }
#endif

static const struct { uint32_t bit; const char *name; } feature_names[] = {
    { PB_CPU_SSE41, "sse41" }, { PB_CPU_AVX2, "avx2" }, { PB_CPU_FMA, "fma" },
    { PB_CPU_AVX512, "avx512" }, { PB_CPU_NEON, "neon" },
};

/* detected is written once, inside pthread_once; disabled by pb_cpu_disable at any time, from any
 * thread: atomic, relaxed (a whole mask, old or new; nothing else is published with it). */
static uint32_t detected;
static _Atomic uint32_t disabled;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static uint32_t parse_names(const char *list)
{
    uint32_t m = 0;
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++) {
        const char *p = list;
        size_t len = strlen(feature_names[i].name);
        while ((p = strstr(p, feature_names[i].name)) != NULL) {
            int start = p == list || p[-1] == ',' || p[-1] == ' ';
            int end = p[len] == '\0' || p[len] == ',' || p[len] == ' ';
            if (start && end) m |= feature_names[i].bit;
            p += len;
        }
    }
    return m;
}

static void init(void)
{
    detected = detect();
    const char *env = getenv("POSEBENCH_DISABLE");
    if (env) atomic_store_explicit(&disabled, parse_names(env), memory_order_relaxed);
}

uint32_t pb_cpu_features(void)
{
    pthread_once(&once, init);
    return detected & ~atomic_load_explicit(&disabled, memory_order_relaxed);
}

void pb_cpu_disable(uint32_t mask)
{
    pthread_once(&once, init);
    atomic_store_explicit(&disabled, mask, memory_order_relaxed);
}

const char *pb_cpu_feature_names(uint32_t mask, char *buf, size_t len)
{
    if (!buf || len == 0) return "";
    buf[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++)
        if (mask & feature_names[i].bit) {
            int w = snprintf(buf + used, len - used, "%s%s", used ? " " : "", feature_names[i].name);
            if (w < 0 || (size_t)w >= len - used) break;
            used += (size_t)w;
        }
    if (used == 0) snprintf(buf, len, "none");
    return buf;
}

const char *pb_cpu_model(char *buf, size_t len)
{
    if (!buf || len == 0) return "";
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return buf;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        char *c = strchr(line, ':');
        if (!c) continue;
        c++;
        while (*c == ' ' || *c == '\t') c++;
        c[strcspn(c, "\n")] = '\0';
        snprintf(buf, len, "%s", c);
        break;
    }
    fclose(f);
    return buf;
}

/* How many CPUs share cache index i of cpu0 (its shared_cpu_list, e.g.
 * "0-7,16-23"); 0 if unknown. */
static unsigned cache_sharing(int i)
{
    char p[96], list[256];
    snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
    FILE *f = fopen(p, "r");
    if (!f) return 0;
    int ok = fgets(list, sizeof list, f) != NULL;
    fclose(f);
    unsigned n = 0;
    for (char *c = list; ok && *c >= '0' && *c <= '9';) {
        unsigned long a = strtoul(c, &c, 10), b = a;
        if (*c == '-') b = strtoul(c + 1, &c, 10);
        if (b < a || b - a > 65535) return 0;
        n += (unsigned)(b - a + 1);
        if (*c == ',') c++;
    }
    return n;
}

/* pb_cache_bytes; *sharing (if not NULL): the CPUs that share that cache. */
static size_t cache_scan(int level, unsigned *sharing)
{
    size_t best = 0;
    for (int i = 0; i < 16; i++) {
        char p[96], type[32] = "", size[32] = "";
        int lv = 0;
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        FILE *f = fopen(p, "r");
        if (!f) break;
        int ok = fscanf(f, "%31s", type) == 1;
        fclose(f);
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (ok && level && (f = fopen(p, "r"))) {
            ok = fscanf(f, "%d", &lv) == 1;
            fclose(f);
        }
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!ok || !strcmp(type, "Instruction") || (level && lv != level) || !(f = fopen(p, "r"))) continue;
        ok = fscanf(f, "%31s", size) == 1;
        fclose(f);
        char *end;
        unsigned long long v = ok ? strtoull(size, &end, 10) : 0;
        int shift = !ok ? 0 : (*end == 'K' || *end == 'k') ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
        if (v > (SIZE_MAX >> shift)) continue;
        if ((size_t)v << shift > best) {
            best = (size_t)v << shift;
            if (sharing) *sharing = cache_sharing(i);
        }
    }
    return best;
}
/* A cache's size as the C library tells it (glibc: CPUID), for systems whose
 * sysfs has no cache entries (a KVM guest of an AMD EPYC, Zen 5, seen
 * 2026-12-05: no cpu0/cache folder; CPUID 48 KiB of L1d, 1 MiB of L2 and an
 * L3 of 508 MiB, the host's); level 0 the largest; 0 where it does not say. */
static size_t libc_cache(int level)
{
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE) && \
    defined(_SC_LEVEL4_CACHE_SIZE)
    static const int name[4] = { _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE,
                                 _SC_LEVEL4_CACHE_SIZE };
    if (level < 0 || level > 4) return 0;
    for (int l = level ? level : 4; l >= (level ? level : 1); l--) {
        long b = sysconf(name[l - 1]);
        if (b > 0) return (size_t)b;
    }
#endif
    (void)level;
    return 0;
}
size_t pb_cache_bytes(int level)
{
    size_t b = cache_scan(level, NULL);
    return b ? b : libc_cache(level);
}

/* The streaming threshold: the last-level cache (from sysfs, else from the C
 * library, else 32 MiB), at most 2 MiB for each CPU that shares it (every
 * online CPU where sysfs does not say which), or POSEBENCH_STREAM_BYTES
 * when it is a whole number (malformed: ignored). The cap is for virtual
 * machines, which see a whole socket's cache beside their own few CPUs: a
 * 2-CPU guest of an Intel Xeon (Emerald Rapids, 2 MiB of L2 a core) reads a
 * 480 MiB L3 "shared by 2". There (2026-12-01, bench --variant avx512
 * --variant avx2 --sizes 32768,65536,131072, two runs alternating 4 MiB with
 * the 16 MiB of the cap of 8 MiB a CPU before) sample_linear at 65536 and
 * 131072 joints took 9.4-9.7 ns per joint against 13.9-14.8 on AVX-512
 * (AVX2 12.6-12.9 against 15.3-16.4), sample_cubic 16.6-16.9 against
 * 21.3-22.6 (AVX2 26.5-28.1 against 28.8-30.4); blend_static at 65536 lost
 * 6 % (4.42-4.46 against 4.17-4.22), the other streaming ops (the static
 * additive layers, blend_static_nlerp, blend_n at K = 2 and 4) stayed within
 * 3 %, as close as two runs of one setting. Today's parts have 2-5 MiB of
 * last-level cache per core, so on a real machine with many cores the cap
 * is near the cache's size. On the Zen 5 guest above, the 32 MiB of the
 * fallback before (no cap, the sharing unknown) left sample_linear at
 * 10.2-12.1 ns per joint on AVX-512 at 262144 joints against 6.6-6.9 with
 * the 4 MiB of two online CPUs, and 6.9-7.1 against 5.2-5.3 at 65536 (bench
 * --op sample_linear --op blend_static --sizes 65536,262144, two runs
 * alternating; blend_static within the runs' spread). */
static _Atomic size_t stream_bytes;
static pthread_once_t stream_once = PTHREAD_ONCE_INIT;
static void stream_init(void)
{
    unsigned cpus = 0;
    size_t b = cache_scan(0, &cpus);
    if (!b) b = libc_cache(0);
    if (!b) b = (size_t)32 << 20;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (!cpus && online > 0 && online <= 65536) cpus = (unsigned)online;
    size_t cap = (size_t)cpus << 21;
    if (cpus && cap < b) b = cap;
    unsigned long long v;
    if (pb_env_whole("POSEBENCH_STREAM_BYTES", &v)) b = v > SIZE_MAX ? SIZE_MAX : (size_t)v;
    atomic_store(&stream_bytes, b);
}
int pb_env_whole(const char *name, unsigned long long *v)
{
    const char *env = getenv(name);
    if (!env || *env < '0' || *env > '9') return 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(env, &end, 10);
    if (errno || *end) return 0;
    *v = x;
    return 1;
}
size_t pb_stream_bytes(void)
{
    pthread_once(&stream_once, stream_init);
    return atomic_load(&stream_bytes);
}
void pb_stream_bytes_set(size_t bytes)
{
    pthread_once(&stream_once, stream_init);
    atomic_store(&stream_bytes, bytes);
}
