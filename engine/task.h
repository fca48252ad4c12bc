/* Parallel work of a step: the host's job system or carom's own pool of threads. See task.c. */
#ifndef CAROM_TASK_H
#define CAROM_TASK_H

#include "carom/carom.h"

#include <stdbool.h>

typedef struct carom_thread_pool carom_thread_pool;

/* Who runs a world's parallel work: the def's callbacks, the world's own pool (which then
 * provides them), or, with one worker, nobody but the calling thread. */
typedef struct carom_task_system {
    int worker_count; /* 1 when the step runs on the calling thread only */
    carom_enqueue_task_fn* enqueue_task;
    carom_finish_task_fn* finish_task;
    void* user_context;
    carom_thread_pool* pool; /* the world's own threads, or NULL */
} carom_task_system;

/* Set up the task system a world def asks for: its callbacks, else a pool of
 * worker_count - 1 threads where the build has them, else one worker. CAROM_ERROR_OUT_OF_MEMORY
 * (recorded) if the threads could not be started. */
carom_status carom_task_system_init(carom_task_system* tasks, const carom_world_def* def);
void carom_task_system_destroy(carom_task_system* tasks);

/* Run fn over items [0, count) in ranges of at least min_range items, on the world's workers,
 * and return once all have run. With one worker, or too few items to share, it is one call on
 * this thread. fn must give the same bits for any split (task.c). */
void carom_parallel_for(const carom_task_system* tasks, carom_task_fn* fn, int count,
                        int min_range, void* context);
/* carom_parallel_for, running beside(beside_context) on this thread while the other workers
 * start on fn's items: serial work that reads and writes nothing fn's items do, so that the
 * order of the two changes nothing (with one worker, or too few items to share, beside runs
 * first, then fn). */
typedef void carom_beside_fn(void* context);
void carom_parallel_for_beside(const carom_task_system* tasks, carom_task_fn* fn, int count,
                               int min_range, void* context, carom_beside_fn* beside,
                               void* beside_context);

/* Work cut into blocks of a fixed size, never a share of the workers, gives the bits of one
 * pass in item order for any worker count: each block counts what it makes, the counts become
 * offsets in block order (carom_counts_to_offsets, on the stepping thread), and each block then
 * writes at its offset. */

/* The end of block `block` of block_size items among count: the next block's start, or count. */
static inline int carom_block_end(int block, int block_size, int count) {
    return count - block * block_size < block_size ? count : (block + 1) * block_size;
}

/* Each block's count replaced by the sum of the counts before it; returns the sum of all. */
int carom_counts_to_offsets(int* counts, int blocks);

/* The items of [0, count) for which keep(item, context) is true, ascending, into the stb_ds
 * array *out (emptied first): the order one thread would list them in. keep is called once per
 * item, from any worker; *flags and *block_counts are stb_ds scratch arrays of the caller's. */
typedef bool carom_keep_fn(int item, const void* context);
void carom_parallel_select(const carom_task_system* tasks, int count, carom_keep_fn* keep,
                           const void* context, int** out, unsigned char** flags,
                           int** block_counts);

#endif
