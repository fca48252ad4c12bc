#!/bin/sh
# Draw every image in docs/images/ again with the build in BUILD, each with the command the docs
# show for it. With OUT, the images go there instead (tests/check_images.py draws them into a
# scratch folder and compares them with the committed ones, byte for byte).
#
#   tools/regenerate_images.sh BUILD [OUT]
#   meson compile -C BUILD regenerate-images      (the same, into docs/images/)
#
# Run it after a change that alters a picture on purpose (physics, drawing, a demo), and commit
# the images with the change: the test doc_images fails until they match.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: tools/regenerate_images.sh BUILD [OUT]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$root/docs/images}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"

# README.md and docs/racing.md: the racing demo's final frame.
"$build/demos/racing/racing" --headless --seconds 60 --png "$out/racing.png" --inset 9 --rays \
    >/dev/null 2>&1
# docs/racing.md: the seed scenarios (each also checks itself and fails if its check does).
for seed in sat_boxes mtd star billiards; do
    "$build/demos/seeds/$seed" "$out/$seed.png" >/dev/null
done
# README.md and docs/cli.md: `carom render`'s animation of the billiards break.
"$build/tools/carom" render scenes/billiards.json --steps 240 --gif "$out/billiards.gif" --quiet
