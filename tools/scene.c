/* Scene files: read, check against the contract, describe in plain C, build a world.
 *
 * Why the checking is done here and not left to the engine: the engine refuses a bad value
 * with a status and a message, but one call at a time and in its own words. A person editing a
 * scene wants every mistake at once, each pointing at the place in the file
 * (`scene.json: bodies[3].shapes[0].radius: must be > 0`), before anything runs. So the loader
 * walks the whole JSON tree, collects every problem as one line, and only a scene without
 * errors reaches scene_build_world(). Where the engine has a rule too intricate to copy
 * (convex hulls, collinear vertices), the loader asks the engine through the public API
 * (carom_make_polygon) and puts the engine's explanation at the right path.
 *
 * Cost is linear in the file size everywhere, because a scene of a hundred thousand bodies is a
 * normal use: object keys are matched in one pass per object, arrays are walked by their links
 * (never indexed, which is linear per access in cJSON), and body names go into a hash set.
 * Hostile input is bounded before cJSON sees it: a size cap, a nesting cap (cJSON recurses),
 * and no NUL bytes (cJSON's strings end at one). */
#define _POSIX_C_SOURCE 200809L
#include "scene.h"

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

/* ---- Memory --------------------------------------------------------------------------- */

/* The tool has nothing sensible to do without memory: say so and stop. */
static void* checked_calloc(size_t count, size_t size) {
    void* memory = calloc(count > 0 ? count : 1, size);
    if (memory == NULL) {
        fputs("carom: out of memory\n", stderr);
        exit(1);
    }
    return memory;
}

static char* checked_strdup(const char* text) {
    size_t size = strlen(text) + 1;
    char* copy = checked_calloc(size, 1);
    memcpy(copy, text, size);
    return copy;
}

/* ---- Reporting: one line per problem, naming the file and the JSON path ------------------ */

typedef struct loader {
    scene_report* report;
    char path[512]; /* the JSON path of the value being read, e.g. bodies[3].shapes[0].radius */
    size_t path_length;
} loader;

static void emit_line(scene_report* report, const char* where, bool warning, const char* text) {
    size_t size = strlen(report->file_name) + strlen(where) + strlen(text) + 16;
    char* line = checked_calloc(size, 1);
    snprintf(line, size, "%s: %s%s%s%s", report->file_name, where, where[0] != '\0' ? ": " : "",
             warning ? "warning: " : "", text);
    if (warning) {
        report->warning_count += 1;
    } else {
        report->error_count += 1;
    }
    if (report->emit != NULL) {
        report->emit(report->user, line);
    }
    free(line);
}

static void vreport(loader* ld, bool warning, const char* format, va_list args) {
    char text[1024];
    vsnprintf(text, sizeof(text), format, args);
    emit_line(ld->report, ld->path, warning, text);
}

/* A problem with the value at the current path: the scene will not run. */
static void fail(loader* ld, const char* format, ...) __attribute__((format(printf, 2, 3)));
static void fail(loader* ld, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vreport(ld, false, format, args);
    va_end(args);
}

/* Something ignored at the current path: the scene still runs. */
static void warn(loader* ld, const char* format, ...) __attribute__((format(printf, 2, 3)));
static void warn(loader* ld, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vreport(ld, true, format, args);
    va_end(args);
}

static void path_append(loader* ld, const char* text) {
    size_t room = sizeof(ld->path) - 1 - ld->path_length;
    size_t length = strlen(text);
    length = length < room ? length : room;
    memcpy(ld->path + ld->path_length, text, length);
    ld->path_length += length;
    ld->path[ld->path_length] = '\0';
}

static bool is_identifier(const char* key) {
    size_t length = strlen(key);
    if (length == 0 || length > 40 || (key[0] >= '0' && key[0] <= '9')) {
        return false;
    }
    for (size_t i = 0; i < length; ++i) {
        char c = key[i];
        bool ok =
            c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!ok) {
            return false;
        }
    }
    return true;
}

/* Enter an object member: ".key", or ["odd key"] when the key is not a plain word, so that a
 * path stays unambiguous and a key with control characters cannot garble the terminal. Returns
 * the mark to leave it with path_pop(). */
static size_t path_push_key(loader* ld, const char* key) {
    size_t mark = ld->path_length;
    if (is_identifier(key)) {
        if (mark > 0) {
            path_append(ld, ".");
        }
        path_append(ld, key);
    } else {
        char quoted[QUOTE_SIZE];
        path_append(ld, "[");
        path_append(ld, quote_for_message(key, quoted, sizeof(quoted)));
        path_append(ld, "]");
    }
    return mark;
}

static size_t path_push_index(loader* ld, int index) {
    size_t mark = ld->path_length;
    char text[24];
    snprintf(text, sizeof(text), "[%d]", index);
    path_append(ld, text);
    return mark;
}

static void path_pop(loader* ld, size_t mark) {
    ld->path_length = mark;
    ld->path[mark] = '\0';
}

/* ---- Reading JSON values ---------------------------------------------------------------- */

static const char* json_kind(const cJSON* item) {
    if (cJSON_IsNumber(item)) {
        return "a number";
    }
    if (cJSON_IsString(item)) {
        return "a string";
    }
    if (cJSON_IsBool(item)) {
        return "a boolean";
    }
    if (cJSON_IsNull(item)) {
        return "null";
    }
    if (cJSON_IsArray(item)) {
        return "an array";
    }
    return "an object";
}

static int json_length(const cJSON* array) {
    int count = 0;
    for (const cJSON* child = array->child; child != NULL; child = child->next) {
        ++count;
    }
    return count;
}

/* A finite JSON number. cJSON reads 1e400 as infinity; carom has no use for it. */
static bool read_finite(loader* ld, const cJSON* item, double* out) {
    if (!cJSON_IsNumber(item)) {
        fail(ld, "must be a number, not %s", json_kind(item));
        return false;
    }
    if (!isfinite(item->valuedouble)) {
        fail(ld, "must be a finite number; this one is too large for a double (it reads as "
                 "infinity)");
        return false;
    }
    *out = item->valuedouble;
    return true;
}

typedef enum number_range {
    ANY,
    POSITIVE,
    NON_NEGATIVE,
    UNIT_INTERVAL,
    CELL_SIZE, /* at least CAROM_MIN_CELL_SIZE */
    RADIUS,    /* at least CAROM_MIN_RADIUS */
    DENSITY    /* 0 or at least CAROM_MIN_DENSITY */
} number_range;

/* A number the engine accepts: finite, at most CAROM_MAX_MAGNITUDE in size, within range. */
static bool read_number(loader* ld, const cJSON* item, number_range range, double* out) {
    double value = 0.0;
    if (!read_finite(ld, item, &value)) {
        return false;
    }
    const char* problem = NULL;
    if (fabs(value) > CAROM_MAX_MAGNITUDE) {
        problem = "out of range: carom accepts magnitudes up to 1e12";
    } else if ((range == POSITIVE || range == CELL_SIZE || range == RADIUS) && !(value > 0.0)) {
        problem = "must be > 0";
    } else if (range == DENSITY && value < 0.0) {
        problem = "must be >= 0";
    } else if (range == NON_NEGATIVE && value < 0.0) {
        problem = "must be >= 0";
    } else if (range == UNIT_INTERVAL && (value < 0.0 || value > 1.0)) {
        problem = "must be between 0 and 1";
    } else if (range == CELL_SIZE && value < CAROM_MIN_CELL_SIZE) {
        problem = "must be at least 0.001 (the engine's smallest cell, in m)";
    } else if (range == RADIUS && value < CAROM_MIN_RADIUS) {
        problem = "must be at least 0.0025 (the engine's smallest radius, in m)";
    } else if (range == DENSITY && value != 0.0 && value < CAROM_MIN_DENSITY) {
        problem = "must be 0 or at least 1e-06 (the engine's smallest density, in kg/m^2)";
    }
    if (problem != NULL) {
        char shown[FORMAT_DOUBLE_SIZE];
        format_double(value, shown);
        fail(ld, "%s, got %s", problem, shown);
        return false;
    }
    *out = value;
    return true;
}

/* An integer in [minimum, maximum]; both bounds are exact doubles. */
static bool read_integer(loader* ld, const cJSON* item, double minimum, double maximum,
                         double* out) {
    double value = 0.0;
    if (!read_finite(ld, item, &value)) {
        return false;
    }
    if (value != floor(value) || value < minimum || value > maximum) {
        char shown[FORMAT_DOUBLE_SIZE];
        format_double(value, shown);
        fail(ld, "must be an integer from %.0f to %.0f, got %s", minimum, maximum, shown);
        return false;
    }
    *out = value;
    return true;
}

static bool read_bool(loader* ld, const cJSON* item, bool* out) {
    if (!cJSON_IsBool(item)) {
        fail(ld, "must be true or false, not %s", json_kind(item));
        return false;
    }
    *out = cJSON_IsTrue(item);
    return true;
}

/* [x, y]: both numbers read with the same range, each reported at its own index. */
static bool read_vec2(loader* ld, const cJSON* item, number_range range, carom_vec2* out) {
    if (!cJSON_IsArray(item)) {
        fail(ld, "must be an array of 2 numbers, not %s", json_kind(item));
        return false;
    }
    int count = json_length(item);
    if (count != 2) {
        fail(ld, "must be an array of 2 numbers, got %d element%s", count, count == 1 ? "" : "s");
        return false;
    }
    double values[2] = {0.0, 0.0};
    bool ok = true;
    int index = 0;
    for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
        size_t mark = path_push_index(ld, index);
        ok = read_number(ld, child, range, &values[index]) && ok;
        path_pop(ld, mark);
    }
    if (ok) {
        *out = carom_v2(values[0], values[1]);
    }
    return ok;
}

/* An array of points [[x, y], ...] of any length; *points is allocated (free it). */
static bool read_points(loader* ld, const cJSON* item, carom_vec2** points, int* count) {
    if (!cJSON_IsArray(item)) {
        fail(ld, "must be an array of points [x, y], not %s", json_kind(item));
        return false;
    }
    *count = json_length(item);
    *points = checked_calloc((size_t)*count, sizeof(carom_vec2));
    bool ok = true;
    int index = 0;
    for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
        size_t mark = path_push_index(ld, index);
        ok = read_vec2(ld, child, ANY, &(*points)[index]) && ok;
        path_pop(ld, mark);
    }
    return ok;
}

/* Wrappers for optional members: absent leaves *out at its default; present is read at
 * ".key". Each returns false only when the member is present and wrong. */
static bool member_number(loader* ld, const cJSON* item, const char* key, number_range range,
                          double* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = read_number(ld, item, range, out);
    path_pop(ld, mark);
    return ok;
}

static bool member_vec2(loader* ld, const cJSON* item, const char* key, number_range range,
                        carom_vec2* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = read_vec2(ld, item, range, out);
    path_pop(ld, mark);
    return ok;
}

static bool member_bool(loader* ld, const cJSON* item, const char* key, bool* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = read_bool(ld, item, out);
    path_pop(ld, mark);
    return ok;
}

static bool member_integer(loader* ld, const cJSON* item, const char* key, double minimum,
                           double maximum, double* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = read_integer(ld, item, minimum, maximum, out);
    path_pop(ld, mark);
    return ok;
}

/* A required member that is absent: reported at the path it should have had. */
static bool require(loader* ld, const cJSON* item, const char* key, const char* why) {
    if (item != NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    fail(ld, "missing: %s", why);
    path_pop(ld, mark);
    return false;
}

/* Edit distance of two short strings (capped at 32 bytes), for "did you mean" hints. */
static int edit_distance(const char* a, const char* b) {
    enum { CAP = 32 };
    size_t la = strlen(a), lb = strlen(b);
    if (la > CAP || lb > CAP) {
        return CAP;
    }
    int row[CAP + 1];
    for (size_t j = 0; j <= lb; ++j) {
        row[j] = (int)j;
    }
    for (size_t i = 1; i <= la; ++i) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; ++j) {
            int above = row[j];
            int best = diagonal + (a[i - 1] != b[j - 1]);
            best = above + 1 < best ? above + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

/* Match an object's members against a table of known keys in one pass: fields[i] receives the
 * member named keys[i], or NULL. Unknown keys are warned about (with a suggestion for a likely
 * typo) and ignored, as the contract says; a key given twice is an error, since which of the
 * two was meant cannot be known. */
static void read_fields(loader* ld, const cJSON* object, const char* const* keys, int key_count,
                        const cJSON** fields) {
    for (int i = 0; i < key_count; ++i) {
        fields[i] = NULL;
    }
    for (const cJSON* child = object->child; child != NULL; child = child->next) {
        const char* key = child->string != NULL ? child->string : "";
        int found = -1;
        for (int i = 0; i < key_count && found < 0; ++i) {
            found = strcmp(key, keys[i]) == 0 ? i : -1;
        }
        int nearest = -1; /* only worth working out for a key that is unknown */
        for (int i = 0; i < key_count && found < 0 && nearest < 0; ++i) {
            nearest = edit_distance(key, keys[i]) <= 2 ? i : -1;
        }
        size_t mark = path_push_key(ld, key);
        if (found < 0 && nearest >= 0) {
            warn(ld, "unknown key, ignored (did you mean \"%s\"?)", keys[nearest]);
        } else if (found < 0) {
            warn(ld, "unknown key, ignored");
        } else if (fields[found] != NULL) {
            fail(ld, "the key appears twice in this object: keep one");
        } else {
            fields[found] = child;
        }
        path_pop(ld, mark);
    }
}

/* ---- Names ------------------------------------------------------------------------------ */

/* Body names must be unique; a hash set keeps that check linear for big scenes. */
typedef struct name_set {
    const char** names;
    int* indices;
    size_t capacity; /* a power of two, at least twice the number of names */
} name_set;

static uint64_t hash_text(const char* text) {
    uint64_t hash = 0xcbf29ce484222325u; /* FNV-1a 64 */
    for (const unsigned char* p = (const unsigned char*)text; *p != '\0'; ++p) {
        hash = (hash ^ *p) * 0x100000001b3u;
    }
    return hash;
}

static void name_set_init(name_set* set, int expected) {
    set->capacity = 16;
    while (set->capacity < 2 * (size_t)expected) {
        set->capacity *= 2;
    }
    set->names = checked_calloc(set->capacity, sizeof(const char*));
    set->indices = checked_calloc(set->capacity, sizeof(int));
}

/* Insert name for body index; returns the index that already had the name, or -1. */
static int name_set_insert(name_set* set, const char* name, int index) {
    size_t slot = (size_t)hash_text(name) & (set->capacity - 1);
    while (set->names[slot] != NULL) {
        if (strcmp(set->names[slot], name) == 0) {
            return set->indices[slot];
        }
        slot = (slot + 1) & (set->capacity - 1);
    }
    set->names[slot] = name;
    set->indices[slot] = index;
    return -1;
}

/* The body index of a name, or -1. */
static int name_set_find(const name_set* set, const char* name) {
    size_t slot = (size_t)hash_text(name) & (set->capacity - 1);
    while (set->names[slot] != NULL) {
        if (strcmp(set->names[slot], name) == 0) {
            return set->indices[slot];
        }
        slot = (slot + 1) & (set->capacity - 1);
    }
    return -1;
}

static void name_set_free(name_set* set) {
    free(set->names);
    free(set->indices);
}

/* Well-formed UTF-8 without control characters: names end up in CSV rows and JSON files. */
static const char* name_problem(const char* name) {
    const unsigned char* p = (const unsigned char*)name;
    if (*p == '\0') {
        return "must not be empty";
    }
    if (*p == '#') {
        return "must not start with '#': outputs call an unnamed body \"#<index>\"";
    }
    while (*p != '\0') {
        int extra = *p < 0x80             ? 0
                    : (*p & 0xe0) == 0xc0 ? 1
                    : (*p & 0xf0) == 0xe0 ? 2
                    : (*p & 0xf8) == 0xf0 ? 3
                                          : -1;
        if (*p < 0x20 || *p == 0x7f) {
            return "must not contain control characters";
        }
        if (extra < 0 || (extra == 1 && *p < 0xc2) || (extra == 3 && *p > 0xf4)) {
            return "is not valid UTF-8";
        }
        for (int i = 1; i <= extra; ++i) {
            if ((p[i] & 0xc0) != 0x80) {
                return "is not valid UTF-8";
            }
        }
        /* Overlong three- and four-byte forms, UTF-16 surrogates, and code points past U+10FFFF. */
        if ((extra == 2 && ((*p == 0xe0 && p[1] < 0xa0) || (*p == 0xed && p[1] >= 0xa0))) ||
            (extra == 3 && ((*p == 0xf0 && p[1] < 0x90) || (*p == 0xf4 && p[1] >= 0x90)))) {
            return "is not valid UTF-8";
        }
        p += 1 + extra;
    }
    return NULL;
}

/* A name, unique among the `what` (bodies or joints) named so far. */
static void read_name_of(loader* ld, const cJSON* item, int index, name_set* names,
                         const char* what, char** out) {
    if (item == NULL) {
        return;
    }
    size_t mark = path_push_key(ld, "name");
    const char* problem = NULL;
    if (!cJSON_IsString(item)) {
        fail(ld, "must be a string, not %s", json_kind(item));
    } else if ((problem = name_problem(item->valuestring)) != NULL) {
        fail(ld, "%s", problem);
    } else {
        *out = checked_strdup(item->valuestring);
        int first = name_set_insert(names, *out, index);
        if (first >= 0) {
            char quoted[QUOTE_SIZE];
            fail(ld, "%s is already the name of %s[%d]: names must be unique",
                 quote_for_message(*out, quoted, sizeof(quoted)), what, first);
        }
    }
    path_pop(ld, mark);
}

static void read_name(loader* ld, const cJSON* item, int index, name_set* names, char** out) {
    read_name_of(ld, item, index, names, "bodies", out);
}

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
    SHAPE_KEY_COUNT
};

static const char* const shape_keys[SHAPE_KEY_COUNT] = {
    "type",   "density", "friction",     "restitution", "sensor",   "category", "mask", "group",
    "radius", "center",  "half_extents", "angle",       "vertices", "points",   "loop",
};

static const char* const shape_type_names[] = {"circle", "box", "polygon", "segment", "chain"};

/* Which shape types take each geometry key (a bit per scene_shape_type). */
static unsigned shape_key_types(int key) {
    switch (key) {
    case SHAPE_RADIUS:
        return 1u << SCENE_SHAPE_CIRCLE;
    case SHAPE_CENTER:
        return 1u << SCENE_SHAPE_CIRCLE | 1u << SCENE_SHAPE_BOX;
    case SHAPE_HALF_EXTENTS:
    case SHAPE_ANGLE:
        return 1u << SCENE_SHAPE_BOX;
    case SHAPE_VERTICES:
        return 1u << SCENE_SHAPE_POLYGON;
    case SHAPE_POINTS:
        return 1u << SCENE_SHAPE_SEGMENT | 1u << SCENE_SHAPE_CHAIN;
    case SHAPE_LOOP:
        return 1u << SCENE_SHAPE_CHAIN;
    default:
        return ~0u; /* common to every shape */
    }
}

static bool read_shape_type(loader* ld, const cJSON* item, scene_shape_type* out) {
    if (!require(ld, item, "type",
                 "every shape needs a type: \"circle\", \"box\", \"polygon\", \"segment\" or "
                 "\"chain\"")) {
        return false;
    }
    size_t mark = path_push_key(ld, "type");
    bool ok = false;
    if (!cJSON_IsString(item)) {
        fail(ld, "must be a string, not %s", json_kind(item));
    } else {
        for (int i = 0; i < 5 && !ok; ++i) {
            if (strcmp(item->valuestring, shape_type_names[i]) == 0) {
                *out = (scene_shape_type)i;
                ok = true;
            }
        }
        if (!ok) {
            char quoted[QUOTE_SIZE];
            fail(ld,
                 "unknown shape type %s: use \"circle\", \"box\", \"polygon\", \"segment\" or "
                 "\"chain\"",
                 quote_for_message(item->valuestring, quoted, sizeof(quoted)));
        }
    }
    path_pop(ld, mark);
    return ok;
}

/* Keys of another shape type ("radius" on a box) are ignored with a warning, like unknown
 * keys: they are not wrong JSON, but they do nothing. */
static void warn_foreign_keys(loader* ld, const cJSON** fields, scene_shape_type type) {
    for (int key = 0; key < SHAPE_KEY_COUNT; ++key) {
        if (fields[key] != NULL && (shape_key_types(key) & (1u << type)) == 0) {
            size_t mark = path_push_key(ld, shape_keys[key]);
            warn(ld, "a %s has no %s, ignored", shape_type_names[type], shape_keys[key]);
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

static bool read_box(loader* ld, const cJSON** fields, scene_shape* shape, double* mass) {
    bool ok = require(ld, fields[SHAPE_HALF_EXTENTS], "half_extents",
                      "a box needs half_extents [hx, hy] (m, both > 0)");
    ok = member_vec2(ld, fields[SHAPE_HALF_EXTENTS], "half_extents", POSITIVE,
                     &shape->half_extents) &&
         ok;
    ok = member_vec2(ld, fields[SHAPE_CENTER], "center", ANY, &shape->center) && ok;
    ok = member_number(ld, fields[SHAPE_ANGLE], "angle", ANY, &shape->angle) && ok;
    if (ok) {
        carom_polygon polygon;
        if (carom_make_box(shape->half_extents.x, shape->half_extents.y, shape->center,
                           shape->angle, &polygon) != CAROM_OK) {
            fail(ld, "%s", carom_last_error());
            return false;
        }
        *mass = carom_compute_polygon_mass(&polygon, shape->density).mass;
    }
    return ok;
}

/* Convexity, duplicate and collinear vertices are the engine's rules: ask carom_make_polygon,
 * whose message names the vertex and says what to do. */
static bool read_polygon(loader* ld, const cJSON** fields, scene_shape* shape, double* mass) {
    if (!require(ld, fields[SHAPE_VERTICES], "vertices",
                 "a polygon needs vertices, 3 to 8 points [x, y] of a convex polygon")) {
        return false;
    }
    size_t mark = path_push_key(ld, "vertices");
    bool ok = read_points(ld, fields[SHAPE_VERTICES], &shape->points, &shape->point_count);
    int count = shape->point_count;
    if (cJSON_IsArray(fields[SHAPE_VERTICES]) && count < 3) {
        fail(ld, "a polygon needs at least 3 vertices, got %d", count);
        ok = false;
    } else if (count > CAROM_MAX_POLYGON_VERTICES) {
        fail(ld,
             "a polygon has at most %d vertices (the engine's limit), got %d: split it into "
             "convex pieces",
             CAROM_MAX_POLYGON_VERTICES, count);
        ok = false;
    } else if (ok) {
        carom_polygon polygon;
        carom_clear_last_error();
        if (carom_make_polygon(shape->points, count, &polygon) != CAROM_OK) {
            fail(ld, "%s", carom_last_error());
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
        fail(ld, "a segment has exactly 2 points, got %d", shape->point_count);
        ok = false;
    } else if (ok && same_point(shape->points[0], shape->points[1])) {
        fail(ld,
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
        fail(ld, "a%s chain needs at least %d points, got %d", shape->loop ? " looped" : "n open",
             minimum, shape->point_count);
        return false;
    }
    bool ok = true;
    int edges = shape->loop ? shape->point_count : shape->point_count - 1;
    for (int i = 0; i < edges; ++i) {
        int next = (i + 1) % shape->point_count;
        if (same_point(shape->points[i], shape->points[next])) {
            size_t mark = path_push_index(ld, next);
            fail(ld, "the same point as points[%d] (closer than %g m)%s: remove the duplicate", i,
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

/* One shape. *mass receives its mass (kg) when the shape is valid; segments and chains have
 * none. */
static bool read_shape(loader* ld, const cJSON* item, scene_shape* shape, double* mass) {
    *mass = 0.0;
    if (!cJSON_IsObject(item)) {
        fail(ld, "must be an object (a shape), not %s", json_kind(item));
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
};

static bool read_body_type(loader* ld, const cJSON* item, carom_body_type* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "type");
    bool ok = false;
    if (!cJSON_IsString(item)) {
        fail(ld, "must be a string, not %s", json_kind(item));
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
        fail(ld, "unknown body type %s: use \"static\", \"kinematic\" or \"dynamic\"",
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
        fail(ld, "must be [cos, sin] of an angle, a unit vector (cos^2 + sin^2 = 1 within %g)",
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
            fail(ld,
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
    return ok;
}

/* A dynamic body created asleep has no velocity: one given would be lost, so it is refused. */
static void check_asleep_at_rest(loader* ld, const scene_body* body) {
    if (body->linear_velocity.x != 0.0 || body->linear_velocity.y != 0.0 ||
        body->angular_velocity != 0.0) {
        size_t mark = path_push_key(ld, "awake");
        fail(ld, "a body created asleep cannot move: remove its velocity, or leave out \"awake\"");
        path_pop(ld, mark);
    }
}

/* A static body never moves, so a velocity on one is a mistake worth a line of its own. */
static bool check_static_at_rest(loader* ld, const scene_body* body) {
    bool ok = true;
    if (body->linear_velocity.x != 0.0 || body->linear_velocity.y != 0.0) {
        size_t mark = path_push_key(ld, "linear_velocity");
        fail(ld, "a static body cannot move: make it \"kinematic\", or remove the velocity");
        path_pop(ld, mark);
        ok = false;
    }
    if (body->angular_velocity != 0.0) {
        size_t mark = path_push_key(ld, "angular_velocity");
        fail(ld, "a static body cannot move: make it \"kinematic\", or remove the velocity");
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
        fail(ld, "must be an array of shapes, not %s", json_kind(item));
    } else if (item->child == NULL) {
        fail(ld, "must hold at least one shape");
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
    if (!cJSON_IsObject(item)) {
        fail(ld, "must be an object (a body), not %s", json_kind(item));
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
        fail(ld, "a dynamic body needs mass: give a circle, box or polygon of it a density > 0, "
                 "or make the body \"static\" or \"kinematic\"");
    }
}

/* The bodies; `names` (initialised here, freed by the caller) receives their names. */
static void read_bodies(loader* ld, const cJSON* item, scene_def* out, name_set* names) {
    name_set_init(names, item != NULL && cJSON_IsArray(item) ? json_length(item) : 0);
    if (!require(ld, item, "bodies", "a scene needs \"bodies\", an array (it may be empty)")) {
        return;
    }
    size_t mark = path_push_key(ld, "bodies");
    if (!cJSON_IsArray(item)) {
        fail(ld, "must be an array of bodies, not %s", json_kind(item));
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

/* ---- Joints ----------------------------------------------------------------------------- */

enum joint_key {
    JOINT_TYPE,
    JOINT_NAME,
    JOINT_BODY_A,
    JOINT_BODY_B,
    JOINT_COLLIDE_CONNECTED,
    JOINT_BREAK_FORCE,
    JOINT_BREAK_TORQUE,
    JOINT_ANCHOR,
    JOINT_ANCHOR_A,
    JOINT_ANCHOR_B,
    JOINT_AXIS,
    JOINT_LIMIT,
    JOINT_MOTOR,
    JOINT_SPRING,
    JOINT_LENGTH,
    JOINT_MIN_LENGTH,
    JOINT_MAX_LENGTH,
    JOINT_LINEAR_HERTZ,
    JOINT_LINEAR_DAMPING_RATIO,
    JOINT_ANGULAR_HERTZ,
    JOINT_ANGULAR_DAMPING_RATIO,
    JOINT_LINEAR_OFFSET,
    JOINT_ANGULAR_OFFSET,
    JOINT_MAX_FORCE,
    JOINT_MAX_TORQUE,
    JOINT_CORRECTION_FACTOR,
    JOINT_FRAME,
    JOINT_KEY_COUNT
};

static const char* const joint_keys[JOINT_KEY_COUNT] = {"type",
                                                        "name",
                                                        "body_a",
                                                        "body_b",
                                                        "collide_connected",
                                                        "break_force",
                                                        "break_torque",
                                                        "anchor",
                                                        "anchor_a",
                                                        "anchor_b",
                                                        "axis",
                                                        "limit",
                                                        "motor",
                                                        "spring",
                                                        "length",
                                                        "min_length",
                                                        "max_length",
                                                        "linear_hertz",
                                                        "linear_damping_ratio",
                                                        "angular_hertz",
                                                        "angular_damping_ratio",
                                                        "linear_offset",
                                                        "angular_offset",
                                                        "max_force",
                                                        "max_torque",
                                                        "correction_factor",
                                                        "frame"};

/* The kinds a scene file takes, by the name it gives them. Mouse joints follow a pointer: they
 * have no place in a file. */
#define JOINT_KINDS 6
static const char* const joint_kind_names[JOINT_KINDS] = {"revolute", "prismatic", "distance",
                                                          "weld",     "wheel",     "motor"};
static const carom_joint_type joint_kind_types[JOINT_KINDS] = {
    CAROM_JOINT_REVOLUTE, CAROM_JOINT_PRISMATIC, CAROM_JOINT_DISTANCE,
    CAROM_JOINT_WELD,     CAROM_JOINT_WHEEL,     CAROM_JOINT_MOTOR};

static const char* joint_type_name(carom_joint_type type) {
    for (int i = 0; i < JOINT_KINDS; ++i) {
        if (joint_kind_types[i] == type) {
            return joint_kind_names[i];
        }
    }
    return "mouse";
}

#define KIND(type) (1u << (type))
/* Which kinds take each key (a bit per carom_joint_type). */
static unsigned joint_key_types(int key) {
    const unsigned revolute = KIND(CAROM_JOINT_REVOLUTE), prismatic = KIND(CAROM_JOINT_PRISMATIC),
                   distance = KIND(CAROM_JOINT_DISTANCE), weld = KIND(CAROM_JOINT_WELD),
                   wheel = KIND(CAROM_JOINT_WHEEL), motor = KIND(CAROM_JOINT_MOTOR);
    switch (key) {
    case JOINT_BREAK_TORQUE:
        return revolute | prismatic | weld | wheel | motor; /* a distance joint has no torque */
    case JOINT_ANCHOR:
        return revolute | prismatic | weld | wheel;
    case JOINT_ANCHOR_A:
    case JOINT_ANCHOR_B:
    case JOINT_LENGTH:
    case JOINT_MIN_LENGTH:
    case JOINT_MAX_LENGTH:
        return distance;
    case JOINT_AXIS:
        return prismatic | wheel;
    case JOINT_LIMIT:
    case JOINT_MOTOR:
        return revolute | prismatic | wheel;
    case JOINT_SPRING:
        return revolute | prismatic | distance | wheel;
    case JOINT_LINEAR_HERTZ:
    case JOINT_LINEAR_DAMPING_RATIO:
    case JOINT_ANGULAR_HERTZ:
    case JOINT_ANGULAR_DAMPING_RATIO:
        return weld;
    case JOINT_LINEAR_OFFSET:
    case JOINT_ANGULAR_OFFSET:
    case JOINT_MAX_FORCE:
    case JOINT_MAX_TORQUE:
    case JOINT_CORRECTION_FACTOR:
        return motor;
    default:
        return ~0u; /* common to every kind */
    }
}

static bool read_joint_type(loader* ld, const cJSON* item, carom_joint_type* out) {
    if (!require(ld, item, "type",
                 "every joint needs a type: \"revolute\", \"prismatic\", \"distance\", \"weld\", "
                 "\"wheel\" or \"motor\"")) {
        return false;
    }
    size_t mark = path_push_key(ld, "type");
    bool ok = false;
    if (!cJSON_IsString(item)) {
        fail(ld, "must be a string, not %s", json_kind(item));
    } else {
        for (int i = 0; i < JOINT_KINDS && !ok; ++i) {
            if (strcmp(item->valuestring, joint_kind_names[i]) == 0) {
                *out = joint_kind_types[i];
                ok = true;
            }
        }
        if (!ok) {
            char quoted[QUOTE_SIZE];
            fail(ld,
                 "unknown joint type %s: use \"revolute\", \"prismatic\", \"distance\", \"weld\", "
                 "\"wheel\" or \"motor\"",
                 quote_for_message(item->valuestring, quoted, sizeof(quoted)));
        }
    }
    path_pop(ld, mark);
    return ok;
}

/* "body_a" or "body_b": the name of a body of the scene; *out receives its index. */
static bool read_joint_body(loader* ld, const cJSON* item, const char* key, const name_set* names,
                            int* out) {
    if (!require(ld, item, key,
                 "a joint needs \"body_a\" and \"body_b\", the names of the bodies it joins")) {
        return false;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = false;
    char quoted[QUOTE_SIZE];
    if (!cJSON_IsString(item)) {
        fail(ld, "must be the name of a body (a string), not %s", json_kind(item));
    } else if ((*out = name_set_find(names, item->valuestring)) < 0) {
        fail(ld, "no body is named %s",
             quote_for_message(item->valuestring, quoted, sizeof(quoted)));
    } else {
        ok = true;
    }
    path_pop(ld, mark);
    return ok;
}

/* Keys of another kind ("axis" on a revolute joint) are ignored with a warning, as for shapes. */
static void warn_foreign_joint_keys(loader* ld, const cJSON** fields, carom_joint_type type) {
    for (int key = 0; key < JOINT_KEY_COUNT; ++key) {
        if (fields[key] != NULL && (joint_key_types(key) & KIND(type)) == 0) {
            size_t mark = path_push_key(ld, joint_keys[key]);
            warn(ld, "a %s joint has no %s, ignored", joint_type_name(type), joint_keys[key]);
            path_pop(ld, mark);
        }
    }
}

/* "limit": [lower, upper], lower <= upper; a revolute joint's within [-pi, pi]. */
static bool read_limit(loader* ld, const cJSON* item, scene_joint* joint) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "limit");
    carom_vec2 limit = {0.0, 0.0};
    bool ok = read_vec2(ld, item, ANY, &limit);
    char lower[FORMAT_DOUBLE_SIZE], upper[FORMAT_DOUBLE_SIZE];
    format_double(limit.x, lower);
    format_double(limit.y, upper);
    if (ok && limit.x > limit.y) {
        fail(ld, "the lower limit %s is greater than the upper %s: give [lower, upper]", lower,
             upper);
        ok = false;
    } else if (ok && joint->type == CAROM_JOINT_REVOLUTE &&
               (limit.x < -CAROM_PI || limit.y > CAROM_PI)) {
        fail(ld, "[%s, %s] reaches beyond [-pi, pi]: a joint angle wraps at +-pi", lower, upper);
        ok = false;
    }
    path_pop(ld, mark);
    joint->has_limit = ok;
    joint->lower = limit.x;
    joint->upper = limit.y;
    return ok;
}

/* "motor": {"speed", "max_torque"} ("max_force" for a prismatic joint). */
static bool read_joint_motor(loader* ld, const cJSON* item, scene_joint* joint) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "motor");
    bool ok = cJSON_IsObject(item);
    if (!ok) {
        fail(ld, "must be an object {\"speed\": ..., \"%s\": ...}, not %s",
             joint->type == CAROM_JOINT_PRISMATIC ? "max_force" : "max_torque", json_kind(item));
    } else {
        const char* keys[2] = {"speed",
                               joint->type == CAROM_JOINT_PRISMATIC ? "max_force" : "max_torque"};
        const cJSON* fields[2];
        read_fields(ld, item, keys, 2, fields);
        ok = member_number(ld, fields[0], keys[0], ANY, &joint->motor_speed);
        ok = member_number(ld, fields[1], keys[1], NON_NEGATIVE, &joint->max_motor) && ok;
    }
    path_pop(ld, mark);
    joint->has_motor = ok;
    return ok;
}

/* "spring": {"hertz", "damping_ratio"}. */
static bool read_joint_spring(loader* ld, const cJSON* item, scene_joint* joint) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "spring");
    bool ok = cJSON_IsObject(item);
    if (!ok) {
        fail(ld, "must be an object {\"hertz\": ..., \"damping_ratio\": ...}, not %s",
             json_kind(item));
    } else {
        static const char* const keys[2] = {"hertz", "damping_ratio"};
        const cJSON* fields[2];
        read_fields(ld, item, keys, 2, fields);
        ok = member_number(ld, fields[0], keys[0], NON_NEGATIVE, &joint->hertz);
        ok = member_number(ld, fields[1], keys[1], NON_NEGATIVE, &joint->damping_ratio) && ok;
    }
    path_pop(ld, mark);
    joint->has_spring = ok;
    return ok;
}

/* An axis: a direction, not [0, 0] (the engine scales it to unit length). */
static bool read_axis(loader* ld, const cJSON* item, carom_vec2* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "axis");
    bool ok = read_vec2(ld, item, ANY, out);
    if (ok && !(carom_length(*out) > 1e-9)) {
        fail(ld, "must be a direction, not a zero vector");
        ok = false;
    }
    path_pop(ld, mark);
    return ok;
}

static bool unit_vector(carom_vec2 v) {
    return fabs(v.x * v.x + v.y * v.y - 1.0) <= CAROM_ROTATION_TOLERANCE;
}

/* "frame": the joint's exact geometry, as carom_joint_get_frame gives it (state files write it;
 * see docs/cli.md). The rules are carom_joint_set_frame's. */
static bool read_frame(loader* ld, const cJSON* item, scene_joint* joint) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "frame");
    static const char* const keys[5] = {"local_anchor_a", "local_anchor_b", "reference_rotation",
                                        "local_axis_a", "length"};
    bool ok = cJSON_IsObject(item);
    if (!ok) {
        fail(ld, "must be an object, not %s", json_kind(item));
        path_pop(ld, mark);
        return false;
    }
    const cJSON* fields[5];
    read_fields(ld, item, keys, 5, fields);
    for (int i = 0; i < 4; ++i) {
        ok = require(ld, fields[i], keys[i],
                     "a frame gives all its keys, as state files write "
                     "them") &&
             ok;
    }
    carom_joint_frame* frame = &joint->frame;
    carom_vec2 rotation = {1.0, 0.0};
    frame->local_axis_a = carom_v2(1.0, 0.0);
    ok = member_vec2(ld, fields[0], keys[0], ANY, &frame->local_anchor_a) && ok;
    ok = member_vec2(ld, fields[1], keys[1], ANY, &frame->local_anchor_b) && ok;
    bool rotation_ok = member_vec2(ld, fields[2], keys[2], ANY, &rotation);
    bool axis_ok = member_vec2(ld, fields[3], keys[3], ANY, &frame->local_axis_a);
    ok = member_number(ld, fields[4], keys[4], NON_NEGATIVE, &frame->length) && ok;
    frame->reference_rotation.c = rotation.x;
    frame->reference_rotation.s = rotation.y;
    if (rotation_ok && fields[2] != NULL && !unit_vector(rotation)) {
        size_t inner = path_push_key(ld, keys[2]);
        fail(ld, "must be [cos, sin] of an angle, a unit vector (within %g)",
             CAROM_ROTATION_TOLERANCE);
        path_pop(ld, inner);
        rotation_ok = false;
    }
    bool slides = joint->type == CAROM_JOINT_PRISMATIC || joint->type == CAROM_JOINT_WHEEL;
    carom_vec2 axis = frame->local_axis_a;
    if (axis_ok && fields[3] != NULL &&
        (slides ? !unit_vector(axis) : axis.x != 1.0 || axis.y != 0.0)) {
        size_t inner = path_push_key(ld, keys[3]);
        fail(ld,
             slides ? "must be a unit vector (within %g)"
                    : "must be [1, 0]: a joint without an axis has that one (%g)",
             CAROM_ROTATION_TOLERANCE);
        path_pop(ld, inner);
        axis_ok = false;
    }
    bool length_ok = true;
    if (joint->type == CAROM_JOINT_DISTANCE
            ? !(frame->length >= CAROM_MIN_JOINT_LENGTH) ||
                  (joint->has_limit &&
                   (frame->length < joint->min_length || frame->length > joint->max_length))
            : frame->length != 0.0) {
        size_t inner = path_push_key(ld, keys[4]);
        fail(ld, joint->type == CAROM_JOINT_DISTANCE
                     ? "must be at least 0.001 (m) and within the joint's min and max length"
                     : "must be 0: only a distance joint has a length");
        path_pop(ld, inner);
        length_ok = false;
    }
    path_pop(ld, mark);
    joint->has_frame = ok && rotation_ok && axis_ok && length_ok;
    return joint->has_frame;
}

/* A distance joint's rest length and its limits: the length given (at least 1 mm), or the
 * distance between the anchors; within [min_length, max_length] when either is given. */
static bool check_distance(loader* ld, const cJSON** fields, scene_joint* joint) {
    bool ok = member_number(ld, fields[JOINT_LENGTH], "length", NON_NEGATIVE, &joint->length);
    ok = member_number(ld, fields[JOINT_MIN_LENGTH], "min_length", NON_NEGATIVE,
                       &joint->min_length) &&
         ok;
    ok = member_number(ld, fields[JOINT_MAX_LENGTH], "max_length", NON_NEGATIVE,
                       &joint->max_length) &&
         ok;
    joint->has_limit = fields[JOINT_MIN_LENGTH] != NULL || fields[JOINT_MAX_LENGTH] != NULL;
    if (!ok) {
        return false;
    }
    double length = fields[JOINT_LENGTH] != NULL ? joint->length
                                                 : carom_distance(joint->anchor_a, joint->anchor_b);
    char shown[FORMAT_DOUBLE_SIZE];
    format_double(length, shown);
    if (!(length >= CAROM_MIN_JOINT_LENGTH)) {
        size_t mark = path_push_key(ld, fields[JOINT_LENGTH] != NULL ? "length" : "anchor_b");
        fail(ld,
             fields[JOINT_LENGTH] != NULL
                 ? "must be at least 0.001 (m), got %s"
                 : "is %s m from anchor_a: at least 0.001 m apart, or give a \"length\"",
             shown);
        path_pop(ld, mark);
        return false;
    }
    if (joint->min_length > joint->max_length) {
        size_t mark = path_push_key(ld, "min_length");
        fail(ld, "is greater than max_length: the shortest must not exceed the longest");
        path_pop(ld, mark);
        return false;
    }
    if (joint->has_limit && (length < joint->min_length || length > joint->max_length)) {
        fail(ld, "its length %s m lies outside [min_length, max_length]", shown);
        return false;
    }
    return true;
}

/* The kind's own keys (the common ones are read by read_joint). */
static bool read_joint_settings(loader* ld, const cJSON** fields, scene_joint* joint) {
    bool ok = member_vec2(ld, fields[JOINT_ANCHOR], "anchor", ANY, &joint->anchor);
    ok = member_vec2(ld, fields[JOINT_ANCHOR_A], "anchor_a", ANY, &joint->anchor_a) && ok;
    ok = member_vec2(ld, fields[JOINT_ANCHOR_B], "anchor_b", ANY, &joint->anchor_b) && ok;
    ok = read_axis(ld, fields[JOINT_AXIS], &joint->axis) && ok;
    ok = read_limit(ld, fields[JOINT_LIMIT], joint) && ok;
    ok = read_joint_motor(ld, fields[JOINT_MOTOR], joint) && ok;
    ok = read_joint_spring(ld, fields[JOINT_SPRING], joint) && ok;
    const struct {
        int key;
        number_range range;
        double* out;
    } numbers[] = {
        {JOINT_LINEAR_HERTZ, NON_NEGATIVE, &joint->linear_hertz},
        {JOINT_LINEAR_DAMPING_RATIO, NON_NEGATIVE, &joint->linear_damping_ratio},
        {JOINT_ANGULAR_HERTZ, NON_NEGATIVE, &joint->angular_hertz},
        {JOINT_ANGULAR_DAMPING_RATIO, NON_NEGATIVE, &joint->angular_damping_ratio},
        {JOINT_ANGULAR_OFFSET, ANY, &joint->angular_offset},
        {JOINT_MAX_FORCE, NON_NEGATIVE, &joint->max_force},
        {JOINT_MAX_TORQUE, NON_NEGATIVE, &joint->max_torque},
        {JOINT_CORRECTION_FACTOR, UNIT_INTERVAL, &joint->correction_factor},
    };
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
        if ((joint_key_types(numbers[i].key) & KIND(joint->type)) != 0) {
            ok = member_number(ld, fields[numbers[i].key], joint_keys[numbers[i].key],
                               numbers[i].range, numbers[i].out) &&
                 ok;
        }
    }
    if (joint->type == CAROM_JOINT_MOTOR) {
        ok = member_vec2(ld, fields[JOINT_LINEAR_OFFSET], "linear_offset", ANY,
                         &joint->linear_offset) &&
             ok;
    }
    if (joint->type == CAROM_JOINT_DISTANCE) {
        ok = require(ld, fields[JOINT_ANCHOR_A], "anchor_a", "a distance joint joins two points") &&
             require(ld, fields[JOINT_ANCHOR_B], "anchor_b", "a distance joint joins two points") &&
             check_distance(ld, fields, joint) && ok;
    }
    return ok;
}

/* The engine's defaults for the kind, before the file's keys. */
static void joint_defaults(scene_joint* joint) {
    carom_prismatic_joint_def prismatic = carom_default_prismatic_joint_def();
    carom_wheel_joint_def wheel = carom_default_wheel_joint_def();
    carom_distance_joint_def distance = carom_default_distance_joint_def();
    carom_motor_joint_def motor = carom_default_motor_joint_def();
    joint->axis = joint->type == CAROM_JOINT_WHEEL ? wheel.axis : prismatic.axis;
    if (joint->type == CAROM_JOINT_WHEEL) {
        joint->has_spring = wheel.enable_spring != 0;
        joint->hertz = wheel.hertz;
        joint->damping_ratio = wheel.damping_ratio;
    }
    joint->min_length = distance.min_length;
    joint->max_length = distance.max_length;
    joint->max_force = motor.max_force;
    joint->max_torque = motor.max_torque;
    joint->correction_factor = motor.correction_factor;
}

/* A joint's bodies: two different ones, at least one of them dynamic. */
static bool check_joint_bodies(loader* ld, const scene_def* scene, const scene_joint* joint) {
    char quoted[QUOTE_SIZE];
    const char* name = scene->bodies[joint->body_a].name;
    if (joint->body_a == joint->body_b) {
        size_t mark = path_push_key(ld, "body_b");
        fail(ld, "is body_a too (%s): a joint joins two different bodies",
             quote_for_message(name, quoted, sizeof(quoted)));
        path_pop(ld, mark);
        return false;
    }
    if (scene->bodies[joint->body_a].type != CAROM_BODY_DYNAMIC &&
        scene->bodies[joint->body_b].type != CAROM_BODY_DYNAMIC) {
        fail(ld, "neither body is dynamic: the joint could move nothing");
        return false;
    }
    return true;
}

/* An anchor must lie within 1e12 m of its body's origin in the body's frame, as the engine
 * demands (a snapshot and carom_joint_set_frame hold the local anchor). The loader works from the
 * pose in the file; the engine from the origin it derives from the center of mass, which may
 * differ in the last bits, so the loader refuses from a millionth below the limit: what it
 * accepts, the engine accepts. */
static bool check_local_anchor(loader* ld, const scene_body* body, carom_vec2 anchor,
                               const char* key) {
    carom_rot q = body->has_rotation ? body->rotation : carom_make_rot(body->angle);
    carom_vec2 local = carom_inv_rotate(q, carom_sub(anchor, body->position));
    const double limit = 0.999999 * CAROM_MAX_MAGNITUDE;
    if (fabs(local.x) <= limit && fabs(local.y) <= limit) {
        return true;
    }
    char quoted[QUOTE_SIZE];
    size_t mark = path_push_key(ld, key);
    fail(ld, "lies more than 1e12 m from the origin of %s in its frame: carom accepts no more",
         quote_for_message(body->name, quoted, sizeof(quoted)));
    path_pop(ld, mark);
    return false;
}

static bool check_local_anchors(loader* ld, const scene_def* scene, const scene_joint* joint) {
    const scene_body* a = &scene->bodies[joint->body_a];
    const scene_body* b = &scene->bodies[joint->body_b];
    switch (joint->type) {
    case CAROM_JOINT_DISTANCE: {
        bool a_ok = check_local_anchor(ld, a, joint->anchor_a, "anchor_a");
        bool b_ok = check_local_anchor(ld, b, joint->anchor_b, "anchor_b"); /* both reported */
        return a_ok && b_ok;
    }
    case CAROM_JOINT_MOTOR:
        return true; /* its anchors are its offset and B's origin */
    default:
        return check_local_anchor(ld, a, joint->anchor, "anchor") &&
               check_local_anchor(ld, b, joint->anchor, "anchor");
    }
}

static void read_joint(loader* ld, const cJSON* item, int index, const scene_def* scene,
                       const name_set* bodies, name_set* names, scene_joint* joint) {
    if (!cJSON_IsObject(item)) {
        fail(ld, "must be an object (a joint), not %s", json_kind(item));
        return;
    }
    const cJSON* fields[JOINT_KEY_COUNT];
    read_fields(ld, item, joint_keys, JOINT_KEY_COUNT, fields);
    read_name_of(ld, fields[JOINT_NAME], index, names, "joints", &joint->name);
    bool a_ok = read_joint_body(ld, fields[JOINT_BODY_A], "body_a", bodies, &joint->body_a);
    bool b_ok = read_joint_body(ld, fields[JOINT_BODY_B], "body_b", bodies, &joint->body_b);
    member_bool(ld, fields[JOINT_COLLIDE_CONNECTED], "collide_connected",
                &joint->collide_connected);
    member_number(ld, fields[JOINT_BREAK_FORCE], "break_force", NON_NEGATIVE, &joint->break_force);
    if (!read_joint_type(ld, fields[JOINT_TYPE], &joint->type)) {
        return; /* without a type, the other keys cannot be judged */
    }
    member_number(ld, fields[JOINT_BREAK_TORQUE], "break_torque", NON_NEGATIVE,
                  &joint->break_torque);
    warn_foreign_joint_keys(ld, fields, joint->type);
    joint_defaults(joint);
    bool ok = read_joint_settings(ld, fields, joint);
    if (a_ok && b_ok && check_joint_bodies(ld, scene, joint) && ok) {
        ok = check_local_anchors(ld, scene, joint);
    }
    if (ok) {
        read_frame(ld, fields[JOINT_FRAME], joint);
    }
}

static void read_joints(loader* ld, const cJSON* item, scene_def* out, const name_set* bodies) {
    if (item == NULL) {
        return;
    }
    size_t mark = path_push_key(ld, "joints");
    if (!cJSON_IsArray(item)) {
        fail(ld, "must be an array of joints, not %s", json_kind(item));
        path_pop(ld, mark);
        return;
    }
    out->joint_count = json_length(item);
    out->joints = checked_calloc((size_t)out->joint_count, sizeof(scene_joint));
    out->joint_ids = checked_calloc((size_t)out->joint_count, sizeof(carom_joint_id));
    name_set names;
    name_set_init(&names, out->joint_count);
    int index = 0;
    for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
        size_t joint_mark = path_push_index(ld, index);
        read_joint(ld, child, index, out, bodies, &names, &out->joints[index]);
        path_pop(ld, joint_mark);
    }
    name_set_free(&names);
    path_pop(ld, mark);
}

/* ---- World and top level ---------------------------------------------------------------- */

enum world_key {
    WORLD_GRAVITY,
    WORLD_DT,
    WORLD_SUBSTEPS,
    WORLD_CELL_SIZE,
    WORLD_SLEEP,
    WORLD_CONTINUOUS,
    WORLD_CONTACT_HERTZ,
    WORLD_CONTACT_DAMPING_RATIO,
    WORLD_CONTACT_PUSH_MAX_VELOCITY,
    WORLD_CONTACT_RECYCLE_DISTANCE,
    WORLD_JOINT_HERTZ,
    WORLD_JOINT_DAMPING_RATIO,
    WORLD_KEY_COUNT
};
static const char* const world_keys[WORLD_KEY_COUNT] = {
    "gravity",       "dt",
    "substeps",      "cell_size",
    "sleep",         "continuous",
    "contact_hertz", "contact_damping_ratio",
    "contact_push_max_velocity", "contact_recycle_distance",
    "joint_hertz",   "joint_damping_ratio"};

static void read_world(loader* ld, const cJSON* item, scene_def* out) {
    if (item == NULL) {
        return;
    }
    size_t mark = path_push_key(ld, "world");
    if (!cJSON_IsObject(item)) {
        fail(ld, "must be an object, not %s", json_kind(item));
        path_pop(ld, mark);
        return;
    }
    const cJSON* fields[WORLD_KEY_COUNT];
    read_fields(ld, item, world_keys, WORLD_KEY_COUNT, fields);
    member_vec2(ld, fields[WORLD_GRAVITY], "gravity", ANY, &out->gravity);
    member_number(ld, fields[WORLD_DT], "dt", POSITIVE, &out->dt);
    double substeps = 0.0;
    if (member_integer(ld, fields[WORLD_SUBSTEPS], "substeps", 1.0, 64.0, &substeps)) {
        out->substeps = (int)substeps;
    }
    member_number(ld, fields[WORLD_CELL_SIZE], "cell_size", CELL_SIZE, &out->cell_size);
    member_bool(ld, fields[WORLD_SLEEP], "sleep", &out->sleep);
    member_bool(ld, fields[WORLD_CONTINUOUS], "continuous", &out->continuous);
    member_number(ld, fields[WORLD_CONTACT_HERTZ], "contact_hertz", POSITIVE, &out->contact_hertz);
    member_number(ld, fields[WORLD_CONTACT_DAMPING_RATIO], "contact_damping_ratio", NON_NEGATIVE,
                  &out->contact_damping_ratio);
    member_number(ld, fields[WORLD_CONTACT_PUSH_MAX_VELOCITY], "contact_push_max_velocity",
                  POSITIVE, &out->contact_push_max_velocity);
    member_number(ld, fields[WORLD_CONTACT_RECYCLE_DISTANCE], "contact_recycle_distance",
                  NON_NEGATIVE, &out->contact_recycle_distance);
    member_number(ld, fields[WORLD_JOINT_HERTZ], "joint_hertz", POSITIVE, &out->joint_hertz);
    member_number(ld, fields[WORLD_JOINT_DAMPING_RATIO], "joint_damping_ratio", NON_NEGATIVE,
                  &out->joint_damping_ratio);
    path_pop(ld, mark);
}

static void read_version(loader* ld, const cJSON* item) {
    if (item == NULL) {
        return;
    }
    size_t mark = path_push_key(ld, "version");
    double version = 0.0;
    if (read_finite(ld, item, &version) && version != 1.0) {
        char shown[FORMAT_DOUBLE_SIZE];
        format_double(version, shown);
        fail(ld, "this carom reads scene format version 1, not %s", shown);
    }
    path_pop(ld, mark);
}

enum root_key { ROOT_VERSION, ROOT_WORLD, ROOT_BODIES, ROOT_JOINTS, ROOT_KEY_COUNT };
static const char* const root_keys[ROOT_KEY_COUNT] = {"version", "world", "bodies", "joints"};

static void read_root(loader* ld, const cJSON* root, scene_def* out) {
    if (!cJSON_IsObject(root)) {
        fail(ld, "the top level must be a JSON object (the scene), not %s", json_kind(root));
        return;
    }
    const cJSON* fields[ROOT_KEY_COUNT];
    read_fields(ld, root, root_keys, ROOT_KEY_COUNT, fields);
    read_version(ld, fields[ROOT_VERSION]);
    read_world(ld, fields[ROOT_WORLD], out);
    name_set names;
    read_bodies(ld, fields[ROOT_BODIES], out, &names);
    read_joints(ld, fields[ROOT_JOINTS], out, &names);
    name_set_free(&names);
}

/* ---- Text checks before parsing --------------------------------------------------------- */

/* "line L, column C" of a byte offset, columns counted in characters (UTF-8 lead bytes). */
static void describe_position(const char* data, size_t size, size_t offset, char* out,
                              size_t out_size) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < size; ++i) {
        if (data[i] == '\n') {
            line += 1;
            column = 1;
        } else if (((unsigned char)data[i] & 0xc0) != 0x80) {
            column += 1;
        }
    }
    snprintf(out, out_size, "line %zu, column %zu", line, column);
}

static void fail_at_offset(loader* ld, const char* data, size_t size, size_t offset,
                           const char* message) {
    char where[64];
    describe_position(data, size, offset, where, sizeof(where));
    emit_line(ld->report, where, false, message);
}

static bool is_json_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Refuse what cJSON would mishandle or what no scene can be, with a clearer message than a
 * parse error: no JSON at all, a NUL byte (cJSON strings stop at one, so the file would not
 * mean what it shows), and nesting deep enough to make a recursive parser a stack hazard. */
static bool check_text(loader* ld, const char* data, size_t size) {
    if (size == 0) {
        emit_line(ld->report, "", false,
                  "the file is empty: a scene is a JSON object, at least {\"bodies\": []}");
        return false;
    }
    bool in_string = false, escaped = false, blank = true;
    int depth = 0;
    for (size_t i = 0; i < size; ++i) {
        char c = data[i];
        if (c == '\0') {
            fail_at_offset(ld, data, size, i, "a NUL byte: a scene file is JSON text");
            return false;
        }
        blank = blank && is_json_space(c);
        if (in_string && escaped && c == 'u' && size - i > 4 &&
            memcmp(data + i + 1, "0000", 4) == 0) {
            fail_at_offset(
                ld, data, size, i - 1,
                "\\u0000 (the NUL character) in a string: carom cannot keep it; remove it");
            return false;
        }
        if (in_string) {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > SCENE_MAX_DEPTH) {
                char message[96];
                snprintf(message, sizeof(message),
                         "JSON nested deeper than %d levels: a scene needs 7", SCENE_MAX_DEPTH);
                fail_at_offset(ld, data, size, i, message);
                return false;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth -= 1;
        }
    }
    if (blank) {
        emit_line(ld->report, "", false,
                  "the file holds only white space: a scene is a JSON object, at least "
                  "{\"bodies\": []}");
        return false;
    }
    return true;
}

/* Explain a cJSON parse failure at offset: a cut-off file, NaN or Infinity (not JSON, though
 * other tools write them), or else whatever text stopped the parser. */
static void report_parse_error(loader* ld, const char* data, size_t size, size_t offset) {
    size_t rest = offset;
    while (rest < size && is_json_space(data[rest])) {
        ++rest;
    }
    char message[256];
    if (rest >= size) {
        snprintf(message, sizeof(message),
                 "invalid JSON: the text ends before the JSON does (is the file cut short?)");
    } else {
        char snippet[24];
        size_t length = 0;
        while (length < 16 && offset + length < size && data[offset + length] != '\n' &&
               data[offset + length] != '\r') {
            snippet[length] = data[offset + length];
            ++length;
        }
        snippet[length] = '\0';
        /* The snippet starts where the parser stopped, so a NaN or an Infinity begins it. */
        const char* const non_numbers[] = {"NaN", "nan", "Inf", "inf", "-Inf", "-inf"};
        bool not_a_number = false;
        for (size_t i = 0; i < sizeof(non_numbers) / sizeof(non_numbers[0]); ++i) {
            not_a_number =
                not_a_number || strncmp(snippet, non_numbers[i], strlen(non_numbers[i])) == 0;
        }
        /* A closing bracket right after a comma: the trailing comma other formats allow. */
        size_t before = offset;
        while (before > 0 && is_json_space(data[before - 1])) {
            --before;
        }
        bool trailing_comma =
            (snippet[0] == ']' || snippet[0] == '}') && before > 0 && data[before - 1] == ',';
        char quoted[QUOTE_SIZE];
        snprintf(message, sizeof(message), "invalid JSON at %s%s",
                 quote_for_message(snippet, quoted, sizeof(quoted)),
                 not_a_number     ? ": NaN and Infinity are not JSON numbers; write a finite number"
                 : trailing_comma ? ": JSON allows no comma before a closing bracket"
                                  : "");
    }
    fail_at_offset(ld, data, size, offset, message);
}

/* ---- Public entry points ---------------------------------------------------------------- */

/* The limit is named in the message as "(N MiB) a KIND may have": kind is "scene file" here and
 * "snapshot file" for `carom resume`, which reads its files with scene_read_file() too. */
static void report_oversized(scene_report* report, uintmax_t size, size_t max_bytes,
                             const char* kind) {
    char message[192];
    snprintf(message, sizeof(message),
             "the file is %ju bytes, more than the %zu (%zu MiB) a %s may have", size, max_bytes,
             max_bytes >> 20, kind);
    emit_line(report, "", false, message);
}

static void scene_defaults(scene_def* out) {
    memset(out, 0, sizeof(*out));
    out->gravity = carom_v2(0.0, -10.0);
    out->dt = 1.0 / 60.0;
    carom_world_def engine = carom_default_world_def();
    out->sleep = engine.enable_sleep != 0;
    out->continuous = engine.enable_continuous != 0;
    out->contact_hertz = engine.contact_hertz;
    out->contact_damping_ratio = engine.contact_damping_ratio;
    out->contact_push_max_velocity = engine.contact_push_max_velocity;
    out->contact_recycle_distance = engine.contact_recycle_distance;
    out->joint_hertz = engine.joint_hertz;
    out->joint_damping_ratio = engine.joint_damping_ratio;
}

bool scene_load_buffer(const char* data, size_t size, scene_report* report, scene_def* out) {
    loader ld;
    memset(&ld, 0, sizeof(ld));
    ld.report = report;
    scene_defaults(out);
    int errors_before = report->error_count;
    if (size > SCENE_MAX_FILE_BYTES) {
        report_oversized(report, size, SCENE_MAX_FILE_BYTES, "scene file");
        return false;
    }
    if (!check_text(&ld, data, size)) {
        return false;
    }
    /* cJSON wants a terminated string to refuse trailing text; the check above ruled out NULs
     * inside, so the terminator is the only one. */
    char* text = checked_calloc(size + 1, 1);
    memcpy(text, data, size);
    const char* end = NULL;
    cJSON* root = cJSON_ParseWithLengthOpts(text, size + 1, &end, 0);
    size_t offset = end != NULL && end >= text ? (size_t)(end - text) : 0;
    while (root != NULL && offset < size && is_json_space(text[offset])) {
        ++offset;
    }
    if (root == NULL) {
        report_parse_error(&ld, text, size, offset);
    } else if (offset < size) {
        fail_at_offset(&ld, text, size, offset,
                       "more text after the end of the JSON: a scene file holds one object");
    } else {
        read_root(&ld, root, out);
    }
    cJSON_Delete(root);
    free(text);
    if (report->error_count > errors_before) {
        scene_free(out);
        return false;
    }
    return true;
}

/* Read a whole file, at most max_bytes + 1 bytes so an oversized one is caught without reading
 * all of it. Pipes and devices work too: their size is found by reading. */
char* scene_read_file(const char* path, size_t max_bytes, const char* kind, scene_report* report,
                      size_t* size) {
    FILE* file = fopen(path, "rb");
    struct stat info;
    bool known = file != NULL && fstat(fileno(file), &info) == 0;
    if (known && S_ISDIR(info.st_mode)) {
        fclose(file);
        file = NULL;
        errno = EISDIR;
    }
    if (file == NULL) {
        char message[256];
        snprintf(message, sizeof(message), "cannot read the file: %s", strerror(errno));
        emit_line(report, "", false, message);
        return NULL;
    }
    if (known && S_ISREG(info.st_mode) && (uintmax_t)info.st_size > max_bytes) {
        report_oversized(report, (uintmax_t)info.st_size, max_bytes, kind); /* without reading */
        fclose(file);
        return NULL;
    }
    size_t capacity = 1 << 16, used = 0;
    char* data = checked_calloc(capacity, 1);
    for (;;) {
        if (used == capacity) {
            capacity *= 2;
            char* grown = realloc(data, capacity);
            if (grown == NULL) {
                free(data);
                fclose(file);
                fputs("carom: out of memory\n", stderr);
                exit(1);
            }
            data = grown;
        }
        size_t limit = max_bytes + 1 - used;
        size_t want = capacity - used < limit ? capacity - used : limit;
        size_t got = fread(data + used, 1, want, file);
        used += got;
        if (got < want || used > max_bytes) {
            break;
        }
    }
    bool failed = ferror(file) != 0;
    int saved_errno = errno;
    fclose(file);
    if (failed) {
        char message[256];
        snprintf(message, sizeof(message), "cannot read the file: %s", strerror(saved_errno));
        emit_line(report, "", false, message);
        free(data);
        return NULL;
    }
    if (used > max_bytes) { /* a pipe or device: its size is only known this far */
        char message[160];
        snprintf(message, sizeof(message),
                 "the input is more than the %zu bytes (%zu MiB) a %s may have", max_bytes,
                 max_bytes >> 20, kind);
        emit_line(report, "", false, message);
        free(data);
        return NULL;
    }
    *size = used;
    return data;
}

bool scene_load_file(const char* path, scene_report* report, scene_def* out) {
    scene_defaults(out);
    size_t size = 0;
    char* data = scene_read_file(path, SCENE_MAX_FILE_BYTES, "scene file", report, &size);
    if (data == NULL) {
        return false;
    }
    bool ok = scene_load_buffer(data, size, report, out);
    free(data);
    return ok;
}

void scene_free(scene_def* scene) {
    for (int i = 0; i < scene->body_count; ++i) {
        scene_body* body = &scene->bodies[i];
        for (int j = 0; j < body->shape_count; ++j) {
            free(body->shapes[j].points);
        }
        free(body->shapes);
        free(body->name);
    }
    free(scene->bodies);
    scene->bodies = NULL;
    scene->body_count = 0;
    for (int i = 0; i < scene->joint_count; ++i) {
        free(scene->joints[i].name);
    }
    free(scene->joints);
    free(scene->joint_ids);
    scene->joints = NULL;
    scene->joint_ids = NULL;
    scene->joint_count = 0;
}

const char* scene_body_label(const scene_def* scene, int index, char* buffer, size_t buffer_size) {
    if (scene->bodies[index].name != NULL) {
        return scene->bodies[index].name;
    }
    snprintf(buffer, buffer_size, "#%d", index);
    return buffer;
}

/* ---- Building the world ----------------------------------------------------------------- */

static carom_shape_def shape_def_of(const scene_shape* shape) {
    carom_shape_def def = carom_default_shape_def();
    def.density = shape->density;
    def.friction = shape->friction;
    def.restitution = shape->restitution;
    def.is_sensor = shape->sensor;
    def.filter = shape->filter;
    return def;
}

static carom_status add_shape(carom_body_id body, const scene_shape* shape) {
    carom_shape_def def = shape_def_of(shape);
    carom_shape_id id = carom_null_shape_id;
    switch (shape->type) {
    case SCENE_SHAPE_CIRCLE: {
        carom_circle circle = {shape->center, shape->radius};
        id = carom_create_circle_shape(body, &def, &circle);
        break;
    }
    case SCENE_SHAPE_BOX:
        id = carom_create_box_shape(body, &def, shape->half_extents.x, shape->half_extents.y,
                                    shape->center, shape->angle);
        break;
    case SCENE_SHAPE_POLYGON: {
        carom_polygon polygon;
        if (carom_make_polygon(shape->points, shape->point_count, &polygon) != CAROM_OK) {
            return carom_last_status();
        }
        id = carom_create_polygon_shape(body, &def, &polygon);
        break;
    }
    case SCENE_SHAPE_SEGMENT: {
        carom_segment segment = {shape->points[0], shape->points[1]};
        id = carom_create_segment_shape(body, &def, &segment);
        break;
    }
    case SCENE_SHAPE_CHAIN:
        return carom_create_chain(body, &def, shape->points, shape->point_count, shape->loop, NULL);
    }
    return CAROM_IS_NULL(id) ? carom_last_status() : CAROM_OK;
}

/* Shapes first, velocities after: attaching a shape moves the center of mass, and the engine
 * keeps the material velocity, which would change a center-of-mass velocity set before. */
static carom_status add_body(carom_world_id world, const scene_body* body, carom_body_id* out) {
    carom_body_def def = carom_default_body_def();
    def.type = body->type;
    def.position = body->position;
    def.angle = body->has_rotation ? 0.0 : body->angle;
    def.linear_damping = body->linear_damping;
    def.angular_damping = body->angular_damping;
    def.bullet = body->bullet;
    def.awake = body->awake;
    *out = carom_create_body(world, &def);
    if (CAROM_IS_NULL(*out)) {
        return carom_last_status();
    }
    carom_status status =
        body->has_rotation ? carom_body_set_rotation(*out, body->rotation) : CAROM_OK;
    for (int i = 0; i < body->shape_count && status == CAROM_OK; ++i) {
        status = add_shape(*out, &body->shapes[i]);
    }
    if (status == CAROM_OK && body->type != CAROM_BODY_STATIC && carom_body_is_awake(*out)) {
        status = carom_body_set_linear_velocity(*out, body->linear_velocity);
        if (status == CAROM_OK) {
            status = carom_body_set_angular_velocity(*out, body->angular_velocity);
        }
    }
    return status;
}

/* The def of each kind from the scene's description; the joint's frame, if the file gave it,
 * replaces what creation made of the world anchors. */
static carom_joint_id create_joint(const scene_joint* j, carom_body_id a, carom_body_id b) {
    switch (j->type) {
    case CAROM_JOINT_REVOLUTE: {
        carom_revolute_joint_def def = carom_default_revolute_joint_def();
        def.anchor = j->anchor;
        def.enable_limit = j->has_limit;
        def.lower_angle = j->lower;
        def.upper_angle = j->upper;
        def.enable_motor = j->has_motor;
        def.motor_speed = j->motor_speed;
        def.max_motor_torque = j->max_motor;
        def.enable_spring = j->has_spring;
        def.hertz = j->hertz;
        def.damping_ratio = j->damping_ratio;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_revolute_joint(a, b, &def);
    }
    case CAROM_JOINT_PRISMATIC: {
        carom_prismatic_joint_def def = carom_default_prismatic_joint_def();
        def.anchor = j->anchor;
        def.axis = j->axis;
        def.enable_limit = j->has_limit;
        def.lower_translation = j->lower;
        def.upper_translation = j->upper;
        def.enable_motor = j->has_motor;
        def.motor_speed = j->motor_speed;
        def.max_motor_force = j->max_motor;
        def.enable_spring = j->has_spring;
        def.hertz = j->hertz;
        def.damping_ratio = j->damping_ratio;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_prismatic_joint(a, b, &def);
    }
    case CAROM_JOINT_DISTANCE: {
        carom_distance_joint_def def = carom_default_distance_joint_def();
        def.anchor_a = j->anchor_a;
        def.anchor_b = j->anchor_b;
        def.length = j->length;
        def.enable_spring = j->has_spring;
        def.hertz = j->hertz;
        def.damping_ratio = j->damping_ratio;
        def.enable_limit = j->has_limit;
        def.min_length = j->min_length;
        def.max_length = j->max_length;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        return carom_create_distance_joint(a, b, &def);
    }
    case CAROM_JOINT_WELD: {
        carom_weld_joint_def def = carom_default_weld_joint_def();
        def.anchor = j->anchor;
        def.linear_hertz = j->linear_hertz;
        def.linear_damping_ratio = j->linear_damping_ratio;
        def.angular_hertz = j->angular_hertz;
        def.angular_damping_ratio = j->angular_damping_ratio;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_weld_joint(a, b, &def);
    }
    case CAROM_JOINT_WHEEL: {
        carom_wheel_joint_def def = carom_default_wheel_joint_def();
        def.anchor = j->anchor;
        def.axis = j->axis;
        def.enable_spring = j->has_spring;
        def.hertz = j->hertz;
        def.damping_ratio = j->damping_ratio;
        def.enable_limit = j->has_limit;
        def.lower_translation = j->lower;
        def.upper_translation = j->upper;
        def.enable_motor = j->has_motor;
        def.motor_speed = j->motor_speed;
        def.max_motor_torque = j->max_motor;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_wheel_joint(a, b, &def);
    }
    case CAROM_JOINT_MOTOR: {
        carom_motor_joint_def def = carom_default_motor_joint_def();
        def.linear_offset = j->linear_offset;
        def.angular_offset = j->angular_offset;
        def.max_force = j->max_force;
        def.max_torque = j->max_torque;
        def.correction_factor = j->correction_factor;
        def.collide_connected = j->collide_connected;
        def.break_force = j->break_force;
        def.break_torque = j->break_torque;
        return carom_create_motor_joint(a, b, &def);
    }
    case CAROM_JOINT_MOUSE:
        break;
    }
    carom_clear_last_error();
    return carom_null_joint_id;
}

static carom_status add_joint(const scene_def* scene, int index, const carom_body_id* body_ids) {
    const scene_joint* j = &scene->joints[index];
    carom_joint_id id = create_joint(j, body_ids[j->body_a], body_ids[j->body_b]);
    scene->joint_ids[index] = id;
    if (CAROM_IS_NULL(id)) {
        return carom_last_status() != CAROM_OK ? carom_last_status() : CAROM_ERROR_INVALID_DEF;
    }
    return j->has_frame ? carom_joint_set_frame(id, &j->frame) : CAROM_OK;
}

carom_status scene_build_world(const scene_def* scene, carom_world_id* world,
                               carom_body_id* body_ids, int* failed_body) {
    carom_world_def def = carom_default_world_def();
    def.gravity = scene->gravity;
    if (scene->substeps > 0) {
        def.substeps = scene->substeps;
    }
    def.cell_size = scene->cell_size;
    def.enable_sleep = scene->sleep;
    def.enable_continuous = scene->continuous;
    def.contact_hertz = scene->contact_hertz;
    def.contact_damping_ratio = scene->contact_damping_ratio;
    def.contact_push_max_velocity = scene->contact_push_max_velocity;
    def.contact_recycle_distance = scene->contact_recycle_distance;
    def.joint_hertz = scene->joint_hertz;
    def.joint_damping_ratio = scene->joint_damping_ratio;
    *failed_body = -1;
    *world = carom_create_world(&def);
    if (CAROM_IS_NULL(*world)) {
        return carom_last_status();
    }
    for (int i = 0; i < scene->body_count; ++i) {
        carom_status status = add_body(*world, &scene->bodies[i], &body_ids[i]);
        if (status != CAROM_OK) {
            *failed_body = i;
            carom_destroy_world(*world);
            *world = carom_null_world_id;
            return status;
        }
    }
    for (int i = 0; i < scene->joint_count; ++i) {
        carom_status status = add_joint(scene, i, body_ids);
        if (status != CAROM_OK) {
            carom_destroy_world(*world);
            *world = carom_null_world_id;
            return status;
        }
    }
    return CAROM_OK;
}
