/* Tests for engine/id_pool.c and for the generation checks that stand on it: ids are handed out
 * in a fixed order, reused last-in first-out, and a stale, foreign or null id is refused. */
#include "helpers.h"

#include "id_pool.h"

#include <criterion/criterion.h>

/* ---- The pool itself ---------------------------------------------------------------------- */

Test(id_pool, a_fresh_pool_hands_out_consecutive_ids_from_zero) {
    carom_id_pool pool = {NULL, 0};
    for (int i = 0; i < 100; ++i) {
        cr_assert_eq(carom_id_pool_alloc(&pool), i);
    }
    carom_id_pool_destroy(&pool);
}

Test(id_pool, alloc_reuses_the_last_freed_id_first) {
    carom_id_pool pool = {NULL, 0};
    for (int i = 0; i < 10; ++i) {
        carom_id_pool_alloc(&pool);
    }
    carom_id_pool_free(&pool, 3);
    carom_id_pool_free(&pool, 7);
    carom_id_pool_free(&pool, 1);
    cr_assert_eq(carom_id_pool_alloc(&pool), 1);
    cr_assert_eq(carom_id_pool_alloc(&pool), 7);
    cr_assert_eq(carom_id_pool_alloc(&pool), 3);
    /* The free list is empty again: new ids continue after the highest one handed out. */
    cr_assert_eq(carom_id_pool_alloc(&pool), 10);
    carom_id_pool_destroy(&pool);
}

Test(id_pool, count_is_ids_handed_out_minus_ids_freed) {
    carom_id_pool pool = {NULL, 0};
    cr_assert_eq(carom_id_pool_count(&pool), 0);
    for (int i = 0; i < 20; ++i) {
        carom_id_pool_alloc(&pool);
        cr_assert_eq(carom_id_pool_count(&pool), i + 1);
    }
    for (int i = 0; i < 20; i += 2) {
        carom_id_pool_free(&pool, i);
    }
    cr_assert_eq(carom_id_pool_count(&pool), 10);
    carom_id_pool_alloc(&pool);
    cr_assert_eq(carom_id_pool_count(&pool), 11);
    carom_id_pool_destroy(&pool);
}

Test(id_pool, destroy_resets_the_pool_to_empty) {
    carom_id_pool pool = {NULL, 0};
    for (int i = 0; i < 5; ++i) {
        carom_id_pool_alloc(&pool);
    }
    carom_id_pool_free(&pool, 2);
    carom_id_pool_destroy(&pool);
    cr_assert_null(pool.free_ids);
    cr_assert_eq(carom_id_pool_count(&pool), 0);
    /* Not 2 from the old free list, and not 5: numbering starts over. */
    cr_assert_eq(carom_id_pool_alloc(&pool), 0);
    cr_assert_eq(carom_id_pool_alloc(&pool), 1);
    carom_id_pool_destroy(&pool);
}

Test(id_pool, interleaved_alloc_and_free_match_a_reference_stack) {
    /* A reference model: a stack of freed ids and a next counter, driven by a fixed sequence. */
    carom_id_pool pool = {NULL, 0};
    int in_use[64];
    int in_use_count = 0;
    int stack[64];
    int stack_count = 0;
    int next = 0;
    uint32_t state = 12345u;
    for (int step = 0; step < 2000; ++step) {
        state = state * 1664525u + 1013904223u;
        int do_free = in_use_count > 0 && ((state >> 16) % 3 == 0 || in_use_count == 64);
        if (do_free) {
            int k = (int)((state >> 8) % (uint32_t)in_use_count);
            int id = in_use[k];
            in_use[k] = in_use[--in_use_count];
            carom_id_pool_free(&pool, id);
            stack[stack_count++] = id;
        } else {
            int expected = stack_count > 0 ? stack[--stack_count] : next++;
            int got = carom_id_pool_alloc(&pool);
            cr_assert_eq(got, expected, "step %d: alloc gave %d, expected %d", step, got,
                         expected);
            in_use[in_use_count++] = got;
        }
        cr_assert_eq(carom_id_pool_count(&pool), in_use_count);
    }
    carom_id_pool_destroy(&pool);
}

/* ---- Generations: stale ids through the public API --------------------------------------- */

Test(id_pool, a_destroyed_body_id_is_refused_by_is_valid_and_by_getters) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id body = test_make_ball(world, carom_v2(1.0, 2.0), 0.5, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    cr_assert(carom_body_is_valid(body));
    cr_assert_eq(carom_destroy_body(body), CAROM_OK);
    cr_assert_not(carom_body_is_valid(body));

    carom_clear_last_error();
    carom_vec2 p = carom_body_get_position(body);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert(p.x == 0.0 && p.y == 0.0);
    carom_clear_last_error();
    cr_assert_eq(carom_body_get_mass(body), 0.0);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_destroy_body(body), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_body_set_linear_velocity(body, carom_v2(1.0, 0.0)),
                 CAROM_ERROR_INVALID_ID);
    carom_destroy_world(world);
}

Test(id_pool, a_stale_body_id_stays_refused_after_its_slot_is_reused) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id old_body = test_make_ball(world, carom_v2(1.0, 2.0), 0.5, carom_v2(0.0, 0.0),
                                            0.6, 0.0);
    cr_assert_eq(carom_destroy_body(old_body), CAROM_OK);
    carom_body_id new_body = test_make_ball(world, carom_v2(-3.0, 4.0), 0.25,
                                            carom_v2(0.0, 0.0), 0.6, 0.0);
    /* The slot is reused (LIFO pool) but the generation differs. */
    cr_assert_eq(new_body.index1, old_body.index1);
    cr_assert_neq(new_body.generation, old_body.generation);
    cr_assert(carom_body_is_valid(new_body));
    cr_assert_not(carom_body_is_valid(old_body));

    carom_clear_last_error();
    carom_vec2 p = carom_body_get_position(old_body);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert(p.x == 0.0 && p.y == 0.0, "the stale id read the new body's position (%g, %g)",
              p.x, p.y);
    carom_clear_last_error();
    cr_assert_eq(carom_body_get_type(old_body), CAROM_BODY_STATIC);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    /* A refused setter leaves the new body untouched. */
    cr_assert_eq(carom_body_set_transform(old_body, carom_v2(9.0, 9.0), 0.0),
                 CAROM_ERROR_INVALID_ID);
    carom_vec2 q = carom_body_get_position(new_body);
    cr_assert(q.x == -3.0 && q.y == 4.0);
    cr_assert_eq(carom_destroy_body(old_body), CAROM_ERROR_INVALID_ID);
    cr_assert(carom_body_is_valid(new_body));
    carom_destroy_world(world);
}

Test(id_pool, a_stale_shape_id_stays_refused_after_its_slot_is_reused) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id body = test_make_ball(world, carom_v2(0.0, 0.0), 0.5, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    carom_shape_def def = carom_default_shape_def();
    carom_circle circle = {{1.0, 0.0}, 0.25};
    carom_shape_id old_shape = carom_create_circle_shape(body, &def, &circle);
    cr_assert_eq(carom_destroy_shape(old_shape), CAROM_OK);
    def.friction = 0.125;
    carom_shape_id new_shape = carom_create_box_shape(body, &def, 0.5, 0.5, carom_v2(0.0, 1.0),
                                                      0.0);
    cr_assert_eq(new_shape.index1, old_shape.index1);
    cr_assert(carom_shape_is_valid(new_shape));
    cr_assert_not(carom_shape_is_valid(old_shape));
    carom_clear_last_error();
    cr_assert_eq(carom_shape_get_friction(old_shape), 0.0);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_shape_get_friction(new_shape), 0.125);
    carom_destroy_world(world);
}

Test(id_pool, ids_from_a_destroyed_world_are_refused) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id body = test_make_ball(world, carom_v2(1.0, 2.0), 0.5, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    cr_assert_eq(carom_destroy_world(world), CAROM_OK);
    cr_assert_not(carom_world_is_valid(world));
    cr_assert_not(carom_body_is_valid(body));
    carom_clear_last_error();
    cr_assert_eq(carom_world_get_substeps(world), 0);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    carom_clear_last_error();
    carom_body_get_position(body);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_destroy_world(world), CAROM_ERROR_INVALID_ID);
}

Test(id_pool, ids_from_a_destroyed_world_stay_refused_when_a_new_world_takes_its_slot) {
    carom_world_id old_world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id old_body = test_make_ball(old_world, carom_v2(1.0, 2.0), 0.5,
                                            carom_v2(0.0, 0.0), 0.6, 0.0);
    cr_assert_eq(carom_destroy_world(old_world), CAROM_OK);
    carom_world_id new_world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id new_body = test_make_ball(new_world, carom_v2(5.0, 6.0), 0.5,
                                            carom_v2(0.0, 0.0), 0.6, 0.0);
    /* Same world slot and same body slot: only the world generation tells them apart. */
    cr_assert_eq(new_world.index1, old_world.index1);
    cr_assert_neq(new_world.generation, old_world.generation);
    cr_assert_eq(new_body.index1, old_body.index1);
    cr_assert_eq(new_body.generation, old_body.generation);

    cr_assert_not(carom_world_is_valid(old_world));
    cr_assert_not(carom_body_is_valid(old_body));
    carom_clear_last_error();
    carom_vec2 p = carom_body_get_position(old_body);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert(p.x == 0.0 && p.y == 0.0, "the old id read the new world's body at (%g, %g)", p.x,
              p.y);
    cr_assert_eq(carom_world_step(old_world, 1.0 / 60.0), CAROM_ERROR_INVALID_ID);
    cr_assert(carom_body_is_valid(new_body));
    carom_destroy_world(new_world);
}

Test(id_pool, zero_initialised_ids_are_refused) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id body = test_make_ball(world, carom_v2(1.0, 2.0), 0.5, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    (void)body;
    carom_world_id zero_world = {0, 0};
    carom_body_id zero_body = {0, 0, 0, 0};
    carom_shape_id zero_shape = {0, 0, 0, 0};
    cr_assert(CAROM_IS_NULL(zero_world) && CAROM_IS_NULL(zero_body) && CAROM_IS_NULL(zero_shape));

    cr_assert_not(carom_world_is_valid(zero_world));
    cr_assert_not(carom_body_is_valid(zero_body));
    cr_assert_not(carom_shape_is_valid(zero_shape));
    carom_clear_last_error();
    carom_world_get_gravity(zero_world);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    carom_clear_last_error();
    carom_body_get_position(zero_body);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    carom_clear_last_error();
    carom_shape_get_aabb(zero_shape);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_destroy_body(zero_body), CAROM_ERROR_INVALID_ID);
    cr_assert(carom_body_is_valid(body));
    carom_destroy_world(world);
}

Test(id_pool, a_body_id_with_the_right_slot_but_a_zero_world_is_refused) {
    /* Only index1 is set, as if the caller had copied an index without its world: the body at
     * that slot in world slot 0 exists, but the world generation 0 never names a live world. */
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    carom_body_id body = test_make_ball(world, carom_v2(1.0, 2.0), 0.5, carom_v2(0.0, 0.0), 0.6,
                                        0.0);
    carom_body_id forged = {body.index1, body.generation, 0, 0};
    cr_assert_neq(body.world_generation, 0);
    cr_assert_not(carom_body_is_valid(forged));
    carom_clear_last_error();
    carom_body_get_position(forged);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    carom_destroy_world(world);
}
