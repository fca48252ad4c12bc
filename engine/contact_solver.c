/* Contact constraints: preparing them in coloured groups of lanes, and reading results back.
 *
 * Each step, the contacts with points become constraints, in contact id order. The constraint
 * graph colours them (constraint_graph.c); each colour is laid out in groups of the kernel's
 * lane width (contact_solver.h), one after the other, so that solving every group in array order
 * is solving colour by colour. The hot loops are the kernels of contact_solver_lanes.h: the
 * passes over the groups, and the fill, which copies each contact into its constraint's lane
 * (the kernels' first warm start of the step works out the effective masses and the block
 * matrix from it, a group at a time). This file does the rest of what runs once per constraint
 * per step, at any width: the collection, colouring and layout, the softness, and the impulses
 * copied back into the contacts for warm starting the next step. */
#include "core.h"

#include "contact_solver.h"
#include "ds.h"
#include "world.h"

#include <stdatomic.h>
#include <string.h>
#include <stdlib.h>

/* ---- Which kernel ------------------------------------------------------------------------- */

/* The default is the widest kernel this machine runs. Until the float contact groups (the
 * contact's constant fields stored as floats, a 4-lane group 10 cache lines instead of 14),
 * worlds of more than 25,000 constraints took 4 lanes, since 8 had measured slower where the
 * passes stream their groups from memory: many_pyramids (about 58,000 constraints) 36.9 against
 * 31.9 ms a step. With the smaller groups 8 lanes are faster there too: alternating runs of
 * bench_carom, CPU time (this project's 2-core AMD EPYC, AVX-512), 8 lanes against 4 took 0.91
 * to 0.93 of the time on many_pyramids, 0.97 on the 16,000-ball rain and 0.89 to 0.95 on the
 * smash. The width never changes a result bit. */
static const carom_contact_kernel* widest_kernel(void) {
#if defined(CAROM_HAVE_LANES8)
    if (__builtin_cpu_supports("avx512f")) {
        return &carom_contact_kernel_lanes8;
    }
#endif
#if defined(CAROM_HAVE_LANES4)
    if (__builtin_cpu_supports("avx2")) {
        return &carom_contact_kernel_lanes4;
    }
#endif
    return &carom_contact_kernel_lanes2;
}

/* NULL: the default. Atomic, because worlds may be stepped on several threads while one of them
 * asks for another width. */
static _Atomic(const carom_contact_kernel*) chosen_kernel = NULL;

const carom_contact_kernel* carom_contact_kernel_chosen(void) {
    const carom_contact_kernel* kernel = atomic_load_explicit(&chosen_kernel, memory_order_relaxed);
    return kernel != NULL ? kernel : widest_kernel();
}

carom_status carom_set_solver_lanes(int lanes) {
    const carom_contact_kernel* kernel = NULL;
    if (lanes == 0) {
        atomic_store_explicit(&chosen_kernel, NULL, memory_order_relaxed);
        return CAROM_OK;
    }
    if (lanes == 1) {
        kernel = &carom_contact_kernel_lanes1;
    } else if (lanes == 2) {
        kernel = &carom_contact_kernel_lanes2;
    }
#if defined(CAROM_HAVE_LANES4)
    else if (lanes == 4 && __builtin_cpu_supports("avx2")) {
        kernel = &carom_contact_kernel_lanes4;
    }
#endif
#if defined(CAROM_HAVE_LANES8)
    else if (lanes == 8 && __builtin_cpu_supports("avx512f")) {
        kernel = &carom_contact_kernel_lanes8;
    }
#endif
    if (kernel == NULL) {
        return carom_fail(CAROM_ERROR_OUT_OF_RANGE,
                          "solver lanes %d: this build on this machine runs 0 (the default), 1, 2"
                          "%s%s",
                          lanes, widest_kernel()->lanes >= 4 ? ", 4" : "",
                          widest_kernel()->lanes >= 8 ? ", 8" : "");
    }
    atomic_store_explicit(&chosen_kernel, kernel, memory_order_relaxed);
    return CAROM_OK;
}

int carom_get_solver_lanes(void) {
    const carom_contact_kernel* kernel = atomic_load_explicit(&chosen_kernel, memory_order_relaxed);
    return (kernel != NULL ? kernel : widest_kernel())->lanes;
}

/* ---- Preparing ---------------------------------------------------------------------------- */

/* The lane of a constraint's slot, at the width this step's groups were laid out for. */
static carom_lane_writer slot_lane(const carom_solver* solver, int slot) {
    return carom_slot_lane(solver, slot, solver->kernel->lanes);
}

static double get(const carom_lane_writer* w, int field) {
    return *carom_contact_field(w->group, w->lanes, field, w->lane);
}

/* ---- Collecting the constraints on the workers ----------------------------------------------
 * Both the collection and the layout below cut their items into blocks of a fixed size, never
 * a share of the workers: each block is worked alone, the blocks' counts are summed on the
 * stepping thread in block order, and each block then writes at its offset. So the result is
 * the one a single pass in index order gives, for any worker count. */

/* Touching contacts, and constraints, per block. */
#define COLLECT_BLOCK 2048
#define LAYOUT_BLOCK 2048

_Static_assert(sizeof(((carom_contact*)0)->points) / sizeof(((carom_contact*)0)->points[0]) <=
                   CAROM_COLLECT_POINTS >> CAROM_COLLECT_POINTS_SHIFT,
               "a contact's point count fits its bits in the collection's flags");

/* First pass, per block of touching contacts: the states of each contact's bodies (the rest
 * state for a body the solver does not move), which of them it may change (dynamic ones; not
 * static, kinematic or sleeping bodies, which are only read), whether its touching is left to
 * the solver, and how many it keeps. Read from the narrow phase's notes (world.h), not from the
 * contacts. */
static void mark_constraints(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_world* world = context;
    carom_solver* solver = &world->solver;
    const int* body_states = solver->body_states;
    const carom_touching_note* notes = world->touching_notes;
    int touching_count = (int)arrlen(world->touching_contacts);
    for (int block = begin; block < end; ++block) {
        int last = carom_block_end(block, COLLECT_BLOCK, touching_count);
        int kept = 0;
        for (int k = block * COLLECT_BLOCK; k < last; ++k) {
            const carom_touching_note* note = &notes[k];
            int a = body_states[note->body_a];
            int b = body_states[note->body_b];
            a = a >= 0 ? a : solver->moving_count;
            b = b >= 0 ? b : solver->moving_count;
            int flags = (solver->masses[a].inv_mass > 0.0 ? CAROM_COLLECT_MOVES_A : 0) |
                        (solver->masses[b].inv_mass > 0.0 ? CAROM_COLLECT_MOVES_B : 0);
            if (flags != 0) { /* else nothing it could move: static, kinematic or asleep */
                flags |= CAROM_COLLECT_KEPT;
                kept += 1;
            }
            flags |= note->points_touch ? 0 : CAROM_COLLECT_SPECULATIVE;
            flags |= note->point_count << CAROM_COLLECT_POINTS_SHIFT;
            flags |= note->recycled ? CAROM_COLLECT_RECYCLED : 0;
            solver->collect_flags[k] = (unsigned char)flags;
            solver->collect_states[2 * k] = a;
            solver->collect_states[2 * k + 1] = b;
        }
        solver->collect_offsets[block] = kept;
    }
}

/* What constraint n's lane needs if the step refreshes its lanes (carom_lane_refresh), and
 * for a refresh of its separations alone, the separations. */
static void note_lane_refresh(carom_solver* solver, int n, int flags,
                              const carom_touching_note* note) {
    if (!(flags & CAROM_COLLECT_RECYCLED)) {
        solver->constraint_refresh[n] = CAROM_REFRESH_NONE;
    } else if (note->bounces || solver->approach_read) {
        solver->constraint_refresh[n] = CAROM_REFRESH_MOTION;
    } else {
        solver->constraint_refresh[n] = CAROM_REFRESH_SEPARATIONS;
        solver->constraint_separations[2 * n] = note->separations[0];
        solver->constraint_separations[2 * n + 1] = note->separations[1];
    }
}

/* Second pass, per block: the kept contacts written as constraints from the block's offset. */
static void write_constraints(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_world* world = context;
    carom_solver* solver = &world->solver;
    int touching_count = (int)arrlen(world->touching_contacts);
    for (int block = begin; block < end; ++block) {
        int last = carom_block_end(block, COLLECT_BLOCK, touching_count);
        int n = solver->collect_offsets[block];
        for (int k = block * COLLECT_BLOCK; k < last; ++k) {
            int flags = solver->collect_flags[k];
            if (!(flags & CAROM_COLLECT_KEPT)) {
                continue;
            }
            int a = solver->collect_states[2 * k];
            int b = solver->collect_states[2 * k + 1];
            /* a destroyed contact on the list would have its impulses stored into a free slot */
            CAROM_ASSERT(world->contacts[world->touching_contacts[k]].id ==
                         world->touching_contacts[k]);
            solver->constraint_contacts[n] = world->touching_contacts[k];
            solver->constraint_points[n] =
                (unsigned char)((flags & CAROM_COLLECT_POINTS) >> CAROM_COLLECT_POINTS_SHIFT);
            note_lane_refresh(solver, n, flags, &world->touching_notes[k]);
            solver->state_a[n] = a;
            solver->state_b[n] = b;
            solver->moving_a[n] = flags & CAROM_COLLECT_MOVES_A ? a : -1;
            solver->moving_b[n] = flags & CAROM_COLLECT_MOVES_B ? b : -1;
            n += 1;
        }
    }
}

/* The contacts that become constraints, in id order (the order of the touching list), with the
 * states of their bodies and the states each may change. The last step's colouring inputs are
 * kept aside (swapped, not copied) to be compared with these. */
static void collect_constraints(carom_world* world) {
    carom_solver* solver = &world->solver;
    CAROM_SWAP_ARRAYS(solver->moving_a, solver->previous_moving_a);
    CAROM_SWAP_ARRAYS(solver->moving_b, solver->previous_moving_b);
    CAROM_SWAP_ARRAYS(solver->constraint_points, solver->previous_points);
    CAROM_SWAP_ARRAYS(solver->constraint_contacts, solver->previous_contacts);
    CAROM_SWAP_ARRAYS(solver->state_a, solver->previous_state_a);
    CAROM_SWAP_ARRAYS(solver->state_b, solver->previous_state_b);
    int touching = (int)arrlen(world->touching_contacts);
    int blocks = (touching + COLLECT_BLOCK - 1) / COLLECT_BLOCK;
    arrsetlen(solver->collect_flags, touching);
    arrsetlen(solver->collect_states, 2 * touching);
    arrsetlen(solver->collect_offsets, blocks);
    carom_parallel_for(&world->tasks, mark_constraints, blocks, 1, world);
    int count = carom_counts_to_offsets(solver->collect_offsets, blocks);
    arrsetlen(solver->constraint_contacts, count);
    arrsetlen(solver->constraint_points, count);
    arrsetlen(solver->constraint_refresh, count);
    arrsetlen(solver->constraint_separations, 2 * (size_t)count);
    arrsetlen(solver->moving_a, count);
    arrsetlen(solver->moving_b, count);
    arrsetlen(solver->state_a, count);
    arrsetlen(solver->state_b, count);
    carom_parallel_for(&world->tasks, write_constraints, blocks, 1, world);
}

/* ---- Laying the colours out on the workers --------------------------------------------------
 * Where each constraint goes: colour after colour; within a colour by region (below), and
 * within a region the one-point constraints first, then the two-point ones, each in index
 * order, so that most groups are all of one kind (the kernels skip a missing second point's
 * work group by group). Within a colour no two constraints share a body, so this order reaches
 * no result. That is a stable sort by a key of colour, region and point count, done as a
 * counting sort over blocks: each block counts its keys, the counts become each block's first
 * place of each key, and each block then places its constraints.
 *
 * The regions are for the workers' caches. A task hands each worker its own run of a colour's
 * groups, in order (task.c), and the per-body passes theirs of the states, in order: so when a
 * colour is laid out by the states its constraints move, each worker mostly moves, colour after
 * colour, the bodies whose states it integrates, and a body's state seldom passes from one
 * core to the other between colours. A constraint's region is that of the lower state it moves:
 * the states cut into LAYOUT_REGIONS runs of equal length. With the colours in constraint
 * order instead, two workers' runs of one colour met the same bodies as the other's in the
 * next: per 100 steps at two workers, 17.7 % of the states a colour's constraints moved in
 * many_pyramids had last been moved by the other worker, 3.4 % with the regions. With one
 * worker every constraint is of region 0. */
#define LAYOUT_REGIONS 8

/* Keys: 2 (c LAYOUT_REGIONS + r) for colour c's one-point constraints of region r, that + 1
 * for its two-point ones, and one for the overflow (index order, whatever the point count). */
#define OVERFLOW_KEY (2 * CAROM_GRAPH_COLORS * LAYOUT_REGIONS)
#define LAYOUT_KEYS (OVERFLOW_KEY + 1)

/* The region of a moving state: state * region_scale / 2^32, with region_scale
 * floor(LAYOUT_REGIONS 2^32 / moving_count), which is below LAYOUT_REGIONS for every state
 * below moving_count (a multiplication where a division per constraint would cost more than
 * the rest of the key; a state is below 2^29 and the scale below 2^35, so it fits 64 bits). */
static uint64_t region_scale(int moving_count) {
    return ((uint64_t)LAYOUT_REGIONS << 32) / (uint64_t)(moving_count > 0 ? moving_count : 1);
}

/* A constraint's region: 0 with one worker (region_scale 0), without reading its states. */
static int layout_region(const carom_solver* solver, int constraint) {
    if (solver->region_scale == 0) {
        return 0;
    }
    /* a kept constraint moves at least one state (mark_constraints); -1 is the other's none */
    uint32_t a = (uint32_t)solver->moving_a[constraint];
    uint32_t b = (uint32_t)solver->moving_b[constraint];
    uint32_t state = a < b ? a : b;
    return (int)((state * solver->region_scale) >> 32);
}

static int layout_key(const carom_solver* solver, int constraint) {
    int color = solver->constraint_colors[constraint];
    if (color == CAROM_OVERFLOW_COLOR) {
        return OVERFLOW_KEY;
    }
    return 2 * (color * LAYOUT_REGIONS + layout_region(solver, constraint)) +
           (solver->constraint_points[constraint] == 2);
}

static void count_keys(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_solver* solver = context;
    int count = (int)arrlen(solver->constraint_contacts);
    for (int block = begin; block < end; ++block) {
        int* counts = solver->layout_places + (size_t)block * LAYOUT_KEYS;
        memset(counts, 0, sizeof(int) * LAYOUT_KEYS);
        int last = carom_block_end(block, LAYOUT_BLOCK, count);
        for (int i = block * LAYOUT_BLOCK; i < last; ++i) {
            counts[layout_key(solver, i)] += 1;
        }
    }
}

/* The slots: group * lanes + lane for a colour's, -1 - index for the overflow's. */
static void place_constraints(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_solver* solver = context;
    int count = (int)arrlen(solver->constraint_contacts);
    for (int block = begin; block < end; ++block) {
        int next[LAYOUT_KEYS];
        memcpy(next, solver->layout_places + (size_t)block * LAYOUT_KEYS, sizeof(next));
        int last = carom_block_end(block, LAYOUT_BLOCK, count);
        for (int i = block * LAYOUT_BLOCK; i < last; ++i) {
            int key = layout_key(solver, i);
            int place = next[key]++;
            solver->constraint_slots[i] = key == OVERFLOW_KEY ? -1 - place : place;
        }
    }
}

/* The colours' sizes (solver->color_start), and each block's first place of each key: a
 * colour's one-point constraints from the colour's first group, its two-point ones after them,
 * the overflow from 0; blocks in order within a key. Returns the coloured groups' count. */
static int key_counts_to_places(carom_solver* solver, int blocks, int lanes) {
    int totals[LAYOUT_KEYS] = {0};
    for (int block = 0; block < blocks; ++block) {
        for (int key = 0; key < LAYOUT_KEYS; ++key) {
            totals[key] += solver->layout_places[(size_t)block * LAYOUT_KEYS + key];
        }
    }
    int next[LAYOUT_KEYS];
    int group = 0;
    int start = 0;
    for (int c = 0; c < CAROM_GRAPH_COLORS; ++c) {
        int colour_count = 0;
        for (int r = 0; r < LAYOUT_REGIONS; ++r) {
            int key = 2 * (c * LAYOUT_REGIONS + r);
            next[key] = group * lanes + colour_count;
            next[key + 1] = next[key] + totals[key];
            colour_count += totals[key] + totals[key + 1];
        }
        solver->color_start[c] = start;
        start += colour_count;
        group += (colour_count + lanes - 1) / lanes;
    }
    solver->color_start[CAROM_OVERFLOW_COLOR] = start;
    solver->color_start[CAROM_OVERFLOW_COLOR + 1] = start + totals[OVERFLOW_KEY];
    next[OVERFLOW_KEY] = 0;
    for (int block = 0; block < blocks; ++block) {
        int* places = solver->layout_places + (size_t)block * LAYOUT_KEYS;
        for (int key = 0; key < LAYOUT_KEYS; ++key) {
            int count = places[key];
            places[key] = next[key];
            next[key] += count;
        }
    }
    return group;
}

/* Every constraint's slot, laid out on the workers, and the colours' sizes; returns the
 * coloured groups' count. */
static int lay_out_constraints(carom_world* world, int lanes) {
    carom_solver* solver = &world->solver;
    int count = (int)arrlen(solver->constraint_contacts);
    int blocks = (count + LAYOUT_BLOCK - 1) / LAYOUT_BLOCK;
    arrsetlen(solver->layout_places, (size_t)blocks * LAYOUT_KEYS);
    /* one worker meets every body anyway: one region, the layout without them */
    solver->region_scale = world->tasks.worker_count > 1 ? region_scale(solver->moving_count) : 0;
    carom_parallel_for(&world->tasks, count_keys, blocks, 1, solver);
    int group_count = key_counts_to_places(solver, blocks, lanes);
    carom_parallel_for(&world->tasks, place_constraints, blocks, 1, solver);
    return group_count;
}

/* Whether the colours and slots of the last step's layout are this step's too. They are a
 * function of the constraints' moving states (moving_a, moving_b: the colouring's input, in
 * order), their point counts and the count of moving states (the layout's keys) and the lane
 * width, and of nothing else: not of which contacts the constraints are, nor of any step
 * before. So when the moving states, the point counts and the width are the same, as in a pile
 * at rest step after step, the colouring and the layout are not made again, and the bits are
 * the same as if they were. (The colours, and so the bits, follow from the moving states
 * alone; the point counts and the regions only order each colour's constraints, for the
 * kernels and the workers' caches, which reaches no bit: so a layout kept while only the count
 * of moving states changed, a body without contacts waking or falling asleep, keeps the last
 * step's regions.) */
static bool layout_unchanged(const carom_solver* solver, int lanes) {
    size_t count = (size_t)arrlen(solver->moving_a);
    if (solver->layout_lanes != lanes || (size_t)arrlen(solver->previous_moving_a) != count) {
        return false;
    }
    return count == 0 || /* memcmp must not be given the null pointer of an empty array */
           (memcmp(solver->moving_a, solver->previous_moving_a, sizeof(int) * count) == 0 &&
            memcmp(solver->moving_b, solver->previous_moving_b, sizeof(int) * count) == 0 &&
            memcmp(solver->constraint_points, solver->previous_points, count) == 0);
}

/* Whether this step's constraints may refresh their lanes rather than fill them
 * (contact_solver_lanes.h): the layout is kept, and the constraints are the last step's
 * contacts, between the same states, whose bodies have the same masses. Then every lane still
 * holds what the last step's fill wrote there and its passes left: the contact's normal, anchors,
 * friction and restitution, the masses, and the impulses, which the store copied into the
 * contact and which only a manifold made again changes there. A constraint whose manifold was
 * recycled instead (CAROM_COLLECT_RECYCLED) changed its separations alone. */
static bool lanes_refreshable(const carom_solver* solver, bool layout_kept) {
    size_t count = (size_t)arrlen(solver->constraint_contacts);
    size_t states = (size_t)solver->moving_count + 1;
    if (!layout_kept || (size_t)arrlen(solver->previous_contacts) != count ||
        (size_t)arrlen(solver->previous_masses) != states) {
        return false;
    }
    return count == 0 ||
           (memcmp(solver->constraint_contacts, solver->previous_contacts, sizeof(int) * count) ==
                0 &&
            memcmp(solver->state_a, solver->previous_state_a, sizeof(int) * count) == 0 &&
            memcmp(solver->state_b, solver->previous_state_b, sizeof(int) * count) == 0 &&
            memcmp(solver->masses, solver->previous_masses, sizeof(carom_state_mass) * states) ==
                0);
}

/* Room for the coloured groups and the overflow's, each starting on a 64-byte boundary, then
 * their cold groups. */
static void allocate_groups(carom_solver* solver, int lanes, int group_count, int overflow_count) {
    size_t group_bytes = carom_contact_group_size(lanes) * (size_t)group_count;
    size_t overflow_bytes = carom_contact_group_size(1) * (size_t)overflow_count;
    size_t cold_bytes = carom_contact_cold_size(lanes) * (size_t)group_count;
    size_t overflow_cold_bytes = carom_contact_cold_size(1) * (size_t)overflow_count;
    unsigned char* aligned = carom_line_aligned(
        &solver->group_memory, group_bytes + overflow_bytes + cold_bytes + overflow_cold_bytes);
    solver->groups = aligned;
    solver->group_count = group_count;
    solver->overflow = aligned + group_bytes;
    solver->overflow_count = overflow_count;
    solver->colds = (double*)(aligned + group_bytes + overflow_bytes);
    solver->overflow_colds = (double*)(aligned + group_bytes + overflow_bytes + cold_bytes);
    arrsetlen(solver->lane_contacts, overflow_count + group_count * lanes);
}

void carom_contact_solver_prepare(carom_world* world, double h, carom_solve_settings* settings) {
    carom_solver* solver = &world->solver;
    /* the lanes name states by their first double in 32 bits (contact_solver.h): the last of
     * CAROM_MAX_BODIES states starts at double 2^31 - 4, and carom_create_body refuses more */
    CAROM_ASSERT(solver->moving_count <= CAROM_MAX_BODIES);
    collect_constraints(world);
    int count = (int)arrlen(solver->constraint_contacts);
    const carom_contact_kernel* kernel = carom_contact_kernel_chosen();
    int lanes = kernel->lanes;
    solver->kernel = kernel;
    int group_count = solver->group_count; /* the kept layout's, if it is kept */
    bool layout_kept = layout_unchanged(solver, lanes);
    solver->refresh_lanes = lanes_refreshable(solver, layout_kept);
    if (!layout_kept) {
        arrsetlen(solver->constraint_colors, count);
        arrsetlen(solver->constraint_slots, count);
        carom_graph_color(&solver->graph, solver->moving_a, solver->moving_b, count,
                          solver->moving_count, solver->constraint_colors);
        group_count = lay_out_constraints(world, lanes);
        solver->layout_lanes = lanes;
    }
    const int* start = solver->color_start;
    int overflow_count = start[CAROM_GRAPH_COLORS + 1] - start[CAROM_GRAPH_COLORS];
    allocate_groups(solver, lanes, group_count, overflow_count);

    /* A stiffer spring than a quarter of the substep rate is not resolved by the substeps and
     * rings. Contacts against static (or kinematic) bodies may be twice as stiff, within the
     * same cap: measured, letting them exceed it made a 100 kg box on a 1 kg box wobble and
     * slide off at 4 substeps. */
    double max_hertz = 0.25 / h;
    double contact_hertz = carom_min_d(world->def.contact_hertz, max_hertz);
    double static_hertz = carom_min_d(2.0 * world->def.contact_hertz, max_hertz);
    settings->soft = carom_make_softness(contact_hertz, world->def.contact_damping_ratio, h);
    settings->static_soft =
        carom_make_softness(static_hertz, world->def.contact_damping_ratio, h);

    /* the padding lanes after each colour's last constraint are cleared */
    int group = 0;
    for (int c = 0; c < CAROM_GRAPH_COLORS; ++c) {
        int colour_count = start[c + 1] - start[c];
        int colour_groups = (colour_count + lanes - 1) / lanes;
        for (int lane = colour_count % lanes; lane > 0 && lane < lanes; ++lane) {
            carom_lane_writer w = slot_lane(solver, (group + colour_groups - 1) * lanes + lane);
            kernel->clear(w.group, w.cold, w.lane);
        }
        group += colour_groups;
    }
}

void carom_contact_solver_clear(carom_world* world) {
    carom_solver* solver = &world->solver;
    CAROM_ASSERT(arrlen(world->touching_contacts) == 0);
    arrsetlen(solver->constraint_contacts, 0);
    arrsetlen(solver->constraint_points, 0);
    arrsetlen(solver->state_a, 0);
    arrsetlen(solver->state_b, 0);
    arrsetlen(solver->moving_a, 0);
    arrsetlen(solver->moving_b, 0);
    arrsetlen(solver->constraint_colors, 0);
    arrsetlen(solver->constraint_slots, 0);
    arrsetlen(solver->collect_flags, 0);
    memset(solver->color_start, 0, sizeof(solver->color_start));
    solver->group_count = 0;
    solver->overflow_count = 0;
    solver->layout_lanes = 0; /* the colours and slots were cleared with the constraints */
}

void carom_contact_solver_fill(carom_world* world, int begin, int end) {
    world->solver.kernel->fill(&world->solver, world->contacts, begin, end);
}

/* ---- Solving: the overflow one at a time, then the colours in order ------------------------ */

void carom_contact_solver_warm_start(carom_world* world, bool first) {
    carom_solver* solver = &world->solver;
    carom_contact_kernel_lanes1.warm_start(solver->overflow, solver->overflow_colds,
                                           solver->overflow_count, solver->states, first);
    solver->kernel->warm_start(solver->groups, solver->colds, solver->group_count, solver->states,
                               first);
}

void carom_contact_solver_restitution(carom_world* world) {
    carom_solver* solver = &world->solver;
    double threshold = world->def.restitution_threshold;
    carom_contact_kernel_lanes1.restitution(solver->overflow, solver->overflow_colds,
                                            solver->overflow_count, solver->states, threshold);
    solver->kernel->restitution(solver->groups, solver->colds, solver->group_count,
                                solver->states, threshold);
}

/* ---- Reading back ------------------------------------------------------------------------- */

carom_constraint_point_result carom_contact_solver_point(const carom_world* world, int constraint,
                                                         int point) {
    carom_lane_writer w = slot_lane(&world->solver, world->solver.constraint_slots[constraint]);
    int32_t flags = carom_contact_ints(w.group, w.lanes)[CAROM_CI_FLAGS * w.lanes + w.lane];
    carom_constraint_point_result result = {
        get(&w, carom_contact_point_field(CAROM_CF_NORMAL_IMPULSE, point)),
        get(&w, carom_contact_point_field(CAROM_CF_TANGENT_IMPULSE, point)),
        w.cold[(CAROM_CC_RELATIVE_VELOCITY1 + point) * w.lanes + w.lane],
        (flags & (CAROM_CF_PUSHED1 << point)) != 0};
    return result;
}

/* The impulses of one group's lanes into their contacts: the lanes are read in order, the
 * contacts written wherever they are. */
/* Whether a lane of a coloured group holds a constraint: a padding lane has no flag. */
static bool lane_in_use(int32_t flags) {
    return (flags & (CAROM_CF_WRITE_A | CAROM_CF_WRITE_B)) != 0;
}

static void store_group(carom_world* world, void* group, int lanes, const int* contacts) {
    const int32_t* ints = carom_contact_ints(group, lanes);
    for (int lane = 0; lane < lanes; ++lane) {
        int32_t flags = ints[CAROM_CI_FLAGS * lanes + lane];
        if (!lane_in_use(flags)) {
            continue; /* a padding lane */
        }
        carom_contact* contact = &world->contacts[contacts[lane]];
        int points = flags & CAROM_CF_TWO_POINTS ? 2 : 1;
        for (int j = 0; j < points; ++j) {
            contact->impulses[j].normal = *carom_contact_field(
                group, lanes, carom_contact_point_field(CAROM_CF_NORMAL_IMPULSE, j), lane);
            contact->impulses[j].tangent = *carom_contact_field(
                group, lanes, carom_contact_point_field(CAROM_CF_TANGENT_IMPULSE, j), lane);
        }
    }
}

/* How many groups ahead the store fetches the contacts it will write. A group's lanes are its
 * colour's constraints in layout order, their contacts anywhere in the contact array: in a large
 * world each lane's write was a miss, one at a time. Fetched two groups ahead (16 contacts at 8
 * lanes), the store's share of many_pyramids' samples fell from 7.7 % to 5.5 % (perf, one
 * worker; four ahead gained no more), and a step took 20.70 -> 20.39 ms on one CPU and 9.91 ->
 * 9.55 at two workers (medians of 8 and 6 alternating runs, 2026-11-27). The overflow's groups
 * are few and are not fetched ahead. */
#define STORE_AHEAD 2

/* Fetch the contacts of the coloured group at slot, its padding lanes left out (their ids are
 * stale). Forced inline: a function of nothing but loads and prefetches is dropped otherwise
 * (core.h's carom_prefetch_lines). */
static CAROM_FORCE_INLINE void prefetch_stored_contacts(const carom_world* world, int slot) {
    const carom_solver* solver = &world->solver;
    int lanes = solver->kernel->lanes;
    const int* contacts = solver->lane_contacts + carom_lane_contact(solver, slot);
    const int32_t* ints = carom_contact_ints(slot_lane(solver, slot).group, lanes);
    for (int lane = 0; lane < lanes; ++lane) {
        if (lane_in_use(ints[CAROM_CI_FLAGS * lanes + lane])) {
            __builtin_prefetch(&world->contacts[contacts[lane]].impulses, 1);
        }
    }
}

void carom_contact_solver_store(carom_world* world, int begin, int end) {
    const carom_solver* solver = &world->solver;
    int lanes = solver->kernel->lanes;
    int overflow = solver->overflow_count;
    for (int i = begin; i < end; ++i) {
        if (i + STORE_AHEAD < end && i + STORE_AHEAD >= overflow) {
            prefetch_stored_contacts(world, (i + STORE_AHEAD - overflow) * lanes);
        }
        /* the first lane of the overflow's group i, or of coloured group i - overflow */
        int slot = i < overflow ? -1 - i : (i - overflow) * lanes;
        carom_lane_writer w = slot_lane(solver, slot);
        store_group(world, w.group, w.lanes,
                    solver->lane_contacts + carom_lane_contact(solver, slot));
    }
}

/* Whether the solver pushed at any point of the constraint: the shapes met within the step. */
static bool solver_pushed(const carom_world* world, int constraint, int point_count) {
    for (int j = 0; j < point_count; ++j) {
        if (carom_contact_solver_point(world, constraint, j).pushed) {
            return true;
        }
    }
    return false;
}

/* Per block of the collection, with its first constraint as the running constraint index:
 * each speculative contact touched if the solver pushed at one of its points (and never if it
 * is no constraint); it is marked to settle if that is not what it says now. */
static void mark_settled(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_world* world = context;
    carom_solver* solver = &world->solver;
    int touching_count = (int)arrlen(world->touching_contacts);
    for (int block = begin; block < end; ++block) {
        int j = solver->collect_offsets[block];
        int last = carom_block_end(block, COLLECT_BLOCK, touching_count);
        for (int k = block * COLLECT_BLOCK; k < last; ++k) {
            int flags = solver->collect_flags[k];
            bool constrained = flags & CAROM_COLLECT_KEPT;
            if (flags & CAROM_COLLECT_SPECULATIVE) {
                const carom_contact* contact = &world->contacts[world->touching_contacts[k]];
                bool pushed = constrained && solver_pushed(world, j, contact->point_count);
                if (pushed != contact->touching) {
                    solver->collect_flags[k] = (unsigned char)(flags | CAROM_COLLECT_SETTLE);
                }
            }
            j += constrained;
        }
    }
}

void carom_contact_solver_mark_settled(carom_world* world) {
    int touching = (int)arrlen(world->touching_contacts);
    int blocks = (touching + COLLECT_BLOCK - 1) / COLLECT_BLOCK;
    carom_parallel_for(&world->tasks, mark_settled, blocks, 1, world);
}

void carom_contact_solver_destroy(carom_solver* solver) {
    arrfree(solver->constraint_contacts);
    arrfree(solver->moving_a);
    arrfree(solver->moving_b);
    arrfree(solver->previous_moving_a);
    arrfree(solver->previous_moving_b);
    arrfree(solver->previous_points);
    arrfree(solver->previous_contacts);
    arrfree(solver->previous_state_a);
    arrfree(solver->previous_state_b);
    arrfree(solver->constraint_refresh);
    arrfree(solver->constraint_separations);
    arrfree(solver->state_a);
    arrfree(solver->state_b);
    arrfree(solver->constraint_colors);
    arrfree(solver->constraint_slots);
    arrfree(solver->constraint_points);
    arrfree(solver->group_memory);
    arrfree(solver->lane_contacts);
    arrfree(solver->collect_flags);
    arrfree(solver->collect_states);
    arrfree(solver->collect_offsets);
    arrfree(solver->layout_places);
    carom_graph_destroy(&solver->graph);
}
