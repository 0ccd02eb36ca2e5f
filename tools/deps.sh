#!/usr/bin/env bash
# deps.sh — install the Debian/Ubuntu packages posebench needs, only those missing.
#   tools/deps.sh core   what the main job needs (build, validate, bench, the report's plots)
#   tools/deps.sh all    plus what the tests need (clang, sanitizers, aarch64 cross + qemu, chromium
#                        for the report test)
# Uses apt-get as root, sudo otherwise; where neither works it prints the
# exact command to run and exits non-zero.
set -euo pipefail

core=(cmake make gcc g++ pkg-config libsimde-dev libcjson-dev libbenchmark-dev gnuplot-nox)
test_extra=(clang libclang-rt-14-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross libcjson-dev:arm64 qemu-user
            assimp-testmodels chromium)

case "${1:-core}" in
  core) want=("${core[@]}") ;;
  all)  want=("${core[@]}" "${test_extra[@]}") ;;
  *) echo "usage: tools/deps.sh [core|all]" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#want[@]} packages present"
  exit 0
fi

cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
# The cross build links the arm64 cJSON: apt needs the architecture first.
if [[ " ${missing[*]} " == *":arm64 "* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  cmd="dpkg --add-architecture arm64 && $cmd"
fi
echo "deps: installing ${missing[*]}"
if [ "$(id -u)" = 0 ]; then
  sh -c "$cmd"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo sh -c "$cmd"
else
  echo "deps: missing packages and no root or password-less sudo. Run as root:" >&2
  echo "  $cmd" >&2
  exit 1
fi
