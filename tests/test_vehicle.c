/* The top-down vehicle (include/carom/vehicle.h): the five behaviours of the car model, each
 * against a value computed here from the documented equations, and the API boundary.
 * Measured figures are printed with cr_log_info (run the test program with --verbose). */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>

#define DT (1.0 / 60.0)
#define CAR_MASS 1200.0
#define HALF_LENGTH 2.2
#define HALF_WIDTH 0.9

static carom_world_id make_world(void) {
    return test_make_world(carom_v2(0.0, 0.0));
}

/* A 4.4 m x 1.8 m, 1200 kg chassis at p heading along angle, with the given vehicle def. */
static carom_vehicle_id make_car(carom_world_id world, carom_vec2 p, double angle, double speed,
                                 const carom_vehicle_def* def) {
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    body_def.position = p;
    body_def.angle = angle;
    body_def.linear_velocity = carom_v2(speed * cos(angle), speed * sin(angle));
    carom_body_id body = carom_create_body(world, &body_def);
    carom_shape_def shape = carom_default_shape_def();
    shape.density = CAR_MASS / (4.0 * HALF_LENGTH * HALF_WIDTH);
    carom_create_box_shape(body, &shape, HALF_LENGTH, HALF_WIDTH, carom_v2(0.0, 0.0), 0.0);
    carom_vehicle_id vehicle = carom_create_vehicle(body, def);
    cr_assert(carom_vehicle_is_valid(vehicle), "vehicle creation failed: %s", carom_last_error());
    return vehicle;
}

static double speed_of(carom_vehicle_id vehicle) {
    return carom_length(carom_body_get_linear_velocity(carom_vehicle_get_body(vehicle)));
}

static void set_input(carom_vehicle_id vehicle, double throttle, double brake, double steer,
                      int handbrake) {
    carom_status status = carom_vehicle_set_input(vehicle, throttle, brake, steer, handbrake);
    cr_assert_eq(status, CAROM_OK, "set_input: %s", carom_last_error());
}

/* Brake fully from `speed` until the car stands; the distance travelled (m). */
static double stopping_distance(carom_world_id world, carom_vehicle_id car, double* seconds) {
    carom_body_id body = carom_vehicle_get_body(car);
    carom_vec2 start = carom_body_get_position(body);
    set_input(car, 0.0, 1.0, 0.0, 0);
    int steps = 0;
    while (speed_of(car) > 1e-3 && steps < 60 * 120) {
        test_step(world, DT, 1);
        ++steps;
    }
    cr_assert(speed_of(car) <= 1e-3, "still moving at %g m/s after %d steps", speed_of(car), steps);
    *seconds = steps * DT;
    return carom_distance(start, carom_body_get_position(body));
}

Test(vehicle, full_throttle_reaches_the_documented_top_speed) {
    carom_world_id world = make_world();
    carom_vehicle_def def = carom_default_vehicle_def();
    carom_vehicle_id car = make_car(world, carom_v2(0.0, 0.0), 0.0, 0.0, &def);
    double mass = carom_body_get_mass(carom_vehicle_get_body(car));
    /* Power-limited top speed: max_power = v (drag v^2 + rolling_resistance m g), by Newton. */
    double rolling = def.rolling_resistance * mass * def.gravity;
    double top = 50.0;
    for (int i = 0; i < 50; ++i) {
        double residual = def.drag_coefficient * top * top * top + rolling * top - def.max_power;
        top -= residual / (3.0 * def.drag_coefficient * top * top + rolling);
    }
    cr_assert(def.max_drive_force * top > def.max_power, "the power limit applies at top speed");
    set_input(car, 1.0, 0.0, 0.0, 0);
    double speed_at_10_s = 0.0;
    for (int second = 0; second < 150; ++second) {
        test_step(world, DT, 60);
        if (second == 9) {
            speed_at_10_s = speed_of(car);
        }
    }
    double speed = speed_of(car);
    cr_log_info("top speed: measured %.3f m/s after 150 s (%.2f m/s after 10 s), analytic "
                "%.3f m/s for %.1f kg",
                speed, speed_at_10_s, top, mass);
    cr_assert(fabs(speed - top) < 0.005 * top, "top speed %.3f m/s, expected %.3f", speed, top);
    cr_assert(fabs(carom_body_get_position(carom_vehicle_get_body(car)).y) < 1e-9,
              "drives straight");
    carom_destroy_world(world);
}

Test(vehicle, braking_from_30_m_s_stops_within_10_percent_of_the_friction_limit) {
    carom_world_id world = make_world();
    carom_vehicle_def def = carom_default_vehicle_def();
    carom_vehicle_id car = make_car(world, carom_v2(0.0, 0.0), 0.5, 30.0, &def);
    double mass = carom_body_get_mass(carom_vehicle_get_body(car));
    double seconds = 0.0;
    double distance = stopping_distance(world, car, &seconds);
    /* Friction-limited: the tyres hold grip * m g, so a = grip g and d = v^2 / (2 grip g). */
    double friction_limited = 30.0 * 30.0 / (2.0 * def.grip * def.gravity);
    /* With air drag too: a = grip g + (c / m) v^2 gives d = m / (2 c) ln(1 + c v^2 / (m grip g)).
     */
    double c = def.drag_coefficient;
    double with_drag = mass / (2.0 * c) * log(1.0 + c * 900.0 / (mass * def.grip * def.gravity));
    cr_log_info("braking from 30 m/s: stopped in %.2f m and %.2f s; friction-limited analytic "
                "%.2f m (%.1f %% off), with drag %.2f m (%.1f %% off)",
                distance, seconds, friction_limited,
                100.0 * (distance - friction_limited) / friction_limited, with_drag,
                100.0 * (distance - with_drag) / with_drag);
    cr_assert(fabs(distance - friction_limited) < 0.10 * friction_limited,
              "stopped in %.2f m, friction-limited %.2f m", distance, friction_limited);
    carom_destroy_world(world);
}

Test(vehicle, a_slow_steady_turn_follows_the_kinematic_ackermann_radius) {
    carom_world_id world = make_world();
    carom_vehicle_def def = carom_default_vehicle_def();
    const double target_speed = 4.0, steer = 0.5;
    carom_vehicle_id car = make_car(world, carom_v2(0.0, 0.0), 0.0, target_speed, &def);
    carom_body_id body = carom_vehicle_get_body(car);
    double radius_sum = 0.0, expected_sum = 0.0;
    int samples = 0;
    for (int step = 0; step < 60 * 30; ++step) {
        double throttle = fmin(1.0, fmax(0.0, 2.0 * (target_speed - speed_of(car))));
        set_input(car, throttle, 0.0, steer, 0);
        test_step(world, DT, 1);
        if (step >= 60 * 20) {
            carom_vehicle_state state;
            cr_assert_eq(carom_vehicle_get_state(car, &state), CAROM_OK);
            /* radius of the centre of mass' path */
            radius_sum += speed_of(car) / fabs(carom_body_get_angular_velocity(body));
            /* Ackermann: the rear axle's midpoint turns on wheelbase / tan(angle); the centre of
             * mass, 1.3 m ahead of it, on the hypotenuse. angle = steer * lock(forward speed). */
            double lock =
                def.max_steer_angle / (1.0 + fabs(state.forward_speed) / def.steer_reduction_speed);
            double rear_radius = 2.6 / tan(steer * lock);
            expected_sum += sqrt(rear_radius * rear_radius + 1.3 * 1.3);
            ++samples;
        }
    }
    double radius = radius_sum / samples;
    double expected = expected_sum / samples;
    cr_log_info("steady turn at %.2f m/s, steer %.2f: path radius %.3f m, kinematic %.3f m "
                "(%.2f %% off)",
                speed_of(car), steer, radius, expected, 100.0 * (radius - expected) / expected);
    cr_assert(fabs(speed_of(car) - target_speed) < 0.1, "held the speed");
    cr_assert(fabs(radius - expected) < 0.02 * expected, "radius %.3f m, kinematic %.3f m", radius,
              expected);
    cr_assert(carom_body_get_angular_velocity(body) > 0.0, "a positive steer turns left");
    carom_destroy_world(world);
}

Test(vehicle, the_handbrake_at_speed_makes_the_car_slide_and_its_yaw_rate_rise) {
    carom_world_id world = make_world();
    carom_vehicle_def def = carom_default_vehicle_def();
    carom_vehicle_id car = make_car(world, carom_v2(0.0, 0.0), 0.0, 20.0, &def);
    carom_body_id body = carom_vehicle_get_body(car);
    const double steer = 0.15;
    /* a steady turn at 20 m/s */
    set_input(car, 0.4, 0.0, steer, 0);
    test_step(world, DT, 90);
    double steady_yaw = carom_body_get_angular_velocity(body);
    carom_vehicle_state before;
    carom_vehicle_get_state(car, &before);
    /* pull the handbrake */
    set_input(car, 0.0, 0.0, steer, 1);
    double peak_yaw = steady_yaw, peak_rear_slip = 0.0;
    for (int step = 0; step < 60; ++step) {
        test_step(world, DT, 1);
        peak_yaw = fmax(peak_yaw, carom_body_get_angular_velocity(body));
        carom_vehicle_state state;
        carom_vehicle_get_state(car, &state);
        peak_rear_slip = fmax(peak_rear_slip, fabs(state.wheels[2].slip_angle));
    }
    cr_log_info("handbrake at %.1f m/s, steer %.2f: yaw rate %.3f rad/s before, peak %.3f rad/s "
                "after (x %.2f); rear slip angle %.3f rad before, peak %.3f rad after (tyre peak "
                "%.2f)",
                before.forward_speed, steer, steady_yaw, peak_yaw, peak_yaw / steady_yaw,
                fabs(before.wheels[2].slip_angle), peak_rear_slip, def.peak_slip_angle);
    cr_assert(steady_yaw > 0.0);
    cr_assert(fabs(before.wheels[2].slip_angle) < def.peak_slip_angle, "grips before");
    cr_assert(peak_yaw > 1.5 * steady_yaw, "yaw rate %.3f -> %.3f rad/s", steady_yaw, peak_yaw);
    cr_assert(peak_rear_slip > 2.0 * def.peak_slip_angle, "the rear slides: %.3f rad",
              peak_rear_slip);
    carom_destroy_world(world);
}

Test(vehicle, on_ice_a_car_takes_longer_to_stop_than_on_tarmac) {
    carom_vehicle_def def = carom_default_vehicle_def();
    const double ice_grip = 0.1, speed = 20.0;
    /* tarmac: no sensor under the wheels */
    carom_world_id tarmac_world = make_world();
    carom_vehicle_id tarmac_car = make_car(tarmac_world, carom_v2(0.0, 0.0), 0.0, speed, &def);
    double tarmac_seconds = 0.0;
    double tarmac = stopping_distance(tarmac_world, tarmac_car, &tarmac_seconds);
    /* ice: a static sensor 1 km long marks the ground */
    carom_world_id ice_world = make_world();
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(ice_world, &ground_def);
    carom_shape_def ice = carom_default_shape_def();
    ice.is_sensor = 1;
    ice.surface_grip = ice_grip;
    carom_shape_id ice_shape =
        carom_create_box_shape(ground, &ice, 500.0, 20.0, carom_v2(450.0, 0.0), 0.0);
    cr_assert_eq(carom_shape_get_surface_grip(ice_shape), ice_grip);
    carom_vehicle_id ice_car = make_car(ice_world, carom_v2(0.0, 0.0), 0.0, speed, &def);
    test_step(ice_world, DT, 1);
    carom_vehicle_state state;
    carom_vehicle_get_state(ice_car, &state);
    for (int i = 0; i < state.wheel_count; ++i) {
        cr_assert_eq(state.wheels[i].surface_grip, ice_grip, "wheel %d reads the ice", i);
    }
    double ice_seconds = 0.0;
    double on_ice = stopping_distance(ice_world, ice_car, &ice_seconds);
    cr_log_info("braking from %.0f m/s: %.2f m in %.2f s on tarmac, %.2f m in %.2f s on ice of "
                "grip %.2f (friction-limited analytic %.2f m and %.2f m)",
                speed, tarmac, tarmac_seconds, on_ice, ice_seconds, ice_grip,
                speed * speed / (2.0 * def.grip * def.gravity),
                speed * speed / (2.0 * ice_grip * def.grip * def.gravity));
    cr_assert(on_ice > 5.0 * tarmac, "ice %.2f m, tarmac %.2f m", on_ice, tarmac);
    cr_assert(ice_seconds > 5.0 * tarmac_seconds);
    carom_destroy_world(tarmac_world);
    carom_destroy_world(ice_world);
}

/* ---- The API boundary ----------------------------------------------------------------------- */

Test(vehicle, bad_inputs_and_defs_are_refused_and_change_nothing) {
    carom_world_id world = make_world();
    carom_vehicle_def def = carom_default_vehicle_def();
    carom_vehicle_id car = make_car(world, carom_v2(0.0, 0.0), 0.0, 0.0, &def);
    set_input(car, 0.5, 0.25, -0.5, 1);
    cr_assert_eq(carom_vehicle_set_input(car, 1.5, 0.0, 0.0, 0), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_vehicle_set_input(car, 0.0, -0.1, 0.0, 0), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_vehicle_set_input(car, 0.0, 0.0, NAN, 0), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_vehicle_set_input(car, 0.0, 0.0, 0.0, 2), CAROM_ERROR_OUT_OF_RANGE);
    carom_vehicle_input input = carom_vehicle_get_input(car);
    cr_assert(input.throttle == 0.5 && input.brake == 0.25 && input.steer == -0.5 &&
              input.handbrake == 1);

    carom_body_id body = carom_vehicle_get_body(car);
    cr_assert(CAROM_IS_NULL(carom_create_vehicle(body, &def)), "one vehicle per body");
    carom_vehicle_def hand_built = def;
    hand_built.internal_cookie = 0;
    carom_body_def static_def = carom_default_body_def();
    carom_body_id wall = carom_create_body(world, &static_def);
    cr_assert(CAROM_IS_NULL(carom_create_vehicle(wall, &def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE, "a static chassis is refused");
    carom_vehicle_def bad = def;
    bad.wheel_count = CAROM_VEHICLE_MAX_WHEELS + 1;
    carom_destroy_vehicle(car);
    cr_assert(!carom_vehicle_is_valid(car));
    cr_assert(CAROM_IS_NULL(carom_create_vehicle(body, &hand_built)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_DEF);
    cr_assert(CAROM_IS_NULL(carom_create_vehicle(body, &bad)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_vehicle_set_input(car, 0.0, 0.0, 0.0, 0), CAROM_ERROR_INVALID_ID);
    carom_destroy_world(world);
}

Test(vehicle, destroying_the_body_destroys_its_vehicle) {
    carom_world_id world = make_world();
    carom_vehicle_def def = carom_default_vehicle_def();
    carom_vehicle_id first = make_car(world, carom_v2(0.0, 0.0), 0.0, 0.0, &def);
    carom_vehicle_id second = make_car(world, carom_v2(10.0, 0.0), 0.0, 0.0, &def);
    cr_assert_eq(carom_destroy_body(carom_vehicle_get_body(first)), CAROM_OK);
    cr_assert(!carom_vehicle_is_valid(first));
    cr_assert(carom_vehicle_is_valid(second));
    carom_vehicle_id third = make_car(world, carom_v2(20.0, 0.0), 0.0, 0.0, &def);
    cr_assert(!carom_vehicle_id_equals(first, third), "a reused slot has a new generation");
    set_input(second, 1.0, 0.0, 0.0, 0);
    test_step(world, DT, 10);
    cr_assert(speed_of(second) > 0.0);
    carom_destroy_world(world);
    cr_assert(!carom_vehicle_is_valid(second));
}
