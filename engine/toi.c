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
 * guarantee without solving for it: no point of a shape turning by delta_angle about its center
 * of mass moves further than |delta_angle| * reach, so the gap cannot close faster than
 * |relative center motion| + |delta_angle_a| * reach_a + |delta_angle_b| * reach_b per unit of
 * t, and stepping t by gap / bound never crosses a contact. The gap used is a lower bound on the
 * distance (the largest face separation for polygons), which only makes the steps smaller. */
#include "core.h"

#include "sat.h"

#include "carom/collision.h"

#include <float.h>
#include <math.h>

#define MAX_ADVANCE_ITERATIONS 256

carom_transform carom_sweep_get_transform(const carom_sweep* sweep, double t) {
    carom_transform xf;
    carom_vec2 center = carom_add(sweep->c1, carom_scale(t, carom_sub(sweep->c2, sweep->c1)));
    xf.q = sweep->delta_angle == 0.0
               ? sweep->q1
               : carom_mul_rot(carom_make_rot(t * sweep->delta_angle), sweep->q1);
    xf.p = carom_sub(center, carom_rotate(xf.q, sweep->local_center));
    return xf;
}

static carom_polygon polygon_in_world(const carom_polygon* polygon, carom_transform xf) {
    carom_polygon out = *polygon;
    for (int i = 0; i < polygon->count; ++i) {
        out.vertices[i] = carom_transform_point(xf, polygon->vertices[i]);
        out.normals[i] = carom_rotate(xf.q, polygon->normals[i]);
    }
    out.centroid = carom_transform_point(xf, polygon->centroid);
    return out;
}

/* Lower bound on the distance between two placed shapes (negative when they overlap). */
static double separation(const carom_convex_shape* a, carom_transform xfa, const carom_convex_shape* b,
                         carom_transform xfb) {
    if (a->is_circle && b->is_circle) {
        carom_vec2 ca = carom_transform_point(xfa, a->circle.center);
        carom_vec2 cb = carom_transform_point(xfb, b->circle.center);
        return carom_distance(ca, cb) - a->circle.radius - b->circle.radius;
    }
    if (a->is_circle || b->is_circle) {
        const carom_convex_shape* polygon = a->is_circle ? b : a;
        const carom_convex_shape* circle = a->is_circle ? a : b;
        carom_transform xfp = a->is_circle ? xfb : xfa;
        carom_transform xfc = a->is_circle ? xfa : xfb;
        carom_manifold m = carom_collide_polygon_and_circle(&polygon->polygon, xfp, &circle->circle,
                                                            xfc, DBL_MAX);
        return m.points[0].separation;
    }
    carom_polygon pa = polygon_in_world(&a->polygon, xfa);
    carom_polygon pb = polygon_in_world(&b->polygon, xfb);
    double rounding = a->polygon.radius + b->polygon.radius;
    if (rounding > 0.0) {
        /* the face separation alone is no bound worth having here: two capsules end to end
         * have a face separation of zero however far apart they are */
        return carom_polygon_core_distance(&pa, &pb) - rounding;
    }
    int edge = 0;
    return carom_max_d(carom_polygon_max_separation(&pa, &pb, DBL_MAX, &edge),
                       carom_polygon_max_separation(&pb, &pa, DBL_MAX, &edge));
}

/* How far a point of the shape's surface can move per radian the body turns: its farthest
 * vertex's distance from the center of mass (plus a rounded polygon's radius). A circle turning about its own center does not
 * move its surface, so only its center's distance counts. */
static double reach(const carom_convex_shape* shape, carom_vec2 local_center) {
    if (shape->is_circle) {
        return carom_distance(shape->circle.center, local_center);
    }
    double r = 0.0;
    for (int i = 0; i < shape->polygon.count; ++i) {
        r = carom_max_d(r, carom_distance(shape->polygon.vertices[i], local_center));
    }
    return shape->polygon.radius > 0.0 ? r + shape->polygon.radius : r;
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

/* Exact first contact of two non-turning shapes; DBL_MAX if none for t >= 0. */
static double translation_toi(const carom_convex_shape* a, const carom_sweep* sweep_a,
                              const carom_convex_shape* b, const carom_sweep* sweep_b) {
    carom_transform xfa = carom_sweep_get_transform(sweep_a, 0.0);
    carom_transform xfb = carom_sweep_get_transform(sweep_b, 0.0);
    carom_vec2 motion = carom_sub(carom_sub(sweep_a->c2, sweep_a->c1),
                                  carom_sub(sweep_b->c2, sweep_b->c1));
    if (a->is_circle && b->is_circle) {
        return ray_circle(carom_transform_point(xfa, a->circle.center), motion,
                          carom_transform_point(xfb, b->circle.center),
                          a->circle.radius + b->circle.radius);
    }
    if (a->is_circle) {
        carom_polygon pb = polygon_in_world(&b->polygon, xfb);
        return swept_circle_polygon(carom_transform_point(xfa, a->circle.center),
                                    a->circle.radius + pb.radius, motion, &pb);
    }
    if (b->is_circle) {
        carom_polygon pa = polygon_in_world(&a->polygon, xfa);
        return swept_circle_polygon(carom_transform_point(xfb, b->circle.center),
                                    b->circle.radius + pa.radius, carom_neg(motion), &pa);
    }
    carom_polygon pa = polygon_in_world(&a->polygon, xfa);
    carom_polygon pb = polygon_in_world(&b->polygon, xfb);
    if (pa.radius + pb.radius > 0.0) {
        return swept_rounded_polygons(&pa, &pb, motion);
    }
    return swept_polygons(&pa, &pb, motion);
}

/* Conservative advancement from t = 0, which is known to be farther apart than target. */
static carom_toi_output advance(const carom_convex_shape* a, const carom_sweep* sweep_a,
                                const carom_convex_shape* b, const carom_sweep* sweep_b,
                                double target, double gap) {
    carom_toi_output out = {CAROM_TOI_SEPARATED, 1.0};
    double bound = carom_length(carom_sub(carom_sub(sweep_a->c2, sweep_a->c1),
                                          carom_sub(sweep_b->c2, sweep_b->c1))) +
                   fabs(sweep_a->delta_angle) * reach(a, sweep_a->local_center) +
                   fabs(sweep_b->delta_angle) * reach(b, sweep_b->local_center);
    if (bound == 0.0) {
        return out;
    }
    double t = 0.0;
    for (int i = 0; i < MAX_ADVANCE_ITERATIONS; ++i) {
        /* step so that the gap can shrink to target at most, never below */
        t += (gap - 0.5 * target) / bound;
        if (t >= 1.0) {
            return out;
        }
        gap = separation(a, carom_sweep_get_transform(sweep_a, t), b,
                         carom_sweep_get_transform(sweep_b, t));
        if (gap < target) {
            break;
        }
    }
    out.state = CAROM_TOI_HIT;
    out.t = t;
    return out;
}

carom_toi_output carom_time_of_impact(const carom_convex_shape* a, const carom_sweep* sweep_a,
                                      const carom_convex_shape* b, const carom_sweep* sweep_b,
                                      double target) {
    carom_toi_output out = {CAROM_TOI_OVERLAPPED, 0.0};
    double gap = separation(a, carom_sweep_get_transform(sweep_a, 0.0), b,
                            carom_sweep_get_transform(sweep_b, 0.0));
    if (gap <= target) {
        return out;
    }
    if (sweep_a->delta_angle != 0.0 || sweep_b->delta_angle != 0.0) {
        return advance(a, sweep_a, b, sweep_b, target, gap);
    }
    double t = translation_toi(a, sweep_a, b, sweep_b);
    out.state = t <= 1.0 ? CAROM_TOI_HIT : CAROM_TOI_SEPARATED;
    out.t = t <= 1.0 ? carom_max_d(t, 0.0) : 1.0;
    return out;
}
