#!/usr/bin/env bash
# cli_test.sh — the CLI's contract: exit codes and messages for bad input,
# forced variants honoured or refused, validate's JSON shape.
# usage: cli_test.sh <emulator-or-empty> <path/to/posebench> <foreign-variant> <emulated ON|OFF>
set -u
emu=$1; bin=$2; foreign=$3; emulated=${4:-ON}
pass=0; fail=0
run() { if [ -n "$emu" ]; then $emu "$bin" "$@"; else "$bin" "$@"; fi; }
check() { # check <name> <expected-status> <regex> -- args...
  local name=$1 want=$2 re=$3; shift 4
  local out; out=$(run "$@" 2>&1); local st=$?
  if [ "$st" = "$want" ] && grep -Eq -- "$re" <<<"$out"; then pass=$((pass+1));
  else fail=$((fail+1)); echo "FAIL $name: status $st (want $want), output:"; echo "$out" | head -5; fi
}
check "no command"          2 "usage"                         -- 
check "unknown command"     2 "unknown command 'frobnicate'"  -- frobnicate
check "variants"            0 "scalar .* native"              -- variants
check "ops"                 0 "blend_static_nlerp"            -- ops
check "forced foreign"      2 "not built for"                 -- --variant "$foreign" variants
check "forced unknown"      2 "unknown variant 'nope'"        -- --variant nope variants
check "validate bad op"     2 "unknown op 'nope'"             -- validate --op nope
check "validate bad var"    2 "unknown variant 'nope'"        -- validate --variant nope
check "validate bad seed"   2 "--seed expects"                -- validate --seed x1
check "validate bad json"   2 "cannot write /nonexistent/dir" -- validate --op eerp --json /nonexistent/dir/x.json
check "validate one"        0 "all passed"                    -- validate --quick --op quat_mul --variant scalar
check "validate missing bvh" 2 "nope.bvh"                  -- validate --quick --op quat_mul --variant scalar --bvh /nonexistent/nope.bvh
check "report missing bvh"   2 "--bvh /nonexistent/nope.bvh: no such file" -- report --bvh /nonexistent/nope.bvh
check "report bad option"    2 "unknown or incomplete option '--frob'" -- report --frob
check "frame bad characters" 2 "--characters expects 1..4096"  -- frame --characters 0
check "frame bad scale"      2 "--bvh-scale expects"           -- frame --bvh-scale nan
check "budget bad budget"    2 "budget"                        -- budget --budget-us -3
boxing=/usr/share/assimp/models/BVH/Boxing_Toes.bvh
if [ -f "$boxing" ]; then   # its header's frame count is one short: a warning, an error with --strict
  check "validate bvh warning" 0 "warning: .*Boxing_Toes.bvh:128" -- validate --quick --op quat_mul --variant scalar --bvh "$boxing"
  check "validate bvh strict"  2 "Boxing_Toes.bvh:128"        -- validate --quick --op quat_mul --variant scalar --bvh "$boxing" --strict
else
  echo "skipped: $boxing not installed (apt-get install assimp-testmodels)"
fi
out=$(POSEBENCH_VARIANT=$foreign run variants 2>&1); st=$?
if [ $st = 2 ] && grep -q "not built for" <<<"$out"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL env forced foreign: $st $out"; fi
out=$(POSEBENCH_VARIANT=scalar run variants 2>&1)
if grep -Eq "^scalar .*\[active\]" <<<"$out"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL env forced scalar: $out"; fi
if [ "$emulated" = ON ]; then   # the harness's -emu rows, by --variant and by POSEBENCH_VARIANT
  check "validate emulated"  0 "avx2-emu .*all passed|all passed" -- --variant avx2-emu validate --quick --op eerp --variant avx2-emu
  out=$(POSEBENCH_VARIANT=avx2-emu run variants 2>&1)
  if grep -Eq "^avx2-emu .*\[active\]" <<<"$out"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL env forced avx2-emu: $out"; fi
  want_mode='"mode": "emulated"'
else                           # not built: a clear error, never a silent fallback
  check "emulated not built"  2 "not built .*PB_EMULATED=ON"   -- --variant avx2-emu variants
  check "validate emu not built" 2 "not built .*PB_EMULATED=ON" -- validate --variant avx2-emu
  out=$(POSEBENCH_VARIANT=avx2-emu run variants 2>&1); st=$?
  if [ $st = 2 ] && grep -q "PB_EMULATED=ON" <<<"$out"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL env emu not built: $st $out"; fi
  want_mode='"mode": "native"'
fi
tmp=$(mktemp); run validate --quick --op eerp --json "$tmp" >/dev/null
# (cJSON writes the rows without spaces after ':'; either is JSON)
if grep -Eq '"op": ?"eerp"' "$tmp" && grep -Eq "${want_mode/: /: ?}" "$tmp" && grep -q '"max_err"' "$tmp" \
   && grep -q '"ref_err"' "$tmp" && grep -Eq '"nan": ?0' "$tmp" && grep -Eq '"pass": ?true' "$tmp"; then pass=$((pass+1));
else fail=$((fail+1)); echo "FAIL json shape"; head -c 600 "$tmp"; fi
rm -f "$tmp"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
