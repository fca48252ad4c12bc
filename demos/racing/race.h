/* The racing demo's race: eight cars on the track, lap counting from checkpoint sensor events,
 * AI drivers, sparks from hit events, skid marks, and the state hash. No rendering here. */
#ifndef RACING_RACE_H
#define RACING_RACE_H

#include "track.h"

#include <carom/carom.h>

#include <stdint.h>
#include <stdio.h>

#define RACE_CARS 8
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

typedef struct race {
    carom_world_id world;
    track track;
    race_car cars[RACE_CARS];
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

/* carom_bodies_hash over the ground and the cars: equal hashes, equal states. */
uint64_t race_hash(const race* r);

/* Print the lap table (and the hash) to a stream. */
void race_print_table(const race* r, FILE* out);

/* Seconds of the given number of steps. */
static inline double race_seconds(int steps) { return steps * RACE_DT; }

#endif
