/* report.c — `posebench report`: runs validate, bench, frame and budget (as
 * subprocesses of this binary, each writing its JSON and its console output
 * into the report folder), turns their JSON into gnuplot data files with a
 * small JSON reader, runs the gnuplot scripts of reports/ (png and svg), and
 * writes index.html and summary.md. The folder is new each time
 * (reports/out/YYYYmmdd-HHMMSS, never over tracked files) unless --out names one.
 *
 * Why subprocesses: each step keeps its own exit status, console output and
 * progress lines (stderr passes through), and a crash in one step still
 * leaves a report of the others. Why a JSON reader here: the inputs are
 * Google Benchmark's JSON and our own, both plain; the project stays free of
 * a JSON library dependency (and of Python). Every figure in the report is
 * read from those files: nothing is measured or estimated here. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"

#ifndef PB_REPORTS_DIR
#define PB_REPORTS_DIR "reports"
#endif

/* Full-report bench: the bench's own sizes (powers of 4 from 64 to 1 M joints,
 * L1 to DRAM, cold cache from 262144, plus 1000 and 10000), 3 repetitions of
 * at least 0.03 s each instead of its 5 x 0.1 s (over 20 minutes), to stay
 * under 15 minutes on 2 cores (measured figure in the README). */
#define REPORT_MAX_BVH 16
#define FULL_SIZES "64,256,1000,1024,4096,10000,16384,65536,262144,1048576"
#define FULL_REPS "--benchmark_repetitions=3"
#define FULL_MIN_TIME "--benchmark_min_time=0.03"

/* ============================ a small JSON reader ============================ */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;
typedef struct jv {
    jtype t;
    double num;        /* J_NUM, J_BOOL (0/1) */
    char *str;         /* J_STR */
    struct jv *kids;   /* J_ARR, J_OBJ */
    char **keys;       /* J_OBJ */
    size_t n, cap;
} jv;

typedef struct jparser {
    const char *p, *end;
    const char *err;
} jparser;

static void jfree(jv *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) {
        jfree(&v->kids[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->kids);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

static void jws(jparser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static int jfail(jparser *j, const char *what)
{
    if (!j->err) j->err = what;
    return -1;
}

static void put_utf8(char **o, unsigned cp)
{
    if (cp < 0x80) *(*o)++ = (char)cp;
    else if (cp < 0x800) {
        *(*o)++ = (char)(0xC0 | (cp >> 6));
        *(*o)++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *(*o)++ = (char)(0xE0 | (cp >> 12));
        *(*o)++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *(*o)++ = (char)(0x80 | (cp & 0x3F));
    }
}

static int jstring(jparser *j, char **out)
{
    if (j->p >= j->end || *j->p != '"') return jfail(j, "expected a string");
    const char *s = ++j->p;
    while (j->p < j->end && *j->p != '"') j->p += *j->p == '\\' ? 2 : 1;
    if (j->p >= j->end) return jfail(j, "unterminated string");
    char *o = malloc((size_t)(j->p - s) + 1), *w = o;
    if (!o) return jfail(j, "out of memory");
    for (const char *r = s; r < j->p; r++) {
        if (*r != '\\') {
            *w++ = *r;
            continue;
        }
        r++;
        switch (*r) {
        case 'n': *w++ = '\n'; break;
        case 't': *w++ = '\t'; break;
        case 'r': *w++ = '\r'; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'u': {
            unsigned cp = 0;
            for (int k = 1; k <= 4 && r + k < j->p; k++) {
                char c = r[k];
                cp = cp * 16 + (unsigned)(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 0);
            }
            r += 4;
            put_utf8(&w, cp);   /* a \u escape is at most 3 bytes: fits the 6 it replaced */
            break;
        }
        default: *w++ = *r; break;   /* \" \\ \/ */
        }
    }
    *w = '\0';
    j->p++;
    *out = o;
    return 0;
}

static int jvalue(jparser *j, jv *v, int depth);

static int jpush(jparser *j, jv *v, char *key)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 8;
        jv *k = realloc(v->kids, cap * sizeof *k);
        if (!k) return jfail(j, "out of memory");
        v->kids = k;
        if (v->t == J_OBJ) {
            char **ks = realloc(v->keys, cap * sizeof *ks);
            if (!ks) return jfail(j, "out of memory");
            v->keys = ks;
        }
        v->cap = cap;
    }
    memset(&v->kids[v->n], 0, sizeof v->kids[0]);
    if (v->t == J_OBJ) v->keys[v->n] = key;
    v->n++;
    return 0;
}

static int jvalue(jparser *j, jv *v, int depth)
{
    memset(v, 0, sizeof *v);
    if (depth > 64) return jfail(j, "nested too deep");
    jws(j);
    if (j->p >= j->end) return jfail(j, "unexpected end");
    char c = *j->p;
    if (c == '{' || c == '[') {
        v->t = c == '{' ? J_OBJ : J_ARR;
        j->p++;
        jws(j);
        if (j->p < j->end && *j->p == (c == '{' ? '}' : ']')) {
            j->p++;
            return 0;
        }
        for (;;) {
            char *key = NULL;
            if (v->t == J_OBJ) {
                jws(j);
                if (jstring(j, &key)) return -1;
                jws(j);
                if (j->p >= j->end || *j->p != ':') {
                    free(key);
                    return jfail(j, "expected ':'");
                }
                j->p++;
            }
            if (jpush(j, v, key)) {
                free(key);
                return -1;
            }
            if (jvalue(j, &v->kids[v->n - 1], depth + 1)) return -1;
            jws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == (v->t == J_OBJ ? '}' : ']')) {
                j->p++;
                return 0;
            }
            return jfail(j, "expected ',' or a closing bracket");
        }
    }
    if (c == '"') {
        v->t = J_STR;
        return jstring(j, &v->str);
    }
    if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5)) {
        v->t = J_BOOL;
        v->num = *j->p == 't';
        j->p += *j->p == 't' ? 4 : 5;
        return 0;
    }
    if (!strncmp(j->p, "null", 4)) {
        j->p += 4;
        return 0;
    }
    /* numbers, and the nan/inf some writers emit for missing figures */
    char buf[64];
    size_t k = 0;
    while (j->p + k < j->end && k < sizeof buf - 1 && strchr("+-0123456789.eEnaifNAIFty", j->p[k])) {
        buf[k] = j->p[k];
        k++;
    }
    buf[k] = '\0';
    char *e;
    v->t = J_NUM;
    v->num = strtod(buf, &e);
    if (k == 0 || *e) return jfail(j, "bad value");
    j->p += k;
    return 0;
}

/* Parse a whole file; on error prints the path, the offset and why. */
static int jload(const char *path, jv *root)
{
    memset(root, 0, sizeof *root);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "posebench report: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            } else buf = b;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "posebench report: out of memory reading %s\n", path);
        return -1;
    }
    jparser j = { buf, buf + len, NULL };
    int r = jvalue(&j, root, 0);
    if (r == 0) {
        jws(&j);
        if (j.p != j.end) r = jfail(&j, "text after the value");
    }
    if (r) {
        fprintf(stderr, "posebench report: %s: invalid JSON at byte %ld: %s\n", path, (long)(j.p - buf), j.err);
        jfree(root);
    }
    free(buf);
    return r;
}

static const jv *jget(const jv *o, const char *key)
{
    if (!o || o->t != J_OBJ) return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->keys[i], key)) return &o->kids[i];
    return NULL;
}
static const char *jstr(const jv *o, const char *key)
{
    const jv *v = jget(o, key);
    return v && v->t == J_STR ? v->str : NULL;
}
/* For printing: "?" instead of NULL. */
static const char *jstrz(const jv *o, const char *key)
{
    const char *s = jstr(o, key);
    return s ? s : "?";
}
static double jnum(const jv *o, const char *key)
{
    const jv *v = jget(o, key);
    return v && (v->t == J_NUM || v->t == J_BOOL) ? v->num : NAN;
}
static int jbool(const jv *o, const char *key, int dflt)
{
    const jv *v = jget(o, key);
    return v && v->t == J_BOOL ? (int)v->num : dflt;
}

/* ============================ the runs ============================ */
typedef struct step {
    const char *name;
    int status;        /* exit status; -1 not run */
    double seconds;
} step;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Run argv with stdout into out_path (NULL: inherited), stderr inherited,
 * optionally in dir. Returns the exit status, 127 if it could not start,
 * 128 + signal if it was killed. */
static int run_child(char *const argv[], const char *out_path, const char *dir, int search_path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "posebench report: fork: %s\n", strerror(errno));
        return 127;
    }
    if (pid == 0) {
        if (out_path) {
            int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(127);
            close(fd);
        }
        if (dir && chdir(dir) != 0) _exit(127);
        if (search_path) execvp(argv[0], argv);
        else execv(argv[0], argv);
        fprintf(stderr, "posebench report: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return 127;
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 127;
}

static int mkdir_p(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static int file_exists(const char *p) { return access(p, F_OK) == 0; }

/* ============================ data from the JSON ============================ */
#define MAXV 16
#define MAXS 32

typedef struct bench_data {
    int ok;
    char variants[MAXV][32];
    int nv, scalar;                  /* index of "scalar" or -1 */
    size_t sizes[MAXS];
    int ns;
    int op_on[PB_OP_COUNT];
    /* medians: [op][variant or MAXV for copy][size][cold] */
    double nspj[PB_OP_COUNT][MAXV + 1][MAXS][2], ratio[PB_OP_COUNT][MAXV + 1][MAXS][2];
    double bytes_per_joint[PB_OP_COUNT];
    double cache[3];                 /* L1d, L2, L3 bytes (0 unknown) */
    char cpu[256], features[128], compiler[128], c_flags[512], kernel_flags[512], build_type[32], date[64];
    char quick[8], mhz[32], ncpu[16];
} bench_data;

/* The size column of n (sizes are collected, sorted, before any value is read). */
static int size_index(const bench_data *b, size_t n)
{
    for (int i = 0; i < b->ns; i++)
        if (b->sizes[i] == n) return i;
    return -1;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Split a benchmark name "<op>/<variant>/<n>[/cold]" or "copy/<op>/<n>[/cold]". */
typedef struct bname {
    char buf[160];
    const char *op, *variant;   /* variant NULL for copy */
    size_t n;
    int cold;
} bname;
static int parse_bname(const char *run, bname *o)
{
    char *parts[5];
    int np = 0;
    snprintf(o->buf, sizeof o->buf, "%s", run);
    for (char *save = NULL, *t = strtok_r(o->buf, "/", &save); t && np < 5; t = strtok_r(NULL, "/", &save))
        parts[np++] = t;
    if (np < 3) return -1;
    int copy = !strcmp(parts[0], "copy");
    o->op = copy ? parts[1] : parts[0];
    o->variant = copy ? NULL : parts[1];
    o->n = strtoull(parts[2], NULL, 10);
    o->cold = np >= 4 && !strcmp(parts[3], "cold");
    return o->n ? 0 : -1;
}

static int variant_index(bench_data *b, const char *name)
{
    for (int i = 0; i < b->nv; i++)
        if (!strcmp(b->variants[i], name)) return i;
    if (b->nv == MAXV) return -1;
    snprintf(b->variants[b->nv], sizeof b->variants[0], "%s", name);
    if (!strcmp(name, "scalar")) b->scalar = b->nv;
    return b->nv++;
}

static void copy_str(char *dst, size_t len, const char *src) { snprintf(dst, len, "%s", src ? src : "unknown"); }

static int load_bench(const char *path, bench_data *b)
{
    jv root;
    memset(b, 0, sizeof *b);
    b->scalar = -1;
    if (jload(path, &root)) return -1;
    const jv *ctx = jget(&root, "context"), *list = jget(&root, "benchmarks");
    copy_str(b->cpu, sizeof b->cpu, jstr(ctx, "cpu_model"));
    copy_str(b->features, sizeof b->features, jstr(ctx, "cpu_features"));
    copy_str(b->compiler, sizeof b->compiler, jstr(ctx, "compiler"));
    copy_str(b->c_flags, sizeof b->c_flags, jstr(ctx, "c_flags"));
    copy_str(b->kernel_flags, sizeof b->kernel_flags, jstr(ctx, "kernel_flags"));
    copy_str(b->build_type, sizeof b->build_type, jstr(ctx, "build_type"));
    copy_str(b->date, sizeof b->date, jstr(ctx, "date"));
    copy_str(b->quick, sizeof b->quick, jstr(ctx, "quick"));
    snprintf(b->mhz, sizeof b->mhz, "%.0f", jnum(ctx, "mhz_per_cpu"));
    snprintf(b->ncpu, sizeof b->ncpu, "%.0f", jnum(ctx, "num_cpus"));
    /* variants in the bench's order ("avx512=native,avx2=native,...") */
    const char *vl = jstr(ctx, "variants");
    if (vl) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", vl);
        for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(t, '=');
            if (eq) *eq = '\0';
            variant_index(b, t);
        }
    }
    const jv *caches = jget(ctx, "caches");
    for (size_t i = 0; caches && caches->t == J_ARR && i < caches->n; i++) {
        const jv *c = &caches->kids[i];
        const char *type = jstr(c, "type");
        int level = (int)jnum(c, "level");
        if (!type || !strcmp(type, "Instruction") || level < 1 || level > 3) continue;
        b->cache[level - 1] = jnum(c, "size");
    }
    /* sizes first (sorted), so every value lands in its final column */
    for (size_t i = 0; list && list->t == J_ARR && i < list->n; i++) {
        const char *run = jstr(&list->kids[i], "run_name");
        bname bn;
        if (!run) run = jstr(&list->kids[i], "name");
        if (!run || parse_bname(run, &bn) || size_index(b, bn.n) >= 0 || b->ns == MAXS) continue;
        b->sizes[b->ns++] = bn.n;
    }
    qsort(b->sizes, (size_t)b->ns, sizeof b->sizes[0], cmp_size);
    for (int o = 0; o < PB_OP_COUNT; o++)
        for (int v = 0; v <= MAXV; v++)
            for (int si = 0; si < MAXS; si++)
                for (int c = 0; c < 2; c++) b->nspj[o][v][si][c] = b->ratio[o][v][si][c] = NAN;
    /* medians: Google Benchmark's median aggregates; single runs when there are none */
    static double sum[PB_OP_COUNT][MAXV + 1][MAXS][2][2];
    static int cnt[PB_OP_COUNT][MAXV + 1][MAXS][2];
    memset(sum, 0, sizeof sum);
    memset(cnt, 0, sizeof cnt);
    for (int o = 0; o < PB_OP_COUNT; o++) b->bytes_per_joint[o] = NAN;
    for (size_t i = 0; list && list->t == J_ARR && i < list->n; i++) {
        const jv *r = &list->kids[i];
        const char *run = jstr(r, "run_name"), *type = jstr(r, "run_type"), *agg = jstr(r, "aggregate_name");
        if (!run) run = jstr(r, "name");
        if (!run || jget(r, "error_occurred")) continue;
        int is_median = type && !strcmp(type, "aggregate") && agg && !strcmp(agg, "median");
        if (type && !strcmp(type, "aggregate") && !is_median) continue;
        bname bn;
        pb_op op;
        if (parse_bname(run, &bn) || pb_op_find(bn.op, &op) != PB_OK) continue;
        int vi = bn.variant ? variant_index(b, bn.variant) : MAXV, si = size_index(b, bn.n), cold = bn.cold;
        size_t n = bn.n;
        if (vi < 0 || si < 0) continue;
        b->op_on[op] = 1;
        double nspj = jnum(r, "ns_per_joint"), ratio = jnum(r, "copy_ratio"), bytes = jnum(r, "bytes");
        if (isfinite(bytes) && bytes > 0 && !cold) b->bytes_per_joint[op] = bytes / (double)n;
        if (is_median) {
            cnt[op][vi][si][cold] = -1;   /* the aggregate wins */
            b->nspj[op][vi][si][cold] = nspj;
            b->ratio[op][vi][si][cold] = ratio;
        } else if (cnt[op][vi][si][cold] >= 0) {
            if (isfinite(nspj)) sum[op][vi][si][cold][0] += nspj;
            if (isfinite(ratio)) sum[op][vi][si][cold][1] += ratio;
            cnt[op][vi][si][cold]++;
            b->nspj[op][vi][si][cold] = sum[op][vi][si][cold][0] / cnt[op][vi][si][cold];
            b->ratio[op][vi][si][cold] = isfinite(ratio) ? sum[op][vi][si][cold][1] / cnt[op][vi][si][cold] : NAN;
        }
    }
    b->ok = 1;
    jfree(&root);
    return 0;
}

typedef struct val_cell {
    int rows, fails;
    double worst;          /* max over judged metrics of err / bound */
    char worst_metric[32];
} val_cell;

typedef struct val_data {
    int ok, rows, fails;
    char variants[MAXV][32], modes[MAXV][16];
    int nv;
    int op_on[PB_OP_COUNT];
    val_cell cell[PB_OP_COUNT][MAXV];
    char fail_list[32][160];
    int nfail_list;
} val_data;

static int load_validate(const char *path, val_data *d)
{
    jv root;
    memset(d, 0, sizeof *d);
    if (jload(path, &root)) return -1;
    for (size_t i = 0; root.t == J_ARR && i < root.n; i++) {
        const jv *r = &root.kids[i];
        const char *opn = jstr(r, "op"), *var = jstr(r, "variant"), *metric = jstr(r, "metric");
        pb_op op;
        if (!opn || !var || pb_op_find(opn, &op) != PB_OK) continue;
        int vi = -1;
        for (int k = 0; k < d->nv; k++)
            if (!strcmp(d->variants[k], var)) vi = k;
        if (vi < 0 && d->nv < MAXV) {
            vi = d->nv++;
            snprintf(d->variants[vi], sizeof d->variants[vi], "%s", var);
            copy_str(d->modes[vi], sizeof d->modes[vi], jstr(r, "mode"));
        }
        if (vi < 0) continue;
        val_cell *c = &d->cell[op][vi];
        d->op_on[op] = 1;
        d->rows++;
        c->rows++;
        int pass = jbool(r, "pass", 1);
        if (!pass) {
            d->fails++;
            c->fails++;
            if (d->nfail_list < 32)
                snprintf(d->fail_list[d->nfail_list++], sizeof d->fail_list[0], "%s %s %s: max_err %.3g, bound %.3g",
                         opn, var, metric ? metric : "?", jnum(r, "max_err"), jnum(r, "bound"));
        }
        /* the worst ratio to its bound: the metric, the method error, the velocity check */
        const char *pairs[3][2] = { { "max_err", "bound" }, { "method_err", "method_bound" },
                                    { "vel_consistency", "vel_bound" } };
        for (int k = 0; k < 3; k++) {
            double e = jnum(r, pairs[k][0]), b = jnum(r, pairs[k][1]);
            if (!(isfinite(e) && isfinite(b) && b > 0)) continue;
            double q = e / b;
            if (c->worst_metric[0] == '\0' || q > c->worst) {
                c->worst = q;
                snprintf(c->worst_metric, sizeof c->worst_metric, "%s%s", metric ? metric : "?",
                         k == 1 ? " (method)" : k == 2 ? " (velchk)" : "");
            }
        }
    }
    d->ok = root.t == J_ARR;
    jfree(&root);
    return d->ok ? 0 : -1;
}

/* ============================ output helpers ============================ */
static void html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

static void fmt_num(char *buf, size_t len, double v, int prec)
{
    if (!isfinite(v)) snprintf(buf, len, "-");
    else snprintf(buf, len, "%.*g", prec, v);
}

/* A gnuplot single-quoted string: quotes doubled. */
static void gp_str(char *buf, size_t len, const char *s)
{
    size_t k = 0;
    if (k + 1 < len) buf[k++] = '\'';
    for (; *s && k + 3 < len; s++) {
        if (*s == '\'') buf[k++] = '\'';
        buf[k++] = *s;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
}

/* ============================ data files for gnuplot ============================ */
typedef struct report {
    char dir[2048], data[2200], scripts[2048];
    int quick;
    bench_data *bench;
    val_data *val;
    jv frame, budget;
    int have_frame, have_budget;
    step steps[6];
    int nsteps;
    int small_i, large_i;   /* size indices of the summary columns */
    char plots_missing[512];
} report;

static FILE *open_data(const report *r, const char *name)
{
    char p[2400];
    snprintf(p, sizeof p, "%s/%s", r->data, name);
    FILE *f = fopen(p, "w");
    if (!f) fprintf(stderr, "posebench report: cannot write %s: %s\n", p, strerror(errno));
    return f;
}

static void dat_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, " %.6g", v);
    else fputs(" ?", f);
}

static int write_bench_data(report *r, FILE *vars)
{
    bench_data *b = r->bench;
    char words[8192];
    size_t used = 0;
    int nops = 0;
    words[0] = '\0';
    for (int o = 0; o < PB_OP_COUNT; o++)
        if (b->op_on[o]) {
            used += (size_t)snprintf(words + used, sizeof words - used, "%s%s", nops ? " " : "", pb_op_get((pb_op)o)->name);
            nops++;
            if (used >= sizeof words) return -1;
        }
    fprintf(vars, "ops = \"%s\"\nnops = %d\n", words, nops);
    fputs("variants = \"", vars);
    for (int v = 0; v < b->nv; v++) fprintf(vars, "%s%s", v ? " " : "", b->variants[v]);
    fprintf(vars, "\"\nnvars = %d\n", b->nv);
    /* cache sizes in joints of each op (bytes / the op's bytes per joint) */
    const char *lv[3] = { "l1", "l2", "l3" };
    for (int l = 0; l < 3; l++) {
        fprintf(vars, "%s = \"", lv[l]);
        int k = 0;
        for (int o = 0; o < PB_OP_COUNT; o++)
            if (b->op_on[o]) {
                double j = b->cache[l] > 0 && b->bytes_per_joint[o] > 0 ? b->cache[l] / b->bytes_per_joint[o] : 0;
                fprintf(vars, "%s%.6g", k++ ? " " : "", j);
            }
        fputs("\"\n", vars);
    }
    int cold = 0;
    for (int o = 0; o < PB_OP_COUNT; o++)
        for (int v = 0; v < b->nv; v++)
            for (int s = 0; s < b->ns; s++) cold |= isfinite(b->nspj[o][v][s][1]);
    fprintf(vars, "has_cold = %d\n", cold);
    fprintf(vars, "small_n = %zu\nlarge_n = %zu\nmin_n = %zu\nmax_n = %zu\n", b->sizes[r->small_i],
            b->sizes[r->large_i], b->sizes[0], b->sizes[b->ns - 1]);
    fputs("svariants = \"", vars);   /* the speedup plot's variants: all but scalar */
    for (int v = 0, k = 0; v < b->nv; v++)
        if (v != b->scalar) fprintf(vars, "%s%s", k++ ? " " : "", b->variants[v]);
    fprintf(vars, "\"\nnsvars = %d\n", b->nv - (b->scalar >= 0));

    /* 1: per op a block: n, warm ns/joint per variant, cold ns/joint per variant */
    FILE *f = open_data(r, "ns_per_joint.dat");
    if (!f) return -1;
    for (int o = 0; o < PB_OP_COUNT; o++) {
        if (!b->op_on[o]) continue;
        fprintf(f, "# %s: n", pb_op_get((pb_op)o)->name);
        for (int v = 0; v < b->nv; v++) fprintf(f, " %s", b->variants[v]);
        for (int v = 0; v < b->nv; v++) fprintf(f, " %s/cold", b->variants[v]);
        fputc('\n', f);
        for (int s = 0; s < b->ns; s++) {
            fprintf(f, "%zu", b->sizes[s]);
            for (int c = 0; c < 2; c++)
                for (int v = 0; v < b->nv; v++) dat_num(f, b->nspj[o][v][s][c]);
            fputc('\n', f);
        }
        fputs("\n\n", f);
    }
    fclose(f);
    /* 2 and 3: per op one row: speedup over scalar / copy ratio, per variant, at two sizes */
    FILE *fs = open_data(r, "speedup.dat"), *fr = open_data(r, "copy_ratio.dat");
    if (!fs || !fr) {
        if (fs) fclose(fs);
        if (fr) fclose(fr);
        return -1;
    }
    int si[2] = { r->small_i, r->large_i };
    for (int k = 0; k < 2; k++) {
        fprintf(fs, "# n = %zu: op, speedup of each variant over scalar (warm)\n", b->sizes[si[k]]);
        fprintf(fr, "# n = %zu: op, op time / copy time of each variant (warm)\n", b->sizes[si[k]]);
        for (int o = 0; o < PB_OP_COUNT; o++) {
            if (!b->op_on[o]) continue;
            fprintf(fs, "%s", pb_op_get((pb_op)o)->name);
            fprintf(fr, "%s", pb_op_get((pb_op)o)->name);
            for (int v = 0; v < b->nv; v++) {
                double sc = b->scalar >= 0 ? b->nspj[o][b->scalar][si[k]][0] : NAN, x = b->nspj[o][v][si[k]][0];
                if (v != b->scalar) dat_num(fs, sc > 0 && x > 0 ? sc / x : NAN);
                dat_num(fr, b->ratio[o][v][si[k]][0]);
            }
            fputc('\n', fs);
            fputc('\n', fr);
        }
        fputs("\n\n", fs);
        fputs("\n\n", fr);
    }
    fclose(fs);
    fclose(fr);
    return 0;
}

static int write_validate_data(report *r, FILE *vars)
{
    val_data *d = r->val;
    FILE *f = open_data(r, "validation.dat");
    if (!f) return -1;
    int y = 0;
    fputs("vops = \"", vars);
    for (int o = PB_OP_COUNT - 1; o >= 0; o--)   /* first op at the top: gnuplot's y grows upwards */
        if (d->op_on[o]) fprintf(vars, "%s%s", y++ ? " " : "", pb_op_get((pb_op)o)->name);
    fprintf(vars, "\"\nnvops = %d\nvvariants = \"", y);
    for (int v = 0; v < d->nv; v++) fprintf(vars, "%s%s", v ? " " : "", d->variants[v]);
    fprintf(vars, "\"\nnvvars = %d\n", d->nv);
    fputs("# x (variant), y (op, bottom up), log10(worst err / bound), label, failing rows\n", f);
    y = 0;
    for (int o = PB_OP_COUNT - 1; o >= 0; o--) {
        if (!d->op_on[o]) continue;
        for (int v = 0; v < d->nv; v++) {
            const val_cell *c = &d->cell[o][v];
            if (!c->rows) {
                fprintf(f, "%d %d ? \"\" 0\n", v, y);
                continue;
            }
            double q = c->worst, lq = log10(q > 1e-4 ? q : 1e-4);
            char lab[32];
            if (c->fails) snprintf(lab, sizeof lab, "FAIL");
            else if (!c->worst_metric[0]) snprintf(lab, sizeof lab, "-");
            else snprintf(lab, sizeof lab, "%.2g", q);
            if (c->worst_metric[0]) fprintf(f, "%d %d %.4f \"%s\" %d\n", v, y, lq, lab, c->fails);
            else fprintf(f, "%d %d ? \"%s\" %d\n", v, y, lab, c->fails);   /* nothing judged: no colour */
        }
        y++;
    }
    fclose(f);
    return 0;
}

/* 5: per scene a block: label, then each stage's us; 6: per method one row. */
static int write_frame_data(report *r, FILE *vars)
{
    const jv *rows = jget(&r->frame, "rows"), *stages = jget(&r->frame, "stages"), *scenes = jget(&r->frame, "scenes");
    if (!rows || !stages || !scenes) return -1;
    FILE *f = open_data(r, "frame.dat");
    if (!f) return -1;
    fputs("stages = \"", vars);
    for (size_t s = 0; s < stages->n; s++) fprintf(vars, "%s%s", s ? " " : "", stages->kids[s].str);
    fprintf(vars, "\"\nnstages = %zu\nscenes = \"", stages->n);
    for (size_t i = 0; i < scenes->n; i++) fprintf(vars, "%s%s", i ? " " : "", jstrz(&scenes->kids[i], "name"));
    fprintf(vars, "\"\nnscenes = %zu\n", scenes->n);
    int maxrows = 0;
    for (size_t i = 0; i < scenes->n; i++) {
        const char *sn = jstr(&scenes->kids[i], "name");
        int k = 0;
        fprintf(f, "# %s: label, us per stage, total\n", sn);
        for (size_t q = 0; q < rows->n; q++) {
            const jv *row = &rows->kids[q];
            if (!sn || strcmp(jstr(row, "scene") ? jstr(row, "scene") : "", sn)) continue;
            const char *m = jstr(row, "method_key"), *v = jstr(row, "variant");
            fprintf(f, "\"%s %s\"", v ? v : "?", m ? (strncmp(m, "crossfade", 9) ? (m[0] == 'i' ? "inert." : "dead")
                                                   : "x-fade") : "?");
            const jv *su = jget(row, "stage_us");
            for (size_t s = 0; s < stages->n; s++) dat_num(f, jnum(su, stages->kids[s].str));
            dat_num(f, jnum(row, "total_us"));
            fputc('\n', f);
            k++;
        }
        if (k > maxrows) maxrows = k;
        fputs("\n\n", f);
    }
    fprintf(vars, "frame_bars = %d\n", maxrows);
    fclose(f);
    return 0;
}

static int write_budget_data(report *r, FILE *vars)
{
    const jv *rows = jget(&r->budget, "rows"), *cfg = jget(&r->budget, "config");
    if (!rows) return -1;
    FILE *f = open_data(r, "budget.dat");
    if (!f) return -1;
    fputs("# label, cost us/frame, velocity jump m/s, deviation cm, frame us (with the rest), ang jump rad/s\n", f);
    for (size_t i = 0; i < rows->n; i++) {
        const jv *row = &rows->kids[i];
        const char *m = jstr(row, "method"), *rot = jstr(row, "rotation");
        char lab[96];
        if (rot && strcmp(rot, "n/a")) snprintf(lab, sizeof lab, "%s %s", m ? m : "?", rot);
        else snprintf(lab, sizeof lab, "%s", m ? m : "?");
        fprintf(f, "\"%s\"", lab);
        dat_num(f, jnum(row, "cost_us"));
        dat_num(f, jnum(row, "vel_jump_ms"));
        dat_num(f, jnum(row, "dev_cm"));
        dat_num(f, jnum(row, "frame_us"));
        dat_num(f, jnum(row, "ang_jump_rads"));
        fputc('\n', f);
    }
    fclose(f);
    fprintf(vars, "array blab[%zu] = [", rows->n);   /* labels with spaces: a gnuplot array */
    for (size_t i = 0; i < rows->n; i++) {
        const char *m = jstr(&rows->kids[i], "method"), *rot = jstr(&rows->kids[i], "rotation");
        fprintf(vars, "%s\"%s%s%s\"", i ? ", " : "", m ? m : "?", rot && strcmp(rot, "n/a") ? " " : "",
                rot && strcmp(rot, "n/a") ? rot : "");
    }
    fputs("]\n", vars);
    fprintf(vars, "budget_us = %.6g\nbudget_chars = %.0f\n", jnum(cfg, "budget_us"), jnum(cfg, "characters"));
    const char *src = jstr(&r->budget, "quality_source");
    fprintf(vars, "budget_quality = \"%s\"\n", src && !strncmp(src, "cmu", 3) ? "CMU mocap transitions" : "synthetic transitions");
    return 0;
}

/* ============================ plots ============================ */
typedef struct plot {
    const char *file;      /* output base name */
    const char *script;    /* reports/<script> */
    const char *title;
    int needs;             /* 1 bench, 2 validate, 3 frame, 4 budget */
} plot;

static const plot plots[6] = {
    { "1_ns_per_joint", "ns_per_joint.gp", "ns per joint vs size, per op (log-log; L1/L2/L3 marked)", 1 },
    { "2_speedup", "speedup.gp", "speedup over scalar", 1 },
    { "3_copy_ratio", "copy_ratio.gp", "op time / copy-roofline time", 1 },
    { "4_validation", "validation.gp", "validation: worst error / bound per op and variant", 2 },
    { "5_frame", "frame.gp", "frame pipeline: us per stage", 3 },
    { "6_budget", "budget.gp", "transition methods: cost vs quality", 4 },
};

static int have_input(const report *r, int needs)
{
    return needs == 1 ? r->bench && r->bench->ok : needs == 2 ? r->val && r->val->ok
           : needs == 3 ? r->have_frame : r->have_budget;
}

static int run_plots(report *r, int made[6])
{
    int fails = 0;
    for (int i = 0; i < 6; i++) {
        made[i] = 0;
        if (!have_input(r, plots[i].needs)) continue;
        char script[2400];
        snprintf(script, sizeof script, "%s/%s", r->scripts, plots[i].script);
        int ok = 0;
        for (int t = 0; t < 2; t++) {
            const char *fmt = t ? "svg" : "png";
            char out[2400], qd[2400], qo[2400], qs[2400], expr[8000], log[2400];
            snprintf(out, sizeof out, "%s/%s.%s", r->dir, plots[i].file, fmt);
            gp_str(qd, sizeof qd, r->data);
            gp_str(qo, sizeof qo, out);
            gp_str(qs, sizeof qs, r->scripts);
            snprintf(expr, sizeof expr, "datadir=%s; outfile=%s; scriptdir=%s; fmt='%s'", qd, qo, qs, fmt);
            snprintf(log, sizeof log, "%s/gnuplot-%s-%s.log", r->data, plots[i].file, fmt);
            char *argv[] = { "gnuplot", "-e", expr, script, NULL };
            /* gnuplot's messages go to stderr: keep them in a log next to the data */
            fflush(stderr);
            int saved = dup(STDERR_FILENO), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) dup2(fd, STDERR_FILENO);
            int st = run_child(argv, NULL, NULL, 1);
            if (fd >= 0) {
                dup2(saved, STDERR_FILENO);
                close(fd);
            }
            if (saved >= 0) close(saved);
            struct stat sb;
            if (st != 0 || stat(out, &sb) != 0 || sb.st_size == 0) {
                fprintf(stderr, "posebench report: gnuplot failed for %s (status %d): see %s\n", out, st, log);
                if (st == 127) {
                    snprintf(r->plots_missing, sizeof r->plots_missing,
                             "gnuplot could not run (install gnuplot-nox: tools/deps.sh core): no plots");
                    return -1;
                }
                fails++;
            } else ok++;
        }
        made[i] = ok == 2;
    }
    return fails ? -1 : 0;
}

/* ============================ tables (HTML and Markdown) ============================ */
typedef struct out2 {
    FILE *h, *m;   /* index.html, summary.md */
} out2;

static void both(out2 *o, const char *html, const char *md)
{
    if (html) fputs(html, o->h);
    if (md) fputs(md, o->m);
}

/* A table row: cells as strings; the first `left` cells left-aligned. */
static void trow(out2 *o, int head, int ncell, const char *const *cells, const char *klass)
{
    fputs(klass ? "<tr class=\"" : "<tr>", o->h);
    if (klass) fprintf(o->h, "%s\">", klass);
    for (int i = 0; i < ncell; i++) {
        fputs(head ? "<th>" : "<td>", o->h);
        html_esc(o->h, cells[i]);
        fputs(head ? "</th>" : "</td>", o->h);
    }
    fputs("</tr>\n", o->h);
    fputs("|", o->m);
    for (int i = 0; i < ncell; i++) fprintf(o->m, " %s |", cells[i]);
    fputc('\n', o->m);
    if (head) {
        fputs("|", o->m);
        for (int i = 0; i < ncell; i++) fputs(i ? "---:|" : "---|", o->m);
        fputc('\n', o->m);
    }
}

/* A table whose rows are JSON objects: one column per key, formatted by kind:
 * 's' string, 'f' number with `prec` decimals, '%' fraction as a percentage,
 * 'b' boolean as yes/NO, 'g' fmt_num with `prec` significant digits. Rows
 * where the boolean key `ok_key` is false are marked bad (NULL: none). */
typedef struct json_col {
    const char *head, *key;
    char kind;
    int prec;
} json_col;

static void json_table(out2 *o, const jv *rows, const json_col *cols, int ncols, const char *ok_key)
{
    enum { MAXC = 16 };
    const char *cells[MAXC];
    char buf[MAXC][96];
    if (ncols > MAXC) ncols = MAXC;
    for (int k = 0; k < ncols; k++) cells[k] = cols[k].head;
    trow(o, 1, ncols, cells, NULL);
    for (size_t i = 0; rows && i < rows->n; i++) {
        const jv *row = &rows->kids[i];
        for (int k = 0; k < ncols; k++) {
            const json_col *c = &cols[k];
            double v = jnum(row, c->key);
            switch (c->kind) {
            case 's': snprintf(buf[k], sizeof buf[k], "%s", jstrz(row, c->key)); break;
            case '%': snprintf(buf[k], sizeof buf[k], "%.*f%%", c->prec, 100.0 * v); break;
            case 'b': snprintf(buf[k], sizeof buf[k], "%s", jbool(row, c->key, 0) ? "yes" : "NO"); break;
            case 'g': fmt_num(buf[k], sizeof buf[k], v, c->prec); break;
            default: snprintf(buf[k], sizeof buf[k], "%.*f", c->prec, v); break;
            }
            cells[k] = buf[k];
        }
        trow(o, 0, ncols, cells, ok_key && !jbool(row, ok_key, 0) ? "bad" : NULL);
    }
}

static void figure(out2 *o, const char *file, const char *caption, int made)
{
    if (!made) {
        fprintf(o->h, "<p class=\"missing\">plot %s not produced (see the notes above)</p>\n", file);
        return;
    }
    fprintf(o->h, "<figure><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"", file, file);
    html_esc(o->h, caption);
    fprintf(o->h, "\"></a><figcaption>");
    html_esc(o->h, caption);
    fprintf(o->h, " (<a href=\"%s.svg\">svg</a>)</figcaption></figure>\n", file);
    fprintf(o->m, "![%s](%s.png)\n\n", caption, file);
}

static void validation_section(report *r, out2 *o, int made)
{
    val_data *d = r->val;
    both(o, "<h2 id=\"validation\">Validation</h2>\n", "## Validation\n\n");
    if (!d || !d->ok) {
        both(o, "<p class=\"missing\">validation did not produce its JSON.</p>\n", "Validation did not produce its JSON.\n\n");
        return;
    }
    fprintf(o->h, "<p class=\"%s\">%d rows (op x variant x metric), <b>%d failing</b>. Each variant is compared with "
                  "the double-precision oracle and the float reference; a row passes when its worst error is within "
                  "the tolerance table's bound.</p>\n", d->fails ? "bad" : "good", d->rows, d->fails);
    fprintf(o->m, "%d rows (op x variant x metric), **%d failing**.\n\n", d->rows, d->fails);
    const char *head[] = { "variant", "mode", "ops", "rows", "failing", "worst err / bound", "at" };
    both(o, "<table>\n", NULL);
    trow(o, 1, 7, head, NULL);
    for (int v = 0; v < d->nv; v++) {
        int ops = 0, rows = 0, fails = 0, wo = -1;
        double worst = -1;
        for (int op = 0; op < PB_OP_COUNT; op++) {
            const val_cell *c = &d->cell[op][v];
            if (!c->rows) continue;
            ops++;
            rows += c->rows;
            fails += c->fails;
            if (c->worst_metric[0] && c->worst > worst) {
                worst = c->worst;
                wo = op;
            }
        }
        char a[16], b[16], c[16], w[32], at[96];
        snprintf(a, sizeof a, "%d", ops);
        snprintf(b, sizeof b, "%d", rows);
        snprintf(c, sizeof c, "%d", fails);
        fmt_num(w, sizeof w, worst >= 0 ? worst : NAN, 3);
        snprintf(at, sizeof at, "%s %s", wo >= 0 ? pb_op_get((pb_op)wo)->name : "-",
                 wo >= 0 ? d->cell[wo][v].worst_metric : "");
        const char *cells[] = { d->variants[v], d->modes[v], a, b, c, w, at };
        trow(o, 0, 7, cells, fails ? "bad" : NULL);
    }
    both(o, "</table>\n", "\n");
    if (d->nfail_list) {
        both(o, "<p>Failing rows:</p><ul>\n", "Failing rows:\n\n");
        for (int i = 0; i < d->nfail_list; i++) {
            fputs("<li>", o->h);
            html_esc(o->h, d->fail_list[i]);
            fputs("</li>\n", o->h);
            fprintf(o->m, "- %s\n", d->fail_list[i]);
        }
        both(o, "</ul>\n", "\n");
    }
    figure(o, "4_validation", "validation: worst error / bound per op and variant (green: far within the bound; "
                              "1 = at the bound)", made);
}

static void bench_section(report *r, out2 *o, const int *made)
{
    bench_data *b = r->bench;
    both(o, "<h2 id=\"bench\">Benchmarks</h2>\n", "## Benchmarks\n\n");
    if (!b || !b->ok) {
        both(o, "<p class=\"missing\">no benchmark JSON: this build has no Google Benchmark (install libbenchmark-dev) "
                "or the bench step failed.</p>\n", "No benchmark results.\n\n");
        return;
    }
    size_t ns = b->sizes[r->small_i], nl = b->sizes[r->large_i];
    fprintf(o->h, "<p>Google Benchmark, CPU time, median of the repetitions; every op x native variant x size "
                  "(%d sizes, %zu ... %zu joints), warm cache%s. <i>copy</i> = op time / the time of a memcpy of "
                  "exactly the op's bytes in the same run (1 = at the memory roofline). The table: ns per joint at "
                  "%zu (in cache) and %zu joints, speedup over scalar and copy ratio at %zu.</p>\n", b->ns,
            b->sizes[0], b->sizes[b->ns - 1],
            b->sizes[b->ns - 1] >= 262144 ? " (the cold-cache runs from 262144 joints are the plot's open points)" : "",
            ns, nl, ns);
    fprintf(o->m, "ns per joint (median, CPU time, warm) at %zu and %zu joints; speedup over scalar and copy ratio "
                  "(op time / memcpy of the same bytes) at %zu.\n\n", ns, nl, ns);
    /* two header rows in HTML (variant over its columns), one in Markdown */
    const char *cells[4 + 4 * MAXV];
    char buf[4 + 4 * MAXV][48];
    int nc = 0;
    fputs("<div class=\"wide\"><table class=\"num grouped\">\n<colgroup><col>", o->h);
    for (int v = 0; v < b->nv; v++) fprintf(o->h, "<col span=\"%d\" class=\"g\">", v != b->scalar ? 4 : 3);
    fputs("</colgroup>\n<tr><th rowspan=\"2\">op</th>", o->h);
    for (int v = 0; v < b->nv; v++) {
        fprintf(o->h, "<th colspan=\"%d\" class=\"grp\">", v != b->scalar ? 4 : 3);
        html_esc(o->h, b->variants[v]);
        fputs("</th>", o->h);
    }
    fputs("</tr>\n<tr>", o->h);
    fputs("| op |", o->m);
    for (int v = 0; v < b->nv; v++) {
        fprintf(o->h, "<th class=\"grp\">ns @%zu</th><th>ns @%zu</th>%s<th>copy</th>", ns, nl,
                v != b->scalar ? "<th>x scalar</th>" : "");
        fprintf(o->m, " %s ns@%zu | ns@%zu |%s copy |", b->variants[v], ns, nl, v != b->scalar ? " x scalar |" : "");
        nc += v != b->scalar ? 4 : 3;
    }
    fputs("</tr>\n", o->h);
    fputs("\n|---|", o->m);
    for (int k = 0; k < nc; k++) fputs("---:|", o->m);
    fputc('\n', o->m);
    for (int op = 0; op < PB_OP_COUNT; op++) {
        if (!b->op_on[op]) continue;
        nc = 0;
        cells[nc++] = pb_op_get((pb_op)op)->name;
        for (int v = 0; v < b->nv; v++) {
            double sc = b->scalar >= 0 ? b->nspj[op][b->scalar][r->small_i][0] : NAN, x = b->nspj[op][v][r->small_i][0];
            fmt_num(buf[nc], sizeof buf[0], x, 3);
            cells[nc] = buf[nc];
            nc++;
            fmt_num(buf[nc], sizeof buf[0], b->nspj[op][v][r->large_i][0], 3);
            cells[nc] = buf[nc];
            nc++;
            if (v != b->scalar) {
                fmt_num(buf[nc], sizeof buf[0], sc > 0 && x > 0 ? sc / x : NAN, 3);
                cells[nc] = buf[nc];
                nc++;
            }
            fmt_num(buf[nc], sizeof buf[0], b->ratio[op][v][r->small_i][0], 3);
            cells[nc] = buf[nc];
            nc++;
        }
        trow(o, 0, nc, cells, NULL);
    }
    both(o, "</table></div>\n", "\n");
    figure(o, "1_ns_per_joint", "ns per joint vs joints, per op, one line per variant (log-log); dotted: L1, L2, L3 "
                                "in joints of the op's bytes; open points: cold cache", made[0]);
    figure(o, "2_speedup", "speedup over scalar per op (warm cache)", made[1]);
    figure(o, "3_copy_ratio", "op time / copy-roofline time per op (1 = as fast as copying its bytes)", made[2]);
}

/* Column headings for frame.c's stage keys (unknown keys as they are). */
static const char *stage_label(const char *key)
{
    static const char *map[][2] = { { "sample", "sample" }, { "transition", "transition" }, { "additive", "additive" },
                                    { "legs_fk", "legs FK" }, { "ik", "2-leg IK" }, { "fk", "FK+vel" } };
    for (size_t i = 0; key && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(key, map[i][0])) return map[i][1];
    return key ? key : "?";
}

static void frame_section(report *r, out2 *o, int made)
{
    both(o, "<h2 id=\"frame\">Frame pipeline</h2>\n", "## Frame pipeline\n\n");
    if (!r->have_frame) {
        both(o, "<p class=\"missing\">the frame step did not produce its JSON.</p>\n", "No frame results.\n\n");
        return;
    }
    const jv *cfg = jget(&r->frame, "config"), *rows = jget(&r->frame, "rows"), *stages = jget(&r->frame, "stages");
    const jv *scenes = jget(&r->frame, "scenes");
    fprintf(o->h, "<p>A crowd of %.0f characters running one animation frame: sample (%s; both clips for a "
                  "cross-fade, the destination for inertialization and dead blending) &rarr; transition (cross-fade: "
                  "blend; inertialize; dead_blending) &rarr; additive layer &rarr; two-bone IK on both legs (with the "
                  "fk_static it needs) &rarr; FK with velocities. Microseconds per frame for the whole crowd, CPU time, "
                  "median of %.0f repetitions of %.0f frames (spread: (max - min) / median of the total); every "
                  "character mid-transition. Setup: once per transition.</p>\n",
            jnum(cfg, "characters"), jstr(cfg, "sampler") ? jstr(cfg, "sampler") : "?", jnum(cfg, "repetitions"),
            jnum(cfg, "frames"));
    fprintf(o->m, "%.0f characters; us per frame for the whole crowd (CPU time, median of %.0f x %.0f frames); "
                  "sample -> transition -> additive -> 2-leg IK -> FK with velocities; spread = (max - min) / median "
                  "of the total.\n\n",
            jnum(cfg, "characters"), jnum(cfg, "repetitions"), jnum(cfg, "frames"));
    for (size_t si = 0; scenes && si < scenes->n; si++) {
        const jv *sc = &scenes->kids[si];
        const char *name = jstr(sc, "name");
        fprintf(o->h, "<h3>%s, %.0f joints</h3><p class=\"note\">", name ? name : "?", jnum(sc, "joints"));
        html_esc(o->h, jstr(sc, "source"));
        fputs("; legs: ", o->h);
        html_esc(o->h, jstr(sc, "legs"));
        fputs("</p>\n<table class=\"num\">\n", o->h);
        fprintf(o->m, "### %s, %.0f joints\n\n", name ? name : "?", jnum(sc, "joints"));
        const char *cells[16];
        char buf[16][32];
        int nc = 0;
        cells[nc++] = "method";
        cells[nc++] = "variant";
        for (size_t s = 0; stages && s < stages->n && nc < 12; s++) cells[nc++] = stage_label(stages->kids[s].str);
        cells[nc++] = "total us";
        cells[nc++] = "spread";
        cells[nc++] = "chars/ms";
        cells[nc++] = "setup us";
        trow(o, 1, nc, cells, NULL);
        for (size_t q = 0; rows && q < rows->n; q++) {
            const jv *row = &rows->kids[q];
            if (!name || !jstr(row, "scene") || strcmp(jstr(row, "scene"), name)) continue;
            nc = 0;
            cells[nc++] = jstr(row, "method") ? jstr(row, "method") : "?";
            cells[nc++] = jstr(row, "variant") ? jstr(row, "variant") : "?";
            const jv *su = jget(row, "stage_us");
            for (size_t s = 0; stages && s < stages->n && nc < 12; s++) {
                double v = jnum(su, stages->kids[s].str);
                if (isfinite(v)) snprintf(buf[nc], sizeof buf[0], "%.1f", v);
                else snprintf(buf[nc], sizeof buf[0], "missing");
                cells[nc] = buf[nc];
                nc++;
            }
            snprintf(buf[nc], sizeof buf[0], "%.1f", jnum(row, "total_us"));
            cells[nc] = buf[nc];
            nc++;
            snprintf(buf[nc], sizeof buf[0], "%.1f%%", 100.0 * jnum(row, "total_spread"));
            cells[nc] = buf[nc];
            nc++;
            snprintf(buf[nc], sizeof buf[0], "%.0f", jnum(row, "characters_per_ms"));
            cells[nc] = buf[nc];
            nc++;
            double su1 = jnum(row, "setup_once_us");
            if (isfinite(su1)) snprintf(buf[nc], sizeof buf[0], "%.1f", su1);
            else snprintf(buf[nc], sizeof buf[0], "-");
            cells[nc] = buf[nc];
            nc++;
            trow(o, 0, nc, cells, NULL);
        }
        both(o, "</table>\n", "\n");
    }
    figure(o, "5_frame", "frame pipeline: us per frame per stage (stacked), per variant and transition method", made);
}

static void budget_section(report *r, out2 *o, int made)
{
    both(o, "<h2 id=\"budget\">Budget: which transition fits</h2>\n", "## Budget\n\n");
    if (!r->have_budget) {
        both(o, "<p class=\"missing\">the budget step did not produce its JSON.</p>\n", "No budget results.\n\n");
        return;
    }
    const jv *cfg = jget(&r->budget, "config"), *rows = jget(&r->budget, "rows"), *rest = jget(&r->budget, "rest_of_frame_us");
    const jv *sizes = jget(cfg, "crowd_sizes");
    double budget = jnum(cfg, "budget_us"), s0 = sizes && sizes->n > 0 ? sizes->kids[0].num : NAN;
    double s1 = sizes && sizes->n > 1 ? sizes->kids[1].num : NAN;
    fprintf(o->h, "<p>Budget %.0f us per frame for %.0f characters x %.0f joints, variant %s, %s, transition window "
                  "%.2f s, dead-blending half-life %.2f s. Cost: the clips each method samples plus its transition ops, "
                  "per frame for the crowd (CPU time, median). <i>+rest</i> adds the frame's additive layer, legs FK, "
                  "2-leg IK and FK (%.1f us). Max crowd: straight line through the costs at %.0f and %.0f characters, "
                  "<b>extrapolated</b>.</p>\n",
            budget, jnum(cfg, "characters"), jnum(cfg, "joints"), jstr(cfg, "variant") ? jstr(cfg, "variant") : "?",
            jstr(cfg, "sampler") ? jstr(cfg, "sampler") : "?", jnum(cfg, "duration_s"), jnum(cfg, "halflife_s"),
            rest && rest->n ? rest->kids[0].num : NAN, s0, s1);
    fprintf(o->m, "Budget %.0f us for %.0f characters x %.0f joints (variant %s). Max crowd: linear fit through %.0f "
                  "and %.0f characters, extrapolated.\n\n", budget, jnum(cfg, "characters"), jnum(cfg, "joints"),
            jstr(cfg, "variant") ? jstr(cfg, "variant") : "?", s0, s1);
    char fitsh[64];
    snprintf(fitsh, sizeof fitsh, "fits %.0f us", budget);
    const json_col cost_cols[] = {
        { "method", "method", 's', 0 }, { "rotation", "rotation", 's', 0 },
        { "per frame (after sampling)", "ops", 's', 0 }, { "clips sampled", "clips_sampled", 'f', 0 },
        { "us/frame", "cost_us", 'f', 1 }, { "spread", "cost_spread", '%', 1 }, { fitsh, "fits", 'b', 0 },
        { "max crowd*", "max_characters", 'f', 0 }, { "+rest us", "frame_us", 'f', 1 },
        { "fits", "frame_fits", 'b', 0 }, { "max crowd* (+rest)", "frame_max_characters", 'f', 0 },
        { "setup us (once)", "setup_us", 'g', 3 } };
    both(o, "<h3>Cost</h3>\n<div class=\"wide\"><table class=\"num budget\">\n", "### Cost\n\n");
    json_table(o, rows, cost_cols, sizeof cost_cols / sizeof cost_cols[0], "fits");
    both(o, "</table></div>\n", "\n");
    fprintf(o->h, "<p class=\"note\">* largest crowd within %.0f us: the straight line through the costs measured at "
                  "%.0f and %.0f characters, extrapolated (not measured at that size).</p>\n", budget, s0, s1);
    const json_col quality_cols[] = {
        { "method", "method", 's', 0 }, { "rotation", "rotation", 's', 0 },
        { "velocity jump m/s", "vel_jump_ms", 'f', 3 }, { "angular jump rad/s", "ang_jump_rads", 'f', 2 },
        { "deviation cm", "dev_cm", 'f', 2 }, { "deviation deg", "dev_deg", 'f', 2 } };
    both(o, "<h3>Quality</h3>\n<table class=\"num\">\n", "### Quality\n\n");
    json_table(o, rows, quality_cols, sizeof quality_cols / sizeof quality_cols[0], NULL);
    both(o, "</table>\n", "\n");
    const jv *sa = jget(&r->budget, "source_alone_jump");
    const char *src = jstr(&r->budget, "quality_source");
    fprintf(o->h, "<p class=\"note\">Quality on %s (%zu transitions, 60 Hz, world space, %.0f body joints). "
                  "Velocity jump: peak over joints of the change of velocity at the transition frame, from world "
                  "transforms differenced over one frame (for scale, the source clip alone changes by %.3f m/s and "
                  "%.2f rad/s there). Deviation: mean distance and angle to the destination animation over the window. "
                  "blend and blend_static make the same poses, so the same quality.</p>\n",
            src ? src : "?", jget(&r->budget, "pairs") ? jget(&r->budget, "pairs")->n : 0,
            jnum(&r->budget, "quality_body_joints"), jnum(sa, "vel_ms"), jnum(sa, "ang_rads"));
    fprintf(o->m, "Quality on %s; velocity jump at the transition frame (source alone: %.3f m/s), mean deviation from "
                  "the destination over the window.\n\n", src ? src : "?", jnum(sa, "vel_ms"));
    figure(o, "6_budget", "cost per frame vs quality per transition method (left: velocity jump, log scale; right: "
                          "deviation from the destination)", made);
}

static void write_index(report *r, const int made[6], double total_s, int validate_status)
{
    char p1[2400], p2[2400];
    snprintf(p1, sizeof p1, "%s/index.html", r->dir);
    snprintf(p2, sizeof p2, "%s/summary.md", r->dir);
    out2 o = { fopen(p1, "w"), fopen(p2, "w") };
    if (!o.h || !o.m) {
        fprintf(stderr, "posebench report: cannot write %s: %s\n", o.h ? p2 : p1, strerror(errno));
        if (o.h) fclose(o.h);
        if (o.m) fclose(o.m);
        return;
    }
    bench_data *b = r->bench;
    char cpu[256], feats[128], when[64];
    pb_cpu_model(cpu, sizeof cpu);
    pb_cpu_feature_names(pb_cpu_features(), feats, sizeof feats);
    time_t now = time(NULL);
    struct tm tmv;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&now, &tmv));
    const jv *fctx = r->have_frame ? jget(&r->frame, "context") : NULL;
    const char *compiler = b && b->ok ? b->compiler : jstr(fctx, "compiler");
    const char *cflags = b && b->ok ? b->c_flags : jstr(fctx, "c_flags");
    const char *kflags = b && b->ok ? b->kernel_flags : jstr(fctx, "kernel_flags");
    const char *btype = b && b->ok ? b->build_type : jstr(fctx, "build_type");
    int total_imgs = 0;
    for (int i = 0; i < 6; i++) total_imgs += made[i];

    fprintf(o.h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>posebench report %s</title>\n"
                 "<style>\n"
                 "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:2em auto;"
                 "max-width:1500px;padding:0 1em;color:#222;line-height:1.4}\n"
                 "h1{margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}\n"
                 "table{border-collapse:collapse;margin:.6em 0;font-size:13px}\n"
                 "th,td{border:1px solid #ccc;padding:3px 7px;text-align:left;white-space:nowrap}\n"
                 "th{background:#f0f3f7}table.num td{text-align:right}table.num td:first-child,"
                 "table.num td:nth-child(2){text-align:left}\n"
                 "table.budget td:nth-child(3){text-align:left;white-space:normal;min-width:14em}"
                 "table.grouped col.g{border-left:2px solid #888}table.grouped th.grp{border-left:2px solid #888}"
                 "tr.bad td{background:#fde8e8}.bad{color:#a00}.good{color:#070}.missing{color:#a60}"
                 ".note{color:#555;font-size:13px}\n"
                 ".wide{overflow-x:auto}figure{margin:1em 0}img{max-width:100%%;border:1px solid #eee}"
                 "figcaption{color:#555;font-size:13px}\n"
                 "dl.ctx{display:grid;grid-template-columns:max-content auto;gap:2px 14px;font-size:13px}"
                 "dl.ctx dt{font-weight:600}dl.ctx dd{margin:0;font-family:monospace}\n"
                 "nav a{margin-right:1em}\n</style></head>\n<body data-images-total=\"%d\">\n",
            when, total_imgs);
    fprintf(o.h, "<h1>posebench report</h1>\n<p class=\"note\">%s &middot; %s run &middot; %.0f s</p>\n", when,
            r->quick ? "quick" : "full", total_s);
    fputs("<nav><a href=\"#context\">context</a><a href=\"#validation\">validation</a><a href=\"#bench\">benchmarks</a>"
          "<a href=\"#frame\">frame pipeline</a><a href=\"#budget\">budget</a><a href=\"#files\">files</a></nav>\n", o.h);
    fprintf(o.m, "# posebench report\n\n%s, %s run, %.0f s.\n\n", when, r->quick ? "quick" : "full", total_s);

    /* headline */
    fputs("<h2>Summary</h2><ul>\n", o.h);
    fputs("## Summary\n\n", o.m);
    if (r->val && r->val->ok) {
        fprintf(o.h, "<li class=\"%s\">validation: %d rows, %d failing</li>\n", r->val->fails ? "bad" : "good",
                r->val->rows, r->val->fails);
        fprintf(o.m, "- validation: %d rows, %d failing\n", r->val->rows, r->val->fails);
    } else {
        fputs("<li class=\"bad\">validation: no results</li>\n", o.h);
        fputs("- validation: no results\n", o.m);
    }
    if (b && b->ok) {
        int nops = 0;
        for (int op = 0; op < PB_OP_COUNT; op++) nops += b->op_on[op];
        fprintf(o.h, "<li>benchmarks: %d ops x %d variants x %d sizes</li>\n", nops, b->nv, b->ns);
        fprintf(o.m, "- benchmarks: %d ops x %d variants x %d sizes\n", nops, b->nv, b->ns);
    }
    if (r->have_frame) {
        const jv *rows = jget(&r->frame, "rows");
        double best = INFINITY;
        const jv *br = NULL;
        for (size_t i = 0; rows && i < rows->n; i++) {
            double t = jnum(&rows->kids[i], "total_us");
            const char *sc = jstr(&rows->kids[i], "scene");
            if (sc && !strncmp(sc, "synthetic", 9) && t < best) {
                best = t;
                br = &rows->kids[i];
            }
        }
        if (br) {
            fprintf(o.h, "<li>frame: fastest %s frame %.1f us for %.0f characters x %.0f joints (%s, %s): %.0f "
                         "characters per ms</li>\n", jstrz(br, "scene"), best, jnum(br, "characters"), jnum(br, "joints"),
                    jstrz(br, "method"), jstrz(br, "variant"), jnum(br, "characters_per_ms"));
            fprintf(o.m, "- frame: fastest %s frame %.1f us for %.0f characters (%s, %s)\n", jstrz(br, "scene"), best,
                    jnum(br, "characters"), jstrz(br, "method"), jstrz(br, "variant"));
        }
    }
    if (r->have_budget) {
        const jv *rows = jget(&r->budget, "rows"), *cfg = jget(&r->budget, "config");
        int fits = 0, n = 0;
        for (size_t i = 1; rows && i < rows->n; i++, n++) fits += jbool(&rows->kids[i], "fits", 0);
        fprintf(o.h, "<li>budget: %d of %d blending methods fit %.0f us for %.0f characters (variant %s)</li>\n", fits,
                n, jnum(cfg, "budget_us"), jnum(cfg, "characters"), jstrz(cfg, "variant"));
        fprintf(o.m, "- budget: %d of %d blending methods fit %.0f us for %.0f characters\n", fits, n,
                jnum(cfg, "budget_us"), jnum(cfg, "characters"));
    }
    for (int i = 0; i < r->nsteps; i++)
        if (r->steps[i].status != 0) {
            fprintf(o.h, "<li class=\"bad\">step %s exited with status %d</li>\n", r->steps[i].name, r->steps[i].status);
            fprintf(o.m, "- step %s exited with status %d\n", r->steps[i].name, r->steps[i].status);
        }
    if (r->plots_missing[0]) {
        fprintf(o.h, "<li class=\"bad\">%s</li>\n", r->plots_missing);
        fprintf(o.m, "- %s\n", r->plots_missing);
    }
    fputs("</ul>\n", o.h);
    fputs("\n", o.m);

    /* context */
    fputs("<h2 id=\"context\">Context</h2>\n<dl class=\"ctx\">\n", o.h);
    fputs("## Context\n\n", o.m);
    const char *keys[] = { "CPU", "CPU features", "cores", "compiler", "C flags", "kernel flags", "build type",
                           "bench run", "steps" };
    char steps[512], cores[64];
    size_t used = 0;
    steps[0] = '\0';
    for (int i = 0; i < r->nsteps && used < sizeof steps; i++)
        used += (size_t)snprintf(steps + used, sizeof steps - used, "%s%s %.0f s%s", i ? ", " : "", r->steps[i].name,
                                 r->steps[i].seconds, r->steps[i].status ? " (failed)" : "");
    snprintf(cores, sizeof cores, "%s (%s MHz)", b && b->ok ? b->ncpu : "?", b && b->ok ? b->mhz : "?");
    char benchrun[128];
    snprintf(benchrun, sizeof benchrun, "%s", b && b->ok ? (!strcmp(b->quick, "true") ? "quick" : "full") : "not run");
    const char *vals[] = { cpu, feats, cores, compiler ? compiler : "?", cflags ? cflags : "?", kflags ? kflags : "?",
                           btype ? btype : "?", benchrun, steps };
    for (int i = 0; i < 9; i++) {
        fprintf(o.h, "<dt>%s</dt><dd>", keys[i]);
        html_esc(o.h, vals[i]);
        fputs("</dd>\n", o.h);
        fprintf(o.m, "- **%s**: %s\n", keys[i], vals[i]);
    }
    fputs("</dl>\n", o.h);
    fputs("\n", o.m);

    validation_section(r, &o, made[3]);
    bench_section(r, &o, made);
    frame_section(r, &o, made[4]);
    budget_section(r, &o, made[5]);

    fputs("<h2 id=\"files\">Files</h2><p>", o.h);
    const char *files[] = { "validate.json", "validate.txt", "bench.json", "bench.csv", "bench.txt", "frame.json",
                            "frame.txt", "budget.json", "budget.txt", "variants.txt", "summary.md" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p[2400];
        snprintf(p, sizeof p, "%s/%s", r->dir, files[i]);
        if (file_exists(p) || !strcmp(files[i], "summary.md")) fprintf(o.h, "<a href=\"%s\">%s</a> ", files[i], files[i]);
    }
    fputs("<a href=\"data/\">data/</a> (gnuplot inputs)</p>\n", o.h);
    (void)validate_status;
    /* the test (tests/test_report.sh) reads these from headless Chromium's DOM */
    fputs("<script>\n(function(){\n  function count(){\n    var imgs=document.images, ok=0;\n"
          "    for(var i=0;i<imgs.length;i++){ if(imgs[i].complete && imgs[i].naturalWidth>0) ok++; }\n"
          "    document.body.dataset.imagesLoaded=String(ok);\n"
          "    document.body.dataset.imagesFound=String(imgs.length);\n  }\n"
          "  window.addEventListener('load', count);\n  count();\n})();\n</script>\n</body></html>\n", o.h);
    fclose(o.h);
    if (fclose(o.m) != 0) fprintf(stderr, "posebench report: error writing %s\n", p2);
}

/* ============================ the command ============================ */
static void report_usage(FILE *f)
{
    fputs("usage: posebench report [--quick] [--out DIR] [--no-bench] [--bvh FILE]...\n"
          "  Runs validate, bench, frame and budget, then writes plots (gnuplot: png and svg), index.html and\n"
          "  summary.md into a new folder reports/out/YYYYmmdd-HHMMSS/ of the source tree (printed at the end).\n"
          "  --quick     validate --quick, bench --quick (3 sizes), short frame and budget runs: under 2 minutes\n"
          "  --out DIR   write into DIR instead (created if missing; existing report files are replaced)\n"
          "  --no-bench  leave the benchmarks out (plots 1-3 then say so)\n"
          "  --bvh FILE  your own motion capture (repeatable, up to 16): validate on it and time the frame\n"
          "              pipeline on its skeleton (passed to `validate --bvh` and `frame --bvh`)\n"
          "  Exit status: 0, 1 if validation failed or a step or plot failed (the report is written anyway),\n"
          "  2 for bad options or an unwritable folder.\n", f);
}

static const char *self_exe(char *buf, size_t len, const char *fallback)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0) return fallback;
    buf[n] = '\0';
    return buf;
}

int pb_cmd_report(int argc, char **argv)
{
    report *r = calloc(1, sizeof *r);
    if (!r) return 2;
    const char *out = NULL;
    int no_bench = 0, status = 0, nbvh = 0;
    char *bvh[REPORT_MAX_BVH];
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) r->quick = 1;
        else if (!strcmp(argv[i], "--bvh") && i + 1 < argc) {
            if (nbvh == REPORT_MAX_BVH) {
                fprintf(stderr, "posebench report: more than %d --bvh files\n", REPORT_MAX_BVH);
                free(r);
                return 2;
            }
            bvh[nbvh++] = argv[++i];
            if (!file_exists(bvh[nbvh - 1])) {
                fprintf(stderr, "posebench report: --bvh %s: no such file\n", bvh[nbvh - 1]);
                free(r);
                return 2;
            }
        }
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--no-bench")) no_bench = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            report_usage(stdout);
            free(r);
            return 0;
        } else {
            fprintf(stderr, "posebench report: unknown or incomplete option '%s'\n", argv[i]);
            report_usage(stderr);
            free(r);
            return 2;
        }
    }
    /* the folder: new and timestamped, or --out */
    if (out) {
        snprintf(r->dir, sizeof r->dir, "%s", out);
        if (mkdir_p(r->dir) != 0) {
            fprintf(stderr, "posebench report: cannot create %s: %s\n", r->dir, strerror(errno));
            free(r);
            return 2;
        }
    } else {
        char stamp[32];
        time_t now = time(NULL);
        struct tm tmv;
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", gmtime_r(&now, &tmv));
        char base[1900];
        snprintf(base, sizeof base, "%s/out", PB_REPORTS_DIR);
        if (mkdir_p(base) != 0) {
            fprintf(stderr, "posebench report: cannot create %s: %s\n", base, strerror(errno));
            free(r);
            return 2;
        }
        int made = 0;
        for (int k = 1; k < 100 && !made; k++) {
            if (k == 1) snprintf(r->dir, sizeof r->dir, "%s/%s", base, stamp);
            else snprintf(r->dir, sizeof r->dir, "%s/%s-%d", base, stamp, k);
            if (mkdir(r->dir, 0755) == 0) made = 1;
            else if (errno != EEXIST) break;
        }
        if (!made) {
            fprintf(stderr, "posebench report: cannot create a new folder under %s: %s\n", base, strerror(errno));
            free(r);
            return 2;
        }
    }
    snprintf(r->data, sizeof r->data, "%s/data", r->dir);
    if (mkdir_p(r->data) != 0) {
        fprintf(stderr, "posebench report: cannot create %s: %s\n", r->data, strerror(errno));
        free(r);
        return 2;
    }
    snprintf(r->scripts, sizeof r->scripts, "%s", PB_REPORTS_DIR);
    {
        char probe[2400];
        snprintf(probe, sizeof probe, "%s/%s", r->scripts, plots[0].script);
        if (!file_exists(probe) && file_exists("reports/ns_per_joint.gp")) snprintf(r->scripts, sizeof r->scripts, "reports");
    }
    fprintf(stderr, "posebench report: writing %s (%s)\n", r->dir, r->quick ? "quick" : "full");

    char exe[4096];
    char *self = (char *)self_exe(exe, sizeof exe, "posebench");
    double t_all = now_s();
    char p_val[2400], p_bench[2400], p_csv[2400], p_frame[2400], p_budget[2400], p_txt[2400];
    snprintf(p_val, sizeof p_val, "%s/validate.json", r->dir);
    snprintf(p_bench, sizeof p_bench, "%s/bench.json", r->dir);
    snprintf(p_csv, sizeof p_csv, "%s/bench.csv", r->dir);
    snprintf(p_frame, sizeof p_frame, "%s/frame.json", r->dir);
    snprintf(p_budget, sizeof p_budget, "%s/budget.json", r->dir);
    char quick[] = "--quick", json[] = "--json";

    /* 0: variants (context) */
    {
        char cmd[] = "variants";
        char *av[] = { self, cmd, NULL };
        snprintf(p_txt, sizeof p_txt, "%s/variants.txt", r->dir);
        run_child(av, p_txt, NULL, 0);
    }
    int validate_status = -1;
    int nsteps_total = no_bench ? 3 : 4;
    for (int k = 0; k < 4; k++) {
        const char *name = k == 0 ? "validate" : k == 1 ? "bench" : k == 2 ? "frame" : "budget";
        if (k == 1 && no_bench) continue;
#ifndef PB_HAVE_BENCH
        if (k == 1) {
            fprintf(stderr, "posebench report: this build has no Google Benchmark (libbenchmark-dev): no benchmarks\n");
            continue;
        }
#endif
        step *s = &r->steps[r->nsteps++];
        s->name = name;
        fprintf(stderr, "posebench report: [%d/%d] %s (elapsed %.0f s) ...\n", r->nsteps, nsteps_total, name,
                now_s() - t_all);
        char *av[24 + 2 * REPORT_MAX_BVH];
        int ac = 0;
        av[ac++] = self;
        av[ac++] = (char *)name;
        char sizes_opt[] = "--sizes", sizes[] = FULL_SIZES, csv[] = "--csv", dashdash[] = "--", reps[] = FULL_REPS,
             mint[] = FULL_MIN_TIME, frames_opt[] = "--frames", frames[] = "100";
        if (k == 0) {
            if (r->quick) av[ac++] = quick;
            av[ac++] = json;
            av[ac++] = p_val;
        } else if (k == 1) {
            if (r->quick) av[ac++] = quick;
            else {
                av[ac++] = sizes_opt;
                av[ac++] = sizes;
            }
            av[ac++] = json;
            av[ac++] = p_bench;
            av[ac++] = csv;
            av[ac++] = p_csv;
            if (!r->quick) {
                av[ac++] = dashdash;
                av[ac++] = reps;
                av[ac++] = mint;
            }
        } else {
            if (r->quick) av[ac++] = quick;
            else if (k == 2) {   /* 100 frames x 5 repetitions: the scalar rows dominate; ~1.5 min */
                av[ac++] = frames_opt;
                av[ac++] = frames;
            }
            av[ac++] = json;
            av[ac++] = k == 2 ? p_frame : p_budget;
        }
        char bvh_opt[] = "--bvh";
        for (int b = 0; (k == 0 || k == 2) && b < nbvh; b++) {   /* validate and frame take the user's clips */
            av[ac++] = bvh_opt;
            av[ac++] = bvh[b];
        }
        av[ac] = NULL;
        snprintf(p_txt, sizeof p_txt, "%s/%s.txt", r->dir, name);
        double t0 = now_s();
        s->status = run_child(av, p_txt, NULL, 0);
        s->seconds = now_s() - t0;
        if (k == 0) validate_status = s->status;
        if (s->status != 0)
            fprintf(stderr, "posebench report: %s exited with status %d (see %s)\n", name, s->status, p_txt);
    }

    /* read what the steps wrote */
    fprintf(stderr, "posebench report: reading results, plotting ...\n");
    r->val = calloc(1, sizeof *r->val);
    if (r->val && file_exists(p_val) && load_validate(p_val, r->val) != 0) r->val->ok = 0;
    if (file_exists(p_bench)) {
        r->bench = calloc(1, sizeof *r->bench);
        if (r->bench && load_bench(p_bench, r->bench) != 0) r->bench->ok = 0;
        if (r->bench && r->bench->ok && r->bench->ns == 0) r->bench->ok = 0;
    }
    r->have_frame = file_exists(p_frame) && jload(p_frame, &r->frame) == 0 && jget(&r->frame, "rows");
    r->have_budget = file_exists(p_budget) && jload(p_budget, &r->budget) == 0 && jget(&r->budget, "rows");

    /* data files and the gnuplot variables they need */
    FILE *vars = open_data(r, "vars.gp");
    int made[6] = { 0 };
    if (!vars) status = 2;
    else {
        fputs("# written by posebench report: what the plot scripts iterate over\n", vars);
        if (r->bench && r->bench->ok) {
            bench_data *b = r->bench;
            r->large_i = b->ns - 1;
            r->small_i = 0;
            for (int s = 0; s < b->ns; s++)
                if (b->sizes[s] <= 4096) r->small_i = s;   /* the largest size up to 4096: in cache */
            if (write_bench_data(r, vars) != 0) r->bench->ok = 0;
        }
        if (r->val && r->val->ok && write_validate_data(r, vars) != 0) r->val->ok = 0;
        if (r->have_frame && write_frame_data(r, vars) != 0) r->have_frame = 0;
        if (r->have_budget && write_budget_data(r, vars) != 0) r->have_budget = 0;
        if (fclose(vars) != 0) status = 2;
        else if (run_plots(r, made) != 0) status = 1;
    }
    write_index(r, made, now_s() - t_all, validate_status);

    for (int i = 0; i < r->nsteps; i++)
        if (r->steps[i].status != 0 && status == 0) status = 1;
    if (!r->val || !r->val->ok || !r->have_frame || !r->have_budget) status = status ? status : 1;
    if (r->val && r->val->ok && r->val->fails)
        fprintf(stderr, "posebench report: VALIDATION FAILED: %d failing row(s) (see validate.txt)\n", r->val->fails);
    fprintf(stderr, "posebench report: done in %.0f s%s\n", now_s() - t_all, status ? " (with failures, see above)" : "");
    printf("%s\n", r->dir);
    jfree(&r->frame);
    jfree(&r->budget);
    free(r->bench);
    free(r->val);
    free(r);
    return status;
}
