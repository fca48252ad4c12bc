/* Joints: the public getters and setters (bodies, reactions, angle and translation, motors,
 * the mouse target, events) and the exact frames state files write and read back. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- Getters and setters ------------------------------------------------------------------ */

carom_joint_type carom_joint_get_type(carom_joint_id id) {
    carom_joint* joint = carom_joint_resolve(id, NULL, "carom_joint_get_type");
    return joint != NULL ? joint->type : CAROM_JOINT_REVOLUTE;
}

static carom_body_id body_of(carom_joint_id id, int edge, const char* what) {
    carom_world* world = NULL;
    carom_joint* joint = carom_joint_resolve(id, &world, what);
    if (joint == NULL || joint->edges[edge].body < 0) {
        return carom_null_body_id;
    }
    return carom_make_body_id(world, &world->bodies[joint->edges[edge].body]);
}

carom_body_id carom_joint_get_body_a(carom_joint_id id) {
    return body_of(id, 0, "carom_joint_get_body_a");
}

carom_body_id carom_joint_get_body_b(carom_joint_id id) {
    return body_of(id, 1, "carom_joint_get_body_b");
}

int carom_joint_get_collide_connected(carom_joint_id id) {
    carom_joint* joint = carom_joint_resolve(id, NULL, "carom_joint_get_collide_connected");
    return joint != NULL && joint->collide_connected;
}

void* carom_joint_get_user_data(carom_joint_id id) {
    carom_joint* joint = carom_joint_resolve(id, NULL, "carom_joint_get_user_data");
    return joint != NULL ? joint->user_data : NULL;
}

carom_status carom_joint_set_user_data(carom_joint_id id, void* user_data) {
    carom_joint* joint = carom_joint_resolve(id, NULL, "set a joint's user data");
    if (joint == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    joint->user_data = user_data;
    return CAROM_OK;
}

carom_vec2 carom_joint_get_reaction_force(carom_joint_id id) {
    carom_joint* joint = carom_joint_resolve(id, NULL, "carom_joint_get_reaction_force");
    return joint != NULL ? joint->reaction_force : carom_v2(0.0, 0.0);
}

double carom_joint_get_reaction_torque(carom_joint_id id) {
    carom_joint* joint = carom_joint_resolve(id, NULL, "carom_joint_get_reaction_torque");
    return joint != NULL ? joint->reaction_torque : 0.0;
}

/* The world poses of a joint's bodies (the world's identity for a mouse joint's A). */
static carom_transform body_transform(const carom_world* world, const carom_joint* joint,
                                      int edge) {
    int body = joint->edges[edge].body;
    return body >= 0 ? world->bodies[body].transform : carom_transform_identity();
}

double carom_joint_get_angle(carom_joint_id id) {
    carom_world* world = NULL;
    carom_joint* joint = carom_joint_resolve(id, &world, "carom_joint_get_angle");
    if (joint == NULL) {
        return 0.0;
    }
    if (joint->type != CAROM_JOINT_REVOLUTE && joint->type != CAROM_JOINT_WELD &&
        joint->type != CAROM_JOINT_MOTOR) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                   "carom_joint_get_angle: joint %d is not a revolute, weld or motor joint",
                   joint->id);
        return 0.0;
    }
    carom_rot relative =
        carom_inv_mul_rot(body_transform(world, joint, 0).q, body_transform(world, joint, 1).q);
    return carom_rot_get_angle(carom_inv_mul_rot(joint->reference_rotation, relative));
}

double carom_joint_get_translation(carom_joint_id id) {
    carom_world* world = NULL;
    carom_joint* joint = carom_joint_resolve(id, &world, "carom_joint_get_translation");
    if (joint == NULL) {
        return 0.0;
    }
    carom_transform xf_a = body_transform(world, joint, 0);
    carom_vec2 d =
        carom_sub(carom_transform_point(body_transform(world, joint, 1), joint->local_anchor_b),
                  carom_transform_point(xf_a, joint->local_anchor_a));
    switch (joint->type) {
    case CAROM_JOINT_PRISMATIC:
        return carom_dot(d, carom_rotate(xf_a.q, joint->prismatic.local_axis_a));
    case CAROM_JOINT_WHEEL:
        return carom_dot(d, carom_rotate(xf_a.q, joint->wheel.local_axis_a));
    case CAROM_JOINT_DISTANCE:
        return carom_length(d);
    default:
        carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                   "carom_joint_get_translation: joint %d is not a prismatic, wheel or distance "
                   "joint",
                   joint->id);
        return 0.0;
    }
}

static void wake_joint_bodies(carom_world* world, const carom_joint* joint) {
    for (int e = 0; e < 2; ++e) {
        if (joint->edges[e].body >= 0) {
            carom_wake_body(world, &world->bodies[joint->edges[e].body]);
        }
    }
}

carom_status carom_joint_set_motor_speed(carom_joint_id id, double speed) {
    carom_world* world = NULL;
    carom_joint* joint = carom_joint_resolve(id, &world, "set a joint's motor speed");
    if (joint == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set a joint's motor speed");
    if (status == CAROM_OK) {
        status = carom_check_finite(speed, "joint motor speed");
    }
    if (status == CAROM_OK && joint->type != CAROM_JOINT_REVOLUTE &&
        joint->type != CAROM_JOINT_PRISMATIC && joint->type != CAROM_JOINT_WHEEL) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "joint %d has no motor speed: only revolute, prismatic and wheel "
                            "joints do",
                            joint->id);
    }
    if (status != CAROM_OK) {
        return status;
    }
    if (joint->type == CAROM_JOINT_REVOLUTE) {
        joint->revolute.motor_speed = speed;
    } else if (joint->type == CAROM_JOINT_PRISMATIC) {
        joint->prismatic.motor_speed = speed;
    } else {
        joint->wheel.motor_speed = speed;
    }
    wake_joint_bodies(world, joint);
    return CAROM_OK;
}

carom_status carom_mouse_joint_set_target(carom_joint_id id, carom_vec2 target) {
    carom_world* world = NULL;
    carom_joint* joint = carom_joint_resolve(id, &world, "set a mouse joint's target");
    if (joint == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set a mouse joint's target");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(target.x, target.y, "mouse joint target");
    }
    if (status == CAROM_OK && joint->type != CAROM_JOINT_MOUSE) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE, "joint %d is not a mouse joint", joint->id);
    }
    if (status != CAROM_OK) {
        return status;
    }
    joint->local_anchor_a = target;
    wake_joint_bodies(world, joint);
    return CAROM_OK;
}

carom_joint_events carom_world_get_joint_events(carom_world_id id) {
    carom_joint_events events = {NULL, 0};
    carom_world* world = carom_get_world_checked(id);
    if (world != NULL) {
        events.break_events = world->joint_break_events;
        events.break_count = (int)arrlen(world->joint_break_events);
    }
    return events;
}

/* ---- Frames ------------------------------------------------------------------------------- */

static carom_vec2 local_axis_of(const carom_joint* joint) {
    return joint->type == CAROM_JOINT_PRISMATIC ? joint->prismatic.local_axis_a
           : joint->type == CAROM_JOINT_WHEEL   ? joint->wheel.local_axis_a
                                                : carom_v2(1.0, 0.0);
}

carom_status carom_joint_get_frame(carom_joint_id id, carom_joint_frame* out) {
    carom_joint* joint = carom_joint_resolve(id, NULL, "get a joint's frame");
    if (joint == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    if (out == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "joint frame output pointer is NULL");
    }
    out->local_anchor_a = joint->local_anchor_a;
    out->local_anchor_b = joint->local_anchor_b;
    out->reference_rotation = joint->reference_rotation;
    out->local_axis_a = local_axis_of(joint);
    out->length = joint->type == CAROM_JOINT_DISTANCE ? joint->distance.length : 0.0;
    return CAROM_OK;
}

static bool unit(carom_vec2 v) {
    return fabs(v.x * v.x + v.y * v.y - 1.0) <= CAROM_ROTATION_TOLERANCE;
}

static carom_status check_frame(const carom_joint* joint, const carom_joint_frame* frame) {
    carom_status status = carom_check_finite_vec2(frame->local_anchor_a.x, frame->local_anchor_a.y,
                                                  "joint frame local_anchor_a");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(frame->local_anchor_b.x, frame->local_anchor_b.y,
                                         "joint frame local_anchor_b");
    }
    carom_rot q = frame->reference_rotation;
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(q.c, q.s, "joint frame reference_rotation");
    }
    if (status == CAROM_OK && !unit(carom_v2(q.c, q.s))) {
        status =
            carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                       "joint frame reference_rotation (%g, %g) is not a unit vector", q.c, q.s);
    }
    carom_vec2 axis = frame->local_axis_a;
    bool slides = joint->type == CAROM_JOINT_PRISMATIC || joint->type == CAROM_JOINT_WHEEL;
    if (status == CAROM_OK && (slides ? !(isfinite(axis.x) && isfinite(axis.y) && unit(axis))
                                      : axis.x != 1.0 || axis.y != 0.0)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            slides ? "joint frame local_axis_a (%g, %g) is not a unit vector"
                                   : "joint frame local_axis_a is (%g, %g): a joint without an "
                                     "axis takes (1, 0)",
                            axis.x, axis.y);
    }
    if (status == CAROM_OK && joint->type == CAROM_JOINT_DISTANCE) {
        carom_joint copy = *joint;
        copy.distance.length = frame->length;
        status = carom_check_joint_record(&copy);
    } else if (status == CAROM_OK && frame->length != 0.0) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "joint frame length is %g: only a distance joint has one (0 for the "
                            "others)",
                            frame->length);
    }
    return status;
}

carom_status carom_joint_set_frame(carom_joint_id id, const carom_joint_frame* frame) {
    carom_world* world = NULL;
    carom_joint* joint = carom_joint_resolve(id, &world, "set a joint's frame");
    if (joint == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set a joint's frame");
    if (status == CAROM_OK && frame == NULL) {
        status = carom_fail(CAROM_ERROR_NULL_ARGUMENT, "joint frame is NULL");
    }
    if (status == CAROM_OK) {
        status = check_frame(joint, frame);
    }
    if (status != CAROM_OK) {
        return status;
    }
    joint->local_anchor_a = frame->local_anchor_a;
    joint->local_anchor_b = frame->local_anchor_b;
    joint->reference_rotation = frame->reference_rotation;
    if (joint->type == CAROM_JOINT_PRISMATIC) {
        joint->prismatic.local_axis_a = frame->local_axis_a;
    } else if (joint->type == CAROM_JOINT_WHEEL) {
        joint->wheel.local_axis_a = frame->local_axis_a;
    } else if (joint->type == CAROM_JOINT_DISTANCE) {
        joint->distance.length = frame->length;
    } else if (joint->type == CAROM_JOINT_MOTOR) {
        joint->motor.linear_offset = frame->local_anchor_a;
    }
    wake_joint_bodies(world, joint);
    return CAROM_OK;
}
