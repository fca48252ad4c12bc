/* Shapes: attaching, destroying, density changes and collision filtering. */
#include "helpers.h"
#include "world.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* A box sliding at 10 m/s along the ground y = 0 made of `pieces` shapes between x = -5 and 95:
 * one chain, or separate segments. Returns its speed after 5 s. */
static double slide_speed(int pieces, bool chain) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def shape = carom_default_shape_def();
    shape.friction = 0.1;
    carom_vec2 points[101];
    for (int i = 0; i <= pieces; ++i) {
        points[i] = carom_v2(-5.0 + 100.0 * i / pieces, 0.0);
    }
    if (chain) {
        cr_assert_eq(carom_create_chain(ground, &shape, points, pieces + 1, 0, NULL), CAROM_OK);
    } else {
        for (int i = 0; i < pieces; ++i) {
            carom_segment segment = {points[i], points[i + 1]};
            carom_create_segment_shape(ground, &shape, &segment);
        }
    }
    carom_body_id box = test_make_box(world, carom_v2(0.0, 0.25), 0.5, 0.25, 0.0, 0.1, 0.0);
    carom_body_set_linear_velocity(box, carom_v2(10.0, 0.0));
    test_step(world, 1.0 / 60.0, 300);
    double speed = carom_body_get_linear_velocity(box).x;
    cr_assert_lt(fabs(carom_body_get_position(box).y - 0.25), 0.01, "box stays on the ground");
    carom_destroy_world(world);
    return speed;
}

Test(shape, box_sliding_along_a_hundred_segment_chain_keeps_the_speed_of_one_long_segment) {
    double reference = slide_speed(1, false);
    double chained = slide_speed(100, true);
    cr_log_info("speed after 5 s: one segment %.6f m/s, 100-segment chain %.6f m/s", reference,
                chained);
    cr_assert_gt(reference, 4.0, "friction 0.1 for 5 s leaves about 5 m/s");
    cr_assert_lt(fabs(chained - reference) / reference, 0.01, "chain %.6f vs segment %.6f",
                 chained, reference);
}

Test(shape, chain_corners_stop_what_they_should) {
    /* floor from x = -5 to 5, then a wall up to y = 5: a convex-free valley. A box thrown right
     * slides along the floor and stops at the wall instead of passing it. */
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def shape = carom_default_shape_def();
    carom_vec2 points[3] = {{-5.0, 0.0}, {5.0, 0.0}, {5.0, 5.0}};
    cr_assert_eq(carom_create_chain(ground, &shape, points, 3, 0, NULL), CAROM_OK);
    carom_body_id box = test_make_box(world, carom_v2(0.0, 0.5), 0.5, 0.5, 0.0, 0.1, 0.0);
    carom_body_set_linear_velocity(box, carom_v2(8.0, 0.0));
    test_step(world, 1.0 / 60.0, 180);
    cr_assert_lt(carom_body_get_position(box).x, 4.5 + 0.01, "the wall stops the box");
    cr_assert_gt(carom_body_get_position(box).y, 0.49, "the box stays on the floor");
    carom_destroy_world(world);
}

Test(shape, box_slides_off_a_convex_chain_edge_and_falls) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def shape = carom_default_shape_def();
    carom_vec2 points[4] = {{-5.0, 2.0}, {0.0, 2.0}, {0.0, 0.0}, {10.0, 0.0}};
    carom_shape_id segments[3];
    cr_assert_eq(carom_create_chain(ground, &shape, points, 4, 0, segments), CAROM_OK);
    cr_assert_eq(carom_shape_get_type(segments[0]), CAROM_SHAPE_CHAIN_SEGMENT);
    carom_body_id ball = test_make_ball(world, carom_v2(-3.0, 2.25), 0.25, carom_v2(4.0, 0.0), 0.0,
                                        0.0);
    test_step(world, 1.0 / 60.0, 120);
    carom_vec2 p = carom_body_get_position(ball);
    cr_assert_gt(p.x, 1.0, "the ball went over the edge");
    cr_assert_float_eq(p.y, 0.25, 0.01, "and landed on the lower floor");
    carom_destroy_world(world);
}

Test(shape, chain_points_are_validated) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def shape = carom_default_shape_def();
    carom_vec2 one[1] = {{0.0, 0.0}};
    cr_assert_eq(carom_create_chain(ground, &shape, one, 1, 0, NULL), CAROM_ERROR_OUT_OF_RANGE);
    carom_vec2 two[2] = {{0.0, 0.0}, {1.0, 0.0}};
    cr_assert_eq(carom_create_chain(ground, &shape, two, 2, 1, NULL), CAROM_ERROR_OUT_OF_RANGE,
                 "a loop needs three points");
    carom_vec2 repeated[3] = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}};
    cr_assert_eq(carom_create_chain(ground, &shape, repeated, 3, 0, NULL),
                 CAROM_ERROR_INVALID_POLYGON);
    carom_vec2 bad[2] = {{0.0, NAN}, {1.0, 0.0}};
    cr_assert_eq(carom_create_chain(ground, &shape, bad, 2, 0, NULL), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_create_chain(ground, &shape, NULL, 2, 0, NULL), CAROM_ERROR_NULL_ARGUMENT);
    cr_assert_eq(carom_world_get_counters(world).shape_count, 0, "nothing was created");
    carom_destroy_world(world);
}

Test(shape, sensor_detects_but_never_pushes) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def zone_def = carom_default_body_def();
    carom_body_id zone = carom_create_body(world, &zone_def);
    carom_shape_def sensor = carom_default_shape_def();
    sensor.is_sensor = 1;
    carom_shape_id id = carom_create_box_shape(zone, &sensor, 2.0, 2.0, carom_v2(0.0, 0.0), 0.0);
    cr_assert(carom_shape_is_sensor(id));
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 3.0), 0.25, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    test_step(world, 1.0 / 60.0, 60);
    cr_assert_float_eq(carom_body_get_position(ball).y, 3.0 - 5.0 * 1.0 * (1.0 + 1.0 / 240.0),
                       1e-9, "the ball falls freely through the sensor");
    cr_assert_geq(carom_world_get_counters(world).contact_count, 1, "the overlap is tracked");
    carom_destroy_world(world);
}

/* A ball thrown at a one-sided chain from either side. Returns its x after 2 s. */
static double ball_through_one_sided_wall(double start_x, double vx) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    carom_body_id wall = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.one_sided = 1;
    /* running down the line x = 0: its right side, the solid one, faces -x */
    carom_vec2 points[3] = {{0.0, 5.0}, {0.0, 0.0}, {0.0, -5.0}};
    cr_assert_eq(carom_create_chain(wall, &shape, points, 3, 0, NULL), CAROM_OK);
    carom_body_id ball = test_make_ball(world, carom_v2(start_x, 0.3), 0.25, carom_v2(vx, 0.0),
                                        0.0, 0.0);
    test_step(world, 1.0 / 60.0, 120);
    double x = carom_body_get_position(ball).x;
    carom_destroy_world(world);
    return x;
}

Test(shape, one_sided_chain_stops_from_the_front_and_lets_through_from_the_back) {
    cr_assert_lt(ball_through_one_sided_wall(-3.0, 5.0), -0.24, "stopped in front");
    cr_assert_gt(ball_through_one_sided_wall(3.0, -5.0), -8.0 + 0.01, "passed from behind");
    cr_assert_lt(ball_through_one_sided_wall(-3.0, 200.0), -0.24, "fast: swept, still stopped");
    cr_assert_lt(ball_through_one_sided_wall(3.0, -200.0), -100.0, "fast from behind: through");
}

/* A box around the body origin gets its world box from its half extents (shape.c) rather than
 * from its placed corners; both must give the same bits, at every angle and position, and a box
 * made any other way (off-centre, turned in the body) must still be boxed from its corners. */
Test(shape, centred_box_world_box_has_the_bits_of_its_placed_corners) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape_def = carom_default_shape_def();
    carom_shape_id centred = carom_create_box_shape(body, &shape_def, 0.5, 1.0, carom_v2(0.0, 0.0),
                                                    0.0);
    carom_shape_id offset = carom_create_box_shape(body, &shape_def, 0.3, 0.7, carom_v2(0.2, -0.1),
                                                   0.0);
    carom_shape_id turned = carom_create_box_shape(body, &shape_def, 0.3, 0.7, carom_v2(0.0, 0.0),
                                                   0.25);
    carom_polygon polygons[3];
    cr_assert_eq(carom_make_box(0.5, 1.0, carom_v2(0.0, 0.0), 0.0, &polygons[0]), CAROM_OK);
    cr_assert_eq(carom_make_box(0.3, 0.7, carom_v2(0.2, -0.1), 0.0, &polygons[1]), CAROM_OK);
    cr_assert_eq(carom_make_box(0.3, 0.7, carom_v2(0.0, 0.0), 0.25, &polygons[2]), CAROM_OK);
    carom_shape_id shapes[3] = {centred, offset, turned};
    uint32_t seed = 12345u;
    for (int i = 0; i < 2000; ++i) {
        seed = seed * 1664525u + 1013904223u;
        double angle = (double)seed / 4294967296.0 * 7.0 - 3.5;
        /* quarter turns exactly too, where sine or cosine is zero */
        if (i % 50 == 0) {
            angle = (i / 50 % 4) * 0.5 * CAROM_PI;
        }
        carom_vec2 position = {1000.0 * sin(3.0 * i), -37.5 + 0.001 * i};
        cr_assert_eq(carom_body_set_transform(body, position, angle), CAROM_OK);
        carom_transform xf = carom_body_get_transform(body);
        for (int k = 0; k < 3; ++k) {
            carom_aabb got = carom_shape_get_aabb(shapes[k]);
            carom_aabb want = carom_compute_polygon_aabb(&polygons[k], xf);
            cr_assert(memcmp(&got, &want, sizeof(got)) == 0,
                      "shape %d at angle %.17g: (%.17g, %.17g)-(%.17g, %.17g) instead of "
                      "(%.17g, %.17g)-(%.17g, %.17g)", k, angle, got.lower.x, got.lower.y,
                      got.upper.x, got.upper.y, want.lower.x, want.lower.y, want.upper.x,
                      want.upper.y);
        }
    }
    carom_destroy_world(world);
}

/* Issue 21: carom_create_chain recomputed the body's mass after every segment, walking all its
 * shapes each time: 5,000 points took 0.34 s, 40,000 points 49 s, and a 200,000-point chain
 * would have taken over 20 minutes (well past this test's time limit). Now the mass is
 * updated once, and the chain below takes a fraction of a second (docs/guide.md). */
Test(shape, a_chain_of_200000_points_is_built_whole_and_holds_a_ball) {
    enum { POINTS = 200000 };
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &def);
    /* a closed ring of radius 400 m: points 12.6 mm apart */
    const double radius = 400.0;
    carom_vec2* points = malloc(sizeof(carom_vec2) * POINTS);
    carom_shape_id* segments = malloc(sizeof(carom_shape_id) * POINTS);
    for (int i = 0; i < POINTS; ++i) {
        carom_rot q = carom_make_rot(2.0 * CAROM_PI * i / POINTS);
        points[i] = carom_v2(radius * q.c, radius * q.s);
    }
    carom_shape_def shape = carom_default_shape_def();
    cr_assert_eq(carom_create_chain(ground, &shape, points, POINTS, 1, segments), CAROM_OK, "%s",
                 carom_last_error());
    cr_assert_eq(carom_world_get_counters(world).shape_count, POINTS);
    /* every segment is a chain segment from point i to point i + 1, ghosts at i - 1 and i + 2 */
    carom_world* w = carom_get_world_checked(world);
    for (int i = 0; i < POINTS; ++i) {
        cr_assert(carom_shape_is_valid(segments[i]));
        const carom_chain_segment* chain = &w->shapes[segments[i].index1 - 1].chain;
        cr_assert(chain->point1.x == points[i].x && chain->point1.y == points[i].y, "%d", i);
        carom_vec2 next = points[(i + 1) % POINTS];
        cr_assert(chain->point2.x == next.x && chain->point2.y == next.y, "%d", i);
        carom_vec2 before = points[(i + POINTS - 1) % POINTS];
        carom_vec2 after = points[(i + 2) % POINTS];
        cr_assert(chain->has_ghost1 && chain->has_ghost2, "%d", i);
        cr_assert(chain->ghost1.x == before.x && chain->ghost1.y == before.y, "%d", i);
        cr_assert(chain->ghost2.x == after.x && chain->ghost2.y == after.y, "%d", i);
    }
    /* a ball dropped inside the ring comes to rest on its bottom */
    carom_body_id ball =
        test_make_ball(world, carom_v2(0.0, -395.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    test_step(world, 1.0 / 60.0, 180);
    cr_assert_float_eq(carom_body_get_position(ball).y, -radius + 0.5, 0.01);
    cr_assert_eq(carom_destroy_body(ground), CAROM_OK);
    cr_assert_eq(carom_world_get_counters(world).shape_count, 1);
    free(points);
    free(segments);
    carom_destroy_world(world);
}

/* A chain on a body that has mass leaves its mass properties as they were (the one update after
 * the segments sees them all). */
Test(shape, a_chain_on_a_massive_body_adds_no_mass) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_id body = test_make_box(world, carom_v2(1.0, 2.0), 0.5, 0.25, 0.3, 0.6, 0.0);
    carom_body_set_angular_velocity(body, 2.0);
    double mass = carom_body_get_mass(body);
    double inertia = carom_body_get_rotational_inertia(body);
    carom_vec2 center = carom_body_get_world_center(body);
    carom_vec2 points[4] = {{-1.0, -1.0}, {1.0, -1.0}, {1.0, 1.0}, {-1.0, 1.0}};
    carom_shape_def shape = carom_default_shape_def();
    cr_assert_eq(carom_create_chain(body, &shape, points, 4, 1, NULL), CAROM_OK);
    cr_assert_eq(carom_world_get_counters(world).shape_count, 5);
    cr_assert_eq(carom_body_get_mass(body), mass);
    cr_assert_eq(carom_body_get_rotational_inertia(body), inertia);
    cr_assert_eq(carom_body_get_world_center(body).x, center.x);
    cr_assert_eq(carom_body_get_world_center(body).y, center.y);
    carom_destroy_world(world);
}
