/* The wheel joint: a wheel on a suspension. Body B's anchor (the axle) stays on a line along an
 * axis fixed in body A (the chassis): one rigid row across the axis. Along the axis a spring
 * (the suspension) pulls the translation towards 0, and limits may stop it; the wheel turns
 * freely about the axle, or driven by a motor with a maximum torque.
 *
 * Order within a solve: motor, spring, limits, then the row across, which matters most. */
#include "core.h"

#include "joint.h"

void carom_wheel_joint_prepare(carom_joint* joint, const carom_joint_context* context) {
    carom_wheel_joint* w = &joint->wheel;
    w->axis = carom_rotate(joint->rotation_a, w->local_axis_a);
    w->axial_mass = carom_joint_inverse(joint->inv_inertia_a + joint->inv_inertia_b);
    w->spring = carom_joint_spring_softness(w->hertz, w->damping_ratio, context);
}

static double axial_impulse(const carom_wheel_joint* w) {
    return w->spring_impulse + w->lower_impulse - w->upper_impulse;
}

void carom_wheel_joint_warm_start(carom_joint* joint, const carom_joint_context* context) {
    carom_wheel_joint* w = &joint->wheel;
    carom_slider_geometry g = carom_joint_slider_geometry(joint, context->states, w->axis);
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    carom_joint_apply_row(joint, &v, g.axis, g.axial_a, g.axial_b, axial_impulse(w), 0.0);
    carom_joint_apply_row(joint, &v, g.perp, g.perp_a, g.perp_b, w->perpendicular_impulse,
                          w->motor_impulse);
    carom_joint_write_velocities(joint, context->states, &v);
}

static void solve_motor(carom_joint* joint, carom_joint_velocities* v,
                        const carom_joint_context* context) {
    carom_wheel_joint* w = &joint->wheel;
    double impulse = carom_joint_motor_impulse(&w->motor_impulse, w->axial_mass,
                                               v->angular_b - v->angular_a - w->motor_speed,
                                               context->h * w->max_motor_torque);
    v->angular_a -= joint->inv_inertia_a * impulse;
    v->angular_b += joint->inv_inertia_b * impulse;
}

static void solve_axis(carom_joint* joint, carom_joint_velocities* v,
                       const carom_slider_geometry* g, const carom_joint_context* context,
                       bool use_bias) {
    carom_wheel_joint* w = &joint->wheel;
    double mass = carom_joint_row_mass(joint, g->axial_a, g->axial_b);
    double translation = carom_dot(g->axis, g->d);
    if (w->enable_spring && w->hertz > 0.0) {
        double cdot = carom_joint_row_velocity(v, g->axis, g->axial_a, g->axial_b);
        double impulse =
            carom_joint_spring_impulse(&w->spring_impulse, mass, translation, cdot, &w->spring);
        carom_joint_apply_row(joint, v, g->axis, g->axial_a, g->axial_b, impulse, 0.0);
    }
    if (w->enable_limit) {
        carom_joint_solve_axis_limits(joint, v, g, mass, translation, w->lower_translation,
                                      w->upper_translation, &w->lower_impulse,
                                      &w->upper_impulse, context, use_bias);
    }
}

static void solve_across(carom_joint* joint, carom_joint_velocities* v,
                         const carom_slider_geometry* g, const carom_joint_context* context,
                         bool use_bias) {
    carom_wheel_joint* w = &joint->wheel;
    double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
    if (use_bias) {
        bias = carom_joint_clamp_bias(context->rigid.bias_rate * carom_dot(g->perp, g->d), context);
        mass_scale = context->rigid.mass_scale;
        impulse_scale = context->rigid.impulse_scale;
    }
    double mass = carom_joint_row_mass(joint, g->perp_a, g->perp_b);
    double cdot = carom_joint_row_velocity(v, g->perp, g->perp_a, g->perp_b);
    double impulse = -mass_scale * mass * (cdot + bias) - impulse_scale * w->perpendicular_impulse;
    w->perpendicular_impulse += impulse;
    carom_joint_apply_row(joint, v, g->perp, g->perp_a, g->perp_b, impulse, 0.0);
}

void carom_wheel_joint_solve(carom_joint* joint, const carom_joint_context* context,
                             bool use_bias) {
    carom_wheel_joint* w = &joint->wheel;
    carom_slider_geometry g = carom_joint_slider_geometry(joint, context->states, w->axis);
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    if (w->enable_motor) {
        solve_motor(joint, &v, context);
    }
    solve_axis(joint, &v, &g, context, use_bias);
    solve_across(joint, &v, &g, context, use_bias);
    carom_joint_write_velocities(joint, context->states, &v);
}

void carom_wheel_joint_reaction(carom_joint* joint, double inv_h) {
    const carom_wheel_joint* w = &joint->wheel;
    carom_vec2 impulse = carom_add(carom_scale(axial_impulse(w), w->axis),
                                   carom_scale(w->perpendicular_impulse, carom_left_perp(w->axis)));
    joint->reaction_force = carom_scale(inv_h, impulse);
    joint->reaction_torque = inv_h * w->motor_impulse;
}
