/* Joints: creation and destruction, the per-body joint lists and ids. Validation at the API is
 * joint_check.c, the public getters and setters joint_access.c. How joints are solved is
 * joint_solver.c (the stage) and one file per kind (revolute_joint.c ... mouse_joint.c).
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
carom_joint* carom_joint_resolve(carom_joint_id id, carom_world** world_out, const char* what) {
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
    carom_vec2 local = body != NULL ? carom_inv_transform_point(body->transform, anchor) : anchor;
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
    carom_status status =
        a != NULL ? check_local_anchor(a, anchor_a, kind, "anchor on body A") : CAROM_OK;
    return status == CAROM_OK ? check_local_anchor(b, anchor_b, kind, "anchor on body B") : status;
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
        carom_check_revolute_joint_def(def) != CAROM_OK ||
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
        carom_check_prismatic_joint_def(def) != CAROM_OK ||
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
        carom_check_distance_joint_def(def) != CAROM_OK ||
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
        carom_check_weld_joint_def(def) != CAROM_OK ||
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
        carom_check_wheel_joint_def(def) != CAROM_OK ||
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
        carom_check_motor_joint_def(def) != CAROM_OK) {
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
        carom_check_mouse_joint_def(def) != CAROM_OK ||
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
    carom_joint* joint = carom_joint_resolve(id, &world, "destroy joint");
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
    arrfree(world->joint_states);
    arrfree(world->joint_break_events);
}
