/* graph_json.h — a blend graph definition (posebench/graph.h's pb_graph_def)
 * read from a JSON file, so `posebench frame --source graph --graph FILE`
 * runs a graph given as data; and a parameter drive for such a graph. The
 * format is documented in graph_json.c and docs/graph_json.md. In the CLI,
 * not the runtime: the runtime does not link cJSON, and an engine has its
 * own asset pipeline. */
#ifndef CLI_GRAPH_JSON_H
#define CLI_GRAPH_JSON_H

#include <stddef.h>
#include <stdint.h>
#include "posebench/graph.h"

/* Files larger than this are refused before parsing: a graph within the
 * PB_GRAPH_MAX_* limits takes well under 100 KiB. */
#define GRAPH_JSON_MAX_BYTES (1u << 20)

typedef struct graph_json {
    pb_graph_def def;    /* checked by pb_graph_check against the base's clips */
    /* per parameter: the range graph_json_drive walks it in ("min", "max"; default 0 .. 1) */
    float lo[PB_GRAPH_MAX_PARAMS], hi[PB_GRAPH_MAX_PARAMS];
    /* per layer: the mask made from a list of joints (owned), or NULL (the layer's mask is the
       base's upper / chest mask, which stays the base's, or none) */
    float *own_mask[PB_GRAPH_MAX_LAYERS];
} graph_json;

/* Read the definition in the file at path against base (pb_graph_scene_default
 * over the scene it will run on): its clips are the motions' clips 0, 1 and
 * 2 (the breathing clip), its upper and chest masks the layers' "upper" and
 * "chest". out borrows those masks: base must outlive out. Returns 0, or -1
 * with out empty and the message in err ("FILE: JSON.PATH: what is wrong
 * (what was expected)"), for: a file that cannot be read or is not a regular file (a FIFO), over
 * GRAPH_JSON_MAX_BYTES or with a NUL byte; a JSON syntax error (with its
 * line and column); a value of the wrong type, a missing required key, an
 * unknown key, a name that names nothing (the message lists the names
 * there are), a duplicate name, a count over its PB_GRAPH_MAX_*, a number
 * that is not finite or out of its range; and whatever pb_graph_check
 * refuses (its message). */
int graph_json_load(const char *path, const pb_graph_scene *base, graph_json *out, char *err, size_t errlen);
/* The same from n bytes of memory at text (no NUL needed; a NUL byte within is refused), named
 * name in messages where the file's name would be: what tests/fuzz/fuzz_graph.c feeds. Errors as
 * graph_json_load's, less the file's own (over GRAPH_JSON_MAX_BYTES is refused here too). */
int graph_json_load_mem(const char *name, const char *text, size_t n, const pb_graph_scene *base, graph_json *out,
                        char *err, size_t errlen);
void graph_json_free(graph_json *g);

/* Every character's parameters of c (running g->def) for its next frame: a
 * random walk per parameter within [lo, hi], in steps of 0.5 s each at a
 * constant rate drawn from (seed, character, parameter, step): up to the
 * range per 1.5 s, held at the range's ends. Frame 0 places each parameter
 * at a point drawn the same way. The draws are hashes, so the parameters
 * depend only on (seed, character, frame) and the frame step dt. */
void graph_json_drive(const graph_json *g, pb_graph_crowd *c, uint64_t seed, float dt);

#endif
