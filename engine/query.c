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

carom_ray_result carom_world_cast_ray_closest(carom_world_id id, carom_vec2 origin,
                                              carom_vec2 translation, carom_filter filter) {
    carom_ray_result result = {carom_null_shape_id, {0.0, 0.0}, {0.0, 0.0}, 1.0, 0};
    carom_world* world = NULL;
    if (check_query_world(id, &world, "cast a ray") != CAROM_OK ||
        check_ray(origin, translation) != CAROM_OK) {
        return result;
    }
    cast_all(world, origin, translation, filter);
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
    carom_lock_world(world, "inside a ray-cast callback; do it after carom_world_cast_ray returns");
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

carom_status carom_world_overlap_shape(carom_world_id id, const carom_convex_shape* shape,
                                       carom_transform xf, carom_filter filter,
                                       carom_overlap_callback* callback, void* context) {
    carom_world* world = NULL;
    carom_status status = start_overlap(id, &world, callback);
    if (status == CAROM_OK && shape == NULL) {
        status = carom_fail(CAROM_ERROR_NULL_ARGUMENT, "query shape is NULL");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(xf.p.x, xf.p.y, "query shape position");
    }
    carom_convex_shape checked;
    if (status == CAROM_OK && shape->is_circle) {
        checked = *shape;
        status = carom_check_positive(shape->circle.radius, "query circle radius");
    } else if (status == CAROM_OK) {
        checked = *shape;
        status = carom_make_polygon(shape->polygon.vertices, shape->polygon.count,
                                    &checked.polygon);
    }
    if (status != CAROM_OK) {
        return status;
    }
    xf.q = carom_normalize_rot(xf.q);
    carom_aabb box = checked.is_circle ? carom_compute_circle_aabb(&checked.circle, xf)
                                       : carom_compute_polygon_aabb(&checked.polygon, xf);
    gather(world, box, filter, true);
    placed_shape query = {&checked, xf};
    return report_overlaps(world, shape_overlap_test, &query, callback, context,
                           "inside an overlap callback; do it after carom_world_overlap_shape "
                           "returns");
}
