/* Shape geometry: convex hulls with validation, boxes, mass properties and bounding boxes.
 *
 * carom_make_polygon() is where user geometry is checked, so that the narrow phase and the solver
 * can assume a proper convex polygon: counter-clockwise, no two vertices closer than
 * CAROM_POLYGON_WELD_TOLERANCE, no vertex within that tolerance of the line through its
 * neighbours, and positive area. Rather than silently dropping bad vertices (as a hull builder
 * would), each problem is refused with a message naming the vertex, because a polygon that is
 * not what the user drew is a bug waiting in their scene. */
#include "core.h"

#include "carom/collision.h"
#include "sat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static carom_status check_points(const carom_vec2* points, int count) {
    if (points == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "polygon points pointer is NULL");
    }
    if (count > CAROM_MAX_POLYGON_VERTICES) {
        return carom_fail(CAROM_ERROR_TOO_MANY_VERTICES,
                          "polygon has %d vertices: at most %d are supported; split it into "
                          "convex pieces",
                          count, CAROM_MAX_POLYGON_VERTICES);
    }
    if (count < 3) {
        return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                          "polygon has %d vertices: it needs at least 3", count);
    }
    carom_status status = carom_check_polygon_points_finite(points, count);
    if (status != CAROM_OK) {
        return status;
    }
    const double tolerance_squared = CAROM_POLYGON_WELD_TOLERANCE * CAROM_POLYGON_WELD_TOLERANCE;
    for (int i = 0; i < count; ++i) {
        for (int j = i + 1; j < count; ++j) {
            if (carom_distance_squared(points[i], points[j]) < tolerance_squared) {
                return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                                  "polygon vertices %d and %d are the same point (%g, %g): remove "
                                  "the duplicate",
                                  i, j, points[i].x, points[i].y);
            }
        }
    }
    return CAROM_OK;
}

/* Gift wrapping: the indices of the convex hull, counter-clockwise, starting from the lowest-x
 * (then lowest-y) point. Exactly collinear points on a hull edge are skipped in favour of the
 * farthest one, so they show up as "not on the hull" and are reported. Returns the hull size. */
static int gift_wrap(const carom_vec2* points, int count, int* hull) {
    int start = 0;
    for (int i = 1; i < count; ++i) {
        if (points[i].x < points[start].x ||
            (points[i].x == points[start].x && points[i].y < points[start].y)) {
            start = i;
        }
    }
    int hull_count = 0;
    int current = start;
    do {
        hull[hull_count++] = current;
        int candidate = current == 0 ? 1 : 0;
        for (int j = 0; j < count; ++j) {
            if (j == current || j == candidate) {
                continue;
            }
            carom_vec2 edge = carom_sub(points[candidate], points[current]);
            double side = carom_cross(edge, carom_sub(points[j], points[current]));
            if (side < 0.0 || (side == 0.0 && carom_distance_squared(points[current], points[j]) >
                                                  carom_distance_squared(points[current],
                                                                         points[candidate]))) {
                candidate = j;
            }
        }
        current = candidate;
    } while (current != start && hull_count < count);
    return hull_count;
}

/* Distance of p from the line through a and b (a != b). */
static double distance_to_line(carom_vec2 p, carom_vec2 a, carom_vec2 b) {
    carom_vec2 direction = carom_normalize(carom_sub(b, a));
    return fabs(carom_cross(direction, carom_sub(p, a)));
}

/* Explain why input point `index` is not a vertex of the hull. */
static carom_status report_off_hull_point(const carom_vec2* points, int index, const int* hull,
                                          int hull_count) {
    carom_vec2 p = points[index];
    for (int i = 0; i < hull_count; ++i) {
        carom_vec2 a = points[hull[i]];
        carom_vec2 b = points[hull[(i + 1) % hull_count]];
        if (distance_to_line(p, a, b) <= CAROM_POLYGON_WELD_TOLERANCE) {
            return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                              "polygon vertex %d (%g, %g) is collinear with vertices %d and %d: "
                              "remove it",
                              index, p.x, p.y, hull[i], hull[(i + 1) % hull_count]);
        }
    }
    return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                      "polygon vertex %d (%g, %g) lies inside the other vertices: the polygon is "
                      "not convex; split it into convex pieces",
                      index, p.x, p.y);
}

static carom_vec2 polygon_centroid(const carom_vec2* vertices, int count) {
    carom_vec2 origin = vertices[0];
    carom_vec2 center = {0.0, 0.0};
    double area = 0.0;
    for (int i = 1; i < count - 1; ++i) {
        carom_vec2 e1 = carom_sub(vertices[i], origin);
        carom_vec2 e2 = carom_sub(vertices[i + 1], origin);
        double triangle_area = 0.5 * carom_cross(e1, e2);
        center = carom_mul_add(center, triangle_area / 3.0, carom_add(e1, e2));
        area += triangle_area;
    }
    return carom_add(origin, carom_scale(1.0 / area, center));
}

static void fill_polygon(const carom_vec2* vertices, int count, carom_polygon* out) {
    memset(out, 0, sizeof(*out));
    out->count = count;
    for (int i = 0; i < count; ++i) {
        out->vertices[i] = vertices[i];
    }
    for (int i = 0; i < count; ++i) {
        carom_vec2 edge = carom_sub(vertices[(i + 1) % count], vertices[i]);
        out->normals[i] = carom_normalize(carom_right_perp(edge));
    }
    out->centroid = count >= 3 ? polygon_centroid(vertices, count)
                               : carom_lerp(vertices[0], vertices[1], 0.5);
}

carom_status carom_make_polygon(const carom_vec2* points, int count, carom_polygon* out) {
    carom_status status = check_points(points, count);
    if (status != CAROM_OK) {
        return status;
    }
    if (out == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "polygon output pointer is NULL");
    }
    int hull[CAROM_MAX_POLYGON_VERTICES];
    int hull_count = gift_wrap(points, count, hull);
    bool on_hull[CAROM_MAX_POLYGON_VERTICES] = {false};
    for (int i = 0; i < hull_count; ++i) {
        on_hull[hull[i]] = true;
    }
    for (int i = 0; i < count; ++i) {
        if (!on_hull[i]) {
            return report_off_hull_point(points, i, hull, hull_count);
        }
    }
    /* Near-collinear hull vertices: within tolerance of the line through their neighbours. */
    for (int i = 0; i < hull_count; ++i) {
        carom_vec2 previous = points[hull[(i + hull_count - 1) % hull_count]];
        carom_vec2 next = points[hull[(i + 1) % hull_count]];
        carom_vec2 vertex = points[hull[i]];
        if (carom_cross(carom_sub(vertex, previous), carom_sub(next, vertex)) <= 0.0) {
            return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                              "polygon vertex %d (%g, %g) makes a reflex angle: the polygon is not "
                              "convex; split it into convex pieces",
                              hull[i], vertex.x, vertex.y);
        }
        if (distance_to_line(vertex, previous, next) <= CAROM_POLYGON_WELD_TOLERANCE) {
            return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                              "polygon vertex %d (%g, %g) is collinear with its neighbours: "
                              "remove it",
                              hull[i], points[hull[i]].x, points[hull[i]].y);
        }
    }
    /* Start the counter-clockwise hull at input vertex 0, so counter-clockwise input comes back
     * in its own order. */
    int first = 0;
    while (hull[first] != 0) {
        ++first;
    }
    carom_vec2 vertices[CAROM_MAX_POLYGON_VERTICES];
    for (int i = 0; i < hull_count; ++i) {
        vertices[i] = points[hull[(first + i) % hull_count]];
    }
    fill_polygon(vertices, hull_count, out);
    return CAROM_OK;
}

/* A box's half extent: positive, and at least CAROM_MIN_BOX_HALF_EXTENT, so that the box's
 * shortest edge is no shorter than a polygon's and its mass and inertia stay normal numbers (a
 * box of 1e-149 m had an area that underflowed, an infinite inverse mass, and a NaN center). */
static carom_status check_half_extent(double half_extent, const char* what) {
    carom_status status = carom_check_positive(half_extent, what);
    if (status == CAROM_OK && half_extent < CAROM_MIN_BOX_HALF_EXTENT) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "%s is %g m: it must be at least %g m (CAROM_MIN_BOX_HALF_EXTENT), "
                            "which makes the shortest edge as long as a polygon's shortest",
                            what, half_extent, CAROM_MIN_BOX_HALF_EXTENT);
    }
    return status;
}

carom_status carom_make_box(double half_width, double half_height, carom_vec2 center,
                            double angle, carom_polygon* out) {
    carom_status status = check_half_extent(half_width, "box half width");
    if (status == CAROM_OK) {
        status = check_half_extent(half_height, "box half height");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(center.x, center.y, "box center");
    }
    if (status == CAROM_OK) {
        status = carom_check_finite(angle, "box angle");
    }
    if (status == CAROM_OK && out == NULL) {
        status = carom_fail(CAROM_ERROR_NULL_ARGUMENT, "box output pointer is NULL");
    }
    if (status != CAROM_OK) {
        return status;
    }
    carom_transform xf = {center, carom_make_rot(angle)};
    carom_vec2 corners[4] = {{-half_width, -half_height},
                             {half_width, -half_height},
                             {half_width, half_height},
                             {-half_width, half_height}};
    for (int i = 0; i < 4; ++i) {
        corners[i] = carom_transform_point(xf, corners[i]);
    }
    fill_polygon(corners, 4, out);
    out->centroid = center;
    return CAROM_OK;
}

carom_polygon carom_make_segment_polygon(const carom_segment* segment) {
    carom_polygon polygon;
    carom_vec2 points[2] = {segment->point1, segment->point2};
    fill_polygon(points, 2, &polygon);
    return polygon;
}

/* ---- Rounded polygons and capsules ---------------------------------------------------------- */

carom_status carom_check_rounding_radius(double radius, const char* what) {
    carom_status status = carom_check_finite(radius, what);
    if (status == CAROM_OK && radius != 0.0 && !(radius >= CAROM_MIN_RADIUS)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "%s is %g m: it must be 0 (sharp corners) or at least %g m "
                            "(CAROM_MIN_RADIUS)",
                            what, radius, CAROM_MIN_RADIUS);
    }
    return status;
}

carom_status carom_make_rounded_polygon(const carom_vec2* points, int count, double radius,
                                        carom_polygon* out) {
    carom_status status = carom_check_rounding_radius(radius, "polygon radius");
    carom_polygon polygon;
    if (status == CAROM_OK) {
        status = carom_make_polygon(points, count, &polygon);
    }
    if (status == CAROM_OK) {
        polygon.radius = radius;
        *out = polygon; /* out was checked by carom_make_polygon */
    }
    return status;
}

carom_status carom_make_rounded_box(double half_width, double half_height, carom_vec2 center,
                                    double angle, double radius, carom_polygon* out) {
    carom_status status = carom_check_rounding_radius(radius, "box radius");
    carom_polygon box;
    if (status == CAROM_OK) {
        status = carom_make_box(half_width, half_height, center, angle, &box);
    }
    if (status == CAROM_OK) {
        box.radius = radius;
        *out = box;
    }
    return status;
}

carom_status carom_make_capsule_polygon(const carom_capsule* capsule, carom_polygon* out) {
    if (capsule == NULL || out == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "capsule %s pointer is NULL",
                          capsule == NULL ? "input" : "output");
    }
    carom_status status =
        carom_check_finite_vec2(capsule->center1.x, capsule->center1.y, "capsule center1");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(capsule->center2.x, capsule->center2.y,
                                         "capsule center2");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(capsule->radius, "capsule radius");
    }
    if (status != CAROM_OK) {
        return status;
    }
    if (capsule->radius < CAROM_MIN_RADIUS) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "capsule radius is %g m: it must be at least %g m (CAROM_MIN_RADIUS)",
                          capsule->radius, CAROM_MIN_RADIUS);
    }
    if (carom_distance(capsule->center1, capsule->center2) < CAROM_POLYGON_WELD_TOLERANCE) {
        return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                          "capsule centers (%g, %g) and (%g, %g) are closer than %g m: that "
                          "capsule is a circle; use a circle shape",
                          capsule->center1.x, capsule->center1.y, capsule->center2.x,
                          capsule->center2.y, CAROM_POLYGON_WELD_TOLERANCE);
    }
    carom_vec2 points[2] = {capsule->center1, capsule->center2};
    fill_polygon(points, 2, out);
    out->radius = capsule->radius;
    return CAROM_OK;
}

double carom_polygon_point_distance(const carom_polygon* polygon, carom_vec2 point) {
    bool inside = polygon->count >= 3;
    double best = INFINITY;
    for (int i = 0; i < polygon->count; ++i) {
        carom_vec2 v1 = polygon->vertices[i];
        carom_vec2 v2 = polygon->vertices[(i + 1) % polygon->count];
        if (carom_dot(polygon->normals[i], carom_sub(point, v1)) > 0.0) {
            inside = false;
        }
        carom_vec2 edge = carom_sub(v2, v1);
        double t = carom_dot(carom_sub(point, v1), edge) / carom_dot(edge, edge);
        t = carom_min_d(1.0, carom_max_d(0.0, t));
        best = carom_min_d(best, carom_distance(point, carom_mul_add(v1, t, edge)));
    }
    return inside ? 0.0 : best;
}

carom_mass_data carom_compute_circle_mass(const carom_circle* circle, double density) {
    double r_squared = circle->radius * circle->radius;
    carom_mass_data data;
    data.mass = density * CAROM_PI * r_squared;
    data.center = circle->center;
    data.rotational_inertia = 0.5 * data.mass * r_squared;
    return data;
}

/* A rounded polygon's exact area integrals about its core's centroid o: the core, a rectangle of
 * width radius outside each edge, and a disc sector at each vertex between its two edges'
 * normals (the sectors make up one whole disc). For each piece: area A, first moment S (the
 * integral of x - o) and polar second moment J (the integral of |x - o|^2). */
static carom_mass_data rounded_polygon_mass(const carom_polygon* polygon, double density) {
    double r = polygon->radius;
    int count = polygon->count;
    carom_vec2 o = polygon->centroid;
    double area = 0.0;
    carom_vec2 first = {0.0, 0.0};
    double second = 0.0;
    if (count >= 3) {
        carom_polygon core = *polygon;
        core.radius = 0.0;
        carom_mass_data sharp = carom_compute_polygon_mass(&core, 1.0);
        carom_vec2 c = carom_sub(sharp.center, o);
        area = sharp.mass;
        first = carom_scale(area, c);
        second = sharp.rotational_inertia + area * carom_dot(c, c);
    }
    for (int i = 0; i < count; ++i) {
        carom_vec2 v1 = carom_sub(polygon->vertices[i], o);
        carom_vec2 v2 = carom_sub(polygon->vertices[(i + 1) % count], o);
        carom_vec2 n = polygon->normals[i];
        /* the edge's strip: L by r, its centre r / 2 out from the edge's midpoint */
        double length = carom_distance(v1, v2);
        double strip = length * r;
        carom_vec2 strip_center = carom_mul_add(carom_lerp(v1, v2, 0.5), 0.5 * r, n);
        area += strip;
        first = carom_mul_add(first, strip, strip_center);
        second += strip * (length * length + r * r) / 12.0 +
                  strip * carom_dot(strip_center, strip_center);
        /* the sector at v1, from the previous edge's normal to this one's (angle in (0, pi]):
         * about its apex, first moment r^3 / 3 * right_perp(n - previous) and second moment
         * angle r^4 / 4 */
        carom_vec2 previous = polygon->normals[(i + count - 1) % count];
        double angle = carom_atan2(fabs(carom_cross(previous, n)), carom_dot(previous, n));
        double sector = 0.5 * angle * r * r;
        carom_vec2 moment = carom_scale(r * r * r / 3.0, carom_right_perp(carom_sub(n, previous)));
        area += sector;
        first = carom_add(first, carom_mul_add(moment, sector, v1));
        second += 0.25 * angle * r * r * r * r + 2.0 * carom_dot(v1, moment) +
                  sector * carom_dot(v1, v1);
    }
    carom_vec2 center = carom_scale(1.0 / area, first);
    carom_mass_data data;
    data.mass = density * area;
    data.center = carom_add(o, center);
    data.rotational_inertia = density * (second - area * carom_dot(center, center));
    return data;
}

carom_mass_data carom_compute_polygon_mass(const carom_polygon* polygon, double density) {
    if (polygon->radius > 0.0) {
        return rounded_polygon_mass(polygon, density);
    }
    carom_mass_data data = {0.0, polygon->centroid, 0.0};
    if (polygon->count < 3) {
        return data;
    }
    /* Fan of triangles from vertex 0; integrals relative to it keep precision far from the
     * origin. */
    carom_vec2 origin = polygon->vertices[0];
    double area = 0.0;
    double inertia = 0.0;
    carom_vec2 center = {0.0, 0.0};
    for (int i = 1; i < polygon->count - 1; ++i) {
        carom_vec2 e1 = carom_sub(polygon->vertices[i], origin);
        carom_vec2 e2 = carom_sub(polygon->vertices[i + 1], origin);
        double d = carom_cross(e1, e2);
        double triangle_area = 0.5 * d;
        area += triangle_area;
        center = carom_mul_add(center, triangle_area / 3.0, carom_add(e1, e2));
        double int_x2 = e1.x * e1.x + e2.x * e1.x + e2.x * e2.x;
        double int_y2 = e1.y * e1.y + e2.y * e1.y + e2.y * e2.y;
        inertia += (0.25 / 3.0 * d) * (int_x2 + int_y2);
    }
    center = carom_scale(1.0 / area, center);
    data.mass = density * area;
    data.center = carom_add(origin, center);
    /* inertia is about `origin`; move it to the center of mass */
    data.rotational_inertia = density * inertia - data.mass * carom_dot(center, center);
    return data;
}

carom_aabb carom_compute_circle_aabb(const carom_circle* circle, carom_transform xf) {
    carom_vec2 p = carom_transform_point(xf, circle->center);
    carom_vec2 r = {circle->radius, circle->radius};
    carom_aabb box = {carom_sub(p, r), carom_add(p, r)};
    return box;
}

/* Inlined with the vertex count a constant where it is known (boxes), to unroll the loop. */
static CAROM_FORCE_INLINE carom_aabb polygon_aabb(const carom_polygon* polygon, int count,
                                                  carom_transform xf) {
    carom_vec2 lower = carom_transform_point(xf, polygon->vertices[0]);
    carom_vec2 upper = lower;
    for (int i = 1; i < count; ++i) {
        carom_vec2 v = carom_transform_point(xf, polygon->vertices[i]);
        lower = carom_min_v(lower, v);
        upper = carom_max_v(upper, v);
    }
    carom_aabb box = {lower, upper};
    return box;
}

carom_aabb carom_compute_polygon_aabb(const carom_polygon* polygon, carom_transform xf) {
    if (polygon->radius > 0.0) {
        carom_aabb core = polygon_aabb(polygon, polygon->count, xf);
        carom_vec2 r = {polygon->radius, polygon->radius};
        carom_aabb box = {carom_sub(core.lower, r), carom_add(core.upper, r)};
        return box;
    }
    if (polygon->count == 4) {
        return polygon_aabb(polygon, 4, xf);
    }
    return polygon_aabb(polygon, polygon->count, xf);
}

carom_aabb carom_compute_segment_aabb(const carom_segment* segment, carom_transform xf) {
    carom_vec2 a = carom_transform_point(xf, segment->point1);
    carom_vec2 b = carom_transform_point(xf, segment->point2);
    carom_aabb box = {carom_min_v(a, b), carom_max_v(a, b)};
    return box;
}

/* ---- Ray casts: in the shape's frame, results back in the world's. ------------------------ */

static carom_cast_output no_hit(void) {
    carom_cast_output out = {{0.0, 0.0}, {0.0, 0.0}, 0.0, 0};
    return out;
}

carom_cast_output carom_ray_cast_circle(const carom_ray_input* ray, const carom_circle* circle,
                                        carom_transform xf) {
    carom_vec2 center = carom_transform_point(xf, circle->center);
    carom_vec2 m = carom_sub(ray->origin, center);
    carom_vec2 d = ray->translation;
    double a = carom_dot(d, d);
    double b = carom_dot(m, d);
    double c = carom_dot(m, m) - circle->radius * circle->radius;
    double discriminant = b * b - a * c;
    if (a == 0.0 || c < 0.0 || b > 0.0 || discriminant < 0.0) {
        return no_hit(); /* degenerate ray, origin inside, heading away, or passing by */
    }
    double t = (-b - sqrt(discriminant)) / a;
    if (t < 0.0 || t > ray->max_fraction) {
        return no_hit();
    }
    carom_cast_output out;
    out.fraction = t;
    out.point = carom_mul_add(ray->origin, t, d);
    out.normal = carom_normalize(carom_sub(out.point, center));
    out.hit = 1;
    return out;
}

/* A segment from v1 to v2 (local frame), hit from either side. */
static carom_cast_output ray_cast_segment(carom_vec2 p, carom_vec2 d, double max_fraction,
                                          carom_vec2 v1, carom_vec2 v2) {
    carom_vec2 e = carom_sub(v2, v1);
    double denominator = carom_cross(d, e);
    if (denominator == 0.0) {
        return no_hit(); /* parallel */
    }
    carom_vec2 w = carom_sub(v1, p);
    double t = carom_cross(w, e) / denominator;
    double s = carom_cross(w, d) / denominator;
    if (t < 0.0 || t > max_fraction || s < 0.0 || s > 1.0) {
        return no_hit();
    }
    carom_cast_output out;
    out.fraction = t;
    out.point = carom_mul_add(p, t, d);
    carom_vec2 normal = carom_normalize(carom_right_perp(e));
    out.normal = carom_dot(normal, d) > 0.0 ? carom_neg(normal) : normal;
    out.hit = 1;
    return out;
}

/* A ray (local frame) against a rounded polygon: the first of its faces moved out by the radius
 * (entered from outside only) and the discs at its vertices. A ray from inside hits nothing. */
static carom_cast_output ray_cast_rounded(carom_vec2 p, carom_vec2 d, double max_fraction,
                                          const carom_polygon* polygon) {
    double r = polygon->radius;
    if (carom_polygon_point_distance(polygon, p) <= r) {
        return no_hit();
    }
    carom_cast_output best = no_hit();
    best.fraction = INFINITY;
    for (int i = 0; i < polygon->count; ++i) {
        carom_vec2 n = polygon->normals[i];
        carom_vec2 v1 = polygon->vertices[i];
        carom_vec2 v2 = polygon->vertices[(i + 1) % polygon->count];
        if (carom_dot(n, d) < 0.0) {
            carom_cast_output face =
                ray_cast_segment(p, d, max_fraction, carom_mul_add(v1, r, n), carom_mul_add(v2, r, n));
            if (face.hit && face.fraction < best.fraction) {
                best = face;
                best.normal = n;
            }
        }
        carom_ray_input local = {p, d, max_fraction};
        carom_circle corner = {v1, r};
        carom_cast_output arc = carom_ray_cast_circle(&local, &corner, carom_transform_identity());
        if (arc.hit && arc.fraction < best.fraction) {
            best = arc;
        }
    }
    return best.hit ? best : no_hit();
}

carom_cast_output carom_ray_cast_polygon(const carom_ray_input* ray, const carom_polygon* polygon,
                                         carom_transform xf) {
    carom_vec2 p = carom_inv_transform_point(xf, ray->origin);
    carom_vec2 d = carom_inv_rotate(xf.q, ray->translation);
    carom_cast_output out;
    if (polygon->radius > 0.0) {
        out = ray_cast_rounded(p, d, ray->max_fraction, polygon);
    } else if (polygon->count == 2) {
        out = ray_cast_segment(p, d, ray->max_fraction, polygon->vertices[0], polygon->vertices[1]);
    } else {
        /* Cyrus-Beck: clip the ray against every face's half plane */
        double lower = 0.0, upper = ray->max_fraction;
        int face = -1;
        for (int i = 0; i < polygon->count; ++i) {
            double numerator = carom_dot(polygon->normals[i], carom_sub(polygon->vertices[i], p));
            double denominator = carom_dot(polygon->normals[i], d);
            if (denominator == 0.0) {
                if (numerator < 0.0) {
                    return no_hit(); /* parallel and outside this face */
                }
            } else if (denominator < 0.0 && numerator < lower * denominator) {
                lower = numerator / denominator; /* entering */
                face = i;
            } else if (denominator > 0.0 && numerator < upper * denominator) {
                upper = numerator / denominator; /* leaving */
            }
            if (upper < lower) {
                return no_hit();
            }
        }
        if (face < 0) {
            return no_hit(); /* the origin is inside */
        }
        out.fraction = lower;
        out.point = carom_mul_add(p, lower, d);
        out.normal = polygon->normals[face];
        out.hit = 1;
    }
    if (out.hit) {
        out.point = carom_transform_point(xf, out.point);
        out.normal = carom_rotate(xf.q, out.normal);
    }
    return out;
}
