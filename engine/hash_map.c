/* Hash map: see hash_map.h. Deletion shifts later entries of the probe run back, so there are no
 * tombstones and lookups stay short however many pairs come and go. */
#include "core.h"

#include "hash_map.h"

void carom_hash_map_destroy(carom_hash_map* map) {
    carom_free(map->slots);
    map->slots = NULL;
    map->capacity = 0;
    map->count = 0;
}

void carom_hash_map_clear(carom_hash_map* map) {
    for (int i = 0; i < map->capacity; ++i) {
        map->slots[i].value = -1;
    }
    map->count = 0;
}

static int find_slot(const carom_hash_map* map, uint64_t key) {
    uint64_t mask = (uint64_t)map->capacity - 1;
    uint64_t slot = carom_mix64(key) & mask;
    while (map->slots[slot].value >= 0 && map->slots[slot].key != key) {
        slot = (slot + 1) & mask;
    }
    return (int)slot;
}

int carom_hash_map_get(const carom_hash_map* map, uint64_t key) {
    if (map->capacity == 0) {
        return -1;
    }
    return map->slots[find_slot(map, key)].value;
}

/* The slots rebuilt at `capacity` (a power of two above twice the count), keys moved over. */
static void grow_to(carom_hash_map* map, int capacity) {
    carom_hash_map bigger;
    bigger.capacity = capacity;
    bigger.count = 0;
    bigger.slots = carom_alloc(sizeof(carom_hash_slot) * (size_t)bigger.capacity);
    for (int i = 0; i < bigger.capacity; ++i) {
        bigger.slots[i].key = 0;
        bigger.slots[i].value = -1;
    }
    for (int i = 0; i < map->capacity; ++i) {
        if (map->slots[i].value >= 0) {
            carom_hash_map_set(&bigger, map->slots[i].key, map->slots[i].value);
        }
    }
    carom_hash_map_destroy(map);
    *map = bigger;
}

/* The capacity after growing, one doubling at a time from the current one, until `count` keys
 * fill at most half of it. */
static int capacity_for(const carom_hash_map* map, int count) {
    int capacity = map->capacity;
    while (2 * count > capacity) {
        capacity = capacity == 0 ? 64 : 2 * capacity;
    }
    return capacity;
}

void carom_hash_map_reserve(carom_hash_map* map, int count) {
    int capacity = capacity_for(map, count);
    if (capacity > map->capacity) {
        grow_to(map, capacity);
    }
}

/* The slot where key is, or where it would go, with room made for one more key. */
static int slot_for_insert(carom_hash_map* map, uint64_t key) {
    carom_hash_map_reserve(map, map->count + 1);
    return find_slot(map, key);
}

void carom_hash_map_set(carom_hash_map* map, uint64_t key, int value) {
    CAROM_ASSERT(value >= 0);
    int index = slot_for_insert(map, key); /* first: it may move the slots */
    carom_hash_slot* slot = &map->slots[index];
    if (slot->value < 0) {
        slot->key = key;
        map->count += 1;
    }
    slot->value = value;
}

bool carom_hash_map_insert_new(carom_hash_map* map, uint64_t key, int value) {
    CAROM_ASSERT(value >= 0);
    int index = slot_for_insert(map, key); /* first: it may move the slots */
    carom_hash_slot* slot = &map->slots[index];
    if (slot->value >= 0) {
        return false;
    }
    slot->key = key;
    slot->value = value;
    map->count += 1;
    return true;
}

void carom_hash_map_remove(carom_hash_map* map, uint64_t key) {
    if (map->capacity == 0) {
        return;
    }
    uint64_t mask = (uint64_t)map->capacity - 1;
    carom_hash_slot* slots = map->slots;
    uint64_t hole = (uint64_t)find_slot(map, key);
    if (slots[hole].value < 0) {
        return;
    }
    slots[hole].value = -1;
    map->count -= 1;
    /* Move back any later entry of the run whose home slot is not between the hole and it. */
    for (uint64_t next = (hole + 1) & mask; slots[next].value >= 0; next = (next + 1) & mask) {
        uint64_t home = carom_mix64(slots[next].key) & mask;
        if (((next - home) & mask) >= ((next - hole) & mask)) {
            slots[hole] = slots[next];
            slots[next].value = -1;
            hole = next;
        }
    }
}

void carom_hash_map_prefetch(const carom_hash_map* map, uint64_t key) {
    if (map->capacity > 0) {
        uint64_t mask = (uint64_t)map->capacity - 1;
        __builtin_prefetch(&map->slots[carom_mix64(key) & mask]);
    }
}
