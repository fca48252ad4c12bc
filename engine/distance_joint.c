/* The distance joint: a rod, a rope or a spring between a point of each body. One row along the
 * line between the anchors: rigid (soft with the world's joint softness, like every rigid row)
 * at the rest length, or a spring about it; and, if enabled, a minimum and a maximum length,
 * which act like contacts: a gap still open is closed within the substep and no further, so a
 * rope goes slack and snaps taut without bouncing.
 *
 * The row's direction is the current line between the anchors, so it turns as the bodies move;
 * when the anchors meet (closer than 1e-12 m) it has no direction and the row does nothing for
 * that solve. */
#include "core.h"

#include "joint.h"

void carom_distance_joint_prepare(carom_joint* joint, const carom_joint_context* context) {
    carom_distance_joint* d = &joint->distance;
    d->spring = carom_joint_spring_softness(d->hertz, d->damping_ratio, context);
}

/* The line between the anchors now. */
typedef struct rod_geometry {
    carom_vec2 anchor_a, anchor_b;
    carom_vec2 axis;     /* unit, anchor A to anchor B; zero when they meet */
    double length;       /* m */
    double arm_a, arm_b; /* rA x axis, rB x axis */
    double mass;         /* effective mass along the axis */
} rod_geometry;

static rod_geometry geometry_now(const carom_joint* joint, const carom_joint_context* context) {
    rod_geometry g;
    g.anchor_a = carom_joint_anchor_a(joint, context->states);
    g.anchor_b = carom_joint_anchor_b(joint, context->states);
    carom_vec2 d = carom_joint_separation(joint, context->states, g.anchor_a, g.anchor_b);
    g.length = carom_length(d);
    g.axis = g.length > 1e-12 ? carom_scale(1.0 / g.length, d) : carom_v2(0.0, 0.0);
    g.arm_a = carom_cross(g.anchor_a, g.axis);
    g.arm_b = carom_cross(g.anchor_b, g.axis);
    g.mass = carom_joint_inverse(joint->inv_mass_a + joint->inv_mass_b +
                                 joint->inv_inertia_a * g.arm_a * g.arm_a +
                                 joint->inv_inertia_b * g.arm_b * g.arm_b);
    return g;
}

static double axial_impulse(const carom_distance_joint* d) {
    return d->impulse + d->spring_impulse + d->lower_impulse - d->upper_impulse;
}

static void apply_axial(const carom_joint* joint, carom_joint_velocities* v, const rod_geometry* g,
                        double impulse) {
    carom_joint_apply(joint, v, g->anchor_a, g->anchor_b, carom_scale(impulse, g->axis), 0.0);
}

static double axial_velocity(const carom_joint_velocities* v, const rod_geometry* g) {
    return carom_dot(g->axis, carom_joint_relative_velocity(v, g->anchor_a, g->anchor_b));
}

void carom_distance_joint_warm_start(carom_joint* joint, const carom_joint_context* context) {
    rod_geometry g = geometry_now(joint, context);
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    apply_axial(joint, &v, &g, axial_impulse(&joint->distance));
    carom_joint_write_velocities(joint, context->states, &v);
}

/* The rod: soft with the world's joint softness in the biased pass, rigid in the relax pass. */
static double rod_impulse(carom_distance_joint* d, const rod_geometry* g, double cdot,
                          const carom_joint_context* context, bool use_bias) {
    double bias = 0.0, mass_scale = 1.0, impulse_scale = 0.0;
    if (use_bias) {
        bias = carom_joint_clamp_bias(context->rigid.bias_rate * (g->length - d->length), context);
        mass_scale = context->rigid.mass_scale;
        impulse_scale = context->rigid.impulse_scale;
    }
    double impulse = -mass_scale * g->mass * (cdot + bias) - impulse_scale * d->impulse;
    d->impulse += impulse;
    return impulse;
}

void carom_distance_joint_solve(carom_joint* joint, const carom_joint_context* context,
                                bool use_bias) {
    carom_distance_joint* d = &joint->distance;
    rod_geometry g = geometry_now(joint, context);
    carom_joint_velocities v = carom_joint_read_velocities(joint, context->states);
    if (!d->enable_spring) {
        apply_axial(joint, &v, &g, rod_impulse(d, &g, axial_velocity(&v, &g), context, use_bias));
    } else if (d->hertz > 0.0) {
        double impulse = carom_joint_spring_impulse(
            &d->spring_impulse, g.mass, g.length - d->length, axial_velocity(&v, &g), &d->spring);
        apply_axial(joint, &v, &g, impulse);
    }
    if (d->enable_limit) {
        double lower =
            carom_joint_limit_impulse(&d->lower_impulse, g.mass, g.length - d->min_length,
                                      axial_velocity(&v, &g), context, use_bias, true);
        apply_axial(joint, &v, &g, lower);
        double upper =
            carom_joint_limit_impulse(&d->upper_impulse, g.mass, d->max_length - g.length,
                                      -axial_velocity(&v, &g), context, use_bias, true);
        apply_axial(joint, &v, &g, -upper);
    }
    d->axis = g.axis;
    carom_joint_write_velocities(joint, context->states, &v);
}

void carom_distance_joint_reaction(carom_joint* joint, double inv_h) {
    const carom_distance_joint* d = &joint->distance;
    joint->reaction_force = carom_scale(inv_h * axial_impulse(d), d->axis);
    joint->reaction_torque = 0.0;
}
