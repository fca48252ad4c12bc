/* Bodies and shapes changed after creation (issue 16): fixed rotation, mass override, type,
 * damping, gravity scale, bullet, awake, filters, and what a body holds. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static carom_body_id make_box_body(carom_world_id world, carom_vec2 p, double angle, double hx,
                                   double hy) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = p;
    def.angle = angle;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(body, &shape, hx, hy, carom_v2(0.0, 0.0), 0.0);
    return body;
}

static bool same_rotation(carom_rot a, carom_rot b) {
    return memcmp(&a.c, &b.c, sizeof(double)) == 0 && memcmp(&a.s, &b.s, sizeof(double)) == 0;
}

Test(body_api, a_fixed_rotation_box_landing_on_its_corner_keeps_its_angle_exactly) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id fixed = make_box_body(world, carom_v2(-3.0, 2.0), 0.5, 0.5, 0.25);
    carom_body_id free = make_box_body(world, carom_v2(3.0, 2.0), 0.5, 0.5, 0.25);
    cr_assert_eq(carom_body_set_fixed_rotation(fixed, 1), CAROM_OK);
    cr_assert(carom_body_is_fixed_rotation(fixed));
    cr_assert_eq(carom_body_get_rotational_inertia(fixed), 0.0);
    carom_rot start = carom_body_get_rotation(fixed);
    /* pushed sideways off-center too: a free body would spin */
    carom_body_apply_linear_impulse(fixed, carom_v2(0.3, 0.0),
                                    carom_add(carom_body_get_world_center(fixed),
                                              carom_v2(0.0, 0.4)));
    test_step(world, 1.0 / 60.0, 180);
    cr_assert(same_rotation(carom_body_get_rotation(fixed), start), "angle %.17g, was %.17g",
              carom_body_get_angle(fixed), carom_rot_get_angle(start));
    cr_assert_eq(carom_body_get_angular_velocity(fixed), 0.0);
    /* it rests on its lowest corner, held up by the ground */
    cr_assert(carom_body_get_position(fixed).y > 0.1 && carom_body_get_position(fixed).y < 0.6);
    /* the free one lands on the corner and falls flat: 0.5 rad becomes a multiple of pi/2 */
    double angle = carom_body_get_angle(free);
    double to_flat = fabs(remainder(angle, CAROM_PI / 2.0));
    cr_assert(to_flat < 0.01, "the free box settled at %g rad", angle);
    /* released, it turns again with its shapes' inertia */
    cr_assert_eq(carom_body_set_fixed_rotation(fixed, 0), CAROM_OK);
    cr_assert_float_eq(carom_body_get_rotational_inertia(fixed),
                       1.0 * 1.0 * 0.5 * (1.0 + 0.25) / 12.0, 1e-12);
    test_step(world, 1.0 / 60.0, 180);
    cr_assert(fabs(remainder(carom_body_get_angle(fixed), CAROM_PI / 2.0)) < 0.01,
              "released, it falls flat: %g rad", carom_body_get_angle(fixed));
    carom_destroy_world(world);
}

Test(body_api, a_mass_override_changes_the_response_to_an_impulse_as_the_formulas_say) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id body = make_box_body(world, carom_v2(1.0, 2.0), 0.0, 0.5, 0.5);
    cr_assert_float_eq(carom_body_get_mass(body), 1.0, 1e-12);
    carom_mass_data data = {4.0, {0.25, 0.0}, 0.5};
    cr_assert_eq(carom_body_set_mass_data(body, data), CAROM_OK);
    cr_assert(carom_body_has_mass_override(body));
    carom_mass_data got = carom_body_get_mass_data(body);
    cr_assert(got.mass == 4.0 && got.center.x == 0.25 && got.center.y == 0.0 &&
              got.rotational_inertia == 0.5);
    cr_assert(carom_body_get_world_center(body).x == 1.25);
    /* J = (0, 2) N*s at 0.5 m right of the center of mass: v = J / m, w = (r x J) / I */
    carom_vec2 point = carom_v2(1.75, 2.0);
    cr_assert_eq(carom_body_apply_linear_impulse(body, carom_v2(0.0, 2.0), point), CAROM_OK);
    cr_assert_float_eq(carom_body_get_linear_velocity(body).y, 2.0 / 4.0, 1e-15);
    cr_assert_float_eq(carom_body_get_angular_velocity(body), 0.5 * 2.0 / 0.5, 1e-15);
    /* a new shape does not change an overridden mass */
    carom_circle circle = {{0.0, 1.0}, 0.5};
    carom_shape_def shape = carom_default_shape_def();
    carom_create_circle_shape(body, &shape, &circle);
    cr_assert_eq(carom_body_get_mass(body), 4.0);
    /* reset: back to the shapes' mass (box 1 kg + circle pi/4 kg) */
    cr_assert_eq(carom_body_reset_mass_data(body), CAROM_OK);
    cr_assert_float_eq(carom_body_get_mass(body), 1.0 + CAROM_PI * 0.25, 1e-12);
    /* bad values are refused with a message and change nothing */
    carom_mass_data zero = {0.0, {0.0, 0.0}, 1.0};
    cr_assert_eq(carom_body_set_mass_data(body, zero), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "mass") != NULL, "%s", carom_last_error());
    carom_mass_data nan_center = {1.0, {NAN, 0.0}, 1.0};
    cr_assert_eq(carom_body_set_mass_data(body, nan_center), CAROM_ERROR_NOT_FINITE);
    carom_mass_data negative = {1.0, {0.0, 0.0}, -1.0};
    cr_assert_eq(carom_body_set_mass_data(body, negative), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(!carom_body_has_mass_override(body));
    carom_destroy_world(world);
}

Test(body_api, set_type_round_trip_static_kinematic_dynamic) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id shelf = make_box_body(world, carom_v2(0.0, 3.0), 0.0, 2.0, 0.1);
    cr_assert_eq(carom_body_set_type(shelf, CAROM_BODY_STATIC), CAROM_OK);
    cr_assert_eq(carom_body_get_mass(shelf), 0.0);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 4.0), 0.25, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    test_step(world, 1.0 / 60.0, 120);
    cr_assert_float_eq(carom_body_get_position(shelf).y, 3.0, 1e-12, "static: it stays");
    cr_assert_float_eq(carom_body_get_position(ball).y, 3.1 + 0.25, 0.01, "the ball rests on it");
    /* kinematic: moves with its velocity, not with gravity, and carries the ball */
    cr_assert_eq(carom_body_set_type(shelf, CAROM_BODY_KINEMATIC), CAROM_OK);
    cr_assert_eq(carom_body_set_linear_velocity(shelf, carom_v2(0.0, 0.5)), CAROM_OK);
    test_step(world, 1.0 / 60.0, 60);
    cr_assert_float_eq(carom_body_get_position(shelf).y, 3.5, 1e-9);
    cr_assert_float_eq(carom_body_get_position(ball).y, 3.6 + 0.25, 0.02, "carried up");
    /* dynamic again: it has its mass back and falls with the ball to the ground */
    cr_assert_eq(carom_body_set_type(shelf, CAROM_BODY_DYNAMIC), CAROM_OK);
    cr_assert_float_eq(carom_body_get_mass(shelf), 4.0 * 0.2, 1e-12);
    test_step(world, 1.0 / 60.0, 180);
    cr_assert_float_eq(carom_body_get_position(shelf).y, 0.1, 0.01, "on the ground");
    cr_assert_float_eq(carom_body_get_position(ball).y, 0.2 + 0.25, 0.02, "on the shelf");
    /* and static once more: the ball stays on it, nothing moves */
    cr_assert_eq(carom_body_set_type(shelf, CAROM_BODY_STATIC), CAROM_OK);
    test_step(world, 1.0 / 60.0, 60);
    cr_assert_float_eq(carom_body_get_position(ball).y, 0.2 + 0.25, 0.02);
    cr_assert_eq(carom_body_set_type(shelf, (carom_body_type)7), CAROM_ERROR_OUT_OF_RANGE);
    carom_destroy_world(world);
}

Test(body_api, damping_gravity_scale_and_bullet_are_read_and_set_with_checks) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id body = make_box_body(world, carom_v2(0.0, 0.0), 0.0, 0.5, 0.5);
    cr_assert_eq(carom_body_set_gravity_scale(body, -0.5), CAROM_OK);
    cr_assert_eq(carom_body_get_gravity_scale(body), -0.5);
    test_step(world, 0.5, 1);
    /* one step of 0.5 s at -0.5 g: v = +2.5 m/s */
    cr_assert_float_eq(carom_body_get_linear_velocity(body).y, 2.5, 1e-12);
    cr_assert_eq(carom_body_set_gravity_scale(body, 0.0), CAROM_OK);
    cr_assert_eq(carom_body_set_linear_damping(body, 2.0), CAROM_OK);
    cr_assert_eq(carom_body_get_linear_damping(body), 2.0);
    test_step(world, 1.0 / 60.0, 60);
    double v = carom_body_get_linear_velocity(body).y;
    /* 240 substeps of v *= 1 / (1 + h c): about e^-2 */
    cr_assert_float_eq(v, 2.5 * pow(1.0 / (1.0 + 2.0 / 240.0), 240.0), 1e-9, "%g", v);
    cr_assert_eq(carom_body_set_angular_damping(body, 1.5), CAROM_OK);
    cr_assert_eq(carom_body_get_angular_damping(body), 1.5);
    cr_assert_eq(carom_body_set_bullet(body, 1), CAROM_OK);
    cr_assert(carom_body_is_bullet(body));
    cr_assert_eq(carom_body_set_linear_damping(body, -1.0), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_body_set_angular_damping(body, NAN), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_body_set_gravity_scale(body, INFINITY), CAROM_ERROR_NOT_FINITE);
    cr_assert(strstr(carom_last_error(), "gravity scale") != NULL, "%s", carom_last_error());
    cr_assert_eq(carom_body_get_linear_damping(body), 2.0, "a refused call changes nothing");
    carom_destroy_body(body);
    cr_assert_eq(carom_body_set_gravity_scale(body, 1.0), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_body_get_gravity_scale(body), 0.0);
    cr_assert_eq(carom_body_set_type(body, CAROM_BODY_STATIC), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_body_set_fixed_rotation(body, 1), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_body_get_shapes(body, NULL, 0), 0);
    carom_destroy_world(world);
}

Test(body_api, set_awake_puts_a_body_to_sleep_and_a_touch_wakes_it) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id box = make_box_body(world, carom_v2(0.0, 0.5), 0.0, 0.5, 0.5);
    test_step(world, 1.0 / 60.0, 5);
    cr_assert_eq(carom_body_set_awake(box, 0), CAROM_OK);
    cr_assert(!carom_body_is_awake(box));
    carom_vec2 p = carom_body_get_position(box);
    test_step(world, 1.0 / 60.0, 30);
    cr_assert(carom_body_get_position(box).y == p.y, "asleep: it does not move");
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 2.0), 0.25, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    test_step(world, 1.0 / 60.0, 40);
    (void)ball;
    cr_assert(carom_body_is_awake(box), "the ball landing on it woke it");
    carom_body_def kinematic = carom_default_body_def();
    kinematic.type = CAROM_BODY_KINEMATIC;
    carom_body_id mover = carom_create_body(world, &kinematic);
    cr_assert_eq(carom_body_set_awake(mover, 0), CAROM_ERROR_OUT_OF_RANGE);
    carom_destroy_world(world);
}

/* Categories: 1 ground, 2 crates. */
Test(body_api, a_filter_change_separates_a_pair_at_the_next_step_and_joins_it_again) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id ground = test_make_ground(world, 0.0, 0.6, 0.0);
    carom_shape_id ground_shape;
    cr_assert_eq(carom_body_get_shapes(ground, &ground_shape, 1), 1);
    carom_body_id crate = make_box_body(world, carom_v2(0.0, 0.5), 0.0, 0.5, 0.5);
    carom_shape_id crate_shape;
    carom_body_get_shapes(crate, &crate_shape, 1);
    carom_filter filter = carom_default_filter();
    filter.category = 2;
    carom_shape_set_filter(crate_shape, filter);
    test_step(world, 1.0 / 60.0, 30);
    cr_assert_float_eq(carom_body_get_position(crate).y, 0.5, 0.01, "resting");
    cr_assert_eq(carom_body_get_contact_capacity(crate), 1);
    /* the crate stops colliding with the ground (its mask drops category 1) */
    filter.mask = ~(uint64_t)1;
    cr_assert_eq(carom_shape_set_filter(crate_shape, filter), CAROM_OK);
    cr_assert_eq(carom_shape_get_filter(crate_shape).mask, filter.mask);
    cr_assert_eq(carom_world_get_contact_events(world).end_count, 1, "the pair ended");
    double y = carom_body_get_position(crate).y;
    test_step(world, 1.0 / 60.0, 1);
    cr_assert(carom_body_get_position(crate).y < y, "it falls at the next step");
    test_step(world, 1.0 / 60.0, 20);
    cr_assert(carom_body_get_position(crate).y < 0.0, "through the ground: %g",
              carom_body_get_position(crate).y);
    /* lifted above the ground and allowed again: it lands */
    carom_body_set_transform(crate, carom_v2(0.0, 2.0), 0.0);
    carom_body_set_linear_velocity(crate, carom_v2(0.0, 0.0));
    filter.mask = ~(uint64_t)0;
    cr_assert_eq(carom_shape_set_filter(crate_shape, filter), CAROM_OK);
    test_step(world, 1.0 / 60.0, 90);
    cr_assert_float_eq(carom_body_get_position(crate).y, 0.5, 0.01, "landed on the ground again");
    (void)ground_shape;
    carom_destroy_world(world);
}

Test(body_api, a_body_lists_its_shapes_and_its_contacts_with_their_manifolds) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id body = make_box_body(world, carom_v2(0.0, 0.5), 0.0, 0.5, 0.5);
    carom_circle circle = {{2.0, 0.0}, 0.5};
    carom_shape_def def = carom_default_shape_def();
    carom_shape_id ball = carom_create_circle_shape(body, &def, &circle);
    cr_assert_eq(carom_body_get_shape_count(body), 2);
    carom_shape_id shapes[4];
    cr_assert_eq(carom_body_get_shapes(body, shapes, 4), 2);
    cr_assert(shapes[0].index1 < shapes[1].index1, "ascending ids");
    cr_assert(carom_shape_id_equals(shapes[1], ball));
    cr_assert_eq(carom_body_get_shapes(body, shapes, 1), 1, "capacity respected");
    cr_assert_eq(carom_body_get_shapes(body, NULL, 3), 0);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    test_step(world, 1.0 / 60.0, 30);
    carom_contact_data contacts[4];
    int count = carom_body_get_contact_data(body, contacts, 4);
    cr_assert_eq(count, 2, "the box and the circle each touch the ground");
    for (int i = 0; i < count; ++i) {
        cr_assert(contacts[i].touching);
        cr_assert(contacts[i].manifold.point_count >= 1);
        cr_assert_float_eq(fabs(contacts[i].manifold.normal.y), 1.0, 1e-9);
        for (int j = 0; j < contacts[i].manifold.point_count; ++j) {
            cr_assert(fabs(contacts[i].manifold.points[j].point.y) < 0.01);
        }
    }
    /* geometry back as given, and the wrong type refused */
    carom_circle got;
    cr_assert_eq(carom_shape_get_circle(ball, &got), CAROM_OK);
    cr_assert(got.center.x == 2.0 && got.radius == 0.5);
    carom_polygon box;
    cr_assert_eq(carom_shape_get_polygon(shapes[0], &box), CAROM_OK);
    cr_assert_eq(box.count, 4);
    cr_assert_eq(carom_shape_get_polygon(ball, &box), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_shape_get_circle(ball, NULL), CAROM_ERROR_NULL_ARGUMENT);
    carom_segment segment;
    cr_assert_eq(carom_shape_get_segment(ball, &segment), CAROM_ERROR_OUT_OF_RANGE);
    carom_destroy_world(world);
}

static uint64_t fixed_rotation_snapshot_hash(carom_world_id world, carom_body_id* bodies, int n) {
    test_step(world, 1.0 / 60.0, 60);
    return test_hash_bodies(bodies, n);
}

Test(body_api, fixed_rotation_and_a_mass_override_survive_a_snapshot_bit_for_bit) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id bodies[3];
    bodies[0] = make_box_body(world, carom_v2(0.0, 2.0), 0.4, 0.5, 0.25);
    bodies[1] = make_box_body(world, carom_v2(1.5, 3.0), 0.1, 0.5, 0.5);
    bodies[2] = make_box_body(world, carom_v2(-1.5, 3.0), 0.0, 0.3, 0.3);
    carom_body_set_fixed_rotation(bodies[0], 1);
    carom_mass_data data = {3.0, {0.1, -0.05}, 0.2};
    carom_body_set_mass_data(bodies[1], data);
    carom_body_set_gravity_scale(bodies[2], 0.5);
    test_step(world, 1.0 / 60.0, 20);
    size_t size = 0;
    carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size);
    void* bytes = malloc(size);
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, bytes, size, &size), CAROM_OK);
    carom_snapshot_info info;
    cr_assert_eq(carom_snapshot_get_info(bytes, size, &info), CAROM_OK);
    cr_assert_eq(info.version, 4);
    uint64_t first = fixed_rotation_snapshot_hash(world, bodies, 3);
    /* undo the options, then restore: they come back with the scene */
    carom_body_set_fixed_rotation(bodies[0], 0);
    carom_body_reset_mass_data(bodies[1]);
    cr_assert_eq(carom_world_restore(world, bytes, size), CAROM_OK);
    cr_assert(carom_body_is_fixed_rotation(bodies[0]));
    cr_assert_eq(carom_body_get_mass(bodies[1]), 3.0);
    cr_assert_eq(carom_body_get_gravity_scale(bodies[2]), 0.5);
    uint64_t again = fixed_rotation_snapshot_hash(world, bodies, 3);
    cr_assert(first == again, "resumed bit for bit");
    /* a new world from the bytes behaves the same */
    carom_world_id copy = carom_create_world_from_snapshot(bytes, size);
    cr_assert(carom_world_is_valid(copy));
    carom_body_id copied[3];
    for (int i = 0; i < 3; ++i) {
        copied[i] = bodies[i];
        copied[i].world0 = (uint16_t)(copy.index1 - 1);
        copied[i].world_generation = copy.generation;
    }
    cr_assert(carom_body_is_fixed_rotation(copied[0]));
    cr_assert(fixed_rotation_snapshot_hash(copy, copied, 3) == first);
    /* no options left: the world is written in version 3 or 2 again */
    carom_body_set_fixed_rotation(bodies[0], 0);
    carom_body_reset_mass_data(bodies[1]);
    carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size);
    bytes = realloc(bytes, size);
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, bytes, size, &size), CAROM_OK);
    cr_assert_eq(carom_snapshot_get_info(bytes, size, &info), CAROM_OK);
    cr_assert_eq(info.version, 2, "version %d: %s", info.version, carom_last_error());
    free(bytes);
    carom_destroy_world(copy);
    carom_destroy_world(world);
}

static int try_setters_inside(carom_shape_id shape, void* context) {
    carom_body_id body = carom_shape_get_body(shape);
    int* refused = context;
    *refused += carom_body_set_type(body, CAROM_BODY_STATIC) == CAROM_ERROR_WORLD_LOCKED;
    *refused += carom_body_set_fixed_rotation(body, 1) == CAROM_ERROR_WORLD_LOCKED;
    *refused += carom_body_set_gravity_scale(body, 2.0) == CAROM_ERROR_WORLD_LOCKED;
    *refused += carom_shape_set_filter(shape, carom_default_filter()) == CAROM_ERROR_WORLD_LOCKED;
    *refused += carom_body_get_shape_count(body) == 1; /* reading is allowed */
    return 1;
}

Test(body_api, setters_are_refused_inside_a_query_callback) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    make_box_body(world, carom_v2(0.0, 0.0), 0.0, 0.5, 0.5);
    test_step(world, 1.0 / 60.0, 1); /* queries see the world once a step placed it */
    int refused = 0;
    carom_aabb box = {{-1.0, -1.0}, {1.0, 1.0}};
    carom_world_overlap_aabb(world, box, carom_default_filter(), try_setters_inside, &refused);
    cr_assert_eq(refused, 5);
    carom_destroy_world(world);
}

/* ---- Callbacks inside the step --------------------------------------------------------- */

typedef struct one_way {
    carom_shape_id platform;
    double top;          /* the platform's top face (m) */
    int calls;
    int refused_setters; /* changes attempted inside the callback and refused */
} one_way;

/* Solid only for what comes down on it from above: the normal from the platform to the other
 * shape points up, and the other body is not partly below the top. */
static int one_way_pre_solve(carom_shape_id a, carom_shape_id b, const carom_manifold* manifold,
                             void* context) {
    one_way* platform = context;
    platform->calls += 1;
    bool platform_is_a = carom_shape_id_equals(a, platform->platform);
    if (!platform_is_a && !carom_shape_id_equals(b, platform->platform)) {
        return 1;
    }
    carom_shape_id other = platform_is_a ? b : a;
    double up = platform_is_a ? manifold->normal.y : -manifold->normal.y;
    carom_body_id body = carom_shape_get_body(other);
    platform->refused_setters +=
        carom_body_set_gravity_scale(body, 0.0) == CAROM_ERROR_WORLD_LOCKED &&
        strstr(carom_last_error(), "pre-solve") != NULL;
    double bottom = carom_shape_get_aabb(other).lower.y;
    return up > 0.7 && bottom > platform->top - 0.05;
}

static uint64_t run_one_way(double* highest, double* final_y, one_way* platform) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def def = carom_default_body_def();
    def.position = carom_v2(0.0, 2.0);
    carom_body_id shelf = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    platform->platform = carom_create_box_shape(shelf, &shape, 2.0, 0.1, carom_v2(0.0, 0.0), 0.0);
    platform->top = 2.1;
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.5), 0.25, carom_v2(0.0, 9.0), 0.6,
                                        0.0);
    cr_assert_eq(carom_world_set_pre_solve(world, one_way_pre_solve, platform), CAROM_OK);
    *highest = 0.0;
    for (int step = 0; step < 240; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        *highest = fmax(*highest, carom_body_get_position(ball).y);
    }
    *final_y = carom_body_get_position(ball).y;
    uint64_t hash = carom_world_hash(world);
    carom_destroy_world(world);
    return hash;
}

Test(body_api, a_one_way_platform_lets_a_ball_up_through_and_holds_it_when_it_comes_down) {
    one_way platform = {carom_null_shape_id, 0.0, 0, 0};
    double highest = 0.0, final_y = 0.0;
    uint64_t hash = run_one_way(&highest, &final_y, &platform);
    /* thrown up at 9 m/s from 0.5 m: apex 0.5 + 81 / 20 = 4.55 m, above the platform */
    cr_assert_float_eq(highest, 4.55, 0.05, "apex %g m", highest);
    cr_assert_float_eq(final_y, 2.1 + 0.25, 0.01, "resting on the platform at %g m", final_y);
    cr_assert(platform.calls > 0);
    cr_assert_eq(platform.refused_setters, platform.calls, "every change inside is refused");
    /* deterministic: the same run gives the same bits */
    one_way again = {carom_null_shape_id, 0.0, 0, 0};
    double highest2 = 0.0, final2 = 0.0;
    cr_assert_eq(run_one_way(&highest2, &final2, &again), hash);
    cr_assert_eq(again.calls, platform.calls);
}

typedef struct ghost_filter {
    void* ghost_tag;
    int calls;
    int refused_steps;
    carom_world_id world;
} ghost_filter;

/* Shapes whose user data is the ghost tag collide with nothing. */
static int no_ghosts(carom_shape_id a, carom_shape_id b, void* context) {
    ghost_filter* filter = context;
    filter->calls += 1;
    filter->refused_steps += carom_world_step(filter->world, 1.0 / 60.0) ==
                             CAROM_ERROR_WORLD_LOCKED;
    return carom_shape_get_user_data(a) != filter->ghost_tag &&
           carom_shape_get_user_data(b) != filter->ghost_tag;
}

Test(body_api, a_custom_filter_keeps_the_pairs_it_refuses_from_colliding) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    int tag = 0;
    ghost_filter filter = {&tag, 0, 0, world};
    cr_assert_eq(carom_world_set_custom_filter(world, no_ghosts, &filter), CAROM_OK);
    carom_body_id solid = test_make_ball(world, carom_v2(-1.0, 1.0), 0.25, carom_v2(0.0, 0.0),
                                         0.6, 0.0);
    carom_body_id ghost = test_make_ball(world, carom_v2(1.0, 1.0), 0.25, carom_v2(0.0, 0.0),
                                         0.6, 0.0);
    carom_shape_id ghost_shape;
    carom_body_get_shapes(ghost, &ghost_shape, 1);
    /* user data is set on the shape through its def only; the body's tag marks it here */
    carom_shape_def def = carom_default_shape_def();
    def.user_data = &tag;
    carom_destroy_shape(ghost_shape);
    carom_circle circle = {{0.0, 0.0}, 0.25};
    carom_create_circle_shape(ghost, &def, &circle);
    test_step(world, 1.0 / 60.0, 90);
    cr_assert_float_eq(carom_body_get_position(solid).y, 0.25, 0.01, "the solid ball rests");
    cr_assert(carom_body_get_position(ghost).y < -5.0, "the ghost fell through: %g",
              carom_body_get_position(ghost).y);
    cr_assert(filter.calls >= 2);
    cr_assert_eq(filter.refused_steps, filter.calls);
    cr_assert_eq(carom_world_set_custom_filter(world, NULL, NULL), CAROM_OK);
    carom_destroy_world(world);
}

Test(body_api, a_disabled_body_is_not_hit_does_not_move_and_comes_back_when_enabled) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id shelf = make_box_body(world, carom_v2(0.0, 1.0), 0.0, 1.0, 0.1);
    carom_body_set_type(shelf, CAROM_BODY_STATIC);
    carom_body_id crate = make_box_body(world, carom_v2(0.0, 1.6), 0.0, 0.5, 0.5);
    carom_body_id floater = make_box_body(world, carom_v2(4.0, 3.0), 0.0, 0.5, 0.5);
    carom_body_set_linear_velocity(floater, carom_v2(1.0, 0.0));
    test_step(world, 1.0 / 60.0, 30);
    cr_assert_float_eq(carom_body_get_position(crate).y, 1.6, 0.01, "on the shelf");
    /* the shelf disabled: its contact ends, the crate falls through to the ground */
    cr_assert_eq(carom_body_set_enabled(shelf, 0), CAROM_OK);
    cr_assert(!carom_body_is_enabled(shelf));
    cr_assert_eq(carom_world_get_contact_events(world).end_count, 1);
    /* the floater, disabled in the air with its velocity, stays put */
    cr_assert_eq(carom_body_set_enabled(floater, 0), CAROM_OK);
    carom_transform held = carom_body_get_transform(floater);
    test_step(world, 1.0 / 60.0, 90);
    cr_assert_float_eq(carom_body_get_position(crate).y, 0.5, 0.01, "fell to the ground");
    carom_transform now = carom_body_get_transform(floater);
    cr_assert(now.p.x == held.p.x && now.p.y == held.p.y, "a disabled body does not move");
    cr_assert(!carom_body_is_awake(floater));
    cr_assert_eq(carom_body_get_contact_capacity(shelf), 0, "nothing touches it");
    /* not found by queries */
    carom_ray_result ray = carom_world_cast_ray_closest(world, carom_v2(4.0, 10.0),
                                                        carom_v2(0.0, -20.0),
                                                        carom_default_filter());
    cr_assert(ray.hit && !carom_body_id_equals(carom_shape_get_body(ray.shape), floater),
              "the ray passes the disabled body and hits the ground");
    /* a snapshot keeps it disabled */
    size_t size = 0;
    carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size);
    void* bytes = malloc(size);
    carom_world_save(world, CAROM_SNAPSHOT_FULL, bytes, size, &size);
    carom_world_id copy = carom_create_world_from_snapshot(bytes, size);
    carom_body_id copied = floater;
    copied.world0 = (uint16_t)(copy.index1 - 1);
    copied.world_generation = copy.generation;
    cr_assert(!carom_body_is_enabled(copied));
    free(bytes);
    carom_destroy_world(copy);
    /* enabled again: it moves on with its velocity and gravity, and lands */
    cr_assert_eq(carom_body_set_enabled(floater, 1), CAROM_OK);
    test_step(world, 1.0 / 60.0, 120);
    /* disabled at 1.75 m falling at 5 m/s, it reaches the ground in 0.21 s at 1 m/s across */
    cr_assert(carom_body_get_position(floater).x > held.p.x + 0.15, "x %g from %g",
              carom_body_get_position(floater).x, held.p.x);
    cr_assert_float_eq(carom_body_get_position(floater).y, 0.5, 0.01, "landed");
    cr_assert_eq(carom_body_set_enabled(shelf, 1), CAROM_OK);
    test_step(world, 1.0 / 60.0, 1);
    carom_destroy_world(world);
}
