/* The motor joint: drives body B towards a pose relative to body A (B's origin at linear_offset
 * in A's frame, B's angle at A's plus angular_offset) with a limited force and torque. Each row
 * asks for the velocity that removes correction_factor of the error per substep; the impulses
 * are clamped to the maximum force and torque times the substep. Used with correction_factor 0
 * it is friction: the relative motion is resisted with at most the maximum force and torque.
 *
 * It is a drive, like the joints' springs, so it acts in both passes: the relax pass must not
 * undo it. The angle row goes first, then the point (two rows together, clamped as a vector). */
#include "core.h"

#include "joint.h"

void carom_motor_joint_prepare(carom_joint* joint, const carom_joint_context* context) {
    (void)context;
    carom_motor_joint* m = &joint->motor;
    m->axial_mass = carom_joint_inverse(joint->inv_inertia_a + joint->inv_inertia_b);
}

void carom_motor_joint_warm_start(carom_joint* joint, const carom_joint_context* context) {
    carom_motor_joint* m = &joint->motor;
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    carom_vec2 anchor_a = carom_joint_anchor_a(joint, context->states);
    carom_vec2 anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_joint_apply(joint, &v, anchor_a, anchor_b, m->linear_impulse, m->angular_impulse);
    carom_joint_write_velocities(joint, context->states, &v);
}

static void solve_angle(carom_joint* joint, carom_joint_velocities* v,
                        const carom_joint_context* context) {
    carom_motor_joint* m = &joint->motor;
    double c = carom_joint_angle_now(joint, context->states);
    double bias = context->inv_h * m->correction_factor * c;
    double impulse =
        carom_joint_motor_impulse(&m->angular_impulse, m->axial_mass,
                                  v->angular_b - v->angular_a + bias, context->h * m->max_torque);
    v->angular_a -= joint->inv_inertia_a * impulse;
    v->angular_b += joint->inv_inertia_b * impulse;
}

static void solve_point(carom_joint* joint, carom_joint_velocities* v,
                        const carom_joint_context* context) {
    carom_motor_joint* m = &joint->motor;
    carom_vec2 anchor_a = carom_joint_anchor_a(joint, context->states);
    carom_vec2 anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_vec2 c = carom_joint_separation(joint, context->states, anchor_a, anchor_b);
    carom_vec2 cdot = carom_joint_relative_velocity(v, anchor_a, anchor_b);
    carom_vec2 target = carom_mul_add(cdot, context->inv_h * m->correction_factor, c);
    carom_mat22 k = carom_joint_point_mass(joint, anchor_a, anchor_b);
    carom_vec2 impulse = carom_neg(carom_mat22_solve(k, target));
    carom_vec2 before = m->linear_impulse;
    carom_vec2 total = carom_add(before, impulse);
    double max_impulse = context->h * m->max_force;
    double length = carom_length(total);
    if (length > max_impulse) {
        total = carom_scale(max_impulse / length, total);
    }
    m->linear_impulse = total;
    carom_joint_apply(joint, v, anchor_a, anchor_b, carom_sub(total, before), 0.0);
}

void carom_motor_joint_solve(carom_joint* joint, const carom_joint_context* context,
                             bool use_bias) {
    (void)use_bias;
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    solve_angle(joint, &v, context);
    solve_point(joint, &v, context);
    carom_joint_write_velocities(joint, context->states, &v);
}

void carom_motor_joint_reaction(carom_joint* joint, double inv_h) {
    joint->reaction_force = carom_scale(inv_h, joint->motor.linear_impulse);
    joint->reaction_torque = inv_h * joint->motor.angular_impulse;
}
