/* The broad phase: a uniform grid of cells in a hash map, finding new pairs of shapes whose
 * fattened bounding boxes overlap. See broad_phase.c for the design. */
#ifndef CAROM_BROAD_PHASE_H
#define CAROM_BROAD_PHASE_H

#include "carom/carom.h"

#include "hash_map.h"

#include <stdbool.h>
#include <string.h>

typedef struct carom_world carom_world;

/* Bounding boxes of moving shapes are fattened by this much (m) on every side, so a shape moving
 * a little stays inside its box and costs the grid nothing. */
#define CAROM_AABB_MARGIN 0.1
/* The margin of a body that was pushed this step (it touches something) is at most this
 * fraction of how far its shape reaches from the body's center of mass (and CAROM_AABB_MARGIN
 * at most): in a crowd, each margin is a ring of neighbours the body holds pairs with, and a
 * 0.25 m box with the full 0.1 m margin had twice the pairs of one with 0.011 m (body.c). */
#define CAROM_PUSHED_MARGIN_FRACTION 0.0625
/* A moving body's fat box also reaches this many of its last step's displacements ahead. */
#define CAROM_AABB_LOOK_AHEAD 2.0
/* Fat boxes are rounded outward to multiples of this (m, a power of two so the rounding is
 * exact): a fat box is then a few small integers away from its shape's tight box, which is what
 * keeps a body's snapshot within 64 bytes (docs/snapshots.md). */
#define CAROM_AABB_QUANTUM (1.0 / 32.0)
/* A proxy covering more cells than this lives on the large list instead of in cells. */
#define CAROM_LARGE_PROXY_CELLS 64

typedef struct carom_proxy {
    carom_aabb fat_aabb;
    carom_filter filter;
    bool is_sensor;
    bool disabled; /* its body is disabled: it stays listed but never pairs */
    int body;
    carom_body_type body_type;
    int x0, y0, x1, y1; /* cell range covered, when placed */
    int large_slot;     /* index in the large list, or -1 */
    bool alive, placed, moved;
    bool placed_fixed; /* counted in its cells' fixed_count: not dynamic when it was placed */
} carom_proxy;

typedef struct carom_grid_cell {
    int* proxies;    /* stb_ds array of proxy (shape) ids */
    int fixed_count; /* how many of them are static or kinematic bodies' (placed_fixed) */
} carom_grid_cell;

/* Keys a query holds back before looking them up in the pair map (broad_phase.c). */
#define CAROM_CANDIDATE_BATCH 16

/* Candidate pairs found by one worker (broad_phase.c): stb_ds array of pair keys, and whether
 * they outgrew the room max_contacts leaves; and the keys found but not yet looked up, whose
 * pair-map slots are being fetched meanwhile. */
typedef struct carom_candidate_list {
    uint64_t* keys;
    bool overflow;
    int pending_count;
    uint64_t pending[CAROM_CANDIDATE_BATCH];
} carom_candidate_list;

typedef struct carom_broad_phase {
    double cell_size; /* 0 until chosen */
    double inv_cell_size;
    carom_proxy* proxies;        /* indexed by shape id */
    carom_hash_map cell_map;     /* cell key -> index in cells */
    carom_grid_cell* cells;      /* stb_ds array */
    int* free_cells;             /* stb_ds array: cells emptied and out of the map, for reuse */
    int* large_proxies;          /* stb_ds array of shape ids */
    int* moved;                  /* stb_ds array of shape ids moved since the last pair update */
    /* Whether a proxy in `moved` may not be listed in the cells of its box: it moved before the
     * cell size was chosen, or a snapshot restored it. Otherwise every move listed it at once. */
    bool placing_pending;
    uint64_t* candidate_pairs;   /* scratch, reused every step */
    /* How many new pairs the world's max_contacts leaves room for in this pair update, and
     * whether the candidates were found to exceed it (carom_broad_phase_update_pairs). */
    int candidate_room;
    bool candidates_overflow;
    carom_candidate_list* worker_candidates; /* stb_ds array: one list per worker, reused */
    /* Every category bit a proxy has had (never cleared): a moved proxy whose mask meets none of
     * them, and that no group joins to others, can pair with nothing and is not queried. */
    uint64_t categories_seen;
    /* Bumped whenever a static or kinematic body's proxy is created, moved or restored (a
     * proxy destroyed or turned dynamic only takes answers away from fixed queries): while it
     * stays the same, so do the fat boxes of the static and kinematic shapes, which continuous
     * collision maps once (continuous.c, the fixed map). */
    uint64_t fixed_revision;
} carom_broad_phase;

/* The box rounded outward to multiples of CAROM_AABB_QUANTUM. */
carom_aabb carom_quantize_fat_aabb(carom_aabb box);
void carom_broad_phase_init(carom_broad_phase* bp, double cell_size);
void carom_broad_phase_destroy(carom_broad_phase* bp);
void carom_broad_phase_create_proxy(carom_broad_phase* bp, int shape, carom_aabb fat_aabb,
                                    int body, carom_body_type body_type, carom_filter filter,
                                    bool is_sensor);
void carom_broad_phase_destroy_proxy(carom_broad_phase* bp, int shape);
/* Give a proxy a new collision filter (its pairs are found again at the next update). */
void carom_broad_phase_set_filter(carom_broad_phase* bp, int shape, carom_filter filter);
void carom_broad_phase_move_proxy(carom_broad_phase* bp, int shape, carom_aabb fat_aabb);
/* carom_broad_phase_move_proxy in two halves, for the step's bodies on the workers. The first
 * writes this proxy only (its box and moved flag), so the proxies of different shapes may be
 * moved at the same time, and returns what is left of the move for the second
 * (carom_proxy_move_rest bits, 0 for nothing): listing the proxy as moved, and re-placing it in
 * the shared grid, on one thread, in the order one would have moved them. Most moves leave the
 * proxy in the cells it is listed in (in the 16,000-ball rain, 3 of 4). */
enum carom_proxy_move_rest {
    CAROM_PROXY_LIST = 1,   /* into the moved list */
    CAROM_PROXY_FIXED = 2,  /* a static or kinematic proxy: fixed queries may answer differently */
    CAROM_PROXY_PLACE = 4   /* into the cells of its new box */
};
unsigned carom_broad_phase_begin_move(carom_broad_phase* bp, int shape, carom_aabb fat_aabb);
void carom_broad_phase_finish_move(carom_broad_phase* bp, int shape, unsigned rest);
/* Find pairs involving moved proxies that are not yet contacts, and create their contacts in
 * ascending pair-key order. If there are more of them than the world's max_contacts leaves room
 * for, create none, keep the moved proxies for the next update, and return false (the step is
 * refused); *new_pairs then receives how many there are at least. */
bool carom_broad_phase_update_pairs(carom_world* world, int* new_pairs);
/* The shapes whose fat boxes overlap `box`, in ascending id order without repeats, into the
 * stb_ds array *out (emptied first). Empty before the first pair update (no cell size yet). */
void carom_broad_phase_query(carom_broad_phase* bp, carom_aabb box, int** out);
/* The same, of the shapes of static and kinematic bodies only: what a sweep that ignores dynamic
 * bodies can hit (continuous collision of a body that is not a bullet). A box over a pile of
 * moving bodies then costs a scan, not a sort of the pile. */
void carom_broad_phase_query_fixed(carom_broad_phase* bp, carom_aabb box, int** out);
/* Snapshot restore (snapshot_read.c), first: the chosen cell size (0: not chosen yet); a change
 * unplaces every proxy. Empties the moved list, which restore_proxy fills again. */
void carom_broad_phase_restore_cell_size(carom_broad_phase* bp, double cell_size);
/* Snapshot restore, for every live proxy: its fat box and moved flag, listed in the cells of that
 * box (left where it is when it is listed in those cells already), and in the moved list if it
 * moved (in the order of these calls: the list's order reaches nothing, pairs and queries are
 * sorted). */
void carom_broad_phase_restore_proxy(carom_broad_phase* bp, int shape, const carom_aabb* fat_aabb,
                                     bool moved);
/* carom_broad_phase_restore_proxy, skipped for a placed proxy that keeps its box and did not
 * move, which it would leave as it is: a rollback finds most proxies so (fat boxes outlast many
 * steps), and for them this check costs less than the call. */
static inline void carom_broad_phase_restore_proxy_if_changed(carom_broad_phase* bp, int shape,
                                                              const carom_aabb* fat_aabb,
                                                              bool moved) {
    const carom_proxy* proxy = &bp->proxies[shape];
    bool unchanged = !moved && !proxy->moved && proxy->placed &&
                     memcmp(&proxy->fat_aabb, fat_aabb, sizeof(*fat_aabb)) == 0;
    if (!unchanged) {
        carom_broad_phase_restore_proxy(bp, shape, fat_aabb, moved);
    }
}
/* Pair key of two shape ids, smaller id in the high half. */
static inline uint64_t carom_pair_key(int shape_a, int shape_b) {
    uint32_t low = (uint32_t)(shape_a < shape_b ? shape_a : shape_b);
    uint32_t high = (uint32_t)(shape_a < shape_b ? shape_b : shape_a);
    return ((uint64_t)low << 32) | high;
}
/* The two shape ids of a pair key: the smaller, and the larger. */
static inline int carom_pair_key_low(uint64_t key) {
    return (int)(key >> 32);
}
static inline int carom_pair_key_high(uint64_t key) {
    return (int)(key & 0xffffffffu);
}
/* Whether two proxies may make a pair: different bodies, at least one dynamic, not two sensors,
 * filters agree. */
bool carom_proxies_may_pair(const carom_proxy* a, const carom_proxy* b);

#endif
