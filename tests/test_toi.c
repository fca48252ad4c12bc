/* Time of impact: exact in translation against analytic answers, and never wrong in a fuzz of
 * random convex pairs with random motions, turning or not. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

static carom_convex_shape box_shape(double hx, double hy) {
    carom_convex_shape s = {0};
    cr_assert_eq(carom_make_box(hx, hy, carom_v2(0.0, 0.0), 0.0, &s.polygon), CAROM_OK);
    return s;
}

static carom_convex_shape circle_shape(double r) {
    carom_convex_shape s = {0};
    s.is_circle = 1;
    s.circle.radius = r;
    return s;
}

/* A sweep of a body with its center of mass at its origin. */
static carom_sweep translation(carom_vec2 from, carom_vec2 to, double angle) {
    carom_sweep s = {{0.0, 0.0}, from, to, carom_make_rot(angle), 0.0};
    return s;
}

Test(toi, box_against_box_in_translation_hits_at_the_analytic_time) {
    /* A 1x1 box from x = 0 to x = 10 against a 1x1 box at x = 6: faces meet at x = 5, t = 0.5 */
    carom_convex_shape a = box_shape(0.5, 0.5), b = box_shape(0.5, 0.5);
    carom_sweep sa = translation(carom_v2(0.0, 0.0), carom_v2(10.0, 0.0), 0.0);
    carom_sweep sb = translation(carom_v2(6.0, 0.3), carom_v2(6.0, 0.3), 0.0);
    carom_toi_output out = carom_time_of_impact(&a, &sa, &b, &sb, 0.0);
    cr_assert_eq(out.state, CAROM_TOI_HIT);
    cr_assert_float_eq(out.t, 0.5, 1e-12);
}

Test(toi, rotated_box_corner_against_a_box_hits_at_the_analytic_time) {
    /* a unit box turned 45 degrees reaches sqrt(0.5) along x; moving from x = 0 by 4 to a box
     * whose left face is at x = 3: contact when x + sqrt(0.5) = 3 */
    carom_convex_shape a = box_shape(0.5, 0.5), b = box_shape(0.5, 2.0);
    carom_sweep sa = translation(carom_v2(0.0, 0.0), carom_v2(4.0, 0.0), CAROM_PI / 4.0);
    carom_sweep sb = translation(carom_v2(3.5, 0.0), carom_v2(3.5, 0.0), 0.0);
    carom_toi_output out = carom_time_of_impact(&a, &sa, &b, &sb, 0.0);
    cr_assert_eq(out.state, CAROM_TOI_HIT);
    cr_assert_float_eq(out.t, (3.0 - sqrt(0.5)) / 4.0, 1e-4);
}

Test(toi, circle_against_box_face_and_corner_hit_at_the_analytic_times) {
    carom_convex_shape circle = circle_shape(0.5), box = box_shape(1.0, 1.0);
    carom_sweep sb = translation(carom_v2(0.0, 0.0), carom_v2(0.0, 0.0), 0.0);
    /* face: from x = -5 to x = 5 at y = 0; touches the face x = -1 when x = -1.5, t = 0.35 */
    carom_sweep face = translation(carom_v2(-5.0, 0.0), carom_v2(5.0, 0.0), 0.0);
    carom_toi_output out = carom_time_of_impact(&circle, &face, &box, &sb, 0.0);
    cr_assert_eq(out.state, CAROM_TOI_HIT);
    cr_assert_float_eq(out.t, 0.35, 1e-12);
    /* corner: along y = 1.3, the circle reaches the corner (-1, 1) when (x + 1)^2 + 0.09 = 0.25 */
    carom_sweep corner = translation(carom_v2(-5.0, 1.3), carom_v2(5.0, 1.3), 0.0);
    out = carom_time_of_impact(&circle, &corner, &box, &sb, 0.0);
    cr_assert_eq(out.state, CAROM_TOI_HIT);
    cr_assert_float_eq(out.t, (-1.0 - 0.4 + 5.0) / 10.0, 1e-12);
    /* the same against the box as A gives the same time */
    out = carom_time_of_impact(&box, &sb, &circle, &corner, 0.0);
    cr_assert_float_eq(out.t, 0.36, 1e-12);
    /* passing above the corner misses */
    carom_sweep miss = translation(carom_v2(-5.0, 1.6), carom_v2(5.0, 1.6), 0.0);
    cr_assert_eq(carom_time_of_impact(&circle, &miss, &box, &sb, 0.0).state, CAROM_TOI_SEPARATED);
}

Test(toi, circles_meeting_head_on_hit_at_the_analytic_time) {
    carom_convex_shape a = circle_shape(0.3), b = circle_shape(0.7);
    carom_sweep sa = translation(carom_v2(-5.0, 0.0), carom_v2(5.0, 0.0), 0.0);
    carom_sweep sb = translation(carom_v2(5.0, 0.0), carom_v2(-5.0, 0.0), 0.0);
    /* gap closes at 20 per unit t from 10 - 1 = 9 */
    carom_toi_output out = carom_time_of_impact(&a, &sa, &b, &sb, 0.0);
    cr_assert_eq(out.state, CAROM_TOI_HIT);
    cr_assert_float_eq(out.t, 9.0 / 20.0, 1e-12);
}

Test(toi, shapes_already_touching_report_overlapped) {
    carom_convex_shape a = box_shape(0.5, 0.5), b = box_shape(0.5, 0.5);
    carom_sweep sa = translation(carom_v2(0.0, 0.0), carom_v2(1.0, 0.0), 0.0);
    carom_sweep sb = translation(carom_v2(1.005, 0.0), carom_v2(1.005, 0.0), 0.0);
    cr_assert_eq(carom_time_of_impact(&a, &sa, &b, &sb, 0.01).state, CAROM_TOI_OVERLAPPED);
}

/* ---- Fuzz: random convex pairs, random motions -------------------------------------------- */

static uint64_t rng = 0x243f6a8885a308d3ull;
static double unit(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static double range(double lo, double hi) { return lo + (hi - lo) * unit(); }

static carom_convex_shape random_shape(void) {
    carom_convex_shape s = {0};
    if (unit() < 0.3) {
        s.is_circle = 1;
        s.circle.center = carom_v2(range(-0.2, 0.2), range(-0.2, 0.2));
        s.circle.radius = range(0.1, 0.8);
        return s;
    }
    for (;;) {
        int count = 3 + (int)(unit() * 6.0);
        carom_vec2 points[8];
        for (int i = 0; i < count; ++i) {
            double angle = 2.0 * CAROM_PI * (i + range(0.0, 0.8)) / count;
            double radius = range(0.2, 1.0);
            points[i] = carom_v2(radius * cos(angle), radius * sin(angle));
        }
        if (carom_make_polygon(points, count, &s.polygon) == CAROM_OK) {
            return s;
        }
    }
}

/* A crosses the origin region from a random side; B wanders near the origin, so that about
 * half the pairs meet. */
static carom_sweep random_sweep(bool turning, bool crossing) {
    carom_sweep s;
    s.local_center = carom_v2(range(-0.1, 0.1), range(-0.1, 0.1));
    if (crossing) {
        s.c1 = carom_v2(range(-5.0, 5.0), range(-5.0, 5.0));
        s.c2 = carom_add(carom_neg(s.c1), carom_v2(range(-3.0, 3.0), range(-3.0, 3.0)));
    } else {
        s.c1 = carom_v2(range(-1.5, 1.5), range(-1.5, 1.5));
        s.c2 = carom_add(s.c1, carom_v2(range(-2.0, 2.0), range(-2.0, 2.0)));
    }
    s.q1 = carom_make_rot(range(-CAROM_PI, CAROM_PI));
    s.delta_angle = turning ? range(-3.0, 3.0) : 0.0;
    return s;
}

/* The largest separation over the face normals of two placed polygons: zero exactly when they
 * touch, positive when apart (then a lower bound on their distance), negative when they overlap.
 * Circles use the exact contact test. */
static double placed_separation(const carom_convex_shape* a, carom_transform xa,
                                const carom_convex_shape* b, carom_transform xb) {
    if (a->is_circle || b->is_circle) {
        carom_manifold m;
        if (a->is_circle && b->is_circle) {
            m = carom_collide_circles(&a->circle, xa, &b->circle, xb, 1e9);
        } else if (b->is_circle) {
            m = carom_collide_polygon_and_circle(&a->polygon, xa, &b->circle, xb, 1e9);
        } else {
            m = carom_collide_polygon_and_circle(&b->polygon, xb, &a->circle, xa, 1e9);
        }
        return m.points[0].separation;
    }
    const carom_polygon* polygons[2] = {&a->polygon, &b->polygon};
    carom_transform placements[2] = {xa, xb};
    double best = -1e300;
    for (int side = 0; side < 2; ++side) {
        const carom_polygon* p = polygons[side];
        const carom_polygon* q = polygons[1 - side];
        for (int i = 0; i < p->count; ++i) {
            carom_vec2 n = carom_rotate(placements[side].q, p->normals[i]);
            carom_vec2 v = carom_transform_point(placements[side], p->vertices[i]);
            double deepest = 1e300;
            for (int j = 0; j < q->count; ++j) {
                carom_vec2 w = carom_transform_point(placements[1 - side], q->vertices[j]);
                deepest = fmin(deepest, carom_dot(n, carom_sub(w, v)));
            }
            best = fmax(best, deepest);
        }
    }
    return best;
}

/* Overlap at t beyond rounding. */
static bool overlapping(const carom_convex_shape* a, const carom_sweep* sa, const carom_convex_shape* b,
                        const carom_sweep* sb, double t) {
    return placed_separation(a, carom_sweep_get_transform(sa, t), b,
                             carom_sweep_get_transform(sb, t)) < -1e-9;
}

static void fuzz(bool turning, double target, double touch_tolerance) {
    int hits = 0, misses = 0, overlapped = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        carom_convex_shape a = random_shape(), b = random_shape();
        carom_sweep sa = random_sweep(turning, true), sb = random_sweep(turning, false);
        carom_toi_output out = carom_time_of_impact(&a, &sa, &b, &sb, target);
        if (out.state == CAROM_TOI_OVERLAPPED) {
            ++overlapped;
            continue;
        }
        double end = out.state == CAROM_TOI_HIT ? out.t : 1.0;
        for (int k = 0; k <= 1000; ++k) {
            double t = end * k / 1000.0;
            cr_assert_not(overlapping(&a, &sa, &b, &sb, t),
                          "trial %d: overlap at t = %.6f before the reported %s at %.6f", trial, t,
                          out.state == CAROM_TOI_HIT ? "hit" : "end", end);
        }
        if (out.state == CAROM_TOI_HIT) {
            ++hits;
            double gap = placed_separation(&a, carom_sweep_get_transform(&sa, out.t), &b,
                                           carom_sweep_get_transform(&sb, out.t));
            cr_assert_leq(gap, target + touch_tolerance,
                          "trial %d: gap %.3g at the hit t=%.6f (a %s %d, b %s %d; turn %g %g)",
                          trial, gap, out.t, a.is_circle ? "circle" : "polygon", a.polygon.count,
                          b.is_circle ? "circle" : "polygon", b.polygon.count, sa.delta_angle,
                          sb.delta_angle);
            cr_assert_geq(gap, -1e-9, "trial %d: overlapping at the hit (%.3g)", trial, gap);
        } else {
            ++misses;
        }
    }
    cr_log_info("%s: %d hits, %d misses, %d overlapped at start", turning ? "turning" : "moving",
                hits, misses, overlapped);
    cr_assert_gt(hits, 300);
    cr_assert_gt(misses, 300);
}

Test(toi, random_translating_pairs_are_never_missed_and_hits_touch, .timeout = 120) {
    fuzz(false, 0.0, 1e-9);
}

Test(toi, random_turning_pairs_are_never_missed_and_hits_are_within_target, .timeout = 120) {
    fuzz(true, 0.005, 1e-9);
}
