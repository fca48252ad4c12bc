/* A program that uses an installed or vendored carom the way an application does: it checks
 * that this build of the library reproduces carom's reference bits (the self-test), then drops a
 * ball for 1 s. tests/install_check.sh builds it with pkg-config and with CMake's
 * find_package(carom); tests/vendor_check.sh with carom as a meson subproject and as a CMake
 * add_subdirectory. Exit status 0 when both results are right. */
#include <carom/carom.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

int main(void) {
    uint64_t hash = 0;
    if (carom_determinism_selftest(&hash) != CAROM_OK) {
        printf("self-test failed: %s\n", carom_last_error());
        return 1;
    }
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
    printf("carom %s: self-test hash %016" PRIx64 ", fell to y = %.3f after 1 s\n",
           carom_version_string(), hash, y);
    carom_destroy_world(world);
    return fabs(y + 5.0) < 0.2 ? 0 : 1; /* free fall: about -g/2 = -5 m */
}
