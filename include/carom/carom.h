/* carom: a deterministic 2D rigid-body physics engine. This umbrella header is the whole API.
 *
 * Ownership: a world owns its bodies, a body owns its shapes; destroying the owner destroys what
 * it owns. Everything is addressed by id (id.h); pointers you pass are only read during the call.
 * Errors: fallible functions return a carom_status, creators return a null id on failure, and
 * carom_last_error() says what was wrong. On failure nothing changes.
 * Threads: different worlds may be used from different threads at once; one world must not be
 * used from two threads at once (destroying it counts as using it). Creating and destroying
 * worlds, and resolving any id (every call that takes one, the carom_*_is_valid functions
 * included), are safe on any thread at any time: an id of a destroyed world stays invalid
 * even while other threads create worlds in its slot. */
#ifndef CAROM_CAROM_H
#define CAROM_CAROM_H

#include "base.h"
#include "collision.h"
#include "id.h"
#include "joint.h"
#include "math.h"
#include "types.h"
#include "snapshot.h"
#include "vehicle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- World ------------------------------------------------------------------------------ */

/* At most this many worlds exist at once. Over the life of a process, each of these slots
 * serves 65,535 worlds and is then retired, so that no world id is ever valid twice: after
 * CAROM_MAX_WORLDS * 65,535 (8,388,480) worlds, carom_create_world fails with
 * CAROM_ERROR_TOO_MANY_WORLDS. */
#define CAROM_MAX_WORLDS 128

/* A new empty world. Null id on failure (bad def values, CAROM_MAX_WORLDS already exist, or every
 * free slot is retired). */
CAROM_API carom_world_id carom_create_world(const carom_world_def* def);
/* Destroy a world and everything in it. Its ids become stale. */
CAROM_API carom_status carom_destroy_world(carom_world_id world);
CAROM_API int carom_world_is_valid(carom_world_id world);

/* Advance the world by one fixed step of dt seconds (finite, > 0, at most CAROM_MAX_MAGNITUDE),
 * split into the world's substeps. Refused with CAROM_ERROR_NO_MASS while a dynamic body has no
 * mass. The velocities it leaves are within the speed limits (CAROM_MAX_SPEED, base.h). */
CAROM_API carom_status carom_world_step(carom_world_id world, double dt);

CAROM_API carom_status carom_world_set_gravity(carom_world_id world, carom_vec2 gravity);
CAROM_API carom_vec2 carom_world_get_gravity(carom_world_id world);
/* Substeps per step, 1..64. */
CAROM_API carom_status carom_world_set_substeps(carom_world_id world, int substeps);
CAROM_API int carom_world_get_substeps(carom_world_id world);
/* The broad-phase cell size in use (m); 0 while it is still to be chosen at the first step. */
CAROM_API double carom_world_get_cell_size(carom_world_id world);

typedef struct carom_world_counters {
    int body_count;
    int shape_count;
    int contact_count;       /* shape pairs whose fattened boxes overlap */
    int touching_count;      /* of those, pairs with at least one manifold point */
    int step_count;          /* steps taken since creation */
    int awake_body_count;    /* non-static bodies that are awake (kinematic ones always are) */
    int sleeping_island_count;
} carom_world_counters;
CAROM_API carom_world_counters carom_world_get_counters(carom_world_id world);

/* ---- Body list ------------------------------------------------------------------------ */

/* The ids of the world's live bodies, static ones included, in ascending id order: the order of
 * carom_world_hash, and for a world loaded from a scene file the file's order. For bindings and
 * tools that read or write every body's state at once (the Python package, python/). Writes at
 * most capacity ids to ids (ids may be NULL when capacity is 0, to count) and the number of live
 * bodies to *count, which may exceed capacity: then call again with a larger array. Refused for
 * an invalid world id, a negative capacity, or NULL ids with a positive capacity or NULL count. */
CAROM_API carom_status carom_world_get_body_ids(carom_world_id world, carom_body_id* ids,
                                                int capacity, int* count);

/* Fixed-step helper for games: accumulates real frame time and runs whole steps of dt.
 * Make one with carom_make_fixed_stepper(dt, max_steps_per_frame). */
typedef struct carom_fixed_stepper {
    double dt;               /* the fixed step (s) */
    double accumulator;      /* time not yet stepped (s), in [0, dt) after each advance
                                that took every step it could */
    int max_steps_per_frame; /* at most this many steps per call */
    double dropped_time;     /* total time discarded because a frame needed more steps (s) */
} carom_fixed_stepper;

/* dt finite and > 0; max_steps_per_frame >= 1. */
CAROM_API carom_status carom_make_fixed_stepper(double dt, int max_steps_per_frame,
                                                carom_fixed_stepper* out);
/* Add frame_time (s, finite, >= 0) and take as many whole steps as fit, at most
 * max_steps_per_frame; the time a frame could not use (a long stall) is added to dropped_time
 * rather than carried, so a slow frame cannot snowball. *steps_taken and *alpha (the fraction of
 * a step left over, in [0, 1), for interpolating drawn poses) may be NULL. A stepper whose fields
 * are not what carom_make_fixed_stepper() and this function leave there (dt or
 * max_steps_per_frame out of range, an accumulator or dropped_time that is negative, NaN or
 * infinite) is refused with CAROM_ERROR_OUT_OF_RANGE or CAROM_ERROR_NOT_FINITE and not used:
 * a NaN accumulator would otherwise stop the world from ever stepping again. */
CAROM_API carom_status carom_world_advance(carom_world_id world, carom_fixed_stepper* stepper,
                                           double frame_time, int* steps_taken, double* alpha);

/* Determinism self-test, for an application to check its own build at start-up. Builds a small
 * fixed world through this API (boxes, circles, a polygon, a chain and a segment wall, friction
 * and restitution, an island that falls asleep and is woken, a bullet fast enough for continuous
 * collision), steps it 240 times at 1/60 s, and hashes the bits of every dynamic body's pose and
 * velocities (docs/determinism.md gives the hash). CAROM_OK when the hash equals the one compiled
 * into carom, which every build carom's CI makes reproduces; CAROM_ERROR_DETERMINISM_MISMATCH
 * when it does not (typically the engine was compiled with -ffp-contract=fast, x87 arithmetic
 * or a changed source); any other status if the world could not be built. Takes a few
 * milliseconds, creates and destroys one world of its own, and touches no other. hash_out, if
 * not NULL, receives the hash computed (0 when the world could not be built). */
CAROM_API carom_status carom_determinism_selftest(uint64_t* hash_out);

/* The solver's lane width: how many contact constraints it solves at once with SIMD
 * instructions (1, 2, 4 or 8). By default the widest this build runs on this machine: 8 with
 * AVX-512F, 4 with AVX2 (x86-64 builds), else 2 (SSE2, NEON; pairs of scalar operations where
 * there is no SIMD). Every width gives the same result bits; the setting exists to measure and to test
 * that. 0 restores the default. Process-wide: set it before stepping, not while another thread
 * steps a world. CAROM_ERROR_OUT_OF_RANGE for a width this build or CPU cannot run. */
CAROM_API carom_status carom_set_solver_lanes(int lanes);
CAROM_API int carom_get_solver_lanes(void);

/* The world's state hash: FNV-1a 64 over, for every live body in ascending id order (static
 * bodies included), the IEEE 754 bits of its origin x, y (m), rotation cosine and sine, linear
 * velocity x, y (m/s, of the center of mass) and angular velocity (rad/s), each double fed least
 * significant byte first. Equal hashes mean the same state bit for bit, whatever the build or
 * architecture: compare it between peers for a lockstep desync check (docs/determinism.md).
 * For a world loaded from a scene file, ids follow the file's order, so this is also what
 * `carom run --hash` prints. 0, with CAROM_ERROR_INVALID_ID recorded, for an invalid world id. */
CAROM_API uint64_t carom_world_hash(carom_world_id world);

/* The same state hash over the bodies listed, in the order listed, whatever their type: seven
 * doubles per body as for carom_world_hash, from one running FNV-1a 64. For an application that
 * tracks its own bodies (its players' pieces, the dynamic bodies of a level, bodies of several
 * worlds). Null ids (CAROM_IS_NULL) are skipped, so a destroyed body can be nulled in place;
 * the hash of an empty list is the FNV offset basis 0xcbf29ce484222325. 0, with the status
 * recorded, for a stale or invalid id (CAROM_ERROR_INVALID_ID), bodies NULL with count > 0
 * (CAROM_ERROR_NULL_ARGUMENT) or count < 0 (CAROM_ERROR_OUT_OF_RANGE). */
CAROM_API uint64_t carom_bodies_hash(const carom_body_id* bodies, int count);

/* ---- Events ----------------------------------------------------------------------------- */

/* Two shapes started touching: their closest points came within CAROM_TOUCHING_DISTANCE, or
 * the solver pushed them apart during the step (a glancing blow that begins and ends within one
 * step reports its begin in that step and its end at the next). Every hit event's contact has
 * reported its begin, in that step or before, and reports its end when the shapes part or one
 * is destroyed. Shape A and B are in the contact's order; normals point from A to B. */
typedef struct carom_contact_begin_event {
    carom_shape_id shape_a, shape_b;
    /* The contact's manifold as the step found it, before the solve: its points (world frame,
     * m) with their separations (m; those of a contact the solver closed are positive gaps,
     * up to the speculative distance) */
    carom_manifold manifold;
    double approach_speed; /* how fast the shapes closed at the fastest point along the normal,
                              from the velocities before the solve (m/s; negative when they
                              were already separating) */
} carom_contact_begin_event;

/* Two shapes stopped touching, or a touching shape was destroyed (its id is then stale). */
typedef struct carom_contact_end_event {
    carom_shape_id shape_a, shape_b;
} carom_contact_end_event;

/* Two shapes met faster than their hit threshold (see carom_shape_def.enable_hit_events). */
typedef struct carom_contact_hit_event {
    carom_shape_id shape_a, shape_b;
    carom_vec2 point;      /* world frame (m) */
    carom_vec2 normal;     /* from A to B */
    double approach_speed; /* relative normal speed before the collision (m/s, > 0) */
} carom_contact_hit_event;

/* The contact events of the last step, in a fixed order: by contact in the order contacts were
 * updated, then the begins and ends the solve settled, in contact-id order. The arrays belong to the world and stay valid until the next step, or until a
 * shape or body is destroyed (which may add end events). */
typedef struct carom_contact_events {
    const carom_contact_begin_event* begin_events;
    int begin_count;
    const carom_contact_end_event* end_events;
    int end_count;
    const carom_contact_hit_event* hit_events;
    int hit_count;
} carom_contact_events;

/* A shape started or stopped overlapping a sensor. */
typedef struct carom_sensor_event {
    carom_shape_id sensor;
    carom_shape_id visitor;
} carom_sensor_event;

typedef struct carom_sensor_events {
    const carom_sensor_event* begin_events;
    int begin_count;
    const carom_sensor_event* end_events;
    int end_count;
} carom_sensor_events;

/* Shapes count as touching for events when their closest points are this close (m): soft
 * contacts rest slightly overlapped, speculative points may be a few cm apart. */
#define CAROM_TOUCHING_DISTANCE 0.005

CAROM_API carom_contact_events carom_world_get_contact_events(carom_world_id world);
CAROM_API carom_sensor_events carom_world_get_sensor_events(carom_world_id world);

/* A body the last step moved: its position or rotation changed, or it fell asleep (so a game
 * can move its sprite without scanning every body). Bodies moved by API calls between steps
 * are not reported. */
typedef struct carom_body_move_event {
    carom_body_id body;
    carom_transform transform; /* the body origin's pose after the step (m, rotation) */
    void* user_data;           /* the body's user data */
    int fell_asleep;           /* 1: the body's island fell asleep at the end of this step */
} carom_body_move_event;

/* The body move events of the last step, in ascending body id order. The array belongs to the
 * world and stay valid until the next step (a body destroyed since has a stale id). */
typedef struct carom_body_events {
    const carom_body_move_event* move_events;
    int move_count;
} carom_body_events;

CAROM_API carom_body_events carom_world_get_body_events(carom_world_id world);

/* ---- Queries ---------------------------------------------------------------------------- */

/* Queries see the world as of the end of the last step (or creation). Each takes a filter:
 * a shape is considered when carom_filter rules let the filter and the shape's filter collide
 * (carom_default_filter() sees everything). Results come in a fixed order, never in memory or
 * hash order. Ray casts pass through sensors; overlap queries report them.
 *
 * What a callback may do (these query callbacks and carom_debug_draw's): while it runs, its
 * world is locked. It may read the world: every getter, the carom_*_is_valid functions, counters,
 * events, carom_world_hash, and user data (get and set). Anything that changes the world or
 * reuses its query state is refused with CAROM_ERROR_WORLD_LOCKED and does nothing: destroying
 * the world, creating or destroying bodies, shapes, chains or vehicles, stepping or advancing,
 * setters, forces and impulses, waking, saving or restoring a snapshot, and another query or draw
 * of the same world. Other worlds may be used freely. To act on what a query found, collect the
 * ids in the callback and act after the query returns. A callback must return normally (not
 * longjmp out): the lock is released when the query or draw returns. */

typedef struct carom_ray_result {
    carom_shape_id shape; /* null when nothing was hit */
    carom_vec2 point;     /* world frame (m) */
    carom_vec2 normal;    /* surface normal at the point, facing the ray's origin */
    double fraction;      /* of the translation, in [0, 1] */
    int hit;
} carom_ray_result;

/* The first shape along the ray from origin to origin + translation (m); ties go to the lower
 * shape id. A ray starting inside a shape does not hit that shape. */
CAROM_API carom_ray_result carom_world_cast_ray_closest(carom_world_id world, carom_vec2 origin,
                                                        carom_vec2 translation,
                                                        carom_filter filter);

/* Called for each hit in order of fraction (then shape id). Return -1 to ignore this hit and go
 * on, 0 to stop, a fraction to keep only hits up to it, or 1 to go on unchanged. */
typedef double carom_ray_callback(carom_shape_id shape, carom_vec2 point, carom_vec2 normal,
                                  double fraction, void* context);
CAROM_API carom_status carom_world_cast_ray(carom_world_id world, carom_vec2 origin,
                                            carom_vec2 translation, carom_filter filter,
                                            carom_ray_callback* callback, void* context);

/* Called for each shape found, in shape-id order; return 0 to stop. */
typedef int carom_overlap_callback(carom_shape_id shape, void* context);
/* Shapes whose bounding box overlaps the box. */
CAROM_API carom_status carom_world_overlap_aabb(carom_world_id world, carom_aabb box,
                                                carom_filter filter,
                                                carom_overlap_callback* callback, void* context);
/* Shapes containing the point (circles, polygons, rounded polygons and capsules; segments and
 * chains have no inside). */
CAROM_API carom_status carom_world_overlap_point(carom_world_id world, carom_vec2 point,
                                                 carom_filter filter,
                                                 carom_overlap_callback* callback, void* context);
/* Shapes overlapping the given circle or polygon placed at xf. The polygon may be rounded
 * (polygon.radius), or a capsule: two vertices, its centres, and a radius
 * (carom_make_capsule_polygon). */
CAROM_API carom_status carom_world_overlap_shape(carom_world_id world,
                                                 const carom_convex_shape* shape,
                                                 carom_transform xf, carom_filter filter,
                                                 carom_overlap_callback* callback, void* context);

/* ---- World shape cast and explosions (issue 16) ----
 *
 * Shape cast: the circle, polygon, rounded polygon or capsule `shape` (in the form
 * carom_world_overlap_shape takes, re-validated: a bad polygon is refused with the constructors'
 * status and message), placed at xf, swept along translation (m, world frame, finite) without
 * turning. A hit is a shape the swept shape touches; its carom_ray_result gives the fraction of
 * the translation at which they first touch (the exact touching time: translation alone is
 * solved exactly, carom_time_of_impact), the point where they touch (world frame, m; the
 * middle of the touching stretch when a face meets a face) and the hit shape's surface normal
 * there, facing the swept shape. A shape the swept shape overlaps or touches at xf is hit at
 * fraction 0 (its normal then the direction that would part them the quickest). Sensors are
 * passed through and the filter applies as for ray casts; segments and chain segments are hit
 * from either side (a one-sided chain too). Ties in fraction go to the lower shape id. */
CAROM_API carom_ray_result carom_world_cast_shape_closest(carom_world_id world,
                                                          const carom_convex_shape* shape,
                                                          carom_transform xf,
                                                          carom_vec2 translation,
                                                          carom_filter filter);
/* Every hit, to the callback in order of fraction then shape id, with the answers of
 * carom_world_cast_ray's callback (-1 ignore, 0 stop, a fraction to clip, 1 go on). */
CAROM_API carom_status carom_world_cast_shape(carom_world_id world,
                                              const carom_convex_shape* shape,
                                              carom_transform xf, carom_vec2 translation,
                                              carom_filter filter, carom_ray_callback* callback,
                                              void* context);

/* Explosion: an impulse on every dynamic shape within radius + falloff of a point, for blasts,
 * shock waves and impacts. Each reached shape is pushed along the line from position to its
 * closest point, at that point (so an off-centre blast also turns it), by impulse_per_length
 * times the shape's width across that line (a broadside takes more than an edge) times the
 * strength at its distance d from position: 1 for d <= radius, falling linearly to 0 at
 * radius + falloff. When position is inside a shape, the push acts at the shape's centroid (a
 * rounded polygon's: its core's), away from position (a blast exactly there pushes that shape
 * not at all). A body with several
 * shapes reached gets each one's push. Static, kinematic and disabled bodies and sensors are
 * untouched; a sleeping body that is pushed wakes. The shapes considered are those of the
 * broad phase as of the last step (as for queries: a world that has never stepped has none),
 * in ascending shape id order, so the result is deterministic. */
typedef struct carom_explosion_def {
    carom_vec2 position;       /* world frame (m), finite */
    double radius;             /* full strength up to this distance (m, >= 0), default 1 */
    double falloff;            /* then fading to nothing over this distance (m, >= 0), default 0 */
    double impulse_per_length; /* N·s per m of width at full strength (>= 0), default 1 */
    uint64_t mask;             /* shapes whose filter category meets these bits are pushed,
                                  default all */
    int internal_cookie;       /* set by carom_default_explosion_def(); do not touch */
} carom_explosion_def;
CAROM_API carom_explosion_def carom_default_explosion_def(void);
/* Refused, changing nothing: a def not from carom_default_explosion_def
 * (CAROM_ERROR_INVALID_DEF), a non-finite or negative value or one above CAROM_MAX_MAGNITUDE, a
 * call inside a callback (CAROM_ERROR_WORLD_LOCKED), and a blast that would leave a body's
 * velocity above CAROM_MAX_MAGNITUDE (CAROM_ERROR_OUT_OF_RANGE, as for
 * carom_body_apply_linear_impulse). */
CAROM_API carom_status carom_world_explode(carom_world_id world, const carom_explosion_def* def);

/* ---- Callbacks inside the step ---------------------------------------------------------- */

/* Both run inside carom_world_step, on the stepping thread, in a fixed order (so a deterministic
 * callback keeps the world deterministic). While they run the world is locked exactly as for a
 * query callback (see Queries): they may read the world (every getter, carom_*_is_valid,
 * counters, carom_world_hash, user data), and anything that changes it, steps it, or queries it
 * is refused with CAROM_ERROR_WORLD_LOCKED. Their answer must depend only on what they read and
 * on state of your own that is itself deterministic. A callback must return normally. Neither
 * is saved in snapshots: set them again on a world made from one. */

/* Custom filter: asked about each new pair of shapes that passes the filters (carom_filter) when
 * the broad phase finds it, in ascending order of (lower shape id, higher shape id), with the
 * lower id as shape_a. Return 0 to make no contact: the pair is asked again the next time one of
 * its shapes' fattened boxes moves (roughly, when it has moved 0.1 m). Pairs that already have
 * a contact keep it when the callback is set or changes its mind. */
typedef int carom_custom_filter_fn(carom_shape_id shape_a, carom_shape_id shape_b, void* context);
/* NULL removes it. Refused during a step or callback. */
CAROM_API carom_status carom_world_set_custom_filter(carom_world_id world,
                                                     carom_custom_filter_fn* filter,
                                                     void* context);

/* Pre-solve: asked every step about each non-sensor contact with manifold points whose bodies
 * take part in the step (an awake dynamic or a moving kinematic one), in contact-id order, after
 * its manifold is made and before the solver runs. The manifold (normal from A to B, points in
 * world m) is only read during the call. Return 0 to disable the contact for this step: it is
 * not solved, wakes nothing, counts as not touching (an end event if it was) and forgets its
 * warm-start impulses, and continuous collision does not sweep against it either. A one-way
 * platform returns 0 while the other body is below it or moving up through it. Continuous
 * collision sweeps a fast body only against pairs the custom filter allows; but a body so fast
 * that it reaches a one-way platform within a step without having had a contact with it at
 * the step's start is stopped at the platform for that step (the callback has no manifold to
 * be asked with), and goes on through at the next. */
typedef int carom_pre_solve_fn(carom_shape_id shape_a, carom_shape_id shape_b,
                               const carom_manifold* manifold, void* context);
/* NULL removes it. Refused during a step or callback. */
CAROM_API carom_status carom_world_set_pre_solve(carom_world_id world, carom_pre_solve_fn* fn,
                                                 void* context);

/* ---- Debug draw ------------------------------------------------------------------------- */

/* Colors are 0xRRGGBB. Any callback may be NULL. Coordinates are world (m). */
typedef struct carom_debug_draw {
    void (*draw_polygon)(const carom_vec2* vertices, int count, uint32_t color, void* context);
    /* axis: the body's x axis, to show rotation */
    void (*draw_circle)(carom_vec2 center, double radius, carom_vec2 axis, uint32_t color,
                        void* context);
    void (*draw_segment)(carom_vec2 p1, carom_vec2 p2, uint32_t color, void* context);
    void (*draw_point)(carom_vec2 point, uint32_t color, void* context);
    int draw_shapes;   /* every shape, colored by body state; a capsule or rounded polygon
                          as its outline in segments (arcs as chords of at most 15 degrees) */
    int draw_contacts; /* contact points and normals (0.2 m long) */
    int draw_aabbs;    /* shapes' tight bounding boxes */
    void* context;
    int draw_joints;   /* joints: anchors, the arms from the bodies' centers of mass to them, a
                          distance joint's rod, a slider's axis, a mouse joint's pull (last, so
                          that initializers written before it still compile) */
} carom_debug_draw;

#define CAROM_COLOR_STATIC 0x808080u
#define CAROM_COLOR_KINEMATIC 0x4d99e6u
#define CAROM_COLOR_DYNAMIC 0xe6b34du
#define CAROM_COLOR_SLEEPING 0x8c8c66u
#define CAROM_COLOR_SENSOR 0x33cc4du
#define CAROM_COLOR_CONTACT 0xff3333u
#define CAROM_COLOR_AABB 0xcc66ccu
#define CAROM_COLOR_JOINT 0x4dcccc
#define CAROM_COLOR_JOINT_AXIS 0x808033u

/* Draw the world through the callbacks: shapes in shape-id order, then joints in joint-id order,
 * then contacts. The world is locked while the callbacks run: they may read it, not change it
 * (see the Queries section above). */
CAROM_API carom_status carom_world_draw(carom_world_id world, const carom_debug_draw* draw);

/* ---- Bodies ----------------------------------------------------------------------------- */

/* A world holds at most this many bodies at once (2^29; the contact solver names a body's
 * state by a 32-bit offset). */
#define CAROM_MAX_BODIES (1 << 29)

/* A new body. Null id on failure: bad def values (the message names the field), a locked world,
 * or CAROM_MAX_BODIES bodies already in it (CAROM_ERROR_OUT_OF_RANGE). */
CAROM_API carom_body_id carom_create_body(carom_world_id world, const carom_body_def* def);
/* Destroy a body, its shapes and its contacts. */
CAROM_API carom_status carom_destroy_body(carom_body_id body);
CAROM_API int carom_body_is_valid(carom_body_id body);

CAROM_API carom_body_type carom_body_get_type(carom_body_id body);
/* World position of the body origin (m). */
CAROM_API carom_vec2 carom_body_get_position(carom_body_id body);
CAROM_API carom_rot carom_body_get_rotation(carom_body_id body);
/* Angle in radians, in [-pi, pi]. */
CAROM_API double carom_body_get_angle(carom_body_id body);
CAROM_API carom_transform carom_body_get_transform(carom_body_id body);
/* World position of the center of mass (m). */
CAROM_API carom_vec2 carom_body_get_world_center(carom_body_id body);
/* Center of mass in the body frame (m). */
CAROM_API carom_vec2 carom_body_get_local_center(carom_body_id body);
/* Velocity of the center of mass (m/s). */
CAROM_API carom_vec2 carom_body_get_linear_velocity(carom_body_id body);
CAROM_API double carom_body_get_angular_velocity(carom_body_id body);
CAROM_API double carom_body_get_mass(carom_body_id body);
/* About the center of mass (kg·m²). */
CAROM_API double carom_body_get_rotational_inertia(carom_body_id body);
CAROM_API void* carom_body_get_user_data(carom_body_id body);
CAROM_API carom_world_id carom_body_get_world(carom_body_id body);
/* Kinetic energy, linear plus rotational (J). */
CAROM_API double carom_body_get_kinetic_energy(carom_body_id body);

/* Teleport: place the body origin at position (m) turned by angle (rad). */
CAROM_API carom_status carom_body_set_transform(carom_body_id body, carom_vec2 position,
                                                double angle);
/* How far from unit length a rotation given to carom_body_set_rotation may be: |c² + s² - 1|. */
#define CAROM_ROTATION_TOLERANCE 1e-9
/* Turn the body about its origin to rotation, a cosine/sine pair (finite, unit length within
 * CAROM_ROTATION_TOLERANCE) stored exactly as given. The exact inverse of
 * carom_body_get_rotation(): no angle is converted, so a saved pose restores bit for bit, which
 * an angle through carom_body_set_transform cannot promise (carom_make_rot of carom's atan2 may
 * differ from the rotation in the last bit). */
CAROM_API carom_status carom_body_set_rotation(carom_body_id body, carom_rot rotation);
/* Velocity of the center of mass (m/s) or spin (rad/s). Static bodies cannot move: refused
 * with CAROM_ERROR_OUT_OF_RANGE. */
CAROM_API carom_status carom_body_set_linear_velocity(carom_body_id body, carom_vec2 velocity);
CAROM_API carom_status carom_body_set_angular_velocity(carom_body_id body, double velocity);
CAROM_API carom_status carom_body_set_user_data(carom_body_id body, void* user_data);

/* Sleep: bodies touching one another form an island; when every body of an island has rested
 * (see the world def's sleep thresholds) for time_to_sleep, the island sleeps and costs nothing
 * until something touches it, a body it rests on is moved or destroyed, or the API changes one
 * of its bodies (pose, velocity, force, impulse, shapes). Waking a body wakes its island. */
CAROM_API carom_status carom_body_wake(carom_body_id body);
/* 1 if awake, 0 if asleep; static bodies count as asleep. */
CAROM_API int carom_body_is_awake(carom_body_id body);
/* 0 stops this body (and so its island) from ever sleeping, and wakes it; 1 allows it again. */
CAROM_API carom_status carom_body_set_sleep_enabled(carom_body_id body, int enabled);

/* Forces and torques act during the next step, then are cleared. Only dynamic bodies respond;
 * for others these succeed and do nothing. force in N at a world point (m); torque in N·m.
 * Besides each input, what it adds up to is bounded, for these and the impulses below: a call
 * that would leave the body's linear or angular velocity, or the force or torque it carries into
 * the next step, above CAROM_MAX_MAGNITUDE is refused with CAROM_ERROR_OUT_OF_RANGE and changes
 * nothing. */
CAROM_API carom_status carom_body_apply_force(carom_body_id body, carom_vec2 force,
                                              carom_vec2 point);
CAROM_API carom_status carom_body_apply_force_to_center(carom_body_id body, carom_vec2 force);
CAROM_API carom_status carom_body_apply_torque(carom_body_id body, double torque);
/* Impulses change velocity at once. impulse in N·s at a world point (m); angular in N·m·s. */
CAROM_API carom_status carom_body_apply_linear_impulse(carom_body_id body, carom_vec2 impulse,
                                                       carom_vec2 point);
CAROM_API carom_status carom_body_apply_angular_impulse(carom_body_id body, double impulse);

/* ---- Bodies after creation ------------------------------------------------------------- */

/* Change the body's type. Its contacts are dropped (touching ones report their end) and found
 * again at the next step as the new type allows; what rested on it wakes, and so does the body.
 * Made static, it loses its velocity; made dynamic, it gets the mass of its shapes (or its mass
 * override) and needs one to step. A body carrying a vehicle must stay dynamic
 * (CAROM_ERROR_OUT_OF_RANGE). Joints stay; a joint between two bodies that are not dynamic does
 * nothing. */
CAROM_API carom_status carom_body_set_type(carom_body_id body, carom_body_type type);

/* Fixed rotation: a dynamic body that never turns (a character's capsule, a piston): its
 * rotational inertia counts as infinite, its angular velocity is zeroed and stays zero, and its
 * rotation is kept bit for bit while contacts and joints push it. Off again, the body turns with
 * the inertia of its shapes (or its override). Saved in snapshots. */
CAROM_API carom_status carom_body_set_fixed_rotation(carom_body_id body, int fixed);
CAROM_API int carom_body_is_fixed_rotation(carom_body_id body);

/* Mass override: the dynamic body's mass (kg, positive, at most CAROM_MAX_MAGNITUDE), center of
 * mass (body frame, m, finite) and rotational inertia about that center (kg·m², >= 0; 0: it
 * does not turn), used instead of what its shapes give, until carom_body_reset_mass_data. Adding,
 * removing or re-densitying shapes then leaves the mass alone. The center of mass moves with
 * the material points' velocities kept. A static or kinematic body keeps the override for when
 * it becomes dynamic. Saved in snapshots. */
CAROM_API carom_status carom_body_set_mass_data(carom_body_id body, carom_mass_data mass_data);
/* The mass in use: mass (kg), local center (m) and rotational inertia (kg·m², 0 while the
 * rotation is fixed). */
CAROM_API carom_mass_data carom_body_get_mass_data(carom_body_id body);
/* Back to the mass of the shapes. */
CAROM_API carom_status carom_body_reset_mass_data(carom_body_id body);
CAROM_API int carom_body_has_mass_override(carom_body_id body);

/* Damping (per second, >= 0; carom_body_def says how it acts) and gravity scale (finite): within
 * CAROM_MAX_MAGNITUDE. A change wakes the body. */
CAROM_API carom_status carom_body_set_linear_damping(carom_body_id body, double damping);
CAROM_API double carom_body_get_linear_damping(carom_body_id body);
CAROM_API carom_status carom_body_set_angular_damping(carom_body_id body, double damping);
CAROM_API double carom_body_get_angular_damping(carom_body_id body);
CAROM_API carom_status carom_body_set_gravity_scale(carom_body_id body, double scale);
CAROM_API double carom_body_get_gravity_scale(carom_body_id body);
/* Bullet: swept against dynamic bodies too when fast (carom_body_def.bullet). */
CAROM_API carom_status carom_body_set_bullet(carom_body_id body, int bullet);
CAROM_API int carom_body_is_bullet(carom_body_id body);
CAROM_API int carom_body_is_sleep_enabled(carom_body_id body);

/* Disable (enabled = 0) or enable a body. A disabled body stays in the world with its id,
 * shapes, pose, velocity and joints, but takes no part in steps: it has no contacts (those it
 * had are dropped, touching ones reporting their end, and what rested on it wakes), is neither
 * moved nor pushed, is not found by queries or swept against, its joints do nothing, and it
 * counts as neither awake nor asleep (carom_body_is_awake answers 0). Enabled again, it wakes
 * and its pairs are found at the next step. Saved in snapshots. Its shapes keep their place in
 * the broad phase's grid, marked so that they never pair. */
CAROM_API carom_status carom_body_set_enabled(carom_body_id body, int enabled);
CAROM_API int carom_body_is_enabled(carom_body_id body);

/* awake = 1 wakes the body's island (as carom_body_wake). awake = 0 puts an awake dynamic body
 * to sleep at once, alone, with zero velocity and no pending force (static bodies: nothing to
 * do). Refused with CAROM_ERROR_OUT_OF_RANGE for a kinematic body, a body with sleep disabled,
 * or one with joints (it sleeps with its jointed bodies when they all rest). An awake body
 * touching it wakes it at the next step, as with any sleeping body. */
CAROM_API carom_status carom_body_set_awake(carom_body_id body, int awake);

/* The body's shapes, in ascending shape id order: writes at most capacity ids (capacity >= 0;
 * shapes may be NULL when capacity is 0) and returns how many it wrote; 0 for a stale id.
 * carom_body_get_shape_count says how many there are. */
CAROM_API int carom_body_get_shape_count(carom_body_id body);
CAROM_API int carom_body_get_shapes(carom_body_id body, carom_shape_id* shapes, int capacity);

/* A contact with manifold points, as carom_body_get_contact_data lists it. */
typedef struct carom_contact_data {
    carom_shape_id shape_a, shape_b; /* in the contact's order: the normal points from A to B */
    carom_manifold manifold;         /* as of the last step's narrow phase (points in world m) */
    int touching;                    /* 1: touching as events report it (a begin without an end
                                        yet); 0: points only speculative */
} carom_contact_data;

/* The body's contacts that have manifold points (touching or speculative), in ascending contact
 * order: writes at most capacity (>= 0; contacts may be NULL when capacity is 0), returns how
 * many it wrote. carom_body_get_contact_capacity gives an upper bound on how many there are. */
CAROM_API int carom_body_get_contact_capacity(carom_body_id body);
CAROM_API int carom_body_get_contact_data(carom_body_id body, carom_contact_data* contacts,
                                          int capacity);

/* ---- Shapes ----------------------------------------------------------------------------- */

/* Attach a shape to a body; geometry in the body frame. The body's mass, center of mass and
 * rotational inertia are recomputed from all its shapes. */
CAROM_API carom_shape_id carom_create_circle_shape(carom_body_id body, const carom_shape_def* def,
                                                   const carom_circle* circle);
CAROM_API carom_shape_id carom_create_polygon_shape(carom_body_id body, const carom_shape_def* def,
                                                    const carom_polygon* polygon);
CAROM_API carom_shape_id carom_create_segment_shape(carom_body_id body, const carom_shape_def* def,
                                                    const carom_segment* segment);
/* A box: half extents (m, each at least CAROM_MIN_BOX_HALF_EXTENT), centre in the body frame,
 * angle (rad) relative to the body. */
CAROM_API carom_shape_id carom_create_box_shape(carom_body_id body, const carom_shape_def* def,
                                                double half_width, double half_height,
                                                carom_vec2 center, double angle);
/* A chain: a polyline of count >= 2 points (no two consecutive points closer than
 * CAROM_POLYGON_WELD_TOLERANCE), closed into a loop when loop is non-zero (then count >= 3), made
 * of one segment shape per edge. Unlike separate segments, a body sliding along a chain does not
 * catch on the joints between its segments: each segment knows its neighbours and ignores
 * contact normals that only a joint's corner would produce. Meant for track walls and terrain on
 * static bodies. If out_segments is not NULL it receives the segment shape ids, count - 1 of
 * them (count for a loop). Each segment is an ordinary shape afterwards (carom_destroy_shape). */
CAROM_API carom_status carom_create_chain(carom_body_id body, const carom_shape_def* def,
                                          const carom_vec2* points, int count, int loop,
                                          carom_shape_id* out_segments);
/* ---- Capsules and rounded polygons (issue 16) ----
 * carom_create_polygon_shape takes a rounded polygon too (polygon->radius, see carom_polygon).
 * A capsule (carom_capsule: centres at least CAROM_POLYGON_WELD_TOLERANCE apart, else refused
 * with CAROM_ERROR_INVALID_POLYGON: use a circle; radius at least CAROM_MIN_RADIUS) is a shape
 * of type CAROM_SHAPE_CAPSULE. A rounded box is carom_make_rounded_box's: radius (0, or at least
 * CAROM_MIN_RADIUS) wider than its half extents on every side, with round corners. */
CAROM_API carom_shape_id carom_create_capsule_shape(carom_body_id body, const carom_shape_def* def,
                                                    const carom_capsule* capsule);
CAROM_API carom_shape_id carom_create_rounded_box_shape(carom_body_id body,
                                                        const carom_shape_def* def,
                                                        double half_width, double half_height,
                                                        carom_vec2 center, double angle,
                                                        double radius);
/* ---- Concave polygons (issue 16) ----
 * A simple polygon of up to CAROM_MAX_DECOMPOSE_VERTICES points, either winding, concave or
 * with more than CAROM_MAX_POLYGON_VERTICES vertices, as one polygon shape per convex piece of
 * carom_decompose_polygon (collision.h), all on body with def. The body's mass, center of mass
 * and inertia are then the outline's. Writes the shape ids in piece order to shapes (capacity of
 * them; shapes may be NULL to not ask for them, CAROM_MAX_DECOMPOSE_PIECES always suffices)
 * and their count to *shape_count. Nothing is created on a refusal: the decomposition's (see
 * carom_decompose_polygon), a bad body or def, or more pieces than capacity
 * (CAROM_ERROR_BUFFER_TOO_SMALL, *shape_count then says how many). The pieces are ordinary
 * polygon shapes afterwards (carom_destroy_shape, carom_shape_get_polygon). */
CAROM_API carom_status carom_create_decomposed_polygon_shapes(carom_body_id body,
                                                             const carom_shape_def* def,
                                                             const carom_vec2* points, int count,
                                                             carom_shape_id* shapes, int capacity,
                                                             int* shape_count);
/* Detach and destroy a shape; the body's mass is recomputed. */
CAROM_API carom_status carom_destroy_shape(carom_shape_id shape);
CAROM_API int carom_shape_is_valid(carom_shape_id shape);

CAROM_API carom_shape_type carom_shape_get_type(carom_shape_id shape);
CAROM_API carom_body_id carom_shape_get_body(carom_shape_id shape);
CAROM_API double carom_shape_get_density(carom_shape_id shape);
CAROM_API double carom_shape_get_friction(carom_shape_id shape);
CAROM_API double carom_shape_get_restitution(carom_shape_id shape);
CAROM_API carom_filter carom_shape_get_filter(carom_shape_id shape);
CAROM_API int carom_shape_is_sensor(carom_shape_id shape);
/* The tyre grip multiplier a sensor gives vehicles' wheels inside it (carom_shape_def). */
CAROM_API double carom_shape_get_surface_grip(carom_shape_id shape);
CAROM_API void* carom_shape_get_user_data(carom_shape_id shape);
/* The tight world-space bounding box as of the end of the last step (or creation). */
CAROM_API carom_aabb carom_shape_get_aabb(carom_shape_id shape);
CAROM_API carom_status carom_shape_set_friction(carom_shape_id shape, double friction);
CAROM_API carom_status carom_shape_set_restitution(carom_shape_id shape, double restitution);
/* Changing density recomputes the body's mass. */
CAROM_API carom_status carom_shape_set_density(carom_shape_id shape, double density);

/* A new collision filter (carom_filter). The shape's contacts that the new filter forbids are
 * dropped now (touching ones report their end) and the bodies of those pairs wake; pairs it
 * newly allows are found at the next step. */
CAROM_API carom_status carom_shape_set_filter(carom_shape_id shape, carom_filter filter);

/* The shape's geometry in its body's frame (m), into *out. CAROM_ERROR_OUT_OF_RANGE if the shape
 * is of another type (carom_shape_get_type; a chain segment also answers
 * carom_shape_get_segment with its own two points), CAROM_ERROR_NULL_ARGUMENT for a NULL out. */
CAROM_API carom_status carom_shape_get_circle(carom_shape_id shape, carom_circle* out);
CAROM_API carom_status carom_shape_get_polygon(carom_shape_id shape, carom_polygon* out);
CAROM_API carom_status carom_shape_get_segment(carom_shape_id shape, carom_segment* out);
CAROM_API carom_status carom_shape_get_chain_segment(carom_shape_id shape,
                                                     carom_chain_segment* out);
/* A capsule's centres and radius (body frame, m), as created (type CAROM_SHAPE_CAPSULE). A
 * rounded polygon is a polygon: carom_shape_get_polygon gives its rounding in out->radius (0 for
 * sharp corners). Stale ids are refused with CAROM_ERROR_INVALID_ID, as for every getter here. */
CAROM_API carom_status carom_shape_get_capsule(carom_shape_id shape, carom_capsule* out);

#ifdef __cplusplus
}
#endif

#endif
