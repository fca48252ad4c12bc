/* World queries: ray casts and overlap tests against the shapes in the broad phase.
 *
 * Each query asks the grid for the shapes whose fat boxes meet the query's box (ascending shape
 * id, no repeats), filters them, runs the exact test, and reports in a fixed order: ray hits by
 * fraction then shape id, overlaps by shape id. Nothing depends on memory or hash order.
 *
 * The world is locked while a callback runs: the hits being reported live in the world's scratch
 * arrays, and the shapes and bodies in its arrays, so a callback that destroyed the world or a
 * body, created one, stepped, or started another query of the same world would pull them from
 * under the loop. Such calls are refused with CAROM_ERROR_WORLD_LOCKED instead. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stdlib.h>

static carom_status check_query_world(carom_world_id id, carom_world** world, const char* what) {
    *world = carom_get_world_checked(id);
    if (*world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    return carom_check_unlocked(*world, what);
}

/* Shapes the filter sees among those whose fat boxes meet the box, into world->query_shapes. */
static void gather(carom_world* world, carom_aabb box, carom_filter filter, bool sensors) {
    carom_broad_phase_query(&world->broad_phase, box, &world->query_shapes);
    int kept = 0;
    for (int i = 0; i < (int)arrlen(world->query_shapes); ++i) {
        const carom_shape* shape = &world->shapes[world->query_shapes[i]];
        if ((sensors || !shape->is_sensor) && carom_filters_collide(filter, shape->filter) &&
            !world->bodies[shape->body].disabled) {
            world->query_shapes[kept++] = world->query_shapes[i];
        }
    }
    arrsetlen(world->query_shapes, kept);
}

static carom_cast_output cast_at_shape(const carom_world* world, const carom_shape* shape,
                                       const carom_ray_input* ray) {
    carom_transform xf = world->bodies[shape->body].transform;
    if (shape->type == CAROM_SHAPE_CIRCLE) {
        return carom_ray_cast_circle(ray, &shape->circle, xf);
    }
    return carom_ray_cast_polygon(ray, &shape->polygon, xf);
}

typedef struct ray_hit {
    int shape;
    carom_cast_output output;
} ray_hit;

static int compare_hits(const void* a, const void* b) {
    const ray_hit* x = a;
    const ray_hit* y = b;
    if (x->output.fraction != y->output.fraction) {
        return x->output.fraction < y->output.fraction ? -1 : 1;
    }
    return (x->shape > y->shape) - (x->shape < y->shape);
}

static carom_status check_ray(carom_vec2 origin, carom_vec2 translation) {
    carom_status status = carom_check_finite_vec2(origin.x, origin.y, "ray origin");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(translation.x, translation.y, "ray translation");
    }
    return status;
}

/* Every hit of the ray, sorted by fraction then shape id, into world->ray_hits. */
static void cast_all(carom_world* world, carom_vec2 origin, carom_vec2 translation,
                     carom_filter filter) {
    carom_vec2 end = carom_add(origin, translation);
    carom_aabb box = {carom_min_v(origin, end), carom_max_v(origin, end)};
    gather(world, box, filter, false);
    carom_ray_input ray = {origin, translation, 1.0};
    arrsetlen(world->ray_hits, 0);
    for (int i = 0; i < (int)arrlen(world->query_shapes); ++i) {
        int s = world->query_shapes[i];
        carom_cast_output output = cast_at_shape(world, &world->shapes[s], &ray);
        if (output.hit) {
            ray_hit hit = {s, output};
            arrput(world->ray_hits, hit);
        }
    }
    if (arrlen(world->ray_hits) > 1) {
        qsort(world->ray_hits, (size_t)arrlen(world->ray_hits), sizeof(ray_hit), compare_hits);
    }
}

/* Report world->ray_hits (sorted) to the callback with the world locked (`holder` for the
 * refusal message), honouring its answers: 0 stops, a fraction shortens, -1 skips. */
static void report_hits(carom_world* world, carom_ray_callback* callback, void* context,
                        const char* holder) {
    carom_lock_world(world, holder);
    double limit = 1.0;
    for (int i = 0; i < (int)arrlen(world->ray_hits); ++i) {
        const ray_hit* hit = &world->ray_hits[i];
        if (hit->output.fraction > limit) {
            break;
        }
        double answer = callback(carom_make_shape_id(world, &world->shapes[hit->shape]),
                                 hit->output.point, hit->output.normal, hit->output.fraction,
                                 context);
        if (answer == 0.0) {
            break;
        }
        if (answer > 0.0 && answer < limit) {
            limit = answer;
        }
    }
    carom_unlock_world(world);
}

/* The closest of world->ray_hits as a result (hit 0 when there is none). */
static carom_ray_result first_hit(const carom_world* world) {
    carom_ray_result result = {carom_null_shape_id, {0.0, 0.0}, {0.0, 0.0}, 1.0, 0};
    if (arrlen(world->ray_hits) > 0) {
        const ray_hit* first = &world->ray_hits[0];
        result.shape = carom_make_shape_id(world, &world->shapes[first->shape]);
        result.point = first->output.point;
        result.normal = first->output.normal;
        result.fraction = first->output.fraction;
        result.hit = 1;
    }
    return result;
}

carom_ray_result carom_world_cast_ray_closest(carom_world_id id, carom_vec2 origin,
                                              carom_vec2 translation, carom_filter filter) {
    carom_ray_result result = {carom_null_shape_id, {0.0, 0.0}, {0.0, 0.0}, 1.0, 0};
    carom_world* world = NULL;
    if (check_query_world(id, &world, "cast a ray") != CAROM_OK ||
        check_ray(origin, translation) != CAROM_OK) {
        return result;
    }
    cast_all(world, origin, translation, filter);
    return first_hit(world);
}

carom_status carom_world_cast_ray(carom_world_id id, carom_vec2 origin, carom_vec2 translation,
                                  carom_filter filter, carom_ray_callback* callback,
                                  void* context) {
    carom_world* world = NULL;
    carom_status status = check_query_world(id, &world, "cast a ray");
    if (status == CAROM_OK) {
        status = check_ray(origin, translation);
    }
    if (status == CAROM_OK && callback == NULL) {
        status = carom_fail(CAROM_ERROR_NULL_ARGUMENT, "ray cast callback is NULL");
    }
    if (status != CAROM_OK) {
        return status;
    }
    cast_all(world, origin, translation, filter);
    report_hits(world, callback, context,
                "inside a ray-cast callback; do it after carom_world_cast_ray returns");
    return CAROM_OK;
}

/* Report the gathered shapes passing `test` to the callback, in shape-id order, with the world
 * locked (`holder` for the refusal message). */
typedef bool shape_test(const carom_world* world, const carom_shape* shape, const void* query);

static carom_status report_overlaps(carom_world* world, shape_test* test, const void* query,
                                    carom_overlap_callback* callback, void* context,
                                    const char* holder) {
    carom_lock_world(world, holder);
    for (int i = 0; i < (int)arrlen(world->query_shapes); ++i) {
        const carom_shape* shape = &world->shapes[world->query_shapes[i]];
        if (test(world, shape, query) &&
            !callback(carom_make_shape_id(world, shape), context)) {
            break;
        }
    }
    carom_unlock_world(world);
    return CAROM_OK;
}

static carom_status start_overlap(carom_world_id id, carom_world** world,
                                  carom_overlap_callback* callback) {
    carom_status status = check_query_world(id, world, "query overlaps");
    if (status == CAROM_OK && callback == NULL) {
        status = carom_fail(CAROM_ERROR_NULL_ARGUMENT, "overlap callback is NULL");
    }
    return status;
}

static bool box_test(const carom_world* world, const carom_shape* shape, const void* query) {
    (void)world;
    return carom_aabb_overlaps(shape->aabb, *(const carom_aabb*)query);
}

carom_status carom_world_overlap_aabb(carom_world_id id, carom_aabb box, carom_filter filter,
                                      carom_overlap_callback* callback, void* context) {
    carom_world* world = NULL;
    carom_status status = start_overlap(id, &world, callback);
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(box.lower.x, box.lower.y, "box lower corner");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(box.upper.x, box.upper.y, "box upper corner");
    }
    if (status == CAROM_OK && (box.lower.x > box.upper.x || box.lower.y > box.upper.y)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "box lower corner (%g, %g) is above its upper corner (%g, %g)",
                            box.lower.x, box.lower.y, box.upper.x, box.upper.y);
    }
    if (status != CAROM_OK) {
        return status;
    }
    gather(world, box, filter, true);
    return report_overlaps(world, box_test, &box, callback, context,
                           "inside an overlap callback; do it after carom_world_overlap_aabb "
                           "returns");
}

static bool point_test(const carom_world* world, const carom_shape* shape, const void* query) {
    return carom_shape_contains_point(world, shape, *(const carom_vec2*)query);
}

carom_status carom_world_overlap_point(carom_world_id id, carom_vec2 point, carom_filter filter,
                                       carom_overlap_callback* callback, void* context) {
    carom_world* world = NULL;
    carom_status status = start_overlap(id, &world, callback);
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(point.x, point.y, "query point");
    }
    if (status != CAROM_OK) {
        return status;
    }
    carom_aabb box = {point, point};
    gather(world, box, filter, true);
    return report_overlaps(world, point_test, &point, callback, context,
                           "inside an overlap callback; do it after carom_world_overlap_point "
                           "returns");
}

typedef struct placed_shape {
    const carom_convex_shape* shape;
    carom_transform xf;
} placed_shape;

static bool shape_overlap_test(const carom_world* world, const carom_shape* shape,
                               const void* query) {
    const placed_shape* q = query;
    carom_transform xf = world->bodies[shape->body].transform;
    carom_manifold m;
    if (q->shape->is_circle && shape->type == CAROM_SHAPE_CIRCLE) {
        m = carom_collide_circles(&q->shape->circle, q->xf, &shape->circle, xf, 0.0);
    } else if (q->shape->is_circle) {
        m = carom_collide_polygon_and_circle(&shape->polygon, xf, &q->shape->circle, q->xf, 0.0);
    } else if (shape->type == CAROM_SHAPE_CIRCLE) {
        m = carom_collide_polygon_and_circle(&q->shape->polygon, q->xf, &shape->circle, xf, 0.0);
    } else {
        m = carom_collide_polygons(&q->shape->polygon, q->xf, &shape->polygon, xf, 0.0);
    }
    for (int i = 0; i < m.point_count; ++i) {
        if (m.points[i].separation < 0.0) {
            return true;
        }
    }
    return false;
}

/* Validate a query shape (circle, polygon, rounded polygon or capsule) and its placement: the
 * shape rebuilt through the constructors into *checked, the rotation normalised into *placed
 * (a zero rotation, as a zeroed carom_transform has, counts as none). */
static carom_status check_query_shape(const carom_convex_shape* shape, carom_transform xf,
                                      carom_convex_shape* checked, carom_transform* placed) {
    if (shape == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "query shape is NULL");
    }
    carom_status status = carom_check_finite_vec2(xf.p.x, xf.p.y, "query shape position");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(xf.q.c, xf.q.s, "query shape rotation");
    }
    *checked = *shape;
    if (status == CAROM_OK && shape->is_circle) {
        status = carom_check_finite_vec2(shape->circle.center.x, shape->circle.center.y,
                                         "query circle center");
        if (status == CAROM_OK) {
            status = carom_check_positive(shape->circle.radius, "query circle radius");
        }
    } else if (status == CAROM_OK && shape->polygon.count == 2) {
        /* a capsule: its two centres and radius */
        carom_capsule capsule = {shape->polygon.vertices[0], shape->polygon.vertices[1],
                                 shape->polygon.radius};
        status = carom_make_capsule_polygon(&capsule, &checked->polygon);
    } else if (status == CAROM_OK) {
        status = carom_make_rounded_polygon(shape->polygon.vertices, shape->polygon.count,
                                            shape->polygon.radius, &checked->polygon);
    }
    placed->p = xf.p;
    placed->q = carom_normalize_rot(xf.q);
    return status;
}

static carom_aabb query_shape_aabb(const carom_convex_shape* shape, carom_transform xf) {
    return shape->is_circle ? carom_compute_circle_aabb(&shape->circle, xf)
                            : carom_compute_polygon_aabb(&shape->polygon, xf);
}

carom_status carom_world_overlap_shape(carom_world_id id, const carom_convex_shape* shape,
                                       carom_transform xf, carom_filter filter,
                                       carom_overlap_callback* callback, void* context) {
    carom_world* world = NULL;
    carom_status status = start_overlap(id, &world, callback);
    carom_convex_shape checked;
    if (status == CAROM_OK) {
        status = check_query_shape(shape, xf, &checked, &xf);
    }
    if (status != CAROM_OK) {
        return status;
    }
    gather(world, query_shape_aabb(&checked, xf), filter, true);
    placed_shape query = {&checked, xf};
    return report_overlaps(world, shape_overlap_test, &query, callback, context,
                           "inside an overlap callback; do it after carom_world_overlap_shape "
                           "returns");
}

/* ---- World shape cast (issue 16) --------------------------------------------------------
 *
 * The query shape is swept along the translation without turning, against every shape the
 * filter sees (sensors passed through, as by rays), by the engine's own time of impact
 * (toi.c): for translation alone it is the exact swept separating-axis test, so a hit's fraction
 * is the touching time, not an approximation. Where the two touch, the manifold of the hit
 * shape against the query shape placed there gives the normal (the hit shape's surface normal,
 * towards the query shape) and the point: the manifold point that touches, or the middle of the
 * two when a face meets a face. */

/* Manifold points whose separations differ by less than this (m) touch together: a face lies
 * on a face, and the point reported is their middle. */
#define FACE_ON_FACE_TOLERANCE 1e-9

/* The manifold of the world's shape (A) against the query shape (B) at xf: normal from A to B. */
static carom_manifold contact_with_query(const carom_shape* shape, carom_transform shape_xf,
                                         const carom_convex_shape* query, carom_transform xf) {
    if (shape->type == CAROM_SHAPE_CIRCLE && query->is_circle) {
        return carom_collide_circles(&shape->circle, shape_xf, &query->circle, xf, INFINITY);
    }
    if (shape->type == CAROM_SHAPE_CIRCLE) {
        carom_manifold m = carom_collide_polygon_and_circle(&query->polygon, xf, &shape->circle,
                                                            shape_xf, INFINITY);
        m.normal = carom_neg(m.normal);
        return m;
    }
    if (query->is_circle) {
        return carom_collide_polygon_and_circle(&shape->polygon, shape_xf, &query->circle, xf,
                                                INFINITY);
    }
    return carom_collide_polygons(&shape->polygon, shape_xf, &query->polygon, xf, INFINITY);
}

/* The point and normal of the query shape touching the world's shape at xf. */
static void touch_point(const carom_world* world, const carom_shape* shape,
                        const carom_convex_shape* query, carom_transform xf,
                        carom_cast_output* out) {
    carom_transform shape_xf = world->bodies[shape->body].transform;
    carom_manifold m = contact_with_query(shape, shape_xf, query, xf);
    out->normal = m.normal;
    if (m.point_count == 0) {
        /* no manifold at all (never seen with an infinite speculative distance): the query
         * shape's placed reference point stands in */
        out->point = xf.p;
        return;
    }
    const carom_manifold_point* p = m.points;
    out->point = p[0].point;
    if (m.point_count == 2) {
        double gap = p[1].separation - p[0].separation;
        if (fabs(gap) < FACE_ON_FACE_TOLERANCE) {
            out->point = carom_lerp(p[0].point, p[1].point, 0.5);
        } else if (gap < 0.0) {
            out->point = p[1].point;
        }
    }
}

/* Every shape the query shape meets on its way, sorted by fraction then shape id, into
 * world->ray_hits (point, normal, fraction). */
static void cast_shape_all(carom_world* world, const carom_convex_shape* query, carom_transform xf,
                           carom_vec2 translation, carom_filter filter) {
    carom_transform end_xf = {carom_add(xf.p, translation), xf.q};
    gather(world, carom_aabb_union(query_shape_aabb(query, xf), query_shape_aabb(query, end_xf)),
           filter, false);
    /* sweeps about the bodies' origins, so that t = 0 places each shape exactly */
    carom_sweep query_sweep = {{0.0, 0.0}, xf.p, end_xf.p, xf.q, 0.0};
    arrsetlen(world->ray_hits, 0);
    for (int i = 0; i < (int)arrlen(world->query_shapes); ++i) {
        int s = world->query_shapes[i];
        const carom_shape* shape = &world->shapes[s];
        carom_transform shape_xf = world->bodies[shape->body].transform;
        carom_sweep standing = {{0.0, 0.0}, shape_xf.p, shape_xf.p, shape_xf.q, 0.0};
        carom_convex_shape geometry = {shape->type == CAROM_SHAPE_CIRCLE, shape->circle,
                                       shape->polygon};
        carom_toi_output toi = carom_time_of_impact(query, &query_sweep, &geometry, &standing, 0.0);
        if (toi.state == CAROM_TOI_SEPARATED) {
            continue;
        }
        ray_hit hit = {s, {{0.0, 0.0}, {0.0, 0.0}, toi.t, 1}};
        carom_transform at = {carom_mul_add(xf.p, toi.t, translation), xf.q};
        touch_point(world, shape, query, at, &hit.output);
        arrput(world->ray_hits, hit);
    }
    if (arrlen(world->ray_hits) > 1) {
        qsort(world->ray_hits, (size_t)arrlen(world->ray_hits), sizeof(ray_hit), compare_hits);
    }
}

static carom_status start_shape_cast(carom_world_id id, carom_world** world,
                                     const carom_convex_shape* shape, carom_transform xf,
                                     carom_vec2 translation, carom_convex_shape* checked,
                                     carom_transform* placed) {
    carom_status status = check_query_world(id, world, "cast a shape");
    if (status == CAROM_OK) {
        status = check_query_shape(shape, xf, checked, placed);
    }
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(translation.x, translation.y, "shape cast translation");
    }
    return status;
}

carom_ray_result carom_world_cast_shape_closest(carom_world_id id, const carom_convex_shape* shape,
                                                carom_transform xf, carom_vec2 translation,
                                                carom_filter filter) {
    carom_ray_result none = {carom_null_shape_id, {0.0, 0.0}, {0.0, 0.0}, 1.0, 0};
    carom_world* world = NULL;
    carom_convex_shape checked;
    if (start_shape_cast(id, &world, shape, xf, translation, &checked, &xf) != CAROM_OK) {
        return none;
    }
    cast_shape_all(world, &checked, xf, translation, filter);
    return first_hit(world);
}

carom_status carom_world_cast_shape(carom_world_id id, const carom_convex_shape* shape,
                                    carom_transform xf, carom_vec2 translation,
                                    carom_filter filter, carom_ray_callback* callback,
                                    void* context) {
    carom_world* world = NULL;
    carom_convex_shape checked;
    carom_status status = start_shape_cast(id, &world, shape, xf, translation, &checked, &xf);
    if (status == CAROM_OK && callback == NULL) {
        status = carom_fail(CAROM_ERROR_NULL_ARGUMENT, "shape cast callback is NULL");
    }
    if (status != CAROM_OK) {
        return status;
    }
    cast_shape_all(world, &checked, xf, translation, filter);
    report_hits(world, callback, context,
                "inside a shape-cast callback; do it after carom_world_cast_shape returns");
    return CAROM_OK;
}
