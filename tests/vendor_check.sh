#!/bin/sh
# Proves that carom builds inside another project, as docs/guide.md says, with the flags that
# keep its results bit-identical: tests/consumer/app.c (which runs carom_determinism_selftest()
# and fails if this build of carom does not reproduce carom's bits) is built and run
# - by a meson project with carom in subprojects/carom/ and dependency('carom') (carom's
#   meson.override_dependency);
# - by a CMake project that calls add_subdirectory() on carom's source tree (CMakeLists.txt).
#   tests/vendor_check.sh [SOURCE_DIR]
set -eu
source_dir=$(cd "${1:-$(dirname "$0")/..}" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "vendor: meson subproject"
mkdir -p "$scratch/meson/subprojects"
ln -s "$source_dir" "$scratch/meson/subprojects/carom"
cp "$source_dir/tests/consumer/app.c" "$scratch/meson/"
cat >"$scratch/meson/meson.build" <<'MESON'
project('vendor_meson', 'c', default_options : ['c_std=c11', 'warning_level=3', 'werror=true'])
subproject('carom')
executable('app', 'app.c', dependencies : dependency('carom'))
MESON
(cd "$scratch/meson" && meson setup build >"$scratch/meson.log" 2>&1 &&
    ninja -C build >>"$scratch/meson.log" 2>&1) || { cat "$scratch/meson.log"; exit 1; }
"$scratch/meson/build/app"

echo "vendor: CMake add_subdirectory"
mkdir -p "$scratch/cmake"
cp "$source_dir/tests/consumer/app.c" "$scratch/cmake/"
cat >"$scratch/cmake/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(vendor_cmake C)
add_subdirectory("$source_dir" carom)
add_executable(app app.c)
target_link_libraries(app PRIVATE carom::carom)
CMAKE
(cmake -S "$scratch/cmake" -B "$scratch/cmake/build" -G Ninja \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$scratch/cmake.log" 2>&1 &&
    cmake --build "$scratch/cmake/build" >>"$scratch/cmake.log" 2>&1) ||
    { cat "$scratch/cmake.log"; exit 1; }
"$scratch/cmake/build/app"
