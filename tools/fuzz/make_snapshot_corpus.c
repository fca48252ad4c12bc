/* Writes the seed corpus of the snapshot fuzz target (docs/fuzzing.md): real snapshots of the
 * small worlds of snapshot_worlds.c, so that libFuzzer starts from inputs that pass the part
 * headers and checksums and reach the decoding of every kind of record; and the inputs of the
 * target's past findings, rebuilt in the current format.
 *
 * Usage: make_snapshot_corpus DIR           write them into DIR (tests/snapshot-corpus/)
 *        make_snapshot_corpus --check DIR   check that DIR holds them in the current format
 *
 * For each world it saves the full snapshot (scene + state) at two step counts, and for some the
 * state part alone (what a rollback keeps) or the scene part alone. Each file is named
 * <world>-<steps>.<full|state|scene>. The worlds are fixed and carom is deterministic, so running
 * it again writes the same bytes, unless the format or the physics changed.
 *
 * --check is a test of the suite: a new snapshot format version makes every file of an old
 * corpus fail the version check, and then replaying and fuzzing it reach nothing behind that
 * check. It fails, saying so, when a seed in DIR is not of the current version or a finding is
 * missing or no longer refused. The bytes are not compared: a change of physics changes them
 * without making the corpus stale. */
#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"
#include "snapshot_worlds.h"

#include <carom/snapshot.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    {SNAPSHOT_WORLD_JOINTS, 0, FULL | SCENE},
    {SNAPSHOT_WORLD_JOINTS, 60, FULL | STATE},
    {SNAPSHOT_WORLD_ROUNDED, 0, FULL | SCENE},
    {SNAPSHOT_WORLD_ROUNDED, 90, FULL | STATE},
};

/* What the program does with each input it makes: write it, or check DIR's copy. */
typedef struct corpus {
    const char* dir;
    bool checking;
    int problems; /* --check: files stale, missing or no longer refused */
    int count;    /* inputs made */
} corpus;

static void file_path(const corpus* c, const char* name, char* path, size_t size) {
    snprintf(path, size, "%s/%s", c->dir, name);
}

/* Write one input, replaced whole or not at all. */
static int write_input(const corpus* c, const char* name, const unsigned char* data,
                       size_t size) {
    char path[4096];
    file_path(c, name, path, sizeof(path));
    atomic_file file;
    if (!atomic_file_open(&file, path) || fwrite(data, 1, size, file.file) != size ||
        !atomic_file_commit(&file)) {
        atomic_file_failed(&file);
        atomic_file_report(&file, "make_snapshot_corpus");
        atomic_file_discard(&file);
        return -1;
    }
    printf("%s: %zu bytes\n", path, size);
    return 0;
}

/* DIR's copy of an input, read whole (at most MAX_SEED_SIZE bytes); NULL when missing. */
static unsigned char* read_input(const corpus* c, const char* name, size_t* size) {
    char path[4096];
    file_path(c, name, path, sizeof(path));
    FILE* file = fopen(path, "rb");
    if (file == NULL) {
        return NULL;
    }
    unsigned char* data = malloc(MAX_SEED_SIZE + 1);
    *size = data != NULL ? fread(data, 1, MAX_SEED_SIZE + 1, file) : 0;
    fclose(file);
    return data;
}

static void problem(corpus* c, const char* name, const char* what) {
    fprintf(stderr, "%s/%s: %s\n", c->dir, name, what);
    c->problems += 1;
}

/* --check of a seed: present, and of the version this engine reads. */
static void check_seed(corpus* c, const char* name) {
    size_t size = 0;
    unsigned char* data = read_input(c, name, &size);
    carom_snapshot_info info;
    if (data == NULL) {
        problem(c, name, "missing: regenerate the corpus (docs/fuzzing.md)");
    } else if (carom_snapshot_get_info(data, size, &info) != CAROM_OK) {
        fprintf(stderr, "%s/%s: %s\n", c->dir, name, carom_last_error());
        problem(c, name, "refused: the corpus is stale, regenerate it (docs/fuzzing.md)");
    }
    free(data);
}

/* Save a world's parts as one seed (or check DIR's copy). */
static int seed(corpus* c, carom_world_id world, carom_snapshot_parts parts, const char* name,
                int steps, const char* suffix) {
    char file_name[256];
    snprintf(file_name, sizeof(file_name), "%s-%d.%s", name, steps, suffix);
    c->count += 1;
    if (c->checking) {
        check_seed(c, file_name);
        return 0;
    }
    size_t size = 0;
    if (carom_world_save(world, parts, NULL, 0, &size) != CAROM_OK) {
        fprintf(stderr, "%s: measuring failed: %s\n", file_name, carom_last_error());
        return -1;
    }
    if (size > MAX_SEED_SIZE) {
        fprintf(stderr, "%s: %zu bytes, more than the %d a seed may have\n", file_name, size,
                MAX_SEED_SIZE);
        return -1;
    }
    unsigned char buffer[MAX_SEED_SIZE];
    if (carom_world_save(world, parts, buffer, sizeof buffer, &size) != CAROM_OK) {
        fprintf(stderr, "%s: saving failed: %s\n", file_name, carom_last_error());
        return -1;
    }
    return write_input(c, file_name, buffer, size);
}

static int make_seeds(corpus* c) {
    int count = (int)(sizeof points / sizeof points[0]);
    for (int i = 0; i < count;) {
        snapshot_world w;
        const char* name = snapshot_world_name(points[i].kind);
        if (snapshot_world_build(points[i].kind, &w) != 0) {
            fprintf(stderr, "%s: building failed: %s\n", name, carom_last_error());
            return -1;
        }
        int steps = 0;
        for (; i < count && points[i].kind == w.kind; ++i) {
            for (; steps < points[i].steps; ++steps) {
                if (snapshot_world_step(&w, steps) != CAROM_OK) {
                    fprintf(stderr, "%s: step %d failed: %s\n", name, steps, carom_last_error());
                    return -1;
                }
            }
            if (((points[i].parts & FULL) &&
                 seed(c, w.world, CAROM_SNAPSHOT_FULL, name, steps, "full") != 0) ||
                ((points[i].parts & STATE) &&
                 seed(c, w.world, CAROM_SNAPSHOT_STATE, name, steps, "state") != 0) ||
                ((points[i].parts & SCENE) &&
                 seed(c, w.world, CAROM_SNAPSHOT_SCENE, name, steps, "scene") != 0)) {
                return -1;
            }
        }
        carom_destroy_world(w.world);
    }
    return 0;
}

/* ---- Past findings, rebuilt ------------------------------------------------------------------
 * The inputs of the fuzz target's past findings (docs/fuzzing.md, "Findings"), made again in the
 * current format rather than kept as bytes of an old one, which a new version would refuse at its
 * version check before the code they once broke. Each is a small world built through the public
 * API with a marker value where the finding had its hostile one (which the API refuses), saved;
 * then the marker's bytes are replaced by the hostile value and the part checksums made right
 * again. Each must be refused now, except the subnormal spring, an input made valid: it must load
 * and step with finite values. */

/* A value that no world below holds by chance, and the values the findings had. */
#define MARKER 0.8765432109876543
#define TINY_CELL_SIZE 1.3e-315
#define TINY_DENSITY 1e-320
#define LIGHT_DENSITY 1e-61
#define SUBNORMAL_HERTZ 1e-323

typedef enum finding_kind {
    TINY_CELL,
    TINY_DENSITY_BOX,
    LIGHT_BODY,
    NEGATIVE_BODIES,
    SUBNORMAL_SPRING
} finding_kind;

typedef struct finding {
    finding_kind kind;
    const char* name;
    carom_snapshot_parts parts;
} finding;

static const finding findings[] = {
    {TINY_CELL, "crash-tiny-cell-size.full", CAROM_SNAPSHOT_FULL},
    {TINY_DENSITY_BOX, "crash-tiny-density.full", CAROM_SNAPSHOT_FULL},
    {LIGHT_BODY, "crash-light-body-blows-up.full", CAROM_SNAPSHOT_FULL},
    {NEGATIVE_BODIES, "info-negative-body-count.scene", CAROM_SNAPSHOT_SCENE},
    {SUBNORMAL_SPRING, "crash-joint-spring-of-1e-323-hertz.full", CAROM_SNAPSHOT_FULL},
};

/* A ground and one box, with the marker as the world's cell size or the box's density; the light
 * body also carries a pending force of 12,636 N, as the finding's did. */
static carom_world_id finding_world(finding_kind kind) {
    carom_world_def world_def = carom_default_world_def();
    if (kind == TINY_CELL) {
        world_def.cell_size = MARKER;
    }
    carom_world_id world = carom_create_world(&world_def);
    carom_body_def body_def = carom_default_body_def();
    body_def.type = CAROM_BODY_STATIC;
    carom_body_id ground = carom_create_body(world, &body_def);
    carom_shape_def shape_def = carom_default_shape_def();
    bool ok = CAROM_IS_NON_NULL(carom_create_box_shape(ground, &shape_def, 5.0, 0.5,
                                                       carom_v2(0.0, -0.5), 0.0));
    body_def.type = CAROM_BODY_DYNAMIC;
    body_def.position = carom_v2(0.0, 1.0);
    carom_body_id box = carom_create_body(world, &body_def);
    if (kind == TINY_DENSITY_BOX || kind == LIGHT_BODY) {
        shape_def.density = MARKER;
    }
    ok = ok && CAROM_IS_NON_NULL(carom_create_box_shape(box, &shape_def, 0.5, 0.5,
                                                        carom_v2(0.0, 0.0), 0.0));
    ok = ok && carom_world_step(world, 1.0 / 60.0) == CAROM_OK; /* the state has a cell size */
    if (kind == LIGHT_BODY) {
        ok = ok && carom_body_apply_force_to_center(box, carom_v2(12636.0, 0.0)) == CAROM_OK;
    }
    if (kind == SUBNORMAL_SPRING) { /* the box hangs from the ground on an undamped spring */
        carom_distance_joint_def spring = carom_default_distance_joint_def();
        spring.anchor_a = carom_v2(0.0, 0.0);
        spring.anchor_b = carom_v2(0.0, 1.0);
        spring.length = 1.5;
        spring.enable_spring = 1;
        spring.hertz = MARKER;
        ok = ok && CAROM_IS_NON_NULL(carom_create_distance_joint(ground, box, &spring));
    }
    if (!ok) {
        carom_destroy_world(world);
        return carom_null_world_id;
    }
    return world;
}

/* Replace the marker's bytes: the last occurrence (the state part's cell size, which the finding
 * changed) or every one. Returns how many were replaced. */
static int replace_marker(unsigned char* data, size_t size, double value, bool last_only) {
    uint64_t marker_bits = 0, value_bits = 0;
    double marker = MARKER;
    memcpy(&marker_bits, &marker, sizeof(marker_bits));
    memcpy(&value_bits, &value, sizeof(value_bits));
    unsigned char pattern[8], replacement[8];
    snapshot_put_le64(pattern, marker_bits);
    snapshot_put_le64(replacement, value_bits);
    int replaced = 0;
    for (size_t i = size >= 8 ? size - 8 + 1 : 0; i-- > 0;) {
        if (memcmp(data + i, pattern, 8) == 0 && (!last_only || replaced == 0)) {
            memcpy(data + i, replacement, 8);
            replaced += 1;
        }
    }
    return replaced;
}

/* The finding's input in buffer; returns its size, or 0 (having said why) when it cannot be
 * made. */
static size_t make_finding(const finding* f, unsigned char* buffer, size_t capacity) {
    carom_world_id world = finding_world(f->kind);
    size_t size = 0;
    if (CAROM_IS_NULL(world) ||
        carom_world_save(world, f->parts, buffer, capacity, &size) != CAROM_OK) {
        fprintf(stderr, "%s: building or saving its world failed: %s\n", f->name,
                carom_last_error());
        carom_destroy_world(world);
        return 0;
    }
    carom_destroy_world(world);
    int replaced = 1;
    switch (f->kind) {
    case TINY_CELL:
        replaced = replace_marker(buffer, size, TINY_CELL_SIZE, true);
        break;
    case TINY_DENSITY_BOX:
        replaced = replace_marker(buffer, size, TINY_DENSITY, false);
        break;
    case LIGHT_BODY:
        replaced = replace_marker(buffer, size, LIGHT_DENSITY, false);
        break;
    case NEGATIVE_BODIES: /* the payload's first count, the live bodies, past INT_MAX */
        buffer[SNAPSHOT_HEADER_SIZE + 3] = 0x80;
        break;
    case SUBNORMAL_SPRING:
        replaced = replace_marker(buffer, size, SUBNORMAL_HERTZ, false);
        break;
    }
    if (replaced == 0) {
        fprintf(stderr, "%s: the marker is not in the snapshot: the format changed\n", f->name);
        return 0;
    }
    snapshot_fix_checksums(buffer, size);
    return size;
}

/* The subnormal spring's input loads, steps three times and saves again: a save refuses a pose
 * that is not finite. */
static bool loads_and_steps(const unsigned char* data, size_t size) {
    carom_world_id world = carom_create_world_from_snapshot(data, size);
    bool ok = CAROM_IS_NON_NULL(world);
    for (int i = 0; i < 3 && ok; ++i) {
        ok = carom_world_step(world, 1.0 / 60.0) == CAROM_OK;
    }
    size_t saved = 0;
    ok = ok && carom_world_save(world, CAROM_SNAPSHOT_FULL, NULL, 0, &saved) == CAROM_OK;
    if (CAROM_IS_NON_NULL(world)) {
        carom_destroy_world(world);
    }
    return ok;
}

/* Handled as the fix handles it: refused by the info for the count, by loading for the others;
 * the subnormal spring loaded and stepped. A refusal for the version would mean the input is
 * stale and tests nothing. */
static bool refused(const finding* f, const unsigned char* data, size_t size) {
    carom_snapshot_info info;
    carom_status status = carom_snapshot_get_info(data, size, &info);
    if (f->kind == NEGATIVE_BODIES) {
        return status != CAROM_OK && status != CAROM_ERROR_SNAPSHOT_VERSION;
    }
    if (status != CAROM_OK) {
        return false;
    }
    if (f->kind == SUBNORMAL_SPRING) {
        return loads_and_steps(data, size);
    }
    carom_world_id world = carom_create_world_from_snapshot(data, size);
    if (CAROM_IS_NON_NULL(world)) {
        carom_destroy_world(world);
        return false;
    }
    return true;
}

static int make_findings(corpus* c) {
    unsigned char buffer[MAX_SEED_SIZE];
    for (size_t i = 0; i < sizeof(findings) / sizeof(findings[0]); ++i) {
        const finding* f = &findings[i];
        c->count += 1;
        if (c->checking) {
            size_t size = 0;
            unsigned char* data = read_input(c, f->name, &size);
            if (data == NULL) {
                problem(c, f->name, "missing: regenerate the corpus (docs/fuzzing.md)");
            } else if (!refused(f, data, size)) {
                problem(c, f->name, "no longer refused, or stale: regenerate the corpus");
            }
            free(data);
            continue;
        }
        size_t size = make_finding(f, buffer, sizeof(buffer));
        if (size == 0) {
            return -1;
        }
        if (!refused(f, buffer, size)) {
            fprintf(stderr, "%s: the engine accepts it: the fix of this finding is gone\n",
                    f->name);
            return -1;
        }
        if (write_input(c, f->name, buffer, size) != 0) {
            return -1;
        }
    }
    return 0;
}

int main(int argc, char** argv) {
    bool checking = argc == 3 && strcmp(argv[1], "--check") == 0;
    if (argc != 2 && !checking) {
        fprintf(stderr, "usage: make_snapshot_corpus [--check] DIR\n");
        return 2;
    }
    corpus c = {argv[argc - 1], checking, 0, 0};
    if (make_seeds(&c) != 0 || make_findings(&c) != 0) {
        return 1;
    }
    if (checking) {
        printf("%s: %d of %d seeds and findings in the current format (version %d)%s\n", c.dir,
               c.count - c.problems, c.count, CAROM_SNAPSHOT_VERSION,
               c.problems > 0 ? "" : ", refused where they must be");
    }
    return c.problems > 0 ? 1 : 0;
}
