/* asset_guard.c — inputs the importer refuses before Assimp reads them
 * (posebench/asset.h, docs/asset.md), each for a fault of an Assimp 5.2
 * reader that the importer cannot bound or catch from outside:
 *   OFF   allocates what a header's counts say before it checks them: 15.8 GB
 *         resident on assimp-testmodels' invalid/OutOfMemory.off. OFF holds one
 *         static mesh and no skeleton, so the import would refuse it anyway.
 *         Assimp picks the reader by the extension .off or, when the extension
 *         names no reader (or there is none), by content: the first three bytes
 *         "off" in any case (" OFF" is no OFF file to it; measured, assimp info).
 *   SMD   (.smd, .vta; Assimp picks it by extension only) loops forever on
 *         some malformed files: a 349-byte one found by fuzz_asset ran over
 *         60 s in `assimp info` at 9 MB.
 *   glTF  a skin without "inverseBindMatrices" (valid glTF 2: the identity is
 *         meant) crashes the reader (a null read; `assimp info` dies of SIGSEGV
 *         on the test's own character with the key removed; found by
 *         fuzz_asset). The JSON (a .gltf, or a .glb's JSON chunk) is scanned
 *         for its skins array before Assimp sees it. */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <assimp/cimport.h>
#include "asset_int.h"

static int is_gltf_ext(const char *ext)
{
    return ext && (strcasecmp(ext, ".gltf") == 0 || strcasecmp(ext, ".glb") == 0);
}

static int looks_gltf(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n && isspace(p[i])) i++;
    return (i < n && p[i] == '{') || (n >= 4 && memcmp(p, "glTF", 4) == 0);
}

int asset_guard_wants_all(const char *ext, const unsigned char *head, size_t n)
{
    return is_gltf_ext(ext) || looks_gltf(head, n);
}

/* The index of the first object of a top-level "skins" array without an "inverseBindMatrices" key,
 * or -1. A structural scan (strings, nesting), no values parsed: Assimp's own JSON parser judges the
 * rest. A truncated text answers -1 (Assimp refuses it). */
static long skin_without_ibm(const unsigned char *p, size_t n)
{
    int depth = 0, skins_depth = -1, want_skins = 0, in_skin = 0, have = 0;
    long skin = -1;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c == '"') {
            size_t s = ++i;
            while (i < n && p[i] != '"') i += p[i] == '\\' ? 2 : 1;
            if (i >= n) return -1;
            size_t len = i - s, k = i + 1;
            while (k < n && isspace(p[k])) k++;
            int key = k < n && p[k] == ':';
            if (key && depth == 1 && len == 5 && memcmp(p + s, "skins", 5) == 0) want_skins = 1;
            else if (key && in_skin && depth == skins_depth + 1 && len == 19 &&
                     memcmp(p + s, "inverseBindMatrices", 19) == 0)
                have = 1;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
            if (want_skins) {
                want_skins = 0;
                if (c == '[') skins_depth = depth;
            } else if (skins_depth >= 0 && depth == skins_depth + 1 && c == '{') {
                in_skin = 1, have = 0, skin++;
            }
        } else if (c == '}' || c == ']') {
            if (in_skin && depth == skins_depth + 1 && c == '}') {
                in_skin = 0;
                if (!have) return skin;
            }
            if (depth == skins_depth && c == ']') skins_depth = -1;
            depth--;
        } else if (want_skins && c != ':' && !isspace(c)) {
            want_skins = 0;
        }
    }
    return -1;
}

pb_status asset_guard(const char *name, const char *ext, const unsigned char *data, size_t n)
{
    if (ext && (strcasecmp(ext, ".smd") == 0 || strcasecmp(ext, ".vta") == 0))
        return pb_fail(PB_ERR_PARSE, "%s: an SMD file (its extension %s): refused before Assimp reads it "
                       "(Assimp's SMD reader can loop forever on a malformed file)", name, ext);
    int by_ext = ext && strcasecmp(ext, ".off") == 0;
    int known = ext && ext[0] && aiIsExtensionSupported(ext);
    int by_sig = !known && n >= 3 && tolower(data[0]) == 'o' && tolower(data[1]) == 'f' && tolower(data[2]) == 'f';
    if (by_ext || by_sig)
        return pb_fail(PB_ERR_PARSE, "%s: an OFF file (%s): a format without a skeleton, refused before Assimp "
                       "reads it (Assimp's OFF reader does not bound its memory)", name,
                       by_ext ? "its extension" : "it begins with 'OFF'");
    if (!asset_guard_wants_all(ext, data, n)) return PB_OK;
    const unsigned char *json = data;
    size_t len = n;
    if (n >= 20 && memcmp(data, "glTF", 4) == 0) {   /* .glb: 12-byte header, then the JSON chunk */
        uint32_t clen = (uint32_t)data[12] | (uint32_t)data[13] << 8 | (uint32_t)data[14] << 16 |
                        (uint32_t)data[15] << 24;
        json = data + 20;
        len = clen < n - 20 ? clen : n - 20;
    }
    long skin = skin_without_ibm(json, len);
    if (skin >= 0)
        return pb_fail(PB_ERR_PARSE, "%s: glTF skin %ld has no inverseBindMatrices: refused before Assimp reads "
                       "it (Assimp 5.2's glTF reader crashes on such a skin)", name, skin);
    return PB_OK;
}
