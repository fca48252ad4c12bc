/* The racing demo's track: a closed centreline (a Catmull-Rom loop through fixed control
 * points, resampled every ~3 m), a road of fixed width, grass verges up to chain walls on both
 * sides, an ice patch, checkpoints as sensors across the track, and a racing line (the
 * centreline relaxed towards least curvature inside the road) with a speed profile for it. */
#ifndef RACING_TRACK_H
#define RACING_TRACK_H

#include <carom/carom.h>

/* Collision categories of the demo. */
#define CAT_WALL 0x1u
#define CAT_CAR 0x2u
#define CAT_CHECKPOINT 0x4u
#define CAT_SURFACE 0x8u
#define CAT_SURFACE_READER 0x10u /* vehicles' surface filter */
#define CAT_CAR_RAY 0x20u        /* the AI's ray casts */

#define TRACK_CHECKPOINTS 8
#define TRACK_MAX_SAMPLES 1024

typedef struct track {
    int count;                                /* centreline samples, evenly spaced */
    double spacing;                           /* between samples (m) */
    double length;                            /* of the loop (m) */
    carom_vec2 center[TRACK_MAX_SAMPLES];     /* centreline, counter-clockwise loop */
    carom_vec2 tangent[TRACK_MAX_SAMPLES];    /* unit, along the direction of racing */
    carom_vec2 normal[TRACK_MAX_SAMPLES];     /* unit, left of the tangent (towards inside) */
    double line_offset[TRACK_MAX_SAMPLES];    /* racing line: centre + offset * normal (m) */
    carom_vec2 line[TRACK_MAX_SAMPLES];
    double line_speed[TRACK_MAX_SAMPLES];     /* speed profile on the racing line (m/s) */
    double road_half_width;                   /* m */
    double wall_offset;                       /* walls this far from the centreline (m) */
    int start_sample;                         /* the start/finish line (checkpoint 0) */
    int checkpoint_sample[TRACK_CHECKPOINTS];
    carom_shape_id checkpoint[TRACK_CHECKPOINTS];
    carom_vec2 ice[4];                        /* the ice patch, for drawing */
    int ice_first, ice_last;                  /* its sample range */
    double grass_grip, ice_grip;
    carom_body_id ground;                     /* static body: walls and sensors */
} track;

/* Build the track's geometry and its bodies in the world. Returns 0 on success. */
int track_build(track* t, carom_world_id world);

/* The sample nearest to p, searching `window` samples either side of `hint` (the whole loop
 * when hint < 0). */
int track_nearest(const track* t, carom_vec2 p, int hint, int window);

static inline int track_wrap(const track* t, int i) {
    i %= t->count;
    return i < 0 ? i + t->count : i;
}

#endif
