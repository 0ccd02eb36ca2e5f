#!/usr/bin/env bash
# test.sh — the test command (README), also what CI runs through .ci/run:
#   1. gcc Release build, warnings as errors; unit tests (ctest; validate_all is left to step 2)
#   2. posebench validate: every op x variant (native and emulated), full sizes
#   3. clang build, warnings as errors; unit tests (the report test without its benchmark step)
#   3b. a shared libposebench (BUILD_SHARED_LIBS=ON, emulated builds off) passes the unit tests
#   3c. install: the package (static and shared) used by tests/consumer via find_package and pkg-config
#   4. gcc ASan + UBSan build; unit tests (the BVH regression corpus among them)
#   4b. the BVH parser, the graph JSON reader and the model importer fuzzed (libFuzzer, clang),
#       PB_FUZZ_SECONDS (default 120) in all
#   5. aarch64 cross build; unit tests and validation (--quick, plus the blend-space and N-way
#      tables in full) under qemu-aarch64 (NEON native and
#      scalar; the emulated kernels are the same portable SIMDe source the x86 stages validate,
#      and with them this stage took 33 minutes of a 60-minute run, without them 16)
# Every build of the harness here has the emulated kernels (PB_EMULATED=ON) except 3b, 3c, 4 and 5;
# gcc builds them at -O1 (cmake/isa.cmake: stage 1 took 983 s of a 3816 s run at -O3, most of it
# the emulated AVX-512 file; at -O1 the four emulated files build in about 4 minutes, and unit
# tests plus validation ran 375 s against 365).
# 4 runs the native kernels (and scalar) under the sanitizers: the emulated ones are the same kernel
# source, indexing included, through SIMDe's portable path, and at -O0 under ASan they made this the
# longest stage (about 1050 s of a 3550 s run, the report test alone near its 900 s timeout). It
# builds at -O1 (asserts kept), as ASan's own docs advise: the report test took 870 s at -O0 and
# 520 s at -O1 on the dev VM, for 140 s more build.
# Runs every stage, then prints one line per stage and exits non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

bash tools/deps.sh all || exit 1

results=()
fails=0
stage() { # stage <name> <command...>
  local name=$1; shift
  echo; echo "=== $name"
  local t0=$SECONDS
  if "$@"; then results+=("pass  $name ($((SECONDS - t0)) s)");
  else results+=("FAIL  $name ($((SECONDS - t0)) s)"); fails=$((fails + 1)); fi
}
build() { # build <dir> <cmake args...>
  local dir=$1; shift
  cmake -S . -B "$dir" -DPB_WERROR=ON "$@" >/dev/null && cmake --build "$dir" -j"$jobs"
}
unit() { local dir=$1; shift; ctest --test-dir "$dir" --output-on-failure -j"$jobs" "$@"; }

stage "gcc: build (-Werror)"          build build -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DPB_EMULATED=ON
# validate_all (validate --quick, 74 s of this stage's 254 s at stop 42) is a subset of the next stage,
# which validates every op and variant of this same build in full; the other stages keep it.
stage "gcc: unit tests"               unit build -E '^validate_all$'
stage "gcc: validate (all variants)"  ./build/posebench validate --json build/validate.json
stage "clang: build (-Werror)"        build build-clang -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang \
                                        -DPB_EMULATED=ON
# The report test here runs without its benchmark step (PB_REPORT_NO_BENCH=1, as the ASan build registers it):
# with it, it was this stage's long pole (215 s of 216 at stop 42), and the report's plots and page do not
# depend on the compiler; the clang-built bench keeps its own tests (bench_smoke, bench_cold).
PB_REPORT_NO_BENCH=1 stage "clang: unit tests" unit build-clang
stage "shared: build (-Werror)"       build build-shared -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
                                        -DPB_BUILD_BENCH=OFF
stage "shared: a shared build passes the tests" unit build-shared
stage "install: find_package + pkg-config consumer, static and shared" \
  env PB_JOBS="$jobs" bash tests/test_install.sh
stage "asan+ubsan: build"             build build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
                                        -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DPB_SANITIZE=ON -DCMAKE_C_COMPILER=gcc \
                                        -DPB_EMULATED=OFF
stage "asan+ubsan: unit tests"        unit build-asan
tsan() { # plans from many threads at once, the worker pool and the blocked frame on 2 and 3 threads, ops run
  # while other threads force variants and hide CPU features: no data race (ThreadSanitizer, clang, native kernels)
  cmake -S . -B build-tsan -DPB_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DPB_TSAN=ON \
    -DPB_EMULATED=OFF -DPB_BUILD_BENCH=OFF >/dev/null &&
    cmake --build build-tsan -j"$jobs" --target test_plan --target test_frame_blocks --target test_dispatch_threads &&
    TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/test_plan &&
    TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/test_frame_blocks &&
    TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/test_dispatch_threads
}
stage "tsan: plans, pool, blocked frame, dispatch switches" tsan
fuzz() { # the BVH parser, the graph JSON reader and the model importer under libFuzzer (+ASan/UBSan), from
  # their seed corpora, in the one time budget the BVH parser had alone: PB_FUZZ_SECONDS (default 120)
  # split 2:1:1 (60, 30 and 30 s), the BVH parser the largest share: the larger grammar, its corpus long
  # established. The importer's run caps what Assimp may take (-rss_limit_mb, -malloc_limit_mb; its OFF
  # reader once took 15.8 GB) and how long one input may run (-timeout: its SMD reader looped forever);
  # tests/fuzz/asset.lsan leaves Assimp's own leaks out of LeakSanitizer's report
  cmake -S . -B build-fuzz -DPB_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DPB_FUZZ=ON >/dev/null &&
    cmake --build build-fuzz -j"$jobs" --target fuzz_bvh --target fuzz_graph --target fuzz_asset || return 1
  local total=${PB_FUZZ_SECONDS:-120}; local bvh_s=$((total / 2)); local graph_s=$((total / 4))
  local asset_s=$((total - bvh_s - graph_s))
  local corpus st=0; corpus=$(mktemp -d) && mkdir "$corpus/bvh" "$corpus/graph" "$corpus/asset" || return 1
  build-fuzz/fuzz_bvh -max_total_time="$bvh_s" -max_len=4096 -dict=tests/fuzz/bvh.dict \
    -print_final_stats=1 "$corpus/bvh" tests/fuzz/seed 2>&1 | tail -n 12
  [ "${PIPESTATUS[0]}" = 0 ] || st=1
  build-fuzz/fuzz_graph -max_total_time="$graph_s" -max_len=8192 -dict=tests/fuzz/graph.dict \
    -print_final_stats=1 "$corpus/graph" tests/fuzz/graph_seed tests/graph data 2>&1 | tail -n 12
  [ "${PIPESTATUS[0]}" = 0 ] || st=1
  LSAN_OPTIONS=suppressions=tests/fuzz/asset.lsan:print_suppressions=0 \
    build-fuzz/fuzz_asset -max_total_time="$asset_s" -max_len=16384 -timeout=20 -rss_limit_mb=2048 \
    -malloc_limit_mb=512 -dict=tests/fuzz/asset.dict -print_final_stats=1 "$corpus/asset" tests/fuzz/asset_seed \
    2>&1 | tail -n 12
  [ "${PIPESTATUS[0]}" = 0 ] || st=1
  rm -rf "$corpus"; return "$st"
}
stage "fuzz: BVH parser, graph JSON reader, model importer (libFuzzer, ${PB_FUZZ_SECONDS:-120} s)" fuzz
stage "aarch64: cross build"          build build-aarch64 -DCMAKE_BUILD_TYPE=Release \
                                        -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DPB_EMULATED=OFF
# validate_all (validate --quick) is left to the next stage, which validates every op and variant in full
# (it took 263 s of this stage's 582 s under qemu, repeating a subset of the 753 s full run), and so is
# validate_isolation (the harness's verdicts do not depend on the order of ops: portable C that the gcc,
# clang, shared and ASan stages run; 188 s under qemu, a quick validation of every op). Also left out:
# cli (option parsing, messages and exit codes: 166 s under qemu) and bvh_memory (the BVH loader's
# memory bound: 93 s), portable C the four x86 stages run; the next stage runs the aarch64 CLI itself.
stage "aarch64: unit tests (qemu)"    unit build-aarch64 -E '^(validate_all|validate_isolation|cli|bvh_memory)$'
# validate --quick: every op, variant and input class but the 100003-element case, whose long-run
# indexing is the portable source the x86 stages validate in full (neon-emu among them); the
# blend-space and N-way tables, which --quick leaves out, run in full next. The full run took
# 1001 s of a 4029 s CI run under qemu (the quick one ~35 % of it, measured natively: 25 + 7 s of 75 s).
aarch64_validate() {
  local q=(qemu-aarch64 -L /usr/aarch64-linux-gnu build-aarch64/posebench validate)
  "${q[@]}" --quick --json build-aarch64/validate.json && "${q[@]}" --op bspace --op blend_n --json build-aarch64/validate_tables.json
}
stage "aarch64: validate (qemu, neon native)" aarch64_validate

echo; echo "=== summary"
printf '%s\n' "${results[@]}"
echo "stages: $(( ${#results[@]} - fails )) passed, $fails failed"
[ "$fails" = 0 ]
