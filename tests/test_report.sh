#!/usr/bin/env bash
# test_report.sh — the report end to end: `posebench report --quick` into a
# temporary folder, all nine plots there as png and svg, none of them empty
# (every SVG draws more marks than it has plot groups: an empty data set
# leaves at most its legend sample), a DRAM row in the copy bandwidth table,
# then index.html opened in headless Chromium in a 1400 px wide window:
# index.html's inline script writes on <body> (read back with --dump-dom)
# the images that loaded with a size, the tables without a data row, the
# page's scroll width (<= 1400: no horizontal scroll) and the elements wider
# than their box (0); a screenshot must come out as a non-empty PNG.
# usage: test_report.sh <path/to/posebench> <path/to/chromium>
# PB_REPORT_KEEP=DIR keeps the report and the screenshot there (for a look).
# PB_REPORT_NO_BENCH=1 (the sanitizer build's registration) runs report --quick --no-bench and
# checks that plots 1-4 are not drawn and the bench section says the benchmarks were left out instead of their
# data: under ASan the benchmark step is the bulk of the run and the bench command has its own
# test (test_bench.sh) in that build.
set -u
bin=$1; chrome=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL $*"; }

out=$tmp/report
start=$SECONDS
nobench=${PB_REPORT_NO_BENCH:-0}
args=(report --quick --out "$out"); [ "$nobench" = 1 ] && args+=(--no-bench)
"$bin" "${args[@]}" >"$tmp/stdout" 2>"$tmp/stderr"; st=$?
echo "report --quick: status $st in $((SECONDS - start)) s"
# 0, or 1 when validation (or a step) failed: the report must be written either way
if [ "$st" = 0 ] || [ "$st" = 1 ]; then ok; else bad "report exited with $st"; tail -20 "$tmp/stderr"; fi
[ "$st" = 1 ] && { echo "note: report exited 1:"; grep -E "FAILED|exited with|failed" "$tmp/stderr" | head -5; }
grep -qx "$out" "$tmp/stdout" && ok || bad "report did not print its folder: $(cat "$tmp/stdout")"

plots="1_ns_per_joint 2_speedup 3_copy_levels 4_bandwidth 5_validation 6_frame 7_budget 8_scaling 9_budget_sets"
for p in $plots; do
  case "$nobench:$p" in 1:1_*|1:2_*|1:3_*|1:4_*)   # left out: no plot, and the page says why
    [ ! -e "$out/$p.png" ] && ok || bad "--no-bench: $p.png was drawn"; continue ;; esac
  for ext in png svg; do
    [ -s "$out/$p.$ext" ] && ok || bad "missing or empty plot $p.$ext"
  done
  # marks (points, lines, boxes) inside gnuplot's plot groups vs the number of groups
  counts=$(awk '/<g id="gnuplot_plot_/ {g++; depth=1; next}
                depth > 0 { if ($0 ~ /<use|<path/) m++; n=gsub(/<g[ >]/, "&"); c=gsub(/<\/g>/, "&"); depth += n - c }
                END {print g+0, m+0}' "$out/$p.svg" 2>/dev/null)
  groups=${counts% *}; marks=${counts#* }
  if [ "${groups:-0}" -gt 0 ] && [ "${marks:-0}" -gt "$groups" ]; then ok;
  else bad "plot $p.svg looks empty: $marks marks in $groups plot groups"; fi
done
if [ "$nobench" = 1 ]; then
  grep -qi "left out" "$out/index.html" && ok || bad "--no-bench: index.html does not say the benchmarks were left out"
else
grep -q 'DRAM</td><td>-</td><td>from' "$out/index.html" && ! grep -q '<tr class="bad"><td>DRAM' "$out/index.html" && ok \
  || bad "the copy bandwidth table has no measured DRAM row"
[ -s "$out/bench_dram.json" ] && ok || bad "missing bench_dram.json (the DRAM-sized run)"
fi
grep -q '<h2 id="scaling">Fusion and threads' "$out/index.html" && grep -q '"fused_total_us"' "$out/frame.json" && ok \
  || bad "no fusion-and-threads section (frame.json's blocked rows)"
grep -Eq '^- \*\*streaming threshold\*\*: [0-9]+ bytes' "$out/summary.md" && ok \
  || bad "the context lacks the streaming threshold (pb_stream_bytes) the run had"
files="index.html summary.md validate.json frame.json budget.json"; [ "$nobench" = 1 ] || files="$files bench.json bench.csv"
for f in $files; do
  [ -s "$out/$f" ] && ok || bad "missing or empty $f"
done
if [ "$nobench" != 1 ]; then
# every registered op x every native variant in the bench JSON, with its copy ratio
ops=$("$bin" ops | awk '{print $1}')
natives=$("$bin" variants | awk '$4 == "native" {print $1}')
missing=""
for op in $ops; do
  for v in $natives; do
    grep -A14 "\"run_name\": \"$op/$v/" "$out/bench.json" | grep -q '"copy_ratio"' || missing="$missing $op/$v"
  done
done
[ -n "$ops" ] && [ -n "$natives" ] && [ -z "$missing" ] && ok \
  || bad "bench.json lacks (with copy_ratio):${missing:- no ops or variants listed}"
echo "bench.json: $(echo $ops | wc -w) ops x $(echo $natives | wc -w) native variants checked"
fi
png=1_ns_per_joint.png; [ "$nobench" = 1 ] && png=5_validation.png
head -c 8 "$out/$png" | od -An -c | grep -q "P   N   G" && ok || bad "$png is not a PNG"
grep -q "<svg" "$out/7_budget.svg" && ok || bad "7_budget.svg is not SVG"
# the budget plot: every method its own colour and its own marker (the left panel's point groups)
nmeth=$(grep -o 'array blab\[[0-9]*\]' "$out/data/vars.gp" | grep -o '[0-9]*')
pairs=$(awk '/<g id="gnuplot_plot_[0-9]+a"/ {g=1; next} g && /<use/ {match($0, /#gpPt[0-9]+/); h=substr($0,RSTART,RLENGTH);
             match($0, /color=.rgb\([^)]*\)/); print h, substr($0,RSTART,RLENGTH); g=0}' "$out/7_budget.svg" | sort -u)
ncol=$(awk '{print $2, $3, $4}' <<<"$pairs" | sort -u | grep -c .)
nmark=$(awk '{print $1}' <<<"$pairs" | sort -u | grep -c .)
if [ -n "$nmeth" ] && [ "$ncol" -ge "$nmeth" ] && [ "$nmark" -ge "$nmeth" ]; then ok;
else bad "7_budget.svg: $nmeth methods but $ncol colours and $nmark marker shapes"; fi
# the first screen: the three answers, the headline ops, and the real-data notice when the CMU clips are absent
grep -c '<li><b>\(What a frame costs here\|Which methods fit\|Is every kernel validated\)' "$out/index.html" |
  grep -qx 3 && ok || bad "index.html does not open with the three answers"
[ "$nobench" = 1 ] || { grep -q 'id="headline"' "$out/index.html" && ok || bad "no headline ops table"; }
if [ -f /usr/share/assimp/models/BVH/01_01.bvh ]; then
  ! grep -q 'No real motion capture' "$out/index.html" && ok || bad "CMU clips installed, yet the report says none"
else
  grep -q 'No real motion capture' "$out/index.html" && ok || bad "no CMU clips, and the report's first lines do not say so"
fi

# headless Chromium: a fresh profile, no network, no GPU
profile=$(mktemp -d -p "$tmp")
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-dev-shm-usage --user-data-dir="$profile"
       --virtual-time-budget=15000 --window-size=1400,2400 --hide-scrollbars)
url="file://$out/index.html"
HOME=$tmp timeout 180 "$chrome" "${flags[@]}" --dump-dom "$url" >"$tmp/dom.html" 2>"$tmp/chrome.log"
total=$(grep -o 'data-images-total="[0-9]*"' "$tmp/dom.html" | head -1 | grep -o '[0-9]*')
loaded=$(grep -o 'data-images-loaded="[0-9]*"' "$tmp/dom.html" | head -1 | grep -o '[0-9]*')
found=$(grep -o 'data-images-found="[0-9]*"' "$tmp/dom.html" | head -1 | grep -o '[0-9]*')
echo "chromium: images total=${total:-?} found=${found:-?} loaded=${loaded:-?}"
min_images=7; [ "$nobench" = 1 ] && min_images=4   # plots 1-4 come from the benchmarks
if [ -n "$total" ] && [ "$total" -ge "$min_images" ] && [ "$loaded" = "$total" ] && [ "$found" = "$total" ]; then ok;
else bad "not every image loaded in Chromium (dump: $(wc -c <"$tmp/dom.html") bytes)"; tail -5 "$tmp/chrome.log"; fi
grep -q "Frame pipeline" "$tmp/dom.html" && grep -q "Budget" "$tmp/dom.html" && ok || bad "index.html lacks its sections"
attr() { grep -o "data-$1=\"[^\"]*\"" "$tmp/dom.html" | head -1 | sed 's/^[^"]*"//; s/"$//'; }
tables=$(attr tables); empty=$(attr empty-tables); sw=$(attr scroll-width); wide=$(attr overflowing)
echo "chromium: tables=${tables:-?} without rows=${empty:-?} scrollWidth=${sw:-?} overflowing=${wide:-?} $(attr overflowing-what)"
[ -n "$tables" ] && [ "$tables" -ge 6 ] && [ "$empty" = 0 ] && ok || bad "a table has no data row (or no tables)"
[ -n "$sw" ] && [ "$sw" -le 1400 ] && ok || bad "the page scrolls sideways in a 1400 px window (scrollWidth $sw)"
[ "$wide" = 0 ] && ok || bad "elements wider than their box: $(attr overflowing-what)"
n_howto=$(grep -o 'class="howto"' "$tmp/dom.html" | wc -l)
[ "$n_howto" -ge 4 ] && ok || bad "expected a 'how to read this' paragraph per section, found $n_howto"
grep -q "Library was built as DEBUG" "$tmp/dom.html" && grep -q "timed code built with" "$tmp/dom.html" && ok \
  || bad "the report does not explain Google Benchmark's DEBUG note next to the kernels' -O level"

HOME=$tmp timeout 180 "$chrome" "${flags[@]}" --screenshot="$tmp/shot.png" "$url" >/dev/null 2>>"$tmp/chrome.log"
size=$(stat -c %s "$tmp/shot.png" 2>/dev/null || echo 0)
if [ "$size" -gt 20000 ] && head -c 8 "$tmp/shot.png" | od -An -c | grep -q "P   N   G"; then ok;
else bad "screenshot missing or tiny ($size bytes)"; tail -5 "$tmp/chrome.log"; fi

if [ -n "${PB_REPORT_KEEP:-}" ]; then
  mkdir -p "$PB_REPORT_KEEP" && cp -r "$out" "$PB_REPORT_KEEP/" && cp "$tmp/shot.png" "$PB_REPORT_KEEP/" \
    && echo "kept in $PB_REPORT_KEEP"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
