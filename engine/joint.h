/* Joints (include/carom/joint.h): the joint record, and what the lifecycle (joint.c), the solver
 * stage (joint_solver.c) and the joint kinds (revolute_joint.c ... mouse_joint.c) share.
 *
 * A joint lives in the world's `joints` array at its id; a free slot has id -1. It joins two
 * bodies through two edges, each linked into its body's joint list (keys joint << 1 | edge, heads
 * in world->body_joint_heads, as contacts are listed per body), so destroying a body finds its
 * joints without a search. A mouse joint's body A is -1: the world; its edge is not linked.
 *
 * Each kind keeps its settings, its accumulated impulses (which persist from step to step, for
 * warm starting) and what it prepares each step in its own struct of the union. What every kind
 * needs each step (the solver states of its bodies, their inverse masses, the anchors relative
 * to the centers of mass, the distance between the centers, the relative angle) is prepared into
 * the common part by joint_solver.c before the kind's own prepare. */
#ifndef CAROM_JOINT_INTERNAL_H
#define CAROM_JOINT_INTERNAL_H

#include "carom/carom.h"

#include "solver.h"

#include <stdbool.h>

typedef struct carom_world carom_world;
typedef struct carom_body carom_body;

/* One end of a joint in a body's joint list (body -1: the world, not linked). */
typedef struct carom_joint_edge {
    int body;
    int prev_key;
    int next_key;
} carom_joint_edge;

typedef struct carom_revolute_joint {
    bool enable_limit, enable_motor, enable_spring;
    double lower_angle, upper_angle; /* rad */
    double motor_speed;              /* rad/s */
    double max_motor_torque;         /* N·m */
    double hertz, damping_ratio;
    carom_vec2 linear_impulse; /* accumulated per substep (N·s) */
    double spring_impulse, motor_impulse, lower_impulse, upper_impulse; /* N·m·s */
    double axial_mass;     /* this step: 1 / (inverse inertias) */
    carom_softness spring; /* this step */
} carom_revolute_joint;

typedef struct carom_prismatic_joint {
    carom_vec2 local_axis_a; /* unit, body A frame */
    bool enable_limit, enable_motor, enable_spring;
    double lower_translation, upper_translation; /* m */
    double motor_speed;                          /* m/s */
    double max_motor_force;                      /* N */
    double hertz, damping_ratio;
    double perpendicular_impulse, angular_impulse;                      /* N·s, N·m·s */
    double spring_impulse, motor_impulse, lower_impulse, upper_impulse; /* along the axis, N·s */
    carom_vec2 axis;       /* this step: the axis at the start of the step, world frame */
    carom_softness spring; /* this step */
} carom_prismatic_joint;

typedef struct carom_distance_joint {
    double length, min_length, max_length; /* m */
    bool enable_spring, enable_limit;
    double hertz, damping_ratio;
    double impulse; /* the rigid rod's, N·s */
    double spring_impulse, lower_impulse, upper_impulse;
    carom_vec2 axis;       /* this step: anchor A to anchor B, unit, as last solved */
    carom_softness spring; /* this step */
} carom_distance_joint;

typedef struct carom_weld_joint {
    double linear_hertz, linear_damping_ratio;
    double angular_hertz, angular_damping_ratio;
    carom_vec2 linear_impulse;
    double angular_impulse;
    double axial_mass;              /* this step */
    carom_softness linear, angular; /* this step: the springs, or the world's joint softness */
} carom_weld_joint;

typedef struct carom_wheel_joint {
    carom_vec2 local_axis_a; /* unit, body A frame */
    bool enable_spring, enable_limit, enable_motor;
    double hertz, damping_ratio;
    double lower_translation, upper_translation; /* m */
    double motor_speed;                          /* rad/s */
    double max_motor_torque;                     /* N·m */
    double perpendicular_impulse;
    double spring_impulse, lower_impulse, upper_impulse; /* along the axis, N·s */
    double motor_impulse;                                /* N·m·s */
    carom_vec2 axis;                                     /* this step */
    double axial_mass;     /* this step: of the motor, 1 / (inverse inertias) */
    carom_softness spring; /* this step */
} carom_wheel_joint;

typedef struct carom_motor_joint {
    carom_vec2 linear_offset; /* B's origin in A's frame: the joint's local anchor A */
    double angular_offset;    /* rad */
    double max_force, max_torque, correction_factor;
    carom_vec2 linear_impulse;
    double angular_impulse;
    double axial_mass; /* this step */
} carom_motor_joint;

typedef struct carom_mouse_joint {
    double hertz, damping_ratio, max_force;
    carom_vec2 linear_impulse;
    carom_softness spring; /* this step */
} carom_mouse_joint;

typedef struct carom_joint {
    int id; /* own index, or -1 when the slot is free */
    uint32_t generation;
    carom_joint_type type;
    carom_joint_edge edges[2]; /* edges[0]: body A, edges[1]: body B */
    bool collide_connected;
    double break_force, break_torque; /* 0: never */
    void* user_data;
    /* The joint's frame in each body: the anchor relative to the body origin, body frame (a
     * mouse joint's anchor A is its target, world frame), and the relative rotation of B to A
     * that counts as angle 0. */
    carom_vec2 local_anchor_a, local_anchor_b;
    carom_rot reference_rotation;
    carom_vec2 reaction_force; /* on B in the last step it was solved, world frame (N) */
    double reaction_torque;    /* N·m */

    /* this step (joint_solver.c) */
    int state_a, state_b;  /* solver states (the rest state for a body not moved) */
    bool write_a, write_b; /* whether the joint may change each body's velocity */
    double inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b; /* 0 for bodies not moved */
    carom_vec2 frame_a, frame_b; /* anchors relative to the centers of mass, world frame, at the
                                    start of the step */
    carom_vec2 delta_center;     /* center of B minus center of A at the start of the step */
    carom_rot rotation_a;        /* body A's rotation at the start of the step */
    double base_angle;           /* the joint angle at the start of the step (rad) */

    union {
        carom_revolute_joint revolute;
        carom_prismatic_joint prismatic;
        carom_distance_joint distance;
        carom_weld_joint weld;
        carom_wheel_joint wheel;
        carom_motor_joint motor;
        carom_mouse_joint mouse;
    };
} carom_joint;

/* What every joint's solve needs from the step. */
typedef struct carom_joint_context {
    double h, inv_h;           /* substep (s) and its inverse */
    carom_softness rigid;      /* the world's joint softness: rigid joints, limits */
    double max_push;           /* fastest position correction of a rigid row along a length (m/s):
                                  CAROM_JOINT_MAX_CORRECTION_SPEED */
    double max_hertz;          /* the stiffest spring the substeps resolve: a quarter of their
                                  rate */
    carom_state_arrays states; /* the solver's states and motion this step */
} carom_joint_context;

/* ---- joint.c: lifecycle ------------------------------------------------------------------ */

/* The body at index `body` is being destroyed: destroy its joints (in joint id order). */
void carom_joints_on_body_destroyed(carom_world* world, int body);
/* Whether a joint between the two bodies keeps them from colliding (collide_connected 0). */
bool carom_joints_forbid_pair(const carom_world* world, int body_a, int body_b);
/* The joint's first body edge key in the body's list, or -1 (body_joint_heads grown lazily). */
int carom_joint_head(const carom_world* world, int body);
void carom_destroy_joint_internal(carom_world* world, carom_joint* joint);
/* The checks creation makes of a kind's settings, made of a joint record's (a snapshot's joints
 * are held to the API's rules; status and message recorded on failure). Anchors, axes and
 * bodies are the caller's to check. */
carom_status carom_check_joint_record(const carom_joint* joint);
/* Resolve a joint id, or NULL with CAROM_ERROR_INVALID_ID recorded; `what` names the caller. */
carom_joint* carom_joint_resolve(carom_joint_id id, carom_world** world_out, const char* what);
/* Each kind's def checked as creation checks it (joint_check.c); status and message recorded on
 * failure. */
carom_status carom_check_revolute_joint_def(const carom_revolute_joint_def* def);
carom_status carom_check_prismatic_joint_def(const carom_prismatic_joint_def* def);
carom_status carom_check_distance_joint_def(const carom_distance_joint_def* def);
carom_status carom_check_weld_joint_def(const carom_weld_joint_def* def);
carom_status carom_check_wheel_joint_def(const carom_wheel_joint_def* def);
carom_status carom_check_motor_joint_def(const carom_motor_joint_def* def);
carom_status carom_check_mouse_joint_def(const carom_mouse_joint_def* def);
/* Rebuild every body's joint list from the live joints (a restored world). */
void carom_relink_joints(carom_world* world);
carom_joint_id carom_make_joint_id(const carom_world* world, const carom_joint* joint);
void carom_joints_destroy(carom_world* world);

/* ---- joint_solver.c: the solver stage ---------------------------------------------------- */

/* Bring world->awake_joints up to date; returns their count. */
int carom_joints_refresh_awake(carom_world* world);
/* Wake sleeping bodies joined to a kinematic body that moves (before the solver gathers). */
void carom_joints_wake_driven(carom_world* world);
/* The joints to solve this step, in id order, prepared for substeps of h seconds. Needs the
 * solver's body states (gathered first). */
void carom_joint_solver_prepare(carom_world* world, double h);
void carom_joint_solver_warm_start(carom_world* world);
void carom_joint_solver_solve(carom_world* world, bool use_bias);
/* After the substeps: each solved joint's reaction force and torque; then the joints whose
 * reaction exceeded their break thresholds are destroyed, with a break event each. */
void carom_joint_solver_finish(carom_world* world);

/* ---- the kinds (revolute_joint.c ... mouse_joint.c) --------------------------------------- */

void carom_revolute_joint_prepare(carom_joint* joint, const carom_joint_context* context);
void carom_revolute_joint_warm_start(carom_joint* joint, const carom_joint_context* context);
void carom_revolute_joint_solve(carom_joint* joint, const carom_joint_context* context,
                                bool use_bias);
void carom_revolute_joint_reaction(carom_joint* joint, double inv_h);

void carom_prismatic_joint_prepare(carom_joint* joint, const carom_joint_context* context);
void carom_prismatic_joint_warm_start(carom_joint* joint, const carom_joint_context* context);
void carom_prismatic_joint_solve(carom_joint* joint, const carom_joint_context* context,
                                 bool use_bias);
void carom_prismatic_joint_reaction(carom_joint* joint, double inv_h);

void carom_distance_joint_prepare(carom_joint* joint, const carom_joint_context* context);
void carom_distance_joint_warm_start(carom_joint* joint, const carom_joint_context* context);
void carom_distance_joint_solve(carom_joint* joint, const carom_joint_context* context,
                                bool use_bias);
void carom_distance_joint_reaction(carom_joint* joint, double inv_h);

void carom_weld_joint_prepare(carom_joint* joint, const carom_joint_context* context);
void carom_weld_joint_warm_start(carom_joint* joint, const carom_joint_context* context);
void carom_weld_joint_solve(carom_joint* joint, const carom_joint_context* context, bool use_bias);
void carom_weld_joint_reaction(carom_joint* joint, double inv_h);

void carom_wheel_joint_prepare(carom_joint* joint, const carom_joint_context* context);
void carom_wheel_joint_warm_start(carom_joint* joint, const carom_joint_context* context);
void carom_wheel_joint_solve(carom_joint* joint, const carom_joint_context* context, bool use_bias);
void carom_wheel_joint_reaction(carom_joint* joint, double inv_h);

void carom_motor_joint_prepare(carom_joint* joint, const carom_joint_context* context);
void carom_motor_joint_warm_start(carom_joint* joint, const carom_joint_context* context);
void carom_motor_joint_solve(carom_joint* joint, const carom_joint_context* context, bool use_bias);
void carom_motor_joint_reaction(carom_joint* joint, double inv_h);

void carom_mouse_joint_prepare(carom_joint* joint, const carom_joint_context* context);
void carom_mouse_joint_warm_start(carom_joint* joint, const carom_joint_context* context);
void carom_mouse_joint_solve(carom_joint* joint, const carom_joint_context* context, bool use_bias);
void carom_mouse_joint_reaction(carom_joint* joint, double inv_h);

/* ---- helpers the kinds share ------------------------------------------------------------- */

/* The velocities of a joint's two bodies during one of its solves: read from the states, changed
 * by the joint's impulses, written back to the bodies the joint may move. */
typedef struct carom_joint_velocities {
    carom_vec2 linear_a;
    double angular_a;
    carom_vec2 linear_b;
    double angular_b;
} carom_joint_velocities;

static inline carom_joint_velocities carom_joint_read_velocities(const carom_joint* joint,
                                                                 carom_state_arrays arrays) {
    const carom_body_state* states = arrays.states;
    carom_joint_velocities v = {
        states[joint->state_a].linear_velocity, states[joint->state_a].angular_velocity,
        states[joint->state_b].linear_velocity, states[joint->state_b].angular_velocity};
    return v;
}

/* Only bodies the joint moves are written: a kinematic body's velocity (or the shared rest
 * state) must keep its exact bits, -0.0 included. */
static inline void carom_joint_write_velocities(const carom_joint* joint, carom_state_arrays arrays,
                                                const carom_joint_velocities* v) {
    carom_body_state* states = arrays.states;
    if (joint->write_a) {
        states[joint->state_a].linear_velocity = v->linear_a;
        states[joint->state_a].angular_velocity = v->angular_a;
    }
    if (joint->write_b) {
        states[joint->state_b].linear_velocity = v->linear_b;
        states[joint->state_b].angular_velocity = v->angular_b;
    }
}

/* Apply a linear impulse at the anchors (on B, the opposite on A) plus a pure angular impulse. */
static inline void carom_joint_apply(const carom_joint* joint, carom_joint_velocities* v,
                                     carom_vec2 anchor_a, carom_vec2 anchor_b, carom_vec2 impulse,
                                     double angular_impulse) {
    v->linear_a = carom_mul_sub(v->linear_a, joint->inv_mass_a, impulse);
    v->angular_a -= joint->inv_inertia_a * (carom_cross(anchor_a, impulse) + angular_impulse);
    v->linear_b = carom_mul_add(v->linear_b, joint->inv_mass_b, impulse);
    v->angular_b += joint->inv_inertia_b * (carom_cross(anchor_b, impulse) + angular_impulse);
}

/* The anchors relative to the centers of mass now: the step's start anchors turned with the
 * bodies so far this step. */
static inline carom_vec2 carom_joint_anchor_a(const carom_joint* joint, carom_state_arrays arrays) {
    return carom_rotate(arrays.turns[joint->state_a].delta_rotation, joint->frame_a);
}
static inline carom_vec2 carom_joint_anchor_b(const carom_joint* joint, carom_state_arrays arrays) {
    return carom_rotate(arrays.turns[joint->state_b].delta_rotation, joint->frame_b);
}

/* The vector from anchor A to anchor B now, given the anchors now. */
static inline carom_vec2 carom_joint_separation(const carom_joint* joint, carom_state_arrays arrays,
                                                carom_vec2 anchor_a, carom_vec2 anchor_b) {
    carom_vec2 moved =
        carom_sub(arrays.delta_positions[joint->state_b], arrays.delta_positions[joint->state_a]);
    return carom_add(carom_add(joint->delta_center, moved), carom_sub(anchor_b, anchor_a));
}

/* The joint angle now: the angle at the start of the step plus what the bodies turned since. */
static inline double carom_joint_angle_now(const carom_joint* joint, carom_state_arrays arrays) {
    return joint->base_angle +
           (arrays.turns[joint->state_b].delta_angle - arrays.turns[joint->state_a].delta_angle);
}

/* Velocity of anchor B relative to anchor A. */
static inline carom_vec2 carom_joint_relative_velocity(const carom_joint_velocities* v,
                                                       carom_vec2 anchor_a, carom_vec2 anchor_b) {
    return carom_sub(carom_add(v->linear_b, carom_cross_sv(v->angular_b, anchor_b)),
                     carom_add(v->linear_a, carom_cross_sv(v->angular_a, anchor_a)));
}

/* The 2x2 effective mass matrix of a point constraint at the anchors, and its solve. */
typedef struct carom_mat22 {
    double k11, k12, k21, k22;
} carom_mat22;

static inline carom_mat22 carom_joint_point_mass(const carom_joint* joint, carom_vec2 anchor_a,
                                                 carom_vec2 anchor_b) {
    double ma = joint->inv_mass_a, mb = joint->inv_mass_b;
    double ia = joint->inv_inertia_a, ib = joint->inv_inertia_b;
    carom_mat22 k;
    k.k11 = ma + mb + anchor_a.y * anchor_a.y * ia + anchor_b.y * anchor_b.y * ib;
    k.k12 = -anchor_a.y * anchor_a.x * ia - anchor_b.y * anchor_b.x * ib;
    k.k21 = k.k12;
    k.k22 = ma + mb + anchor_a.x * anchor_a.x * ia + anchor_b.x * anchor_b.x * ib;
    return k;
}

/* x with K x = b; zero for a singular K. */
static inline carom_vec2 carom_mat22_solve(carom_mat22 k, carom_vec2 b) {
    double det = k.k11 * k.k22 - k.k12 * k.k21;
    if (det != 0.0) {
        det = 1.0 / det;
    }
    return carom_v2(det * (k.k22 * b.x - k.k12 * b.y), det * (k.k11 * b.y - k.k21 * b.x));
}

/* The position correction of a rigid row along a length: at most max_push (m/s), as contacts
 * push out at most at contact_push_max_velocity. A joint pulled far apart (a rod of 1.6 m between
 * anchors 1,000 m apart) would otherwise be corrected at tens of km/s, and with a long lever arm
 * the bodies then spun so fast that the substeps' linearisation diverged to NaN within a few
 * seconds. */
static inline double carom_joint_clamp_bias(double bias, const carom_joint_context* context) {
    double max = context->max_push;
    return bias > max ? max : bias < -max ? -max : bias;
}

/* The same for the two rows of a point constraint, as a vector. */
static inline carom_vec2 carom_joint_clamp_bias2(carom_vec2 bias,
                                                 const carom_joint_context* context) {
    double length = carom_length(bias);
    return length > context->max_push ? carom_scale(context->max_push / length, bias) : bias;
}

/* The softness a limit or a rigid row uses this pass: a gap still open (C > 0) is closed within
 * the substep and no further (speculative, like a contact's gap); a violation is pulled back
 * softly in the biased pass (a limit on a length at most at max_push) and left alone by the relax
 * pass. */
typedef struct carom_joint_row_softness {
    double bias, mass_scale, impulse_scale;
} carom_joint_row_softness;

static inline carom_joint_row_softness
carom_joint_limit_softness(double c, const carom_joint_context* context, bool use_bias,
                           bool is_length) {
    carom_joint_row_softness s = {0.0, 1.0, 0.0};
    if (c > 0.0) {
        s.bias = c * context->inv_h;
    } else if (use_bias) {
        s.bias = context->rigid.bias_rate * c;
        s.bias = is_length ? carom_joint_clamp_bias(s.bias, context) : s.bias;
        s.mass_scale = context->rigid.mass_scale;
        s.impulse_scale = context->rigid.impulse_scale;
    }
    return s;
}

/* One row of a one-sided limit along a direction whose relative velocity is cdot and position
 * error c (>= 0 allowed), on a length (is_length) or an angle: the accumulated impulse stays
 * >= 0. Returns the increment. */
static inline double carom_joint_limit_impulse(double* accumulated, double effective_mass, double c,
                                               double cdot, const carom_joint_context* context,
                                               bool use_bias, bool is_length) {
    carom_joint_row_softness s = carom_joint_limit_softness(c, context, use_bias, is_length);
    double impulse =
        -effective_mass * s.mass_scale * (cdot + s.bias) - s.impulse_scale * *accumulated;
    double total = *accumulated + impulse > 0.0 ? *accumulated + impulse : 0.0;
    impulse = total - *accumulated;
    *accumulated = total;
    return impulse;
}

/* One row of a spring: position error c, relative velocity cdot. */
static inline double carom_joint_spring_impulse(double* accumulated, double effective_mass,
                                                double c, double cdot,
                                                const carom_softness* spring) {
    double impulse = -spring->mass_scale * effective_mass * (cdot + spring->bias_rate * c) -
                     spring->impulse_scale * *accumulated;
    *accumulated += impulse;
    return impulse;
}

/* One row of a motor: drives cdot to 0 with the accumulated impulse within +-max_impulse. */
static inline double carom_joint_motor_impulse(double* accumulated, double effective_mass,
                                               double cdot, double max_impulse) {
    double impulse = -effective_mass * cdot;
    double total = *accumulated + impulse;
    total = total < -max_impulse ? -max_impulse : total > max_impulse ? max_impulse : total;
    impulse = total - *accumulated;
    *accumulated = total;
    return impulse;
}

/* A joint's own spring, its hertz capped like the joints' and the contacts' at a quarter of the
 * substep rate: a stiffer spring is not resolved by the substeps and rings, and a 200 Hz spring at
 * 240 substeps a second pulled apart far enough diverged to NaN. */
static inline carom_softness carom_joint_spring_softness(double hertz, double damping_ratio,
                                                         const carom_joint_context* context) {
    double capped = hertz < context->max_hertz ? hertz : context->max_hertz;
    return carom_make_softness(capped, damping_ratio, context->h);
}

/* The inverse of a sum of inverse masses or inertias, 0 when the sum is 0. */
static inline double carom_joint_inverse(double k) {
    return k > 0.0 ? 1.0 / k : 0.0;
}

/* ---- rows along a direction fixed in body A (prismatic and wheel joints) ----------------- *
 * With d the vector from anchor A to anchor B and r the anchors relative to the centers of
 * mass, a row along u has the position error u . d and the rate
 * u . (vB - vA) + wB (rB x u) - wA ((d + rA) x u): u turns with A. */

/* The geometry of a solve: anchors, the separation, the axis and the arms of the rows. */
typedef struct carom_slider_geometry {
    carom_vec2 anchor_a, anchor_b;
    carom_vec2 d;            /* anchor A to anchor B (m) */
    carom_vec2 axis, perp;   /* unit, world frame, turning with A */
    double axial_a, axial_b; /* (d + rA) x axis, rB x axis */
    double perp_a, perp_b;   /* likewise across */
} carom_slider_geometry;

static inline carom_slider_geometry
carom_joint_slider_geometry(const carom_joint* joint, carom_state_arrays arrays, carom_vec2 axis) {
    carom_slider_geometry g;
    g.anchor_a = carom_joint_anchor_a(joint, arrays);
    g.anchor_b = carom_joint_anchor_b(joint, arrays);
    g.d = carom_joint_separation(joint, arrays, g.anchor_a, g.anchor_b);
    g.axis = carom_rotate(arrays.turns[joint->state_a].delta_rotation, axis);
    g.perp = carom_left_perp(g.axis);
    carom_vec2 arm_a = carom_add(g.d, g.anchor_a);
    g.axial_a = carom_cross(arm_a, g.axis);
    g.axial_b = carom_cross(g.anchor_b, g.axis);
    g.perp_a = carom_cross(arm_a, g.perp);
    g.perp_b = carom_cross(g.anchor_b, g.perp);
    return g;
}

/* Apply an impulse along a row direction u with arms (arm_a, arm_b), plus a pure angular one. */
static inline void carom_joint_apply_row(const carom_joint* joint, carom_joint_velocities* v,
                                         carom_vec2 u, double arm_a, double arm_b, double impulse,
                                         double angular_impulse) {
    v->linear_a = carom_mul_sub(v->linear_a, joint->inv_mass_a * impulse, u);
    v->angular_a -= joint->inv_inertia_a * (impulse * arm_a + angular_impulse);
    v->linear_b = carom_mul_add(v->linear_b, joint->inv_mass_b * impulse, u);
    v->angular_b += joint->inv_inertia_b * (impulse * arm_b + angular_impulse);
}

static inline double carom_joint_row_velocity(const carom_joint_velocities* v, carom_vec2 u,
                                              double arm_a, double arm_b) {
    return carom_dot(u, carom_sub(v->linear_b, v->linear_a)) + arm_b * v->angular_b -
           arm_a * v->angular_a;
}

static inline double carom_joint_row_mass(const carom_joint* joint, double arm_a, double arm_b) {
    return carom_joint_inverse(joint->inv_mass_a + joint->inv_mass_b +
                               joint->inv_inertia_a * arm_a * arm_a +
                               joint->inv_inertia_b * arm_b * arm_b);
}

/* The lower and upper translation limits along the slider's axis (prismatic and wheel
 * joints), the lower first; `mass` is the axial row's, `translation` the current one. */
static inline void
carom_joint_solve_axis_limits(const carom_joint* joint, carom_joint_velocities* v,
                              const carom_slider_geometry* g, double mass, double translation,
                              double lower_translation, double upper_translation,
                              double* lower_impulse, double* upper_impulse,
                              const carom_joint_context* context, bool use_bias) {
    double cdot = carom_joint_row_velocity(v, g->axis, g->axial_a, g->axial_b);
    double lower = carom_joint_limit_impulse(lower_impulse, mass, translation - lower_translation,
                                             cdot, context, use_bias, true);
    carom_joint_apply_row(joint, v, g->axis, g->axial_a, g->axial_b, lower, 0.0);
    cdot = carom_joint_row_velocity(v, g->axis, g->axial_a, g->axial_b);
    double upper = carom_joint_limit_impulse(upper_impulse, mass, upper_translation - translation,
                                             -cdot, context, use_bias, true);
    carom_joint_apply_row(joint, v, g->axis, g->axial_a, g->axial_b, -upper, 0.0);
}

#endif
