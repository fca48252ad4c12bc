/* Parallel work of a step, and carom's own small pool of threads.
 *
 * The stages that spread over threads (docs/threads.md) cut their work into items that do not
 * touch each other's data: a contact, a body, a group of constraints of one colour. Each item
 * writes only its own results, and whatever must be merged (events, wakes, new contacts,
 * moved proxies) is merged afterwards on the stepping thread in item order. So the bits of a
 * step depend on neither the thread count nor which thread ran which range: there is no
 * floating-point sum across items, and nothing is appended in the order threads finish.
 *
 * carom_parallel_for hands a task to the world's task system: the host's enqueue_task and
 * finish_task (carom_world_def), as Box2D v3 lets a game run it on its own job system, or,
 * when the host gave none and asked for more than one worker, the world's pool below.
 *
 * The pool: worker_count - 1 helper threads and the stepping thread, one task at a time. A task
 * is cut into blocks, and the blocks into one run per worker, in worker order. Each worker takes
 * the blocks of its own run from the front; once it is out of them it takes the others' from
 * their backs, so a helper that the operating system has not scheduled never holds the step up
 * (the stepping thread takes its blocks). A worker so meets the same items in every task of the
 * same size: the same groups of a colour in each of a step's solver passes, the same bodies'
 * states in each integration, which then stay in its core's cache. With one shared counter the
 * blocks went out in the order the threads came, and the constraints a thread wrote in one pass
 * were often the other's in the next, fetched from the other core. Tasks come a few hundred
 * times a step, microseconds apart (one per colour per solver pass), too often to put the
 * helpers to sleep in between: a helper spins for a while after each task, then yields, then
 * sleeps on a condition variable until the next.
 *
 * A helper joins a task through a gate, so that the stepping thread never rewrites a task's
 * fields while a helper may read them: the helper counts itself in (users), then checks that
 * the task is open; finishing closes the task, then waits until no helper is in. */
#include "core.h"

#include "ds.h"
#include "task.h"

#include <stdlib.h>

#if defined(CAROM_HAVE_THREADS)
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* How long an idle helper spins, then yields, before it sleeps (iterations). Once asleep, a
 * helper takes tens of microseconds to wake, which the next task waits for: the yields keep it
 * awake through the stepping thread's longer serial stretches within a step (re-placing moved
 * proxies, the merge after the narrow phase, the colouring: a few tenths of a millisecond in
 * the large scenes), while letting other threads have the core meanwhile. With 64 yields (the
 * spins last some 15 us on this project's AMD EPYC machine) the helper slept through them:
 * waiting for helpers to wake was 0.25 ms of a two-thread step of the 16,000-ball rain (40 us
 * on each of the four position integrations, which follow the colours run inline). A yield
 * returns at once on an otherwise idle core, so 1,024 of them are about a millisecond. */
#define SPIN_ITERATIONS 4096
#define YIELD_ITERATIONS 1024
/* Blocks per worker a task is cut into: more evens out uneven items, late helpers and CPUs of
 * unequal speed, fewer costs fewer atomic operations. A worker done with its run waits for the
 * other's block in hand: with 4 a worker, the stepping thread of the large pyramid's two-worker
 * step waited for the helper's last block in 23 % of its samples (perf, 2026-11-27, the CPUs
 * a third apart in speed). 8 took 3 to 6 % off the two-worker steps of the rain, the large
 * pyramid and many_pyramids (medians of 6 alternating runs); 16 gained nothing more. */
#define BLOCKS_PER_WORKER 8

/* A worker's run of a task's blocks, [front, back), packed in one word (front in the low 16
 * bits; a task has at most BLOCKS_PER_WORKER * CAROM_MAX_WORKERS blocks) so that its owner
 * taking the front and another worker taking the back agree by one compare-and-swap; and how
 * many blocks the worker ran, which only it writes. On the worker's own cache line, as it
 * changes both at every block. */
typedef struct block_run {
    _Alignas(64) atomic_uint ends;
    atomic_int done;
} block_run;

typedef struct helper {
    carom_thread_pool* pool;
    int worker; /* 1.. worker_count - 1; the stepping thread is 0 */
    pthread_t thread;
} helper;

/* Laid out in three cache lines by who writes them, so that no line the helpers read at every
 * block or while they wait is one that another thread keeps writing: with the counts of the
 * blocks done and of the helpers in beside the task's fields, each block a worker finished
 * took the line away from the other, which then fetched it back to read the task. */
struct carom_thread_pool {
    /* the task, written by the stepping thread only, while it is closed and no helper is in */
    _Alignas(64) atomic_uint generation; /* bumped when a task opens, and at shutdown */
    atomic_bool open;                    /* the task below may be joined */
    carom_task_fn* fn;
    void* context;
    int count;
    int block_size;
    int block_count;
    block_run* runs; /* one per worker, the stepping thread's first */
    /* the gate, written by the helpers */
    _Alignas(64) atomic_int users; /* helpers between the gate and leaving the task */
    /* the rest, written when the pool starts and stops, and around a helper's sleep */
    _Alignas(64) int helper_count;
    helper* helpers;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    atomic_int sleepers; /* helpers asleep on `wake`, or about to be */
    atomic_bool shutdown;
    void* runs_memory; /* runs, before their alignment to a cache line */
    void* memory;      /* the pool, before its alignment to a cache line */
};

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* The i-th pause of a wait: spinning first, then yielding. */
static void wait_a_little(int i) {
    if (i < SPIN_ITERATIONS) {
        cpu_relax();
    } else {
        sched_yield();
    }
}

static unsigned pack_run(unsigned front, unsigned back) { return front | back << 16; }

/* Take a block off the run, from its front (the run's owner) or its back (any other worker):
 * its index, or -1 when the run is empty. */
static int take_block(block_run* run, bool front) {
    unsigned ends = atomic_load(&run->ends);
    for (;;) {
        unsigned first = ends & 0xffffu;
        unsigned back = ends >> 16;
        if (first >= back) {
            return -1;
        }
        unsigned taken = front ? pack_run(first + 1, back) : pack_run(first, back - 1);
        if (atomic_compare_exchange_weak(&run->ends, &ends, taken)) {
            return (int)(front ? first : back - 1);
        }
    }
}

static void run_block(carom_thread_pool* pool, int block, int worker) {
    int begin = block * pool->block_size;
    int end = pool->count - begin < pool->block_size ? pool->count : begin + pool->block_size;
    pool->fn(begin, end, worker, pool->context);
    block_run* own = &pool->runs[worker];
    atomic_store(&own->done, atomic_load_explicit(&own->done, memory_order_relaxed) + 1);
}

/* Take blocks of the open task until none is left: the worker's own run, then the others'. */
static void run_blocks(carom_thread_pool* pool, int worker) {
    int workers = pool->helper_count + 1;
    for (int block; (block = take_block(&pool->runs[worker], true)) >= 0;) {
        run_block(pool, block, worker);
    }
    for (int i = 1; i < workers; ++i) {
        block_run* run = &pool->runs[(worker + i) % workers];
        for (int block; (block = take_block(run, false)) >= 0;) {
            run_block(pool, block, worker);
        }
    }
}

/* Wait until the generation moves on from `seen` (a task opened, or shutdown); return it. */
static unsigned wait_for_task(carom_thread_pool* pool, unsigned seen) {
    for (int i = 0; i < SPIN_ITERATIONS + YIELD_ITERATIONS; ++i) {
        unsigned now = atomic_load(&pool->generation);
        if (now != seen) {
            return now;
        }
        wait_a_little(i);
    }
    pthread_mutex_lock(&pool->mutex);
    atomic_fetch_add(&pool->sleepers, 1);
    unsigned now = atomic_load(&pool->generation);
    while (now == seen) {
        pthread_cond_wait(&pool->wake, &pool->mutex);
        now = atomic_load(&pool->generation);
    }
    atomic_fetch_sub(&pool->sleepers, 1);
    pthread_mutex_unlock(&pool->mutex);
    return now;
}

static void* helper_main(void* argument) {
    helper* self = argument;
    carom_thread_pool* pool = self->pool;
    unsigned seen = 0;
    for (;;) {
        seen = wait_for_task(pool, seen);
        if (atomic_load(&pool->shutdown)) {
            return NULL;
        }
        atomic_fetch_add(&pool->users, 1);
        if (atomic_load(&pool->open)) {
            run_blocks(pool, self->worker);
        }
        atomic_fetch_sub(&pool->users, 1);
    }
}

static void wake_sleepers(carom_thread_pool* pool) {
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->mutex);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mutex);
    }
}

/* The pool as the host's callbacks: user_context is the pool. */
static void* pool_enqueue(carom_task_fn* task, int item_count, int min_range, void* task_context,
                          void* user_context) {
    carom_thread_pool* pool = user_context;
    int workers = pool->helper_count + 1;
    int block_size = (item_count + BLOCKS_PER_WORKER * workers - 1) / (BLOCKS_PER_WORKER * workers);
    block_size = block_size > min_range ? block_size : min_range;
    block_size = block_size > 0 ? block_size : 1;
    pool->fn = task;
    pool->context = task_context;
    pool->count = item_count;
    pool->block_size = block_size;
    int block_count = (item_count + block_size - 1) / block_size;
    pool->block_count = block_count;
    CAROM_ASSERT(block_count <= BLOCKS_PER_WORKER * workers + 1);
    for (int w = 0; w < workers; ++w) {
        atomic_store(&pool->runs[w].ends, pack_run((unsigned)(block_count * w / workers),
                                                   (unsigned)(block_count * (w + 1) / workers)));
    }
    for (int w = 0; w < workers; ++w) {
        atomic_store(&pool->runs[w].done, 0);
    }
    atomic_store(&pool->open, true);
    atomic_fetch_add(&pool->generation, 1);
    wake_sleepers(pool);
    return pool;
}

/* Wait until *value reaches target. */
static void wait_until(atomic_int* value, int target) {
    for (int i = 0; atomic_load(value) != target; ++i) {
        wait_a_little(i);
    }
}

/* The blocks of the open task the workers have run. */
static int blocks_done(carom_thread_pool* pool) {
    int done = 0;
    for (int w = 0; w <= pool->helper_count; ++w) {
        done += atomic_load(&pool->runs[w].done);
    }
    return done;
}

static void pool_finish(void* user_task, void* user_context) {
    (void)user_context;
    carom_thread_pool* pool = user_task;
    run_blocks(pool, 0);
    for (int i = 0; blocks_done(pool) != pool->block_count; ++i) {
        wait_a_little(i);
    }
    atomic_store(&pool->open, false);
    wait_until(&pool->users, 0);
}

static void pool_destroy(carom_thread_pool* pool, int started) {
    atomic_store(&pool->shutdown, true);
    atomic_fetch_add(&pool->generation, 1);
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < started; ++i) {
        pthread_join(pool->helpers[i].thread, NULL);
    }
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->mutex);
    carom_free(pool->runs_memory);
    carom_free(pool->helpers);
    carom_free(pool->memory);
}

static carom_status pool_create(int helper_count, carom_thread_pool** out) {
    /* carom_alloc aligns for max_align_t only: one line more, to start the pool on a line */
    void* memory = carom_alloc(sizeof(carom_thread_pool) + 63);
    carom_thread_pool* pool = (carom_thread_pool*)(((uintptr_t)memory + 63) & ~(uintptr_t)63);
    memset(pool, 0, sizeof(*pool));
    pool->memory = memory;
    pool->helper_count = helper_count;
    pool->helpers = carom_alloc(sizeof(helper) * (size_t)helper_count);
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    atomic_init(&pool->generation, 0u);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->shutdown, false);
    atomic_init(&pool->open, false);
    atomic_init(&pool->users, 0);
    /* carom_alloc aligns for max_align_t only: one line more, to start the runs on a line */
    pool->runs_memory = carom_alloc(sizeof(block_run) * (size_t)(helper_count + 2));
    uintptr_t runs_address = ((uintptr_t)pool->runs_memory + 63) & ~(uintptr_t)63;
    pool->runs = (block_run*)runs_address;
    for (int w = 0; w <= helper_count; ++w) {
        atomic_init(&pool->runs[w].ends, 0u);
        atomic_init(&pool->runs[w].done, 0);
    }
    for (int i = 0; i < helper_count; ++i) {
        pool->helpers[i].pool = pool;
        pool->helpers[i].worker = i + 1;
        int error = pthread_create(&pool->helpers[i].thread, NULL, helper_main, &pool->helpers[i]);
        if (error != 0) {
            pool_destroy(pool, i);
            return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                              "world worker_count is %d: the system refused to start thread %d "
                              "of its %d (%s); ask for fewer workers",
                              helper_count + 1, i + 1, helper_count, strerror(error));
        }
    }
    *out = pool;
    return CAROM_OK;
}
#endif

carom_status carom_task_system_init(carom_task_system* tasks, const carom_world_def* def) {
    tasks->worker_count = 1;
    tasks->enqueue_task = NULL;
    tasks->finish_task = NULL;
    tasks->user_context = NULL;
    tasks->pool = NULL;
    if (def->enqueue_task != NULL) {
        tasks->worker_count = def->worker_count;
        tasks->enqueue_task = def->enqueue_task;
        tasks->finish_task = def->finish_task;
        tasks->user_context = def->user_task_context;
        return CAROM_OK;
    }
#if defined(CAROM_HAVE_THREADS)
    if (def->worker_count > 1) {
        carom_status status = pool_create(def->worker_count - 1, &tasks->pool);
        if (status != CAROM_OK) {
            return status;
        }
        tasks->worker_count = def->worker_count;
        tasks->enqueue_task = pool_enqueue;
        tasks->finish_task = pool_finish;
        tasks->user_context = tasks->pool;
    }
#endif
    return CAROM_OK;
}

void carom_task_system_destroy(carom_task_system* tasks) {
#if defined(CAROM_HAVE_THREADS)
    if (tasks->pool != NULL) {
        pool_destroy(tasks->pool, tasks->pool->helper_count);
    }
#endif
    tasks->pool = NULL;
    tasks->worker_count = 1;
}

void carom_parallel_for(const carom_task_system* tasks, carom_task_fn* fn, int count,
                        int min_range, void* context) {
    carom_parallel_for_beside(tasks, fn, count, min_range, context, NULL, NULL);
}

void carom_parallel_for_beside(const carom_task_system* tasks, carom_task_fn* fn, int count,
                               int min_range, void* context, carom_beside_fn* beside,
                               void* beside_context) {
    if (count <= 0 || tasks->worker_count <= 1 || count < 2 * min_range) {
        if (beside != NULL) {
            beside(beside_context);
        }
        if (count > 0) {
            fn(0, count, 0, context);
        }
        return;
    }
    /* the pool's helpers start on their runs of blocks at once; the stepping thread takes its
     * own (finish_task) once beside is done, and a helper done first takes some of them */
    void* user_task = tasks->enqueue_task(fn, count, min_range, context, tasks->user_context);
    if (beside != NULL) {
        beside(beside_context);
    }
    if (user_task != NULL) {
        tasks->finish_task(user_task, tasks->user_context);
    }
}

/* ---- Selecting items in parallel ----------------------------------------------------------
 * Two passes over blocks of a fixed size (so the blocks, and the result, do not depend on the
 * workers): each block marks and counts its kept items; after a running sum of the counts on
 * this thread, each block writes its items at its offset. */

#define SELECT_BLOCK 2048

typedef struct select_task {
    int count;
    carom_keep_fn* keep;
    const void* context;
    unsigned char* flags;
    int* block_counts; /* counts, then the offsets */
    int* out;
} select_task;

static void mark_blocks(int begin, int end, int worker, void* context) {
    (void)worker;
    select_task* task = context;
    for (int b = begin; b < end; ++b) {
        int last = carom_block_end(b, SELECT_BLOCK, task->count);
        int kept = 0;
        for (int i = b * SELECT_BLOCK; i < last; ++i) {
            bool keep = task->keep(i, task->context);
            task->flags[i] = (unsigned char)keep;
            kept += keep;
        }
        task->block_counts[b] = kept;
    }
}

static void write_blocks(int begin, int end, int worker, void* context) {
    (void)worker;
    select_task* task = context;
    for (int b = begin; b < end; ++b) {
        int last = carom_block_end(b, SELECT_BLOCK, task->count);
        int* at = task->out + task->block_counts[b];
        for (int i = b * SELECT_BLOCK; i < last; ++i) {
            if (task->flags[i]) {
                *at++ = i;
            }
        }
    }
}

int carom_counts_to_offsets(int* counts, int blocks) {
    int total = 0;
    for (int block = 0; block < blocks; ++block) {
        int count = counts[block];
        counts[block] = total;
        total += count;
    }
    return total;
}

void carom_parallel_select(const carom_task_system* tasks, int count, carom_keep_fn* keep,
                           const void* context, int** out, unsigned char** flags,
                           int** block_counts) {
    arrsetlen(*out, 0);
    if (count <= 0) {
        return;
    }
    int blocks = (count + SELECT_BLOCK - 1) / SELECT_BLOCK;
    arrsetlen(*flags, count);
    arrsetlen(*block_counts, blocks);
    select_task task = {count, keep, context, *flags, *block_counts, NULL};
    carom_parallel_for(tasks, mark_blocks, blocks, 1, &task);
    int total = carom_counts_to_offsets(task.block_counts, blocks);
    arrsetlen(*out, total);
    task.out = *out;
    carom_parallel_for(tasks, write_blocks, blocks, 1, &task);
}
