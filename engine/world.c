/* World lifecycle, the registry of worlds, settings, and the step.
 *
 * Worlds are reached through a fixed table of slots, so a world id is two small integers and a
 * destroyed world's id is recognised by its slot generation. Creating and destroying worlds takes
 * a spin lock over the table; resolving an id does not, so that every API call stays cheap, but
 * it reads the slot through atomics ordered against the writers (see world_slot): an id can be
 * resolved on one thread while another creates or destroys worlds.
 *
 * A slot's generation is 16 bits. Rather than wrap, which would make the ids of the slot's
 * first worlds valid again, a slot is retired once a world with generation UINT16_MAX has been
 * destroyed in it: a process can create CAROM_MAX_WORLDS * 65,535 worlds (8,388,480) over its
 * life, at most CAROM_MAX_WORLDS at once. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

/* A creator stores the generation, then publishes the world with a release store; a reader
 * loads the world with acquire, then the generation. So a reader that finds the new world also
 * finds its generation, and a stale id never resolves to the world that took its slot (with the
 * old stores, world first and plain, it could for an instant). */
typedef struct world_slot {
    _Atomic(carom_world*) world; /* NULL when free */
    _Atomic uint16_t generation; /* of the slot's last world; 0: never used */
} world_slot;

/* The last generation a slot hands out; once that world is destroyed the slot stays free. */
#define RETIRED_GENERATION UINT16_MAX

static world_slot world_slots[CAROM_MAX_WORLDS];
static atomic_flag registry_lock = ATOMIC_FLAG_INIT;

static void lock_registry(void) {
    while (atomic_flag_test_and_set_explicit(&registry_lock, memory_order_acquire)) {
    }
}

static void unlock_registry(void) { atomic_flag_clear_explicit(&registry_lock, memory_order_release); }

carom_world* carom_get_world_from_parts(uint16_t world0, uint16_t world_generation) {
    if (world0 >= CAROM_MAX_WORLDS) {
        return NULL;
    }
    world_slot* slot = &world_slots[world0];
    carom_world* world = atomic_load_explicit(&slot->world, memory_order_acquire);
    if (world == NULL ||
        atomic_load_explicit(&slot->generation, memory_order_relaxed) != world_generation) {
        return NULL;
    }
    return world;
}

carom_world* carom_get_world_checked(carom_world_id id) {
    carom_world* world = NULL;
    if (id.index1 != 0) {
        world = carom_get_world_from_parts((uint16_t)(id.index1 - 1), id.generation);
    }
    if (world == NULL) {
        carom_fail(CAROM_ERROR_INVALID_ID,
                   "world id {%u, %u} is null or its world was destroyed", id.index1,
                   id.generation);
    }
    return world;
}

carom_status carom_check_unlocked(const carom_world* world, const char* action) {
    if (world->locked) {
        const char* holder = world->locked_by != NULL
                                 ? world->locked_by
                                 : "during a step; do it after carom_world_step returns";
        return carom_fail(CAROM_ERROR_WORLD_LOCKED, "cannot %s %s", action, holder);
    }
    return CAROM_OK;
}

void carom_lock_world(carom_world* world, const char* holder) {
    CAROM_ASSERT(!world->locked);
    world->locked = true;
    world->locked_by = holder;
}

void carom_unlock_world(carom_world* world) {
    world->locked = false;
    world->locked_by = NULL;
}

/* The threads part of a world def: a worker count in range, and both callbacks or neither. */
static carom_status check_threads(const carom_world_def* def) {
    if (def->worker_count < 1 || def->worker_count > CAROM_MAX_WORKERS) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "world worker_count is %d: it must be between 1 and %d",
                          def->worker_count, CAROM_MAX_WORKERS);
    }
    if ((def->enqueue_task == NULL) != (def->finish_task == NULL)) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT,
                          "world def has %s but no %s: give both task callbacks, or neither to "
                          "let carom run its own threads",
                          def->enqueue_task != NULL ? "enqueue_task" : "finish_task",
                          def->enqueue_task != NULL ? "finish_task" : "enqueue_task");
    }
    return CAROM_OK;
}

carom_status carom_check_world_def(const carom_world_def* def) {
    if (def == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "world def is NULL");
    }
    if (def->internal_cookie != CAROM_DEF_COOKIE) {
        return carom_fail(CAROM_ERROR_INVALID_DEF,
                          "world def was not made by carom_default_world_def(): start from it "
                          "and change the fields you need");
    }
    carom_status status = carom_check_finite_vec2(def->gravity.x, def->gravity.y, "world gravity");
    if (status == CAROM_OK && (def->substeps < 1 || def->substeps > 64)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "world substeps is %d: it must be between 1 and 64", def->substeps);
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->cell_size, "world cell_size");
    }
    if (status == CAROM_OK && def->cell_size != 0.0 && def->cell_size < CAROM_MIN_CELL_SIZE) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "world cell_size is %g m: it must be 0 (chosen by the engine) or at "
                            "least %g m",
                            def->cell_size, CAROM_MIN_CELL_SIZE);
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->restitution_threshold,
                                          "world restitution_threshold");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->contact_hertz, "world contact_hertz");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->contact_damping_ratio,
                                          "world contact_damping_ratio");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->contact_push_max_velocity,
                                      "world contact_push_max_velocity");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->contact_slop, "world contact_slop");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->speculative_distance,
                                          "world speculative_distance");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->sleep_linear_threshold,
                                          "world sleep_linear_threshold");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->sleep_angular_threshold,
                                          "world sleep_angular_threshold");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->time_to_sleep, "world time_to_sleep");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->contact_recycle_distance,
                                          "world contact_recycle_distance");
    }
    if (status == CAROM_OK) {
        status = carom_check_positive(def->joint_hertz, "world joint_hertz");
    }
    if (status == CAROM_OK) {
        status = carom_check_non_negative(def->joint_damping_ratio, "world joint_damping_ratio");
    }
    if (status == CAROM_OK && def->max_contacts < 1) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE, "world max_contacts is %d: it must be >= 1",
                            def->max_contacts);
    }
    if (status == CAROM_OK) {
        status = check_threads(def);
    }
    return status;
}

carom_world_id carom_create_world(const carom_world_def* def) {
    if (carom_check_world_def(def) != CAROM_OK) {
        return carom_null_world_id;
    }
    carom_task_system tasks;
    if (carom_task_system_init(&tasks, def) != CAROM_OK) {
        return carom_null_world_id;
    }
    lock_registry();
    int free_slot = -1;
    int retired = 0;
    for (int i = 0; i < CAROM_MAX_WORLDS && free_slot < 0; ++i) {
        world_slot* slot = &world_slots[i];
        if (atomic_load_explicit(&slot->world, memory_order_relaxed) != NULL) {
            continue;
        }
        if (atomic_load_explicit(&slot->generation, memory_order_relaxed) == RETIRED_GENERATION) {
            retired += 1;
        } else {
            free_slot = i;
        }
    }
    if (free_slot < 0) {
        unlock_registry();
        if (retired > 0) {
            carom_fail(CAROM_ERROR_TOO_MANY_WORLDS,
                       "%d worlds exist and %d world slots are retired: each slot serves %d "
                       "worlds, so that no world id is ever reused; destroy a world, or create "
                       "fewer over the life of the process",
                       CAROM_MAX_WORLDS - retired, retired, RETIRED_GENERATION);
        } else {
            carom_fail(CAROM_ERROR_TOO_MANY_WORLDS,
                       "%d worlds exist already: destroy one before creating another",
                       CAROM_MAX_WORLDS);
        }
        carom_task_system_destroy(&tasks);
        return carom_null_world_id;
    }
    world_slot* slot = &world_slots[free_slot];
    carom_world* world = carom_alloc(sizeof(carom_world));
    memset(world, 0, sizeof(*world));
    world->index = (uint16_t)free_slot;
    world->generation =
        (uint16_t)(atomic_load_explicit(&slot->generation, memory_order_relaxed) + 1);
    world->def = *def;
    world->tasks = tasks;
    world->scene_revision = 1;
    world->material_revision = 1;
    world->awake_revision = 1;
    carom_broad_phase_init(&world->broad_phase, def->cell_size);
    atomic_store_explicit(&slot->generation, world->generation, memory_order_relaxed);
    atomic_store_explicit(&slot->world, world, memory_order_release);
    unlock_registry();
    carom_world_id id = {(uint16_t)(free_slot + 1), world->generation};
    return id;
}

carom_status carom_destroy_world(carom_world_id id) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "destroy the world");
    if (status != CAROM_OK) {
        return status;
    }
    carom_vehicles_destroy(world);
    carom_joints_destroy(world);
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        if (world->bodies[i].id >= 0) {
            carom_destroy_body_internal(world, &world->bodies[i]);
        }
    }
    arrfree(world->bodies);
    arrfree(world->shapes);
    arrfree(world->contacts);
    carom_hash_map_destroy(&world->pair_map);
    arrfree(world->contacts_to_destroy);
    arrfree(world->created_contacts);
    arrfree(world->contact_outcomes);
    arrfree(world->contact_pressing);
    arrfree(world->contact_notes);
    arrfree(world->merge_places);
    arrfree(world->pushed_bodies);
    arrfree(world->touching_contacts);
    arrfree(world->touching_notes);
    arrfree(world->awake_bodies);
    arrfree(world->awake_contacts);
    arrfree(world->contact_changed);
    arrfree(world->awake_contacts_scratch);
    arrfree(world->move_flags);
    arrfree(world->rest_flags);
    arrfree(world->merge_blocks);
    arrfree(world->select_flags);
    arrfree(world->select_blocks);
    arrfree(world->body_contacts);
    arrfree(world->snapshot_scratch);
    carom_continuous_destroy(&world->continuous);
    arrfree(world->query_shapes);
    arrfree(world->ray_hits);
    arrfree(world->begin_events);
    arrfree(world->end_events);
    arrfree(world->hit_events);
    arrfree(world->sensor_begin_events);
    arrfree(world->sensor_end_events);
    arrfree(world->body_move_events);
    carom_id_pool_destroy(&world->body_pool);
    carom_id_pool_destroy(&world->shape_pool);
    carom_id_pool_destroy(&world->contact_pool);
    carom_broad_phase_destroy(&world->broad_phase);
    carom_solver_destroy(&world->solver);
    carom_sleep_destroy(world);
    carom_snapshot_destroy(world);
    carom_task_system_destroy(&world->tasks);
    lock_registry();
    atomic_store_explicit(&world_slots[world->index].world, NULL, memory_order_release);
    unlock_registry();
    carom_free(world);
    return CAROM_OK;
}

int carom_world_is_valid(carom_world_id id) {
    return id.index1 != 0 &&
           carom_get_world_from_parts((uint16_t)(id.index1 - 1), id.generation) != NULL;
}

static bool visited_awake(const carom_body* body) {
    if (body->disabled) {
        return false;
    }
    return body->type == CAROM_BODY_KINEMATIC || (body->type == CAROM_BODY_DYNAMIC && !body->asleep);
}

static bool body_is_visited(int i, const void* context) {
    const carom_world* world = context;
    return world->bodies[i].id >= 0 && visited_awake(&world->bodies[i]);
}

static bool contact_is_visited(int i, const void* context) {
    const carom_world* world = context;
    const carom_contact* contact = &world->contacts[i];
    return contact->id >= 0 && (visited_awake(&world->bodies[contact->edges[0].body]) ||
                                visited_awake(&world->bodies[contact->edges[1].body]));
}

void carom_mark_contact_changed(carom_world* world, int contact_id, unsigned char change) {
    int length = (int)arrlen(world->contact_changed);
    if (contact_id >= length) {
        int wanted = (contact_id + 8) & ~7;
        arrsetlen(world->contact_changed, wanted);
        memset(world->contact_changed + length, 0, (size_t)(wanted - length));
    }
    world->changed_contact_count += world->contact_changed[contact_id] == 0;
    world->contact_changed[contact_id] = change;
}

/* The first place from `from` on in the ascending list whose id is not below `id`: strides
 * doubling from `from`, then bisection within the last stride. The changed ids are spread
 * through the list, so the run before the next one is short and found in a few probes. */
static int first_not_below(const int* list, int from, int count, int id) {
    int low = from;
    int stride = 1;
    while (low + stride < count && list[low + stride - 1] < id) {
        low += stride;
        stride *= 2;
    }
    int high = low + stride < count ? low + stride : count;
    while (low < high) {
        int middle = low + (high - low) / 2;
        if (list[middle] < id) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low;
}

/* Copy count ids from from[from_index..] to to[to_index..]. The pointers are offset only when
 * there is something to copy: an empty list is a null pointer, and null + 0 is undefined
 * behaviour (clang's UBSan stops on it). */
static int copy_ids(int* to, int to_index, const int* from, int from_index, int count) {
    if (count > 0) {
        memcpy(to + to_index, from + from_index, sizeof(int) * (size_t)count);
    }
    return count;
}

/* The awake contact list after contacts were only made and destroyed, the bodies' states as
 * they were: a contact not marked changed keeps its place or its absence, since what decided it
 * (its bodies' states) is unchanged, and each changed one is in the list if it was created last
 * and is visited now. The marks are walked in id order (eight at a time: most are clear), which
 * keeps the list ascending; the old list's runs between two changed ids are found by a doubling
 * search and copied whole (a step changes a few contacts of tens of thousands).
 *
 * On the workers, over blocks of ids of a fixed size (so the list is the one a single pass
 * makes, for any worker count): each block decides its changed contacts, writing the verdict
 * into their marks, and counts its part of the new list; the counts become offsets in block
 * order; each block writes its part and clears its marks. Each block's part of the old list is
 * the run of ids in its range, found by search (the last block's run goes to the list's end:
 * a contact never marked may lie past the marks). */

/* Contact ids per block (a multiple of 8: the marks are read eight at a time). */
#define MERGE_BLOCK 8192

/* A changed contact's mark once its block decided it: out of the list, or in it (values past
 * the marks' own, CAROM_CONTACT_CREATED and CAROM_CONTACT_DESTROYED, 1 and 2). */
#define MERGE_OUT 3
#define MERGE_IN 4

typedef struct merge_task {
    carom_world* world;
    const int* old_list;
    int old_count;
    int length; /* of the marks */
    int blocks;
    int* merged;
} merge_task;

/* The block's run of the old list: [*first, *end). */
static void old_run(const merge_task* task, int block, int* first, int* end) {
    *first = first_not_below(task->old_list, 0, task->old_count, block * MERGE_BLOCK);
    *end = block == task->blocks - 1
               ? task->old_count
               : first_not_below(task->old_list, *first, task->old_count,
                                 (block + 1) * MERGE_BLOCK);
}

/* The first id in [id, last) whose mark is set, or last: clear marks are skipped eight at a time
 * from each multiple of 8 (last and the marks' length are multiples of 8). */
static int next_changed(const unsigned char* changed, int id, int last) {
    while (id < last) {
        if ((id & 7) == 0) {
            uint64_t eight;
            memcpy(&eight, changed + id, sizeof(eight));
            if (eight == 0) {
                id += 8;
                continue;
            }
        }
        if (changed[id]) {
            return id;
        }
        ++id;
    }
    return last;
}

static void decide_changes(int begin, int end, int worker, void* context) {
    (void)worker;
    merge_task* task = context;
    unsigned char* changed = task->world->contact_changed;
    for (int block = begin; block < end; ++block) {
        int o;
        int run_end;
        old_run(task, block, &o, &run_end);
        int count = run_end - o;
        int last = carom_block_end(block, MERGE_BLOCK, task->length);
        for (int id = next_changed(changed, block * MERGE_BLOCK, last); id < last;
             id = next_changed(changed, id + 1, last)) {
            o = first_not_below(task->old_list, o, run_end, id);
            if (o < run_end && task->old_list[o] == id) {
                ++o; /* decided again: */
                --count;
            }
            /* a destroyed one is out without reading it (a cache miss: long untouched) */
            bool in = changed[id] == CAROM_CONTACT_CREATED && contact_is_visited(id, task->world);
            changed[id] = in ? MERGE_IN : MERGE_OUT;
            count += in;
        }
        task->world->merge_blocks[block] = count;
    }
}

static void write_merged(int begin, int end, int worker, void* context) {
    (void)worker;
    merge_task* task = context;
    unsigned char* changed = task->world->contact_changed;
    const int* old_list = task->old_list;
    for (int block = begin; block < end; ++block) {
        int o;
        int run_end;
        old_run(task, block, &o, &run_end);
        int* merged = task->merged;
        int n = task->world->merge_blocks[block];
        int last = carom_block_end(block, MERGE_BLOCK, task->length);
        for (int id = next_changed(changed, block * MERGE_BLOCK, last); id < last;
             id = next_changed(changed, id + 1, last)) {
            int before = first_not_below(old_list, o, run_end, id);
            n += copy_ids(merged, n, old_list, o, before - o);
            o = before + (before < run_end && old_list[before] == id);
            if (changed[id] == MERGE_IN) {
                merged[n++] = id;
            }
            changed[id] = 0;
        }
        copy_ids(merged, n, old_list, o, run_end - o);
    }
}

static void merge_changed_contacts(carom_world* world) {
    int length = (int)arrlen(world->contact_changed);
    int blocks = (length + MERGE_BLOCK - 1) / MERGE_BLOCK;
    merge_task task = {world, world->awake_contacts, (int)arrlen(world->awake_contacts), length,
                       blocks, NULL};
    arrsetlen(world->merge_blocks, blocks);
    carom_parallel_for(&world->tasks, decide_changes, blocks, 1, &task);
    int total = carom_counts_to_offsets(world->merge_blocks, blocks);
    arrsetlen(world->awake_contacts_scratch, total);
    task.merged = world->awake_contacts_scratch;
    carom_parallel_for(&world->tasks, write_merged, blocks, 1, &task);
    world->awake_contacts_scratch = world->awake_contacts;
    world->awake_contacts = task.merged;
    world->changed_contact_count = 0;
}

/* Both lists are selected on the workers, in id order (carom_parallel_select), unless only
 * contacts changed (merge_changed_contacts). */
void carom_refresh_awake_lists(carom_world* world) {
    if (world->awake_lists_revision == world->awake_revision) {
        if (world->changed_contact_count > 0) {
            merge_changed_contacts(world);
        }
        return;
    }
    carom_parallel_select(&world->tasks, (int)arrlen(world->bodies), body_is_visited, world,
                          &world->awake_bodies, &world->select_flags, &world->select_blocks);
    carom_parallel_select(&world->tasks, (int)arrlen(world->contacts), contact_is_visited, world,
                          &world->awake_contacts, &world->select_flags, &world->select_blocks);
    if (world->changed_contact_count > 0) {
        memset(world->contact_changed, 0, (size_t)arrlen(world->contact_changed));
        world->changed_contact_count = 0;
    }
    world->awake_lists_revision = world->awake_revision;
}

void carom_world_clear_events(carom_world* world) {
    arrsetlen(world->begin_events, 0);
    arrsetlen(world->end_events, 0);
    arrsetlen(world->hit_events, 0);
    arrsetlen(world->sensor_begin_events, 0);
    arrsetlen(world->sensor_end_events, 0);
    arrsetlen(world->body_move_events, 0);
}

/* The first massless dynamic body, for the error message. */
static int find_massless_body(const carom_world* world) {
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        if (world->bodies[i].id >= 0 && world->bodies[i].massless) {
            return i;
        }
    }
    return -1;
}

/* The message for a step refused by the broad phase: more new pairs than max_contacts allows. */
static carom_status refuse_contacts(const carom_world* world, int new_pairs) {
    return carom_fail(CAROM_ERROR_TOO_MANY_CONTACTS,
                      "the step would make %s%d new contacts besides the %d there are, more "
                      "than the world's max_contacts (%d): shapes are piled too densely; spread "
                      "them out or destroy some, or create the world with a larger "
                      "max_contacts. The step was not taken",
                      world->broad_phase.candidates_overflow ? "at least " : "", new_pairs,
                      carom_id_pool_count(&world->contact_pool), world->def.max_contacts);
}

/* The bodies the step's solver moved whose pose changed or that fell asleep report a move, in
 * the solver's order (ascending id), with their poses after continuous collision and sleep.
 * The solver's finalization (solver.c's finalize_bodies) wrote every state's event and whether
 * its pose changed, reading the body it was writing anyway; what the stages after it changed is
 * mended here: the bodies continuous collision moved (its reposes: their start is where the
 * stage found them, their end where it left them) and, in a step whose sleep stage changed the
 * awake set, the bodies that fell asleep. Then the events of the states that report nothing are
 * dropped (none, where every body moved). */
static void mend_reposed_moves(carom_world* world) {
    const carom_continuous_scratch* scratch = &world->continuous;
    if (!scratch->reposes_valid) {
        return;
    }
    for (int r = 0; r < (int)arrlen(scratch->reposes); ++r) {
        const carom_continuous_repose* repose = &scratch->reposes[r];
        const carom_body* body = &world->bodies[world->solver.state_bodies[repose->state]];
        world->body_move_events[repose->state].transform = body->transform;
        world->move_flags[repose->state] = carom_body_pose_changed(
            body, repose->start_center, repose->start_rotation);
    }
}

static void mend_sleeping_moves(carom_world* world) {
    for (int k = 0; k < world->solver.moving_count; ++k) {
        if (world->bodies[world->solver.state_bodies[k]].asleep) {
            world->body_move_events[k].fell_asleep = 1;
            world->move_flags[k] = 1;
        }
    }
}

static void record_body_moves(carom_world* world, uint64_t awake_revision_before_sleep) {
    mend_reposed_moves(world);
    if (world->awake_revision != awake_revision_before_sleep) {
        mend_sleeping_moves(world);
    }
    int count = world->solver.moving_count;
    int kept = 0;
    while (kept < count && world->move_flags[kept]) {
        kept += 1; /* in place already */
    }
    for (int k = kept + 1; k < count; ++k) {
        if (world->move_flags[k]) {
            world->body_move_events[kept++] = world->body_move_events[k];
        }
    }
    arrsetlen(world->body_move_events, kept);
}

carom_status carom_world_step(carom_world_id id, double dt) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "step the world");
    if (status == CAROM_OK) {
        status = carom_check_positive(dt, "step dt");
    }
    if (status == CAROM_OK && world->massless_dynamic_count > 0) {
        status = carom_fail(CAROM_ERROR_NO_MASS,
                            "dynamic body %d has no mass: give one of its shapes a density > 0 "
                            "and a non-zero area, or make it static or kinematic",
                            find_massless_body(world));
    }
    if (status != CAROM_OK) {
        return status;
    }
    carom_lock_world(world, NULL);
    /* 1. broad phase: new pairs of shapes whose fattened boxes began to overlap; none made, and
     *    the step refused, if they would exceed max_contacts */
    int new_pairs = 0;
    if (!carom_broad_phase_update_pairs(world, &new_pairs)) {
        carom_unlock_world(world);
        return refuse_contacts(world, new_pairs);
    }
    carom_world_clear_events(world);
    /* 2. narrow phase: manifolds by separating axes; drop pairs whose boxes parted */
    carom_narrow_phase_collide(world, dt);
    /* 2b. vehicles: tyre, drive, brake and drag forces at the wheels, for the solver */
    carom_vehicles_step(world, dt);
    /* 3. solver: gravity, contacts, restitution, positions, new bounding boxes, rest timers */
    carom_solver_step(world, dt);
    /* 4. continuous: fast bodies swept back to their first impact instead of through walls */
    carom_continuous_step(world);
    /* 5. sleep: islands that have rested long enough stop being simulated */
    uint64_t awake_revision = world->awake_revision;
    carom_sleep_step(world);
    record_body_moves(world, awake_revision);
    world->step_count += 1;
    carom_unlock_world(world);
    return CAROM_OK;
}

carom_status carom_world_set_gravity(carom_world_id id, carom_vec2 gravity) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set gravity");
    if (status == CAROM_OK) {
        status = carom_check_finite_vec2(gravity.x, gravity.y, "world gravity");
    }
    if (status == CAROM_OK) {
        world->def.gravity = gravity;
    }
    return status;
}

carom_vec2 carom_world_get_gravity(carom_world_id id) {
    carom_world* world = carom_get_world_checked(id);
    return world != NULL ? world->def.gravity : carom_v2(0.0, 0.0);
}

carom_status carom_world_set_substeps(carom_world_id id, int substeps) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set substeps");
    if (status == CAROM_OK && (substeps < 1 || substeps > 64)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "world substeps is %d: it must be between 1 and 64", substeps);
    }
    if (status == CAROM_OK) {
        world->def.substeps = substeps;
    }
    return status;
}

int carom_world_get_substeps(carom_world_id id) {
    carom_world* world = carom_get_world_checked(id);
    return world != NULL ? world->def.substeps : 0;
}

double carom_world_get_cell_size(carom_world_id id) {
    carom_world* world = carom_get_world_checked(id);
    return world != NULL ? world->broad_phase.cell_size : 0.0;
}

carom_world_counters carom_world_get_counters(carom_world_id id) {
    carom_world_counters counters = {0, 0, 0, 0, 0, 0, 0};
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return counters;
    }
    counters.body_count = carom_id_pool_count(&world->body_pool);
    counters.shape_count = carom_id_pool_count(&world->shape_pool);
    counters.contact_count = carom_id_pool_count(&world->contact_pool);
    for (int i = 0; i < (int)arrlen(world->contacts); ++i) {
        if (world->contacts[i].id >= 0 && world->contacts[i].point_count > 0) {
            counters.touching_count += 1;
        }
    }
    counters.step_count = world->step_count;
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        const carom_body* body = &world->bodies[i];
        counters.awake_body_count +=
            body->id >= 0 && body->type != CAROM_BODY_STATIC && !body->asleep && !body->disabled;
    }
    counters.sleeping_island_count = carom_id_pool_count(&world->island_pool);
    return counters;
}

carom_status carom_world_get_body_ids(carom_world_id id, carom_body_id* ids, int capacity,
                                      int* count) {
    if (count == NULL || (ids == NULL && capacity > 0)) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT,
                          "carom_world_get_body_ids: count is NULL, or ids is NULL with a "
                          "capacity of %d",
                          capacity);
    }
    if (capacity < 0) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "carom_world_get_body_ids: capacity is %d: it must be >= 0", capacity);
    }
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    int live = 0;
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        const carom_body* body = &world->bodies[i];
        if (body->id < 0) {
            continue;
        }
        if (live < capacity) {
            ids[live] = carom_make_body_id(world, body);
        }
        ++live;
    }
    *count = live;
    return CAROM_OK;
}

carom_contact_events carom_world_get_contact_events(carom_world_id id) {
    carom_contact_events events = {NULL, 0, NULL, 0, NULL, 0};
    carom_world* world = carom_get_world_checked(id);
    if (world != NULL) {
        events.begin_events = world->begin_events;
        events.begin_count = (int)arrlen(world->begin_events);
        events.end_events = world->end_events;
        events.end_count = (int)arrlen(world->end_events);
        events.hit_events = world->hit_events;
        events.hit_count = (int)arrlen(world->hit_events);
    }
    return events;
}

carom_status carom_world_set_custom_filter(carom_world_id id, carom_custom_filter_fn* filter,
                                           void* context) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set the custom filter");
    if (status == CAROM_OK) {
        world->custom_filter = filter;
        world->custom_filter_context = context;
    }
    return status;
}

carom_status carom_world_set_pre_solve(carom_world_id id, carom_pre_solve_fn* fn, void* context) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return CAROM_ERROR_INVALID_ID;
    }
    carom_status status = carom_check_unlocked(world, "set the pre-solve callback");
    if (status == CAROM_OK) {
        world->pre_solve = fn;
        world->pre_solve_context = context;
    }
    return status;
}

carom_body_events carom_world_get_body_events(carom_world_id id) {
    carom_body_events events = {NULL, 0};
    carom_world* world = carom_get_world_checked(id);
    if (world != NULL) {
        events.move_events = world->body_move_events;
        events.move_count = (int)arrlen(world->body_move_events);
    }
    return events;
}

carom_sensor_events carom_world_get_sensor_events(carom_world_id id) {
    carom_sensor_events events = {NULL, 0, NULL, 0};
    carom_world* world = carom_get_world_checked(id);
    if (world != NULL) {
        events.begin_events = world->sensor_begin_events;
        events.begin_count = (int)arrlen(world->sensor_begin_events);
        events.end_events = world->sensor_end_events;
        events.end_count = (int)arrlen(world->sensor_end_events);
    }
    return events;
}

/* ---- The state hash (carom_world_hash, carom_bodies_hash) ----
 * The one definition of carom's state hash, for the CLI's --hash, the self-test, the
 * determinism program, the benchmarks and applications' desync checks alike (docs/
 * determinism.md): FNV-1a 64 over seven doubles a body, each fed as its IEEE 754 bits, least
 * significant byte first, so padding and the machine's byte order never enter it. The values are
 * the ones the body getters return. */
#define CAROM_HASH_OFFSET_BASIS UINT64_C(0xcbf29ce484222325)
#define CAROM_HASH_PRIME UINT64_C(0x100000001b3)

static uint64_t hash_double(uint64_t hash, double value) {
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof(bits));
    for (int byte = 0; byte < 8; ++byte) {
        hash = (hash ^ ((bits >> (8 * byte)) & 0xffu)) * CAROM_HASH_PRIME;
    }
    return hash;
}

static uint64_t hash_body_state(uint64_t hash, const carom_body* body) {
    double values[7] = {body->transform.p.x,   body->transform.p.y,     body->transform.q.c,
                        body->transform.q.s,   body->linear_velocity.x, body->linear_velocity.y,
                        body->angular_velocity};
    for (int v = 0; v < 7; ++v) {
        hash = hash_double(hash, values[v]);
    }
    return hash;
}

uint64_t carom_world_hash(carom_world_id id) {
    carom_world* world = carom_get_world_checked(id);
    if (world == NULL) {
        return 0;
    }
    uint64_t hash = CAROM_HASH_OFFSET_BASIS;
    for (int i = 0; i < (int)arrlen(world->bodies); ++i) {
        const carom_body* body = &world->bodies[i];
        if (body->id >= 0) {
            hash = hash_body_state(hash, body);
        }
    }
    return hash;
}

uint64_t carom_bodies_hash(const carom_body_id* bodies, int count) {
    if (count < 0) {
        carom_fail(CAROM_ERROR_OUT_OF_RANGE, "bodies hash: count is %d: it must be >= 0", count);
        return 0;
    }
    if (bodies == NULL && count > 0) {
        carom_fail(CAROM_ERROR_NULL_ARGUMENT, "bodies hash: the body array is NULL");
        return 0;
    }
    uint64_t hash = CAROM_HASH_OFFSET_BASIS;
    for (int i = 0; i < count; ++i) {
        if (CAROM_IS_NULL(bodies[i])) {
            continue; /* a body the application has dropped from its list */
        }
        const carom_body* body = carom_get_body_checked(bodies[i], NULL, "bodies hash");
        if (body == NULL) {
            return 0;
        }
        hash = hash_body_state(hash, body);
    }
    return hash;
}

carom_status carom_make_fixed_stepper(double dt, int max_steps_per_frame,
                                      carom_fixed_stepper* out) {
    if (out == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "fixed stepper output pointer is NULL");
    }
    carom_status status = carom_check_positive(dt, "fixed stepper dt");
    if (status == CAROM_OK && max_steps_per_frame < 1) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "fixed stepper max_steps_per_frame is %d: it must be >= 1",
                            max_steps_per_frame);
    }
    if (status == CAROM_OK) {
        out->dt = dt;
        out->accumulator = 0.0;
        out->max_steps_per_frame = max_steps_per_frame;
        out->dropped_time = 0.0;
    }
    return status;
}

/* A stepper as carom_make_fixed_stepper() made it and carom_world_advance() keeps it: a valid dt
 * and step count, and a finite, non-negative accumulator and dropped time (the accumulator is
 * below dt unless a step failed). A NaN accumulator is never >= dt, so the world would silently
 * never step again; a negative one would swallow frames. Either means the struct was filled or
 * changed by hand. */
static carom_status check_stepper(const carom_fixed_stepper* stepper) {
    carom_status status = CAROM_OK;
    if (!(stepper->dt > 0.0 && stepper->dt <= CAROM_MAX_MAGNITUDE &&
          stepper->max_steps_per_frame >= 1)) {
        status = carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                            "fixed stepper has dt %g s and max_steps_per_frame %d: it is not "
                            "initialised; make it with carom_make_fixed_stepper()",
                            stepper->dt, stepper->max_steps_per_frame);
    } else if (!(stepper->accumulator >= 0.0 && isfinite(stepper->accumulator))) {
        status = carom_fail(isfinite(stepper->accumulator) ? CAROM_ERROR_OUT_OF_RANGE
                                                           : CAROM_ERROR_NOT_FINITE,
                            "fixed stepper accumulator is %g s: it must be finite and >= 0; "
                            "only carom_make_fixed_stepper() and carom_world_advance() should "
                            "set it",
                            stepper->accumulator);
    } else if (!(stepper->dropped_time >= 0.0 && isfinite(stepper->dropped_time))) {
        status = carom_fail(isfinite(stepper->dropped_time) ? CAROM_ERROR_OUT_OF_RANGE
                                                            : CAROM_ERROR_NOT_FINITE,
                            "fixed stepper dropped_time is %g s: it must be finite and >= 0; "
                            "reset it to 0 if you want to restart the count",
                            stepper->dropped_time);
    }
    return status;
}

carom_status carom_world_advance(carom_world_id id, carom_fixed_stepper* stepper,
                                 double frame_time, int* steps_taken, double* alpha) {
    if (stepper == NULL) {
        return carom_fail(CAROM_ERROR_NULL_ARGUMENT, "fixed stepper is NULL");
    }
    carom_status status = carom_check_non_negative(frame_time, "frame time");
    if (status == CAROM_OK) {
        status = check_stepper(stepper);
    }
    if (status != CAROM_OK) {
        return status;
    }
    double accumulator = stepper->accumulator + frame_time;
    int steps = 0;
    while (accumulator >= stepper->dt && steps < stepper->max_steps_per_frame) {
        status = carom_world_step(id, stepper->dt);
        if (status != CAROM_OK) {
            break;
        }
        accumulator -= stepper->dt;
        ++steps;
    }
    if (status != CAROM_OK && steps == 0) {
        return status; /* refused before any step: the stepper is left as it was */
    }
    if (status == CAROM_OK && accumulator >= stepper->dt) {
        /* The frame was too long to catch up: drop the whole steps left rather than carry
         * them into the next frame. */
        double rest = fmod(accumulator, stepper->dt);
        stepper->dropped_time += accumulator - rest;
        accumulator = rest;
    }
    stepper->accumulator = accumulator;
    if (steps_taken != NULL) {
        *steps_taken = steps;
    }
    if (alpha != NULL) {
        *alpha = accumulator / stepper->dt;
    }
    return status;
}
