/* carom_world_explode (issue 16): impulses away from the blast, falling off with distance, on
 * the shapes the mask names; everything else untouched; bad input refused with nothing changed. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static carom_world_id world;

static void setup(void) { world = test_make_world(carom_v2(0.0, 0.0)); }
static void teardown(void) { carom_destroy_world(world); }

TestSuite(explode, .init = setup, .fini = teardown);

/* A dynamic ball of radius r (density 1) at p whose shape has the given category; awake or
 * created asleep. */
static carom_body_id ball(carom_vec2 p, double r, uint64_t category, int awake) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = p;
    def.awake = awake;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.filter.category = category;
    carom_circle circle = {{0.0, 0.0}, r};
    cr_assert(carom_shape_is_valid(carom_create_circle_shape(body, &shape, &circle)));
    return body;
}

static carom_explosion_def blast_at(carom_vec2 p, double radius, double falloff,
                                    double impulse_per_length) {
    carom_explosion_def def = carom_default_explosion_def();
    def.position = p;
    def.radius = radius;
    def.falloff = falloff;
    def.impulse_per_length = impulse_per_length;
    return def;
}

/* Queries and explosions see the broad phase as of the last step. */
static void settle(void) { test_step(world, 1.0 / 60.0, 1); }

static double momentum(carom_body_id body) {
    carom_vec2 v = carom_body_get_linear_velocity(body);
    return carom_body_get_mass(body) * hypot(v.x, v.y);
}

Test(explode, a_ring_of_balls_is_pushed_straight_away_from_the_centre) {
    carom_body_id balls[8];
    for (int i = 0; i < 8; ++i) {
        double a = 0.25 * CAROM_PI * i + 0.1;
        balls[i] = ball(carom_v2(2.0 + 3.0 * cos(a), -1.0 + 3.0 * sin(a)), 0.5, 1, 1);
    }
    settle();
    carom_explosion_def def = blast_at(carom_v2(2.0, -1.0), 5.0, 0.0, 2.0);
    cr_assert_eq(carom_world_explode(world, &def), CAROM_OK, "%s", carom_last_error());
    carom_vec2 total = {0.0, 0.0};
    for (int i = 0; i < 8; ++i) {
        carom_vec2 p = carom_body_get_position(balls[i]);
        carom_vec2 away = carom_normalize(carom_sub(p, def.position));
        carom_vec2 v = carom_body_get_linear_velocity(balls[i]);
        double speed = hypot(v.x, v.y);
        cr_assert_float_eq(v.x / speed, away.x, 1e-12, "ball %d pushed away", i);
        cr_assert_float_eq(v.y / speed, away.y, 1e-12);
        /* width 2 r = 1 m at full strength: 2 N·s */
        cr_assert_float_eq(momentum(balls[i]), 2.0, 1e-12);
        cr_assert(fabs(carom_body_get_angular_velocity(balls[i])) < 1e-12, "through the centre");
        total = carom_mul_add(total, carom_body_get_mass(balls[i]), v);
    }
    cr_assert(hypot(total.x, total.y) < 1e-12, "a symmetric blast adds no net momentum");
    /* and they fly apart */
    test_step(world, 1.0 / 60.0, 30);
    for (int i = 0; i < 8; ++i) {
        cr_assert(carom_distance(carom_body_get_position(balls[i]), def.position) > 3.1);
    }
}

Test(explode, the_push_falls_off_linearly_beyond_the_radius) {
    /* closest points at distances 1, 2, 3 and 5 (balls of radius 0.5), radius 2, falloff 2 */
    double distances[5] = {1.0, 2.0, 3.0, 3.5, 5.0};
    double strengths[5] = {1.0, 1.0, 0.5, 0.25, 0.0};
    carom_body_id balls[5];
    for (int i = 0; i < 5; ++i) {
        balls[i] = ball(carom_v2(distances[i] + 0.5, 10.0 * i), 0.5, 1, 1);
    }
    settle();
    for (int i = 0; i < 5; ++i) {
        carom_explosion_def def = blast_at(carom_v2(0.0, 10.0 * i), 2.0, 2.0, 3.0);
        cr_assert_eq(carom_world_explode(world, &def), CAROM_OK);
    }
    for (int i = 0; i < 5; ++i) {
        cr_assert_float_eq(momentum(balls[i]), 3.0 * 1.0 * strengths[i], 1e-12,
                           "ball at %g m: %.17g", distances[i], momentum(balls[i]));
    }
    for (int i = 1; i < 4; ++i) {
        cr_assert(momentum(balls[i + 1]) <= momentum(balls[i]), "never grows with distance");
    }
    cr_assert(carom_body_get_linear_velocity(balls[4]).x == 0.0, "outside the reach: untouched");
}

Test(explode, a_broadside_takes_more_than_an_edge_and_an_off_centre_blast_turns) {
    /* a 4 m x 0.2 m plank: blasted from below its right end, at (1.5, -1) */
    carom_body_id plank = test_make_box(world, carom_v2(0.0, 0.0), 2.0, 0.1, 0.0, 0.6, 0.0);
    carom_body_id edge_on = test_make_box(world, carom_v2(20.0, 0.0), 2.0, 0.1, 0.0, 0.6, 0.0);
    settle();
    carom_explosion_def def = blast_at(carom_v2(1.5, -1.0), 2.0, 0.0, 1.0);
    cr_assert_eq(carom_world_explode(world, &def), CAROM_OK);
    /* closest point (1.5, -0.1); the push is straight up, 4 m wide: 4 N·s at x = 1.5 */
    carom_vec2 v = carom_body_get_linear_velocity(plank);
    double mass = carom_body_get_mass(plank);
    cr_assert_float_eq(v.x, 0.0, 1e-12);
    cr_assert_float_eq(mass * v.y, 4.0, 1e-12);
    double spin = carom_body_get_angular_velocity(plank);
    cr_assert_float_eq(spin * carom_body_get_rotational_inertia(plank), 1.5 * 4.0, 1e-12,
                       "counter-clockwise: pushed up right of its centre");
    /* the same plank blasted from beyond its end takes only its 0.2 m thickness */
    def = blast_at(carom_v2(23.0, 0.0), 2.0, 0.0, 1.0);
    cr_assert_eq(carom_world_explode(world, &def), CAROM_OK);
    v = carom_body_get_linear_velocity(edge_on);
    cr_assert_float_eq(mass * v.x, -0.2, 1e-12);
    cr_assert_float_eq(v.y, 0.0, 1e-12);
}

Test(explode, a_blast_inside_a_shape_pushes_its_centroid_away) {
    carom_body_id box = test_make_box(world, carom_v2(0.0, 0.0), 1.0, 1.0, 0.0, 0.6, 0.0);
    carom_body_id centred = test_make_box(world, carom_v2(10.0, 0.0), 1.0, 1.0, 0.0, 0.6, 0.0);
    settle();
    carom_explosion_def def = blast_at(carom_v2(-0.5, 0.0), 1.0, 0.0, 1.0);
    cr_assert_eq(carom_world_explode(world, &def), CAROM_OK);
    carom_vec2 v = carom_body_get_linear_velocity(box);
    cr_assert(v.x > 0.0 && v.y == 0.0, "away from the blast: (%g, %g)", v.x, v.y);
    cr_assert_float_eq(carom_body_get_mass(box) * v.x, 2.0, 1e-12, "2 m wide");
    cr_assert_eq(carom_body_get_angular_velocity(box), 0.0, "applied at the centroid");
    def = blast_at(carom_v2(10.0, 0.0), 1.0, 0.0, 1.0);
    cr_assert_eq(carom_world_explode(world, &def), CAROM_OK);
    v = carom_body_get_linear_velocity(centred);
    cr_assert(v.x == 0.0 && v.y == 0.0, "a blast at the centroid has no direction");
}

Test(explode, the_mask_chooses_the_categories_pushed) {
    carom_body_id ones = ball(carom_v2(1.0, 0.0), 0.5, 0x1, 1);
    carom_body_id twos = ball(carom_v2(-1.0, 0.0), 0.5, 0x2, 1);
    carom_body_id both = ball(carom_v2(0.0, 1.0), 0.5, 0x3, 1);
    settle();
    carom_explosion_def def = blast_at(carom_v2(0.0, 0.0), 2.0, 0.0, 1.0);
    def.mask = 0x2;
    cr_assert_eq(carom_world_explode(world, &def), CAROM_OK);
    cr_assert_eq(carom_body_get_linear_velocity(ones).x, 0.0);
    cr_assert(carom_body_get_linear_velocity(twos).x < 0.0);
    cr_assert(carom_body_get_linear_velocity(both).y > 0.0);
}

Test(explode, static_kinematic_far_and_sensor_shapes_are_untouched_and_sleepers_wake) {
    carom_body_def def = carom_default_body_def();
    def.position = carom_v2(1.0, 0.0);
    carom_body_id wall = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(wall, &shape, 0.2, 1.0, carom_v2(0.0, 0.0), 0.0);
    def.type = CAROM_BODY_KINEMATIC;
    def.position = carom_v2(-1.0, 0.0);
    def.linear_velocity = carom_v2(0.0, 0.5);
    carom_body_id mover = carom_create_body(world, &def);
    carom_circle circle = {{0.0, 0.0}, 0.3};
    carom_create_circle_shape(mover, &shape, &circle);
    /* a dynamic body whose only shape in reach is a sensor */
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(0.0, 1.0);
    def.linear_velocity = carom_v2(0.0, 0.0);
    carom_body_id ghost = carom_create_body(world, &def);
    shape.is_sensor = 1;
    carom_create_circle_shape(ghost, &shape, &circle);
    shape.is_sensor = 0;
    carom_circle far_part = {{0.0, 20.0}, 0.3};
    carom_create_circle_shape(ghost, &shape, &far_part);
    carom_body_id far_sleeper = ball(carom_v2(0.0, -9.0), 0.5, 1, 0);
    carom_body_id near_sleeper = ball(carom_v2(0.0, -2.0), 0.5, 1, 0);
    settle();
    cr_assert(!carom_body_is_awake(far_sleeper) && !carom_body_is_awake(near_sleeper));
    carom_vec2 wall_at = carom_body_get_position(wall);
    carom_vec2 mover_at = carom_body_get_position(mover);
    carom_explosion_def blast = blast_at(carom_v2(0.0, 0.0), 3.0, 2.0, 5.0);
    cr_assert_eq(carom_world_explode(world, &blast), CAROM_OK);
    cr_assert(carom_body_get_linear_velocity(wall).x == 0.0);
    carom_vec2 mv = carom_body_get_linear_velocity(mover);
    cr_assert(mv.x == 0.0 && mv.y == 0.5, "a kinematic body keeps its velocity");
    carom_vec2 gv = carom_body_get_linear_velocity(ghost);
    cr_assert(gv.x == 0.0 && gv.y == 0.0, "sensors are not pushed");
    cr_assert(!carom_body_is_awake(far_sleeper), "out of reach: left asleep");
    cr_assert_eq(carom_body_get_linear_velocity(far_sleeper).y, 0.0);
    cr_assert(carom_body_is_awake(near_sleeper), "pushed: woken");
    cr_assert(carom_body_get_linear_velocity(near_sleeper).y < 0.0);
    test_step(world, 1.0 / 60.0, 10);
    cr_assert(carom_body_get_position(wall).x == wall_at.x);
    cr_assert(carom_body_get_position(mover).x == mover_at.x);
    cr_assert(carom_body_get_position(near_sleeper).y < -2.0, "and moving");
}

Test(explode, the_same_blast_gives_the_same_bits) {
    carom_body_id bodies[2][12];
    carom_world_id worlds[2];
    for (int w = 0; w < 2; ++w) {
        worlds[w] = world;
        for (int i = 0; i < 12; ++i) {
            bodies[w][i] = i % 2 ? ball(carom_v2(0.7 * i - 4.0, 0.3 * (i % 4)), 0.3, 1, 1)
                                 : test_make_box(world, carom_v2(0.7 * i - 4.0, -1.0), 0.3, 0.2,
                                                 0.2 * i, 0.6, 0.0);
        }
        settle();
        carom_explosion_def def = blast_at(carom_v2(0.1, -0.3), 1.5, 3.0, 2.0);
        cr_assert_eq(carom_world_explode(world, &def), CAROM_OK);
        test_step(world, 1.0 / 60.0, 20);
        if (w == 0) {
            world = test_make_world(carom_v2(0.0, 0.0));
        }
    }
    cr_assert_eq(test_hash_bodies(bodies[0], 12), test_hash_bodies(bodies[1], 12));
    carom_destroy_world(worlds[0]);
}

static carom_status inside;
static int explode_inside(carom_shape_id shape, void* context) {
    (void)shape;
    carom_explosion_def def = blast_at(carom_v2(0.0, 0.0), 1.0, 0.0, 1.0);
    inside = carom_world_explode(*(carom_world_id*)context, &def);
    return 0;
}

Test(explode, bad_input_is_refused_and_changes_nothing) {
    carom_body_id tiny = ball(carom_v2(1.0, 0.0), 0.01, 1, 1);
    carom_body_id other = ball(carom_v2(-1.0, 0.0), 0.5, 1, 1);
    settle();
    carom_explosion_def good = blast_at(carom_v2(0.0, 0.0), 2.0, 1.0, 1.0);
    cr_assert_eq(carom_world_explode(world, NULL), CAROM_ERROR_NULL_ARGUMENT);
    carom_explosion_def hand_made;
    memset(&hand_made, 0, sizeof hand_made);
    cr_assert_eq(carom_world_explode(world, &hand_made), CAROM_ERROR_INVALID_DEF);
    carom_explosion_def bad = good;
    bad.radius = -1.0;
    cr_assert_eq(carom_world_explode(world, &bad), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "radius") != NULL, "%s", carom_last_error());
    bad = good;
    bad.position.x = NAN;
    cr_assert_eq(carom_world_explode(world, &bad), CAROM_ERROR_NOT_FINITE);
    cr_assert(strstr(carom_last_error(), "position") != NULL, "%s", carom_last_error());
    bad = good;
    bad.falloff = INFINITY;
    cr_assert_neq(carom_world_explode(world, &bad), CAROM_OK);
    cr_assert(strstr(carom_last_error(), "falloff") != NULL, "%s", carom_last_error());
    bad = good;
    bad.impulse_per_length = 2.0 * CAROM_MAX_MAGNITUDE;
    cr_assert_eq(carom_world_explode(world, &bad), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "impulse_per_length") != NULL, "%s", carom_last_error());
    /* a blast that would throw the tiny ball faster than the bound: refused, nobody moved */
    bad = good;
    bad.impulse_per_length = 0.5 * CAROM_MAX_MAGNITUDE;
    cr_assert_eq(carom_world_explode(world, &bad), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "explosion") != NULL, "%s", carom_last_error());
    cr_assert_eq(carom_body_get_linear_velocity(tiny).x, 0.0);
    cr_assert_eq(carom_body_get_linear_velocity(other).x, 0.0, "not even the body it could push");
    /* inside a query callback the world is locked */
    carom_world_overlap_point(world, carom_v2(1.0, 0.0), carom_default_filter(), explode_inside,
                              &world);
    cr_assert_eq(inside, CAROM_ERROR_WORLD_LOCKED);
    cr_assert_eq(carom_body_get_linear_velocity(tiny).x, 0.0);
    /* a stale world */
    carom_world_id stale = test_make_world(carom_v2(0.0, 0.0));
    carom_destroy_world(stale);
    cr_assert_eq(carom_world_explode(stale, &good), CAROM_ERROR_INVALID_ID);
    /* and the good blast works */
    cr_assert_eq(carom_world_explode(world, &good), CAROM_OK);
    cr_assert(carom_body_get_linear_velocity(tiny).x > 0.0);
    cr_assert(carom_body_get_linear_velocity(other).x < 0.0);
}
