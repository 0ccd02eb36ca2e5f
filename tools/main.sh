#!/usr/bin/env bash
# main.sh — the main job: install missing deps, build, validate every op x
# variant, and write the results into a new timestamped folder under
# reports/out/ (never over tracked files). Extra arguments go to
# `posebench validate` (e.g. --variant avx2, --op slerp_shortest).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/deps.sh core
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"

out="reports/out/$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$out"
{
  echo "# posebench run $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //' || uname -m)"
  echo "compiler: $(grep -m1 CMAKE_C_COMPILER: build/CMakeCache.txt | cut -d= -f2) ($(cc --version | head -1))"
  ./build/posebench variants
} > "$out/context.txt"
status=0
./build/posebench validate --json "$out/validate.json" "$@" | tee "$out/validate.txt" || status=$?
echo "results: $out (context.txt, validate.txt, validate.json)"
exit $status
