/* model_import.c — see model_import.h. */
#include "model_import.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cjson/cJSON.h>

#include "context.h"

static double heap_in_use(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 m = mallinfo2();
    return (double)m.uordblks + (double)m.hblkhd;   /* arena chunks in use + mmapped blocks */
#else
    return NAN;
#endif
}

static double peak_rss_mib(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? (double)u.ru_maxrss / 1024.0 : NAN;   /* Linux: KiB */
}

pb_status model_import(const char *path, const pb_asset_options *opt, pb_asset *a, model_cost *c)
{
    memset(c, 0, sizeof *c);
    double rss0 = peak_rss_mib(), heap0 = heap_in_use();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pb_status s = pb_asset_load(path, opt, a);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    c->ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
    c->heap_mib = (heap_in_use() - heap0) / (1024.0 * 1024.0);
    c->peak_rss_mib = peak_rss_mib();
    c->peak_rss_grew_mib = c->peak_rss_mib - rss0;
    return s;
}

void model_cost_line(char *buf, size_t len, const model_cost *c)
{
    char heap[64] = "heap kept: not measured (no glibc)";
    if (isfinite(c->heap_mib)) snprintf(heap, sizeof heap, "%.2f MiB of heap kept", c->heap_mib);
    snprintf(buf, len, "imported in %.1f ms, %s; peak resident %.1f MiB (+%.1f in the import)", c->ms, heap,
             c->peak_rss_mib, c->peak_rss_grew_mib);
}

int model_cost_json(cJSON *obj, const model_cost *c)
{
    return json_add_num(obj, "import_ms", c->ms) && json_add_num(obj, "asset_heap_mib", c->heap_mib) &&
                   json_add_num(obj, "peak_rss_mib", c->peak_rss_mib) &&
                   json_add_num(obj, "peak_rss_grew_mib", c->peak_rss_grew_mib)
               ? 0
               : -1;
}
