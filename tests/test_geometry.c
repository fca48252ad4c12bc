/* Tests for engine/geometry.c: polygon validation, boxes, mass properties and bounding boxes.
 *
 * Refusals are behaviour too: each one checks the exact status, that the output struct was not
 * touched (it is filled with a sentinel pattern first) and that carom_last_error() names the
 * problem. */
#include <carom/carom.h>

#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#define TOL 1e-12

/* ---- Helpers ---------------------------------------------------------------------------- */

static int close_to(double a, double b, double tolerance) {
    return fabs(a - b) <= tolerance;
}

static int relative_close(double a, double b, double tolerance) {
    return fabs(a - b) <= tolerance * fabs(b);
}

static int vec_eq(carom_vec2 a, carom_vec2 b) {
    return a.x == b.x && a.y == b.y;
}

static void expect_vec(carom_vec2 got, double x, double y, double tolerance, const char* what) {
    cr_expect(close_to(got.x, x, tolerance) && close_to(got.y, y, tolerance),
              "%s: got (%.17g, %.17g), expected (%.17g, %.17g) within %g", what, got.x, got.y, x, y,
              tolerance);
}

/* Twice the signed area by the shoelace formula: positive for counter-clockwise. */
static double twice_signed_area(const carom_polygon* p) {
    double sum = 0.0;
    for (int i = 0; i < p->count; ++i) {
        carom_vec2 a = p->vertices[i];
        carom_vec2 b = p->vertices[(i + 1) % p->count];
        sum += a.x * b.y - a.y * b.x;
    }
    return sum;
}

/* Counter-clockwise, every normal of unit length, perpendicular to its edge and pointing away
 * from every other vertex. */
static void expect_proper_ccw_polygon(const carom_polygon* p) {
    cr_expect_gt(twice_signed_area(p), 0.0, "signed area %g is not positive",
                 0.5 * twice_signed_area(p));
    for (int i = 0; i < p->count; ++i) {
        carom_vec2 n = p->normals[i];
        carom_vec2 v = p->vertices[i];
        carom_vec2 edge = carom_sub(p->vertices[(i + 1) % p->count], v);
        cr_expect(close_to(carom_length(n), 1.0, 1e-15), "normal %d has length %.17g", i,
                  carom_length(n));
        cr_expect(close_to(carom_dot(n, edge), 0.0, 1e-15 * carom_length(edge)),
                  "normal %d is not perpendicular to its edge", i);
        for (int j = 0; j < p->count; ++j) {
            if (j == i || j == (i + 1) % p->count) {
                continue;
            }
            cr_expect_lt(carom_dot(n, carom_sub(p->vertices[j], v)), 0.0,
                         "normal %d does not point away from vertex %d", i, j);
        }
    }
}

/* True when p's vertices are exactly the given points, in some order. */
static int same_vertex_set(const carom_polygon* p, const carom_vec2* points, int count) {
    if (p->count != count) {
        return 0;
    }
    for (int i = 0; i < count; ++i) {
        int found = 0;
        for (int j = 0; j < count; ++j) {
            found = found || vec_eq(p->vertices[j], points[i]);
        }
        if (!found) {
            return 0;
        }
    }
    return 1;
}

static carom_polygon make_polygon_ok(const carom_vec2* points, int count) {
    carom_polygon polygon;
    carom_status status = carom_make_polygon(points, count, &polygon);
    cr_assert_eq(status, CAROM_OK, "carom_make_polygon refused: %s", carom_last_error());
    return polygon;
}

/* Expect carom_make_polygon to refuse with `status`, leave *out alone and say something
 * containing each of `needle1` and `needle2` (either may be NULL). */
static void expect_polygon_refused(const carom_vec2* points, int count, carom_status status,
                                   const char* needle1, const char* needle2) {
    carom_polygon out;
    carom_polygon sentinel;
    memset(&out, 0xA5, sizeof(out));
    memcpy(&sentinel, &out, sizeof(out));
    carom_clear_last_error();
    carom_status got = carom_make_polygon(points, count, &out);
    cr_expect_eq(got, status, "status %s, expected %s", carom_status_str(got),
                 carom_status_str(status));
    cr_expect_eq(carom_last_status(), status, "last status %s",
                 carom_status_str(carom_last_status()));
    cr_expect_eq(memcmp(&out, &sentinel, sizeof(out)), 0, "the output polygon was modified");
    const char* message = carom_last_error();
    cr_assert_not_null(message);
    cr_expect(needle1 == NULL || strstr(message, needle1) != NULL,
              "message \"%s\" does not mention \"%s\"", message, needle1);
    cr_expect(needle2 == NULL || strstr(message, needle2) != NULL,
              "message \"%s\" does not mention \"%s\"", message, needle2);
}

/* Expect carom_make_box to refuse with `status`, leave *out alone and mention `needle`. */
static void expect_box_refused(double hx, double hy, carom_vec2 center, double angle,
                               carom_status status, const char* needle) {
    carom_polygon out;
    carom_polygon sentinel;
    memset(&out, 0x5A, sizeof(out));
    memcpy(&sentinel, &out, sizeof(out));
    carom_clear_last_error();
    carom_status got = carom_make_box(hx, hy, center, angle, &out);
    cr_expect_eq(got, status, "status %s, expected %s", carom_status_str(got),
                 carom_status_str(status));
    cr_expect_eq(memcmp(&out, &sentinel, sizeof(out)), 0, "the output polygon was modified");
    cr_expect(strstr(carom_last_error(), needle) != NULL, "message \"%s\" does not mention \"%s\"",
              carom_last_error(), needle);
}

static carom_vec2 on_circle(double radius, double angle, carom_vec2 center) {
    return carom_v2(center.x + radius * cos(angle), center.y + radius * sin(angle));
}

/* ---- carom_make_polygon: accepted input ------------------------------------------------- */

Test(geometry, counter_clockwise_square_comes_back_in_its_own_order) {
    carom_vec2 points[4] = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {0.0, 1.0}};
    carom_polygon p = make_polygon_ok(points, 4);
    cr_assert_eq(p.count, 4);
    for (int i = 0; i < 4; ++i) {
        cr_expect(vec_eq(p.vertices[i], points[i]), "vertex %d is (%g, %g)", i, p.vertices[i].x,
                  p.vertices[i].y);
    }
    expect_proper_ccw_polygon(&p);
    expect_vec(p.normals[0], 0.0, -1.0, 0.0, "bottom normal");
    expect_vec(p.normals[1], 1.0, 0.0, 0.0, "right normal");
    expect_vec(p.normals[2], 0.0, 1.0, 0.0, "top normal");
    expect_vec(p.normals[3], -1.0, 0.0, 0.0, "left normal");
    expect_vec(p.centroid, 0.5, 0.5, 1e-15, "centroid");
}

Test(geometry, clockwise_square_comes_back_counter_clockwise_with_the_same_vertices) {
    carom_vec2 points[4] = {{0.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}, {1.0, 0.0}};
    carom_polygon p = make_polygon_ok(points, 4);
    cr_expect(same_vertex_set(&p, points, 4), "the vertex set changed");
    expect_proper_ccw_polygon(&p);
    cr_expect_gt(twice_signed_area(&p), 0.0);
    cr_expect(close_to(0.5 * twice_signed_area(&p), 1.0, 1e-15), "area %.17g",
              0.5 * twice_signed_area(&p));
}

Test(geometry, clockwise_triangle_comes_back_counter_clockwise_with_outward_normals) {
    carom_vec2 points[3] = {{0.0, 0.0}, {0.5, 2.0}, {3.0, -1.0}};
    carom_polygon p = make_polygon_ok(points, 3);
    cr_expect(same_vertex_set(&p, points, 3), "the vertex set changed");
    expect_proper_ccw_polygon(&p);
    expect_vec(p.centroid, 3.5 / 3.0, 1.0 / 3.0, 1e-15, "centroid");
}

Test(geometry, regular_octagon_is_accepted) {
    carom_vec2 points[8];
    for (int k = 0; k < 8; ++k) {
        points[k] = on_circle(1.0, k * CAROM_PI / 4.0, carom_v2(0.0, 0.0));
    }
    carom_polygon p = make_polygon_ok(points, 8);
    cr_assert_eq(p.count, 8);
    expect_proper_ccw_polygon(&p);
    /* Area of a regular n-gon of circumradius 1: (n / 2) sin(2 pi / n) = 2 sqrt(2). */
    cr_expect(close_to(0.5 * twice_signed_area(&p), 2.0 * sqrt(2.0), TOL), "area %.17g",
              0.5 * twice_signed_area(&p));
    expect_vec(p.centroid, 0.0, 0.0, 1e-15, "centroid");
}

Test(geometry, convex_polygon_in_scrambled_order_comes_back_as_its_hull) {
    carom_vec2 hexagon[6];
    for (int k = 0; k < 6; ++k) {
        hexagon[k] = on_circle(2.0, k * CAROM_PI / 3.0, carom_v2(1.0, -1.0));
    }
    const int order[6] = {3, 0, 5, 1, 4, 2};
    carom_vec2 scrambled[6];
    for (int i = 0; i < 6; ++i) {
        scrambled[i] = hexagon[order[i]];
    }
    carom_polygon p = make_polygon_ok(scrambled, 6);
    cr_assert_eq(p.count, 6);
    expect_proper_ccw_polygon(&p);
    /* Counter-clockwise from the first input point, hexagon[3]. */
    for (int i = 0; i < 6; ++i) {
        carom_vec2 want = hexagon[(3 + i) % 6];
        cr_expect(vec_eq(p.vertices[i], want), "vertex %d is (%g, %g), expected (%g, %g)", i,
                  p.vertices[i].x, p.vertices[i].y, want.x, want.y);
    }
}

Test(geometry, pentagram_order_of_a_convex_pentagon_is_accepted_as_the_pentagon) {
    /* collision.h: "in either winding (or any order). The hull is computed". A star drawn
     * through the five corners is an order of a convex point set, so it gives the pentagon. */
    carom_vec2 pentagon[5];
    for (int k = 0; k < 5; ++k) {
        pentagon[k] = on_circle(1.0, CAROM_PI / 2.0 + k * 2.0 * CAROM_PI / 5.0, carom_v2(0, 0));
    }
    carom_vec2 star[5] = {pentagon[0], pentagon[2], pentagon[4], pentagon[1], pentagon[3]};
    carom_polygon p = make_polygon_ok(star, 5);
    cr_assert_eq(p.count, 5);
    expect_proper_ccw_polygon(&p);
    for (int i = 0; i < 5; ++i) {
        cr_expect(vec_eq(p.vertices[i], pentagon[i]), "vertex %d is (%g, %g)", i, p.vertices[i].x,
                  p.vertices[i].y);
    }
}

/* ---- carom_make_polygon: refused input -------------------------------------------------- */

Test(geometry, make_polygon_refuses_duplicate_points) {
    carom_vec2 points[4] = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {1.0, 0.0}};
    expect_polygon_refused(points, 4, CAROM_ERROR_INVALID_POLYGON, "vertices 1 and 3",
                           "same point");
}

Test(geometry, make_polygon_refuses_points_closer_than_the_weld_tolerance) {
    /* 0.0014 apart, under CAROM_POLYGON_WELD_TOLERANCE = 0.0025. */
    carom_vec2 points[4] = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {1.001, 1.001}};
    expect_polygon_refused(points, 4, CAROM_ERROR_INVALID_POLYGON, "vertices 2 and 3",
                           "same point");
}

Test(geometry, make_polygon_refuses_three_collinear_points) {
    carom_vec2 points[3] = {{0.0, 0.0}, {1.0, 0.0}, {2.0, 0.0}};
    expect_polygon_refused(points, 3, CAROM_ERROR_INVALID_POLYGON, "vertex 1", "collinear");
}

Test(geometry, make_polygon_refuses_a_square_with_a_midpoint_on_an_edge) {
    carom_vec2 points[5] = {{0.0, 0.0}, {0.5, 0.0}, {1.0, 0.0}, {1.0, 1.0}, {0.0, 1.0}};
    expect_polygon_refused(points, 5, CAROM_ERROR_INVALID_POLYGON, "vertex 1", "collinear");
}

Test(geometry, make_polygon_refuses_a_vertex_within_the_weld_tolerance_of_its_neighbours_line) {
    /* Vertex 1 bulges 0.001 out of the bottom edge: on the hull, but collinear to within
     * CAROM_POLYGON_WELD_TOLERANCE. */
    carom_vec2 points[5] = {{0.0, 0.0}, {0.5, -0.001}, {1.0, 0.0}, {1.0, 1.0}, {0.0, 1.0}};
    expect_polygon_refused(points, 5, CAROM_ERROR_INVALID_POLYGON, "vertex 1", "collinear");
}

Test(geometry, make_polygon_refuses_a_concave_chevron) {
    /* An arrowhead pointing right: vertex 3 is the notch, 0.5 inside the hull's back edge. */
    carom_vec2 points[4] = {{0.0, 0.0}, {2.0, 1.0}, {0.0, 2.0}, {0.5, 1.0}};
    expect_polygon_refused(points, 4, CAROM_ERROR_INVALID_POLYGON, "vertex 3", "convex");
}

Test(geometry, make_polygon_refuses_a_four_pointed_star) {
    /* Tips on the axes, notches at (+-0.3, +-0.3): the notches lie 0.28 inside the hull edges. */
    carom_vec2 points[8] = {{1.0, 0.0},  {0.3, 0.3},   {0.0, 1.0},  {-0.3, 0.3},
                            {-1.0, 0.0}, {-0.3, -0.3}, {0.0, -1.0}, {0.3, -0.3}};
    expect_polygon_refused(points, 8, CAROM_ERROR_INVALID_POLYGON, "vertex 1", "convex");
}

Test(geometry, make_polygon_refuses_fewer_than_three_points) {
    carom_vec2 points[2] = {{0.0, 0.0}, {1.0, 0.0}};
    expect_polygon_refused(points, 2, CAROM_ERROR_INVALID_POLYGON, "2 vertices", "at least 3");
    expect_polygon_refused(points, 0, CAROM_ERROR_INVALID_POLYGON, "0 vertices", "at least 3");
}

Test(geometry, make_polygon_refuses_nine_points) {
    carom_vec2 points[9];
    for (int k = 0; k < 9; ++k) {
        points[k] = on_circle(1.0, k * 2.0 * CAROM_PI / 9.0, carom_v2(0.0, 0.0));
    }
    expect_polygon_refused(points, 9, CAROM_ERROR_TOO_MANY_VERTICES, "9 vertices", "at most 8");
}

Test(geometry, make_polygon_refuses_nan_coordinates) {
    carom_vec2 points[3] = {{0.0, 0.0}, {1.0, 0.0}, {NAN, 1.0}};
    expect_polygon_refused(points, 3, CAROM_ERROR_NOT_FINITE, "vertex 2", "finite");
}

Test(geometry, make_polygon_refuses_infinite_coordinates) {
    carom_vec2 points[3] = {{0.0, 0.0}, {1.0, -INFINITY}, {0.0, 1.0}};
    expect_polygon_refused(points, 3, CAROM_ERROR_NOT_FINITE, "vertex 1", "finite");
}

Test(geometry, make_polygon_refuses_null_points) {
    expect_polygon_refused(NULL, 3, CAROM_ERROR_NULL_ARGUMENT, "points", "NULL");
}

Test(geometry, make_polygon_refuses_a_null_output) {
    carom_vec2 points[3] = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
    carom_clear_last_error();
    cr_expect_eq(carom_make_polygon(points, 3, NULL), CAROM_ERROR_NULL_ARGUMENT);
    cr_expect(strstr(carom_last_error(), "output") != NULL, "message \"%s\"", carom_last_error());
}

/* ---- carom_make_box --------------------------------------------------------------------- */

Test(geometry, offset_rotated_box_has_the_expected_vertices_normals_and_centroid) {
    /* Half extents 1 x 0.5 turned 30 degrees about (2, 3): corners center + R (+-1, +-0.5),
     * counter-clockwise from (-1, -0.5); normals R (0, -1), R (1, 0), R (0, 1), R (-1, 0). */
    double angle = CAROM_PI / 6.0;
    double c = cos(angle);
    double s = sin(angle);
    carom_polygon p;
    cr_assert_eq(carom_make_box(1.0, 0.5, carom_v2(2.0, 3.0), angle, &p), CAROM_OK);
    cr_assert_eq(p.count, 4);
    const double local[4][2] = {{-1.0, -0.5}, {1.0, -0.5}, {1.0, 0.5}, {-1.0, 0.5}};
    const double normals[4][2] = {{0.0, -1.0}, {1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}};
    for (int i = 0; i < 4; ++i) {
        double x = local[i][0];
        double y = local[i][1];
        expect_vec(p.vertices[i], 2.0 + c * x - s * y, 3.0 + s * x + c * y, 1e-14, "vertex");
        double nx = normals[i][0];
        double ny = normals[i][1];
        expect_vec(p.normals[i], c * nx - s * ny, s * nx + c * ny, 1e-14, "normal");
    }
    expect_vec(p.centroid, 2.0, 3.0, 0.0, "centroid");
    expect_proper_ccw_polygon(&p);
}

Test(geometry, make_box_refuses_non_positive_half_extents) {
    expect_box_refused(0.0, 1.0, carom_v2(0.0, 0.0), 0.0, CAROM_ERROR_OUT_OF_RANGE, "half width");
    expect_box_refused(-1.0, 1.0, carom_v2(0.0, 0.0), 0.0, CAROM_ERROR_OUT_OF_RANGE, "half width");
    expect_box_refused(1.0, 0.0, carom_v2(0.0, 0.0), 0.0, CAROM_ERROR_OUT_OF_RANGE, "half height");
    expect_box_refused(1.0, -0.5, carom_v2(0.0, 0.0), 0.0, CAROM_ERROR_OUT_OF_RANGE, "half height");
}

Test(geometry, make_box_refuses_a_nan_angle) {
    expect_box_refused(1.0, 1.0, carom_v2(0.0, 0.0), NAN, CAROM_ERROR_NOT_FINITE, "angle");
}

Test(geometry, make_box_refuses_non_finite_sizes_and_centers) {
    expect_box_refused(NAN, 1.0, carom_v2(0.0, 0.0), 0.0, CAROM_ERROR_NOT_FINITE, "half width");
    expect_box_refused(1.0, INFINITY, carom_v2(0.0, 0.0), 0.0, CAROM_ERROR_NOT_FINITE,
                       "half height");
    expect_box_refused(1.0, 1.0, carom_v2(INFINITY, 0.0), 0.0, CAROM_ERROR_NOT_FINITE, "center");
}

Test(geometry, make_box_refuses_a_null_output) {
    carom_clear_last_error();
    cr_expect_eq(carom_make_box(1.0, 1.0, carom_v2(0.0, 0.0), 0.0, NULL),
                 CAROM_ERROR_NULL_ARGUMENT);
}

Test(geometry, segment_polygon_has_two_vertices_with_opposite_normals) {
    carom_segment segment = {{1.0, 1.0}, {4.0, 5.0}};
    carom_polygon p = carom_make_segment_polygon(&segment);
    cr_assert_eq(p.count, 2);
    cr_expect(vec_eq(p.vertices[0], segment.point1) && vec_eq(p.vertices[1], segment.point2));
    /* Direction (0.6, 0.8); normals[0] is its right perpendicular. */
    expect_vec(p.normals[0], 0.8, -0.6, 1e-15, "normal 0");
    expect_vec(p.normals[1], -0.8, 0.6, 1e-15, "normal 1");
    expect_vec(p.centroid, 2.5, 3.0, 0.0, "centroid");
}

/* ---- Mass ------------------------------------------------------------------------------- */

Test(geometry, two_by_one_box_of_density_two_has_mass_four_and_the_box_inertia) {
    carom_polygon p;
    cr_assert_eq(carom_make_box(1.0, 0.5, carom_v2(0.0, 0.0), 0.0, &p), CAROM_OK);
    carom_mass_data m = carom_compute_polygon_mass(&p, 2.0);
    /* m = 2 * (2 * 1) = 4; I = m (w^2 + h^2) / 12 = 4 * 5 / 12. */
    cr_expect(relative_close(m.mass, 4.0, TOL), "mass %.17g", m.mass);
    cr_expect(relative_close(m.rotational_inertia, 5.0 / 3.0, TOL), "inertia %.17g",
              m.rotational_inertia);
    expect_vec(m.center, 0.0, 0.0, 1e-15, "center of mass");
}

Test(geometry, offset_box_has_its_center_of_mass_at_its_centroid) {
    carom_polygon p;
    cr_assert_eq(carom_make_box(1.0, 0.5, carom_v2(3.0, -2.0), 0.0, &p), CAROM_OK);
    carom_mass_data m = carom_compute_polygon_mass(&p, 2.0);
    expect_vec(m.center, 3.0, -2.0, 1e-14, "center of mass");
    expect_vec(m.center, p.centroid.x, p.centroid.y, 1e-14, "center of mass vs centroid");
    /* Inertia is about the center of mass, so the offset does not change it. */
    cr_expect(relative_close(m.rotational_inertia, 5.0 / 3.0, TOL), "inertia %.17g",
              m.rotational_inertia);
}

Test(geometry, polygon_built_from_points_has_its_center_of_mass_at_its_centroid) {
    carom_vec2 points[4] = {{2.0, 1.0}, {4.0, 1.0}, {4.0, 2.0}, {2.0, 2.0}};
    carom_polygon p = make_polygon_ok(points, 4);
    carom_mass_data m = carom_compute_polygon_mass(&p, 1.0);
    expect_vec(p.centroid, 3.0, 1.5, 1e-15, "centroid");
    expect_vec(m.center, 3.0, 1.5, 1e-15, "center of mass");
}

Test(geometry, circle_mass_is_density_pi_r_squared_with_inertia_half_m_r_squared) {
    carom_circle circle = {{1.0, 2.0}, 0.5};
    carom_mass_data m = carom_compute_circle_mass(&circle, 3.0);
    double mass = 3.0 * CAROM_PI * 0.25;
    cr_expect(relative_close(m.mass, mass, TOL), "mass %.17g", m.mass);
    cr_expect(relative_close(m.rotational_inertia, 0.5 * mass * 0.25, TOL), "inertia %.17g",
              m.rotational_inertia);
    expect_vec(m.center, 1.0, 2.0, 0.0, "center of mass");
}

/* Polar moment of area of a regular n-gon of circumradius r about its centre:
 * A r^2 (1 + 2 cos^2(pi / n)) / 6 with A = (n / 2) r^2 sin(2 pi / n). (A square of side s gives
 * s^4 / 6, an equilateral triangle of side a gives A a^2 / 12.) */
static double regular_polygon_area(int n, double r) {
    return 0.5 * n * r * r * sin(2.0 * CAROM_PI / n);
}
static double regular_polygon_polar_moment(int n, double r) {
    double c = cos(CAROM_PI / n);
    return regular_polygon_area(n, r) * r * r * (1.0 + 2.0 * c * c) / 6.0;
}

Test(geometry, off_center_regular_hexagon_has_the_analytic_inertia) {
    carom_vec2 center = carom_v2(5.0, -3.0);
    carom_vec2 points[6];
    for (int k = 0; k < 6; ++k) {
        points[k] = on_circle(0.8, 0.1 + k * CAROM_PI / 3.0, center);
    }
    carom_polygon p = make_polygon_ok(points, 6);
    carom_mass_data m = carom_compute_polygon_mass(&p, 1.5);
    double mass = 1.5 * regular_polygon_area(6, 0.8);
    double inertia = 1.5 * regular_polygon_polar_moment(6, 0.8);
    cr_expect(relative_close(m.mass, mass, TOL), "mass %.17g, expected %.17g", m.mass, mass);
    cr_expect(relative_close(m.rotational_inertia, inertia, TOL), "inertia %.17g, expected %.17g",
              m.rotational_inertia, inertia);
    expect_vec(m.center, center.x, center.y, 1e-14, "center of mass");
}

Test(geometry, off_center_equilateral_triangle_has_the_analytic_inertia) {
    /* Side a = 2, circumradius 2 / sqrt(3): area sqrt(3), polar moment A a^2 / 12 = sqrt(3) / 3. */
    carom_vec2 center = carom_v2(-7.0, 11.0);
    double r = 2.0 / sqrt(3.0);
    carom_vec2 points[3];
    for (int k = 0; k < 3; ++k) {
        points[k] = on_circle(r, 0.7 + k * 2.0 * CAROM_PI / 3.0, center);
    }
    carom_polygon p = make_polygon_ok(points, 3);
    carom_mass_data m = carom_compute_polygon_mass(&p, 1.0);
    cr_expect(relative_close(m.mass, sqrt(3.0), TOL), "mass %.17g", m.mass);
    cr_expect(relative_close(m.rotational_inertia, sqrt(3.0) / 3.0, TOL), "inertia %.17g",
              m.rotational_inertia);
    expect_vec(m.center, center.x, center.y, 1e-14, "center of mass");
}

Test(geometry, zero_density_gives_zero_mass_and_inertia) {
    carom_polygon p;
    cr_assert_eq(carom_make_box(1.0, 0.5, carom_v2(1.0, 1.0), 0.0, &p), CAROM_OK);
    carom_mass_data m = carom_compute_polygon_mass(&p, 0.0);
    cr_expect_eq(m.mass, 0.0);
    cr_expect_eq(m.rotational_inertia, 0.0);
    carom_circle circle = {{0.0, 0.0}, 2.0};
    carom_mass_data cm = carom_compute_circle_mass(&circle, 0.0);
    cr_expect_eq(cm.mass, 0.0);
    cr_expect_eq(cm.rotational_inertia, 0.0);
}

Test(geometry, segment_polygon_has_no_mass) {
    carom_segment segment = {{-1.0, 0.0}, {1.0, 0.0}};
    carom_polygon p = carom_make_segment_polygon(&segment);
    carom_mass_data m = carom_compute_polygon_mass(&p, 5.0);
    cr_expect_eq(m.mass, 0.0);
    cr_expect_eq(m.rotational_inertia, 0.0);
}

/* ---- Bounding boxes --------------------------------------------------------------------- */

Test(geometry, circle_aabb_under_a_transform_is_exact) {
    /* Centre (1, 2) turned 90 degrees -> (-2, 1), moved by (10, 20) -> (8, 21); radius 0.5. */
    carom_circle circle = {{1.0, 2.0}, 0.5};
    carom_transform xf = {{10.0, 20.0}, {0.0, 1.0}};
    carom_aabb box = carom_compute_circle_aabb(&circle, xf);
    expect_vec(box.lower, 7.5, 20.5, 0.0, "lower");
    expect_vec(box.upper, 8.5, 21.5, 0.0, "upper");
}

Test(geometry, rotated_polygon_aabb_is_tight) {
    /* Box 2 x 1 turned by (c, s) = (0.6, 0.8): corners (-0.2, -1.1), (1, 0.5), (0.2, 1.1),
     * (-1, -0.5), then moved by (3, 4). Exact up to the rounding of 0.6 and 0.8. */
    carom_polygon p;
    cr_assert_eq(carom_make_box(1.0, 0.5, carom_v2(0.0, 0.0), 0.0, &p), CAROM_OK);
    carom_transform xf = {{3.0, 4.0}, {0.6, 0.8}};
    carom_aabb box = carom_compute_polygon_aabb(&p, xf);
    expect_vec(box.lower, 2.0, 2.9, 1e-15 * 8, "lower");
    expect_vec(box.upper, 4.0, 5.1, 1e-15 * 8, "upper");
}

Test(geometry, segment_aabb_under_a_transform_is_exact) {
    /* (0, 0) and (2, 1) turned 90 degrees -> (0, 0) and (-1, 2), moved by (1, 1). */
    carom_segment segment = {{0.0, 0.0}, {2.0, 1.0}};
    carom_transform xf = {{1.0, 1.0}, {0.0, 1.0}};
    carom_aabb box = carom_compute_segment_aabb(&segment, xf);
    expect_vec(box.lower, 0.0, 1.0, 0.0, "lower");
    expect_vec(box.upper, 1.0, 3.0, 0.0, "upper");
}
