/* Convex decomposition: a simple polygon (concave, or with more than CAROM_MAX_POLYGON_VERTICES
 * vertices) split into convex pieces that carom_make_polygon accepts.
 *
 * Three stages, all on the input's own points, so every piece vertex is an outline vertex, bit
 * for bit, and the pieces tile the outline exactly:
 *   1. The outline is checked (count, finite, duplicates, one line, crossings, places where it
 *      nearly touches itself) and made counter-clockwise; vertices on the straight line through
 *      their neighbours are dropped, as a convex piece cannot keep them.
 *   2. Triangulation by dynamic programming over the outline's diagonals: of all
 *      triangulations, the one whose thinnest triangle is the fattest (ties: the largest sum of
 *      fatness). Thin triangles would make merged pieces with near-straight corners, which
 *      carom_make_polygon refuses.
 *   3. Hertel-Mehlhorn merging: a diagonal is removed when the two pieces it separates make one
 *      convex piece (every corner at least CAROM_POLYGON_WELD_TOLERANCE off straight) of at most
 *      CAROM_MAX_POLYGON_VERTICES. A removal never makes a later one possible that was not, so
 *      one pass over the diagonals suffices; the pass is run in three orders (longest diagonal
 *      first, shortest first, triangulation order) and the one with the fewest pieces is kept.
 *      Hertel and Mehlhorn showed such a result has at most four times the fewest convex pieces
 *      possible; on the shapes tested it is far closer (docs/guide.md gives counts).
 *
 * Orientation tests decide which diagonals exist and whether edges cross. They are exact: a
 * floating-point filter, and exact expansion arithmetic (Dekker's product and Knuth's sum, no
 * fused multiply-add) when the filter cannot decide, so a crossing or a diagonal grazing a
 * vertex is never misjudged by rounding. Everything else uses + - * / and sqrt only, so the
 * pieces are the same bits on every compiler and target. */
#include "core.h"

#include "carom/collision.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- Exact orientation ------------------------------------------------------------------- */

/* a + b = *sum + *error exactly (Knuth's two-sum, any magnitudes). */
static void two_sum(double a, double b, double* sum, double* error) {
    double s = a + b;
    double b_virtual = s - a;
    double a_virtual = s - b_virtual;
    *sum = s;
    *error = (a - a_virtual) + (b - b_virtual);
}

/* a = *high + *low with each half of at most 26 significant bits (Veltkamp's split), so the
 * halves' products are exact. */
static void split(double a, double* high, double* low) {
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double big = c - a;
    *high = c - big;
    *low = a - *high;
}

/* a * b = *product + *error exactly (Dekker's product), barring underflow: coordinates within
 * CAROM_MAX_MAGNITUDE whose products are 0 or above 1e-290 in magnitude. */
static void two_product(double a, double b, double* product, double* error) {
    double p = a * b;
    double a_high, a_low, b_high, b_low;
    split(a, &a_high, &a_low);
    split(b, &b_high, &b_low);
    double e1 = p - a_high * b_high;
    double e2 = e1 - a_low * b_high;
    double e3 = e2 - a_high * b_low;
    *product = p;
    *error = a_low * b_low - e3;
}

/* Adds b to the expansion e (count nonzero, non-overlapping components in increasing magnitude,
 * whose exact sum is the value) and returns the new count. */
static int grow_expansion(double* e, int count, double b) {
    double q = b;
    int kept = 0;
    for (int i = 0; i < count; ++i) {
        double sum, error;
        two_sum(q, e[i], &sum, &error);
        q = sum;
        if (error != 0.0) {
            e[kept++] = error; /* kept <= i: e[i] was read already */
        }
    }
    if (q != 0.0) {
        e[kept++] = q;
    }
    return kept;
}

/* The sign of (a - c) x (b - c), from its six products summed exactly. */
static int orientation_exact(carom_vec2 a, carom_vec2 b, carom_vec2 c) {
    const double factors[6][2] = {{a.x, b.y},  {-a.x, c.y}, {-c.x, b.y},
                                  {-a.y, b.x}, {a.y, c.x},  {c.y, b.x}};
    double expansion[24];
    int count = 0;
    for (int i = 0; i < 6; ++i) {
        double product, error;
        two_product(factors[i][0], factors[i][1], &product, &error);
        count = grow_expansion(expansion, count, error);
        count = grow_expansion(expansion, count, product);
    }
    if (count == 0) {
        return 0;
    }
    return expansion[count - 1] > 0.0 ? 1 : -1; /* the largest component carries the sign */
}

/* 1 when c is to the left of the line from a to b (a, b, c counter-clockwise), -1 to the right,
 * 0 on it; exact. The filter is Shewchuk's bound for the rounded determinant. */
static int orientation(carom_vec2 a, carom_vec2 b, carom_vec2 c) {
    double left = (a.x - c.x) * (b.y - c.y);
    double right = (a.y - c.y) * (b.x - c.x);
    double determinant = left - right;
    const double epsilon = 0.5 * DBL_EPSILON;
    double bound = (3.0 + 16.0 * epsilon) * epsilon * (fabs(left) + fabs(right));
    if (determinant > bound) {
        return 1;
    }
    if (-determinant > bound) {
        return -1;
    }
    return orientation_exact(a, b, c);
}

/* p, known to be on the line through a and b, lies on the closed segment between them. */
static bool within_segment(carom_vec2 a, carom_vec2 b, carom_vec2 p) {
    return carom_min_d(a.x, b.x) <= p.x && p.x <= carom_max_d(a.x, b.x) &&
           carom_min_d(a.y, b.y) <= p.y && p.y <= carom_max_d(a.y, b.y);
}

typedef enum segment_contact { SEGMENTS_APART, SEGMENTS_CROSS, SEGMENTS_TOUCH } segment_contact;

/* Whether the closed segments ab and cd share a point: crossing in their interiors, or touching
 * (an endpoint of one on the other, or overlapping along a line). */
static segment_contact segments_meet(carom_vec2 a, carom_vec2 b, carom_vec2 c, carom_vec2 d) {
    int o1 = orientation(a, b, c), o2 = orientation(a, b, d);
    int o3 = orientation(c, d, a), o4 = orientation(c, d, b);
    if (o1 * o2 < 0 && o3 * o4 < 0) {
        return SEGMENTS_CROSS;
    }
    if ((o1 == 0 && within_segment(a, b, c)) || (o2 == 0 && within_segment(a, b, d)) ||
        (o3 == 0 && within_segment(c, d, a)) || (o4 == 0 && within_segment(c, d, b))) {
        return SEGMENTS_TOUCH;
    }
    return SEGMENTS_APART;
}

/* ---- Stage 1: the outline checked and made counter-clockwise ------------------------------ */

typedef struct outline {
    carom_vec2 points[CAROM_MAX_DECOMPOSE_VERTICES];
    int input_index[CAROM_MAX_DECOMPOSE_VERTICES]; /* for messages: the caller's numbering */
    int count;
} outline;

static double distance_to_line(carom_vec2 p, carom_vec2 a, carom_vec2 b) {
    carom_vec2 direction = carom_normalize(carom_sub(b, a));
    return fabs(carom_cross(direction, carom_sub(p, a)));
}

static double distance_to_segment(carom_vec2 p, carom_vec2 a, carom_vec2 b) {
    carom_vec2 edge = carom_sub(b, a);
    double t = carom_dot(carom_sub(p, a), edge) / carom_dot(edge, edge);
    t = carom_min_d(1.0, carom_max_d(0.0, t));
    return carom_distance(p, carom_mul_add(a, t, edge));
}

static carom_status check_arguments(const carom_vec2* points, int count, const carom_polygon* pieces,
                                    int capacity, const int* piece_count) {
    if (points == NULL || piece_count == NULL || (pieces == NULL && capacity > 0)) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "decompose polygon: %s is NULL",
                          points == NULL ? "points" : piece_count == NULL ? "piece_count" : "pieces");
    }
    if (capacity < 0) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "decompose polygon: capacity is %d: it must be >= 0", capacity);
    }
    if (count > CAROM_MAX_DECOMPOSE_VERTICES) {
        return carom_fail(CAROM_ERROR_TOO_MANY_VERTICES,
                          "polygon has %d vertices: carom_decompose_polygon takes at most %d "
                          "(CAROM_MAX_DECOMPOSE_VERTICES)",
                          count, CAROM_MAX_DECOMPOSE_VERTICES);
    }
    if (count < 3) {
        return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                          "polygon has %d vertices: it needs at least 3", count);
    }
    return carom_check_polygon_points_finite(points, count);
}

static carom_status check_duplicates_and_line(const carom_vec2* points, int count) {
    const double tolerance_squared = CAROM_POLYGON_WELD_TOLERANCE * CAROM_POLYGON_WELD_TOLERANCE;
    for (int i = 0; i < count; ++i) {
        for (int j = i + 1; j < count; ++j) {
            if (carom_distance_squared(points[i], points[j]) < tolerance_squared) {
                return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                                  "polygon vertices %d and %d are the same point (%g, %g), closer "
                                  "than %g m: remove the duplicate",
                                  i, j, points[i].x, points[i].y, CAROM_POLYGON_WELD_TOLERANCE);
            }
        }
    }
    for (int i = 2; i < count; ++i) {
        if (orientation(points[0], points[1], points[i]) != 0) {
            return CAROM_OK;
        }
    }
    return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                      "all %d polygon vertices lie on one line: the polygon has no area", count);
}

/* Edges i (vertex i to i + 1) of the outline must not meet except where neighbours share a
 * vertex, and there they must not fold back along each other. */
static carom_status check_simple(const carom_vec2* points, int count) {
    for (int i = 0; i < count; ++i) {
        carom_vec2 previous = points[(i + count - 1) % count];
        carom_vec2 vertex = points[i];
        carom_vec2 next = points[(i + 1) % count];
        if (orientation(previous, vertex, next) == 0 &&
            carom_dot(carom_sub(vertex, previous), carom_sub(next, vertex)) < 0.0) {
            return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                              "polygon edges %d and %d fold back over each other at vertex %d "
                              "(%g, %g): the outline must not run back along itself",
                              (i + count - 1) % count, i, i, vertex.x, vertex.y);
        }
    }
    for (int i = 0; i < count; ++i) {
        for (int j = i + 2; j < count; ++j) {
            if (i == 0 && j == count - 1) {
                continue; /* neighbours through vertex 0 */
            }
            int i2 = i + 1, j2 = (j + 1) % count;
            segment_contact contact = segments_meet(points[i], points[i2], points[j], points[j2]);
            if (contact != SEGMENTS_APART) {
                return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                                  "polygon edges %d (vertices %d to %d) and %d (vertices %d to %d) "
                                  "%s: the outline must not intersect itself; a self-intersecting "
                                  "outline is not a polygon carom can split",
                                  i, i, i2, j, j, j2,
                                  contact == SEGMENTS_CROSS ? "cross each other" : "touch");
            }
        }
    }
    return CAROM_OK;
}

/* A vertex closer than the weld tolerance to an edge it is not on: pieces there would be thinner
 * than the engine can take. The closest approach of two edges that do not meet is always at a
 * vertex, so checking vertices against edges finds every such place. */
static carom_status check_clearance(const carom_vec2* points, int count) {
    for (int k = 0; k < count; ++k) {
        for (int i = 0; i < count; ++i) {
            int i2 = (i + 1) % count;
            if (k == i || k == i2) {
                continue;
            }
            double distance = distance_to_segment(points[k], points[i], points[i2]);
            if (distance < CAROM_POLYGON_WELD_TOLERANCE) {
                return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                                  "polygon vertex %d (%g, %g) is %g m from edge %d (vertices %d to "
                                  "%d), closer than %g m (CAROM_POLYGON_WELD_TOLERANCE): the "
                                  "outline almost touches itself there; move them apart",
                                  k, points[k].x, points[k].y, distance, i, i, i2,
                                  CAROM_POLYGON_WELD_TOLERANCE);
            }
        }
    }
    return CAROM_OK;
}

/* Twice the signed area (shoelace, about vertex 0 for precision far from the origin). */
static double twice_signed_area(const carom_vec2* points, int count) {
    double sum = 0.0;
    for (int i = 1; i + 1 < count; ++i) {
        sum += carom_cross(carom_sub(points[i], points[0]), carom_sub(points[i + 1], points[0]));
    }
    return sum;
}

static void remove_point(outline* shape, int index) {
    for (int i = index; i + 1 < shape->count; ++i) {
        shape->points[i] = shape->points[i + 1];
        shape->input_index[i] = shape->input_index[i + 1];
    }
    shape->count -= 1;
}

/* A vertex within the weld tolerance of the segment between its neighbours is dropped, provided
 * every input vertex between those neighbours (those dropped before included) stays within the
 * tolerance of it: the outline then moves by less than the tolerance however many are dropped,
 * and by nothing for exactly collinear ones. */
static bool can_drop(const outline* shape, const carom_vec2* input, int input_count, int i) {
    int count = shape->count;
    int p = (i + count - 1) % count, n = (i + 1) % count;
    carom_vec2 a = shape->points[p], b = shape->points[n];
    carom_vec2 v = shape->points[i];
    carom_vec2 edge = carom_sub(b, a);
    double t = carom_dot(carom_sub(v, a), edge) / carom_dot(edge, edge);
    if (!(t > 0.0 && t < 1.0) ||
        distance_to_line(v, a, b) > CAROM_POLYGON_WELD_TOLERANCE) {
        return false;
    }
    for (int k = (shape->input_index[p] + 1) % input_count; k != shape->input_index[n];
         k = (k + 1) % input_count) {
        if (distance_to_segment(input[k], a, b) > CAROM_POLYGON_WELD_TOLERANCE) {
            return false;
        }
    }
    return true;
}

/* The checked outline, counter-clockwise, without straight-through vertices. Input indices run
 * in the input's order when it was counter-clockwise and backwards when it was clockwise. */
static carom_status make_outline(const carom_vec2* points, int count, outline* out) {
    carom_status status = check_duplicates_and_line(points, count);
    if (status == CAROM_OK) {
        status = check_simple(points, count);
    }
    if (status == CAROM_OK) {
        status = check_clearance(points, count);
    }
    if (status != CAROM_OK) {
        return status;
    }
    bool clockwise = twice_signed_area(points, count) < 0.0;
    out->count = count;
    for (int i = 0; i < count; ++i) {
        int source = clockwise ? (count - i) % count : i; /* vertex 0 stays first */
        out->points[i] = points[source];
        out->input_index[i] = source;
    }
    /* The input order of the dropped-vertex check must be counter-clockwise too. */
    carom_vec2 ccw_input[CAROM_MAX_DECOMPOSE_VERTICES];
    for (int i = 0; i < count; ++i) {
        ccw_input[i] = out->points[i];
        out->input_index[i] = i;
    }
    int dropped_any = 1;
    while (dropped_any && out->count > 3) {
        dropped_any = 0;
        for (int i = 0; i < out->count && out->count > 3; ++i) {
            if (can_drop(out, ccw_input, count, i)) {
                remove_point(out, i);
                dropped_any = 1;
                break;
            }
        }
    }
    for (int i = 0; i < out->count; ++i) { /* back to the caller's numbering */
        int k = out->input_index[i];
        out->input_index[i] = clockwise ? (count - k) % count : k;
    }
    return CAROM_OK;
}

/* ---- Stage 2: the fattest triangulation ---------------------------------------------------- */

/* The tables of the dynamic programme, entry [i * n + j] for i < j: whether i-j is an edge or
 * diagonal, and for the sub-polygon i, i + 1, ..., j the best triangulation's thinnest
 * triangle, its summed fatness and the apex k of the triangle on i-j. */
typedef struct triangulation_tables {
    unsigned char* usable;
    double* thinnest;
    double* fatness_sum;
    int* apex;
} triangulation_tables;

/* Whether the segment from vertex i towards vertex j starts into the polygon's interior at i
 * (the counter-clockwise outline's cone at i, strictly). */
static bool in_cone(const outline* shape, int i, int j) {
    int n = shape->count;
    carom_vec2 a = shape->points[i], b = shape->points[j];
    carom_vec2 previous = shape->points[(i + n - 1) % n], next = shape->points[(i + 1) % n];
    if (orientation(a, next, previous) >= 0) { /* a convex (or straight) corner */
        return orientation(a, b, previous) > 0 && orientation(b, a, next) > 0;
    }
    return !(orientation(a, b, next) >= 0 && orientation(b, a, previous) >= 0);
}

static bool is_diagonal(const outline* shape, int i, int j) {
    if (!in_cone(shape, i, j) || !in_cone(shape, j, i)) {
        return false;
    }
    int n = shape->count;
    for (int k = 0; k < n; ++k) {
        int k2 = (k + 1) % n;
        if (k == i || k == j || k2 == i || k2 == j) {
            continue;
        }
        if (segments_meet(shape->points[i], shape->points[j], shape->points[k],
                          shape->points[k2]) != SEGMENTS_APART) {
            return false;
        }
    }
    return true;
}

/* Scale-free fatness of a counter-clockwise triangle: twice its area over the sum of its squared
 * sides; largest (1 / sqrt(3)) for an equilateral one, towards 0 for a sliver. */
static double fatness(carom_vec2 a, carom_vec2 b, carom_vec2 c) {
    double twice_area = carom_cross(carom_sub(b, a), carom_sub(c, a));
    double sides = carom_distance_squared(a, b) + carom_distance_squared(b, c) +
                   carom_distance_squared(c, a);
    return twice_area / sides;
}

/* Fills the tables; false when the whole polygon has no triangulation (which exact predicates on
 * a checked simple polygon never give, but which is refused rather than trusted). */
static bool triangulate(const outline* shape, triangulation_tables* t) {
    int n = shape->count;
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            bool edge = j == i + 1 || (i == 0 && j == n - 1);
            t->usable[i * n + j] = edge || is_diagonal(shape, i, j);
            t->thinnest[i * n + j] = INFINITY;
            t->fatness_sum[i * n + j] = 0.0;
            t->apex[i * n + j] = j == i + 1 ? -1 : -2; /* -2: no triangulation (yet) */
        }
    }
    for (int gap = 2; gap < n; ++gap) {
        for (int i = 0; i + gap < n; ++i) {
            int j = i + gap;
            if (!t->usable[i * n + j]) {
                continue;
            }
            for (int k = i + 1; k < j; ++k) {
                if (!t->usable[i * n + k] || !t->usable[k * n + j] || t->apex[i * n + k] == -2 ||
                    t->apex[k * n + j] == -2) {
                    continue;
                }
                double f = fatness(shape->points[i], shape->points[k], shape->points[j]);
                double thinnest = carom_min_d(f, carom_min_d(t->thinnest[i * n + k],
                                                              t->thinnest[k * n + j]));
                double sum = f + t->fatness_sum[i * n + k] + t->fatness_sum[k * n + j];
                double best = t->thinnest[i * n + j];
                if (t->apex[i * n + j] == -2 || thinnest > best ||
                    (thinnest == best && sum > t->fatness_sum[i * n + j])) {
                    t->thinnest[i * n + j] = thinnest;
                    t->fatness_sum[i * n + j] = sum;
                    t->apex[i * n + j] = k;
                }
            }
        }
    }
    return t->apex[n - 1] != -2;
}

/* ---- Stage 3: merging across diagonals ------------------------------------------------------ */

typedef struct piece {
    int vertices[CAROM_MAX_POLYGON_VERTICES]; /* outline indices, counter-clockwise */
    int count;
    int merged_into; /* -1 while the piece stands on its own */
} piece;

typedef struct diagonal {
    int u, w;        /* outline indices of its ends */
    int side_a, side_b; /* the triangles on either side */
} diagonal;

/* Triangles of the chosen triangulation, in the order the programme's tree is walked. */
static int collect_triangles(const outline* shape, const triangulation_tables* t, piece* out) {
    int n = shape->count;
    int stack[2 * CAROM_MAX_DECOMPOSE_VERTICES][2];
    int depth = 0, count = 0;
    stack[depth][0] = 0;
    stack[depth][1] = n - 1;
    depth += 1;
    while (depth > 0) {
        depth -= 1;
        int i = stack[depth][0], j = stack[depth][1];
        if (j - i < 2) {
            continue;
        }
        int k = t->apex[i * n + j];
        piece* triangle = &out[count++];
        triangle->vertices[0] = i;
        triangle->vertices[1] = k;
        triangle->vertices[2] = j;
        triangle->count = 3;
        triangle->merged_into = -1;
        stack[depth][0] = k;
        stack[depth][1] = j;
        stack[depth + 1][0] = i;
        stack[depth + 1][1] = k;
        depth += 2;
    }
    return count;
}

/* Position of the directed edge from -> to in a piece, or -1. */
static int find_edge(const piece* p, int from, int to) {
    for (int i = 0; i < p->count; ++i) {
        if (p->vertices[i] == from && p->vertices[(i + 1) % p->count] == to) {
            return i;
        }
    }
    return -1;
}

/* Every edge that two triangles share, each once. */
static int collect_diagonals(const piece* triangles, int triangle_count, diagonal* out) {
    int count = 0;
    for (int a = 0; a < triangle_count; ++a) {
        for (int e = 0; e < 3; ++e) {
            int u = triangles[a].vertices[e], w = triangles[a].vertices[(e + 1) % 3];
            for (int b = a + 1; b < triangle_count; ++b) {
                if (find_edge(&triangles[b], w, u) >= 0) {
                    diagonal d = {u, w, a, b};
                    out[count++] = d;
                }
            }
        }
    }
    return count;
}

/* A strictly convex corner, as carom_make_polygon requires: turning left, and farther than the
 * weld tolerance from the line through its neighbours (the same arithmetic as its test). */
static bool convex_corner(carom_vec2 previous, carom_vec2 vertex, carom_vec2 next) {
    return carom_cross(carom_sub(vertex, previous), carom_sub(next, vertex)) > 0.0 &&
           distance_to_line(vertex, previous, next) > CAROM_POLYGON_WELD_TOLERANCE;
}

static bool convex_at(const outline* shape, const piece* p, int position) {
    int c = p->count;
    return convex_corner(shape->points[p->vertices[(position + c - 1) % c]],
                         shape->points[p->vertices[position]],
                         shape->points[p->vertices[(position + 1) % c]]);
}

static int root_piece(const piece* pieces, int index) {
    while (pieces[index].merged_into >= 0) {
        index = pieces[index].merged_into;
    }
    return index;
}

/* Merges the pieces on either side of d when the result is convex and small enough. */
static void try_merge(const outline* shape, piece* pieces, const diagonal* d) {
    int a = root_piece(pieces, d->side_a), b = root_piece(pieces, d->side_b);
    piece* pa = &pieces[a];
    piece* pb = &pieces[b];
    if (pa->count + pb->count - 2 > CAROM_MAX_POLYGON_VERTICES) {
        return;
    }
    /* the diagonal runs x -> y in one piece and y -> x in the other */
    int x = d->u, y = d->w;
    int in_a = find_edge(pa, x, y);
    if (in_a < 0) {
        x = d->w;
        y = d->u;
        in_a = find_edge(pa, x, y);
    }
    int in_b = find_edge(pb, y, x);
    CAROM_ASSERT(in_a >= 0 && in_b >= 0);
    /* a from y round to x, then b strictly between x and y */
    piece merged;
    merged.count = 0;
    merged.merged_into = -1;
    for (int i = 1; i <= pa->count; ++i) {
        merged.vertices[merged.count++] = pa->vertices[(in_a + i) % pa->count];
    }
    for (int i = 2; i < pb->count; ++i) {
        merged.vertices[merged.count++] = pb->vertices[(in_b + i) % pb->count];
    }
    /* only the corners at the diagonal's ends changed */
    if (!convex_at(shape, &merged, pa->count - 1) || !convex_at(shape, &merged, 0)) {
        return;
    }
    *pa = merged;
    pb->merged_into = a;
}

typedef enum merge_order { LONGEST_FIRST, SHORTEST_FIRST, TRIANGULATION_ORDER } merge_order;

static double diagonal_length_squared(const outline* shape, const diagonal* d) {
    return carom_distance_squared(shape->points[d->u], shape->points[d->w]);
}

/* Merges in the given order and returns how many pieces stand. */
static int merge_pieces(const outline* shape, piece* pieces, int piece_count,
                        const diagonal* diagonals, int diagonal_count, merge_order order) {
    int sequence[CAROM_MAX_DECOMPOSE_VERTICES];
    for (int i = 0; i < diagonal_count; ++i) {
        sequence[i] = i;
    }
    if (order != TRIANGULATION_ORDER) { /* stable insertion sort: ties keep triangulation order */
        for (int i = 1; i < diagonal_count; ++i) {
            int item = sequence[i];
            double length = diagonal_length_squared(shape, &diagonals[item]);
            int j = i - 1;
            for (; j >= 0; --j) {
                double other = diagonal_length_squared(shape, &diagonals[sequence[j]]);
                if (order == LONGEST_FIRST ? other >= length : other <= length) {
                    break;
                }
                sequence[j + 1] = sequence[j];
            }
            sequence[j + 1] = item;
        }
    }
    for (int i = 0; i < diagonal_count; ++i) {
        try_merge(shape, pieces, &diagonals[sequence[i]]);
    }
    int standing = 0;
    for (int i = 0; i < piece_count; ++i) {
        standing += pieces[i].merged_into < 0;
    }
    return standing;
}

/* ---- The pieces out --------------------------------------------------------------------- */

/* Each piece checked as carom_make_polygon will check it, so a refusal names the outline's
 * vertex, then made. */
static carom_status emit_pieces(const outline* shape, const piece* pieces, int piece_count,
                                carom_polygon* out, int capacity, int* out_count) {
    int standing = 0;
    for (int i = 0; i < piece_count; ++i) {
        const piece* p = &pieces[i];
        if (p->merged_into >= 0) {
            continue;
        }
        for (int k = 0; k < p->count; ++k) {
            if (!convex_at(shape, p, k)) {
                int vertex = p->vertices[k];
                return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                                  "polygon is too thin at vertex %d (%g, %g): every convex piece "
                                  "there has a corner within %g m (CAROM_POLYGON_WELD_TOLERANCE) "
                                  "of a straight line; widen the outline there",
                                  shape->input_index[vertex], shape->points[vertex].x,
                                  shape->points[vertex].y, CAROM_POLYGON_WELD_TOLERANCE);
            }
        }
        standing += 1;
    }
    *out_count = standing;
    if (standing > capacity) {
        return carom_fail(CAROM_ERROR_BUFFER_TOO_SMALL,
                          "decompose polygon: the polygon makes %d convex pieces and the array "
                          "holds %d (CAROM_MAX_DECOMPOSE_PIECES is always enough)",
                          standing, capacity);
    }
    int written = 0;
    for (int i = 0; i < piece_count; ++i) {
        const piece* p = &pieces[i];
        if (p->merged_into >= 0) {
            continue;
        }
        /* from the piece's first outline vertex, so that a convex outline comes back in its
         * own order */
        int first = 0;
        for (int k = 1; k < p->count; ++k) {
            first = p->vertices[k] < p->vertices[first] ? k : first;
        }
        carom_vec2 corners[CAROM_MAX_POLYGON_VERTICES];
        for (int k = 0; k < p->count; ++k) {
            corners[k] = shape->points[p->vertices[(first + k) % p->count]];
        }
        carom_status status = carom_make_polygon(corners, p->count, &out[written]);
        if (status != CAROM_OK) {
            return status;
        }
        written += 1;
    }
    return CAROM_OK;
}

static carom_status decompose_outline(const outline* shape, carom_polygon* out, int capacity,
                                      int* out_count) {
    int n = shape->count;
    size_t cells = (size_t)n * (size_t)n;
    char* memory = carom_alloc(cells * (sizeof(unsigned char) + 2 * sizeof(double) + sizeof(int)));
    triangulation_tables tables;
    tables.thinnest = (double*)memory;
    tables.fatness_sum = tables.thinnest + cells;
    tables.apex = (int*)(tables.fatness_sum + cells);
    tables.usable = (unsigned char*)(tables.apex + cells);
    bool triangulated = triangulate(shape, &tables);
    piece triangles[CAROM_MAX_DECOMPOSE_PIECES];
    int triangle_count = triangulated ? collect_triangles(shape, &tables, triangles) : 0;
    carom_free(memory);
    if (!triangulated) {
        return carom_fail(CAROM_ERROR_INVALID_POLYGON,
                          "polygon could not be triangulated: its outline is not simple");
    }
    diagonal diagonals[CAROM_MAX_DECOMPOSE_PIECES];
    int diagonal_count = collect_diagonals(triangles, triangle_count, diagonals);
    piece best[CAROM_MAX_DECOMPOSE_PIECES];
    int best_count = 0;
    const merge_order orders[3] = {LONGEST_FIRST, SHORTEST_FIRST, TRIANGULATION_ORDER};
    for (int o = 0; o < 3; ++o) {
        piece trial[CAROM_MAX_DECOMPOSE_PIECES];
        memcpy(trial, triangles, sizeof(piece) * (size_t)triangle_count);
        int standing =
            merge_pieces(shape, trial, triangle_count, diagonals, diagonal_count, orders[o]);
        if (o == 0 || standing < best_count) {
            memcpy(best, trial, sizeof(piece) * (size_t)triangle_count);
            best_count = standing;
        }
    }
    return emit_pieces(shape, best, triangle_count, out, capacity, out_count);
}

carom_status carom_decompose_polygon(const carom_vec2* points, int count, carom_polygon* pieces,
                                     int capacity, int* piece_count) {
    if (piece_count != NULL) {
        *piece_count = 0;
    }
    carom_status status = check_arguments(points, count, pieces, capacity, piece_count);
    if (status != CAROM_OK) {
        return status;
    }
    outline shape;
    status = make_outline(points, count, &shape);
    if (status != CAROM_OK) {
        return status;
    }
    return decompose_outline(&shape, pieces, capacity, piece_count);
}
