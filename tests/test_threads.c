/* Threads (docs/threads.md): a world stepped with several workers, by carom's own threads or by
 * a job system of the host's, gives the bits of the same world stepped on one thread; the def's
 * thread fields are checked. */
#include "helpers.h"
#include "host_tasks.h"
#include "scenes.h"

#include <carom/snapshot.h>

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* A job system that runs everything at once on the calling thread, one item at a time from the
 * last, and returns NULL: finish must then not be called. */
static atomic_int inline_finishes;

static void* inline_enqueue(carom_task_fn* task, int item_count, int min_range,
                            void* task_context, void* user_context) {
    (void)min_range;
    (void)user_context;
    for (int i = item_count - 1; i >= 0; --i) {
        task(i, i + 1, 1, task_context);
    }
    return NULL;
}

static void inline_finish(void* user_task, void* user_context) {
    (void)user_task;
    (void)user_context;
    atomic_fetch_add(&inline_finishes, 1);
}

/* ---- Runs to compare ------------------------------------------------------------------------ */

/* A scene stepped `steps` times with this def's threads; the hash of its bodies, how many
 * contact begin events it reported in all, and a hash of every body move event, in the order
 * reported (events are merged in a fixed order too). */
typedef struct outcome {
    uint64_t hash;
    long begin_events;
    uint64_t move_hash;
    long move_events;
} outcome;

static uint64_t fold(uint64_t hash, uint64_t value) {
    for (int i = 0; i < 8; ++i) {
        hash = (hash ^ ((value >> (8 * i)) & 0xffu)) * 0x100000001b3ull;
    }
    return hash;
}

static uint64_t fold_double(uint64_t hash, double value) {
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return fold(hash, bits);
}

static uint64_t fold_move_events(uint64_t hash, carom_body_events events) {
    for (int i = 0; i < events.move_count; ++i) {
        const carom_body_move_event* e = &events.move_events[i];
        hash = fold(hash, e->body.index1);
        hash = fold(hash, e->body.generation);
        hash = fold_double(hash, e->transform.p.x);
        hash = fold_double(hash, e->transform.p.y);
        hash = fold_double(hash, e->transform.q.c);
        hash = fold_double(hash, e->transform.q.s);
        hash = fold(hash, (uint64_t)e->fell_asleep);
    }
    return hash;
}

static outcome run_scene(carom_world_def def, carom_scene_kind kind, int n, int steps) {
    carom_world_id world = carom_create_world(&def);
    cr_assert(!CAROM_IS_NULL(world), "%s", carom_last_error());
    int count = carom_scene_body_count(kind, n);
    carom_body_id* bodies = malloc(sizeof(carom_body_id) * (size_t)count);
    cr_assert_eq(carom_scene_build(world, kind, n, bodies), count, "%s", carom_last_error());
    outcome result = {0, 0, 0xcbf29ce484222325ull, 0};
    for (int i = 0; i < steps; ++i) {
        cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_OK, "%s", carom_last_error());
        result.begin_events += carom_world_get_contact_events(world).begin_count;
        carom_body_events moves = carom_world_get_body_events(world);
        result.move_hash = fold_move_events(result.move_hash, moves);
        result.move_events += moves.move_count;
    }
    result.hash = test_hash_bodies(bodies, count);
    free(bodies);
    carom_destroy_world(world);
    return result;
}

static carom_world_def scene_def(carom_scene_kind kind, int workers) {
    carom_world_def def = carom_scene_world_def(kind);
    def.worker_count = workers;
    return def;
}

Test(threads, own_threads_give_the_one_thread_bits) {
    const carom_scene_kind kinds[] = {CAROM_SCENE_RAIN, CAROM_SCENE_PYRAMID, CAROM_SCENE_ARENA};
    const int sizes[] = {400, 20, 200};
    for (int k = 0; k < 3; ++k) {
        outcome one = run_scene(scene_def(kinds[k], 1), kinds[k], sizes[k], 150);
        cr_assert_gt(one.begin_events, 0);
        for (int workers = 2; workers <= 5; workers += 3) {
            outcome many = run_scene(scene_def(kinds[k], workers), kinds[k], sizes[k], 150);
            cr_expect_eq(many.hash, one.hash, "scene %d with %d workers: %016llx, one: %016llx",
                         k, workers, (unsigned long long)many.hash, (unsigned long long)one.hash);
            cr_expect_eq(many.begin_events, one.begin_events);
            cr_expect_eq(many.move_hash, one.move_hash, "scene %d with %d workers", k, workers);
        }
    }
}

/* Large enough that every stage splits over the workers: the constraints are collected and
 * laid out in several blocks, and the body move events selected and written in several. */
Test(threads, a_large_pile_gives_the_one_thread_bits_and_events) {
    outcome one = run_scene(scene_def(CAROM_SCENE_RAIN, 1), CAROM_SCENE_RAIN, 5000, 90);
    cr_assert_gt(one.move_events, 90 * 4096L, "most of the balls move in every step");
    for (int workers = 2; workers <= 3; ++workers) {
        outcome many = run_scene(scene_def(CAROM_SCENE_RAIN, workers), CAROM_SCENE_RAIN, 5000, 90);
        cr_expect_eq(many.hash, one.hash, "%d workers: %016llx, one: %016llx", workers,
                     (unsigned long long)many.hash, (unsigned long long)one.hash);
        cr_expect_eq(many.begin_events, one.begin_events);
        cr_expect_eq(many.move_events, one.move_events);
        cr_expect_eq(many.move_hash, one.move_hash, "%d workers", workers);
    }
}

Test(threads, a_host_job_system_gives_the_one_thread_bits) {
    outcome one = run_scene(scene_def(CAROM_SCENE_RAIN, 1), CAROM_SCENE_RAIN, 600, 120);
    host_tasks host;
    host_tasks_init(&host);
    carom_world_def def = scene_def(CAROM_SCENE_RAIN, HOST_TASKS_WORKERS);
    host_tasks_use(&host, &def);
    outcome hosted = run_scene(def, CAROM_SCENE_RAIN, 600, 120);
    cr_expect_eq(hosted.hash, one.hash);
    cr_expect_eq(hosted.begin_events, one.begin_events);
    cr_expect_gt(atomic_load(&host.enqueued), 120, "the host's system ran the parallel stages");
    cr_expect_eq(atomic_load(&host.bad_calls), 0);
}

Test(threads, a_job_system_that_runs_tasks_itself_needs_no_finish) {
    outcome one = run_scene(scene_def(CAROM_SCENE_PYRAMID, 1), CAROM_SCENE_PYRAMID, 20, 120);
    carom_world_def def = scene_def(CAROM_SCENE_PYRAMID, 2);
    def.enqueue_task = inline_enqueue;
    def.finish_task = inline_finish;
    atomic_store(&inline_finishes, 0);
    outcome hosted = run_scene(def, CAROM_SCENE_PYRAMID, 20, 120);
    cr_expect_eq(hosted.hash, one.hash);
    cr_expect_eq(atomic_load(&inline_finishes), 0);
}

Test(threads, restoring_a_snapshot_keeps_the_worlds_threads) {
    carom_world_def def = scene_def(CAROM_SCENE_PYRAMID, 3);
    carom_world_id world = carom_create_world(&def);
    carom_body_id bodies[210];
    int count = carom_scene_build(world, CAROM_SCENE_PYRAMID, 20, bodies);
    test_step(world, 1.0 / 60.0, 30);
    size_t size = 0;
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &size), CAROM_OK);
    unsigned char* bytes = malloc(size);
    cr_assert_eq(carom_world_save(world, CAROM_SNAPSHOT_FULL, bytes, size, &size), CAROM_OK);
    test_step(world, 1.0 / 60.0, 30);
    uint64_t straight = test_hash_bodies(bodies, count);
    cr_assert_eq(carom_world_restore(world, bytes, size), CAROM_OK, "%s", carom_last_error());
    test_step(world, 1.0 / 60.0, 30);
    cr_expect_eq(test_hash_bodies(bodies, count), straight);
    free(bytes);
    carom_destroy_world(world);
}

Test(threads, the_def_is_checked) {
    carom_world_def def = carom_default_world_def();
    cr_expect_eq(def.worker_count, 1);
    def.worker_count = 0;
    cr_expect(CAROM_IS_NULL(carom_create_world(&def)));
    cr_expect_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    cr_expect(strstr(carom_last_error(), "worker_count is 0") != NULL, "%s", carom_last_error());
    def.worker_count = CAROM_MAX_WORKERS + 1;
    cr_expect(CAROM_IS_NULL(carom_create_world(&def)));
    cr_expect_eq(carom_last_status(), CAROM_ERROR_OUT_OF_RANGE);
    def.worker_count = 2;
    def.enqueue_task = inline_enqueue;
    cr_expect(CAROM_IS_NULL(carom_create_world(&def)));
    cr_expect_eq(carom_last_status(), CAROM_ERROR_NULL_ARGUMENT);
    cr_expect(strstr(carom_last_error(), "no finish_task") != NULL, "%s", carom_last_error());
    def.enqueue_task = NULL;
    def.finish_task = inline_finish;
    cr_expect(CAROM_IS_NULL(carom_create_world(&def)));
    cr_expect(strstr(carom_last_error(), "no enqueue_task") != NULL, "%s", carom_last_error());
}

Test(threads, a_world_with_threads_is_created_and_destroyed_many_times) {
    /* the pool's threads start and stop with their world, and stop even when never used */
    for (int i = 0; i < 50; ++i) {
        carom_world_def def = carom_default_world_def();
        def.worker_count = 1 + i % 4;
        carom_world_id world = carom_create_world(&def);
        cr_assert(!CAROM_IS_NULL(world), "%s", carom_last_error());
        if (i % 2 == 0) {
            test_make_ball(world, carom_v2(0.0, 1.0), 0.5, carom_v2(0.0, 0.0), 0.5, 0.0);
            test_step(world, 1.0 / 60.0, 2);
        }
        cr_assert_eq(carom_destroy_world(world), CAROM_OK);
    }
}

/* A refused step says how many pairs it found: the same count with any number of workers, even
 * when the gathering stopped early (a pile of 300 balls at one point, room for 10 contacts). */
static char* refusal_message(int workers, int balls) {
    carom_world_def def = carom_default_world_def();
    def.max_contacts = 10;
    def.worker_count = workers;
    carom_world_id world = carom_create_world(&def);
    for (int i = 0; i < balls; ++i) {
        test_make_ball(world, carom_v2(0.01 * i, 0.0), 0.5, carom_v2(0.0, 0.0), 0.6, 0.0);
    }
    cr_assert_eq(carom_world_step(world, 1.0 / 60.0), CAROM_ERROR_TOO_MANY_CONTACTS);
    const char* error = carom_last_error();
    char* message = malloc(strlen(error) + 1);
    strcpy(message, error);
    carom_destroy_world(world);
    return message;
}

Test(threads, a_refused_step_counts_the_pairs_as_one_thread_does) {
    for (int balls = 20; balls <= 300; balls += 280) {
        char* one = refusal_message(1, balls);
        for (int workers = 2; workers <= 4; ++workers) {
            char* many = refusal_message(workers, balls);
            cr_expect_str_eq(many, one);
            free(many);
        }
        free(one);
    }
}
