/* Bodies: mass from shapes, forces and impulses, teleporting. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static carom_body_id dynamic_body(carom_world_id world, carom_vec2 p, double angle) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = p;
    def.angle = angle;
    return carom_create_body(world, &def);
}

Test(body, mass_center_and_inertia_come_from_the_shapes) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id body = dynamic_body(world, carom_v2(0.0, 0.0), 0.0);
    carom_shape_def def = carom_default_shape_def();
    def.density = 2.0;
    /* a 2 x 1 box at (1, 0) and a circle of radius 0.5 at (-1, 0) */
    carom_create_box_shape(body, &def, 1.0, 0.5, carom_v2(1.0, 0.0), 0.0);
    carom_circle circle = {{-1.0, 0.0}, 0.5};
    carom_create_circle_shape(body, &def, &circle);
    double box_mass = 2.0 * 2.0;
    double circle_mass = 2.0 * CAROM_PI * 0.25;
    double mass = box_mass + circle_mass;
    double cx = (box_mass * 1.0 - circle_mass * 1.0) / mass;
    double box_inertia = box_mass * (4.0 + 1.0) / 12.0 + box_mass * (1.0 - cx) * (1.0 - cx);
    double circle_inertia = 0.5 * circle_mass * 0.25 + circle_mass * (1.0 + cx) * (1.0 + cx);
    cr_assert_float_eq(carom_body_get_mass(body), mass, 1e-12);
    cr_assert_float_eq(carom_body_get_local_center(body).x, cx, 1e-12);
    cr_assert_float_eq(carom_body_get_local_center(body).y, 0.0, 1e-12);
    cr_assert_float_eq(carom_body_get_rotational_inertia(body), box_inertia + circle_inertia, 1e-12);
    carom_destroy_world(world);
}

Test(body, static_and_kinematic_bodies_have_no_mass) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_KINEMATIC;
    carom_body_id kinematic = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(kinematic, &shape, 1.0, 1.0, carom_v2(0.0, 0.0), 0.0);
    cr_assert_eq(carom_body_get_mass(kinematic), 0.0);
    cr_assert_eq(carom_body_get_type(kinematic), CAROM_BODY_KINEMATIC);
    carom_destroy_world(world);
}

Test(body, force_for_one_step_changes_velocity_by_force_over_mass_times_dt) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.5, carom_v2(0.0, 0.0), 0.0,
                                        0.0);
    double m = carom_body_get_mass(ball);
    cr_assert_eq(carom_body_apply_force_to_center(ball, carom_v2(6.0, -3.0)), CAROM_OK);
    test_step(world, 0.1, 1);
    cr_assert_float_eq(carom_body_get_linear_velocity(ball).x, 6.0 / m * 0.1, 1e-12);
    cr_assert_float_eq(carom_body_get_linear_velocity(ball).y, -3.0 / m * 0.1, 1e-12);
    test_step(world, 0.1, 1);
    cr_assert_float_eq(carom_body_get_linear_velocity(ball).x, 6.0 / m * 0.1, 1e-12,
                       "forces are cleared after a step");
    carom_destroy_world(world);
}

Test(body, off_center_impulse_changes_linear_and_angular_velocity) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id box = test_make_box(world, carom_v2(2.0, 3.0), 1.0, 0.5, 0.0, 0.6, 0.0);
    double m = carom_body_get_mass(box);
    double inertia = carom_body_get_rotational_inertia(box);
    carom_vec2 impulse = {0.0, 4.0};
    carom_vec2 point = {3.0, 3.0}; /* 1 m right of the center */
    cr_assert_eq(carom_body_apply_linear_impulse(box, impulse, point), CAROM_OK);
    cr_assert_float_eq(carom_body_get_linear_velocity(box).y, 4.0 / m, 1e-12);
    cr_assert_float_eq(carom_body_get_angular_velocity(box), 4.0 / inertia, 1e-12);
    cr_assert_eq(carom_body_apply_angular_impulse(box, -4.0), CAROM_OK);
    cr_assert_float_eq(carom_body_get_angular_velocity(box), 0.0, 1e-12);
    double energy = 0.5 * m * (4.0 / m) * (4.0 / m);
    cr_assert_float_eq(carom_body_get_kinetic_energy(box), energy, 1e-12);
    carom_destroy_world(world);
}

Test(body, torque_spins_the_body_at_torque_over_inertia) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id box = test_make_box(world, carom_v2(0.0, 0.0), 0.5, 0.5, 0.0, 0.6, 0.0);
    double inertia = carom_body_get_rotational_inertia(box);
    cr_assert_eq(carom_body_apply_torque(box, 2.0), CAROM_OK);
    test_step(world, 0.05, 1);
    cr_assert_float_eq(carom_body_get_angular_velocity(box), 2.0 / inertia * 0.05, 1e-12);
    cr_assert_float_eq(carom_body_get_linear_velocity(box).x, 0.0, 1e-15);
    carom_destroy_world(world);
}

Test(body, set_transform_moves_the_body_and_its_shapes) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id body = dynamic_body(world, carom_v2(0.0, 0.0), 0.0);
    carom_shape_def def = carom_default_shape_def();
    carom_shape_id shape = carom_create_box_shape(body, &def, 1.0, 0.5, carom_v2(0.0, 0.0), 0.0);
    cr_assert_eq(carom_body_set_transform(body, carom_v2(10.0, -4.0), CAROM_PI / 2.0), CAROM_OK);
    cr_assert_eq(carom_body_get_position(body).x, 10.0);
    cr_assert_float_eq(carom_body_get_angle(body), CAROM_PI / 2.0, 1e-15);
    carom_aabb box = carom_shape_get_aabb(shape);
    cr_assert_float_eq(box.lower.x, 9.5, 1e-12);
    cr_assert_float_eq(box.upper.x, 10.5, 1e-12);
    cr_assert_float_eq(box.lower.y, -5.0, 1e-12);
    cr_assert_float_eq(box.upper.y, -3.0, 1e-12);
    carom_destroy_world(world);
}

Test(body, set_rotation_restores_a_rotation_bit_for_bit_and_moves_the_shapes) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id spinner = dynamic_body(world, carom_v2(0.0, 0.0), 0.3);
    carom_shape_def def = carom_default_shape_def();
    carom_create_box_shape(spinner, &def, 1.0, 0.5, carom_v2(0.0, 0.0), 0.0);
    cr_assert_eq(carom_body_set_angular_velocity(spinner, 2.7), CAROM_OK);
    test_step(world, 1.0 / 60.0, 17); /* a rotation no angle conversion produced */
    carom_rot saved = carom_body_get_rotation(spinner);

    carom_body_id copy = dynamic_body(world, carom_v2(5.0, 0.0), 0.0);
    carom_shape_id shape = carom_create_box_shape(copy, &def, 1.0, 0.5, carom_v2(0.0, 0.0), 0.0);
    cr_assert_eq(carom_body_set_rotation(copy, saved), CAROM_OK);
    carom_rot restored = carom_body_get_rotation(copy);
    cr_assert_eq(memcmp(&restored, &saved, sizeof(saved)), 0, "the exact bits come back");
    cr_assert_eq(carom_body_get_position(copy).x, 5.0, "the origin stays put");
    carom_aabb box = carom_shape_get_aabb(shape);
    double reach_x = fabs(saved.c) * 1.0 + fabs(saved.s) * 0.5;
    cr_assert_float_eq(box.upper.x, 5.0 + reach_x, 1e-12, "the shape turned with the body");
    carom_destroy_world(world);
}

Test(body, set_rotation_refuses_a_non_unit_or_non_finite_rotation_and_changes_nothing) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id body = dynamic_body(world, carom_v2(1.0, 2.0), 0.25);
    carom_rot before = carom_body_get_rotation(body);
    carom_rot too_long = {1.0, 1e-4}; /* c² + s² - 1 = 1e-8 */
    cr_assert_eq(carom_body_set_rotation(body, too_long), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "not a unit vector") != NULL, "%s", carom_last_error());
    carom_rot not_finite = {NAN, 0.0};
    cr_assert_eq(carom_body_set_rotation(body, not_finite), CAROM_ERROR_NOT_FINITE);
    carom_rot after = carom_body_get_rotation(body);
    cr_assert_eq(memcmp(&after, &before, sizeof(before)), 0);
    carom_rot nearly_unit = {1.0, 3e-5}; /* c² + s² - 1 = 9e-10: within the tolerance */
    cr_assert_eq(carom_body_set_rotation(body, nearly_unit), CAROM_OK);
    cr_assert_eq(carom_body_get_rotation(body).s, 3e-5, "kept as given, not renormalised");
    carom_destroy_world(world);
}

Test(body, damping_slows_a_body_by_one_over_one_plus_h_c_per_substep) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.linear_velocity = carom_v2(10.0, 0.0);
    def.linear_damping = 0.5;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(body, &shape, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
    test_step(world, 0.04, 25); /* 1 s, 100 substeps of 0.01 s */
    double expected = 10.0 * pow(1.0 / (1.0 + 0.01 * 0.5), 100.0);
    cr_assert_float_eq(carom_body_get_linear_velocity(body).x, expected, 1e-9);
    carom_destroy_world(world);
}

Test(body, user_data_is_returned_as_given) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    int marker = 7;
    carom_body_def def = carom_default_body_def();
    def.user_data = &marker;
    carom_body_id body = carom_create_body(world, &def);
    cr_assert_eq(carom_body_get_user_data(body), &marker);
    cr_assert_eq(carom_body_set_user_data(body, NULL), CAROM_OK);
    cr_assert_null(carom_body_get_user_data(body));
    cr_assert(carom_world_id_equals(carom_body_get_world(body), world));
    carom_destroy_world(world);
}
