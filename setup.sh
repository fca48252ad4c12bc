#!/bin/sh
# Set up a fresh Debian machine for carom, build it, and run the bounce demo.
# Installs the Debian packages it needs (as root, or through sudo), configures the build in
# ./build with meson, compiles, and runs demos/bounce. Safe to run again.
set -eu
cd "$(dirname "$0")"

packages="gcc meson ninja-build pkg-config libcriterion-dev libstb-dev"
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
build/demos/bounce
