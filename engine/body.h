/* Bodies: lifecycle, mass from shapes, and the public getters and setters.
 *
 * A body lives in the world's `bodies` array at its id; a free slot has id -1. Its pose is kept
 * twice on purpose: `center` (the center of mass, what the solver moves) and `transform` (the
 * origin, what users place and shapes hang from). The center and the rotation are primary: the
 * origin is always carom_body_derive_origin()'s result, bit for bit, whoever moved the body (a
 * step, continuous collision, a setter). That is what lets a snapshot store the center and the
 * rotation alone and restore the origin exactly. */
#ifndef CAROM_BODY_H
#define CAROM_BODY_H

#include "carom/carom.h"

#include <stdbool.h>

typedef struct carom_world carom_world;

typedef struct carom_body {
    /* The fields every step reads for every contact (narrow phase, solver set-up) come first,
     * so that they share the first two cache lines. */
    int id;              /* own index, or -1 when the slot is free */
    carom_body_type type;
    bool asleep;
    bool enable_sleep;
    bool bullet;
    bool massless; /* dynamic with zero mass: the world refuses to step */
    bool pressed;  /* continuous collision's mark, within its stage only: pressed into a
                      static or kinematic shape by more than a fraction of its thickness */
    bool fixed_rotation; /* never turns: no rotational inertia, rotation kept bit for bit */
    bool mass_override;  /* mass, center and inertia from override_mass, not from the shapes */
    bool disabled;       /* carom_body_set_enabled(0): kept, but never paired, solved or found */
    carom_transform transform; /* origin pose, world frame */
    carom_vec2 center;         /* center of mass, world frame */
    carom_vec2 linear_velocity;
    double angular_velocity;
    double inv_mass;    /* 0 for static, kinematic and massless */
    double inv_inertia; /* about the center of mass; 0 like inv_mass */
    double max_extent; /* farthest shape point from the center of mass (m) */
    double min_extent; /* the body's thinnest half-thickness, for "is it fast?" (m) */

    uint32_t generation; /* bumped when the slot is freed */
    int island;          /* its sleeping island, -1 while awake */
    double sleep_time;   /* how long the body has rested (s) */
    double rest_energy;  /* kinetic energy when the rest began, or the highest seen at a
                            sleep check that found the island gaining energy (J) */
    carom_vec2 local_center; /* center of mass, body frame */
    carom_vec2 force; /* accumulated for the next step, world frame (N) */
    double torque;    /* N·m */
    double mass;    /* kg */
    double inertia; /* kg·m², about the center of mass */
    double linear_damping, angular_damping, gravity_scale;
    carom_sweep sweep; /* this step's motion, set by the solver for bodies it moved */

    int first_shape; /* head of the body's shape list, -1 if none */
    int shape_count;
    int contact_head; /* head of the contact list as a contact key (contact << 1 | edge), -1 */
    int contact_count;
    void* user_data;
    carom_mass_data override_mass; /* when mass_override (carom_body_set_mass_data) */
} carom_body;

/* Set the origin from the center of mass and the rotation (the one formula used everywhere). */
static inline void carom_body_derive_origin(carom_body* body) {
    body->transform.p =
        carom_sub(body->center, carom_rotate(body->transform.q, body->local_center));
}

/* Whether the body's pose is other than (start_center, start_rotation), bit for bit: whether it
 * reports a move for a step it began there (world.c). */
static inline bool carom_body_pose_changed(const carom_body* body, carom_vec2 start_center,
                                           carom_rot start_rotation) {
    return start_center.x != body->center.x || start_center.y != body->center.y ||
           start_rotation.c != body->transform.q.c || start_rotation.s != body->transform.q.s;
}

/* Resolve a public id to the body, or NULL (recording CAROM_ERROR_INVALID_ID with `what` in the
 * message). *world_out receives the world. */
carom_body* carom_get_body_checked(carom_body_id id, carom_world** world_out, const char* what);
/* Recompute mass, center of mass and inertia from the shapes; keeps the center's velocity. */
void carom_body_update_mass(carom_world* world, carom_body* body);
/* Recompute the shapes' bounding boxes after the body moved by `motion` (m) this step; moves
 * broad-phase proxies whose box left their fattened box. */
void carom_body_update_shape_bounds(carom_world* world, carom_body* body, carom_vec2 motion);
/* Its two halves: the shapes' tight boxes, which touch only this body's shapes (so bodies may
 * be done at the same time; returns whether a box left its proxy's fat box), then the proxies
 * moved in the broad phase's grid, which is shared (one body at a time). */
bool carom_body_update_shape_aabbs(carom_world* world, const carom_body* body);
void carom_body_update_proxies(carom_world* world, const carom_body* body, carom_vec2 motion);
/* carom_body_update_proxies cut in two again, for the step's bodies on the workers: each shape
 * whose box left its proxy's fat box gives its proxy the new fat box
 * (carom_broad_phase_begin_move, which writes only this body's proxies, so bodies may be done at
 * the same time), and what is left of the move goes into rests[shape id] (0 for a shape that did
 * not leave); the return is the union of the rests. Then, one body at a time, the rests are done
 * (carom_broad_phase_finish_move, in shape order). The same boxes, moved list and grid, so the
 * same bits. */
unsigned carom_body_begin_proxy_moves(carom_world* world, const carom_body* body,
                                      carom_vec2 motion, unsigned char* rests);
void carom_body_finish_proxy_moves(carom_world* world, const carom_body* body,
                                   const unsigned char* rests);
void carom_destroy_body_internal(carom_world* world, carom_body* body);

#endif
