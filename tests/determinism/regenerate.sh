#!/usr/bin/env bash
# Regenerate the determinism goldens after an intentional change to the engine's arithmetic or to
# the snapshot format: the golden snapshots tests/determinism/snapshots/SCENE.snap (each scene's
# FULL snapshot after step 100), tests/determinism/golden.txt and the self-test's constant in
# engine/selftest.c, from a native build (the build directory given, default build-det-regen,
# configured if missing). Then run tests/determinism/run_all.sh to confirm that every other build
# agrees with the new values and restores the new snapshots.
#
#   tests/determinism/regenerate.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."

build=${1:-build-det-regen}
program=$build/tests/determinism/determinism
golden=tests/determinism/golden.txt
snapshots=tests/determinism/snapshots
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" -Dtests=false -Dprograms=false >/dev/null
fi

# The program's stderr has a timing line per scene; on failure show the rest, which says why.
log=$build/regenerate.log
fail() {
    grep -v -E '^determinism: [a-z0-9_]+ +[0-9.]+ s$' "$log" >&2 || true
    echo "regenerate: $1" >&2
    exit 1
}

# 1. The snapshots first: golden.txt's resumed1000 lines come from restoring them, so they must
#    be compiled into the program before it writes golden.txt. The program built now may embed
#    stale ones; that does not matter here, since --write-snapshots only runs the scenes and saves.
#    Written to a fresh directory and then moved, so a failed run leaves the old ones and the
#    snapshot of a scene that no longer exists does not linger.
ninja -C "$build" tests/determinism/determinism >/dev/null
fresh=$build/snapshots.new
rm -rf "$fresh"
mkdir -p "$fresh" "$snapshots"
"$program" --write-snapshots "$fresh" 2>"$log" ||
    fail "writing the snapshots failed; $snapshots is unchanged"
rm -f "$snapshots"/*.snap
mv "$fresh"/*.snap "$snapshots"/
rmdir "$fresh"

# 2. Rebuilt, so the embedded bytes are the ones just written (embed_snapshots.py runs again
#    because the files changed), then golden.txt. --write fails if a resumed run does not give
#    the straight run's hash, and golden.txt is then left as it was.
ninja -C "$build" tests/determinism/determinism >/dev/null
if ! {
    echo "# scene steps hash (snapshot100: the step-100 snapshot's bytes; resumed1000: step 1000"
    echo "# after restoring snapshots/SCENE.snap): written by tests/determinism/regenerate.sh;"
    echo "# see docs/determinism.md"
    "$program" --write 2>"$log"
} >"$golden.new"; then
    rm -f "$golden.new"
    fail "the determinism program failed; $golden is unchanged"
fi
mv "$golden.new" "$golden"

# 3. The self-test's constant.
hash=$(awk '$1 == "selftest" { print $3 }' "$golden")
if ! [[ $hash =~ ^[0-9a-f]{16}$ ]]; then
    echo "regenerate: no selftest line in $golden" >&2
    exit 1
fi
sed -i -E "s/^(#define CAROM_SELFTEST_GOLDEN UINT64_C\\(0x)[0-9a-fA-F]{16}\\)/\\1$hash)/" \
    engine/selftest.c
grep -q "CAROM_SELFTEST_GOLDEN UINT64_C(0x$hash)" engine/selftest.c

ninja -C "$build" tests/determinism/determinism >/dev/null
"$program" --check "$golden" 2>/dev/null | tail -n 1
