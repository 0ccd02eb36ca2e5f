#!/usr/bin/env bash
# main.sh — the main job: install missing deps, build (with the emulated
# kernel builds: PB_EMULATED=ON), then `posebench report`:
# validate every op x variant, benchmark every op x native variant x size,
# time the frame pipeline and the transition budget, and write plots,
# index.html and summary.md into a new timestamped folder under reports/out/
# (never over tracked files; the folder is printed at the end). Extra
# arguments go to `posebench report` (e.g. --quick, --bvh FILE). Validation runs before
# the rest, as it always did: if it fails, the report is still written and
# this script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/deps.sh core
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPB_EMULATED=ON >/dev/null
cmake --build build -j"$(nproc)"
./build/posebench report "$@"
