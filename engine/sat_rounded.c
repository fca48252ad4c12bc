/* Contact manifolds of rounded polygons and capsules: their cores' nearest features.
 *
 * A rounded polygon is its core (a convex polygon, two vertices for a capsule) grown by a radius,
 * so two rounded shapes touch where their cores come within the sum of the radii, along the
 * line between the cores' nearest points. sat.c searches the cores' faces as for sharp polygons;
 * the face of greatest separation is the right axis whenever the nearest point of one core lies
 * on a face of the other (then the separation along that face's normal is the distance), and
 * that includes every pair of overlapping cores. It is the wrong axis when the cores are apart
 * and their nearest features are two corners: a rounded box whose corner nears another's, or
 * two capsules end to end, whose face normals (across their axes) all report a separation of
 * zero however far apart their ends are. So when the cores are apart their true distance is
 * found (every vertex against every edge of the other: at most 2 x 8 x 8 point-segment
 * distances), and where it exceeds the best face separation the nearest features are corners:
 * the manifold is one point on the line between them. Everywhere else the faces are clipped by
 * sat.c's carom_polygon_clip_manifold, which takes the radii off the separations.
 *
 * Feature ids: a corner-to-corner point is A's vertex << 8 | B's vertex, the same names the
 * clipped points use, so a point that moves from a face onto a corner keeps its warm start. */
#include "core.h"

#include "sat.h"

#include <float.h>
#include <math.h>

/* The nearest features are two corners when the cores' distance exceeds their best face
 * separation by more than this (m): the two differ only by rounding when the nearest point of
 * one lies on a face of the other. */
#define CORNER_TOLERANCE 1e-9

typedef struct nearest_features {
    double distance;
    carom_vec2 point_a, point_b; /* on the cores */
    int vertex_a, vertex_b;      /* the vertices the points are at, or the edge's first */
} nearest_features;

/* The point of segment [v1, v2] nearest to p, and which end it is (0, 1) or -1 inside. */
static carom_vec2 nearest_on_segment(carom_vec2 p, carom_vec2 v1, carom_vec2 v2, int* end) {
    carom_vec2 edge = carom_sub(v2, v1);
    double t = carom_dot(carom_sub(p, v1), edge) / carom_dot(edge, edge);
    if (t <= 0.0) {
        *end = 0;
        return v1;
    }
    if (t >= 1.0) {
        *end = 1;
        return v2;
    }
    *end = -1;
    return carom_mul_add(v1, t, edge);
}

/* Every vertex of `from` against every edge of `to`; better pairs replace `best`. */
static void search_vertices_against_edges(const carom_polygon* from, const carom_polygon* to,
                                          bool from_is_a, nearest_features* best) {
    for (int i = 0; i < from->count; ++i) {
        carom_vec2 p = from->vertices[i];
        for (int j = 0; j < to->count; ++j) {
            int next = (j + 1) % to->count;
            int end = -1;
            carom_vec2 q = nearest_on_segment(p, to->vertices[j], to->vertices[next], &end);
            double distance = carom_distance(p, q);
            if (distance < best->distance) {
                int vertex = end == 1 ? next : j;
                best->distance = distance;
                best->point_a = from_is_a ? p : q;
                best->point_b = from_is_a ? q : p;
                best->vertex_a = from_is_a ? i : vertex;
                best->vertex_b = from_is_a ? vertex : i;
            }
        }
    }
}

/* The nearest points of two cores that do not overlap (one frame). */
static nearest_features find_nearest_features(const carom_polygon* a, const carom_polygon* b) {
    nearest_features best = {DBL_MAX, {0.0, 0.0}, {0.0, 0.0}, 0, 0};
    search_vertices_against_edges(a, b, true, &best);
    search_vertices_against_edges(b, a, false, &best);
    return best;
}

/* Whether two segments cross at a point inside both (touching ends are found as distance 0). */
static bool segments_cross(carom_vec2 p1, carom_vec2 p2, carom_vec2 q1, carom_vec2 q2) {
    double d1 = carom_cross(carom_sub(p2, p1), carom_sub(q1, p1));
    double d2 = carom_cross(carom_sub(p2, p1), carom_sub(q2, p1));
    double d3 = carom_cross(carom_sub(q2, q1), carom_sub(p1, q1));
    double d4 = carom_cross(carom_sub(q2, q1), carom_sub(p2, q1));
    return ((d1 < 0.0 && d2 > 0.0) || (d1 > 0.0 && d2 < 0.0)) &&
           ((d3 < 0.0 && d4 > 0.0) || (d3 > 0.0 && d4 < 0.0));
}

/* Whether two cores overlap, given their best face separation. The faces of a polygon of three
 * or more vertices are all the axes there are against any other core; two segments that are
 * parallel have one more (along them), so for a pair of segments the crossing is tested. */
static bool cores_overlap(const carom_polygon* a, const carom_polygon* b, double separation) {
    if (separation > 0.0) {
        return false;
    }
    if (a->count >= 3 || b->count >= 3) {
        return true;
    }
    return segments_cross(a->vertices[0], a->vertices[1], b->vertices[0], b->vertices[1]);
}

double carom_polygon_core_distance(const carom_polygon* a, const carom_polygon* b) {
    int edge = 0;
    double separation = carom_max_d(carom_polygon_max_separation(a, b, DBL_MAX, &edge),
                                    carom_polygon_max_separation(b, a, DBL_MAX, &edge));
    if (cores_overlap(a, b, separation)) {
        return separation;
    }
    nearest_features nearest = find_nearest_features(a, b);
    return nearest.distance > 0.0 ? nearest.distance : separation;
}

carom_manifold carom_rounded_polygons_manifold(const carom_polygon* a, const carom_polygon* local_b,
                                               int edge_a, double separation_a, int edge_b,
                                               double separation_b, double speculative_distance,
                                               carom_transform xfa) {
    double separation = carom_max_d(separation_a, separation_b);
    int reference_side = -1;
    if (!cores_overlap(a, local_b, separation)) {
        nearest_features nearest = find_nearest_features(a, local_b);
        double rounding = a->radius + local_b->radius;
        if (nearest.distance - rounding > speculative_distance) {
            return carom_empty_manifold();
        }
        if (nearest.distance > separation + CORNER_TOLERANCE && nearest.distance > 0.0) {
            carom_vec2 normal = carom_scale(1.0 / nearest.distance,
                                            carom_sub(nearest.point_b, nearest.point_a));
            carom_vec2 surface_a = carom_mul_add(nearest.point_a, a->radius, normal);
            carom_vec2 surface_b = carom_mul_sub(nearest.point_b, local_b->radius, normal);
            carom_manifold manifold = carom_empty_manifold();
            manifold.normal = normal;
            manifold.points[0].point = carom_lerp(surface_a, surface_b, 0.5);
            manifold.points[0].separation = nearest.distance - rounding;
            manifold.points[0].id = (uint32_t)nearest.vertex_a << 8 | (uint32_t)nearest.vertex_b;
            manifold.point_count = 1;
            carom_manifold_to_world(&manifold, xfa);
            return manifold;
        }
        /* The nearest point lies on a face, and the face of greatest separation holds it. The
         * other polygon's best face may still win the tie tolerance that keeps the reference
         * from flipping between steps; clipping to it would cut the nearest corner off. Then
         * the face holding the nearest point is the reference. (Parallel faces both hold it:
         * the tolerance rule stands, so a resting pair does not flip its normal.) */
        bool flip = separation_b > separation_a + CAROM_REFERENCE_FACE_TOLERANCE;
        if ((flip ? separation_b : separation_a) < nearest.distance - CORNER_TOLERANCE) {
            reference_side = flip ? 0 : 1;
        }
    }
    return carom_polygon_clip_manifold(a, local_b, edge_a, separation_a, edge_b, separation_b,
                                       speculative_distance, reference_side, xfa);
}
