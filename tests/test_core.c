/* Core hooks: every allocation goes through the allocator hook and is given back; a settled
 * world steps without allocating. */
#include "helpers.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "core.h"

typedef struct allocation_counts {
    long allocations;
    long frees;
    long resizes;
} allocation_counts;

static void* counting_realloc(void* user, void* pointer, size_t size) {
    allocation_counts* counts = user;
    if (size == 0) {
        counts->frees += pointer != NULL;
        free(pointer);
        return NULL;
    }
    if (pointer == NULL) {
        counts->allocations += 1;
    } else {
        counts->resizes += 1;
    }
    return realloc(pointer, size);
}

static carom_world_id settled_stack(void) {
    carom_world_id world = test_make_world(carom_v2(0.0, -10.0));
    test_make_ground(world, 0.0, 0.6, 0.0);
    for (int i = 0; i < 5; ++i) {
        test_make_box(world, carom_v2(0.0, 0.5 + i), 0.5, 0.5, 0.0, 0.6, 0.0);
        test_make_ball(world, carom_v2(3.0, 0.5 + i), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    }
    test_step(world, 1.0 / 60.0, 120);
    return world;
}

Test(core, every_allocation_goes_through_the_hook_and_is_freed) {
    allocation_counts counts = {0, 0, 0};
    carom_set_allocator(counting_realloc, &counts);
    carom_world_id world = settled_stack();
    cr_assert_gt(counts.allocations, 0);
    carom_destroy_world(world);
    carom_set_allocator(NULL, NULL);
    cr_assert_eq(counts.allocations, counts.frees, "%ld allocations, %ld frees",
                 counts.allocations, counts.frees);
}

Test(core, a_settled_world_steps_without_allocating) {
    allocation_counts counts = {0, 0, 0};
    carom_set_allocator(counting_realloc, &counts);
    carom_world_id world = settled_stack();
    allocation_counts before = counts;
    test_step(world, 1.0 / 60.0, 100);
    cr_assert_eq(counts.allocations, before.allocations, "new allocations in steady state");
    cr_assert_eq(counts.resizes, before.resizes, "resizes in steady state");
    carom_destroy_world(world);
    carom_set_allocator(NULL, NULL);
}

static int assert_calls = 0;
static int counting_assert(const char* condition, const char* file, int line) {
    (void)condition;
    (void)file;
    (void)line;
    assert_calls += 1;
    return 0;
}

Test(core, a_broken_invariant_goes_to_the_assert_handler) {
    carom_set_assert_handler(counting_assert);
    carom_assert_failed("test condition", __FILE__, __LINE__);
    carom_set_assert_handler(NULL);
    cr_assert_eq(assert_calls, 1, "the handler saw the failure and chose not to abort");
}

Test(core, a_broken_invariant_aborts_by_default, .signal = SIGABRT) {
    carom_assert_failed("test condition", __FILE__, __LINE__);
}

Test(core, version_string_matches_the_header) {
    char expected[32];
    snprintf(expected, sizeof(expected), "%d.%d.%d", CAROM_VERSION_MAJOR, CAROM_VERSION_MINOR,
             CAROM_VERSION_PATCH);
    cr_assert_str_eq(carom_version_string(), expected);
}

Test(core, last_error_is_thread_local_state_that_clear_resets) {
    carom_world_id null_world = carom_null_world_id;
    cr_assert_eq(carom_world_step(null_world, 0.01), CAROM_ERROR_INVALID_ID);
    cr_assert_eq(carom_last_status(), CAROM_ERROR_INVALID_ID);
    cr_assert_neq(carom_last_error()[0], '\0');
    carom_clear_last_error();
    cr_assert_eq(carom_last_status(), CAROM_OK);
    cr_assert_str_eq(carom_last_error(), "");
}
