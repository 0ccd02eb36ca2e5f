/* context.h — JSON through Debian's cJSON for every command: the one context
 * object (CPU, features, cores, variant, compiler, flags, date) that bench,
 * frame, budget and report record, and reading/writing JSON files. */
#ifndef CLI_CONTEXT_H
#define CLI_CONTEXT_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* The context of this run: string values only (Google Benchmark's context
 * takes them as they are): posebench_version, cpu_model, cpu_features,
 * cpu_features_disabled, num_cpus, dispatch_variant, compiler, build_type,
 * c_flags (every C source, kernels included), kernel_flags (what each kernel
 * build adds), kernel_opt (the optimization level the timed code is built
 * with), stream_bytes (the streaming threshold, pb_stream_bytes), date. NULL when out of memory. */
cJSON *context_new(void);

/* A number, or null when not finite (JSON has no NaN). Returns the item, NULL when out of memory. */
cJSON *json_add_num(cJSON *obj, const char *key, double v);
/* Write root to path (indented), then check the write. 0, or -1 after a
 * message "posebench <cmd>: cannot write <path>: ...". */
int json_write_file(const char *cmd, const char *path, const cJSON *root);
/* An output path that cannot be written fails before the measurements: 0, or -1 with a message (NULL: 0). */
int json_path_check(const char *cmd, const char *path);
/* Parse path. NULL with the reason in err (naming the file, and the byte
 * offset of a syntax error). */
cJSON *json_read_file(const char *path, char *err, size_t errlen);

/* Readers that tolerate missing or mistyped members: NULL / NaN / dflt. */
const char *json_str(const cJSON *obj, const char *key);
const char *json_strz(const cJSON *obj, const char *key);    /* "?" instead of NULL, for printing */
double json_num(const cJSON *obj, const char *key);
int json_bool(const cJSON *obj, const char *key, int dflt);

#endif
