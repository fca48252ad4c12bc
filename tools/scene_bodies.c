/* Scene files: the "bodies" array and each body's "shapes", read and checked against the
 * contract of docs/cli.md into the plain description of scene.h. */
#define _POSIX_C_SOURCE 200809L
#include "scene_loader.h"

#include "format.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- Shapes ----------------------------------------------------------------------------- */

enum shape_key {
    SHAPE_TYPE,
    SHAPE_DENSITY,
    SHAPE_FRICTION,
    SHAPE_RESTITUTION,
    SHAPE_SENSOR,
    SHAPE_CATEGORY,
    SHAPE_MASK,
    SHAPE_GROUP,
    SHAPE_RADIUS,
    SHAPE_CENTER,
    SHAPE_HALF_EXTENTS,
    SHAPE_ANGLE,
    SHAPE_VERTICES,
    SHAPE_POINTS,
    SHAPE_LOOP,
    SHAPE_CENTER1,
    SHAPE_CENTER2,
    SHAPE_HIT_EVENTS,
    SHAPE_HIT_SPEED_THRESHOLD,
    SHAPE_SURFACE_GRIP,
    SHAPE_ONE_SIDED,
    SHAPE_DECOMPOSE,
    SHAPE_CONTACT_EVENTS,
    SHAPE_KEY_COUNT
};

static const char* const shape_keys[SHAPE_KEY_COUNT] = {
    "type",     "density", "friction", "restitution", "sensor",       "category",
    "mask",     "group",   "radius",   "center",      "half_extents", "angle",
    "vertices", "points",  "loop",     "center1",     "center2",
    "hit_events",
    "hit_speed_threshold",
    "surface_grip",
    "one_sided",
    "decompose",
    "contact_events",
};

static const char* const shape_type_names[] = {"circle",  "box",   "polygon",
                                               "segment", "chain", "capsule"};
#define SHAPE_TYPE_COUNT 6

/* Which shape types take each geometry key (a bit per scene_shape_type). */
static unsigned shape_key_types(int key) {
    switch (key) {
    case SHAPE_RADIUS:
        return 1u << SCENE_SHAPE_CIRCLE | 1u << SCENE_SHAPE_CAPSULE | 1u << SCENE_SHAPE_BOX |
               1u << SCENE_SHAPE_POLYGON;
    case SHAPE_CENTER1:
    case SHAPE_CENTER2:
        return 1u << SCENE_SHAPE_CAPSULE;
    case SHAPE_CENTER:
        return 1u << SCENE_SHAPE_CIRCLE | 1u << SCENE_SHAPE_BOX;
    case SHAPE_HALF_EXTENTS:
    case SHAPE_ANGLE:
        return 1u << SCENE_SHAPE_BOX;
    case SHAPE_VERTICES:
    case SHAPE_DECOMPOSE:
        return 1u << SCENE_SHAPE_POLYGON;
    case SHAPE_POINTS:
        return 1u << SCENE_SHAPE_SEGMENT | 1u << SCENE_SHAPE_CHAIN;
    case SHAPE_LOOP:
    case SHAPE_ONE_SIDED:
        return 1u << SCENE_SHAPE_CHAIN;
    default:
        return ~0u; /* common to every shape */
    }
}

static bool read_shape_type(loader* ld, const cJSON* item, scene_shape_type* out) {
    int index = read_type_name(ld, item, "shape", shape_type_names, SHAPE_TYPE_COUNT,
                               "\"circle\", \"box\", \"polygon\", \"segment\", \"chain\" or "
                               "\"capsule\"");
    if (index >= 0) {
        *out = (scene_shape_type)index;
    }
    return index >= 0;
}

/* Keys of another shape type ("radius" on a box) are ignored with a warning, like unknown
 * keys: they are not wrong JSON, but they do nothing. */
static void warn_foreign_keys(loader* ld, const cJSON** fields, scene_shape_type type) {
    for (int key = 0; key < SHAPE_KEY_COUNT; ++key) {
        if (fields[key] != NULL && (shape_key_types(key) & (1u << type)) == 0) {
            size_t mark = path_push_key(ld, shape_keys[key]);
            report_warning(ld, "a %s has no %s, ignored", shape_type_names[type], shape_keys[key]);
            path_pop(ld, mark);
        }
    }
}

/* Filter bits: JSON numbers are doubles, so integers are exact up to 2^53 - 1 and no further. */
static bool read_filter(loader* ld, const cJSON** fields, scene_shape* shape) {
    double category = 1.0, mask = 0.0, group = 0.0;
    bool ok = member_integer(ld, fields[SHAPE_CATEGORY], "category", 0.0, SCENE_MAX_FILTER_BITS,
                             &category);
    ok = member_integer(ld, fields[SHAPE_MASK], "mask", 0.0, SCENE_MAX_FILTER_BITS, &mask) && ok;
    ok = member_integer(ld, fields[SHAPE_GROUP], "group", (double)INT32_MIN, (double)INT32_MAX,
                        &group) &&
         ok;
    shape->filter = carom_default_filter();
    shape->filter.category = (uint64_t)category;
    shape->mask_is_all_bits = fields[SHAPE_MASK] == NULL;
    if (!shape->mask_is_all_bits) {
        shape->filter.mask = (uint64_t)mask;
    }
    shape->filter.group = (int32_t)group;
    return ok;
}

static bool read_circle(loader* ld, const cJSON** fields, scene_shape* shape, double* mass) {
    bool ok = require(ld, fields[SHAPE_RADIUS], "radius", "a circle needs a radius (m, > 0)");
    ok = member_number(ld, fields[SHAPE_RADIUS], "radius", RADIUS, &shape->radius) && ok;
    ok = member_vec2(ld, fields[SHAPE_CENTER], "center", ANY, &shape->center) && ok;
    if (ok) {
        carom_circle circle = {shape->center, shape->radius};
        *mass = carom_compute_circle_mass(&circle, shape->density).mass;
    }
    return ok;
}

/* A box's or polygon's optional "radius": the rounding, 0 (sharp, the default) or at least the
 * engine's smallest radius. */
static bool read_rounding(loader* ld, const cJSON** fields, scene_shape* shape) {
    shape->radius = 0.0;
    bool ok = member_number(ld, fields[SHAPE_RADIUS], "radius", NON_NEGATIVE, &shape->radius);
    if (ok && shape->radius != 0.0 && shape->radius < CAROM_MIN_RADIUS) {
        size_t mark = path_push_key(ld, "radius");
        report_error(ld,
                     "must be 0 (sharp corners) or at least %g (the engine's smallest radius, "
                     "in m), got %g",
                     CAROM_MIN_RADIUS, shape->radius);
        path_pop(ld, mark);
        ok = false;
    }
    return ok;
}

/* A capsule: two centres and a radius; centres that coincide make a circle, which the engine
 * refuses with a message saying so. */
static bool read_capsule(loader* ld, const cJSON** fields, scene_shape* shape, double* mass) {
    bool ok = require(ld, fields[SHAPE_CENTER1], "center1",
                      "a capsule needs center1 and center2 [x, y] (m) and a radius (m)");
    ok = require(ld, fields[SHAPE_CENTER2], "center2",
                 "a capsule needs center1 and center2 [x, y] (m) and a radius (m)") &&
         ok;
    ok = require(ld, fields[SHAPE_RADIUS], "radius", "a capsule needs a radius (m, > 0)") && ok;
    ok = member_vec2(ld, fields[SHAPE_CENTER1], "center1", ANY, &shape->center1) && ok;
    ok = member_vec2(ld, fields[SHAPE_CENTER2], "center2", ANY, &shape->center2) && ok;
    ok = member_number(ld, fields[SHAPE_RADIUS], "radius", RADIUS, &shape->radius) && ok;
    if (ok) {
        carom_capsule capsule = {shape->center1, shape->center2, shape->radius};
        carom_polygon polygon;
        if (carom_make_capsule_polygon(&capsule, &polygon) != CAROM_OK) {
            report_error(ld, "%s", carom_last_error());
            return false;
        }
        *mass = carom_compute_polygon_mass(&polygon, shape->density).mass;
    }
    return ok;
}

static bool read_box(loader* ld, const cJSON** fields, scene_shape* shape, double* mass) {
    bool ok = require(ld, fields[SHAPE_HALF_EXTENTS], "half_extents",
                      "a box needs half_extents [hx, hy] (m, both > 0)");
    ok = member_vec2(ld, fields[SHAPE_HALF_EXTENTS], "half_extents", POSITIVE,
                     &shape->half_extents) &&
         ok;
    ok = member_vec2(ld, fields[SHAPE_CENTER], "center", ANY, &shape->center) && ok;
    ok = member_number(ld, fields[SHAPE_ANGLE], "angle", ANY, &shape->angle) && ok;
    ok = read_rounding(ld, fields, shape) && ok;
    if (ok) {
        carom_polygon polygon;
        if (carom_make_rounded_box(shape->half_extents.x, shape->half_extents.y, shape->center,
                                   shape->angle, shape->radius, &polygon) != CAROM_OK) {
            report_error(ld, "%s", carom_last_error());
            return false;
        }
        *mass = carom_compute_polygon_mass(&polygon, shape->density).mass;
    }
    return ok;
}

/* The polygon split into convex pieces as carom_create_decomposed_polygon_shapes will split it:
 * true with *pieces set, or false with carom_last_error() saying why not. */
static bool decompose_points(const scene_shape* shape, int* pieces, double* mass) {
    carom_polygon* polygons = checked_calloc(CAROM_MAX_DECOMPOSE_PIECES, sizeof(carom_polygon));
    bool ok = carom_decompose_polygon(shape->points, shape->point_count, polygons,
                                      CAROM_MAX_DECOMPOSE_PIECES, pieces) == CAROM_OK;
    *mass = 0.0;
    for (int i = 0; ok && i < *pieces; ++i) {
        *mass += carom_compute_polygon_mass(&polygons[i], shape->density).mass;
    }
    free(polygons);
    return ok;
}

/* "decompose": true: any simple polygon of up to CAROM_MAX_DECOMPOSE_VERTICES points, sharp. */
static bool read_decomposed_polygon(loader* ld, const cJSON** fields, scene_shape* shape,
                                    double* mass) {
    if (shape->radius != 0.0) {
        size_t mark = path_push_key(ld, "radius");
        report_error(ld, "a polygon with \"decompose\": true must be sharp (radius 0): rounded "
                         "pieces would overlap along their seams");
        path_pop(ld, mark);
        return false;
    }
    size_t mark = path_push_key(ld, "vertices");
    bool ok = read_points(ld, fields[SHAPE_VERTICES], &shape->points, &shape->point_count);
    int count = shape->point_count;
    int pieces = 0;
    if (cJSON_IsArray(fields[SHAPE_VERTICES]) && count < 3) {
        report_error(ld, "a polygon needs at least 3 vertices, got %d", count);
        ok = false;
    } else if (count > CAROM_MAX_DECOMPOSE_VERTICES) {
        report_error(ld, "a polygon with \"decompose\": true has at most %d vertices, got %d",
                     CAROM_MAX_DECOMPOSE_VERTICES, count);
        ok = false;
    } else if (ok && !decompose_points(shape, &pieces, mass)) {
        report_error(ld, "%s", carom_last_error());
        ok = false;
    }
    path_pop(ld, mark);
    return ok;
}

_Static_assert(CAROM_MAX_DECOMPOSE_VERTICES == 128, "read_polygon's message says 128 points");

/* Convexity, duplicate and collinear vertices are the engine's rules: ask carom_make_polygon,
 * whose message names the vertex and says what to do. A concave outline that carom could split
 * gets the key that does it named too. */
static bool read_polygon(loader* ld, const cJSON** fields, scene_shape* shape, double* mass) {
    if (!member_bool(ld, fields[SHAPE_DECOMPOSE], "decompose", &shape->decompose)) {
        return false;
    }
    if (!require(ld, fields[SHAPE_VERTICES], "vertices",
                 shape->decompose ? "a polygon needs vertices, 3 to 128 points [x, y] along a "
                                    "simple outline"
                                  : "a polygon needs vertices, 3 to 8 points [x, y] of a convex "
                                    "polygon")) {
        return false;
    }
    if (!read_rounding(ld, fields, shape)) {
        return false;
    }
    if (shape->decompose) {
        return read_decomposed_polygon(ld, fields, shape, mass);
    }
    size_t mark = path_push_key(ld, "vertices");
    bool ok = read_points(ld, fields[SHAPE_VERTICES], &shape->points, &shape->point_count);
    int count = shape->point_count;
    if (cJSON_IsArray(fields[SHAPE_VERTICES]) && count < 3) {
        report_error(ld, "a polygon needs at least 3 vertices, got %d", count);
        ok = false;
    } else if (count > CAROM_MAX_POLYGON_VERTICES) {
        report_error(
            ld,
            "a polygon has at most %d vertices (the engine's limit), got %d: split it into "
            "convex pieces, or add \"decompose\": true to have carom split it",
            CAROM_MAX_POLYGON_VERTICES, count);
        ok = false;
    } else if (ok) {
        carom_polygon polygon;
        carom_clear_last_error();
        if (carom_make_rounded_polygon(shape->points, count, shape->radius, &polygon) != CAROM_OK) {
            char message[512];
            snprintf(message, sizeof(message), "%s", carom_last_error());
            int pieces = 0;
            double unused;
            bool splittable = shape->radius == 0.0 && decompose_points(shape, &pieces, &unused) &&
                              pieces > 1;
            report_error(ld, "%s%s", message,
                         splittable ? " (\"decompose\": true does that)" : "");
            ok = false;
        } else {
            *mass = carom_compute_polygon_mass(&polygon, shape->density).mass;
        }
    }
    path_pop(ld, mark);
    return ok;
}

/* Points closer than the weld tolerance are one point to the engine. */
static bool same_point(carom_vec2 a, carom_vec2 b) {
    return carom_distance(a, b) < CAROM_POLYGON_WELD_TOLERANCE;
}

static bool read_segment(loader* ld, const cJSON** fields, scene_shape* shape) {
    if (!require(ld, fields[SHAPE_POINTS], "points",
                 "a segment needs points, two distinct points [x, y]")) {
        return false;
    }
    size_t mark = path_push_key(ld, "points");
    bool ok = read_points(ld, fields[SHAPE_POINTS], &shape->points, &shape->point_count);
    if (cJSON_IsArray(fields[SHAPE_POINTS]) && shape->point_count != 2) {
        report_error(ld, "a segment has exactly 2 points, got %d", shape->point_count);
        ok = false;
    } else if (ok && same_point(shape->points[0], shape->points[1])) {
        report_error(ld,
                     "the two points are the same point (closer than %g m): a segment needs two "
                     "distinct points",
                     CAROM_POLYGON_WELD_TOLERANCE);
        ok = false;
    }
    path_pop(ld, mark);
    return ok;
}

static bool check_chain_points(loader* ld, const scene_shape* shape) {
    int minimum = shape->loop ? 3 : 2;
    if (shape->point_count < minimum) {
        report_error(ld, "a%s chain needs at least %d points, got %d",
                     shape->loop ? " looped" : "n open", minimum, shape->point_count);
        return false;
    }
    bool ok = true;
    int edges = shape->loop ? shape->point_count : shape->point_count - 1;
    for (int i = 0; i < edges; ++i) {
        int next = (i + 1) % shape->point_count;
        if (same_point(shape->points[i], shape->points[next])) {
            size_t mark = path_push_index(ld, next);
            report_error(
                ld, "the same point as points[%d] (closer than %g m)%s: remove the duplicate", i,
                CAROM_POLYGON_WELD_TOLERANCE, next == 0 ? ", which the loop joins it to" : "");
            path_pop(ld, mark);
            ok = false;
        }
    }
    return ok;
}

static bool read_chain(loader* ld, const cJSON** fields, scene_shape* shape) {
    bool ok = member_bool(ld, fields[SHAPE_LOOP], "loop", &shape->loop);
    if (!require(ld, fields[SHAPE_POINTS], "points",
                 "a chain needs points, two or more points [x, y] of a polyline")) {
        return false;
    }
    size_t mark = path_push_key(ld, "points");
    bool points_ok = read_points(ld, fields[SHAPE_POINTS], &shape->points, &shape->point_count);
    if (points_ok) {
        points_ok = check_chain_points(ld, shape);
    }
    path_pop(ld, mark);
    return ok && points_ok;
}

/* A key that would do nothing where it stands: a warning saying why, at the key. */
static void warn_ignored_key(loader* ld, const char* key, const char* why) {
    size_t mark = path_push_key(ld, key);
    report_warning(ld, "%s, ignored", why);
    path_pop(ld, mark);
}

/* Hit and contact events, surface grip and one-sidedness: the engine's shape keys beyond
 * material and filter. Each default is carom_default_shape_def()'s, so a scene without them
 * builds the shapes it always did. A key that would do nothing where it stands (a threshold
 * without hit events, a grip on a shape that is not a sensor, contact events on a sensor) is
 * ignored with a warning, like a key of another shape type. */
static bool read_shape_events_and_surface(loader* ld, const cJSON** fields, scene_shape* shape) {
    carom_shape_def engine = carom_default_shape_def();
    shape->hit_events = engine.enable_hit_events != 0;
    shape->hit_speed_threshold = engine.hit_speed_threshold;
    shape->surface_grip = engine.surface_grip;
    shape->one_sided = engine.one_sided != 0;
    shape->contact_events = engine.enable_contact_events != 0;
    bool ok = member_bool(ld, fields[SHAPE_HIT_EVENTS], "hit_events", &shape->hit_events);
    ok = member_bool(ld, fields[SHAPE_CONTACT_EVENTS], "contact_events", &shape->contact_events) &&
         ok;
    double threshold = shape->hit_speed_threshold;
    ok = member_number(ld, fields[SHAPE_HIT_SPEED_THRESHOLD], "hit_speed_threshold", NON_NEGATIVE,
                       &threshold) &&
         ok;
    double grip = shape->surface_grip;
    ok = member_number(ld, fields[SHAPE_SURFACE_GRIP], "surface_grip", NON_NEGATIVE, &grip) && ok;
    ok = member_bool(ld, fields[SHAPE_ONE_SIDED], "one_sided", &shape->one_sided) && ok;
    if (fields[SHAPE_HIT_SPEED_THRESHOLD] != NULL && ok && !shape->hit_events) {
        warn_ignored_key(ld, "hit_speed_threshold",
                         "only a shape with \"hit_events\": true reports hits");
    } else {
        shape->hit_speed_threshold = threshold;
    }
    if (fields[SHAPE_CONTACT_EVENTS] != NULL && ok && shape->sensor) {
        warn_ignored_key(ld, "contact_events",
                         "a sensor reports its overlaps whatever \"contact_events\" says");
        shape->contact_events = true;
    }
    if (fields[SHAPE_SURFACE_GRIP] != NULL && ok && !shape->sensor) {
        warn_ignored_key(ld, "surface_grip",
                         "only a sensor (\"sensor\": true) marks a surface for vehicles");
    } else {
        shape->surface_grip = grip;
    }
    return ok;
}

/* One shape. *mass receives its mass (kg) when the shape is valid; segments and chains have
 * none. */
static bool read_shape(loader* ld, const cJSON* item, scene_shape* shape, double* mass) {
    *mass = 0.0;
    if (!cJSON_IsObject(item)) {
        report_error(ld, "must be an object (a shape), not %s", json_kind(item));
        return false;
    }
    const cJSON* fields[SHAPE_KEY_COUNT];
    read_fields(ld, item, shape_keys, SHAPE_KEY_COUNT, fields);
    shape->density = 1.0;
    shape->friction = 0.6;
    bool type_ok = read_shape_type(ld, fields[SHAPE_TYPE], &shape->type);
    bool ok = member_number(ld, fields[SHAPE_DENSITY], "density", DENSITY, &shape->density);
    ok =
        member_number(ld, fields[SHAPE_FRICTION], "friction", NON_NEGATIVE, &shape->friction) && ok;
    ok = member_number(ld, fields[SHAPE_RESTITUTION], "restitution", UNIT_INTERVAL,
                       &shape->restitution) &&
         ok;
    ok = member_bool(ld, fields[SHAPE_SENSOR], "sensor", &shape->sensor) && ok;
    ok = read_filter(ld, fields, shape) && ok;
    ok = read_shape_events_and_surface(ld, fields, shape) && ok;
    if (!type_ok) {
        return false; /* without a type, the geometry keys cannot be judged */
    }
    warn_foreign_keys(ld, fields, shape->type);
    bool geometry_ok = false;
    double shape_mass = 0.0;
    switch (shape->type) {
    case SCENE_SHAPE_CIRCLE:
        geometry_ok = read_circle(ld, fields, shape, &shape_mass);
        break;
    case SCENE_SHAPE_BOX:
        geometry_ok = read_box(ld, fields, shape, &shape_mass);
        break;
    case SCENE_SHAPE_POLYGON:
        geometry_ok = read_polygon(ld, fields, shape, &shape_mass);
        break;
    case SCENE_SHAPE_SEGMENT:
        geometry_ok = read_segment(ld, fields, shape);
        break;
    case SCENE_SHAPE_CHAIN:
        geometry_ok = read_chain(ld, fields, shape);
        break;
    case SCENE_SHAPE_CAPSULE:
        geometry_ok = read_capsule(ld, fields, shape, &shape_mass);
        break;
    }
    *mass = shape_mass;
    return ok && geometry_ok;
}

/* ---- Bodies ----------------------------------------------------------------------------- */

enum body_key {
    BODY_NAME,
    BODY_TYPE,
    BODY_POSITION,
    BODY_ANGLE,
    BODY_ROTATION,
    BODY_LINEAR_VELOCITY,
    BODY_ANGULAR_VELOCITY,
    BODY_LINEAR_DAMPING,
    BODY_ANGULAR_DAMPING,
    BODY_BULLET,
    BODY_AWAKE,
    BODY_SHAPES,
    BODY_GRAVITY_SCALE,
    BODY_FIXED_ROTATION,
    BODY_ENABLED,
    BODY_KEY_COUNT
};

static const char* const body_keys[BODY_KEY_COUNT] = {
    "name",
    "type",
    "position",
    "angle",
    "rotation",
    "linear_velocity",
    "angular_velocity",
    "linear_damping",
    "angular_damping",
    "bullet",
    "awake",
    "shapes",
    "gravity_scale",
    "fixed_rotation",
    "enabled",
};

static bool read_body_type(loader* ld, const cJSON* item, carom_body_type* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "type");
    bool ok = false;
    if (!cJSON_IsString(item)) {
        report_error(ld, "must be a string, not %s", json_kind(item));
    } else if (strcmp(item->valuestring, "static") == 0) {
        *out = CAROM_BODY_STATIC;
        ok = true;
    } else if (strcmp(item->valuestring, "kinematic") == 0) {
        *out = CAROM_BODY_KINEMATIC;
        ok = true;
    } else if (strcmp(item->valuestring, "dynamic") == 0) {
        *out = CAROM_BODY_DYNAMIC;
        ok = true;
    } else {
        char quoted[QUOTE_SIZE];
        report_error(ld, "unknown body type %s: use \"static\", \"kinematic\" or \"dynamic\"",
                     quote_for_message(item->valuestring, quoted, sizeof(quoted)));
    }
    path_pop(ld, mark);
    return ok;
}

/* "rotation": [cos, sin], what state files write so that a pose reads back bit for bit (an
 * angle cannot promise that: carom's sine and cosine of carom's atan2 of a rotation may differ
 * from it in the last bit). Given with "angle", the two must describe the same rotation. */
static bool read_rotation(loader* ld, const cJSON** fields, scene_body* body, bool angle_ok) {
    if (fields[BODY_ROTATION] == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "rotation");
    carom_vec2 q = {1.0, 0.0};
    bool ok = read_vec2(ld, fields[BODY_ROTATION], ANY, &q);
    if (ok && !(fabs(q.x * q.x + q.y * q.y - 1.0) <= CAROM_ROTATION_TOLERANCE)) {
        report_error(ld,
                     "must be [cos, sin] of an angle, a unit vector (cos^2 + sin^2 = 1 within %g)",
                     CAROM_ROTATION_TOLERANCE);
        ok = false;
    }
    path_pop(ld, mark);
    body->has_rotation = ok;
    body->rotation.c = q.x;
    body->rotation.s = q.y;
    if (ok && angle_ok && fields[BODY_ANGLE] != NULL) {
        carom_rot from_angle = carom_make_rot(body->angle);
        if (fabs(from_angle.c - q.x) > 1e-9 || fabs(from_angle.s - q.y) > 1e-9) {
            mark = path_push_key(ld, "angle");
            char shown[FORMAT_DOUBLE_SIZE];
            format_double(carom_rot_get_angle(body->rotation), shown);
            report_error(ld,
                         "disagrees with rotation, which is the angle %s: change or remove one of "
                         "them",
                         shown);
            path_pop(ld, mark);
            ok = false;
        }
    }
    return ok;
}

static bool read_motion(loader* ld, const cJSON** fields, scene_body* body) {
    bool ok = member_vec2(ld, fields[BODY_POSITION], "position", ANY, &body->position);
    bool angle_ok = member_number(ld, fields[BODY_ANGLE], "angle", ANY, &body->angle);
    ok = read_rotation(ld, fields, body, angle_ok) && angle_ok && ok;
    ok = member_vec2(ld, fields[BODY_LINEAR_VELOCITY], "linear_velocity", ANY,
                     &body->linear_velocity) &&
         ok;
    ok = member_number(ld, fields[BODY_ANGULAR_VELOCITY], "angular_velocity", ANY,
                       &body->angular_velocity) &&
         ok;
    ok = member_number(ld, fields[BODY_LINEAR_DAMPING], "linear_damping", NON_NEGATIVE,
                       &body->linear_damping) &&
         ok;
    ok = member_number(ld, fields[BODY_ANGULAR_DAMPING], "angular_damping", NON_NEGATIVE,
                       &body->angular_damping) &&
         ok;
    ok = member_bool(ld, fields[BODY_BULLET], "bullet", &body->bullet) && ok;
    ok = member_bool(ld, fields[BODY_AWAKE], "awake", &body->awake) && ok;
    ok =
        member_number(ld, fields[BODY_GRAVITY_SCALE], "gravity_scale", ANY, &body->gravity_scale) &&
        ok;
    ok =
        member_bool(ld, fields[BODY_FIXED_ROTATION], "fixed_rotation", &body->fixed_rotation) && ok;
    ok = member_bool(ld, fields[BODY_ENABLED], "enabled", &body->enabled) && ok;
    return ok;
}

/* A dynamic body created asleep has no velocity: one given would be lost, so it is refused. */
static void check_asleep_at_rest(loader* ld, const scene_body* body) {
    if (body->linear_velocity.x != 0.0 || body->linear_velocity.y != 0.0 ||
        body->angular_velocity != 0.0) {
        size_t mark = path_push_key(ld, "awake");
        report_error(
            ld, "a body created asleep cannot move: remove its velocity, or leave out \"awake\"");
        path_pop(ld, mark);
    }
}

/* A static body never moves, so a velocity on one is a mistake worth a line of its own. */
static bool check_static_at_rest(loader* ld, const scene_body* body) {
    bool ok = true;
    if (body->linear_velocity.x != 0.0 || body->linear_velocity.y != 0.0) {
        size_t mark = path_push_key(ld, "linear_velocity");
        report_error(ld,
                     "a static body cannot move: make it \"kinematic\", or remove the velocity");
        path_pop(ld, mark);
        ok = false;
    }
    if (body->angular_velocity != 0.0) {
        size_t mark = path_push_key(ld, "angular_velocity");
        report_error(ld,
                     "a static body cannot move: make it \"kinematic\", or remove the velocity");
        path_pop(ld, mark);
        ok = false;
    }
    return ok;
}

/* The shapes array; *mass receives the total, which only matters when every shape is valid. */
static bool read_shapes(loader* ld, const cJSON* item, scene_body* body, double* mass) {
    *mass = 0.0;
    if (!require(ld, item, "shapes", "every body needs shapes, an array of one or more")) {
        return false;
    }
    size_t mark = path_push_key(ld, "shapes");
    bool ok = false;
    if (!cJSON_IsArray(item)) {
        report_error(ld, "must be an array of shapes, not %s", json_kind(item));
    } else if (item->child == NULL) {
        report_error(ld, "must hold at least one shape");
    } else {
        ok = true;
        body->shape_count = json_length(item);
        body->shapes = checked_calloc((size_t)body->shape_count, sizeof(scene_shape));
        int index = 0;
        for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
            size_t shape_mark = path_push_index(ld, index);
            double shape_mass = 0.0;
            ok = read_shape(ld, child, &body->shapes[index], &shape_mass) && ok;
            *mass += shape_mass;
            path_pop(ld, shape_mark);
        }
    }
    path_pop(ld, mark);
    return ok;
}

static void read_body(loader* ld, const cJSON* item, int index, name_set* names, scene_body* body) {
    body->type = CAROM_BODY_DYNAMIC;
    body->rotation = carom_rot_identity();
    body->awake = true;
    body->gravity_scale = 1.0;
    body->enabled = true;
    if (!cJSON_IsObject(item)) {
        report_error(ld, "must be an object (a body), not %s", json_kind(item));
        return;
    }
    const cJSON* fields[BODY_KEY_COUNT];
    read_fields(ld, item, body_keys, BODY_KEY_COUNT, fields);
    read_name(ld, fields[BODY_NAME], index, names, &body->name);
    bool type_ok = read_body_type(ld, fields[BODY_TYPE], &body->type);
    bool motion_ok = read_motion(ld, fields, body);
    if (type_ok && motion_ok && body->type == CAROM_BODY_STATIC) {
        check_static_at_rest(ld, body);
    }
    if (type_ok && motion_ok && body->type == CAROM_BODY_DYNAMIC && !body->awake) {
        check_asleep_at_rest(ld, body);
    }
    double mass = 0.0;
    bool shapes_ok = read_shapes(ld, fields[BODY_SHAPES], body, &mass);
    if (type_ok && shapes_ok && body->type == CAROM_BODY_DYNAMIC && !(mass > 0.0)) {
        report_error(
            ld, "a dynamic body needs mass: give a circle, box or polygon of it a density > 0, "
                "or make the body \"static\" or \"kinematic\"");
    }
}

/* The bodies; `names` (initialised here, freed by the caller) receives their names. */
void read_bodies(loader* ld, const cJSON* item, scene_def* out, name_set* names) {
    name_set_init(names, item != NULL && cJSON_IsArray(item) ? json_length(item) : 0);
    if (!require(ld, item, "bodies", "a scene needs \"bodies\", an array (it may be empty)")) {
        return;
    }
    size_t mark = path_push_key(ld, "bodies");
    if (!cJSON_IsArray(item)) {
        report_error(ld, "must be an array of bodies, not %s", json_kind(item));
        path_pop(ld, mark);
        return;
    }
    out->body_count = json_length(item);
    out->bodies = checked_calloc((size_t)out->body_count, sizeof(scene_body));
    int index = 0;
    for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
        size_t body_mark = path_push_index(ld, index);
        read_body(ld, child, index, names, &out->bodies[index]);
        path_pop(ld, body_mark);
    }
    path_pop(ld, mark);
}
