/* The C side of the JavaScript package (web/carom.mjs, docs/web.md): what the wrapper calls.
 *
 * A `web_world` is one world as JavaScript sees it: the engine world, the ids of its bodies by a
 * small integer (the `id` of world.bodies(); a scene's bodies keep their scene order), the scene
 * it came from when it came from one (for stateJson() and save(), which write what
 * `carom run --out` and `--save` write), its dt and step count. Everything crosses the boundary
 * as numbers, pointers to doubles in a per-world buffer that the wrapper reads at once, or
 * terminated UTF-8 strings; nothing here keeps a pointer the wrapper gave it.
 *
 * Scenes are read and checked by the command line's own loader (tools/scene*.c, with
 * web/json_reader.c standing in for libcjson), built with its scene_build_world(), stepped with
 * the same carom_world_step(world, dt) calls, hashed with carom_world_hash: the same bits as
 * `carom run --hash`. Every function that can fail returns a status or a null pointer, and
 * carom_js_message() says why (the loader's report lines, or carom_last_error()). */
#define _POSIX_C_SOURCE 200809L
#include "scene.h"
#include "snapshot_file.h"
#include "state.h"

#include <carom/carom.h>
#include <carom/snapshot.h>

#include <emscripten/emscripten.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WEB_API EMSCRIPTEN_KEEPALIVE

typedef struct web_world {
    carom_world_id world;
    bool has_scene;
    scene_def scene;
    char* scene_text; /* the scene's bytes, as given, for save() */
    size_t scene_text_size;
    carom_body_id* bodies; /* by JS id */
    int body_count, body_capacity;
    carom_joint_id* joints; /* joints made through the builder (a scene's are in scene.joint_ids) */
    int joint_count, joint_capacity;
    double dt;
    double step_count; /* exact up to 2^53 */
    carom_joint_id drag;
    double* out; /* the buffer the last reader filled */
    size_t out_used, out_capacity;
    char* text; /* the last string handed out */
} web_world;

/* ---- Messages --------------------------------------------------------------------------- */

static char* message;
static size_t message_length;

static void message_clear(void) {
    free(message);
    message = NULL;
    message_length = 0;
}

static void message_add(const char* line) {
    size_t length = strlen(line);
    char* grown = realloc(message, message_length + length + 2);
    if (grown == NULL) {
        return;
    }
    message = grown;
    if (message_length > 0) {
        message[message_length++] = '\n';
    }
    memcpy(message + message_length, line, length + 1);
    message_length += length;
}

static void message_set(const char* format, ...) {
    char line[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof(line), format, args);
    va_end(args);
    message_clear();
    message_add(line);
}

/* Why the last call failed: one line, or the scene loader's lines joined by newlines. */
WEB_API const char* carom_js_message(void) {
    return message != NULL ? message : "";
}

static void report_line(void* user, const char* line) {
    (void)user;
    message_add(line);
}

/* A number the wrapper passes for an integer setting: refused unless it is a whole number in
 * [lo, hi] (a cast of anything else would be undefined behaviour in C). */
static bool whole_number(double value, double lo, double hi, const char* what) {
    if (!(value >= lo && value <= hi) || value != (double)(int64_t)value) {
        message_set("%s: must be a whole number from %.17g to %.17g, got %.17g", what, lo, hi,
                    value);
        return false;
    }
    return true;
}

/* ---- Growing arrays --------------------------------------------------------------------- */

static bool grow(void** items, int* capacity, int needed, size_t size) {
    if (needed <= *capacity) {
        return true;
    }
    int wanted = *capacity > 0 ? *capacity * 2 : 16;
    wanted = wanted < needed ? needed : wanted;
    void* grown = realloc(*items, (size_t)wanted * size);
    if (grown == NULL) {
        message_set("out of memory");
        return false;
    }
    *items = grown;
    *capacity = wanted;
    return true;
}

static int add_body_id(web_world* w, carom_body_id body) {
    if (!grow((void**)&w->bodies, &w->body_capacity, w->body_count + 1, sizeof(carom_body_id))) {
        return -1;
    }
    w->bodies[w->body_count] = body;
    return w->body_count++;
}

/* The output buffer, emptied; out_push appends. */
static void out_reset(web_world* w) {
    w->out_used = 0;
}

static void out_push(web_world* w, double value) {
    if (w->out_used == w->out_capacity) {
        size_t wanted = w->out_capacity > 0 ? w->out_capacity * 2 : 256;
        double* grown = realloc(w->out, wanted * sizeof(double));
        if (grown == NULL) {
            return; /* the count the reader checks (out_length) stays short */
        }
        w->out = grown;
        w->out_capacity = wanted;
    }
    w->out[w->out_used++] = value;
}

/* How many doubles the last reader wrote into the buffer carom_js_out() points at. */
WEB_API int carom_js_out_length(const web_world* w) {
    return (int)w->out_used;
}

WEB_API const double* carom_js_out(const web_world* w) {
    return w->out;
}

static const char* keep_text(web_world* w, char* text) {
    free(w->text);
    w->text = text;
    return text != NULL ? text : "";
}

/* ---- Worlds ----------------------------------------------------------------------------- */

WEB_API const char* carom_js_version(void) {
    return carom_version_string();
}

static web_world* new_web_world(void) {
    web_world* w = calloc(1, sizeof(web_world));
    if (w == NULL) {
        message_set("out of memory");
    }
    return w;
}

WEB_API void carom_js_destroy(web_world* w) {
    if (w == NULL) {
        return;
    }
    if (carom_world_is_valid(w->world)) {
        carom_destroy_world(w->world);
    }
    if (w->has_scene) {
        scene_free(&w->scene);
    }
    free(w->scene_text);
    free(w->bodies);
    free(w->joints);
    free(w->out);
    free(w->text);
    free(w);
}

/* The scene's world, built as `carom run` builds it; for a snapshot, engine bytes restored
 * into it. */
static web_world* build_scene_world(web_world* w, const char* name, const unsigned char* engine,
                                    size_t engine_size) {
    w->bodies = calloc((size_t)w->scene.body_count + 1, sizeof(carom_body_id));
    if (w->bodies == NULL) {
        message_set("out of memory");
        carom_js_destroy(w);
        return NULL;
    }
    w->body_count = w->body_capacity = w->scene.body_count;
    w->scene.worker_count = 1;
    int failed_body = -1;
    if (scene_build_world(&w->scene, &w->world, w->bodies, &failed_body) != CAROM_OK) {
        message_set("%s: the engine refused %s: %s", name,
                    failed_body >= 0 ? "a body" : "the world", carom_last_error());
        carom_js_destroy(w);
        return NULL;
    }
    if (engine != NULL && carom_world_restore(w->world, engine, engine_size) != CAROM_OK) {
        message_set("%s: the engine refused the snapshot: %s", name, carom_last_error());
        carom_js_destroy(w);
        return NULL;
    }
    return w;
}

/* A world from scene text (the JSON of docs/cli.md). name starts every report line; warnings
 * are kept for carom_js_message() even on success. */
WEB_API web_world* carom_js_load_scene(const char* text, size_t size, const char* name) {
    message_clear();
    web_world* w = new_web_world();
    if (w == NULL) {
        return NULL;
    }
    scene_report report = {name, report_line, NULL, 0, 0};
    if (!scene_load_buffer(text, size, &report, &w->scene)) {
        carom_js_destroy(w);
        return NULL;
    }
    w->has_scene = true;
    w->scene_text = malloc(size + 1);
    if (w->scene_text == NULL) {
        message_set("out of memory");
        carom_js_destroy(w);
        return NULL;
    }
    memcpy(w->scene_text, text, size);
    w->scene_text_size = size;
    w->dt = w->scene.dt;
    return build_scene_world(w, name, NULL, 0);
}

/* A world for the builder API. settings: gravity x, y, dt, substeps (0: the engine's),
 * cell size (0: chosen), sleep (0/1), continuous (0/1), contact hertz, contact damping ratio,
 * push max velocity, joint hertz, joint damping ratio: 12 doubles. */
WEB_API web_world* carom_js_create_world(const double* settings) {
    message_clear();
    web_world* w = new_web_world();
    if (w == NULL) {
        return NULL;
    }
    if (!whole_number(settings[3], 0, 64, "substeps")) {
        carom_js_destroy(w);
        return NULL;
    }
    carom_world_def def = carom_default_world_def();
    def.gravity = carom_v2(settings[0], settings[1]);
    if (settings[3] > 0) {
        def.substeps = (int)settings[3];
    }
    def.cell_size = settings[4];
    def.enable_sleep = settings[5] != 0;
    def.enable_continuous = settings[6] != 0;
    def.contact_hertz = settings[7];
    def.contact_damping_ratio = settings[8];
    def.contact_push_max_velocity = settings[9];
    def.joint_hertz = settings[10];
    def.joint_damping_ratio = settings[11];
    w->dt = settings[2];
    if (!(w->dt > 0.0) || w->dt > 1e12) {
        message_set("dt: must be > 0 (s), got %.17g", w->dt);
        carom_js_destroy(w);
        return NULL;
    }
    w->world = carom_create_world(&def);
    if (!carom_world_is_valid(w->world)) {
        message_set("%s", carom_last_error());
        carom_js_destroy(w);
        return NULL;
    }
    return w;
}

/* The engine's defaults, for the wrapper's builder: the 12 settings above. */
WEB_API const double* carom_js_default_world_settings(void) {
    static double settings[12];
    carom_world_def def = carom_default_world_def();
    double values[12] = {def.gravity.x,
                         def.gravity.y,
                         1.0 / 60.0,
                         def.substeps,
                         def.cell_size,
                         def.enable_sleep,
                         def.enable_continuous,
                         def.contact_hertz,
                         def.contact_damping_ratio,
                         def.contact_push_max_velocity,
                         def.joint_hertz,
                         def.joint_damping_ratio};
    memcpy(settings, values, sizeof(settings));
    return settings;
}

/* n steps of dt; 0, or -1 after a step the engine refused (the steps before it stand). A scene's
 * vehicle control scripts are applied before each step, as `carom run` applies them. */
WEB_API int carom_js_step(web_world* w, int n) {
    for (int i = 0; i < n; ++i) {
        if (w->has_scene && scene_apply_controls(&w->scene, (int64_t)w->step_count) != CAROM_OK) {
            message_set("step %.0f: the vehicle controls failed: %s", w->step_count + 1,
                        carom_last_error());
            return -1;
        }
        if (carom_world_step(w->world, w->dt) != CAROM_OK) {
            message_set("step %.0f failed: %s", w->step_count + 1, carom_last_error());
            return -1;
        }
        w->step_count += 1;
    }
    return 0;
}

WEB_API double carom_js_step_count(const web_world* w) {
    return w->step_count;
}

WEB_API double carom_js_dt(const web_world* w) {
    return w->dt;
}

/* The time the steps span, as the trace writes it: step count × dt. */
WEB_API double carom_js_time(const web_world* w) {
    return w->step_count * w->dt;
}

/* carom_world_hash as `carom run --hash` prints it: 16 hex digits. */
WEB_API const char* carom_js_hash(web_world* w) {
    char* text = malloc(17);
    if (text != NULL) {
        snprintf(text, 17, "%016" PRIx64, carom_world_hash(w->world));
    }
    return keep_text(w, text);
}

/* carom_bodies_hash (the determinism program's hash, docs/determinism.md) over the bodies of the
 * count ids given, in that order; with count -1, over every dynamic and kinematic body in id
 * order (the bodies that program tracks in an unscripted scene). A destroyed body's id is
 * skipped, as there. */
WEB_API const char* carom_js_bodies_hash(web_world* w, const int* ids, int count) {
    carom_body_id* bodies = calloc((size_t)w->body_count + (count > 0 ? (size_t)count : 0) + 1,
                                   sizeof(carom_body_id));
    if (bodies == NULL) {
        message_set("out of memory");
        return NULL;
    }
    int used = 0;
    for (int i = 0; count < 0 && i < w->body_count; ++i) {
        if (carom_body_is_valid(w->bodies[i]) &&
            carom_body_get_type(w->bodies[i]) != CAROM_BODY_STATIC) {
            bodies[used++] = w->bodies[i];
        }
    }
    for (int i = 0; i < count; ++i) {
        if (ids[i] >= 0 && ids[i] < w->body_count && carom_body_is_valid(w->bodies[ids[i]])) {
            bodies[used++] = w->bodies[ids[i]];
        }
    }
    char* text = malloc(17);
    if (text != NULL) {
        snprintf(text, 17, "%016" PRIx64, carom_bodies_hash(bodies, used));
    }
    free(bodies);
    return keep_text(w, text);
}

/* The state file `carom run --out` writes; NULL for a world not made from a scene. */
WEB_API const char* carom_js_state_json(web_world* w) {
    if (!w->has_scene) {
        message_set("stateJson: the world was not loaded from a scene: a state file lists a "
                    "scene's bodies");
        return NULL;
    }
    char* text = NULL;
    size_t size = 0;
    FILE* file = open_memstream(&text, &size);
    if (file == NULL) {
        message_set("out of memory");
        return NULL;
    }
    state_write(file, &w->scene, w->world, w->bodies, w->dt, (int64_t)w->step_count);
    fclose(file);
    return keep_text(w, text);
}

/* ---- Reading the world ------------------------------------------------------------------ */

WEB_API int carom_js_body_count(const web_world* w) {
    return w->body_count;
}

/* The body's name in its scene, or "" (unnamed, or a builder body). */
WEB_API const char* carom_js_body_name(const web_world* w, int id) {
    if (w->has_scene && id >= 0 && id < w->scene.body_count && w->scene.bodies[id].name != NULL) {
        return w->scene.bodies[id].name;
    }
    return "";
}

/* Per body, 9 doubles: valid (0 for a destroyed one), type, x, y, angle, vx, vy, w, awake. */
WEB_API const double* carom_js_bodies(web_world* w) {
    out_reset(w);
    for (int i = 0; i < w->body_count; ++i) {
        carom_body_id body = w->bodies[i];
        bool valid = carom_body_is_valid(body) != 0;
        carom_vec2 p = valid ? carom_body_get_position(body) : carom_v2(0, 0);
        carom_vec2 v = valid ? carom_body_get_linear_velocity(body) : carom_v2(0, 0);
        out_push(w, valid);
        out_push(w, valid ? carom_body_get_type(body) : 0);
        out_push(w, p.x);
        out_push(w, p.y);
        out_push(w, valid ? carom_body_get_angle(body) : 0);
        out_push(w, v.x);
        out_push(w, v.y);
        out_push(w, valid ? carom_body_get_angular_velocity(body) : 0);
        out_push(w, valid ? carom_body_is_awake(body) : 0);
    }
    return w->out;
}

enum { KIND_CIRCLE, KIND_POLYGON, KIND_SEGMENT, KIND_CAPSULE };

static void push_point(web_world* w, carom_transform xf, carom_vec2 local) {
    carom_vec2 p = carom_transform_point(xf, local);
    out_push(w, p.x);
    out_push(w, p.y);
}

static void push_shape(web_world* w, int body_index, carom_shape_id shape, carom_transform xf,
                       double angle) {
    carom_shape_type type = carom_shape_get_type(shape);
    int kind = type == CAROM_SHAPE_CIRCLE    ? KIND_CIRCLE
               : type == CAROM_SHAPE_POLYGON ? KIND_POLYGON
               : type == CAROM_SHAPE_CAPSULE ? KIND_CAPSULE
                                             : KIND_SEGMENT;
    carom_circle circle = {{0, 0}, 0};
    carom_polygon polygon;
    carom_segment segment;
    carom_chain_segment chain;
    carom_capsule capsule;
    double radius = 0;
    int count = 0;
    carom_vec2 points[CAROM_MAX_POLYGON_VERTICES];
    if (type == CAROM_SHAPE_CIRCLE && carom_shape_get_circle(shape, &circle) == CAROM_OK) {
        radius = circle.radius;
        points[count++] = circle.center;
    } else if (type == CAROM_SHAPE_POLYGON && carom_shape_get_polygon(shape, &polygon) == CAROM_OK) {
        radius = polygon.radius;
        for (int i = 0; i < polygon.count; ++i) {
            points[count++] = polygon.vertices[i];
        }
    } else if (type == CAROM_SHAPE_SEGMENT && carom_shape_get_segment(shape, &segment) == CAROM_OK) {
        points[count++] = segment.point1;
        points[count++] = segment.point2;
    } else if (type == CAROM_SHAPE_CHAIN_SEGMENT &&
               carom_shape_get_chain_segment(shape, &chain) == CAROM_OK) {
        points[count++] = chain.point1;
        points[count++] = chain.point2;
    } else if (type == CAROM_SHAPE_CAPSULE && carom_shape_get_capsule(shape, &capsule) == CAROM_OK) {
        radius = capsule.radius;
        points[count++] = capsule.center1;
        points[count++] = capsule.center2;
    } else {
        return;
    }
    out_push(w, body_index);
    out_push(w, kind);
    out_push(w, xf.p.x);
    out_push(w, xf.p.y);
    out_push(w, angle);
    out_push(w, radius);
    out_push(w, carom_shape_is_sensor(shape));
    out_push(w, count);
    for (int i = 0; i < count; ++i) {
        push_point(w, xf, points[i]);
    }
}

/* Draw data, per shape: body id, kind (0 circle, 1 polygon, 2 segment, 3 capsule), the body's
 * x, y, angle, radius, sensor, point count, then the points in world coordinates (a circle's
 * centre; a capsule's two centres). */
WEB_API const double* carom_js_shapes(web_world* w) {
    out_reset(w);
    for (int i = 0; i < w->body_count; ++i) {
        carom_body_id body = w->bodies[i];
        if (!carom_body_is_valid(body)) {
            continue;
        }
        int count = carom_body_get_shape_count(body);
        carom_shape_id* shapes = calloc((size_t)count + 1, sizeof(carom_shape_id));
        if (shapes == NULL) {
            continue;
        }
        count = carom_body_get_shapes(body, shapes, count);
        carom_transform xf = carom_body_get_transform(body);
        double angle = carom_body_get_angle(body);
        for (int s = 0; s < count; ++s) {
            push_shape(w, i, shapes[s], xf, angle);
        }
        free(shapes);
    }
    return w->out;
}

static void push_joint(web_world* w, carom_joint_id joint) {
    carom_joint_frame frame;
    if (!carom_joint_is_valid(joint) || carom_joint_get_frame(joint, &frame) != CAROM_OK) {
        return;
    }
    carom_joint_type type = carom_joint_get_type(joint);
    carom_transform xf_b = carom_body_get_transform(carom_joint_get_body_b(joint));
    carom_vec2 anchor_a = frame.local_anchor_a;
    if (type != CAROM_JOINT_MOUSE) {
        anchor_a = carom_transform_point(carom_body_get_transform(carom_joint_get_body_a(joint)),
                                         frame.local_anchor_a);
    }
    carom_vec2 anchor_b = carom_transform_point(xf_b, frame.local_anchor_b);
    out_push(w, type);
    out_push(w, anchor_a.x);
    out_push(w, anchor_a.y);
    out_push(w, anchor_b.x);
    out_push(w, anchor_b.y);
}

/* Per joint that still exists, 5 doubles: its carom_joint_type, anchor A x, y and anchor B x, y
 * in world coordinates (a mouse joint's A is its target). The scene's joints, then the
 * builder's, then a drag. */
WEB_API const double* carom_js_joints(web_world* w) {
    out_reset(w);
    for (int i = 0; w->has_scene && i < w->scene.joint_count; ++i) {
        push_joint(w, w->scene.joint_ids[i]);
    }
    for (int i = 0; i < w->joint_count; ++i) {
        push_joint(w, w->joints[i]);
    }
    if (CAROM_IS_NON_NULL(w->drag)) {
        push_joint(w, w->drag);
    }
    return w->out;
}

/* The JS id of a body id of this world, or -1. */
static int body_index(const web_world* w, carom_body_id body) {
    for (int i = 0; i < w->body_count; ++i) {
        if (carom_body_id_equals(w->bodies[i], body)) {
            return i;
        }
    }
    return -1;
}

typedef struct point_query {
    carom_vec2 point;
    carom_body_id found;
} point_query;

static int take_dynamic_body(carom_shape_id shape, void* context) {
    point_query* query = context;
    carom_body_id body = carom_shape_get_body(shape);
    if (!carom_shape_is_sensor(shape) && carom_body_get_type(body) == CAROM_BODY_DYNAMIC) {
        query->found = body;
        return 0; /* the first in the query's fixed order */
    }
    return 1;
}

/* The id of a dynamic body with a (non-sensor) shape containing the point, or -1. */
WEB_API int carom_js_body_at(web_world* w, double x, double y) {
    point_query query = {carom_v2(x, y), carom_null_body_id};
    if (carom_world_overlap_point(w->world, query.point, carom_default_filter(),
                                  take_dynamic_body, &query) != CAROM_OK) {
        message_set("%s", carom_last_error());
        return -1;
    }
    return CAROM_IS_NON_NULL(query.found) ? body_index(w, query.found) : -1;
}

/* ---- Dragging with a mouse joint -------------------------------------------------------- */

WEB_API int carom_js_drag_end(web_world* w) {
    if (CAROM_IS_NON_NULL(w->drag) && carom_joint_is_valid(w->drag)) {
        carom_destroy_joint(w->drag);
    }
    w->drag = carom_null_joint_id;
    return 0;
}

/* Grab body id at (x, y): a mouse joint pulling that point towards the pointer, strong enough to
 * lift the body against a thousand times its weight at 10 m/s², as a hand would. */
WEB_API int carom_js_drag_start(web_world* w, int id, double x, double y) {
    carom_js_drag_end(w);
    if (id < 0 || id >= w->body_count || !carom_body_is_valid(w->bodies[id])) {
        message_set("dragStart: no body %d", id);
        return -1;
    }
    carom_body_id body = w->bodies[id];
    if (carom_body_get_type(body) != CAROM_BODY_DYNAMIC) {
        message_set("dragStart: body %d is not dynamic", id);
        return -1;
    }
    carom_mouse_joint_def def = carom_default_mouse_joint_def();
    def.target = carom_v2(x, y);
    def.max_force = 1000.0 * 10.0 * carom_body_get_mass(body);
    def.max_force = def.max_force > 0.0 ? def.max_force : 1000.0;
    w->drag = carom_create_mouse_joint(body, &def);
    if (CAROM_IS_NULL(w->drag)) {
        message_set("%s", carom_last_error());
        return -1;
    }
    carom_body_wake(body);
    return 0;
}

WEB_API int carom_js_drag_move(web_world* w, double x, double y) {
    if (CAROM_IS_NULL(w->drag) || !carom_joint_is_valid(w->drag)) {
        return 0;
    }
    if (carom_mouse_joint_set_target(w->drag, carom_v2(x, y)) != CAROM_OK) {
        message_set("%s", carom_last_error());
        return -1;
    }
    carom_body_wake(carom_joint_get_body_b(w->drag));
    return 0;
}

/* ---- Ray casts and events --------------------------------------------------------------- */

/* The closest hit from (x1, y1) to (x2, y2): hit (0/1), body id, point x, y, normal x, y,
 * fraction. */
WEB_API const double* carom_js_ray_cast(web_world* w, double x1, double y1, double x2, double y2) {
    out_reset(w);
    carom_ray_result hit = carom_world_cast_ray_closest(w->world, carom_v2(x1, y1),
                                                        carom_v2(x2 - x1, y2 - y1),
                                                        carom_default_filter());
    out_push(w, hit.hit);
    out_push(w, hit.hit ? body_index(w, carom_shape_get_body(hit.shape)) : -1);
    out_push(w, hit.point.x);
    out_push(w, hit.point.y);
    out_push(w, hit.normal.x);
    out_push(w, hit.normal.y);
    out_push(w, hit.fraction);
    return w->out;
}

/* ---- Overlap queries -------------------------------------------------------------------- */

/* Pushes the body id of each shape an overlap query reports, skipping a body just pushed (the
 * query reports in shape-id order, so a body's shapes usually come together). */
typedef struct overlap_bodies {
    web_world* w;
    int last;
} overlap_bodies;

static int push_overlap_body(carom_shape_id shape, void* context) {
    overlap_bodies* found = context;
    int id = body_index(found->w, carom_shape_get_body(shape));
    if (id >= 0 && id != found->last) {
        out_push(found->w, id);
        found->last = id;
    }
    return 1;
}

/* The output: the body ids found, or one -1 and the message set when the query was refused. */
static const double* overlap_done(web_world* w, carom_status status) {
    if (status != CAROM_OK) {
        message_set("%s", carom_last_error());
        out_reset(w);
        out_push(w, -1);
    }
    return w->out;
}

/* Bodies with a shape containing (x, y) (sensors included). */
WEB_API const double* carom_js_overlap_point(web_world* w, double x, double y) {
    out_reset(w);
    overlap_bodies found = {w, -1};
    return overlap_done(w, carom_world_overlap_point(w->world, carom_v2(x, y),
                                                     carom_default_filter(), push_overlap_body,
                                                     &found));
}

/* Bodies with a shape whose bounding box meets the box (x1, y1)..(x2, y2). */
WEB_API const double* carom_js_overlap_aabb(web_world* w, double x1, double y1, double x2,
                                            double y2) {
    out_reset(w);
    overlap_bodies found = {w, -1};
    carom_aabb box = {{x1, y1}, {x2, y2}};
    return overlap_done(w, carom_world_overlap_aabb(w->world, box, carom_default_filter(),
                                                    push_overlap_body, &found));
}

/* Bodies with a shape overlapping a circle of radius r at (x, y) (radius > 0), or a box of half
 * extents (hx, hy) centred at (x, y) turned by angle (r < 0). */
WEB_API const double* carom_js_overlap_shape(web_world* w, double x, double y, double radius,
                                             double hx, double hy, double angle) {
    out_reset(w);
    carom_convex_shape shape;
    memset(&shape, 0, sizeof shape);
    carom_status status = CAROM_OK;
    if (radius >= 0.0) {
        shape.is_circle = 1;
        shape.circle.center = carom_v2(0.0, 0.0);
        shape.circle.radius = radius;
    } else {
        status = carom_make_box(hx, hy, carom_v2(0.0, 0.0), 0.0, &shape.polygon);
    }
    if (status != CAROM_OK) {
        return overlap_done(w, status);
    }
    carom_transform xf = {{x, y}, carom_make_rot(angle)};
    overlap_bodies found = {w, -1};
    return overlap_done(w, carom_world_overlap_shape(w->world, &shape, xf, carom_default_filter(),
                                                     push_overlap_body, &found));
}

enum { EVENT_BEGIN, EVENT_END, EVENT_HIT, EVENT_SENSOR_BEGIN, EVENT_SENSOR_END };

/* The body id of a shape, or -1 for a destroyed one. */
static int shape_body_index(const web_world* w, carom_shape_id shape) {
    return carom_shape_is_valid(shape) ? body_index(w, carom_shape_get_body(shape)) : -1;
}

static void push_event(web_world* w, int kind, carom_shape_id a, carom_shape_id b,
                       carom_vec2 point, carom_vec2 normal, double speed) {
    out_push(w, kind);
    out_push(w, shape_body_index(w, a));
    out_push(w, shape_body_index(w, b));
    out_push(w, point.x);
    out_push(w, point.y);
    out_push(w, normal.x);
    out_push(w, normal.y);
    out_push(w, speed);
}

/* The last step's events, 8 doubles each: kind (begin, end, hit, sensor begin, sensor end),
 * body A, body B (a sensor's body, then its visitor's), point x, y, normal x, y, approach speed
 * (the point and normal of a begin are its first manifold point's). */
WEB_API const double* carom_js_events(web_world* w) {
    out_reset(w);
    carom_contact_events contacts = carom_world_get_contact_events(w->world);
    carom_vec2 none = carom_v2(0, 0);
    for (int i = 0; i < contacts.begin_count; ++i) {
        const carom_contact_begin_event* e = &contacts.begin_events[i];
        carom_vec2 point = e->manifold.point_count > 0 ? e->manifold.points[0].point : none;
        push_event(w, EVENT_BEGIN, e->shape_a, e->shape_b, point, e->manifold.normal,
                   e->approach_speed);
    }
    for (int i = 0; i < contacts.end_count; ++i) {
        const carom_contact_end_event* e = &contacts.end_events[i];
        push_event(w, EVENT_END, e->shape_a, e->shape_b, none, none, 0);
    }
    for (int i = 0; i < contacts.hit_count; ++i) {
        const carom_contact_hit_event* e = &contacts.hit_events[i];
        push_event(w, EVENT_HIT, e->shape_a, e->shape_b, e->point, e->normal, e->approach_speed);
    }
    carom_sensor_events sensors = carom_world_get_sensor_events(w->world);
    for (int i = 0; i < sensors.begin_count; ++i) {
        const carom_sensor_event* e = &sensors.begin_events[i];
        push_event(w, EVENT_SENSOR_BEGIN, e->sensor, e->visitor, none, none, 0);
    }
    for (int i = 0; i < sensors.end_count; ++i) {
        const carom_sensor_event* e = &sensors.end_events[i];
        push_event(w, EVENT_SENSOR_END, e->sensor, e->visitor, none, none, 0);
    }
    return w->out;
}

/* ---- Snapshots -------------------------------------------------------------------------- */

/* The world's snapshot into the output buffer's bytes: for a scene world, a snapshot file as
 * `carom run --save` writes it (so `carom resume` continues it); for a builder world, the
 * engine's own snapshot (carom/snapshot.h). Returns the byte count, or -1. The bytes are at
 * carom_js_out(w). */
WEB_API int carom_js_save(web_world* w) {
    size_t size = 0;
    if (carom_world_save(w->world, CAROM_SNAPSHOT_FULL, NULL, 0, &size) != CAROM_OK) {
        message_set("%s", carom_last_error());
        return -1;
    }
    unsigned char* engine = malloc(size);
    if (engine == NULL ||
        carom_world_save(w->world, CAROM_SNAPSHOT_FULL, engine, size, &size) != CAROM_OK) {
        message_set("%s", engine == NULL ? "out of memory" : carom_last_error());
        free(engine);
        return -1;
    }
    char* bytes = NULL;
    size_t byte_count = 0;
    if (w->has_scene) {
        snapshot_file file = {w->dt,
                              (uint64_t)w->step_count,
                              w->scene.substeps,
                              w->scene_text,
                              w->scene_text_size,
                              engine,
                              size,
                              w->scene.body_count};
        FILE* stream = open_memstream(&bytes, &byte_count);
        if (stream != NULL) {
            snapshot_file_write(stream, &file);
            fclose(stream);
        }
        free(engine);
    } else {
        bytes = (char*)engine;
        byte_count = size;
    }
    if (bytes == NULL) {
        message_set("out of memory");
        return -1;
    }
    free(w->text);
    w->text = bytes;
    return (int)byte_count;
}

WEB_API const char* carom_js_saved_bytes(const web_world* w) {
    return w->text;
}

/* A world from save()'s bytes: a snapshot file (scene and engine) or an engine snapshot. */
WEB_API web_world* carom_js_restore(const unsigned char* data, size_t size) {
    message_clear();
    web_world* w = new_web_world();
    if (w == NULL) {
        return NULL;
    }
    if (!snapshot_file_has_magic(data, size)) {
        w->world = carom_create_world_from_snapshot(data, size);
        if (!carom_world_is_valid(w->world)) {
            message_set("restore: %s", carom_last_error());
            carom_js_destroy(w);
            return NULL;
        }
        int count = 0;
        carom_world_get_body_ids(w->world, NULL, 0, &count);
        w->bodies = calloc((size_t)count + 1, sizeof(carom_body_id));
        if (w->bodies == NULL) {
            message_set("out of memory");
            carom_js_destroy(w);
            return NULL;
        }
        w->body_count = w->body_capacity = count;
        carom_world_get_body_ids(w->world, w->bodies, count, &count);
        w->dt = 1.0 / 60.0;
        return w;
    }
    snapshot_file file;
    char reason[1024];
    if (!snapshot_file_parse(data, size, &file, reason, sizeof(reason))) {
        message_set("restore: %s", reason);
        carom_js_destroy(w);
        return NULL;
    }
    scene_report report = {"restore (saved scene)", report_line, NULL, 0, 0};
    if (!scene_load_buffer(file.scene, file.scene_size, &report, &w->scene)) {
        carom_js_destroy(w);
        return NULL;
    }
    w->has_scene = true;
    w->scene.substeps = file.substeps;
    w->scene_text = malloc(file.scene_size + 1);
    if (w->scene_text == NULL) {
        message_set("out of memory");
        carom_js_destroy(w);
        return NULL;
    }
    memcpy(w->scene_text, file.scene, file.scene_size);
    w->scene_text_size = file.scene_size;
    w->dt = file.dt;
    w->step_count = (double)file.step;
    return build_scene_world(w, "restore", file.engine, file.engine_size);
}

/* The dt a restored builder world steps with (an engine snapshot does not hold one). */
WEB_API void carom_js_set_dt(web_world* w, double dt) {
    w->dt = dt;
}

/* ---- The builder ------------------------------------------------------------------------ */

/* A body. def: type (0 static, 1 kinematic, 2 dynamic), x, y, angle, vx, vy, w, linear damping,
 * angular damping, gravity scale, bullet, enable sleep, awake, fixed rotation: 14 doubles.
 * Returns its id, or -1. */
WEB_API int carom_js_create_body(web_world* w, const double* d) {
    carom_body_def def = carom_default_body_def();
    def.type = (carom_body_type)(int)d[0];
    def.position = carom_v2(d[1], d[2]);
    def.angle = d[3];
    def.linear_velocity = carom_v2(d[4], d[5]);
    def.angular_velocity = d[6];
    def.linear_damping = d[7];
    def.angular_damping = d[8];
    def.gravity_scale = d[9];
    def.bullet = d[10] != 0;
    def.enable_sleep = d[11] != 0;
    def.awake = d[12] != 0;
    carom_body_id body = carom_create_body(w->world, &def);
    if (CAROM_IS_NULL(body)) {
        message_set("%s", carom_last_error());
        return -1;
    }
    if (d[13] != 0 && carom_body_set_fixed_rotation(body, 1) != CAROM_OK) {
        message_set("%s", carom_last_error());
        carom_destroy_body(body);
        return -1;
    }
    int id = add_body_id(w, body);
    if (id < 0) {
        carom_destroy_body(body);
    }
    return id;
}

WEB_API int carom_js_destroy_body(web_world* w, int id) {
    if (id < 0 || id >= w->body_count || carom_destroy_body(w->bodies[id]) != CAROM_OK) {
        message_set("destroy: no body %d", id);
        return -1;
    }
    return 0;
}

static carom_body_id body_of(web_world* w, int id) {
    if (id < 0 || id >= w->body_count || !carom_body_is_valid(w->bodies[id])) {
        message_set("no body %d in this world", id);
        return carom_null_body_id;
    }
    return w->bodies[id];
}

/* A shape's material. def: density, friction, restitution, sensor, category, mask (-1: every
 * bit), group, hit events, hit speed threshold, contact events: 10 doubles. The filter's
 * numbers are checked here (JavaScript numbers are doubles: bits 0 to 52, as in scene files);
 * the rest by the engine. */
static bool material_ok(const double* d) {
    return whole_number(d[4], 0, 9007199254740991.0, "category") &&
           (d[5] == -1 || whole_number(d[5], 0, 9007199254740991.0, "mask")) &&
           whole_number(d[6], -2147483648.0, 2147483647.0, "group");
}

static carom_shape_def shape_def_of(const double* d) {
    carom_shape_def def = carom_default_shape_def();
    def.density = d[0];
    def.friction = d[1];
    def.restitution = d[2];
    def.is_sensor = d[3] != 0;
    def.filter.category = (uint64_t)d[4];
    def.filter.mask = d[5] < 0 ? UINT64_MAX : (uint64_t)d[5];
    def.filter.group = (int32_t)d[6];
    def.enable_hit_events = d[7] != 0;
    def.hit_speed_threshold = d[8];
    def.enable_contact_events = d[9] != 0;
    return def;
}

static int shape_result(carom_shape_id shape) {
    if (CAROM_IS_NULL(shape)) {
        message_set("%s", carom_last_error());
        return -1;
    }
    return 0;
}

/* geometry: center x, y, radius. */
WEB_API int carom_js_add_circle(web_world* w, int id, const double* material, const double* g) {
    carom_body_id body = body_of(w, id);
    if (CAROM_IS_NULL(body) || !material_ok(material)) {
        return -1;
    }
    carom_shape_def def = shape_def_of(material);
    carom_circle circle = {carom_v2(g[0], g[1]), g[2]};
    return shape_result(carom_create_circle_shape(body, &def, &circle));
}

/* geometry: half width, half height, center x, y, angle, rounding radius. */
WEB_API int carom_js_add_box(web_world* w, int id, const double* material, const double* g) {
    carom_body_id body = body_of(w, id);
    if (CAROM_IS_NULL(body) || !material_ok(material)) {
        return -1;
    }
    carom_shape_def def = shape_def_of(material);
    carom_polygon polygon;
    carom_status status =
        g[5] > 0 ? carom_make_rounded_box(g[0], g[1], carom_v2(g[2], g[3]), g[4], g[5], &polygon)
                 : carom_make_box(g[0], g[1], carom_v2(g[2], g[3]), g[4], &polygon);
    if (status != CAROM_OK) {
        message_set("%s", carom_last_error());
        return -1;
    }
    return shape_result(carom_create_polygon_shape(body, &def, &polygon));
}

/* geometry: rounding radius, then count points as x, y pairs. */
WEB_API int carom_js_add_polygon(web_world* w, int id, const double* material, const double* g,
                                 int count) {
    carom_body_id body = body_of(w, id);
    if (CAROM_IS_NULL(body)) {
        return -1;
    }
    if (!material_ok(material)) {
        return -1;
    }
    if (count < 3 || count > CAROM_MAX_POLYGON_VERTICES) {
        message_set("addPolygon: %d points: a polygon has 3 to %d", count,
                    CAROM_MAX_POLYGON_VERTICES);
        return -1;
    }
    carom_vec2 points[CAROM_MAX_POLYGON_VERTICES];
    for (int i = 0; i < count; ++i) {
        points[i] = carom_v2(g[1 + 2 * i], g[2 + 2 * i]);
    }
    carom_shape_def def = shape_def_of(material);
    carom_polygon polygon;
    carom_status status = g[0] > 0 ? carom_make_rounded_polygon(points, count, g[0], &polygon)
                                   : carom_make_polygon(points, count, &polygon);
    if (status != CAROM_OK) {
        message_set("%s", carom_last_error());
        return -1;
    }
    return shape_result(carom_create_polygon_shape(body, &def, &polygon));
}

/* geometry: center1 x, y, center2 x, y, radius. */
WEB_API int carom_js_add_capsule(web_world* w, int id, const double* material, const double* g) {
    carom_body_id body = body_of(w, id);
    if (CAROM_IS_NULL(body) || !material_ok(material)) {
        return -1;
    }
    carom_shape_def def = shape_def_of(material);
    carom_capsule capsule = {carom_v2(g[0], g[1]), carom_v2(g[2], g[3]), g[4]};
    return shape_result(carom_create_capsule_shape(body, &def, &capsule));
}

/* geometry: point1 x, y, point2 x, y. */
WEB_API int carom_js_add_segment(web_world* w, int id, const double* material, const double* g) {
    carom_body_id body = body_of(w, id);
    if (CAROM_IS_NULL(body) || !material_ok(material)) {
        return -1;
    }
    carom_shape_def def = shape_def_of(material);
    carom_segment segment = {carom_v2(g[0], g[1]), carom_v2(g[2], g[3])};
    return shape_result(carom_create_segment_shape(body, &def, &segment));
}

static int add_joint(web_world* w, carom_joint_id joint) {
    if (CAROM_IS_NULL(joint)) {
        message_set("%s", carom_last_error());
        return -1;
    }
    if (!grow((void**)&w->joints, &w->joint_capacity, w->joint_count + 1,
              sizeof(carom_joint_id))) {
        carom_destroy_joint(joint);
        return -1;
    }
    w->joints[w->joint_count] = joint;
    return w->joint_count++;
}

/* A joint between bodies a and b. d (doubles): kind (carom_joint_type), collide connected,
 * break force, break torque, anchor x, y (distance: anchor A), anchor B x, y (distance), axis
 * x, y (prismatic, wheel), enable limit, lower, upper, enable motor, motor speed, max motor
 * torque or force, enable spring, hertz, damping ratio, length (distance): 20 doubles.
 * Returns the joint's index among the builder's joints, or -1. */
WEB_API int carom_js_create_joint(web_world* w, int a, int b, const double* d) {
    carom_body_id body_a = body_of(w, a);
    carom_body_id body_b = CAROM_IS_NULL(body_a) ? carom_null_body_id : body_of(w, b);
    if (CAROM_IS_NULL(body_b)) {
        return -1;
    }
    carom_joint_type kind = (carom_joint_type)(int)d[0];
    carom_vec2 anchor = carom_v2(d[4], d[5]);
    carom_vec2 anchor_b = carom_v2(d[6], d[7]);
    carom_vec2 axis = carom_v2(d[8], d[9]);
    switch (kind) {
    case CAROM_JOINT_REVOLUTE: {
        carom_revolute_joint_def def = carom_default_revolute_joint_def();
        def.collide_connected = d[1] != 0;
        def.break_force = d[2];
        def.break_torque = d[3];
        def.anchor = anchor;
        def.enable_limit = d[10] != 0;
        def.lower_angle = d[11];
        def.upper_angle = d[12];
        def.enable_motor = d[13] != 0;
        def.motor_speed = d[14];
        def.max_motor_torque = d[15];
        def.enable_spring = d[16] != 0;
        def.hertz = d[17];
        def.damping_ratio = d[18];
        return add_joint(w, carom_create_revolute_joint(body_a, body_b, &def));
    }
    case CAROM_JOINT_PRISMATIC: {
        carom_prismatic_joint_def def = carom_default_prismatic_joint_def();
        def.collide_connected = d[1] != 0;
        def.break_force = d[2];
        def.break_torque = d[3];
        def.anchor = anchor;
        def.axis = axis;
        def.enable_limit = d[10] != 0;
        def.lower_translation = d[11];
        def.upper_translation = d[12];
        def.enable_motor = d[13] != 0;
        def.motor_speed = d[14];
        def.max_motor_force = d[15];
        def.enable_spring = d[16] != 0;
        def.hertz = d[17];
        def.damping_ratio = d[18];
        return add_joint(w, carom_create_prismatic_joint(body_a, body_b, &def));
    }
    case CAROM_JOINT_DISTANCE: {
        carom_distance_joint_def def = carom_default_distance_joint_def();
        def.collide_connected = d[1] != 0;
        def.break_force = d[2];
        def.anchor_a = anchor;
        def.anchor_b = anchor_b;
        def.enable_limit = d[10] != 0;
        if (def.enable_limit) {
            def.min_length = d[11];
            def.max_length = d[12];
        }
        def.enable_spring = d[16] != 0;
        def.hertz = d[17];
        def.damping_ratio = d[18];
        def.length = d[19];
        return add_joint(w, carom_create_distance_joint(body_a, body_b, &def));
    }
    case CAROM_JOINT_WELD: {
        carom_weld_joint_def def = carom_default_weld_joint_def();
        def.collide_connected = d[1] != 0;
        def.break_force = d[2];
        def.break_torque = d[3];
        def.anchor = anchor;
        return add_joint(w, carom_create_weld_joint(body_a, body_b, &def));
    }
    case CAROM_JOINT_WHEEL: {
        carom_wheel_joint_def def = carom_default_wheel_joint_def();
        def.collide_connected = d[1] != 0;
        def.break_force = d[2];
        def.break_torque = d[3];
        def.anchor = anchor;
        def.axis = axis;
        def.enable_limit = d[10] != 0;
        def.lower_translation = d[11];
        def.upper_translation = d[12];
        def.enable_motor = d[13] != 0;
        def.motor_speed = d[14];
        def.max_motor_torque = d[15];
        if (d[16] != 0) {
            def.hertz = d[17];
            def.damping_ratio = d[18];
        }
        return add_joint(w, carom_create_wheel_joint(body_a, body_b, &def));
    }
    default:
        message_set("createJoint: kind %d: revolute, prismatic, distance, weld or wheel",
                    (int)kind);
        return -1;
    }
}

/* Forces and velocities, for programs that drive bodies. what: 0 velocity (vx, vy, w),
 * 1 force at the center (fx, fy), 2 linear impulse at the center (ix, iy), 3 transform
 * (x, y, angle), 4 torque (t), 5 angular impulse (i). */
WEB_API int carom_js_body_apply(web_world* w, int id, int what, double a, double b, double c) {
    carom_body_id body = body_of(w, id);
    if (CAROM_IS_NULL(body)) {
        return -1;
    }
    carom_status status = CAROM_OK;
    switch (what) {
    case 0:
        status = carom_body_set_linear_velocity(body, carom_v2(a, b));
        status = status == CAROM_OK ? carom_body_set_angular_velocity(body, c) : status;
        break;
    case 1:
        status = carom_body_apply_force_to_center(body, carom_v2(a, b));
        break;
    case 2:
        status = carom_body_apply_linear_impulse(body, carom_v2(a, b),
                                                 carom_body_get_world_center(body));
        break;
    case 3:
        status = carom_body_set_transform(body, carom_v2(a, b), c);
        break;
    case 4:
        status = carom_body_apply_torque(body, a);
        break;
    case 5:
        status = carom_body_apply_angular_impulse(body, a);
        break;
    default:
        message_set("unknown body operation %d", what);
        return -1;
    }
    if (status != CAROM_OK) {
        message_set("%s", carom_last_error());
        return -1;
    }
    return 0;
}
