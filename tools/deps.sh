#!/usr/bin/env bash
# deps.sh — install the Debian/Ubuntu packages posebench needs, only those missing.
#   tools/deps.sh core   what the main job needs (build, validate, bench, the report's plots;
#                        libassimp-dev: the model importer, PB_ASSIMP, on where it is found; and
#                        assimp-testmodels: the CMU motion-capture clips its frame, budget and
#                        validation run on, and the skinned characters the asset tests import)
#   tools/deps.sh all    plus what the tests need (clang, sanitizers, aarch64 cross + qemu and the
#                        arm64 libraries it links (adds dpkg's arm64 architecture), chromium for the
#                        report test, GNU time for the memory test, valgrind and python3 for
#                        tools/icount.sh and its test, assimp-utils' `assimp info` for the
#                        importer's counts test)
# Uses apt-get as root, sudo otherwise; where neither works it prints the
# exact command to run and exits non-zero.
set -euo pipefail

core=(cmake make gcc g++ pkg-config libsimde-dev libbenchmark-dev libcjson-dev gnuplot-nox libassimp-dev
      assimp-testmodels)
# time: /usr/bin/time -v for the memory test (tests/test_bvh_memory.sh); valgrind, python3: tools/icount.sh
test_extra=(clang libclang-rt-14-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user chromium
            time valgrind python3 assimp-utils)
# The aarch64 cross build links the arm64 build of these (multiarch: dpkg --add-architecture arm64).
cross_libs=(libcjson-dev:arm64)

case "${1:-core}" in
  core) want=("${core[@]}") ;;
  all)  want=("${core[@]}" "${test_extra[@]}") ;;
  *) echo "usage: tools/deps.sh [core|all]" >&2; exit 2 ;;
esac

installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == *"install ok installed"* ]]; }
missing=()
for p in "${want[@]}"; do
  installed "$p" || missing+=("$p")
done
foreign=()   # cross libraries missing (all only): need the arm64 architecture first
if [ "${1:-core}" = all ]; then
  for p in "${cross_libs[@]}"; do
    installed "$p" || foreign+=("$p")
  done
fi
if [ ${#missing[@]} -eq 0 ] && [ ${#foreign[@]} -eq 0 ]; then
  n=${#want[@]}
  [ "${1:-core}" = all ] && n=$((n + ${#cross_libs[@]}))
  echo "deps: all $n packages present"
  exit 0
fi

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]} ${foreign[*]}"
if [ ${#foreign[@]} -gt 0 ]; then
  cmd="dpkg --add-architecture arm64 && $cmd"
fi
echo "deps: installing ${missing[*]} ${foreign[*]}"
if [ "$(id -u)" = 0 ]; then
  sh -c "$cmd"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo sh -c "$cmd"
else
  echo "deps: missing packages and no root or password-less sudo. Run as root:" >&2
  echo "  $cmd" >&2
  exit 1
fi
