/* Islands and sleep: resting piles stop costing anything and wake when disturbed. */
#include "helpers.h"
#include "scenes.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int awake_count(carom_world_id world) {
    return carom_world_get_counters(world).awake_body_count;
}

/* Step until nothing is awake; returns the time it took, or -1 after max_seconds. */
static double step_until_asleep(carom_world_id world, double max_seconds) {
    const double dt = 1.0 / 60.0;
    for (int step = 1; step <= (int)(max_seconds / dt); ++step) {
        test_step(world, dt, 1);
        if (awake_count(world) == 0) {
            return step * dt;
        }
    }
    return -1.0;
}

typedef struct pyramid {
    carom_world_id world;
    carom_body_id* boxes;
    int count;
} pyramid;

static pyramid make_pyramid(int base) {
    pyramid p;
    carom_world_def def = carom_scene_world_def(CAROM_SCENE_PYRAMID);
    p.world = carom_create_world(&def);
    p.count = carom_scene_body_count(CAROM_SCENE_PYRAMID, base);
    p.boxes = malloc(sizeof(carom_body_id) * (size_t)p.count);
    cr_assert_eq(carom_scene_build(p.world, CAROM_SCENE_PYRAMID, base, p.boxes), p.count);
    return p;
}

static void free_pyramid(pyramid* p) {
    carom_destroy_world(p->world);
    free(p->boxes);
}

Test(sleep, settled_pyramid_of_twenty_rows_is_fully_asleep_within_a_second_and_a_half) {
    pyramid p = make_pyramid(20);
    double t = step_until_asleep(p.world, 1.5);
    cr_log_info("pyramid of 210 boxes fully asleep after %.2f s", t);
    cr_assert_gt(t, 0.0, "still %d bodies awake after 1.5 s", awake_count(p.world));
    cr_assert_eq(carom_world_get_counters(p.world).sleeping_island_count, 1,
                 "the pyramid sleeps as one island");
    free_pyramid(&p);
}

/* Box2D v3 puts this pyramid to sleep after 94 steps at the same thresholds (0.05 m/s, 0.5 s);
 * carom after 101 (docs/solver.md). Before the energy test it took 4.1 s. */
Test(sleep, settled_pyramid_of_forty_rows_is_fully_asleep_within_two_seconds) {
    pyramid p = make_pyramid(40);
    double t = step_until_asleep(p.world, 2.0);
    cr_log_info("pyramid of 820 boxes fully asleep after %.2f s", t);
    cr_assert_gt(t, 0.0, "still %d bodies awake after 2 s", awake_count(p.world));
    free_pyramid(&p);
}

/* A body at rest sleeps once it has rested time_to_sleep (0.5 s), whatever the step: its rest is
 * a sum of steps, which rounds (thirty steps of 1/60 s add up to 0.49999999999999994 s), and
 * compared exactly every island waited one step more than time_to_sleep. */
Test(sleep, a_body_at_rest_sleeps_after_exactly_time_to_sleep) {
    const int steps_per_second[] = {10, 30, 60, 120, 240};
    for (int k = 0; k < 5; ++k) {
        carom_world_id world = test_make_world(carom_v2(0.0, 0.0));
        carom_body_id box =
            test_make_box(world, carom_v2(0.0, 0.0), 0.5, 0.5, 0.0, 0.6, 0.0);
        const double dt = 1.0 / steps_per_second[k];
        const int rest_steps = steps_per_second[k] / 2; /* 0.5 s */
        test_step(world, dt, rest_steps - 1);
        cr_assert(carom_body_is_awake(box), "asleep after %d steps of 1/%d s, before 0.5 s",
                  rest_steps - 1, steps_per_second[k]);
        test_step(world, dt, 1);
        cr_assert(!carom_body_is_awake(box), "still awake after %d steps of 1/%d s (0.5 s)",
                  rest_steps, steps_per_second[k]);
        carom_destroy_world(world);
    }
}

Test(sleep, sleeping_bodies_do_not_move_at_all) {
    pyramid p = make_pyramid(6);
    cr_assert_gt(step_until_asleep(p.world, 5.0), 0.0);
    carom_transform before[21];
    for (int i = 0; i < p.count; ++i) {
        before[i] = carom_body_get_transform(p.boxes[i]);
    }
    test_step(p.world, 1.0 / 60.0, 300);
    for (int i = 0; i < p.count; ++i) {
        carom_transform after = carom_body_get_transform(p.boxes[i]);
        cr_assert(after.p.x == before[i].p.x && after.p.y == before[i].p.y &&
                  after.q.c == before[i].q.c && after.q.s == before[i].q.s);
        cr_assert_eq(carom_body_get_kinetic_energy(p.boxes[i]), 0.0);
    }
    free_pyramid(&p);
}

Test(sleep, ball_dropped_on_a_sleeping_pyramid_wakes_it_and_it_reacts) {
    pyramid p = make_pyramid(20);
    cr_assert_gt(step_until_asleep(p.world, 5.0), 0.0);
    carom_body_id top = p.boxes[p.count - 1];
    carom_vec2 top_before = carom_body_get_position(top);
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(top_before.x + 0.3, top_before.y + 3.0);
    carom_body_id ball = carom_create_body(p.world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = 20.0;
    carom_circle circle = {{0.0, 0.0}, 0.4};
    carom_create_circle_shape(ball, &shape, &circle);
    double moved = 0.0;
    int most_awake = 0;
    for (int step = 0; step < 120; ++step) {
        test_step(p.world, 1.0 / 60.0, 1);
        int awake = awake_count(p.world);
        most_awake = awake > most_awake ? awake : most_awake;
        moved = fmax(moved, carom_distance(carom_body_get_position(top), top_before));
    }
    cr_assert_eq(most_awake, p.count + 1, "the whole pyramid woke with the ball");
    cr_assert_gt(moved, 1e-3, "the top box was pushed (moved %.3g m)", moved);
    free_pyramid(&p);
}

Test(sleep, destroying_a_bottom_box_makes_the_boxes_above_fall) {
    pyramid p = make_pyramid(8);
    cr_assert_gt(step_until_asleep(p.world, 5.0), 0.0);
    /* bottom row: boxes 0..7; the box above boxes 3 and 4 is box 8 + 3 = 11 */
    carom_body_id above = p.boxes[11];
    double y_before = carom_body_get_position(above).y;
    cr_assert_eq(carom_destroy_body(p.boxes[3]), CAROM_OK);
    cr_assert_eq(carom_destroy_body(p.boxes[4]), CAROM_OK);
    cr_assert(carom_body_is_awake(above));
    test_step(p.world, 1.0 / 60.0, 60);
    cr_assert_lt(carom_body_get_position(above).y, y_before - 0.3, "the unsupported box fell");
    free_pyramid(&p);
}

Test(sleep, a_body_with_sleep_disabled_never_sleeps_nor_does_what_touches_it) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(0.0, 0.5);
    def.enable_sleep = 0;
    carom_body_id insomniac = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(insomniac, &shape, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0);
    carom_body_id rider = test_make_box(world, carom_v2(0.0, 1.5), 0.5, 0.5, 0.0, 0.6, 0.0);
    carom_body_id loner = test_make_box(world, carom_v2(5.0, 0.5), 0.5, 0.5, 0.0, 0.6, 0.0);
    test_step(world, 1.0 / 60.0, 600);
    cr_assert(carom_body_is_awake(insomniac));
    cr_assert(carom_body_is_awake(rider), "it shares an island with the sleepless body");
    cr_assert_not(carom_body_is_awake(loner), "a box alone on the ground sleeps");
    cr_assert_eq(carom_body_set_sleep_enabled(insomniac, 1), CAROM_OK);
    test_step(world, 1.0 / 60.0, 60);
    cr_assert_not(carom_body_is_awake(insomniac));
    cr_assert_not(carom_body_is_awake(rider));
    carom_destroy_world(world);
}

Test(sleep, changing_a_sleeping_body_through_the_api_wakes_its_island) {
    carom_world_def def = carom_scene_world_def(CAROM_SCENE_STACK);
    carom_world_id world = carom_create_world(&def);
    carom_body_id boxes[3];
    cr_assert_eq(carom_scene_build(world, CAROM_SCENE_STACK, 3, boxes), 3);
    cr_assert_gt(step_until_asleep(world, 5.0), 0.0);
    cr_assert_eq(carom_body_apply_linear_impulse(boxes[0], carom_v2(0.5, 0.0),
                                                 carom_body_get_world_center(boxes[0])),
                 CAROM_OK);
    for (int i = 0; i < 3; ++i) {
        cr_assert(carom_body_is_awake(boxes[i]), "box %d woke with its island", i);
    }
    cr_assert_gt(step_until_asleep(world, 5.0), 0.0, "and it settles again");
    cr_assert_eq(carom_body_wake(boxes[2]), CAROM_OK);
    cr_assert_eq(awake_count(world), 3);
    carom_destroy_world(world);
}

Test(sleep, moving_the_ground_under_a_sleeping_box_wakes_it_and_it_falls) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id ground = test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id box = test_make_box(world, carom_v2(0.0, 0.5), 0.5, 0.5, 0.0, 0.6, 0.0);
    cr_assert_gt(step_until_asleep(world, 5.0), 0.0);
    cr_assert_eq(carom_body_set_transform(ground, carom_v2(0.0, -2.0), 0.0), CAROM_OK);
    cr_assert(carom_body_is_awake(box));
    test_step(world, 1.0 / 60.0, 60);
    cr_assert_float_eq(carom_body_get_position(box).y, -1.5, 0.01, "it fell onto the lowered ground");
    carom_destroy_world(world);
}

Test(sleep, ball_balanced_a_millimetre_off_an_apex_rolls_off_instead_of_sleeping) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def def = carom_default_body_def();
    carom_body_id peak = carom_create_body(world, &def);
    carom_vec2 triangle[3] = {{-2.0, 0.0}, {2.0, 0.0}, {0.0, 2.0}};
    carom_polygon polygon;
    cr_assert_eq(carom_make_polygon(triangle, 3, &polygon), CAROM_OK);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_polygon_shape(peak, &shape, &polygon);
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_id ball = test_make_ball(world, carom_v2(0.001, 2.5), 0.5, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    test_step(world, 1.0 / 60.0, 600);
    cr_assert_gt(fabs(carom_body_get_position(ball).x), 1.0, "the ball left the apex (x = %.4f)",
                 carom_body_get_position(ball).x);
    carom_destroy_world(world);
}

/* A ball rolls from rest down a ramp 5 cm long and 35 um high onto flat ground, where it rolls
 * on at about 0.02 m/s: its farthest point (center speed plus spin times radius, 0.04 m/s) is
 * slower than the sleep threshold the whole way. On the ramp it gains energy (it is falling,
 * like the ball off the apex) and must stay awake; on the flat its energy stops growing and it
 * sleeps (after about 10 s: it keeps gaining a little as its contact settles into its resting
 * overlap, 40 um). Before, the gain was counted from the energy its rest began with, at the top
 * of the ramp, so it never slept. */
Test(sleep, a_ball_that_stops_gaining_energy_sleeps_even_if_it_gained_some_during_its_rest) {
    carom_world_def world_def = carom_default_world_def();
    carom_world_id world = carom_create_world(&world_def);
    const double length = 0.05, drop = 0.035e-3, radius = 0.5;
    carom_body_def def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    /* a chain, so that the ball rolls over the foot of the ramp without catching on it */
    carom_vec2 profile[3] = {{-2.0 * length, 2.0 * drop}, {0.0, 0.0}, {20.0, 0.0}};
    cr_assert_eq(carom_create_chain(ground, &shape, profile, 3, 0, NULL), CAROM_OK, "%s",
                 carom_last_error());
    /* resting on the ramp's top corner's face, its centre above the ramp's first centimetre */
    double slope = drop / length;
    double x = -0.8 * length;
    double y = 0.8 * drop + radius * sqrt(1.0 + slope * slope);
    carom_body_id ball =
        test_make_ball(world, carom_v2(x, y), radius, carom_v2(0.0, 0.0), 0.6, 0.0);
    double fastest_on_ramp = 0.0, fastest = 0.0, asleep_at = -1.0;
    for (int step = 1; step <= 1200 && asleep_at < 0.0; ++step) {
        test_step(world, 1.0 / 60.0, 1);
        double point_speed = carom_length(carom_body_get_linear_velocity(ball)) +
                             fabs(carom_body_get_angular_velocity(ball)) * radius;
        fastest = fmax(fastest, point_speed);
        if (carom_body_get_position(ball).x < 0.0) {
            cr_assert(carom_body_is_awake(ball), "asleep on the ramp at x = %.4f m after %d steps",
                      carom_body_get_position(ball).x, step);
            fastest_on_ramp = fmax(fastest_on_ramp, point_speed);
        } else if (!carom_body_is_awake(ball)) {
            asleep_at = step / 60.0;
        }
    }
    cr_log_info("ball down a 35 um ramp: its farthest point at %.4f m/s at the foot, %.4f m/s at "
                "most, asleep after %.2f s at x = %.4f m",
                fastest_on_ramp, fastest, asleep_at, carom_body_get_position(ball).x);
    cr_assert_gt(fastest_on_ramp, 0.02, "it rolled down the ramp (%.4f m/s)", fastest_on_ramp);
    cr_assert_lt(fastest, 0.05, "slower than the sleep threshold (%.4f m/s)", fastest);
    cr_assert_gt(asleep_at, 0.0, "still awake after 20 s, rolling at %.4f m/s",
                 carom_length(carom_body_get_linear_velocity(ball)));
    carom_destroy_world(world);
}

/* A ball of radius 0.5 m drifting in empty space at 3 cm/s and spinning: it rests while its
 * farthest point, 0.03 m/s plus its spin times 0.5 m, moves slower than the sleep threshold
 * (0.05 m/s), as in Box2D v3, and sleeps after time_to_sleep; spinning at 0.06 rad/s (0.06 m/s)
 * it stays awake. A spin limit set above 0 keeps the slower spinner awake too. */
static double drifting_ball_sleeps_after(double spin, double angular_threshold) {
    carom_world_def def = carom_default_world_def();
    def.gravity = carom_v2(0.0, 0.0);
    def.sleep_angular_threshold = angular_threshold;
    carom_world_id world = carom_create_world(&def);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.5, carom_v2(0.03, 0.0), 0.6,
                                        0.0);
    cr_assert_eq(carom_body_set_angular_velocity(ball, spin), CAROM_OK);
    double asleep_after = step_until_asleep(world, 5.0);
    carom_destroy_world(world);
    return asleep_after;
}

Test(sleep, a_body_rests_while_its_farthest_point_is_slower_than_the_threshold) {
    cr_assert_float_eq(drifting_ball_sleeps_after(0.03, 0.0), 0.5, 1e-9,
                       "farthest point at 0.045 m/s: asleep after time_to_sleep");
    cr_assert_float_eq(drifting_ball_sleeps_after(-0.03, 0.0), 0.5, 1e-9, "either way round");
    cr_assert_lt(drifting_ball_sleeps_after(0.06, 0.0), 0.0,
                 "farthest point at 0.06 m/s: awake after 5 s");
    cr_assert_lt(drifting_ball_sleeps_after(0.03, 0.02), 0.0,
                 "spinning faster than a spin limit of 0.02 rad/s: awake after 5 s");
    cr_assert_float_eq(drifting_ball_sleeps_after(0.03, 0.04), 0.5, 1e-9,
                       "spinning slower than a spin limit of 0.04 rad/s: asleep");
}

Test(sleep, a_world_with_sleep_off_keeps_everything_awake) {
    carom_world_def def = carom_scene_world_def(CAROM_SCENE_STACK);
    def.enable_sleep = 0;
    carom_world_id world = carom_create_world(&def);
    cr_assert_eq(carom_scene_build(world, CAROM_SCENE_STACK, 3, NULL), 3);
    test_step(world, 1.0 / 60.0, 300);
    cr_assert_eq(awake_count(world), 3);
    carom_destroy_world(world);
}

/* A box created asleep (awake = 0) in mid-air: it hangs there, costing nothing, until a ball
 * dropped on it wakes it, and then it falls. */
Test(sleep, a_body_created_asleep_stays_put_until_something_awake_touches_it) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(0.0, 3.0);
    def.awake = 0;
    carom_body_id box = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    cr_assert(carom_shape_is_valid(
        carom_create_box_shape(box, &shape, 0.5, 0.5, carom_v2(0.0, 0.0), 0.0)));
    cr_assert(!carom_body_is_awake(box), "adding its shape left it asleep");
    test_step(world, 1.0 / 60.0, 60);
    cr_assert_eq(carom_body_get_position(box).y, 3.0, "asleep in mid-air, it does not fall");
    cr_assert_eq(awake_count(world), 0);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 5.0), 0.25, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    test_step(world, 1.0 / 60.0, 60);
    cr_assert(carom_body_is_awake(box), "the ball woke it");
    cr_assert_lt(carom_body_get_position(box).y, 2.0, "and it fell (y = %.3f)",
                 carom_body_get_position(box).y);
    (void)ball;
    carom_destroy_world(world);
}

Test(sleep, a_body_cannot_be_created_asleep_with_a_velocity_or_with_sleep_disabled) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.awake = 0;
    def.linear_velocity = carom_v2(1.0, 0.0);
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "cannot have a velocity") != NULL, "%s",
              carom_last_error());
    def.linear_velocity = carom_v2(0.0, 0.0);
    def.enable_sleep = 0;
    cr_assert(CAROM_IS_NULL(carom_create_body(world, &def)));
    cr_assert(strstr(carom_last_error(), "enable_sleep") != NULL, "%s", carom_last_error());
    cr_assert_eq(carom_world_get_counters(world).body_count, 0, "nothing was created");
    carom_destroy_world(world);
}
