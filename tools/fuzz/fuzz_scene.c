/* libFuzzer target for the scene loader (docs/fuzzing.md).
 *
 * Beyond "no crash, no hang, no leak" (the sanitizers and libFuzzer watch for those), each
 * input is held to the promises the loader makes, and a broken promise aborts, which libFuzzer
 * reports like a crash:
 * - a refused scene reports at least one error, and every report line is one line of printable
 *   text;
 * - an accepted scene is one the engine accepts too: it builds and steps (the loader checks
 *   what the engine checks, so scene_build_world never fails on it);
 * - its state file loads without a single warning, and written again from the reloaded world
 *   gives the same bytes: a state file reads back to the same doubles. */
#define _POSIX_C_SOURCE 200809L
#include "scene.h"
#include "state.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void check_line(void* user, const char* line) {
    (void)user;
    if (line[0] == '\0') {
        abort();
    }
    for (const unsigned char* p = (const unsigned char*)line; *p != '\0'; ++p) {
        if (*p < 0x20 || *p == 0x7f) {
            fprintf(stderr, "report line with a control character: %s\n", line);
            abort();
        }
    }
}

static void die(const char* what) {
    fprintf(stderr, "fuzz_scene: %s: %s\n", what, carom_last_error());
    abort();
}

/* Build the world of a loaded scene, or abort: the loader promised the engine would take it. */
static carom_world_id build(const scene_def* scene, carom_body_id* body_ids) {
    carom_world_id world = carom_null_world_id;
    int failed_body = -1;
    if (scene_build_world(scene, &world, body_ids, &failed_body) != CAROM_OK) {
        fprintf(stderr, "body %d: ", failed_body);
        die("the engine refused a scene the loader accepted");
    }
    return world;
}

/* The state file of a world, in memory. */
static char* write_state(const scene_def* scene, carom_world_id world,
                         const carom_body_id* body_ids, size_t* size) {
    char* text = NULL;
    FILE* file = open_memstream(&text, size);
    if (file == NULL) {
        abort();
    }
    state_write(file, scene, world, body_ids, scene->dt, 0);
    fclose(file);
    return text;
}

/* Load the state file back, build it, write it again: the same bytes must come out. */
static void check_round_trip(const char* state, size_t state_size) {
    scene_report report = {"state.json", check_line, NULL, 0, 0};
    scene_def again;
    if (!scene_load_buffer(state, state_size, &report, &again) || report.warning_count > 0) {
        fprintf(stderr, "%.*s\n", (int)state_size, state);
        die("a state file did not load cleanly");
    }
    carom_body_id* body_ids = calloc((size_t)again.body_count + 1, sizeof(carom_body_id));
    carom_world_id world = build(&again, body_ids);
    size_t second_size = 0;
    char* second = write_state(&again, world, body_ids, &second_size);
    if (second_size != state_size || memcmp(second, state, state_size) != 0) {
        fprintf(stderr, "first:\n%.*s\nsecond:\n%.*s\n", (int)state_size, state, (int)second_size,
                second);
        die("a state file read back and written again changed");
    }
    free(second);
    carom_destroy_world(world);
    free(body_ids);
    scene_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    scene_report report = {"fuzz.json", check_line, NULL, 0, 0};
    scene_def scene;
    if (!scene_load_buffer((const char*)data, size, &report, &scene)) {
        if (report.error_count == 0) {
            die("a scene was refused without an error line");
        }
        return 0;
    }
    carom_body_id* body_ids = calloc((size_t)scene.body_count + 1, sizeof(carom_body_id));
    carom_world_id world = build(&scene, body_ids);
    size_t state_size = 0;
    char* state = write_state(&scene, world, body_ids, &state_size);
    check_round_trip(state, state_size);
    free(state);
    if (carom_world_step(world, scene.dt) != CAROM_OK) {
        die("a loaded scene could not take a step");
    }
    carom_destroy_world(world);
    free(body_ids);
    scene_free(&scene);
    return 0;
}
