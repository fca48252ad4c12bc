/* A pool of small integer ids: reuses freed ids last-in first-out, so the ids handed out depend
 * only on the sequence of calls, never on addresses (determinism). The objects themselves live
 * in the owner's stb_ds array, indexed by id. */
#ifndef CAROM_ID_POOL_H
#define CAROM_ID_POOL_H

typedef struct carom_id_pool {
    int* free_ids;  /* stb_ds array */
    int next_id;    /* ids below this have been handed out at least once */
} carom_id_pool;

/* An id, reused from the free list if any. The caller grows its object array when the id equals
 * its current length. */
int carom_id_pool_alloc(carom_id_pool* pool);
void carom_id_pool_free(carom_id_pool* pool, int id);
/* Ids currently in use. */
int carom_id_pool_count(const carom_id_pool* pool);
void carom_id_pool_destroy(carom_id_pool* pool);

#endif
