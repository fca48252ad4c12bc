#!/bin/sh
# Proves that an installed carom is usable as README and docs/guide.md say: install into a
# scratch directory, then
# - check the shared library's SONAME (libcarom.so.0, the major version);
# - build tests/consumer/app.c with `cc app.c $(pkg-config --cflags --libs carom)` and run it
#   with LD_LIBRARY_PATH pointing at the install, then again linked with an rpath instead;
# - configure tests/consumer/ with CMake, find_package(carom) through CMAKE_PREFIX_PATH, build
#   it against carom::carom and carom::carom_static and run both (the shared one through the
#   rpath CMake gives a program in its build tree).
#   tests/install_check.sh BUILD_DIR [SANITIZE]
set -eu
build_root="$1"
sanitize="${2:-none}"   # the build's b_sanitize option: the programs must link the same runtimes
sanitize_flags=""
if [ "$sanitize" != "none" ] && [ -n "$sanitize" ]; then
    sanitize_flags="-fsanitize=$sanitize"
fi
consumer="$(cd "$(dirname "$0")" && pwd)/consumer"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
meson install -C "$build_root" --no-rebuild --destdir "$scratch/root" --quiet
pcdir=$(dirname "$(find "$scratch/root" -name carom.pc | head -n 1)")
libdir=$(dirname "$(find "$scratch/root" -name "libcarom.so*" | head -n 1)")
includedir=$(dirname "$(dirname "$(find "$scratch/root" -path "*/include/carom/carom.h")")")
prefix=$(dirname "$includedir")

version=$(sed -n 's/^Version: //p' "$pcdir/carom.pc")
major=${version%%.*}
soname=$(readelf -d "$libdir/libcarom.so.$version" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" != "libcarom.so.$major" ]; then
    echo "install: libcarom.so.$version has SONAME '$soname', expected libcarom.so.$major" >&2
    exit 1
fi

echo "install: pkg-config"
export PKG_CONFIG_PATH="$pcdir"
export PKG_CONFIG_SYSROOT_DIR="$scratch/root"
# shellcheck disable=SC2046 # pkg-config's output is a list of words
cc -std=c11 -Wall -Wextra -Werror $sanitize_flags "$consumer/app.c" -o "$scratch/app" \
    $(pkg-config --cflags --libs carom)
if ! readelf -d "$scratch/app" | grep -q "Shared library: \[libcarom.so.$major\]"; then
    echo "install: the program does not need libcarom.so.$major" >&2
    exit 1
fi
LD_LIBRARY_PATH="$libdir" "$scratch/app"
# The other way README gives: an rpath, and no LD_LIBRARY_PATH.
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror $sanitize_flags "$consumer/app.c" -o "$scratch/app_rpath" \
    $(pkg-config --cflags --libs carom) -Wl,-rpath,"$libdir"
env -u LD_LIBRARY_PATH "$scratch/app_rpath"

echo "install: CMake find_package(carom)"
cmake -S "$consumer" -B "$scratch/cmake-build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Werror $sanitize_flags" >"$scratch/cmake.log" 2>&1 ||
    { cat "$scratch/cmake.log"; exit 1; }
cmake --build "$scratch/cmake-build" >>"$scratch/cmake.log" 2>&1 ||
    { cat "$scratch/cmake.log"; exit 1; }
"$scratch/cmake-build/app_shared"
"$scratch/cmake-build/app_static"
