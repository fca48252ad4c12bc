/* star: a concave star against a heptagon, by the separating axis test.
 *
 * SAT is exact for convex shapes only. A five-pointed star is concave: projected on any axis it
 * covers the same interval as its convex hull, so a heptagon resting in the notch between two
 * arms, touching neither, has no separating axis among the star's edge normals and SAT wrongly
 * reports an overlap. carom refuses such a polygon (carom_make_polygon takes convex hulls only).
 * The cure is to split the star into convex pieces (five kites, each the centre, two inner
 * corners and the tip between them) and test each piece: every piece then has a separating
 * axis, and the answer is right. With the pieces as five shapes of one static body, a heptagon
 * dropped into the notch comes to rest there, held by the two arms.
 *
 *   star [out.png]        (default star.png) */
#include "seed.h"

#include <math.h>
#include <stdio.h>

#define ARMS 5
#define OUTER 2.0
#define INNER 0.8

static void star_points(carom_vec2* out) {
    for (int i = 0; i < 2 * ARMS; ++i) {
        double r = i % 2 == 0 ? OUTER : INNER;
        double t = 0.3 * CAROM_PI + CAROM_PI * i / ARMS; /* tips at 54 and 126 degrees */
        out[i] = carom_v2(r * cos(t), r * sin(t));
    }
}

/* Piece i: the centre, inner corner before tip i, tip i, inner corner after it. */
static int star_piece(const carom_vec2* star, int i, carom_polygon* out) {
    carom_vec2 kite[4] = {
        {0.0, 0.0}, star[(2 * i + 2 * ARMS - 1) % (2 * ARMS)], star[2 * i], star[2 * i + 1]};
    return carom_make_polygon(kite, 4, out) == CAROM_OK ? 0 : -1;
}

static carom_polygon heptagon(double radius) {
    carom_vec2 points[7];
    for (int i = 0; i < 7; ++i) {
        double t = 2.0 * CAROM_PI * i / 7.0;
        points[i] = carom_v2(radius * cos(t), radius * sin(t));
    }
    carom_polygon polygon;
    carom_make_polygon(points, 7, &polygon);
    return polygon;
}

/* Drop the heptagon into the upper-right notch of the star with carom; its resting place. */
static carom_vec2 drop_in_notch(const carom_polygon* pieces, const carom_polygon* hept,
                                carom_vec2 start, carom_world_id* world_out,
                                carom_body_id* body_out) {
    carom_world_def world_def = carom_default_world_def();
    carom_world_id world = carom_create_world(&world_def);
    carom_body_def star_def = carom_default_body_def();
    carom_body_id star = carom_create_body(world, &star_def);
    carom_shape_def shape = carom_default_shape_def();
    for (int i = 0; i < ARMS; ++i) {
        carom_create_polygon_shape(star, &shape, &pieces[i]);
    }
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_DYNAMIC;
    body_def.position = start;
    carom_body_id body = carom_create_body(world, &body_def);
    carom_create_polygon_shape(body, &shape, hept);
    for (int i = 0; i < 240; ++i) {
        carom_world_step(world, 1.0 / 60.0);
    }
    *world_out = world;
    *body_out = body;
    return carom_body_get_position(body);
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "star.png";
    carom_vec2 star[2 * ARMS];
    star_points(star);
    carom_polygon as_polygon;
    carom_status status = carom_make_polygon(star, 2 * ARMS, &as_polygon);
    printf("carom_make_polygon(star of 10 points): %s%s%s\n", carom_status_str(status),
           status == CAROM_OK ? "" : ": ", status == CAROM_OK ? "" : carom_last_error());

    carom_polygon pieces[ARMS];
    for (int i = 0; i < ARMS; ++i) {
        if (star_piece(star, i, &pieces[i]) != 0) {
            printf("piece %d is not convex: %s\n", i, carom_last_error());
            return 1;
        }
    }
    /* a concave quadrilateral (a chevron) is refused too: its hull drops the inner corner */
    carom_vec2 chevron[4] = {{0.0, 0.0}, {1.0, 1.0}, {0.0, 0.4}, {-1.0, 1.0}};
    status = carom_make_polygon(chevron, 4, &as_polygon);
    printf("carom_make_polygon(concave chevron): %s%s%s\n", carom_status_str(status),
           status == CAROM_OK ? "" : ": ", status == CAROM_OK ? "" : carom_last_error());

    /* the heptagon in the notch at the top, between the two upper tips... */
    carom_polygon hept = heptagon(0.45);
    carom_vec2 notch = carom_scale(1.35, carom_normalize(star[1]));
    carom_transform in_notch = {notch, {1.0, 0.0}};
    /* ...and one pushed into an arm */
    carom_transform in_arm = {carom_v2(0.55, 1.25), {1.0, 0.0}};
    carom_vec2 hv[7], arm_hv[7];
    seed_place(&hept, in_notch, hv);
    seed_place(&hept, in_arm, arm_hv);

    int wrong = 0;
    for (int k = 0; k < 2; ++k) {
        const carom_vec2* h = k == 0 ? hv : arm_hv;
        sat_result whole = sat_test(star, 2 * ARMS, h, 7);
        int any = 0;
        for (int i = 0; i < ARMS; ++i) {
            any |= !sat_test(pieces[i].vertices, pieces[i].count, h, 7).separated;
        }
        printf("heptagon %s: SAT on the whole star says %s; SAT on the 5 convex pieces says %s\n",
               k == 0 ? "in the notch (touching nothing)" : "pushed into an arm",
               whole.separated ? "apart" : "OVERLAP", any ? "OVERLAP" : "apart");
        wrong += k == 0 ? (any || whole.separated) : (!any || whole.separated);
    }

    carom_world_id world;
    carom_body_id body;
    carom_vec2 start = carom_add(notch, carom_v2(0.3, 1.5));
    carom_vec2 rest = drop_in_notch(pieces, &hept, start, &world, &body);
    printf("dropped from (%.2f, %.2f), the heptagon rests at (%.3f, %.3f), %s\n", start.x, start.y,
           rest.x, rest.y, carom_body_is_awake(body) ? "awake" : "asleep");

    seed_grid grid = seed_grid_make(420, 420, 3, 1, 2);
    carom_vec2 center = carom_v2(0.0, 0.2);
    /* 1. the whole star: SAT sees its hull */
    canvas c = seed_panel(&grid);
    canvas_view view = seed_view(&grid, center, 85.0);
    carom_polygon hull;
    carom_make_polygon((carom_vec2[]){star[0], star[2], star[4], star[6], star[8]}, 5, &hull);
    canvas_fill_polygon(&c, view, hull.vertices, hull.count, 0xdddddd, 1.0);
    canvas_fill_polygon(&c, view, star, 2 * ARMS, SEED_BLUE, 0.6);
    canvas_outline(&c, view, star, 2 * ARMS, 0.02, SEED_BLUE);
    canvas_fill_polygon(&c, view, hv, 7, SEED_RED, 0.7);
    seed_grid_put(&grid, &c, 0, 0, "1. SAT on the whole star: OVERLAP (wrong)");
    /* 2. the pieces: each has a separating axis */
    c = seed_panel(&grid);
    const uint32_t piece_colors[ARMS] = {0x3f7fd9, 0x5c9be8, 0x2f63b5, 0x79aef0, 0x4a86cc};
    for (int i = 0; i < ARMS; ++i) {
        canvas_fill_polygon(&c, view, pieces[i].vertices, pieces[i].count, piece_colors[i], 0.75);
        canvas_outline(&c, view, pieces[i].vertices, pieces[i].count, 0.015, 0xffffff);
    }
    canvas_fill_polygon(&c, view, hv, 7, SEED_GREEN, 0.8);
    for (int i = 0; i < 2; ++i) {
        /* the two arms beside the notch: the line midway across each one's gap */
        sat_result sat = sat_test(pieces[i].vertices, pieces[i].count, hv, 7);
        carom_vec2 base = carom_scale(0.5 * (sat.a_max + sat.b_min), sat.axis);
        carom_vec2 along = carom_left_perp(sat.axis);
        double t = carom_dot(notch, along);
        canvas_line(&c, view, carom_mul_add(base, t - 0.55, along),
                    carom_mul_add(base, t + 0.55, along), 0.02, SEED_GREEN, 1.0);
    }
    seed_grid_put(&grid, &c, 1, 0, "2. SAT on 5 convex pieces: apart (right)");
    /* 3. carom with the pieces: the heptagon rests in the notch */
    c = seed_panel(&grid);
    render_style style = {0.03, 0.8, 0.8, true, NULL, NULL};
    render_world(&c, view, world, &style);
    canvas_line(&c, view, start, rest, 0.015, 0x999999, 1.0);
    seed_grid_put(&grid, &c, 2, 0, "3. dropped onto the pieces: rests in the notch");
    carom_destroy_world(world);
    int written = seed_grid_write(&grid, path);
    printf("%s: the whole star fools SAT, the convex pieces do not\n", wrong ? "MISMATCH" : "ok");
    return written != 0 || wrong != 0;
}
