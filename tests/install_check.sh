#!/bin/sh
# Proves that an installed carom is usable with nothing but pkg-config: install into a scratch
# directory, compile a tiny program with `cc app.c $(pkg-config --cflags --libs carom)`, run it.
set -eu
build_root="$1"
sanitize="${2:-none}"   # the build's b_sanitize option: the app must link the same runtimes
sanitize_flags=""
if [ "$sanitize" != "none" ] && [ -n "$sanitize" ]; then
    sanitize_flags="-fsanitize=$sanitize"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
meson install -C "$build_root" --no-rebuild --destdir "$scratch/root" --quiet
pcdir=$(dirname "$(find "$scratch/root" -name carom.pc | head -n 1)")
cat > "$scratch/app.c" <<'APP'
#include <carom/carom.h>
#include <math.h>
#include <stdio.h>
int main(void) {
    carom_world_def world_def = carom_default_world_def();
    carom_world_id world = carom_create_world(&world_def);
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    carom_body_id ball = carom_create_body(world, &body_def);
    carom_shape_def shape_def = carom_default_shape_def();
    carom_circle circle = {{0.0, 0.0}, 0.5};
    carom_create_circle_shape(ball, &shape_def, &circle);
    for (int i = 0; i < 60; ++i) {
        carom_world_step(world, 1.0 / 60.0);
    }
    double y = carom_body_get_position(ball).y;
    printf("fell to y = %.3f after 1 s\n", y);
    carom_destroy_world(world);
    return fabs(y + 5.0) < 0.2 ? 0 : 1; /* free fall: about -g/2 = -5 m */
}
APP
export PKG_CONFIG_PATH="$pcdir"
export PKG_CONFIG_SYSROOT_DIR="$scratch/root"
cc -std=c11 -Wall -Wextra -Werror $sanitize_flags "$scratch/app.c" -o "$scratch/app" $(pkg-config --cflags --libs carom) -lm
libdir=$(dirname "$(find "$scratch/root" -name "libcarom.so*" | head -n 1)")
LD_LIBRARY_PATH="$libdir" "$scratch/app"
