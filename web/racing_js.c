/* The racing demo (demos/racing) for the browser: build-web/racing.mjs, which the racing page
 * (web/pages/racing.js) drives. The race itself is demos/racing/race.c, ai.c and track.c,
 * unchanged, so a race run here has the bits of the native `racing --headless` (same hash).
 *
 * JavaScript cannot read C structs, so each reader below copies what the page needs into a flat
 * buffer of doubles (or ints) owned by this file and returns its address; the page views it
 * through the module's HEAPF64 / HEAP32. The layouts are given with each function and mirrored
 * in racing.js. A buffer stays valid until the next call of the same function. */
#include "race.h"

#include <emscripten.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The racers, then the trailer and the gate's arm: every moving box the page draws. */
#define RACING_BODIES (RACE_CARS + 2)
#define BODY_FIELDS 8
#define CAR_FIELDS 8
#define TRACK_HEADER 32
#define TRACK_SAMPLE_FIELDS 9

static double body_buffer[RACING_BODIES * BODY_FIELDS];
static int car_buffer[RACE_CARS * CAR_FIELDS];
#define RAY_FIELDS 5
static double ray_buffer[RACE_CARS * 3 * RAY_FIELDS];
static double track_buffer[TRACK_HEADER + TRACK_MAX_SAMPLES * TRACK_SAMPLE_FIELDS];
static char hash_text[17];

/* A new race; human: the car the keyboard drives (0..8), or -1 for an all-AI race (the native
 * `racing --headless`). Returns NULL when the race could not be built (carom_last_error). */
EMSCRIPTEN_KEEPALIVE race* racing_create(int human) {
    race* r = malloc(sizeof(race));
    if (r == NULL) {
        return NULL;
    }
    if (race_create(r, human) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

EMSCRIPTEN_KEEPALIVE void racing_destroy(race* r) {
    race_destroy(r);
    free(r);
}

/* The human car's controls for the coming steps: throttle in [-1, 1] (negative reverses),
 * brake in [0, 1], steer in [-1, 1] (positive turns left), handbrake 0 or 1. */
EMSCRIPTEN_KEEPALIVE void racing_set_input(race* r, double throttle, double brake, double steer,
                                           int handbrake) {
    race_set_human_input(r, throttle, brake, steer, handbrake);
}

/* n steps of RACE_DT. Returns 0, or -1 when a step failed (racing_error tells why). */
EMSCRIPTEN_KEEPALIVE int racing_step(race* r, int n) {
    for (int i = 0; i < n; ++i) {
        if (race_step(r) != 0) {
            return -1;
        }
    }
    return 0;
}

EMSCRIPTEN_KEEPALIVE int racing_step_count(const race* r) { return r->step; }

EMSCRIPTEN_KEEPALIVE double racing_dt(void) { return RACE_DT; }

EMSCRIPTEN_KEEPALIVE int racing_car_count(void) { return RACE_CARS; }

EMSCRIPTEN_KEEPALIVE int racing_human_car(void) { return RACE_HUMAN_CAR; }

EMSCRIPTEN_KEEPALIVE const char* racing_error(void) { return carom_last_error(); }

/* race_hash as 16 lowercase hex digits, as the native demo prints it ("state hash: ..."). */
EMSCRIPTEN_KEEPALIVE const char* racing_hash(const race* r) {
    uint64_t h = race_hash(r);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; ++i) {
        hash_text[i] = digits[(h >> (60 - 4 * i)) & 0xf];
    }
    hash_text[16] = '\0';
    return hash_text;
}

EMSCRIPTEN_KEEPALIVE const char* racing_car_name(const race* r, int i) {
    return i >= 0 && i < RACE_CARS ? r->cars[i].name : "";
}

/* A box's half extents from its shape (every box here is centred on its body, unrotated). */
static carom_vec2 half_extents(carom_shape_id shape) {
    carom_polygon box;
    if (carom_shape_get_polygon(shape, &box) != CAROM_OK) {
        return carom_v2(0.0, 0.0);
    }
    return carom_v2(fabs(box.vertices[0].x), fabs(box.vertices[0].y));
}

static void put_body(double* out, carom_body_id body, carom_shape_id shape, uint32_t color) {
    carom_vec2 half = half_extents(shape);
    carom_transform xf = carom_body_get_transform(body);
    out[0] = xf.p.x;
    out[1] = xf.p.y;
    out[2] = xf.q.c;
    out[3] = xf.q.s;
    out[4] = half.x;
    out[5] = half.y;
    out[6] = color;
    out[7] = carom_length(carom_body_get_linear_velocity(body));
}

/* Every moving box, BODY_FIELDS doubles each: x, y (m), cos, sin of its angle, half length,
 * half width (m), color (0xRRGGBB), speed (m/s). The RACE_CARS racers in grid order, then the
 * trailer, then the gate's arm. */
EMSCRIPTEN_KEEPALIVE const double* racing_bodies(const race* r) {
    for (int i = 0; i < RACE_CARS; ++i) {
        const race_car* car = &r->cars[i];
        put_body(body_buffer + i * BODY_FIELDS, car->body, car->shape, car->color);
    }
    /* the trailer's tarpaulin and the barrier arm's yellow, as demos/racing/render.c draws them */
    put_body(body_buffer + RACE_CARS * BODY_FIELDS, r->trailer.body, r->trailer.shape, 0xc8c0b0);
    put_body(body_buffer + (RACE_CARS + 1) * BODY_FIELDS, r->gate.arm, r->gate.shape, 0xf0d020);
    return body_buffer;
}

/* Each racer's lap record, CAR_FIELDS ints each, in grid order: laps finished, best lap
 * (steps, 0: none yet), last lap (steps, 0: none yet), step its current lap began (-1 before it
 * first crossed the line), hits, 1 if driven from the keyboard, the checkpoint it must pass
 * next (0 = the line), and its forward speed in mm/s (negative reversing). */
EMSCRIPTEN_KEEPALIVE const int* racing_cars(const race* r) {
    for (int i = 0; i < RACE_CARS; ++i) {
        const race_car* car = &r->cars[i];
        int* out = car_buffer + i * CAR_FIELDS;
        carom_vehicle_state state;
        carom_vehicle_get_state(car->vehicle, &state);
        out[0] = car->lap_count;
        out[1] = car->best_lap_steps;
        out[2] = car->lap_count > 0 ? car->lap_steps[car->lap_count - 1] : 0;
        out[3] = car->lap_start_step;
        out[4] = car->hits;
        out[5] = car->human;
        out[6] = car->next_checkpoint;
        out[7] = (int)lround(state.forward_speed * 1000.0);
    }
    return car_buffer;
}

/* What each AI driver's three ray casts saw last step, 3 * RAY_FIELDS doubles per racer in grid
 * order: from x, y, to x, y (m; the hit point when it hit), 1 if it hit a car or a wall. A
 * racer driven from the keyboard casts none (all zeros). */
EMSCRIPTEN_KEEPALIVE const double* racing_rays(const race* r) {
    for (int i = 0; i < RACE_CARS; ++i) {
        const race_ai* ai = &r->cars[i].ai;
        for (int k = 0; k < 3; ++k) {
            double* out = ray_buffer + (i * 3 + k) * RAY_FIELDS;
            int cast = !r->cars[i].human;
            out[0] = cast ? ai->ray_from[k].x : 0.0;
            out[1] = cast ? ai->ray_from[k].y : 0.0;
            out[2] = cast ? ai->ray_to[k].x : 0.0;
            out[3] = cast ? ai->ray_to[k].y : 0.0;
            out[4] = cast ? ai->ray_hit[k] : 0.0;
        }
    }
    return ray_buffer;
}

/* The track, which never moves: a header of TRACK_HEADER doubles, then TRACK_SAMPLE_FIELDS
 * doubles per centreline sample. Header: sample count, road half width (m), wall offset from the
 * centreline (m), start sample, the TRACK_CHECKPOINTS checkpoint samples, the ice patch's four
 * corners (x, y each), the loop's length (m); the rest is 0. Per sample: centre x, y, unit
 * normal x, y (left of the direction of racing), unit tangent x, y, racing line x, y, and the
 * racing line's speed (m/s). */
EMSCRIPTEN_KEEPALIVE const double* racing_track(const race* r) {
    const track* t = &r->track;
    double* h = track_buffer;
    memset(h, 0, TRACK_HEADER * sizeof(double));
    h[0] = t->count;
    h[1] = t->road_half_width;
    h[2] = t->wall_offset;
    h[3] = t->start_sample;
    for (int k = 0; k < TRACK_CHECKPOINTS; ++k) {
        h[4 + k] = t->checkpoint_sample[k];
    }
    for (int k = 0; k < 4; ++k) {
        h[4 + TRACK_CHECKPOINTS + 2 * k] = t->ice[k].x;
        h[5 + TRACK_CHECKPOINTS + 2 * k] = t->ice[k].y;
    }
    h[12 + TRACK_CHECKPOINTS] = t->length;
    for (int i = 0; i < t->count; ++i) {
        double* s = track_buffer + TRACK_HEADER + i * TRACK_SAMPLE_FIELDS;
        s[0] = t->center[i].x;
        s[1] = t->center[i].y;
        s[2] = t->normal[i].x;
        s[3] = t->normal[i].y;
        s[4] = t->tangent[i].x;
        s[5] = t->tangent[i].y;
        s[6] = t->line[i].x;
        s[7] = t->line[i].y;
        s[8] = t->line_speed[i];
    }
    return track_buffer;
}

/* The sparks, read in place: RACE_MAX_SPARKS records of five doubles (x, y, vx, vy, life left
 * in s; alive while life > 0). */
EMSCRIPTEN_KEEPALIVE const race_spark* racing_sparks(const race* r) { return r->sparks; }
_Static_assert(sizeof(race_spark) == 5 * sizeof(double), "racing.js reads 5 doubles a spark");

EMSCRIPTEN_KEEPALIVE int racing_max_sparks(void) { return RACE_MAX_SPARKS; }

/* The skid marks, read in place: a ring of RACE_MAX_SKIDS segments of four doubles (ax, ay, bx,
 * by); racing_skid_count is how many were ever added (segment k is at k % RACE_MAX_SKIDS). */
EMSCRIPTEN_KEEPALIVE const race_skid* racing_skids(const race* r) { return r->skids; }
_Static_assert(sizeof(race_skid) == 4 * sizeof(double), "racing.js reads 4 doubles a skid mark");

EMSCRIPTEN_KEEPALIVE int racing_skid_count(const race* r) { return r->skid_count; }

EMSCRIPTEN_KEEPALIVE int racing_max_skids(void) { return RACE_MAX_SKIDS; }
