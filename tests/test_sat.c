/* Tests for engine/sat.c: the separating-axis contact tests of include/carom/collision.h.
 *
 * Every expected value is worked out by hand in the comments, not read back from the engine.
 * Rotated shapes and transforms are built with libm's cos and sin (not carom_make_rot or
 * carom_make_box with an angle), so that these tests check the SAT code alone; test_math.c
 * covers carom's own trig. The speculative distance is 0 except in the tests about it. */
#include <carom/carom.h>

#include "sat.h"

#include <criterion/criterion.h>

#include <math.h>

#define TOL 1e-12

/* ---- Helpers ---------------------------------------------------------------------------- */

static carom_rot libm_rot(double angle) {
    carom_rot q = {cos(angle), sin(angle)};
    return q;
}

static carom_transform xf_at(double x, double y) {
    carom_transform xf = {{x, y}, {1.0, 0.0}};
    return xf;
}

static carom_transform xf_turned(double x, double y, double angle) {
    carom_transform xf = {{x, y}, libm_rot(angle)};
    return xf;
}

/* An axis-aligned box centred at (cx, cy) in its body frame. */
static carom_polygon box(double hx, double hy, double cx, double cy) {
    carom_polygon polygon;
    carom_status status = carom_make_box(hx, hy, carom_v2(cx, cy), 0.0, &polygon);
    cr_assert_eq(status, CAROM_OK, "carom_make_box: %s", carom_last_error());
    return polygon;
}

/* A box of half extents hx, hy turned by angle about (cx, cy), corners rotated with libm. */
static carom_polygon turned_box(double hx, double hy, double cx, double cy, double angle) {
    carom_rot q = libm_rot(angle);
    carom_vec2 corners[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
    for (int i = 0; i < 4; ++i) {
        corners[i] = carom_add(carom_rotate(q, corners[i]), carom_v2(cx, cy));
    }
    carom_polygon polygon;
    carom_status status = carom_make_polygon(corners, 4, &polygon);
    cr_assert_eq(status, CAROM_OK, "carom_make_polygon: %s", carom_last_error());
    return polygon;
}

static carom_polygon polygon_of(const carom_vec2* points, int count) {
    carom_polygon polygon;
    carom_status status = carom_make_polygon(points, count, &polygon);
    cr_assert_eq(status, CAROM_OK, "carom_make_polygon: %s", carom_last_error());
    return polygon;
}

/* A regular hexagon of circumradius 1 centred at the origin, vertices at k * 60 degrees: its
 * top face is y = sin(60 deg) for |x| <= 0.5. */
static carom_polygon hexagon(void) {
    carom_vec2 points[6];
    for (int k = 0; k < 6; ++k) {
        points[k] = carom_v2(cos(k * CAROM_PI / 3.0), sin(k * CAROM_PI / 3.0));
    }
    return polygon_of(points, 6);
}

static carom_polygon segment_polygon(double x1, double y1, double x2, double y2) {
    carom_segment segment = {{x1, y1}, {x2, y2}};
    return carom_make_segment_polygon(&segment);
}

static int vec_close(carom_vec2 a, carom_vec2 b, double tolerance) {
    return fabs(a.x - b.x) <= tolerance && fabs(a.y - b.y) <= tolerance;
}

static void expect_vec(carom_vec2 got, double x, double y, double tolerance, const char* what) {
    cr_expect(vec_close(got, carom_v2(x, y), tolerance),
              "%s: got (%.17g, %.17g), expected (%.17g, %.17g) within %g", what, got.x, got.y, x, y,
              tolerance);
}

/* The index of the manifold point within `tolerance` of p, or -1. */
static int find_point(const carom_manifold* m, carom_vec2 p, double tolerance) {
    for (int i = 0; i < m->point_count; ++i) {
        if (vec_close(m->points[i].point, p, tolerance)) {
            return i;
        }
    }
    return -1;
}

/* Assert that m has a point at (x, y) with the given separation. */
static void expect_point(const carom_manifold* m, double x, double y, double separation,
                         double tolerance) {
    int i = find_point(m, carom_v2(x, y), tolerance);
    if (i < 0) {
        cr_expect_fail("no manifold point at (%.17g, %.17g); the %d points are (%.17g, %.17g) and "
                       "(%.17g, %.17g)",
                       x, y, m->point_count, m->points[0].point.x, m->points[0].point.y,
                       m->points[1].point.x, m->points[1].point.y);
        return;
    }
    cr_expect(fabs(m->points[i].separation - separation) <= tolerance,
              "point (%g, %g): separation %.17g, expected %.17g", x, y, m->points[i].separation,
              separation);
}

/* B against A must give A against B's points, in any order, with the normal negated. */
static void expect_swap_symmetric(const carom_manifold* ab, const carom_manifold* ba) {
    cr_assert_gt(ab->point_count, 0, "the unswapped pair must touch for this test to mean much");
    cr_assert_eq(ba->point_count, ab->point_count, "point counts %d and %d", ab->point_count,
                 ba->point_count);
    expect_vec(ba->normal, -ab->normal.x, -ab->normal.y, TOL, "swapped normal");
    for (int i = 0; i < ab->point_count; ++i) {
        int j = find_point(ba, ab->points[i].point, TOL);
        cr_expect_geq(j, 0, "point (%.17g, %.17g) is missing after the swap", ab->points[i].point.x,
                      ab->points[i].point.y);
        if (j >= 0) {
            cr_expect(fabs(ba->points[j].separation - ab->points[i].separation) <= TOL,
                      "separations %.17g and %.17g", ab->points[i].separation,
                      ba->points[j].separation);
        }
    }
}

/* Translating both shapes by `shift` must shift the points and change nothing else. */
static void expect_translation_invariant(const carom_manifold* near, const carom_manifold* far,
                                         carom_vec2 shift) {
    cr_assert_gt(near->point_count, 0, "the pair must touch for this test to mean much");
    cr_assert_eq(far->point_count, near->point_count, "point counts %d near, %d far",
                 near->point_count, far->point_count);
    expect_vec(far->normal, near->normal.x, near->normal.y, 1e-9, "normal far away");
    for (int i = 0; i < near->point_count; ++i) {
        carom_vec2 moved = carom_sub(far->points[i].point, shift);
        expect_vec(moved, near->points[i].point.x, near->points[i].point.y, 1e-9,
                   "point far away, shifted back");
        cr_expect(fabs(far->points[i].separation - near->points[i].separation) <= 1e-9,
                  "separation %.17g far away, %.17g near", far->points[i].separation,
                  near->points[i].separation);
        cr_expect_eq(far->points[i].id, near->points[i].id);
    }
}

/* ---- Polygons --------------------------------------------------------------------------- */

Test(sat, rotated_boxes_with_overlapping_aabbs_do_not_touch) {
    /* Unit squares turned 45 degrees are diamonds |x| + |y| <= r with r = sqrt(2) / 2. With
     * centres (0, 0) and (1, 1) the AABBs [-r, r]^2 and [1 - r, 1 + r]^2 overlap (1 - r = 0.29
     * < r), but A has x + y <= r while B has x + y >= 2 - r: along (1, 1) / sqrt(2) they are
     * (2 - 2r) / sqrt(2) = sqrt(2) - 1 = 0.414 m apart. */
    double r = 0.5 * sqrt(2.0);
    carom_vec2 diamond[4] = {{r, 0.0}, {0.0, r}, {-r, 0.0}, {0.0, -r}};
    carom_polygon a = polygon_of(diamond, 4);
    carom_polygon b = polygon_of(diamond, 4);
    carom_transform xfa = xf_at(0.0, 0.0);
    carom_transform xfb = xf_at(1.0, 1.0);
    carom_aabb box_a = carom_compute_polygon_aabb(&a, xfa);
    carom_aabb box_b = carom_compute_polygon_aabb(&b, xfb);
    cr_assert(carom_aabb_overlaps(box_a, box_b), "the AABBs must overlap for this test");
    carom_manifold m = carom_collide_polygons(&a, xfa, &b, xfb, 0.0);
    cr_expect_eq(m.point_count, 0, "diamonds 0.414 m apart reported %d points", m.point_count);
}

Test(sat, rotated_boxes_are_separated_along_their_facing_normals) {
    /* The diamonds above, with a speculative distance that reaches across their gap: the gap is
     * measured along the facing edge normal (1, 1) / sqrt(2) and is sqrt(2) - 1. */
    double r = 0.5 * sqrt(2.0);
    carom_vec2 diamond[4] = {{r, 0.0}, {0.0, r}, {-r, 0.0}, {0.0, -r}};
    carom_polygon a = polygon_of(diamond, 4);
    carom_polygon b = polygon_of(diamond, 4);
    carom_manifold m = carom_collide_polygons(&a, xf_at(0.0, 0.0), &b, xf_at(1.0, 1.0), 0.5);
    cr_assert_eq(m.point_count, 2);
    expect_vec(m.normal, r, r, TOL, "normal");
    for (int i = 0; i < 2; ++i) {
        cr_expect(fabs(m.points[i].separation - (sqrt(2.0) - 1.0)) <= TOL, "separation %.17g",
                  m.points[i].separation);
    }
}

Test(sat, axis_aligned_boxes_overlapping_by_a_tenth_give_the_exact_mtd) {
    /* Unit boxes at (0, 0) and (0.9, 0.2): A's face x = 0.5 and B's face x = 0.4 overlap by 0.1
     * over y in [-0.3, 0.5]; the points sit midway, at x = 0.45. */
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold m = carom_collide_polygons(&a, xf_at(0.0, 0.0), &b, xf_at(0.9, 0.2), 0.0);
    cr_assert_eq(m.point_count, 2);
    expect_vec(m.normal, 1.0, 0.0, TOL, "normal from A to B");
    expect_point(&m, 0.45, 0.5, -0.1, TOL);
    expect_point(&m, 0.45, -0.3, -0.1, TOL);
}

Test(sat, box_resting_on_a_wider_box_gets_the_upward_normal) {
    /* Ground: half extents 2 x 0.5 at the origin, top face y = 0.5. A unit box at (0.3, 0.99)
     * sinks 0.01 into it; its bottom corners x = -0.2 and 0.8 give the two points, midway at
     * y = 0.495. */
    carom_polygon ground = box(2.0, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold m = carom_collide_polygons(&ground, xf_at(0.0, 0.0), &b, xf_at(0.3, 0.99), 0.0);
    cr_assert_eq(m.point_count, 2);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, -0.2, 0.495, -0.01, TOL);
    expect_point(&m, 0.8, 0.495, -0.01, TOL);
}

/* A unit box turned by 0.3 rad whose lowest corner (its local (-0.5, -0.5)) is at `corner`. */
static carom_polygon tilted_box_with_lowest_corner_at(carom_vec2 corner) {
    carom_rot q = libm_rot(0.3);
    carom_vec2 lowest = carom_rotate(q, carom_v2(-0.5, -0.5));
    carom_vec2 center = carom_sub(corner, lowest);
    return turned_box(0.5, 0.5, center.x, center.y, 0.3);
}

Test(sat, tilted_box_corner_in_a_box_face_gives_the_hand_computed_depth) {
    /* A: half extents 1 x 0.5, top face y = 0.5. B: a unit box turned 0.3 rad whose lowest
     * corner is at (0.1, 0.45), 0.05 below that face. B's next corner is sin(0.3) = 0.296 higher,
     * so above the face, and B's own faces see A's vertices at least 0.37 deep, so A's top face
     * is the axis of least penetration: one point, depth 0.05, midway at y = 0.475. */
    carom_polygon a = box(1.0, 0.5, 0.0, 0.0);
    carom_polygon b = tilted_box_with_lowest_corner_at(carom_v2(0.1, 0.45));
    carom_manifold m = carom_collide_polygons(&a, xf_at(0.0, 0.0), &b, xf_at(0.0, 0.0), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, 0.1, 0.475, -0.05, TOL);
}

Test(sat, boxes_turned_together_overlap_along_their_turned_axis) {
    /* The 0.1 overlap of the axis-aligned test, with both bodies turned by 30 degrees about A's
     * origin at (2, -1): everything turns with them. */
    double angle = CAROM_PI / 6.0;
    carom_rot q = libm_rot(angle);
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_vec2 origin = carom_v2(2.0, -1.0);
    carom_vec2 pb = carom_add(origin, carom_rotate(q, carom_v2(0.9, 0.2)));
    carom_manifold m = carom_collide_polygons(&a, xf_turned(origin.x, origin.y, angle), &b,
                                              xf_turned(pb.x, pb.y, angle), 0.0);
    cr_assert_eq(m.point_count, 2);
    expect_vec(m.normal, q.c, q.s, TOL, "normal");
    carom_vec2 p1 = carom_add(origin, carom_rotate(q, carom_v2(0.45, 0.5)));
    carom_vec2 p2 = carom_add(origin, carom_rotate(q, carom_v2(0.45, -0.3)));
    expect_point(&m, p1.x, p1.y, -0.1, TOL);
    expect_point(&m, p2.x, p2.y, -0.1, TOL);
}

Test(sat, separated_boxes_do_not_touch) {
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold m = carom_collide_polygons(&a, xf_at(0.0, 0.0), &a, xf_at(1.001, 0.3), 0.0);
    cr_expect_eq(m.point_count, 0);
}

/* ---- Polygon against circle ------------------------------------------------------------- */

Test(sat, circle_in_a_box_corner_region_is_pushed_along_the_line_from_the_corner) {
    /* Corner (0.5, 0.5), circle centre (0.7, 0.6), radius 0.3: the offset (0.2, 0.1) has length
     * sqrt(0.05) = 0.2236, so the normal is (2, 1) / sqrt(5) and the separation
     * sqrt(0.05) - 0.3. The point is midway between the corner and the circle's surface. */
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.3};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(0.7, 0.6), 0.0);
    cr_assert_eq(m.point_count, 1);
    double distance = sqrt(0.05);
    carom_vec2 n = carom_v2(0.2 / distance, 0.1 / distance);
    expect_vec(m.normal, n.x, n.y, TOL, "normal");
    carom_vec2 surface = carom_mul_sub(carom_v2(0.7, 0.6), 0.3, n);
    carom_vec2 mid = carom_lerp(carom_v2(0.5, 0.5), surface, 0.5);
    expect_point(&m, mid.x, mid.y, distance - 0.3, TOL);
}

Test(sat, circle_diagonally_past_a_box_corner_but_clear_of_it_does_not_touch) {
    /* Centre (0.7, 0.7), radius 0.25: within 0.25 of both face lines (0.2 away from each) but
     * 0.283 from the corner, so it does not touch. */
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.25};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(0.7, 0.7), 0.0);
    cr_expect_eq(m.point_count, 0, "separation %g", m.points[0].separation);
}

Test(sat, circle_over_a_box_face_gets_the_face_normal) {
    /* Centre (0.2, 0.9), radius 0.5, top face y = 0.5: depth 0.1; surfaces at y = 0.5 and 0.4. */
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.5};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(0.2, 0.9), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, 0.2, 0.45, -0.1, TOL);
}

Test(sat, circle_centered_inside_a_box_is_pushed_out_through_the_nearest_face) {
    /* Box half extents 1 x 0.5; centre (0.3, 0.4) is 0.1 below the top face and 0.7 from the
     * right one: out through the top, separation -0.1 - 0.1 (radius) = -0.2. */
    carom_polygon a = box(1.0, 0.5, 0.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.1};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(0.3, 0.4), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    cr_expect(fabs(m.points[0].separation + 0.2) <= TOL, "separation %.17g",
              m.points[0].separation);
    expect_point(&m, 0.3, 0.4, -0.2, TOL); /* midway between (0.3, 0.5) and (0.3, 0.3) */
}

Test(sat, circle_against_a_turned_box_uses_the_turned_face_normal) {
    /* The face case above with the box turned by 90 degrees about (1, 2): the top face is now
     * x = 1 - 0.5 (facing -x) and the circle sits at (1 - 0.9, 2 + 0.2). */
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.5};
    carom_transform xfa = {{1.0, 2.0}, {0.0, 1.0}};
    carom_manifold m = carom_collide_polygon_and_circle(&a, xfa, &b, xf_at(0.1, 2.2), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, -1.0, 0.0, TOL, "normal");
    expect_point(&m, 1.0 - 0.45, 2.2, -0.1, TOL);
}

/* ---- Circle against circle -------------------------------------------------------------- */

Test(sat, circles_touch_along_the_line_between_their_centers) {
    /* Radii 1 and 0.5, centres (0, 0) and (0.84, 1.12): distance 1.4 along (0.6, 0.8), so the
     * separation is 1.4 - 1.5 = -0.1; surfaces at (0.6, 0.8) and (0.54, 0.72), midway
     * (0.57, 0.76). */
    carom_circle a = {{0.0, 0.0}, 1.0};
    carom_circle b = {{0.0, 0.0}, 0.5};
    carom_manifold m = carom_collide_circles(&a, xf_at(0.0, 0.0), &b, xf_at(0.84, 1.12), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.6, 0.8, TOL, "normal");
    expect_point(&m, 0.57, 0.76, -0.1, TOL);
}

Test(sat, circle_centers_are_placed_by_their_transforms) {
    /* A: local centre (1, 0), body at (5, 5) turned 90 degrees -> world (5, 6). B: local centre
     * (0.5, 0), body at (6.34, 7.12) turned 180 degrees -> world (5.84, 7.12). The same pair as
     * above, moved to (5, 6). */
    carom_circle a = {{1.0, 0.0}, 1.0};
    carom_circle b = {{0.5, 0.0}, 0.5};
    carom_transform xfa = {{5.0, 5.0}, {0.0, 1.0}};
    carom_transform xfb = {{6.34, 7.12}, {-1.0, 0.0}};
    carom_manifold m = carom_collide_circles(&a, xfa, &b, xfb, 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.6, 0.8, TOL, "normal");
    expect_point(&m, 5.57, 6.76, -0.1, TOL);
}

Test(sat, circles_farther_apart_than_their_radii_do_not_touch) {
    carom_circle a = {{0.0, 0.0}, 1.0};
    carom_circle b = {{0.0, 0.0}, 0.5};
    carom_manifold m = carom_collide_circles(&a, xf_at(0.0, 0.0), &b, xf_at(0.0, 1.501), 0.0);
    cr_expect_eq(m.point_count, 0);
}

/* ---- Swapping A and B ------------------------------------------------------------------- */

Test(sat, swapping_axis_aligned_boxes_gives_the_same_points_and_the_opposite_normal) {
    /* Parallel faces always tie, so A's face stays the reference both ways; the two clippings
     * still cover the same stretch, y in [-0.3, 0.5], so the points agree. */
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.3, 0.6, 0.0, 0.0);
    carom_transform xfa = xf_at(0.0, 0.0);
    carom_transform xfb = xf_at(0.7, 0.3);
    carom_manifold ab = carom_collide_polygons(&a, xfa, &b, xfb, 0.0);
    carom_manifold ba = carom_collide_polygons(&b, xfb, &a, xfa, 0.0);
    expect_swap_symmetric(&ab, &ba);
}

Test(sat, swapping_a_box_and_a_tilted_box_gives_the_same_points_and_the_opposite_normal) {
    carom_polygon a = box(1.0, 0.5, 0.0, 0.0);
    carom_polygon b = tilted_box_with_lowest_corner_at(carom_v2(0.1, 0.45));
    carom_transform xf = xf_at(0.0, 0.0);
    carom_manifold ab = carom_collide_polygons(&a, xf, &b, xf, 0.0);
    carom_manifold ba = carom_collide_polygons(&b, xf, &a, xf, 0.0);
    expect_swap_symmetric(&ab, &ba);
}

/* A triangle whose bottom edge runs from (-0.3, -0.02) to (0.3, 0.02) (tilted 3.8 degrees),
 * apex (0, 0.5), placed over the hexagon's top face y = sin(60 deg) so that its bottom-left
 * corner is 0.05 deep at x = -0.25 and its bottom-right corner 0.01 deep at x = 0.35. Seen from
 * the triangle's bottom face, the hexagon's corner (-0.5, 0.866) is 0.066 deep, so the
 * hexagon's face wins by 0.016, far more than the tie tolerance. */
static carom_polygon triangle_on_hexagon(void) {
    double top = sin(CAROM_PI / 3.0);
    carom_vec2 offset = carom_v2(0.05, top - 0.05 + 0.02);
    carom_vec2 points[3] = {carom_add(offset, carom_v2(-0.3, -0.02)),
                            carom_add(offset, carom_v2(0.3, 0.02)),
                            carom_add(offset, carom_v2(0.0, 0.5))};
    return polygon_of(points, 3);
}

Test(sat, triangle_corners_in_a_hexagon_face_give_two_points_with_their_depths) {
    double top = sin(CAROM_PI / 3.0);
    carom_polygon a = hexagon();
    carom_polygon b = triangle_on_hexagon();
    carom_manifold m = carom_collide_polygons(&a, xf_at(0.0, 0.0), &b, xf_at(0.0, 0.0), 0.0);
    cr_assert_eq(m.point_count, 2);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, -0.25, top - 0.025, -0.05, TOL);
    expect_point(&m, 0.35, top - 0.005, -0.01, TOL);
}

Test(sat, swapping_a_hexagon_and_a_triangle_gives_the_same_points_and_the_opposite_normal) {
    carom_polygon a = hexagon();
    carom_polygon b = triangle_on_hexagon();
    carom_transform xfa = xf_turned(3.0, 1.0, 0.4);
    carom_transform xfb = xf_turned(3.0, 1.0, 0.4);
    carom_manifold ab = carom_collide_polygons(&a, xfa, &b, xfb, 0.0);
    carom_manifold ba = carom_collide_polygons(&b, xfb, &a, xfa, 0.0);
    cr_assert_eq(ab.point_count, 2);
    expect_swap_symmetric(&ab, &ba);
}

Test(sat, swapping_a_segment_and_a_box_gives_the_same_points_and_the_opposite_normal) {
    carom_polygon a = segment_polygon(-2.0, 0.0, 2.0, 0.0);
    carom_polygon b = tilted_box_with_lowest_corner_at(carom_v2(0.3, -0.02));
    carom_transform xf = xf_at(0.0, 0.0);
    carom_manifold ab = carom_collide_polygons(&a, xf, &b, xf, 0.0);
    carom_manifold ba = carom_collide_polygons(&b, xf, &a, xf, 0.0);
    expect_swap_symmetric(&ab, &ba);
}

/* ---- Feature ids ------------------------------------------------------------------------ */

Test(sat, resting_box_keeps_its_feature_ids_after_a_small_sideways_shift) {
    carom_polygon ground = box(2.0, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold before =
        carom_collide_polygons(&ground, xf_at(0.0, 0.0), &b, xf_at(0.3, 0.99), 0.0);
    carom_manifold after =
        carom_collide_polygons(&ground, xf_at(0.0, 0.0), &b, xf_at(0.35, 0.99), 0.0);
    cr_assert_eq(before.point_count, 2);
    cr_assert_eq(after.point_count, 2);
    /* Match the points by the corner they come from: x moved by 0.05. */
    for (int i = 0; i < 2; ++i) {
        carom_vec2 moved = carom_add(before.points[i].point, carom_v2(0.05, 0.0));
        int j = find_point(&after, moved, TOL);
        cr_assert_geq(j, 0, "corner point %d not found after the shift", i);
        cr_expect_eq(after.points[j].id, before.points[i].id, "id %#x became %#x",
                     before.points[i].id, after.points[j].id);
    }
}

Test(sat, feature_ids_within_a_manifold_are_distinct) {
    carom_polygon ground = box(2.0, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold resting =
        carom_collide_polygons(&ground, xf_at(0.0, 0.0), &b, xf_at(0.3, 0.99), 0.0);
    cr_assert_eq(resting.point_count, 2);
    cr_expect_neq(resting.points[0].id, resting.points[1].id);
    carom_polygon hex = hexagon();
    carom_polygon triangle = triangle_on_hexagon();
    carom_manifold m =
        carom_collide_polygons(&triangle, xf_at(0.0, 0.0), &hex, xf_at(0.0, 0.0), 0.0);
    cr_assert_eq(m.point_count, 2);
    cr_expect_neq(m.points[0].id, m.points[1].id);
}

/* ---- Speculative distance --------------------------------------------------------------- */

Test(sat, boxes_a_centimetre_apart_give_points_within_a_2_cm_speculative_distance) {
    /* The resting box lifted to y = 1.01: its bottom is 0.01 above the ground's top. */
    carom_polygon ground = box(2.0, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold m = carom_collide_polygons(&ground, xf_at(0.0, 0.0), &b, xf_at(0.3, 1.01), 0.02);
    cr_assert_eq(m.point_count, 2);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, -0.2, 0.505, 0.01, TOL);
    expect_point(&m, 0.8, 0.505, 0.01, TOL);
}

Test(sat, boxes_a_centimetre_apart_give_no_points_within_a_5_mm_speculative_distance) {
    carom_polygon ground = box(2.0, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold m =
        carom_collide_polygons(&ground, xf_at(0.0, 0.0), &b, xf_at(0.3, 1.01), 0.005);
    cr_expect_eq(m.point_count, 0);
}

Test(sat, speculative_distance_keeps_only_the_points_within_it) {
    /* A box tilted 0.3 rad with its lowest corner 0.01 above the ground's top: the next corner
     * is sin(0.3) = 0.296 higher. With 2 cm only the low corner counts; with 0.5 m both do. */
    carom_polygon ground = box(2.0, 0.5, 0.0, 0.0);
    carom_polygon b = tilted_box_with_lowest_corner_at(carom_v2(0.1, 0.51));
    carom_manifold near =
        carom_collide_polygons(&ground, xf_at(0.0, 0.0), &b, xf_at(0.0, 0.0), 0.02);
    cr_assert_eq(near.point_count, 1);
    expect_point(&near, 0.1, 0.505, 0.01, TOL);
    carom_manifold wide =
        carom_collide_polygons(&ground, xf_at(0.0, 0.0), &b, xf_at(0.0, 0.0), 0.5);
    cr_assert_eq(wide.point_count, 2);
    double rise = sin(0.3);
    expect_point(&wide, 0.1, 0.505, 0.01, TOL);
    expect_point(&wide, 0.1 + cos(0.3), 0.5 + 0.5 * (0.01 + rise), 0.01 + rise, TOL);
}

Test(sat, circles_a_centimetre_apart_give_a_point_within_a_2_cm_speculative_distance) {
    /* Radii 1 and 0.5, centres 1.51 apart along +y: gap 0.01, point midway at y = 1.005. */
    carom_circle a = {{0.0, 0.0}, 1.0};
    carom_circle b = {{0.0, 0.0}, 0.5};
    carom_manifold m = carom_collide_circles(&a, xf_at(0.0, 0.0), &b, xf_at(0.0, 1.51), 0.02);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, 0.0, 1.005, 0.01, TOL);
}

Test(sat, circles_a_centimetre_apart_give_no_point_within_a_5_mm_speculative_distance) {
    carom_circle a = {{0.0, 0.0}, 1.0};
    carom_circle b = {{0.0, 0.0}, 0.5};
    carom_manifold m = carom_collide_circles(&a, xf_at(0.0, 0.0), &b, xf_at(0.0, 1.51), 0.005);
    cr_expect_eq(m.point_count, 0);
}

Test(sat, circle_a_centimetre_above_a_box_gives_a_point_within_a_2_cm_speculative_distance) {
    /* Box top face y = 0.5; circle radius 0.25 centred at y = 0.76. */
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.25};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(0.1, 0.76), 0.02);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, 0.1, 0.505, 0.01, TOL);
}

Test(sat, circle_a_centimetre_above_a_box_gives_no_point_within_a_5_mm_speculative_distance) {
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.25};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(0.1, 0.76), 0.005);
    cr_expect_eq(m.point_count, 0);
}

Test(sat, circle_a_centimetre_from_a_box_corner_gives_a_point_within_a_2_cm_speculative_distance) {
    /* Corner region: centre (0.5, 0.5) + 0.26 (0.6, 0.8), radius 0.25, so the gap is 0.01 along
     * (0.6, 0.8). */
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.25};
    carom_transform xfb = xf_at(0.5 + 0.26 * 0.6, 0.5 + 0.26 * 0.8);
    carom_manifold near = carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xfb, 0.02);
    cr_assert_eq(near.point_count, 1);
    expect_vec(near.normal, 0.6, 0.8, TOL, "normal");
    expect_point(&near, 0.5 + 0.005 * 0.6, 0.5 + 0.005 * 0.8, 0.01, TOL);
    carom_manifold tight = carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xfb, 0.005);
    cr_expect_eq(tight.point_count, 0);
}

/* ---- Far from the origin ---------------------------------------------------------------- */

Test(sat, polygon_contacts_do_not_change_when_both_shapes_move_a_million_metres) {
    carom_vec2 shift = carom_v2(1e6, -1e6);
    carom_polygon a = hexagon();
    carom_polygon b = triangle_on_hexagon();
    carom_transform xfa = xf_turned(0.3, -0.2, 0.4);
    carom_transform xfb = xf_turned(0.3, -0.2, 0.4);
    carom_manifold near = carom_collide_polygons(&a, xfa, &b, xfb, 0.0);
    xfa.p = carom_add(xfa.p, shift);
    xfb.p = carom_add(xfb.p, shift);
    carom_manifold far = carom_collide_polygons(&a, xfa, &b, xfb, 0.0);
    expect_translation_invariant(&near, &far, shift);
}

Test(sat, turned_box_contacts_do_not_change_when_both_shapes_move_a_million_metres) {
    carom_vec2 shift = carom_v2(1e6, -1e6);
    carom_polygon a = box(1.0, 0.5, 0.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_transform xfa = xf_turned(0.0, 0.0, 0.2);
    carom_transform xfb = xf_turned(0.1, 0.9, 0.5);
    carom_manifold near = carom_collide_polygons(&a, xfa, &b, xfb, 0.0);
    xfa.p = carom_add(xfa.p, shift);
    xfb.p = carom_add(xfb.p, shift);
    carom_manifold far = carom_collide_polygons(&a, xfa, &b, xfb, 0.0);
    expect_translation_invariant(&near, &far, shift);
}

Test(sat, circle_and_polygon_contacts_do_not_change_when_both_move_a_million_metres) {
    carom_vec2 shift = carom_v2(1e6, -1e6);
    carom_polygon a = box(0.5, 0.5, 0.0, 0.0);
    carom_circle b = {{0.1, 0.0}, 0.3};
    carom_transform xfa = xf_turned(0.0, 0.0, 0.25);
    carom_transform xfb = xf_turned(0.5, 0.65, -1.0);
    carom_manifold near = carom_collide_polygon_and_circle(&a, xfa, &b, xfb, 0.0);
    xfa.p = carom_add(xfa.p, shift);
    xfb.p = carom_add(xfb.p, shift);
    carom_manifold far = carom_collide_polygon_and_circle(&a, xfa, &b, xfb, 0.0);
    expect_translation_invariant(&near, &far, shift);
}

Test(sat, circle_contacts_do_not_change_when_both_move_a_million_metres) {
    carom_vec2 shift = carom_v2(1e6, -1e6);
    carom_circle a = {{0.2, 0.0}, 1.0};
    carom_circle b = {{0.0, -0.1}, 0.5};
    carom_transform xfa = xf_turned(0.0, 0.0, 0.7);
    carom_transform xfb = xf_turned(0.9, 1.0, 2.0);
    carom_manifold near = carom_collide_circles(&a, xfa, &b, xfb, 0.0);
    xfa.p = carom_add(xfa.p, shift);
    xfb.p = carom_add(xfb.p, shift);
    carom_manifold far = carom_collide_circles(&a, xfa, &b, xfb, 0.0);
    expect_translation_invariant(&near, &far, shift);
}

/* ---- Segments --------------------------------------------------------------------------- */

Test(sat, tilted_box_corner_on_a_segment_gives_one_point_with_its_depth) {
    /* Segment along y = 0 from x = -2 to 2; a unit box tilted 0.3 rad with its lowest corner at
     * (0.3, -0.02), 0.02 through the segment; the next corner is 0.296 higher, above it. */
    carom_polygon a = segment_polygon(-2.0, 0.0, 2.0, 0.0);
    carom_polygon b = tilted_box_with_lowest_corner_at(carom_v2(0.3, -0.02));
    carom_manifold m = carom_collide_polygons(&a, xf_at(0.0, 0.0), &b, xf_at(0.0, 0.0), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, 0.3, -0.01, -0.02, TOL);
}

Test(sat, box_under_a_segment_is_pushed_downward) {
    /* Both sides of a segment collide: a unit box at (0.5, -0.49) pokes 0.01 up through it. */
    carom_polygon a = segment_polygon(-2.0, 0.0, 2.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold m = carom_collide_polygons(&a, xf_at(0.0, 0.0), &b, xf_at(0.5, -0.49), 0.0);
    cr_assert_eq(m.point_count, 2);
    expect_vec(m.normal, 0.0, -1.0, TOL, "normal");
    expect_point(&m, 0.0, 0.005, -0.01, TOL);
    expect_point(&m, 1.0, 0.005, -0.01, TOL);
}

Test(sat, box_hanging_over_a_segment_end_is_clipped_at_the_end) {
    /* A unit box at (1.8, 0.49) sinks 0.01 into a segment ending at x = 2: its corner x = 1.3
     * gives one point and the other end is clipped to the segment's end, x = 2. */
    carom_polygon a = segment_polygon(-2.0, 0.0, 2.0, 0.0);
    carom_polygon b = box(0.5, 0.5, 0.0, 0.0);
    carom_manifold m = carom_collide_polygons(&a, xf_at(0.0, 0.0), &b, xf_at(1.8, 0.49), 0.0);
    cr_assert_eq(m.point_count, 2);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, 1.3, -0.005, -0.01, TOL);
    expect_point(&m, 2.0, -0.005, -0.01, TOL);
}

Test(sat, circle_on_a_segment_gets_the_segment_normal) {
    /* Segment along y = 0 from x = -1 to 1; radius 0.3 centred at (0.2, 0.25): depth 0.05. */
    carom_polygon a = segment_polygon(-1.0, 0.0, 1.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.3};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(0.2, 0.25), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.0, 1.0, TOL, "normal");
    expect_point(&m, 0.2, -0.025, -0.05, TOL);
}

Test(sat, circle_under_a_segment_is_pushed_downward) {
    carom_polygon a = segment_polygon(-1.0, 0.0, 1.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.3};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(0.2, -0.25), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 0.0, -1.0, TOL, "normal");
    expect_point(&m, 0.2, 0.025, -0.05, TOL);
}

Test(sat, circle_near_a_segment_end_is_pushed_along_the_line_from_the_endpoint) {
    /* Endpoint (1, 0), centre (1.2, 0.1), radius 0.3: normal (2, 1) / sqrt(5), separation
     * sqrt(0.05) - 0.3. */
    carom_polygon a = segment_polygon(-1.0, 0.0, 1.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.3};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(1.2, 0.1), 0.0);
    cr_assert_eq(m.point_count, 1);
    double distance = sqrt(0.05);
    carom_vec2 n = carom_v2(0.2 / distance, 0.1 / distance);
    expect_vec(m.normal, n.x, n.y, TOL, "normal");
    carom_vec2 surface = carom_mul_sub(carom_v2(1.2, 0.1), 0.3, n);
    carom_vec2 mid = carom_lerp(carom_v2(1.0, 0.0), surface, 0.5);
    expect_point(&m, mid.x, mid.y, distance - 0.3, TOL);
}

Test(sat, circle_centered_on_a_segment_line_past_its_end_is_pushed_away_from_the_endpoint) {
    /* Centre (1.2, 0) exactly on the segment's line, radius 0.3: the endpoint (1, 0) is 0.2
     * away, so the separation is -0.1 along +x, midway between x = 1 and x = 0.9. */
    carom_polygon a = segment_polygon(-1.0, 0.0, 1.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.3};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(1.2, 0.0), 0.0);
    cr_assert_eq(m.point_count, 1);
    expect_vec(m.normal, 1.0, 0.0, TOL, "normal");
    expect_point(&m, 0.95, 0.0, -0.1, TOL);
}

Test(sat, circle_centered_on_a_segment_line_clear_of_its_end_does_not_touch) {
    /* Centre (1.5, 0), radius 0.3: 0.2 clear of the endpoint (1, 0). */
    carom_polygon a = segment_polygon(-1.0, 0.0, 1.0, 0.0);
    carom_circle b = {{0.0, 0.0}, 0.3};
    carom_manifold m =
        carom_collide_polygon_and_circle(&a, xf_at(0.0, 0.0), &b, xf_at(1.5, 0.0), 0.0);
    cr_expect_eq(m.point_count, 0, "got a point with separation %.17g and normal (%g, %g)",
                 m.points[0].separation, m.normal.x, m.normal.y);
}

/* ---- Boxes by their axes ----------------------------------------------------------------- */

/* carom_collide_boxes (the narrow phase's test for two boxes around their bodies' origins) must
 * give the manifold carom_collide_polygons gives for the same polygons: the same points, ids and
 * normal, with values that differ only by rounding, over poses drawn from near miss to deep
 * overlap, in both orders, at every angle including the quarter turns where faces are parallel. */
Test(sat, box_test_gives_the_manifold_of_the_polygon_test) {
    uint32_t seed = 2024u;
    int touching = 0;
    int apart = 0;
    for (int i = 0; i < 20000; ++i) {
        double draw[7];
        for (int k = 0; k < 7; ++k) {
            seed = seed * 1664525u + 1013904223u;
            draw[k] = (double)seed / 4294967296.0;
        }
        carom_vec2 half_a = {0.1 + 1.4 * draw[0], 0.1 + 1.4 * draw[1]};
        carom_vec2 half_b = {0.1 + 1.4 * draw[2], 0.1 + 1.4 * draw[3]};
        double angle = 2.0 * CAROM_PI * draw[4];
        if (i % 10 == 0) {
            angle = (i / 10 % 4) * 0.5 * CAROM_PI; /* parallel faces */
        }
        double reach = half_a.x + half_a.y + half_b.x + half_b.y;
        carom_transform xfa = xf_turned(3.0, -2.0, 0.3 * i);
        carom_vec2 offset = {reach * (2.0 * draw[5] - 1.0), reach * (2.0 * draw[6] - 1.0)};
        carom_transform xfb = {carom_add(xfa.p, carom_rotate(xfa.q, offset)),
                               carom_mul_rot(xfa.q, libm_rot(angle))};
        carom_polygon a, b;
        cr_assert_eq(carom_make_box(half_a.x, half_a.y, carom_v2(0.0, 0.0), 0.0, &a), CAROM_OK);
        cr_assert_eq(carom_make_box(half_b.x, half_b.y, carom_v2(0.0, 0.0), 0.0, &b), CAROM_OK);
        for (int order = 0; order < 2; ++order) {
            const carom_polygon* p1 = order == 0 ? &a : &b;
            const carom_polygon* p2 = order == 0 ? &b : &a;
            carom_vec2 h1 = order == 0 ? half_a : half_b;
            carom_vec2 h2 = order == 0 ? half_b : half_a;
            carom_transform x1 = order == 0 ? xfa : xfb;
            carom_transform x2 = order == 0 ? xfb : xfa;
            carom_manifold want = carom_collide_polygons(p1, x1, p2, x2, 0.02);
            carom_manifold got = carom_collide_boxes(p1, h1, x1, p2, h2, x2, 0.02);
            cr_assert_eq(got.point_count, want.point_count, "pose %d order %d", i, order);
            touching += want.point_count > 0;
            apart += want.point_count == 0;
            if (want.point_count == 0) {
                continue;
            }
            cr_assert(carom_distance(got.normal, want.normal) < 1e-12, "pose %d", i);
            for (int k = 0; k < want.point_count; ++k) {
                cr_assert_eq(got.points[k].id, want.points[k].id, "pose %d point %d", i, k);
                cr_assert(carom_distance(got.points[k].point, want.points[k].point) < 1e-12,
                          "pose %d point %d", i, k);
                cr_assert_float_eq(got.points[k].separation, want.points[k].separation, 1e-12,
                                   "pose %d point %d", i, k);
            }
        }
    }
    /* both outcomes must be well represented for the comparison to mean anything */
    cr_assert_gt(touching, 5000);
    cr_assert_gt(apart, 5000);
}
