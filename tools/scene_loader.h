/* The scene loader's private interface, shared by its files (scene.c, scene_values.c,
 * scene_bodies.c, scene_joints.c, scene_vehicles.c). Not installed, not used outside
 * tools/scene*.c: callers use scene.h. */
#ifndef CAROM_TOOLS_SCENE_LOADER_H
#define CAROM_TOOLS_SCENE_LOADER_H

#include "scene.h"

#include <cjson/cJSON.h>

#include <stdbool.h>
#include <stddef.h>

/* A load in progress: where lines go and the JSON path of the value being read. */
typedef struct loader {
    scene_report* report;
    char path[512]; /* the JSON path of the value being read, e.g. bodies[3].shapes[0].radius */
    size_t path_length;
} loader;

/* The ranges the value readers check (each the engine's own rule). */
typedef enum number_range {
    ANY,
    POSITIVE,
    NON_NEGATIVE,
    UNIT_INTERVAL,
    CELL_SIZE, /* at least CAROM_MIN_CELL_SIZE */
    RADIUS,    /* at least CAROM_MIN_RADIUS */
    DENSITY    /* 0 or at least CAROM_MIN_DENSITY */
} number_range;

/* Body (or joint) names must be unique; a hash set keeps that check linear for big scenes. */
typedef struct name_set {
    const char** names;
    int* indices;
    size_t capacity; /* a power of two, at least twice the number of names */
} name_set;

/* Memory: the tool stops with a message when there is none. */
void* checked_calloc(size_t count, size_t size);

/* Reporting: a line per problem, at the JSON path being read (scene_values.c). */
void emit_line(scene_report* report, const char* where, bool warning, const char* text);
void report_error(loader* ld, const char* format, ...) __attribute__((format(printf, 2, 3)));
void report_warning(loader* ld, const char* format, ...) __attribute__((format(printf, 2, 3)));
size_t path_push_key(loader* ld, const char* key);
size_t path_push_index(loader* ld, int index);
void path_pop(loader* ld, size_t mark);

/* Values: each reported at its own path when absent, mistyped or out of range. */
const char* json_kind(const cJSON* item);
int json_length(const cJSON* array);
bool read_finite(loader* ld, const cJSON* item, double* out);
bool read_vec2(loader* ld, const cJSON* item, number_range range, carom_vec2* out);
bool read_points(loader* ld, const cJSON* item, carom_vec2** points, int* count);
bool member_number(loader* ld, const cJSON* item, const char* key, number_range range, double* out);
bool member_vec2(loader* ld, const cJSON* item, const char* key, number_range range,
                 carom_vec2* out);
bool member_bool(loader* ld, const cJSON* item, const char* key, bool* out);
bool member_integer(loader* ld, const cJSON* item, const char* key, double minimum, double maximum,
                    double* out);
bool require(loader* ld, const cJSON* item, const char* key, const char* why);
/* Matches an object's keys in one pass; an unknown key gets a "did you mean" warning. */
void read_fields(loader* ld, const cJSON* object, const char* const* keys, int key_count,
                 const cJSON** fields);

/* The "type" member of a shape or joint: the index of its name among `count` names, or -1
 * after reporting it missing, not a string or unknown (`choices` lists the names for people,
 * e.g. "\"circle\", \"box\" or \"chain\""). */
int read_type_name(loader* ld, const cJSON* item, const char* what, const char* const* names,
                   int count, const char* choices);

/* Names, unique per array. */
void name_set_init(name_set* set, int expected);
int name_set_find(const name_set* set, const char* name);
void name_set_free(name_set* set);
void read_name_of(loader* ld, const cJSON* item, int index, name_set* names, const char* what,
                  char** out);
void read_name(loader* ld, const cJSON* item, int index, name_set* names, char** out);

/* The arrays a scene names things in: bodies first (joints and vehicles refer to them by
 * name). */
void read_bodies(loader* ld, const cJSON* item, scene_def* out, name_set* names);
void read_joints(loader* ld, const cJSON* item, scene_def* out, const name_set* bodies);
void read_vehicles(loader* ld, const cJSON* item, scene_def* out, const name_set* bodies);

#endif
