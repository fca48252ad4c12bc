/* Separating-axis contact tests between shape pairs; pure functions, see collision.h. */
#ifndef CAROM_SAT_H
#define CAROM_SAT_H

#include "carom/collision.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>

/* When polygon B's best face beats polygon A's by less than this (m), A's face stays the
 * reference, so the reference does not flip between steps and warm starting keeps working. */
#define CAROM_REFERENCE_FACE_TOLERANCE 0.0005

static inline carom_manifold carom_empty_manifold(void) {
    carom_manifold manifold = {{0.0, 0.0}, {{{0.0, 0.0}, 0.0, 0}, {{0.0, 0.0}, 0.0, 0}}, 0};
    return manifold;
}

/* Move a manifold computed in A's frame into the world frame. */
static inline void carom_manifold_to_world(carom_manifold* manifold, carom_transform xfa) {
    manifold->normal = carom_rotate(xfa.q, manifold->normal);
    for (int i = 0; i < manifold->point_count; ++i) {
        manifold->points[i].point = carom_transform_point(xfa, manifold->points[i].point);
    }
}

/* The face of poly1 along whose normal poly2 reaches farthest out (both in one frame): the
 * largest separation over poly1's faces, positive when that face separates them. The search
 * stops at the first face whose separation exceeds stop_above (m; DBL_MAX: never), which is
 * then the face returned: callers that only need to know "apart by more than stop_above" save
 * the other faces. */
double carom_polygon_max_separation(const carom_polygon* poly1, const carom_polygon* poly2,
                                    double stop_above, int* best_edge);

/* The face of the polygon the point lies farthest out from (both in one frame): the index of
 * the largest separation normal . (point - vertex) over its faces, written to *separation. */
static inline int carom_polygon_face_toward(const carom_polygon* polygon, carom_vec2 point,
                                            double* separation) {
    int face = 0;
    double best = -DBL_MAX;
    for (int i = 0; i < polygon->count; ++i) {
        double s = carom_dot(polygon->normals[i], carom_sub(point, polygon->vertices[i]));
        if (s > best) {
            best = s;
            face = i;
        }
    }
    *separation = best;
    return face;
}

/* Whether the point, `face_separation` out from the polygon's face `face` (as
 * carom_polygon_face_toward gives them), lies in a vertex's region: on or outside the face's
 * line and beyond one of its ends, so that its nearest feature is that end, written to *vertex
 * (the end it lies beyond first; written either way). */
static inline bool carom_polygon_vertex_region(const carom_polygon* polygon, int face,
                                               double face_separation, carom_vec2 point,
                                               carom_vec2* vertex) {
    carom_vec2 v1 = polygon->vertices[face];
    carom_vec2 v2 = polygon->vertices[(face + 1) % polygon->count];
    double u1 = carom_dot(carom_sub(point, v1), carom_sub(v2, v1));
    double u2 = carom_dot(carom_sub(point, v2), carom_sub(v1, v2));
    *vertex = u1 < 0.0 ? v1 : v2;
    return face_separation >= 0.0 && (u1 < 0.0 || u2 < 0.0);
}

/* How far a box of half extents `half`, turned by q, reaches from its center along x and along
 * y: abs(c) x + abs(s) y and abs(s) x + abs(c) y, in that order (the world box of a centred box
 * relies on these roundings: shape.h). */
static inline carom_vec2 carom_box_reach(carom_vec2 half, carom_rot q) {
    double c = fabs(q.c);
    double s = fabs(q.s);
    carom_vec2 reach = {c * half.x + s * half.y, s * half.x + c * half.y};
    return reach;
}

/* carom_collide_polygons for two boxes around their bodies' origins (carom_shape_find_box: the
 * canonical polygon of carom_make_box with half extents half_a, half_b): the same manifold, found
 * by the boxes' two axes each instead of every face against every vertex. */
carom_manifold carom_collide_boxes(const carom_polygon* a, carom_vec2 half_a, carom_transform xfa,
                                   const carom_polygon* b, carom_vec2 half_b, carom_transform xfb,
                                   double speculative_distance);

/* ---- Rounded polygons and capsules (geometry.c, sat_rounded.c) ---------------------------- */

/* Refuse a rounding radius that is not 0 or a finite value of at least CAROM_MIN_RADIUS. */
carom_status carom_check_rounding_radius(double radius, const char* what);

/* Distance from a point to a polygon's core (its vertices and edges, radius ignored); 0 inside
 * a core of three or more vertices. */
double carom_polygon_point_distance(const carom_polygon* polygon, carom_vec2 point);

/* The distance between two polygons' cores placed in one frame (radii ignored): exact when they
 * are apart, and when they overlap the largest face separation (<= 0: minus the least
 * penetration). A lower bound on the distance either way. */
double carom_polygon_core_distance(const carom_polygon* a, const carom_polygon* b);

/* The manifold of two polygons (A's frame, local_b placed in it), at least one rounded, once the
 * best face of each core is known (sat.c). Where the cores are apart and their nearest features
 * are two corners, one point along the line between them; otherwise the faces are clipped as
 * for sharp polygons (carom_polygon_clip_manifold), with the radii taken off. */
carom_manifold carom_rounded_polygons_manifold(const carom_polygon* a, const carom_polygon* local_b,
                                               int edge_a, double separation_a, int edge_b,
                                               double separation_b, double speculative_distance,
                                               carom_transform xfa);

/* The clipped two-point manifold of sat.c (sat.c's header), for cores whose faces were searched:
 * separations and points count each polygon's radius. reference_side: -1 lets the separations
 * choose the reference face (A's unless B's is better by CAROM_REFERENCE_FACE_TOLERANCE), 0 and
 * 1 make it A's or B's best face. */
carom_manifold carom_polygon_clip_manifold(const carom_polygon* a, const carom_polygon* local_b,
                                           int edge_a, double separation_a, int edge_b,
                                           double separation_b, double speculative_distance,
                                           int reference_side, carom_transform xfa);

#endif
