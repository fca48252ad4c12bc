/* carom: definition structs and their default constructors.
 *
 * Creation takes a def, not a list of parameters. Always start from the carom_default_*_def()
 * function: zero is a real value for many fields (friction, damping, gravity), so a zeroed struct
 * is not "the defaults", and creation refuses a def the constructor did not make
 * (CAROM_ERROR_INVALID_DEF). Defs are temporaries: the engine copies what it needs. */
#ifndef CAROM_TYPES_H
#define CAROM_TYPES_H

#include "base.h"
#include "collision.h"
#include "math.h"

/* How a body moves. */
typedef enum carom_body_type {
    CAROM_BODY_STATIC = 0,    /* never moves; infinite mass */
    CAROM_BODY_KINEMATIC = 1, /* moves with the velocity you give it; infinite mass */
    CAROM_BODY_DYNAMIC = 2    /* moved by gravity, forces and contacts; needs positive mass */
} carom_body_type;

typedef enum carom_shape_type {
    CAROM_SHAPE_CIRCLE = 0,
    CAROM_SHAPE_POLYGON = 1, /* boxes are polygons */
    CAROM_SHAPE_SEGMENT = 2,
    CAROM_SHAPE_CHAIN_SEGMENT = 3, /* one segment of a chain (carom_create_chain) */
    CAROM_SHAPE_CAPSULE = 4 /* carom_create_capsule_shape; a rounded polygon is a POLYGON */
} carom_shape_type;

/* The smallest grid cell a world accepts (m). Fat boxes are rounded to 1/32 m, so smaller
 * cells buy nothing, and a cell too small for its inverse to be finite cannot be used at all. */
#define CAROM_MIN_CELL_SIZE 1e-3

/* The default bound on a world's contacts (carom_world_def.max_contacts). Touching contacts take
 * about 800 bytes each while a step runs, so a million is about 0.8 GB; the largest benchmark
 * scene (16,000 circles raining into a box) has at most 65,000. */
#define CAROM_DEFAULT_MAX_CONTACTS 1000000

/* ---- Threads: who runs a step's parallel work (docs/threads.md) ---------------------------- */

/* The most workers a world steps with (carom_world_def.worker_count). */
#define CAROM_MAX_WORKERS 64

/* A piece of a step's work: items [begin, end) of a task, run as worker `worker`
 * (0 <= worker < the world's worker_count). carom passes its own task_context back unchanged.
 * The items of a task are independent: any split into ranges, run in any order on any
 * threads, gives the same bits. */
typedef void carom_task_fn(int begin, int end, int worker, void* task_context);

/* Your job system's side of a task, as in Box2D v3: enqueue_task arranges for `task` to be
 * called over ranges that together cover items [0, item_count) exactly once, ranges of about
 * min_range items or more (a hint), each call with a worker index in [0, worker_count) that no
 * other call running at the same time has. It may return before they ran, with a handle of
 * yours that carom then passes to finish_task, which must return only once every range has
 * run; or it may run them all itself and return NULL, and finish_task is not called. carom
 * finishes each task before it enqueues the next, calls both from the thread that calls into
 * the world (a step, or a query bringing the world's lists up to date), and passes
 * user_task_context (carom_world_def) to both as user_context. */
typedef void* carom_enqueue_task_fn(carom_task_fn* task, int item_count, int min_range,
                                    void* task_context, void* user_context);
typedef void carom_finish_task_fn(void* user_task, void* user_context);

typedef struct carom_world_def {
    carom_vec2 gravity;                /* m/s², default (0, -10) */
    int substeps;                      /* solver substeps per step, 1..64, default 4 */
    double cell_size;                  /* broad-phase grid cell edge (m), at least
                                          CAROM_MIN_CELL_SIZE, or 0 = the engine chooses from
                                          the shapes present at the first step; default 0 */
    double restitution_threshold;      /* approach speed (m/s, >= 0) below which contacts do not
                                          bounce, default 1 */
    double contact_hertz;              /* stiffness of contact position correction (Hz, > 0),
                                          default 35; capped at a quarter of the substep rate,
                                          twice as stiff (within the cap) against a body that
                                          does not move. A resting stack sags by about
                                          2 g / (2 pi hertz)^2 per box it carries: 0.4 mm at
                                          35 Hz (docs/solver.md has the measured table) */
    double contact_damping_ratio;      /* damping of that correction (>= 0), default 10 */
    double contact_push_max_velocity;  /* fastest speed (m/s, > 0) at which overlapping bodies
                                          are pushed apart, default 3 */
    double contact_slop;               /* penetration (m, >= 0) left uncorrected, default 0:
                                          soft contacts rest without jitter, so none is needed */
    int enable_continuous;             /* non-zero: fast bodies are swept so they cannot pass
                                          through static or kinematic shapes (and bullets
                                          through any), default 1 */
    int enable_sleep;                  /* non-zero: resting islands of bodies sleep, default 1 */
    double sleep_linear_threshold;     /* a body is resting while its farthest point moves
                                          slower than this: its center's speed plus its spin
                                          times its extent (m/s, >= 0), default 0.05 */
    double sleep_angular_threshold;    /* > 0: ...and it turns slower than this (rad/s);
                                          0: no limit on spin beyond the linear test (the
                                          default, as in Box2D v3); >= 0 */
    double time_to_sleep;              /* an island sleeps once all its bodies have rested this
                                          long (s, > 0), default 0.5 */
    double speculative_distance;       /* contact points are kept while the gap is at most this
                                          (m, >= 0) plus how far the pair can close in one step
                                          (at most 0.1 m more), default 0.02 */
    double contact_recycle_distance;   /* a contact keeps its manifold, its points following the
                                          bodies, while the two bodies have moved relative to
                                          each other less than this since it was made (m, >= 0;
                                          0: every manifold is made afresh each step). Saves the
                                          separating axis test in resting piles. default 0.01 */
    double joint_hertz;                /* stiffness with which joints pull their bodies back
                                          together (Hz, > 0), default 60; capped, like
                                          contact_hertz, at a quarter of the substep rate (60 Hz
                                          at the defaults). Joints are soft constraints: a joint
                                          carrying a load stretches by about
                                          load / (effective mass (2 pi hertz)^2) */
    double joint_damping_ratio;        /* damping of that correction (>= 0), default 2 */
    int max_contacts;                  /* at most this many contacts (pairs of shapes whose
                                          fattened boxes overlap) exist at once, >= 1, default
                                          CAROM_DEFAULT_MAX_CONTACTS. A step that would make
                                          more is refused with CAROM_ERROR_TOO_MANY_CONTACTS
                                          and changes nothing, rather than let a dense pile take
                                          all memory. A resource limit, not part of the scene:
                                          snapshots do not store it */
    /* Threads (docs/threads.md). The bits of a step never depend on them. */
    int worker_count;                    /* workers a step may use, 1..CAROM_MAX_WORKERS, default
                                            1 (the calling thread only). Above 1 without the
                                            callbacks below, the world starts worker_count - 1
                                            threads of its own (pthreads; a build without them,
                                            such as WebAssembly, steps on the calling thread) */
    carom_enqueue_task_fn* enqueue_task; /* your job system, or NULL (default); set both or */
    carom_finish_task_fn* finish_task;   /* neither */
    void* user_task_context;             /* passed to both; carom never reads it, default NULL */
    int internal_cookie; /* set by carom_default_world_def(); do not touch */
} carom_world_def;

typedef struct carom_body_def {
    carom_body_type type;       /* default CAROM_BODY_STATIC */
    carom_vec2 position;        /* world position of the body origin (m), default (0, 0) */
    double angle;               /* rotation (rad), default 0 */
    carom_vec2 linear_velocity; /* of the center of mass, world frame (m/s), default (0, 0) */
    double angular_velocity;    /* rad/s, counter-clockwise positive, default 0 */
    double linear_damping;      /* >= 0, per second: each substep of length h does
                                   v *= 1 / (1 + h * damping), default 0 */
    double angular_damping;     /* >= 0, per second, default 0 */
    double gravity_scale;       /* multiplies the world gravity for this body, default 1 */
    int bullet;                 /* non-zero: when fast, the body is also swept against dynamic
                                   bodies (bullets included), not only static and kinematic
                                   ones. For projectiles and racing cars. default 0 */
    int enable_sleep;           /* 0: this body never sleeps, nor does anything touching it,
                                   default 1 */
    int awake;                  /* 0: a dynamic body is created asleep (with zero velocity and
                                   sleep enabled), as the bodies of a level that waits to be
                                   hit: it costs nothing until something awake touches it, and
                                   adding shapes to it leaves it asleep. Static and kinematic
                                   bodies are never asleep. default 1 */
    void* user_data;            /* yours; carom never reads it, default NULL */
    int internal_cookie;        /* set by carom_default_body_def(); do not touch */
} carom_body_def;

/* Which shapes may collide: two shapes collide when each one's category is in the other's mask,
 * unless they share a group: a positive shared group always collides, a negative one never. */
typedef struct carom_filter {
    uint64_t category; /* the bits this shape is, default 1 */
    uint64_t mask;     /* the bits it collides with, default all */
    int32_t group;     /* default 0: no group */
} carom_filter;

/* The smallest non-zero density (kg/m²). With the smallest shapes (CAROM_MIN_RADIUS,
 * CAROM_MIN_BOX_HALF_EXTENT, polygons' CAROM_POLYGON_WELD_TOLERANCE) it keeps a body's mass above
 * 3e-12 kg, so that the largest forces carom accepts (CAROM_MAX_MAGNITUDE) cannot overflow a
 * step. */
#define CAROM_MIN_DENSITY 1e-6

typedef struct carom_shape_def {
    double density;     /* kg/m², 0 or at least CAROM_MIN_DENSITY, default 1 */
    double friction;    /* Coulomb coefficient, >= 0, default 0.6. A pair uses the geometric mean
                           sqrt(friction_a * friction_b) */
    double restitution; /* 0..1, default 0. A pair uses the larger of the two */
    carom_filter filter;
    int is_sensor;   /* non-zero: the shape detects overlaps but never pushes, default 0. Sensors
                        report enter and exit events (carom_world_get_sensor_events) and do not
                        detect other sensors */
    int enable_hit_events;   /* non-zero: contacts of this shape report hit events, default 0 */
    int enable_contact_events; /* non-zero: contacts of this shape report when they begin and
                                  end touching (carom_world_get_contact_events), default 1; a
                                  contact reports them if either of its shapes does, or has hit
                                  events (so every hit has its begin). 0 saves the events' work
                                  where a pile makes or ends thousands of contacts a step (Box2D
                                  v3's enableContactEvents, 0 by default there). Sensors' events
                                  do not depend on it */
    double hit_speed_threshold; /* approach speed (m/s, >= 0) above which a hit is reported,
                                   default 1; a pair uses the lower of its shapes' that report */
    double surface_grip; /* sensors only: tyre grip multiplier of the ground this sensor marks,
                            read by vehicles (vehicle.h) whose wheels are inside it; >= 0,
                            default 1 (tarmac). Grass is about 0.6, ice 0.1 */
    int one_sided;   /* chains only: non-zero makes each segment solid on its right side only
                        (looking from a point to the next; for a loop wound counter-clockwise,
                        the outside); bodies pass through from the left. default 0 */
    void* user_data; /* yours, default NULL */
    int internal_cookie;
} carom_shape_def;

#ifdef __cplusplus
extern "C" {
#endif

CAROM_API carom_world_def carom_default_world_def(void);
CAROM_API carom_body_def carom_default_body_def(void);
CAROM_API carom_shape_def carom_default_shape_def(void);
CAROM_API carom_filter carom_default_filter(void);

#ifdef __cplusplus
}
#endif

#endif
