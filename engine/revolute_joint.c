/* The revolute joint: a hinge. Body B's anchor is held on body A's (a soft point constraint, two
 * rows solved together); about it the relative angle may be limited, driven by a motor, and
 * pulled towards 0 by a rotational spring.
 *
 * Order within a solve: spring, motor, limits, point. The point constraint goes last because it
 * matters most: whatever the others leave, the hinge holds together first.
 *
 * The angle: 0 at creation, B's angle minus A's, wrapped to [-pi, pi] at the start of each step
 * (joint_solver.c); a limit acts on that. Rows of the angle have the effective mass
 * 1 / (inverse inertia of A + of B). */
#include "core.h"

#include "joint.h"

void carom_revolute_joint_prepare(carom_joint* joint, const carom_joint_context* context) {
    carom_revolute_joint* r = &joint->revolute;
    r->axial_mass = carom_joint_inverse(joint->inv_inertia_a + joint->inv_inertia_b);
    r->spring = carom_joint_spring_softness(r->hertz, r->damping_ratio, context);
}

/* The accumulated impulse about the axis: what the spring, motor and limits push with. */
static double axial_impulse(const carom_revolute_joint* r) {
    return r->spring_impulse + r->motor_impulse + r->lower_impulse - r->upper_impulse;
}

void carom_revolute_joint_warm_start(carom_joint* joint, const carom_joint_context* context) {
    carom_revolute_joint* r = &joint->revolute;
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    carom_vec2 anchor_a = carom_joint_anchor_a(joint, context->states);
    carom_vec2 anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_joint_apply(joint, &v, anchor_a, anchor_b, r->linear_impulse, axial_impulse(r));
    carom_joint_write_velocities(joint, context->states, &v);
}

/* Turn both bodies by an impulse about the axis (B forwards, A back). */
static void apply_angular(const carom_joint* joint, carom_joint_velocities* v, double impulse) {
    v->angular_a -= joint->inv_inertia_a * impulse;
    v->angular_b += joint->inv_inertia_b * impulse;
}

static void solve_limits(carom_joint* joint, carom_joint_velocities* v, double angle,
                         const carom_joint_context* context, bool use_bias) {
    carom_revolute_joint* r = &joint->revolute;
    double lower =
        carom_joint_limit_impulse(&r->lower_impulse, r->axial_mass, angle - r->lower_angle,
                                  v->angular_b - v->angular_a, context, use_bias, false);
    apply_angular(joint, v, lower);
    double upper =
        carom_joint_limit_impulse(&r->upper_impulse, r->axial_mass, r->upper_angle - angle,
                                  v->angular_a - v->angular_b, context, use_bias, false);
    apply_angular(joint, v, -upper);
}

static void solve_point(carom_joint* joint, carom_joint_velocities* v,
                        const carom_joint_context* context, bool use_bias) {
    carom_revolute_joint* r = &joint->revolute;
    carom_vec2 anchor_a = carom_joint_anchor_a(joint, context->states);
    carom_vec2 anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_vec2 cdot = carom_joint_relative_velocity(v, anchor_a, anchor_b);
    carom_vec2 bias = {0.0, 0.0};
    double mass_scale = 1.0, impulse_scale = 0.0;
    if (use_bias) {
        carom_vec2 separation = carom_joint_separation(joint, context->states, anchor_a, anchor_b);
        bias = carom_joint_clamp_bias2(carom_scale(context->rigid.bias_rate, separation), context);
        mass_scale = context->rigid.mass_scale;
        impulse_scale = context->rigid.impulse_scale;
    }
    carom_mat22 k = carom_joint_point_mass(joint, anchor_a, anchor_b);
    carom_vec2 b = carom_mat22_solve(k, carom_add(cdot, bias));
    carom_vec2 impulse = carom_v2(-mass_scale * b.x - impulse_scale * r->linear_impulse.x,
                                  -mass_scale * b.y - impulse_scale * r->linear_impulse.y);
    r->linear_impulse = carom_add(r->linear_impulse, impulse);
    carom_joint_apply(joint, v, anchor_a, anchor_b, impulse, 0.0);
}

void carom_revolute_joint_solve(carom_joint* joint, const carom_joint_context* context,
                                bool use_bias) {
    carom_revolute_joint* r = &joint->revolute;
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    double angle = carom_joint_angle_now(joint, context->states);
    if (r->enable_spring && r->hertz > 0.0) {
        double impulse = carom_joint_spring_impulse(&r->spring_impulse, r->axial_mass, angle,
                                                    v.angular_b - v.angular_a, &r->spring);
        apply_angular(joint, &v, impulse);
    }
    if (r->enable_motor) {
        double impulse = carom_joint_motor_impulse(&r->motor_impulse, r->axial_mass,
                                                   v.angular_b - v.angular_a - r->motor_speed,
                                                   context->h * r->max_motor_torque);
        apply_angular(joint, &v, impulse);
    }
    if (r->enable_limit) {
        solve_limits(joint, &v, angle, context, use_bias);
    }
    solve_point(joint, &v, context, use_bias);
    carom_joint_write_velocities(joint, context->states, &v);
}

void carom_revolute_joint_reaction(carom_joint* joint, double inv_h) {
    const carom_revolute_joint* r = &joint->revolute;
    joint->reaction_force = carom_scale(inv_h, r->linear_impulse);
    joint->reaction_torque = inv_h * axial_impulse(r);
}
