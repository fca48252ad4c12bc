/* carom: top-down vehicles: a car model that runs inside the world step.
 *
 * A vehicle turns a dynamic body (the chassis) into a car seen from above. The world is then
 * normally made with gravity (0, 0): the plane is the ground, and the weight that presses the
 * tyres onto it is the vehicle def's own `gravity`. Each step, before the solver, carom computes
 * every wheel's tyre force from the chassis velocity and the driver's inputs, and applies it as
 * a force at the wheel's contact point, so it acts through all the solver's substeps and the
 * car collides, bounces and spins like any other body. Vehicles are processed in id order and
 * use only carom's own trigonometry, so a car gives the same bits on every run.
 *
 * Frames and signs: the chassis drives along its body +x axis; body +y is its left. A positive
 * steer turns left (counter-clockwise), like every angle in carom. Units are SI (m, kg, s, rad,
 * N, W).
 *
 * The model, per wheel i with load N = mass * gravity / wheel_count (no load transfer):
 * - grip mu_i = grip * surface_grip under the wheel * (handbrake_grip_factor when the handbrake
 *   is on and the wheel is a handbrake wheel, else 1). surface_grip is the lowest
 *   carom_shape_def.surface_grip of the sensors under the wheel that the surface filter sees,
 *   or 1 (tarmac) where there is none.
 * - slip angle alpha = atan2(v_lateral, max(|v_longitudinal|, 0.5 m/s)) of the wheel point's
 *   velocity in the wheel's frame (the floor keeps it defined at rest). Lateral force
 *   -sign(alpha) * mu_i * N * f(|alpha| / peak_slip_angle) with the slip curve
 *   f(x) = x (2 - x) for x <= 1 (rising, cornering stiffness 2 mu N / peak_slip_angle per
 *   radian at zero slip, peak 1 at x = 1) and f(x) = r + (1 - r) / (1 + (x - 1)^2) beyond
 *   (falling towards r = slide_grip_ratio, so a car pushed past the peak slides: it drifts).
 * - longitudinal force: throttle * min(max_drive_force, max_power / |forward speed|) shared by
 *   the driven wheels, minus brake * max_brake_force shared by all wheels, handbrake_force
 *   shared by the handbrake wheels and rolling_resistance * N, against the wheel's rolling
 *   direction. Braking forces only slow a wheel, never reverse it.
 * - the friction circle: when the wheel's force exceeds mu_i * N, both parts are scaled down to
 *   it. Brakes are therefore friction-limited (the car stops like one with ABS, in about
 *   v^2 / (2 grip gravity)).
 * - within one step no tyre force is larger than the force that would stop the wheel point's
 *   sliding in that step (shared among the wheels), so slow cars do not jitter.
 * - the steering lock shrinks with speed: lock = max_steer_angle / (1 + |forward speed| /
 *   steer_reduction_speed); the reference steer angle is steer * lock, the angle of an imaginary
 *   wheel on the centre line of the steered axle. Each steered wheel is turned by Ackermann
 *   geometry so that all wheels roll about one point on the line of the unsteered (rear)
 *   wheels: at low speed the car turns on a circle of radius wheelbase / tan(angle) about the
 *   middle of the rear axle.
 * - air drag -drag_coefficient * |v| v at the centre of mass.
 * Top speed, from max_power = v (drag_coefficient v^2 + rolling_resistance mass gravity) when the
 * power limit applies: with the defaults and a 1200 kg chassis, 62.3 m/s. docs/racing.md derives
 * the figures and gives the measured ones.
 *
 * State: a vehicle's only state of its own is its input, which stays in force until changed;
 * everything else is computed from the chassis body each step. Saving the bodies and the inputs
 * therefore saves the cars. */
#ifndef CAROM_VEHICLE_H
#define CAROM_VEHICLE_H

#include "base.h"
#include "id.h"
#include "math.h"
#include "types.h"

/* The most wheels a vehicle may have. */
#define CAROM_VEHICLE_MAX_WHEELS 8

/* One wheel. */
typedef struct carom_wheel_def {
    carom_vec2 position; /* tyre contact point in the body frame (m) */
    int steered;         /* non-zero: turned by the steering */
    int driven;          /* non-zero: pushed by the throttle */
    int handbrake;       /* non-zero: braked by the handbrake, which also lowers its grip */
} carom_wheel_def;

typedef struct carom_vehicle_def {
    int wheel_count; /* 1..CAROM_VEHICLE_MAX_WHEELS, default 4 */
    /* Default: a car 4.4 m long and 1.8 m wide on a body centred on its origin: front wheels
     * (1.3, +-0.8) steered; rear wheels (-1.3, +-0.8) driven and on the handbrake. */
    carom_wheel_def wheels[CAROM_VEHICLE_MAX_WHEELS];
    double gravity;          /* vertical gravity that loads the tyres (m/s², > 0), default 9.81 */
    double grip;             /* peak tyre friction coefficient on tarmac (>= 0), default 1 */
    double peak_slip_angle;  /* slip angle of the peak lateral grip (rad, > 0), default 0.12 */
    double slide_grip_ratio; /* lateral grip when sliding far past the peak, as a fraction of
                                the peak (0..1), default 0.7 */
    double max_drive_force;  /* total push of the driven wheels at full throttle (N, >= 0),
                                default 5000 */
    double max_power;        /* the push is also at most max_power / forward speed (W, > 0),
                                default 120000 */
    double max_brake_force;  /* total brake force over all wheels at full brake (N, >= 0),
                                default 20000: more than the tyres hold, so braking is
                                friction-limited */
    double handbrake_force;  /* total brake force of the handbrake wheels (N, >= 0), default
                                8000 */
    double handbrake_grip_factor; /* grip multiplier of handbrake wheels while the handbrake is
                                     on (0..1), default 0.5 */
    double max_steer_angle;       /* steering lock at standstill (rad, in [0, 1.4]), default
                                     0.6 */
    double steer_reduction_speed; /* forward speed at which the lock has halved (m/s, > 0),
                                     default 20 */
    double rolling_resistance;    /* rolling resistance force per newton of load (>= 0), default
                                     0.015 */
    double drag_coefficient; /* air drag force per squared speed (N s²/m² = kg/m, >= 0): half
                                the air density times drag coefficient times frontal area,
                                default 0.45 */
    carom_filter surface_filter; /* the sensors whose surface_grip the wheels read: those this
                                    filter may collide with; default carom_default_filter() */
    void* user_data;             /* yours, default NULL */
    int internal_cookie;         /* set by carom_default_vehicle_def(); do not touch */
} carom_vehicle_def;

/* The driver's controls; they stay in force until set again. */
typedef struct carom_vehicle_input {
    double throttle; /* -1..1: positive drives forwards, negative backwards (reverse) */
    double brake;    /* 0..1 */
    double steer;    /* -1..1 of the current lock; positive turns left */
    int handbrake;   /* 0 or 1 */
} carom_vehicle_input;

/* One wheel as the vehicle stage saw it. */
typedef struct carom_wheel_state {
    carom_vec2 position;   /* contact point, world frame (m), at the body's current pose */
    carom_vec2 direction;  /* unit vector the wheel rolls along, world frame, current pose and
                              last step's steering */
    double slip_angle;     /* rad, in [-pi/2, pi/2]; positive when the wheel slides to its left
                              (then its lateral force points right) */
    double surface_grip;   /* multiplier read under the wheel (1 where no sensor) */
    double longitudinal_force; /* along direction (N) */
    double lateral_force;      /* along the direction's left normal (N) */
    int sliding; /* 1 when the wheel is past its peak slip angle or at its friction limit */
} carom_wheel_state;

typedef struct carom_vehicle_state {
    double forward_speed; /* velocity of the centre of mass along the body +x axis (m/s) */
    double lateral_speed; /* ...along the body +y axis (m/s) */
    double yaw_rate;      /* angular velocity (rad/s) */
    double steer_lock;    /* the lock at the forward speed of the last step (rad) */
    double steer_angle;   /* the reference steer angle of the last step: steer * lock (rad) */
    int wheel_count;
    carom_wheel_state wheels[CAROM_VEHICLE_MAX_WHEELS];
} carom_vehicle_state;

#ifdef __cplusplus
extern "C" {
#endif

CAROM_API carom_vehicle_def carom_default_vehicle_def(void);

/* Make the dynamic body `body` a vehicle. A body carries at most one vehicle. Refused during a
 * step, for a body that is not dynamic (CAROM_ERROR_OUT_OF_RANGE), or for a bad def. The def is
 * copied. The vehicle is destroyed with its body. */
CAROM_API carom_vehicle_id carom_create_vehicle(carom_body_id body, const carom_vehicle_def* def);
/* Remove the vehicle; the body stays, as a plain body. */
CAROM_API carom_status carom_destroy_vehicle(carom_vehicle_id vehicle);
/* 1 while the vehicle exists (its body has not been destroyed). */
CAROM_API int carom_vehicle_is_valid(carom_vehicle_id vehicle);
CAROM_API carom_body_id carom_vehicle_get_body(carom_vehicle_id vehicle);
CAROM_API void* carom_vehicle_get_user_data(carom_vehicle_id vehicle);

/* Set the controls for the next steps: throttle in [-1, 1], brake in [0, 1], steer in [-1, 1],
 * handbrake 0 or 1. A non-zero throttle wakes the body and keeps it from sleeping, even while it
 * pushes against a wall without moving. */
CAROM_API carom_status carom_vehicle_set_input(carom_vehicle_id vehicle, double throttle,
                                               double brake, double steer, int handbrake);
/* The controls in force; all zero for an invalid id. */
CAROM_API carom_vehicle_input carom_vehicle_get_input(carom_vehicle_id vehicle);
/* Speeds from the body now; steering, slip angles, grips and forces from the last step (zero
 * before the first step). */
CAROM_API carom_status carom_vehicle_get_state(carom_vehicle_id vehicle, carom_vehicle_state* out);

#ifdef __cplusplus
}
#endif

#endif
