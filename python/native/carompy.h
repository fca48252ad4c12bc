/* The C side of the Python package (python/carom): what Python cannot do quickly or at all
 * through the public API one call at a time. Python loads this library with ctypes; it also
 * exports the whole carom API (the engine is linked into it), so the package needs no other
 * library at run time but cJSON's.
 *
 * - bulk.c: every body's state read into caller-owned arrays in one call, many ray casts at
 *   once, the bodies of many shapes, so that numpy arrays of N bodies, events or rays cost one
 *   call and no Python loop.
 * - batch.c: many independent worlds stepped in one call, on several threads.
 * - scene_bridge.c: scene files (docs/cli.md) loaded and built through tools/scene.c, the
 *   loader of the `carom` command line, so a world loaded from Python is the CLI's world bit for
 *   bit (same bodies in the same order: the same carom_world_hash).
 * - queries.c: shape casts, overlap queries, explosions and shape geometry from plain numbers
 *   (issue 16).
 * - layout.c: the defs' and records' fields by name (offsets from the compiler, defaults from
 *   the engine), and the sizes of the few structs Python mirrors, checked at import.
 *
 * Errors follow the engine's rule: a status, and the message in carom_last_error() (on the
 * calling thread; batch.c copies its threads' messages out). */
#ifndef CAROMPY_H
#define CAROMPY_H

#include <carom/carom.h>

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define CAROMPY_API __attribute__((visibility("default")))
#else
#define CAROMPY_API
#endif

/* ---- bulk.c ---- */

/* The state of count bodies, into arrays of count rows (any of them may be NULL to skip it):
 * position (m) and rotation (cos, sin) 2 doubles a row, angle (rad, in [-pi, pi]), linear
 * velocity (m/s, of the center of mass) 2 a row, angular velocity (rad/s). On an invalid id:
 * CAROM_ERROR_INVALID_ID with its message, *failed_index set to its row, and the rows before it
 * filled. */
CAROMPY_API carom_status carompy_get_body_states(const carom_body_id* ids, int count,
                                                 double* position, double* rotation,
                                                 double* angle, double* linear_velocity,
                                                 double* angular_velocity, int* failed_index);

/* The closest hit of each of count rays (origins and translations 2 doubles a row, world frame,
 * m) into results. Stops at the first ray the engine refuses (a NaN, an invalid world):
 * its status and message, *failed_index its row. */
CAROMPY_API carom_status carompy_cast_rays_closest(carom_world_id world, const double* origins,
                                                   const double* translations, int count,
                                                   carom_filter filter, carom_ray_result* results,
                                                   int* failed_index);

/* Every hit of one ray in order of fraction (then shape id), at most capacity of them into
 * results; *count receives the number of hits, which may exceed capacity (call again). */
CAROMPY_API carom_status carompy_cast_ray_all(carom_world_id world, carom_vec2 origin,
                                              carom_vec2 translation, carom_filter filter,
                                              carom_ray_result* results, int capacity,
                                              int* count);

/* The body of each of count shapes into bodies; the null id for a shape destroyed since (the
 * shapes of end events may be). Events and ray hits name shapes; Python wants body rows. */
CAROMPY_API void carompy_shape_bodies(const carom_shape_id* shapes, int count,
                                      carom_body_id* bodies);

/* Each body's carom_body_type into types, -1 for an invalid id. */
CAROMPY_API void carompy_get_body_types(const carom_body_id* ids, int count, int* types);

/* Set the velocities of count bodies: linear 2 doubles a row (m/s, of the center of mass),
 * angular 1 (rad/s); either may be NULL. A static body given only zeros is skipped (it has
 * them); anything else goes through carom_body_set_*_velocity, which wakes the body. Stops at
 * the first refusal with its status and message, *failed_index its row; the rows before it
 * are set, so check the values first (Python does: finite, within CAROM_MAX_MAGNITUDE, zeros on
 * static bodies). */
CAROMPY_API carom_status carompy_set_body_velocities(const carom_body_id* ids, int count,
                                                     const double* linear,
                                                     const double* angular,
                                                     int* failed_index);

/* ---- batch.c ---- */

/* Step each of count worlds `steps` times, world i by dts[i] seconds, on up to `threads`
 * threads (>= 1; more than count are not started). Each world is stepped by one thread from
 * start to end, so results are those of stepping the worlds one after another, whatever the
 * thread count. A world whose step is refused stops there; the others take all their steps.
 * Returns CAROM_OK, or the status of the lowest-numbered world that failed, with its index in
 * *failed_world, the step it failed at in *failed_step and the engine's message in message
 * (message_size bytes, terminated). */
CAROMPY_API carom_status carompy_step_worlds(const carom_world_id* worlds, const double* dts,
                                             int count, int steps, int threads,
                                             int* failed_world, int* failed_step, char* message,
                                             size_t message_size);

/* ---- scene_bridge.c ---- */

typedef struct carompy_scene carompy_scene;

/* Read and check a scene (size bytes of JSON text at data). file_name starts every report line.
 * Never NULL (aborts if memory runs out, as the engine does). carompy_scene_ok says whether it
 * loaded; carompy_scene_report gives every report line (errors and warnings), each ending with a
 * newline. */
CAROMPY_API carompy_scene* carompy_scene_load(const char* data, size_t size,
                                              const char* file_name);
CAROMPY_API int carompy_scene_ok(const carompy_scene* scene);
CAROMPY_API const char* carompy_scene_report(const carompy_scene* scene);
CAROMPY_API int carompy_scene_warning_count(const carompy_scene* scene);
/* Build the world of a loaded scene, as `carom run` does: bodies in the file's order, then
 * joints. The world belongs to the caller. On failure *world is null and the engine's message is
 * in carom_last_error(). Call at most once per scene. */
CAROMPY_API carom_status carompy_scene_build(carompy_scene* scene, carom_world_id* world);
/* The scene's step (s). */
CAROMPY_API double carompy_scene_dt(const carompy_scene* scene);
CAROMPY_API int carompy_scene_body_count(const carompy_scene* scene);
/* Body i's name, or NULL when it has none. */
CAROMPY_API const char* carompy_scene_body_name(const carompy_scene* scene, int index);
/* After carompy_scene_build: body i's id. */
CAROMPY_API carom_body_id carompy_scene_body_id(const carompy_scene* scene, int index);
CAROMPY_API int carompy_scene_joint_count(const carompy_scene* scene);
CAROMPY_API const char* carompy_scene_joint_name(const carompy_scene* scene, int index);
CAROMPY_API carom_joint_id carompy_scene_joint_id(const carompy_scene* scene, int index);
/* The scene's vehicles (docs/cli.md, vehicle): vehicle i's body index and, after
 * carompy_scene_build, its id. */
CAROMPY_API int carompy_scene_vehicle_count(const carompy_scene* scene);
CAROMPY_API int carompy_scene_vehicle_body(const carompy_scene* scene, int index);
CAROMPY_API carom_vehicle_id carompy_scene_vehicle_id(const carompy_scene* scene, int index);
/* The control scripts, as `carom run` follows them (scene_apply_controls and
 * scene_next_control_step in tools/scene.h): set the inputs whose entries are at steps_done,
 * and the next step at or after steps_done with an entry (-1: none). Only after
 * carompy_scene_build. */
CAROMPY_API carom_status carompy_scene_apply_controls(const carompy_scene* scene,
                                                      int64_t steps_done);
CAROMPY_API int64_t carompy_scene_next_control_step(const carompy_scene* scene,
                                                    int64_t steps_done);
CAROMPY_API void carompy_scene_free(carompy_scene* scene);

/* ---- queries.c (issue 16) ---- */

/* Cast a query shape (kind 0 circle: one point, its centre; 1 polygon: point_count vertices; 2
 * capsule: two centres; all rounded by radius, body frame, points as (x, y) pairs) placed at
 * (x, y) turned by angle, along translation: the first hit (all = 0) or every hit in order
 * (all = 1), at most capacity into results, and how many there were into *count. */
CAROMPY_API carom_status carompy_cast_shape(carom_world_id world, int kind, const double* points,
                                            int point_count, double radius, double x, double y,
                                            double angle, carom_vec2 translation,
                                            carom_filter filter, int all,
                                            carom_ray_result* results, int capacity, int* count);
/* carom_world_explode with a def from carom_default_explosion_def and these fields. */
CAROMPY_API carom_status carompy_explode(carom_world_id world, double x, double y, double radius,
                                         double falloff, double impulse_per_length,
                                         uint64_t mask);
/* The shape's geometry (body frame): its points as (x, y) pairs into points (room for
 * CAROM_MAX_POLYGON_VERTICES): a circle's centre, a polygon's vertices, a capsule's centres, a
 * segment's two points, a chain link's ghost1, point1, point2, ghost2; *radius (circle, rounded
 * polygon, capsule); *flags for a chain link: 1 has_ghost1, 2 has_ghost2, 4 one_sided. */
CAROMPY_API carom_status carompy_shape_geometry(carom_shape_id shape, double* points,
                                                int* point_count, double* radius, int* flags);

/* The shapes overlapping a query shape (kinds and points as carompy_cast_shape) placed at (x, y)
 * turned by angle (carom_world_overlap_shape), the shapes whose bounding box overlaps the box
 * lower..upper (carom_world_overlap_aabb), or the shapes containing a point
 * (carom_world_overlap_point): at most capacity ids into shapes, in shape-id order, and how many
 * there were into *count (which may exceed capacity: call again with more room). */
CAROMPY_API carom_status carompy_overlap_shape(carom_world_id world, int kind,
                                               const double* points, int point_count,
                                               double radius, double x, double y, double angle,
                                               carom_filter filter, carom_shape_id* shapes,
                                               int capacity, int* count);
CAROMPY_API carom_status carompy_overlap_aabb(carom_world_id world, carom_vec2 lower,
                                              carom_vec2 upper, carom_filter filter,
                                              carom_shape_id* shapes, int capacity, int* count);
CAROMPY_API carom_status carompy_overlap_point(carom_world_id world, carom_vec2 point,
                                               carom_filter filter, carom_shape_id* shapes,
                                               int capacity, int* count);

/* ---- layout.c ---- */

/* The fields Python reads and writes by name: field index (0 .. carompy_field_count() - 1)
 * gives its struct's name (returned), its name, its offset and its kind: 'd' double, 'i' int,
 * 'v' carom_vec2, 'f' carom_filter, 's' carom_shape_id, 'j' carom_joint_id. */
CAROMPY_API int carompy_field_count(void);
CAROMPY_API const char* carompy_field(int index, const char** name, size_t* offset, char* kind);
/* Write the named def's default (its carom_default_*_def()) to out, carompy_sizeof(type_name)
 * bytes; 0 for a name that is not a def. */
CAROMPY_API int carompy_default_def(const char* type_name, void* out);

/* sizeof the named carom struct ("carom_world_def", "carom_body_id", ...), or 0 for a name not
 * in the table. Python compares these with its ctypes mirrors at import. */
CAROMPY_API size_t carompy_sizeof(const char* type_name);

/* Inside the library (not for Python): the hits of a ray cast or a shape cast (bulk.c,
 * queries.c) into results, at most capacity of them, count every hit reported; every hit when
 * all, else only the first the engine reports (its closest). */
typedef struct carompy_hit_collector {
    carom_ray_result* results;
    int capacity;
    int count;
    int all;
} carompy_hit_collector;
double carompy_collect_hit(carom_shape_id shape, carom_vec2 point, carom_vec2 normal,
                           double fraction, void* context);

#endif
