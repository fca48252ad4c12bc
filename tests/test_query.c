/* World queries: ray casts, overlap tests, and the pure ray casts they use. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static carom_world_id world;
static carom_body_id wall, ball, box_body;
static carom_shape_id wall_shape;

/* A wall at x = 10 (a segment), a ball of radius 1 at (5, 0), a 2 x 2 box at (5, 5) and a
 * sensor zone around (0, 5). */
static void setup(void) {
    world = test_make_world(carom_v2(0.0, 0.0));
    carom_body_def def = carom_default_body_def();
    wall = carom_create_body(world, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_segment segment = {{10.0, -10.0}, {10.0, 10.0}};
    wall_shape = carom_create_segment_shape(wall, &shape, &segment);
    shape.is_sensor = 1;
    carom_create_box_shape(wall, &shape, 1.0, 1.0, carom_v2(0.0, 5.0), 0.0);
    ball = test_make_ball(world, carom_v2(5.0, 0.0), 1.0, carom_v2(0.0, 0.0), 0.6, 0.0);
    box_body = test_make_box(world, carom_v2(5.0, 5.0), 1.0, 1.0, 0.0, 0.6, 0.0);
    test_step(world, 1.0 / 60.0, 1);
}

static void teardown(void) { carom_destroy_world(world); }

TestSuite(query, .init = setup, .fini = teardown);

Test(query, closest_ray_hit_is_the_first_surface_along_the_ray) {
    carom_ray_result r = carom_world_cast_ray_closest(world, carom_v2(0.0, 0.0),
                                                      carom_v2(20.0, 0.0), carom_default_filter());
    cr_assert(r.hit);
    cr_assert(carom_body_id_equals(carom_shape_get_body(r.shape), ball));
    cr_assert_float_eq(r.point.x, 4.0, 1e-12);
    cr_assert_float_eq(r.fraction, 0.2, 1e-12);
    cr_assert_float_eq(r.normal.x, -1.0, 1e-12);
}

Test(query, ray_passes_through_sensors_and_hits_the_wall_behind_the_box_row) {
    /* along y = 5: the sensor at x in [-1, 1] is skipped, the box face at x = 4 is hit */
    carom_ray_result r = carom_world_cast_ray_closest(world, carom_v2(-5.0, 5.0),
                                                      carom_v2(20.0, 0.0), carom_default_filter());
    cr_assert(r.hit);
    cr_assert(carom_body_id_equals(carom_shape_get_body(r.shape), box_body));
    cr_assert_float_eq(r.point.x, 4.0, 1e-12);
    /* along y = 8: nothing but the wall, a segment */
    r = carom_world_cast_ray_closest(world, carom_v2(0.0, 8.0), carom_v2(20.0, 0.0),
                                     carom_default_filter());
    cr_assert(r.hit);
    cr_assert(carom_shape_id_equals(r.shape, wall_shape));
    cr_assert_float_eq(r.point.x, 10.0, 1e-12);
    cr_assert_float_eq(r.normal.x, -1.0, 1e-12, "the normal faces the ray");
}

typedef struct hit_log {
    int count;
    double fractions[8];
    double stop_at;
} hit_log;

static double log_hit(carom_shape_id shape, carom_vec2 point, carom_vec2 normal, double fraction,
                      void* context) {
    (void)shape;
    (void)point;
    (void)normal;
    hit_log* log = context;
    log->fractions[log->count++] = fraction;
    return log->stop_at;
}

Test(query, all_hits_come_in_order_of_distance_and_the_callback_can_stop_them) {
    hit_log log = {0, {0}, 1.0};
    cr_assert_eq(carom_world_cast_ray(world, carom_v2(0.0, 0.0), carom_v2(20.0, 0.0),
                                      carom_default_filter(), log_hit, &log),
                 CAROM_OK);
    cr_assert_eq(log.count, 2, "ball and wall");
    cr_assert_float_eq(log.fractions[0], 0.2, 1e-12);
    cr_assert_float_eq(log.fractions[1], 0.5, 1e-12);
    hit_log first = {0, {0}, 0.0};
    carom_world_cast_ray(world, carom_v2(0.0, 0.0), carom_v2(20.0, 0.0), carom_default_filter(),
                         log_hit, &first);
    cr_assert_eq(first.count, 1, "returning 0 stops");
}

Test(query, filters_hide_shapes_from_queries) {
    carom_filter filter = carom_default_filter();
    filter.mask = 0; /* sees nothing */
    carom_ray_result r = carom_world_cast_ray_closest(world, carom_v2(0.0, 0.0),
                                                      carom_v2(20.0, 0.0), filter);
    cr_assert_not(r.hit);
}

static int count_shape(carom_shape_id shape, void* context) {
    (void)shape;
    ++*(int*)context;
    return 1;
}

Test(query, point_query_finds_the_shapes_containing_the_point_including_sensors) {
    int found = 0;
    cr_assert_eq(carom_world_overlap_point(world, carom_v2(5.5, 0.5), carom_default_filter(),
                                           count_shape, &found),
                 CAROM_OK);
    cr_assert_eq(found, 1, "inside the ball");
    found = 0;
    carom_world_overlap_point(world, carom_v2(0.2, 5.3), carom_default_filter(), count_shape,
                              &found);
    cr_assert_eq(found, 1, "inside the sensor zone");
    found = 0;
    carom_world_overlap_point(world, carom_v2(5.9, 0.9), carom_default_filter(), count_shape,
                              &found);
    cr_assert_eq(found, 0, "in the ball's box but outside the ball");
}

Test(query, aabb_and_shape_overlap_queries_find_what_they_touch) {
    int found = 0;
    carom_aabb box = {{3.0, -2.0}, {12.0, 6.0}};
    carom_world_overlap_aabb(world, box, carom_default_filter(), count_shape, &found);
    cr_assert_eq(found, 3, "ball, box and wall");
    carom_convex_shape probe = {0};
    probe.is_circle = 1;
    probe.circle.radius = 0.5;
    carom_transform at = {{6.2, 0.0}, {1.0, 0.0}};
    found = 0;
    carom_world_overlap_shape(world, &probe, at, carom_default_filter(), count_shape, &found);
    cr_assert_eq(found, 1, "the probe overlaps the ball");
    at.p = carom_v2(6.6, 0.0);
    found = 0;
    carom_world_overlap_shape(world, &probe, at, carom_default_filter(), count_shape, &found);
    cr_assert_eq(found, 0, "0.1 m clear of the ball");
}

Test(query, queries_check_their_input) {
    carom_ray_result r = carom_world_cast_ray_closest(world, carom_v2(NAN, 0.0),
                                                      carom_v2(1.0, 0.0), carom_default_filter());
    cr_assert_not(r.hit);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_NOT_FINITE);
    cr_assert_eq(carom_world_overlap_point(world, carom_v2(0.0, 0.0), carom_default_filter(),
                                           NULL, NULL),
                 CAROM_ERROR_NULL_ARGUMENT);
    carom_aabb inverted = {{1.0, 1.0}, {0.0, 0.0}};
    int found = 0;
    cr_assert_eq(carom_world_overlap_aabb(world, inverted, carom_default_filter(), count_shape,
                                          &found),
                 CAROM_ERROR_OUT_OF_RANGE);
}

Test(query, ray_cast_against_a_rotated_box_is_exact) {
    carom_polygon square;
    cr_assert_eq(carom_make_box(1.0, 1.0, carom_v2(0.0, 0.0), 0.0, &square), CAROM_OK);
    carom_transform xf = {{0.0, 0.0}, carom_make_rot(CAROM_PI / 4.0)};
    carom_ray_input ray = {{-5.0, 0.0}, {10.0, 0.0}, 1.0};
    carom_cast_output out = carom_ray_cast_polygon(&ray, &square, xf);
    cr_assert(out.hit);
    cr_assert_float_eq(out.point.x, -sqrt(2.0), 1e-12, "the corner of the turned square");
    ray.origin = carom_v2(0.0, 0.0);
    cr_assert_not(carom_ray_cast_polygon(&ray, &square, xf).hit, "from inside: no hit");
}

/* ---- Callbacks run with the world locked (issue 21) --------------------------------------- */

/* Everything a callback might try on the world it was called from. Before the lock, destroying
 * the world inside a ray-cast, overlap or draw callback was a use-after-free in the engine,
 * destroying bodies made the query report destroyed shapes and return OK, and creating bodies
 * inside a draw callback grew the array draw was reading. */
typedef enum abuse {
    DESTROY_WORLD,
    DESTROY_BODY,
    DESTROY_SHAPE,
    CREATE_BODY,
    CREATE_SHAPE,
    STEP,
    MOVE_BODY,
    PUSH_BODY,
    NESTED_RAY_CAST,
    NESTED_OVERLAP,
    NESTED_DRAW,
    ABUSE_COUNT
} abuse;

typedef struct abuser {
    abuse action;
    int calls;
    carom_status status; /* of the action, in the first callback */
    char message[512];   /* its error message */
    int could_read;      /* getters answered inside the callback */
} abuser;

static int count_overlap(carom_shape_id shape, void* context) {
    (void)shape;
    ++*(int*)context;
    return 1;
}

static void abuse_world(abuser* a) {
    if (a->calls++ > 0) {
        return;
    }
    carom_clear_last_error();
    carom_body_def body_def = carom_default_body_def();
    carom_shape_def shape_def = carom_default_shape_def();
    carom_circle circle = {{0.0, 0.0}, 0.5};
    carom_status status = CAROM_OK;
    int found = 0;
    switch (a->action) {
    case DESTROY_WORLD:
        status = carom_destroy_world(world);
        break;
    case DESTROY_BODY:
        status = carom_destroy_body(ball);
        break;
    case DESTROY_SHAPE:
        status = carom_destroy_shape(wall_shape);
        break;
    case CREATE_BODY:
        for (int i = 0; i < 100 && status == CAROM_OK; ++i) {
            status =
                CAROM_IS_NULL(carom_create_body(world, &body_def)) ? carom_last_status() : CAROM_OK;
        }
        break;
    case CREATE_SHAPE:
        status = CAROM_IS_NULL(carom_create_circle_shape(ball, &shape_def, &circle))
                     ? carom_last_status()
                     : CAROM_OK;
        break;
    case STEP:
        status = carom_world_step(world, 1.0 / 60.0);
        break;
    case MOVE_BODY:
        status = carom_body_set_transform(ball, carom_v2(50.0, 50.0), 0.0);
        break;
    case PUSH_BODY:
        status = carom_body_apply_linear_impulse(ball, carom_v2(1.0, 0.0), carom_v2(5.0, 0.0));
        break;
    case NESTED_RAY_CAST: {
        carom_ray_result r = carom_world_cast_ray_closest(
            world, carom_v2(0.0, 0.0), carom_v2(20.0, 0.0), carom_default_filter());
        status = r.hit ? CAROM_OK : carom_last_status();
        break;
    }
    case NESTED_OVERLAP:
        status = carom_world_overlap_point(world, carom_v2(5.0, 0.0), carom_default_filter(),
                                           count_overlap, &found);
        break;
    case NESTED_DRAW: {
        carom_debug_draw draw;
        memset(&draw, 0, sizeof(draw));
        draw.draw_shapes = 1;
        status = carom_world_draw(world, &draw);
        break;
    }
    default:
        break;
    }
    a->status = status;
    snprintf(a->message, sizeof(a->message), "%s", carom_last_error());
    a->could_read = carom_world_is_valid(world) && carom_body_is_valid(ball) &&
                    carom_body_get_position(ball).x == 5.0 &&
                    carom_world_get_counters(world).body_count == 3;
}

static double abuse_from_ray(carom_shape_id shape, carom_vec2 point, carom_vec2 normal,
                             double fraction, void* context) {
    (void)shape;
    (void)point;
    (void)normal;
    (void)fraction;
    abuse_world(context);
    return 1.0;
}

static int abuse_from_overlap(carom_shape_id shape, void* context) {
    (void)shape;
    abuse_world(context);
    return 1;
}

static void abuse_from_polygon(const carom_vec2* vertices, int count, uint32_t color,
                               void* context) {
    (void)vertices;
    (void)count;
    (void)color;
    abuse_world(context);
}

static void abuse_from_circle(carom_vec2 center, double radius, carom_vec2 axis, uint32_t color,
                              void* context) {
    (void)center;
    (void)radius;
    (void)axis;
    (void)color;
    abuse_world(context);
}

/* The world after a query whose callback was refused everything: as it was. */
static void assert_world_intact(const abuser* a, const char* where) {
    cr_assert_gt(a->calls, 0, "%s: the callback ran", where);
    cr_assert_eq(a->status, CAROM_ERROR_WORLD_LOCKED, "%s, action %d: got %s (%s)", where,
                 (int)a->action, carom_status_str(a->status), a->message);
    cr_assert_neq(strstr(a->message, "callback"), NULL, "%s: message '%s'", where, a->message);
    cr_assert(a->could_read, "%s, action %d: getters answer inside the callback", where,
              (int)a->action);
    cr_assert(carom_world_is_valid(world));
    cr_assert(carom_body_is_valid(ball));
    cr_assert(carom_shape_is_valid(wall_shape));
    carom_world_counters counters = carom_world_get_counters(world);
    cr_assert_eq(counters.body_count, 3, "%s, action %d", where, (int)a->action);
    cr_assert_eq(counters.shape_count, 4, "%s, action %d", where, (int)a->action);
    cr_assert_eq(counters.step_count, 1, "%s, action %d", where, (int)a->action);
    cr_assert_eq(carom_body_get_position(ball).x, 5.0);
    cr_assert_eq(carom_body_get_linear_velocity(ball).x, 0.0);
}

Test(query, a_ray_cast_callback_cannot_change_the_world) {
    for (int action = 0; action < ABUSE_COUNT; ++action) {
        abuser a = {(abuse)action, 0, CAROM_OK, "", 0};
        cr_assert_eq(carom_world_cast_ray(world, carom_v2(0.0, 0.0), carom_v2(20.0, 0.0),
                                          carom_default_filter(), abuse_from_ray, &a),
                     CAROM_OK);
        assert_world_intact(&a, "ray cast");
    }
}

Test(query, overlap_callbacks_cannot_change_the_world) {
    carom_aabb box = {{-20.0, -20.0}, {20.0, 20.0}};
    carom_convex_shape probe;
    memset(&probe, 0, sizeof(probe));
    probe.is_circle = 1;
    probe.circle.radius = 2.0;
    carom_transform at_ball = {{5.0, 0.0}, {1.0, 0.0}};
    for (int action = 0; action < ABUSE_COUNT; ++action) {
        abuser a = {(abuse)action, 0, CAROM_OK, "", 0};
        cr_assert_eq(
            carom_world_overlap_aabb(world, box, carom_default_filter(), abuse_from_overlap, &a),
            CAROM_OK);
        assert_world_intact(&a, "aabb overlap");
        abuser p = {(abuse)action, 0, CAROM_OK, "", 0};
        cr_assert_eq(carom_world_overlap_point(world, carom_v2(5.0, 0.0), carom_default_filter(),
                                               abuse_from_overlap, &p),
                     CAROM_OK);
        assert_world_intact(&p, "point overlap");
        abuser s = {(abuse)action, 0, CAROM_OK, "", 0};
        cr_assert_eq(carom_world_overlap_shape(world, &probe, at_ball, carom_default_filter(),
                                               abuse_from_overlap, &s),
                     CAROM_OK);
        assert_world_intact(&s, "shape overlap");
    }
}

Test(query, debug_draw_callbacks_cannot_change_the_world) {
    for (int action = 0; action < ABUSE_COUNT; ++action) {
        abuser a = {(abuse)action, 0, CAROM_OK, "", 0};
        carom_debug_draw draw;
        memset(&draw, 0, sizeof(draw));
        draw.draw_polygon = abuse_from_polygon;
        draw.draw_circle = abuse_from_circle;
        draw.draw_shapes = 1;
        draw.draw_aabbs = 1;
        draw.draw_contacts = 1;
        draw.context = &a;
        cr_assert_eq(carom_world_draw(world, &draw), CAROM_OK);
        assert_world_intact(&a, "draw");
    }
}

Test(query, the_world_is_unlocked_when_the_callbacks_are_done) {
    abuser a = {DESTROY_BODY, 0, CAROM_OK, "", 0};
    carom_world_cast_ray(world, carom_v2(0.0, 0.0), carom_v2(20.0, 0.0), carom_default_filter(),
                         abuse_from_ray, &a);
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK);
    cr_assert_eq(carom_destroy_body(ball), CAROM_OK);
    cr_assert_eq(carom_world_overlap_point(world, carom_v2(5.0, 5.0), carom_default_filter(),
                                           abuse_from_overlap, &a),
                 CAROM_OK);
    cr_assert_eq(carom_destroy_world(world), CAROM_OK);
    world = test_make_world(carom_v2(0.0, 0.0)); /* for the teardown */
}

/* carom.h: queries answer as of the shapes' creation. Before the first step the broad phase has
 * not chosen its cell size and has placed nothing in its grid; the queries must still find every
 * shape (they found none before: a page's first click on a body missed it). */
Test(query, queries_find_shapes_before_the_first_step) {
    carom_world_id fresh = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def def = carom_default_body_def();
    carom_body_id ground = carom_create_body(fresh, &def);
    carom_shape_def shape = carom_default_shape_def();
    carom_create_box_shape(ground, &shape, 10.0, 1.0, carom_v2(0.0, -1.0), 0.0);
    carom_body_id ball_body = test_make_ball(fresh, carom_v2(3.0, 2.0), 0.5, carom_v2(0.0, 0.0),
                                             0.6, 0.0);
    carom_ray_result r = carom_world_cast_ray_closest(fresh, carom_v2(3.0, 10.0),
                                                      carom_v2(0.0, -20.0), carom_default_filter());
    cr_assert(r.hit);
    cr_assert(carom_body_id_equals(carom_shape_get_body(r.shape), ball_body));
    cr_assert_float_eq(r.point.y, 2.5, 1e-12);
    r = carom_world_cast_ray_closest(fresh, carom_v2(-5.0, 10.0), carom_v2(0.0, -20.0),
                                     carom_default_filter());
    cr_assert(r.hit);
    cr_assert(carom_body_id_equals(carom_shape_get_body(r.shape), ground));
    cr_assert_float_eq(r.point.y, 0.0, 1e-12);
    carom_destroy_world(fresh);
}
