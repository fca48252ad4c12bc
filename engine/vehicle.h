/* Vehicles: the top-down car model (include/carom/vehicle.h), one stage of the step. */
#ifndef CAROM_VEHICLE_INTERNAL_H
#define CAROM_VEHICLE_INTERNAL_H

#include "carom/carom.h"

typedef struct carom_world carom_world;

typedef struct carom_vehicle {
    int id; /* own index, or -1 when the slot is free */
    uint32_t generation;
    int body;                /* chassis body index */
    uint32_t body_generation; /* for asserts: the body slot the vehicle was made on */
    carom_vehicle_def def;   /* validated copy */
    carom_vehicle_input input;
    int driven_count, handbrake_count, steered_count;
    double rear_axle_x; /* mean body-frame x of the unsteered wheels (0 if none) */
    double wheelbase;   /* mean x of the steered wheels minus rear_axle_x (m) */
    /* what the last step computed */
    double steer_lock, steer_angle;
    carom_vec2 wheel_directions[CAROM_VEHICLE_MAX_WHEELS]; /* body frame */
    double slip_angles[CAROM_VEHICLE_MAX_WHEELS];
    double surface_grips[CAROM_VEHICLE_MAX_WHEELS];
    double longitudinal_forces[CAROM_VEHICLE_MAX_WHEELS];
    double lateral_forces[CAROM_VEHICLE_MAX_WHEELS];
    int sliding[CAROM_VEHICLE_MAX_WHEELS];
} carom_vehicle;

/* The checks carom_create_vehicle makes of a def (status and message recorded on failure). */
carom_status carom_check_vehicle_def(const carom_vehicle_def* def);
/* Derive the wheel counts, axle positions and the computed per-wheel state from the def. */
void carom_vehicle_prepare_geometry(carom_vehicle* vehicle);
/* The vehicle stage: tyre, drive, brake and drag forces of every vehicle on an awake chassis,
 * in id order, added to the bodies' force and torque accumulators for the solver. Needs the
 * broad phase placed (after its pair update), since wheels look up the surface under them. */
void carom_vehicles_step(carom_world* world, double dt);
/* The body at index `body` is being destroyed: destroy its vehicle, if any. */
void carom_vehicles_on_body_destroyed(carom_world* world, int body);
void carom_vehicles_destroy(carom_world* world);

#endif
