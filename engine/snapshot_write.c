/* Snapshots, the writing half: a world's scene and state parts as explicit bytes (see
 * snapshot.h for the layout; docs/snapshots.md). */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <string.h>

/* ---- Writing ---------------------------------------------------------------------------- */

/* Bytes go to data while they fit; size always counts them all, so the same code measures. */
typedef struct writer {
    uint8_t* data;
    size_t capacity;
    size_t size;
    int bad_body; /* a body whose pose cannot be written (non-finite: a world that blew up), or -1 */
    int version;  /* the format version written (carom_snapshot_version) */
} writer;

static void put_u8(writer* w, uint8_t value) {
    if (w->size < w->capacity) {
        w->data[w->size] = value;
    }
    w->size += 1;
}

static void put_le(writer* w, uint64_t value, int bytes) {
    if (w->capacity >= (size_t)bytes && w->size <= w->capacity - (size_t)bytes) {
        uint8_t* p = w->data + w->size;
        for (int i = 0; i < bytes; ++i) {
            p[i] = (uint8_t)(value >> (8 * i));
        }
    }
    w->size += (size_t)bytes;
}

static void put_f64(writer* w, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    if (w->capacity >= 8 && w->size <= w->capacity - 8) {
        carom_store_le64(w->data + w->size, bits);
    }
    w->size += 8;
}

static void put_vec2(writer* w, carom_vec2 v) {
    put_f64(w, v.x);
    put_f64(w, v.y);
}

static void put_uvar(writer* w, uint64_t value) {
    while (value >= 0x80) {
        put_u8(w, (uint8_t)(value | 0x80));
        value >>= 7;
    }
    put_u8(w, (uint8_t)value);
}

static void put_svar(writer* w, int64_t value) {
    uint64_t zigzag = ((uint64_t)value << 1) ^ (value < 0 ? ~(uint64_t)0 : 0);
    put_uvar(w, zigzag);
}

static void put_filter(writer* w, carom_filter filter) {
    put_le(w, filter.category, 8);
    put_le(w, filter.mask, 8);
    put_svar(w, filter.group);
}

static bool bits_are_zero(double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits == 0;
}

/* ---- Checksum --------------------------------------------------------------------------- */

/* Four lanes, each taking every fourth 8-byte word: each lane's step is a bijection of its
 * running value for a fixed word, so any change confined to one word always changes the result;
 * other corruption is caught with probability 1 - 2^-64. Four lanes let the multiplications
 * overlap. It detects damage, not forgery: loading validates every value regardless. */
uint64_t carom_snapshot_checksum(const void* data, size_t size) {
    const uint8_t* p = data;
    const uint64_t k = 0x9fb21c651e98df25ull;
    uint64_t lanes[4] = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull,
                         0x082efa98ec4e6c89ull};
    size_t i = 0;
    for (; i + 32 <= size; i += 32) {
        for (int lane = 0; lane < 4; ++lane) {
            uint64_t h = (lanes[lane] ^ carom_load_le64(p + i + 8 * (size_t)lane)) * k;
            lanes[lane] = h ^ (h >> 29);
        }
    }
    for (; i + 8 <= size; i += 8) {
        uint64_t h = (lanes[0] ^ carom_load_le64(p + i)) * k;
        lanes[0] = h ^ (h >> 29);
    }
    uint64_t tail = 0;
    for (int b = 0; i + (size_t)b < size; ++b) {
        tail |= (uint64_t)p[i + (size_t)b] << (8 * b);
    }
    uint64_t h = (lanes[0] ^ tail) * k;
    lanes[0] = h ^ (h >> 29);
    uint64_t combined = (uint64_t)size;
    for (int lane = 0; lane < 4; ++lane) {
        combined = carom_mix64(combined ^ lanes[lane]);
    }
    return combined;
}

static size_t begin_part(writer* w) {
    size_t start = w->size;
    for (int i = 0; i < HEADER_SIZE + COUNTS_SIZE; ++i) {
        put_u8(w, 0); /* filled in by end_part */
    }
    return start;
}

/* Fill in the header once the payload is written (and only if it all fit). */
static void end_part(writer* w, size_t start, bool is_scene, uint64_t scene_checksum,
                     uint32_t body_count, uint32_t second_count, uint32_t step_count,
                     uint64_t* checksum_out) {
    size_t payload_size = w->size - start - HEADER_SIZE;
    if (w->size > w->capacity) {
        return;
    }
    writer counts = {w->data + start + HEADER_SIZE, COUNTS_SIZE, 0, -1, w->version};
    put_le(&counts, body_count, 4);
    put_le(&counts, second_count, 4);
    put_le(&counts, step_count, 4);
    uint64_t checksum = carom_snapshot_checksum(w->data + start + HEADER_SIZE, payload_size);
    writer header = {w->data + start, HEADER_SIZE, 0, -1, w->version};
    memcpy(header.data, is_scene ? SCENE_MAGIC : STATE_MAGIC, 4);
    header.size = 4;
    put_le(&header, (uint64_t)w->version, 2);
    put_le(&header, 0, 2);
    put_le(&header, payload_size, 8);
    put_le(&header, checksum, 8);
    put_le(&header, is_scene ? checksum : scene_checksum, 8);
    if (checksum_out != NULL) {
        *checksum_out = checksum;
    }
}

/* ---- The scene part --------------------------------------------------------------------- */

static void write_pool(writer* w, const carom_id_pool* pool) {
    put_uvar(w, (uint64_t)pool->next_id);
    put_uvar(w, (uint64_t)arrlen(pool->free_ids));
    for (int i = 0; i < (int)arrlen(pool->free_ids); ++i) {
        put_uvar(w, (uint64_t)pool->free_ids[i]);
    }
}

static void write_world_def(writer* w, const carom_world_def* def) {
    put_f64(w, def->cell_size);
    put_f64(w, def->restitution_threshold);
    put_f64(w, def->contact_hertz);
    put_f64(w, def->contact_damping_ratio);
    put_f64(w, def->contact_push_max_velocity);
    put_f64(w, def->contact_slop);
    put_u8(w, def->enable_continuous != 0);
    put_u8(w, def->enable_sleep != 0);
    put_f64(w, def->sleep_linear_threshold);
    put_f64(w, def->sleep_angular_threshold);
    put_f64(w, def->time_to_sleep);
    put_f64(w, def->speculative_distance);
    put_f64(w, def->contact_recycle_distance);
    if (w->version >= 3) {
        put_f64(w, def->joint_hertz);
        put_f64(w, def->joint_damping_ratio);
    }
}

static void write_geometry(writer* w, const carom_shape* shape) {
    switch (shape->type) {
    case CAROM_SHAPE_CIRCLE:
        put_vec2(w, shape->circle.center);
        put_f64(w, shape->circle.radius);
        break;
    case CAROM_SHAPE_POLYGON:
        put_uvar(w, (uint64_t)shape->polygon.count);
        for (int i = 0; i < shape->polygon.count; ++i) {
            put_vec2(w, shape->polygon.vertices[i]);
            put_vec2(w, shape->polygon.normals[i]);
        }
        put_vec2(w, shape->polygon.centroid);
        if (w->version >= 4) {
            put_f64(w, shape->polygon.radius);
        }
        break;
    case CAROM_SHAPE_CAPSULE: /* version 4; the polygon is rebuilt from these */
        put_vec2(w, shape->polygon.vertices[0]);
        put_vec2(w, shape->polygon.vertices[1]);
        put_f64(w, shape->polygon.radius);
        break;
    case CAROM_SHAPE_SEGMENT:
        put_vec2(w, shape->segment.point1);
        put_vec2(w, shape->segment.point2);
        break;
    case CAROM_SHAPE_CHAIN_SEGMENT:
        put_vec2(w, shape->chain.ghost1);
        put_vec2(w, shape->chain.point1);
        put_vec2(w, shape->chain.point2);
        put_vec2(w, shape->chain.ghost2);
        put_u8(w, shape->chain.has_ghost1 != 0);
        put_u8(w, shape->chain.has_ghost2 != 0);
        put_u8(w, shape->chain.one_sided != 0);
        break;
    }
}

static void write_shape(writer* w, const carom_shape* shape) {
    put_uvar(w, (uint64_t)shape->body);
    put_uvar(w, (uint64_t)(shape->next_shape + 1));
    put_u8(w, (uint8_t)shape->type);
    write_geometry(w, shape);
    put_u8(w, shape->is_sensor);
    put_u8(w, carom_shape_event_bits(shape));
    put_f64(w, shape->hit_speed_threshold);
    put_f64(w, shape->surface_grip);
    put_f64(w, shape->density);
    put_f64(w, shape->friction);
    put_f64(w, shape->restitution);
    put_filter(w, shape->filter);
}

static void write_vehicle_def(writer* w, const carom_vehicle_def* def) {
    put_uvar(w, (uint64_t)def->wheel_count);
    for (int i = 0; i < def->wheel_count; ++i) {
        put_vec2(w, def->wheels[i].position);
        put_u8(w, def->wheels[i].steered != 0);
        put_u8(w, def->wheels[i].driven != 0);
        put_u8(w, def->wheels[i].handbrake != 0);
    }
    const double numbers[] = {def->gravity,
                              def->grip,
                              def->peak_slip_angle,
                              def->slide_grip_ratio,
                              def->max_drive_force,
                              def->max_power,
                              def->max_brake_force,
                              def->handbrake_force,
                              def->handbrake_grip_factor,
                              def->max_steer_angle,
                              def->steer_reduction_speed,
                              def->rolling_resistance,
                              def->drag_coefficient};
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
        put_f64(w, numbers[i]);
    }
    put_filter(w, def->surface_filter);
}

/* ---- Joints (format version 3) ------------------------------------------------------------ *
 * The scene holds what only creation sets: kind, bodies, flags, thresholds, frames and the
 * kind's settings. What the API changes between steps (a motor's speed, a mouse joint's target)
 * and what a step changes (accumulated impulses, the reaction) are state, so that rollback
 * across them needs the state part alone. */

static void put_bits(writer* w, bool a, bool b, bool c) {
    put_u8(w, (uint8_t)((a ? 1 : 0) | (b ? 2 : 0) | (c ? 4 : 0)));
}

static void write_joint_settings(writer* w, const carom_joint* joint) {
    switch (joint->type) {
    case CAROM_JOINT_REVOLUTE: {
        const carom_revolute_joint* r = &joint->revolute;
        put_bits(w, r->enable_limit, r->enable_motor, r->enable_spring);
        const double numbers[] = {r->lower_angle, r->upper_angle, r->max_motor_torque, r->hertz,
                                  r->damping_ratio};
        for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
            put_f64(w, numbers[i]);
        }
        break;
    }
    case CAROM_JOINT_PRISMATIC: {
        const carom_prismatic_joint* p = &joint->prismatic;
        put_vec2(w, p->local_axis_a);
        put_bits(w, p->enable_limit, p->enable_motor, p->enable_spring);
        const double numbers[] = {p->lower_translation, p->upper_translation, p->max_motor_force,
                                  p->hertz, p->damping_ratio};
        for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
            put_f64(w, numbers[i]);
        }
        break;
    }
    case CAROM_JOINT_DISTANCE: {
        const carom_distance_joint* d = &joint->distance;
        put_bits(w, d->enable_spring, d->enable_limit, false);
        const double numbers[] = {d->length, d->min_length, d->max_length, d->hertz,
                                  d->damping_ratio};
        for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
            put_f64(w, numbers[i]);
        }
        break;
    }
    case CAROM_JOINT_WELD: {
        const carom_weld_joint* weld = &joint->weld;
        put_f64(w, weld->linear_hertz);
        put_f64(w, weld->linear_damping_ratio);
        put_f64(w, weld->angular_hertz);
        put_f64(w, weld->angular_damping_ratio);
        break;
    }
    case CAROM_JOINT_WHEEL: {
        const carom_wheel_joint* wheel = &joint->wheel;
        put_vec2(w, wheel->local_axis_a);
        put_bits(w, wheel->enable_spring, wheel->enable_limit, wheel->enable_motor);
        const double numbers[] = {wheel->hertz, wheel->damping_ratio, wheel->lower_translation,
                                  wheel->upper_translation, wheel->max_motor_torque};
        for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
            put_f64(w, numbers[i]);
        }
        break;
    }
    case CAROM_JOINT_MOTOR: {
        const carom_motor_joint* m = &joint->motor;
        put_f64(w, m->angular_offset);
        put_f64(w, m->max_force);
        put_f64(w, m->max_torque);
        put_f64(w, m->correction_factor);
        break;
    }
    case CAROM_JOINT_MOUSE: {
        const carom_mouse_joint* m = &joint->mouse;
        put_f64(w, m->hertz);
        put_f64(w, m->damping_ratio);
        put_f64(w, m->max_force);
        break;
    }
    }
}

static void write_joint(writer* w, const carom_joint* joint) {
    put_u8(w, (uint8_t)joint->type);
    put_uvar(w, (uint64_t)(joint->edges[0].body + 1));
    put_uvar(w, (uint64_t)joint->edges[1].body);
    put_u8(w, joint->collide_connected);
    put_f64(w, joint->break_force);
    put_f64(w, joint->break_torque);
    if (joint->type != CAROM_JOINT_MOUSE) {
        put_vec2(w, joint->local_anchor_a); /* a mouse joint's is its target: state */
    }
    put_vec2(w, joint->local_anchor_b);
    put_f64(w, joint->reference_rotation.c);
    put_f64(w, joint->reference_rotation.s);
    write_joint_settings(w, joint);
}

static void write_joints(writer* w, const carom_world* world) {
    write_pool(w, &world->joint_pool);
    for (int i = 0; i < (int)arrlen(world->joints); ++i) {
        put_uvar(w, world->joints[i].generation);
        if (world->joints[i].id >= 0) {
            write_joint(w, &world->joints[i]);
        }
    }
}

int carom_snapshot_joint_state_fields(carom_joint* joint, double** fields, double* minimums) {
    double* values[CAROM_JOINT_STATE_FIELDS] = {NULL};
    int count = 0;
    switch (joint->type) {
    case CAROM_JOINT_REVOLUTE: {
        carom_revolute_joint* r = &joint->revolute;
        double* list[] = {&r->motor_speed,    &r->linear_impulse.x, &r->linear_impulse.y,
                          &r->spring_impulse, &r->motor_impulse,    &r->lower_impulse,
                          &r->upper_impulse};
        count = (int)(sizeof(list) / sizeof(list[0]));
        memcpy(values, list, sizeof(list));
        break;
    }
    case CAROM_JOINT_PRISMATIC: {
        carom_prismatic_joint* p = &joint->prismatic;
        double* list[] = {&p->motor_speed,    &p->perpendicular_impulse, &p->angular_impulse,
                          &p->spring_impulse, &p->motor_impulse,         &p->lower_impulse,
                          &p->upper_impulse};
        count = (int)(sizeof(list) / sizeof(list[0]));
        memcpy(values, list, sizeof(list));
        break;
    }
    case CAROM_JOINT_DISTANCE: {
        carom_distance_joint* d = &joint->distance;
        double* list[] = {&d->impulse, &d->spring_impulse, &d->lower_impulse, &d->upper_impulse};
        count = (int)(sizeof(list) / sizeof(list[0]));
        memcpy(values, list, sizeof(list));
        break;
    }
    case CAROM_JOINT_WELD: {
        carom_weld_joint* weld = &joint->weld;
        double* list[] = {&weld->linear_impulse.x, &weld->linear_impulse.y,
                          &weld->angular_impulse};
        count = (int)(sizeof(list) / sizeof(list[0]));
        memcpy(values, list, sizeof(list));
        break;
    }
    case CAROM_JOINT_WHEEL: {
        carom_wheel_joint* wheel = &joint->wheel;
        double* list[] = {&wheel->motor_speed,   &wheel->perpendicular_impulse,
                          &wheel->spring_impulse, &wheel->lower_impulse,
                          &wheel->upper_impulse,  &wheel->motor_impulse};
        count = (int)(sizeof(list) / sizeof(list[0]));
        memcpy(values, list, sizeof(list));
        break;
    }
    case CAROM_JOINT_MOTOR: {
        carom_motor_joint* m = &joint->motor;
        double* list[] = {&m->linear_impulse.x, &m->linear_impulse.y, &m->angular_impulse};
        count = (int)(sizeof(list) / sizeof(list[0]));
        memcpy(values, list, sizeof(list));
        break;
    }
    case CAROM_JOINT_MOUSE: {
        carom_mouse_joint* m = &joint->mouse;
        double* list[] = {&joint->local_anchor_a.x, &joint->local_anchor_a.y,
                          &m->linear_impulse.x, &m->linear_impulse.y};
        count = (int)(sizeof(list) / sizeof(list[0]));
        memcpy(values, list, sizeof(list));
        break;
    }
    }
    double* common[] = {&joint->reaction_force.x, &joint->reaction_force.y,
                        &joint->reaction_torque};
    CAROM_ASSERT(count + 3 <= CAROM_JOINT_STATE_FIELDS);
    for (int i = 0; i < 3; ++i) {
        values[count++] = common[i];
    }
    for (int i = 0; i < count; ++i) {
        fields[i] = values[i];
        /* accumulated limit impulses only push: never below 0 */
        bool limit = (joint->type == CAROM_JOINT_REVOLUTE &&
                      (values[i] == &joint->revolute.lower_impulse ||
                       values[i] == &joint->revolute.upper_impulse)) ||
                     (joint->type == CAROM_JOINT_PRISMATIC &&
                      (values[i] == &joint->prismatic.lower_impulse ||
                       values[i] == &joint->prismatic.upper_impulse)) ||
                     (joint->type == CAROM_JOINT_DISTANCE &&
                      (values[i] == &joint->distance.lower_impulse ||
                       values[i] == &joint->distance.upper_impulse)) ||
                     (joint->type == CAROM_JOINT_WHEEL &&
                      (values[i] == &joint->wheel.lower_impulse ||
                       values[i] == &joint->wheel.upper_impulse));
        minimums[i] = limit ? 0.0 : -CAROM_MAX_MAGNITUDE;
    }
    return count;
}

static void write_joint_state(writer* w, const carom_joint* joint) {
    carom_joint copy = *joint; /* the field list names fields to change; this only reads them */
    double* fields[CAROM_JOINT_STATE_FIELDS];
    double minimums[CAROM_JOINT_STATE_FIELDS];
    int count = carom_snapshot_joint_state_fields(&copy, fields, minimums);
    for (int i = 0; i < count; ++i) {
        put_f64(w, *fields[i]);
    }
}

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof(a)) == 0; }

/* Whether a live shape is a capsule or a rounded polygon, which only version 4 holds. */
static bool has_rounded_shapes(const carom_world* world) {
    for (int i = 0; i < (int)arrlen(world->shapes); ++i) {
        const carom_shape* shape = &world->shapes[i];
        if (shape->id >= 0 && (shape->type == CAROM_SHAPE_CAPSULE ||
                               (shape->type == CAROM_SHAPE_POLYGON && shape->polygon.radius > 0.0))) {
            return true;
        }
    }
    return false;
}

/* Whether a live shape has its contact events off, which only version 6 holds. */
static bool has_shapes_without_contact_events(const carom_world* world) {
    for (int i = 0; i < (int)arrlen(world->shapes); ++i) {
        if (world->shapes[i].id >= 0 && !world->shapes[i].enable_contact_events) {
            return true;
        }
    }
    return false;
}

int carom_snapshot_world_version(const carom_world* world) {
    if (has_shapes_without_contact_events(world)) {
        return 6;
    }
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        const carom_body* body = &world->bodies[i];
        if (body->id >= 0 && (body->fixed_rotation || body->mass_override || body->disabled)) {
            return 5;
        }
    }
    if (has_rounded_shapes(world)) {
        return 4;
    }
    carom_world_def defaults = carom_default_world_def();
    bool joint_settings_default = same_bits(world->def.joint_hertz, defaults.joint_hertz) &&
                                  same_bits(world->def.joint_damping_ratio,
                                            defaults.joint_damping_ratio);
    return world->joint_pool.next_id == 0 && joint_settings_default ? 2 : 3;
}

/* Version 5: the body's options, then its mass override if it has one. */
static void write_body_options(writer* w, const carom_body* body) {
    put_u8(w, (uint8_t)((body->fixed_rotation ? BODY_OPTION_FIXED_ROTATION : 0) |
                        (body->mass_override ? BODY_OPTION_MASS_OVERRIDE : 0) |
                        (body->disabled ? BODY_OPTION_DISABLED : 0)));
    if (body->mass_override) {
        put_f64(w, body->override_mass.mass);
        put_vec2(w, body->override_mass.center);
        put_f64(w, body->override_mass.rotational_inertia);
    }
}

static void write_scene_payload(writer* w, const carom_world* world) {
    write_world_def(w, &world->def);
    write_pool(w, &world->body_pool);
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        const carom_body* body = &world->bodies[i];
        put_uvar(w, body->generation);
        if (body->id >= 0) {
            put_u8(w, (uint8_t)body->type);
            put_f64(w, body->linear_damping);
            put_f64(w, body->angular_damping);
            put_f64(w, body->gravity_scale);
            put_u8(w, body->bullet);
            if (w->version >= 5) {
                write_body_options(w, body);
            }
            put_uvar(w, (uint64_t)(body->first_shape + 1));
        }
    }
    write_pool(w, &world->shape_pool);
    for (int i = 0; i < (int)arrlen(world->shapes); ++i) {
        put_uvar(w, world->shapes[i].generation);
        if (world->shapes[i].id >= 0) {
            write_shape(w, &world->shapes[i]);
        }
    }
    write_pool(w, &world->vehicle_pool);
    for (int i = 0; i < (int)arrlen(world->vehicles); ++i) {
        const carom_vehicle* vehicle = &world->vehicles[i];
        put_uvar(w, vehicle->generation);
        if (vehicle->id >= 0) {
            put_uvar(w, (uint64_t)vehicle->body);
            write_vehicle_def(w, &vehicle->def);
        }
    }
    if (w->version >= 3) {
        write_joints(w, world);
    }
}

static void write_scene_part(writer* w, const carom_world* world, uint64_t* checksum_out) {
    size_t start = begin_part(w);
    write_scene_payload(w, world);
    end_part(w, start, true, 0, (uint32_t)carom_id_pool_count(&world->body_pool),
             (uint32_t)carom_id_pool_count(&world->shape_pool), 0, checksum_out);
}

uint64_t carom_snapshot_scene_checksum(carom_world* world) {
    if (world->scene_checksum_revision != world->scene_revision) {
        int version = carom_snapshot_world_version(world);
        writer measure = {NULL, 0, 0, -1, version};
        write_scene_part(&measure, world, NULL);
        arrsetlen(world->snapshot_scratch, measure.size);
        writer w = {world->snapshot_scratch, measure.size, 0, -1, version};
        write_scene_part(&w, world, &world->scene_checksum);
        world->scene_checksum_revision = world->scene_revision;
    }
    return world->scene_checksum;
}

/* ---- The state part --------------------------------------------------------------------- */

/* The fat box's sides in quanta from the tight box rounded outward; false when that is no
 * whole number a snapshot can hold (a pose that is not finite). */
static bool fat_offset(double tight, double fat, bool lower, int64_t* out) {
    double scale = 1.0 / CAROM_AABB_QUANTUM;
    double rounded = lower ? floor(tight * scale) : ceil(tight * scale);
    double offset = lower ? rounded - fat * scale : fat * scale - rounded;
    if (!(fabs(offset) <= (double)MAX_FAT_OFFSET)) {
        *out = 0;
        return false;
    }
    *out = (int64_t)offset;
    return true;
}

static void write_fat_box(writer* w, const carom_shape* shape, const carom_proxy* proxy) {
    carom_aabb tight = shape->aabb;
    carom_aabb fat = proxy->fat_aabb;
    const double tight_sides[4] = {tight.lower.x, tight.lower.y, tight.upper.x, tight.upper.y};
    const double fat_sides[4] = {fat.lower.x, fat.lower.y, fat.upper.x, fat.upper.y};
    int64_t offsets[4];
    for (int i = 0; i < 4; ++i) {
        if (!fat_offset(tight_sides[i], fat_sides[i], i < 2, &offsets[i]) && w->bad_body < 0) {
            w->bad_body = shape->body;
        }
    }
    /* the moved flag rides in the lowest bit of the first offset */
    put_svar(w, (int64_t)((uint64_t)offsets[0] << 1) | (proxy->moved ? 1 : 0));
    for (int i = 1; i < 4; ++i) {
        put_svar(w, offsets[i]);
    }
}

static void write_body_state(writer* w, const carom_world* world, const carom_body* body) {
    bool velocity = !bits_are_zero(body->linear_velocity.x) ||
                    !bits_are_zero(body->linear_velocity.y) ||
                    !bits_are_zero(body->angular_velocity);
    bool force = !bits_are_zero(body->force.x) || !bits_are_zero(body->force.y) ||
                 !bits_are_zero(body->torque);
    uint8_t flags = (uint8_t)((velocity ? BODY_HAS_VELOCITY : 0) |
                              (!bits_are_zero(body->sleep_time) ? BODY_HAS_REST_TIME : 0) |
                              (body->asleep ? BODY_ASLEEP : 0) | (force ? BODY_HAS_FORCE : 0) |
                              (body->enable_sleep ? BODY_SLEEP_ENABLED : 0));
    put_u8(w, flags);
    put_vec2(w, body->center);
    put_f64(w, body->transform.q.c);
    put_f64(w, body->transform.q.s);
    if (velocity) {
        put_vec2(w, body->linear_velocity);
        put_f64(w, body->angular_velocity);
    }
    if (flags & BODY_HAS_REST_TIME) {
        put_f64(w, body->sleep_time);
        put_f64(w, body->rest_energy);
    }
    if (body->asleep) {
        put_uvar(w, (uint64_t)body->island);
    }
    if (force) {
        put_vec2(w, body->force);
        put_f64(w, body->torque);
    }
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        write_fat_box(w, &world->shapes[s], &world->broad_phase.proxies[s]);
    }
}

static void write_contact(writer* w, const carom_contact* contact) {
    put_uvar(w, (uint64_t)contact->shape_a);
    put_uvar(w, (uint64_t)contact->shape_b);
    put_u8(w, (uint8_t)(contact->point_count | (contact->touching ? CONTACT_TOUCHING : 0) |
                        (contact->manifold_cached ? CONTACT_CACHED : 0)));
    if (contact->manifold_cached) {
        /* the pose the manifold was made at (its rotation follows from the bodies') */
        put_vec2(w, contact->cached_pose.p);
        put_f64(w, contact->cached_rotation_a.c);
        put_f64(w, contact->cached_rotation_a.s);
        put_f64(w, contact->cached_rotation_b.c);
        put_f64(w, contact->cached_rotation_b.s);
    }
    if (contact->point_count == 0) {
        return; /* nothing of a pointless manifold is ever read */
    }
    put_vec2(w, contact->normal);
    put_f64(w, contact->friction);
    put_f64(w, contact->restitution);
    for (int i = 0; i < contact->point_count; ++i) {
        const carom_contact_point* cp = &contact->points[i];
        put_vec2(w, cp->point);
        put_vec2(w, cp->anchor_a);
        put_vec2(w, cp->anchor_b);
        put_f64(w, cp->separation);
        put_le(w, cp->id, 4);
        put_f64(w, contact->impulses[i].normal);
        put_f64(w, contact->impulses[i].tangent);
        if (contact->manifold_cached) {
            put_f64(w, cp->base_separation);
        }
    }
}

static void write_vehicle_state(writer* w, const carom_vehicle* vehicle) {
    put_f64(w, vehicle->input.throttle);
    put_f64(w, vehicle->input.brake);
    put_f64(w, vehicle->input.steer);
    put_u8(w, (uint8_t)vehicle->input.handbrake);
    put_f64(w, vehicle->steer_lock);
    put_f64(w, vehicle->steer_angle);
    for (int i = 0; i < vehicle->def.wheel_count; ++i) {
        put_vec2(w, vehicle->wheel_directions[i]);
        put_f64(w, vehicle->slip_angles[i]);
        put_f64(w, vehicle->surface_grips[i]);
        put_f64(w, vehicle->longitudinal_forces[i]);
        put_f64(w, vehicle->lateral_forces[i]);
        put_u8(w, (uint8_t)vehicle->sliding[i]);
    }
}

static void write_state_part(writer* w, carom_world* world, uint64_t scene) {
    size_t start = begin_part(w);
    put_vec2(w, world->def.gravity);
    put_uvar(w, (uint64_t)world->def.substeps);
    put_uvar(w, (uint64_t)world->step_count);
    put_f64(w, world->broad_phase.cell_size);
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        if (world->bodies[i].id >= 0) {
            write_body_state(w, world, &world->bodies[i]);
        }
    }
    write_pool(w, &world->contact_pool);
    for (int i = 0; i < (int)arrlen(world->contacts); ++i) {
        if (world->contacts[i].id >= 0) {
            write_contact(w, &world->contacts[i]);
        }
    }
    write_pool(w, &world->island_pool);
    for (int i = 0; i < (int)arrlen(world->vehicles); ++i) {
        if (world->vehicles[i].id >= 0) {
            write_vehicle_state(w, &world->vehicles[i]);
        }
    }
    for (int i = 0; w->version >= 3 && i < (int)arrlen(world->joints); ++i) {
        if (world->joints[i].id >= 0) {
            write_joint_state(w, &world->joints[i]);
        }
    }
    end_part(w, start, false, scene, (uint32_t)carom_id_pool_count(&world->body_pool),
             (uint32_t)carom_id_pool_count(&world->contact_pool), (uint32_t)world->step_count,
             NULL);
}

carom_status carom_world_save(carom_world_id id, carom_snapshot_parts parts, void* buffer,
                              size_t capacity, size_t* size) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "save a snapshot");
    if (status != CAROM_OK) {
        return status;
    }
    if (size == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "snapshot size output pointer is NULL");
    }
    if (parts != CAROM_SNAPSHOT_STATE && parts != CAROM_SNAPSHOT_SCENE &&
        parts != CAROM_SNAPSHOT_FULL) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "snapshot parts is %d: use CAROM_SNAPSHOT_STATE, _SCENE or _FULL",
                          (int)parts);
    }
    writer w = {buffer, buffer != NULL ? capacity : 0, 0, -1, carom_snapshot_world_version(world)};
    if (parts & CAROM_SNAPSHOT_SCENE) {
        uint64_t checksum = 0;
        write_scene_part(&w, world, buffer != NULL ? &checksum : NULL);
        if (buffer != NULL && w.size <= capacity) {
            world->scene_checksum = checksum; /* what was just written: no need to encode it again */
            world->scene_checksum_revision = world->scene_revision;
        }
    }
    if (parts & CAROM_SNAPSHOT_STATE) {
        /* the scene checksum is needed only when the bytes are really written */
        write_state_part(&w, world, buffer != NULL ? carom_snapshot_scene_checksum(world) : 0);
    }
    *size = w.size;
    if (w.bad_body >= 0) {
        return carom_fail(CAROM_ERROR_NOT_FINITE,
                          "body %d has a pose that is not finite (the world blew up): it cannot "
                          "be saved",
                          w.bad_body);
    }
    if (buffer != NULL && w.size > capacity) {
        return carom_fail(CAROM_ERROR_BUFFER_TOO_SMALL,
                          "snapshot needs %zu bytes but the buffer has %zu", w.size, capacity);
    }
    return CAROM_OK;
}
