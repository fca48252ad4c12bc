/* Scene files for Python, through the command line's own loader (tools/scene.c), so that a
 * scene loaded from Python builds the world `carom run` builds, body for body. */
#include "carompy.h"

#include "scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct carompy_scene {
    scene_def def;
    int ok;
    int built;
    carom_body_id* body_ids; /* def.body_count, after carompy_scene_build */
    char* report;            /* every report line, each ending with '\n', terminated */
    size_t report_length;
    int warning_count;
};

static void* checked_realloc(void* pointer, size_t size) {
    void* result = realloc(pointer, size);
    if (result == NULL) {
        fprintf(stderr, "carom python: out of memory\n");
        abort();
    }
    return result;
}

static void append_report_line(void* user, const char* line) {
    carompy_scene* scene = user;
    size_t length = strlen(line);
    scene->report = checked_realloc(scene->report, scene->report_length + length + 2);
    memcpy(scene->report + scene->report_length, line, length);
    scene->report_length += length;
    scene->report[scene->report_length++] = '\n';
    scene->report[scene->report_length] = '\0';
}

carompy_scene* carompy_scene_load(const char* data, size_t size, const char* file_name) {
    carompy_scene* scene = checked_realloc(NULL, sizeof(*scene));
    memset(scene, 0, sizeof(*scene));
    scene->report = checked_realloc(NULL, 1);
    scene->report[0] = '\0';
    scene_report report = {file_name, append_report_line, scene, 0, 0};
    scene->ok = scene_load_buffer(data, size, &report, &scene->def);
    scene->warning_count = report.warning_count;
    return scene;
}

int carompy_scene_ok(const carompy_scene* scene) { return scene->ok; }

const char* carompy_scene_report(const carompy_scene* scene) { return scene->report; }

int carompy_scene_warning_count(const carompy_scene* scene) { return scene->warning_count; }

carom_status carompy_scene_build(carompy_scene* scene, carom_world_id* world) {
    *world = carom_null_world_id;
    if (!scene->ok || scene->built) {
        /* Python never asks this; say so rather than build from an empty scene. */
        return CAROM_ERROR_INVALID_DEF;
    }
    size_t count = scene->def.body_count > 0 ? (size_t)scene->def.body_count : 1;
    scene->body_ids = checked_realloc(NULL, count * sizeof(carom_body_id));
    int failed_body = -1;
    carom_status status = scene_build_world(&scene->def, world, scene->body_ids, &failed_body);
    scene->built = status == CAROM_OK;
    return status;
}

double carompy_scene_dt(const carompy_scene* scene) { return scene->def.dt; }

int carompy_scene_body_count(const carompy_scene* scene) { return scene->def.body_count; }

const char* carompy_scene_body_name(const carompy_scene* scene, int index) {
    return scene->def.bodies[index].name;
}

carom_body_id carompy_scene_body_id(const carompy_scene* scene, int index) {
    return scene->built ? scene->body_ids[index] : carom_null_body_id;
}

int carompy_scene_joint_count(const carompy_scene* scene) { return scene->def.joint_count; }

const char* carompy_scene_joint_name(const carompy_scene* scene, int index) {
    return scene->def.joints[index].name;
}

carom_joint_id carompy_scene_joint_id(const carompy_scene* scene, int index) {
    return scene->built ? scene->def.joint_ids[index] : carom_null_joint_id;
}

int carompy_scene_vehicle_count(const carompy_scene* scene) { return scene->def.vehicle_count; }

int carompy_scene_vehicle_body(const carompy_scene* scene, int index) {
    return scene->def.vehicles[index].body;
}

carom_vehicle_id carompy_scene_vehicle_id(const carompy_scene* scene, int index) {
    return scene->built ? scene->def.vehicle_ids[index] : carom_null_vehicle_id;
}

carom_status carompy_scene_apply_controls(const carompy_scene* scene, int64_t steps_done) {
    return scene->built ? scene_apply_controls(&scene->def, steps_done) : CAROM_ERROR_INVALID_DEF;
}

int64_t carompy_scene_next_control_step(const carompy_scene* scene, int64_t steps_done) {
    return scene->built ? scene_next_control_step(&scene->def, steps_done) : -1;
}

void carompy_scene_free(carompy_scene* scene) {
    if (scene == NULL) {
        return;
    }
    scene_free(&scene->def);
    free(scene->body_ids);
    free(scene->report);
    free(scene);
}
