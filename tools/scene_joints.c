/* Scene files: the "joints" array, read and checked against the contract of docs/cli.md (the
 * bodies named, the kind's own keys, limits, motors, springs and exact frames). */
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

/* ---- Joints ----------------------------------------------------------------------------- */

enum joint_key {
    JOINT_TYPE,
    JOINT_NAME,
    JOINT_BODY_A,
    JOINT_BODY_B,
    JOINT_COLLIDE_CONNECTED,
    JOINT_BREAK_FORCE,
    JOINT_BREAK_TORQUE,
    JOINT_ANCHOR,
    JOINT_ANCHOR_A,
    JOINT_ANCHOR_B,
    JOINT_AXIS,
    JOINT_LIMIT,
    JOINT_MOTOR,
    JOINT_SPRING,
    JOINT_LENGTH,
    JOINT_MIN_LENGTH,
    JOINT_MAX_LENGTH,
    JOINT_LINEAR_HERTZ,
    JOINT_LINEAR_DAMPING_RATIO,
    JOINT_ANGULAR_HERTZ,
    JOINT_ANGULAR_DAMPING_RATIO,
    JOINT_LINEAR_OFFSET,
    JOINT_ANGULAR_OFFSET,
    JOINT_MAX_FORCE,
    JOINT_MAX_TORQUE,
    JOINT_CORRECTION_FACTOR,
    JOINT_FRAME,
    JOINT_KEY_COUNT
};

static const char* const joint_keys[JOINT_KEY_COUNT] = {"type",
                                                        "name",
                                                        "body_a",
                                                        "body_b",
                                                        "collide_connected",
                                                        "break_force",
                                                        "break_torque",
                                                        "anchor",
                                                        "anchor_a",
                                                        "anchor_b",
                                                        "axis",
                                                        "limit",
                                                        "motor",
                                                        "spring",
                                                        "length",
                                                        "min_length",
                                                        "max_length",
                                                        "linear_hertz",
                                                        "linear_damping_ratio",
                                                        "angular_hertz",
                                                        "angular_damping_ratio",
                                                        "linear_offset",
                                                        "angular_offset",
                                                        "max_force",
                                                        "max_torque",
                                                        "correction_factor",
                                                        "frame"};

/* The kinds a scene file takes, by the name it gives them. Mouse joints follow a pointer: they
 * have no place in a file. */
#define JOINT_KINDS 6
static const char* const joint_kind_names[JOINT_KINDS] = {"revolute", "prismatic", "distance",
                                                          "weld",     "wheel",     "motor"};
static const carom_joint_type joint_kind_types[JOINT_KINDS] = {
    CAROM_JOINT_REVOLUTE, CAROM_JOINT_PRISMATIC, CAROM_JOINT_DISTANCE,
    CAROM_JOINT_WELD,     CAROM_JOINT_WHEEL,     CAROM_JOINT_MOTOR};

static const char* joint_type_name(carom_joint_type type) {
    for (int i = 0; i < JOINT_KINDS; ++i) {
        if (joint_kind_types[i] == type) {
            return joint_kind_names[i];
        }
    }
    return "mouse";
}

#define KIND(type) (1u << (type))
/* Which kinds take each key (a bit per carom_joint_type). */
static unsigned joint_key_types(int key) {
    const unsigned revolute = KIND(CAROM_JOINT_REVOLUTE), prismatic = KIND(CAROM_JOINT_PRISMATIC),
                   distance = KIND(CAROM_JOINT_DISTANCE), weld = KIND(CAROM_JOINT_WELD),
                   wheel = KIND(CAROM_JOINT_WHEEL), motor = KIND(CAROM_JOINT_MOTOR);
    switch (key) {
    case JOINT_BREAK_TORQUE:
        return revolute | prismatic | weld | wheel | motor; /* a distance joint has no torque */
    case JOINT_ANCHOR:
        return revolute | prismatic | weld | wheel;
    case JOINT_ANCHOR_A:
    case JOINT_ANCHOR_B:
    case JOINT_LENGTH:
    case JOINT_MIN_LENGTH:
    case JOINT_MAX_LENGTH:
        return distance;
    case JOINT_AXIS:
        return prismatic | wheel;
    case JOINT_LIMIT:
    case JOINT_MOTOR:
        return revolute | prismatic | wheel;
    case JOINT_SPRING:
        return revolute | prismatic | distance | wheel;
    case JOINT_LINEAR_HERTZ:
    case JOINT_LINEAR_DAMPING_RATIO:
    case JOINT_ANGULAR_HERTZ:
    case JOINT_ANGULAR_DAMPING_RATIO:
        return weld;
    case JOINT_LINEAR_OFFSET:
    case JOINT_ANGULAR_OFFSET:
    case JOINT_MAX_FORCE:
    case JOINT_MAX_TORQUE:
    case JOINT_CORRECTION_FACTOR:
        return motor;
    default:
        return ~0u; /* common to every kind */
    }
}

static bool read_joint_type(loader* ld, const cJSON* item, carom_joint_type* out) {
    int index = read_type_name(ld, item, "joint", joint_kind_names, JOINT_KINDS,
                               "\"revolute\", \"prismatic\", \"distance\", \"weld\", "
                               "\"wheel\" or \"motor\"");
    if (index >= 0) {
        *out = joint_kind_types[index];
    }
    return index >= 0;
}

/* "body_a" or "body_b": the name of a body of the scene; *out receives its index. */
static bool read_joint_body(loader* ld, const cJSON* item, const char* key, const name_set* names,
                            int* out) {
    if (!require(ld, item, key,
                 "a joint needs \"body_a\" and \"body_b\", the names of the bodies it joins")) {
        return false;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = false;
    char quoted[QUOTE_SIZE];
    if (!cJSON_IsString(item)) {
        report_error(ld, "must be the name of a body (a string), not %s", json_kind(item));
    } else if ((*out = name_set_find(names, item->valuestring)) < 0) {
        report_error(ld, "no body is named %s",
                     quote_for_message(item->valuestring, quoted, sizeof(quoted)));
    } else {
        ok = true;
    }
    path_pop(ld, mark);
    return ok;
}

/* Keys of another kind ("axis" on a revolute joint) are ignored with a warning, as for shapes. */
static void warn_foreign_joint_keys(loader* ld, const cJSON** fields, carom_joint_type type) {
    for (int key = 0; key < JOINT_KEY_COUNT; ++key) {
        if (fields[key] != NULL && (joint_key_types(key) & KIND(type)) == 0) {
            size_t mark = path_push_key(ld, joint_keys[key]);
            report_warning(ld, "a %s joint has no %s, ignored", joint_type_name(type),
                           joint_keys[key]);
            path_pop(ld, mark);
        }
    }
}

/* "limit": [lower, upper], lower <= upper; a revolute joint's within [-pi, pi]. */
static bool read_limit(loader* ld, const cJSON* item, scene_joint* joint) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "limit");
    carom_vec2 limit = {0.0, 0.0};
    bool ok = read_vec2(ld, item, ANY, &limit);
    char lower[FORMAT_DOUBLE_SIZE], upper[FORMAT_DOUBLE_SIZE];
    format_double(limit.x, lower);
    format_double(limit.y, upper);
    if (ok && limit.x > limit.y) {
        report_error(ld, "the lower limit %s is greater than the upper %s: give [lower, upper]",
                     lower, upper);
        ok = false;
    } else if (ok && joint->type == CAROM_JOINT_REVOLUTE &&
               (limit.x < -CAROM_PI || limit.y > CAROM_PI)) {
        report_error(ld, "[%s, %s] reaches beyond [-pi, pi]: a joint angle wraps at +-pi", lower,
                     upper);
        ok = false;
    }
    path_pop(ld, mark);
    joint->has_limit = ok;
    joint->lower = limit.x;
    joint->upper = limit.y;
    return ok;
}

/* "motor": {"speed", "max_torque"} ("max_force" for a prismatic joint). */
static bool read_joint_motor(loader* ld, const cJSON* item, scene_joint* joint) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "motor");
    bool ok = cJSON_IsObject(item);
    if (!ok) {
        report_error(ld, "must be an object {\"speed\": ..., \"%s\": ...}, not %s",
                     joint->type == CAROM_JOINT_PRISMATIC ? "max_force" : "max_torque",
                     json_kind(item));
    } else {
        const char* keys[2] = {"speed",
                               joint->type == CAROM_JOINT_PRISMATIC ? "max_force" : "max_torque"};
        const cJSON* fields[2];
        read_fields(ld, item, keys, 2, fields);
        ok = member_number(ld, fields[0], keys[0], ANY, &joint->motor_speed);
        ok = member_number(ld, fields[1], keys[1], NON_NEGATIVE, &joint->max_motor) && ok;
    }
    path_pop(ld, mark);
    joint->has_motor = ok;
    return ok;
}

/* "spring": {"hertz", "damping_ratio"}. */
static bool read_joint_spring(loader* ld, const cJSON* item, scene_joint* joint) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "spring");
    bool ok = cJSON_IsObject(item);
    if (!ok) {
        report_error(ld, "must be an object {\"hertz\": ..., \"damping_ratio\": ...}, not %s",
                     json_kind(item));
    } else {
        static const char* const keys[2] = {"hertz", "damping_ratio"};
        const cJSON* fields[2];
        read_fields(ld, item, keys, 2, fields);
        ok = member_number(ld, fields[0], keys[0], NON_NEGATIVE, &joint->hertz);
        ok = member_number(ld, fields[1], keys[1], NON_NEGATIVE, &joint->damping_ratio) && ok;
    }
    path_pop(ld, mark);
    joint->has_spring = ok;
    return ok;
}

/* An axis: a direction, not [0, 0] (the engine scales it to unit length). */
static bool read_axis(loader* ld, const cJSON* item, carom_vec2* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "axis");
    bool ok = read_vec2(ld, item, ANY, out);
    if (ok && !(carom_length(*out) > 1e-9)) {
        report_error(ld, "must be a direction, not a zero vector");
        ok = false;
    }
    path_pop(ld, mark);
    return ok;
}

static bool unit_vector(carom_vec2 v) {
    return fabs(v.x * v.x + v.y * v.y - 1.0) <= CAROM_ROTATION_TOLERANCE;
}

/* "frame": the joint's exact geometry, as carom_joint_get_frame gives it (state files write it;
 * see docs/cli.md). The rules are carom_joint_set_frame's. */
static bool read_frame(loader* ld, const cJSON* item, scene_joint* joint) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "frame");
    static const char* const keys[5] = {"local_anchor_a", "local_anchor_b", "reference_rotation",
                                        "local_axis_a", "length"};
    bool ok = cJSON_IsObject(item);
    if (!ok) {
        report_error(ld, "must be an object, not %s", json_kind(item));
        path_pop(ld, mark);
        return false;
    }
    const cJSON* fields[5];
    read_fields(ld, item, keys, 5, fields);
    for (int i = 0; i < 4; ++i) {
        ok = require(ld, fields[i], keys[i],
                     "a frame gives all its keys, as state files write "
                     "them") &&
             ok;
    }
    carom_joint_frame* frame = &joint->frame;
    carom_vec2 rotation = {1.0, 0.0};
    frame->local_axis_a = carom_v2(1.0, 0.0);
    ok = member_vec2(ld, fields[0], keys[0], ANY, &frame->local_anchor_a) && ok;
    ok = member_vec2(ld, fields[1], keys[1], ANY, &frame->local_anchor_b) && ok;
    bool rotation_ok = member_vec2(ld, fields[2], keys[2], ANY, &rotation);
    bool axis_ok = member_vec2(ld, fields[3], keys[3], ANY, &frame->local_axis_a);
    ok = member_number(ld, fields[4], keys[4], NON_NEGATIVE, &frame->length) && ok;
    frame->reference_rotation.c = rotation.x;
    frame->reference_rotation.s = rotation.y;
    if (rotation_ok && fields[2] != NULL && !unit_vector(rotation)) {
        size_t inner = path_push_key(ld, keys[2]);
        report_error(ld, "must be [cos, sin] of an angle, a unit vector (within %g)",
                     CAROM_ROTATION_TOLERANCE);
        path_pop(ld, inner);
        rotation_ok = false;
    }
    bool slides = joint->type == CAROM_JOINT_PRISMATIC || joint->type == CAROM_JOINT_WHEEL;
    carom_vec2 axis = frame->local_axis_a;
    if (axis_ok && fields[3] != NULL &&
        (slides ? !unit_vector(axis) : axis.x != 1.0 || axis.y != 0.0)) {
        size_t inner = path_push_key(ld, keys[3]);
        report_error(ld,
                     slides ? "must be a unit vector (within %g)"
                            : "must be [1, 0]: a joint without an axis has that one (%g)",
                     CAROM_ROTATION_TOLERANCE);
        path_pop(ld, inner);
        axis_ok = false;
    }
    bool length_ok = true;
    if (joint->type == CAROM_JOINT_DISTANCE
            ? !(frame->length >= CAROM_MIN_JOINT_LENGTH) ||
                  (joint->has_limit &&
                   (frame->length < joint->min_length || frame->length > joint->max_length))
            : frame->length != 0.0) {
        size_t inner = path_push_key(ld, keys[4]);
        report_error(ld,
                     joint->type == CAROM_JOINT_DISTANCE
                         ? "must be at least 0.001 (m) and within the joint's min and max length"
                         : "must be 0: only a distance joint has a length");
        path_pop(ld, inner);
        length_ok = false;
    }
    path_pop(ld, mark);
    joint->has_frame = ok && rotation_ok && axis_ok && length_ok;
    return joint->has_frame;
}

/* A distance joint's rest length and its limits: the length given (at least 1 mm), or the
 * distance between the anchors; within [min_length, max_length] when either is given. */
static bool check_distance(loader* ld, const cJSON** fields, scene_joint* joint) {
    bool ok = member_number(ld, fields[JOINT_LENGTH], "length", NON_NEGATIVE, &joint->length);
    ok = member_number(ld, fields[JOINT_MIN_LENGTH], "min_length", NON_NEGATIVE,
                       &joint->min_length) &&
         ok;
    ok = member_number(ld, fields[JOINT_MAX_LENGTH], "max_length", NON_NEGATIVE,
                       &joint->max_length) &&
         ok;
    joint->has_limit = fields[JOINT_MIN_LENGTH] != NULL || fields[JOINT_MAX_LENGTH] != NULL;
    if (!ok) {
        return false;
    }
    double length = fields[JOINT_LENGTH] != NULL ? joint->length
                                                 : carom_distance(joint->anchor_a, joint->anchor_b);
    char shown[FORMAT_DOUBLE_SIZE];
    format_double(length, shown);
    if (!(length >= CAROM_MIN_JOINT_LENGTH)) {
        size_t mark = path_push_key(ld, fields[JOINT_LENGTH] != NULL ? "length" : "anchor_b");
        report_error(ld,
                     fields[JOINT_LENGTH] != NULL
                         ? "must be at least 0.001 (m), got %s"
                         : "is %s m from anchor_a: at least 0.001 m apart, or give a \"length\"",
                     shown);
        path_pop(ld, mark);
        return false;
    }
    if (joint->min_length > joint->max_length) {
        size_t mark = path_push_key(ld, "min_length");
        report_error(ld, "is greater than max_length: the shortest must not exceed the longest");
        path_pop(ld, mark);
        return false;
    }
    if (joint->has_limit && (length < joint->min_length || length > joint->max_length)) {
        report_error(ld, "its length %s m lies outside [min_length, max_length]", shown);
        return false;
    }
    return true;
}

/* The kind's own keys (the common ones are read by read_joint). */
static bool read_joint_settings(loader* ld, const cJSON** fields, scene_joint* joint) {
    bool ok = member_vec2(ld, fields[JOINT_ANCHOR], "anchor", ANY, &joint->anchor);
    ok = member_vec2(ld, fields[JOINT_ANCHOR_A], "anchor_a", ANY, &joint->anchor_a) && ok;
    ok = member_vec2(ld, fields[JOINT_ANCHOR_B], "anchor_b", ANY, &joint->anchor_b) && ok;
    ok = read_axis(ld, fields[JOINT_AXIS], &joint->axis) && ok;
    ok = read_limit(ld, fields[JOINT_LIMIT], joint) && ok;
    ok = read_joint_motor(ld, fields[JOINT_MOTOR], joint) && ok;
    ok = read_joint_spring(ld, fields[JOINT_SPRING], joint) && ok;
    const struct {
        int key;
        number_range range;
        double* out;
    } numbers[] = {
        {JOINT_LINEAR_HERTZ, NON_NEGATIVE, &joint->linear_hertz},
        {JOINT_LINEAR_DAMPING_RATIO, NON_NEGATIVE, &joint->linear_damping_ratio},
        {JOINT_ANGULAR_HERTZ, NON_NEGATIVE, &joint->angular_hertz},
        {JOINT_ANGULAR_DAMPING_RATIO, NON_NEGATIVE, &joint->angular_damping_ratio},
        {JOINT_ANGULAR_OFFSET, ANY, &joint->angular_offset},
        {JOINT_MAX_FORCE, NON_NEGATIVE, &joint->max_force},
        {JOINT_MAX_TORQUE, NON_NEGATIVE, &joint->max_torque},
        {JOINT_CORRECTION_FACTOR, UNIT_INTERVAL, &joint->correction_factor},
    };
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
        if ((joint_key_types(numbers[i].key) & KIND(joint->type)) != 0) {
            ok = member_number(ld, fields[numbers[i].key], joint_keys[numbers[i].key],
                               numbers[i].range, numbers[i].out) &&
                 ok;
        }
    }
    if (joint->type == CAROM_JOINT_MOTOR) {
        ok = member_vec2(ld, fields[JOINT_LINEAR_OFFSET], "linear_offset", ANY,
                         &joint->linear_offset) &&
             ok;
    }
    if (joint->type == CAROM_JOINT_DISTANCE) {
        ok = require(ld, fields[JOINT_ANCHOR_A], "anchor_a", "a distance joint joins two points") &&
             require(ld, fields[JOINT_ANCHOR_B], "anchor_b", "a distance joint joins two points") &&
             check_distance(ld, fields, joint) && ok;
    }
    return ok;
}

/* The engine's defaults for the kind, before the file's keys. */
static void joint_defaults(scene_joint* joint) {
    carom_prismatic_joint_def prismatic = carom_default_prismatic_joint_def();
    carom_wheel_joint_def wheel = carom_default_wheel_joint_def();
    carom_distance_joint_def distance = carom_default_distance_joint_def();
    carom_motor_joint_def motor = carom_default_motor_joint_def();
    joint->axis = joint->type == CAROM_JOINT_WHEEL ? wheel.axis : prismatic.axis;
    if (joint->type == CAROM_JOINT_WHEEL) {
        joint->has_spring = wheel.enable_spring != 0;
        joint->hertz = wheel.hertz;
        joint->damping_ratio = wheel.damping_ratio;
    }
    joint->min_length = distance.min_length;
    joint->max_length = distance.max_length;
    joint->max_force = motor.max_force;
    joint->max_torque = motor.max_torque;
    joint->correction_factor = motor.correction_factor;
}

/* A joint's bodies: two different ones, at least one of them dynamic. */
static bool check_joint_bodies(loader* ld, const scene_def* scene, const scene_joint* joint) {
    char quoted[QUOTE_SIZE];
    const char* name = scene->bodies[joint->body_a].name;
    if (joint->body_a == joint->body_b) {
        size_t mark = path_push_key(ld, "body_b");
        report_error(ld, "is body_a too (%s): a joint joins two different bodies",
                     quote_for_message(name, quoted, sizeof(quoted)));
        path_pop(ld, mark);
        return false;
    }
    if (scene->bodies[joint->body_a].type != CAROM_BODY_DYNAMIC &&
        scene->bodies[joint->body_b].type != CAROM_BODY_DYNAMIC) {
        report_error(ld, "neither body is dynamic: the joint could move nothing");
        return false;
    }
    return true;
}

/* An anchor must lie within 1e12 m of its body's origin in the body's frame, as the engine
 * demands (a snapshot and carom_joint_set_frame hold the local anchor). The loader works from the
 * pose in the file; the engine from the origin it derives from the center of mass, which may
 * differ in the last bits, so the loader refuses from a millionth below the limit: what it
 * accepts, the engine accepts. */
static bool check_local_anchor(loader* ld, const scene_body* body, carom_vec2 anchor,
                               const char* key) {
    carom_rot q = body->has_rotation ? body->rotation : carom_make_rot(body->angle);
    carom_vec2 local = carom_inv_rotate(q, carom_sub(anchor, body->position));
    const double limit = 0.999999 * CAROM_MAX_MAGNITUDE;
    if (fabs(local.x) <= limit && fabs(local.y) <= limit) {
        return true;
    }
    char quoted[QUOTE_SIZE];
    size_t mark = path_push_key(ld, key);
    report_error(ld,
                 "lies more than 1e12 m from the origin of %s in its frame: carom accepts no more",
                 quote_for_message(body->name, quoted, sizeof(quoted)));
    path_pop(ld, mark);
    return false;
}

static bool check_local_anchors(loader* ld, const scene_def* scene, const scene_joint* joint) {
    const scene_body* a = &scene->bodies[joint->body_a];
    const scene_body* b = &scene->bodies[joint->body_b];
    switch (joint->type) {
    case CAROM_JOINT_DISTANCE: {
        bool a_ok = check_local_anchor(ld, a, joint->anchor_a, "anchor_a");
        bool b_ok = check_local_anchor(ld, b, joint->anchor_b, "anchor_b"); /* both reported */
        return a_ok && b_ok;
    }
    case CAROM_JOINT_MOTOR:
        return true; /* its anchors are its offset and B's origin */
    default:
        return check_local_anchor(ld, a, joint->anchor, "anchor") &&
               check_local_anchor(ld, b, joint->anchor, "anchor");
    }
}

static void read_joint(loader* ld, const cJSON* item, int index, const scene_def* scene,
                       const name_set* bodies, name_set* names, scene_joint* joint) {
    if (!cJSON_IsObject(item)) {
        report_error(ld, "must be an object (a joint), not %s", json_kind(item));
        return;
    }
    const cJSON* fields[JOINT_KEY_COUNT];
    read_fields(ld, item, joint_keys, JOINT_KEY_COUNT, fields);
    read_name_of(ld, fields[JOINT_NAME], index, names, "joints", &joint->name);
    bool a_ok = read_joint_body(ld, fields[JOINT_BODY_A], "body_a", bodies, &joint->body_a);
    bool b_ok = read_joint_body(ld, fields[JOINT_BODY_B], "body_b", bodies, &joint->body_b);
    member_bool(ld, fields[JOINT_COLLIDE_CONNECTED], "collide_connected",
                &joint->collide_connected);
    member_number(ld, fields[JOINT_BREAK_FORCE], "break_force", NON_NEGATIVE, &joint->break_force);
    if (!read_joint_type(ld, fields[JOINT_TYPE], &joint->type)) {
        return; /* without a type, the other keys cannot be judged */
    }
    member_number(ld, fields[JOINT_BREAK_TORQUE], "break_torque", NON_NEGATIVE,
                  &joint->break_torque);
    warn_foreign_joint_keys(ld, fields, joint->type);
    joint_defaults(joint);
    bool ok = read_joint_settings(ld, fields, joint);
    if (a_ok && b_ok && check_joint_bodies(ld, scene, joint) && ok) {
        ok = check_local_anchors(ld, scene, joint);
    }
    if (ok) {
        read_frame(ld, fields[JOINT_FRAME], joint);
    }
}

void read_joints(loader* ld, const cJSON* item, scene_def* out, const name_set* bodies) {
    if (item == NULL) {
        return;
    }
    size_t mark = path_push_key(ld, "joints");
    if (!cJSON_IsArray(item)) {
        report_error(ld, "must be an array of joints, not %s", json_kind(item));
        path_pop(ld, mark);
        return;
    }
    out->joint_count = json_length(item);
    out->joints = checked_calloc((size_t)out->joint_count, sizeof(scene_joint));
    out->joint_ids = checked_calloc((size_t)out->joint_count, sizeof(carom_joint_id));
    name_set names;
    name_set_init(&names, out->joint_count);
    int index = 0;
    for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
        size_t joint_mark = path_push_index(ld, index);
        read_joint(ld, child, index, out, bodies, &names, &out->joints[index]);
        path_pop(ld, joint_mark);
    }
    name_set_free(&names);
    path_pop(ld, mark);
}
