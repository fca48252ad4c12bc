/* The world: lifecycle, the fixed-step helper, and bit-for-bit repeatability. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A pile of mixed shapes falling into a box: many contacts, rotation, friction, restitution. */
static uint64_t run_mixed_pile(int steps, double nudge) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_def ground_def = carom_default_body_def();
    carom_body_id ground = carom_create_body(world, &ground_def);
    carom_shape_def wall = carom_default_shape_def();
    carom_create_box_shape(ground, &wall, 10.0, 0.5, carom_v2(0.0, -0.5), 0.0);
    carom_create_box_shape(ground, &wall, 0.5, 10.0, carom_v2(-10.5, 10.0), 0.0);
    carom_create_box_shape(ground, &wall, 0.5, 10.0, carom_v2(10.5, 10.0), 0.0);
    carom_body_id bodies[120];
    int n = 0;
    for (int row = 0; row < 10; ++row) {
        for (int i = 0; i < 12; ++i) {
            carom_vec2 p = {-8.0 + 1.4 * i + 0.1 * (row % 3), 1.0 + 1.3 * row};
            if (n == 0) {
                p.x += nudge;
            }
            if ((row + i) % 3 == 0) {
                bodies[n] = test_make_ball(world, p, 0.5, carom_v2(0.3 * i - 1.0, 0.0), 0.4, 0.3);
            } else if ((row + i) % 3 == 1) {
                bodies[n] = test_make_box(world, p, 0.5, 0.3, 0.1 * i, 0.6, 0.1);
            } else {
                carom_body_def def = carom_default_body_def();
                def.type = CAROM_BODY_DYNAMIC;
                def.position = p;
                def.angular_velocity = 1.0 - 0.2 * row;
                bodies[n] = carom_create_body(world, &def);
                carom_vec2 points[5] = {{0.5, 0.0}, {0.15, 0.47}, {-0.4, 0.29}, {-0.4, -0.29},
                                        {0.15, -0.47}};
                carom_polygon pentagon;
                cr_assert_eq(carom_make_polygon(points, 5, &pentagon), CAROM_OK);
                carom_shape_def shape = carom_default_shape_def();
                carom_create_polygon_shape(bodies[n], &shape, &pentagon);
            }
            ++n;
        }
    }
    test_step(world, 1.0 / 60.0, steps);
    uint64_t hash = test_hash_bodies(bodies, n);
    carom_destroy_world(world);
    return hash;
}

Test(world, same_calls_give_the_same_bits) {
    uint64_t first = run_mixed_pile(300, 0.0);
    uint64_t second = run_mixed_pile(300, 0.0);
    cr_assert_eq(first, second, "%016llx vs %016llx", (unsigned long long)first,
                 (unsigned long long)second);
}

Test(world, one_ulp_of_difference_in_one_body_changes_the_result) {
    uint64_t first = run_mixed_pile(300, 0.0);
    uint64_t nudged = run_mixed_pile(300, nextafter(-8.0, 0.0) - (-8.0));
    cr_assert_neq(first, nudged, "the hash sees a one-ulp change");
}

Test(world, fixed_stepper_runs_whole_steps_and_reports_the_remainder) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_fixed_stepper stepper;
    cr_assert_eq(carom_make_fixed_stepper(0.01, 5, &stepper), CAROM_OK);
    int steps = -1;
    double alpha = -1.0;
    cr_assert_eq(carom_world_advance(world, &stepper, 0.025, &steps, &alpha), CAROM_OK);
    cr_assert_eq(steps, 2);
    cr_assert_float_eq(alpha, 0.5, 1e-9);
    cr_assert_eq(carom_world_advance(world, &stepper, 0.006, &steps, &alpha), CAROM_OK);
    cr_assert_eq(steps, 1);
    cr_assert_float_eq(alpha, 0.1, 1e-9);
    cr_assert_eq(carom_world_get_counters(world).step_count, 3);
    carom_destroy_world(world);
}

Test(world, fixed_stepper_drops_time_it_cannot_catch_up) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_fixed_stepper stepper;
    cr_assert_eq(carom_make_fixed_stepper(0.01, 4, &stepper), CAROM_OK);
    int steps = 0;
    double alpha = 0.0;
    cr_assert_eq(carom_world_advance(world, &stepper, 1.0035, &steps, &alpha), CAROM_OK);
    cr_assert_eq(steps, 4, "no more than max_steps_per_frame");
    cr_assert_float_eq(stepper.dropped_time, 0.96, 1e-9);
    cr_assert_float_eq(alpha, 0.35, 1e-6);
    cr_assert_eq(carom_world_advance(world, &stepper, -1.0, &steps, &alpha),
                 CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_make_fixed_stepper(0.0, 4, &stepper), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_eq(carom_make_fixed_stepper(0.01, 0, &stepper), CAROM_ERROR_OUT_OF_RANGE);
    carom_destroy_world(world);
}

Test(world, gravity_and_substeps_can_be_changed_between_steps) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.5, carom_v2(0.0, 0.0), 0.0,
                                        0.0);
    cr_assert_eq(carom_world_set_gravity(world, carom_v2(3.0, 0.0)), CAROM_OK);
    cr_assert_eq(carom_world_set_substeps(world, 8), CAROM_OK);
    test_step(world, 0.5, 2);
    cr_assert_float_eq(carom_body_get_linear_velocity(ball).x, 3.0, 1e-12);
    cr_assert_eq(carom_body_get_linear_velocity(ball).y, 0.0);
    carom_destroy_world(world);
}

Test(world, free_fall_matches_semi_implicit_euler) {
    /* v_n = g n h, x_n = g h^2 n (n + 1) / 2 with h the substep */
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.5, carom_v2(0.0, 0.0), 0.0,
                                        0.0);
    test_step(world, 0.01, 100);
    double h = 0.0025;
    double n = 400.0;
    cr_assert_float_eq(carom_body_get_linear_velocity(ball).y, -10.0 * n * h, 1e-9);
    cr_assert_float_eq(carom_body_get_position(ball).y, -10.0 * h * h * n * (n + 1.0) / 2.0, 1e-9);
    carom_destroy_world(world);
}

Test(world, destroying_a_world_invalidates_its_bodies_and_shapes) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 0.0), 0.5, carom_v2(0.0, 0.0), 0.0,
                                        0.0);
    carom_world_id again = world;
    cr_assert_eq(carom_destroy_world(world), CAROM_OK);
    cr_assert_not(carom_body_is_valid(ball));
    cr_assert_eq(carom_world_step(again, 0.01), CAROM_ERROR_INVALID_ID);
    /* a new world in the same slot does not revive the old ids */
    carom_world_id fresh = test_make_world(carom_v2(0.0, -10.0));
    cr_assert_eq(fresh.index1, world.index1);
    cr_assert_not(carom_body_is_valid(ball));
    cr_assert_not(carom_world_is_valid(world));
    carom_destroy_world(fresh);
}

/* xorshift64: a fixed-seed generator, so the scene is the same on every run */
static uint64_t rng_state;
static double random_unit(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}
static double random_range(double lo, double hi) { return lo + (hi - lo) * random_unit(); }

Test(world, extreme_but_valid_input_never_puts_nan_in_the_world) {
    for (uint64_t seed = 1; seed <= 8; ++seed) {
        rng_state = seed * 0x9e3779b97f4a7c15ull;
        carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
        test_make_ground(world, 0.0, 0.6, 0.0);
        carom_body_id bodies[80];
        for (int i = 0; i < 80; ++i) {
            carom_body_def def = carom_default_body_def();
            def.type = i % 7 == 0 ? CAROM_BODY_KINEMATIC : CAROM_BODY_DYNAMIC;
            /* one draw per statement: C leaves the order of draws within one call open */
            def.position.x = random_range(-5.0, 5.0);
            def.position.y = random_range(0.0, 6.0);
            def.angle = random_range(-10.0, 10.0);
            def.linear_velocity.x = random_range(-300.0, 300.0);
            def.linear_velocity.y = random_range(-300.0, 300.0);
            def.angular_velocity = random_range(-200.0, 200.0);
            bodies[i] = carom_create_body(world, &def);
            carom_shape_def shape = carom_default_shape_def();
            shape.density = pow(10.0, random_range(-3.0, 4.0)); /* mass ratios up to 1e7 */
            shape.friction = random_range(0.0, 2.0);
            shape.restitution = random_unit();
            double size = pow(10.0, random_range(-2.0, 0.3));
            if (i % 3 == 0) {
                carom_circle circle = {{random_range(-0.1, 0.1), 0.0}, size};
                carom_create_circle_shape(bodies[i], &shape, &circle);
            } else {
                /* at least 1.5 mm thick: boxes have a minimum half extent */
                carom_create_box_shape(bodies[i], &shape, size, size * random_range(0.15, 1.0),
                                       carom_v2(0.0, 0.0), random_unit());
            }
        }
        for (int step = 0; step < 240; ++step) {
            test_step(world, 1.0 / 60.0, 1);
            for (int i = 0; i < 80; ++i) {
                carom_transform xf = carom_body_get_transform(bodies[i]);
                carom_vec2 v = carom_body_get_linear_velocity(bodies[i]);
                cr_assert(isfinite(xf.p.x) && isfinite(xf.p.y) && isfinite(xf.q.c) &&
                              isfinite(xf.q.s) && isfinite(v.x) && isfinite(v.y) &&
                              isfinite(carom_body_get_angular_velocity(bodies[i])),
                          "seed %llu body %d not finite at step %d", (unsigned long long)seed, i,
                          step);
                cr_assert_float_eq(xf.q.c * xf.q.c + xf.q.s * xf.q.s, 1.0, 1e-12,
                                   "rotation stays unit length");
            }
        }
        carom_destroy_world(world);
    }
}

/* A ground, a ball and a box (in that id order), stepped half a second. */
static carom_world_id make_three_bodies(carom_body_id ids[3]) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    ids[0] = test_make_ground(world, 0.0, 0.6, 0.0);
    ids[1] = test_make_ball(world, carom_v2(0.25, 2.0), 0.5, carom_v2(1.0, 0.0), 0.6, 0.5);
    ids[2] = test_make_box(world, carom_v2(-1.0, 3.0), 0.5, 0.25, 0.3, 0.6, 0.0);
    test_step(world, 1.0 / 60.0, 30);
    return world;
}

Test(world, world_hash_is_fnv1a_over_every_body_in_id_order) {
    carom_body_id ids[3];
    carom_world_id world = make_three_bodies(ids);
    /* The definition, written out independently of the engine's: all bodies, static included. */
    uint64_t expected = 0xcbf29ce484222325u;
    for (int i = 0; i < 3; ++i) {
        cr_assert(carom_body_is_valid(ids[i]));
        carom_vec2 p = carom_body_get_position(ids[i]);
        carom_rot q = carom_body_get_rotation(ids[i]);
        carom_vec2 v = carom_body_get_linear_velocity(ids[i]);
        double values[7] = {p.x, p.y, q.c, q.s, v.x, v.y, carom_body_get_angular_velocity(ids[i])};
        for (int k = 0; k < 7; ++k) {
            uint64_t bits;
            memcpy(&bits, &values[k], sizeof(bits));
            for (int byte = 0; byte < 8; ++byte) {
                expected = (expected ^ ((bits >> (8 * byte)) & 0xffu)) * 0x100000001b3u;
            }
        }
    }
    cr_assert_eq(carom_world_hash(world), expected);
    /* one ulp in one velocity changes it */
    carom_vec2 v = carom_body_get_linear_velocity(ids[1]);
    v.x = nextafter(v.x, 10.0);
    carom_body_set_linear_velocity(ids[1], v);
    cr_assert_neq(carom_world_hash(world), expected);
    carom_destroy_world(world);
    cr_assert_eq(carom_world_hash(world), 0u);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
}

Test(world, bodies_hash_of_every_body_in_id_order_is_the_world_hash) {
    carom_body_id ids[3];
    carom_world_id world = make_three_bodies(ids);
    cr_assert_eq(carom_bodies_hash(ids, 3), carom_world_hash(world));
    /* Another order is another hash; a null id in the list counts for nothing. */
    carom_body_id swapped[3] = {ids[0], ids[2], ids[1]};
    cr_assert_neq(carom_bodies_hash(swapped, 3), carom_world_hash(world));
    carom_body_id with_null[4] = {ids[0], carom_null_body_id, ids[1], ids[2]};
    cr_assert_eq(carom_bodies_hash(with_null, 4), carom_world_hash(world));
    cr_assert_eq(carom_bodies_hash(NULL, 0), 0xcbf29ce484222325u);
    carom_destroy_world(world);
}

Test(world, bodies_hash_refuses_a_stale_id_a_null_array_and_a_negative_count) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id ball = test_make_ball(world, carom_v2(0.0, 2.0), 0.5, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    cr_assert_eq(carom_destroy_body(ball), CAROM_OK);
    cr_assert_eq(carom_bodies_hash(&ball, 1), 0u);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_bodies_hash(NULL, 1), 0u);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_NULL_ARGUMENT);
    cr_assert_eq(carom_bodies_hash(&ball, -1), 0u);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(carom_last_error(), "count is -1") != NULL, "%s", carom_last_error());
    carom_destroy_world(world);
}

/* ---- The bound on contacts (issue 21) ------------------------------------------------------ */

/* n balls of radius 0.5 at the origin: every pair of them overlaps. */
static carom_world_id make_pile(int max_contacts, int n, carom_body_id* balls) {
    carom_world_def def = carom_default_world_def();
    def.max_contacts = max_contacts;
    carom_world_id world = carom_create_world(&def);
    cr_assert(carom_world_is_valid(world), "%s", carom_last_error());
    for (int i = 0; i < n; ++i) {
        balls[i] = test_make_ball(world, carom_v2(0.0, 0.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    }
    return world;
}

Test(world, max_contacts_must_be_positive) {
    carom_world_def def = carom_default_world_def();
    cr_assert_eq(def.max_contacts, CAROM_DEFAULT_MAX_CONTACTS);
    def.max_contacts = 0;
    cr_assert(CAROM_IS_NULL(carom_create_world(&def)));
    cr_assert_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    cr_assert_neq(strstr(carom_last_error(), "max_contacts"), NULL);
    def.max_contacts = -5;
    cr_assert(CAROM_IS_NULL(carom_create_world(&def)));
}

/* 20 balls at one point make 190 pairs: with room for 50 the step is refused, says why, and
 * changes nothing; with 10 balls left (45 pairs) it is taken. */
Test(world, a_step_that_would_exceed_max_contacts_is_refused_and_changes_nothing) {
    carom_body_id balls[20];
    carom_world_id world = make_pile(50, 20, balls);
    uint64_t before = carom_world_hash(world);
    for (int attempt = 0; attempt < 2; ++attempt) {
        carom_clear_last_error();
        cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_TOO_MANY_CONTACTS);
        cr_assert_neq(strstr(carom_last_error(), "190 new contacts"), NULL, "%s",
                      carom_last_error());
        cr_assert_neq(strstr(carom_last_error(), "max_contacts (50)"), NULL, "%s",
                      carom_last_error());
        carom_world_counters counters = carom_world_get_counters(world);
        cr_assert_eq(counters.step_count, 0);
        cr_assert_eq(counters.contact_count, 0);
        cr_assert_eq(carom_world_hash(world), before);
    }
    /* the fixed stepper reports the refusal too, and keeps its time */
    carom_fixed_stepper stepper;
    carom_make_fixed_stepper(1.0 / 60.0, 2, &stepper);
    cr_assert_eq(carom_world_advance(world, &stepper, 0.02, NULL, NULL),
                 CAROM_ERROR_TOO_MANY_CONTACTS);
    cr_assert_eq(stepper.accumulator, 0.0);
    for (int i = 10; i < 20; ++i) {
        carom_destroy_body(balls[i]);
    }
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK, "%s", carom_last_error());
    cr_assert_eq(carom_world_get_counters(world).contact_count, 45);
    test_step(world, 1.0 / 60.0, 30);
    for (int i = 0; i < 10; ++i) {
        carom_vec2 p = carom_body_get_position(balls[i]);
        cr_assert(isfinite(p.x) && isfinite(p.y));
    }
    carom_destroy_world(world);
}

/* When the pairs far exceed the room, gathering stops early: the message says "at least". */
Test(world, gathering_stops_once_the_pairs_cannot_fit) {
    carom_body_id balls[200];
    carom_world_id world = make_pile(10, 200, balls);
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_TOO_MANY_CONTACTS);
    cr_assert_neq(strstr(carom_last_error(), "at least"), NULL, "%s", carom_last_error());
    cr_assert_eq(carom_world_get_counters(world).contact_count, 0);
    carom_destroy_world(world);
}

/* The bound is the world's, not the scene's: a snapshot restored into the world keeps it, and a
 * world made from a snapshot gets the default. */
Test(world, max_contacts_survives_a_restore) {
    carom_body_id balls[20];
    carom_world_id world = make_pile(50, 20, balls);
    size_t size = 0;
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size), CAROM_OK);
    void* data = malloc(size);
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, data, size, &size), CAROM_OK);
    cr_assert_eq(carom_world_restore(world, data, size), CAROM_OK, "%s", carom_last_error());
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_TOO_MANY_CONTACTS);
    carom_world_id copy = carom_create_world_from_snapshot(data, size);
    cr_assert(carom_world_is_valid(copy), "%s", carom_last_error());
    cr_assert_eq(carom_world_step(copy, 1.0 / 60.0), CAROM_OK);
    cr_assert_eq(carom_world_get_counters(copy).contact_count, 190);
    free(data);
    carom_destroy_world(copy);
    carom_destroy_world(world);
}

/* Issue 21: 3,000 circles at one point (4.5 million pairs) took 4 GB and aborted. At the
 * default bound the step is refused; what carom allocated, counted through the allocator hook,
 * peaks at about 21 MB. */
static size_t live_bytes, peak_bytes;
static void* counting_realloc(void* user, void* pointer, size_t size) {
    (void)user;
    size_t* header = pointer != NULL ? (size_t*)pointer - 2 : NULL;
    size_t old = header != NULL ? header[0] : 0;
    if (size == 0) {
        live_bytes -= old;
        free(header);
        return NULL;
    }
    header = realloc(header, size + 2 * sizeof(size_t));
    cr_assert_not_null(header);
    header[0] = size;
    live_bytes += size - old;
    peak_bytes = live_bytes > peak_bytes ? live_bytes : peak_bytes;
    return header + 2;
}

Test(world, a_pile_of_3000_circles_at_one_point_is_refused_in_bounded_memory) {
    carom_set_allocator(counting_realloc, NULL);
    static carom_body_id balls[3000];
    carom_world_id world = make_pile(CAROM_DEFAULT_MAX_CONTACTS, 3000, balls);
    size_t built = peak_bytes;
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_TOO_MANY_CONTACTS);
    cr_log_info("3000 circles: %.1f MB built, %.1f MB at the peak of the refused step", built / 1e6,
                peak_bytes / 1e6);
    cr_assert_lt(peak_bytes, (size_t)64 << 20, "peak %zu bytes", peak_bytes);
    carom_destroy_world(world);
    cr_assert_eq(live_bytes, 0);
    carom_set_allocator(NULL, NULL);
}

/* ---- carom_world_get_body_ids (used by the Python package, python/) ---- */

Test(world, body_ids_are_the_live_bodies_in_id_order) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id made[5];
    for (int i = 0; i < 5; ++i) {
        made[i] = test_make_ball(world, carom_v2(2.0 * i, 1.0), 0.5, carom_v2(0.0, 0.0), 0.5, 0.0);
    }
    cr_assert_eq(carom_destroy_body(made[1]), CAROM_OK);
    int count = -1;
    cr_assert_eq(carom_world_get_body_ids(world, NULL, 0, &count), CAROM_OK);
    cr_assert_eq(count, 4);
    carom_body_id ids[4];
    cr_assert_eq(carom_world_get_body_ids(world, ids, 4, &count), CAROM_OK);
    int expected[4] = {0, 2, 3, 4};
    for (int i = 0; i < 4; ++i) {
        cr_assert(carom_body_id_equals(ids[i], made[expected[i]]), "id %d", i);
    }
    /* A short array gets the first ids and the full count. */
    carom_body_id two[2];
    cr_assert_eq(carom_world_get_body_ids(world, two, 2, &count), CAROM_OK);
    cr_assert_eq(count, 4);
    cr_assert(carom_body_id_equals(two[1], made[2]));
    carom_destroy_world(world);
}

Test(world, body_ids_refuse_bad_arguments) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    int count = 0;
    carom_body_id ids[1];
    cr_assert_eq(carom_world_get_body_ids(world, NULL, 1, &count), CAROM_ERROR_NULL_ARGUMENT);
    cr_assert_eq(carom_world_get_body_ids(world, ids, 1, NULL), CAROM_ERROR_NULL_ARGUMENT);
    cr_assert_eq(carom_world_get_body_ids(world, ids, -1, &count), CAROM_ERROR_OUT_OF_RANGE);
    carom_destroy_world(world);
    cr_assert_eq(carom_world_get_body_ids(world, ids, 1, &count), CAROM_ERROR_INVALID_ID);
    cr_assert_not_null(strstr(carom_last_error(), "world"));
}
