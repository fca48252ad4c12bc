#!/usr/bin/env bash
# Regenerate the determinism goldens after an intentional change to the engine's arithmetic:
# tests/determinism/golden.txt and the self-test's constant in engine/selftest.c, from a native
# build (the build directory given, default build-det-regen, configured if missing). Then run
# tests/determinism/run_all.sh to confirm that every other build agrees with the new values.
#
#   tests/determinism/regenerate.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${1:-build-det-regen}
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" -Dtests=false -Dprograms=false >/dev/null
fi
ninja -C "$build" tests/determinism/determinism >/dev/null

golden=tests/determinism/golden.txt
{
    echo "# scene steps hash: written by tests/determinism/regenerate.sh; see docs/determinism.md"
    "$build/tests/determinism/determinism" --write 2>/dev/null
} >"$golden.new"
mv "$golden.new" "$golden"

hash=$(awk '$1 == "selftest" { print $3 }' "$golden")
if ! [[ $hash =~ ^[0-9a-f]{16}$ ]]; then
    echo "regenerate: no selftest line in $golden" >&2
    exit 1
fi
sed -i -E "s/^(#define CAROM_SELFTEST_GOLDEN UINT64_C\\(0x)[0-9a-fA-F]{16}\\)/\\1$hash)/" \
    engine/selftest.c
grep -q "CAROM_SELFTEST_GOLDEN UINT64_C(0x$hash)" engine/selftest.c

ninja -C "$build" tests/determinism/determinism >/dev/null
"$build/tests/determinism/determinism" --check "$golden" 2>/dev/null | tail -n 1
