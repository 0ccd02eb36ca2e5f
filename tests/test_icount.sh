#!/usr/bin/env bash
# test_icount.sh BUILD — tools/icount.sh on a small frame: every stage's row
# for every variant it counts (the frame row their sum), instructions where
# the stages run kernels, floors in ns as cycles over the clock given, the
# same counts on a second run (what makes them a measure on a noisy machine),
# and bad input refused with exit 2. Skips (77) without valgrind, python3 or
# objdump.
# Checks read the tables from here-strings, not from `echo | grep -q`: under
# pipefail a grep that exits on its first match can leave echo a closed pipe
# (SIGPIPE, status 141) and fail a check that holds.
set -uo pipefail
build=$1
here=$(cd "$(dirname "$0")/.." && pwd)
for c in valgrind python3 objdump; do
  command -v "$c" >/dev/null || { echo "test_icount: $c not installed: skipped"; exit 77; }
done
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
run() { bash "$here/tools/icount.sh" --build "$build" "$@"; }

out1=$(run --characters 16 --frames 1 --variant scalar --variant sse41 --ghz 3) || { echo "FAIL icount.sh exit $?"; exit 1; }
out2=$(run --characters 16 --frames 1 --variant scalar --variant sse41 --ghz 3) || { echo "FAIL icount.sh exit $?"; exit 1; }
echo "$out1"
for v in scalar sse41; do
  tab=$(awk -v v="$v" '$1 == v {on = 1; next} /instructions per joint/ {on = 0} on' <<< "$out1")
  for s in sample_src sample_dst transition additive legs_fk ik fk palette skin frame; do
    check "$v: a $s row" "grep -q '^$s ' <<< \"\$tab\""
  done
  # the kernels' stages count instructions, vector ones for sse41, and the frame sums the stages
  for s in sample_dst transition additive fk palette; do
    check "$v: $s counts instructions" "awk '\$1 == \"$s\" && \$2 > 10 {f = 1} END {exit !f}' <<< \"\$tab\""
  done
  [ "$v" = sse41 ] && check "sse41: vector arithmetic in sample_dst" \
    "awk '\$1 == \"sample_dst\" && \$3 > 5 {f = 1} END {exit !f}' <<< \"\$tab\""
  check "$v: the frame row is the stages' sum" \
    "awk '\$1 == \"frame\" {t = \$2} \$1 != \"frame\" && \$1 != \"stage\" {s += \$2} END {d = t - s; exit !(t > 0 && d < 0.6 && d > -0.6)}' <<< \"\$tab\""
  check "$v: floors in ns at --ghz 3 are cycles / 3" \
    "awk '\$1 == \"frame\" {d = \$10 - \$9 / 3; exit !(d < 0.05 && d > -0.05)}' <<< \"\$tab\""
  # multiplies and fused multiply-adds are vector arithmetic: some in every kernel stage, never more than valu
  check "$v: vmul within valu, some in each kernel stage" \
    "awk '\$1 ~ /^(sample_dst|transition|additive|fk|palette)\$/ && !(\$8 > 0.5 && \$8 <= \$3) {bad = 1} END {exit bad}' <<< \"\$tab\""
done
check "the same counts on a second run" '[ "$out1" = "$out2" ]'
# the cubic sampler counts more than the linear one in the same build (three more keys, Hermite terms)
cub=$(run --characters 16 --frames 1 --variant sse41 --sampler cubic) || { echo "FAIL icount.sh --sampler cubic exit $?"; exit 1; }
lin_s=$(awk '/^sse41/ {on = 1} on && $1 == "sample_dst" {print $2; exit}' <<< "$out1")
cub_s=$(awk '$1 == "sample_dst" {print $2; exit}' <<< "$cub")
check "sample_cubic counts more than sample_linear ($cub_s > $lin_s per joint)" "awk 'BEGIN {exit !($cub_s > $lin_s)}'"
check "the cubic table is headed sample_cubic" "grep -q 'sample_cubic' <<< \"\$cub\""
refused() { # refused <name> <args...>: exit 2 and a message
  local name=$1; shift
  local err; err=$(run "$@" 2>&1 >/dev/null); local st=$?
  check "$name refused (exit 2, a message)" "[ $st -eq 2 ] && [ -n \"\$err\" ]"
}
refused "avx512 (valgrind cannot run it)" --variant avx512 --characters 16 --frames 1
refused "an unknown variant" --variant nope --characters 16 --frames 1
refused "--characters 0" --characters 0
refused "--frames x" --frames x
refused "an unknown method" --method nope
refused "an unknown sampler" --sampler nope
refused "--ghz -1" --ghz -1
refused "an unknown argument" --bogus
exit $fail
