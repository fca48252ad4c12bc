/* Continuous collision: fast bodies are swept so they cannot pass through thin shapes. */
#ifndef CAROM_CONTINUOUS_H
#define CAROM_CONTINUOUS_H

#include "carom/math.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct carom_world carom_world;
typedef struct carom_body carom_body;

/* Where a body's own motion may take it this step against static and kinematic shapes: the
 * time it stops (1 if it does not) and the shift that keeps its touching cores out. */
typedef struct carom_continuous_stop {
    double t;
    carom_vec2 shift;
    int other_body; /* what it hit first, -1: nothing */
} carom_continuous_stop;

/* Where the static and kinematic shapes' fat boxes lie, on a coarse grid of its own, which
 * answers continuous collision's query for them (continuous.c, "The fixed map"). */
typedef struct carom_fixed_map {
    bool built;           /* the lists describe the broad phase at `revision` */
    bool usable;          /* the boxes fit a grid (finite, not too many listings) */
    uint64_t revision;    /* the broad phase's fixed_revision when built */
    carom_vec2 origin;    /* lower corner of cell (0, 0) (m) */
    double inv_cell_size; /* 1 / cell side (1/m) */
    int width, height;    /* cells; 0 when there are no static or kinematic shapes */
    /* stb_ds arrays: cell c (row by row) lists cell_shapes[cell_starts[c] .. cell_starts[c + 1]),
     * the shape ids whose fat boxes cover it, ascending */
    int* cell_starts;
    int* cell_shapes;
} carom_fixed_map;

/* A body the stage may move, and the pose it began the step at, for its move event. */
typedef struct carom_continuous_repose {
    int state;
    carom_vec2 start_center;
    carom_rot start_rotation;
} carom_continuous_repose;

/* The stage's scratch, kept in the world (stb_ds arrays). */
typedef struct carom_continuous_scratch {
    int** candidates;             /* per worker: shapes a swept body may hit */
    carom_continuous_stop* stops; /* per solver state: its first stop, found on a worker */
    unsigned char* stop_found;    /* per state: 1 if stops[] holds it */
    unsigned char* disturbed;     /* per state: a bullet moved the body back since */
    unsigned char* swept;         /* per state: fast or pressed when the stage began */
    unsigned char* was_pressed;   /* per state: its pressed mark, cleared since */
    int* pressed_body;            /* per touching contact: the body it presses, or -1 */
    unsigned char* notes;         /* per state: carom_continuous_note_body's, when notes_valid */
    /* The bodies the stage may have moved, with the poses they began the step at: moving a body
     * back makes its sweep a standstill at its new pose, so the sweep no longer says where the
     * step began, which its move event compares with (world.c). Per state, 1 + its index in
     * reposes, or 0; valid while reposes_valid (this step's stage ran on these states). */
    carom_continuous_repose* reposes;
    int* repose_of_state;
    bool reposes_valid;
    bool notes_valid; /* this step's finalization noted every state's body */
    carom_fixed_map fixed_map;
    /* The narrow phase has marked the bodies pressed by this step's touching contacts already
     * (it does when no wake changed the list of them), so the stage need not look again. */
    bool pressed_marked;
} carom_continuous_scratch;

typedef struct carom_contact carom_contact;

/* The dynamic body that the contact presses into a static or kinematic shape by more than a
 * fraction of its shape's thickness (so continuous collision checks it however slowly it
 * moves), or -1. Reads the contact's separations, which only the narrow phase sets. */
int carom_continuous_pressed_body(const carom_world* world, const carom_contact* contact);

/* What the stage needs of each body the solver moved (whether it is swept, a bullet, pressed),
 * noted while the solver's finalization has the body at hand, so that the stage need not read
 * every body again (a pile's bodies fill megabytes, and the stage sweeps few of them). The
 * solver calls begin once with its state count, then note for each state, from any worker. The
 * notes are taken only when the narrow phase marked the pressed bodies already
 * (pressed_marked); otherwise the stage reads the bodies itself, after marking them. */
void carom_continuous_begin_notes(carom_world* world, int state_count);
void carom_continuous_note_body(carom_world* world, int state, carom_body* body);

/* After the solver moved the bodies: move every fast body back to its first impact. */
void carom_continuous_step(carom_world* world);
void carom_continuous_destroy(carom_continuous_scratch* scratch);

#endif
