/* Sleep: islands of touching bodies that rest long enough stop being simulated. */
#ifndef CAROM_SLEEP_H
#define CAROM_SLEEP_H

#include "carom/carom.h"

#include "body.h"

#include <stdbool.h>

typedef struct carom_world carom_world;

/* A sleeping island: the bodies that went to sleep together and wake together. */
typedef struct carom_island {
    int id;       /* own index, or -1 when free */
    int* bodies;  /* stb_ds array of body ids, kept for reuse when the island is freed */
} carom_island;

/* Whether a body takes part in the step: an awake dynamic body, or a kinematic body that moves.
 * Contacts between two bodies that do not are left as they are. Inline: the narrow phase asks
 * twice per contact per step. */
static inline bool carom_body_is_active(const carom_body* body) {
    if (body->type == CAROM_BODY_DYNAMIC) {
        return !body->asleep;
    }
    if (body->type == CAROM_BODY_KINEMATIC) {
        return body->linear_velocity.x != 0.0 || body->linear_velocity.y != 0.0 ||
               body->angular_velocity != 0.0;
    }
    return false;
}
/* What the solver's finalization notes of each state for the sleep stage
 * (world->rest_flags), so that the stage need not visit every awake body to find out whether
 * any island can sleep at all. */
enum {
    CAROM_REST_READY = 1,    /* a dynamic body whose rest now covers time_to_sleep */
    CAROM_REST_KINEMATIC = 2 /* a kinematic body */
};

/* Advance a body's rest timer after the solver gave it new velocities and this step's motion
 * (delta_position, delta_angle in radians, over dt); a rest that begins records the body's
 * kinetic energy (body->rest_energy). Returns its CAROM_REST_* bits. */
unsigned carom_sleep_update_timer(const carom_world* world, carom_body* body,
                                  carom_vec2 delta_position, double delta_angle, double dt);
/* Put to sleep every island of awake bodies that has rested long enough. */
void carom_sleep_step(carom_world* world);
/* Wake a body's island (no-op for awake or static bodies). */
/* Put one awake dynamic body to sleep in an island of its own (a body created asleep). */
void carom_sleep_alone(carom_world* world, carom_body* body);
/* Whether the body sleeps alone in its island and touches nothing: adding a shape to it then
 * leaves it asleep (a body created asleep being built). */
bool carom_sleeps_alone_untouched(const carom_world* world, const carom_body* body);
void carom_wake_body(carom_world* world, carom_body* body);
/* Wake the bodies touching this one: it is being moved or destroyed under them. */
void carom_wake_touching(carom_world* world, carom_body* body);
void carom_sleep_destroy(carom_world* world);

#endif
