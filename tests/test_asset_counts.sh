#!/usr/bin/env bash
# test_asset_counts.sh — what the importer reads from the packaged characters agrees with counts
# taken by routes that do not go through it (issue 60):
#   - the file's own text: for DirectX .X files, counted with awk outside the templates (Mesh blocks
#     and their vertex counts, SkinWeights blocks and the most weights above 0 a vertex gets from
#     them, AnimationSet and Animation blocks, and the keys of every AnimationKey, a matrix key
#     being Assimp's position, rotation and scaling key); for glTF 2
#     (.gltf), the JSON and its buffers read with python3 (skins' joints, POSITION accessor counts, the
#     most weights above 0 of a vertex, animations, the nodes their channels target, sampler input counts);
#   - `assimp info` (package assimp-utils, Assimp's own tool, with its own post-processing), for
#     every format, FBX's binary among them: animations and channels equal; its bone count is ours
#     when no vertex has more than 4 influences, at most ours otherwise (it limits weights to 4 and
#     drops a bone left with none: animation_with_skeleton.fbx's Bone.001, 147 weights); its vertex
#     count at least ours (it adds tangents, so fewer vertices join).
# keys, as the importer counts them, are Assimp's: a glTF channel that animates only some of a
# node's translation, rotation and scale gets one key for each path it leaves out.
# usage: test_asset_counts.sh TEST_ASSET_BINARY [MODELS_DIR]   (test_asset counts FILE prints one line)
set -uo pipefail
bin=$1; dir=${2:-/usr/share/assimp/models}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# x_counts FILE: "meshes N mesh_bones N vertices N influences N clips N channels N keys N" from the file's text
x_counts() {
  awk '
    /^[ \t]*template[ \t]/ { tmpl = 1 }
    tmpl { if (/}/) tmpl = 0; next }
    /^[ \t]*SkinWeights[ \t{]/ { sw++; skin = 1; cnt = -1; got = 0; next }
    skin {   # a count n, n vertex indices, n weights (then the offset matrix): one influence per weight > 0
      n = split($0, f, /[;, \t]+/)
      for (i = 1; i <= n; i++) if (f[i] ~ /^-?[0-9.eE+-]+$/ && f[i] !~ /^[eE+-]/) {
        if (cnt < 0) { cnt = f[i] + 0; continue }
        got++
        if (got <= cnt) idx[got] = f[i]
        else if (got <= 2 * cnt) { if (f[i] + 0 > 0 && ++inf[me "," idx[got - cnt]] > maxinf) maxinf = inf[me "," idx[got - cnt]] }
        else { skin = 0; break }
      }
    }
    /^[ \t]*Mesh[ \t{]/ { me++; mesh = 1; next }
    mesh && match($0, /[0-9]+/) { vert += substr($0, RSTART, RLENGTH); mesh = 0 }
    /^[ \t]*AnimationSet[ \t{]/ { as++ }
    /^[ \t]*Animation[ \t{]/ { an++ }
    /^[ \t]*AnimationKey[ \t{]/ { ak = 1; nums = 0; next }
    ak {
      n = split($0, f, /[;, \t]+/)
      for (i = 1; i <= n; i++) if (f[i] ~ /^[0-9]+$/) {
        nums++
        if (nums == 1) type = f[i]
        if (nums == 2) { keys += (type == 4 ? 3 : 1) * f[i]; ak = 0; break }
      }
    }
    END { printf "meshes %d mesh_bones %d vertices %d influences %d clips %d channels %d keys %d\n", me, sw, vert,
                 maxinf, as, an, keys }
  ' "$1"
}

# gltf_counts FILE: "mesh_bones N vertices N influences N clips N channels N keys N" from the JSON
gltf_counts() {
  python3 - "$1" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))
acc = g.get("accessors", [])
bones = sum(len(s.get("joints", [])) for s in g.get("skins", []))
verts = sum(acc[p["attributes"]["POSITION"]]["count"] for m in g.get("meshes", []) for p in m["primitives"])
def data(a):   # an accessor's values, as lists of its components (float, or normalised unsigned)
    import base64, os, struct
    v = g["bufferViews"][a["bufferView"]]; b = g["buffers"][v["buffer"]]; uri = b["uri"]
    raw = base64.b64decode(uri.split(",", 1)[1]) if uri.startswith("data:") else \
        open(os.path.join(os.path.dirname(sys.argv[1]), uri), "rb").read()
    fmt, scale = {5126: ("f", 1.0), 5121: ("B", 255.0), 5123: ("H", 65535.0)}[a["componentType"]]
    n = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[a["type"]]
    size = struct.calcsize(fmt); stride = v.get("byteStride", size * n)
    off = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    return [[struct.unpack_from("<" + fmt, raw, off + i * stride + c * size)[0] / scale for c in range(n)]
            for i in range(a["count"])]
infl = 0
for m in g.get("meshes", []):
    for p in m["primitives"]:
        sets = [data(acc[p["attributes"][k]]) for k in sorted(p["attributes"]) if k.startswith("WEIGHTS_")]
        for i in range(acc[p["attributes"]["POSITION"]]["count"]):
            infl = max(infl, sum(1 for w in sets for x in w[i] if x > 0))
channels = keys = 0
for a in g.get("animations", []):
    paths = {}
    for c in a["channels"]:
        paths.setdefault(c["target"]["node"], {})[c["target"]["path"]] = acc[a["samplers"][c["sampler"]]["input"]]["count"]
    channels += len(paths)
    for p in paths.values():
        keys += sum(p.get(k, 1) for k in ("translation", "rotation", "scale"))
print("mesh_bones %d vertices %d influences %d clips %d channels %d keys %d" %
      (bones, verts, infl, len(g.get("animations", [])), channels, keys))
EOF
}

# field LINE NAME: the number after NAME in "name value name value ..."
field() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$1"; }

have_info=0
command -v assimp >/dev/null && assimp version >/dev/null 2>&1 && have_info=1
[ $have_info = 1 ] || echo "note: assimp (assimp-utils) not installed: the assimp info route is left out"

checked=0
for m in X/BCN_Epileptic.X X/Testwuson.X FBX/animation_with_skeleton.fbx FBX/huesitos.fbx \
         glTF2/simple_skin/simple_skin.gltf; do
  f=$dir/$m
  [ -f "$f" ] || { echo "note: $f not there (assimp-testmodels)"; continue; }
  ours=$("$bin" counts "$f") || { bad "$m: test_asset counts failed"; continue; }
  echo "$m: importer: $ours"
  checked=$((checked + 1))
  own=""
  case "$m" in *.X) own=$(x_counts "$f") ;; *.gltf) own=$(gltf_counts "$f") ;; esac
  if [ -n "$own" ]; then
    echo "$m: the file's text: $own"
    for k in $own; do
      [[ $k =~ ^[a-z_]+$ ]] || continue
      [ "$(field "$ours" "$k")" = "$(field "$own" "$k")" ] && ok ||
        bad "$m: $k: importer $(field "$ours" "$k"), the file's text $(field "$own" "$k")"
    done
  fi
  if [ $have_info = 1 ]; then
    info=$(timeout 120 assimp info "$f" 2>/dev/null)
    iv() { awk -v k="$1" -F: '$1 == k { gsub(/ /, "", $2); print $2; exit }' <<<"$info"; }
    echo "$m: assimp info: $(iv Animations) animations, $(iv 'Animation Channels') channels, $(iv Bones) bones, $(iv Vertices) vertices"
    [ "$(iv Animations)" = "$(field "$ours" clips)" ] && ok || bad "$m: clips $(field "$ours" clips), assimp info $(iv Animations)"
    [ "$(iv 'Animation Channels')" = "$(field "$ours" channels)" ] && ok ||
      bad "$m: channels $(field "$ours" channels), assimp info $(iv 'Animation Channels')"
    ib=$(iv Bones); ob=$(field "$ours" mesh_bones)
    if [ "$(field "$ours" influences)" -le 4 ]; then
      [ "$ib" = "$ob" ] && ok || bad "$m: bones $ob, assimp info $ib (no vertex over 4 influences)"
    else
      [ -n "$ib" ] && [ "$ib" -le "$ob" ] && ok || bad "$m: bones $ob, assimp info $ib (more than ours)"
    fi
    [ -n "$(iv Vertices)" ] && [ "$(iv Vertices)" -ge "$(field "$ours" vertices)" ] && ok ||
      bad "$m: vertices $(field "$ours" vertices), assimp info $(iv Vertices) (fewer than ours)"
  fi
done
[ $checked -ge 3 ] && ok || bad "only $checked packaged characters found (at least 3: assimp-testmodels)"
echo "asset_counts: $pass passed, $fail failed"
[ $fail = 0 ]
