/* Continuous collision: fast bodies are swept so they cannot pass through thin shapes. */
#ifndef CAROM_CONTINUOUS_H
#define CAROM_CONTINUOUS_H

#include "carom/math.h"

typedef struct carom_world carom_world;

/* Where a body's own motion may take it this step against static and kinematic shapes: the
 * time it stops (1 if it does not) and the shift that keeps its touching cores out. */
typedef struct carom_continuous_stop {
    double t;
    carom_vec2 shift;
    int other_body; /* what it hit first, -1: nothing */
} carom_continuous_stop;

/* The stage's scratch, kept in the world (stb_ds arrays). */
typedef struct carom_continuous_scratch {
    int** candidates;             /* per worker: shapes a swept body may hit */
    carom_continuous_stop* stops; /* per solver state: its first stop, found on a worker */
    unsigned char* stop_found;    /* per state: 1 if stops[] holds it */
    unsigned char* disturbed;     /* per state: a bullet moved the body back since */
    unsigned char* swept;         /* per state: fast or pressed when the stage began */
    unsigned char* was_pressed;   /* per state: its pressed mark, cleared since */
    int* pressed_body;            /* per touching contact: the body it presses, or -1 */
} carom_continuous_scratch;

/* After the solver moved the bodies: move every fast body back to its first impact. */
void carom_continuous_step(carom_world* world);
void carom_continuous_destroy(carom_continuous_scratch* scratch);

#endif
