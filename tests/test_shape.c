/* Shapes: attaching, destroying, density changes and collision filtering. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>

Test(shape, destroying_a_shape_recomputes_the_body_mass) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id body = test_make_box(world, carom_v2(0.0, 0.0), 0.5, 0.5, 0.0, 0.6, 0.0);
    carom_shape_def def = carom_default_shape_def();
    carom_circle circle = {{2.0, 0.0}, 0.5};
    carom_shape_id extra = carom_create_circle_shape(body, &def, &circle);
    cr_assert_float_eq(carom_body_get_mass(body), 1.0 + CAROM_PI * 0.25, 1e-12);
    cr_assert_eq(carom_destroy_shape(extra), CAROM_OK);
    cr_assert_not(carom_shape_is_valid(extra));
    cr_assert_float_eq(carom_body_get_mass(body), 1.0, 1e-12);
    cr_assert_float_eq(carom_body_get_local_center(body).x, 0.0, 1e-12);
    cr_assert_eq(carom_destroy_shape(extra), CAROM_ERROR_INVALID_ID);
    carom_destroy_world(world);
}

Test(shape, setting_density_recomputes_the_body_mass) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape_def = carom_default_shape_def();
    carom_shape_id shape = carom_create_box_shape(body, &shape_def, 1.0, 1.0, carom_v2(0.0, 0.0),
                                                  0.0);
    cr_assert_eq(carom_shape_set_density(shape, 3.0), CAROM_OK);
    cr_assert_float_eq(carom_body_get_mass(body), 12.0, 1e-12);
    cr_assert_float_eq(carom_body_get_rotational_inertia(body), 12.0 * 8.0 / 12.0, 1e-12);
    cr_assert(carom_body_id_equals(carom_shape_get_body(shape), body));
    cr_assert_eq(carom_shape_get_type(shape), CAROM_SHAPE_POLYGON);
    carom_destroy_world(world);
}

/* Two balls fired at each other with the given filters; true when they bounced. */
static bool balls_collide(carom_filter fa, carom_filter fb) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id bodies[2];
    carom_filter filters[2] = {fa, fb};
    for (int i = 0; i < 2; ++i) {
        carom_body_def def = carom_default_body_def();
        def.type = CAROM_BODY_DYNAMIC;
        def.position = carom_v2(i == 0 ? -2.0 : 2.0, 0.0);
        def.linear_velocity = carom_v2(i == 0 ? 3.0 : -3.0, 0.0);
        bodies[i] = carom_create_body(world, &def);
        carom_shape_def shape = carom_default_shape_def();
        shape.filter = filters[i];
        shape.restitution = 1.0;
        carom_circle circle = {{0.0, 0.0}, 0.5};
        carom_create_circle_shape(bodies[i], &shape, &circle);
    }
    test_step(world, 1.0 / 60.0, 120);
    bool collided = carom_body_get_linear_velocity(bodies[0]).x < 0.0;
    carom_destroy_world(world);
    return collided;
}

Test(shape, category_and_mask_decide_which_shapes_collide) {
    carom_filter a = carom_default_filter();
    carom_filter b = carom_default_filter();
    cr_assert(balls_collide(a, b), "defaults collide");
    a.category = 0x2;
    b.mask = 0x1;
    cr_assert_not(balls_collide(a, b), "a's category is not in b's mask");
    b.mask = 0x3;
    cr_assert(balls_collide(a, b));
    a.mask = 0x4;
    cr_assert_not(balls_collide(a, b), "b's category is not in a's mask");
}

Test(shape, shared_negative_group_never_collides_and_positive_always_does) {
    carom_filter a = carom_default_filter();
    carom_filter b = carom_default_filter();
    a.group = b.group = -3;
    cr_assert_not(balls_collide(a, b));
    a.group = b.group = 5;
    a.mask = 0;
    b.mask = 0;
    cr_assert(balls_collide(a, b), "a shared positive group overrides the masks");
    a.group = 5;
    b.group = 6;
    cr_assert_not(balls_collide(a, b), "different groups fall back to the masks");
}

Test(shape, segment_wall_stops_a_ball_and_has_no_mass) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def def = carom_default_body_def();
    carom_body_id wall = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_segment segment = {{-5.0, 0.0}, {5.0, 0.0}};
    carom_shape_id id = carom_create_segment_shape(wall, &shape, &segment);
    cr_assert_eq(carom_shape_get_type(id), CAROM_SHAPE_SEGMENT);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 1.0), 0.25, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    test_step(world, 1.0 / 60.0, 180);
    cr_assert_float_eq(carom_body_get_position(ball).y, 0.25, 2e-3, "ball rests on the segment");
    carom_destroy_world(world);
}
