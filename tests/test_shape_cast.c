/* World shape casts (issue 16): fractions against analytic answers, the order of all hits,
 * filters, misses, initial overlaps and refused input. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static carom_world_id world;

static void setup(void) { world = test_make_world(carom_v2(0.0, 0.0)); }
static void teardown(void) { carom_destroy_world(world); }

TestSuite(shape_cast, .init = setup, .fini = teardown);

/* A static body at p turned by angle. */
static carom_body_id static_body(carom_vec2 p, double angle) {
    carom_body_def def = carom_default_body_def();
    def.position = p;
    def.angle = angle;
    return carom_create_body(world, &def);
}

static carom_shape_id static_box(carom_vec2 p, double hx, double hy, double angle) {
    carom_shape_def shape = carom_default_shape_def();
    return carom_create_box_shape(static_body(p, angle), &shape, hx, hy, carom_v2(0.0, 0.0), 0.0);
}

static carom_shape_id static_segment(carom_vec2 a, carom_vec2 b) {
    carom_shape_def shape = carom_default_shape_def();
    carom_segment segment = {a, b};
    return carom_create_segment_shape(static_body(carom_v2(0.0, 0.0), 0.0), &shape, &segment);
}

static carom_convex_shape circle_query(double radius) {
    carom_convex_shape q;
    memset(&q, 0, sizeof q);
    q.is_circle = 1;
    q.circle.radius = radius;
    return q;
}

static carom_convex_shape box_query(double hx, double hy, double radius) {
    carom_convex_shape q;
    memset(&q, 0, sizeof q);
    cr_assert_eq(carom_make_rounded_box(hx, hy, carom_v2(0.0, 0.0), 0.0, radius, &q.polygon),
                 CAROM_OK);
    return q;
}

static carom_convex_shape capsule_query(carom_vec2 c1, carom_vec2 c2, double radius) {
    carom_convex_shape q;
    memset(&q, 0, sizeof q);
    carom_capsule capsule = {c1, c2, radius};
    cr_assert_eq(carom_make_capsule_polygon(&capsule, &q.polygon), CAROM_OK);
    return q;
}

static carom_transform at(double x, double y) {
    carom_transform xf = {{x, y}, carom_rot_identity()};
    return xf;
}

/* Queries see the world as of the last step. */
static void settle(void) { test_step(world, 1.0 / 60.0, 1); }

typedef struct hit_log {
    int count;
    carom_shape_id shapes[8];
    double fractions[8];
    carom_vec2 points[8], normals[8];
    double answer; /* what the callback returns */
} hit_log;

static double log_hit(carom_shape_id shape, carom_vec2 point, carom_vec2 normal, double fraction,
                      void* context) {
    hit_log* log = context;
    if (log->count < 8) {
        log->shapes[log->count] = shape;
        log->fractions[log->count] = fraction;
        log->points[log->count] = point;
        log->normals[log->count] = normal;
    }
    log->count += 1;
    return log->answer;
}

Test(shape_cast, a_circle_cast_at_a_box_face_stops_where_it_touches_the_face) {
    carom_shape_id box = static_box(carom_v2(5.0, 0.2), 1.0, 1.0, 0.0); /* left face x = 4 */
    settle();
    carom_convex_shape q = circle_query(0.5);
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.0, 0.0),
                                                        carom_v2(10.0, 0.0),
                                                        carom_default_filter());
    cr_assert(r.hit);
    cr_assert(carom_shape_id_equals(r.shape, box));
    cr_assert_float_eq(r.fraction, 0.35, 1e-12, "centre at x = 3.5: %.17g", r.fraction);
    cr_assert_float_eq(r.point.x, 4.0, 1e-12);
    cr_assert_float_eq(r.point.y, 0.0, 1e-12);
    cr_assert_float_eq(r.normal.x, -1.0, 1e-12, "the face's normal, towards the circle");
    cr_assert_float_eq(r.normal.y, 0.0, 1e-12);
}

Test(shape_cast, a_box_cast_at_a_rotated_box_meets_its_corner) {
    /* a 2 x 2 box turned 45 degrees at (5, 0): its left corner is at x = 5 - sqrt(2) */
    carom_shape_id diamond = static_box(carom_v2(5.0, 0.0), 1.0, 1.0, 0.25 * CAROM_PI);
    settle();
    carom_convex_shape q = box_query(0.5, 0.5, 0.0);
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.0, 0.0),
                                                        carom_v2(10.0, 0.0),
                                                        carom_default_filter());
    cr_assert(r.hit);
    cr_assert(carom_shape_id_equals(r.shape, diamond));
    double expected = (4.5 - sqrt(2.0)) / 10.0; /* the right face at x = 0.5 + 10 t */
    cr_assert_float_eq(r.fraction, expected, 1e-12, "%.17g vs %.17g", r.fraction, expected);
    cr_assert_float_eq(r.point.x, 5.0 - sqrt(2.0), 1e-9);
    cr_assert_float_eq(r.point.y, 0.0, 1e-9);
    cr_assert_float_eq(r.normal.x, -1.0, 1e-12, "the box's face takes the corner");
    /* turned by 45 degrees itself, the box meets the diamond face to face */
    carom_transform turned = {{0.0, 0.0}, carom_make_rot(0.25 * CAROM_PI)};
    r = carom_world_cast_shape_closest(world, &q, turned, carom_v2(10.0, 0.0),
                                       carom_default_filter());
    cr_assert(r.hit);
    /* corner to corner along x: 0.5 sqrt(2) + 10 t = 5 - sqrt(2) */
    expected = (5.0 - 1.5 * sqrt(2.0)) / 10.0;
    cr_assert_float_eq(r.fraction, expected, 1e-12, "%.17g vs %.17g", r.fraction, expected);
    cr_assert_float_eq(r.point.x, 5.0 - sqrt(2.0), 1e-9, "the corners meet: %.17g", r.point.x);
    cr_assert_float_eq(r.point.y, 0.0, 1e-9);
    cr_assert_float_eq(hypot(r.normal.x, r.normal.y), 1.0, 1e-12);
}

Test(shape_cast, a_rounded_box_cast_stops_its_radius_earlier) {
    static_box(carom_v2(5.0, 0.0), 1.0, 1.0, 0.0);
    settle();
    carom_convex_shape q = box_query(0.5, 0.5, 0.1); /* right side at x = 0.6 */
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.0, 0.0),
                                                        carom_v2(10.0, 0.0),
                                                        carom_default_filter());
    cr_assert(r.hit);
    cr_assert_float_eq(r.fraction, 0.34, 1e-12, "%.17g", r.fraction);
    cr_assert_float_eq(r.point.x, 4.0, 1e-9);
    cr_assert_float_eq(r.point.y, 0.0, 1e-9, "the middle of the face-to-face stretch");
}

Test(shape_cast, a_capsule_cast_into_a_corner_hits_the_wall_then_the_floor) {
    carom_shape_id floor = static_segment(carom_v2(-10.0, 0.0), carom_v2(10.0, 0.0));
    carom_shape_id wall = static_segment(carom_v2(5.0, -10.0), carom_v2(5.0, 10.0));
    settle();
    /* a horizontal capsule from x = -0.5 to 0.5 at y = 3, radius 0.25, moving by (8, -4): its
     * right end reaches the wall when 0.75 + 8 t = 5, its underside the floor when
     * 3 - 4 t = 0.25 */
    carom_convex_shape q = capsule_query(carom_v2(-0.5, 0.0), carom_v2(0.5, 0.0), 0.25);
    hit_log log = {.answer = 1.0};
    cr_assert_eq(carom_world_cast_shape(world, &q, at(0.0, 3.0), carom_v2(8.0, -4.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_OK);
    cr_assert_eq(log.count, 2);
    cr_assert(carom_shape_id_equals(log.shapes[0], wall));
    cr_assert_float_eq(log.fractions[0], 0.53125, 1e-12, "%.17g", log.fractions[0]);
    cr_assert_float_eq(log.points[0].x, 5.0, 1e-9);
    cr_assert_float_eq(log.points[0].y, 3.0 - 4.0 * 0.53125, 1e-9);
    cr_assert_float_eq(log.normals[0].x, -1.0, 1e-12);
    cr_assert(carom_shape_id_equals(log.shapes[1], floor));
    cr_assert_float_eq(log.fractions[1], 0.6875, 1e-12, "%.17g", log.fractions[1]);
    cr_assert_float_eq(log.points[1].x, 5.5, 1e-9, "the middle of the flat underside");
    cr_assert_float_eq(log.points[1].y, 0.0, 1e-9);
    cr_assert_float_eq(log.normals[1].y, 1.0, 1e-12);
    /* the closest is the wall; stopping at the first hit reports only it */
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.0, 3.0),
                                                        carom_v2(8.0, -4.0),
                                                        carom_default_filter());
    cr_assert(carom_shape_id_equals(r.shape, wall));
    cr_assert(r.fraction == log.fractions[0], "closest and all agree bit for bit");
    hit_log first = {.answer = 0.0};
    carom_world_cast_shape(world, &q, at(0.0, 3.0), carom_v2(8.0, -4.0), carom_default_filter(),
                           log_hit, &first);
    cr_assert_eq(first.count, 1);
}

Test(shape_cast, all_hits_come_in_fraction_order_and_ties_go_to_the_lower_shape_id) {
    /* circles along the path at x = 9, 3, 6 (created in that order), and two boxes mirrored
     * about the path at x = 12, which the cast circle touches at the same moment */
    carom_shape_def def = carom_default_shape_def();
    double xs[3] = {9.0, 3.0, 6.0};
    carom_shape_id circles[3];
    for (int i = 0; i < 3; ++i) {
        carom_circle c = {{0.0, 0.0}, 0.5};
        circles[i] = carom_create_circle_shape(static_body(carom_v2(xs[i], 0.1 * i), 0.0), &def,
                                               &c);
    }
    carom_shape_id upper = static_box(carom_v2(12.0, 1.2), 0.5, 0.5, 0.0);
    carom_shape_id lower = static_box(carom_v2(12.0, -1.2), 0.5, 0.5, 0.0);
    settle();
    carom_convex_shape q = circle_query(1.0);
    hit_log log = {.answer = 1.0};
    /* a disc of radius 1 along y = 0: it meets every circle, then both boxes' inner corners */
    cr_assert_eq(carom_world_cast_shape(world, &q, at(-2.0, 0.0), carom_v2(20.0, 0.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_OK);
    cr_assert_eq(log.count, 5);
    cr_assert(carom_shape_id_equals(log.shapes[0], circles[1]));
    cr_assert(carom_shape_id_equals(log.shapes[1], circles[2]));
    cr_assert(carom_shape_id_equals(log.shapes[2], circles[0]));
    for (int i = 1; i < 5; ++i) {
        cr_assert(log.fractions[i - 1] <= log.fractions[i], "hit %d out of order", i);
    }
    /* the boxes' lower corners are at (11.5, +-0.7): (11.5 - x)^2 + 0.49 = 1 */
    double expected = (11.5 - sqrt(0.51) + 2.0) / 20.0;
    cr_assert_float_eq(log.fractions[3], expected, 1e-12);
    cr_assert(log.fractions[3] == log.fractions[4], "mirror images tie bit for bit");
    cr_assert(carom_shape_id_equals(log.shapes[3], upper), "lower shape id first");
    cr_assert(carom_shape_id_equals(log.shapes[4], lower));
    /* a fraction answer clips the rest: only hits up to it come */
    hit_log clipped = {.answer = 0.4};
    carom_world_cast_shape(world, &q, at(-2.0, 0.0), carom_v2(20.0, 0.0), carom_default_filter(),
                           log_hit, &clipped);
    cr_assert_eq(clipped.count, 2, "the circles at x = 3 (0.175) and 6 (0.326); 9 (0.475) not");
}

Test(shape_cast, a_cast_is_repeatable_bit_for_bit) {
    /* a field of turned boxes and circles; the same cast twice, and after a save and restore
     * of nothing in between, gives the same bits */
    carom_shape_def def = carom_default_shape_def();
    for (int i = 0; i < 40; ++i) {
        double x = (i % 8) * 1.7, y = (i / 8) * 1.3 - 3.0;
        if (i % 3 == 0) {
            carom_circle c = {{0.0, 0.0}, 0.3 + 0.01 * i};
            carom_create_circle_shape(static_body(carom_v2(x, y), 0.0), &def, &c);
        } else {
            static_box(carom_v2(x, y), 0.3, 0.2, 0.1 * i);
        }
    }
    settle();
    carom_convex_shape q = capsule_query(carom_v2(-0.2, 0.0), carom_v2(0.2, 0.1), 0.15);
    carom_transform xf = {{-3.0, -4.0}, carom_make_rot(0.3)};
    hit_log a = {.answer = 1.0}, b = {.answer = 1.0};
    carom_world_cast_shape(world, &q, xf, carom_v2(20.0, 9.0), carom_default_filter(), log_hit,
                           &a);
    carom_world_cast_shape(world, &q, xf, carom_v2(20.0, 9.0), carom_default_filter(), log_hit,
                           &b);
    cr_assert(a.count >= 3, "the cast crosses the field: %d hits", a.count);
    cr_assert_eq(a.count, b.count);
    int n = a.count < 8 ? a.count : 8;
    for (int i = 0; i < n; ++i) {
        cr_assert(carom_shape_id_equals(a.shapes[i], b.shapes[i]));
        cr_assert(memcmp(&a.fractions[i], &b.fractions[i], sizeof(double)) == 0);
        cr_assert(memcmp(&a.points[i], &b.points[i], sizeof(carom_vec2)) == 0);
        cr_assert(memcmp(&a.normals[i], &b.normals[i], sizeof(carom_vec2)) == 0);
        cr_assert(a.fractions[i] >= 0.0 && a.fractions[i] <= 1.0);
        cr_assert_float_eq(hypot(a.normals[i].x, a.normals[i].y), 1.0, 1e-12);
    }
}

Test(shape_cast, filters_and_sensors_are_passed_through) {
    carom_shape_def def = carom_default_shape_def();
    def.filter.category = 0x2;
    carom_shape_id near = carom_create_box_shape(static_body(carom_v2(3.0, 0.0), 0.0), &def, 0.5,
                                                 0.5, carom_v2(0.0, 0.0), 0.0);
    carom_shape_def sensor = carom_default_shape_def();
    sensor.is_sensor = 1;
    carom_create_box_shape(static_body(carom_v2(5.0, 0.0), 0.0), &sensor, 0.5, 0.5,
                           carom_v2(0.0, 0.0), 0.0);
    carom_shape_id far = static_box(carom_v2(7.0, 0.0), 0.5, 0.5, 0.0);
    settle();
    carom_convex_shape q = circle_query(0.5);
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.0, 0.0),
                                                        carom_v2(10.0, 0.0),
                                                        carom_default_filter());
    cr_assert(carom_shape_id_equals(r.shape, near));
    carom_filter skip_near = carom_default_filter();
    skip_near.mask = ~(uint64_t)0x2;
    r = carom_world_cast_shape_closest(world, &q, at(0.0, 0.0), carom_v2(10.0, 0.0), skip_near);
    cr_assert(carom_shape_id_equals(r.shape, far), "the sensor between is passed through");
    cr_assert_float_eq(r.fraction, 0.6, 1e-12, "its face at x = 6.5");
}

Test(shape_cast, a_cast_that_misses_reports_nothing) {
    static_box(carom_v2(5.0, 3.0), 1.0, 1.0, 0.0);
    settle();
    carom_convex_shape q = box_query(0.5, 0.5, 0.0);
    /* passes under the box: its top face at y = 1.5, the box's bottom at y = 2 */
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.0, 1.0),
                                                        carom_v2(10.0, 0.0),
                                                        carom_default_filter());
    cr_assert(!r.hit);
    cr_assert(CAROM_IS_NULL(r.shape));
    cr_assert_eq(r.fraction, 1.0);
    hit_log log = {.answer = 1.0};
    cr_assert_eq(carom_world_cast_shape(world, &q, at(0.0, 1.0), carom_v2(10.0, 0.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_OK);
    cr_assert_eq(log.count, 0);
    /* stopping short of the box misses it too */
    r = carom_world_cast_shape_closest(world, &q, at(0.0, 3.0), carom_v2(3.0, 0.0),
                                       carom_default_filter());
    cr_assert(!r.hit, "the box's face is at x = 4, the cast's front reaches 3.5");
}

Test(shape_cast, a_shape_overlapping_at_the_start_is_hit_at_fraction_zero) {
    carom_shape_id box = static_box(carom_v2(0.0, 0.0), 1.0, 1.0, 0.0);
    carom_shape_id beyond = static_box(carom_v2(5.0, 0.0), 1.0, 1.0, 0.0);
    settle();
    carom_convex_shape q = circle_query(0.5);
    hit_log log = {.answer = 1.0};
    carom_world_cast_shape(world, &q, at(0.8, 0.0), carom_v2(10.0, 0.0), carom_default_filter(),
                           log_hit, &log);
    cr_assert_eq(log.count, 2);
    cr_assert(carom_shape_id_equals(log.shapes[0], box));
    cr_assert_eq(log.fractions[0], 0.0);
    cr_assert_float_eq(log.normals[0].x, 1.0, 1e-12, "out of the right face, the quickest way");
    cr_assert(carom_shape_id_equals(log.shapes[1], beyond));
    cr_assert_float_eq(log.fractions[1], (4.0 - 0.5 - 0.8) / 10.0, 1e-12);
    /* a zero translation finds only what overlaps */
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.8, 0.0),
                                                        carom_v2(0.0, 0.0),
                                                        carom_default_filter());
    cr_assert(r.hit && carom_shape_id_equals(r.shape, box) && r.fraction == 0.0);
}

Test(shape_cast, shapes_on_turned_bodies_are_placed_by_their_bodies) {
    /* a box offset 2 m along its body's x axis, the body turned 90 degrees: the box sits at
     * (0, 2) in the world, its bottom face at y = 1.5 */
    carom_shape_def def = carom_default_shape_def();
    carom_shape_id box = carom_create_box_shape(static_body(carom_v2(0.0, 0.0), 0.5 * CAROM_PI), &def,
                                                0.5, 0.5, carom_v2(2.0, 0.0), 0.0);
    settle();
    carom_convex_shape q = circle_query(0.25);
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.0, -3.0),
                                                        carom_v2(0.0, 6.0),
                                                        carom_default_filter());
    cr_assert(r.hit && carom_shape_id_equals(r.shape, box));
    cr_assert_float_eq(r.fraction, (1.5 - 0.25 + 3.0) / 6.0, 1e-12);
    cr_assert_float_eq(r.normal.y, -1.0, 1e-12);
}

Test(shape_cast, bad_input_is_refused_with_a_message) {
    static_box(carom_v2(5.0, 0.0), 1.0, 1.0, 0.0);
    settle();
    carom_convex_shape q = circle_query(0.5);
    hit_log log = {.answer = 1.0};
    carom_ray_result r = carom_world_cast_shape_closest(world, &q, at(0.0, 0.0),
                                                        carom_v2(NAN, 0.0),
                                                        carom_default_filter());
    cr_assert(!r.hit);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_NOT_FINITE);
    cr_assert(strstr(carom_last_error(), "translation") != NULL, "%s", carom_last_error());
    cr_assert_eq(carom_world_cast_shape(world, &q, at(0.0, 0.0), carom_v2(INFINITY, 0.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_world_cast_shape(world, &q, at(0.0, 0.0), carom_v2(0.0, 1e13),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_ERROR_OUT_OF_RANGE, "above CAROM_MAX_MAGNITUDE");
    cr_assert_eq(carom_world_cast_shape(world, &q, at(NAN, 0.0), carom_v2(1.0, 0.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_ERROR_NOT_FINITE);
    cr_assert(strstr(carom_last_error(), "position") != NULL, "%s", carom_last_error());
    /* a concave outline (the fourth point inside the others' triangle), too many vertices,
     * a capsule of zero radius, a circle of negative radius */
    carom_convex_shape bad;
    memset(&bad, 0, sizeof bad);
    bad.polygon.count = 4;
    bad.polygon.vertices[0] = carom_v2(0.0, 0.0);
    bad.polygon.vertices[1] = carom_v2(2.0, 0.0);
    bad.polygon.vertices[2] = carom_v2(0.0, 2.0);
    bad.polygon.vertices[3] = carom_v2(0.4, 0.4);
    cr_assert_eq(carom_world_cast_shape(world, &bad, at(0.0, 0.0), carom_v2(1.0, 0.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_ERROR_INVALID_POLYGON, "%s", carom_last_error());
    bad.polygon.count = CAROM_MAX_POLYGON_VERTICES + 1;
    r = carom_world_cast_shape_closest(world, &bad, at(0.0, 0.0), carom_v2(1.0, 0.0),
                                       carom_default_filter());
    cr_assert(!r.hit);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_TOO_MANY_VERTICES, "%s", carom_last_error());
    bad.polygon.count = 2;
    bad.polygon.radius = 0.0;
    cr_assert_neq(carom_world_cast_shape(world, &bad, at(0.0, 0.0), carom_v2(1.0, 0.0),
                                         carom_default_filter(), log_hit, &log),
                  CAROM_OK);
    carom_convex_shape negative = circle_query(-1.0);
    cr_assert_eq(carom_world_cast_shape(world, &negative, at(0.0, 0.0), carom_v2(1.0, 0.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "radius") != NULL, "%s", carom_last_error());
    /* NULL shape and callback */
    cr_assert_eq(carom_world_cast_shape(world, NULL, at(0.0, 0.0), carom_v2(1.0, 0.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_ERROR_NULL_ARGUMENT);
    cr_assert_eq(carom_world_cast_shape(world, &q, at(0.0, 0.0), carom_v2(1.0, 0.0),
                                        carom_default_filter(), NULL, NULL),
                 CAROM_ERROR_NULL_ARGUMENT);
    cr_assert_eq(log.count, 0, "no refused cast called back");
    /* a stale world id */
    carom_world_id stale = test_make_world(carom_v2(0.0, 0.0));
    carom_destroy_world(stale);
    r = carom_world_cast_shape_closest(stale, &q, at(0.0, 0.0), carom_v2(1.0, 0.0),
                                       carom_default_filter());
    cr_assert(!r.hit);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_world_cast_shape(stale, &q, at(0.0, 0.0), carom_v2(1.0, 0.0),
                                        carom_default_filter(), log_hit, &log),
                 CAROM_ERROR_INVALID_ID);
}

static double destroy_the_world(carom_shape_id shape, carom_vec2 point, carom_vec2 normal,
                                double fraction, void* context) {
    (void)shape, (void)point, (void)normal, (void)fraction;
    carom_status* status = context;
    *status = carom_destroy_world(world);
    return 1.0;
}

Test(shape_cast, the_world_is_locked_while_the_callback_runs) {
    static_box(carom_v2(5.0, 0.0), 1.0, 1.0, 0.0);
    settle();
    carom_convex_shape q = circle_query(0.5);
    carom_status inside = CAROM_OK;
    cr_assert_eq(carom_world_cast_shape(world, &q, at(0.0, 0.0), carom_v2(10.0, 0.0),
                                        carom_default_filter(), destroy_the_world, &inside),
                 CAROM_OK);
    cr_assert_eq(inside, CAROM_ERROR_WORLD_LOCKED);
    cr_assert(strstr(carom_last_error(), "carom_world_cast_shape") != NULL, "%s",
              carom_last_error());
    cr_assert(carom_world_is_valid(world));
}

/* A small linear congruential generator, so that the random scene is the same everywhere. */
static double next_random(uint64_t* state) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct found_shape {
    carom_shape_id target;
    int found;
} found_shape;

static int note_target(carom_shape_id shape, void* context) {
    found_shape* f = context;
    if (carom_shape_id_equals(shape, f->target)) {
        f->found = 1;
    }
    return 1;
}

static carom_convex_shape random_query(int kind, uint64_t* rng) {
    if (kind == 0) {
        return circle_query(0.1 + next_random(rng));
    }
    if (kind == 3) {
        return capsule_query(carom_v2(-0.3, 0.0), carom_v2(0.3, 0.0), 0.2);
    }
    carom_convex_shape q;
    memset(&q, 0, sizeof q);
    double hx = 0.1 + next_random(rng), hy = 0.1 + next_random(rng);
    carom_make_rounded_box(hx, hy, carom_v2(0.0, 0.0), next_random(rng), kind == 2 ? 0.05 : 0.0,
                           &q.polygon);
    return q;
}

/* Every hit's fraction is where the two start to touch: placed a little before it they are
 * apart, a little after it they overlap (carom_world_overlap_shape, an independent test). */
Test(shape_cast, random_casts_touch_exactly_at_their_fractions) {
    uint64_t rng = 7;
    carom_shape_def def = carom_default_shape_def();
    for (int i = 0; i < 300; ++i) {
        carom_body_id b = static_body(carom_v2(40.0 * next_random(&rng) - 20.0,
                                               40.0 * next_random(&rng) - 20.0),
                                      6.0 * next_random(&rng));
        double a = 0.2 + next_random(&rng), c = 0.2 + next_random(&rng);
        carom_circle circle = {{next_random(&rng) - 0.5, 0.0}, a};
        carom_capsule capsule = {{-0.5, 0.0}, {0.5, 0.2}, 0.3};
        carom_segment segment = {{-1.0, 0.0}, {1.0, c}};
        switch (i % 5) {
        case 0: carom_create_circle_shape(b, &def, &circle); break;
        case 1: carom_create_box_shape(b, &def, a, c, carom_v2(0.0, 0.0), 0.3); break;
        case 2: carom_create_rounded_box_shape(b, &def, a, c, carom_v2(0.0, 0.0), 0.3, 0.1); break;
        case 3: carom_create_capsule_shape(b, &def, &capsule); break;
        default: carom_create_segment_shape(b, &def, &segment); break;
        }
    }
    settle();
    int hits = 0, brackets = 0, wrong = 0;
    const double step = 1e-5;
    for (int i = 0; i < 2000; ++i) {
        carom_convex_shape q = random_query(i % 4, &rng);
        carom_transform xf = {{40.0 * next_random(&rng) - 20.0, 40.0 * next_random(&rng) - 20.0},
                              carom_make_rot(6.0 * next_random(&rng))};
        carom_vec2 translation = {40.0 * next_random(&rng) - 20.0,
                                  40.0 * next_random(&rng) - 20.0};
        hit_log log = {.answer = 1.0};
        cr_assert_eq(carom_world_cast_shape(world, &q, xf, translation, carom_default_filter(),
                                            log_hit, &log),
                     CAROM_OK);
        hits += log.count;
        int n = log.count < 8 ? log.count : 8;
        for (int h = 0; h < n; ++h) {
            cr_assert_float_eq(hypot(log.normals[h].x, log.normals[h].y), 1.0, 1e-12);
            if (log.fractions[h] <= step || log.fractions[h] >= 1.0 - step) {
                continue;
            }
            for (int side = 0; side < 2; ++side) {
                double f = log.fractions[h] + (side ? step : -step);
                carom_transform placed = {carom_mul_add(xf.p, f, translation), xf.q};
                found_shape found = {log.shapes[h], 0};
                carom_world_overlap_shape(world, &q, placed, carom_default_filter(), note_target,
                                          &found);
                brackets += 1;
                wrong += found.found != side;
            }
        }
    }
    cr_log_info("%d hits, %d brackets checked", hits, brackets);
    cr_assert(hits > 5000 && brackets > 8000, "%d hits, %d brackets", hits, brackets);
    cr_assert_eq(wrong, 0, "%d of %d brackets disagree", wrong, brackets);
}
