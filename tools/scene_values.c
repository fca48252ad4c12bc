/* Scene files, the reading half's foundation: one report line per problem with the JSON path of
 * the value, the readers of JSON numbers, vectors, booleans and points within the engine's
 * ranges, the one-pass key matcher with its "did you mean" hint, and body and joint names.
 * The design of the loader as a whole is in scene.c. */
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

/* ---- Memory --------------------------------------------------------------------------- */

/* The tool has nothing sensible to do without memory: say so and stop. */
void* checked_calloc(size_t count, size_t size) {
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

void emit_line(scene_report* report, const char* where, bool warning, const char* text) {
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
void report_error(loader* ld, const char* format, ...) {
    va_list args;
    va_start(args, format);
    vreport(ld, false, format, args);
    va_end(args);
}

/* Something ignored at the current path: the scene still runs. */
void report_warning(loader* ld, const char* format, ...) {
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
size_t path_push_key(loader* ld, const char* key) {
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

size_t path_push_index(loader* ld, int index) {
    size_t mark = ld->path_length;
    char text[24];
    snprintf(text, sizeof(text), "[%d]", index);
    path_append(ld, text);
    return mark;
}

void path_pop(loader* ld, size_t mark) {
    ld->path_length = mark;
    ld->path[mark] = '\0';
}

/* ---- Reading JSON values ---------------------------------------------------------------- */

const char* json_kind(const cJSON* item) {
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

int json_length(const cJSON* array) {
    int count = 0;
    for (const cJSON* child = array->child; child != NULL; child = child->next) {
        ++count;
    }
    return count;
}

/* A finite JSON number. cJSON reads 1e400 as infinity; carom has no use for it. */
bool read_finite(loader* ld, const cJSON* item, double* out) {
    if (!cJSON_IsNumber(item)) {
        report_error(ld, "must be a number, not %s", json_kind(item));
        return false;
    }
    if (!isfinite(item->valuedouble)) {
        report_error(ld, "must be a finite number; this one is too large for a double (it reads as "
                         "infinity)");
        return false;
    }
    *out = item->valuedouble;
    return true;
}

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
        report_error(ld, "%s, got %s", problem, shown);
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
        report_error(ld, "must be an integer from %.0f to %.0f, got %s", minimum, maximum, shown);
        return false;
    }
    *out = value;
    return true;
}

static bool read_bool(loader* ld, const cJSON* item, bool* out) {
    if (!cJSON_IsBool(item)) {
        report_error(ld, "must be true or false, not %s", json_kind(item));
        return false;
    }
    *out = cJSON_IsTrue(item);
    return true;
}

/* [x, y]: both numbers read with the same range, each reported at its own index. */
bool read_vec2(loader* ld, const cJSON* item, number_range range, carom_vec2* out) {
    if (!cJSON_IsArray(item)) {
        report_error(ld, "must be an array of 2 numbers, not %s", json_kind(item));
        return false;
    }
    int count = json_length(item);
    if (count != 2) {
        report_error(ld, "must be an array of 2 numbers, got %d element%s", count,
                     count == 1 ? "" : "s");
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
bool read_points(loader* ld, const cJSON* item, carom_vec2** points, int* count) {
    if (!cJSON_IsArray(item)) {
        report_error(ld, "must be an array of points [x, y], not %s", json_kind(item));
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
bool member_number(loader* ld, const cJSON* item, const char* key, number_range range,
                   double* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = read_number(ld, item, range, out);
    path_pop(ld, mark);
    return ok;
}

bool member_vec2(loader* ld, const cJSON* item, const char* key, number_range range,
                 carom_vec2* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = read_vec2(ld, item, range, out);
    path_pop(ld, mark);
    return ok;
}

bool member_bool(loader* ld, const cJSON* item, const char* key, bool* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = read_bool(ld, item, out);
    path_pop(ld, mark);
    return ok;
}

bool member_integer(loader* ld, const cJSON* item, const char* key, double minimum, double maximum,
                    double* out) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    bool ok = read_integer(ld, item, minimum, maximum, out);
    path_pop(ld, mark);
    return ok;
}

/* A required member that is absent: reported at the path it should have had. */
bool require(loader* ld, const cJSON* item, const char* key, const char* why) {
    if (item != NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, key);
    report_error(ld, "missing: %s", why);
    path_pop(ld, mark);
    return false;
}

int scene_edit_distance(const char* a, const char* b) {
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
void read_fields(loader* ld, const cJSON* object, const char* const* keys, int key_count,
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
            nearest = scene_edit_distance(key, keys[i]) <= 2 ? i : -1;
        }
        size_t mark = path_push_key(ld, key);
        if (found < 0 && nearest >= 0) {
            report_warning(ld, "unknown key, ignored (did you mean \"%s\"?)", keys[nearest]);
        } else if (found < 0) {
            report_warning(ld, "unknown key, ignored");
        } else if (fields[found] != NULL) {
            report_error(ld, "the key appears twice in this object: keep one");
        } else {
            fields[found] = child;
        }
        path_pop(ld, mark);
    }
}

/* ---- Names ------------------------------------------------------------------------------ */

static uint64_t hash_text(const char* text) {
    uint64_t hash = 0xcbf29ce484222325u; /* FNV-1a 64 */
    for (const unsigned char* p = (const unsigned char*)text; *p != '\0'; ++p) {
        hash = (hash ^ *p) * 0x100000001b3u;
    }
    return hash;
}

void name_set_init(name_set* set, int expected) {
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
int name_set_find(const name_set* set, const char* name) {
    size_t slot = (size_t)hash_text(name) & (set->capacity - 1);
    while (set->names[slot] != NULL) {
        if (strcmp(set->names[slot], name) == 0) {
            return set->indices[slot];
        }
        slot = (slot + 1) & (set->capacity - 1);
    }
    return -1;
}

void name_set_free(name_set* set) {
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
void read_name_of(loader* ld, const cJSON* item, int index, name_set* names, const char* what,
                  char** out) {
    if (item == NULL) {
        return;
    }
    size_t mark = path_push_key(ld, "name");
    const char* problem = NULL;
    if (!cJSON_IsString(item)) {
        report_error(ld, "must be a string, not %s", json_kind(item));
    } else if ((problem = name_problem(item->valuestring)) != NULL) {
        report_error(ld, "%s", problem);
    } else {
        *out = checked_strdup(item->valuestring);
        int first = name_set_insert(names, *out, index);
        if (first >= 0) {
            char quoted[QUOTE_SIZE];
            report_error(ld, "%s is already the name of %s[%d]: names must be unique",
                         quote_for_message(*out, quoted, sizeof(quoted)), what, first);
        }
    }
    path_pop(ld, mark);
}

void read_name(loader* ld, const cJSON* item, int index, name_set* names, char** out) {
    read_name_of(ld, item, index, names, "bodies", out);
}

int read_type_name(loader* ld, const cJSON* item, const char* what, const char* const* names,
                   int count, const char* choices) {
    char why[256];
    snprintf(why, sizeof(why), "every %s needs a type: %s", what, choices);
    if (!require(ld, item, "type", why)) {
        return -1;
    }
    size_t mark = path_push_key(ld, "type");
    int found = -1;
    if (!cJSON_IsString(item)) {
        report_error(ld, "must be a string, not %s", json_kind(item));
    } else {
        for (int i = 0; i < count && found < 0; ++i) {
            if (strcmp(item->valuestring, names[i]) == 0) {
                found = i;
            }
        }
        if (found < 0) {
            char quoted[QUOTE_SIZE];
            report_error(ld, "unknown %s type %s: use %s", what,
                         quote_for_message(item->valuestring, quoted, sizeof(quoted)), choices);
        }
    }
    path_pop(ld, mark);
    return found;
}
