/* Shape geometry getters (issue 16): every kind read back as created, in its body's frame;
 * the wrong kind, a NULL output and stale ids refused. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <string.h>

static carom_world_id world;
static carom_body_id body;

/* A turned, offset dynamic body: getters answer in the body frame, whatever its pose. */
static void setup(void) {
    world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    def.type = CAROM_BODY_DYNAMIC;
    def.position = carom_v2(3.0, -2.0);
    def.angle = 0.7;
    body = carom_create_body(world, &def);
}

static void teardown(void) { carom_destroy_world(world); }

TestSuite(shape_geometry, .init = setup, .fini = teardown);

static bool same_vec(carom_vec2 a, carom_vec2 b) { return a.x == b.x && a.y == b.y; }

Test(shape_geometry, circles_polygons_and_rounded_polygons_come_back_as_created) {
    carom_shape_def def = carom_default_shape_def();
    carom_circle circle = {{0.25, -0.5}, 0.75};
    carom_shape_id c = carom_create_circle_shape(body, &def, &circle);
    carom_circle got_circle;
    cr_assert_eq(carom_shape_get_circle(c, &got_circle), CAROM_OK);
    cr_assert(same_vec(got_circle.center, circle.center) && got_circle.radius == 0.75);

    carom_vec2 points[5] = {{0.0, 0.0}, {1.0, 0.0}, {1.5, 0.8}, {0.5, 1.4}, {-0.4, 0.7}};
    carom_polygon pentagon;
    cr_assert_eq(carom_make_polygon(points, 5, &pentagon), CAROM_OK);
    carom_shape_id p = carom_create_polygon_shape(body, &def, &pentagon);
    carom_polygon got;
    cr_assert_eq(carom_shape_get_polygon(p, &got), CAROM_OK);
    cr_assert(memcmp(&got, &pentagon, sizeof got) == 0, "the polygon bit for bit");
    cr_assert_eq(got.radius, 0.0, "sharp corners");

    carom_shape_id r = carom_create_rounded_box_shape(body, &def, 0.5, 0.25, carom_v2(1.0, 2.0),
                                                      0.3, 0.1);
    carom_polygon rounded;
    cr_assert_eq(carom_make_rounded_box(0.5, 0.25, carom_v2(1.0, 2.0), 0.3, 0.1, &rounded),
                 CAROM_OK);
    cr_assert_eq(carom_shape_get_polygon(r, &got), CAROM_OK);
    cr_assert_eq(got.radius, 0.1, "the rounding radius");
    cr_assert_eq(got.count, 4);
    for (int i = 0; i < 4; ++i) {
        cr_assert(same_vec(got.vertices[i], rounded.vertices[i]), "core vertex %d", i);
    }
    cr_assert_eq(carom_shape_get_type(r), CAROM_SHAPE_POLYGON);
}

Test(shape_geometry, capsules_segments_and_chain_segments_come_back_as_created) {
    carom_shape_def def = carom_default_shape_def();
    carom_capsule capsule = {{-0.5, 0.1}, {0.7, 0.3}, 0.2};
    carom_shape_id cap = carom_create_capsule_shape(body, &def, &capsule);
    carom_capsule got_capsule;
    cr_assert_eq(carom_shape_get_capsule(cap, &got_capsule), CAROM_OK, "%s", carom_last_error());
    cr_assert(same_vec(got_capsule.center1, capsule.center1));
    cr_assert(same_vec(got_capsule.center2, capsule.center2));
    cr_assert_eq(got_capsule.radius, 0.2);
    carom_polygon as_polygon;
    cr_assert_eq(carom_shape_get_polygon(cap, &as_polygon), CAROM_ERROR_OUT_OF_RANGE,
                 "a capsule is its own type");
    cr_assert(strstr(carom_last_error(), "carom_shape_get_polygon") != NULL, "%s",
              carom_last_error());

    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_segment segment = {{-2.0, 0.0}, {2.0, 0.5}};
    carom_shape_id seg = carom_create_segment_shape(ground, &def, &segment);
    carom_segment got_segment;
    cr_assert_eq(carom_shape_get_segment(seg, &got_segment), CAROM_OK);
    cr_assert(same_vec(got_segment.point1, segment.point1));
    cr_assert(same_vec(got_segment.point2, segment.point2));

    carom_vec2 chain_points[4] = {{0.0, 0.0}, {1.0, 0.0}, {2.0, 0.5}, {3.0, 0.5}};
    carom_shape_id links[3];
    cr_assert_eq(carom_create_chain(ground, &def, chain_points, 4, 0, links), CAROM_OK);
    carom_chain_segment middle;
    cr_assert_eq(carom_shape_get_chain_segment(links[1], &middle), CAROM_OK);
    cr_assert(same_vec(middle.ghost1, chain_points[0]) && same_vec(middle.point1, chain_points[1]));
    cr_assert(same_vec(middle.point2, chain_points[2]) && same_vec(middle.ghost2, chain_points[3]));
    cr_assert(middle.has_ghost1 && middle.has_ghost2);
    carom_chain_segment first;
    cr_assert_eq(carom_shape_get_chain_segment(links[0], &first), CAROM_OK);
    cr_assert(!first.has_ghost1 && first.has_ghost2, "an open chain's first link");
    cr_assert_eq(carom_shape_get_segment(links[1], &got_segment), CAROM_OK,
                 "a chain link answers as a segment too");
    cr_assert(same_vec(got_segment.point1, chain_points[1]));
    cr_assert_eq(carom_shape_get_chain_segment(seg, &middle), CAROM_ERROR_OUT_OF_RANGE,
                 "a plain segment is no chain link");
}

Test(shape_geometry, the_wrong_kind_a_null_output_and_stale_ids_are_refused) {
    carom_shape_def def = carom_default_shape_def();
    carom_circle circle = {{0.0, 0.0}, 0.5};
    carom_shape_id c = carom_create_circle_shape(body, &def, &circle);
    carom_capsule capsule;
    cr_assert_eq(carom_shape_get_capsule(c, &capsule), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "type") != NULL, "%s", carom_last_error());
    cr_assert_eq(carom_shape_get_capsule(c, NULL), CAROM_ERROR_NULL_ARGUMENT);
    carom_circle out = {{9.0, 9.0}, 9.0};
    /* a destroyed shape, then a shape of a destroyed world */
    carom_destroy_shape(c);
    cr_assert_eq(carom_shape_get_circle(c, &out), CAROM_ERROR_INVALID_ID);
    cr_assert(out.radius == 9.0, "nothing written");
    carom_capsule cap = {{0.0, 0.0}, {1.0, 0.0}, 0.25};
    carom_shape_id s = carom_create_capsule_shape(body, &def, &cap);
    carom_polygon box;
    carom_make_box(0.5, 0.5, carom_v2(0.0, 0.0), 0.0, &box);
    carom_shape_id b = carom_create_polygon_shape(body, &def, &box);
    carom_destroy_body(body);
    cr_assert_eq(carom_shape_get_capsule(s, &capsule), CAROM_ERROR_INVALID_ID);
    carom_world_id gone = world;
    world = test_make_world(carom_v2(0.0, 0.0)); /* for the teardown */
    carom_destroy_world(gone);
    cr_assert_eq(carom_shape_get_polygon(b, &box), CAROM_ERROR_INVALID_ID);
    carom_segment segment;
    cr_assert_eq(carom_shape_get_segment(b, &segment), CAROM_ERROR_INVALID_ID);
    carom_chain_segment link;
    cr_assert_eq(carom_shape_get_chain_segment(b, &link), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_shape_get_circle(b, &out), CAROM_ERROR_INVALID_ID);
}
