/* The solver: sequential impulses on soft contacts, with substeps and relaxation ("soft step").
 *
 * Why this design (Catto, "Solver2D", 2024, which measured it against Baumgarte, split
 * impulses, NGS, TGS and XPBD): the step is split into substeps; in each, velocities are
 * integrated, last substep's impulses are applied again (warm starting), contacts are solved as
 * soft constraints (a spring of contact_hertz with damping contact_damping_ratio, so position
 * error is removed smoothly and never faster than contact_push_max_velocity), positions are
 * integrated, and a relax pass solves the contacts once more without the position bias so the
 * push-out leaves no energy in the bodies. Restitution is applied once, after the substeps, from
 * the approach speed measured before solving: inside the iterations it would fight the position
 * correction and give wrong bounce heights.
 *
 * The narrow phase runs once per step. Inside the substeps a contact's separation is updated
 * cheaply from the bodies' motion since the step began, along the fixed normal:
 *   s = s0 + n . ((dpB + R(dqB) rB - rB) - (dpA + R(dqA) rA - rA))
 * where rA, rB are the anchors at the start of the step. A positive s is a speculative gap: the
 * solver lets the bodies close it within this substep but no further.
 *
 * Accumulated impulses are clamped, not increments: the total normal impulse of a point stays
 * >= 0 and its friction impulse within friction * normal impulse (Catto, GDC 2006).
 * Bodies the solver moves are copied into a compact array of states (velocity and motion this
 * step), with what their velocity gains per substep precomputed; every static (or sleeping)
 * body in a constraint points at one shared rest state at the end of that array.
 *
 * This file is the stage scheduler: bodies in and out, and the order of the passes. The contact
 * constraints are coloured by constraint_graph.c and solved in wide lanes by contact_solver.c
 * and its kernels (contact_solver.h says how, and why the lane width never changes a bit).
 * Joints are solved in the same passes, before the contacts, by joint_solver.c. */
#include "core.h"

#include "ds.h"
#include "world.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Bodies or constraints per range handed to a worker in the cheap per-item loops. */
#define ITEMS_PER_RANGE 256
/* Groups per range of the store (carom_contact_solver_store), which goes group by group: 512
 * constraints at 8 lanes. */
#define GROUPS_PER_STORE_RANGE 64

carom_softness carom_make_softness(double hertz, double damping_ratio, double h) {
    carom_softness soft = {0.0, 1.0, 0.0};
    if (hertz == 0.0) {
        return soft;
    }
    double omega = 2.0 * CAROM_PI * hertz;
    double a1 = 2.0 * damping_ratio + h * omega;
    if (a1 == 0.0) {
        /* undamped and so weak that h omega underflows (a hertz of 1e-320): the limit of these
         * formulas as hertz goes to 0 is a spring that pushes with nothing */
        soft.mass_scale = 0.0;
        soft.impulse_scale = 1.0;
        return soft;
    }
    double a2 = h * omega * a1;
    double a3 = 1.0 / (1.0 + a2);
    soft.bias_rate = omega / a1;
    soft.mass_scale = a2 * a3;
    soft.impulse_scale = a3;
    return soft;
}

void carom_solver_destroy(carom_solver* solver) {
    arrfree(solver->state_memory);
    arrfree(solver->delta_positions);
    arrfree(solver->turns);
    arrfree(solver->state_bodies);
    arrfree(solver->motions);
    arrfree(solver->masses);
    arrfree(solver->previous_masses);
    arrfree(solver->body_states);
    arrfree(solver->proxy_rests);
    arrfree(solver->moved_shapes);
    arrfree(solver->shape_rests);
    carom_contact_solver_destroy(solver);
}

/* The bodies the last step moved forget their states: each its own, so in parallel. */
static void forget_states(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_world* world = context;
    carom_solver* solver = &world->solver;
    int body_count = (int)arrlen(world->bodies);
    for (int i = begin; i < end; ++i) {
        int body = solver->state_bodies[i];
        if (body < body_count) {
            solver->body_states[body] = -1;
        }
    }
}

/* State k for the k-th awake body, with what its velocity gains each substep: each body its
 * own state, so in parallel. */
static void gather_states(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_world* world = context;
    carom_solver* solver = &world->solver;
    double h = solver->h;
    carom_vec2 gravity = world->def.gravity;
    for (int k = begin; k < end; ++k) {
        int i = world->awake_bodies[k];
        carom_body* body = &world->bodies[i];
        solver->body_states[i] = k;
        carom_body_state state = {body->linear_velocity, body->angular_velocity, {1.0f, 0.0f}};
        carom_body_turn turn = {{1.0, 0.0}, 0.0};
        carom_body_motion motion = {1.0, 1.0, {0.0, 0.0}, 0.0};
        if (body->type == CAROM_BODY_DYNAMIC) {
            motion.linear_damping = 1.0 / (1.0 + h * body->linear_damping);
            motion.angular_damping = 1.0 / (1.0 + h * body->angular_damping);
            carom_vec2 acceleration = carom_scale(
                body->inv_mass,
                carom_mul_add(body->force, body->mass * body->gravity_scale, gravity));
            motion.linear_increment = carom_scale(h, acceleration);
            motion.angular_increment = h * body->inv_inertia * body->torque;
        }
        solver->states[k] = state;
        solver->delta_positions[k] = carom_v2(0.0, 0.0);
        solver->turns[k] = turn;
        solver->motions[k] = motion;
        solver->masses[k] = (carom_state_mass){body->inv_mass, body->inv_inertia};
        solver->state_bodies[k] = i;
    }
}

/* Copy every awake non-static body into the solver's state array, with what its velocity
 * gains each substep, and add the shared rest state for static bodies at the end. */
static void gather_bodies(carom_world* world) {
    carom_solver* solver = &world->solver;
    int body_count = (int)arrlen(world->bodies);
    int old_body_count = (int)arrlen(solver->body_states);
    arrsetlen(solver->body_states, body_count);
    for (int i = old_body_count; i < body_count; ++i) {
        solver->body_states[i] = -1;
    }
    carom_parallel_for(&world->tasks, forget_states, (int)arrlen(solver->state_bodies),
                       ITEMS_PER_RANGE, world);
    carom_refresh_awake_lists(world);
    int count = (int)arrlen(world->awake_bodies);
    /* the last step's masses, kept aside (swapped, not copied) for the contact solver to compare
     * with these (contact_solver.c) */
    CAROM_SWAP_ARRAYS(solver->masses, solver->previous_masses);
    /* room for every awake body and the rest state, then written by index: cheaper than a
     * growth check per body. The states from a cache line's start, two to a line: the contact
     * passes gather and scatter them by index, and with every other one across two lines
     * (stb_ds placed the array 48 bytes into a line) a step of many_pyramids took about 1 % longer
     * on one worker and 3 % on two (medians of 6 alternating runs). */
    solver->states = carom_line_aligned(&solver->state_memory,
                                        sizeof(carom_body_state) * (size_t)(count + 1));
    arrsetlen(solver->delta_positions, count + 1);
    arrsetlen(solver->turns, count + 1);
    arrsetlen(solver->state_bodies, count);
    arrsetlen(solver->motions, count);
    arrsetlen(solver->masses, count + 1);
    carom_parallel_for(&world->tasks, gather_states, count, ITEMS_PER_RANGE, world);
    solver->moving_count = count;
    carom_body_state rest = {{0.0, 0.0}, 0.0, {1.0f, 0.0f}};
    solver->states[count] = rest;
    solver->delta_positions[count] = carom_v2(0.0, 0.0);
    solver->turns[count] = (carom_body_turn){{1.0, 0.0}, 0.0};
    solver->masses[count] = (carom_state_mass){0.0, 0.0};
}

static void integrate_velocities(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_solver* solver = context;
    for (int i = begin; i < end; ++i) {
        const carom_body_motion* m = &solver->motions[i];
        carom_body_state* state = &solver->states[i];
        state->linear_velocity = carom_add(carom_scale(m->linear_damping, state->linear_velocity),
                                           m->linear_increment);
        state->angular_velocity = m->angular_damping * state->angular_velocity +
                                  m->angular_increment;
    }
}

/* Turn a rotation by a substep's small angle: first order, then brought back to unit length.
 * The rotation turned this step starts each step at the identity and lives for a few substeps
 * (the body's own rotation is normalised exactly once per step, in finalize_bodies). For the
 * angles of all but the fastest spins, the length is restored by the series
 * 1/sqrt(1 + e) = 1 - e/2 + 3e^2/8 - 5e^3/16, with e = angle^2, rather than by a square root and
 * a division, which were the throughput limit of this loop: the length is then off by at most
 * 35/128 e^4, 3e-9 at the bound of 0.1 rad a substep (24 rad/s at 240 substeps a second), 7e-15
 * at 0.02 rad. Beyond the bound, where the series would stray, the exact division is kept. */
static CAROM_FORCE_INLINE carom_rot turn_rotation(carom_rot q, double angle) {
    carom_rot turned = {q.c - angle * q.s, q.s + angle * q.c};
    double e = turned.c * turned.c + turned.s * turned.s - 1.0;
    if (!(fabs(e) <= 0.01)) {
        return carom_normalize_rot(turned);
    }
    double scale = 1.0 + e * (-0.5 + e * (0.375 - 0.3125 * e));
    turned.c *= scale;
    turned.s *= scale;
    return turned;
}

static void integrate_positions(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_solver* solver = context;
    double h = solver->h;
    for (int i = begin; i < end; ++i) {
        carom_body_state* state = &solver->states[i];
        carom_body_turn* turn = &solver->turns[i];
        solver->delta_positions[i] =
            carom_mul_add(solver->delta_positions[i], h, state->linear_velocity);
        turn->delta_rotation = turn_rotation(turn->delta_rotation, h * state->angular_velocity);
        turn->delta_angle += h * state->angular_velocity;
        state->turn = carom_round_rot(turn->delta_rotation);
    }
}

/* Whether any live shape asks for hit events, counted again only when the scene changed. */
static bool any_hit_event_shapes(carom_world* world) {
    if (world->hit_event_shapes_revision != world->scene_revision) {
        int count = 0;
        for (int i = 0; i < (int)arrlen(world->shapes); ++i) {
            count += world->shapes[i].id >= 0 && world->shapes[i].enable_hit_events;
        }
        world->hit_event_shapes = count;
        world->hit_event_shapes_revision = world->scene_revision;
    }
    return world->hit_event_shapes > 0;
}

/* Hit events: for contacts whose shapes ask for them, the point that approached fastest, if it
 * pushed and approached faster than the lower threshold of the shapes that report. */
static void report_hits(carom_world* world) {
    carom_solver* solver = &world->solver;
    if (!any_hit_event_shapes(world)) {
        return; /* the pass below would read two shapes per constraint to find none */
    }
    for (int i = 0; i < (int)arrlen(solver->constraint_contacts); ++i) {
        const carom_contact* contact = &world->contacts[solver->constraint_contacts[i]];
        const carom_shape* a = &world->shapes[contact->shape_a];
        const carom_shape* b = &world->shapes[contact->shape_b];
        if (!a->enable_hit_events && !b->enable_hit_events) {
            continue;
        }
        double threshold = !a->enable_hit_events ? b->hit_speed_threshold
                           : !b->enable_hit_events
                               ? a->hit_speed_threshold
                               : carom_min_d(a->hit_speed_threshold, b->hit_speed_threshold);
        int best = -1;
        double best_speed = threshold;
        for (int j = 0; j < contact->point_count; ++j) {
            carom_constraint_point_result point = carom_contact_solver_point(world, i, j);
            double speed = -point.approach_velocity;
            if (point.pushed && speed > best_speed) {
                best = j;
                best_speed = speed;
            }
        }
        if (best >= 0) {
            carom_contact_hit_event event = {carom_make_shape_id(world, a),
                                             carom_make_shape_id(world, b),
                                             contact->points[best].point, contact->normal,
                                             best_speed};
            arrput(world->hit_events, event);
        }
    }
}

/* The touching of the contacts whose points were all speculative at the narrow phase, left to
 * be settled here (narrow_phase.c): they touched if the solver pushed. The workers mark those
 * whose touching changes (carom_contact_solver_mark_settled); this walks the marks in the
 * narrow phase's order, eight at a time (few are set), so the events come in contact-id order
 * after the narrow phase's. */
static void settle_touching(carom_world* world) {
    carom_contact_solver_mark_settled(world);
    const unsigned char* flags = world->solver.collect_flags;
    int count = (int)arrlen(world->touching_contacts);
    const uint64_t settle_bits = UINT64_C(0x0101010101010101) * CAROM_COLLECT_SETTLE;
    for (int base = 0; base < count; base += 8) {
        if (base + 8 <= count) {
            uint64_t eight;
            memcpy(&eight, flags + base, sizeof(eight));
            if ((eight & settle_bits) == 0) {
                continue;
            }
        }
        int last = base + 8 < count ? base + 8 : count;
        for (int k = base; k < last; ++k) {
            if (flags[k] & CAROM_COLLECT_SETTLE) {
                carom_contact* contact = &world->contacts[world->touching_contacts[k]];
                carom_contact_set_touching(world, contact, !contact->touching);
            }
        }
    }
}

/* A state's proxy_rests for a body of several shapes, whose rests are in shape_rests. */
#define SEVERAL_SHAPES 0x80

/* How many states ahead finalize_bodies fetches the lines it will write: a body's (352 bytes,
 * every line of it written or read) and its first shape's first two lines and proxy. The states
 * are in awake order, so in a large world each body and shape is a miss from beyond the core's
 * caches, and fetched one at a time in the loop the misses do not overlap. The bodies are
 * fetched twice as far ahead, so that a body's first shape is at hand when its shape is fetched.
 * On 2026-11-27, medians of 6 to 10 alternating runs: a step of many_pyramids (22,000 bodies)
 * 21.56 -> 21.01 ms on one CPU and 9.71 -> 9.20 at two workers, the 16,000-ball rain 16.25 ->
 * 16.13 and 7.91 -> 7.81, the large pyramid level (3.64, 3.63); perf put the loop (with the
 * shapes' boxes) at 8.7 % of many_pyramids' samples before, 6.5 % after. */
#define FINALIZE_AHEAD 8

/* Forced inline: a function of nothing but prefetches is dropped otherwise (core.h). */
static CAROM_FORCE_INLINE void prefetch_finalize(const carom_world* world, int state, int end) {
    const carom_solver* solver = &world->solver;
    if (state + 2 * FINALIZE_AHEAD < end) {
        int far = solver->state_bodies[state + 2 * FINALIZE_AHEAD];
        carom_prefetch_lines_for_write(&world->bodies[far], sizeof(carom_body));
    }
    if (state + FINALIZE_AHEAD < end) {
        int shape = world->bodies[solver->state_bodies[state + FINALIZE_AHEAD]].first_shape;
        if (shape < 0) {
            return; /* a body without shapes */
        }
        carom_prefetch_lines_for_write(&world->shapes[shape], offsetof(carom_shape, circle));
        __builtin_prefetch(&world->broad_phase.proxies[shape].fat_aabb);
    }
}

/* Write the states back to the bodies, within the speed limits (restitution and the relax pass
 * come after the last substep moved them), advance their rest timers, derive their origins, and
 * refresh their shapes' bounding boxes, and give the proxies of those that left theirs new fat
 * boxes: each body its own, so ranges run at the same time. What is left of the proxies' moves
 * (the moved list, the grid) is done afterwards (move_proxies). */
static void finalize_bodies(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_world* world = context;
    carom_solver* solver = &world->solver;
    double dt = solver->dt;
    for (int i = begin; i < end; ++i) {
        prefetch_finalize(world, i, end);
        carom_body_state* state = &solver->states[i];
        carom_limit_speeds(&state->linear_velocity, &state->angular_velocity);
        carom_body* body = &world->bodies[solver->state_bodies[i]];
        body->sweep.local_center = body->local_center;
        body->sweep.c1 = body->center;
        body->sweep.q1 = body->transform.q;
        const carom_body_turn* turn = &solver->turns[i];
        carom_vec2 delta_position = solver->delta_positions[i];
        body->sweep.delta_angle = turn->delta_angle;
        body->linear_velocity = state->linear_velocity;
        body->angular_velocity = state->angular_velocity;
        world->rest_flags[i] = (unsigned char)carom_sleep_update_timer(
            world, body, delta_position, turn->delta_angle, dt);
        body->center = carom_add(body->center, delta_position);
        if (!body->fixed_rotation) { /* renormalising would move a fixed rotation's last bit */
            body->transform.q =
                carom_normalize_rot(carom_mul_rot(turn->delta_rotation, body->transform.q));
        }
        carom_body_derive_origin(body);
        body->sweep.c2 = body->center;
        body->force = carom_v2(0.0, 0.0);
        body->torque = 0.0;
        unsigned rests = 0;
        if (carom_body_update_shape_aabbs(world, body)) {
            rests = carom_body_begin_proxy_moves(world, body, delta_position, solver->shape_rests);
            int shape = body->first_shape;
            bool several = world->shapes[shape].next_shape >= 0;
            rests |= rests != 0 && several ? SEVERAL_SHAPES : 0u;
            solver->moved_shapes[i] = shape;
        }
        solver->proxy_rests[i] = (unsigned char)rests;
        carom_continuous_note_body(world, i, body);
        /* its move event, while the body is at hand; the stages after this one mend what they
         * change (world.c's record_body_moves) */
        carom_body_move_event event = {carom_make_body_id(world, body), body->transform,
                                       body->user_data, 0};
        world->body_move_events[i] = event;
        world->move_flags[i] = carom_body_pose_changed(body, body->sweep.c1, body->sweep.q1);
    }
}

/* The grid and the moved list are shared: what is left of the proxies' moves is done one body
 * at a time, in state order, from what finalize_bodies noted per state (most bodies have one
 * shape), without reading the bodies, shapes and proxies again: with two threads those were
 * mostly lines the other core had just written. Most proxies that move stay in their cells and
 * are only listed as moved (3 of 4 in the 16,000-ball rain). */
static void move_proxies(carom_world* world) {
    carom_solver* solver = &world->solver;
    for (int i = 0; i < solver->moving_count; ++i) {
        unsigned rests = solver->proxy_rests[i];
        if (rests == 0) {
            continue;
        }
        if (rests & SEVERAL_SHAPES) {
            carom_body_finish_proxy_moves(world, &world->bodies[solver->state_bodies[i]],
                                          solver->shape_rests);
        } else {
            carom_broad_phase_finish_move(&world->broad_phase, solver->moved_shapes[i], rests);
        }
    }
}

/* ---- The contact passes over the workers ----------------------------------------------------
 * Constraints of one colour move no body in common, so a colour's groups are cut into ranges
 * that run at the same time, colour after colour; the overflow, whose constraints may share
 * bodies, runs alone first. A group's bits are the same whoever solves it, and the order
 * within a colour changes nothing, so these passes give the bits of the one-thread calls. */

/* Constraints a worker takes at least, so that a range is worth handing over. */
#define CONSTRAINTS_PER_RANGE 64

/* Where each colour's groups begin: contact_solver.c lays the colours out one after the other,
 * each rounded up to whole groups of the kernel's lanes. */
static void find_color_groups(carom_solver* solver) {
    int lanes = solver->kernel->lanes;
    const int* start = solver->color_start;
    solver->color_groups[0] = 0;
    for (int c = 0; c < CAROM_GRAPH_COLORS; ++c) {
        solver->color_groups[c + 1] =
            solver->color_groups[c] + (start[c + 1] - start[c] + lanes - 1) / lanes;
    }
    CAROM_ASSERT(solver->color_groups[CAROM_GRAPH_COLORS] == solver->group_count);
}

/* PASS_FIRST_WARM_START: the step's first, which also finishes the constraints' preparation */
enum contact_pass {
    PASS_FIRST_WARM_START,
    PASS_WARM_START,
    PASS_SOLVE,
    PASS_RELAX,
    PASS_RESTITUTION
};

typedef struct color_pass {
    carom_world* world;
    enum contact_pass pass;
    const carom_solve_settings* settings;
    unsigned char* groups; /* the colour's first group */
    double* colds;         /* and its cold group */
} color_pass;

static void run_color_range(int begin, int end, int worker, void* context) {
    (void)worker;
    const color_pass* p = context;
    carom_solver* solver = &p->world->solver;
    const carom_contact_kernel* kernel = solver->kernel;
    void* groups = p->groups + carom_contact_group_size(kernel->lanes) * (size_t)begin;
    double* colds =
        p->colds + carom_contact_cold_size(kernel->lanes) / sizeof(double) * (size_t)begin;
    int count = end - begin;
    switch (p->pass) {
    case PASS_FIRST_WARM_START:
    case PASS_WARM_START:
        kernel->warm_start(groups, colds, count, solver->states,
                           p->pass == PASS_FIRST_WARM_START);
        break;
    case PASS_SOLVE:
    case PASS_RELAX:
        kernel->solve(groups, colds, count, solver->states, solver->delta_positions, p->settings,
                      p->pass == PASS_SOLVE, true);
        break;
    case PASS_RESTITUTION:
        kernel->restitution(groups, colds, count, solver->states,
                            p->world->def.restitution_threshold);
        break;
    }
}

/* One contact pass: the overflow, then each colour spread over the workers. With one worker
 * the warm start and restitution are the contact solver's own call over every group at once;
 * the solve and relax passes always go colour by colour, since a kernel may solve two groups
 * of one colour at once (one_color) but never two of different colours. */
static void contact_pass(carom_world* world, enum contact_pass pass,
                         const carom_solve_settings* settings) {
    carom_solver* solver = &world->solver;
    if (world->tasks.worker_count <= 1 && pass != PASS_SOLVE && pass != PASS_RELAX) {
        if (pass == PASS_RESTITUTION) {
            carom_contact_solver_restitution(world);
        } else {
            carom_contact_solver_warm_start(world, pass == PASS_FIRST_WARM_START);
        }
        return;
    }
    const carom_contact_kernel* overflow = &carom_contact_kernel_lanes1;
    switch (pass) {
    case PASS_FIRST_WARM_START:
    case PASS_WARM_START:
        overflow->warm_start(solver->overflow, solver->overflow_colds, solver->overflow_count,
                             solver->states, pass == PASS_FIRST_WARM_START);
        break;
    case PASS_SOLVE:
    case PASS_RELAX:
        overflow->solve(solver->overflow, solver->overflow_colds, solver->overflow_count,
                        solver->states, solver->delta_positions, settings, pass == PASS_SOLVE,
                        false);
        break;
    case PASS_RESTITUTION:
        overflow->restitution(solver->overflow, solver->overflow_colds, solver->overflow_count,
                              solver->states, world->def.restitution_threshold);
        break;
    }
    int lanes = solver->kernel->lanes;
    int min_groups = CONSTRAINTS_PER_RANGE / lanes > 0 ? CONSTRAINTS_PER_RANGE / lanes : 1;
    size_t group_size = carom_contact_group_size(lanes);
    for (int c = 0; c < CAROM_GRAPH_COLORS; ++c) {
        int first = solver->color_groups[c];
        int count = solver->color_groups[c + 1] - first;
        color_pass p = {world, pass, settings,
                        (unsigned char*)solver->groups + group_size * (size_t)first,
                        solver->colds + carom_contact_cold_size(lanes) / sizeof(double) *
                                            (size_t)first};
        carom_parallel_for(&world->tasks, run_color_range, count, min_groups, &p);
    }
}

static void fill_constraints(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_contact_solver_fill(context, begin, end);
}

static void store_impulses(int begin, int end, int worker, void* context) {
    (void)worker;
    carom_contact_solver_store(context, begin, end);
}

void carom_solver_step(carom_world* world, double dt) {
    carom_solver* solver = &world->solver;
    const carom_task_system* tasks = &world->tasks;
    int substeps = world->def.substeps;
    double h = dt / substeps;
    solver->h = h;
    solver->dt = dt;
    carom_joints_wake_driven(world);
    gather_bodies(world);
    carom_solve_settings settings = {1.0 / h, world->def.contact_slop,
                                     world->def.contact_push_max_velocity, 0,
                                     {0.0, 1.0, 0.0}, {0.0, 1.0, 0.0}};
    carom_joint_solver_prepare(world, h);
    if (solver->moving_count == 0) {
        /* Every body asleep or static: no contact or joint has a body to move (the narrow
         * phase listed no contact, the joints none to solve), nor has any body a pose to
         * write. The passes below would each walk every colour to find nothing: a sleeping
         * world's step was 3,900 instructions, most of them here. */
        carom_contact_solver_clear(world);
        arrsetlen(world->rest_flags, 0); /* no state rests, none is kinematic */
        return;
    }
    solver->approach_read = any_hit_event_shapes(world);
    carom_contact_solver_prepare(world, h, &settings);
    int constraint_count = (int)arrlen(solver->constraint_contacts);
    carom_parallel_for(tasks, fill_constraints, constraint_count, ITEMS_PER_RANGE, world);
    find_color_groups(solver);
    int moving = solver->moving_count;
    /* in each pass the joints first, in id order, then the contacts colour by colour */
    for (int i = 0; i < substeps; ++i) {
        settings.flip = i & 1;
        carom_parallel_for(tasks, integrate_velocities, moving, ITEMS_PER_RANGE, solver);
        carom_joint_solver_warm_start(world);
        contact_pass(world, i == 0 ? PASS_FIRST_WARM_START : PASS_WARM_START, &settings);
        carom_joint_solver_solve(world, true);
        contact_pass(world, PASS_SOLVE, &settings);
        carom_parallel_for(tasks, integrate_positions, moving, ITEMS_PER_RANGE, solver);
        carom_joint_solver_solve(world, false); /* relax */
        contact_pass(world, PASS_RELAX, &settings);
    }
    contact_pass(world, PASS_RESTITUTION, &settings);
    carom_parallel_for(tasks, store_impulses, solver->overflow_count + solver->group_count,
                       GROUPS_PER_STORE_RANGE, world);
    settle_touching(world); /* before the hits, and with the velocities from before the solve */
    report_hits(world);
    arrsetlen(solver->proxy_rests, moving);
    arrsetlen(solver->moved_shapes, moving);
    arrsetlen(solver->shape_rests, arrlen(world->shapes));
    carom_continuous_begin_notes(world, moving);
    arrsetlen(world->body_move_events, moving);
    arrsetlen(world->move_flags, moving);
    arrsetlen(world->rest_flags, moving);
    carom_parallel_for(tasks, finalize_bodies, moving, ITEMS_PER_RANGE, world);
    move_proxies(world);
    carom_joint_solver_finish(world); /* reactions, and the joints that broke */
}
