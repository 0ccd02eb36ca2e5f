/* fuzz_graph.c — libFuzzer target for the CLI's blend graph reader
 * (cli/graph_json.c, graph_json_load_mem), over the default graph's base on a
 * synthetic 24-joint scene (what `posebench frame --source graph --graph F`
 * loads against).
 *
 * Build and run (clang; cmake/cli.cmake):
 *   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DPB_FUZZ=ON && cmake --build build-fuzz --target fuzz_graph
 *   build-fuzz/fuzz_graph -max_len=8192 -dict=tests/fuzz/graph.dict CORPUS_DIR tests/fuzz/graph_seed tests/graph data
 * Besides crashes and sanitizer reports, it aborts when a load breaks the
 * reader's contract: a refusal must leave the output empty and a message
 * naming the input ("fuzz.json: ..."); an accepted graph must pass
 * pb_graph_check, and a crowd of two characters must run three frames of it
 * with the CLI's parameter drive. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "graph_json.h"
#include "posebench/posebench.h"

static pb_scene scene;
static pb_graph_scene base;
static int ready;

static int all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

/* The crowd over an accepted graph: every frame PB_OK (the drive keeps the parameters finite). */
static void run_crowd(const graph_json *g)
{
    pb_graph_crowd c;
    if (pb_graph_crowd_init(&c, &g->def, base.clips, 3, scene.parents, 2, 7) != PB_OK) abort();
    for (int f = 0; f < 3; f++) {
        graph_json_drive(g, &c, 11, 1.0f / 30);
        if (pb_graph_crowd_step(&c, NULL, 1.0f / 30) != PB_OK) abort();
    }
    pb_graph_crowd_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready) {
        if (pb_scene_synthetic(&scene, 24, 3) != PB_OK || pb_graph_scene_default(&base, &scene) != PB_OK) abort();
        ready = 1;
    }
    graph_json g;
    char err[512];
    int st = graph_json_load_mem("fuzz.json", (const char *)data, size, &base, &g, err, sizeof err);
    if (st != 0) {
        if (st != -1 || !all_zero(&g, sizeof g) || strncmp(err, "fuzz.json:", 10) != 0) abort();
        return 0;
    }
    if (pb_graph_check(&g.def, base.clips, 3) != PB_OK) abort();
    run_crowd(&g);
    graph_json_free(&g);
    if (!all_zero(&g, sizeof g)) abort();
    return 0;
}
