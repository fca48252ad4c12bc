/* Explosions (issue 16): carom_world_explode.
 *
 * Each dynamic shape within reach gets an impulse along the line from the blast point to its
 * closest point, applied there, of impulse_per_length times the shape's width across that line
 * times the strength at its distance: full within radius, falling linearly to nothing over
 * falloff beyond it. All impulses are worked out first (shapes in ascending id order) and checked
 * against the velocity bound body by body; only then are they applied, so a refused explosion
 * changes nothing. The shapes within reach come from the broad phase, as for query.c's queries,
 * into the same scratch array (world->query_shapes). */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stdlib.h>

carom_explosion_def carom_default_explosion_def(void) {
    carom_explosion_def def;
    def.position = carom_v2(0.0, 0.0);
    def.radius = 1.0;
    def.falloff = 0.0;
    def.impulse_per_length = 1.0;
    def.mask = ~(uint64_t)0;
    def.internal_cookie = CAROM_DEF_COOKIE;
    return def;
}

/* The closest point of a placed shape to `point` and its distance (0 when inside or on it). */
typedef struct closest_point {
    carom_vec2 point; /* world frame */
    double distance;
} closest_point;

static carom_vec2 closest_on_segment(carom_vec2 p, carom_vec2 a, carom_vec2 b) {
    carom_vec2 ab = carom_sub(b, a);
    double t = carom_dot(carom_sub(p, a), ab) / carom_dot(ab, ab);
    return carom_mul_add(a, carom_min_d(carom_max_d(t, 0.0), 1.0), ab);
}

/* Closest point of a polygon's core (body frame) to p: p itself inside a core of three or more
 * vertices, else the nearest point of its edges. */
static carom_vec2 closest_on_core(const carom_polygon* polygon, carom_vec2 p) {
    bool inside = polygon->count >= 3;
    for (int i = 0; i < polygon->count && inside; ++i) {
        inside = carom_dot(polygon->normals[i], carom_sub(p, polygon->vertices[i])) <= 0.0;
    }
    if (inside) {
        return p;
    }
    carom_vec2 best = polygon->vertices[0];
    double best_distance = INFINITY;
    for (int i = 0; i < polygon->count; ++i) {
        carom_vec2 q = closest_on_segment(p, polygon->vertices[i],
                                          polygon->vertices[(i + 1) % polygon->count]);
        double d = carom_distance_squared(p, q);
        if (d < best_distance) {
            best_distance = d;
            best = q;
        }
    }
    return best;
}

/* The closest point of a circle (center c, radius r) or of a rounded core's closest point c
 * grown by r, to p, in one frame. */
static closest_point grow_by_radius(carom_vec2 p, carom_vec2 c, double r) {
    double d = carom_distance(p, c);
    closest_point out = {p, 0.0};
    if (d > r) {
        out.point = carom_mul_add(c, r / d, carom_sub(p, c));
        out.distance = d - r;
    }
    return out;
}

static closest_point closest_to_shape(const carom_shape* shape, carom_transform xf, carom_vec2 p) {
    carom_vec2 local = carom_inv_transform_point(xf, p);
    closest_point out;
    if (shape->type == CAROM_SHAPE_CIRCLE) {
        out = grow_by_radius(local, shape->circle.center, shape->circle.radius);
    } else {
        out = grow_by_radius(local, closest_on_core(&shape->polygon, local),
                             shape->polygon.radius);
    }
    out.point = carom_transform_point(xf, out.point);
    return out;
}

/* The shape's width across the world direction (its extent along the perpendicular, m). */
static double width_across(const carom_shape* shape, carom_rot q, carom_vec2 direction) {
    if (shape->type == CAROM_SHAPE_CIRCLE) {
        return 2.0 * shape->circle.radius;
    }
    carom_vec2 across = carom_left_perp(carom_inv_rotate(q, direction));
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < shape->polygon.count; ++i) {
        double s = carom_dot(across, shape->polygon.vertices[i]);
        lo = carom_min_d(lo, s);
        hi = carom_max_d(hi, s);
    }
    return hi - lo + 2.0 * shape->polygon.radius;
}

/* One shape's push: the body it moves, and the velocity changes it gives. */
typedef struct blast_push {
    int body;
    int shape;
    carom_vec2 linear;
    double angular;
} blast_push;

static int compare_pushes(const void* a, const void* b) {
    const blast_push* x = a;
    const blast_push* y = b;
    if (x->body != y->body) {
        return x->body < y->body ? -1 : 1;
    }
    return (x->shape > y->shape) - (x->shape < y->shape);
}

/* The push the blast gives the shape, if it reaches it. */
static bool push_of(const carom_world* world, const carom_shape* shape,
                    const carom_explosion_def* def, blast_push* out) {
    const carom_body* body = &world->bodies[shape->body];
    closest_point closest = closest_to_shape(shape, body->transform, def->position);
    double reach = def->radius + def->falloff;
    if (closest.distance > reach) {
        return false;
    }
    double strength = closest.distance <= def->radius
                          ? 1.0
                          : (reach - closest.distance) / def->falloff;
    carom_vec2 at = closest.point;
    carom_vec2 direction = carom_sub(at, def->position);
    if (closest.distance == 0.0) {
        /* the blast is inside the shape: it pushes the shape's centroid away from it */
        at = carom_transform_point(body->transform, shape->type == CAROM_SHAPE_CIRCLE
                                                        ? shape->circle.center
                                                        : shape->polygon.centroid);
        direction = carom_sub(at, def->position);
    }
    if (carom_length_squared(direction) == 0.0) {
        return false; /* at the very centre: pushed equally every way, so not at all */
    }
    direction = carom_normalize(direction);
    double magnitude =
        def->impulse_per_length * width_across(shape, body->transform.q, direction) * strength;
    carom_vec2 impulse = carom_scale(magnitude, direction);
    out->body = shape->body;
    out->shape = shape->id;
    out->linear = carom_scale(body->inv_mass, impulse);
    out->angular = body->inv_inertia * carom_cross(carom_sub(at, body->center), impulse);
    return true;
}

static carom_status check_explosion_def(const carom_explosion_def* def) {
    if (def == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "explosion def is NULL");
    }
    if (def->internal_cookie != CAROM_DEF_COOKIE) {
        return carom_fail(CAROM_ERROR_INVALID_DEF,
                          "explosion def was not made by carom_default_explosion_def()");
    }
    carom_status status =
        carom_check_finite_vec2(def->position.x, def->position.y, "explosion position");
    const double values[3] = {def->radius, def->falloff, def->impulse_per_length};
    const char* names[3] = {"explosion radius", "explosion falloff",
                            "explosion impulse_per_length"};
    for (int i = 0; i < 3 && status == CAROM_OK; ++i) {
        status = carom_check_non_negative(values[i], names[i]);
        if (status == CAROM_OK && values[i] > CAROM_MAX_MAGNITUDE) {
            status = carom_fail(CAROM_ERROR_OUT_OF_RANGE, "%s %g is above %g", names[i],
                                values[i], CAROM_MAX_MAGNITUDE);
        }
    }
    return status;
}

/* Whether the blast may push the shape: a dynamic, enabled body's non-sensor shape of a
 * category the mask names. */
static bool blast_moves(const carom_world* world, const carom_shape* shape, uint64_t mask) {
    const carom_body* body = &world->bodies[shape->body];
    return body->type == CAROM_BODY_DYNAMIC && !body->disabled && !shape->is_sensor &&
           (shape->filter.category & mask) != 0;
}

/* The pushes of every shape the blast reaches, sorted by body then shape. */
static blast_push* find_pushes(carom_world* world, const carom_explosion_def* def) {
    double reach = def->radius + def->falloff;
    carom_vec2 r = {reach, reach};
    carom_aabb box = {carom_sub(def->position, r), carom_add(def->position, r)};
    carom_broad_phase_query(&world->broad_phase, box, &world->query_shapes);
    blast_push* pushes = NULL;
    for (int i = 0; i < (int)arrlen(world->query_shapes); ++i) {
        const carom_shape* shape = &world->shapes[world->query_shapes[i]];
        blast_push push;
        if (blast_moves(world, shape, def->mask) && push_of(world, shape, def, &push)) {
            arrput(pushes, push);
        }
    }
    if (arrlen(pushes) > 1) {
        qsort(pushes, (size_t)arrlen(pushes), sizeof(blast_push), compare_pushes);
    }
    return pushes;
}

/* Add up the pushes of each body (a run of `pushes` from *next) onto its velocities. */
static void sum_body_pushes(const carom_world* world, const blast_push* pushes, int count,
                            int* next, carom_vec2* linear, double* angular) {
    const carom_body* body = &world->bodies[pushes[*next].body];
    *linear = body->linear_velocity;
    *angular = body->angular_velocity;
    int i = *next;
    for (; i < count && pushes[i].body == body->id; ++i) {
        *linear = carom_add(*linear, pushes[i].linear);
        *angular += pushes[i].angular;
    }
    *next = i;
}

static carom_status check_pushes(const carom_world* world, const blast_push* pushes, int count) {
    for (int i = 0; i < count;) {
        int body = pushes[i].body;
        carom_vec2 linear;
        double angular;
        sum_body_pushes(world, pushes, count, &i, &linear, &angular);
        if (!(fabs(linear.x) <= CAROM_MAX_MAGNITUDE && fabs(linear.y) <= CAROM_MAX_MAGNITUDE &&
              fabs(angular) <= CAROM_MAX_MAGNITUDE)) {
            return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                              "the explosion would give body %d velocities (%g, %g) m/s, %g "
                              "rad/s: magnitudes above %g are refused, they overflow in a step",
                              body, linear.x, linear.y, angular, CAROM_MAX_MAGNITUDE);
        }
    }
    return CAROM_OK;
}

carom_status carom_world_explode(carom_world_id id, const carom_explosion_def* def) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "apply an explosion");
    if (status == CAROM_OK) {
        status = check_explosion_def(def);
    }
    if (status != CAROM_OK) {
        return status;
    }
    blast_push* pushes = find_pushes(world, def);
    int count = (int)arrlen(pushes);
    status = check_pushes(world, pushes, count);
    for (int i = 0; i < count && status == CAROM_OK;) {
        carom_body* body = &world->bodies[pushes[i].body];
        carom_vec2 linear;
        double angular;
        sum_body_pushes(world, pushes, count, &i, &linear, &angular);
        carom_wake_body(world, body);
        body->linear_velocity = linear;
        body->angular_velocity = angular;
    }
    arrfree(pushes);
    return status;
}
