/* Id pool: see id_pool.h. */
#include "core.h"

#include "ds.h"
#include "id_pool.h"

int carom_id_pool_alloc(carom_id_pool* pool) {
    if (arrlen(pool->free_ids) > 0) {
        return arrpop(pool->free_ids);
    }
    return pool->next_id++;
}

void carom_id_pool_free(carom_id_pool* pool, int id) {
    CAROM_ASSERT(id >= 0 && id < pool->next_id);
    arrput(pool->free_ids, id);
}

int carom_id_pool_count(const carom_id_pool* pool) {
    return pool->next_id - (int)arrlen(pool->free_ids);
}

void carom_id_pool_destroy(carom_id_pool* pool) {
    arrfree(pool->free_ids);
    pool->next_id = 0;
}
