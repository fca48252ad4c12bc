/* A host's job system for the tests (host_tasks.h). */
#include "host_tasks.h"

#include <string.h>

/* Worker w runs ranges w, w + HOST_TASKS_WORKERS, ... last to first. */
static void* run_worker(void* argument) {
    const host_worker* self = argument;
    const host_tasks* system = self->system;
    int ranges = (system->count + system->range - 1) / system->range;
    for (int r = ranges - 1; r >= 0; --r) {
        if (r % HOST_TASKS_WORKERS != self->worker) {
            continue;
        }
        int begin = r * system->range;
        int end = begin + system->range < system->count ? begin + system->range : system->count;
        system->task(begin, end, self->worker, system->context);
    }
    return NULL;
}

static void* enqueue(carom_task_fn* task, int item_count, int min_range, void* task_context,
                     void* user_context) {
    host_tasks* system = user_context;
    atomic_fetch_add(&system->enqueued, 1);
    if (item_count < 1 || min_range < 1) {
        atomic_fetch_add(&system->bad_calls, 1);
    }
    system->task = task;
    system->context = task_context;
    system->count = item_count;
    system->range = min_range < 7 ? min_range : 7; /* smaller than asked: still correct */
    system->range = system->range > 0 ? system->range : 1;
    for (int w = 0; w < HOST_TASKS_WORKERS; ++w) {
        system->workers[w].system = system;
        system->workers[w].worker = w;
        pthread_create(&system->workers[w].thread, NULL, run_worker, &system->workers[w]);
    }
    return system;
}

static void finish(void* user_task, void* user_context) {
    (void)user_context;
    host_tasks* system = user_task;
    for (int w = 0; w < HOST_TASKS_WORKERS; ++w) {
        pthread_join(system->workers[w].thread, NULL);
    }
}

void host_tasks_init(host_tasks* system) {
    memset(system, 0, sizeof(*system));
    atomic_init(&system->enqueued, 0);
    atomic_init(&system->bad_calls, 0);
}

void host_tasks_use(host_tasks* system, carom_world_def* def) {
    def->worker_count = HOST_TASKS_WORKERS;
    def->enqueue_task = enqueue;
    def->finish_task = finish;
    def->user_task_context = system;
}
