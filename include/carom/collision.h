/* carom: shape geometry and separating-axis contact tests, usable without a world.
 *
 * Every function here is pure: inputs by value or const pointer, a result out, no globals.
 * Shapes are in their body's local frame; a carom_transform places them in the world.
 * Numeric caveat: the tests work in double precision relative to shape A's frame, so they stay
 * accurate far from the origin, but shapes should still be sized roughly 0.01 m to 1000 m:
 * tolerances (duplicate and collinear vertices, contact slop) are absolute, in metres. */
#ifndef CAROM_COLLISION_H
#define CAROM_COLLISION_H

#include "base.h"
#include "math.h"

/* The most vertices a polygon may have. */
#define CAROM_MAX_POLYGON_VERTICES 8

/* Tolerance in metres: vertices closer than this are duplicates, and a vertex closer than this to
 * the line through its neighbours is collinear with them. */
#define CAROM_POLYGON_WELD_TOLERANCE 0.0025
/* The smallest circle radius (m): the same as the shortest polygon edge. */
#define CAROM_MIN_RADIUS CAROM_POLYGON_WELD_TOLERANCE
/* The smallest box half extent (m): a box's shortest edge is then the shortest polygon edge. */
#define CAROM_MIN_BOX_HALF_EXTENT (0.5 * CAROM_POLYGON_WELD_TOLERANCE)

/* A circle: center in the body frame (m), radius (m, > 0). */
typedef struct carom_circle {
    carom_vec2 center;
    double radius;
} carom_circle;

/* A convex polygon in the body frame, vertices counter-clockwise, normals[i] the outward unit
 * normal of the edge from vertices[i] to vertices[i + 1]. Make one with carom_make_polygon() or
 * carom_make_box(); a hand-filled struct is re-validated when a shape is created from it (set
 * radius too: 0 for sharp corners). A segment is stored internally as a polygon of two vertices,
 * and a capsule as a polygon of two vertices (its two centres) with a radius.
 *
 * radius rounds the polygon: the shape is every point within radius of the polygon (its
 * vertices and edges are then its *core*), so its faces move out by radius and its corners
 * become arcs. carom_make_polygon and carom_make_box give 0 (sharp); carom_make_rounded_polygon,
 * carom_make_rounded_box and carom_make_capsule_polygon set it. A shape takes radius 0 or at
 * least CAROM_MIN_RADIUS (m), finite. */
typedef struct carom_polygon {
    carom_vec2 vertices[CAROM_MAX_POLYGON_VERTICES];
    carom_vec2 normals[CAROM_MAX_POLYGON_VERTICES];
    carom_vec2 centroid; /* area centroid of the core (m, body frame) */
    int count;           /* number of vertices */
    double radius;       /* rounding radius (m, >= 0; 0: sharp corners) */
} carom_polygon;

/* A capsule: the points within radius of the segment from center1 to center2 (body frame, m): a
 * rectangle with two half-disc ends. The centres are at least CAROM_POLYGON_WELD_TOLERANCE apart
 * (closer, it is a circle: use one), radius at least CAROM_MIN_RADIUS. */
typedef struct carom_capsule {
    carom_vec2 center1, center2;
    double radius;
} carom_capsule;

/* A line segment between two distinct points in the body frame, meant for static walls. It has
 * no area and so no mass. Both sides collide. */
typedef struct carom_segment {
    carom_vec2 point1, point2;
} carom_segment;

/* One segment of a chain: the segment from point1 to point2 plus its neighbours' far ends
 * (ghost1 before point1, ghost2 after point2), which tell the contact tests whether a joint is a
 * corner that can be hit or a seam that must be slid over. has_ghost is 0 at an open chain's
 * ends. Both sides collide, unless one_sided: then only the right side (the side of the normal
 * right_perp(point2 - point1)), and a shape whose center is on the left passes through. */
typedef struct carom_chain_segment {
    carom_vec2 ghost1, point1, point2, ghost2;
    int has_ghost1, has_ghost2;
    int one_sided;
} carom_chain_segment;

/* Mass properties of a shape or body. */
typedef struct carom_mass_data {
    double mass;               /* kg */
    carom_vec2 center;         /* center of mass, body frame (m) */
    double rotational_inertia; /* about the center of mass, kg·m² */
} carom_mass_data;

/* One point of a contact manifold. */
typedef struct carom_manifold_point {
    carom_vec2 point;  /* world frame, midway between the two surfaces (m) */
    double separation; /* signed distance along the normal; negative when overlapping (m) */
    uint32_t id;       /* feature id: same id on the next step means the same point */
} carom_manifold_point;

/* The contact between two shapes: up to two points sharing one normal. */
typedef struct carom_manifold {
    carom_vec2 normal; /* world frame unit vector pointing from shape A to shape B */
    carom_manifold_point points[2];
    int point_count; /* 0 when the shapes are farther apart than the speculative distance */
} carom_manifold;

#ifdef __cplusplus
extern "C" {
#endif

/* Build a convex polygon from 3..CAROM_MAX_POLYGON_VERTICES points in either winding (or any
 * order). The hull is computed; input with duplicate, collinear or interior (concave) points is
 * refused with CAROM_ERROR_INVALID_POLYGON, too many points with CAROM_ERROR_TOO_MANY_VERTICES,
 * NaN or infinity with CAROM_ERROR_NOT_FINITE. On failure *out is left unchanged and
 * carom_last_error() names the problem. The result winds counter-clockwise. */
CAROM_API carom_status carom_make_polygon(const carom_vec2* points, int count, carom_polygon* out);

/* A box with half extents hx, hy (m, each at least CAROM_MIN_BOX_HALF_EXTENT), centered at
 * center (body frame) and turned by angle (rad). Smaller or non-finite extents are refused with
 * CAROM_ERROR_OUT_OF_RANGE or CAROM_ERROR_NOT_FINITE. */
CAROM_API carom_status carom_make_box(double half_width, double half_height, carom_vec2 center,
                                      double angle, carom_polygon* out);

/* ---- Capsules and rounded polygons (shape kinds of issue 16) --------------------------------
 * Both are carom_polygons with a radius, so every function below that takes a polygon (mass,
 * bounding box, contact tests, ray cast, time of impact) takes them too. */

/* carom_make_polygon's polygon, rounded by radius (m: 0, or finite and at least
 * CAROM_MIN_RADIUS; otherwise CAROM_ERROR_OUT_OF_RANGE or CAROM_ERROR_NOT_FINITE). */
CAROM_API carom_status carom_make_rounded_polygon(const carom_vec2* points, int count,
                                                  double radius, carom_polygon* out);
/* carom_make_box's box rounded by radius: the shape is radius wider on every side than the
 * half extents say, with round corners. */
CAROM_API carom_status carom_make_rounded_box(double half_width, double half_height,
                                              carom_vec2 center, double angle, double radius,
                                              carom_polygon* out);
/* A capsule as the two-vertex polygon the contact tests take (vertices center1, center2).
 * Refused: centres closer than CAROM_POLYGON_WELD_TOLERANCE (CAROM_ERROR_INVALID_POLYGON: use a
 * circle), radius below CAROM_MIN_RADIUS (CAROM_ERROR_OUT_OF_RANGE), NaN or infinity. */
CAROM_API carom_status carom_make_capsule_polygon(const carom_capsule* capsule,
                                                  carom_polygon* out);

/* ---- Convex decomposition of concave polygons (issue 16) ------------------------------------ */

/* The most vertices carom_decompose_polygon takes, and the most pieces it can give (a
 * triangulation's count: an array of CAROM_MAX_DECOMPOSE_PIECES always holds the result). */
#define CAROM_MAX_DECOMPOSE_VERTICES 128
#define CAROM_MAX_DECOMPOSE_PIECES (CAROM_MAX_DECOMPOSE_VERTICES - 2)

/* Split a simple polygon (3..CAROM_MAX_DECOMPOSE_VERTICES points in order along its outline,
 * either winding, concave or not) into convex pieces of at most CAROM_MAX_POLYGON_VERTICES
 * vertices, each a carom_make_polygon result (counter-clockwise, body frame as the points). The
 * pieces tile the outline: every piece vertex is one of the points, bit for bit, the pieces do
 * not overlap, and their areas sum to the outline's. A vertex within CAROM_POLYGON_WELD_TOLERANCE
 * of the straight line between its neighbours is not kept (the outline moves by less than the
 * tolerance; exactly collinear points change nothing). The split is deterministic: the fattest
 * triangulation, merged across diagonals while the pieces stay convex (docs/guide.md).
 *
 * Writes the pieces to pieces[0 .. *piece_count - 1] (capacity of them at most; pieces may be
 * NULL when capacity is 0). Refused, with carom_last_error() naming the vertices or edges:
 * NULL points or piece_count (CAROM_ERROR_NULL_ARGUMENT); fewer than 3 points, two points closer
 * than the weld tolerance, all points on one line (no area), two edges that cross or touch
 * (self-intersection: the message names both edges), an edge folding back along its neighbour,
 * a vertex closer than the tolerance to an edge it is not on, or an outline too thin for pieces
 * carom_make_polygon accepts (CAROM_ERROR_INVALID_POLYGON); more than
 * CAROM_MAX_DECOMPOSE_VERTICES points (CAROM_ERROR_TOO_MANY_VERTICES); NaN or infinity
 * (CAROM_ERROR_NOT_FINITE) or magnitudes above CAROM_MAX_MAGNITUDE (CAROM_ERROR_OUT_OF_RANGE);
 * more pieces than capacity (CAROM_ERROR_BUFFER_TOO_SMALL, *piece_count then says how many are
 * needed). On any other failure *piece_count is 0. */
CAROM_API carom_status carom_decompose_polygon(const carom_vec2* points, int count,
                                               carom_polygon* pieces, int capacity,
                                               int* piece_count);

/* Mass of a circle or polygon of the given density (kg/m², >= 0). Segments have none. A rounded
 * polygon's (a capsule's) mass is exact: the core, a strip of width radius along each edge and a
 * disc sector at each corner. */
CAROM_API carom_mass_data carom_compute_circle_mass(const carom_circle* circle, double density);
CAROM_API carom_mass_data carom_compute_polygon_mass(const carom_polygon* polygon, double density);

/* Bounding boxes of shapes placed by a transform. */
CAROM_API carom_aabb carom_compute_circle_aabb(const carom_circle* circle, carom_transform xf);
CAROM_API carom_aabb carom_compute_polygon_aabb(const carom_polygon* polygon, carom_transform xf);
CAROM_API carom_aabb carom_compute_segment_aabb(const carom_segment* segment, carom_transform xf);

/* A segment as a two-vertex polygon, the form the contact tests take. */
CAROM_API carom_polygon carom_make_segment_polygon(const carom_segment* segment);

/* Contact manifolds by the separating axis test. The normal points from A to B; points are
 * kept while their separation is at most speculative_distance (m, >= 0), so that approaching
 * shapes can be stopped before they overlap. Swapping A and B gives the same points with the
 * normal negated, except when two faces are within half a millimetre of a tie, where the
 * reference face stays on A so that it does not flip from step to step. */
CAROM_API carom_manifold carom_collide_circles(const carom_circle* a, carom_transform xfa,
                                               const carom_circle* b, carom_transform xfb,
                                               double speculative_distance);
/* Polygon (or segment polygon) A against circle B: the axis of least penetration over the
 * polygon's face normals, or, in a vertex region, the axis from the nearest vertex to the
 * circle's center. */
CAROM_API carom_manifold carom_collide_polygon_and_circle(const carom_polygon* a,
                                                          carom_transform xfa,
                                                          const carom_circle* b,
                                                          carom_transform xfb,
                                                          double speculative_distance);
/* Polygon A against polygon B: separating axes over every face normal of both; the least
 * penetration (the minimum translation distance) picks the reference face, and the incident
 * face of the other polygon is clipped against it for up to two points. */
CAROM_API carom_manifold carom_collide_polygons(const carom_polygon* a, carom_transform xfa,
                                                const carom_polygon* b, carom_transform xfb,
                                                double speculative_distance);

/* Chain segment A against polygon or circle B: the segment's own test, except that a contact
 * whose normal only a joint could produce is corrected. At a flat or concave joint (seen from
 * B's side) the normal becomes the segment's face normal, so a body sliding across the seam does
 * not catch on it; at a convex joint normals between the two segments' face normals are kept
 * and others are left to the neighbouring segment. */
CAROM_API carom_manifold carom_collide_chain_segment_and_polygon(const carom_chain_segment* a,
                                                                 carom_transform xfa,
                                                                 const carom_polygon* b,
                                                                 carom_transform xfb,
                                                                 double speculative_distance);
CAROM_API carom_manifold carom_collide_chain_segment_and_circle(const carom_chain_segment* a,
                                                                carom_transform xfa,
                                                                const carom_circle* b,
                                                                carom_transform xfb,
                                                                double speculative_distance);

/* ---- Ray casts ----------------------------------------------------------------------------- */

/* A ray from origin along translation (m, world frame), tested for t in [0, max_fraction] of
 * the translation. */
typedef struct carom_ray_input {
    carom_vec2 origin;
    carom_vec2 translation;
    double max_fraction;
} carom_ray_input;

typedef struct carom_cast_output {
    carom_vec2 point;  /* where the ray enters the shape (world frame) */
    carom_vec2 normal; /* the surface normal there, facing the ray's origin */
    double fraction;   /* of the translation */
    int hit;           /* 0: no hit (also when the origin is inside a circle or polygon) */
} carom_cast_output;

CAROM_API carom_cast_output carom_ray_cast_circle(const carom_ray_input* ray,
                                                  const carom_circle* circle, carom_transform xf);
/* A polygon of 3 or more vertices, or a segment as a two-vertex polygon (hit from either side).
 * A rounded polygon or capsule is hit where the ray enters its rounded outline. */
CAROM_API carom_cast_output carom_ray_cast_polygon(const carom_ray_input* ray,
                                                   const carom_polygon* polygon,
                                                   carom_transform xf);

/* ---- Time of impact ------------------------------------------------------------------------ */

/* The motion of a body over one step, for continuous collision: its center of mass moves in a
 * straight line from c1 (t = 0) to c2 (t = 1) while it turns steadily by delta_angle from q1. */
typedef struct carom_sweep {
    carom_vec2 local_center; /* center of mass in the body frame (m) */
    carom_vec2 c1, c2;       /* world center of mass at t = 0 and t = 1 (m) */
    carom_rot q1;            /* rotation at t = 0 */
    double delta_angle;      /* turn over the sweep (rad); may exceed pi */
} carom_sweep;

/* The body's pose at t in [0, 1]. */
CAROM_API carom_transform carom_sweep_get_transform(const carom_sweep* sweep, double t);

/* A circle, polygon or segment (as a two-vertex polygon), for the time-of-impact test and the
 * world's shape-overlap query. */
typedef struct carom_convex_shape {
    int is_circle;
    carom_circle circle;
    carom_polygon polygon;
} carom_convex_shape;

typedef enum carom_toi_state {
    CAROM_TOI_SEPARATED,  /* no contact during the sweep */
    CAROM_TOI_HIT,        /* first contact at t */
    CAROM_TOI_OVERLAPPED  /* already within `target` of each other at t = 0 */
} carom_toi_state;

typedef struct carom_toi_output {
    carom_toi_state state;
    double t; /* in [0, 1] */
} carom_toi_output;

/* When shapes A and B, moving along their sweeps, first come within `target` (m, >= 0) of each
 * other. When neither turns, this is the swept separating-axis test and exact: on every face
 * normal of both polygons, and on the axis across the relative motion, the time the projections
 * start and stop overlapping is solved for; the impact is the latest start, if it comes before
 * the earliest end. A circle's axis is the one to the nearest feature at the moment of impact
 * (a face normal, or the line from a vertex), solved exactly as a ray against the polygon grown
 * by the radius. Then t is the exact touching time and target only decides OVERLAPPED. When
 * either turns, the test advances conservatively (Mirtich): it steps t by the separation, measured
 * on an axis, divided by a bound on how fast it can close there (relative speed of the centers
 * along that axis plus each turn times the shape's reach), so it can never step past a contact;
 * it returns the first t at which the separation is below target (target should then be > 0),
 * or SEPARATED. */
CAROM_API carom_toi_output carom_time_of_impact(const carom_convex_shape* a, const carom_sweep* sweep_a,
                                                const carom_convex_shape* b, const carom_sweep* sweep_b,
                                                double target);

#ifdef __cplusplus
}
#endif

#endif
