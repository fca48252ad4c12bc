#!/usr/bin/env bash
# The web pages (docs/web.md): the racing demo as its own WebAssembly module,
# build-web/racing.mjs + racing.wasm (web/racing_js.c over demos/racing's race, AI and track,
# linked with the engine objects web/build compiled for carom.wasm), the pages of web/pages/ and
# the scene player's examples, all copied into the output folder. web/build runs it as
#   web/build_pages.sh OUT_DIR ENGINE_OBJECT...
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: web/build_pages.sh OUT_DIR ENGINE_OBJECT... (web/build runs it)" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"
shift
mkdir -p "$out"

# emcc's optimiser needs node's acorn module (docs/determinism.md).
export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"

# The race, unchanged, with web/racing_js.c's readers, as an ES module for the browser.
emcc -O2 -std=c11 -ffp-contract=off -fno-math-errno -Wall -Wextra -Werror \
    -I"$root/include" -I"$root/demos/racing" -idirafter /usr/include \
    "$root/web/racing_js.c" "$root/demos/racing/race.c" "$root/demos/racing/ai.c" \
    "$root/demos/racing/track.c" "$@" \
    -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=loadRacing -sENVIRONMENT=web \
    -sALLOW_MEMORY_GROWTH=1 -sEXPORTED_FUNCTIONS=_malloc,_free \
    -sEXPORTED_RUNTIME_METHODS=UTF8ToString \
    -o "$out/racing.mjs"

# The pages, and the scene player's examples: the seed scenarios (scenes/seeds/) and the
# billiard break (scenes/billiards.json).
cp "$root"/web/pages/*.html "$root"/web/pages/*.js "$root"/web/pages/*.css "$out/"
mkdir -p "$out/examples"
cp "$root"/scenes/seeds/*.json "$root/scenes/billiards.json" "$out/examples/"
echo "web/build_pages.sh: wrote $out/racing.mjs, the pages and examples/"
