/* Contact constraints in lanes: the layout the solver prepares and the kernels that solve it.
 *
 * The solver (solver.c) colours the contact constraints (constraint_graph.c) so that no two
 * constraints of one colour move the same body, and lays each colour out in groups of `lanes`
 * constraints, structure of arrays: a group holds, for every field below, `lanes` doubles side
 * by side, then the constraints' body state indices and flags. A kernel solves a whole group at
 * once, one constraint per lane, with lane values of that width (lanes.h). The kernels are one
 * source, contact_solver_lanes.h, compiled once per width (contact_solver_lanes1.c ... 8.c, the
 * wider ones for the instruction sets that have them); carom_contact_kernel_chosen() picks the
 * widest this machine runs, unless carom_set_solver_lanes() asked for another. Whatever the
 * width, every lane does the same operations on its own constraint, so the bits of a step never
 * depend on it (tests/test_contact_solver.c steps the same worlds at every width and compares
 * them).
 *
 * Constraints that found no colour (the overflow: a body in more constraints than there are
 * colours) are laid out one per group of width 1 and solved one after the other, before the
 * colours, by the width-1 kernel. */
#ifndef CAROM_CONTACT_SOLVER_H
#define CAROM_CONTACT_SOLVER_H

#include "carom/carom.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct carom_body_state carom_body_state;

/* The inverse mass and rotational inertia of a solver state: 0 for kinematic bodies and the rest
 * state, which constraints read but never move. */
typedef struct carom_state_mass {
    double inv_mass, inv_inertia;
} carom_state_mass;

/* The fields of a constraint, each stored as `lanes` consecutive values in its group. A
 * group's size is what every pass streams through the caches (a pile of tens of thousands of
 * contacts does not fit in them), so it holds only what the substep loops read, in the order
 * of how many passes read it: first what the warm start reads too, then what only the solve
 * and relax passes read, so that the warm start streams a group's first lines and stops. A
 * point's fields come in runs, carom_contact_point_field() and carom_contact_point_float()
 * find them. Whether a lane may use the 2x2 block, whether it has a second point and whether a
 * point pushed are bits of the lane's flags (below); the block's matrix, which only lanes whose
 * points are alike read (few, in a pile), and what only restitution and the hit events read are
 * in a group of their own (the cold fields).
 *
 * Each field is stored as a double or as a float; the kernels compute in double either way (a
 * float field is widened exactly when read, and rounded to the nearest float when written:
 * lanes.h's lane_load_float, the same operation at every width). What is stored as a float,
 * and why (the physics tests decide: tests/test_solver.c, test_stacking.c, test_joint*.c,
 * test_continuous*.c, test_extreme.c pass with these in floats):
 * - the normal, the anchors, the base separation and the friction: geometry and a coefficient,
 *   within a float's range at every scale carom accepts (CAROM_MAX_MAGNITUDE, base.h), and 24
 *   bits of them (6e-8 of a lever arm, of a depth) are far below the slop and the springs;
 * - the tangent masses: a friction impulse is clamped to the cone anyway, and a mass ratio's
 *   extreme range (below) only rounds a tangent mass too small to matter to 0 (no friction);
 * and what stays a double:
 * - the inverse masses and inertias: an inertia reaches 1e60 (CAROM_MAX_MAGNITUDE's densities
 *   and sizes), beyond a float, and a zero says the body does not move;
 * - the accumulated impulses: a mass times a speed reaches 1e48, beyond a float (stored as
 *   floats, test_extreme.c's random extreme worlds went non-finite, 280 of 1,500);
 * - the normal masses: the bounce (restitution) is solved with them, and in floats the
 *   elastic collision of two balls missed the textbook velocities by 2e-8, where
 *   tests/test_solver.c asks for 1e-9. */
enum carom_contact_field {
    /* read by the warm start, the solve and the relax passes */
    CAROM_CF_INV_MASS_A,
    CAROM_CF_INV_INERTIA_A,
    CAROM_CF_INV_MASS_B,
    CAROM_CF_INV_INERTIA_B,
    CAROM_CF_WARM_POINT1, /* the first point's warm start doubles; the second's
                             CAROM_CF_WARM_POINT_STRIDE on */
    CAROM_CF_NORMAL_IMPULSE = CAROM_CF_WARM_POINT1, /* accumulated (N s) */
    CAROM_CF_TANGENT_IMPULSE,
    CAROM_CF_WARM_POINT_END,
    CAROM_CF_WARM_POINT_STRIDE = CAROM_CF_WARM_POINT_END - CAROM_CF_WARM_POINT1,
    CAROM_CF_WARM_COUNT = CAROM_CF_WARM_POINT1 + 2 * CAROM_CF_WARM_POINT_STRIDE,
    /* read by the solve and relax passes only */
    CAROM_CF_SOLVE_POINT1 = CAROM_CF_WARM_COUNT, /* the first point's other doubles; the
                                                    second's CAROM_CF_SOLVE_POINT_STRIDE on */
    CAROM_CF_NORMAL_MASS = CAROM_CF_SOLVE_POINT1,
    CAROM_CF_SOLVE_POINT_END,
    CAROM_CF_SOLVE_POINT_STRIDE = CAROM_CF_SOLVE_POINT_END - CAROM_CF_SOLVE_POINT1,
    CAROM_CF_COUNT = CAROM_CF_SOLVE_POINT1 + 2 * CAROM_CF_SOLVE_POINT_STRIDE
};

/* The float fields, in the same two parts. */
enum carom_contact_float_field {
    /* read by the warm start, the solve and the relax passes */
    CAROM_CFF_NORMAL_X,
    CAROM_CFF_NORMAL_Y,
    CAROM_CFF_WARM_POINT1, /* the first point's warm start floats; the second's
                              CAROM_CFF_WARM_POINT_STRIDE on */
    CAROM_CFF_ANCHOR_A_X = CAROM_CFF_WARM_POINT1, /* point relative to A's center of mass,
                                                     world frame */
    CAROM_CFF_ANCHOR_A_Y,
    CAROM_CFF_ANCHOR_B_X,
    CAROM_CFF_ANCHOR_B_Y,
    CAROM_CFF_WARM_POINT_END,
    CAROM_CFF_WARM_POINT_STRIDE = CAROM_CFF_WARM_POINT_END - CAROM_CFF_WARM_POINT1,
    CAROM_CFF_WARM_COUNT = CAROM_CFF_WARM_POINT1 + 2 * CAROM_CFF_WARM_POINT_STRIDE,
    /* read by the solve and relax passes only */
    CAROM_CFF_FRICTION = CAROM_CFF_WARM_COUNT,
    CAROM_CFF_SOLVE_POINT1, /* the first point's other floats; the second's
                               CAROM_CFF_SOLVE_POINT_STRIDE on */
    CAROM_CFF_BASE_SEPARATION = CAROM_CFF_SOLVE_POINT1, /* at the start of the step (m) */
    CAROM_CFF_TANGENT_MASS,
    CAROM_CFF_SOLVE_POINT_END,
    CAROM_CFF_SOLVE_POINT_STRIDE = CAROM_CFF_SOLVE_POINT_END - CAROM_CFF_SOLVE_POINT1,
    CAROM_CFF_COUNT = CAROM_CFF_SOLVE_POINT1 + 2 * CAROM_CFF_SOLVE_POINT_STRIDE
};

/* The solve's doubles, after all floats but the first, start on 8 bytes a lane, so that each
 * double field of a group of 8 lanes fills one cache line. */
_Static_assert((CAROM_CFF_COUNT - 1) % 2 == 0, "the floats after the first end on 8 bytes");

/* The field of point 0 or 1 whose first point's field is `field` (a point field above). */
static inline int carom_contact_point_field(int field, int point) {
    return field + point * (field < CAROM_CF_WARM_COUNT ? CAROM_CF_WARM_POINT_STRIDE
                                                        : CAROM_CF_SOLVE_POINT_STRIDE);
}

static inline int carom_contact_point_float(int field, int point) {
    return field + point * (field < CAROM_CFF_WARM_COUNT ? CAROM_CFF_WARM_POINT_STRIDE
                                                         : CAROM_CFF_SOLVE_POINT_STRIDE);
}

/* Where a field starts in a group of `lanes`, in bytes: the ints (below) and the first float
 * (the normal's x), the warm start's doubles, the other floats (the warm start's, then the
 * solve's), the solve's doubles. */
static inline size_t carom_contact_field_offset(int lanes, int field);
static inline size_t carom_contact_float_offset(int lanes, int field);

/* The cold fields: each group has a cold group beside it, in an array of their own in the same
 * order, with `lanes` doubles of each. They stay doubles: the bounce is worked out from all of
 * them (the elastic collision tests ask for 1e-9), and they are read once a step, in the
 * restitution pass, so floats would save little streaming. */
enum carom_contact_cold_field {
    CAROM_CC_RESTITUTION,
    CAROM_CC_RELATIVE_VELOCITY1, /* normal approach velocity before the step (m/s), per point */
    CAROM_CC_RELATIVE_VELOCITY2,
    /* the block's inverse normal mass matrix; 0 where CAROM_CF_BLOCK is not set */
    CAROM_CC_INV_K11,
    CAROM_CC_INV_K12,
    CAROM_CC_INV_K22,
    CAROM_CC_COUNT
};

/* Bytes of one cold group of `lanes` constraints. */
static inline size_t carom_contact_cold_size(int lanes) {
    return (size_t)lanes * CAROM_CC_COUNT * sizeof(double);
}

/* Per-lane flags. CAROM_CF_WRITE_A and _B: which of the two bodies the constraint may change.
 * Static and kinematic bodies are read (a kinematic body's velocity matters) but never written,
 * so lanes of one colour may share them. A padding lane has no flag and all-zero fields: it
 * moves nothing. CAROM_CF_BLOCK: both normal impulses may be solved together (the 2x2 block).
 * CAROM_CF_PUSHED1 and _2 (CAROM_CF_PUSHED1 << point): a normal impulse of the step at that
 * point was positive, i.e. the point pushed (restitution, hit events, touching).
 * CAROM_CF_SECOND: the second point has a normal mass, i.e. is solved (a missing one has none).
 * CAROM_CF_TWO_POINTS: the contact has two points (the preparation's; CAROM_CF_SECOND, the
 * masses and CAROM_CF_BLOCK are worked out from it and the fields in the step's first warm
 * start). CAROM_CF_FILLED: the lane was filled this step, so its group's masses are worked out
 * in that warm start (a group whose lanes were all refreshed keeps the last step's, worked out
 * from the same fields: contact_solver_lanes.h). */
enum {
    CAROM_CF_WRITE_A = 1,
    CAROM_CF_WRITE_B = 2,
    CAROM_CF_BLOCK = 4,
    CAROM_CF_PUSHED1 = 8,
    CAROM_CF_PUSHED2 = 16,
    CAROM_CF_SECOND = 32,
    CAROM_CF_TWO_POINTS = 64,
    CAROM_CF_FILLED = 128
};

/* A group of `lanes` constraints: first three int32 per lane (state A, state B, flags) and the
 * first float field, 16 bytes a lane, so that the doubles after them start on 16 bytes a lane;
 * then the fields (above), rounded up to 64 bytes so every group starts on a cache line. A group
 * of 8 lanes is 19 lines (which of the world's contacts each lane's is, needed only by the store,
 * is kept beside the groups: carom_solver's lane_contacts; in the group it made them 20). The
 * ints come first because every pass reads them: the warm start then reads one run of lines
 * from a group's start. A state is named by where it starts in the solver's states array, in
 * doubles (4 a state), as an unsigned 32-bit number: so a step moves at most 2^29 bodies
 * (CAROM_MAX_BODIES). */
enum { CAROM_CI_STATE_A, CAROM_CI_STATE_B, CAROM_CI_FLAGS, CAROM_CI_COUNT };

_Static_assert(CAROM_CFF_NORMAL_X == 0, "the normal's x is the float beside the ints");

/* Bytes a lane before the warm start's doubles: the ints and the first float. */
#define CAROM_CONTACT_HEAD_BYTES (CAROM_CI_COUNT * sizeof(int32_t) + sizeof(float))
_Static_assert(CAROM_CONTACT_HEAD_BYTES % 16 == 0, "the doubles start on 16 bytes a lane");

static inline size_t carom_contact_field_offset(int lanes, int field) {
    size_t n = (size_t)lanes;
    size_t start = CAROM_CONTACT_HEAD_BYTES * n;
    if (field < CAROM_CF_WARM_COUNT) {
        return start + (size_t)field * sizeof(double) * n;
    }
    return start + (CAROM_CFF_COUNT - 1) * sizeof(float) * n + (size_t)field * sizeof(double) * n;
}

static inline size_t carom_contact_float_offset(int lanes, int field) {
    size_t n = (size_t)lanes;
    if (field == 0) {
        return CAROM_CI_COUNT * sizeof(int32_t) * n;
    }
    return CAROM_CONTACT_HEAD_BYTES * n + CAROM_CF_WARM_COUNT * sizeof(double) * n +
           (size_t)(field - 1) * sizeof(float) * n;
}

/* Bytes of one group of `lanes` constraints. */
static inline size_t carom_contact_group_size(int lanes) {
    size_t bytes =
        (size_t)lanes * (CAROM_CI_COUNT * sizeof(int32_t) + CAROM_CF_COUNT * sizeof(double) +
                         CAROM_CFF_COUNT * sizeof(float));
    return (bytes + 63) & ~(size_t)63;
}

/* The int32 arrays at the start of a group: state A, state B and flags, `lanes` each. */
static inline int32_t* carom_contact_ints(void* group, int lanes) {
    (void)lanes;
    return (int32_t*)group;
}

/* A double field of lane `lane` in a group of `lanes`, and a float field. */
static inline double* carom_contact_field(void* group, int lanes, int field, int lane) {
    return (double*)((unsigned char*)group + carom_contact_field_offset(lanes, field)) + lane;
}

static inline float* carom_contact_float(void* group, int lanes, int field, int lane) {
    return (float*)((unsigned char*)group + carom_contact_float_offset(lanes, field)) + lane;
}

/* The settings of one pass over the constraints. */
/* A soft constraint: a spring and damper expressed per substep (Catto, Solver2D, 2024);
 * carom_make_softness (solver.h) makes one. */
typedef struct carom_softness {
    double bias_rate;     /* 1/s: fraction of the separation corrected per second */
    double mass_scale;    /* scales the effective mass */
    double impulse_scale; /* leaks the accumulated impulse */
} carom_softness;

typedef struct carom_solve_settings {
    double inv_h;    /* 1 / substep (1/s) */
    double slop;     /* penetration left alone (m) */
    double max_push; /* fastest push-out (m/s) */
    int flip;        /* a tie in depth between a manifold's points: the second goes first */
    /* the contact springs (carom_contact_solver_prepare): between two moving bodies, and
     * against one that does not move (a lane whose A or B has no inverse mass) */
    carom_softness soft, static_soft;
} carom_solve_settings;

typedef struct carom_contact carom_contact;
typedef struct carom_solver carom_solver;

/* What one constraint is made from. */
typedef struct carom_contact_input {
    const carom_contact* contact;
    int state_a, state_b;           /* the states of its bodies (the rest state if none) */
    const carom_body_state* body_a; /* those states, at the start of the step */
    const carom_body_state* body_b;
    carom_state_mass mass_a, mass_b;   /* 0 for bodies the constraint only reads */
} carom_contact_input;

/* The loops of one width: over `count` consecutive groups, or one lane. */
typedef struct carom_contact_kernel {
    int lanes;
    /* Write a constraint into lane `lane` of `group` and of its cold group. */
    void (*prepare)(void* group, double* cold, int lane, const carom_contact_input* input);
    /* Write the solver's constraints [begin, end) (constraint order) from `contacts` (the
     * world's, by id) into their slots: the coloured ones into groups of this width, the
     * overflow's into width 1 (carom_contact_kernel_lanes1's prepare). */
    void (*fill)(carom_solver* solver, const carom_contact* contacts, int begin, int end);
    /* Zero lane `lane` of `group` and of its cold group: a padding lane, which moves nothing. */
    void (*clear)(void* group, double* cold, int lane);
    /* Apply the accumulated impulses (the start of a substep). With `finish`, in the step's
     * first warm start, first work out what the preparation left to be done a group at a time
     * (the effective masses, the block: contact_solver_lanes.h), into the groups and `colds`,
     * their cold groups. */
    void (*warm_start)(void* groups, double* colds, int count, carom_body_state* states,
                       bool finish);
    /* One pass of normal and friction impulses; with use_bias, penetration is pushed out
     * softly, without (the relax pass) only velocities are corrected. `colds` are the groups'
     * cold groups (the block's matrix). one_color: the groups are of one colour, so no two of
     * them move a body in common, and the kernel may solve two at once (the overflow's may
     * share bodies: false). The same bits either way. */
    void (*solve)(void* groups, const double* colds, int count, carom_body_state* states,
                  const carom_vec2* delta_positions, const carom_solve_settings* settings,
                  bool use_bias, bool one_color);
    /* Bounce points that approached faster than threshold (m/s) and pushed; `colds` are the
     * groups' cold groups. */
    void (*restitution)(void* groups, const double* colds, int count, carom_body_state* states,
                        double threshold);
} carom_contact_kernel;

extern const carom_contact_kernel carom_contact_kernel_lanes1;
extern const carom_contact_kernel carom_contact_kernel_lanes2;
#if defined(CAROM_HAVE_LANES4)
extern const carom_contact_kernel carom_contact_kernel_lanes4;
#endif
#if defined(CAROM_HAVE_LANES8)
extern const carom_contact_kernel carom_contact_kernel_lanes8;
#endif

/* The kernel a step uses: the one asked for with carom_set_solver_lanes(), else the widest this
 * machine runs (contact_solver.c). */
const carom_contact_kernel* carom_contact_kernel_chosen(void);

typedef struct carom_world carom_world;

/* The contacts with points become constraints, coloured and laid out for the current kernel,
 * for substeps of h seconds; the contact springs go into *settings. Needs the solver's body
 * states (gathered first). Then carom_contact_solver_fill writes constraints [begin, end) into
 * their lanes: every constraint once, ranges in any order or at the same time. */
void carom_contact_solver_prepare(carom_world* world, double h, carom_solve_settings* settings);
void carom_contact_solver_fill(carom_world* world, int begin, int end);
/* No constraints this step, in place of carom_contact_solver_prepare when the solver moves no
 * body (and the narrow phase listed no contact): nothing of an earlier step is left to read. */
void carom_contact_solver_clear(carom_world* world);
/* The warm start; `first`: the step's first, which finishes the preparation. */
void carom_contact_solver_warm_start(carom_world* world, bool first);
void carom_contact_solver_restitution(carom_world* world);
/* Copy the accumulated impulses of groups [begin, end) back into their contacts, for the next
 * step's warm start: the overflow's groups first (0 to overflow_count - 1), then the coloured
 * ones. Ranges may run at the same time. Group by group, so that the lanes are read in order
 * and the contacts written wherever they are: stores do not wait for their lines as loads do.
 * In contact order (the lanes read wherever they were) it took 5.7 % of many_pyramids'
 * samples, group by group 3.3 to 3.9 %. */
void carom_contact_solver_store(carom_world* world, int begin, int end);

/* A point of constraint i (in the solver's constraint_contacts order) after the solve. */
typedef struct carom_constraint_point_result {
    double normal_impulse, tangent_impulse; /* accumulated (N s) */
    double approach_velocity;               /* normal relative velocity before the step (m/s) */
    bool pushed;                            /* a normal impulse of the step was positive */
} carom_constraint_point_result;
carom_constraint_point_result carom_contact_solver_point(const carom_world* world, int constraint,
                                                         int point);
/* After the solve, on the workers: mark CAROM_COLLECT_SETTLE (solver.h) on each touching
 * contact whose points were all speculative and whose touching the solve changed (it touched
 * if the solver pushed at one of its points). Reads the contacts, writes only the marks. */
void carom_contact_solver_mark_settled(carom_world* world);
void carom_contact_solver_destroy(carom_solver* solver);

#endif
