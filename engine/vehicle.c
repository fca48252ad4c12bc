/* Vehicles: a top-down car model computed once per step, before the solver.
 *
 * Why forces and not a constraint: a tyre is a friction device whose force depends on how fast
 * it slides, and a game wants that curve (grip rising with slip angle, then falling so the car
 * can drift) to be tunable. Computing it once per step from the chassis velocity and handing
 * the solver a force at each wheel keeps the model a few hundred lines, lets contacts with walls
 * and other cars act on the chassis as on any body, and needs nothing from the solver. The
 * price of an explicit force is stiffness: at walking pace a tyre's cornering stiffness would
 * reverse the sliding within one step and the car would shake. Each wheel's force is therefore
 * capped by the force that would just stop that wheel point's sliding within the step, using the
 * chassis' effective mass at the wheel and sharing it among the wheels (so together they can
 * never overshoot); at speed the tyre curve is far below that cap and rules alone.
 *
 * The model (documented in include/carom/vehicle.h, derived in docs/racing.md): static equal
 * wheel loads, a slip-angle curve for lateral grip, a friction circle combining it with the
 * longitudinal drive, brake and rolling forces, Ackermann steering with a lock that shrinks
 * with speed, air drag at the centre of mass, and a surface grip per wheel read from the
 * sensors under it. Everything uses +, -, *, / and sqrt, plus carom's own atan2 and sine and
 * cosine, so the forces have the same bits everywhere. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <string.h>

/* Rolling speed (m/s) below which the slip angle is measured as if the wheel rolled this fast. */
#define SLIP_SPEED_FLOOR 0.5

carom_vehicle_def carom_default_vehicle_def(void) {
    carom_vehicle_def def;
    memset(&def, 0, sizeof(def));
    def.wheel_count = 4;
    const carom_wheel_def front_left = {{1.3, 0.8}, 1, 0, 0};
    const carom_wheel_def front_right = {{1.3, -0.8}, 1, 0, 0};
    const carom_wheel_def rear_left = {{-1.3, 0.8}, 0, 1, 1};
    const carom_wheel_def rear_right = {{-1.3, -0.8}, 0, 1, 1};
    def.wheels[0] = front_left;
    def.wheels[1] = front_right;
    def.wheels[2] = rear_left;
    def.wheels[3] = rear_right;
    def.gravity = 9.81;
    def.grip = 1.0;
    def.peak_slip_angle = 0.12;
    def.slide_grip_ratio = 0.7;
    def.max_drive_force = 5000.0;
    def.max_power = 120000.0;
    def.max_brake_force = 20000.0;
    def.handbrake_force = 8000.0;
    def.handbrake_grip_factor = 0.5;
    def.max_steer_angle = 0.6;
    def.steer_reduction_speed = 20.0;
    def.rolling_resistance = 0.015;
    def.drag_coefficient = 0.45;
    def.surface_filter = carom_default_filter();
    def.user_data = NULL;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

/* ---- Ids ------------------------------------------------------------------------------------ */

static carom_vehicle_id make_vehicle_id(const carom_world* world, const carom_vehicle* vehicle) {
    carom_vehicle_id id = {vehicle->id + 1, vehicle->generation, world->index, world->generation};
    return id;
}

static carom_vehicle* get_vehicle(carom_vehicle_id id, carom_world** world_out) {
    carom_world* world = carom_get_world_from_parts(id.world0, id.world_generation);
    if (world == NULL || id.index1 <= 0 || id.index1 > (int32_t)arrlen(world->vehicles)) {
        return NULL;
    }
    carom_vehicle* vehicle = &world->vehicles[id.index1 - 1];
    if (vehicle->id != id.index1 - 1 || vehicle->generation != id.generation) {
        return NULL;
    }
    if (world_out != NULL) {
        *world_out = world;
    }
    return vehicle;
}

/* Resolve a vehicle id, or NULL with CAROM_ERROR_INVALID_ID recorded. */
static carom_vehicle* get_vehicle_checked(carom_vehicle_id id, carom_world** world_out,
                                          const char* what) {
    carom_vehicle* vehicle = get_vehicle(id, world_out);
    if (vehicle == NULL) {
        carom_fail(CAROM_ERROR_INVALID_ID,
                   "%s: vehicle id %lld is null, destroyed (with its body, or by "
                   "carom_destroy_vehicle), or from a destroyed world",
                   what, (long long)id.index1 - 1); /* not int: index1 may be INT32_MIN */
    }
    return vehicle;
}

int carom_vehicle_is_valid(carom_vehicle_id id) {
    return get_vehicle(id, NULL) != NULL;
}

/* ---- Creation ------------------------------------------------------------------------------- */

static carom_status check_wheels(const carom_vehicle_def* def) {
    if (def->wheel_count < 1 || def->wheel_count > CAROM_VEHICLE_MAX_WHEELS) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "vehicle wheel_count is %d: it must be between 1 and %d",
                          def->wheel_count, CAROM_VEHICLE_MAX_WHEELS);
    }
    for (int i = 0; i < def->wheel_count; ++i) {
        carom_vec2 p = def->wheels[i].position;
        carom_status status = carom_check_finite_vec2(p.x, p.y, "vehicle wheel position");
        if (status != CAROM_OK) {
            return status;
        }
    }
    return CAROM_OK;
}

carom_status carom_check_vehicle_def(const carom_vehicle_def* def) {
    if (def == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "vehicle def is NULL");
    }
    if (def->internal_cookie != CAROM_DEF_COOKIE) {
        return carom_fail(CAROM_ERROR_INVALID_DEF,
                          "vehicle def was not made by carom_default_vehicle_def(): start from it "
                          "and change the fields you need");
    }
    carom_status status = check_wheels(def);
    if (status == CAROM_OK) {
        status = carom_check_positive(def->gravity, "vehicle gravity");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->grip, "vehicle grip");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->peak_slip_angle, "vehicle peak_slip_angle");
    }
    if (status == CAROM_OK) {
        status = carom_check_unit_interval(def->slide_grip_ratio, "vehicle slide_grip_ratio");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->max_drive_force, "vehicle max_drive_force");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->max_power, "vehicle max_power");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->max_brake_force, "vehicle max_brake_force");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->handbrake_force, "vehicle handbrake_force");
    }
    if (status == CAROM_OK) {
        status =
            carom_check_unit_interval(def->handbrake_grip_factor, "vehicle handbrake_grip_factor");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->max_steer_angle, "vehicle max_steer_angle");
    }
    if (status == CAROM_OK && def->max_steer_angle > 1.4) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "vehicle max_steer_angle is %g rad: it must be at most 1.4 (80 "
                            "degrees)",
                            def->max_steer_angle);
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->steer_reduction_speed, "vehicle steer_reduction_speed");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->rolling_resistance, "vehicle rolling_resistance");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->drag_coefficient, "vehicle drag_coefficient");
    }
    return status;
}

/* Wheel counts and the steering geometry: the rear axle is the mean x of the unsteered wheels,
 * the wheelbase reaches from there to the mean x of the steered ones. */
void carom_vehicle_prepare_geometry(carom_vehicle* vehicle) {
    const carom_vehicle_def* def = &vehicle->def;
    double steered_x = 0.0, rear_x = 0.0;
    int rear_count = 0;
    for (int i = 0; i < def->wheel_count; ++i) {
        const carom_wheel_def* wheel = &def->wheels[i];
        vehicle->driven_count += wheel->driven != 0;
        vehicle->handbrake_count += wheel->handbrake != 0;
        if (wheel->steered) {
            vehicle->steered_count += 1;
            steered_x += wheel->position.x;
        } else {
            rear_count += 1;
            rear_x += wheel->position.x;
        }
        vehicle->wheel_directions[i] = carom_v2(1.0, 0.0);
        vehicle->surface_grips[i] = 1.0;
    }
    vehicle->rear_axle_x = rear_count > 0 ? rear_x / rear_count : 0.0;
    vehicle->wheelbase = vehicle->steered_count > 0
                             ? steered_x / vehicle->steered_count - vehicle->rear_axle_x
                             : 0.0;
}

carom_vehicle_id carom_create_vehicle(carom_body_id body_id, const carom_vehicle_def* def) {
    carom_world* world = NULL;
    carom_body* body = carom_get_body_checked(body_id, &world, "create vehicle");
    if (body == NULL || carom_check_unlocked(world, "create a vehicle") != CAROM_OK ||
        carom_check_vehicle_def(def) != CAROM_OK) {
        return carom_null_vehicle_id;
    }
    if (body->type != CAROM_BODY_DYNAMIC) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                   "body %d is not dynamic: a vehicle needs a dynamic chassis with mass", body->id);
        return carom_null_vehicle_id;
    }
    for (int i = 0; i < (int)arrlen(world->vehicles); ++i) {
        if (world->vehicles[i].id >= 0 && world->vehicles[i].body == body->id) {
            carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                       "body %d already carries vehicle %d: destroy that one first", body->id, i);
            return carom_null_vehicle_id;
        }
    }
    world->scene_revision += 1;
    int id = carom_id_pool_alloc(&world->vehicle_pool);
    if (id == (int)arrlen(world->vehicles)) {
        carom_vehicle blank;
        memset(&blank, 0, sizeof(blank));
        arrput(world->vehicles, blank);
    }
    carom_vehicle* vehicle = &world->vehicles[id];
    uint32_t generation = vehicle->generation;
    memset(vehicle, 0, sizeof(*vehicle));
    vehicle->id = id;
    vehicle->generation = generation;
    vehicle->body = body->id;
    vehicle->body_generation = body->generation;
    vehicle->def = *def;
    carom_vehicle_prepare_geometry(vehicle);
    return make_vehicle_id(world, vehicle);
}

static void free_vehicle(carom_world* world, carom_vehicle* vehicle) {
    world->scene_revision += 1;
    carom_id_pool_free(&world->vehicle_pool, vehicle->id);
    vehicle->id = -1;
    vehicle->generation += 1;
}

carom_status carom_destroy_vehicle(carom_vehicle_id id) {
    carom_world* world = NULL;
    carom_vehicle* vehicle = get_vehicle_checked(id, &world, "destroy vehicle");
    if (vehicle == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "destroy a vehicle");
    if (status == CAROM_OK) {
        free_vehicle(world, vehicle);
    }
    return status;
}

void carom_vehicles_on_body_destroyed(carom_world* world, int body) {
    for (int i = 0; i < (int)arrlen(world->vehicles); ++i) {
        if (world->vehicles[i].id >= 0 && world->vehicles[i].body == body) {
            free_vehicle(world, &world->vehicles[i]);
        }
    }
}

void carom_vehicles_destroy(carom_world* world) {
    arrfree(world->vehicles);
    carom_id_pool_destroy(&world->vehicle_pool);
}

/* ---- Inputs and state ----------------------------------------------------------------------- */

carom_body_id carom_vehicle_get_body(carom_vehicle_id id) {
    carom_world* world = NULL;
    carom_vehicle* vehicle = get_vehicle_checked(id, &world, "carom_vehicle_get_body");
    if (vehicle == NULL) {
        return carom_null_body_id;
    }
    return carom_make_body_id(world, &world->bodies[vehicle->body]);
}

void* carom_vehicle_get_user_data(carom_vehicle_id id) {
    carom_vehicle* vehicle = get_vehicle_checked(id, NULL, "carom_vehicle_get_user_data");
    return vehicle != NULL ? vehicle->def.user_data : NULL;
}

static carom_status check_signed_unit(double value, const char* what) {
    carom_status status = carom_check_finite(value, what);
    if (status == CAROM_OK && (value < -1.0 || value > 1.0)) {
        status =
            carom_fail(CAROM_ERROR_OUT_OF_RANGE, "%s is %g: it must be in [-1, 1]", what, value);
    }
    return status;
}

carom_status carom_vehicle_set_input(carom_vehicle_id id, double throttle, double brake,
                                     double steer, int handbrake) {
    carom_world* world = NULL;
    carom_vehicle* vehicle = get_vehicle_checked(id, &world, "set vehicle input");
    if (vehicle == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set a vehicle's input");
    if (status == CAROM_OK) {
        status = check_signed_unit(throttle, "vehicle throttle");
    }
    if (status == CAROM_OK) {
        status = carom_check_unit_interval(brake, "vehicle brake");
    }
    if (status == CAROM_OK) {
        status = check_signed_unit(steer, "vehicle steer");
    }
    if (status == CAROM_OK && handbrake != 0 && handbrake != 1) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE, "vehicle handbrake is %d: it must be 0 or 1",
                            handbrake);
    }
    if (status != CAROM_OK) {
        return status;
    }
    vehicle->input.throttle = throttle;
    vehicle->input.brake = brake;
    vehicle->input.steer = steer;
    vehicle->input.handbrake = handbrake;
    if (throttle != 0.0) {
        carom_wake_body(world, &world->bodies[vehicle->body]);
    }
    return CAROM_OK;
}

carom_vehicle_input carom_vehicle_get_input(carom_vehicle_id id) {
    carom_vehicle_input none = {0.0, 0.0, 0.0, 0};
    carom_vehicle* vehicle = get_vehicle_checked(id, NULL, "carom_vehicle_get_input");
    return vehicle != NULL ? vehicle->input : none;
}

carom_status carom_vehicle_get_state(carom_vehicle_id id, carom_vehicle_state* out) {
    carom_world* world = NULL;
    carom_vehicle* vehicle = get_vehicle_checked(id, &world, "get vehicle state");
    if (vehicle == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    if (out == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "vehicle state output pointer is NULL");
    }
    const carom_body* body = &world->bodies[vehicle->body];
    carom_vec2 local_velocity = carom_inv_rotate(body->transform.q, body->linear_velocity);
    memset(out, 0, sizeof(*out));
    out->forward_speed = local_velocity.x;
    out->lateral_speed = local_velocity.y;
    out->yaw_rate = body->angular_velocity;
    out->steer_lock = vehicle->steer_lock;
    out->steer_angle = vehicle->steer_angle;
    out->wheel_count = vehicle->def.wheel_count;
    for (int i = 0; i < vehicle->def.wheel_count; ++i) {
        carom_wheel_state* wheel = &out->wheels[i];
        wheel->position = carom_transform_point(body->transform, vehicle->def.wheels[i].position);
        wheel->direction = carom_rotate(body->transform.q, vehicle->wheel_directions[i]);
        wheel->slip_angle = vehicle->slip_angles[i];
        wheel->surface_grip = vehicle->surface_grips[i];
        wheel->longitudinal_force = vehicle->longitudinal_forces[i];
        wheel->lateral_force = vehicle->lateral_forces[i];
        wheel->sliding = vehicle->sliding[i];
    }
    return CAROM_OK;
}

/* ---- The stage ------------------------------------------------------------------------------ */

/* The lowest surface grip of the sensors (not on the chassis itself) containing the point, or
 * 1 where there is none. */
static double surface_grip_at(carom_world* world, const carom_vehicle* vehicle, carom_vec2 point) {
    carom_aabb box = {point, point};
    carom_broad_phase_query(&world->broad_phase, box, &world->query_shapes);
    double grip = 1.0;
    bool found = false;
    for (int i = 0; i < (int)arrlen(world->query_shapes); ++i) {
        const carom_shape* shape = &world->shapes[world->query_shapes[i]];
        if (!shape->is_sensor || shape->body == vehicle->body ||
            !carom_filters_collide(vehicle->def.surface_filter, shape->filter) ||
            !carom_shape_contains_point(world, shape, point)) {
            continue;
        }
        if (!found || shape->surface_grip < grip) {
            grip = shape->surface_grip;
        }
        found = true;
    }
    return grip;
}

/* Lateral grip as a fraction of the peak, over x = |slip angle| / peak slip angle. */
static double slip_curve(double x, double slide_ratio) {
    if (x <= 1.0) {
        return x * (2.0 - x);
    }
    double past = x - 1.0;
    return slide_ratio + (1.0 - slide_ratio) / (1.0 + past * past);
}

/* The direction a wheel rolls along, body frame, for the reference steer angle (c, s): steered
 * wheels by Ackermann geometry about a point on the rear axle line, parallel when the wheelbase
 * is too short for it. */
static carom_vec2 wheel_direction(const carom_vehicle* vehicle, const carom_wheel_def* wheel,
                                  carom_rot steer) {
    if (!wheel->steered || steer.s == 0.0) {
        return carom_v2(1.0, 0.0);
    }
    double base = vehicle->wheelbase;
    if (fabs(base) < CAROM_POLYGON_WELD_TOLERANCE) {
        return carom_v2(steer.c, steer.s);
    }
    /* Perpendicular to the line from the turn centre (rear_axle_x, base c / s) to the wheel,
     * multiplied through by s so that straight ahead needs no division. */
    carom_vec2 d = {base * steer.c - wheel->position.y * steer.s,
                    (wheel->position.x - vehicle->rear_axle_x) * steer.s};
    if (base < 0.0) {
        d = carom_neg(d);
    }
    if (d.x < 0.0) {
        d.x = 0.0; /* never turned past sideways */
    }
    double length = carom_length(d);
    return length > 0.0 ? carom_scale(1.0 / length, d) : carom_v2(1.0, 0.0);
}

typedef struct vehicle_frame {
    carom_body* body;
    double dt;
    double load;          /* per wheel (N) */
    double forward_speed; /* of the centre of mass along the body x axis (m/s) */
    double drive_per_wheel;
    carom_rot steer;
} vehicle_frame;

/* The force at one wheel, in its own frame (x: rolling direction, y: left). */
static carom_vec2 wheel_force(carom_world* world, carom_vehicle* vehicle, const vehicle_frame* f,
                              int i, carom_vec2 r, carom_vec2 forward) {
    const carom_vehicle_def* def = &vehicle->def;
    const carom_wheel_def* wheel = &def->wheels[i];
    const carom_body* body = f->body;
    bool handbraked = vehicle->input.handbrake && wheel->handbrake;
    carom_vec2 left = carom_left_perp(forward);
    carom_vec2 velocity =
        carom_add(body->linear_velocity, carom_cross_sv(body->angular_velocity, r));
    double v_long = carom_dot(velocity, forward);
    double v_lat = carom_dot(velocity, left);
    double surface = surface_grip_at(world, vehicle, carom_add(body->center, r));
    double limit = def->grip * surface * (handbraked ? def->handbrake_grip_factor : 1.0) * f->load;
    double share = 1.0 / (f->dt * def->wheel_count);

    /* lateral: the slip curve, capped by what stops the sliding this step. The slip angle is
     * undefined at rest; a floor on the rolling speed keeps it quiet there. */
    double slip = carom_atan2(v_lat, carom_max_d(fabs(v_long), SLIP_SPEED_FLOOR));
    double lateral = limit * slip_curve(fabs(slip) / def->peak_slip_angle, def->slide_grip_ratio);
    double cross_lat = carom_cross(r, left);
    double lateral_mass = 1.0 / (body->inv_mass + body->inv_inertia * cross_lat * cross_lat);
    lateral = carom_min_d(lateral, lateral_mass * fabs(v_lat) * share);
    lateral = v_lat > 0.0 ? -lateral : lateral;

    /* longitudinal: drive, then brakes and rolling resistance, which only slow the wheel */
    double drive = wheel->driven ? vehicle->input.throttle * f->drive_per_wheel : 0.0;
    double resist = vehicle->input.brake * def->max_brake_force / def->wheel_count +
                    def->rolling_resistance * f->load;
    if (handbraked) {
        resist += def->handbrake_force / vehicle->handbrake_count;
    }
    double cross_long = carom_cross(r, forward);
    double long_mass = 1.0 / (body->inv_mass + body->inv_inertia * cross_long * cross_long);
    resist = carom_min_d(resist, long_mass * fabs(v_long) * share);
    double longitudinal = drive + (v_long > 0.0 ? -resist : resist);

    /* the friction circle */
    double total = sqrt(longitudinal * longitudinal + lateral * lateral);
    bool saturated = total > limit;
    if (saturated) {
        double scale = limit / total;
        longitudinal *= scale;
        lateral *= scale;
    }
    vehicle->slip_angles[i] = slip;
    vehicle->surface_grips[i] = surface;
    vehicle->longitudinal_forces[i] = longitudinal;
    vehicle->lateral_forces[i] = lateral;
    vehicle->sliding[i] = saturated || fabs(slip) > def->peak_slip_angle;
    return carom_v2(longitudinal, lateral);
}

static void step_vehicle(carom_world* world, carom_vehicle* vehicle, double dt) {
    carom_body* body = &world->bodies[vehicle->body];
    CAROM_ASSERT(body->id == vehicle->body && body->generation == vehicle->body_generation);
    if (body->asleep || body->disabled || body->inv_mass == 0.0) {
        return;
    }
    if (vehicle->input.throttle != 0.0) {
        body->sleep_time = 0.0; /* a driver with a foot on the pedal is not resting */
    }
    const carom_vehicle_def* def = &vehicle->def;
    carom_rot q = body->transform.q;
    vehicle_frame f;
    f.body = body;
    f.dt = dt;
    f.load = body->mass * def->gravity / def->wheel_count;
    f.forward_speed = carom_dot(body->linear_velocity, carom_rotate(q, carom_v2(1.0, 0.0)));
    double speed = fabs(f.forward_speed);
    double drive = def->max_drive_force;
    if (def->max_power < drive * speed) {
        drive = def->max_power / speed;
    }
    f.drive_per_wheel = vehicle->driven_count > 0 ? drive / vehicle->driven_count : 0.0;
    vehicle->steer_lock = def->max_steer_angle / (1.0 + speed / def->steer_reduction_speed);
    vehicle->steer_angle = vehicle->input.steer * vehicle->steer_lock;
    f.steer = carom_make_rot(vehicle->steer_angle);

    for (int i = 0; i < def->wheel_count; ++i) {
        const carom_wheel_def* wheel = &def->wheels[i];
        carom_vec2 direction = wheel_direction(vehicle, wheel, f.steer);
        vehicle->wheel_directions[i] = direction;
        carom_vec2 r = carom_rotate(q, carom_sub(wheel->position, body->local_center));
        carom_vec2 forward = carom_rotate(q, direction);
        carom_vec2 local = wheel_force(world, vehicle, &f, i, r, forward);
        carom_vec2 force = carom_add(carom_scale(local.x, forward),
                                     carom_scale(local.y, carom_left_perp(forward)));
        body->force = carom_add(body->force, force);
        body->torque += carom_cross(r, force);
    }

    /* air drag at the centre of mass, never more than stops the body this step */
    double v = carom_length(body->linear_velocity);
    double drag = carom_min_d(def->drag_coefficient * v * v, body->mass * v / dt);
    if (v > 0.0) {
        body->force = carom_mul_sub(body->force, drag / v, body->linear_velocity);
    }
}

void carom_vehicles_step(carom_world* world, double dt) {
    for (int i = 0; i < (int)arrlen(world->vehicles); ++i) {
        if (world->vehicles[i].id >= 0) {
            step_vehicle(world, &world->vehicles[i], dt);
        }
    }
}
