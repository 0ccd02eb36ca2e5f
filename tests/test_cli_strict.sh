#!/usr/bin/env bash
# test_cli_strict.sh — the CLI refuses what it used to accept silently and
# reports what it used to lose (issue 62, defects 11-14): a failed write to
# stdout or to an output file is exit 2 with a message, for every command;
# options that the chosen mode ignores, malformed environment values and
# numbers in any form but plain decimal are exit 2 naming the option or the
# variable and the value; inputs that cannot be read are refused before any
# step runs. Every check asserts the status and the message.
# usage: test_cli_strict.sh <emulator-or-empty> <path/to/posebench>
set -u
emu=$1; bin=$2
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -n "$emu" ] && export POSEBENCH_THREADS=1   # qemu-user: one thread (tests/CMakeLists.txt)
run() { if [ -n "$emu" ]; then $emu "$bin" "$@"; else "$bin" "$@"; fi; }
check() { # check <name> <expected-status> <regex> -- args...: status and the combined output
  local name=$1 want=$2 re=$3; shift 4
  local out; out=$(run "$@" 2>&1); local st=$?
  if [ "$st" = "$want" ] && grep -Eq -- "$re" <<<"$out"; then pass=$((pass+1));
  else fail=$((fail+1)); echo "FAIL $name: status $st (want $want), output:"; echo "$out" | head -5; fi
}
env_check() { # env_check <name> <status> <regex> <VAR=value> -- args...
  local name=$1 want=$2 re=$3 var=$4; shift 5
  local out; out=$(env "$var" bash -c 'emu=$1; shift; if [ -n "$emu" ]; then $emu "$@"; else "$@"; fi' _ "$emu" "$bin" "$@" 2>&1)
  local st=$?
  if [ "$st" = "$want" ] && grep -Eq -- "$re" <<<"$out"; then pass=$((pass+1));
  else fail=$((fail+1)); echo "FAIL $name: status $st (want $want), output:"; echo "$out" | head -5; fi
}
full_check() { # full_check <name> -- args...: stdout to /dev/full must be exit 2 with a message on stderr
  local name=$1; shift 2
  local err; err=$(run "$@" 2>&1 >/dev/full); local st=$?
  if [ "$st" = 2 ] && grep -q "error writing standard output" <<<"$err"; then pass=$((pass+1));
  else fail=$((fail+1)); echo "FAIL $name >/dev/full: status $st (want 2), stderr:"; echo "$err" | tail -3; fi
}

# ---- defect 11: a failed write to stdout, for every command and every help ----
if [ -w /dev/full ]; then
  full_check "variants"      -- variants
  full_check "ops"           -- ops
  full_check "ops markdown"  -- ops --markdown
  full_check "help"          -- help
  full_check "--help"        -- --help
  full_check "help frame"    -- help frame
  full_check "frame --help"  -- frame --help
  full_check "validate"      -- validate --quick --no-mocap --op quat_mul --variant scalar
  full_check "frame"         -- frame --quick --characters 4 --frames 2 --reps 1 --no-cmu --variant scalar --method dead
  out=$(run variants 2>&1 >/dev/null); st=$?   # the same command to a working stdout: 0, nothing on stderr
  [ "$st" = 0 ] && [ -z "$out" ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL variants to /dev/null: $st $out"; }
else
  echo "skipped: stdout checks (no writable /dev/full)"
fi

# ---- defect 12: options the chosen source ignores are refused, as --graph without --source graph ----
# (a tiny run in each, so that an accepted option finishes quickly with 0 instead of the refusal)
tiny=(--quick --characters 4 --frames 1 --reps 1 --no-cmu --variant scalar)
check "mm-interval alone"    2 "--mm-interval goes with --source mm" -- frame --mm-interval 5 "${tiny[@]}" --method dead
check "mm-search alone"      2 "--mm-search goes with --source mm"   -- frame --mm-search aabb "${tiny[@]}" --method dead
check "mm-search graph"      2 "--mm-search goes with --source mm"   -- frame --source graph --mm-search aabb "${tiny[@]}"
check "mm block"             2 "--block goes with --source clips"    -- frame --source mm --block 32 "${tiny[@]}"
check "graph vertices"       2 "--vertices goes with --source clips" -- frame --source graph --vertices 100 "${tiny[@]}"
check "mm method dead"       0 "aabb +dead_slerp +scalar +[0-9.]+ +[0-9.]+" -- frame --source mm --method dead "${tiny[@]}"
check "mm method cut"        0 "exhaustive +cut +scalar +[0-9.]+ +[0-9.]+" -- frame --source mm --method cut "${tiny[@]}"
check "mm method xfade"      2 "--source mm --method: method crossfade_slerp: motion matching switches by inertialize, dead_slerp or cut only" -- frame --source mm --method crossfade_slerp "${tiny[@]}"
check "mm method dead_ue"    2 "method dead_ue: motion matching switches by" -- frame --source mm --method inertialize --method dead_ue "${tiny[@]}"
check "clips block"          0 "in blocks of 16 characters"          -- frame "${tiny[@]}" --characters 16 --method dead --block 16
# ---- issue 58: every transition method name (posebench/frame.h's table) in frame, graph and budget ----
for m in cut crossfade_slerp crossfade_nlerp crossfade_exact inertialize dead_slerp dead_nlerp dead_ue dead_clamp \
         dead_bounce dead_via crossfade dead; do
  key=$m; [ "$m" = crossfade ] && key=crossfade_exact; [ "$m" = dead ] && key=dead_slerp   # the two aliases
  check "method $m"          0 "^$key +scalar +[0-9]"                 -- frame "${tiny[@]}" --joints 8 --vertices 0 --method "$m"
done
check "method bad"           2 "--method expects a transition method \(cut, crossfade_slerp.*dead_via; or crossfade, dead\), got 'blend'" -- frame "${tiny[@]}" --method blend
check "halflife range"       2 "--halflife-scale expects a number in 0\.\.10, got '11'" -- frame "${tiny[@]}" --halflife-scale 11
check "halflife zero"        2 "--halflife-scale 0: must be above 0"  -- frame "${tiny[@]}" --halflife-scale 0
check "halflife min max"     2 "--halflife-min 0.5 is above --halflife-max 0.2" -- frame "${tiny[@]}" --halflife-min 0.5 --halflife-max 0.2
check "halflife min dflt"    2 "--halflife-min 2 is above --halflife-max 1 \(its default\)" -- frame "${tiny[@]}" --halflife-min 2
check "halflife mm"          2 "--halflife-scale goes with --source clips \(the default\) or --source graph" -- frame --source mm --halflife-scale 0.5 "${tiny[@]}"
check "halflife clips"       0 "dead_ue: clamp\(0.6 d / v, 0.05, 2\) s" -- frame "${tiny[@]}" --joints 8 --vertices 0 --method dead_ue --halflife-scale 0.6 --halflife-min 0.05 --halflife-max 2
check "halflife graph"       0 "^scalar "                             -- frame --source graph "${tiny[@]}" --characters 16 --halflife-scale 0.6
# (a budget nothing fits: exit 1 on every host, qemu included, where a scalar frame may or may not fit 500 us)
check "budget halflife"      1 "dead_ue: clamp\(0.6 d / v, 0.1, 1\) s" -- budget --quick --characters 16 --joints 8 --frames 2 --reps 1 --no-cmu --variant scalar --budget-us 0.001 --halflife-scale 0.6
check "budget halflife bad"  2 "--halflife-min 0.5 is above --halflife-max 0.2" -- budget --halflife-min 0.5 --halflife-max 0.2
check "curve bezier"         0 "cross-fade weight: bezier \(0.25, 0.1, 0.25, 1\), frozen" -- frame "${tiny[@]}" --joints 8 --vertices 0 --method crossfade_slerp --curve bezier --bezier 0.25,0.1,0.25,1 --frozen
check "curve bezier range"   2 "--bezier: bezier control value y2 is 1.5" -- frame "${tiny[@]}" --method crossfade_slerp --curve bezier --bezier 0.25,0.1,0.25,1.5
check "curve bezier tangent" 2 "vertical tangent at the start" -- frame "${tiny[@]}" --method crossfade_slerp --curve bezier --bezier 0,0.5,1,1
check "curve bezier count"   2 "needs --bezier X1,Y1,X2,Y2 \(four numbers\), got '0.1,0.2'" -- frame "${tiny[@]}" --method crossfade_slerp --curve bezier --bezier 0.1,0.2
check "curve no bezier"      2 "--bezier goes with --curve bezier" -- frame "${tiny[@]}" --method crossfade_slerp --bezier 0.1,0.2,0.3,0.4
check "curve not xfade"      2 "--curve applies to the cross-fades .* not inertialize" -- frame "${tiny[@]}" --method inertialize --curve ease_in
check "frozen not xfade"     2 "--frozen applies to the cross-fades .* not dead_slerp" -- frame "${tiny[@]}" --method dead --frozen
check "curve unknown"        2 "cubic"                                -- frame "${tiny[@]}" --curve cubic
# validate: --bvh feeds the mocap class that --no-mocap skips (it exited 0 without reading the file)
check "no-mocap bvh"         2 "--bvh .*--no-mocap"                   -- validate --no-mocap --bvh "$(dirname "$0")/../README.md" --op quat_mul

# ---- defect 12: every POSEBENCH_* value checked at start-up ----
env_check "disable empty entry" 2 "POSEBENCH_DISABLE: empty entry in 'avx512,,avx2'" POSEBENCH_DISABLE=avx512,,avx2 -- variants
env_check "disable comma"       2 "POSEBENCH_DISABLE: empty entry in ','"            POSEBENCH_DISABLE=, -- variants
env_check "disable trailing"    2 "POSEBENCH_DISABLE: empty entry in 'avx2,'"        POSEBENCH_DISABLE=avx2, -- variants
env_check "disable ok"          0 "^scalar "                                          POSEBENCH_DISABLE=avx512,avx2 -- variants
env_check "spin abc"            2 "POSEBENCH_POOL_SPIN_US expects microseconds 0..1000000, got 'abc'" POSEBENCH_POOL_SPIN_US=abc -- ops
env_check "spin over"           2 "POSEBENCH_POOL_SPIN_US expects .*got '1000001'" POSEBENCH_POOL_SPIN_US=1000001 -- ops
env_check "spin ok"             0 "blend_static"                                      POSEBENCH_POOL_SPIN_US=0 -- ops
env_check "cold bogus"          2 "POSEBENCH_COLD expects auto, flush or rotate, got 'bogus'" POSEBENCH_COLD=bogus -- ops
env_check "cold ok"             0 "blend_static"                                      POSEBENCH_COLD=rotate -- ops
env_check "llc abc"             2 "POSEBENCH_LLC_BYTES expects a positive whole number of bytes .*got 'abc'" POSEBENCH_LLC_BYTES=abc -- ops
env_check "llc 0"               2 "POSEBENCH_LLC_BYTES expects .*got '0'"            POSEBENCH_LLC_BYTES=0 -- ops
env_check "llc 1e9"             2 "POSEBENCH_LLC_BYTES expects .*got '1e9'"          POSEBENCH_LLC_BYTES=1e9 -- ops
env_check "threads +4"          2 "POSEBENCH_THREADS expects an integer in 1\.\.[0-9]+, got '\+4'" POSEBENCH_THREADS=+4 -- ops
env_check "stream space"        2 "POSEBENCH_STREAM_BYTES expects .*got ' 4096'"     "POSEBENCH_STREAM_BYTES= 4096" -- ops
env_check "misspelt name"       2 "unknown environment variable POSEBENCH_THREAD \(known: .*POSEBENCH_THREADS" POSEBENCH_THREAD=4 -- ops
env_check "empty is unset"      0 "blend_static"                                      POSEBENCH_THREADS= -- ops

# ---- defect 12: one number parser: decimal digits only, range checked, naming the option and the value ----
btiny=(--quick --characters 4 --joints 8 --frames 2 --reps 1 --no-cmu --variant scalar)
for bad in " 16" "+16" "16 " "0x10" "1e1" "16.0" ""; do
  re=$(sed 's/[+.]/\\&/g' <<<"$bad")
  check "characters '$bad'"  2 "--characters expects an integer in 1\.\.4096, got '$re'" -- frame "${tiny[@]}" --method dead --characters "$bad"
done
check "budget-us hex"        2 "--budget-us expects a number in .*got '0x10'" -- budget "${btiny[@]}" --budget-us 0x10
check "budget-us space"      2 "--budget-us expects a number in .*got ' 16'"  -- budget "${btiny[@]}" --budget-us " 16"
check "budget-us plus"       2 "--budget-us expects a number in .*got '\+16'" -- budget "${btiny[@]}" --budget-us +16
check "budget-us inf"        2 "--budget-us expects a number in .*got 'inf'"  -- budget "${btiny[@]}" --budget-us inf
check "bvh-scale 1e-3 ok"    0 "all passed"                                     -- validate --quick --no-mocap --op quat_mul --variant scalar
check "seed plus"            2 "--seed expects a non-negative integer.*got '\+5'" -- validate --seed +5
check "sizes space"          2 "--sizes expects joint counts 1\.\.[0-9]+, got ' 64'" -- bench --sizes " 64"
check "sizes plus"           2 "--sizes expects joint counts 1\.\.[0-9]+, got '\+64'" -- bench --sizes 64,+64

# ---- defect 14: one limit of skinned vertices, refused with the options' names before anything runs ----
check "vertices over limit"  2 "--characters 17 x --vertices 1000000 is 17000000 skinned vertices, over the limit of 16777216" -- frame --characters 17 --vertices 1000000
check "vertices under limit" 0 "mesh: 4096 vertices" -- frame "${tiny[@]}" --method dead --characters 16 --vertices 4096 --joints 4

# ---- defects 11 and 13: report refuses bad --bvh and --out up front (no folder made, no step run) ----
tcheck() { # tcheck <name> <status> <regex> -- args...: as check, and still running after 30 s is a failure
  local name=$1 want=$2 re=$3; shift 4
  local out; out=$(if [ -n "$emu" ]; then timeout 30 $emu "$bin" "$@"; else timeout 30 "$bin" "$@"; fi 2>&1); local st=$?
  if [ "$st" = "$want" ] && grep -Eq -- "$re" <<<"$out"; then pass=$((pass+1));
  else fail=$((fail+1)); echo "FAIL $name: status $st (want $want; 124: it ran the steps), output:"; echo "$out" | head -3; fi
}
mkdir "$tmp/clips"
tcheck "report bvh directory" 2 "--bvh $tmp/clips: is a directory, not a regular file" -- report --quick --out "$tmp/r1" --bvh "$tmp/clips"
[ ! -e "$tmp/r1" ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL report bvh directory: made $tmp/r1"; }
tcheck "report bvh missing"   2 "--bvh $tmp/nope.bvh: no such file" -- report --quick --out "$tmp/r2" --bvh "$tmp/nope.bvh"
[ ! -e "$tmp/r2" ] && pass=$((pass+1)) || { fail=$((fail+1)); echo "FAIL report bvh missing: made $tmp/r2"; }
long=$tmp; while [ ${#long} -le 2100 ]; do long=$long/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; done
tcheck "report long out"      2 "--out: a path of ${#long} bytes; at most 2047" -- report --quick --out "$long"
[ ! -e "$tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" ] && pass=$((pass+1)) ||
  { fail=$((fail+1)); echo "FAIL report long out: made a (truncated) folder"; }

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
