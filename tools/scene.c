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
 * and no NUL bytes (cJSON's strings end at one).
 *
 * The loader is spread over scene_values.c (reporting, values, names), scene_bodies.c,
 * scene_joints.c, scene_vehicles.c and this file (the world, the top level, the text checks before
 * parsing and the entry points); scene_build.c builds the world. */
#define _POSIX_C_SOURCE 200809L
#include "scene_loader.h"

#include "format.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    WORLD_MAX_CONTACTS,
    WORLD_KEY_COUNT
};
static const char* const world_keys[WORLD_KEY_COUNT] = {"gravity",
                                                        "dt",
                                                        "substeps",
                                                        "cell_size",
                                                        "sleep",
                                                        "continuous",
                                                        "contact_hertz",
                                                        "contact_damping_ratio",
                                                        "contact_push_max_velocity",
                                                        "contact_recycle_distance",
                                                        "joint_hertz",
                                                        "joint_damping_ratio",
                                                        "max_contacts"};

static void read_world(loader* ld, const cJSON* item, scene_def* out) {
    if (item == NULL) {
        return;
    }
    size_t mark = path_push_key(ld, "world");
    if (!cJSON_IsObject(item)) {
        report_error(ld, "must be an object, not %s", json_kind(item));
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
    double max_contacts = out->max_contacts; /* the engine's default unless given */
    if (member_integer(ld, fields[WORLD_MAX_CONTACTS], "max_contacts", 1.0, (double)INT_MAX,
                       &max_contacts)) {
        out->max_contacts = (int)max_contacts;
    }
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
        report_error(ld, "this carom reads scene format version 1, not %s", shown);
    }
    path_pop(ld, mark);
}

enum root_key {
    ROOT_VERSION,
    ROOT_WORLD,
    ROOT_BODIES,
    ROOT_JOINTS,
    ROOT_VEHICLES,
    ROOT_KEY_COUNT
};
static const char* const root_keys[ROOT_KEY_COUNT] = {"version", "world", "bodies", "joints",
                                                      "vehicles"};

static void read_root(loader* ld, const cJSON* root, scene_def* out) {
    if (!cJSON_IsObject(root)) {
        report_error(ld, "the top level must be a JSON object (the scene), not %s",
                     json_kind(root));
        return;
    }
    const cJSON* fields[ROOT_KEY_COUNT];
    read_fields(ld, root, root_keys, ROOT_KEY_COUNT, fields);
    read_version(ld, fields[ROOT_VERSION]);
    read_world(ld, fields[ROOT_WORLD], out);
    name_set names;
    read_bodies(ld, fields[ROOT_BODIES], out, &names);
    read_joints(ld, fields[ROOT_JOINTS], out, &names);
    read_vehicles(ld, fields[ROOT_VEHICLES], out, &names);
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
    /* Where an object's key should start, cJSON stops one byte past what it found: after a
     * trailing comma, past the closing brace. Point at the brace itself. */
    if (offset > 0 && offset <= size && data[offset - 1] == '}') {
        size_t before = offset - 1;
        while (before > 0 && is_json_space(data[before - 1])) {
            --before;
        }
        offset -= before > 0 && data[before - 1] == ',' ? 1 : 0;
    }
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
    out->max_contacts = engine.max_contacts;
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
    for (int i = 0; i < scene->vehicle_count; ++i) {
        free(scene->vehicles[i].controls);
    }
    free(scene->vehicles);
    free(scene->vehicle_ids);
    scene->vehicles = NULL;
    scene->vehicle_ids = NULL;
    scene->vehicle_count = 0;
}

const char* scene_body_label(const scene_def* scene, int index, char* buffer, size_t buffer_size) {
    if (scene->bodies[index].name != NULL) {
        return scene->bodies[index].name;
    }
    snprintf(buffer, buffer_size, "#%d", index);
    return buffer;
}
