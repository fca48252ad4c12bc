/* sat_boxes: rotated rectangles tested by the separating axis theorem.
 *
 * Two convex shapes are apart exactly when some axis separates their projections; for
 * polygons it is enough to try each edge normal of both. Four pairs of rotated boxes: two apart
 * (one whose bounding boxes overlap, the case a box test gets wrong), two overlapping. The
 * picture shows each pair with the axis found, both projections on it, and the gap (green) or
 * the least overlap (red, the minimum translation distance). The same pairs go through carom's
 * own carom_collide_polygons for comparison.
 *
 *   sat_boxes [out.png]        (default sat_boxes.png) */
#include "seed.h"

#include <math.h>
#include <stdio.h>

typedef struct pair {
    const char* label;
    double a_hw, a_hh, a_angle;
    carom_vec2 b_center;
    double b_hw, b_hh, b_angle;
} pair;

static const pair pairs[4] = {
    {"apart, bounding boxes overlap", 1.2, 0.35, 0.6, {1.45, 1.1}, 0.9, 0.3, -0.5},
    {"apart", 0.8, 0.5, -0.3, {2.3, -0.4}, 0.6, 0.6, 0.4},
    {"overlapping", 1.1, 0.45, 0.25, {1.3, 0.5}, 0.8, 0.35, 1.2},
    {"corner into a face", 1.0, 0.6, 0.0, {1.55, 0.35}, 0.5, 0.5, 0.785},
};

static int aabbs_overlap(const carom_vec2* a, const carom_vec2* b) {
    carom_vec2 a_lo = a[0], a_hi = a[0], b_lo = b[0], b_hi = b[0];
    for (int i = 1; i < 4; ++i) {
        a_lo = carom_min_v(a_lo, a[i]);
        a_hi = carom_max_v(a_hi, a[i]);
        b_lo = carom_min_v(b_lo, b[i]);
        b_hi = carom_max_v(b_hi, b[i]);
    }
    return a_lo.x <= b_hi.x && b_lo.x <= a_hi.x && a_lo.y <= b_hi.y && b_lo.y <= a_hi.y;
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "sat_boxes.png";
    seed_grid grid = seed_grid_make(600, 360, 2, 2, 2);
    int failures = 0;
    for (int k = 0; k < 4; ++k) {
        const pair* p = &pairs[k];
        carom_polygon a, b;
        carom_make_box(p->a_hw, p->a_hh, carom_v2(0.0, 0.0), p->a_angle, &a);
        carom_make_box(p->b_hw, p->b_hh, p->b_center, p->b_angle, &b);
        carom_transform identity = carom_transform_identity();
        carom_vec2 av[4], bv[4];
        seed_place(&a, identity, av);
        seed_place(&b, identity, bv);
        sat_result sat = sat_test(av, 4, bv, 4);
        carom_manifold m = carom_collide_polygons(&a, identity, &b, identity, 100.0);
        double deepest = INFINITY;
        for (int i = 0; i < m.point_count; ++i) {
            deepest = fmin(deepest, m.points[i].separation);
        }
        int engine_apart = !(deepest < 0.0);
        printf("pair %d (%s):\n  SAT: %s along axis (%.3f, %.3f), %s %.4f m; bounding boxes %s\n"
               "  carom_collide_polygons: normal (%.3f, %.3f), deepest point %.4f m -> %s\n",
               k + 1, p->label, sat.separated ? "separated" : "overlapping", sat.axis.x, sat.axis.y,
               sat.separated ? "gap" : "penetration", fabs(sat.distance),
               aabbs_overlap(av, bv) ? "overlap" : "apart", m.normal.x, m.normal.y, deepest,
               engine_apart ? "apart" : "touching");
        failures += engine_apart != sat.separated;

        carom_vec2 middle = carom_lerp(carom_v2(0.0, 0.0), p->b_center, 0.5);
        canvas c = seed_panel(&grid);
        canvas_view view = seed_view(&grid, carom_sub(middle, carom_v2(0.0, 0.3)), 95.0);
        if (k == 0) {
            /* the bounding boxes, to show they overlap */
            for (int s = 0; s < 2; ++s) {
                const carom_vec2* v = s == 0 ? av : bv;
                carom_vec2 lo = v[0], hi = v[0];
                for (int i = 1; i < 4; ++i) {
                    lo = carom_min_v(lo, v[i]);
                    hi = carom_max_v(hi, v[i]);
                }
                carom_vec2 box[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
                canvas_outline(&c, view, box, 4, 0.01, 0xaaaaaa);
            }
        }
        canvas_fill_polygon(&c, view, av, 4, SEED_BLUE, 0.55);
        canvas_outline(&c, view, av, 4, 0.015, SEED_BLUE);
        canvas_fill_polygon(&c, view, bv, 4, SEED_ORANGE, 0.55);
        canvas_outline(&c, view, bv, 4, 0.015, SEED_ORANGE);
        carom_vec2 perp = carom_left_perp(sat.axis);
        if (perp.y > 0.0) {
            perp = carom_neg(perp); /* draw the axis below the shapes */
        }
        double reach = 0.0; /* put the axis just clear of both shapes */
        for (int i = 0; i < 4; ++i) {
            reach = fmax(reach, carom_dot(carom_sub(av[i], middle), perp));
            reach = fmax(reach, carom_dot(carom_sub(bv[i], middle), perp));
        }
        carom_vec2 origin = carom_mul_add(middle, reach + 0.3, perp);
        seed_draw_axis(&c, view, &sat, origin, 0.02);
        if (!sat.separated) {
            carom_vec2 from = p->b_center;
            canvas_arrow(&c, view, from, carom_mul_add(from, -sat.distance, sat.axis), 0.025,
                         SEED_RED);
        }
        char caption[160];
        snprintf(caption, sizeof(caption), "%d. %s: %s, %s %.3f m", k + 1, p->label,
                 sat.separated ? "separated" : "OVERLAP", sat.separated ? "gap" : "MTD",
                 fabs(sat.distance));
        seed_grid_put(&grid, &c, k % 2, k / 2, caption);
    }
    int status = seed_grid_write(&grid, path);
    printf("%s: the demo's SAT and carom_collide_polygons agree on %d of 4 pairs\n",
           failures == 0 ? "ok" : "MISMATCH", 4 - failures);
    return status != 0 || failures != 0;
}
