#!/usr/bin/env bash
# main.sh — the main job: install missing deps (tools/deps.sh core, the CMU clips among them),
# build, then `posebench report`: validate every op x variant this CPU runs, benchmark the ops
# at three sizes (L1, L2, last-level cache) plus one past the caches, time the frame pipeline
# on the CMU and synthetic characters, and the transition budget; plots, index.html and
# summary.md go into a new timestamped folder under reports/out/ (printed at the end).
#   bash tools/main.sh            about 10 minutes on 2 cores, build included (README)
#   bash tools/main.sh --quick    about 3 minutes: short validation, two sizes, small crowds
#   bash tools/main.sh --full     every size 64 .. 1 M joints, longer runs, and the emulated
#                                 kernel builds (every ISA validated through SIMDe, even
#                                 those this CPU lacks): about 45 minutes
# Other arguments go to `posebench report` (--bvh FILE, --out DIR, --no-bench; see
# `build/posebench report --help`). Exits non-zero if validation fails, after writing the report.
set -euo pipefail
cd "$(dirname "$0")/.."

emulated=OFF
for a in "$@"; do
  case "$a" in
    --full) emulated=ON ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  esac
done

bash tools/deps.sh core
t0=$SECONDS
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPB_EMULATED=$emulated >/dev/null
cmake --build build -j"$(nproc)"
echo "main: build took $((SECONDS - t0)) s (emulated kernel builds: $emulated)"
./build/posebench report "$@"
