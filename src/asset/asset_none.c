/* asset_none.c — posebench/asset.h in a library configured without PB_ASSIMP
 * (no Assimp found, or -DPB_ASSIMP=OFF): the types and options remain, an
 * import says why it cannot run. */
#include <string.h>
#include "internal.h"
#include "posebench/asset.h"

pb_asset_options pb_asset_default_options(void)
{
    pb_asset_options o = { 0 };
    o.max_bytes = PB_ASSET_DEFAULT_MAX_BYTES;
    o.max_joints = PB_ASSET_DEFAULT_MAX_JOINTS;
    o.max_vertices = PB_MESH_MAX_VERTICES;
    o.max_keys = PB_ASSET_DEFAULT_MAX_KEYS;
    return o;
}

pb_status pb_asset_options_check(const pb_asset_options *o)
{
    (void)o;
    return PB_OK;
}

pb_status pb_asset_load(const char *path, const pb_asset_options *opt, pb_asset *a)
{
    (void)opt;
    if (a) memset(a, 0, sizeof *a);
    return pb_fail(PB_ERR_UNSUPPORTED, "%s: this posebench was built without Assimp (PB_ASSIMP=OFF): no model import",
                   path ? path : "(null)");
}

pb_status pb_asset_load_mem(const void *data, size_t size, const char *hint, const char *name,
                            const pb_asset_options *opt, pb_asset *a)
{
    (void)data, (void)size, (void)hint, (void)opt;
    if (a) memset(a, 0, sizeof *a);
    return pb_fail(PB_ERR_UNSUPPORTED, "%s: this posebench was built without Assimp (PB_ASSIMP=OFF): no model import",
                   name ? name : "<memory>");
}

void pb_asset_free(pb_asset *a)
{
    if (a) memset(a, 0, sizeof *a);
}
