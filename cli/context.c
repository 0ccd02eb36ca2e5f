/* context.c — the shared context emitter and JSON files (context.h). */
#include "context.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "posebench/posebench.h"
#include "pick.h"
#include "internal.h"   /* pb_file_read */

/* Set per build by cmake/cli.cmake (pb_build_description). */
#ifndef CLI_C_FLAGS
#define CLI_C_FLAGS "unknown"
#endif
#ifndef CLI_KERNEL_FLAGS
#define CLI_KERNEL_FLAGS "unknown"
#endif
#ifndef CLI_BUILD_TYPE
#define CLI_BUILD_TYPE "unknown"
#endif
#ifndef CLI_COMPILER_ID
#define CLI_COMPILER_ID "unknown"
#endif

/* The last -O flag of the C flags: what the kernels (and every C source) are built with. */
static void opt_level(char *buf, size_t len)
{
    const char *flags = CLI_C_FLAGS, *last = NULL;
    for (const char *p = flags; (p = strstr(p, "-O")) != NULL; p += 2)
        if (p == flags || p[-1] == ' ') last = p;
    if (!last) {
        snprintf(buf, len, "none given (the compiler's default, -O0)");
        return;
    }
    size_t n = strcspn(last, " ");
    snprintf(buf, len, "%.*s (every kernel build and the reference: c_flags plus the ISA's flags)", (int)n, last);
}

cJSON *context_new(void)
{
    char buf[512];
    cJSON *c = cJSON_CreateObject();
    if (!c) return NULL;
    int ok = cJSON_AddStringToObject(c, "posebench_version", pb_version()) != NULL;
    ok &= cJSON_AddStringToObject(c, "cpu_model", pb_cpu_model(buf, sizeof buf)) != NULL;
    ok &= cJSON_AddStringToObject(c, "cpu_features", pb_cpu_feature_names(pb_cpu_features(), buf, sizeof buf)) != NULL;
    ok &= cJSON_AddStringToObject(c, "cpu_features_disabled",
                                  pick_disabled() ? pb_cpu_feature_names(pick_disabled(), buf, sizeof buf) : "") != NULL;
    snprintf(buf, sizeof buf, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    ok &= cJSON_AddStringToObject(c, "num_cpus", buf) != NULL;
    const pb_variant *active = NULL;
    ok &= cJSON_AddStringToObject(c, "dispatch_variant",
                                  pb_variant_active(&active) == PB_OK ? pb_variant_name(active) : "none") != NULL;
    ok &= cJSON_AddStringToObject(c, "forced_variant", pick_forced() ? pick_forced() : "") != NULL;
    ok &= cJSON_AddStringToObject(c, "compiler", CLI_COMPILER_ID " " __VERSION__) != NULL;
    ok &= cJSON_AddStringToObject(c, "build_type", CLI_BUILD_TYPE) != NULL;
    ok &= cJSON_AddStringToObject(c, "c_flags", CLI_C_FLAGS) != NULL;
    ok &= cJSON_AddStringToObject(c, "kernel_flags", CLI_KERNEL_FLAGS) != NULL;
    opt_level(buf, sizeof buf);
    ok &= cJSON_AddStringToObject(c, "kernel_opt", buf) != NULL;
    snprintf(buf, sizeof buf, "%zu bytes (pb_stream_bytes: calls moving more write their output past the caches "
             "where the op can; POSEBENCH_STREAM_BYTES)", pb_stream_bytes());
    ok &= cJSON_AddStringToObject(c, "stream_bytes", buf) != NULL;
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv) && strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tmv))
        ok &= cJSON_AddStringToObject(c, "date", buf) != NULL;
    if (!ok) {
        cJSON_Delete(c);
        return NULL;
    }
    return c;
}

cJSON *json_add_num(cJSON *obj, const char *key, double v)
{
    return isfinite(v) ? cJSON_AddNumberToObject(obj, key, v) : cJSON_AddNullToObject(obj, key);
}

int json_write_file(const char *cmd, const char *path, const cJSON *root)
{
    char *text = cJSON_Print(root);
    if (!text) {
        fprintf(stderr, "posebench %s: cannot write %s: out of memory\n", cmd, path);
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "posebench %s: cannot write %s: %s\n", cmd, path, strerror(errno));
        cJSON_free(text);
        return -1;
    }
    int bad = fputs(text, f) < 0 || fputc('\n', f) == EOF;
    bad |= fclose(f) != 0;
    cJSON_free(text);
    if (bad) {
        fprintf(stderr, "posebench %s: error writing %s\n", cmd, path);
        return -1;
    }
    return 0;
}

cJSON *json_read_file(const char *path, char *err, size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    /* a regular file of at most PB_FILE_MAX_BYTES (src/file.c: a FIFO is refused, not waited on) */
    if (pb_file_read(path, PB_FILE_MAX_BYTES, "JSON file", &buf, &len) != PB_OK) {
        snprintf(err, errlen, "cannot read %s", pb_last_error());
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
    if (!root) snprintf(err, errlen, "%s: not valid JSON (near byte %td)", path, end ? end - buf : (ptrdiff_t)0);
    free(buf);
    return root;
}

const char *json_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *json_strz(const cJSON *obj, const char *key)
{
    const char *s = json_str(obj, key);
    return s ? s : "?";
}

double json_num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (cJSON_IsNumber(v)) return v->valuedouble;
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v) ? 1.0 : 0.0;
    return NAN;
}

int json_bool(const cJSON *obj, const char *key, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsBool(v) ? cJSON_IsTrue(v) : dflt;
}

int json_path_check(const char *cmd, const char *path)
{
    if (!path) return 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "posebench %s: cannot write %s: %s\n", cmd, path, strerror(errno));
        return -1;
    }
    fclose(f);
    return 0;
}

