/* Continuous collision in the world: fast bodies never tunnel and keep their glancing motion. */
#include "helpers.h"
#include "scenes.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static const double dt = 1.0 / 60.0;

static carom_world_id top_down_world(int continuous) {
    carom_world_def def = carom_default_world_def();
    def.gravity = carom_v2(0.0, 0.0);
    def.enable_continuous = continuous;
    carom_world_id world = carom_create_world(&def);
    cr_assert(carom_world_is_valid(world));
    return world;
}

/* A 1 x 2 m car (half extents 0.5 and 1, long axis along its local y). */
static carom_body_id make_car(carom_world_id world, carom_vec2 p, double angle, carom_vec2 v,
                              double spin, int bullet, double friction) {
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = p;
    def.angle = angle;
    def.linear_velocity = v;
    def.angular_velocity = spin;
    def.bullet = bullet;
    carom_body_id car = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    shape.friction = friction;
    carom_create_box_shape(car, &shape, 0.5, 1.0, carom_v2(0.0, 0.0), 0.0);
    return car;
}

/* The lowest y of the car's corners. */
static double lowest_corner(carom_body_id car) {
    carom_transform xf = carom_body_get_transform(car);
    double lowest = 1e300;
    const carom_vec2 corners[4] = {{-0.5, -1.0}, {0.5, -1.0}, {0.5, 1.0}, {-0.5, 1.0}};
    for (int i = 0; i < 4; ++i) {
        lowest = fmin(lowest, carom_transform_point(xf, corners[i]).y);
    }
    return lowest;
}

Test(continuous, small_ball_at_300_m_per_s_never_passes_a_ten_centimetre_wall) {
    carom_world_id world = top_down_world(1);
    test_make_thin_wall(world, 10.0);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.05, carom_v2(300.0, 0.0),
                                        0.6, 0.0);
    for (int step = 0; step < 120; ++step) {
        test_step(world, dt, 1);
        double x = carom_body_get_position(ball).x;
        cr_assert_lt(x, 10.0 - 0.05 - 0.05 + 0.005, "step %d: the ball is at x = %.4f, in or past "
                     "the wall", step, x);
    }
    cr_assert_lt(fabs(carom_body_get_linear_velocity(ball).x), 1.0, "the wall stopped it");
    carom_destroy_world(world);
}

/* Continuous collision maps where the static and kinematic shapes lie and does not query the
 * broad phase for a swept box the map shows clear (continuous.c, the fixed map). A wall that
 * appears or moves after the map was made must still stop the ball: the map is made again. */

/* A 10 cm wall (2 m tall) on `body` at x = 40, which a ball at 300 m/s along y = 0 reaches
 * after 8 steps. */
static void add_wall_at_40(carom_body_id body) {
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(body, &shape, 0.05, 2.0, carom_v2(0.0, 0.0), 0.0);
}

static carom_body_id make_fixed_body(carom_world_id world, carom_body_type type, carom_vec2 p) {
    carom_body_def def = carom_default_body_def();
    def.type = type;
    def.position = p;
    return carom_create_body(world, &def);
}

/* Steps a ball from x = 0 at 300 m/s (2 steps already taken) and checks it never reaches the
 * wall's face at x = 39.95. */
static void assert_ball_stays_short_of_x_40(carom_world_id world, carom_body_id ball) {
    for (int step = 0; step < 60; ++step) {
        test_step(world, dt, 1);
        double x = carom_body_get_position(ball).x;
        cr_assert_lt(x, 40.0 - 0.05 - 0.05 + 0.005,
                     "step %d: the ball is at x = %.4f, in or past the wall", step, x);
    }
    cr_assert_lt(fabs(carom_body_get_linear_velocity(ball).x), 1.0, "the wall stopped it");
}

static carom_world_id world_with_a_ball_in_flight(carom_body_id* ball) {
    carom_world_id world = top_down_world(1);
    /* a static shape far behind, so the map is not empty */
    add_wall_at_40(make_fixed_body(world, CAROM_BODY_STATIC, carom_v2(-100.0, 0.0)));
    *ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.05, carom_v2(300.0, 0.0), 0.6, 0.0);
    test_step(world, dt, 2); /* the map is made, with nothing ahead of the ball */
    cr_assert_gt(carom_body_get_position(*ball).x, 9.0);
    return world;
}

Test(continuous, a_wall_created_in_the_path_after_steps_stops_the_ball) {
    carom_body_id ball;
    carom_world_id world = world_with_a_ball_in_flight(&ball);
    add_wall_at_40(make_fixed_body(world, CAROM_BODY_STATIC, carom_v2(40.0, 0.0)));
    assert_ball_stays_short_of_x_40(world, ball);
    carom_destroy_world(world);
}

Test(continuous, a_static_wall_moved_into_the_path_stops_the_ball) {
    carom_body_id ball;
    carom_world_id world = world_with_a_ball_in_flight(&ball);
    carom_body_id wall = make_fixed_body(world, CAROM_BODY_STATIC, carom_v2(40.0, 50.0));
    add_wall_at_40(wall);
    test_step(world, dt, 1); /* the map has the wall off the path */
    cr_assert_eq(carom_body_set_transform(wall, carom_v2(40.0, 0.0), 0.0), CAROM_OK);
    assert_ball_stays_short_of_x_40(world, ball);
    carom_destroy_world(world);
}

Test(continuous, a_kinematic_wall_driven_into_the_path_stops_the_ball) {
    carom_body_id ball;
    carom_world_id world = world_with_a_ball_in_flight(&ball);
    /* 12 m above the path, coming down at 180 m/s: across the path (y = 0) at the 4th step,
     * while the ball reaches x = 40 at the 8th; then stopped there */
    carom_body_id wall = make_fixed_body(world, CAROM_BODY_KINEMATIC, carom_v2(40.0, 12.0));
    add_wall_at_40(wall);
    carom_body_set_linear_velocity(wall, carom_v2(0.0, -180.0));
    test_step(world, dt, 4);
    cr_assert_float_eq(carom_body_get_position(wall).y, 0.0, 1e-9);
    carom_body_set_linear_velocity(wall, carom_v2(0.0, 0.0));
    assert_ball_stays_short_of_x_40(world, ball);
    carom_destroy_world(world);
}

Test(continuous, a_dynamic_wall_turned_static_in_the_path_stops_the_ball) {
    carom_body_id ball;
    carom_world_id world = world_with_a_ball_in_flight(&ball);
    /* dynamic, the ball (no bullet) would pass it; static, it may not */
    carom_body_id wall = make_fixed_body(world, CAROM_BODY_DYNAMIC, carom_v2(40.0, 0.0));
    add_wall_at_40(wall);
    test_step(world, dt, 1);
    cr_assert_eq(carom_body_set_type(wall, CAROM_BODY_STATIC), CAROM_OK);
    assert_ball_stays_short_of_x_40(world, ball);
    carom_destroy_world(world);
}

Test(continuous, without_continuous_collision_the_same_ball_tunnels) {
    carom_world_id world = top_down_world(0);
    test_make_thin_wall(world, 10.0);
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.05, carom_v2(300.0, 0.0),
                                        0.6, 0.0);
    test_step(world, dt, 60);
    cr_assert_gt(carom_body_get_position(ball).x, 100.0, "this is what the sweep prevents");
    carom_destroy_world(world);
}

/* A car at 100 m/s hitting the wall y = 0 (a static segment) at 45 degrees, facing along its
 * velocity, possibly spinning. Checks it never crosses; returns its speed along the wall 1 s
 * after the start. */
static double car_into_wall(double spin) {
    carom_world_id world = top_down_world(1);
    carom_body_def wall_def = carom_default_body_def();
    carom_body_id wall = carom_create_body(world, &wall_def);
    carom_shape_def shape = carom_default_shape_def();
    shape.friction = 0.3;
    carom_segment segment = {{-100.0, 0.0}, {400.0, 0.0}};
    carom_create_segment_shape(wall, &shape, &segment);
    const double speed = 100.0;
    carom_vec2 v = {speed * sqrt(0.5), -speed * sqrt(0.5)};
    /* the car's long axis (local y) along the velocity: angle -135 degrees turns +y to v */
    carom_body_id car = make_car(world, carom_v2(0.0, 10.0), -0.75 * CAROM_PI, v, spin, 0, 0.3);
    for (int step = 0; step < 60; ++step) {
        test_step(world, dt, 1);
        cr_assert_gt(lowest_corner(car), -0.01, "step %d: a corner crossed the wall (y = %.4f)",
                     step, lowest_corner(car));
    }
    double along = carom_body_get_linear_velocity(car).x;
    carom_destroy_world(world);
    return along;
}

Test(continuous, car_at_100_m_per_s_hitting_a_wall_at_45_degrees_stays_out_and_slides_on) {
    double along = car_into_wall(0.0);
    double tangential = 100.0 * sqrt(0.5);
    cr_log_info("car along the wall after 1 s: %.2f m/s of %.2f", along, tangential);
    cr_assert_gt(along, 0.5 * tangential, "kept %.2f of %.2f m/s", along, tangential);
}

Test(continuous, car_spinning_at_30_rad_per_s_hitting_the_wall_stays_out) {
    double along = car_into_wall(30.0);
    cr_log_info("spinning car along the wall after 1 s: %.2f m/s", along);
    cr_assert_gt(along, 0.0, "it still moves along the wall");
}

/* A 10 cm box at 200 m/s at a 10 cm thick, 2 m plank 5 m ahead. */
static void bullet_at_plank(int bullet, double* bullet_x, double* plank_vx) {
    carom_world_id world = top_down_world(1);
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(5.0, 0.0);
    carom_body_id plank = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(plank, &shape, 0.05, 1.0, carom_v2(0.0, 0.0), 0.0);
    def.position = carom_v2(0.0, 0.0);
    def.linear_velocity = carom_v2(200.0, 0.0);
    def.bullet = bullet;
    carom_body_id shot = carom_create_body(world, &def);
    shape.density = 20.0;
    carom_create_box_shape(shot, &shape, 0.05, 0.05, carom_v2(0.0, 0.0), 0.0);
    test_step(world, dt, 10);
    *bullet_x = carom_body_get_position(shot).x;
    *plank_vx = carom_body_get_linear_velocity(plank).x;
    carom_destroy_world(world);
}

Test(continuous, bullet_box_at_200_m_per_s_hits_a_thin_dynamic_plank_and_moves_it) {
    double shot_x, plank_vx;
    bullet_at_plank(1, &shot_x, &plank_vx);
    cr_log_info("bullet at x = %.3f, plank moving at %.3f m/s", shot_x, plank_vx);
    cr_assert_gt(plank_vx, 1.0, "the plank was hit and moves");
    cr_assert_lt(shot_x, 5.0 + plank_vx * 10.0 * dt, "the bullet stays behind the plank");
}

Test(continuous, a_fast_box_without_the_bullet_flag_passes_dynamic_bodies_as_documented) {
    /* Only static and kinematic shapes stop a non-bullet: it jumps 3.3 m per step, past the
     * plank, and the plank is never touched. */
    double shot_x, plank_vx;
    bullet_at_plank(0, &shot_x, &plank_vx);
    cr_assert_gt(shot_x, 20.0);
    cr_assert_eq(plank_vx, 0.0);
}

typedef struct pair_run {
    carom_vec2 momentum_before, momentum_after;
    carom_body_id a, b;
    carom_world_id world;
} pair_run;

static carom_vec2 momentum(carom_body_id a, carom_body_id b) {
    return carom_add(carom_scale(carom_body_get_mass(a), carom_body_get_linear_velocity(a)),
                     carom_scale(carom_body_get_mass(b), carom_body_get_linear_velocity(b)));
}

Test(continuous, two_bullet_cars_head_on_at_100_m_per_s_each_collide) {
    carom_world_id world = top_down_world(1);
    /* long axes along x (angle -90 degrees turns local y to +x) */
    carom_body_id a = make_car(world, carom_v2(-12.0, 0.0), -0.5 * CAROM_PI,
                               carom_v2(100.0, 0.0), 0.0, 1, 0.3);
    carom_body_id b = make_car(world, carom_v2(12.0, 0.0), -0.5 * CAROM_PI,
                               carom_v2(-100.0, 0.0), 0.0, 1, 0.3);
    carom_vec2 before = momentum(a, b);
    for (int step = 0; step < 60; ++step) {
        test_step(world, dt, 1);
        double gap = carom_body_get_position(b).x - carom_body_get_position(a).x;
        cr_assert_gt(gap, 2.0 - 0.02, "step %d: the cars overlap or passed (gap %.4f)", step, gap);
    }
    carom_vec2 after = momentum(a, b);
    cr_assert_lt(carom_length(carom_sub(after, before)), 1e-9 * 200.0 * carom_body_get_mass(a));
    cr_assert_lt(fabs(carom_body_get_linear_velocity(a).x), 1.0, "they stopped each other");
    carom_destroy_world(world);
}

Test(continuous, two_bullet_cars_crossing_at_right_angles_collide) {
    carom_world_id world = top_down_world(1);
    carom_body_id a = make_car(world, carom_v2(-10.0, 0.0), -0.5 * CAROM_PI,
                               carom_v2(100.0, 0.0), 0.0, 1, 0.3);
    carom_body_id b = make_car(world, carom_v2(0.0, -10.0), 0.0, carom_v2(0.0, 100.0), 0.0, 1, 0.3);
    carom_vec2 before = momentum(a, b);
    test_step(world, dt, 60);
    carom_vec2 after = momentum(a, b);
    double scale = 100.0 * carom_body_get_mass(a);
    cr_assert_lt(carom_length(carom_sub(after, before)), 1e-9 * scale,
                 "momentum (%.9g, %.9g) became (%.9g, %.9g)", before.x, before.y, after.x,
                 after.y);
    /* had they passed through each other, each would still fly straight at 100 m/s */
    cr_assert_gt(fabs(carom_body_get_linear_velocity(a).y), 1.0, "car a was deflected");
    cr_assert_gt(fabs(carom_body_get_linear_velocity(b).x), 1.0, "car b was deflected");
    cr_assert_lt(carom_body_get_position(a).x, 50.0, "car a did not fly on through");
    carom_destroy_world(world);
}

static uint64_t run_scene(carom_scene_kind kind, int n, int continuous) {
    carom_world_def def = carom_scene_world_def(kind);
    def.enable_continuous = continuous;
    carom_world_id world = carom_create_world(&def);
    int count = carom_scene_body_count(kind, n);
    carom_body_id* bodies = malloc(sizeof(carom_body_id) * (size_t)count);
    cr_assert_eq(carom_scene_build(world, kind, n, bodies), count);
    test_step(world, dt, 300);
    uint64_t h = test_hash_bodies(bodies, count);
    free(bodies);
    carom_destroy_world(world);
    return h;
}

Test(continuous, slow_scenes_give_the_same_bits_with_continuous_collision_on_and_off) {
    cr_assert_eq(run_scene(CAROM_SCENE_PYRAMID, 10, 1), run_scene(CAROM_SCENE_PYRAMID, 10, 0));
    cr_assert_eq(run_scene(CAROM_SCENE_RAIN, 200, 1), run_scene(CAROM_SCENE_RAIN, 200, 0));
}
