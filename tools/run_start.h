/* Where a run starts, for every command that runs a world (run, resume, render): the scene file
 * read and checked in full, or a snapshot file (`carom run --save`) with the scene saved in it;
 * then the world built from it, the same calls in the same order either way, so the bodies get
 * the same ids and a restored world is the saved one. Each function says why it failed on
 * stderr and returns 0 or an exit status: EXIT_BAD_INPUT for what the user gave, EXIT_RUN_FAILED
 * for anything else. */
#ifndef CAROM_TOOLS_RUN_START_H
#define CAROM_TOOLS_RUN_START_H

#include "scene.h"

#include <carom/carom.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { EXIT_RUN_FAILED = 1, EXIT_BAD_INPUT = 2 };

/* For run: the scene file's state, step 0. For resume: the scene saved in the snapshot, built
 * the same way, with the engine snapshot to restore into it and the step number it had
 * reached. From here on the commands are one code path. */
typedef struct start {
    scene_def scene;        /* its bodies, in order, are the rows of every output */
    const char* scene_text; /* the scene file's bytes as read, kept for --save */
    size_t scene_text_size;
    double dt;                   /* s */
    int64_t first_step;          /* the step number of the starting state */
    const unsigned char* engine; /* resume: the engine snapshot to restore; NULL for run */
    size_t engine_size;
    char* owned; /* the bytes scene_text and engine point into */
} start;

/* A scene report line on stderr (scene_report's callback). */
void print_report_line(void* user, const char* line);

/* The scene file at path. dt > 0 replaces the scene's world.dt, substeps > 0 its substeps;
 * keep_text keeps its bytes in scene_text (for --save). from must be zeroed. */
int start_from_scene(const char* path, double dt, int substeps, bool keep_text, start* from);

/* The snapshot file at path, checked in full, and the scene saved in it, with the substeps it
 * had. from must be zeroed. */
int start_from_snapshot(const char* path, start* from);

/* Whether the file at path begins as a snapshot file does (its magic), so that a command taking
 * either kind can tell them apart; false for anything unreadable (the loader then says why). */
bool is_snapshot_file(const char* path);

/* How many steps: `steps`, or with time_given, the steps of `time` seconds at the start's dt.
 * Refused when that is more than an int holds or would pass step 2^53 - 1. */
int start_steps(const start* from, int steps, bool time_given, double time, int* out);

/* Build the world the scene describes (body_ids: scene.body_count of them) and, for a
 * snapshot, restore the saved state into it. path names the input in messages. The world is
 * null unless 0 is returned. */
int start_build_world(const char* path, const start* from, carom_world_id* world,
                      carom_body_id* body_ids);

/* What the start owns. */
void start_free(start* from);

#endif
