/* The API boundary: every invalid value is refused with the right status and a message, and a
 * refused call changes nothing. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static carom_world_id world;
static carom_body_id body;

static void setup(void) {
    world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(1.0, 2.0);
    body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_circle circle = {{0.0, 0.0}, 0.5};
    carom_create_circle_shape(body, &shape, &circle);
    carom_clear_last_error();
}

static void teardown(void) { carom_destroy_world(world); }

TestSuite(api, .init = setup, .fini = teardown);

/* The body and world as they were after setup. */
static void assert_unchanged(void) {
    cr_assert_eq(carom_body_get_position(body).x, 1.0);
    cr_assert_eq(carom_body_get_position(body).y, 2.0);
    cr_assert_float_eq(carom_body_get_mass(body), CAROM_PI * 0.25, 1e-15);
    carom_world_counters counters = carom_world_get_counters(world);
    cr_assert_eq(counters.body_count, 1);
    cr_assert_eq(counters.shape_count, 1);
    cr_assert_eq(counters.step_count, 0);
}

static void assert_refused(carom_status got, carom_status expected, const char* fragment) {
    cr_assert_eq(got, expected, "status %s, expected %s", carom_status_str(got),
                 carom_status_str(expected));
    cr_assert_eq(carom_last_status(), expected);
    cr_assert_neq(strstr(carom_last_error(), fragment), NULL, "message '%s' should mention '%s'",
                  carom_last_error(), fragment);
    assert_unchanged();
}

static carom_status shape_status(carom_shape_id id) {
    return CAROM_IS_NULL(id) ? carom_last_status() : CAROM_OK;
}

Test(api, world_def_not_from_the_default_constructor_is_refused) {
    carom_world_def def;
    memset(&def, 0, sizeof(def));
    carom_world_id id = carom_create_world(&def);
    cr_assert(CAROM_IS_NULL(id));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_DEF);
}

Test(api, world_def_with_bad_numbers_is_refused) {
    carom_world_def def;
    def = carom_default_world_def();
    def.gravity.y = NAN;
    cr_assert(CAROM_IS_NULL(carom_create_world(&def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_NOT_FINITE);
    def = carom_default_world_def();
    def.substeps = 0;
    cr_assert(CAROM_IS_NULL(carom_create_world(&def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    def = carom_default_world_def();
    def.cell_size = -1.0;
    cr_assert(CAROM_IS_NULL(carom_create_world(&def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    /* a cell too small for its inverse to be finite (found by fuzzing the snapshot loader) */
    def.cell_size = 1.3e-315;
    cr_assert(CAROM_IS_NULL(carom_create_world(&def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_neq(strstr(carom_last_error(), "cell_size"), NULL);
    def.cell_size = CAROM_MIN_CELL_SIZE;
    carom_world_id smallest = carom_create_world(&def);
    cr_assert(!CAROM_IS_NULL(smallest));
    carom_destroy_world(smallest);
    def = carom_default_world_def();
    def.contact_hertz = INFINITY;
    cr_assert(CAROM_IS_NULL(carom_create_world(&def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_NOT_FINITE);
    def = carom_default_world_def();
    def.restitution_threshold = -0.5;
    cr_assert(CAROM_IS_NULL(carom_create_world(&def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(CAROM_IS_NULL(carom_create_world(NULL)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_NULL_ARGUMENT);
}

Test(api, body_def_values_are_checked) {
    carom_body_def def = carom_default_body_def();
    def.position.x = NAN;
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    assert_refused(carom_last_status(), CAROM_ERROR_NOT_FINITE, "position");

    def = carom_default_body_def();
    def.angle = INFINITY;
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    assert_refused(carom_last_status(), CAROM_ERROR_NOT_FINITE, "angle");

    def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.linear_damping = -1.0;
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    assert_refused(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE, "linear_damping");

    def = carom_default_body_def();
    def.type = (carom_body_type)7;
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    assert_refused(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE, "type");

    def = carom_default_body_def();
    def.linear_velocity = carom_v2(1.0, 0.0);
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    assert_refused(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE, "static");

    def = carom_default_body_def();
    def.internal_cookie = 0;
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    assert_refused(carom_last_status(), CAROM_ERROR_INVALID_DEF, "carom_default_body_def");
}

Test(api, circle_radius_must_be_positive_and_finite) {
    carom_shape_def def = carom_default_shape_def();
    carom_circle zero = {{0.0, 0.0}, 0.0};
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &zero)),
                   CAROM_ERROR_OUT_OF_RANGE, "radius");
    carom_circle negative = {{0.0, 0.0}, -1.0};
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &negative)),
                   CAROM_ERROR_OUT_OF_RANGE, "radius");
    carom_circle nan_radius = {{0.0, 0.0}, NAN};
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &nan_radius)),
                   CAROM_ERROR_NOT_FINITE, "radius");
    carom_circle inf_center = {{INFINITY, 0.0}, 1.0};
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &inf_center)),
                   CAROM_ERROR_NOT_FINITE, "center");
}

Test(api, shape_materials_are_checked) {
    carom_circle circle = {{0.0, 0.0}, 0.5};
    carom_shape_def def = carom_default_shape_def();
    def.density = -1.0;
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &circle)),
                   CAROM_ERROR_OUT_OF_RANGE, "density");
    def = carom_default_shape_def();
    def.friction = -0.1;
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &circle)),
                   CAROM_ERROR_OUT_OF_RANGE, "friction");
    def = carom_default_shape_def();
    def.restitution = 1.5;
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &circle)),
                   CAROM_ERROR_OUT_OF_RANGE, "restitution");
    def = carom_default_shape_def();
    def.restitution = -0.01;
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &circle)),
                   CAROM_ERROR_OUT_OF_RANGE, "restitution");
    def = carom_default_shape_def();
    def.friction = NAN;
    assert_refused(shape_status(carom_create_circle_shape(body, &def, &circle)),
                   CAROM_ERROR_NOT_FINITE, "friction");
}

Test(api, box_half_extents_must_be_positive) {
    carom_shape_def def = carom_default_shape_def();
    assert_refused(
        shape_status(carom_create_box_shape(body, &def, 0.0, 1.0, carom_v2(0.0, 0.0), 0.0)),
        CAROM_ERROR_OUT_OF_RANGE, "half width");
    assert_refused(
        shape_status(carom_create_box_shape(body, &def, 1.0, -2.0, carom_v2(0.0, 0.0), 0.0)),
        CAROM_ERROR_OUT_OF_RANGE, "half height");
    assert_refused(
        shape_status(carom_create_box_shape(body, &def, 1.0, 1.0, carom_v2(0.0, 0.0), NAN)),
        CAROM_ERROR_NOT_FINITE, "angle");
}

Test(api, hand_built_polygons_are_validated) {
    carom_shape_def def = carom_default_shape_def();
    carom_polygon polygon;
    memset(&polygon, 0, sizeof(polygon));
    polygon.count = 9;
    assert_refused(shape_status(carom_create_polygon_shape(body, &def, &polygon)),
                   CAROM_ERROR_TOO_MANY_VERTICES, "at most 8");
    /* a chevron: concave */
    carom_vec2 chevron[4] = {{0.0, 0.0}, {1.0, 1.0}, {0.0, 0.3}, {-1.0, 1.0}};
    polygon.count = 4;
    memcpy(polygon.vertices, chevron, sizeof(chevron));
    assert_refused(shape_status(carom_create_polygon_shape(body, &def, &polygon)),
                   CAROM_ERROR_INVALID_POLYGON, "convex");
    carom_vec2 collinear[3] = {{0.0, 0.0}, {1.0, 0.0}, {2.0, 0.0}};
    polygon.count = 3;
    memcpy(polygon.vertices, collinear, sizeof(collinear));
    assert_refused(shape_status(carom_create_polygon_shape(body, &def, &polygon)),
                   CAROM_ERROR_INVALID_POLYGON, "collinear");
    carom_vec2 duplicate[3] = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}};
    memcpy(polygon.vertices, duplicate, sizeof(duplicate));
    assert_refused(shape_status(carom_create_polygon_shape(body, &def, &polygon)),
                   CAROM_ERROR_INVALID_POLYGON, "same point");
}

Test(api, segment_needs_two_distinct_points) {
    carom_shape_def def = carom_default_shape_def();
    carom_segment segment = {{1.0, 1.0}, {1.0, 1.0}};
    assert_refused(shape_status(carom_create_segment_shape(body, &def, &segment)),
                   CAROM_ERROR_INVALID_POLYGON, "same point");
}

Test(api, dynamic_body_without_mass_cannot_be_stepped) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    carom_body_id empty = carom_create_body(world, &def);
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_NO_MASS);
    cr_assert_neq(strstr(carom_last_error(), "no mass"), NULL);
    cr_assert_eq(carom_world_get_counters(world).step_count, 0, "the refused step did nothing");
    cr_assert_eq(carom_body_get_position(body).y, 2.0);

    carom_shape_def weightless = carom_default_shape_def();
    weightless.density = 0.0;
    carom_create_box_shape(empty, &weightless, 1.0, 1.0, carom_v2(0.0, 0.0), 0.0);
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_NO_MASS,
                 "a shape of zero density gives no mass");

    carom_shape_def solid = carom_default_shape_def();
    carom_shape_id shape = carom_create_box_shape(empty, &solid, 1.0, 1.0, carom_v2(0.0, 0.0), 0.0);
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK);
    carom_destroy_shape(shape);
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_NO_MASS,
                 "destroying the only massive shape makes it massless again");
    carom_destroy_body(empty);
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK);

    /* Bodies too light for a step to stay finite cannot be made (found by fuzzing the snapshot
     * loader: a density of 1e-320 gave a NaN center of mass, 1e-61 with a force blew up). */
    carom_world_def light_def = carom_default_world_def();
    carom_world_id light = carom_create_world(&light_def);
    carom_body_id feather = carom_create_body(light, &def);
    carom_shape_def wisp = carom_default_shape_def();
    wisp.density = 1e-320;
    cr_assert_eq(shape_status(carom_create_box_shape(feather, &wisp, 1.0, 1.0,
                                                     carom_v2(0.0, 0.0), 0.0)),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_neq(strstr(carom_last_error(), "density"), NULL);
    wisp.density = CAROM_MIN_DENSITY;
    carom_circle speck = {{0.0, 0.0}, 1e-9};
    cr_assert_eq(shape_status(carom_create_circle_shape(feather, &wisp, &speck)),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_neq(strstr(carom_last_error(), "radius"), NULL);
    speck.radius = CAROM_MIN_RADIUS;
    cr_assert(!CAROM_IS_NULL(carom_create_circle_shape(feather, &wisp, &speck)));
    carom_body_apply_force_to_center(feather,
                                     carom_v2(CAROM_MAX_MAGNITUDE, CAROM_MAX_MAGNITUDE));
    carom_body_apply_torque(feather, CAROM_MAX_MAGNITUDE);
    for (int i = 0; i < 10; ++i) {
        cr_assert_eq(carom_world_step(light, 1.0 / 60.0), CAROM_OK);
    }
    cr_assert(isfinite(carom_body_get_world_center(feather).x));
    cr_assert(isfinite(carom_body_get_angular_velocity(feather)));
    carom_destroy_world(light);
}

Test(api, step_dt_must_be_positive_and_finite) {
    const double bad[] = {0.0, -1.0 / 60.0, NAN, INFINITY};
    for (int i = 0; i < 4; ++i) {
        carom_status status = carom_world_step(world, bad[i]);
        cr_assert(status == CAROM_ERROR_OUT_OF_RANGE || status == CAROM_ERROR_NOT_FINITE,
                  "dt %g accepted", bad[i]);
        assert_unchanged();
    }
}

Test(api, destroyed_body_id_is_refused_everywhere) {
    carom_body_id stale = body;
    cr_assert_eq(carom_destroy_body(stale), CAROM_OK);
    cr_assert_not(carom_body_is_valid(stale));
    cr_assert_eq(carom_destroy_body(stale), CAROM_ERROR_INVALID_ID);
    carom_vec2 p = carom_body_get_position(stale);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert(p.x == 0.0 && p.y == 0.0);
    cr_assert_eq(carom_body_set_linear_velocity(stale, carom_v2(1.0, 0.0)),
                 CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_body_apply_force_to_center(stale, carom_v2(1.0, 0.0)),
                 CAROM_ERROR_INVALID_ID);
    carom_shape_def def = carom_default_shape_def();
    carom_circle circle = {{0.0, 0.0}, 1.0};
    cr_assert(CAROM_IS_NULL(carom_create_circle_shape(stale, &def, &circle)));
    /* the slot is reused by a new body, and the old id still does not reach it */
    carom_body_def body_def = carom_default_body_def();
    carom_body_id fresh = carom_create_body(world, &body_def);
    cr_assert_eq(fresh.index1, stale.index1, "slot reused");
    cr_assert_not(carom_body_is_valid(stale));
    cr_assert(carom_body_is_valid(fresh));
    body = fresh; /* keep teardown simple */
}

Test(api, setters_refuse_bad_values_and_change_nothing) {
    cr_assert_eq(carom_body_set_transform(body, carom_v2(NAN, 0.0), 0.0), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_body_set_transform(body, carom_v2(0.0, 0.0), INFINITY),
                 CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_body_set_linear_velocity(body, carom_v2(0.0, NAN)), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_body_set_angular_velocity(body, INFINITY), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_body_apply_force(body, carom_v2(NAN, 0.0), carom_v2(0.0, 0.0)),
                 CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_body_apply_linear_impulse(body, carom_v2(1.0, 0.0), carom_v2(NAN, 0.0)),
                 CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_body_apply_torque(body, NAN), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_world_set_gravity(world, carom_v2(0.0, INFINITY)), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_world_set_substeps(world, 0), CAROM_ERROR_OUT_OF_RANGE);
    assert_unchanged();
    cr_assert_eq(carom_body_get_linear_velocity(body).x, 0.0);
    cr_assert_eq(carom_body_get_angular_velocity(body), 0.0);
    cr_assert_eq(carom_world_get_gravity(world).y, -10.0);
    cr_assert_eq(carom_world_get_substeps(world), 4);
    /* a step after all that refused input moves the body by gravity alone */
    test_step(world, 1.0 / 60.0, 1);
    cr_assert_eq(carom_body_get_linear_velocity(body).x, 0.0);
    cr_assert_lt(carom_body_get_linear_velocity(body).y, 0.0);
}

Test(api, static_bodies_refuse_velocities) {
    carom_body_def def = carom_default_body_def();
    carom_body_id wall = carom_create_body(world, &def);
    cr_assert_eq(carom_body_set_linear_velocity(wall, carom_v2(1.0, 0.0)), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_body_set_angular_velocity(wall, 1.0), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_body_get_linear_velocity(wall).x, 0.0);
}

Test(api, shape_setters_check_their_ranges) {
    carom_shape_def def = carom_default_shape_def();
    carom_shape_id shape = carom_create_box_shape(body, &def, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
    cr_assert_eq(carom_shape_set_friction(shape, -1.0), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_shape_set_restitution(shape, 2.0), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_shape_set_density(shape, NAN), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_shape_get_friction(shape), 0.6);
    cr_assert_eq(carom_shape_get_restitution(shape), 0.0);
    cr_assert_eq(carom_shape_get_density(shape), 1.0);
}

Test(api, every_status_has_a_distinct_name) {
    for (int i = 0; i < CAROM_STATUS_COUNT; ++i) {
        const char* name = carom_status_str((carom_status)i);
        cr_assert(name != NULL && name[0] != '\0');
        for (int j = 0; j < i; ++j) {
            cr_assert_str_neq(name, carom_status_str((carom_status)j));
        }
    }
    cr_assert_str_eq(carom_status_str((carom_status)999), "unknown status");
    cr_assert_str_eq(carom_status_str((carom_status)-1), "unknown status");
}

Test(api, at_most_max_worlds_exist_at_once) {
    carom_world_def def = carom_default_world_def();
    carom_world_id worlds[CAROM_MAX_WORLDS];
    int made = 0;
    for (; made < CAROM_MAX_WORLDS; ++made) {
        worlds[made] = carom_create_world(&def);
        if (CAROM_IS_NULL(worlds[made])) {
            break;
        }
    }
    cr_assert_eq(made, CAROM_MAX_WORLDS - 1, "setup's world plus %d more", made);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_TOO_MANY_WORLDS);
    for (int i = 0; i < made; ++i) {
        cr_assert_eq(carom_destroy_world(worlds[i]), CAROM_OK);
        cr_assert_not(carom_world_is_valid(worlds[i]));
    }
    cr_assert_eq(carom_destroy_world(worlds[0]), CAROM_ERROR_INVALID_ID);
}

Test(api, numbers_too_large_to_step_safely_are_refused) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.linear_velocity = carom_v2(1e300, 0.0);
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    assert_refused(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE, "linear_velocity");
    carom_shape_def shape = carom_default_shape_def();
    carom_circle huge = {{0.0, 0.0}, 1e200};
    assert_refused(shape_status(carom_create_circle_shape(body, &shape, &huge)),
                   CAROM_ERROR_OUT_OF_RANGE, "radius");
    shape.density = 1e300;
    carom_circle circle = {{0.0, 0.0}, 1.0};
    assert_refused(shape_status(carom_create_circle_shape(body, &shape, &circle)),
                   CAROM_ERROR_OUT_OF_RANGE, "density");
    cr_assert_eq(carom_body_apply_force_to_center(body, carom_v2(0.0, -1e13)),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_body_set_transform(body, carom_v2(2e12, 0.0), 0.0), CAROM_ERROR_OUT_OF_RANGE);
    assert_unchanged();
}

/* Issue 21: a box's half extents had no lower bound. 1e-149 m gave an area that underflowed: a
 * force made the velocity infinite in one step, and with a circle on the same body the center
 * of mass became NaN; 4.9e-324 was accepted too. */
Test(api, boxes_smaller_than_the_smallest_polygon_are_refused) {
    carom_shape_def def = carom_default_shape_def();
    const double tiny[] = {1e-149, 4.9e-324, 0.999 * CAROM_MIN_BOX_HALF_EXTENT};
    for (int i = 0; i < 3; ++i) {
        assert_refused(
            shape_status(carom_create_box_shape(body, &def, tiny[i], 1.0, carom_v2(0.0, 0.0), 0.0)),
            CAROM_ERROR_OUT_OF_RANGE, "CAROM_MIN_BOX_HALF_EXTENT");
        cr_assert_neq(strstr(carom_last_error(), "half width"), NULL, "%s", carom_last_error());
        assert_refused(
            shape_status(carom_create_box_shape(body, &def, 1.0, tiny[i], carom_v2(0.0, 0.0), 0.0)),
            CAROM_ERROR_OUT_OF_RANGE, "half height");
        carom_polygon polygon;
        cr_assert_eq(carom_make_box(tiny[i], tiny[i], carom_v2(0.0, 0.0), 0.0, &polygon),
                     CAROM_ERROR_OUT_OF_RANGE);
    }
    /* the shortest box edge is the shortest polygon edge */
    cr_assert_eq(2.0 * CAROM_MIN_BOX_HALF_EXTENT, CAROM_POLYGON_WELD_TOLERANCE);
}

/* The smallest, lightest box and circle carom accepts on one body, pushed by the largest force
 * and torque it accepts, stay finite: the reproducer at the new limit. */
Test(api, the_smallest_lightest_shapes_stay_finite_under_the_largest_forces) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    carom_body_id speck = carom_create_body(world, &def);
    carom_shape_def light = carom_default_shape_def();
    light.density = CAROM_MIN_DENSITY;
    cr_assert(carom_shape_is_valid(carom_create_box_shape(speck, &light, CAROM_MIN_BOX_HALF_EXTENT,
                                                          CAROM_MIN_BOX_HALF_EXTENT,
                                                          carom_v2(0.0, 0.0), 0.0)));
    carom_circle circle = {{0.5, 0.0}, CAROM_MIN_RADIUS};
    cr_assert(carom_shape_is_valid(carom_create_circle_shape(speck, &light, &circle)));
    cr_assert_gt(carom_body_get_mass(speck), 1e-12);
    cr_assert_gt(carom_body_get_rotational_inertia(speck), 0.0);
    for (int i = 0; i < 20; ++i) {
        cr_assert_eq(carom_body_apply_force_to_center(
                         speck, carom_v2(CAROM_MAX_MAGNITUDE, -CAROM_MAX_MAGNITUDE)),
                     CAROM_OK);
        cr_assert_eq(carom_body_apply_torque(speck, CAROM_MAX_MAGNITUDE), CAROM_OK);
        cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK);
        carom_vec2 center = carom_body_get_world_center(speck);
        carom_vec2 velocity = carom_body_get_linear_velocity(speck);
        cr_assert(isfinite(center.x) && isfinite(center.y), "step %d", i);
        cr_assert(isfinite(velocity.x) && isfinite(velocity.y), "step %d", i);
        cr_assert(isfinite(carom_body_get_angular_velocity(speck)), "step %d", i);
    }
}

/* Each force and impulse is within CAROM_MAX_MAGNITUDE, but its effect need not be: an impulse
 * of 1e12 N·s on a body of 1e-11 kg gave 1e23 m/s. Results above the limit are refused, and a
 * refused call leaves the body as it was. */
Test(api, forces_and_impulses_whose_effect_is_too_large_are_refused) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    carom_body_id speck = carom_create_body(world, &def);
    carom_shape_def light = carom_default_shape_def();
    light.density = CAROM_MIN_DENSITY;
    carom_circle circle = {{0.0, 0.0}, CAROM_MIN_RADIUS};
    carom_create_circle_shape(speck, &light, &circle);
    carom_clear_last_error();

    cr_assert_eq(carom_body_apply_linear_impulse(speck, carom_v2(1e12, 0.0), carom_v2(0.0, 0.0)),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_neq(strstr(carom_last_error(), "linear velocity"), NULL, "%s", carom_last_error());
    cr_assert_eq(carom_body_apply_angular_impulse(speck, 1.0), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_neq(strstr(carom_last_error(), "angular velocity"), NULL, "%s", carom_last_error());
    /* a force far from the center: its torque is 1e24 N·m */
    cr_assert_eq(carom_body_apply_force(speck, carom_v2(0.0, 1e12), carom_v2(1e12, 0.0)),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_neq(strstr(carom_last_error(), "torque"), NULL, "%s", carom_last_error());
    /* forces that add up past the limit */
    cr_assert_eq(carom_body_apply_force_to_center(speck, carom_v2(0.75e12, 0.0)), CAROM_OK);
    cr_assert_eq(carom_body_apply_force_to_center(speck, carom_v2(0.75e12, 0.0)),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_neq(strstr(carom_last_error(), "force"), NULL, "%s", carom_last_error());
    cr_assert_eq(carom_body_apply_torque(speck, 0.75e12), CAROM_OK);
    cr_assert_eq(carom_body_apply_torque(speck, 0.75e12), CAROM_ERROR_OUT_OF_RANGE);

    cr_assert_eq(carom_body_get_linear_velocity(speck).x, 0.0);
    cr_assert_eq(carom_body_get_angular_velocity(speck), 0.0);
    /* what was accepted acts: 0.75e12 N on the body for one step, no more. It would give the
     * 2e-11 kg speck 6e20 m/s, and 0.75e12 N·m on its inertia of 6e-17 kg·m² 2e26 rad/s: the
     * step leaves both at the speed limits (base.h), which no accepted velocity exceeds */
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK);
    cr_assert_gt(0.75e12 / carom_body_get_mass(speck) / 60.0, CAROM_MAX_SPEED);
    cr_assert_float_eq(carom_body_get_linear_velocity(speck).x, CAROM_MAX_SPEED,
                       1e-9 * CAROM_MAX_SPEED);
    cr_assert_eq(carom_body_get_angular_velocity(speck), CAROM_MAX_ANGULAR_SPEED);
    /* and the step after, free of force, keeps that speed: the rule slows, it does not brake */
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK);
    cr_assert_float_eq(carom_body_get_linear_velocity(speck).x, CAROM_MAX_SPEED,
                       1e-9 * CAROM_MAX_SPEED);
    /* an impulse within the limit is still taken */
    cr_assert_eq(carom_body_apply_linear_impulse(body, carom_v2(1.0, 0.0),
                                                 carom_body_get_world_center(body)),
                 CAROM_OK);
    cr_assert_gt(carom_body_get_linear_velocity(body).x, 0.0);
}

/* Issue 21: carom_world_advance accepted a stepper whose accumulator was NaN, and never stepped
 * again (NaN >= dt is false), returning OK every frame. */
Test(api, a_stepper_with_an_invalid_accumulator_is_refused) {
    carom_fixed_stepper stepper;
    cr_assert_eq(carom_make_fixed_stepper(1.0 / 60.0, 4, &stepper), CAROM_OK);
    const double bad[] = {NAN, INFINITY, -INFINITY, -0.001};
    const carom_status expected[] = {CAROM_ERROR_NOT_FINITE, CAROM_ERROR_NOT_FINITE,
                                     CAROM_ERROR_NOT_FINITE, CAROM_ERROR_OUT_OF_RANGE};
    for (int i = 0; i < 4; ++i) {
        carom_fixed_stepper broken = stepper;
        broken.accumulator = bad[i];
        int steps = -1;
        cr_assert_eq(carom_world_advance(world, &broken, 0.1, &steps, NULL), expected[i],
                     "accumulator %g", bad[i]);
        cr_assert_neq(strstr(carom_last_error(), "accumulator"), NULL, "%s", carom_last_error());
        cr_assert_eq(steps, -1, "nothing written");
    }
    carom_fixed_stepper broken = stepper;
    broken.dropped_time = NAN;
    cr_assert_eq(carom_world_advance(world, &broken, 0.1, NULL, NULL), CAROM_ERROR_NOT_FINITE);
    cr_assert_neq(strstr(carom_last_error(), "dropped_time"), NULL);
    broken = stepper;
    broken.dt = 0.0;
    cr_assert_eq(carom_world_advance(world, &broken, 0.1, NULL, NULL), CAROM_ERROR_OUT_OF_RANGE);
    assert_unchanged();
    /* the good stepper steps */
    int steps = 0;
    cr_assert_eq(carom_world_advance(world, &stepper, 0.05, &steps, NULL), CAROM_OK);
    cr_assert_eq(steps, 3);
}

/* Issue 21: a shape placed 1e8 to 1e12 m from its body's origin gave the body zero or negative
 * rotational inertia (the parallel axis term cancelled every digit). */
Test(api, shapes_far_from_the_body_origin_keep_their_inertia) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    carom_shape_def shape = carom_default_shape_def();
    const double offsets[] = {1e8, 1e10, 1e12};
    for (int i = 0; i < 3; ++i) {
        double d = offsets[i];
        carom_body_id far = carom_create_body(world, &def);
        carom_circle circle = {{d, -d}, 0.5};
        carom_create_circle_shape(far, &shape, &circle);
        double mass = carom_body_get_mass(far);
        double expected = 0.5 * mass * 0.25;
        cr_assert_float_eq(carom_body_get_rotational_inertia(far), expected, 1e-9 * expected,
                           "offset %g: inertia %g, expected %g", d,
                           carom_body_get_rotational_inertia(far), expected);
        /* two unit boxes 2 m apart, both far off the origin: as if they were at the origin */
        carom_body_id pair = carom_create_body(world, &def);
        cr_assert(carom_shape_is_valid(
            carom_create_box_shape(pair, &shape, 0.5, 0.5, carom_v2(d - 3.0, d), 0.0)));
        cr_assert(carom_shape_is_valid(
            carom_create_box_shape(pair, &shape, 0.5, 0.5, carom_v2(d - 1.0, d), 0.0)));
        double pair_expected = 2.0 * (1.0 / 6.0 + 1.0);
        cr_assert_float_eq(carom_body_get_rotational_inertia(pair), pair_expected,
                           1e-6 * pair_expected, "offset %g: inertia %g, expected %g", d,
                           carom_body_get_rotational_inertia(pair), pair_expected);
        cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK);
        cr_assert(isfinite(carom_body_get_angular_velocity(far)));
        carom_destroy_body(far);
        carom_destroy_body(pair);
    }
}

/* Issue 21: world generations were 16 bits and wrapped after 65,536 create/destroy cycles, so a
 * stale world id, and the ids of its bodies, became valid again for a new world. A slot is now
 * retired when its generation would wrap. */
Test(api, stale_world_ids_stay_invalid_after_65536_cycles) {
    carom_world_def def = carom_default_world_def();
    carom_world_id first = carom_create_world(&def);
    carom_body_def body_def = carom_default_body_def();
    carom_body_id first_body = carom_create_body(first, &body_def);
    cr_assert_eq(carom_destroy_world(first), CAROM_OK);
    carom_world_id last = first;
    for (int cycle = 1; cycle <= 70000; ++cycle) {
        carom_world_id id = carom_create_world(&def);
        cr_assert(carom_world_is_valid(id), "cycle %d: %s", cycle, carom_last_error());
        carom_body_id body_id = carom_create_body(id, &body_def);
        cr_assert_not(carom_world_is_valid(first), "cycle %d: the first world's id is valid again",
                      cycle);
        cr_assert_not(carom_body_is_valid(first_body),
                      "cycle %d: the first world's body id is valid again", cycle);
        cr_assert_not(carom_world_is_valid(last), "cycle %d", cycle);
        cr_assert_eq(carom_destroy_world(id), CAROM_OK);
        cr_assert_not(carom_body_is_valid(body_id));
        last = id;
    }
    /* the slot served its 65,535 worlds and was retired: creation moved to the next slot */
    cr_assert_neq(last.index1, first.index1);
}

/* When every slot is either in use or retired, creation says so. */
Test(api, a_process_runs_out_of_world_slots_with_a_message) {
    carom_world_def def = carom_default_world_def();
    /* retire the slots after setup's world and one more, keeping one world to hold a slot */
    carom_world_id held = carom_create_world(&def);
    int retired = 0;
    while (retired < CAROM_MAX_WORLDS - 2) {
        carom_world_id id = carom_create_world(&def);
        cr_assert(carom_world_is_valid(id), "%s", carom_last_error());
        carom_destroy_world(id);
        if (id.generation == UINT16_MAX) {
            retired += 1;
        }
    }
    carom_world_id none = carom_create_world(&def);
    cr_assert(CAROM_IS_NULL(none));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_TOO_MANY_WORLDS);
    cr_assert_neq(strstr(carom_last_error(), "retired"), NULL, "%s", carom_last_error());
    /* destroying a world frees a slot that still has generations left */
    cr_assert_eq(carom_destroy_world(held), CAROM_OK);
    carom_world_id again = carom_create_world(&def);
    cr_assert(carom_world_is_valid(again));
    cr_assert_eq(again.index1, held.index1);
    cr_assert_neq(again.generation, held.generation);
    carom_destroy_world(again);
}

/* Issue 21: an id with a negative index overflowed a signed integer while the error message was
 * written (index1 - 1 for INT32_MIN); UndefinedBehaviorSanitizer stops the test if it does. */
Test(api, ids_with_negative_indices_are_refused_cleanly) {
    carom_body_id bad_body = body;
    bad_body.index1 = INT32_MIN;
    cr_assert_not(carom_body_is_valid(bad_body));
    cr_assert_eq(carom_destroy_body(bad_body), CAROM_ERROR_INVALID_ID);
    cr_assert_neq(strstr(carom_last_error(), "-2147483649"), NULL, "%s", carom_last_error());
    bad_body.index1 = -1;
    cr_assert_eq(carom_body_get_position(bad_body).x, 0.0);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    carom_shape_id bad_shape = {INT32_MIN, 0, body.world0, body.world_generation};
    cr_assert_not(carom_shape_is_valid(bad_shape));
    cr_assert_eq(carom_destroy_shape(bad_shape), CAROM_ERROR_INVALID_ID);
    cr_assert_neq(strstr(carom_last_error(), "-2147483649"), NULL, "%s", carom_last_error());
    carom_vehicle_id bad_vehicle = {INT32_MIN, 0, body.world0, body.world_generation};
    cr_assert_not(carom_vehicle_is_valid(bad_vehicle));
    cr_assert_eq(carom_destroy_vehicle(bad_vehicle), CAROM_ERROR_INVALID_ID);
    cr_assert_neq(strstr(carom_last_error(), "-2147483649"), NULL, "%s", carom_last_error());
    assert_unchanged();
}

/* Issue 21: resolving an id on one thread while another created a world raced on the registry:
 * the new world was published before its generation, so for an instant a stale id resolved to
 * the world that took its slot. One thread creates and destroys worlds and publishes each
 * destroyed id; this one checks, as fast as it can, that the latest stays invalid. */
typedef struct churn {
    _Atomic uint32_t destroyed; /* the last destroyed world id, index1 << 16 | generation */
    _Atomic int stop;
    _Atomic int cycles;
} churn;

static void* churn_worlds(void* context) {
    churn* c = context;
    carom_world_def def = carom_default_world_def();
    while (!atomic_load(&c->stop) && atomic_load(&c->cycles) < 1000000) {
        carom_world_id id = carom_create_world(&def);
        carom_destroy_world(id);
        atomic_store(&c->destroyed, (uint32_t)id.index1 << 16 | id.generation);
        atomic_fetch_add(&c->cycles, 1);
    }
    return NULL;
}

Test(api, stale_ids_resolve_safely_while_another_thread_creates_worlds) {
    churn c = {0, 0, 0};
    pthread_t thread;
    cr_assert_eq(pthread_create(&thread, NULL, churn_worlds, &c), 0);
    int checks = 0;
    while (checks < 300000) {
        uint32_t packed = atomic_load(&c.destroyed);
        if (packed == 0) {
            continue; /* the other thread has not destroyed its first world yet */
        }
        carom_world_id stale = {(uint16_t)(packed >> 16), (uint16_t)(packed & 0xffffu)};
        int world_valid = carom_world_is_valid(stale);
        carom_body_id stale_body = {1, 0, (uint16_t)(stale.index1 - 1), stale.generation};
        int body_valid = carom_body_is_valid(stale_body);
        if (world_valid || body_valid) {
            atomic_store(&c.stop, 1);
            pthread_join(thread, NULL);
            cr_assert_fail("world {%u, %u} resolved after it was destroyed", stale.index1,
                           stale.generation);
        }
        checks += 1;
    }
    atomic_store(&c.stop, 1);
    pthread_join(thread, NULL);
    cr_assert_gt(atomic_load(&c.cycles), 0);
    cr_assert_gt(checks, 0);
}
