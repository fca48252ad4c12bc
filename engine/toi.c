/* Time of impact: the swept separating-axis test, and conservative advancement for turning
 * bodies. Pure functions: see collision.h for the contract.
 *
 * For two convex polygons in translation the Minkowski difference is a convex polygon whose
 * edges are parallel to the edges of the two shapes, so the face normals of both are all the
 * separating axes there are, and the latest entry over them is the exact first contact. The axis
 * across the relative motion is added as the seed method prescribes; it can only confirm a miss.
 * A circle grows the polygon by its radius: the boundary is then offset edges and vertex arcs,
 * and the first contact is the first of the center's straight path with either (the arcs are
 * the "axis to the nearest vertex" of the static test, taken at the moment of impact).
 *
 * Rotation makes the projections move non-linearly. Conservative advancement keeps the
 * guarantee without solving for it. The gap is measured on an axis: the gap between the two
 * shapes' projections on it (the face normal of largest separation for polygons, the axis to
 * the nearest feature for a circle), a lower bound on their distance. On that axis, held fixed,
 * no point of a shape turning by delta_angle about its center of mass moves further than
 * |delta_angle| * reach, so the gap cannot close faster than the relative center motion along
 * the axis + |delta_angle_a| * reach_a + |delta_angle_b| * reach_b per unit of t, and stepping t
 * by gap / bound never crosses a contact. Taking the motion along the axis, not its whole
 * length, is what clears in one evaluation a body that slides along a wall or leaves it, the
 * most of the pairs a sweep meets. */
#include "core.h"

#include "sat.h"
#include "toi.h"

#include "carom/collision.h"

#include <float.h>
#include <math.h>

#define MAX_ADVANCE_ITERATIONS 256

carom_transform carom_sweep_get_transform(const carom_sweep* sweep, double t) {
    carom_transform xf;
    carom_vec2 center = carom_add(sweep->c1, carom_scale(t, carom_sub(sweep->c2, sweep->c1)));
    /* at t = 0 the turn is exactly q1: no sine and cosine of zero */
    xf.q = sweep->delta_angle == 0.0 || t == 0.0
               ? sweep->q1
               : carom_mul_rot(carom_make_rot(t * sweep->delta_angle), sweep->q1);
    xf.p = carom_sub(center, carom_rotate(xf.q, sweep->local_center));
    return xf;
}

/* The polygon placed by xf: only its `count` vertices and normals are written (a whole
 * polygon is 288 bytes, and the conservative advancement places one at every step). */
static void place_polygon(const carom_polygon* polygon, carom_transform xf, carom_polygon* out) {
    out->count = polygon->count;
    out->radius = polygon->radius;
    for (int i = 0; i < polygon->count; ++i) {
        out->vertices[i] = carom_transform_point(xf, polygon->vertices[i]);
        out->normals[i] = carom_rotate(xf.q, polygon->normals[i]);
    }
    out->centroid = carom_transform_point(xf, polygon->centroid);
}

/* A shape on its sweep, placed at one moment of it. A shape whose sweep neither moves nor turns
 * (a static wall) is placed once for the whole test. */
typedef struct placed_shape {
    const carom_toi_shape* shape;
    const carom_sweep* sweep;
    bool still;
    carom_vec2 center;     /* a circle's center, placed */
    carom_polygon polygon; /* a polygon, placed */
} placed_shape;

static void place_at(placed_shape* placed, double t) {
    carom_transform xf = carom_sweep_get_transform(placed->sweep, t);
    if (placed->shape->is_circle) {
        placed->center = carom_transform_point(xf, placed->shape->circle->center);
    } else {
        place_polygon(placed->shape->polygon, xf, &placed->polygon);
    }
}

static void place_start(placed_shape* placed, const carom_toi_shape* shape,
                        const carom_sweep* sweep) {
    placed->shape = shape;
    placed->sweep = sweep;
    placed->still = sweep->delta_angle == 0.0 && sweep->c1.x == sweep->c2.x &&
                    sweep->c1.y == sweep->c2.y;
    place_at(placed, 0.0);
}

/* A lower bound on the distance between two placed shapes (negative when they overlap), and
 * the unit axis, from B towards A, on which it is measured: the gap between their projections
 * on that axis, min over A of axis . a minus max over B of axis . b (radii included). A zero
 * axis means the bound is not such a gap (rounded polygons: the distance of their cores). */
typedef struct axis_gap {
    double gap;
    carom_vec2 axis;
} axis_gap;

/* How far the polygon reaches along the axis: its support, radius included. */
static double polygon_support(const carom_polygon* polygon, carom_vec2 axis) {
    double best = -DBL_MAX;
    for (int i = 0; i < polygon->count; ++i) {
        best = carom_max_d(best, carom_dot(axis, polygon->vertices[i]));
    }
    return best + polygon->radius;
}

/* A circle (center, radius) against a placed polygon: the axis is the polygon's face of
 * greatest separation from the center, or, where the center lies beyond that face's end, the
 * line from the face's nearer vertex to the center. The gap is measured on the axis chosen, so
 * it bounds the distance whichever axis it is. */
static axis_gap circle_polygon_gap(carom_vec2 center, double radius, const carom_polygon* polygon) {
    double face_separation;
    int face = carom_polygon_face_toward(polygon, center, &face_separation);
    carom_vec2 vertex;
    axis_gap out;
    if (carom_polygon_vertex_region(polygon, face, face_separation, center, &vertex)) {
        carom_vec2 offset = carom_sub(center, vertex);
        double distance = carom_length(offset);
        if (distance > 0.0) {
            out.axis = carom_scale(1.0 / distance, offset);
            out.gap = carom_dot(out.axis, center) - radius - polygon_support(polygon, out.axis);
            return out;
        }
    }
    /* a face's own vertices are the polygon's farthest points along its normal */
    out.axis = polygon->normals[face];
    out.gap = face_separation - radius - polygon->radius;
    return out;
}

static axis_gap flipped(axis_gap g) {
    g.axis = carom_neg(g.axis);
    return g;
}

static axis_gap separation(const placed_shape* a, const placed_shape* b) {
    axis_gap out = {0.0, {0.0, 0.0}};
    if (a->shape->is_circle && b->shape->is_circle) {
        carom_vec2 offset = carom_sub(a->center, b->center);
        double distance = carom_length(offset);
        out.gap = distance - a->shape->circle->radius - b->shape->circle->radius;
        if (distance > 0.0) {
            out.axis = carom_scale(1.0 / distance, offset);
        }
        return out;
    }
    if (a->shape->is_circle) {
        return circle_polygon_gap(a->center, a->shape->circle->radius, &b->polygon);
    }
    if (b->shape->is_circle) {
        return flipped(circle_polygon_gap(b->center, b->shape->circle->radius, &a->polygon));
    }
    const carom_polygon* pa = &a->polygon;
    const carom_polygon* pb = &b->polygon;
    double rounding = pa->radius + pb->radius;
    if (rounding > 0.0) {
        /* the face separation alone is no bound worth having here: two capsules end to end
         * have a face separation of zero however far apart they are */
        out.gap = carom_polygon_core_distance(pa, pb) - rounding;
        return out;
    }
    /* A's face e: B lies beyond it by the separation, so the axis from B to A is -normal */
    int edge_a = 0, edge_b = 0;
    double separation_a = carom_polygon_max_separation(pa, pb, DBL_MAX, &edge_a);
    double separation_b = carom_polygon_max_separation(pb, pa, DBL_MAX, &edge_b);
    if (separation_a >= separation_b) {
        out.gap = separation_a;
        out.axis = carom_neg(pa->normals[edge_a]);
    } else {
        out.gap = separation_b;
        out.axis = pb->normals[edge_b];
    }
    return out;
}

/* How far a point of the shape's surface can move per radian the body turns: its farthest
 * vertex's distance from the center of mass (plus a rounded polygon's radius). A circle turning about its own center does not
 * move its surface, so only its center's distance counts. */
static double reach(const carom_toi_shape* shape, carom_vec2 local_center) {
    if (shape->is_circle) {
        return carom_distance(shape->circle->center, local_center);
    }
    /* the root of the largest square: the largest root, with one root */
    double r2 = 0.0;
    for (int i = 0; i < shape->polygon->count; ++i) {
        r2 = carom_max_d(r2, carom_distance_squared(shape->polygon->vertices[i], local_center));
    }
    double r = sqrt(r2);
    return shape->polygon->radius > 0.0 ? r + shape->polygon->radius : r;
}

typedef struct overlap_window {
    double first; /* latest entry so far */
    double last;  /* earliest exit so far */
} overlap_window;

/* Narrow the window by one axis: A's projection [a_lo, a_hi] moves by `speed` per unit t
 * against B's fixed [b_lo, b_hi]. Returns false if they never overlap on this axis. */
static bool narrow_window(overlap_window* w, double a_lo, double a_hi, double b_lo, double b_hi,
                          double speed) {
    if (speed == 0.0) {
        return a_hi >= b_lo && b_hi >= a_lo;
    }
    double enter = speed > 0.0 ? (b_lo - a_hi) / speed : (b_hi - a_lo) / speed;
    double leave = speed > 0.0 ? (b_hi - a_lo) / speed : (b_lo - a_hi) / speed;
    w->first = carom_max_d(w->first, enter);
    w->last = carom_min_d(w->last, leave);
    return true;
}

static void project(const carom_polygon* p, carom_vec2 axis, double* lo, double* hi) {
    *lo = DBL_MAX;
    *hi = -DBL_MAX;
    for (int i = 0; i < p->count; ++i) {
        double s = carom_dot(axis, p->vertices[i]);
        *lo = carom_min_d(*lo, s);
        *hi = carom_max_d(*hi, s);
    }
}

static bool narrow_on_axis(overlap_window* w, const carom_polygon* a, const carom_polygon* b,
                           carom_vec2 axis, carom_vec2 motion) {
    double a_lo, a_hi, b_lo, b_hi;
    project(a, axis, &a_lo, &a_hi);
    project(b, axis, &b_lo, &b_hi);
    return narrow_window(w, a_lo, a_hi, b_lo, b_hi, carom_dot(axis, motion));
}

/* Swept SAT for two translating polygons: A moves by `motion` relative to B. */
static double swept_polygons(const carom_polygon* a, const carom_polygon* b, carom_vec2 motion) {
    overlap_window w = {-DBL_MAX, DBL_MAX};
    for (int i = 0; i < a->count; ++i) {
        if (!narrow_on_axis(&w, a, b, a->normals[i], motion)) {
            return DBL_MAX;
        }
    }
    for (int i = 0; i < b->count; ++i) {
        if (!narrow_on_axis(&w, a, b, b->normals[i], motion)) {
            return DBL_MAX;
        }
    }
    carom_vec2 across = carom_normalize(carom_left_perp(motion));
    if (carom_length_squared(across) > 0.0 && !narrow_on_axis(&w, a, b, across, motion)) {
        return DBL_MAX;
    }
    /* an overlap window wholly before t = 0 lies in the past: no impact ahead */
    return w.first <= w.last && w.last >= 0.0 ? w.first : DBL_MAX;
}

/* First t >= 0 at which |p + t d - center| = radius, or DBL_MAX. */
static double ray_circle(carom_vec2 p, carom_vec2 d, carom_vec2 center, double radius) {
    carom_vec2 m = carom_sub(p, center);
    double a = carom_dot(d, d);
    double b = carom_dot(m, d);
    double c = carom_dot(m, m) - radius * radius;
    if (a == 0.0 || b >= 0.0) {
        return DBL_MAX; /* not approaching */
    }
    double discriminant = b * b - a * c;
    if (discriminant < 0.0) {
        return DBL_MAX;
    }
    double t = (-b - sqrt(discriminant)) / a;
    return t >= 0.0 ? t : DBL_MAX;
}

/* A circle's center moving from p by d against a fixed polygon grown by radius. */
static double swept_circle_polygon(carom_vec2 p, double radius, carom_vec2 d,
                                   const carom_polygon* polygon) {
    double first = DBL_MAX;
    for (int i = 0; i < polygon->count; ++i) {
        carom_vec2 n = polygon->normals[i];
        carom_vec2 v1 = polygon->vertices[i];
        carom_vec2 v2 = polygon->vertices[(i + 1) % polygon->count];
        double approach = carom_dot(n, d);
        if (approach < 0.0) {
            double t = (radius - carom_dot(n, carom_sub(p, v1))) / approach;
            carom_vec2 at = carom_mul_add(p, t, d);
            carom_vec2 edge = carom_sub(v2, v1);
            double along = carom_dot(carom_sub(at, v1), edge);
            if (t >= 0.0 && along >= 0.0 && along <= carom_dot(edge, edge)) {
                first = carom_min_d(first, t);
            }
        }
        first = carom_min_d(first, ray_circle(p, d, v1, radius));
    }
    return first;
}

/* Two rounded polygons (at least one radius) translating: A's core moves by `motion` relative to
 * B's. They touch when the cores come within the sum of the radii, which happens first at a
 * vertex of one against an edge or a vertex of the other: each vertex is swept as a circle of
 * that radius against the other core (pa, pb placed). */
static double swept_rounded_polygons(const carom_polygon* pa, const carom_polygon* pb,
                                     carom_vec2 motion) {
    double rounding = pa->radius + pb->radius;
    double first = DBL_MAX;
    for (int i = 0; i < pa->count; ++i) {
        first = carom_min_d(first, swept_circle_polygon(pa->vertices[i], rounding, motion, pb));
    }
    for (int i = 0; i < pb->count; ++i) {
        first = carom_min_d(first,
                            swept_circle_polygon(pb->vertices[i], rounding, carom_neg(motion), pa));
    }
    return first;
}

/* Exact first contact of two non-turning shapes, placed at t = 0; DBL_MAX if none for t >= 0. */
static double translation_toi(const placed_shape* a, const placed_shape* b, carom_vec2 motion) {
    if (a->shape->is_circle && b->shape->is_circle) {
        return ray_circle(a->center, motion, b->center,
                          a->shape->circle->radius + b->shape->circle->radius);
    }
    if (a->shape->is_circle) {
        return swept_circle_polygon(a->center, a->shape->circle->radius + b->polygon.radius, motion,
                                    &b->polygon);
    }
    if (b->shape->is_circle) {
        return swept_circle_polygon(b->center, b->shape->circle->radius + a->polygon.radius,
                                    carom_neg(motion), &a->polygon);
    }
    if (a->polygon.radius + b->polygon.radius > 0.0) {
        return swept_rounded_polygons(&a->polygon, &b->polygon, motion);
    }
    return swept_polygons(&a->polygon, &b->polygon, motion);
}

/* How far the placed shape's surface can move along any axis by its turn over the sweep. */
static double turn_reach(const placed_shape* placed) {
    double turn = fabs(placed->sweep->delta_angle);
    return turn == 0.0 ? 0.0 : turn * reach(placed->shape, placed->sweep->local_center);
}

/* A bound on how fast (per unit t) the gap can close. On a gap measured along a fixed axis u
 * (from B towards A) it is the relative motion of the centers towards each other along u, plus
 * `turning`: a point at distance r from a turning body's center moves along any axis at most
 * r per radian, so each projection's end moves at most reach * |delta_angle| beyond its
 * center's motion. Without an axis, the whole relative speed of the centers counts. It may be
 * zero or negative: the gap then never shrinks. */
static double closing_speed(const axis_gap* gap, carom_vec2 motion, double turning) {
    bool has_axis = gap->axis.x != 0.0 || gap->axis.y != 0.0;
    return (has_axis ? -carom_dot(gap->axis, motion) : carom_length(motion)) + turning;
}

/* Conservative advancement from t = 0, where the shapes (placed there) are farther apart than
 * target. Each step takes t to where the gap, shrinking at most at its closing speed along the
 * axis it was measured on, could have come down to half the target, never below: the gap on
 * that axis is a lower bound on the distance, so no contact lies between the steps. */
static carom_toi_output advance(placed_shape* a, placed_shape* b, carom_vec2 motion,
                                double target, axis_gap gap) {
    carom_toi_output out = {CAROM_TOI_SEPARATED, 1.0};
    double turning = turn_reach(a) + turn_reach(b);
    double t = 0.0;
    for (int i = 0; i < MAX_ADVANCE_ITERATIONS; ++i) {
        double closing = closing_speed(&gap, motion, turning);
        if (closing <= 0.0) {
            return out;
        }
        t += (gap.gap - 0.5 * target) / closing;
        if (t >= 1.0) {
            return out;
        }
        if (!a->still) {
            place_at(a, t);
        }
        if (!b->still) {
            place_at(b, t);
        }
        gap = separation(a, b);
        if (gap.gap < target) {
            break;
        }
    }
    out.state = CAROM_TOI_HIT;
    out.t = t;
    return out;
}

carom_toi_output carom_time_of_impact_in_place(const carom_toi_shape* a, const carom_sweep* sweep_a,
                                               const carom_toi_shape* b, const carom_sweep* sweep_b,
                                               double target) {
    carom_toi_output out = {CAROM_TOI_OVERLAPPED, 0.0};
    placed_shape placed_a, placed_b;
    place_start(&placed_a, a, sweep_a);
    place_start(&placed_b, b, sweep_b);
    axis_gap gap = separation(&placed_a, &placed_b);
    if (gap.gap <= target) {
        return out;
    }
    carom_vec2 motion = carom_sub(carom_sub(sweep_a->c2, sweep_a->c1),
                                  carom_sub(sweep_b->c2, sweep_b->c1));
    bool turning = sweep_a->delta_angle != 0.0 || sweep_b->delta_angle != 0.0;
    if (turning) {
        return advance(&placed_a, &placed_b, motion, target, gap);
    }
    /* Most pairs a sweep meets are not closing, or not by their gap: the bound of the
     * advancement rules them out before the exact test. */
    out.state = CAROM_TOI_SEPARATED;
    out.t = 1.0;
    double closing = closing_speed(&gap, motion, 0.0);
    if (closing <= 0.0 || gap.gap - closing > target) {
        return out;
    }
    double t = translation_toi(&placed_a, &placed_b, motion);
    out.state = t <= 1.0 ? CAROM_TOI_HIT : CAROM_TOI_SEPARATED;
    out.t = t <= 1.0 ? carom_max_d(t, 0.0) : 1.0;
    return out;
}

static carom_toi_shape in_place(const carom_convex_shape* shape) {
    carom_toi_shape out = {shape->is_circle != 0, &shape->circle, &shape->polygon};
    return out;
}

carom_toi_output carom_time_of_impact(const carom_convex_shape* a, const carom_sweep* sweep_a,
                                      const carom_convex_shape* b, const carom_sweep* sweep_b,
                                      double target) {
    carom_toi_shape shape_a = in_place(a);
    carom_toi_shape shape_b = in_place(b);
    return carom_time_of_impact_in_place(&shape_a, sweep_a, &shape_b, sweep_b, target);
}
