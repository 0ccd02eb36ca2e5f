/* model_import.h — a --model file imported once, with what the import cost: its wall time, the heap
 * kept afterwards (glibc's mallinfo2: bytes in use after minus before; Assimp's scene is freed by then,
 * so that is the asset plus whatever Assimp keeps) and the process's peak resident set after it (getrusage) with how much the import
 * raised it. frame, budget, validate and report print the line; frame's and budget's JSON carry the
 * numbers (import_ms, asset_heap_mib, peak_rss_mib, peak_rss_grew_mib). */
#ifndef PB_CLI_MODEL_IMPORT_H
#define PB_CLI_MODEL_IMPORT_H
#include <stddef.h>
#include <cjson/cJSON.h>
#include "posebench/asset.h"

typedef struct model_cost {
    double ms;                /* wall time of pb_asset_load */
    double heap_mib;          /* heap in use after the import minus before: the asset, and what Assimp keeps (NaN: not glibc) */
    double peak_rss_mib;      /* the process's peak resident set after the import */
    double peak_rss_grew_mib; /* how much the import raised that peak (0: the process had been higher) */
} model_cost;

/* pb_asset_load(path, opt, a), measured into *c (zeroed first; its status as pb_asset_load's). */
pb_status model_import(const char *path, const pb_asset_options *opt, pb_asset *a, model_cost *c);
/* "imported in 41.2 ms, 0.93 MiB of heap kept; peak resident 31.0 MiB (+18.2 in the import)" */
void model_cost_line(char *buf, size_t len, const model_cost *c);
/* The four numbers into obj (null where not measured): 0, or -1 when cJSON ran out of memory. */
int model_cost_json(cJSON *obj, const model_cost *c);

#endif
