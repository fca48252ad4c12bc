/* Scene files: the "vehicles" array, read and checked against the contract of docs/cli.md: a
 * top-down car (include/carom/vehicle.h) on a named dynamic body, the vehicle def's fields with
 * the def's defaults, the input in force at the start, and a control script of inputs set at
 * given steps, so that a racing model runs from a file alone. The ranges are the engine's own
 * (carom_check_vehicle_def, carom_vehicle_set_input), so a scene that loads builds. */
#define _POSIX_C_SOURCE 200809L
#include "scene_loader.h"

#include "format.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest step a script may name: steps are JSON numbers, exact integers up to 2^53 - 1,
 * the last step a run or a snapshot can reach. */
#define SCENE_MAX_CONTROL_STEP 9007199254740991.0

/* ---- Inputs and the control script --------------------------------------------------------- */

enum input_key {
    INPUT_STEP,
    INPUT_THROTTLE,
    INPUT_BRAKE,
    INPUT_STEER,
    INPUT_HANDBRAKE,
    INPUT_COUNT
};
static const char* const input_keys[INPUT_COUNT] = {"step", "throttle", "brake", "steer",
                                                    "handbrake"};

/* A number in [-1, 1] (throttle, steer), as carom_vehicle_set_input wants it. */
static bool member_signed_unit(loader* ld, const cJSON* item, const char* key, double* out) {
    double value = *out;
    if (!member_number(ld, item, key, ANY, &value)) {
        return false;
    }
    if (value < -1.0 || value > 1.0) {
        size_t mark = path_push_key(ld, key);
        char shown[FORMAT_DOUBLE_SIZE];
        format_double(value, shown);
        report_error(ld, "must be between -1 and 1, got %s", shown);
        path_pop(ld, mark);
        return false;
    }
    *out = value;
    return true;
}

/* The four controls of an input object; each absent one is 0 (false): an entry is the whole
 * input, not a change to the one before. */
static bool read_input_fields(loader* ld, const cJSON** fields, carom_vehicle_input* out) {
    memset(out, 0, sizeof(*out));
    bool handbrake = false;
    bool ok = member_signed_unit(ld, fields[INPUT_THROTTLE], "throttle", &out->throttle);
    ok = member_number(ld, fields[INPUT_BRAKE], "brake", UNIT_INTERVAL, &out->brake) && ok;
    ok = member_signed_unit(ld, fields[INPUT_STEER], "steer", &out->steer) && ok;
    ok = member_bool(ld, fields[INPUT_HANDBRAKE], "handbrake", &handbrake) && ok;
    out->handbrake = handbrake ? 1 : 0;
    return ok;
}

/* "input": the controls in force from the start (state files write the ones in force). */
static bool read_start_input(loader* ld, const cJSON* item, carom_vehicle_input* out) {
    memset(out, 0, sizeof(*out));
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "input");
    bool ok = false;
    if (!cJSON_IsObject(item)) {
        report_error(ld,
                     "must be an object {\"throttle\", \"brake\", \"steer\", \"handbrake\"}, "
                     "not %s",
                     json_kind(item));
    } else {
        const cJSON* fields[INPUT_COUNT];
        read_fields(ld, item, input_keys, INPUT_COUNT, fields);
        if (fields[INPUT_STEP] != NULL) {
            size_t step_mark = path_push_key(ld, "step");
            report_warning(ld, "the input in force from the start has no step (entries of "
                               "\"controls\" do), ignored");
            path_pop(ld, step_mark);
        }
        ok = read_input_fields(ld, fields, out);
    }
    path_pop(ld, mark);
    return ok;
}

/* One entry of "controls": its step, after the previous entry's, and its input. *previous is
 * the last step read well, which this one's becomes when it is read well too. */
static bool read_control(loader* ld, const cJSON* item, double* previous, scene_control* out) {
    if (!cJSON_IsObject(item)) {
        report_error(ld,
                     "must be an object (a control entry: step, throttle, brake, steer, "
                     "handbrake), not %s",
                     json_kind(item));
        return false;
    }
    const cJSON* fields[INPUT_COUNT];
    read_fields(ld, item, input_keys, INPUT_COUNT, fields);
    double step = -1.0;
    bool ok = require(ld, fields[INPUT_STEP], "step",
                      "every control entry needs the step (steps taken, an integer >= 0) at "
                      "which it takes over");
    ok = ok && member_integer(ld, fields[INPUT_STEP], "step", 0.0, SCENE_MAX_CONTROL_STEP, &step);
    if (ok && step <= *previous) {
        size_t mark = path_push_key(ld, "step");
        report_error(ld,
                     "must be greater than the previous entry's step (%.0f): entries come in "
                     "the order they take over, one per step",
                     *previous);
        path_pop(ld, mark);
        ok = false;
    }
    *previous = ok ? step : *previous;
    out->step = ok ? (int64_t)step : 0;
    return read_input_fields(ld, fields, &out->input) && ok;
}

static bool read_controls(loader* ld, const cJSON* item, scene_vehicle* vehicle) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "controls");
    bool ok = cJSON_IsArray(item);
    if (!ok) {
        report_error(ld, "must be an array of control entries, not %s", json_kind(item));
    } else {
        vehicle->control_count = json_length(item);
        vehicle->controls = checked_calloc((size_t)vehicle->control_count, sizeof(scene_control));
        double previous = -1.0;
        int index = 0;
        for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
            size_t entry_mark = path_push_index(ld, index);
            ok = read_control(ld, child, &previous, &vehicle->controls[index]) && ok;
            path_pop(ld, entry_mark);
        }
    }
    path_pop(ld, mark);
    return ok;
}

/* ---- Wheels and the surface filter --------------------------------------------------------- */

enum wheel_key { WHEEL_POSITION, WHEEL_STEERED, WHEEL_DRIVEN, WHEEL_HANDBRAKE, WHEEL_KEY_COUNT };
static const char* const wheel_keys[WHEEL_KEY_COUNT] = {"position", "steered", "driven",
                                                        "handbrake"};

static bool read_wheel(loader* ld, const cJSON* item, carom_wheel_def* wheel) {
    memset(wheel, 0, sizeof(*wheel));
    if (!cJSON_IsObject(item)) {
        report_error(ld,
                     "must be an object (a wheel: position, steered, driven, handbrake), "
                     "not %s",
                     json_kind(item));
        return false;
    }
    const cJSON* fields[WHEEL_KEY_COUNT];
    read_fields(ld, item, wheel_keys, WHEEL_KEY_COUNT, fields);
    bool steered = false, driven = false, handbrake = false;
    bool ok = require(ld, fields[WHEEL_POSITION], "position",
                      "every wheel needs its tyre's contact point [x, y] in the body frame (m)");
    ok = member_vec2(ld, fields[WHEEL_POSITION], "position", ANY, &wheel->position) && ok;
    ok = member_bool(ld, fields[WHEEL_STEERED], "steered", &steered) && ok;
    ok = member_bool(ld, fields[WHEEL_DRIVEN], "driven", &driven) && ok;
    ok = member_bool(ld, fields[WHEEL_HANDBRAKE], "handbrake", &handbrake) && ok;
    wheel->steered = steered;
    wheel->driven = driven;
    wheel->handbrake = handbrake;
    return ok;
}

/* "wheels": 1 to CAROM_VEHICLE_MAX_WHEELS; absent, the def's four. */
static bool read_wheels(loader* ld, const cJSON* item, carom_vehicle_def* def) {
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "wheels");
    bool ok = false;
    int count = cJSON_IsArray(item) ? json_length(item) : 0;
    if (!cJSON_IsArray(item)) {
        report_error(ld, "must be an array of wheels, not %s", json_kind(item));
    } else if (count < 1 || count > CAROM_VEHICLE_MAX_WHEELS) {
        report_error(ld, "a vehicle has 1 to %d wheels (the engine's limit), got %d",
                     CAROM_VEHICLE_MAX_WHEELS, count);
    } else {
        ok = true;
        def->wheel_count = count;
        int index = 0;
        for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
            size_t wheel_mark = path_push_index(ld, index);
            ok = read_wheel(ld, child, &def->wheels[index]) && ok;
            path_pop(ld, wheel_mark);
        }
    }
    path_pop(ld, mark);
    return ok;
}

enum filter_key { FILTER_CATEGORY, FILTER_MASK, FILTER_GROUP, FILTER_KEY_COUNT };
static const char* const filter_keys[FILTER_KEY_COUNT] = {"category", "mask", "group"};

/* "surface_filter": which sensors' surface_grip the wheels read, a shape's filter keys. */
static bool read_surface_filter(loader* ld, const cJSON* item, scene_vehicle* vehicle) {
    vehicle->surface_mask_is_all_bits = true;
    if (item == NULL) {
        return true;
    }
    size_t mark = path_push_key(ld, "surface_filter");
    bool ok = cJSON_IsObject(item);
    if (!ok) {
        report_error(ld, "must be an object {\"category\", \"mask\", \"group\"}, not %s",
                     json_kind(item));
    } else {
        const cJSON* fields[FILTER_KEY_COUNT];
        read_fields(ld, item, filter_keys, FILTER_KEY_COUNT, fields);
        double category = 1.0, mask = 0.0, group = 0.0;
        ok = member_integer(ld, fields[FILTER_CATEGORY], "category", 0.0, SCENE_MAX_FILTER_BITS,
                            &category);
        ok = member_integer(ld, fields[FILTER_MASK], "mask", 0.0, SCENE_MAX_FILTER_BITS, &mask) &&
             ok;
        ok = member_integer(ld, fields[FILTER_GROUP], "group", (double)INT32_MIN, (double)INT32_MAX,
                            &group) &&
             ok;
        vehicle->def.surface_filter.category = (uint64_t)category;
        vehicle->surface_mask_is_all_bits = fields[FILTER_MASK] == NULL;
        if (!vehicle->surface_mask_is_all_bits) {
            vehicle->def.surface_filter.mask = (uint64_t)mask;
        }
        vehicle->def.surface_filter.group = (int32_t)group;
    }
    path_pop(ld, mark);
    return ok;
}

/* ---- The vehicle ---------------------------------------------------------------------------- */

enum vehicle_key {
    VEHICLE_BODY,
    VEHICLE_WHEELS,
    VEHICLE_GRAVITY,
    VEHICLE_GRIP,
    VEHICLE_PEAK_SLIP_ANGLE,
    VEHICLE_SLIDE_GRIP_RATIO,
    VEHICLE_MAX_DRIVE_FORCE,
    VEHICLE_MAX_POWER,
    VEHICLE_MAX_BRAKE_FORCE,
    VEHICLE_HANDBRAKE_FORCE,
    VEHICLE_HANDBRAKE_GRIP_FACTOR,
    VEHICLE_MAX_STEER_ANGLE,
    VEHICLE_STEER_REDUCTION_SPEED,
    VEHICLE_ROLLING_RESISTANCE,
    VEHICLE_DRAG_COEFFICIENT,
    VEHICLE_SURFACE_FILTER,
    VEHICLE_INPUT,
    VEHICLE_CONTROLS,
    VEHICLE_KEY_COUNT
};

static const char* const vehicle_keys[VEHICLE_KEY_COUNT] = {"body",
                                                            "wheels",
                                                            "gravity",
                                                            "grip",
                                                            "peak_slip_angle",
                                                            "slide_grip_ratio",
                                                            "max_drive_force",
                                                            "max_power",
                                                            "max_brake_force",
                                                            "handbrake_force",
                                                            "handbrake_grip_factor",
                                                            "max_steer_angle",
                                                            "steer_reduction_speed",
                                                            "rolling_resistance",
                                                            "drag_coefficient",
                                                            "surface_filter",
                                                            "input",
                                                            "controls"};

/* The def's numbers, each with the range carom_check_vehicle_def gives it. */
static bool read_vehicle_numbers(loader* ld, const cJSON** fields, carom_vehicle_def* def) {
    const struct {
        int key;
        number_range range;
        double* value;
    } numbers[] = {
        {VEHICLE_GRAVITY, POSITIVE, &def->gravity},
        {VEHICLE_GRIP, NON_NEGATIVE, &def->grip},
        {VEHICLE_PEAK_SLIP_ANGLE, POSITIVE, &def->peak_slip_angle},
        {VEHICLE_SLIDE_GRIP_RATIO, UNIT_INTERVAL, &def->slide_grip_ratio},
        {VEHICLE_MAX_DRIVE_FORCE, NON_NEGATIVE, &def->max_drive_force},
        {VEHICLE_MAX_POWER, POSITIVE, &def->max_power},
        {VEHICLE_MAX_BRAKE_FORCE, NON_NEGATIVE, &def->max_brake_force},
        {VEHICLE_HANDBRAKE_FORCE, NON_NEGATIVE, &def->handbrake_force},
        {VEHICLE_HANDBRAKE_GRIP_FACTOR, UNIT_INTERVAL, &def->handbrake_grip_factor},
        {VEHICLE_MAX_STEER_ANGLE, NON_NEGATIVE, &def->max_steer_angle},
        {VEHICLE_STEER_REDUCTION_SPEED, POSITIVE, &def->steer_reduction_speed},
        {VEHICLE_ROLLING_RESISTANCE, NON_NEGATIVE, &def->rolling_resistance},
        {VEHICLE_DRAG_COEFFICIENT, NON_NEGATIVE, &def->drag_coefficient},
    };
    bool ok = true;
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); ++i) {
        ok = member_number(ld, fields[numbers[i].key], vehicle_keys[numbers[i].key],
                           numbers[i].range, numbers[i].value) &&
             ok;
    }
    if (def->max_steer_angle > 1.4) {
        size_t mark = path_push_key(ld, "max_steer_angle");
        char shown[FORMAT_DOUBLE_SIZE];
        format_double(def->max_steer_angle, shown);
        report_error(ld, "must be at most 1.4 (rad, 80 degrees), got %s", shown);
        path_pop(ld, mark);
        ok = false;
    }
    return ok;
}

/* "body": the name of a dynamic body that carries no other vehicle. carriers[b] is the index
 * of the vehicle already on body b, or -1. */
static bool read_vehicle_body(loader* ld, const cJSON* item, const scene_def* scene,
                              const name_set* bodies, int* carriers, int index, int* out) {
    if (!require(ld, item, "body", "a vehicle needs \"body\", the name of its dynamic body")) {
        return false;
    }
    size_t mark = path_push_key(ld, "body");
    bool ok = false;
    char quoted[QUOTE_SIZE];
    if (!cJSON_IsString(item)) {
        report_error(ld, "must be the name of a body (a string), not %s", json_kind(item));
    } else if ((*out = name_set_find(bodies, item->valuestring)) < 0) {
        report_error(ld, "no body is named %s",
                     quote_for_message(item->valuestring, quoted, sizeof(quoted)));
    } else if (scene->bodies[*out].type != CAROM_BODY_DYNAMIC) {
        report_error(ld, "%s is not dynamic: a vehicle needs a dynamic chassis with mass",
                     quote_for_message(item->valuestring, quoted, sizeof(quoted)));
    } else if (carriers[*out] >= 0) {
        report_error(ld, "%s already carries vehicles[%d]: a body carries at most one vehicle",
                     quote_for_message(item->valuestring, quoted, sizeof(quoted)), carriers[*out]);
    } else {
        carriers[*out] = index;
        ok = true;
    }
    path_pop(ld, mark);
    return ok;
}

static void read_vehicle(loader* ld, const cJSON* item, const scene_def* scene,
                         const name_set* bodies, int* carriers, int index, scene_vehicle* vehicle) {
    vehicle->def = carom_default_vehicle_def();
    vehicle->surface_mask_is_all_bits = true;
    if (!cJSON_IsObject(item)) {
        report_error(ld, "must be an object (a vehicle), not %s", json_kind(item));
        return;
    }
    const cJSON* fields[VEHICLE_KEY_COUNT];
    read_fields(ld, item, vehicle_keys, VEHICLE_KEY_COUNT, fields);
    read_vehicle_body(ld, fields[VEHICLE_BODY], scene, bodies, carriers, index, &vehicle->body);
    read_wheels(ld, fields[VEHICLE_WHEELS], &vehicle->def);
    read_vehicle_numbers(ld, fields, &vehicle->def);
    read_surface_filter(ld, fields[VEHICLE_SURFACE_FILTER], vehicle);
    read_start_input(ld, fields[VEHICLE_INPUT], &vehicle->input);
    read_controls(ld, fields[VEHICLE_CONTROLS], vehicle);
}

void read_vehicles(loader* ld, const cJSON* item, scene_def* out, const name_set* bodies) {
    if (item == NULL) {
        return;
    }
    size_t mark = path_push_key(ld, "vehicles");
    if (!cJSON_IsArray(item)) {
        report_error(ld, "must be an array of vehicles, not %s", json_kind(item));
        path_pop(ld, mark);
        return;
    }
    out->vehicle_count = json_length(item);
    out->vehicles = checked_calloc((size_t)out->vehicle_count, sizeof(scene_vehicle));
    out->vehicle_ids = checked_calloc((size_t)out->vehicle_count, sizeof(carom_vehicle_id));
    int* carriers = checked_calloc((size_t)out->body_count, sizeof(int));
    for (int i = 0; i < out->body_count; ++i) {
        carriers[i] = -1;
    }
    int index = 0;
    for (const cJSON* child = item->child; child != NULL; child = child->next, ++index) {
        size_t vehicle_mark = path_push_index(ld, index);
        read_vehicle(ld, child, out, bodies, carriers, index, &out->vehicles[index]);
        path_pop(ld, vehicle_mark);
    }
    free(carriers);
    path_pop(ld, mark);
}
