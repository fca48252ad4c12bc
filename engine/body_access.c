/* Bodies changed after creation (issue 16): type, fixed rotation, mass override, damping,
 * gravity scale, bullet, awake; and what a body holds: its shapes and its contacts.
 *
 * Like body.c, every setter resolves the id, refuses during a step or a callback, checks each
 * value, and only then changes anything, so a refused call leaves the world as it was. What a
 * snapshot's scene part stores (type, damping, gravity scale, bullet, fixed rotation, mass
 * override) bumps the scene revision, so the scene checksum is recomputed. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Resolve a body for a setter: the id, then the lock. NULL when refused (status recorded). */
static carom_body* body_to_change(carom_body_id id, carom_world** world, const char* action) {
    carom_body* body = carom_get_body_checked(id, world, action);
    if (body != NULL && carom_check_unlocked(*world, action) != CAROM_OK) {
        body = NULL;
    }
    return body;
}

/* ---- Damping, gravity scale, bullet ------------------------------------------------------- */

/* Resolve a body for setting one of its numbers, and check the value (finite, within
 * CAROM_MAX_MAGNITUDE, and >= 0 when non_negative). NULL when refused (status recorded). */
static carom_body* body_for_number(carom_body_id id, carom_world** world, double value,
                                   bool non_negative, const char* action, const char* what) {
    carom_body* body = body_to_change(id, world, action);
    if (body == NULL) {
        return NULL;
    }
    carom_status status = non_negative ? carom_check_non_negative(value, what)
                                       : carom_check_finite(value, what);
    if (status == CAROM_OK && !(fabs(value) <= CAROM_MAX_MAGNITUDE)) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE, "%s %g is above %g", what, value,
                   CAROM_MAX_MAGNITUDE);
        return NULL;
    }
    return status == CAROM_OK ? body : NULL;
}

/* After a scene value changed: the checksum is stale, and a sleeping body feels the change. */
static void scene_value_changed(carom_world* world, carom_body* body) {
    world->scene_revision += 1;
    carom_wake_body(world, body);
}

carom_status carom_body_set_linear_damping(carom_body_id id, double damping) {
    carom_world* world = NULL;
    carom_body* body = body_for_number(id, &world, damping, true, "set a body's linear damping",
                                       "body linear damping");
    if (body == NULL) {
        return carom_last_status();
    }
    body->linear_damping = damping;
    scene_value_changed(world, body);
    return CAROM_OK;
}

carom_status carom_body_set_angular_damping(carom_body_id id, double damping) {
    carom_world* world = NULL;
    carom_body* body = body_for_number(id, &world, damping, true, "set a body's angular damping",
                                       "body angular damping");
    if (body == NULL) {
        return carom_last_status();
    }
    body->angular_damping = damping;
    scene_value_changed(world, body);
    return CAROM_OK;
}

carom_status carom_body_set_gravity_scale(carom_body_id id, double scale) {
    carom_world* world = NULL;
    carom_body* body = body_for_number(id, &world, scale, false, "set a body's gravity scale",
                                       "body gravity scale");
    if (body == NULL) {
        return carom_last_status();
    }
    body->gravity_scale = scale;
    scene_value_changed(world, body);
    return CAROM_OK;
}

#define BODY_VALUE(return_type, name, zero, expression)                                            \
    return_type name(carom_body_id id) {                                                           \
        carom_body* body = carom_get_body_checked(id, NULL, #name);                                \
        return body != NULL ? (expression) : (zero);                                               \
    }

BODY_VALUE(double, carom_body_get_linear_damping, 0.0, body->linear_damping)
BODY_VALUE(double, carom_body_get_angular_damping, 0.0, body->angular_damping)
BODY_VALUE(double, carom_body_get_gravity_scale, 0.0, body->gravity_scale)
BODY_VALUE(int, carom_body_is_bullet, 0, body->bullet)
BODY_VALUE(int, carom_body_is_fixed_rotation, 0, body->fixed_rotation)
BODY_VALUE(int, carom_body_is_sleep_enabled, 0, body->enable_sleep)
BODY_VALUE(int, carom_body_has_mass_override, 0, body->mass_override)
BODY_VALUE(int, carom_body_get_shape_count, 0, body->shape_count)

carom_status carom_body_set_bullet(carom_body_id id, int bullet) {
    carom_world* world = NULL;
    carom_body* body = body_to_change(id, &world, "set a body's bullet flag");
    if (body == NULL) {
        return carom_last_status();
    }
    body->bullet = bullet != 0;
    world->scene_revision += 1;
    return CAROM_OK;
}

/* ---- Fixed rotation and mass ------------------------------------------------------------- */

carom_status carom_body_set_fixed_rotation(carom_body_id id, int fixed) {
    carom_world* world = NULL;
    carom_body* body = body_to_change(id, &world, "set a body's fixed rotation");
    if (body == NULL) {
        return carom_last_status();
    }
    body->fixed_rotation = fixed != 0;
    world->scene_revision += 1;
    carom_wake_body(world, body);
    if (body->fixed_rotation && body->type == CAROM_BODY_DYNAMIC) {
        body->angular_velocity = 0.0;
        body->torque = 0.0;
    }
    carom_body_update_mass(world, body);
    return CAROM_OK;
}

static carom_status check_mass_data(const carom_mass_data* data) {
    carom_status status = carom_check_positive(data->mass, "mass override's mass");
    if (status == CAROM_OK && !(data->mass >= DBL_MIN && data->mass <= CAROM_MAX_MAGNITUDE)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "mass override's mass %g kg is outside [%g, %g]", data->mass, DBL_MIN,
                            CAROM_MAX_MAGNITUDE);
    }
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(data->center.x, data->center.y, "mass override's center");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(data->rotational_inertia,
                                          "mass override's rotational inertia");
    }
    if (status == CAROM_OK && !(data->rotational_inertia <= CAROM_MAX_MAGNITUDE)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "mass override's rotational inertia %g kg*m^2 is above %g",
                            data->rotational_inertia, CAROM_MAX_MAGNITUDE);
    }
    return status;
}

carom_status carom_body_set_mass_data(carom_body_id id, carom_mass_data data) {
    carom_world* world = NULL;
    carom_body* body = body_to_change(id, &world, "set a body's mass data");
    if (body == NULL) {
        return carom_last_status();
    }
    carom_status status = check_mass_data(&data);
    if (status == CAROM_OK) {
        body->mass_override = true;
        body->override_mass = data;
        world->scene_revision += 1;
        carom_wake_body(world, body);
        carom_body_update_mass(world, body);
    }
    return status;
}

carom_status carom_body_reset_mass_data(carom_body_id id) {
    carom_world* world = NULL;
    carom_body* body = body_to_change(id, &world, "reset a body's mass data");
    if (body == NULL) {
        return carom_last_status();
    }
    body->mass_override = false;
    memset(&body->override_mass, 0, sizeof(body->override_mass));
    world->scene_revision += 1;
    carom_wake_body(world, body);
    carom_body_update_mass(world, body);
    return CAROM_OK;
}

carom_mass_data carom_body_get_mass_data(carom_body_id id) {
    carom_mass_data data = {0.0, {0.0, 0.0}, 0.0};
    carom_body* body = carom_get_body_checked(id, NULL, "carom_body_get_mass_data");
    if (body != NULL) {
        data.mass = body->mass;
        data.center = body->local_center;
        data.rotational_inertia = body->inertia;
    }
    return data;
}

/* ---- Type ------------------------------------------------------------------------------- */

static bool carries_vehicle(const carom_world* world, int body) {
    for (int i = 0; i < (int)arrlen(world->vehicles); ++i) {
        if (world->vehicles[i].id >= 0 && world->vehicles[i].body == body) {
            return true;
        }
    }
    return false;
}

/* Contacts and proxies after a type change: every contact of the body is dropped (a static
 * pair must not have one, a pair that was static-static has none yet), its end reported if it
 * touched, and the body's proxies are marked moved with their new type, so the next step finds
 * the pairs the new type should have. */
static void refresh_body_pairs(carom_world* world, carom_body* body) {
    int contact_count = carom_collect_body_contacts(world, body);
    for (int i = 0; i < contact_count; ++i) {
        carom_destroy_contact(world, world->body_contacts[i]);
    }
    double margin = body->type == CAROM_BODY_STATIC ? 0.0 : CAROM_AABB_MARGIN;
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        carom_shape* shape = &world->shapes[s];
        world->broad_phase.proxies[s].body_type = body->type;
        carom_vec2 r = {margin, margin};
        carom_aabb fat = {carom_sub(shape->aabb.lower, r), carom_add(shape->aabb.upper, r)};
        carom_broad_phase_move_proxy(&world->broad_phase, s, carom_quantize_fat_aabb(fat));
    }
}

carom_status carom_body_set_type(carom_body_id id, carom_body_type type) {
    carom_world* world = NULL;
    carom_body* body = body_to_change(id, &world, "set a body's type");
    if (body == NULL) {
        return carom_last_status();
    }
    if (type != CAROM_BODY_STATIC && type != CAROM_BODY_KINEMATIC && type != CAROM_BODY_DYNAMIC) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "body type is %d: use CAROM_BODY_STATIC, _KINEMATIC or _DYNAMIC",
                          (int)type);
    }
    if (type != CAROM_BODY_DYNAMIC && carries_vehicle(world, body->id)) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "body %d carries a vehicle, which needs a dynamic chassis: destroy the "
                          "vehicle first",
                          body->id);
    }
    if (type == body->type) {
        return CAROM_OK;
    }
    /* what rested on it, and its own island, wake: their support changed */
    carom_wake_touching(world, body);
    carom_wake_body(world, body);
    world->scene_revision += 1;
    world->awake_revision += 1;
    body->type = type;
    body->sleep_time = 0.0;
    if (type == CAROM_BODY_STATIC) {
        body->linear_velocity = carom_v2(0.0, 0.0);
        body->angular_velocity = 0.0;
    }
    body->force = carom_v2(0.0, 0.0);
    body->torque = 0.0;
    carom_body_update_mass(world, body);
    refresh_body_pairs(world, body);
    if (carom_joint_head(world, body->id) >= 0) {
        carom_relink_joints(world); /* recounts the joints with a kinematic body */
    }
    return CAROM_OK;
}

/* ---- Enabled ----------------------------------------------------------------------------- */

/* Disabling drops the body's contacts (touching ones report their end) and wakes what rested on
 * it; its proxies stay listed in the grid, marked so that they never pair, and enabling marks
 * them moved so that the next step finds their pairs again. */
carom_status carom_body_set_enabled(carom_body_id id, int enabled) {
    carom_world* world = NULL;
    carom_body* body = body_to_change(id, &world, enabled ? "enable a body" : "disable a body");
    if (body == NULL) {
        return carom_last_status();
    }
    bool disabled = enabled == 0;
    if (disabled == body->disabled) {
        return CAROM_OK;
    }
    carom_wake_touching(world, body);
    carom_wake_body(world, body);
    body->sleep_time = 0.0;
    int contact_count = carom_collect_body_contacts(world, body);
    for (int i = 0; i < contact_count; ++i) {
        carom_destroy_contact(world, world->body_contacts[i]);
    }
    body->disabled = disabled;
    world->scene_revision += 1;
    world->awake_revision += 1;
    carom_broad_phase* bp = &world->broad_phase;
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        bp->proxies[s].disabled = disabled;
        if (!disabled) {
            carom_broad_phase_move_proxy(bp, s, bp->proxies[s].fat_aabb);
        }
    }
    return CAROM_OK;
}

int carom_body_is_enabled(carom_body_id id) {
    carom_body* body = carom_get_body_checked(id, NULL, "carom_body_is_enabled");
    return body != NULL && !body->disabled;
}

/* ---- Awake -------------------------------------------------------------------------------- */

carom_status carom_body_set_awake(carom_body_id id, int awake) {
    carom_world* world = NULL;
    carom_body* body = body_to_change(id, &world, awake ? "wake a body" : "put a body to sleep");
    if (body == NULL) {
        return carom_last_status();
    }
    if (awake) {
        carom_wake_body(world, body);
        body->sleep_time = 0.0;
        return CAROM_OK;
    }
    if (body->type == CAROM_BODY_STATIC || body->asleep) {
        return CAROM_OK;
    }
    if (body->disabled) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "body %d is disabled: it neither sleeps nor wakes until enabled",
                          body->id);
    }
    if (body->type == CAROM_BODY_KINEMATIC) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "body %d is kinematic: kinematic bodies never sleep; set its velocity "
                          "to zero to stop it",
                          body->id);
    }
    if (!body->enable_sleep) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "body %d has sleep disabled: enable it (carom_body_set_sleep_enabled) "
                          "before putting it to sleep",
                          body->id);
    }
    if (carom_joint_head(world, body->id) >= 0) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "body %d has joints: it sleeps with the bodies it is jointed to, when "
                          "they all rest",
                          body->id);
    }
    /* alone: an awake body it touches wakes it again at the next step, as any touch would */
    carom_sleep_alone(world, body);
    body->force = carom_v2(0.0, 0.0);
    body->torque = 0.0;
    return CAROM_OK;
}

/* ---- What a body holds ------------------------------------------------------------------ */

int carom_body_get_shapes(carom_body_id id, carom_shape_id* shapes, int capacity) {
    carom_world* world = NULL;
    carom_body* body = carom_get_body_checked(id, &world, "carom_body_get_shapes");
    if (body == NULL) {
        return 0;
    }
    if (capacity < 0 || (shapes == NULL && capacity > 0)) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                   "carom_body_get_shapes: capacity %d with %s array: give an array of capacity "
                   ">= 0 (NULL only with 0)",
                   capacity, shapes == NULL ? "a NULL" : "an");
        return 0;
    }
    /* the body's list is newest first: ascending id order is the documented one */
    int* ids = NULL;
    for (int s = body->first_shape; s >= 0; s = world->shapes[s].next_shape) {
        arrput(ids, s);
    }
    int count = (int)arrlen(ids);
    carom_sort_few_ids(ids, count);
    for (int i = 0; i < count && i < capacity; ++i) {
        shapes[i] = carom_make_shape_id(world, &world->shapes[ids[i]]);
    }
    arrfree(ids);
    return count < capacity ? count : capacity;
}

int carom_body_get_contact_capacity(carom_body_id id) {
    carom_body* body = carom_get_body_checked(id, NULL, "carom_body_get_contact_capacity");
    return body != NULL ? body->contact_count : 0;
}

int carom_body_get_contact_data(carom_body_id id, carom_contact_data* contacts, int capacity) {
    carom_world* world = NULL;
    carom_body* body = carom_get_body_checked(id, &world, "carom_body_get_contact_data");
    if (body == NULL) {
        return 0;
    }
    if (capacity < 0 || (contacts == NULL && capacity > 0)) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                   "carom_body_get_contact_data: capacity %d with %s array: give an array of "
                   "capacity >= 0 (NULL only with 0)",
                   capacity, contacts == NULL ? "a NULL" : "an");
        return 0;
    }
    int count = carom_collect_body_contacts(world, body);
    int written = 0;
    for (int i = 0; i < count && written < capacity; ++i) {
        const carom_contact* contact = &world->contacts[world->body_contacts[i]];
        if (contact->point_count == 0) {
            continue;
        }
        carom_contact_data* out = &contacts[written++];
        out->shape_a = carom_make_shape_id(world, &world->shapes[contact->shape_a]);
        out->shape_b = carom_make_shape_id(world, &world->shapes[contact->shape_b]);
        out->manifold = carom_contact_get_manifold(contact);
        out->touching = contact->touching;
    }
    return written;
}
