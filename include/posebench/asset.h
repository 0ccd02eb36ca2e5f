/* asset.h — import a skinned, animated character (FBX, glTF 2, Collada, X,
 * MD5, BVH, ... : what Assimp reads) into posebench's own structures:
 * a skeleton (names, parents, rest pose), one skinned mesh (pb_mesh), the
 * inverse bind matrices as the file gives them, and every clip resampled to
 * the pb_clip layout. An optional part of the runtime: present when the
 * library was configured with PB_ASSIMP (posebench/version.h: PB_HAVE_ASSIMP);
 * without it the types remain and pb_asset_load returns PB_ERR_UNSUPPORTED.
 * docs/asset.md explains the choices below with figures.
 *
 * Joints: every node that is a bone of a mesh, is animated by a clip, or
 * draws a mesh (its unweighted vertices follow it), and every ancestor up
 * to the scene's root, in depth-first order (a parent precedes its children;
 * joint 0 is the scene's root). So fk of the rest pose gives each joint the
 * global transform Assimp's node hierarchy gives its node.
 *
 * Mesh: every mesh of the file in one pb_mesh (mesh_first[] says where each
 * begins), triangulated and with identical vertices joined (what a renderer
 * skins), positions in the mesh's space as the file gives them ("bind
 * space"), normals unit (generated where the file has none). Influences:
 * the 4 largest of each vertex (heaviest first), renormalised to sum 1; a
 * vertex with more is counted in reduced_vertices, the largest weight
 * dropped in max_dropped_weight. A vertex with no bone weights is bound
 * with weight 1 to its mesh's node (counted in unweighted_vertices).
 * The weights are those Assimp's reader hands on: its glTF 2 and X readers
 * drop every weight that is not > 0 (zero, negative, NaN), so such a vertex
 * keeps its other weights, renormalised, or, left with none, is bound to its
 * node as above; a weight that does reach the importer NaN, infinite or
 * negative (Assimp's SMD reader handed them on; SMD is now refused), or a
 * vertex whose weights sum to 0, is refused (PB_ERR_PARAM, mesh, vertex and
 * bone named).
 *
 * Inverse bind: inv_bind[j] is bone j's offset matrix as the file gives it
 * (row-major 4x4, bind space -> bone space); the identity for joints that
 * are not bones (a vertex bound to its mesh's node moves with the node).
 * inv_bind_pose holds the same transforms as kineforms (pos, rot, scl) for
 * the palette ops (ops.h: pb_matrix_palette(global, inv_bind_pose, ...)).
 * An inverse bind of R S form (a scale along its own axes) is a kineform
 * exactly; its inverse, the bind pose, is one only for a uniform scale:
 * skewed_binds counts the bones where it is not (their palette at the bind
 * pose is then only near the identity; docs/asset.md).
 *
 * Clips: frames at fps = options.fps, or the file's own key rate: the rate
 * of the common tick step of every key time (integral ticks: their greatest
 * common divisor; else a 0.1 ms grid), so that each original key falls on a
 * frame; at most PB_ASSET_MAX_RATE, else PB_ASSET_FALLBACK_RATE. Frame f is
 * the channels sampled at min(f / fps, duration): positions and scales
 * linearly, rotations by slerp on the shorter arc, held before the first and
 * after the last key; joints without a channel keep their rest local. The
 * original key times (seconds, ascending, every channel's) are kept in
 * key_times.
 *
 * Units and axes: Assimp leaves an FBX file's UnitScaleFactor (centimetres
 * per unit) and axis system (UpAxis, FrontAxis, CoordAxis and their signs) as
 * metadata; the import converts such a file to metres and +Y up, +Z front
 * (scale 0.01 x UnitScaleFactor; the axes by a rotation, when the file's
 * axes are right-handed), applied to every node, key, vertex and inverse bind
 * (C M C^-1), and reports what it found and did. Other formats are taken as
 * Assimp gives them (glTF is metres and +Y up by its specification; Assimp's
 * Collada reader applies the file's unit and up axis itself). */
#ifndef POSEBENCH_ASSET_H
#define POSEBENCH_ASSET_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "pose.h"
#include "clip.h"
#include "skin.h"
#include "frame.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_ASSET_NAME_MAX 64                          /* bytes per joint or clip name, NUL included (longer: cut) */
#define PB_ASSET_DEFAULT_MAX_BYTES ((size_t)256 << 20) /* file size cap: 256 MiB */
#define PB_ASSET_DEFAULT_MAX_JOINTS 1024
#define PB_ASSET_DEFAULT_MAX_KEYS ((size_t)1 << 22)   /* per clip: frames x joints, and the file's keys */
#define PB_ASSET_MAX_RATE 1000.0                      /* Hz: a larger key rate resamples at the fallback */
#define PB_ASSET_FALLBACK_RATE 30.0

typedef struct pb_asset_options {
    float fps;             /* resampling rate; 0: the file's key rate (see above) */
    size_t max_bytes;      /* file (or memory) size; default PB_ASSET_DEFAULT_MAX_BYTES */
    size_t max_joints;     /* default PB_ASSET_DEFAULT_MAX_JOINTS, at most PB_MAX_JOINTS */
    size_t max_vertices;   /* all meshes together; default and at most PB_MESH_MAX_VERTICES */
    size_t max_keys;       /* per clip; default PB_ASSET_DEFAULT_MAX_KEYS */
    int allow_no_mesh;     /* nonzero: a skeleton and clips without a mesh (BVH) is fine (mesh.n = 0) */
    int keep_units;        /* nonzero: no unit or axis conversion (still reported) */
} pb_asset_options;

typedef struct pb_asset_clip {
    char name[PB_ASSET_NAME_MAX];
    double duration;       /* seconds */
    double ticks_per_second; /* as the file gives it (0 in the file: Assimp's 25 assumed, see docs) */
    double key_rate;       /* the file's key rate (Hz), whatever fps the clip was resampled at */
    size_t channels;       /* joints the clip animates */
    size_t keys;           /* keys in the file: position + rotation + scaling, every channel */
    size_t times;          /* distinct key times */
    double *key_times;     /* times entries, seconds, ascending */
    pb_clip clip;          /* frames x joints local transforms (pos, rot, scl) */
} pb_asset_clip;

typedef struct pb_asset {
    char format[32];                  /* Assimp's SourceAsset_Format, or the extension */
    size_t joints;
    char (*names)[PB_ASSET_NAME_MAX]; /* joint (node) names */
    int32_t *parents;                 /* parents[j] < j, or -1 for the root */
    uint8_t *is_bone;                 /* 1: a bone of some mesh */
    size_t bones;                     /* joints that are bones */
    size_t mesh_bones;                /* the meshes' bone lists added up (a bone in two meshes counts twice) */
    pb_pose rest;                     /* static, n = joints: the nodes' local transforms */
    float (*inv_bind)[16];            /* per joint, row-major 4x4 (see above) */
    pb_pose inv_bind_pose;            /* static, n = joints: inv_bind as kineforms */
    size_t skewed_binds;              /* bones whose bind pose inverse(inv_bind) is no kineform (T R S: a
                                         non-uniform scale not along its axes, from a scaled mesh node) */
    pb_mesh mesh;                     /* n = 0 (and no planes) for allow_no_mesh without a mesh */
    size_t meshes;
    size_t *mesh_first;               /* meshes + 1 entries: mesh i is vertices mesh_first[i] .. [i + 1] */
    int max_influences;               /* the most bone weights a vertex of the file has */
    size_t reduced_vertices;          /* vertices with more than 4 influences (reduced to 4) */
    float max_dropped_weight;         /* the largest weight dropped (before renormalising) */
    size_t unweighted_vertices;       /* vertices bound to their mesh's node */
    size_t clips;
    pb_asset_clip *clip;
    /* units and axes: what the file says, and what the import did */
    double unit_scale_found;          /* UnitScaleFactor, or 0 when the file has none */
    int up_axis_found;                /* UpAxis 0/1/2 (x/y/z), -1 when the file has none */
    int up_sign_found;                /* UpAxisSign (+1/-1), 0 when none */
    double scale_applied;             /* what positions were multiplied by (1: none) */
    int axes_converted;               /* 1: rotated to +Y up, +Z front */
    char units_note[160];             /* one line saying the above */
    void *owned;
} pb_asset;

/* The defaults listed above. */
PB_API pb_asset_options pb_asset_default_options(void);
/* PB_ERR_PARAM: fps not finite or < 0, a zero limit, max_joints above PB_MAX_JOINTS,
 * max_vertices above PB_MESH_MAX_VERTICES. NULL is valid (the defaults). */
PB_API pb_status pb_asset_options_check(const pb_asset_options *opt);

/* Import the file at path (opt may be NULL). On success the caller owns *a
 * (pb_asset_free). On failure *a is zeroed (nothing to free) and
 * pb_last_error() names the file and what was wrong:
 *   PB_ERR_NULL         path or a is NULL.
 *   PB_ERR_PARAM        bad options; a vertex weight NaN, Inf or negative, or a
 *                       vertex's weights summing to 0 (mesh and vertex named); a
 *                       position or normal not finite; an inverse bind matrix not
 *                       finite or not invertible (bone named); a key not finite.
 *   PB_ERR_IO           the file cannot be opened, or is not a regular file.
 *   PB_ERR_SIZE         the file is larger than max_bytes; more joints than
 *                       max_joints, vertices than max_vertices, or a clip's keys or
 *                       frames x joints more than max_keys.
 *   PB_ERR_PARSE        a format Assimp does not know; an OFF file (by its extension, or
 *                       its first bytes "off" when the extension names no reader) or an
 *                       SMD file (.smd, .vta), a glTF skin without inverseBindMatrices:
 *                       refused before Assimp reads them, for faults of its readers
 *                       (src/asset/asset_guard.c, docs/asset.md); a file Assimp cannot read
 *                       (truncated, corrupt: Assimp's reason quoted); a file with no
 *                       skeleton (no bone and no animated node), no mesh (unless
 *                       allow_no_mesh), or meshes none of which has bone weights; a bone
 *                       given different inverse bind matrices by two meshes.
 *   PB_ERR_UNSUPPORTED  the library was built without PB_ASSIMP.
 *   PB_ERR_NOMEM        an allocation failed.
 * Assimp itself is not thread-safe in its error reporting: import from one
 * thread at a time. */
PB_API pb_status pb_asset_load(const char *path, const pb_asset_options *opt, pb_asset *a);
/* Same from size bytes at data; hint is the format's extension ("gltf", "x",
 * "fbx"; NULL: Assimp guesses from the content), name is used in messages
 * (NULL: "<memory>"). A file that refers to other files (a .gltf's .bin) cannot
 * be imported from memory. Errors: as pb_asset_load's, minus PB_ERR_IO;
 * PB_ERR_NULL also for data NULL. */
PB_API pb_status pb_asset_load_mem(const void *data, size_t size, const char *hint, const char *name,
                                   const pb_asset_options *opt, pb_asset *a);
/* Free and zero (NULL and zeroed assets are fine). */
PB_API void pb_asset_free(pb_asset *a);

/* A frame scene (posebench/frame.h) of an imported character, for pb_frame_crowd
 * and the blocked frame: its skeleton, the clips named clip_a (source) and
 * clip_b (destination) copied (NULL: clip 0, and clip 1 when there is one, else
 * clip 0 again), its mesh (copied; n = 0 when the asset has none: no skinning)
 * and its inverse bind pose (s->inv_bind: the palette is M(global) M(the file's
 * inverse bind), so the bind pose skins to the mesh as the file gives it), the
 * legs picked by joint name as for BVH scenes. The scene owns its copies
 * (pb_scene_free); a stays the caller's. Errors (s zeroed): PB_ERR_NULL,
 * PB_ERR_PARAM (an empty asset, one with no clip, a clip name it does not have:
 * the message lists the model's clip names), PB_ERR_NOMEM. */
PB_API pb_status pb_scene_asset(pb_scene *s, const pb_asset *a, const char *clip_a, const char *clip_b);

#ifdef __cplusplus
}
#endif
#endif
