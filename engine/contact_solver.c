/* Contact constraints: preparing them in coloured groups of lanes, and reading results back.
 *
 * Each step, the contacts with points become constraints, in contact id order. The constraint
 * graph colours them (constraint_graph.c); each colour is laid out in groups of the kernel's
 * lane width (contact_solver.h), one after the other, so that solving every group in array order
 * is solving colour by colour. The hot loops over the groups are the kernels of
 * contact_solver_lanes.h; this file does what runs once per constraint per step, at any width:
 * the effective masses, the block matrix and the softness written into a constraint's lane, and
 * the impulses copied back into its contact for warm starting the next step. */
#include "core.h"

#include "contact_solver.h"
#include "ds.h"
#include "world.h"

#include <stdatomic.h>
#include <string.h>
#include <stdlib.h>

/* ---- Which kernel ------------------------------------------------------------------------- */

/* The default: the widest kernel this machine runs for worlds whose constraints stay within the
 * caches, and 4 lanes beyond, where 8 (AVX-512) measured slower. Which is faster depends on
 * the size of the step's constraint data (CPU time, interleaved runs on this project's 2-core
 * AMD EPYC): with 8 lanes instead of 4, the 40-row pyramid (about 1,600 constraints) took 0.62
 * against 0.73 ms a step and the large pyramid (about 10,000) 5.9 against 6.3 ms, the smash and
 * the 16,000-ball rain the same, many_pyramids (about 58,000) 36.9 against 31.9 ms: there the
 * passes stream their groups from memory, and 8 lanes gather and scatter more bodies' states
 * per group for no fewer bytes. The width never changes a result bit, so the choice may follow
 * the world's size from step to step. */
#define WIDEST_LANES_MAX_CONSTRAINTS 25000

/* The widest kernel this machine runs, and the widest at most 4 lanes wide. */
static const carom_contact_kernel* kernel_up_to_4(void) {
#if defined(CAROM_HAVE_LANES4)
    if (__builtin_cpu_supports("avx2")) {
        return &carom_contact_kernel_lanes4;
    }
#endif
    return &carom_contact_kernel_lanes2;
}

static const carom_contact_kernel* widest_kernel(void) {
#if defined(CAROM_HAVE_LANES8)
    if (__builtin_cpu_supports("avx512f")) {
        return &carom_contact_kernel_lanes8;
    }
#endif
    return kernel_up_to_4();
}

/* NULL: the default, chosen step by step. Atomic, because worlds may be stepped on several
 * threads while one of them asks for another width. */
static _Atomic(const carom_contact_kernel*) chosen_kernel = NULL;

const carom_contact_kernel* carom_contact_kernel_for(int constraint_count) {
    const carom_contact_kernel* kernel = atomic_load_explicit(&chosen_kernel, memory_order_relaxed);
    if (kernel != NULL) {
        return kernel;
    }
    return constraint_count > WIDEST_LANES_MAX_CONSTRAINTS ? kernel_up_to_4() : widest_kernel();
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

/* One constraint's lane: its group, the group's width, and which lane. */
typedef struct lane_writer {
    void* group;
    double* cold; /* the group's cold group */
    int lanes;
    int lane;
} lane_writer;

/* The lane of a constraint's slot: group * lanes + lane in the coloured groups, or -1 - index
 * in the overflow's width-1 groups. */
static lane_writer slot_lane(const carom_solver* solver, int slot) {
    if (slot >= 0) {
        int lanes = solver->kernel->lanes;
        size_t group = (size_t)(slot / lanes);
        lane_writer w = {(unsigned char*)solver->groups + carom_contact_group_size(lanes) * group,
                         solver->colds + group * CAROM_CC_COUNT * (size_t)lanes, lanes,
                         slot % lanes};
        return w;
    }
    size_t group = (size_t)(-1 - slot);
    lane_writer w = {(unsigned char*)solver->overflow + carom_contact_group_size(1) * group,
                     solver->overflow_colds + group * CAROM_CC_COUNT, 1, 0};
    return w;
}

static double get(const lane_writer* w, int field) {
    return *carom_contact_field(w->group, w->lanes, field, w->lane);
}

/* Contacts ahead of the one being read that are fetched into the cache early. The contacts are
 * read in id order, but the ones with points are spread through the contact array, a few
 * hundred bytes apart: each read waited on memory (two thirds of carom_contact_solver_prepare's
 * time on many_pyramids). Only a hint: no result depends on it. */
#define CONTACTS_AHEAD 8

/* The contacts that become constraints, in id order, the states of their bodies (the rest
 * state for a body the solver does not move), and the states each may change (dynamic ones;
 * -1 for static, kinematic and sleeping bodies, which are only read). */
static void collect_constraints(carom_world* world) {
    carom_solver* solver = &world->solver;
    arrsetlen(solver->constraint_contacts, 0);
    arrsetlen(solver->constraint_points, 0);
    arrsetlen(solver->moving_a, 0);
    arrsetlen(solver->moving_b, 0);
    arrsetlen(solver->state_a, 0);
    arrsetlen(solver->state_b, 0);
    const int* body_states = solver->body_states;
    int touching = (int)arrlen(world->touching_contacts);
    for (int k = 0; k < touching; ++k) {
        if (k + CONTACTS_AHEAD < touching) {
            __builtin_prefetch(&world->contacts[world->touching_contacts[k + CONTACTS_AHEAD]]);
        }
        int i = world->touching_contacts[k];
        const carom_contact* contact = &world->contacts[i];
        int a = body_states[contact->edges[0].body];
        int b = body_states[contact->edges[1].body];
        a = a >= 0 ? a : solver->moving_count;
        b = b >= 0 ? b : solver->moving_count;
        int moving_a = solver->masses[a].inv_mass > 0.0 ? a : -1;
        int moving_b = solver->masses[b].inv_mass > 0.0 ? b : -1;
        if (moving_a < 0 && moving_b < 0) {
            continue; /* nothing it could move: static, kinematic or asleep on both sides */
        }
        arrput(solver->constraint_contacts, i);
        arrput(solver->constraint_points, (unsigned char)contact->point_count);
        arrput(solver->state_a, a);
        arrput(solver->state_b, b);
        arrput(solver->moving_a, moving_a);
        arrput(solver->moving_b, moving_b);
    }
}

/* Room for the coloured groups and the overflow's, each starting on a 64-byte boundary, then
 * their cold groups. */
static void allocate_groups(carom_solver* solver, int lanes, int group_count, int overflow_count) {
    size_t group_bytes = carom_contact_group_size(lanes) * (size_t)group_count;
    size_t overflow_bytes = carom_contact_group_size(1) * (size_t)overflow_count;
    size_t cold_bytes = carom_contact_cold_size(lanes) * (size_t)group_count;
    size_t overflow_cold_bytes = carom_contact_cold_size(1) * (size_t)overflow_count;
    arrsetlen(solver->group_memory,
              group_bytes + overflow_bytes + cold_bytes + overflow_cold_bytes + 64);
    uintptr_t base = (uintptr_t)solver->group_memory;
    unsigned char* aligned = solver->group_memory + ((64 - (base & 63)) & 63);
    solver->groups = aligned;
    solver->group_count = group_count;
    solver->overflow = aligned + group_bytes;
    solver->overflow_count = overflow_count;
    solver->colds = (double*)(aligned + group_bytes + overflow_bytes);
    solver->overflow_colds = (double*)(aligned + group_bytes + overflow_bytes + cold_bytes);
}

void carom_contact_solver_prepare(carom_world* world, double h, carom_solve_settings* settings) {
    carom_solver* solver = &world->solver;
    collect_constraints(world);
    int count = (int)arrlen(solver->constraint_contacts);
    const carom_contact_kernel* kernel = carom_contact_kernel_for(count);
    int lanes = kernel->lanes;
    solver->kernel = kernel;
    arrsetlen(solver->constraint_colors, count);
    arrsetlen(solver->constraint_slots, count);
    carom_graph_color(&solver->graph, solver->moving_a, solver->moving_b, count,
                      solver->moving_count, solver->constraint_colors);

    /* groups: each colour rounded up to whole groups */
    const int* start = solver->graph.color_start;
    int group_count = 0;
    for (int c = 0; c < CAROM_GRAPH_COLORS; ++c) {
        group_count += (start[c + 1] - start[c] + lanes - 1) / lanes;
    }
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

    /* Where each constraint goes: colour after colour; within a colour the one-point
     * constraints first, then the two-point ones, each in index order, so that most groups are
     * all of one kind (the kernels skip a missing second point's work group by group). Within a
     * colour no two constraints share a body, so this order reaches no result. The padding
     * lanes after a colour's last constraint are cleared. */
    int group = 0;
    for (int c = 0; c < CAROM_GRAPH_COLORS; ++c) {
        int colour_count = start[c + 1] - start[c];
        int k = 0;
        for (int points = 1; points <= 2; ++points) {
            for (int n = start[c]; n < start[c + 1]; ++n) {
                int i = solver->graph.order[n];
                if (solver->constraint_points[i] == points) {
                    solver->constraint_slots[i] = group * lanes + k++;
                }
            }
        }
        int colour_groups = (colour_count + lanes - 1) / lanes;
        for (int lane = colour_count % lanes; lane > 0 && lane < lanes; ++lane) {
            lane_writer w = slot_lane(solver, (group + colour_groups - 1) * lanes + lane);
            kernel->clear(w.group, w.cold, w.lane);
        }
        group += colour_groups;
    }
    for (int k = start[CAROM_GRAPH_COLORS]; k < start[CAROM_GRAPH_COLORS + 1]; ++k) {
        solver->constraint_slots[solver->graph.order[k]] = -1 - (k - start[CAROM_GRAPH_COLORS]);
    }
}

/* Filled in contact order: the contacts are read front to back, and the lanes written are one
 * moving front per colour. Each constraint writes its own lane only, so ranges may be filled at
 * the same time (solver.c spreads them over the workers). */
void carom_contact_solver_fill(carom_world* world, int begin, int end) {
    carom_solver* solver = &world->solver;
    const carom_contact_kernel* kernel = solver->kernel;
    for (int i = begin; i < end; ++i) {
        if (i + CONTACTS_AHEAD < end) { /* the bodies of a pile's contacts are anywhere */
            int ahead_a = solver->state_a[i + CONTACTS_AHEAD];
            int ahead_b = solver->state_b[i + CONTACTS_AHEAD];
            __builtin_prefetch(&solver->states[ahead_a]);
            __builtin_prefetch(&solver->states[ahead_b]);
            __builtin_prefetch(&solver->masses[ahead_a]);
            __builtin_prefetch(&solver->masses[ahead_b]);
        }
        int slot = solver->constraint_slots[i];
        lane_writer w = slot_lane(solver, slot);
        int a = solver->state_a[i];
        int b = solver->state_b[i];
        carom_contact_input input = {&world->contacts[solver->constraint_contacts[i]],
                                     a,
                                     b,
                                     &solver->states[a],
                                     &solver->states[b],
                                     solver->masses[a],
                                     solver->masses[b]};
        (slot >= 0 ? kernel : &carom_contact_kernel_lanes1)->prepare(w.group, w.cold, w.lane,
                                                                     &input);
    }
}

/* ---- Solving: the overflow one at a time, then the colours in order ------------------------ */

void carom_contact_solver_warm_start(carom_world* world) {
    carom_solver* solver = &world->solver;
    carom_contact_kernel_lanes1.warm_start(solver->overflow, solver->overflow_count,
                                           solver->states);
    solver->kernel->warm_start(solver->groups, solver->group_count, solver->states);
}

void carom_contact_solver_solve(carom_world* world, const carom_solve_settings* settings,
                                bool use_bias) {
    carom_solver* solver = &world->solver;
    carom_contact_kernel_lanes1.solve(solver->overflow, solver->overflow_count, solver->states,
                                      settings, use_bias);
    solver->kernel->solve(solver->groups, solver->group_count, solver->states, settings, use_bias);
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
    lane_writer w = slot_lane(&world->solver, world->solver.constraint_slots[constraint]);
    int base = point * CAROM_CF_POINT_STRIDE;
    int32_t flags = carom_contact_ints(w.group, w.lanes)[CAROM_CI_FLAGS * w.lanes + w.lane];
    carom_constraint_point_result result = {
        get(&w, base + CAROM_CF_NORMAL_IMPULSE), get(&w, base + CAROM_CF_TANGENT_IMPULSE),
        w.cold[(CAROM_CC_RELATIVE_VELOCITY1 + point) * w.lanes + w.lane],
        (flags & (CAROM_CF_PUSHED1 << point)) != 0};
    return result;
}

void carom_contact_solver_store(carom_world* world, int begin, int end) {
    carom_solver* solver = &world->solver;
    for (int i = begin; i < end; ++i) {
        if (i + CONTACTS_AHEAD < end) { /* in contact order, the lanes read are anywhere */
            lane_writer ahead = slot_lane(solver, solver->constraint_slots[i + CONTACTS_AHEAD]);
            for (int j = 0; j < 2; ++j) {
                int base = j * CAROM_CF_POINT_STRIDE;
                __builtin_prefetch(carom_contact_field(ahead.group, ahead.lanes,
                                                       base + CAROM_CF_NORMAL_IMPULSE, ahead.lane));
                __builtin_prefetch(carom_contact_field(
                    ahead.group, ahead.lanes, base + CAROM_CF_TANGENT_IMPULSE, ahead.lane));
            }
        }
        carom_contact* contact = &world->contacts[solver->constraint_contacts[i]];
        lane_writer w = slot_lane(solver, solver->constraint_slots[i]);
        for (int j = 0; j < contact->point_count; ++j) {
            int base = j * CAROM_CF_POINT_STRIDE;
            contact->points[j].normal_impulse = get(&w, base + CAROM_CF_NORMAL_IMPULSE);
            contact->points[j].tangent_impulse = get(&w, base + CAROM_CF_TANGENT_IMPULSE);
        }
    }
}

void carom_contact_solver_destroy(carom_solver* solver) {
    arrfree(solver->constraint_contacts);
    arrfree(solver->moving_a);
    arrfree(solver->moving_b);
    arrfree(solver->state_a);
    arrfree(solver->state_b);
    arrfree(solver->constraint_colors);
    arrfree(solver->constraint_slots);
    arrfree(solver->constraint_points);
    arrfree(solver->group_memory);
    carom_graph_destroy(&solver->graph);
}
