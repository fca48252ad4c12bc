/* Joints: every kind's def checked at the API (and a snapshot's joint records held to the same
 * rules), each failure a status with a message naming the kind and the value. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- Validation ------------------------------------------------------------------------- */

static carom_status check_cookie(int cookie, const char* kind) {
    if (cookie != CAROM_DEF_COOKIE) {
        return carom_fail(CAROM_ERROR_INVALID_DEF,
                          "%s joint def was not made by carom_default_%s_joint_def(): start from "
                          "it and change the fields you need",
                          kind, kind);
    }
    return CAROM_OK;
}

/* The fields every def has. */
static carom_status check_common(double break_force, double break_torque, const char* kind) {
    char what[64];
    snprintf(what, sizeof(what), "%s joint break_force", kind);
    carom_status status = carom_check_non_negative(break_force, what);
    if (status == CAROM_OK) {
        snprintf(what, sizeof(what), "%s joint break_torque", kind);
        status = carom_check_non_negative(break_torque, what);
    }
    return status;
}

static carom_status check_range(double lower, double upper, const char* lower_name,
                                const char* upper_name) {
    carom_status status = carom_check_finite(lower, lower_name);
    if (status == CAROM_OK) {
        status = carom_check_finite(upper, upper_name);
    }
    if (status == CAROM_OK && lower > upper) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "%s (%g) is greater than %s (%g): the lower limit must not exceed the "
                            "upper",
                            lower_name, lower, upper_name, upper);
    }
    return status;
}

static carom_status check_spring(double hertz, double damping_ratio, const char* kind) {
    char what[64];
    snprintf(what, sizeof(what), "%s joint hertz", kind);
    carom_status status = carom_check_non_negative(hertz, what);
    if (status == CAROM_OK) {
        snprintf(what, sizeof(what), "%s joint damping_ratio", kind);
        status = carom_check_non_negative(damping_ratio, what);
    }
    return status;
}

/* An axis: finite and long enough to have a direction. */
static carom_status check_axis(carom_vec2 axis, const char* what) {
    carom_status status = carom_check_finite_vec2(axis.x, axis.y, what);
    if (status == CAROM_OK && !(carom_length(axis) > 1e-9)) {
        status =
            carom_fail(CAROM_ERROR_OUT_OF_RANGE, "%s is (%g, %g): it must be a non-zero direction",
                       what, axis.x, axis.y);
    }
    return status;
}

carom_status carom_check_revolute_joint_def(const carom_revolute_joint_def* def) {
    carom_status status = check_cookie(def->internal_cookie, "revolute");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(def->anchor.x, def->anchor.y, "revolute joint anchor");
    }
    if (status == CAROM_OK) {
        status = check_range(def->lower_angle, def->upper_angle, "revolute joint lower_angle",
                             "revolute joint upper_angle");
    }
    if (status == CAROM_OK && (def->lower_angle < -CAROM_PI || def->upper_angle > CAROM_PI)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "revolute joint limit [%g, %g] rad reaches beyond [-pi, pi]: the "
                            "joint angle wraps at +-pi, so a limit spans at most a full turn",
                            def->lower_angle, def->upper_angle);
    }
    if (status == CAROM_OK) {
        status = carom_check_finite(def->motor_speed, "revolute joint motor_speed");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->max_motor_torque, "revolute joint max_motor_torque");
    }
    if (status == CAROM_OK) {
        status = check_spring(def->hertz, def->damping_ratio, "revolute");
    }
    if (status == CAROM_OK) {
        status = check_common(def->break_force, def->break_torque, "revolute");
    }
    return status;
}

carom_status carom_check_prismatic_joint_def(const carom_prismatic_joint_def* def) {
    carom_status status = check_cookie(def->internal_cookie, "prismatic");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(def->anchor.x, def->anchor.y, "prismatic joint anchor");
    }
    if (status == CAROM_OK) {
        status = check_axis(def->axis, "prismatic joint axis");
    }
    if (status == CAROM_OK) {
        status =
            check_range(def->lower_translation, def->upper_translation,
                        "prismatic joint lower_translation", "prismatic joint upper_translation");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite(def->motor_speed, "prismatic joint motor_speed");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->max_motor_force, "prismatic joint max_motor_force");
    }
    if (status == CAROM_OK) {
        status = check_spring(def->hertz, def->damping_ratio, "prismatic");
    }
    if (status == CAROM_OK) {
        status = check_common(def->break_force, def->break_torque, "prismatic");
    }
    return status;
}

carom_status carom_check_distance_joint_def(const carom_distance_joint_def* def) {
    carom_status status = check_cookie(def->internal_cookie, "distance");
    if (status == CAROM_OK) {
        status =
            carom_check_finite_vec2(def->anchor_a.x, def->anchor_a.y, "distance joint anchor_a");
    }
    if (status == CAROM_OK) {
        status =
            carom_check_finite_vec2(def->anchor_b.x, def->anchor_b.y, "distance joint anchor_b");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->length, "distance joint length");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->min_length, "distance joint min_length");
    }
    if (status == CAROM_OK) {
        status = check_range(def->min_length, def->max_length, "distance joint min_length",
                             "distance joint max_length");
    }
    if (status == CAROM_OK) {
        status = check_spring(def->hertz, def->damping_ratio, "distance");
    }
    if (status == CAROM_OK) {
        status = check_common(def->break_force, def->break_torque, "distance");
    }
    if (status == CAROM_OK && def->break_torque != 0.0) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "distance joint break_torque is %g: a distance joint applies no "
                            "torque, so only 0 (never) is accepted; use break_force",
                            def->break_torque);
    }
    return status;
}

carom_status carom_check_weld_joint_def(const carom_weld_joint_def* def) {
    carom_status status = check_cookie(def->internal_cookie, "weld");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(def->anchor.x, def->anchor.y, "weld joint anchor");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->linear_hertz, "weld joint linear_hertz");
    }
    if (status == CAROM_OK) {
        status =
            carom_check_non_negative(def->linear_damping_ratio, "weld joint linear_damping_ratio");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->angular_hertz, "weld joint angular_hertz");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->angular_damping_ratio,
                                          "weld joint angular_damping_ratio");
    }
    if (status == CAROM_OK) {
        status = check_common(def->break_force, def->break_torque, "weld");
    }
    return status;
}

carom_status carom_check_wheel_joint_def(const carom_wheel_joint_def* def) {
    carom_status status = check_cookie(def->internal_cookie, "wheel");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(def->anchor.x, def->anchor.y, "wheel joint anchor");
    }
    if (status == CAROM_OK) {
        status = check_axis(def->axis, "wheel joint axis");
    }
    if (status == CAROM_OK) {
        status = check_spring(def->hertz, def->damping_ratio, "wheel");
    }
    if (status == CAROM_OK) {
        status = check_range(def->lower_translation, def->upper_translation,
                             "wheel joint lower_translation", "wheel joint upper_translation");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite(def->motor_speed, "wheel joint motor_speed");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->max_motor_torque, "wheel joint max_motor_torque");
    }
    if (status == CAROM_OK) {
        status = check_common(def->break_force, def->break_torque, "wheel");
    }
    return status;
}

carom_status carom_check_motor_joint_def(const carom_motor_joint_def* def) {
    carom_status status = check_cookie(def->internal_cookie, "motor");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(def->linear_offset.x, def->linear_offset.y,
                                         "motor joint linear_offset");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite(def->angular_offset, "motor joint angular_offset");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->max_force, "motor joint max_force");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->max_torque, "motor joint max_torque");
    }
    if (status == CAROM_OK) {
        status = carom_check_unit_interval(def->correction_factor, "motor joint correction_factor");
    }
    if (status == CAROM_OK) {
        status = check_common(def->break_force, def->break_torque, "motor");
    }
    return status;
}

carom_status carom_check_mouse_joint_def(const carom_mouse_joint_def* def) {
    carom_status status = check_cookie(def->internal_cookie, "mouse");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(def->target.x, def->target.y, "mouse joint target");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->hertz, "mouse joint hertz");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->damping_ratio, "mouse joint damping_ratio");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->max_force, "mouse joint max_force");
    }
    if (status == CAROM_OK) {
        status = check_common(def->break_force, def->break_torque, "mouse");
    }
    if (status == CAROM_OK && def->break_torque != 0.0) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "mouse joint break_torque is %g: a mouse joint applies no torque, so "
                            "only 0 (never) is accepted; use break_force",
                            def->break_torque);
    }
    return status;
}

carom_status carom_check_joint_record(const carom_joint* joint) {
    switch (joint->type) {
    case CAROM_JOINT_REVOLUTE: {
        const carom_revolute_joint* r = &joint->revolute;
        carom_revolute_joint_def def = carom_default_revolute_joint_def();
        def.lower_angle = r->lower_angle;
        def.upper_angle = r->upper_angle;
        def.motor_speed = r->motor_speed;
        def.max_motor_torque = r->max_motor_torque;
        def.hertz = r->hertz;
        def.damping_ratio = r->damping_ratio;
        def.break_force = joint->break_force;
        def.break_torque = joint->break_torque;
        return carom_check_revolute_joint_def(&def);
    }
    case CAROM_JOINT_PRISMATIC: {
        const carom_prismatic_joint* p = &joint->prismatic;
        carom_prismatic_joint_def def = carom_default_prismatic_joint_def();
        def.axis = p->local_axis_a;
        def.lower_translation = p->lower_translation;
        def.upper_translation = p->upper_translation;
        def.motor_speed = p->motor_speed;
        def.max_motor_force = p->max_motor_force;
        def.hertz = p->hertz;
        def.damping_ratio = p->damping_ratio;
        def.break_force = joint->break_force;
        def.break_torque = joint->break_torque;
        return carom_check_prismatic_joint_def(&def);
    }
    case CAROM_JOINT_DISTANCE: {
        const carom_distance_joint* d = &joint->distance;
        carom_distance_joint_def def = carom_default_distance_joint_def();
        def.length = d->length;
        def.hertz = d->hertz;
        def.damping_ratio = d->damping_ratio;
        def.min_length = d->min_length;
        def.max_length = d->max_length;
        def.break_force = joint->break_force;
        def.break_torque = joint->break_torque;
        carom_status status = carom_check_distance_joint_def(&def);
        if (status == CAROM_OK && !(d->length >= CAROM_MIN_JOINT_LENGTH)) {
            status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                                "distance joint length is %g m: it must be at least %g m",
                                d->length, CAROM_MIN_JOINT_LENGTH);
        }
        if (status == CAROM_OK && d->enable_limit &&
            (d->length < d->min_length || d->length > d->max_length)) {
            status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                                "distance joint length %g m lies outside its limit [%g, %g] m",
                                d->length, d->min_length, d->max_length);
        }
        return status;
    }
    case CAROM_JOINT_WELD: {
        const carom_weld_joint* w = &joint->weld;
        carom_weld_joint_def def = carom_default_weld_joint_def();
        def.linear_hertz = w->linear_hertz;
        def.linear_damping_ratio = w->linear_damping_ratio;
        def.angular_hertz = w->angular_hertz;
        def.angular_damping_ratio = w->angular_damping_ratio;
        def.break_force = joint->break_force;
        def.break_torque = joint->break_torque;
        return carom_check_weld_joint_def(&def);
    }
    case CAROM_JOINT_WHEEL: {
        const carom_wheel_joint* w = &joint->wheel;
        carom_wheel_joint_def def = carom_default_wheel_joint_def();
        def.axis = w->local_axis_a;
        def.hertz = w->hertz;
        def.damping_ratio = w->damping_ratio;
        def.lower_translation = w->lower_translation;
        def.upper_translation = w->upper_translation;
        def.motor_speed = w->motor_speed;
        def.max_motor_torque = w->max_motor_torque;
        def.break_force = joint->break_force;
        def.break_torque = joint->break_torque;
        return carom_check_wheel_joint_def(&def);
    }
    case CAROM_JOINT_MOTOR: {
        const carom_motor_joint* m = &joint->motor;
        carom_motor_joint_def def = carom_default_motor_joint_def();
        def.linear_offset = m->linear_offset;
        def.angular_offset = m->angular_offset;
        def.max_force = m->max_force;
        def.max_torque = m->max_torque;
        def.correction_factor = m->correction_factor;
        def.break_force = joint->break_force;
        def.break_torque = joint->break_torque;
        return carom_check_motor_joint_def(&def);
    }
    case CAROM_JOINT_MOUSE: {
        const carom_mouse_joint* m = &joint->mouse;
        carom_mouse_joint_def def = carom_default_mouse_joint_def();
        def.target = joint->local_anchor_a;
        def.hertz = m->hertz;
        def.damping_ratio = m->damping_ratio;
        def.max_force = m->max_force;
        def.break_force = joint->break_force;
        def.break_torque = joint->break_torque;
        return carom_check_mouse_joint_def(&def);
    }
    }
    return carom_fail(CAROM_ERROR_OUT_OF_RANGE, "joint type %d is not a joint kind",
                      (int)joint->type);
}
