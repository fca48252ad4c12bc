/* Shape casts, overlap queries, explosions and shape geometry for Python (issue 16): the query
 * shape built from plain numbers, so that Python need not mirror carom_convex_shape or
 * carom_polygon. */
#include "carompy.h"

#include <string.h>

/* The query shape of kind 0 (circle: points[0..1] its centre), 1 (polygon: point_count
 * vertices, through carom_make_rounded_polygon and its refusals) or 2 (capsule: two centres,
 * checked by carom_world_cast_shape), rounded by radius. points: point_count (x, y) pairs, the
 * layout of carom_vec2. */
static carom_status make_query_shape(int kind, const double* points, int point_count,
                                     double radius, carom_convex_shape* out) {
    memset(out, 0, sizeof *out);
    if (kind == 0) {
        out->is_circle = 1;
        out->circle.center = carom_v2(points[0], points[1]);
        out->circle.radius = radius;
        return CAROM_OK;
    }
    if (kind == 1) {
        return carom_make_rounded_polygon((const carom_vec2*)points, point_count, radius,
                                          &out->polygon);
    }
    out->polygon.count = 2;
    out->polygon.vertices[0] = carom_v2(points[0], points[1]);
    out->polygon.vertices[1] = carom_v2(points[2], points[3]);
    out->polygon.radius = radius;
    return CAROM_OK;
}

carom_status carompy_cast_shape(carom_world_id world, int kind, const double* points,
                                int point_count, double radius, double x, double y, double angle,
                                carom_vec2 translation, carom_filter filter, int all,
                                carom_ray_result* results, int capacity, int* count) {
    *count = 0;
    carom_convex_shape shape;
    carom_status status = make_query_shape(kind, points, point_count, radius, &shape);
    if (status != CAROM_OK) {
        return status;
    }
    carom_transform xf = {{x, y}, carom_make_rot(angle)};
    carompy_hit_collector collector = {results, capacity, 0, all};
    status = carom_world_cast_shape(world, &shape, xf, translation, filter, carompy_collect_hit,
                                    &collector);
    *count = collector.count;
    return status;
}

/* Collects overlap query hits: every id counted, the first capacity kept. */
typedef struct shape_collector {
    carom_shape_id* shapes;
    int capacity;
    int count;
} shape_collector;

static int collect_shape(carom_shape_id shape, void* context) {
    shape_collector* collector = context;
    if (collector->count < collector->capacity) {
        collector->shapes[collector->count] = shape;
    }
    collector->count += 1;
    return 1;
}

carom_status carompy_overlap_shape(carom_world_id world, int kind, const double* points,
                                   int point_count, double radius, double x, double y,
                                   double angle, carom_filter filter, carom_shape_id* shapes,
                                   int capacity, int* count) {
    *count = 0;
    carom_convex_shape shape;
    carom_status status = make_query_shape(kind, points, point_count, radius, &shape);
    if (status != CAROM_OK) {
        return status;
    }
    carom_transform xf = {{x, y}, carom_make_rot(angle)};
    shape_collector collector = {shapes, capacity, 0};
    status = carom_world_overlap_shape(world, &shape, xf, filter, collect_shape, &collector);
    *count = collector.count;
    return status;
}

carom_status carompy_overlap_aabb(carom_world_id world, carom_vec2 lower, carom_vec2 upper,
                                  carom_filter filter, carom_shape_id* shapes, int capacity,
                                  int* count) {
    carom_aabb box = {lower, upper};
    shape_collector collector = {shapes, capacity, 0};
    carom_status status = carom_world_overlap_aabb(world, box, filter, collect_shape, &collector);
    *count = collector.count;
    return status;
}

carom_status carompy_overlap_point(carom_world_id world, carom_vec2 point, carom_filter filter,
                                   carom_shape_id* shapes, int capacity, int* count) {
    shape_collector collector = {shapes, capacity, 0};
    carom_status status =
        carom_world_overlap_point(world, point, filter, collect_shape, &collector);
    *count = collector.count;
    return status;
}

carom_status carompy_explode(carom_world_id world, double x, double y, double radius,
                             double falloff, double impulse_per_length, uint64_t mask) {
    carom_explosion_def def = carom_default_explosion_def();
    def.position = carom_v2(x, y);
    def.radius = radius;
    def.falloff = falloff;
    def.impulse_per_length = impulse_per_length;
    def.mask = mask;
    return carom_world_explode(world, &def);
}

static void put_point(double* numbers, int* count, carom_vec2 p) {
    numbers[2 * *count] = p.x;
    numbers[2 * *count + 1] = p.y;
    *count += 1;
}

carom_status carompy_shape_geometry(carom_shape_id shape, double* points, int* point_count,
                                    double* radius, int* flags) {
    *point_count = 0;
    *radius = 0.0;
    *flags = 0;
    carom_shape_type type = carom_shape_get_type(shape);
    if (!carom_shape_is_valid(shape)) {
        return carom_last_status();
    }
    carom_status status = CAROM_OK;
    if (type == CAROM_SHAPE_CIRCLE) {
        carom_circle c;
        status = carom_shape_get_circle(shape, &c);
        put_point(points, point_count, c.center);
        *radius = c.radius;
    } else if (type == CAROM_SHAPE_POLYGON) {
        carom_polygon p;
        status = carom_shape_get_polygon(shape, &p);
        for (int i = 0; status == CAROM_OK && i < p.count; ++i) {
            put_point(points, point_count, p.vertices[i]);
        }
        *radius = p.radius;
    } else if (type == CAROM_SHAPE_CAPSULE) {
        carom_capsule c;
        status = carom_shape_get_capsule(shape, &c);
        put_point(points, point_count, c.center1);
        put_point(points, point_count, c.center2);
        *radius = c.radius;
    } else if (type == CAROM_SHAPE_SEGMENT) {
        carom_segment s;
        status = carom_shape_get_segment(shape, &s);
        put_point(points, point_count, s.point1);
        put_point(points, point_count, s.point2);
    } else {
        carom_chain_segment c;
        status = carom_shape_get_chain_segment(shape, &c);
        put_point(points, point_count, c.ghost1);
        put_point(points, point_count, c.point1);
        put_point(points, point_count, c.point2);
        put_point(points, point_count, c.ghost2);
        *flags = (c.has_ghost1 ? 1 : 0) | (c.has_ghost2 ? 2 : 0) | (c.one_sided ? 4 : 0);
    }
    return status;
}
