/* Tests for convex decomposition (issue 16): engine/decompose.c (carom_decompose_polygon) and
 * carom_create_decomposed_polygon_shapes. Every split is checked against the outline by
 * independent arithmetic here: the pieces' areas sum to the outline's, each piece is convex with
 * at most CAROM_MAX_POLYGON_VERTICES vertices taken from the outline, lies inside it, and no two
 * pieces overlap. Then the body's mass against the outline's, refusals and their messages, and
 * the physics: a decomposed star dropped on a heptagon comes to rest on it as one body. */
#include <carom/carom.h>
#include <carom/snapshot.h>

#include "helpers.h"

#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS CAROM_MAX_DECOMPOSE_VERTICES

/* ---- Independent geometry ------------------------------------------------------------- */

static double twice_area(const carom_vec2* points, int count) {
    double sum = 0.0;
    for (int i = 1; i + 1 < count; ++i) {
        sum += carom_cross(carom_sub(points[i], points[0]), carom_sub(points[i + 1], points[0]));
    }
    return sum;
}

static void reverse(carom_vec2* points, int count) {
    for (int i = 0, j = count - 1; i < j; ++i, --j) {
        carom_vec2 t = points[i];
        points[i] = points[j];
        points[j] = t;
    }
}

/* Even-odd rule; p must not be on the outline. */
static bool inside_outline(const carom_vec2* points, int count, carom_vec2 p) {
    bool inside = false;
    for (int i = 0, j = count - 1; i < count; j = i++) {
        carom_vec2 a = points[i], b = points[j];
        if ((a.y > p.y) != (b.y > p.y) &&
            p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
            inside = !inside;
        }
    }
    return inside;
}

/* Interiors of the segments cross (a strict test: shared end points do not count). */
static bool segments_cross(carom_vec2 a, carom_vec2 b, carom_vec2 c, carom_vec2 d) {
    double o1 = carom_cross(carom_sub(b, a), carom_sub(c, a));
    double o2 = carom_cross(carom_sub(b, a), carom_sub(d, a));
    double o3 = carom_cross(carom_sub(d, c), carom_sub(a, c));
    double o4 = carom_cross(carom_sub(d, c), carom_sub(b, c));
    return ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)) &&
           ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0));
}

/* Two convex counter-clockwise polygons whose interiors are apart: some edge normal of one
 * separates them, to within slack (m). */
static bool convex_apart(const carom_polygon* a, const carom_polygon* b, double slack) {
    const carom_polygon* pair[2] = {a, b};
    for (int s = 0; s < 2; ++s) {
        const carom_polygon* p = pair[s];
        const carom_polygon* q = pair[1 - s];
        for (int i = 0; i < p->count; ++i) {
            carom_vec2 e = carom_sub(p->vertices[(i + 1) % p->count], p->vertices[i]);
            carom_vec2 n = carom_normalize(carom_v2(e.y, -e.x));
            double p_max = -INFINITY, q_min = INFINITY;
            for (int k = 0; k < p->count; ++k) {
                p_max = fmax(p_max, carom_dot(n, carom_sub(p->vertices[k], p->vertices[i])));
            }
            for (int k = 0; k < q->count; ++k) {
                q_min = fmin(q_min, carom_dot(n, carom_sub(q->vertices[k], p->vertices[i])));
            }
            if (q_min >= p_max - slack) {
                return true;
            }
        }
    }
    return false;
}

typedef struct split_result {
    int pieces;
    double relative_area_error;
} split_result;

static double worst_area_error = 0.0;

/* Splits the outline and checks everything the pieces must be; returns the piece count. */
static split_result check_split(const carom_vec2* points, int count, const char* name) {
    carom_polygon pieces[CAROM_MAX_DECOMPOSE_PIECES];
    int piece_count = -1;
    carom_clear_last_error();
    carom_status status =
        carom_decompose_polygon(points, count, pieces, CAROM_MAX_DECOMPOSE_PIECES, &piece_count);
    cr_assert_eq(status, CAROM_OK, "%s: %s", name, carom_last_error());
    cr_assert(piece_count >= 1 && piece_count <= count - 2, "%s: %d pieces of %d points", name,
              piece_count, count);
    double outline_area = fabs(0.5 * twice_area(points, count));
    double scale = 0.0;
    for (int i = 0; i < count; ++i) {
        scale = fmax(scale, carom_length(carom_sub(points[i], points[0])));
    }
    double area_sum = 0.0;
    for (int p = 0; p < piece_count; ++p) {
        const carom_polygon* piece = &pieces[p];
        cr_assert(piece->count >= 3 && piece->count <= CAROM_MAX_POLYGON_VERTICES,
                  "%s: piece %d has %d vertices", name, p, piece->count);
        area_sum += 0.5 * twice_area(piece->vertices, piece->count);
        for (int k = 0; k < piece->count; ++k) {
            carom_vec2 prev = piece->vertices[(k + piece->count - 1) % piece->count];
            carom_vec2 v = piece->vertices[k];
            carom_vec2 next = piece->vertices[(k + 1) % piece->count];
            cr_assert(carom_cross(carom_sub(v, prev), carom_sub(next, v)) > 0.0,
                      "%s: piece %d is not convex at its vertex %d", name, p, k);
            bool from_outline = false;
            for (int i = 0; i < count && !from_outline; ++i) {
                from_outline = points[i].x == v.x && points[i].y == v.y;
            }
            cr_assert(from_outline, "%s: piece %d vertex (%g, %g) is not an outline vertex", name,
                      p, v.x, v.y);
            for (int i = 0; i < count; ++i) {
                cr_assert(!segments_cross(v, next, points[i], points[(i + 1) % count]),
                          "%s: piece %d's edge %d crosses outline edge %d", name, p, k, i);
            }
        }
        cr_assert(inside_outline(points, count, piece->centroid),
                  "%s: piece %d's centroid (%g, %g) is outside the outline", name, p,
                  piece->centroid.x, piece->centroid.y);
        for (int q = 0; q < p; ++q) {
            cr_assert(convex_apart(piece, &pieces[q], 1e-9 * scale),
                      "%s: pieces %d and %d overlap", name, q, p);
        }
    }
    double error = fabs(area_sum - outline_area) / outline_area;
    cr_assert(error <= 1e-9, "%s: pieces' area %.17g, outline's %.17g (relative error %g)", name,
              area_sum, outline_area, error);
    worst_area_error = fmax(worst_area_error, error);
    split_result result = {piece_count, error};
    return result;
}

/* Both windings give a valid split of the same size. */
static int check_both_windings(const carom_vec2* points, int count, const char* name) {
    carom_vec2 copy[MAX_POINTS];
    memcpy(copy, points, sizeof(carom_vec2) * (size_t)count);
    int ccw = check_split(copy, count, name).pieces;
    reverse(copy, count);
    int cw = check_split(copy, count, name).pieces;
    cr_expect_eq(ccw, cw, "%s: %d pieces counter-clockwise, %d clockwise", name, ccw, cw);
    return ccw;
}

/* ---- The outlines ----------------------------------------------------------------------- */

/* The seed's five-pointed star (demos/seeds/star.c): tips at radius 2, inner corners at 0.8,
 * the first tip at 54 degrees; carom's own sine and cosine, so the bits are the same on every
 * platform. turn rotates the whole star. */
static int star(carom_vec2* out, double turn) {
    for (int i = 0; i < 10; ++i) {
        double r = i % 2 == 0 ? 2.0 : 0.8;
        carom_rot q = carom_make_rot(0.3 * CAROM_PI + CAROM_PI * i / 5.0 + turn);
        out[i] = carom_v2(r * q.c, r * q.s);
    }
    return 10;
}

static int u_shape(carom_vec2* out) {
    const carom_vec2 u[8] = {{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
    memcpy(out, u, sizeof(u));
    return 8;
}

static int l_shape(carom_vec2* out) {
    const carom_vec2 l[6] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
    memcpy(out, l, sizeof(l));
    return 6;
}

/* A comb: a bar 1 high and teeth 1 wide, 2 long, 1 apart, pointing up. */
static int comb(carom_vec2* out, int teeth) {
    int n = 0;
    double width = 2.0 * teeth - 1.0;
    out[n++] = carom_v2(0.0, 0.0);
    out[n++] = carom_v2(width, 0.0);
    for (int t = teeth - 1; t >= 0; --t) {
        double x = 2.0 * t;
        out[n++] = carom_v2(x + 1.0, 3.0);
        out[n++] = carom_v2(x, 3.0);
        if (t > 0) {
            out[n++] = carom_v2(x, 1.0);
            out[n++] = carom_v2(x - 1.0, 1.0);
        }
    }
    /* the first point of the last tooth is (1, 3), its last (0, 3): out starts at (0, 0) */
    return n;
}

/* A spiral band of count points (even): out along an outer arm, back along an inner one, turning
 * 1.6 turns, the band 0.25 of the radius wide. */
static int spiral(carom_vec2* out, int count) {
    int half = count / 2;
    for (int i = 0; i < half; ++i) {
        double t = (double)i / (half - 1);
        carom_rot q = carom_make_rot(3.2 * CAROM_PI * t);
        double r = 1.0 + 3.0 * t;
        out[i] = carom_v2(r * q.c, r * q.s);
        double inner = r - 0.6;
        out[count - 1 - i] = carom_v2(inner * q.c, inner * q.s);
    }
    return count;
}

/* ---- Shapes ------------------------------------------------------------------------------ */

Test(decompose, seed_star_splits_into_convex_pieces) {
    carom_vec2 points[10];
    star(points, 0.0);
    int pieces = check_both_windings(points, 10, "star");
    /* five reflex corners: each piece resolves at most two, so at least three pieces */
    cr_expect(pieces >= 3 && pieces <= 6, "star: %d pieces", pieces);
    cr_log_info("star: %d pieces", pieces);
}

Test(decompose, u_l_and_comb) {
    carom_vec2 points[MAX_POINTS];
    int count = u_shape(points);
    cr_expect_eq(check_both_windings(points, count, "U"), 3, "U: the fewest is 3");
    count = l_shape(points);
    cr_expect_eq(check_both_windings(points, count, "L"), 2, "L: the fewest is 2");
    for (int teeth = 2; teeth <= 20; ++teeth) {
        count = comb(points, teeth);
        char name[32];
        snprintf(name, sizeof(name), "comb of %d teeth", teeth);
        int pieces = check_both_windings(points, count, name);
        /* a rectangle per tooth; a convex piece keeps no three collinear points, so the bar
         * under the 2 (teeth - 1) gap corners of its top takes a piece or two per unit of it */
        cr_expect(pieces >= teeth && pieces <= 3 * teeth, "%s: %d pieces", name, pieces);
        if (teeth == 5 || teeth == 20) {
            cr_log_info("%s (%d vertices): %d pieces", name, count, pieces);
        }
    }
}

Test(decompose, convex_polygon_of_eight_is_one_piece_in_its_order) {
    carom_vec2 points[8];
    for (int i = 0; i < 8; ++i) {
        carom_rot q = carom_make_rot(2.0 * CAROM_PI * i / 8.0);
        points[i] = carom_v2(3.0 * q.c + 10.0, 2.0 * q.s - 5.0);
    }
    carom_polygon pieces[4];
    int count = 0;
    cr_assert_eq(carom_decompose_polygon(points, 8, pieces, 4, &count), CAROM_OK, "%s",
                 carom_last_error());
    cr_assert_eq(count, 1);
    carom_polygon direct;
    cr_assert_eq(carom_make_polygon(points, 8, &direct), CAROM_OK);
    cr_expect_eq(memcmp(&direct, &pieces[0], sizeof(direct)), 0,
                 "a convex polygon comes back as carom_make_polygon makes it");
}

Test(decompose, spiral_of_64_and_128_vertices) {
    carom_vec2 points[MAX_POINTS];
    int count = spiral(points, 64);
    int pieces = check_both_windings(points, count, "spiral of 64");
    /* the inner arm's 30 middle vertices are reflex: no convex piece holds two of its 31
     * edges, so 31 pieces is the fewest */
    cr_expect_eq(pieces, 31, "spiral of 64: %d pieces", pieces);
    cr_log_info("spiral of 64: %d pieces", pieces);
    count = spiral(points, MAX_POINTS);
    pieces = check_both_windings(points, count, "spiral of 128");
    cr_log_info("spiral of 128: %d pieces", pieces);
}

Test(decompose, collinear_points_are_dropped) {
    /* the U with points on its straight edges: the same three pieces, the same area exactly */
    const carom_vec2 u[14] = {{0, 0},   {1, 0}, {1.5, 0}, {3, 0}, {3, 1.5}, {3, 3}, {2, 3},
                              {2, 2},   {2, 1}, {1, 1},   {1, 2}, {1, 3},   {0, 3}, {0, 1}};
    carom_vec2 points[14];
    memcpy(points, u, sizeof(u));
    cr_expect_eq(check_both_windings(points, 14, "U with collinear points"), 3);
    /* a square with a point off its edge by less than the weld tolerance: the point goes, the
     * area moves by less than tolerance x side / 2 */
    carom_vec2 square[5] = {{0, 0}, {1, 0}, {2, 0.001}, {2, 2}, {0, 2}};
    carom_polygon pieces[3];
    int count = 0;
    cr_assert_eq(carom_decompose_polygon(square, 5, pieces, 3, &count), CAROM_OK, "%s",
                 carom_last_error());
    cr_assert_eq(count, 1);
    cr_expect_eq(pieces[0].count, 4, "the point at (1, 0) is dropped");
}

/* ---- Random simple polygons ------------------------------------------------------------ */

static uint64_t random_state;

static double random_unit(void) {
    random_state = random_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(random_state >> 11) * (1.0 / 9007199254740992.0);
}

static double point_segment_distance(carom_vec2 p, carom_vec2 a, carom_vec2 b) {
    carom_vec2 e = carom_sub(b, a);
    double t = fmin(1.0, fmax(0.0, carom_dot(carom_sub(p, a), e) / carom_dot(e, e)));
    return carom_distance(p, carom_mul_add(a, t, e));
}

/* Clear of every tolerance by a factor of four: no vertex near a line through its neighbours
 * or near an edge it is not on, so nothing is dropped and the split must be exact. */
static bool well_separated(const carom_vec2* points, int count) {
    const double clearance = 4.0 * CAROM_POLYGON_WELD_TOLERANCE;
    for (int k = 0; k < count; ++k) {
        carom_vec2 prev = points[(k + count - 1) % count], next = points[(k + 1) % count];
        carom_vec2 d = carom_normalize(carom_sub(next, prev));
        if (fabs(carom_cross(d, carom_sub(points[k], prev))) < clearance) {
            return false;
        }
        for (int i = 0; i < count; ++i) {
            int i2 = (i + 1) % count;
            if (i != k && i2 != k &&
                point_segment_distance(points[k], points[i], points[i2]) < clearance) {
                return false;
            }
        }
    }
    return true;
}

/* A star-shaped polygon about center: count angles evenly spread and jittered, radii random in
 * [0.15, 1] x scale; redrawn until well separated. */
static void random_star_shaped(carom_vec2* out, int count, double scale, carom_vec2 center) {
    do {
        double start = 2.0 * CAROM_PI * random_unit();
        for (int i = 0; i < count; ++i) {
            double angle = start + 2.0 * CAROM_PI * (i + 0.8 * (random_unit() - 0.5)) / count;
            double r = scale * (0.15 + 0.85 * random_unit());
            carom_rot q = carom_make_rot(angle);
            out[i] = carom_v2(center.x + r * q.c, center.y + r * q.s);
        }
    } while (!well_separated(out, count));
}

/* A random orthogonal polygon: a staircase-like "skyline" of count / 2 columns of random height
 * standing on a bar. Not star-shaped in general. */
static int random_skyline(carom_vec2* out, int columns) {
    int n = 0;
    out[n++] = carom_v2(0.0, 0.0);
    out[n++] = carom_v2((double)columns, 0.0);
    double previous = -1.0;
    for (int c = columns - 1; c >= 0; --c) {
        double h;
        do {
            h = 1.0 + (double)(int)(8.0 * random_unit()) * 0.5;
        } while (h == previous);
        out[n++] = carom_v2(c + 1.0, h);
        out[n++] = carom_v2((double)c, h);
        previous = h;
    }
    return n;
}

Test(decompose, hundreds_of_random_simple_polygons) {
    random_state = 20261125;
    carom_vec2 points[MAX_POINTS];
    int total_pieces = 0, total_vertices = 0, tested = 0;
    for (int trial = 0; trial < 400; ++trial) {
        int count = 4 + (int)(61.0 * random_unit()); /* 4..64 */
        double scale = 0.5 + 20.0 * random_unit();
        carom_vec2 center = carom_v2(200.0 * (random_unit() - 0.5), 200.0 * (random_unit() - 0.5));
        random_star_shaped(points, count, scale, center);
        if (trial % 2 == 1) {
            reverse(points, count);
        }
        char name[48];
        snprintf(name, sizeof(name), "random polygon %d (%d vertices)", trial, count);
        total_pieces += check_split(points, count, name).pieces;
        total_vertices += count;
        tested += 1;
    }
    for (int trial = 0; trial < 100; ++trial) {
        int count = random_skyline(points, 2 + (int)(30.0 * random_unit()));
        if (trial % 2 == 1) {
            reverse(points, count);
        }
        char name[48];
        snprintf(name, sizeof(name), "random skyline %d (%d vertices)", trial, count);
        total_pieces += check_split(points, count, name).pieces;
        total_vertices += count;
        tested += 1;
    }
    cr_log_info("%d random polygons, %d vertices in all: %d pieces; worst relative area error "
                "of every split so far %.3g",
                tested, total_vertices, total_pieces, worst_area_error);
}

/* Star-shaped polygons snapped to a 0.25 m grid: many exactly collinear points, some repeated
 * points and some crossings made by the snapping. Each is either split exactly (a point on a
 * grid line is exactly collinear or at least 4 mm off any line through two others, so nothing
 * is dropped but exactly collinear points) or refused as an invalid polygon with a message. */
Test(decompose, grid_snapped_polygons_split_or_are_refused) {
    random_state = 77;
    carom_vec2 points[MAX_POINTS];
    int split = 0, refused = 0, crossing = 0;
    for (int trial = 0; trial < 300; ++trial) {
        int count = 4 + (int)(40.0 * random_unit());
        double start = 2.0 * CAROM_PI * random_unit();
        for (int i = 0; i < count; ++i) {
            /* jitter of up to the spacing either way: neighbours often swap */
            double angle = start + 2.0 * CAROM_PI * (i + 2.0 * (random_unit() - 0.5)) / count;
            double r = 1.0 + 4.0 * random_unit();
            carom_rot q = carom_make_rot(angle);
            points[i] = carom_v2(0.25 * round(4.0 * r * q.c), 0.25 * round(4.0 * r * q.s));
        }
        int kept = 0; /* repeated grid points left out, so the other refusals are reached */
        for (int i = 0; i < count; ++i) {
            bool repeated = false;
            for (int k = 0; k < kept; ++k) {
                repeated |= points[k].x == points[i].x && points[k].y == points[i].y;
            }
            if (!repeated) {
                points[kept++] = points[i];
            }
        }
        count = kept;
        carom_polygon pieces[CAROM_MAX_DECOMPOSE_PIECES];
        int piece_count = -1;
        carom_clear_last_error();
        carom_status status = carom_decompose_polygon(points, count, pieces,
                                                      CAROM_MAX_DECOMPOSE_PIECES, &piece_count);
        char name[48];
        snprintf(name, sizeof(name), "grid polygon %d (%d points)", trial, count);
        if (status == CAROM_OK) {
            check_split(points, count, name);
            split += 1;
        } else {
            cr_assert_eq(status, CAROM_ERROR_INVALID_POLYGON, "%s: %s", name, carom_last_error());
            cr_assert(strlen(carom_last_error()) > 20 && piece_count == 0, "%s: \"%s\"", name,
                      carom_last_error());
            crossing += strstr(carom_last_error(), "cross each other") != NULL;
            refused += 1;
        }
    }
    cr_log_info("grid-snapped polygons: %d split, %d refused (%d for crossing edges)", split,
                refused, crossing);
    cr_expect(split >= 30 && refused >= 30 && crossing >= 10,
              "both kinds are met: %d split, %d refused, %d crossing", split, refused, crossing);
}

Test(decompose, same_bits_every_time) {
    carom_vec2 points[MAX_POINTS];
    int count = spiral(points, 64);
    carom_polygon a[CAROM_MAX_DECOMPOSE_PIECES], b[CAROM_MAX_DECOMPOSE_PIECES];
    int na = 0, nb = 0;
    memset(a, 0, sizeof(a));
    memset(b, 0, sizeof(b));
    cr_assert_eq(carom_decompose_polygon(points, count, a, CAROM_MAX_DECOMPOSE_PIECES, &na),
                 CAROM_OK);
    cr_assert_eq(carom_decompose_polygon(points, count, b, CAROM_MAX_DECOMPOSE_PIECES, &nb),
                 CAROM_OK);
    cr_assert_eq(na, nb);
    cr_expect_eq(memcmp(a, b, sizeof(carom_polygon) * (size_t)na), 0);
}

/* ---- Refusals ---------------------------------------------------------------------------- */

static void expect_refusal(const carom_vec2* points, int count, carom_status expected,
                           const char* message_part) {
    carom_polygon pieces[CAROM_MAX_DECOMPOSE_PIECES];
    int piece_count = -1;
    carom_clear_last_error();
    carom_status status =
        carom_decompose_polygon(points, count, pieces, CAROM_MAX_DECOMPOSE_PIECES, &piece_count);
    cr_expect_eq(status, expected, "expected %s, got %s: %s", carom_status_str(expected),
                 carom_status_str(status), carom_last_error());
    cr_expect_eq(piece_count, 0);
    cr_expect(strstr(carom_last_error(), message_part) != NULL, "message \"%s\" lacks \"%s\"",
              carom_last_error(), message_part);
}

Test(decompose, bow_tie_is_refused_naming_the_crossing_edges) {
    const carom_vec2 bow_tie[4] = {{0, 0}, {1, 1}, {1, 0}, {0, 1}};
    expect_refusal(bow_tie, 4, CAROM_ERROR_INVALID_POLYGON,
                   "polygon edges 0 (vertices 0 to 1) and 2 (vertices 2 to 3) cross each other");
    /* a dodecagon with vertices 2 and 8 swapped: edges far apart in the list cross */
    carom_vec2 eight[12];
    for (int i = 0; i < 12; ++i) {
        int k = i == 2 ? 8 : i == 8 ? 2 : i;
        carom_rot q = carom_make_rot(2.0 * CAROM_PI * k / 12.0);
        eight[i] = carom_v2(q.c, q.s);
    }
    expect_refusal(eight, 12, CAROM_ERROR_INVALID_POLYGON, "cross each other");
}

Test(decompose, other_bad_outlines_are_refused_with_their_reason) {
    const carom_vec2 two[2] = {{0, 0}, {1, 0}};
    expect_refusal(two, 2, CAROM_ERROR_INVALID_POLYGON, "needs at least 3");
    carom_vec2 many[MAX_POINTS + 1];
    for (int i = 0; i <= MAX_POINTS; ++i) {
        carom_rot q = carom_make_rot(2.0 * CAROM_PI * i / (MAX_POINTS + 1));
        many[i] = carom_v2(10.0 * q.c, 10.0 * q.s);
    }
    expect_refusal(many, MAX_POINTS + 1, CAROM_ERROR_TOO_MANY_VERTICES,
                   "CAROM_MAX_DECOMPOSE_VERTICES");
    const carom_vec2 not_finite[3] = {{0, 0}, {1, 0}, {NAN, 1}};
    expect_refusal(not_finite, 3, CAROM_ERROR_NOT_FINITE, "polygon vertex 2");
    const carom_vec2 huge[3] = {{0, 0}, {1, 0}, {1e13, 1}};
    expect_refusal(huge, 3, CAROM_ERROR_OUT_OF_RANGE, "polygon vertex 2");
    const carom_vec2 repeated[5] = {{0, 0}, {2, 0}, {2, 2}, {2.001, 0.0}, {0, 2}};
    expect_refusal(repeated, 5, CAROM_ERROR_INVALID_POLYGON,
                   "polygon vertices 1 and 3 are the same point");
    const carom_vec2 line[4] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
    expect_refusal(line, 4, CAROM_ERROR_INVALID_POLYGON, "lie on one line");
    const carom_vec2 fold[4] = {{0, 0}, {2, 0}, {1, 0}, {1, 1}};
    expect_refusal(fold, 4, CAROM_ERROR_INVALID_POLYGON, "fold back over each other at vertex 1");
    /* vertex 4 of this arrow touches edge 0 exactly */
    const carom_vec2 touching[6] = {{0, 0}, {4, 0}, {4, 2}, {3, 2}, {2, 0}, {0, 2}};
    expect_refusal(touching, 6, CAROM_ERROR_INVALID_POLYGON, "touch");
    /* and here it comes within a millimetre of it */
    const carom_vec2 near[6] = {{0, 0}, {4, 0}, {4, 2}, {3, 2}, {2, 0.001}, {0, 2}};
    expect_refusal(near, 6, CAROM_ERROR_INVALID_POLYGON,
                   "polygon vertex 4 (2, 0.001) is 0.001 m from edge 0");
}

Test(decompose, arguments_are_checked) {
    carom_vec2 points[10];
    star(points, 0.0);
    carom_polygon pieces[2];
    int count = -1;
    carom_clear_last_error();
    cr_expect_eq(carom_decompose_polygon(points, 10, pieces, 2, &count),
                 CAROM_ERROR_BUFFER_TOO_SMALL);
    cr_expect(count > 2, "the count needed is given: %d", count);
    cr_expect_eq(carom_decompose_polygon(NULL, 10, pieces, 2, &count), CAROM_ERROR_NULL_ARGUMENT);
    cr_expect_eq(carom_decompose_polygon(points, 10, NULL, 2, &count), CAROM_ERROR_NULL_ARGUMENT);
    cr_expect_eq(carom_decompose_polygon(points, 10, pieces, 2, NULL), CAROM_ERROR_NULL_ARGUMENT);
    cr_expect_eq(carom_decompose_polygon(points, 10, pieces, -1, &count),
                 CAROM_ERROR_OUT_OF_RANGE);
}

/* ---- On a body -------------------------------------------------------------------------- */

/* The outline's mass properties by the shoelace formulas, about vertex 0 then moved to the
 * centroid: area, centroid, polar second moment about the centroid (per unit density). */
static void outline_mass(const carom_vec2* points, int count, double* area, carom_vec2* centroid,
                         double* inertia) {
    carom_vec2 o = points[0];
    double a = 0.0, j = 0.0;
    carom_vec2 first = {0.0, 0.0};
    for (int i = 0; i < count; ++i) {
        carom_vec2 p = carom_sub(points[i], o), q = carom_sub(points[(i + 1) % count], o);
        double cross = carom_cross(p, q);
        a += 0.5 * cross;
        first = carom_add(first, carom_scale(cross / 6.0, carom_add(p, q)));
        j += cross / 12.0 * (carom_dot(p, p) + carom_dot(p, q) + carom_dot(q, q));
    }
    carom_vec2 c = carom_scale(1.0 / a, first);
    *area = a;
    *centroid = carom_add(o, c);
    *inertia = j - a * carom_dot(c, c);
}

static void expect_relative(double actual, double expected, const char* what) {
    cr_expect(fabs(actual - expected) <= 1e-9 * fabs(expected), "%s: %.17g, expected %.17g",
              what, actual, expected);
}

Test(decompose, body_mass_is_the_outlines) {
    const int outlines = 4;
    for (int which = 0; which < outlines; ++which) {
        carom_vec2 points[MAX_POINTS];
        int count = which == 0   ? star(points, 0.0)
                    : which == 1 ? u_shape(points)
                    : which == 2 ? comb(points, 6)
                                 : spiral(points, 64);
        for (int i = 0; i < count; ++i) { /* away from the body origin */
            points[i] = carom_add(points[i], carom_v2(3.0, -1.5));
        }
        carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
        carom_body_def body_def = carom_default_body_def();
        body_def.type = CAROM_BODY_DYNAMIC;
        carom_body_id body = carom_create_body(world, &body_def);
        carom_shape_def def = carom_default_shape_def();
        def.density = 2.5;
        carom_shape_id ids[CAROM_MAX_DECOMPOSE_PIECES];
        int shape_count = 0;
        cr_assert_eq(carom_create_decomposed_polygon_shapes(body, &def, points, count, ids,
                                                            CAROM_MAX_DECOMPOSE_PIECES,
                                                            &shape_count),
                     CAROM_OK, "%s", carom_last_error());
        cr_assert_eq(carom_body_get_shape_count(body), shape_count);
        for (int i = 0; i < shape_count; ++i) {
            cr_expect_eq(carom_shape_get_type(ids[i]), CAROM_SHAPE_POLYGON);
            cr_expect_eq(carom_shape_get_density(ids[i]), 2.5);
        }
        double area, inertia;
        carom_vec2 centroid;
        outline_mass(points, count, &area, &centroid, &inertia);
        expect_relative(carom_body_get_mass(body), 2.5 * area, "mass");
        carom_vec2 center = carom_body_get_local_center(body);
        cr_expect(carom_distance(center, centroid) <= 1e-9 * carom_length(centroid),
                  "outline %d: center (%.17g, %.17g), centroid (%.17g, %.17g)", which, center.x,
                  center.y, centroid.x, centroid.y);
        expect_relative(carom_body_get_rotational_inertia(body), 2.5 * inertia, "inertia");
        carom_destroy_world(world);
    }
}

Test(decompose, refused_outline_creates_nothing) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    carom_body_id body = carom_create_body(world, &body_def);
    carom_shape_def def = carom_default_shape_def();
    const carom_vec2 bow_tie[4] = {{0, 0}, {1, 1}, {1, 0}, {0, 1}};
    carom_shape_id ids[8];
    int shape_count = -1;
    cr_expect_eq(carom_create_decomposed_polygon_shapes(body, &def, bow_tie, 4, ids, 8,
                                                        &shape_count),
                 CAROM_ERROR_INVALID_POLYGON);
    cr_expect_eq(shape_count, 0);
    carom_vec2 points[10];
    star(points, 0.0);
    cr_expect_eq(carom_create_decomposed_polygon_shapes(body, &def, points, 10, ids, 1,
                                                        &shape_count),
                 CAROM_ERROR_BUFFER_TOO_SMALL);
    cr_expect(shape_count > 1);
    cr_expect_eq(carom_body_get_shape_count(body), 0);
    /* ids not wanted: NULL with capacity 0 */
    cr_expect_eq(carom_create_decomposed_polygon_shapes(body, &def, points, 10, NULL, 0,
                                                        &shape_count),
                 CAROM_OK, "%s", carom_last_error());
    cr_expect_eq(carom_body_get_shape_count(body), shape_count);
    carom_destroy_world(world);
    cr_expect_eq(carom_create_decomposed_polygon_shapes(body, &def, points, 10, NULL, 0,
                                                        &shape_count),
                 CAROM_ERROR_INVALID_ID);
}

/* ---- Physics: the seed's star dropped on a heptagon ---------------------------------------- */

Test(decompose, decomposed_star_drops_on_a_heptagon_and_rests_as_one_body) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    /* a static heptagon of radius 3 with a flat top edge (2.6 m long) at y = 3 cos(pi / 7) */
    carom_vec2 heptagon[7];
    for (int i = 0; i < 7; ++i) {
        carom_rot q = carom_make_rot(0.5 * CAROM_PI + CAROM_PI / 7.0 + 2.0 * CAROM_PI * i / 7.0);
        heptagon[i] = carom_v2(3.0 * q.c, 3.0 * q.s);
    }
    double top = heptagon[6].y;
    carom_polygon heptagon_polygon;
    cr_assert_eq(carom_make_polygon(heptagon, 7, &heptagon_polygon), CAROM_OK);
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def def = carom_default_shape_def();
    carom_create_polygon_shape(ground, &def, &heptagon_polygon);

    /* the star turned by 36 degrees stands on two tips 2.35 m apart, 1.618 m below its centre */
    carom_vec2 points[10];
    star(points, 0.2 * CAROM_PI);
    carom_body_def star_def = carom_default_body_def();
    star_def.type = CAROM_BODY_DYNAMIC;
    star_def.position = carom_v2(0.0, top + 1.618 + 1.0);
    star_def.angle = 0.05; /* lands on one tip first, rocks onto the other */
    carom_body_id body = carom_create_body(world, &star_def);
    carom_shape_id ids[CAROM_MAX_DECOMPOSE_PIECES];
    int piece_count = 0;
    cr_assert_eq(carom_create_decomposed_polygon_shapes(body, &def, points, 10, ids,
                                                        CAROM_MAX_DECOMPOSE_PIECES, &piece_count),
                 CAROM_OK, "%s", carom_last_error());
    carom_polygon local[CAROM_MAX_DECOMPOSE_PIECES];
    for (int i = 0; i < piece_count; ++i) {
        cr_assert_eq(carom_shape_get_polygon(ids[i], &local[i]), CAROM_OK);
    }

    int steps = 0;
    double lowest = INFINITY;
    for (; steps < 600 && (steps < 60 || carom_body_is_awake(body)); ++steps) {
        carom_world_step(world, 1.0 / 60.0);
        carom_transform xf = carom_body_get_transform(body);
        for (int i = 0; i < piece_count; ++i) {
            for (int k = 0; k < local[i].count; ++k) {
                lowest = fmin(lowest, carom_transform_point(xf, local[i].vertices[k]).y);
            }
        }
    }
    cr_expect(!carom_body_is_awake(body), "the star still moves after %d steps", steps);
    carom_vec2 v = carom_body_get_linear_velocity(body);
    cr_expect(carom_length(v) < 1e-2 && fabs(carom_body_get_angular_velocity(body)) < 1e-2,
              "velocity (%g, %g), %g rad/s", v.x, v.y, carom_body_get_angular_velocity(body));
    /* one rigid body: every piece still belongs to it, with its local geometry unchanged */
    for (int i = 0; i < piece_count; ++i) {
        carom_polygon now;
        cr_assert_eq(carom_shape_get_polygon(ids[i], &now), CAROM_OK);
        cr_expect_eq(memcmp(&now, &local[i], sizeof(now)), 0, "piece %d changed", i);
        cr_expect(carom_shape_get_body(ids[i]).index1 == body.index1);
    }
    /* it rests on the heptagon's top, on its two lower tips, and never sank into it */
    carom_vec2 p = carom_body_get_position(body);
    double angle = carom_body_get_angle(body);
    cr_expect(fabs(p.x) < 0.5 && fabs(p.y - (top + 1.618)) < 0.02,
              "rests at (%g, %g), expected near (0, %g)", p.x, p.y, top + 1.618);
    cr_expect(fabs(angle) < 0.02, "turned by %g rad", angle);
    cr_expect(lowest > top - 0.02, "a piece sank %g m into the heptagon", top - lowest);
    cr_log_info("star of %d pieces at rest after %d steps at (%.4f, %.4f), angle %.2g, deepest "
                "%.2g m into the heptagon",
                piece_count, steps, p.x, p.y, angle, fmax(0.0, top - lowest));
    carom_destroy_world(world);
}

/* A decomposed body is ordinary polygon shapes to snapshots: saved mid-fall and resumed, it
 * continues bit for bit as the world that was not saved. */
Test(decompose, snapshot_resumes_a_decomposed_body_bit_for_bit) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    carom_vec2 points[MAX_POINTS];
    int count = comb(points, 4);
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(0.0, 2.0);
    def.angle = 0.4;
    carom_body_id body = carom_create_body(world, &def);
    carom_shape_def shape_def = carom_default_shape_def();
    int pieces = 0;
    cr_assert_eq(carom_create_decomposed_polygon_shapes(body, &shape_def, points, count, NULL, 0,
                                                        &pieces),
                 CAROM_OK, "%s", carom_last_error());
    test_step(world, 1.0 / 60.0, 30);
    size_t size = 0;
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size), CAROM_OK);
    char* bytes = malloc(size);
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, bytes, size, &size), CAROM_OK);
    carom_world_id copy = carom_create_world_from_snapshot(bytes, size);
    free(bytes);
    cr_assert(carom_world_is_valid(copy), "%s", carom_last_error());
    test_step(world, 1.0 / 60.0, 90);
    test_step(copy, 1.0 / 60.0, 90);
    cr_expect_eq(carom_world_hash(world), carom_world_hash(copy));
    carom_destroy_world(copy);
    carom_destroy_world(world);
}
