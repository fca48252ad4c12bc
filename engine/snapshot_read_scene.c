/* Snapshots, reading: the scene part (world settings, bodies, shapes, vehicles, joints)
 * decoded and checked into a scene_data, before it may replace the world's. */
#include "core.h"

#include "ds.h"
#include "snapshot_read.h"
#include "world.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- The scene part --------------------------------------------------------------------- */

void scene_data_free(scene_data* scene) {
    arrfree(scene->bodies);
    arrfree(scene->shapes);
    arrfree(scene->vehicles);
    arrfree(scene->joints);
    carom_id_pool_destroy(&scene->body_pool);
    carom_id_pool_destroy(&scene->shape_pool);
    carom_id_pool_destroy(&scene->vehicle_pool);
    carom_id_pool_destroy(&scene->joint_pool);
}

/* Re-check a def with the function the API uses, turning its failure into a snapshot error. */
void check_with(reader* r, carom_status status, const char* what) {
    if (status != CAROM_OK) {
        reader_fail(r, "%s: %s", what, carom_last_error());
    }
}

void read_world_def(reader* r, carom_world_def* def, int version) {
    *def = carom_default_world_def();
    def->cell_size = get_f64(r);
    def->restitution_threshold = get_f64(r);
    def->contact_hertz = get_f64(r);
    def->contact_damping_ratio = get_f64(r);
    def->contact_push_max_velocity = get_f64(r);
    def->contact_slop = get_f64(r);
    def->enable_continuous = get_flag(r, "world enable_continuous", 0);
    def->enable_sleep = get_flag(r, "world enable_sleep", 0);
    def->sleep_linear_threshold = get_f64(r);
    def->sleep_angular_threshold = get_f64(r);
    def->time_to_sleep = get_f64(r);
    def->speculative_distance = get_f64(r);
    def->contact_recycle_distance = get_f64(r);
    if (version >= 3) {
        def->joint_hertz = get_f64(r);
        def->joint_damping_ratio = get_f64(r);
    }
    if (!r->failed) {
        check_with(r, carom_check_world_def(def), "world settings");
    }
}

/* A pool and its slot count; marks[i] becomes 1 for free slots. Slots are live unless free.
 * Each slot takes at least a byte of what follows, except live islands, which are named by the
 * bodies (`extra_slots` allows for them). */
void read_pool(reader* r, carom_id_pool* pool, uint8_t** marks, int extra_slots, const char* what) {
    uint64_t slots = get_uvar(r);
    if (!r->failed && (slots > r->size - r->at + (uint64_t)extra_slots || slots >= MAX_SLOTS)) {
        reader_fail(r, "%s count %llu is more than the bytes left", what,
                    (unsigned long long)slots);
    }
    pool->next_id = (int)slots;
    int free_count = get_count(r, what);
    if (!r->failed && free_count > pool->next_id) {
        reader_fail(r, "%s: %d free ids among %d slots", what, free_count, pool->next_id);
    }
    if (r->failed) {
        return;
    }
    arrsetlen(*marks, pool->next_id);
    for (int i = 0; i < pool->next_id; ++i) {
        (*marks)[i] = 0;
    }
    arrsetlen(pool->free_ids, 0);
    for (int i = 0; i < free_count && !r->failed; ++i) {
        int id = get_index(r, pool->next_id, false, what);
        if (!r->failed && (*marks)[id]) {
            reader_fail(r, "%s: id %d is free twice", what, id);
        }
        (*marks)[id] = 1;
        arrput(pool->free_ids, id);
    }
}

/* Version 4: the body's options and mass override, checked as carom_body_set_mass_data does. */
static void read_body_options(reader* r, carom_body* body, int id) {
    uint8_t options = get_u8(r);
    if (!r->failed && (options & ~BODY_OPTIONS_ALL) != 0) {
        reader_fail(r, "body %d has unknown options %u", id, options);
    }
    body->fixed_rotation = (options & BODY_OPTION_FIXED_ROTATION) != 0;
    body->mass_override = (options & BODY_OPTION_MASS_OVERRIDE) != 0;
    body->disabled = (options & BODY_OPTION_DISABLED) != 0;
    if (body->mass_override) {
        body->override_mass.mass = get_number(r, DBL_MIN, "mass override of body", id);
        body->override_mass.center = get_vec2(r, "mass override center of body", id);
        body->override_mass.rotational_inertia =
            get_number(r, 0.0, "mass override inertia of body", id);
    }
}

static void read_body(reader* r, carom_body* body, int id, int shape_slots, int version) {
    uint8_t type = get_u8(r);
    if (!r->failed && type > CAROM_BODY_DYNAMIC) {
        reader_fail(r, "body %d has type %u", id, type);
    }
    body->type = (carom_body_type)type;
    body->linear_damping = get_number(r, 0.0, "linear damping of body", id);
    body->angular_damping = get_number(r, 0.0, "angular damping of body", id);
    body->gravity_scale = get_number(r, -CAROM_MAX_MAGNITUDE, "gravity scale of body", id);
    body->bullet = get_flag(r, "bullet flag of body", id);
    if (version >= 5) {
        read_body_options(r, body, id);
    }
    body->first_shape = get_index(r, shape_slots, true, "first shape of a body");
}

/* A polygon must be convex and counter-clockwise with outward unit normals and its centroid
 * inside: then the narrow phase meets nothing it was not built for. */
static void check_polygon(reader* r, const carom_polygon* p, int id) {
    for (int i = 0; i < p->count && !r->failed; ++i) {
        carom_vec2 a = p->vertices[i];
        carom_vec2 b = p->vertices[(i + 1) % p->count];
        carom_vec2 n = p->normals[i];
        carom_vec2 edge = carom_sub(b, a);
        double length = carom_length(edge);
        bool unit = fabs(carom_length(n) - 1.0) <= UNIT_TOLERANCE;
        bool outward = length >= CAROM_POLYGON_WELD_TOLERANCE && carom_cross(edge, n) < 0.0 &&
                       fabs(carom_dot(n, edge)) <= UNIT_TOLERANCE * length;
        bool inside = carom_dot(n, carom_sub(p->centroid, a)) < 0.0;
        for (int j = 0; j < p->count && inside; ++j) {
            if (j != i && j != (i + 1) % p->count) {
                inside = carom_dot(n, carom_sub(p->vertices[j], a)) < 0.0;
            }
        }
        if (!(unit && outward && inside)) {
            reader_fail(r,
                        "polygon of shape %d is not convex and counter-clockwise with unit "
                        "outward normals at edge %d",
                        id, i);
        }
    }
}

static void read_geometry(reader* r, carom_shape* shape, int id, int version) {
    switch (shape->type) {
    case CAROM_SHAPE_CIRCLE:
        shape->circle.center = get_vec2(r, "circle center of shape", id);
        shape->circle.radius = get_number(r, CAROM_MIN_RADIUS, "circle radius of shape", id);
        break;
    case CAROM_SHAPE_POLYGON: {
        carom_polygon* p = &shape->polygon;
        uint64_t count = get_uvar(r);
        if (!r->failed && (count < 3 || count > CAROM_MAX_POLYGON_VERTICES)) {
            reader_fail(r, "polygon of shape %d has %llu vertices", id, (unsigned long long)count);
            count = 0;
        }
        p->count = (int)count;
        for (int i = 0; i < p->count; ++i) {
            p->vertices[i] = get_vec2(r, "polygon vertex of shape", id);
            p->normals[i] = get_vec2(r, "polygon normal of shape", id);
        }
        p->centroid = get_vec2(r, "polygon centroid of shape", id);
        p->radius = version >= 4 ? get_number(r, 0.0, "polygon radius of shape", id) : 0.0;
        if (!r->failed && p->radius != 0.0 && p->radius < CAROM_MIN_RADIUS) {
            reader_fail(r, "polygon radius of shape %d is %g: it must be 0 or at least %g", id,
                        p->radius, CAROM_MIN_RADIUS);
        }
        if (!r->failed) {
            check_polygon(r, p, id);
        }
        break;
    }
    case CAROM_SHAPE_CAPSULE: {
        carom_capsule capsule;
        capsule.center1 = get_vec2(r, "capsule center of shape", id);
        capsule.center2 = get_vec2(r, "capsule center of shape", id);
        capsule.radius = get_number(r, CAROM_MIN_RADIUS, "capsule radius of shape", id);
        if (!r->failed && carom_distance(capsule.center1, capsule.center2) <
                              CAROM_POLYGON_WELD_TOLERANCE) {
            reader_fail(r, "capsule of shape %d has coincident centers", id);
        }
        if (!r->failed) {
            carom_make_capsule_polygon(&capsule, &shape->polygon); /* checked: cannot fail */
        }
        break;
    }
    case CAROM_SHAPE_SEGMENT:
        shape->segment.point1 = get_vec2(r, "segment point of shape", id);
        shape->segment.point2 = get_vec2(r, "segment point of shape", id);
        break;
    case CAROM_SHAPE_CHAIN_SEGMENT: {
        carom_chain_segment* chain = &shape->chain;
        chain->ghost1 = get_vec2(r, "chain ghost point of shape", id);
        chain->point1 = get_vec2(r, "chain point of shape", id);
        chain->point2 = get_vec2(r, "chain point of shape", id);
        chain->ghost2 = get_vec2(r, "chain ghost point of shape", id);
        chain->has_ghost1 = get_flag(r, "chain has_ghost1 of shape", id);
        chain->has_ghost2 = get_flag(r, "chain has_ghost2 of shape", id);
        chain->one_sided = get_flag(r, "chain one_sided of shape", id);
        shape->segment.point1 = chain->point1;
        shape->segment.point2 = chain->point2;
        break;
    }
    }
    if (shape->type == CAROM_SHAPE_SEGMENT || shape->type == CAROM_SHAPE_CHAIN_SEGMENT) {
        if (!r->failed && carom_distance(shape->segment.point1, shape->segment.point2) <
                              CAROM_POLYGON_WELD_TOLERANCE) {
            reader_fail(r, "segment of shape %d has coincident points", id);
        }
        shape->polygon = carom_make_segment_polygon(&shape->segment);
    }
    carom_shape_find_box(shape);
}

/* A shape's events byte (carom_shape_event_bits): before version 6, its hit events flag alone. */
static void read_event_bits(reader* r, carom_shape* shape, int id, int version) {
    uint8_t bits = get_u8(r);
    uint8_t known = CAROM_SHAPE_HIT_EVENTS | (version >= 6 ? CAROM_SHAPE_NO_CONTACT_EVENTS : 0);
    if (!r->failed && (bits & ~known) != 0) {
        reader_fail(r, "event flags of shape %d are %u", id, bits);
    }
    shape->enable_hit_events = (bits & CAROM_SHAPE_HIT_EVENTS) != 0;
    shape->enable_contact_events = (bits & CAROM_SHAPE_NO_CONTACT_EVENTS) == 0;
}

static void read_shape(reader* r, carom_shape* shape, int id, int body_slots, int shape_slots,
                       int version) {
    shape->body = get_index(r, body_slots, false, "body of a shape");
    shape->next_shape = get_index(r, shape_slots, true, "next shape of a shape");
    uint8_t type = get_u8(r);
    int last_type = version >= 4 ? CAROM_SHAPE_CAPSULE : CAROM_SHAPE_CHAIN_SEGMENT;
    if (!r->failed && type > last_type) {
        reader_fail(r, "shape %d has type %u", id, type);
        return;
    }
    shape->type = (carom_shape_type)type;
    read_geometry(r, shape, id, version);
    shape->is_sensor = get_flag(r, "sensor flag of shape", id);
    read_event_bits(r, shape, id, version);
    shape->hit_speed_threshold = get_number(r, 0.0, "hit speed threshold of shape", id);
    shape->surface_grip = get_number(r, 0.0, "surface grip of shape", id);
    shape->density = get_number(r, 0.0, "density of shape", id);
    if (!r->failed && shape->density != 0.0 && shape->density < CAROM_MIN_DENSITY) {
        reader_fail(r, "density of shape %d is %g: it must be 0 or at least %g", id, shape->density,
                    CAROM_MIN_DENSITY);
    }
    shape->friction = get_number(r, 0.0, "friction of shape", id);
    shape->restitution = get_number(r, 0.0, "restitution of shape", id);
    if (!r->failed && shape->restitution > 1.0) {
        reader_fail(r, "restitution of shape %d is %g: it must be at most 1", id,
                    shape->restitution);
    }
    shape->filter = get_filter(r, "filter of shape", id);
}

static void read_vehicle_def(reader* r, carom_vehicle_def* def, int id) {
    *def = carom_default_vehicle_def();
    uint64_t wheels = get_uvar(r);
    if (!r->failed && (wheels < 1 || wheels > CAROM_VEHICLE_MAX_WHEELS)) {
        reader_fail(r, "vehicle %d has %llu wheels", id, (unsigned long long)wheels);
        return;
    }
    def->wheel_count = (int)wheels;
    for (int i = 0; i < def->wheel_count; ++i) {
        def->wheels[i].position = get_vec2(r, "wheel position of vehicle", id);
        def->wheels[i].steered = get_flag(r, "wheel steered flag of vehicle", id);
        def->wheels[i].driven = get_flag(r, "wheel driven flag of vehicle", id);
        def->wheels[i].handbrake = get_flag(r, "wheel handbrake flag of vehicle", id);
    }
    double* numbers[] = {&def->gravity,
                         &def->grip,
                         &def->peak_slip_angle,
                         &def->slide_grip_ratio,
                         &def->max_drive_force,
                         &def->max_power,
                         &def->max_brake_force,
                         &def->handbrake_force,
                         &def->handbrake_grip_factor,
                         &def->max_steer_angle,
                         &def->steer_reduction_speed,
                         &def->rolling_resistance,
                         &def->drag_coefficient};
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
        *numbers[i] = get_f64(r);
    }
    def->surface_filter = get_filter(r, "surface filter of vehicle", id);
    if (!r->failed) {
        check_with(r, carom_check_vehicle_def(def), "vehicle settings");
    }
}

/* Every live body's shape list holds exactly the live shapes that name it, once, in a chain
 * that ends: what the engine's list walks rely on. */
static void check_shape_lists(reader* r, scene_data* scene, uint8_t* seen) {
    int shape_slots = (int)arrlen(scene->shapes);
    for (int s = 0; s < shape_slots; ++s) {
        seen[s] = 0;
    }
    for (int b = 0; b < (int)arrlen(scene->bodies) && !r->failed; ++b) {
        carom_body* body = &scene->bodies[b];
        if (body->id < 0) {
            continue;
        }
        body->shape_count = 0;
        for (int s = body->first_shape; s >= 0 && !r->failed; s = scene->shapes[s].next_shape) {
            if (scene->shapes[s].id < 0 || scene->shapes[s].body != b || seen[s]) {
                reader_fail(r, "the shape list of body %d is broken at shape %d", b, s);
                break;
            }
            seen[s] = 1;
            body->shape_count += 1;
        }
    }
    for (int s = 0; s < shape_slots && !r->failed; ++s) {
        if (scene->shapes[s].id >= 0 && !seen[s]) {
            reader_fail(r, "shape %d is in no list of its body", s);
        }
    }
}

/* Each vehicle rides a live dynamic body of its own; `ridden` is scratch, a byte per body. */
static void check_vehicles(reader* r, const scene_data* scene, uint8_t** ridden) {
    int body_slots = (int)arrlen(scene->bodies);
    arrsetlen(*ridden, body_slots);
    for (int b = 0; b < body_slots; ++b) {
        (*ridden)[b] = 0;
    }
    for (int v = 0; v < (int)arrlen(scene->vehicles) && !r->failed; ++v) {
        const carom_vehicle* vehicle = &scene->vehicles[v];
        if (vehicle->id < 0) {
            continue;
        }
        const carom_body* body = &scene->bodies[vehicle->body];
        if (body->id < 0 || body->type != CAROM_BODY_DYNAMIC || (*ridden)[vehicle->body]) {
            reader_fail(r,
                        "vehicle %d rides body %d, which is not a live dynamic body free of "
                        "other vehicles",
                        v, vehicle->body);
        }
        (*ridden)[vehicle->body] = 1;
    }
}

/* ---- Joints (version 3) ---- */

static void get_flags3(reader* r, bool* a, bool* b, bool* c, int id) {
    uint8_t bits = get_u8(r);
    if (!r->failed && bits > 7) {
        reader_fail(r, "flags of joint %d are %u", id, bits);
    }
    *a = (bits & 1) != 0;
    *b = (bits & 2) != 0;
    *c = (bits & 4) != 0;
}

static carom_vec2 get_unit_axis(reader* r, int id) {
    carom_vec2 axis = get_vec2(r, "axis of joint", id);
    if (!r->failed && fabs(carom_length(axis) - 1.0) > UNIT_TOLERANCE) {
        reader_fail(r, "axis of joint %d is not a unit vector", id);
    }
    return axis;
}

static void read_joint_settings(reader* r, carom_joint* joint, int id) {
    const double any = -CAROM_MAX_MAGNITUDE;
    switch (joint->type) {
    case CAROM_JOINT_REVOLUTE: {
        carom_revolute_joint* j = &joint->revolute;
        get_flags3(r, &j->enable_limit, &j->enable_motor, &j->enable_spring, id);
        j->lower_angle = get_number(r, any, "lower angle of joint", id);
        j->upper_angle = get_number(r, any, "upper angle of joint", id);
        j->max_motor_torque = get_number(r, 0.0, "max motor torque of joint", id);
        j->hertz = get_number(r, 0.0, "hertz of joint", id);
        j->damping_ratio = get_number(r, 0.0, "damping ratio of joint", id);
        break;
    }
    case CAROM_JOINT_PRISMATIC: {
        carom_prismatic_joint* j = &joint->prismatic;
        j->local_axis_a = get_unit_axis(r, id);
        get_flags3(r, &j->enable_limit, &j->enable_motor, &j->enable_spring, id);
        j->lower_translation = get_number(r, any, "lower translation of joint", id);
        j->upper_translation = get_number(r, any, "upper translation of joint", id);
        j->max_motor_force = get_number(r, 0.0, "max motor force of joint", id);
        j->hertz = get_number(r, 0.0, "hertz of joint", id);
        j->damping_ratio = get_number(r, 0.0, "damping ratio of joint", id);
        break;
    }
    case CAROM_JOINT_DISTANCE: {
        carom_distance_joint* j = &joint->distance;
        bool unused = false;
        get_flags3(r, &j->enable_spring, &j->enable_limit, &unused, id);
        if (!r->failed && unused) {
            reader_fail(r, "flags of distance joint %d name a third setting", id);
        }
        j->length = get_number(r, 0.0, "length of joint", id);
        j->min_length = get_number(r, 0.0, "min length of joint", id);
        j->max_length = get_number(r, 0.0, "max length of joint", id);
        j->hertz = get_number(r, 0.0, "hertz of joint", id);
        j->damping_ratio = get_number(r, 0.0, "damping ratio of joint", id);
        break;
    }
    case CAROM_JOINT_WELD: {
        carom_weld_joint* j = &joint->weld;
        j->linear_hertz = get_number(r, 0.0, "linear hertz of joint", id);
        j->linear_damping_ratio = get_number(r, 0.0, "linear damping ratio of joint", id);
        j->angular_hertz = get_number(r, 0.0, "angular hertz of joint", id);
        j->angular_damping_ratio = get_number(r, 0.0, "angular damping ratio of joint", id);
        break;
    }
    case CAROM_JOINT_WHEEL: {
        carom_wheel_joint* j = &joint->wheel;
        j->local_axis_a = get_unit_axis(r, id);
        get_flags3(r, &j->enable_spring, &j->enable_limit, &j->enable_motor, id);
        j->hertz = get_number(r, 0.0, "hertz of joint", id);
        j->damping_ratio = get_number(r, 0.0, "damping ratio of joint", id);
        j->lower_translation = get_number(r, any, "lower translation of joint", id);
        j->upper_translation = get_number(r, any, "upper translation of joint", id);
        j->max_motor_torque = get_number(r, 0.0, "max motor torque of joint", id);
        break;
    }
    case CAROM_JOINT_MOTOR: {
        carom_motor_joint* j = &joint->motor;
        j->linear_offset = joint->local_anchor_a;
        j->angular_offset = get_number(r, any, "angular offset of joint", id);
        j->max_force = get_number(r, 0.0, "max force of joint", id);
        j->max_torque = get_number(r, 0.0, "max torque of joint", id);
        j->correction_factor = get_number(r, 0.0, "correction factor of joint", id);
        break;
    }
    case CAROM_JOINT_MOUSE: {
        carom_mouse_joint* j = &joint->mouse;
        j->hertz = get_number(r, 0.0, "hertz of joint", id);
        j->damping_ratio = get_number(r, 0.0, "damping ratio of joint", id);
        j->max_force = get_number(r, 0.0, "max force of joint", id);
        break;
    }
    }
}

/* A joint's bodies: live and different; body A is the world (-1) for a mouse joint and only
 * for it; at least one is dynamic, as creation demands. */
static void check_joint_bodies(reader* r, const scene_data* scene, const carom_joint* joint,
                               int id) {
    int a = joint->edges[0].body, b = joint->edges[1].body;
    bool mouse = joint->type == CAROM_JOINT_MOUSE;
    const carom_body* body_a = a >= 0 ? &scene->bodies[a] : NULL;
    const carom_body* body_b = &scene->bodies[b];
    bool live = (body_a == NULL || body_a->id >= 0) && body_b->id >= 0;
    bool dynamic = (body_a != NULL && body_a->type == CAROM_BODY_DYNAMIC) ||
                   body_b->type == CAROM_BODY_DYNAMIC;
    if (!live || a == b || mouse != (a < 0) || !dynamic || (mouse && !joint->collide_connected)) {
        reader_fail(r, "joint %d joins bodies %d and %d, which a joint of its kind cannot join", id,
                    a, b);
    }
}

static void read_joint(reader* r, const scene_data* scene, carom_joint* joint, int id) {
    uint8_t type = get_u8(r);
    if (!r->failed && type > CAROM_JOINT_MOUSE) {
        reader_fail(r, "joint %d has type %u", id, type);
        return;
    }
    joint->type = (carom_joint_type)type;
    int body_slots = (int)arrlen(scene->bodies);
    joint->edges[0].body = get_index(r, body_slots, true, "body A of a joint");
    joint->edges[1].body = get_index(r, body_slots, false, "body B of a joint");
    joint->collide_connected = get_flag(r, "collide_connected of joint", id);
    joint->break_force = get_number(r, 0.0, "break force of joint", id);
    joint->break_torque = get_number(r, 0.0, "break torque of joint", id);
    if (joint->type != CAROM_JOINT_MOUSE) {
        joint->local_anchor_a = get_vec2(r, "anchor A of joint", id);
    }
    joint->local_anchor_b = get_vec2(r, "anchor B of joint", id);
    joint->reference_rotation.c = get_f64(r);
    joint->reference_rotation.s = get_f64(r);
    carom_rot q = joint->reference_rotation;
    if (!r->failed && !(isfinite(q.c) && isfinite(q.s) &&
                        fabs(q.c * q.c + q.s * q.s - 1.0) <= CAROM_ROTATION_TOLERANCE)) {
        reader_fail(r, "reference rotation of joint %d is not a unit rotation", id);
    }
    read_joint_settings(r, joint, id);
    if (!r->failed) {
        check_joint_bodies(r, scene, joint, id);
    }
    if (!r->failed) {
        /* a mouse joint's target, in the state, is checked there */
        check_with(r, carom_check_joint_record(joint), "joint settings");
    }
}

static void read_joints(reader* r, scene_data* scene, uint8_t** marks) {
    read_pool(r, &scene->joint_pool, marks, 0, "joint slots");
    int joint_slots = scene->joint_pool.next_id;
    if (!r->failed && joint_slots > 0) {
        arrsetlen(scene->joints, joint_slots);
        memset(scene->joints, 0, sizeof(carom_joint) * (size_t)joint_slots);
    }
    for (int i = 0; i < joint_slots && !r->failed; ++i) {
        carom_joint* joint = &scene->joints[i];
        joint->generation = (uint32_t)get_uvar(r);
        joint->id = (*marks)[i] ? -1 : i;
        if (joint->id >= 0) {
            read_joint(r, scene, joint, i);
        }
    }
}

/* Decode and validate a scene part; scratch `marks` is a byte array for the checks. */
void read_scene(reader* r, scene_data* scene, uint8_t** marks, int version) {
    read_world_def(r, &scene->def, version);
    read_pool(r, &scene->body_pool, marks, 0, "body slots");
    int body_slots = scene->body_pool.next_id;
    if (!r->failed && body_slots > 0) {
        arrsetlen(scene->bodies, body_slots);
        memset(scene->bodies, 0, sizeof(carom_body) * (size_t)body_slots);
    }
    for (int i = 0; i < body_slots && !r->failed; ++i) {
        carom_body* body = &scene->bodies[i];
        body->generation = (uint32_t)get_uvar(r);
        body->id = (*marks)[i] ? -1 : i;
        body->first_shape = -1;
        body->island = -1;
        body->contact_head = -1;
        body->transform.q = carom_make_rot(0.0);
        if (body->id >= 0) {
            /* shape slots are not known yet: checked against them below */
            read_body(r, body, i, MAX_SLOTS, version);
        }
    }
    read_pool(r, &scene->shape_pool, marks, 0, "shape slots");
    int shape_slots = scene->shape_pool.next_id;
    for (int i = 0; i < body_slots && !r->failed; ++i) {
        if (scene->bodies[i].first_shape >= shape_slots) {
            reader_fail(r, "first shape of body %d is %d, beyond the %d shape slots", i,
                        scene->bodies[i].first_shape, shape_slots);
        }
    }
    if (!r->failed && shape_slots > 0) {
        arrsetlen(scene->shapes, shape_slots);
        memset(scene->shapes, 0, sizeof(carom_shape) * (size_t)shape_slots);
    }
    for (int i = 0; i < shape_slots && !r->failed; ++i) {
        carom_shape* shape = &scene->shapes[i];
        shape->generation = (uint32_t)get_uvar(r);
        shape->id = (*marks)[i] ? -1 : i;
        shape->next_shape = -1;
        if (shape->id >= 0) {
            read_shape(r, shape, i, body_slots, shape_slots, version);
            if (!r->failed && scene->bodies[shape->body].id < 0) {
                reader_fail(r, "shape %d is on body %d, which is not live", i, shape->body);
            }
        }
    }
    if (!r->failed) {
        check_shape_lists(r, scene, *marks);
    }
    read_pool(r, &scene->vehicle_pool, marks, 0, "vehicle slots");
    int vehicle_slots = scene->vehicle_pool.next_id;
    if (!r->failed && vehicle_slots > 0) {
        arrsetlen(scene->vehicles, vehicle_slots);
        memset(scene->vehicles, 0, sizeof(carom_vehicle) * (size_t)vehicle_slots);
    }
    for (int i = 0; i < vehicle_slots && !r->failed; ++i) {
        carom_vehicle* vehicle = &scene->vehicles[i];
        vehicle->generation = (uint32_t)get_uvar(r);
        vehicle->id = (*marks)[i] ? -1 : i;
        if (vehicle->id >= 0) {
            vehicle->body = get_index(r, body_slots, false, "body of a vehicle");
            read_vehicle_def(r, &vehicle->def, i);
        }
    }
    if (!r->failed) {
        check_vehicles(r, scene, marks);
    }
    if (!r->failed && version >= 3) {
        read_joints(r, scene, marks);
    }
    if (!r->failed && r->at != r->size) {
        reader_fail(r, "%zu bytes are left over after the last %s", r->size - r->at,
                    version >= 3 ? "joint" : "vehicle");
    }
}
