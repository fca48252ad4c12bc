#!/bin/sh
# Set up a fresh Debian machine for carom, build it, and run an example scene.
# Installs the Debian packages it needs (as root, or through sudo), configures the build in
# ./build with meson, compiles, and runs scenes/ball_drop.json with the carom command line.
# Safe to run again.
set -eu
cd "$(dirname "$0")"

packages="gcc meson ninja-build pkg-config cmake libcriterion-dev libstb-dev libcjson-dev libgif-dev"
missing=""
for package in $packages; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        sudo=""
    elif command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "setup.sh: need root (or sudo) to install:$missing" >&2
        exit 1
    fi
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $missing
fi

if [ -d build ]; then
    meson setup --reconfigure build
else
    meson setup build
fi
meson compile -C build
echo
echo "scenes/ball_drop.json: three balls dropped from 5 m, restitution 0, 0.5 and 0.9."
echo "Height (m) of each ball's center every 0.5 s, from the trace of"
echo "  build/tools/carom run scenes/ball_drop.json --time 3 --trace - --every 30"
build/tools/carom run scenes/ball_drop.json --time 3 --trace - --every 30 |
    awk -F, 'BEGIN { step = -1 }
             NR > 1 && $1 != step { if (line != "") print line; step = $1;
                                     line = sprintf("  t = %3.1f s", $2) }
             NR > 1 { line = line sprintf("   %-6s %5.2f", $3, $5) }
             END { print line }'
