/* Joints: creation and destruction, the per-body joint lists, ids, validation at the API, and
 * the public getters and setters. How joints are solved is joint_solver.c (the stage) and one
 * file per kind (revolute_joint.c ... mouse_joint.c).
 *
 * Anchors and axes arrive in world coordinates, at the bodies' poses of the moment, and are kept
 * in the bodies' frames (relative to each body's origin, so that a body whose center of mass
 * moves when shapes are added keeps its joints where they were attached). The relative rotation
 * of the bodies at creation is kept as a rotation, not an angle, so that the joint angle is
 * exactly 0 at creation without any trigonometry.
 *
 * Every public function follows the order of the rest of the API: resolve the ids, refuse during
 * a step, check each value, and only then change anything. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- Defaults --------------------------------------------------------------------------- */

carom_revolute_joint_def carom_default_revolute_joint_def(void) {
    carom_revolute_joint_def def;
    memset(&def, 0, sizeof(def));
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

carom_prismatic_joint_def carom_default_prismatic_joint_def(void) {
    carom_prismatic_joint_def def;
    memset(&def, 0, sizeof(def));
    def.axis = carom_v2(1.0, 0.0);
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

carom_distance_joint_def carom_default_distance_joint_def(void) {
    carom_distance_joint_def def;
    memset(&def, 0, sizeof(def));
    def.max_length = CAROM_MAX_MAGNITUDE;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

carom_weld_joint_def carom_default_weld_joint_def(void) {
    carom_weld_joint_def def;
    memset(&def, 0, sizeof(def));
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

carom_wheel_joint_def carom_default_wheel_joint_def(void) {
    carom_wheel_joint_def def;
    memset(&def, 0, sizeof(def));
    def.axis = carom_v2(0.0, 1.0);
    def.enable_spring = 1;
    def.hertz = 1.0;
    def.damping_ratio = 0.7;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

carom_motor_joint_def carom_default_motor_joint_def(void) {
    carom_motor_joint_def def;
    memset(&def, 0, sizeof(def));
    def.max_force = 1.0;
    def.max_torque = 1.0;
    def.correction_factor = 0.3;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

carom_mouse_joint_def carom_default_mouse_joint_def(void) {
    carom_mouse_joint_def def;
    memset(&def, 0, sizeof(def));
    def.hertz = 5.0;
    def.damping_ratio = 0.7;
    def.max_force = 1000.0;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

/* ---- Ids ---------------------------------------------------------------------------------- */

carom_joint_id carom_make_joint_id(const carom_world* world, const carom_joint* joint) {
    carom_joint_id id = {joint->id + 1, joint->generation, world->index, world->generation};
    return id;
}

static carom_joint* get_joint(carom_joint_id id, carom_world** world_out) {
    carom_world* world = carom_get_world_from_parts(id.world0, id.world_generation);
    if (world == NULL || id.index1 <= 0 || id.index1 > (int32_t)arrlen(world->joints)) {
        return NULL;
    }
    carom_joint* joint = &world->joints[id.index1 - 1];
    if (joint->id != id.index1 - 1 || joint->generation != id.generation) {
        return NULL;
    }
    if (world_out != NULL) {
        *world_out = world;
    }
    return joint;
}

/* Resolve a joint id, or NULL with CAROM_ERROR_INVALID_ID recorded. */
static carom_joint* get_joint_checked(carom_joint_id id, carom_world** world_out,
                                      const char* what) {
    carom_joint* joint = get_joint(id, world_out);
    if (joint == NULL) {
        carom_fail(CAROM_ERROR_INVALID_ID,
                   "%s: joint id %d is null, destroyed (by carom_destroy_joint, with one of its "
                   "bodies, or broken), or from a destroyed world",
                   what, (int)id.index1 - 1);
    }
    return joint;
}

int carom_joint_is_valid(carom_joint_id id) {
    return get_joint(id, NULL) != NULL;
}

/* ---- Per-body joint lists ------------------------------------------------------------------ */

int carom_joint_head(const carom_world* world, int body) {
    return body < (int)arrlen(world->body_joint_heads) ? world->body_joint_heads[body] : -1;
}

static void link_edge(carom_world* world, carom_joint* joint, int edge_index) {
    carom_joint_edge* edge = &joint->edges[edge_index];
    if (edge->body < 0) {
        return;
    }
    while ((int)arrlen(world->body_joint_heads) <= edge->body) {
        arrput(world->body_joint_heads, -1);
    }
    int key = joint->id << 1 | edge_index;
    int head = world->body_joint_heads[edge->body];
    edge->prev_key = -1;
    edge->next_key = head;
    if (head >= 0) {
        world->joints[head >> 1].edges[head & 1].prev_key = key;
    }
    world->body_joint_heads[edge->body] = key;
}

static void unlink_edge(carom_world* world, carom_joint* joint, int edge_index) {
    carom_joint_edge* edge = &joint->edges[edge_index];
    if (edge->body < 0) {
        return;
    }
    if (edge->prev_key >= 0) {
        world->joints[edge->prev_key >> 1].edges[edge->prev_key & 1].next_key = edge->next_key;
    } else {
        world->body_joint_heads[edge->body] = edge->next_key;
    }
    if (edge->next_key >= 0) {
        world->joints[edge->next_key >> 1].edges[edge->next_key & 1].prev_key = edge->prev_key;
    }
}

/* The ids of the body's joints in ascending order, into world->body_joint_scratch: a list's
 * order is the order of linking, and destroying joints frees ids, whose order must depend on
 * the world's state alone. */
static int collect_body_joints(carom_world* world, int body) {
    arrsetlen(world->body_joint_scratch, 0);
    for (int key = carom_joint_head(world, body); key >= 0;) {
        const carom_joint* joint = &world->joints[key >> 1];
        arrput(world->body_joint_scratch, joint->id);
        key = joint->edges[key & 1].next_key;
    }
    int count = (int)arrlen(world->body_joint_scratch);
    carom_sort_few_ids(world->body_joint_scratch, count);
    return count;
}

/* Whether one of the joint's bodies is kinematic: it can drive a sleeping body. */
static bool has_kinematic_body(const carom_world* world, const carom_joint* joint) {
    for (int e = 0; e < 2; ++e) {
        int body = joint->edges[e].body;
        if (body >= 0 && world->bodies[body].type == CAROM_BODY_KINEMATIC) {
            return true;
        }
    }
    return false;
}

void carom_relink_joints(carom_world* world) {
    arrsetlen(world->body_joint_heads, 0);
    world->kinematic_joint_count = 0;
    for (int i = 0; i < (int)arrlen(world->joints); ++i) {
        carom_joint* joint = &world->joints[i];
        if (joint->id >= 0) {
            link_edge(world, joint, 0);
            link_edge(world, joint, 1);
            world->kinematic_joint_count += has_kinematic_body(world, joint);
        }
    }
}

bool carom_joints_forbid_pair(const carom_world* world, int body_a, int body_b) {
    for (int key = carom_joint_head(world, body_a); key >= 0;) {
        const carom_joint* joint = &world->joints[key >> 1];
        if (!joint->collide_connected && joint->edges[(key & 1) ^ 1].body == body_b) {
            return true;
        }
        key = joint->edges[key & 1].next_key;
    }
    return false;
}

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

static carom_status check_revolute_def(const carom_revolute_joint_def* def) {
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

static carom_status check_prismatic_def(const carom_prismatic_joint_def* def) {
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

static carom_status check_distance_def(const carom_distance_joint_def* def) {
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

static carom_status check_weld_def(const carom_weld_joint_def* def) {
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

static carom_status check_wheel_def(const carom_wheel_joint_def* def) {
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

static carom_status check_motor_def(const carom_motor_joint_def* def) {
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

static carom_status check_mouse_def(const carom_mouse_joint_def* def) {
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
        return check_revolute_def(&def);
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
        return check_prismatic_def(&def);
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
        carom_status status = check_distance_def(&def);
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
        return check_weld_def(&def);
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
        return check_wheel_def(&def);
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
        return check_motor_def(&def);
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
        return check_mouse_def(&def);
    }
    }
    return carom_fail(CAROM_ERROR_OUT_OF_RANGE, "joint type %d is not a joint kind",
                      (int)joint->type);
}

/* ---- Creation ----------------------------------------------------------------------------- */

/* Resolve and check the bodies of a new joint (b only for a mouse joint, a NULL then), the
 * lock, and that the def pointer is there. */
static carom_status resolve_bodies(carom_body_id a_id, carom_body_id b_id, bool has_a,
                                   const void* def, const char* kind, carom_world** world_out,
                                   carom_body** a_out, carom_body** b_out) {
    char what[64];
    snprintf(what, sizeof(what), "create %s joint (body_b)", kind);
    carom_world* world = NULL;
    carom_body* b = carom_get_body_checked(b_id, &world, what);
    if (b == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_body* a = NULL;
    if (has_a) {
        carom_world* world_a = NULL;
        snprintf(what, sizeof(what), "create %s joint (body_a)", kind);
        a = carom_get_body_checked(a_id, &world_a, what);
        if (a == NULL) {
            return CAROM_ERROR_INVALID_ID;
        }
        if (world_a != world) {
            return carom_fail(CAROM_ERROR_INVALID_ID,
                              "create %s joint: body_a and body_b belong to different worlds",
                              kind);
        }
    }
    snprintf(what, sizeof(what), "create a %s joint", kind);
    carom_status status = carom_check_unlocked(world, what);
    if (status != CAROM_OK) {
        return status;
    }
    if (def == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "%s joint def is NULL", kind);
    }
    if (a == b) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "create %s joint: body_a and body_b are the same body (%d): a joint "
                          "joins two different bodies",
                          kind, b->id);
    }
    bool a_dynamic = a != NULL && a->type == CAROM_BODY_DYNAMIC;
    if (!a_dynamic && b->type != CAROM_BODY_DYNAMIC) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          a != NULL ? "create %s joint: neither body is dynamic, so the joint "
                                      "could move nothing"
                                    : "create %s joint: the body is not dynamic, so the joint "
                                      "could move nothing",
                          kind);
    }
    *world_out = world;
    *a_out = a;
    *b_out = b;
    return CAROM_OK;
}

/* Remove the contacts between the two bodies: a joint that forbids their collision. */
static void destroy_contacts_between(carom_world* world, const carom_body* a, const carom_body* b) {
    int count = carom_collect_body_contacts(world, a);
    for (int i = 0; i < count; ++i) {
        const carom_contact* contact = &world->contacts[world->body_contacts[i]];
        if (contact->edges[0].body == b->id || contact->edges[1].body == b->id) {
            carom_destroy_contact(world, contact->id);
        }
    }
}

/* An anchor in a body's frame must be a number the engine accepts too (a snapshot holds it, and
 * carom_joint_set_frame takes it back): a world anchor 1e12 m from the body's origin is not. */
static carom_status check_local_anchor(const carom_body* body, carom_vec2 anchor, const char* kind,
                                       const char* which) {
    carom_vec2 local =
        body != NULL ? carom_inv_transform_point(body->transform, anchor) : anchor;
    if (!(fabs(local.x) <= CAROM_MAX_MAGNITUDE && fabs(local.y) <= CAROM_MAX_MAGNITUDE)) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "%s joint %s is (%g, %g) in the frame of body %d: more than %g m from "
                          "its origin, beyond what carom accepts",
                          kind, which, local.x, local.y, body->id, CAROM_MAX_MAGNITUDE);
    }
    return CAROM_OK;
}

static carom_status check_anchors(const carom_body* a, const carom_body* b, carom_vec2 anchor_a,
                                  carom_vec2 anchor_b, const char* kind) {
    carom_status status = a != NULL ? check_local_anchor(a, anchor_a, kind, "anchor on body A")
                                    : CAROM_OK;
    return status == CAROM_OK ? check_local_anchor(b, anchor_b, kind, "anchor on body B")
                              : status;
}

/* The new joint's slot, with its common fields set from the bodies (a NULL: the world) and its
 * frame: anchors given in the world frame, kept in the bodies' frames. */
static carom_joint* new_joint(carom_world* world, carom_joint_type type, carom_body* a,
                              carom_body* b, carom_vec2 anchor_a, carom_vec2 anchor_b,
                              int collide_connected, double break_force, double break_torque,
                              void* user_data) {
    world->scene_revision += 1;
    world->awake_revision += 1;
    int id = carom_id_pool_alloc(&world->joint_pool);
    if (id == (int)arrlen(world->joints)) {
        carom_joint blank;
        memset(&blank, 0, sizeof(blank));
        arrput(world->joints, blank);
    }
    carom_joint* joint = &world->joints[id];
    uint32_t generation = joint->generation;
    memset(joint, 0, sizeof(*joint));
    joint->id = id;
    joint->generation = generation;
    joint->type = type;
    joint->edges[0].body = a != NULL ? a->id : -1;
    joint->edges[1].body = b->id;
    joint->collide_connected = a == NULL || collide_connected != 0;
    joint->break_force = break_force;
    joint->break_torque = break_torque;
    joint->user_data = user_data;
    joint->local_anchor_a =
        a != NULL ? carom_inv_transform_point(a->transform, anchor_a) : anchor_a;
    joint->local_anchor_b = carom_inv_transform_point(b->transform, anchor_b);
    joint->reference_rotation =
        a != NULL ? carom_inv_mul_rot(a->transform.q, b->transform.q) : carom_rot_identity();
    link_edge(world, joint, 0);
    link_edge(world, joint, 1);
    world->kinematic_joint_count += has_kinematic_body(world, joint);
    if (a != NULL) {
        carom_wake_body(world, a);
    }
    carom_wake_body(world, b);
    if (!joint->collide_connected) {
        destroy_contacts_between(world, a, b);
    }
    return joint;
}

carom_joint_id carom_create_revolute_joint(carom_body_id a_id, carom_body_id b_id,
                                           const carom_revolute_joint_def* def) {
    carom_world* world = NULL;
    carom_body *a = NULL, *b = NULL;
    if (resolve_bodies(a_id, b_id, true, def, "revolute", &world, &a, &b) != CAROM_OK ||
        check_revolute_def(def) != CAROM_OK ||
        check_anchors(a, b, def->anchor, def->anchor, "revolute") != CAROM_OK) {
        return carom_null_joint_id;
    }
    carom_joint* joint =
        new_joint(world, CAROM_JOINT_REVOLUTE, a, b, def->anchor, def->anchor,
                  def->collide_connected, def->break_force, def->break_torque, def->user_data);
    carom_revolute_joint* r = &joint->revolute;
    r->enable_limit = def->enable_limit != 0;
    r->lower_angle = def->lower_angle;
    r->upper_angle = def->upper_angle;
    r->enable_motor = def->enable_motor != 0;
    r->motor_speed = def->motor_speed;
    r->max_motor_torque = def->max_motor_torque;
    r->enable_spring = def->enable_spring != 0;
    r->hertz = def->hertz;
    r->damping_ratio = def->damping_ratio;
    return carom_make_joint_id(world, joint);
}

carom_joint_id carom_create_prismatic_joint(carom_body_id a_id, carom_body_id b_id,
                                            const carom_prismatic_joint_def* def) {
    carom_world* world = NULL;
    carom_body *a = NULL, *b = NULL;
    if (resolve_bodies(a_id, b_id, true, def, "prismatic", &world, &a, &b) != CAROM_OK ||
        check_prismatic_def(def) != CAROM_OK ||
        check_anchors(a, b, def->anchor, def->anchor, "prismatic") != CAROM_OK) {
        return carom_null_joint_id;
    }
    carom_joint* joint =
        new_joint(world, CAROM_JOINT_PRISMATIC, a, b, def->anchor, def->anchor,
                  def->collide_connected, def->break_force, def->break_torque, def->user_data);
    carom_prismatic_joint* p = &joint->prismatic;
    p->local_axis_a = carom_inv_rotate(a->transform.q, carom_normalize(def->axis));
    p->enable_limit = def->enable_limit != 0;
    p->lower_translation = def->lower_translation;
    p->upper_translation = def->upper_translation;
    p->enable_motor = def->enable_motor != 0;
    p->motor_speed = def->motor_speed;
    p->max_motor_force = def->max_motor_force;
    p->enable_spring = def->enable_spring != 0;
    p->hertz = def->hertz;
    p->damping_ratio = def->damping_ratio;
    return carom_make_joint_id(world, joint);
}

carom_joint_id carom_create_distance_joint(carom_body_id a_id, carom_body_id b_id,
                                           const carom_distance_joint_def* def) {
    carom_world* world = NULL;
    carom_body *a = NULL, *b = NULL;
    if (resolve_bodies(a_id, b_id, true, def, "distance", &world, &a, &b) != CAROM_OK ||
        check_distance_def(def) != CAROM_OK ||
        check_anchors(a, b, def->anchor_a, def->anchor_b, "distance") != CAROM_OK) {
        return carom_null_joint_id;
    }
    double length = def->length > 0.0 ? def->length : carom_distance(def->anchor_a, def->anchor_b);
    if (!(length >= CAROM_MIN_JOINT_LENGTH)) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                   def->length > 0.0
                       ? "distance joint length is %g m: it must be at least %g m"
                       : "distance joint length is 0, so it is taken from the anchors, which are "
                         "%g m apart: give anchors at least %g m apart, or a length",
                   length, CAROM_MIN_JOINT_LENGTH);
        return carom_null_joint_id;
    }
    if (def->enable_limit && (length < def->min_length || length > def->max_length)) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                   "distance joint length %g m lies outside its limit [%g, %g] m", length,
                   def->min_length, def->max_length);
        return carom_null_joint_id;
    }
    carom_joint* joint =
        new_joint(world, CAROM_JOINT_DISTANCE, a, b, def->anchor_a, def->anchor_b,
                  def->collide_connected, def->break_force, def->break_torque, def->user_data);
    carom_distance_joint* d = &joint->distance;
    d->length = length;
    d->enable_spring = def->enable_spring != 0;
    d->hertz = def->hertz;
    d->damping_ratio = def->damping_ratio;
    d->enable_limit = def->enable_limit != 0;
    d->min_length = def->min_length;
    d->max_length = def->max_length;
    return carom_make_joint_id(world, joint);
}

carom_joint_id carom_create_weld_joint(carom_body_id a_id, carom_body_id b_id,
                                       const carom_weld_joint_def* def) {
    carom_world* world = NULL;
    carom_body *a = NULL, *b = NULL;
    if (resolve_bodies(a_id, b_id, true, def, "weld", &world, &a, &b) != CAROM_OK ||
        check_weld_def(def) != CAROM_OK ||
        check_anchors(a, b, def->anchor, def->anchor, "weld") != CAROM_OK) {
        return carom_null_joint_id;
    }
    carom_joint* joint =
        new_joint(world, CAROM_JOINT_WELD, a, b, def->anchor, def->anchor, def->collide_connected,
                  def->break_force, def->break_torque, def->user_data);
    carom_weld_joint* w = &joint->weld;
    w->linear_hertz = def->linear_hertz;
    w->linear_damping_ratio = def->linear_damping_ratio;
    w->angular_hertz = def->angular_hertz;
    w->angular_damping_ratio = def->angular_damping_ratio;
    return carom_make_joint_id(world, joint);
}

carom_joint_id carom_create_wheel_joint(carom_body_id a_id, carom_body_id b_id,
                                        const carom_wheel_joint_def* def) {
    carom_world* world = NULL;
    carom_body *a = NULL, *b = NULL;
    if (resolve_bodies(a_id, b_id, true, def, "wheel", &world, &a, &b) != CAROM_OK ||
        check_wheel_def(def) != CAROM_OK ||
        check_anchors(a, b, def->anchor, def->anchor, "wheel") != CAROM_OK) {
        return carom_null_joint_id;
    }
    carom_joint* joint =
        new_joint(world, CAROM_JOINT_WHEEL, a, b, def->anchor, def->anchor, def->collide_connected,
                  def->break_force, def->break_torque, def->user_data);
    carom_wheel_joint* w = &joint->wheel;
    w->local_axis_a = carom_inv_rotate(a->transform.q, carom_normalize(def->axis));
    w->enable_spring = def->enable_spring != 0;
    w->hertz = def->hertz;
    w->damping_ratio = def->damping_ratio;
    w->enable_limit = def->enable_limit != 0;
    w->lower_translation = def->lower_translation;
    w->upper_translation = def->upper_translation;
    w->enable_motor = def->enable_motor != 0;
    w->motor_speed = def->motor_speed;
    w->max_motor_torque = def->max_motor_torque;
    return carom_make_joint_id(world, joint);
}

carom_joint_id carom_create_motor_joint(carom_body_id a_id, carom_body_id b_id,
                                        const carom_motor_joint_def* def) {
    carom_world* world = NULL;
    carom_body *a = NULL, *b = NULL;
    if (resolve_bodies(a_id, b_id, true, def, "motor", &world, &a, &b) != CAROM_OK ||
        check_motor_def(def) != CAROM_OK) {
        return carom_null_joint_id;
    }
    /* anchors: the offset point of A and B's origin, both given in the world frame here */
    carom_vec2 target = carom_transform_point(a->transform, def->linear_offset);
    carom_joint* joint =
        new_joint(world, CAROM_JOINT_MOTOR, a, b, target, b->transform.p, def->collide_connected,
                  def->break_force, def->break_torque, def->user_data);
    joint->local_anchor_a = def->linear_offset; /* exactly, not through the transform */
    joint->local_anchor_b = carom_v2(0.0, 0.0);
    joint->reference_rotation = carom_make_rot(def->angular_offset);
    carom_motor_joint* m = &joint->motor;
    m->linear_offset = def->linear_offset;
    m->angular_offset = def->angular_offset;
    m->max_force = def->max_force;
    m->max_torque = def->max_torque;
    m->correction_factor = def->correction_factor;
    return carom_make_joint_id(world, joint);
}

carom_joint_id carom_create_mouse_joint(carom_body_id body_id, const carom_mouse_joint_def* def) {
    carom_world* world = NULL;
    carom_body *a = NULL, *b = NULL;
    if (resolve_bodies(carom_null_body_id, body_id, false, def, "mouse", &world, &a, &b) !=
            CAROM_OK ||
        check_mouse_def(def) != CAROM_OK ||
        check_anchors(NULL, b, def->target, def->target, "mouse") != CAROM_OK) {
        return carom_null_joint_id;
    }
    carom_joint* joint = new_joint(world, CAROM_JOINT_MOUSE, NULL, b, def->target, def->target, 1,
                                   def->break_force, def->break_torque, def->user_data);
    carom_mouse_joint* m = &joint->mouse;
    m->hertz = def->hertz;
    m->damping_ratio = def->damping_ratio;
    m->max_force = def->max_force;
    return carom_make_joint_id(world, joint);
}

/* ---- Destruction ---------------------------------------------------------------------------- */

/* The bodies of a joint that kept them apart may collide again: their shapes are listed as moved
 * (their boxes unchanged) so that the next pair update finds pairs that overlap already. */
static void let_bodies_collide(carom_world* world, const carom_body* body) {
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        carom_broad_phase_move_proxy(&world->broad_phase, s,
                                     world->broad_phase.proxies[s].fat_aabb);
    }
}

/* Destroy a joint; `dying_body` is a body being destroyed with it (-1: none), which is neither
 * woken nor given back its collisions. */
static void destroy_joint(carom_world* world, carom_joint* joint, int dying_body) {
    world->scene_revision += 1;
    world->awake_revision += 1;
    world->kinematic_joint_count -= has_kinematic_body(world, joint);
    unlink_edge(world, joint, 0);
    unlink_edge(world, joint, 1);
    const carom_body* released = NULL;
    for (int e = 0; e < 2; ++e) {
        int body = joint->edges[e].body;
        if (body >= 0 && body != dying_body) {
            carom_wake_body(world, &world->bodies[body]);
            released = released == NULL || world->bodies[body].shape_count < released->shape_count
                           ? &world->bodies[body]
                           : released;
        }
    }
    if (!joint->collide_connected && dying_body < 0 && released != NULL) {
        let_bodies_collide(world, released);
    }
    carom_id_pool_free(&world->joint_pool, joint->id);
    joint->id = -1;
    joint->generation += 1;
}

void carom_destroy_joint_internal(carom_world* world, carom_joint* joint) {
    destroy_joint(world, joint, -1);
}

carom_status carom_destroy_joint(carom_joint_id id) {
    carom_world* world = NULL;
    carom_joint* joint = get_joint_checked(id, &world, "destroy joint");
    if (joint == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "destroy a joint");
    if (status == CAROM_OK) {
        destroy_joint(world, joint, -1);
    }
    return status;
}

void carom_joints_on_body_destroyed(carom_world* world, int body) {
    int count = collect_body_joints(world, body);
    for (int i = 0; i < count; ++i) {
        destroy_joint(world, &world->joints[world->body_joint_scratch[i]], body);
    }
}

void carom_joints_destroy(carom_world* world) {
    arrfree(world->joints);
    carom_id_pool_destroy(&world->joint_pool);
    arrfree(world->body_joint_heads);
    arrfree(world->body_joint_scratch);
    arrfree(world->awake_joints);
    arrfree(world->solved_joints);
    arrfree(world->joint_break_events);
}

/* ---- Getters and setters ------------------------------------------------------------------ */

carom_joint_type carom_joint_get_type(carom_joint_id id) {
    carom_joint* joint = get_joint_checked(id, NULL, "carom_joint_get_type");
    return joint != NULL ? joint->type : CAROM_JOINT_REVOLUTE;
}

static carom_body_id body_of(carom_joint_id id, int edge, const char* what) {
    carom_world* world = NULL;
    carom_joint* joint = get_joint_checked(id, &world, what);
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
    carom_joint* joint = get_joint_checked(id, NULL, "carom_joint_get_collide_connected");
    return joint != NULL && joint->collide_connected;
}

void* carom_joint_get_user_data(carom_joint_id id) {
    carom_joint* joint = get_joint_checked(id, NULL, "carom_joint_get_user_data");
    return joint != NULL ? joint->user_data : NULL;
}

carom_status carom_joint_set_user_data(carom_joint_id id, void* user_data) {
    carom_joint* joint = get_joint_checked(id, NULL, "set a joint's user data");
    if (joint == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    joint->user_data = user_data;
    return CAROM_OK;
}

carom_vec2 carom_joint_get_reaction_force(carom_joint_id id) {
    carom_joint* joint = get_joint_checked(id, NULL, "carom_joint_get_reaction_force");
    return joint != NULL ? joint->reaction_force : carom_v2(0.0, 0.0);
}

double carom_joint_get_reaction_torque(carom_joint_id id) {
    carom_joint* joint = get_joint_checked(id, NULL, "carom_joint_get_reaction_torque");
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
    carom_joint* joint = get_joint_checked(id, &world, "carom_joint_get_angle");
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
    carom_joint* joint = get_joint_checked(id, &world, "carom_joint_get_translation");
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
    carom_joint* joint = get_joint_checked(id, &world, "set a joint's motor speed");
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
    carom_joint* joint = get_joint_checked(id, &world, "set a mouse joint's target");
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
    carom_joint* joint = get_joint_checked(id, NULL, "get a joint's frame");
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
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "joint frame reference_rotation (%g, %g) is not a unit vector", q.c,
                            q.s);
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
    carom_joint* joint = get_joint_checked(id, &world, "set a joint's frame");
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
