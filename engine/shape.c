/* Shapes: creation on a body, destruction, materials and filters.
 *
 * Geometry is validated here, at the API boundary: a polygon is rebuilt through
 * carom_make_polygon() even when the caller filled the struct by hand, so the narrow phase only
 * ever sees convex, counter-clockwise polygons with unit normals. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

carom_shape* carom_get_shape_checked(carom_shape_id id, carom_world** world_out,
                                     const char* what) {
    carom_world* world = carom_get_world_from_parts(id.world0, id.world_generation);
    carom_shape* shape = NULL;
    if (world != NULL && id.index1 > 0 && id.index1 <= (int32_t)arrlen(world->shapes)) {
        carom_shape* candidate = &world->shapes[id.index1 - 1];
        if (candidate->id == id.index1 - 1 && candidate->generation == id.generation) {
            shape = candidate;
        }
    }
    if (shape == NULL) {
        carom_fail(CAROM_ERROR_INVALID_ID,
                   "%s: shape id %lld is null, destroyed, or from a destroyed world", what,
                   (long long)id.index1 - 1); /* not int: index1 may be INT32_MIN */
        world = NULL;
    }
    if (world_out != NULL) {
        *world_out = world;
    }
    return shape;
}

carom_shape_id carom_make_shape_id(const carom_world* world, const carom_shape* shape) {
    carom_shape_id id = {shape->id + 1, shape->generation, world->index, world->generation};
    return id;
}

void carom_shape_find_box(carom_shape* shape) {
    shape->box_half_extents = carom_v2(0.0, 0.0);
    const carom_polygon* p = &shape->polygon;
    if (shape->type != CAROM_SHAPE_POLYGON || p->count != 4 || p->radius != 0.0) {
        return;
    }
    /* carom_make_box's corners in its order, counter-clockwise from (-x, -y): the box test names
     * faces by these edges (edge 0 faces -y, 1 +x, 2 +y, 3 -x), so the same four corners in
     * another order are left to the polygon test */
    carom_vec2 half = p->vertices[2];
    carom_vec2 corners[4] = {{-half.x, -half.y}, {half.x, -half.y}, half, {-half.x, half.y}};
    for (int i = 0; i < 4; ++i) {
        if (p->vertices[i].x != corners[i].x || p->vertices[i].y != corners[i].y) {
            return;
        }
    }
    if (half.x > 0.0 && half.y > 0.0) {
        shape->box_half_extents = half;
    }
}

carom_aabb carom_shape_compute_general_aabb(const carom_shape* shape, carom_transform xf) {
    switch (shape->type) {
    case CAROM_SHAPE_CIRCLE:
        return carom_compute_circle_aabb(&shape->circle, xf);
    case CAROM_SHAPE_SEGMENT:
    case CAROM_SHAPE_CHAIN_SEGMENT:
        return carom_compute_segment_aabb(&shape->segment, xf);
    default:
        return carom_compute_polygon_aabb(&shape->polygon, xf);
    }
}

carom_mass_data carom_shape_compute_mass(const carom_shape* shape) {
    switch (shape->type) {
    case CAROM_SHAPE_CIRCLE:
        return carom_compute_circle_mass(&shape->circle, shape->density);
    case CAROM_SHAPE_POLYGON:
    case CAROM_SHAPE_CAPSULE:
        return carom_compute_polygon_mass(&shape->polygon, shape->density);
    default: {
        carom_mass_data none = {0.0, carom_lerp(shape->segment.point1, shape->segment.point2, 0.5),
                                0.0};
        return none;
    }
    }
}

double carom_shape_compute_thickness(const carom_shape* shape) {
    if (shape->type == CAROM_SHAPE_CIRCLE) {
        return shape->circle.radius;
    }
    if (shape->type == CAROM_SHAPE_CAPSULE) {
        return shape->polygon.radius;
    }
    if (shape->type != CAROM_SHAPE_POLYGON) {
        return INFINITY;
    }
    double thickness = INFINITY;
    const carom_polygon* p = &shape->polygon;
    for (int i = 0; i < p->count; ++i) {
        thickness = carom_min_d(thickness, carom_dot(p->normals[i], carom_sub(p->vertices[i], p->centroid)));
    }
    return p->radius > 0.0 ? thickness + p->radius : thickness;
}

double carom_shape_compute_extent(const carom_shape* shape, carom_vec2 local_point) {
    if (shape->type == CAROM_SHAPE_CIRCLE) {
        return carom_distance(shape->circle.center, local_point) + shape->circle.radius;
    }
    double extent = 0.0;
    for (int i = 0; i < shape->polygon.count; ++i) {
        double d = carom_distance(shape->polygon.vertices[i], local_point);
        extent = d > extent ? d : extent;
    }
    return shape->polygon.radius > 0.0 ? extent + shape->polygon.radius : extent;
}

bool carom_shape_contains_point(const carom_world* world, const carom_shape* shape,
                                carom_vec2 point) {
    carom_vec2 p = carom_inv_transform_point(world->bodies[shape->body].transform, point);
    if (shape->type == CAROM_SHAPE_CIRCLE) {
        return carom_distance_squared(p, shape->circle.center) <=
               shape->circle.radius * shape->circle.radius;
    }
    if (shape->type == CAROM_SHAPE_CAPSULE || (shape->type == CAROM_SHAPE_POLYGON &&
                                                shape->polygon.radius > 0.0)) {
        return carom_polygon_point_distance(&shape->polygon, p) <= shape->polygon.radius;
    }
    if (shape->type != CAROM_SHAPE_POLYGON) {
        return false;
    }
    for (int i = 0; i < shape->polygon.count; ++i) {
        if (carom_dot(shape->polygon.normals[i], carom_sub(p, shape->polygon.vertices[i])) > 0.0) {
            return false;
        }
    }
    return true;
}

bool carom_filters_collide(carom_filter a, carom_filter b) {
    if (a.group == b.group && a.group != 0) {
        return a.group > 0;
    }
    return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

static carom_status check_shape_def(const carom_shape_def* def) {
    if (def == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "shape def is NULL");
    }
    if (def->internal_cookie != CAROM_DEF_COOKIE) {
        return carom_fail(CAROM_ERROR_INVALID_DEF,
                          "shape def was not made by carom_default_shape_def(): start from it "
                          "and change the fields you need");
    }
    carom_status status = carom_check_density(def->density, "shape density");
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->friction, "shape friction");
    }
    if (status == CAROM_OK) {
        status = carom_check_unit_interval(def->restitution, "shape restitution");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->hit_speed_threshold, "shape hit_speed_threshold");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->surface_grip, "shape surface_grip");
    }
    return status;
}

/* Resolve the body and check the def; NULL body when refused (status recorded). */
static carom_body* body_for_new_shape(carom_body_id body_id, const carom_shape_def* def,
                                      carom_world** world) {
    carom_body* body = carom_get_body_checked(body_id, world, "create shape");
    if (body == NULL || carom_check_unlocked(*world, "create a shape") != CAROM_OK ||
        check_shape_def(def) != CAROM_OK) {
        return NULL;
    }
    return body;
}

/* Attach a filled-in shape to the body: id, lists, proxy; the body's mass is left for the
 * caller to update (add_shape) or updated at once (attach_shape). */
static carom_shape_id add_shape(carom_world* world, carom_body* body, const carom_shape_def* def,
                                const carom_shape* geometry) {
    world->scene_revision += 1;
    int id = carom_id_pool_alloc(&world->shape_pool);
    if (id == (int)arrlen(world->shapes)) {
        carom_shape blank;
        memset(&blank, 0, sizeof(blank));
        arrput(world->shapes, blank);
    }
    carom_shape* shape = &world->shapes[id];
    uint32_t generation = shape->generation;
    *shape = *geometry;
    shape->id = id;
    shape->generation = generation;
    shape->body = body->id;
    shape->density = def->density;
    shape->friction = def->friction;
    shape->restitution = def->restitution;
    shape->filter = def->filter;
    shape->is_sensor = def->is_sensor != 0;
    shape->enable_hit_events = def->enable_hit_events != 0;
    shape->enable_contact_events = def->enable_contact_events != 0;
    shape->hit_speed_threshold = def->hit_speed_threshold;
    shape->surface_grip = def->surface_grip;
    shape->user_data = def->user_data;
    shape->next_shape = body->first_shape;
    body->first_shape = id;
    body->shape_count += 1;
    carom_shape_find_box(shape);

    shape->aabb = carom_shape_compute_aabb(shape, body->transform);
    double margin = body->type == CAROM_BODY_STATIC ? 0.0 : CAROM_AABB_MARGIN;
    carom_vec2 r = {margin, margin};
    carom_aabb fat = {carom_sub(shape->aabb.lower, r), carom_add(shape->aabb.upper, r)};
    carom_broad_phase_create_proxy(&world->broad_phase, id, carom_quantize_fat_aabb(fat),
                                   body->id, body->type, shape->filter, shape->is_sensor);
    world->broad_phase.proxies[id].disabled = body->disabled;
    if (!carom_sleeps_alone_untouched(world, body)) {
        carom_wake_body(world, body); /* a new shape may overlap what the body rests on */
    }
    return carom_make_shape_id(world, shape);
}

static carom_shape_id attach_shape(carom_world* world, carom_body* body, const carom_shape_def* def,
                                   const carom_shape* geometry) {
    carom_shape_id id = add_shape(world, body, def, geometry);
    carom_body_update_mass(world, body);
    return id;
}

carom_shape_id carom_create_circle_shape(carom_body_id body_id, const carom_shape_def* def,
                                         const carom_circle* circle) {
    carom_world* world = NULL;
    carom_body* body = body_for_new_shape(body_id, def, &world);
    if (body == NULL) {
        return carom_null_shape_id;
    }
    if (circle == NULL) {
        carom_fail(CAROM_ERROR_NULL_ARGUMENT, "circle is NULL");
        return carom_null_shape_id;
    }
    if (carom_check_finite_vec2(circle->center.x, circle->center.y, "circle center") !=
            CAROM_OK ||
        carom_check_positive(circle->radius, "circle radius") != CAROM_OK) {
        return carom_null_shape_id;
    }
    if (circle->radius < CAROM_MIN_RADIUS) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                   "circle radius is %g m: it must be at least %g m (CAROM_MIN_RADIUS)",
                   circle->radius, CAROM_MIN_RADIUS);
        return carom_null_shape_id;
    }
    carom_shape geometry;
    memset(&geometry, 0, sizeof(geometry));
    geometry.type = CAROM_SHAPE_CIRCLE;
    geometry.circle = *circle;
    return attach_shape(world, body, def, &geometry);
}

carom_shape_id carom_create_polygon_shape(carom_body_id body_id, const carom_shape_def* def,
                                          const carom_polygon* polygon) {
    carom_world* world = NULL;
    carom_body* body = body_for_new_shape(body_id, def, &world);
    if (body == NULL) {
        return carom_null_shape_id;
    }
    if (polygon == NULL) {
        carom_fail(CAROM_ERROR_NULL_ARGUMENT, "polygon is NULL");
        return carom_null_shape_id;
    }
    carom_shape geometry;
    memset(&geometry, 0, sizeof(geometry));
    geometry.type = CAROM_SHAPE_POLYGON;
    if (carom_make_rounded_polygon(polygon->vertices, polygon->count, polygon->radius,
                                   &geometry.polygon) != CAROM_OK) {
        return carom_null_shape_id;
    }
    return attach_shape(world, body, def, &geometry);
}

carom_shape_id carom_create_box_shape(carom_body_id body_id, const carom_shape_def* def,
                                      double half_width, double half_height, carom_vec2 center,
                                      double angle) {
    carom_world* world = NULL;
    carom_body* body = body_for_new_shape(body_id, def, &world);
    if (body == NULL) {
        return carom_null_shape_id;
    }
    carom_shape geometry;
    memset(&geometry, 0, sizeof(geometry));
    geometry.type = CAROM_SHAPE_POLYGON;
    if (carom_make_box(half_width, half_height, center, angle, &geometry.polygon) != CAROM_OK) {
        return carom_null_shape_id;
    }
    return attach_shape(world, body, def, &geometry);
}

/* ---- Capsules and rounded boxes (issue 16): polygons with a radius, see sat_rounded.c ---- */

carom_shape_id carom_create_capsule_shape(carom_body_id body_id, const carom_shape_def* def,
                                          const carom_capsule* capsule) {
    carom_world* world = NULL;
    carom_body* body = body_for_new_shape(body_id, def, &world);
    if (body == NULL) {
        return carom_null_shape_id;
    }
    carom_shape geometry;
    memset(&geometry, 0, sizeof(geometry));
    geometry.type = CAROM_SHAPE_CAPSULE;
    if (carom_make_capsule_polygon(capsule, &geometry.polygon) != CAROM_OK) {
        return carom_null_shape_id;
    }
    return attach_shape(world, body, def, &geometry);
}

carom_shape_id carom_create_rounded_box_shape(carom_body_id body_id, const carom_shape_def* def,
                                              double half_width, double half_height,
                                              carom_vec2 center, double angle, double radius) {
    carom_world* world = NULL;
    carom_body* body = body_for_new_shape(body_id, def, &world);
    if (body == NULL) {
        return carom_null_shape_id;
    }
    carom_shape geometry;
    memset(&geometry, 0, sizeof(geometry));
    geometry.type = CAROM_SHAPE_POLYGON;
    if (carom_make_rounded_box(half_width, half_height, center, angle, radius,
                               &geometry.polygon) != CAROM_OK) {
        return carom_null_shape_id;
    }
    return attach_shape(world, body, def, &geometry);
}

carom_shape_id carom_create_segment_shape(carom_body_id body_id, const carom_shape_def* def,
                                          const carom_segment* segment) {
    carom_world* world = NULL;
    carom_body* body = body_for_new_shape(body_id, def, &world);
    if (body == NULL) {
        return carom_null_shape_id;
    }
    if (segment == NULL) {
        carom_fail(CAROM_ERROR_NULL_ARGUMENT, "segment is NULL");
        return carom_null_shape_id;
    }
    if (carom_check_finite_vec2(segment->point1.x, segment->point1.y, "segment point1") !=
            CAROM_OK ||
        carom_check_finite_vec2(segment->point2.x, segment->point2.y, "segment point2") !=
            CAROM_OK) {
        return carom_null_shape_id;
    }
    if (carom_distance(segment->point1, segment->point2) < CAROM_POLYGON_WELD_TOLERANCE) {
        carom_fail(CAROM_ERROR_INVALID_POLYGON,
                   "segment points (%g, %g) and (%g, %g) are the same point: a segment needs "
                   "two distinct points",
                   segment->point1.x, segment->point1.y, segment->point2.x, segment->point2.y);
        return carom_null_shape_id;
    }
    carom_shape geometry;
    memset(&geometry, 0, sizeof(geometry));
    geometry.type = CAROM_SHAPE_SEGMENT;
    geometry.segment = *segment;
    geometry.polygon = carom_make_segment_polygon(segment);
    return attach_shape(world, body, def, &geometry);
}

static carom_status check_chain_points(const carom_vec2* points, int count, int loop) {
    if (points == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "chain points pointer is NULL");
    }
    int minimum = loop ? 3 : 2;
    if (count < minimum) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE, "chain has %d points: a%s chain needs %d",
                          count, loop ? " looped" : "n open", minimum);
    }
    for (int i = 0; i < count; ++i) {
        char what[32];
        snprintf(what, sizeof(what), "chain point %d", i);
        carom_status status = carom_check_finite_vec2(points[i].x, points[i].y, what);
        if (status != CAROM_OK) {
            return status;
        }
    }
    int edges = loop ? count : count - 1;
    for (int i = 0; i < edges; ++i) {
        int j = (i + 1) % count;
        if (carom_distance(points[i], points[j]) < CAROM_POLYGON_WELD_TOLERANCE) {
            return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                              "chain points %d and %d are the same point (%g, %g): remove the "
                              "duplicate",
                              i, j, points[i].x, points[i].y);
        }
    }
    return CAROM_OK;
}

carom_status carom_create_chain(carom_body_id body_id, const carom_shape_def* def,
                                const carom_vec2* points, int count, int loop,
                                carom_shape_id* out_segments) {
    carom_world* world = NULL;
    carom_body* body = body_for_new_shape(body_id, def, &world);
    if (body == NULL) {
        return carom_last_status();
    }
    carom_status status = check_chain_points(points, count, loop);
    if (status != CAROM_OK) {
        return status;
    }
    /* One mass update for the whole chain, after its segments: updating after each segment
     * walks all the body's shapes each time, and a 40,000-point chain took 49 s. */
    int edges = loop ? count : count - 1;
    for (int i = 0; i < edges; ++i) {
        carom_shape geometry;
        memset(&geometry, 0, sizeof(geometry));
        geometry.type = CAROM_SHAPE_CHAIN_SEGMENT;
        carom_chain_segment* chain = &geometry.chain;
        chain->point1 = points[i];
        chain->point2 = points[(i + 1) % count];
        chain->has_ghost1 = loop || i > 0;
        chain->has_ghost2 = loop || i + 2 < count;
        chain->ghost1 = chain->has_ghost1 ? points[(i + count - 1) % count] : chain->point1;
        chain->ghost2 = chain->has_ghost2 ? points[(i + 2) % count] : chain->point2;
        chain->one_sided = def->one_sided != 0;
        geometry.segment.point1 = chain->point1;
        geometry.segment.point2 = chain->point2;
        geometry.polygon = carom_make_segment_polygon(&geometry.segment);
        carom_shape_id id = add_shape(world, body, def, &geometry);
        if (out_segments != NULL) {
            out_segments[i] = id;
        }
    }
    carom_body_update_mass(world, body);
    return CAROM_OK;
}

void carom_destroy_shape_internal(carom_world* world, carom_shape* shape, bool update_body_mass) {
    world->scene_revision += 1;
    carom_body* body = &world->bodies[shape->body];
    carom_wake_body(world, body);
    carom_wake_touching(world, body);
    /* Destroy the contacts that involve this shape; touching ones end with an event. */
    int contact_count = carom_collect_body_contacts(world, body);
    for (int i = 0; i < contact_count; ++i) {
        const carom_contact* contact = &world->contacts[world->body_contacts[i]];
        if (contact->shape_a == shape->id || contact->shape_b == shape->id) {
            carom_destroy_contact(world, contact->id);
        }
    }
    /* Unlink from the body's shape list. */
    int* link = &body->first_shape;
    while (*link != shape->id) {
        link = &world->shapes[*link].next_shape;
    }
    *link = shape->next_shape;
    body->shape_count -= 1;

    carom_broad_phase_destroy_proxy(&world->broad_phase, shape->id);
    carom_id_pool_free(&world->shape_pool, shape->id);
    shape->id = -1;
    shape->generation += 1;
    if (update_body_mass) {
        carom_body_update_mass(world, body);
    }
}

carom_status carom_destroy_shape(carom_shape_id id) {
    carom_world* world = NULL;
    carom_shape* shape = carom_get_shape_checked(id, &world, "destroy shape");
    if (shape == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "destroy a shape");
    if (status == CAROM_OK) {
        carom_destroy_shape_internal(world, shape, true);
    }
    return status;
}

int carom_shape_is_valid(carom_shape_id id) {
    carom_world* world = carom_get_world_from_parts(id.world0, id.world_generation);
    if (world == NULL || id.index1 <= 0 || id.index1 > (int32_t)arrlen(world->shapes)) {
        return 0;
    }
    const carom_shape* shape = &world->shapes[id.index1 - 1];
    return shape->id == id.index1 - 1 && shape->generation == id.generation;
}

#define SHAPE_GETTER(return_type, name, zero, expression)                                          \
    return_type name(carom_shape_id id) {                                                          \
        carom_world* world = NULL;                                                                 \
        carom_shape* shape = carom_get_shape_checked(id, &world, #name);                           \
        if (shape == NULL) {                                                                       \
            return zero;                                                                           \
        }                                                                                          \
        return expression;                                                                         \
    }

static const carom_aabb empty_aabb = {{0.0, 0.0}, {0.0, 0.0}};
static const carom_filter zero_filter = {0, 0, 0};

SHAPE_GETTER(carom_shape_type, carom_shape_get_type, CAROM_SHAPE_CIRCLE, shape->type)
SHAPE_GETTER(carom_body_id, carom_shape_get_body, carom_null_body_id,
             carom_make_body_id(world, &world->bodies[shape->body]))
SHAPE_GETTER(double, carom_shape_get_density, 0.0, shape->density)
SHAPE_GETTER(double, carom_shape_get_friction, 0.0, shape->friction)
SHAPE_GETTER(double, carom_shape_get_restitution, 0.0, shape->restitution)
SHAPE_GETTER(carom_filter, carom_shape_get_filter, zero_filter, shape->filter)
SHAPE_GETTER(int, carom_shape_is_sensor, 0, shape->is_sensor)
SHAPE_GETTER(double, carom_shape_get_surface_grip, 0.0, shape->surface_grip)
SHAPE_GETTER(void*, carom_shape_get_user_data, NULL, shape->user_data)
SHAPE_GETTER(carom_aabb, carom_shape_get_aabb, empty_aabb, shape->aabb)

/* Resolve a shape for a setter; NULL when refused (status recorded). */
static carom_shape* shape_for_change(carom_shape_id id, carom_world** world, const char* action) {
    carom_shape* shape = carom_get_shape_checked(id, world, action);
    if (shape != NULL && carom_check_unlocked(*world, action) != CAROM_OK) {
        shape = NULL;
    }
    return shape;
}

carom_status carom_shape_set_friction(carom_shape_id id, double friction) {
    carom_world* world = NULL;
    carom_shape* shape = shape_for_change(id, &world, "set a shape's friction");
    if (shape == NULL) {
        return carom_last_status();
    }
    carom_status status = carom_check_non_negative(friction, "shape friction");
    if (status == CAROM_OK) {
        shape->friction = friction;
        world->scene_revision += 1;
        carom_contacts_material_changed(world);
    }
    return status;
}

carom_status carom_shape_set_restitution(carom_shape_id id, double restitution) {
    carom_world* world = NULL;
    carom_shape* shape = shape_for_change(id, &world, "set a shape's restitution");
    if (shape == NULL) {
        return carom_last_status();
    }
    carom_status status = carom_check_unit_interval(restitution, "shape restitution");
    if (status == CAROM_OK) {
        shape->restitution = restitution;
        world->scene_revision += 1;
        carom_contacts_material_changed(world);
    }
    return status;
}

carom_status carom_shape_set_density(carom_shape_id id, double density) {
    carom_world* world = NULL;
    carom_shape* shape = shape_for_change(id, &world, "set a shape's density");
    if (shape == NULL) {
        return carom_last_status();
    }
    carom_status status = carom_check_density(density, "shape density");
    if (status == CAROM_OK) {
        shape->density = density;
        world->scene_revision += 1;
        carom_wake_body(world, &world->bodies[shape->body]);
        carom_body_update_mass(world, &world->bodies[shape->body]);
    }
    return status;
}

/* ---- Concave polygons by convex decomposition (issue 16): engine/decompose.c ---- */

carom_status carom_create_decomposed_polygon_shapes(carom_body_id body_id,
                                                    const carom_shape_def* def,
                                                    const carom_vec2* points, int count,
                                                    carom_shape_id* shapes, int capacity,
                                                    int* shape_count) {
    if (shape_count == NULL || (shapes == NULL && capacity > 0)) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "create decomposed polygon: %s is NULL",
                          shape_count == NULL ? "shape_count" : "shapes");
    }
    *shape_count = 0;
    carom_world* world = NULL;
    carom_body* body = body_for_new_shape(body_id, def, &world);
    if (body == NULL) {
        return carom_last_status();
    }
    /* On the heap: CAROM_MAX_DECOMPOSE_PIECES polygons are some 40 KB, a lot for a small
     * (WebAssembly) stack. */
    carom_polygon* pieces = carom_alloc(sizeof(carom_polygon) * CAROM_MAX_DECOMPOSE_PIECES);
    int piece_count = 0;
    carom_status status =
        carom_decompose_polygon(points, count, pieces, CAROM_MAX_DECOMPOSE_PIECES, &piece_count);
    if (status == CAROM_OK && shapes != NULL && piece_count > capacity) {
        status = carom_fail(CAROM_ERROR_BUFFER_TOO_SMALL,
                            "create decomposed polygon: the polygon makes %d convex pieces and "
                            "the shape id array holds %d",
                            piece_count, capacity);
        *shape_count = piece_count;
    }
    if (status == CAROM_OK) {
        /* One mass update for all the pieces, as for a chain's segments. */
        for (int i = 0; i < piece_count; ++i) {
            carom_shape geometry;
            memset(&geometry, 0, sizeof(geometry));
            geometry.type = CAROM_SHAPE_POLYGON;
            geometry.polygon = pieces[i];
            carom_shape_id id = add_shape(world, body, def, &geometry);
            if (shapes != NULL) {
                shapes[i] = id;
            }
        }
        carom_body_update_mass(world, body);
        *shape_count = piece_count;
    }
    carom_free(pieces);
    return status;
}
