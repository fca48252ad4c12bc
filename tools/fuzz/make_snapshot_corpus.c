/* Writes the seed corpus of the snapshot fuzz target (docs/fuzzing.md): real snapshots of the
 * small worlds of snapshot_worlds.c, so that libFuzzer starts from inputs that pass the part
 * headers and checksums and reach the decoding of every kind of record.
 *
 * Usage: make_snapshot_corpus DIR   (the corpus in the repository is tests/snapshot-corpus/)
 *
 * For each world it saves the full snapshot (scene + state) at two step counts, and for some the
 * state part alone (what a rollback keeps) or the scene part alone. Each file is named
 * <world>-<steps>.<full|state|scene>. The worlds are fixed and carom is deterministic, so running
 * it again writes the same bytes, unless the format changed. */
#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"
#include "snapshot_worlds.h"

#include <carom/snapshot.h>

#include <stdio.h>
#include <stdlib.h>

/* Seeds stay small: libFuzzer mutates short inputs much faster, and the repository keeps them. */
#define MAX_SEED_SIZE 8192

typedef struct save_point {
    snapshot_world_kind kind;
    int steps;
    unsigned parts; /* bit 0: full, bit 1: state alone, bit 2: scene alone */
} save_point;

enum { FULL = 1, STATE = 2, SCENE = 4 };

/* In step order per world. The step counts are chosen for what the world holds then: 0 is before
 * any contact exists, 30 and 60 hold contacts, bodies in flight and (multiples of 5) a pending
 * force; the stack is asleep at 240; the car is on the handbrake at 95 and on ice by 150. */
static const save_point points[] = {
    {SNAPSHOT_WORLD_CIRCLES, 0, FULL | SCENE},
    {SNAPSHOT_WORLD_CIRCLES, 60, FULL | STATE},
    {SNAPSHOT_WORLD_STACK, 30, FULL},
    {SNAPSHOT_WORLD_STACK, 240, FULL | STATE},
    {SNAPSHOT_WORLD_SHAPES, 1, FULL},
    {SNAPSHOT_WORLD_SHAPES, 45, FULL | STATE},
    {SNAPSHOT_WORLD_VEHICLE, 0, SCENE},
    {SNAPSHOT_WORLD_VEHICLE, 95, FULL},
    {SNAPSHOT_WORLD_VEHICLE, 150, FULL | STATE},
    {SNAPSHOT_WORLD_REUSED, 20, FULL},
    {SNAPSHOT_WORLD_SMALL, 0, FULL},
    {SNAPSHOT_WORLD_SMALL, 30, STATE},
    {SNAPSHOT_WORLD_SMALL, 120, FULL | STATE},
};

static int save(carom_world_id world, carom_snapshot_parts parts, const char* dir,
                const char* name, int steps, const char* suffix) {
    size_t size = 0;
    if (carom_world_save(world, parts, NULL, 0, &size) != CAROM_OK) {
        fprintf(stderr, "%s-%d: measuring failed: %s\n", name, steps, carom_last_error());
        return -1;
    }
    if (size > MAX_SEED_SIZE) {
        fprintf(stderr, "%s-%d.%s: %zu bytes, more than the %d a seed may have\n", name, steps,
                suffix, size, MAX_SEED_SIZE);
        return -1;
    }
    unsigned char buffer[MAX_SEED_SIZE];
    if (carom_world_save(world, parts, buffer, sizeof buffer, &size) != CAROM_OK) {
        fprintf(stderr, "%s-%d: saving failed: %s\n", name, steps, carom_last_error());
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%d.%s", dir, name, steps, suffix);
    atomic_file file; /* a seed is replaced whole or not at all, like every output */
    if (!atomic_file_open(&file, path) || fwrite(buffer, 1, size, file.file) != size ||
        !atomic_file_commit(&file)) {
        atomic_file_failed(&file);
        atomic_file_report(&file, "make_snapshot_corpus");
        atomic_file_discard(&file);
        return -1;
    }
    printf("%s: %zu bytes\n", path, size);
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_snapshot_corpus DIR\n");
        return 2;
    }
    const char* dir = argv[1];
    int count = (int)(sizeof points / sizeof points[0]);
    for (int i = 0; i < count;) {
        snapshot_world w;
        const char* name = snapshot_world_name(points[i].kind);
        if (snapshot_world_build(points[i].kind, &w) != 0) {
            fprintf(stderr, "%s: building failed: %s\n", name, carom_last_error());
            return 1;
        }
        int steps = 0;
        for (; i < count && points[i].kind == w.kind; ++i) {
            for (; steps < points[i].steps; ++steps) {
                if (snapshot_world_step(&w, steps) != CAROM_OK) {
                    fprintf(stderr, "%s: step %d failed: %s\n", name, steps, carom_last_error());
                    return 1;
                }
            }
            if (((points[i].parts & FULL) &&
                 save(w.world, CAROM_SNAPSHOT_FULL, dir, name, steps, "full") != 0) ||
                ((points[i].parts & STATE) &&
                 save(w.world, CAROM_SNAPSHOT_STATE, dir, name, steps, "state") != 0) ||
                ((points[i].parts & SCENE) &&
                 save(w.world, CAROM_SNAPSHOT_SCENE, dir, name, steps, "scene") != 0)) {
                return 1;
            }
        }
        carom_destroy_world(w.world);
    }
    return 0;
}
