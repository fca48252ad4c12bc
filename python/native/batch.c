/* Many independent worlds stepped in one call, on several threads (carompy_step_worlds).
 *
 * carom allows different worlds on different threads at once (carom.h). Each thread takes the
 * next world not yet taken and runs all of its steps, so a world is only ever touched by one
 * thread and its result bits do not depend on the thread count or the order the worlds finish.
 * carom_last_error() is thread-local: a thread copies the message of a failure out before it
 * takes its next world. */
#include "carompy.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* More threads than this would only wait on the machine's cores. */
#define CAROMPY_MAX_THREADS 256

typedef struct batch_job {
    const carom_world_id* worlds;
    const double* dts;
    int count;
    int steps;
    atomic_int next_world;
    pthread_mutex_t failure_lock; /* guards the failure fields below */
    int failed_world;             /* lowest index of a world that failed, or count */
    int failed_step;
    carom_status failed_status;
    char* message;
    size_t message_size;
} batch_job;

static void record_failure(batch_job* job, int world, int step, carom_status status) {
    pthread_mutex_lock(&job->failure_lock);
    if (world < job->failed_world) {
        job->failed_world = world;
        job->failed_step = step;
        job->failed_status = status;
        if (job->message_size > 0) {
            snprintf(job->message, job->message_size, "%s", carom_last_error());
        }
    }
    pthread_mutex_unlock(&job->failure_lock);
}

static void* step_worlds_worker(void* argument) {
    batch_job* job = argument;
    for (;;) {
        int w = atomic_fetch_add(&job->next_world, 1);
        if (w >= job->count) {
            return NULL;
        }
        for (int step = 0; step < job->steps; ++step) {
            carom_status status = carom_world_step(job->worlds[w], job->dts[w]);
            if (status != CAROM_OK) {
                record_failure(job, w, step, status);
                break;
            }
        }
    }
}

carom_status carompy_step_worlds(const carom_world_id* worlds, const double* dts, int count,
                                 int steps, int threads, int* failed_world, int* failed_step,
                                 char* message, size_t message_size) {
    *failed_world = -1;
    *failed_step = -1;
    if (message_size > 0) {
        message[0] = '\0';
    }
    if (count < 0 || steps < 0 || threads < 1) {
        snprintf(message, message_size,
                 "step_worlds: count %d, steps %d, threads %d: counts must be >= 0 and threads "
                 ">= 1",
                 count, steps, threads);
        return CAROM_ERROR_OUT_OF_RANGE;
    }
    batch_job job;
    job.worlds = worlds;
    job.dts = dts;
    job.count = count;
    job.steps = steps;
    atomic_init(&job.next_world, 0);
    pthread_mutex_init(&job.failure_lock, NULL);
    job.failed_world = count;
    job.failed_step = -1;
    job.failed_status = CAROM_OK;
    job.message = message;
    job.message_size = message_size;

    int helpers = threads < count ? threads : count;
    helpers = helpers > CAROMPY_MAX_THREADS ? CAROMPY_MAX_THREADS : helpers;
    pthread_t handles[CAROMPY_MAX_THREADS];
    int started = 0;
    /* The calling thread works too: helpers - 1 more threads. A thread that cannot be started
     * only means fewer threads share the worlds. */
    for (int t = 1; t < helpers; ++t) {
        if (pthread_create(&handles[started], NULL, step_worlds_worker, &job) == 0) {
            ++started;
        }
    }
    step_worlds_worker(&job);
    for (int t = 0; t < started; ++t) {
        pthread_join(handles[t], NULL);
    }
    pthread_mutex_destroy(&job.failure_lock);
    if (job.failed_world < count) {
        *failed_world = job.failed_world;
        *failed_step = job.failed_step;
        return job.failed_status;
    }
    return CAROM_OK;
}
