#include "helpers.h"

#include <criterion/criterion.h>

carom_world_id test_make_world(carom_vec2 gravity) {
    carom_world_def def = carom_default_world_def();
    def.gravity = gravity;
    carom_world_id world = carom_create_world(&def);
    cr_assert(carom_world_is_valid(world), "world creation failed: %s", carom_last_error());
    return world;
}

carom_body_id test_make_ground(carom_world_id world, double top, double friction,
                               double restitution) {
    carom_body_def def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.friction = friction;
    shape.restitution = restitution;
    carom_shape_id id = carom_create_box_shape(ground, &shape, 100.0, 1.0,
                                               carom_v2(0.0, top - 1.0), 0.0);
    cr_assert(carom_shape_is_valid(id), "ground shape failed: %s", carom_last_error());
    return ground;
}

carom_body_id test_make_thin_wall(carom_world_id world, double x) {
    carom_body_def def = carom_default_body_def();
    carom_body_id wall = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_shape_id id = carom_create_box_shape(wall, &shape, 0.05, 2.0, carom_v2(x, 0.0), 0.0);
    cr_assert(carom_shape_is_valid(id), "wall shape failed: %s", carom_last_error());
    return wall;
}

carom_body_id test_make_ball(carom_world_id world, carom_vec2 p, double radius, carom_vec2 v,
                             double friction, double restitution) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = p;
    def.linear_velocity = v;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.friction = friction;
    shape.restitution = restitution;
    carom_circle circle = {{0.0, 0.0}, radius};
    carom_shape_id id = carom_create_circle_shape(body, &shape, &circle);
    cr_assert(carom_shape_is_valid(id), "ball shape failed: %s", carom_last_error());
    return body;
}

carom_body_id test_make_box(carom_world_id world, carom_vec2 p, double hx, double hy,
                            double angle, double friction, double restitution) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = p;
    def.angle = angle;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.friction = friction;
    shape.restitution = restitution;
    carom_shape_id id = carom_create_box_shape(body, &shape, hx, hy, carom_v2(0.0, 0.0), 0.0);
    cr_assert(carom_shape_is_valid(id), "box shape failed: %s", carom_last_error());
    return body;
}

uint64_t test_hash_bodies(const carom_body_id* bodies, int count) {
    carom_clear_last_error();
    uint64_t hash = carom_bodies_hash(bodies, count);
    cr_assert_eq(carom_last_status(), CAROM_OK, "carom_bodies_hash failed: %s", carom_last_error());
    return hash;
}

void test_step(carom_world_id world, double dt, int n) {
    for (int i = 0; i < n; ++i) {
        carom_status status = carom_world_step(world, dt);
        cr_assert_eq(status, CAROM_OK, "step %d failed: %s", i, carom_last_error());
    }
}
