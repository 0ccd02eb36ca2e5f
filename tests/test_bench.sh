#!/usr/bin/env bash
# test_bench.sh — smoke test of `posebench bench`: one tiny run, then the
# shape of its Google Benchmark JSON (names, counters, context keys) and of
# the CSV summary, the cold-cache names, and the option errors. Never the
# timings: no assertion here depends on how fast anything ran.
# usage: test_bench.sh <emulator-or-empty> <path/to/posebench>
set -u
emu=$1; bin=$2
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# qemu-user 7.2 hangs in pthread_create on some host kernels (tests/CMakeLists.txt): one thread under emulation
[ -n "$emu" ] && export POSEBENCH_THREADS=1
run() { if [ -n "$emu" ]; then $emu "$bin" "$@"; else "$bin" "$@"; fi; }
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL $*"; }
check() { # check <name> <expected-status> <regex> -- args...
  local name=$1 want=$2 re=$3; shift 4
  local out; out=$(run "$@" 2>&1); local st=$?
  if [ "$st" = "$want" ] && grep -Eq -- "$re" <<<"$out"; then ok;
  else bad "$name: status $st (want $want), output:"; echo "$out" | head -5; fi
}

# A variant this build cannot run (neon on x86-64, an x86 one on AArch64).
foreign=$(run variants 2>/dev/null | awk '/unavailable/ {print $1; exit}')

check "bad op"        2 "unknown op 'nope'"             -- bench --op nope
check "bad variant"   2 "unknown variant 'nope'"        -- bench --variant nope
check "bad sizes"     2 "--sizes expects"               -- bench --sizes 64,0
check "bad seed"      2 "--seed expects"                -- bench --seed x
check "bad option"    2 "unknown option '--frobnicate'" -- bench --frobnicate
check "empty size"    2 "--sizes: empty entry in '64,,128'" -- bench --sizes 64,,128
check "trailing comma" 2 "--sizes: empty entry"          -- bench --sizes 64,
check "negative seed" 2 "--seed expects a non-negative"  -- bench --seed -1
check "seed=value"    2 "--seed expects a non-negative"  -- bench --seed=-5
check "bad gb flag"   2 "unrecognized"                  -- bench --op quat_mul -- --benchmark_nope=1
check "bad json path" 2 "cannot write /nonexistent/d/x" -- bench --op quat_mul --json /nonexistent/d/x.json
[ -n "$foreign" ] && check "foreign variant" 2 "not built for|needs" -- bench --variant "$foreign"
check "help"          0 "--sizes LIST"                  -- bench --help
# Names, cold-cache suffix included, without running anything.
check "list names"    0 "copy/quat_abs/262144/cold" \
  -- bench --op quat_abs --variant scalar --sizes 64,262144 -- --benchmark_list_tests=true
out=$(run bench --op quat_abs --variant scalar --sizes 64,262144 -- --benchmark_list_tests=true 2>/dev/null)
want=$'copy/quat_abs/64\nquat_abs/scalar/64\nquat_abs/scalar/64/plan\ncopy/quat_abs/262144\nquat_abs/scalar/262144\ncopy/quat_abs/262144/cold\nquat_abs/scalar/262144/cold'
[ "$out" = "$want" ] && ok || bad "registration order/names: got:"$'\n'"$out"

# Motion matching (not a pose op): names, a tiny run, and not mixed with pose ops.
check "mm mixed"      2 "run on their own"              -- bench --op mm_search --op quat_mul
out=$(run bench --op mm_search --op mm_aabb --variant scalar --sizes 1000 -- --benchmark_list_tests=true 2>/dev/null)
want_re=$'^mm_build/[0-9]+\ncopy/mm/1000\nmm_search/scalar/1000\nmm_aabb/scalar/1000\nmm_aabb_random/scalar/1000$'
[[ "$out" =~ $want_re ]] && ok || bad "mm registration order/names: got:"$'\n'"$out"
check "mm run"        0 "mm_aabb/scalar/1000 +[0-9.]+ +[0-9]+ +108 " \
  -- bench --quick --op mm_aabb --variant scalar --sizes 1000 -- --benchmark_min_time=0.001

# Blend-space weights (not a pose op): a tiny run, every method's rows, and not mixed with pose ops.
check "bspace mixed"  2 "run on their own"              -- bench --op bspace --op quat_mul
check "bspace run"    0 "bspace_polar_dirs8/scalar/100 +[0-9.]+ +44 " \
  -- bench --quick --op bspace --variant scalar --sizes 100 -- --benchmark_min_time=0.001
out=$(run bench --op bspace --variant scalar --sizes 100 -- --benchmark_list_tests=true 2>/dev/null | grep -c '^bspace_')
[ "$out" = 7 ] && ok || bad "bspace: 7 method x sample-set rows, got $out"

# The N-way blend (not a pose op's call): a tiny run, and not mixed with pose ops.
check "blend_n mixed" 2 "run on their own"              -- bench --op blend_n --op quat_mul
check "blend_n run"   0 "blend_n_accurate_k16/scalar/1024 +[0-9.]+ +680 " \
  -- bench --quick --op blend_n --variant scalar --sizes 1024 -- --benchmark_min_time=0.001

# The masked layers (ops with per-character and per-joint arrays): a tiny run, and not mixed with pose ops.
check "masked mixed"  2 "run on their own"              -- bench --op masked --op quat_mul
check "masked run"    0 "masked_additive_local_static/scalar/1024 +[0-9.]+ +120 " \
  -- bench --quick --op masked --variant scalar --sizes 1024 -- --benchmark_min_time=0.001
# their --json is written as the pose ops' is (every repetition); --csv, a pose-op summary, is refused
check "masked csv"    2 "--csv: .*masked prints its own table" -- bench --op masked --csv "$tmp/m.csv"
check "masked json path" 2 "cannot write /nonexistent/d/m.json" -- bench --op masked --json /nonexistent/d/m.json
if run bench --quick --op masked --variant scalar --sizes 1024 --json "$tmp/m.json" -- --benchmark_min_time=0.001 \
     >/dev/null 2>&1 && grep -q '"name": "copy/masked/1024"' "$tmp/m.json" &&
   grep -q '"name": "masked_blend_static/scalar/1024_median"' "$tmp/m.json"; then ok; else bad "masked --json"; fi

# The palettes with the inverse bind per element and per joint: a tiny run (both forms, rows and bytes), not mixed.
check "palette_bind mixed" 2 "run on their own"         -- bench --op palette_bind --op quat_mul
check "palette_bind run" 0 "palette_dq\[bind=per joint\]/scalar/1280 +[0-9.]+ +72 " \
  -- bench --quick --op palette_bind --variant scalar --sizes 1280 -- --benchmark_min_time=0.001
check "palette_bind per element" 0 "palette/scalar/1280 +[0-9.]+ +128 " \
  -- bench --quick --op palette_bind --variant scalar --sizes 1280 -- --benchmark_min_time=0.001

# One tiny real run.
j=$tmp/b.json; c=$tmp/b.csv
if run bench --quick --op quat_mul --variant scalar --sizes 64 --seed 7 --json "$j" --csv "$c" \
     -- --benchmark_min_time=0.001 >"$tmp/out" 2>"$tmp/err"; then ok; else bad "run: status $?"; cat "$tmp/err"; fi
grep -q '\[3/3\] quat_mul/scalar/64/plan' "$tmp/err" && ok || bad "progress lines on stderr"
# the plan row and the per-run overhead summary (sizes <= 256)
grep -q 'plan overhead per run' "$tmp/err" && grep -Eq 'quat_mul/scalar/64 .* ns = +[-+]' "$tmp/err" && ok ||
  bad "plan overhead summary"
! grep -q '/plan' "$c" && ok || bad "plan rows stay out of the CSV (one row per op, variant, n, cache)"
for key in '"name": "copy/quat_mul/64"' '"name": "quat_mul/scalar/64"' '"name": "quat_mul/scalar/64_median"' \
           '"run_name": "quat_mul/scalar/64"' '"run_type": "iteration"' '"aggregate_name": "median"' \
           '"aggregate_name": "cv"' '"label": "warm"' '"time_unit": "ns"' \
           '"ns_per_joint": ' '"joints_per_s": ' '"bytes_per_s": ' '"bytes": ' '"copy_ratio": ' \
           '"posebench_version": ' '"cpu_model": ' '"cpu_features": ' '"compiler": ' '"c_flags": ' \
           '"build_type": ' '"variants": "scalar=native"' '"seed": "7"' '"sizes": "64"' '"caches": '; do
  grep -qF -- "$key" "$j" && ok || bad "json lacks $key"
done
# quat_mul reads a.rot and b.rot and writes out.rot: 12 floats per joint.
grep -qF '"bytes": 3.072' "$j" && ok || bad "json bytes per iteration (want 3072 = 64 x 12 x 4)"
# The copy roofline has no copy_ratio of its own.
awk '/"name": "copy\/quat_mul\/64"/,/}/' "$j" | grep -q copy_ratio && bad "copy benchmark has copy_ratio" || ok
hdr='op,variant,mode,n,ns_per_joint_median,ns_per_joint_cv,copy_ratio,speedup_vs_scalar,cache,threads'
[ "$(head -1 "$c")" = "$hdr" ] && ok || bad "csv header: $(head -1 "$c")"
[ "$(wc -l < "$c")" = 2 ] && ok || bad "csv rows: $(cat "$c")"
row=$(sed -n 2p "$c")
IFS=, read -r op var mode n nspj cv ratio speed cache threads <<<"$row"
if [ "$op,$var,$mode,$n,$speed,$cache,$threads" = "quat_mul,scalar,native,64,1,warm,1" ] && [ -n "$nspj" ] && [ -n "$cv" ] \
   && [ -n "$ratio" ]; then ok; else bad "csv row: $row"; fi

# Inputs from real motion capture (validation's real-data cases): the skeleton op runs whole
# 31-joint characters (4096 -> 4092 joints counted: 132 characters).
check "missing bvh"   2 "nope.bvh"                      -- bench --bvh /nonexistent/nope.bvh --op fk_static
cmu=/usr/share/assimp/models/BVH/01_01.bvh
if [ -f "$cmu" ]; then
  m=$tmp/m.json
  if run bench --mocap --op fk_static --op blend_static --variant scalar --sizes 4096 --seed 3 --json "$m" \
       -- --benchmark_min_time=0.001 --benchmark_repetitions=1 >/dev/null 2>"$tmp/merr"; then ok;
  else bad "--mocap run: status $?"; tail -3 "$tmp/merr"; fi
  grep -q '"input_class": "mocap: validation'"'"'s real-data cases from 3 clip(s), clip 0 of 31 joints' "$m" && ok \
    || bad "--mocap: input_class context"
  # fk_static: 4092 joints per iteration; blend_static keeps all 4096
  awk '/"name": "fk_static\/scalar\/4096"/,/}/' "$m" | grep -q '"joints_per_s"' && ok || bad "--mocap fk_static ran"
  fk_bytes=$(awk '/"name": "copy\/fk_static\/4096"/,/}/' "$m" | grep -o '"bytes": [0-9.e+]*' | head -1)
  [ -n "$fk_bytes" ] && ok || bad "--mocap fk_static copy roofline"
else
  echo "skipped --mocap: $cmu not installed (apt-get install assimp-testmodels)"
fi

# --threads 2: a threaded row of the dispatch variant and its copy roofline, in the CSV with threads = 2
if [ -z "$emu" ]; then
  dv=$(run variants 2>/dev/null | awk '/dispatch/ {print $1; exit}')
  c2=$tmp/t.csv; j2=$tmp/t.json
  if run bench --quick --op quat_mul --sizes 65536 --threads 2 --seed 7 --csv "$c2" --json "$j2" >/dev/null 2>&1; then ok;
  else bad "bench --threads 2 failed"; fi
  grep -q "^quat_mul,[a-z0-9]*,native,65536,[0-9.e+-]*,[0-9.e+-]*,[0-9.e+-]*,,warm,2$" "$c2" && ok \
    || bad "threaded csv row: $(cat "$c2")"
  grep -q '"name": "copy/quat_mul/65536/t2/real_time"' "$j2" && grep -q '"threads": "2"' "$j2" && ok \
    || bad "threaded rows in the JSON"
  check "bench threads 0" 2 "--threads expects an integer in 1..1024, got '0'" -- bench --threads 0
fi

# Issue 62, defect 11: a JSON file that cannot be written is exit 2, not "wrote /dev/full" and 0
# (--json and the framework's own --benchmark_out, for the pose ops' run and for the tables of their own).
if [ -w /dev/full ]; then
  check "json /dev/full"     2 "error writing /dev/full" -- bench --quick --op eerp --variant scalar --sizes 64 --json /dev/full -- --benchmark_min_time=0.001
  check "gb out /dev/full"   2 "error writing /dev/full" -- bench --quick --op eerp --variant scalar --sizes 64 -- --benchmark_out=/dev/full --benchmark_min_time=0.001
  check "bspace json full"   2 "error writing /dev/full" -- bench --quick --op bspace --variant scalar --sizes 100 --json /dev/full -- --benchmark_min_time=0.001
  out=$(run bench --quick --op eerp --variant scalar --sizes 64 -- --benchmark_min_time=0.001 2>&1 >/dev/full); st=$?
  [ "$st" = 2 ] && grep -q "error writing standard output" <<<"$out" && ok || bad "bench >/dev/full: status $st"
fi
# Issue 62, defect 14: threads are mentioned only when asked for (--threads or POSEBENCH_THREADS), and then accurately
dv=$(run variants 2>/dev/null | awk '/\[active\]/ {print $1; exit}')
out=$(run bench --op eerp --variant scalar --sizes 64 -- --benchmark_list_tests=true 2>&1 >/dev/null); st=$?
[ "$st" = 0 ] && ! grep -q "threads\|threaded" <<<"$out" && ok || bad "bench without --threads speaks of threads: $out"
if [ -z "$emu" ] && [ -n "$dv" ] && [ "$dv" != scalar ]; then
  check "threads asked, none" 0 "--threads 2: no threaded rows \(they time the dispatch variant, $dv" \
    -- bench --op eerp --variant scalar --sizes 64 --threads 2 -- --benchmark_list_tests=true
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
