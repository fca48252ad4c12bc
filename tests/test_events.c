/* Contact, hit and sensor events: what a game reads after each step. */
#include "helpers.h"

#include <carom/snapshot.h>
#include <criterion/criterion.h>
#include <stdlib.h>
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

/* A box resting on the ground keeps its manifold (recycled) and its lane step after step; a
 * push between steps must still be seen as the approach it is. Without restitution nothing
 * but the hit events reads that approach, and the solver works it out only where a shape asks
 * for them (CAROM_REFRESH_SEPARATIONS, solver.h). */
Test(events, a_resting_box_pushed_into_the_ground_reports_the_hit) {
    carom_world_def def = carom_default_world_def();
    def.enable_sleep = 0; /* resting, and solved every step */
    carom_world_id world = carom_create_world(&def);
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    body_def.position = carom_v2(0.0, 0.5);
    carom_body_id box = carom_create_body(world, &body_def);
    carom_shape_def shape = carom_default_shape_def();
    shape.enable_hit_events = 1;
    shape.hit_speed_threshold = 1.0;
    carom_create_box_shape(box, &shape, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
    for (int step = 0; step < 60; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        cr_assert_eq(carom_world_get_contact_events(world).hit_count, 0, "step %d", step);
    }
    cr_assert_eq(carom_body_set_linear_velocity(box, carom_v2(0.0, -2.0)), CAROM_OK);
    test_step(world, 1.0 / 60.0, 1);
    carom_contact_events events = carom_world_get_contact_events(world);
    cr_assert_eq(events.hit_count, 1, "the push is a hit");
    /* the velocity set, and the step's gravity not yet applied: the approach before the step */
    cr_assert_float_eq(events.hit_events[0].approach_speed, 2.0, 1e-9, "approach %.12f m/s",
                       events.hit_events[0].approach_speed);
    carom_destroy_world(world);
}

/* A ball of density 1 on the ground, with or without contact events. */
static carom_body_id make_ball_with_events(carom_world_id world, double x, int events) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(x, 0.5);
    carom_body_id ball = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.enable_contact_events = events;
    carom_circle circle = {{0.0, 0.0}, 0.25};
    cr_assert(!CAROM_IS_NULL(carom_create_circle_shape(ball, &shape, &circle)));
    return ball;
}

/* Begin and end events of the contacts involving `body`, the last step's. */
static int touch_events_of(carom_world_id world, carom_body_id body, int* ends) {
    carom_contact_events events = carom_world_get_contact_events(world);
    int begins = 0;
    for (int i = 0; i < events.begin_count; ++i) {
        const carom_contact_begin_event* e = &events.begin_events[i];
        begins += carom_body_id_equals(carom_shape_get_body(e->shape_a), body) ||
                  carom_body_id_equals(carom_shape_get_body(e->shape_b), body);
    }
    for (int i = 0; i < events.end_count; ++i) {
        *ends += carom_body_id_equals(carom_shape_get_body(events.end_events[i].shape_a), body) ||
                 carom_body_id_equals(carom_shape_get_body(events.end_events[i].shape_b), body);
    }
    return begins;
}

/* A contact reports its begin and end when either shape asks (enable_contact_events, on by
 * default); the ground here does not, so a ball that does not either lands and leaves
 * unreported. A world made from a snapshot keeps each shape's choice. */
Test(events, contacts_report_touching_only_for_shapes_that_ask_and_so_do_their_snapshots) {
    carom_world_id world = make_world();
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def quiet = carom_default_shape_def();
    quiet.enable_contact_events = 0;
    carom_create_box_shape(ground, &quiet, 50.0, 0.5, carom_v2(0.0, -0.5), 0.0);
    carom_body_id silent = make_ball_with_events(world, -2.0, 0);
    carom_body_id heard = make_ball_with_events(world, 2.0, 1);
    int begins[2] = {0, 0}, ends[2] = {0, 0};
    for (int step = 0; step < 60; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        begins[0] += touch_events_of(world, silent, &ends[0]);
        begins[1] += touch_events_of(world, heard, &ends[1]);
    }
    cr_assert_eq(carom_world_get_counters(world).touching_count, 2, "both balls rest");
    cr_assert_eq(begins[0], 0, "neither shape of the silent ball's contact asks");
    cr_assert_eq(begins[1], 1, "the heard ball asks");

    size_t size = 0;
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size), CAROM_OK);
    unsigned char* data = malloc(size);
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, data, size, &size), CAROM_OK);
    carom_snapshot_info info;
    cr_assert_eq(carom_snapshot_get_info(data, size, &info), CAROM_OK);
    cr_assert_eq(info.version, 6, "shapes without contact events are written in version 6");
    carom_world_id copy = carom_create_world_from_snapshot(data, size);
    cr_assert(carom_world_is_valid(copy), "%s", carom_last_error());
    free(data);
    carom_world_id worlds[2] = {world, copy};
    for (int w = 0; w < 2; ++w) {
        carom_body_id ids[3];
        int count = 0;
        cr_assert_eq(carom_world_get_body_ids(worlds[w], ids, 3, &count), CAROM_OK);
        cr_assert_eq(count, 3);
        carom_body_id balls[2] = {ids[1], ids[2]}; /* in creation order, the ground first */
        for (int b = 0; b < 2; ++b) {
            cr_assert_eq(carom_body_set_linear_velocity(balls[b], carom_v2(0.0, 5.0)), CAROM_OK);
            ends[b] = 0;
        }
        for (int step = 0; step < 10; ++step) {
            test_step(worlds[w], 1.0 / 60.0, 1);
            for (int b = 0; b < 2; ++b) {
                touch_events_of(worlds[w], balls[b], &ends[b]);
            }
        }
        cr_assert_eq(ends[0], 0, "world %d: the silent ball leaves unreported", w);
        cr_assert_eq(ends[1], 1, "world %d: the heard ball's leaving is reported", w);
    }
    carom_destroy_world(copy);
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

/* ---- Events that agree (issue 16) -------------------------------------------------------- */

/* The glancing case: a 1,200 kg car-sized box at 18 m/s clips a 5.7 kg disc (a cone)
 * lying partly in its path. Most of the contact lasts less than one step: the disc is knocked
 * away within the step in which the box reaches it. */
typedef struct glancing_result {
    int begins, hits, ends;
    int first_begin_step, first_hit_step, first_end_step;
    int hits_before_begin;
    double disc_speed;
} glancing_result;

static double next_uniform(uint64_t* state) {
    /* splitmix64 */
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
}

static glancing_result run_glancing(uint64_t seed) {
    uint64_t rng = seed;
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.linear_velocity = carom_v2(18.0, 0.0);
    carom_body_id car = carom_create_body(world, &def);
    carom_shape_def box_shape = carom_default_shape_def();
    box_shape.density = 1200.0 / (4.5 * 1.8);
    box_shape.enable_hit_events = 1;
    carom_create_box_shape(car, &box_shape, 2.25, 0.9, carom_v2(0.0, 0.0), 0.0);
    /* the disc reaching 0.02 to 0.28 m into the car's path (its centre beside the car's side),
     * 3 to 3.3 m ahead of its front, so the meeting falls anywhere within a step */
    def.linear_velocity = carom_v2(0.0, 0.0);
    def.position = carom_v2(2.25 + 3.0 + 0.3 * next_uniform(&rng),
                            0.9 + 0.3 - 0.02 - 0.26 * next_uniform(&rng));
    carom_body_id disc = carom_create_body(world, &def);
    carom_shape_def disc_shape = carom_default_shape_def();
    disc_shape.density = 5.7 / (CAROM_PI * 0.09);
    disc_shape.enable_hit_events = 1;
    carom_circle circle = {{0.0, 0.0}, 0.3};
    carom_shape_id cone = carom_create_circle_shape(disc, &disc_shape, &circle);
    glancing_result result = {0, 0, 0, -1, -1, -1, 0, 0.0};
    for (int step = 0; step < 60; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        carom_contact_events events = carom_world_get_contact_events(world);
        for (int i = 0; i < events.begin_count; ++i) {
            if (carom_shape_id_equals(events.begin_events[i].shape_b, cone)) {
                result.begins += 1;
                result.first_begin_step = result.first_begin_step < 0 ? step
                                                                      : result.first_begin_step;
            }
        }
        for (int i = 0; i < events.hit_count; ++i) {
            if (carom_shape_id_equals(events.hit_events[i].shape_b, cone)) {
                result.hits += 1;
                result.hits_before_begin += result.begins == 0;
                result.first_hit_step = result.first_hit_step < 0 ? step : result.first_hit_step;
            }
        }
        for (int i = 0; i < events.end_count; ++i) {
            if (carom_shape_id_equals(events.end_events[i].shape_b, cone)) {
                result.ends += 1;
                result.first_end_step = result.first_end_step < 0 ? step : result.first_end_step;
            }
        }
    }
    result.disc_speed = carom_length(carom_body_get_linear_velocity(disc));
    carom_destroy_world(world);
    return result;
}

Test(events, a_disc_glanced_by_a_fast_box_reports_begin_hit_and_end_in_every_trial) {
    int knocked = 0;
    double slowest = INFINITY, fastest = 0.0;
    for (uint64_t seed = 1; seed <= 100; ++seed) {
        glancing_result r = run_glancing(seed);
        if (r.disc_speed < 1.0) {
            continue;
        }
        knocked += 1;
        slowest = fmin(slowest, r.disc_speed);
        fastest = fmax(fastest, r.disc_speed);
        cr_assert(r.hits >= 1, "seed %d: knocked to %.2f m/s without a hit", (int)seed,
                  r.disc_speed);
        cr_assert_eq(r.hits_before_begin, 0, "seed %d: a hit before any begin", (int)seed);
        cr_assert_eq(r.begins, 1, "seed %d: %d begins", (int)seed, r.begins);
        cr_assert_eq(r.ends, 1, "seed %d: %d ends", (int)seed, r.ends);
        cr_assert(r.first_begin_step <= r.first_hit_step && r.first_hit_step < r.first_end_step,
                  "seed %d: begin at %d, hit at %d, end at %d", (int)seed, r.first_begin_step,
                  r.first_hit_step, r.first_end_step);
    }
    cr_log_info("glancing: %d of 100 discs knocked, %.2f to %.2f m/s", knocked, slowest, fastest);
    cr_assert_eq(knocked, 100, "every disc in the car's path is knocked");
}

Test(events, a_begin_event_carries_the_manifold_and_the_approach_speed) {
    carom_world_id world = make_world();
    test_make_ground(world, 0.0, 0.6, 0.0);
    test_make_ball(world, carom_v2(0.5, 1.0), 0.25, carom_v2(0.0, 0.0), 0.6, 0.0);
    for (int step = 0; step < 60; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        carom_contact_events events = carom_world_get_contact_events(world);
        if (events.begin_count == 0) {
            continue;
        }
        cr_assert_eq(events.begin_count, 1);
        const carom_contact_begin_event* begin = &events.begin_events[0];
        cr_assert_eq(begin->manifold.point_count, 1);
        /* the ground box is A, the ball B: the normal points up */
        cr_assert_float_eq(begin->manifold.normal.x, 0.0, 1e-12);
        cr_assert_float_eq(begin->manifold.normal.y, 1.0, 1e-12);
        cr_assert_float_eq(begin->manifold.points[0].point.x, 0.5, 1e-9);
        cr_assert(fabs(begin->manifold.points[0].point.y) < 0.03, "y = %g",
                  begin->manifold.points[0].point.y);
        /* a fall of 0.75 m: sqrt(2 g h) = 3.87 m/s, within a step's gravity (0.17 m/s) */
        cr_assert_float_eq(begin->approach_speed, sqrt(2.0 * 10.0 * 0.75), 0.2, "%g",
                           begin->approach_speed);
        carom_destroy_world(world);
        return;
    }
    cr_assert_fail("the ball never landed");
}

Test(events, body_move_events_list_the_moved_bodies_with_their_user_data) {
    carom_world_id world = make_world();
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 1.0), 0.25, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    int tag = 7;
    carom_body_set_user_data(ball, &tag);
    carom_body_def still = carom_default_body_def();
    still.type = CAROM_BODY_KINEMATIC;
    still.position = carom_v2(5.0, 5.0);
    carom_body_id kinematic = carom_create_body(world, &still);
    int moves = 0, fell_asleep = 0, after_sleep = 0;
    for (int step = 0; step < 300; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        carom_body_events events = carom_world_get_body_events(world);
        for (int i = 0; i < events.move_count; ++i) {
            const carom_body_move_event* move = &events.move_events[i];
            cr_assert(carom_body_id_equals(move->body, ball), "only the ball moves");
            cr_assert_eq(move->user_data, &tag);
            carom_transform xf = carom_body_get_transform(ball);
            cr_assert(xf.p.x == move->transform.p.x && xf.p.y == move->transform.p.y &&
                      xf.q.c == move->transform.q.c && xf.q.s == move->transform.q.s);
            moves += 1;
            after_sleep += fell_asleep;
            fell_asleep += move->fell_asleep;
        }
    }
    cr_assert(!carom_body_is_awake(ball), "the ball fell asleep");
    cr_assert_eq(fell_asleep, 1, "one move event says it fell asleep");
    cr_assert_eq(after_sleep, 0, "nothing moves once it sleeps");
    cr_assert(moves > 23, "%d moves", moves);
    (void)kinematic;
    carom_destroy_world(world);
}

/* A ball at 300 m/s toward a 10 cm wall: continuous collision stops it short of the wall,
 * moving it back along its step. Every step that moved it reports the move, with the pose it
 * ended at; the step it was stopped in too (it went without an event before: the move back
 * makes its sweep a standstill at the new pose, which the event then compared with). */
Test(events, a_ball_stopped_by_continuous_collision_reports_its_move) {
    carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
    test_make_thin_wall(world, 10.0);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.05, carom_v2(300.0, 0.0),
                                        0.0, 0.0);
    int stopped_step = -1;
    for (int step = 0; step < 6; ++step) {
        carom_transform before = carom_body_get_transform(ball);
        test_step(world, 1.0 / 60.0, 1);
        carom_transform after = carom_body_get_transform(ball);
        bool moved = before.p.x != after.p.x || before.p.y != after.p.y ||
                     before.q.c != after.q.c || before.q.s != after.q.s;
        if (stopped_step < 0 && after.p.x < before.p.x + 300.0 / 60.0 - 1e-9) {
            stopped_step = step;
        }
        carom_body_events events = carom_world_get_body_events(world);
        cr_assert_eq(events.move_count, moved ? 1 : 0, "step %d: %d move events, the ball %s",
                     step, events.move_count, moved ? "moved" : "stood");
        if (moved) {
            const carom_transform* xf = &events.move_events[0].transform;
            cr_assert(carom_body_id_equals(events.move_events[0].body, ball));
            cr_assert(xf->p.x == after.p.x && xf->p.y == after.p.y && xf->q.c == after.q.c &&
                      xf->q.s == after.q.s, "step %d: the event has the pose the ball ended at",
                      step);
        }
    }
    cr_assert_eq(stopped_step, 1, "continuous collision stopped the ball in step %d",
                 stopped_step);
    cr_assert_lt(carom_body_get_position(ball).x, 9.95, "the ball is short of the wall");
    carom_destroy_world(world);
}
