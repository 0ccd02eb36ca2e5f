#!/usr/bin/env bash
# test_install.sh — the installed package works for a program outside the tree:
# for a static and a shared build of the runtime (no harness, CLI, tests or
# emulated kernels: only what an engine gets), configure + build + install
# into a temporary prefix, then build tests/consumer against it twice —
# find_package(posebench CONFIG) and pkg-config (--static for the static
# library) — and run both. Then both builds go into one prefix, as a distribution
# ships them: posebench-static.pc links the archive (the static consumer needs no
# libposebench.so), posebench.pc the shared library, which runs through the library
# path (LD_LIBRARY_PATH) or an rpath. Any failing step stops the script with a message.
# usage: tests/test_install.sh [extra cmake args...]   (e.g. -DCMAKE_C_COMPILER=clang)
# PB_INSTALL_STATIC_BUILD=DIR, PB_INSTALL_SHARED_BUILD=DIR: install from that existing build tree
# (configured with PB_INSTALL, static or shared as named) instead of configuring and building one:
# tools/test.sh passes its gcc (static) and clang (shared) builds. A full build installs the same
# files as a runtime-only one (cmake/install.cmake names the library, headers and package files only);
# the checks below that nothing of the harness, CLI or tests is installed hold either way.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
jobs=${PB_JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step() { echo "--- $*"; }
die() { echo "test_install: FAILED: $*" >&2; exit 1; }

for kind in static shared; do
  shared=OFF; [ "$kind" = shared ] && shared=ON
  b=$tmp/build-$kind p=$tmp/prefix-$kind
  given=${PB_INSTALL_STATIC_BUILD:-}; [ "$kind" = shared ] && given=${PB_INSTALL_SHARED_BUILD:-}
  if [ -n "$given" ]; then
    b=$(cd "$given" && pwd) || die "$kind: no build tree $given"
    cache=$b/CMakeCache.txt
    grep -Eqx "BUILD_SHARED_LIBS:BOOL=$shared" "$cache" || die "$kind: $given is not a BUILD_SHARED_LIBS=$shared build"
    grep -Eqx 'PB_INSTALL:BOOL=ON' "$cache" || die "$kind: $given has no install rules (PB_INSTALL=OFF)"
    step "$kind: install $given (built already) into $p"
    cmake --build "$b" -j"$jobs" --target posebench >"$tmp/build-$kind.log" || { tail -30 "$tmp/build-$kind.log"; die "$kind: build"; }
  else
    step "$kind: configure, build, install into $p"
    cmake -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DPB_WERROR=ON -DBUILD_SHARED_LIBS=$shared \
      -DPB_EMULATED=OFF -DPB_BUILD_CLI=OFF -DPB_BUILD_TESTS=OFF -DPB_BUILD_BENCH=OFF -DPB_INSTALL=ON "$@" \
      >"$tmp/cfg-$kind.log" || { cat "$tmp/cfg-$kind.log"; die "$kind: configure"; }
    cmake --build "$b" -j"$jobs" >"$tmp/build-$kind.log" || { tail -30 "$tmp/build-$kind.log"; die "$kind: build"; }
  fi
  eval "build_$kind=\$b"
  cmake --install "$b" --prefix "$p" >/dev/null || die "$kind: install"

  # What an engine gets: public headers (no internal ones), the runtime, the package files.
  for f in include/posebench/posebench.h include/posebench/export.h include/posebench/version.h; do
    [ -f "$p/$f" ] || die "$kind: $f not installed"
  done
  for f in internal.h validate.h all_variants.h; do
    [ -z "$(find "$p" -name "$f")" ] || die "$kind: private header $f installed"
  done
  [ -z "$(find "$p" -name '*harness*')" ] || die "$kind: the harness was installed"
  lib=$(find "$p" -name "libposebench.$([ $kind = shared ] && echo so || echo a)" | head -1)
  [ -n "$lib" ] || die "$kind: libposebench not installed"
  cfg=$(find "$p" -name posebenchConfig.cmake | head -1); pc=$(find "$p" -name posebench.pc | head -1)
  [ -n "$cfg" ] && [ -f "$(dirname "$cfg")/posebenchConfigVersion.cmake" ] || die "$kind: CMake package missing"
  [ -n "$pc" ] || die "$kind: posebench.pc missing"
  spc=$(find "$p" -name posebench-static.pc | head -1)
  if [ $kind = static ]; then [ -n "$spc" ] || die "static: posebench-static.pc missing"
  else [ -z "$spc" ] || die "shared: posebench-static.pc installed (it names an archive a shared build has not)"; fi
  if [ $kind = shared ]; then
    # Only the API is exported: no kernel tables, no static helpers; the internal entry points are.
    syms=$(nm -D --defined-only "$lib" | awk '{print $3}')
    grep -qx pb_blend_static <<<"$syms" && grep -qx pb_version <<<"$syms" || die "shared: API not exported"
    grep -qx pb_fail <<<"$syms" || die "shared: PB_INTERNAL pb_fail not exported"
    ! grep -q '^pb_table_' <<<"$syms" || die "shared: kernel tables exported: visibility not hidden"
    grep -q 'SONAME.*libposebench\.so\.' <<<"$(readelf -d "$lib")" || die "shared: no versioned SONAME"
  fi

  step "$kind: consumer with find_package(posebench CONFIG)"
  cmake -S "$src/tests/consumer" -B "$tmp/consumer-$kind" -DCMAKE_PREFIX_PATH="$p" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" "$@" >"$tmp/ccfg-$kind.log" || { cat "$tmp/ccfg-$kind.log"; die "$kind: consumer configure"; }
  cmake --build "$tmp/consumer-$kind" || die "$kind: consumer build (CMake)"
  "$tmp/consumer-$kind/consumer" || die "$kind: consumer run (CMake)"
  "$tmp/consumer-$kind/frame_crowd" 16 5 || die "$kind: examples/frame_crowd run (CMake)"

  step "$kind: consumer with pkg-config"
  pcflags=(--cflags --libs); [ $kind = static ] && pcflags=(--static --cflags --libs)
  flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config "${pcflags[@]}" posebench) || die "$kind: pkg-config"
  echo "pkg-config ${pcflags[*]} posebench: $flags"
  # shellcheck disable=SC2086  # word splitting of pkg-config's flags is intended
  ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/consumer-pc-$kind" "$src/tests/consumer/main.c" $flags -lm \
    || die "$kind: consumer build (pkg-config)"
  if [ $kind = shared ]; then
    LD_LIBRARY_PATH=$(dirname "$lib") "$tmp/consumer-pc-$kind" || die "shared: consumer run (pkg-config)"
    grep -q "libposebench.so" <<<"$(ldd "$tmp/consumer-$kind/consumer")" || die "shared: CMake consumer not linked to the .so"
  else
    "$tmp/consumer-pc-$kind" || die "static: consumer run (pkg-config)"
  fi
  echo "$kind: consumer $(stat -c %s "$tmp/consumer-$kind/consumer") B (CMake), $(stat -c %s "$tmp/consumer-pc-$kind") B (pkg-config)"
done

# needed <binary>: the shared libraries it names (readelf's NEEDED entries), one a line.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
p=$tmp/prefix-both
step "both: the shared build, then the static one, installed into $p"
cmake --install "$build_shared" --prefix "$p" >/dev/null || die "both: install shared"
cmake --install "$build_static" --prefix "$p" >/dev/null || die "both: install static"
pcdir=$(dirname "$(find "$p" -name posebench.pc | head -1)")
lib=$(dirname "$(find "$p" -name libposebench.a | head -1)")
[ -n "$(find "$lib" -name 'libposebench.so*')" ] || die "both: no libposebench.so beside the .a"
for mod in posebench-static posebench; do   # as docs/library.md says: --static with the first
  pcargs=(--cflags --libs); [ $mod = posebench-static ] && pcargs=(--static --cflags --libs)
  flags=$(PKG_CONFIG_PATH=$pcdir pkg-config "${pcargs[@]}" $mod) || die "both: pkg-config $mod"
  echo "pkg-config ${pcargs[*]} $mod: $flags"
  # shellcheck disable=SC2086  # word splitting of pkg-config's flags is intended
  ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/consumer-both-$mod" "$src/tests/consumer/main.c" \
    $flags -lm || die "both: consumer build ($mod)"
done
static_needs=$(needed "$tmp/consumer-both-posebench-static")
! grep -q libposebench <<<"$static_needs" || die "both: the static consumer needs $(grep libposebench <<<"$static_needs")"
env -u LD_LIBRARY_PATH "$tmp/consumer-both-posebench-static" || die "both: static consumer run"
grep -q '^libposebench\.so\.' <<<"$(needed "$tmp/consumer-both-posebench")" || die "both: shared consumer has no libposebench.so"
# docs/library.md: a shared install outside the loader's paths runs through LD_LIBRARY_PATH, or an rpath
if env -u LD_LIBRARY_PATH "$tmp/consumer-both-posebench" >/dev/null 2>&1; then
  echo "both: (the shared consumer found libposebench.so without the library path: $p is in the loader's paths)"
fi
LD_LIBRARY_PATH=$lib "$tmp/consumer-both-posebench" || die "both: shared consumer run (LD_LIBRARY_PATH)"
# shellcheck disable=SC2046  # word splitting of pkg-config's flags is intended
${CC:-cc} -std=c11 -o "$tmp/consumer-both-rpath" "$src/tests/consumer/main.c" \
  $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs posebench) -lm \
  -Wl,-rpath,"$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir posebench)" || die "both: consumer build (rpath)"
env -u LD_LIBRARY_PATH "$tmp/consumer-both-rpath" || die "both: shared consumer run (rpath)"
echo "both: static consumer needs [$(tr '\n' ' ' <<<"$static_needs")], shared consumer runs via LD_LIBRARY_PATH and rpath"
echo "test_install: static and shared packages pass (find_package and pkg-config), and both in one prefix"
