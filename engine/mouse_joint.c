/* The mouse joint: a spring of `hertz` and `damping_ratio` pulls a point of body B towards a
 * target in the world, with at most max_force. Body A is the world: the joint's anchor A is the
 * target itself (world frame) and the rest state stands for A's velocity (zero).
 *
 * A spring, so it acts in both passes; its two rows are solved together and clamped as a
 * vector. */
#include "core.h"

#include "joint.h"

void carom_mouse_joint_prepare(carom_joint* joint, const carom_joint_context* context) {
    carom_mouse_joint* m = &joint->mouse;
    m->spring = carom_joint_spring_softness(m->hertz, m->damping_ratio, context);
}

void carom_mouse_joint_warm_start(carom_joint* joint, const carom_joint_context* context) {
    carom_mouse_joint* m = &joint->mouse;
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    carom_vec2 anchor_a = carom_joint_anchor_a(joint, context->states);
    carom_vec2 anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_joint_apply(joint, &v, anchor_a, anchor_b, m->linear_impulse, 0.0);
    carom_joint_write_velocities(joint, context->states, &v);
}

void carom_mouse_joint_solve(carom_joint* joint, const carom_joint_context* context,
                             bool use_bias) {
    (void)use_bias;
    carom_mouse_joint* m = &joint->mouse;
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    carom_vec2 anchor_a = carom_joint_anchor_a(joint, context->states);
    carom_vec2 anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_vec2 c = carom_joint_separation(joint, context->states, anchor_a, anchor_b);
    carom_vec2 cdot = carom_joint_relative_velocity(&v, anchor_a, anchor_b);
    carom_mat22 k = carom_joint_point_mass(joint, anchor_a, anchor_b);
    carom_vec2 b = carom_mat22_solve(k, carom_mul_add(cdot, m->spring.bias_rate, c));
    carom_vec2 impulse =
        carom_v2(-m->spring.mass_scale * b.x - m->spring.impulse_scale * m->linear_impulse.x,
                 -m->spring.mass_scale * b.y - m->spring.impulse_scale * m->linear_impulse.y);
    carom_vec2 before = m->linear_impulse;
    carom_vec2 total = carom_add(before, impulse);
    double max_impulse = context->h * m->max_force;
    double length = carom_length(total);
    if (length > max_impulse) {
        total = carom_scale(max_impulse / length, total);
    }
    m->linear_impulse = total;
    carom_joint_apply(joint, &v, anchor_a, anchor_b, carom_sub(total, before), 0.0);
    carom_joint_write_velocities(joint, context->states, &v);
}

void carom_mouse_joint_reaction(carom_joint* joint, double inv_h) {
    joint->reaction_force = carom_scale(inv_h, joint->mouse.linear_impulse);
    joint->reaction_torque = 0.0;
}
