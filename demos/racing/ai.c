/* The racing demo's AI driver: see ai.h.
 *
 * Steering is pure pursuit (Coulter, 1992): aim at the racing-line point a speed-dependent
 * distance ahead, and steer onto the circle through the rear axle and that point: curvature
 * 2 y / d^2 with the aim at (x, y) in the car's frame, d its distance, steer angle
 * atan(wheelbase * curvature), given to the vehicle as a fraction of its current lock. Speed
 * follows the track's speed profile a little ahead, scaled by the driver's pace. Three rays from
 * the front bumper (ahead, and 0.3 rad either side) see the cars in front: a slower car ahead
 * shifts the aim to the freer side and caps the speed to the other car's when close. A car that
 * has not moved for 1.5 s with its foot down reverses for 1.2 s with the wheel turned the other
 * way. Only + - * / sqrt and carom's own atan2: the race has the same bits everywhere. */
#include "ai.h"

#include <math.h>

static double clamp(double x, double lo, double hi) {
    return x < lo ? lo : (x > hi ? hi : x);
}

/* Cast one ray for cars; the distance to the hit (or length) and the hit car's speed along dir. */
static double look(race* r, race_ai* ai, int slot, carom_vec2 from, carom_vec2 dir, double length,
                   double* other_speed) {
    carom_filter filter = {CAT_CAR_RAY, CAT_CAR, 0};
    carom_vec2 translation = carom_scale(length, dir);
    carom_ray_result hit = carom_world_cast_ray_closest(r->world, from, translation, filter);
    ai->ray_from[slot] = from;
    ai->ray_hit[slot] = hit.hit;
    ai->ray_to[slot] = hit.hit ? hit.point : carom_add(from, translation);
    *other_speed = 0.0;
    if (!hit.hit) {
        return length;
    }
    carom_body_id other = carom_shape_get_body(hit.shape);
    *other_speed = carom_dot(carom_body_get_linear_velocity(other), dir);
    return hit.fraction * length;
}

/* Sideways shift of the aim and a speed cap from what the rays see ahead. */
static void avoid(race* r, race_car* car, carom_transform xf, double speed, int straight_ahead,
                  double* cap) {
    race_ai* ai = &car->ai;
    carom_vec2 forward = carom_rotate(xf.q, carom_v2(1.0, 0.0));
    carom_vec2 nose = carom_transform_point(xf, carom_v2(car->nose, 0.0));
    double length = 10.0 + 0.9 * speed;
    carom_rot spread = carom_make_rot(0.3);
    carom_vec2 left = carom_rotate(spread, forward);
    carom_vec2 right = carom_inv_rotate(spread, forward);
    double ahead_speed = 0.0, left_speed = 0.0, right_speed = 0.0;
    double ahead = look(r, ai, 0, nose, forward, length, &ahead_speed);
    double to_left = look(r, ai, 1, carom_transform_point(xf, carom_v2(car->nose - 0.05, 0.8)),
                          left, 0.6 * length, &left_speed);
    double to_right = look(r, ai, 2, carom_transform_point(xf, carom_v2(car->nose - 0.05, -0.8)),
                           right, 0.6 * length, &right_speed);
    double target = 0.0;
    if (ahead < length && ahead_speed < speed - 0.5) {
        /* closing on a car: pass on the freer side if there is room, else follow it */
        double gap = ahead - 2.0;
        double closing = speed - ahead_speed;
        double side_room = to_left >= to_right ? to_left : to_right;
        if (side_room > 0.5 * length && straight_ahead) {
            target = to_left >= to_right ? 3.0 : -3.0;
        }
        if (gap < 5.0 + 0.8 * closing) {
            *cap = fmax(0.0, ahead_speed - 1.0);
        }
    }
    /* move the aim gradually: at most 4 m/s sideways */
    double step = 4.0 * RACE_DT;
    ai->offset += clamp(target - ai->offset, -step, step);
}

static int unstick(race_ai* ai, double speed, double throttle, carom_vehicle_id vehicle,
                   double steer) {
    if (ai->reverse_steps > 0) {
        ai->reverse_steps -= 1;
        carom_vehicle_set_input(vehicle, -0.6, 0.0, ai->reverse_steer, 0);
        return 1;
    }
    ai->stuck_steps = (speed < 1.0 && throttle > 0.3) ? ai->stuck_steps + 1 : 0;
    if (ai->stuck_steps > 90) {
        ai->stuck_steps = 0;
        ai->reverse_steps = 72;
        ai->reverse_steer = steer > 0.0 ? -1.0 : 1.0;
    }
    return 0;
}

void ai_drive(race* r, int index) {
    race_car* car = &r->cars[index];
    race_ai* ai = &car->ai;
    const track* t = &r->track;
    carom_transform xf = carom_body_get_transform(car->body);
    carom_vec2 velocity = carom_body_get_linear_velocity(car->body);
    double speed = carom_length(velocity);
    carom_vec2 rear = carom_transform_point(xf, carom_v2(car->rear_axle, 0.0));
    ai->line_index = track_nearest(t, rear, ai->line_index, 12);

    /* overtake only where the next 60 m are fast */
    int straight_ahead = 1;
    for (int k = 0; k < (int)(60.0 / t->spacing); ++k) {
        straight_ahead &= t->line_speed[track_wrap(t, ai->line_index + k)] > 30.0;
    }
    double cap = INFINITY;
    avoid(r, car, xf, speed, straight_ahead, &cap);

    /* pure pursuit */
    double lookahead = 5.0 + 0.35 * speed;
    int aim_index = track_wrap(t, ai->line_index + (int)(lookahead / t->spacing + 0.5));
    double offset = clamp(t->line_offset[aim_index] + ai->offset, -t->road_half_width + 2.0,
                          t->road_half_width - 2.0);
    ai->aim = carom_mul_add(t->center[aim_index], offset, t->normal[aim_index]);
    carom_vec2 local = carom_inv_rotate(xf.q, carom_sub(ai->aim, rear));
    double d2 = carom_length_squared(local);
    double curvature = d2 > 0.0 ? 2.0 * local.y / d2 : 0.0;
    double steer_angle = carom_atan2(car->wheelbase * curvature, 1.0);
    carom_vehicle_state state;
    carom_vehicle_get_state(car->vehicle, &state);
    double lock = state.steer_lock > 0.0 ? state.steer_lock : 0.6;
    double steer = clamp(steer_angle / lock, -1.0, 1.0);
    double target = ai->pace * t->line_speed[track_wrap(t, ai->line_index + 3)];
    if (local.x < 0.5 * sqrt(d2)) {
        /* spun round: the aim is beside or behind; turn towards it on full lock, slowly */
        steer = local.y >= 0.0 ? 1.0 : -1.0;
        target = fmin(target, 6.0);
    }

    /* speed from the profile just ahead */
    target = fmin(target, cap);
    double error = target - state.forward_speed;
    double throttle = clamp(0.25 + 0.5 * error, 0.0, 1.0);
    double brake = error < -1.0 ? clamp(-0.25 * error, 0.0, 1.0) : 0.0;
    if (brake > 0.0) {
        throttle = 0.0;
    }
    if (unstick(ai, speed, throttle, car->vehicle, steer)) {
        return;
    }
    /* traction control: ease off while the driven (rear) wheels slide */
    double rear_slip = fmax(fabs(state.wheels[2].slip_angle), fabs(state.wheels[3].slip_angle));
    if (speed > 3.0) {
        throttle *= clamp(1.0 - (rear_slip - 0.08) / 0.15, 0.15, 1.0);
    }
    carom_vehicle_set_input(car->vehicle, throttle, brake, steer, 0);
}
