/* bench_carom: one timed run of a benchmark scene on carom (protocol: bench_common.h), at its
 * defaults (4 substeps), sleeping on (the default) or off (the world def's enable_sleep).
 * Variants: "ccd" (the defaults, continuous collision on) and "no-ccd" (continuous collision
 * off), so the cost of continuous collision can be read off the same benchmark run; and
 * "lanes1", "lanes2", "lanes4", "lanes8": the defaults with the contact solver held to that many
 * lanes (carom_set_solver_lanes), to measure one width against another (the default is the
 * widest this machine runs; the width changes no result bit). --threads T is the world def's
 * worker_count: carom's own pool of T - 1 threads and the calling thread. */
#include "bench_common.h"
#include "scenes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct carom_run {
    carom_world_id world;
    carom_body_id* bodies;
} carom_run;

static void destroy(void* world) {
    carom_run* run = world;
    carom_destroy_world(run->world);
    free(run->bodies);
    free(run);
}

/* The lane width a "lanesN" variant asks for, or 0 (the default width) for the others. */
static int variant_lanes(const char* variant) {
    return strncmp(variant, "lanes", 5) == 0 ? atoi(variant + 5) : 0;
}

static void* build(const carom_scene_desc* desc, const char* variant, int enable_sleep,
                   int threads) {
    if (carom_set_solver_lanes(variant_lanes(variant)) != CAROM_OK) {
        fprintf(stderr, "bench_carom: %s\n", carom_last_error());
        return NULL;
    }
    carom_world_def def = carom_scene_world_def(desc->kind);
    def.worker_count = threads; /* the world's own threads (docs/threads.md) */
    def.enable_continuous = strcmp(variant, "no-ccd") != 0;
    def.enable_sleep = enable_sleep;
    carom_run* run = calloc(1, sizeof *run);
    if (run == NULL) {
        return NULL;
    }
    run->world = carom_create_world(&def);
    run->bodies = malloc(sizeof(carom_body_id) * (size_t)desc->body_count);
    if (run->bodies == NULL || carom_scene_build_desc(run->world, desc, run->bodies) < 0) {
        destroy(run);
        return NULL;
    }
    return run;
}

static void step(void* world, double dt) {
    carom_world_step(((carom_run*)world)->world, dt);
}

static void positions(void* world, const carom_scene_desc* desc, double* xy) {
    carom_run* run = world;
    for (int i = 0; i < desc->body_count; ++i) {
        carom_vec2 p = carom_body_get_position(run->bodies[i]);
        xy[2 * i] = p.x;
        xy[2 * i + 1] = p.y;
    }
}

int main(int argc, char** argv) {
    static const char* const variants[] = {"ccd",    "no-ccd", "lanes1", "lanes2",
                                           "lanes4", "lanes8", NULL};
    const bench_engine engine = {"carom",   variants, build, step,
                                 positions, destroy,  1,     CAROM_MAX_WORKERS};
    return bench_main(argc, argv, &engine);
}
