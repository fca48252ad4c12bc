/* threads_host: a scene stepped by a host's job system (host_tasks.h) against the same scene on
 * one thread; exit 0 if every step's bits agree. Criterion-free, so that ThreadSanitizer builds
 * (tests/determinism/run_all.sh tsan) can run it: Criterion's arena does not start under TSan.
 *
 *   threads_host [STEPS]      (default 60) */
#include "host_tasks.h"
#include "scenes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t hash_bodies(const carom_body_id* bodies, int count) {
    uint64_t hash = 1469598103934665603ull;
    for (int i = 0; i < count; ++i) {
        carom_vec2 p = carom_body_get_position(bodies[i]);
        carom_vec2 v = carom_body_get_linear_velocity(bodies[i]);
        const double values[4] = {p.x, p.y, v.x, v.y};
        const unsigned char* bytes = (const unsigned char*)values;
        for (size_t b = 0; b < sizeof values; ++b) {
            hash = (hash ^ bytes[b]) * 1099511628211ull;
        }
    }
    return hash;
}

typedef struct scene_run {
    carom_world_id world;
    carom_body_id* bodies;
    int count;
} scene_run;

static int start(scene_run* run, carom_world_def def) {
    run->world = carom_create_world(&def);
    run->count = carom_scene_body_count(CAROM_SCENE_RAIN, 500);
    run->bodies = malloc(sizeof(carom_body_id) * (size_t)run->count);
    if (CAROM_IS_NULL(run->world) || run->bodies == NULL ||
        carom_scene_build(run->world, CAROM_SCENE_RAIN, 500, run->bodies) != run->count) {
        fprintf(stderr, "threads_host: building the scene failed: %s\n", carom_last_error());
        return -1;
    }
    return 0;
}

int main(int argc, char** argv) {
    int steps = argc > 1 ? atoi(argv[1]) : 60;
    host_tasks host;
    host_tasks_init(&host);
    carom_world_def one_def = carom_scene_world_def(CAROM_SCENE_RAIN);
    carom_world_def hosted_def = one_def;
    host_tasks_use(&host, &hosted_def);
    scene_run one, hosted;
    if (start(&one, one_def) != 0 || start(&hosted, hosted_def) != 0) {
        return 1;
    }
    int failed = 0;
    for (int i = 0; i < steps && !failed; ++i) {
        if (carom_world_step(one.world, 1.0 / 60.0) != CAROM_OK ||
            carom_world_step(hosted.world, 1.0 / 60.0) != CAROM_OK) {
            fprintf(stderr, "threads_host: step %d failed: %s\n", i + 1, carom_last_error());
            return 1;
        }
        uint64_t a = hash_bodies(one.bodies, one.count);
        uint64_t b = hash_bodies(hosted.bodies, hosted.count);
        if (a != b) {
            fprintf(stderr, "threads_host: step %d: one thread %016" PRIx64 ", host's job "
                            "system %016" PRIx64 "\n", i + 1, a, b);
            failed = 1;
        }
    }
    if (atomic_load(&host.enqueued) == 0 || atomic_load(&host.bad_calls) != 0) {
        fprintf(stderr, "threads_host: %d tasks enqueued, %d bad\n", atomic_load(&host.enqueued),
                atomic_load(&host.bad_calls));
        failed = 1;
    }
    printf("threads_host: %d steps, %d tasks on the host's job system: %s\n", steps,
           atomic_load(&host.enqueued), failed ? "DIFFERENT" : "same bits");
    carom_destroy_world(one.world);
    carom_destroy_world(hosted.world);
    free(one.bodies);
    free(hosted.bodies);
    return failed;
}
