/* asset_int.h — what the importer's three files share (src/asset/: asset.c the
 * scene and skeleton, asset_mesh.c the mesh and inverse binds, asset_clip.c
 * the clips): double-precision 4x4 algebra, the unit/axis conversion, and the
 * build state. Never installed; only src/asset/ includes Assimp's headers. */
#ifndef POSEBENCH_ASSET_INT_H
#define POSEBENCH_ASSET_INT_H

#include <assimp/scene.h>
#include "internal.h"
#include "posebench/asset.h"

/* A row-major 4x4 (column vectors: p' = M p, translation in column 3). */
typedef struct amat { double m[4][4]; } amat;

void am_identity(amat *a);
void am_from_ai(amat *out, const struct aiMatrix4x4 *in);
void am_mul(amat *out, const amat *a, const amat *b);   /* out = a b; out may alias neither */
int am_finite(const amat *a);
/* The inverse of an affine a (last row 0 0 0 1): 0 when its 3x3 part is singular
 * (|det| below 1e-9 of the cube of its largest column), else 1. */
int am_inverse(amat *out, const amat *a);
/* T R S of an affine a (scale: column norms, x's negated for a negative
 * determinant; rotation: the columns divided by them, to a unit quaternion
 * w x y z). 0 when a column is zero, else 1. */
int am_to_kform(const amat *a, double pos[3], double rot[4], double scl[3]);
/* The unit quaternion w x y z of a rotation matrix's 3x3 part. */
void am_rot_to_quat(const amat *r, double q[4]);

/* The conversion C = scale x P (P a rotation that permutes axes with signs):
 * new axis i = sign[i] x old axis perm[i]. */
typedef struct aconv {
    int on;                  /* 0: the identity (no conversion) */
    double scale;
    int perm[3], sign[3];
    double pq[4];            /* P as a quaternion */
    amat c, c_inv;
} aconv;
void aconv_matrix(const aconv *k, const amat *in, amat *out);         /* C in C^-1 */
void aconv_point(const aconv *k, const double in[3], double out[3]);  /* scale x P in */
void aconv_dir(const aconv *k, const double in[3], double out[3]);    /* P in */
void aconv_quat(const aconv *k, const double in[4], double out[4]);   /* p q p^-1 */
void aconv_scale(const aconv *k, const double in[3], double out[3]);  /* diag of P S P^T */

typedef struct abuild {
    const char *name;                  /* the file, for messages */
    const struct aiScene *sc;
    pb_asset_options opt;
    aconv conv;
    size_t nodes;                      /* the scene's nodes, depth-first */
    const struct aiNode **node;
    int32_t *node_parent;
    int32_t *node_joint;               /* node -> joint, or -1 */
    pb_asset *a;                       /* being built (zeroed, freed on failure) */
} abuild;

/* The joint whose node is named s (the first in depth-first order), or -1. */
int32_t asset_joint_named(const abuild *b, const struct aiString *s);
/* The joint of node n, or -1. */
int32_t asset_joint_of_node(const abuild *b, const struct aiNode *n);
/* Meshes, influences, inverse binds: a->mesh, mesh_first, inv_bind, inv_bind_pose, the counts. */
pb_status asset_build_mesh(abuild *b);
/* Clips: a->clip, a->clips. */
pb_status asset_build_clips(abuild *b);
/* asset_guard.c: inputs refused before Assimp reads them, for faults of its readers the importer
 * cannot bound from outside. name: for messages; ext: ".ext" of the file or the hint, or NULL;
 * data: the file's first n bytes (all of it for glTF: asset_guard_wants_all). */
pb_status asset_guard(const char *name, const char *ext, const unsigned char *data, size_t n);
/* Nonzero when asset_guard needs the whole file, not only its first bytes (head: the first n). */
int asset_guard_wants_all(const char *ext, const unsigned char *head, size_t n);
/* A kineform into element e of a static pose. */
pb_status asset_put_kform(abuild *b, pb_pose *p, size_t e, const amat *m, const char *what, const char *who);

#endif
