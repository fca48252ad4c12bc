/* Bodies: creation, destruction, mass from shapes, and the public getters and setters.
 *
 * Every public function follows the same order: resolve the id, refuse during a step, check each
 * value, and only then change anything, so a refused call leaves the world exactly as it was. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <float.h>
#include <math.h>
#include <string.h>

carom_body* carom_get_body_checked(carom_body_id id, carom_world** world_out, const char* what) {
    carom_world* world = carom_get_world_from_parts(id.world0, id.world_generation);
    carom_body* body = NULL;
    if (world != NULL && id.index1 > 0 && id.index1 <= (int32_t)arrlen(world->bodies)) {
        carom_body* candidate = &world->bodies[id.index1 - 1];
        if (candidate->id == id.index1 - 1 && candidate->generation == id.generation) {
            body = candidate;
        }
    }
    if (body == NULL) {
        carom_fail(CAROM_ERROR_INVALID_ID,
                   "%s: body id %lld is null, destroyed, or from a destroyed world", what,
                   (long long)id.index1 - 1); /* not int: index1 may be INT32_MIN */
        world = NULL;
    }
    if (world_out != NULL) {
        *world_out = world;
    }
    return body;
}

static carom_status check_body_def(const carom_body_def* def) {
    if (def == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "body def is NULL");
    }
    if (def->internal_cookie != CAROM_DEF_COOKIE) {
        return carom_fail(CAROM_ERROR_INVALID_DEF,
                          "body def was not made by carom_default_body_def(): start from it and "
                          "change the fields you need");
    }
    if (def->type != CAROM_BODY_STATIC && def->type != CAROM_BODY_KINEMATIC &&
        def->type != CAROM_BODY_DYNAMIC) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "body type is %d: use CAROM_BODY_STATIC, _KINEMATIC or _DYNAMIC",
                          (int)def->type);
    }
    carom_status status = carom_check_finite_vec2(def->position.x, def->position.y,
                                                  "body position");
    if (status == CAROM_OK) {
        status = carom_check_finite(def->angle, "body angle");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(def->linear_velocity.x, def->linear_velocity.y,
                                         "body linear_velocity");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite(def->angular_velocity, "body angular_velocity");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->linear_damping, "body linear_damping");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->angular_damping, "body angular_damping");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite(def->gravity_scale, "body gravity_scale");
    }
    if (status == CAROM_OK && def->type == CAROM_BODY_STATIC &&
        (def->linear_velocity.x != 0.0 || def->linear_velocity.y != 0.0 ||
         def->angular_velocity != 0.0)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "a static body cannot have a velocity: make it kinematic to move it");
    }
    if (status == CAROM_OK && !def->awake && def->type == CAROM_BODY_DYNAMIC) {
        if (!def->enable_sleep) {
            status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                                "a body created asleep (awake = 0) must have enable_sleep = 1");
        } else if (def->linear_velocity.x != 0.0 || def->linear_velocity.y != 0.0 ||
                   def->angular_velocity != 0.0) {
            status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                                "a body created asleep (awake = 0) cannot have a velocity: a "
                                "sleeping body has none; create it awake to launch it");
        }
    }
    return status;
}

carom_body_id carom_create_body(carom_world_id world_id, const carom_body_def* def) {
    carom_world* world = carom_get_world_checked(world_id);
    if (world == NULL || carom_check_unlocked(world, "create a body") != CAROM_OK ||
        check_body_def(def) != CAROM_OK) {
        return carom_null_body_id;
    }
    if (carom_id_pool_count(&world->body_pool) >= CAROM_MAX_BODIES) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE, "create a body: the world holds %d bodies already, "
                   "the most it may (CAROM_MAX_BODIES)", CAROM_MAX_BODIES);
        return carom_null_body_id;
    }
    world->scene_revision += 1;
    world->awake_revision += 1;
    int id = carom_id_pool_alloc(&world->body_pool);
    if (id == (int)arrlen(world->bodies)) {
        carom_body blank;
        memset(&blank, 0, sizeof(blank));
        arrput(world->bodies, blank);
    }
    carom_body* body = &world->bodies[id];
    uint32_t generation = body->generation;
    memset(body, 0, sizeof(*body));
    body->id = id;
    body->generation = generation;
    body->type = def->type;
    body->user_data = def->user_data;
    body->transform.p = def->position;
    body->transform.q = carom_make_rot(def->angle);
    body->center = def->position;
    body->linear_velocity = def->linear_velocity;
    body->angular_velocity = def->angular_velocity;
    body->linear_damping = def->linear_damping;
    body->angular_damping = def->angular_damping;
    body->gravity_scale = def->gravity_scale;
    body->bullet = def->bullet != 0;
    body->enable_sleep = def->enable_sleep != 0;
    body->island = -1;
    body->first_shape = -1;
    body->contact_head = -1;
    carom_body_update_mass(world, body);
    if (!def->awake && def->type == CAROM_BODY_DYNAMIC) {
        carom_sleep_alone(world, body);
    }
    return carom_make_body_id(world, body);
}

/* The body's rotational inertia about its center of mass (body->local_center, set): each shape's
 * own inertia moved there by the parallel axis theorem. Summing about the body origin and
 * subtracting mass * |center|^2 once would be shorter, but for shapes far from the origin it
 * subtracts two nearly equal numbers: a 1 m shape 1e8 m off the origin lost every digit, and the
 * body got a zero or negative inertia. Offsets from the center of mass are small where it
 * matters, so this sum has no cancellation. */
static double inertia_about_center(const carom_world* world, const carom_body* body) {
    double inertia = 0.0;
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        carom_mass_data data = carom_shape_compute_mass(&world->shapes[s]);
        carom_vec2 offset = carom_sub(data.center, body->local_center);
        inertia += data.rotational_inertia + data.mass * carom_dot(offset, offset);
    }
    return inertia;
}

void carom_body_update_mass(carom_world* world, carom_body* body) {
    bool was_massless = body->massless;
    body->mass = 0.0;
    body->inv_mass = 0.0;
    body->inertia = 0.0;
    body->inv_inertia = 0.0;
    body->local_center = carom_v2(0.0, 0.0);
    body->massless = false;
    if (body->type == CAROM_BODY_DYNAMIC) {
        double mass = 0.0;
        carom_vec2 weighted_center = {0.0, 0.0};
        for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
            carom_mass_data data = carom_shape_compute_mass(&world->shapes[s]);
            mass += data.mass;
            weighted_center = carom_mul_add(weighted_center, data.mass, data.center);
        }
        /* A mass below the smallest normal double (a density of 1e-320, a circle of radius
         * 1e-160) has no finite inverse and would put NaN in the world: such a body counts as
         * massless, which the step refuses with a message. Likewise a subnormal inertia. */
        if (body->mass_override) {
            body->mass = body->override_mass.mass;
            body->inv_mass = 1.0 / body->mass;
            body->local_center = body->override_mass.center;
            body->inertia = body->override_mass.rotational_inertia;
        } else if (mass >= DBL_MIN) {
            body->mass = mass;
            body->inv_mass = 1.0 / mass;
            body->local_center = carom_scale(1.0 / mass, weighted_center);
            body->inertia = inertia_about_center(world, body);
        } else {
            body->massless = true;
        }
        if (body->fixed_rotation) {
            body->inertia = 0.0;
        }
        body->inv_inertia = body->inertia >= DBL_MIN ? 1.0 / body->inertia : 0.0;
    }
    world->massless_dynamic_count += (int)body->massless - (int)was_massless;
    body->max_extent = 0.0;
    body->min_extent = INFINITY;
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        world->shapes[s].extent = carom_shape_compute_extent(&world->shapes[s], body->local_center);
        body->max_extent = carom_max_d(body->max_extent, world->shapes[s].extent);
        body->min_extent = carom_min_d(body->min_extent, carom_shape_compute_thickness(&world->shapes[s]));
    }
    if (!(body->min_extent > 0.0 && body->min_extent < INFINITY)) {
        body->min_extent = body->max_extent; /* only segments, or no shapes */
    }
    /* Moving the center of mass keeps the velocity of the material points unchanged. */
    carom_vec2 old_center = body->center;
    body->center = carom_transform_point(body->transform, body->local_center);
    carom_body_derive_origin(body);
    /* the origin may have moved by rounding: keep the tight boxes those of the pose */
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        world->shapes[s].aabb = carom_shape_compute_aabb(&world->shapes[s], body->transform);
    }
    body->linear_velocity = carom_add(
        body->linear_velocity,
        carom_cross_sv(body->angular_velocity, carom_sub(body->center, old_center)));
}

/* Whether the narrow phase found the body touching something this step
 * (world->pushed_bodies): its motion then says little about the next step. */
static bool was_pushed(const carom_world* world, const carom_body* body) {
    return body->id < (int)arrlen(world->pushed_bodies) && world->pushed_bodies[body->id];
}

/* How far a moving body's new fat box reaches ahead along its last step's motion (at most its
 * own size): it then stays inside the box for a few steps instead of being re-placed in the
 * grid every step. Measured: 13 % fewer instructions for 4,000 falling balls, 10 % for the
 * 5,000-car arena, nothing lost on piles at rest.
 * Only for a body that touches nothing this step (was_pushed): in flight its next motion is
 * its last one, but a body pushed around in a crowd turns every few steps, and a box stretched
 * one way and then another makes and drops pairs with its neighbours each time. In Box2D's
 * spinner (6,000 bodies stirred in a drum) the look-ahead for every body made 3.7 times the
 * new contacts a step (6,494 against 1,744) and 1.7 times the contacts (51,624 against
 * 30,259), for a third fewer boxes re-placed; falling balls, a swinging joint grid and the car
 * arena keep it where it pays. */
static carom_vec2 fat_box_reach(const carom_body* body, carom_vec2 motion) {
    carom_vec2 reach = carom_scale(CAROM_AABB_LOOK_AHEAD, motion);
    double length = carom_length(reach);
    if (length > body->max_extent) {
        reach = carom_scale(body->max_extent / length, reach);
    }
    return reach;
}

/* The margin around a moving shape's tight box (none for a static body's). A pushed body's is
 * smaller for small shapes (CAROM_PUSHED_MARGIN_FRACTION of the shape's extent): its fat box
 * is then re-placed more often, but in a crowd it pairs with its near neighbours only. In
 * Box2D's tumbler (2,025 boxes 0.25 m wide tumbling in a turning square) the full margin held
 * 14,900 to 18,800 contacts, 1/8 of the extent (0.022 m) 8,200 to 10,600, and 1/16 (0.011 m)
 * 7,400 to 9,900, for the same 4,300 to 5,300 touching ones; the step took about 0.75 of its
 * time with 1/8, and 1/16 took 0.95 of that, the spinner's 0.95 too (interleaved runs).
 * Bodies in flight keep the full margin, which saves them re-placing (a swinging joint grid
 * whose circles touch nothing, falling balls). */
static double fat_box_margin(const carom_body* body, const carom_shape* shape, bool pushed) {
    if (body->type == CAROM_BODY_STATIC) {
        return 0.0;
    }
    return pushed ? carom_min_d(CAROM_AABB_MARGIN, CAROM_PUSHED_MARGIN_FRACTION * shape->extent)
                  : CAROM_AABB_MARGIN;
}

void carom_body_update_shape_bounds(carom_world* world, carom_body* body, carom_vec2 motion) {
    carom_body_update_shape_aabbs(world, body);
    carom_body_update_proxies(world, body, motion);
}

bool carom_body_update_shape_aabbs(carom_world* world, const carom_body* body) {
    bool left = false;
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        carom_shape* shape = &world->shapes[s];
        shape->aabb = carom_shape_compute_aabb(shape, body->transform);
        left |= !carom_aabb_contains(world->broad_phase.proxies[s].fat_aabb, shape->aabb);
    }
    return left;
}

/* The fat box a shape's proxy moves to once the shape's box left its old one: the box grown by
 * the margin and, for a body in flight, reaching ahead along its motion, on the broad phase's
 * grid of values. */
static carom_aabb new_fat_box(const carom_world* world, const carom_body* body,
                              const carom_shape* shape, carom_vec2 motion) {
    bool pushed = was_pushed(world, body);
    double margin = fat_box_margin(body, shape, pushed);
    carom_vec2 reach = pushed ? carom_v2(0.0, 0.0) : fat_box_reach(body, motion);
    carom_vec2 r = {margin, margin};
    carom_aabb enlarged = {carom_sub(shape->aabb.lower, r), carom_add(shape->aabb.upper, r)};
    enlarged.lower = carom_add(enlarged.lower, carom_min_v(reach, carom_v2(0.0, 0.0)));
    enlarged.upper = carom_add(enlarged.upper, carom_max_v(reach, carom_v2(0.0, 0.0)));
    return carom_quantize_fat_aabb(enlarged);
}

static bool left_fat_box(const carom_world* world, int shape) {
    return !carom_aabb_contains(world->broad_phase.proxies[shape].fat_aabb,
                                world->shapes[shape].aabb);
}

void carom_body_update_proxies(carom_world* world, const carom_body* body, carom_vec2 motion) {
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        if (left_fat_box(world, s)) {
            carom_broad_phase_move_proxy(&world->broad_phase, s,
                                         new_fat_box(world, body, &world->shapes[s], motion));
        }
    }
}

unsigned carom_body_begin_proxy_moves(carom_world* world, const carom_body* body,
                                      carom_vec2 motion, unsigned char* rests) {
    unsigned all = 0;
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        unsigned rest = 0;
        if (left_fat_box(world, s)) {
            rest = carom_broad_phase_begin_move(&world->broad_phase, s,
                                                new_fat_box(world, body, &world->shapes[s], motion));
        }
        rests[s] = (unsigned char)rest;
        all |= rest;
    }
    return all;
}

void carom_body_finish_proxy_moves(carom_world* world, const carom_body* body,
                                   const unsigned char* rests) {
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        if (rests[s] != 0) {
            carom_broad_phase_finish_move(&world->broad_phase, s, rests[s]);
        }
    }
}

void carom_destroy_body_internal(carom_world* world, carom_body* body) {
    world->scene_revision += 1;
    world->awake_revision += 1;
    carom_vehicles_on_body_destroyed(world, body->id);
    carom_joints_on_body_destroyed(world, body->id);
    /* what rested on it must fall: wake it, and the body's own island */
    carom_wake_touching(world, body);
    carom_wake_body(world, body);
    int contact_count = carom_collect_body_contacts(world, body);
    for (int i = 0; i < contact_count; ++i) {
        carom_destroy_contact(world, world->body_contacts[i]);
    }
    int s = body->first_shape;
    while (s >= 0) {
        int next = world->shapes[s].next_shape;
        carom_destroy_shape_internal(world, &world->shapes[s], false);
        s = next;
    }
    if (body->massless) {
        world->massless_dynamic_count -= 1;
    }
    carom_id_pool_free(&world->body_pool, body->id);
    body->id = -1;
    body->generation += 1;
}

carom_status carom_destroy_body(carom_body_id id) {
    carom_world* world = NULL;
    carom_body* body = carom_get_body_checked(id, &world, "destroy body");
    if (body == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "destroy a body");
    if (status == CAROM_OK) {
        carom_destroy_body_internal(world, body);
    }
    return status;
}

int carom_body_is_valid(carom_body_id id) {
    carom_world* world = carom_get_world_from_parts(id.world0, id.world_generation);
    if (world == NULL || id.index1 <= 0 || id.index1 > (int32_t)arrlen(world->bodies)) {
        return 0;
    }
    const carom_body* body = &world->bodies[id.index1 - 1];
    return body->id == id.index1 - 1 && body->generation == id.generation;
}

/* Getters: a stale id records the error and answers with a zero value. */
#define BODY_GETTER(return_type, name, zero, expression)                                           \
    return_type name(carom_body_id id) {                                                           \
        carom_body* body = carom_get_body_checked(id, NULL, #name);                                \
        if (body == NULL) {                                                                        \
            return zero;                                                                           \
        }                                                                                          \
        return expression;                                                                         \
    }

static const carom_vec2 zero_vec2 = {0.0, 0.0};
static const carom_rot identity_rot = {1.0, 0.0};
static const carom_transform identity_transform = {{0.0, 0.0}, {1.0, 0.0}};

BODY_GETTER(carom_body_type, carom_body_get_type, CAROM_BODY_STATIC, body->type)
BODY_GETTER(carom_vec2, carom_body_get_position, zero_vec2, body->transform.p)
BODY_GETTER(carom_rot, carom_body_get_rotation, identity_rot, body->transform.q)
BODY_GETTER(double, carom_body_get_angle, 0.0, carom_rot_get_angle(body->transform.q))
BODY_GETTER(carom_transform, carom_body_get_transform, identity_transform, body->transform)
BODY_GETTER(carom_vec2, carom_body_get_world_center, zero_vec2, body->center)
BODY_GETTER(carom_vec2, carom_body_get_local_center, zero_vec2, body->local_center)
BODY_GETTER(carom_vec2, carom_body_get_linear_velocity, zero_vec2, body->linear_velocity)
BODY_GETTER(double, carom_body_get_angular_velocity, 0.0, body->angular_velocity)
BODY_GETTER(double, carom_body_get_mass, 0.0, body->mass)
BODY_GETTER(double, carom_body_get_rotational_inertia, 0.0, body->inertia)
BODY_GETTER(void*, carom_body_get_user_data, NULL, body->user_data)
BODY_GETTER(double, carom_body_get_kinetic_energy, 0.0,
            0.5 * body->mass * carom_length_squared(body->linear_velocity) +
                0.5 * body->inertia * body->angular_velocity * body->angular_velocity)

carom_world_id carom_body_get_world(carom_body_id id) {
    carom_world* world = NULL;
    if (carom_get_body_checked(id, &world, "carom_body_get_world") == NULL) {
        return carom_null_world_id;
    }
    carom_world_id world_id = {(uint16_t)(world->index + 1), world->generation};
    return world_id;
}

/* Resolve a body for a setter: the id, then the step lock. NULL when refused. */
static carom_body* body_for_change(carom_body_id id, carom_world** world, const char* action) {
    carom_body* body = carom_get_body_checked(id, world, action);
    if (body != NULL && carom_check_unlocked(*world, action) != CAROM_OK) {
        body = NULL;
    }
    return body;
}

carom_status carom_body_wake(carom_body_id id) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "wake a body");
    if (body == NULL) {
        return carom_last_status();
    }
    carom_wake_body(world, body);
    body->sleep_time = 0.0;
    return CAROM_OK;
}

int carom_body_is_awake(carom_body_id id) {
    carom_body* body = carom_get_body_checked(id, NULL, "carom_body_is_awake");
    return body != NULL && body->type != CAROM_BODY_STATIC && !body->asleep && !body->disabled;
}

carom_status carom_body_set_sleep_enabled(carom_body_id id, int enabled) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "enable or disable sleep");
    if (body == NULL) {
        return carom_last_status();
    }
    body->enable_sleep = enabled != 0;
    if (!body->enable_sleep) {
        carom_wake_body(world, body);
        body->sleep_time = 0.0;
    }
    return CAROM_OK;
}

static carom_status refusal_status(void) { return carom_last_status(); }

carom_status carom_body_set_transform(carom_body_id id, carom_vec2 position, double angle) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "set a body's transform");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite_vec2(position.x, position.y, "body position");
    if (status == CAROM_OK) {
        status = carom_check_finite(angle, "body angle");
    }
    if (status != CAROM_OK) {
        return status;
    }
    carom_wake_body(world, body);
    carom_wake_touching(world, body); /* what rested on it is left unsupported */
    body->transform.p = position;
    body->transform.q = carom_make_rot(angle);
    body->center = carom_transform_point(body->transform, body->local_center);
    carom_body_derive_origin(body); /* may differ from `position` in the last bit if the center
                                       of mass is off the origin */
    carom_body_update_shape_bounds(world, body, carom_v2(0.0, 0.0));
    return CAROM_OK;
}

carom_status carom_body_set_rotation(carom_body_id id, carom_rot rotation) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "set a body's rotation");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite_vec2(rotation.c, rotation.s, "body rotation");
    double unit_error = rotation.c * rotation.c + rotation.s * rotation.s - 1.0;
    if (status == CAROM_OK && !(fabs(unit_error) <= CAROM_ROTATION_TOLERANCE)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "body rotation (%g, %g) is not a unit vector: cos^2 + sin^2 must be 1 "
                            "within %g; normalise it, or give an angle to carom_body_set_transform",
                            rotation.c, rotation.s, CAROM_ROTATION_TOLERANCE);
    }
    if (status != CAROM_OK) {
        return status;
    }
    /* Stored as given, not renormalised: restoring a saved rotation must give its exact bits. */
    body->transform.q = rotation;
    body->center = carom_transform_point(body->transform, body->local_center);
    carom_body_derive_origin(body);
    carom_body_update_shape_bounds(world, body, carom_v2(0.0, 0.0));
    return CAROM_OK;
}

static carom_status check_movable(const carom_body* body) {
    if (body->type == CAROM_BODY_STATIC) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "body %d is static and cannot have a velocity: make it kinematic or "
                          "dynamic",
                          body->id);
    }
    return CAROM_OK;
}

carom_status carom_body_set_linear_velocity(carom_body_id id, carom_vec2 velocity) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "set a body's linear velocity");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite_vec2(velocity.x, velocity.y, "linear velocity");
    if (status == CAROM_OK) {
        status = check_movable(body);
    }
    if (status == CAROM_OK) {
        carom_wake_body(world, body);
        body->linear_velocity = velocity;
    }
    return status;
}

carom_status carom_body_set_angular_velocity(carom_body_id id, double velocity) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "set a body's angular velocity");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite(velocity, "angular velocity");
    if (status == CAROM_OK) {
        status = check_movable(body);
    }
    if (status == CAROM_OK) {
        carom_wake_body(world, body);
        body->angular_velocity = velocity;
    }
    return status;
}

carom_status carom_body_set_user_data(carom_body_id id, void* user_data) {
    carom_body* body = carom_get_body_checked(id, NULL, "set a body's user data");
    if (body == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    body->user_data = user_data;
    return CAROM_OK;
}

/* Each input of the force and impulse functions is within CAROM_MAX_MAGNITUDE, but what it adds
 * up to need not be: an impulse of 1e12 N·s on a body of 1e-11 kg, a force applied far from the
 * center, many forces summed. The result is checked against the same limit before anything
 * changes, so the body's velocities, and the force and torque it carries into the next step,
 * stay within it; a refused call changes nothing. */
static carom_status check_result_vec2(const carom_body* body, carom_vec2 value, const char* cause,
                                      const char* what, const char* unit) {
    if (!(fabs(value.x) <= CAROM_MAX_MAGNITUDE && fabs(value.y) <= CAROM_MAX_MAGNITUDE)) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "%s would make body %d's %s (%g, %g) %s: magnitudes above %g are "
                          "refused, they overflow in a step",
                          cause, body->id, what, value.x, value.y, unit, CAROM_MAX_MAGNITUDE);
    }
    return CAROM_OK;
}

static carom_status check_result(const carom_body* body, double value, const char* cause,
                                 const char* what, const char* unit) {
    if (!(fabs(value) <= CAROM_MAX_MAGNITUDE)) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "%s would make body %d's %s %g %s: magnitudes above %g are refused, "
                          "they overflow in a step",
                          cause, body->id, what, value, unit, CAROM_MAX_MAGNITUDE);
    }
    return CAROM_OK;
}

/* Add a force and a torque (either NULL: none) to what the body carries into the next step, if
 * both sums stay within CAROM_MAX_MAGNITUDE. What is not given is left as it is, not added to
 * with a zero, which could turn a -0.0 into a +0.0 and change later bits. */
static carom_status add_force(carom_world* world, carom_body* body, const carom_vec2* force,
                              const double* torque, const char* cause) {
    carom_vec2 total_force = force != NULL ? carom_add(body->force, *force) : body->force;
    double total_torque = torque != NULL ? body->torque + *torque : body->torque;
    carom_status status =
        check_result_vec2(body, total_force, cause, "force for the next step", "N");
    if (status == CAROM_OK) {
        status = check_result(body, total_torque, cause, "torque for the next step", "N*m");
    }
    if (status == CAROM_OK) {
        carom_wake_body(world, body);
        body->force = total_force;
        body->torque = total_torque;
    }
    return status;
}

/* Change the body's velocities by the given amounts (either NULL: unchanged), if the results stay
 * within CAROM_MAX_MAGNITUDE. */
static carom_status add_velocity(carom_world* world, carom_body* body, const carom_vec2* linear,
                                 const double* angular, const char* cause) {
    carom_vec2 linear_velocity =
        linear != NULL ? carom_add(body->linear_velocity, *linear) : body->linear_velocity;
    double angular_velocity =
        angular != NULL ? body->angular_velocity + *angular : body->angular_velocity;
    carom_status status = check_result_vec2(body, linear_velocity, cause, "linear velocity", "m/s");
    if (status == CAROM_OK) {
        status = check_result(body, angular_velocity, cause, "angular velocity", "rad/s");
    }
    if (status == CAROM_OK) {
        carom_wake_body(world, body);
        body->linear_velocity = linear_velocity;
        body->angular_velocity = angular_velocity;
    }
    return status;
}

carom_status carom_body_apply_force(carom_body_id id, carom_vec2 force, carom_vec2 point) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "apply a force");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite_vec2(force.x, force.y, "force");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(point.x, point.y, "force point");
    }
    if (status == CAROM_OK && body->type == CAROM_BODY_DYNAMIC) {
        double torque = carom_cross(carom_sub(point, body->center), force);
        status = add_force(world, body, &force, &torque, "this force");
    }
    return status;
}

carom_status carom_body_apply_force_to_center(carom_body_id id, carom_vec2 force) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "apply a force");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite_vec2(force.x, force.y, "force");
    if (status == CAROM_OK && body->type == CAROM_BODY_DYNAMIC) {
        status = add_force(world, body, &force, NULL, "this force");
    }
    return status;
}

carom_status carom_body_apply_torque(carom_body_id id, double torque) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "apply a torque");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite(torque, "torque");
    if (status == CAROM_OK && body->type == CAROM_BODY_DYNAMIC) {
        status = add_force(world, body, NULL, &torque, "this torque");
    }
    return status;
}

carom_status carom_body_apply_linear_impulse(carom_body_id id, carom_vec2 impulse,
                                             carom_vec2 point) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "apply an impulse");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite_vec2(impulse.x, impulse.y, "impulse");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(point.x, point.y, "impulse point");
    }
    if (status == CAROM_OK && body->type == CAROM_BODY_DYNAMIC) {
        carom_vec2 linear = carom_scale(body->inv_mass, impulse);
        double angular = body->inv_inertia * carom_cross(carom_sub(point, body->center), impulse);
        status = add_velocity(world, body, &linear, &angular, "this impulse");
    }
    return status;
}

carom_status carom_body_apply_angular_impulse(carom_body_id id, double impulse) {
    carom_world* world = NULL;
    carom_body* body = body_for_change(id, &world, "apply an angular impulse");
    if (body == NULL) {
        return refusal_status();
    }
    carom_status status = carom_check_finite(impulse, "angular impulse");
    if (status == CAROM_OK && body->type == CAROM_BODY_DYNAMIC) {
        double angular = body->inv_inertia * impulse;
        status = add_velocity(world, body, NULL, &angular, "this angular impulse");
    }
    return status;
}
