/* The solver: soft-step sequential impulses with substeps, relaxation and restitution. */
#ifndef CAROM_SOLVER_H
#define CAROM_SOLVER_H

#include "carom/carom.h"

#include <stdbool.h>

typedef struct carom_world carom_world;

/* The velocity and the motion so far in this step of a body the solver moves. */
typedef struct carom_body_state {
    carom_vec2 linear_velocity;
    double angular_velocity;
    carom_vec2 delta_position;
    carom_rot delta_rotation;
    double delta_angle; /* total turn this step (rad), for continuous collision's sweep */
} carom_body_state;

/* What a body's velocity does each substep: damped, then increased by gravity and forces. */
typedef struct carom_body_motion {
    double linear_damping, angular_damping; /* factors 1 / (1 + h c) */
    carom_vec2 linear_increment;            /* h * (gravity + force / mass) */
    double angular_increment;               /* h * torque / inertia */
} carom_body_motion;

/* A soft constraint: a spring and damper expressed per substep (Catto, Solver2D, 2024). */
typedef struct carom_softness {
    double bias_rate;     /* 1/s: fraction of the separation corrected per second */
    double mass_scale;    /* scales the effective mass */
    double impulse_scale; /* leaks the accumulated impulse */
} carom_softness;

typedef struct carom_constraint_point {
    carom_vec2 anchor_a, anchor_b;
    double base_separation;   /* separation at the start of the step (m) */
    double relative_velocity; /* normal approach velocity before solving (m/s) */
    double normal_impulse, tangent_impulse, max_normal_impulse;
    double normal_mass, tangent_mass;
} carom_constraint_point;

typedef struct carom_contact_constraint {
    int contact;
    int state_a, state_b; /* solver body states; the shared rest state for static bodies */
    carom_vec2 normal;
    double friction, restitution;
    double inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b;
    carom_softness softness;
    /* Two-point manifolds: the inverse of the 2x2 normal mass matrix, used to solve both normal
     * impulses at once; block_solve is false when the matrix is ill-conditioned. */
    double inv_k11, inv_k12, inv_k22;
    bool block_solve;
    int point_count;
    carom_constraint_point points[2];
} carom_contact_constraint;

typedef struct carom_solver {
    carom_body_state* states;              /* stb_ds array, reused; one rest state at the end */
    carom_body_motion* motions;            /* per moving state */
    int* state_bodies;                     /* body id of each moving state */
    int moving_count;                      /* states before the rest state */
    carom_contact_constraint* constraints; /* stb_ds array, reused */
} carom_solver;

void carom_solver_destroy(carom_solver* solver);
/* Advance every non-static body by dt: velocities, contacts, positions, shape bounds. */
void carom_solver_step(carom_world* world, double dt);

#endif
