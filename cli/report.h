/* report.h — `posebench report`'s pieces: reading the steps' JSON
 * (report_read.c), gnuplot data and plots (report_plots.c), the HTML and
 * Markdown tables (report_sections.c, report_html.c), child processes and
 * small helpers (report_util.c); the command itself is cmd_report.c. */
#ifndef CLI_REPORT_H
#define CLI_REPORT_H

#include <math.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "context.h"
#include "posebench/posebench.h"

#ifndef CLI_REPORTS_DIR
#define CLI_REPORTS_DIR "reports"
#endif

/* ---- cJSON shorthands: tolerant of missing or mistyped members ---- */
static inline const cJSON *jget(const cJSON *o, const char *key) { return cJSON_GetObjectItemCaseSensitive(o, key); }
static inline size_t jlen(const cJSON *a) { return cJSON_IsArray(a) ? (size_t)cJSON_GetArraySize(a) : 0; }
static inline const cJSON *jat(const cJSON *a, size_t i) { return cJSON_GetArrayItem(a, (int)i); }
static inline const char *jat_str(const cJSON *a, size_t i)
{
    const cJSON *v = jat(a, i);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}
static inline double jat_num(const cJSON *a, size_t i)
{
    const cJSON *v = jat(a, i);
    return cJSON_IsNumber(v) ? v->valuedouble : (double)NAN;
}

/* ---- the runs ---- */
typedef struct step {
    const char *name;
    int status;        /* exit status; -1 not run */
    double seconds;
} step;

/* Run argv (stdout to out_path when given), wait. Its exit status, 127 if it could not run. */
int run_child(char *const argv[], const char *out_path, const char *dir, int search_path);
int mkdir_p(const char *path);
int file_exists(const char *p);
/* A file a step will read: 0 if it is a readable regular file, else -1 with why ("no such file", "is a directory,
 * not a regular file", ...): checked before any step runs, not found out by the steps 20 s later. */
int input_file_check(const char *path, char *why, size_t len);
void html_esc(FILE *f, const char *s);
void fmt_num(char *buf, size_t len, double v, int prec);

/* ---- data from the JSON (report_read.c) ---- */
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
    double gbps[PB_OP_COUNT][MAXV + 1][MAXS][2];   /* the row's bytes / its CPU time, 1e9 B/s */
    double bytes[PB_OP_COUNT][MAXS];                /* bytes read + written per call (warm): the working set */
    double bytes_per_joint[PB_OP_COUNT];
    double cache[3];                 /* L1d, L2, L3 bytes (0 unknown) */
    char cpu[256], features[128], compiler[128], c_flags[512], kernel_flags[512], build_type[32], date[64];
    char quick[8], mhz[32], ncpu[16];
    char kernel_opt[160], gb_build[32];   /* the timed code's -O level; Google Benchmark's own build type */
    char stream_bytes[192];               /* the streaming threshold the run had (context "stream_bytes") */
} bench_data;

typedef struct val_cell {
    int rows, fails;
    double worst;          /* max over judged metrics of err / bound */
    char worst_metric[32];
} val_cell;

typedef struct val_data {
    int ok, rows, fails;
    int other_rows;          /* rows of the tables that are not pose ops (skin_*, mm_*, bspace, blend_n) */
    char mocap_skipped[160]; /* why the real-data class did not run ("" when it ran or the JSON does not say) */
    char variants[MAXV][32], modes[MAXV][16];
    int nv;
    int op_on[PB_OP_COUNT];
    val_cell cell[PB_OP_COUNT][MAXV];
    char fail_list[32][160];
    int nfail_list;
} val_data;

/* 0, or -1 with the reason on stderr. load_bench merges the rows of up
 * to 4 bench JSON files (the context comes from the first). */
int load_bench(const char *const *paths, int npaths, bench_data *b);
int load_validate(const char *path, val_data *d);
/* frame.json / budget.json: the parsed tree if it has "rows", else NULL (reason on stderr). */
cJSON *load_rows_json(const char *path);

/* ---- the machine's copy bandwidth per cache level (report_bw.c) ---- */
enum { LV_L1, LV_L2, LV_L3, LV_DRAM, LV_COUNT };
typedef struct bw_level {
    double cache;            /* the level's size in bytes (DRAM: 0) */
    double ws_min, ws_max;   /* the working sets a copy row must have to count for it */
    int rows;                /* warm copy rows in the range */
    double median, lo, hi;   /* their GB/s */
    double got_min, got_max; /* the working sets of those rows */
    char sizes[160];         /* their joint counts, "256, 4096" */
} bw_level;
/* The levels from the bench's copy/<op>/<n> rows (warm), by working set:
 * L1 up to 3/4 of L1d, L2 from 1.5 x L1d to 3/4 of L2, L3 from 1.5 x L2 to
 * 3/4 of L3, DRAM from 2 x L3; rows in between are left out. */
void copy_levels(const bench_data *b, bw_level lv[LV_COUNT]);
extern const char *const level_name[LV_COUNT];
/* The joint count of the extra DRAM-sized run: op_bytes_per_joint x n at
 * least 2 x the last-level cache (4 x when that stays under 1 GiB); 0 with
 * the reason in why when the cache size is unknown or too large. */
size_t dram_joints(double llc_bytes, double op_bytes_per_joint, char *why, size_t len);
/* The host's last-level cache in bytes (POSEBENCH_LLC_BYTES when set, else
 * sysfs), 0 if unknown. */
double host_llc_bytes(void);

/* ---- the report ---- */
typedef struct report {
    char dir[2048], data[2200], scripts[2048];
    int quick;
    int full;                   /* --full: every bench size, longer runs */
    int no_bench;               /* --no-bench: the benchmarks left out by request */
    bench_data *bench;
    val_data *val;
    cJSON *frame, *budget;      /* frame.json, budget.json (NULL: not read) */
    int have_frame, have_budget;
    int have_scaling;           /* frame.json has blocked rows (plot 8) */
    int have_budget_sets;       /* budget.json has transition sets (plot 9) */
    step steps[6];
    int nsteps;
    int small_i, large_i;   /* size indices of the summary columns */
    char plots_missing[512];
    size_t dram_n;           /* the extra DRAM-sized bench run's joints (0: none) */
    char dram_note[256];     /* why there is none */
    bw_level lv[LV_COUNT];
} report;

/* A data file for gnuplot in the report's data folder (NULL, with a message, if it cannot be written),
 * and one number of a row in it ("?": gnuplot's missing value). */
FILE *open_data(const report *r, const char *name);
void dat_num(FILE *f, double v);
/* ---- data files and plots (report_plots.c) ---- */
#define NPLOTS 9
enum { PL_NSPJ, PL_SPEEDUP, PL_COPY, PL_BW, PL_VALID, PL_FRAME, PL_BUDGET, PL_SCALING, PL_BUDGET_SETS };
/* Write data/vars.gp and the data files, run gnuplot for each plot whose
 * input exists (made[i]: png and svg written). 0, 1 a plot failed, 2 the data
 * folder is unwritable. */
int report_plots(report *r, int made[NPLOTS]);
const char *report_probe_script(void);   /* a script the reports folder must hold */
const char *report_plot_file(int i);     /* plot i's output base name */

/* ---- HTML and Markdown (report_sections.c, report_html.c) ---- */
typedef struct out2 {
    FILE *h, *m;   /* index.html, summary.md */
} out2;
/* Shared by the sections: one piece for both outputs, a table row, the "how to read" note, a figure. */
void both(out2 *o, const char *html, const char *md);
void trow(out2 *o, int head, int ncell, const char *const *cells, const char *klass);
void how_to_read(out2 *o, const char *text);
void figure(out2 *o, const char *file, const char *caption, int made);
void validation_section(report *r, out2 *o, int made);
void bench_section(report *r, out2 *o, const int *made);
void frame_section(report *r, out2 *o, int made);
void budget_section(report *r, out2 *o, int made);
/* budget's config's stage list `key` ("stages", "rest_of_frame_stages": frame's stage keys) as the frame
 * table's headings, ", " between them, in buf; fallback when the JSON has none (an older budget). */
const char *budget_stages_text(const cJSON *cfg, const char *key, const char *fallback, char *buf, size_t len);
/* report_budget_sets.c: plot 9's data (0, or -1: no transition sets) and the sets' part of the budget section. */
int write_budget_sets_data(report *r, FILE *vars);
void budget_sets_section(report *r, out2 *o, int made);
/* report_answers.c: the first screen, the three questions answered from the steps' JSON. */
void answers_section(report *r, out2 *o);
/* "quick", "default" or "full" */
static inline const char *report_mode(const report *r) { return r->quick ? "quick" : r->full ? "full" : "default"; }
/* report_scaling.c: plot 8's data (0, or -1: no blocked rows) and the fusion-and-threads section. */
int write_scaling_data(report *r, FILE *vars);
void scaling_section(report *r, out2 *o, int made);
/* report_bw.c: the data of plots 3 and 4 (0 or -1), and the bandwidth tables. */
int write_bw_data(report *r, FILE *vars);
void bandwidth_tables(report *r, out2 *o);
/* 0, or -1 after a message (index.html or summary.md unwritable). */
int write_index(report *r, const int made[NPLOTS], double total_s);

#endif
