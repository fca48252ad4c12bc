/* snapshot_bench: what snapshots cost (carom/snapshot.h, docs/benchmarks.md "Snapshots").
 *
 * For each benchmark scene (arena 1000 and 5000, pyramid 20 and 40), built by bench/scenes.c
 * and stepped 300 times at 1/60 s, it prints the size of the state and scene parts and the
 * median wall time of
 * - save state: the state part into a preallocated buffer (what a rollback keeps every tick);
 * - restore state: that state back into the same world (a rollback). To measure a real rollback
 *   rather than a no-op, the world alternates between two states 10 steps apart;
 * - save full: scene and state part (a save game);
 * - create from full: a new world from them (loading a save game), creation only.
 * Then it checks the result: a world rolled back to step 300 and stepped 60 more must match, bit
 * for bit, a world stepped 360 times that was never restored, and so must a world created from
 * the full snapshot of step 300 (MATCH, or the program exits 1).
 *
 * Usage: snapshot_bench [repetitions] (default 201; odd, so the median is one measurement) */
#define _POSIX_C_SOURCE 200809L
#include "scenes.h"

#include <carom/snapshot.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DT (1.0 / 60.0)
#define SETTLE_STEPS 300
#define ROLLBACK_STEPS 10
#define CHECK_STEPS 60
#define WARM_UP 20

typedef struct bench_scene {
    carom_scene_kind kind;
    const char* name;
    int size;
} bench_scene;

static const bench_scene scenes[] = {
    {CAROM_SCENE_ARENA, "arena", 1000},
    {CAROM_SCENE_ARENA, "arena", 5000},
    {CAROM_SCENE_PYRAMID, "pyramid", 20},
    {CAROM_SCENE_PYRAMID, "pyramid", 40},
};

static void die(const char* what) {
    fprintf(stderr, "snapshot_bench: %s: %s\n", what, carom_last_error());
    exit(1);
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int compare(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double median(double* samples, int count) {
    qsort(samples, (size_t)count, sizeof(double), compare);
    return samples[count / 2];
}

static carom_world_id build(const bench_scene* scene, carom_body_id* bodies, int steps) {
    carom_world_def def = carom_scene_world_def(scene->kind);
    carom_world_id world = carom_create_world(&def);
    if (CAROM_IS_NULL(world) || carom_scene_build(world, scene->kind, scene->size, bodies) < 0) {
        die("building the scene failed");
    }
    for (int i = 0; i < steps; ++i) {
        if (carom_world_step(world, DT) != CAROM_OK) {
            die("a step failed");
        }
    }
    return world;
}

static void step(carom_world_id world, int steps) {
    for (int i = 0; i < steps; ++i) {
        if (carom_world_step(world, DT) != CAROM_OK) {
            die("a step failed");
        }
    }
}

/* A world's parts in a malloc'd buffer of exactly the measured size. */
static unsigned char* save(carom_world_id world, carom_snapshot_parts parts, size_t* size) {
    if (carom_world_save(world, parts, NULL, 0, size) != CAROM_OK) {
        die("measuring a save failed");
    }
    unsigned char* buffer = malloc(*size);
    if (buffer == NULL || carom_world_save(world, parts, buffer, *size, size) != CAROM_OK) {
        die("saving failed");
    }
    return buffer;
}

typedef struct result {
    int bodies, contacts, touching;
    size_t state_bytes, scene_bytes, full_bytes;
    double save_state_us, restore_us, save_full_us, create_us;
    int match;
} result;

static result run(const bench_scene* scene, int repetitions) {
    result out = {0};
    int count = carom_scene_body_count(scene->kind, scene->size);
    carom_body_id* bodies = calloc((size_t)count, sizeof(carom_body_id));
    carom_body_id* reference_bodies = calloc((size_t)count, sizeof(carom_body_id));
    double* samples = calloc((size_t)repetitions, sizeof(double));
    if (bodies == NULL || reference_bodies == NULL || samples == NULL) {
        die("out of memory");
    }
    carom_world_id world = build(scene, bodies, SETTLE_STEPS);

    /* Sizes. The state's contact count comes from its own header. */
    size_t state_size = 0, later_size = 0, full_size = 0;
    unsigned char* state = save(world, CAROM_SNAPSHOT_STATE, &state_size);
    unsigned char* full = save(world, CAROM_SNAPSHOT_FULL, &full_size);
    if (carom_world_save(world, CAROM_SNAPSHOT_SCENE, NULL, 0, &out.scene_bytes) != CAROM_OK) {
        die("measuring the scene failed");
    }
    carom_snapshot_info info;
    if (carom_snapshot_get_info(state, state_size, &info) != CAROM_OK) {
        die("the state's info was refused");
    }
    carom_world_counters counters = carom_world_get_counters(world);
    out.bodies = info.body_count;
    out.contacts = info.contact_count;
    out.touching = counters.touching_count;
    out.state_bytes = state_size;
    out.full_bytes = full_size;

    /* The state 10 steps on, to alternate with: each timed restore then really changes poses,
     * velocities and contacts, as a rollback does. The world is left at step 300 again. */
    step(world, ROLLBACK_STEPS);
    unsigned char* later = save(world, CAROM_SNAPSHOT_STATE, &later_size);

    /* Save state into a preallocated buffer, large enough for either state. */
    size_t capacity = 2 * (state_size > later_size ? state_size : later_size);
    unsigned char* buffer = malloc(capacity);
    if (buffer == NULL) {
        die("out of memory");
    }
    size_t written = 0;
    for (int i = 0; i < WARM_UP + repetitions; ++i) {
        double start = now_us();
        carom_status status = carom_world_save(world, CAROM_SNAPSHOT_STATE, buffer, capacity,
                                               &written);
        double end = now_us();
        if (status != CAROM_OK) {
            die("saving the state failed");
        }
        if (i >= WARM_UP) {
            samples[i - WARM_UP] = end - start;
        }
    }
    out.save_state_us = median(samples, repetitions);

    /* Restore, alternating between step 310 and step 300; it ends on step 300 (an even count of
     * restores after the first, which goes to 300). */
    int restores = WARM_UP + repetitions + ((WARM_UP + repetitions) % 2 == 0 ? 1 : 0);
    for (int i = 0; i < restores; ++i) {
        int to_300 = i % 2 == 0;
        const unsigned char* data = to_300 ? state : later;
        size_t size = to_300 ? state_size : later_size;
        double start = now_us();
        carom_status status = carom_world_restore(world, data, size);
        double end = now_us();
        if (status != CAROM_OK) {
            die("restoring the state failed");
        }
        if (i >= restores - repetitions) {
            samples[i - (restores - repetitions)] = end - start;
        }
    }
    out.restore_us = median(samples, repetitions);

    /* Into its own buffer: `full` stays the snapshot taken before any restore. */
    unsigned char* full_buffer = malloc(2 * full_size);
    if (full_buffer == NULL) {
        die("out of memory");
    }
    for (int i = 0; i < WARM_UP + repetitions; ++i) {
        double start = now_us();
        carom_status status = carom_world_save(world, CAROM_SNAPSHOT_FULL, full_buffer,
                                               2 * full_size, &written);
        double end = now_us();
        if (status != CAROM_OK) {
            die("saving the full snapshot failed");
        }
        if (i >= WARM_UP) {
            samples[i - WARM_UP] = end - start;
        }
    }
    out.save_full_us = median(samples, repetitions);

    for (int i = 0; i < WARM_UP + repetitions; ++i) {
        double start = now_us();
        carom_world_id copy = carom_create_world_from_snapshot(full, full_size);
        double end = now_us();
        if (CAROM_IS_NULL(copy)) {
            die("creating a world from the full snapshot failed");
        }
        carom_destroy_world(copy);
        if (i >= WARM_UP) {
            samples[i - WARM_UP] = end - start;
        }
    }
    out.create_us = median(samples, repetitions);

    /* Correctness. The world is at step 300 after an odd number of restores; step it on, roll it
     * back once more (from somewhere else), then 60 steps in it, in a copy made from the full
     * snapshot, and in a reference world never restored must give the same bits. */
    step(world, 25);
    if (carom_world_restore(world, state, state_size) != CAROM_OK) {
        die("the final rollback failed");
    }
    carom_world_id copy = carom_create_world_from_snapshot(full, full_size);
    if (CAROM_IS_NULL(copy)) {
        die("creating a world from the full snapshot failed");
    }
    carom_world_id reference = build(scene, reference_bodies, SETTLE_STEPS);
    step(world, CHECK_STEPS);
    step(copy, CHECK_STEPS);
    step(reference, CHECK_STEPS);
    /* carom_bodies_hash: the scene's bodies in the order the scene made them. A world created
     * from a snapshot has its own world id, so the application's body ids do not name its
     * bodies; it keeps their id slots, though, so the whole-world hash (every body in id order,
     * static ones too) compares it with the reference. */
    uint64_t rolled_back = carom_bodies_hash(bodies, count);
    uint64_t expected = carom_bodies_hash(reference_bodies, count);
    uint64_t copy_hash = carom_world_hash(copy);
    uint64_t reference_hash = carom_world_hash(reference);
    out.match = rolled_back == expected && copy_hash == reference_hash;
    if (!out.match) {
        fprintf(stderr,
                "%s %d: MISMATCH: rolled back %016llx, reference %016llx; created from full "
                "%016llx, reference world %016llx\n",
                scene->name, scene->size, (unsigned long long)rolled_back,
                (unsigned long long)expected, (unsigned long long)copy_hash,
                (unsigned long long)reference_hash);
    }

    carom_destroy_world(reference);
    carom_destroy_world(copy);
    carom_destroy_world(world);
    free(full_buffer);
    free(buffer);
    free(later);
    free(full);
    free(state);
    free(samples);
    free(reference_bodies);
    free(bodies);
    return out;
}

int main(int argc, char** argv) {
    int repetitions = argc > 1 ? atoi(argv[1]) : 201;
    if (repetitions < 1 || repetitions > 100001) {
        fprintf(stderr, "usage: snapshot_bench [repetitions 1..100001]\n");
        return 2;
    }
    printf("%d steps of 1/60 s, then the median of %d timings after %d warm-up runs\n\n",
           SETTLE_STEPS, repetitions, WARM_UP);
    printf("| scene | bodies | contacts (touching) | state B | state B/body | scene B | full B "
           "| save state µs | restore state µs | save full µs | create from full µs | check |\n");
    printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    int failed = 0;
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; ++i) {
        result r = run(&scenes[i], repetitions);
        printf("| %s %d | %d | %d (%d) | %zu | %.1f | %zu | %zu | %.1f | %.1f | %.1f | %.1f | %s |\n",
               scenes[i].name, scenes[i].size, r.bodies, r.contacts, r.touching, r.state_bytes,
               (double)r.state_bytes / r.bodies, r.scene_bytes, r.full_bytes, r.save_state_us,
               r.restore_us, r.save_full_us, r.create_us, r.match ? "MATCH" : "MISMATCH");
        fflush(stdout);
        failed |= !r.match;
    }
    return failed ? 1 : 0;
}
