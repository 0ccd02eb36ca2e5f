#!/usr/bin/env bash
# test_docs.sh — README and the manual agree with the code:
#   1. docs/ops.md and docs/cli-options.md are what the code generates (tools/docs.sh --check);
#      the help is at most 100 columns wide and lists every POSEBENCH_* variable the code reads;
#   2. README.md stays the front door: at most 250 lines;
#   3. every relative link of README.md and docs/*.md names a file that exists;
#   4. README's C example compiles against this build's library and runs (exit 0);
#   5. every shell line README shows runs as written, in its quick form: `posebench ...` lines
#      with --quick added where the command has it (report also --no-bench, into a scratch
#      folder), tools/*.sh checked for syntax and their --help run. Build, install and link lines
#      (cmake, cc, export) are left to tests/test_install.sh, which runs the same steps.
#      In a sanitizer build (EXTRA_CFLAGS with -fsanitize) the `posebench ...` lines are checked for
#      a known command but not run: the gcc and clang builds' docs test runs them, and under ASan they
#      were 690 s of the test's 705 (CI's ASan stage); their code paths run under the sanitizers in the
#      cli, frame, budget and report tests.
# usage: test_docs.sh POSEBENCH_BINARY LIBPOSEBENCH BUILD_INCLUDE_DIR [CC [EXTRA_CFLAGS]]
#   CC and EXTRA_CFLAGS: the build's compiler and its sanitizer flags, for README's example
set -uo pipefail
pb=$1 lib=$2 binc=$3 cc=${4:-cc} ccflags=${5:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# 1
bash tools/docs.sh --check "$pb" || fail "generated docs drifted from the code"

# 1b: the help itself: no line past 100 columns, every environment variable the code reads listed
for c in "" variants ops validate bench frame budget report; do
  if [ -z "$c" ]; then "$pb" help; else "$pb" "$c" --help; fi
done >"$tmp/help" 2>&1 || fail "a --help exited non-zero"
awk 'length > 100 {print "help line of " length " columns: " $0; bad=1} END {exit bad}' "$tmp/help" ||
  fail "help wider than 100 columns"
for v in $(grep -rhoE 'getenv\("POSEBENCH_[A-Z_]+"\)|"POSEBENCH_[A-Z_]+"' src cli bench | grep -oE 'POSEBENCH_[A-Z_]+' | sort -u); do
  grep -q "$v" "$tmp/help" || fail "posebench help does not list $v, which the code reads"
done

# 2
n=$(wc -l <README.md)
[ "$n" -le 250 ] || fail "README.md has $n lines (at most 250: the manual is docs/)"

# 3
for f in README.md docs/*.md; do
  dir=$(dirname "$f")
  # [text](target) with a relative target (no scheme, not an anchor alone)
  grep -o '\]([^)#][^)]*)' "$f" | sed 's/^](//; s/)$//; s/#.*//' | grep -v '^[a-z]*://' | sort -u |
    while read -r t; do
      [ -e "$dir/$t" ] || echo "$f: link to $t: no such file"
    done
done >"$tmp/links"
[ -s "$tmp/links" ] && { cat "$tmp/links"; fail "broken links"; }

# 4
awk '/^```c$/{f=1; next} /^```/{f=0} f' README.md >"$tmp/example.c"
if [ ! -s "$tmp/example.c" ]; then
  fail "README.md has no C example"
else
  # shellcheck disable=SC2086  # ccflags: zero or more flags
  "$cc" -std=c11 -Wall -Wextra -Werror $ccflags -I include -I "$binc" "$tmp/example.c" "$lib" -Wl,-rpath,"$(dirname "$lib")" \
    -lm -lpthread -o "$tmp/example" &&
    "$tmp/example" >"$tmp/example.out" 2>&1 || { cat "$tmp/example.out" 2>/dev/null; fail "README's C example"; }
fi

# 5
awk '/^```sh$/{f=1; next} /^```/{f=0} f' README.md | sed 's/[[:space:]]#.*$//; s/^[[:space:]]*//' | grep -v '^$' \
  >"$tmp/lines"
ran=0
while read -r line; do
  read -ra w <<<"$line"
  case "${w[0]}" in
    cmake|cc|export|ctest|sudo|git) continue ;;
    bash)
      s=${w[1]}
      [ -f "$s" ] || { fail "README runs $s: no such script"; continue; }
      bash -n "$s" || fail "$s: syntax"
      case "$s" in tools/main.sh) bash "$s" --help >/dev/null </dev/null || fail "$s --help" ;; esac
      ran=$((ran + 1)) ;;
    posebench|build/posebench|./build/posebench)
      args=("${w[@]:1}")
      cmd=""
      for a in "${args[@]}"; do case "$a" in -*) ;; *) cmd=$a; break ;; esac; done
      if [[ "$ccflags" == *-fsanitize* ]]; then
        "$pb" "$cmd" --help >/dev/null 2>&1 || fail "README's 'posebench ${args[*]}': no command '$cmd'"
        echo "README: posebench ${args[*]} (sanitizer build: its command's --help only)"
        ran=$((ran + 1)); continue
      fi
      extra=()
      # the help captured whole: grep -q closing the pipe early fails posebench's write (exit 2) under pipefail
      if [ -n "$cmd" ] && help=$("$pb" "$cmd" --help 2>/dev/null) && grep -q -- '--quick' <<<"$help"; then
        printf '%s\n' "${args[@]}" | grep -qx -- '--quick' || extra+=(--quick)
      fi
      [ "$cmd" = report ] && extra+=(--no-bench --out "$tmp/report")
      echo "README: posebench ${args[*]} ${extra[*]}"
      "$pb" "${args[@]}" "${extra[@]}" >"$tmp/out" 2>&1 </dev/null
      st=$?
      # a build without Google Benchmark (-DPB_BUILD_BENCH=OFF: CI's shared build) has no bench to run
      if [ "$cmd" = bench ] && [ $st = 2 ] && grep -q "this build has no Google Benchmark" "$tmp/out"; then
        echo "  (skipped: this build has no Google Benchmark)"; ran=$((ran + 1)); continue
      fi
      # budget's exit 1 is its finding "no method fits" on a slow host, not a failure to run
      if [ $st != 0 ] && ! { [ "$cmd" = budget ] && [ $st = 1 ]; }; then
        tail -n 20 "$tmp/out"; fail "README's 'posebench ${args[*]}' exited $st"
      fi
      ran=$((ran + 1)) ;;
    *) fail "README shows a shell line this test does not know how to run: $line" ;;
  esac
done <"$tmp/lines"
[ $ran -ge 2 ] || fail "README shows $ran runnable commands (expected the two commands and more)"

echo "docs: $fails failure(s)"
[ $fails = 0 ]
