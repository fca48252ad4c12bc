/* Separating-axis tests between shapes, producing contact manifolds.
 *
 * All three tests work in shape A's frame: B is brought into it by inverse(xfA) * xfB, and the
 * results are turned back into world coordinates at the end. That keeps the arithmetic near the
 * origin, where doubles are densest, however far the pair is from the world origin.
 *
 * Polygons: for every face normal of A, the separation is how far B's deepest vertex lies above
 * that face; likewise B's faces against A. The largest separation over all faces is the
 * separating axis if positive, and the axis of least penetration (the minimum translation
 * distance) if not. Its face is the reference face; the incident face is the other polygon's
 * face most opposed to it; clipping the incident edge to the reference face's side planes gives
 * up to two points (Gregorius, GDC 2013; Ericson, Real-Time Collision Detection, ch. 5). A point
 * is kept while its separation is within the speculative distance, so the solver can stop
 * approaching bodies before they overlap. A segment is a polygon of two vertices whose two faces
 * point opposite ways, so it needs no code of its own.
 *
 * Feature ids: (flip << 24) | (reference edge << 16) | (incident edge << 8) | clip end.
 * The same id on the next step means the same pair of features, so the solver can reuse the
 * point's accumulated impulse (warm starting). */
#include "core.h"

#include "sat.h"

#include <float.h>

static carom_manifold empty_manifold(void) {
    carom_manifold manifold = {{0.0, 0.0}, {{{0.0, 0.0}, 0.0, 0}, {{0.0, 0.0}, 0.0, 0}}, 0};
    return manifold;
}

/* Move a manifold computed in A's frame into the world frame. */
static void manifold_to_world(carom_manifold* manifold, carom_transform xfa) {
    manifold->normal = carom_rotate(xfa.q, manifold->normal);
    for (int i = 0; i < manifold->point_count; ++i) {
        manifold->points[i].point = carom_transform_point(xfa, manifold->points[i].point);
    }
}

carom_manifold carom_collide_circles(const carom_circle* a, carom_transform xfa,
                                     const carom_circle* b, carom_transform xfb,
                                     double speculative_distance) {
    carom_manifold manifold = empty_manifold();
    carom_transform xf = carom_inv_mul_transforms(xfa, xfb);
    carom_vec2 center_a = a->center;
    carom_vec2 center_b = carom_transform_point(xf, b->center);
    carom_vec2 offset = carom_sub(center_b, center_a);
    double distance = carom_length(offset);
    double separation = distance - a->radius - b->radius;
    if (separation > speculative_distance) {
        return manifold;
    }
    /* Coincident centers have no preferred axis; +x is an arbitrary but fixed choice. */
    carom_vec2 normal = distance > 0.0 ? carom_scale(1.0 / distance, offset) : carom_v2(1.0, 0.0);
    carom_vec2 surface_a = carom_mul_add(center_a, a->radius, normal);
    carom_vec2 surface_b = carom_mul_sub(center_b, b->radius, normal);
    manifold.normal = normal;
    manifold.points[0].point = carom_lerp(surface_a, surface_b, 0.5);
    manifold.points[0].separation = separation;
    manifold.points[0].id = 0;
    manifold.point_count = 1;
    manifold_to_world(&manifold, xfa);
    return manifold;
}

carom_manifold carom_collide_polygon_and_circle(const carom_polygon* a, carom_transform xfa,
                                                const carom_circle* b, carom_transform xfb,
                                                double speculative_distance) {
    carom_manifold manifold = empty_manifold();
    carom_transform xf = carom_inv_mul_transforms(xfa, xfb);
    carom_vec2 center = carom_transform_point(xf, b->center);
    double radius = b->radius;

    /* The face of greatest separation from the circle's center. */
    int face = 0;
    double face_separation = -DBL_MAX;
    for (int i = 0; i < a->count; ++i) {
        double s = carom_dot(a->normals[i], carom_sub(center, a->vertices[i]));
        if (s > face_separation) {
            face_separation = s;
            face = i;
        }
    }
    if (face_separation - radius > speculative_distance) {
        return manifold;
    }
    carom_vec2 v1 = a->vertices[face];
    carom_vec2 v2 = a->vertices[(face + 1) % a->count];
    double u1 = carom_dot(carom_sub(center, v1), carom_sub(v2, v1));
    double u2 = carom_dot(carom_sub(center, v2), carom_sub(v1, v2));

    carom_vec2 normal;
    carom_vec2 closest; /* on the polygon's surface */
    double separation;
    if (face_separation > 0.0 && (u1 < 0.0 || u2 < 0.0)) {
        /* Vertex region: the center projects beyond the face, so the nearest feature is a
         * vertex and the axis runs from it to the center. */
        closest = u1 < 0.0 ? v1 : v2;
        carom_vec2 offset = carom_sub(center, closest);
        double distance = carom_length(offset);
        separation = distance - radius;
        if (separation > speculative_distance) {
            return manifold;
        }
        normal = carom_scale(1.0 / distance, offset);
    } else {
        normal = a->normals[face];
        separation = face_separation - radius;
        closest = carom_mul_sub(center, face_separation, normal);
    }
    carom_vec2 surface_b = carom_mul_sub(center, radius, normal);
    manifold.normal = normal;
    manifold.points[0].point = carom_lerp(closest, surface_b, 0.5);
    manifold.points[0].separation = separation;
    manifold.points[0].id = 0;
    manifold.point_count = 1;
    manifold_to_world(&manifold, xfa);
    return manifold;
}

/* The face of poly1 along whose normal poly2 is farthest out; both in the same frame. */
static double find_max_separation(const carom_polygon* poly1, const carom_polygon* poly2,
                                  int* best_edge) {
    double best = -DBL_MAX;
    *best_edge = 0;
    for (int i = 0; i < poly1->count; ++i) {
        carom_vec2 n = poly1->normals[i];
        carom_vec2 v = poly1->vertices[i];
        double deepest = DBL_MAX;
        for (int j = 0; j < poly2->count; ++j) {
            double s = carom_dot(n, carom_sub(poly2->vertices[j], v));
            if (s < deepest) {
                deepest = s;
            }
        }
        if (deepest > best) {
            best = deepest;
            *best_edge = i;
        }
    }
    return best;
}

static carom_polygon transform_polygon(const carom_polygon* polygon, carom_transform xf) {
    carom_polygon out = *polygon;
    for (int i = 0; i < polygon->count; ++i) {
        out.vertices[i] = carom_transform_point(xf, polygon->vertices[i]);
        out.normals[i] = carom_rotate(xf.q, polygon->normals[i]);
    }
    out.centroid = carom_transform_point(xf, polygon->centroid);
    return out;
}

/* The edge of `polygon` whose normal is most anti-parallel to `normal`. */
static int find_incident_edge(const carom_polygon* polygon, carom_vec2 normal) {
    int edge = 0;
    double min_dot = DBL_MAX;
    for (int i = 0; i < polygon->count; ++i) {
        double d = carom_dot(normal, polygon->normals[i]);
        if (d < min_dot) {
            min_dot = d;
            edge = i;
        }
    }
    return edge;
}

/* Clip segment [p0, p1] to the half line dot(tangent, p) >= offset. False if nothing is left. */
static bool clip_to_side(carom_vec2* p0, carom_vec2* p1, carom_vec2 tangent, double offset) {
    double d0 = carom_dot(tangent, *p0) - offset;
    double d1 = carom_dot(tangent, *p1) - offset;
    if (d0 < 0.0 && d1 < 0.0) {
        return false;
    }
    if (d0 < 0.0) {
        *p0 = carom_lerp(*p0, *p1, d0 / (d0 - d1));
    } else if (d1 < 0.0) {
        *p1 = carom_lerp(*p1, *p0, d1 / (d1 - d0));
    }
    return true;
}

carom_manifold carom_collide_polygons(const carom_polygon* a, carom_transform xfa,
                                      const carom_polygon* b, carom_transform xfb,
                                      double speculative_distance) {
    carom_manifold manifold = empty_manifold();
    carom_polygon local_b = transform_polygon(b, carom_inv_mul_transforms(xfa, xfb));

    int edge_a = 0;
    double separation_a = find_max_separation(a, &local_b, &edge_a);
    if (separation_a > speculative_distance) {
        return manifold;
    }
    int edge_b = 0;
    double separation_b = find_max_separation(&local_b, a, &edge_b);
    if (separation_b > speculative_distance) {
        return manifold;
    }

    bool flip = separation_b > separation_a + CAROM_REFERENCE_FACE_TOLERANCE;
    const carom_polygon* reference = flip ? &local_b : a;
    const carom_polygon* incident = flip ? a : &local_b;
    int reference_edge = flip ? edge_b : edge_a;

    carom_vec2 normal = reference->normals[reference_edge];
    carom_vec2 v1 = reference->vertices[reference_edge];
    carom_vec2 v2 = reference->vertices[(reference_edge + 1) % reference->count];
    carom_vec2 tangent = carom_left_perp(normal); /* runs from v1 to v2 */

    int incident_edge = find_incident_edge(incident, normal);
    carom_vec2 clip[2] = {incident->vertices[incident_edge],
                          incident->vertices[(incident_edge + 1) % incident->count]};
    if (!clip_to_side(&clip[0], &clip[1], tangent, carom_dot(tangent, v1)) ||
        !clip_to_side(&clip[0], &clip[1], carom_neg(tangent), -carom_dot(tangent, v2))) {
        return manifold;
    }

    manifold.normal = flip ? carom_neg(normal) : normal;
    for (int k = 0; k < 2; ++k) {
        double separation = carom_dot(normal, carom_sub(clip[k], v1));
        if (separation > speculative_distance) {
            continue;
        }
        carom_manifold_point* mp = &manifold.points[manifold.point_count++];
        mp->point = carom_mul_sub(clip[k], 0.5 * separation, normal);
        mp->separation = separation;
        mp->id = ((uint32_t)flip << 24) | ((uint32_t)reference_edge << 16) |
                 ((uint32_t)incident_edge << 8) | (uint32_t)k;
    }
    manifold_to_world(&manifold, xfa);
    return manifold;
}
