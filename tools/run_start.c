/* Where a run starts: see run_start.h. */
#include "run_start.h"

#include "snapshot_file.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void print_report_line(void* user, const char* line) {
    (void)user;
    fputs(line, stderr);
    fputc('\n', stderr);
}

/* Steps for --time: ceil(T / dt), taken as the fewest steps N whose time N * dt (the trace's
 * time column, in doubles) reaches T, so that 0.1 / 0.01 = 10.000000000000002 runs 10 steps.
 * False when that is more steps than an int holds. */
static bool steps_for_time(double time, double dt, int* out) {
    double estimate = ceil(time / dt);
    if (!(estimate <= (double)INT_MAX)) {
        return false;
    }
    int steps = (int)estimate;
    while (steps > 0 && (double)(steps - 1) * dt >= time) {
        --steps;
    }
    while ((double)steps * dt < time && steps < INT_MAX) {
        ++steps;
    }
    *out = steps;
    return true;
}

int start_steps(const start* from, int steps, bool time_given, double time, int* out) {
    *out = steps;
    if (time_given && !steps_for_time(time, from->dt, out)) {
        fprintf(stderr, "carom: --time %g at dt %g would be more than %d steps\n", time, from->dt,
                INT_MAX);
        return EXIT_BAD_INPUT;
    }
    /* Only a snapshot file made by hand can start this late; run starts at 0. */
    if ((uint64_t)from->first_step + (uint64_t)*out > SNAPSHOT_FILE_MAX_STEP) {
        fprintf(stderr, "carom: %d steps from step %" PRId64 " would pass step 2^53 - 1\n", *out,
                from->first_step);
        return EXIT_BAD_INPUT;
    }
    return 0;
}

/* Refusals of a snapshot's bytes are bad input; anything else (out of memory) is not. */
static bool is_snapshot_refusal(carom_status status) {
    return status == CAROM_ERROR_INVALID_SNAPSHOT || status == CAROM_ERROR_SNAPSHOT_VERSION ||
           status == CAROM_ERROR_SCENE_MISMATCH;
}

int start_build_world(const char* path, const start* from, carom_world_id* world,
                      carom_body_id* body_ids) {
    int failed_body = -1;
    if (scene_build_world(&from->scene, world, body_ids, &failed_body) != CAROM_OK) {
        /* The loader checks what the engine checks; reaching this is a bug in carom. */
        fprintf(stderr, "carom: %s: the engine refused %s%d%s: %s\n", path,
                failed_body >= 0 ? "bodies[" : "the world", failed_body >= 0 ? failed_body : 0,
                failed_body >= 0 ? "]" : "", carom_last_error());
        return EXIT_RUN_FAILED;
    }
    if (from->engine != NULL &&
        carom_world_restore(*world, from->engine, from->engine_size) != CAROM_OK) {
        carom_status status = carom_last_status();
        fprintf(stderr, "%s: the engine refused the snapshot: %s\n", path, carom_last_error());
        carom_destroy_world(*world);
        *world = carom_null_world_id;
        return is_snapshot_refusal(status) ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
    }
    return 0;
}

int start_from_scene(const char* path, double dt, int substeps, bool keep_text, start* from) {
    scene_report report = {path, print_report_line, NULL, 0, 0};
    size_t size = 0;
    from->owned = scene_read_file(path, SCENE_MAX_FILE_BYTES, "scene file", &report, &size);
    if (from->owned == NULL || !scene_load_buffer(from->owned, size, &report, &from->scene)) {
        return EXIT_BAD_INPUT;
    }
    if (keep_text) {
        from->scene_text = from->owned;
        from->scene_text_size = size;
    } else { /* up to 64 MiB that nothing needs any more */
        free(from->owned);
        from->owned = NULL;
    }
    from->dt = dt > 0.0 ? dt : from->scene.dt;
    if (substeps > 0) {
        from->scene.substeps = substeps;
    }
    return 0;
}

/* The scene text saved in a snapshot, loaded as run loaded it. Its warnings were shown when it
 * was run, so they are shown again only beside an error (which a snapshot written by carom never
 * has). */
static bool load_saved_scene(const char* path, const snapshot_file* snapshot, scene_def* scene) {
    static const char suffix[] = " (saved scene)";
    char* name = malloc(strlen(path) + sizeof(suffix));
    if (name == NULL) {
        fputs("carom: out of memory\n", stderr);
        return false;
    }
    strcpy(name, path);
    strcat(name, suffix);
    scene_report quiet = {name, NULL, NULL, 0, 0};
    bool ok = scene_load_buffer(snapshot->scene, snapshot->scene_size, &quiet, scene);
    if (!ok) {
        scene_report report = {name, print_report_line, NULL, 0, 0};
        scene_load_buffer(snapshot->scene, snapshot->scene_size, &report, scene);
    }
    free(name);
    return ok;
}

int start_from_snapshot(const char* path, start* from) {
    scene_report report = {path, print_report_line, NULL, 0, 0};
    size_t size = 0;
    from->owned = scene_read_file(path, SNAPSHOT_FILE_MAX_BYTES, "snapshot file", &report, &size);
    if (from->owned == NULL) {
        return EXIT_BAD_INPUT;
    }
    snapshot_file snapshot;
    char reason[1024];
    if (!snapshot_file_parse((const unsigned char*)from->owned, size, &snapshot, reason,
                             sizeof(reason))) {
        fprintf(stderr, "%s: %s\n", path, reason);
        return EXIT_BAD_INPUT;
    }
    if (!load_saved_scene(path, &snapshot, &from->scene)) {
        return EXIT_BAD_INPUT;
    }
    if (from->scene.body_count != snapshot.body_count) {
        fprintf(stderr, "%s: corrupt snapshot: its scene has %d bodies, its engine snapshot %d\n",
                path, from->scene.body_count, snapshot.body_count);
        return EXIT_BAD_INPUT;
    }
    from->scene.substeps = snapshot.substeps;
    from->scene_text = snapshot.scene;
    from->scene_text_size = snapshot.scene_size;
    from->dt = snapshot.dt;
    from->first_step = (int64_t)snapshot.step;
    from->engine = snapshot.engine;
    from->engine_size = snapshot.engine_size;
    return 0;
}

bool is_snapshot_file(const char* path) {
    unsigned char head[SNAPSHOT_FILE_MAGIC_SIZE];
    FILE* file = fopen(path, "rb");
    if (file == NULL) {
        return false;
    }
    size_t size = fread(head, 1, sizeof(head), file);
    fclose(file);
    return snapshot_file_has_magic(head, size);
}

void start_free(start* from) {
    scene_free(&from->scene);
    free(from->owned);
    from->owned = NULL;
}
