/* Contact, hit and sensor events: what a game reads after each step. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>

static carom_world_id make_world(void) { return test_make_world(carom_v2(0.0, -10.0)); }

Test(events, a_ball_landing_begins_a_contact_and_leaving_ends_it) {
    carom_world_id world = make_world();
    carom_body_id ground = test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 1.0), 0.25, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    int begins = 0, begin_step = -1;
    for (int step = 0; step < 60; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        carom_contact_events events = carom_world_get_contact_events(world);
        for (int i = 0; i < events.begin_count; ++i) {
            ++begins;
            begin_step = step;
            cr_assert(carom_body_id_equals(carom_shape_get_body(events.begin_events[i].shape_a),
                                           ground) ||
                      carom_body_id_equals(carom_shape_get_body(events.begin_events[i].shape_b),
                                           ground));
        }
        cr_assert_eq(events.end_count, 0);
    }
    cr_assert_eq(begins, 1, "one landing, one begin event");
    /* the fall from 0.75 m takes sqrt(2 h / g) = 0.387 s: step 23 */
    cr_assert(begin_step >= 21 && begin_step <= 24, "landed at step %d", begin_step);
    carom_body_apply_linear_impulse(ball, carom_v2(0.0, 2.0), carom_body_get_world_center(ball));
    int ends = 0;
    for (int step = 0; step < 10; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        ends += carom_world_get_contact_events(world).end_count;
    }
    cr_assert_eq(ends, 1, "the kick ends the contact");
    carom_destroy_world(world);
}

Test(events, hit_events_report_the_approach_speed_above_the_threshold) {
    carom_world_id world = make_world();
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def shape = carom_default_shape_def();
    shape.enable_hit_events = 1;
    shape.hit_speed_threshold = 3.0;
    carom_create_box_shape(ground, &shape, 50.0, 1.0, carom_v2(0.0, -1.0), 0.0);
    /* one ball falls 2 m (6.3 m/s), one 0.2 m (2 m/s, below the threshold) */
    carom_body_id fast = test_make_ball(world, carom_v2(-2.0, 2.25), 0.25, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    test_make_ball(world, carom_v2(2.0, 0.45), 0.25, carom_v2(0.0, 0.0), 0.6, 0.0);
    int hits = 0;
    double speed = 0.0;
    carom_vec2 point = {0.0, 0.0};
    for (int step = 0; step < 120; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        carom_contact_events events = carom_world_get_contact_events(world);
        for (int i = 0; i < events.hit_count; ++i) {
            ++hits;
            speed = events.hit_events[i].approach_speed;
            point = events.hit_events[i].point;
            cr_assert(carom_body_id_equals(carom_shape_get_body(events.hit_events[i].shape_b),
                                           fast) ||
                      carom_body_id_equals(carom_shape_get_body(events.hit_events[i].shape_a),
                                           fast));
        }
    }
    cr_assert_eq(hits, 1, "only the fast ball hits hard enough");
    cr_assert_float_eq(speed, sqrt(2.0 * 10.0 * 2.0), 0.2, "approach %.3f m/s", speed);
    cr_assert_float_eq(point.x, -2.0, 1e-6);
    carom_destroy_world(world);
}

Test(events, a_static_sensor_reports_a_car_entering_and_leaving_and_never_pushes) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def line_def = carom_default_body_def();
    carom_body_id line = carom_create_body(world, &line_def);
    carom_shape_def sensor = carom_default_shape_def();
    sensor.is_sensor = 1;
    carom_shape_id checkpoint = carom_create_box_shape(line, &sensor, 0.25, 5.0,
                                                       carom_v2(10.0, 0.0), 0.0);
    carom_body_id car = test_make_box(world, carom_v2(0.0, 0.0), 1.0, 0.5, 0.0, 0.6, 0.0);
    carom_body_set_linear_velocity(car, carom_v2(10.0, 0.0));
    int entered = -1, left = -1;
    for (int step = 0; step < 120; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        carom_sensor_events events = carom_world_get_sensor_events(world);
        for (int i = 0; i < events.begin_count; ++i) {
            cr_assert(carom_shape_id_equals(events.begin_events[i].sensor, checkpoint));
            entered = step;
        }
        if (events.end_count > 0) {
            left = step;
        }
    }
    /* the car's front reaches x = 9.75 at t = 0.875 s, its back leaves 10.25 at t = 1.125 s */
    cr_assert(entered >= 51 && entered <= 53, "entered at step %d", entered);
    cr_assert(left >= 66 && left <= 68, "left at step %d", left);
    cr_assert_float_eq(carom_body_get_linear_velocity(car).x, 10.0, 1e-12, "never pushed");
    carom_destroy_world(world);
}

Test(events, destroying_a_touching_body_reports_the_end) {
    carom_world_id world = make_world();
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id box = test_make_box(world, carom_v2(0.0, 0.5), 0.5, 0.5, 0.0, 0.6, 0.0);
    test_step(world, 1.0 / 60.0, 5);
    cr_assert_eq(carom_world_get_contact_events(world).end_count, 0);
    carom_destroy_body(box);
    cr_assert_eq(carom_world_get_contact_events(world).end_count, 1);
    test_step(world, 1.0 / 60.0, 1);
    cr_assert_eq(carom_world_get_contact_events(world).end_count, 0, "cleared by the next step");
    carom_destroy_world(world);
}

typedef struct draw_counts {
    int polygons, circles, segments, points;
} draw_counts;

static void count_polygon(const carom_vec2* v, int n, uint32_t color, void* context) {
    (void)v;
    (void)n;
    (void)color;
    ((draw_counts*)context)->polygons++;
}
static void count_circle(carom_vec2 c, double r, carom_vec2 axis, uint32_t color, void* context) {
    (void)c;
    (void)r;
    (void)axis;
    (void)color;
    ((draw_counts*)context)->circles++;
}
static void count_segment(carom_vec2 a, carom_vec2 b, uint32_t color, void* context) {
    (void)a;
    (void)b;
    (void)color;
    ((draw_counts*)context)->segments++;
}
static void count_point(carom_vec2 p, uint32_t color, void* context) {
    (void)p;
    (void)color;
    ((draw_counts*)context)->points++;
}

Test(events, debug_draw_visits_every_shape_and_contact) {
    carom_world_id world = make_world();
    test_make_ground(world, 0.0, 0.6, 0.0);
    test_make_box(world, carom_v2(0.0, 0.5), 0.5, 0.5, 0.0, 0.6, 0.0);
    test_make_ball(world, carom_v2(3.0, 0.25), 0.25, carom_v2(0.0, 0.0), 0.6, 0.0);
    test_step(world, 1.0 / 60.0, 10);
    draw_counts counts = {0, 0, 0, 0};
    carom_debug_draw draw = {count_polygon, count_circle, count_segment, count_point, 1, 1, 0,
                             &counts, 0};
    cr_assert_eq(carom_world_draw(world, &draw), CAROM_OK);
    cr_assert_eq(counts.polygons, 2, "ground and box");
    cr_assert_eq(counts.circles, 1);
    cr_assert_eq(counts.points, 3, "two box points and one ball point");
    cr_assert_eq(counts.segments, 3, "one normal per point");
    carom_destroy_world(world);
}
