/* A hash map from 64-bit keys to non-negative ints: open addressing with linear probing.
 *
 * Why not stb_ds's hm* maps: its hash of 4- and 8-byte keys shifts bytes into the sign bit of
 * an int (undefined behaviour that UBSan reports on every lookup), and a map of our own lets the
 * key space be all 64 bits (cell coordinates use every bit) with no reserved key.
 * Used for lookups only: nothing in carom iterates a map, so slot order never reaches results. */
#ifndef CAROM_HASH_MAP_H
#define CAROM_HASH_MAP_H

#include <stdbool.h>
#include <stdint.h>

/* A key and its value side by side, so that a lookup reads one cache line, not one in a key
 * array and another in a value array: the pair map of a large pile does not fit the cache,
 * and its lookups are the broad phase's main cost. */
typedef struct carom_hash_slot {
    uint64_t key;
    int value; /* -1 marks an empty slot */
} carom_hash_slot;

typedef struct carom_hash_map {
    carom_hash_slot* slots;
    int capacity; /* a power of two, or 0 before the first insertion */
    int count;
} carom_hash_map;

void carom_hash_map_destroy(carom_hash_map* map);
/* Remove every key, keeping the capacity. */
void carom_hash_map_clear(carom_hash_map* map);
/* The value stored for key, or -1. */
int carom_hash_map_get(const carom_hash_map* map, uint64_t key);
/* Insert or overwrite; value must be >= 0. */
void carom_hash_map_set(carom_hash_map* map, uint64_t key, int value);
/* Insert key with value unless it is present: returns whether it was inserted. */
bool carom_hash_map_insert_new(carom_hash_map* map, uint64_t key, int value);
/* Make room for `count` keys in all, so that inserting up to that many grows the slots at most
 * once, here, instead of doubling them again and again (each doubling moves every key). The
 * capacity is the one inserting them one by one would have reached; results never depend on
 * where in the slots a key sits. */
void carom_hash_map_reserve(carom_hash_map* map, int count);
/* Remove key if present. */
void carom_hash_map_remove(carom_hash_map* map, uint64_t key);
/* Ask the processor to fetch the slot where a lookup of key starts, so that several lookups'
 * cache misses overlap instead of following one another. Changes nothing. */
void carom_hash_map_prefetch(const carom_hash_map* map, uint64_t key);

#endif
