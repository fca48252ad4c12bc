/* Scene files: JSON in, a plain C description out, then a world built from it.
 *
 * The format is the contract in docs/cli.md (format version 1). Loading happens in two stages
 * on purpose. First the whole file is read and checked against the contract, every problem
 * reported as one line `FILE: JSON.path: message`, and nothing is created while any problem
 * remains: a run either starts from a scene that is right in every detail or not at all. Only
 * then does scene_build_world() hand the plain description to the engine, through the public
 * API alone. The checks mirror the engine's own (same ranges, same polygon rules through
 * carom_make_polygon), so a scene that loads is a scene the engine accepts; the fuzz target
 * (tools/fuzz/fuzz_scene.c) holds the two to that.
 *
 * The description keeps what the file said (polygon vertices in their written order, a box as
 * a box), so a state file written from it reads back as the same scene. */
#ifndef CAROM_TOOLS_SCENE_H
#define CAROM_TOOLS_SCENE_H

#include <carom/carom.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The biggest scene file read, in bytes: enough for a state file of about 130,000 bodies, and
 * a bound on the memory a hostile file can make the JSON parser take. */
#define SCENE_MAX_FILE_BYTES (64u * 1024u * 1024u)
/* The deepest nesting of JSON arrays and objects accepted; a scene needs 7 levels. */
#define SCENE_MAX_DEPTH 64
/* Collision filter bits are JSON numbers, that is doubles: integers are exact up to 2^53. */
#define SCENE_MAX_FILTER_BITS 9007199254740991.0 /* 2^53 - 1 */

typedef enum scene_shape_type {
    SCENE_SHAPE_CIRCLE,
    SCENE_SHAPE_BOX,
    SCENE_SHAPE_POLYGON,
    SCENE_SHAPE_SEGMENT,
    SCENE_SHAPE_CHAIN,
    SCENE_SHAPE_CAPSULE
} scene_shape_type;

typedef struct scene_shape {
    scene_shape_type type;
    double density; /* kg/m² */
    double friction;
    double restitution;
    bool sensor;
    bool mask_is_all_bits; /* no "mask" key: every bit, which a JSON number cannot spell */
    carom_filter filter;
    double radius;           /* circle and capsule (m); box and polygon rounding (m, 0: sharp) */
    carom_vec2 center1, center2; /* capsule, body frame (m) */
    carom_vec2 half_extents; /* box (m) */
    carom_vec2 center;       /* circle and box, body frame (m) */
    double angle;            /* box, relative to the body (rad) */
    carom_vec2* points;      /* polygon vertices, segment or chain points, as written */
    int point_count;
    bool loop; /* chain */
    /* Hit and contact events, surface grip and one-sided chains (carom_shape_def's fields of
     * those names) */
    bool hit_events;            /* enable_hit_events */
    bool contact_events;        /* enable_contact_events */
    double hit_speed_threshold; /* m/s, >= 0; read when hit_events */
    double surface_grip;        /* sensors only: grip multiplier for vehicles' wheels, >= 0 */
    bool one_sided;             /* chains only: solid on the right of each segment */
    bool decompose; /* polygon: split into convex pieces, one shape each (issue 16) */
} scene_shape;

typedef struct scene_body {
    char* name; /* NULL when unnamed; outputs then call it "#<index>" */
    carom_body_type type;
    carom_vec2 position; /* world position of the body origin (m) */
    double angle;        /* rad; used when has_rotation is false */
    bool has_rotation;   /* the file gave "rotation": use it exactly, bit for bit */
    carom_rot rotation;
    carom_vec2 linear_velocity; /* of the center of mass (m/s) */
    double angular_velocity;    /* rad/s */
    double linear_damping;
    double angular_damping;
    bool bullet;
    bool awake; /* false: created asleep (carom_body_def.awake) */
    double gravity_scale; /* multiplies the world gravity (carom_body_def.gravity_scale) */
    bool fixed_rotation;  /* never turns (carom_body_set_fixed_rotation) */
    bool enabled;         /* false: kept but out of the simulation (carom_body_set_enabled) */
    scene_shape* shapes;
    int shape_count;
} scene_body;

/* One entry of a vehicle's control script: the input set when `step` steps have been taken
 * (so before step number step + 1), held until the next entry. */
typedef struct scene_control {
    int64_t step; /* 0 to 2^53 - 1, increasing along the script */
    carom_vehicle_input input;
} scene_control;

/* A vehicle (include/carom/vehicle.h) on a body of the scene, with its scripted controls. */
typedef struct scene_vehicle {
    int body;                      /* index in bodies: a dynamic body, at most one vehicle each */
    carom_vehicle_def def;         /* carom_default_vehicle_def() with the file's fields */
    bool surface_mask_is_all_bits; /* no "mask" in "surface_filter": every bit */
    carom_vehicle_input input;     /* in force from the start, until the script changes it */
    scene_control* controls;       /* control_count of them, steps strictly increasing */
    int control_count;
} scene_vehicle;

/* A joint as the file gave it: anchors and axes in world coordinates at creation. */
typedef struct scene_joint {
    carom_joint_type type; /* revolute, prismatic, distance, weld, wheel or motor */
    char* name;            /* NULL when unnamed */
    int body_a, body_b;    /* indices in bodies */
    bool collide_connected;
    double break_force, break_torque; /* 0: never */
    carom_vec2 anchor;                /* revolute, prismatic, weld, wheel (m) */
    carom_vec2 anchor_a, anchor_b;    /* distance (m) */
    carom_vec2 axis;                  /* prismatic, wheel */
    bool has_limit;                   /* "limit" or a distance joint's min/max length given */
    double lower, upper;              /* revolute (rad), prismatic and wheel (m) */
    bool has_motor;
    double motor_speed; /* rad/s, or m/s for prismatic */
    double max_motor;   /* N·m, or N for prismatic */
    bool has_spring;
    double hertz, damping_ratio;
    double length;                 /* distance: 0 = the distance at creation (m) */
    double min_length, max_length; /* distance (m) */
    double linear_hertz, linear_damping_ratio, angular_hertz, angular_damping_ratio; /* weld */
    carom_vec2 linear_offset;                                 /* motor (m) */
    double angular_offset, max_force, max_torque, correction_factor; /* motor */
    bool has_frame; /* "frame": the joint's exact geometry, set after creation (state files) */
    carom_joint_frame frame;
} scene_joint;

typedef struct scene_def {
    carom_vec2 gravity; /* m/s² */
    double dt;          /* s */
    int substeps;       /* 0: the engine's default */
    double cell_size;   /* m; 0: the engine chooses */
    /* The engine's other world settings, from its defaults unless the scene gives them. */
    bool sleep;                       /* carom_world_def.enable_sleep */
    bool continuous;                  /* carom_world_def.enable_continuous */
    double contact_hertz;             /* Hz */
    double contact_damping_ratio;
    double contact_push_max_velocity; /* m/s */
    double contact_recycle_distance;  /* m */
    double joint_hertz;               /* Hz */
    double joint_damping_ratio;
    int max_contacts;                 /* carom_world_def.max_contacts, >= 1 */
    scene_body* bodies;
    int body_count;
    scene_joint* joints;
    int joint_count;
    carom_joint_id* joint_ids; /* joint_count of them, filled by scene_build_world: the state
                                  file reads the joints' frames through them */
    scene_vehicle* vehicles; /* made after the joints, in this order */
    int vehicle_count;
    carom_vehicle_id* vehicle_ids; /* vehicle_count of them, filled by scene_build_world */
    /* Workers the world steps with (carom run --threads; docs/threads.md): not in the file,
     * since they change no result. 0 or 1: the calling thread only. */
    int worker_count;
} scene_def;

/* Receives each finished report line (no newline at the end). */
typedef void scene_line_fn(void* user, const char* line);

/* Where a load reports. file_name starts every line; emit may be NULL to only count. */
typedef struct scene_report {
    const char* file_name;
    scene_line_fn* emit;
    void* user;
    int error_count;
    int warning_count;
} scene_report;

/* Read and check a scene file. True when it has no errors (warnings allowed); *out then holds
 * the scene, to be released with scene_free(). False after reporting every problem found, the
 * file's own among them (missing, unreadable, too big); *out is then empty. */
bool scene_load_file(const char* path, scene_report* report, scene_def* out);
/* The same for bytes in memory (size bytes at data, no terminator needed). */
bool scene_load_buffer(const char* data, size_t size, scene_report* report, scene_def* out);
/* Read a whole file as scene_load_file() does (a pipe or a device too), refusing one of more
 * than max_bytes without reading all of it; the refusal names the limit as "... (N MiB) a KIND
 * may have". Returns the bytes (to free; not terminated) and their count in *size, or NULL after
 * reporting why on report. `carom run` keeps a scene's bytes for --save with it, and
 * `carom resume` reads snapshot files with it. */
char* scene_read_file(const char* path, size_t max_bytes, const char* kind, scene_report* report,
                      size_t* size);
void scene_free(scene_def* scene);

/* Build a world from a loaded scene: bodies in scene order, their ids in body_ids (body_count
 * of them), then the joints in scene order. Velocities are set after the shapes, so they are
 * exactly those of the file. On failure (which a loaded scene should never meet: the loader
 * checks what the engine checks) the world is destroyed, *world is null, and carom_last_error()
 * says why; *failed_body is the index of the body being built, or -1 for the world or a
 * joint. */
carom_status scene_build_world(const scene_def* scene, carom_world_id* world,
                               carom_body_id* body_ids, int* failed_body);

/* The vehicles' control scripts: before taking a step, with `steps_done` steps taken since the
 * scene's state (the step number of the state the world is in), set the input of every vehicle
 * whose script has an entry at steps_done. Every command that steps a scene's world calls it
 * before each step, so a scripted run is the same whichever program runs it. The engine's
 * status (CAROM_OK unless a vehicle was destroyed behind the scene's back). */
carom_status scene_apply_controls(const scene_def* scene, int64_t steps_done);

/* The first step number >= steps_done at which some vehicle's script sets an input, or -1 when
 * no entry remains: a program that steps many steps in one call steps up to there, applies the
 * controls, and goes on. */
int64_t scene_next_control_step(const scene_def* scene, int64_t steps_done);

/* The label outputs use for body index: its name, or "#index" written into buffer. */
const char* scene_body_label(const scene_def* scene, int index, char* buffer, size_t buffer_size);

/* Edit distance (insertions, deletions, substitutions) of two short strings, for "did you
 * mean" hints: the scene loader's unknown keys and the command line's unknown options. Strings
 * over 32 bytes count as 32 apart from everything. */
int scene_edit_distance(const char* a, const char* b);

#endif
