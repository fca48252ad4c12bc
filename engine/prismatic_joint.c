/* The prismatic joint: a slider. Body B's anchor stays on a line through body A's anchor along an
 * axis fixed in A, and B does not turn relative to A: two soft rows (across the axis, and the
 * angle) solved together as a 2x2 block. Along the axis the translation may be limited, driven by
 * a motor, and pulled towards 0 by a spring.
 * The rows along and across the axis are those of joint.h (carom_joint_slider_geometry).
 * Order within a solve: spring, motor, limits, then the block, which matters most. */
#include "core.h"

#include "joint.h"

void carom_prismatic_joint_prepare(carom_joint* joint, const carom_joint_context* context) {
    carom_prismatic_joint* p = &joint->prismatic;
    p->axis = carom_rotate(joint->rotation_a, p->local_axis_a);
    p->spring = carom_joint_spring_softness(p->hertz, p->damping_ratio, context);
}

static double axial_impulse(const carom_prismatic_joint* p) {
    return p->spring_impulse + p->motor_impulse + p->lower_impulse - p->upper_impulse;
}

void carom_prismatic_joint_warm_start(carom_joint* joint, const carom_joint_context* context) {
    carom_prismatic_joint* p = &joint->prismatic;
    carom_slider_geometry g =
        carom_joint_slider_geometry(joint, context->states, joint->prismatic.axis);
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    carom_joint_apply_row(joint, &v, g.axis, g.axial_a, g.axial_b, axial_impulse(p), 0.0);
    carom_joint_apply_row(joint, &v, g.perp, g.perp_a, g.perp_b, p->perpendicular_impulse,
                          p->angular_impulse);
    carom_joint_write_velocities(joint, context->states, &v);
}

static void solve_axis(carom_joint* joint, carom_joint_velocities* v,
                       const carom_slider_geometry* g, const carom_joint_context* context,
                       bool use_bias) {
    carom_prismatic_joint* p = &joint->prismatic;
    double mass = carom_joint_row_mass(joint, g->axial_a, g->axial_b);
    double translation = carom_dot(g->axis, g->d);
    if (p->enable_spring && p->hertz > 0.0) {
        double cdot = carom_joint_row_velocity(v, g->axis, g->axial_a, g->axial_b);
        double impulse =
            carom_joint_spring_impulse(&p->spring_impulse, mass, translation, cdot, &p->spring);
        carom_joint_apply_row(joint, v, g->axis, g->axial_a, g->axial_b, impulse, 0.0);
    }
    if (p->enable_motor) {
        double cdot = carom_joint_row_velocity(v, g->axis, g->axial_a, g->axial_b) - p->motor_speed;
        double impulse = carom_joint_motor_impulse(&p->motor_impulse, mass, cdot,
                                                   context->h * p->max_motor_force);
        carom_joint_apply_row(joint, v, g->axis, g->axial_a, g->axial_b, impulse, 0.0);
    }
    if (p->enable_limit) {
        carom_joint_solve_axis_limits(joint, v, g, mass, translation, p->lower_translation,
                                      p->upper_translation, &p->lower_impulse,
                                      &p->upper_impulse, context, use_bias);
    }
}

/* Across the axis and the angle, together. */
static void solve_block(carom_joint* joint, carom_joint_velocities* v,
                        const carom_slider_geometry* g, const carom_joint_context* context,
                        bool use_bias) {
    carom_prismatic_joint* p = &joint->prismatic;
    double ia = joint->inv_inertia_a, ib = joint->inv_inertia_b;
    carom_mat22 k;
    k.k11 = joint->inv_mass_a + joint->inv_mass_b + ia * g->perp_a * g->perp_a +
            ib * g->perp_b * g->perp_b;
    k.k12 = ia * g->perp_a + ib * g->perp_b;
    k.k21 = k.k12;
    k.k22 = ia + ib;
    if (k.k22 == 0.0) {
        k.k22 = 1.0; /* neither body turns: the angle row is void */
    }
    carom_vec2 cdot = {carom_joint_row_velocity(v, g->perp, g->perp_a, g->perp_b),
                       v->angular_b - v->angular_a};
    carom_vec2 bias = {0.0, 0.0};
    double mass_scale = 1.0, impulse_scale = 0.0;
    if (use_bias) {
        carom_vec2 c = {carom_dot(g->perp, g->d), carom_joint_angle_now(joint, context->states)};
        bias = carom_scale(context->rigid.bias_rate, c);
        bias.x = carom_joint_clamp_bias(bias.x, context); /* the row across; the angle is bounded */
        mass_scale = context->rigid.mass_scale;
        impulse_scale = context->rigid.impulse_scale;
    }
    carom_vec2 b = carom_mat22_solve(k, carom_add(cdot, bias));
    double perp_impulse = -mass_scale * b.x - impulse_scale * p->perpendicular_impulse;
    double angular_impulse = -mass_scale * b.y - impulse_scale * p->angular_impulse;
    p->perpendicular_impulse += perp_impulse;
    p->angular_impulse += angular_impulse;
    carom_joint_apply_row(joint, v, g->perp, g->perp_a, g->perp_b, perp_impulse, angular_impulse);
}

void carom_prismatic_joint_solve(carom_joint* joint, const carom_joint_context* context,
                                 bool use_bias) {
    carom_slider_geometry g =
        carom_joint_slider_geometry(joint, context->states, joint->prismatic.axis);
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    solve_axis(joint, &v, &g, context, use_bias);
    solve_block(joint, &v, &g, context, use_bias);
    carom_joint_write_velocities(joint, context->states, &v);
}

void carom_prismatic_joint_reaction(carom_joint* joint, double inv_h) {
    const carom_prismatic_joint* p = &joint->prismatic;
    carom_vec2 perp = carom_left_perp(p->axis);
    carom_vec2 impulse = carom_add(carom_scale(axial_impulse(p), p->axis),
                                   carom_scale(p->perpendicular_impulse, perp));
    joint->reaction_force = carom_scale(inv_h, impulse);
    joint->reaction_torque = inv_h * p->angular_impulse;
}
