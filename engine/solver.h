/* The solver: soft-step sequential impulses with substeps, relaxation and restitution. */
#ifndef CAROM_SOLVER_H
#define CAROM_SOLVER_H

#include "carom/carom.h"

#include "constraint_graph.h"
#include "contact_solver.h"

#include <math.h>
#include <stdbool.h>

typedef struct carom_world carom_world;

/* What the contact kernels read of a body the solver moves: its velocity, and how far it has
 * turned so far this step rounded to floats (from carom_body_turn's double rotation, once a
 * substep, by integrate_positions). 32 bytes, half a cache line: a pile's solve gathers two
 * bodies' states from a line where a state of 64 (the motion in doubles beside the velocity)
 * took the whole line. The velocity stays double: the rounding to a float each pass lost what
 * the physics tests measure (an elastic collision to 1e-9, a free body's exact velocity). The
 * turn's components are within [-1, 1], so a float keeps them to 6e-8, and only the contact
 * separations estimated inside a step read it; the body's rotation at the end of the step, the
 * joints and continuous collision read the double one. */
typedef struct carom_rotf {
    float c, s;
} carom_rotf;

typedef struct carom_body_state {
    carom_vec2 linear_velocity;
    double angular_velocity;
    carom_rotf turn; /* carom_body_turn's delta_rotation, rounded to floats */
} carom_body_state;

_Static_assert(sizeof(carom_body_state) == 32, "a body state is half a cache line");

/* The rotation so far this step, in doubles, for integrate_positions, the joints and the end
 * of the step; the motion of the center so far is an array of its own (the kernels read it,
 * and not this). */
typedef struct carom_body_turn {
    carom_rot delta_rotation;
    double delta_angle; /* total turn this step (rad), for continuous collision's sweep */
} carom_body_turn;

static inline carom_rotf carom_round_rot(carom_rot q) {
    carom_rotf r = {(float)q.c, (float)q.s};
    return r;
}

/* The per-state arrays the joints read and write (joint.h), all indexed by state. */
typedef struct carom_state_arrays {
    carom_body_state* states;
    const carom_vec2* delta_positions;
    const carom_body_turn* turns;
} carom_state_arrays;

/* The speed limits (CAROM_MAX_SPEED, CAROM_MAX_ANGULAR_SPEED, base.h): a faster velocity is
 * scaled down to the limit, keeping its direction. A rule of the world, applied to the
 * velocities a step leaves, so that steps cannot compound a velocity (contacts between bodies of
 * mass ratio 1e16 once grew one geometrically, step after step, until it overflowed); within one
 * step every value then starts bounded and stays finite. Once per step rather than per substep:
 * that cost 1.4 % of the instructions of 1,000 falling bodies, this 0.3 %. Never reached at the
 * scale of games and simulations (a velocity you give is always within it): no bit changes.
 * Joints also apply it after each of their passes (joint_solver.c's limit_joint_speeds). */
static inline void carom_limit_speeds(carom_vec2* linear_velocity, double* angular_velocity) {
    double speed_squared = carom_length_squared(*linear_velocity);
    if (speed_squared > CAROM_MAX_SPEED * CAROM_MAX_SPEED) {
        *linear_velocity = carom_scale(CAROM_MAX_SPEED / sqrt(speed_squared), *linear_velocity);
    }
    if (fabs(*angular_velocity) > CAROM_MAX_ANGULAR_SPEED) {
        *angular_velocity = *angular_velocity > 0.0 ? CAROM_MAX_ANGULAR_SPEED
                                                    : -CAROM_MAX_ANGULAR_SPEED;
    }
}

/* What a body's velocity does each substep: damped, then increased by gravity and forces. */
typedef struct carom_body_motion {
    double linear_damping, angular_damping; /* factors 1 / (1 + h c) */
    carom_vec2 linear_increment;            /* h * (gravity + force / mass) */
    double angular_increment;               /* h * torque / inertia */
} carom_body_motion;

/* The softness of a spring of `hertz` (0: rigid, no bias) and `damping_ratio` for substeps of
 * h seconds. Contacts and joints share it. */
carom_softness carom_make_softness(double hertz, double damping_ratio, double h);

/* What the collection of the constraints notes of each touching contact (collect_flags). */
enum carom_collect_flag {
    CAROM_COLLECT_KEPT = 1,        /* it is a constraint: it may move a body */
    CAROM_COLLECT_MOVES_A = 2,     /* it may move its first body */
    CAROM_COLLECT_MOVES_B = 4,     /* and its second */
    CAROM_COLLECT_SPECULATIVE = 8, /* its points were all speculative at the narrow phase: the
                                    * solver settles whether it touched (solver.c) */
    CAROM_COLLECT_POINTS_SHIFT = 4, /* the point count, 1 or 2, in bits 4 and 5 */
    CAROM_COLLECT_POINTS = 0x30,
    CAROM_COLLECT_SETTLE = 64,      /* after the solve: speculative, and its touching changes */
    CAROM_COLLECT_RECYCLED = 128    /* its manifold was recycled this step (the touching note) */
};

/* What a constraint's lane needs in a step that refreshes its lanes (contact_solver_lanes.h):
 * all of it filled, or, its manifold recycled, its separations and its approach before the step,
 * or its separations alone when nothing will read the approach: no restitution (the
 * restitution pass skips a lane that cannot bounce) and no hit event shape in the world (the
 * hit events read it). Then the lane is refreshed from the touching note's separations
 * without reading the contact or its bodies' states. */
enum carom_lane_refresh {
    CAROM_REFRESH_NONE = 0,
    CAROM_REFRESH_MOTION = 1,
    CAROM_REFRESH_SEPARATIONS = 2
};

struct carom_solver {
    carom_body_state* states;   /* in state_memory, reused; one rest state at the end */
    unsigned char* state_memory; /* stb_ds byte array: the states from a cache line's start */
    /* per state, the rest state's included: the center's motion this step (m), and the turn */
    carom_vec2* delta_positions;
    carom_body_turn* turns;
    carom_body_motion* motions; /* per moving state */
    carom_state_mass* masses;   /* per state, the rest state's included */
    carom_state_mass* previous_masses; /* the last step's (swapped with masses at the gather) */
    int* state_bodies;          /* body id of each moving state */
    int* body_states;           /* per body id: its state, or -1 (static, asleep, free slot) */
    int moving_count;           /* states before the rest state */

    /* contact constraints (contact_solver.c) */
    int* constraint_contacts;   /* contact id of each constraint, ascending */
    unsigned char* constraint_points; /* its point count, 1 or 2 */
    int* state_a;               /* the states of each constraint's bodies (rest state if none) */
    int* state_b;
    int* moving_a;              /* the state each constraint may move, or -1 (colouring input) */
    int* moving_b;
    /* The colouring's and the layout's inputs of the last step (moving_a, moving_b,
     * constraint_points: swapped with those at each collection) and the lane width of the
     * layout kept from it (its colours, slots, color_start and group_count); layout_lanes 0:
     * none kept (contact_solver.c). */
    int* previous_moving_a;
    int* previous_moving_b;
    unsigned char* previous_points;
    int layout_lanes;
    /* What else the lanes' refresh needs to be the same as the last step's (constraint_contacts,
     * state_a, state_b: swapped likewise), whether this step refreshes (contact_solver.c), and
     * per constraint what its lane needs if it does (carom_lane_refresh, from its manifold's
     * recycling): a recycled constraint of a refreshing step keeps its lane but for what the
     * recycling changed, its separations (two a constraint, rounded as the lanes hold them; set
     * for CAROM_REFRESH_SEPARATIONS only). approach_read: a shape of the world asks for hit
     * events, which read every lane's approach; set before the collection. */
    int* previous_contacts;
    int* previous_state_a;
    int* previous_state_b;
    bool refresh_lanes;
    bool approach_read;
    unsigned char* constraint_refresh;
    float* constraint_separations;
    int* constraint_colors;     /* colour of each constraint */
    /* the running sum of the colours' sizes, the overflow (CAROM_OVERFLOW_COLOR) last: colour c
     * holds color_start[c + 1] - color_start[c] constraints */
    int color_start[CAROM_GRAPH_COLORS + 2];
    int* constraint_slots;      /* where each lives: group * lanes + lane, or -1 - overflow index */
    carom_constraint_graph graph;
    const carom_contact_kernel* kernel; /* the width this step's groups were laid out for */
    unsigned char* group_memory;        /* stb_ds byte array holding both group arrays */
    void* groups;                       /* coloured groups, colour after colour */
    int group_count;
    void* overflow; /* width-1 groups of the constraints that found no colour */
    int overflow_count;
    double* colds;          /* the cold group of each coloured group (contact_solver.h) */
    double* overflow_colds; /* and of each overflow group */
    /* the contact id of each lane, for the store: the overflow's groups first, then the
     * coloured groups' slots (carom_lane_contact); a padding lane's is left as it was */
    int* lane_contacts;
    /* scratch of the collection and layout on the workers (contact_solver.c) */
    unsigned char* collect_flags; /* per touching contact: carom_collect_flag bits, and its
                                   * point count from bit CAROM_COLLECT_POINTS_SHIFT */
    int* collect_states;          /* per touching contact: its bodies' two states */
    int* collect_offsets;         /* per block of the collection: its first constraint */
    int* layout_places;           /* per block and key of the layout: counts, then first places */
    uint64_t region_scale;        /* the layout's regions of the states (contact_solver.c) */

    /* the parallel passes (solver.c) */
    int color_groups[CAROM_GRAPH_COLORS + 1]; /* each colour's first group, and the end */
    double h, dt;                             /* this step's substep and step (s) */
    /* per moving state: what is left of its proxies' moves (move_proxies) */
    unsigned char* proxy_rests;
    int* moved_shapes;          /* per moving state: its body's shape, if it has only one */
    unsigned char* shape_rests; /* per shape id: what is left of its proxy's move */
};

/* One constraint's lane: its group, the group's width, and which lane. */
typedef struct carom_lane_writer {
    void* group;
    double* cold; /* the group's cold group */
    int lanes;
    int lane;
} carom_lane_writer;

/* The lane of a constraint's slot in groups of `lanes` (a power of two): group * lanes + lane in
 * the coloured groups, or -1 - index in the overflow's width-1 groups. The group is a shift of
 * the slot, where a division by a width the compiler does not know was one per constraint in
 * the fill and two in the store; the kernels pass their own width, a constant. */
static inline carom_lane_writer carom_slot_lane(const carom_solver* solver, int slot, int lanes) {
    if (slot >= 0) {
        size_t group = (size_t)(slot >> __builtin_ctz((unsigned)lanes));
        carom_lane_writer w = {
            (unsigned char*)solver->groups + carom_contact_group_size(lanes) * group,
            solver->colds + group * CAROM_CC_COUNT * (size_t)lanes, lanes, slot & (lanes - 1)};
        return w;
    }
    size_t group = (size_t)(-1 - slot);
    carom_lane_writer w = {(unsigned char*)solver->overflow + carom_contact_group_size(1) * group,
                           solver->overflow_colds + group * CAROM_CC_COUNT, 1, 0};
    return w;
}

/* Where a slot's contact id is kept in the solver's lane_contacts. */
static inline int carom_lane_contact(const carom_solver* solver, int slot) {
    return slot >= 0 ? solver->overflow_count + slot : -1 - slot;
}

void carom_solver_destroy(carom_solver* solver);
/* Advance every non-static body by dt: velocities, contacts, positions, shape bounds. */
void carom_solver_step(carom_world* world, double dt);

#endif
