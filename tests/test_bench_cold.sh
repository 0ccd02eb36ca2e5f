#!/usr/bin/env bash
# test_bench_cold.sh — cold-cache benchmarks on a host with a huge last-level
# cache (issue 14, defect 1: 450 cold benchmarks errored with "82 buffer sets
# of 57 MiB needed to exceed 2 x 482 MiB of cache" and the main job exited 1).
# POSEBENCH_LLC_BYTES=503316480 (480 MiB) makes this host look like that one:
#   - the default method (flush the op's lines, timer paused; x86 and aarch64)
#     runs the cold benchmark, no error, exit 0;
#   - rotation forced (POSEBENCH_COLD=rotate: what other architectures do)
#     cannot fit and must report the row skipped with the reason, exit 0;
#   - a malformed POSEBENCH_LLC_BYTES is refused before anything runs, exit 2
#     (the bench harness alone would skip the cold rows, saying why).
# Never the timings. usage: test_bench_cold.sh <emulator-or-empty> <path/to/posebench>
set -u
emu=$1; bin=$2
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL $*"; }
bench() { # bench <json> <env...> -- : blend_static, scalar, 1048576 joints (57 MiB a buffer set), cold only
  local j=$1; shift
  # shellcheck disable=SC2086
  env "$@" $emu "$bin" bench --quick --op blend_static --variant scalar --sizes 1048576 --seed 3 --json "$j" \
    -- --benchmark_filter=/cold --benchmark_min_time=0.01 --benchmark_repetitions=1 >"$tmp/out" 2>"$tmp/err"
}
huge=POSEBENCH_LLC_BYTES=503316480

bench "$tmp/flush.json" "$huge"; st=$?
[ "$st" = 0 ] && ok || { bad "flush: exit $st"; tail -n 5 "$tmp/err"; }
grep -q '"name": "blend_static/scalar/1048576/cold"' "$tmp/flush.json" && ok || bad "flush: no cold row"
grep -q '"error_occurred": true' "$tmp/flush.json" && { bad "flush: a row reported an error:"; grep -m2 error_message "$tmp/flush.json"; } || ok
grep -q '"label": "cold"' "$tmp/flush.json" && ok || bad "flush: no row labelled cold"
grep -Eq '"cold_cache": ".*(clflush|dc civac).*POSEBENCH_LLC_BYTES' "$tmp/flush.json" && ok ||
  bad "flush: context cold_cache: $(grep -m1 cold_cache "$tmp/flush.json")"
grep -q 'ns_per_joint' "$tmp/flush.json" && ok || bad "flush: no ns_per_joint"

bench "$tmp/rot.json" "$huge" POSEBENCH_COLD=rotate; st=$?
[ "$st" = 0 ] && ok || { bad "rotate: exit $st (a skipped row is not a failure)"; tail -n 5 "$tmp/err"; }
grep -Eq 'SKIPPED: cold cache: rotation forced.*[0-9]+ buffer sets of [0-9]+ MiB to exceed 2 x 48[0-9] MiB' "$tmp/rot.json" && ok ||
  bad "rotate: no skip reason in the JSON: $(grep -m1 error_message "$tmp/rot.json")"
grep -q 'cold-cache benchmark(s) skipped' "$tmp/err" && ok || bad "rotate: stderr does not say rows were skipped"
grep -q 'reported an error' "$tmp/err" && bad "rotate: counted as an error" || ok

bench "$tmp/bad.json" POSEBENCH_LLC_BYTES=lots; st=$?   # refused at start-up (cli/env.c), as every POSEBENCH_* value
[ "$st" = 2 ] && ok || bad "bad POSEBENCH_LLC_BYTES: exit $st (want 2)"
grep -q "POSEBENCH_LLC_BYTES expects a positive whole number of bytes .*got 'lots'" "$tmp/err" && ok ||
  bad "bad POSEBENCH_LLC_BYTES: $(cat "$tmp/err")"
[ ! -e "$tmp/bad.json" ] && ok || bad "bad POSEBENCH_LLC_BYTES: a JSON was written"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
