/* The racing demo's race: eight cars and a truck towing a trailer on the track, lap counting
 * from checkpoint sensor events, AI drivers, sparks from hit events, skid marks, a barrier gate
 * at the pit entrance, and the state hash. No rendering here. */
#ifndef RACING_RACE_H
#define RACING_RACE_H

#include "track.h"

#include <carom/carom.h>

#include <stdint.h>
#include <stdio.h>

/* The racers: eight cars, then the truck (the last), which tows a trailer on a revolute hitch. */
#define RACE_CARS 9
#define RACE_TRUCK (RACE_CARS - 1)
#define RACE_HUMAN_CAR 7 /* the white car, driven from the keyboard in the window */
#define RACE_MAX_LAPS 64
#define RACE_MAX_SPARKS 1024
#define RACE_MAX_SKIDS 24000
#define RACE_DT (1.0 / 60.0)

typedef struct race_ai {
    int line_index;     /* nearest racing-line sample */
    double pace;        /* fraction of the speed profile this driver dares (0..1] */
    double offset;      /* current sideways shift of its aim from the racing line (m) */
    int stuck_steps;    /* steps spent trying to move without moving */
    int reverse_steps;  /* steps of reversing left, to get unstuck */
    double reverse_steer;
    /* what it saw last step, for drawing */
    carom_vec2 ray_from[3], ray_to[3];
    int ray_hit[3];
    carom_vec2 aim;
} race_ai;

typedef struct race_car {
    carom_vehicle_id vehicle;
    carom_body_id body;
    carom_shape_id shape;
    /* Its geometry in the body frame, for the AI (m): the rear axle's x, the wheelbase, and the
     * x of the front bumper (where the rays start) */
    double rear_axle, wheelbase, nose;
    double half_length;
    const char* name;
    uint32_t color;
    int human;              /* driven from the keyboard */
    race_ai ai;
    /* laps */
    int next_checkpoint;    /* the checkpoint to pass next, 0 = the line */
    int lap_start_step;     /* step the current lap began, -1 before the first crossing */
    int lap_count;
    int lap_steps[RACE_MAX_LAPS]; /* each finished lap's length in steps */
    int best_lap_steps;
    int hits;               /* hit events above the crash threshold */
    /* skid marks: the last position of each wheel, valid while it slid last step */
    carom_vec2 last_wheel[CAROM_VEHICLE_MAX_WHEELS];
    int wheel_was_sliding[CAROM_VEHICLE_MAX_WHEELS];
} race_car;

typedef struct race_spark {
    carom_vec2 position, velocity;
    double life; /* s left */
} race_spark;

typedef struct race_skid {
    carom_vec2 a, b;
} race_skid;

/* The truck's trailer: a body with an axle of two unsteered, undriven wheels (a carom vehicle
 * with no throttle, so its tyres hold it sideways), joined to the truck by a revolute hitch. */
typedef struct race_trailer {
    carom_body_id body;
    carom_shape_id shape;
    carom_vehicle_id axle;
    carom_joint_id hitch;
} race_trailer;

/* The barrier gate at the pit entrance: an arm hinged at the outer wall, across the verge and a
 * little into the road. A revolute joint with limits lets a car push it open either way, and
 * its spring swings it back to closed (angle 0). */
#define RACE_GATE_OPEN_LIMIT 1.4 /* rad either way: pushed open, the arm folds along the road */

typedef struct race_gate {
    carom_body_id arm;
    carom_shape_id shape;
    carom_joint_id hinge;
    carom_vec2 hinge_point; /* world frame (m) */
    carom_vec2 closed_dir;  /* unit: from the hinge along the closed arm, into the track */
    double length;          /* of the arm (m) */
} race_gate;

typedef struct race {
    carom_world_id world;
    track track;
    race_car cars[RACE_CARS];
    race_trailer trailer;
    race_gate gate;
    int step;
    race_spark sparks[RACE_MAX_SPARKS];
    int spark_next;
    uint64_t spark_random;
    race_skid skids[RACE_MAX_SKIDS];
    int skid_count; /* total ever added; the array is a ring */
} race;

/* Build the world, the track and the eight cars on the grid. human: index of the car the
 * keyboard drives, or -1 for none. Returns 0 on success. */
int race_create(race* r, int human);
void race_destroy(race* r);

/* Input for the human car, used by the next race_step. */
void race_set_human_input(race* r, double throttle, double brake, double steer, int handbrake);

/* The AI drives, the world steps, laps, sparks and skid marks are updated. */
int race_step(race* r);

/* carom_bodies_hash over the ground, the racers, the trailer and the gate's arm: equal hashes,
 * equal states. */
uint64_t race_hash(const race* r);

/* The racers' indices in lap-table order: most laps first, then the earlier start of the
 * current lap, then the grid. */
void race_standings(const race* r, int order[RACE_CARS]);

/* Print the lap table (and the hash) to a stream. */
void race_print_table(const race* r, FILE* out);

/* Seconds of the given number of steps. */
static inline double race_seconds(int steps) { return steps * RACE_DT; }

#endif
