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
#include <math.h>

carom_manifold carom_collide_circles(const carom_circle* a, carom_transform xfa,
                                     const carom_circle* b, carom_transform xfb,
                                     double speculative_distance) {
    carom_manifold manifold = carom_empty_manifold();
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
    carom_manifold_to_world(&manifold, xfa);
    return manifold;
}

carom_manifold carom_collide_polygon_and_circle(const carom_polygon* a, carom_transform xfa,
                                                const carom_circle* b, carom_transform xfb,
                                                double speculative_distance) {
    carom_manifold manifold = carom_empty_manifold();
    carom_transform xf = carom_inv_mul_transforms(xfa, xfb);
    carom_vec2 center = carom_transform_point(xf, b->center);
    /* a rounded polygon's surface is its core's moved out by its radius: the circle meets the
     * core grown by the radius, and the point on A's surface is the core's point moved out */
    double radius = b->radius + a->radius;

    /* The face of greatest separation from the circle's center. */
    double face_separation;
    int face = carom_polygon_face_toward(a, center, &face_separation);
    if (face_separation - radius > speculative_distance) {
        return manifold;
    }
    carom_vec2 vertex;
    bool beyond_face = carom_polygon_vertex_region(a, face, face_separation, center, &vertex);

    carom_vec2 normal;
    carom_vec2 closest; /* on the polygon's surface */
    double separation;
    double vertex_distance = carom_distance(center, vertex);
    if (beyond_face && vertex_distance > 0.0) {
        /* Vertex region: the center is outside (or, for a segment, on its line) and projects
         * beyond the face, so the nearest feature is a vertex and the axis runs from it to the
         * center. */
        closest = vertex;
        carom_vec2 offset = carom_sub(center, closest);
        double distance = vertex_distance;
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
    if (a->radius > 0.0) {
        closest = carom_mul_add(closest, a->radius, normal);
    }
    carom_vec2 surface_b = carom_mul_sub(center, b->radius, normal);
    manifold.normal = normal;
    manifold.points[0].point = carom_lerp(closest, surface_b, 0.5);
    manifold.points[0].separation = separation;
    manifold.points[0].id = 0;
    manifold.point_count = 1;
    carom_manifold_to_world(&manifold, xfa);
    return manifold;
}

/* The search of carom_polygon_max_separation, inlined with the vertex counts as constants
 * where they are known (boxes: 4 and 4), so that the compiler unrolls both loops. */
static CAROM_FORCE_INLINE double max_separation(const carom_polygon* poly1, int count1,
                                                const carom_polygon* poly2, int count2,
                                                double stop_above, int* best_edge) {
    double best = -DBL_MAX;
    *best_edge = 0;
    for (int i = 0; i < count1 && best <= stop_above; ++i) {
        carom_vec2 n = poly1->normals[i];
        carom_vec2 v = poly1->vertices[i];
        double deepest = DBL_MAX;
        for (int j = 0; j < count2; ++j) {
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

double carom_polygon_max_separation(const carom_polygon* poly1, const carom_polygon* poly2,
                                    double stop_above, int* best_edge) {
    if (poly1->count == 4 && poly2->count == 4) {
        return max_separation(poly1, 4, poly2, 4, stop_above, best_edge);
    }
    return max_separation(poly1, poly1->count, poly2, poly2->count, stop_above, best_edge);
}

/* The polygon's vertices placed by xf (its normals and centroid are left alone). */
static void transform_vertices(const carom_polygon* polygon, carom_transform xf,
                               carom_polygon* out) {
    out->count = polygon->count;
    out->radius = polygon->radius;
    for (int i = 0; i < polygon->count; ++i) {
        out->vertices[i] = carom_transform_point(xf, polygon->vertices[i]);
    }
}

static void transform_normals(const carom_polygon* polygon, carom_rot q, carom_polygon* out) {
    for (int i = 0; i < polygon->count; ++i) {
        out->normals[i] = carom_rotate(q, polygon->normals[i]);
    }
}

static void transform_polygon(const carom_polygon* polygon, carom_transform xf,
                              carom_polygon* out) {
    transform_vertices(polygon, xf, out);
    transform_normals(polygon, xf.q, out);
    out->centroid = carom_transform_point(xf, polygon->centroid);
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

/* A clipped point's feature id: the vertex of A and the vertex of B it comes from, as
 * a_vertex << 8 | b_vertex. Clip point 0 starts at the incident edge's first vertex, which lies
 * toward the reference face's second vertex (the two faces run opposite ways); point 1 pairs the
 * incident edge's second vertex with the reference face's first. Naming the two polygons'
 * features rather than which face was the reference keeps the id, and with it the warm-started
 * impulse, when the reference face moves from one polygon to the other between steps, as it
 * does often deep in a pile of boxes. */
static uint32_t point_feature_id(const carom_polygon* reference, int reference_edge,
                                 const carom_polygon* incident, int incident_edge, int k,
                                 bool flip) {
    uint32_t reference_vertex =
        (uint32_t)(k == 0 ? (reference_edge + 1) % reference->count : reference_edge);
    uint32_t incident_vertex =
        (uint32_t)(k == 0 ? incident_edge : (incident_edge + 1) % incident->count);
    return flip ? (incident_vertex << 8 | reference_vertex)
                : (reference_vertex << 8 | incident_vertex);
}

/* The manifold of two polygons in A's frame, once the best face of each is known: local_b is B
 * placed in A's frame, vertices and normals. The reference face is A's unless B's separates
 * clearly more; the incident edge is clipped to its side planes (sat.c's header). Rounded
 * polygons: the faces are the cores', a point's separation is less both radii, and the point
 * lies midway between the two rounded surfaces. */
carom_manifold carom_polygon_clip_manifold(const carom_polygon* a, const carom_polygon* local_b,
                                           int edge_a, double separation_a, int edge_b,
                                           double separation_b, double speculative_distance,
                                           int reference_side, carom_transform xfa) {
    carom_manifold manifold = carom_empty_manifold();
    bool flip = reference_side < 0 ? separation_b > separation_a + CAROM_REFERENCE_FACE_TOLERANCE
                                   : reference_side == 1;
    const carom_polygon* reference = flip ? local_b : a;
    const carom_polygon* incident = flip ? a : local_b;
    int reference_edge = flip ? edge_b : edge_a;

    carom_vec2 normal = reference->normals[reference_edge];
    carom_vec2 v1 = reference->vertices[reference_edge];
    carom_vec2 v2 = reference->vertices[(reference_edge + 1) % reference->count];
    carom_vec2 tangent = carom_left_perp(normal); /* runs from v1 to v2 */

    int incident_edge = find_incident_edge(incident, normal);
    carom_vec2 clip[2] = {incident->vertices[incident_edge],
                          incident->vertices[(incident_edge + 1) % incident->count]};
    /* Apart by a gap, the side planes are widened by that gap: two corners closing on each other
     * diagonally are each just outside the other's face, and exact clipping would leave no point
     * to stop them (a corner-to-corner crash of two cars). Touching or overlapping shapes clip
     * exactly, so a box resting over an edge is not held up beyond the edge. Rounded polygons
     * need no widening: corners closing on each other are found as corners (sat_rounded.c), and
     * exact clipping keeps the points the same whichever polygon is the reference. */
    double rounding = a->radius + local_b->radius;
    double widen = rounding > 0.0 ? 0.0 : carom_max_d(0.0, carom_max_d(separation_a, separation_b));
    if (!clip_to_side(&clip[0], &clip[1], tangent, carom_dot(tangent, v1) - widen) ||
        !clip_to_side(&clip[0], &clip[1], carom_neg(tangent), -carom_dot(tangent, v2) - widen)) {
        return manifold;
    }

    manifold.normal = flip ? carom_neg(normal) : normal;
    for (int k = 0; k < 2; ++k) {
        double core_separation = carom_dot(normal, carom_sub(clip[k], v1));
        double separation = core_separation - rounding;
        if (separation > speculative_distance) {
            continue;
        }
        carom_manifold_point* mp = &manifold.points[manifold.point_count++];
        /* the incident surface lies its radius below the clipped core point, the reference
         * surface its radius above the reference face: the point is midway */
        double down = rounding > 0.0
                          ? 0.5 * (core_separation + incident->radius - reference->radius)
                          : 0.5 * separation;
        mp->point = carom_mul_sub(clip[k], down, normal);
        mp->separation = separation;
        mp->id = point_feature_id(reference, reference_edge, incident, incident_edge, k, flip);
    }
    carom_manifold_to_world(&manifold, xfa);
    return manifold;
}

carom_manifold carom_collide_polygons(const carom_polygon* a, carom_transform xfa,
                                      const carom_polygon* b, carom_transform xfb,
                                      double speculative_distance) {
    /* Most pairs the broad phase hands over are apart: B's normals are placed, and each
     * polygon's faces tried, only until one face separates them by more than the speculative
     * distance. The manifold is empty then, whichever face it was. */
    carom_polygon local_b;
    carom_transform xf = carom_inv_mul_transforms(xfa, xfb);
    transform_vertices(b, xf, &local_b);

    /* rounded polygons: the cores may be as far apart as the radii and still touch */
    double rounding = a->radius + b->radius;
    double core_reach = rounding > 0.0 ? speculative_distance + rounding : speculative_distance;
    int edge_a = 0;
    double separation_a = carom_polygon_max_separation(a, &local_b, core_reach, &edge_a);
    if (separation_a > core_reach) {
        return carom_empty_manifold();
    }
    transform_normals(b, xf.q, &local_b);
    int edge_b = 0;
    double separation_b = carom_polygon_max_separation(&local_b, a, core_reach, &edge_b);
    if (separation_b > core_reach) {
        return carom_empty_manifold();
    }
    if (rounding > 0.0) {
        return carom_rounded_polygons_manifold(a, &local_b, edge_a, separation_a, edge_b,
                                               separation_b, speculative_distance, xfa);
    }
    return carom_polygon_clip_manifold(a, &local_b, edge_a, separation_a, edge_b, separation_b,
                                       speculative_distance, -1, xfa);
}

/* A box's best face against a point at `offset` from its center along its two axes (in its
 * frame), with something reaching `reach` beyond that point along those axes: the separation,
 * and the face as an edge of the box's canonical polygon (carom_shape_find_box). Ties go to the
 * lower edge, as in the search over every face. */
static double box_best_face(carom_vec2 half, carom_vec2 offset, carom_vec2 reach, int* edge) {
    double separation_x = fabs(offset.x) - half.x - reach.x;
    double separation_y = fabs(offset.y) - half.y - reach.y;
    int edge_x = offset.x >= 0.0 ? 1 : 3; /* +x: edge 1, -x: edge 3 */
    int edge_y = offset.y > 0.0 ? 2 : 0; /* +y: edge 2, -y: edge 0 */
    bool x_wins = separation_x > separation_y || (separation_x == separation_y && edge_x < edge_y);
    *edge = x_wins ? edge_x : edge_y;
    return x_wins ? separation_x : separation_y;
}

carom_manifold carom_collide_boxes(const carom_polygon* a, carom_vec2 half_a, carom_transform xfa,
                                   const carom_polygon* b, carom_vec2 half_b, carom_transform xfb,
                                   double speculative_distance) {
    /* B's center and axes in A's frame, and how far each box reaches along the other's axes:
     * a face's separation is the centers' distance along its normal less both boxes' reach, so
     * the four faces that can separate cost a few products instead of sixteen projections. */
    carom_transform xf = carom_inv_mul_transforms(xfa, xfb);
    int edge_a = 0;
    double separation_a = box_best_face(half_a, xf.p, carom_box_reach(half_b, xf.q), &edge_a);
    if (separation_a > speculative_distance) {
        return carom_empty_manifold();
    }
    /* A's center in B's frame; A turned by the inverse rotation reaches as far (abs(c), abs(s)) */
    carom_vec2 a_from_b = carom_neg(carom_inv_rotate(xf.q, xf.p));
    int edge_b = 0;
    double separation_b = box_best_face(half_b, a_from_b, carom_box_reach(half_a, xf.q), &edge_b);
    if (separation_b > speculative_distance) {
        return carom_empty_manifold();
    }
    carom_polygon local_b;
    transform_vertices(b, xf, &local_b);
    transform_normals(b, xf.q, &local_b);
    return carom_polygon_clip_manifold(a, &local_b, edge_a, separation_a, edge_b, separation_b,
                                       speculative_distance, -1, xfa);
}

/* ---- Chain segments ------------------------------------------------------------------------
 *
 * Two segments meeting at a flat joint make a seam that a box sliding along must not feel, yet
 * the box's corner dipping a hair below the next segment gives that segment's separating-axis
 * test a sideways normal (the box's own side face), which stops the box dead: the classic
 * "ghost collision". Each chain segment knows its neighbours' far ends (ghost vertices), so it
 * can tell whether a contact near one of its ends is against a real corner:
 * - a joint that is flat or concave as seen from the other shape's side has no corner to hit,
 *   so only the segment's face normal is allowed there;
 * - a convex joint is a real corner: normals between the two segments' face normals are
 *   legitimate, and normals beyond the neighbour's face normal belong to the neighbour.
 * The tests below run the ordinary two-sided segment test first and correct its result. */

/* Tolerance on the sine of the turn angle under which a joint counts as flat. */
#define CHAIN_FLAT_TOLERANCE 1e-6

/* The segment face on the side of `toward` (a point or direction), in segment frame. */
static carom_vec2 side_normal(carom_vec2 edge_direction, carom_vec2 toward) {
    carom_vec2 right = carom_right_perp(edge_direction);
    return carom_dot(right, toward) >= 0.0 ? right : carom_neg(right);
}

typedef enum joint_verdict { JOINT_KEEP, JOINT_USE_FACE, JOINT_DROP } joint_verdict;

/* Judge a manifold normal (pointing from this segment to B) found near the joint shared with a
 * neighbour. The two segments, as rays from the joint, split the plane into a sector narrower
 * than a half turn and a wider one. B in the narrow sector sits in a valley: there is no corner
 * to hit, so only face normals are right. B in the wide sector faces a convex corner: normals
 * between the two faces that look into the wide sector are right, and any other normal is the
 * neighbour's business. A flat joint is a seam: face normals only. */
static joint_verdict judge_joint(carom_vec2 joint, carom_vec2 ghost, carom_vec2 other_end,
                                 carom_vec2 b_center, carom_vec2 normal) {
    carom_vec2 along_this = carom_normalize(carom_sub(other_end, joint));
    carom_vec2 along_neighbour = carom_normalize(carom_sub(ghost, joint));
    double turn = carom_cross(along_this, along_neighbour);
    double facing = carom_dot(along_this, along_neighbour);
    if (fabs(turn) <= CHAIN_FLAT_TOLERANCE) {
        return facing < 0.0 ? JOINT_USE_FACE : JOINT_KEEP; /* seam; or a fold back: leave it */
    }
    carom_vec2 c = carom_sub(b_center, joint);
    double side_this = carom_cross(along_this, c);
    double side_neighbour = carom_cross(c, along_neighbour);
    bool in_valley = turn > 0.0 ? (side_this > 0.0 && side_neighbour > 0.0)
                                : (side_this < 0.0 && side_neighbour < 0.0);
    if (in_valley) {
        return JOINT_USE_FACE;
    }
    carom_vec2 this_normal = side_normal(along_this, carom_neg(along_neighbour));
    carom_vec2 neighbour_normal = side_normal(along_neighbour, carom_neg(along_this));
    double cone = carom_cross(this_normal, neighbour_normal);
    double from_this = carom_cross(this_normal, normal);
    double to_neighbour = carom_cross(normal, neighbour_normal);
    const double slack = 1e-12;
    bool inside = cone >= 0.0 ? (from_this >= -slack && to_neighbour >= -slack)
                              : (from_this <= slack && to_neighbour <= slack);
    return inside ? JOINT_KEEP : JOINT_DROP;
}

/* Decide what to do with a manifold computed against the bare segment (segment frame). */
static joint_verdict judge_chain_manifold(const carom_chain_segment* chain,
                                          const carom_manifold* manifold, carom_vec2 b_center) {
    if (manifold->point_count == 0) {
        return JOINT_KEEP;
    }
    carom_vec2 edge = carom_sub(chain->point2, chain->point1);
    double length = carom_length(edge);
    carom_vec2 direction = carom_scale(1.0 / length, edge);
    carom_vec2 face_normal = side_normal(direction, carom_sub(b_center, chain->point1));
    /* Which end is the contact nearest? */
    double along = 0.0;
    for (int i = 0; i < manifold->point_count; ++i) {
        along += carom_dot(carom_sub(manifold->points[i].point, chain->point1), direction);
    }
    along /= manifold->point_count;
    bool near_first = along < 0.5 * length;
    bool has_neighbour = near_first ? chain->has_ghost1 : chain->has_ghost2;
    if (!has_neighbour) {
        return JOINT_KEEP;
    }
    carom_vec2 joint = near_first ? chain->point1 : chain->point2;
    carom_vec2 ghost = near_first ? chain->ghost1 : chain->ghost2;
    carom_vec2 other_end = near_first ? chain->point2 : chain->point1;
    joint_verdict verdict = judge_joint(joint, ghost, other_end, b_center, manifold->normal);
    if (verdict == JOINT_USE_FACE && carom_dot(manifold->normal, face_normal) > 1.0 - 1e-12) {
        verdict = JOINT_KEEP; /* already the face normal */
    }
    return verdict;
}

static carom_polygon chain_segment_polygon(const carom_chain_segment* chain) {
    carom_segment segment = {chain->point1, chain->point2};
    return carom_make_segment_polygon(&segment);
}

/* Polygon contact against the segment's face on B's side only (segment frame, B local). */
static carom_manifold collide_face_and_polygon(const carom_chain_segment* chain,
                                               const carom_polygon* local_b,
                                               double speculative_distance) {
    carom_manifold manifold = carom_empty_manifold();
    carom_vec2 direction = carom_normalize(carom_sub(chain->point2, chain->point1));
    carom_vec2 normal = side_normal(direction, carom_sub(local_b->centroid, chain->point1));
    /* reference face from v1 to v2 with the tangent running v1 -> v2 as in the polygon case */
    carom_vec2 v1 = chain->point1;
    carom_vec2 v2 = chain->point2;
    if (carom_cross(carom_sub(v2, v1), normal) > 0.0) {
        v1 = chain->point2;
        v2 = chain->point1;
    }
    carom_vec2 tangent = carom_left_perp(normal);
    int incident_edge = find_incident_edge(local_b, normal);
    carom_vec2 clip[2] = {local_b->vertices[incident_edge],
                          local_b->vertices[(incident_edge + 1) % local_b->count]};
    if (!clip_to_side(&clip[0], &clip[1], tangent, carom_dot(tangent, v1)) ||
        !clip_to_side(&clip[0], &clip[1], carom_neg(tangent), -carom_dot(tangent, v2))) {
        return manifold;
    }
    manifold.normal = normal;
    double radius = local_b->radius; /* a rounded polygon's surface is below its core */
    for (int k = 0; k < 2; ++k) {
        double core_separation = carom_dot(normal, carom_sub(clip[k], v1));
        double separation = core_separation - radius;
        if (separation > speculative_distance) {
            continue;
        }
        carom_manifold_point* mp = &manifold.points[manifold.point_count++];
        mp->point = carom_mul_sub(clip[k], radius > 0.0 ? 0.5 * (core_separation + radius)
                                                        : 0.5 * separation,
                                  normal);
        mp->separation = separation;
        mp->id = (1u << 28) | ((uint32_t)incident_edge << 8) | (uint32_t)k;
    }
    return manifold;
}

/* A circle against the segment's face line on its side only (segment frame): at a seam the
 * neighbour's face continues the line. */
static carom_manifold collide_face_and_circle(const carom_chain_segment* chain,
                                              const carom_circle* local_b,
                                              double speculative_distance) {
    carom_manifold manifold = carom_empty_manifold();
    carom_vec2 direction = carom_normalize(carom_sub(chain->point2, chain->point1));
    carom_vec2 normal = side_normal(direction, carom_sub(local_b->center, chain->point1));
    double distance = carom_dot(normal, carom_sub(local_b->center, chain->point1));
    double separation = distance - local_b->radius;
    if (separation <= speculative_distance) {
        carom_vec2 on_line = carom_mul_sub(local_b->center, distance, normal);
        carom_vec2 on_circle = carom_mul_sub(local_b->center, local_b->radius, normal);
        manifold.normal = normal;
        manifold.points[0].point = carom_lerp(on_line, on_circle, 0.5);
        manifold.points[0].separation = separation;
        manifold.points[0].id = 1u << 28;
        manifold.point_count = 1;
    }
    return manifold;
}

/* A one-sided segment ignores a shape whose center is behind it (on its left). */
static bool behind_one_sided(const carom_chain_segment* chain, carom_vec2 center) {
    if (!chain->one_sided) {
        return false;
    }
    carom_vec2 front = carom_right_perp(carom_sub(chain->point2, chain->point1));
    return carom_dot(front, carom_sub(center, chain->point1)) < 0.0;
}

carom_manifold carom_collide_chain_segment_and_polygon(const carom_chain_segment* a,
                                                       carom_transform xfa,
                                                       const carom_polygon* b,
                                                       carom_transform xfb,
                                                       double speculative_distance) {
    carom_polygon segment = chain_segment_polygon(a);
    carom_transform identity = carom_transform_identity();
    carom_polygon local_b;
    transform_polygon(b, carom_inv_mul_transforms(xfa, xfb), &local_b);
    if (behind_one_sided(a, local_b.centroid)) {
        return carom_empty_manifold();
    }
    carom_manifold manifold =
        carom_collide_polygons(&segment, identity, &local_b, identity, speculative_distance);
    joint_verdict verdict = judge_chain_manifold(a, &manifold, local_b.centroid);
    if (verdict == JOINT_USE_FACE) {
        manifold = collide_face_and_polygon(a, &local_b, speculative_distance);
    } else if (verdict == JOINT_DROP) {
        manifold = carom_empty_manifold();
    }
    carom_manifold_to_world(&manifold, xfa);
    return manifold;
}

carom_manifold carom_collide_chain_segment_and_circle(const carom_chain_segment* a,
                                                      carom_transform xfa,
                                                      const carom_circle* b,
                                                      carom_transform xfb,
                                                      double speculative_distance) {
    carom_polygon segment = chain_segment_polygon(a);
    carom_transform identity = carom_transform_identity();
    carom_circle local_b = {carom_transform_point(carom_inv_mul_transforms(xfa, xfb), b->center),
                            b->radius};
    if (behind_one_sided(a, local_b.center)) {
        return carom_empty_manifold();
    }
    carom_manifold manifold = carom_collide_polygon_and_circle(&segment, identity, &local_b,
                                                               identity, speculative_distance);
    joint_verdict verdict = judge_chain_manifold(a, &manifold, local_b.center);
    if (verdict == JOINT_USE_FACE) {
        manifold = collide_face_and_circle(a, &local_b, speculative_distance);
    } else if (verdict == JOINT_DROP) {
        manifold = carom_empty_manifold();
    }
    carom_manifold_to_world(&manifold, xfa);
    return manifold;
}
