/* The weld joint: body B keeps its position and angle relative to body A. Two parts solved one
 * after the other, the angle first: the point constraint (two rows, as a revolute joint's) and
 * the angle row. Each is rigid (soft with the world's joint softness in the biased pass, as
 * every rigid row; nothing in the relax pass) or, with its own hertz, a spring that acts in both
 * passes: a soft weld bends and sways like a stiff branch. */
#include "core.h"

#include "joint.h"

/* The softness of a part: its own spring, or the world's for a rigid part. */
static carom_softness part_softness(double hertz, double damping_ratio,
                                    const carom_joint_context* context) {
    return hertz > 0.0 ? carom_joint_spring_softness(hertz, damping_ratio, context)
                       : context->rigid;
}

void carom_weld_joint_prepare(carom_joint* joint, const carom_joint_context* context) {
    carom_weld_joint* w = &joint->weld;
    w->axial_mass = carom_joint_inverse(joint->inv_inertia_a + joint->inv_inertia_b);
    w->linear = part_softness(w->linear_hertz, w->linear_damping_ratio, context);
    w->angular = part_softness(w->angular_hertz, w->angular_damping_ratio, context);
}

void carom_weld_joint_warm_start(carom_joint* joint, const carom_joint_context* context) {
    carom_weld_joint* w = &joint->weld;
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    carom_vec2 anchor_a = carom_joint_anchor_a(joint, context->states);
    carom_vec2 anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_joint_apply(joint, &v, anchor_a, anchor_b, w->linear_impulse, w->angular_impulse);
    carom_joint_write_velocities(joint, context->states, &v);
}

/* What a part uses this pass: its softness when biased or when it is a spring, else none. */
static carom_joint_row_softness pass_softness(const carom_softness* soft, double hertz,
                                              bool use_bias) {
    carom_joint_row_softness s = {soft->bias_rate, soft->mass_scale, soft->impulse_scale};
    if (!use_bias && hertz == 0.0) {
        s.bias = 0.0;
        s.mass_scale = 1.0;
        s.impulse_scale = 0.0;
    }
    return s;
}

static void solve_angle(carom_joint* joint, carom_joint_velocities* v,
                        const carom_joint_context* context, bool use_bias) {
    carom_weld_joint* w = &joint->weld;
    carom_joint_row_softness s = pass_softness(&w->angular, w->angular_hertz, use_bias);
    double c = carom_joint_angle_now(joint, context->states);
    double cdot = v->angular_b - v->angular_a;
    double impulse =
        -w->axial_mass * s.mass_scale * (cdot + s.bias * c) - s.impulse_scale * w->angular_impulse;
    w->angular_impulse += impulse;
    v->angular_a -= joint->inv_inertia_a * impulse;
    v->angular_b += joint->inv_inertia_b * impulse;
}

static void solve_point(carom_joint* joint, carom_joint_velocities* v,
                        const carom_joint_context* context, bool use_bias) {
    carom_weld_joint* w = &joint->weld;
    carom_joint_row_softness s = pass_softness(&w->linear, w->linear_hertz, use_bias);
    carom_vec2 anchor_a = carom_joint_anchor_a(joint, context->states);
    carom_vec2 anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_vec2 c = carom_joint_separation(joint, context->states, anchor_a, anchor_b);
    carom_vec2 cdot = carom_joint_relative_velocity(v, anchor_a, anchor_b);
    carom_mat22 k = carom_joint_point_mass(joint, anchor_a, anchor_b);
    carom_vec2 bias = carom_scale(s.bias, c);
    if (w->linear_hertz == 0.0) {
        bias = carom_joint_clamp_bias2(bias, context); /* rigid: corrected at most at max_push */
    }
    carom_vec2 b = carom_mat22_solve(k, carom_add(cdot, bias));
    carom_vec2 impulse = carom_v2(-s.mass_scale * b.x - s.impulse_scale * w->linear_impulse.x,
                                  -s.mass_scale * b.y - s.impulse_scale * w->linear_impulse.y);
    w->linear_impulse = carom_add(w->linear_impulse, impulse);
    carom_joint_apply(joint, v, anchor_a, anchor_b, impulse, 0.0);
}

void carom_weld_joint_solve(carom_joint* joint, const carom_joint_context* context, bool use_bias) {
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    solve_angle(joint, &v, context, use_bias);
    solve_point(joint, &v, context, use_bias);
    carom_joint_write_velocities(joint, context->states, &v);
}

void carom_weld_joint_reaction(carom_joint* joint, double inv_h) {
    joint->reaction_force = carom_scale(inv_h, joint->weld.linear_impulse);
    joint->reaction_torque = inv_h * joint->weld.angular_impulse;
}
