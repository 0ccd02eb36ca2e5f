/* skin.h — skinning a mesh by a palette (ops.h: palette, palette_dq):
 * linear blend skinning (skin_lbs: the 3x4 matrix palette) and
 * dual-quaternion skinning (skin_dqs: the dual-quaternion palette), SIMD
 * across vertices.
 *
 * Skinning is not a per-joint pose op: it reads a mesh (per vertex a rest
 * position, a rest normal, up to 4 influences: joint index + weight) and a
 * palette, and writes skinned positions and normals. Like the ops it is
 * validated once and run many times: pb_skin_job_create checks the mesh
 * (every vertex), the palette and the output, then pb_skin_job_run only
 * calls the kernel of the chosen variant. pb_skin_lbs / pb_skin_dqs do both
 * in one call.
 *
 * Palette entries: influence joint j of a vertex reads palette entry
 * j x characters + character (the crowd layout of the palette ops; a single
 * character's palette: characters = 1, character = 0).
 *
 * Weights are rejected, not normalized, when their sum is off 1 by more than
 * PB_SKIN_WEIGHT_TOL: a mesh is set-up data, and a silently rescaled mesh
 * would hide an exporter's bug; the mesh is skinned with its weights as
 * given (an LBS vertex moves by sum(w) - 1 of the palette's translation:
 * 1e-4 of 3 m is 0.3 mm at worst). */
#ifndef POSEBENCH_SKIN_H
#define POSEBENCH_SKIN_H

#include <stdint.h>
#include "export.h"
#include "status.h"
#include "ops.h"
#include "pose.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_SKIN_MAX_INFLUENCES 4
#define PB_MESH_MAX_VERTICES ((size_t)1 << 24)   /* 16 777 216: larger meshes are refused (PB_ERR_SIZE) */
#define PB_SKIN_WEIGHT_TOL 1e-4f                 /* |sum of a vertex's weights - 1| allowed */

/* A mesh in SoA: n vertices, each plane n values (no padding or alignment
 * required). Influence k < influences of vertex v: joint idx[k][v] with
 * weight w[k][v] (>= 0); planes k >= influences are not read (may be NULL).
 * DQS takes influence 0 as the hemisphere reference of the antipodality
 * flip, so put the heaviest influence first (pb_mesh_synthetic does). */
typedef struct pb_mesh {
    size_t n;                                  /* vertices */
    int influences;                            /* 1 .. PB_SKIN_MAX_INFLUENCES */
    float *pos[3];                             /* rest positions x, y, z (bind space) */
    float *nrm[3];                             /* rest normals (unit; a zero normal stays zero) */
    uint32_t *idx[PB_SKIN_MAX_INFLUENCES];     /* influence joints (< the palette's joints) */
    float *w[PB_SKIN_MAX_INFLUENCES];          /* influence weights */
    void *owned;                               /* allocation of pb_mesh_alloc (NULL when wrapped) */
} pb_mesh;

/* Skinned vertices: n positions and normals, SoA. */
typedef struct pb_skinned {
    size_t n;
    float *pos[3];
    float *nrm[3];
    void *owned;                               /* allocation of pb_skinned_alloc */
} pb_skinned;

/* Allocate a mesh of n vertices and `influences` influences (planes zeroed;
 * idx 0, w[0] = 1). Errors: PB_ERR_NULL, PB_ERR_EMPTY (n = 0), PB_ERR_SIZE
 * (n > PB_MESH_MAX_VERTICES), PB_ERR_PARAM (influences not 1..4),
 * PB_ERR_NOMEM. On error *m is zeroed. */
PB_API pb_status pb_mesh_alloc(pb_mesh *m, size_t n, int influences);
PB_API void pb_mesh_free(pb_mesh *m);
/* Allocate n skinned vertices (zeroed). Errors as pb_mesh_alloc's. */
PB_API pb_status pb_skinned_alloc(pb_skinned *s, size_t n);
PB_API void pb_skinned_free(pb_skinned *s);

/* A deterministic synthetic mesh of m->n vertices (any n from 1 up to the
 * limit; m from pb_mesh_alloc with 4 influences) around the bones of skel in
 * the global rest pose `rest_global` (character 0 of the crowd layout): a
 * tube of vertices around every bone (parent joint -> joint, radius 0.05 +
 * 0.15 x its length; a skeleton without bones gets one bone 0.2 up y from
 * joint 0), the bones sharing the vertices equally, each bone's spiralled
 * around it by the golden angle, normals pointing out. A vertex on the bone
 * p -> j is driven by p; in the bone's last quarter it blends (up to 1/2 at
 * j) into j and j's first two children, in its first quarter into p's
 * parent: 1 influence mid-bone, 2-4 near joints, heaviest first, unused
 * slots (joint p, weight 0) padding to 4, w[0] = 1 - the others. Indices are
 * joints (0 .. skel->joints). The same n, skeleton and rest give the same
 * mesh. Errors: PB_ERR_NULL, PB_ERR_PARAM (m not from pb_mesh_alloc with 4
 * influences, skel not made by pb_skeleton_init, a non-finite rest
 * position), pb_pose_check's, PB_ERR_SIZE (rest_global->n != skel->n),
 * PB_ERR_NOMEM. */
PB_API pb_status pb_mesh_synthetic(pb_mesh *m, const pb_skeleton *skel, const pb_pose *rest_global);

/* Check a mesh against a palette of `joints` joints: PB_ERR_NULL (m, a plane
 * it reads), PB_ERR_EMPTY (n = 0), PB_ERR_SIZE (n > PB_MESH_MAX_VERTICES),
 * PB_ERR_PARAM (influences not 1..4; then, first bad vertex first, the
 * message naming the plane and vertex index: a position or normal NaN/Inf;
 * an index >= joints; a weight NaN/Inf or negative; weights summing to 1
 * +- more than PB_SKIN_WEIGHT_TOL). Reads every vertex once. */
PB_API pb_status pb_mesh_check(const pb_mesh *m, size_t joints);

typedef enum pb_skin_method { PB_SKIN_LBS = 0, PB_SKIN_DQS = 1 } pb_skin_method;

/* A skinning call. LBS reads a palette of 3x4 matrices (PB_PALETTE_MAT_FLOATS
 * floats per entry): position M p with M = sum w_k M_k, normal M3x3 n
 * renormalized (the usual engine approximation of the inverse transpose:
 * exact for rotations and uniform scales). DQS reads unit dual quaternions
 * (PB_PALETTE_DQ_FLOATS): each influence's dual quaternion flipped into the
 * hemisphere of influence 0's (real parts' dot >= 0), blended by the weights,
 * normalized by the blend's real norm; the position is moved by that rigid
 * transform, the normal rotated. */
typedef struct pb_skin_call {
    const pb_mesh *mesh;
    const pb_palette *palette;   /* n = joints x characters entries */
    size_t characters;           /* 0 counts as 1 */
    size_t character;            /* < characters */
    pb_skinned *out;             /* n = mesh->n */
    unsigned flags;              /* PB_SKIN_* below; 0: positions and normals */
} pb_skin_call;

/* Flags of a skinning call (pb_skin_call.flags, or'ed).
 * PB_SKIN_POSITIONS_ONLY: skin positions only, for engines that skin
 * normals (tangent frames) elsewhere, e.g. in a shader. The mesh's normal
 * planes are not read and the output's not written: either may be NULL,
 * and neither is checked (not for NaNs, not for overlaps). The positions
 * are those of the full call bit for bit; the kernel saves the normals'
 * arithmetic and 24 of the 80 bytes a vertex moves. Without the flag a
 * NULL normal plane is an error (PB_ERR_NULL), never a silent switch. */
#define PB_SKIN_POSITIONS_ONLY 1u
#define PB_SKIN_FLAGS_KNOWN PB_SKIN_POSITIONS_ONLY

/* A validated skinning call (validate once, run many: the mesh, palette and
 * output buffers must outlive it; their contents may change between runs,
 * but a changed mesh must be checked again by a new job).
 * pb_skin_job_create errors: PB_ERR_NULL (job, call, mesh, palette,
 * palette->data, out, an out plane: with PB_SKIN_POSITIONS_ONLY the
 * position planes only), PB_ERR_PARAM (method unknown; a flag outside
 * PB_SKIN_FLAGS_KNOWN; character >= characters), PB_ERR_SIZE (palette->n not a multiple of
 * characters, or too large to index with 32-bit offsets: n x width >=
 * 2^31; out->n != mesh->n), PB_ERR_UNSUPPORTED (variant not runnable here),
 * PB_ERR_ALIAS (an out plane overlaps a mesh plane or the palette),
 * pb_mesh_check's (with joints = palette->n / characters), PB_ERR_NOMEM.
 * On error *job is NULL and nothing is written. Palette contents are not
 * scanned (they change every frame): a NaN entry gives NaN vertices.
 * A job also finds the mesh's runs of vertices with the same joints (kept
 * when they average at least 4 steps of the variant's lanes, 64 vertices on
 * AVX-512; at most n / 4 entries): where a step of vertices lies in one run
 * or two, the kernels read each influence's entry once per run, not once
 * per vertex. Sorting a mesh's vertices
 * by their joints (as pb_mesh_synthetic's lie along the bones) makes it
 * faster; the output is the same bit for bit either way. */
typedef struct pb_skin_job pb_skin_job;
PB_API pb_status pb_skin_job_create(pb_skin_job **job, pb_skin_method method, const pb_variant *v,
                                    const pb_skin_call *call);
PB_API pb_status pb_skin_job_run(const pb_skin_job *job);   /* PB_ERR_NULL, else PB_OK */
PB_API void pb_skin_job_free(pb_skin_job *job);

/* One-shot calls with the active variant, a single character's palette
 * (characters = 1), positions and normals: pb_skin_job_create's checks,
 * then the kernel (without the runs: a one-shot call allocates nothing).
 * Positions only: a job with PB_SKIN_POSITIONS_ONLY. */
PB_API pb_status pb_skin_lbs(const pb_mesh *mesh, const pb_palette *palette, pb_skinned *out);
PB_API pb_status pb_skin_dqs(const pb_mesh *mesh, const pb_palette *palette, pb_skinned *out);

#ifdef __cplusplus
}
#endif
#endif
