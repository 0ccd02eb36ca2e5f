/* bvh.h — load BVH motion capture (HIERARCHY + MOTION) into a skeleton and a
 * clip stored in the library's SoA pose layout.
 *
 * Skeleton (pb_bvh_skeleton: names and offsets as in the file): one entry
 * per ROOT / JOINT, in file order, so a parent always precedes its children
 * (parent = -1 for a root). "End Site" blocks are not joints: their offsets
 * are kept in the separate end_* arrays. For fk, build the library's
 * pb_skeleton from it: pb_skeleton_init(&s, bvh.parents, bvh.joints, 1).
 *
 * Clip (pb_clip, clip.h): frames x joints local transforms in one pb_pose
 * with n = frames * joints and index = frame * joints + joint (frame-major);
 * frame_time as in the file ("Frame Time:"), fps = 1 / frame_time, and
 * warnings = the number of warnings emitted while loading. Only the pos and
 * rot planes are filled; the other planes stay identity.
 *   - pos: the joint's position channels when it has them (BVH convention:
 *     they replace the OFFSET), else its OFFSET; a component without a
 *     channel keeps the OFFSET's. Both are multiplied by unit_scale.
 *   - rot: the joint's Euler angles (degrees) as a unit quaternion (w,x,y,z),
 *     composed in the order the rotation channels are listed:
 *     "Zrotation Xrotation Yrotation" means R = Rz * Rx * Ry acting on column
 *     vectors (q = qz * qx * qy). Computed in double, stored normalized.
 *
 * Keywords and channel names match ignoring ASCII case ("End site",
 * "XRotation"); joint names are case-sensitive. Line breaks may be LF, CRLF
 * or CR; a leading UTF-8 byte order mark is skipped.
 *
 * Numbers are parsed with strtod: the LC_NUMERIC locale must use '.' as the
 * decimal point (the "C" locale, the default unless the program changed it).
 * Hex floats, "inf", "nan" and values that overflow float are rejected. */
#ifndef POSEBENCH_BVH_H
#define POSEBENCH_BVH_H

#include "export.h"
#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "pose.h"
#include "clip.h"   /* pb_clip, pb_clip_free */

#ifdef __cplusplus
extern "C" {
#endif

#define PB_BVH_NAME_MAX 64  /* bytes per joint name, NUL included (names may have 63 chars) */

/* What a clip may be, so that memory is bounded for any file accepted and its
 * numbers stay finite through forward kinematics and velocities:
 *   - at most PB_BVH_DEFAULT_MAX_BYTES bytes (128 MiB: the text is read whole)
 *     and PB_BVH_DEFAULT_MAX_KEYS keys, frames x joints (2097152: a clip is 76 B
 *     a key; 40 min of a 31-joint CMU skeleton at 30 fps), unless raised in
 *     pb_bvh_options;
 *   - a frame time of PB_BVH_MIN_FRAME_TIME .. PB_BVH_MAX_FRAME_TIME s
 *     (10 kHz .. one frame a minute);
 *   - OFFSETs and position channels (after unit_scale) at most
 *     PB_BVH_MAX_POSITION in magnitude: 1024 joints' chain of them is 1e9,
 *     far inside float range, and so are its squares;
 *   - rotation channels at most PB_BVH_MAX_ANGLE degrees in magnitude. */
#define PB_BVH_DEFAULT_MAX_BYTES ((size_t)128 << 20)
#define PB_BVH_DEFAULT_MAX_KEYS ((size_t)2097152)
#define PB_BVH_MIN_FRAME_TIME 1e-4
#define PB_BVH_MAX_FRAME_TIME 60.0
#define PB_BVH_MAX_POSITION 1e6
#define PB_BVH_MAX_ANGLE 1e6

typedef struct pb_bvh_skeleton {
    size_t joints;
    char (*names)[PB_BVH_NAME_MAX];  /* joints names, NUL-terminated, unique */
    int32_t *parents;                /* joints entries; parents[j] < j, or -1 for a root */
    float (*offsets)[3];             /* joints OFFSETs (x, y, z), times unit_scale */
    size_t end_sites;                /* End Site blocks: not joints, kept for drawing/FK */
    int32_t *end_parents;            /* end_sites entries: the joint each End Site hangs from */
    float (*end_offsets)[3];         /* end_sites OFFSETs, times unit_scale */
} pb_bvh_skeleton;

/* Receives one warning message ("name.bvh:128: ...", no trailing newline). */
typedef void (*pb_bvh_warn_fn)(void *user, const char *msg);

typedef struct pb_bvh_options {
    float unit_scale;     /* multiplies OFFSETs and position channels (0.01: cm -> m); default 1 */
    int strict;           /* nonzero: every warning condition is a PB_ERR_PARSE error instead */
    size_t max_joints;    /* ROOT + JOINT count limit; default 1024 */
    size_t max_frames;    /* motion rows, and the header's "Frames:" value; default 10,000,000 */
    size_t max_elements;  /* frames * joints (keys); default PB_BVH_DEFAULT_MAX_KEYS (2,097,152) */
    size_t max_depth;     /* nesting depth of ROOT/JOINT/End Site blocks; default 64, at most 1024 */
    pb_bvh_warn_fn warn;  /* NULL: warnings are printed to stderr */
    void *user;           /* passed to warn */
    size_t max_bytes;     /* file size (pb_bvh_load) or size (pb_bvh_load_mem); default PB_BVH_DEFAULT_MAX_BYTES */
} pb_bvh_options;

/* The defaults listed above (no callback, not strict). */
PB_API pb_bvh_options pb_bvh_default_options(void);

/* Check an options struct. Errors (PB_ERR_PARAM): unit_scale not finite or
 * <= 0; max_joints, max_frames, max_elements, max_depth or max_bytes zero; max_joints
 * above INT32_MAX; max_depth above 1024. NULL is valid (means the defaults). */
PB_API pb_status pb_bvh_options_check(const pb_bvh_options *opt);

/* Load a .bvh file (opt may be NULL for the defaults). On success the caller
 * owns *skel and *clip and frees them with pb_bvh_skeleton_free / pb_clip_free.
 * On any failure *skel and *clip are left zeroed (nothing to free, nothing
 * leaked) and pb_last_error() says what happened.
 *
 * Errors:
 *   PB_ERR_NULL   path, skel or clip is NULL.
 *   PB_ERR_PARAM  invalid options (see pb_bvh_options_check).
 *   PB_ERR_IO     the file cannot be opened or read (message has the path and
 *                 the system's reason), or it is not a regular file (a FIFO,
 *                 device, directory: refused before reading, never waited on).
 *   PB_ERR_SIZE   the file (or size) is larger than max_bytes.
 *   PB_ERR_NOMEM  an allocation failed.
 *   PB_ERR_PARSE  malformed content. The message reads "name:LINE: what was
 *                 found, what was expected", for:
 *     - an empty file, or one that ends early (unexpected end of file);
 *     - a control byte (NUL etc.) anywhere in the text;
 *     - a keyword other than the one the grammar expects (HIERARCHY, ROOT,
 *       JOINT, End Site, OFFSET, CHANNELS, MOTION, Frames:, Frame Time:),
 *       a missing '{' or '}', or text after a '}' where a keyword belongs;
 *     - an OFFSET or position channel beyond PB_BVH_MAX_POSITION after
 *       unit_scale, a rotation channel beyond PB_BVH_MAX_ANGLE degrees;
 *     - a token that is not a number where one is expected ("expected a
 *       number"), including hex floats, inf, nan, and values whose magnitude
 *       overflows float (also after unit_scale);
 *     - a CHANNELS count other than 3 or 6, an unknown channel name, or a
 *       channel listed twice in one joint;
 *     - a missing or empty joint name, a name longer than 63 bytes, or the
 *       same name used for two joints;
 *     - more than max_joints joints (or End Sites), blocks nested deeper
 *       than max_depth;
 *     - a "Frames:" value that is not a non-negative integer or exceeds
 *       max_frames; a frame time that is not a number or is outside
 *       PB_BVH_MIN_FRAME_TIME .. PB_BVH_MAX_FRAME_TIME, or anything after
 *       the frame time on its line (rows are lines);
 *     - a motion row (one line) with fewer or more values than the
 *       hierarchy's channels, except a short LAST row (see warnings);
 *     - no complete motion row at all; more than max_frames rows, or
 *       frames * joints above max_elements;
 *     - in strict mode, any warning condition below.
 *
 * Warnings (delivered through opt->warn, counted in clip->warnings; loading
 * continues with the rows actually present):
 *   - the "Frames:" header count differs from the number of complete rows
 *     (message names the file, the header's line and both counts);
 *   - the last row is short (a file cut off mid-row): it is dropped (its
 *     values must still be numbers: a trailing word is an error). */
PB_API pb_status pb_bvh_load(const char *path, const pb_bvh_options *opt, pb_bvh_skeleton *skel, pb_clip *clip);

/* Same, from size bytes at data (need not be NUL-terminated; may contain
 * anything). name is used in messages in place of a file name (NULL: "<memory>").
 * Errors: as pb_bvh_load, minus PB_ERR_IO; PB_ERR_NULL also when data is NULL
 * and size > 0. */
PB_API pb_status pb_bvh_load_mem(const void *data, size_t size, const char *name, const pb_bvh_options *opt,
                          pb_bvh_skeleton *skel, pb_clip *clip);

/* Free and zero. NULL and already-freed/zeroed structs are fine. (The clip
 * is freed with pb_clip_free from clip.h.) */
PB_API void pb_bvh_skeleton_free(pb_bvh_skeleton *skel);

#ifdef __cplusplus
}
#endif
#endif
