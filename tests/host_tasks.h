/* A job system of a host's, for the tests of carom's task callbacks (docs/threads.md): each
 * task runs on HOST_TASKS_WORKERS threads started for it, worker w taking ranges w,
 * w + HOST_TASKS_WORKERS, ... from the last, in ranges smaller than carom asked for. Any split
 * and any order must give carom's one-thread bits. */
#ifndef CAROM_TESTS_HOST_TASKS_H
#define CAROM_TESTS_HOST_TASKS_H

#include <carom/carom.h>

#include <pthread.h>
#include <stdatomic.h>

#define HOST_TASKS_WORKERS 3

typedef struct host_tasks host_tasks;

typedef struct host_worker {
    host_tasks* system;
    int worker;
    pthread_t thread;
} host_worker;

struct host_tasks {
    atomic_int enqueued;
    atomic_int bad_calls; /* a task with no items, or a min_range below 1 */
    /* the task running: carom finishes each before it enqueues the next */
    carom_task_fn* task;
    void* context;
    int count, range;
    host_worker workers[HOST_TASKS_WORKERS];
};

void host_tasks_init(host_tasks* system);
/* Make def use the system: its callbacks, and HOST_TASKS_WORKERS workers. */
void host_tasks_use(host_tasks* system, carom_world_def* def);

#endif
