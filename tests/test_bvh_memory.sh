#!/usr/bin/env bash
# test_bvh_memory.sh — `validate --bvh` on a large clip stays within a bounded
# memory (issue 14, defect 3: a 50 MB, 56k-frame, 31-joint BVH peaked at 3.75 GB).
# Generates such a file with awk: the hierarchy of a packaged CMU clip (or, when
# assimp-testmodels is not installed, the same 31-joint CMU skeleton written
# here), 56000 frames of smooth motion in its 96 channels; runs
#   posebench validate --quick --bvh FILE --op OP --variant scalar
# under /usr/bin/time -v for a clip op (unroll: it takes the whole clip), a
# sampling op and an elementwise op, and requires each to pass with a maximum
# resident set below LIMIT_MB (512). Also checks that a file beyond the
# validation's key bound is refused with a message naming the file and count,
# and that --json then holds an error record; frame: the largest accepted
# file within FRAME_LIMIT_MB (1024), the next refused with the same limit, and
# a file over the 128 MiB byte cap refused by frame and validate.
# Usage: test_bvh_memory.sh "<emulator or empty>" path/to/posebench
set -uo pipefail
emu=$1
bin=$2
LIMIT_MB=${LIMIT_MB:-512}
FRAMES=${FRAMES:-56000}
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
  echo "SKIP: $TIME not installed (Debian package 'time'; tools/deps.sh installs it)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The 31-joint CMU hierarchy (everything before MOTION).
cmu=/usr/share/assimp/models/BVH/01_01.bvh
if [ -r "$cmu" ]; then
  awk '/^MOTION/ { exit } { print }' "$cmu" > "$tmp/hier.txt"
else
  # The same skeleton, written out: joint name, parent index, offset (cm / 0.45 in).
  awk 'BEGIN {
    n = split("Hips:-1:0 0 0,LHipJoint:0:0 0 0,LeftUpLeg:1:1.36 -1.79 0.84,LeftLeg:2:2.45 -6.73 0,LeftFoot:3:2.56 -7.04 0," \
      "LeftToeBase:4:0.16 -0.43 2.32,RHipJoint:0:0 0 0,RightUpLeg:6:-1.31 -1.79 0.84,RightLeg:7:-2.54 -6.99 0," \
      "RightFoot:8:-2.57 -7.06 0,RightToeBase:9:-0.16 -0.45 2.36,LowerBack:0:0 0 0,Spine:11:0.03 2.04 -0.19," \
      "Spine1:12:0.06 2.05 -0.04,Neck:13:0 0 0,Neck1:14:-0.01 1.48 0.09,Head:15:0.02 1.48 -0.03,LeftShoulder:13:0 0 0," \
      "LeftArm:17:3.36 1.2 0,LeftForeArm:18:5.03 0 0,LeftHand:19:3.37 0 0,LeftFingerBase:20:0 0 0,LFingers:21:0.71 0 0," \
      "LThumb:20:0 0 0,RightShoulder:13:0 0 0,RightArm:24:-3.14 1.2 0,RightForeArm:25:-5.24 0 0,RightHand:26:-3.44 0 0," \
      "RightFingerBase:27:0 0 0,RFingers:28:-0.71 0 0,RThumb:27:0 0 0", j, ",")
    for (i = 1; i <= n; i++) { split(j[i], f, ":"); name[i-1] = f[1]; par[i-1] = f[2]; off[i-1] = f[3]; kids[f[2]]++ }
    print "HIERARCHY"; emit(0, "")
  }
  function emit(k, ind,   c) {
    print ind (k ? "JOINT " : "ROOT ") name[k]; print ind "{"; print ind "\tOFFSET " off[k]
    print ind "\tCHANNELS " (k ? "3 Zrotation Yrotation Xrotation" : "6 Xposition Yposition Zposition Zrotation Yrotation Xrotation")
    for (c = k + 1; c < 31; c++) if (par[c] == k) emit(c, ind "\t")
    if (!kids[k]) { print ind "\tEnd Site"; print ind "\t{"; print ind "\t\tOFFSET 0 0 1"; print ind "\t}" }
    print ind "}"
  }' > "$tmp/hier.txt"
fi
channels=$(awk '/CHANNELS/ { n += $2 } END { print n }' "$tmp/hier.txt")
joints=$(grep -cE '^[[:space:]]*(ROOT|JOINT) ' "$tmp/hier.txt")
echo "skeleton: $joints joints, $channels channels"
[ "$joints" = 31 ] || { echo "FAIL: expected the 31-joint CMU skeleton, got $joints"; exit 1; }

# FRAMES rows of smooth, real-looking motion: a walking root, every angle a
# few slow sines of its own (up to +-170 deg: Euler wraps, near-180 rotations).
gen() { # gen <frames> <file>
  { cat "$tmp/hier.txt"
    awk -v F="$1" -v C="$channels" 'BEGIN {
      print "MOTION"; print "Frames: " F; print "Frame Time: .0083333"
      srand(14)
      for (c = 1; c <= C; c++) { a[c] = 5 + 165 * rand() * rand(); w[c] = 0.3 + 3 * rand(); p[c] = 6.283 * rand() }
      for (f = 0; f < F; f++) {
        t = f / 120; line = sprintf("%.4f %.4f %.4f", 30 * t, 17 + sin(7 * t), 5 * sin(0.2 * t))
        for (c = 4; c <= C; c++) line = line sprintf(" %.6f", a[c] * sin(w[c] * t + p[c]) + 3 * sin(13 * w[c] * t))
        print line
      }
    }'
  } > "$2"
}
gen "$FRAMES" "$tmp/big.bvh"
echo "generated $tmp/big.bvh: $FRAMES frames, $(($(stat -c %s "$tmp/big.bvh") / 1048576)) MiB"

run() { # run <file> <frames> <op>: validate under /usr/bin/time; checks exit 0, the clip used, max RSS
  # shellcheck disable=SC2086
  # (scalar only: a case's buffers are shared by the variants, so more of them cost time, not memory)
  $TIME -v -o "$tmp/time.txt" $emu "$bin" validate --quick --bvh "$1" --op "$3" --variant scalar > "$tmp/out.txt" 2>&1
  local st=$? kb wall
  kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time.txt")
  wall=$(awk -F'): ' '/Elapsed \(wall clock\)/ { print $2 }' "$tmp/time.txt")
  echo "validate --bvh ($2 frames) --op $3: exit $st, max RSS $((${kb:-0} / 1024)) MiB, $wall"
  if [ "$st" != 0 ]; then echo "FAIL: exit $st"; tail -n 5 "$tmp/out.txt"; fail=1; fi
  grep -q "# mocap: 1 clip(s) (31 joints, $2 frames first)" "$tmp/out.txt" ||
    { echo "FAIL: the clip was not validated"; head -n 5 "$tmp/out.txt"; fail=1; }
  if [ -z "$kb" ] || [ "$kb" -ge $((LIMIT_MB * 1024)) ]; then echo "FAIL: max RSS ${kb:-?} KiB >= $LIMIT_MB MiB"; fail=1; fi
}
for op in unroll sample_linear blend_static; do run "$tmp/big.bvh" "$FRAMES" "$op"; done

max_keys=$(awk '/define PB_BVH_DEFAULT_MAX_KEYS/ { gsub(/[^0-9]/, "", $3); print $3; exit }' \
  "$(dirname "$0")/../include/posebench/bvh.h")
[ -n "$max_keys" ] || { echo "FAIL: PB_BVH_DEFAULT_MAX_KEYS not found in include/posebench/bvh.h"; exit 1; }
# The largest file the validation accepts, on the op that takes the whole clip.
gen $((max_keys / 31)) "$tmp/big.bvh"
run "$tmp/big.bvh" $((max_keys / 31)) unroll

# frame reads BVH files with the same key cap (issue 62, defect 10: a 7.8 M-key file peaked at 2.3-2.6 GB):
# the largest accepted file runs within FRAME_LIMIT_MB
FRAME_LIMIT_MB=${FRAME_LIMIT_MB:-1024}
frame_args="--quick --characters 4 --frames 2 --reps 1 --variant scalar"
# shellcheck disable=SC2086
$TIME -v -o "$tmp/time.txt" $emu "$bin" frame --bvh "$tmp/big.bvh" $frame_args > "$tmp/out.txt" 2>&1
st=$?; kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time.txt")
echo "frame --bvh ($((max_keys / 31)) frames): exit $st, max RSS $((${kb:-0} / 1024)) MiB"
[ "$st" = 0 ] || { echo "FAIL: frame exit $st"; tail -n 5 "$tmp/out.txt"; fail=1; }
if [ -z "$kb" ] || [ "$kb" -ge $((FRAME_LIMIT_MB * 1024)) ]; then echo "FAIL: frame max RSS ${kb:-?} KiB >= $FRAME_LIMIT_MB MiB"; fail=1; fi

# Beyond the bound: refused, naming the file and the count; --json an error record.
big_frames=$(( max_keys / 31 + 1 ))
gen "$big_frames" "$tmp/huge.bvh"
# shellcheck disable=SC2086
$emu "$bin" validate --quick --bvh "$tmp/huge.bvh" --op unroll --json "$tmp/err.json" > "$tmp/out.txt" 2>&1
st=$?
echo "validate --bvh ($big_frames frames): exit $st: $(grep -m1 'posebench validate:' "$tmp/out.txt")"
[ "$st" = 2 ] || { echo "FAIL: expected exit 2"; fail=1; }
grep -q "huge.bvh.*$max_keys" "$tmp/out.txt" || { echo "FAIL: the message does not name the file and the bound ($max_keys)"; fail=1; }
grep -q '"error":' "$tmp/err.json" && ! grep -q '^\[' "$tmp/err.json" ||
  { echo "FAIL: --json is not an error record:"; cat "$tmp/err.json"; fail=1; }

# frame refuses it too, with the same limit in the message (it used to load any size)
# shellcheck disable=SC2086
$emu "$bin" frame --bvh "$tmp/huge.bvh" $frame_args > "$tmp/out.txt" 2>&1
st=$?
echo "frame --bvh ($big_frames frames): exit $st: $(grep -m1 'posebench frame:.*huge' "$tmp/out.txt")"
[ "$st" = 2 ] && grep -q "huge.bvh:.*more than the limit of $max_keys keys" "$tmp/out.txt" ||
  { echo "FAIL: frame did not refuse the file naming it and the limit ($max_keys keys)"; fail=1; }
# and a file over the byte cap before reading it (the text is read whole): a sparse file, no disk used
truncate -s $(( (128 << 20) + 1 )) "$tmp/sparse.bvh"
for cmd in frame validate; do
  # shellcheck disable=SC2086
  $emu "$bin" $cmd --bvh "$tmp/sparse.bvh" $( [ "$cmd" = validate ] && echo "--quick --op quat_mul" || echo "$frame_args") > "$tmp/out.txt" 2>&1
  st=$?
  [ "$st" = 2 ] && grep -q "sparse.bvh: 134217729 bytes, more than the limit of 134217728 bytes for a BVH file" "$tmp/out.txt" ||
    { echo "FAIL: $cmd --bvh of 128 MiB + 1 byte: exit $st: $(head -c 300 "$tmp/out.txt")"; fail=1; }
done

[ "$fail" = 0 ] && echo "PASS"
exit "$fail"
