/* The joints' part of the solver stage: which joints are solved this step, what every joint
 * prepares, the dispatch to the kinds, and after the substeps the reaction forces and breaks.
 *
 * Joints are soft constraints in Catto's soft step, like the contacts (solver.c): in each
 * substep they are warm started, solved with the position bias (a spring of the world's
 * joint_hertz and joint_damping_ratio pulls their anchors back together), and, after the
 * positions are integrated, relaxed (solved again without that bias). Their own springs and
 * motors act in both passes: they are forces of the model, not corrections.
 *
 * Order: the joints are solved one after another, in id order, before the contacts' colours in
 * each of those passes. One order that depends on the ids alone keeps a step deterministic and a
 * restored snapshot bit for bit; solving joints first lets the contacts, solved last, have the
 * last word on penetration, which is what a pile of jointed bodies on the ground needs. Putting
 * joints into the contacts' colours instead (Box2D v3 does) would let them share lanes and
 * threads; with a handful to a few hundred joints per world, a serial pass costs less than the
 * colouring's bookkeeping (docs/solver.md).
 *
 * Which joints: those with an awake dynamic body, kept in world->awake_joints (ascending) and
 * rebuilt when the awake revision moves (joints created or destroyed, bodies asleep or woken).
 * A joint whose bodies are both asleep costs nothing; its impulses wait for the island to wake.
 *
 * Angles inside the substeps: the joint angle at the start of the step comes from the bodies'
 * rotations by carom's own atan2; within the step it follows the bodies' accumulated turns
 * (delta_angle), which needs no trigonometry. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>

static bool awake_dynamic_body(const carom_world* world, int body) {
    return body >= 0 && world->bodies[body].type == CAROM_BODY_DYNAMIC &&
           !world->bodies[body].asleep;
}

/* A joint of a disabled body does nothing until the body is enabled again. */
static bool has_disabled_body(const carom_world* world, const carom_joint* joint) {
    for (int e = 0; e < 2; ++e) {
        int body = joint->edges[e].body;
        if (body >= 0 && world->bodies[body].disabled) {
            return true;
        }
    }
    return false;
}

/* Bring world->awake_joints up to date: the joints with an awake dynamic body and no disabled
 * one, ascending. */
static void refresh_awake_joints(carom_world* world) {
    if (world->awake_joints_revision == world->awake_revision) {
        return;
    }
    arrsetlen(world->awake_joints, 0);
    for (int i = 0; i < (int)arrlen(world->joints); ++i) {
        const carom_joint* joint = &world->joints[i];
        if (joint->id >= 0 && !has_disabled_body(world, joint) &&
            (awake_dynamic_body(world, joint->edges[0].body) ||
             awake_dynamic_body(world, joint->edges[1].body))) {
            arrput(world->awake_joints, i);
        }
    }
    world->awake_joints_revision = world->awake_revision;
}

int carom_joints_refresh_awake(carom_world* world) {
    refresh_awake_joints(world);
    return (int)arrlen(world->awake_joints);
}

void carom_joints_wake_driven(carom_world* world) {
    if (world->kinematic_joint_count == 0) {
        return;
    }
    for (int i = 0; i < (int)arrlen(world->joints); ++i) {
        const carom_joint* joint = &world->joints[i];
        if (joint->id < 0 || joint->edges[0].body < 0) {
            continue;
        }
        carom_body* a = &world->bodies[joint->edges[0].body];
        carom_body* b = &world->bodies[joint->edges[1].body];
        if (a->type == CAROM_BODY_KINEMATIC && carom_body_is_active(a)) {
            carom_wake_body(world, b);
        } else if (b->type == CAROM_BODY_KINEMATIC && carom_body_is_active(b)) {
            carom_wake_body(world, a);
        }
    }
}

/* The solver state of a joint's body: its own, or the rest state for a body the solver does not
 * move (static, asleep, or the world of a mouse joint). */
static int state_of(const carom_world* world, int body) {
    const carom_solver* solver = &world->solver;
    int state = body >= 0 ? solver->body_states[body] : -1;
    return state >= 0 ? state : solver->moving_count;
}

/* Whether the kind reads the joint angle: a free hinge, a wheel, a rod and a mouse joint do not,
 * and skipping the angle (an atan2) for them is 5 % of a grid of 20,000 hinges. */
static bool needs_angle(const carom_joint* joint) {
    switch (joint->type) {
    case CAROM_JOINT_REVOLUTE:
        return joint->revolute.enable_limit || joint->revolute.enable_spring;
    case CAROM_JOINT_WELD:
    case CAROM_JOINT_PRISMATIC:
    case CAROM_JOINT_MOTOR:
        return true;
    default:
        return false;
    }
}

/* The common part of a joint's preparation: states, masses, anchors and the angle at the start
 * of the step. Returns false for a joint that could move nothing this step. */
static bool prepare_common(carom_world* world, carom_joint* joint) {
    const carom_solver* solver = &world->solver;
    joint->state_a = state_of(world, joint->edges[0].body);
    joint->state_b = state_of(world, joint->edges[1].body);
    carom_state_mass mass_a = solver->masses[joint->state_a];
    carom_state_mass mass_b = solver->masses[joint->state_b];
    joint->write_a = mass_a.inv_mass > 0.0;
    joint->write_b = mass_b.inv_mass > 0.0;
    if (!joint->write_a && !joint->write_b) {
        return false;
    }
    joint->inv_mass_a = mass_a.inv_mass;
    joint->inv_inertia_a = mass_a.inv_inertia;
    joint->inv_mass_b = mass_b.inv_mass;
    joint->inv_inertia_b = mass_b.inv_inertia;
    /* a mouse joint's body A is the world: center at the origin, no rotation */
    carom_vec2 center_a = {0.0, 0.0};
    carom_rot rotation_a = carom_rot_identity();
    carom_vec2 local_center_a = {0.0, 0.0};
    if (joint->edges[0].body >= 0) {
        const carom_body* a = &world->bodies[joint->edges[0].body];
        center_a = a->center;
        rotation_a = a->transform.q;
        local_center_a = a->local_center;
    }
    const carom_body* b = &world->bodies[joint->edges[1].body];
    joint->frame_a = carom_rotate(rotation_a, carom_sub(joint->local_anchor_a, local_center_a));
    joint->frame_b =
        carom_rotate(b->transform.q, carom_sub(joint->local_anchor_b, b->local_center));
    joint->delta_center = carom_sub(b->center, center_a);
    joint->rotation_a = rotation_a;
    joint->base_angle = 0.0;
    if (needs_angle(joint)) {
        carom_rot relative = carom_inv_mul_rot(rotation_a, b->transform.q);
        joint->base_angle =
            carom_rot_get_angle(carom_inv_mul_rot(joint->reference_rotation, relative));
    }
    return true;
}

static void prepare_kind(carom_joint* joint, const carom_joint_context* context) {
    switch (joint->type) {
    case CAROM_JOINT_REVOLUTE:
        carom_revolute_joint_prepare(joint, context);
        break;
    case CAROM_JOINT_PRISMATIC:
        carom_prismatic_joint_prepare(joint, context);
        break;
    case CAROM_JOINT_DISTANCE:
        carom_distance_joint_prepare(joint, context);
        break;
    case CAROM_JOINT_WELD:
        carom_weld_joint_prepare(joint, context);
        break;
    case CAROM_JOINT_WHEEL:
        carom_wheel_joint_prepare(joint, context);
        break;
    case CAROM_JOINT_MOTOR:
        carom_motor_joint_prepare(joint, context);
        break;
    case CAROM_JOINT_MOUSE:
        carom_mouse_joint_prepare(joint, context);
        break;
    }
}

/* Whether limit_joint_speeds looks at every moving state: the joints' states (two a joint at
 * most) would be the longer list. */
static bool limits_every_moving_state(const carom_world* world) {
    return 2 * (int)arrlen(world->solved_joints) > world->solver.moving_count;
}

/* The solver states this step's joints write, for limit_joint_speeds (a state may come twice);
 * none when every moving state is looked at. */
static void collect_joint_states(carom_world* world) {
    if (limits_every_moving_state(world)) {
        return;
    }
    for (int k = 0; k < (int)arrlen(world->solved_joints); ++k) {
        const carom_joint* joint = &world->joints[world->solved_joints[k]];
        if (joint->write_a) {
            arrput(world->joint_states, joint->state_a);
        }
        if (joint->write_b) {
            arrput(world->joint_states, joint->state_b);
        }
    }
}

static bool too_fast(const carom_body_state* state) {
    return (carom_length_squared(state->linear_velocity) > CAROM_MAX_SPEED * CAROM_MAX_SPEED) |
           (fabs(state->angular_velocity) > CAROM_MAX_ANGULAR_SPEED);
}

/* After a pass over the joints, the velocities they left their bodies with, within the speed
 * limits (carom_limit_speeds). The end of the step applies them too, but within a step a few
 * joints at lever arms of 1e12 m, solved one after the other and warm-started with the last
 * substep's impulses, multiplied a velocity past the range of a double (148 of 3,000 random
 * worlds of tests/test_extreme.c's extreme inputs with joints went non-finite). Looked for
 * without a branch, as this runs three times a substep; never found at sane scales, so no bit
 * changes. */
static void limit_joint_speeds(carom_world* world) {
    carom_body_state* states = world->solver.states;
    bool any = false;
    if (limits_every_moving_state(world)) {
        int count = world->solver.moving_count;
        for (int i = 0; i < count; ++i) {
            any |= too_fast(&states[i]);
        }
        for (int i = 0; any && i < count; ++i) {
            carom_limit_speeds(&states[i].linear_velocity, &states[i].angular_velocity);
        }
        return;
    }
    int count = (int)arrlen(world->joint_states);
    for (int k = 0; k < count; ++k) {
        any |= too_fast(&states[world->joint_states[k]]);
    }
    for (int k = 0; any && k < count; ++k) {
        carom_body_state* state = &states[world->joint_states[k]];
        carom_limit_speeds(&state->linear_velocity, &state->angular_velocity);
    }
}

void carom_joint_solver_prepare(carom_world* world, double h) {
    arrsetlen(world->joint_break_events, 0);
    arrsetlen(world->solved_joints, 0);
    arrsetlen(world->joint_states, 0);
    if (arrlen(world->joints) == 0) {
        return;
    }
    carom_joint_context* context = &world->joint_context;
    context->h = h;
    context->inv_h = 1.0 / h;
    /* like the contacts' stiffness, capped at a quarter of the substep rate */
    double hertz = carom_min_d(world->def.joint_hertz, 0.25 / h);
    context->rigid = carom_make_softness(hertz, world->def.joint_damping_ratio, h);
    context->max_push = CAROM_JOINT_MAX_CORRECTION_SPEED;
    context->max_hertz = 0.25 / h;
    context->states = (carom_state_arrays){world->solver.states, world->solver.delta_positions,
                                           world->solver.turns};
    refresh_awake_joints(world);
    for (int k = 0; k < (int)arrlen(world->awake_joints); ++k) {
        carom_joint* joint = &world->joints[world->awake_joints[k]];
        if (prepare_common(world, joint)) {
            prepare_kind(joint, context);
            arrput(world->solved_joints, joint->id);
        }
    }
    collect_joint_states(world);
}

void carom_joint_solver_warm_start(carom_world* world) {
    const carom_joint_context* context = &world->joint_context;
    for (int k = 0; k < (int)arrlen(world->solved_joints); ++k) {
        carom_joint* joint = &world->joints[world->solved_joints[k]];
        switch (joint->type) {
        case CAROM_JOINT_REVOLUTE:
            carom_revolute_joint_warm_start(joint, context);
            break;
        case CAROM_JOINT_PRISMATIC:
            carom_prismatic_joint_warm_start(joint, context);
            break;
        case CAROM_JOINT_DISTANCE:
            carom_distance_joint_warm_start(joint, context);
            break;
        case CAROM_JOINT_WELD:
            carom_weld_joint_warm_start(joint, context);
            break;
        case CAROM_JOINT_WHEEL:
            carom_wheel_joint_warm_start(joint, context);
            break;
        case CAROM_JOINT_MOTOR:
            carom_motor_joint_warm_start(joint, context);
            break;
        case CAROM_JOINT_MOUSE:
            carom_mouse_joint_warm_start(joint, context);
            break;
        }
    }
    limit_joint_speeds(world);
}

void carom_joint_solver_solve(carom_world* world, bool use_bias) {
    const carom_joint_context* context = &world->joint_context;
    for (int k = 0; k < (int)arrlen(world->solved_joints); ++k) {
        carom_joint* joint = &world->joints[world->solved_joints[k]];
        switch (joint->type) {
        case CAROM_JOINT_REVOLUTE:
            carom_revolute_joint_solve(joint, context, use_bias);
            break;
        case CAROM_JOINT_PRISMATIC:
            carom_prismatic_joint_solve(joint, context, use_bias);
            break;
        case CAROM_JOINT_DISTANCE:
            carom_distance_joint_solve(joint, context, use_bias);
            break;
        case CAROM_JOINT_WELD:
            carom_weld_joint_solve(joint, context, use_bias);
            break;
        case CAROM_JOINT_WHEEL:
            carom_wheel_joint_solve(joint, context, use_bias);
            break;
        case CAROM_JOINT_MOTOR:
            carom_motor_joint_solve(joint, context, use_bias);
            break;
        case CAROM_JOINT_MOUSE:
            carom_mouse_joint_solve(joint, context, use_bias);
            break;
        }
    }
    limit_joint_speeds(world);
}

static void compute_reaction(carom_joint* joint, double inv_h) {
    switch (joint->type) {
    case CAROM_JOINT_REVOLUTE:
        carom_revolute_joint_reaction(joint, inv_h);
        break;
    case CAROM_JOINT_PRISMATIC:
        carom_prismatic_joint_reaction(joint, inv_h);
        break;
    case CAROM_JOINT_DISTANCE:
        carom_distance_joint_reaction(joint, inv_h);
        break;
    case CAROM_JOINT_WELD:
        carom_weld_joint_reaction(joint, inv_h);
        break;
    case CAROM_JOINT_WHEEL:
        carom_wheel_joint_reaction(joint, inv_h);
        break;
    case CAROM_JOINT_MOTOR:
        carom_motor_joint_reaction(joint, inv_h);
        break;
    case CAROM_JOINT_MOUSE:
        carom_mouse_joint_reaction(joint, inv_h);
        break;
    }
}

static bool exceeds_threshold(const carom_joint* joint) {
    return (joint->break_force > 0.0 && carom_length(joint->reaction_force) > joint->break_force) ||
           (joint->break_torque > 0.0 && fabs(joint->reaction_torque) > joint->break_torque);
}

void carom_joint_solver_finish(carom_world* world) {
    double inv_h = world->joint_context.inv_h;
    for (int k = 0; k < (int)arrlen(world->solved_joints); ++k) {
        compute_reaction(&world->joints[world->solved_joints[k]], inv_h);
    }
    /* breaks after every reaction is known, in id order; destroying frees ids in that order */
    for (int k = 0; k < (int)arrlen(world->solved_joints); ++k) {
        carom_joint* joint = &world->joints[world->solved_joints[k]];
        if (exceeds_threshold(joint)) {
            carom_joint_break_event event = {carom_make_joint_id(world, joint), joint->type,
                                             joint->user_data, joint->reaction_force,
                                             joint->reaction_torque};
            arrput(world->joint_break_events, event);
            carom_destroy_joint_internal(world, joint);
        }
    }
}
