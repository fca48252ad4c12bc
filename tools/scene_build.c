/* Scene files: the plain description of scene.h handed to the engine through the public API
 * alone, body by body, shape by shape, joint by joint. */
#define _POSIX_C_SOURCE 200809L
#include "scene_loader.h"

#include "format.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- Building the world ----------------------------------------------------------------- */

static carom_shape_def shape_def_of(const scene_shape* shape) {
    carom_shape_def def = carom_default_shape_def();
    def.density = shape->density;
    def.friction = shape->friction;
    def.restitution = shape->restitution;
    def.is_sensor = shape->sensor;
    def.filter = shape->filter;
    def.enable_hit_events = shape->hit_events;
    def.enable_contact_events = shape->contact_events;
    def.hit_speed_threshold = shape->hit_speed_threshold;
    def.surface_grip = shape->surface_grip;
    def.one_sided = shape->type == SCENE_SHAPE_CHAIN && shape->one_sided;
    return def;
}

static carom_status add_shape(carom_body_id body, const scene_shape* shape) {
    carom_shape_def def = shape_def_of(shape);
    carom_shape_id id = carom_null_shape_id;
    switch (shape->type) {
    case SCENE_SHAPE_CIRCLE: {
        carom_circle circle = {shape->center, shape->radius};
        id = carom_create_circle_shape(body, &def, &circle);
        break;
    }
    case SCENE_SHAPE_BOX:
        id = shape->radius > 0.0
                 ? carom_create_rounded_box_shape(body, &def, shape->half_extents.x,
                                                  shape->half_extents.y, shape->center,
                                                  shape->angle, shape->radius)
                 : carom_create_box_shape(body, &def, shape->half_extents.x,
                                          shape->half_extents.y, shape->center, shape->angle);
        break;
    case SCENE_SHAPE_POLYGON: {
        if (shape->decompose) { /* one shape per convex piece (issue 16) */
            int pieces = 0;
            return carom_create_decomposed_polygon_shapes(body, &def, shape->points,
                                                          shape->point_count, NULL, 0, &pieces);
        }
        carom_polygon polygon;
        if (carom_make_rounded_polygon(shape->points, shape->point_count, shape->radius,
                                       &polygon) != CAROM_OK) {
            return carom_last_status();
        }
        id = carom_create_polygon_shape(body, &def, &polygon);
        break;
    }
    case SCENE_SHAPE_CAPSULE: {
        carom_capsule capsule = {shape->center1, shape->center2, shape->radius};
        id = carom_create_capsule_shape(body, &def, &capsule);
        break;
    }
    case SCENE_SHAPE_SEGMENT: {
        carom_segment segment = {shape->points[0], shape->points[1]};
        id = carom_create_segment_shape(body, &def, &segment);
        break;
    }
    case SCENE_SHAPE_CHAIN:
        return carom_create_chain(body, &def, shape->points, shape->point_count, shape->loop, NULL);
    }
    return CAROM_IS_NULL(id) ? carom_last_status() : CAROM_OK;
}

/* Shapes first, velocities after: attaching a shape moves the center of mass, and the engine
 * keeps the material velocity, which would change a center-of-mass velocity set before. */
static carom_status add_body(carom_world_id world, const scene_body* body, carom_body_id* out) {
    carom_body_def def = carom_default_body_def();
    def.type = body->type;
    def.position = body->position;
    def.angle = body->has_rotation ? 0.0 : body->angle;
    def.linear_damping = body->linear_damping;
    def.angular_damping = body->angular_damping;
    def.bullet = body->bullet;
    def.awake = body->awake;
    def.gravity_scale = body->gravity_scale;
    *out = carom_create_body(world, &def);
    if (CAROM_IS_NULL(*out)) {
        return carom_last_status();
    }
    carom_status status =
        body->has_rotation ? carom_body_set_rotation(*out, body->rotation) : CAROM_OK;
    for (int i = 0; i < body->shape_count && status == CAROM_OK; ++i) {
        status = add_shape(*out, &body->shapes[i]);
    }
    if (status == CAROM_OK && body->fixed_rotation) {
        status = carom_body_set_fixed_rotation(*out, 1);
    }
    if (status == CAROM_OK && body->type != CAROM_BODY_STATIC && carom_body_is_awake(*out)) {
        status = carom_body_set_linear_velocity(*out, body->linear_velocity);
        if (status == CAROM_OK) {
            status = carom_body_set_angular_velocity(*out, body->angular_velocity);
        }
    }
    if (status == CAROM_OK && !body->enabled) { /* after the velocities: it keeps them */
        status = carom_body_set_enabled(*out, 0);
    }
    return status;
}

/* The def of each kind from the scene's description; the joint's frame, if the file gave it,
 * replaces what creation made of the world anchors. */
static carom_joint_id create_joint(const scene_joint* j, carom_body_id a, carom_body_id b) {
    switch (j->type) {
    case CAROM_JOINT_REVOLUTE: {
        carom_revolute_joint_def def = carom_default_revolute_joint_def();
        def.anchor = j->anchor;
        def.enable_limit = j->has_limit;
        def.lower_angle = j->lower;
        def.upper_angle = j->upper;
        def.enable_motor = j->has_motor;
        def.motor_speed = j->motor_speed;
        def.max_motor_torque = j->max_motor;
        def.enable_spring = j->has_spring;
        def.hertz = j->hertz;
        def.damping_ratio = j->damping_ratio;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_revolute_joint(a, b, &def);
    }
    case CAROM_JOINT_PRISMATIC: {
        carom_prismatic_joint_def def = carom_default_prismatic_joint_def();
        def.anchor = j->anchor;
        def.axis = j->axis;
        def.enable_limit = j->has_limit;
        def.lower_translation = j->lower;
        def.upper_translation = j->upper;
        def.enable_motor = j->has_motor;
        def.motor_speed = j->motor_speed;
        def.max_motor_force = j->max_motor;
        def.enable_spring = j->has_spring;
        def.hertz = j->hertz;
        def.damping_ratio = j->damping_ratio;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_prismatic_joint(a, b, &def);
    }
    case CAROM_JOINT_DISTANCE: {
        carom_distance_joint_def def = carom_default_distance_joint_def();
        def.anchor_a = j->anchor_a;
        def.anchor_b = j->anchor_b;
        def.length = j->length;
        def.enable_spring = j->has_spring;
        def.hertz = j->hertz;
        def.damping_ratio = j->damping_ratio;
        def.enable_limit = j->has_limit;
        def.min_length = j->min_length;
        def.max_length = j->max_length;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        return carom_create_distance_joint(a, b, &def);
    }
    case CAROM_JOINT_WELD: {
        carom_weld_joint_def def = carom_default_weld_joint_def();
        def.anchor = j->anchor;
        def.linear_hertz = j->linear_hertz;
        def.linear_damping_ratio = j->linear_damping_ratio;
        def.angular_hertz = j->angular_hertz;
        def.angular_damping_ratio = j->angular_damping_ratio;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_weld_joint(a, b, &def);
    }
    case CAROM_JOINT_WHEEL: {
        carom_wheel_joint_def def = carom_default_wheel_joint_def();
        def.anchor = j->anchor;
        def.axis = j->axis;
        def.enable_spring = j->has_spring;
        def.hertz = j->hertz;
        def.damping_ratio = j->damping_ratio;
        def.enable_limit = j->has_limit;
        def.lower_translation = j->lower;
        def.upper_translation = j->upper;
        def.enable_motor = j->has_motor;
        def.motor_speed = j->motor_speed;
        def.max_motor_torque = j->max_motor;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_wheel_joint(a, b, &def);
    }
    case CAROM_JOINT_MOTOR: {
        carom_motor_joint_def def = carom_default_motor_joint_def();
        def.linear_offset = j->linear_offset;
        def.angular_offset = j->angular_offset;
        def.max_force = j->max_force;
        def.max_torque = j->max_torque;
        def.correction_factor = j->correction_factor;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_motor_joint(a, b, &def);
    }
    case CAROM_JOINT_MOUSE:
        break;
    }
    carom_clear_last_error();
    return carom_null_joint_id;
}

static carom_status add_joint(const scene_def* scene, int index, const carom_body_id* body_ids) {
    const scene_joint* j = &scene->joints[index];
    carom_joint_id id = create_joint(j, body_ids[j->body_a], body_ids[j->body_b]);
    scene->joint_ids[index] = id;
    if (CAROM_IS_NULL(id)) {
        return carom_last_status() != CAROM_OK ? carom_last_status() : CAROM_ERROR_INVALID_DEF;
    }
    return j->has_frame ? carom_joint_set_frame(id, &j->frame) : CAROM_OK;
}

/* ---- Vehicles and their control scripts ---------------------------------------------------- */

static carom_vehicle_def vehicle_def_of(const scene_vehicle* vehicle) {
    carom_vehicle_def def = vehicle->def;
    if (vehicle->surface_mask_is_all_bits) {
        def.surface_filter.mask = carom_default_filter().mask;
    }
    return def;
}

/* After the bodies and joints: each vehicle on its body, with the input in force at the start.
 * A throttle wakes the body, as carom_vehicle_set_input always does. */
static carom_status add_vehicles(const scene_def* scene, const carom_body_id* body_ids) {
    for (int i = 0; i < scene->vehicle_count; ++i) {
        const scene_vehicle* vehicle = &scene->vehicles[i];
        carom_vehicle_def def = vehicle_def_of(vehicle);
        carom_vehicle_id id = carom_create_vehicle(body_ids[vehicle->body], &def);
        scene->vehicle_ids[i] = id;
        if (CAROM_IS_NULL(id)) {
            return carom_last_status();
        }
        const carom_vehicle_input* in = &vehicle->input;
        carom_status status =
            carom_vehicle_set_input(id, in->throttle, in->brake, in->steer, in->handbrake);
        if (status != CAROM_OK) {
            return status;
        }
    }
    return CAROM_OK;
}

/* The index of the script's first entry at or after `step` (control_count when none): a
 * binary search, the steps being strictly increasing, so long scripts cost little per step. */
static int first_control_from(const scene_vehicle* vehicle, int64_t step) {
    int low = 0, high = vehicle->control_count;
    while (low < high) {
        int middle = low + (high - low) / 2;
        if (vehicle->controls[middle].step < step) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

carom_status scene_apply_controls(const scene_def* scene, int64_t steps_done) {
    for (int i = 0; i < scene->vehicle_count; ++i) {
        const scene_vehicle* vehicle = &scene->vehicles[i];
        int entry = first_control_from(vehicle, steps_done);
        if (entry == vehicle->control_count || vehicle->controls[entry].step != steps_done) {
            continue;
        }
        const carom_vehicle_input* in = &vehicle->controls[entry].input;
        carom_status status = carom_vehicle_set_input(scene->vehicle_ids[i], in->throttle,
                                                      in->brake, in->steer, in->handbrake);
        if (status != CAROM_OK) {
            return status;
        }
    }
    return CAROM_OK;
}

int64_t scene_next_control_step(const scene_def* scene, int64_t steps_done) {
    int64_t next = -1;
    for (int i = 0; i < scene->vehicle_count; ++i) {
        const scene_vehicle* vehicle = &scene->vehicles[i];
        int entry = first_control_from(vehicle, steps_done);
        if (entry < vehicle->control_count) {
            int64_t at = vehicle->controls[entry].step;
            next = next < 0 || at < next ? at : next;
        }
    }
    return next;
}

carom_status scene_build_world(const scene_def* scene, carom_world_id* world,
                               carom_body_id* body_ids, int* failed_body) {
    carom_world_def def = carom_default_world_def();
    def.gravity = scene->gravity;
    if (scene->substeps > 0) {
        def.substeps = scene->substeps;
    }
    def.cell_size = scene->cell_size;
    def.enable_sleep = scene->sleep;
    def.enable_continuous = scene->continuous;
    def.contact_hertz = scene->contact_hertz;
    def.contact_damping_ratio = scene->contact_damping_ratio;
    def.contact_push_max_velocity = scene->contact_push_max_velocity;
    def.contact_recycle_distance = scene->contact_recycle_distance;
    def.joint_hertz = scene->joint_hertz;
    def.joint_damping_ratio = scene->joint_damping_ratio;
    def.max_contacts = scene->max_contacts;
    if (scene->worker_count > 1) {
        def.worker_count = scene->worker_count;
    }
    *failed_body = -1;
    *world = carom_create_world(&def);
    if (CAROM_IS_NULL(*world)) {
        return carom_last_status();
    }
    for (int i = 0; i < scene->body_count; ++i) {
        carom_status status = add_body(*world, &scene->bodies[i], &body_ids[i]);
        if (status != CAROM_OK) {
            *failed_body = i;
            carom_destroy_world(*world);
            *world = carom_null_world_id;
            return status;
        }
    }
    for (int i = 0; i < scene->joint_count; ++i) {
        carom_status status = add_joint(scene, i, body_ids);
        if (status != CAROM_OK) {
            carom_destroy_world(*world);
            *world = carom_null_world_id;
            return status;
        }
    }
    carom_status status = add_vehicles(scene, body_ids);
    if (status != CAROM_OK) {
        carom_destroy_world(*world);
        *world = carom_null_world_id;
    }
    return status;
}
