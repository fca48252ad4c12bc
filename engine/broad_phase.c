/* The broad phase: a uniform grid over an unbounded world.
 *
 * Each shape has a proxy holding its fattened bounding box (the tight box plus
 * CAROM_AABB_MARGIN, so small motions do not touch the grid). A proxy is listed in every grid
 * cell its fat box covers. Cells live in a hash map keyed by their integer coordinates,
 * so the world has no bounds and empty space costs nothing. A proxy covering more than
 * CAROM_LARGE_PROXY_CELLS cells (ground, long track walls) goes on a short list of its own
 * instead, checked against every moving proxy, rather than filling thousands of cells.
 *
 * A cell that empties leaves the map and waits on a free list for the next cell needed, its
 * list's memory kept: the grid holds the cells its proxies cover now, not every cell a body
 * ever crossed (50 balls flying apart for 100,000 steps held 633 MB before this), and a world
 * whose bodies keep moving over the same few cells stops allocating.
 *
 * Each cell counts the static and kinematic shapes it lists, so that continuous collision's
 * query for those alone (carom_broad_phase_query_fixed) passes over the cells of a moving pile
 * without reading a proxy: in a stirred drum of 6,000 bodies that query read 30 proxies a body.
 *
 * Each step, only proxies that moved out of their fat box (or are new) are re-placed and
 * queried. A query collects candidate pair keys; the keys are sorted and de-duplicated, and the
 * pairs not yet known become contacts in ascending key order. Sorting is what makes the result
 * independent of hash-bucket order and of which cell found a pair first.
 *
 * Rejected alternative: a dynamic AABB tree (Box2D) adapts to any size mix but costs a tree walk
 * per query and rebalancing; for the many similar-sized bodies of our scenes a grid answers in
 * a few hash lookups. The cell size is the user's, or chosen once, at the first step, as twice
 * the mean fat-box extent of the moving shapes present. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cell coordinates are clamped to this range so that far-flung bodies cannot overflow int. */
#define GRID_COORDINATE_LIMIT 1073741824.0

void carom_broad_phase_init(carom_broad_phase* bp, double cell_size) {
    memset(bp, 0, sizeof(*bp));
    bp->cell_size = cell_size;
    bp->inv_cell_size = cell_size > 0.0 ? 1.0 / cell_size : 0.0;
}

void carom_broad_phase_destroy(carom_broad_phase* bp) {
    for (int i = 0; i < (int)arrlen(bp->cells); ++i) {
        arrfree(bp->cells[i].proxies);
    }
    arrfree(bp->cells);
    arrfree(bp->free_cells);
    carom_hash_map_destroy(&bp->cell_map);
    arrfree(bp->proxies);
    arrfree(bp->large_proxies);
    arrfree(bp->moved);
    arrfree(bp->candidate_pairs);
    for (int i = 0; i < (int)arrlen(bp->worker_candidates); ++i) {
        arrfree(bp->worker_candidates[i].keys);
    }
    arrfree(bp->worker_candidates);
}

carom_aabb carom_quantize_fat_aabb(carom_aabb box) {
    const double scale = 1.0 / CAROM_AABB_QUANTUM;
    carom_aabb out = {{floor(box.lower.x * scale) * CAROM_AABB_QUANTUM,
                       floor(box.lower.y * scale) * CAROM_AABB_QUANTUM},
                      {ceil(box.upper.x * scale) * CAROM_AABB_QUANTUM,
                       ceil(box.upper.y * scale) * CAROM_AABB_QUANTUM}};
    return out;
}

bool carom_proxies_may_pair(const carom_proxy* a, const carom_proxy* b) {
    if (a->body == b->body) {
        return false;
    }
    if (a->body_type != CAROM_BODY_DYNAMIC && b->body_type != CAROM_BODY_DYNAMIC) {
        return false;
    }
    if ((a->is_sensor && b->is_sensor) || a->disabled || b->disabled) {
        return false;
    }
    return carom_filters_collide(a->filter, b->filter);
}

static void replace(carom_broad_phase* bp, int shape);

void carom_broad_phase_set_filter(carom_broad_phase* bp, int shape, carom_filter filter) {
    bp->proxies[shape].filter = filter;
    bp->categories_seen |= filter.category;
    carom_broad_phase_move_proxy(bp, shape, bp->proxies[shape].fat_aabb);
}

static void mark_moved(carom_broad_phase* bp, int shape) {
    carom_proxy* proxy = &bp->proxies[shape];
    if (!proxy->moved) {
        proxy->moved = true;
        arrput(bp->moved, shape);
    }
    bp->placing_pending |= bp->cell_size == 0.0;
}

/* A static or kinematic proxy was placed or moved: fixed queries may answer differently. */
static void note_fixed_change(carom_broad_phase* bp, const carom_proxy* proxy) {
    bp->fixed_revision += proxy->body_type != CAROM_BODY_DYNAMIC ? 1 : 0;
}

void carom_broad_phase_create_proxy(carom_broad_phase* bp, int shape, carom_aabb fat_aabb,
                                    int body, carom_body_type body_type, carom_filter filter,
                                    bool is_sensor) {
    while ((int)arrlen(bp->proxies) <= shape) {
        carom_proxy blank;
        memset(&blank, 0, sizeof(blank));
        arrput(bp->proxies, blank);
    }
    carom_proxy* proxy = &bp->proxies[shape];
    memset(proxy, 0, sizeof(*proxy));
    proxy->fat_aabb = fat_aabb;
    proxy->filter = filter;
    bp->categories_seen |= filter.category;
    proxy->is_sensor = is_sensor;
    proxy->body = body;
    proxy->body_type = body_type;
    proxy->large_slot = -1;
    proxy->alive = true;
    note_fixed_change(bp, proxy);
    mark_moved(bp, shape);
    if (bp->cell_size > 0.0) {
        replace(bp, shape);
    }
}

static int grid_coordinate(const carom_broad_phase* bp, double x) {
    double cell = floor(x * bp->inv_cell_size);
    if (cell < -GRID_COORDINATE_LIMIT) {
        cell = -GRID_COORDINATE_LIMIT;
    } else if (cell > GRID_COORDINATE_LIMIT) {
        cell = GRID_COORDINATE_LIMIT;
    }
    return (int)cell;
}

static uint64_t cell_key(int x, int y) { return ((uint64_t)(uint32_t)x << 32) | (uint32_t)y; }

static carom_grid_cell* find_cell(carom_broad_phase* bp, int x, int y) {
    int index = carom_hash_map_get(&bp->cell_map, cell_key(x, y));
    return index >= 0 ? &bp->cells[index] : NULL;
}

static carom_grid_cell* find_or_add_cell(carom_broad_phase* bp, int x, int y) {
    carom_grid_cell* cell = find_cell(bp, x, y);
    if (cell == NULL) {
        int index;
        if (arrlen(bp->free_cells) > 0) {
            index = arrpop(bp->free_cells); /* empty, its list's memory kept */
        } else {
            carom_grid_cell blank = {NULL, 0};
            arrput(bp->cells, blank);
            index = (int)arrlen(bp->cells) - 1;
        }
        carom_hash_map_set(&bp->cell_map, cell_key(x, y), index);
        cell = &bp->cells[index];
    }
    return cell;
}

/* Take the shape out of cell (x, y)'s list; a cell left empty goes to the free list. */
static void remove_from_cell(carom_broad_phase* bp, int x, int y, int shape) {
    uint64_t key = cell_key(x, y);
    int index = carom_hash_map_get(&bp->cell_map, key);
    CAROM_ASSERT(index >= 0);
    carom_grid_cell* cell = &bp->cells[index];
    cell->fixed_count -= bp->proxies[shape].placed_fixed ? 1 : 0;
    for (int i = 0; i < (int)arrlen(cell->proxies); ++i) {
        if (cell->proxies[i] == shape) {
            cell->proxies[i] = arrlast(cell->proxies);
            arrpop(cell->proxies);
            break;
        }
    }
    if (arrlen(cell->proxies) == 0) {
        carom_hash_map_remove(&bp->cell_map, key);
        arrput(bp->free_cells, index);
    }
}

static void unplace(carom_broad_phase* bp, int shape) {
    carom_proxy* proxy = &bp->proxies[shape];
    if (!proxy->placed) {
        return;
    }
    if (proxy->large_slot >= 0) {
        int last = arrlast(bp->large_proxies);
        bp->large_proxies[proxy->large_slot] = last;
        bp->proxies[last].large_slot = proxy->large_slot;
        arrpop(bp->large_proxies);
        proxy->large_slot = -1;
    } else {
        for (int y = proxy->y0; y <= proxy->y1; ++y) {
            for (int x = proxy->x0; x <= proxy->x1; ++x) {
                remove_from_cell(bp, x, y, shape);
            }
        }
    }
    proxy->placed = false;
}

static void place(carom_broad_phase* bp, int shape) {
    carom_proxy* proxy = &bp->proxies[shape];
    double cells = ((double)proxy->x1 - proxy->x0 + 1.0) * ((double)proxy->y1 - proxy->y0 + 1.0);
    if (cells > CAROM_LARGE_PROXY_CELLS) {
        proxy->large_slot = (int)arrlen(bp->large_proxies);
        arrput(bp->large_proxies, shape);
    } else {
        proxy->placed_fixed = proxy->body_type != CAROM_BODY_DYNAMIC;
        for (int y = proxy->y0; y <= proxy->y1; ++y) {
            for (int x = proxy->x0; x <= proxy->x1; ++x) {
                carom_grid_cell* cell = find_or_add_cell(bp, x, y);
                arrput(cell->proxies, shape);
                cell->fixed_count += proxy->placed_fixed ? 1 : 0;
            }
        }
    }
    proxy->placed = true;
}

/* Whether the proxy's cells count it as what its body is now (a body's type can change). */
static bool counted_as_its_type(const carom_proxy* proxy) {
    return proxy->placed_fixed == (proxy->body_type != CAROM_BODY_DYNAMIC);
}

static bool in_range(int x, int y, int x0, int y0, int x1, int y1) {
    return x >= x0 && x <= x1 && y >= y0 && y <= y1;
}

/* A listed proxy that is not large moves to the cell range (x0, y0)-(x1, y1), which is not large
 * either: it leaves only the cells it no longer covers and joins only those it newly covers. A
 * box moving in a pile shifts by a cell now and then; taking it out of all its cells and putting
 * it back was most of the cost of re-placing it. (The order of a cell's list changes, which no
 * answer depends on: queries sort what they find.) */
static void shift_cells(carom_broad_phase* bp, int shape, int x0, int y0, int x1, int y1) {
    carom_proxy* proxy = &bp->proxies[shape];
    for (int y = proxy->y0; y <= proxy->y1; ++y) {
        for (int x = proxy->x0; x <= proxy->x1; ++x) {
            if (!in_range(x, y, x0, y0, x1, y1)) {
                remove_from_cell(bp, x, y, shape);
            }
        }
    }
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            if (!in_range(x, y, proxy->x0, proxy->y0, proxy->x1, proxy->y1)) {
                carom_grid_cell* cell = find_or_add_cell(bp, x, y);
                arrput(cell->proxies, shape);
                cell->fixed_count += proxy->placed_fixed ? 1 : 0;
            }
        }
    }
    proxy->x0 = x0;
    proxy->y0 = y0;
    proxy->x1 = x1;
    proxy->y1 = y1;
}

/* Whether the proxy is listed in a plain way (not large) as what its body is now. */
static bool listed_as_is(const carom_proxy* proxy) {
    return proxy->placed && proxy->large_slot < 0 && counted_as_its_type(proxy);
}

/* Whether the proxy is listed as is, and in the cells (x0, y0)-(x1, y1). */
static bool listed_in(const carom_proxy* proxy, int x0, int y0, int x1, int y1) {
    return listed_as_is(proxy) && x0 == proxy->x0 && y0 == proxy->y0 && x1 == proxy->x1 &&
           y1 == proxy->y1;
}

/* Whether the proxy is listed in the cells its fat box covers now, and so needs no re-placing. */
static bool listed_in_its_cells(const carom_broad_phase* bp, const carom_proxy* proxy) {
    return listed_in(proxy, grid_coordinate(bp, proxy->fat_aabb.lower.x),
                     grid_coordinate(bp, proxy->fat_aabb.lower.y),
                     grid_coordinate(bp, proxy->fat_aabb.upper.x),
                     grid_coordinate(bp, proxy->fat_aabb.upper.y));
}

/* Put the proxy in the cells its fat box covers now. A proxy still covering the same cells it
 * is listed in (a box that grew or shifted within its cells) stays where it is. */
static void replace(carom_broad_phase* bp, int shape) {
    carom_proxy* proxy = &bp->proxies[shape];
    int x0 = grid_coordinate(bp, proxy->fat_aabb.lower.x);
    int y0 = grid_coordinate(bp, proxy->fat_aabb.lower.y);
    int x1 = grid_coordinate(bp, proxy->fat_aabb.upper.x);
    int y1 = grid_coordinate(bp, proxy->fat_aabb.upper.y);
    if (listed_in(proxy, x0, y0, x1, y1)) {
        return;
    }
    double cells = ((double)x1 - x0 + 1.0) * ((double)y1 - y0 + 1.0);
    if (listed_as_is(proxy) && cells <= CAROM_LARGE_PROXY_CELLS) {
        shift_cells(bp, shape, x0, y0, x1, y1);
        return;
    }
    unplace(bp, shape);
    proxy->x0 = x0;
    proxy->y0 = y0;
    proxy->x1 = x1;
    proxy->y1 = y1;
    place(bp, shape);
}

void carom_broad_phase_destroy_proxy(carom_broad_phase* bp, int shape) {
    unplace(bp, shape);
    bp->proxies[shape].alive = false;
    /* A stale entry may remain in `moved`; the pair update skips dead proxies. */
}

/* Both halves at once. The proxy is listed in its new cells at once, not at the next pair
 * update: queries in between (continuous collision, ray casts) then see every proxy where its
 * box is. */
void carom_broad_phase_move_proxy(carom_broad_phase* bp, int shape, carom_aabb fat_aabb) {
    carom_broad_phase_finish_move(bp, shape, carom_broad_phase_begin_move(bp, shape, fat_aabb));
}

unsigned carom_broad_phase_begin_move(carom_broad_phase* bp, int shape, carom_aabb fat_aabb) {
    carom_proxy* proxy = &bp->proxies[shape];
    proxy->fat_aabb = fat_aabb;
    unsigned rest = proxy->body_type != CAROM_BODY_DYNAMIC ? CAROM_PROXY_FIXED : 0u;
    if (!proxy->moved) {
        proxy->moved = true;
        rest |= CAROM_PROXY_LIST;
    }
    if (bp->cell_size > 0.0 && !listed_in_its_cells(bp, proxy)) {
        rest |= CAROM_PROXY_PLACE;
    }
    return rest;
}

/* The rest of the move on one thread: a fixed proxy moved changes what fixed queries answer;
 * a proxy moved for the first time since the last pair update joins the moved list (which the
 * pair update re-places if the cell size was not chosen yet); one whose box left its cells is
 * re-placed. */
void carom_broad_phase_finish_move(carom_broad_phase* bp, int shape, unsigned rest) {
    bp->fixed_revision += (rest & CAROM_PROXY_FIXED) != 0;
    if (rest & CAROM_PROXY_LIST) {
        arrput(bp->moved, shape);
        bp->placing_pending |= bp->cell_size == 0.0;
    }
    if (rest & CAROM_PROXY_PLACE) {
        replace(bp, shape);
    }
}

/* Twice the mean fat-box extent of the moving proxies; 1 m if there are none. */
static double choose_cell_size(const carom_broad_phase* bp) {
    double total = 0.0;
    int count = 0;
    for (int i = 0; i < (int)arrlen(bp->proxies); ++i) {
        const carom_proxy* proxy = &bp->proxies[i];
        if (proxy->alive && proxy->body_type != CAROM_BODY_STATIC) {
            carom_vec2 size = carom_sub(proxy->fat_aabb.upper, proxy->fat_aabb.lower);
            total += size.x > size.y ? size.x : size.y;
            count += 1;
        }
    }
    return count > 0 ? 2.0 * total / count : 1.0;
}

static int compare_keys(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a;
    uint64_t y = *(const uint64_t*)b;
    return (x > y) - (x < y);
}

/* Sort the keys of the stb_ds array *keys and drop repeats (a pair found by both proxies: a
 * moved large proxy tests every other, moved or not). */
static void sort_unique_keys(uint64_t** keys_in_out) {
    uint64_t* keys = *keys_in_out;
    int count = (int)arrlen(keys);
    if (count > 1) {
        qsort(keys, (size_t)count, sizeof(uint64_t), compare_keys);
    }
    int unique = 0;
    for (int i = 0; i < count; ++i) {
        if (unique == 0 || keys[unique - 1] != keys[i]) {
            keys[unique++] = keys[i];
        }
    }
    arrsetlen(*keys_in_out, unique);
}

/* Look the held-back keys up in the pair map, in the order they were found; the pairs not yet
 * contacts are candidates. The list is bounded: once it holds twice the room max_contacts leaves
 * (plus a little), it is de-duplicated, and if the distinct pairs still exceed the room the
 * gathering stops. A pile of 3,000 circles at one point has 4.5 million pairs; listing them all,
 * and then making them contacts, took more than 4 GB. */
static void flush_pending(const carom_world* world, carom_candidate_list* list) {
    const carom_broad_phase* bp = &world->broad_phase;
    for (int i = 0; i < list->pending_count && !list->overflow; ++i) {
        uint64_t key = list->pending[i];
        if (carom_hash_map_get(&world->pair_map, key) < 0) {
            arrput(list->keys, key);
            if (arrlen(list->keys) > 2 * (ptrdiff_t)bp->candidate_room + 1024) {
                sort_unique_keys(&list->keys);
                list->overflow = arrlen(list->keys) > bp->candidate_room;
            }
        }
    }
    list->pending_count = 0;
}

/* Whether two fat boxes overlap, with one branch instead of four: in a pile most of the boxes a
 * query meets do not, and which side separates them is a coin toss for the branch predictor.
 * The same answer as carom_aabb_overlaps. */
static inline bool fat_boxes_overlap(const carom_aabb* a, const carom_aabb* b) {
    return (b->lower.x <= a->upper.x) & (b->lower.y <= a->upper.y) & (a->lower.x <= b->upper.x) &
           (a->lower.y <= b->upper.y);
}

/* A possible new pair, whose fat boxes the caller found overlapping, if it may collide.
 * Whether it is a contact already is asked later, a batch of keys at a time (flush_pending),
 * their pair-map slots fetched while the query goes on: in a stirred pile those lookups were a
 * tenth of the step, each a cache miss. Reads the world only: workers add to lists of their
 * own. */
static void add_candidate(const carom_world* world, carom_candidate_list* list, int shape,
                          int other) {
    const carom_broad_phase* bp = &world->broad_phase;
    if (list->overflow) {
        return;
    }
    const carom_proxy* a = &bp->proxies[shape];
    const carom_proxy* b = &bp->proxies[other];
    if (!carom_proxies_may_pair(a, b) || carom_joints_forbid_pair(world, a->body, b->body)) {
        return;
    }
    uint64_t key = carom_pair_key(shape, other);
    carom_hash_map_prefetch(&world->pair_map, key);
    list->pending[list->pending_count++] = key;
    if (list->pending_count == CAROM_CANDIDATE_BATCH) {
        flush_pending(world, list);
    }
}

static const carom_grid_cell* find_cell_const(const carom_broad_phase* bp, int x, int y) {
    int index = carom_hash_map_get(&bp->cell_map, cell_key(x, y));
    return index >= 0 ? &bp->cells[index] : NULL;
}

/* Whether cell (x, y), which lists both proxies, is the first cell of the two's shared range
 * (its lowest x and y): a pair sharing several cells is then tested, and its key looked up in the
 * pair map, once instead of once per shared cell. In a stirred pile 4 of 10 lookups were such
 * repeats. */
static inline bool is_first_shared_cell(const carom_proxy* a, const carom_proxy* b, int x, int y) {
    return (x == (a->x0 > b->x0 ? a->x0 : b->x0)) & (y == (a->y0 > b->y0 ? a->y0 : b->y0));
}

static void query_proxy(const carom_world* world, carom_candidate_list* list, int shape) {
    const carom_broad_phase* bp = &world->broad_phase;
    const carom_proxy* proxy = &bp->proxies[shape];
    if (proxy->large_slot >= 0) {
        /* A large proxy that moved is rare (a moving platform): test everything. */
        for (int other = 0; other < (int)arrlen(bp->proxies); ++other) {
            if (other != shape && bp->proxies[other].alive &&
                fat_boxes_overlap(&proxy->fat_aabb, &bp->proxies[other].fat_aabb)) {
                add_candidate(world, list, shape, other);
            }
        }
        return;
    }
    for (int y = proxy->y0; y <= proxy->y1; ++y) {
        for (int x = proxy->x0; x <= proxy->x1; ++x) {
            const carom_grid_cell* cell = find_cell_const(bp, x, y);
            if (cell == NULL) {
                continue;
            }
            /* The tests are combined without branching: each is a coin toss in a stirred pile
             * (most proxies there moved, half of them have a lower id, most boxes met do not
             * overlap), and their mispredictions were most of the walk's time. */
            for (int i = 0; i < (int)arrlen(cell->proxies); ++i) {
                int other = cell->proxies[i];
                const carom_proxy* other_proxy = &bp->proxies[other];
                /* two moved proxies sharing a cell: the higher id does the test; and a pair is
                 * tested in the first of the cells the two share only */
                int wanted = (int)(other != shape) &
                             (int)!(other_proxy->moved & (other < shape)) &
                             (int)is_first_shared_cell(proxy, other_proxy, x, y) &
                             (int)fat_boxes_overlap(&proxy->fat_aabb, &other_proxy->fat_aabb);
                if (wanted) {
                    add_candidate(world, list, shape, other);
                }
            }
        }
    }
    for (int i = 0; i < (int)arrlen(bp->large_proxies); ++i) {
        int other = bp->large_proxies[i];
        if ((!bp->proxies[other].moved || other > shape) &&
            fat_boxes_overlap(&proxy->fat_aabb, &bp->proxies[other].fat_aabb)) {
            add_candidate(world, list, shape, other);
        }
    }
}

/* Whether the proxy's filter lets it pair with any proxy there is: its mask meets a category
 * some proxy has had, or a positive group may join it to another. A net of bodies that collide
 * with nothing (Box2D's joint grid: 10,000 circles whose masks leave out their own category)
 * then skips the cell walk of every moved proxy, a tenth of its step. */
static bool may_pair_with_any(const carom_broad_phase* bp, const carom_proxy* proxy) {
    return proxy->filter.group > 0 || (proxy->filter.mask & bp->categories_seen) != 0;
}

/* Moved proxies per range handed to a worker. */
#define PROXIES_PER_RANGE 64

static void query_range(int begin, int end, int worker, void* context) {
    const carom_world* world = context;
    const carom_broad_phase* bp = &world->broad_phase;
    carom_candidate_list* list = &bp->worker_candidates[worker];
    for (int i = begin; i < end; ++i) {
        int shape = bp->moved[i];
        if (bp->proxies[shape].alive && may_pair_with_any(bp, &bp->proxies[shape])) {
            query_proxy(world, list, shape);
        }
    }
    flush_pending(world, list);
}

/* The candidate pairs of every moved proxy, sorted and without repeats, in candidate_pairs;
 * candidates_overflow if they are more than candidate_room. The moved proxies are queried on
 * the workers, each into a list of its own; the lists are joined, sorted and de-duplicated, so
 * the set is the same however the proxies were shared out. A list that overflowed stops its
 * gathering early, at a point that depends on the sharing; then the whole gathering is done
 * again on one list, so that the count the refused step reports is the one-thread count. */
static void gather_candidates(carom_world* world) {
    carom_broad_phase* bp = &world->broad_phase;
    int workers = world->tasks.worker_count;
    while ((int)arrlen(bp->worker_candidates) < workers) {
        carom_candidate_list blank;
        memset(&blank, 0, sizeof(blank));
        arrput(bp->worker_candidates, blank);
    }
    for (int w = 0; w < workers; ++w) {
        arrsetlen(bp->worker_candidates[w].keys, 0);
        bp->worker_candidates[w].overflow = false;
        bp->worker_candidates[w].pending_count = 0;
    }
    int moved = (int)arrlen(bp->moved);
    carom_parallel_for(&world->tasks, query_range, moved, PROXIES_PER_RANGE, world);
    bool overflow = false;
    for (int w = 0; w < workers; ++w) {
        overflow |= bp->worker_candidates[w].overflow;
    }
    if (overflow && workers > 1) {
        arrsetlen(bp->worker_candidates[0].keys, 0);
        bp->worker_candidates[0].overflow = false;
        bp->worker_candidates[0].pending_count = 0;
        query_range(0, moved, 0, world);
        workers = 1;
    }
    arrsetlen(bp->candidate_pairs, 0);
    bp->candidates_overflow = false;
    for (int w = 0; w < workers; ++w) {
        const carom_candidate_list* list = &bp->worker_candidates[w];
        int count = (int)arrlen(list->keys);
        if (count > 0) {
            memcpy(arraddnptr(bp->candidate_pairs, count), list->keys,
                   sizeof(uint64_t) * (size_t)count);
        }
        bp->candidates_overflow |= list->overflow;
    }
    sort_unique_keys(&bp->candidate_pairs);
}

static int compare_ints(const void* a, const void* b) {
    int x = *(const int*)a;
    int y = *(const int*)b;
    return (x > y) - (x < y);
}

/* A proxy the query wants: its fat box overlaps, and it is not a dynamic body's when only
 * static and kinematic ones are asked for. */
static inline bool query_wants(const carom_proxy* proxy, carom_aabb box, bool fixed_only) {
    return (!fixed_only || proxy->body_type != CAROM_BODY_DYNAMIC) &&
           carom_aabb_overlaps(proxy->fat_aabb, box);
}

static void query_box(carom_broad_phase* bp, carom_aabb box, bool fixed_only, int** out) {
    arrsetlen(*out, 0);
    if (bp->cell_size == 0.0) {
        /* before the first pair update the grid has no cell size and nothing is placed: test
         * every live proxy, so queries answer as of the shapes' creation (carom.h), in the same
         * index order the grid's answer is sorted into */
        for (int i = 0; i < (int)arrlen(bp->proxies); ++i) {
            if (bp->proxies[i].alive && query_wants(&bp->proxies[i], box, fixed_only)) {
                arrput(*out, i);
            }
        }
        return;
    }
    int x0 = grid_coordinate(bp, box.lower.x);
    int y0 = grid_coordinate(bp, box.lower.y);
    int x1 = grid_coordinate(bp, box.upper.x);
    int y1 = grid_coordinate(bp, box.upper.y);
    if (((double)x1 - x0 + 1.0) * ((double)y1 - y0 + 1.0) > (double)bp->cell_map.count) {
        /* a box wider than the occupied grid: test every placed proxy instead. Both ways
         * find every live proxy whose fat box overlaps (each is listed in the cells of its
         * current box), so the answer does not depend on which cells the grid has made. */
        for (int i = 0; i < (int)arrlen(bp->proxies); ++i) {
            if (bp->proxies[i].placed && query_wants(&bp->proxies[i], box, fixed_only)) {
                arrput(*out, i);
            }
        }
        return;
    }
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            carom_grid_cell* cell = find_cell(bp, x, y);
            if (cell != NULL && fixed_only && cell->fixed_count == 0) {
                continue; /* only dynamic bodies' shapes here: most cells of a pile */
            }
            for (int i = 0; cell != NULL && i < (int)arrlen(cell->proxies); ++i) {
                if (query_wants(&bp->proxies[cell->proxies[i]], box, fixed_only)) {
                    arrput(*out, cell->proxies[i]);
                }
            }
        }
    }
    for (int i = 0; i < (int)arrlen(bp->large_proxies); ++i) {
        if (query_wants(&bp->proxies[bp->large_proxies[i]], box, fixed_only)) {
            arrput(*out, bp->large_proxies[i]);
        }
    }
    int count = (int)arrlen(*out);
    if (count > 1) {
        qsort(*out, (size_t)count, sizeof(int), compare_ints);
    }
    int unique = 0;
    for (int i = 0; i < count; ++i) {
        if (unique == 0 || (*out)[unique - 1] != (*out)[i]) {
            (*out)[unique++] = (*out)[i];
        }
    }
    arrsetlen(*out, unique);
}

void carom_broad_phase_query(carom_broad_phase* bp, carom_aabb box, int** out) {
    query_box(bp, box, false, out);
}

void carom_broad_phase_query_fixed(carom_broad_phase* bp, carom_aabb box, int** out) {
    query_box(bp, box, true, out);
}

/* The world's custom filter (carom_world_set_custom_filter) asked about each new pair, in
 * ascending pair-key order, with the world locked as for any callback in a step; the pairs it
 * refuses are dropped. */
static void apply_custom_filter(carom_world* world) {
    carom_broad_phase* bp = &world->broad_phase;
    if (world->custom_filter == NULL || bp->candidates_overflow) {
        return;
    }
    world->locked_by = "inside a custom filter callback; do it after carom_world_step returns";
    int kept = 0;
    for (int i = 0; i < (int)arrlen(bp->candidate_pairs); ++i) {
        uint64_t key = bp->candidate_pairs[i];
        const carom_shape* a = &world->shapes[carom_pair_key_low(key)];
        const carom_shape* b = &world->shapes[carom_pair_key_high(key)];
        if (world->custom_filter(carom_make_shape_id(world, a), carom_make_shape_id(world, b),
                                 world->custom_filter_context)) {
            bp->candidate_pairs[kept++] = key;
        }
    }
    arrsetlen(bp->candidate_pairs, kept);
    world->locked_by = NULL;
}

bool carom_broad_phase_update_pairs(carom_world* world, int* new_pairs) {
    carom_broad_phase* bp = &world->broad_phase;
    *new_pairs = 0;
    if (arrlen(bp->moved) == 0) {
        return true;
    }
    if (bp->cell_size == 0.0) {
        bp->cell_size = choose_cell_size(bp);
        bp->inv_cell_size = 1.0 / bp->cell_size;
    }
    /* Place the proxies moved before the cell size was chosen, or restored (the others are
     * placed already: replace() leaves a proxy listed in the right cells as it is, but finding
     * that out for each of the rain's 16,000 falling balls was 1 % of its step). */
    if (bp->placing_pending) {
        for (int i = 0; i < (int)arrlen(bp->moved); ++i) {
            int shape = bp->moved[i];
            if (bp->proxies[shape].alive) {
                replace(bp, shape);
            }
        }
        bp->placing_pending = false;
    }
    bp->candidate_room = world->def.max_contacts - carom_id_pool_count(&world->contact_pool);
    gather_candidates(world);
    apply_custom_filter(world);
    int count = (int)arrlen(bp->candidate_pairs);
    *new_pairs = count;
    if (bp->candidates_overflow || count > bp->candidate_room) {
        return false; /* the moved proxies stay listed: the next update finds the pairs again */
    }
    for (int i = 0; i < (int)arrlen(bp->moved); ++i) {
        bp->proxies[bp->moved[i]].moved = false;
    }
    arrsetlen(bp->moved, 0);
    carom_create_contacts(world, bp->candidate_pairs, count);
    return true;
}

void carom_broad_phase_restore_cell_size(carom_broad_phase* bp, double cell_size) {
    arrsetlen(bp->moved, 0); /* restore_proxy lists the moved proxies again */
    bp->placing_pending = true;
    if (cell_size == bp->cell_size) {
        return;
    }
    for (int i = 0; i < (int)arrlen(bp->proxies); ++i) {
        unplace(bp, i);
    }
    bp->cell_size = cell_size;
    bp->inv_cell_size = cell_size > 0.0 ? 1.0 / cell_size : 0.0;
}

void carom_broad_phase_restore_proxy(carom_broad_phase* bp, int shape, const carom_aabb* box,
                                     bool moved) {
    carom_proxy* proxy = &bp->proxies[shape];
    bp->fixed_revision += 1; /* its type may have been restored too */
    bp->placing_pending = true;
    proxy->moved = moved;
    if (moved) {
        arrput(bp->moved, shape);
    }
    /* A placed proxy is listed in the cells of its box, so the same box needs nothing more. */
    if (proxy->placed && memcmp(&proxy->fat_aabb, box, sizeof(*box)) == 0) {
        return;
    }
    carom_aabb fat_aabb = *box;
    proxy->fat_aabb = fat_aabb;
    if (bp->cell_size == 0.0) {
        unplace(bp, shape); /* nothing is placed before the first pair update */
        return;
    }
    int x0 = grid_coordinate(bp, fat_aabb.lower.x);
    int y0 = grid_coordinate(bp, fat_aabb.lower.y);
    int x1 = grid_coordinate(bp, fat_aabb.upper.x);
    int y1 = grid_coordinate(bp, fat_aabb.upper.y);
    double cells = ((double)x1 - x0 + 1.0) * ((double)y1 - y0 + 1.0);
    bool listed_right = x0 == proxy->x0 && y0 == proxy->y0 && x1 == proxy->x1 &&
                        y1 == proxy->y1 && counted_as_its_type(proxy);
    bool stays = proxy->placed && (proxy->large_slot >= 0 ? cells > CAROM_LARGE_PROXY_CELLS
                                                          : listed_right);
    if (!stays) {
        unplace(bp, shape);
    }
    proxy->x0 = x0;
    proxy->y0 = y0;
    proxy->x1 = x1;
    proxy->y1 = y1;
    if (!stays) {
        place(bp, shape);
    }
}
