#!/usr/bin/env bash
# icount.sh — instructions per joint of each stage of the default frame,
# counted by valgrind (callgrind), not timed: a measure that noise on a shared
# machine does not move, for comparing two builds of a compute-bound kernel,
# and the issue floor that says how far a stage's vector arithmetic alone
# allows it to go (tools/icount/icount.py explains the columns).
#   tools/icount.sh [--build DIR] [--variant NAME]... [--characters N] [--frames K]
#                   [--method KEY] [--sampler linear|cubic|turns] [--ghz G]
# Defaults: build/ (a Release build of this tree: the counts are those of its
# flags), every variant this CPU runs but AVX-512 (valgrind does not run
# AVX-512 code, so it is refused), 200 characters, 3 frames, inertialize,
# sample_linear, no clock (floors in cycles only). Counts are the same on
# every run of one build. Needs valgrind, python3 and objdump (binutils):
# tools/deps.sh all installs them.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build; variants=(); chars=200; frames=3; method=inertialize; sampler=linear; ghz=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --variant) variants+=("$2"); shift 2 ;;
    --characters) chars=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --method) method=$2; shift 2 ;;
    --sampler) sampler=$2; shift 2 ;;
    --ghz) ghz=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "icount.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for c in valgrind python3 objdump; do
  command -v "$c" >/dev/null || { echo "icount.sh: $c not found (tools/deps.sh all installs it)" >&2; exit 2; }
done
driver=$build/frame_icount
[ -x "$driver" ] || { echo "icount.sh: no $driver: build this tree with valgrind installed and a static library" \
  "(cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release && cmake --build $build --target frame_icount)" >&2; exit 2; }
num() { # num <option> <value> <lo> <hi>
  [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
    { echo "icount.sh: $1 $2 is not an integer in $3..$4" >&2; exit 2; }
}
num --characters "$chars" 1 4096
num --frames "$frames" 1 1000
case "$sampler" in linear|cubic|turns) ;; *) echo "icount.sh: --sampler $sampler is not linear, cubic or turns" >&2; exit 2 ;; esac
[[ $ghz =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "icount.sh: --ghz $ghz is not a number (GHz, e.g. 3.5)" >&2; exit 2; }
methods=$("$driver" --methods)   # a variable, not a pipe into grep -q (a SIGPIPE under pipefail)
grep -qx -- "$method" <<<"$methods" ||
  { echo "icount.sh: --method $method is not a frame method ($(tr '\n' ' ' <<<"$methods"))" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t runs < <("$driver" --list)
[ ${#variants[@]} -gt 0 ] || mapfile -t variants < <(printf '%s\n' "${runs[@]}" | grep -v '^avx512')
for v in "${variants[@]}"; do
  case "$v" in avx512*) echo "icount.sh: valgrind cannot run $v code; pick another variant" >&2; exit 2 ;; esac
  printf '%s\n' "${runs[@]}" | grep -x -- "$v" >/dev/null ||
    { echo "icount.sh: variant '$v' is not one this build runs on this CPU (${runs[*]})" >&2; exit 2; }
done
for v in "${variants[@]}"; do
  valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --compress-strings=no \
           --callgrind-out-file="$tmp/cg.$v" "$driver" "$v" "$chars" "$frames" "$method" 48 "$sampler" \
           >"$tmp/run.$v" 2>"$tmp/err.$v" || { cat "$tmp/run.$v" "$tmp/err.$v" >&2; exit 1; }
  # the crowd's joints as the driver reports them (characters x the scene's joints)
  joints=$(sed -n 's/.*, \([0-9]*\) characters x \([0-9]*\) joints,.*/\1 \2/p' "$tmp/run.$v" | awk '{print $1 * $2}')
  [ -n "$joints" ] || { echo "icount.sh: the driver did not report its crowd" >&2; cat "$tmp/run.$v" >&2; exit 1; }
  python3 tools/icount/icount.py "$driver" "$tmp/cg.$v" --joints "$joints" --frames "$frames" \
          --variant "$v ($method, sample_${sampler/turns/linear_turns})" --ghz "$ghz"
done
